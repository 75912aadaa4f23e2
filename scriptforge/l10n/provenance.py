"""Where a translation came from: per text unit, the hash of the source text it was translated
from and that source text itself, kept in a `translated_from: {lang, hashes, texts}` block of the
file that holds the translation (the text is what a translator is shown as the previous source,
`#| msgid`, once the source changes; a hash recorded without its text still marks the unit stale).

- data/<lang>/characters/<id>.yaml: hashes keyed by field (ability, flavor, how_to_run, ...);
- data/<lang>/night.yaml: keyed "first_night.<id>", "other_nights.<id>", "steps.<step>.<field>";
- data/<lang>/reminders.yaml: keyed by token id; data/<lang>/jinxes.yaml: keyed "a-b";
- data/<lang>/ui.yaml: keyed by dotted path ("teams.minion.name").

A unit is *stale* when the source text's hash no longer matches the recorded one (the source was
edited after the translation was made). Texts without a block are originals, never stale.
"""

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from scriptforge.model.rule_sets import scripted
from scriptforge.io.fileio import dump_yaml, locked, write_files
from scriptforge.model.ids import text_hash
from scriptforge.l10n.units import CHAR_FIELDS, Unit, all_units, source_language, unit_languages
from scriptforge.model.languages import translation_source
from scriptforge.model.records import NIGHT_OF_FIELD
from scriptforge.db.loading import pending_problems
from scriptforge.io.datafiles import PARTIAL, validate
from scriptforge.io.errors import InputError, ScriptforgeError
from scriptforge.l10n.units import BUILT_IN, GROUPS, glossary_keys, layer_of, selected_units
from scriptforge.db.translations import NAME as USER_LAYER, is_partial

TRANSLATED, MISSING, STALE = "translated", "missing", "stale"
STALE_OFFICIAL = "stale_official"  # of `stale`: official pack texts, which l10n check leaves to upstream


def state(db, unit: Unit, lang: str) -> str | None:
    """translated, missing (the other language has it, this one not), stale, or None (neither)."""
    if unit.text(lang) is None:
        return MISSING if unit.texts else None
    recorded = _recorded(db, unit, lang)
    if recorded:
        source, digest = recorded
        value = unit.text(source)
        if value is None or text_hash(value) != digest:
            return STALE
    return TRANSLATED


def source_of(db, unit: Unit, lang: str) -> str | None:
    """The language `lang`'s text of `unit` was translated from, if recorded."""
    recorded = _recorded(db, unit, lang)
    return recorded[0] if recorded else None


def previous_source(db, unit: Unit, lang: str) -> str | tuple[str, ...] | None:
    """The source text `lang`'s translation of `unit` was made from, where it is known: what our
    data records beside the hash, else the English a pack's official translation was made from
    (`<lang>/sources.yaml`); only a text whose hash is the recorded one (a later layer may record
    a newer hash without its text)."""
    recorded = _recorded(db, unit, lang)
    if not recorded:
        return None
    for table in (db.source_texts, db.official_sources):
        text = table.get(lang, {}).get(unit.key)
        if text is not None and text_hash(text) == recorded[1]:
            return text
    return None


def _recorded(db, unit: Unit, lang: str):
    """(source lang, hash) recorded for a BotC unit; the other games' texts record none."""
    if not scripted(unit.game) or db is None:
        return None
    return db.provenance.get(lang, {}).get(unit.key)


# -- where a unit's provenance is written -------------------------------------------------


@dataclass(frozen=True)
class Slot:
    """Where a text unit's provenance is written: the file holding the translation, its key in that
    file's `translated_from.hashes` and its place in their order."""

    path: Path  # the file holding the translation
    hash_key: str  # key inside its translated_from.hashes
    order: int  # position for a stable order of hashes


def slot(root: Path, lang: str, key: str) -> Slot:
    kind, _, rest = key.partition(".")
    if kind == "step":
        return Slot(root / lang / "night.yaml", f"steps.{rest}", 0)
    if kind == "reminder":
        return Slot(root / lang / "reminders.yaml", rest, 0)
    if kind == "jinx":
        return Slot(root / lang / "jinxes.yaml", rest, 0)
    if kind == "ui":
        return Slot(root / lang / "ui.yaml", rest, 0)
    char_id, field = kind, rest
    if field in NIGHT_OF_FIELD:
        night = NIGHT_OF_FIELD[field].key
        return Slot(root / lang / "night.yaml", f"{night}.{char_id}", 0)
    return Slot(root / lang / "characters" / f"{char_id}.yaml", field, CHAR_FIELDS.index(field))


