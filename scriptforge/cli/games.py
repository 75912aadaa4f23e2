"""The other games (Salem, Werewolf, Mafia): role cards. Their sheets are `build --game` and
`nightsheet --game` (printing)."""

from pathlib import Path

import click

from scriptforge.cli.common import LANGS, default_lang, echo, fail_cleanly
from scriptforge.model.rule_sets import OTHER_GAMES
from scriptforge.render.choices import FORMATS, PAPERS


@click.command()
@click.argument("game", type=click.Choice(list(OTHER_GAMES)))
@click.option("-o", "--output", "out", type=click.Path(),
              help="Output file ('-': standard output). Default: <game>-cards.pdf here.")
@click.option("--lang", type=LANGS, default=default_lang("sheet"), show_default=True,
              help="ko+en: each card's Korean name with the English one inside it.")
@click.option("--players", type=click.IntRange(min=1),
              help="The cards for this many players, where the game's data gives them (Salem's tryal cards).")
@click.option("--paper", type=click.Choice(PAPERS), default=PAPERS[0], show_default=True)
@click.option("--format", "fmt", type=click.Choice(FORMATS),
              help="pdf, html or png (one image per page). Default: the -o file's suffix, else pdf.")
@click.option("--size", default="44/25", show_default=True, metavar="CARD/REMINDER",
              help="Cut diameter in mm of the cards (the first number; as `tokens --size`).")
@click.option("--bleed", type=click.FloatRange(0, 5), default=1.0, show_default=True,
              help="How far (mm) the art goes past the cut line.")
@fail_cleanly
def cards(game, out, lang, players, paper, fmt, size, bleed):
    """Print the role cards of another game through the token sheets' engine: a cover with how
    many cards of each role and every role's text (the table's reference), then one round card per
    card a player holds, packed with cut lines and crop marks.

    \b
    Example:
        scriptforge cards salem --players 7 --lang ko      # salem-cards.pdf: 7 town hall, 35 tryal cards
        scriptforge cards werewolf --lang ko+en -o werewolf-cards.pdf
    """
    # deferred: start-up time
    from scriptforge.db.games import load_game
    from scriptforge.render.game_cards import build_cards
    from scriptforge.render.outputs import output_format, output_target
    from scriptforge.render.pdf import Renderer
    from scriptforge.render.tokens import token_options

    fmt = output_format(out, fmt, FORMATS)
    written, pages, warnings = build_cards(load_game(game), Renderer(), out=output_target(Path(game), out, fmt, False,
                                                                                          "-cards"),
                                           lang=lang, paper=paper, fmt=fmt, players=players,
                                           options=token_options(size, bleed))
    for warning in warnings:
        echo(f"Warning: {game}: {warning}", err=True)
    for path in written:
        echo(f"{path} ({pages} page{'s' if pages != 1 else ''})", err=out == "-")
