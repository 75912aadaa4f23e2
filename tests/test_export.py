"""Export: a script in the official format with full character objects in one language."""

import json

import pytest

from scriptforge.cli import main
from scriptforge.scripts.analysis import analyse
from scriptforge.scripts.export import export_script
from scriptforge.rules.jinxes import script_jinxes
from scriptforge.rules.night import night_order
from scriptforge.rules.setup import setup_table
from scriptforge.scripts.analysis import validate_script
from scriptforge.scripts.script import parse_script, read_script, script_from_data
from tests.conftest import EXAMPLES, shared_path


def analysis(script, db, lang):
    order = night_order(script, db)
    return {
        "night": (order.first_night, order.other_nights),
        "setup": [row.as_dict() for row in setup_table(script.characters, db)],
        "jinxes": sorted((sorted(j.characters), j.text(lang)) for j in script_jinxes(script, db)),
        "findings": sorted((f.code, f.severity, f.path or "") for f in validate_script(script, db).findings
                           if f.code != "character-override"),
        "sheet": [c.id for c in script.characters],
    }


@pytest.mark.parametrize("example", sorted(EXAMPLES.glob("*.json")), ids=lambda p: p.stem)
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_export_round_trips(example, lang, db):
    original = read_script(example, db)
    exported = export_script(analyse(original, db), lang, "full")
    again = script_from_data(json.loads(json.dumps(exported.data)), db, "exported")
    assert analysis(again, db, lang) == analysis(original, db, lang)
    for ch in again.characters:
        if ch.homebrew:
            continue
        assert ch.name(lang) == db.get(ch.id).name(lang)


def test_korean_export_is_complete_and_valid_for_the_official_schema(db):
    from jsonschema import Draft202012Validator

    schema = json.loads(shared_path("reference", "official", "script-schema.json").read_text(encoding="utf-8"))
    for example in sorted(EXAMPLES.glob("*.json")):
        exported = export_script(analyse(read_script(example, db), db), "ko", "full")
        errors = list(Draft202012Validator(schema).iter_errors(exported.data))
        assert not errors, (example.name, errors[0].message)
    data = export_script(analyse(read_script(EXAMPLES / "faith-trust-and-pixie-dust.json", db), db), "ko", "full").data
    assert data[0]["id"] == "_meta"
    pixie = next(o for o in data if o["id"] == "pixie")
    assert pixie["name"] == db.get("pixie").name("ko")
    assert pixie["firstNight"] == db.night_position("pixie", "first_night") and pixie["otherNight"] == 0
    assert pixie["reminders"] == [db.reminder_labels["ko"][t] for t in db.get("pixie").reminders]
    assert pixie["firstNightReminder"] == db.get("pixie").text("ko").first_night_reminder
    jinxed = [o for o in data if o.get("jinxes")]
    for obj in jinxed:
        for j in obj["jinxes"]:
            assert any(set(x.characters) == {obj["id"], j["id"]} and x.texts.get("ko") == j["reason"]
                       for x in db.jinxes)


def test_fallback_language_warns(tmp_path, db):
    from dataclasses import replace

    pixie = db.get("pixie")
    english_only = replace(db, characters={**db.characters, "pixie": replace(pixie, texts={"en": pixie.text("en")})})
    script = read_script(EXAMPLES / "faith-trust-and-pixie-dust.json", english_only)
    exported = export_script(analyse(script, english_only), "ko", "full")
    assert any("pixie" in w and "'ko'" in w and "ids" in w for w in exported.warnings)
    assert "pixie" in exported.data  # its id: no English object inside a Korean export
    assert all(o["id"] != "pixie" for o in exported.data if isinstance(o, dict))


def test_a_korean_object_never_carries_english_texts(db):
    """A Korean object whose night reminder and jinx have no Korean text leaves them out, and says so."""
    from dataclasses import replace

    widow = db.get("widow")
    ko = replace(widow.text("ko"), first_night_reminder=None)
    jinxes = tuple(replace(j, texts={"en": j.texts["en"]}) if set(j.characters) == {"widow", "damsel"} else j
                   for j in db.jinxes)
    partial = replace(db, characters={**db.characters, "widow": replace(widow, texts={**widow.texts, "ko": ko})},
                      jinxes=jinxes)
    script = parse_script('[{"id": "_meta", "name": "t"}, "widow", "damsel", "chef", "imp", "recluse"]', partial)
    exported = export_script(analyse(script, partial), "ko", "full")
    obj = next(o for o in exported.data if isinstance(o, dict) and o["id"] == "widow")
    assert obj["name"] == widow.text("ko").name and "firstNightReminder" not in obj and "jinxes" not in obj
    english = {widow.text("en").first_night_reminder, next(j for j in db.jinxes if "widow" in j.characters).texts["en"]}
    assert not english & {str(v) for o in exported.data if isinstance(o, dict) for v in o.values()}
    [warning] = [w for w in exported.warnings if "left out" in w]
    assert "widow: first night reminder" in warning and "widow: jinx with damsel" in warning


