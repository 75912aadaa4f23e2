"""Make Scriptforge Marks, our own font of the punctuation the bundled fonts lack (run by hand; the output is committed).

The official English flavor of the Hindu ends its half-verses with the danda and the double danda
(U+0964 ``।``, U+0965 ``॥``), which none of the bundled fonts has; without a font for them they print
as boxes. They are the only punctuation of the official texts the bundled fonts lack
(``benchmarks/glyph_coverage.py``; the letters of other scripts it finds are not ours to draw).
Both are plain vertical strokes, so we draw them ourselves rather than ship a Devanagari font:

- the stroke is the text face's vertical bar ``|``: its stem width, and its side bearings around
  the mark (the face is the first bundled font of the page's font stack that has ``|``: the Korean
  face, whose Latin sets every page's Latin text; the Noto Sans subsets hold only letters it lacks);
- it stands on the baseline and reaches the face's capital height (the top of ``I``), as the
  danda reaches the top of the letters before it;
- the double danda's two strokes stand as far apart as the two strokes of the face's straight
  double quote ``"``;
- one font per weight (Regular from the regular face, Bold from the bold one), with the face's
  vertical metrics, so a line holding a mark is no taller than one without;
- a space (U+0020, U+00A0) as wide as the face's: Pango sets a space in the font of the character
  before it where it ends a text (``।`` before an inline ``<span>``), and a font without one would
  print it as the box of a missing glyph. Last in the font stack, it is never chosen otherwise.

The outlines are TrueType rectangles drawn with a pen through fontTools' FontBuilder; the head
table's dates are fixed, so the same fonts give the same bytes. The name table says what the font
is and its licence (scriptforge's, MIT). Then ``coverage.txt`` is written again
(``subset_fonts.write_coverage``), so the renderer's glyph check counts the marks as covered.

Usage (again after ``tools/subset_fonts.py`` has made new text faces, to measure those):

    python tools/marks_font.py [--fonts scriptforge/fonts]
"""

import argparse
from pathlib import Path

from fontTools.fontBuilder import FontBuilder
from fontTools.misc.timeTools import timestampSinceEpoch
from fontTools.pens.boundsPen import BoundsPen
from fontTools.pens.recordingPen import DecomposingRecordingPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont

from subset_fonts import LATIN_OUT, OUT_NAME, coverage_fonts, write_coverage

ROOT = Path(__file__).resolve().parent.parent
FAMILY = "Scriptforge Marks"
OUT = "ScriptforgeMarks-{weight}.ttf"
WEIGHTS = ("Regular", "Bold")
#: the bundled faces in the order of the page's font stack (typefaces.font_stack)
STACK = (OUT_NAME, LATIN_OUT)
DANDA, DOUBLE_DANDA = 0x0964, 0x0965
MADE = 1767225600  # 2026-01-01 00:00 UTC: the head table's dates (same input, same bytes)
VERSION = "1.000"
LICENCE = ("Scriptforge Marks is part of scriptforge and under scriptforge's licence, the MIT License (see the "
           "README of scriptforge, section License): it may be used, copied, changed, embedded in documents and "
           "bundled with other fonts, those under the SIL Open Font License included. Its outlines are drawn by "
           "tools/marks_font.py from measurements alone; no outline is taken from another font.")


class Face:
    """What the marks take from a bundled text face of one weight."""

    def __init__(self, path: Path):
        font = TTFont(str(path))
        cmap, glyphs, hmtx = font.getBestCmap(), font.getGlyphSet(), font["hmtx"]

        def bounds(char: str) -> tuple[int, int, int, int]:
            pen = BoundsPen(glyphs)
            glyphs[cmap[ord(char)]].draw(pen)
            return tuple(round(v) for v in pen.bounds)  # type: ignore[return-value]

        bar_left, _, bar_right, _ = bounds("|")
        advance = hmtx[cmap[ord("|")]][0]
        self.stem = bar_right - bar_left
        self.left, self.right = bar_left, advance - bar_right
        self.height = bounds("I")[3]
        self.gap = quote_gap(glyphs, cmap[ord('"')])
        self.space = hmtx[cmap[ord(" ")]][0]
        self.name = path.name
        os2, hhea, post = font["OS/2"], font["hhea"], font["post"]
        self.vertical = {"ascent": hhea.ascent, "descent": hhea.descent, "lineGap": hhea.lineGap}
        self.os2 = {key: getattr(os2, key) for key in (
            "usWeightClass", "fsSelection", "sTypoAscender", "sTypoDescender", "sTypoLineGap",
            "usWinAscent", "usWinDescent", "sxHeight", "sCapHeight")}
        self.underline = {"underlinePosition": post.underlinePosition, "underlineThickness": post.underlineThickness}
        self.mac_style = font["head"].macStyle
        font.close()


def quote_gap(glyphs, name: str) -> int:
    """The space between the two strokes of the straight double quote (its two contours)."""
    pen = DecomposingRecordingPen(glyphs)
    glyphs[name].draw(pen)
    contours, points = [], []
    for op, args in pen.value:
        points.extend(args)
        if op in ("closePath", "endPath"):
            contours.append([x for x, _ in points])
            points = []
    assert len(contours) == 2, f'{name}: {len(contours)} contours, not the two strokes of a straight quote'
    first, second = sorted(contours, key=min)
    return round(min(second) - max(first))


