"""The storyteller's kit and what it builds on: the printing commands' one set of options, the
selection of characters (--only, --new-only, --known), `kit`, and overviews that quote the ability
their page prints."""

import json

import pypdfium2
import pytest
from click.testing import CliRunner

from scriptforge.cli import main
from scriptforge.cli.printing import print_settings_options
from scriptforge.db.loading import load_database
from scriptforge.model.describe import quote_ability
from scriptforge.model.languages import codes

from .conftest import EXAMPLES

FTPD = EXAMPLES / "faith-trust-and-pixie-dust.json"
PRINTING = ("build", "nightsheet", "tokens", "almanac", "watch", "kit")
#: A 7-player bag of FTPD: 5 Townsfolk, no Outsider, 1 Minion, 1 Demon (the base counts for 7).
BAG = "clockmaker,pixie,sailor,philosopher,monk,poisoner,imp"


def pages(pdf: bytes) -> list[str]:
    document = pypdfium2.PdfDocument(pdf)
    try:
        return [document[i].get_textpage().get_text_range() for i in range(len(document))]
    finally:
        document.close()


def run(*args):
    return CliRunner().invoke(main, ["--no-packs", *map(str, args)])


# -- options as visible parameters --------------------------------------------------------------


def test_every_printing_command_has_the_whole_shared_set_of_options():
    shared = {p.name for p in print_settings_options(lambda **_: None).__click_params__}
    assert {"lang", "paper", "fmt", "dpi", "icons_dir", "allow_network", "fetch_timeout", "system_fonts",
            "columns", "compact", "font_size", "player_table", "players", "teensy", "packs", "no_packs",
            "homebrew", "skip_unknown", "out"} <= shared
    for name in PRINTING:
        params = {p.name for p in main.commands[name].params}
        assert shared <= params, (name, shared - params)


def test_watch_takes_the_print_options(tmp_path):
    out = tmp_path / "w.pdf"
    result = run("watch", FTPD, "--columns", "2", "--compact", "--players", "6", "--renders", "1", "-o", out,
                 "--lang", "en")
    assert result.exit_code == 0, result.output
    text = pages(out.read_bytes())[0]
    assert "Clockmaker" in text and "6 players" not in text  # no night pages asked for: the sheet alone


def test_tokens_take_the_fetch_timeout_and_refuse_the_sheet_layout(tmp_path):
    assert run("tokens", FTPD, "--fetch-timeout", "2", "--only", "imp", "-o", tmp_path / "t.pdf").exit_code == 0
    result = run("tokens", FTPD, "--columns", "2", "-o", tmp_path / "u.pdf")
    assert result.exit_code == 2 and result.output.strip().endswith("--columns: for sheets, night sheets and almanacs, not tokens")
    assert not (tmp_path / "u.pdf").exists()


# -- --only, --new-only, --known ---------------------------------------------------------------


def test_almanac_new_only_prints_the_pages_the_table_has_not_met(tmp_path):
    whole, new = tmp_path / "whole.pdf", tmp_path / "new.pdf"
    assert run("almanac", FTPD, "--lang", "en", "--only", "clockmaker,imp", "-o", whole).exit_code == 0
    assert run("almanac", FTPD, "--lang", "en", "--new-only", "-o", new).exit_code == 0
    # the character pages: after the cover and its sheet, before the closing night order
    whole_text, new_text = ("\n".join(pages(pdf.read_bytes())[2:-1]) for pdf in (whole, new))
    # Imp (Trouble Brewing) and Clockmaker (Sects & Violets) are in the box; the Pixie is not
    assert "Each night*, choose a player: they die" in whole_text
    assert "Each night*, choose a player: they die" not in new_text
    assert "You start knowing how many steps from the Demon" not in new_text
    assert "You start knowing 1 in-play Townsfolk" in new_text


def test_known_list_replaces_the_box(tmp_path):
    known = tmp_path / "played.txt"
    known.write_text("# our table\nclockmaker\n픽시\n", encoding="utf-8")
    out = tmp_path / "a.pdf"
    assert run("almanac", FTPD, "--lang", "en", "--new-only", "--known", known, "-o", out).exit_code == 0
    text = "\n".join(pages(out.read_bytes())[2:-1])
    assert "You start knowing 1 in-play Townsfolk" not in text  # the Pixie is known (by its Korean name)
    assert "Each night*, choose a player: they die" in text  # the Imp is not on the list


def test_a_known_list_naming_no_character_is_one_line_with_its_place(tmp_path):
    known = tmp_path / "played.txt"
    known.write_text("imp\nnobody at all\n", encoding="utf-8")
    result = run("tokens", FTPD, "--new-only", "--known", known, "-o", tmp_path / "t.pdf")
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1
    assert result.output.strip().endswith(f"{known}:2: 'nobody at all' is no character (an id, name or alias, one a line)")


def test_build_night_pages_keep_the_chosen_characters_steps(tmp_path):
    out = tmp_path / "n.pdf"
    assert run("build", FTPD, "--lang", "en", "--night", "--only", "pixie,imp", "-o", out).exit_code == 0
    first, other = pages(out.read_bytes())[1:3]
    assert "Pixie" in first and "Dusk" in first and "Dawn" in first and "Poisoner" not in first
    assert "Imp" in other and "Monk" not in other


# -- kit ------------------------------------------------------------------------------------------


