"""Printing: build, nightsheet, tokens, almanac and watch, with the options they share."""

import functools
from pathlib import Path
import sys

import click

from scriptforge.model.rule_sets import OTHER_GAMES, rule_set
from scriptforge.cli.common import (LANGS, base_db, chosen_packs, command_db, default_lang, echo,
                                    fail_cleanly, findings_options, findings_selection, game_option,
                                    homebrew_dir, homebrew_option, shown, skip_unknown, skip_unknown_option)


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
        click.option("--lang", type=LANGS, default=default_lang("sheet"), show_default=True,
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
    from scriptforge.io.batch import Failure, can_fork, exit_code
    from scriptforge.text import outputs as outputs_text
    from scriptforge.render.pipeline import build_all, script_files
    from scriptforge.render.outputs import output_format, output_target
    from scriptforge.render.writing import FORMATS

    fmt = output_format(out, fmt, FORMATS)
    files = script_files(scripts)
    many = len(files) > 1 or any(Path(s).is_dir() for s in scripts)
    if jobs > 1 and many and not can_fork():
        echo("Warning: --jobs needs processes that can be forked, which this system lacks: "
                   "rendering in one process.", err=True)
    db = command_db()
    renderer = _renderer(allow_network=allow_network, icons_dir=icons_dir, dpi=dpi, packs=chosen_packs())
    options = dict(targets=lambda path, name: output_target(path, out, fmt, many, suffix, name), jobs=jobs,
                   skip_unknown=skip_unknown(), lang=lang, paper=paper, fmt=fmt, builder=builder,
                   **(extra if builder else dict(back=back, night=night, sheet=sheet, options=_print_options())))
    if many:
        with click.progressbar(length=len(files), label="Rendering", file=sys.stderr,
                               item_show_func=lambda result: shown(result.script.name) if result else "") as bar:
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
    from scriptforge.render.pipeline import build_game
    from scriptforge.render.outputs import output_format
    from scriptforge.render.writing import FORMATS

    result = build_game(game, _renderer(dpi=dpi), out=out, lang=lang, paper=paper, fmt=output_format(out, fmt, FORMATS),
                        sheet=sheet, night=night, scripts=scripts, back=back, icons_dir=icons_dir,
                        options=_print_options())
    for warning in result.warnings:
        echo(f"Warning: {game}: {warning}", err=True)
    _echo_written(result.written, result.pages, out)


@click.command()
@click.argument("scripts", nargs=-1)
@render_options
@print_options(*PRINT_OPTIONS)
@homebrew_option
@game_option
@skip_unknown_option
@fail_cleanly
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


@click.command()
@click.argument("script", nargs=-1)
@render_options
@print_options("compact", "font_size", "player_table", "players", "teensy")
@homebrew_option
@game_option
@skip_unknown_option
@fail_cleanly
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


@click.command()
@click.argument("scripts", nargs=-1, required=True)
@click.option("-o", "--output", "out", type=click.Path(),
              help="Output file ('-': standard output); a folder if it ends in / or several scripts are given. "
                   "Default: <script>-tokens.pdf here.")
@click.option("--lang", type=LANGS, default=default_lang("sheet"), show_default=True,
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
@fail_cleanly
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
    from scriptforge.render.pipeline import build_tokens
    from scriptforge.render.tokens import token_options

    _render_scripts(scripts, out, lang, paper, fmt, dpi, False, False, icons_dir, allow_network, jobs,
                    suffix="-tokens", builder=build_tokens, only=only, new_only=new_only,
                    token_options=token_options(size, bleed, mirror))


@click.command()
@click.argument("script", type=click.Path(dir_okay=False, path_type=Path))
@functools.partial(render_options, jobs=False)
@findings_options
@homebrew_option
@skip_unknown_option
@click.option("--renders", type=click.IntRange(min=1), hidden=True, help="Stop after this many renders (tests).")
@fail_cleanly
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
    from scriptforge.render.watch import Watch

    fmt = output_format(out, fmt, FORMATS)
    db = base_db()
    options = dict(skip_unknown=skip_unknown(), lang=lang, paper=paper, fmt=fmt, back=back, night=night)
    Watch(script, lambda: db, _renderer(allow_network=allow_network, icons_dir=icons_dir, dpi=dpi),
          lambda path, name: output_target(path, out, fmt, False, "", name), options, homebrew=homebrew_dir(),
          icons=icons_dir, chosen=findings_selection("script")).run(echo, renders)


@click.command("almanac")
@click.argument("script")
@click.option("-o", "--output", "out", type=click.Path(),
              help="Output file ('-': standard output; a folder if it ends in /). "
                   "Default: <script>-almanac.pdf (or .html) in the current folder.")
@click.option("--lang", type=LANGS, default=default_lang("sheet"), show_default=True,
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
@fail_cleanly
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
    from scriptforge.render.pipeline import build_almanac
    from scriptforge.render.outputs import output_format, output_target

    fmt = output_format(out, fmt, ("pdf", "html"))
    db = command_db()
    renderer = _renderer(allow_network=allow_network, icons_dir=icons_dir, packs=chosen_packs())
    result = build_almanac(script, db, renderer, lang=lang, paper=paper, fmt=fmt, skip_unknown=skip_unknown(),
                           options=_print_options(), target=lambda path, name: output_target(path, out, fmt, False, "-almanac", name))
    for warning in result.warnings:
        echo(f"Warning: {script}: {warning}", err=True)
    _echo_written(result.written, result.pages, out)
