import os
from pathlib import Path
import shutil
import tempfile

from click.testing import CliRunner
import pytest

from scriptforge.database import load_database
from scriptforge.paths import DATA_DIR

# Caches (validators, templates, the loaded database) go to a fresh folder for each test run,
# so the tests see cold starts too and never depend on what an earlier run left behind.
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="scriptforge-test-cache-")
# Installed packs (the official pack every command loads by default) go to a fresh, empty data
# folder too: a pack the developer installed never changes what the tests see.
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="scriptforge-test-data-")
os.environ.pop("SCRIPTFORGE_PACKS", None)

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
SEEDS = SHARED / "seeds"
EXAMPLES = ROOT / "examples"
SEED_FILES = {
    "000": ("000_8649191a3cfc50c8.txt", "ko"),
    "001": ("001_b379f05c19cd2e1d.txt", "en"),
    "003": ("003_7ed8e1850f4a3291.txt", "ko"),
}


def shared_path(*parts) -> Path:
    """A file under ../shared/, or a skip with the reason when that folder is absent."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is not available (tests that read ../shared/ need it beside the repo)")
    return path


@pytest.fixture(scope="session")
def db():
    return load_database()


@pytest.fixture
def runner():
    return CliRunner()


@pytest.fixture
def data_copy(tmp_path):
    """A writable copy of the shipped data, for tests that break it on purpose."""
    target = tmp_path / "data"
    shutil.copytree(DATA_DIR, target)
    return target
