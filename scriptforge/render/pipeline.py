"""From files to printed files: read a script, analyse it, make the view, render, write.

The library behind `scriptforge build`, `nightsheet`, `almanac` and the game sheets (one
Renderer, so fonts, templates and CSS are loaded once per batch). The only module that both reads
user files and writes outputs; `render/` turns views into bytes and touches no script file.
"""

from dataclasses import dataclass, field
from pathlib import Path
import shutil
from typing import TYPE_CHECKING, Any, Callable

from scriptforge.scripts.analysis import analyse
from scriptforge.io import collector
from scriptforge.io.batch import Failure, attempt, can_fork
from scriptforge.io.errors import InputError
from scriptforge.render.outputs import check_targets, output_target, write_rendered
from scriptforge.render.pdf import Renderer
from scriptforge.render.typefaces import require_printable
from scriptforge.render.options import PrintSettings
from scriptforge.render.views import make_view
from scriptforge.model.rule_sets import SCRIPTED_GAME
from scriptforge.scripts.schema import length_findings
from scriptforge.scripts.selection import CharacterChoice, chosen_characters
from scriptforge.scripts.script import Script, read_script, refuse_unknown
from scriptforge.io.userfiles import reserved_name

if TYPE_CHECKING:
    from scriptforge.db.database import Database


@dataclass
class BuildResult:
    """What building one script came to: the files written, the page count and
    the warnings (and its Analysis, where kept)."""

    script: Path
    written: list[Path] = field(default_factory=list)
    pages: int = 0
    warnings: list[str] = field(default_factory=list)
    analysis: Any = None  # the script's Analysis, with build(keep_analysis=True) (scriptforge.render.watch)
    parts: list[Path] = field(default_factory=list)  # build_kit(split=True): each part's own file


def script_files(paths) -> list[Path]:
    """The script files named: files as given, folders expanded to their *.json files (sorted)."""
    out: list[Path] = []
    for path in map(Path, paths):
        if path.is_dir():
            found = sorted(p for p in path.glob("*.json") if p.is_file())
            if not found:
                raise InputError("the folder holds no .json script files", where=str(path))
            out.extend(found)
        else:
            out.append(path)
    return out


Targets = Callable[[Path, str | None], Path]  # (script path, script name) -> output path


def _resolved(target: "Path | Targets", script_path, script) -> Path:
    """Where this script's output goes: `target`, or where `target` puts it by the script's path
    and name (a script read from stdin is named by its name); refused if that is the input."""
    if callable(target):
        target = target(Path(script_path), script.name)
    check_targets([(Path(script_path), target)])
    return target


def script_folder(script_path: Path | str) -> Path | None:
    """The folder a script's own pictures may come from: the script file's; none for standard
    input (which has no folder: only data: URLs and --icons, never the current folder)."""
    return None if str(script_path) == "-" else Path(script_path).resolve().parent


def renamed_warning(script_path: Path | str, target: Path) -> list[str]:
    """The line that says an output was named `CON_.pdf` because Windows reserves `CON`."""
    stem = Path(script_path).stem
    if str(script_path) == "-" or not reserved_name(stem) or not Path(target).name.startswith(f"{stem}_"):
        return []
    return [f"'{stem}' is a name Windows reserves: written as {Path(target).name}"]


PRINTABLE_TIMES = 10  # a text up to ten times its official limit is printed (validate reports text-too-long)


def read_printable_script(script_path: Path, db: "Database") -> Script:
    """The script at `script_path`; InputError when a text is too long to lay out in reasonable time."""
    script = read_script(script_path, db)
    for f in length_findings(script.document):
        length, limit = f.data["length"], f.data["limit"]
        if length > PRINTABLE_TIMES * limit:
            raise InputError(f"{f.path}: {f.data['field']} is {length} characters long, too long to print "
                             f"(the official limit is {limit}; sheets print up to {PRINTABLE_TIMES * limit})",
                             where=str(script_path))
    return script


