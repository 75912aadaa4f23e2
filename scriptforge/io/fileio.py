"""Writing files so that nothing is ever lost or half-written.

- `atomic_write_bytes`: a temporary file beside the real file (a symlink is followed, never
  replaced), flushed to disk, given the old file's permissions, renamed over it; the folder is
  flushed too. A reader sees the old bytes or the new ones, also after a crash or SIGKILL.
- `locked`: an advisory lock for a read-change-write (`fcntl.flock` on `.<name>.lock` beside the
  real file; where fcntl is missing, as on Windows, `msvcrt.locking` on the same file). Every
  scriptforge writer of a file takes it, so concurrent edits wait for each other instead of
  losing changes; the lock file is removed again.
- `write_files`: several files all or nothing, through a journal (see there).
- Temporaries are named `.<name>.<pid>-<random>.tmp`; the first write into a folder removes
  those of processes that no longer run (killed runs), so nothing is left behind.
- Outputs that are not regular files: a character device (`/dev/null`, a terminal) or a FIFO
  with a reader is written in place, never replaced; a FIFO without a reader, a socket, a
  block device or a folder is refused with one line. Every OSError of a write becomes one
  `WriteError` line naming the path (exit code 2; `writing`).
- `refuse_to_overwrite`: an output that is an input, a file this run read, an existing data
  file of a loaded data folder or pack, or another output of the same command is refused before
  anything is written (the files themselves are compared: device and inode, through symlinks
  and hard links).
- `dump_json`/`dump_yaml` refuse what the user-file guard refuses (NaN, Infinity, a number too
  large for a double, a lone surrogate): no command writes them.
- `files_digest`: the hash of files' bytes that keys the caches of what is read from them (kept
  in `io.cache`), read again only when a file's stat changed.
"""

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
import errno
import hashlib
import json
import os
from pathlib import Path
import secrets
import stat
import time
import sys

from scriptforge.io.errors import InputError, ScriptforgeError, WriteError
from scriptforge.io import cache
from scriptforge.io.userfiles import assert_writable, file_key, forget_reads, reserved_name, was_read

LOCK_TIMEOUT = 60.0  # seconds to wait for another writer before giving up
JOURNAL = ".scriptforge-journal.json"
_STALE_AGE = 24 * 3600.0  # where a process id cannot be checked (Windows): temporaries this old are stale

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]
    import msvcrt


def real_path(path: Path | str) -> Path:
    """The file a path names, every symlink followed (the file itself need not exist)."""
    return Path(os.path.realpath(path))


# -- one file ------------------------------------------------------------------------------------


def _mode_for(path: Path) -> int:
    """Keep an existing file's permissions; a new file gets the usual 0666 less the umask."""
    try:
        return path.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _temporary_path(target: Path) -> Path:
    """A fresh name beside `target` for a file that will be renamed over it."""
    _sweep_stale_temporaries(target.parent)
    return target.parent / f".{target.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp"


def _write_temporary(target: Path, data: bytes, durable: bool = True) -> Path:
    """`data` in a new temporary file beside `target` (on disk if `durable`), with `target`'s
    permissions."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = _temporary_path(target)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        os.chmod(tmp, _mode_for(target))
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return tmp


def fsync_folder(folder: Path) -> None:
    """Flush a folder's entries (a rename in it) to disk; not possible (nor needed) on Windows."""
    if os.name == "nt":
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # a file system that cannot flush a folder; the file itself is on disk
    finally:
        os.close(fd)


@contextmanager
def writing(path: Path | str) -> Iterator[None]:
    """Any OSError in the block becomes a WriteError naming `path` (one line, exit code 2)."""
    try:
        yield
    except WriteError:
        raise
    except OSError as exc:
        reason = _reason(exc, path)
        error = WriteError(f"cannot write: {reason}", where=str(path))
        error.strerror = reason  # what callers that word their own line (edit.py) show
        raise error from None


def _reason(exc: OSError, path: Path | str) -> str:
    if isinstance(exc, (FileExistsError, NotADirectoryError)):
        blocker = next((p for p in Path(path).parents if p.exists() and not p.is_dir()), None)
        if blocker is not None:
            return f"{blocker} is a file where a folder should be"
    reason = exc.strerror or str(exc) or type(exc).__name__
    other = exc.filename if isinstance(exc.filename, str) else None
    if other and not other.endswith(".tmp") and real_path(other) != real_path(path):
        reason += f" ({other})"
    return reason


