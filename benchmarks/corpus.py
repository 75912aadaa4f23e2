"""The real-script corpus beside the checkout, for the benchmarks that run over all of it."""

from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "shared" / "reference"
OFFICIAL = SHARED / "official"


def corpus_files() -> list[Path]:
    """Every corpus script file: ../shared/reference/scripts/*.json, then the 16 wc25 scripts."""
    return sorted((SHARED / "scripts").glob("*.json")) + sorted((OFFICIAL / "wc25").glob("*/script.json"))
