"""Building and editing scripts: new / add / remove / meta (scriptforge.scripts.edit and the CLI)."""

from dataclasses import replace
import json
import os

import pytest

from scriptforge.cli import main
from scriptforge.scripts.edit import add_characters, remove_characters
from scriptforge.io.errors import NotFoundError
from scriptforge.rules.jinxes import script_jinxes
from scriptforge.rules.night import night_order
from scriptforge.rules.setup import setup_table
from scriptforge.scripts.analysis import validate_file
from scriptforge.scripts.script import read_script

from .conftest import EXAMPLES

PILGRIM = EXAMPLES / "homebrew" / "pilgrim.yaml"


def run(runner, *args):
    return runner.invoke(main, [str(a) for a in args])


def analysis(path, db):
    """Everything the analyses say about a script, without the file name."""
    script = read_script(path, db)
    return {
        "findings": [f.as_dict() for f in validate_file(path, db).findings],
        "night": night_order(script, db).as_dict("ko"),
        "night_en": night_order(script, db, 6).as_dict("en"),
        "setup": [row.as_dict() for row in setup_table(script.characters, db)],
        "jinxes": {lang: script_jinxes(script, db).as_dict(lang) for lang in ("ko", "en")},
    }


def _spelling(db, entry):
    """How a user might type an entry: a Korean or English name for most, the id for some."""
    ch = db.characters[entry]
    return ch.name("ko") if len(entry) % 3 == 0 else ch.name("en") if len(entry) % 3 == 1 else entry


@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.glob("*.json")))
def test_recreating_the_examples_analyses_the_same(runner, tmp_path, db, example):
    original = EXAMPLES / example
    data = json.loads(original.read_text(encoding="utf-8"))
    meta = next((e for e in data if isinstance(e, dict) and e.get("id") == "_meta"), {})
    out = tmp_path / example
    result = run(runner, "new", out, "--name", meta.get("name", "Recreated"))
    assert result.exit_code == 0, result.output
    names = []
    for entry in data:
        if isinstance(entry, str):
            names.append(_spelling(db, entry))
        elif entry.get("id") == "pilgrim":
            names.append(PILGRIM)
    for start in range(0, len(names), 10):  # several `add` calls, as a person would
        result = run(runner, "add", out, *names[start:start + 10], "--lang", "ko")
        assert result.exit_code == 0, result.output
    if meta.get("author"):
        assert run(runner, "meta", out, "--author", meta["author"]).exit_code == 0
    made = json.loads(out.read_text(encoding="utf-8"))
    sources = made[0].pop("homebrewSources", {})  # `add` of a YAML file notes where it came from
    assert made[0] == {k: v for k, v in meta.items() if k in ("id", "name", "author")} or not meta
    assert all((out.parent / where).resolve() == PILGRIM.resolve() for where in sources.values())
    assert all(isinstance(e, str) for e in made[1:] if not (isinstance(e, dict) and e["id"] == "pilgrim"))
    assert analysis(out, db) == analysis(original, db)


def test_new_writes_meta_first_then_ids(runner, tmp_path):
    out = tmp_path / "my.json"
    result = run(runner, "new", out, "--name", "Mine", "--author", "Me", "clockmaker", "릴몬스타", "Fang Gu")
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text()) == [{"id": "_meta", "name": "Mine", "author": "Me"},
                                           "clockmaker", "lilmonsta", "fanggu"]
    assert "teams: 1 Townsfolk, 2 Demons" in result.output
    again = run(runner, "new", out, "--name", "Mine")
    assert again.exit_code == 1 and "already exists" in again.output


def test_add_reports_jinx_djinn_and_setup_warnings(runner, tmp_path):
    out = tmp_path / "my.json"
    run(runner, "new", out, "--name", "Mine", *EXAMPLE_25[:20])
    result = run(runner, "add", out, "damsel", "미망인")
    assert result.exit_code == 0, result.output
    assert "added Damsel (damsel)" in result.output
    assert "new jinx: Widow × Damsel" in result.output
    assert "the Djinn is not on the script (the jinxes are its rules all the same)" in result.output
    assert "add it to the script" not in result.output
    result = run(runner, "add", out, "djinn", "huntsman")
    assert "the Djinn is on the script" in result.output
    assert "Huntsman (huntsman) is already on the script" in result.output
    result = run(runner, "remove", out, "Damsel")
    assert "+ error [companion-missing]" in result.output
    assert "- gone: [jinx-without-djinn]" not in result.output
    result = run(runner, "add", out, "damsel")
    assert "- gone: [companion-missing]" in result.output


