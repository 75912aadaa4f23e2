"""The corpus print check: render every real script of ../shared/reference and measure the PDFs.

An official data pack is made from ../shared/reference/official (roles, night sheet, jinxes) in a
temporary folder; every well-formed script of ../shared/reference/scripts/ and every
../shared/reference/official/wc25/*/script.json is printed with ``build --back --night`` in
``--lang en`` and ``--lang ko+en``, on A4 and Letter, in one batch per combination (``--jobs``);
the almanac of a sample of scripts and every game output (Salem, Werewolf, Mafia: ``build`` and
``nightsheet --game``) are printed too. Then each PDF is measured, from its text layer and boxes
(pypdfium2, and pypdf for fonts and bookmarks):

- pages per part (the sheet, the back page and each night are parts: a part starts at a page with
  a level-1 bookmark), and the text scale of each page (its commonest font size / 9 pt);
- words broken across lines: a line that ends in letters and a next line that starts with
  letters whose join is a word of the printed texts while neither piece is one;
- fonts that are not the bundled ones (a glyph the bundled fonts lack, drawn by a system font);
- on a Korean page, English words that are neither an English name nor a character's text that
  has no Korean (the characters printed in English are counted apart, as "fallback");
- pages under 25 % used that are not the last page of a long (3+ pages) part, or a part's only page;
- a heading (level-2 bookmark) with nothing below it on its page;
- ink near the edge (``edge``): each page rasterised (pypdfium2, 72 dpi), the bounding box of
  everything darker than the paper, and a defect where it comes within 6.35 mm (a quarter inch,
  what office printers cannot print) of any edge;
- a name wrapped beside room (``name-wrap``): a name of several words printed on two lines (its
  words each ending a line) although it fits the widest name column whole
  (``measure.fits_whole``);
- completeness (``scriptforge.render.completeness``): on the character sheet's pages, every
  character of the script (name and ability in the sheet's language or its fallback), every
  jinxed pair (both names and the text) and every rule of ``_meta.bootlegger``; an item not in
  the text layer is a defect of its class (``missing-character``, ``missing-jinx``,
  ``missing-rule``). Characters that ``--skip-unknown`` left out (unknown ids, unknown teams:
  named in a warning) are counted apart. Sheets are printed in ``ko`` (A4) as well for this.

The footer every page carries (script, page, version: in the bottom margin) is not content for
the page-use and heading measures.

It prints a table (outputs, pages, smallest scale, defects per kind, time), the completeness
counts per class and the worst cases, and exits 1 on any defect, 2 where ../shared is missing.

With ``--art`` the pack carries made-up official icons (tests/icon_art.py), so every page has the
community-content notice in its footer, the tallest footer there is.

    nice python benchmarks/print_check.py [--jobs 2] [--limit N] [--almanacs 12] [--keep DIR] [--art]
                                          [--langs en,ko+en,ko] [--papers a4,letter] [--parts sheets,…]
"""

import argparse
from collections import Counter, defaultdict
from dataclasses import dataclass, field
import json
from pathlib import Path
import re
import shutil
import sys
import tempfile
import time

from corpus import copy_scripts, official_art_pack, official_pack, run_cli

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "reference"
BASE_PX = 12.0  # 1rem at 100 % (9 pt, templates/_base.html.j2) in the CSS px pdfium reports
USED_MIN = 0.25
SMALLEST = 0.7  # the renderer's smallest text size (SHRINK_STEPS)
FOOTER = re.compile(r"^\s*\d+\s*/\s*\d+\s*$")
FOOTER_TOP = 21.0  # pt from the page's foot: text lower than this is the footer in the bottom margin
WORD = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)*")
EDGE_MM = 6.35
INK_DPI = 72
INK_LEVEL = 235  # a grey darker than this is ink (the paper is 255)
MM_PER_PT = 25.4 / 72


@dataclass
class Measured:
    name: str
    pages: int = 0
    parts: list[int] = field(default_factory=list)
    scale: float = 1.0
    defects: list[tuple[str, str]] = field(default_factory=list)  # (kind, detail)
    fallback: int = 0
    warned: int = 0  # pages with homebrew glyphs the bundled fonts lack (a warning, not a defect)
    sheet_text: str = ""  # the text layer of the first part (the character sheet)
    checked: Counter = field(default_factory=Counter)  # completeness items checked, per kind
    left_out: int = 0  # characters --skip-unknown left out (named in a warning)


