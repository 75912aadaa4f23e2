"""The fuzz suite's long profile: the tests of tests/test_fuzz.py with 10,000+ cases in all.

Run:  python benchmarks/fuzz_long.py [--examples 3000]
Prints the cases run per kind of file and the tracebacks seen; exits 1 on any failing case
(hypothesis prints the smallest input that fails).
"""

import argparse
import os
from pathlib import Path
import sys
import tempfile
import time
import traceback

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=3000,
                        help="cases per test before its weight (3000: about 10,300 cases)")
    args = parser.parse_args()
    os.environ["SCRIPTFORGE_FUZZ_EXAMPLES"] = str(args.examples)
    os.environ.setdefault("XDG_CACHE_HOME", tempfile.mkdtemp(prefix="scriptforge-fuzz-cache-"))
    sys.path.insert(0, str(ROOT))
    from tests import test_fuzz

    failed = []
    start = time.perf_counter()
    for test in test_fuzz.FUZZ_TESTS:
        t0 = time.perf_counter()
        try:
            test()
        except Exception:  # a failing case: hypothesis has shrunk it; show it and go on with the next test
            failed.append(test.__name__)
            traceback.print_exc()
        print(f"{test.__name__}: {time.perf_counter() - t0:.0f} s", flush=True)
    cases = sum(n for kind, n in test_fuzz.CASES.items() if kind != "tracebacks")
    kinds = ", ".join(f"{kind} {n}" for kind, n in sorted(test_fuzz.CASES.items()) if kind != "tracebacks")
    print(f"{cases} cases ({kinds}) in {time.perf_counter() - start:.0f} s; "
          f"{test_fuzz.CASES['tracebacks']} tracebacks; failing tests: {', '.join(failed) or 'none'}")
    return 1 if failed or test_fuzz.CASES["tracebacks"] else 0


if __name__ == "__main__":
    sys.exit(main())
