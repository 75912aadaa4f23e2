"""Printable sheets: fonts, text, one page, night order, determinism, safe fetching, outputs."""

import io
import json
import re
import zlib
from dataclasses import fields, is_dataclass

from click.testing import CliRunner
from fontTools.ttLib import TTFont
from pypdf import PdfReader
import pytest

from scriptforge.cli import main
from scriptforge.db.games import load_game
from scriptforge.render.game_views import game_view
from scriptforge.render.pdf import Renderer
from scriptforge.render.typefaces import FONT_FILES, missing_glyphs
from scriptforge.io.paths import FONTS_DIR
from scriptforge.scripts.analysis import analyse
from scriptforge.render.views import make_view
from scriptforge.rules.night import night_order
from scriptforge.scripts.script import read_script

from .conftest import EXAMPLES

FTPD = EXAMPLES / "faith-trust-and-pixie-dust.json"
ALL_EXAMPLES = sorted(EXAMPLES.glob("*.json"))


@pytest.fixture(scope="module")
def renderer():
    return Renderer()


@pytest.fixture(scope="module")
def korean_pdf(tmp_path_factory):
    out = tmp_path_factory.mktemp("ko") / "sheet.pdf"
    result = CliRunner().invoke(main, ["build", str(FTPD), "-o", str(out), "--lang", "ko"])
    assert result.exit_code == 0, result.output
    return out.read_bytes()


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_korean_sheet_holds_every_name_and_ability(korean_pdf, db):
    reader = PdfReader(io.BytesIO(korean_pdf))
    assert len(reader.pages) == 1
    text = _squash(reader.pages[0].extract_text())
    script = read_script(FTPD, db)
    assert len(script.characters) == 25
    for ch in script.characters:
        ko = ch.texts["ko"]
        assert _squash(ko.name) in text, ch.id
        assert _squash(ko.ability) in text, ch.id
    assert _squash(script.name) in text
    assert _squash(db.ui["ko"]["labels"]["not_first_night"]) in text  # the "*" footnote


def test_fonts_are_the_bundled_ones_embedded_and_subset(korean_pdf):
    bundled = TTFont(str(FONTS_DIR / FONT_FILES[400]))
    reader = PdfReader(io.BytesIO(korean_pdf))
    fonts = reader.pages[0]["/Resources"]["/Font"]
    assert fonts
    for ref in fonts.values():
        font = ref.get_object()
        descendant = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
        descriptor = descendant["/FontDescriptor"].get_object()
        assert "/FontFile2" in descriptor
        assert re.match(r"/[A-Z]{6}\+Noto-Sans-CJK-KR", str(font["/BaseFont"]))  # subset prefix
        # the bundled font, never a system one (a system Noto Sans CJK KR has 65535 glyphs): the
        # subset keeps glyph ids, so it has at most the bundled file's glyphs (HarfBuzz's subsetter,
        # where libharfbuzz-subset is installed, ends the table at the last glyph used)
        embedded = TTFont(io.BytesIO(descriptor["/FontFile2"].get_object().get_data()))
        assert embedded["maxp"].numGlyphs <= bundled["maxp"].numGlyphs < 65535


def test_title_and_bookmarks_are_plain_text(korean_pdf, db):
    reader = PdfReader(io.BytesIO(korean_pdf))
    name = read_script(FTPD, db).name
    assert reader.metadata.title == name
    titles = [item["/Title"] for item in reader.outline if isinstance(item, dict)]
    titles += [item["/Title"] for group in reader.outline if isinstance(group, list) for item in group]
    assert titles[0] == name
    assert db.ui["ko"]["teams"]["townsfolk"]["plural"] in titles
    assert not any("\u2060" in title for title in titles)  # no word joiners (they keep lines whole)


def test_pdf_is_small(korean_pdf):
    assert len(korean_pdf) < 400 * 1024


