"""Docs that cannot drift: the command reference is what --help says, the README's sample
commands run, and every name the vulture whitelist keeps is still in the code."""

import glob
from pathlib import Path
import re
import shlex
import subprocess
import sys

import pytest

from scriptforge.cli import main

ROOT = Path(__file__).resolve().parents[1]

#: README commands that need what a test cannot give here: the network, files the reader has
#: (my-script.json, corpus/, ~/botc-data, ../shared seeds), or that write into the checkout's data
#: (l10n confirm/import); renders are left to the render tests (time).
_SKIP = re.compile(r"pack update|pack import|pack diff|--pack official|my-script|corpus/|scripts/|~/|\.\./shared|"
                   r"\[|l10n (confirm|import|export)|--against|^scriptforge (build|nightsheet|almanac)\b")


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
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
