"""The one reader of user files, and the guard every value read from them passes.

Scripts, homebrew YAML, official data files for packs, translation files (`l10n diff --against`),
PO files and almanac documents are all read here. Any problem is an InputError (exit code 2) in
one line that names the file and the place (a JSON pointer, or a YAML line and field):

- the file: not found, a folder, a FIFO or a device (only regular files and "-" are read), larger
  than MAX_BYTES (4 MiB; standard input too), unreadable, not UTF-8, a NUL character in the text;
- the syntax: not JSON / not YAML, nested deeper than any document scriptforge reads;
- the values: a lone surrogate escape ("\\ud800": not a character, it cannot be written out
  again), a NUL, NaN or Infinity, a number too large for a double (the official app is JavaScript
  and would read Infinity; a 5,000-digit integer also exceeds Python's int-to-text limit).

What passes can be written back as JSON or YAML unchanged: `assert_writable` (used by every
writer in scriptforge.io.fileio) refuses the same values, so no command writes NaN, Infinity or an
out-of-range number.
"""

from __future__ import annotations

from dataclasses import dataclass
import json
import math
import os
from pathlib import Path
import re
import stat
import sys
from typing import Any

from scriptforge.io.errors import InputError, place

MAX_BYTES = 4 * 1024 * 1024  # the largest user file read: 35x the largest real script (115 kB), 12x a full PO export;
# parsed, 4 MiB of JSON can still take ~100 MiB of Python objects (a list of 1.4 million {})
MAX_DEPTH = 64  # far deeper than any script, pack or homebrew file; deeper input only exhausts the stack
MAX_VALUES = 2_000_000  # YAML aliases can make a small file expand to billions of values
# characters in one text a translator or a homebrew author writes: 8x the longest text of the data
# (an overview, 1,286); the checks of `l10n check` grow with the square of a word's length
MAX_TEXT = 10_000
_BAD_CHARACTER = re.compile("[\0\ud800-\udfff]")
_MAX_DIGITS = 309  # a double holds at most ~1.8e308
# a FIFO opens without waiting for a writer (and is then refused); no terminal becomes ours
_OPEN_FLAGS = getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
# (device, inode) of every user file read -> (mtime, size) then: an inode a later file reuses is
# not the file that was read
_read_keys: dict[tuple[int, int], tuple[int, int]] = {}


@dataclass(frozen=True)
class Refused:
    """A number the parser met but scriptforge will not hold (kept as text to name it)."""

    text: str
    line: int | None = None


def _size(limit: int) -> str:
    return f"{limit // (1024 * 1024)} MiB" if limit >= 1024 * 1024 else f"{limit:,} bytes"


def _kind(mode: int) -> str:
    return ("a folder" if stat.S_ISDIR(mode) else "a FIFO (named pipe)" if stat.S_ISFIFO(mode) else
            "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode)
            else "not a regular file")


def read_bytes(path: str | Path, limit: int = MAX_BYTES) -> bytes:
    """The bytes of a user file ("-" is stdin); InputError in one wording for every kind of file.

    Only a regular file (or "-") is read, and at most `limit` bytes: a FIFO, a device such as
    /dev/zero or a folder is refused at once (the file is opened without waiting and checked
    before a byte is read), and so is a larger file or standard input. Each file read is
    remembered (`was_read`), so that no output of the same command replaces it.
    """
    label = str(path)
    if label == "-":
        try:
            data: bytes = sys.stdin.buffer.read(limit + 1)
        except (OSError, ValueError, AttributeError) as exc:
            raise InputError(f"cannot read standard input: {getattr(exc, 'strerror', None) or exc}") from None
        if len(data) > limit:
            raise InputError(f"standard input holds more than {_size(limit)}, more than any file "
                             f"scriptforge reads (the limit)", where=label)
        return data
    try:
        fd = os.open(path, os.O_RDONLY | _OPEN_FLAGS)
    except FileNotFoundError:
        raise InputError("file not found", where=label) from None
    except IsADirectoryError:
        raise InputError("is a folder, not a file", where=label) from None
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
        raise InputError(f"cannot read file: {getattr(exc, 'strerror', None) or exc}", where=label) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise InputError(f"is {_kind(info.st_mode)}, not a file", where=label)
        if info.st_size > limit:
            raise InputError(f"is {_size(info.st_size)}, larger than any file scriptforge reads "
                             f"(the limit is {_size(limit)})", where=label)
        _read_keys[(info.st_dev, info.st_ino)] = (info.st_mtime_ns, info.st_size)
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(limit + 1)
    except OSError as exc:
        raise InputError(f"cannot read file: {exc.strerror or exc}", where=label) from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise InputError(f"grew past {_size(limit)} while it was read (the limit)", where=label)
    return data


