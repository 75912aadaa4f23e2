"""How long the setup table (every legal bag, 11 player counts) takes for the whole corpus.

    python benchmarks/bench_setup.py [--top N]

Imports ../shared/reference/official/{roles,nightsheet,jinxes}.json into a temporary pack, reads
every well-formed script of ../shared/reference/scripts/ and ../shared/reference/official/wc25/
with it, then times `setup_table` over all of them in one process (target: under 2 s of CPU; the
bags are not built for the table). Then spells out every count's bags (untimed) to check the
invariants (every bag sums to its player count; every range end is a bag) and prints the slowest
scripts with how each was counted (one selection at a time, by classes, or bounds) and how many
cannot be filled at some count.
"""

import argparse
from pathlib import Path
import sys
import tempfile
import time

from corpus import SHARED, corpus_files



def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=5, help="how many of the slowest scripts to list")
    args = parser.parse_args()
    official = SHARED / "official"
    files = corpus_files()
    if not files:
        print(f"no corpus under {SHARED}", file=sys.stderr)
        return 2

    from scriptforge.db.loading import load_database
    from scriptforge.io.errors import InputError
    from scriptforge.packs.install import import_pack
    from scriptforge.rules.setup import COUNTS, setup_table
    from scriptforge.scripts.script import read_script

    with tempfile.TemporaryDirectory() as tmp:
        pack, _ = import_pack([official / "roles.json", official / "nightsheet.json", official / "jinxes.json"],
                              out=Path(tmp) / "official")
        db = load_database(packs=[pack])
        scripts = []
        for path in files:
            try:
                scripts.append((path, read_script(path, db)))
            except InputError:
                pass
        timings, broken, unfillable, bags, tables = [], [], 0, 0, []
        start, cpu = time.perf_counter(), time.process_time()
        for path, script in scripts:
            t0 = time.perf_counter()
            rows = setup_table(script.characters, db)
            timings.append((time.perf_counter() - t0, path.name, "one by one" if rows[0].detailed else
                            "classes" if rows[0].exact else "bounds"))
            unfillable += any(not r.feasible for r in rows)
            tables.append((path, rows))
        total, cpu = time.perf_counter() - start, time.process_time() - cpu
        for path, rows in tables:  # the bags, spelled out only now (not timed): the invariants
            for row in rows:
                bags += len(row.bags)
                if row.listable and (any(sum(b.counts) != row.players for b in row.bags) or any(
                        row.ranges[k][end] not in {b.counts[i] for b in row.bags}
                        for i, k in enumerate(COUNTS) for end in (0, 1))):
                    broken.append(f"{path.name} at {row.players}")
    print(f"{len(scripts)} scripts x 11 player counts: {total:.2f} s in one process, {cpu:.2f} s of CPU "
          f"({'under' if cpu < 2 else 'OVER'} the 2 s target); then {bags} bags spelled out for the checks")
    print(f"scripts with a player count no bag can fill: {unfillable}")
    print(f"invariant failures: {len(broken)}" + (f" ({', '.join(broken[:5])})" if broken else ""))
    print("slowest:")
    for seconds, name, mode in sorted(timings, reverse=True)[: args.top]:
        print(f"  {seconds * 1000:8.1f} ms  {mode:<10}  {name}")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
