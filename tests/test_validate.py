"""validate: findings on the examples, schema parity with the official schema, the corpus, fuzzing."""

import json
from pathlib import Path
import re

from hypothesis import HealthCheck, given, settings, strategies as st
import pytest

from scriptforge.cli import main
from scriptforge.io.errors import InputError
from scriptforge.model.findings import REGISTRY, SEVERITIES
from scriptforge.scripts.analysis import validate_data, validate_file
from scriptforge.scripts.schema import SCRIPT_SCHEMA, schema_valid

from tests.conftest import EXAMPLES, ROOT, shared_path


def corpus_files() -> list[Path]:
    scripts = shared_path("reference", "scripts")
    wc25 = shared_path("reference", "official", "wc25")
    return sorted(scripts.glob("*.json")) + sorted(wc25.glob("*/script.json"))


def by_code(report, code):
    return [f for f in report.findings if f.code == code]


def test_fang_gu_zealot_has_no_setup_warning(db):
    # Baron + Fang Gu + Balloonist at 9 would be 6 Outsiders, one more than the script has; but the
    # Balloonist may add none, so every setup character can still be in play: no finding, and the
    # setup table stops at 5 Outsiders
    report = validate_file(EXAMPLES / "fang-gu-zealot.json", db)
    assert not by_code(report, "setup-shortfall") and report.ok


def test_setup_character_that_cannot_be_in_play(db):
    report = validate_data(["chef", "noble", "clockmaker", "grandmother", "librarian", "pixie", "empath",
                            "recluse", "mutant", "poisoner", "witch", "baron", "imp"], db)
    shortfalls = {tuple(f.data["players"]): f for f in by_code(report, "setup-shortfall")}
    assert shortfalls[(6, 8, 11)].data == {"team": "outsider", "players": [6, 8, 11], "needed": 3,
                                           "available": 2, "characters": ["baron"]}
    assert shortfalls[(6, 8, 11)].message == ("baron cannot be in play at 6, 8 and 11 players: every such bag "
                                              "needs 3 Outsiders but only 2 of the script's can be in it")
    assert shortfalls[(9, 12)].data["needed"] == 4 and report.ok