def _special(target: Path, label: Path | str | None = None) -> str | None:
    """None for a regular file or a new one; "device" or "fifo" for one written in place; a
    WriteError for what is never written (a folder, a socket, a block device)."""
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        return None
    except OSError:
        return None  # e.g. a parent that is a file: the write itself says why
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISCHR(mode):
        return "device"
    if stat.S_ISFIFO(mode):
        return "fifo"
    kind = "a folder" if stat.S_ISDIR(mode) else "a socket" if stat.S_ISSOCK(mode) else \
        "a block device" if stat.S_ISBLK(mode) else "not a regular file"
    raise WriteError(f"is {kind}, not a file: nothing written", where=str(label or target))


def is_special(path: Path | str) -> bool:
    """True for an existing output that is written in place (a character device, a FIFO)."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return False
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)


def _write_in_place(target: Path, kind: str, data: bytes, label: Path | str) -> None:
    """Write into a character device or a FIFO without replacing it (never created, never truncated)."""
    flags = os.O_WRONLY | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    if kind == "fifo":
        try:
            fd = os.open(target, flags | getattr(os, "O_NONBLOCK", 0))
        except OSError as exc:
            if exc.errno == errno.ENXIO:
                raise WriteError("is a FIFO that nobody reads: nothing written", where=str(label)) from None
            raise
        os.set_blocking(fd, True)
    else:
        fd = os.open(target, flags)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)


def atomic_write_bytes(path: Path | str, data: bytes, *, durable: bool = True) -> Path:
    """Replace the file `path` names (through any symlink) with `data` in one rename; returns it.

    A character device or a FIFO is written in place (see `_special`). `durable=False` skips
    the two fsyncs, for caches: still never half-written, but a power cut may lose the newest
    version. Any OSError is a WriteError naming `path`.
    """
    with writing(path):
        target = real_path(path)
        kind = _special(target, path)
        if kind is not None:
            _write_in_place(target, kind, data, path)
            return target
        tmp = _write_temporary(target, data, durable)
        try:
            os.replace(tmp, target)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        if durable:
            fsync_folder(target.parent)
        return target


def atomic_write_text(path: Path | str, text: str, *, durable: bool = True) -> Path:
    return atomic_write_bytes(path, text.encode("utf-8"), durable=durable)


_data_roots: list[Path] = []  # the data folders and packs loaded in this process (`protect_data`)


def new_command() -> None:
    """Forget the files read and the data folders loaded by an earlier command in this process."""
    forget_reads()
    _data_roots.clear()


def protect_data(root: Path | str) -> None:
    """Mark a data folder (built-in data, a pack): no output of a command may replace a file in it."""
    real = real_path(root)
    if real not in _data_roots:
        _data_roots.append(real)


def _data_file(out: Path | str) -> Path | None:
    """The data folder holding the existing file `out`, or None."""
    target = real_path(out)
    if not target.is_file():
        return None
    return next((root for root in _data_roots if target.is_relative_to(root)), None)


def refuse_to_overwrite(outputs: Iterable[Path | str], inputs: Iterable[Path | str] = (),
                        edits: Iterable[Path | str] = ()) -> None:
    """An InputError, before anything is written, when an output would replace one of `inputs`,
    a file this run has read (`userfiles.was_read`), an existing file of a loaded data folder, or
    another of the outputs. `edits` are outputs the command updates in place on purpose (`import
    almanac` into a data folder): checked against `inputs` and the other outputs only. Standard
    input and output ("-") are skipped."""
    sources = {file_key(source): source for source in inputs if str(source) != "-"}
    seen: dict[tuple, Path | str] = {}
    for edit in edits:
        key = file_key(edit)
        if key in sources:
            raise InputError(f"is the input {sources[key]}: writing there would replace it; choose another output",
                             where=str(edit))
        seen[key] = edit
    for out in outputs:
        if str(out) == "-":
            continue
        if reserved_name(Path(out).name) and not is_special(out):
            raise InputError(f"'{Path(out).name}' is a name Windows reserves (a file it cannot open or copy); "
                             "choose another output name", where=str(out))
        key = file_key(out)
        if key in sources:
            raise InputError(f"is the input {sources[key]}: writing there would replace it; choose another output",
                             where=str(out))
        root = _data_file(out)
        if root is not None:
            raise InputError(f"is a data file of {root}: writing there would replace it; choose another output",
                             where=str(out))
        if was_read(key):
            raise InputError("is a file this command reads: writing there would replace it; choose another output",
                             where=str(out))
        if key in seen:
            raise InputError(f"is also where {seen[key]} goes: two outputs of one command in one file; "
                             "choose another output", where=str(out))
        seen[key] = out


def write_output(out: Path | str, data: bytes, inputs: Iterable[Path | str] = ()) -> Path | None:
    """A command's output file: "-" is standard output (returns None), anything else is checked by
    `refuse_to_overwrite` and written atomically (returns the file written)."""
    if str(out) == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return None
    refuse_to_overwrite([out], inputs)
    atomic_write_bytes(out, data)
    return Path(out)


# -- leftovers of killed runs --------------------------------------------------------------------

_swept: set[Path] = set()  # folders already swept by this process


def _sweep_stale_temporaries(folder: Path) -> None:
    """Remove the temporary files that processes which no longer run left in `folder`; once per
    folder and process."""
    if folder in _swept:
        return
    _swept.add(folder)
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        pid = _temporary_owner(name)
        if pid is None or pid == os.getpid() or _alive(pid, folder / name):
            continue
        try:
            (folder / name).unlink()
        except OSError:
            pass  # gone already, or a folder of that name: not ours


def _temporary_owner(name: str) -> int | None:
    """The process id in a temporary's name `.<target>.<pid>-<hex>.tmp`, else None."""
    if not (name.startswith(".") and name.endswith(".tmp")):
        return None
    owner, _, token = name[:-4].rpartition(".")[2].partition("-")
    return int(owner) if owner.isdigit() and len(token) == 8 else None


