"""Rules: night order, jinxes, brackets — library and CLI (the setup table: tests/test_setup.py)."""

import json

import pytest

from scriptforge.cli import main
from scriptforge.rules.brackets import read_brackets
from scriptforge.rules.jinxes import script_jinxes
from scriptforge.rules.night import night_order
from scriptforge.scripts.script import read_script, script_from_data

from tests.conftest import EXAMPLES

EXAMPLE_FILES = sorted(EXAMPLES.glob("*.json"))


def official_restricted(db, script, night):
    sheet = db.first_night if night == "first_night" else db.other_nights
    keep = set(script.ids) | {"dusk", "minioninfo", "demoninfo", "dawn"}
    return [e for e in sheet if e in keep]


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.stem)
def test_examples_night_order_is_official_sheet_restricted(db, path):
    script = read_script(path, db)
    order = night_order(script, db)
    homebrew = {c.id for c in script.characters if c.homebrew}
    assert [e for e in order.first_night if e not in homebrew] == official_restricted(db, script, "first_night")
    assert [e for e in order.other_nights if e not in homebrew] == official_restricted(db, script, "other_nights")


def test_faith_trust_night_order_exact(db):
    order = night_order(read_script(EXAMPLES / "faith-trust-and-pixie-dust.json", db), db)
    assert order.first_night == [
        "dusk", "philosopher", "minioninfo", "demoninfo", "sailor", "preacher", "lilmonsta", "poisoner",
        "devilsadvocate", "pixie", "grandmother", "clockmaker", "dreamer", "bountyhunter", "dawn"]
    assert order.other_nights == [
        "dusk", "philosopher", "sailor", "preacher", "poisoner", "innkeeper", "monk", "devilsadvocate", "imp",
        "nodashii", "vigormortis", "lilmonsta", "assassin", "tinker", "grandmother", "dreamer", "towncrier",
        "bountyhunter", "dawn"]


def test_homebrew_placed_by_number_and_small_games(db):
    order = night_order(read_script(EXAMPLES / "fang-gu-zealot.json", db), db, players=6)
    # pilgrim 60.5: after the Empath (56), before the Seamstress (62); no minion/demon info below 7.
    assert order.first_night == ["dusk", "philosopher", "poisoner", "snakecharmer", "witch", "librarian", "empath",
                                 "pilgrim", "seamstress", "noble", "balloonist", "villageidiot", "dawn"]
    assert order.reminder("pilgrim", "first_night", "ko").startswith("순례자를 깨워")
    assert order.reminder("pilgrim", "first_night", "en").startswith("Wake the Pilgrim")
    assert order.reminder("dusk", "first_night", "en") == db.steps["dusk"].first_night["en"]
    assert order.name("imp", "ko") == "임프"


def test_homebrew_tie_goes_after_official(db):
    script = script_from_data(["chef", "imp", "baron", "recluse", {
        "id": "tie", "name": "Tie", "team": "townsfolk", "ability": "x", "firstNight": 55, "otherNight": 0}], db)
    assert db.first_night.index("chef") + 1 == 55
    assert night_order(script, db).first_night == ["dusk", "minioninfo", "demoninfo", "chef", "tie", "dawn"]


def test_meta_night_order_overrides(db):
    script = script_from_data([
        {"id": "_meta", "name": "M", "firstNight": ["DUSK", "chef", "MINION", "ghost", "poisoner", "DAWN"],
         "otherNight": ["dusk", "poisoner", "imp", "dawn"]},
        "chef", "poisoner", "imp", "recluse", "empath"], db)
    order = night_order(script, db, players=8)
    assert order.first_night == ["dusk", "chef", "minioninfo", "poisoner", "dawn"]
    assert order.other_nights == ["dusk", "poisoner", "imp", "dawn"]
    (problem,) = order.problems
    assert problem.code == "meta-night-unknown" and problem.path == "/0/firstNight/3"


