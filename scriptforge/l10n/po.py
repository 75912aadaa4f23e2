"""Exchange with translation platforms (Weblate, Poedit, pofilter) as gettext .po files
(read and written by `l10n/pofile.py`, strictly, as msgfmt checks them).

One entry per text unit: msgctxt is the unit key (`imp.ability`, list items `imp.how_to_run.2`,
`imp.first_night_reminder`, `step.dusk.name`, `reminder.safe`, `jinx.widow-damsel`,
`ui.teams.minion.name`), msgid the source-language text, msgstr the target-language text.
A stale translation is exported as fuzzy, with the source it was made from as `#| msgid` where
that is recorded (our data keeps it beside the hash, a pack in `<lang>/sources.yaml`; of a list,
only the items that changed are fuzzy); fuzzy and empty entries are not imported.

Import checks everything before it writes anything: a malformed file, an unknown character,
field, token, jinx or UI path, or a result that breaks a data file's schema is refused with the
file and line (exit 2), and no data file changes. Files whose content does not change are not
written, so importing an export changes nothing, byte for byte.
"""

from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from scriptforge.io.errors import DataError, InputError
from scriptforge.io.userfiles import read_bytes, too_long, value_problem
from scriptforge.l10n.provenance import STALE, YamlDoc, previous_source, set_sources, slot, state, write_docs
from scriptforge.l10n.units import CHAR_FIELDS, all_units
from scriptforge.model.records import LIST_FIELDS, NIGHT_OF_FIELD, NIGHTS
from scriptforge.model.languages import get as get_language, official, resolve, translation_source
from scriptforge.model.ids import NIGHT_STEPS
from scriptforge import __version__
from scriptforge.io.datafiles import PARTIAL, validate
from scriptforge.db.translations import is_partial
from scriptforge.l10n.provenance import schema_for

_FIXED_DATE = "2000-01-01 00:00+0000"  # same input, same bytes
_HEADER = "scriptforge texts for Blood on the Clocktower: {source} -> {target}.\n" \
          "msgctxt is the text's key; see 'scriptforge l10n export --help'."


def _source(db: Any, lang: str) -> str:
    """The language the .po file of `lang` translates from (the first of its fallbacks we have)."""
    source = translation_source(lang, db.languages)
    if source is None:
        raise InputError(f"no other language to translate '{lang}' from")
    return source


def export_po(db, lang: str) -> bytes:
    """The .po file translating `lang` from the other language."""
    # deferred: start-up time
    from scriptforge.l10n import pofile

    source = _source(db, lang)
    language = get_language(lang)
    header = {"Project-Id-Version": f"scriptforge {__version__}",
              "POT-Creation-Date": _FIXED_DATE, "PO-Revision-Date": _FIXED_DATE,
              "Last-Translator": "scriptforge", "Language-Team": f"{language.name} <{language.translation_file}>",
              "Language": language.translation_file, "MIME-Version": "1.0",
              "Content-Type": "text/plain; charset=UTF-8", "Content-Transfer-Encoding": "8bit",
              "Plural-Forms": language.plural_forms, "X-Generator": f"scriptforge {__version__}",
              "X-Source-Language": get_language(source).translation_file}
    entries = []
    for unit in all_units(db):
        src, tgt = unit.text(source), unit.text(lang)
        if src is None:
            continue
        stale = state(db, unit, lang) == STALE
        flags = ("fuzzy",) if stale else ()
        was = previous_source(db, unit, lang) if stale else None  # the source the translation was made from
        label = db.characters[unit.character].name(official()) if unit.character else None
        comment = [f"{label}: {unit.field}"] if label else []
        if unit.field in LIST_FIELDS:
            tgt = tgt or ()
            note = [f"{source} has {len(src)} items, {lang} {len(tgt)}"] if len(src) != len(tgt) else []
            old = tuple(was) if isinstance(was, (list, tuple)) else None
            for i, item in enumerate(src):
                before = old[i] if old is not None and i < len(old) else None
                # with the old list known, only the items that changed are fuzzy
                fuzzy = flags if old is None or before != item else ()
                entries.append(pofile.Entry(item, tgt[i] if i < len(tgt) else "", f"{unit.key}.{i + 1}",
                                            comment + note, fuzzy, before))
        else:
            entries.append(pofile.Entry(src, tgt or "", unit.key, comment, flags,
                                        was if isinstance(was, str) else None))
    return pofile.write(header, entries, _HEADER.format(source=source, target=lang))