def _started(script_path: Path, db, renderer: Renderer, settings: PrintSettings, target: "Path | Targets",
             skip_unknown: bool) -> tuple[Path, "BuildResult", Any, Any]:
    """What a sheet and a kit start with: the script read (refused where the language cannot be
    printed, or where it names unknown characters unless `skip_unknown`), its output path, the
    result with the warnings so far, the layout resolved for it, and its analysis."""
    require_printable(settings.lang, settings.fmt or "pdf", renderer.system_fonts)
    script = read_printable_script(script_path, db)
    target = _resolved(target, script_path, script)
    result = BuildResult(script=Path(script_path), warnings=refuse_unknown(script, skip_unknown))
    result.warnings += renamed_warning(script_path, target)
    options = settings.layout.for_script(script)
    return target, result, options, analyse(script, db, players=options.night_players)


def build(script_path: Path, db, renderer: Renderer, *, target: Path | Targets,
          settings: PrintSettings = PrintSettings(), back: bool = False, night: bool = False, sheet: bool = True,
          skip_unknown: bool = False, keep_analysis: bool = False, durable: bool = True,
          choice: CharacterChoice = CharacterChoice()) -> BuildResult:
    """Read one script, render it and write the output(s) to `target` (see `_resolved`); a script
    naming unknown characters is refused unless `skip_unknown` (then they are left out with a warning).
    With `keep_analysis` the result keeps the script's Analysis. `settings`: language, paper,
    format (pdf where None) and the layout (columns, compact, font size, player table, the night's
    player count, Teensyville). `choice` (scripts.selection): the night order of the back page and
    night pages keeps only those characters' steps. `durable=False` writes without waiting for the
    disk (still atomic: `watch`'s preview, see outputs.write_rendered)."""
    lang, fmt = settings.lang, settings.fmt or "pdf"
    target, result, options, analysis = _started(script_path, db, renderer, settings, target, skip_unknown)
    if keep_analysis:
        result.analysis = analysis
    if back or night:  # a night order printed from a broken _meta list: said, as validate says it
        result.warnings += analysis.night_order_warnings()
    in_play = {ch.id for ch in chosen_characters(analysis.characters, choice, db)} if choice else None
    view = make_view(analysis, lang, settings.paper, sheet=sheet, back=back, night=night, options=options,
                     in_play=in_play)
    if view.fallbacks:
        result.warnings.append(f"{len(view.fallbacks)} text(s) have no '{view.html_lang}' text and are printed "
                               f"in another language, marked {', '.join(view.fallback_tags)}: "
                               f"{', '.join(view.fallbacks[:6])}{'…' if len(view.fallbacks) > 6 else ''}")
    if view.stale:
        result.warnings.append(f"{len(view.stale)} official translation(s) were made before their English changed "
                               f"and are printed marked (pack update --stale english prints the English): "
                               f"{', '.join(view.stale[:6])}{'…' if len(view.stale) > 6 else ''}")
    rendered = renderer.render(view, fmt, base_dir=script_folder(script_path))
    result.warnings.extend(rendered.warnings)
    result.pages = rendered.pages
    result.written = write_rendered(rendered, target, durable=durable)
    return result


def build_all(paths: list[Path], db, renderer: Renderer, *, targets: Targets, jobs: int = 1,
              done: Callable[[BuildResult | Failure], None] = lambda result: None,
              builder: "Callable[..., BuildResult] | None" = None, **options) -> list[BuildResult | Failure]:
    """`build` (or `builder`: `build_tokens`) every script in `paths`; the results in input order,
    a `Failure` for each script that could not be built (the batch goes on: see scriptforge.io.batch);
    `done` is called after each.

    With ``jobs`` > 1 (and where processes can be forked) the first script is built here, which
    loads the fonts, templates and CSS, and the others by ``jobs`` worker processes forked from
    this one, so they share what is loaded. Each file is written whole or not at all. Two
    scripts that would write one file, or an output that is an input, stop the batch before
    anything is written (``outputs.check_targets``).
    """
    check_targets([(path, targets(path, None)) for path in paths if str(path) != "-"])
    make = builder or build

    def one(path: Path) -> BuildResult | Failure:
        result = attempt(lambda p: make(p, db, renderer, target=targets, **options), path)
        done(result)
        if len(paths) > 1:
            collector.collect_young()  # what this render left in reference cycles
        return result

    if jobs <= 1 or len(paths) < 3 or not can_fork():
        with collector.paused():
            results = [one(path) for path in paths]
        collector.leave_alone()  # what the last render left: the command ends soon (io.collector)
        return results
    # deferred: start-up time
    from concurrent.futures import ProcessPoolExecutor  # only here: a run at one job never imports them
    import multiprocessing

    results = [one(paths[0])]
    global _forked_batch
    _forked_batch = (db, renderer, targets, make, options)
    with collector.frozen():  # the loaded objects stay out of the collector's way: forked copies share them
        executor = ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("fork"),
                                       initializer=_start_worker)
        try:
            for future in [executor.submit(_build_in_worker, path) for path in paths[1:]]:
                results.append(future.result())
                done(results[-1])
        finally:
            executor.shutdown(cancel_futures=True)
            _forked_batch = None
    return results


