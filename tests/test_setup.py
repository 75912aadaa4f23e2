"""The setup table from every legal bag: each official setup character alone and in the tricky
pairs (with the official pack, when ../shared/ is there), the bag invariants as a property,
and the CLI (text, JSON bags, --travellers)."""

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st
import pytest

from scriptforge.scripts.analysis import analyse
from scriptforge.cli import main
from scriptforge.db.loading import load_database
from scriptforge.io.errors import InputError
from scriptforge.packs.install import import_pack
from scriptforge.rules.setup import COUNTS, setup_table
from scriptforge.scripts.analysis import validate_data
from scriptforge.scripts.script import read_script, script_from_data

from tests.conftest import EXAMPLES, shared_path

# Plain characters (no setup effect), enough of each team for every bag below.
TOWNSFOLK = ["washerwoman", "librarian", "investigator", "chef", "empath", "fortuneteller", "undertaker",
             "monk", "ravenkeeper", "virgin", "slayer", "soldier", "mayor"]
OUTSIDERS = ["butler", "saint", "recluse", "damsel"]
MINIONS = ["poisoner", "spy", "scarletwoman"]
DEMON = ["imp"]
PLAIN = {"townsfolk": [*TOWNSFOLK, "king"], "outsider": OUTSIDERS, "minion": MINIONS, "demon": DEMON}


@pytest.fixture(scope="module")
def official(tmp_path_factory):
    """The database with a pack made from the official data files."""
    folder = shared_path("reference", "official")
    pack, _ = import_pack([folder / "roles.json", folder / "nightsheet.json", folder / "jinxes.json"],
                          name="official", out=tmp_path_factory.mktemp("pack") / "official")
    return load_database(packs=[pack])


def table(db, setup_ids, players, without=()):
    """The bags at `players` of a script: plain characters of every team (minus `without`) plus `setup_ids`."""
    ids = [i for team, members in PLAIN.items() if team not in without for i in members]
    chars = [db.characters[i] for i in (*ids, *setup_ids)]
    (row,) = setup_table(chars, db, players)
    return row


def bags(row):
    return {(b.in_play, b.counts) for b in row.bags}


