"""Reading scripts: every id spelling, homebrew objects, overrides, and unreadable input."""

import json

import pytest

from scriptforge.cli import main
from scriptforge.io.errors import InputError
from scriptforge.rules.order import prefix_group, sheet_order, PREFIXES
from scriptforge.scripts.script import parse_script, read_script, script_from_data

from tests.conftest import EXAMPLES


def ids(script):
    return [c.id for c in script.characters]


def test_id_spellings_resolve(db):
    script = script_from_data(["lil_monsta", "Lil' Monsta ", "fang_gu", "No Dashii", "ko_KR_imp", "팡 구",
                               {"id": "washerwoman_x"}, {"id": "pit-hag"}], db)
    assert ids(script) == ["lilmonsta", "fanggu", "nodashii", "imp"]
    codes = [(p.code, p.path) for p in script.problems]
    assert ("duplicate-character", "/1") in codes and ("duplicate-character", "/5") in codes
    unknown = [p for p in script.problems if p.code == "unknown-character"]
    assert [p.data["id"] for p in unknown] == ["washerwoman_x", "pit-hag"]
    assert [p.path for p in unknown] == ["/6", "/7"]


def test_unknown_character_suggests(db):
    script = script_from_data(["imp", "poisonr", "chef", "empath", "monk"], db)
    (problem,) = script.problems
    assert problem.code == "unknown-character" and problem.severity == "error"
    assert "Poisoner" in problem.data["suggestions"]
    assert "did you mean Poisoner" in problem.message


def test_meta_name_author_and_file_stem(db):
    script = read_script(EXAMPLES / "faith-trust-and-pixie-dust.json", db)
    assert script.name == "믿음, 신뢰, 그리고 픽시 더스트" and script.author == "Daimian"
    assert len(script.characters) == 25
    plain = read_script(EXAMPLES / "english-almanac-25.json", db)
    assert plain.name == "english-almanac-25" and plain.author is None and plain.meta == {}


def test_homebrew_object_becomes_character(db):
    script = script_from_data([
        {"id": "_meta", "name": "T"}, "imp", "chef", "baron", "recluse",
        {"id": "moonwatcher", "name": "Moon Watcher", "team": "townsfolk", "firstNight": 55.5, "otherNight": 0,
         "ability": "You start knowing a number. [+1 Outsider]", "reminders": ["Seen", "Seen"],
         "jinxes": [{"id": "chef", "reason": "Both wake."}]},
        {"id": "달지기", "name": "달지기", "team": "outsider", "ability": "당신은 취했습니다. [외지인 -1 또는 +1]"},
    ], db)
    moon = script.get("moonwatcher")
    assert moon.homebrew and moon.team == "townsfolk" and moon.edition == "homebrew"
    assert moon.night == {"first_night": 55.5}
    assert moon.reminders == ("Seen", "Seen")
    assert moon.setup.counts == {"outsiders": (1, 1)}
    assert moon.texts["en"].name == "Moon Watcher"
    korean = script.get("달지기")
    assert set(korean.texts) == {"ko"} and korean.setup.counts == {"outsiders": (-1, 1)}
    assert script.jinxes[0].characters == ("moonwatcher", "chef")
    assert script.paths["moonwatcher"] == "/5"


def test_override_keeps_korean_texts_and_other_language(db):
    script = script_from_data([
        "chef", "empath", "baron",
        {"id": "imp", "name": "임프(번역)", "team": "demon", "ability": "밤마다*, 플레이어 1명을 고릅니다.",
         "otherNightReminder": "임프를 깨우세요 (스크립트)."},
        "recluse",
    ], db)
    imp = script.get("imp")
    assert imp.homebrew is False and imp.team == "demon"
    assert imp.texts["ko"].name == "임프(번역)"
    assert imp.texts["ko"].other_night_reminder == "임프를 깨우세요 (스크립트)."
    assert imp.texts["ko"].overview == db.get("imp").texts["ko"].overview  # untouched fields kept
    assert imp.texts["en"] == db.get("imp").texts["en"]
    assert "imp" in script.overridden
    assert [p.code for p in script.problems] == ["character-override"]


