"""Make the Korean fonts that ship in scriptforge/fonts/ (run by hand; the output is committed).

Source: Noto Sans CJK KR, Regular and Bold (SIL Open Font License 1.1), from the Debian package
``fonts-noto-cjk`` (``apt-get install fonts-noto-cjk``; files NotoSansCJK-{Regular,Bold}.ttc,
face "Noto Sans CJK KR") or the same OTFs from the noto-cjk project. The full fonts are ~16 MB
each and take seconds to subset per PDF; these subsets are a few hundred KB and render in a
fraction of that (see DESIGN.md, performance notes).

The Arabic of the Djinn's flavor is set in a subset of Noto Naskh Arabic (OFL), from Debian's
``fonts-noto-core`` (``make_arabic_subset``); the Latin, Greek and Cyrillic letters of the official
translations that Noto Sans CJK lacks (Polish, Turkish, Romanian, …) in a subset of Noto Sans
(OFL, the same package; ``make_latin_subset``).

Kept characters:
- Basic Latin and Latin-1 Supplement (U+0020-U+00FF);
- typographic punctuation: dashes, quotes, ellipsis, bullets, middle dots, arrows, ※, ×, etc.;
- KS X 1001's 2,350 Hangul syllables (every syllable of the EUC-KR code page);
- Hangul Compatibility Jamo (U+3131-U+318E) and CJK brackets 「」『』〈〉《》【】;
- every character used in scriptforge's own data files and examples (so shipped texts never
  fall outside the subset), where the source font has a glyph for it.

The subsets are converted from CFF to TrueType outlines (quadratic, cu2qu with 1 unit max error):
WeasyPrint re-subsets every embedded font with fontTools, and that takes ~0.6 s per CFF font
(charstrings are executed to recompute bounds) against ~0.15 s for glyf fonts; the PDF is also
smaller (35 KB instead of 54 KB for a 25-character Korean sheet).

Then the fonts are slimmed for speed (``slim``): WeasyPrint drops GSUB/GPOS from every font it
embeds anyway, but fontTools decompiles them each time it subsets a font for a PDF. Without
GSUB, GPOS, BASE and vhea/vmtx, subsetting takes ~0.075 s per font instead of ~0.125 s (the
``post`` glyph names stay: without them fontTools derives names from the cmap, which is slower).
The cost: no Latin kerning or fi/fl ligatures (invisible at sheet sizes; Hangul syllables are
precomposed and need neither).

The Latin and Arabic subsets get a space (U+0020, U+00A0) as wide as the Korean face's
(``give_space``): Pango never chooses a font for a space but sets it in the font of the letter
before it, assuming every font has one, so a space between two letters only these subsets have
(Cyrillic, Greek, Arabic, Polish ą …) is set in them, and without a space of their own it
printed as the box of a missing glyph (the Yaggababble's and the Djinn's official flavors). As
wide as the Korean face's, it is as wide as every other space of the line.

``coverage.txt`` lists the code points the fonts cover (ranges, hex), Scriptforge Marks' included
(our own font of the punctuation these lack, made by ``tools/marks_font.py``), so the renderer's
missing-glyph check does not load fontTools at run time; ``bold-advances.txt`` the bold face's
advance widths, with which the sheets size their name column (``render/measure.py``).

Usage:

    python tools/subset_fonts.py [--source-dir /usr/share/fonts/opentype/noto] [--out scriptforge/fonts]
    python tools/subset_fonts.py --slim-existing   # only slim the shipped fonts, rewrite coverage.txt
    python tools/subset_fonts.py --space-existing  # only give the shipped Latin and Arabic subsets their space
"""

import argparse
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont
from fontTools.ttLib.tables._g_l_y_f import Glyph

ROOT = Path(__file__).resolve().parent.parent
FACE = "Noto Sans CJK KR"
WEIGHTS = {"Regular": "NotoSansCJK-Regular.ttc", "Bold": "NotoSansCJK-Bold.ttc"}
OUT_NAME = "NotoSansKR-Subset-{weight}.ttf"

PUNCTUATION = (
    "\u2010\u2011\u2012\u2013\u2014\u2015"  # hyphens and dashes
    "\u2018\u2019\u201a\u201c\u201d\u201e"  # quotes
    "\u2020\u2021\u2022\u2025\u2026\u2027\u2030\u2032\u2033\u203b"  # daggers, bullets, …, ‧, ‰, ′ ″, ※
    "\u2190\u2191\u2192\u2193\u2194\u21d2"  # arrows
    "\u2212\u00d7\u00f7\u2264\u2265\u2260\u221e"  # maths
    "\u2460\u2461\u2462\u2463\u2464\u2465\u2466\u2467\u2468\u2469"  # ① … ⑩
    "\u25cb\u25cf\u25a1\u25a0\u25b3\u25b2\u2605\u2606\u2713"  # shapes, stars, check mark
    "\u3001\u3002\u3008\u3009\u300a\u300b\u300c\u300d\u300e\u300f\u3010\u3011\u301c"  # CJK punctuation
    "\u318d\u30fb\uff5e\uff0c\uff0e\uff1a\uff1f\uff01"  # ㆍ ・ fullwidth ~ , . : ? !
)


