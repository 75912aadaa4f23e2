"""Homebrew characters as bilingual YAML: schema, checks, loading into a Database, embedding, rendering."""

from dataclasses import FrozenInstanceError
import io
import json
import re

from pypdf import PdfReader
import pytest
import yaml

from scriptforge.cli import main
from scriptforge.scripts.homebrew import check_homebrew, read_homebrew, script_object, with_homebrew
from scriptforge.io.paths import SCHEMAS_DIR
from scriptforge.rules.jinxes import script_jinxes
from scriptforge.rules.night import night_order
from scriptforge.scripts.script import read_script, script_from_data

from .conftest import EXAMPLES

HOMEBREW = EXAMPLES / "homebrew"
PILGRIM = HOMEBREW / "pilgrim.yaml"
FANG_GU = EXAMPLES / "fang-gu-zealot.json"

BARD = {
    "id": "bard",
    "team": "outsider",
    "setup": {"outsiders": [0, 1]},
    "first_night": {"after": "dusk"},
    "other_nights": 45,
    "reminders": [{"id": "bard_sung", "texts": {"en": "Sung", "ko": "노래함"}}],
    "texts": {
        "en": {"name": "Bard", "ability": "Each night, choose a player: they are drunk. [+0 or +1 Outsider]",
               "first_night_reminder": "The Bard chooses a player.",
               "other_night_reminder": "The Bard chooses a player.", "how_to_run": ["Wake the Bard."]},
        "ko": {"name": "음유시인", "ability": "매일 밤, 플레이어 1명을 선택합니다. 그 플레이어는 취합니다. [외지인 +0명 또는 +1명]",
               "first_night_reminder": "음유시인이 플레이어를 선택합니다.",
               "other_night_reminder": "음유시인이 플레이어를 선택합니다."},
    },
    "jinxes": [{"with": "Imp", "texts": {"en": "The Imp cannot choose the Bard.", "ko": "임프는 음유시인을 선택할 수 없습니다."}}],
}


def write(tmp_path, data, name="bard.yaml"):
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def run(runner, *args):
    return runner.invoke(main, [str(a) for a in args])


def test_pilgrim_passes_homebrew_check(runner):
    result = run(runner, "homebrew", "check", PILGRIM)
    assert result.exit_code == 0, result.output
    assert "ok (pilgrim, ko, en)" in result.output


def test_pilgrim_is_placed_after_the_clockmaker(db):
    ch = read_homebrew(PILGRIM, db).character
    assert ch.night == {"first_night": db.night_position("clockmaker", "first_night") + 0.5}
    assert ch.texts["en"].name == "Pilgrim" and ch.texts["ko"].name == "순례자"
    assert ch.setup is None and ch.homebrew


def test_schema_reuses_the_database_schemas():
    homebrew = json.loads((SCHEMAS_DIR / "homebrew.schema.json").read_text())
    characters = json.loads((SCHEMAS_DIR / "characters.schema.json").read_text())
    texts = json.loads((SCHEMAS_DIR / "texts.schema.json").read_text())
    facts = characters["properties"]["characters"]["items"]["properties"]
    assert homebrew["properties"]["setup"] == facts["setup"]
    assert homebrew["properties"]["team"] == facts["team"]
    mine = homebrew["definitions"]["texts"]["properties"]
    for key, rule in texts["properties"].items():
        if key != "translated_from":  # provenance of a translation; a homebrew file is written in both at once
            assert mine[key] == rule, key


def test_schema_error_names_file_line_record_field(runner, tmp_path):
    path = write(tmp_path, {**BARD, "team": "wizard"})
    result = run(runner, "homebrew", "check", path)
    assert result.exit_code == 1
    assert re.search(rf"{re.escape(str(path))}:2: record 'bard', field 'team': must be one of", result.output)


@pytest.mark.parametrize("change, message", [
    ({"setup": {"outsiders": 1}}, "the bracket [+0 or +1 Outsider] means {'outsiders': [0, 1]}, but the setup "
                                  "effect is {'outsiders': 1}"),
    ({"first_night": {"after": "nobody"}}, "'nobody' is not on the official first night sheet"),
    ({"other_nights": 0}, "a reminder, but 'other_nights' does not place the character"),
    ({"jinxes": [{"with": "nobody", "texts": {"en": "x", "ko": "x"}}]}, "'nobody' is not a character"),
])
def test_consistency_problems(db, tmp_path, change, message):
    _, problems = check_homebrew(write(tmp_path, {**BARD, **change}), db)
    assert any(message in str(p) for p in problems), [str(p) for p in problems]


