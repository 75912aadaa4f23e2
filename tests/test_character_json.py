"""One writer of the official character object and one table of its length limits; the team
vocabulary and text fields said once."""

import json
from pathlib import Path

from click.testing import CliRunner

from scriptforge.scripts.analysis import analyse
from scriptforge.cli import main
from scriptforge.scripts.export import export_script
from scriptforge.model.records import COUNT_KEYS, TEAMS, TEXT_FIELDS, Texts
from scriptforge.model.character_json import CHARACTER_LIMITS, character_object, overlong
from scriptforge.io.paths import SCHEMAS_DIR
from scriptforge.scripts.script import read_script

LONG_NAME = "Keeper of the Very Long Name Here"  # 33 characters: over the official 30


def test_character_object_writes_reminders_only_where_the_character_wakes():
    texts = Texts(name="Bell Ringer", ability="Each night, ring.", first_night_reminder="Ring.",
                  other_night_reminder="Ring again.")
    obj = character_object("bellringer", "townsfolk", texts, night={"first_night": 12.5},
                           reminders={"first_night": "Ring.", "other_nights": "Ring again."},
                           labels=["Rung"], setup=False)
    assert obj == {"id": "bellringer", "name": "Bell Ringer", "team": "townsfolk", "ability": "Each night, ring.",
                   "firstNight": 12.5, "firstNightReminder": "Ring.", "otherNight": 0, "reminders": ["Rung"],
                   "setup": False}


def test_export_and_validate_use_the_same_limits(db, tmp_path):
    script = tmp_path / "s.json"
    script.write_text(json.dumps([{"id": "keeper", "name": LONG_NAME, "team": "townsfolk",
                                   "ability": "You keep things."}]), encoding="utf-8")
    limit = CHARACTER_LIMITS["name"]
    found = overlong(json.loads(script.read_text()))
    assert [(o.pointer, o.field, o.length, o.limit) for o in found] == [("/0/name", "name", 33, limit)]
    warnings = export_script(analyse(read_script(script, db), db), "en", "full").warnings
    assert any(f"name is 33 characters, over the official limit of {limit}" in w for w in warnings)
    result = CliRunner().invoke(main, ["validate", str(script), "--format", "json"])
    codes = [(f["code"], f["data"].get("limit")) for f in json.loads(result.output)["findings"]]
    assert ("text-too-long", limit) in codes


def test_the_schemas_team_lists_are_the_model_s(db):
    def enums(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "enum" and isinstance(value, list) and "townsfolk" in value and "dead" not in value:
                    yield value
                yield from enums(value)
        elif isinstance(node, list):
            for value in node:
                yield from enums(value)

    found = [e for path in SCHEMAS_DIR.glob("*.json") for e in enums(json.loads(path.read_text(encoding="utf-8")))]
    # teams; a setup token (a team, or good); the count keys of a setup effect
    allowed = (list(TEAMS), [*TEAMS, "good"], list(COUNT_KEYS.values()))
    assert len(found) >= 5 and all(e in allowed for e in found) and list(TEAMS) in found
    ui = json.loads((SCHEMAS_DIR / "ui.schema.json").read_text(encoding="utf-8"))
    assert ui["properties"]["teams"]["required"] == list(TEAMS)
    for lang in db.languages:
        assert list(db.ui[lang]["teams"]) == list(TEAMS)
    texts = json.loads((SCHEMAS_DIR / "texts.schema.json").read_text(encoding="utf-8"))
    assert set(TEXT_FIELDS) - {"first_night_reminder", "other_night_reminder"} <= set(texts["properties"])


def test_homebrew_embedding_writes_the_official_object(tmp_path):
    folder = Path(__file__).resolve().parent.parent / "examples" / "homebrew"
    script = tmp_path / "s.json"
    script.write_text('["imp"]', encoding="utf-8")
    result = CliRunner().invoke(main, ["add", str(script), str(folder / "pilgrim.yaml"), "--lang", "en"])
    assert result.exit_code in (0, 1), result.output
    entry = json.loads(script.read_text(encoding="utf-8"))[-1]
    assert list(entry)[:4] == ["id", "name", "team", "ability"] and entry["setup"] is False
    assert entry["firstNight"] == 60.5 and entry["firstNightReminder"] and entry["otherNight"] == 0
