"""View models for the printed sheets: plain dataclasses built from a script, the database and a
language. Templates only loop over these and test flags; every decision is made here.

The rules' results (sheet order, night order, jinxes, setup) come in an ``Analysis``; this module
only arranges them for the page. It reads no file: pictures stay URLs (a script's own image) or
character ids (looked up in ``--icons`` by the renderer, which works on its own copy of the view).
"""

from collections.abc import Iterator
from dataclasses import dataclass, field, fields, is_dataclass, replace
import re

from scriptforge.analysis import Analysis
from scriptforge.describe import setup_cell
from scriptforge.languages import char_class, default, split_pair, uses
from scriptforge.model import COUNT_KEYS, NIGHTS, PLAYER_TEAMS, TEAM_COLOURS, TEAMS, Character
from scriptforge.render.measure import NameColumn, name_column

STEP_COLOURS = {"dusk": "#4a4f5c", "minioninfo": TEAM_COLOURS["minion"],
                "demoninfo": TEAM_COLOURS["demon"], "dawn": "#c07a12"}
#: The icons drawn as a badge of a class of templates/colours.css.j2 (c-<key>), not an inline colour.
BADGE_COLOURS = {**TEAM_COLOURS, **STEP_COLOURS}
EXTRA_TEAMS = ("traveller", "fabled", "loric")
_NOT_FIRST_NIGHT = re.compile(r"\*")


@dataclass
class Icon:
    """Either a picture (``url``) or a generated badge (``colour`` + ``initial``)."""

    colour: str
    initial: str
    url: str | None = None
    key: str | None = None  # team or step id: sheet.css colours the badge by class (c-<key>)
    character: str | None = None  # the character's id: the renderer looks for its picture in --icons
    official: bool = False  # set by the renderer: the picture is the official art from the pack's icons


@dataclass
class CharacterView:
    id: str
    team: str
    name: str
    ability: str
    icon: Icon
    second_name: str | None = None  # ko+en: the English name, printed small
    fallback: bool = False  # the text is not in the sheet's language
    homebrew: bool = False


@dataclass
class TeamView:
    id: str
    title: str
    colour: str
    characters: list[CharacterView]


@dataclass
class JinxView:
    first: CharacterView
    second: CharacterView
    text: str


@dataclass
class StepView:
    id: str
    name: str
    text: str
    icon: Icon
    second_name: str | None = None
    team: str = "step"


@dataclass
class NightView:
    id: str  # first_night | other_nights
    title: str
    steps: list[StepView]


@dataclass
class SetupRowView:
    players: int
    counts: list[str]


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
    djinn_note: str | None = None
    footnote: str | None = None
    nights: list[NightView] = field(default_factory=list)  # night pages (nightsheet, --night)
    back: dict | None = None  # the back page (--back): setup table and compact night order
    scale: float = 1.0  # font scale; the renderer shrinks by steps when a page overflows
    byline: str | None = None
    show_sheet: bool = True
    name_column: NameColumn | None = None  # a wider name column (or smaller names) than sheet.css's
    art_notice: str | None = None  # set by the renderer when official art is on the pages: the footer notice


    def icons(self) -> Iterator[Icon]:
        """Every icon on the pages."""
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
        parts = [self.title, self.author or "", self.footnote or "", self.djinn_note or ""]
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
                parts += [night.title, *(s.name for s in night.steps)]
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
             "show_sheet", "fallback", "homebrew", "players", "official"}


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
    return Icon(colour=TEAM_COLOURS.get(ch.team, "#555555"), initial=initial(name), url=image_url,
                key=ch.team if ch.team in TEAM_COLOURS else None, character=ch.id)