def corpus() -> list[tuple[str, Path]]:
    """(unique output stem, path) of every well-formed corpus script."""
    out = []
    for path in sorted((SHARED / "scripts").glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError):
            continue
        if isinstance(data, list) and data:
            out.append((path.stem, path))
    for path in sorted((SHARED / "official" / "wc25").glob("*/script.json")):
        out.append((f"wc25-{path.parent.name}", path))
    return out


run = run_cli


# -- what was printed ------------------------------------------------------------------------------


def printed_words(script: Path, db, lang: str) -> tuple[set[str], set[str], int, bool, list, int, set[str]]:
    """(every word of the texts printed, the Latin words a Korean page may show: those of the
    script's names and texts as the sheet holds them, not of its labels, the fallback count,
    whether the script's own text has characters the bundled fonts lack: then the renderer warns
    and a system font prints them, which is not a defect of the sheet, the completeness items of
    its character sheet, how many characters the reader left out, and the names of several words
    that fit the name column whole, which must not wrap)."""
    from scriptforge.scripts.analysis import analyse
    from scriptforge.render.completeness import sheet_items
    from scriptforge.render.measure import fits_whole
    from scriptforge.render.typefaces import missing_glyphs
    from scriptforge.render.views import make_view
    from scriptforge.scripts.script import LEFT_OUT, read_script

    parsed = read_script(script, db)
    analysis = analyse(parsed, db)
    view = make_view(analysis, lang, "a4", back=True, night=True)
    rows = [c for t in (*view.teams, *view.extra_teams) for c in t.characters]
    # the sheet's own words: its title, rules and footer, the language tags that mark a fallback
    # text ("EN") with the footer line that explains them, and the community-content notice (--art)
    texts = [view.title, view.author or "", *view.rules, "scriptforge", *(name for name, _ in db.packs),
             *view.fallback_tags, *view.footer_notes, str(view.labels.get("art_notice") or "")]
    texts += [f"{r.name} {r.second_name or ''} {r.ability}" for r in rows]
    texts += [f"{s.name} {s.second_name or ''} {s.text}" for n in view.nights for s in n.steps]
    texts += [j.text for j in view.jinxes]
    allowed = {w for text in texts for w in WORD.findall(text)}
    labels = [str(v) for v in view.labels.values() if isinstance(v, str)] + [view.footnote or "", view.djinn_note or ""]
    words = allowed | {w for text in labels for w in WORD.findall(text)}
    fallback = sum(1 for r in rows if r.fallback or (lang != "en" and not re.search("[가-힣]", r.ability)))
    left_out = sum(1 for p in parsed.problems if p.code in LEFT_OUT)
    names = {r.name for r in rows} | {s.name for n in view.nights for s in n.steps}
    whole = {name for name in names if " " in name.strip() and fits_whole(name)}
    return (words, allowed, fallback, bool(missing_glyphs(view.all_text())), sheet_items(analysis, lang),
            left_out, whole)


def completeness(m: "Measured", items: list, left_out: int) -> None:
    """Check the sheet text of `m` for every completeness item; a missing one is a defect."""
    from scriptforge.render.completeness import missing

    m.checked.update(item.kind for item in items)
    m.left_out = left_out
    for item in missing(items, m.sheet_text):
        m.defects.append((f"missing-{item.kind}", item.label))


# -- measuring one PDF -----------------------------------------------------------------------------


def ink_margins(page) -> tuple[float, float, float, float] | None:
    """(left, top, right, bottom): how far a pypdfium2 page's ink stays from each edge, in mm;
    None for a blank page."""
    scale = INK_DPI / 72
    image = page.render(scale=scale, grayscale=True).to_pil().convert("L")
    box = image.point(lambda v: 255 if v < INK_LEVEL else 0).getbbox()
    if box is None:
        return None
    mm = MM_PER_PT / scale  # one pixel
    return box[0] * mm, box[1] * mm, (image.width - box[2]) * mm, (image.height - box[3]) * mm


def wrapped_names(content: str, names: set[str]) -> list[str]:
    """The `names` a page's text layer shows wrapped: their words on two or more lines, the name
    beginning and ending a line (as a name cell does)."""
    found = []
    for name in names:
        words = name.split()
        pattern = r"(?:^|\n)" + r"(?: |\r?\n)".join(re.escape(w) for w in words) + r"\r?(?:\n|$)"
        if any("\n" in match.group(0).strip() for match in re.finditer(pattern, content)):
            found.append(name)
    return found


