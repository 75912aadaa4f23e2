"""Rules: night order, setup table, jinxes — library and CLI."""

import json

import pytest

from scriptforge.cli import main
from scriptforge.rules.brackets import read_brackets
from scriptforge.rules.jinxes import script_jinxes
from scriptforge.rules.night import night_order
from scriptforge.rules.setup import setup_table
from scriptforge.script import read_script, script_from_data

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


def row(rows, n):
    return next(r for r in rows if r.players == n).as_dict()


def test_setup_fang_gu_zealot(db):
    rows = setup_table(read_script(EXAMPLES / "fang-gu-zealot.json", db), db)
    assert [r.players for r in rows] == list(range(5, 16))
    nine = row(rows, 9)
    assert nine["base"] == {"townsfolk": 5, "outsiders": 2, "minions": 1, "demons": 1}
    assert nine["outsiders"] == {"min": 2, "max": 6}  # Baron +2, Fang Gu +1, Balloonist +1
    assert nine["townsfolk"] == {"min": 1, "max": 5}
    assert [m["character"] for m in nine["modifiers"]] == ["villageidiot", "balloonist", "drunk", "baron", "fanggu"]


def test_setup_vigormortis_and_lil_monsta(db):
    script = script_from_data(["chef", "empath", "monk", "recluse", "poisoner", "vigormortis", "lilmonsta"], db)
    seven = row(setup_table(script, db), 7)
    assert seven["outsiders"] == {"min": 0, "max": 0}  # nothing to remove at 7
    assert seven["townsfolk"] == {"min": 5, "max": 5}  # Lil' Monsta: a Minion takes the Demon token's place
    assert seven["minions"] == {"min": 1, "max": 2}
    assert seven["demons"] == {"min": 0, "max": 1}
    vigor = next(m for m in seven["modifiers"] if m["character"] == "vigormortis")
    assert "no Outsider to remove" in vigor["note"]
    eight = row(setup_table(script, db), 8)
    assert eight["outsiders"] == {"min": 0, "max": 1} and eight["townsfolk"] == {"min": 5, "max": 6}


def test_setup_one_minion_modifier_below_ten(db):
    script = script_from_data(["chef", "empath", "imp", {
        "id": "m1", "name": "M1", "team": "minion", "ability": "x [+1 Outsider]"}, {
        "id": "m2", "name": "M2", "team": "minion", "ability": "y [+1 Outsider]"}], db)
    rows = setup_table(script, db)
    assert row(rows, 9)["outsiders"]["max"] == 3  # only one of the two Minions is in play
    assert row(rows, 12)["outsiders"]["max"] == 4  # two Minions: both can apply


def test_cli_setup_json_single_and_all(runner):
    path = str(EXAMPLES / "fang-gu-zealot.json")
    one = runner.invoke(main, ["setup", path, "--players", "12", "--format", "json"])
    assert one.exit_code == 0 and json.loads(one.stdout)["outsiders"] == {"min": 2, "max": 6}
    every = runner.invoke(main, ["setup", path, "--format", "json"])
    assert [r["players"] for r in json.loads(every.stdout)] == list(range(5, 16))
    bad = runner.invoke(main, ["setup", path, "--players", "4"])
    assert bad.exit_code == 2


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


def test_bracket_unknown_is_not_guessed():
    reading = read_brackets("[X Outsiders]")
    assert reading.effect is None and reading.unknown == ("X Outsiders",)
