"""The script's setup characters as the setup table counts them (scriptforge/rules/setup.py):
kinds, and their selections, independent of the player count.

Characters whose effects change no count (the Drunk, the Marionette, the Village Idiot...) count
as plain characters of their team, and characters with equal effects share one *kind*. A
*selection* says how many of each kind are in play. Past MAX_SELECTIONS selections (rules/setup.py)
the selections are merged further into *classes* (equal seats, flags and count change: a dynamic
programme over the kinds, its size bounded by the seats, not by the subsets), which still gives
the exact ranges and verdict per count but no per-character detail.
"""

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations, product
from math import comb, prod
from typing import TYPE_CHECKING, Any

from scriptforge.model.records import PLAYER_TEAMS, Character, SetupEffect

if TYPE_CHECKING:
    from scriptforge.db.database import Database

PLAYER_COUNTS = tuple(range(5, 16))
MAX_PLAYERS = PLAYER_COUNTS[-1]
_MAX_SETUP_MINIONS = 4  # Minion seats at 15 players with one extra Minion
MAX_CLASS_STATES = 60_000  # classes made by the dynamic programme; past it, provable bounds only
_IN_PLAY_TEAMS = (*PLAYER_TEAMS, "fabled", "loric")
_GOOD, _EVIL = ("townsfolk", "outsider"), ("minion", "demon")


# -- what the script offers ---------------------------------------------------------------------


# Count changes: (Outsiders added, Outsiders removed, Minions, Demon seat, Demon tokens)
_Delta = tuple[int, int, int, int, int]
_Deltas = frozenset[_Delta]
_ZERO: _Deltas = frozenset({(0, 0, 0, 0, 0)})


def _repeats(effect: SetupEffect | None, team: str) -> frozenset[str]:
    """The teams whose characters may repeat while this character is in play (its selection
    marks, FACTS.md 1.2; `duplicate_good` is the data's older spelling of `good-duplicate`)."""
    if effect is None:
        return frozenset()
    out: set[str] = set()
    marks = set(effect.selection)
    if effect.duplicate_good or "good-duplicate" in marks:
        out.update(_GOOD)
    if "evil-duplicate" in marks:
        out.update(_EVIL)
    if "bag-duplicate" in marks and effect.extra_copies is None and not effect.majority and team in PLAYER_TEAMS:
        out.add(team)  # a bracket that bounds the copies ("+0 to +2") or says how many (Legion) wins
    return frozenset(out)


def _demon_token(effect: SetupEffect, team: str) -> bool:
    """Whether the character's Demon token is in the bag (the data says so: Lil' Monsta's is not)."""
    return effect.demon_token


def _stand_in(effect: SetupEffect, team: str) -> str | None:
    """The token shown instead of the character's own: the data's (the Drunk: a Townsfolk), else
    for a `bag-disabled` character (never dealt) one of its own team."""
    return effect.bag_token or (team if "bag-disabled" in effect.selection else None)


@dataclass(frozen=True)
class _Kind:
    """Characters of one team with equal setup effects."""

    team: str
    effect: SetupEffect
    members: tuple[str, ...]
    add_teams: tuple[str, ...]  # the team of each added character ("+the Damsel")
    missing_adds: bool  # an added character is not on the script
    deltas: _Deltas  # every count change one of them can make
    repeats: frozenset[str]  # teams that may repeat while one of them is in play
    options: tuple[tuple[_Delta, tuple[tuple[str, int], ...]], ...]  # each change with its option


@dataclass
class _Pool:
    """The script's in-play characters as setup counts them: the kinds that shape a bag
    and, per team, how many plain characters it has."""

    kinds: list[_Kind] = field(default_factory=list)
    plain: dict[str, int] = field(default_factory=lambda: dict.fromkeys(PLAYER_TEAMS, 0))
    neutral_tokens: dict[str, list[str]] = field(default_factory=dict)  # team -> bag tokens of its plain ones
    copies: int = 0  # extra copies of plain Townsfolk ("+0 to +2 Village Idiots")
    repeats: frozenset[str] = frozenset()  # teams that may always repeat (a Loric's mark, a plain bag-duplicate)


