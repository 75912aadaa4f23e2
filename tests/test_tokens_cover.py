"""The token sheets' cover of a big script stays on its page (the storyteller's issue: "no spill
onto an empty page"): a script of 142 characters listed the boxed and the new characters so long
that the cover's last lines went onto a page of their own."""

import json
import re

from click.testing import CliRunner
import pypdfium2
import pytest

from scriptforge.cli import main

from .conftest import official_json
from .test_tokens import cut_circles

TEAMS = ("townsfolk", "outsider", "minion", "demon", "traveller", "fabled")
PAGES_OF_TOKENS = {"en": "Pages of tokens", "ko": "토큰 페이지"}
LEGEND = {"en": ("Marks on the character tokens", "First Night", "Other Nights", "Reminders", "Setup"),
          "ko": ("캐릭터 토큰의 표시", "첫날 밤", "다른 밤", "기록 토큰", "세팅")}


@pytest.fixture(scope="module")
def big_script(tmp_path_factory):
    """142 official characters (every Townsfolk, Outsider, Minion and Demon, and 4 Travellers) in
    the official script layout: _meta first, then plain character ids."""
    ids = [role["id"] for role in official_json("roles.json") if role["team"] in TEAMS][:142]
    path = tmp_path_factory.mktemp("bucket") / "bucket.json"
    path.write_text(json.dumps([{"id": "_meta", "name": "Every Bucket", "author": "tests"}, *ids]), encoding="utf-8")
    return path


def _pages(pdf: bytes) -> list[str]:
    document = pypdfium2.PdfDocument(pdf)
    try:
        return [document[i].get_textpage().get_text_range().replace("\r\n", "\n") for i in range(len(document))]
    finally:
        document.close()


@pytest.mark.parametrize("lang, paper", [("en", "a4"), ("en", "letter"), ("ko", "a4"), ("ko", "letter")])
def test_the_cover_of_a_142_character_script_is_one_page(big_script, official_ko, tmp_path, lang, paper):
    _, pack, _ = official_ko
    out = tmp_path / "tokens.pdf"
    result = CliRunner().invoke(main, ["tokens", str(big_script), "--pack", str(pack), "--lang", lang,
                                       "--paper", paper, "-o", str(out)])
    assert result.exit_code == 0, result.output
    pdf = out.read_bytes()
    pages = _pages(pdf)
    # the cover states how many pages of tokens follow it, and exactly those follow
    stated = re.search(rf"{PAGES_OF_TOKENS[lang]}\s+(\d+)", pages[0])
    assert stated and len(pages) == 1 + int(stated.group(1)), (len(pages), stated)
    # the cover ends on its own page, with its legend: no later page holds a line of it
    assert pages[0].rstrip().endswith(LEGEND[lang][-1])
    for text in pages[1:]:
        assert LEGEND[lang][0] not in text and not text.startswith(LEGEND[lang][1:]), text[:80]
    # and no page after it is nearly empty: each holds tokens (their cut circles)
    assert all(len(circles) > 0 for circles in cut_circles(pdf))


PAGES_OF_CARDS = {"en": "Pages of cards", "ko": "카드 페이지"}


@pytest.mark.parametrize("lang, paper", [("en", "a4"), ("en", "letter"), ("ko", "a4"), ("ko", "letter")])
def test_the_cover_of_the_werewolf_cards_is_one_page(tmp_path, lang, paper):
    """`cards` fits its cover as `tokens` does: Werewolf's 16 role texts ran onto a page of their own."""
    from scriptforge.db.games import load_game
    from scriptforge.render.game_cards import cards_view

    out = tmp_path / "cards.pdf"
    result = CliRunner().invoke(main, ["cards", "werewolf", "--lang", lang, "--paper", paper, "-o", str(out)])
    assert result.exit_code == 0, result.output
    pdf = out.read_bytes()
    pages = _pages(pdf)
    stated = re.search(rf"{PAGES_OF_CARDS[lang]}\s+(\d+)", pages[0])
    assert stated and len(pages) == 1 + int(stated.group(1)), (len(pages), stated)
    # the cover ends on its own page with the last role's text; every later page holds cards
    last = cards_view(load_game("werewolf"), lang, paper).reference[-1].text.split()[-1]
    assert pages[0].replace("\u2060", "").rstrip().endswith(last)
    assert all(len(circles) > 0 for circles in cut_circles(pdf))
