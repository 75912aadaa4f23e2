"""Printing: build, nightsheet, tokens, almanac and watch, with the options they share."""

from dataclasses import replace
import functools
from pathlib import Path
import sys

import click

from scriptforge.model.rule_sets import OTHER_GAMES, rule_set
from scriptforge.cli.common import (LANGS, command_db, data_options, default_lang, echo, fail_cleanly,
                                    findings_options, findings_selection, game_option, shown,
                                    skip_unknown_option)
from scriptforge.render.choices import COLUMNS, FETCH_SECONDS, FONT_SIZES, FORMATS, PAPERS, PNG_DPI, TOKEN_DPI


def print_settings_options(command):
    """The options every printing command shares, from this one definition: the output, language,
    paper, format and PNG resolution, the pictures and the network, the fonts, the layout, the data
    (--pack, --no-packs, --homebrew) and --skip-unknown. The command gets `out`, `skip_unknown`,
    `data` (see cli.common.data_options) and one `settings` (render.options.PrintSettings) for the rest."""

    @functools.wraps(command)
    def with_settings(*args, lang, paper, fmt, dpi, icons_dir, allow_network, fetch_timeout, system_fonts,
                      columns, compact, font_size, player_table, players, teensy, **kwargs):
        # deferred: start-up time (the options are parsed before a command runs; the values only then)
        from scriptforge.render.options import PrintOptions, PrintSettings

        layout = PrintOptions(columns=int(columns), compact=compact, font_size=font_size,
                              player_table=player_table, players=players, teensy=teensy)
        settings = PrintSettings(lang=lang, paper=paper, fmt=fmt, dpi=dpi, icons_dir=icons_dir,
                                 allow_network=allow_network, fetch_seconds=fetch_timeout,
                                 system_fonts=system_fonts, layout=layout)
        return command(*args, settings=settings, **kwargs)

    options = [
        click.option("-o", "--output", "out", type=click.Path(),
                     help="Output file ('-': standard output); a folder if it ends in / or several scripts "
                          "are given. Default: the script's file name with the command's suffix and the "
                          "format's, here."),
        click.option("--lang", type=LANGS, default=default_lang("sheet"), show_default=True,
                     help="ko+en: Korean texts with each English name small beside it."),
        click.option("--paper", type=click.Choice(PAPERS), default=PAPERS[0], show_default=True),
        click.option("--format", "fmt", type=click.Choice(FORMATS),
                     help="pdf, html or png (one image per page). Default: the -o file's suffix, else pdf."),
        click.option("--dpi", type=click.IntRange(36, 1200),
                     help=f"Resolution of PNG output (stored in the file). Default: {PNG_DPI}; tokens {TOKEN_DPI}."),
        click.option("--icons", "icons_dir", type=click.Path(file_okay=False, exists=True, path_type=Path),
                     help="Folder of character images named by id (<id>.png, .webp, .svg or .jpg)."),
        click.option("--allow-network", is_flag=True,
                     help="Fetch remote images (homebrew `image` URLs) and keep them in the user cache, "
                          "which later builds use without the network. Off by default."),
        click.option("--fetch-timeout", type=click.FloatRange(min=0.1), default=FETCH_SECONDS, show_default=True,
                     help="With --allow-network: seconds a remote image may take (the whole download); all of "
                          "them together get four times that."),
        click.option("--system-fonts/--no-system-fonts", default=None,
                     help="Also use the system's fonts (fontconfig) on every page, or never (a page the bundled "
                          "fonts cannot set is then refused, naming the font package). Default: only where the "
                          "bundled fonts lack letters of the page (Japanese, Chinese, Thai …)."),
        click.option("--columns", type=click.Choice([str(c) for c in COLUMNS]), default=str(COLUMNS[0]),
                     show_default=True, help="The character sheet's rows in one or two columns."),
        click.option("--compact", is_flag=True, help="Compact layout: tighter rows, smaller badges and headings."),
        click.option("--font-size", "font_size", type=click.Choice(list(FONT_SIZES)), default="normal",
                     show_default=True, help="Text size: large is 15 % larger (a sheet that then does not fit "
                                             "is set smaller in steps, with a warning)."),
        click.option("--player-table/--no-player-table", "player_table", default=True,
                     help="The 5-15 player-count table on the back page (--back) and the almanac's last page. "
                          "Default: shown."),
        click.option("--players", type=click.IntRange(5, 20),
                     help="The player count the night order is for: below 7, no Minion or Demon info "
                          "(as `scriptforge night --players`)."),
        click.option("--teensy/--no-teensy", "teensy", default=None,
                     help="Teensyville layout (a script for 5-6 players: the player table for 5 and 6, nights "
                          "without Minion and Demon info). Default: chosen for the script "
                          "(_meta.teensyville, else 13 or fewer player characters)."),
    ]
    decorated = skip_unknown_option(data_options(with_settings, homebrew=True))
    for option in reversed(options):
        decorated = option(decorated)
    return decorated