def test_faith_trust_reports_jinx_and_djinn(db, runner):
    result = runner.invoke(main, ["validate", str(EXAMPLES / "faith-trust-and-pixie-dust.json"), "--format", "json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["ok"] is True
    (jinx,) = [f for f in data["findings"] if f["code"] == "jinx-without-djinn"]
    assert jinx["data"] == {"pairs": [["bountyhunter", "philosopher"]]} and jinx["severity"] == "info"


def test_semantic_findings(db):
    report = validate_data([
        {"id": "_meta", "name": "S"}, "huntsman", "chef", "imp", "imp", "baron", "pilgrimm",
        {"id": "longname", "name": "N" * 31, "team": "townsfolk", "ability": "A" * 251},
        "gunslinger_x", "djinn"], db)
    codes = {f.code for f in report.findings}
    assert {"companion-missing", "duplicate-character", "unknown-character", "text-too-long",
            "team-too-small"} <= codes
    assert "schema-violation" not in codes  # the schema only failed on lengths: reported as text-too-long
    (companion,) = by_code(report, "companion-missing")
    assert companion.data == {"character": "huntsman", "missing": "damsel"} and companion.path == "/1"
    lengths = {f.data["field"]: f.data for f in by_code(report, "text-too-long")}
    assert lengths["name"] == {"field": "name", "length": 31, "limit": 30}
    assert lengths["ability"]["limit"] == 250
    counts = by_code(report, "team-counts")[0].data
    assert counts["fabled"] == 1 and counts["townsfolk"] == 3  # the Djinn is counted apart
    small = [f.data for f in by_code(report, "team-too-small") if f.data["team"] == "townsfolk"]
    # the Baron is the only Minion, so it is in play: 5 Townsfolk at 7-12 players, not the base's 7
    # (and the Huntsman, without the Damsel, is in no bag: 2 of the script's Townsfolk can be)
    assert small[0] == {"team": "townsfolk", "players": [7, 8, 9, 10, 11, 12], "needed": 5, "available": 2}
    assert not report.ok


def test_team_too_small_data(db):
    report = validate_data(["chef", "empath", "monk", "imp", "poisoner"], db)
    small = {(f.data["team"], f.data["needed"]): f.data["players"] for f in by_code(report, "team-too-small")}
    assert small[("townsfolk", 5)] == [7, 8, 9]
    assert small[("outsider", 1)] == [6, 8, 11, 14]
    assert small[("minion", 2)] == [10, 11, 12]


def test_validate_several_files_and_exit_codes(runner, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    unknown = tmp_path / "unknown.json"
    unknown.write_text(json.dumps(["imp", "chef", "empath", "baron", "nobody"]), encoding="utf-8")
    good = str(EXAMPLES / "english-almanac-25.json")
    assert runner.invoke(main, ["validate", good]).exit_code == 0
    one = runner.invoke(main, ["validate", good, str(unknown)])
    assert one.exit_code == 1 and "[unknown-character] unknown character 'nobody'" in one.stdout
    two = runner.invoke(main, ["validate", good, str(unknown), str(bad), "--format", "json"])
    assert two.exit_code == 2
    assert two.stderr == f"Error: {bad}:1: not valid JSON: Expecting property name enclosed in double quotes (column 2)\n"
    data = json.loads(two.stdout)
    assert data["ok"] is False
    assert {f["file"] for f in data["findings"]} == {good, str(unknown), str(bad)}


def test_validate_a_folder_in_order_with_jobs_and_schema_paths(runner, tmp_path):
    """A folder stands for its .json files in name order; --jobs 2 prints the same, in the same
    order; a schema violation names the entry and field it is in."""
    folder = tmp_path / "scripts"
    folder.mkdir()
    (folder / "c-bad.json").write_text("[", encoding="utf-8")
    (folder / "a-good.json").write_text((EXAMPLES / "english-almanac-25.json").read_text(encoding="utf-8"),
                                        encoding="utf-8")
    (folder / "b-schema.json").write_text(json.dumps(
        ["imp", "chef", "empath", {"id": "x", "name": "X", "team": "townsfolk", "ability": 7}, "baron"]),
        encoding="utf-8")
    (folder / "notes.txt").write_text("not a script", encoding="utf-8")
    one = runner.invoke(main, ["validate", str(folder), "--format", "jsonl"])
    two = runner.invoke(main, ["validate", str(folder), "--format", "jsonl", "--jobs", "2"])
    assert one.exit_code == two.exit_code == 2 and one.stdout == two.stdout and one.stderr == two.stderr
    lines = [json.loads(line) for line in one.stdout.splitlines()]
    assert [Path(line["file"]).name for line in lines] == ["a-good.json", "b-schema.json", "c-bad.json"]
    violations = [f for f in lines[1]["findings"] if f["code"] == "schema-violation"]
    assert violations and {f["path"] for f in violations} == {"/3/ability"}
    empty = tmp_path / "empty"
    empty.mkdir()
    result = runner.invoke(main, ["validate", str(empty)])
    assert result.exit_code == 2 and result.stderr == f"Error: {empty}: the folder holds no .json script files\n"


def test_forked_workers_get_a_bounded_window_and_stop_when_the_caller_does():
    """`validate --jobs` streams: the workers are handed only a few chunks ahead of what the
    caller has taken (the pool alone takes every file at once and keeps every report until it
    is printed), and a caller that stops (`| head -1`) ends the pool instead of waiting on it."""
    import time

    from scriptforge.io.batch import can_fork, forked_map

    if not can_fork():
        pytest.skip("no fork on this platform")
    pulled: list[int] = []

    def files():
        for n in range(100_000):
            pulled.append(n)
            yield n

    results = forked_map(lambda n: 2 * n, files(), jobs=2, chunksize=4)
    assert [next(results) for _ in range(10)] == [2 * n for n in range(10)]
    time.sleep(0.3)  # room for the pool's feeder to run ahead, as far as it may
    assert len(pulled) <= 10 + 4 * 2 * 4 + 1  # taken + the window (4 chunks per job) + one waiting
    results.close()  # returns at once: the feeder is not left waiting for room
    assert list(forked_map(lambda n: n + 1, range(200), jobs=2)) == list(range(1, 201))


# -- schema parity --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def official_validator():
    from jsonschema import Draft202012Validator

    return Draft202012Validator(json.loads(shared_path("reference", "official", "script-schema.json").read_text()))


@pytest.fixture(scope="module")
def our_validator():
    from jsonschema import Draft7Validator  # every scriptforge schema is draft-07, the draft fastjsonschema implements

    return Draft7Validator(json.loads(SCRIPT_SCHEMA.read_text()))


def test_schema_verdicts_match_official_on_corpus(official_validator, our_validator):
    files = corpus_files()
    assert len(files) > 300
    verdicts = []
    for path in files:
        data = json.loads(path.read_text(encoding="utf-8-sig"))
        official = official_validator.is_valid(data)
        assert our_validator.is_valid(data) == official, path.name
        assert schema_valid(data) == official, path.name  # the fast verdict used by validate
        verdicts.append(official)
    assert True in verdicts and False in verdicts  # the corpus exercises both verdicts


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4),
    max_leaves=12)
KEYS = ["id", "name", "team", "ability", "edition", "flavor", "firstNight", "otherNight", "reminders",
        "remindersGlobal", "setup", "jinxes", "special", "image", "author", "firstNightReminder", "bootlegger",
        "hideTitle", "logo", "flavour"]
VALUES = {
    "id": st.sampled_from(["_meta", "imp", "chef", "Lil' Monsta", "fang_gu", "homebrew-x", "", "x" * 21, "x" * 51]),
    "team": st.sampled_from(["townsfolk", "outsider", "minion", "demon", "traveller", "traveler", "fabled", "x"]),
    "name": st.text(max_size=35),
    "ability": st.sampled_from(["Each night, x.", "[+1 Outsider]", "[외지인 +2명]", "[X Outsiders]", "A" * 251, ""]),
}
entries = st.one_of(
    st.sampled_from(["imp", "chef", "baron", "empath", "monk", "poisoner", "recluse", "_meta", "djinn",
                     "huntsman", "bountyhunter", "philosopher", "ko_KR_imp", "임프", "x" * 21, "\u0000", "😈"]),
    st.dictionaries(st.sampled_from(KEYS), st.one_of(*VALUES.values(), json_values), max_size=6).map(
        lambda d: d if "id" not in d or not isinstance(d["id"], (dict, list)) else d),
    st.fixed_dictionaries({k: v for k, v in VALUES.items()},
                          optional={"firstNight": st.floats(allow_nan=True) | st.integers(),
                                    "reminders": st.lists(st.text(max_size=35), max_size=3),
                                    "jinxes": json_values, "setup": json_values}),
    json_values,
)
scripts = st.one_of(st.lists(entries, max_size=12), json_values)


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=scripts)
def test_fuzzed_scripts_give_findings_or_clean_input_errors(db, data):
    try:
        report = validate_data(data, db, "fuzz.json")
    except InputError as exc:
        assert exc.exit_code == 2 and "\n" not in str(exc)
        return
    for f in report.findings:
        assert f.code in REGISTRY and f.severity == REGISTRY[f.code].severity
        json.dumps(f.as_dict())
    assert report.ok == (not any(f.severity == "error" for f in report.findings))
    if not schema_valid(data):
        assert not report.ok


