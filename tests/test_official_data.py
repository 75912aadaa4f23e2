"""Real scripts with the official data: unknown characters refused (and --skip-unknown), the
official sheet order of pack characters, jinx-outdated and night-order-missing."""

import json
from pathlib import Path

import pytest

from scriptforge.scripts.analysis import analyse
from scriptforge.cli import main
from scriptforge.db.loading import load_database
from scriptforge.scripts.analysis import validate_data
from tests.conftest import shared_path

SCRIPT = [{"id": "_meta", "name": "Pixie test"}, "pixi", "washerwoman", "chef", "empath", "monk", "imp", "baron"]


def write(path: Path, data) -> Path:
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.mark.parametrize("command", [["build", "--format", "html"], ["nightsheet", "--format", "html"],
                                     ["almanac", "--format", "html"], ["night"], ["setup"], ["jinxes"], ["order"],
                                     ["export"]])
def test_every_command_refuses_unknown_characters(command, runner, tmp_path):
    script = write(tmp_path / "pixie.json", SCRIPT)
    out = ["-o", str(tmp_path / "out.html")] if command[0] in ("build", "nightsheet", "almanac") else []
    result = runner.invoke(main, ["--no-packs", *command, str(script), *out])
    assert result.exit_code == 1, result.output
    errors = result.stderr.splitlines()
    assert errors == [f"Error: {script}: /1: unknown character 'pixi'; did you mean Pixie?",
                      f"Error: {script}: /2: 'washerwoman' is an official townsfolk that is not loaded; "
                      f"run `scriptforge pack update` to get the official data",
                      f"Error: {script}: 2 character(s) cannot be used; --skip-unknown leaves them out and goes on"]
    assert not (tmp_path / "out.html").exists()


def test_skip_unknown_renders_without_them_and_says_what_was_left_out(runner, tmp_path):
    script = write(tmp_path / "pixie.json", SCRIPT)
    result = runner.invoke(main, ["--no-packs", "build", str(script), "--format", "html", "--skip-unknown",
                                  "--lang", "en", "-o", str(tmp_path / "sheet.html")])
    assert result.exit_code == 0, result.output
    assert "--skip-unknown: left out 2 character(s) the script names: /1 'pixi', /2 'washerwoman'" in result.stderr
    html = (tmp_path / "sheet.html").read_text(encoding="utf-8")
    assert 'data-id="chef"' in html and 'data-id="pixie"' not in html


def test_validate_names_pack_update_for_an_official_character_not_loaded(db):
    report = validate_data(["kazali", "chef", "imp"], db)
    [unknown] = [f for f in report.findings if f.code == "unknown-character"]
    assert unknown.path == "/0" and "`scriptforge pack update`" in unknown.message and not report.ok


def test_pack_characters_in_the_official_sheet_order(official_ko, runner, tmp_path):
    """`order`, the sheet and the almanac agree with roles.json's order within each team."""
    from scriptforge.render.almanac import almanac_view
    from scriptforge.render.views import make_view
    from scriptforge.scripts.script import read_script

    _, pack, _ = official_ko
    roles = json.loads((shared_path("reference", "official") / "roles.json").read_text(encoding="utf-8"))
    official = [r["id"] for r in roles]
    db = load_database(packs=[pack])
    for file in sorted(shared_path("reference", "official", "wc25").glob("*/script.json"))[:6]:
        result = runner.invoke(main, ["--pack", str(pack), "order", str(file), "--format", "json"])
        rows = json.loads(result.output)
        teams = {}
        for row in rows:
            teams.setdefault(row["team"], []).append(row["id"])
        for ids in teams.values():
            ranked = [i for i in ids if i in official]
            assert ranked == sorted(ranked, key=official.index), (file, ids)
        script = read_script(file, db)
        sheet = [c.id for t in (*make_view(analyse(script, db), "en", "a4").teams,) for c in t.characters]
        book = [p.id for p in almanac_view(analyse(script, db), "en", "a4").characters]
        order = [r["id"] for r in rows if r["team"] in ("townsfolk", "outsider", "minion", "demon")]
        assert sheet == order and [i for i in book if i in order] == order, file


