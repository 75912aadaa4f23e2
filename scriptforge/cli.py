"""The command line: parse options, call the library, print. No logic lives here."""

import functools
import json
from pathlib import Path
import sys
import os

import click

from scriptforge import __version__
from scriptforge.errors import InputError, ScriptforgeError
from scriptforge.rule_sets import ALL, GAMES, OTHER_GAMES, SCRIPTED_GAME, rule_set, selection
from scriptforge.model import TEAMS
from scriptforge.database import check_database, check_database_cache, load_database
from scriptforge.fileio import atomic_write_text, dump_json, new_command, refuse_to_overwrite, write_output
from scriptforge.languages import codes, default, resolve
from scriptforge.packs.store import active_packs, list_packs, packs_dir
from scriptforge.userfiles import read_json

class LanguageChoice(click.ParamType):
    """A language code of the registry (data/languages.json); with `pairs`, also two joined by
    `+` (ko+en: the first language's texts with the second's beside them)."""

    name = "lang"

    def __init__(self, pairs: bool = False):
        self.pairs = pairs

    def get_metavar(self, param, ctx=None):
        return "[" + "|".join([*codes(), *([default("pair")] if self.pairs else [])]) + "]"

    def convert(self, value, param, ctx):
        code = resolve(value)
        if code and (self.pairs or "+" not in code):
            return code
        pair = f", or two joined by '+' ({default('pair')})" if self.pairs else ""
        self.fail(f"'{value}' is not one of {', '.join(codes())}{pair}", param, ctx)

    def shell_complete(self, ctx, param, incomplete):
        # deferred: start-up time
        from click.shell_completion import CompletionItem

        return [CompletionItem(c) for c in [*codes(), *([default("pair")] if self.pairs else [])]
                if c.startswith(incomplete)]


LANG = LanguageChoice()
LANGS = LanguageChoice(pairs=True)


def _default(kind: str) -> str:
    return default(kind)


def _fail_cleanly(command):
    """Turn a user mistake into one line on stderr and its exit code; --debug shows the traceback."""

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except ScriptforgeError as exc:
            if click.get_current_context().find_root().params.get("debug"):
                raise
            for line in str(exc).split("\n"):  # not splitlines(): it also splits at \x1c-\x1e, \x85, \u2028
                echo(f"Error: {line}", err=True)
            sys.exit(exc.exit_code)
        except OSError as exc:  # a file the library did not expect to fail (the writers name theirs)
            if click.get_current_context().find_root().params.get("debug"):
                raise
            where = f"{exc.filename}: " if isinstance(exc.filename, str) else ""
            echo(f"Error: {where}{exc.strerror or exc}", err=True)
            sys.exit(2)

    return wrapper


def format_option(command):
    return click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
                        show_default=True, help="text for people, json for tools.")(command)


def echo(message: object = "", *, err: bool = False, nl: bool = True) -> None:
    """click.echo for text output: control characters in user text are shown escaped, never obeyed."""
    # deferred: start-up time
    from scriptforge.terminal import safe_text

    _write(safe_text(str(message)), err=err, nl=nl)


def _write(text: str, *, err: bool = False, nl: bool = True) -> None:
    """click.echo that never fails on the terminal's encoding: what it cannot write is replaced,
    with one hint on stderr."""
    # deferred: start-up time
    from scriptforge.terminal import encodable

    stream = sys.stderr if err else sys.stdout
    text, hint = encodable(text, getattr(stream, "encoding", None))
    click.echo(text, err=err, nl=nl)
    if hint:
        click.echo(hint, err=True)


def _shown(text: str) -> str:
    # deferred: start-up time
    from scriptforge.terminal import safe_text

    return safe_text(text)


def _print_json(data) -> None:
    _echo_json(json.dumps(data, ensure_ascii=False, indent=2, allow_nan=False))


def _echo_json(text: str, nl: bool = True) -> None:
    """JSON text to stdout with control characters as \\u escapes (the same JSON, safe on a terminal)."""
    # deferred: start-up time
    from scriptforge.terminal import safe_json

    _write(safe_json(text), nl=nl)


def _db():
    db = _base_db()
    homebrew = _homebrew_dir()
    if homebrew:
        # deferred: start-up time
        from scriptforge.homebrew import with_homebrew

        db = with_homebrew(db, homebrew)
    return db


def _base_db():
    """The database without the --homebrew folder."""
    return load_database(_data_dir(), _packs())


def _homebrew_dir():
    return click.get_current_context().meta.get("scriptforge.homebrew")  # set by homebrew_option


def _rule_sets(choice: str):
    """(BotC's database or None, {game id: GameDatabase}) for a --game choice: a rule set, or
    every one (l10n's "all")."""
    # deferred: start-up time
    from scriptforge.games import load_games

    with_scripts, others = selection(choice)
    return (_db() if with_scripts else None), load_games(others)


def _complete_name(ctx, param, incomplete):
    """Shell completion of a character, role or step argument: ids and names in every language of
    the rule sets the command's --game chose (BotC's database by default; the cached databases, so
    it is quick); where none matches, the shell completes a file name instead (a homebrew YAML file)."""
    # deferred: start-up time
    from click.shell_completion import CompletionItem

    try:
        with ctx:
            names = [name for where in _name_sources(ctx.params.get("game") or SCRIPTED_GAME)
                     for name in where.complete(incomplete)]
    except ScriptforgeError:  # a broken data folder: no suggestions rather than an error mid-line
        names = []
    return [CompletionItem(name) for name in dict.fromkeys(names)] or [CompletionItem(incomplete, type="file")]


def _name_sources(choice: str) -> list:
    """The databases whose names a --game choice takes: BotC's, then the other games chosen."""
    db, games = _rule_sets(choice)
    return [*([db] if db is not None else []), *games.values()]


def _data_dir():
    """$SCRIPTFORGE_DATA: another data folder instead of the shipped one (for tests and translators)."""
    return os.environ.get("SCRIPTFORGE_DATA") or None


def _packs():
    """The data packs to load, in order: the installed official pack or $SCRIPTFORGE_PACKS (unless
    --no-packs), then those chosen with `--pack` (see pack_option)."""
    meta = click.get_current_context().meta

    return active_packs(meta.get("scriptforge.packs", []), defaults=not meta.get("scriptforge.no_packs"))


