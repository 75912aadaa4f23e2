"""What a storyteller notices on paper (issue 18): names whole, Korean headings as words, pictures
in proportion, PNG resolution, output paths, the Arabic glyphs and the Pango message."""

import io
import json
from pathlib import Path
import re
import subprocess
import sys

from click.testing import CliRunner
from PIL import Image
from pypdf import PdfReader
import pytest

from scriptforge.cli import main
from scriptforge.render.measure import NAME_FONT_REM, name_column

ROOT = Path(__file__).resolve().parents[1]
FTPD = ROOT / "examples" / "faith-trust-and-pixie-dust.json"
LONG_NAMES = ("Washerwoman", "Nightwatchman", "Mathematician")


def _homebrew(name: str, night: int) -> dict:
    return {"id": name.lower(), "name": name, "team": "townsfolk", "ability": f"Each night, the {name} wakes.",
            "firstNight": night, "firstNightReminder": f"Wake the {name}.", "otherNight": night,
            "otherNightReminder": f"Wake the {name} again."}


def _text(pdf: Path | bytes) -> str:
    reader = PdfReader(io.BytesIO(pdf) if isinstance(pdf, bytes) else pdf)
    return "\n".join(page.extract_text() for page in reader.pages)


def test_long_names_never_break_inside_a_word(tmp_path):
    script = tmp_path / "long.json"
    script.write_text(json.dumps([{"id": "_meta", "name": "Long names"}, "imp", "poisoner",
                                  *(_homebrew(n, 30 + i) for i, n in enumerate(LONG_NAMES))]))
    out = tmp_path / "long.pdf"
    result = CliRunner().invoke(main, ["build", str(script), "-o", str(out), "--lang", "en", "--night"])
    assert result.exit_code == 0, result.output
    lines = _text(out).splitlines()
    for name in LONG_NAMES:
        # the name cell (sheet and both nights) holds the whole word: no "Washerwoma" / "n" lines
        assert sum(line.strip() == name or line.startswith(f"{name} ") for line in lines) >= 3, name
        assert not any(line.strip() == name[:-1] for line in lines)


def test_names_of_two_words_stay_on_one_line_beside_room(tmp_path):
    names = ("Devil's Advocate", "Snake Charmer", "Scarlet Woman")
    script = tmp_path / "two.json"
    script.write_text(json.dumps([{"id": "_meta", "name": "Two words"}, "imp",
                                  *(_homebrew(n, 30 + i) for i, n in enumerate(names))]))
    for columns in ("1", "2"):
        out = tmp_path / f"two-{columns}.pdf"
        result = CliRunner().invoke(main, ["build", str(script), "-o", str(out), "--lang", "en", "--night",
                                           "--columns", columns])
        assert result.exit_code == 0, result.output
        lines = [line.strip() for line in _text(out).splitlines()]
        for name in names:
            assert not any(line == name.split()[0] for line in lines), (columns, name)  # "Devil's" / "Advocate"
            assert sum(name in line for line in lines) >= 3, (columns, name)  # the sheet and both nights


def test_the_name_column_grows_then_the_names_shrink():
    assert name_column(["Imp", "Chef"], narrowest=8.2).width == 8.2
    grown = name_column(["Nightwatchman"], narrowest=8.2)
    assert 8.2 < grown.width <= 12 and grown.font == NAME_FONT_REM
    whole = name_column(["Devil's Advocate"], narrowest=8.2)  # the whole name, not its longest word
    assert whole.width > name_column(["Advocate"], narrowest=8.2).width and whole.font == NAME_FONT_REM
    long = name_column(["The Very Long Name Of Someone Important"], narrowest=8.2)  # wraps at its spaces
    assert long.width == 12 and long.font == NAME_FONT_REM
    shrunk = name_column(["Supercalifragilisticexpialidocious"], narrowest=8.2)
    assert shrunk.width == 12 and shrunk.font < NAME_FONT_REM


def test_korean_headings_are_whole_words_in_the_text_layer(tmp_path):
    out = tmp_path / "ko.pdf"
    result = CliRunner().invoke(main, ["build", str(FTPD), "-o", str(out), "--lang", "ko", "--night"])
    assert result.exit_code == 0, result.output
    text = _text(out)
    assert "주민" in text and "첫날 밤" in text and "징크스" in text
    assert "주 민" not in text and "첫 날" not in text


