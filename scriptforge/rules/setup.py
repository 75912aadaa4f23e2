"""Setup counts per player count, from every legal bag the script allows.

A bag is: the script's setup characters in play, each with one of its choices, and the resulting
Townsfolk / Outsider / Minion / Demon counts (Demon tokens in the bag). The rules
(docs/setup-rules.md says them for players):

- one Demon from the script is in play, unless an in-play effect takes the Demon seat away
  ("No Demon": that seat is a Townsfolk) or there are no evil characters at all;
- with no evil characters (the Atheist), every seat is good: Townsfolk or Outsiders in any split;
- Minions are distinct characters of the script, so setup Minions are in play when the script
  has too few other Minions; at most as many setup Minions as there are Minion seats;
- any of the script's Townsfolk and Outsider setup characters can be in play, each on a seat of
  its own team (a Hermit is one of the Outsiders; a Balloonist needs a Townsfolk seat left);
- Fabled and Loric on the script are in play;
- count changes add up; a removal with nothing left to remove has no effect; "-1 or +1" offers
  only its two ends; "+1 Townsfolk" is one Outsider fewer; an added character ("+the Damsel") is
  in play on a seat of its team, taken from the Townsfolk when no seat of that team is there;
- Townsfolk are the rest of the players;
- a bag is legal only if the script has enough distinct characters of each team for it, unless
  a selection mark lets that team repeat (`bag-duplicate`, `good-duplicate`, `evil-duplicate`).

Only the structured effects (model.SetupEffect) drive this; no character is named here.

How it is counted without building every bag: characters whose effects change no count (the
Drunk, the Marionette, the Village Idiot...) count as plain characters of their team, and
characters with equal effects share one *kind*. A *selection* says how many of each kind are in
play; every bag of one selection has the same counts, so the table (ranges, what cannot be
filled, forced choices) is computed per selection and per player count, and the bags (one per
way of picking the kinds' members) are only spelled out when asked (`SetupRow.bags`). Past
MAX_SELECTIONS selections the selections are merged further into *classes* (equal seats, flags
and count change: a dynamic programme over the kinds, its size bounded by the seats, not by the
subsets), which still gives the exact ranges and verdict per count but no per-character detail.
"""

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from itertools import combinations, product
from math import comb, prod
from typing import TYPE_CHECKING, Any

from scriptforge.model.records import PLAYER_TEAMS, Character, SetupEffect

if TYPE_CHECKING:
    from scriptforge.db.database import Database

PLAYER_COUNTS = tuple(range(5, 16))
MAX_PLAYERS = PLAYER_COUNTS[-1]
_MAX_SETUP_MINIONS = 4  # Minion seats at 15 players with one extra Minion
MAX_SELECTIONS = 5_000  # selections examined one by one; past it, classes only (docs/setup-rules.md)
MAX_LISTED = 200_000  # selections spelled out into bags when asked; past it, no bags are listed
MAX_CLASS_STATES = 60_000  # classes made by the dynamic programme; past it, provable bounds only
COUNTS = ("townsfolk", "outsiders", "minions", "demons")
_IN_PLAY_TEAMS = (*PLAYER_TEAMS, "fabled", "loric")
_GOOD, _EVIL = ("townsfolk", "outsider"), ("minion", "demon")

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
class Gap:
    """What the closest bag of some selection lacks: `team` needs `needed`, the script gives
    `available`; `characters`: the setup characters in play in that bag (kinds with several
    members: any one of them)."""

    team: str
    needed: int
    available: int
    characters: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {"team": self.team, "needed": self.needed, "available": self.available}


@dataclass(frozen=True)
class Forced:
    """A setup character whose option `refused` cannot be taken while `others` are in play: every
    bag with it needs more characters than the script has (`gap`); `allowed` are the options left.
    An option is the count change it makes, {count key: delta}."""

    character: str
    others: tuple[str, ...]
    allowed: tuple[tuple[tuple[str, int], ...], ...]
    refused: tuple[tuple[str, int], ...]
    gap: Gap

    def as_dict(self) -> dict[str, Any]:
        return {"character": self.character, "with": list(self.others),
                "allowed": [dict(o) for o in self.allowed], "refused": dict(self.refused), **self.gap.as_dict()}


