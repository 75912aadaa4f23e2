"""--system-fonts / --no-system-fonts: the system's fonts (fontconfig) beside the bundled ones
always, never (a page the bundled fonts cannot set is refused with the package to install), or,
by default, only where the bundled fonts lack letters of the page."""

import io
import json
import re
import sys

from click.testing import CliRunner
from pypdf import PdfReader
import pytest

from scriptforge.cli import main
from scriptforge.io.errors import InputError
from scriptforge.render.system_fonts import font_packages_for, use_system_fonts
from tests.conftest import EXAMPLES, needs_font

EXAMPLE = str(EXAMPLES / "faith-trust-and-pixie-dust.json")


def _script(tmp_path, name: str) -> str:
    """A small script with a homebrew Townsfolk named `name`."""
    path = tmp_path / "s.json"
    path.write_text(json.dumps([{"id": "_meta", "name": "Fonts"}, "clockmaker", "chef", "imp", "recluse",
                                {"id": "kitsune", "name": name, "team": "townsfolk",
                                 "ability": "You start knowing a fox."}], ensure_ascii=False), encoding="utf-8")
    return str(path)


def _text(pdf) -> str:
    return " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf.read_bytes())).pages)


def test_the_choice_in_the_library():
    assert use_system_fonts(None, "") is False and use_system_fonts(None, "狐") is True
    assert use_system_fonts(True, "") is True and use_system_fonts(False, "") is False
    with pytest.raises(InputError) as refused:
        use_system_fonts(False, "狐")
    assert "狐" in str(refused.value) and "fonts-noto-cjk" in str(refused.value)
    assert font_packages_for("狐あก") == ("fonts-noto-cjk", "fonts-thai-tlwg")


def test_no_system_fonts_refuses_a_language_the_bundled_fonts_cannot_set_in_one_line(tmp_path):
    result = CliRunner().invoke(main, ["build", EXAMPLE, "--lang", "ja", "--no-system-fonts",
                                       "-o", str(tmp_path / "ja.pdf")])
    assert result.exit_code == 2
    [line] = result.output.strip().splitlines()
    assert "--lang ja: the bundled fonts cannot set" in line and "fonts-noto-cjk" in line
    assert not (tmp_path / "ja.pdf").exists()
    # HTML is never refused: the browser sets it
    html = CliRunner().invoke(main, ["build", EXAMPLE, "--lang", "ja", "--no-system-fonts",
                                     "-o", str(tmp_path / "ja.html")])
    assert html.exit_code == 0, html.output


def test_no_system_fonts_refuses_a_page_with_letters_the_bundled_fonts_lack(tmp_path):
    script = _script(tmp_path, "狐の子")
    for command in (["build"], ["nightsheet"], ["almanac"], ["tokens"]):
        result = CliRunner().invoke(main, [*command, script, "--lang", "en", "--no-system-fonts",
                                           "-o", str(tmp_path / "out.pdf")])
        assert result.exit_code == 2, (command, result.output)
        [line] = [l for l in result.output.strip().splitlines() if l.startswith("Error")]
        assert "s.json: the bundled fonts cannot set" in line and "狐" in line and "fonts-noto-cjk" in line, line
        assert not (tmp_path / "out.pdf").exists()


def test_system_fonts_on_a_page_the_bundled_fonts_set_alone_changes_no_text(tmp_path):
    plain, forced = tmp_path / "plain.pdf", tmp_path / "forced.pdf"
    for out, flags in ((plain, []), (forced, ["--system-fonts"])):
        result = CliRunner().invoke(main, ["build", EXAMPLE, "--lang", "ko", "-o", str(out), *flags])
        assert result.exit_code == 0, result.output
    assert "시계공" in _text(forced) and _text(forced) == _text(plain)


