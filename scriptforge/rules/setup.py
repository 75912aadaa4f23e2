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

How it is counted without building every bag: the script's setup characters are grouped into
kinds, and their selections (or classes) made, in scriptforge/rules/setup_selections.py. Every bag
of one selection has the same counts, so the table (ranges, what cannot be filled, forced choices)
is computed here per selection and per player count, and the bags (one per way of picking the
kinds' members) are only spelled out when asked (`SetupRow.bags`). Past MAX_SELECTIONS selections
only their classes are checked: the exact ranges and verdict per count, but no per-character detail.
"""

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from scriptforge.model.records import Character
from scriptforge.rules.setup_selections import PLAYER_COUNTS, _IN_PLAY_TEAMS, _ZERO, _Choice, _Deltas, _Pool, \
    _bounds, _choices, _classes, _pool, _selection_count, _sumset, _times

if TYPE_CHECKING:
    from scriptforge.db.database import Database

MAX_SELECTIONS = 5_000  # selections examined one by one; past it, classes only (docs/setup-rules.md)
MAX_LISTED = 200_000  # selections spelled out into bags when asked; past it, no bags are listed
COUNTS = ("townsfolk", "outsiders", "minions", "demons")

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
