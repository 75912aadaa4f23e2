"""Checking scripts: validate, setup, jinxes, night, order."""

import random
import sys

import click

from scriptforge.cli.common import (LANG, command_db, data_options, default_lang, echo, echo_json, fail_cleanly,
                                    findings_options, findings_selection, format_option, print_json,
                                    script_analysis, skip_unknown_option)


@click.command()
@click.argument("scripts", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json", "jsonl"]), default="text", show_default=True,
              help="text for people, json for tools (one document), jsonl (one line per file, as it is checked).")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Files checked at a time, by forked worker processes that share the loaded database "
                   "(results still in input order).")
@findings_options
@data_options(homebrew=True)
@fail_cleanly
def validate(scripts, fmt, jobs, select, ignore, data):
    """Check scripts (official JSON; "-" reads stdin; a folder: its *.json files): schema, setup
    counts, jinxes, names.

    Exit code 0: no errors; 1: errors found; 2: a file could not be read as a script.
    Results are printed as each file is checked. Every finding code is described in docs/findings.md.

    \b
    Example:
        scriptforge validate examples/fang-gu-zealot.json --format json
        scriptforge validate scripts/ --format jsonl --jobs 2
    """
    # deferred: start-up time
    from scriptforge.text.findings import findings_text
    from scriptforge.text.scripts import Tally, findings_document, report_line
    from scriptforge.scripts.analysis import validate_files

    chosen = findings_selection(select, ignore, "script")
    db = command_db(data)
    tally = Tally()
    reports = (_said(tally.count(report)) for report in validate_files(scripts, db, chosen, jobs))
    if fmt == "json":
        for piece in findings_document(reports, tally):
            echo_json(piece, nl=False)
    else:
        for report in reports:
            if fmt == "jsonl":
                echo_json(report_line(report))
            elif not report.unreadable:
                echo(findings_text(report.findings, report.source))
    sys.exit(tally.exit_code)


def _said(report):
    """An unreadable file's one-line error on stderr, in every format, as it is met."""
    if report.unreadable:
        echo(f"Error: {report.findings[0].message}", err=True)
    return report


@click.command()
@click.argument("script")
@click.option("--players", type=click.IntRange(5, 15), help="One player count (5-15), with its bags; default: all.")
@click.option("--travellers", type=click.IntRange(0, 20), default=0,
              help="Travellers at the table as well (printed; they are not in the bag).")
@click.option("--lang", type=LANG, default=default_lang("text"), show_default=True)
@click.option("--bags", "list_bags", is_flag=True,
              help="With --format json: list every count's bags (one count with --players lists them anyway).")
@click.option("--draw", is_flag=True, help="With --players: propose one legal bag at random, and the `kit` "
                                           "command that prints its game.")
@click.option("--seed", type=int, help="With --draw: the same seed draws the same bag. Default: a new one, printed.")
@click.option("--bag", "hand", multiple=True, metavar="IDS",
              help="With --players: check a bag chosen by hand (ids or names, comma-separated or repeated).")
@format_option
@data_options(homebrew=True)
@skip_unknown_option
@fail_cleanly
def setup(script, players, travellers, lang, list_bags, draw, seed, hand, fmt, skip_unknown, data):
    """Show the character counts per player count, from every legal bag of the script's setup characters.

    \b
    Example:
        scriptforge setup examples/fang-gu-zealot.json --players 9 --format json
        scriptforge setup examples/fang-gu-zealot.json --format json --bags
        scriptforge setup examples/fang-gu-zealot.json --players 7 --travellers 2 --lang ko
        scriptforge setup examples/fang-gu-zealot.json --players 11 --draw --seed 4
    """
    # deferred: start-up time
    from scriptforge.text.scripts import setup_document, setup_text

    db = command_db(data)
    analysis = script_analysis(script, db, skip_unknown)
    rows = [row for row in analysis.setup if players in (None, row.players)]
    if draw or hand:
        return _bag(script, analysis, rows, players, seed, hand, lang, fmt)
    if fmt == "json":
        tables = setup_document(analysis, rows, travellers, bags=list_bags or players is not None)
        print_json(tables[0] if players else tables)
    else:
        echo(setup_text(rows, analysis.script.characters, db, lang, travellers))


