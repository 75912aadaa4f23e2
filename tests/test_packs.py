"""Data packs: import (recognition, errors, determinism, setup brackets), merge into the database,
diff, the CLI, and the whole reference corpus with a pack made from the official data."""

import json
import os
from pathlib import Path
import random
import time

import pytest
import yaml

from scriptforge.db.loading import check_database, load_database
from scriptforge.io.errors import InputError
from scriptforge.model.ids import token_id
from scriptforge.packs.build import read_source
from scriptforge.packs.diff import NightMove, diff_packs, pack_files
from scriptforge.packs.install import import_pack
from scriptforge.cli import main
from tests.conftest import SHARED, shared_path

OFFICIAL = SHARED / "reference" / "official"


# -- small files in the official layouts, written for these tests ---------------------------------

ROLES = [
    {"id": "imp", "name": "Imp", "team": "demon", "edition": "tb", "ability": "Each night*, kill someone.",
     "flavor": "Test flavor.", "reminders": ["Dead"], "setup": False,
     "otherNightReminder": "The Imp picks a victim."},
    {"id": "quietgeese", "name": "Quiet Geese", "team": "townsfolk", "edition": "custom",
     "ability": "You hear nothing. [+1 Outsider]", "reminders": ["No Ability", "Doesn't Honk", "3 Votes"],
     "setup": True, "firstNightReminder": "Nod at the Geese."},
    {"id": "loudgoose", "name": "Loud Goose", "team": "minion", "edition": "custom",
     "ability": "Everyone hears you. [Geese sit in a row]", "setup": True},
    {"id": "hushgoose", "name": "Hush Goose", "team": "outsider", "edition": "custom",
     "ability": "You might be quiet.", "setup": True},
]
NIGHT = {"firstNight": ["dusk", "minioninfo", "demoninfo", "quietgeese", "dawn"],
         "otherNight": ["dusk", "imp", "dawn"]}
JINXES = [{"id": "quietgeese", "jinx": [{"id": "loudgoose", "reason": "They cancel out."},
                                        {"id": "nosuchthing", "reason": "Unknown partner."}]}]


def write(path: Path, data) -> Path:
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return path