class YamlDoc:
    """A data file as its leading comment lines plus its data; written back in the same layout
    (the shipped files are exactly `dump_yaml` of their data below the comment header)."""

    def __init__(self, path: Path, data=None, header: str = ""):
        self.path, self.data, self.header = path, data, header

    @classmethod
    def read(cls, path: Path) -> "YamlDoc":
        if not path.exists():
            return cls(path, {}, "")
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines(keepends=True)
        n = 0
        while n < len(lines) and lines[n].startswith("#"):
            n += 1
        return cls(path, yaml.safe_load(text) or {}, "".join(lines[:n]))

    def dumps(self) -> str:
        return self.header + dump_yaml(self.data)


def _order_hashes(hashes: dict, path: Path) -> dict:
    if path.parent.name == "characters":
        return {k: hashes[k] for k in sorted(hashes, key=CHAR_FIELDS.index)}
    return dict(sorted(hashes.items()))


def set_sources(doc: YamlDoc, source: str, texts: dict[str, str | list[str] | tuple[str, ...]]) -> None:
    """Record `texts` (hash key -> the source text translated) in the document's translated_from
    block (kept last in the file): each text's hash, and the text beside it. A text kept from
    before whose hash is no longer the recorded one is dropped."""
    block = doc.data.pop("translated_from", None) or {"lang": source, "hashes": {}}
    hashes = _order_hashes({**block["hashes"], **{key: text_hash(text) for key, text in texts.items()}}, doc.path)
    kept = {**block.get("texts", {}), **{key: text if isinstance(text, str) else list(text)
                                         for key, text in texts.items()}}
    doc.data["translated_from"] = {"lang": source, "hashes": hashes}
    kept = {key: kept[key] for key in hashes if key in kept and text_hash(kept[key]) == hashes[key]}
    if kept:
        doc.data["translated_from"]["texts"] = kept


@contextmanager
def editing_data(load: Callable[[], Any], folder: Path | None = None) -> Iterator[Any]:
    """The database for a command that changes the data files of `folder` (default: the
    database's data folder), loaded again while that folder's lock is held: what the command
    changes is what is on disk now, and a second command changing it at the same time waits."""
    with locked(folder or load().data_dir):
        yield load()


def write_docs(docs: list[YamlDoc], root: Path, partial: bool = False) -> list[Path]:
    """Validate every document against its schema (`partial`: with its required fields lifted),
    then write those whose bytes change, all or nothing (`root`, the data folder, keeps the
    journal; see fileio.write_files). A whole data folder (not `partial`) is first checked as it
    would be afterwards: a change that leaves it inconsistent writes nothing."""
    for doc in docs:
        validate(doc.data, schema_for(doc.path) + (PARTIAL if partial else ""), doc.path)
    changed = {}
    for doc in docs:
        text = doc.dumps()
        old = doc.path.read_text(encoding="utf-8") if doc.path.exists() else None
        if text != old:
            changed[doc.path] = text.encode("utf-8")
    problems = [] if partial else pending_problems(root, {doc.path: doc.data for doc in docs if doc.path in changed})
    if problems:  # e.g. a pack character's text, which the data folder alone does not define
        raise InputError(f"nothing written: the change would leave the data folder {root} inconsistent "
                         f"({problems[0]}{f'; and {len(problems) - 1} more' if len(problems) > 1 else ''})")
    write_files(changed, root)
    return list(changed)


def schema_for(path: Path) -> str:
    if path.parent.name == "characters":
        return "texts"
    return {"night.yaml": "night_texts", "reminders.yaml": "reminders", "jinxes.yaml": "jinx_texts",
            "ui.yaml": "ui", "glossary.yaml": "glossary"}[path.name]


# -- confirming ------------------------------------------------------------------------------


def plan_confirm(db, lang: str | None = None, keys=None) -> list[tuple[str, str, str]]:
    """(translation lang, unit key, source lang) to stamp.

    With `keys`, those units in `lang`. Otherwise every unit that already records a source is
    re-stamped; units that record none in either language are stamped as translations into
    `lang` (default: into English from Korean first, then into Korean from English), except where
    the source text is itself recorded as a translation from that language (no cycles).
    """
    units = {u.key: u for u in all_units(db)}
    plan: list[tuple[str, str, str]] = []
    recorded = {(l, k) for l in db.provenance for k in db.provenance[l]}
    if keys is not None:
        assert lang is not None, "units named by key are confirmed in one language"
        for key in keys:
            unit = units[key]
            source = source_of(db, unit, lang) or source_language(unit, lang, db) or translation_source(lang, db.languages)
            if source is not None:
                plan.append((lang, key, source))
        return plan
    targets = [lang] if lang else list(db.languages)
    for target in targets:
        source = translation_source(target, db.languages)
        for unit in units.values():
            if source is None or unit.text(target) is None or unit.text(source) is None:
                continue
            if (target, unit.key) in recorded:
                plan.append((target, unit.key, db.provenance[target][unit.key][0]))
            elif (source, unit.key) not in recorded:
                plan.append((target, unit.key, source))
                recorded.add((target, unit.key))
    return plan


