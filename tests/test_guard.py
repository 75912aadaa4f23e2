"""Hostile input (issue 19): every user file read by one reader with one guard, one line per error.

Each test is one of the issue's repros; they use only the command line, so they also run (and
fail) against the code before the guard.
"""

import json
import os
from pathlib import Path
import subprocess
import sys

import pytest

from scriptforge.cli import main

FIVE = ["monk", "chef", "empath", "baron", "imp"]


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def one_error_line(result, *words) -> str:
    """The run ended in one "Error:" line (no traceback) that holds all `words`; that line."""
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    for word in words:
        assert word in lines[0], (word, lines[0])
    return lines[0]


@pytest.mark.parametrize("command", [["validate"], ["build", "--format", "html", "-o", "{dir}/x.html"]])
@pytest.mark.parametrize("entry, pointer", [
    ('{"id": "hb", "name": "Hb", "team": "townsfolk", "ability": "a\\ud800b"}', "/5/ability"),
    ('{"id": "_meta", "name": "x\\udc80"}', "/5/name"),
    ('{"id": "hb", "name": "Hb", "team": "townsfolk", "ability": "a", "firstNight": 1' + "0" * 5000 + "}",
     "/5/firstNight"),
    ('{"id": "hb", "name": "Hb", "team": "townsfolk", "ability": "a", "otherNight": NaN}', "/5/otherNight"),
    ('{"id": "hb", "name": "Hb", "team": "townsfolk", "ability": "a", "otherNight": 1e999}', "/5/otherNight"),
])
def test_hostile_values_in_a_script_are_one_line_with_their_pointer(runner, tmp_path, command, entry, pointer):
    script = write(tmp_path / "s.json", "[" + ", ".join(json.dumps(c) for c in FIVE) + ", " + entry + "]")
    args = [a.replace("{dir}", str(tmp_path)) for a in command]
    result = runner.invoke(main, [args[0], str(script), *args[1:]])
    assert result.exit_code == 2
    one_error_line(result, f"{script}: {pointer}:")
    assert not (tmp_path / "x.html").exists()


HOMEBREW = """id: sparkler
team: townsfolk
first_night: {night}
texts:
  en:
    name: Sparkler
    ability: You sparkle.
"""


@pytest.mark.parametrize("night", [".inf", ".nan", "-.inf", "1" + "0" * 5000])
def test_a_homebrew_yaml_number_the_schema_cannot_hold_is_refused_and_never_written(runner, tmp_path, night):
    homebrew = write(tmp_path / "sparkler.yaml", HOMEBREW.format(night=night))
    script = write(tmp_path / "s.json", json.dumps(FIVE))
    before = script.read_bytes()
    result = runner.invoke(main, ["add", str(script), str(homebrew), "--lang", "en"])
    assert result.exit_code == 2
    one_error_line(result, f"{homebrew}:3:", "first_night")
    assert script.read_bytes() == before
    assert b"Infinity" not in script.read_bytes() and b"NaN" not in script.read_bytes()
    check = runner.invoke(main, ["homebrew", "check", str(homebrew)])
    assert check.exit_code == 2 and f"{homebrew}:3:" in check.stderr and "Traceback" not in check.output


def test_control_characters_are_shown_escaped_never_sent_raw(runner, tmp_path):
    script = write(tmp_path / "s.json", json.dumps([{"id": "_meta", "name": "x"}, *FIVE, "\x1b]0;owned\x07\x1b[2J",
                                                    "a\u009b31m\u202e"]))
    text = runner.invoke(main, ["validate", str(script)])
    assert "\x1b" not in text.output and "\x07" not in text.output and "\u009b" not in text.output
    assert "\u202e" not in text.output
    assert "\\x1b]0;owned\\x07\\x1b[2J" in text.output
    as_json = runner.invoke(main, ["validate", str(script), "--format", "json"])
    assert "\x1b" not in as_json.output and "\u009b" not in as_json.output
    ids = [f["data"].get("id") for f in json.loads(as_json.output)["findings"] if f["code"] == "unknown-character"]
    assert "\x1b]0;owned\x07\x1b[2J" in ids  # the JSON escapes are the same value


def test_deep_nesting_and_bad_jinxes_in_packs_and_translation_files(runner, tmp_path):
    deep = write(tmp_path / "deep.json", "[" * 50000 + "]" * 50000)
    for args in (["pack", "import", str(deep), "--out", str(tmp_path / "pk")],
                 ["l10n", "diff", "--against", str(deep)]):
        result = runner.invoke(main, args)
        assert result.exit_code == 2
        one_error_line(result, str(deep), "nested")
    for jinxes in ([1, "a"], "x", 3):
        bad = write(tmp_path / "t.json", json.dumps({"roles": {"imp": {"name": "임프"}}, "jinxes": jinxes}))
        result = runner.invoke(main, ["l10n", "diff", "--against", str(bad)])
        assert result.exit_code == 2
        one_error_line(result, str(bad), "/jinxes")
        result = runner.invoke(main, ["pack", "import", str(bad), "--lang", "ko", "--out", str(tmp_path / "pk")])
        assert result.exit_code == 2
        one_error_line(result, str(bad), "/jinxes")
    assert not (tmp_path / "pk").exists()


