"""View models for the printed sheets: plain dataclasses built from a script, the database and a
language. Templates only loop over these and test flags; every decision is made here.

The rules' results (sheet order, night order, jinxes, setup) come in an ``Analysis``; this module
only arranges them for the page. It reads no file: pictures stay URLs (a script's own image) or
character ids (looked up in ``--icons`` by the renderer, which works on its own copy of the view).
"""

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, fields, is_dataclass, replace
import re

import markupsafe

from scriptforge import __version__
from scriptforge.scripts.analysis import Analysis
from scriptforge.model.describe import setup_cell
from scriptforge.model.languages import char_class, default, split_pair, uses
from scriptforge.model.records import COUNT_KEYS, NIGHT_REMINDER_FIELDS, NIGHTS, PLAYER_TEAMS, TEAM_COLOURS, TEAMS, Character, \
    pick_text_lang
from scriptforge.db.pack_sources import stale_units
from scriptforge.db.pack_store import OFFICIAL
from scriptforge.render.measure import NameColumn, name_column
from scriptforge.render.choices import COLUMNS, FONT_SIZES, TEENSY_PLAYERS
from scriptforge.render.options import PrintOptions

STEP_COLOURS = {"dusk": "#4a4f5c", "minioninfo": TEAM_COLOURS["minion"],
                "demoninfo": TEAM_COLOURS["demon"], "dawn": "#c07a12"}
#: The icons drawn as a badge of a class of templates/colours.css.j2 (c-<key>), not an inline colour.
BADGE_COLOURS = {**TEAM_COLOURS, **STEP_COLOURS}
EXTRA_TEAMS = ("traveller", "fabled", "loric")
_NOT_FIRST_NIGHT = re.compile(r"\*")

@dataclass
class Icon:
    """Either a picture (``url``) or a generated badge (``colour`` + ``initial``): every place that
    shows a character (sheet rows, jinx rows, night lists, almanac pages) gets its Icon from
    `icon_for`, and the renderer turns every Icon the view yields (``icons()``) into a picture it
    could read or else the badge, so a character never shows without one."""

    colour: str
    initial: str
    url: str | None = None
    key: str | None = None  # team or step id: sheet.css colours the badge by class (c-<key>)
    character: str | None = None  # the character's id: the renderer looks for its picture in --icons
    official: bool = False  # set by the renderer: the picture is the official art from the pack's icons


@dataclass
class CharacterView:
    """A character's row on a sheet: its names, ability and icon, marked where the text is not
    in the sheet's language or the character is homebrew."""

    id: str
    team: str
    name: str
    ability: str
    icon: Icon
    second_name: str | None = None  # ko+en: the English name, printed small
    fallback: bool = False  # the text is not in the sheet's language
    homebrew: bool = False
    lang_tag: str | None = None  # the small tag of the language the ability is printed in, where not the sheet's


def cut_at(count: int, starts: Iterable[int]) -> list[tuple[int, int]]:
    """(start, end) of each part of `count` rows cut at the row indexes `starts`; one without."""
    cuts = [0, *(start for start in sorted(set(starts)) if 0 < start < count), count]
    return list(zip(cuts, cuts[1:]))


@dataclass
class TeamPart:
    """The rows of a team on one page: the first part under the team's heading, each later one
    (a page that goes on with the team) under the heading marked as continued."""

    continued: bool
    first: int  # the index of its first row in the team's rows
    rows: list[list[CharacterView | None]]
    columns: int = 1

    @property
    def cells(self) -> int:
        """The cells of a row: icon, name and ability per column, a gap between two columns."""
        return 4 * self.columns - 1

    def numbered(self) -> list[tuple[int, list[CharacterView | None]]]:
        """(the row's index in the team's rows, its cells), for each row."""
        return list(enumerate(self.rows, self.first))