@pytest.mark.parametrize("path", ALL_EXAMPLES, ids=lambda p: p.stem)
def test_every_example_fits_on_one_page(path, db, renderer):
    script = read_script(path, db)
    for lang in ("ko", "en", "ko+en"):
        for paper in ("a4", "letter"):
            warnings = []
            view = make_view(analyse(script, db), lang, paper)
            renderer.pictures.resolve(view.icons(), path.parent, warnings)
            docs = renderer.documents(view, path.parent, warnings).docs
            assert [len(d.pages) for d in docs] == [1], (lang, paper, warnings)
            assert not [w for w in warnings if "does not fit" in w]


def test_night_sheet_lists_the_night_order(db, renderer, tmp_path):
    for path in ALL_EXAMPLES:
        script = read_script(path, db)
        order = night_order(script, db)
        view = make_view(analyse(script, db), "ko", "a4", sheet=False, night=True)
        assert [s.id for s in view.nights[0].steps] == list(order.first_night)
        assert [s.id for s in view.nights[1].steps] == list(order.other_nights)
        html = renderer.html(view, "nightsheet.html.j2")
        ids = re.findall(r'data-id="([^"]+)"', html)
        assert ids == list(order.first_night) + list(order.other_nights)
    out = tmp_path / "night.pdf"
    result = CliRunner().invoke(main, ["nightsheet", str(FTPD), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert len(PdfReader(out).pages) == 2  # one page per night
    night_json = CliRunner().invoke(main, ["night", str(FTPD), "--format", "json"])
    assert night_json.exit_code == 0
    assert "dusk" in json.dumps(json.loads(night_json.output))


def test_same_input_same_bytes(db, renderer):
    script = read_script(FTPD, db)
    first = renderer.render(make_view(analyse(script, db), "ko+en", "letter"), "pdf", FTPD.parent).files[0][1]
    second = Renderer().render(make_view(analyse(script, db), "ko+en", "letter"), "pdf", FTPD.parent).files[0][1]
    assert first == second


def _all_streams(pdf: bytes) -> bytes:
    out = [pdf]
    for match in re.finditer(rb"stream\r?\n(.*?)endstream", pdf, re.S):
        try:
            out.append(zlib.decompress(match.group(1)))
        except zlib.error:
            pass
    return b"".join(out)


@pytest.mark.parametrize("image, said", [("file:///etc/passwd", "generated icon instead"),
                                         ("../../../../../../../etc/passwd", "generated icon instead"),
                                         ("http://127.0.0.1:9/x.png", "1 image not fetched: use --allow-network")])
def test_images_outside_the_script_folder_are_not_read(tmp_path, image, said):
    script = [{"id": "_meta", "name": "Leak"}, "imp", "poisoner",
              {"id": "leaky", "name": "Leaky", "team": "townsfolk", "ability": "You start knowing secrets.",
               "image": image}]
    path = tmp_path / "leak.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    out = tmp_path / "leak.pdf"
    result = CliRunner().invoke(main, ["build", str(path), "-o", str(out), "--lang", "en"])
    assert result.exit_code == 0, result.output
    assert said in result.output
    data = out.read_bytes()
    assert b"root:" not in _all_streams(data)
    assert b"/Subtype /Image" not in data and b"/Subtype/Image" not in data


def test_local_image_next_to_the_script_is_used(tmp_path):
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="red"/></svg>'
    (tmp_path / "own.svg").write_text(svg, encoding="utf-8")
    script = [{"id": "_meta", "name": "Own"}, "imp",
              {"id": "own", "name": "Own", "team": "townsfolk", "ability": "You are yourself.", "image": "own.svg"}]
    path = tmp_path / "own.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    result = CliRunner().invoke(main, ["build", str(path), "-o", str(tmp_path / "own.html"), "--format", "html",
                                       "--lang", "en"])
    assert result.exit_code == 0, result.output
    html = (tmp_path / "own.html").read_text(encoding="utf-8")
    assert "data:image/svg+xml;base64," in html
    assert "file:" not in html  # self-contained: fonts and images inline