def findings_options(command):
    """`--select` / `--ignore` CODE: codes or code prefixes (repeatable or comma-separated), kept
    in the context for `_selection`."""
    def store(ctx, param, value):
        ctx.meta[f"scriptforge.{param.name}"] = value

    command = click.option("--ignore", multiple=True, metavar="CODE", expose_value=False, callback=store,
                           help="Leave out findings with this code or code prefix (repeatable).")(command)
    return click.option("--select", multiple=True, metavar="CODE", expose_value=False, callback=store,
                        help="Report only findings with these codes or code prefixes (repeatable); "
                             "'scriptforge explain --list' lists the codes.")(command)


def _selection(domain: str):
    """The `--select` / `--ignore` of the running command, checked against `domain`'s codes."""
    # deferred: start-up time
    from scriptforge.findings import Selection

    meta = click.get_current_context().meta
    return Selection.of(meta.get("scriptforge.select", ()), meta.get("scriptforge.ignore", ()), domain)


def pack_option(command):
    """`--pack DIR|NAME` (repeatable): load these data packs on top of the built-in data in `_db()`."""
    return click.option("--pack", "packs", multiple=True, expose_value=False, is_eager=True,
                        callback=lambda ctx, _, value: ctx.meta.setdefault("scriptforge.packs", []).extend(value),
                        help="A data pack (folder or installed name) to load on top of the built-in data; "
                             "repeatable. Also: $SCRIPTFORGE_PACKS.")(command)


def no_packs_option(command):
    """`--no-packs`: load neither the installed official pack nor $SCRIPTFORGE_PACKS (only --pack)."""
    return click.option("--no-packs", is_flag=True, expose_value=False, is_eager=True,
                        callback=lambda ctx, _, value: ctx.meta.update({"scriptforge.no_packs": value})
                        if value else None,
                        help="Do not load the installed 'official' pack or $SCRIPTFORGE_PACKS; --pack still adds packs."
                        )(command)


def homebrew_option(command):
    """`--homebrew DIR`: add the homebrew characters of DIR's YAML files to the database `_db()` loads."""
    return click.option("--homebrew", type=click.Path(file_okay=False, exists=True, path_type=Path),
                        expose_value=False, callback=lambda ctx, _, value: ctx.meta.update({"scriptforge.homebrew": value}),
                        help="Folder of homebrew character YAML files (both languages) to use with the database."
                        )(command)


def game_option(command):
    """`--game`: the rule set; botc (default) is Blood on the Clocktower, the others live in scriptforge.games."""
    return click.option("--game", type=click.Choice(list(GAMES)), default=SCRIPTED_GAME,
                        show_default=True, help=f"Rule set: {SCRIPTED_GAME}, or {', '.join(OTHER_GAMES)}.")(command)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="scriptforge")
@click.option("--debug", is_flag=True, help="Show a traceback instead of a one-line error.")
def main(debug):
    """scriptforge: Blood on the Clocktower characters and scripts, in Korean and English."""
    new_command()  # no output may replace what *this* command reads (see fileio.refuse_to_overwrite)


@main.command("list")
@click.option("--team", type=click.Choice(TEAMS))
@click.option("--edition", help="Edition id, e.g. tb, bmr, snv, carousel, fabled, homebrew.")
@click.option("--lang", type=LANG, default=_default("text"), show_default=True)
@game_option
@format_option
@_fail_cleanly
def list_command(team, edition, lang, game, fmt):
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

    db = _db()
    rows = reference.list_rows(db, lang, team, edition)
    if fmt == "json":
        _print_json(rows)
    else:
        echo(reference.list_text(db, rows, lang))


@main.command()
@click.argument("name", shell_complete=_complete_name)
@click.option("--lang", type=LANGS, default=_default("both"), show_default=True,
              help="One language, or two joined by '+' (ko+en) to show both.")
@game_option
@format_option
@_fail_cleanly
def show(name, lang, game, fmt):
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

    db = _db()
    ch = db.resolve(name)
    langs = reference.languages(lang)
    if fmt == "json":
        _print_json(reference.character_record(db, ch, langs))
    else:
        echo(reference.character_text(db, ch, langs))


@main.command()
@click.argument("text")
@click.option("--lang", type=LANGS, default=_default("both"), show_default=True,
              help="One language, or two joined by '+' (ko+en) to show both.")
@format_option
@_fail_cleanly
def search(text, lang, fmt):
    """Find characters whose name, alias or ability contains TEXT.

    \b
    Example:
        scriptforge search 중독
    """
    # deferred: start-up time
    from scriptforge.text import reference

    db = _db()
    rows = reference.search_rows(db, text, reference.languages(lang))
    if fmt == "json":
        _print_json(rows)
        return
    for row in rows:
        echo(f"{row['id']:<16} {row['team']:<10} {' / '.join(row['names'].values())}")
    if not rows:
        echo(f"No character matches '{text}'.", err=True)
        sys.exit(1)


@main.group()
def db():
    """Check the character database."""


@db.command("check")
@game_option
@format_option
@_fail_cleanly
def db_check(game, fmt):
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

        loaded, problems = check_database(_data_dir(), _packs())
        summary = {**check_summary(loaded, problems), "cache": check_database_cache(loaded, _data_dir(), _packs())}
    else:
        # deferred: start-up time
        from scriptforge.games import check_game
        from scriptforge.text.games import check_summary, check_text

        summary = check_summary(*check_game(game))
    if fmt == "json":
        _print_json(summary)
    else:
        for problem in summary["problems"]:
            echo(f"Error: {problem}", err=True)
        echo(check_text(summary))
    sys.exit(0 if summary["ok"] else 1)


@main.group("import")
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
@_fail_cleanly
def import_almanac(file, lang, out_dir, script_path, name):
    """Read an almanac text document and write its characters' texts.

    Existing files in the output folder keep the fields the almanac does not give.
    Variant spellings are replaced with the glossary's established terms.

    \b
    Example:
        scriptforge import almanac almanac-ko.txt --lang ko --out data/ko --script my-script.json
    """
    # deferred: start-up time
    from scriptforge.importers.almanac import read_almanac, script_from_almanac, write_almanac

    db = _db()
    almanac = read_almanac(file, lang, db.glossary.get(lang, []))
    script = (script_path, script_from_almanac(almanac, db, name)) if script_path else None
    written = write_almanac(almanac, out_dir or Path("imported") / lang, script)
    echo(f"{len(written)} characters written to {(out_dir or Path('imported') / lang) / 'characters'}")
    if script_path:
        echo(f"script written to {script_path}")


# -- script engine commands