def test_jinx_outdated_quotes_both_and_the_sheet_prints_the_scripts(official_ko):
    from scriptforge.render.views import make_view
    from scriptforge.scripts.script import script_from_data

    _, pack, _ = official_ko
    db = load_database(packs=[pack])
    official = next(j for j in db.jinxes if set(j.characters) == {"spy", "alchemist"}).texts["en"]
    ours = "Our own older wording of this jinx."
    data = [{"id": "spy", "name": "Spy", "team": "minion", "ability": "Each night, you see the Grimoire.",
             "jinxes": [{"id": "alchemist", "reason": ours}, {"id": "poppygrower", "reason": " ".join(
                 next(j for j in db.jinxes if set(j.characters) == {"spy", "poppygrower"}).texts["en"].split())}]},
            "alchemist", "poppygrower", "cannibal", "chef", "imp",
            {"id": "cannibal_x", "name": "X", "team": "outsider", "ability": "Nothing."}]
    data.append({"id": "marionette", "name": "Marionette", "team": "minion", "ability": "You think you are good.",
                 "jinxes": [{"id": "poppygrower", "reason": "A retired jinx, in our words."}]})
    report = validate_data(data, db)
    found = [f for f in report.findings if f.code == "jinx-outdated"]
    assert [(f.path, f.data["retired"]) for f in found] == [("/0/jinxes/0", False), ("/7/jinxes/0", True)]
    assert ours in found[0].message and official[:40] in found[0].message and found[0].severity == "warning"
    sheet = make_view(analyse(script_from_data(data, db), db), "en", "a4")
    assert [j.text for j in sheet.jinxes if {j.first.id, j.second.id} == {"spy", "alchemist"}] == [ours]


def test_night_order_missing(db):
    data = [{"id": "_meta", "name": "Short nights", "firstNight": ["dawn", "chef", "dusk"],
             "otherNight": ["dusk", "imp", "dawn"]}, "chef", "empath", "imp", "monk", "baron"]
    found = [(f.path, f.message) for f in validate_data(data, db).findings if f.code == "night-order-missing"]
    assert found == [
        ("/0/firstNight", "_meta.firstNight leaves out 'empath', who wakes on the first night by the official night sheet"),
        ("/0/firstNight", "_meta.firstNight puts dusk after dawn"),
        ("/0/otherNight", "_meta.otherNight leaves out 'empath', who wakes on other nights by the official night sheet"),
        ("/0/otherNight", "_meta.otherNight leaves out 'monk', who wakes on other nights by the official night sheet"),
    ]


def test_a_korean_sheet_of_a_wc25_script_has_no_english_official_text(official_ko):
    from scriptforge.render.pdf import Renderer
    from scriptforge.render.views import make_view
    from scriptforge.rules.jinxes import script_jinxes
    from scriptforge.scripts.script import read_script

    _, pack, _ = official_ko
    db = load_database(packs=[pack])
    file = shared_path("reference", "official", "wc25", "djinnsbargain", "script.json")
    script = read_script(file, db)
    html = Renderer().render(make_view(analyse(script, db), "ko", "a4", night=True), "html").files[0][1].decode("utf-8")
    official = [c for c in script.characters if not c.homebrew and c.id not in script.overridden]
    assert len(official) >= 10
    for ch in official:
        assert ch.texts["ko"].name in html and ch.texts["ko"].ability in html, ch.id
        assert ch.texts["en"].ability not in html, ch.id
    jinxes = [j for j in script_jinxes(script, db) if j.source == "database"]
    assert jinxes and all(j.texts["ko"] in html and j.texts["en"] not in html for j in jinxes)
    for step in ("dusk", "dawn"):
        assert db.steps[step].first_night["en"] not in html


def test_a_partial_pack_keeps_the_official_order(tmp_path, db):
    from scriptforge.db.official import official_facts
    from scriptforge.packs.install import import_pack

    roles = [r for r in json.loads((shared_path("reference", "official") / "roles.json").read_text(encoding="utf-8"))
             if r["id"] in ("kazali", "washerwoman", "pixie", "steward")][::-1]
    path, _ = import_pack([write(tmp_path / "roles.json", roles)], out=tmp_path / "partial", base_db=db)
    positions = official_facts().positions
    ids = [i for i in load_database(packs=[path]).characters if i in positions]
    assert ids == sorted(ids, key=positions.get) and ids[0] == "steward"