def test_a_nul_in_a_homebrew_image_path_is_one_line(runner, tmp_path):
    script = write(tmp_path / "s.json", json.dumps([*FIVE, {"id": "hb", "name": "Hb", "team": "townsfolk",
                                                             "ability": "a", "image": "icon\u0000.png"}]))
    result = runner.invoke(main, ["build", str(script), "--format", "html", "-o", str(tmp_path / "x.html")])
    assert result.exit_code == 2
    one_error_line(result, "/5/image", "NUL")
    homebrew = write(tmp_path / "h.yaml", HOMEBREW.format(night=1) + 'image: "a\\0b.png"\n')
    result = runner.invoke(main, ["homebrew", "check", str(homebrew)])
    assert result.exit_code == 2 and "NUL" in result.stderr and "Traceback" not in result.output


@pytest.mark.parametrize("command", [
    ["validate", "{f}.json"], ["order", "{f}.json"], ["homebrew", "check", "{f}.yaml"],
    ["pack", "import", "{f}.json", "--out", "{dir}/pk"], ["l10n", "import", "{f}.po"],
    ["import", "almanac", "{f}.txt", "--lang", "en", "--out", "{dir}/out"], ["l10n", "diff", "--against", "{f}.json"],
])
def test_a_missing_user_file_is_one_wording_and_exit_2_everywhere(runner, tmp_path, command):
    missing = tmp_path / "missing"
    args = [a.replace("{f}", str(missing)).replace("{dir}", str(tmp_path)) for a in command]
    result = runner.invoke(main, args)
    assert result.exit_code == 2, result.output
    line = one_error_line(result)
    assert line.startswith(f"Error: {missing}.") and line.endswith(": file not found"), line


def test_damaged_caches_are_rebuilt_not_fatal(tmp_path):
    import jinja2.bccache

    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    example = str(Path(__file__).resolve().parents[1] / "examples" / "fang-gu-zealot.json")
    build = [sys.executable, "-m", "scriptforge", "build", example, "--format", "html", "-o", str(tmp_path / "x.html")]
    assert subprocess.run(build, env=env, capture_output=True).returncode == 0
    cache = tmp_path / "cache" / "scriptforge"
    damaged = {"database": 0, "validators": 0, "jinja": 0}
    for folder in damaged:
        for path in (cache / folder).iterdir():
            keep = len(jinja2.bccache.bc_magic) if folder == "jinja" else 0  # past Jinja's own check
            path.write_bytes(path.read_bytes()[:keep] + b"\x80garbage((( " + os.urandom(8))
            damaged[folder] += 1
    assert all(damaged.values()), damaged
    result = subprocess.run(build, env=env, capture_output=True, text=True)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    for folder in damaged:  # and each damaged file was replaced by a good one
        assert not any(b"garbage(((" in path.read_bytes() for path in (cache / folder).iterdir()), folder


def test_a_pathological_long_word_is_refused_before_layout(runner, tmp_path):
    # how fast the refusal is: benchmarks/bench_hostile.py ("long texts"), not a wall-clock assertion here
    for length in (30_000, 100_000):
        script = write(tmp_path / "s.json", json.dumps([*FIVE, {"id": "hb", "name": "Hb", "team": "townsfolk",
                                                                 "ability": "a" * length}]))
        result = runner.invoke(main, ["build", str(script), "-o", str(tmp_path / "x.pdf")])
        assert result.exit_code == 2
        one_error_line(result, "/5/ability", f"{length} characters")
        assert not (tmp_path / "x.pdf").exists()


def test_long_runs_get_break_opportunities_and_words_do_not():
    from scriptforge.render.views import ZERO_WIDTH_SPACE, keep_words

    assert ZERO_WIDTH_SPACE not in keep_words("Donaudampfschifffahrtsgesellschaftskapitän " * 20)
    broken = keep_words("x" * 2500)
    assert broken.replace(ZERO_WIDTH_SPACE, "") == "x" * 2500
    assert max(len(run) for run in broken.split(ZERO_WIDTH_SPACE)) <= 60