def skip_unknown_option(command):
    """`--skip-unknown`: use a script whose unknown characters would otherwise refuse it (`_analysis`)."""
    return click.option("--skip-unknown", is_flag=True, expose_value=False,
                        callback=lambda ctx, _, value: ctx.meta.update({"scriptforge.skip_unknown": value}),
                        help="Use the script even if it names unknown characters: they are left out, "
                             "with a warning naming them. Default: refuse it (exit 1).")(command)


def _skip_unknown() -> bool:
    return bool(click.get_current_context().meta.get("scriptforge.skip_unknown"))


def _analysis(path, db, **options):
    """The analysis of the script file at `path` ("-": stdin); a script naming characters
    scriptforge cannot use is refused (see --skip-unknown)."""
    # deferred: start-up time
    from scriptforge.analysis import analyse
    from scriptforge.script import read_script, refuse_unknown

    script = read_script(path, db)
    for warning in refuse_unknown(script, _skip_unknown()):
        echo(f"Warning: {path}: {warning}", err=True)
    return analyse(script, db, **options)


@main.command()
@click.argument("scripts", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json", "jsonl"]), default="text", show_default=True,
              help="text for people, json for tools (one document), jsonl (one line per file, as it is checked).")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Files checked at a time, by forked worker processes that share the loaded database "
                   "(results still in input order).")
@findings_options
@homebrew_option
@_fail_cleanly
def validate(scripts, fmt, jobs):
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
    from scriptforge.analysis import validate_files

    chosen = _selection("script")
    db = _db()
    tally = Tally()
    reports = (_said(tally.count(report)) for report in validate_files(scripts, db, chosen, jobs))
    if fmt == "json":
        for piece in findings_document(reports, tally):
            _echo_json(piece, nl=False)
    else:
        for report in reports:
            if fmt == "jsonl":
                _echo_json(report_line(report))
            elif not report.unreadable:
                echo(findings_text(report.findings, report.source))
    sys.exit(tally.exit_code)


def _said(report):
    """An unreadable file's one-line error on stderr, in every format, as it is met."""
    if report.unreadable:
        echo(f"Error: {report.findings[0].message}", err=True)
    return report


@main.command()
@click.argument("script")
@click.option("--players", type=click.IntRange(5, 15), help="One player count (5-15), with its bags; default: all.")
@click.option("--travellers", type=click.IntRange(0, 20), default=0,
              help="Travellers at the table as well (printed; they are not in the bag).")
@click.option("--lang", type=LANG, default=_default("text"), show_default=True)
@click.option("--bags", "list_bags", is_flag=True,
              help="With --format json: list every count's bags (one count with --players lists them anyway).")
@format_option
@homebrew_option
@skip_unknown_option
@_fail_cleanly
def setup(script, players, travellers, lang, list_bags, fmt):
    """Show the character counts per player count, from every legal bag of the script's setup characters.

    \b
    Example:
        scriptforge setup examples/fang-gu-zealot.json --players 9 --format json
        scriptforge setup examples/fang-gu-zealot.json --format json --bags
        scriptforge setup examples/fang-gu-zealot.json --players 7 --travellers 2 --lang ko
    """
    # deferred: start-up time
    from scriptforge.text.scripts import setup_document, setup_text

    db = _db()
    analysis = _analysis(script, db)
    rows = [row for row in analysis.setup if players in (None, row.players)]
    if fmt == "json":
        tables = setup_document(analysis, rows, travellers, bags=list_bags or players is not None)
        _print_json(tables[0] if players else tables)
    else:
        echo(setup_text(rows, analysis.script.characters, db, lang, travellers))


@main.command()
@click.argument("script")
@click.option("--lang", type=LANG, default=_default("text"), show_default=True)
@format_option
@homebrew_option
@skip_unknown_option
@_fail_cleanly
def jinxes(script, lang, fmt):
    """List the jinxed pairs on a script and whether the Djinn is needed.

    \b
    Example:
        scriptforge jinxes examples/faith-trust-and-pixie-dust.json --lang ko
    """
    # deferred: start-up time
    from scriptforge.text.scripts import jinxes_text

    analysis = _analysis(script, _db())
    if fmt == "json":
        _print_json(analysis.jinxes.as_dict(lang))
    else:
        echo(jinxes_text(analysis, lang))


@main.command()
@click.argument("script")
@click.option("--players", type=click.IntRange(5, 20), help="Player count; below 7, no Minion and Demon info.")
@click.option("--lang", type=LANG, default=_default("text"), show_default=True)
@format_option
@homebrew_option
@skip_unknown_option
@_fail_cleanly
def night(script, players, lang, fmt):
    """Show the first-night and other-nights order with the storyteller's reminders.

    _meta.firstNight/otherNight in the script replace the official order; homebrew characters
    are placed by their firstNight/otherNight numbers (positions on the official night sheet).

    \b
    Example:
        scriptforge night examples/faith-trust-and-pixie-dust.json --players 6 --lang ko
    """
    # deferred: start-up time
    from scriptforge.text.scripts import night_text

    analysis = _analysis(script, _db(), players=players)
    if fmt == "json":
        _print_json(analysis.night.as_dict(lang))
    else:
        echo(night_text(analysis.night, analysis.db, lang))


@main.command()
@click.argument("script")
@click.option("--keep-order", is_flag=True, help="Keep the author's order instead of the sheet order.")
@click.option("--lang", type=LANG, default=_default("text"), show_default=True)
@format_option
@homebrew_option
@skip_unknown_option
@_fail_cleanly
def order(script, keep_order, lang, fmt):
    """Print the script's characters in sheet order (by team, official order, homebrew by rule).

    \b
    Example:
        scriptforge order examples/fang-gu-zealot.json --lang ko
    """
    # deferred: start-up time
    from scriptforge.text.scripts import order_text

    db = _db()
    chars = _analysis(script, db, keep_order=keep_order).characters
    if fmt == "json":
        _print_json([{"id": c.id, "team": c.team, "name": c.name(lang), "homebrew": c.homebrew} for c in chars])
    else:
        echo(order_text(chars, db, lang))


@main.command()
@click.argument("code", required=False)
@click.option("--list", "list_all", is_flag=True, help="List every code with its severity and summary.")
@_fail_cleanly
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


# -- render commands


fetch_timeout_option = click.option(
    "--fetch-timeout", type=click.FloatRange(min=0.1), default=5.0, show_default=True, expose_value=False,
    callback=lambda ctx, _, value: ctx.meta.update({"scriptforge.fetch_seconds": value}),
    help="With --allow-network: seconds a remote image may take (the whole download); all of them "
         "together get four times that.")


