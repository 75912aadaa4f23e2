"""Looking characters up: list, show, search, db check, explain."""

import sys

import click

from scriptforge.model.rule_sets import rule_set
from scriptforge.model.records import TEAMS
from scriptforge.db.loading import check_database, check_database_cache
from scriptforge.cli.common import (LANG, LANGS, command_db, complete_name, data_options,
                                    default_lang, echo, fail_cleanly, format_option, game_option, print_json)


@click.command("list")
@click.option("--team", type=click.Choice(TEAMS))
@click.option("--edition", help="Edition id, e.g. tb, bmr, snv, carousel, fabled, homebrew.")
@click.option("--lang", type=LANG, default=default_lang("text"), show_default=True)
@game_option
@format_option
@data_options
@fail_cleanly
def list_command(team, edition, lang, game, fmt, data):
    """List characters by team, in sheet order (--game: every role and card of another game).

    \b
    Example:
        scriptforge list --team demon --lang ko
        scriptforge list --game salem --lang ko
    """
    if not rule_set(game).from_scripts:
        # deferred: start-up time
        from scriptforge.text.games import list_output

        return echo(list_output(game, lang, fmt, team=team, edition=edition))
    # deferred: start-up time
    from scriptforge.text import reference

    db = command_db(data)
    rows = reference.list_rows(db, lang, team, edition)
    if fmt == "json":
        print_json(rows)
    else:
        echo(reference.list_text(db, rows, lang))


@click.command()
@click.argument("name", shell_complete=complete_name)
@click.option("--lang", type=LANGS, default=default_lang("both"), show_default=True,
              help="One language, or two joined by '+' (ko+en) to show both.")
@game_option
@format_option
@data_options
@fail_cleanly
def show(name, lang, game, fmt, data):
    """Show one character: facts, texts, night reminders and jinxes (--game: a role, card or step).

    NAME may be an id, a legacy spelling or an English or Korean name or alias.

    \b
    Example:
        scriptforge show "릴 몬스타" --lang ko --format json
        scriptforge show 자백 --game salem
    """
    if not rule_set(game).from_scripts:
        # deferred: start-up time
        from scriptforge.text.games import show_output

        return echo(show_output(game, name, lang, fmt))
    # deferred: start-up time
    from scriptforge.text import reference

    db = command_db(data)
    ch = db.resolve(name)
    langs = reference.languages(lang)
    if fmt == "json":
        print_json(reference.character_record(db, ch, langs))
    else:
        echo(reference.character_text(db, ch, langs))


@click.command()
@click.argument("text")
@click.option("--lang", type=LANGS, default=default_lang("both"), show_default=True,
              help="One language, or two joined by '+' (ko+en) to show both.")
@format_option
@data_options
@fail_cleanly
def search(text, lang, fmt, data):
    """Find characters whose name, alias or ability contains TEXT.

    \b
    Example:
        scriptforge search 중독
    """
    # deferred: start-up time
    from scriptforge.text import reference

    db = command_db(data)
    rows = reference.search_rows(db, text, reference.languages(lang))
    if fmt == "json":
        print_json(rows)
        return
    for row in rows:
        echo(f"{row['id']:<16} {row['team']:<10} {' / '.join(row['names'].values())}")
    if not rows:
        echo(f"No character matches '{text}'.", err=True)
        sys.exit(1)


@click.group()
def db():
    """Check the character database."""


@db.command("check")
@game_option
@format_option
@data_options
@fail_cleanly
def db_check(game, fmt, data):
    """Validate every data file; print counts per team and language; exit 1 on any problem.

    With --game, the files of that game (data/games/GAME and the games' shared words) instead.

    \b
    Example:
        scriptforge db check --format json
        scriptforge db check --game salem
    """
    if rule_set(game).from_scripts:
        # deferred: start-up time
        from scriptforge.text.reference import check_summary, check_text

        loaded, problems = check_database(data.data_dir, data.chosen_packs())
        summary = {**check_summary(loaded, problems),
                   "cache": check_database_cache(loaded, data.data_dir, data.chosen_packs())}
    else:
        # deferred: start-up time
        from scriptforge.db.games import check_game
        from scriptforge.text.games import check_summary, check_text

        summary = check_summary(*check_game(game))
    if fmt == "json":
        print_json(summary)
    else:
        for problem in summary["problems"]:
            echo(f"Error: {problem}", err=True)
        echo(check_text(summary))
    sys.exit(0 if summary["ok"] else 1)




@click.command()
@click.argument("code", required=False)
@click.option("--list", "list_all", is_flag=True, help="List every code with its severity and summary.")
@fail_cleanly
def explain(code, list_all):
    """Explain a finding code: its severity, what it means and what to do about it.

    \b
    Example:
        scriptforge explain jinx-without-djinn
        scriptforge explain --list
    """
    # deferred: start-up time
    from scriptforge.text.findings import codes_text, explanation

    if list_all or not code:
        return echo(codes_text())
    echo(explanation(code))
