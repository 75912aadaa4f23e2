"""The real-script corpus beside the checkout, for the benchmarks that run over all of it."""

import json
import os
from pathlib import Path
import shutil
import subprocess
import sys

SHARED = Path(__file__).resolve().parents[2] / "shared" / "reference"
OFFICIAL = SHARED / "official"


def corpus_files() -> list[Path]:
    """Every corpus script file: ../shared/reference/scripts/*.json, then the 16 wc25 scripts."""
    return sorted((SHARED / "scripts").glob("*.json")) + sorted((OFFICIAL / "wc25").glob("*/script.json"))


def run_cli(args: list[str], **kw) -> "subprocess.CompletedProcess[str]":
    """`scriptforge ARGS` in a child process of this Python, its output captured as text."""
    return subprocess.run([sys.executable, "-m", "scriptforge", *args], capture_output=True, text=True, **kw)


def official_pack(work: Path, *extra: str) -> tuple[Path, str | None]:
    """(the pack the official English files make, in `work`/pack — imported once, kept after —,
    the import's error output where it failed, else None)."""
    pack = work / "pack"
    if not pack.is_dir():
        files = (str(OFFICIAL / name) for name in ("roles.json", "nightsheet.json", "jinxes.json"))
        done = run_cli(["pack", "import", *files, *extra, "--out", str(pack)])
        if done.returncode:
            return pack, done.stderr
    return pack, None


def official_art_pack(work: Path) -> tuple[Path, str | None]:
    """`official_pack`'s data with a made-up picture for every character where the official
    icons go (tests/icon_art.py): pages printed with it carry the community-content notice. Made
    by `pack update --from` into `work`/art-home, kept after."""
    home = work / "art-home"
    pack = home / "scriptforge" / "packs" / "official"
    if not pack.is_dir():
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
        from tests.icon_art import write_official_icons

        mirror = work / "art-mirror"
        mirror.mkdir(parents=True, exist_ok=True)
        for name in ("roles.json", "nightsheet.json", "jinxes.json"):
            shutil.copyfile(OFFICIAL / name, mirror / name)
        write_official_icons(mirror, json.loads((OFFICIAL / "roles.json").read_text(encoding="utf-8")))
        done = run_cli(["pack", "update", "--from", str(mirror), "--lang", "en", "--icons"],
                       env={**os.environ, "XDG_DATA_HOME": str(home)})
        if done.returncode:
            return pack, done.stderr
    return pack, None


def copy_scripts(scripts: list[tuple[str, Path]], inputs: Path) -> None:
    """The chosen (stem, path) scripts copied into `inputs` (emptied first) as <stem>.json."""
    shutil.rmtree(inputs, ignore_errors=True)
    inputs.mkdir()
    for stem, path in scripts:
        shutil.copyfile(path, inputs / f"{stem}.json")