def measure(pdf: Path, words: set[str] | None = None, allowed: set[str] | None = None,
            names: set[str] | None = None) -> Measured:
    import pypdf
    import pypdfium2
    import pypdfium2.raw as raw

    result = Measured(pdf.name)
    reader = pypdf.PdfReader(str(pdf))
    result.pages = len(reader.pages)
    starts, headings = set(), defaultdict(list)

    def walk(items, level):
        for item in items:
            if isinstance(item, list):
                walk(item, level + 1)
                continue
            page = reader.get_destination_page_number(item)
            if level == 0:
                starts.add(page)
            elif level == 1:
                headings[page].append((float(item.top or 0), item.title))

    walk(reader.outline, 0)
    starts.add(0)
    bounds = sorted(starts) + [result.pages]
    result.parts = [b - a for a, b in zip(bounds, bounds[1:]) if b > a]
    for index, page in enumerate(reader.pages):
        fonts = (page.get("/Resources") or {}).get("/Font") or {}
        for ref in fonts.values():
            base = str(ref.get_object().get("/BaseFont", ""))
            if "Noto" not in base and "Scriptforge" not in base:
                result.defects.append(("font", f"page {index + 1}: {base}"))
    document = pypdfium2.PdfDocument(str(pdf))
    try:
        scales, used_by_page, page_scale = [], {}, {}
        for index in range(len(document)):
            page = document[index]
            width, height = page.get_size()
            text = page.get_textpage()
            count = text.count_chars()
            content = text.get_text_range().replace("\ufffe", "-\n")  # pdfium's mark of a hyphen at a line end
            margins = ink_margins(page)
            if margins is not None and min(margins) < EDGE_MM:
                sides = ", ".join(f"{side} {value:.1f} mm" for side, value in zip(("left", "top", "right", "bottom"),
                                                                                   margins) if value < EDGE_MM)
                result.defects.append(("edge", f"page {index + 1}: {sides}"))
            for name in wrapped_names(content.replace("\u2060", ""), names or set()):
                result.defects.append(("name-wrap", f"page {index + 1}: {name}"))
            sizes = Counter(round(raw.FPDFText_GetFontSize(text.raw, i), 1) for i in range(0, count, 5)
                            if content[i:i + 1].isalnum())
            page_scale[index] = sizes.most_common(1)[0][0] / BASE_PX if sizes else 1.0
            if index == 0:  # the character sheet (or a game's first page)
                scales.append(page_scale[index])
            rects = [r for r in (text.get_rect(i) for i in range(text.count_rects()))
                     if r[3] >= FOOTER_TOP and not FOOTER.match(text.get_text_bounded(*r))]  # footers are no content
            if index < (result.parts[0] if result.parts else 1):
                result.sheet_text += content
            lowest = min((r[1] for r in rects), default=height)
            highest = max((r[3] for r in rects), default=0)
            used_by_page[index] = (highest - lowest) / (height - 2 * 24)  # ~8-9 mm margins
            for top, title in headings.get(index, []):
                if not any(r[3] < top - 16 for r in rects):
                    result.defects.append(("heading-last", f"page {index + 1}: '{title}'"))
            if words:
                for before, after in re.findall(r"([A-Za-z]+)\r?\n([a-z]+)", content):
                    if before + after in words and before not in words and after not in words:
                        result.defects.append(("word-break", f"page {index + 1}: {before}|{after}"))
            if allowed is not None and re.search("[가-힣]", content):
                foreign = {w for w in WORD.findall(content) if len(w) > 1} - allowed
                if foreign:
                    result.defects.append(("english", f"page {index + 1}: {', '.join(sorted(foreign)[:6])}"))
            text.close()
            page.close()
        result.scale = round(min(scales, default=1.0), 2)
        for a, b in zip(bounds, bounds[1:]):
            last = b - 1
            if b - a > 1 and used_by_page[last] < USED_MIN and not _long(a, b, used_by_page, page_scale):
                result.defects.append(("empty-page", f"page {last + 1}: {used_by_page[last]:.0%} used"))
    finally:
        document.close()
    return result