def test_an_image_that_fails_to_decode_is_a_warning_naming_it(runner, tmp_path):
    (tmp_path / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 40)
    script = write(tmp_path / "s.json", json.dumps([*FIVE, {"id": "hb", "name": "Hb", "team": "townsfolk",
                                                             "ability": "a", "image": "broken.png"}]))
    result = runner.invoke(main, ["build", str(script), "--format", "html", "-o", str(tmp_path / "x.html")])
    assert result.exit_code == 0, result.output
    warning = [line for line in result.stderr.splitlines() if "broken.png" in line]
    assert warning and warning[0].startswith("Warning: ") and "cannot be decoded" in warning[0]


def test_validate_prints_each_file_as_it_is_checked(runner, tmp_path, monkeypatch):
    import scriptforge.scripts.analysis as validate_module

    files = [write(tmp_path / f"{n}.json", json.dumps(FIVE)) for n in range(3)]
    real, calls = validate_module.validate_file, []

    def stop_at_the_third(source, db):
        calls.append(source)
        if len(calls) == 3:
            raise KeyboardInterrupt  # as if the user stopped a long run here
        return real(source, db)

    monkeypatch.setattr(validate_module, "validate_file", stop_at_the_third)
    for fmt, shown in (("text", f"{files[1]}: "), ("jsonl", f'"file": "{files[1]}"')):
        calls.clear()
        result = runner.invoke(main, ["validate", *map(str, files), "--format", fmt])
        assert shown in result.stdout  # printed before the third file was read
    lines = runner.invoke(main, ["validate", *map(str, files[:2]), "--format", "jsonl"]).stdout.splitlines()
    assert [json.loads(line)["file"] for line in lines] == [str(f) for f in files[:2]]


