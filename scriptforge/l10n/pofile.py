"""gettext .po files, read strictly and written the way msgfmt -c wants them.

Our own small reader and writer instead of Babel or polib: both accept a damaged file (a `msgstr`
whose opening quote is missing is read with its first character cut off), and Babel flags texts
with braces as `python-brace-format`, which `msgfmt -c` then rejects. The reader refuses what
msgfmt refuses, naming the line; the writer flags nothing but `fuzzy`, keeps the previous source
of a fuzzy entry as `#| msgid`, and writes a complete header.

Only what scriptforge uses is supported: msgctxt, msgid, msgstr, translator (`#`), extracted
(`#.`), flag (`#,`) and previous (`#|`) comments. Plural entries are refused.
"""

from dataclasses import dataclass, field
import re

_ESCAPES = {"\\": "\\", '"': '"', "n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v"}
_QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"\s*$')
_HEADER_NAME = re.compile(r"[A-Za-z][A-Za-z0-9-]*")
_KEYWORD = re.compile(r'(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+(.*)$')


class PoSyntaxError(ValueError):
    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line = line


@dataclass
class Entry:
    """One entry of a .po file: msgctxt, msgid and msgstr, with its extracted comments, flags and previous source."""

    msgid: str
    msgstr: str = ""
    msgctxt: str | None = None
    comments: list[str] = field(default_factory=list)  # extracted comments (#.)
    flags: tuple[str, ...] = ()
    previous: str | None = None  # the source this translation was made from (#| msgid)
    line: int = 0  # where the entry's msgid is

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags


def _unquote(text: str, line: int) -> str:
    match = _QUOTED.fullmatch(text.strip())
    if not match:
        raise PoSyntaxError(line, f"a string must be in double quotes: {text.strip()[:40]!r}")
    out, chars, i = [], match.group(1), 0
    while i < len(chars):
        char = chars[i]
        if char == "\\":
            escaped = chars[i + 1]
            if escaped not in _ESCAPES:
                raise PoSyntaxError(line, f"invalid escape sequence \\{escaped}")
            out.append(_ESCAPES[escaped])
            i += 2
        else:
            out.append(char)
            i += 1
    return "".join(out)


def _previous(rest: str, number: int, pending: dict) -> None:
    """One `#|` line (the previous source of a fuzzy entry) into `pending`, as strictly as msgfmt."""
    match = _KEYWORD.match(rest)
    if match and match.group(1) in ("msgid", "msgctxt"):
        key = "previous" if match.group(1) == "msgid" else "previous_context"
        pending[key] = _unquote(match.group(2), number)
        pending["previous_last"] = key
        pending.setdefault("previous_line", number)
    elif rest.startswith('"') and pending.get("previous_last"):
        pending[pending["previous_last"]] += _unquote(rest, number)
    else:
        raise PoSyntaxError(number, f"a #| line that is no previous msgctxt, msgid or their continuation: {rest[:40]!r}")


def _obsolete(rest: str, number: int, open_line: int) -> int:
    """Check one `#~` line (an obsolete entry, otherwise ignored, as msgfmt does); the line of an
    obsolete msgid still waiting for its msgstr (0: none)."""
    match = _KEYWORD.match(rest)
    if match:
        _unquote(match.group(2), number)
        if match.group(1) == "msgstr":
            return 0
        return number if match.group(1) == "msgid" else open_line
    if rest.startswith('"'):
        _unquote(rest, number)
        return open_line
    raise PoSyntaxError(number, f"an obsolete (#~) line that is not a .po line: {rest[:40]!r}")


