"""Every translatable text of the database as a *unit*: one key, its text in each language.

Unit keys are the msgctxt of the .po exchange and the keys of `Database.provenance`:

- ``<id>.<field>``: name, ability, flavor, overview, how_to_run, examples (lists as tuples),
  first_night_reminder, other_night_reminder;
- ``step.<step>.<name|first_night|other_nights>``: dusk, minion info, demon info, dawn;
- ``reminder.<token>``: reminder-token labels;
- ``jinx.<a-b>``: jinx texts;
- ``ui.<dotted.path>``: interface words (teams, editions, alignments, labels).

The other games (Salem 1692, Werewolf, Mafia; `scriptforge.db.games`) have units of their own,
built by `game_units`, keyed with the game's id first:

- ``<game>.<role>.<name|text|notes>``: roles, cards, tokens (notes as tuples);
- ``<game>.<step>.<name|say|do|text|items>``: setup, turn, night and day steps;
- ``<game>.game.<dotted.path>``: the texts of ``<lang>/game.yaml`` (teams, kinds, sequences,
  setup notes, rule sections with their items as tuples);
- ``games.ui.<dotted.path>``: the sheet words all three games share.

They carry no provenance (the Korean texts are the seeds' own sentences, the English written
for the project): never stale, not confirmed, not in the .po exchange.

A unit exists when at least one language has its text.
"""

from dataclasses import dataclass

from scriptforge.model.rule_sets import SCRIPTED_GAME, scripted
from scriptforge.model.languages import codes, fallback_chain, official
from scriptforge.model.records import NIGHTS, TEXT_FIELDS
from scriptforge.model.ids import NIGHT_STEPS, neutral_label

CHAR_FIELDS = TEXT_FIELDS
# status groups, in report order
GROUPS = (*CHAR_FIELDS, "night_steps", "reminder_labels", "jinxes", "ui", "glossary")
ROLE_FIELDS = ("name", "text", "notes")
GAME_STEP_FIELDS = ("name", "say", "do", "text", "items")
#: Where the sheet words shared by the other games sit among the units (not a game of its own).
SHARED_UI = "games"


@dataclass(frozen=True)
class Unit:
    """One translatable text (see the module docstring): its key, its group, character,
    field and game, and its text in each language."""

    key: str
    group: str  # one of GROUPS
    character: str | None  # character id, for per-character units
    field: str  # field name inside the unit's kind (ability, first_night, a token id, ...)
    texts: dict  # lang -> str, or tuple of str for list fields; absent where there is none
    game: str = SCRIPTED_GAME  # botc, salem, werewolf, mafia, or "games" for the shared sheet words

    def text(self, lang: str):
        return self.texts.get(lang)

    def flat(self, lang: str) -> str | None:
        """The text as one string (list items joined with a newline), None where there is none."""
        value = self.texts.get(lang)
        if isinstance(value, tuple):
            return "\n".join(value) if value else None
        return value


def source_language(unit: "Unit", lang: str, db=None) -> str | None:
    """The language `unit`'s text in `lang` is translated from: the recorded source, else the
    first language along the registry's fallbacks that has the text."""
    recorded = db.provenance.get(lang, {}).get(unit.key) if db is not None else None
    if recorded:
        return recorded[0]
    return next((other for other in fallback_chain(lang) if other != lang and unit.text(other) is not None), None)


#: The layer of the built-in data (as `show --format json`'s text_layers names it).
BUILT_IN = "scriptforge"


def layer_of(db, unit: Unit, lang: str) -> str | None:
    """The layer `unit`'s text in `lang` comes from: the built-in data ("scriptforge"), a data
    pack's name, or the user's translation layer ("translations"); None where it has no text.
    The other games' texts are all built-in."""
    if unit.text(lang) is None:
        return None
    if db is None or not scripted(unit.game):
        return BUILT_IN
    return db.unit_layers.get(lang, {}).get(unit.key, BUILT_IN)


def layer_order(db) -> tuple[str, ...]:
    """Every layer's name, the top one (the one whose texts win) first."""
    return (*reversed([name for name, _ in (db.packs if db is not None else ())]), BUILT_IN)


def unit_languages(db, units) -> tuple[str, ...]:
    """The languages of the database (else of the units' texts), in registry order."""
    if db is not None:
        return db.languages
    found = {lang for unit in units for lang in unit.texts}
    return tuple(code for code in codes() if code in found)


_KINDS = {"first_night_reminder": "night", "other_night_reminder": "night", "night_steps": "night",
          "reminder_labels": "reminders"}