def _alive(pid: int, leftover: Path) -> bool:
    if os.name == "nt":  # os.kill would end the process there; judge by age instead
        try:
            return time.time() - leftover.stat().st_mtime < _STALE_AGE
        except OSError:
            return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


# -- locking -------------------------------------------------------------------------------------

# lock files this process holds -> how many `locked` blocks hold each (scriptforge writes from
# one thread; forked workers never write data files)
_held: dict[Path, int] = {}


def lock_file(path: Path | str, follow_symlinks: bool = True) -> Path:
    """The lock file of `path` (a file or a folder): `.<name>.lock` beside the real one (beside
    the link itself, when a writer replaces the link rather than what it points to)."""
    target = real_path(path) if follow_symlinks else real_path(Path(path).parent) / Path(path).name
    return target.parent / f".{target.name}.lock"


@contextmanager
def locked(path: Path | str, timeout: float = LOCK_TIMEOUT, *, follow_symlinks: bool = True) -> Iterator[None]:
    """Hold the advisory write lock of `path` for the block (re-entrant within a process).

    Waits up to `timeout` seconds for another writer, then raises a ScriptforgeError naming the
    process that holds it. A killed holder's lock is released by the system at once.
    """
    lock = lock_file(path, follow_symlinks)
    if lock in _held:
        _held[lock] += 1
        try:
            yield
        finally:
            _held[lock] -= 1
        return
    with writing(path):
        fd = _acquire(lock, timeout, str(path))
    _held[lock] = 1
    try:
        yield
    finally:
        del _held[lock]
        _release(lock, fd)


def _acquire(lock: Path, timeout: float, where: str) -> int:
    lock.parent.mkdir(parents=True, exist_ok=True)
    deadline = time.monotonic() + timeout
    pause = 0.002
    while True:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o666)
        if _try_lock(fd):
            if fcntl is None or _same_file(fd, lock):
                try:
                    os.ftruncate(fd, 0)
                    os.write(fd, f"{os.getpid()}\n".encode())
                except OSError:
                    pass  # a full disk: the lock holds without the holder's id
                return fd
            os.close(fd)  # the holder we waited for removed that lock file: lock the new one
            continue
        os.close(fd)
        if time.monotonic() > deadline:
            raise ScriptforgeError(f"another scriptforge process ({_holder(lock)}) is changing this; "
                                   "try again when it has finished", where=where)
        time.sleep(pause)
        pause = min(pause * 2, 0.05)


def _try_lock(fd: int) -> bool:
    """True if this process now holds the lock, False if another one does."""
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True
    try:
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    except OSError:  # locked by another process
        return False
    return True


def _same_file(fd: int, lock: Path) -> bool:
    try:
        return os.stat(lock).st_ino == os.fstat(fd).st_ino
    except FileNotFoundError:
        return False


def _release(lock: Path, fd: int) -> None:
    if fcntl is not None:
        lock.unlink(missing_ok=True)  # still held, so a waiter sees it gone and locks a new one
        os.close(fd)
        return
    os.lseek(fd, 0, os.SEEK_SET)
    msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
    os.close(fd)
    try:
        lock.unlink()  # fails while another process has it open, which is as it should be
    except OSError:
        pass


def _holder(lock: Path) -> str:
    try:
        pid = lock.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        pid = ""
    return f"process {pid}" if pid.isdigit() else "unknown process"


# -- several files -------------------------------------------------------------------------------


def write_files(files: Mapping[Path, bytes], root: Path) -> list[Path]:
    """Write several files all or nothing; returns the real paths written.

    Each file is first written to a temporary beside it. Then a journal listing the renames is
    put in place in `root` (one atomic write: the moment the change happens), the renames are
    done and the journal is removed. A run killed before the journal leaves the old files; one
    killed after it is finished by `finish_journal(root)`, which the database load and every
    writer run first. It holds `locked(root)` (callers that read before writing hold it already).
    """
    root = real_path(root)
    with locked(root):
        finish_journal(root)
        return _write_journaled(files, root)


