"""Hostile files, places and servers (issue 30): nothing overwritten, nothing leaked, nothing unbounded.

One test (or one parametrized group) per defect of the issue; each fails on the code before the
fix. Everything that could block or grow on that code (a FIFO read, /dev/zero, a flooding or
slow server) runs in a child process with a timeout and a memory limit, or against a server that
stops by itself, so a regression fails the test instead of hanging the suite. Figures (time and
memory per case) are measured by benchmarks/bench_hostile.py, not asserted here.
"""

import errno
import http.server
import json
import os
from pathlib import Path
import shutil
import socketserver
import stat
import struct
import subprocess
import sys
import threading
import time
import zlib

import pytest

from scriptforge.cli import main

FIVE = ["monk", "chef", "empath", "baron", "imp"]
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
ALMANAC = ("My Script\nFuzz · Someone\n\nTownsfolk\nMonk\nEach night*, choose a player (not yourself): they are "
           "safe from the Demon tonight.\n\"Flavor.\"\nThe Monk protects.\nHow to Run\n- Wake the Monk.\n"
           "Demon\nImp\nEach night*, choose a player: they die.\n\"Flavor.\"\nThe Imp kills.\n")


def script(path: Path, *extra) -> Path:
    path.write_text(json.dumps([{"id": "_meta", "name": "Hostile"}, *FIVE, *extra]), encoding="utf-8")
    return path


def homebrew(char_id: str, **fields) -> dict:
    return {"id": char_id, "name": char_id.title(), "team": "townsfolk", "ability": "You do a thing.", **fields}


def error_lines(result) -> list[str]:
    """The Error: lines of a run that ended without a traceback."""
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    return [line for line in result.stderr.splitlines() if line.startswith("Error: ")]


def cli(*args, timeout=60, stdin=None, env=None, cwd=None, memory=1 << 30) -> subprocess.CompletedProcess:
    """scriptforge in a child process, at most `timeout` seconds and `memory` bytes of address space."""
    def limit():
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    return subprocess.run([sys.executable, "-m", "scriptforge", *map(str, args)], capture_output=True,
                          timeout=timeout, stdin=stdin if stdin is not None else subprocess.DEVNULL,
                          env={**os.environ, **(env or {})}, cwd=cwd, preexec_fn=limit if os.name == "posix" else None)


