"""Render benchmark for seed 000 (examples/faith-trust-and-pixie-dust.json), Korean, A4.

Prints: cold `scriptforge build` and `build --night` (fresh subprocesses, best of N), the child's
peak memory (ru_maxrss), the PDF size, WeasyPrint alone laying out the same HTML (the floor) and a
batch of 20 copies in one call against 20 cold runs.

    python benchmarks/bench_render.py [--runs 3]
"""

import argparse
import os
from pathlib import Path
import resource
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "examples" / "faith-trust-and-pixie-dust.json"
CLI = [sys.executable, "-c", "from scriptforge.cli import main; main()"]


def cold(args: list[str], cwd: Path, runs: int) -> tuple[float, int]:
    """(best wall time in s, peak RSS in KiB of the child) of `scriptforge ARGS`."""
    best, peak = float("inf"), 0
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        start = time.perf_counter()
        subprocess.run(CLI + args, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - start)
        peak = max(peak, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, before)
    return best, peak


def layout_floor(runs: int) -> float:
    from scriptforge.database import load_database
    from scriptforge.render.pdf import Renderer
    from scriptforge.render.views import make_view
    from scriptforge.script import read_script
    import weasyprint

    db = load_database()
    renderer = Renderer()
    html = renderer.html(make_view(read_script(SCRIPT, db), db, "ko", "a4"))
    weasyprint.HTML(string=html, base_url=SCRIPT.parent.as_uri() + "/").render(font_config=renderer.font_config)
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        weasyprint.HTML(string=html, base_url=SCRIPT.parent.as_uri() + "/").render(font_config=renderer.font_config)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--batch", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        t_build, rss_build = cold(["build", str(SCRIPT), "--lang", "ko", "-o", "sheet.pdf"], tmp, args.runs)
        size = (tmp / "sheet.pdf").stat().st_size
        t_night, rss_night = cold(["build", str(SCRIPT), "--lang", "ko", "--night", "-o", "night.pdf"], tmp, args.runs)
        night_size = (tmp / "night.pdf").stat().st_size
        print(f"cold build (ko, A4):              {t_build:.2f} s   peak RSS {rss_build / 1024:.0f} MiB   "
              f"PDF {size / 1024:.0f} KB")
        print(f"cold build --night (3 pages):     {t_night:.2f} s   peak RSS {rss_night / 1024:.0f} MiB   "
              f"PDF {night_size / 1024:.0f} KB")
        print(f"WeasyPrint layout alone (floor):  {layout_floor(args.runs):.2f} s")
        batch = tmp / "batch"
        batch.mkdir()
        for i in range(args.batch):
            shutil.copy(SCRIPT, batch / f"s{i:02d}.json")
        start = time.perf_counter()
        subprocess.run(CLI + ["build", str(batch), "-o", str(tmp / "out")], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        t_batch = time.perf_counter() - start
        print(f"batch of {args.batch} in one call:           {t_batch:.2f} s   "
              f"({args.batch * t_build / t_batch:.1f}x faster than {args.batch} cold runs at {t_build:.2f} s)")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    main()
