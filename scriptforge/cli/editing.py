"""Making and changing scripts: new, add, remove, meta, homebrew check, migrate, export."""

from pathlib import Path
import sys

import click

from scriptforge.io.fileio import atomic_write_text, dump_json, refuse_to_overwrite, write_output
from scriptforge.io.userfiles import read_json
from scriptforge.cli.common import (LANG, command_db, complete_name, data_options, default_lang, echo, echo_json,
                                    fail_cleanly, findings_options, findings_selection, format_option,
                                    print_json, script_analysis, skip_unknown_option)


def _print_change(change, select, ignore) -> None:
    echo("\n".join(change.lines(findings_selection(select, ignore, "script"))))


@click.command()
@click.argument("out", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("characters", nargs=-1, shell_complete=complete_name)
@click.option("--name", required=True, help="The script's name (_meta.name).")
@click.option("--author", help="The script's author (_meta.author).")
@click.option("--lang", type=LANG, help="Language of homebrew YAML files given as CHARACTERS.")
@click.option("--force", is_flag=True, help="Overwrite OUT if it exists.")
@findings_options
@data_options
@fail_cleanly
def new(out, characters, name, author, lang, force, select, ignore, data):
    """Create a script in the official format: _meta first, then plain character ids.

    CHARACTERS are ids, legacy spellings, English or Korean names or aliases, or homebrew YAML
    files (embedded as full character objects in the --lang language).

    \b
    Example:
        scriptforge new my.json --name "Pixie Dust" --author Me clockmaker 릴몬스타 "Fang Gu"
    """
    # deferred: start-up time
    from scriptforge.scripts.edit import new_script

    _print_change(new_script(out, command_db(data), name, author, characters, lang=lang, force=force), select, ignore)


@click.command()
@click.argument("script", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("characters", nargs=-1, required=True, shell_complete=complete_name)
@click.option("--lang", type=LANG, help="Language to embed homebrew YAML files in.")
@findings_options
@data_options
@fail_cleanly
def add(script, characters, lang, select, ignore, data):
    """Add characters to a script; print what changed (teams, new jinxes, setup warnings).

    A name that is unknown or ambiguous is refused with suggestions and nothing changes.
    A homebrew YAML file is embedded as a full character object (again: updated in place).

    \b
    Example:
        scriptforge add my.json 릴몬스타 "Fang Gu"
        scriptforge add my.json examples/homebrew/pilgrim.yaml --lang en
    """
    # deferred: start-up time
    from scriptforge.scripts.edit import add_characters

    _print_change(add_characters(script, command_db(data), characters, lang=lang), select, ignore)


@click.command()
@click.argument("script", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("characters", nargs=-1, required=True, shell_complete=complete_name)
@findings_options
@data_options
@fail_cleanly
def remove(script, characters, select, ignore, data):
    """Remove characters from a script: every copy of each (and from its _meta night lists).

    \b
    Example:
        scriptforge remove my.json lil_monsta 팡구
    """
    # deferred: start-up time
    from scriptforge.scripts.edit import remove_characters

    _print_change(remove_characters(script, command_db(data), characters), select, ignore)


@click.command()
@click.argument("script", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--name", help="Script name.")
@click.option("--author", help="Author; an empty value removes it (the same for --logo, --almanac).")
@click.option("--logo", help="Logo image URL.")
@click.option("--almanac", help="Almanac page URL.")
@click.option("--bootlegger", multiple=True, help="A homebrew rule shown on the sheet; repeat for several; "
                                                  "--bootlegger '' removes them all.")
@findings_options
@data_options
@fail_cleanly
def meta(script, name, author, logo, almanac, bootlegger, select, ignore, data):
    """Set the script's _meta: name, author, logo, almanac link, bootlegger rules.

    \b
    Example:
        scriptforge meta my.json --name "Pixie Dust" --author Me --bootlegger "The Pixie may be mad as a Demon."
    """
    # deferred: start-up time
    from scriptforge.scripts.edit import set_meta

    _print_change(set_meta(script, command_db(data), name=name, author=author, logo=logo, almanac=almanac,
                           bootlegger=list(bootlegger) if bootlegger else None), select, ignore)


@click.group("homebrew")
def homebrew_group():
    """Homebrew characters written once as YAML in both languages."""


@homebrew_group.command("check")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@format_option
@data_options
@fail_cleanly
def homebrew_check(files, fmt, data):
    """Check homebrew YAML files (folders: every *.yaml in them); exit 1 on any problem, 2 if unreadable.

    The same schemas as the database, night placement, bracket-vs-setup consistency and,
    for each language, the database's translation checks.

    \b
    Example:
        scriptforge homebrew check examples/homebrew/pilgrim.yaml
    """
    # deferred: start-up time
    from scriptforge.scripts.homebrew import check_files

    results = check_files(files, command_db(data))
    if fmt == "json":
        print_json({"ok": not any(r["problems"] for r in results), "files": results})
    else:
        for result in results:
            for problem in result["problems"]:
                echo(f"Error: {problem}", err=True)
            for warning in result["warnings"]:
                echo(f"Warning: {warning}", err=True)
            if not result["problems"]:
                echo(f"{result['file']}: ok ({result['id']}, {', '.join(result['languages'])})")
    sys.exit(2 if any(r["unreadable"] for r in results) else 1 if any(r["problems"] for r in results) else 0)


# -- l10n commands



@click.command("migrate")
@click.argument("script", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--write", is_flag=True, help="Write the migrated script over SCRIPT (after showing the diff).")
@click.option("-o", "--output", "out", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the migrated script to this file instead.")
@data_options
@fail_cleanly
def migrate(script, write, out, data):
    """Move a community script to the official ids, names and terms; show the diff first.

    Objects that are translations of official characters become plain ids (so the official app
    shows its own translation); objects whose rules differ stay overrides with the official name;
    community terms become the glossary's official ones. A community name that is another
    character's official name is refused with a line. Nothing is written without --write or -o.

    \b
    Example:
        scriptforge migrate ko-trouble_brewing.json
        scriptforge migrate ko-trouble_brewing.json --write
    """
    # deferred: start-up time
    from scriptforge.scripts.migrate import migrate_script

    result = migrate_script(read_json(script), command_db(data), script.stem)
    for line in result.collisions:
        echo(f"Warning: {script}: {line}", err=True)
    if not result.changed:
        echo(f"{script}: nothing to migrate")
        return
    echo(result.diff(str(script)))
    for line in result.lines:
        echo(f"{script}: {line}")
    echo(f"{script}: {result.to_ids} object(s) to ids, {result.overrides} override(s), {result.terms} term(s), "
         f"{len(result.collisions)} collision(s) refused")
    if out:
        if write_output(out, dump_json(result.after).encode("utf-8"), [script]):
            echo(str(out))
    elif write:
        atomic_write_text(script, dump_json(result.after))
        echo(str(script))


@click.command("export")
@click.argument("script")
@click.option("--lang", type=LANG, default=default_lang("sheet"), show_default=True)
@click.option("--for", "target", type=click.Choice(["app", "full"]), default="app", show_default=True,
              help="app: unchanged official characters as plain ids (the official app shows its own "
                   "translation); full: every character as an object in --lang, for tools without translations.")
@click.option("-o", "--output", "out", type=click.Path(dir_okay=False, path_type=Path),
              help="Output file ('-' or none: standard output).")
@data_options(homebrew=True)
@skip_unknown_option
@fail_cleanly
def export_command(script, lang, target, out, skip_unknown, data):
    """Write SCRIPT in the official format for the place it goes (--for app or full).

    --for app (default): unchanged official characters as plain ids, so the official app shows
    them in its own translation and treats the script as official; homebrew and changed
    characters as objects in --lang. --for full: every character as an object in --lang (names,
    abilities, flavor, night reminders, reminder labels, night positions, setup flags, jinxes from
    the database). `_meta` is kept. An object in the output is an `export-homebrew` finding: the
    app will treat the script as homebrew.

    \b
    Example:
        scriptforge export examples/faith-trust-and-pixie-dust.json -o faith-app.json
        scriptforge export examples/faith-trust-and-pixie-dust.json --for full --lang ko -o faith-ko.json
    """
    # deferred: start-up time
    from scriptforge.scripts.export import export_script

    if out:
        refuse_to_overwrite([out], [script])
    db = command_db(data)
    result = export_script(script_analysis(script, db, skip_unknown), lang, target)
    for warning in result.warnings:
        echo(f"Warning: {script}: {warning}", err=True)
    for found in result.findings:
        echo(f"Warning: {script}: [{found.code}] {found.message}", err=True)
    if out and str(out) != "-":
        write_output(out, dump_json(result.data).encode("utf-8"), [script])
        echo(str(out))
    else:
        echo_json(dump_json(result.data), nl=False)
