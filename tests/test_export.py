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
