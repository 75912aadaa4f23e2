"""The one user cache: everything scriptforge can rebuild, checked before it is used.

ruff's cache is the model. ``<cache home>/scriptforge/`` (``$XDG_CACHE_HOME`` when it is an
absolute path, as the XDG Base Directory spec asks, else ``~/.cache``) holds a ``CACHEDIR.TAG``
(backup tools skip the folder) and one folder per kind of entry (`KINDS`). Every entry is one file:
`MAGIC`, the format version (`FORMAT`), a tag (Python's own bytecode magic for entries holding
code, zeros for data) and the sha256 of tag and payload, then the payload.

An entry is used only when all of this holds, else it is as if it were missing (rebuilt, and the
rebuilt entry replaces it): the root and the kind's folder are the user's own and writable by no
one else (else the kind is not used at all, with one warning per process: code or pickles from a
folder someone else can write would run as this user); the entry is a regular file (a FIFO or a
symlink is never opened: ``O_NOFOLLOW | O_NONBLOCK``), the user's own and writable by no one
else; its format, tag and checksum match. Entries are written whole (a temporary file and a
rename) and a write that fails (read-only or full disk) is skipped: a cache costs speed or saves
it, it never changes an output.

Entries unused for `MAX_AGE` and, past `MAX_BYTES` in all, the least recently used ones are
swept when a process that used the cache ends (a read refreshes an entry's time at most once a
day). ``scriptforge cache info`` and ``scriptforge cache clear`` show and empty the folder.
"""

from __future__ import annotations

import atexit
import errno
import hashlib
import importlib.util
import os
from pathlib import Path
import stat
import sys
import time

from scriptforge.io.errors import ScriptforgeError

FORMAT = 1
MAGIC = b"SFC\0"
DATA_TAG = b"\0\0\0\0"
CODE_TAG = importlib.util.MAGIC_NUMBER  # bytecode of another Python is never loaded
_HEADER = len(MAGIC) + 2 + 4 + 32
MAX_AGE = 30 * 24 * 3600  # seconds unused before an entry is swept
MAX_BYTES = 512 * 1024 * 1024  # the whole cache; past it the least recently used entries go
_TOUCH_AFTER = 24 * 3600  # a read marks an entry used when its time is older than this

#: Every kind of entry: its folder's name and what it holds (``cache info`` lists them all).
KINDS: dict[str, str] = {
    "database": "the checked character database and other games' rules, by the hash of their files",
    "official": "the official ids, teams and jinx pairs, checked against their schema",
    "validators": "the schema checks, generated once and kept as bytecode",
    "jinja": "the templates, compiled",
    "cffi": "WeasyPrint's C declarations, compiled once (cffi's out-of-line ABI module)",
    "fontconfig": "the fontconfig file naming only the bundled fonts, and fontconfig's own font cache",
    "images": "pictures of scripts fetched with --allow-network",
    "digests": "the hashes of data files, remembered by their size and times",
}

TAG_TEXT = ("Signature: 8a477f597d28d172789f06886806bc55\n"
            "# This file is a cache directory tag created by scriptforge.\n"
            "# For information about cache directory tags see https://bford.info/cachedir/\n")

_folders: dict[tuple[Path | None, str], Path | None] = {}
_warned: set[str] = set()
_state = {"used": False, "pid": 0}


class UnsafeCache(ScriptforgeError):
    """The cache folder belongs to someone else or others may write in it."""


def home() -> Path | None:
    """``<cache home>/scriptforge`` (None where there is no home to put it in)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # the XDG spec: a relative path is invalid and must be ignored
        try:
            base = str(Path.home() / ".cache")
        except (RuntimeError, KeyError):
            return None
    return Path(base) / "scriptforge"


def folder(kind: str) -> Path | None:
    """The folder of `kind`, made if need be, or None where it cannot be used (unsafe: warned
    once; not writable or no home: only slower)."""
    root = home()
    if (root, kind) in _folders:
        return _folders[root, kind]
    found = None
    if root is not None:
        try:
            _make(root, tag=True)
            _make(root / kind)
            found = root / kind
        except UnsafeCache as exc:
            _warn(str(exc))
        except OSError:
            pass
    _folders[root, kind] = found
    if found is not None and _state["pid"] != os.getpid():
        _state["pid"] = os.getpid()
        atexit.register(_sweep_at_exit, os.getpid())
    return found


def _make(path: Path, tag: bool = False) -> None:
    try:
        os.mkdir(path, 0o700)
        if tag:
            _write_whole(path / "CACHEDIR.TAG", TAG_TEXT.encode())
    except FileExistsError:
        pass
    except FileNotFoundError:
        os.makedirs(path.parent, 0o700, exist_ok=True)
        os.mkdir(path, 0o700)
        if tag:
            _write_whole(path / "CACHEDIR.TAG", TAG_TEXT.encode())
    problem = _unsafe(os.stat(path))
    if problem:
        raise UnsafeCache(f"{path}: the cache folder {problem}; working without it (slower, same output)")
    parent = os.stat(path.parent)
    if parent.st_mode & 0o002 and not parent.st_mode & stat.S_ISVTX:
        raise UnsafeCache(f"{path.parent}: anyone may rename the cache folder in it; working without it "
                          "(slower, same output)")


def _unsafe(info: os.stat_result) -> str:
    if info.st_uid != os.getuid():
        return f"belongs to another user (uid {info.st_uid})"
    if info.st_mode & 0o022:
        return "is writable by other users"
    return ""


def _warn(message: str) -> None:
    if message not in _warned:
        _warned.add(message)
        print(f"scriptforge: warning: {message}", file=sys.stderr)


def entry_path(kind: str, name: str) -> Path | None:
    place = folder(kind)
    return None if place is None else place / name


def read(kind: str, name: str, *, code: bool = False) -> bytes | None:
    """The payload of entry `name` of `kind`, or None (missing, not safe or damaged: rebuild it,
    and `write` replaces it). `code`: the entry holds bytecode of this Python."""
    path = entry_path(kind, name)
    if path is None:
        return None
    _state["used"] = True
    raw = _read_regular(path)
    if raw is None or len(raw) < _HEADER:
        return None
    version = int.from_bytes(raw[4:6], "big")
    tag, digest, payload = raw[6:10], raw[10:_HEADER], raw[_HEADER:]
    if raw[:4] != MAGIC or version != FORMAT or tag != (CODE_TAG if code else DATA_TAG) \
            or hashlib.sha256(tag + payload).digest() != digest:
        return None
    return payload


def _read_regular(path: Path) -> bytes | None:
    """The bytes of `path` if it is a regular file of this user that no one else may write."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
                     | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or _unsafe(info):
            return None
        if time.time() - info.st_mtime > _TOUCH_AFTER:
            try:
                os.utime(fd)  # used now: swept last
            except OSError:
                pass
        with os.fdopen(os.dup(fd), "rb") as handle:
            return handle.read()
    except OSError:
        return None
    finally:
        os.close(fd)


