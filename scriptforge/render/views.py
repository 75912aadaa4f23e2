"""View models for the printed sheets: plain dataclasses built from a script, the database and a
language. Templates only loop over these and test flags; every decision is made here.

The rules (sheet order, night order, jinxes, setup) come from ``scriptforge.rules``; this module
only arranges what they computed for the page.
"""

from dataclasses import dataclass, field, fields, is_dataclass, replace
from pathlib import Path
import re

from scriptforge.model import PLAYER_TEAMS, Character
from scriptforge.render.measure import NameColumn, name_column

#: Sheet languages: the language of the texts, and (for ko+en) the language of the small
#: second name printed beside each character's name.
SHEET_LANGUAGES = {"ko": ("ko", None), "en": ("en", None), "ko+en": ("ko", "en")}

TEAM_COLOURS = {
    "townsfolk": "#1d5aa6",
    "outsider": "#3f9bd6",
    "minion": "#d2541c",
    "demon": "#8e1016",
    "traveller": "#6a4a9c",
    "fabled": "#b88a12",
    "loric": "#3f7d3a",
}
STEP_COLOURS = {"dusk": "#4a4f5c", "minioninfo": TEAM_COLOURS["minion"],
                "demoninfo": TEAM_COLOURS["demon"], "dawn": "#c07a12"}
EXTRA_TEAMS = ("traveller", "fabled", "loric")
ICON_SUFFIXES = (".svg", ".png", ".webp", ".jpg", ".jpeg")
_NOT_FIRST_NIGHT = re.compile(r"\*")


@dataclass
class Icon:
    """Either a picture (``url``) or a generated badge (``colour`` + ``initial``)."""

    colour: str
    initial: str
    url: str | None = None
    key: str | None = None  # team or step id: sheet.css colours the badge by class (c-<key>)


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
_HANGUL = "\u1100-\u11ff\u3130-\u318f\uac00-\ud7a3"
# A gap between two non-space characters of which at least one is Hangul.
_JOIN_GAP = re.compile(f"(?<=[{_HANGUL}])(?=[^\\s{WORD_JOINER}])|(?<=[^\\s{WORD_JOINER}])(?=[{_HANGUL}])")


def keep_words(text: str) -> str:
    """`text` with a WORD JOINER between the characters of each Korean word.

    Korean is set with breaks at spaces only (CSS ``word-break: keep-all``), but WeasyPrint/Pango
    break between any two Hangul syllables and ignore keep-all; joined syllables break at spaces.
    Latin text is unchanged; a word too long for its cell still breaks (``overflow-wrap``).
    """
    if not text or not any("\u1100" <= c <= "\ud7a3" for c in text):
        return text
    return _JOIN_GAP.sub(WORD_JOINER, text)


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


_NOT_TEXT = {"id", "team", "lang", "html_lang", "paper", "url", "colour", "key", "scale", "show_sheet",
             "fallback", "homebrew", "players"}


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


def icon_for(ch: Character, name: str, icons_dir: Path | None, image_url: str | None = None) -> Icon:
    colour = TEAM_COLOURS.get(ch.team, "#555555")
    url = None
    if icons_dir is not None:
        for suffix in ICON_SUFFIXES:
            candidate = Path(icons_dir) / f"{ch.id}{suffix}"
            if candidate.is_file():
                url = candidate.resolve().as_uri()
                break
    if url is None and image_url:
        url = image_url
    return Icon(colour=colour, initial=initial(name), url=url, key=ch.team if ch.team in TEAM_COLOURS else None)


def _texts(ch: Character, lang: str):
    """(texts, fallback): the texts in `lang`, else in the other language we have."""
    texts = ch.text(lang)
    if texts is not None:
        return texts, False
    other = next(iter(ch.texts.values()), None)
    return other, True


