"""Every translatable text of the database as a *unit*: one key, its text in each language.

Unit keys are the msgctxt of the .po exchange and the keys of `Database.provenance`:

- ``<id>.<field>``: name, ability, flavor, overview, how_to_run, examples (lists as tuples),
  first_night_reminder, other_night_reminder;
- ``step.<step>.<name|first_night|other_nights>``: dusk, minion info, demon info, dawn;
- ``reminder.<token>``: reminder-token labels;
- ``jinx.<a-b>``: jinx texts;
- ``ui.<dotted.path>``: interface words (teams, editions, alignments, labels).

A unit exists when at least one language has its text.
"""

from dataclasses import dataclass
import hashlib

from scriptforge.names import LANGUAGES, NIGHT_STEPS

CHAR_FIELDS = ("name", "ability", "flavor", "overview", "how_to_run", "examples",
               "first_night_reminder", "other_night_reminder")
LIST_FIELDS = ("how_to_run", "examples")
STEP_FIELDS = ("name", "first_night", "other_nights")
# status groups, in report order
GROUPS = (*CHAR_FIELDS, "night_steps", "reminder_labels", "jinxes", "ui", "glossary")


@dataclass(frozen=True)
class Unit:
    key: str
    group: str  # one of GROUPS
    character: str | None  # character id, for per-character units
    field: str  # field name inside the unit's kind (ability, first_night, a token id, ...)
    texts: dict  # lang -> str, or tuple of str for list fields; absent where there is none

    def text(self, lang: str):
        return self.texts.get(lang)

    def flat(self, lang: str) -> str | None:
        """The text as one string (list items joined with a newline), None where there is none."""
        value = self.texts.get(lang)
        if isinstance(value, tuple):
            return "\n".join(value) if value else None
        return value


def other_language(lang: str) -> str:
    return next(other for other in LANGUAGES if other != lang)


def text_hash(value) -> str:
    """12 hex digits of the sha256 of a text (a list's items joined with a newline)."""
    if isinstance(value, (list, tuple)):
        value = "\n".join(value)
    return hashlib.sha256(value.encode("utf-8")).hexdigest()[:12]


def _leaves(tree, prefix=""):
    if isinstance(tree, dict):
        for key, value in tree.items():
            yield from _leaves(value, f"{prefix}.{key}" if prefix else str(key))
    elif isinstance(tree, str):
        yield prefix, tree


def character_units(db, char_id: str) -> list[Unit]:
    ch = db.characters[char_id]
    out = []
    for name in CHAR_FIELDS:
        texts = {}
        for lang, t in ch.texts.items():
            value = getattr(t, name)
            if value:
                texts[lang] = value
        if texts:
            out.append(Unit(f"{char_id}.{name}", name, char_id, name, texts))
    return out


def all_units(db) -> list[Unit]:
    """Every unit of the database, characters in sheet order, then steps, labels, jinxes, UI."""
    out = []
    for char_id in db.characters:
        out.extend(character_units(db, char_id))
    for step_id in NIGHT_STEPS:
        step = db.steps[step_id]
        for name, texts in (("name", step.names), ("first_night", step.first_night),
                            ("other_nights", step.other_nights)):
            if texts:
                out.append(Unit(f"step.{step_id}.{name}", "night_steps", None, name, dict(texts)))
    tokens = []
    for lang in LANGUAGES:
        tokens += [t for t in db.reminder_labels.get(lang, {}) if t not in tokens]
    for token in tokens:
        texts = {lang: db.reminder_labels[lang][token] for lang in LANGUAGES
                 if token in db.reminder_labels.get(lang, {})}
        out.append(Unit(f"reminder.{token}", "reminder_labels", None, token, texts))
    for jinx in db.jinxes:
        if jinx.texts:
            out.append(Unit(f"jinx.{jinx.key}", "jinxes", None, jinx.key, dict(jinx.texts)))
    paths: dict[str, dict] = {}
    for lang in LANGUAGES:
        for path, text in _leaves(db.ui.get(lang, {})):
            paths.setdefault(path, {})[lang] = text
    for path, texts in paths.items():
        out.append(Unit(f"ui.{path}", "ui", None, path, texts))
    return out


def glossary_keys(db, lang: str) -> set[str]:
    """What a language's glossary covers: character ids, and the English term of other entries."""
    keys = set()
    for term in db.glossary.get(lang, []):
        if term.get("character"):
            keys.add(term["character"])
        else:
            keys.add((term.get("en") or term["term"]).casefold())
    return keys