@dataclass(frozen=True)
class SetupRow:
    """The setup of one player count on the script: the base counts, each count's range over the legal
    bags, whether a bag can be filled, and the reasons where not."""

    players: int
    base: dict[str, int]  # townsfolk, outsiders, minions, demons
    ranges: dict[str, tuple[int, int]]  # min and max over the bags (demons: Demon tokens in the bag)
    feasible: bool  # False: no bag can be filled from the script's characters
    modifiers: tuple[dict[str, Any], ...] = ()
    unmodelled: tuple[tuple[str, str], ...] = ()  # (character id, clause) the counts leave out
    gaps: tuple[Gap, ...] = ()  # not feasible: every team the closest bag lacks
    unusable: tuple[Gap, ...] = ()  # setup characters in no fillable bag, by their own doing
    forced: tuple[Forced, ...] = ()
    detailed: bool = True  # False: past MAX_SELECTIONS (no per-character detail)
    listing: Callable[[], tuple[tuple["Bag", ...], tuple["Shortfall", ...]]] | None = field(
        default=None, repr=False, compare=False)
    exact: bool = True  # False: past MAX_CLASS_STATES, `ranges` are bounds and `feasible` is not checked

    @cached_property
    def _listed(self) -> tuple[tuple[Bag, ...], tuple[Shortfall, ...]]:
        return self.listing() if self.listing is not None else ((), ())

    @property
    def listable(self) -> bool:
        """Whether the bags can be spelled out (at most MAX_LISTED selections)."""
        return self.listing is not None

    @property
    def bags(self) -> tuple[Bag, ...]:
        """Sorted: the bags the script can fill (or, if none, those the seats allow). Spelled
        out on first use only."""
        return self._listed[0]

    @property
    def shortfalls(self) -> tuple[Shortfall, ...]:
        """The bags the seats allow but the script cannot fill, each with its first short team."""
        return self._listed[1]

    def as_dict(self, bags: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"players": self.players, "base": dict(self.base)}
        for key in COUNTS:
            lo, hi = self.ranges[key]
            out[key] = {"min": lo, "max": hi}
        out["modifiers"] = [dict(m) for m in self.modifiers]
        if bags:
            out["bags"] = [b.as_dict() for b in self.bags]
        if not self.feasible:
            out["feasible"] = False
        if self.unmodelled:
            out["unmodelled"] = [{"character": c, "clause": t} for c, t in self.unmodelled]
        if self.forced:
            out["forced"] = [f.as_dict() for f in self.forced]
        if not self.detailed:
            out["detailed"] = False
        if not self.exact:
            out["exact"] = False
        return out


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


# -- the bags at one player count ----------------------------------------------------------------


