"""Cold-start times of the reference commands (each run is a new process).

    python benchmarks/bench_reference.py [--runs 7]

Prints the median and best wall time of `scriptforge show imp`, `scriptforge show 릴몬스타
--format json`, `scriptforge list` and `scriptforge db check`, of the same for another game
(`--game salem`), of the shell's completion of a name (what one Tab costs), and the bare Python
start-up for comparison (the floor any command pays).
"""

import argparse
import sys

from coldrun import cold

COMPLETE = ["env", "_SCRIPTFORGE_COMPLETE=bash_complete"]  # click's completion, as the bash script calls it
COMMANDS = {
    "python -c pass (floor)": [sys.executable, "-c", "pass"],
    "show imp": [sys.executable, "-m", "scriptforge", "show", "imp"],
    "show 릴몬스타 --format json": [sys.executable, "-m", "scriptforge", "show", "릴몬스타", "--format", "json"],
    "list": [sys.executable, "-m", "scriptforge", "list"],
    "db check": [sys.executable, "-m", "scriptforge", "db", "check"],
    "list --game salem": [sys.executable, "-m", "scriptforge", "list", "--game", "salem"],
    "show 자백 --game salem": [sys.executable, "-m", "scriptforge", "show", "자백", "--game", "salem"],
    "db check --game salem": [sys.executable, "-m", "scriptforge", "db", "check", "--game", "salem"],
    "<Tab>: show 릴": [*COMPLETE, "COMP_WORDS=scriptforge show 릴", "COMP_CWORD=2", sys.executable, "-m", "scriptforge"],
    "<Tab>: show --game salem 마사": [*COMPLETE, "COMP_WORDS=scriptforge show --game salem 마사", "COMP_CWORD=4",
                                     sys.executable, "-m", "scriptforge"],
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    print(f"{'command':<30} {'median':>8} {'best':>8}")
    for label, argv in COMMANDS.items():
        timing = cold([], runs=args.runs, command=argv)
        median, best = timing.median, timing.best
        print(f"{label:<30} {median:>7.3f}s {best:>7.3f}s")


if __name__ == "__main__":
    main()
