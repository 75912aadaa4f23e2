"""Which text scale a part of a sheet is printed at, from at most three layouts.

A part (the sheet, the back page, a night) that does not fit on its page is printed at the largest
of ``SHRINK_STEPS`` at which it fits, or, where it fits at none, at the largest at which it takes
as few pages as at the smallest step. Laying it out at every step (up to six whole layouts of a
224-character script) found that by trying; here the first layout, at 100 %, predicts it:

- a layout is measured as the height its text takes on each page (``pages.page_used``, as a fraction
  of the page); their sum is the part's height, and the pages before the last tell how full a page
  gets before a row has to go to the next one (rows and headings are not split);
- the height at scale s is predicted as ``height(1) * s ** k``: k is 1.4 until a second layout
  measures it (between 1 and 2: all sizes are in rem, so each line is s times as high and holds
  1/s times as many characters, but one-line rows and icons only shrink by s);
- the second layout is at the predicted step, the third (if any) confirms the step next to it.

On the reference corpus (every part of every script, ``en``, A4) this picks what the step-by-step
search picked for 31 of the 33 parts that do not fit at 100 %, with 80 layouts instead of 148; the
other two take the same pages one step smaller (70 % where 76 % would do). Never more than three
layouts per part.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
import math

from scriptforge.render.pages import page_starts, page_used

SHRINK_STEPS = (1.0, 0.94, 0.88, 0.82, 0.76, 0.7)
MAX_LAYOUTS = 3


def steps_for(font_scale: float) -> tuple[float, ...]:
    """SHRINK_STEPS for text `font_scale` times the normal size (--font-size large), with the
    steps that print it at each size the normal text can be printed at: a larger font never ends
    smaller than the normal one (large at 76 % was 87 % of normal, where normal fitted at 88 %)."""
    if font_scale <= 1.0:
        return SHRINK_STEPS
    same = {round(step / font_scale, 4) for step in SHRINK_STEPS if SHRINK_STEPS[-1] <= step / font_scale < 1.0}
    return tuple(sorted(set(SHRINK_STEPS) | same, reverse=True))
LAST_PAGE = 0.985  # the most of a page's height text takes before the next row goes over
FIRST_EXPONENT = 1.4  # height ~ scale ** k before two layouts measure k
SURE = 0.10  # a prediction this far over a page count is taken as certain (no layout checks it)
HOPEFUL = 0.03  # a larger step predicted this close to fitting is worth the third layout


def choose_scale(lay: Callable[[float], list[float]], wanted: int = 1,
                 steps: tuple[float, ...] = SHRINK_STEPS) -> tuple[float, int]:
    """(the scale to print at, the layouts made): `lay(scale)` lays the part out at `scale` and
    returns each page's used height (0-1); it is called at most MAX_LAYOUTS times, first at
    steps[0], never twice with one scale. `wanted`: the pages the part should take."""
    used: dict[float, list[float]] = {}

    def pages(scale: float) -> int:
        if scale not in used:
            used[scale] = lay(scale)
        return len(used[scale])

    top, smallest = steps[0], steps[-1]
    if pages(top) <= wanted:
        return top, 1
    first = used[top]
    height = sum(first)
    fill = sum(first[:-1]) / (len(first) - 1)

    def capacity(count: int) -> float:
        return (count - 1) * fill + LAST_PAGE

    def predicted(scale: float) -> float:
        measured = [s for s in used if s < top]
        exponent = FIRST_EXPONENT
        if measured and height > 0 and sum(used[min(measured)]) > 0:
            low = min(measured)
            exponent = max(0.5, min(3.0, _log(sum(used[low]) / height) / _log(low / top)))
        return height * (scale / top) ** exponent

    def fewest() -> tuple[float, int]:
        least = min(len(u) for u in used.values())
        return max(s for s, u in used.items() if len(u) == least), len(used)

    if predicted(smallest) > capacity(wanted) * (1 + SURE):  # more pages than wanted even at the smallest
        least = wanted
        while capacity(least) < predicted(smallest):
            least += 1
        if least >= len(first) and predicted(smallest) > capacity(len(first) - 1) * (1 + SURE):
            return top, 1  # no step saves a page: the largest text
        target = max(wanted, pages(smallest))
    else:
        target = wanted
        guess = max([s for s in steps[1:] if predicted(s) <= capacity(wanted)] or [smallest])
        if pages(guess) > wanted:
            below = [s for s in steps if s < guess]
            if not below:
                target = pages(guess)
            else:
                lower = max([s for s in below if predicted(s) <= capacity(wanted)] or [below[0]])
                if pages(lower) <= wanted:
                    return lower, len(used)
                return fewest()
    best = max(s for s, u in used.items() if len(u) <= target)
    if len(used) < MAX_LAYOUTS:
        larger = [s for s in steps if s > best and s not in used and predicted(s) <= capacity(target) * (1 + HOPEFUL)]
        if larger and pages(max(larger)) <= target:
            best = max(larger)
    return best, len(used)


def _log(value: float) -> float:
    return math.log(value)


# -- fitting a part: the layouts behind choose_scale ------------------------------------------
# (moved here from the Renderer; what it decides is choose_scale's, above)

BALANCED_PAGE = 0.25  # a page used less than this is nearly empty


@dataclass(frozen=True)
class Fitted:
    """What fitting one part came to: its name, the layouts made, the scale chosen, its pages."""

    part: str
    layouts: int
    scale: float
    pages: int


def fit_part(lay_out: Callable[[float], Any], paper: str, what: str, pages_wanted: int = 1,
             first: Any = None, steps: tuple[float, ...] = SHRINK_STEPS) -> tuple[Any, Fitted, list[str]]:
    """(the layout, what was fitted, the warnings) of a part laid out by `lay_out(scale)` (a
    WeasyPrint Document of the part at that text size), its text at the largest of SHRINK_STEPS
    at which it takes `pages_wanted` pages (else at the largest at which it takes the fewest),
    chosen by `choose_scale` from at most three layouts; `first`: its layout at 100 % if already
    made; `steps`: the scales to choose from (`steps_for`). Nothing is changed: each size is laid
    out from the caller's view anew."""
    laid: dict[float, Any] = {}  # scale -> weasyprint Document

    def lay(scale: float) -> list[float]:
        laid[scale] = first if scale == SHRINK_STEPS[0] and first is not None else lay_out(scale)
        return [page_used(page, paper) for page in laid[scale].pages]

    scale, layouts = choose_scale(lay, pages_wanted, steps)
    if steps != SHRINK_STEPS:
        # steps finer than choose_scale's prediction tells apart (a larger font): climb to the
        # largest that takes no more pages, one layout a step, so the normal size's fit is reached
        while (above := [s for s in steps if s > scale]) and min(above) not in laid:
            candidate, layouts = min(above), layouts + 1
            if len(lay(candidate)) > max(pages_wanted, len(laid[scale].pages)):
                break
            scale = candidate
    document = laid[scale]
    fitted = Fitted(what, layouts, scale, len(document.pages))
    wanted = f"{pages_wanted} page{'s' if pages_wanted > 1 else ''}"
    warnings = []
    if len(document.pages) > pages_wanted:
        warnings.append(f"{what} does not fit on {wanted}: it takes {len(document.pages)} pages, "
                        f"at {round(scale * 100)}% text size")
    elif scale < SHRINK_STEPS[0]:
        warnings.append(f"{what}: text set at {round(scale * 100)}% to fit on {wanted}")
    return document, fitted, warnings


