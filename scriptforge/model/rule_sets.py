"""The rule sets scriptforge knows, by the id a --game option takes: Blood on the Clocktower,
played from scripts of characters (scriptforge.db.database), and the other games, each its whole
rule set at once (scriptforge.db.games). Kept apart from the games' loader so that a command that
only names a rule set does not load it."""

from dataclasses import dataclass


@dataclass(frozen=True)
class RuleSet:
    """A rule set the database holds. BotC is played from scripts of characters (the character
    database of scriptforge.db.database: sheets, night sheets and almanacs of a script); each other
    game is its whole rule set at once (data/games/<id>, loaded by scriptforge.db.games: one sheet, one night sheet)."""

    id: str
    from_scripts: bool


RULE_SETS = {r.id: r for r in (RuleSet("botc", True), RuleSet("salem", False), RuleSet("werewolf", False),
                               RuleSet("mafia", False))}
GAMES = tuple(RULE_SETS)
OTHER_GAMES = tuple(g for g, r in RULE_SETS.items() if not r.from_scripts)


#: The rule set played from scripts (the character database): the default --game.
SCRIPTED_GAME = next(g for g, r in RULE_SETS.items() if r.from_scripts)


def rule_set(game: str) -> RuleSet:
    """The rule set `game` names (a --game choice)."""
    return RULE_SETS[game]


def scripted(game: str) -> bool:
    """Whether `game` (a rule set, or a translation unit's game: also the shared sheet words) is
    the rule set played from scripts, whose texts are the character database's."""
    found = RULE_SETS.get(game)
    return found is not None and found.from_scripts


#: The l10n commands' --game choice that takes every rule set at once.
ALL = "all"


def selection(choice: str) -> tuple[bool, tuple[str, ...]]:
    """What an l10n --game choice (a rule set or ALL) takes: whether the scripted rule set's texts
    (the character database), and which other games."""
    if choice == ALL:
        return True, OTHER_GAMES
    return (True, ()) if scripted(choice) else (False, (rule_set(choice).id,))
