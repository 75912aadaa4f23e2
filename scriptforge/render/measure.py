"""Text widths in the bundled bold font, to size a sheet's name column so no name wraps while the
ability column beside it has room (Devil's / Advocate) and none breaks inside a word
(Washerwoma|n): the column grows to the widest whole name; where a name is wider than the widest
column it wraps at its spaces, and where a word is, the names are set smaller.

The widths come from ``fonts/bold-advances.txt`` (written by ``tools/subset_fonts.py``): the
fonts have no kerning, so a word's width is the sum of its characters' advances.
"""

from collections.abc import Iterable
from dataclasses import dataclass
import functools

from scriptforge.io.paths import FONTS_DIR

NAME_FONT_REM = 1.08  # .name in sheet.css
SECOND_NAME_FONT_REM = 0.76  # .second-name in sheet.css
CELL_PADDING_REM = 0.5  # .name-cell's padding-right
SAFETY_REM = 0.2  # rounding in the layout, and a margin for fallback glyphs
WIDEST_REM = 12.0  # beyond this the ability column gets too narrow: the names shrink instead


@dataclass(frozen=True)
class NameColumn:
    """The name column's width (rem) and the names' font size (rem)."""

    width: float
    font: float = NAME_FONT_REM


@functools.cache
def _advances() -> tuple[dict[int, int], int]:
    """(advance per code point in 1/1000 em, the advance of every Hangul syllable)."""
    widths: dict[int, int] = {}
    hangul = 1000
    for line in (FONTS_DIR / "bold-advances.txt").read_text(encoding="ascii").splitlines():
        if not line or line.startswith("#"):
            continue
        key, value = line.split()
        if key == "*":
            hangul = int(value)
        else:
            widths[int(key, 16)] = int(value)
    return widths, hangul


def width_em(text: str) -> float:
    """The width of `text` in the bold face, in em (a character the font lacks counts 1 em)."""
    widths, hangul = _advances()
    total = 0
    for char in text:
        point = ord(char)
        total += hangul if 0xAC00 <= point <= 0xD7A3 else widths.get(point, 1000)
    return total / 1000


def longest_word_em(names: Iterable[str]) -> float:
    """The width (em) of the widest word of any of `names` (words: split at spaces)."""
    return max((width_em(word) for name in names for word in name.split()), default=0.0)


def fits_whole(name: str, font: float = NAME_FONT_REM) -> bool:
    """Whether `name` (at `font` rem) fits on one line of the widest name column."""
    return width_em(name) * font + CELL_PADDING_REM + SAFETY_REM <= WIDEST_REM


def name_column(names: Iterable[str], second_names: Iterable[str] = (), *, narrowest: float) -> NameColumn:
    """The column that holds every one of `names` (at the name size) and of `second_names` (at
    the small size) on one line: at least `narrowest` rem wide, at most WIDEST_REM; a name
    wider than that wraps at its spaces, and where one of its words is wider the names are set
    smaller."""
    names, second_names = list(names), list(second_names)
    whole = max((width_em(name) * NAME_FONT_REM for name in names), default=0.0)
    whole = max(whole, max((width_em(name) * SECOND_NAME_FONT_REM for name in second_names), default=0.0))
    needed = whole + CELL_PADDING_REM + SAFETY_REM
    if needed <= narrowest:
        return NameColumn(width=narrowest)
    if needed <= WIDEST_REM:
        return NameColumn(width=round(needed, 2))
    first = longest_word_em(names) * NAME_FONT_REM
    room = WIDEST_REM - CELL_PADDING_REM - SAFETY_REM
    font = NAME_FONT_REM * min(1.0, room / first) if first else NAME_FONT_REM
    return NameColumn(width=WIDEST_REM, font=round(font, 3))
