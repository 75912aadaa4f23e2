"""No Korean page of the three examples says one glossary term two ways (issue 17).

Each document is rendered once (module fixture, ~25 s of the suite): the character sheet with
its night pages and the almanac, in Korean and Korean with English names. Their PDF text is read
page by page (pypdfium2). Flavor is prose where an ordinary word is fine (the Seamstress's 이방인,
"a stranger"), so the characters' flavor texts are taken out first.
"""

from pathlib import Path
import re

import pypdfium2 as pdfium
import pytest

from scriptforge.cli import main
from scriptforge.db.loading import load_database
from scriptforge.model.glossary import variant_pattern

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ("faith-trust-and-pixie-dust", "fang-gu-zealot", "english-almanac-25")
DOCUMENTS = ((("build", "--night"), "ko"), (("build", "--night"), "ko+en"), (("almanac",), "ko"),
             (("almanac",), "ko+en"))  # (command and options, language)

# the documents are printed once (the `pages` fixture) for both tests: one worker runs them
pytestmark = pytest.mark.xdist_group("terms_on_pages")


def _plain(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\u2060", "")).strip()


def _pages(path: Path) -> list[str]:
    return [_plain(page.get_textpage().get_text_range()) for page in pdfium.PdfDocument(str(path))]


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[tuple[str, str, str], list[str]]:
    from click.testing import CliRunner

    runner, out, found = CliRunner(), tmp_path_factory.mktemp("pages"), {}
    for example in EXAMPLES:
        for command, lang in DOCUMENTS:
            target = out / f"{example}-{command[0]}-{lang}.pdf"
            result = runner.invoke(main, [command[0], str(ROOT / "examples" / f"{example}.json"), "--lang", lang,
                                          "-o", str(target), *command[1:]])
            assert result.exit_code == 0, result.output
            found[(example, command[0], lang)] = _pages(target)
    return found


def test_no_korean_page_has_a_variant_of_a_glossary_term(pages):
    db = load_database()
    pattern, table = variant_pattern(db.glossary["ko"])
    flavors = [_plain(ch.texts["ko"].flavor) for ch in db.characters.values() if "ko" in ch.texts]
    mixed = []
    for (example, command, lang), texts in pages.items():
        for number, text in enumerate(texts, 1):
            for flavor in flavors:
                text = text.replace(flavor, " ")
            mixed += [f"{example} {command} --lang {lang}, page {number}: '{m.group(0)}' beside "
                      f"'{table[m.group(0)]}'" for m in pattern.finditer(text)]
    assert not mixed, "\n".join(mixed)
    # the pages were read: the team header and the canonical terms are there
    sheet = " ".join(pages[("faith-trust-and-pixie-dust", "build", "ko")])
    assert "주민" in sheet and "생존한" in sheet and "첫날 밤" in sheet
    assert "외지인" in pages[("fang-gu-zealot", "almanac", "ko")][0]  # the cover (the author's note)


def test_the_seamstress_flavor_says_stranger_on_her_page(pages):
    """이방인 is printed where the seed has it, beside the team name 외지인 elsewhere."""
    assert any("캐시미어 코트를 입은 이방인이" in page for page in pages[("fang-gu-zealot", "almanac", "ko")])