def _team(char_id: str, chars: dict[str, Character], db: "Database") -> str | None:
    ch = chars.get(char_id) or db.characters.get(char_id)
    return ch.team if ch else None


def _shapes(effect: SetupEffect, team: str, add_teams: tuple[str, ...]) -> bool:
    """Whether the character is a kind of its own (else a plain one of its team): it changes a
    count, or lets other characters repeat only while it is in play."""
    return (any(effect.choices(k) != (0,) for k in effect.counts) or effect.outsiders_any is not None
            or effect.no_evil or effect.majority or not _demon_token(effect, team)
            or any(t != team for t in add_teams)
            or (team in PLAYER_TEAMS and bool(_repeats(effect, team) - {team})))


def _pool(characters: Sequence[Character], db: "Database") -> _Pool:
    chars = {c.id: c for c in characters}
    pool = _Pool()
    repeats: set[str] = set()
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
                token = _stand_in(effect, ch.team)
                if token:
                    pool.neutral_tokens.setdefault(ch.team, []).append(token)
                if effect.extra_copies and ch.team == "townsfolk":
                    pool.copies = max(pool.copies, effect.extra_copies[1])
                repeats |= _repeats(effect, ch.team)  # Fabled and Loric are in play; plain ones fill their team
            continue
        by_key.setdefault((ch.team, repr(sorted(effect.as_dict().items()))), []).append(ch)
    pool.repeats = frozenset(repeats)
    for (team, _), members in by_key.items():
        effect = members[0].setup
        assert effect is not None
        add_teams = tuple(t for t in (_team(a, chars, db) for a in effect.adds) if t)
        missing = any(a not in chars for a in effect.adds)
        options = _effect_options(team, effect, add_teams)
        pool.kinds.append(_Kind(team, effect, tuple(m.id for m in members), add_teams, missing,
                                frozenset(d for d, _ in options), _repeats(effect, team), options))
    return pool


# -- selections of setup characters (independent of the player count) ----------------------------


@dataclass(frozen=True)
class _Choice:
    """One in-play selection of kinds (or, past the limit, a class of them) with every count
    change it can make."""

    chosen: tuple[tuple[_Kind, int], ...]  # () for a class
    demon: str  # "plain", "setup" (a setup Demon is chosen) or "none"
    setup_minions: int
    tf_seats: int  # Townsfolk seats its characters take (setup Townsfolk)
    os_seats: int  # Outsider seats its characters take (setup Outsiders, added Outsiders)
    tf_chosen: int
    os_chosen: int
    no_evil: bool
    majority: bool
    outsiders_any: int | None
    repeats: frozenset[str]
    deltas: _Deltas
    size: int  # how many setup characters it puts in play (0 for a class)

    def ids(self) -> Iterator[tuple[str, ...]]:
        """The in-play ids, one tuple per way of picking the kinds' members."""
        groups = [combinations(k.members, n) for k, n in self.chosen]
        for picked in product(*groups):
            yield tuple(sorted(i for group in picked for i in group))

    def ways(self) -> int:
        return prod(comb(len(k.members), n) for k, n in self.chosen)


def _effect_options(team: str, effect: SetupEffect, add_teams: tuple[str, ...]) \
        -> tuple[tuple[_Delta, tuple[tuple[str, int], ...]], ...]:
    """Every count change the effect can make, each with the option that makes it ({key: delta})."""
    out: dict[_Delta, tuple[tuple[str, int], ...]] = {}
    added_out = [t for t in add_teams if t != team and t in ("outsider", "minion", "demon")]
    extra_choices = list(product(*[(0, 1)] * len(added_out)))
    token = _demon_token(effect, team)
    for o, m, d in product(effect.choices("outsiders"), effect.choices("minions"), effect.choices("demons")):
        for t, extra in product(effect.choices("townsfolk"), extra_choices):
            adds = dict.fromkeys(("outsider", "minion", "demon"), 0)
            for added, e in zip(added_out, extra):
                adds[added] += e
            outs = o - t + adds["outsider"]  # a Townsfolk change is the same number of Outsiders fewer
            seat = d if team != "demon" else 0  # a Demon's own change is to its tokens, not the seat
            tokens = (d if team == "demon" else 0) - (0 if token else 1)
            delta = (max(outs, 0), min(outs, 0), m + adds["minion"], seat + adds["demon"], tokens)
            option = (("outsiders", outs), *((k, v) for k, v in (("minions", delta[2]), ("demons", seat or d)) if v))
            out.setdefault(delta, option)
    return tuple(out.items())


