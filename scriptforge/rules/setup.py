"""Setup counts per player count, from every legal bag the script allows.

A bag is: the script's setup characters in play, each with one of its choices, and the resulting
Townsfolk / Outsider / Minion / Demon counts (Demon tokens in the bag). The rules
(docs/setup-rules.md says them for players):

- one Demon from the script is in play, unless an in-play effect takes the Demon seat away
  ("No Demon": that seat is a Townsfolk) or there are no evil characters at all;
- Minions are distinct characters of the script, so setup Minions are in play when the script
  has too few other Minions; at most as many setup Minions as there are Minion seats;
- any of the script's Townsfolk and Outsider setup characters can be in play, each on a seat of
  its own team (a Hermit is one of the Outsiders; a Balloonist needs a Townsfolk seat left);
- Fabled and Loric on the script are in play;
- count changes add up; a removal with nothing left to remove has no effect; "-1 or +1" offers
  only its two ends; "+1 Townsfolk" is one Outsider fewer; an added character ("+the Damsel") is
  in play on a seat of its team, taken from the Townsfolk when no seat of that team is there;
- Townsfolk are the rest of the players;
- a bag is legal only if the script has enough distinct characters of each team for it.

Only the structured effects (model.SetupEffect) drive this; no character is named here. The
enumeration works on kinds: characters whose effects change no count (the Drunk, the Marionette,
the Village Idiot...) count as plain characters of their team, and characters with equal effects
share one kind, so the work grows with the distinct effects on the script, not with its subsets.
"""

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations, product
from typing import TYPE_CHECKING, Any

from scriptforge.model import PLAYER_TEAMS, Character, SetupEffect

if TYPE_CHECKING:
    from scriptforge.database import Database

PLAYER_COUNTS = tuple(range(5, 16))
_MAX_SETUP_MINIONS = 4  # Minion seats at 15 players with one extra Minion
COUNTS = ("townsfolk", "outsiders", "minions", "demons")
_IN_PLAY_TEAMS = (*PLAYER_TEAMS, "fabled", "loric")

Counts = tuple[int, int, int, int]  # townsfolk, outsiders, minions, demons


@dataclass(frozen=True)
class Bag:
    """One bag: the setup characters in play that shape it (those that change no count are left
    out), and the counts."""

    in_play: tuple[str, ...]
    counts: Counts

    def as_dict(self) -> dict[str, Any]:
        return {"in_play": list(self.in_play), **dict(zip(COUNTS, self.counts))}


@dataclass(frozen=True)
class Shortfall:
    """A bag the seats allow but the script cannot fill: `team` needs `needed` characters."""

    bag: Bag
    team: str
    needed: int
    available: int


@dataclass(frozen=True)
class SetupRow:
    players: int
    base: dict[str, int]  # townsfolk, outsiders, minions, demons
    ranges: dict[str, tuple[int, int]]  # min and max over `bags` (demons: Demon tokens in the bag)
    bags: tuple[Bag, ...]  # sorted; the bags the script can fill (or, if none, those the seats allow)
    feasible: bool  # False: no bag can be filled from the script's characters
    shortfalls: tuple[Shortfall, ...] = ()
    modifiers: tuple[dict[str, Any], ...] = ()
    unmodelled: tuple[tuple[str, str], ...] = ()  # (character id, clause) the counts leave out

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"players": self.players, "base": dict(self.base)}
        for key in COUNTS:
            lo, hi = self.ranges[key]
            out[key] = {"min": lo, "max": hi}
        out["modifiers"] = [dict(m) for m in self.modifiers]
        out["bags"] = [b.as_dict() for b in self.bags]
        if not self.feasible:
            out["feasible"] = False
        if self.unmodelled:
            out["unmodelled"] = [{"character": c, "clause": t} for c, t in self.unmodelled]
        return out


# -- what the script offers ---------------------------------------------------------------------


# Count changes: (Outsiders added, Outsiders removed, Minions, Demon seat, Demon tokens)
_Deltas = frozenset[tuple[int, int, int, int, int]]
_ZERO: _Deltas = frozenset({(0, 0, 0, 0, 0)})


@dataclass(frozen=True)
class _Kind:
    """Characters of one team with equal setup effects."""

    team: str
    effect: SetupEffect
    members: tuple[str, ...]
    add_teams: tuple[str, ...]  # the team of each added character ("+the Damsel")
    missing_adds: bool  # an added character is not on the script
    deltas: _Deltas  # every count change one of them can make


