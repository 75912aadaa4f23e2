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


# -- the official pack with a Korean translation, made once per test session -------------------

def korean_translation(db, roles: list[dict], jinxes: list[dict]) -> dict:
    """A Korean translation file in the official layout, written for the tests (never official
    sentences): our own Korean texts for the built-in characters and night steps, and numbered
    Korean test texts for every other official character, reminder label and jinx (every second
    jinx key written the other way round)."""
    out: dict = {"roles": {}, "reminders": {}, "jinxes": {}}
    korean_labels: dict[str, str] = {}  # one Korean label per English label, as a translator keeps them
    for i, role in enumerate(roles):
        ours = db.characters.get(role["id"])
        texts = ours.texts.get("ko") if ours else None
        if texts:
            entry = {"name": texts.name, "ability": texts.ability, "flavor": texts.flavor or "",
                     "first": texts.first_night_reminder or "", "other": texts.other_night_reminder or ""}
        else:
            entry = {"name": f"시험캐릭터{i}", "ability": f"시험용 능력 {i}번입니다.", "flavor": f"시험용 설명 {i}."}
            if role.get("firstNightReminder"):
                entry["first"] = f"시험용 첫날 밤 안내 {i}번: :reminder: 표식을 놓으세요."
            if role.get("otherNightReminder"):
                entry["other"] = f"시험용 다른 밤 안내 {i}번: *표식* 을 확인하세요."
        out["roles"][role["id"]] = entry
        labels = [*role.get("reminders", ()), *role.get("remindersGlobal", ())]
        if labels:
            out["reminders"][role["id"]] = [korean_labels.setdefault(label, f"표식{len(korean_labels)}")
                                            for label in labels]
    for step, night in db.steps.items():
        entry = {"name": night.names["ko"]}
        if "ko" in night.first_night:
            entry["first"] = night.first_night["ko"]
        if "ko" in night.other_nights:
            entry["other"] = night.other_nights["ko"]
        out["roles"][step] = entry
    n = 0
    for record in jinxes:
        for other in record["jinx"]:
            a, b = record["id"], other["id"]
            out["jinxes"][f"{a}-{b}" if n % 2 else f"{b}-{a}"] = f"시험용 징크스 문장 {n}번입니다."
            n += 1
    return out


@pytest.fixture(scope="session")
def official_ko(tmp_path_factory):
    """(files folder, installed pack folder, the pack_update result) for the official files from
    ../shared plus a Korean test translation, installed once per session."""
    import json

    from scriptforge.pack_update import update_pack

    official = shared_path("reference", "official")
    folder = tmp_path_factory.mktemp("official-files")
    roles = json.loads((official / "roles.json").read_text(encoding="utf-8"))
    jinxes = json.loads((official / "jinxes.json").read_text(encoding="utf-8"))
    for name in ("roles.json", "nightsheet.json", "jinxes.json"):
        shutil.copy(official / name, folder / name)
    (folder / "game").mkdir()
    translation = korean_translation(load_database(), roles, jinxes)
    (folder / "game" / "ko.json").write_text(json.dumps(translation, ensure_ascii=False), encoding="utf-8")
    target = tmp_path_factory.mktemp("packs") / "official"
    result = update_pack(from_dir=folder, target=target)
    return folder, target, result
