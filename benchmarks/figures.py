"""Every speed figure the README quotes, in one run, as ratios against a stated baseline.

Run:  python benchmarks/figures.py [--runs 5] [--against /path/to/other/venv/bin/python] [--big] [--instructions]

Each timing is a new process (as a user runs scriptforge) and is printed with its median wall
time, its median CPU time (user + system: less touched by other work on the machine) and, where
``--against`` names the Python of another checkout's virtualenv (``git worktree add ../base main``
with its own venv), the ratio of this checkout's median to that one's, the two alternated run by
run so that the machine's drifting speed touches both alike (the other checkout gets its own
cache folder beside this one's). Without ``--against`` the baseline is ``python -c pass`` (the
floor of any command). The corpus figures need ../shared/reference; the official pack is read
from ../shared/reference/official into a temporary data folder for both sides.

Figures: cold ``show imp`` and ``db check``; ``validate`` of the corpus (358 files) with and
without the 224-character whalebucket script; with ``--big``, ``validate`` of a folder of 10,000
corpus copies at ``--jobs 1`` and ``2`` and its peak memory; cold ``build`` and ``build --night``
of the 25-character example (time, peak memory, PDF size); whalebucket ``build --night`` and the
layouts each of its parts took; ``watch``: from a save of the script to the new PDF; with
``--instructions``, the instructions of one cold ``build --night`` per side (valgrind), a figure the
machine's varying speed does not touch.
"""

import argparse
import json
import os
from pathlib import Path
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from corpus import OFFICIAL, SHARED, corpus_files

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "faith-trust-and-pixie-dust.json"
WHALE = SHARED / "scripts" / "totox00-whalebucket.official.json"


