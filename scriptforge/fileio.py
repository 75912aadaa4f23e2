"""Writing files so that nothing is ever half-written (a temporary file, then a rename); caches checked before use."""

import hashlib
import json
import os
from pathlib import Path
import tempfile

from scriptforge.userfiles import assert_writable

def _mode_for(path: Path) -> int:
    """Keep an existing file's permissions; a new file gets the usual 0666 less the umask."""
    try:
        return path.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def atomic_write_bytes(path: Path, data: bytes) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, _mode_for(path))
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def dump_yaml(data) -> str:
    """YAML of data the user-file guard would read back unchanged (never .nan, .inf or a huge number)."""
    import yaml

    assert_writable(data)
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100000)


def dump_json(data) -> str:
    """JSON of data the user-file guard would read back unchanged (never NaN, Infinity or a huge number)."""
    assert_writable(data)
    return json.dumps(data, ensure_ascii=False, indent=2, allow_nan=False) + "\n"


# -- caches: what scriptforge can rebuild is checked before use and rebuilt when damaged ------------

_CHECKSUM_PREFIX = "# sha256 "


def write_cache_text(path: Path, text: str) -> None:
    """Keep generated text (Python code) in the user cache, with a checksum line in front."""
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    try:
        atomic_write_text(path, f"{_CHECKSUM_PREFIX}{digest}\n{text}")
    except OSError:
        pass  # a read-only home only costs speed


def read_cache_text(path: Path) -> str | None:
    """The cached text, or None when it is missing or damaged (then the file is removed)."""
    try:
        first, _, text = Path(path).read_bytes().decode("utf-8").partition("\n")
    except (OSError, UnicodeDecodeError):
        text, first = "", ""
    if first == _CHECKSUM_PREFIX + hashlib.sha256(text.encode("utf-8")).hexdigest():
        return text
    Path(path).unlink(missing_ok=True)
    return None