@dataclass
class _Pool:
    kinds: list[_Kind] = field(default_factory=list)
    plain: dict[str, int] = field(default_factory=lambda: dict.fromkeys(PLAYER_TEAMS, 0))
    neutral_tokens: dict[str, list[str]] = field(default_factory=dict)  # team -> bag tokens of its plain ones
    copies: int = 0  # extra copies of plain Townsfolk ("+0 to +2 Village Idiots")
    duplicate_good: bool = False


def _team(char_id: str, chars: dict[str, Character], db: "Database") -> str | None:
    ch = chars.get(char_id) or db.characters.get(char_id)
    return ch.team if ch else None


def _shapes(effect: SetupEffect, team: str, add_teams: tuple[str, ...]) -> bool:
    """Whether the effect changes a count (else the character is a plain one of its team)."""
    return (any(effect.choices(k) != (0,) for k in effect.counts) or effect.outsiders_any is not None
            or effect.no_evil or effect.majority or not effect.demon_token
            or any(t != team for t in add_teams))


def _pool(characters: Sequence[Character], db: "Database") -> _Pool:
    chars = {c.id: c for c in characters}
    pool = _Pool()
    by_key: dict[tuple[str, str], list[Character]] = {}
    for ch in chars.values():
        if ch.team not in _IN_PLAY_TEAMS:
            continue
        effect = ch.setup
        add_teams = tuple(t for t in (_team(a, chars, db) for a in effect.adds) if t) if effect else ()
        if effect is None or not _shapes(effect, ch.team, add_teams):
            if ch.team in PLAYER_TEAMS:
                pool.plain[ch.team] += 1
            if effect is not None:
                if effect.bag_token:
                    pool.neutral_tokens.setdefault(ch.team, []).append(effect.bag_token)
                if effect.extra_copies and ch.team == "townsfolk":
                    pool.copies = max(pool.copies, effect.extra_copies[1])
                if effect.duplicate_good and ch.team in ("fabled", "loric"):
                    pool.duplicate_good = True
            continue
        by_key.setdefault((ch.team, repr(sorted(effect.as_dict().items()))), []).append(ch)
    for (team, _), members in by_key.items():
        effect = members[0].setup
        assert effect is not None
        add_teams = tuple(t for t in (_team(a, chars, db) for a in effect.adds) if t)
        missing = any(a not in chars for a in effect.adds)
        pool.kinds.append(_Kind(team, effect, tuple(m.id for m in members), add_teams, missing,
                                _effect_deltas(team, effect, add_teams)))
    return pool


# -- selections of setup characters (independent of the player count) ----------------------------


@dataclass(frozen=True)
class _Choice:
    """One in-play selection of kinds with every count change it can make."""

    ids: tuple[tuple[str, ...], ...]  # the in-play ids, one tuple per way of picking the kinds' members
    demon: str  # "plain", "setup" (a setup Demon is chosen) or "none"
    setup_minions: int
    tf_seats: int  # Townsfolk seats its characters take (setup Townsfolk)
    os_seats: int  # Outsider seats its characters take (setup Outsiders, added Outsiders)
    tf_chosen: int
    os_chosen: int
    no_evil: bool
    majority: bool
    outsiders_any: int | None
    deltas: _Deltas


def _effect_deltas(team: str, effect: SetupEffect, add_teams: tuple[str, ...]) -> _Deltas:
    out: set[tuple[int, int, int, int, int]] = set()
    added_out = [t for t in add_teams if t != team and t in ("outsider", "minion", "demon")]
    extra_choices = list(product(*[(0, 1)] * len(added_out)))
    for o, m, d in product(effect.choices("outsiders"), effect.choices("minions"), effect.choices("demons")):
        tf = effect.choices("townsfolk")
        for t, extra in product(tf, extra_choices):
            adds = dict.fromkeys(("outsider", "minion", "demon"), 0)
            for added, e in zip(added_out, extra):
                adds[added] += e
            outs = o - t + adds["outsider"]  # a Townsfolk change is the same number of Outsiders fewer
            seat = d if team != "demon" else 0  # a Demon's own change is to its tokens, not the seat
            tokens = (d if team == "demon" else 0) - (0 if effect.demon_token else 1)
            out.add((max(outs, 0), min(outs, 0), m + adds["minion"], seat + adds["demon"], tokens))
    return frozenset(out)


def _sumset(a: _Deltas, b: _Deltas) -> _Deltas:
    return frozenset((p[0] + q[0], p[1] + q[1], p[2] + q[2], p[3] + q[3], p[4] + q[4]) for p in a for q in b)


