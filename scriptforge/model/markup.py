"""The official texts' markup, turned into typography.

The official data files (roles.json's night reminders, and scripts made with the official tools)
use exactly two marks; a search of every text of roles.json, jinxes.json, the WC25 scripts and the
reference corpus finds no others:

- `:reminder:` — "place a reminder token here": printed as a small token glyph (a circle drawn
  in CSS, so no font needs a glyph for it), in plain text as `◉`;
- `*WORD*` — a reminder or info token's name (`*KNOW*`, `*YOU ARE*`): printed bold, in plain
  text without the asterisks.

An asterisk after a word (`Each night*`, "not the first night") is not a mark: an opening `*`
never follows a letter, a closing one is never followed by one. JSON output and `export` keep the
marks as they are (the official format).
"""

import re

from markupsafe import Markup, escape

REMINDER = ":reminder:"
TEXT_GLYPH = "◉"
# A WORD JOINER (U+2060, which sheets put between Korean syllables) next to a mark counts as nothing;
# a Korean particle may follow the closing asterisk (`*취함*을`).
_BOLD = re.compile("(?<![\\w*])(?<![\\w*]\u2060)\\*(?=\u2060?[^\\s*\u2060])([^*\n]*?[^\\s*])\\*(?!\u2060?[A-Za-z0-9_*])")
_REMINDER = re.compile(re.escape(REMINDER))
_SPACED_GLYPH = re.compile(r'[ \t\n]+(<span class="reminder-glyph"[^>]*></span>)')
_SPACED_NAME = re.compile(r'[ \t\n]+(<strong class="token-name">)')


def has_marks(text: str) -> bool:
    return REMINDER in text or bool(_BOLD.search(text))


def to_html(text: str | None) -> Markup | str | None:
    """The text, HTML-escaped, with the marks as elements (`templates` use it as the `marks` filter),
    without trailing white space (a language tag may follow it, with no space of its own).

    The space before a mark goes inside the mark's element (the glyph gets an inline wrapper to
    hold it): WeasyPrint 70 breaks a paragraph after its first word where a line has to end at a
    space that stands before an inline element."""
    if not text:
        return text
    if not has_marks(text):
        return text.rstrip()
    html = str(escape(text.rstrip()))
    html = _REMINDER.sub('<span class="reminder-glyph" role="img" aria-label="reminder"></span>', html)
    html = _BOLD.sub(r'<strong class="token-name">\1</strong>', html)
    html = _SPACED_GLYPH.sub(r'<span class="reminder-mark"> \1</span>', html)
    html = _SPACED_NAME.sub(r'\1 ', html)
    return Markup(html)


def to_text(text: str | None) -> str | None:
    """The text for a terminal: `◉` for the reminder mark, token names without asterisks."""
    if not text or not has_marks(text):
        return text
    return _BOLD.sub(r"\1", _REMINDER.sub(TEXT_GLYPH, text))