@dataclass(frozen=True)
class TextChange:
    """An entry of a .po file that changes one of our texts (edit.Change is a script's change)."""

    key: str  # unit key
    index: int | None  # list item (0-based) or None
    text: str
    msgid: str
    line: int


def _fail(path: str | Path, line: int, message: str) -> NoReturn:
    raise InputError(message, where=f"{path}:{line}")


def read_changes(db, path: Path, lang: str | None = None) -> tuple[str, list[TextChange]]:
    """The language and the entries of a .po file that change our texts; InputError on any problem."""
    # deferred: start-up time
    from scriptforge.l10n import pofile

    raw = read_bytes(path)
    try:
        header, entries = pofile.read(raw)
    except pofile.PoSyntaxError as exc:
        _fail(path, exc.line, f"malformed .po file: {exc}")
    lang = lang or resolve(header.get("Language", "")) or None
    if lang is None or lang not in db.languages:
        _fail(path, 1, f"language {header.get('Language') if lang is None else lang!r} is not one of "
                       f"{', '.join(db.languages)}; set the header's Language or pass --lang")
    units = {u.key: u for u in all_units(db)}
    changes: list[TextChange] = []
    for message in entries:
        line = message.line
        if not message.msgctxt:
            _fail(path, line, f"entry {message.msgid[:30]!r} has no msgctxt (the key of the text)")
        key, index = _parse_key(db, message.msgctxt, lang, path, line)
        if not message.msgstr or message.fuzzy:
            continue
        problem = value_problem(message.msgstr) or too_long(message.msgstr) or too_long(message.msgid)
        if problem:
            _fail(path, line, f"entry {message.msgctxt!r}: {problem}")
        unit = units.get(key)
        current = unit.text(lang) if unit else None
        if index is not None:
            current = current[index] if current and index < len(current) else None
        if message.msgstr != current:
            changes.append(TextChange(key, index, message.msgstr, message.msgid, line))
    return lang, changes


def _parse_key(db, context: str, lang: str, path, line) -> tuple[str, int | None]:
    parts = context.split(".")
    kind = parts[0]
    if kind == "step":
        if len(parts) != 3 or parts[1] not in NIGHT_STEPS or parts[2] not in ("name", *NIGHTS):
            _fail(path, line, f"msgctxt {context!r}: not a night step text (step.<dusk|minioninfo|demoninfo|dawn>."
                              "<name|first_night|other_nights>)")
        return context, None
    if kind == "reminder":
        tokens = {t for ch in db.characters.values() for t in (*ch.reminders, *ch.reminders_global)}
        tokens |= {t for table in db.reminder_labels.values() for t in table}
        if len(parts) != 2 or parts[1] not in tokens:
            _fail(path, line, f"msgctxt {context!r}: unknown reminder token")
        return context, None
    if kind == "jinx":
        if len(parts) != 2 or parts[1] not in {j.key for j in db.jinxes}:
            _fail(path, line, f"msgctxt {context!r}: no such jinx pair in data/jinxes.yaml")
        return context, None
    if kind == "ui":
        node = db.ui.get(translation_source(lang, db.languages) or lang, {})
        for step in parts[1:]:
            node = node.get(step) if isinstance(node, dict) else None
        if not isinstance(node, str):
            _fail(path, line, f"msgctxt {context!r}: no such UI string")
        return context, None
    if kind not in db.characters:
        hint = db.suggest(kind)
        _fail(path, line, f"msgctxt {context!r}: unknown character '{kind}'"
                          + (f"; did you mean {', '.join(hint)}?" if hint else ""))
    if len(parts) < 2 or parts[1] not in CHAR_FIELDS:
        _fail(path, line, f"msgctxt {context!r}: unknown field; one of {', '.join(CHAR_FIELDS)}")
    field = parts[1]
    if field in LIST_FIELDS:
        if len(parts) != 3 or not parts[2].isdigit() or int(parts[2]) < 1:
            _fail(path, line, f"msgctxt {context!r}: a list item needs its number ({parts[0]}.{field}.1)")
        return f"{parts[0]}.{field}", int(parts[2]) - 1
    if len(parts) != 2:
        _fail(path, line, f"msgctxt {context!r}: unknown field")
    if field in NIGHT_OF_FIELD:
        night = NIGHT_OF_FIELD[field].key
        order = db.night_order(night)
        if parts[0] not in order and night not in db.characters[parts[0]].night:
            _fail(path, line, f"msgctxt {context!r}: {parts[0]} does not wake on the {night.replace('_', ' ')}")
    return context, None


