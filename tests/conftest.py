import os
from pathlib import Path
import shutil
import tempfile

from click.testing import CliRunner
import pytest

from scriptforge.db.loading import load_database
from scriptforge.io.paths import DATA_DIR

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


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """`--dist loadgroup` (pyproject's addopts) keeps the tests of one `xdist_group` on one worker,
    so a module fixture they share is made once: pytest-xdist marks them by adding "@<group>" to
    their node ids. Since pytest 9.2 keeps node ids structured, pytest-xdist's renaming (of the old
    `_nodeid`) no longer takes and every test went to either worker (pytest-xdist issue 1386): the
    same renaming is made here where it did not take, as the structured id."""
    if not getattr(config.option, "loadgroup", False):
        return
    for item in items:
        names = sorted({str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
                        for mark in item.iter_markers("xdist_group")})
        suffix = "@" + "_".join(names)
        structured = getattr(item, "id", None)
        if names and not item.nodeid.endswith(suffix) and hasattr(type(structured), "parse"):
            item._id = type(structured).parse(item.nodeid + suffix)


def shared_path(*parts) -> Path:
    """A file under ../shared/, or a skip with the reason when that folder is absent."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is not available (tests that read ../shared/ need it beside the repo)")
    return path


def official_english_copy(folder: Path) -> Path:
    """`folder` (made if need be) holding the official English files of ../shared (roles, night
    sheet, jinxes), as the official host lays them out; a skip where ../shared is absent."""
    official = shared_path("reference", "official")
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("roles.json", "nightsheet.json", "jinxes.json"):
        shutil.copy(official / name, folder / name)
    return folder


def needs_font(lang: str):
    """Skip the test, with the package to install, where no font (bundled or system) sets `lang`."""
    from tests import optional

    return pytest.mark.skipif(not optional.has_font(lang), reason=f"no font sets {lang} here "
                              f"(Debian/Ubuntu: apt-get install {optional.FONTS[lang][1]})")


def needs_program(name: str):
    """Skip the test, with the package to install, where the program `name` is not on PATH."""
    from tests import optional

    return pytest.mark.skipif(not optional.has_program(name), reason=f"{name} is not installed "
                              f"(Debian/Ubuntu: apt-get install {optional.PROGRAMS[name]})")


def require_font(lang: str) -> None:
    """needs_font, inside a test (after the parts that need no such font)."""
    from tests import optional

    if not optional.has_font(lang):
        pytest.skip(f"no font sets {lang} here (Debian/Ubuntu: apt-get install {optional.FONTS[lang][1]})")


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

def korean_translation(db, roles: list[dict], jinxes: list[dict], leave_out=()) -> dict:
    """A Korean translation file in the official layout (FACTS.md section 8), written for the tests
    (never official sentences): our own Korean texts for the built-in characters and night steps,
    numbered Korean test texts for every other official character and jinx (every second jinx key
    written the other way round), one numbered Korean label per English reminder label, keyed as
    the official files key them (`redherring`), and the editions. `leave_out` drops keys
    ("roles/<id>/<field>", "jinxes/<key>", "reminders/<key>"), as the official file leaves out
    what nobody has translated yet."""
    from scriptforge.model.ids import token_id

    out: dict = {"roles": {}, "jinxes": {}, "reminders": {}, "editions": {}}
    for i, role in enumerate(roles):
        ours = db.characters.get(role["id"])
        texts = ours.texts.get("ko") if ours else None
        if texts:
            entry = {"name": texts.name, "ability": texts.ability, "flavor": texts.flavor or "",
                     "first": texts.first_night_reminder or "", "other": texts.other_night_reminder or ""}
            entry = {k: v for k, v in entry.items() if v}
        else:
            entry = {"name": f"시험캐릭터{i}", "ability": f"시험용 능력 {i}번입니다.", "flavor": f"시험용 설명 {i}."}
            if role.get("firstNightReminder"):
                entry["first"] = f"시험용 첫날 밤 안내 {i}번: :reminder: 표식을 놓으세요."
            if role.get("otherNightReminder"):
                entry["other"] = f"시험용 다른 밤 안내 {i}번: *표식* 을 확인하세요."
        out["roles"][role["id"]] = entry
        for label in [*role.get("reminders", ()), *role.get("remindersGlobal", ())]:
            out["reminders"].setdefault(token_id(label), f"표식{len(out['reminders'])}")
        out["editions"].setdefault(role["edition"], {"name": f"시험판 {len(out['editions'])}",
                                                     "description": "시험용 판 설명입니다."})
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
    for path in leave_out:
        *parents, last = path.split("/")
        node = out
        for step in parents:
            node = node[step]
        del node[last]
    return out


def install_official(folder: Path, target: Path, translation: dict | None = None, roles=None):
    """The official files of ../shared (roles replaced by `roles` where given) with `translation`
    as game/ko.json, written to `folder` and installed as a pack at `target`: the pack_update result."""
    import json

    from scriptforge.packs.install import update_pack

    official = shared_path("reference", "official")
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("nightsheet.json", "jinxes.json", *(() if roles else ("roles.json",))):
        shutil.copy(official / name, folder / name)
    if roles:
        (folder / "roles.json").write_text(json.dumps(roles, ensure_ascii=False), encoding="utf-8")
    if translation is not None:
        (folder / "game").mkdir(exist_ok=True)
        (folder / "game" / "ko.json").write_text(json.dumps(translation, ensure_ascii=False), encoding="utf-8")
    return update_pack(from_dir=folder, target=target, langs=("ko",) if translation is not None else ())


def official_json(name: str):
    import json

    return json.loads(shared_path("reference", "official", name).read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def official_ko(tmp_path_factory):
    """(files folder, installed pack folder, the pack_update result) for the official files from
    ../shared plus a Korean test translation, installed once per session."""
    folder = tmp_path_factory.mktemp("official-files")
    translation = korean_translation(load_database(), official_json("roles.json"), official_json("jinxes.json"))
    target = tmp_path_factory.mktemp("packs") / "official"
    result = install_official(folder, target, translation)
    return folder, target, result