_forked_batch: "tuple[Database, Renderer, Targets, Callable[..., BuildResult], dict[str, Any]] | None" = None
# (db, renderer, targets, builder, options) of the running `build_all`, seen by its workers


def _start_worker() -> None:
    """Worker processes end without freeing their objects, so WeasyPrint never deletes the
    temporary folders of @font-face fonts first loaded in a worker: they are deleted as it ends
    (the folders it inherited belong to the parent, which deletes them)."""
    # deferred: start-up time
    import multiprocessing.util

    assert _forked_batch is not None
    renderer = _forked_batch[1]
    inherited = renderer.fonts.temporary_folders()

    def delete_own_font_folders():
        for folder in renderer.fonts.temporary_folders() - inherited:
            shutil.rmtree(folder, ignore_errors=True)

    multiprocessing.util.Finalize(None, delete_own_font_folders, exitpriority=0)


def _build_in_worker(path: Path) -> BuildResult | Failure:
    assert _forked_batch is not None
    db, renderer, targets, make, options = _forked_batch
    return attempt(lambda p: make(p, db, renderer, target=targets, **options), path)


def build_almanac(script_path: Path, db, renderer: Renderer, *, target: Path | Targets,
                  settings: PrintSettings = PrintSettings(), skip_unknown: bool = False,
                  choice: CharacterChoice = CharacterChoice()) -> BuildResult:
    """Read one script, render its almanac and write it to `target` (see `_resolved`); a script
    naming unknown characters is refused unless `skip_unknown`; `settings` as for `build`;
    `choice` (scripts.selection): the character pages printed (the cover sheet stays whole)."""
    # deferred: start-up time
    from scriptforge.render.almanac import almanac_view, fallback_warning, render_almanac

    lang, fmt = settings.lang, settings.fmt or "pdf"
    require_printable(lang, fmt, renderer.system_fonts)
    script = read_printable_script(script_path, db)
    target = _resolved(target, script_path, script)
    result = BuildResult(script=Path(script_path), warnings=refuse_unknown(script, skip_unknown))
    result.warnings += renamed_warning(script_path, target)
    options = settings.layout.for_script(script)
    analysis = analyse(script, db, players=options.night_players)
    pages = [ch.id for ch in chosen_characters(analysis.characters, choice, db)] if choice else None
    view = almanac_view(analysis, lang, settings.paper, options, pages=pages)
    note = fallback_warning(view)
    if note:
        result.warnings.append(note)
    try:
        rendered = render_almanac(view, renderer, fmt, script_folder(script_path))
    except InputError as exc:  # a page the fonts cannot set (--no-system-fonts): named by its script
        raise exc if exc.where else InputError(str(exc), where=str(script_path)) from None
    result.warnings.extend(rendered.warnings)
    result.pages = rendered.pages
    result.written = write_rendered(rendered, target)
    return result


