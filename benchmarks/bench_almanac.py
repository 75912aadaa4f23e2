"""Almanac benchmark: the 25-character almanac of seed 001 (examples/english-almanac-25.json).

Prints the cold `scriptforge almanac` time (a fresh process, best of N: wall clock and the child's
CPU time, which says more on a busy machine), the page count and PDF size, then the same almanac
rendered warm in one process, split into view model, HTML, layout and PDF writing.
Target: under 5 s cold.

    python benchmarks/bench_almanac.py [--runs 3] [--lang en]
"""

import argparse
import os
from pathlib import Path
import resource
import subprocess
import sys
import tempfile
import time

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "examples" / "english-almanac-25.json"
CLI = [sys.executable, "-c", "from scriptforge.cli import main; main()"]


def cold(args: list[str], cwd: Path, runs: int) -> tuple[float, float]:
    """(best wall time, best child CPU time) in seconds of `scriptforge ARGS` in a new process."""
    best_wall, best_cpu = float("inf"), float("inf")
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(CLI + args, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        best_wall, best_cpu = min(best_wall, wall), min(best_cpu, cpu)
    return best_wall, best_cpu


def warm(lang: str) -> dict[str, float]:
    from scriptforge.database import load_database
    from scriptforge.render.almanac import almanac_view
    from scriptforge.render.pdf import Renderer
    from scriptforge.script import read_script

    db = load_database()
    renderer = Renderer()
    times = {}
    start = time.perf_counter()
    view = almanac_view(read_script(SCRIPT, db), db, lang)
    times["view model"] = time.perf_counter() - start
    start = time.perf_counter()
    html = renderer.html(view, "almanac.html.j2")
    times["HTML"] = time.perf_counter() - start
    start = time.perf_counter()
    document = renderer.layout(html, SCRIPT.parent, [])
    times["layout"] = time.perf_counter() - start
    start = time.perf_counter()
    renderer.pdf_bytes([document])
    times["PDF writing"] = time.perf_counter() - start
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--lang", default="en", choices=["ko", "en", "ko+en"])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "almanac.pdf"
        wall, cpu = cold(["almanac", str(SCRIPT), "--lang", args.lang, "-o", str(out)], Path(tmp), args.runs)
        from pypdf import PdfReader

        pages = len(PdfReader(out).pages)
        size = out.stat().st_size
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"cold almanac ({args.lang}, A4, 25 characters): {wall:.2f} s wall, {cpu:.2f} s CPU   "
          f"{pages} pages, {size / 1024:.0f} KiB   (best of {args.runs}; load average {load:.1f}; target < 5 s)")
    for step, seconds in warm(args.lang).items():
        print(f"  warm {step:<12} {seconds:6.2f} s")


if __name__ == "__main__":
    main()
