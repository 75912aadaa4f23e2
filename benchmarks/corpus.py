"""The real-script corpus beside the checkout, for the benchmarks that run over all of it."""

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


def copy_scripts(scripts: list[tuple[str, Path]], inputs: Path) -> None:
    """The chosen (stem, path) scripts copied into `inputs` (emptied first) as <stem>.json."""
    shutil.rmtree(inputs, ignore_errors=True)
    inputs.mkdir()
    for stem, path in scripts:
        shutil.copyfile(path, inputs / f"{stem}.json")
