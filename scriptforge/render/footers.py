"""Page footers without a second layout (``footer-graft`` in ``weasy.PATCHES`` checks it)."""

from typing import Any


def with_margin_boxes(document: Any, donor: Any) -> Any:
    """`document` with the margin boxes (the page footer) of `donor`'s pages, page by page, or None
    where the two do not match (another page count or page size).

    A part of a sheet laid out alone numbers its pages from 1; its pages in the whole output are
    numbered by laying out `donor` — the same ``@page`` rules with the right numbers over empty
    pages (``templates/footers.html.j2``) — and moving its margin boxes onto the part's pages. Margin
    boxes depend on the page's size and ``@page`` rules only (no ``string-set`` on sheets), so the
    PDF is the one a layout of the whole part with those numbers gives, for a fraction of the work
    (``footer-graft`` in PATCHES checks it on the installed WeasyPrint). `document`'s pages are
    changed in place."""
    # deferred: start-up time
    from weasyprint.formatting_structure.boxes import MarginBox

    if len(document.pages) != len(donor.pages) or any(
            (page.width, page.height) != (other.width, other.height) for page, other in zip(document.pages, donor.pages)):
        return None
    for page, other in zip(document.pages, donor.pages):
        box = page._page_box
        box.children = (*(child for child in box.children if not isinstance(child, MarginBox)),
                        *(child for child in other._page_box.children if isinstance(child, MarginBox)))
    return document