def _long(first: int, end: int, used: dict[int, float], scale: dict[int, float]) -> bool:
    """Whether a part of pages first..end-1 is a long document: even at the smallest text size
    (SMALLEST) it would not fit on one page fewer (text area grows with the square of the size)."""
    content = sum(used[p] for p in range(first, end))
    return content * (SMALLEST / max(scale[first], SMALLEST)) ** 2 > end - first - 1


# -- the runs --------------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--limit", type=int, help="Only the first N corpus scripts (a quick look).")
    parser.add_argument("--almanacs", type=int, default=12, help="How many scripts also get an almanac.")
    parser.add_argument("--keep", type=Path, help="Keep the PDFs in this folder.")
    parser.add_argument("--only", help="Only scripts whose stem contains this.")
    parser.add_argument("--reuse", action="store_true", help="Measure the PDFs already in --keep, render none.")
    parser.add_argument("--parts", default="sheets,almanacs,games", help="Which outputs (comma-separated).")
    parser.add_argument("--langs", default="en,ko+en,ko", help="Sheet languages (comma-separated; ko is A4 only).")
    parser.add_argument("--papers", default="a4,letter", help="Sheet papers (comma-separated).")
    parser.add_argument("--art", action="store_true", help="A pack with made-up official icons (the notice in every footer).")
    args = parser.parse_args()
    if not (SHARED / "official" / "roles.json").is_file():
        print(f"print check: {SHARED} is missing: nothing to check", file=sys.stderr)
        return 2
    sys.path.insert(0, str(ROOT))
    started = time.monotonic()
    work = Path(args.keep or tempfile.mkdtemp(prefix="print-check-"))
    work.mkdir(parents=True, exist_ok=True)
    pack, error = official_art_pack(work) if args.art else official_pack(work, "--name", "official")
    if error:
        print(error, file=sys.stderr)
        return 1
    scripts = [s for s in corpus() if not args.only or args.only in s[0]][: args.limit]
    inputs = work / "scripts"
    if not args.reuse:
        copy_scripts(scripts, inputs)

    from scriptforge.db.loading import load_database

    db = load_database(None, [pack])
    rows: list[tuple[str, list[Measured], float]] = []
    failures: list[str] = []
    parts = args.parts.split(",")
    texts_by_lang = {lang: {stem: printed_words(inputs / f"{stem}.json", db, lang) for stem, _ in scripts}
                     for lang in dict.fromkeys([*(args.langs.split(",") if "sheets" in parts else ()),
                                                *(("en", "ko+en") if "almanacs" in parts else ())])}
    runs = [(lang, paper) for lang in args.langs.split(",") for paper in args.papers.split(",")
            if lang != "ko" or paper == "a4"]
    for lang, paper in runs if "sheets" in parts else ():
        texts = texts_by_lang[lang]
        out = work / f"{lang}-{paper}"
        t = time.monotonic()
        if not (args.reuse and out.is_dir()):
            shutil.rmtree(out, ignore_errors=True)
            done = run(["build", str(inputs), "-o", f"{out}/", "--lang", lang, "--paper", paper, "--back",
                        "--night", "--jobs", str(args.jobs), "--no-packs", "--pack", str(pack), "--skip-unknown"])
            if done.returncode:
                failures.append(f"build {lang} {paper}: {done.stderr.strip().splitlines()[-1:]}")
        measured = []
        for stem, _ in scripts:
            pdf = out / f"{stem}.pdf"
            if not pdf.is_file():
                failures.append(f"{lang} {paper}: {stem}.pdf not written")
                continue
            words, allowed, fallback, warned, items, left_out, names = texts[stem]
            m = measure(pdf, words, allowed if lang != "en" else None, names)
            completeness(m, items, left_out)
            m.fallback = fallback
            if warned:  # homebrew text outside the fonts: warned, and printed by a system font
                m.warned = sum(1 for kind, _ in m.defects if kind == "font")
                m.defects = [d for d in m.defects if d[0] != "font"]
            measured.append(m)
        rows.append((f"sheets {lang} {paper}", measured, time.monotonic() - t))
        progress(rows[-1])
    for lang in ("en", "ko+en") if "almanacs" in parts else ():
        for paper in ("a4", "letter"):
            t = time.monotonic()
            measured = []
            for stem, _ in scripts[: args.almanacs]:
                pdf = work / f"almanac-{stem}-{lang}-{paper}.pdf"
                if args.reuse and pdf.is_file():
                    measured.append(measure(pdf, texts_by_lang[lang][stem][0], names=texts_by_lang[lang][stem][6]))
                    continue
                done = run(["almanac", str(inputs / f"{stem}.json"), "-o", str(pdf), "--lang", lang,
                            "--paper", paper, "--no-packs", "--pack", str(pack), "--skip-unknown"])
                if done.returncode:
                    failures.append(f"almanac {stem} {lang} {paper}: {done.stderr.strip()[-200:]}")
                    continue
                measured.append(measure(pdf, texts_by_lang[lang][stem][0], names=texts_by_lang[lang][stem][6]))
            rows.append((f"almanacs {lang} {paper}", measured, time.monotonic() - t))
            progress(rows[-1])
    t = time.monotonic()
    measured = []
    for game in ("salem", "werewolf", "mafia") if "games" in parts else ():
        for lang in ("ko", "en", "ko+en"):
            for paper in ("a4", "letter"):
                for command in ("build", "nightsheet"):
                    pdf = work / f"{game}-{command}-{lang}-{paper}.pdf"
                    done = run([command, "--game", game, "-o", str(pdf), "--lang", lang, "--paper", paper])
                    if done.returncode:
                        failures.append(f"{command} --game {game} {lang} {paper}: {done.stderr.strip()[-200:]}")
                        continue
                    measured.append(measure(pdf, game_words(game)))
    if measured:
        rows.append(("game sheets", measured, time.monotonic() - t))
    return report(rows, failures, time.monotonic() - started)