def selection_options(command):
    """`--only`, `--new-only` and `--known FILE`, given to the command as one `choice`
    (scripts.selection.CharacterChoice): which characters tokens, almanac pages or night steps are for."""

    @functools.wraps(command)
    def with_choice(*args, only, new_only, known, **kwargs):
        # deferred: start-up time
        from scriptforge.scripts.selection import CharacterChoice

        return command(*args, choice=CharacterChoice(only=only, new_only=new_only, known=known), **kwargs)

    options = [
        click.option("--only", multiple=True, metavar="TEAM|ID",
                     help="Only these teams or characters (repeatable or comma-separated); their reminders "
                          "and night steps follow them."),
        click.option("--new-only", is_flag=True,
                     help="Only the characters new to the table: not in the boxed game (tb, bmr, snv), or, "
                          "with --known, not on that list."),
        click.option("--known", type=click.Path(dir_okay=False, exists=True, path_type=Path),
                     help="The characters your table already knows, for --new-only: a script JSON or a "
                          "text file with one id or name a line."),
    ]
    for option in reversed(options):
        with_choice = option(with_choice)
    return with_choice


def sheet_part_options(command):
    """`--back` and `--night`: the pages a sheet adds (build, nightsheet, watch)."""
    command = click.option("--night", is_flag=True, help="Add the first-night and other-nights pages.")(command)
    return click.option("--back", is_flag=True, help="Add a back page: setup table and compact night order.")(command)


jobs_option = click.option(
    "-j", "--jobs", type=click.IntRange(min=1), default=1, show_default=True,
    help="Scripts rendered at a time: more than 1 forks worker processes after the first script has "
         "loaded fonts and templates. Default: one process.")


def _echo_written(written, pages, out) -> None:
    """The files written, one a line; on stderr when the output itself went to stdout."""
    # deferred: start-up time
    from scriptforge.render.outputs import STDOUT, written_lines

    for line in written_lines(written, pages):
        echo(line, err=out == STDOUT)


def _render_scripts(scripts, out, settings, data, skip_unknown, jobs, *, suffix="", builder=None,
                    default_dpi=PNG_DPI, **options):
    """Render every script named (files or folders) with `builder` (pipeline.build by default) and
    say what was written; `options`: the builder's own keyword options."""
    # deferred: start-up time
    from scriptforge.io.batch import Failure, can_fork, exit_code
    from scriptforge.text import outputs as outputs_text
    from scriptforge.render.pdf import Renderer
    from scriptforge.render.pipeline import build_all, script_files
    from scriptforge.render.outputs import output_format, output_target

    settings = replace(settings, fmt=output_format(out, settings.fmt, FORMATS))
    files = script_files(scripts)
    many = len(files) > 1 or any(Path(s).is_dir() for s in scripts)
    if jobs > 1 and many and not can_fork():
        echo("Warning: --jobs needs processes that can be forked, which this system lacks: "
                   "rendering in one process.", err=True)
    db = command_db(data)
    renderer = Renderer.for_settings(settings, data.chosen_packs(), dpi=default_dpi)
    fmt = settings.fmt
    targets = lambda path, name: output_target(path, out, fmt, many, suffix, name)  # noqa: E731
    options = dict(targets=targets, jobs=jobs, skip_unknown=skip_unknown, settings=settings, builder=builder, **options)
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


def _render_game(game, scripts, out, settings, back, night, *, sheet):
    # deferred: start-up time
    from scriptforge.render.pdf import Renderer
    from scriptforge.render.pipeline import build_game
    from scriptforge.render.outputs import output_format

    settings = replace(settings, fmt=output_format(out, settings.fmt, FORMATS))
    result = build_game(game, Renderer.for_settings(settings), out=out, settings=settings, sheet=sheet, night=night,
                        scripts=scripts, back=back)
    for warning in result.warnings:
        echo(f"Warning: {game}: {warning}", err=True)
    _echo_written(result.written, result.pages, out)


