"""The almanac: every section the seeds have, in the PDF; flowing pages that never overflow;
homebrew pages without empty headings; the closing page; the language fallback and its warning."""

import io
import json
import re
import shutil

from click.testing import CliRunner
from pypdf import PdfReader
import pytest

from scriptforge.cli import main
from scriptforge.db.loading import load_database
from scriptforge.scripts.analysis import analyse
from scriptforge.render.almanac import TEXT_SECTIONS, almanac_view, fallback_warning, quote_ability
from scriptforge.render.pdf import Renderer
from scriptforge.render.writing import pdf_bytes
from scriptforge.scripts.script import read_script

from .conftest import EXAMPLES

FTPD = EXAMPLES / "faith-trust-and-pixie-dust.json"  # seed 000 (Vigormortis)
ENGLISH = EXAMPLES / "english-almanac-25.json"  # seed 001 (Lil' Monsta)
FANGGU = EXAMPLES / "fang-gu-zealot.json"  # seed 003 (the Pilgrim, the author's note)

# the Korean and English almanacs are laid out once (module fixtures) for all the tests: one worker runs them all
pytestmark = pytest.mark.xdist_group("almanac")


def squash(text: str) -> str:
    """Whitespace and the word joiners of Korean line breaking removed."""
    return re.sub(r"[\s\u2060]+", "", text)


def body_text(page) -> str:
    """A page's text without its margin boxes (script name, character name, page number)."""
    height_px = float(page.mediabox.height) / 0.75
    parts = []

    def visit(text, cm, tm, font, size):
        if 58 < tm[5] < height_px - 45:
            parts.append(text)

    page.extract_text(visitor_text=visit)
    return "".join(parts)


def overflowing(document) -> list[str]:
    """Boxes that reach outside their page (a text box that does not fit where it was put)."""
    out = []
    for number, page in enumerate(document.pages, 1):
        box = page._page_box
        width, height = box.margin_width(), box.margin_height()
        for child in box.descendants():
            if not hasattr(child, "position_y") or child.height is None or child.width is None:
                continue
            bottom = child.position_y + child.margin_height()
            right = child.position_x + child.margin_width()
            if bottom > height + 0.5 or right > width + 0.5:
                text = getattr(child, "text", "") or type(child).__name__
                out.append(f"page {number}: {text[:40]!r} ends at ({right:.0f}, {bottom:.0f})")
    return out


@pytest.fixture(scope="module")
def renderer():
    return Renderer()


class Pdf:
    """A PDF's reader and the squashed body text of each page (extracted once)."""

    def __init__(self, reader: PdfReader):
        self.pages = reader.pages
        self.bodies = [squash(body_text(page)) for page in reader.pages]
        self.text = "".join(self.bodies)

    def pages_of(self, needle: str) -> list[int]:
        return [i for i, body in enumerate(self.bodies) if squash(needle) in body]


@pytest.fixture(scope="module")
def korean(db, renderer):
    """Seed 000's script as a Korean almanac: (view, laid-out document, Pdf)."""
    view = almanac_view(analyse(read_script(FTPD, db), db), "ko")
    document = renderer.layout(renderer.html(view, "almanac.html.j2"), FTPD.parent, [])
    return view, document, Pdf(PdfReader(io.BytesIO(pdf_bytes([document]))))


@pytest.fixture(scope="module")
def english(tmp_path_factory):
    """Seed 001's script as an English almanac, through the command line."""
    out = tmp_path_factory.mktemp("en") / "almanac.pdf"
    result = CliRunner().invoke(main, ["almanac", str(ENGLISH), "-o", str(out), "--lang", "en"])
    assert result.exit_code == 0, result.output
    return Pdf(PdfReader(out))


