"""Sheets for the other games (Salem 1692, Werewolf, Mafia): view models and the build behind
`scriptforge build --game …` and `scriptforge nightsheet --game …`.

Two documents per game, in ko, en or ko+en (Korean texts, each English name small beside it):

- the reference sheet (``game_sheet.html.j2``): setup tables (a table the source does not give is
  printed as "not given in the source" with the reason), every role or card grouped by kind or
  team with its text, conditions and notes, then the setup steps, turn and rule sections;
- the moderator's sheet (``game_night.html.j2``): the first-night and later-night scripts (what
  to say, what to do; Salem's confession and dawn reveal), then the day phases (Werewolf's and
  Mafia's votes and defence).

Templates only loop over these dataclasses; every decision is made here. The pages flow (these
sheets are references, not one-page handouts), and a table row is never split across pages.
"""

from dataclasses import dataclass, field

from scriptforge.model.describe import ability_conditions
from scriptforge.db.games import GameDatabase, Role
from scriptforge.model.languages import default, split_pair
from scriptforge.render.measure import NameColumn, name_column
from scriptforge.render.views import Icon

#: Colours of Salem's card kinds and of the teams of Werewolf and Mafia.
GROUP_COLOURS = {
    "town_hall": "#6b4a1e", "tryal": "#5c3c7a", "black": "#1e1b18", "green": "#2f7d3a", "blue": "#1d5aa6",
    "red": "#a8231b", "special": "#4a4f5c", "token": "#8a6d1d", "equipment": "#4a4f5c", "moderator": "#4a4f5c",
    "wolf": "#8e1016", "mafia": "#8e1016", "citizens": "#1d5aa6", "ratman": "#6a4a9c",
    "town": "#1d5aa6", "witches": "#8e1016",
}
DEFAULT_COLOUR = "#4a4f5c"


@dataclass
class RoleRow:
    """A role's row on a game's reference sheet: its names, text, conditions and notes."""

    id: str
    name: str
    second_name: str | None
    text: str | None
    notes: list[str]
    conditions: list[str]
    team: str | None = None  # the team's name, shown where roles are grouped by kind


@dataclass
class GroupView:
    """A group of roles on a game's reference sheet (a kind or a team): its title, colour, note and role rows."""

    id: str
    title: str
    colour: str
    note: str | None
    roles: list[RoleRow]


@dataclass
class SetupView:
    """A setup table on a game's reference sheet: its title, its (players, count) rows and its note."""

    id: str
    title: str
    rows: list[tuple[str, str]]  # (players, count); a table the source does not give is not shown
    note: str | None
    cards: list[tuple[str, list[str]]] = field(default_factory=list)  # (card name, count per row): the count's make-up


@dataclass
class SectionView:
    """A rule section on a game's reference sheet: its title and its items, numbered or not."""

    id: str
    title: str
    items: list[str]
    numbered: bool = False


@dataclass
class StepRow:
    """A step of a printed sequence, or a role that acts in it: its names, what to
    say and do, its text, items and conditions."""

    id: str
    name: str
    second_name: str | None
    say: str | None = None
    do: str | None = None
    text: str | None = None
    items: list[str] = field(default_factory=list)
    conditions: list[str] = field(default_factory=list)
    is_role: bool = False


@dataclass
class SequenceView:
    """A game's sequence as printed (setup or a day on the reference sheet; a night or a day on
    the moderator's sheet): its title, note and step rows."""

    id: str
    kind: str
    title: str
    note: str | None
    steps: list[StepRow]


@dataclass
class GameSheetView:
    """Everything the two game templates show."""

    game: str
    lang: str  # ko | en | ko+en
    html_lang: str
    paper: str
    title: str
    subtitle: str
    labels: dict
    summary: str | None = None
    groups: list[GroupView] = field(default_factory=list)
    setup: list[SetupView] = field(default_factory=list)
    sections: list[SectionView] = field(default_factory=list)
    procedures: list[SequenceView] = field(default_factory=list)  # setup and turn, on the reference sheet
    sequences: list[SequenceView] = field(default_factory=list)  # nights and days: the moderator's pages
    scale: float = 1.0
    name_column: NameColumn | None = None  # wider than game_styles' 9.4rem where a name needs it

    def icons(self) -> list[Icon]:
        """Game sheets draw no icons."""
        return []

    def all_text(self) -> str:
        parts = [self.title, self.subtitle, self.summary or "", *(str(v) for v in self.labels.values())]
        for g in self.groups:
            parts += [g.title, g.note or ""]
            for r in g.roles:
                parts += [r.name, r.second_name or "", r.text or "", *r.notes, *r.conditions, r.team or "",
                          ]
        for setup in self.setup:
            parts += [setup.title, setup.note or "", *(a + b for a, b in setup.rows), *(name for name, _ in setup.cards)]
        for section in self.sections:
            parts += [section.title, *section.items]
        for q in (*self.procedures, *self.sequences):
            parts += [q.title, q.note or ""]
            for st in q.steps:
                parts += [st.name, st.second_name or "", st.say or "", st.do or "", st.text or "", *st.items,
                          *st.conditions]
        return "".join(parts)


def _span(players: tuple[int, int]) -> str:
    return str(players[0]) if players[0] == players[1] else f"{players[0]}–{players[1]}"


def _second(item, second: str | None) -> str | None:
    if not second or second not in item.texts:
        return None
    return item.texts[second].name


