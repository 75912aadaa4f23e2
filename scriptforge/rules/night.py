"""Night order for one script: which entries wake on the first night and on other nights.

Rule (also in README and docs/findings.md):

1. If the script's `_meta.firstNight` / `_meta.otherNight` list is present, it is the order for that
   night: entries are matched to the script's characters by id (any spelling) and to the steps
   `dusk`, `minioninfo`, `demoninfo`, `dawn` (legacy `DUSK`, `MINION`, `DEMON`, `DAWN` too); entries
   not on the script are skipped (a `meta-night-unknown` warning).
2. Otherwise the official night sheet (data/night.yaml) restricted to the script gives the order,
   with all four steps. A character from the database keeps its official position; a homebrew
   character (and a database homebrew character) is placed by its own number, read as a 1-based
   position on the official sheet: 60.5 goes between positions 60 and 61; on a tie the official
   entry comes first, then homebrew entries in script order. 0 or no number: it does not wake.
3. Below 7 players, Minion info and Demon info are left out.
"""

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from scriptforge.model.records import NIGHT, NIGHTS, Character, NightStep, pick_text_lang
from scriptforge.model.ids import NIGHT_STEPS, normalize_id
from scriptforge.model.findings import Finding, finding

if TYPE_CHECKING:
    from scriptforge.db.database import Database
    from scriptforge.scripts.script import Script

_LEGACY_STEPS = {"dusk": "dusk", "dawn": "dawn", "minion": "minioninfo", "minioninfo": "minioninfo",
                 "demon": "demoninfo", "demoninfo": "demoninfo"}


@dataclass(frozen=True)
class NightEntry:
    """An entry of a night order: a character of the script or a night step (dusk, minion info, demon info, dawn)."""

    id: str
    kind: str  # "step" or "character"
    character: Character | None = None  # for kind "character"
    step: NightStep | None = None  # for kind "step"

    def name(self, lang: str) -> str:
        if self.step is not None:
            return self.step.name(lang)
        assert self.character is not None
        return self.character.name(lang)

    def name_lang(self, lang: str) -> str | None:
        """The language `name` gives the name in (`lang`, or the fallback it came from)."""
        if self.step is not None:
            return pick_text_lang(self.step.names, lang)[1]
        assert self.character is not None
        return self.character.texts_for(lang)[1]

    def reminder(self, night: str, lang: str) -> str | None:
        """The storyteller's reminder for `night` in `lang` (else along the fallbacks)."""
        if self.step is not None:
            return self.step.reminder(night, lang)
        assert self.character is not None
        return self.character.night_reminder(night, lang)[0]

    def reminder_lang(self, night: str, lang: str) -> str | None:
        """The language `reminder` gives its text in (`lang`, or the fallback it came from)."""
        if self.step is not None:
            texts = self.step.first_night if night == "first_night" else self.step.other_nights
            return pick_text_lang(texts, lang)[1]
        assert self.character is not None
        return self.character.night_reminder(night, lang)[1]


@dataclass(frozen=True)
class NightOrder:
    """One script's night order: the entry ids of the first night and of the other
    nights, the entries, and the problems found."""

    first_night: list[str]
    other_nights: list[str]
    entries: dict[str, NightEntry]
    problems: tuple[Finding, ...] = ()
    from_meta: tuple[str, ...] = ()  # nights whose order came from _meta

    def order(self, night: str) -> list[str]:
        order: list[str] = getattr(self, NIGHT[night].key)
        return order

    def reminder(self, entry_id: str, night: str, lang: str) -> str | None:
        return self.entries[entry_id].reminder(night, lang)

    def name(self, entry_id: str, lang: str) -> str:
        return self.entries[entry_id].name(lang)

    def rows(self, night: str, lang: str) -> list[dict[str, Any]]:
        """One dict per entry: id, kind, name, reminder, in order (for views and JSON)."""
        rows = []
        for i in self.order(night):
            row = {"id": i, "kind": self.entries[i].kind, "name": self.name(i, lang),
                   "reminder": self.reminder(i, night, lang)}
            used = self.entries[i].reminder_lang(night, lang)
            if used and used != lang:
                row["fallback"] = used  # the reminder is printed in this language: `lang` has none
            named = self.entries[i].name_lang(lang)
            if named and named != lang:
                row["name_fallback"] = named
            rows.append(row)
        return rows

    def as_dict(self, lang: str) -> dict[str, Any]:
        steps: dict[str, dict[str, Any]] = {}
        for entry_id in dict.fromkeys(self.first_night + self.other_nights):
            entry = self.entries[entry_id]
            record: dict[str, Any] = {"kind": entry.kind, "name": entry.name(lang)}
            fallback: dict[str, str | None] = {}
            named = entry.name_lang(lang)
            if named and named != lang:
                fallback["name"] = named
            for night in NIGHTS:
                if entry_id in self.order(night):
                    record[night] = entry.reminder(night, lang)
                    used = entry.reminder_lang(night, lang)
                    if record[night] and used != lang:
                        fallback[night] = used
            if fallback:
                record["fallback"] = fallback  # "name" or night -> the language its text is in: `lang` has none
            steps[entry_id] = record
        return {**{n: list(self.order(n)) for n in NIGHTS}, "steps": steps}


