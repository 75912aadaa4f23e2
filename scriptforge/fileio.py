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
"""

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
import json
import os
from pathlib import Path
import secrets
import time

from scriptforge.errors import InputError, ScriptforgeError

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


def atomic_write_bytes(path: Path | str, data: bytes, *, durable: bool = True) -> Path:
    """Replace the file `path` names (through any symlink) with `data` in one rename; returns it.

    `durable=False` skips the two fsyncs, for caches: still never half-written, but a power
    cut may lose the newest version.
    """
    target = real_path(path)
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


def same_file(a: Path | str, b: Path | str) -> bool:
    """True when two paths name one file (through symlinks and hard links)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return real_path(a) == real_path(b)


def refuse_to_overwrite(outputs: Iterable[Path | str], inputs: Iterable[Path | str]) -> None:
    """An InputError, before anything is written, when an output would replace an input."""
    sources = [source for source in inputs if str(source) != "-"]
    for out in outputs:
        for source in sources:
            if same_file(out, source):
                raise InputError(f"is the input {source}: writing there would replace it; choose another output",
                                 where=str(out))


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
                os.ftruncate(fd, 0)
                os.write(fd, f"{os.getpid()}\n".encode())
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
            target = real_path(path)
            pending.append((_write_temporary(target, data), target))
        if len(pending) > 1:
            journal = {"renames": [[os.path.relpath(tmp, root), os.path.relpath(target, root)]
                                   for tmp, target in pending]}
            atomic_write_text(root / JOURNAL, json.dumps(journal, ensure_ascii=False))
    except BaseException:
        for tmp, _ in pending:
            tmp.unlink(missing_ok=True)
        raise
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


def dump_yaml(data: object) -> str:
    import yaml

    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100000)


def dump_json(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