def file_key(path: str | Path) -> tuple[object, ...]:
    """What names one file whatever the path: (device, inode, and its modification time and size
    then) through symlinks and hard links; for a file that does not exist, its real path."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return ("path", os.path.realpath(path))
    return ("file", info.st_dev, info.st_ino, info.st_mtime_ns, info.st_size)


_RESERVED = {"CON", "PRN", "AUX", "NUL", *(f"{p}{n}" for p in ("COM", "LPT") for n in "123456789¹²³")}


def reserved_name(name: str) -> bool:
    """True for a file name Windows reserves (CON, NUL, COM1, LPT1…, with any extension): such a
    file cannot be opened, copied or deleted there."""
    return name.split(".")[0].rstrip(" ").upper() in _RESERVED


def was_read(key: tuple[object, ...]) -> bool:
    """True when this command has read the file `key` (see `file_key`) as a user file."""
    if key[0] != "file":
        return False
    dev, ino, mtime, size = key[1:5]
    return _read_keys.get((dev, ino), None) == (mtime, size)  # type: ignore[arg-type]


def forget_reads() -> None:
    """A new command begins (the CLI calls it): nothing read yet."""
    _read_keys.clear()


def decode(raw: bytes, label: str) -> str:
    """UTF-8 text (a byte order mark is dropped); no NUL characters."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text (byte {exc.start})", where=label) from None
    nul = text.find("\0")
    if nul >= 0:
        raise InputError("a NUL character in the text", where=f"{label}:{text.count(chr(10), 0, nul) + 1}")
    return text


def read_text(path: str | Path) -> str:
    """A user text file ("-" is stdin) as UTF-8 text."""
    return decode(read_bytes(path), str(path))


# -- JSON --------------------------------------------------------------------------------------


def _finite(value: int) -> bool:
    try:
        float(value)
    except OverflowError:
        return False
    return True


def _json_int(text: str) -> int | Refused:
    if len(text.lstrip("-")) > _MAX_DIGITS or not _finite(int(text)):
        return Refused(text)
    return int(text)


def _json_float(text: str) -> float | Refused:
    value = float(text)
    return value if math.isfinite(value) else Refused(text)


def parse_json(text: str, label: str) -> Any:
    """JSON text → data that passed the guard; InputError with the line or the JSON pointer."""
    refused = []  # the numbers the parser turned into Refused: none, in every script

    def integer(number: str) -> int | Refused:
        value = _json_int(number)
        if isinstance(value, Refused):
            refused.append(value)
        return value

    def floating(number: str) -> float | Refused:
        value = _json_float(number)
        if isinstance(value, Refused):
            refused.append(value)
        return value

    def constant(name: str) -> Refused:
        refused.append(Refused(name))
        return refused[-1]

    try:
        data = json.loads(text, parse_int=integer, parse_float=floating, parse_constant=constant)
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON: {exc.msg} (column {exc.colno})", where=f"{label}:{exc.lineno}") from None
    except RecursionError:
        raise InputError(f"JSON nested deeper than {MAX_DEPTH} levels", where=label) from None
    if not refused and _plain_strings(text) and len(text) <= MAX_VALUES and _shallow(data):
        return data  # nothing the guard refuses can be in it (see _plain_strings, _shallow)
    problem = first_problem(data)
    if problem is not None:
        steps, message = problem
        raise InputError(f"{place(steps)}: {message}", where=label)
    return data


_SURROGATE = re.compile("[\ud800-\udfff]")


