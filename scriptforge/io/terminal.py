r"""What reaches the terminal: user text with its control characters shown, never obeyed.

A script name may hold an ANSI escape (`\x1b[2J` clears the screen), a carriage return, a C1
control or a bidirectional override; printed raw, the terminal would act on it. Text output shows
each such character escaped (`\x1b`); JSON output writes it as a `\u` escape, which is the
same JSON value, so nothing is lost for tools.
"""

import re
import unicodedata

# C0 controls but tab and newline, DEL and the C1 controls, the line and paragraph separators,
# bidirectional embeddings, overrides and isolates, and lone surrogates (which no terminal
# encoding can write: a file name that is not UTF-8, e.g. CP949 bytes from a Windows zip, holds
# one per byte that is not UTF-8; shown as the replacement character U+FFFD, as `ls` does).
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028-\u202e\u2066-\u2069\ud800-\udfff]")


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    if 0xD800 <= code <= 0xDFFF:  # a byte of a file name that is not UTF-8 (surrogateescape): shown as �
        return "\ufffd"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def safe_text(text: str) -> str:
    """Text for people: every unsafe character shown as its escape."""
    return _UNSAFE.sub(_escaped, text)


def safe_json(text: str) -> str:
    """JSON text (from json.dumps): every unsafe character as a `\\u` escape, the same value."""
    return _UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def display_width(text: str) -> int:
    """Columns `text` takes in a terminal: East Asian wide and fullwidth characters (Hangul, Han,
    kana) take two, combining marks none, everything else one."""
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
               for c in text)


def pad(text: str, width: int, align: str = "<") -> str:
    """`text` padded with spaces to `width` display columns (`<` left, `>` right aligned)."""
    fill = " " * max(0, width - display_width(text))
    return text + fill if align == "<" else fill + text


_hinted: set[str] = set()


def encodable(text: str, encoding: str | None) -> tuple[str, str | None]:
    """`text` as the terminal's `encoding` can write it: characters it has no code for become
    `?`, with a one-line hint the first time (None when nothing was replaced or already hinted)."""
    if not encoding:
        return text, None
    try:
        text.encode(encoding)
        return text, None
    except UnicodeEncodeError:
        pass
    except LookupError:
        return text, None
    shown = text.encode(encoding, errors="replace").decode(encoding, errors="replace")
    if encoding in _hinted:
        return shown, None
    _hinted.add(encoding)
    return shown, (f"Note: some characters cannot be shown in this terminal's encoding ({encoding}) and "
                   "were replaced by '?'; set PYTHONIOENCODING=utf-8 (or write to a file with -o) to see them.")
