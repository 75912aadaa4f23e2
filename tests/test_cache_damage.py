"""A damaged user-cache entry costs time, never an output: each is checked before use and rebuilt."""

import hashlib
import os
from pathlib import Path
import subprocess
import sys

import pytest

from scriptforge.io.fileio import read_cache_bytes
from tests.conftest import EXAMPLES

EXAMPLE = str(EXAMPLES / "faith-trust-and-pixie-dust.json")


def _run(args: list[str], cache: Path, cwd: Path) -> subprocess.CompletedProcess:
    """scriptforge in a process of its own (what a process keeps in memory cannot hide the cache)."""
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    result = subprocess.run([sys.executable, "-m", "scriptforge", *args], capture_output=True, text=True,
                            cwd=cwd, env=env, timeout=300)
    assert "Traceback" not in result.stdout + result.stderr, result.stderr
    return result


def _damage(path: Path) -> bytes:
    """Three bytes in the middle of `path` changed; the damaged bytes."""
    data = bytearray(path.read_bytes())
    middle = len(data) // 2
    for i in range(middle, min(middle + 3, len(data))):
        data[i] ^= 0x55
    path.write_bytes(bytes(data))
    return bytes(data)


def _entries(cache: Path) -> list[Path]:
    return sorted(p for p in (cache / "scriptforge").rglob("*") if p.is_file() and p.stat().st_size > 0)


def test_a_damaged_database_entry_is_rebuilt_with_one_warning(tmp_path):
    cache = tmp_path / "cache"
    clean = _run(["show", "no_dashii"], cache, tmp_path)
    assert clean.returncode == 0 and clean.stderr == "", clean.stderr
    [entry] = (cache / "scriptforge" / "database").glob("*.pickle")
    damaged = _damage(entry)
    again = _run(["show", "no_dashii"], cache, tmp_path)
    assert again.returncode == 0 and again.stdout == clean.stdout
    [warning] = again.stderr.splitlines()
    assert warning.startswith("Warning: ") and entry.name in warning and "damaged" in warning, warning
    assert entry.read_bytes() != damaged and read_cache_bytes(entry) is not None  # rebuilt
    assert _run(["show", "no_dashii"], cache, tmp_path).stderr == ""
    # db check compares the entry with the data and replaces a damaged one
    _damage(entry)
    check = _run(["db", "check"], cache, tmp_path)
    assert check.returncode == 0, check.stderr
    assert f"cache: {entry}: its checksum does not match; replaced" in check.stdout, check.stdout
    assert read_cache_bytes(entry) is not None
    assert "cache:" not in _run(["db", "check"], cache, tmp_path).stdout


@pytest.mark.xfail(strict=False, reason="in one fresh-clone CI run after the print-defect merge the PDF after "
                   "damage differed from the clean one; passes in the checkout; the cause is not found yet")
def test_damaging_every_cache_entry_changes_no_output(tmp_path):
    cache = tmp_path / "cache"
    args = ["build", EXAMPLE, "--lang", "ko", "--back", "--night", "-o"]
    first = _run([*args, str(tmp_path / "clean.pdf")], cache, tmp_path)
    assert first.returncode == 0, first.stderr
    # the second run keeps what only a warm start writes (e.g. the dataclasses' compiled code)
    assert _run([*args, str(tmp_path / "warm.pdf")], cache, tmp_path).returncode == 0
    clean = (tmp_path / "clean.pdf").read_bytes()
    assert (tmp_path / "warm.pdf").read_bytes() == clean
    entries = _entries(cache)
    kinds = {p.relative_to(cache / "scriptforge").parts[0] for p in entries}
    assert {"database", "validators", "jinja", "cffi", "fontconfig", "digests", "dataclasses",
            "stylesheets"} <= kinds, kinds
    for entry in entries:
        _damage(entry)
    damaged = _run([*args, str(tmp_path / "damaged.pdf")], cache, tmp_path)
    assert damaged.returncode == 0, damaged.stderr
    [warning] = damaged.stderr.splitlines()  # the database's; the other kinds are rebuilt silently
    assert warning.startswith("Warning: ") and "database" in warning, damaged.stderr
    assert hashlib.sha256((tmp_path / "damaged.pdf").read_bytes()).digest() == hashlib.sha256(clean).digest()
    rebuilt = _run([*args, str(tmp_path / "rebuilt.pdf")], cache, tmp_path)
    assert rebuilt.returncode == 0 and rebuilt.stderr == "", rebuilt.stderr
    assert (tmp_path / "rebuilt.pdf").read_bytes() == clean
