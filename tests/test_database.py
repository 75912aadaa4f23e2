import json
import re

import jsonschema
import pytest
import yaml

from scriptforge.db.loading import check_database, load_database
from scriptforge.io.datafiles import schema_path
from scriptforge.io.errors import DataError, NotFoundError
from scriptforge.model.ids import NIGHT_STEPS, NameIndex, name_key
from tests.conftest import shared_path

KO_SEED_IDS = set(
    "clockmaker grandmother bountyhunter pixie sailor preacher dreamer towncrier innkeeper monk fisherman "
    "slayer philosopher goon mutant drunk tinker poisoner devilsadvocate assassin baron nodashii imp "
    "vigormortis lilmonsta noble librarian pilgrim empath villageidiot snakecharmer balloonist seamstress "
    "farmer mayor banshee recluse zealot barber witch goblin fanggu djinn spiritofivory".split()
)
EN_SEED_IDS = set(
    "chef librarian noble pixie snakecharmer empath monk towncrier undertaker savant artist soldier huntsman "
    "damsel drunk mutant lunatic widow poisoner witch boomdandy lilmonsta nodashii vortox imp".split()
)


def test_every_character_has_texts_in_both_languages_and_seed_texts_are_originals(db):
    assert len(db.characters) == 55
    for ch in db.characters.values():
        assert set(ch.texts) == {"en", "ko"}, ch.id
    # Texts a seed gives are originals; the other language records what it was translated from.
    for lang, seeded, other in (("ko", KO_SEED_IDS, EN_SEED_IDS), ("en", EN_SEED_IDS, KO_SEED_IDS)):
        recorded = db.provenance.get(lang, {})
        for char_id in seeded:
            for field in ("name", "ability", "flavor", "overview"):
                assert f"{char_id}.{field}" not in recorded, (lang, char_id, field)
        for char_id in other - seeded:
            assert recorded[f"{char_id}.ability"][0] == ("en" if lang == "ko" else "ko"), (lang, char_id)
    assert db.characters["pilgrim"].homebrew and db.characters["pilgrim"].texts["ko"].name == "순례자"
    assert db.characters["pilgrim"].texts["en"].name == "Pilgrim"


def test_sections_the_seeds_give_are_all_there(db):
    for char_id in KO_SEED_IDS:
        texts = db.characters[char_id].texts["ko"]
        assert texts.ability and texts.flavor and texts.overview, char_id
    for char_id in EN_SEED_IDS:
        texts = db.characters[char_id].texts["en"]
        assert texts.flavor and texts.overview and texts.how_to_run, char_id
    for char_id in KO_SEED_IDS | EN_SEED_IDS:
        for lang in ("en", "ko"):
            texts = db.characters[char_id].texts[lang]
            assert texts.ability and texts.flavor and texts.overview, (char_id, lang)
    lil = db.characters["lilmonsta"].texts["en"]
    assert len(lil.how_to_run) == 3 and lil.examples[0].startswith("You may need to kill a Minion")
    assert len(db.characters["vigormortis"].texts["ko"].how_to_run) >= 1


def test_structured_setup_effects(db):
    expected = {
        "baron": {"outsiders": 2},
        "vigormortis": {"outsiders": -1},
        "lilmonsta": {"minions": 1, "demon_token": False},
        "fanggu": {"outsiders": 1},
        "balloonist": {"outsiders": [0, 1]},
        "villageidiot": {"extra_copies": [0, 2], "extra_copies_drunk": 1},
        "huntsman": {"adds": ["damsel"]},
        "bountyhunter": {"evil_townsfolk": 1},
    }
    for char_id, effect in expected.items():
        assert db.characters[char_id].setup.as_dict() == effect, char_id
    assert db.characters["imp"].setup is None


def test_night_positions_are_those_of_the_official_night_sheet(db):
    sheet = json.loads(shared_path("reference", "official", "nightsheet.json").read_text())
    for ch in db.characters.values():
        for key, official in (("first_night", sheet["firstNight"]), ("other_nights", sheet["otherNight"])):
            expected = official.index(ch.id) + 1 if ch.id in official else ch.night.get(key)
            assert db.night_position(ch.id, key) == expected, (ch.id, key)
    assert db.night_position("clockmaker", "first_night") == 60
    assert db.night_position("clockmaker", "other_nights") is None
    assert db.night_position("pilgrim", "first_night") == 60.5