def png(width: int, height: int) -> bytes:
    """A valid greyscale PNG of all-black pixels: tiny on disk, width × height when decoded."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    packer = zlib.compressobj(9)
    row = b"\0" * (width + 1)
    body = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", body) + chunk(b"IEND", b""))


def use_bomb(levels: int = 9, fan: int = 10) -> str:
    """A ~2 KB SVG of nested <use> that stands for fan ** levels rectangles."""
    groups = ['<g id="g0"><rect width="1" height="1"/></g>']
    for i in range(1, levels + 1):
        groups.append(f'<g id="g{i}">' + f'<use href="#g{i - 1}"/>' * fan + "</g>")
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><defs>' + "".join(groups)
            + f'</defs><use href="#g{levels}"/></svg>')


# -- 1. writes: an output is never an input, a data file or a special file replaced -----------------


@pytest.mark.parametrize("command, output", [
    (["build"], "sheet.html"), (["nightsheet"], "sheet.html"), (["almanac"], "sheet.html"),
    (["build"], "out/"), (["export"], "sheet.json"),
])
def test_an_output_that_is_a_symlink_to_the_input_is_refused(runner, tmp_path, command, output):
    source = script(tmp_path / "s.json")
    before = source.read_bytes()
    if output.endswith("/"):
        (tmp_path / "out").mkdir()
        (tmp_path / "out" / "s.html").symlink_to(source)
    else:
        (tmp_path / output).symlink_to(source)
    args = [*command, str(source), "-o", str(tmp_path / output)]
    if command[0] != "export":
        args += ["--format", "html"]
    result = runner.invoke(main, args)
    assert result.exit_code == 2
    lines = error_lines(result)
    assert len(lines) == 1 and "s.json" in lines[0] and ("overwrite" in lines[0] or "replace" in lines[0]), lines
    assert source.read_bytes() == before


def test_l10n_export_onto_a_data_file_and_import_almanac_onto_its_own_output_are_refused(runner, tmp_path,
                                                                                         data_copy, monkeypatch):
    monkeypatch.setenv("SCRIPTFORGE_DATA", str(data_copy))
    ui = data_copy / "en" / "ui.yaml"
    before = ui.read_bytes()
    result = runner.invoke(main, ["l10n", "export", "--lang", "en", "-o", str(ui)])
    assert result.exit_code == 2 and "data file" in error_lines(result)[0]
    assert ui.read_bytes() == before
    (tmp_path / "link.po").symlink_to(ui)  # through a link too
    assert runner.invoke(main, ["l10n", "export", "--lang", "en", "-o", str(tmp_path / "link.po")]).exit_code == 2
    assert ui.read_bytes() == before

    almanac = tmp_path / "almanac.txt"
    almanac.write_text(ALMANAC, encoding="utf-8")
    out = tmp_path / "imported"
    result = runner.invoke(main, ["import", "almanac", str(almanac), "--lang", "en", "--out", str(out),
                                  "--script", str(out / "characters" / "monk.yaml")])
    assert result.exit_code == 2 and "two outputs" in error_lines(result)[0]
    assert not out.exists()


def test_a_character_device_is_written_in_place_never_replaced(runner, tmp_path):
    source = script(tmp_path / "s.json")
    null = Path("/dev/null")
    if IS_ROOT:  # a private copy of /dev/null: the code before the fix replaced the device itself
        null = tmp_path / "null"
        try:
            os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        except OSError:
            pytest.skip("cannot make a device node here (a nodev mount)")
    for args in (["export", str(source), "-o", str(null)], ["build", str(source), "--format", "html", "-o", str(null)]):
        result = runner.invoke(main, args)
        assert result.exit_code == 0, result.output
        assert stat.S_ISCHR(os.stat(null).st_mode), "the device was replaced by a regular file"
    assert not list(null.parent.glob("null.*"))  # nor a null.html beside it


def test_a_fifo_output_is_written_in_place_or_refused_when_nobody_reads_it(runner, tmp_path):
    source = script(tmp_path / "s.json")
    fifo = tmp_path / "sheet.json"
    os.mkfifo(fifo)
    result = runner.invoke(main, ["export", str(source), "-o", str(fifo)])
    assert result.exit_code == 2 and "nobody reads" in error_lines(result)[0]
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    time.sleep(0.05)
    result = runner.invoke(main, ["export", str(source), "-o", str(fifo)])
    reader.join(10)
    assert result.exit_code == 0 and json.loads(got[0])[0]["id"] == "_meta"
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_dash_is_standard_output_for_every_command_that_writes_a_file(runner, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    source = script(tmp_path / "s.json")
    result = runner.invoke(main, ["export", str(source), "-o", "-"])
    assert result.exit_code == 0 and json.loads(result.stdout)[0]["id"] == "_meta"
    result = runner.invoke(main, ["l10n", "export", "--lang", "en", "-o", "-"])
    assert result.exit_code == 0 and 'msgctxt "imp.ability"' in result.stdout
    assert not (tmp_path / "-").exists()


# -- 1. writes that fail: one line naming the path, exit 2, nothing half-written ---------------------


@pytest.fixture
def full_folder(tmp_path):
    """A folder with no space left: a 64 KiB tmpfs filled up (as root), else None."""
    folder = tmp_path / "full"
    folder.mkdir()
    if not IS_ROOT or shutil.which("mount") is None:
        yield None
        return
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)],
                      capture_output=True).returncode != 0:
        yield None
        return
    try:
        with open(folder / "filler", "wb") as filler:
            try:
                filler.write(b"\0" * (1 << 20))
            except OSError:
                pass
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)


def _no_space(monkeypatch):
    """Where no tmpfs can be mounted: every temporary write fails as a full disk would."""
    import scriptforge.io.fileio as fileio

    def full(target, *args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(target))

    monkeypatch.setattr(fileio, "_write_temporary", full)
    monkeypatch.setattr(Path, "write_bytes", full)  # the pack writer's files


def test_writes_on_a_full_disk_are_one_line_and_leave_nothing(runner, tmp_path, full_folder, monkeypatch,
                                                              geese_pack):
    source = script(tmp_path / "s.json")
    folder = full_folder or tmp_path / "simulated"
    folder.mkdir(exist_ok=True)
    if full_folder is None:
        _no_space(monkeypatch)
    almanac = tmp_path / "almanac.txt"
    almanac.write_text(ALMANAC, encoding="utf-8")
    commands = [
        ["export", str(source), "-o", str(folder / "x.json")],
        ["l10n", "export", "--lang", "en", "-o", str(folder / "x.po")],
        ["build", str(source), "--format", "html", "-o", str(folder / "x.html")],
        ["import", "almanac", str(almanac), "--lang", "en", "--out", str(folder / "en")],
        ["pack", "import", *map(str, geese_pack[1]), "--out", str(folder / "pack")],
    ]
    for args in commands:
        result = runner.invoke(main, args)
        lines = error_lines(result)
        assert result.exit_code == 2 and len(lines) == 1, (args, result.output)
        assert str(folder) in lines[0] and ("No space" in lines[0] or "cannot" in lines[0]), lines
        leftovers = [p.name for p in folder.rglob("*") if p.name != "filler" and p.is_file()]
        assert not leftovers, (args, leftovers)


def test_a_read_only_folder_and_a_file_where_a_folder_should_be(runner, tmp_path):
    source = script(tmp_path / "s.json")
    (tmp_path / "afile").write_text("not a folder")
    for args in (["export", str(source), "-o", str(tmp_path / "afile" / "x.json")],
                 ["build", str(source), "--format", "html", "-o", str(tmp_path / "afile" / "x.html")],
                 ["l10n", "export", "--lang", "en", "-o", str(tmp_path / "afile" / "x.po")]):
        result = runner.invoke(main, args)
        assert result.exit_code == 2 and "afile is a file where a folder should be" in error_lines(result)[0]
    readonly = tmp_path / "ro"
    readonly.mkdir()
    if IS_ROOT:
        if subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=16k", "tmpfs", str(readonly)],
                          capture_output=True).returncode != 0:
            pytest.skip("cannot mount a read-only tmpfs")
    else:
        readonly.chmod(0o555)
    try:
        result = runner.invoke(main, ["export", str(source), "-o", str(readonly / "x.json")])
        assert result.exit_code == 2
        assert "x.json: cannot write:" in error_lines(result)[0]
    finally:
        if IS_ROOT:
            subprocess.run(["umount", "-l", str(readonly)], capture_output=True)
        readonly.chmod(0o755)


def test_a_full_or_broken_user_cache_never_fails_a_build(runner, tmp_path, full_folder, monkeypatch):
    source = script(tmp_path / "s.json")
    not_a_folder = tmp_path / "cache-file"
    not_a_folder.write_text("a file where the cache folder should be")
    for cache in [not_a_folder, *([full_folder / "cache"] if full_folder else [])]:
        monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
        result = runner.invoke(main, ["build", str(source), "--format", "html", "-o", str(tmp_path / "x.html")])
        assert result.exit_code == 0, result.output
        assert not error_lines(result)


# -- 2. reads: only regular files, each under a size cap; stdin has no folder ------------------------


@pytest.mark.parametrize("command", [["validate"], ["homebrew", "check"], ["l10n", "import"], ["pack", "import"]])
def test_a_fifo_as_input_is_refused_at_once(tmp_path, command):
    fifo = tmp_path / "input.json"
    os.mkfifo(fifo)
    done = cli(*command, fifo, timeout=20)  # blocked forever before the fix
    assert done.returncode == 2, done.stderr
    assert b"FIFO" in done.stderr and b"Traceback" not in done.stderr


def test_dev_zero_and_an_endless_stdin_are_refused_in_bounded_memory(tmp_path):
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero")
    done = cli("validate", "/dev/zero", memory=1 << 30)
    assert done.returncode == 2 and b"is a device" in done.stderr and b"Traceback" not in done.stderr
    with open("/dev/zero", "rb") as endless:
        done = cli("validate", "-", stdin=endless, memory=1 << 30)
    assert done.returncode == 2 and b"standard input holds more than" in done.stderr
    wide = tmp_path / "wide.json"
    wide.write_text("[" + ",".join(['"imp"'] * 10_001) + "]", encoding="utf-8")
    done = cli("validate", wide)
    assert done.returncode == 2 and b"10,001 entries, more than the 10,000" in done.stderr
    big = tmp_path / "big.json"
    with open(big, "wb") as handle:
        handle.truncate(5 * 1024 * 1024)  # sparse: a size, no data
    done = cli("validate", big)
    assert done.returncode == 2 and b"larger than any file scriptforge reads" in done.stderr


def test_a_script_from_stdin_gets_no_pictures_from_the_current_folder(runner, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    picture = tmp_path / "secret.png"
    picture.write_bytes(png(8, 8))
    text = json.dumps([*FIVE, homebrew("leaky", image=picture.as_uri())])
    for command in (["build"], ["nightsheet"]):
        result = runner.invoke(main, [*command, "-", "--format", "html", "-o", str(tmp_path / "x.html")], input=text)
        assert result.exit_code == 0, result.output
        assert "outside the script's folder" in result.stderr
        assert "data:image/png" not in (tmp_path / "x.html").read_text(encoding="utf-8")
    on_disk = tmp_path / "s.json"  # the same script as a file beside the picture: allowed, as before
    on_disk.write_text(text, encoding="utf-8")
    result = runner.invoke(main, ["build", str(on_disk), "--format", "html", "-o", str(tmp_path / "y.html")])
    assert "data:image/png" in (tmp_path / "y.html").read_text(encoding="utf-8")


# -- 3. integrity: packs checked against their sha256, interrupted journals finished -----------------


@pytest.fixture
def geese_pack(tmp_path, db):
    from scriptforge.packs.install import import_pack
    from tests.test_packs import JINXES, NIGHT, ROLES

    src = tmp_path / "src"
    src.mkdir()
    files = []
    for name, data in (("roles.json", ROLES), ("nightsheet.json", NIGHT), ("jinxes.json", JINXES)):
        (src / name).write_text(json.dumps(data), encoding="utf-8")
        files.append(src / name)
    path, _ = import_pack(files, name="geese", out=tmp_path / "packs" / "geese", base_db=db)
    return path, files


def cut_short(night: Path) -> None:
    """The night sheet cut to its first entries: still valid, and what the schema accepts."""
    import yaml

    data = yaml.safe_load(night.read_text(encoding="utf-8"))
    data = {key: value[:2] for key, value in data.items()}
    night.write_text(yaml.safe_dump(data), encoding="utf-8")


def test_a_truncated_pack_file_is_one_line_and_a_new_import_repairs_it(runner, tmp_path, geese_pack):
    pack, files = geese_pack
    cut_short(pack / "night.yaml")
    result = runner.invoke(main, ["--no-packs", "show", "quietgeese", "--pack", str(pack)])
    lines = error_lines(result)
    assert result.exit_code != 0 and len(lines) == 1
    assert "damaged data pack: night.yaml" in lines[0] and "pack update" in lines[0]
    assert runner.invoke(main, ["pack", "import", *map(str, files), "--out", str(pack)]).exit_code == 0
    assert runner.invoke(main, ["--no-packs", "show", "quietgeese", "--pack", str(pack)]).exit_code == 0


def test_a_broken_installed_pack_link_is_one_line_and_pack_update_repairs_it(runner, tmp_path, monkeypatch,
                                                                             geese_pack):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "home"))
    packs = tmp_path / "home" / "scriptforge" / "packs"
    packs.mkdir(parents=True)
    (packs / "official").symlink_to(".official.gone.pack")
    result = runner.invoke(main, ["show", "imp"])
    lines = error_lines(result)
    assert result.exit_code != 0 and len(lines) == 1 and "damaged" in lines[0] and "pack update" in lines[0]
    assert runner.invoke(main, ["--no-packs", "show", "imp"]).exit_code == 0
    source_folder = geese_pack[1][0].parent  # roles.json, nightsheet.json, jinxes.json
    result = runner.invoke(main, ["pack", "update", "--from", str(source_folder), "--lang", "en"])
    assert result.exit_code == 0, result.output
    assert runner.invoke(main, ["show", "quietgeese"]).exit_code == 0


def test_db_check_finishes_an_interrupted_import(runner, data_copy, monkeypatch):
    from scriptforge.io.fileio import JOURNAL

    monkeypatch.setenv("SCRIPTFORGE_DATA", str(data_copy))
    target = data_copy / "en" / "characters" / "imp.yaml"
    new = target.read_text(encoding="utf-8").replace("Imp", "Imp", 1) + "\n# finished by db check\n"
    tmp = target.parent / f".imp.yaml.{os.getpid()}-abcdef12.tmp"
    tmp.write_text(new, encoding="utf-8")
    (data_copy / JOURNAL).write_text(json.dumps({"renames": [[os.path.relpath(tmp, data_copy),
                                                              os.path.relpath(target, data_copy)]]}))
    result = runner.invoke(main, ["--no-packs", "db", "check"])
    assert result.exit_code == 0, result.output
    assert not (data_copy / JOURNAL).exists() and "finished by db check" in target.read_text(encoding="utf-8")


def test_l10n_import_refuses_a_pack_characters_text_in_the_built_in_data(runner, tmp_path, data_copy, geese_pack,
                                                                         monkeypatch):
    pack, _ = geese_pack
    monkeypatch.setenv("SCRIPTFORGE_DATA", str(data_copy))
    po = tmp_path / "ko.po"
    result = runner.invoke(main, ["--no-packs", "--pack", str(pack), "l10n", "export", "--lang", "ko", "-o", str(po)])
    assert result.exit_code == 0, result.output
    text = po.read_text(encoding="utf-8")
    for field, value in (("name", "조용한 거위"), ("ability", "아무것도 듣지 못합니다.")):
        marker = f'msgctxt "quietgeese.{field}"\n'
        head, _, rest = text.partition(marker)
        msgid, _, tail = rest.partition('msgstr ""')
        text = head + marker + msgid + f'msgstr "{value}"' + tail
    po.write_text(text, encoding="utf-8")
    before = sorted(p.name for p in (data_copy / "ko" / "characters").iterdir())
    result = runner.invoke(main, ["--no-packs", "--pack", str(pack), "l10n", "import", str(po)])
    lines = error_lines(result)
    assert result.exit_code == 2 and len(lines) == 1 and "inconsistent" in lines[0] and "quietgeese" in lines[0]
    assert sorted(p.name for p in (data_copy / "ko" / "characters").iterdir()) == before
    assert runner.invoke(main, ["--no-packs", "db", "check"]).exit_code == 0


# -- 4. bounded images ---------------------------------------------------------------------------------


def test_picture_bombs_get_the_generated_icon_and_a_warning(runner, tmp_path):
    (tmp_path / "big.png").write_bytes(png(4100, 4100))  # 16.8 M pixels: over 4096², under Pillow's own limit
    (tmp_path / "bomb.svg").write_text(use_bomb(), encoding="utf-8")
    (tmp_path / "many.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg">' + "<rect/>" * 6000 + "</svg>")
    (tmp_path / "cycle.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"><g id="a"><use href="#b"/></g>'
                                        '<g id="b"><use href="#a"/></g></svg>')
    (tmp_path / "ok.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"><circle r="3"/></svg>')
    source = script(tmp_path / "s.json", *(homebrew(name, image=f"{name}.{kind}") for name, kind in
                                         (("big", "png"), ("bomb", "svg"), ("many", "svg"), ("cycle", "svg"),
                                          ("ok", "svg"))))
    result = runner.invoke(main, ["build", str(source), "--format", "html", "-o", str(tmp_path / "x.html")])
    assert result.exit_code == 0, result.output
    warnings = {name: line for line in result.stderr.splitlines() for name in ("big", "bomb", "many", "cycle", "ok")
                if f"/{name}." in line}
    assert "4,100 × 4,100 pixels" in warnings["big"]
    assert "with its <use> copies counted" in warnings["bomb"] and "5,000" in warnings["many"]
    assert "cycle" in warnings["cycle"] and "ok" not in warnings
    html = (tmp_path / "x.html").read_text(encoding="utf-8")
    assert html.count("data:image/svg+xml") == 1  # ok.svg only


class _Hostile(http.server.BaseHTTPRequestHandler):
    """/flood: 64 MiB with no length; /slow: a byte every 0.25 s for 8 s; /liar: a huge Content-Length.
    Each stops by itself, so the code before the fix ends too (wrongly), never hangs the suite."""

    def log_message(self, *args):
        pass

    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        if self.path == "/liar":
            self.send_header("Content-Length", str(1 << 40))
        self.end_headers()
        try:
            if self.path == "/flood":
                for _ in range(1024):
                    self.wfile.write(b"\0" * 65536)
            elif self.path == "/slow":
                for _ in range(32):
                    self.wfile.write(b"x")
                    self.wfile.flush()
                    time.sleep(0.25)
        except OSError:
            pass


@pytest.fixture
def hostile_server():
    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True

    server = Server(("127.0.0.1", 0), _Hostile)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_fetched_pictures_are_capped_in_bytes_and_time(runner, tmp_path, hostile_server):
    source = script(tmp_path / "s.json", *(homebrew(name, image=f"{hostile_server}/{name}")
                                         for name in ("flood", "slow", "liar")))
    result = runner.invoke(main, ["build", str(source), "--allow-network", "--fetch-timeout", "0.5", "--format",
                                  "html", "-o", str(tmp_path / "x.html")])
    assert result.exit_code == 0, result.output
    said = {name: line for line in result.stderr.splitlines() for name in ("flood", "slow", "liar")
            if f"/{name}:" in line}
    assert "larger than the limit of 8 MiB" in said["flood"]
    assert "within 0.5 s" in said["slow"]
    assert "announced, more than the limit" in said["liar"]


# -- 6. every path a user can give ---------------------------------------------------------------


def test_a_name_that_is_not_utf8_is_shown_with_replacement_characters_and_used_as_bytes(runner, tmp_path):
    folder = tmp_path / os.fsdecode(b"k\xc7\xd1")  # Korean in CP949, as a Windows zip leaves it
    folder.mkdir()
    (folder / "p.png").write_bytes(png(8, 8))
    source = script(folder / os.fsdecode(b"\xc7\xd1.json"), homebrew("pic", image="p.png"))
    result = runner.invoke(main, ["build", str(source), "--format", "html", "-o", str(folder) + "/"])
    assert result.exit_code == 0, result.output
    written = folder / os.fsdecode(b"\xc7\xd1.html")
    assert "data:image/png" in written.read_text(encoding="utf-8")  # the picture in that folder was found
    assert "k\ufffd\ufffd/\ufffd\ufffd.html" in result.stdout and "\\udc" not in result.stdout


@pytest.mark.skipif(os.name != "posix", reason="needs a pseudo-terminal")
def test_the_progress_bar_shows_file_names_escaped(tmp_path):
    import pty

    folder = tmp_path / "batch"
    folder.mkdir()
    script(folder / "a\x1b[2Jb.json")
    script(folder / os.fsdecode(b"c\xe9.json"))
    primary, secondary = pty.openpty()
    done = subprocess.run([sys.executable, "-m", "scriptforge", "build", str(folder), "-o", str(tmp_path / "out") + "/",
                           "--format", "html"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=secondary,
                          timeout=120)
    os.close(secondary)
    seen = b""
    while True:
        try:
            piece = os.read(primary, 65536)
        except OSError:
            break
        if not piece:
            break
        seen += piece
    os.close(primary)
    assert done.returncode == 0, seen
    assert b"Rendering" in seen and b"\x1b[2J" not in seen and b"Traceback" not in seen
    assert b"a\\x1b[2Jb.json" in seen


def test_names_windows_reserves_are_renamed_or_refused(runner, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    source = script(tmp_path / "CON.json")
    result = runner.invoke(main, ["build", str(source), "--format", "html"])
    assert result.exit_code == 0 and (tmp_path / "CON_.html").exists() and not (tmp_path / "CON.html").exists()
    assert "'CON' is a name Windows reserves: written as CON_.html" in result.stderr
    result = runner.invoke(main, ["export", str(source), "-o", str(tmp_path / "nul.json")])
    assert result.exit_code == 2 and "Windows reserves" in error_lines(result)[0]


# -- the rest: silent drops -------------------------------------------------------------------------


def test_an_embedded_jinx_with_an_unknown_id_is_a_finding(runner, tmp_path):
    source = script(tmp_path / "s.json", homebrew("hexer", jinxes=[{"id": "nosuchchar", "reason": "Never."},
                                                                     {"id": "imp", "reason": "Sometimes."}]))
    result = runner.invoke(main, ["validate", str(source), "--format", "json"])
    findings = json.loads(result.stdout)["findings"]
    unknown = [f for f in findings if f["code"] == "jinx-unknown"]
    assert len(unknown) == 1 and unknown[0]["path"] == "/6/jinxes/0" and unknown[0]["data"]["other"] == "nosuchchar"


def test_the_name_check_meets_only_names_one_letter_away(db, monkeypatch):
    """l10n check and homebrew check (which runs it twice) compared every word with every name:
    with the official pack, millions of comparisons and seconds; now each word meets a few."""
    from scriptforge.l10n import checks
    from scriptforge.l10n.lang.base import Language
    from scriptforge.l10n.lang.ko import Korean

    calls = {"n": 0}

    def counted(real):
        def wrapper(*args):
            calls["n"] += 1
            return real(*args)
        return wrapper

    monkeypatch.setattr(Korean, "is_typo", counted(Korean.is_typo))
    monkeypatch.setattr(Language, "is_typo", counted(Language.is_typo))
    findings = checks.run_checks(db, select=["name-misspelt"])
    words = sum(len(text.split()) for lang in db.languages for _, _, text in checks.Context(db, db.languages).texts(lang, "botc"))
    assert calls["n"] < words, (calls["n"], words)  # before: about 50 per word on the built-in data alone
    assert all(f.code == "name-misspelt" for f in findings)
