"""The setup model on combinatorial scripts: N homebrew setup characters of different effects
(the hostile case of issue 30: 25 of them ended in a MemoryError after 108 s), alone and beside
the 224-character corpus script.

    python benchmarks/bench_setup_bounds.py [--sizes 10,25,30,40]

Prints per case: selections, whether the table is counted one selection at a time or by
classes, seconds, peak memory of the process (ru_maxrss), and the 9-player row's ranges.
"""

import argparse
import resource
import sys
import time

from corpus import SHARED

EFFECTS = ["+1 Outsider", "-1 Outsider", "+0 or +1 Outsider", "-1 or +1 Outsider", "+2 Outsiders",
           "-0 or -1 Outsider", "+1 Minion", "+1 Townsfolk", "-1 Townsfolk", "+0 to +2 Outsiders"]
TEAMS = ["townsfolk", "outsider", "minion", "demon"]


def homebrew(n: int) -> list[dict]:
    """n characters, each team in turn, each effect a different combination of EFFECTS."""
    out = []
    for i in range(n):
        first, second = EFFECTS[i % len(EFFECTS)], EFFECTS[(i // len(EFFECTS) + i + 1) % len(EFFECTS)]
        out.append({"id": f"hb{i}", "name": f"Homebrew {i}", "team": TEAMS[i % 4],
                    "ability": f"Something happens. [{first}. {second}]"})
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10,25,30,40")
    args = parser.parse_args()

    from scriptforge.db.loading import load_database
    from scriptforge.rules.setup import MAX_SELECTIONS, setup_table
    from scriptforge.rules.setup_selections import _pool, _selection_count
    from scriptforge.scripts.script import read_script, script_from_data

    db = load_database()
    plain = ["chef", "noble", "clockmaker", "grandmother", "librarian", "pixie", "empath", "sailor", "investigator",
             "recluse", "mutant", "zealot", "poisoner", "witch", "scarletwoman", "imp"]
    cases = [(f"{n} homebrew setup characters", plain + homebrew(n)) for n in map(int, args.sizes.split(","))]
    whale = SHARED / "scripts" / "totox00-whalebucket.official.json"
    if whale.exists():
        import json

        cases.append(("224-character script + 6 homebrew setup characters",
                      json.loads(whale.read_text(encoding="utf-8")) + homebrew(6)))
    print(f"{'case':<55} {'selections':>14} {'mode':>9} {'seconds':>8} {'peak MiB':>9}  9 players")
    for label, data in cases:
        script = script_from_data(data, db) if not isinstance(data, str) else read_script(data, db)
        start = time.perf_counter()
        rows = setup_table(script.characters, db)
        seconds = time.perf_counter() - start
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        selections = _selection_count(_pool(script.characters, db))
        mode = "one-by-one" if selections <= MAX_SELECTIONS else "classes"
        nine = {k: v for k, v in rows[4].ranges.items()}
        print(f"{label:<55} {selections:>14,} {mode:>9} {seconds:>8.2f} {peak:>9.0f}  {nine}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