# (setup characters on the script, players, teams without plain characters,
#  the bags: (characters in play, (townsfolk, outsiders, minions, demons)))
CASES = {
    "baron": (["baron"], 5, (), {((), (3, 0, 1, 1)), (("baron",), (1, 2, 1, 1))}),
    "baron is the only minion": (["baron"], 7, ("minion",), {(("baron",), (3, 2, 1, 1))}),
    "godfather: -1 or +1, never 0": (["godfather"], 8, (), {((), (5, 1, 1, 1)), (("godfather",), (6, 0, 1, 1)),
                                                          (("godfather",), (4, 2, 1, 1))}),
    "godfather with no outsider to remove": (["godfather"], 7, (), {((), (5, 0, 1, 1)), (("godfather",), (5, 0, 1, 1)),
                                                                   (("godfather",), (4, 1, 1, 1))}),
    "fang gu": (["fanggu"], 7, (), {((), (5, 0, 1, 1)), (("fanggu",), (4, 1, 1, 1))}),
    "vigormortis": (["vigormortis"], 9, (), {((), (5, 2, 1, 1)), (("vigormortis",), (6, 1, 1, 1))}),
    "baron + vigormortis at 7": (["baron", "vigormortis"], 7, (), {
        ((), (5, 0, 1, 1)), (("baron",), (3, 2, 1, 1)), (("vigormortis",), (5, 0, 1, 1)),
        (("baron", "vigormortis"), (4, 1, 1, 1))}),
    "summoner + vigormortis: no Demon, so no -1": (["summoner", "vigormortis"], 9, ("demon",), {
        (("summoner",), (6, 2, 1, 0)), (("vigormortis",), (6, 1, 1, 1))}),
    "balloonist at 5 needs its own seat beside a baron": (["balloonist", "baron"], 5, (), {
        ((), (3, 0, 1, 1)), (("balloonist",), (3, 0, 1, 1)), (("balloonist",), (2, 1, 1, 1)),
        (("baron",), (1, 2, 1, 1)), (("balloonist", "baron"), (1, 2, 1, 1))}),
    "hermit at 5: no outsider seat": (["hermit"], 5, (), {((), (3, 0, 1, 1))}),
    "hermit at 6: the -1 cannot remove the hermit": (["hermit"], 6, (), {((), (3, 1, 1, 1)), (("hermit",), (3, 1, 1, 1))}),
    "huntsman at 5: the damsel replaces a townsfolk": (["huntsman"], 5, (), {((), (3, 0, 1, 1)), (("huntsman",), (2, 1, 1, 1))}),
    "huntsman at 7": (["huntsman"], 7, (), {((), (5, 0, 1, 1)), (("huntsman",), (4, 1, 1, 1))}),
    "huntsman at 8: the damsel may be the outsider": (["huntsman"], 8, (), {
        ((), (5, 1, 1, 1)), (("huntsman",), (5, 1, 1, 1)), (("huntsman",), (4, 2, 1, 1))}),
    "choirboy: the king is a townsfolk seat": (["choirboy"], 7, (), {((), (5, 0, 1, 1))}),
    "village idiot changes no count": (["villageidiot"], 7, (), {((), (5, 0, 1, 1))}),
    "bounty hunter changes no count": (["bountyhunter"], 7, (), {((), (5, 0, 1, 1))}),
    "drunk changes no count": (["drunk"], 8, (), {((), (5, 1, 1, 1))}),
    "marionette changes no count": (["marionette"], 7, (), {((), (5, 0, 1, 1))}),
    "lil monsta: a minion babysits, no demon token": (["lilmonsta"], 7, ("demon",), {(("lilmonsta",), (5, 0, 2, 0))}),
    "lil monsta + baron": (["lilmonsta", "baron"], 5, ("demon",), {
        (("lilmonsta",), (3, 0, 2, 0)), (("baron", "lilmonsta"), (1, 2, 2, 0))}),
    "lord of typhon: +1 minion, any outsiders": (["lordoftyphon"], 7, ("demon",), {
        (("lordoftyphon",), (4 - o, o, 2, 1)) for o in range(0, 5)}),
    "kazali: any outsiders": (["kazali"], 5, ("demon",), {(("kazali",), (3 - o, o, 1, 1)) for o in range(0, 4)}),
    "xaan: at least 1 outsider": (["xaan"], 7, ("minion",), {(("xaan",), (5 - o, o, 1, 1)) for o in range(1, 5)}),
    "summoner: that seat is a townsfolk": (["summoner"], 7, ("minion", "demon"), {(("summoner",), (6, 0, 1, 0))}),
    "legion at 5": (["legion"], 5, ("demon",), {(("legion",), (2, 0, 0, 3)), (("legion",), (1, 0, 0, 4))}),
    "legion at 10": (["legion"], 10, ("demon",), {(("legion",), (10 - n, 0, 0, n)) for n in range(6, 10)}),
    "legion at 15": (["legion"], 15, ("demon",), {(("legion",), (15 - n - o, o, 0, n))
                                                  for n in range(8, 15) for o in range(0, min(2, 15 - n) + 1)}),
    # no evil characters: every seat is good, Townsfolk or Outsiders in any split (the Atheist's
    # own good-duplicate lets the script fill any of them)
    "atheist: no evil characters": (["atheist"], 7, (), {((), (5, 0, 1, 1)), *((("atheist",), (7 - o, o, 0, 0))
                                                                                for o in range(0, 7))}),
    "sentinel: one more, one fewer or none": (["sentinel"], 6, (), {
        (("sentinel",), (4, 0, 1, 1)), (("sentinel",), (3, 1, 1, 1)), (("sentinel",), (2, 2, 1, 1))}),
    "sentinel + baron": (["sentinel", "baron"], 5, (), {
        (("sentinel",), (3, 0, 1, 1)), (("sentinel",), (2, 1, 1, 1)),
        (("baron", "sentinel"), (2, 1, 1, 1)), (("baron", "sentinel"), (1, 2, 1, 1)), (("baron", "sentinel"), (0, 3, 1, 1))}),
    "deus ex fiasco, bootlegger, gardener, pope, tor change no count": (
        ["deusexfiasco", "bootlegger", "gardener", "pope", "tor"], 7, (), {((), (5, 0, 1, 1))}),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_official_setup_characters(official, case):
    setup_ids, players, without, expected = CASES[case]
    row = table(official, setup_ids, players, without)
    assert row.feasible
    assert bags(row) == expected


def test_every_official_setup_character_has_a_case_or_a_count(official):
    covered = {i for setup_ids, *_ in CASES.values() for i in setup_ids}
    roles = json.loads(shared_path("reference", "official", "roles.json").read_text(encoding="utf-8"))
    flagged = {r["id"] for r in roles if r.get("setup")}
    assert flagged <= covered
    assert not [i for i in flagged if official.characters[i].setup and official.characters[i].setup.unmodelled]


def test_a_script_the_setup_characters_cannot_fill(official):
    # a Baron on a script with one Outsider: the Baron's bags are not legal, the table says so
    chars = [official.characters[i] for i in (*TOWNSFOLK, "butler", "baron", "poisoner", "imp")]
    (row,) = setup_table(chars, official, 7)
    assert bags(row) == {((), (5, 0, 1, 1))}
    assert {(s.bag.in_play, s.team, s.needed, s.available) for s in row.shortfalls} == {
        (("baron",), "outsider", 2, 1)}
    report = validate_data([*TOWNSFOLK, "butler", "baron", "poisoner", "imp"], official)
    shortfalls = [(f.data["players"], f.data["needed"], f.data["characters"]) for f in report.findings
                  if f.code == "setup-shortfall"]
    assert shortfalls == [([5, 7], 2, ["baron"]), ([6, 8], 3, ["baron"])]
    # at 10 and 11 players the Baron is one of the two Minions, always in play
    assert [f.data["players"] for f in report.findings if f.code == "setup-impossible"] == [[10], [11]]
    # the Baron as the only Minion is always in play: with one Outsider no bag can be filled,
    # though the base counts fit up to 8 players
    report = validate_data([*TOWNSFOLK, "butler", "baron", "imp"], official)
    impossible = [f.data for f in report.findings if f.code == "setup-impossible"]
    assert impossible == [{"team": "outsider", "players": [5, 7], "needed": 2, "available": 1},
                          {"team": "outsider", "players": [6, 8], "needed": 3, "available": 1}]
    assert not report.ok


def test_the_drunk_needs_a_townsfolk_token_when_every_outsider_is_in_play(db):
    three = ["chef", "noble", "clockmaker", "drunk", "poisoner", "imp"]
    (row,) = setup_table([db.characters[i] for i in three], db, 6)
    # 3 Townsfolk and the Drunk: the Drunk's Townsfolk token would be a fourth Townsfolk
    assert not row.feasible and row.shortfalls[0].team == "townsfolk" and row.shortfalls[0].needed == 4
    (row,) = setup_table([db.characters[i] for i in [*three, "librarian"]], db, 6)
    assert row.feasible and bags(row) == {((), (3, 1, 1, 1))}


# -- the invariants, for random official scripts ---------------------------------------------------


@pytest.fixture(scope="module")
def by_team(official):
    teams: dict[str, list[str]] = {}
    for ch in official.characters.values():
        if ch.edition != "homebrew":
            teams.setdefault(ch.team, []).append(ch.id)
    return teams


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_every_range_end_is_a_bag_and_every_bag_sums_to_the_players(official, by_team, data):
    picks = []
    for team, (lo, hi) in {"townsfolk": (3, 13), "outsider": (0, 4), "minion": (1, 4), "demon": (1, 4),
                           "fabled": (0, 2), "loric": (0, 1)}.items():
        picks += data.draw(st.lists(st.sampled_from(by_team[team]), min_size=lo, max_size=hi, unique=True))
    players = data.draw(st.integers(5, 15))
    (row,) = setup_table([official.characters[i] for i in picks], official, players)
    assert row.bags
    for bag in row.bags:
        assert sum(bag.counts) == players and min(bag.counts) >= 0
        assert set(bag.in_play) <= set(picks)
    for i, key in enumerate(COUNTS):
        lo, hi = row.ranges[key]
        assert {lo, hi} <= {b.counts[i] for b in row.bags}


# -- the command -----------------------------------------------------------------------------------


def test_cli_setup_text_lists_bags_and_travellers(runner):
    path = str(EXAMPLES / "fang-gu-zealot.json")
    result = runner.invoke(main, ["setup", path, "--players", "5", "--travellers", "2"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[1].split() == ["5", "3", "(0–3)", "0", "(0–3)", "1", "1"]
    assert "5 players + 2 Travellers (Travellers are not in the bag)" in result.output
    assert "  1 Townsfolk · 2 Outsiders · 1 Minion · 1 Demon — Baron" in lines
    assert "  3 Townsfolk · 0 Outsiders · 1 Minion · 1 Demon — no setup character" in lines
    assert "demon_token" not in result.output and "False" not in result.output
    korean = runner.invoke(main, ["setup", path, "--players", "5", "--lang", "ko"])
    assert "  주민 1 · 외지인 2 · 하수인 1 · 악마 1 — 남작" in korean.output.splitlines()


def test_cli_setup_json_keeps_its_keys_and_adds_bags(runner):
    path = str(EXAMPLES / "fang-gu-zealot.json")
    one = json.loads(runner.invoke(main, ["setup", path, "--players", "9", "--format", "json"]).stdout)
    assert one["outsiders"] == {"min": 2, "max": 5}  # six would need a sixth Outsider on the script
    assert one["base"] == {"townsfolk": 5, "outsiders": 2, "minions": 1, "demons": 1}
    assert {"in_play": ["balloonist", "fanggu"], "townsfolk": 3, "outsiders": 4, "minions": 1, "demons": 1} in one["bags"]
    assert all(sum(b[k] for k in COUNTS) == 9 for b in one["bags"])
    every = runner.invoke(main, ["setup", path, "--format", "json"])
    assert [r["players"] for r in json.loads(every.stdout)] == list(range(5, 16))
    assert runner.invoke(main, ["setup", path, "--players", "4"]).exit_code == 2


def test_homebrew_setup_minions_below_ten(db):
    builtin = ["chef", "noble", "clockmaker", "grandmother", "librarian", "pixie", "empath", "sailor"]
    script = script_from_data([*builtin, "imp", "poisoner", {
        "id": "m1", "name": "M1", "team": "minion", "ability": "x [+1 Outsider]"}, {
        "id": "m2", "name": "M2", "team": "minion", "ability": "y [+1 Outsider]"},
        "recluse", "zealot", "mutant", "tinker"], db)
    rows = {r.players: r for r in setup_table(script.characters, db)}
    # at 9 only one of the Minions is in play; two Minions at 12 can both apply; equal effects
    # are one kind, listed per character
    assert rows[9].ranges["outsiders"] == (2, 3)
    assert {b.in_play for b in rows[12].bags} == {("m1",), ("m2",), ("m1", "m2")}  # one plain Minion only
    assert rows[12].ranges["outsiders"] == (3, 4)


def test_an_unmodelled_effect_is_a_validate_finding(db):
    from dataclasses import replace

    from scriptforge.model.records import SetupEffect
    from scriptforge.rules.validate import count_findings

    script = script_from_data(["chef", "noble", "clockmaker", "grandmother", "librarian", "imp", "poisoner"], db)
    odd = replace(script.characters[-1], setup=SetupEffect(unmodelled=("Poisoners sit apart",)))
    script = replace(script, characters=(*script.characters[:-1], odd))
    (found,) = [f for f in count_findings(script, setup_table(script.characters, db), db) if f.code == "setup-unmodelled"]
    assert found.severity == "warning" and found.path == "/6"
    assert found.data == {"character": "poisoner", "clauses": ["Poisoners sit apart"]}


def test_unmodelled_bracket_is_a_note_under_the_table(runner, tmp_path):
    path = Path(tmp_path / "odd.json")
    path.write_text(json.dumps(["chef", "empath", "monk", "savant", "imp", "poisoner", {
        "id": "goose", "name": "Goose", "team": "minion", "ability": "Honk. [Geese sit in a row]"}]), encoding="utf-8")
    text = runner.invoke(main, ["setup", str(path)]).output
    assert "Not counted: Goose: Geese sit in a row" in text


def test_back_page_prints_the_base_beside_the_range(db):
    from scriptforge.scripts.analysis import analyse
    from scriptforge.render.views import back_view

    script = script_from_data(["chef", "noble", "clockmaker", "grandmother", "librarian", "pixie", "empath",
                               "sailor", "recluse", "mutant", "poisoner", "witch", "imp", "lilmonsta"], db)
    back = back_view(analyse(script, db), "ko", [])
    cells = {team["id"]: team["counts"] for team in back["setup_teams"]}
    assert cells["demon"][0] == "1 (0–1)" and cells["minion"][0] == "1 (1–2)"  # Lil' Monsta: no Demon token
    assert cells["townsfolk"][0] == "3" and cells["outsider"][0] == "0"
    assert back["setup_note"] == "기본 (가능한 모든 주머니 구성의 범위)"


# -- issue 25: the Atheist, the Pope, the selection marks, forced choices (table-driven) ----------


def hb(char_id, team, ability="Something happens.", marks=()):
    """A homebrew character object, with official `special` selection marks."""
    item = {"id": char_id, "name": char_id.title(), "team": team, "ability": ability}
    if marks:
        item["special"] = [{"type": "selection", "name": m} for m in marks]
    return item


SMALL = ["chef", "noble", "clockmaker", "recluse", "poisoner", "imp"]

# (script entries, players, what the row must show: "feasible", "bags" (a subset that must be
#  there), "no_bags" (bags that must not be), "ranges" (team -> (min, max)))
ISSUE_CASES = {
    "atheist alone: Townsfolk or Outsiders in any split": (
        ["atheist", *TOWNSFOLK, *OUTSIDERS, *MINIONS, *DEMON], 9,
        {"bags": {(("atheist",), (9 - o, o, 0, 0)) for o in range(0, 9)}, "ranges": {"minions": (0, 1)}}),
    "atheist on a small script: its good-duplicate fills the big counts": (
        ["atheist", *SMALL], 15, {"feasible": True, "bags": {(("atheist",), (15, 0, 0, 0)), (("atheist",), (12, 3, 0, 0))},
                                  "ranges": {"minions": (0, 0), "demons": (0, 0)}}),
    "atheist with the pope: one Minion cannot repeat, so only the Atheist's bags are left": (
        ["atheist", "pope", *SMALL], 12, {"feasible": True, "bags": {(("atheist",), (10, 2, 0, 0))},
                                          "no_bags": {((), (7, 2, 2, 1))}}),
    "pope + drunk: the Townsfolk need is settled after the Drunk's token": (
        ["chef", "noble", "clockmaker", "drunk", "poisoner", "imp", "pope"], 6,
        {"feasible": True, "bags": {((), (3, 1, 1, 1))}}),
    "the pope repeats good characters only: two Minions cannot fill three seats": (
        [*TOWNSFOLK, *OUTSIDERS, "poisoner", "spy", "imp", "pope"], 13, {"feasible": False}),
    "the pope repeats good characters: two Minions fill two seats": (
        [*TOWNSFOLK, *OUTSIDERS, "poisoner", "spy", "imp", "pope"], 10, {"feasible": True, "ranges": {"minions": (2, 2)}}),
    "the drunk is shown a setup townsfolk out of play (the atheist)": (
        ["chef", "noble", "clockmaker", "librarian", "investigator", "atheist", "drunk", "saint", "poisoner", "imp"], 9,
        {"feasible": True, "bags": {((), (5, 2, 1, 1))}}),
    "bag-duplicate: one Minion fills every Minion seat": (
        [*TOWNSFOLK, *OUTSIDERS, hb("coven", "minion", marks=["bag-duplicate"]), "imp"], 13,
        {"feasible": True, "ranges": {"minions": (3, 3)}}),
    "without bag-duplicate the same script cannot": (
        [*TOWNSFOLK, *OUTSIDERS, hb("coven", "minion"), "imp"], 13, {"feasible": False}),
    "bag-disabled: never dealt, so another Outsider is shown": (
        ["chef", "noble", "clockmaker", hb("ghost", "outsider", marks=["bag-disabled"]), "poisoner", "imp"], 6,
        {"feasible": False}),
    "bag-disabled with a second Outsider": (
        ["chef", "noble", "clockmaker", hb("ghost", "outsider", marks=["bag-disabled"]), "saint", "poisoner", "imp"], 6,
        {"feasible": True, "bags": {((), (3, 1, 1, 1))}}),
    "good-duplicate on a player: only the bags with it in play repeat": (
        ["noble", "clockmaker", hb("twin", "townsfolk", marks=["good-duplicate"]), "recluse", "poisoner", "imp"], 7,
        {"feasible": True, "bags": {(("twin",), (5, 0, 1, 1))}, "no_bags": {((), (5, 0, 1, 1))}}),
    "evil-duplicate on a Loric: Minions repeat at every count": (
        [*TOWNSFOLK, *OUTSIDERS, "poisoner", "imp", hb("hive", "loric", marks=["evil-duplicate"])], 13,
        {"feasible": True, "ranges": {"minions": (3, 3)}}),
}


@pytest.mark.parametrize("case", ISSUE_CASES, ids=list(ISSUE_CASES))
def test_setup_rules_of_issue_25(official, case):
    entries, players, expected = ISSUE_CASES[case]
    script = script_from_data(entries, official)
    (row,) = setup_table(script.characters, official, players)
    if "feasible" in expected:
        assert row.feasible is expected["feasible"]
    assert expected.get("bags", set()) <= bags(row)
    assert not expected.get("no_bags", set()) & bags(row)
    for team, span in expected.get("ranges", {}).items():
        assert row.ranges[team] == span


def test_witch_hunt_puts_several_witches_in_the_bag(official):
    script = script_from_data(json.loads(shared_path("reference", "official", "wc25", "witchhunt", "script.json")
                                         .read_text(encoding="utf-8")), official)
    rows = {r.players: r for r in setup_table(script.characters, official)}
    assert all(r.feasible for r in rows.values())
    assert rows[13].ranges["minions"] == (4, 4) and rows[13].ranges["demons"] == (0, 0)  # Lil' Monsta: +1 Minion
    report = validate_data(json.loads(shared_path("reference", "official", "wc25", "witchhunt", "script.json")
                                      .read_text(encoding="utf-8")), official)
    assert report.ok and not [f for f in report.findings if f.code in ("team-too-small", "setup-impossible")]


SEED_WARNING = "the Balloonist must add no Outsider: the bag would need 6 Outsiders, the script has 5"


def test_seed_003_gets_its_authors_warning_at_9_12_and_15(db, runner):
    script = script_from_data(json.loads((EXAMPLES / "fang-gu-zealot.json").read_text(encoding="utf-8")), db)
    rows = setup_table(script.characters, db)
    forced = {r.players: r.forced for r in rows}
    assert [n for n, f in forced.items() if f] == [9, 12, 15]
    for n in (9, 12, 15):
        (one,) = forced[n]
        assert (one.character, one.others, one.allowed, dict(one.refused)) == (
            "balloonist", ("baron", "fanggu"), ((("outsiders", 0),),), {"outsiders": 1})
        assert (one.gap.team, one.gap.needed, one.gap.available) == ("outsider", 6, 5)
    report = validate_data(json.loads((EXAMPLES / "fang-gu-zealot.json").read_text(encoding="utf-8")), db)
    (finding,) = [f for f in report.findings if f.code == "setup-forced-choice"]
    assert finding.severity == "info" and finding.data["players"] == [9, 12, 15]
    assert SEED_WARNING in finding.message and "with Baron and Fang Gu in play" in finding.message
    path = str(EXAMPLES / "fang-gu-zealot.json")
    english = runner.invoke(main, ["setup", path, "--players", "12"]).output
    assert f"At 12 players, with Baron and Fang Gu in play, t{SEED_WARNING[1:]}." in english
    korean = runner.invoke(main, ["setup", path, "--players", "15", "--lang", "ko"]).output
    assert ("15인 게임, 남작, 팡 구 등장 시: 열기구 조종사의 효과는 ‘외지인 추가 없음’만 고를 수 있습니다. "
            "그 밖의 선택은 외지인 6명이 필요하지만 스크립트에는 5명뿐입니다.") in korean
    for n in (5, 6, 7, 8, 10, 11, 13, 14):
        assert "Balloonist must" not in runner.invoke(main, ["setup", path, "--players", str(n)]).output


def test_setup_json_lists_bags_only_when_asked_and_carries_findings(runner):
    path = str(EXAMPLES / "fang-gu-zealot.json")
    every = json.loads(runner.invoke(main, ["setup", path, "--format", "json"]).stdout)
    assert all("bags" not in row for row in every)
    nine = every[4]
    assert [f["code"] for f in nine["findings"]] == ["setup-forced-choice"]
    assert nine["forced"][0]["refused"] == {"outsiders": 1} and nine["forced"][0]["needed"] == 6
    assert not every[5]["findings"]  # 10 players: nothing to say
    listed = json.loads(runner.invoke(main, ["setup", path, "--format", "json", "--bags"]).stdout)
    assert all(row["bags"] for row in listed)


def test_many_homebrew_setup_characters_get_bounds_and_a_finding(db):
    effects = ["+1 Outsider", "-1 Outsider", "+0 or +1 Outsider", "-1 or +1 Outsider", "+2 Outsiders",
               "-0 or -1 Outsider", "+1 Minion", "+1 Townsfolk", "-1 Townsfolk", "+0 to +2 Outsiders"]
    teams = ["townsfolk", "outsider", "minion", "demon"]
    homebrew = [hb(f"hb{i}", teams[i % 4], f"Something. [{effects[i % 10]}. {effects[(i // 10 + i + 1) % 10]}]")
                for i in range(30)]
    report = validate_data(["chef", "noble", "librarian", "recluse", "poisoner", "imp", *homebrew], db)
    (summary,) = [f for f in report.findings if f.code == "setup-summarised"]
    assert summary.severity == "info" and summary.data["players"] == list(range(5, 16))
    rows = report.analysis.setup
    for row in rows:
        assert not row.exact and not row.bags
        assert all(0 <= lo <= hi <= row.players for lo, hi in row.ranges.values())


def test_validate_and_setup_never_disagree_over_the_corpus(official):
    """Every count no bag can fill is exactly one of team-too-small / setup-impossible, and every
    setup finding names counts of its own kind only; every corpus script gets a table."""
    from tests.test_validate import corpus_files

    for path in corpus_files():
        try:
            script = read_script(path, official)
        except InputError:
            continue
        analysis = analyse(script, official)
        unfillable = {r.players for r in analysis.setup if not r.feasible}
        said: dict[str, set[int]] = {}
        for f in analysis.findings:
            if f.code in ("team-too-small", "setup-impossible", "setup-shortfall", "setup-forced-choice"):
                said.setdefault(f.code, set()).update(f.data["players"])
        cannot = said.get("team-too-small", set()) | said.get("setup-impossible", set())
        assert cannot == unfillable, path.name
        assert not said.get("team-too-small", set()) & said.get("setup-impossible", set()), path.name
        assert not (said.get("setup-shortfall", set()) | said.get("setup-forced-choice", set())) & unfillable, path.name


def test_script_analysis_like_the_official_tool(official):
    teensy = ["chef", "noble", "clockmaker", "librarian", "washerwoman", "empath", "recluse", "saint",
              "poisoner", "spy", "imp"]
    report = validate_data(teensy, official)
    codes = [f.code for f in report.findings]
    assert "team-advice" not in codes  # 6 / 2 / 2 / 1: a usual Teensyville script
    assert "no-outsider-modification" in codes and "sheet-too-full" not in codes
    report = validate_data([*teensy[:-1], "baron", "imp"], official)
    assert "no-outsider-modification" not in [f.code for f in report.findings]
    assert [f.data for f in report.findings if f.code == "team-advice"] == [
        {"team": "minion", "count": 3, "usual": [2, 2], "kind": "teensyville"}]
    big = validate_data([*TOWNSFOLK, "king", "chambermaid", *OUTSIDERS, "drunk", *MINIONS, "baron", "imp", "fanggu",
                         "vigormortis", "nodashii", "pukka"], official)
    by_code = {f.code: f for f in big.findings}
    assert by_code["sheet-too-full"].data == {"characters": 29, "one_sheet": 25}
    advice = [f.message for f in big.findings if f.code == "team-advice"]
    assert advice == ["15 Townsfolk: more than a standard script usually has (13)",
                      "5 Outsiders: more than a standard script usually has (4)",
                      "5 Demons: more than a standard script usually has (4)"]
    meta = validate_data([{"id": "_meta", "name": "Big teensy", "teensyville": True}, *TOWNSFOLK, "imp"], official)
    assert {f.data["kind"] for f in meta.findings if f.code == "team-advice"} == {"teensyville"}


def test_thousands_of_duplicates_are_one_finding_and_homebrew_order_is_kept(db):
    from scriptforge.rules.order import sheet_order

    script = script_from_data(["imp", *["monk"] * 3000, "chef", {"id": "chef"}], db)
    dupes = [f for f in script.problems if f.code == "duplicate-character"]
    assert [(f.data["id"], f.data["repeats"], f.path) for f in dupes] == [("monk", 2999, "/2"), ("chef", 1, "/3002")]
    assert "3000 times in all" in dupes[0].message
    # homebrew placed by the rule among official characters, in key order, ties in key order
    entries = ["chef", "librarian", "empath", "monk",
               hb("hb1", "townsfolk", "You start knowing a secret."), hb("hb2", "townsfolk", "Each night, hum."),
               hb("hb3", "townsfolk", "Each night, choose a player: you learn a lot about them."),
               hb("hb4", "townsfolk", "Zzz.")]
    order = [c.id for c in sheet_order(script_from_data(entries, db))]
    # "You start knowing" (shortest first), then "Each night" by length, unmatched last
    assert order == ["hb1", "chef", "librarian", "hb2", "hb3", "empath", "monk", "hb4"]