def game_words(game: str) -> set[str]:
    from scriptforge.db.games import load_game

    gdb = load_game(game)
    return set(WORD.findall(json.dumps([r.texts[lang].name for r in gdb.roles.values() for lang in r.texts],
                                       ensure_ascii=False)))


def progress(row: tuple[str, list[Measured], float]) -> None:
    label, measured, spent = row
    defects = sum(len(m.defects) for m in measured)
    print(f"{label}: {len(measured)} files, {defects} defect(s), {spent:.0f} s", file=sys.stderr, flush=True)


def report(rows, failures: list[str], seconds: float) -> int:
    kinds = ("word-break", "font", "english", "empty-page", "heading-last", "edge", "name-wrap",
             "missing-character", "missing-jinx", "missing-rule")
    header = f"{'outputs':<22}{'files':>6}{'pages':>7}{'>1 page':>8}{'min scale':>10}{'fallback':>9}{'warned':>7}" + \
        "".join(f"{k:>13}" for k in kinds) + f"{'time':>8}"
    print(header)
    worst: list[tuple[int, str, Measured]] = []
    total = 0
    for label, measured, spent in rows:
        counts = Counter(kind for m in measured for kind, _ in m.defects)
        total += sum(counts.values())
        over = sum(1 for m in measured for p in m.parts if p > 1)
        scale = min((m.scale for m in measured), default=1.0)
        print(f"{label:<22}{len(measured):>6}{sum(m.pages for m in measured):>7}{over:>8}{scale:>10.2f}"
              f"{sum(m.fallback for m in measured):>9}{sum(1 for m in measured if m.warned):>7}"
              + "".join(f"{counts[k]:>13}" for k in kinds) + f"{spent:>7.0f}s")
        worst += [(len(m.defects), label, m) for m in measured if m.defects]
    checked = [(label, measured) for label, measured, _ in rows if any(m.checked for m in measured)]
    if checked:
        print(f"\ncompleteness{'':<10}" + "".join(f"{k + 's':>15}" for k in ("character", "jinx", "rule"))
              + f"{'missing':>10}{'left out':>10}")
        for label, measured in checked:
            counts = sum((m.checked for m in measured), Counter())
            lost = sum(1 for m in measured for kind, _ in m.defects if kind.startswith("missing-"))
            print(f"{label:<22}" + "".join(f"{counts[k]:>15,}" for k in ("character", "jinx", "rule"))
                  + f"{lost:>10}{sum(m.left_out for m in measured):>10}")
    for count, label, m in sorted(worst, key=lambda w: -w[0])[:12]:
        print(f"  {label}: {m.name}: " + "; ".join(f"{k} {d}" for k, d in m.defects[:4]))
    for failure in failures:
        print(f"  failed: {failure}")
    print(f"{total} defect(s), {len(failures)} failure(s) in {seconds:.0f} s")
    return 1 if total or failures else 0


if __name__ == "__main__":
    sys.exit(main())