def face_for(fonts: Path, weight: str) -> Face:
    """The first face of the font stack that has ``|`` (with ``I`` and ``"``), in `weight`."""
    for pattern in STACK:
        path = fonts / pattern.format(weight=weight)
        font = TTFont(str(path), lazy=True)
        has = all(ord(c) in font.getBestCmap() for c in '|I" ')
        font.close()
        if has:
            return Face(path)
    raise SystemExit(f"no bundled {weight} face has '|', 'I', '\"' and ' '")


def strokes(pen: TTGlyphPen, lefts: list[int], stem: int, height: int) -> None:
    """Upright strokes `stem` wide from the baseline to `height`, one at each of `lefts`
    (clockwise: TrueType's outer contours)."""
    for left in lefts:
        pen.moveTo((left, 0))
        pen.lineTo((left, height))
        pen.lineTo((left + stem, height))
        pen.lineTo((left + stem, 0))
        pen.closePath()


def notdef(pen: TTGlyphPen, width: int, stem: int, height: int) -> None:
    """An empty box, as fonts draw a glyph they lack (never shown: the marks font is last in the stack)."""
    inset = stem
    outer = [(inset, 0), (inset, height), (width - inset, height), (width - inset, 0)]
    inner = [(inset + stem, stem), (width - inset - stem, stem), (width - inset - stem, height - stem),
             (inset + stem, height - stem)]
    for contour in (outer, inner):  # the outer clockwise, the counter anticlockwise
        pen.moveTo(contour[0])
        for point in contour[1:]:
            pen.lineTo(point)
        pen.closePath()


def build(face: Face, weight: str) -> TTFont:
    """The Scriptforge Marks font of `weight`, measured from `face`."""
    stem, height, left, right, gap = face.stem, face.height, face.left, face.right, face.gap
    shapes = {
        # name: (drawing, advance width, left side bearing)
        ".notdef": (lambda pen: notdef(pen, 500, stem, height), 500, stem),
        "space": (lambda pen: None, face.space, 0),
        "uni0964": (lambda pen: strokes(pen, [left], stem, height), left + stem + right, left),
        "uni0965": (lambda pen: strokes(pen, [left, left + stem + gap], stem, height), left + 2 * stem + gap + right,
                    left),
    }
    glyphs, metrics = {}, {}
    for name, (draw, advance, bearing) in shapes.items():
        pen = TTGlyphPen(None)
        draw(pen)
        glyphs[name] = pen.glyph()
        metrics[name] = (advance, bearing)
    builder = FontBuilder(1000, isTTF=True)
    builder.setupHead(unitsPerEm=1000, created=timestampSinceEpoch(MADE), modified=timestampSinceEpoch(MADE),
                      macStyle=face.mac_style, fontRevision=float(VERSION))
    builder.setupGlyphOrder(list(shapes))
    builder.setupCharacterMap({0x20: "space", 0xA0: "space", DANDA: "uni0964", DOUBLE_DANDA: "uni0965"})
    builder.setupGlyf(glyphs)
    builder.setupHorizontalMetrics(metrics)
    builder.setupHorizontalHeader(**face.vertical)
    ps_name = f"{FAMILY.replace(' ', '')}-{weight}"
    builder.setupNameTable({
        "copyright": "Copyright 2026 the scriptforge authors",
        "familyName": FAMILY,
        "styleName": weight,
        "uniqueFontIdentifier": f"{VERSION};scriptforge;{ps_name}",
        "fullName": f"{FAMILY} {weight}",
        "version": f"Version {VERSION}",
        "psName": ps_name,
        "manufacturer": "scriptforge",
        "description": (f"The danda and double danda (U+0964, U+0965) for scriptforge's sheets: upright strokes with "
                        f"the stem and side bearings of '|' and the height of 'I' of {face.name}, the two strokes "
                        f"of the double danda as far apart as those of '\"'. Made by tools/marks_font.py."),
        "licenseDescription": LICENCE,
    })
    builder.setupOS2(version=4, achVendID="NONE", fsType=0, usWidthClass=5, usDefaultChar=0, usBreakChar=0x20,
                     usMaxContext=1, ulCodePageRange1=0, ulCodePageRange2=0, **face.os2)
    builder.setupPost(**face.underline)
    return builder.font


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fonts", type=Path, default=ROOT / "scriptforge" / "fonts",
                        help="the bundled fonts folder: read for the measurements, written to")
    args = parser.parse_args()
    for weight in WEIGHTS:
        face = face_for(args.fonts, weight)
        target = args.fonts / OUT.format(weight=weight)
        build(face, weight).save(str(target))
        print(f"{target}: stem {face.stem}, height {face.height}, bearings {face.left}/{face.right}, "
              f"gap {face.gap} (from {face.name}); {target.stat().st_size} bytes")
    write_coverage(coverage_fonts(args.fonts), args.fonts / "coverage.txt")


if __name__ == "__main__":
    main()