def test_vigormortis_every_section_of_seed_000_is_in_the_korean_pdf(korean, db):
    _, _, pdf = korean
    text = pdf.text
    vigor = db.get("vigormortis").text("ko")
    assert vigor.flavor and vigor.overview and vigor.how_to_run  # what seed 000 has
    # the overview opens by quoting the ability: the one printed above it
    for value in (vigor.ability, vigor.flavor, quote_ability(vigor.overview, vigor.ability), *vigor.how_to_run):
        assert squash(value) in text
    labels = db.ui["ko"]["labels"]
    page = pdf.bodies[pdf.pages_of(vigor.flavor)[0]]
    for key in ("ability", "flavor", "overview", "how_to_run"):
        assert squash(labels[key]) in page


def test_lil_monsta_every_section_of_seed_001_is_in_the_english_pdf(english, db):
    text = english.text
    monsta = db.get("lilmonsta").text("en")
    assert monsta.examples  # seed 001 has Examples & Notes
    for value in (monsta.ability, monsta.flavor, quote_ability(monsta.overview, monsta.ability), *monsta.how_to_run,
                  *monsta.examples):
        assert squash(value) in text
    assert squash(db.ui["en"]["labels"]["examples"]) in text


def test_sections_follow_the_seeds_order(korean):
    view, _, _ = korean
    for page in view.characters:
        keys = [s.key for s in page.sections]
        assert keys == [k for k in TEXT_SECTIONS if k in keys], page.id
        assert keys[0] == "ability"


def test_nothing_overflows_and_long_texts_flow(korean):
    view, document, pdf = korean
    assert overflowing(document) == []
    assert len(pdf.pages) == len(document.pages) >= 2 + len(view.characters) + 1
    # every page carries the script name and its number (in the margin boxes)
    for number, page in enumerate(pdf.pages, 1):
        text = squash(page.extract_text())
        assert squash(view.title) in text
        assert f"{number}/{len(pdf.pages)}" in text


def test_contents_point_at_the_character_pages(korean, db):
    view, _, pdf = korean
    cover = squash(pdf.pages[0].extract_text())
    assert squash(db.ui["ko"]["labels"]["contents"]) in cover
    for page in view.characters[:5]:
        number = [i for i in pdf.pages_of(page.sections[0].paragraphs[0]) if i >= 2][0] + 1  # not the sheet
        assert re.search(re.escape(squash(page.name)) + r"[.]*" + str(number), cover), page.id


def test_character_facts_night_reminders_setup_jinxes(korean, db):
    view, _, _ = korean
    pages = {p.id: p for p in view.characters}
    facts = {f.key: f for f in pages["vigormortis"].facts}
    assert facts["first_night"].text == db.ui["ko"]["labels"]["does_not_wake"]
    assert facts["other_nights"].detail.startswith("#")
    assert facts["other_nights"].text == db.get("vigormortis").text("ko").other_night_reminder
    assert facts["setup"].text == "외지인 -1명"
    assert "×3" in facts["reminders"].text
    monsta = {f.key: f for f in pages["lilmonsta"].facts}
    assert "하수인 +1명" in monsta["setup"].text and "악마 토큰" in monsta["setup"].text
    jinxed = [f for p in view.characters for f in p.facts if f.key == "jinx"]
    assert len(jinxed) == 2 * len(view.sheet.jinxes)


def test_closing_page_has_night_order_and_player_counts(korean, db):
    view, _, pdf = korean
    last = pdf.bodies[-1]
    labels = db.ui["ko"]["labels"]
    assert squash(labels["first_night"]) in last and squash(labels["other_nights"]) in last
    assert squash(labels["players"]) in last and "56789101112131415" in last