def character_view(ch: Character, sheet_lang: str, icons_dir: Path | None = None,
                   image_url: str | None = None) -> CharacterView:
    lang, second = SHEET_LANGUAGES[sheet_lang]
    texts, fallback = _texts(ch, lang)
    name = texts.name if texts else ch.id
    ability = texts.ability if texts else ""
    second_name = None
    if second and ch.text(second) and ch.text(second).name != name:
        second_name = ch.text(second).name
    return CharacterView(id=ch.id, team=ch.team, name=name, ability=ability,
                         icon=icon_for(ch, name, icons_dir, image_url), second_name=second_name,
                         fallback=fallback, homebrew=ch.homebrew)


def labels_for(db, sheet_lang: str) -> dict:
    lang, _ = SHEET_LANGUAGES[sheet_lang]
    ui = db.ui.get(lang) or db.ui.get("en") or {}
    labels = dict(ui.get("labels", {}))
    labels["team_names"] = {t: v["plural"] for t, v in ui.get("teams", {}).items()}
    return labels


def byline(labels: dict, lang: str, author: str | None) -> str | None:
    if not author:
        return None
    by = labels.get("by", "by")
    return f"{author} {by}" if lang == "ko" else f"{by} {author}"


def _team_title(labels: dict, team: str) -> str:
    return labels["team_names"].get(team, team.title())


def _image_urls(script) -> dict[str, str]:
    """Homebrew `image` fields of the script's character objects, as URLs.

    A relative path is taken against the script's folder. Whether a URL may be read at all is the
    renderer's url_fetcher's decision (no network, no file outside the allowed folders).
    """
    out = {}
    raw = getattr(script, "raw", None)
    paths = getattr(script, "paths", None) or {}
    source = getattr(script, "source", None)
    base_dir = Path(source).resolve().parent if source and source not in ("-", "<data>") else None
    if not isinstance(raw, list):
        return out
    for char_id, pointer in paths.items():
        try:
            entry = raw[int(str(pointer).strip("/").split("/")[0])]
        except (ValueError, IndexError):
            continue
        value = entry.get("image") if isinstance(entry, dict) else None
        if isinstance(value, list):
            value = value[0] if value else None
        if not isinstance(value, str) or not value.strip():
            continue
        value = value.strip()
        if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", value):
            out[char_id] = value
        elif base_dir is not None:
            out[char_id] = (base_dir / value).resolve().as_uri()
    return out


def image_urls(script) -> dict[str, str]:
    return _image_urls(script)


# -- the sheet -------------------------------------------------------------------------------


def sheet_view(script, db, sheet_lang: str = "ko", paper: str = "a4", *, ordered: list[Character],
               jinxes=(), djinn_needed: bool = False, icons_dir: Path | None = None,
               title_fallback: str = "") -> SheetView:
    """The character sheet of `script`, with characters in the given (sheet) order.

    `ordered` comes from ``rules.order.sheet_order``; `jinxes` from ``rules.jinxes.script_jinxes``
    (objects or dicts with the two character ids and per-language texts).
    """
    lang, _ = SHEET_LANGUAGES[sheet_lang]
    labels = labels_for(db, sheet_lang)
    images = _image_urls(script)
    views = {ch.id: character_view(ch, sheet_lang, icons_dir, images.get(ch.id)) for ch in ordered}

    teams, extra = [], []
    for team in (*PLAYER_TEAMS, *EXTRA_TEAMS):
        members = [views[ch.id] for ch in ordered if ch.team == team]
        if members:
            view = TeamView(id=team, title=_team_title(labels, team), colour=TEAM_COLOURS[team],
                            characters=members)
            (teams if team in PLAYER_TEAMS else extra).append(view)

    jinx_views = []
    for jinx in jinxes:
        a, b, texts = _jinx_parts(jinx)
        if a not in views or b not in views:
            continue
        text = texts.get(lang) or next(iter(texts.values()), "")
        jinx_views.append(JinxView(first=views[a], second=views[b], text=text))

    star = any(_NOT_FIRST_NIGHT.search(v.ability) for v in views.values())
    return SheetView(
        lang=sheet_lang,
        html_lang=lang,
        paper=paper,
        title=(getattr(script, "name", None) or title_fallback or "").strip(),
        author=(getattr(script, "author", None) or None),
        byline=byline(labels, lang, getattr(script, "author", None)),
        labels=labels,
        teams=teams,
        extra_teams=extra,
        jinxes=jinx_views,
        djinn_note=labels.get("djinn_note") if jinx_views and djinn_needed else None,
        footnote=labels.get("not_first_night") if star else None,
    )


