"""What kind of script this is: the one rule for Teensyville (a script meant for fewer than
7 players), used by the analysis and by the printed layout alike."""

from collections.abc import Iterable, Mapping
from typing import Any

from scriptforge.model.records import PLAYER_TEAMS, Character

# The official script tool (FACTS.md 9) treats Teensyville as a script type of its own; the
# script format has no key for it, so a `_meta` boolean `teensyville` (unknown `_meta` keys pass
# the official schema) says it where the author wants to, and otherwise the size decides: a
# standard script has 25 player characters, Teensyville scripts in the corpus have 11 to 13.
MAX_TEENSYVILLE_PLAYER_CHARACTERS = 13


def is_teensyville(meta: Mapping[str, Any], characters: Iterable[Character]) -> bool:
    """True for a script meant for fewer than 7 players: `_meta.teensyville` where it is a boolean,
    else at most 13 Townsfolk, Outsiders, Minions and Demons on the script."""
    said = meta.get("teensyville")
    if isinstance(said, bool):
        return said
    players = sum(1 for ch in characters if ch.team in PLAYER_TEAMS)
    return 0 < players <= MAX_TEENSYVILLE_PLAYER_CHARACTERS