def test_every_waking_character_has_night_reminders_in_both_languages(db):
    for ch in db.characters.values():
        for lang, texts in ch.texts.items():
            assert bool(texts.first_night_reminder) == (db.night_position(ch.id, "first_night") is not None), (ch.id, lang)
            assert bool(texts.other_night_reminder) == (db.night_position(ch.id, "other_nights") is not None), (ch.id, lang)
    for step in NIGHT_STEPS:
        assert set(db.steps[step].names) == {"en", "ko"}
    assert db.steps["dusk"].names["ko"] == "황혼"


def test_jinxes_have_texts_in_both_languages(db):
    assert {j.key for j in db.jinxes} == {"bountyhunter-philosopher", "vortox-banshee", "widow-damsel"}
    for jinx in db.jinxes:
        assert set(jinx.texts) == {"en", "ko"}
    widow_damsel = next(j for j in db.jinxes if j.key == "widow-damsel")
    assert "미망인" in widow_damsel.texts["ko"] and "아가씨" in widow_damsel.texts["ko"]


VARIANTS = ["설교자", "수도승", "어부", "노다시이", "악마의 대변인", "해질녘", "이방인", "등록"]


def test_no_shipped_korean_text_uses_a_variant_term(db):
    # A variant counts as a word where it does not continue another Hangul word
    # (플레이어부터 contains 어부 but is not the word 어부). Flavor is prose, where an ordinary word
    # is fine: the Seamstress's flavor has the seed's 이방인 ("a stranger"), not the team name.
    pattern = re.compile(rf"(?<![가-힣])({'|'.join(VARIANTS)})")
    texts = []
    for ch in db.characters.values():
        if "ko" in ch.texts:
            texts += [v for k, v in ch.texts["ko"].as_dict().items() if isinstance(v, str) and k != "flavor"]
            texts += [item for key in ("how_to_run", "examples") for item in getattr(ch.texts["ko"], key)]
    texts += [j.texts["ko"] for j in db.jinxes]
    texts += list(db.reminder_labels["ko"].values())
    texts += [s.first_night.get("ko", "") + s.other_nights.get("ko", "") for s in db.steps.values()]
    found = [(m.group(1), t[:40]) for t in texts for m in pattern.finditer(t)]
    assert found == []


@pytest.mark.parametrize(
    "edit, expected",
    [
        (lambda d: d.__setitem__("team", "villager"), ["characters.yaml:", "record 'baron'", "field 'characters.team'"]),
        (lambda d: d["setup"].__setitem__("wizards", 1), ["characters.yaml:", "record 'baron'", "setup"]),
    ],
)
def test_a_broken_fact_names_file_line_record_and_field(data_copy, edit, expected):
    path = data_copy / "characters.yaml"
    data = yaml.safe_load(path.read_text())
    baron = next(c for c in data["characters"] if c["id"] == "baron")
    edit(baron)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False))
    with pytest.raises(DataError) as err:
        load_database(data_copy)
    message = str(err.value)
    for part in expected:
        assert part in message
    line = int(re.search(r"characters\.yaml:(\d+)", message).group(1))
    assert "baron" in "".join(path.read_text().splitlines()[max(0, line - 6):line])


def test_a_text_file_without_ability_is_named_with_its_line(data_copy):
    path = data_copy / "ko" / "characters" / "imp.yaml"
    data = yaml.safe_load(path.read_text())
    del data["ability"]
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False))
    with pytest.raises(DataError) as err:
        load_database(data_copy)
    assert "imp.yaml:1" in str(err.value) and "record 'imp'" in str(err.value) and "ability" in str(err.value)


def test_check_reports_every_problem_not_just_the_first(data_copy):
    (data_copy / "en" / "characters" / "nobody.yaml").write_text("name: Nobody\nability: None.\n")
    (data_copy / "ko" / "reminders.yaml").write_text("dead: 사망\n")
    _, problems = check_database(data_copy)
    messages = [str(p) for p in problems]
    assert any("nobody.yaml" in m and "no character with this id" in m for m in messages)
    assert sum("reminder token has no label" in m for m in messages) > 10