@lru_cache(maxsize=4096)
def _sumset(a: _Deltas, b: _Deltas) -> _Deltas:
    return frozenset((p[0] + q[0], p[1] + q[1], p[2] + q[2], p[3] + q[3], p[4] + q[4]) for p in a for q in b)


def _times(kind: _Kind, n: int, start: _Deltas = _ZERO) -> _Deltas:
    sums = start
    for _ in range(n):
        sums = _sumset(sums, kind.deltas)
    return sums


def _groups(pool: _Pool) -> tuple[list[tuple[_Kind, int]], list[_Kind], list[_Kind], list[_Kind]] | None:
    """(the Storyteller's kinds, always in play), good, Minion and Demon kinds; None when a
    Storyteller character adds one the script does not have (no bag at all)."""
    usable = [k for k in pool.kinds if not k.missing_adds]  # "+the Damsel" needs the Damsel on the script
    storyteller = [k for k in pool.kinds if k.team in ("fabled", "loric")]
    if any(k.missing_adds for k in storyteller):
        return None
    return ([(k, len(k.members)) for k in storyteller], [k for k in usable if k.team in _GOOD],
            [k for k in usable if k.team == "minion"], [k for k in usable if k.team == "demon"])


def _selection_count(pool: _Pool) -> int:
    """How many selections `_choices` would examine (an upper bound, without making them)."""
    groups = _groups(pool)
    if groups is None:
        return 0
    _, good, minions, demons = groups
    ways = [1] + [0] * _MAX_SETUP_MINIONS  # selections of setup Minions by their number
    for kind in minions:
        ways = [sum(ways[t - n] for n in range(0, min(len(kind.members), t) + 1)) for t in range(len(ways))]
    good_count = prod(min(len(k.members), MAX_PLAYERS) + 1 for k in good)
    return good_count * sum(ways) * (1 + sum(len(k.members) for k in demons)) * 2


def _parts(kinds: list[_Kind], limit: int) -> Iterator[tuple[tuple[_Kind, int], ...]]:
    """Every selection of `kinds` (each 0..its members, at most `limit` characters in all)."""
    def grow(i: int, left: int) -> Iterator[tuple[tuple[_Kind, int], ...]]:
        if i == len(kinds):
            yield ()
            return
        for n in range(0, min(len(kinds[i].members), left) + 1):
            for rest in grow(i + 1, left - n):
                yield ((kinds[i], n), *rest) if n else rest
    return grow(0, limit)


def _make(chosen: tuple[tuple[_Kind, int], ...], demon: str, setup_minions: int) -> _Choice:
    sums = _ZERO
    tf_chosen = os_chosen = added_tf = added_os = 0
    no_evil = majority = False
    anys: int | None = None
    repeats: frozenset[str] = frozenset()
    for kind, n in chosen:
        sums = _times(kind, n, sums)
        team, effect = kind.team, kind.effect
        if team == "townsfolk":
            tf_chosen += n
        elif team == "outsider":
            os_chosen += n
        if kind.add_teams:
            if team != "outsider":
                added_os += n * kind.add_teams.count("outsider")
            if team != "townsfolk":
                added_tf += n * kind.add_teams.count("townsfolk")
        no_evil = no_evil or effect.no_evil
        majority = majority or effect.majority
        if effect.outsiders_any is not None and (anys is None or effect.outsiders_any > anys):
            anys = effect.outsiders_any
        if kind.repeats:
            repeats |= kind.repeats
    return _Choice(chosen, demon, setup_minions, tf_chosen + added_tf, os_chosen + added_os, tf_chosen, os_chosen,
                   no_evil, majority, anys, repeats, sums, sum(n for _, n in chosen))


