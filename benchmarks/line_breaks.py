"""Paragraphs broken after their first word: counted over the corpus from WeasyPrint's own boxes.

WeasyPrint 70 mis-breaks a paragraph whose line must end at a space beside an inline element
(``<span>``, ``<b>``): it takes the paragraph's first break opportunity instead, so the first line
holds one word and the rest starts on the next — "Each" / "night*, choose a player …". The
language tag after a text printed in a fallback language (``<span class="lang-tag">EN</span>``)
was such an element.

Every well-formed corpus script (``print_check.corpus``) is laid out in-process, as ``build
--back --night --skip-unknown`` lays it out (Korean, A4, with the official English pack that
``print_check`` makes; the renderer's fitting included), and every table cell of class
``ability-cell``, ``jinx-text`` or ``reminder-cell`` on its pages is measured: a defect is a cell
of two or more lines whose first line is a single word and less than half the cell's width. The
same break on a later line (a line but the last holding one word: "Demon," between two full
lines) is counted apart. It prints the defects per script, then the totals, and exits 1 on any
(2 where ../shared is missing).

    nice python benchmarks/line_breaks.py [--lang ko] [--paper a4] [--every N] [--only TEXT] [--keep DIR]
"""

import argparse
from collections import Counter
from pathlib import Path
import sys
import tempfile
import time

from corpus import OFFICIAL, official_pack
from print_check import corpus

ROOT = Path(__file__).resolve().parents[1]
CELLS = {"ability-cell", "jinx-text", "reminder-cell"}
NARROW = 0.5  # a line under this share of the cell's content width


def lines_of(box) -> list:
    """The line boxes of a block-level box, in order (not those inside inline blocks)."""
    found = []
    for child in getattr(box, "children", ()):
        if type(child).__name__ == "LineBox":
            found.append(child)
        elif child.is_in_normal_flow() and type(child).__name__.endswith("BlockBox"):
            found += lines_of(child)
    return found


def line_text(line) -> str:
    return "".join(getattr(box, "text", "") for box in line.descendants())


def line_width(line) -> float:
    """How far the line's content reaches from its start."""
    ends = [child.position_x + child.margin_width() for child in line.children]
    return max(ends, default=line.position_x) - line.position_x


def one_word(line, cell) -> bool:
    """Whether a line holds a single word and leaves more than half the cell's width empty."""
    return len(line_text(line).split()) == 1 and line_width(line) < NARROW * cell.width


def cut_short(page) -> list[tuple[str, str]]:
    """(``first`` or ``later``, what it reads) for each measured cell on a laid-out page with a
    line but its last that is one word with room beside it."""
    found = []
    for box in page._page_box.descendants():
        if type(box).__name__ != "TableCellBox" or box.element is None:
            continue
        if not CELLS & set((box.element.get("class") or "").split()):
            continue
        lines = lines_of(box)
        if len(lines) < 2:
            continue
        short = next((i for i, line in enumerate(lines[:-1]) if one_word(line, box)), None)
        if short is not None:
            found.append(("first" if short == 0 else "later",
                          " / ".join(line_text(line).strip()[:40] for line in lines[max(short - 1, 0):short + 2])))
    return found


def laid_out(path: Path, db, renderer, lang: str, paper: str) -> list:
    """The pages of the script at `path` as `build --back --night --skip-unknown` prints them."""
    from scriptforge.render.pipeline import read_printable_script, script_folder
    from scriptforge.render.options import PrintOptions
    from scriptforge.render.views import make_view
    from scriptforge.scripts.analysis import analyse

    script = read_printable_script(path, db)
    options = PrintOptions().for_script(script)
    view = make_view(analyse(script, db, players=options.night_players), lang, paper, back=True, night=True,
                     options=options)
    warnings: list[str] = []
    base = script_folder(path)
    # what Renderer.render does before the layout (Korean words kept whole, icons resolved)
    view, missing = renderer._prepare(view, base, warnings)
    return [page for doc in renderer.documents(view, base, warnings, system_fonts=missing).docs
            for page in doc.pages]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", default="ko")
    parser.add_argument("--paper", default="a4")
    parser.add_argument("--every", type=int, default=1, help="Only every Nth corpus script (a sample).")
    parser.add_argument("--only", help="Only scripts whose stem contains this.")
    parser.add_argument("--keep", type=Path, help="Keep the official pack in this folder (reused next time).")
    args = parser.parse_args()
    if not (OFFICIAL / "roles.json").is_file():
        print(f"line breaks: {OFFICIAL} is missing: nothing to check", file=sys.stderr)
        return 2
    sys.path.insert(0, str(ROOT))
    started = time.monotonic()
    work = Path(args.keep or tempfile.mkdtemp(prefix="line-breaks-"))
    work.mkdir(parents=True, exist_ok=True)
    pack, error = official_pack(work, "--name", "official")
    if error:
        print(error, file=sys.stderr)
        return 1

    from scriptforge.db.loading import load_database
    from scriptforge.io.errors import InputError
    from scriptforge.render.pdf import Renderer
    from scriptforge.render.writing import captured_weasyprint_warnings

    db = load_database(None, [pack])
    renderer = Renderer(packs=[pack])
    scripts = [s for s in corpus() if not args.only or args.only in s[0]][:: args.every]
    totals, pages, failed = Counter(), 0, []
    for stem, path in scripts:
        try:
            with captured_weasyprint_warnings([]):
                printed = laid_out(path, db, renderer, args.lang, args.paper)
        except InputError as error:
            failed.append(f"{stem}: {error}")
            continue
        pages += len(printed)
        found = [(index, *cell) for index, page in enumerate(printed, 1) for cell in cut_short(page)]
        if found:
            totals.update(where for _, where, _ in found)
            print(f"{stem}: {len(found)}", flush=True)
            for index, where, text in found:
                print(f"    page {index}, {where} line: {text}", flush=True)
    for failure in failed:
        print(f"  not printed: {failure}")
    print(f"{totals['first']} cell(s) broken after their first word, {totals['later']} after the first word of "
          f"a later line; {len(scripts)} scripts, {pages} pages, {args.lang} {args.paper}, "
          f"{time.monotonic() - started:.0f} s")
    return 1 if totals else 0


if __name__ == "__main__":
    sys.exit(main())