def _position(ch: Character, night: str, official: dict[str, int]) -> float | None:
    if ch.id in official and not ch.homebrew:
        return official[ch.id]
    value = ch.night.get(night)
    if value:
        return value
    return official.get(ch.id)


def night_order(script: "Script", db: "Database", players: int | None = None) -> NightOrder:
    """The night order for `script` (see the module docstring for the rule)."""
    entries = {s: NightEntry(s, "step", step=db.steps[s]) for s in NIGHT_STEPS if s in db.steps}
    for ch in script.characters:
        entries[ch.id] = NightEntry(ch.id, "character", character=ch)
    problems: list[Finding] = []
    orders: dict[str, list[str]] = {}
    from_meta = []
    for night in NIGHTS:
        meta_list = script.meta.get(NIGHT[night].official) if isinstance(script.meta, dict) else None
        if isinstance(meta_list, list):
            from_meta.append(night)
            orders[night] = _from_meta(script, meta_list, night, problems)
        else:
            orders[night] = _from_sheet(script, db, night)
    if players is not None and players < 7:
        for night in NIGHTS:
            orders[night] = [e for e in orders[night] if e not in ("minioninfo", "demoninfo")]
    return NightOrder(**{n: orders[n] for n in NIGHTS}, entries=entries, problems=tuple(problems),
                      from_meta=tuple(from_meta))


@lru_cache(maxsize=16)
def _sheet_positions(official_list: tuple[str, ...]) -> dict[str, int]:
    """Entry -> its 1-based place on an official night sheet (made once per sheet, not per script)."""
    return {entry: i + 1 for i, entry in enumerate(official_list)}


def _from_sheet(script: "Script", db: "Database", night: str) -> list[str]:
    official = _sheet_positions(db.night_order(night))
    keyed: list[tuple[float, int, int, str]] = []
    for step in NIGHT_STEPS:
        if step in official:
            keyed.append((official[step], 0, 0, step))
    for index, ch in enumerate(script.characters):
        pos = _position(ch, night, official)
        if pos:
            is_placed_by_number = ch.homebrew or ch.id not in official
            keyed.append((pos, 1 if is_placed_by_number else 0, index, ch.id))
    keyed.sort(key=lambda k: k[:3])
    return [k[3] for k in keyed]


def _from_meta(script: "Script", meta_list: list[Any], night: str, problems: list[Finding]) -> list[str]:
    out: list[str] = []
    for index, entry in enumerate(meta_list):
        if not isinstance(entry, str):
            continue
        step = _LEGACY_STEPS.get(normalize_id(entry))
        ch = None if step else script.find(entry)
        entry_id = step or (ch.id if ch else None)
        if entry_id is None:
            problems.append(finding("meta-night-unknown", f"_meta.{NIGHT[night].official} lists '{entry[:60]}', "
                                                          f"which is not on the script", f"{script.paths.get('_meta', '/0')}/{NIGHT[night].official}/{index}",
                                    night=night, entry=entry))
            continue
        if step == "minioninfo" or step == "demoninfo":
            if night != "first_night":
                continue
        if entry_id not in out:
            out.append(entry_id)
    return out


def missing_from_meta(script: "Script", order: NightOrder, db: "Database") -> list[Finding]:
    """`night-order-missing`: a `_meta.firstNight`/`otherNight` list (`order`, the script's night
    order) that leaves out a character on the script who wakes that night by the official night
    sheet, or puts dusk after dawn."""
    out: list[Finding] = []
    meta_path = script.paths.get("_meta", "/0")
    for night in order.from_meta:
        key = NIGHT[night].official
        listed = order.order(night)
        official = set(db.night_order(night))
        for ch in script.characters:
            if ch.id in official and not ch.homebrew and ch.id not in listed:
                when = "on the first night" if night == "first_night" else "on other nights"
                out.append(finding("night-order-missing", f"_meta.{key} leaves out '{ch.id}', who wakes {when} by "
                                                          f"the official night sheet", f"{meta_path}/{key}",
                                   night=night, character=ch.id))
        if "dusk" in listed and "dawn" in listed and listed.index("dusk") > listed.index("dawn"):
            out.append(finding("night-order-missing", f"_meta.{key} puts dusk after dawn", f"{meta_path}/{key}",
                               night=night, dusk=listed.index("dusk") + 1, dawn=listed.index("dawn") + 1))
    return out
