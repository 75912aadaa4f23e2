"""The token sheet check: print the tokens of real scripts and measure the PDFs.

An official data pack is made from ../shared/reference/official (roles, night sheet, jinxes) in a
temporary folder; every ../shared/reference/official/wc25/*/script.json and the corpus's
``ko-fall_of_rome.json`` are printed with ``scriptforge tokens`` in ``--lang ko`` and ``en`` on A4
and Letter (``--size 44/25`` and, on A4, ``38/19`` too), one batch per combination. Then each PDF
is measured from its vector paths and text layer (pypdfium2), against nothing but the page and the
token count the data gives:

- **count**: the cut circles (thin stroked circles) of each diameter equal the tokens the data
  lists (characters; their reminders, repeats included; their global reminders);
- **diameter**: every cut circle is the stated diameter within 0.05 mm;
- **page**: every art disk (cut circle + bleed) and crop mark lies inside the printable area
  (the page less 6.35 mm each side);
- **overlap**: no two art disks overlap, and no crop mark enters another token's disk;
- **outside**: every glyph's em box (rotated with the glyph) lies inside its token's cut circle;
- **word-break**: every word the PDF's text layer shows on a token is a whole word of what that
  token should print (a fragment such as ``Washerwo`` is a defect).

It prints a table and the worst cases, and exits 1 on any defect, 2 where ../shared is missing.

    nice python benchmarks/token_check.py [--jobs 2] [--keep DIR] [--only STEM]
"""

import argparse
from collections import Counter
from dataclasses import dataclass, field
import ctypes
import math
from pathlib import Path
import shutil
import sys
import tempfile
import time

from corpus import copy_scripts, official_pack, run_cli

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "reference"
PT = 25.4 / 72  # mm per PDF point
MARGIN = 6.35
TOLERANCE = 0.05
KINDS = ("count", "diameter", "page", "overlap", "outside", "word-break")


@dataclass
class Measured:
    name: str
    pages: int = 0
    tokens: int = 0
    defects: list[tuple[str, str]] = field(default_factory=list)


def scripts() -> list[tuple[str, Path]]:
    out = [(f"wc25-{p.parent.name}", p) for p in sorted((SHARED / "official" / "wc25").glob("*/script.json"))]
    out.append(("ko-fall_of_rome", SHARED / "scripts" / "ko-fall_of_rome.json"))
    return out


run = run_cli


# -- reading the PDF -------------------------------------------------------------------------------


def _points(obj, raw) -> list[tuple[float, float]]:
    """The points of a path object (curve control points included), in its own coordinates."""
    out = []
    for i in range(raw.FPDFPath_CountSegments(obj.raw)):
        segment = raw.FPDFPath_GetPathSegment(obj.raw, i)
        x, y = ctypes.c_float(), ctypes.c_float()
        raw.FPDFPathSegment_GetPoint(segment, ctypes.byref(x), ctypes.byref(y))
        out.append((x.value, y.value))
    return out