def test_cli_export(runner, tmp_path):
    out = tmp_path / "ko.json"
    result = runner.invoke(main, ["export", str(EXAMPLES / "faith-trust-and-pixie-dust.json"), "--for", "full", "--lang", "ko",
                                  "-o", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert all(isinstance(o, dict) and "name" in o for o in data)
    result = runner.invoke(main, ["export", str(tmp_path / "missing.json")])
    assert result.exit_code == 2 and result.output.count("\n") == 1


# -- everything a script holds survives the export ------------------------------------------------

def _round_trip_module():
    import importlib.util
    import sys

    from tests.conftest import ROOT

    sys.path.insert(0, str(ROOT / "benchmarks"))
    spec = importlib.util.spec_from_file_location("round_trip", ROOT / "benchmarks" / "round_trip.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_corpus_export_round_trip_changes_nothing_a_user_sees(official_ko):
    """Every corpus script (and the 16 World Cup scripts) exported for the app and in full, read
    back: no new validate error, and setup, night, jinxes and the printed sheet's view are the
    original's, in the export's language (benchmarks/round_trip.py prints the same counts). The
    original is read, and what a user sees of it worked out, once for both targets."""
    from scriptforge.db.loading import load_database

    module = _round_trip_module()
    _, pack, _ = official_ko
    db = load_database(packs=[pack])
    files = sorted(shared_path("reference", "scripts").glob("*.json"))
    files += sorted(shared_path("reference", "official", "wc25").glob("*/script.json"))
    exported = 0
    differences = []
    for path in files:
        result = module.round_trip(path, db, ("app", "full"))
        if result is None:
            continue
        exported += 1
        lang, found = result
        assert list(found) == ["app", "full"], path.name
        differences += [f"--for {target} {path.name} ({lang}): {what}: {module.first_difference(*texts)}"
                        for target, parts in found.items() for what, texts in parts.items()]
    assert exported >= 340
    assert not differences, "\n".join(differences[:5])


def test_export_keeps_selection_marks_and_images(official_ko):
    """The official Witch Hunt keeps its Witch's `bag-duplicate` mark (else the app deals one
    Witch and setup is impossible at 5–9 players) and every object keeps its image."""
    from scriptforge.db.loading import load_database

    _, pack, _ = official_ko
    db = load_database(packs=[pack])
    path = shared_path("reference", "official", "wc25", "witchhunt", "script.json")
    original = json.loads(path.read_text(encoding="utf-8"))
    for target in ("app", "full"):
        data = export_script(analyse(read_script(path, db), db), "en", target).data
        objects = {o["id"]: o for o in data if isinstance(o, dict)}
        for entry in original:
            if isinstance(entry, dict) and entry["id"] != "_meta":
                for key in ("special", "image"):
                    if key in entry:
                        assert objects[entry["id"]][key] == entry[key], (target, entry["id"], key)
        report = validate_script(script_from_data(data, db, "exported"), db)
        assert not [f for f in report.findings if f.code == "setup-impossible"], target


def _script_with_meta(tmp_path, meta: dict) -> object:
    path = tmp_path / "my-script.json"
    path.write_text(json.dumps([{"id": "_meta", **meta}, "washerwoman", "librarian", "investigator", "chef",
                                "empath", "drunk", "poisoner", "imp"]), encoding="utf-8")
    return path


def test_export_supplies_a_missing_meta_name(tmp_path, db):
    path = _script_with_meta(tmp_path, {"author": "Kim"})
    exported = export_script(analyse(read_script(path, db), db), "en", "app")
    assert exported.data[0] == {"id": "_meta", "author": "Kim", "name": "my-script"}
    assert any("_meta has no name" in w and "my-script" in w for w in exported.warnings)


def test_export_embeds_a_local_logo_and_the_official_schema_accepts_it(tmp_path, db):
    from jsonschema import Draft202012Validator, FormatChecker

    checker = FormatChecker()
    assert "uri" in checker.checkers  # else the schema's format check would pass anything
    # the smallest PNG there is (1×1, 67 bytes): as a data: URI it fits the 250 characters of a logo
    png = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                        "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082")
    (tmp_path / "logo.png").write_bytes(png)
    (tmp_path / "big.png").write_bytes(png + b"\0" * 400)
    path = _script_with_meta(tmp_path, {"name": "Mine", "logo": "logo.png", "background": "big.png"})
    schema = json.loads(shared_path("reference", "official", "script-schema.json").read_text(encoding="utf-8"))
    exported = export_script(analyse(read_script(path, db), db), "en", "app")
    meta = exported.data[0]
    assert meta["logo"].startswith("data:image/png;base64,")
    assert "background" not in meta
    assert any("_meta.background 'big.png'" in w and "250" in w for w in exported.warnings)
    assert not list(Draft202012Validator(schema, format_checker=checker).iter_errors(exported.data))
    # the bare path, as written before, is what the format check refuses
    bare = [{**meta, "logo": "logo.png"}, *exported.data[1:]]
    assert list(Draft202012Validator(schema, format_checker=checker).iter_errors(bare))


def test_an_empty_text_of_an_official_character_is_no_text_of_its_own(db):
    script = script_from_data([{"id": "_meta", "name": "x"}, "washerwoman",
                               {"id": "poisoner", "name": "독살범", "team": "minion", "ability": "",
                                "firstNightReminder": ""}, "imp"], db)
    poisoner = script.get("poisoner")
    official = db.get("poisoner")
    assert poisoner.text("ko").ability == official.text("ko").ability
    assert poisoner.night_reminder("first_night", "ko") == official.night_reminder("first_night", "ko")