def read(raw: bytes) -> tuple[dict[str, str], list[Entry]]:
    """(header fields, entries) of a .po file; PoSyntaxError with the line on anything msgfmt rejects."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PoSyntaxError(raw[: exc.start].count(b"\n") + 1, "not UTF-8 text (the .po file must be saved as UTF-8)") from None
    if text.startswith("\ufeff"):
        raise PoSyntaxError(1, "a byte order mark (BOM) at the start of the file; save it as UTF-8 without BOM")
    entries: list[Entry] = []
    seen: dict[tuple[str | None, str], int] = {}
    pending: dict = {}  # comments, flags and previous msgid collected for the next entry
    current: dict | None = None  # the entry being read: keyword -> [value parts], "line"
    last: str | None = None  # the keyword a continuation string belongs to
    obsolete_open = 0  # the line of an obsolete (#~) msgid still waiting for its msgstr

    def finish() -> None:
        nonlocal current, last
        if current is None:
            return
        if "msgid" not in current:
            raise PoSyntaxError(current["line"], "msgstr or msgctxt without a msgid")
        if "msgstr" not in current:
            raise PoSyntaxError(current["msgid_line"], "msgid without a msgstr")
        key = (current.get("msgctxt"), current["msgid"])
        if key in seen:
            raise PoSyntaxError(current["msgid_line"], f"duplicate entry (first at line {seen[key]})")
        seen[key] = current["msgid_line"]
        entries.append(Entry(current["msgid"], current["msgstr"], current.get("msgctxt"), current["comments"],
                             current["flags"], current.get("previous"), current["msgid_line"]))
        current, last = None, None

    for number, raw_line in enumerate(text.split("\n"), 1):
        stripped = raw_line.strip()
        if not stripped:
            continue
        if not stripped.startswith("#~") and obsolete_open:
            raise PoSyntaxError(obsolete_open, "an obsolete entry (#~) with a msgid and no msgstr")
        if stripped in ("#|", "#~"):
            continue  # empty: msgfmt lets them through anywhere, even inside an entry
        if stripped.startswith("#"):
            if current is not None and "msgstr" in current:
                finish()
            if current is not None:
                raise PoSyntaxError(number, "a comment inside an entry (comments go before its msgctxt or msgid)")
            rest = stripped[2:].strip()
            if stripped.startswith("#,"):
                pending.setdefault("flags", []).extend(f.strip() for f in stripped[2:].split(",") if f.strip())
            elif stripped.startswith("#."):
                pending.setdefault("comments", []).append(stripped[2:].strip())
            elif stripped.startswith("#|") and rest:
                _previous(rest, number, pending)
            elif stripped.startswith("#~") and rest:
                obsolete_open = _obsolete(rest, number, obsolete_open)
            continue
        if stripped.startswith('"'):
            if current is None or last is None:
                raise PoSyntaxError(number, "a string with no msgid, msgstr or msgctxt before it")
            current[last] += _unquote(stripped, number)
            continue
        match = _KEYWORD.match(stripped)
        if not match:
            raise PoSyntaxError(number, f"not a .po line: {stripped[:40]!r}")
        keyword, rest = match.groups()
        if keyword == "msgid_plural" or keyword.startswith("msgstr["):
            raise PoSyntaxError(number, "plural entries are not used by scriptforge")
        if keyword in ("msgctxt", "msgid") and current is not None and "msgstr" in current:
            finish()
        if current is None:
            if pending.get("previous_context") is not None and pending.get("previous") is None:
                raise PoSyntaxError(number, "a previous msgctxt (#|) without a previous msgid")
            current = {"line": number, "comments": pending.get("comments", []),
                       "flags": tuple(pending.get("flags", ())), "previous": pending.get("previous")}
            pending = {}
        if keyword in current and keyword != "line":
            raise PoSyntaxError(number, f"a second {keyword} in one entry")
        if keyword == "msgctxt" and "msgid" in current:
            raise PoSyntaxError(number, "msgctxt after msgid")
        if keyword == "msgstr" and "msgid" not in current:
            raise PoSyntaxError(number, "msgstr without a msgid")
        current[keyword] = _unquote(rest, number)
        if keyword == "msgid":
            current["msgid_line"] = number
        last = keyword
    finish()
    if obsolete_open:
        raise PoSyntaxError(obsolete_open, "an obsolete entry (#~) with a msgid and no msgstr")
    if pending.get("previous") is not None or pending.get("previous_context") is not None:
        raise PoSyntaxError(pending["previous_line"], "a previous msgid or msgctxt (#|) with no entry after it")
    header: dict[str, str] = {}
    if entries and entries[0].msgid == "" and entries[0].msgctxt is None:
        head = entries.pop(0)
        for item in head.msgstr.split("\n"):
            name, sep, value = item.partition(":")
            if not item.strip():
                continue
            if not sep or not _HEADER_NAME.fullmatch(name):
                raise PoSyntaxError(head.line, f"the header has a line that is not 'Name: value': {item[:40]!r}")
            header[name] = value.strip()
    for entry in entries:
        if entry.msgid == "":
            raise PoSyntaxError(entry.line, "an empty msgid is only allowed for the header")
    return header, entries


def _quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t").replace("\r", "\\r")
    if "\n" not in escaped.rstrip("\n") or escaped == "":
        return '"' + escaped.replace("\n", "\\n") + '"'
    lines = escaped.split("\n")
    parts = [line + "\\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])
    return '""\n' + "\n".join(f'"{part}"' for part in parts)


def write(header: dict[str, str], entries: list[Entry], header_comment: str = "") -> bytes:
    """A .po file: `header_comment` (each line as a `#` comment), the header entry, the entries."""
    out = [f"# {line}".rstrip() for line in header_comment.splitlines()]
    out += ['msgid ""', 'msgstr ""', *(_quote(f"{name}: {value}\n") for name, value in header.items()), ""]
    for entry in entries:
        out += [f"#. {comment}" for comment in entry.comments]
        if entry.flags:
            out.append("#, " + ", ".join(entry.flags))
        if entry.previous is not None and entry.fuzzy:
            out.append(f"#| msgid {_quote(entry.previous)}".replace("\n", "\n#| "))
        if entry.msgctxt is not None:
            out.append(f"msgctxt {_quote(entry.msgctxt)}")
        out += [f"msgid {_quote(entry.msgid)}", f"msgstr {_quote(entry.msgstr)}", ""]
    return "\n".join(out).encode("utf-8")
