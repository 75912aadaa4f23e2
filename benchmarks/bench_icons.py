"""Character art: the cold time of `build --back --night` of the 25-character example with the
official pack's icons installed against the same pack without them, and the PDF sizes.

The icons are the made-up pictures of tests/icon_art.py (the project ships no official art), one
per official character, installed with `pack update --from DIR --icons` into a temporary data
folder; the official data files come from ../shared/reference/official. Runs alternate A/B
(without, with) in fresh processes, so the ratio is measured under the same load.

    python benchmarks/bench_icons.py [--pairs 5] [--formats]

With --formats, the same pictures are also given as `--icons DIR` folders in PNG (with
transparency, what the pack stores), JPEG (on white, quality 90) and WebP (quality 90), to compare
what each costs in time and in PDF size: WeasyPrint embeds a JPEG as it is and decodes everything
else to pixels it compresses again.
"""

import argparse
import json
import os
from pathlib import Path
import resource
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.coldrun import CLI, environment, load_average  # noqa: E402
from tests.icon_art import write_official_icons  # noqa: E402

OFFICIAL = ROOT.parent / "shared" / "reference" / "official"
SCRIPT = ROOT / "examples" / "faith-trust-and-pixie-dust.json"


def run(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def icon_folder(pack_icons: Path, target: Path, fmt: str) -> Path:
    """The pack's icons as an `--icons` folder of `fmt` files."""
    from PIL import Image

    target.mkdir()
    for path in pack_icons.glob("*.png"):
        image = Image.open(path)
        if fmt == "JPEG":
            flat = Image.new("RGB", image.size, (255, 255, 255))
            flat.paste(image, mask=image.getchannel("A"))
            image = flat
        suffix = {"PNG": ".png", "JPEG": ".jpg", "WEBP": ".webp"}[fmt]
        image.save(target / (path.stem + suffix), format=fmt, **({} if fmt == "PNG" else {"quality": 90}))
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--formats", action="store_true", help="also compare PNG, JPEG and WebP icon folders")
    args = parser.parse_args()
    if not OFFICIAL.is_dir():
        sys.exit(f"{OFFICIAL} is not available")
    work = Path(tempfile.mkdtemp(prefix="scriptforge-bench-icons-"))
    try:
        source = work / "official"
        source.mkdir()
        for name in ("roles.json", "nightsheet.json", "jinxes.json"):
            shutil.copy(OFFICIAL / name, source / name)
        write_official_icons(source, json.loads((OFFICIAL / "roles.json").read_text(encoding="utf-8")))
        envs = {}
        for label, icons in (("without", []), ("with", ["--icons"])):
            env = {**environment(), "XDG_DATA_HOME": str(work / f"data-{label}"),
                   "XDG_CACHE_HOME": str(work / f"cache-{label}")}
            env.pop("SCRIPTFORGE_PACKS", None)
            subprocess.run([*CLI, "pack", "update", "--from", str(source), "--lang", "en", *icons], env=env,
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            envs[label] = env
        out = {label: work / f"{label}.pdf" for label in envs}
        argv = {label: [*CLI, "build", str(SCRIPT), "--back", "--night", "-o", str(out[label])] for label in envs}
        if args.formats:
            for fmt in ("PNG", "JPEG", "WEBP"):
                folder = icon_folder(work / "data-with" / "scriptforge" / "packs" / "official" / "icons", work / fmt, fmt)
                label = f"--icons {fmt}"
                envs[label], out[label] = envs["without"], work / f"{fmt}.pdf"
                argv[label] = [*argv["without"][:-1], str(out[label]), "--icons", str(folder)]
        for label in envs:  # warm-up: bytecode, fontconfig, templates, the loaded database
            run(argv[label], envs[label])
        times: dict[str, list[tuple[float, float]]] = {label: [] for label in envs}
        for _ in range(args.pairs):
            for label in envs:
                times[label].append(run(argv[label], envs[label]))
        print(f"build --back --night {SCRIPT.name}, {args.pairs} A/B pairs, {load_average()}")
        for label in envs:
            walls, cpus = zip(*times[label])
            print(f"  {label:13}: best wall {min(walls):.2f} s, median wall {sorted(walls)[len(walls) // 2]:.2f} s, "
                  f"best CPU {min(cpus):.2f} s, PDF {os.path.getsize(out[label]) / 1024:.0f} KB")
        ratio = sorted(w for w, _ in times["with"])[args.pairs // 2] / sorted(w for w, _ in times["without"])[args.pairs // 2]
        cpu_ratio = min(c for _, c in times["with"]) / min(c for _, c in times["without"])
        print(f"  ratio with/without: median wall {ratio:.2f}x, best CPU {cpu_ratio:.2f}x")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
