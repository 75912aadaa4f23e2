import json
import os
import subprocess
import sys

from scriptforge import __version__
from scriptforge.cli import main


def run_json(runner, *args):
    result = runner.invoke(main, [*args, "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_show_lil_monsta_in_korean(runner):
    record = run_json(runner, "show", "lil_monsta", "--lang", "ko")
    assert record["id"] == "lilmonsta" and record["team"] == "demon" and record["edition"] == "carousel"
    assert record["texts"]["ko"]["name"] == "릴 몬스타"
    assert record["setup"] == {"minions": 1, "demon_token": False}
    assert record["first_night"] == 30 and record["other_nights"] == 53
    assert set(record["texts"]) == {"ko"}  # --lang ko: only the Korean texts
    for key in ("ability", "flavor", "overview", "how_to_run", "examples", "first_night_reminder",
                "other_night_reminder"):
        assert record["texts"]["ko"][key], key


def test_show_resolves_every_spelling(runner):
    for name, expected in [("lil_monsta", "lilmonsta"), ("Lil' Monsta", "lilmonsta"), ("릴 몬스타", "lilmonsta"),
                           ("릴몬스타", "lilmonsta"), ("수도승", "monk"), ("설교자", "preacher"), ("fang_gu", "fanggu"),
                           ("No Dashii", "nodashii"), ("동네바보", "villageidiot"), ("ko_KR_imp", "imp")]:
        assert run_json(runner, "show", name)["id"] == expected, name


def test_show_both_languages(runner):
    record = run_json(runner, "show", "preacher", "--lang", "en+ko")
    assert set(record["texts"]) == {"en", "ko"} and record["texts"]["ko"]["name"] == "전도사"
    assert record["texts"]["en"]["name"] == "Preacher" and "first_night_reminder" in record["texts"]["en"]
    assert run_json(runner, "show", "vortox")["texts"]["ko"]["name"] == "보르톡스"


def test_show_unknown_name_suggests_and_fails(runner):
    result = runner.invoke(main, ["show", "impp"])
    assert result.exit_code == 1
    assert result.output.strip() == "Error: no character named 'impp'; did you mean Imp?"
    result = runner.invoke(main, ["show", "수도새"])
    assert result.exit_code == 1 and "수도사" in result.output


def test_show_text_has_facts_and_sections(runner):
    result = runner.invoke(main, ["show", "baron", "--lang", "ko"])
    assert result.exit_code == 0
    assert "남작 (baron)" in result.output and "개요" in result.output
    # the setup effect in the words of the language shown, the same phrase as the almanac's
    assert "세팅: 외지인 +2명\n" in result.output and "outsiders" not in result.output


def test_show_describes_every_setup_field_in_words(runner):
    result = runner.invoke(main, ["show", "lilmonsta", "--lang", "ko"])
    assert "세팅: 하수인 +1명, 악마 토큰을 주머니에 넣지 않음\n" in result.output
    result = runner.invoke(main, ["show", "balloonist", "--lang", "en"])
    assert "Setup: +0 or +1 Outsider\n" in result.output
    result = runner.invoke(main, ["show", "huntsman", "--lang", "en"])
    assert "Setup: adds the Damsel\n" in result.output


def test_list_filters_and_json_shape(runner):
    rows = run_json(runner, "list", "--team", "demon", "--lang", "ko")
    assert [r["id"] for r in rows] == ["lilmonsta", "nodashii", "imp", "vigormortis", "vortox", "fanggu"]
    assert all({"id", "team", "name"} <= set(r) for r in rows)
    assert rows[0]["name"] == "릴 몬스타"
    assert {r["id"] for r in run_json(runner, "list", "--edition", "homebrew")} == {"pilgrim"}


def test_search_in_both_languages(runner):
    ids = [r["id"] for r in run_json(runner, "search", "중독")]
    assert "poisoner" in ids and "nodashii" in ids
    assert [r["id"] for r in run_json(runner, "search", "babysits")] == ["lilmonsta"]
    assert [r["id"] for r in run_json(runner, "search", "어부")] == ["fisherman"]
    result = runner.invoke(main, ["search", "zzzz-nothing"])
    assert result.exit_code == 1


def test_db_check_counts(runner):
    result = runner.invoke(main, ["db", "check"])
    assert result.exit_code == 0
    assert "55 characters" in result.output
    assert "en 55 (25 original, 30 translated), ko 55 (44 original, 11 translated)" in result.output
    summary = run_json(runner, "db", "check")
    assert summary["ok"] and summary["languages"] == {"en": 55, "ko": 55}
    assert summary["translated"] == {"en": 30, "ko": 11}
    assert summary["teams"] == {"townsfolk": 30, "outsider": 9, "minion": 8, "demon": 6, "fabled": 2}


def test_version(runner):
    result = runner.invoke(main, ["--version"])
    assert result.output.strip() == f"scriptforge, version {__version__}"


def test_reference_commands_do_not_import_weasyprint_or_jsonschema():
    code = ("import sys; from scriptforge.cli import main\n"
            "try: main(['show', 'imp'], standalone_mode=False)\nexcept SystemExit: pass\n"
            "print(sorted(m for m in ('weasyprint', 'jsonschema', 'jinja2') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "[]"


def _complete(runner, words: str) -> list[str]:
    env = {"_SCRIPTFORGE_COMPLETE": "bash_complete", "COMP_WORDS": words, "COMP_CWORD": str(len(words.split()) - 1)}
    result = runner.invoke(main, [], env=env, prog_name="scriptforge")
    assert result.exit_code == 0, result.output
    return result.output.splitlines()


def test_shell_completion_offers_character_ids_and_names(runner):
    assert _complete(runner, "scriptforge show im") == ["plain,imp"]
    assert "plain,릴 몬스타" in _complete(runner, "scriptforge show 릴")
    offered = _complete(runner, "scriptforge add my.json lil")
    assert "plain,lilmonsta" in offered and "plain,Lil' Monsta" in offered
    # no character starts so: the shell completes a file name (a homebrew YAML file)
    assert _complete(runner, "scriptforge add my.json examples/") == ["file,examples/"]


def test_shell_completion_does_not_import_weasyprint():
    code = ("import sys; from scriptforge.cli import main\n"
            "try: main(prog_name='scriptforge')\nexcept SystemExit: pass\n"
            "print(sorted(m for m in ('weasyprint', 'jsonschema', 'jinja2') if m in sys.modules))")
    env = {**os.environ, "_SCRIPTFORGE_COMPLETE": "bash_complete", "COMP_WORDS": "scriptforge show 임", "COMP_CWORD": "2"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout
    assert out.splitlines() == ["plain,임프", "[]"]


def _commands(group, path=()):
    for name, command in group.commands.items():
        if hasattr(command, "commands"):
            yield from _commands(command, (*path, name))
        else:
            yield (*path, name), command


def test_help_prints_every_example_line_as_written(runner):
    for path, command in _commands(main):
        examples = [line.strip() for line in (command.help or "").splitlines() if line.strip().startswith("scriptforge ")]
        assert examples, f"{' '.join(path)} --help has no example"
        shown = [line.strip() for line in runner.invoke(main, [*path, "--help"]).output.splitlines()]
        for example in examples:
            assert example in shown, f"{' '.join(path)} --help rewraps: {example}"
