"""Token sheets: the view model of `scriptforge tokens` and its rendering.

Every token is drawn in one inline SVG per page (``templates/tokens.html.j2``), in millimetres:

- the art disk (the cut diameter plus the bleed), the cut line (a thin circle) and the crop marks
  (``token_layout``);
- a character token: its icon (``views.icon_for``, the one icon lookup the sheets use, resolved by
  the renderer: an ``--icons`` file, a homebrew image, else the monogram in the team colour), its
  name **curved along the lower edge** — each glyph placed and rotated on the arc (SVG ``x``/``y``/
  ``rotate`` lists, which WeasyPrint 70 draws; it has no ``textPath``), so the text stays vector,
  embedded and searchable — and the marks: first night (a crescent at the upper left), other nights
  (a crescent at the upper right), one pip per reminder token at the top, setup (a diamond);
- a reminder token: the owner's icon small above, the label below in lines that break only at
  spaces; a label is set smaller (down to ``SHRINK_BEFORE_BREAK`` of its size) before it is broken
  into lines, and a word is never broken.

Every glyph position is computed here from the bold font's advance widths (``measure.width_em``;
the bundled fonts have no kerning), so what fits here fits on the page.
"""

from dataclasses import dataclass, field, replace
import math
from pathlib import Path

from scriptforge.scripts.analysis import Analysis
from scriptforge.io.errors import InputError
from scriptforge.model.ids import neutral_label, token_id
from scriptforge.model.languages import fallback_chain, split_pair
from scriptforge.model.records import TEAMS, Character
from scriptforge.render.fit import SHRINK_STEPS
from scriptforge.render.measure import width_em
from scriptforge.render.token_layout import PRINTABLE_MARGIN_MM, Kind, Placed, area, layout
from scriptforge.render.views import TEAM_COLOURS, Icon, byline, icon_for, labels_for
from scriptforge.scripts.tokens import ReminderToken, TokenSet
from scriptforge.render.token_layout import TICK_LENGTH_MM, TICK_OFFSET_MM

SIZES = {"44/25": (44.0, 25.0), "38/19": (38.0, 19.0)}  # the two community sizes (character/reminder, mm)
DEFAULT_SIZE = "44/25"
DEFAULT_BLEED = 1.0
ASCENT, DESCENT = 0.88, 0.14  # of the bundled font's em box, above and below the baseline
SHRINK_BEFORE_BREAK = 0.72  # a label is set down to this share of its size before it is broken
SMALLEST = 0.45  # below this share of its size a text is too small to read: a warning says so


@dataclass
class Run:
    """Glyphs placed one by one (mm): SVG ``<text>`` with x, y and rotate lists."""

    chars: tuple[str, ...]
    xs: tuple[float, ...]
    ys: tuple[float, ...]
    rotate: tuple[float, ...] | None
    size: float

    @property
    def text(self) -> str:
        return "".join(self.chars)


ART = "#f4ecd6"  # the tokens' background
NIGHT = "#27325a"
SETUP = "#d2731c"
PIP = "#5a4a2a"


@dataclass
class Mark:
    """A mark on a character token (first night, other nights, a reminder pip, setup): its centre and radius (mm)."""

    kind: str  # first_night | other_nights | reminder | setup
    x: float
    y: float
    r: float

    def shapes(self) -> list[tuple]:
        """What draws the mark: ("circle", x, y, r, colour) and ("path", d, colour) items, in order.
        First night: a crescent opening to the right; other nights: one opening to the left with a
        star; setup: a diamond; a reminder: a pip."""
        x, y, r = self.x, self.y, self.r

        def circle(dx: float, dy: float, scale: float, colour: str) -> tuple:
            return ("circle", round(x + dx * r, 3), round(y + dy * r, 3), round(scale * r, 3), colour)

        if self.kind == "first_night":
            return [circle(0, 0, 1, NIGHT), circle(0.45, -0.3, 0.82, ART)]
        if self.kind == "other_nights":
            return [circle(0, 0, 1, NIGHT), circle(-0.45, -0.3, 0.82, ART), circle(-0.55, 0.45, 0.2, NIGHT)]
        if self.kind == "setup":
            d = f"M{x:.3f} {y - r:.3f}L{x + r:.3f} {y:.3f}L{x:.3f} {y + r:.3f}L{x - r:.3f} {y:.3f}Z"
            return [("path", d, SETUP)]
        return [circle(0, 0, 1, PIP)]


