"""Other games (Salem 1692, Werewolf, Mafia): data, lookup, setup, the CLI and the sheets."""

import io
import json
from pathlib import Path
import re

from click.testing import CliRunner
from pypdf import PdfReader
import pytest
import yaml

from scriptforge.cli import main
from scriptforge.io.errors import DataError, InputError, NotFoundError
from scriptforge.db.games import GAMES_DIR, OTHER_GAMES, check_game, load_game
LANGUAGES = ("en", "ko")  # the built-in data's languages

# the tests share the sheets they print (the `printed` fixture): one worker runs them all
pytestmark = pytest.mark.xdist_group("games")

SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"
SALEM_SEED = SEEDS / "002_26ff0cf9a70d4965.txt"
WEREWOLF_SEED = SEEDS / "004_f6bc3979386b8a9e.txt"

#: Every character, card, token and piece of equipment seed 002 names, as it spells them.
SALEM_NAMED = {
    "martha_corey": "마사 코레이", "john_proctor": "존 프록터", "mary_warren": "마리 워렌",
    "samuel_parris": "사무엘 패리스", "thomas_danforth": "토마스 댄포스", "george_burroughs": "조지 버로우스",
    "will_griggs": "윌 그릭스", "witch": "마녀 카드", "constable": "경찰 카드", "conspiracy": "음모", "night": "밤",
    "scapegoat": "희생양", "robbery": "도둑", "alibi": "알리바이", "stocks": "족쇄", "asylum": "피난처",
    "matchmaker": "중매쟁이", "piety": "독실함", "evidence": "증거", "witness": "목격자", "black_cat": "검은 고양이",
    "blank_card": "빈 카드", "kill_token": "Kill 토큰", "save_token": "Save 토큰", "blank_token": "빈 토큰",
    "hourglass": "모래시계", "town_crier": "포고자", "moderator": "중재자",
    "not_a_witch": "마녀 아님 카드",  # the published rulebook's, beside its tryal-card table; not in the seed
}
SALEM_NOT_IN_SEED = {"not_a_witch"}
WEREWOLF_JOBS = ["늑대", "배신자", "추종자", "예언자", "경비병", "영매", "탐정", "추격자", "후계자", "비밀결사", "귀족",
                 "군인", "템플러", "시민", "살인자", "쥐인간"]
MAFIA_JOBS = ["마피아", "경찰", "의사", "시민"]


@pytest.fixture(scope="module")
def games():
    return {g: load_game(g) for g in OTHER_GAMES}


def _invoke(*args):
    return CliRunner().invoke(main, list(args))


def test_every_game_loads_without_problems():
    for game in OTHER_GAMES:
        gdb, problems = check_game(game)
        assert problems == [], problems
        assert gdb.roles


def test_every_salem_card_and_character_of_the_seed_in_both_languages(games):
    salem = games["salem"]
    assert set(salem.roles) == set(SALEM_NAMED)
    for role_id, ko_name in SALEM_NAMED.items():
        role = salem.roles[role_id]
        assert role.texts["ko"].name == ko_name
        assert set(role.texts) == set(LANGUAGES)
        assert role.texts["en"].name and re.search(r"[A-Za-z]", role.texts["en"].name)
        assert not re.search(r"[가-힣]", role.texts["en"].text or "")


@pytest.mark.skipif(not SALEM_SEED.exists(), reason="../shared/seeds is not beside the checkout")
def test_salem_korean_names_and_texts_come_from_the_seed(games):
    seed = re.sub(r"\s+", "", SALEM_SEED.read_text(encoding="utf-8"))
    for role in games["salem"].roles.values():
        if role.id in SALEM_NOT_IN_SEED:
            continue
        name = role.texts["ko"].name.replace(" 카드", "").replace(" ", "")
        assert name in seed, role.id
        for note in role.texts["ko"].notes:
            # every clarification is the seed's sentence (spacing aside; a few open with a context phrase)
            assert re.sub(r"\s+", "", note)[-20:] in seed, (role.id, note)


@pytest.mark.skipif(not WEREWOLF_SEED.exists(), reason="../shared/seeds is not beside the checkout")
def test_werewolf_and_mafia_jobs_are_the_seeds(games):
    seed = WEREWOLF_SEED.read_text(encoding="utf-8")
    for game, names in (("werewolf", WEREWOLF_JOBS), ("mafia", MAFIA_JOBS)):
        gdb = games[game]
        assert [r.texts["ko"].name for r in gdb.roles.values()] == names
        for role in gdb.roles.values():
            assert set(role.texts) == set(LANGUAGES)
            assert f"{role.texts['ko'].name}: {role.texts['ko'].text}".replace(" ", "") in seed.replace(" ", "")