def test_pictures_keep_their_aspect_ratio(tmp_path):
    import pypdfium2
    import pypdfium2.raw as raw

    icons = tmp_path / "icons"
    icons.mkdir()
    Image.new("RGB", (200, 100), "red").save(icons / "clockmaker.png")
    out = tmp_path / "icons.pdf"
    result = CliRunner().invoke(main, ["build", str(FTPD), "-o", str(out), "--icons", str(icons)])
    assert result.exit_code == 0, result.output
    page = pypdfium2.PdfDocument(str(out))[0]
    images = [o for o in page.get_objects() if o.type == raw.FPDF_PAGEOBJ_IMAGE]
    assert images
    left, bottom, right, top = images[0].get_bounds()
    assert (right - left) / (top - bottom) == pytest.approx(2.0, rel=0.03)


def test_png_output_carries_its_dpi_and_one_page_per_file(tmp_path):
    result = CliRunner().invoke(main, ["nightsheet", str(FTPD), "-o", str(tmp_path / "n.png"), "--dpi", "72"])
    assert result.exit_code == 0, result.output
    assert "n-1.png (page 1 of 2)" in result.output and "n-2.png (page 2 of 2)" in result.output
    image = Image.open(tmp_path / "n-1.png")
    assert round(image.info["dpi"][0]) == 72 and abs(image.width - 210 / 25.4 * 72) <= 1


