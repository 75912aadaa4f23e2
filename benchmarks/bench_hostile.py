"""The hostile classes of issues 30 and 41, each case a fresh `scriptforge` process: cases, tracebacks,
wrong exit codes, the slowest case's wall time and the largest peak memory (RSS) of a class.

Issue 41's classes are states one mistake or one damaged byte could leave a user in: each is
followed by the commands that must still work after it (`pack update` with ~40,000 unknown keys,
then `show`; an emptied pack.yaml, then `pack update`, then `show`), and the PO reader is compared
with msgfmt on generated files (when msgfmt is installed).

    python benchmarks/bench_hostile.py [--keep DIR] [--limit-seconds 2] [--limit-mib 300]

Limits: every case ends with its documented exit code and no traceback, in under 2 s of CPU
time (user + system; the wall time is printed beside it, as this machine's load moves it) and
300 MiB (a case that passes either limit is listed; the exit code is 1 if any case fails). Each
child runs with a 1 GiB address-space limit and a 20 s timeout, so a regression is reported, not
suffered. The full-disk and read-only cases need root (a tmpfs is mounted); without it they are
skipped and said so. Cases that need the official data (the pack classes) make a pack of the
small test files of tests/test_packs.py, not of ../shared.
"""

import argparse
from dataclasses import dataclass
import http.server
import json
import os
from pathlib import Path
import resource
import shutil
import socket
import socketserver
import stat
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

FIVE = ["monk", "chef", "empath", "baron", "imp"]
ALMANAC = ("My Script\nFuzz · Someone\n\nTownsfolk\nMonk\nEach night*, choose a player (not yourself): they are "
           "safe from the Demon tonight.\n\"Flavor.\"\nThe Monk protects.\nHow to Run\n- Wake the Monk.\n"
           "Demon\nImp\nEach night*, choose a player: they die.\n\"Flavor.\"\nThe Imp kills.\n")


@dataclass
class Case:
    cls: str
    name: str
    args: list
    exits: tuple = (0,)
    stdin: object = None
    env: dict | None = None
    cwd: Path | None = None
    reader: Path | None = None  # a FIFO to read while the case runs
    head: bool = False  # read one line of stdout, then close it (as `| head -1`)
    seconds: float | None = None  # stop the case after this long: still running then is what it must do
    expect: object = None  # a check of (stdout, stderr) the case must pass
    mib: float | None = None  # a memory limit of its own (default: --limit-mib)
    before: object = None  # what to do to the files before the case runs (damage them)
    cpu: float | None = None  # a CPU-time limit of its own (default: --limit-seconds)


@dataclass
class Outcome:
    case: Case
    code: int | None
    seconds: float  # wall time
    cpu: float  # user + system time of the child: what the limit applies to (the machine's load moves wall time)
    mib: float
    traceback: bool
    passed: bool = True  # the case's `expect` check


def run(case: Case, home: Path) -> Outcome:
    env = {**os.environ, "XDG_DATA_HOME": str(home / "data"), "XDG_CACHE_HOME": str(home / "cache"),
           **(case.env or {})}
    env.pop("SCRIPTFORGE_PACKS", None)
    if case.before is not None:
        case.before()
    got: list[bytes] = []
    if case.reader is not None:
        threading.Thread(target=lambda: got.append(Path(case.reader).read_bytes()), daemon=True).start()

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    stdin = open(case.stdin, "rb") if isinstance(case.stdin, (str, Path)) else subprocess.DEVNULL
    start = time.perf_counter()
    piped = case.head or case.expect is not None
    child = subprocess.Popen([sys.executable, "-m", "scriptforge", *map(str, case.args)], stdin=stdin,
                             stdout=subprocess.PIPE if piped else subprocess.DEVNULL, stderr=subprocess.PIPE,
                             env=env, cwd=case.cwd or home, preexec_fn=limit)
    timer = threading.Timer(case.seconds or 20, child.kill)
    timer.start()
    stdout: list[bytes] = []
    if child.stdout is not None:
        out = child.stdout

        def take():
            stdout.append(out.readline() if case.head else out.read())
            if case.head:
                out.close()

        threading.Thread(target=take, daemon=True).start()
    stderr = child.stderr.read() if child.stderr else b""
    _, status, usage = os.wait4(child.pid, 0)
    timer.cancel()
    seconds = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if stdin is not subprocess.DEVNULL:
        stdin.close()
    code = child.returncode if child.returncode >= 0 else None
    if case.seconds is not None and code is None:
        code = 0  # stopped as planned: it was still waiting, which is what it had to do
    time.sleep(0.05)  # the reader thread's last read
    passed = case.expect is None or bool(case.expect(b"".join(stdout), stderr))
    return Outcome(case, code, seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024,
                   b"Traceback" in stderr or b"MemoryError" in stderr, passed)


