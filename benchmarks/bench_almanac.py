"""Almanac benchmark: the 25-character almanac of seed 001 (examples/english-almanac-25.json).

Prints the cold `scriptforge almanac` time (a fresh process, best of N: wall clock and the child's
CPU time, which says more on a busy machine), the page count and PDF size, then the same almanac
rendered warm in one process (WeasyPrint imported), split into view model, HTML, layout and PDF
writing.
Target: under 5 s cold.

    python benchmarks/bench_almanac.py [--runs 3] [--lang en]
"""

import argparse
from pathlib import Path
import tempfile

from coldrun import cold, load_average, machine_speed, warm_phases

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "examples" / "english-almanac-25.json"


def warm(lang: str) -> dict[str, float]:
    from scriptforge.db.loading import load_database
    from scriptforge.scripts.analysis import analyse
    from scriptforge.render.almanac import almanac_view
    from scriptforge.scripts.script import read_script

    db = load_database()
    return warm_phases(lambda: almanac_view(analyse(read_script(SCRIPT, db), db), lang), "almanac.html.j2",
                       SCRIPT.parent)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--lang", default="en", choices=["ko", "en", "ko+en"])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "almanac.pdf"
        timing = cold(["almanac", str(SCRIPT), "--lang", args.lang, "-o", str(out)], Path(tmp), args.runs)
        from pypdf import PdfReader

        pages = len(PdfReader(out).pages)
        size = out.stat().st_size
    print(f"cold almanac ({args.lang}, A4, 25 characters): best {timing.best:.2f} s, median {timing.median:.2f} s, "
          f"CPU {timing.cpu:.2f} s   {pages} pages, {size / 1024:.0f} KiB   (of {args.runs} runs; load average "
          f"{load_average()}; {machine_speed()}; target < 5 s)")
    for step, seconds in warm(args.lang).items():
        print(f"  warm {step:<12} {seconds:6.2f} s")


if __name__ == "__main__":
    main()
