"""Where the tokens go on the page: pure geometry in millimetres, no text, no rendering.

- The paper's printable area: every printer leaves an unprintable margin; the layout assumes
  ``PRINTABLE_MARGIN_MM`` (a quarter inch) on each side, the largest minimum margin of common office
  printers, so nothing — cut line, bleed or crop mark — is clipped.
- A token of cut diameter D takes a disk of radius D/2 + bleed (the art goes past the cut line);
  between two such disks there is at least ``CUT_GAP_MM`` of blank paper to cut in.
- Each kind of token (character, reminder) is packed in rows, either in a square grid or
  hexagonally (every other row shifted by half a step and the rows closer together), whichever
  fits more tokens on a full page. The kinds follow each other on the same page: the first
  reminder row goes below the last character row where there is room.
- Crop marks are short radial ticks outside the bleed that point at the cut circle: on the
  diagonals in a grid, at the top and bottom in a hexagonal packing (where the gaps between the
  disks are widest). Two opposite ticks on a circle of known diameter fix its position, which is
  what lining up a circle punch or cutter needs.
"""

from dataclasses import dataclass, field
import math

PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
PRINTABLE_MARGIN_MM = 6.35
CUT_GAP_MM = 2.0
TICK_OFFSET_MM = 0.4  # from the bleed's edge to the tick
TICK_LENGTH_MM = 1.6
HEX_ROW = math.sqrt(3) / 2
GRID_TICKS = (45.0, 135.0, 225.0, 315.0)  # degrees, SVG orientation (y down)
HEX_TICKS = (90.0, 270.0)


@dataclass(frozen=True)
class Kind:
    """One kind of token: its cut diameter and bleed (mm)."""

    name: str
    diameter: float
    bleed: float

    @property
    def radius(self) -> float:
        return self.diameter / 2

    @property
    def art_radius(self) -> float:
        return self.diameter / 2 + self.bleed

    @property
    def pitch(self) -> float:
        return 2 * self.art_radius + CUT_GAP_MM

    @property
    def reach(self) -> float:
        """How far a crop mark reaches from the centre."""
        return self.art_radius + TICK_OFFSET_MM + TICK_LENGTH_MM


@dataclass(frozen=True)
class Placed:
    """One token placed on a page: its kind, its index within the kind, its centre (mm) and its crop-mark angles."""

    kind: str
    index: int  # the token's index within its kind
    x: float  # centre, mm from the printable area's top left
    y: float
    ticks: tuple[float, ...]  # crop-mark angles (degrees)


@dataclass
class Page:
    """One page of placed tokens, in the order they were placed."""

    tokens: list[Placed] = field(default_factory=list)


@dataclass(frozen=True)
class Packing:
    """How one kind is packed: ``hex`` or ``grid``, and the columns of even and odd rows."""

    kind: Kind
    hex: bool
    columns: tuple[int, int]
    offsets: tuple[float, float]  # x of the first centre in even and odd rows
    row_step: float

    @property
    def ticks(self) -> tuple[float, ...]:
        return HEX_TICKS if self.hex else GRID_TICKS

    def half_height(self) -> float:
        """Vertical extent of a row from its centre line (the disk, or the crop marks at the top and bottom)."""
        return self.kind.reach if self.hex else self.kind.art_radius

    def per_page(self, height: float) -> int:
        rows = rows_in(height, self.half_height(), self.row_step)
        return sum(self.columns[r % 2] for r in range(rows))


def rows_in(height: float, half: float, step: float) -> int:
    if height < 2 * half:
        return 0
    return 1 + int((height - 2 * half) // step + 1e-9)


def area(paper: str) -> tuple[float, float]:
    """The printable area (width, height) in mm."""
    width, height = PAPER_MM[paper]
    return width - 2 * PRINTABLE_MARGIN_MM, height - 2 * PRINTABLE_MARGIN_MM


def packing(kind: Kind, width: float, height: float) -> Packing:
    """The packing of `kind` that fits the most tokens on a page of the area `width` × `height`."""
    p, r = kind.pitch, kind.art_radius
    grid_cols = max(0, int((width - 2 * r) // p + 1e-9) + 1) if width >= 2 * r else 0
    grid_x = (width - (grid_cols - 1) * p) / 2
    grid = Packing(kind, False, (grid_cols, grid_cols), (grid_x, grid_x), p)
    # hexagonal: even rows as the grid's, odd rows shifted by half a step (one fewer where it must)
    odd = grid_cols if (grid_cols - 1) * p + p / 2 + 2 * r <= width else grid_cols - 1
    span = max((grid_cols - 1) * p, (odd - 1) * p + p / 2)
    left = (width - span) / 2
    hexagonal = Packing(kind, True, (grid_cols, odd), (left, left + p / 2), p * HEX_ROW)
    return hexagonal if hexagonal.per_page(height) > grid.per_page(height) else grid


def layout(counts: list[tuple[Kind, int]], paper: str) -> list[Page]:
    """The pages for `counts` tokens of each kind, kinds in order, each packed its best way.

    Raises ValueError when a token does not fit on the paper at all.
    """
    width, height = area(paper)
    pages: list[Page] = []
    page = Page()
    bottom = 0.0  # the lowest extent used on the current page (0: nothing yet)
    for kind, count in counts:
        if not count:
            continue
        pack = packing(kind, width, height)
        if pack.columns[0] == 0 or pack.per_page(height) == 0:
            raise ValueError(f"a {kind.diameter:g} mm token with {kind.bleed:g} mm bleed does not fit on {paper}")
        half = pack.half_height()
        y = bottom + CUT_GAP_MM + half if page.tokens else half
        row = 0
        placed = 0
        while placed < count:
            if y + half > height + 1e-9:
                pages.append(page)
                page, y, row = Page(), half, 0
            columns = pack.columns[row % 2]
            for column in range(min(columns, count - placed)):
                x = pack.offsets[row % 2] + column * kind.pitch
                page.tokens.append(Placed(kind.name, placed, x, y, pack.ticks))
                placed += 1
            bottom = y + half
            row += 1
            y += pack.row_step
    if page.tokens:
        pages.append(page)
    return pages
