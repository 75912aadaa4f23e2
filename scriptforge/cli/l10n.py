"""Translator tools: l10n status, diff, check, terms, confirm, export, import."""

import functools
from pathlib import Path
import sys

import click

from scriptforge.io.errors import InputError
from scriptforge.model.rule_sets import ALL, GAMES, selection
from scriptforge.io.fileio import write_output
from scriptforge.io.userfiles import read_json
from scriptforge.db.loading import load_database
from scriptforge.cli.common import (LANG, command_db, complete_name, data_options, default_lang, echo,
                                    fail_cleanly, findings_options, findings_selection, format_option,
                                    print_json, rule_sets_for)


@click.group()
def l10n():
    """Translator tools: status, diff, checks and .po exchange for the Korean and English texts."""


def l10n_game_option(command):
    return click.option("--game", "game", type=click.Choice([*GAMES, ALL]),
                        default=ALL, show_default=True,
                        help="Which rule set's texts: BotC's database, one other game, or all.")(command)


@l10n.command("status")
@l10n_game_option
@format_option
@data_options
@fail_cleanly
def l10n_status(game, fmt, data):
    """Per language and field: texts translated, missing, stale, and their layer.

    Missing: the other language has the text, this one does not. Stale: the source text
    changed after the translation was made (see `l10n confirm`). Layers: the built-in data
    (scriptforge), each data pack by name, your translation layer (translations, written by
    `l10n import`); the top layer's text wins (JSON: `layers` per field). The other games' texts
    are counted per game (roles, steps, game texts) and their shared sheet words as games.ui.

    \b
    Example:
        scriptforge l10n status --game salem --format json
    """
    # deferred: start-up time
    from scriptforge.l10n.provenance import status
    from scriptforge.l10n.units import layer_order
    from scriptforge.text.l10n import status_text

    db, games = rule_sets_for(game, data)
    table = status(db, games)
    if fmt == "json":
        print_json(table)
    else:
        echo(status_text(table, layer_order(db)))


@l10n.command("diff")
@click.argument("ids", nargs=-1, shell_complete=complete_name)
@click.option("--from", "source", type=LANG, default=default_lang("text"), show_default=True, help="Source language.")
@click.option("--to", "target", type=LANG, default=default_lang("sheet"), show_default=True, help="Translation language.")
@click.option("--against", "against_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Compare our --to texts with a translation file in the official layout instead.")
@l10n_game_option
@format_option
@data_options
@fail_cleanly
def l10n_diff(ids, source, target, against_file, game, fmt, data):
    """Show source and translation side by side per character and field; missing and stale marked.

    Where a data pack or your translation layer is loaded, each text names the layer it comes
    from (`ko (official): …`; JSON: `layers` per row, the built-in data being scriptforge).

    With --against FILE (official layout: {"roles": {id: {"name", "ability", "flavor", "first",
    "other"}}, "reminders": {...}, "jinxes": {...}}, night steps as roles dusk, minioninfo, ...),
    list every difference between FILE and our --to texts in every field FILE has, grouped by
    kind: missing in ours, wording, term only (glossary variants), spacing and punctuation only
    (BotC only). IDS are looked up in BotC first, then in the other games selected by --game.

    \b
    Example:
        scriptforge l10n diff --from en --to ko imp widow
        scriptforge l10n diff --to ko --against ko.json --format json
    """
    # deferred: start-up time
    from scriptforge.l10n import diff
    from scriptforge.text import l10n as l10n_text

    if against_file:
        if not selection(game)[0]:
            raise InputError("--against compares Blood on the Clocktower texts; it takes no --game " + game)
        db = command_db(data)
        rows = diff.against(db, against_file, target)
        print_json(rows) if fmt == "json" else echo(l10n_text.against_text(rows, against_file, target))
        return
    db, games = rule_sets_for(game, data)
    rows = diff.diff_rows(db, source, target, ids, games)
    print_json(rows) if fmt == "json" else echo(l10n_text.diff_text(rows, source, target))