def save_last_page(lay_out: Callable[[float], Any], document: Any, paper: str) -> Any:
    """`document` laid out again by `lay_out(scale)` with smaller text (SHRINK_STEPS down to 82 %)
    when its last page is under BALANCED_PAGE used and that saves the page; else `document`."""
    if len(document.pages) < 2 or page_used(document.pages[-1], paper) >= BALANCED_PAGE:
        return document
    for scale in SHRINK_STEPS[1:4]:
        tighter = lay_out(scale)
        if len(tighter.pages) < len(document.pages):
            return tighter
    return document


def mark_continued(lay_out: Callable[[Any], Any], view: Any,
                   cut: Callable[[Any, dict[str, tuple[int, ...]]], Any]) -> tuple[Any, Any]:
    """(the view, its layout) with the heading of each team (and of the jinx list) a page goes on
    with marked as continued on that page. `cut(view, starts)` is `view` with its tables cut at
    those rows (`views.with_page_starts`) and its rows anchored, so a layout tells where each page
    starts (`pages.page_starts`); `cut(view, {})` anchors without cutting. The heading is its
    table's head, so WeasyPrint repeats it on each page anyway, and the rows fall on the same pages
    when a table is cut where a page starts. The marked layout is taken when its pages start at the
    same rows, else the anchored one (the heading repeated, unmarked)."""
    anchored = cut(view, {})
    document = lay_out(anchored)
    starts = page_starts(document)
    if not starts:
        return anchored, document
    marked = cut(view, starts)
    again = lay_out(marked)
    if len(again.pages) == len(document.pages) and page_starts(again) == starts:
        return marked, again
    return anchored, document
