"""The official Korean translation, exactly: every label, jinx and night text reaches the output,
the official wording wins over ours, and what it cannot give is marked, not hidden."""

import json

import pytest

from scriptforge.cli import main
from scriptforge.database import load_database
from scriptforge.ids import token_id
from scriptforge.reference import character_record
from tests.conftest import install_official, korean_translation, official_json


@pytest.fixture
def pack_env(official_ko, monkeypatch):
    folder, pack, _ = official_ko
    monkeypatch.setenv("SCRIPTFORGE_PACKS", str(pack))
    return folder, pack


def _translation(folder):
    return json.loads((folder / "game" / "ko.json").read_text(encoding="utf-8"))


def test_every_official_label_reaches_its_token(pack_env, runner):
    folder, pack = pack_env
    translation = _translation(folder)
    db = load_database(packs=[pack])
    roles = official_json("roles.json")
    checked = 0
    for role in roles:
        expected = [translation["reminders"][token_id(label)]
                    for label in (*role.get("reminders", ()), *role.get("remindersGlobal", ()))]
        record = character_record(db, db.get(role["id"]), ("ko",))
        assert record["labels"]["ko"] == expected, role["id"]
        assert not any(k.startswith("reminder.") for k in record["fallbacks"]["ko"]), role["id"]
        checked += len(expected)
    assert checked > 200  # every label of every official character
    result = runner.invoke(main, ["show", "fortuneteller", "--lang", "ko", "--format", "json"])
    shown = json.loads(result.stdout)
    assert shown["labels"]["ko"] == [translation["reminders"]["redherring"]]
    text = runner.invoke(main, ["show", "fortuneteller", "--lang", "ko"]).stdout
    assert translation["reminders"]["redherring"] in text and "Red Herring" not in text


def test_the_official_label_wins_over_the_built_in_one(pack_env, db):
    folder, pack = pack_env
    translation = _translation(folder)
    packed = load_database(packs=[pack])
    differing = [t for t, ours in db.reminder_labels["ko"].items()
                 if t in translation["reminders"] and translation["reminders"][t] != ours]
    assert len(differing) > 10
    for token in differing:
        assert packed.reminder_label(token, "ko") == translation["reminders"][token], token


def test_every_jinx_and_night_text_reaches_the_output(pack_env):
    folder, pack = pack_env
    translation = _translation(folder)
    db = load_database(packs=[pack])
    jinxes = {frozenset(j.characters): j for j in db.jinxes}
    for key, text in translation["jinxes"].items():
        assert jinxes[frozenset(key.split("-"))].text("ko") == text, key
    for char_id, entry in translation["roles"].items():
        if char_id in db.steps:
            continue
        ch = db.get(char_id)
        for ours, theirs in (("first_night", "first"), ("other_nights", "other")):
            if theirs in entry:
                assert ch.night_reminder(ours, "ko") == (entry[theirs], "ko"), (char_id, ours)


def test_a_label_key_that_matches_no_token_is_a_warning_naming_it(official_ko, tmp_path, db):
    from scriptforge.packs import import_pack

    odd = {"roles": {}, "reminders": {"redherring": "붉은 청어", "nosuchlabel": "없는 표식"},
           "editions": {"tb": {"name": "시험판"}}}
    (tmp_path / "ko.json").write_text(json.dumps(odd, ensure_ascii=False), encoding="utf-8")
    _, build = import_pack([tmp_path / "ko.json", official_ko[0] / "roles.json"], lang="ko",
                           out=tmp_path / "pack", base_db=db)
    said = "\n".join(build.warnings)
    assert "/reminders/nosuchlabel: no reminder token 'nosuchlabel'" in said, said
    assert "redherring" not in said and "editions" not in said


def test_diff_against_really_reads_the_file(pack_env, runner, tmp_path):
    folder, _ = pack_env
    translation = _translation(folder)
    translation["reminders"]["redherring"] = "다른 청어"
    translation["jinxes"][next(iter(translation["jinxes"]))] = "바뀐 징크스 문장입니다."
    changed = tmp_path / "ko.json"
    changed.write_text(json.dumps(translation, ensure_ascii=False), encoding="utf-8")
    same = runner.invoke(main, ["l10n", "diff", "--to", "ko", "--against", str(folder / "game" / "ko.json")])
    assert same.exit_code == 0 and "no differences" in same.stdout, same.output
    result = runner.invoke(main, ["l10n", "diff", "--to", "ko", "--against", str(changed)])
    assert "reminder.redherring" in result.stdout and "다른 청어" in result.stdout, result.output
    assert "바뀐 징크스 문장입니다." in result.stdout