@l10n.command("check")
@click.option("--lang", type=LANG, help="Check one language only (default: both).")
@click.option("--include-official", is_flag=True,
              help="Also list findings on the official texts a data pack gives, as info in their own group "
                   "(to report upstream; they are never errors of ours).")
@findings_options
@l10n_game_option
@format_option
@data_options
@fail_cleanly
def l10n_check(lang, include_official, game, fmt, select, ignore, data):
    """Check the translations: missing, untranslated, stale, markers, glossary, names, punctuation.

    Exit code 0: no errors; 1: errors found. Every code is described in docs/l10n-checks.md.
    Your own translations (l10n import) are checked as yours, also where a pack gives the text;
    JSON names the layer of a text that is not the built-in data's (`data.layer`).
    By default BotC and the other games (Salem, Werewolf, Mafia) are checked; --game picks one.

    \b
    Example:
        scriptforge l10n check --lang ko --ignore missing --format json
        scriptforge l10n check --game salem
    """
    # deferred: start-up time
    from scriptforge.l10n.checks import run_checks
    from scriptforge.text.findings import findings_text

    chosen = findings_selection(select, ignore, "l10n")
    db, games = rule_sets_for(game, data)
    findings = run_checks(db, (lang,) if lang else None, ignore=chosen.ignore, select=chosen.select,
                          games=games, include_official=include_official)
    if fmt == "json":
        print_json({"ok": not any(f.severity == "error" for f in findings),
                     "findings": [f.as_dict() for f in findings]})
    else:
        echo(findings_text(findings))
    sys.exit(1 if any(f.severity == "error" for f in findings) else 0)


@l10n.command("terms")
@click.option("--official", "folder", type=click.Path(file_okay=False, exists=True, path_type=Path), required=True,
              help="A folder of official translation files: game/<lang>.json, script/<lang>.json, app/<lang>.json.")
@click.option("--lang", type=LANG, default=default_lang("sheet"), show_default=True)
@format_option
@data_options
@fail_cleanly
def l10n_terms(folder, lang, fmt, data):
    """How the official files use the glossary's terms, per kind of text (ability, night, jinxes,
    reminders, name, flavor, ui); where the glossary disagrees with them; typos to report upstream.

    Exit code 1 when the glossary calls a spelling wrong where the official texts use it.

    \b
    Example:
        scriptforge l10n terms --official ~/botc-translations --lang ko
    """
    # deferred: start-up time
    from scriptforge.l10n.usage import official_texts, term_usage
    from scriptforge.text.l10n import usage_records, usage_text

    game = folder / "game" / f"{lang}.json"
    if not game.is_file():
        raise InputError(f"no official game file for '{lang}' (game/{lang}.json)", where=str(folder))
    interface = [read_json(folder / part / f"{lang}.json") for part in ("script", "app")
                 if (folder / part / f"{lang}.json").is_file()]
    rows = term_usage(command_db(data).glossary.get(lang, []), official_texts(read_json(game), interface))
    if fmt == "json":
        print_json(usage_records(rows))
    else:
        echo(usage_text(rows))
    sys.exit(1 if any(r.conflicts for r in rows) else 0)


@l10n.command("confirm")
@click.argument("id_", metavar="ID", required=False)
@click.argument("field", required=False)
@click.option("--lang", type=LANG, help="The translation's language (default: the one recording a source, else ko).")
@click.option("--all", "all_", is_flag=True, help="Stamp every translation (see below).")
@data_options
@fail_cleanly
def l10n_confirm(id_, field, lang, all_, data):
    """Record that a translation matches its current source text (clears "stale").

    ID is a character (name or id) with FIELD (ability, flavor, how_to_run, first_night_reminder, ...),
    or "step", "reminder", "jinx", "ui" with the rest of the key (dusk.name, safe, widow-damsel,
    teams.minion.name). --all re-stamps every translation that records a source and stamps every
    text present in both languages that records none: into --lang if given, else into English
    from Korean, then into Korean from English where the English text is not itself a translation.
    The records go into your translation layer (as `l10n import` does), never into the installed
    package; with $SCRIPTFORGE_DATA set, into that data folder instead.

    \b
    Example:
        scriptforge l10n confirm imp ability --lang ko
        scriptforge l10n confirm --all
    """
    # deferred: start-up time
    from scriptforge.l10n.provenance import confirm_command, editing_data
    from scriptforge.db.translations import ensure_user_layer

    target = Path(data.data_dir) if data.data_dir else ensure_user_layer()
    with editing_data(functools.partial(command_db, data), target) as db:
        written, count = confirm_command(db, id_, field, lang, all_, target)
    for path in written:
        echo(f"{path}")
    echo(f"{count} text(s) confirmed; {len(written)} file(s) written")