def character_view(ch: Character, sheet_lang: str, image_url: str | None = None) -> CharacterView:
    lang, second = split_pair(sheet_lang)
    texts, used = ch.texts_for(lang)
    fallback = used != lang
    name = texts.name if texts else ch.id
    ability = texts.ability if texts else ""
    second_texts = ch.text(second) if second else None
    second_name = second_texts.name if second_texts and second_texts.name != name else None
    return CharacterView(id=ch.id, team=ch.team, name=name, ability=ability,
                         icon=icon_for(ch, name, image_url), second_name=second_name,
                         fallback=fallback, homebrew=ch.homebrew)


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


def sheet_view(analysis: Analysis, sheet_lang: str = default("sheet"), paper: str = "a4") -> SheetView:
    """The character sheet of the analysed script, characters in sheet order."""
    script, db = analysis.script, analysis.db
    lang, _ = split_pair(sheet_lang)
    labels = labels_for(db, sheet_lang)
    views = {ch.id: character_view(ch, sheet_lang, analysis.images.get(ch.id)) for ch in analysis.characters}

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
            jinx_views.append(JinxView(first=views[a], second=views[b], text=jinx.text(lang) or ""))

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
    )


# -- nights ----------------------------------------------------------------------------------


def night_views(analysis: Analysis, sheet_lang: str) -> list[NightView]:
    """The two nights of the analysed script's night order (steps dusk, minion info, demon info
    and dawn included) as lists of steps with icon, name and reminder text."""
    db, order = analysis.db, analysis.night
    lang, second = split_pair(sheet_lang)
    labels = labels_for(db, sheet_lang)
    out = []
    for night in NIGHTS:
        steps = []
        for item_id in order.order(night):
            entry = order.entries[item_id]
            text = entry.reminder(night, lang) or ""
            if entry.step is not None:
                name = entry.name(lang)
                second_name = entry.step.names.get(second) if second else None
                steps.append(StepView(id=item_id, name=name, text=text, team="step",
                                      icon=Icon(colour=STEP_COLOURS.get(item_id, "#555555"),
                                                initial=initial(name),
                                                key=item_id if item_id in STEP_COLOURS else None),
                                      second_name=second_name if second_name != name else None))
                continue
            assert entry.character is not None  # an entry is a step or a character
            view = character_view(entry.character, sheet_lang, analysis.images.get(item_id))
            steps.append(StepView(id=item_id, name=view.name, text=text, icon=view.icon,
                                  second_name=view.second_name, team=entry.character.team))
        out.append(NightView(id=night, title=labels.get(night, night), steps=steps))
    return out


# -- the whole view ----------------------------------------------------------------------------


def make_view(analysis: Analysis, sheet_lang: str = default("sheet"), paper: str = "a4", *, sheet: bool = True,
              back: bool = False, night: bool = False) -> SheetView:
    """The whole printable view of a script: sheet, and optionally back page and night pages."""
    view = sheet_view(analysis, sheet_lang, paper)
    view.show_sheet = sheet
    if night or back:
        nights = night_views(analysis, sheet_lang)
        if night:
            view.nights = nights
        if back:
            view.back = back_view(analysis, sheet_lang, nights)
    view.name_column = sheet_name_column(view)
    return view


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


def back_view(analysis: Analysis, sheet_lang: str, nights: list[NightView]) -> dict:
    """The back page: the 5-15 player setup table (the base count, and beside it the range over
    every legal bag where the setup characters change it) and a compact night order."""

    labels = labels_for(analysis.db, sheet_lang)
    rows = analysis.setup
    teams = [(t, COUNT_KEYS[t]) for t in PLAYER_TEAMS]
    changed = any(row.ranges[k] != (row.base[k], row.base[k]) for row in rows for _, k in teams)
    return {
        "nights": nights,
        "setup": [SetupRowView(players=row.players, counts=[]) for row in rows],
        "setup_teams": [{"id": t, "title": _team_title(labels, t), "colour": TEAM_COLOURS[t],
                         "counts": [setup_cell(row.base[k], row.ranges[k]) for row in rows]} for t, k in teams],
        "setup_note": labels.get("setup_table_note") if changed else None,
    }