def test_yaml_syntax_error_names_the_line(data_copy):
    path = data_copy / "en" / "ui.yaml"
    path.write_text(path.read_text() + "\n  broken: [unclosed\n")
    with pytest.raises(DataError, match=r"ui\.yaml:\d+: invalid YAML"):
        load_database(data_copy)


def test_schemas_are_valid_and_agree_with_the_reference_validator(db):
    # fastjsonschema checks every load; jsonschema, the reference implementation, must agree.
    for schema_name, files in {
        "characters": [db.data_dir / "characters.yaml"],
        "night": [db.data_dir / "night.yaml"],
        "texts": sorted(db.data_dir.glob("*/characters/*.yaml")),
        "ui": sorted(db.data_dir.glob("*/ui.yaml")),
        "glossary": sorted(db.data_dir.glob("*/glossary.yaml")),
    }.items():
        schema = json.loads(schema_path(schema_name).read_text())
        jsonschema.Draft7Validator.check_schema(schema)
        for path in files:
            jsonschema.validate(yaml.safe_load(path.read_text()), schema)


def test_cached_database_follows_every_change_to_the_data(data_copy):
    first = load_database(data_copy)
    assert load_database(data_copy).characters["imp"].texts["en"].name == first.characters["imp"].texts["en"].name
    path = data_copy / "en" / "characters" / "imp.yaml"
    data = yaml.safe_load(path.read_text())
    data["name"] = "Imp the Second"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False))
    assert load_database(data_copy).characters["imp"].texts["en"].name == "Imp the Second"
    data["team"] = "demon"  # not a text field: the schema refuses it, cache or no cache
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False))
    with pytest.raises(DataError, match="imp.yaml"):
        load_database(data_copy)


def test_one_name_index_behind_find_resolve_suggest_and_complete():
    index = NameIndex()
    for item_id, names in (("witch", ("Witch", "마녀")), ("wise", ("Wise Woman", "현명한 여인"))):
        for name in (item_id, *names):
            index.add(name_key(name), item_id)
            index.add_word(name)
    index.add(name_key("W"), "witch")
    index.add(name_key("W"), "wise")
    assert index.find(["nothing", name_key("마녀"), "witch"]) == ["witch"]  # the first key that names anything
    assert index.complete("w") == ["witch", "wise", "Wise Woman"]  # in the order added; "Witch" is "witch" once
    assert index.complete("마") == ["마녀"] and index.complete("WISE W") == ["Wise Woman"]
    shown = {"witch": "Witch", "wise": "Wise Woman"}.__getitem__
    with pytest.raises(NotFoundError, match=r"^'W' is ambiguous in Salem: it names witch \(Witch\), wise \(Wise Woman\)$"):
        index.resolve("W", index.find([name_key("W")]), shown, lambda name: index.suggest(name, shown), "role",
                      within="Salem")
    with pytest.raises(NotFoundError, match=r"^no role named 'wtich'; did you mean Witch\?$"):
        index.resolve("wtich", [], shown, lambda name: index.suggest(name, shown), "role")


def test_a_data_file_changed_behind_an_unchanged_size_and_modification_time_is_read_again(tmp_path, monkeypatch):
    # the digest that keys the loaded database's cache is remembered by the files' stats; a change
    # that keeps size and mtime (an editor restoring it, `cp -p`) still moves the change time
    import os
    from scriptforge.io.fileio import files_digest

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    data = tmp_path / "characters.yaml"
    data.write_text("imp: demon\n", encoding="utf-8")
    first = files_digest([data, tmp_path / "missing.yaml"])
    assert files_digest([data, tmp_path / "missing.yaml"]) == first
    info = data.stat()
    data.write_text("imp: minon\n", encoding="utf-8")  # same size
    os.utime(data, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert data.stat().st_size == info.st_size and data.stat().st_mtime_ns == info.st_mtime_ns
    changed = files_digest([data, tmp_path / "missing.yaml"])
    assert changed != first
    data.write_text("imp: demon\n", encoding="utf-8")
    assert files_digest([data, tmp_path / "missing.yaml"]) == first  # the bytes decide, not the stats