def ks_x_1001_syllables() -> str:
    """The 2,350 precomposed Hangul syllables of KS X 1001 (EUC-KR rows 0xB0-0xC8)."""
    out = []
    for lead in range(0xB0, 0xC9):
        for trail in range(0xA1, 0xFF):
            try:
                out.append(bytes([lead, trail]).decode("euc_kr"))
            except UnicodeDecodeError:
                pass
    assert len(out) == 2350, len(out)
    return "".join(out)


def project_characters() -> str:
    """Every character in the project's own data and example scripts."""
    chars = set()
    for pattern in ("data/**/*.yaml", "examples/*.json"):
        for path in ROOT.glob(pattern):
            chars.update(path.read_text(encoding="utf-8"))
    return "".join(sorted(c for c in chars if c.isprintable()))


# The alphabets of the official translations beyond Korean, set by the Latin subset (FACTS.md 8: 45 languages, among them
# Czech, Polish, Romanian, Turkish, Vietnamese, Greek, Russian, Ukrainian, Bulgarian, Serbian):
# the whole Latin Extended-A/B, Latin Extended Additional, Greek and Cyrillic blocks, wherever the
# source font has a glyph. (The translation files are not at hand to compute the exact set; the
# blocks are a superset of it.)
ALPHABETS = ((0x0100, 0x024F), (0x1E00, 0x1EFF), (0x0370, 0x03FF), (0x0400, 0x052F))


def wanted_text() -> str:
    basic = "".join(chr(c) for c in range(0x20, 0x7F)) + "".join(chr(c) for c in range(0xA0, 0x100))
    jamo = "".join(chr(c) for c in range(0x3131, 0x318F))
    return basic + PUNCTUATION + ks_x_1001_syllables() + jamo + project_characters()


def load_face(path: Path) -> TTFont:
    if path.suffix.lower() == ".ttc":
        for font in TTCollection(str(path)).fonts:
            if font["name"].getDebugName(1) == FACE:
                return font
        raise SystemExit(f"{path}: no face named {FACE!r}")
    return TTFont(str(path))


def make_subset(source: Path, target: Path, text: str) -> None:
    font = load_face(source)
    cmap = font.getBestCmap()
    unicodes = sorted({ord(c) for c in text if ord(c) in cmap})
    options = subset.Options()
    options.layout_features = ["kern", "liga", "clig", "calt", "locl", "palt", "halt", "vkrn", "vpal"]
    options.hinting = False
    options.desubroutinize = False
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=unicodes)
    subsetter.subset(font)
    to_truetype(font)
    slim(font)
    target.parent.mkdir(parents=True, exist_ok=True)
    font.save(str(target))
    print(f"{target}: {len(unicodes)} characters, {target.stat().st_size // 1024} KB")


SLIM_DROP = ("GSUB", "GPOS", "BASE", "vhea", "vmtx", "VORG")


def slim(font: TTFont) -> None:
    """Drop the tables WeasyPrint never embeds, in place (see the docstring)."""
    for tag in SLIM_DROP:
        if tag in font:
            del font[tag]


ARABIC_SOURCE = Path("/usr/share/fonts/truetype/noto/NotoNaskhArabic-Regular.ttf")
ARABIC_OUT = "NotoNaskhArabic-Subset-Regular.ttf"
ARABIC_RANGES = ((0x0600, 0x06FF), (0xFB50, 0xFDFF), (0xFE70, 0xFEFF))  # Arabic, presentation forms


def make_arabic_subset(source: Path, target: Path, korean: Path) -> None:
    """The Arabic face (Noto Naskh Arabic, OFL; Debian's ``fonts-noto-core``): the Arabic block
    and its presentation forms, and the space of the Korean face `korean` (``give_space``). Unlike
    the Korean fonts it keeps GSUB/GPOS: Arabic letters take their joined forms through them
    (HarfBuzz shapes before WeasyPrint embeds the glyphs)."""
    font = TTFont(str(source))
    unicodes = [p for p in font.getBestCmap() if any(a <= p <= b for a, b in ARABIC_RANGES)]
    _subset_and_save(font, unicodes, ["*"], target, space=space_advance(korean))


