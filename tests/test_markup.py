"""The official markup (`:reminder:`, `*TOKEN*`) printed as typography, never as raw marks."""

import re

from markupsafe import escape
import pytest

from scriptforge.db.loading import load_database
from scriptforge.model.markup import to_html, to_text
from scriptforge.render.views import keep_words
from tests.conftest import shared_path

# A raw mark as a reader would see it: the reminder mark, or an asterisk opening a word.
RAW = re.compile(r":reminder:|(?:^|\s)\*\w")


@pytest.mark.parametrize("text, html, plain", [
    # the space before a mark goes inside its element (the glyph's wrapper): see to_html
    ("Show the *YOU ARE* token. :reminder:",
     'Show the<strong class="token-name"> YOU ARE</strong> token.<span class="reminder-mark"> '
     '<span class="reminder-glyph"',
     "Show the YOU ARE token. ◉"),
    ("Each night*, choose a player. Each night*, again.", "Each night*, choose a player. Each night*, again.",
     "Each night*, choose a player. Each night*, again."),
    ("*취함* 표식을 놓고 *표식*을 확인하세요.", '<strong class="token-name">취함</strong> 표식을 놓고'
     '<strong class="token-name"> 표식</strong>을', "취함 표식을 놓고 표식을 확인하세요."),
    ("매일 밤*, 1명을 고릅니다. <b>", "매일 밤*, 1명을 고릅니다. &lt;b&gt;", "매일 밤*, 1명을 고릅니다. <b>"),
])
def test_marks_become_typography(text, html, plain):
    assert str(escape(to_html(text))).startswith(html)  # escape: what the templates' autoescape does
    assert to_text(text) == plain
    joined = keep_words(text)  # sheets join Korean syllables with WORD JOINERs before the marks are read
    assert to_text(joined).replace("\u2060", "") == plain


def _raw_marks(html: str) -> list[str]:
    body = re.sub(r"<[^>]+>", " ", html[html.find("<body"):]).replace("\u2060", "")
    return [body[max(0, m.start() - 40):m.end() + 20] for m in RAW.finditer(body)]


def test_no_raw_mark_in_sheets_night_sheets_almanacs_or_text(official_ko):
    """Every WC25 script and every corpus script whose own texts carry marks, in English and in
    Korean, with the official pack (and its Korean test translation, which carries marks too);
    benchmarks/check_marks.py does the same for the whole corpus."""
    from scriptforge.scripts.analysis import analyse
    from scriptforge.render.almanac import almanac_view
    from scriptforge.render.pdf import Renderer
    from scriptforge.render.views import keep_korean_words, make_view
    from scriptforge.rules.night import night_order
    from scriptforge.text.scripts import night_text
    from scriptforge.scripts.script import read_script

    _, pack, _ = official_ko
    db = load_database(packs=[pack])
    files = sorted(shared_path("reference", "official", "wc25").glob("*/script.json"))
    files += [f for f in sorted(shared_path("reference", "scripts").glob("*.json"))
              if re.search(r":reminder:|\*[A-Z]", f.read_text(encoding="utf-8", errors="replace"))]
    assert len(files) >= 30
    renderer = Renderer()
    marked = 0
    for file in files:
        script = read_script(file, db)
        # the English sheet with its night pages; the Korean almanac, whose pages hold the sheet's
        # tables and every night reminder (one of each keeps the test quick)
        sheet = keep_korean_words(make_view(analyse(script, db), "en", "a4", back=True, night=True))
        book = keep_korean_words(almanac_view(analyse(script, db), "ko", "a4"))
        for lang, html in (("en", renderer.html(sheet, "sheet.html.j2")), ("ko", renderer.html(book, "almanac.html.j2"))):
            assert not _raw_marks(html), (file, lang, _raw_marks(html)[:3])
            marked += html.count('class="reminder-glyph"') + html.count('class="token-name"')
            text = night_text(night_order(script, db), db, lang)
            assert not RAW.search(text), (file, lang)
    assert marked > 500  # the marks were there, and became typography


def _line_texts(html: str, width: float, renderer) -> list[tuple[str, float]]:
    """(text, width) of each line of `html` laid out `width` CSS px wide, with the sheet's CSS and fonts."""
    from scriptforge.render.weasy import import_weasyprint

    page = f'<div style="width: {width}px; font-size: 12px">{html}</div>'
    document = import_weasyprint().HTML(string=page).render(font_config=renderer.fonts.bundled,
                                                           stylesheets=[renderer.templates.stylesheet])
    lines = [box for box in document.pages[0]._page_box.descendants() if type(box).__name__ == "LineBox"]
    return [("".join(getattr(b, "text", "") for b in line.descendants()),
             max(c.position_x + c.margin_width() for c in line.children) - line.position_x) for line in lines]


@pytest.mark.parametrize("text, mark", [
    ("Wake the target and show them the *THIS PLAYER IS* token.", "*"),
    ("The target chooses a player. :reminder: Put the target to sleep.", ":reminder:"),
])
def test_a_line_ending_at_the_space_before_a_mark_breaks_there(text, mark):
    """WeasyPrint 70 broke such a line after the paragraph's first word ("Wake" / "the target …");
    widths from where the words before the mark just fit to a space wider are tried."""
    from scriptforge.render.pdf import Renderer

    renderer = Renderer()
    before = text[:text.index(mark)].rstrip()
    (_, fits), = _line_texts(before, 2000, renderer)
    html = str(to_html(text))
    spaced = re.sub(r'<span class="reminder-mark"> (.*?</span>)</span>', r" \1", html)  # as it was written
    spaced = spaced.replace('<strong class="token-name"> ', ' <strong class="token-name">')
    widths = [fits + step / 4 for step in range(16)]
    first_words = [len(_line_texts(html, width, renderer)[0][0].split()) for width in widths]
    assert min(first_words) == len(before.split()), first_words
    assert any(len(_line_texts(spaced, width, renderer)[0][0].split()) == 1 for width in widths)