@dataclass(frozen=True)
class _Part:
    """Some kinds in play together, with what they add up to."""

    chosen: tuple[tuple[_Kind, int], ...]
    deltas: _Deltas


def _parts(kinds: list[_Kind], limit: int) -> list[_Part]:
    """Every selection of `kinds` (each 0..its members, at most `limit` characters in all)."""
    out = [_Part((), _ZERO)]
    for kind in kinds:
        grown = []
        for part in out:
            total, sums = sum(n for _, n in part.chosen), part.deltas
            for n in range(1, len(kind.members) + 1):
                if total + n > limit:
                    break
                sums = _sumset(sums, kind.deltas)
                grown.append(_Part((*part.chosen, (kind, n)), sums))
        out += grown
    return out


def _choices(pool: _Pool) -> list[_Choice]:
    usable = [k for k in pool.kinds if not k.missing_adds]  # "+the Damsel" needs the Damsel on the script
    storyteller = [k for k in pool.kinds if k.team in ("fabled", "loric")]  # always in play
    if any(k.missing_adds for k in storyteller):
        return []
    forced = _Part(tuple((k, len(k.members)) for k in storyteller), _ZERO)
    for kind in storyteller:
        for _ in kind.members:
            forced = _Part(forced.chosen, _sumset(forced.deltas, kind.deltas))
    good = _parts([k for k in usable if k.team in ("townsfolk", "outsider")], 99)
    minions = _parts([k for k in usable if k.team == "minion"], _MAX_SETUP_MINIONS)
    demons = _parts([k for k in usable if k.team == "demon"], 1)
    out = []
    for demon, good_part, minion_part in product(demons, good, minions):
        for plain_demon in ((True, False) if not demon.chosen and pool.plain["demon"] else (False,)):
            chosen = (*forced.chosen, *good_part.chosen, *minion_part.chosen, *demon.chosen)
            sums = forced.deltas
            for part in (good_part, minion_part, demon):
                if part.deltas is not _ZERO:
                    sums = _sumset(sums, part.deltas)
            tf_chosen = sum(n for k, n in chosen if k.team == "townsfolk")
            os_chosen = sum(n for k, n in chosen if k.team == "outsider")
            added_os = sum(n * sum(1 for t in k.add_teams if t == "outsider") for k, n in chosen if k.team != "outsider")
            added_tf = sum(n * sum(1 for t in k.add_teams if t == "townsfolk") for k, n in chosen if k.team != "townsfolk")
            anys = [k.effect.outsiders_any for k, _ in chosen if k.effect.outsiders_any is not None]
            groups = [combinations(k.members, n) for k, n in chosen]
            ids = tuple(tuple(sorted(i for group in picked for i in group)) for picked in product(*groups))
            out.append(_Choice(
                ids=ids, demon="plain" if plain_demon else "setup" if demon.chosen else "none",
                setup_minions=sum(n for _, n in minion_part.chosen), tf_seats=tf_chosen + added_tf,
                os_seats=os_chosen + added_os, tf_chosen=tf_chosen, os_chosen=os_chosen,
                no_evil=any(k.effect.no_evil for k, _ in chosen), majority=any(k.effect.majority for k, _ in chosen),
                outsiders_any=max(anys) if anys else None, deltas=sums))
    return out


# -- the bags at one player count ----------------------------------------------------------------