def test_teams(games):
    assert games["salem"].teams == ("town", "witches")
    assert games["werewolf"].teams == ("wolf", "citizens", "ratman")
    assert games["mafia"].teams == ("mafia", "citizens")
    assert games["werewolf"].roles["ratman"].team == "ratman"
    assert {r.team for r in games["mafia"].roles.values()} == {"mafia", "citizens"}


def test_witch_count_and_player_range(games):
    salem = games["salem"]
    assert salem.players == (5, 12)
    assert [salem.witch_count(n) for n in range(5, 13)] == [2, 2, 3, 3, 3, 3, 3, 3]
    assert salem.setup_table("witches").rule == "upgrade"
    with pytest.raises(InputError, match="5-12 players"):
        salem.witch_count(13)


def test_tryal_cards_by_player_count_come_from_the_cited_rulebook(games):
    table = games["salem"].setup_table("tryal_cards")
    assert table.missing is None and "rulebook" in table.source
    rows = {row.players[0]: dict(row.cards) for row in table.rows}
    assert sorted(rows) == list(range(4, 13))
    for players, row in zip(sorted(rows), table.rows):
        # one Constable, the Witches of the published table, and the cards shared out evenly
        assert row.cards and sum(dict(row.cards).values()) == row.count and row.count % players == 0
        assert dict(row.cards)["constable"] == 1
        assert dict(row.cards)["witch"] == (1 if players < 6 else 2)
    assert games["salem"].setup_count("tryal_cards", 7) == 35
    assert [row.count // row.players[0] for row in table.rows] == [5, 5, 5, 5, 4, 4, 3, 3, 3]


def test_a_card_count_that_does_not_add_up_is_a_finding(tmp_path):
    import shutil

    shutil.copytree(GAMES_DIR, tmp_path / "games")
    facts = tmp_path / "games" / "salem" / "game.yaml"
    facts.write_text(facts.read_text(encoding="utf-8").replace("not_a_witch: 18}", "not_a_witch: 17, wizard: 1}"),
                     encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load_game("salem", tmp_path / "games")
    assert "unknown card 'wizard'" in str(caught.value) and "game.yaml" in str(caught.value)


def test_werewolf_conditions_and_team_sizes(games):
    ww = games["werewolf"]
    assert ww.roles["secret_society"].count == 2
    for job in ("traitor", "follower", "seer", "medium", "detective", "tracker", "killer"):
        assert any(a.from_night == 2 for a in ww.roles[job].abilities), job
    assert ww.roles["successor"].abilities[0].on_night == 4
    assert ww.roles["killer"].abilities[0].uses == 1
    first = ww.sequence("first_night").steps
    assert "seer" not in first and "killer" not in first and "seer" in ww.sequence("other_nights").steps
    assert ww.players is None and "players" in ww.missing
    assert ww.setup_table("job_counts").rows is None
    assert ww.sequence("day").steps[:4] == ("day_results", "first_vote", "defence", "second_vote")


def test_salem_night_script_has_confession_and_dawn_reveal(games):
    salem = games["salem"]
    assert salem.sequence("first_night").steps[1] == "witches_black_cat"
    other = salem.sequence("other_nights").steps
    assert other[-2:] == ("confession", "dawn_reveal")
    assert "자백" in salem.steps["confession"].texts["ko"].say
    assert salem.steps["dawn_reveal"].texts["en"].say


def test_lookup_by_id_korean_and_english_name(games):
    salem = games["salem"]
    assert salem.resolve("마녀").id == "witch"
    assert salem.resolve("Martha Corey").id == salem.resolve("마사코레이").id == "martha_corey"
    assert salem.resolve("아쉴룸").id == "asylum"
    assert salem.resolve("confession").id == "confession"
    with pytest.raises(NotFoundError, match="did you mean"):
        salem.resolve("마사 코래이")


def _completions(*words: str) -> list[str]:
    """What the shell is offered for the last of `words`, through click's own completion machinery."""
    from click.shell_completion import ShellComplete

    complete = ShellComplete(main, {}, "scriptforge", "_SCRIPTFORGE_COMPLETE")
    return [(item.type, item.value) for item in complete.get_completions(list(words[:-1]), words[-1])]


def test_shell_completion_of_a_game_role_or_step_in_every_language():
    assert _completions("show", "--game", "salem", "마사") == [("plain", "마사 코레이")]
    assert _completions("show", "--game", "salem", "MARTHA") == [("plain", "martha_corey"), ("plain", "Martha Corey")]
    assert ("plain", "confession") in _completions("show", "--game", "salem", "conf")  # a step of the night
    assert _completions("show", "--game", "werewolf", "배신") == [("plain", "배신자")]
    # BotC by default: no Salem role; where nothing matches, the shell completes a file name
    assert _completions("show", "마사") == [("file", "마사")]
    # l10n diff looks names up in every rule set its --game takes (all by default)
    assert ("plain", "마사 코레이") in _completions("l10n", "diff", "마사")
    assert _completions("l10n", "diff", "--game", "mafia", "마피") == [("plain", "마피아")]
    assert _completions("l10n", "diff", "--game", "botc", "마사") == [("file", "마사")]


def test_zsh_completion_of_a_korean_prefix_is_the_korean_name():
    env = {"_SCRIPTFORGE_COMPLETE": "zsh_complete", "COMP_WORDS": "scriptforge show --game mafia 의", "COMP_CWORD": "4"}
    result = CliRunner().invoke(main, [], env=env, prog_name="scriptforge")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == ["plain", "의사", "_"]


def test_schema_error_names_file_line_record_and_field(tmp_path):
    import shutil

    shutil.copytree(GAMES_DIR, tmp_path / "games")
    path = tmp_path / "games" / "mafia" / "game.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("kind: job, team: citizens}", "kind: job, team: 7}", 1),
                    encoding="utf-8")
    with pytest.raises(DataError, match=r"game\.yaml:\d+: record 'police', field 'roles\.team'"):
        load_game("mafia", tmp_path / "games")


