r"""What reaches the terminal: user text with its control characters shown, never obeyed.

A script name may hold an ANSI escape (`\x1b[2J` clears the screen), a carriage return, a C1
control or a bidirectional override; printed raw, the terminal would act on it. Text output shows
each such character escaped (`\x1b`); JSON output writes it as a `\u` escape, which is the
same JSON value, so nothing is lost for tools.
"""

import re

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