# -- the files the cases use ----------------------------------------------------------------------


def png(width: int, height: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    packer = zlib.compressobj(9)
    row = b"\0" * (width + 1)
    body = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", body) + chunk(b"IEND", b""))


def use_bomb(levels: int = 9, fan: int = 10) -> str:
    groups = ['<g id="g0"><rect width="1" height="1"/></g>']
    for i in range(1, levels + 1):
        groups.append(f'<g id="g{i}">' + f'<use href="#g{i - 1}"/>' * fan + "</g>")
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><defs>' + "".join(groups)
            + f'</defs><use href="#g{levels}"/></svg>')


def homebrew(char_id: str, **fields) -> dict:
    return {"id": char_id, "name": char_id.title(), "team": "townsfolk", "ability": "You do a thing.", **fields}


def script(path: Path, *extra) -> Path:
    path.write_text(json.dumps([{"id": "_meta", "name": "Hostile"}, *FIVE, *extra]), encoding="utf-8")
    return path


class Hostile(http.server.BaseHTTPRequestHandler):
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
                while True:
                    self.wfile.write(b"\0" * 65536)
            elif self.path == "/slow":
                while True:
                    self.wfile.write(b"x")
                    self.wfile.flush()
                    time.sleep(0.2)
        except OSError:
            pass


def mount(folder: Path, options: str) -> bool:
    if os.geteuid() != 0 or shutil.which("mount") is None:
        return False
    return subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)],
                          capture_output=True).returncode == 0


