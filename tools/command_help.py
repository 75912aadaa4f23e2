"""docs/commands.md (every command's --help) and the README's command table (each command's usage
and summary), generated (sqlite-utils' way), so they cannot drift.

    python tools/command_help.py            # rewrite docs/commands.md and the README's table
    python tools/command_help.py --check    # exit 1 if either is not what --help says

tests/test_docs.py runs the check, so CI fails when an option changes and the page does not.
"""

from pathlib import Path
import sys

import click

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "commands.md"
README = ROOT / "README.md"
BEGIN = "<!-- command table: generated from --help by tools/command_help.py; do not edit -->"
END = "<!-- end of the command table -->"
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


def table() -> str:
    """The README's block: one row per command, its usage line and its one-line summary."""
    from scriptforge.cli import main

    root = click.Context(main, info_name="scriptforge", **_settings())
    rows = [BEGIN, "", "| command | what it does |", "|---|---|"]
    for path, command in _commands(main, root, []):
        if isinstance(command, click.Group):
            continue
        ctx = click.Context(command, info_name=" ".join(["scriptforge", *path]), **_settings())
        usage = " ".join(command.collect_usage_pieces(ctx))
        summary = command.get_short_help_str(limit=200).replace("|", "\\|")
        rows.append(f"| `scriptforge {' '.join(path)} {usage}` | {summary} |")
    return "\n".join([*rows, "", END])


def readme_with_table(readme: str) -> str:
    start, end = readme.index(BEGIN), readme.index(END) + len(END)
    return readme[:start] + table() + readme[end:]


if __name__ == "__main__":
    text = page()
    readme = README.read_text(encoding="utf-8")
    if "--check" in sys.argv[1:]:
        stale = [path.relative_to(ROOT) for path, new, old in
                 [(PAGE, text, PAGE.read_text(encoding="utf-8") if PAGE.exists() else ""),
                  (README, readme_with_table(readme), readme)] if new != old]
        if stale:
            print(f"{', '.join(map(str, stale))}: not what --help says: run python tools/command_help.py")
            sys.exit(1)
    else:
        PAGE.write_text(text, encoding="utf-8")
        README.write_text(readme_with_table(readme), encoding="utf-8")
        print(f"wrote {PAGE.relative_to(ROOT)} and the command table in {README.relative_to(ROOT)}")
