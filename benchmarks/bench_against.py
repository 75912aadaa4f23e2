"""This checkout against another one, alternated run by run: the bars of "Speed without tricks".

Run:  python benchmarks/bench_against.py --against /path/to/base/.venv/bin/python [--runs 5]

Each figure is the median CPU time (user + system) of new processes, this checkout's and the
baseline's alternated so the machine's drifting speed touches both alike, each side with its own
user cache, filled by one untimed run first: a cold ``build --night`` of the example, a batch
``build`` of 20 corpus scripts, ``watch`` from a save to the new PDF, and ``validate`` of a
folder of 10,000 corpus copies (``--big``). The ratio is this checkout's median over the baseline's.
"""

import argparse
from pathlib import Path
import shutil
import statistics
import sys
import tempfile

from corpus import corpus_files
from figures import EXAMPLE, Side, install_pack, watch_latency


def pairs(label: str, sides: list[Side], args: list[str], runs: int) -> float:
    for side in sides:
        side.run(args)  # fills the side's cache
    cpu: list[list[float]] = [[], []]
    for _ in range(runs):
        for index, side in enumerate(sides):
            cpu[index].append(side.run(args)[1])
    ours, base = (statistics.median(times) for times in cpu)
    print(f"{label:<44} CPU {ours:.3f} s vs {base:.3f} s: {ours / base:.3f}x", flush=True)
    return ours / base


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", required=True, help="the Python of the baseline checkout's virtualenv")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--big", action="store_true", help="also validate a folder of 10,000 corpus copies")
    args = parser.parse_args()
    files = corpus_files()
    if not files:
        print("no corpus under ../shared/reference/scripts", file=sys.stderr)
        return 2
    work = Path(tempfile.mkdtemp(prefix="scriptforge-against-"))
    try:
        sides = [Side(sys.executable, work / "data", work / "cache"),
                 Side(args.against, work / "data-base", work / "cache-base")]
        for side in sides:
            install_pack(side)
        out = work / "out"
        out.mkdir()
        pairs("cold build --night (example)", sides,
              ["build", str(EXAMPLE), "--lang", "ko", "--night", "-o", str(out / "sheet.pdf")], args.runs)
        batch = work / "batch"
        batch.mkdir()
        for file in files[:: max(1, len(files) // 20)][:20]:
            shutil.copyfile(file, batch / file.name)
        pairs("build of 20 corpus scripts (one process)", sides,
              ["build", *sorted(map(str, batch.iterdir())), "-o", str(out / "batch") + "/"], max(1, args.runs // 2))
        latencies: list[list[float]] = [[], []]
        for index in range(2):
            (work / f"watch{index}").mkdir()
        for _ in range(max(1, args.runs // 2)):
            for index, side in enumerate(sides):
                latencies[index] += watch_latency(side, work / f"watch{index}", saves=3)
        ours, base = (statistics.median(times) for times in latencies)
        print(f"{'watch: save to new PDF (wall, median)':<44} {ours:.3f} s vs {base:.3f} s: {ours / base:.3f}x")
        if args.big:
            folder = work / "big"
            folder.mkdir()
            for n in range(10_000):
                shutil.copyfile(files[n % len(files)], folder / f"{n:05d}-{files[n % len(files)].name}")
            pairs("validate 10,000 files", sides, ["validate", "--format", "jsonl", str(folder)],
                  max(1, args.runs // 2))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