def shapes(page, height_pt: float):
    """(circles, lines) of a page in mm from its top left: circles as (cx, cy, diameter, stroked)
    — a closed path of curves with a square extent —, lines as ((x1, y1), (x2, y2))."""
    import pypdfium2.raw as raw

    circles, lines = [], []
    for obj in page.get_objects(filter=[raw.FPDF_PAGEOBJ_PATH], max_depth=8):
        matrix = obj.get_matrix()
        points = [matrix.on_point(x, y) for x, y in _points(obj, raw)]
        points = [(x * PT, (height_pt - y) * PT) for x, y in points]
        fill, stroke = ctypes.c_int(), ctypes.c_int()
        raw.FPDFPath_GetDrawMode(obj.raw, ctypes.byref(fill), ctypes.byref(stroke))
        if len(points) == 2:
            lines.append((points[0], points[1]))
            continue
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        width, height = max(xs) - min(xs), max(ys) - min(ys)
        if len(points) >= 9 and abs(width - height) < 0.01:
            circles.append(((max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2, width, bool(stroke.value) and not fill.value))
    return circles, lines


def glyphs(page, height_pt: float):
    """(char, its em box's corners in mm from the top left) for every glyph of the text layer
    (the line breaks pdfium generates are left out: a new line is found by position)."""
    import pypdfium2.raw as raw

    from scriptforge.render.measure import width_em

    text = page.get_textpage()
    out = []
    try:
        for i in range(text.count_chars()):
            char = chr(raw.FPDFText_GetUnicode(text.raw, i))
            if raw.FPDFText_IsGenerated(text.raw, i) == 1 and char != " ":
                continue  # pdfium's line breaks (it sees a new line at every glyph of a lone row)
            if char.isspace():
                out.append((char, []))
                continue
            size = raw.FPDFText_GetFontSize(text.raw, i)
            matrix = raw.FS_MATRIX()
            raw.FPDFText_GetMatrix(text.raw, i, ctypes.byref(matrix))
            x, y = ctypes.c_double(), ctypes.c_double()
            raw.FPDFText_GetCharOrigin(text.raw, i, ctypes.byref(x), ctypes.byref(y))
            scale = math.hypot(matrix.a, matrix.b) or 1.0
            size *= scale  # the font size is in the text's own units (the SVG's mm), the matrix makes them points
            ux, uy = matrix.a / scale, matrix.b / scale  # the glyph's baseline direction
            vx, vy = -uy, ux  # its up direction (PDF y goes up)
            advance = width_em(char) * size
            corners = []
            for along, up in ((0, -0.14), (1, -0.14), (1, 0.88), (0, 0.88)):
                px = x.value + ux * advance * along + vx * size * up
                py = y.value + uy * advance * along + vy * size * up
                corners.append((px * PT, (height_pt - py) * PT))
            out.append((char, corners))
    finally:
        text.close()
    return out


# -- measuring one PDF -----------------------------------------------------------------------------


def measure(pdf: Path, expected: dict, paper_mm: tuple[float, float]) -> Measured:
    """`expected`: {"sizes": (D, d), "bleed": b, "counts": {D: n, d: m}, "words": [set per page]}."""
    import pypdfium2

    result = Measured(pdf.name)
    document = pypdfium2.PdfDocument(str(pdf))
    width_mm, height_mm = paper_mm
    found: Counter = Counter()
    bleed = expected["bleed"]
    try:
        result.pages = len(document)
        for index in range(1, len(document)):  # the first page is the cover
            page = document[index]
            _, height_pt = page.get_size()
            circles, lines = shapes(page, height_pt)
            cuts = [(x, y, d) for x, y, d, stroked in circles if stroked and d > 5]
            for x, y, d in cuts:
                size = min(expected["sizes"], key=lambda s: abs(s - d))
                found[size] += 1
                if abs(d - size) > TOLERANCE:
                    result.defects.append(("diameter", f"page {index + 1}: {d:.3f} mm for {size:g} mm"))
                r = d / 2 + bleed
                if x - r < MARGIN - 1e-3 or y - r < MARGIN - 1e-3 or x + r > width_mm - MARGIN + 1e-3 \
                        or y + r > height_mm - MARGIN + 1e-3:
                    result.defects.append(("page", f"page {index + 1}: the token at ({x:.1f}, {y:.1f}) mm"))
            for (x1, y1), (x2, y2) in lines:
                for px, py in ((x1, y1), (x2, y2)):
                    if not (MARGIN - 1e-3 <= px <= width_mm - MARGIN + 1e-3 and MARGIN - 1e-3 <= py <= height_mm - MARGIN + 1e-3):
                        result.defects.append(("page", f"page {index + 1}: a crop mark at ({px:.1f}, {py:.1f}) mm"))
                for x, y, d in cuts:
                    if _segment_distance((x, y), (x1, y1), (x2, y2)) < d / 2 + bleed - 1e-3:
                        result.defects.append(("overlap", f"page {index + 1}: a crop mark enters the token at "
                                                          f"({x:.1f}, {y:.1f})"))
            for i, (x1, y1, d1) in enumerate(cuts):
                for x2, y2, d2 in cuts[i + 1:]:
                    if math.hypot(x1 - x2, y1 - y2) < d1 / 2 + d2 / 2 + 2 * bleed - 1e-3:
                        result.defects.append(("overlap", f"page {index + 1}: ({x1:.1f}, {y1:.1f}) and ({x2:.1f}, {y2:.1f})"))
            pieces: list[str] = []  # the text layer's words: a new one at a space, another token or a new line
            token, piece, end = None, "", (0.0, 0.0)
            for char, corners in glyphs(page, height_pt):
                if not corners:
                    pieces.append(piece)
                    token, piece = None, ""
                    continue
                cx, cy = sum(p[0] for p in corners) / 4, sum(p[1] for p in corners) / 4
                k = min(range(len(cuts)), key=lambda n: math.hypot(cuts[n][0] - cx, cuts[n][1] - cy)) if cuts else -1
                if k < 0 or any(math.hypot(px - cuts[k][0], py - cuts[k][1]) > cuts[k][2] / 2 for px, py in corners):
                    result.defects.append(("outside", f"page {index + 1}: '{char}'"))
                size = math.hypot(corners[3][0] - corners[0][0], corners[3][1] - corners[0][1])
                if k != token or math.hypot(corners[0][0] - end[0], corners[0][1] - end[1]) > 0.15 * size:  # a space, or a new line
                    pieces.append(piece)
                    token, piece = k, ""
                piece += char
                end = corners[1]
            pieces.append(piece)
            allowed = expected["words"][index - 1] if index - 1 < len(expected["words"]) else set()
            for piece in pieces:
                if piece and piece not in allowed:
                    result.defects.append(("word-break", f"page {index + 1}: '{piece}'"))
            page.close()
    finally:
        document.close()
    for size, count in expected["counts"].items():
        if found[size] != count:
            result.defects.append(("count", f"{found[size]} cut circles of {size:g} mm, the data lists {count}"))
    result.tokens = sum(found.values())
    return result


def _segment_distance(p, a, b) -> float:
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / (dx * dx + dy * dy or 1)))
    return math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)