@l10n.command("export")
@click.option("--lang", type=LANG, required=True, help="The translation language (msgstr); the other is msgid.")
@click.option("-o", "--output", "out", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The file to write ('-': standard output).")
@click.option("--format", "fmt", type=click.Choice(["po", "official"]), default="po", show_default=True,
              help="po: every text as a gettext .po file; official: only your corrections (l10n import), "
                   "in the official game/<code>.json layout.")
@data_options
@fail_cleanly
def l10n_export(lang, out, fmt, data):
    """Write a gettext .po file for Weblate, Poedit or pofilter.

    msgctxt is the text's key (imp.ability, imp.how_to_run.2, imp.first_night_reminder,
    step.dusk.name, reminder.safe, jinx.widow-damsel, ui.teams.minion.name), msgid the source
    text, msgstr the translation; stale translations are marked fuzzy.

    With --format official: the texts of your translation layer that differ from what the
    built-in data and the packs give, in the layout of the official translation files
    (roles.<id>.name|ability|flavor|first|other, the night steps as roles, reminders.<token>,
    jinxes.<a>-<b>), to hand to the official translators; texts that layout has no place for
    (overview, how to run, examples, interface words) are counted, not written.

    \b
    Example:
        scriptforge l10n export --lang en -o en.po
        scriptforge l10n export --lang ko --format official -o ko.json
    """
    if fmt == "official":
        # deferred: start-up time
        from scriptforge.db.translations import user_layer
        from scriptforge.l10n.upstream import corrections
        from scriptforge.text.l10n import corrections_text

        mine = user_layer()
        below = load_database(Path(data.data_dir) if data.data_dir else None,
                              [p for p in data.chosen_packs() if p != mine])
        found = corrections(command_db(data), below, lang)
        if write_output(out, found.as_bytes()):
            echo(corrections_text(found, out))
        return
    # deferred: start-up time
    from scriptforge.l10n.po import export_po

    if write_output(out, export_po(command_db(data), lang)):
        echo(f"{out}")


@l10n.command("import")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--lang", type=LANG, help="The file's language (default: its Language header).")
@data_options
@fail_cleanly
def l10n_import(file, lang, data):
    """Read a .po file back into your translations (all or nothing; fuzzy and empty entries skipped).

    The texts go into your translation layer in the user data folder, loaded above the built-in
    data and every pack (so an edit wins over the official pack and survives upgrades); with
    $SCRIPTFORGE_DATA set, into that data folder instead. A malformed file or an entry naming an
    unknown character, field, token or jinx changes nothing and exits 2 with the file and line.
    Each imported text records its msgid (and its hash) as its source.

    \b
    Example:
        scriptforge l10n import ko.po
    """
    # deferred: start-up time
    from scriptforge.l10n.po import import_po
    from scriptforge.l10n.provenance import editing_data
    from scriptforge.db.translations import ensure_user_layer

    target = Path(data.data_dir) if data.data_dir else ensure_user_layer()
    with editing_data(functools.partial(command_db, data), target) as db:
        lang, changes, written = import_po(db, file, lang, target)
    for path in written:
        echo(f"{path}")
    echo(f"{len(changes)} text(s) imported into {lang}; {len(written)} file(s) written")