def confirm(db, plan: list[tuple[str, str, str]], root: Path | None = None) -> list[Path]:
    """Record the current source text (and its hash) for each planned unit in the data folder
    `root` (default: the database's); returns the files written. In a layer of partial texts (the
    user's translation layer) a file holds just the record: the texts stay where they are."""
    root = Path(root or db.data_dir)
    units = {u.key: u for u in all_units(db)}
    docs: dict[Path, YamlDoc] = {}
    per_doc: dict[Path, tuple[str, dict]] = {}
    for lang, key, source in plan:
        value = units[key].text(source)
        if value is None or units[key].text(lang) is None:
            continue
        where = slot(root, lang, key)
        if where.path not in docs:
            docs[where.path] = YamlDoc.read(where.path)
            per_doc[where.path] = (source, {})
        per_doc[where.path][1][where.hash_key] = value
    for path, (source, texts) in per_doc.items():
        set_sources(docs[path], source, texts)
    return write_docs(list(docs.values()), root, partial=is_partial(root))


def status(db, games=None) -> dict:
    """{lang: {group: {translated, missing, stale, layers}}} for every unit, plus the glossary
    (without layers); `layers` counts the texts per layer they come from (l10n.units.layer_of);
    `stale_official`, where there are any, how many of the stale texts an official pack gives
    (`l10n check` lists those only with --include-official, as upstream's).

    `db` is the BotC database (None: left out); `games` maps other games' ids to their
    `GameDatabase`, whose units follow in groups `<game>.roles`, `<game>.steps`, `<game>.game`
    and `games.ui`.
    """
    games = games or {}
    units = selected_units(db, games)
    groups = list(GROUPS) if db is not None else []
    groups += [u.group for u in units if not scripted(u.game) and u.group not in groups]
    langs = unit_languages(db, units)
    out: dict = {lang: {g: {TRANSLATED: 0, MISSING: 0, STALE: 0, **({} if g == "glossary" else {"layers": {}})}
                        for g in groups} for lang in langs}
    for unit in units:
        for lang in langs:
            cell = out[lang][unit.group]
            st = state(db, unit, lang)
            layer = layer_of(db, unit, lang)
            if st == STALE:
                cell[TRANSLATED] += 1
                cell[STALE] += 1
                if layer not in (None, BUILT_IN, USER_LAYER) and unit.key in db.pack_units.get(lang, ()):
                    # upstream's: `l10n check` lists it only with --include-official
                    cell[STALE_OFFICIAL] = cell.get(STALE_OFFICIAL, 0) + 1
            elif st:
                cell[st] += 1
            if layer is not None:
                cell["layers"][layer] = cell["layers"].get(layer, 0) + 1
    if db is None:
        return out
    keys = {lang: glossary_keys(db, lang) for lang in langs}
    for lang in langs:
        others = set().union(*(keys[other] for other in langs if other != lang))
        out[lang]["glossary"][TRANSLATED] = len(keys[lang])
        out[lang]["glossary"][MISSING] = len(others - keys[lang])
    return out


def confirm_command(db, name: str | None, field: str | None, lang: str | None, all_: bool,
                    root: Path | None = None):
    """What `l10n confirm` does: (files written into the data folder `root`, number of texts confirmed)."""
    if all_:
        if name or field:
            raise ScriptforgeError("give either ID FIELD or --all, not both")
        plan = plan_confirm(db, lang)
        return confirm(db, plan, root), len(plan)
    if not (name and field):
        raise ScriptforgeError("give ID and FIELD (e.g. 'imp ability'), or --all")
    if name in ("step", "reminder", "jinx", "ui"):
        key = f"{name}.{field}"
    else:
        key = f"{db.resolve(name).id}.{field}"
    units = {u.key: u for u in all_units(db)}
    if key not in units:
        raise ScriptforgeError(f"no text '{key}'; fields: name, ability, flavor, overview, how_to_run, "
                               "examples, first_night_reminder, other_night_reminder")
    if lang is None:
        recorded = [l for l in db.languages if key in db.provenance.get(l, {})]
        if len(recorded) != 1:
            raise ScriptforgeError(f"'{key}': say which language is the translation with --lang")
        lang = recorded[0]
    unit = units[key]
    source = source_language(unit, lang, db)
    if unit.text(lang) is None or source is None:
        raise ScriptforgeError(f"'{key}' needs a text in both languages to be confirmed")
    plan = plan_confirm(db, lang, [key])
    return confirm(db, plan, root), len(plan)
