"""Names people actually use find their character: the earlier and community names of the Korean
glossary research (../shared/reference/GLOSSARY-ko.md) and of the corpus's Korean scripts, and
every official English name written in Hangul (data/ko/names.yaml), in every lookup; a close
miss is measured in Hangul letters (jamo)."""

import json
import re

from click.testing import CliRunner
import pytest
import yaml

from scriptforge.cli import main
from scriptforge.db.loading import load_database
from scriptforge.io.errors import NotFoundError
from scriptforge.io.paths import DATA_DIR
from scriptforge.model.ids import NameIndex, name_key
from tests.conftest import official_json, shared_path

HANGUL = re.compile(r"[가-힣]")


@pytest.fixture(scope="module")
def packed(official_ko):
    """The built-in data with the official pack (English files of ../shared, Korean test texts)."""
    _, target, _ = official_ko
    return load_database(packs=[target])


def _glossary_variants() -> dict[str, set[str]]:
    """English name -> the variants GLOSSARY-ko.md lists for it: the variants column of its table
    of character names and its paragraph of other names ("Spy 첩자 vs 스파이 (PG 2024, WH, CP)")."""
    text = shared_path("reference", "GLOSSARY-ko.md").read_text(encoding="utf-8")
    section = text[text.index("## 5. Character names"):]
    out: dict[str, set[str]] = {}
    for row in section.splitlines():
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(cells) == 6 and cells[1].startswith("`"):
            for part in re.split(r";| / ", re.sub(r"\([^)]*\)", "", cells[5])):
                name = part.strip()
                if HANGUL.search(name):
                    out.setdefault(cells[0], set()).add(name)
    other = section[section.index("Other TB/SnV names"):].split("\n\n")[0].replace("\n", " ")
    for part in other.split(";"):
        if " vs " in part:
            english = re.search(r"([A-Z][A-Za-z' -]*[a-z])\s+[가-힣]", part).group(1).split(":")[-1].strip()
            out.setdefault(english.split(")")[-1].strip(), set()).add(
                re.sub(r"\([^)]*\)", "", part.split(" vs ", 1)[1]).strip())
    return out


def test_every_glossary_variant_names_its_character(packed):
    by_name = {r["name"]: r["id"] for r in official_json("roles.json")}
    variants = _glossary_variants()
    assert {"Preacher", "Empath", "Spy", "Scarlet Woman", "Virgin", "Ravenkeeper"} <= set(variants)
    assert sum(len(v) for v in variants.values()) >= 45
    for english, names in variants.items():
        for name in names:
            assert [c.id for c in packed.find(name)] == [by_name[english]], (english, name)
            assert packed.resolve(name.replace(" ", "")).id == by_name[english]


def test_the_hangul_spelling_of_every_official_english_name_names_its_character(packed):
    table = yaml.safe_load((DATA_DIR / "ko" / "names.yaml").read_text(encoding="utf-8"))["english"]
    roles = official_json("roles.json")
    assert set(table) == {r["id"] for r in roles}  # every official character, none other
    for char_id, spellings in table.items():
        for spelling in spellings:
            assert HANGUL.search(spelling)
            assert packed.resolve(spelling).id == char_id, spelling
    for spelling, char_id in (("레이븐키퍼", "ravenkeeper"), ("버틀러", "butler"), ("워셔우먼", "washerwoman"),
                              ("드렁크", "drunk"), ("포춘텔러", "fortuneteller"), ("포춘 텔러", "fortuneteller")):
        assert packed.resolve(spelling).id == char_id


def test_the_corpus_korean_scripts_names_find_their_characters(packed):
    official = {r["id"] for r in official_json("roles.json")}
    seen = 0
    for path in sorted(shared_path("reference", "scripts").glob("ko-*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for entry in data if isinstance(data, list) else []:
            if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
                continue
            char_id = re.sub(r"^[a-z]{2}_[A-Z]{2}_", "", str(entry.get("id", "")))
            if char_id not in official or entry["name"] == "곡예사":  # the Juggler's official name
                continue
            assert char_id in [c.id for c in packed.find(entry["name"])], (path.name, entry["name"])
            seen += 1
    assert seen > 300


def test_a_community_name_never_takes_a_proper_name_of_another_character():
    index = NameIndex()
    index.add(name_key("곡예사"), "juggler")
    index.add_if_free(name_key("곡예사"), "acrobat")  # a community name of the Acrobat
    index.add_if_free(name_key("애크러뱃"), "acrobat")
    index.add_if_free(name_key("집사"), "butler")
    index.add_if_free(name_key("집사"), "steward")  # two community names alike: both, ambiguous
    assert index.find([name_key("곡예사")]) == ["juggler"]
    assert index.find([name_key("애크러뱃")]) == ["acrobat"]
    assert index.find([name_key("집사")]) == ["butler", "steward"]


def test_suggestions_compare_hangul_by_its_letters(db):
    index = NameIndex()
    for key, item_id in (("역병의사", "plaguedoctor"), ("병사", "soldier")):
        index.add(key, item_id)
    shown = {"plaguedoctor": "역병 의사", "soldier": "군인"}.__getitem__
    assert index.suggest("벙사", shown) == ["군인"]  # one letter off 병사
    assert index.suggest("병샤", shown)[0] == "군인"
    assert db.resolve("병사").id == "soldier"
    with pytest.raises(NotFoundError, match="did you mean 군인"):
        db.resolve("벙사")


def test_a_name_of_an_official_character_not_loaded_says_how_to_load_it(db):
    with pytest.raises(NotFoundError, match=r"^'레이븐키퍼' is ravenkeeper, an official townsfolk that is not loaded; "
                                            r"run `scriptforge pack update`"):
        db.resolve("레이븐키퍼")


def test_show_new_add_and_migrate_take_the_names(official_ko, tmp_path):
    _, target, _ = official_ko
    pack = ["--pack", str(target)]
    runner = CliRunner()
    shown = runner.invoke(main, [*pack, "show", "워셔우먼", "--format", "json"])
    assert shown.exit_code == 0 and json.loads(shown.output)["id"] == "washerwoman"
    script = tmp_path / "s.json"
    made = runner.invoke(main, [*pack, "new", str(script), "--name", "Names", "레이븐키퍼", "스파이"])
    assert made.exit_code == 0, made.output
    added = runner.invoke(main, [*pack, "add", str(script), "버틀러", "진홍의 여인", "병사"])
    assert added.exit_code == 0, added.output
    ids = [e if isinstance(e, str) else e["id"] for e in json.loads(script.read_text(encoding="utf-8"))]
    assert set(ids) >= {"ravenkeeper", "spy", "butler", "scarletwoman", "soldier"}
    # a script naming characters the way players do reads, and migrates to the official ids
    community = tmp_path / "community.json"
    community.write_text(json.dumps([{"id": "_meta", "name": "옛 대본"}, "포춘텔러", "세탁부",
                                     {"id": "ko_KR_spy", "name": "스파이", "team": "minion"}],
                                    ensure_ascii=False), encoding="utf-8")
    checked = runner.invoke(main, [*pack, "validate", str(community), "--format", "json"])
    assert "unknown-character" not in checked.output, checked.output
    migrated = runner.invoke(main, [*pack, "migrate", str(community), "-o", str(tmp_path / "out.json")])
    assert migrated.exit_code == 0, migrated.output
    assert "refused:" not in migrated.output
    assert json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))[1:] == ["fortuneteller", "washerwoman", "spy"]
