"""Docs that cannot drift: the command reference and the README's command table are what --help
says, the sample commands of the README and the guides in docs/ run and name only options that
exist, every command has its place in a guide, the README stays one screen, and every name the
vulture whitelist keeps is still in the code."""

import glob
from pathlib import Path
import re
import shlex
import subprocess
import sys

import click
import pytest

from scriptforge.cli import main

ROOT = Path(__file__).resolve().parents[1]

#: The README and the guides in docs/ (the command reference, docs/commands.md, is generated).
GUIDES = [ROOT / "README.md", *sorted(p for p in (ROOT / "docs").glob("*.md") if p.name != "commands.md")]


def guide_text() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in GUIDES)


#: Sample commands that need what a test cannot give here: the network, files the reader has
#: (my-script.json, corpus/, ~/botc-data, ../shared seeds), or that write into the checkout's data
#: (l10n confirm/import); renders are left to the render tests (time).
_SKIP = re.compile(r"pack update|pack import|pack diff|--pack official|my-script|corpus/|scripts/|~/|\.\./shared|"
                   r"\[|l10n (confirm|import|export)|--against|^scriptforge (build|nightsheet|almanac|watch)\b")


def readme_commands() -> list[str]:
    text = guide_text()
    out = []
    for block in re.findall(r"```(?:sh|bash|console)\n(.*?)```", text, re.S):
        for line in block.splitlines():
            line = line.strip()
            if line.startswith("scriptforge ") and not line.endswith("\\"):
                command = re.sub(r"\s+#.*$", "", line)
                if not _SKIP.search(command):
                    out.append(command)
    return out


def test_the_command_reference_is_what_help_says():
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "command_help.py"), "--check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_readme_sample_commands_run(tmp_path, monkeypatch):
    from click.testing import CliRunner

    commands = readme_commands()
    assert len(commands) >= 20, commands  # the filter keeps most of them
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    for command in commands:
        words = shlex.split(command)[1:]
        args = [match for word in words for match in (sorted(glob.glob(word)) if "*" in word else [word])]
        result = runner.invoke(main, args, catch_exceptions=False)
        # validate and l10n check exit 1 when they find errors; anything else is a broken example
        finds = words[0] == "validate" or words[:2] == ["l10n", "check"]
        assert result.exit_code in ((0, 1) if finds else (0,)), (command, result.output)
        assert result.output.strip(), command


def _readme_command_lines() -> list[str]:
    text = guide_text()
    blocks = re.findall(r"```(?:sh|bash|console)\n(.*?)```", text, re.S)
    lines = [line.strip() for block in blocks for line in block.splitlines()]
    inline = re.findall(r"`(scriptforge [^`]+)`", text)
    return [re.sub(r"\s+#.*$", "", line) for line in [*lines, *inline] if line.startswith("scriptforge ")]


def _command_of(words: list[str]) -> tuple[click.Command, list[str]]:
    command: click.Command = main
    while isinstance(command, click.Group) and words and words[0] in command.commands:
        command = command.commands[words.pop(0)]
    return command, words


def _all_commands(group: click.Group, prefix: str = ""):
    for name, command in group.commands.items():
        if not command.hidden:
            yield f"{prefix}{name}", command
            if isinstance(command, click.Group):
                yield from _all_commands(command, f"{prefix}{name} ")


def test_every_option_the_readme_names_exists():
    """Headings, inline examples and the blocks the sample test cannot run (builds, pack update)."""
    global_options = {opt for param in main.params for opt in param.opts}
    wrong = []
    for line in _readme_command_lines():
        command, words = _command_of(line.split()[1:])
        options = {opt for param in command.params for opt in (*param.opts, *param.secondary_opts)}
        options |= global_options | {"--help"}
        wrong += [(line, option) for word in words
                  for option in re.findall(r"(?<![\w-])(--?[a-zA-Z][\w-]*)", word) if option not in options]
    assert not wrong, f"the docs name options the commands do not have: {wrong}"


def test_every_command_is_in_a_guide():
    text = "\n".join(p.read_text(encoding="utf-8") for p in GUIDES[1:])
    missing = [name for name, _ in _all_commands(main)
               if not re.search(rf"scriptforge {re.escape(name)}\b|`{re.escape(name)}`", text)]
    assert not missing, f"commands no guide in docs/ mentions: {missing}"


def test_the_readme_is_one_screen_and_links_every_guide():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert readme.count("\n") <= 200
    unlinked = [p.name for p in GUIDES[1:] if p.name.startswith("incoming-") or f"docs/{p.name}" not in readme]
    assert not unlinked, f"guides the README does not link: {unlinked}"


def test_every_link_between_the_docs_resolves():
    broken = []
    for page in GUIDES:
        for target in re.findall(r"\]\(([^)#:\s]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8")):
            if not (page.parent / target).exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert not broken, broken


def test_every_whitelisted_name_is_still_in_the_code():
    whitelist = (ROOT / "tools" / "vulture_whitelist.py").read_text(encoding="utf-8")
    code = "\n".join(p.read_text(encoding="utf-8") for p in [*(ROOT / "scriptforge").rglob("*.py"),
                                                           *(ROOT / "templates").rglob("*.j2")])
    stale = [name for name in sorted(set(re.findall(r"\b_\.(\w+)", whitelist)))
             if not re.search(rf"\b{re.escape(name)}\b", code)]
    assert not stale, f"tools/vulture_whitelist.py names code that is gone: {stale}"


@pytest.mark.skipif(not (ROOT / ".ci" / "run").exists(), reason="no .ci/run in this tree")
def test_ci_runs_ruff_and_vulture():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "ruff check" in ci and "vulture" in ci
