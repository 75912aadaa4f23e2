"""Scriptforge Marks, our font of the punctuation the bundled fonts lack: the danda and double danda
of the Hindu's flavor print as marks, not boxes (the translators' issue), drawn to the text face's
measure, and the glyph check counts them as covered."""

from pathlib import Path
import sys

from click.testing import CliRunner
from fontTools.pens.boundsPen import BoundsPen
from fontTools.ttLib import TTFont
import pypdfium2 as pdfium
from pypdf import PdfReader
import pytest

from scriptforge.cli import main
from scriptforge.io.paths import FONTS_DIR
from scriptforge.model import languages
from scriptforge.render.typefaces import FONT_FILES, MARKS_FAMILY, MARKS_FILES, font_coverage, font_stack, missing_glyphs

ROOT = Path(__file__).resolve().parents[1]
DANDA, DOUBLE_DANDA = "\u0964", "\u0965"
CHANTER = f"""\
id: chanter
team: townsfolk
texts:
  en:
    name: Chanter
    ability: Each night, you learn a number{DANDA} Then you sleep{DOUBLE_DANDA}
    flavor: Four fall, four rise{DANDA} Four stand firm{DOUBLE_DANDA}
"""


@pytest.fixture
def chanter(tmp_path):
    """A script with a homebrew character whose ability and flavor end their halves with dandas."""
    homebrew = tmp_path / "homebrew"
    homebrew.mkdir()
    (homebrew / "chanter.yaml").write_text(CHANTER, encoding="utf-8")
    script = tmp_path / "chant.json"
    script.write_text('[{"id": "_meta", "name": "Chant"}, "imp", "chanter"]', encoding="utf-8")
    return script, homebrew


def _fonts(pdf: Path) -> set[str]:
    return {str(ref.get_object()["/BaseFont"]) for page in PdfReader(pdf).pages
            for ref in page["/Resources"]["/Font"].values()}


def _text(pdf: Path) -> str:
    document = pdfium.PdfDocument(pdf)
    try:
        return "\n".join(document[i].get_textpage().get_text_range() for i in range(len(document)))
    finally:
        document.close()


@pytest.mark.parametrize(("command", "lang"), [("almanac", "en"), ("build", "en"), ("build", "ko+en")])
def test_dandas_print_in_our_marks_font(chanter, tmp_path, command, lang):
    script, homebrew = chanter
    out = tmp_path / f"{command}.pdf"
    result = CliRunner().invoke(main, [command, str(script), "--homebrew", str(homebrew), "--lang", lang,
                                       "-o", str(out)])
    assert result.exit_code == 0, result.output
    # no glyph warning of ours or WeasyPrint's: not for the marks, nor for the space after one that
    # ends a text before the EN tag of a ko+en sheet (Pango sets it in the mark's font)
    assert "no glyph" not in result.output and ".notdef" not in result.output, result.output
    assert any("Scriptforge-Marks" in name for name in _fonts(out)), _fonts(out)
    text = _text(out)
    assert f"number{DANDA} Then you sleep{DOUBLE_DANDA}" in " ".join(text.split())


def test_the_glyph_check_counts_the_marks_as_covered():
    assert {ord(DANDA), ord(DOUBLE_DANDA)} <= font_coverage()
    assert missing_glyphs(f"rise{DANDA} firm{DOUBLE_DANDA}") == []


def test_coverage_lists_every_bundled_font():
    regular = [FONT_FILES[400], "NotoSans-Subset-Regular.ttf", "NotoNaskhArabic-Subset-Regular.ttf", MARKS_FILES[400]]
    cmaps: set[int] = set()
    for name in regular:
        font = TTFont(str(FONTS_DIR / name), lazy=True)
        cmaps.update(font.getBestCmap())
        font.close()
    assert font_coverage() == cmaps  # coverage.txt is current: tools/subset_fonts.py or tools/marks_font.py


@pytest.mark.parametrize("lang", languages.codes())
def test_the_marks_come_last_in_every_font_stack(lang):
    stack = [family.strip().strip('"') for family in font_stack(lang).split(",")]
    assert stack[-2:] == [MARKS_FAMILY, "sans-serif"]


def _bounds(font: TTFont, char: str) -> tuple[float, float, float, float]:
    glyphs = font.getGlyphSet()
    pen = BoundsPen(glyphs)
    glyphs[font.getBestCmap()[ord(char)]].draw(pen)
    return pen.bounds


@pytest.mark.parametrize("weight", [400, 700])
def test_the_marks_have_the_bar_s_stroke_and_the_capital_s_height(weight):
    face = TTFont(str(FONTS_DIR / FONT_FILES[weight]))
    marks = TTFont(str(FONTS_DIR / MARKS_FILES[weight]))
    bar_left, _, bar_right, _ = _bounds(face, "|")
    stem, cap = bar_right - bar_left, _bounds(face, "I")[3]
    assert 50 <= stem <= 110  # a hairline or a heavy bar would not look like the text's punctuation
    left, bottom, right, top = _bounds(marks, DANDA)
    assert (right - left, bottom, top, left) == (stem, 0, cap, bar_left)
    advance = marks["hmtx"][marks.getBestCmap()[ord(DANDA)]][0]
    assert advance == face["hmtx"][face.getBestCmap()[ord("|")]][0]
    double = marks["glyf"][marks.getBestCmap()[ord(DOUBLE_DANDA)]]
    assert double.numberOfContours == 2 and _bounds(marks, DOUBLE_DANDA)[1::2] == (0, cap)
    assert marks["OS/2"].usWeightClass == face["OS/2"].usWeightClass
    assert marks["hhea"].ascent == face["hhea"].ascent and marks["hhea"].descent == face["hhea"].descent
    names = {record.nameID: record.toUnicode() for record in marks["name"].names if record.platformID == 3}
    assert names[1] == MARKS_FAMILY and "MIT License" in names[13]


def test_the_committed_fonts_are_what_the_tool_makes():
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import marks_font
    finally:
        sys.path.remove(str(ROOT / "tools"))
    for weight in marks_font.WEIGHTS:
        made = marks_font.build(marks_font.face_for(FONTS_DIR, weight), weight)
        committed = TTFont(str(FONTS_DIR / marks_font.OUT.format(weight=weight)))
        assert made.getGlyphOrder() == committed.getGlyphOrder()
        assert made.getBestCmap() == committed.getBestCmap()
        assert made["hmtx"].metrics == committed["hmtx"].metrics
        for name in made.getGlyphOrder():
            assert made["glyf"][name].getCoordinates(made["glyf"])[0] == \
                committed["glyf"][name].getCoordinates(committed["glyf"])[0], name
        assert sorted((n.nameID, n.toUnicode()) for n in made["name"].names) == \
            sorted((n.nameID, n.toUnicode()) for n in committed["name"].names)
