"""The official character object (the script format's full entry: id, name, team, ability, night
numbers and reminders, reminder labels, setup, jinxes): one writer and one table of the official
schema's length limits, used by `export`, homebrew embedding (`add`), `import almanac --script`
and `validate`'s text-too-long.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scriptforge.model.records import NIGHT_TABLE, OFFICIAL_TEXT_KEYS, Texts

#: Every key the official schema allows in a character object (FACTS.md §1.2).
CHARACTER_KEYS = ("id", "name", "image", "team", "edition", "ability", "flavor", "firstNight", "firstNightReminder",
                  "otherNight", "otherNightReminder", "reminders", "remindersGlobal", "setup", "jinxes", "special")

#: The official schema's length limits (FACTS.md §1.2): per kind of entry, field -> limit.
META_LIMITS = {"name": 50, "author": 50, "logo": 250, "background": 250, "almanac": 250}
CHARACTER_LIMITS = {"id": 50, "name": 30, "edition": 50, "ability": 250, "flavor": 500,
                    "firstNightReminder": 500, "otherNightReminder": 500}
ITEM_LIMITS = {"reminders": 30, "remindersGlobal": 25}  # each label of these lists
ENTRY_LIMITS = {"jinxes": {"id": 50, "reason": 500}, "special": {"value": 50}}  # fields of list entries
ID_LIMIT = 20  # a plain id string, or an {"id": …} object


@dataclass(frozen=True)
class Overlong:
    """A text of a script over the official schema's length limit: where it is (a JSON
    pointer), what it is, its length and the limit."""

    pointer: str  # JSON pointer of the text in the script
    field: str  # how a person names it: "ability", "_meta.name", "reminders item", "jinxes.reason"
    length: int
    limit: int


def character_object(char_id: str, team: str, texts: Texts, *, edition: str | None = None,
                     night: Mapping[str, float] | None = None,
                     reminders: Mapping[str, str | None] | None = None,
                     labels: Sequence[str] = (), global_labels: Sequence[str] = (), setup: bool = False,
                     jinxes: Sequence[Mapping[str, str]] = ()) -> dict[str, object]:
    """The official object of one character with `texts`: `night` maps first_night/other_nights to
    its night number (0 or absent: it does not wake), `reminders` to its reminder text there
    (written only where it wakes); `labels`/`global_labels` are the reminder-token labels."""
    obj: dict[str, object] = {"id": char_id, "name": texts.name, "team": team}
    if edition:
        obj["edition"] = edition
    obj["ability"] = texts.ability
    if texts.flavor:
        obj[OFFICIAL_TEXT_KEYS["flavor"]] = texts.flavor
    for spelling in NIGHT_TABLE:
        number = (night or {}).get(spelling.key) or 0
        obj[spelling.official] = number
        reminder = (reminders or {}).get(spelling.key)
        if reminder and number:
            obj[spelling.official_reminder] = reminder
    if labels:
        obj["reminders"] = list(labels)
    if global_labels:
        obj["remindersGlobal"] = list(global_labels)
    obj["setup"] = setup
    if jinxes:
        obj["jinxes"] = [dict(j) for j in jinxes]
    return obj


def overlong_entry(item: object, base: str) -> list[Overlong]:
    """Every text of one script entry (at pointer `base`) over its official limit."""
    if isinstance(item, str):
        return [Overlong(base, "id", len(item), ID_LIMIT)] if len(item) > ID_LIMIT else []
    if not isinstance(item, dict):
        return []
    if item.get("id") == "_meta":
        return _over(item, META_LIMITS, base, "_meta.")
    if len(item) == 1 and "id" in item:
        return _over(item, {"id": ID_LIMIT}, base)
    found = _over(item, CHARACTER_LIMITS, base)
    for key, limit in ITEM_LIMITS.items():
        values = item.get(key)
        if isinstance(values, list):
            found += [Overlong(f"{base}/{key}/{i}", f"{key} item", len(label), limit)
                      for i, label in enumerate(values) if isinstance(label, str) and len(label) > limit]
    for key, fields in ENTRY_LIMITS.items():
        entries = item.get(key)
        if isinstance(entries, list):
            for i, entry in enumerate(entries):
                if isinstance(entry, dict):
                    found += _over(entry, fields, f"{base}/{key}/{i}", f"{key}.")
    return found


def _over(item: Mapping[str, object], limits: Mapping[str, int], base: str, prefix: str = "") -> list[Overlong]:
    """The strings of `item` longer than their `limits` (field -> limit), named `prefix` + field."""
    return [Overlong(f"{base}/{key}", prefix + key, len(value), limit) for key, limit in limits.items()
            if isinstance(value := item.get(key), str) and len(value) > limit]


def overlong(data: Sequence[object]) -> list[Overlong]:
    """Every text of a script (the parsed JSON list) over its official limit."""
    return [o for index, item in enumerate(data) for o in overlong_entry(item, f"/{index}")]