def test_homebrew_page_without_empty_headings(db, renderer, tmp_path):
    view = almanac_view(analyse(read_script(FANGGU, db), db), "ko")
    pilgrim = next(p for p in view.characters if p.id == "pilgrim")
    assert [s.key for s in pilgrim.sections][:2] == ["ability", "flavor"]
    assert all(s.paragraphs and all(p.strip() for p in s.paragraphs) for s in pilgrim.sections)
    assert {f.key: f for f in pilgrim.facts}["first_night"].text.startswith("순례자를 깨워")
    assert view.description and view.description.startswith("사람들이 Fang Gu")

    script = tmp_path / "hb.json"
    script.write_text(json.dumps([
        {"id": "_meta", "name": "Homebrew"}, "imp", "chef",
        {"id": "wanderer", "name": "방랑자", "team": "townsfolk", "firstNight": 30,
         "ability": "게임 시작 시, 악한 플레이어 1명을 알게 됩니다. [외지인 +1명]",
         "firstNightReminder": "방랑자를 깨워 악한 플레이어 1명을 가리키세요."}]), encoding="utf-8")
    view = almanac_view(analyse(read_script(script, db), db), "ko")
    wanderer = next(p for p in view.characters if p.id == "wanderer")
    assert [s.key for s in wanderer.sections] == ["ability"]
    facts = {f.key: f for f in wanderer.facts}
    assert facts["first_night"].text.startswith("방랑자를 깨워") and facts["setup"].text == "외지인 +1명"
    html = renderer.html(view, "almanac.html.j2")
    article = html[html.index('id="character-wanderer"'):]
    article = article[:article.index("</article>")]
    labels = db.ui["ko"]["labels"]
    for key in ("flavor", "overview", "how_to_run", "examples"):
        assert labels[key] not in article
    assert labels["homebrew"] in article


def test_ko_en_names_both_languages(db):
    view = almanac_view(analyse(read_script(FTPD, db), db), "ko+en")
    imp = next(p for p in view.characters if p.id == "imp")
    assert (imp.name, imp.second_name) == (db.get("imp").name("ko"), "Imp")
    assert view.html_lang == "ko"


def test_fallback_is_marked_and_warned_once(data_copy, tmp_path):
    (data_copy / "ko" / "characters" / "imp.yaml").unlink()
    night = data_copy / "ko" / "night.yaml"
    import yaml

    data = yaml.safe_load(night.read_text(encoding="utf-8"))
    for key in ("first_night", "other_nights"):
        data[key].pop("imp", None)
    night.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    db = load_database(data_copy)
    view = almanac_view(analyse(read_script(FTPD, db), db), "ko")
    imp = next(p for p in view.characters if p.id == "imp")
    assert imp.fallback and all(s.fallback for s in imp.sections)
    assert imp.name == "Imp" and "Imp" in view.fallback
    assert fallback_warning(view).count("\n") == 0 and "Imp" in fallback_warning(view)

    shutil.copy(FTPD, tmp_path / "s.json")
    result = CliRunner().invoke(
        main, ["almanac", str(tmp_path / "s.json"), "--format", "html", "-o", str(tmp_path / "a.html")],
        env={"SCRIPTFORGE_DATA": str(data_copy)})
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.stderr.splitlines() if "printed partly or wholly" in line]
    assert len(warnings) == 1 and "Imp" in warnings[0]
    html = (tmp_path / "a.html").read_text(encoding="utf-8").replace("\u2060", "")
    assert db.labels("ko")["fallback_language"] == "영어 원문 (번역 없음)" and "영어 원문 (번역 없음)" in html


def test_html_format_and_default_output_name(tmp_path, runner, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(main, ["almanac", str(FANGGU), "--lang", "en", "--format", "html", "--paper", "letter"])
    assert result.exit_code == 0, result.output
    html = (tmp_path / "fang-gu-zealot-almanac.html").read_text(encoding="utf-8")
    assert "size: letter" in html and 'id="character-pilgrim"' in html and "target-counter" in html
    assert not list(tmp_path.glob("*.pdf"))


def test_unknown_script_is_one_clean_line(runner, tmp_path):
    result = runner.invoke(main, ["almanac", str(tmp_path / "nope.json")])
    assert result.exit_code != 0
    assert "file not found" in result.output and "Traceback" not in result.output