def _jinx_parts(jinx):
    """(first id, second id, texts by language) from a jinx record in any of the shapes we get."""
    if isinstance(jinx, dict):
        chars = jinx.get("characters") or (jinx.get("a"), jinx.get("b"))
        texts = jinx.get("texts") or {}
        if not texts and "text" in jinx:
            texts = {"en": jinx["text"]}
        return chars[0], chars[1], texts
    chars = getattr(jinx, "characters", None)
    if chars is None and hasattr(jinx, "jinx"):
        return _jinx_parts(jinx.jinx)
    return chars[0], chars[1], dict(getattr(jinx, "texts", {}) or {})


# -- nights ----------------------------------------------------------------------------------


def night_views(db, sheet_lang: str, first_night: list[str], other_nights: list[str],
                characters: dict[str, Character], icons_dir: Path | None = None,
                reminders: dict | None = None, images: dict | None = None) -> list[NightView]:
    """The two nights as lists of steps with icon, name and reminder text.

    `first_night` / `other_nights` are the id lists from ``rules.night.night_order`` (steps dusk,
    minioninfo, demoninfo and dawn included). `reminders`, when given, maps night -> id -> text
    (or lang -> text) as the night engine computed them; otherwise the database texts are used.
    """
    lang, second = SHEET_LANGUAGES[sheet_lang]
    labels = labels_for(db, sheet_lang)
    out = []
    for night, ids in (("first_night", first_night), ("other_nights", other_nights)):
        steps = []
        for item_id in ids:
            given = _given_reminder(reminders, night, item_id, lang)
            if item_id in db.steps:
                step = db.steps[item_id]
                name = step.names.get(lang) or next(iter(step.names.values()), item_id)
                text = given if given is not None else (getattr(step, night).get(lang)
                                                        or next(iter(getattr(step, night).values()), ""))
                second_name = step.names.get(second) if second else None
                steps.append(StepView(id=item_id, name=name, text=text, team="step",
                                      icon=Icon(colour=STEP_COLOURS.get(item_id, "#555555"),
                                                initial=initial(name),
                                                key=item_id if item_id in STEP_COLOURS else None),
                                      second_name=second_name if second_name != name else None))
                continue
            ch = characters.get(item_id) or db.characters.get(item_id)
            if ch is None:
                continue
            view = character_view(ch, sheet_lang, icons_dir, (images or {}).get(item_id))
            texts, _ = _texts(ch, lang)
            text = given if given is not None else (
                (getattr(texts, f"{'first_night' if night == 'first_night' else 'other_night'}_reminder")
                 if texts else None) or "")
            steps.append(StepView(id=item_id, name=view.name, text=text, icon=view.icon,
                                  second_name=view.second_name, team=ch.team))
        out.append(NightView(id=night, title=labels.get(night, night), steps=steps))
    return out


def _given_reminder(reminders, night, item_id, lang):
    if not reminders:
        return None
    table = reminders.get(night) or {}
    value = table.get(item_id)
    if isinstance(value, dict):
        return value.get(lang)
    return value


# -- from a script, through the rules engine -------------------------------------------------


def _script_jinxes(script, db):
    """(jinx records, djinn_needed) from ``rules.jinxes.script_jinxes``."""
    from scriptforge.rules.jinxes import script_jinxes

    result = script_jinxes(script, db)
    if isinstance(result, tuple) and len(result) == 2 and isinstance(result[1], bool):
        return list(result[0]), result[1]
    records = getattr(result, "jinxes", result)
    djinn = getattr(result, "djinn_needed", None)
    if djinn is None:
        djinn = bool(records) and not any(c.id == "djinn" for c in script.characters)
    return list(records), bool(djinn)