def write(kind: str, name: str, payload: bytes, *, code: bool = False) -> None:
    """Keep `payload` as entry `name` of `kind` (nothing happens where the cache cannot be written)."""
    path = entry_path(kind, name)
    if path is None:
        return
    _state["used"] = True
    tag = CODE_TAG if code else DATA_TAG
    header = MAGIC + FORMAT.to_bytes(2, "big") + tag + hashlib.sha256(tag + payload).digest()
    _write_whole(path, header + payload)


def read_text(kind: str, name: str) -> str | None:
    data = read(kind, name)
    try:
        return None if data is None else data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def write_text(kind: str, name: str, text: str) -> None:
    write(kind, name, text.encode("utf-8"))


def plain_file(kind: str, name: str, payload: bytes) -> Path | None:
    """A file holding exactly `payload`, for a reader that is not scriptforge's (fontconfig reads
    its configuration file itself): checked byte for byte against `payload` before each use and
    written again when it differs, or None where the cache cannot hold it."""
    path = entry_path(kind, name)
    if path is None:
        return None
    _state["used"] = True
    if _read_regular(path) != payload:
        _write_whole(path, payload)
        if _read_regular(path) != payload:
            return None
    return path


def _write_whole(path: Path, data: bytes) -> None:
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temporary, path)  # a FIFO, symlink or another user's file there is replaced, never followed
    except OSError as exc:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        if exc.errno not in (errno.ENOSPC, errno.EROFS, errno.EACCES, errno.EPERM, errno.EDQUOT, errno.EEXIST,
                             errno.ENOENT, errno.ENOTDIR, errno.EISDIR):
            raise


# -- what is in it, and sweeping ----------------------------------------------------------------


def entries(root: Path) -> list[tuple[str, Path, os.stat_result]]:
    """Every file under `root` (no symlink followed) with its kind: its first folder's name."""
    found = []
    for top, _, files in os.walk(root):
        kind = Path(top).relative_to(root).parts[:1]
        for file in files:
            path = Path(top) / file
            try:
                info = path.lstat()
            except OSError:
                continue
            found.append((kind[0] if kind else "", path, info))
    return found


def info() -> tuple[Path | None, dict[str, tuple[int, int]]]:
    """The cache's place and, per kind (every one of `KINDS`, and any other folder found), its
    entries and bytes."""
    root = home()
    sizes = {kind: (0, 0) for kind in KINDS}
    if root is not None and root.is_dir():
        for kind, _, information in entries(root):
            if kind:
                count, size = sizes.get(kind, (0, 0))
                sizes[kind] = (count + 1, size + information.st_size)
    return root, sizes


def clear() -> tuple[int, int]:
    """Remove every entry (the folder is made again by the next command): (files, bytes) removed."""
    root = home()
    if root is None or not root.is_dir():
        return 0, 0
    problem = _unsafe(root.stat())
    if problem:
        raise UnsafeCache(f"{root}: the cache folder {problem}; remove it yourself")
    # deferred: start-up time (shutil loads zlib, bz2 and lzma; only clearing needs it)
    import shutil

    found = entries(root)
    for child in root.iterdir():
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child, ignore_errors=True)
        else:
            try:
                child.unlink()
            except OSError:
                pass
    _folders.clear()
    return len(found), sum(information.st_size for _, _, information in found)


def sweep(now: float | None = None, limit: int | None = None) -> int:
    """Remove entries unused for `MAX_AGE`, then the least recently used ones until the cache
    holds at most `limit` (`MAX_BYTES`) bytes; the bytes freed."""
    root = home()
    if root is None or not root.is_dir() or _unsafe(root.stat()):
        return 0
    now = time.time() if now is None else now
    limit = MAX_BYTES if limit is None else limit
    found = sorted((information.st_mtime, information.st_size, path)
                   for kind, path, information in entries(root) if kind and path.name != "CACHEDIR.TAG")
    total = sum(size for _, size, _ in found)
    freed = 0
    for used, size, path in found:
        if used >= now - MAX_AGE and total - freed <= limit:
            break
        try:
            path.unlink()
            freed += size
        except OSError:
            pass
    return freed


def _sweep_at_exit(pid: int) -> None:
    if os.getpid() == pid and _state["used"]:  # not in forked workers
        try:
            sweep()
        except OSError:
            pass