def test_icons_folder_and_png_output(tmp_path):
    icons = tmp_path / "icons"
    icons.mkdir()
    (icons / "imp.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>',
                                   encoding="utf-8")
    result = CliRunner().invoke(main, ["build", str(FTPD), "-o", str(tmp_path / "s.png"), "--format", "png",
                                       "--icons", str(icons), "--back"])
    assert result.exit_code == 0, result.output
    pngs = sorted(tmp_path.glob("s-*.png"))
    assert [p.name for p in pngs] == ["s-1.png", "s-2.png"]
    assert all(p.read_bytes().startswith(b"\x89PNG") for p in pngs)


def test_batch_into_a_folder(tmp_path):
    result = CliRunner().invoke(main, ["build", str(EXAMPLES), "-o", str(tmp_path / "out"), "--lang", "ko+en"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted(f"{p.stem}.pdf" for p in ALL_EXAMPLES)


def test_batch_with_jobs_writes_the_same_files(tmp_path):
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    for index, example in enumerate(ALL_EXAMPLES * 2):
        (scripts / f"{index}-{example.name}").write_bytes(example.read_bytes())
    outputs = {}
    for jobs in ("1", "2"):
        result = CliRunner().invoke(main, ["build", str(scripts), "-o", str(tmp_path / jobs), "--jobs", jobs])
        assert result.exit_code == 0, result.output
        outputs[jobs] = {p.name: p.read_bytes() for p in (tmp_path / jobs).iterdir()}
        listed = [line.split(" (")[0] for line in result.output.splitlines() if line.endswith("(1 page)")]
        assert listed == [str(tmp_path / jobs / f"{p.stem}.pdf") for p in sorted(scripts.iterdir())]
    assert len(outputs["2"]) == 2 * len(ALL_EXAMPLES)
    assert outputs["2"] == outputs["1"]


@pytest.mark.parametrize("command", ["build", "nightsheet"])
def test_a_batch_tries_every_script_and_lists_the_failures_at_the_end(tmp_path, command):
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    for index in range(5):
        (scripts / f"s{index}.json").write_bytes(FTPD.read_bytes())
    (scripts / "s1.json").write_text('[{"id": "_meta", "name": "x"},\n"imp",\n', encoding="utf-8")
    (scripts / "s3.json").write_text('{"id": "_meta"}', encoding="utf-8")
    (scripts / "s5.json").write_text('["imp", "pixi", "nosuchthing"]', encoding="utf-8")  # a line per unknown id
    missing = tmp_path / "gone.json"
    suffix = "-night" if command == "nightsheet" else ""
    runs = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"out{jobs}"
        result = CliRunner().invoke(main, [command, str(scripts), str(missing), "-o", str(out), "--format", "html",
                                           "-j", jobs])
        assert result.exit_code == 1, result.output
        assert "Traceback" not in result.output
        assert result.stdout.splitlines() == [str(out / f"s{i}{suffix}.html") for i in (0, 2, 4)]
        assert sorted(p.name for p in out.iterdir()) == [f"s{i}{suffix}.html" for i in (0, 2, 4)]
        runs[jobs] = result.stderr.replace(str(out), "OUT")
    errors = [line for line in runs["1"].splitlines() if line.startswith("Error")]
    assert [line.split(": ")[1] for line in errors[:6]] == [
        f"{scripts / 's1.json'}:3", str(scripts / "s3.json"), str(scripts / "s5.json"), str(scripts / "s5.json"),
        str(scripts / "s5.json"), str(missing)]  # in input order
    assert "not valid JSON" in errors[0] and "array" in errors[1] and "not found" in errors[5]
    assert "/1: unknown character 'pixi'" in errors[2] and "/2: unknown character 'nosuchthing'" in errors[3]
    assert "--skip-unknown leaves them out" in errors[4]
    assert errors[6:] == ["Error: 4 of 7 scripts failed; the others were written"]
    assert runs["2"] == runs["1"]  # the same rule and the same report at any --jobs


def test_batch_with_jobs_where_processes_cannot_fork(tmp_path, monkeypatch):
    import multiprocessing

    monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: ["spawn"])
    monkeypatch.setattr(multiprocessing, "get_context", lambda *args: pytest.fail("a worker process was started"))
    result = CliRunner().invoke(main, ["build", str(EXAMPLES), "-o", str(tmp_path), "--jobs", "2"])
    assert result.exit_code == 0, result.output
    assert "Warning: --jobs needs processes that can be forked" in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(f"{p.stem}.pdf" for p in ALL_EXAMPLES)


def test_missing_glyphs_are_reported(tmp_path):
    assert missing_glyphs("한글 Latin “quotes” — …") == []
    assert missing_glyphs("똠방각하") == ["똠"]
    script = [{"id": "_meta", "name": "똠"}, "imp"]
    path = tmp_path / "rare.json"
    path.write_text(json.dumps(script, ensure_ascii=False), encoding="utf-8")
    result = CliRunner().invoke(main, ["build", str(path), "-o", str(tmp_path / "rare.pdf")])
    assert result.exit_code == 0, result.output
    from scriptforge.render.typefaces import system_fonts_cover

    # warned unless a system font has the letter (then it prints in that font, by design)
    assert ("U+B620" in result.output) != system_fonts_cover("똠"), result.output


def test_rendering_commands_do_not_import_weasyprint_for_reference_commands():
    import subprocess
    import sys

    code = "import sys; from scriptforge.cli import main; assert 'weasyprint' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


def _pieces(text: str) -> set[str]:
    """Whitespace-separated words cut at Latin letters (pypdf may glue an English name to a word)
    and quotation marks (templates quote some texts)."""
    return {piece for word in text.split() for piece in re.findall(r"[^A-Za-z“”‘’\"']+", word)}


def _korean_pieces_not_in(pdf: bytes, words: set[str]) -> list[str]:
    """Hangul words of the PDF's laid-out lines (pypdf layout mode) that are not whole words."""
    text = "\n".join(page.extract_text(extraction_mode="layout") for page in PdfReader(io.BytesIO(pdf)).pages)
    return sorted(p for p in _pieces(text) if re.search("[\uac00-\ud7a3]", p) and p not in words)


def _printed_words(view) -> set[str]:
    texts = [view.title, view.byline or "", view.footnote or "", view.djinn_note or ""]
    for label in (v for v in view.labels.values() if isinstance(v, str)):
        texts += [label, *label]  # headings are letter-spaced: pypdf may give one syllable at a time
    for team in (*view.teams, *view.extra_teams):
        texts.append(team.title)
        texts += list(team.title)  # letter-spaced team titles come out one syllable at a time
        for ch in team.characters:
            texts += [ch.name, ch.ability, ch.icon.initial]
    texts += [jinx.text for jinx in view.jinxes]
    if view.footer:  # the footer of every page: name · author, "page / pages", what it was built from
        texts += [view.footer.left, view.footer.right, *(view.footer.page.format(page=n, pages=n) for n in range(1, 9))]
    for night in view.nights:
        texts.append(night.title)
        for step in night.steps:
            texts += [step.name, step.text, step.icon.initial]
    return set().union(*(_pieces(t) for t in texts))


@pytest.mark.parametrize("lang", ["ko", "ko+en"])
def test_korean_lines_break_only_between_words(db, renderer, lang):
    """Korean breaks at spaces: no line ends inside a word (캐릭/터), and the text has no joiners."""
    view = make_view(analyse(read_script(FTPD, db), db), lang, "a4", night=True)
    pdf = renderer.render(view, "pdf", FTPD.parent).files[0][1]
    assert _korean_pieces_not_in(pdf, _printed_words(view)) == []
    assert "\u2060" not in "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)


def _view_strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _view_strings(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _view_strings(item)
    elif is_dataclass(value):
        for f in fields(value):
            yield from _view_strings(getattr(value, f.name))


@pytest.mark.parametrize("game, sheet", [("salem", True), ("salem", False), ("werewolf", True)])
def test_korean_game_sheets_break_lines_only_between_words(renderer, game, sheet):
    view = game_view(load_game(game), "ko", "a4", sheet=sheet, night=not sheet)
    template = "game_sheet.html.j2" if sheet else "game_night.html.j2"
    pdf = renderer.render_document(view, template).files[0][1]
    words = set().union(*(_pieces(text) for text in _view_strings(view)))
    words |= {c for text in _view_strings(view) for c in text}  # letter-spaced headings: one syllable at a time
    assert _korean_pieces_not_in(pdf, words) == []


def test_keep_words_joins_hangul_words_only():
    from scriptforge.render.views import keep_words

    assert keep_words("캐릭터를 (첫날 밤) 3명") == "캐\u2060릭\u2060터\u2060를 (\u2060첫\u2060날 밤\u2060) 3\u2060명"
    assert keep_words("Imp and Baron") == "Imp and Baron"
    assert keep_words("") == ""


def test_fitting_the_almanac_sheet_leaves_the_view_as_it_was(db):
    """Fitting tries smaller text on copies: the view a caller passes is unchanged, and the size
    that fits comes back (it used to be written into the caller's view)."""
    import copy

    from scriptforge.render.almanac import almanac_view, fit_sheet

    class Crowded:  # a sheet that takes two pages at full size
        def page_count(self, view, template, base_dir):
            return 1 if view.sheet_scale < 1 else 2

    view = almanac_view(analyse(read_script(FTPD, db), db), "ko")
    before = copy.deepcopy(view)
    scale, warnings, fits = fit_sheet(view, Crowded(), None)
    assert scale < 1 and "text set at" in warnings[0] and fits
    assert view == before


def test_build_warns_of_a_broken_meta_night_order_it_prints(tmp_path):
    script = tmp_path / "broken.json"
    script.write_text(json.dumps([
        {"id": "_meta", "name": "Broken", "firstNight": ["dusk", "chef", "ghost", "dawn"], "otherNight": ["dawn", "dusk"]},
        "chef", "poisoner", "imp", "empath", "recluse"]))
    runner = CliRunner()
    printed = runner.invoke(main, ["build", str(script), "--night", "-o", str(tmp_path / "n.pdf")])
    assert printed.exit_code == 0, printed.output
    warned = [line for line in printed.stderr.splitlines() if line.startswith(f"Warning: {script}: /0/")]
    assert any("'ghost'" in line and "(meta-night-unknown)" in line for line in warned), printed.stderr
    assert any("'poisoner'" in line and "(night-order-missing)" in line for line in warned)
    assert any("dusk after dawn" in line for line in warned)
    # the same lines validate gives, and none where no night order is printed
    sheet_only = runner.invoke(main, ["build", str(script), "-o", str(tmp_path / "s.pdf")])
    assert sheet_only.exit_code == 0 and "night" not in sheet_only.stderr


def test_the_footer_says_when_the_official_data_was_installed_not_that_it_is_its_date(db):
    from dataclasses import replace as replaced

    from scriptforge.render.views import footer_for

    for lang in ("en", "ko"):
        labels = db.labels(lang)
        updated = footer_for(replaced(db, packs=[("official", "2026-12-02")]), labels, "T", None).right
        imported = footer_for(replaced(db, packs=[("official", "")]), labels, "T", None).right  # pack import: no day
        assert "2026-12-02" in updated and updated != imported and "{" not in imported and "()" not in imported
    assert "installed 2026-12-02" in footer_for(replaced(db, packs=[("official", "2026-12-02")]),
                                                db.labels("en"), "T", None).right
