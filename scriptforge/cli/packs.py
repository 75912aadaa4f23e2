"""Bringing data in: pack import, update, list, diff, and import almanac."""

from pathlib import Path
import sys

import click

from scriptforge.db.loading import load_database
from scriptforge.db.pack_store import list_packs, packs_dir
from scriptforge.cli.common import (LANG, command_db, data_options, echo, fail_cleanly, format_option,
                                    print_json)


@click.group("import")
def import_group():
    """Bring documents into the database layout."""


@import_group.command("almanac")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--lang", type=LANG, required=True, help="Language of the document.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Language folder to write into (characters/<id>.yaml). Default: ./imported/<lang>.")
@click.option("--script", "script_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write the almanac's characters as a script in the official JSON format.")
@click.option("--name", help="Script name for --script when the almanac has no title.")
@data_options
@fail_cleanly
def import_almanac(file, lang, out_dir, script_path, name, data):
    """Read an almanac text document and write its characters' texts.

    Existing files in the output folder keep the fields the almanac does not give.
    Variant spellings are replaced with the glossary's established terms.

    \b
    Example:
        scriptforge import almanac almanac-ko.txt --lang ko --out data/ko --script my-script.json
    """
    # deferred: start-up time
    from scriptforge.packs.almanac import read_almanac, script_from_almanac, write_almanac

    db = command_db(data)
    almanac = read_almanac(file, lang, db.glossary.get(lang, []))
    script = (script_path, script_from_almanac(almanac, db, name)) if script_path else None
    written = write_almanac(almanac, out_dir or Path("imported") / lang, script)
    echo(f"{len(written)} characters written to {(out_dir or Path('imported') / lang) / 'characters'}")
    if script_path:
        echo(f"script written to {script_path}")


# -- script engine commands



@click.group()
def pack():
    """Data packs: official data files in scriptforge's own layout, loaded on top of the built-in data."""


