"""Render benchmark for seed 000 (examples/faith-trust-and-pixie-dust.json), Korean, A4.

Prints: cold `scriptforge build` and `build --night` (fresh subprocesses: best and median wall
time, best CPU time), the child's peak memory (ru_maxrss), the PDF size, WeasyPrint alone laying
out the same HTML (the floor) and a batch of 20 copies in one call (in one process, and with
`--jobs`, by default one worker per CPU) against the same 20 scripts built one cold run after
another; and the load average and a fixed Python workload's time, since other work on the
machine, and its varying speed, stretch wall times.

    python benchmarks/bench_render.py [--runs 5] [--batch 20] [--rounds 3] [--jobs N]
"""

import argparse
import os
from pathlib import Path
import shutil
import statistics
import tempfile
import time

from coldrun import cold, load_average, machine_speed

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "examples" / "faith-trust-and-pixie-dust.json"


def layout_floor(runs: int) -> tuple[float, float]:
    """(best wall s, best CPU s) of WeasyPrint alone laying out the `build --night` HTML."""
    from scriptforge.db.loading import load_database
    from scriptforge.render.pdf import Renderer
    from scriptforge.render.weasy import import_weasyprint
    from scriptforge.scripts.analysis import analyse
    from scriptforge.render.views import keep_korean_words, make_view
    from scriptforge.scripts.script import read_script

    weasyprint = import_weasyprint()
    db = load_database()
    renderer = Renderer()
    view = keep_korean_words(make_view(analyse(read_script(SCRIPT, db), db), "ko", "a4", night=True))
    html = renderer.html(view)
    css = [renderer.templates.stylesheet]
    weasyprint.HTML(string=html, base_url=SCRIPT.parent.as_uri() + "/").render(font_config=renderer.fonts.bundled,
                                                                             stylesheets=css)
    wall, cpu = float("inf"), float("inf")
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        weasyprint.HTML(string=html, base_url=SCRIPT.parent.as_uri() + "/").render(font_config=renderer.fonts.bundled,
                                                                                 stylesheets=css)
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--batch", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3, help="rounds of 20 cold runs against the batch calls")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="worker processes for the second batch")
    args = parser.parse_args()
    print(f"load average before: {load_average()}; {machine_speed()}")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for label, extra, name in (("cold build (ko, A4)", [], "sheet.pdf"),
                                   ("cold build --night (3 pages)", ["--night"], "night.pdf")):
            timing = cold(["build", str(SCRIPT), "--lang", "ko", *extra, "-o", name], tmp, args.runs)
            size = (tmp / name).stat().st_size
            print(f"{label + ':':<30} best {timing.best:.2f} s  median {timing.median:.2f} s  CPU {timing.cpu:.2f} s  "
                  f"peak RSS {timing.peak_rss_kib / 1024:.0f} MiB  PDF {size / 1024:.0f} KB")
        wall, cpu = layout_floor(args.runs)
        print(f"{'WeasyPrint layout alone:':<30} best {wall:.2f} s  CPU {cpu:.2f} s  (the same 3-page HTML: the floor)")
        batch = tmp / "batch"
        batch.mkdir()
        for i in range(args.batch):
            shutil.copy(SCRIPT, batch / f"s{i:02d}.json")
        # What the batch saves a user: the same scripts one cold run at a time (a shell loop), in
        # total, against one call. The machine's speed drifts, so each round times the loop and
        # both calls back to back, and the ratios are taken within a round.
        loops, calls = [], {1: [], args.jobs: []}
        for _ in range(args.rounds):
            loops.append(sum(cold(["build", str(path), "--lang", "ko", "-o", str(tmp / "loop.pdf")], runs=1,
                                  warm_up=False).best for path in sorted(batch.iterdir())))
            for jobs, times in calls.items():
                times.append(cold(["build", str(batch), "--lang", "ko", "-o", str(tmp / "out"), "--jobs", str(jobs)],
                                  runs=1, warm_up=False).best)
        print(f"{f'{args.batch} cold runs in a row:':<30} " + "  ".join(f"{t:.2f}" for t in loops) + " s")
        for jobs, times in calls.items():
            label = f"batch of {args.batch}, " + ("one process:" if jobs == 1 else f"--jobs {jobs}:")
            ratios = sorted(loop / t for loop, t in zip(loops, times))
            print(f"{label:<30} " + "  ".join(f"{t:.2f}" for t in times) + " s  "
                  f"(faster than the cold runs of its round: {' '.join(f'{r:.1f}x' for r in ratios)}; "
                  f"median {statistics.median(ratios):.1f}x)")
    print(f"load average after: {load_average()}; {machine_speed()}")


if __name__ == "__main__":
    main()