def test_output_paths(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    to_stdout = runner.invoke(main, ["build", str(FTPD), "-o", "-"])
    assert to_stdout.exit_code == 0 and to_stdout.stdout_bytes.startswith(b"%PDF-")
    assert PdfReader(io.BytesIO(to_stdout.stdout_bytes)).pages
    assert not (tmp_path / "-").exists()
    folder = runner.invoke(main, ["build", str(FTPD), "-o", "new-folder/"])
    assert folder.exit_code == 0 and (tmp_path / "new-folder" / "faith-trust-and-pixie-dust.pdf").is_file()
    png = runner.invoke(main, ["build", str(FTPD), "-o", "sheet.png"])
    assert png.exit_code == 0 and (tmp_path / "sheet.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    conflict = runner.invoke(main, ["build", str(FTPD), "-o", "sheet.png", "--format", "pdf"])
    assert conflict.exit_code == 2 and "--format pdf" in conflict.output
    stdin = runner.invoke(main, ["build", "-"], input=FTPD.read_text(encoding="utf-8"))
    assert stdin.exit_code == 0 and "-" not in [p.name for p in tmp_path.iterdir()], stdin.output
    assert (tmp_path / "믿음-신뢰-그리고-픽시-더스트.pdf").is_file()  # _meta.name "믿음, 신뢰, 그리고 픽시 더스트"


def test_unwritable_output_is_one_line(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = CliRunner().invoke(main, ["build", str(FTPD), "-o", str(blocker / "sheet.pdf")])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and result.output.startswith("Error: ") and "Traceback" not in result.output


def test_a_batch_refuses_one_output_for_two_inputs_and_an_output_that_is_an_input(tmp_path):
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "x.json").write_text(FTPD.read_text(encoding="utf-8"))
    out = tmp_path / "out"
    same = CliRunner().invoke(main, ["build", str(tmp_path / "a" / "x.json"), str(tmp_path / "b" / "x.json"),
                                     "-o", f"{out}/", "--format", "html"])
    assert same.exit_code == 2 and "would both be written" in same.output
    assert not out.exists() or not any(out.iterdir())
    script = tmp_path / "a" / "x.json"
    for command in (["build"], ["nightsheet"], ["almanac"]):
        refused = CliRunner().invoke(main, [*command, str(script), "-o", str(script), "--format", "html"])
        assert refused.exit_code == 2 and "overwrite the input" in refused.output, command
    assert script.read_text(encoding="utf-8") == FTPD.read_text(encoding="utf-8")


def test_arabic_text_prints_in_the_bundled_arabic_font(tmp_path):
    script = tmp_path / "djinn.json"
    script.write_text(json.dumps([{"id": "_meta", "name": "Arabic"}, "imp",
                                  {"id": "sayer", "name": "Sayer", "team": "townsfolk",
                                   "ability": "نحن لسنا هنا. You start knowing nothing."}]), encoding="utf-8")
    out = tmp_path / "djinn.pdf"
    result = CliRunner().invoke(main, ["build", str(script), "-o", str(out), "--lang", "en"])
    assert result.exit_code == 0 and "no glyph" not in result.output, result.output
    fonts = {str(f.get_object()["/BaseFont"]) for page in PdfReader(out).pages
             for f in page["/Resources"]["/Font"].values()}
    assert any("Naskh-Arabic" in name for name in fonts), fonts


# Pango never chooses a font for a space: it sets it in the font of the letter before it. A space
# between two letters only the Latin or the Arabic subset has (the Yaggababble's Russian, the
# Djinn's Arabic) is set in that subset, which printed it as a box where it had no space.
SPACED_LETTERS = "Фальшивые новости! Ψευδείς ειδήσεις. Zażółć gęślą jaźń, ąą ęę. نحن لسنا هنا."


@pytest.mark.parametrize("command, lang", [("build", "en"), ("almanac", "ko"), ("almanac", "en")])
def test_a_space_between_letters_of_the_latin_or_arabic_font_prints_as_a_space(tmp_path, command, lang):
    script = tmp_path / "spaced.json"
    script.write_text(json.dumps([{"id": "_meta", "name": "Spaced"}, "imp",
                                  {"id": "sayer", "name": "Sayer", "team": "townsfolk", "ability": SPACED_LETTERS,
                                   "flavor": SPACED_LETTERS}]), encoding="utf-8")
    out = tmp_path / "spaced.pdf"
    result = CliRunner().invoke(main, [command, str(script), "-o", str(out), "--lang", lang])
    assert result.exit_code == 0, result.output
    assert ".notdef" not in result.output and "no glyph" not in result.output, result.output
    assert "Фальшивые новости" in " ".join(_text(out).split())


def test_every_bundled_font_has_the_korean_face_s_space():
    """Each font a letter may be set in has a space (U+0020, U+00A0) as wide as the Korean face's of
    its weight (the face of every other space), so a space set in it looks like any other."""
    from fontTools.ttLib import TTFont

    from scriptforge.io.paths import FONTS_DIR
    from scriptforge.render.typefaces import ARABIC_FILE, FONT_FILES, LATIN_FILES, MARKS_FILES

    def spaces(name: str) -> set[int]:
        font = TTFont(str(FONTS_DIR / name), lazy=True)
        cmap, hmtx = font.getBestCmap(), font["hmtx"]
        return {hmtx[cmap[point]][0] if point in cmap else -1 for point in (0x20, 0xA0)}

    for weight, korean in FONT_FILES.items():
        (width,) = spaces(korean)
        others = [LATIN_FILES[weight], MARKS_FILES[weight]] + ([ARABIC_FILE] if weight == 400 else [])
        assert {name: spaces(name) for name in others} == {name: {width} for name in others}


def test_text_the_fonts_lack_still_warns(tmp_path, monkeypatch):
    from scriptforge.render import typefaces

    script = tmp_path / "rare.json"
    script.write_text(json.dumps(["imp", {"id": "x", "name": "Glyphless", "team": "townsfolk",
                                          "ability": "Sees ᚠᚢᚦ runes."}]), encoding="utf-8")
    monkeypatch.setattr(typefaces, "system_fonts_cover", lambda letters: False)  # no system font has runes
    result = CliRunner().invoke(main, ["build", str(script), "-o", str(tmp_path / "r.html")])
    assert result.exit_code == 0 and "no glyph for 'ᚠ'" in result.output
    # where a system font has them all, they are set in it without a word
    monkeypatch.setattr(typefaces, "system_fonts_cover", lambda letters: True)
    result = CliRunner().invoke(main, ["build", str(script), "-o", str(tmp_path / "r.html")])
    assert result.exit_code == 0 and "no glyph" not in result.output


def test_without_pango_build_says_what_to_install_in_one_line(tmp_path):
    simulate = (
        "import sys, importlib.abc\n"
        "class NoPango(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'weasyprint':\n"
        "            raise OSError(\"cannot load library 'libpango-1.0-0': libpango-1.0-0: cannot open shared object file\")\n"
        "sys.meta_path.insert(0, NoPango())\n"
        "from scriptforge.cli import run\n"
        f"sys.argv = ['scriptforge', 'build', {str(FTPD)!r}, '-o', {str(tmp_path / 's.pdf')!r}]\n"
        "run()\n")
    done = subprocess.run([sys.executable, "-c", simulate], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Pango" in done.stderr and "install" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "s.pdf").exists()


QUARTER_INCH_MM = 6.35  # what office printers cannot print at the paper's edge


def _ink_margins(pdf: Path) -> list[tuple[float, float, float, float]]:
    """(left, top, right, bottom) mm from each edge to the nearest ink, for each page."""
    import pypdfium2

    document = pypdfium2.PdfDocument(str(pdf))
    out = []
    for page in document:
        image = page.render(scale=1.0, grayscale=True).to_pil().convert("L")  # 72 dpi: 0.35 mm a pixel
        box = image.point(lambda v: 255 if v < 235 else 0).getbbox()
        assert box, "a blank page"
        mm = 25.4 / 72
        out.append((box[0] * mm, box[1] * mm, (image.width - box[2]) * mm, (image.height - box[3]) * mm))
    document.close()
    return out


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_no_ink_within_a_quarter_inch_of_the_edge(tmp_path, paper):
    short = tmp_path / "short.json"
    short.write_text(json.dumps([{"id": "_meta", "name": "Short", "author": "Someone"},
                                 "clockmaker", "grandmother", "pixie", "sailor", "monk"]))
    outputs = {"sheet": ["build", str(FTPD), "--back", "--night"], "almanac": ["almanac", str(short)],
               "game": ["build", "--game", "salem", "--lang", "ko+en"]}
    for name, args in outputs.items():
        out = tmp_path / f"{name}.pdf"
        result = CliRunner().invoke(main, [*args, "--paper", paper, "-o", str(out)])
        assert result.exit_code == 0, result.output
        for number, margins in enumerate(_ink_margins(out), 1):
            assert min(margins) >= QUARTER_INCH_MM, (name, number, margins)


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_long_title_wraps_in_the_footer_and_leaves_the_page_number_whole(tmp_path, lang):
    # a title and author of 170 characters took the footer's width: the page number was "1 /" over "1"
    script = tmp_path / "long-title.json"
    script.write_text(json.dumps([{"id": "_meta", "author": "Someone With A Long Name",
                                   "name": "The Long and Winding Chronicle of the Village Whose Name Nobody Could "
                                           "Remember Because It Changed Every Night of the Game Again"},
                                  "monk", "chef", "empath", "baron", "imp"]))
    out = tmp_path / "long-title.pdf"
    result = CliRunner().invoke(main, ["build", str(script), "--lang", lang, "-o", str(out)])
    assert result.exit_code == 0, result.output
    lines = _text(out).splitlines()
    assert any(re.search(r"(?<!\d)1 / 1(?!\d)", line) for line in lines), lines[-6:]  # Korean: "1 / 1쪽"
    assert min(_ink_margins(out)[0]) >= QUARTER_INCH_MM


@pytest.mark.skipif(not (ROOT.parent / "shared" / "reference" / "official" / "roles.json").is_file(),
                    reason="../shared/reference/official is not beside the checkout")
def test_the_footer_with_the_art_notice_stays_off_the_edge_and_in_one_piece(tmp_path, monkeypatch):
    from tests.icon_art import write_official_icons

    official = ROOT.parent / "shared" / "reference" / "official"
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    for name in ("roles.json", "nightsheet.json", "jinxes.json"):
        (mirror / name).write_bytes((official / name).read_bytes())
    ids = ["steward", "chef", "drunk", "poisoner", "imp"]
    write_official_icons(mirror, json.loads((official / "roles.json").read_text(encoding="utf-8")), only=set(ids))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("SCRIPTFORGE_PACKS", raising=False)
    runner = CliRunner()
    assert runner.invoke(main, ["pack", "update", "--from", str(mirror), "--lang", "en", "--icons"]).exit_code == 0
    script = tmp_path / "art.json"
    # the longest title and author there are (50 characters each): with the notice, three lines
    script.write_text(json.dumps([{"id": "_meta", "name": "Wwwwwwww Mmmmmmmmm Wwwwwwwwww Mmmmmmmmm Wwwwwwwwww",
                                   "author": "Mmmmmmmmmm Wwwwwwwwww Mmmmmmmmm Wwwwwwwwww Mmmmmmmm"}, *ids]))
    for paper in ("a4", "letter"):
        out = tmp_path / f"art-{paper}.pdf"
        result = runner.invoke(main, ["build", str(script), "--lang", "en", "--paper", paper, "-o", str(out)])
        assert result.exit_code == 0, result.output
        assert min(_ink_margins(out)[0]) >= QUARTER_INCH_MM
        lines = _text(out).splitlines()
        # the notice is in the footer, and the page number is whole on one line (it was "1 /" over "1")
        assert any("Pandemonium" in line for line in lines)
        assert any(re.search(r"\b1 / 1\b", line) for line in lines), lines[-4:]


# Homebrew abilities (English only: printed tagged EN on a Korean sheet) from a little short of the
# ability column's width to just over it, about 1 px apart: one or two of them fit the line while
# the space after their last word does not. There WeasyPrint 70 broke the line at the paragraph's
# first space when a space stood before the tag ("Each" / "night, choose …").
FILLING_THE_LINE = (
    "Each night*, choose any player: you learn whether they are drunk or poisoned, and so are you at dawn.",
    "Each night*, choose two players: you learn if they are drunk or poisoned, and they learn this tomorrow.",
    "Once per game, choose a player: you learn whether they are drunk or poisoned, and so are you tonight.",
    "Once per game, at night, choose a player: you learn if they are drunk or poisoned, and so are you today.",
    "Each night, choose any player: you learn whether they are drunk or poisoned, and so are you this game.",
    "Once per game, choose two players: you learn their character, unless the Demon chose them this game.",
    "Once per game, choose two players: they are poisoned until dusk, and the Demon learns this tomorrow.",
)


def _broken_after_first_word(pdf: Path, texts: tuple[str, ...]) -> list[str]:
    """The `texts` whose first line in the PDF's text layer is their first word alone."""
    import pypdfium2

    document = pypdfium2.PdfDocument(str(pdf))
    layer = "".join(page.get_textpage().get_text_range() for page in document)
    document.close()
    broken = []
    for text in texts:
        first, second, *rest = text.split()
        found = re.search(rf"{re.escape(first)}(\s+){re.escape(second)}\s+" + r"\s+".join(map(re.escape, rest)), layer)
        assert found, text
        if "\n" in found.group(1):
            broken.append(text)
    return broken


def test_a_tagged_ability_that_fills_its_line_is_not_broken_after_its_first_word(tmp_path, monkeypatch):
    from scriptforge.render.pdf import Renderer

    script = tmp_path / "tagged.json"
    script.write_text(json.dumps([{"id": "_meta", "name": "Tagged"}, "imp", *(
        {"id": f"tester{i}", "name": f"Tester {i}", "team": "townsfolk", "ability": text}
        for i, text in enumerate(FILLING_THE_LINE))]))
    out = tmp_path / "tagged.pdf"
    result = CliRunner().invoke(main, ["build", str(script), "--lang", "ko", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert f"{len(FILLING_THE_LINE)} text(s) have no 'ko' text" in result.output
    assert _broken_after_first_word(out, FILLING_THE_LINE) == []
    # the same sheet with a space before each tag: the break these abilities are chosen to provoke
    html = Renderer.html
    monkeypatch.setattr(Renderer, "html", lambda self, *a, **k: html(self, *a, **k).replace(
        '<span class="lang-tag">', ' <span class="lang-tag">'))
    result = CliRunner().invoke(main, ["build", str(script), "--lang", "ko", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert _broken_after_first_word(out, FILLING_THE_LINE), "no ability fills its line: the test needs new texts"


# An inline element with a space right before it in the laid-out HTML (a space inside an element
# of its own, `<span> ` or the glyph's wrapper, is fine): the break the test above provokes.
SPACED_ELEMENT = re.compile(r'(?<!<span>)(?<!<span class="reminder-mark">)\s<(?:span|strong) class="(lang-tag|fallback-mark|'
                            r'token-name|reminder-glyph)"')


def test_no_tag_or_mark_follows_a_space_on_sheets_night_sheets_or_almanacs(tmp_path, db):
    from scriptforge.render.almanac import almanac_view
    from scriptforge.render.pdf import Renderer
    from scriptforge.render.views import keep_korean_words, make_view
    from scriptforge.scripts.analysis import analyse
    from scriptforge.scripts.script import read_script

    script = tmp_path / "marks.json"
    script.write_text(json.dumps([{"id": "_meta", "name": "Marks"}, "imp", "chef", {
        "id": "lamplighter", "name": "Lamplighter", "team": "townsfolk", "ability": "Each night, learn a number.",
        "firstNight": 40, "firstNightReminder": "Give them the *LIT* token. :reminder: Put them to sleep.",
        "otherNight": 40, "otherNightReminder": "Show the *LIT* token. :reminder:"}]))
    analysis = analyse(read_script(script, db), db)
    renderer = Renderer()
    pages = {"sheet": renderer.html(keep_korean_words(make_view(analysis, "ko", "a4", back=True, night=True))),
             "almanac": renderer.html(keep_korean_words(almanac_view(analysis, "ko", "a4")), "almanac.html.j2")}
    for name, html in pages.items():
        assert not [m.group(0) for m in SPACED_ELEMENT.finditer(html)], name
    printed = "".join(pages.values())
    for element in ("lang-tag", "fallback-mark", "token-name", "reminder-glyph"):
        assert f'class="{element}"' in printed, element
