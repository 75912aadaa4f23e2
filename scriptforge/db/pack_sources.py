"""The English source of each official translation a pack holds, and which translations went stale.

The official translation files say nothing about the English a text was translated from; only
comparing with it shows that a translation describes an older rule. So a pack keeps, per language,
`<lang>/sources.yaml`: for every translated text unit (`imp.ability`, `reminder.redherring`,
`jinx.widow-damsel`, `step.dusk.name`, ...) the hash and the text of the English it was made from
and the hash of the translation itself, and the list of units that are `stale`. The hashes also go into each translated file's
`translated_from` block, so the database's provenance (and `l10n status`, `l10n diff`) sees them.

When the pack is first made, a translation is taken to be made from the English beside it. On
`pack update`, a translation whose text did not change keeps the source it had: if its English
changed meanwhile, it is stale until the translators change it.
"""

from typing import Any, NamedTuple

from scriptforge.model.languages import official
from scriptforge.model.ids import text_hash
from scriptforge.model.records import NIGHT_TABLE, NIGHTS

SOURCES = "sources.yaml"
_OFFICIAL_FIELDS = ("name", "ability", "flavor")  # what an official translation gives of a character


class Slot(NamedTuple):
    """Where one text unit sits among a pack's files."""

    rel: str  # the pack file that holds the text
    hash_key: str  # its key in that file's translated_from.hashes
    text: str


class SourceText(NamedTuple):
    """An entry of `<lang>/sources.yaml`: the English a translation was made from."""

    hash: str  # text_hash of the English
    text: str  # the English itself (what `l10n diff` shows for a stale translation)
    translation: str  # text_hash of the translation

    @classmethod
    def from_yaml(cls, data: Any) -> "SourceText | None":
        if not isinstance(data, dict):
            return None
        return cls(data.get("hash", ""), data.get("text", ""), data.get("translation", ""))


def units(files: dict[str, Any], lang: str) -> dict[str, Slot]:
    """Every text unit of `lang` among a pack's files (path inside the pack -> data)."""
    out: dict[str, Slot] = {}
    prefix = f"{lang}/characters/"
    for rel, data in files.items():
        if rel.startswith(prefix) and isinstance(data, dict):
            char_id = rel[len(prefix):].removesuffix(".yaml")
            for fld in _OFFICIAL_FIELDS:
                if isinstance(data.get(fld), str):
                    out[f"{char_id}.{fld}"] = Slot(rel, fld, data[fld])
    rel = f"{lang}/night.yaml"
    night = files.get(rel) or {}
    for n in NIGHT_TABLE:
        for char_id, text in (night.get(n.key) or {}).items():
            out[f"{char_id}.{n.reminder_field}"] = Slot(rel, f"{n.key}.{char_id}", text)
    for step, texts in (night.get("steps") or {}).items():
        for fld, text in texts.items():
            out[f"step.{step}.{fld}"] = Slot(rel, f"steps.{step}.{fld}", text)
    for kind, name in (("reminder", "reminders.yaml"), ("jinx", "jinxes.yaml")):
        rel = f"{lang}/{name}"
        for key, text in (files.get(rel) or {}).items():
            if key != "translated_from" and isinstance(text, str):
                out[f"{kind}.{key}"] = Slot(rel, key, text)
    return out


def record_sources(files: dict[str, Any], previous: dict[str, Any] | None = None) -> dict[str, list[str]]:
    """Write `<lang>/sources.yaml` and the translated_from blocks into a pack's `files` for each
    translated language, carrying over what `previous` (the files of the pack this one replaces)
    recorded for translations that did not change; lang -> the stale units."""
    source_lang = official()
    english = units(files, source_lang)
    langs = sorted({rel.split("/")[0] for rel in files if "/" in rel} - {source_lang})
    stale_by_lang = {}
    for lang in langs:
        recorded = ((previous or {}).get(f"{lang}/{SOURCES}") or {}).get("texts", {})
        sources: dict[str, SourceText] = {}
        stale: list[str] = []
        hashes: dict[str, dict[str, str]] = {}
        for key, slot in units(files, lang).items():
            source = english.get(key)
            if source is None:
                continue
            old = SourceText.from_yaml(recorded.get(key))
            mine = text_hash(slot.text)
            record = old if old and old.translation == mine else SourceText(text_hash(source.text), source.text, mine)
            sources[key] = record
            if record.hash != text_hash(source.text):
                stale.append(key)
            hashes.setdefault(slot.rel, {})[slot.hash_key] = record.hash
        for rel, block in hashes.items():
            files[rel]["translated_from"] = {"lang": source_lang, "hashes": block}
        if sources:
            files[f"{lang}/{SOURCES}"] = {"lang": source_lang, "texts": {k: r._asdict() for k, r in sources.items()},
                                          "stale": stale}
        stale_by_lang[lang] = stale
    return {lang: keys for lang, keys in stale_by_lang.items() if keys}


def stale_units(db: Any, lang: str) -> frozenset[str]:
    """The official text units of `lang` (abilities, names, flavor, night reminders, labels, jinxes
    a pack gives) whose recorded source text no longer matches the database's: stale official
    translations. Our own stale translations are `l10n check`'s business, not the page's."""
    out = set()
    jinxes = {j.key: j for j in db.jinxes}
    given = db.pack_units.get(lang, frozenset())
    for key, (source, digest) in db.provenance.get(lang, {}).items():
        if key not in given:
            continue
        kind, _, rest = key.partition(".")
        if kind == "jinx":
            text = jinxes[rest].texts.get(source) if rest in jinxes else None
        elif kind == "reminder":
            text = db.reminder_labels.get(source, {}).get(rest)
        elif kind in db.characters:
            texts = db.characters[kind].texts.get(source)
            text = getattr(texts, rest, None) if texts else None
        else:
            continue
        if isinstance(text, str) and text_hash(text) != digest:
            out.add(key)
    return frozenset(out)


def drop_stale(files: dict[str, Any], stale: dict[str, list[str]]) -> None:
    """Remove stale translations from a pack's files, so that their English prints (marked) instead:
    a stale label, jinx, night reminder or flavor alone; a stale name or ability takes the
    character's texts in that language with it."""
    for lang, keys in stale.items():
        slots = units(files, lang)
        for key in keys:
            if key.startswith("step."):
                continue  # a night step keeps its name and texts (ours stand behind them)
            slot = slots[key]
            data = files.get(slot.rel)
            if data is None:
                continue
            if slot.rel.startswith(f"{lang}/characters/") and slot.hash_key in ("name", "ability"):
                del files[slot.rel]  # no name and ability: the night reminders in `lang` go too
                char_id = key.split(".")[0]
                night = files.get(f"{lang}/night.yaml") or {}
                for part in NIGHTS:
                    (night.get(part) or {}).pop(char_id, None)
                    night.get("translated_from", {}).get("hashes", {}).pop(f"{part}.{char_id}", None)
                continue
            node = data
            *parents, last = slot.hash_key.split(".") if slot.rel.endswith("night.yaml") else [slot.hash_key]
            for step in parents:
                node = node.get(step, {})
            node.pop(last, None)
            data.get("translated_from", {}).get("hashes", {}).pop(slot.hash_key, None)