def apply_changes(db, lang: str, changes: list[TextChange], path, root: Path | None = None) -> list[Path]:
    """Write the changes into the data folder `root` (default: the database's), with provenance
    (the hash of the msgid they translate); all or nothing. A layer of partial texts (the user's
    translation layer) holds only what changed: the rest of a character's texts comes from below."""
    root = Path(root or db.data_dir)
    partial = is_partial(root)
    source = _source(db, lang)
    units = {u.key: u for u in all_units(db)}
    docs: dict[Path, YamlDoc] = {}
    sources: dict[Path, dict] = {}
    lists: dict[str, list] = {}
    for change in sorted(changes, key=lambda c: (c.key, c.index or 0)):
        where = slot(root, lang, change.key)
        doc = docs.get(where.path) or docs.setdefault(where.path, YamlDoc.read(where.path))
        unit = units.get(change.key)
        src = unit.text(source) if unit else None
        if change.index is not None:
            items = lists.setdefault(change.key, list((unit.text(lang) if unit else None) or ()))
            if change.index > len(items):
                _fail(path, change.line, f"msgctxt '{change.key}.{change.index + 1}': item {change.index} "
                                         f"is missing in {lang}; translate the items in order")
            items[change.index:change.index + 1] = [change.text]
            _set(doc, where, lang, change.key, list(items), db)
            src_items = list(src or ())
            if change.index < len(src_items):
                src_items[change.index] = change.msgid
            basis: str | list[str] = src_items
        else:
            _set(doc, where, lang, change.key, change.text, db)
            basis = change.msgid
        sources.setdefault(where.path, {})[where.hash_key] = basis
    for doc_path, table in sources.items():
        set_sources(docs[doc_path], source, table)
    first_line: dict[Path, int] = {}

    def has_texts(char_id: str) -> bool:  # the character has `lang` texts below a partial layer
        return partial and char_id in db.characters and lang in db.characters[char_id].texts

    for change in changes:
        first_line.setdefault(slot(root, lang, change.key).path, change.line)
        char_id, field = change.key.split(".", 1)
        if field.endswith("_reminder") and lang not in db.characters[char_id].texts and \
                (root / lang / "characters" / f"{char_id}.yaml") not in docs:
            _fail(path, change.line, f"{char_id} has no {lang} texts: translate its name and ability too")
    for doc in docs.values():
        if doc.path.parent.name == "characters" and not {"name", "ability"} <= set(doc.data) \
                and not has_texts(doc.path.stem):
            _fail(path, first_line[doc.path], f"{doc.path.stem} has no {lang} texts yet: translate its name "
                                              "and ability in the same file")
        try:
            validate(doc.data, _schema(doc.path) + (PARTIAL if partial else ""), doc.path)
        except DataError as exc:
            raise InputError(f"the import would make an invalid data file: {exc}", where=str(path)) from None
    return write_docs(list(docs.values()), root, partial=partial)


def _schema(path: Path) -> str:
    return schema_for(path)


def _set(doc: YamlDoc, where, lang, key, value, db) -> None:
    kind, _, rest = key.partition(".")
    data = doc.data
    if kind == "step":
        step, field = rest.split(".")
        data.setdefault("steps", {}).setdefault(step, {})[field] = value
    elif kind in ("reminder", "jinx"):
        data[rest] = value
    elif kind == "ui":
        *parents, leaf = rest.split(".")
        node = data
        for parent in parents:
            node = node.setdefault(parent, {})
        node[leaf] = value
    elif rest in NIGHT_OF_FIELD:
        night = NIGHT_OF_FIELD[rest].key
        data.setdefault("steps", {})
        table = data.setdefault(night, {})
        if kind not in table:
            order = list(db.night_order(night))
            pos = {c: i for i, c in enumerate(order)}
            items = list(table.items()) + [(kind, value)]
            if all(c in pos for c, _ in items):
                items.sort(key=lambda kv: pos[kv[0]])
            table.clear()
            table.update(items)
        table[kind] = value
    else:
        data[rest] = value
        ordered = {k: data[k] for k in ("name", "aliases", *CHAR_FIELDS, "translated_from") if k in data}
        data.clear()
        data.update(ordered)


def import_po(db, path: Path, lang: str | None = None, root: Path | None = None) -> tuple[str, list[TextChange], list[Path]]:
    """Read a .po file and write what it changes into the data folder `root` (default: the
    database's own)."""
    lang, changes = read_changes(db, path, lang)
    written = apply_changes(db, lang, changes, path, root) if changes else []
    return lang, changes, written
