import os
from pathlib import Path
import shutil
import subprocess
import sys
import zipfile

import pytest

ROOT = Path(__file__).resolve().parents[1]
# both tests share the module's wheel: one worker builds it once
pytestmark = pytest.mark.xdist_group("wheel")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """The wheel, built from a copy of the source tree: setuptools builds in the tree it is given
    (build/, *.egg-info), which must be neither the checkout nor shared with another run."""
    source = tmp_path_factory.mktemp("source") / "scriptforge"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", "venv", "build", "dist", "*.egg-info", "__pycache__", ".hypothesis", ".pytest_cache"))
    out = tmp_path_factory.mktemp("wheel")
    result = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                             "-w", str(out), str(source)], capture_output=True, text=True)
    if result.returncode != 0:
        pytest.fail(result.stderr[-2000:])
    return next(out.glob("scriptforge-*.whl"))


def test_wheel_ships_data_schemas_and_templates(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for required in ("scriptforge/data/characters.yaml", "scriptforge/data/ko/characters/lilmonsta.yaml",
                     "scriptforge/data/en/night.yaml", "scriptforge/schemas/texts.schema.json",
                     "scriptforge/py.typed"):
        assert required in names
    shipped_texts = [n for n in names if n.startswith("scriptforge/data/") and n.endswith(".yaml")]
    assert len(shipped_texts) == len(list((ROOT / "data").rglob("*.yaml")))


def test_installed_wheel_works_from_another_directory(wheel, tmp_path):
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), str(wheel)],
                   check=True)
    env = {**os.environ, "PYTHONPATH": str(target)}
    result = subprocess.run([sys.executable, "-m", "scriptforge", "show", "릴몬스타", "--lang", "ko"],
                            capture_output=True, text=True, cwd=tmp_path, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("릴 몬스타 (lilmonsta)")
    check = subprocess.run([sys.executable, "-c", "import scriptforge.io.paths as p; print(p.DATA_DIR)"],
                           capture_output=True, text=True, cwd=tmp_path, env=env)
    assert check.stdout.strip().startswith(str(target))