SPACES = (0x0020, 0x00A0)


def space_advance(korean: Path) -> int:
    """The advance width of the space of the Korean face at `korean` (font units)."""
    font = TTFont(str(korean), lazy=True)
    try:
        return font["hmtx"][font.getBestCmap()[0x20]][0]
    finally:
        font.close()


def give_space(font: TTFont, advance: int) -> bool:
    """Map U+0020 and U+00A0 of `font` to an empty glyph `advance` units wide, in place, unless it
    has a space already (then False). Pango sets a space in the font of the letter before it (see
    the docstring), so every font a letter may come from needs one."""
    if any(point in font.getBestCmap() for point in SPACES):
        return False
    order = font.getGlyphOrder()
    name = "space"
    while name in order:
        name += "_"
    font.setGlyphOrder([*order, name])
    font["glyf"].glyphOrder = font.getGlyphOrder()
    font["glyf"][name] = Glyph()
    font["hmtx"][name] = (advance, 0)
    for table in font["cmap"].tables:
        if table.isUnicode():
            table.cmap.update(dict.fromkeys(SPACES, name))
    font["OS/2"].updateFirstAndLastCharIndex(font)
    return True


def _subset_and_save(font: TTFont, unicodes: list[int], features: list[str], target: Path, slimmed: bool = False,
                     space: int | None = None) -> None:
    """Keep `unicodes` (and `features`) of `font`, unhinted with every name record, with a space
    `space` units wide if that is given (``give_space``); save it to `target`."""
    options = subset.Options()
    options.layout_features = features
    options.hinting = False
    options.name_IDs = ["*"]
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=unicodes)
    subsetter.subset(font)
    if slimmed:
        slim(font)
    if space is not None:
        give_space(font, space)
    font.save(str(target))
    print(f"{target}: {len(unicodes)} characters, {target.stat().st_size // 1024} KB")


LATIN_SOURCE_DIR = Path("/usr/share/fonts/truetype/noto")
LATIN_WEIGHTS = {"Regular": "NotoSans-Regular.ttf", "Bold": "NotoSans-Bold.ttf"}
LATIN_OUT = "NotoSans-Subset-{weight}.ttf"


def make_latin_subset(source: Path, target: Path, korean: Path) -> None:
    """The letters of ALPHABETS that the Korean face lacks (Polish ą ł ż, Turkish ğ ı ş, Romanian
    ș ț, …), from Noto Sans (OFL; Debian's ``fonts-noto-core``): the sheets name it after the
    Korean face, so it sets only what that face cannot; and that face's space (``give_space``)."""
    have = set(TTFont(str(korean), lazy=True).getBestCmap())
    font = TTFont(str(source))
    unicodes = [p for p in font.getBestCmap() if p not in have and any(a <= p <= b for a, b in ALPHABETS)]
    _subset_and_save(font, unicodes, ["kern", "liga", "ccmp", "locl", "mark", "mkmk"], target, slimmed=True,
                     space=space_advance(korean))


def space_existing(out: Path) -> None:
    """Give the Latin and Arabic subsets in `out` the space of the Korean face of their weight
    (fonts made before ``give_space``), changing nothing else: the head table's dates stay."""
    spaced = [(LATIN_OUT.format(weight=weight), OUT_NAME.format(weight=weight)) for weight in LATIN_WEIGHTS]
    for name, korean in [*spaced, (ARABIC_OUT, OUT_NAME.format(weight="Regular"))]:
        target = out / name
        font = TTFont(str(target), recalcTimestamp=False)
        if give_space(font, space_advance(out / korean)):
            font.save(str(target))
            print(f"{target}: a space of {font['hmtx'][font.getBestCmap()[0x20]][0]} units")
        else:
            print(f"{target}: has a space already")


MARKS_OUT = "ScriptforgeMarks-Regular.ttf"  # tools/marks_font.py


def coverage_fonts(out: Path) -> list[Path]:
    """The fonts whose code points coverage.txt lists: the regular face of each bundled font (each
    bold face has the same code points as its regular one)."""
    return [out / OUT_NAME.format(weight="Regular"), out / LATIN_OUT.format(weight="Regular"), out / ARABIC_OUT,
            out / MARKS_OUT]