def test_bracket_missing_in_one_language(db, tmp_path):
    data = json.loads(json.dumps(BARD))
    data["texts"]["ko"]["ability"] = "매일 밤, 플레이어 1명을 선택합니다."
    _, problems = check_homebrew(write(tmp_path, data), db)
    assert [str(p).split(": ", 1)[1] for p in problems] == [
        "record 'bard', field 'texts.ko.ability': the ko ability has no [...] bracket for the setup effect "
        "{'outsiders': [0, 1]}"]


def test_bracket_alone_gives_the_setup_effect(db, tmp_path):
    data = {k: v for k, v in BARD.items() if k != "setup"}
    homebrew, problems = check_homebrew(write(tmp_path, data), db)
    assert problems == []
    assert homebrew.character.setup.as_dict() == {"outsiders": [0, 1]}


def test_with_homebrew_adds_characters_and_keeps_the_database(db, tmp_path):
    write(tmp_path, BARD)
    (tmp_path / "pilgrim.yaml").write_bytes(PILGRIM.read_bytes())
    pilgrim_before = db.characters["pilgrim"]
    more = with_homebrew(db, tmp_path)
    assert "bard" not in db.characters and db.characters["pilgrim"] is pilgrim_before  # db unchanged
    assert more.resolve("음유시인").id == "bard" and more.characters["pilgrim"].texts["en"].name == "Pilgrim"
    assert more.reminder_labels["ko"]["bard_sung"] == "노래함"
    script = script_from_data([{"id": "_meta", "name": "x"}, "imp", "bard", "chef", "pilgrim", "clockmaker"], more)
    assert [j.characters for j in script_jinxes(script, more).jinxes] == [("bard", "imp")]
    order = night_order(script, more)
    assert order.first_night[:2] == ["dusk", "bard"]
    assert order.first_night.index("pilgrim") == order.first_night.index("clockmaker") + 1
    with pytest.raises(FrozenInstanceError):
        more.characters = {}


def test_script_object_is_official_format(db, tmp_path):
    obj = script_object(read_homebrew(write(tmp_path, BARD), db), "en")
    assert obj == {"id": "bard", "name": "Bard", "team": "outsider", "ability": BARD["texts"]["en"]["ability"],
                   "firstNight": 1.5, "firstNightReminder": "The Bard chooses a player.", "otherNight": 45,
                   "otherNightReminder": "The Bard chooses a player.", "reminders": ["Sung"], "setup": True,
                   "jinxes": [{"id": "imp", "reason": "The Imp cannot choose the Bard."}]}
    from scriptforge.scripts.schema import schema_valid

    assert schema_valid([{"id": "_meta", "name": "x"}, obj, "imp", "chef", "baron", "empath"])


def test_add_embeds_and_updates_in_place(runner, tmp_path, db):
    out = tmp_path / "my.json"
    run(runner, "new", out, "--name", "Mine", "chef", "imp")
    bard = write(tmp_path, BARD)
    assert run(runner, "add", out, bard).exit_code == 2  # which language?
    result = run(runner, "add", out, bard, "--lang", "ko")
    assert result.exit_code == 0, result.output
    assert "new jinx: 음유시인 × Imp" in result.output or "new jinx: Bard × Imp" in result.output
    result = run(runner, "add", out, bard, "--lang", "en")
    assert "updated Bard (bard)" in result.output
    data = json.loads(out.read_text())
    assert [e if isinstance(e, str) else e["name"] for e in data[1:]] == ["chef", "imp", "Bard"]
    assert read_script(out, db).get("bard").setup.as_dict() == {"outsiders": [0, 1]}


@pytest.mark.parametrize("lang, name", [("ko", "순례자"), ("en", "Pilgrim")])
def test_pilgrim_renders_on_the_003_sheet(runner, tmp_path, lang, name):
    out = tmp_path / f"sheet-{lang}.pdf"
    result = run(runner, "build", FANG_GU, "--homebrew", HOMEBREW, "--lang", lang, "-o", out)
    assert result.exit_code == 0, result.output
    text = re.sub(r"\s+", "", PdfReader(io.BytesIO(out.read_bytes())).pages[0].extract_text())
    assert name in text
    if lang == "en":
        assert "nearestevilplayer" in text