def test_a_missing_translation_is_a_problem(tmp_path):
    import shutil

    shutil.copytree(GAMES_DIR, tmp_path / "games")
    path = tmp_path / "games" / "mafia" / "en" / "roles.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    del data["doctor"]
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    _, problems = check_game("mafia", tmp_path / "games")
    assert any("'doctor': no 'en' text" in str(p) for p in problems)


def test_every_broken_reference_between_a_games_files_is_named_with_its_file_and_line(tmp_path):
    import shutil

    shutil.copytree(GAMES_DIR, tmp_path / "games")
    root = tmp_path / "games" / "werewolf"

    def edit(rel: str, old: str, new: str) -> None:
        path = root / rel
        text = path.read_text(encoding="utf-8")
        assert old in text, (rel, old)
        path.write_text(text.replace(old, new, 1), encoding="utf-8")

    edit("game.yaml", "steps: [wolf, traitor, follower, guard, noble]}", "steps: [wolf, traitor, follower, seer, noble]}")
    edit("game.yaml", "kind: job\n    team: wolf\n    abilities:\n      - {id: kill}", "kind: card\n    team: wolf\n"
         "    abilities:\n      - {id: kill}")
    edit("en/steps.yaml", "day_results:", "lunch:\n  name: Lunch\n  text: Everyone eats.\nday_results:")
    edit("ko/game.yaml", "  ratman: 쥐인간 팀(제3세력)\n", "  ratman: 쥐인간 팀(제3세력)\n  ghosts: 유령\n")
    _, problems = check_game("werewolf", tmp_path / "games")
    said = [str(p) for p in problems]
    expected = [
        (r"werewolf/game\.yaml:12: record 'wolf', field 'roles\.kind': unknown kind 'card'"),
        (r"werewolf/en/steps\.yaml:2: record 'lunch': no sequence uses this step"),
        (r"werewolf/game\.yaml:\d+: record 'first_night', field 'steps': 'seer' cannot act before night 2"),
        (r"werewolf/ko/game\.yaml:\d+: field 'teams': 'ghosts' is not in game\.yaml"),
    ]
    for pattern in expected:
        assert any(re.search(pattern, line) for line in said), (pattern, said)
    assert len(said) == len(expected), said


# -- CLI ---------------------------------------------------------------------------------------


def test_cli_list_salem_lists_every_character_and_card():
    result = _invoke("list", "--game", "salem", "--lang", "ko")
    assert result.exit_code == 0, result.output
    for role_id, name in SALEM_NAMED.items():
        assert role_id in result.output and name in result.output
    rows = json.loads(_invoke("list", "--game", "salem", "--format", "json").output)
    assert {r["id"] for r in rows} == set(SALEM_NAMED)


def test_cli_list_werewolf_shows_conditions():
    result = _invoke("list", "--game", "werewolf", "--lang", "ko")
    assert result.exit_code == 0
    assert "2번째 밤부터" in result.output and "쥐인간 팀(제3세력)" in result.output


