"""The user cache (scriptforge.io.cache): a damaged, foreign, full or read-only cache costs speed,
never an output; `cache info` and `cache clear`; entries swept by age and size."""

import hashlib
import json
import shutil
import os
from pathlib import Path
import subprocess
import sys
import time

import pytest

from scriptforge.cli import main
from scriptforge.io import cache

from .conftest import EXAMPLES

FTPD = EXAMPLES / "faith-trust-and-pixie-dust.json"
OTHER_UID = 54321

# Every command form below in one process (as a user would run them one after another, but
# paying for the interpreter once): what each printed, its exit code, and the PDF's sha256.
DRIVER = """
import hashlib, json, sys
from pathlib import Path
from click.testing import CliRunner
from scriptforge.cli import main
out = Path(sys.argv[1])
runner = CliRunner()
said = []
for args in (["build", sys.argv[2], "--night", "-o", str(out / "sheet.pdf")], ["validate", sys.argv[2]],
             ["show", "imp", "--lang", "ko"], ["export", sys.argv[2], "-o", str(out / "export.json")],
             ["db", "check"], ["almanac", sys.argv[2], "-o", str(out / "almanac.html"), "--format", "html"]):
    result = runner.invoke(main, args)
    said.append([args[0], result.exit_code, result.stdout.replace(str(out), "OUT")])
    sys.__stderr__.write(result.stderr)
said.append(hashlib.sha256((out / "sheet.pdf").read_bytes()).hexdigest())
said.append((out / "export.json").read_text(encoding="utf-8"))
print(json.dumps(said))
"""


def _run(home: Path, out: Path) -> tuple[list, str]:
    out.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "XDG_CACHE_HOME": str(home)}
    result = subprocess.run([sys.executable, "-c", DRIVER, str(out), str(FTPD)], capture_output=True, text=True,
                            env=env, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    return json.loads(result.stdout), result.stderr


# the tests share the cache the `clean` fixture fills: one worker runs them all
pytestmark = pytest.mark.xdist_group("cache")


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    """The outputs with a cache filled by a first run, the cache home it filled (the entries a run
    uses depend on where the cache is: fontconfig's file names its folder) and a copy of the
    entries the runs left there, to copy from (no test changes it)."""
    home = tmp_path_factory.mktemp("clean")
    first, _ = _run(home, home / "out1")
    second, _ = _run(home, home / "out2")
    assert first == second
    entries = tmp_path_factory.mktemp("clean-entries") / "scriptforge"
    shutil.copytree(home / "scriptforge", entries, symlinks=True)
    return first, home, entries


def _files(home: Path) -> list[Path]:
    root = home / "scriptforge"
    return sorted(path for path in root.rglob("*") if path.is_file() and path.name != "CACHEDIR.TAG"
                  and "cache" not in path.relative_to(root).parts[1:])  # fontconfig's own font cache is its own


def _copy(source: Path, target: Path) -> None:
    target.mkdir(parents=True, exist_ok=True)
    for path in sorted(source.rglob("*")):
        if path.is_dir() and not path.is_symlink():
            (target / path.relative_to(source)).mkdir(parents=True, exist_ok=True)
        elif path.is_file():
            (target / path.relative_to(source)).write_bytes(path.read_bytes())
    for folder in [target, *target.rglob("*")]:
        if folder.is_dir():
            folder.chmod(0o700)


def _changed_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x40
    path.write_bytes(bytes(data))


def _other_python(path: Path) -> None:
    """The entry as another Python would write it (its own bytecode magic, a checksum that matches)."""
    data = path.read_bytes()
    if data[:4] != cache.MAGIC:  # the fontconfig file is plain text: another Python's bytes instead
        path.write_bytes(b"\x55\x0d\x0d\x0a" + data[4:])
        return
    tag, payload = (3413).to_bytes(2, "little") + b"\r\n", data[42:]
    path.write_bytes(data[:6] + tag + hashlib.sha256(tag + payload).digest() + payload)


def _fifo(path: Path) -> None:
    path.unlink()
    os.mkfifo(path)


def _symlink(path: Path) -> None:
    elsewhere = path.parent.parent.parent / f"elsewhere-{path.name}"
    elsewhere.write_bytes(path.read_bytes())
    path.unlink()
    path.symlink_to(elsewhere)


def _other_owner(path: Path) -> None:
    os.chown(path, OTHER_UID, OTHER_UID)


DAMAGES = {
    "a changed byte": _changed_byte,
    "truncated": lambda path: path.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 2]),
    "zero-filled": lambda path: path.write_bytes(bytes(len(path.read_bytes()))),
    "another Python's": _other_python,
    "a FIFO": _fifo,
    "a symlink": _symlink,
    "another owner": _other_owner,
}