class Side:
    """One checkout's Python with its own user folders."""

    def __init__(self, python: str, data: Path, cache: Path):
        self.python, self.cache = python, cache
        self.cwd = cache.parent  # not a checkout: `python -m` puts the working folder first on sys.path
        self.env = {**os.environ, "XDG_DATA_HOME": str(data), "XDG_CACHE_HOME": str(cache)}
        self.env.pop("SCRIPTFORGE_PACKS", None)
        # as installed: bytecode compiled once and reused (this workplace sets the variable, which
        # made every run compile ~50 modules from source: ~0.1 s of a 0.5 s cold build)
        self.env.pop("PYTHONDONTWRITEBYTECODE", None)

    def run(self, args: list[str], cwd: Path | None = None) -> tuple[float, float, int, str]:
        """(wall s, CPU s, peak RSS KiB, stdout) of `scriptforge ARGS` in a new process."""
        start = time.perf_counter()
        process = subprocess.Popen([self.python, "-m", "scriptforge", *args], cwd=cwd or self.cwd, env=self.env,
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        assert process.stdout is not None
        out = process.stdout.read()
        _, status, usage = os.wait4(process.pid, 0)  # this child's own CPU time and peak memory
        process.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - start
        return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, out


def timed(label: str, sides: list[Side], args: list[str], runs: int, floor: float | None, **kw) -> dict:
    """Median wall and CPU per side, the runs alternated; printed with the ratio to the baseline."""
    for side in sides:  # an untimed run fills the caches (as after installing)
        side.run(args, **kw)
    walls: list[list[float]] = [[] for _ in sides]
    cpus: list[list[float]] = [[] for _ in sides]
    for _ in range(runs):
        for index, side in enumerate(sides):
            wall, cpu, _, _ = side.run(args, **kw)
            walls[index].append(wall)
            cpus[index].append(cpu)
    wall, cpu = statistics.median(walls[0]), statistics.median(cpus[0])
    line = f"{label:<52} wall {wall:6.2f} s  CPU {cpu:6.2f} s"
    if len(sides) > 1:
        base_wall, base_cpu = statistics.median(walls[1]), statistics.median(cpus[1])
        line += f"  vs baseline: wall {wall / base_wall:4.2f}×, CPU {cpu / base_cpu:4.2f}×"
    elif floor:
        line += f"  ({wall / floor:.1f}× python -c pass)"
    print(line, flush=True)
    return {"wall": wall, "cpu": cpu}


def floor_time(runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def install_pack(side: Side) -> None:
    subprocess.run([side.python, "-m", "scriptforge", "pack", "update", "--from", str(OFFICIAL), "--lang", "en"],
                   env=side.env, check=True, capture_output=True, cwd=side.cwd)


def layouts_per_part(python: str, env: dict) -> str:
    """Whalebucket `build --night` in one process: the layouts and scale of each part."""
    code = f"""
import sys, tempfile
from pathlib import Path
from scriptforge.db.loading import load_database
from scriptforge.db.pack_store import active_packs
from scriptforge.render.pipeline import build
from scriptforge.render.pdf import Renderer
layouts = []
lay = Renderer.layout
def counted(self, html, *args, **kwargs):
    layouts.append("<section" in html)  # False: page footers alone, over empty pages (footers.with_margin_boxes)
    return lay(self, html, *args, **kwargs)
Renderer.layout = counted
rendered = []
render = Renderer.render
def kept(self, *args, **kwargs):
    rendered.append(render(self, *args, **kwargs))
    return rendered[-1]
Renderer.render = kept
out = Path(tempfile.mkdtemp()) / "w.pdf"
try:  # a tree with render.options takes the language in one PrintSettings
    from scriptforge.render.options import PrintSettings
    language = dict(settings=PrintSettings(lang="en"))
except ImportError:
    language = dict(lang="en")
result = build(Path({str(WHALE)!r}), load_database(None, active_packs([])), Renderer(), target=out, night=True, **language)
fitted = getattr(rendered[-1], "fitted", None) if rendered else None
parts = "; ".join(f"{{f.part}}: {{f.layouts}} layouts, {{round(f.scale * 100)}}%, {{f.pages}} pages" for f in fitted or [])
footers = layouts.count(False)
print(f"{{result.pages}} pages, {{len(layouts) - footers}} layouts in all" + (f" ({{parts}})" if parts else "")
      + (f", and {{footers}} of the page footers alone" if footers else ""))
"""
    done = subprocess.run([python, "-c", code], env=env, capture_output=True, text=True, cwd=WHALE.parent)
    return done.stdout.strip() or done.stderr.strip().splitlines()[-1]


def watch_latency(side: Side, folder: Path, saves: int = 5) -> list[float]:
    """Seconds from a save of a 25-character script to its new PDF (sheet + nights), warm."""
    script = folder / "watched.json"
    script.write_text(EXAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    out = folder / "watched.pdf"
    process = subprocess.Popen([side.python, "-m", "scriptforge", "watch", str(script), "-o", str(out), "--night",
                                "--lang", "ko"], env=side.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               cwd=side.cwd)
    try:
        deadline = time.monotonic() + 120
        while not out.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        latencies = []
        data = json.loads(script.read_text(encoding="utf-8"))
        for n in range(saves):
            time.sleep(0.5)
            before = out.stat().st_mtime_ns
            data[0]["author"] = f"save {n}"
            temporary = folder / "watched.saving"
            temporary.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
            start = time.perf_counter()
            os.replace(temporary, script)
            while out.stat().st_mtime_ns == before and time.perf_counter() - start < 60:
                time.sleep(0.002)
            latencies.append(time.perf_counter() - start)
        return latencies
    finally:
        process.terminate()
        process.wait()


def instructions(side: Side, args: list[str]) -> int:
    """The instructions one cold run of `scriptforge ARGS` executes (valgrind's callgrind: the same
    count on a busy machine as on an idle one, which the times are not)."""
    with tempfile.TemporaryDirectory() as folder:
        result = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={folder}/out",
                                 side.python, "-m", "scriptforge", *args], env=side.env, cwd=side.cwd,
                                capture_output=True, text=True, check=True)
    return int(re.search(r"Collected : (\d+)", result.stderr).group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--against", help="the Python of another checkout's virtualenv (the baseline)")
    parser.add_argument("--big", action="store_true", help="also validate a folder of 10,000 corpus copies")
    parser.add_argument("--instructions", action="store_true",
                        help="also count the instructions of a cold build --night (needs valgrind)")
    args = parser.parse_args()
    if not corpus_files():
        print(f"no corpus under {SHARED}", file=sys.stderr)
        return 2
    work = Path(tempfile.mkdtemp(prefix="scriptforge-figures-"))
    try:
        sides = [Side(sys.executable, work / "data", work / "cache")]
        if args.against:
            sides.append(Side(args.against, work / "data-baseline", work / "cache-baseline"))
        for side in sides:
            install_pack(side)
        load = os.getloadavg()[0]
        floor = floor_time(args.runs)
        print(f"load average {load:.1f}; python -c pass {floor:.3f} s; {args.runs} runs per figure"
              + (f"; baseline {args.against}" if args.against else ""))
        timed("cold show imp", sides, ["show", "imp"], args.runs, floor)
        timed("cold db check", sides, ["db", "check"], args.runs, floor)
        corpus = [str(p) for p in corpus_files()]
        timed(f"validate {len(corpus)} corpus files", sides, ["validate", "--format", "jsonl", *corpus],
              args.runs, floor)
        rest = [p for p in corpus if p != str(WHALE)]
        timed(f"validate {len(rest)} corpus files (without whalebucket)", sides,
              ["validate", "--format", "jsonl", *rest], args.runs, floor)
        out = work / "out"
        out.mkdir()
        for extra, label in (([], "cold build (one page)"), (["--night"], "cold build --night (3 pages)")):
            timed(label, sides, ["build", str(EXAMPLE), "--lang", "ko", "-o", str(out / "sheet.pdf"), *extra],
                  args.runs, floor)
            for side in sides:
                _, _, rss, _ = side.run(["build", str(EXAMPLE), "--lang", "ko", "-o", str(out / "sheet.pdf"), *extra])
                print(f"{'':<52} {side.python}: peak memory {rss / 1024:.0f} MiB, "
                      f"PDF {(out / 'sheet.pdf').stat().st_size / 1024:.0f} KiB")
        timed("whalebucket build --night (224 characters)", sides,
              ["build", str(WHALE), "--night", "--lang", "en", "-o", str(out / "whale.pdf")], max(1, args.runs // 3),
              floor)
        for side in sides:
            print(f"{'':<52} {side.python}: {layouts_per_part(side.python, side.env)}", flush=True)
        if args.instructions:
            counts = [instructions(side, ["build", str(EXAMPLE), "--lang", "ko", "--night", "-o", str(out / "sheet.pdf")])
                      for side in sides]
            line = f"{'cold build --night, instructions (callgrind)':<52} {counts[0] / 1e9:.3f} G"
            if len(counts) > 1:
                line += f"  vs baseline {counts[1] / 1e9:.3f} G: {counts[0] / counts[1]:.3f}×"
            print(line, flush=True)
        latencies = watch_latency(sides[0], work)
        print(f"{'watch: save to new PDF (sheet + nights, warm)':<52} median {statistics.median(latencies):.2f} s, "
              f"best {min(latencies):.2f} s of {len(latencies)} saves")
        if args.big:
            folder = work / "big"
            folder.mkdir()
            files = corpus_files()
            for n in range(10_000):
                shutil.copyfile(files[n % len(files)], folder / f"{n:05d}-{files[n % len(files)].name}")
            for jobs in ("1", "2"):
                for side in sides:
                    if jobs == "2" and side is not sides[0]:
                        continue  # the baseline may have no --jobs for validate
                    named = [str(folder)] if jobs == "2" else sorted(map(str, folder.iterdir()))  # files: as main takes them
                    wall, cpu, rss, _ = side.run(["validate", "--format", "jsonl", "--jobs", jobs, *named]
                                                 if jobs == "2" else ["validate", "--format", "jsonl", *named])
                    print(f"validate 10,000 files --jobs {jobs} ({side.python}): wall {wall:.1f} s, "
                          f"CPU {cpu:.1f} s (this process), peak memory {rss / 1024:.0f} MiB", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
