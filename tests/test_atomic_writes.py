"""Edits that never lose data: the lock, atomic writes through symlinks, all-or-nothing
multi-file writes, concurrent edits and writers killed with SIGKILL at random points.

The concurrent and killed writers are processes forked from this one (no interpreter start, no
import, no database load per process), which keeps hundreds of them within a few seconds. Their
files live on a RAM disk where there is one (/dev/shm), so that fsync, which a kill cannot undo
anyway, costs nothing; the code that runs is the same.
"""

from io import BytesIO
import json
import os
from pathlib import Path
import random
import shutil
import signal
import sys
import tempfile
import time
import traceback

import pytest

from scriptforge.cli import main
from scriptforge.db.loading import load_database
from scriptforge.scripts.edit import add_characters, remove_characters
from scriptforge.io.errors import ScriptforgeError
from scriptforge.io.fileio import JOURNAL, atomic_write_text, finish_journal, locked, write_files

from .conftest import EXAMPLES, SEED_FILES, SEEDS

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the concurrency tests fork processes")


@pytest.fixture
def scratch(tmp_path):
    """A fresh folder, on the RAM disk where there is one."""
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        return tmp_path
    folder = Path(tempfile.mkdtemp(dir=shm, prefix="scriptforge-test-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def _next_run(monkeypatch) -> None:
    """As in a new process: folders are swept of what killed runs left on their first write."""
    import scriptforge.io.fileio as fileio

    monkeypatch.setattr(fileio, "_swept", set())


def _fork(work) -> int:
    """Run `work()` in a forked child process; its exit code is 0 if it returned."""
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            work()
            code = 0
        except BaseException:
            traceback.print_exc()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    return pid


def _wait(pid: int) -> int:
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


def _leftovers(folder: Path, *keep: str) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name not in keep)


# -- concurrent edits ----------------------------------------------------------------------------


def test_concurrent_read_change_writes_lose_no_change(scratch):
    tmp_path = scratch
    counter = tmp_path / "counter.json"
    counter.write_text('{"count": 0, "by": []}')

    def increment(writer: int) -> None:
        for round_ in range(40):
            with locked(counter):
                data = json.loads(counter.read_text())
                data["count"] += 1
                data["by"].append(f"{writer}.{round_}")
                atomic_write_text(counter, json.dumps(data))

    pids = [_fork(lambda w=w: increment(w)) for w in range(6)]
    assert [_wait(pid) for pid in pids] == [0] * 6
    data = json.loads(counter.read_text())
    assert data["count"] == 240
    assert sorted(data["by"]) == sorted(f"{w}.{r}" for w in range(6) for r in range(40))
    assert _leftovers(tmp_path, "counter.json") == []  # no lock file, no temporary left


def test_concurrent_add_and_meta_commands_keep_every_change(tmp_path, db):
    path = tmp_path / "s.json"
    path.write_text('[{"id": "_meta", "name": "Crowd"}, "imp"]')
    townsfolk = [c.id for c in db.characters.values() if c.team == "townsfolk" and not c.homebrew]
    adders, rounds = 3, 5
    chunks = [townsfolk[w * rounds:(w + 1) * rounds] for w in range(adders)]
    assert all(len(chunk) == rounds for chunk in chunks)

    def command(*args: str) -> None:
        main([*args], standalone_mode=False)

    def add(chunk) -> None:
        for char_id in chunk:
            command("add", str(path), db.characters[char_id].name("ko"))

    def set_author() -> None:
        for round_ in range(rounds):
            command("meta", str(path), "--author", f"author {round_}")

    pids = [_fork(lambda c=c: add(c)) for c in chunks] + [_fork(set_author)]
    assert [_wait(pid) for pid in pids] == [0] * (adders + 1)
    on_script = json.loads(path.read_text())
    assert sorted(e for e in on_script if isinstance(e, str)) == sorted(["imp", *sum(chunks, [])])
    assert on_script[0]["author"] == f"author {rounds - 1}"  # no add wrote back an older _meta


def test_an_edit_waits_for_the_lock_and_a_stuck_holder_is_named(tmp_path, db):
    path = tmp_path / "s.json"
    path.write_text('[{"id": "_meta", "name": "Wait"}, "imp"]')
    ready = tmp_path / "ready"

    def hold() -> None:
        with locked(path):
            ready.write_text("")
            time.sleep(0.4)

    pid = _fork(hold)
    while not ready.exists():
        time.sleep(0.005)
    with pytest.raises(ScriptforgeError, match=rf"s\.json: another scriptforge process \(process {pid}\) is changing"):
        with locked(path, timeout=0.05):
            pass
    started = time.monotonic()
    add_characters(path, db, ["monk"])  # waits for the holder, then edits
    assert time.monotonic() - started > 0.1
    assert _wait(pid) == 0
    assert "monk" in json.loads(path.read_text())


# -- symlinks, permissions, copies ---------------------------------------------------------------


def test_an_edit_through_a_symlink_changes_the_real_file_and_keeps_its_mode(runner, tmp_path):
    real = tmp_path / "scripts" / "real.json"
    real.parent.mkdir()
    real.write_text('[{"id": "_meta", "name": "Linked"}, "imp"]')
    real.chmod(0o640)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    for args in (["add", link, "monk"], ["meta", link, "--author", "Me"], ["remove", link, "monk"],
                 ["add", link, "chef"]):
        result = runner.invoke(main, [str(a) for a in args])
        assert result.exit_code == 0, result.output
    assert link.is_symlink() and link.resolve() == real
    assert real.stat().st_mode & 0o777 == 0o640
    data = json.loads(real.read_text())
    assert data[0]["author"] == "Me" and data[1:] == ["imp", "chef"]
    assert _leftovers(real.parent, "real.json") == [] and _leftovers(tmp_path, "scripts", "link.json") == []


def test_remove_removes_every_copy_and_says_how_many(runner, tmp_path, db):
    path = tmp_path / "twice.json"
    path.write_text(json.dumps([{"id": "_meta", "name": "Twice"}, "imp", "monk", "Monk", {"id": "monk"}, "chef"]))
    result = runner.invoke(main, ["validate", str(path)])
    assert "[duplicate-character] 'monk' is listed more than once (first at /2)" in result.output
    change = remove_characters(path, db, ["수도사"])
    assert change.done == ("removed Monk (monk) (3 copies)",)
    assert json.loads(path.read_text())[1:] == ["imp", "chef"]


# -- writers killed at random points -------------------------------------------------------------


def test_a_writer_killed_at_random_points_leaves_the_old_or_the_new_file(scratch, monkeypatch):
    tmp_path = scratch
    target = tmp_path / "script.json"
    padding = "x" * 200_000  # large enough that the kills land in writes, renames and fsyncs
    atomic_write_text(target, json.dumps({"version": 0, "padding": padding}))

    def write_forever() -> None:
        while True:
            with locked(target):
                data = json.loads(target.read_text())
                data["version"] += 1
                atomic_write_text(target, json.dumps(data))

    rng = random.Random(19)
    last, mid_write, left = 0, 0, 0
    for _ in range(100):
        pid = _fork(write_forever)
        time.sleep(rng.uniform(0, 0.01))
        os.kill(pid, signal.SIGKILL)
        assert _wait(pid) == -signal.SIGKILL
        data = json.loads(target.read_text())  # whole and valid every time
        assert data["padding"] == padding and data["version"] >= last
        last = data["version"]
        temporaries = sum(p.name.endswith(".tmp") for p in tmp_path.iterdir())
        mid_write += temporaries > left  # this kill landed between a temporary's creation and its rename
        left = temporaries
    assert last > 0 and mid_write > 0
    _next_run(monkeypatch)
    atomic_write_text(target, "{}")  # the next run sweeps what killed runs left
    assert _leftovers(tmp_path, "script.json") in ([], [".script.json.lock"])
    with locked(target):
        pass
    assert _leftovers(tmp_path, "script.json") == []


def test_a_multi_file_write_killed_at_random_points_is_all_old_or_all_new(scratch, monkeypatch):
    root = scratch / "data"
    names = [root / "ko" / "characters" / "imp.yaml", root / "ko" / "night.yaml", root / "ko" / "ui.yaml"]

    padding = "# padding\n" * 20000

    def write(version: int) -> None:
        with locked(root):
            write_files({path: f"version: {version}\n{padding}".encode() for path in names}, root)

    write(0)

    def write_forever() -> None:
        version = 0
        while True:
            version += 1
            write(version)

    rng = random.Random(15)
    journal_left = 0
    for _ in range(100):
        pid = _fork(write_forever)
        time.sleep(rng.uniform(0, 0.015))
        os.kill(pid, signal.SIGKILL)
        _wait(pid)
        journal_left += (root / JOURNAL).exists()
        finish_journal(root)  # what the next database load does
        versions = {path.read_text().partition("\n")[0] for path in names}
        assert len(versions) == 1, versions
    assert journal_left > 0  # some kills did land between the journal and the last rename
    _next_run(monkeypatch)
    write(-1)
    assert sorted(p.name for p in (root / "ko").iterdir()) == ["characters", "night.yaml", "ui.yaml"]
    assert [p.name for p in root.iterdir()] == ["ko"]


def _po(tmp_path: Path, db, suffix: str) -> Path:
    """A Korean .po file that changes three data files: imp's ability, dusk's name, a UI label."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    catalog = Catalog(locale="ko")
    catalog.add(db.characters["imp"].texts["en"].ability, f"임프 능력 {suffix}", context="imp.ability")
    catalog.add(db.steps["dusk"].names["en"], f"황혼 {suffix}", context="step.dusk.name")
    catalog.add(db.ui["en"]["teams"]["minion"]["name"], f"하수인 {suffix}", context="ui.teams.minion.name")
    out = BytesIO()
    write_po(out, catalog)
    path = tmp_path / f"{suffix}.po"
    path.write_bytes(out.getvalue())
    return path


def _imported(db) -> set[str]:
    return {db.characters["imp"].texts["ko"].ability.rsplit(" ", 1)[-1], db.steps["dusk"].names["ko"].rsplit(" ", 1)[-1],
            db.ui["ko"]["teams"]["minion"]["name"].rsplit(" ", 1)[-1]}


def test_a_killed_l10n_import_is_finished_by_the_next_load(data_copy, tmp_path, db, monkeypatch):
    from scriptforge.l10n.po import import_po
    import scriptforge.io.fileio as fileio

    po = _po(tmp_path, db, "A")
    before = load_database(data_copy)
    original = _imported(before)

    real_rename_all = fileio._rename_all

    def killed_after_the_first_rename(root, pending):
        if (root / JOURNAL).exists():  # the import's renames, not the journal's own write
            os.replace(*pending[0])
            raise KeyboardInterrupt  # stands in for the kill: the other renames never happen
        real_rename_all(root, pending)

    monkeypatch.setattr(fileio, "_rename_all", killed_after_the_first_rename)
    with pytest.raises(KeyboardInterrupt):
        import_po(before, po, "ko")
    monkeypatch.undo()
    assert (data_copy / JOURNAL).exists()  # half of it renamed: a plain load would see a mix
    assert _imported(load_database(data_copy)) == {"A"}  # the load finished the import
    assert not (data_copy / JOURNAL).exists() and original != {"A"}
    assert not [p for p in data_copy.rglob("*") if p.name.endswith((".tmp", ".lock"))]


# -- refusing to overwrite an input; existing files that are not texts ---------------------------


def test_export_and_import_almanac_refuse_to_overwrite_their_input(runner, tmp_path):
    script = tmp_path / "s.json"
    script.write_bytes((EXAMPLES / "fang-gu-zealot.json").read_bytes())
    before = script.read_bytes()
    result = runner.invoke(main, ["export", str(script), "-o", str(script)])
    assert result.exit_code == 2
    assert result.output.strip().endswith(f"{script}: is the input {script}: writing there would replace it; "
                                          "choose another output")
    assert script.read_bytes() == before

    if not SEEDS.exists():
        pytest.skip(f"{SEEDS} is not available")
    almanac = tmp_path / "almanac.txt"
    almanac.write_bytes((SEEDS / SEED_FILES["000"][0]).read_bytes())
    result = runner.invoke(main, ["import", "almanac", str(almanac), "--lang", "ko", "--out", str(tmp_path / "ko"),
                                  "--script", str(almanac)])
    assert result.exit_code == 2 and "writing there would replace it" in result.output
    assert almanac.read_bytes() == (SEEDS / SEED_FILES["000"][0]).read_bytes()
    assert not (tmp_path / "ko").exists()  # nothing written


def test_import_almanac_over_a_file_that_is_not_texts_is_one_line(runner, tmp_path):
    if not SEEDS.exists():
        pytest.skip(f"{SEEDS} is not available")
    almanac = SEEDS / SEED_FILES["000"][0]
    out = tmp_path / "ko"
    result = runner.invoke(main, ["import", "almanac", str(almanac), "--lang", "ko", "--out", str(out),
                                  "--script", str(tmp_path / "s.json")])
    assert result.exit_code == 0, result.output
    damaged = sorted((out / "characters").iterdir())[0]
    damaged.write_text("- a list\n")
    before = {p: p.read_bytes() for p in (out / "characters").iterdir()}
    result = runner.invoke(main, ["import", "almanac", str(almanac), "--lang", "ko", "--out", str(out)])
    assert result.exit_code == 2  # a user file that cannot be read as texts (scriptforge.io.userfiles)
    assert result.output == f"Error: {damaged}: is not a character's texts (a YAML mapping); fix or remove it " \
                            "to import here\n"
    assert {p: p.read_bytes() for p in (out / "characters").iterdir()} == before


# -- pack installs -------------------------------------------------------------------------------


def test_a_pack_install_keeps_its_lock_and_its_neighbours(tmp_path, db):
    from scriptforge.io.fileio import lock_file
    from scriptforge.packs.install import import_pack

    from .test_packs import NIGHT, ROLES, write

    files = [write(tmp_path / "roles.json", ROLES), write(tmp_path / "night.json", NIGHT)]
    packs = tmp_path / "packs"
    neighbour, _ = import_pack(files, name="geese.v2", out=packs / "geese.v2", base_db=db)
    target = packs / "geese"
    lock = lock_file(target, follow_symlinks=False)
    with locked(target, follow_symlinks=False):  # as a second install would find it
        import_pack(files, name="geese", out=target, base_db=db)
        import_pack(files, name="geese", out=target, base_db=db)  # replaces the first version
        assert lock.exists()  # the install's clean-up left the lock file alone
    assert (neighbour / "pack.yaml").is_file()  # and the versions of a pack named geese.<something>
    assert (target / "pack.yaml").is_file()
    assert sorted(p.name for p in packs.iterdir()) == sorted(
        ["geese", "geese.v2", os.readlink(target), os.readlink(neighbour)])
