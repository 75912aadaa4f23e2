import json

import pytest

from scriptforge.cli import main
from scriptforge.io.datafiles import read_yaml
from scriptforge.model.glossary import apply_glossary
from scriptforge.packs.almanac import TEXT_FIELDS
from tests.conftest import EXAMPLES, SEED_FILES, shared_path

# The shipped texts are the imports of the seeds in this order (seeds 000 and 003 share
# eight characters with identical texts), plus the night texts we wrote (night.yaml) and the
# how-to-run items one language lacked, translated from the other (ADDED: file -> items).
IMPORTS = [("000", "faith-trust-and-pixie-dust.json", []), ("003", "fang-gu-zealot.json", ["--name", "팡 구 + 광신자"]),
           ("001", "english-almanac-25.json", [])]

ADDED = {"imp.yaml": 2}  # the English Imp's dawn announcement and dead-target notes


@pytest.mark.parametrize("seed, example, extra", IMPORTS)
def test_reimporting_a_seed_gives_the_shipped_texts_and_example(runner, db, tmp_path, seed, example, extra):
    name, lang = SEED_FILES[seed]
    out, script = tmp_path / lang, tmp_path / "script.json"
    result = runner.invoke(main, ["import", "almanac", str(shared_path("seeds", name)), "--lang", lang,
                                  "--out", str(out), "--script", str(script), *extra])
    assert result.exit_code == 0, result.output
    written = sorted(out.glob("characters/*.yaml"))
    assert len(written) in (25, 27)
    for path in written:
        shipped = read_yaml(db.data_dir / lang / "characters" / path.name)
        if lang == "ko" and path.name in ADDED:
            shipped["how_to_run"] = shipped["how_to_run"][:-ADDED[path.name]]
        imported = read_yaml(path)
        assert imported == {k: shipped[k] for k in TEXT_FIELDS if k in imported}, path.name
    assert json.loads(script.read_text()) == json.loads((EXAMPLES / example).read_text())


def test_seed_003_names_are_resolved_from_the_overviews(runner, tmp_path):
    name, _ = SEED_FILES["003"]
    runner.invoke(main, ["import", "almanac", str(shared_path("seeds", name)), "--lang", "ko", "--out", str(tmp_path)])
    ids = {p.stem for p in tmp_path.glob("characters/*.yaml")}
    assert {"pilgrim", "villageidiot", "balloonist", "zealot", "spiritofivory", "djinn", "fanggu"} <= ids
    assert read_yaml(tmp_path / "characters" / "villageidiot.yaml")["name"] == "마을 백치"
    assert "동네바보" not in (tmp_path / "characters" / "villageidiot.yaml").read_text()


def test_import_keeps_fields_the_almanac_does_not_give(runner, tmp_path):
    name, _ = SEED_FILES["003"]
    target = tmp_path / "characters" / "noble.yaml"
    target.parent.mkdir(parents=True)
    target.write_text("name: 귀족\nability: 옛 능력\nhow_to_run:\n- 직접 쓴 진행 방법\n")
    runner.invoke(main, ["import", "almanac", str(shared_path("seeds", name)), "--lang", "ko", "--out", str(tmp_path)])
    noble = read_yaml(target)
    assert noble["how_to_run"] == ["직접 쓴 진행 방법"] and noble["ability"] != "옛 능력"


@pytest.mark.parametrize(
    "text, line, words",
    [
        ("Townsfolk\nChef\nYou start knowing things.\n", 1, "incomplete"),
        ("Townsfolk\nChef\nA.\nB.\nC.\nHow to Run\n- one\nHow to Run\n- two\n", 8, "appears twice"),
        ("Just some notes\nwith no teams at all.\n", 1, "no team line"),
        ("마을주민\n알 수 없는 이름\n능력.\n맛.\n개요.\n", 2, "unknown character name"),
    ],
)
def test_a_malformed_almanac_is_refused_with_its_line_and_nothing_written(runner, tmp_path, text, line, words):
    source = tmp_path / "bad.txt"
    source.write_text(text, encoding="utf-8")
    lang = "ko" if "마을주민" in text else "en"
    out = tmp_path / "out"
    result = runner.invoke(main, ["import", "almanac", str(source), "--lang", lang, "--out", str(out)])
    assert result.exit_code == 2
    assert f"bad.txt:{line}:" in result.output and words in result.output
    assert "Traceback" not in result.output
    assert not out.exists()


def test_glossary_replacement_fixes_korean_particles():
    terms = [{"term": "수도사", "variants": ["수도승"]}, {"term": "낚시꾼", "variants": ["어부"]},
             {"term": "여관 주인", "variants": ["여관주인"]}, {"term": "황혼", "variants": ["해질녘"]}]
    assert apply_glossary("여관주인은 수도승처럼", terms, "ability")[0] == "여관 주인은 수도사처럼"
    assert apply_glossary("수도승은 어부를 깨우고 어부로", terms, "ability")[0] == "수도사는 낚시꾼을 깨우고 낚시꾼으로"
    assert apply_glossary("해질녘까지 플레이어부터", terms, "ability")[0] == "황혼까지 플레이어부터"


def test_written_files_get_ordinary_permissions(tmp_path):
    from scriptforge.io.fileio import atomic_write_text

    target = tmp_path / "a.txt"
    atomic_write_text(target, "x")
    assert target.stat().st_mode & 0o777 == 0o666 & ~_umask()
    target.chmod(0o600)
    atomic_write_text(target, "y")
    assert target.stat().st_mode & 0o777 == 0o600 and target.read_text() == "y"


def _umask() -> int:
    import os

    current = os.umask(0)
    os.umask(current)
    return current


def test_glossary_entries_apply_where_they_say():
    """An entry's variants are replaced in the kinds of text its `wrong_in` names (default: all
    but flavor); the kinds are the ones the glossary schema allows."""
    import json

    from scriptforge.model.glossary import FIELD_KINDS, RULE_FIELDS
    from scriptforge.io.paths import SCHEMAS_DIR

    terms = [{"term": "외지인", "variants": ["이방인"]}, {"term": "지목", "variants": ["지명"], "wrong_in": ["ability"]}]
    assert apply_glossary("이방인이 지명합니다", terms, "ability")[0] == "외지인이 지목합니다"
    assert apply_glossary("이방인이 지명합니다", terms, "overview")[0] == "외지인이 지명합니다"
    assert apply_glossary("이방인이 지명합니다", terms, "flavor")[0] == "이방인이 지명합니다"
    schema = json.loads((SCHEMAS_DIR / "glossary.schema.json").read_text())
    assert schema["properties"]["terms"]["items"]["properties"]["wrong_in"]["items"]["enum"] == list(FIELD_KINDS)
    assert "flavor" not in RULE_FIELDS and len(RULE_FIELDS) == len(FIELD_KINDS) - 1
