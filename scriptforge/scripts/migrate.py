"""`scriptforge migrate`: move a community script to the official ids, names and terms.

Community Korean scripts were made before the official Korean translation: every character is a
full object (so the official app treats the script as homebrew) with community names and terms.
For each entry:

- an object that is a translation of an official character (its id or name denotes one, and its
  rule facts agree with the official text: team, the numbers of its ability, its setup bracket)
  becomes the plain id, so the app shows its own translation;
- an object whose rules really differ stays an object (an override), with the official name and
  the official terms in its texts;
- a homebrew object keeps its name; its texts get the official terms;
- the terms are the glossary's (data/<lang>/glossary.yaml: each term with its variants, per kind
  of text), the same list `l10n check` reports variants from;
- a collision (the object's community name is the official name of another character) is
  refused: the entry stays as it was, with one line saying why.

Nothing is written unless asked; the caller shows the diff first.
"""

from dataclasses import dataclass, field
import difflib
import json
import re
from typing import Any

from scriptforge.model.glossary import apply_glossary, terms_for, variant_pattern
from scriptforge.model.ids import normalize_id
from scriptforge.model.languages import detect, official
from scriptforge.db.official import official_facts
from scriptforge.rules.brackets import read_brackets
from scriptforge.io.errors import InputError
from scriptforge.model.records import Character

#: official object keys that hold text -> the glossary kind of that text
TEXT_KINDS = {"ability": "ability", "flavor": "flavor", "firstNightReminder": "night",
              "otherNightReminder": "night", "reminders": "reminders", "remindersGlobal": "reminders"}
_NUMBER = re.compile(r"\d+")
_KO_COUNTERS = {"한": "1", "두": "2", "세": "3", "네": "4", "다섯": "5"}


@dataclass
class Migration:
    """What `migrate` made of one script: its entries before and after, a line per entry changed or refused, and
    how many entries became ids or overrides and how many terms were replaced."""

    before: list
    after: list
    lines: list[str] = field(default_factory=list)  # what was done, one line per entry changed
    collisions: list[str] = field(default_factory=list)  # refused entries, one line each
    to_ids: int = 0
    overrides: int = 0
    terms: int = 0  # variant terms replaced

    def diff(self, name: str = "script") -> str:
        old = json.dumps(self.before, ensure_ascii=False, indent=2).splitlines()
        new = json.dumps(self.after, ensure_ascii=False, indent=2).splitlines()
        return "\n".join(difflib.unified_diff(old, new, f"{name} (before)", f"{name} (migrated)", lineterm=""))

    @property
    def changed(self) -> bool:
        return self.before != self.after


def variants_left(data: list, db) -> int:
    """Glossary variants still in the texts of a script's objects (the migration's measure)."""
    left = 0
    for entry in data:
        if not isinstance(entry, dict) or entry.get("id") == "_meta":
            continue
        for key, kind in {"name": "name", **TEXT_KINDS}.items():
            for text in _texts(entry.get(key)):
                terms = db.glossary.get(detect(text, db.languages), [])
                pattern, _ = variant_pattern(terms_for(terms, kind))
                left += len(pattern.findall(text)) if pattern else 0
    return left


