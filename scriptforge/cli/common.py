"""What the commands share: the language choice, options given to several commands, the database they
load, echo and JSON output, and the one-line error."""

from collections.abc import Iterator
import contextlib
import functools
import json
from pathlib import Path
import sys
import os
from typing import TYPE_CHECKING

import click

from scriptforge.io.errors import ScriptforgeError
from scriptforge.model.rule_sets import GAMES, OTHER_GAMES, SCRIPTED_GAME, selection
from scriptforge.model.languages import codes, default, resolve

if TYPE_CHECKING:
    from scriptforge.db.sources import DataSources


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


def command_db(data: "DataSources"):
    """The database `data` names, with its homebrew folder's characters."""
    db = data.load()
    if data.homebrew:
        # deferred: start-up time
        from scriptforge.scripts.homebrew import with_homebrew

        db = with_homebrew(db, data.homebrew)
    return db


def rule_sets_for(choice: str, data: "DataSources"):
    """(BotC's database or None, {game id: GameDatabase}) for a --game choice: a rule set, or
    every one (l10n's "all")."""
    # deferred: start-up time
    from scriptforge.db.games import load_games

    with_scripts, others = selection(choice)
    return (command_db(data) if with_scripts else None), load_games(others)


def complete_name(ctx, param, incomplete):
    """Shell completion of a character, role or step argument: ids and names in every language of
    the rule sets the command's --game chose (BotC's database by default; the cached databases, so
    it is quick); where none matches, the shell completes a file name instead (a homebrew YAML file)."""
    # deferred: start-up time
    from click.shell_completion import CompletionItem

    try:
        with ctx:
            data = sources(ctx, ctx.params.get("packs", ()), ctx.params.get("no_packs", False),
                           ctx.params.get("homebrew"))
            names = [name for where in name_sources(ctx.params.get("game") or SCRIPTED_GAME, data)
                     for name in where.complete(incomplete)]
    except ScriptforgeError:  # a broken data folder: no suggestions rather than an error mid-line
        names = []
    return [CompletionItem(name) for name in dict.fromkeys(names)] or [CompletionItem(incomplete, type="file")]


def name_sources(choice: str, data: "DataSources") -> list:
    """The databases whose names a --game choice takes: BotC's, then the other games chosen."""
    db, games = rule_sets_for(choice, data)
    return [*([db] if db is not None else []), *games.values()]


def data_dir():
    """$SCRIPTFORGE_DATA: another data folder instead of the shipped one (for tests and translators)."""
    return os.environ.get("SCRIPTFORGE_DATA") or None


def sources(ctx: click.Context, packs=(), no_packs: bool = False, homebrew: Path | None = None) -> "DataSources":
    """The DataSources of a command's --pack, --no-packs and --homebrew, after the `scriptforge`
    group's own --pack and --no-packs (`scriptforge --no-packs show imp`)."""
    # deferred: start-up time (with the database it loads)
    from scriptforge.db.sources import DataSources

    root = ctx.find_root().params
    return DataSources(data_dir=data_dir(), packs=(*root.get("packs", ()), *packs),
                       defaults=not (no_packs or root.get("no_packs")), homebrew=homebrew)


PACK_HELP = "A data pack (folder or installed name) to load on top of the built-in data; repeatable. Also: $SCRIPTFORGE_PACKS."
NO_PACKS_HELP = "Do not load the installed 'official' pack or $SCRIPTFORGE_PACKS; --pack still adds packs."
HOMEBREW_HELP = "Folder of homebrew character YAML files (both languages) to use with the database."


def pack_options(command):
    """`--pack DIR|NAME` (repeatable) and `--no-packs`, as the `scriptforge` group's own parameters."""
    command = click.option("--no-packs", is_flag=True, help=NO_PACKS_HELP)(command)
    return click.option("--pack", "packs", multiple=True, help=PACK_HELP)(command)


def data_options(command=None, *, homebrew: bool = False):
    """`--pack`, `--no-packs` (and with `homebrew`, `--homebrew DIR`): the command gets them as
    one `data` value (a DataSources) to load its database with (`command_db(data)`)."""
    if command is None:
        return functools.partial(data_options, homebrew=homebrew)

    @functools.wraps(command)
    def with_data(*args, packs, no_packs, **kwargs):
        folder = kwargs.pop("homebrew", None)
        return command(*args, data=sources(click.get_current_context(), packs, no_packs, folder), **kwargs)

    if homebrew:
        with_data = click.option("--homebrew", type=click.Path(file_okay=False, exists=True, path_type=Path),
                                 help=HOMEBREW_HELP)(with_data)
    return pack_options(with_data)


def findings_options(command):
    """`--select` / `--ignore` CODE: codes or code prefixes (repeatable or comma-separated); the
    command gets them as `select` and `ignore` (see `findings_selection`)."""
    command = click.option("--ignore", multiple=True, metavar="CODE",
                           help="Leave out findings with this code or code prefix (repeatable).")(command)
    return click.option("--select", multiple=True, metavar="CODE",
                        help="Report only findings with these codes or code prefixes (repeatable); "
                             "'scriptforge explain --list' lists the codes.")(command)


def findings_selection(select, ignore, domain: str):
    """The --select / --ignore given, checked against `domain`'s codes."""
    # deferred: start-up time
    from scriptforge.model.findings import Selection

    return Selection.of(select, ignore, domain)


def game_option(command):
    """`--game`: the rule set; botc (default) is Blood on the Clocktower, the others live in scriptforge.db.games."""
    return click.option("--game", type=click.Choice(list(GAMES)), default=SCRIPTED_GAME,
                        show_default=True, help=f"Rule set: {SCRIPTED_GAME}, or {', '.join(OTHER_GAMES)}.")(command)



def skip_unknown_option(command):
    """`--skip-unknown`: use a script whose unknown characters would otherwise refuse it (`script_analysis`)."""
    return click.option("--skip-unknown", is_flag=True,
                        help="Use the script even if it names unknown characters: they are left out, "
                             "with a warning naming them. Default: refuse it (exit 1).")(command)


def script_analysis(path, db, skip_unknown: bool = False, **options):
    """The analysis of the script file at `path` ("-": stdin); a script naming characters
    scriptforge cannot use is refused (see --skip-unknown)."""
    # deferred: start-up time
    from scriptforge.scripts.analysis import analyse
    from scriptforge.scripts.script import read_script, refuse_unknown

    script = read_script(path, db)
    for warning in refuse_unknown(script, skip_unknown):
        echo(f"Warning: {path}: {warning}", err=True)
    return analyse(script, db, **options)
