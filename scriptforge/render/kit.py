"""A game kit: what a storyteller prints for one game, as one PDF.

For a script, a player count and (optionally) the bag actually dealt: the players' character
sheet, the night sheet for that player count (with a bag: only the in-play characters' steps, and
the game's own — dusk, Minion and Demon info, dawn), the character and reminder tokens the bag
needs (without a bag: the script's), and the almanac pages of the characters asked for
(`--only`, `--new-only`: among the bag's characters). Every part is the view its own command makes
(`build`, `nightsheet`, `tokens`, `almanac`), rendered by the one Renderer of the command, so
fonts, templates and CSS are loaded once; the parts' pages are then written as one PDF (or one
file per part).
"""

from dataclasses import dataclass, replace

from scriptforge.io.errors import InputError
from scriptforge.render.almanac import almanac_view
from scriptforge.render.options import PrintOptions
from scriptforge.render.tokens import TokenOptions, render_tokens, tokens_view
from scriptforge.render.views import make_view
from scriptforge.render.writing import Rendered, output, unique
from scriptforge.rules.bags import bag_problem
from scriptforge.scripts.analysis import Analysis
from scriptforge.scripts.selection import CharacterChoice, chosen_characters, named_characters
from scriptforge.scripts.tokens import token_set

@dataclass
class KitPart:
    """One part of a kit: its name (sheet, night, tokens, almanac: the suffix of its own file) and
    its Rendered output."""

    name: str
    rendered: Rendered


def bag_of(analysis: Analysis, bag: tuple[str, ...], players: int, warnings: list[str]) -> list[str] | None:
    """The ids of the bag's characters (ids, names or aliases, comma-separated or repeated, each a
    character of the script), or None without a bag; a bag with fewer player characters than
    players is refused (Travellers, Fabled and Loric sit beside it), one the setup rules do not
    allow is printed with a warning (a storyteller may mean it: a house rule, a Bootlegger's)."""
    if not bag:
        return None
    chosen = named_characters(analysis.characters, bag, analysis.db, option="--bag", teams=False)
    in_bag = [ch for ch in chosen if ch.team not in ("traveller", "fabled", "loric")]
    if len(in_bag) < players:
        raise InputError(f"--bag names {len(in_bag)} player character(s) for --players {players}; "
                         f"a bag holds one character per player (Travellers, Fabled and Loric beside it)")
    ids = [ch.id for ch in chosen]
    row = next((row for row in analysis.setup if row.players == players), None)
    problem = bag_problem(row, analysis.characters, ids) if row is not None else None
    if problem:
        warnings.append(f"--bag: {problem}")
    return ids


def render_kit(analysis: Analysis, renderer, *, lang: str, paper: str, options: PrintOptions,
               in_play: list[str] | None, choice: CharacterChoice, base_dir=None,
               token_options: TokenOptions | None = None) -> list[KitPart]:
    """Each part of the kit, rendered to PDF (see the module docstring); `options` already decided
    for the script (PrintOptions.for_script) and the analysis made for its player count."""
    bag = set(in_play) if in_play is not None else None
    parts = [KitPart("sheet", renderer.render(make_view(analysis, lang, paper, options=options), "pdf", base_dir)),
             KitPart("night", renderer.render(make_view(analysis, lang, paper, sheet=False, night=True,
                                                        options=options, in_play=bag), "pdf", base_dir))]
    tokens = tokens_view(analysis, token_set(analysis, in_play=in_play), lang, paper, token_options or TokenOptions())
    parts.append(KitPart("tokens", render_tokens(tokens, renderer, "pdf", base_dir)))
    if choice:
        among = [ch for ch in analysis.characters if bag is None or ch.id in bag]
        pages = [ch.id for ch in chosen_characters(among, choice, analysis.db)]
        if pages:
            view = replace(almanac_view(analysis, lang, paper, options, pages=pages), pages_only=True)
            parts.append(KitPart("almanac", renderer.render_document(view, "almanac.html.j2", "pdf", base_dir)))
    return parts


def combined(parts: list[KitPart], fmt: str, dpi: int) -> Rendered:
    """The parts' pages as one output, in order (each part keeps its own page numbers)."""
    docs = [doc for part in parts for doc in part.rendered.docs]
    warnings = unique([warning for part in parts for warning in part.rendered.warnings])
    return output(docs, fmt, warnings, dpi)