@pytest.fixture
def files(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    # file names say nothing: recognition is by content
    return [write(src / "a.json", ROLES), write(src / "b.json", NIGHT), write(src / "c.json", JINXES)]


@pytest.fixture
def small_pack(files, tmp_path, db):
    path, build = import_pack(files, name="geese", out=tmp_path / "packs" / "geese", base_db=db)
    return path, build


def test_token_ids_are_the_official_translation_keys():
    # FACTS.md 8: the official translation files key a label by the English label lower-cased
    # with everything outside [a-z0-9] removed; a token id is that key.
    assert token_id("No Ability") == "noability"
    assert token_id("Is The Philosopher") == "isthephilosopher"
    assert token_id("Doesn't Kill") == "doesntkill"
    assert token_id("Final Night: No Attack") == "finalnightnoattack"
    assert token_id("3 Votes") == "3votes"
    assert token_id("?") == "u3f"


def test_import_writes_the_data_layout(small_pack):
    path, build = small_pack
    facts = {r["id"]: r for r in yaml.safe_load((path / "characters.yaml").read_text())["characters"]}
    assert facts["quietgeese"]["reminders"] == ["noability", "doesnthonk", "3votes"]
    assert facts["quietgeese"]["setup"] == {"outsiders": 1}
    # what the engine cannot count is kept, so that validate and setup can say so
    assert facts["loudgoose"]["setup"] == {"unmodelled": ["Geese sit in a row"]}
    assert facts["hushgoose"]["setup"] == {"unmodelled": ["setup: true without a [...] bracket"]}
    labels = yaml.safe_load((path / "en" / "reminders.yaml").read_text())
    assert labels["doesnthonk"] == "Doesn't Honk"
    assert yaml.safe_load((path / "en" / "characters" / "imp.yaml").read_text())["flavor"] == "Test flavor."
    assert yaml.safe_load((path / "jinxes.yaml").read_text()) == {"jinxes": [["quietgeese", "loudgoose"]]}
    manifest = yaml.safe_load((path / "pack.yaml").read_text())
    assert manifest["name"] == "geese" and [s["kind"] for s in manifest["sources"]] == ["roles", "nightsheet", "jinxes"]
    assert all(len(s["sha256"]) == 64 for s in manifest["sources"])
    # unknown bracket grammar is a warning, a missing bracket a note, an unknown jinx partner a warning
    assert any("loudgoose" in w and "Geese sit in a row" in w for w in build.warnings)
    assert any("nosuchthing" in w for w in build.warnings)
    assert any(n.startswith("hushgoose: setup is true") for n in build.notes)


def test_import_is_byte_identical(files, tmp_path, db):
    one, _ = import_pack(files, name="geese", out=tmp_path / "one", base_db=db)
    two, _ = import_pack(list(reversed(files)), name="geese", out=tmp_path / "two", base_db=db)
    listing = sorted(p.relative_to(one) for p in one.rglob("*") if p.is_file())
    assert listing == sorted(p.relative_to(two) for p in two.rglob("*") if p.is_file())
    assert all((one / rel).read_bytes() == (two / rel).read_bytes() for rel in listing)


def test_database_merges_the_pack(small_pack):
    path, _ = small_pack
    base = load_database()
    db = load_database(packs=[path])
    assert set(db.characters) == set(base.characters) | {"quietgeese", "loudgoose", "hushgoose"}
    assert db.get("quietgeese").source == "geese" and db.get("imp").source == "geese"
    assert db.get("pilgrim").source == "scriptforge"
    imp = db.get("imp")
    assert imp.text("en").ability == "Each night*, kill someone."  # the pack's text, per field
    assert imp.text("en").overview == base.get("imp").text("en").overview  # ours where the pack has none
    assert imp.text("ko") == base.get("imp").text("ko")
    assert db.first_night == tuple(NIGHT["firstNight"])  # the pack's lists replace ours
    assert {j.key for j in base.jinxes} < {j.key for j in db.jinxes}  # jinxes are unioned
    assert db.get("lilmonsta").setup == base.get("lilmonsta").setup
    # teams stay together, the pack's order inside a team
    teams = [c.team for c in db.characters.values()]
    assert teams == sorted(teams, key=["townsfolk", "outsider", "minion", "demon", "traveller", "fabled", "loric"].index)


def test_pack_overrides_facts_per_field_and_setup_per_key(tmp_path, db):
    roles = [{"id": "lilmonsta", "name": "Lil' Monsta", "team": "demon", "edition": "carousel",
              "ability": "Test. [+2 Minions]", "setup": True}]
    path, _ = import_pack([write(tmp_path / "r.json", roles)], name="lm", out=tmp_path / "lm", base_db=db)
    merged = load_database(packs=[path]).get("lilmonsta")
    assert merged.setup.counts == {"minions": (2, 2)} and merged.setup.demon_token is False
    assert merged.aliases == db.get("lilmonsta").aliases


def test_translation_file(small_pack, tmp_path, db):
    path, _ = small_pack
    translation = {"roles": {"quietgeese": {"name": "조용한 거위", "ability": "아무것도 듣지 못합니다. [외지인 +1명]",
                                            "first": "거위에게 고개를 끄덕이세요."}},
                   "reminders": {"No Ability": "능력 없음", "quietgeese": ["능력 없음", "꽥 안 함", "3표"]},
                   "jinxes": {"loudgoose-quietgeese": "서로 상쇄됩니다."}}
    src = write(tmp_path / "t.json", translation)
    with pytest.raises(InputError, match="needs --lang"):
        read_source(src)
    ko, _ = import_pack([*sorted((tmp_path / "src").glob("*.json")), src], name="geese-ko", lang="ko",
                        out=tmp_path / "geese-ko", base_db=db)
    merged = load_database(packs=[ko])
    geese = merged.get("quietgeese")
    assert geese.name("ko") == "조용한 거위" and geese.text("ko").first_night_reminder == "거위에게 고개를 끄덕이세요."
    assert merged.reminder_labels["ko"]["doesnthonk"] == "꽥 안 함"
    assert next(j for j in merged.jinxes if set(j.characters) == {"quietgeese", "loudgoose"}).texts["ko"] == "서로 상쇄됩니다."


@pytest.mark.parametrize("content, message", [
    ('[{"id": "imp", "name": "Imp",\n "team": "demon" "ability": "x"}]', r"a\.json:2: not valid JSON"),
    ('{"hello": 1}', r"a\.json: not an official data file"),
    (json.dumps([*ROLES[:2], {"id": "bad", "name": "Bad", "team": "goblins", "ability": "x"}]),
     r"a\.json: roles file, /2/team \(record 'bad'\): 'goblins' is not one of"),
    (json.dumps([{"id": "a", "jinx": [{"id": "b"}]}]), r"a\.json: jinxes file, /0/jinx/0 \(record 'a'\): 'reason' is a required"),
    (json.dumps({"firstNight": ["dusk", 3], "otherNight": []}), r"a\.json: nightsheet file, /firstNight/1: 3 is not"),
])
def test_bad_files_are_refused_and_nothing_is_written(tmp_path, runner, content, message):
    bad = tmp_path / "a.json"
    bad.write_text(content, encoding="utf-8")
    good = write(tmp_path / "b.json", NIGHT)
    out = tmp_path / "packs" / "x"
    result = runner.invoke(main, ["pack", "import", str(good), str(bad), "--out", str(out)])
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1
    import re
    assert re.search(message, result.output), result.output
    assert not out.exists() and not any((tmp_path / "packs").glob("*")) if (tmp_path / "packs").exists() else True


def test_failed_import_keeps_the_old_pack(files, tmp_path, db):
    out = tmp_path / "geese"
    import_pack(files, name="geese", out=out, base_db=db)
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    with pytest.raises(InputError):
        import_pack([*files, write(tmp_path / "bad.json", {"nope": True})], name="geese", out=out, base_db=db)
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    # the pack is a link to its one version folder; nothing else is left beside it
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == [os.readlink(out)]


def test_diff_of_a_pack_against_itself_is_empty(small_pack):
    path, _ = small_pack
    assert diff_packs(pack_files(path), pack_files(path)).is_empty


def test_diff_reports_changes_and_stale_translations(small_pack, tmp_path, db):
    old, _ = small_pack
    roles = json.loads(json.dumps(ROLES))
    roles[0]["ability"] = "Each night*, choose a player: they die."
    roles[1]["reminders"] = ["No Ability"]
    del roles[2]
    roles.append({"id": "newgoose", "name": "New Goose", "team": "outsider", "edition": "custom", "ability": "Hi."})
    night = {"firstNight": ["dusk", "quietgeese", "minioninfo", "demoninfo", "dawn"], "otherNight": ["dusk", "dawn"]}
    new_dir = tmp_path / "new"
    new_dir.mkdir()
    write(new_dir / "r.json", roles), write(new_dir / "n.json", night), write(new_dir / "j.json", [])
    (new_dir / "notes.json").write_text('{"not": "official"}')  # ignored in a folder of files
    report = diff_packs(pack_files(old), pack_files(new_dir), db)
    assert [c.id for c in report.added] == ["newgoose"]
    assert [c.id for c in report.removed] == ["loudgoose"]
    changed = {(c.id, c.field) for c in report.changed}
    assert ("imp", "ability") in changed and ("quietgeese", "reminders") in changed
    assert ("quietgeese", "first_night_reminder") not in changed
    assert NightMove("quietgeese", "moved", 4, 2) in report.night["first_night"]
    assert NightMove("imp", "removed", old=2) in report.night["other_nights"]
    assert report.jinxes.removed[0].characters == ("quietgeese", "loudgoose")
    assert ("imp.ability", "ko") in [(s.unit, s.lang) for s in report.stale]
    # the JSON of `pack diff --format json`, as before the records
    as_json = report.as_json()
    assert {"id": "imp", "change": "removed", "old": 2} in as_json["night"]["other_nights"]
    assert as_json["jinxes"]["removed"][0]["characters"] == ["quietgeese", "loudgoose"]


def test_cli_pack_commands(small_pack, runner, tmp_path, monkeypatch):
    path, _ = small_pack
    result = runner.invoke(main, ["show", "quietgeese", "--pack", str(path), "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["source"] == "geese"
    monkeypatch.setenv("SCRIPTFORGE_PACKS", str(path))
    rows = json.loads(runner.invoke(main, ["list", "--format", "json"]).output)
    assert {r["id"]: r["source"] for r in rows}["quietgeese"] == "geese"
    monkeypatch.delenv("SCRIPTFORGE_PACKS")
    result = runner.invoke(main, ["show", "quietgeese"])
    assert result.exit_code == 1
    result = runner.invoke(main, ["list", "--pack", str(tmp_path)])
    assert result.exit_code == 2 and "not a data pack" in result.output
    result = runner.invoke(main, ["pack", "diff", str(path), str(path)])
    assert result.exit_code == 0 and result.output.strip() == "no changes"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    files = sorted((tmp_path / "src").glob("*.json"))
    result = runner.invoke(main, ["pack", "import", *map(str, files), "--name", "geese2"])
    assert result.exit_code == 0, result.output
    rows = json.loads(runner.invoke(main, ["pack", "list", "--format", "json"]).output)
    assert [r["name"] for r in rows] == ["geese2"]
    result = runner.invoke(main, ["show", "loudgoose", "--pack", "geese2", "--lang", "en"])
    assert result.exit_code == 0 and "Loud Goose" in result.output


# -- the official data ---------------------------------------------------------------------------

# FACTS.md section 4: what each bracket says, in SetupEffect form; the parts SetupEffect cannot hold
# come out as warnings naming the clause (never a guess)
FACTS_SETUP = {
    "baron": ({"outsiders": 2}, []), "fanggu": ({"outsiders": 1}, []), "vigormortis": ({"outsiders": -1}, []),
    "godfather": ({"outsiders": [-1, 1], "ends_only": ["outsiders"]}, []), "balloonist": ({"outsiders": [0, 1]}, []),
    "hermit": ({"outsiders": [-1, 0]}, []), "lilmonsta": ({"minions": 1, "selection": ["bag-disabled"]}, []),
    "lordoftyphon": ({"minions": 1, "outsiders_any": 0, "seating": True}, []),
    "kazali": ({"outsiders_any": 0, "seating": True}, []),
    "xaan": ({"outsiders_any": 1}, []),
    "villageidiot": ({"extra_copies": [0, 2], "extra_copies_drunk": 1, "selection": ["bag-duplicate"]}, []),
    "huntsman": ({"adds": ["damsel"]}, []), "choirboy": ({"adds": ["king"]}, []),
    "bountyhunter": ({"evil_townsfolk": 1}, []), "atheist": ({"no_evil": True, "selection": ["good-duplicate", "evil-duplicate"]}, []),
    "summoner": ({"demons": -1}, []), "marionette": ({"seating": True, "bag_token": "good", "selection": ["bag-disabled"]}, []),
    "legion": ({"majority": True, "selection": ["bag-duplicate"]}, []),
    # setup: true without a bracket: the facts of data/setup.yaml (none: no count changes)
    "drunk": ({"bag_token": "townsfolk", "selection": ["bag-disabled"]}, []), "sentinel": ({"outsiders": [-1, 1]}, []),
    # the record's evil-duplicate mark is replaced by data/setup.yaml: the Pope duplicates good only
    "pope": ({"duplicate_good": True, "selection": ["good-duplicate"]}, []), "deusexfiasco": (None, []), "bootlegger": (None, []),
    "gardener": (None, []), "tor": (None, []),
}


@pytest.fixture(scope="module")
def official_pack(tmp_path_factory):
    folder = shared_path("reference", "official")
    base = load_database()
    out = tmp_path_factory.mktemp("packs") / "official"
    path, build = import_pack([folder / "roles.json", folder / "nightsheet.json", folder / "jinxes.json"],
                              out=out, base_db=base)
    return path, build


def test_official_setup_brackets(official_pack):
    path, build = official_pack
    facts = {r["id"]: r for r in yaml.safe_load((path / "characters.yaml").read_text())["characters"]}
    assert len(facts) == 181
    with_setup = {i for i, r in facts.items() if "setup" in r}
    assert with_setup == {i for i, (effect, _) in FACTS_SETUP.items() if effect}
    for char_id, (effect, unknown) in FACTS_SETUP.items():
        assert facts[char_id].get("setup") == effect, char_id
        said = [w for w in build.warnings if f"(record '{char_id}')" in w]
        assert [w.split("setup wording '")[1].split("' is not")[0] for w in said] == unknown, char_id
    assert not [n for n in build.notes if "setup" in n]  # every official setup flag is explained


def test_official_import_twice_is_identical_and_diff_is_empty(official_pack, tmp_path):
    path, _ = official_pack
    folder = OFFICIAL
    again, _ = import_pack([folder / "jinxes.json", folder / "roles.json", folder / "nightsheet.json"],
                           out=tmp_path / "official", base_db=load_database())
    files = sorted(p.relative_to(path) for p in path.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(again) for p in again.rglob("*") if p.is_file())
    assert all((path / f).read_bytes() == (again / f).read_bytes() for f in files)
    assert diff_packs(pack_files(path), pack_files(path)).is_empty
    assert diff_packs(pack_files(path), pack_files(folder)).is_empty  # the pack vs its own files
    db, problems = check_database(packs=[path])
    assert problems == [] and len(db.characters) == 182 and len(db.jinxes) >= 131


def corpus_files() -> list[Path]:
    scripts = sorted(shared_path("reference", "scripts").glob("*.json"))
    wc25 = sorted(shared_path("reference", "official", "wc25").glob("*/script.json"))
    return scripts, wc25


def test_corpus_validates_and_renders_with_the_official_pack(official_pack):
    from scriptforge.io.errors import InputError as NotAScript
    from scriptforge.model.ids import normalize_id
    from scriptforge.render.pdf import Renderer
    from scriptforge.scripts.analysis import analyse
    from scriptforge.render.views import make_view
    from scriptforge.scripts.analysis import validate_script
    from scriptforge.scripts.script import read_script

    path, _ = official_pack
    db = load_database(packs=[path])
    official = {r["id"] for r in json.loads((OFFICIAL / "roles.json").read_text(encoding="utf-8"))}
    scripts, wc25 = corpus_files()
    start = time.perf_counter()
    readable = {}
    for file in [*scripts, *wc25]:
        try:
            readable[file] = read_script(file, db)
        except NotAScript:
            continue  # not well-formed: not a JSON array of characters
    assert len(readable) >= 350
    for file, script in readable.items():
        unknown = [f for f in validate_script(script, db).findings if f.code == "unknown-character"
                   and normalize_id(str(f.data.get("id"))) in official]
        assert not unknown, (file, unknown[0].message)
    # an English sheet for all WC25 scripts and a fixed sample of the corpus; HTML for all of them
    # (the whole view and template path), PDF for a few (the batch benchmark renders every PDF)
    renderer = Renderer()
    sample = [*wc25, *random.Random(7).sample(sorted(f for f in readable if f not in wc25), 20)]
    for i, file in enumerate(sample):
        view = make_view(analyse(readable[file], db), "en", "a4")
        rendered = renderer.render(view, "pdf" if i % 12 == 0 else "html", base_dir=file.parent)
        assert rendered.files and rendered.files[0][1], file
    assert time.perf_counter() - start < 120


def test_db_check_counts_the_chosen_packs(small_pack, runner):
    path, _ = small_pack
    plain = json.loads(runner.invoke(main, ["db", "check", "--format", "json"]).output)
    result = runner.invoke(main, ["--pack", str(path), "db", "check", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["characters"] == plain["characters"] + 3


def test_official_translation_keys_reach_their_tokens(small_pack, tmp_path, db):
    """Labels keyed the official way (FACTS.md 8: `noability`, `3votes`) land on the tokens that
    the roles file's English labels made."""
    path, _ = small_pack
    translation = {"roles": {"quietgeese": {"name": "조용한 거위", "ability": "아무것도 듣지 못합니다. [외지인 +1명]"}},
                   "reminders": {"noability": "능력 없음", "doesnthonk": "꽥 안 함", "3votes": "3표"}}
    src = write(tmp_path / "t.json", translation)
    ko, _ = import_pack([*sorted((tmp_path / "src").glob("*.json")), src], name="geese-ko", lang="ko",
                        out=tmp_path / "geese-ko", base_db=db)
    merged = load_database(packs=[ko])
    tokens = merged.get("quietgeese").reminders
    assert [merged.reminder_label(t, "ko") for t in tokens] == ["능력 없음", "꽥 안 함", "3표"]