EXAMPLE_25 = ["chef", "librarian", "noble", "pixie", "snakecharmer", "empath", "monk", "towncrier", "undertaker",
              "savant", "artist", "soldier", "huntsman", "drunk", "mutant", "lunatic", "poisoner", "witch",
              "boomdandy", "widow"]


def test_unknown_name_is_refused_and_nothing_changes(runner, tmp_path):
    out = tmp_path / "my.json"
    run(runner, "new", out, "--name", "Mine", "imp")
    before = out.read_bytes()
    result = run(runner, "add", out, "baron", "impp")
    assert result.exit_code == 1
    assert result.output.strip() == "Error: no character named 'impp'; did you mean Imp?"
    assert out.read_bytes() == before
    result = run(runner, "remove", out, "imp", "baron")
    assert result.exit_code == 1 and "'baron' is not on the script" in result.output
    assert out.read_bytes() == before


def test_ambiguous_name_is_refused(tmp_path, db):
    terms = [*db.glossary["en"], {"term": "Twin", "character": "imp"}, {"term": "Twin", "character": "baron"}]
    twins = replace(db, glossary={**db.glossary, "en": terms})
    out = tmp_path / "my.json"
    out.write_text('["_meta", "chef"]')
    with pytest.raises(NotFoundError, match="ambiguous: it names"):
        add_characters(out, twins, ["Twin"])
    assert out.read_text() == '["_meta", "chef"]'


def test_not_a_script_is_refused_before_anything(runner, tmp_path):
    for text in ('{"id": "_meta"}', "[1, 2", ""):
        path = tmp_path / "bad.json"
        path.write_text(text)
        for args in (["add", path, "imp"], ["remove", path, "imp"], ["meta", path, "--name", "x"]):
            result = run(runner, *args)
            assert result.exit_code == 2, result.output
            assert len(result.output.strip().splitlines()) == 1 and "Traceback" not in result.output
            assert path.read_text() == text


def test_entry_style_key_order_and_indent_are_kept(tmp_path, db):
    path = tmp_path / "objects.json"
    path.write_text(json.dumps([{"id": "imp"}, {"author": "A", "id": "_meta", "name": "N", "x-extra": 1},
                                {"id": "chef"}], indent=4) + "\n")
    add_characters(path, db, ["baron", "Fang Gu"])
    text = path.read_text()
    assert text.startswith('[\n    {\n        "id": "imp"')
    data = json.loads(text)
    assert data[-2:] == [{"id": "baron"}, {"id": "fanggu"}]
    assert list(data[1]) == ["author", "id", "name", "x-extra"]
    remove_characters(path, db, ["임프"])
    assert {"id": "imp"} not in json.loads(path.read_text())


def test_remove_also_leaves_the_meta_night_lists(tmp_path, db):
    path = tmp_path / "night.json"
    path.write_text(json.dumps([{"id": "_meta", "name": "N", "firstNight": ["dusk", "poisoner", "chef", "dawn"]},
                                "chef", "poisoner", "imp", "baron", "empath"]))
    change = remove_characters(path, db, ["poisoner"])
    assert json.loads(path.read_text())[0]["firstNight"] == ["dusk", "chef", "dawn"]
    assert change.done == ("removed Poisoner (poisoner)",)


def test_meta_sets_and_removes_keys(runner, tmp_path):
    out = tmp_path / "my.json"
    run(runner, "new", out, "--name", "Mine", "--author", "Me", "imp")
    result = run(runner, "meta", out, "--name", "Other", "--logo", "https://example.org/l.png",
                 "--bootlegger", "Rule one", "--bootlegger", "Rule two", "--author", "")
    assert result.exit_code == 0, result.output
    assert '_meta.name: "Mine" -> "Other"' in result.output
    assert json.loads(out.read_text())[0] == {"id": "_meta", "name": "Other", "logo": "https://example.org/l.png",
                                              "bootlegger": ["Rule one", "Rule two"]}
    assert run(runner, "meta", out, "--name", "").exit_code == 1


def test_an_interrupted_write_leaves_the_file_intact(runner, tmp_path, monkeypatch):
    out = tmp_path / "my.json"
    run(runner, "new", out, "--name", "Mine", "imp", "chef")
    before = out.read_bytes()

    def broken_rename(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_rename)
    result = run(runner, "add", out, "baron", "empath")
    assert result.exit_code == 1
    assert result.output.strip() == f"Error: {out}: cannot write the script: No space left on device; " \
                                    f"the file is unchanged"
    assert out.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["my.json"]  # no temporary file left behind


@pytest.mark.parametrize("command", ["new", "add", "remove", "meta", "homebrew check"])
def test_help_has_an_example(runner, command):
    result = runner.invoke(main, [*command.split(), "--help"])
    assert result.exit_code == 0 and "Example:" in result.output