def test_cli_show():
    result = _invoke("show", "배신자", "--game", "werewolf", "--format", "json")
    assert result.exit_code == 0, result.output
    record = json.loads(result.output)
    assert record["team"] == "wolf" and {"id": "investigate", "from_night": 2} in record["abilities"]
    text = _invoke("show", "자백", "--game", "salem", "--lang", "ko").output
    assert "모래시계를 뒤집습니다" in text


def test_cli_user_mistakes_are_one_line():
    result = _invoke("show", "nobody", "--game", "mafia")
    assert result.exit_code == 1 and result.output.count("\n") == 1 and "Error:" in result.output
    result = _invoke("list", "--game", "mafia", "--team", "demon")
    assert result.exit_code == 2 and "Blood on the Clocktower" in result.output
    result = _invoke("build", "--game", "salem", "x.json")
    assert result.exit_code == 2 and "takes no script files" in result.output
    result = _invoke("build")
    assert result.exit_code == 2 and "Missing argument" in result.output
    assert _invoke("list", "--game", "chess").exit_code == 2


def test_db_check_of_a_game_lists_every_problem_and_list_points_to_it(tmp_path):
    import shutil

    assert _invoke("db", "check", "--game", "salem").output == "salem: 29 roles and cards, 28 steps; texts: en 57, ko 57\nok\n"
    shutil.copytree(GAMES_DIR, tmp_path / "games")
    path = tmp_path / "games" / "mafia" / "game.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("kind: job, team: citizens}", "kind: job, team: crowd}").replace("kind: job", "kind: card", 1),
                    encoding="utf-8")
    runner, env = CliRunner(), {"SCRIPTFORGE_DATA": str(tmp_path)}
    result = runner.invoke(main, ["db", "check", "--game", "mafia"], env=env)
    assert result.exit_code == 1
    assert re.search(r"^Error: .*mafia/game\.yaml:\d+: record 'mafia', field 'roles\.kind': unknown kind 'card'$",
                     result.stderr, re.M)
    assert result.stderr.count("unknown team 'crowd'") == 3 and result.stdout.endswith("4 problem(s)\n")
    record = json.loads(runner.invoke(main, ["db", "check", "--game", "mafia", "--format", "json"], env=env).stdout)
    assert not record["ok"] and [f["code"] for f in record["findings"]] == ["data-reference"] * 4
    result = runner.invoke(main, ["list", "--game", "mafia"], env=env)
    assert result.exit_code == 1 and "(and 3 more problems; run 'scriptforge db check --game mafia')" in result.output


def _pdf_text(path: Path) -> str:
    return re.sub(r"\s+", "", "".join(page.extract_text() for page in PdfReader(io.BytesIO(path.read_bytes())).pages))


@pytest.fixture(scope="module")
def printed(tmp_path_factory):
    """`print_pdf(command, game, lang)`: (the CliRunner result, the PDF's text without whitespace) of
    `scriptforge COMMAND --game GAME --lang LANG -o X.pdf`, run once per module: the sheets and
    night scripts several tests read are printed once."""
    folder, made = tmp_path_factory.mktemp("games"), {}

    def print_pdf(command: str, game: str, lang: str):
        if (command, game, lang) not in made:
            out = folder / f"{command}-{game}-{lang}.pdf"
            result = _invoke(command, "--game", game, "--lang", lang, "-o", str(out))
            made[command, game, lang] = result, _pdf_text(out) if result.exit_code == 0 else ""
        return made[command, game, lang]

    return print_pdf


@pytest.mark.parametrize("game", OTHER_GAMES)
@pytest.mark.parametrize("lang", ["ko", "en", "ko+en"])
def test_build_and_nightsheet_render_in_every_language(printed, game, lang):
    gdb = load_game(game)
    result, sheet_text = printed("build", game, lang)
    assert result.exit_code == 0, result.output
    assert "Warning" not in result.output
    result, night_text = printed("nightsheet", game, lang)
    assert result.exit_code == 0, result.output
    text_lang = "en" if lang == "en" else "ko"
    for role in gdb.roles.values():
        assert role.texts[text_lang].name.replace(" ", "") in sheet_text, role.id
        if lang == "ko+en":
            assert role.texts["en"].name.replace(" ", "") in sheet_text, role.id
    for seq in gdb.sequences:
        if seq.kind == "night":
            for sid in seq.steps:
                assert gdb.item(sid).name(text_lang).replace(" ", "") in night_text, sid


