"""From files to printed files: read a script, analyse it, make the view, render, write.

The library behind `scriptforge build`, `nightsheet`, `almanac` and the game sheets (one
Renderer, so fonts, templates and CSS are loaded once per batch). The only module that both reads
user files and writes outputs; `render/` turns views into bytes and touches no script file.
"""

from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
import gc
import multiprocessing
import multiprocessing.util
from pathlib import Path
import shutil
from typing import TYPE_CHECKING, Any, Callable

from scriptforge.analysis import analyse
from scriptforge.batch import Failure, attempt
from scriptforge.errors import InputError
from scriptforge.languages import default
from scriptforge.render.outputs import check_targets, output_target, write_rendered
from scriptforge.render.pdf import Renderer, require_printable
from scriptforge.render.views import make_view
from scriptforge.script_schema import length_findings
from scriptforge.script import Script, read_script, refuse_unknown
from scriptforge.userfiles import reserved_name

if TYPE_CHECKING:
    from scriptforge.database import Database


@dataclass
class BuildResult:
    script: Path
    written: list[Path] = field(default_factory=list)
    pages: int = 0
    warnings: list[str] = field(default_factory=list)


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


def build(script_path: Path, db, renderer: Renderer, *, target: Path | Targets, lang: str = default("sheet"),
          paper: str = "a4", fmt: str = "pdf", back: bool = False, night: bool = False, sheet: bool = True,
          skip_unknown: bool = False) -> BuildResult:
    """Read one script, render it and write the output(s) to `target` (see `_resolved`); a script
    naming unknown characters is refused unless `skip_unknown` (then they are left out with a warning)."""
    require_printable(lang, fmt)
    script = read_printable_script(script_path, db)
    target = _resolved(target, script_path, script)
    result = BuildResult(script=Path(script_path), warnings=refuse_unknown(script, skip_unknown))
    result.warnings += renamed_warning(script_path, target)
    view = make_view(analyse(script, db), lang, paper, sheet=sheet, back=back, night=night)
    fallback = [c.name for t in (*view.teams, *view.extra_teams) for c in t.characters if c.fallback]
    if fallback and sheet:
        result.warnings.append(f"{len(fallback)} character(s) have no '{view.html_lang}' text and are printed "
                               f"in another language: {', '.join(fallback[:6])}{'…' if len(fallback) > 6 else ''}")
    rendered = renderer.render(view, fmt, base_dir=script_folder(script_path))
    result.warnings.extend(rendered.warnings)
    result.pages = rendered.pages
    result.written = write_rendered(rendered, target)
    return result


def build_all(paths: list[Path], db, renderer: Renderer, *, targets: Targets, jobs: int = 1,
              done: Callable[[BuildResult | Failure], None] = lambda result: None,
              **options) -> list[BuildResult | Failure]:
    """`build` every script in `paths`; the results in input order, a `Failure` for each script
    that could not be built (the batch goes on: see scriptforge.batch); `done` is called after each.

    With ``jobs`` > 1 (and where processes can be forked) the first script is built here, which
    loads the fonts, templates and CSS, and the others by ``jobs`` worker processes forked from
    this one, so they share what is loaded. Each file is written whole or not at all. Two
    scripts that would write one file, or an output that is an input, stop the batch before
    anything is written (``outputs.check_targets``).
    """
    check_targets([(path, targets(path, None)) for path in paths if str(path) != "-"])

    def one(path: Path) -> BuildResult | Failure:
        result = attempt(lambda p: build(p, db, renderer, target=targets, **options), path)
        done(result)
        return result

    if jobs <= 1 or len(paths) < 3 or not can_fork():
        return [one(path) for path in paths]
    results = [one(paths[0])]
    global _forked_batch
    _forked_batch = (db, renderer, targets, options)
    gc.freeze()  # the loaded objects stay out of the collector's way, so forked copies share them
    executor = ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("fork"),
                                   initializer=_start_worker)
    try:
        for future in [executor.submit(_build_in_worker, path) for path in paths[1:]]:
            results.append(future.result())
            done(results[-1])
    finally:
        executor.shutdown(cancel_futures=True)
        _forked_batch = None
        gc.unfreeze()
    return results


def can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()


_forked_batch: "tuple[Database, Renderer, Targets, dict[str, Any]] | None" = None
# (db, renderer, targets, options) of the running `build_all`, seen by its workers


def _start_worker() -> None:
    """Worker processes end without freeing their objects, so WeasyPrint never deletes the
    temporary folders of @font-face fonts first loaded in a worker: they are deleted as it ends
    (the folders it inherited belong to the parent, which deletes them)."""
    assert _forked_batch is not None
    renderer = _forked_batch[1]
    inherited = renderer.temporary_font_folders()

    def delete_own_font_folders():
        for folder in renderer.temporary_font_folders() - inherited:
            shutil.rmtree(folder, ignore_errors=True)

    multiprocessing.util.Finalize(None, delete_own_font_folders, exitpriority=0)


def _build_in_worker(path: Path) -> BuildResult | Failure:
    assert _forked_batch is not None
    db, renderer, targets, options = _forked_batch
    return attempt(lambda p: build(p, db, renderer, target=targets, **options), path)


def build_almanac(script_path: Path, db, renderer: Renderer, *, target: Path | Targets, lang: str = default("sheet"),
                  paper: str = "a4", fmt: str = "pdf", skip_unknown: bool = False) -> BuildResult:
    """Read one script, render its almanac and write it to `target` (see `_resolved`); a script
    naming unknown characters is refused unless `skip_unknown`."""
    from scriptforge.render.almanac import almanac_view, fallback_warning, render_almanac

    require_printable(lang, fmt)
    script = read_printable_script(script_path, db)
    target = _resolved(target, script_path, script)
    result = BuildResult(script=Path(script_path), warnings=refuse_unknown(script, skip_unknown))
    result.warnings += renamed_warning(script_path, target)
    view = almanac_view(analyse(script, db), lang, paper)
    note = fallback_warning(view)
    if note:
        result.warnings.append(note)
    rendered = render_almanac(view, renderer, fmt, script_folder(script_path))
    result.warnings.extend(rendered.warnings)
    result.pages = rendered.pages
    result.written = write_rendered(rendered, target)
    return result


def build_game(game: str, renderer: Renderer, *, out: Path | None = None, lang: str = default("sheet"), paper: str = "a4",
               fmt: str = "pdf", sheet: bool = True, night: bool = False, scripts=(), back: bool = False,
               icons_dir=None) -> BuildResult:
    """Render a game's reference sheet and/or moderator's sheet and write the output(s).

    `scripts`, `back` and `icons_dir` belong to Blood on the Clocktower scripts; given with a
    game they are a user mistake (InputError).
    """
    from scriptforge.games import load_game
    from scriptforge.render.game_views import game_view

    if scripts:
        raise InputError(f"--game {game} takes no script files (got {scripts[0]}); "
                         f"drop them, or use --game botc to render scripts")
    for flag, value in (("--back", back), ("--icons", icons_dir)):
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