def _write_journaled(files: Mapping[Path, bytes], root: Path) -> list[Path]:
    pending: list[tuple[Path, Path]] = []
    try:
        for path, data in files.items():
            with writing(path):
                target = real_path(path)
                if _special(target, path) is not None:
                    raise WriteError("is not a regular file: a data file is never written into a device or FIFO",
                                     where=str(path))
                pending.append((_write_temporary(target, data), target))
        if len(pending) > 1:
            journal = {"renames": [[os.path.relpath(tmp, root), os.path.relpath(target, root)]
                                   for tmp, target in pending]}
            atomic_write_text(root / JOURNAL, json.dumps(journal, ensure_ascii=False))
    except BaseException:
        for tmp, _ in pending:
            tmp.unlink(missing_ok=True)
        raise
    with writing(root):
        _rename_all(root, pending)
    return [target for _, target in pending]


def finish_journal(root: Path) -> bool:
    """Complete the renames of a multi-file write that was killed after its journal was written;
    True if there was one. Cheap when there is none (one failed open)."""
    journal = real_path(root) / JOURNAL
    if not journal.exists():
        return False
    with locked(root):
        try:
            renames = json.loads(journal.read_text(encoding="utf-8"))["renames"]
            pending = [(journal.parent / tmp, journal.parent / target) for tmp, target in renames]
        except FileNotFoundError:  # another process finished it while we waited
            return True
        except (ValueError, KeyError, TypeError):
            raise ScriptforgeError("the journal of an interrupted change is damaged; remove it to keep the "
                                   "files as they are", where=str(journal)) from None
        _rename_all(journal.parent, pending)
    return True


def _rename_all(root: Path, pending: list[tuple[Path, Path]]) -> None:
    for tmp, target in pending:
        if tmp.exists():
            os.replace(tmp, target)
    for folder in {target.parent for _, target in pending}:
        fsync_folder(folder)
    journal = root / JOURNAL
    if journal.exists():
        journal.unlink()
        fsync_folder(root)


# -- formats -------------------------------------------------------------------------------------


def dump_yaml(data: object, *, fast: bool = False) -> str:
    """YAML of data the user-file guard would read back unchanged (never .nan, .inf or a huge number).
    `fast`: libyaml's emitter where there is one, 4x faster (the same bytes on the whole official
    pack, which is what uses it: a pack's ~370 files)."""
    # deferred: start-up time
    import yaml

    assert_writable(data)
    dumper = getattr(yaml, "CSafeDumper", None) if fast else None
    if dumper is None:
        return yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100000)
    return yaml.dump(data, Dumper=dumper, allow_unicode=True, sort_keys=False, width=100000)


def dump_json(data: object) -> str:
    """JSON of data the user-file guard would read back unchanged (never NaN, Infinity or a huge number)."""
    assert_writable(data)
    return json.dumps(data, ensure_ascii=False, indent=2, allow_nan=False) + "\n"


def files_digest(paths: Iterable[Path], roots: Iterable[Path] = ()) -> str:
    """The sha256 (hex) of the names and bytes of `paths` in order (a path that is not a regular
    file counts by its name), remembered in the user cache under the files' stats: where no
    file's size, modification or change time (ns) changed, its bytes are taken as unchanged, as
    Python takes a module's for its bytecode, and nothing is read or hashed (~1 % of a cold build:
    the database's key covers every data and pack file). A file under one of `roots` is named by
    the root's place in `roots` and its path inside it, so the same files moved elsewhere give
    the same digest."""
    paths, roots = list(paths), [Path(root) for root in roots]
    stats: list[tuple] = [("roots", *map(str, roots))]
    for path in paths:
        try:
            info = path.stat()
            stats.append((str(path), info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino)
                         if stat.S_ISREG(info.st_mode) else (str(path), "special"))
        except OSError:
            stats.append((str(path), "missing"))
    remembered = hashlib.sha256(repr(stats).encode()).hexdigest()[:32]
    known = cache.read_text("digests", remembered)
    if known is not None and len(known) == 64:
        return known
    digest = hashlib.sha256()
    for path in paths:
        name = next((f"{index}:{path.relative_to(root).as_posix()}" for index, root in enumerate(roots)
                     if path.is_relative_to(root)), str(path)).encode()
        if not path.is_file():  # a FIFO or device: never read here
            digest.update(name + b"\0special\0")
            continue
        digest.update(name + b"\0" + path.read_bytes() + b"\0")
    cache.write_text("digests", remembered, digest.hexdigest())
    return digest.hexdigest()
