"""Peak memory of one `scriptforge validate` over 10,000 files, and how soon the first result prints.

Run:  python benchmarks/bench_validate_memory.py [--files 10000] [--format jsonl|json|text] [--limit-mib 100]
Copies the reference corpus (../shared/reference/scripts/*.json and official/wc25/*/script.json)
round-robin into a temporary folder until there are --files of them, runs one `validate` over all
of them in a child process and prints its peak resident memory (ru_maxrss); exits 1 when the peak
is over --limit-mib or the output is not one result per file.
"""

import argparse
from pathlib import Path
import resource
import shutil
import subprocess
import sys
import tempfile
import time

from corpus import SHARED, corpus_files



def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--format", default="jsonl", choices=["jsonl", "json", "text"])
    parser.add_argument("--limit-mib", type=float, default=100.0)
    args = parser.parse_args()
    corpus = corpus_files()
    if not corpus:
        print(f"no corpus under {SHARED}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="scriptforge-bench-") as folder:
        files = []
        for n in range(args.files):
            target = Path(folder) / f"{n:05d}-{corpus[n % len(corpus)].name}"
            shutil.copyfile(corpus[n % len(corpus)], target)
            files.append(str(target))
        command = [sys.executable, "-m", "scriptforge", "validate", "--format", args.format, *files]
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        assert process.stdout is not None
        first_line_after = None
        lines = 0
        for line in process.stdout:
            if first_line_after is None:
                first_line_after = time.perf_counter() - start
            lines += line.startswith('{"file"') if args.format == "jsonl" else 1
        process.wait()
        elapsed = time.perf_counter() - start
    peak_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"validate --format {args.format}: {args.files} files in {elapsed:.1f} s, exit code {process.returncode}; "
          f"first result after {first_line_after or 0:.2f} s; peak memory {peak_mib:.1f} MiB "
          f"(limit {args.limit_mib:.0f} MiB)")
    if args.format == "jsonl" and lines != args.files:
        print(f"expected {args.files} result lines, got {lines}", file=sys.stderr)
        return 1
    return 0 if peak_mib <= args.limit_mib else 1


if __name__ == "__main__":
    sys.exit(main())