def test_cli_night_json(runner):
    result = runner.invoke(main, ["night", str(EXAMPLES / "english-almanac-25.json"), "--format", "json",
                                  "--lang", "ko"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["first_night"][:4] == ["dusk", "minioninfo", "lunatic", "demoninfo"]
    assert data["steps"]["dawn"]["kind"] == "step"
    assert data["steps"]["poisoner"]["other_nights"].startswith("독살범")


def test_jinxes_faith_trust(db, runner):
    script = read_script(EXAMPLES / "faith-trust-and-pixie-dust.json", db)
    result = script_jinxes(script, db)
    assert [j.characters for j in result.jinxes] == [("bountyhunter", "philosopher")]
    assert result.djinn_needed is True
    assert result.jinxes[0].texts == dict(db.jinxes[0].texts)
    out = runner.invoke(main, ["jinxes", str(EXAMPLES / "faith-trust-and-pixie-dust.json"), "--format", "json",
                               "--lang", "ko"])
    data = json.loads(out.stdout)
    assert data["djinn_needed"] is True
    assert data["jinxes"][0]["characters"] == ["bountyhunter", "philosopher"]
    assert data["jinxes"][0]["text"] == db.jinxes[0].texts["ko"]


def test_jinxes_from_homebrew_and_djinn_present(db):
    script = script_from_data(["widow", "djinn", "chef", "imp", {
        "id": "damsel", "name": "아가씨", "team": "outsider", "ability": "모든 하수인은 아가씨를 압니다.",
        "jinxes": [{"id": "widow", "reason": "스크립트의 징크스 문장."}]},
        {"id": "hb", "name": "HB", "team": "townsfolk", "ability": "x", "jinxes": [{"id": "chef", "reason": "R"}]}], db)
    result = script_jinxes(script, db)
    pairs = {j.characters: j for j in result.jinxes}
    assert pairs[("widow", "damsel")].texts["ko"] == "스크립트의 징크스 문장."
    assert pairs[("widow", "damsel")].texts["en"] == db.jinxes[2].texts["en"]
    assert pairs[("hb", "chef")].text("ko") == "R"
    assert result.djinn_needed is False


@pytest.mark.parametrize("text,counts", [
    ("[+2 Outsiders]", {"outsiders": (2, 2)}),
    ("[-1 Outsider]", {"outsiders": (-1, -1)}),
    ("[+0 or +1 Outsider]", {"outsiders": (0, 1)}),
    ("[-0 or -1 Outsider]", {"outsiders": (-1, 0)}),
    ("[+1 Minion]", {"minions": (1, 1)}),
    ("[외지인 +2명]", {"outsiders": (2, 2)}),
    ("[하수인 +1명]", {"minions": (1, 1)}),
    ("[외지인 +0명 또는 +1명]", {"outsiders": (0, 1)}),
    ("[No Demon]", {"demons": (-1, -1)}),
])
def test_brackets(text, counts):
    reading = read_brackets("Ability. " + text)
    assert reading.effect.counts == counts and reading.unknown == ()


@pytest.mark.parametrize("text,effect", [
    ("[-1 or +1 Outsider]", {"outsiders": [-1, 1], "ends_only": ["outsiders"]}),  # not 0
    ("[+0 to +2 Outsiders]", {"outsiders": [0, 2]}),  # 0, 1 or 2
    ("[외지인 -1명 또는 +1명]", {"outsiders": [-1, 1], "ends_only": ["outsiders"]}),
    ("[X Outsiders]", {"outsiders_any": 1}),
    ("[-? to +? Outsiders]", {"outsiders_any": 0}),
    ("[외지인 -?~+?명]", {"outsiders_any": 0}),
    ("[No evil characters]", {"no_evil": True}),
    ("[악한 캐릭터 없음]", {"no_evil": True}),
    ("[Evil characters are in a line. You are in the middle. +1 Minion]", {"minions": 1, "seating": True}),
    # community Korean brackets of official setup characters, read whole
    ("[당신이 어떤 참가자가 어떤 하수인이 될지 선택합니다. 외지인 -?, +?]", {"outsiders_any": 0, "seating": True}),
    ("[악마 진영은 모두 나란히 앉아있고, 당신이 그들 가운데 위치합니다. 하수인이 1명 추가되며, "
     "외지인 수가 늘어나거나 줄어들 수 있습니다.]", {"minions": 1, "outsiders_any": 0, "seating": True}),
    ("[Evil characters are in a line. You are in the middle. +1 Minion. -? to +? Outsiders]",
     {"minions": 1, "outsiders_any": 0, "seating": True}),
    ("[외지인 +2]", {"outsiders": 2}),
])
def test_brackets_beyond_counts(text, effect):
    reading = read_brackets("Ability. " + text)
    assert reading.effect.as_dict() == effect and reading.unknown == ()


def test_majority_is_read_for_the_character_itself():
    assert read_brackets("[Most players are Goose]", ["Goose"]).effect.as_dict() == {"majority": True}
    assert read_brackets("[대부분의 참가자가 군단이 됨]", ["군단"]).effect.as_dict() == {"majority": True}
    assert read_brackets("[Most players are Geese]", ["Swan"]).unknown == ("Most players are Geese",)


def test_bracket_unknown_is_not_guessed():
    reading = read_brackets("[Geese sit in a row]")
    assert reading.unknown == ("Geese sit in a row",)
    assert reading.effect is not None and reading.effect.as_dict() == {"unmodelled": ["Geese sit in a row"]}
