"""Whether a picture may go on a sheet: decodable, and small enough to draw in bounded time and memory.

Every character picture (an `--icons` file, a homebrew `image` file, `data:` or fetched URL) is
checked here before WeasyPrint sees it; one that fails is left out with a warning and the
character gets its generated icon. The limits (the README's Reliability section lists them):

- bytes: `MAX_IMAGE_BYTES` per picture (8 MiB; the official icons are ~20-150 kB);
- raster pictures (PNG, WebP, JPEG, GIF): at most `MAX_PIXELS` (4096 × 4096 = 16.8 million;
  the largest real character icons are about 1,500 × 1,500), read from the header before a pixel
  is decoded, so a "decompression bomb" costs nothing;
- SVG: at most `SVG_MAX_ELEMENTS` (5,000) elements once every `<use>` and `url(#…)` reference is
  counted as a copy of what it names (a 2 KB file of nested `<use>` can stand for billions of
  shapes), `SVG_TOTAL_ELEMENTS` (20,000) for all the SVGs of one document, nested at most
  `SVG_MAX_DEPTH` deep, no entity declarations and no reference cycles; reading stops as soon
  as a limit is passed, and the count itself after `SVG_SECONDS`.
"""

import io
import re
import time
from typing import Any

MAX_IMAGE_BYTES = 8 * 1024 * 1024
MAX_PIXELS = 4096 * 4096
SVG_MAX_ELEMENTS = 5_000  # ~1 s of WeasyPrint's drawing on the development machine (19,000: 5 s)
SVG_TOTAL_ELEMENTS = 20_000  # all SVG pictures of one document together
SVG_MAX_DEPTH = 64
SVG_SECONDS = 0.5

_REFERENCE = re.compile(r"url\(\s*['\"]?#([^)'\"\s]+)")
_HREFS = ("href", "{http://www.w3.org/1999/xlink}href")


def image_problem(data: bytes, mime: str) -> str | None:
    """Why `data` (of type `mime`) is not drawn, or None when it may be."""
    return checked_image(data, mime)[0]


def checked_image(data: bytes, mime: str) -> tuple[str | None, int]:
    """(why `data` is not drawn or None, its cost: the elements of an SVG with its copies, else 0)."""
    if len(data) > MAX_IMAGE_BYTES:
        return (f"{len(data) / (1024 * 1024):.1f} MiB, larger than the limit of "
                f"{MAX_IMAGE_BYTES // (1024 * 1024)} MiB"), 0
    if mime == "image/svg+xml":
        return svg_check(data)
    return raster_problem(data, mime), 0


def raster_problem(data: bytes, mime: str) -> str | None:
    # deferred: start-up time
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as image:  # reads the header only
            width, height = image.size
            if width * height > MAX_PIXELS:
                return (f"{width:,} × {height:,} pixels, more than the limit of {MAX_PIXELS:,} "
                        f"({int(MAX_PIXELS ** 0.5):,} × {int(MAX_PIXELS ** 0.5):,})")
            image.verify()
    except UnidentifiedImageError:
        return f"cannot be decoded as {mime} (not an image format scriptforge reads)"
    except Image.DecompressionBombError:
        return "too many pixels to decode safely"
    except (OSError, ValueError, SyntaxError, EOFError) as exc:
        return f"cannot be decoded as {mime} ({str(exc)[:80] or 'damaged'})"
    return None


class _OverBudget(Exception):
    pass


def svg_check(data: bytes) -> tuple[str | None, int]:
    """(why an SVG is not drawn: unreadable, not SVG, over the element/depth/time budget; or None,
    its elements with every reference expanded)."""
    # deferred: start-up time
    import xml.etree.ElementTree as ElementTree

    if b"<!ENTITY" in data:
        return "an SVG with entity declarations (not drawn: they can expand without bound)", 0
    try:
        root = _parse(data)
    except _OverBudget as exc:
        return str(exc), 0
    except ElementTree.ParseError as exc:
        return f"not a readable SVG image ({exc})", 0
    if root is None or root.tag.rpartition("}")[2] != "svg":
        return "not an SVG image (no <svg> element)", 0
    try:
        count = _SvgCounter(root).total()
    except _OverBudget as exc:
        return str(exc), 0
    except RecursionError:
        return "an SVG whose references nest too deeply", 0
    return (None if count <= SVG_MAX_ELEMENTS else _too_many(count)), count


def _too_many(count: int | str) -> str:
    return (f"an SVG of more than {SVG_MAX_ELEMENTS:,} elements with its <use> copies counted "
            f"({count}); too costly to draw")


def _parse(data: bytes) -> Any:
    """The SVG's root element, read element by element so that a huge file stops at the budget."""
    # deferred: start-up time
    import xml.etree.ElementTree as ElementTree

    depth = elements = 0
    root = None
    for event, node in ElementTree.iterparse(io.BytesIO(data), events=("start", "end")):
        if event == "end":
            depth -= 1
            continue
        root = node if root is None else root
        depth += 1
        elements += 1
        if depth > SVG_MAX_DEPTH:
            raise _OverBudget(f"an SVG nested deeper than {SVG_MAX_DEPTH} levels")
        if elements > SVG_MAX_ELEMENTS:
            raise _OverBudget(_too_many(f"{elements:,} in the file alone"))
    return root


class _SvgCounter:
    """Elements of an SVG with every reference expanded (memoised, so linear in the file)."""

    def __init__(self, root: Any):
        self.root = root
        self.by_id: dict[str, Any] = {}
        self.deadline = time.monotonic() + SVG_SECONDS
        self.cost: dict[int, int] = {}
        self.open: set[int] = set()
        stack = [(root, 1)]
        seen = 0
        while stack:
            node, depth = stack.pop()
            seen += 1
            if depth > SVG_MAX_DEPTH:
                raise _OverBudget(f"an SVG nested deeper than {SVG_MAX_DEPTH} levels")
            if seen > SVG_MAX_ELEMENTS:
                raise _OverBudget(_too_many(f"{seen:,} in the file alone"))
            ident = node.get("id")
            if ident:
                self.by_id.setdefault(ident, node)
            stack.extend((child, depth + 1) for child in node)

    def total(self) -> int:
        return self._cost(self.root, 0)

    def _references(self, node: Any) -> list[Any]:
        names = []
        for key in _HREFS:
            value = node.get(key)
            if value and value.startswith("#"):
                names.append(value[1:])
        for value in node.attrib.values():
            if "url(" in value:
                names.extend(_REFERENCE.findall(value))
        return [self.by_id[n] for n in names if n in self.by_id]

    def _cost(self, node: Any, chain: int) -> int:
        key = id(node)
        if key in self.cost:
            return self.cost[key]
        if key in self.open:
            raise _OverBudget("an SVG whose <use> references form a cycle")
        if chain > 4 * SVG_MAX_DEPTH:
            raise _OverBudget("an SVG whose <use> references nest too deeply")
        if time.monotonic() > self.deadline:
            raise _OverBudget(f"an SVG too costly to measure within {SVG_SECONDS:g} s")
        self.open.add(key)
        total = 1
        for part in (*node, *self._references(node)):
            total += self._cost(part, chain + 1)
            if total > SVG_MAX_ELEMENTS:
                raise _OverBudget(_too_many("far more"))
        self.open.discard(key)
        self.cost[key] = total
        return total