@click.command()
@click.argument("script")
@click.option("--lang", type=LANG, default=default_lang("text"), show_default=True)
@format_option
@data_options(homebrew=True)
@skip_unknown_option
@fail_cleanly
def jinxes(script, lang, fmt, skip_unknown, data):
    """List the jinxed pairs on a script and whether the Djinn is needed.

    \b
    Example:
        scriptforge jinxes examples/faith-trust-and-pixie-dust.json --lang ko
    """
    # deferred: start-up time
    from scriptforge.text.scripts import jinxes_text

    analysis = script_analysis(script, command_db(data), skip_unknown)
    if fmt == "json":
        print_json(analysis.jinxes.as_dict(lang))
    else:
        echo(jinxes_text(analysis, lang))


@click.command()
@click.argument("script")
@click.option("--players", type=click.IntRange(5, 20), help="Player count; below 7, no Minion and Demon info.")
@click.option("--lang", type=LANG, default=default_lang("text"), show_default=True)
@format_option
@data_options(homebrew=True)
@skip_unknown_option
@fail_cleanly
def night(script, players, lang, fmt, skip_unknown, data):
    """Show the first-night and other-nights order with the storyteller's reminders.

    _meta.firstNight/otherNight in the script replace the official order; homebrew characters
    are placed by their firstNight/otherNight numbers (positions on the official night sheet).

    \b
    Example:
        scriptforge night examples/faith-trust-and-pixie-dust.json --players 6 --lang ko
    """
    # deferred: start-up time
    from scriptforge.text.scripts import night_text

    analysis = script_analysis(script, command_db(data), skip_unknown, players=players)
    if fmt == "json":
        print_json(analysis.night.as_dict(lang))
    else:
        echo(night_text(analysis.night, analysis.db, lang))


@click.command()
@click.argument("script")
@click.option("--keep-order", is_flag=True, help="Keep the author's order instead of the sheet order.")
@click.option("--lang", type=LANG, default=default_lang("text"), show_default=True)
@format_option
@data_options(homebrew=True)
@skip_unknown_option
@fail_cleanly
def order(script, keep_order, lang, fmt, skip_unknown, data):
    """Print the script's characters in sheet order (by team, official order, homebrew by rule).

    \b
    Example:
        scriptforge order examples/fang-gu-zealot.json --lang ko
    """
    # deferred: start-up time
    from scriptforge.text.scripts import order_text

    db = command_db(data)
    chars = script_analysis(script, db, skip_unknown, keep_order=keep_order).characters
    if fmt == "json":
        print_json([{"id": c.id, "team": c.team, "name": c.name(lang), "homebrew": c.homebrew} for c in chars])
    else:
        echo(order_text(chars, db, lang))


def _bag(script, analysis, rows, players, seed, hand, lang, fmt):
    """`setup --draw` and `setup --bag`: one bag, drawn or checked."""
    # deferred: start-up time
    from scriptforge.rules.bags import bag_problem, draw_bag
    from scriptforge.scripts.selection import named_characters
    from scriptforge.text.scripts import bag_lines

    if players is None or not rows:
        raise click.UsageError("--draw and --bag are for one game: give --players N (5-15)")
    if hand:
        ids = [ch.id for ch in named_characters(analysis.characters, hand, analysis.db, option="--bag", teams=False)]
        problem = bag_problem(rows[0], analysis.characters, ids)
    else:
        seed = random.SystemRandom().randrange(10_000) if seed is None else seed
        ids, problem = draw_bag(rows[0], analysis.characters, random.Random(seed)), None
        if ids is None:
            raise click.ClickException(f"{script}: no legal bag for {players} players can be filled from this script")
    if fmt == "json":
        print_json({"players": players, "bag": ids, "seed": None if hand else seed, "legal": problem is None,
                    **({"problem": problem} if problem else {})})
    else:
        echo("\n".join(bag_lines(ids, analysis.characters, analysis.db, lang, str(script), players, None if hand else seed, problem)))
    sys.exit(1 if problem else 0)