@needs_font("ja")
def test_by_default_a_system_font_sets_what_the_bundled_fonts_lack(tmp_path):
    out = tmp_path / "s.pdf"
    result = CliRunner().invoke(main, ["build", _script(tmp_path, "狐の子"), "--lang", "en", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "狐の子" in _text(out)


@needs_font("zh-Hans")
def test_a_chinese_title_embeds_a_subset_of_the_system_face_not_the_face(tmp_path):
    # issue 41: a system CJK face is a file of 10-30 MB (Noto's .ttc holds ten faces); the PDF
    # must carry the few glyphs used. WeasyPrint's subsets keep glyph ids, so a subset of a face
    # with 65,535 glyphs stays a few hundred KB even for four characters: 2 MiB is the line.
    script = tmp_path / "zh-title.json"
    script.write_text(json.dumps([{"id": "_meta", "name": "血染钟楼" * 12}, "monk", "chef", "empath", "baron", "imp"],
                                 ensure_ascii=False), encoding="utf-8")
    out = tmp_path / "s.pdf"
    result = CliRunner().invoke(main, ["build", str(script), "--lang", "en", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "血染钟楼" in _text(out)
    embedded = {}
    for page in PdfReader(out).pages:
        for ref in page["/Resources"]["/Font"].values():
            font = ref.get_object()
            descendant = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
            descriptor = descendant["/FontDescriptor"].get_object()
            [program] = [descriptor[key] for key in ("/FontFile", "/FontFile2", "/FontFile3") if key in descriptor]
            embedded[str(font["/BaseFont"])] = len(program.get_object().get_data())
    system = {name: size for name, size in embedded.items() if "Scriptforge" not in name}
    assert system, embedded  # the title's letters came from a system face
    assert all(re.match(r"/[A-Z]{6}\+", name) and size < 2 << 20 for name, size in system.items()), system


@pytest.mark.parametrize("command", ["build", "nightsheet", "almanac", "tokens", "watch"])
def test_html_is_never_refused_for_a_language_no_font_here_can_set(command, tmp_path, monkeypatch):
    # Thai: the bundled fonts lack it, and here no system font has it either
    monkeypatch.setattr("scriptforge.render.typefaces.system_fonts_cover", lambda letters: not letters)
    extra = ["--renders", "1"] if command == "watch" else []
    pdf = tmp_path / "th.pdf"
    refused = CliRunner().invoke(main, [command, EXAMPLE, "--lang", "th", *extra, "-o", str(pdf)])
    # watch reports a failed render and goes on watching (its --renders 1 then ends it)
    assert refused.exit_code == (0 if command == "watch" else 2), refused.output
    [line] = [l for l in refused.output.strip().splitlines() if l.startswith("Error")]
    assert "--lang th" in line and "fonts-thai-tlwg" in line and "--format html" in line, line
    assert not pdf.exists()
    html = tmp_path / "th.html"
    result = CliRunner().invoke(main, [command, EXAMPLE, "--lang", "th", *extra, "--format", "html", "-o", str(html)])
    assert result.exit_code == 0, result.output
    assert html.read_text(encoding="utf-8").lstrip().lower().startswith("<!doctype html")


@pytest.mark.parametrize(("value", "on"), [(None, False), ("0", False), ("", False), ("1", True), ("yes", True)])
def test_the_system_fonts_switch_is_off_at_0(monkeypatch, value, on):
    from scriptforge.render.fontconfig import SYSTEM_FONTS_SWITCH, only_bundled_fonts, system_fonts_switch

    monkeypatch.delenv("SCRIPTFORGE_PLAIN_WEASYPRINT", raising=False)
    if value is None:
        monkeypatch.delenv(SYSTEM_FONTS_SWITCH, raising=False)
    else:
        monkeypatch.setenv(SYSTEM_FONTS_SWITCH, value)
    assert system_fonts_switch() is on
    if sys.platform.startswith("linux"):
        assert only_bundled_fonts().active is not on  # "=0" kept the system's fonts out, as unset does


@pytest.mark.parametrize(("lang", "face"), [("ja", "Noto Sans CJK JP"), ("zh-Hans", "Noto Sans CJK SC"),
                                            ("ko", "Noto Sans CJK KR")])
def test_each_cjk_language_names_its_own_glyph_forms_first(tmp_path, lang, face):
    from scriptforge.render.typefaces import FONT_FAMILY, font_stack

    stack = [family.strip().strip('"') for family in font_stack(lang).split(",")]
    assert stack[0] == FONT_FAMILY and stack[1] == face  # before any other CJK face (祖 differs by language)
    result = CliRunner().invoke(main, ["build", str(EXAMPLES / "faith-trust-and-pixie-dust.json"), "--lang", lang,
                                       "--format", "html", "-o", "-"])
    assert result.exit_code == 0, result.output
    assert f'font-family: "{FONT_FAMILY}", "{face}"' in result.stdout


def test_a_japanese_pdf_takes_the_japanese_face_where_the_system_has_it(tmp_path):
    import subprocess

    listed = subprocess.run(["fc-list", ":lang=ja", "family"], capture_output=True, text=True).stdout
    if "Noto Sans CJK JP" not in listed:
        pytest.skip("no 'Noto Sans CJK JP' on this system (fonts-noto-cjk): the face a Japanese page asks for")
    out = tmp_path / "ja.pdf"
    result = CliRunner().invoke(main, ["build", str(EXAMPLES / "faith-trust-and-pixie-dust.json"), "--lang", "ja",
                                       "-o", str(out)])
    assert result.exit_code == 0, result.output
    fonts = {str(ref.get_object().get("/BaseFont", "")) for page in PdfReader(out).pages
             for ref in ((page.get("/Resources") or {}).get("/Font") or {}).values()}
    assert any("JP" in font for font in fonts) and not any("KR" in font and "CJK" in font for font in fonts), fonts
