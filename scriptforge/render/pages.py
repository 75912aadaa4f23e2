"""Laid-out pages, read through WeasyPrint's public ``Page``: how far the text goes on each page,
and the parts of one laid-out document.

How far a page is used is read from ``Page.anchors`` (the rectangle of each element with an
``id`` on that page): the templates give an ``id`` starting ``fit-`` (`FIT_ANCHOR`) to each table
of rows (characters, jinxes, a night, the setup table) and to an empty element that ends each
printed part; the lowest of them on a page is where its text ends. A table cut by a page break
ends at its last row on that page (rows are never split), the end marker only on the part's last
page. The page's content box comes from the margins of the view's paper (`PAPER`), which
the templates set. These anchors are layout only: `without_fit_anchors` keeps them out of
the PDF (no named destinations).
"""

#: Each paper: its CSS page size and margins (top right bottom left), which _base.html.j2 sets
#: (the almanac sets its own margins; page_used is not asked about its pages).
PAPER = {"a4": ("A4", "9mm 11mm 9mm 11mm"), "letter": ("letter", "8mm 12mm 8mm 12mm")}
FIT_ANCHOR = "fit-"
CSS_PX_PER_MM = 96 / 25.4  # what WeasyPrint counts a millimetre as


def _margins(paper: str) -> tuple[float, float]:
    """(top, bottom) page margins of `paper` in CSS px."""
    top, _, bottom, _ = (float(value.removesuffix("mm")) * CSS_PX_PER_MM for value in PAPER[paper][1].split())
    return top, bottom


def page_used(page, paper: str) -> float:
    """How much of a laid-out page's content height its text takes, from the top (0-1)."""
    top, bottom = _margins(paper)
    ends = [rectangle[-1] for name, rectangle in page.anchors.items() if name.startswith(FIT_ANCHOR)]
    return max(0.0, max(ends, default=top) - top) / (page.height - top - bottom)


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