def _nights(script, db, sheet_lang: str, icons_dir, images) -> list[NightView]:
    from scriptforge.rules.night import night_order

    lang, _ = SHEET_LANGUAGES[sheet_lang]
    order = night_order(script, db)
    reminders = {}
    entries = getattr(order, "entries", {}) or {}
    for night in ("first_night", "other_nights"):
        reminders[night] = {i: (entries[i].reminder(night, lang) or "") for i in getattr(order, night)
                            if i in entries}
    characters = {c.id: c for c in script.characters}
    return night_views(db, sheet_lang, list(order.first_night), list(order.other_nights), characters,
                       icons_dir, reminders, images)


def make_view(script, db, sheet_lang: str = "ko", paper: str = "a4", *, sheet: bool = True,
              back: bool = False, night: bool = False, icons_dir: Path | None = None,
              keep_order: bool = False) -> SheetView:
    """The whole printable view of a script: sheet, and optionally back page and night pages."""
    from scriptforge.rules.order import sheet_order

    ordered = sheet_order(script, keep_order=keep_order)
    jinxes, djinn = _script_jinxes(script, db)
    view = sheet_view(script, db, sheet_lang, paper, ordered=ordered, jinxes=jinxes, djinn_needed=djinn,
                      icons_dir=icons_dir)
    view.show_sheet = sheet
    images = _image_urls(script)
    if night or back:
        nights = _nights(script, db, sheet_lang, icons_dir, images)
        if night:
            view.nights = nights
        if back:
            view.back = back_view(script, db, sheet_lang, nights)
    view.name_column = sheet_name_column(view)
    return view


#: The narrowest name column of sheet.css (.night .name-cell; the character sheet's is 8.6rem).
NAME_CELL_REM = 8.2


def sheet_name_column(view: SheetView) -> NameColumn | None:
    """The name column that keeps every word of the sheet's and night pages' names on one line,
    or None where sheet.css's columns already do."""
    rows = [c for team in (*view.teams, *view.extra_teams) for c in team.characters]
    rows += [s for night in view.nights for s in night.steps]
    column = name_column([r.name for r in rows], [r.second_name for r in rows if r.second_name],
                         narrowest=NAME_CELL_REM)
    return column if column != NameColumn(width=NAME_CELL_REM) else None


def back_view(script, db, sheet_lang: str, nights: list[NightView]) -> dict:
    """The back page: the 5-15 player setup table (from ``rules.setup``) and a compact night order."""
    labels = labels_for(db, sheet_lang)
    out: dict = {"nights": nights, "setup": [], "setup_teams": [], "setup_note": None}
    try:
        from scriptforge.rules.setup import setup_table
    except ImportError:  # the setup rules are not there yet: the back page shows the nights only
        return out
    table = setup_table(script, db)
    rows = getattr(table, "rows", table)
    counts_by_team: dict[str, list[str]] = {t: [] for t in PLAYER_TEAMS}
    for row in rows:
        get = row.get if isinstance(row, dict) else (lambda k, d=None, r=row: getattr(r, k, d))
        players = get("players")
        out["setup"].append(SetupRowView(players=players, counts=[]))
        for team in PLAYER_TEAMS:
            key = {"townsfolk": "townsfolk", "outsider": "outsiders", "minion": "minions", "demon": "demons"}[team]
            value = (get("ranges") or {}).get(key, (get("base") or {}).get(key))
            if isinstance(value, (list, tuple)):
                value = f"{value[0]}–{value[1]}" if len(value) == 2 and value[0] != value[1] else value[0]
            counts_by_team[team].append("" if value is None else str(value))
    out["setup_teams"] = [{"id": t, "title": _team_title(labels, t), "colour": TEAM_COLOURS[t],
                           "counts": counts_by_team[t]} for t in PLAYER_TEAMS]
    return out
