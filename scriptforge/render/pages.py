"""Laid-out pages, read through WeasyPrint's public ``Page``: how far the text goes on each page,
and the parts of one laid-out document.

How far a page is used is read from ``Page.anchors`` (the rectangle of each element with an
``id`` on that page): the templates give an ``id`` starting ``fit-`` (`FIT_ANCHOR`) to each table
of rows (characters, jinxes, a night, the setup table) and to an empty element that ends each
printed part; the lowest of them on a page is where its text ends. A table cut by a page break
ends at its last row on that page (rows are never split), the end marker only on the part's last
page. The page's content box comes from the margins of the view's paper (`PAPER`), which
the templates set. Where a view anchors its rows (`row_anchors`: a sheet of more than a page),
each row of a team's table and of the jinx list has one too, which tells on which page they go
on (`page_starts`). These anchors are layout only: `without_fit_anchors` keeps them
out of the PDF (no named destinations).
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Paper:
    """A paper: its CSS page size and the margins (mm: top, right, bottom, left) of its pages.

    No ink comes within a quarter inch of an edge (token_layout.PRINTABLE_MARGIN_MM: the band office
    printers cannot print):
    the bottom margin holds the page footer, set from its top (sheet.css), with room for three
    lines: a long title and author with the community-content notice of pages with official art."""

    size: str
    margins: tuple[float, float, float, float]  # sheets, night sheets and the almanac's character sheet
    almanac: tuple[float, float, float, float]  # the almanac's other pages: a running header on top

    @property
    def margin_css(self) -> str:
        return _css(self.margins)

    @property
    def almanac_css(self) -> str:
        return _css(self.almanac)


def _css(margins: tuple[float, ...]) -> str:
    return " ".join(f"{value:g}mm" for value in margins)


#: Each paper, which _base.html.j2 (and almanac.html.j2 for its pages) sets.
PAPER = {"a4": Paper("A4", (9, 11, 16, 11), (17, 15, 16, 15)),
         "letter": Paper("letter", (8, 12, 16, 12), (17, 15, 16, 15))}
FIT_ANCHOR = "fit-"
ROW_ANCHOR = "fit-row-"  # a row of a team's table or the jinx list: fit-row-<team or jinxes>-<index> (page_starts)
CSS_PX_PER_MM = 96 / 25.4  # what WeasyPrint counts a millimetre as


def _margins(paper: str) -> tuple[float, float]:
    """(top, bottom) page margins of `paper` in CSS px."""
    top, _, bottom, _ = PAPER[paper].margins
    return top * CSS_PX_PER_MM, bottom * CSS_PX_PER_MM


def page_used(page, paper: str) -> float:
    """How much of a laid-out page's content height its text takes, from the top (0-1)."""
    top, bottom = _margins(paper)
    ends = [rectangle[-1] for name, rectangle in page.anchors.items() if name.startswith(FIT_ANCHOR)]
    return max(0.0, max(ends, default=top) - top) / (page.height - top - bottom)


def page_starts(document) -> dict[str, tuple[int, ...]]:
    """Where the pages of `document` go on with a team or the jinx list: for each, the index of its
    first row on each page that holds its rows but not its first one. In a view that anchors its
    rows, each row has an id `fit-row-<team or jinxes>-<index>` (`ROW_ANCHOR`; rows are never
    split, so each is on one page)."""
    starts: dict[str, list[int]] = {}
    for page in document.pages:
        firsts: dict[str, int] = {}
        for name in page.anchors:
            if name.startswith(ROW_ANCHOR):
                team, _, index = name[len(ROW_ANCHOR):].rpartition("-")
                firsts[team] = min(firsts.get(team, int(index)), int(index))
        for team, first in firsts.items():
            if first > 0:
                starts.setdefault(team, []).append(first)
    return {team: tuple(rows) for team, rows in starts.items()}


def split_parts(document, count: int) -> list:
    """`document` (the parts laid out as one) as one Document per part, cut where a page starts
    with a level-1 bookmark (each part's first heading is an <h1>); Nones when it does not cut
    into `count` parts."""
    starts = [index for index, page in enumerate(document.pages)
              if any(mark[0] == 1 for mark in page.bookmarks)]
    if len(starts) != count or starts[0] != 0:
        return [None] * count
    ends = [*starts[1:], len(document.pages)]
    return [document.copy(document.pages[start:end]) for start, end in zip(starts, ends)]


def without_fit_anchors(page) -> dict:
    """A page's anchors but the measuring ones (which would be named destinations in the PDF)."""
    return {name: place for name, place in page.anchors.items() if not name.startswith(FIT_ANCHOR)}