def _choices(pool: _Pool) -> Iterator[_Choice]:
    """Every selection, one by one (the caller checks _selection_count first)."""
    groups = _groups(pool)
    if groups is None:
        return
    forced, good, minions, demons = groups
    for demon, good_part, minion_part in product(list(_parts(demons, 1)), list(_parts(good, MAX_PLAYERS)),
                                                 list(_parts(minions, _MAX_SETUP_MINIONS))):
        chosen = (*forced, *good_part, *minion_part, *demon)
        if sum(n for _, n in good_part) > MAX_PLAYERS:
            continue
        setup_minions = sum(n for _, n in minion_part)
        for plain_demon in ((True, False) if not demon and pool.plain["demon"] else (False,)):
            yield _make(chosen, "plain" if plain_demon else "setup" if demon else "none", setup_minions)


def _classes(pool: _Pool) -> list[_Choice] | None:
    """The selections merged into classes: equal seats, flags and count change (one change per
    class). A dynamic programme over the kinds; the number of classes is bounded by the seats."""
    groups = _groups(pool)
    if groups is None:
        return []
    forced, good, minions, demons = groups
    # state: (tf_seats, os_seats, tf_chosen, os_chosen, setup_minions, setup_demons, no_evil, majority,
    #         outsiders_any or -1, repeats, delta)
    State = tuple[int, int, int, int, int, int, bool, bool, int, frozenset[str], _Delta]
    start = _make(tuple(forced), "none", 0)
    states: set[State] = {(start.tf_seats, start.os_seats, start.tf_chosen, start.os_chosen, 0, 0, start.no_evil,
                           start.majority, -1 if start.outsiders_any is None else start.outsiders_any,
                           start.repeats, d) for d in start.deltas}

    tokens = sum(len(t) for t in pool.neutral_tokens.values())
    # a team with more plain characters than any bag can need: how many of its setup characters
    # are chosen never matters, so classes need not tell them apart
    loose_tf = pool.plain["townsfolk"] + pool.copies > MAX_PLAYERS + tokens
    loose_os = pool.plain["outsider"] > MAX_PLAYERS + tokens

    # A class keeps its Outsider change as (u, s): u = the Outsiders added, at most MAX_PLAYERS
    # (it only decides whether the base plus u reaches the Outsider seats), s = the net change,
    # clipped where no later kind can bring it back into 0..MAX_PLAYERS (every clipped value gives
    # the same counts), so the number of classes is bounded by the seats, not by the kinds.
    steps = [*good, *minions, *demons]
    rise = [max(0, *(e[0] + e[1] for e in k.deltas)) * len(k.members) for k in steps]
    fall = [min(0, *(e[0] + e[1] for e in k.deltas)) * len(k.members) for k in steps]
    rise_from = [sum(rise[i:]) for i in range(len(steps) + 1)]
    fall_from = [sum(fall[i:]) for i in range(len(steps) + 1)]
    majority_from = [any(k.effect.majority for k in steps[i:]) for i in range(len(steps) + 1)]
    seats = [len(k.members) * (int(k.team == "outsider") + (k.add_teams.count("outsider") if k.team != "outsider" else 0))
             for k in steps]
    seats_from = [sum(seats[i:]) for i in range(len(steps) + 1)]

    def normal(state: State, step: int) -> State | None:
        tfs, oss, tfc, osc, sm, sd, ne, mj, oa, rp, d = state
        if tfs + oss > MAX_PLAYERS or sm > _MAX_SETUP_MINIONS or sd > 1 or (ne and (sm or sd)) or (mj and sm):
            return None  # no player count has the seats for it (or no bag at all)
        if ne:
            d = (0, 0, 0, 0, 0)  # no evil characters: every count change is moot
        elif oa >= 0:
            d = (0, 0, d[2], d[3], d[4])  # any number of Outsiders: their changes are moot
        else:
            # the final Outsiders leave the Townsfolk seats (tfs, never fewer) free
            room = MAX_PLAYERS - tfs
            if d[1] + fall_from[step] > room and not mj and not majority_from[step]:
                return None
            low, high = -rise_from[step] - 2, room - fall_from[step]
            # u only decides whether the base plus u reaches the final Outsider seats
            d = (min(d[0], max(min(room, oss + seats_from[step]), 0)), min(max(d[1], low), high), d[2], d[3], d[4])
        return (tfs, oss, 0 if loose_tf else tfc, 0 if loose_os else osc, sm, sd, ne, mj, oa, rp, d)

    def grow(layer: set[State], kind: _Kind, step: int) -> set[State]:
        tf_add = int(kind.team == "townsfolk") + (kind.add_teams.count("townsfolk") if kind.team != "townsfolk" else 0)
        os_add = int(kind.team == "outsider") + (kind.add_teams.count("outsider") if kind.team != "outsider" else 0)
        tfc_add, osc_add = int(kind.team == "townsfolk"), int(kind.team == "outsider")
        sm_add, sd_add = int(kind.team == "minion"), int(kind.team == "demon")
        effect = kind.effect
        changes = {(e[0], e[0] + e[1], e[2], e[3], e[4]) for e in kind.deltas}
        out: set[State] = set()
        for tfs, oss, tfc, osc, sm, sd, ne, mj, oa, rp, d in layer:
            oa2 = max(oa, effect.outsiders_any) if effect.outsiders_any is not None else oa
            for e in changes:
                state = normal((tfs + tf_add, oss + os_add, tfc + tfc_add, osc + osc_add, sm + sm_add, sd + sd_add,
                                ne or effect.no_evil, mj or effect.majority, oa2, rp | kind.repeats,
                                (d[0] + e[0], d[1] + e[1], d[2] + e[2], d[3] + e[3], d[4] + e[4])), step)
                if state is not None:
                    out.add(state)
        return out

    states = {s for s in (normal((*s[:10], (s[10][0], s[10][0] + s[10][1], *s[10][2:])), 0) for s in states)
              if s is not None}
    work = 0
    for step, kind in enumerate(steps):
        layer, grown = states, set(states)
        for _ in kind.members:
            layer = grow(layer, kind, step)
            work += len(layer)
            if work > MAX_CLASS_STATES:
                return None  # past the budget: the caller falls back to bounds
            if not layer:
                break
            grown |= layer
        states = grown
    merged: dict[tuple[Any, ...], set[_Delta]] = {}
    for s in states:
        up, net = s[10][:2]
        if s[8] < 0 and up >= s[1]:  # the Outsiders are raised to the seats anyway: only the sum counts
            up = max(s[1], net)
        merged.setdefault(s[:10], set()).add((up, net - up, *s[10][2:]))
    out = []
    for (tfs, oss, tfc, osc, sm, sd, ne, mj, oa, rp), deltas in merged.items():
        for plain_demon in ((True, False) if not sd and pool.plain["demon"] else (False,)):
            out.append(_Choice((), "plain" if plain_demon else "setup" if sd else "none", sm, tfs, oss, tfc, osc,
                               ne, mj, None if oa < 0 else oa, rp, frozenset(deltas), 0))
    return out


