"""The image warnings of a batch: `build` of the corpus scripts with the most images (homebrew
`image` URLs), without --allow-network, and how many image warnings each script gets (the target:
at most one, "N images not fetched: use --allow-network", not one per image).

    python benchmarks/image_warnings.py [--count 30] [--jobs 2]

Uses the installed packs (run `scriptforge pack update` first for the official characters).
"""

import argparse
import json
from pathlib import Path
import subprocess
import sys
import tempfile

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.coldrun import CLI, environment  # noqa: E402
from benchmarks.corpus import corpus_files  # noqa: E402


def image_count(path: Path) -> int:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return 0
    return sum(1 for item in data if isinstance(data, list) and isinstance(item, dict) and item.get("image")) \
        if isinstance(data, list) else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=30)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    ranked = sorted(corpus_files(), key=lambda p: (-image_count(p), str(p)))[:args.count]
    with tempfile.TemporaryDirectory(prefix="scriptforge-image-warnings-") as out:
        result = subprocess.run([*CLI, "build", *map(str, ranked), "-o", out + "/", "--lang", "en", "-j", str(args.jobs),
                                 "--skip-unknown"], env=environment(), capture_output=True, text=True)
    per_script = {str(p): 0 for p in ranked}
    other = 0
    for line in result.stderr.splitlines():
        if not line.startswith("Warning: "):
            continue
        name = next((s for s in per_script if line.startswith(f"Warning: {s}: ")), None)
        if name and "image" in line.lower():
            per_script[name] += 1
        elif name is None:
            other += 1
    images = sum(image_count(p) for p in ranked)
    worst = max(per_script.values(), default=0)
    print(f"{len(ranked)} scripts with {images} images; image warnings: {sum(per_script.values())} in all, "
          f"at most {worst} per script; exit code {result.returncode}")
    for name, count in per_script.items():
        if count > 1:
            print(f"  {count} image warnings: {name}")


if __name__ == "__main__":
    main()