system_fonts_option = click.option(
    "--system-fonts/--no-system-fonts", default=None, expose_value=False,
    callback=lambda ctx, _, value: ctx.meta.update({"scriptforge.system_fonts": value}),
    help="Also use the system's fonts (fontconfig) on every page, or never (a page the bundled fonts "
         "cannot set is then refused, naming the font package). Default: only where the bundled fonts "
         "lack letters of the page (Japanese, Chinese, Thai …).")


def _renderer(**options):
    # deferred: start-up time
    from scriptforge.render.pdf import Renderer

    meta = click.get_current_context().meta
    return Renderer(fetch_seconds=meta.get("scriptforge.fetch_seconds", 5.0),
                    system_fonts=meta.get("scriptforge.system_fonts"), **options)


def render_options(command, jobs=True):
    """Options shared by `build`, `nightsheet` and (without --jobs) `watch`."""
    options = [
        click.option("-o", "--output", "out", type=click.Path(),
                     help="Output file ('-': standard output); a folder if it ends in / or several scripts "
                          "are given. Default: the script's file name with the format's suffix, here."),
        click.option("--lang", type=LANGS, default=_default("sheet"), show_default=True,
                     help="ko+en: Korean texts with each English name small beside it."),
        click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True),
        click.option("--format", "fmt", type=click.Choice(["pdf", "html", "png"]),
                     help="pdf, html or png (one image per page). Default: the -o file's suffix, else pdf."),
        click.option("--dpi", type=click.IntRange(36, 1200), default=150, show_default=True,
                     help="Resolution of PNG output (stored in the file)."),
        click.option("--back", is_flag=True, help="Add a back page: setup table and compact night order."),
        click.option("--night", is_flag=True, help="Add the first-night and other-nights pages."),
        click.option("--icons", "icons_dir", type=click.Path(file_okay=False, exists=True, path_type=Path),
                     help="Folder of character images named by id (<id>.png, .webp, .svg or .jpg)."),
        click.option("--allow-network", is_flag=True,
                     help="Fetch remote images (homebrew `image` URLs) and keep them in the user cache, "
                          "which later builds use without the network. Off by default."),
        fetch_timeout_option,
        system_fonts_option,
        click.option("-j", "--jobs", type=click.IntRange(min=1), default=1, show_default=True,
                     help="Scripts rendered at a time: more than 1 forks worker processes after the "
                          "first script has loaded fonts and templates. Default: one process."),
    ][:None if jobs else -1]
    for option in reversed(options):
        command = option(command)
    return command


PRINT_OPTIONS = ("columns", "compact", "font_size", "player_table", "players", "teensy")


def print_options(*names: str):
    """The layout options of the official script tool's print settings, those of `names` (a command
    takes the ones that make sense for it); `_print_options()` gives them as a PrintOptions."""
    def store(ctx, param, value):
        ctx.meta.setdefault("scriptforge.print", {})[param.name] = value

    all_options = {
        "columns": click.option("--columns", type=click.Choice(["1", "2"]), default="1", show_default=True,
                                expose_value=False, callback=store,
                                help="The character sheet's rows in one or two columns."),
        "compact": click.option("--compact", is_flag=True, expose_value=False, callback=store,
                                help="Compact layout: tighter rows, smaller badges and headings."),
        "font_size": click.option("--font-size", "font_size", type=click.Choice(["normal", "large"]),
                                  default="normal", show_default=True, expose_value=False, callback=store,
                                  help="Text size: large is 15 % larger (a sheet that then does not fit is "
                                       "set smaller in steps, with a warning)."),
        "player_table": click.option("--player-table/--no-player-table", "player_table", default=True,
                                     expose_value=False, callback=store,
                                     help="The 5-15 player-count table on the back page (--back) and the "
                                          "almanac's last page. Default: shown."),
        "players": click.option("--players", type=click.IntRange(5, 20), expose_value=False, callback=store,
                                help="The player count the night order is for: below 7, no Minion or Demon "
                                     "info (as `scriptforge night --players`)."),
        "teensy": click.option("--teensy/--no-teensy", "teensy", default=None, expose_value=False, callback=store,
                               help="Teensyville layout (a script for 5-6 players: the player table for 5 "
                                    "and 6, nights without Minion and Demon info). Default: chosen for the "
                                    "script (_meta.teensyville, else 13 or fewer player characters)."),
    }

    def decorate(command):
        for name in reversed(names):
            command = all_options[name](command)
        return command

    return decorate


def _print_options():
    """The print options given (see `print_options`) as a render.views.PrintOptions."""
    # deferred: start-up time
    from scriptforge.render.views import PrintOptions

    given = dict(click.get_current_context().meta.get("scriptforge.print", {}))
    if "columns" in given:
        given["columns"] = int(given["columns"])
    return PrintOptions(**given)


def _echo_written(written, pages, out) -> None:
    """The files written, one a line; on stderr when the output itself went to stdout."""
    # deferred: start-up time
    from scriptforge.render.outputs import STDOUT, written_lines

    for line in written_lines(written, pages):
        echo(line, err=out == STDOUT)


def _render_scripts(scripts, out, lang, paper, fmt, dpi, back, night, icons_dir, allow_network, jobs, *,
                    sheet=True, suffix="", builder=None, **extra):
    # deferred: start-up time
    from scriptforge.batch import Failure, can_fork, exit_code
    from scriptforge.text import outputs as outputs_text
    from scriptforge.pipeline import build_all, script_files
    from scriptforge.render.outputs import output_format, output_target
    from scriptforge.render.writing import FORMATS

    fmt = output_format(out, fmt, FORMATS)
    files = script_files(scripts)
    many = len(files) > 1 or any(Path(s).is_dir() for s in scripts)
    if jobs > 1 and many and not can_fork():
        echo("Warning: --jobs needs processes that can be forked, which this system lacks: "
                   "rendering in one process.", err=True)
    db = _db()
    renderer = _renderer(allow_network=allow_network, icons_dir=icons_dir, dpi=dpi, packs=_packs())
    options = dict(targets=lambda path, name: output_target(path, out, fmt, many, suffix, name), jobs=jobs,
                   skip_unknown=_skip_unknown(), lang=lang, paper=paper, fmt=fmt, builder=builder,
                   **(extra if builder else dict(back=back, night=night, sheet=sheet, options=_print_options())))
    if many:
        with click.progressbar(length=len(files), label="Rendering", file=sys.stderr,
                               item_show_func=lambda result: _shown(result.script.name) if result else "") as bar:
            results = build_all(files, db, renderer, done=lambda result: bar.update(1, result), **options)
    else:
        results = build_all(files, db, renderer, **options)
    for result in results:
        if isinstance(result, Failure):
            continue
        for warning in result.warnings:
            echo(f"Warning: {result.script}: {warning}", err=True)
        _echo_written(result.written, result.pages, out)
    for line in outputs_text.failure_lines(results):
        echo(line, err=True)
    if exit_code(results):
        sys.exit(exit_code(results))


