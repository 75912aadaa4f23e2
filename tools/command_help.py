"""docs/commands.md: every command's --help, generated (sqlite-utils' way), so it cannot drift.

    python tools/command_help.py            # rewrite docs/commands.md
    python tools/command_help.py --check    # exit 1 if docs/commands.md is not what --help says

tests/test_docs.py runs the check, so CI fails when an option changes and the page does not.
"""

from pathlib import Path
import sys

import click

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "commands.md"
WIDTH = 100


def _settings() -> dict:
    from scriptforge.cli import main

    return {"terminal_width": WIDTH, "max_content_width": WIDTH,
            "help_option_names": main.context_settings.get("help_option_names", ["--help"])}


def _commands(group: click.Group, ctx: click.Context, prefix: list[str]):
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if command is None or command.hidden:
            continue
        path = [*prefix, name]
        yield path, command
        if isinstance(command, click.Group):
            yield from _commands(command, click.Context(command, info_name=name, parent=ctx), path)


def page() -> str:
    from scriptforge.cli import main

    root = click.Context(main, info_name="scriptforge", **_settings())
    parts = ["# Command reference", "",
             "Generated from each command's `--help` by `tools/command_help.py` (do not edit by hand;",
             "run `python tools/command_help.py` after changing an option). The README says what the",
             "commands are for; this page says exactly what they take.", "",
             "## `scriptforge`", "", "```text", main.get_help(root), "```", ""]
    contexts = {(): root}
    for path, command in _commands(main, root, []):
        parent = contexts.get(tuple(path[:-1]), root)
        ctx = click.Context(command, info_name=path[-1], parent=parent, **_settings())
        contexts[tuple(path)] = ctx
        parts += [f"## `scriptforge {' '.join(path)}`", "", "```text", command.get_help(ctx), "```", ""]
    return "\n".join(parts)


if __name__ == "__main__":
    text = page()
    if "--check" in sys.argv[1:]:
        if not PAGE.exists() or PAGE.read_text(encoding="utf-8") != text:
            print(f"{PAGE.relative_to(ROOT)} is not what --help says: run python tools/command_help.py")
            sys.exit(1)
    else:
        PAGE.write_text(text, encoding="utf-8")
        print(f"wrote {PAGE.relative_to(ROOT)}")
