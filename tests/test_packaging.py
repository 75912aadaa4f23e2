import os
from pathlib import Path
import shutil
import subprocess
import sys
import sysconfig
import zipfile

import pytest

ROOT = Path(__file__).resolve().parents[1]
# the module's tests share its wheel: one worker builds it once
pytestmark = pytest.mark.xdist_group("wheel")
# where the wheel puts the folders at the top of the repository (pyproject.toml's wheel sources)
MAPPED = {"data": "scriptforge/data", "templates": "scriptforge/templates", "docs": "scriptforge/docs"}


def tracked_files() -> list[str] | None:
    """The files git tracks in the checkout (None outside a git checkout, e.g. an unpacked sdist)."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        return None
    result = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True)
    return [name for name in result.stdout.decode().split("\0") if name and (ROOT / name).is_file()]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """The wheel, built from a copy of the tracked files (a stray untracked file in the checkout
    neither ships nor hides a file git would miss)."""
    source = tmp_path_factory.mktemp("source") / "scriptforge"
    files = tracked_files()
    if files is None:
        shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
            ".git", ".venv", "venv", "build", "dist", "*.egg-info", "__pycache__", ".hypothesis", ".pytest_cache"))
    else:
        for name in files:
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    out = tmp_path_factory.mktemp("wheel")
    result = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                             "-w", str(out), str(source)], capture_output=True, text=True)
    if result.returncode != 0:
        pytest.fail(result.stderr[-2000:])
    return next(out.glob("scriptforge-*.whl"))


def test_the_wheel_holds_exactly_the_tracked_package_data_templates_and_docs(wheel):
    files = tracked_files()
    if files is None:
        pytest.skip("not a git checkout: the tracked files are unknown")
    expected = set()
    for name in files:
        top, _, rest = name.partition("/")
        if top == "scriptforge":
            expected.add(name)
        elif top in ("data", "templates") or (top == "docs" and name.endswith(".md") and "/" not in rest):
            expected.add(f"{MAPPED[top]}/{rest}")
    shipped = {n for n in zipfile.ZipFile(wheel).namelist() if not n.split("/")[0].endswith(".dist-info")}
    assert sorted(expected - shipped) == [], "left out of the wheel"
    assert sorted(shipped - expected) == [], "in the wheel but not tracked"
    for required in ("scriptforge/data/characters.yaml", "scriptforge/data/ko/characters/lilmonsta.yaml",
                     "scriptforge/schemas/texts.schema.json", "scriptforge/py.typed", "scriptforge/docs/findings.md",
                     "scriptforge/templates/sheet.css", "scriptforge/packs/__init__.py"):
        assert required in shipped


def _installed(wheel, tmp_path) -> tuple[Path, dict]:
    """The wheel installed into a folder of its own, and an environment whose Python sees that
    folder and the test venv's dependencies, but not the checkout (run it with -S: the venv's
    .pth files, among them the editable install's, are then not read)."""
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), str(wheel)],
                   check=True)
    dependencies = dict.fromkeys([sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(target), *dependencies])}
    return target, env


def test_installed_wheel_works_from_another_directory(wheel, tmp_path):
    target, env = _installed(wheel, tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    python = [sys.executable, "-S"]
    check = subprocess.run([*python, "-c", "import scriptforge, scriptforge.io.paths as p; print(scriptforge.__file__); "
                            "print(p.DATA_DIR)"], capture_output=True, text=True, cwd=elsewhere, env=env)
    assert check.returncode == 0, check.stderr
    module, data = check.stdout.split()
    assert module.startswith(str(target)) and data.startswith(str(target)), check.stdout
    # every module imports from the installed copy alone: one left out of the wheel fails here
    every = subprocess.run([*python, "-c", """
import importlib, pkgutil, scriptforge
names = [m.name for m in pkgutil.walk_packages(scriptforge.__path__, "scriptforge.")]
for name in names:
    module = importlib.import_module(name)
    assert module.__file__.startswith(scriptforge.__path__[0]), module.__file__
print(len(names))
"""], capture_output=True, text=True, cwd=elsewhere, env=env)
    assert every.returncode == 0, every.stderr
    assert int(every.stdout) >= len(list((ROOT / "scriptforge").rglob("*.py"))) - 1  # all but __main__'s run
    result = subprocess.run([*python, "-m", "scriptforge", "show", "릴몬스타", "--lang", "ko"],
                            capture_output=True, text=True, cwd=elsewhere, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("릴 몬스타 (lilmonsta)")
    sheet = elsewhere / "sheet.pdf"
    built = subprocess.run([*python, "-m", "scriptforge", "build", str(ROOT / "examples" / "faith-trust-and-pixie-dust.json"),
                            "--lang", "ko", "--night", "-o", str(sheet)], capture_output=True, text=True, cwd=elsewhere, env=env)
    assert built.returncode == 0, built.stderr
    assert sheet.read_bytes().startswith(b"%PDF")
