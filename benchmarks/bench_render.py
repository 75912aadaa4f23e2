"""Render benchmark for seed 000 (examples/faith-trust-and-pixie-dust.json), Korean, A4.

Prints: cold `scriptforge build` and `build --night` (fresh subprocesses: best and median wall
time, best CPU time), the child's peak memory (ru_maxrss), the PDF size, WeasyPrint alone laying
out the same HTML (the floor) and a batch of 20 copies in one call against 20 cold runs; and the
load average, since other work on the machine stretches wall times.

    python benchmarks/bench_render.py [--runs 5] [--batch 20]
"""

import argparse
import os
from pathlib import Path
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "examples" / "faith-trust-and-pixie-dust.json"
CLI = [sys.executable, "-c", "from scriptforge.cli import main; main()"]


def cold(args: list[str], cwd: Path, runs: int) -> tuple[float, float, float, int]:
    """(best wall s, median wall s, best CPU s, peak RSS KiB) of `scriptforge ARGS` in new processes.

    CPU is the child's user + system time: on a busy machine it shows the work done, where the
    wall time also counts the time spent waiting for a core.
    """
    walls, cpus, peak = [], [], 0
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(CLI + args, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        peak = max(peak, after.ru_maxrss)
    return min(walls), statistics.median(walls), min(cpus), peak


def layout_floor(runs: int) -> tuple[float, float]:
    """(best wall s, best CPU s) of WeasyPrint alone laying out the `build --night` HTML."""
    from scriptforge.database import load_database
    from scriptforge.render.pdf import Renderer, import_weasyprint
    from scriptforge.render.views import keep_korean_words, make_view
    from scriptforge.script import read_script

    weasyprint = import_weasyprint()
    db = load_database()
    renderer = Renderer()
    view = keep_korean_words(make_view(read_script(SCRIPT, db), db, "ko", "a4", night=True))
    html = renderer.html(view)
    css = [renderer.stylesheet]
    weasyprint.HTML(string=html, base_url=SCRIPT.parent.as_uri() + "/").render(font_config=renderer.font_config,
                                                                             stylesheets=css)
    wall, cpu = float("inf"), float("inf")
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        weasyprint.HTML(string=html, base_url=SCRIPT.parent.as_uri() + "/").render(font_config=renderer.font_config,
                                                                                 stylesheets=css)
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--batch", type=int, default=20)
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        # one untimed run: writes the user-cache files (fontconfig, compiled templates) a fresh
        # install writes on its first run
        subprocess.run(CLI + ["build", str(SCRIPT), "-o", "warm.pdf"], cwd=tmp, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        rows = []
        for label, extra, name in (("cold build (ko, A4)", [], "sheet.pdf"),
                                   ("cold build --night (3 pages)", ["--night"], "night.pdf")):
            best, median, cpu, rss = cold(["build", str(SCRIPT), "--lang", "ko", *extra, "-o", name], tmp, args.runs)
            size = (tmp / name).stat().st_size
            rows.append(best)
            print(f"{label + ':':<30} best {best:.2f} s  median {median:.2f} s  CPU {cpu:.2f} s  "
                  f"peak RSS {rss / 1024:.0f} MiB  PDF {size / 1024:.0f} KB")
        wall, cpu = layout_floor(args.runs)
        print(f"{'WeasyPrint layout alone:':<30} best {wall:.2f} s  CPU {cpu:.2f} s  (the same 3-page HTML: the floor)")
        t_build = rows[0]
        batch = tmp / "batch"
        batch.mkdir()
        for i in range(args.batch):
            shutil.copy(SCRIPT, batch / f"s{i:02d}.json")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(CLI + ["build", str(batch), "--lang", "ko", "-o", str(tmp / "out")], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        t_batch = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu_batch = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        print(f"{f'batch of {args.batch} in one call:':<30} {t_batch:.2f} s  CPU {cpu_batch:.2f} s  "
              f"({args.batch * t_build / t_batch:.1f}x faster than {args.batch} cold runs at {t_build:.2f} s)")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    main()