def _render_game(game, scripts, out, lang, paper, fmt, dpi, back, night, icons_dir, *, sheet):
    # deferred: start-up time
    from scriptforge.pipeline import build_game
    from scriptforge.render.outputs import output_format
    from scriptforge.render.writing import FORMATS

    result = build_game(game, _renderer(dpi=dpi), out=out, lang=lang, paper=paper, fmt=output_format(out, fmt, FORMATS),
                        sheet=sheet, night=night, scripts=scripts, back=back, icons_dir=icons_dir,
                        options=_print_options())
    for warning in result.warnings:
        echo(f"Warning: {game}: {warning}", err=True)
    _echo_written(result.written, result.pages, out)


@main.command()
@click.argument("scripts", nargs=-1)
@render_options
@print_options(*PRINT_OPTIONS)
@homebrew_option
@game_option
@skip_unknown_option
@_fail_cleanly
def build(scripts, out, lang, paper, fmt, dpi, back, night, icons_dir, allow_network, jobs, game):
    """Render character sheets of one or more scripts (files or folders) to PDF, HTML or PNG.

    The sheet carries the script's own rules (_meta.bootlegger) under the jinxes and its logo
    (_meta.logo: a file or data: URL; a remote one with --allow-network); every page ends in a
    footer with the script's name, author, page number and the data it was built from.
    Each sheet fits on one page: if it does not, the text is set smaller in steps down to 70%,
    and a warning says so; a sheet that still does not fit is never clipped. In a batch every
    script is tried; the failures are listed at the end, one line each, and the exit code is 1.

    \b
    Example:
        scriptforge build examples/faith-trust-and-pixie-dust.json --lang ko
        scriptforge build examples/ -o sheets/ --lang ko+en --paper letter --night
        scriptforge build scripts/ -o sheets/ --jobs 4      # four scripts at a time
        scriptforge build my.json --columns 2 --compact --font-size large
        scriptforge build my.json --back --no-player-table --night --players 6
        scriptforge build small.json --back --teensy      # Teensyville: 5-6 players
        scriptforge build --game salem --lang ko+en      # salem-sheet.pdf: every role and card
    """
    if not rule_set(game).from_scripts:
        return _render_game(game, scripts, out, lang, paper, fmt, dpi, back, night, icons_dir, sheet=True)
    if not scripts:
        raise click.UsageError(f"Missing argument 'SCRIPTS...' (or give --game {'|'.join(OTHER_GAMES)}).")
    _render_scripts(scripts, out, lang, paper, fmt, dpi, back, night, icons_dir, allow_network, jobs)


@main.command()
@click.argument("script", nargs=-1)
@render_options
@print_options("compact", "font_size", "player_table", "players", "teensy")
@homebrew_option
@game_option
@skip_unknown_option
@_fail_cleanly
def nightsheet(script, out, lang, paper, fmt, dpi, back, night, icons_dir, allow_network, jobs, game):
    """Render the storyteller's night order: first night and other nights, one page each.

    The order is the one `scriptforge night` computes, including dusk, Minion info, Demon info
    and dawn (with --players below 7, or a Teensyville script: without Minion and Demon info).
    The script's own rules (_meta.bootlegger) head each night. Output defaults to <script>-night.pdf.

    \b
    Example:
        scriptforge nightsheet examples/faith-trust-and-pixie-dust.json --lang ko
        scriptforge nightsheet examples/fang-gu-zealot.json --players 6 --compact
        scriptforge nightsheet --game salem --lang ko     # salem-night.pdf: the moderator's script
    """
    if not rule_set(game).from_scripts:
        return _render_game(game, script, out, lang, paper, fmt, dpi, back, True, icons_dir, sheet=False)
    if not script:
        raise click.UsageError(f"Missing argument 'SCRIPT...' (or give --game {'|'.join(OTHER_GAMES)}).")
    _render_scripts(script, out, lang, paper, fmt, dpi, back, True, icons_dir, allow_network, jobs,
                    sheet=False, suffix="-night")


@main.command()
@click.argument("scripts", nargs=-1, required=True)
@click.option("-o", "--output", "out", type=click.Path(),
              help="Output file ('-': standard output); a folder if it ends in / or several scripts are given. "
                   "Default: <script>-tokens.pdf here.")
@click.option("--lang", type=LANGS, default=_default("sheet"), show_default=True,
              help="ko+en: the Korean name or label with the English one smaller, where both fit.")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True)
@click.option("--format", "fmt", type=click.Choice(["pdf", "html", "png"]),
              help="pdf, html or png (one image per page). Default: the -o file's suffix, else pdf.")
@click.option("--dpi", type=click.IntRange(36, 1200), default=300, show_default=True, help="Resolution of PNG output.")
@click.option("--size", default="44/25", show_default=True, metavar="CHAR/REMINDER",
              help="Cut diameters in mm of the character and reminder tokens: 44/25, 38/19, or any two numbers.")
@click.option("--bleed", type=click.FloatRange(0, 5), default=1.0, show_default=True,
              help="How far (mm) the art goes past the cut line.")
@click.option("--only", multiple=True, metavar="TEAM|ID",
              help="Only these teams or characters (repeatable or comma-separated); their reminders follow them.")
@click.option("--new-only", is_flag=True, help="Only characters that are not in the boxed game (tb, bmr, snv).")
@click.option("--mirror", is_flag=True, help="Mirror the token pages (for printing on the back of transparent film).")
@click.option("--icons", "icons_dir", type=click.Path(file_okay=False, exists=True, path_type=Path),
              help="Folder of character images named by id (<id>.png, .webp, .svg or .jpg).")
