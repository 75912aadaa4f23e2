"""Side-by-side texts of two languages, and comparison with an official-layout translation file."""

from pathlib import Path
import re

from scriptforge.model.rule_sets import SCRIPTED_GAME, scripted
from scriptforge.io.errors import InputError, NotFoundError
from scriptforge.model.glossary import apply_glossary
from scriptforge.io.userfiles import read_json
from scriptforge.l10n.provenance import previous_source, state
from scriptforge.l10n.units import character_units, game_units, layer_of, selected_units
from scriptforge.model.ids import normalize_id, token_id
from scriptforge.model.records import NIGHT_TABLE


def diff_rows(db, source: str, target: str, ids=(), games=None) -> list[dict]:
    """One row per unit: key, game, character, field, both texts and the target's state.

    `db` is the BotC database (None: left out), `games` the other games (id -> GameDatabase).
    IDS are looked up in BotC first, then in each game (id, Korean or English name)."""
    games = games or {}
    if ids:
        units = []
        for name in ids:
            game, item_id = _resolve(db, games, name)
            if scripted(game):
                units += character_units(db, item_id)
            else:
                units += [u for u in game_units(games[game]) if u.character == item_id]
    else:
        units = selected_units(db, games)
    rows = []
    for unit in units:
        row = {"key": unit.key, "game": unit.game, "character": unit.character, "field": unit.field,
               source: unit.text(source), target: unit.text(target), "state": state(db, unit, target),
               "layers": {lang: layer_of(db, unit, lang) for lang in (source, target)}}
        was = previous_source(db, unit, target) if row["state"] == "stale" else None
        if was is not None and was != row[source]:
            row["translated_from"] = was  # the source text this translation was made from
        for key in (source, target, "translated_from"):
            if isinstance(row.get(key), tuple):
                row[key] = list(row[key])
        rows.append(row)
    return rows


def _resolve(db, games: dict, name: str) -> tuple[str, str]:
    """(game, id) of the character, role, card or step `name` denotes, in the first game (BotC,
    then the others) where it names something; an ambiguous name there is an error."""
    sources = ([(SCRIPTED_GAME, db)] if db is not None else []) + list(games.items())
    for game, where in sources:
        if where.find(name):
            return game, where.resolve(name).id
    if not sources:
        raise NotFoundError(f"no character named '{name}'")
    sources[0][1].resolve(name)  # raises, with suggestions
    raise NotFoundError(f"no character named '{name}'")  # pragma: no cover


def read_official(path: Path) -> dict:
    """An official-layout translation file: {"roles": {id: {name, ability, ...}}, "reminders", "jinxes"}."""
    # deferred: start-up time
    from scriptforge.packs.build import check_source

    data = read_json(path)
    if not isinstance(data, dict) or not isinstance(data.get("roles"), dict):
        raise InputError("not a translation file: expected an object with a \"roles\" object", where=str(path))
    check_source(data, "translation", path)
    return data


#: The kinds of difference, in the order a translator should read them.
KINDS = ("missing", "wording", "term", "spacing", "unknown-character")
_SPACING = re.compile(r"[\s\W_]+")
#: Fields of an official role entry, and ours they compare with.
_ROLE_FIELDS = (("name", "name"), ("ability", "ability"), ("flavor", "flavor"),
                *((n.translation, n.reminder_field) for n in NIGHT_TABLE))
_STEP_FIELDS = (("name", "names"), *((n.translation, n.key) for n in NIGHT_TABLE))


def difference_kind(ours: str | None, theirs: str, terms: list[dict]) -> str:
    """missing (we have no text), spacing (only spaces and punctuation differ), term (only glossary
    variants differ, after which at most spacing does) or wording."""
    if ours is None:
        return "missing"
    if _SPACING.sub("", ours) == _SPACING.sub("", theirs):
        return "spacing"
    canonical = [_SPACING.sub("", apply_glossary(t, terms, None)[0]) for t in (ours, theirs)]
    return "term" if canonical[0] == canonical[1] else "wording"


def against(db, path: Path, lang: str) -> list[dict]:
    """Every difference between our `lang` texts and an official-layout translation file, in every
    field the file has (names, abilities, flavor, night reminders, night steps, reminder labels,
    jinxes), each with its kind (KINDS); sorted by kind, then in the file's order."""
    data = read_official(path)
    terms = db.glossary.get(lang, [])
    out = []

    def compare(row_id: str, field: str, mine, theirs) -> None:
        if isinstance(theirs, str) and theirs.strip() and theirs != mine:
            out.append({"id": row_id, "field": field, "ours": mine, "theirs": theirs,
                        "kind": difference_kind(mine, theirs, terms)})

    for raw_id, role in data.get("roles", {}).items():
        char_id = normalize_id(raw_id)
        role = role if isinstance(role, dict) else {}
        if char_id in db.steps:
            step = db.steps[char_id]
            for theirs_key, ours_key in _STEP_FIELDS:
                compare(f"step.{char_id}", "name" if ours_key == "names" else ours_key, getattr(step, ours_key).get(lang),
                        role.get(theirs_key))
            continue
        ch = db.characters.get(char_id)
        if ch is None:
            out.append({"id": raw_id, "field": None, "ours": None, "theirs": None, "kind": "unknown-character"})
            continue
        ours = ch.text(lang)
        for theirs_key, ours_key in _ROLE_FIELDS:
            compare(char_id, ours_key, getattr(ours, ours_key, None) if ours else None, role.get(theirs_key))
    labels = db.reminder_labels.get(lang, {})
    for key, value in (data.get("reminders") or {}).items():
        ch = db.characters.get(normalize_id(key))
        tokens = (*ch.reminders, *ch.reminders_global) if ch else ()  # the order packs/build.py reads them in
        if isinstance(value, str):
            pairs = [(token_id(key), value)]
        elif isinstance(value, list):
            pairs = list(zip(tokens, value))
        elif isinstance(value, dict):
            pairs = [(token_id(k), v) for k, v in value.items()]
        else:
            pairs = []
        for token, label in pairs:
            compare(f"reminder.{token}", "label", labels.get(token), label)
    jinxes = {j.key: j for j in db.jinxes}
    for key, theirs in (data.get("jinxes") or {}).items():
        jinx = jinxes.get(key) or jinxes.get("-".join(reversed(key.split("-"))))
        if jinx is not None:
            compare(jinx.key, "jinx", jinx.texts.get(lang), theirs)
    return sorted(out, key=lambda row: KINDS.index(row["kind"]))