def test_shipped_official_facts_match_the_official_files(db):
    from scriptforge.db.official import official_facts

    folder = shared_path("reference", "official")
    roles = json.loads((folder / "roles.json").read_text(encoding="utf-8"))
    jinxes = json.loads((folder / "jinxes.json").read_text(encoding="utf-8"))
    facts = official_facts()
    teams = ("townsfolk", "outsider", "minion", "demon", "traveller", "fabled", "loric")
    assert list(facts.teams.items()) == sorted(((r["id"], r["team"]) for r in roles),
                                               key=lambda pair: teams.index(pair[1]))  # stable: roles order
    assert facts.jinxes == {frozenset((e["id"], j["id"])) for e in jinxes for j in e["jinx"]}
    assert {c.id for c in db.characters.values() if not c.homebrew} <= set(facts.teams)


def test_suggestions_are_loaded_characters_and_not_loaded_is_a_warning_of_its_own(runner, tmp_path, db):
    from scriptforge.scripts.script import script_from_data
    from scriptforge.text.findings import findings_text

    script = script_from_data(["washerwoman", "grandmothr", "pixie", "imp"], db, "s.json")
    unknown = {f.data["id"]: f for f in script.problems if f.code == "unknown-character"}
    assert "did you mean Grandmother?" in unknown["grandmothr"].message
    assert all("not loaded" not in s for f in unknown.values() for s in f.data["suggestions"])
    [warning] = [f for f in script.problems if f.code == "official-not-loaded"]
    assert warning.severity == "warning" and warning.data["characters"] == ["washerwoman"]
    text = findings_text(list(script.problems), "s.json")
    assert "not ours to fix" not in text and "pack update" in text
    result = runner.invoke(main, ["--no-packs", "new", str(tmp_path / "n.json"), "--name", "N", "washerwoman"])
    assert result.exit_code != 0
    assert "official townsfolk that is not loaded" in result.output and "Fisherman" not in result.output


def test_objects_with_no_team_or_the_team_token_are_left_out_with_a_warning(runner, tmp_path):
    script = write(tmp_path / "tokens.json", [
        {"id": "_meta", "name": "Tokens"}, "noble", "librarian", "clockmaker", "chef", "empath",
        "drunk", "poisoner", "imp",
        {"id": "domestic", "name": "Domestic", "team": "token", "ability": "A note."},
        {"id": "warlock", "name": "Warlock", "ability": "Each night*, choose a player."}])
    result = runner.invoke(main, ["jinxes", str(script)])
    assert result.exit_code == 0, result.output
    assert "left out 2 object(s) with no team or the team 'token'" in result.stderr
    assert "/9/team 'domestic'" in result.stderr and "/10 'warlock'" in result.stderr
    result = runner.invoke(main, ["validate", str(script), "--format", "json"])
    codes = {f["code"]: f["severity"] for f in json.loads(result.output)["findings"]}
    assert codes["no-team"] == "warning" and "unknown-team" not in codes


def test_an_official_character_given_another_team_is_a_finding_and_setup_follows(db):
    from scriptforge.scripts.analysis import analyse
    from scriptforge.scripts.script import script_from_data

    base = ["noble", "librarian", "clockmaker", "chef", "empath", "grandmother", "drunk", "poisoner", "imp"]
    script = script_from_data([*base, {"id": "recluse", "name": "Recluse", "team": "townsfolk",
                                        "ability": "You might register as evil."}], db, "s.json")
    [changed] = [f for f in script.problems if f.code == "team-changed"]
    assert changed.severity == "warning" and changed.data["official_team"] == "outsider"
    assert changed.path == "/9/team" and script.get("recluse").team == "townsfolk"
    def counts(data):
        analysis = analyse(script_from_data(data, db, "s.json"), db)
        return next(f.data for f in analysis.findings if f.code == "team-counts")

    changed_counts = counts([*base, {"id": "recluse", "name": "Recluse", "team": "townsfolk",
                                     "ability": "You might register as evil."}])
    official_counts = counts([*base, "recluse"])
    assert changed_counts != official_counts