def _counts(choice: _Choice, players: int, base: dict[str, int]) -> Iterator[Counts]:
    """Every (townsfolk, outsiders, minions, demons) the choice gives that fits the seats."""
    for up, down, d_min, d_seat, d_tokens in choice.deltas:
        if choice.no_evil:
            if choice.demon != "none" or choice.setup_minions:
                continue
            evil: list[tuple[int, int]] = [(0, 0)]  # minions, demons
        elif choice.majority:
            if choice.setup_minions or choice.demon != "setup":
                continue
            evil = [(0, legion) for legion in range(players // 2 + 1, players)]
        else:
            seat = base["demons"] + d_seat
            if (seat <= 0) != (choice.demon == "none"):
                continue
            minions = base["minions"] + d_min
            if minions < choice.setup_minions:
                continue
            evil = [(minions, max(0, seat + d_tokens) if seat > 0 else 0)]
        for minions, demons in evil:
            good = players - minions - demons
            if choice.outsiders_any is not None:
                low, high = max(choice.outsiders_any, choice.os_seats), good - choice.tf_seats
            else:
                raised = base["outsiders"] + up
                if raised < choice.os_seats:
                    continue
                low = high = max(choice.os_seats, raised + down)
                if choice.majority:  # Legion takes any of the good seats too
                    low, high = choice.os_seats, min(high, good - choice.tf_seats)
            for outsiders in range(low, high + 1):
                townsfolk = good - outsiders
                if townsfolk >= choice.tf_seats:
                    yield townsfolk, outsiders, minions, demons


def _shortage(choice: _Choice, counts: Counts, pool: _Pool) -> tuple[str, int, int] | None:
    """The first team the script cannot fill this bag's seats of: (team, needed, available)."""
    townsfolk, outsiders, minions, demons = counts
    plain_minions = minions - choice.setup_minions
    if plain_minions > pool.plain["minion"]:
        return "minion", minions, pool.plain["minion"] + choice.setup_minions
    tf_need, os_need = townsfolk - choice.tf_chosen, outsiders - choice.os_chosen
    tf_have, os_have = pool.plain["townsfolk"] + pool.copies, pool.plain["outsider"]
    if pool.duplicate_good:
        tf_have = tf_need if pool.plain["townsfolk"] or not tf_need else 0
        os_have = os_need if pool.plain["outsider"] or not os_need else 0
    # a team whose every plain character is in play has its bag-token characters in play too
    tokens: list[str] = []
    if os_need == pool.plain["outsider"]:
        tokens += pool.neutral_tokens.get("outsider", [])
    if plain_minions == pool.plain["minion"]:
        tokens += pool.neutral_tokens.get("minion", [])
    if tf_need == pool.plain["townsfolk"]:
        tokens += pool.neutral_tokens.get("townsfolk", [])
    tf_need += tokens.count("townsfolk")
    os_need += tokens.count("outsider")
    if tf_need > tf_have:
        return "townsfolk", tf_need + choice.tf_chosen, tf_have + choice.tf_chosen
    if os_need > os_have:
        return "outsider", os_need + choice.os_chosen, os_have + choice.os_chosen
    if tf_need + os_need + tokens.count("good") > tf_have + os_have:
        return "townsfolk", tf_need + choice.tf_chosen + tokens.count("good"), tf_have + choice.tf_chosen
    return None


def _modifiers(characters: Sequence[Character]) -> tuple[dict[str, Any], ...]:
    return tuple({"character": c.id, "team": c.team, "effect": c.setup.as_dict()} for c in characters
                 if c.setup is not None and c.team in _IN_PLAY_TEAMS)


def _sorted_bags(found: dict[tuple[str, ...], set[Counts]]) -> list[Bag]:
    return [Bag(ids, counts) for ids in sorted(found, key=lambda i: (len(i), i)) for counts in sorted(found[ids])]


def _row(players: int, base: dict[str, int], choices: list[_Choice], pool: _Pool,
         characters: Sequence[Character]) -> SetupRow:
    fillable: dict[tuple[str, ...], set[Counts]] = {}
    unfillable: dict[tuple[str, ...], set[Counts]] = {}
    why: dict[tuple[tuple[str, ...], Counts], tuple[str, int, int]] = {}
    for choice in choices:
        for counts in set(_counts(choice, players, base)):
            short = _shortage(choice, counts, pool)
            for ids in choice.ids:
                if short is None:
                    fillable.setdefault(ids, set()).add(counts)
                else:
                    unfillable.setdefault(ids, set()).add(counts)
                    why[ids, counts] = short
    shown = _sorted_bags(fillable or unfillable)
    if not shown:  # nothing fits the seats either (a script with no Demon...): the base bag
        shown = [Bag((), (base["townsfolk"], base["outsiders"], base["minions"], base["demons"]))]
    distinct = {b.counts for b in shown}
    ranges = {k: (min(c[i] for c in distinct), max(c[i] for c in distinct)) for i, k in enumerate(COUNTS)}
    unmodelled = tuple((c.id, clause) for c in characters if c.setup and c.team in _IN_PLAY_TEAMS
                       for clause in c.setup.unmodelled)
    shortfalls = tuple(Shortfall(bag, *why[bag.in_play, bag.counts]) for bag in _sorted_bags(unfillable))
    return SetupRow(players, dict(base), ranges, tuple(shown), bool(fillable), shortfalls,
                    _modifiers(characters), unmodelled)


def setup_table(characters: Sequence[Character], db: "Database", players: int | None = None) -> list[SetupRow]:
    """The setup table of a script's characters: one SetupRow per player count 5–15 (or just
    `players`), each with its legal bags. (Travellers are never in the bag.)"""
    pool = _pool(characters, db)
    choices = _choices(pool)
    counts = PLAYER_COUNTS if players is None else (players,)
    return [_row(n, db.base_setup[n], choices, pool, characters) for n in counts]

