"""A game's bag: drawing a legal one, and checking one chosen by hand.

A bag here is the characters in play, one per player (the Drunk counts as the Outsider it is; the
Townsfolk token that stands in for it is the storyteller's business), and a setup character that
puts no token of its own team in the bag beside them (Lil' Monsta: the Demon seats are 0). It is
legal for a player count when its setup characters and its team counts are one of the bags the
setup table lists for that count (``rules.setup.SetupRow.bags``): the setup characters that change
no count are drawn like any other character.
"""

from collections.abc import Sequence
from random import Random

from scriptforge.model.records import Character
from scriptforge.rules.setup import COUNTS, Bag, SetupRow

#: The team of each count of a Bag (rules.setup.COUNTS).
COUNT_TEAMS = dict(zip(COUNTS, ("townsfolk", "outsider", "minion", "demon")))


def _shaping(row: SetupRow) -> set[str]:
    """The setup characters whose presence changes the counts (in some listed bag)."""
    return {char_id for bag in row.bags for char_id in bag.in_play}


def draw_bag(row: SetupRow, characters: Sequence[Character], rng: Random) -> list[str] | None:
    """A legal bag for `row`'s player count drawn with `rng` (ids in `characters`' order), or None
    where the script can fill none: one of the listed bags at random, then each team's other
    seats from the team's characters that shape no count."""
    shaping = _shaping(row)
    bags = list(row.bags)
    rng.shuffle(bags)
    for bag in bags:
        chosen = set(bag.in_play)
        for key, count in zip(COUNTS, bag.counts):
            team = COUNT_TEAMS[key]
            have = [ch.id for ch in characters if ch.team == team and ch.id in chosen]
            pool = [ch.id for ch in characters if ch.team == team and ch.id not in shaping]
            need = max(0, count - len(have))  # more than the count: a setup character without a seat
            if need > len(pool):
                break
            chosen.update(rng.sample(pool, need))
        else:
            return [ch.id for ch in characters if ch.id in chosen]
    return None


def bag_problem(row: SetupRow, characters: Sequence[Character], ids: Sequence[str]) -> str | None:
    """Why the bag `ids` is not legal for `row`'s player count, or None where it is."""
    by_id = {ch.id: ch for ch in characters}
    seats = [by_id[i] for i in ids if i in by_id and by_id[i].team in COUNT_TEAMS.values()]
    counts = tuple(sum(1 for ch in seats if ch.team == COUNT_TEAMS[key]) for key in COUNTS)
    in_play = tuple(sorted(ch.id for ch in seats if ch.id in _shaping(row)))
    unseated = tuple(sum(1 for ch in seats if ch.id in in_play and ch.team == COUNT_TEAMS[key]) for key in COUNTS)

    def fits(bag: Bag) -> bool:
        return tuple(sorted(bag.in_play)) == in_play and all(
            have == count or count < have <= count + extra for have, count, extra in zip(counts, bag.counts, unseated))

    if any(fits(bag) for bag in row.bags):
        return None
    said = ", ".join(f"{n} {key}" for key, n in zip(COUNTS, counts))
    return (f"{said}{' with ' + ', '.join(in_play) if in_play else ''} is not a legal bag for {row.players} "
            f"players ('scriptforge setup --players {row.players} --bags' lists them)")