def test_script_made_with_english_pilgrim_renders(runner, tmp_path):
    out = tmp_path / "en.json"
    assert run(runner, "new", out, "--name", "Pilgrims", "chef", "imp", "baron", "empath", PILGRIM,
               "--lang", "en").exit_code == 0
    result = run(runner, "build", out, "--lang", "en", "-o", tmp_path / "en.pdf")
    assert result.exit_code == 0, result.output
    text = re.sub(r"\s+", "", PdfReader(io.BytesIO((tmp_path / "en.pdf").read_bytes())).pages[0].extract_text())
    assert "Pilgrim" in text and "nearestevilplayer" in text


def test_homebrew_option_on_analysis_commands(runner, tmp_path):
    write(tmp_path, BARD)
    script = tmp_path / "s.json"
    script.write_text(json.dumps([{"id": "_meta", "name": "x"}, "imp", "bard", "chef", "baron", "empath"]))
    result = run(runner, "jinxes", script, "--homebrew", tmp_path, "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["jinxes"][0]["characters"] == ["bard", "imp"]
    result = run(runner, "night", script, "--homebrew", tmp_path, "--lang", "ko")
    assert "음유시인" in result.output
    assert run(runner, "validate", script).exit_code == 1  # without --homebrew the Bard is unknown
    for command in ("validate", "setup", "order", "nightsheet"):
        assert "--homebrew" in runner.invoke(main, [command, "--help"]).output


def test_homebrew_check_runs_the_translation_checks(runner, tmp_path):
    pytest.importorskip("scriptforge.l10n.checks")
    path = write(tmp_path, BARD)  # English how_to_run, no Korean one
    result = run(runner, "homebrew", "check", path, "--format", "json")
    assert result.exit_code == 1
    problems = json.loads(result.output)["files"][0]["problems"]
    assert any("field 'texts.ko.how_to_run': [missing]" in p and p.startswith(f"{path}:") for p in problems), problems


def test_the_yaml_an_embedded_character_came_from_is_its_one_source(runner, tmp_path):
    """After `add`, a build and `export` use the YAML while the embedded copy differs, and say so;
    `export --lang ko` of a copy embedded in English writes the YAML's Korean."""
    import shutil

    from tests.conftest import EXAMPLES

    yaml_file = tmp_path / "pilgrim.yaml"
    shutil.copy(EXAMPLES / "homebrew" / "pilgrim.yaml", yaml_file)
    script = tmp_path / "s.json"
    assert runner.invoke(main, ["new", str(script), "--name", "S", "imp", "baron", "chef", "empath", "drunk",
                                "monk"]).exit_code == 0
    assert runner.invoke(main, ["add", str(script), str(yaml_file), "--lang", "en"]).exit_code == 0
    clean = runner.invoke(main, ["validate", str(script), "--format", "json"])
    assert "homebrew-differs" not in clean.output
    korean = runner.invoke(main, ["export", str(script), "--lang", "ko", "--for", "full"])
    pilgrim = next(o for o in json.loads(korean.stdout) if isinstance(o, dict) and o["id"] == "pilgrim")
    assert pilgrim["name"] != "Pilgrim"  # the YAML's Korean name, not the English copy
    yaml_file.write_text(yaml_file.read_text(encoding="utf-8").replace("name: Pilgrim", "name: Wayfarer", 1),
                         encoding="utf-8")
    built = runner.invoke(main, ["build", str(script), "--lang", "en", "--format", "html", "-o", "-"])
    assert built.exit_code == 0 and "Wayfarer" in built.stdout
    assert "'pilgrim': the copy embedded in the script differs from pilgrim.yaml (name)" in built.stderr
    exported = runner.invoke(main, ["export", str(script), "--lang", "en"])
    assert any(o.get("name") == "Wayfarer" for o in json.loads(exported.stdout) if isinstance(o, dict))
    assert "differs from pilgrim.yaml" in exported.stderr
    yaml_file.unlink()
    missing = runner.invoke(main, ["validate", str(script), "--format", "json"])
    codes = [f["code"] for f in json.loads(missing.output)["findings"]]
    assert "homebrew-source-missing" in codes