def expected_for(script: Path, db, lang: str, paper: str, size: str) -> dict:
    """What the data says a PDF holds: the token counts (from the script and the database, not
    from the view) and, per token page, the words its tokens print."""
    from scriptforge.scripts.analysis import analyse
    from scriptforge.render.tokens import token_options, tokens_view
    from scriptforge.scripts.script import read_script
    from scriptforge.scripts.tokens import token_set

    analysis = analyse(read_script(script, db), db)
    options = token_options(size)
    characters = list(analysis.characters)
    reminders = sum(len(ch.reminders) + len(ch.reminders_global) for ch in characters)
    counts: Counter = Counter({options.sizes[0]: len(characters)})
    counts[options.sizes[1]] += reminders
    view = tokens_view(analysis, token_set(analysis), lang, paper, options)
    words = [{w for t in page for run in t.texts for w in run.text.split()} | {t.monogram.text for t in page}
             for page in view.pages]
    return {"sizes": options.sizes, "bleed": options.bleed, "counts": dict(counts), "words": words}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--keep", type=Path, help="Keep the PDFs in this folder.")
    parser.add_argument("--only", help="Only scripts whose stem contains this.")
    args = parser.parse_args()
    if not (SHARED / "official" / "roles.json").is_file():
        print(f"token check: {SHARED} is missing: nothing to check", file=sys.stderr)
        return 2
    sys.path.insert(0, str(ROOT))
    from scriptforge.db.loading import load_database
    from scriptforge.render.token_layout import PAPER_MM

    started = time.monotonic()
    work = Path(args.keep or tempfile.mkdtemp(prefix="token-check-"))
    work.mkdir(parents=True, exist_ok=True)
    pack, error = official_pack(work)
    if error:
        print(error, file=sys.stderr)
        return 1
    chosen = [s for s in scripts() if not args.only or args.only in s[0]]
    inputs = work / "scripts"
    copy_scripts(chosen, inputs)
    db = load_database(None, [pack])
    rows, failures = [], []
    combos = [(lang, paper, "44/25") for lang in ("ko", "en") for paper in ("a4", "letter")]
    combos += [(lang, "a4", "38/19") for lang in ("ko", "en")]
    for lang, paper, size in combos:
        out = work / f"{lang}-{paper}-{size.replace('/', '-')}"
        shutil.rmtree(out, ignore_errors=True)
        t = time.monotonic()
        done = run(["tokens", str(inputs), "-o", f"{out}/", "--lang", lang, "--paper", paper, "--size", size,
                    "--jobs", str(args.jobs), "--pack", str(pack), "--skip-unknown"])
        if done.returncode:
            failures.append(f"tokens {lang} {paper} {size}: {done.stderr.strip().splitlines()[-1:]}")
        measured = []
        for stem, _ in chosen:
            pdf = out / f"{stem}-tokens.pdf"
            if not pdf.is_file():
                failures.append(f"{lang} {paper} {size}: {pdf.name} not written")
                continue
            measured.append(measure(pdf, expected_for(inputs / f"{stem}.json", db, lang, paper, size), PAPER_MM[paper]))
        rows.append((f"{lang} {paper} {size}", measured, time.monotonic() - t))
        print(f"{rows[-1][0]}: {len(measured)} files, {sum(len(m.defects) for m in measured)} defect(s)",
              file=sys.stderr, flush=True)
    return report(rows, failures, time.monotonic() - started)


def report(rows, failures: list[str], seconds: float) -> int:
    print(f"{'outputs':<20}{'files':>6}{'pages':>7}{'tokens':>8}" + "".join(f"{k:>11}" for k in KINDS) + f"{'time':>7}")
    total, worst = 0, []
    for label, measured, spent in rows:
        counts = Counter(kind for m in measured for kind, _ in m.defects)
        total += sum(counts.values())
        print(f"{label:<20}{len(measured):>6}{sum(m.pages for m in measured):>7}{sum(m.tokens for m in measured):>8}"
              + "".join(f"{counts[k]:>11}" for k in KINDS) + f"{spent:>6.0f}s")
        worst += [(len(m.defects), label, m) for m in measured if m.defects]
    for count, label, m in sorted(worst, key=lambda w: -w[0])[:12]:
        print(f"  {label}: {m.name}: " + "; ".join(f"{k} {d}" for k, d in m.defects[:4]))
    for failure in failures:
        print(f"  failed: {failure}")
    print(f"{total} defect(s), {len(failures)} failure(s) in {seconds:.0f} s")
    return 1 if total or failures else 0


if __name__ == "__main__":
    sys.exit(main())