def cases(work: Path, server: str) -> tuple[list[Case], list[Path], list[str]]:
    mounts: list[Path] = []
    notes: list[str] = []
    s = script(work / "s.json")
    fifo_in = work / "in.fifo"
    os.mkfifo(fifo_in)
    out: list[Case] = []

    # special files as outputs
    null = work / "null"
    try:
        os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except OSError:
        null = Path("/dev/null")
    fifo_out = work / "out.fifo"
    os.mkfifo(fifo_out)
    fifo_read = work / "read.fifo"
    os.mkfifo(fifo_read)
    sock_path = work / "sock"
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(sock_path))
    out += [
        Case("special-file outputs", "export -o char device", ["export", s, "-o", null]),
        Case("special-file outputs", "build -o char device", ["build", s, "--format", "html", "-o", null]),
        Case("special-file outputs", "build -o FIFO, no reader", ["build", s, "--format", "html", "-o", fifo_out], (2,)),
        Case("special-file outputs", "export -o FIFO with a reader", ["export", s, "-o", fifo_read], reader=fifo_read),
        Case("special-file outputs", "export -o socket", ["export", s, "-o", sock_path], (2,)),
        Case("special-file outputs", "export -o folder", ["export", s, "-o", work], (2,)),
    ]
    # FIFO and device inputs, endless stdin
    wide = work / "wide.json"
    wide.write_text("[" + ",".join(["{}"] * ((4 * 1024 * 1024 - 10) // 3)) + "]", encoding="utf-8")
    many = work / "many.json"
    many.write_text("[" + ",".join(['"imp"'] * 10_000) + "]", encoding="utf-8")
    big = work / "big.json"
    with open(big, "wb") as handle:
        handle.truncate(5 * 1024 * 1024)
    readers = {"validate": ["validate", "{}"], "build": ["build", "{}", "--format", "html", "-o", work / "f.html"],
               "homebrew check": ["homebrew", "check", "{}"], "l10n import": ["l10n", "import", "{}"],
               "pack import": ["pack", "import", "{}"],
               "import almanac": ["import", "almanac", "{}", "--lang", "en", "--out", work / "alm"]}
    for name, args in readers.items():
        for label, path in (("FIFO", fifo_in), ("/dev/zero", Path("/dev/zero"))):
            cls = "FIFO inputs" if label == "FIFO" else "/dev/zero, stdin, size"
            out.append(Case(cls, f"{name} {label}", [path if a == "{}" else a for a in args], (2,)))
    out += [
        Case("/dev/zero, stdin, size", "validate - < /dev/zero", ["validate", "-"], (2,), stdin="/dev/zero"),
        Case("/dev/zero, stdin, size", "build - < /dev/zero", ["build", "-", "--format", "html", "-o", work / "z.html"],
             (2,), stdin="/dev/zero"),
        Case("/dev/zero, stdin, size", "validate 5 MiB file", ["validate", big], (2,)),
        Case("/dev/zero, stdin, size", "validate 4 MiB of {} (1.4 M entries)", ["validate", wide], (2,)),
        Case("/dev/zero, stdin, size", "validate 10,000 entries", ["validate", many], (1,)),
        Case("/dev/zero, stdin, size", "l10n import a folder", ["l10n", "import", work], (2,)),
    ]
    # symlinked outputs, inputs and data files as outputs
    for i, (command, output) in enumerate((("build", "l.html"), ("nightsheet", "l.html"), ("almanac", "l.html"),
                                           ("export", "l.json"))):
        folder = work / f"links{i}"
        folder.mkdir()
        (folder / output).symlink_to(s)
        args = [command, s, "-o", folder / output, *(["--format", "html"] if command != "export" else [])]
        out.append(Case("symlinked outputs", f"{command} -o link to input", args, (2,)))
    folder = work / "linkdir"
    folder.mkdir()
    (folder / "s.html").symlink_to(s)
    out.append(Case("symlinked outputs", "build -o folder/ with a link", ["build", s, "--format", "html", "-o",
                                                                          str(folder) + "/"], (2,)))
    data = work / "datacopy"
    shutil.copytree(ROOT / "data", data)
    out.append(Case("symlinked outputs", "l10n export -o data file", ["l10n", "export", "--lang", "en", "-o",
                                                                      data / "en" / "ui.yaml"], (2,),
                    env={"SCRIPTFORGE_DATA": str(data)}))
    almanac = work / "almanac.txt"
    almanac.write_text(ALMANAC, encoding="utf-8")
    out.append(Case("symlinked outputs", "import almanac --script onto its own output",
                    ["import", "almanac", almanac, "--lang", "en", "--out", work / "imp",
                     "--script", work / "imp" / "characters" / "monk.yaml"], (2,)))
    # stdin scripts with file:// pictures
    picture = work / "secret.png"
    picture.write_bytes(png(8, 8))
    leaky = work / "leaky.json"
    leaky.write_text(json.dumps([*FIVE, homebrew("leaky", image=picture.as_uri())]), encoding="utf-8")
    for command in ("build", "nightsheet", "almanac"):
        out.append(Case("stdin file:// pictures", f"{command} - with file://", [command, "-", "--format", "html", "-o",
                                                                             work / f"leak-{command}.html"],
                        stdin=leaky, cwd=work))
    # full and read-only folders
    full = work / "full"
    full.mkdir()
    readonly = work / "ro"
    readonly.mkdir()
    if mount(full, "size=64k"):
        mounts.append(full)
        with open(full / "filler", "wb") as handle:
            try:
                handle.write(b"\0" * (1 << 20))
            except OSError:
                pass
        for name, args in (("export", ["export", s, "-o", full / "x.json"]),
                           ("l10n export", ["l10n", "export", "--lang", "en", "-o", full / "x.po"]),
                           ("build", ["build", s, "--format", "html", "-o", full / "x.html"]),
                           ("import almanac", ["import", "almanac", almanac, "--lang", "en", "--out", full / "en"])):
            out.append(Case("full and read-only folders", f"{name} on a full disk", args, (2,)))
        out.append(Case("full and read-only folders", "build with a full user cache",
                        ["build", s, "--format", "html", "-o", work / "c.html"], (0,),
                        env={"XDG_CACHE_HOME": str(full / "cache")}))
    else:
        notes.append("full-disk cases skipped (mounting a tmpfs needs root)")
    if mount(readonly, "ro,size=16k"):
        mounts.append(readonly)
        out.append(Case("full and read-only folders", "export into a read-only folder",
                        ["export", s, "-o", readonly / "x.json"], (2,)))
        out.append(Case("full and read-only folders", "build with a read-only user cache",
                        ["build", s, "--format", "html", "-o", work / "r.html"], (0,),
                        env={"XDG_CACHE_HOME": str(readonly)}))
    else:
        notes.append("read-only cases skipped (mounting a tmpfs needs root)")
    (work / "afile").write_text("x")
    out.append(Case("full and read-only folders", "export into a file where a folder should be",
                    ["export", s, "-o", work / "afile" / "x.json"], (2,)))
    out.append(Case("full and read-only folders", "build with a file as the user cache",
                    ["build", s, "--format", "html", "-o", work / "k.html"], (0,),
                    env={"XDG_CACHE_HOME": str(work / "afile")}))
    # damaged packs
    from tests.test_packs import JINXES, NIGHT, ROLES

    src = work / "packsrc"
    src.mkdir()
    for name, content in (("roles.json", ROLES), ("nightsheet.json", NIGHT), ("jinxes.json", JINXES)):
        (src / name).write_text(json.dumps(content), encoding="utf-8")
    pack = work / "pack"
    subprocess.run([sys.executable, "-m", "scriptforge", "pack", "import", *sorted(src.iterdir()), "--out", pack],
                   check=True, capture_output=True, env={**os.environ, "XDG_CACHE_HOME": str(work / "c0")})
    cut = work / "cut"
    shutil.copytree(pack.resolve(), cut)
    import yaml

    night = yaml.safe_load((cut / "night.yaml").read_text(encoding="utf-8"))
    (cut / "night.yaml").write_text(yaml.safe_dump({key: value[:2] for key, value in night.items()}), encoding="utf-8")
    gone = work / "gone"
    shutil.copytree(pack.resolve(), gone)
    (gone / "jinxes.yaml").unlink()
    home = work / "brokenhome"
    (home / "scriptforge" / "packs").mkdir(parents=True)
    (home / "scriptforge" / "packs" / "official").symlink_to(".official.gone.pack")
    out += [
        Case("damaged packs", "truncated night.yaml", ["--no-packs", "validate", s, "--pack", cut], (1,)),
        Case("damaged packs", "a missing pack file", ["--no-packs", "show", "imp", "--pack", gone], (1,)),
        Case("damaged packs", "broken installed link", ["show", "imp"], (1,), env={"XDG_DATA_HOME": str(home)}),
        Case("damaged packs", "pack import repairs", ["pack", "import", *sorted(src.iterdir()), "--out", cut]),
    ]
    # picture bombs
    bombs = work / "bombs"
    bombs.mkdir()
    (bombs / "big.png").write_bytes(png(4100, 4100))
    (bombs / "huge.png").write_bytes(png(12000, 12500))
    (bombs / "bomb.svg").write_text(use_bomb(), encoding="utf-8")
    (bombs / "many.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg">' + '<rect width="1" height="1"/>' * 200000
                                    + "</svg>", encoding="utf-8")
    (bombs / "cycle.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"><g id="a"><use href="#b"/></g>'
                                     '<g id="b"><use href="#a"/></g></svg>', encoding="utf-8")
    for name in ("big.png", "huge.png", "bomb.svg", "many.svg", "cycle.svg"):
        path = script(bombs / f"{name}.json", homebrew("pic", image=name))
        out.append(Case("picture bombs", f"build PDF with {name}", ["build", path, "-o", bombs / f"{name}.pdf"]))
    # hostile servers
    for name in ("flood", "slow", "liar"):
        path = script(work / f"net-{name}.json", homebrew(name, image=f"{server}/{name}"))
        out.append(Case("remote pictures", f"build with a {name} server",
                        ["build", path, "--format", "html", "--allow-network", "--fetch-timeout", "1", "-o",
                         work / f"net-{name}.html"]))
    # non-UTF-8 names, control characters, reserved names
    odd = work / os.fsdecode(b"k\xc7\xd1")
    odd.mkdir()
    (odd / "p.png").write_bytes(png(8, 8))
    named = script(odd / os.fsdecode(b"\xc7\xd1.json"), homebrew("pic", image="p.png"))
    escape = script(work / "a\x1b[2Jb.json")
    con = script(work / "CON.json")
    out += [
        Case("odd names", "build non-UTF-8 name", ["build", named, "--format", "html", "-o", str(odd) + "/"]),
        Case("odd names", "nightsheet non-UTF-8 name", ["nightsheet", named, "-o", str(odd) + "/"]),
        Case("odd names", "validate non-UTF-8 name", ["validate", named], (0, 1)),
        Case("odd names", "build ESC[2J name", ["build", escape, "--format", "html", "-o", str(work / "e") + "/"]),
        Case("odd names", "build CON.json", ["build", con, "--format", "html"], cwd=work),
        Case("odd names", "export -o NUL.json", ["export", s, "-o", work / "NUL.json"], (2,)),
    ]
    # long texts (moved here from a wall-clock assertion in tests/test_guard.py)
    for length in (30_000, 100_000):
        path = script(work / f"long{length}.json", homebrew("wordy", ability="a" * length))
        out.append(Case("long texts", f"build a {length:,}-character word", ["build", path, "-o", work / "w.pdf"], (2,)))
    # combinatorial setup (issue 30 point 5, another engineer's part): measured here all the same
    setup = [homebrew(f"bag{i}", ability=f"Something. [+{1 + i % 2} Outsider]") for i in range(30)]
    path = script(work / "setup30.json", *setup)
    out.append(Case("30 homebrew setup characters", "validate", ["validate", path], (0, 1)))
    out += issue41_cases(work, s, notes)
    return out, mounts, notes


ISSUE_41 = ("usage errors", "closed pipe", "pack writers", "bounded")


def one_line(stdout: bytes, stderr: bytes) -> bool:
    return stderr.count(b"\n") == 1 and stderr.startswith(b"Error: ")


def issue41_cases(work: Path, s: Path, notes: list[str]) -> list[Case]:
    """Issue 41: usage errors, closed pipes, writers that could leave a broken state, unbounded
    inputs, watch's loops and the PO reader against msgfmt."""
    from scriptforge.packs.icons import wanted
    from tests.test_packs import JINXES, NIGHT, ROLES

    out: list[Case] = []
    for args in (["build", "--nope", s], ["nosuch"], ["l10n", "import"], ["validate", "--format", "xml", s],
                 ["show", "imp", "--lang", "zz"], ["pack", "update", "--bogus"], ["tokens", s, "--dpi", "5000"]):
        out.append(Case("usage errors", " ".join(map(str, args))[:40], args, (2,), expect=one_line))
    many = []
    for i in range(400):
        many.append(script(work / f"pipe{i}.json", {"id": "nosuch"}))
    out.append(Case("closed pipe", "validate 400 files | head -1", ["validate", *many], (0,), head=True,
                    expect=lambda o, e: bool(o) and e == b""))
    # writers
    src = work / "src41"
    (src / "game").mkdir(parents=True)
    for name, content in (("roles.json", ROLES), ("nightsheet.json", NIGHT), ("jinxes.json", JINXES)):
        (src / name).write_text(json.dumps(content), encoding="utf-8")
    for name in ("pt_BR", "pt_PT", "el"):
        (src / "game" / f"{name}.json").write_text("{}", encoding="utf-8")
    keys = {f"unknown{i:05d}-{'x' * 60}": "text" for i in range(40_000)}
    (src / "game" / "ko.json").write_text(json.dumps({"roles": {}, **keys}), encoding="utf-8")
    home = {"XDG_DATA_HOME": str(work / "home41")}
    installed = work / "home41" / "scriptforge" / "packs" / "official"
    out += [
        Case("pack writers", "update with {} pt-BR, pt-PT, el", ["pack", "update", "--from", src, "--lang", "pt-BR",
                                                                 "--lang", "pt-PT", "--lang", "el"], env=home),
        Case("pack writers", "update with 40,000 unknown keys", ["pack", "update", "--from", src, "--lang", "ko"],
             env=home, cpu=10),
        Case("pack writers", "then show", ["show", "imp"], env=home),
        Case("pack writers", "then l10n confirm --all", ["l10n", "confirm", "--all"], env=home),
        Case("pack writers", "emptied pack.yaml: show", ["show", "imp"], (1,), env=home, expect=one_line),
        Case("pack writers", "emptied pack.yaml: pack update", ["pack", "update", "--from", src, "--lang", "ko"],
             env=home, cpu=10),
        Case("pack writers", "then show again", ["show", "imp"], env=home),
    ]
    out[-3].before = lambda: (installed / "pack.yaml").write_text("", encoding="utf-8")
    from scriptforge import load_database
    chef = load_database().get("chef")
    community = work / "ko-community.json"
    community.write_text(json.dumps([{"id": "_meta", "name": "K"}, {"id": "ko_KR_chef", "name": chef.name("ko"),
                                      "team": "townsfolk", "ability": chef.text("ko").ability}, "imp"],
                                    ensure_ascii=False), encoding="utf-8")
    link = work / "migrate-link.json"
    link.symlink_to(community)
    out.append(Case("pack writers", "migrate -o symlink to input", ["migrate", community, "-o", link], (2,),
                    expect=lambda o, e: e.startswith(b"Error: ") and b"would replace it" in e))
    # bounded
    long_yaml = work / "long.yaml"
    long_yaml.write_text(f"id: wordy\nteam: townsfolk\ntexts:\n  en:\n    name: Wordy\n    ability: {'a' * 300_000}\n",
                         encoding="utf-8")
    long_po = work / "long.po"
    long_po.write_text('msgid ""\nmsgstr ""\n"Language: ko\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                       f'msgctxt "imp.flavor"\nmsgid "Flavor"\nmsgstr "{"가" * 300_000}"\n', encoding="utf-8")
    data = work / "datacopy41"
    shutil.copytree(ROOT / "data", data)
    icons = work / "icons41"
    for char_id, parts in wanted(ROLES).items():
        for candidates in parts:
            (icons / "icons" / candidates[0]).parent.mkdir(parents=True, exist_ok=True)
            os.mkfifo(icons / "icons" / candidates[0])
    for name in ("roles.json", "nightsheet.json", "jinxes.json"):
        shutil.copy(src / name, icons / name)
    watched = work / "watched"
    watched.mkdir()
    out += [
        Case("bounded", "PNG --dpi 1200", ["build", s, "--format", "png", "--dpi", "1200", "-o", work / "big.png"], (2,),
             expect=one_line),
        Case("bounded", "PNG at the pixel budget (--dpi 643)", ["build", s, "--format", "png", "--dpi", "643", "-o",
                                                                 work / "most.png"], mib=500, cpu=20),
        Case("bounded", "homebrew with a 300,000-character word", ["homebrew", "check", long_yaml], (2,),
             expect=one_line),
        Case("bounded", "l10n import a 300,000-character text", ["l10n", "import", long_po], (2,),
             env={"SCRIPTFORGE_DATA": str(data)}, expect=one_line),
        Case("bounded", "pack update --icons from FIFOs", ["pack", "update", "--from", icons, "--lang", "en",
                                                            "--icons"], env={"XDG_DATA_HOME": str(work / "home-icons")}),
        Case("bounded", "watch nosuch.json", ["watch", work / "nosuch.json", "-o", work / "n.html"], (2,),
             expect=one_line),
        *chinese_title_cases(work, notes),
        Case("bounded", "watch, output in the --icons folder, 8 s", ["watch", s, "--format", "html", "--icons", watched,
                                                                     "-o", watched / "out.html"], seconds=8,
             expect=lambda o, e: o.count(b" wrote ") == 1),
    ]
    return out


def chinese_title_cases(work: Path, notes: list[str]) -> list[Case]:
    """A script whose long title is Chinese, printed on an English sheet: the title's letters come
    from a system CJK font, whose size must not become the command's memory (500 MiB at most) nor
    the PDF's (a subset: under 2 MiB, where the face's file is 10-30 MB). Only where fontconfig,
    as this process's environment sets it up (``FONTCONFIG_FILE`` too), knows a Chinese font;
    without one the title prints as boxes with a warning, which measures nothing: skipped."""
    found = subprocess.run(["fc-list", ":lang=zh-cn", "file"], capture_output=True, text=True).stdout.strip() \
        if shutil.which("fc-list") else ""
    if not found:
        notes.append("the Chinese-title case needs a system CJK font (fonts-noto-cjk): skipped")
        return []
    titled, pdf = work / "chinese-title.json", work / "chinese-title.pdf"
    titled.write_text(json.dumps([{"id": "_meta", "name": "血染钟楼" * 12}, *FIVE], ensure_ascii=False),
                      encoding="utf-8")
    return [Case("bounded", "Chinese title on an English sheet", ["build", titled, "--lang", "en", "-o", pdf],
                 mib=500, cpu=10, expect=lambda o, e: pdf.is_file() and pdf.stat().st_size < 2 << 20)]


def po_against_msgfmt(work: Path) -> str:
    """How many generated PO files msgfmt -c rejects and the reader accepts (and the other way)."""
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        return "PO reader against msgfmt: skipped (msgfmt is not installed)"
    from scriptforge.l10n import pofile

    header = 'msgid ""\nmsgstr ""\n"Language: ko\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
    base = header + 'msgctxt "imp.name"\nmsgid "Imp"\nmsgstr "임프"\n\nmsgctxt "imp.ability"\nmsgid "Kill"\nmsgstr "죽임"\n'
    lines = base.split("\n")
    inserts = ["#|", "#| garbage", "#| msgid", '#| msgid "x', '#| "x"', '#|msgid "x"', '#| msgctxt "a"',
               '#| msgid_plural "a"', "#,", "#, fuzzy", "#,fuzzy", "#, c-format", "#, no-such-flag", "#,,", "#.", "# x",
               "#x", "#~", '#~ msgid "a"', "#~ garbage", "#@ x", "#:", "#: a.c:1", '"x"', "msgid", "msgstr", "\ufeff",
               "\t", 'domain "x"', '#| msgid "a"\n#| "b"', '#, fuzzy\n#| msgid "old"', "#= x", "#!", "#|#", 'msgctxt ""']
    cases = ["\n".join(lines[:i] + [extra] + lines[i:]) for i in range(len(lines) + 1) for extra in inserts]
    cases += ["\ufeff" + base, base.replace("\n", "\r\n"), base + '\n#| msgid "x"\n']
    missed = extra = rejected = 0
    folder = work / "po41"
    folder.mkdir()
    for n, text in enumerate(cases):
        path = folder / f"{n}.po"
        path.write_text(text, encoding="utf-8")
        theirs = subprocess.run([msgfmt, "-c", "-o", "/dev/null", str(path)], capture_output=True).returncode != 0
        try:
            pofile.read(text.encode("utf-8"))
            ours = False
        except pofile.PoSyntaxError:
            ours = True
        rejected += theirs
        missed += theirs and not ours
        extra += ours and not theirs
    return (f"PO reader against msgfmt -c: {len(cases)} generated files, msgfmt rejects {rejected}; the reader "
            f"accepts {missed} of them, and rejects {extra} that msgfmt accepts")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, help="work in this folder and leave it")
    parser.add_argument("--limit-seconds", type=float, default=2.0)
    parser.add_argument("--limit-mib", type=float, default=300.0)
    parser.add_argument("--only-41", action="store_true", help="only the classes of issue 41")
    options = parser.parse_args()
    work = options.keep or Path(tempfile.mkdtemp(prefix="bench-hostile-"))
    work.mkdir(parents=True, exist_ok=True)

    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True

    server = Server(("127.0.0.1", 0), Hostile)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    mounts: list[Path] = []
    try:
        all_cases, mounts, notes = cases(work, f"http://127.0.0.1:{server.server_address[1]}")
        if options.only_41:
            all_cases = [case for case in all_cases if case.cls in ISSUE_41]
        home = work / "home"
        home.mkdir(exist_ok=True)
        run(Case("warm-up", "fill the caches", ["build", work / "s.json", "--format", "html", "-o", work / "w.html"]),
            home)
        outcomes = [run(case, home) for case in all_cases]
        po_line = po_against_msgfmt(work)
    finally:
        server.shutdown()
        for folder in mounts:
            subprocess.run(["umount", "-l", str(folder)], capture_output=True)
        if not options.keep:
            shutil.rmtree(work, ignore_errors=True)
    classes: dict[str, list[Outcome]] = {}
    for outcome in outcomes:
        classes.setdefault(outcome.case.cls, []).append(outcome)
    print("| class | cases | tracebacks | wrong exits | most CPU time (its wall time) | largest peak memory |")
    print("|---|---|---|---|---|---|")
    failing = []
    for cls, group in classes.items():
        wrong = [o for o in group if o.code not in o.case.exits]
        slow = max(group, key=lambda o: o.cpu)
        big = max(group, key=lambda o: o.mib)
        print(f"| {cls} | {len(group)} | {sum(o.traceback for o in group)} | {len(wrong)} | {slow.cpu:.2f} s "
              f"({slow.seconds:.2f} s; {slow.case.name}) | {big.mib:.0f} MiB ({big.case.name}) |")
        failing += [o for o in group if o.traceback or o.code not in o.case.exits or not o.passed
                    or (o.cpu > (o.case.cpu or options.limit_seconds) and o.case.seconds is None)
                    or o.mib > (o.case.mib or options.limit_mib)]
    notes.append(po_line)
    for note in notes:
        print(f"note: {note}")
    for o in failing:
        print(f"FAIL {o.case.cls} / {o.case.name}: exit {o.code} (expected {o.case.exits}), {o.cpu:.2f} s CPU "
              f"({o.seconds:.2f} s wall), {o.mib:.0f} MiB{', traceback' if o.traceback else ''}"
              f"{'' if o.passed else ', output not as expected'}")
    print(f"{len(outcomes)} cases, {len(failing)} over a limit (limits: {options.limit_seconds:g} s, "
          f"{options.limit_mib:g} MiB per case)")
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
