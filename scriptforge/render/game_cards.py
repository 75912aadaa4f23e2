"""Role cards of the other games (Salem, Werewolf, Mafia): `scriptforge cards`, through the token
sheets' engine (``token_layout`` places the cards, ``tokens`` sets the names on their arcs,
``templates/tokens.html.j2`` draws them).

A card is a round token of the size of a character token: the role's initial in its group's colour
(`game_views.GROUP_COLOURS`) and its name along the lower edge, with the second language's name
inside it. The cover page is the reference the table keeps: how many cards of each role, and each
role's text. Which roles a player holds a card of is the game's `role_cards` (kinds of role); how
many of each, the role's `count`, or where a setup table gives the cards for the player count
(Salem's tryal cards) that row's `cards`.
"""

from dataclasses import dataclass
from pathlib import Path

from scriptforge.db.games import GameDatabase, Role
from scriptforge.io.errors import InputError
from scriptforge.model.languages import split_pair
from scriptforge.render.game_views import DEFAULT_COLOUR, GROUP_COLOURS
from scriptforge.render.outputs import write_rendered
from scriptforge.render.token_layout import PRINTABLE_MARGIN_MM, Kind, Placed, area, layout
from scriptforge.render.tokens import (DESCENT, CountRow, EditionRow, TokenOptions, TokenSheetView, TokenView, arc,
                                       crop_ticks, fit_arc, monogram, render_tokens)
from scriptforge.render.views import Icon


@dataclass
class ReferenceRow:
    """A role on the cover: its names, its group's colour and its text (None where the source gives none)."""

    name: str
    second: str | None
    colour: str
    text: str | None


def card_counts(gdb: GameDatabase, players: int | None) -> list[tuple[Role, int]]:
    """(role, cards) of every role a player may hold a card of: its `count` (1 where none), or for
    `players` the count a setup table's row gives for that role's card."""
    counts = {role.id: role.count or 1 for role in gdb.roles.values() if role.kind in gdb.role_cards}
    if players is not None:
        if gdb.players is None or not gdb.players[0] <= players <= gdb.players[1]:
            span = f"{gdb.players[0]}-{gdb.players[1]} players" if gdb.players else "no player count in its source"
            raise InputError(f"--players {players}: {gdb.id} is for {span}")
        for table in gdb.setup:
            for row in table.rows or ():
                if row.players[0] <= players <= row.players[1]:
                    counts.update({card: n for card, n in row.cards if card in counts})
    return [(gdb.roles[role_id], n) for role_id, n in counts.items() if n]


def role_card(role: Role, name: str, second: str | None, colour: str, placed: Placed, kind: Kind) -> TokenView:
    """One role card: the initial in `colour`, `name` on the lower arc and `second` inside it."""
    cx, cy, d = placed.x, placed.y, kind.diameter
    safe = kind.radius - max(1.0, 0.025 * d)

    def baseline_for(size: float) -> float:
        return safe - DESCENT * size - 0.1

    size = fit_arc(name, 0.1 * d, baseline_for, 200.0)
    texts = [arc(name, size, cx, cy, baseline_for(size))]
    if second:
        inner = baseline_for(size) - 1.12 * size - DESCENT * 0.62 * size
        texts.append(arc(second, fit_arc(second, 0.62 * size, lambda s: inner, 150.0), cx, cy, inner))
    icon = Icon(colour=colour, initial=name[:1].upper())
    icon_y, radius, side = cy - 0.07 * d, 0.19 * d, 0.44 * d
    return TokenView(kind="character", id=role.id, team=role.team or role.kind, x=cx, y=cy, radius=kind.radius,
                     art_radius=kind.art_radius, ticks=crop_ticks(placed, kind), icon=icon,
                     icon_box=(round(cx - side / 2, 3), round(icon_y - side / 2, 3), round(side, 3)),
                     monogram=monogram(icon, cx, icon_y, radius), monogram_radius=radius, icon_y=round(icon_y, 3),
                     texts=texts)


def cards_view(gdb: GameDatabase, sheet_lang: str, paper: str, players: int | None = None,
               options: TokenOptions = TokenOptions()) -> TokenSheetView:
    """The role cards of `gdb` (for `players`, where its data gives the cards per player count) in
    `sheet_lang` ("ko", or a pair "ko+en": the second language's names inside the first's)."""
    lang, second = split_pair(sheet_lang)
    lang = gdb.text_language(lang)
    second = gdb.text_language(second) if second else None
    second = second if second != lang else None
    labels = dict(gdb.ui[lang]["labels"])
    counts = card_counts(gdb, players)
    kind = Kind("character", options.sizes[0], options.bleed)
    try:
        pages = layout([(kind, sum(n for _, n in counts))], paper)
    except ValueError as exc:
        raise InputError(f"--size, --bleed: {exc}") from None
    cards = [role for role, n in counts for _ in range(n)]

    def colour(role: Role) -> str:
        group = role.kind if gdb.group_by == "kind" else role.team
        return GROUP_COLOURS.get(group or "", DEFAULT_COLOUR)

    def names(role: Role) -> tuple[str, str | None]:
        name = role.name(lang)
        other = role.name(second) if second else None
        return name, other if other != name else None

    views = [[role_card(cards[p.index], *names(cards[p.index]), colour(cards[p.index]), p, kind) for p in page.tokens]
             for page in pages]
    reference = [ReferenceRow(*names(role), colour(role), role.texts[lang].text if lang in role.texts else None)
                 for role, _ in counts]
    rows = [CountRow(names(role)[0], n, colour(role)) for role, n in counts]
    rows += [CountRow(labels["cards_total"], len(cards)), CountRow(labels["cards_pages"], len(pages))]
    width, height = area(paper)
    paper_name = paper.upper() if paper == "a4" else paper.title()
    title = gdb.texts[lang]["name"]
    return TokenSheetView(lang=sheet_lang, html_lang=lang, paper=paper, title=title,
                          byline=labels["cards_for"].format(n=players) if players else None, labels=labels,
                          counts=rows, editions=[], new=EditionRow("", []),
                          settings=f"⌀ {options.sizes[0]:g} mm · {options.bleed:g} mm · {paper_name}",
                          pages=views, width=width, height=height, margin=PRINTABLE_MARGIN_MM, mirror=options.mirror,
                          reference=reference)


def build_cards(gdb: GameDatabase, renderer, *, out: Path, lang: str, paper: str = "a4", fmt: str = "pdf",
                players: int | None = None, options: TokenOptions = TokenOptions()):
    """Render the role cards of `gdb` and write them to `out`: (the files written, pages, warnings).
    The cover is fitted to its page as the token sheets' is (`tokens.fit_cover`)."""
    rendered = render_tokens(cards_view(gdb, lang, paper, players, options), renderer, fmt)
    return write_rendered(rendered, out), rendered.pages, rendered.warnings
