"""What the commands share: the language choice, options given to several commands, the database they
load, echo and JSON output, and the one-line error."""

from collections.abc import Iterator
import contextlib
import functools
import json
from pathlib import Path
import sys
import os

import click

from scriptforge.io.errors import ScriptforgeError
from scriptforge.model.rule_sets import GAMES, OTHER_GAMES, SCRIPTED_GAME, selection
from scriptforge.db.database import load_database
from scriptforge.model.languages import codes, default, resolve
from scriptforge.db.pack_store import active_packs


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


def default_lang(kind: str) -> str:
    return default(kind)


def fail_cleanly(command):
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
        except BrokenPipeError:
            reader_left()
        except OSError as exc:  # a file the library did not expect to fail (the writers name theirs)
            if click.get_current_context().find_root().params.get("debug"):
                raise
            where = f"{exc.filename}: " if isinstance(exc.filename, str) else ""
            echo(f"Error: {where}{exc.strerror or exc}", err=True)
            sys.exit(2)

    return wrapper


def reader_left() -> None:
    """The reader of stdout closed it (`scriptforge validate … | head -1`): end quietly with exit 0,
    as a program does whose reader took what it wanted; the rest of the output goes nowhere."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):  # no real stdout (CliRunner's): nothing is flushed to a closed pipe at exit
        pass
    sys.exit(0)


class OneLineErrors(click.Group):
    """The root group: a usage error (unknown option, missing argument, bad value) in any command
    below it ends in our one line naming the command, `Error: scriptforge build: …`, exit code 2,
    instead of click's three-line form; a closed stdout ends quietly (see `reader_left`)."""

    def make_context(self, info_name, args, parent=None, **extra):
        with _one_line():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx):
        with _one_line():
            return super().invoke(ctx)


class _OneLineUsageError(click.ClickException):
    exit_code = 2


@contextlib.contextmanager
def _one_line() -> Iterator[None]:
    try:
        yield
    except BrokenPipeError:
        reader_left()
    except click.exceptions.NoArgsIsHelpError:
        raise  # a group given no command still shows its help
    except click.UsageError as exc:
        path = exc.ctx.command_path if exc.ctx is not None else "scriptforge"
        message = " ".join(exc.format_message().split("\n"))
        raise _OneLineUsageError(f"{shown(path)}: {message} (see '{shown(path)} --help')") from None


def format_option(command):
    return click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
                        show_default=True, help="text for people, json for tools.")(command)


def echo(message: object = "", *, err: bool = False, nl: bool = True) -> None:
    """click.echo for text output: control characters in user text are shown escaped, never obeyed."""
    # deferred: start-up time
    from scriptforge.io.terminal import safe_text

    _write(safe_text(str(message)), err=err, nl=nl)


def _write(text: str, *, err: bool = False, nl: bool = True) -> None:
    """click.echo that never fails on the terminal's encoding: what it cannot write is replaced,
    with one hint on stderr."""
    # deferred: start-up time
    from scriptforge.io.terminal import encodable

    stream = sys.stderr if err else sys.stdout
    text, hint = encodable(text, getattr(stream, "encoding", None))
    click.echo(text, err=err, nl=nl)
    if hint:
        click.echo(hint, err=True)


def shown(text: str) -> str:
    # deferred: start-up time
    from scriptforge.io.terminal import safe_text

    return safe_text(text)


def print_json(data) -> None:
    echo_json(json.dumps(data, ensure_ascii=False, indent=2, allow_nan=False))


def echo_json(text: str, nl: bool = True) -> None:
    """JSON text to stdout with control characters as \\u escapes (the same JSON, safe on a terminal)."""
    # deferred: start-up time
    from scriptforge.io.terminal import safe_json

    _write(safe_json(text), nl=nl)


def command_db():
    db = base_db()
    homebrew = homebrew_dir()
    if homebrew:
        # deferred: start-up time
        from scriptforge.scripts.homebrew import with_homebrew

        db = with_homebrew(db, homebrew)
    return db


def base_db():
    """The database without the --homebrew folder."""
    return load_database(data_dir(), chosen_packs())


def homebrew_dir():
    return click.get_current_context().meta.get("scriptforge.scripts.homebrew")  # set by homebrew_option


def rule_sets_for(choice: str):
    """(BotC's database or None, {game id: GameDatabase}) for a --game choice: a rule set, or
    every one (l10n's "all")."""
    # deferred: start-up time
    from scriptforge.db.games import load_games

    with_scripts, others = selection(choice)
    return (command_db() if with_scripts else None), load_games(others)


