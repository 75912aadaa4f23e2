"""Where the shipped data, templates and schemas are, installed or in a checkout."""

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parents[1]


def _shipped(name: str) -> Path:
    # In a wheel, data/ and templates/ are installed inside the package; in a source
    # checkout (or an editable install) they sit next to it at the repository top.
    inside = PACKAGE_DIR / name
    return inside if inside.is_dir() else PACKAGE_DIR.parent / name


DATA_DIR = _shipped("data")
TEMPLATES_DIR = _shipped("templates")
DOCS_DIR = _shipped("docs")
SCHEMAS_DIR = PACKAGE_DIR / "schemas"
FONTS_DIR = PACKAGE_DIR / "fonts"