def write_coverage(font_paths: list[Path], target: Path) -> None:
    """coverage.txt: the code points of the fonts' cmaps as ``start-end`` hex ranges, one a line."""
    covered: set[int] = set()
    for font_path in font_paths:
        font = TTFont(str(font_path), lazy=True)
        covered.update(font.getBestCmap())
        font.close()
    points = sorted(covered)
    ranges, start, prev = [], points[0], points[0]
    for point in points[1:]:
        if point != prev + 1:
            ranges.append((start, prev))
            start = point
        prev = point
    ranges.append((start, prev))
    lines = [f"{a:04X}-{b:04X}" if a != b else f"{a:04X}" for a, b in ranges]
    names = ", ".join(p.name for p in font_paths)
    header = f"# code points of {names} ({len(points)}), written by tools/subset_fonts.py\n"
    target.write_text(header + "\n".join(lines) + "\n", encoding="utf-8")
    print(f"{target}: {len(points)} code points in {len(ranges)} ranges")


def write_advances(font_path: Path, target: Path) -> None:
    """bold-advances.txt: the advance width (1/1000 em) of every code point of `font_path` outside
    the Hangul syllables (which are all as wide as U+AC00, the line marked ``*``), so the sheet can
    size its name column to the longest name without loading fontTools at run time."""
    font = TTFont(str(font_path), lazy=True)
    cmap, metrics, units = font.getBestCmap(), font["hmtx"].metrics, font["head"].unitsPerEm
    font.close()
    width = {point: round(metrics[glyph][0] * 1000 / units) for point, glyph in cmap.items()}
    lines = [f"* {width[0xAC00]}"] + [f"{point:04X} {w}" for point, w in sorted(width.items())
                                      if not 0xAC00 <= point <= 0xD7A3]
    header = f"# advance widths (1/1000 em) of {font_path.name}, written by tools/subset_fonts.py\n"
    target.write_text(header + "\n".join(lines) + "\n", encoding="ascii")
    print(f"{target}: {len(lines)} widths")


def to_truetype(font: TTFont, max_err: float = 1.0) -> None:
    """Replace the CFF outlines of `font` by TrueType (glyf) outlines, in place."""
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import newTable

    order = font.getGlyphOrder()
    glyph_set = font.getGlyphSet()
    glyf = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = {}
    for name in order:
        pen = TTGlyphPen(glyph_set)
        glyph_set[name].draw(Cu2QuPen(pen, max_err, reverse_direction=True))
        glyf[name] = pen.glyph()
    font["loca"] = newTable("loca")
    font["glyf"] = glyf
    del font["CFF "]
    if "VORG" in font:
        del font["VORG"]
    maxp = font["maxp"] = newTable("maxp")
    maxp.tableVersion = 0x00010000
    for key in ("maxZones",):
        setattr(maxp, key, 1)
    for key in ("maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs",
                "maxStackElements", "maxSizeOfInstructions", "maxComponentElements"):
        setattr(maxp, key, 0)
    font["head"].glyphDataFormat = 0
    post = font["post"]
    post.formatType = 2.0
    post.extraNames = []
    post.mapping = {}
    post.glyphOrder = order
    font.sfntVersion = "\x00\x01\x00\x00"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source-dir", type=Path, default=Path("/usr/share/fonts/opentype/noto"))
    parser.add_argument("--out", type=Path, default=ROOT / "scriptforge" / "fonts")
    parser.add_argument("--arabic-source", type=Path, default=ARABIC_SOURCE)
    parser.add_argument("--slim-existing", action="store_true",
                        help="Only slim the fonts already in --out and rewrite coverage.txt.")
    parser.add_argument("--space-existing", action="store_true",
                        help="Only give the Latin and Arabic subsets already in --out the Korean face's space.")
    args = parser.parse_args()
    if args.space_existing:
        space_existing(args.out)
        return
    for weight, filename in WEIGHTS.items():
        target = args.out / OUT_NAME.format(weight=weight)
        if args.slim_existing:
            font = TTFont(str(target))
            slim(font)
            font.save(str(target))
            print(f"{target}: slimmed, {target.stat().st_size // 1024} KB")
        else:
            make_subset(args.source_dir / filename, target, wanted_text())
    if not args.slim_existing:
        for weight, filename in LATIN_WEIGHTS.items():
            make_latin_subset(LATIN_SOURCE_DIR / filename, args.out / LATIN_OUT.format(weight=weight),
                              args.out / OUT_NAME.format(weight=weight))
    if not args.slim_existing and args.arabic_source.is_file():
        make_arabic_subset(args.arabic_source, args.out / ARABIC_OUT, args.out / OUT_NAME.format(weight="Regular"))
    elif not args.slim_existing:
        print(f"{args.arabic_source}: not installed (fonts-noto-core); {ARABIC_OUT} kept as it is")
    write_coverage(coverage_fonts(args.out), args.out / "coverage.txt")
    write_advances(args.out / OUT_NAME.format(weight="Bold"), args.out / "bold-advances.txt")


if __name__ == "__main__":
    main()