def test_game_sheets_print_game_text_never_data_notes(printed):
    for lang in ("ko", "en"):
        result, text = printed("build", "salem", lang)
        assert result.exit_code == 0
        for note in ("원문", "시드", "source", "Source", "notgiven"):
            assert note not in text, (lang, note)
        assert ("마녀수" if lang == "ko" else "Witches(upgraderule)") in text
        assert ("마사코레이" if lang == "ko" else "MarthaCorey") in text  # its clarifications, no "no text" line
    result, text = printed("nightsheet", "salem", "ko")
    assert result.exit_code == 0
    assert "자백" in text and "토큰공개" in text and "검은고양이" in text


def test_mafia_nights_alike_are_one_list_every_night(printed):
    result, text = printed("nightsheet", "mafia", "ko")
    assert result.exit_code == 0
    assert text.startswith("매일밤") and "인원" not in text and "원문" not in text
    assert text.count("밤에는마피아,의사,경찰이행동할수있다") == 1  # the list's note: the two nights' lists are one
    assert "1번째밤" not in text and "2번째밤부터" not in text  # the two identical lists' own titles


def test_werewolf_moderator_sheet_has_vote_and_defence(printed):
    result, text = printed("nightsheet", "werewolf", "ko")
    assert result.exit_code == 0
    for word in ("1차투표", "변론", "2차투표", "2번째밤부터"):
        assert word in text


def test_html_and_png_outputs(tmp_path):
    result = _invoke("build", "--game", "mafia", "--format", "html", "-o", str(tmp_path) + "/")
    assert result.exit_code == 0, result.output
    html = (tmp_path / "mafia-sheet.html").read_text(encoding="utf-8")
    assert "마피아" in html and 'data-id="doctor"' in html
    result = _invoke("nightsheet", "--game", "mafia", "--format", "png", "-o", str(tmp_path / "m.png"))
    assert result.exit_code == 0, result.output
    assert (tmp_path / "m.png").read_bytes()[:4] == b"\x89PNG"  # one page: the nights and the day


def test_same_bytes_twice(tmp_path):
    a, b = tmp_path / "a.pdf", tmp_path / "b.pdf"
    for out in (a, b):
        assert _invoke("nightsheet", "--game", "mafia", "-o", str(out)).exit_code == 0
    assert a.read_bytes() == b.read_bytes()


def test_salem_cards_for_a_player_count_follow_the_tryal_table(games):
    from scriptforge.render.game_cards import card_counts, cards_view

    counts = {role.id: n for role, n in card_counts(games["salem"], 7)}
    assert (counts["witch"], counts["constable"], counts["not_a_witch"]) == (2, 1, 32)
    assert all(counts[r] == 1 for r, role in games["salem"].roles.items() if role.kind == "town_hall")
    assert not {"conspiracy", "kill_token", "moderator"} & set(counts)  # components, not cards a player holds
    view = cards_view(games["salem"], "ko+en", "a4", 7)
    cards = view.tokens()
    assert len(cards) == sum(counts.values()) == 42
    assert sum(card.id == "not_a_witch" for card in cards) == 32
    assert [run.text for run in cards[-1].texts] == ["마녀 아님 카드", "Not a Witch card"]
    assert len(card_counts(games["salem"], None)) == len(counts)  # without a count: one of each


@pytest.mark.parametrize("game", ["salem", "werewolf", "mafia"])
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_cards_print_every_role_in_both_languages(tmp_path, games, game, lang):
    out = tmp_path / f"{game}.pdf"
    result = CliRunner().invoke(main, ["cards", game, "--lang", lang, "-o", str(out)])
    assert result.exit_code == 0, result.output
    reader = PdfReader(out)
    cover = reader.pages[0].extract_text()
    cards = "".join(page.extract_text() for page in reader.pages[1:])
    gdb = games[game]
    for role in gdb.roles.values():
        if role.kind in gdb.role_cards:
            name = role.name(lang)
            assert name in cover, name
            assert name.replace(" ", "") in cards.replace(" ", "").replace("\n", ""), name
    if game == "werewolf":  # two Secret Society cards: the seed's count
        from scriptforge.render.game_cards import cards_view

        assert sum(card.id == "secret_society" for card in cards_view(gdb, lang, "a4").tokens()) == 2


def test_cards_for_a_player_count_the_data_does_not_give_are_refused(games):
    for args, message in ((["werewolf", "--players", "8"], "werewolf is for no player count in its source"),
                          (["salem", "--players", "13"], "salem is for 5-12 players")):
        result = CliRunner().invoke(main, ["cards", *args])
        assert result.exit_code != 0 and message in result.output and "Traceback" not in result.output
