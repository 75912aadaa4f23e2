"""Laid-out documents → the bytes of an output: one PDF, or one PNG per page.

- Same input, same bytes: no dates in the PDF metadata; the subset fonts stamped with a fixed
  date (``SOURCE_DATE_EPOCH``, which fontTools reads); no ``/ID`` (WeasyPrint writes none unless
  asked, as stock WeasyPrint's PDFs).
- The PDF is WeasyPrint's own, deflated as stock WeasyPrint deflates it (pydyf, zlib level 9),
  so it is no larger than stock WeasyPrint's of the same HTML (``benchmarks/pdf_size.py``).
- The word joiners that keep Korean words whole are layout, not text: they are left out of the
  title and bookmarks a PDF viewer shows; the measuring anchors (``pages.FIT_ANCHOR``) are left
  out of the named destinations.
- WeasyPrint's warnings about fonts and missing glyphs are kept as the render's warnings.
"""

import copy
from dataclasses import dataclass, field
import logging
import math
import os
import io

from scriptforge.io.errors import InputError
from scriptforge.render.choices import PNG_DPI
from scriptforge.render.pages import without_fit_anchors
from scriptforge.render.views import WORD_JOINER

# The most pixels one PNG page may have: an A4 or Letter page at 600 dpi (35 million) renders in
# about 300 MiB; a page at 1200 dpi (140 million) took 1.56 GB.
PNG_PIXEL_BUDGET = 40_000_000
FIXED_EPOCH = "1704067200"  # 2024-01-01: the date stamped into embedded font subsets


@dataclass
class Rendered:
    """One output: its bytes per file suffix (a PNG per page), page counts and warnings, and what
    fitting each part that did not fit at full size came to (``fit.Fitted``)."""

    files: list[tuple[str, bytes]]  # (suffix such as ".pdf" or "-1.png", data)
    pages: int = 0
    warnings: list[str] = field(default_factory=list)
    fitted: list = field(default_factory=list)
    docs: list = field(default_factory=list)  # the laid-out WeasyPrint Documents (PDF and PNG output)


def pdf_bytes(docs: list) -> bytes:
    """The PDF of laid-out documents, page after page (the documents are left as they are)."""
    pages = [copy.copy(page) for doc in docs for page in doc.pages]
    for page in pages:
        page.bookmarks = [(level, label.replace(WORD_JOINER, ""), *rest) for level, label, *rest in page.bookmarks]
        page.anchors = without_fit_anchors(page)
    document = docs[0].copy(pages)
    document.metadata = copy.copy(document.metadata)
    document.metadata.created = None
    document.metadata.modified = None
    document.metadata.generator = "scriptforge"
    document.metadata.title = (document.metadata.title or "").replace(WORD_JOINER, "") or None
    saved = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = saved or FIXED_EPOCH
    try:
        return document.write_pdf(uncompressed_pdf=False)
    finally:
        if saved is None:
            os.environ.pop("SOURCE_DATE_EPOCH", None)


def pdf_to_png(pdf: bytes, dpi: int = PNG_DPI) -> list[tuple[str, bytes]]:
    """One PNG per page (suffix ``.png`` for a single page, ``-1.png``, ``-2.png``… otherwise)."""
    # deferred: start-up time
    import pypdfium2

    document = pypdfium2.PdfDocument(pdf)
    try:
        out = []
        count = len(document)
        for index in range(count):
            page = document[index]
            width, height = page.get_size()
            _check_pixel_budget(width, height, dpi)
            image = page.render(scale=dpi / 72).to_pil()
            buffer = io.BytesIO()
            image.save(buffer, format="PNG", optimize=False, dpi=(dpi, dpi))  # the pHYs chunk
            out.append((".png" if count == 1 else f"-{index + 1}.png", buffer.getvalue()))
            page.close()
        return out
    finally:
        document.close()


def _check_pixel_budget(width_pt: float, height_pt: float, dpi: int) -> None:
    """An InputError naming --dpi when a page of this size would be more pixels than the budget."""
    width, height = round(width_pt * dpi / 72), round(height_pt * dpi / 72)
    if width * height > PNG_PIXEL_BUDGET:
        most = int(72 * math.sqrt(PNG_PIXEL_BUDGET / (width_pt * height_pt)))
        raise InputError(f"a PNG page of {width:,} × {height:,} pixels is over the budget of "
                         f"{PNG_PIXEL_BUDGET // 1_000_000} million pixels; at most --dpi {most} on this paper "
                         "(or PDF output, which has no pixels)", where=f"--dpi {dpi}")


def output(docs: list, fmt: str, warnings: list[str], dpi: int = PNG_DPI, fitted: list | None = None) -> Rendered:
    """The `Rendered` PDF or PNG pages of `docs`."""
    pdf = pdf_bytes(docs)
    files = [(".pdf", pdf)] if fmt == "pdf" else pdf_to_png(pdf, dpi)
    return Rendered(files=files, pages=sum(len(d.pages) for d in docs), warnings=unique(warnings),
                    fitted=list(fitted or []), docs=list(docs))


class _Collect(logging.Handler):
    """Keeps WeasyPrint's warnings about fonts and missing glyphs, to report them to the user."""

    def __init__(self, sink: list[str]):
        super().__init__(logging.WARNING)
        self.sink = sink

    def emit(self, record):
        message = record.getMessage()
        if "Font-face" in message or "notdef" in message:
            self.sink.append("WeasyPrint: " + message)


class captured_weasyprint_warnings:
    """While active, WeasyPrint's warnings about fonts and glyphs go into `sink`."""

    def __init__(self, sink: list[str]):
        self.handler = _Collect(sink)

    def __enter__(self):
        logging.getLogger("weasyprint").addHandler(self.handler)

    def __exit__(self, *exc):
        logging.getLogger("weasyprint").removeHandler(self.handler)
        return False


def unique(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))