@pack.command("import")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--name", help="Pack name (default: the --out folder's name, else 'official').")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Pack folder to write (default: <user data dir>/scriptforge/packs/<name>).")
@click.option("--lang", type=LANG, help="Language of a translation file among FILES.")
@data_options
@fail_cleanly
def pack_import(files, name, out_dir, lang, data):
    """Turn official data files (roles, night sheet, jinxes, translation) into a data pack.

    Each file is recognised by its content. A malformed or unrecognised file is refused with its
    place and nothing is written; an existing pack of that name is replaced in one step.

    \b
    Example:
        scriptforge pack import roles.json nightsheet.json jinxes.json --name official
    """
    # deferred: start-up time
    from scriptforge.packs.install import import_pack
    from scriptforge.text.packs import pack_line

    path, build = import_pack(files, name=name, out=out_dir, lang=lang, data_dir=data.data_dir, packs=data.chosen_packs())
    for warning in build.warnings:
        echo(f"Warning: {warning}", err=True)
    echo(pack_line(build.manifest, path))


@pack.command("update")
@click.option("--from", "from_dir", type=click.Path(file_okay=False, exists=True, path_type=Path),
              help="Read the files from this folder instead of downloading them: roles.json, "
                   "nightsheet.json, jinxes.json and game/<lang>.json.")
@click.option("--lang", "langs", type=LANG, multiple=True,
              help="Translation to add to those installed (repeatable; the official file codes such as zh_Hans or "
                   "pt_BR are accepted; with none installed or asked for: ko; en needs none).")
@click.option("--only", is_flag=True, help="Install only the --lang languages, dropping the other installed ones.")
@click.option("--url", help="Base URL of roles.json, nightsheet.json and jinxes.json.  [default: "
                            "https://release.botc.app/resources/data/]")
@click.option("--translations-url", help="Base URL of game/<lang>.json.  [default: the main branch of "
                                         "github.com/ThePandemoniumInstitute/botc-translations]")
@click.option("--timeout", type=click.FloatRange(min=0.1), default=20.0, show_default=True,
              help="Seconds to wait for each download.")
@click.option("--icons", is_flag=True, help="Also get the official character icons (with --from: DIR/icons/"
                                            "<edition>/<id>_g.webp, _e.webp or <id>.webp). Off by default.")
@click.option("--icons-url", help="Base URL of the character icons.  [default: "
                                  "https://release.botc.app/resources/characters/]")
@click.option("--stale", type=click.Choice(["keep", "english"]), default="keep", show_default=True,
              help="An official translation whose English changed since it was made: keep it (printed, "
                   "marked as an old translation) or leave it out (the English prints, marked).")
@fail_cleanly
def pack_update(from_dir, langs, only, url, translations_url, timeout, stale, icons, icons_url):
    """Fetch the official data and install it as the pack 'official', loaded by every command
    from then on (--no-packs or SCRIPTFORGE_PACKS= turns it off).

    Downloads TPI's roles.json, nightsheet.json and jinxes.json and the translation
    game/<lang>.json. Every file is checked before anything is written; on any failure the
    installed pack stays as it was (exit 2). A second run prints what changed. With --icons,
    the character icons too: only those changed or missing are fetched, and an icon that fails
    is one warning (the sheet shows the monogram), never a failed pack.

    \b
    Example:
        scriptforge pack update
        scriptforge pack update --from ~/botc-data --lang ko
        scriptforge pack update --lang de --lang zh_Hans
        scriptforge pack update --only --lang ko
        scriptforge pack update --icons
    """
    # deferred: start-up time
    from scriptforge.packs.icons import ICONS_URL
    from scriptforge.packs.install import OFFICIAL_URL, TRANSLATIONS_URL, update_pack
    from scriptforge.text.packs import icon_failure_lines, update_lines

    result = update_pack(langs=langs, only=only, from_dir=from_dir, url=url or OFFICIAL_URL,
                         translations_url=translations_url or TRANSLATIONS_URL, timeout=timeout,
                         progress=lambda line: echo(line, err=True), stale=stale, icons=icons,
                         icons_url=icons_url or ICONS_URL,
                         icon_bar=lambda total: click.progressbar(length=total, label="Icons", file=sys.stderr))
    for warning in (*result.skipped, *result.build.warnings):
        echo(f"Warning: {warning}", err=True)
    if result.icons is not None:
        for line in icon_failure_lines(result.icons.failed):
            echo(f"Warning: {line}", err=True)
    for line in update_lines(result):
        echo(line)


@pack.command("list")
@format_option
@fail_cleanly
def pack_list(fmt):
    """List the installed packs (in the user's data directory) and those $SCRIPTFORGE_PACKS selects.

    \b
    Example:
        scriptforge pack list --format json
    """
    # deferred: start-up time
    from scriptforge.text.packs import pack_list_text, pack_rows

    packs = list_packs()
    if fmt == "json":
        print_json(pack_rows(packs))
    else:
        echo(pack_list_text(packs, packs_dir()))


@pack.command("diff")
@click.argument("old", type=click.Path(exists=True, path_type=Path))
@click.argument("new", type=click.Path(exists=True, path_type=Path))
@click.option("--lang", type=LANG, help="Language of translation files in OLD/NEW folders.")
@format_option
@fail_cleanly
def pack_diff(old, new, lang, fmt):
    """What changed between two versions of the official data (packs, folders of official files,
    or single files): characters, abilities, reminders, night order, jinxes, stale translations.

    \b
    Example:
        scriptforge pack diff ~/old-official/ ~/new-official/
    """
    # deferred: start-up time
    from scriptforge.packs.diff import diff_packs, pack_files
    from scriptforge.text.packs import diff_text

    report = diff_packs(pack_files(old, lang), pack_files(new, lang), load_database())
    if fmt == "json":
        print_json(report.as_json())
    else:
        echo(diff_text(report))