@click.option("--allow-network", is_flag=True, help="Fetch remote images (homebrew `image` URLs). Off by default.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Scripts rendered at a time (worker processes forked after the first script).")
@system_fonts_option
@homebrew_option
@skip_unknown_option
@_fail_cleanly
def tokens(scripts, out, lang, paper, fmt, dpi, size, bleed, only, new_only, mirror, icons_dir, allow_network, jobs):
    """Print a script's character and reminder tokens: a cover page with the counts, then the tokens
    packed on A4 or Letter with cut lines, crop marks and bleed, to print at 100 % and cut or punch.

    One character token per character (Travellers and Fabled too), one reminder token per reminder
    the data lists (repeats included) and the global reminders. Names curve along the lower edge.

    \b
    Example:
        scriptforge tokens examples/faith-trust-and-pixie-dust.json --lang ko
        scriptforge tokens script.json --size 38/19 --paper letter --new-only -o tokens.pdf
        scriptforge tokens scripts/ -o tokens/ --lang ko+en --only townsfolk,outsider
    """
    # deferred: start-up time
    from scriptforge.pipeline import build_tokens
    from scriptforge.render.tokens import token_options

    _render_scripts(scripts, out, lang, paper, fmt, dpi, False, False, icons_dir, allow_network, jobs,
                    suffix="-tokens", builder=build_tokens, only=only, new_only=new_only,
                    token_options=token_options(size, bleed, mirror))


@main.command()
@click.argument("script", type=click.Path(dir_okay=False, path_type=Path))
@functools.partial(render_options, jobs=False)
@findings_options
@homebrew_option
@skip_unknown_option
@click.option("--renders", type=click.IntRange(min=1), hidden=True, help="Stop after this many renders (tests).")
@_fail_cleanly
def watch(script, out, lang, paper, fmt, dpi, back, night, icons_dir, allow_network, renders):
    """Print SCRIPT's sheet now and again whenever the script, a --homebrew file or an --icons file
    changes, until Ctrl-C; each time, what was written and how the findings moved.

    Takes build's options. The output is replaced atomically, so a PDF viewer that reloads
    changed files shows every save; a save that cannot be read prints its error and the watch goes on.

    \b
    Example:
        scriptforge watch my-script.json -o my-script.pdf --lang ko --night
    """
    # deferred: start-up time
    from scriptforge.render.outputs import output_format, output_target
    from scriptforge.render.writing import FORMATS
    from scriptforge.watch import Watch

    fmt = output_format(out, fmt, FORMATS)
    db = _base_db()
    options = dict(skip_unknown=_skip_unknown(), lang=lang, paper=paper, fmt=fmt, back=back, night=night)
    Watch(script, lambda: db, _renderer(allow_network=allow_network, icons_dir=icons_dir, dpi=dpi),
          lambda path, name: output_target(path, out, fmt, False, "", name), options, homebrew=_homebrew_dir(),
          icons=icons_dir, chosen=_selection("script")).run(echo, renders)


# -- script builder commands


def _print_change(change) -> None:
    echo("\n".join(change.lines(_selection("script"))))


