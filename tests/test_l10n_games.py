"""Translator tools over the other games (Salem 1692, Werewolf, Mafia): units, status, checks, diff."""

import json
from pathlib import Path

import pytest

from scriptforge.cli import main
from scriptforge.db.games import OTHER_GAMES, load_game, load_games
from scriptforge.l10n.checks import run_checks
from scriptforge.l10n.provenance import YamlDoc
from scriptforge.l10n.units import game_units


def _env(data_dir):
    return {"SCRIPTFORGE_DATA": str(data_dir)}


def _edit(path: Path, change) -> None:
    doc = YamlDoc.read(path)
    change(doc.data)
    path.write_text(doc.dumps(), encoding="utf-8")


def _findings(data_copy, game=None):
    games = {game: load_game(game, data_copy / "games")} if game else load_games(data_dir=data_copy / "games")
    return run_checks(None, games=games)


def _keys(findings):
    return {(f.code, f.lang, f.game, f.character, f.field) for f in findings}


# -- units -------------------------------------------------------------------------------------


def test_units_of_a_game_cover_roles_steps_and_game_texts():
    salem = load_game("salem")
    units = {u.key: u for u in game_units(salem)}
    assert units["salem.witch.name"].texts == {"ko": "마녀 카드", "en": "Witch card"}
    assert units["salem.witch.name"].game == "salem" and units["salem.witch.name"].group == "salem.roles"
    assert isinstance(units["salem.martha_corey.notes"].text("ko"), tuple)
    assert "salem.martha_corey.text" not in units  # the source gives no ability: no unit, not missing
    assert units["salem.confession.name"].group == "salem.steps"
    assert units["salem.game.teams.witches"].text("ko") == "마녀"
    assert isinstance(units["salem.game.sections.death.items"].text("en"), tuple)
    assert not any(key.endswith(".numbered") for key in units)  # flags are not texts


# -- status and check on the shipped data ----------------------------------------------------------


def test_status_for_one_game_shows_nothing_missing(runner):
    result = runner.invoke(main, ["l10n", "status", "--game", "salem", "--format", "json"])
    assert result.exit_code == 0, result.output
    table = json.loads(result.output)
    assert set(table["ko"]) == {"salem.roles", "salem.steps", "salem.game", "games.ui"}
    for lang in ("en", "ko"):
        assert all(cell["missing"] == 0 and cell["stale"] == 0 for cell in table[lang].values()), table[lang]
        assert table[lang]["salem.roles"]["translated"] > 0
    text = runner.invoke(main, ["l10n", "status", "--game", "salem"]).output
    assert "salem.steps" in text and "ability" not in text
    assert "complete: nothing missing or stale" in text


def test_plain_status_and_check_cover_every_game(runner):
    table = json.loads(runner.invoke(main, ["l10n", "status", "--format", "json"]).output)
    assert {"ability", "glossary", "games.ui"} <= set(table["en"])
    assert {f"{g}.roles" for g in OTHER_GAMES} <= set(table["en"])
    check = runner.invoke(main, ["l10n", "check"])
    assert check.exit_code == 0, check.output
    assert check.output.strip() == "ok (0 error(s), 0 warning(s))"
    for game in ("botc", *OTHER_GAMES):
        one = runner.invoke(main, ["l10n", "check", "--game", game])
        assert one.exit_code == 0, (game, one.output)


def test_shipped_games_have_no_finding():
    assert [f.as_dict() for f in run_checks(None, games=load_games())] == []


# -- one injected defect per generic check ------------------------------------------------------


def test_missing(data_copy):
    _edit(data_copy / "games/salem/en/game.yaml", lambda d: d["kind_notes"].pop("green"))
    assert _keys(_findings(data_copy, "salem")) == {
        ("missing", "en", "salem", None, "salem.game.kind_notes.green")}


def test_untranslated(data_copy):
    english = load_game("mafia").roles["citizen"].texts["en"].text

    def copy_english(data):
        data["citizen"]["text"] = english

    _edit(data_copy / "games/mafia/ko/roles.yaml", copy_english)
    assert _keys(_findings(data_copy, "mafia")) == {("untranslated", "ko", "mafia", "citizen", "text")}


def test_whitespace(data_copy):
    def double_space(data):
        data["seer"]["text"] = data["seer"]["text"].replace(" ", "  ", 1)

    path = data_copy / "games/werewolf/en/roles.yaml"
    assert "seer" in YamlDoc.read(path).data
    _edit(path, double_space)
    [finding] = _findings(data_copy, "werewolf")
    assert (finding.code, finding.severity, finding.lang, finding.game, finding.character, finding.field) == \
        ("whitespace", "warning", "en", "werewolf", "seer", "text")


def test_unbalanced(data_copy):
    def open_bracket(data):
        data["crier_choice"]["text"] += " (see the moderator rule"

    _edit(data_copy / "games/salem/en/steps.yaml", open_bracket)
    findings = _findings(data_copy, "salem")
    assert _keys(findings) == {("unbalanced", "en", "salem", "crier_choice", "text")}
    assert findings[0].data == {"pairs": ["()"]}


