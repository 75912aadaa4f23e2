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

from collections import Counter
from dataclasses import dataclass, field
import difflib
import functools
import json
import re
from typing import Any

from scriptforge.model.character_json import CHARACTER_KEYS
from scriptforge.model.findings import short
from scriptforge.model.glossary import apply_glossary, terms_for, variant_pattern
from scriptforge.model.ids import normalize_id
from scriptforge.model.languages import detect, official
from scriptforge.db.official import official_facts
from scriptforge.rules.brackets import read_brackets
from scriptforge.io.datafiles import read_yaml, validate
from scriptforge.io.errors import InputError
from scriptforge.io.paths import DATA_DIR
from scriptforge.model.records import Character

#: official object keys that hold text -> the glossary kind of that text
TEXT_KINDS = {"ability": "ability", "flavor": "flavor", "firstNightReminder": "night",
              "otherNightReminder": "night", "reminders": "reminders", "remindersGlobal": "reminders"}
_NUMBER = re.compile(r"\d+")
_TEAM_SPELLINGS = {"traveler": "traveller"}  # other tools' spellings of a team -> the official one


@dataclass
class Migration:
    """What `migrate` made of one script: its entries before and after, a line per entry changed or refused, and
    how many entries became ids or overrides and how many terms were replaced."""

    before: list
    after: list
    lines: list[str] = field(default_factory=list)  # what was done, one line per entry changed
    collisions: list[str] = field(default_factory=list)  # refused entries, one line each
    kept: list[tuple[str, str]] = field(default_factory=list)  # (id, why) of each object kept as an override
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
    return sum(terms_left(data, db).values())


def terms_left(data: list, db) -> Counter[str]:
    """Each glossary variant still in the texts of a script's objects, and how often."""
    left: Counter[str] = Counter()
    for entry in data:
        if not isinstance(entry, dict) or entry.get("id") == "_meta":
            continue
        for key, kind in {"name": "name", **TEXT_KINDS}.items():
            for text in _texts(entry.get(key)):
                terms = db.glossary.get(detect(text, db.languages), [])
                pattern, _ = variant_pattern(terms_for(terms, kind))
                left.update(pattern.findall(text) if pattern else ())
                if key == "ability":
                    left.update(m.group(0) for m in _KO_BRACKET_COUNT.finditer(text))
    return left