@pytest.mark.parametrize("existing", ["- a list\n", "name: .nan\n", "name: [1\n"])
def test_a_damaged_yaml_already_in_import_almanac_out_is_one_line(runner, tmp_path, existing):
    almanac = write(tmp_path / "a.txt", "My Script\nX · Y\n\nTownsfolk\nMonk\nEach night*, choose a player.\n"
                                        "\"Flavor.\"\nThe Monk protects.\n")
    target = tmp_path / "out" / "characters" / "monk.yaml"
    target.parent.mkdir(parents=True)
    write(target, existing)
    result = runner.invoke(main, ["import", "almanac", str(almanac), "--lang", "en", "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    one_error_line(result, str(target))
    assert target.read_text() == existing


def test_a_command_line_value_that_becomes_data_passes_the_guard(runner, tmp_path):
    script = write(tmp_path / "s.json", json.dumps([{"id": "_meta", "name": "Mine"}, *FIVE]))
    before = script.read_bytes()
    for args in (["meta", str(script), "--name", "a\udcff"], ["meta", str(script), "--author", "x\x00"],
                 ["new", str(tmp_path / "n.json"), "--name", "\ud800"]):
        result = runner.invoke(main, args)
        assert result.exit_code == 2
        one_error_line(result, args[2])
    assert script.read_bytes() == before and not (tmp_path / "n.json").exists()


@pytest.mark.parametrize("value", ["1.0", "[1.0, 2]", "2.5"])
def test_a_float_where_a_homebrew_count_needs_a_whole_number_is_one_line(runner, tmp_path, value):
    homebrew = write(tmp_path / "h.yaml", HOMEBREW.format(night=1) + f"setup:\n  outsiders: {value}\n")
    script = write(tmp_path / "s.json", json.dumps(FIVE))
    result = runner.invoke(main, ["add", str(script), str(homebrew), "--lang", "en"])
    assert result.exit_code in (1, 2)
    one_error_line(result, f"{homebrew}:9:", "setup.outsiders")
    assert json.loads(script.read_text()) == FIVE


def test_a_po_file_whose_header_trips_the_parser_is_one_line(runner, tmp_path, data_copy):
    # found by benchmarks/fuzz_long.py: Babel's parser raised AttributeError on a damaged header line
    po = write(tmp_path / "ko.po", 'msgid ""\nmsgstr ""\n"Language: ko\\n"\n"POT-Creation-Date: 2000-01-01 00:00+0000\\n"\n'
                                   '" 2000-01-01 00:00+0000\\n"\n'
                                   '"Content-Type: text/plain; charset=utf-8\\n"\n\n'
                                   'msgctxt "chef.name"\nmsgid "Chef"\nmsgstr "요리사"\n')
    result = runner.invoke(main, ["l10n", "import", str(po), "--lang", "ko"], env={"SCRIPTFORGE_DATA": str(data_copy)})
    assert result.exit_code == 2
    one_error_line(result, f"{po}:1:", "malformed .po file")


def test_an_almanac_name_too_long_for_an_id_is_one_line(runner, tmp_path):
    # found by benchmarks/fuzz_long.py: the id became a 30,000-character file name (OSError)
    almanac = write(tmp_path / "a.txt", "Townsfolk\nMonk\nEach night, choose.\n\"Flavor.\"\nOverview.\n"
                                        "Demon\n" + "x" * 30000 + "\nEach night, choose.\n\"Flavor.\"\nOverview.\n")
    result = runner.invoke(main, ["import", "almanac", str(almanac), "--lang", "en", "--out", str(tmp_path / "o")])
    assert result.exit_code == 2
    one_error_line(result, f"{almanac}:7:", "30000 characters")
    assert not (tmp_path / "o").exists()


def test_a_po_error_that_quotes_several_lines_is_still_one_line(runner, tmp_path, data_copy):
    # found by benchmarks/fuzz_long.py: Babel's message quoted the whole damaged header
    po = write(tmp_path / "ko.po", 'msgid msgstr ""\n"Language: ko\\n"\n"Content-Type: text/plain; charset=utf-8\\n"\n'
                                   '\n#. x\nmsgctxt "chef.name"\nmsgid "Chef"\nmsgstr "요리사"\n')
    result = runner.invoke(main, ["l10n", "import", str(po), "--lang", "ko"], env={"SCRIPTFORGE_DATA": str(data_copy)})
    assert result.exit_code == 2
    one_error_line(result, str(po), "malformed .po file")


def test_a_record_separator_in_an_error_does_not_split_it(runner, tmp_path, data_copy):
    # found by benchmarks/fuzz_long.py: str.splitlines() also splits at \x1c-\x1e, \x85 and \u2028
    po = write(tmp_path / "ko.po", 'msgid ""\nmsgstr ""\n"Language: ko\\n"\n"Content-Type: text/plain; charset=utf-8\\n"\n'
                                   '\nmsgctxt "\x1e\u2028"\nmsgid "Chef"\nmsgstr "요리사"\n')
    result = runner.invoke(main, ["l10n", "import", str(po), "--lang", "ko"], env={"SCRIPTFORGE_DATA": str(data_copy)})
    assert result.exit_code == 2
    line = one_error_line(result, f"{po}:7:")
    assert "\\x1e\\u2028" in line and "\x1e" not in line and "\u2028" not in line


def test_an_empty_reminder_label_in_a_translation_is_named_in_the_input(runner, tmp_path):
    # found by benchmarks/fuzz_long.py: the error named pk/ko/reminders.yaml, a file of the pack
    # being built, instead of the place in the user's file
    source = write(tmp_path / "t.json", json.dumps({"roles": {"imp": {"name": "임프"}}, "reminders": {"imp": [""]}}))
    result = runner.invoke(main, ["pack", "import", str(source), "--lang", "ko", "--out", str(tmp_path / "pk")])
    assert result.exit_code == 2
    one_error_line(result, f"{source}: translation file, /reminders/imp")
    assert not (tmp_path / "pk").exists()


def test_a_value_only_the_packs_schema_refuses_is_named_in_the_input(runner, tmp_path):
    # found by benchmarks/fuzz_long.py: the error named pk/night.yaml, a file of the pack being built
    source = write(tmp_path / "n.json", json.dumps({"firstNight": ["dusk", "9x", "dawn"], "otherNight": ["dusk"]}))
    result = runner.invoke(main, ["pack", "import", str(source), "--out", str(tmp_path / "pk")])
    assert result.exit_code == 2
    one_error_line(result, f"Error: {source}: the pack these files make fails its own schema")
    assert not (tmp_path / "pk").exists()


def test_parse_json_refuses_raw_characters_and_depth_without_escapes():
    """parse_json's quick proof that a document holds nothing refused (no `\\u` escape, no NUL or
    surrogate in the text, no Refused number, nothing deeper than MAX_DEPTH) must not let through
    what the full walk refuses: text given as a Python string can hold a surrogate itself (a raw
    NUL is already bad JSON)."""
    from scriptforge.io.errors import InputError
    from scriptforge.io.userfiles import MAX_DEPTH, parse_json

    for text, where in (('["ok", "a\ud800b"]', "/1"), ('{"k\udc80": 1}', "/k"), ('["가", "\ud800"]', "/1")):
        with pytest.raises(InputError, match="surrogate") as caught:
            parse_json(text, "t.json")
        assert f"t.json: {where}" in str(caught.value)
    deepest = "[" * MAX_DEPTH + '"x"' + "]" * MAX_DEPTH  # the string's path has MAX_DEPTH steps
    assert parse_json(deepest, "t.json")
    with pytest.raises(InputError, match=f"deeper than {MAX_DEPTH}"):
        parse_json("[" + deepest + "]", "t.json")
    assert parse_json('{"a": ["가", "😈", 1.5, -0, null, true]}', "t.json") == {"a": ["가", "😈", 1.5, 0, None, True]}