def _plain_strings(text: str) -> bool:
    """Whether no string parsed from the JSON `text` can hold a NUL or a lone surrogate (what the
    guard refuses in strings): such a string comes from a `\\u` escape or from the same
    character in the text itself."""
    if "\\u" in text or "\0" in text:
        return False
    return text.isascii() or max(text, default="") < "\ud800" or _SURROGATE.search(text) is None


def _shallow(data: Any) -> bool:
    """Whether no value of `data` lies deeper than MAX_DEPTH (as `first_problem` counts: the
    path of a value is one step per container around it). Only containers are visited."""
    stack = [(data, 0)]
    while stack:
        node, depth = stack.pop()
        if not isinstance(node, (dict, list)) or not node:
            continue
        if depth >= MAX_DEPTH:
            return False
        for child in (node.values() if isinstance(node, dict) else node):
            if isinstance(child, (dict, list)):
                stack.append((child, depth + 1))
    return True


def read_json(path: str | Path) -> Any:
    """A user JSON file, parsed and guarded."""
    return parse_json(read_text(path), str(path))


# -- YAML --------------------------------------------------------------------------------------


def _yaml_loader() -> Any:
    # deferred: start-up time
    import yaml

    base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    class GuardedLoader(base):  # type: ignore[misc, valid-type]
        """Numbers the guard refuses become Refused(text, line) instead of nan, inf or a huge int."""

    def integer(loader: Any, node: Any) -> int | Refused:
        if sum(c.isdigit() for c in node.value) > 4 * _MAX_DIGITS:  # even binary: refuse before int() works
            return Refused(node.value, node.start_mark.line + 1)
        value = base.construct_yaml_int(loader, node)
        return value if _finite(value) else Refused(node.value, node.start_mark.line + 1)

    def floating(loader: Any, node: Any) -> float | Refused:
        value = base.construct_yaml_float(loader, node)
        return value if math.isfinite(value) else Refused(node.value, node.start_mark.line + 1)

    GuardedLoader.add_constructor("tag:yaml.org,2002:int", integer)
    GuardedLoader.add_constructor("tag:yaml.org,2002:float", floating)
    return GuardedLoader


_LOADER: Any = None


def parse_yaml(text: str, label: str) -> Any:
    """YAML text → data that passed the guard; InputError naming the line (and the field)."""
    global _LOADER
    # deferred: start-up time
    import yaml

    if _LOADER is None:
        _LOADER = _yaml_loader()
    try:
        data = yaml.load(text, Loader=_LOADER)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{label}:{mark.line + 1}" if mark else label
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise InputError(f"invalid YAML: {problem}", where=where) from None
    except RecursionError:
        raise InputError(f"YAML nested deeper than {MAX_DEPTH} levels", where=label) from None
    problem = first_problem(data)
    if problem is not None:
        steps, message = problem
        node = _at(data, steps)
        line = node.line if isinstance(node, Refused) and node.line else yaml_line(text, steps)
        field = ".".join(str(s) for s in steps) or "(top level)"
        raise InputError(f"field '{field}': {message}", where=f"{label}:{line}")
    return data


def read_yaml(path: str | Path) -> Any:
    """A user YAML file, parsed and guarded."""
    return parse_yaml(read_text(path), str(path))


def yaml_line(text: str, steps: list[str | int]) -> int:
    """The 1-based line of the node at `steps` in YAML text (the deepest node that exists)."""
    # deferred: start-up time
    import yaml

    try:
        node = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (yaml.YAMLError, RecursionError):
        return 1
    line = node.start_mark.line if node is not None else 0
    for step in steps:
        child = None
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                if key.value == str(step):
                    child, line = value, key.start_mark.line
                    break
        elif isinstance(node, yaml.SequenceNode) and isinstance(step, int) and step < len(node.value):
            child = node.value[step]
            line = child.start_mark.line
        if child is None:
            break
        node = child
    return line + 1


# -- the guard -----------------------------------------------------------------------------------


def _at(data: Any, steps: list[str | int]) -> Any:
    for step in steps:
        data = data[step]
    return data


def _show_number(text: str) -> str:
    return text if len(text) <= 24 else f"{text[:10]}…{text[-6:]} ({len(text.lstrip('-'))} digits)"