def test_kit_prints_one_game_in_one_pdf(tmp_path):
    out = tmp_path / "kit.pdf"
    result = run("kit", FTPD, "--players", "7", "--bag", BAG, "--new-only", "--lang", "en", "--split", "-o", out)
    assert result.exit_code == 0, result.output
    text = pages(out.read_bytes())
    assert "Town Crier" in text[0]  # the players' sheet: the whole script
    night = "\n".join(p for p in text if p.startswith("Dusk") or "Dusk" in p.split("\n")[0])
    assert "7 players" in night and "Minion Info" in night
    assert "Pixie" in night and "Dreamer" not in night and "Vigormortis" not in night  # only the bag's steps
    tokens = next(p for p in text if "Character tokens" in p)
    assert "Tokens in all" in tokens
    almanac = [p for p in text if "Overview" in p or "How to Run" in p]
    assert almanac and not any("Poisoner" in p.split("\n")[0] for p in almanac)  # the box's characters: no page
    parts = sorted(p.name for p in tmp_path.iterdir())
    assert parts == ["kit-almanac.pdf", "kit-night.pdf", "kit-sheet.pdf", "kit-tokens.pdf", "kit.pdf"]
    assert sum(len(pages((tmp_path / name).read_bytes())) for name in parts if name != "kit.pdf") == len(text)


@pytest.mark.parametrize(("args", "message"), [
    (["--bag", BAG], "a kit is for one game: give --players N"),
    (["--players", "9", "--bag", BAG], "--bag names 7 player character(s) for --players 9"),
    (["--players", "7", "--bag", "clockmaker,zombuul"], "--bag zombuul: not a character of this script"),
    (["--players", "7"], "a kit is printed as PDF or PNG pages"),
])
def test_kit_refuses_a_game_it_cannot_print_in_one_line(tmp_path, args, message):
    result = run("kit", FTPD, *args, "-o", tmp_path / ("kit.html" if "PDF or PNG" in message else "kit.pdf"))
    assert result.exit_code != 0 and message in result.output and len(result.output.strip().splitlines()) == 1
    assert not list(tmp_path.iterdir())


# -- overviews that agree with the ability -------------------------------------------------------


def quotes_another_ability(overview: str, ability: str) -> bool:
    text = overview.lstrip()
    return text[:1] in ('"', "“") and bool(ability) and not text[1:].startswith(ability)


def disagreeing_overviews(db) -> dict[str, list[str]]:
    """Per language, the characters whose printed overview opens by quoting another ability."""
    out: dict[str, list[str]] = {}
    for lang in codes():
        for ch in db.characters.values():
            texts = ch.text(lang)
            if texts and texts.overview and quotes_another_ability(quote_ability(texts.overview, texts.ability),
                                                                   texts.ability):
                out.setdefault(lang, []).append(ch.id)
    return out


def test_no_overview_quotes_another_ability_than_its_page_prints():
    db = load_database()
    quoting = sum(1 for ch in db.characters.values() for lang in ("ko", "en")
                  if (t := ch.text(lang)) and t.overview and t.overview.lstrip()[:1] in '"“')
    assert quoting >= 100  # the seeds' 55 overviews in each language open with a quotation
    assert disagreeing_overviews(db) == {}


def test_with_the_official_pack_overviews_quote_the_official_ability(official_ko):
    _, pack, _ = official_ko
    db = load_database(None, [pack])
    assert disagreeing_overviews(db) == {}
    vigormortis = db.characters["vigormortis"]
    for lang in ("ko", "en"):
        texts = vigormortis.text(lang)
        assert quote_ability(texts.overview, texts.ability).lstrip()[1:].startswith(texts.ability)


def test_show_quotes_the_ability_it_prints(runner):
    result = runner.invoke(main, ["--no-packs", "show", "vigormortis", "--lang", "ko"])
    lines = result.output.splitlines()
    ability = lines[lines.index("[ko] 비고르모르티스") + 1]
    assert lines[lines.index("개요:") + 1].startswith(f'"{ability}"')


# -- setup --draw and --bag ----------------------------------------------------------------------


@pytest.mark.parametrize("players", [5, 7, 11, 15])
def test_setup_draws_legal_bags_the_kit_takes(players):
    bags = set()
    for seed in range(6):
        result = run("setup", FTPD, "--players", players, "--draw", "--seed", seed, "--format", "json")
        assert result.exit_code == 0, result.output
        drawn = json.loads(result.output)
        assert drawn["legal"] and drawn["seed"] == seed
        check = run("setup", FTPD, "--players", players, "--bag", ",".join(drawn["bag"]), "--format", "json")
        assert check.exit_code == 0 and json.loads(check.output)["legal"], (drawn, check.output)
        bags.add(tuple(drawn["bag"]))
    assert len(bags) > 1  # the seed decides
    again = run("setup", FTPD, "--players", players, "--draw", "--seed", 0, "--format", "json")
    assert json.loads(again.output)["bag"] == json.loads(run("setup", FTPD, "--players", players, "--draw",
                                                              "--seed", 0, "--format", "json").output)["bag"]


def test_a_bag_by_hand_that_breaks_the_setup_is_said(tmp_path):
    # the Baron adds 2 Outsiders: 5 Townsfolk and no Outsider is not a bag with the Baron for 7
    bag = "clockmaker,pixie,sailor,philosopher,monk,baron,imp"
    result = run("setup", FTPD, "--players", "7", "--bag", bag)
    assert result.exit_code == 1 and "Not legal: 5 townsfolk, 0 outsiders, 1 minions, 1 demons with baron" in result.output
    kit = run("kit", FTPD, "--players", "7", "--bag", bag, "-o", tmp_path / "k.pdf")
    assert kit.exit_code == 0 and "Warning:" in kit.output and "is not a legal bag for 7 players" in kit.output