def kind_of(unit: Unit) -> str:
    """The kind of text a unit holds, as a glossary's `wrong_in` names it (scriptforge.model.glossary):
    a character field's name, night, reminders, jinxes or ui. The other games' texts are names,
    sheet words (ui) or rule prose (overview)."""
    if scripted(unit.game):
        return _KINDS.get(unit.group, unit.group)
    if unit.game == SHARED_UI:
        return "ui"
    return "name" if unit.field == "name" else "overview"


def _leaves(tree, prefix="", lists=False):
    """(dotted path, text) for every string of a tree; with `lists`, lists of strings as tuples."""
    if isinstance(tree, dict):
        for key, value in tree.items():
            yield from _leaves(value, f"{prefix}.{key}" if prefix else str(key), lists)
    elif isinstance(tree, str):
        yield prefix, tree
    elif lists and isinstance(tree, list) and tree and all(isinstance(x, str) for x in tree):
        yield prefix, tuple(tree)


def _field_texts(per_language: dict, name: str) -> dict[str, object]:
    """{lang: value} of one field across a record's languages, leaving out empty ones."""
    return {lang: getattr(t, name) for lang, t in per_language.items() if getattr(t, name)}


def character_units(db, char_id: str) -> list[Unit]:
    ch = db.characters[char_id]
    out = []
    for name in CHAR_FIELDS:
        texts = _field_texts(ch.texts, name)
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
        for name, texts in (("name", step.names), *((n, getattr(step, n)) for n in NIGHTS)):
            if texts:
                out.append(Unit(f"step.{step_id}.{name}", "night_steps", None, name, dict(texts)))
    tokens = []
    for lang in db.languages:
        tokens += [t for t in db.reminder_labels.get(lang, {}) if t not in tokens]
    for token in tokens:
        texts = {lang: db.reminder_labels[lang][token] for lang in db.languages
                 if token in db.reminder_labels.get(lang, {})}
        if all(neutral_label(label) for label in texts.values()):
            continue  # "?", "1", "X": the same mark in every language, nothing to translate
        out.append(Unit(f"reminder.{token}", "reminder_labels", None, token, texts))
    for jinx in db.jinxes:
        if jinx.texts:
            out.append(Unit(f"jinx.{jinx.key}", "jinxes", None, jinx.key, dict(jinx.texts)))
    paths: dict[str, dict] = {}
    for lang in db.languages:
        for path, text in _leaves(db.ui.get(lang, {})):
            paths.setdefault(path, {})[lang] = text
    for path, texts in paths.items():
        out.append(Unit(f"ui.{path}", "ui", None, path, texts))
    return out


def glossary_keys(db, lang: str) -> set[str]:
    """What a language's glossary covers: character ids, and the English term of other entries."""
    keys = set()
    for term in db.glossary.get(lang, []):
        if term.get("reminder"):
            continue  # a reminder token's name in rule texts; the labels are units of their own
        if term.get("character"):
            keys.add(term["character"])
        else:
            keys.add((term.get(official()) or term["term"]).casefold())
    return keys


# -- the other games --------------------------------------------------------------------------


def _item_units(game: str, item, fields, group: str) -> list[Unit]:
    out = []
    for name in fields:
        texts = _field_texts(item.texts, name)
        if texts:
            out.append(Unit(f"{game}.{item.id}.{name}", group, item.id, name, texts, game))
    return out


def _tree_units(prefix: str, trees: dict, group: str, game: str) -> list[Unit]:
    paths: dict[str, dict] = {}
    for lang in (code for code in codes() if code in trees):
        for path, text in _leaves(trees.get(lang) or {}, lists=True):
            paths.setdefault(path, {})[lang] = text
    return [Unit(f"{prefix}.{path}", group, None, path, texts, game) for path, texts in paths.items()]


def game_units(gdb) -> list[Unit]:
    """Every unit of one other game: roles in the data's order, then steps, then game texts."""
    game = gdb.id
    out = []
    for role in gdb.roles.values():
        out.extend(_item_units(game, role, ROLE_FIELDS, f"{game}.roles"))
    for step in gdb.steps.values():
        out.extend(_item_units(game, step, GAME_STEP_FIELDS, f"{game}.steps"))
    out.extend(_tree_units(f"{game}.game", gdb.texts, f"{game}.game", game))
    return out


def shared_ui_units(gdb) -> list[Unit]:
    """The sheet words the other games share (data/games/<lang>/ui.yaml), from any one game."""
    return _tree_units(f"{SHARED_UI}.ui", gdb.ui, f"{SHARED_UI}.ui", SHARED_UI)


def selected_units(db, games: dict) -> list[Unit]:
    """The units of the BotC database `db` (None: left out) and of the other games in `games`."""
    out = all_units(db) if db is not None else []
    for gdb in games.values():
        out.extend(game_units(gdb))
    if games:
        out.extend(shared_ui_units(next(iter(games.values()))))
    return out