def _bounds(pool: _Pool, players: int, base: dict[str, int]) -> dict[str, tuple[int, int]]:
    """Ranges every bag is sure to fall in (some values may be out of reach), from each kind's
    largest moves: what is left past MAX_CLASS_STATES. Linear in the kinds."""
    kinds = [k for k in pool.kinds if not k.missing_adds]

    def most(part: Callable[[_Delta], int], up: bool) -> int:
        pick = max if up else min
        return sum(len(k.members) * pick(0, *(part(e) for e in k.deltas)) for k in kinds)

    free_evil = any(k.effect.no_evil or k.effect.majority for k in kinds)
    any_outsiders = free_evil or any(k.effect.outsiders_any is not None for k in kinds)
    seats = sum(len(k.members) * (int(k.team == "outsider") + k.add_teams.count("outsider")) for k in kinds)
    m_lo = 0 if free_evil else max(0, base["minions"] + most(lambda e: e[2], False))
    m_hi = min(players, base["minions"] + most(lambda e: e[2], True))
    d_hi = players - 1 if any(k.effect.majority for k in kinds) else \
        min(players, base["demons"] + most(lambda e: e[3] + e[4], True))
    o_hi = players if any_outsiders else min(players, max(base["outsiders"] + most(lambda e: e[0], True), seats))
    return {"townsfolk": (max(0, players - o_hi - m_hi - d_hi), players - m_lo),
            "outsiders": (0, o_hi), "minions": (m_lo, m_hi), "demons": (0, d_hi)}