@click.command()
@click.argument("scripts", nargs=-1)
@print_settings_options
@sheet_part_options
@selection_options
@jobs_option
@game_option
@fail_cleanly
def build(scripts, out, settings, back, night, choice, jobs, game, skip_unknown, data):
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
        scriptforge build my.json --back --night --new-only   # the nights: only the new characters' steps
        scriptforge build --game salem --lang ko+en      # salem-sheet.pdf: every role and card
    """
    if not rule_set(game).from_scripts:
        return _render_game(game, scripts, out, settings, back, night, sheet=True)
    if not scripts:
        raise click.UsageError(f"Missing argument 'SCRIPTS...' (or give --game {'|'.join(OTHER_GAMES)}).")
    _render_scripts(scripts, out, settings, data, skip_unknown, jobs, back=back, night=night, choice=choice)


@click.command()
@click.argument("script", nargs=-1)
@print_settings_options
@sheet_part_options
@jobs_option
@game_option
@fail_cleanly
def nightsheet(script, out, settings, back, night, jobs, game, skip_unknown, data):
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
        return _render_game(game, script, out, settings, back, True, sheet=False)
    if not script:
        raise click.UsageError(f"Missing argument 'SCRIPT...' (or give --game {'|'.join(OTHER_GAMES)}).")
    _render_scripts(script, out, settings, data, skip_unknown, jobs, suffix="-night", back=back, night=True,
                    sheet=False)


@click.command()
@click.argument("scripts", nargs=-1, required=True)
@print_settings_options
@click.option("--size", default="44/25", show_default=True, metavar="CHAR/REMINDER",
              help="Cut diameters in mm of the character and reminder tokens: 44/25, 38/19, or any two numbers.")
@click.option("--bleed", type=click.FloatRange(0, 5), default=1.0, show_default=True,
              help="How far (mm) the art goes past the cut line.")
@selection_options
@click.option("--mirror", is_flag=True, help="Mirror the token pages (for printing on the back of transparent film).")
@jobs_option
@fail_cleanly
def tokens(scripts, out, settings, size, bleed, choice, mirror, jobs, skip_unknown, data):
    """Print a script's character and reminder tokens: a cover page with the counts, then the tokens
    packed on A4 or Letter with cut lines, crop marks and bleed, to print at 100 % and cut or punch.

    One character token per character (Travellers and Fabled too), one reminder token per reminder
    the data lists (repeats included) and the global reminders. Names curve along the lower edge.
    The sheets' layout options (--columns, --compact, ...) are refused: tokens have no rows.

    \b
    Example:
        scriptforge tokens examples/faith-trust-and-pixie-dust.json --lang ko
        scriptforge tokens script.json --size 38/19 --paper letter --new-only -o tokens.pdf
        scriptforge tokens scripts/ -o tokens/ --lang ko+en --only townsfolk,outsider
    """
    # deferred: start-up time
    from scriptforge.render.pipeline import build_tokens
    from scriptforge.render.tokens import token_options

    _render_scripts(scripts, out, settings, data, skip_unknown, jobs, suffix="-tokens", builder=build_tokens,
                    default_dpi=TOKEN_DPI, choice=choice,
                    token_options=token_options(size, bleed, mirror))


@click.command()
@click.argument("script", type=click.Path(dir_okay=False, path_type=Path))
@print_settings_options
@sheet_part_options
@findings_options
@click.option("--renders", type=click.IntRange(min=1), hidden=True, help="Stop after this many renders (tests).")
@fail_cleanly
def watch(script, out, settings, back, night, select, ignore, renders, skip_unknown, data):
    """Print SCRIPT's sheet now and again whenever the script, a --homebrew file or an --icons file
    changes, until Ctrl-C; each time, what was written and how the findings moved.

    Takes build's options (but one script and no --jobs). The output is replaced atomically, so a
    PDF viewer that reloads changed files shows every save; a save that cannot be read prints its
    error and the watch goes on.

    \b
    Example:
        scriptforge watch my-script.json -o my-script.pdf --lang ko --night
        scriptforge watch my-script.json --columns 2 --compact --players 6
    """
    # deferred: start-up time
    from scriptforge.render.outputs import output_format, output_target
    from scriptforge.render.pdf import Renderer
    from scriptforge.render.watch import Watch

    settings = replace(settings, fmt=output_format(out, settings.fmt, FORMATS))
    chosen = findings_selection(select, ignore, "script")
    fmt = settings.fmt
    options = dict(skip_unknown=skip_unknown, settings=settings, back=back, night=night)
    Watch(script, data.load, Renderer.for_settings(settings),
          lambda path, name: output_target(path, out, fmt, False, "", name), options, homebrew=data.homebrew,
          icons=settings.icons_dir, chosen=chosen).run(echo, renders)


@click.command("almanac")
@click.argument("script")
@print_settings_options
@selection_options
@fail_cleanly
def almanac(script, out, settings, choice, skip_unknown, data):
    """Render a script's almanac for storytellers: cover with the character sheet and contents,
    a page per character (ability, flavor, overview, how to run, examples & notes, then its night
    order, reminder tokens, setup and jinxes) and closing pages with the night order and the
    player-count table.

    A text missing in the chosen language is printed in the other language, marked, and one
    warning names the characters concerned. --only, --new-only (--known) print only those
    characters' pages; the cover's sheet and the closing pages stay whole.

    \b
    Example:
        scriptforge almanac examples/fang-gu-zealot.json --lang ko
        scriptforge almanac examples/english-almanac-25.json --lang en --paper letter -o almanac.pdf
        scriptforge almanac examples/fang-gu-zealot.json --columns 2 --font-size large --no-player-table
        scriptforge almanac examples/fang-gu-zealot.json --new-only --known played.txt
    """
    # deferred: start-up time
    from scriptforge.render.outputs import output_format, output_target
    from scriptforge.render.pdf import Renderer
    from scriptforge.render.pipeline import build_almanac

    settings = replace(settings, fmt=output_format(out, settings.fmt, FORMATS))
    db = command_db(data)
    fmt = settings.fmt
    result = build_almanac(script, db, Renderer.for_settings(settings, data.chosen_packs()), settings=settings,
                           skip_unknown=skip_unknown, choice=choice,
                           target=lambda path, name: output_target(path, out, fmt, False, "-almanac", name))
    for warning in result.warnings:
        echo(f"Warning: {script}: {warning}", err=True)
    _echo_written(result.written, result.pages, out)


@click.command()
@click.argument("script")
@print_settings_options
@click.option("--bag", multiple=True, metavar="IDS",
              help="The characters dealt (ids or names, comma-separated or repeated), one per player: the "
                   "night sheet keeps their steps, the tokens are theirs. `scriptforge setup SCRIPT --players "
                   "N --draw` proposes one. Default: the whole script.")
@selection_options
@click.option("--size", default="44/25", show_default=True, metavar="CHAR/REMINDER",
              help="Cut diameters in mm of the character and reminder tokens (as `tokens --size`).")
@click.option("--split", is_flag=True, help="Also write each part as its own PDF beside the kit "
                                            "(<kit>-sheet.pdf, -night, -tokens, -almanac).")
@fail_cleanly
def kit(script, out, settings, bag, choice, size, split, skip_unknown, data):
    """Print one game's kit in one PDF: the players' character sheet, the night sheet for --players
    (with --bag: only the in-play characters' steps), the character and reminder tokens the bag
    needs, and the almanac pages of the characters --only / --new-only choose among the bag's.

    Takes every print option of `build`. Output defaults to <script>-kit.pdf.

    \b
    Example:
        scriptforge kit examples/faith-trust-and-pixie-dust.json --players 7 --lang ko
        scriptforge kit my.json --players 11 --bag "imp,baron,recluse,..." --new-only --split
    """
    # deferred: start-up time
    from scriptforge.render.outputs import output_format, output_target
    from scriptforge.render.pdf import Renderer
    from scriptforge.render.pipeline import build_kit
    from scriptforge.render.tokens import token_options

    settings = replace(settings, fmt=output_format(out, settings.fmt, FORMATS))
    fmt = settings.fmt
    result = build_kit(script, command_db(data), Renderer.for_settings(settings, data.chosen_packs()),
                       settings=settings, bag=bag, choice=choice, split=split, skip_unknown=skip_unknown,
                       token_options=token_options(size), target=lambda path, name: output_target(path, out, fmt, False, "-kit", name))
    for warning in result.warnings:
        echo(f"Warning: {script}: {warning}", err=True)
    _echo_written(result.written, result.pages, out)
    for path in result.parts:
        echo(str(path))