@dataclass
class TokenView:
    """One token as drawn on its page (mm): its disk and crop marks, its
    icon or monogram, its texts and its marks."""

    kind: str  # character | reminder
    id: str  # the character's id
    team: str
    x: float  # centre on the page (mm from the printable area's top left)
    y: float
    radius: float
    art_radius: float
    ticks: list[tuple[float, float, float, float]]  # crop marks: x1, y1, x2, y2
    icon: Icon
    icon_box: tuple[float, float, float]  # x, y (top left) and side of the picture's square
    monogram: Run
    monogram_radius: float  # the monogram's circle, centred at (x, icon_y)
    icon_y: float
    texts: list[Run]
    marks: list[Mark] = field(default_factory=list)


@dataclass
class CountRow:
    """A line of the token sheet's cover counts: what is counted, how many, and
    the team's colour where it counts one team."""

    label: str
    count: int
    colour: str | None = None


@dataclass
class EditionRow:
    """A line of the token sheet's cover: an edition of the boxed game (or the new
    characters) and the names of the script's characters in it."""

    title: str
    names: list[str]


@dataclass
class TokenSheetView:
    """Everything the token sheet template shows: the cover (counts,
    editions, settings, legend) and the token pages."""

    lang: str
    html_lang: str
    paper: str
    title: str
    byline: str | None
    labels: dict
    counts: list[CountRow]
    editions: list[EditionRow]
    new: EditionRow
    settings: str
    pages: list[list[TokenView]]
    width: float  # the printable area (mm)
    height: float
    margin: float
    mirror: bool = False
    new_only: bool = False
    legend: list[tuple[str, Mark]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    scale: float = 1.0
    art_notice: str | None = None  # set by the renderer where official art is on the pages (printed on the cover)
    reference: list | None = None  # another game's role cards: the cover lists the roles (render.game_cards)
    # the cover's text size (the token pages are in mm): smaller where the cover would not fit its page (fit_cover)
    cover_scale: float = 1.0

    def tokens(self) -> list[TokenView]:
        return [t for page in self.pages for t in page]

    def icons(self) -> list[Icon]:
        return [t.icon for t in self.tokens()]

    def all_text(self) -> str:
        parts = [self.title, self.byline or "", self.settings, self.new.title, *self.new.names]
        parts += [str(v) for v in self.labels.values() if isinstance(v, str)]
        parts += [row.label for row in self.counts]
        parts += [name for row in self.editions for name in (row.title, *row.names)]
        parts += [run.text for t in self.tokens() for run in (t.monogram, *t.texts)]
        parts += [f"{r.name}{r.second or ''}{r.text or ''}" for r in self.reference or ()]
        return "".join(parts)


# -- text on a token -----------------------------------------------------------------------------


def _clean(text: str) -> str:
    return " ".join(text.split())


def straight(text: str, size: float, cx: float, baseline: float) -> Run:
    """`text` centred on `cx`, its baseline at `baseline`."""
    advances = [width_em(c) * size for c in text]
    x = cx - sum(advances) / 2
    xs = []
    for advance in advances:
        xs.append(round(x, 3))
        x += advance
    return Run(tuple(text), tuple(xs), tuple(round(baseline, 3) for _ in text), None, round(size, 3))


def arc_angle(text: str, size: float, baseline_radius: float) -> float:
    """The angle (degrees) `text` takes on an arc whose baseline has `baseline_radius`."""
    return math.degrees(width_em(text) * size / _advance_radius(size, baseline_radius))


def _advance_radius(size: float, baseline_radius: float) -> float:
    # glyphs are spaced at mid-height: their tops (towards the centre) do not crowd
    return max(baseline_radius - 0.4 * size, 0.5 * baseline_radius)


def arc(text: str, size: float, cx: float, cy: float, baseline_radius: float) -> Run:
    """`text` along the lower arc of a circle, reading left to right, glyph tops towards the centre."""
    radius = _advance_radius(size, baseline_radius)
    advances = [width_em(c) * size for c in text]
    angle = math.pi / 2 + sum(advances) / radius / 2  # SVG angles: 90° is straight down
    xs, ys, rotate = [], [], []
    for advance in advances:
        middle = angle - advance / 2 / radius
        # the glyph's baseline is the tangent at its middle; its origin half an advance back
        px, py = cx + baseline_radius * math.cos(middle), cy + baseline_radius * math.sin(middle)
        dx, dy = math.sin(middle), -math.cos(middle)  # reading direction
        xs.append(round(px - dx * advance / 2, 3))
        ys.append(round(py - dy * advance / 2, 3))
        rotate.append(round(math.degrees(middle) - 90, 2))
        angle -= advance / radius
    return Run(tuple(text), tuple(xs), tuple(ys), tuple(rotate), round(size, 3))


def fit_arc(text: str, size: float, baseline_for, max_angle: float) -> float:
    """The largest size (at most `size`) at which `text` spans at most `max_angle` degrees;
    `baseline_for(size)` gives the baseline radius for a size."""
    for _ in range(12):
        angle = arc_angle(text, size, baseline_for(size))
        if angle <= max_angle:
            return size
        size *= max_angle / angle * 0.99
    return size


@dataclass
class Block:
    """Lines of a label at one size: (text, size) per line, top to bottom."""

    lines: list[tuple[str, float]]

    @property
    def height(self) -> float:
        return sum(size * LINE for _, size in self.lines)


LINE = 1.16  # line height, in sizes
MAX_LINES = 4


def balanced(words: list[str], count: int) -> list[str]:
    """`words` in `count` lines (breaking only between words) with the widest line as narrow as
    it can be; fewer lines where there are fewer words."""
    count = max(1, min(count, len(words)))
    widths = [width_em(w) for w in words]
    space = width_em(" ")

    def line(i: int, j: int) -> float:  # words i..j-1 on one line
        return sum(widths[i:j]) + space * (j - i - 1)

    # best[k][i]: (the widest line, breaks) setting words i.. in k lines
    best: list[dict[int, tuple[float, tuple[int, ...]]]] = [{} for _ in range(count + 1)]
    n = len(words)
    for i in range(n):
        best[1][i] = (line(i, n), ())
    for k in range(2, count + 1):
        for i in range(n - k + 1):
            best[k][i] = min((max(line(i, j), best[k - 1][j][0]), (j, *best[k - 1][j][1]))
                             for j in range(i + 1, n - k + 2))
    breaks = (0, *best[count][0][1], n) if n else (0, 0)
    return [" ".join(words[a:b]) for a, b in zip(breaks, breaks[1:])]


def _fits(block: Block, top: float, radius: float) -> bool:
    """Whether every line of `block`, set from `top` (mm from the centre, down) fits inside `radius`."""
    y = top
    for text, size in block.lines:
        upper, lower = y + (LINE - ASCENT - DESCENT) / 2 * size, y + (LINE + ASCENT + DESCENT) / 2 * size
        worst = max(abs(upper), abs(lower))
        if worst >= radius:
            return False
        if width_em(text) * size / 2 + 0.15 * size > math.sqrt(radius * radius - worst * worst):
            return False
        y += size * LINE
    return True


def fit_label(parts: list[tuple[str, float]], size: float, top: float, bottom: float, radius: float) -> \
        tuple[Block, float, float] | None:
    """The label `parts` ((text, relative size): the first language, then the second) set as large
    as fits between `top` and `bottom` inside `radius`: (block, its top, the size used); shrink
    before breaking: one line per part down to SHRINK_BEFORE_BREAK of `size`, then more lines."""
    steps = [size * 0.94 ** i for i in range(40)]
    for allow_break in (False, True):
        for s in steps:
            if not allow_break and s < size * SHRINK_BEFORE_BREAK:
                break
            for block in _arrangements(parts, s, allow_break):
                if block.height > bottom - top:
                    continue
                # centred in the room, else as little above that as it needs (the circle is wider higher up)
                centred = (top + bottom - block.height) / 2
                for y in (centred - (centred - top) * i / 6 for i in range(7)):
                    if _fits(block, y, radius):
                        return block, y, s
    return None


def _arrangements(parts: list[tuple[str, float]], size: float, allow_break: bool):
    """The ways to set `parts` at `size`, fewest lines first."""
    options: list[list[list[str]]] = []
    for text, _ in parts:
        words = text.split()
        counts = range(1, min(len(words), MAX_LINES) + 1) if allow_break else (1,)
        options.append([balanced(words, n) for n in counts] or [[""]])
    combos: list[list[list[str]]] = [[]]
    for option in options:
        combos = [c + [o] for c in combos for o in option]
    combos.sort(key=lambda c: (sum(len(lines) for lines in c), max(width_em(line) for lines in c for line in lines)))
    for combo in combos:
        yield Block([(line, size * rel) for lines, (_, rel) in zip(combo, parts) for line in lines])


def block_runs(block: Block, top: float, cx: float, cy: float) -> list[Run]:
    runs, y = [], top
    for text, size in block.lines:
        baseline = y + (LINE - ASCENT - DESCENT) / 2 * size + ASCENT * size
        runs.append(straight(text, size, cx, cy + baseline))
        y += size * LINE
    return runs


# -- the tokens ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class TokenOptions:
    """How tokens are printed: their cut diameters (character, reminder; mm), the bleed (mm) and whether
    the pages are mirrored (`--size`, `--bleed`, `--mirror`)."""

    sizes: tuple[float, float] = SIZES[DEFAULT_SIZE]
    bleed: float = DEFAULT_BLEED
    mirror: bool = False


def token_options(size: str, bleed: float = DEFAULT_BLEED, mirror: bool = False) -> TokenOptions:
    """The options of `--size CHAR/REMINDER` (mm, a preset of SIZES or two numbers), `--bleed`, `--mirror`."""
    text = size.strip().lower().replace("mm", "")
    if text in SIZES:
        return TokenOptions(SIZES[text], bleed, mirror)
    parts = text.split("/")
    try:
        sizes = tuple(float(p) for p in parts)
    except ValueError:
        sizes = ()
    if len(sizes) != 2 or not all(MIN_SIZE <= s <= MAX_SIZE for s in sizes):
        raise InputError(f"--size {size}: give two diameters in mm, character/reminder, each {MIN_SIZE:g} to "
                         f"{MAX_SIZE:g} (presets: {', '.join(SIZES)})")
    return TokenOptions((sizes[0], sizes[1]), bleed, mirror)


MIN_SIZE, MAX_SIZE = 12.0, 90.0


def crop_ticks(placed: Placed, kind: Kind) -> list[tuple[float, float, float, float]]:
    out = []
    for degrees in placed.ticks:
        a = math.radians(degrees)
        r1, r2 = kind.art_radius + TICK_OFFSET_MM, kind.art_radius + TICK_OFFSET_MM + TICK_LENGTH_MM
        out.append((round(placed.x + r1 * math.cos(a), 3), round(placed.y + r1 * math.sin(a), 3),
                    round(placed.x + r2 * math.cos(a), 3), round(placed.y + r2 * math.sin(a), 3)))
    return out


def monogram(icon: Icon, cx: float, cy: float, radius: float) -> Run:
    size = radius * 1.05
    return straight(icon.initial, size, cx, cy + 0.36 * size)


def _polar(cx: float, cy: float, radius: float, degrees: float) -> tuple[float, float]:
    a = math.radians(degrees)
    return round(cx + radius * math.cos(a), 3), round(cy + radius * math.sin(a), 3)


@dataclass
class _Texts:
    """A character's printed texts in the sheet's language(s)."""

    name: str
    second: str | None
    fallback: bool


def _names(ch: Character, lang: str, second: str | None) -> _Texts:
    texts, used = ch.texts_for(lang)
    name = _clean(texts.name) if texts else ch.id
    other = ch.text(second) if second else None
    second_name = _clean(other.name) if other and _clean(other.name) != name else None
    return _Texts(name, second_name, used != lang)


def reminder_label(db, token: str, lang: str) -> tuple[str, str | None]:
    """(label, its language) of a reminder token in `lang`, else along the fallbacks; a homebrew
    character's token is its own label, looked up by its id form where the data has that label."""
    for key in dict.fromkeys((token, token_id(token))):
        for code in fallback_chain(lang):
            label = db.reminder_labels.get(code, {}).get(key)
            if label:
                return _clean(label), lang if neutral_label(label) else code
    return _clean(token), None


def character_token(ch: Character, names: _Texts, placed: Placed, kind: Kind, image: str | None,
                    wakes: tuple[bool, bool], warnings: list[str]) -> TokenView:
    cx, cy, d = placed.x, placed.y, kind.diameter
    safe = kind.radius - max(1.0, 0.025 * d)
    icon = icon_for(ch, names.name, image)
    side = 0.44 * d
    icon_y = cy - 0.07 * d
    full = 0.1 * d

    def baseline_for(size: float) -> float:
        return safe - DESCENT * size - 0.1

    size = fit_arc(names.name, full, baseline_for, 200.0)
    if size < full * SMALLEST:
        warnings.append(f"the name '{names.name}' is set at {size:.1f} mm to fit its token")
    texts = [arc(names.name, size, cx, cy, baseline_for(size))]
    if names.second:
        inner = baseline_for(size) - (ASCENT + 0.12) * size - DESCENT * 0.62 * size
        second = fit_arc(names.second, 0.62 * size, lambda s: inner, 150.0)
        texts.append(arc(names.second, second, cx, cy, inner))
    marks = []
    ring = safe - 0.045 * d
    if wakes[0]:
        marks.append(Mark("first_night", *_polar(cx, cy, ring, 212), 0.032 * d))
    if wakes[1]:
        marks.append(Mark("other_nights", *_polar(cx, cy, ring, 328), 0.032 * d))
    if ch.setup is not None:
        marks.append(Mark("setup", *_polar(cx, cy, ring, 237), 0.03 * d))
    marks += reminder_pips(len(ch.reminders) + len(ch.reminders_global), cx, cy, ring + 0.01 * d, 0.016 * d)
    monogram_radius = 0.19 * d
    return TokenView(kind="character", id=ch.id, team=ch.team, x=cx, y=cy, radius=kind.radius,
                     art_radius=kind.art_radius, ticks=crop_ticks(placed, kind), icon=icon,
                     icon_box=(round(cx - side / 2, 3), round(icon_y - side / 2, 3), round(side, 3)),
                     monogram=monogram(icon, cx, icon_y, monogram_radius), monogram_radius=monogram_radius,
                     icon_y=round(icon_y, 3),
                     texts=texts, marks=marks)


def reminder_token(reminder: ReminderToken, owner: _Texts, labels: tuple[str, str | None], placed: Placed,
                   kind: Kind, image: str | None, warnings: list[str]) -> TokenView:
    cx, cy, d = placed.x, placed.y, kind.diameter
    safe = kind.radius - max(0.8, 0.03 * d)
    icon = icon_for(reminder.owner, owner.name, image)
    side = 0.3 * d
    icon_y = cy - 0.25 * d
    full = 0.13 * d
    top, bottom = icon_y - cy + side / 2 + 0.02 * d, safe
    first, second = labels
    parts = [(first, 1.0)] + ([(second, 0.72)] if second and second != first else [])
    fitted = fit_label(parts, full, top, bottom, safe)
    if fitted and len(parts) > 1:
        alone = fit_label(parts[:1], full, top, bottom, safe)
        if alone and fitted[2] < 0.8 * alone[2]:  # both do not fit well: the first language alone
            fitted = alone
    if fitted is None:  # not even its longest word at the smallest step: set it on one line to fit
        fitted = _forced(first, full, top, safe)
    block, y, size = fitted
    if size < full * SMALLEST:
        warnings.append(f"the reminder label '{first}' is set at {size:.1f} mm to fit its token")
    monogram_radius = 0.14 * d
    return TokenView(kind="reminder", id=reminder.owner.id, team=reminder.owner.team, x=cx, y=cy,
                     radius=kind.radius, art_radius=kind.art_radius, ticks=crop_ticks(placed, kind), icon=icon,
                     icon_box=(round(cx - side / 2, 3), round(icon_y - side / 2, 3), round(side, 3)),
                     monogram=monogram(icon, cx, icon_y, monogram_radius), monogram_radius=monogram_radius,
                     icon_y=round(icon_y, 3),
                     texts=block_runs(block, y, cx, cy))


PIP_SPAN = 50.0  # degrees of the top of a token the reminder pips may take (the setup mark is at 237)
PIP_GAP = 0.7  # the least blank between two pips, in pip radii: pips closer than that print as a bar


def reminder_pips(count: int, cx: float, cy: float, ring: float, radius: float) -> list[Mark]:
    """`count` pips centred at the top of a token on a circle of `ring` mm, 7.5° apart where they
    fit, never closer than PIP_GAP between them; where one row would be wider than PIP_SPAN they
    go on more rows, each inside the last."""
    least = math.degrees((2 + PIP_GAP) * radius / ring)
    per_row = max(1, int(PIP_SPAN / least) + 1)
    rows = [min(per_row, count - start) for start in range(0, count, per_row)]
    out = []
    for row, n in enumerate(rows):
        circle = ring - row * (2 + PIP_GAP) * radius
        step = max(min(7.5, 40.0 / max(n - 1, 1)), math.degrees((2 + PIP_GAP) * radius / circle))
        out += [Mark("reminder", *_polar(cx, cy, circle, 270 + (i - (n - 1) / 2) * step), radius) for i in range(n)]
    return out


def _forced(text: str, size: float, top: float, radius: float) -> tuple[Block, float, float]:
    """One line of `text`, as small as it must be to fit under `top` inside `radius`."""
    while size > 0.05:
        block = Block([(text, size)])
        if _fits(block, top, radius):
            return block, top, size
        size *= 0.9
    return Block([(text, size)]), top, size


# -- the document --------------------------------------------------------------------------------


def tokens_view(analysis: Analysis, tokens: TokenSet, sheet_lang: str, paper: str,
                options: TokenOptions = TokenOptions()) -> TokenSheetView:
    db, script = analysis.db, analysis.script
    lang, second = split_pair(sheet_lang)
    labels = labels_for(db, sheet_lang)
    character_kind = Kind("character", options.sizes[0], options.bleed)
    reminder_kind = Kind("reminder", options.sizes[1], options.bleed)
    try:
        pages = layout([(character_kind, len(tokens.characters)), (reminder_kind, len(tokens.reminders))], paper)
    except ValueError as exc:
        raise InputError(f"--size, --bleed: {exc}") from None
    first_night = set(analysis.night.order("first_night"))
    other_nights = set(analysis.night.order("other_nights"))
    images = analysis.images
    warnings: list[str] = []
    names = {ch.id: _names(ch, lang, second) for ch in analysis.characters}
    reminder_labels = []
    fallback_labels = 0
    for reminder in tokens.reminders:
        label, used = reminder_label(db, reminder.token, lang)
        other = reminder_label(db, reminder.token, second)[0] if second else None
        fallback_labels += used is not None and used != lang
        reminder_labels.append((label, other))
    views: list[list[TokenView]] = []
    for page in pages:
        out = []
        for placed in page.tokens:
            if placed.kind == "character":
                ch = tokens.characters[placed.index]
                out.append(character_token(ch, names[ch.id], placed, character_kind, images.get(ch.id),
                                           (ch.id in first_night, ch.id in other_nights), warnings))
            else:
                reminder = tokens.reminders[placed.index]
                out.append(reminder_token(reminder, names[reminder.owner.id], reminder_labels[placed.index],
                                          placed, reminder_kind, images.get(reminder.owner.id), warnings))
        views.append(out)
    fallback_names = [names[ch.id].name for ch in tokens.characters if names[ch.id].fallback]
    if fallback_names:
        warnings.append(f"{len(fallback_names)} character(s) have no '{lang}' name and are printed in another "
                        f"language: {', '.join(fallback_names[:6])}{'…' if len(fallback_names) > 6 else ''}")
    if fallback_labels:
        warnings.append(f"{fallback_labels} reminder label(s) have no '{lang}' text and are printed in another language")

    team_counts = [CountRow(f"{labels['character_tokens']}: {db.team_name(team, lang, plural=True)}",
                            sum(1 for ch in tokens.characters if ch.team == team), TEAM_COLOURS.get(team))
                   for team in TEAMS if any(ch.team == team for ch in tokens.characters)]
    counts = [*team_counts,
              CountRow(labels["character_tokens"], tokens.count("character")),
              CountRow(labels["reminder_tokens"], tokens.count("reminder")),
              CountRow(labels["global_reminder_tokens"], tokens.count("global")),
              CountRow(labels["token_total"], len(tokens.characters) + len(tokens.reminders)),
              CountRow(labels["token_pages"], len(pages))]
    editions = db.word_table(lang, "editions")
    edition_rows = [EditionRow(str(editions.get(e, e)), [names[ch.id].name for ch in chars])
                    for e, chars in tokens.boxed.items()]
    new = EditionRow(labels["tokens_new"], [names[ch.id].name for ch in tokens.new])
    width, height = area(paper)
    settings = labels["token_settings"].format(
        character=f"{options.sizes[0]:g}", reminder=f"{options.sizes[1]:g}", bleed=f"{options.bleed:g}",
        paper=paper.upper() if paper == "a4" else paper.title(), margin=f"{PRINTABLE_MARGIN_MM:g}")
    legend = [(labels["first_night"], Mark("first_night", 0, 0, 1)), (labels["other_nights"], Mark("other_nights", 0, 0, 1)),
              (labels["reminders"], Mark("reminder", 0, 0, 0.6)), (labels["setup"], Mark("setup", 0, 0, 1))]
    return TokenSheetView(lang=sheet_lang, html_lang=lang, paper=paper, title=script.name.strip(),
                          byline=byline(labels, lang, script.author), labels=labels, counts=counts,
                          editions=edition_rows, new=new, settings=settings, pages=views, width=width,
                          height=height, margin=PRINTABLE_MARGIN_MM, mirror=options.mirror,
                          new_only=tokens.new_only, legend=legend, warnings=warnings)


def render_tokens(view: TokenSheetView, renderer, fmt: str = "pdf", base_dir: Path | None = None):
    """A ``Rendered`` of the token sheets (or another game's role cards): the cover page, then the
    token pages. The cover's text is set smaller where it would not fit on its page (`fit_cover`)."""
    warnings = list(view.warnings)
    if fmt != "html":
        scale, said = fit_cover(view, renderer, base_dir)
        view = replace(view, cover_scale=scale)
        warnings += said
    rendered = renderer.render_document(view, "tokens.html.j2", fmt, base_dir)
    rendered.warnings[:0] = warnings
    return rendered


def fit_cover(view: TokenSheetView, renderer, base_dir: Path | None) -> tuple[float, list[str]]:
    """(the cover's text size, the warning that says so, none at 100 %): the first of the sheets'
    SHRINK_STEPS at which the cover, laid out alone (no token pages: a few hundredths of a second),
    takes one page — a long list of names (a script of 142 characters) or of role texts (the
    Werewolf cards) otherwise runs onto a page of its own. Where it takes more pages even at the smallest step, the largest step
    at which it takes as few, so its last page is as full as it can be."""
    pages = {}
    for scale in SHRINK_STEPS:
        pages[scale] = renderer.page_count(replace(view, pages=[], cover_scale=scale), "tokens.html.j2", base_dir)
        if pages[scale] <= 1:
            break
    fewest = min(pages.values())
    scale = max(step for step, count in pages.items() if count == fewest)
    if scale == SHRINK_STEPS[0]:
        return scale, []
    if fewest > 1:
        return scale, [f"the cover does not fit on 1 page: it takes {fewest} pages, at {round(scale * 100)}% text size"]
    return scale, [f"the cover: text set at {round(scale * 100)}% to fit on 1 page"]