def value_problem(value: Any) -> str | None:
    """Why one value cannot be held or written out again, or None."""
    if isinstance(value, str):
        bad = _BAD_CHARACTER.search(value)
        if bad is None:
            return None
        if bad.group() == "\0":
            return f"a NUL character at character {bad.start() + 1}"
        return f"a lone surrogate escape \\u{ord(bad.group()):04x} at character {bad.start() + 1} (not a character)"
    if isinstance(value, Refused):
        if value.text in ("NaN", "Infinity", "-Infinity") or not value.text.lstrip("+-").replace("_", "").isdigit():
            return f"{_show_number(value.text)} is not a finite number (JSON has no NaN or Infinity)"
        return f"the number {_show_number(value.text)} is too large (the official app would read Infinity)"
    if isinstance(value, float) and not math.isfinite(value):
        return f"{value} is not a finite number (JSON has no NaN or Infinity)"
    if isinstance(value, int) and not isinstance(value, bool) and not _finite(value):
        return "the number is too large (the official app would read Infinity)"
    return None


def too_long(text: str, limit: int = MAX_TEXT) -> str | None:
    """Why a text is refused for its length, or None."""
    if len(text) <= limit:
        return None
    return f"the text is {len(text):,} characters long; at most {limit:,} (8 times the longest text of the data)"


def first_long_text(data: Any, limit: int = MAX_TEXT) -> tuple[list[str | int], str] | None:
    """The first string (depth first, in document order) longer than `limit`: (steps, why)."""
    stack: list[tuple[list[str | int], Any]] = [([], data)]
    while stack:
        steps, node = stack.pop()
        if isinstance(node, str):
            problem = too_long(node, limit)
            if problem:
                return steps, problem
        elif isinstance(node, dict):
            stack.extend((steps + [key], value) for key, value in reversed(list(node.items())))
        elif isinstance(node, list):
            stack.extend((steps + [i], value) for i, value in reversed(list(enumerate(node))))
    return None


def first_problem(data: Any) -> tuple[list[str | int], str] | None:
    """The first value (depth first, in document order) the guard refuses: (steps, why).

    A mapping's keys are checked before its values. Memory grows with the depth, not the size:
    one iterator per level and one path (a list of 2 million values once took 1.6 GB here)."""
    if not isinstance(data, (dict, list)):
        why = value_problem(data)
        return ([], why) if why is not None else None
    steps: list[str | int] = []
    bad_key = _bad_key(data, steps)
    if bad_key is not None:
        return bad_key
    stack = [iter(data.items()) if isinstance(data, dict) else enumerate(data)]
    visited = 1
    while stack:
        try:
            key, node = next(stack[-1])
        except StopIteration:
            stack.pop()
            if steps:
                steps.pop()
            continue
        visited += 1
        if visited > MAX_VALUES:
            return [*steps, key], f"more than {MAX_VALUES:,} values (YAML aliases expanding?)"
        if len(steps) + 1 > MAX_DEPTH:
            return [*steps, key][:MAX_DEPTH], f"nested deeper than {MAX_DEPTH} levels"
        if isinstance(node, (dict, list)):
            steps.append(key)
            bad_key = _bad_key(node, steps)
            if bad_key is not None:
                return bad_key
            stack.append(iter(node.items()) if isinstance(node, dict) else enumerate(node))
            continue
        why = value_problem(node)
        if why is not None:
            return [*steps, key], why
    return None


def _bad_key(node: Any, steps: list[str | int]) -> tuple[list[str | int], str] | None:
    """The first key of a mapping that the guard refuses, as `first_problem` reports it."""
    if isinstance(node, dict):
        for key in node:
            why = value_problem(key)
            if why is not None:
                return [*steps, str(key).encode("utf-8", "backslashreplace").decode()], f"in a key: {why}"
    return None


def check_option(option: str, value: Any) -> None:
    """A command-line value that becomes data (`--name`, `--author`, …) passes the same guard."""
    for item in value if isinstance(value, (list, tuple)) else [value]:
        why = value_problem(item)
        if why is not None:
            raise InputError(f"{option}: {why}")


def assert_writable(data: Any) -> None:
    """A writer's last check: a value the guard refuses is a bug in scriptforge, never written."""
    problem = first_problem(data)
    if problem is not None:
        steps, why = problem
        raise ValueError(f"refusing to write {place(steps)}: {why}")
