"""A sheet that runs over pages: a page that goes on with a team, or with the jinx list, starts
with its heading, marked as continued in the page's language (the storyteller's issue: "a team's
heading repeated where a page continues it")."""

import json
from pathlib import Path

from click.testing import CliRunner
import pypdfium2 as pdfium
import pytest

from scriptforge.cli import main

# the tests share the sheets they print (the `built` fixture): one worker runs them all
pytestmark = pytest.mark.xdist_group("continued_headings")

# the team headings of the sheet (upper case in Latin letters: sheet.css) and the word after the
# heading of a continued team; German has no word of its own and falls back to English
TOWNSFOLK = {"en": "TOWNSFOLK", "ko": "주민", "de": "BÜRGER"}
CONTINUED = {"en": "(continued)", "ko": "(계속)", "de": "(continued)"}
TEAMS = {"en": ("TOWNSFOLK", "OUTSIDERS", "MINIONS", "DEMONS", "FABLED", "JINXES"),
         "ko": ("주민", "외지인", "하수인", "악마", "전설", "징크스"),
         "de": ("BÜRGER", "AUSSENSEITER", "SCHERGEN", "DÄMONEN", "LEGENDEN", "JINXES")}


@pytest.fixture(scope="module")
def big_script(tmp_path_factory, db):
    """Every built-in character and 60 homebrew Townsfolk: more Townsfolk than a page holds even
    at the smallest text size, so the sheet runs over pages inside the Townsfolk."""
    homebrew = [{"id": f"villager{n}", "name": f"Villager {n}", "team": "townsfolk",
                 "ability": f"Each night, you learn something about player {n}."} for n in range(1, 61)]
    path = tmp_path_factory.mktemp("big") / "big-village.json"
    path.write_text(json.dumps([{"id": "_meta", "name": "Big Village", "author": "tests"}, *db.characters,
                                *homebrew], ensure_ascii=False), encoding="utf-8")
    return path


def _page_lines(pdf_path) -> list[list[str]]:
    """The lines of text of each page of the PDF."""
    pdf = pdfium.PdfDocument(str(pdf_path))
    try:
        return [page.get_textpage().get_text_range().replace("\r\n", "\n").split("\n") for page in pdf]
    finally:
        pdf.close()


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """`build(script, *options)`: the PDF `scriptforge build` makes of `script` with `options` and
    the lines of text of each of its pages (tuples: read only), made once per module, so that a
    sheet two tests read (its pages and its outline) is printed once."""
    folder, made = tmp_path_factory.mktemp("sheets"), {}

    def build(script, *options) -> tuple[Path, tuple[tuple[str, ...], ...]]:
        key = (str(script), *options)
        if key not in made:
            out = folder / f"sheet-{len(made)}.pdf"
            result = CliRunner().invoke(main, ["build", str(script), "-o", str(out), *options])
            assert result.exit_code == 0, result.output
            made[key] = out, tuple(tuple(lines) for lines in _page_lines(out))
        return made[key]

    return build


@pytest.mark.parametrize("lang, paper, layout", [("en", "a4", ()), ("ko", "letter", ()), ("ko", "a4", ("--columns", "2")),
                                                 ("en", "letter", ("--compact",)), ("de", "a4", ())])
def test_a_page_that_goes_on_with_a_team_starts_with_its_heading_marked_continued(big_script, built, lang,
                                                                                   paper, layout):
    _, pages = built(big_script, "--lang", lang, "--paper", paper, *layout)
    assert len(pages) >= 2
    continued = f"{TOWNSFOLK[lang]} {CONTINUED[lang]}"
    assert pages[0][0] == "Big Village" and continued not in pages[0]
    assert pages[1][0] == continued  # the Townsfolk go on over page 2: their heading comes first
    for lines in pages[1:]:  # every later page starts with a heading: the team it goes on with, or the next
        first = lines[0].removesuffix(f" {CONTINUED[lang]}")
        assert first in TEAMS[lang], lines[:2]


def test_the_outline_names_each_team_once(big_script, built):
    """The continued headings are not bookmarks of their own: the PDF's outline lists each team once."""
    from pypdf import PdfReader

    sheet, pages = built(big_script, "--lang", "en", "--paper", "a4")  # the English A4 sheet tested above
    assert pages[1][0] == f"{TOWNSFOLK['en']} {CONTINUED['en']}"  # it has a continued heading
    outline = PdfReader(sheet).outline
    titles = [item.title for item in outline[1]]
    assert titles == ["Townsfolk", "Outsiders", "Minions", "Demons", "Fabled", "Jinxes"]


# -- the jinx list ---------------------------------------------------------------------------

JINXES = {"en": "JINXES", "ko": "징크스"}


@pytest.fixture(scope="module")
def jinxed_script(tmp_path_factory):
    """14 homebrew characters, each jinxed with every other (91 jinxes): the characters fit on the
    first page and the jinx list starts there and goes on over the next."""
    ids = [f"hero{n}" for n in range(1, 15)]
    characters = [{"id": cid, "name": f"Hero {n}", "team": "demon" if n > 12 else "townsfolk",
                   "ability": f"Each night, you learn something about player {n}.",
                   "jinxes": [{"id": other, "reason": f"If Hero {n} and Hero {m} are in play, the first wakes after "
                                                      f"the second on the first night."}
                              for m, other in enumerate(ids[n:], n + 1)]}
                  for n, cid in enumerate(ids, 1)]
    path = tmp_path_factory.mktemp("jinxed") / "many-jinxes.json"
    path.write_text(json.dumps([{"id": "_meta", "name": "Many Jinxes", "author": "tests"}, *characters]),
                    encoding="utf-8")
    return path


@pytest.mark.parametrize("lang, paper", [("en", "letter"), ("ko", "a4")])
def test_a_page_that_goes_on_with_the_jinxes_starts_with_their_heading_marked_continued(jinxed_script, built,
                                                                                        lang, paper):
    _, pages = built(jinxed_script, "--lang", lang, "--paper", paper)
    assert len(pages) == 2
    assert JINXES[lang] in pages[0] and "Hero 1 · Hero 2" in " ".join(pages[0])  # the list starts on page 1
    assert pages[1][0] == f"{JINXES[lang]} {CONTINUED[lang]}"
    assert not any(CONTINUED[lang] in line for line in pages[0])


def test_the_continued_jinx_list_is_no_second_bookmark(jinxed_script, built):
    from pypdf import PdfReader

    sheet, pages = built(jinxed_script, "--lang", "en", "--paper", "letter")  # the English sheet tested above
    assert pages[1][0] == f"{JINXES['en']} {CONTINUED['en']}"  # its jinx list goes on over page 2
    outline = PdfReader(sheet).outline
    assert [item.title for item in outline[1]] == ["Townsfolk", "Demons", "Jinxes"]


def test_the_almanacs_character_sheet_marks_the_jinxes_continued(jinxed_script, tmp_path):
    result = CliRunner().invoke(main, ["almanac", str(jinxed_script), "--lang", "en", "-o", str(tmp_path / "a.pdf")])
    assert result.exit_code == 0, result.output
    pages = _page_lines(tmp_path / "a.pdf")
    starts = [n for n, lines in enumerate(pages) if lines[0] == f"{JINXES['en']} {CONTINUED['en']}"]
    assert len(starts) == 1 and JINXES["en"] in pages[starts[0] - 1]