def test_unbalanced_in_a_list_item(data_copy):
    def quote(data):
        data["sections"]["death"]["items"][0] += " “"

    _edit(data_copy / "games/salem/ko/game.yaml", quote)
    [finding] = _findings(data_copy, "salem")
    assert (finding.code, finding.field) == ("unbalanced", "salem.game.sections.death.items")
    assert "salem.game.sections.death.items[1]" in finding.message


def test_name_collision_within_a_game(data_copy):
    def rename(data):
        data["robbery"]["name"] = "Alibi"

    _edit(data_copy / "games/salem/en/roles.yaml", rename)
    findings = _findings(data_copy, "salem")
    assert [(f.code, f.lang, f.game) for f in findings] == [("name-collision", "en", "salem")]
    assert set(findings[0].data["characters"]) == {"robbery", "alibi"}


def test_same_name_in_two_games_is_no_collision():
    # 경찰 is Salem's Constable card's alias and Mafia's police: different games, different tables
    assert run_checks(None, games=load_games(), select=["name-collision"]) == []


def test_botc_conventions_are_not_applied_to_the_games(data_copy):
    """The night '*', BotC's glossary (해질녘 → 황혼) and BotC's names are BotC's, not the games'."""
    def botc_words(data):
        data["seer"]["text"] += " 해질녘에 미망임과 설교자.*"

    _edit(data_copy / "games/werewolf/ko/roles.yaml", botc_words)
    assert _findings(data_copy, "werewolf") == []


def test_the_games_glossary_is_theirs(data_copy):
    """The games share data/games/<lang>/glossary.yaml: 사회자 for 진행자 fires in a Salem step and in
    the shared sheet words, with the file named; BotC's terms stay BotC's."""
    def moderator(data):
        data["crier_choice"]["text"] += " 사회자가 정합니다."

    _edit(data_copy / "games/salem/ko/steps.yaml", moderator)
    _edit(data_copy / "games/ko/ui.yaml", lambda d: d["labels"].__setitem__("moderator_sheet", "사회자 시트"))
    findings = run_checks(None, games=load_games(data_dir=data_copy / "games"))
    assert _keys(findings) == {("term-variant", "ko", "salem", "crier_choice", "text"),
                               ("term-variant", "ko", "games", None, "games.ui.labels.moderator_sheet")}
    assert {f.data["file"] for f in findings} == {"data/games/salem/ko/steps.yaml", "data/games/ko/ui.yaml"}
    assert all("'진행자'" in f.message for f in findings)


# -- CLI over a data copy ---------------------------------------------------------------------------


def test_cli_check_reads_scriptforge_data(runner, data_copy):
    _edit(data_copy / "games/salem/en/game.yaml", lambda d: d["kind_notes"].pop("green"))
    for game in ("salem", "all"):
        result = runner.invoke(main, ["l10n", "check", "--game", game, "--format", "json"], env=_env(data_copy))
        assert result.exit_code == 1, result.output
        [finding] = json.loads(result.output)["findings"]
        assert (finding["code"], finding["game"], finding["field"]) == \
            ("missing", "salem", "salem.game.kind_notes.green")
    assert runner.invoke(main, ["l10n", "check", "--game", "werewolf"], env=_env(data_copy)).exit_code == 0
    assert runner.invoke(main, ["l10n", "check", "--game", "botc"], env=_env(data_copy)).exit_code == 0
    status = json.loads(runner.invoke(main, ["l10n", "status", "--game", "salem", "--format", "json"],
                                      env=_env(data_copy)).output)
    assert status["en"]["salem.game"]["missing"] == 1


def test_load_game_honours_scriptforge_data(monkeypatch, data_copy):
    _edit(data_copy / "games/mafia/en/roles.yaml", lambda d: d["citizen"].update(name="Townsperson"))
    monkeypatch.setenv("SCRIPTFORGE_DATA", str(data_copy))
    assert load_game("mafia").roles["citizen"].name("en") == "Townsperson"
    monkeypatch.delenv("SCRIPTFORGE_DATA")
    assert load_game("mafia").roles["citizen"].name("en") == "Citizen"


def test_cli_diff_for_games(runner):
    result = runner.invoke(main, ["l10n", "diff", "--game", "salem", "witch"])
    assert result.exit_code == 0, result.output
    assert "== salem.witch\n  name\n    en: Witch card\n    ko: 마녀 카드\n" in result.output
    # a Korean name, looked up in every game; BotC ids still work with the default --game all
    assert "== mafia.doctor" in runner.invoke(main, ["l10n", "diff", "의사", "--game", "mafia"]).output
    assert "== imp" in runner.invoke(main, ["l10n", "diff", "imp"]).output
    rows = json.loads(runner.invoke(main, ["l10n", "diff", "--game", "werewolf", "--format", "json"]).output)
    assert {r["game"] for r in rows} == {"werewolf", "games"}
    assert all(r["state"] == "translated" for r in rows)
    missing = runner.invoke(main, ["l10n", "diff", "--game", "salem", "nobody"])
    assert missing.exit_code != 0 and "nobody" in missing.output
    against = runner.invoke(main, ["l10n", "diff", "--game", "salem", "--against", "x.json"])
    assert against.exit_code == 2 and "--against" in against.output


@pytest.mark.parametrize("game", OTHER_GAMES)
def test_every_game_has_units_in_both_languages(game):
    units = game_units(load_game(game))
    assert units and all(set(u.texts) == {"ko", "en"} for u in units)