@main.command()
@click.argument("out", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("characters", nargs=-1, shell_complete=_complete_name)
@click.option("--name", required=True, help="The script's name (_meta.name).")
@click.option("--author", help="The script's author (_meta.author).")
@click.option("--lang", type=LANG, help="Language of homebrew YAML files given as CHARACTERS.")
@click.option("--force", is_flag=True, help="Overwrite OUT if it exists.")
@findings_options
@_fail_cleanly
def new(out, characters, name, author, lang, force):
    """Create a script in the official format: _meta first, then plain character ids.

    CHARACTERS are ids, legacy spellings, English or Korean names or aliases, or homebrew YAML
    files (embedded as full character objects in the --lang language).

    \b
    Example:
        scriptforge new my.json --name "Pixie Dust" --author Me clockmaker 릴몬스타 "Fang Gu"
    """
    # deferred: start-up time
    from scriptforge.edit import new_script

    _print_change(new_script(out, _db(), name, author, characters, lang=lang, force=force))


@main.command()
@click.argument("script", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("characters", nargs=-1, required=True, shell_complete=_complete_name)
@click.option("--lang", type=LANG, help="Language to embed homebrew YAML files in.")
@findings_options
@_fail_cleanly
def add(script, characters, lang):
    """Add characters to a script; print what changed (teams, new jinxes, setup warnings).

    A name that is unknown or ambiguous is refused with suggestions and nothing changes.
    A homebrew YAML file is embedded as a full character object (again: updated in place).

    \b
    Example:
        scriptforge add my.json 릴몬스타 "Fang Gu"
        scriptforge add my.json examples/homebrew/pilgrim.yaml --lang en
    """
    # deferred: start-up time
    from scriptforge.edit import add_characters

    _print_change(add_characters(script, _db(), characters, lang=lang))


@main.command()
@click.argument("script", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("characters", nargs=-1, required=True, shell_complete=_complete_name)
@findings_options
@_fail_cleanly
def remove(script, characters):
    """Remove characters from a script: every copy of each (and from its _meta night lists).

    \b
    Example:
        scriptforge remove my.json lil_monsta 팡구
    """
    # deferred: start-up time
    from scriptforge.edit import remove_characters

    _print_change(remove_characters(script, _db(), characters))


@main.command()
@click.argument("script", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--name", help="Script name.")
@click.option("--author", help="Author; an empty value removes it (the same for --logo, --almanac).")
@click.option("--logo", help="Logo image URL.")
@click.option("--almanac", help="Almanac page URL.")
@click.option("--bootlegger", multiple=True, help="A homebrew rule shown on the sheet; repeat for several; "
                                                  "--bootlegger '' removes them all.")
@findings_options
@_fail_cleanly
def meta(script, name, author, logo, almanac, bootlegger):
    """Set the script's _meta: name, author, logo, almanac link, bootlegger rules.

    \b
    Example:
        scriptforge meta my.json --name "Pixie Dust" --author Me --bootlegger "The Pixie may be mad as a Demon."
    """
    # deferred: start-up time
    from scriptforge.edit import set_meta

    _print_change(set_meta(script, _db(), name=name, author=author, logo=logo, almanac=almanac,
                           bootlegger=list(bootlegger) if bootlegger else None))


@main.group("homebrew")
def homebrew_group():
    """Homebrew characters written once as YAML in both languages."""


@homebrew_group.command("check")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@format_option
@_fail_cleanly
def homebrew_check(files, fmt):
    """Check homebrew YAML files (folders: every *.yaml in them); exit 1 on any problem, 2 if unreadable.

    The same schemas as the database, night placement, bracket-vs-setup consistency and,
    for each language, the database's translation checks.

    \b
    Example:
        scriptforge homebrew check examples/homebrew/pilgrim.yaml
    """
    # deferred: start-up time
    from scriptforge.homebrew import check_files

    results = check_files(files, _db())
    if fmt == "json":
        _print_json({"ok": not any(r["problems"] for r in results), "files": results})
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


@main.group()
def l10n():
    """Translator tools: status, diff, checks and .po exchange for the Korean and English texts."""


def l10n_game_option(command):
    return click.option("--game", "game", type=click.Choice([*GAMES, ALL]),
                        default=ALL, show_default=True,
                        help="Which rule set's texts: BotC's database, one other game, or all.")(command)


@l10n.command("status")
@l10n_game_option
@format_option
@_fail_cleanly
def l10n_status(game, fmt):
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

    db, games = _rule_sets(game)
    table = status(db, games)
    if fmt == "json":
        _print_json(table)
    else:
        echo(status_text(table, layer_order(db)))


@l10n.command("diff")
@click.argument("ids", nargs=-1, shell_complete=_complete_name)
@click.option("--from", "source", type=LANG, default=_default("text"), show_default=True, help="Source language.")
@click.option("--to", "target", type=LANG, default=_default("sheet"), show_default=True, help="Translation language.")
@click.option("--against", "against_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Compare our --to texts with a translation file in the official layout instead.")
@l10n_game_option
@format_option
@_fail_cleanly
def l10n_diff(ids, source, target, against_file, game, fmt):
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
        db = _db()
        rows = diff.against(db, against_file, target)
        _print_json(rows) if fmt == "json" else echo(l10n_text.against_text(rows, against_file, target))
        return
    db, games = _rule_sets(game)
    rows = diff.diff_rows(db, source, target, ids, games)
    _print_json(rows) if fmt == "json" else echo(l10n_text.diff_text(rows, source, target))


@l10n.command("check")
@click.option("--lang", type=LANG, help="Check one language only (default: both).")
@click.option("--include-official", is_flag=True,
              help="Also list findings on the official texts a data pack gives, as info in their own group "
                   "(to report upstream; they are never errors of ours).")
@findings_options
@l10n_game_option
@format_option
@_fail_cleanly
def l10n_check(lang, include_official, game, fmt):
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

    chosen = _selection("l10n")
    db, games = _rule_sets(game)
    findings = run_checks(db, (lang,) if lang else None, ignore=chosen.ignore, select=chosen.select,
                          games=games, include_official=include_official)
    if fmt == "json":
        _print_json({"ok": not any(f.severity == "error" for f in findings),
                     "findings": [f.as_dict() for f in findings]})
    else:
        echo(findings_text(findings))
    sys.exit(1 if any(f.severity == "error" for f in findings) else 0)


@l10n.command("terms")
@click.option("--official", "folder", type=click.Path(file_okay=False, exists=True, path_type=Path), required=True,
              help="A folder of official translation files: game/<lang>.json, script/<lang>.json, app/<lang>.json.")
@click.option("--lang", type=LANG, default=_default("sheet"), show_default=True)
@format_option
@_fail_cleanly
def l10n_terms(folder, lang, fmt):
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
    rows = term_usage(_db().glossary.get(lang, []), official_texts(read_json(game), interface))
    if fmt == "json":
        _print_json(usage_records(rows))
    else:
        echo(usage_text(rows))
    sys.exit(1 if any(r.conflicts for r in rows) else 0)


@l10n.command("confirm")
@click.argument("id_", metavar="ID", required=False)
@click.argument("field", required=False)
@click.option("--lang", type=LANG, help="The translation's language (default: the one recording a source, else ko).")
@click.option("--all", "all_", is_flag=True, help="Stamp every translation (see below).")
@_fail_cleanly
def l10n_confirm(id_, field, lang, all_):
    """Record that a translation matches its current source text (clears "stale").

    ID is a character (name or id) with FIELD (ability, flavor, how_to_run, first_night_reminder, ...),
    or "step", "reminder", "jinx", "ui" with the rest of the key (dusk.name, safe, widow-damsel,
    teams.minion.name). --all re-stamps every translation that records a source and stamps every
    text present in both languages that records none: into --lang if given, else into English
    from Korean, then into Korean from English where the English text is not itself a translation.

    \b
    Example:
        scriptforge l10n confirm imp ability --lang ko
        scriptforge l10n confirm --all
    """
    # deferred: start-up time
    from scriptforge.l10n.provenance import confirm_command, editing_data

    with editing_data(_db) as db:
        written, count = confirm_command(db, id_, field, lang, all_)
    for path in written:
        echo(f"{path}")
    echo(f"{count} text(s) confirmed; {len(written)} file(s) written")


@l10n.command("export")
@click.option("--lang", type=LANG, required=True, help="The translation language (msgstr); the other is msgid.")
@click.option("-o", "--output", "out", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The .po file to write ('-': standard output).")
@_fail_cleanly
def l10n_export(lang, out):
    """Write a gettext .po file for Weblate, Poedit or pofilter.

    msgctxt is the text's key (imp.ability, imp.how_to_run.2, imp.first_night_reminder,
    step.dusk.name, reminder.safe, jinx.widow-damsel, ui.teams.minion.name), msgid the source
    text, msgstr the translation; stale translations are marked fuzzy.

    \b
    Example:
        scriptforge l10n export --lang en -o en.po
    """
    # deferred: start-up time
    from scriptforge.l10n.po import export_po

    if write_output(out, export_po(_db(), lang)):
        echo(f"{out}")


@l10n.command("import")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--lang", type=LANG, help="The file's language (default: its Language header).")
@_fail_cleanly
def l10n_import(file, lang):
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
    from scriptforge.translations import ensure_user_layer

    target = Path(_data_dir()) if _data_dir() else ensure_user_layer()
    with editing_data(_db, target) as db:
        lang, changes, written = import_po(db, file, lang, target)
    for path in written:
        echo(f"{path}")
    echo(f"{len(changes)} text(s) imported into {lang}; {len(written)} file(s) written")


# -- pack and export commands


@main.group()
def pack():
    """Data packs: official data files in scriptforge's own layout, loaded on top of the built-in data."""


@pack.command("import")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--name", help="Pack name (default: the --out folder's name, else 'official').")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Pack folder to write (default: <user data dir>/scriptforge/packs/<name>).")
@click.option("--lang", type=LANG, help="Language of a translation file among FILES.")
@_fail_cleanly
def pack_import(files, name, out_dir, lang):
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

    path, build = import_pack(files, name=name, out=out_dir, lang=lang, data_dir=_data_dir(), packs=_packs())
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
@_fail_cleanly
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
    from scriptforge.icons import ICONS_URL
    from scriptforge.packs.install import OFFICIAL_URL, TRANSLATIONS_URL, update_pack
    from scriptforge.text.packs import icon_failure_lines, update_lines

    result = update_pack(langs=langs, only=only, from_dir=from_dir, url=url or OFFICIAL_URL,
                         translations_url=translations_url or TRANSLATIONS_URL, timeout=timeout,
                         progress=lambda line: echo(line, err=True), stale=stale, icons=icons,
                         icons_url=icons_url or ICONS_URL,
                         icon_bar=lambda total: click.progressbar(length=total, label="Icons", file=sys.stderr))
    for warning in result.build.warnings:
        echo(f"Warning: {warning}", err=True)
    if result.icons is not None:
        for line in icon_failure_lines(result.icons.failed):
            echo(f"Warning: {line}", err=True)
    for line in update_lines(result):
        echo(line)
    for note in result.notes:
        echo(f"Info: {note}", err=True)


@pack.command("list")
@format_option
@_fail_cleanly
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
        _print_json(pack_rows(packs))
    else:
        echo(pack_list_text(packs, packs_dir()))


@pack.command("diff")
@click.argument("old", type=click.Path(exists=True, path_type=Path))
@click.argument("new", type=click.Path(exists=True, path_type=Path))
@click.option("--lang", type=LANG, help="Language of translation files in OLD/NEW folders.")
@format_option
@_fail_cleanly
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
        _print_json(report.as_json())
    else:
        echo(diff_text(report))


@main.command("migrate")
@click.argument("script", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--write", is_flag=True, help="Write the migrated script over SCRIPT (after showing the diff).")
@click.option("-o", "--output", "out", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the migrated script to this file instead.")
@_fail_cleanly
def migrate(script, write, out):
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
    from scriptforge.migrate import migrate_script

    result = migrate_script(read_json(script), _db())
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
    target = out or (script if write else None)
    if target:
        atomic_write_text(target, dump_json(result.after))
        echo(str(target))


@main.command("export")
@click.argument("script")
@click.option("--lang", type=LANG, default=_default("sheet"), show_default=True)
@click.option("--for", "target", type=click.Choice(["app", "full"]), default="app", show_default=True,
              help="app: unchanged official characters as plain ids (the official app shows its own "
                   "translation); full: every character as an object in --lang, for tools without translations.")
@click.option("-o", "--output", "out", type=click.Path(dir_okay=False, path_type=Path),
              help="Output file ('-' or none: standard output).")
@homebrew_option
@skip_unknown_option
@_fail_cleanly
def export_command(script, lang, target, out):
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
    from scriptforge.export import export_script

    if out:
        refuse_to_overwrite([out], [script])
    db = _db()
    result = export_script(_analysis(script, db), lang, target)
    for warning in result.warnings:
        echo(f"Warning: {script}: {warning}", err=True)
    for found in result.findings:
        echo(f"Warning: {script}: [{found.code}] {found.message}", err=True)
    if out and str(out) != "-":
        write_output(out, dump_json(result.data).encode("utf-8"), [script])
        echo(str(out))
    else:
        _echo_json(dump_json(result.data), nl=False)


def _add_pack_option(group):
    """--pack on the group and on every command under it; called once, at the end of this module."""
    for command in [group, *getattr(group, "commands", {}).values()]:
        if not any(p.name == "packs" for p in command.params):
            pack_option(command)
            no_packs_option(command)
        if command is not group and isinstance(command, click.Group):
            _add_pack_option(command)


# -- almanac command


@main.command("almanac")
@click.argument("script")
@click.option("-o", "--output", "out", type=click.Path(),
              help="Output file ('-': standard output; a folder if it ends in /). "
                   "Default: <script>-almanac.pdf (or .html) in the current folder.")
@click.option("--lang", type=LANGS, default=_default("sheet"), show_default=True,
              help="ko+en: Korean texts with each English name beside the Korean one.")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True)
@click.option("--format", "fmt", type=click.Choice(["pdf", "html"]),
              help="pdf or html. Default: the -o file's suffix, else pdf.")
@click.option("--icons", "icons_dir", type=click.Path(file_okay=False, exists=True, path_type=Path),
              help="Folder of character images named by id (<id>.png, .webp, .svg or .jpg).")
@click.option("--allow-network", is_flag=True, help="Fetch remote images (homebrew `image` URLs). Off by default.")
@print_options(*PRINT_OPTIONS)
@fetch_timeout_option
@system_fonts_option
@homebrew_option
@skip_unknown_option
@_fail_cleanly
def almanac(script, out, lang, paper, fmt, icons_dir, allow_network):
    """Render a script's almanac for storytellers: cover with the character sheet and contents,
    a page per character (ability, flavor, overview, how to run, examples & notes, then its night
    order, reminder tokens, setup and jinxes) and closing pages with the night order and the
    player-count table.

    A text missing in the chosen language is printed in the other language, marked, and one
    warning names the characters concerned.

    \b
    Example:
        scriptforge almanac examples/fang-gu-zealot.json --lang ko
        scriptforge almanac examples/english-almanac-25.json --lang en --paper letter -o almanac.pdf
        scriptforge almanac examples/fang-gu-zealot.json --columns 2 --font-size large --no-player-table
    """
    # deferred: start-up time
    from scriptforge.pipeline import build_almanac
    from scriptforge.render.outputs import output_format, output_target

    fmt = output_format(out, fmt, ("pdf", "html"))
    db = _db()
    renderer = _renderer(allow_network=allow_network, icons_dir=icons_dir, packs=_packs())
    result = build_almanac(script, db, renderer, lang=lang, paper=paper, fmt=fmt, skip_unknown=_skip_unknown(),
                           options=_print_options(), target=lambda path, name: output_target(path, out, fmt, False, "-almanac", name))
    for warning in result.warnings:
        echo(f"Warning: {script}: {warning}", err=True)
    _echo_written(result.written, result.pages, out)


# Last, so that every command defined above takes --pack.
_add_pack_option(main)


def run() -> None:
    """The ``scriptforge`` console command: `main`, then a quicker interpreter exit.

    At exit Python's cyclic garbage collector goes through every object a render left (WeasyPrint
    makes about a million): ~0.1 s of a 1 s command. ``gc.freeze()`` excludes them from those
    passes; objects are still freed and finalizers and ``atexit`` still run.
    """
    try:
        main(prog_name="scriptforge")
    finally:
        # deferred: start-up time
        import gc

        gc.freeze()
