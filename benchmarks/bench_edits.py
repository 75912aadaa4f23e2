"""Edits under load, with the real command in fresh processes (too slow for the test suite).

1. Concurrent edits: each round starts `scriptforge add S <a>`, `add S <b>` and
   `meta S --author <round>` at once on one script, then counts the changes that are missing.
2. Kills: `scriptforge meta S --author <n>` is killed with SIGKILL at a random moment of its run
   (uniform over 0 .. 1.2 × its measured run time); each time the script must parse and hold the
   old author or the new one, and no temporary file may be left once the next edit has run.

    python benchmarks/bench_edits.py [--rounds 30] [--kills 100]

PYTHONPATH=/other/checkout runs another version of scriptforge (e.g. before the locks).
"""

import argparse
import json
import os
from pathlib import Path
import random
import signal
import subprocess
import sys
import tempfile
import time

COMMAND = [sys.executable, "-m", "scriptforge"]


def concurrent_rounds(folder: Path, rounds: int) -> tuple[int, int]:
    """(rounds that lost a change, changes lost)."""
    listed = subprocess.run([*COMMAND, "list", "--team", "townsfolk", "--format", "json"], check=True,
                            capture_output=True, text=True).stdout
    townsfolk = [row["id"] for row in json.loads(listed)]
    bad_rounds = lost = 0
    for n in range(rounds):
        script = folder / f"round{n}.json"
        script.write_text('[{"id": "_meta", "name": "Crowd"}, "imp"]')
        a, b = random.sample(townsfolk, 2)
        runs = [subprocess.Popen([*COMMAND, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                for args in (["add", str(script), a], ["add", str(script), b],
                             ["meta", str(script), "--author", f"a{n}"])]
        for run in runs:
            _, err = run.communicate()
            if run.returncode:
                sys.exit(f"a command failed: {err.decode()}")
        data = json.loads(script.read_text())
        missing = (a not in data) + (b not in data) + (data[0].get("author") != f"a{n}")
        bad_rounds += missing > 0
        lost += missing
    return bad_rounds, lost


def kills(folder: Path, count: int) -> dict[str, int]:
    script = folder / "killed.json"
    script.write_text('[{"id": "_meta", "name": "Killed", "author": "0"}, "imp"]')
    start = time.perf_counter()
    subprocess.run([*COMMAND, "meta", str(script), "--author", "1"], check=True, stdout=subprocess.DEVNULL)
    run_time = time.perf_counter() - start
    seen = {"old": 0, "new": 0, "invalid": 0}
    for n in range(2, count + 2):
        before = json.loads(script.read_text())[0]["author"]
        proc = subprocess.Popen([*COMMAND, "meta", str(script), "--author", str(n)], stdout=subprocess.DEVNULL)
        time.sleep(random.uniform(0, 1.2 * run_time))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        try:
            author = json.loads(script.read_text())[0]["author"]
            seen["old" if author == before else "new" if author == str(n) else "invalid"] += 1
        except (ValueError, KeyError, IndexError):
            seen["invalid"] += 1
    subprocess.run([*COMMAND, "meta", str(script), "--author", "last"], check=True, stdout=subprocess.DEVNULL)
    seen["leftovers after the next edit"] = len([p for p in folder.iterdir() if p.name != script.name])
    seen["run time ms"] = round(run_time * 1000)
    return seen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--kills", type=int, default=100)
    args = parser.parse_args()
    random.seed(19)
    print(f"load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        bad, lost = concurrent_rounds(Path(tmp), args.rounds)
        print(f"concurrent add + add + meta: {bad} of {args.rounds} rounds lost a change ({lost} changes lost)")
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{args.kills} kills of `meta`: {kills(Path(tmp), args.kills)}")


if __name__ == "__main__":
    main()