def test_unknown_bracket_warns_and_keeps_known_part(db):
    script = script_from_data(["imp", "chef", "empath", "monk", {
        "id": "typhonish", "name": "Typhonish", "team": "demon",
        "ability": "Each night*, choose a player: they die. [+1 Minion. Geese sit in a row]"}], db)
    assert script.get("typhonish").setup.counts == {"minions": (1, 1)}
    (problem,) = script.problems
    assert problem.code == "setup-bracket-unknown" and problem.severity == "warning"
    assert problem.data["clause"] == "Geese sit in a row" and problem.path == "/4/ability"


@pytest.mark.parametrize("text,where,message", [
    ('[\n"imp",\n', ":3", "not valid JSON"),
    ('{"id": "_meta"}', "", "top level must be a JSON array"),
    ("[]", "", "the script is empty"),
    ('"imp"', "", "found a string"),
])
def test_unreadable_input_raises_input_error(db, text, where, message):
    with pytest.raises(InputError) as info:
        parse_script(text, db, "x.json")
    assert info.value.exit_code == 2
    assert message in str(info.value) and str(info.value).startswith(f"x.json{where}:")


@pytest.mark.parametrize("command", ["validate", "setup", "jinxes", "night", "order"])
def test_cli_bad_json_is_one_line_exit_2(runner, tmp_path, command):
    bad = tmp_path / "bad.json"
    bad.write_text('["imp", "chef",\n  oops]', encoding="utf-8")
    result = runner.invoke(main, [command, str(bad)])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith(f"Error: {bad}:2: not valid JSON")
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_cli_missing_file_and_stdin(runner, tmp_path):
    result = runner.invoke(main, ["order", str(tmp_path / "nope.json")])
    assert result.exit_code == 2 and result.stderr == f"Error: {tmp_path / 'nope.json'}: file not found\n"
    result = runner.invoke(main, ["order", "-", "--format", "json"], input=json.dumps(["imp", "baron", "chef"]))
    assert result.exit_code == 0
    assert [r["id"] for r in json.loads(result.stdout)] == ["chef", "baron", "imp"]


def test_prefix_groups_follow_published_rule():
    assert PREFIXES[prefix_group("Each night*, choose a player: they die.")] == "Each night*"
    assert PREFIXES[prefix_group("Each night, choose a player.")] == "Each night"
    assert prefix_group("There are extra Outsiders in play. [+2 Outsiders]") == len(PREFIXES)  # whole words
    assert PREFIXES[prefix_group("The 1st time you die, you live.")] == "The 1st time"
    assert PREFIXES[prefix_group("If you are “mad” about being evil, you might be.")] == 'If you are "mad"'
    assert PREFIXES[prefix_group("Once per game, at night*, choose.")] == "Once per game, at night*"


def test_sheet_order_official_then_homebrew_by_rule(db):
    script = script_from_data([
        "imp", "baron",
        {"id": "late", "name": "Late", "team": "townsfolk", "ability": "Minions are odd."},
        {"id": "knower", "name": "Knower", "team": "townsfolk", "ability": "You start knowing 1 thing."},
        "monk", "chef", "djinn", "recluse", "empath",
    ], db)
    order = [c.id for c in sheet_order(script)]
    # chef, empath and monk keep the official order; "You start knowing" is the first group, so
    # the Knower goes after the last official Townsfolk whose rule key is not greater (none: first).
    assert order == ["knower", "chef", "empath", "monk", "late", "recluse", "baron", "imp", "djinn"]
    assert [c.id for c in sheet_order(script, keep_order=True)] == ids(script)


def test_homebrew_characters_of_the_database_and_of_folders_go_by_the_rule(db, tmp_path):
    from scriptforge.scripts.homebrew import with_homebrew

    (tmp_path / "knower.yaml").write_text(
        "id: knower\nteam: townsfolk\ntexts:\n  en:\n    name: Knower\n    ability: You start knowing 1 thing.\n",
        encoding="utf-8")
    script = script_from_data(["mayor", "pilgrim", "knower", "empath", "librarian", "noble", "imp"],
                              with_homebrew(db, tmp_path))
    # "You start knowing" comes first, shorter abilities first: the Knower (folder) before the
    # Noble, the Pilgrim (database homebrew, the longest) after the Librarian; not last in the team
    assert [c.id for c in sheet_order(script)] == ["knower", "noble", "librarian", "pilgrim", "empath", "mayor", "imp"]
