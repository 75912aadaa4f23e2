"""Sheet order: by team, official characters in official order, homebrew by the published rule.

The rule (FACTS.md §6, the 2024 "SAO" update): within a team, a character goes in the first group
whose opening words its English ability starts with (whole words, longest prefix wins); inside a
group, shorter abilities first. Official characters keep the database order (which is the official
order); a homebrew character (a script's own object, one from a ``--homebrew`` folder, or one the
database ships, such as the Pilgrim) is placed after the last official character of its team whose
rule key is not greater than its own, so official characters never move.
"""

from bisect import bisect_right
import re
from typing import TYPE_CHECKING

from scriptforge.model.languages import official
from scriptforge.model.records import TEAMS, Character

if TYPE_CHECKING:
    from scriptforge.scripts.script import Script

PREFIXES = (
    "You start knowing", "At night", "Each dusk*", "Each night", "Each night*", "Each day",
    "Once per day",  # observed in the official order (Gangster) before the "Once per game" groups
    "Once per game, at night", "Once per game, at night*", "Once per game, during the day", "Once per game",
    "On your 1st night", "On night", "On your 1st day", "On day", "You think", "You are", "You have",
    "You do not know", "You might", "You", "When you die", "When you learn that you died", "When",
    "If you die", "If you died", 'If you are "mad"', "If you", "If the Demon dies", "If the Demon kills",
    "If the Demon", "If both", "If there are 5 or more players alive", "If", "All players", "All",
    "The 1st time", "The", "Good", "Evil", "Players", "Minions",
)
_QUOTES = str.maketrans({"“": '"', "”": '"', "‘": "'", "’": "'"})


def _ability(ch: Character) -> str:
    texts, _ = ch.texts_for(official())  # the rule is stated on the official (English) wording
    return texts.ability.translate(_QUOTES) if texts else ""


def prefix_group(ability: str) -> int:
    """Index of the group an ability belongs to; len(PREFIXES) when none matches."""
    text = ability.translate(_QUOTES)
    best, best_len = len(PREFIXES), -1
    for index, prefix in enumerate(PREFIXES):
        if text.startswith(prefix) and len(prefix) > best_len:
            rest = text[len(prefix):]
            if prefix.endswith("*") or not rest or not re.match(r"[\w*]", rest):
                best, best_len = index, len(prefix)
    return best


def rule_key(ch: Character) -> tuple[int, int]:
    ability = _ability(ch)
    return prefix_group(ability), len(ability)


def _team_index(ch: Character) -> int:
    return TEAMS.index(ch.team) if ch.team in TEAMS else len(TEAMS)


def sheet_order(script: "Script", keep_order: bool = False) -> list[Character]:
    """The script's characters in sheet order (or the author's order with keep_order).

    O(n log n): each rule key is computed once, and a homebrew character's place (after the last
    official character of its team whose key is not greater) is found by bisection over the
    official characters sorted by key, with the running maximum of their positions."""
    chars = list(script.characters)
    if keep_order:
        return chars
    official_index = {cid: i for i, cid in enumerate(script.database_order)}
    keys = {c.id: rule_key(c) for c in chars}
    by_team: dict[int, list[Character]] = {}
    for c in chars:
        by_team.setdefault(_team_index(c), []).append(c)
    out: list[Character] = []
    for team_index in range(len(TEAMS) + 1):
        members = by_team.get(team_index, [])
        placed = sorted((c for c in members if c.id in official_index), key=lambda c: official_index[c.id])
        homebrew = sorted((c for c in members if c.id not in official_index), key=lambda c: keys[c.id])
        ranked = sorted(range(len(placed)), key=lambda i: keys[placed[i].id])
        sorted_keys = [keys[placed[i].id] for i in ranked]
        last_upto, best = [], -1  # last_upto[j]: the last position among the j+1 smallest keys
        for i in ranked:
            best = max(best, i)
            last_upto.append(best)
        after: dict[int, list[Character]] = {}
        for hb in homebrew:
            j = bisect_right(sorted_keys, keys[hb.id])
            after.setdefault(last_upto[j - 1] + 1 if j else 0, []).append(hb)
        out.extend(after.get(0, []))
        for i, c in enumerate(placed):
            out.append(c)
            out.extend(after.get(i + 1, []))
    return out
