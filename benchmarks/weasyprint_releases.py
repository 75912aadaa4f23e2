"""Which WeasyPrint releases scriptforge's tests pass on: the range pyproject.toml pins.

Run:  python benchmarks/weasyprint_releases.py 69.0 70.0 [--keep /tmp/venvs]

For each release: a new virtualenv with that WeasyPrint and scriptforge's other dependencies,
this checkout installed into it (editable, without dependencies), and tests/test_weasy.py and
tests/test_render.py run there. Prints one line per release: passed, or the failures' count and
the first failing tests. Give the oldest and the newest candidate (pip index versions weasyprint).
"""

import argparse
from pathlib import Path
import re
import subprocess
import sys
import tempfile
import tomllib

ROOT = Path(__file__).resolve().parents[1]
TESTS = ["tests/test_weasy.py", "tests/test_render.py"]


def venv_for(release: str, folder: Path) -> Path:
    python = folder / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True)
        project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
        others = [d for d in project["dependencies"] if not d.startswith("weasyprint")]
        tests = ["pytest", "pytest-xdist", "pypdf", "hypothesis"]
        subprocess.run([str(python), "-m", "pip", "install", "-q", f"weasyprint=={release}", *others, *tests], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", "-e", str(ROOT)], check=True)
    return python


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("releases", nargs="+")
    parser.add_argument("--keep", type=Path, help="a folder to keep the virtualenvs in (reused next time)")
    args = parser.parse_args()
    base = args.keep or Path(tempfile.mkdtemp(prefix="scriptforge-weasyprint-"))
    worst = 0
    for release in args.releases:
        python = venv_for(release, base / f"weasyprint-{release}")
        result = subprocess.run([str(python), "-m", "pytest", "-q", "-n", "1", "-p", "no:cacheprovider", *TESTS],
                                cwd=ROOT, capture_output=True, text=True)
        summary = (result.stdout.strip().splitlines() or ["no output"])[-1]
        failing = re.findall(r"^(?:FAILED|ERROR) (\S+)", result.stdout, re.MULTILINE)[:5]
        print(f"WeasyPrint {release}: {'passed' if result.returncode == 0 else 'FAILED'} ({summary})"
              + "".join(f"\n    {name}" for name in failing), flush=True)
        worst = max(worst, result.returncode)
    return 1 if worst else 0


if __name__ == "__main__":
    sys.exit(main())