def complete_name(ctx, param, incomplete):
    """Shell completion of a character, role or step argument: ids and names in every language of
    the rule sets the command's --game chose (BotC's database by default; the cached databases, so
    it is quick); where none matches, the shell completes a file name instead (a homebrew YAML file)."""
    # deferred: start-up time
    from click.shell_completion import CompletionItem

    try:
        with ctx:
            names = [name for where in name_sources(ctx.params.get("game") or SCRIPTED_GAME)
                     for name in where.complete(incomplete)]
    except ScriptforgeError:  # a broken data folder: no suggestions rather than an error mid-line
        names = []
    return [CompletionItem(name) for name in dict.fromkeys(names)] or [CompletionItem(incomplete, type="file")]


def name_sources(choice: str) -> list:
    """The databases whose names a --game choice takes: BotC's, then the other games chosen."""
    db, games = rule_sets_for(choice)
    return [*([db] if db is not None else []), *games.values()]


def data_dir():
    """$SCRIPTFORGE_DATA: another data folder instead of the shipped one (for tests and translators)."""
    return os.environ.get("SCRIPTFORGE_DATA") or None


def chosen_packs():
    """The data packs to load, in order: the installed official pack or $SCRIPTFORGE_PACKS (unless
    --no-packs), then those chosen with `--pack` (see pack_option)."""
    meta = click.get_current_context().meta

    return active_packs(meta.get("scriptforge.packs", []), defaults=not meta.get("scriptforge.no_packs"))


def findings_options(command):
    """`--select` / `--ignore` CODE: codes or code prefixes (repeatable or comma-separated), kept
    in the context for `findings_selection`."""
    def store(ctx, param, value):
        ctx.meta[f"scriptforge.{param.name}"] = value

    command = click.option("--ignore", multiple=True, metavar="CODE", expose_value=False, callback=store,
                           help="Leave out findings with this code or code prefix (repeatable).")(command)
    return click.option("--select", multiple=True, metavar="CODE", expose_value=False, callback=store,
                        help="Report only findings with these codes or code prefixes (repeatable); "
                             "'scriptforge explain --list' lists the codes.")(command)


def findings_selection(domain: str):
    """The `--select` / `--ignore` of the running command, checked against `domain`'s codes."""
    # deferred: start-up time
    from scriptforge.model.findings import Selection

    meta = click.get_current_context().meta
    return Selection.of(meta.get("scriptforge.select", ()), meta.get("scriptforge.ignore", ()), domain)


def pack_option(command):
    """`--pack DIR|NAME` (repeatable): load these data packs on top of the built-in data in `command_db()`."""
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
    """`--homebrew DIR`: add the homebrew characters of DIR's YAML files to the database `command_db()` loads."""
    return click.option("--homebrew", type=click.Path(file_okay=False, exists=True, path_type=Path),
                        expose_value=False, callback=lambda ctx, _, value: ctx.meta.update({"scriptforge.scripts.homebrew": value}),
                        help="Folder of homebrew character YAML files (both languages) to use with the database."
                        )(command)


def game_option(command):
    """`--game`: the rule set; botc (default) is Blood on the Clocktower, the others live in scriptforge.db.games."""
    return click.option("--game", type=click.Choice(list(GAMES)), default=SCRIPTED_GAME,
                        show_default=True, help=f"Rule set: {SCRIPTED_GAME}, or {', '.join(OTHER_GAMES)}.")(command)



def skip_unknown_option(command):
    """`--skip-unknown`: use a script whose unknown characters would otherwise refuse it (`script_analysis`)."""
    return click.option("--skip-unknown", is_flag=True, expose_value=False,
                        callback=lambda ctx, _, value: ctx.meta.update({"scriptforge.skip_unknown": value}),
                        help="Use the script even if it names unknown characters: they are left out, "
                             "with a warning naming them. Default: refuse it (exit 1).")(command)


def skip_unknown() -> bool:
    return bool(click.get_current_context().meta.get("scriptforge.skip_unknown"))


def script_analysis(path, db, **options):
    """The analysis of the script file at `path` ("-": stdin); a script naming characters
    scriptforge cannot use is refused (see --skip-unknown)."""
    # deferred: start-up time
    from scriptforge.scripts.analysis import analyse
    from scriptforge.scripts.script import read_script, refuse_unknown

    script = read_script(path, db)
    for warning in refuse_unknown(script, skip_unknown()):
        echo(f"Warning: {path}: {warning}", err=True)
    return analyse(script, db, **options)
