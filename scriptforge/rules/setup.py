"""Setup counts per player count: the base distribution and what the script's setup characters can
make of it.

Rules applied (one Demon is in play; so at most one Demon's modifier applies):

- any subset of the script's Townsfolk and Outsider modifiers can be in play;
- at most as many Minion modifiers as there are Minions (at 5–9 players only one applies);
- a span such as "+0 or +1" counts both ends; Outsiders never go below 0 (a Vigormortis with
  no Outsider to remove adds no Townsfolk); Townsfolk are the rest of the players;
- a character whose Demon token is not in the bag (Lil' Monsta) takes the Demon slot out and its
  "+1 Minion" fills it; "+the Damsel" adds +0 or +1 of the added character's team (+0 when it is already in play);
- an explicit Townsfolk change ("+1 Townsfolk") is read as the same number of Outsiders fewer;
- Travellers, Fabled and Loric are not counted.
"""

from dataclasses import dataclass
from itertools import product
from typing import TYPE_CHECKING, Any

from scriptforge.model import COUNT_KEYS, PLAYER_TEAMS, Character, SetupEffect

if TYPE_CHECKING:
    from scriptforge.database import Database
    from scriptforge.script import Script

PLAYER_COUNTS = tuple(range(5, 16))
_MAX_USED = 16


@dataclass(frozen=True)
class Modifier:
    character: str
    team: str
    effect: SetupEffect

    def as_dict(self) -> dict[str, Any]:
        return {"character": self.character, "team": self.team, "effect": self.effect.as_dict()}


@dataclass(frozen=True)
class SetupRow:
    players: int
    base: dict[str, int]  # townsfolk, outsiders, minions, demons
    ranges: dict[str, tuple[int, int]]  # players per team (demons: Demon tokens in the bag)
    demand: dict[str, tuple[int, int]]  # distinct characters of each team the setup can need
    modifiers: tuple[dict[str, Any], ...]

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"players": self.players, "base": dict(self.base)}
        for key in ("townsfolk", "outsiders", "minions", "demons"):
            lo, hi = self.ranges[key]
            out[key] = {"min": lo, "max": hi}
        out["modifiers"] = [dict(m) for m in self.modifiers]
        return out


def setup_modifiers(script: "Script") -> list[Modifier]:
    """The script's player characters whose setup effect changes counts or tokens, in script order."""
    return [Modifier(c.id, c.team, c.setup) for c in script.characters
            if c.setup is not None and c.team in PLAYER_TEAMS]


def _team_of(script: "Script", db: "Database", char_id: str) -> str | None:
    ch = script.get(char_id) or db.characters.get(char_id)
    return ch.team if ch else None


def _options(effect: SetupEffect, script: "Script", db: "Database") -> list[tuple[int, int, int]]:
    """Every extreme (outsiders, minions, demons) delta the effect can make."""
    spans = dict(effect.counts)
    # An added character replaces a Townsfolk unless it is already in play: +0 or +1 of its team.
    extra = {"outsiders": {0}, "minions": {0}, "demons": {0}}
    for added in effect.adds:
        team = _team_of(script, db, added)
        if team in ("outsider", "minion", "demon"):
            key = COUNT_KEYS[team]
            extra[key] = {v + d for v in extra[key] for d in (0, 1)}
    if not effect.demon_token:
        extra["demons"] = {v - 1 for v in extra["demons"]}
    tf = spans.get("townsfolk", (0, 0))
    out_span = spans.get("outsiders", (0, 0))
    out_choices = {o - t + e for o in set(out_span) for t in set(tf) for e in extra["outsiders"]}
    min_choices = {m + e for m in set(spans.get("minions", (0, 0))) for e in extra["minions"]}
    dem_choices = {d + e for d in set(spans.get("demons", (0, 0))) for e in extra["demons"]}
    return sorted(set(product(out_choices, min_choices, dem_choices)))


def _clamp(value: int, limit: int) -> int:
    return max(-limit, min(limit, value))


def _states(script: "Script", db: "Database", players: int) -> tuple[list[Modifier], set[tuple[int, int, int, int]]]:
    mods = setup_modifiers(script)
    limit = players
    demons: list[Character | None] = [c for c in script.characters if c.team == "demon"]
    demon_options: set[tuple[int, int, int]] = set()
    for demon in demons or [None]:
        if demon is None or demon.setup is None:
            demon_options.add((0, 0, 0))
        else:
            demon_options.update(_options(demon.setup, script, db))
    states = {(o, m, d, 0) for o, m, d in demon_options}
    for mod in mods:
        if mod.team == "demon":
            continue
        used = 1 if mod.team == "minion" else 0
        options = _options(mod.effect, script, db)
        new = set(states)
        for (o, m, d, u), (do, dm, dd) in product(states, options):
            new.add((_clamp(o + do, limit), _clamp(m + dm, limit), _clamp(d + dd, limit), min(u + used, _MAX_USED)))
        states = new
    return mods, states


def setup_row(script: "Script", db: "Database", players: int) -> SetupRow:
    base = dict(db.base_setup[players])
    mods, states = _states(script, db, players)
    has_drunk_token = any(m.effect.bag_token == "townsfolk" for m in mods)
    extra_copies = max((m.effect.extra_copies[1] for m in mods if m.effect.extra_copies), default=0)
    results = []
    for d_out, d_min, d_dem, used in states:
        minions = max(0, base["minions"] + d_min)
        if used > minions:
            continue
        outsiders = max(0, base["outsiders"] + d_out)
        demons = max(0, base["demons"] + d_dem)
        townsfolk = max(0, players - outsiders - minions - demons)
        results.append((townsfolk, outsiders, minions, demons))
    if not results:  # cannot happen (the empty choice is always there); kept for safety
        results = [(base["townsfolk"], base["outsiders"], base["minions"], base["demons"])]
    keys = ("townsfolk", "outsiders", "minions", "demons")
    ranges = {k: (min(r[i] for r in results), max(r[i] for r in results)) for i, k in enumerate(keys)}
    demand = {
        "townsfolk": (max(0, ranges["townsfolk"][0] - extra_copies),
                      max(r[0] + (1 if has_drunk_token and r[1] >= 1 else 0) for r in results)),
        "outsider": ranges["outsiders"],
        "minion": ranges["minions"],
        "demon": (1, 1),
    }
    notes = []
    for mod in mods:
        record = mod.as_dict()
        lo = mod.effect.counts.get("outsiders", (0, 0))[0]
        if lo < 0 and base["outsiders"] + lo < 0:
            record["note"] = "no Outsider to remove at this player count: no effect"
        notes.append(record)
    return SetupRow(players, base, ranges, demand, tuple(notes))


def setup_table(script: "Script", db: "Database", players: int | None = None) -> list[SetupRow]:
    """One SetupRow per player count 5–15, or just the one for `players`."""
    counts = PLAYER_COUNTS if players is None else (players,)
    return [setup_row(script, db, n) for n in counts]