def build_tokens(script_path: Path, db, renderer: Renderer, *, target: Path | Targets,
                 settings: PrintSettings = PrintSettings(), choice: CharacterChoice = CharacterChoice(),
                 token_options=None, skip_unknown: bool = False) -> BuildResult:
    """Read one script, render its token sheets (cover page, character and reminder tokens) and
    write them to `target` (see `_resolved`); `token_options`: a ``render.tokens.TokenOptions``
    (sizes, bleed, mirror); `choice`: the characters (scripts.selection); `settings`: language,
    paper and format (the sheets' layout options are refused: tokens have no rows or nights)."""
    # deferred: start-up time
    from scriptforge.render.tokens import TokenOptions, render_tokens, tokens_view
    from scriptforge.scripts.tokens import token_set

    lang, paper, fmt = settings.lang, settings.paper, settings.fmt or "pdf"
    if settings.layout.changed():
        raise InputError(f"{', '.join(settings.layout.changed())}: for sheets, night sheets and almanacs, not tokens")
    require_printable(lang, fmt, renderer.system_fonts)
    script = read_printable_script(script_path, db)
    target = _resolved(target, script_path, script)
    result = BuildResult(script=Path(script_path), warnings=refuse_unknown(script, skip_unknown))
    analysis = analyse(script, db)
    view = tokens_view(analysis, token_set(analysis, choice), lang, paper, token_options or TokenOptions())
    base_dir = Path(script_path).resolve().parent if str(script_path) != "-" else None
    rendered = render_tokens(view, renderer, fmt, base_dir)
    result.warnings.extend(rendered.warnings)
    result.pages = rendered.pages
    result.written = write_rendered(rendered, target)
    return result


def build_game(game: str, renderer: Renderer, *, out: Path | None = None, settings: PrintSettings = PrintSettings(),
               sheet: bool = True, night: bool = False, scripts=(), back: bool = False) -> BuildResult:
    """Render a game's reference sheet and/or moderator's sheet and write the output(s).

    `scripts`, `back`, `settings.icons_dir` and layout options other than the defaults belong to
    Blood on the Clocktower scripts; given with a game they are a user mistake (InputError).
    """
    # deferred: start-up time
    from scriptforge.db.games import load_game
    from scriptforge.render.game_views import game_view

    if scripts:
        raise InputError(f"--game {game} takes no script files (got {scripts[0]}); "
                         f"drop them, or use --game {SCRIPTED_GAME} to render scripts")
    lang, paper, fmt = settings.lang, settings.paper, settings.fmt or "pdf"
    changed = settings.layout.changed()
    for flag, value in (("--back", back), ("--icons", settings.icons_dir), (", ".join(changed), changed)):
        if value:
            raise InputError(f"{flag} is for Blood on the Clocktower scripts, not --game {game}")
    view = game_view(load_game(game), lang, paper, sheet=sheet, night=night)
    template = "game_sheet.html.j2" if sheet else "game_night.html.j2"
    suffix = "-sheet" if sheet else "-night"
    result = BuildResult(script=Path(game))
    rendered = renderer.render_document(view, template, fmt, balance=True)
    result.warnings.extend(rendered.warnings)
    result.pages = rendered.pages
    result.written = write_rendered(rendered, output_target(Path(game), out, fmt, False, suffix))
    return result


def build_kit(script_path: Path, db, renderer: Renderer, *, target: Path | Targets,
              settings: PrintSettings = PrintSettings(), bag: tuple[str, ...] = (),
              choice: CharacterChoice = CharacterChoice(), split: bool = False, skip_unknown: bool = False,
              token_options=None) -> BuildResult:
    """Read one script and write its game kit (render.kit) for `settings.layout.players` players
    and the `bag` dealt: one PDF (or PNG pages) at `target`, and with `split` also one file per
    part beside it (<target>-sheet.pdf, -night, -tokens, -almanac)."""
    # deferred: start-up time
    from scriptforge.render.kit import bag_of, combined, render_kit

    lang, fmt = settings.lang, settings.fmt or "pdf"
    if fmt == "html":
        raise InputError("a kit is printed as PDF or PNG pages: its parts are separate documents, not one HTML page")
    players = settings.layout.players
    if players is None:
        raise InputError("a kit is for one game: give --players N (5-20)")
    target, result, options, analysis = _started(script_path, db, renderer, settings, target, skip_unknown)
    in_play = bag_of(analysis, bag, players, result.warnings)
    parts = render_kit(analysis, renderer, lang=lang, paper=settings.paper, options=options, in_play=in_play,
                       choice=choice, base_dir=script_folder(script_path), token_options=token_options)
    whole = combined(parts, fmt, renderer.dpi)
    result.warnings.extend(whole.warnings)
    result.pages = whole.pages
    result.written = write_rendered(whole, target)
    if split and fmt == "pdf" and str(target) != "-":
        for part in parts:
            own = Path(target).with_name(f"{Path(target).stem}-{part.name}{Path(target).suffix}")
            result.parts += write_rendered(part.rendered, own)
    return result