def _texts(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _numbers(text: str) -> list[str]:
    """The numbers of an ability that a translation keeps: 2 and more (a translation writes the 1
    of "a player" and "once" as 1명, 한 번), outside the setup bracket (compared on its own)."""
    for word, digit in _KO_COUNTERS.items():
        text = re.sub(rf"(?<![가-힣]){word}\s*(?=명|번|개)", digit, text)
    return sorted(n for n in _NUMBER.findall(re.sub(r"\[[^\]]*\]", "", text)) if int(n) >= 2)


def _same_rules(obj: dict, ch, db, resolve) -> bool:
    """Whether an object's rule facts agree with the official character's: a translation, not a
    change (its team, the numbers of its ability, what its setup bracket does)."""
    english = ch.texts.get(official())
    ability = obj.get("ability")
    if obj.get("team", ch.team) != ch.team:
        return False
    if english is None or not isinstance(ability, str):
        return True  # nothing to compare: an object without an ability only names the character
    if _numbers(ability) != _numbers(english.ability):
        return False
    names = [str(obj.get("name", "")), *(t.name for t in ch.texts.values())]
    mine, theirs = read_brackets(ability, names, resolve), read_brackets(english.ability, names, resolve)
    return mine.effect == theirs.effect


def _map_terms(obj: dict, db, count: list[int]) -> dict:
    out = dict(obj)
    for key, kind in TEXT_KINDS.items():
        value = obj.get(key)
        if value is None:
            continue
        mapped = []
        for text in _texts(value):
            new, done = apply_glossary(text, db.glossary.get(detect(text, db.languages), []), kind)
            count[0] += len(done)
            mapped.append(new)
        out[key] = mapped[0] if isinstance(value, str) else mapped
    return out


def migrate_script(data: Any, db) -> Migration:
    """The migration of one script's JSON data (a list) with the database `db`."""
    if not isinstance(data, list):
        raise InputError("a script is a JSON array")
    out = Migration(before=data, after=[])
    teams = official_facts().teams

    def resolve(text: str):
        found = db.find(text)
        return found[0].id if len(found) == 1 else None

    for i, entry in enumerate(data):
        if isinstance(entry, str) and entry not in teams:
            named = db.find(entry)  # a name players use in place of the id ("포춘텔러", "Fortune Teller")
            if len(named) == 1 and named[0].id in teams and not named[0].homebrew:
                out.after.append(named[0].id)
                out.to_ids += 1
                out.lines.append(f"/{i} ('{entry}'): a name of {named[0].id} -> \"{named[0].id}\"")
                continue
        if not isinstance(entry, dict) or entry.get("id") == "_meta" or not isinstance(entry.get("id"), str):
            out.after.append(entry)
            continue
        name = entry.get("name") if isinstance(entry.get("name"), str) else None
        target = _official(entry, db, teams)
        count = [0]
        if target is None:  # homebrew: its own name, the official terms
            mapped = _map_terms(entry, db, count)
            out.after.append(mapped)
            if count[0]:
                out.terms += count[0]
                out.lines.append(f"/{i} ({entry['id']}): {count[0]} term(s) changed to the official ones")
            continue
        lang = detect(" ".join(_texts(entry.get("ability")) + [name or ""]), db.languages)
        official_name = target.name(lang)
        others = [c for c in db.find(name)] if name else []
        clash = [c for c in others if c.id != target.id and any(t.name == name for t in c.texts.values())]
        if clash:
            line = (f"/{i} ({entry['id']}): refused: '{name}' is the official name of {clash[0].id} "
                    f"({clash[0].name(official())}), not of {target.id}; rename it, then migrate again")
            out.collisions.append(line)
            out.after.append(entry)
            continue
        if _same_rules(entry, target, db, resolve):
            out.after.append(target.id)
            out.to_ids += 1
            out.lines.append(f"/{i} ({entry['id']}): a translation of {target.id} -> \"{target.id}\" "
                             f"(the app shows its own translation)")
            continue
        mapped = _map_terms({**entry, "id": target.id, **({"name": official_name} if name else {})}, db, count)
        out.terms += count[0]
        out.overrides += 1
        out.after.append(mapped)
        renamed = f", name '{name}' -> '{official_name}'" if name and name != official_name else ""
        out.lines.append(f"/{i} ({entry['id']}): its rules differ from {target.id}'s: kept as an override"
                         f"{renamed}" + (f", {count[0]} term(s) changed" if count[0] else ""))
    return out


def _official(entry: dict, db, teams: dict) -> Any:
    """The official character an object stands for, by its id in any spelling (`ko_KR_imp`,
    `fortune_teller`); never by its name alone (`witchhunt-witch` named "Witch" is homebrew)."""
    found = db.find(entry["id"])
    if len(found) == 1 and found[0].id in teams and not found[0].homebrew:
        return found[0]
    bare = normalize_id(re.sub(r"^[a-z]{2}_[A-Z]{2}_", "", entry["id"]))
    if bare in teams:  # an official character the data has no texts for (no pack installed)

        return Character(id=bare, team=teams[bare], edition="", texts={})
    return None