@dataclass
class TeamView:
    """A team's block on a sheet: its title, colour and character rows."""

    id: str
    title: str
    colour: str
    characters: list[CharacterView]
    lang_tag: str | None = None  # the title is in another language than the page ("EN")
    # the rows (indexes into `rows(columns)`) at which a page goes on with this team: each starts
    # a part under the heading marked as continued (set by the renderer from a layout, pages.py)
    page_starts: tuple[int, ...] = ()

    def rows(self, columns: int) -> list[list[CharacterView | None]]:
        """The characters in `columns` columns, read down the first column then the next (each
        row a list of `columns` cells, None where a column has run out)."""
        height = -(-len(self.characters) // columns)
        cols = [self.characters[i * height:(i + 1) * height] for i in range(columns)]
        return [[col[r] if r < len(col) else None for col in cols] for r in range(height)]

    def parts(self, columns: int) -> list[TeamPart]:
        """The rows cut where a page goes on with the team (`page_starts`); one part without."""
        rows = self.rows(columns)
        return [TeamPart(continued=start > 0, first=start, rows=rows[start:end], columns=columns)
                for start, end in cut_at(len(rows), self.page_starts)]


@dataclass
class JinxView:
    """A jinx row on a sheet: the two characters and the jinx text."""

    first: CharacterView
    second: CharacterView
    text: str
    lang_tag: str | None = None


#: The key of the jinx list in `pages.page_starts`: where the view anchors its rows, each jinx row
#: holds an empty element with the id fit-row-jinxes-<n> (_macros.html.j2), as a team's rows are
#: fit-row-<team>-<n>.
JINX_ROWS = "jinxes"


@dataclass
class JinxPart:
    """The jinxes on one page: the first part under the jinx heading, each later one (a page that
    goes on with the list) under the heading marked as continued."""

    continued: bool
    first: int  # the index of its first jinx in the sheet's jinxes
    jinxes: list[JinxView]

    def numbered(self) -> list[tuple[int, JinxView]]:
        """(the jinx's index in the sheet's jinxes, the jinx), for each jinx."""
        return list(enumerate(self.jinxes, self.first))


@dataclass
class StepView:
    """A line of a night list: a character or a night step (dusk, minion info, demon
    info, dawn) with its name, reminder text and icon."""

    id: str
    name: str
    text: str
    icon: Icon
    second_name: str | None = None
    team: str = "step"
    lang_tag: str | None = None  # the text is in another language than the page's


@dataclass
class NightView:
    """A night list (the first night or the other nights): its title and its lines."""

    id: str  # first_night | other_nights
    title: str
    steps: list[StepView]
    lang_tag: str | None = None  # the title is in another language than the page ("EN")


@dataclass
class SetupRowView:
    """A player count of the back page's setup table, a column head (the counts are given
    per team, in `setup_teams`)."""

    players: int


def css_string(text: str) -> markupsafe.Markup:
    """`text` as a CSS string literal in which every character that is not a plain ASCII letter,
    digit or space is a CSS escape: safe in a stylesheet, in XHTML and in HTML alike."""
    safe = "".join(c if c.isascii() and (c.isalnum() or c == " ") else f"\\{ord(c):x} " for c in text)
    return markupsafe.Markup(f'"{safe}"')


@dataclass
class Footer:
    """The line at the foot of every page that ties a loose page to its script: the script's name
    and author (left), the page number (centre), what it was built from (right)."""

    left: str
    right: str
    page: str  # "{page} / {pages}"
    offset: int = 0  # pages before this part, where a part is laid out alone (render/pdf.py)
    total: int | None = None  # the whole output's pages then; None: the document counts them
    pages: int = 1  # this part's pages then (the empty pages of templates/footers.html.j2)

    @property
    def left_css(self) -> markupsafe.Markup:
        return css_string(self.left)

    @property
    def right_css(self) -> markupsafe.Markup:
        return css_string(self.right)

    @property
    def page_css(self) -> markupsafe.Markup:
        """The page number as a CSS `content` value: text with the page and pages counters."""
        pieces = re.split(r"(\{page\}|\{pages\})", self.page)
        out = []
        for piece in pieces:
            if piece == "{page}":
                out.append("counter(page)")
            elif piece == "{pages}":
                out.append(css_string(str(self.total)) if self.total else "counter(pages)")
            elif piece:
                out.append(css_string(piece))
        return markupsafe.Markup(" ".join(out))


def footer_for(db, labels: dict, title: str, author: str | None) -> Footer:
    """The footer of a script's pages: name · author, "page / pages", scriptforge's version and the
    data packs loaded. The official files carry no date of their own, so the official pack is named
    with the day `pack update` installed it ("installed"), never as if that were the data's date."""
    packs = []
    for name, updated in db.packs:
        if name == OFFICIAL:
            packs.append(str(labels["footer_official"]).format(date=updated) if updated
                         else str(labels["footer_official_undated"]))
        else:
            packs.append(f"{name} {updated}".strip())
    data = " + ".join(packs) or str(labels["footer_builtin"])
    return Footer(left=" · ".join(t for t in (title, author) if t), page=str(labels["footer_page"]),
                  right=str(labels["footer_built"]).format(version=__version__, data=data))


@dataclass
class SheetView:
    """Everything a sheet template shows."""

    lang: str  # ko | en | ko+en
    html_lang: str
    paper: str  # a4 | letter
    title: str
    author: str | None
    labels: dict
    teams: list[TeamView] = field(default_factory=list)
    extra_teams: list[TeamView] = field(default_factory=list)
    jinxes: list[JinxView] = field(default_factory=list)
    # the jinxes at which a page goes on with the list (set by the renderer, as TeamView.page_starts)
    jinx_page_starts: tuple[int, ...] = ()
    djinn_note: str | None = None
    footnote: str | None = None
    nights: list[NightView] = field(default_factory=list)  # night pages (nightsheet, --night)
    back: dict | None = None  # the back page (--back): setup table and compact night order
    scale: float = 1.0  # font scale; the renderer shrinks by steps when a page overflows
    byline: str | None = None
    show_sheet: bool = True
    name_column: NameColumn | None = None  # a wider name column (or smaller names) than sheet.css's
    # one line per language some text is printed in instead of the page's ("EN: …"), for the footer
    footer_notes: list[str] = field(default_factory=list)
    fallbacks: list[str] = field(default_factory=list)  # what is printed in another language (names, "a · b", "night: name")
    fallback_tags: list[str] = field(default_factory=list)  # the language tags those texts carry ("EN")
    stale: list[str] = field(default_factory=list)  # official translations older than their English, printed marked
    # interface words printed in another language than the page's: ui.yaml path ("labels.jinxes",
    # "teams.minion.plural") -> the tag printed beside it ("EN")
    heading_tags: dict[str, str] = field(default_factory=dict)
    rules: list[str] = field(default_factory=list)  # the script's own rules (_meta.bootlegger), as written
    logo: Icon | None = None  # _meta.logo (a picture only: the renderer drops what it cannot read)
    hide_title: bool = False  # _meta.hideTitle: the logo stands for the title where it is printed
    kind: str | None = None  # the script type named under the title (Teensyville)
    footer: Footer | None = None
    columns: int = 1
    compact: bool = False
    font_scale: float = 1.0  # --font-size
    players_label: str | None = None  # the game the night order is for (--players, Teensyville), on the night pages

    art_notice: str | None = None  # set by the renderer when official art is on the pages: the footer notice
    # each team and jinx row carries an id (pages.ROW_ANCHOR) that tells its page; only where a
    # sheet goes on over a page: WeasyPrint shares no computed style below an element with an id,
    # which cost a batch of one-page sheets 16 % of its CPU
    row_anchors: bool = False

    @property
    def title_shown(self) -> bool:
        """Whether the title is printed as text: always, but where `hide_title` and a logo is printed."""
        return not (self.hide_title and self.logo is not None and self.logo.url)

    @property
    def page_classes(self) -> str:
        return "compact" if self.compact else ""

    def jinx_parts(self) -> list[JinxPart]:
        """The jinxes cut where a page goes on with the list (`jinx_page_starts`); one part without."""
        return [JinxPart(continued=start > 0, first=start, jinxes=self.jinxes[start:end])
                for start, end in cut_at(len(self.jinxes), self.jinx_page_starts)]

    def icons(self) -> Iterator[Icon]:
        """Every icon on the pages (the renderer resolves each: a picture or the badge)."""
        if self.logo is not None:
            yield self.logo
        for team in (*self.teams, *self.extra_teams):
            for ch in team.characters:
                yield ch.icon
        for jinx in self.jinxes:
            yield jinx.first.icon
            yield jinx.second.icon
        for night in (*self.nights, *(self.back["nights"] if self.back else ())):
            for step in night.steps:
                yield step.icon

    def all_text(self) -> str:
        """Every piece of text printed, for the font coverage check."""
        parts = [self.title, self.author or "", self.footnote or "", self.djinn_note or "", self.kind or "",
                 *self.rules, *self.footer_notes]
        if self.footer:
            parts += [self.footer.left, self.footer.right, self.footer.page]
        parts += [str(v) for v in self.labels.values() if isinstance(v, str)]
        for team in (*self.teams, *self.extra_teams):
            parts.append(team.title)
            for ch in team.characters:
                parts += [ch.name, ch.ability, ch.second_name or "", ch.icon.initial]
        for jinx in self.jinxes:
            parts.append(jinx.text)
        for night in self.nights:
            parts.append(night.title)
            for step in night.steps:
                parts += [step.name, step.text, step.second_name or "", step.icon.initial]
        if self.back:
            parts += [str(x) for x in self.back.get("headers", [])]
            for night in self.back.get("nights", []):
                parts += [night.title, *(s.name for s in night.steps), *(s.second_name or "" for s in night.steps)]
        return "".join(parts)


# -- Korean line breaking --------------------------------------------------------------------

#: U+2060 WORD JOINER: no line break on either side, draws nothing, dropped by text extraction.
WORD_JOINER = "\u2060"
ZERO_WIDTH_SPACE = "\u200b"
_HANGUL = char_class("Hang")  # Korean is the writing system set with breaks at spaces only
# A gap between two non-space characters of which at least one is Hangul.
_JOIN_GAP = re.compile(f"(?<=[{_HANGUL}])(?=[^\\s{WORD_JOINER}])|(?<=[^\\s{WORD_JOINER}])(?=[{_HANGUL}])")


def keep_words(text: str) -> str:
    """`text` with a WORD JOINER between the characters of each Korean word (and long runs broken).

    Korean is set with breaks at spaces only (CSS ``word-break: keep-all``), but WeasyPrint/Pango
    break between any two Hangul syllables and ignore keep-all; joined syllables break at spaces.
    Latin text is unchanged; a word too long for its cell still breaks (``overflow-wrap``).
    """
    if uses(text, "Hang"):
        text = _JOIN_GAP.sub(WORD_JOINER, text)
    return break_long_runs(text) if text and len(text) >= LONG_RUN else text


LONG_RUN = 200  # characters without a space: no word is this long, but a pasted hash or a prank is
_LONG_RUN = re.compile(f"[^\\s{ZERO_WIDTH_SPACE}]{{{LONG_RUN},}}")


def break_long_runs(text: str) -> str:
    """`text` with a ZERO WIDTH SPACE every 50 characters of a run of LONG_RUN or more non-spaces.

    Pango finds where to break such a run (``overflow-wrap: break-word``) in time that grows with
    the square of its length: one 30,000-character word took 19 s to lay out, 100,000 took 214 s.
    Words of real text are far shorter and keep their breaks.
    """
    return _LONG_RUN.sub(lambda m: ZERO_WIDTH_SPACE.join(m.group()[i:i + 50] for i in range(0, len(m.group()), 50)),
                         text)


def _joined(value):
    if isinstance(value, str):
        return keep_words(value)
    if isinstance(value, list):
        return [_joined(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_joined(v) for v in value)
    if isinstance(value, dict):
        return {k: _joined(v) for k, v in value.items()}
    if is_dataclass(value) and not isinstance(value, type):
        changes = {f.name: _joined(getattr(value, f.name)) for f in fields(value)
                   if f.name not in _NOT_TEXT}
        return replace(value, **changes)
    return value


_NOT_TEXT = {"id", "team", "lang", "html_lang", "paper", "url", "colour", "key", "character", "scale",
             "show_sheet", "fallback", "homebrew", "players", "lang_tag", "fallbacks", "fallback_tags", "stale",
             "offset", "total", "columns", "compact", "font_scale", "hide_title", "official", "page_starts"}


def keep_korean_words(view):
    """A copy of a view (any dataclass tree) with `keep_words` applied to every printed text."""
    return _joined(view)


# -- helpers ---------------------------------------------------------------------------------


def initial(name: str) -> str:
    """The first letter or syllable of a name (Korean: the first syllable; Latin: uppercased)."""
    for char in name:
        if char.isalnum():
            return char.upper()
    return "?"


def icon_for(ch: Character, name: str, image_url: str | None = None) -> Icon:
    """The one icon rule for a character wherever it is shown: its picture (`image_url`, the
    script's own image; the renderer adds an --icons picture by id) where one can be read, else
    a badge in its team's colour with its name's first letter or syllable."""
    return Icon(colour=TEAM_COLOURS.get(ch.team, "#555555"), initial=initial(name), url=image_url,
                key=ch.team if ch.team in TEAM_COLOURS else None, character=ch.id)


def lang_tag(code: str | None, page_lang: str) -> str | None:
    """The small tag printed after a text in language `code` on a page in `page_lang` ("EN"), or
    None when the text is in the page's language (or in none)."""
    return code.upper() if code and code != page_lang else None


def stale_tag(db, page_lang: str) -> str:
    """The tag of an official translation older than its English (see scriptforge.db.pack_sources)."""
    return str(db.word(page_lang, "labels", "stale_tag") or "old")


def fallback_notes(db, page_lang: str, tags: Iterable[str | None]) -> list[str]:
    """The footer's explanation of each tag used on a page, once per tag."""
    out = []
    for tag in dict.fromkeys(t for t in tags if t):
        if tag == stale_tag(db, page_lang):
            out.append(str(db.word(page_lang, "labels", "stale_note") or tag).format(tag=tag))
            continue
        out.append(db.fallback_note(page_lang, tag.lower()))
    return out


def character_view(ch: Character, sheet_lang: str, image_url: str | None = None,
                   old: str | None = None) -> CharacterView:
    """`old`: the tag to print after the ability when it is a stale translation (else None)."""
    lang, second = split_pair(sheet_lang)
    texts, used = ch.texts_for(lang)
    fallback = used != lang
    name = texts.name if texts else ch.id
    ability = texts.ability if texts else ""
    second_texts = ch.text(second) if second else None
    second_name = second_texts.name if second_texts and second_texts.name != name else None
    return CharacterView(id=ch.id, team=ch.team, name=name, ability=ability,
                         icon=icon_for(ch, name, image_url), second_name=second_name,
                         fallback=fallback, homebrew=ch.homebrew,
                         lang_tag=(lang_tag(used, lang) or (old if used == lang else None)) if ability else None)


def labels_for(db, sheet_lang: str) -> dict:
    lang, _ = split_pair(sheet_lang)
    labels: dict = db.labels(lang)
    labels["team_names"] = {t: db.team_name(t, lang, plural=True) for t in TEAMS}
    return labels


def byline(labels: dict, lang: str, author: str | None) -> str | None:
    if not author:
        return None
    by = labels["by"]
    return str(labels.get("byline") or "{by} {author}").format(by=by, author=author)


def _team_title(labels: dict, team: str) -> str:
    return labels["team_names"].get(team, team.title())


# -- the sheet -------------------------------------------------------------------------------


def sheet_view(analysis: Analysis, sheet_lang: str = default("sheet"), paper: str = "a4",
               options: PrintOptions = PrintOptions()) -> SheetView:
    """The character sheet of the analysed script, characters in sheet order; `options` already
    decided for the script (`PrintOptions.for_script`, as `make_view` does)."""
    script, db = analysis.script, analysis.db
    lang, _ = split_pair(sheet_lang)
    labels = labels_for(db, sheet_lang)
    stale, old = stale_units(db, lang), stale_tag(db, lang)
    views = {ch.id: character_view(ch, sheet_lang, analysis.images.get(ch.id),
                                   old if f"{ch.id}.ability" in stale else None) for ch in analysis.characters}

    teams: list[TeamView] = []
    extra: list[TeamView] = []
    for team in (*PLAYER_TEAMS, *EXTRA_TEAMS):
        members = [views[ch.id] for ch in analysis.characters if ch.team == team]
        if members:
            view = TeamView(id=team, title=_team_title(labels, team), colour=TEAM_COLOURS[team],
                            characters=members)
            (teams if team in PLAYER_TEAMS else extra).append(view)

    jinx_views = []
    for jinx in analysis.jinxes.jinxes:
        a, b = jinx.characters
        if a in views and b in views:
            text, used = pick_text_lang(jinx.texts, lang)
            tag = lang_tag(used, lang) or (old if f"jinx.{'-'.join(jinx.characters)}" in stale and used == lang else None)
            jinx_views.append(JinxView(first=views[a], second=views[b], text=text or "", lang_tag=tag))

    star = any(_NOT_FIRST_NIGHT.search(v.ability) for v in views.values())
    return SheetView(
        lang=sheet_lang,
        html_lang=lang,
        paper=paper,
        title=script.name.strip(),
        author=script.author,
        byline=byline(labels, lang, script.author),
        labels=labels,
        teams=teams,
        extra_teams=extra,
        jinxes=jinx_views,
        djinn_note=labels.get("djinn_note") if jinx_views and analysis.jinxes.djinn_needed else None,
        footnote=labels.get("not_first_night") if star else None,
        rules=list(script.rules),
        logo=Icon(colour="", initial="", url=script.logo, key="logo") if script.logo else None,
        hide_title=script.hide_title,
        kind=labels.get("teensyville") if options.teensy else None,
        footer=footer_for(db, labels, script.name.strip(), script.author),
        columns=options.columns if options.columns in COLUMNS else 1,
        compact=options.compact,
        font_scale=FONT_SIZES.get(options.font_size, 1.0),
        players_label=str(labels["night_players"]).format(players=analysis.players) if options.players and analysis.players
        else labels.get("teensyville") if options.teensy else None,
    )


# -- nights ----------------------------------------------------------------------------------


def night_views(analysis: Analysis, sheet_lang: str, in_play: "set[str] | None" = None) -> list[NightView]:
    """The two nights of the analysed script's night order (steps dusk, minion info, demon info
    and dawn included) as lists of steps with icon, name and reminder text; with `in_play` (a
    game's characters), only their steps and the game's own (dusk, Minion and Demon info, dawn)."""
    db, order = analysis.db, analysis.night
    lang, second = split_pair(sheet_lang)
    labels = labels_for(db, sheet_lang)
    stale, old = stale_units(db, lang), stale_tag(db, lang)
    out = []
    for night in NIGHTS:
        steps = []
        for item_id in order.order(night):
            entry = order.entries[item_id]
            if in_play is not None and entry.step is None and item_id not in in_play:
                continue
            text = entry.reminder(night, lang) or ""
            used = entry.reminder_lang(night, lang)
            tag = (lang_tag(used, lang) or (old if used == lang and f"{item_id}.{NIGHT_REMINDER_FIELDS[night]}" in stale
                                            else None)) if text else None
            if entry.step is not None:
                name = entry.name(lang)
                second_name = entry.step.names.get(second) if second else None
                steps.append(StepView(id=item_id, name=name, text=text, team="step", lang_tag=tag,
                                      icon=Icon(colour=STEP_COLOURS.get(item_id, "#555555"),
                                                initial=initial(name),
                                                key=item_id if item_id in STEP_COLOURS else None),
                                      second_name=second_name if second_name != name else None))
                continue
            assert entry.character is not None  # an entry is a step or a character
            view = character_view(entry.character, sheet_lang, analysis.images.get(item_id))
            steps.append(StepView(id=item_id, name=view.name, text=text, icon=view.icon, lang_tag=tag,
                                  second_name=view.second_name, team=entry.character.team))
        out.append(NightView(id=night, title=labels.get(night, night), steps=steps))
    return out


# -- the whole view ----------------------------------------------------------------------------


def make_view(analysis: Analysis, sheet_lang: str = default("sheet"), paper: str = "a4", *, sheet: bool = True,
              back: bool = False, night: bool = False, options: PrintOptions = PrintOptions(),
              in_play: "set[str] | None" = None) -> SheetView:
    """The whole printable view of a script: sheet, and optionally back page and night pages,
    laid out as `options` say (the night order is the analysis's: `analyse(..., players=
    options.night_players)` gives the night for a player count or a Teensyville game); with
    `in_play`, the nights keep only those characters' steps (see `night_views`)."""
    options = options.for_script(analysis.script)
    view = sheet_view(analysis, sheet_lang, paper, options)
    view.show_sheet = sheet
    if night or back:
        nights = night_views(analysis, sheet_lang, in_play)
        if night:
            view.nights = nights
        if back:
            view.back = back_view(analysis, sheet_lang, nights, options)
    view.name_column = sheet_name_column(view)
    mark_fallbacks(view, analysis.db)
    return view


def printed_words(view: SheetView, db) -> list[tuple[str, ...]]:
    """The ui.yaml paths of the interface words the view prints: headings, footnotes, footer."""
    paths: list[tuple[str, ...]] = []
    if view.show_sheet:
        paths += [("teams", t.id, "plural") for t in (*view.teams, *view.extra_teams)]
        paths += [("labels", key) for key, shown in (("jinxes", view.jinxes), ("djinn_note", view.djinn_note),
                                                     ("not_first_night", view.footnote), ("by", view.byline),
                                                     ("teensyville", view.kind)) if shown]
    paths += [("labels", night.id) for night in view.nights]
    if view.rules and (view.show_sheet or view.nights):
        paths.append(("labels", "script_rules"))
    if view.back:
        paths += [("labels", "setup"), ("labels", "players"), *(("teams", t, "plural") for t in PLAYER_TEAMS)]
        paths += [("labels", night.id) for night in view.back["nights"]]
    if view.footer:
        dated = any(updated for _, updated in db.packs)
        paths += [("labels", "footer_page"), ("labels", "footer_built"),
                  ("labels", "footer_official" if dated else "footer_builtin")]
    return list(dict.fromkeys(paths))


def mark_fallbacks(view: SheetView, db) -> None:
    """Fill the view's footer notes and list of fallbacks from the language tags it prints: texts,
    and interface words (headings, footnotes, the footer) that are not in the page's language."""
    tagged: list[tuple[str, str]] = []
    for path in printed_words(view, db):
        word, code = db.word_lang(view.html_lang, *path)
        tag = lang_tag(code, view.html_lang)
        if word is not None and tag:
            view.heading_tags[".".join(path[:2])] = tag
            tagged.append((f"'{word}'", tag))
    for team in (*view.teams, *view.extra_teams):
        team.lang_tag = view.heading_tags.get(f"teams.{team.id}")
    for night in (*view.nights, *(view.back["nights"] if view.back else ())):
        night.lang_tag = view.heading_tags.get(f"labels.{night.id}")
    if view.show_sheet:
        tagged += [(c.name, c.lang_tag) for t in (*view.teams, *view.extra_teams) for c in t.characters if c.lang_tag]
        tagged += [(f"{j.first.name} · {j.second.name}", j.lang_tag) for j in view.jinxes if j.lang_tag]
    tagged += [(f"{night.title}: {s.name}", s.lang_tag) for night in view.nights for s in night.steps if s.lang_tag]
    old = stale_tag(db, view.html_lang)
    view.fallbacks = [what for what, tag in tagged if tag != old]
    view.stale = [what for what, tag in tagged if tag == old]
    view.fallback_tags = list(dict.fromkeys(tag for _, tag in tagged if tag != old))
    view.footer_notes = fallback_notes(db, view.html_lang, [tag for _, tag in tagged])



def with_page_starts(view: SheetView, starts: dict[str, tuple[int, ...]]) -> SheetView:
    """A copy of `view` whose teams and jinx list are cut where a page goes on with them (`starts`:
    team id or JINX_ROWS -> row indexes, `pages.page_starts`): each later part is printed on a page
    of its own, under the heading marked as continued (ui.yaml `labels.continued`). Its rows are
    anchored (`row_anchors`), so that a layout of it tells on which page each row is."""
    def cut(teams: list[TeamView]) -> list[TeamView]:
        return [replace(team, page_starts=starts.get(team.id, ())) for team in teams]

    return replace(view, teams=cut(view.teams), extra_teams=cut(view.extra_teams),
                   jinx_page_starts=starts.get(JINX_ROWS, ()), row_anchors=True)


#: The narrowest name column of sheet.css (.night .name-cell; the character sheet's is 8.6rem).
NAME_CELL_REM = 8.2


def sheet_name_column(view: SheetView) -> NameColumn | None:
    """The name column that keeps every word of the sheet's and night pages' names on one line,
    or None where sheet.css's columns already do."""
    rows: list[CharacterView | StepView] = [c for team in (*view.teams, *view.extra_teams) for c in team.characters]
    rows += [s for night in view.nights for s in night.steps]
    column = name_column([r.name for r in rows], [r.second_name for r in rows if r.second_name],
                         narrowest=NAME_CELL_REM)
    return column if column != NameColumn(width=NAME_CELL_REM) else None


def back_view(analysis: Analysis, sheet_lang: str, nights: list[NightView],
              options: PrintOptions = PrintOptions()) -> dict:
    """The back page: the 5-15 player setup table (the base count, and beside it the range over
    every legal bag where the setup characters change it; a Teensyville layout's for 5 and 6
    players; none without `options.player_table`) and a compact night order; `options` as for
    `sheet_view`."""

    labels = labels_for(analysis.db, sheet_lang)
    rows = [row for row in analysis.setup if not options.teensy or row.players in TEENSY_PLAYERS] \
        if options.player_table else []
    teams = [(t, COUNT_KEYS[t]) for t in PLAYER_TEAMS]
    changed = any(row.ranges[k] != (row.base[k], row.base[k]) for row in rows for _, k in teams)
    return {
        "nights": nights,
        "setup": [SetupRowView(players=row.players) for row in rows],
        "setup_teams": [{"id": t, "title": _team_title(labels, t), "colour": TEAM_COLOURS[t],
                         "counts": [setup_cell(row.base[k], row.ranges[k]) for row in rows]} for t, k in teams],
        "setup_note": labels.get("setup_table_note") if changed else None,
    }