def game_view(gdb: GameDatabase, sheet_lang: str = default("sheet"), paper: str = "a4", *, sheet: bool = True,
              night: bool = False) -> GameSheetView:
    """The view model of a game's reference sheet (`sheet`) and/or moderator's sheet (`night`)."""
    lang, second = split_pair(sheet_lang)
    lang = gdb.text_language(lang)
    second = gdb.text_language(second) if second else None
    second = second if second != lang else None
    texts = gdb.texts[lang]
    labels = dict(gdb.ui[lang]["labels"])
    # A number the source does not give is left off the page (never printed as "not given").
    subtitle = labels["player_range"].format(min=gdb.players[0], max=gdb.players[1]) if gdb.players else ""
    view = GameSheetView(game=gdb.id, lang=sheet_lang, html_lang=lang, paper=paper, title=texts["name"],
                         subtitle=subtitle, labels=labels, summary=texts["summary"] if sheet else None)
    if sheet:
        view.setup = _setup_views(gdb, lang, labels)
        view.groups = _group_views(gdb, lang, second, labels)
        kinds = ("setup",) if night else ("setup", "day")  # with --night the day phases are on the moderator's pages
        view.procedures = [_sequence_view(gdb, s, lang, second, labels) for s in gdb.sequences if s.kind in kinds]
        view.sections = [SectionView(id=s, title=texts["sections"][s]["title"], items=list(texts["sections"][s]["items"]),
                                     numbered=texts["sections"][s].get("numbered", False)) for s in gdb.sections]
    if night:
        ordered = [s for s in gdb.sequences if s.kind == "night"] + [s for s in gdb.sequences if s.kind == "day"]
        for i, seq in enumerate(ordered):
            row = _sequence_view(gdb, seq, lang, second, labels)
            previous = view.sequences[-1] if view.sequences else None
            if previous is not None and _same_steps(previous, row) and ordered[i - 1].script == seq.script:
                previous.title = labels["every_night"]  # the first night and the others are alike: once
                continue
            view.sequences.append(row)
    if sheet or night:
        view.name_column = _name_column(view)
    return view


def _same_steps(a: SequenceView, b: SequenceView) -> bool:
    return a.kind == b.kind == "night" and a.note == b.note and [s.id for s in a.steps] == [s.id for s in b.steps]


def _name_column(view: GameSheetView) -> NameColumn | None:
    """A wider name column than game_styles' 9.4rem where a name's longest word needs it."""
    rows = [r for g in view.groups for r in g.roles]
    steps = [s for q in (*view.procedures, *view.sequences) for s in q.steps]
    names = [r.name for r in rows] + [s.name for s in steps]
    seconds = [r.second_name for r in rows if r.second_name] + [s.second_name for s in steps if s.second_name]
    column = name_column(names, seconds, narrowest=GAME_NAME_CELL_REM)
    return column if column != NameColumn(width=GAME_NAME_CELL_REM) else None


GAME_NAME_CELL_REM = 9.4  # .roles/.steps .name-cell in game_styles.html.j2


def _setup_views(gdb: GameDatabase, lang: str, labels: dict) -> list[SetupView]:
    texts = gdb.texts[lang]
    out = []
    for table in gdb.setup:
        if table.rows is None:
            continue  # a table the source does not give is left off the page, with its note
        note = texts.get("setup_notes", {}).get(table.id)
        rows = None
        if table.rows is not None:
            rows = [(_span(r.players), f"{r.count}" if r.keep is None else f"{r.count} / {r.keep}") for r in table.rows]
        card_ids = list(dict.fromkeys(card for r in table.rows for card, _ in r.cards))
        cards = [(gdb.roles[card].name(lang), [str(dict(r.cards).get(card, 0)) for r in table.rows])
                 for card in card_ids]
        out.append(SetupView(id=table.id, title=texts["setup"][table.id], rows=rows, note=note, cards=cards))
    return out


def _group_views(gdb: GameDatabase, lang: str, second: str | None, labels: dict) -> list[GroupView]:
    texts = gdb.texts[lang]
    out = []
    for group, roles in gdb.roles_by_group():
        title = gdb.kind_name(group, lang) if gdb.group_by == "kind" else gdb.team_name(group, lang) or group
        rows = [_role_row(gdb, r, lang, second, labels) for r in roles]
        out.append(GroupView(id=group, title=title, colour=GROUP_COLOURS.get(group, DEFAULT_COLOUR),
                             note=texts.get("kind_notes", {}).get(group), roles=rows))
    return out


def _role_row(gdb: GameDatabase, role: Role, lang: str, second: str | None, labels: dict) -> RoleRow:
    t = role.texts[lang]
    return RoleRow(id=role.id, name=t.name, second_name=_second(role, second), text=t.text, notes=list(t.notes),
                   conditions=ability_conditions(gdb, role, lang),
                   team=gdb.team_name(role.team, lang) if role.team and gdb.group_by == "kind" else None)


def _sequence_view(gdb: GameDatabase, seq, lang: str, second: str | None, labels: dict) -> SequenceView:
    texts = gdb.texts[lang]
    note = texts.get("sequence_notes", {}).get(seq.id)
    if not seq.order_given:
        note = f"{note} {labels['order_not_given']}" if note else labels["order_not_given"]
    steps = []
    for sid in seq.steps:
        item = gdb.item(sid)
        if isinstance(item, Role):
            role = item.texts[lang]
            steps.append(StepRow(id=sid, name=role.name, second_name=_second(item, second), text=role.text,
                                 conditions=ability_conditions(gdb, item, lang), is_role=True))
        else:
            step = item.texts[lang]
            steps.append(StepRow(id=sid, name=step.name, second_name=_second(item, second), say=step.say,
                                 do=step.do, text=step.text, items=list(step.items)))
    return SequenceView(id=seq.id, kind=seq.kind, title=texts["sequences"][seq.id], note=note, steps=steps)