@settings(max_examples=200, deadline=None)
@given(data=st.lists(entries, min_size=5, max_size=8))
def test_fuzzed_schema_verdicts_match_official(official_validator, our_validator, data):
    assert our_validator.is_valid(data) == official_validator.is_valid(data)
    assert schema_valid(data) == our_validator.is_valid(data)  # the fast verdict, shape by shape


def test_fast_verdict_takes_exactly_one_shape(our_validator):
    """A _meta object that is also a full character object matches two shapes of the schema's
    oneOf, so it is invalid; the fast verdict checks both shapes for it."""
    plain = ["imp", "chef", "baron", "empath", "monk"]
    both = {"id": "_meta", "name": "x", "team": "demon", "ability": "y"}
    meta_only = {"id": "_meta", "name": "x", "team": "demon"}
    short_form = {"id": "washerwoman"}
    for item, valid in ((both, False), (meta_only, True), (short_form, True), ({"id": "_meta"}, True),
                        ({**short_form, "extra": 1}, False), ({**both, "id": "x"}, True)):
        assert our_validator.is_valid([item, *plain]) is valid, item
        assert schema_valid([item, *plain]) is valid, item


def test_deep_nesting_and_huge_strings(db, runner, tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100000 + "]" * 100000, encoding="utf-8")
    result = runner.invoke(main, ["validate", str(deep)])
    assert result.exit_code == 2 and "Traceback" not in result.stderr and result.stderr.count("\n") == 1
    nested = [{"id": "x", "name": "x", "team": "demon", "ability": "x", "jinxes": [[[[[[[[[]]]]]]]]]}] + ["imp"] * 5
    assert not validate_data(nested, db).ok
    huge = validate_data(["z" * 1_000_000, "imp", "chef", "baron", "recluse"], db)
    assert all(len(f.message) < 400 for f in huge.findings)


def test_corpus_validates_with_clean_exit_codes(db, runner):
    files = [str(p) for p in corpus_files()]
    for path in files:
        try:
            validate_file(path, db)
        except InputError:
            pass
    result = runner.invoke(main, ["validate", *files, "--format", "json"])
    assert result.exit_code in (0, 1, 2) and result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.stderr
    assert json.loads(result.stdout)["ok"] in (True, False)


# -- finding codes are documented in one place ------------------------------------------------------


def test_findings_doc_matches_registry():
    text = (ROOT / "docs" / "findings.md").read_text(encoding="utf-8")
    documented = dict(re.findall(r"^## ([a-z-]+)\n\nSeverity: (error|warning|info)\.", text, flags=re.M))
    assert documented == {code: c.severity for code, c in REGISTRY.items() if c.domain in ("script", "data")}
    assert all(c.severity in SEVERITIES for c in REGISTRY.values())


def test_show_and_list_stay_import_light():
    import subprocess
    import sys

    code = ("import sys, scriptforge.cli, scriptforge.scripts.analysis, scriptforge.scripts.schema, scriptforge.rules.night, scriptforge.scripts.script;"
            "print(any(m in sys.modules for m in ('jsonschema', 'weasyprint')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