@pytest.mark.parametrize("damage", DAMAGES)
def test_every_kind_of_entry_damaged_gives_the_same_outputs_and_is_rebuilt(clean, tmp_path, damage):
    if damage == "another owner" and os.getuid() != 0:
        pytest.skip("changing a file's owner needs root")
    outputs, home, filled = clean
    # the entries in use: those the clean runs left in this cache home (as a first run here would
    # fill it), put back whole, since the test before may have damaged them
    shutil.rmtree(home / "scriptforge")
    shutil.copytree(filled, home / "scriptforge", symlinks=True)
    entries = _files(home)
    kinds = {path.relative_to(home / "scriptforge").parts[0] for path in entries}
    assert kinds == set(cache.KINDS) - {"images"}  # images: tests/test_icons.py (a damaged one is not used)
    for path in entries:
        DAMAGES[damage](path)
    again, stderr = _run(home, tmp_path / "out")
    assert again == outputs
    assert "warning" not in stderr  # an entry is only rebuilt; a folder of someone else's is warned of
    for path in _files(home):  # rebuilt: every entry is a regular file of this user again
        info = path.lstat()
        assert path.is_file() and not path.is_symlink() and info.st_uid == os.getuid(), path


@pytest.mark.skipif(os.getuid() != 0, reason="making a folder another user's needs root")
def test_a_cache_folder_of_another_user_is_never_used_and_said_once(clean, tmp_path):
    outputs, _, filled = clean
    _copy(filled, tmp_path / "scriptforge")
    for kind in cache.KINDS:
        folder = tmp_path / "scriptforge" / kind
        folder.mkdir(exist_ok=True)
        for path in folder.iterdir():
            if path.is_file():
                _changed_byte(path)  # would break an output if it were read
        os.chown(folder, OTHER_UID, OTHER_UID)
    again, stderr = _run(tmp_path, tmp_path / "out")
    assert again == outputs
    warnings = [line for line in stderr.splitlines() if "warning" in line]
    assert len(warnings) == len(set(warnings)) and all("another user (uid 54321)" in line for line in warnings)
    assert warnings, stderr
    os.chown(tmp_path / "scriptforge", OTHER_UID, OTHER_UID)  # the whole cache
    again, stderr = _run(tmp_path, tmp_path / "out-root")
    assert again == outputs and stderr.count("another user") == 1


def test_a_folder_others_may_write_in_is_never_used(clean, tmp_path):
    outputs, _, filled = clean
    _copy(filled, tmp_path / "scriptforge")
    (tmp_path / "scriptforge").chmod(0o777)
    again, stderr = _run(tmp_path, tmp_path / "out")
    assert again == outputs
    assert "writable by other users" in stderr