def _counts(choice: _Choice, players: int, base: dict[str, int], deltas: _Deltas | None = None) -> set[Counts]:
    """Every (townsfolk, outsiders, minions, demons) the choice gives that fits the seats."""
    out: set[Counts] = set()
    deltas = choice.deltas if deltas is None else deltas
    tf_seats, os_seats, setup_minions = choice.tf_seats, choice.os_seats, choice.setup_minions
    if choice.no_evil:
        if deltas and choice.demon == "none" and not setup_minions:
            # no evil characters: the evil seats are good ones, Townsfolk or Outsiders in any split
            for outsiders in range(os_seats, players - tf_seats + 1):
                out.add((players - outsiders, outsiders, 0, 0))
        return out
    outsiders_any = choice.outsiders_any
    base_outsiders = base["outsiders"]
    if choice.majority:  # Legion: any evil majority of Demon tokens, no Minions
        if setup_minions or choice.demon != "setup":
            return out
        for up, down, _, _, _ in deltas:
            raised = base_outsiders + up
            if outsiders_any is None and raised < os_seats:
                continue
            for demons in range(players // 2 + 1, players):
                good = players - demons
                if outsiders_any is not None:
                    low, high = max(outsiders_any, os_seats), good - tf_seats
                else:  # Legion takes any of the good seats too
                    low, high = os_seats, min(max(os_seats, raised + down), good - tf_seats)
                for outsiders in range(low, high + 1):
                    if good - outsiders >= tf_seats:
                        out.add((good - outsiders, outsiders, 0, demons))
        return out
    no_demon = choice.demon == "none"
    base_minions, base_demons = base["minions"], base["demons"]
    for up, down, d_min, d_seat, d_tokens in deltas:
        seat = base_demons + d_seat
        if (seat <= 0) != no_demon:
            continue
        minions = base_minions + d_min
        if minions < setup_minions:
            continue
        demons = seat + d_tokens if seat > 0 else 0
        if demons < 0:
            demons = 0
        good = players - minions - demons
        if outsiders_any is None:
            raised = base_outsiders + up
            if raised < os_seats:
                continue
            outsiders = raised + down if raised + down > os_seats else os_seats
            if good - outsiders >= tf_seats:
                out.add((good - outsiders, outsiders, minions, demons))
            continue
        for outsiders in range(max(outsiders_any, os_seats), good - tf_seats + 1):
            out.add((good - outsiders, outsiders, minions, demons))
    return out


_SEEN_COUNTS: dict[tuple[Any, ...], tuple[tuple[Counts, ...], ...]] = {}


def _counts_at(choice: _Choice, bases: tuple[tuple[int, dict[str, int]], ...],
               bases_key: tuple[Any, ...]) -> tuple[tuple[Counts, ...], ...]:
    """`_counts` at each (players, base) of `bases`, in `_counts`' own order. The same seats,
    flags and count changes come back in script after script (a plain Demon, a Baron, a Drunk…),
    so each is counted once per process (at most a few thousand are kept)."""
    key = (bases_key, choice.demon, choice.setup_minions, choice.tf_seats, choice.os_seats, choice.no_evil,
           choice.majority, choice.outsiders_any, choice.deltas)
    found = _SEEN_COUNTS.get(key)
    if found is None:
        if len(_SEEN_COUNTS) >= 4096:
            _SEEN_COUNTS.clear()
        found = _SEEN_COUNTS[key] = tuple(tuple(_counts(choice, n, base)) for n, base in bases)
    return found


class _Need:
    """What one choice's bags need of the script, team by team (see `__call__`). Everything that
    does not depend on the bag's counts is worked out once per choice: a choice is checked at
    every player count, and its bags at each."""

    __slots__ = ("setup_minions", "tf_chosen", "os_chosen", "plain_tf", "plain_os", "plain_minions",
                 "minions_repeat", "tf_have", "os_have", "tf_repeat", "os_repeat",
                 "os_tokens", "minion_tokens", "tf_tokens", "spare_tf")

    def __init__(self, choice: _Choice, pool: _Pool) -> None:
        repeats = pool.repeats | choice.repeats
        plain, tokens = pool.plain, pool.neutral_tokens
        self.setup_minions, self.tf_chosen, self.os_chosen = choice.setup_minions, choice.tf_chosen, choice.os_chosen
        self.plain_tf, self.plain_os, self.plain_minions = plain["townsfolk"], plain["outsider"], plain["minion"]
        self.minions_repeat = "minion" in repeats and bool(plain["minion"] or choice.setup_minions)
        self.tf_have, self.os_have = plain["townsfolk"] + pool.copies, plain["outsider"]
        # a team that may repeat (and has a character to repeat) can fill any number of seats
        self.tf_repeat = "townsfolk" in repeats and bool(plain["townsfolk"] or choice.tf_chosen)
        self.os_repeat = "outsider" in repeats and bool(plain["outsider"] or choice.os_chosen)
        # per team whose every plain character is in play: the tokens its bag-token characters
        # show, counted as (townsfolk, outsider, minion, good); a team that may repeat need not
        # use them all
        self.os_tokens = None if "outsider" in repeats else _token_counts(tokens.get("outsider", ()))
        self.minion_tokens = None if "minion" in repeats else _token_counts(tokens.get("minion", ()))
        self.tf_tokens = None if "townsfolk" in repeats else _token_counts(tokens.get("townsfolk", ()))
        # setup Townsfolk this choice leaves out of play: a shown token (the Drunk's) may be one
        self.spare_tf = sum(len(k.members) for k in pool.kinds if k.team == "townsfolk") - choice.tf_chosen

    def __call__(self, counts: Counts) -> tuple[tuple[str, int, int], ...]:
        """Every team the script cannot fill this bag's seats of: (team, needed, available), the
        first one first. A team that may repeat is short only when the script has none of it."""
        townsfolk, outsiders, minions, _ = counts
        plain_minions = minions - self.setup_minions
        tf_need, os_need = townsfolk - self.tf_chosen, outsiders - self.os_chosen
        t_tf = t_os = t_minion = t_good = 0
        tokens = self.os_tokens
        if tokens is not None and os_need == self.plain_os:
            t_tf, t_os, t_minion, t_good = tokens
        tokens = self.minion_tokens
        if tokens is not None and plain_minions == self.plain_minions:
            t_tf, t_os, t_minion, t_good = t_tf + tokens[0], t_os + tokens[1], t_minion + tokens[2], t_good + tokens[3]
        tokens = self.tf_tokens
        if tokens is not None and tf_need == self.plain_tf:
            t_tf, t_os, t_minion, t_good = t_tf + tokens[0], t_os + tokens[1], t_minion + tokens[2], t_good + tokens[3]
        spare = self.spare_tf
        if spare > 0 and (t_tf or t_good):  # out-of-play setup Townsfolk shown as tokens
            covered = min(spare, t_tf)
            t_tf, t_good = t_tf - covered, t_good - min(spare - covered, t_good)
        tf_need += t_tf
        os_need += t_os
        # repeats are settled after the tokens are counted (the Pope and the Drunk)
        tf_have = self.tf_have
        if self.tf_repeat and tf_need + t_good > tf_have:
            tf_have = tf_need + t_good
        os_have = self.os_have
        if self.os_repeat and os_need > os_have:
            os_have = os_need
        minions_short = plain_minions > self.plain_minions and not self.minions_repeat
        if (not minions_short and not t_minion and tf_need <= tf_have and os_need <= os_have
                and tf_need + os_need + t_good <= tf_have + os_have):
            return ()  # the usual answer: nothing short
        out: list[tuple[str, int, int]] = []
        if minions_short:
            out.append(("minion", minions, self.plain_minions + self.setup_minions))
        elif t_minion:  # a never-dealt Minion is shown another Minion
            out.append(("minion", minions + t_minion, self.plain_minions + self.setup_minions))
        if tf_need > tf_have:
            out.append(("townsfolk", tf_need + self.tf_chosen, tf_have + self.tf_chosen))
        if os_need > os_have:
            out.append(("outsider", os_need + self.os_chosen, os_have + self.os_chosen))
        if not out and tf_need + os_need + t_good > tf_have + os_have:
            out.append(("townsfolk", tf_need + self.tf_chosen + t_good, tf_have + self.tf_chosen))
        return tuple(out)


def _token_counts(tokens: Sequence[str]) -> tuple[int, int, int, int] | None:
    """(townsfolk, outsider, minion, good) among bag tokens; None where they change nothing."""
    counted = tokens.count("townsfolk"), tokens.count("outsider"), tokens.count("minion"), tokens.count("good")
    return counted if any(counted) else None


def _modifiers(characters: Sequence[Character]) -> tuple[dict[str, Any], ...]:
    return tuple({"character": c.id, "team": c.team, "effect": c.setup.as_dict()} for c in characters
                 if c.setup is not None and c.team in _IN_PLAY_TEAMS)


def _sorted_bags(found: dict[tuple[str, ...], set[Counts]]) -> list[Bag]:
    return [Bag(ids, counts) for ids in sorted(found, key=lambda i: (len(i), i)) for counts in sorted(found[ids])]


def _deficit(gap: tuple[str, int, int]) -> int:
    return gap[1] - gap[2]


@dataclass
class _Class:
    """Selections with equal seats, flags and count changes: their bags have the same counts, so
    each player count checks one of them, and keeps for the rest only what it needs per kind."""

    first: _Choice
    kinds: dict[int, int] = field(default_factory=dict)  # id(kind) -> the smallest size with it
    smallest: _Choice | None = None
    options: list[_Choice] = field(default_factory=list)  # those with a kind of several options

    def add(self, choice: _Choice) -> None:
        size = choice.size
        for kind, _ in choice.chosen:
            self.kinds[id(kind)] = min(self.kinds.get(id(kind), size), size)
        if self.smallest is None or size < self.smallest.size:
            self.smallest = choice
        if any(len(k.options) > 1 for k, _ in choice.chosen):
            self.options.append(choice)


def _class_key(c: _Choice) -> tuple[Any, ...]:
    return (c.demon, c.setup_minions, c.tf_seats, c.os_seats, c.tf_chosen, c.os_chosen, c.no_evil, c.majority,
            c.outsiders_any, c.repeats, c.deltas)


def _grouped(choices: Iterator[_Choice] | list[_Choice]) -> list[_Class]:
    out: dict[tuple[Any, ...], _Class] = {}
    for choice in choices:
        key = _class_key(choice)
        if key not in out:
            out[key] = _Class(choice)
        out[key].add(choice)
    return list(out.values())


def _names(choice: _Choice | None) -> tuple[str, ...]:
    if choice is None:
        return ()
    return tuple(i for k, n in choice.chosen for i in k.members[: n if len(k.members) == n else 1])


class _Counter:
    """One player count: the classes' counts, checked once per class, never per bag."""

    def __init__(self, players: int, base: dict[str, int], pool: _Pool) -> None:
        self.players, self.base, self.pool = players, base, pool
        self.fillable: set[Counts] = set()
        self.unfillable: set[Counts] = set()
        self.closest: tuple[tuple[Any, ...], tuple[tuple[str, int, int], ...], tuple[str, ...]] | None = None
        self.usable: set[int] = set()  # id() of kinds in a fillable selection
        self.blocked: dict[int, tuple[tuple[int, int], tuple[str, int, int]]] = {}
        self.mixed: list[_Choice] = []  # selections with fillable and unfillable bags

    def _gap_key(self, gap: tuple[str, int, int]) -> tuple[bool, int, str]:
        # setup-made shortages first, then the smallest
        return gap[1] <= self.base[_KEY[gap[0]]], _deficit(gap), gap[0]

    def add(self, group: _Class, need: _Need, found: Iterable[Counts]) -> None:
        """Check one class (`need`: its first selection's `_Need`; `found`: its bags' counts here)."""
        good = bad = False
        size = -1
        for counts in found:
            short = need(counts)
            if not short:
                self.fillable.add(counts)
                good = True
                continue
            bad = True
            self.unfillable.add(counts)
            first = short[0]
            if size < 0:
                size = group.smallest.size if group.smallest else 0
            key = (*self._gap_key(first), sum(_deficit(g) for g in short), size)
            if self.closest is None or key < self.closest[0]:
                self.closest = (key, short, _names(group.smallest))
            if first[1] > self.base[_KEY[first[0]]]:
                for kind, size in group.kinds.items():
                    seen = self.blocked.get(kind)
                    rank = (size, _deficit(first))
                    if seen is None or rank < seen[0]:
                        self.blocked[kind] = (rank, first)
        if good:
            self.usable.update(group.kinds)
        if good and bad:
            self.mixed += group.options

    def forced(self) -> list[Forced]:
        """Options a setup character cannot take beside the others in play, smallest selections
        first; a selection that only adds characters to one already reported is not repeated."""
        out: list[Forced] = []
        told: list[tuple[int, frozenset[int]]] = []
        for choice in sorted(self.mixed, key=lambda c: c.size):
            need = _Need(choice, self.pool)
            for kind, n in choice.chosen:
                if len(kind.options) < 2:
                    continue
                context = frozenset(id(k) for k, _ in choice.chosen if k is not kind)
                if any(k == id(kind) and c <= context for k, c in told):
                    continue
                rest = _ZERO
                for other, m in choice.chosen:
                    rest = _times(other, m - (other is kind), rest)
                allowed, refused = [], []
                for delta, option in kind.options:
                    results = [(c, need(c))
                               for c in _counts(choice, self.players, self.base, _sumset(rest, frozenset({delta})))]
                    if any(not s for _, s in results):
                        allowed.append(option)
                    elif results:
                        refused.append((option, min((s[0] for _, s in results), key=_deficit)))
                if not allowed or not refused:
                    continue
                others = tuple(k.members[0] if len(k.members) == 1 else "/".join(k.members)
                               for k, m in choice.chosen if k is not kind for _ in range(m))
                for option, gap in refused:
                    out.append(Forced(kind.members[0] if len(kind.members) == 1 else "/".join(kind.members),
                                      others, tuple(allowed), option, Gap(*gap)))
                told.append((id(kind), context))
        return out


_KEY = {"townsfolk": "townsfolk", "outsider": "outsiders", "minion": "minions", "demon": "demons"}


def _listing(choices: Callable[[], Iterator[_Choice]], players: int, base: dict[str, int], pool: _Pool) \
        -> Callable[[], tuple[tuple[Bag, ...], tuple[Shortfall, ...]]]:
    def spell_out() -> tuple[tuple[Bag, ...], tuple[Shortfall, ...]]:
        fillable: dict[tuple[str, ...], set[Counts]] = {}
        unfillable: dict[tuple[str, ...], set[Counts]] = {}
        why: dict[tuple[tuple[str, ...], Counts], tuple[str, int, int]] = {}
        for choice in choices():
            need = _Need(choice, pool)
            for counts in _counts(choice, players, base):
                short = need(counts)
                for ids in choice.ids():
                    if not short:
                        fillable.setdefault(ids, set()).add(counts)
                    else:
                        unfillable.setdefault(ids, set()).add(counts)
                        why[ids, counts] = short[0]
        shown = _sorted_bags(fillable or unfillable)
        if not shown:
            shown = [Bag((), (base["townsfolk"], base["outsiders"], base["minions"], base["demons"]))]
        shortfalls = tuple(Shortfall(bag, *why[bag.in_play, bag.counts]) for bag in _sorted_bags(unfillable))
        return tuple(shown), shortfalls
    return spell_out


_TABLES_KEPT = 20_000  # selections (or classes) behind the tables one database keeps


@dataclass
class _Kept:
    """The setup tables kept with one database (see `setup_table`)."""

    tables: dict[tuple[Any, ...], tuple[SetupRow, ...]] = field(default_factory=dict)
    weight: int = 0  # the selections (or classes) behind them


def setup_table(characters: Sequence[Character], db: "Database", players: int | None = None) -> list[SetupRow]:
    """The setup table of a script's characters: one SetupRow per player count 5–15 (or just
    `players`), each with its ranges and verdict; its bags are spelled out when asked
    (`row.bags`). (Travellers are never in the bag.)

    The table depends only on each character's id, team and setup effect (and the database),
    and the same characters come back in a batch (one script in several languages or tools,
    copies): the full tables are kept with the database, up to _TABLES_KEPT selections
    behind them, so each is counted once per process."""
    if players is not None:
        return _setup_table(characters, db, players)[0]
    key = tuple((c.id, c.team, None if c.setup is None else repr(c.setup)) for c in characters)
    kept: _Kept = db.__dict__.setdefault("_setup_tables", _Kept())
    found = kept.tables.get(key)
    if found is None:
        rows, weight = _setup_table(characters, db, None)
        if kept.weight + weight > _TABLES_KEPT:
            kept.tables.clear()
            kept.weight = 0
        found = kept.tables[key] = tuple(rows)
        kept.weight += weight
    return list(found)


def _setup_table(characters: Sequence[Character], db: "Database", players: int | None) \
        -> tuple[list[SetupRow], int]:
    """`setup_table`, and how many selections (or classes) it examined."""
    pool = _pool(characters, db)
    selections = _selection_count(pool)
    detailed = selections <= MAX_SELECTIONS
    classes = None if detailed else _classes(pool)
    exact = detailed or classes is not None
    choices: list[_Choice] = list(_choices(pool)) if detailed else classes or []
    groups = _grouped(choices)
    counts = PLAYER_COUNTS if players is None else (players,)
    modifiers = _modifiers(characters)
    unmodelled = tuple((c.id, clause) for c in characters if c.setup and c.team in _IN_PLAY_TEAMS
                       for clause in c.setup.unmodelled)
    if not exact:
        return [SetupRow(n, dict(db.base_setup[n]), _bounds(pool, n, db.base_setup[n]), True, modifiers, unmodelled,
                         (), (), (), False, None, exact=False) for n in counts], 1
    counters = [_Counter(n, db.base_setup[n], pool) for n in counts]
    bases = tuple((counter.players, counter.base) for counter in counters)
    bases_key = tuple((n, *base.items()) for n, base in bases)
    for group in groups:  # each class's needs worked out once, then checked at every count
        need = _Need(group.first, pool)
        for counter, found in zip(counters, _counts_at(group.first, bases, bases_key)):
            counter.add(group, need, found)
    rows = []
    for counter in counters:
        n, base = counter.players, counter.base
        distinct = counter.fillable or counter.unfillable or {
            (base["townsfolk"], base["outsiders"], base["minions"], base["demons"])}
        ranges = {k: (min(column), max(column)) for k, column in zip(COUNTS, zip(*distinct))}
        gaps: tuple[Gap, ...] = ()
        if not counter.fillable:
            if counter.closest is not None:
                gaps = tuple(Gap(*g, counter.closest[2]) for g in counter.closest[1])
            else:  # nothing fits the seats (a script with no Demon...)
                gaps = (Gap("demon", 1, pool.plain["demon"]),)
        unusable = []
        if counter.fillable:
            for kind in pool.kinds:
                blocked = counter.blocked.get(id(kind))
                if blocked is not None and id(kind) not in counter.usable:
                    unusable += [Gap(*blocked[1], (member,)) for member in kind.members]
        rows.append(SetupRow(n, dict(base), ranges, bool(counter.fillable), modifiers, unmodelled, gaps,
                             tuple(unusable), tuple(counter.forced()) if counter.fillable else (), detailed,
                             _listing(lambda: iter(choices), n, base, pool) if detailed else
                             _listing(lambda: _choices(pool), n, base, pool) if selections <= MAX_LISTED else None))
    return rows, 1 + len(choices)
