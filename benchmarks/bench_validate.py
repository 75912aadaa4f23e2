"""How long `validate` takes over the whole reference corpus, in one process, and per script.

Run:  python benchmarks/bench_validate.py [--top N]
Reads ../shared/reference/scripts/*.json and ../shared/reference/official/wc25/*/script.json.
"""

import argparse
import sys
import time

from corpus import SHARED, corpus_files



def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=10, help="how many of the slowest scripts to list")
    args = parser.parse_args()
    files = corpus_files()
    if not files:
        print(f"no corpus under {SHARED}", file=sys.stderr)
        return 2

    start = time.perf_counter()
    from scriptforge.db.loading import load_database
    from scriptforge.io.errors import InputError
    from scriptforge.scripts.analysis import validate_file

    db = load_database()
    setup_time = time.perf_counter() - start

    timings, verdicts = [], {"ok": 0, "errors": 0, "unreadable": 0}
    corpus_start = time.perf_counter()
    for path in files:
        t0 = time.perf_counter()
        try:
            report = validate_file(path, db)
            verdicts["ok" if report.ok else "errors"] += 1
        except InputError:
            verdicts["unreadable"] += 1
        timings.append((time.perf_counter() - t0, path))
    corpus_time = time.perf_counter() - corpus_start

    timings.sort(reverse=True)
    print(f"scripts: {len(files)}  ({verdicts['ok']} ok, {verdicts['errors']} with errors, "
          f"{verdicts['unreadable']} unreadable)")
    print(f"imports + database load: {setup_time:.3f} s")
    print(f"validate, whole corpus:  {corpus_time:.3f} s (target < 3 s)")
    print(f"per script: mean {1000 * corpus_time / len(files):.2f} ms, "
          f"median {1000 * timings[len(timings) // 2][0]:.2f} ms, max {1000 * timings[0][0]:.2f} ms")
    print(f"slowest {min(args.top, len(timings))}:")
    for seconds, path in timings[: args.top]:
        print(f"  {1000 * seconds:8.2f} ms  {path.relative_to(SHARED)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