def test_a_relative_xdg_cache_home_is_ignored(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", "relative")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache.home() == tmp_path / "home" / ".cache" / "scriptforge"
    cache.write("digests", "x", b"y")
    assert not (tmp_path / "relative").exists()
    assert cache.read("digests", "x") == b"y"


def test_a_read_only_cache_only_costs_speed(clean, tmp_path):
    outputs, _, _ = clean
    (tmp_path / "ro").mkdir(mode=0o500)
    again, stderr = _run(tmp_path / "ro", tmp_path / "out")
    assert again == outputs and stderr == ""


def test_cache_info_lists_every_kind_and_clear_empties_it(runner, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert runner.invoke(main, ["show", "imp"]).exit_code == 0
    info = runner.invoke(main, ["cache", "info", "--format", "json"])
    assert info.exit_code == 0, info.output
    shown = json.loads(info.stdout)
    assert shown["path"] == str(tmp_path / "scriptforge")
    assert [kind["kind"] for kind in shown["kinds"]] == list(cache.KINDS)
    assert {kind["kind"] for kind in shown["kinds"] if kind["entries"]} >= {"database", "digests"}
    text = runner.invoke(main, ["cache", "info"]).stdout
    assert all(f"  {kind} " in text for kind in cache.KINDS)
    assert (tmp_path / "scriptforge" / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f597d28d172789f06886806bc55")
    cleared = runner.invoke(main, ["cache", "clear"])
    assert cleared.exit_code == 0 and cleared.stdout.startswith("removed ")
    assert list((tmp_path / "scriptforge").iterdir()) == []
    after = runner.invoke(main, ["show", "imp"])
    assert after.exit_code == 0 and "Imp" in after.stdout
    assert runner.invoke(main, ["cache", "clear"]).exit_code == 0


def test_a_cache_past_its_cap_shrinks_on_the_next_run_oldest_first(clean, tmp_path):
    _, _, filled = clean
    _copy(filled, tmp_path / "scriptforge")
    images = tmp_path / "scriptforge" / "images"
    images.mkdir(exist_ok=True)
    now = time.time()
    for index, age in enumerate((3, 2, 1)):  # days since each was used; sparse: no disk used
        with open(images / f"big{index}", "wb") as handle:
            handle.truncate(cache.MAX_BYTES // 2)
        os.utime(images / f"big{index}", (now - age * 86400, now - age * 86400))
    stale = tmp_path / "scriptforge" / "digests" / "unused"
    stale.write_bytes(b"x")
    os.utime(stale, (now - 31 * 86400, now - 31 * 86400))
    _run(tmp_path, tmp_path / "out")
    assert sorted(path.name for path in images.iterdir()) == ["big2"]  # the used longest ago went first
    assert not stale.exists()
    assert sum(path.stat().st_size for path in (tmp_path / "scriptforge").rglob("*") if path.is_file()) <= cache.MAX_BYTES


def test_a_moved_data_folder_keeps_its_database_entry(tmp_path, monkeypatch):
    from scriptforge.db.loading import load_database
    from scriptforge.io.paths import DATA_DIR

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    shutil.copytree(DATA_DIR, tmp_path / "here")
    first = load_database(tmp_path / "here")
    entries = sorted((tmp_path / "cache" / "scriptforge" / "database").iterdir())
    (tmp_path / "here").rename(tmp_path / "there")
    moved = load_database(tmp_path / "there")
    assert sorted((tmp_path / "cache" / "scriptforge" / "database").iterdir()) == entries  # read, not rebuilt
    assert moved.characters == first.characters
    assert moved.data_dir == tmp_path / "there"  # where a translator's confirm writes
    changed = next((tmp_path / "there").rglob("*.yaml"))
    changed.write_text(changed.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    load_database(tmp_path / "there")
    assert len(list((tmp_path / "cache" / "scriptforge" / "database").iterdir())) == len(entries) + 1


def test_db_check_replaces_a_damaged_database_entry_and_says_so(tmp_path):
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}

    def db_check() -> str:
        result = subprocess.run([sys.executable, "-m", "scriptforge", "db", "check"], capture_output=True,
                                text=True, env=env, timeout=300)
        assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
        return result.stdout

    assert "cache:" not in db_check()  # the first run makes the entry; a missing one is no problem
    [entry] = (tmp_path / "scriptforge" / "database").glob("database-*")
    _changed_byte(entry)
    assert f"cache: {entry}: its checksum does not match; replaced" in db_check()
    assert "cache:" not in db_check()