def _texts(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


@functools.cache
def number_words(lang: str) -> dict[str, Any]:
    """How `lang` writes numbers in rule texts (data/<lang>/numbers.yaml; {} where there is none)."""
    path = DATA_DIR / lang / "numbers.yaml"
    if not path.is_file():
        return {}
    table = read_yaml(path) or {}
    validate(table, "numbers", path)
    return dict(table)


def _alternation(words) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


def read_numbers(text: str, lang: str) -> list[int]:
    """Every number a rule text says, in digits or in the words of `lang` (numbers.yaml): counting
    words, numerals before their counters, words that are a number by themselves, and thresholds
    ("2명 이상", "more than 1") as the least number they allow."""
    table = number_words(lang)
    found: list[int] = []
    for rule in table.get("at_least", ()):
        def least(match: re.Match[str], add: int = rule["add"]) -> str:
            found.append(int(match.group(1)) + add)
            return " "
        text = re.sub(rule["pattern"], least, text)
    for word, value in table.get("implied", {}).items():
        pattern = rf"(?<!\w){re.escape(word)}"  # a word's start ("neither" holds no "either"); particles may follow
        found += [value] * len(re.findall(pattern, text, re.I))
        text = re.sub(pattern, " ", text, flags=re.I)
    words = table.get("words", {})
    if words:
        after = _alternation(table.get("counters", ()))
        pattern = rf"(?<!\w)({_alternation(words)})(?=\s|$|[^\w]{f'|{after}' if after else ''})"
        found += [words[m.group(1).lower()] for m in re.finditer(pattern, text, re.I)]
        text = re.sub(pattern, " ", text, flags=re.I)
    numerals = table.get("numerals", {})
    if numerals and table.get("numeral_counters"):
        pattern = rf"(?<!\w)({_alternation(numerals)})\s?(?=(?:{_alternation(table['numeral_counters'])})(?!\w))"
        found += [numerals[m.group(1)] for m in re.finditer(pattern, text)]
        text = re.sub(pattern, " ", text)
    found += [int(n) for n in _NUMBER.findall(text)]
    return found


def _numbers(ability: str, lang: str) -> list[int]:
    """The numbers of an ability that a translation keeps: 2 and more (a translation writes the 1
    of "a player" and "once" as 1명, 한 번), outside the setup bracket (compared on its own)."""
    return sorted(n for n in read_numbers(re.sub(r"\[[^\]]*\]", " ", ability), lang) if n >= 2)


def _differs(obj: dict, ch, db, resolve) -> str | None:
    """How an object's rule facts differ from the official character's (None: they agree): its
    team, the numbers of its ability or what its setup bracket does."""
    english = ch.texts.get(official())
    ability = obj.get("ability")
    team = obj.get("team", ch.team)
    team = _TEAM_SPELLINGS.get(team, team) if isinstance(team, str) else team
    if team != ch.team:
        return f"team: {team}, officially {ch.team}"
    if english is None or not isinstance(ability, str):
        return None  # nothing to compare: an object without an ability only names the character
    theirs = _numbers(english.ability, official())
    # a number the translation says in its text and again in its bracket ("외지인 2명이 추가로
    #참여합니다. [외지인 +2]") is the bracket's, where the official text says it only there
    bracketed = {abs(int(n)) for b in re.findall(r"\[[^\]]*\]", ability) for n in re.findall(r"\d+", b)}
    mine = [n for n in _numbers(ability, detect(ability, db.languages)) if n in theirs or n not in bracketed]
    if mine != theirs:
        return (f"numbers: {', '.join(map(str, mine)) or 'none'} in its ability, "
                f"{', '.join(map(str, theirs)) or 'none'} officially")
    names = [str(obj.get("name", "")), *(t.name for t in ch.texts.values())]
    own, base = read_brackets(ability, names, resolve), read_brackets(english.ability, names, resolve)
    if own.effect != base.effect:
        return f"setup bracket: {' '.join(own.brackets) or 'none'} reads otherwise than {' '.join(base.brackets)}"
    return None


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
            if key == "ability":
                new, counted = _KO_BRACKET_COUNT.subn(_with_counter, new)
                count[0] += counted
            mapped.append(new)
        out[key] = mapped[0] if isinstance(value, str) else mapped
    return out


# A community Korean setup bracket without the counter the official Korean writes: [외지인 +2] is
# officially [외지인 +2명], [외지인 -1 또는 +1] is [외지인 -1명 또는 +1명] (GLOSSARY-ko.md, setup).
_KO_BRACKET_COUNT = re.compile(r"\[(외지인|하수인|마을\s*주민|주민|악마)\s*([+\-−]\d+)(?!\s*명)"
                               r"(?:\s*(또는|~)\s*([+\-−]\d+)(?!\s*명))?\s*\]")


def _with_counter(match: re.Match[str]) -> str:
    team, first, sep, second = match.groups()
    return f"[{team} {first}명" + (f" {sep} {second}명" if second else "") + "]"


def migrate_script(data: Any, db, name: str = "script") -> Migration:
    """The migration of one script's JSON data (a list) with the database `db`; `name` is the
    script's name where its `_meta` has none (the file's name)."""
    if not isinstance(data, list):
        raise InputError("a script is a JSON array")
    out = Migration(before=data, after=[])
    teams = official_facts().teams

    # the script's own names of official characters: a community bracket names them so ("[+ 왕]")
    own_names = {entry["name"].strip(): found.id for entry in data
                 if isinstance(entry, dict) and isinstance(entry.get("id"), str) and entry.get("id") != "_meta"
                 and isinstance(entry.get("name"), str) and (found := _official(entry, db, teams)) is not None}

    def resolve(text: str):
        found = db.find(text)
        return found[0].id if len(found) == 1 else own_names.get(text.strip())

    for i, entry in enumerate(data):
        if not isinstance(entry, (str, dict)):
            out.lines.append(f"/{i}: {short(entry, 30)} is no character: left out")
            continue
        if isinstance(entry, dict) and entry.get("id") == "_meta":
            entry = _named_meta(entry, name, out.lines, i)
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
        extra = [key for key in entry if key not in CHARACTER_KEYS]
        if extra:
            entry = {k: v for k, v in entry.items() if k in CHARACTER_KEYS}
            out.lines.append(f"/{i} ({entry['id']}): {', '.join(map(repr, extra))} left out: the official format "
                             f"has no such key")
        if entry.get("team") in _TEAM_SPELLINGS:
            entry = {**entry, "team": _TEAM_SPELLINGS[entry["team"]]}
        own_name = entry.get("name") if isinstance(entry.get("name"), str) else None
        target = _official(entry, db, teams)
        count = [0]
        if target is None:  # homebrew: its own name, the official terms
            mapped = _map_terms(entry, db, count)
            out.after.append(mapped)
            if count[0]:
                out.terms += count[0]
                out.lines.append(f"/{i} ({entry['id']}): {count[0]} term(s) changed to the official ones")
            continue
        lang = detect(" ".join(_texts(entry.get("ability")) + [own_name or ""]), db.languages)
        # without the official texts in that language (no pack), the object's own name stays
        official_name = target.name(lang) if lang in target.texts or not own_name else own_name
        others = [c for c in db.find(own_name)] if own_name else []
        clash = [c for c in others if c.id != target.id and any(t.name == own_name for t in c.texts.values())]
        if clash:
            line = (f"/{i} ({entry['id']}): refused: '{own_name}' is the official name of {clash[0].id} "
                    f"({clash[0].name(official())}), not of {target.id}; rename it, then migrate again")
            out.collisions.append(line)
            out.after.append(entry)
            continue
        why = _differs(entry, target, db, resolve)
        if why is None:
            out.after.append(target.id)
            out.to_ids += 1
            out.lines.append(f"/{i} ({entry['id']}): a translation of {target.id} -> \"{target.id}\" "
                             f"(the app shows its own translation)")
            continue
        mapped = _map_terms({**entry, "id": target.id, **({"name": official_name} if own_name else {})}, db, count)
        out.terms += count[0]
        out.overrides += 1
        out.kept.append((target.id, why))
        out.after.append(mapped)
        renamed = f", name '{own_name}' -> '{official_name}'" if own_name and own_name != official_name else ""
        out.lines.append(f"/{i} ({entry['id']}): its rules differ from {target.id}'s ({why}): kept as an override"
                         f"{renamed}" + (f", {count[0]} term(s) changed" if count[0] else ""))
    return out


def _named_meta(meta: dict, name: str, lines: list[str], index: int) -> dict:
    """`_meta` with a name (the official format requires one): `name` where it has none."""
    if isinstance(meta.get("name"), str) and meta["name"].strip():
        return meta
    lines.append(f"/{index} (_meta): no name: named '{name}' (the official format requires one)")
    return {**meta, "name": name}


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
