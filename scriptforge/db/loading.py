"""Loading the character database: the built-in data, then each data pack and the user's translation
layer on top (`_LayeredLoader`), every file checked against its schema on load, then the references
between files (`check_database`); a database that loaded without problems kept in the user cache
(`load_database`, through `scriptforge.db.cached`); and a writer's guard (`pending_problems`)."""

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
import functools
from pathlib import Path
import pickle
from typing import Any
import copy

from scriptforge.io.datafiles import PARTIAL, ProblemCollector, validate
from scriptforge.io.errors import DataError
from scriptforge.model.records import NIGHT_REMINDER_FIELDS, NIGHT_TABLE, NIGHTS, TEXT_FIELDS, Character, Jinx, NightStep, \
    SetupEffect, Texts
from scriptforge.model.languages import codes
from scriptforge.model.ids import NIGHT_STEPS
from scriptforge.io import cache
from scriptforge.io.fileio import finish_journal
from scriptforge.db.cached import _keep, _moved, cache_name, load_cached, open_roots
from scriptforge.db.database import Database
from scriptforge.db.layer_merges import LAYER_MERGES, _merge_layer_texts, _merge_texts
from scriptforge.db.pack_sources import units
from scriptforge.db.pack_store import damaged_pack, read_manifest
from scriptforge.io.paths import DATA_DIR


def load_database(data_dir: Path | None = None, packs: Sequence[str | Path] = ()) -> Database:
    """Load and validate the database (the built-in data, then each pack in `packs` on top);
    the first problem found is raised as a DataError.

    A database that loaded without problems is kept in the user cache, keyed by the bytes of
    every data file, schema and loader module: the same bytes always get the same verdict, so
    only a change (or a new version) pays for parsing and validating again.
    """
    roots = [Path(data_dir) if data_dir else DATA_DIR, *map(Path, packs)]
    open_roots(roots)
    return load_cached("database", Path(__file__), roots, Database, lambda: check_database(data_dir, packs),
                       "; run 'scriptforge db check'")


def check_database_cache(db: Database | None, data_dir: Path | None = None,
                         packs: Sequence[str | Path] = ()) -> dict[str, str]:
    """`db check`'s look at the database's cache entry, against `db` as just loaded from the data:
    its state ("ok"; "missing"; "damaged": unreadable or its checksum does not match; "different":
    sound, but not what the data load to) and path. An entry not "ok" is replaced by `db`."""
    roots = [Path(data_dir) if data_dir else DATA_DIR, *map(Path, packs)]
    name = cache_name("database", Path(__file__), roots)
    path = cache.entry_path("database", name)
    if db is None:
        return {"state": "not checked (the data has problems)", "entry": str(path)}
    kept = cache.read("database", name)
    if kept is None:
        state = "damaged" if path is not None and path.exists() else "missing"
    else:
        try:
            # compared as objects: the pickle's bytes follow each process's string hashing (sets)
            made_in, found = pickle.loads(kept)
            state = "ok" if _moved(found, Path(str(made_in)), roots[0]) == db else "different"
        except Exception:  # from another version of the code, or not a database at all
            state = "different"
    if state != "ok":
        _keep(name, roots[0], db)
    return {"state": state, "entry": str(path)}


def check_database(data_dir: Path | None = None, packs: Sequence[str | Path] = ()) -> tuple[Database | None, list[DataError]]:
    """Load everything that can be loaded and return every problem found on the way."""
    root = Path(data_dir) if data_dir else DATA_DIR
    for folder in (root, *map(Path, packs)):
        try:
            finish_journal(folder)  # a change that was interrupted is finished before anything is checked
        except OSError as exc:
            return None, [DataError(f"an interrupted change (its journal) cannot be finished: {exc.strerror or exc}",
                                    where=str(folder))]
    damaged = [problem for pack in packs if (problem := damaged_pack(Path(pack))) is not None]
    if damaged:
        return None, damaged
    return (_LayeredLoader(root, packs) if packs else _Loader(root)).load()


def _night_unit(key: str) -> str:
    """night.yaml provenance key -> text unit: first_night.imp -> imp.first_night_reminder."""
    if key.startswith("steps."):
        return "step." + key.removeprefix("steps.")
    night, char_id = key.split(".", 1)
    return f"{char_id}.{'first_night' if night == 'first_night' else 'other_night'}_reminder"


class _Loader(ProblemCollector):
    def __init__(self, root: Path) -> None:
        super().__init__()
        self.root = root
        self.languages = self._languages()
        self.provenance: dict[str, dict[str, tuple[str, str]]] = {lang: {} for lang in self.languages}
        self.source_texts: dict[str, dict[str, str | tuple[str, ...]]] = {lang: {} for lang in self.languages}
        self.text_layers: dict[tuple[str, str], dict[str, str]] = {}  # (lang, id) -> field -> layer name

    def _languages(self) -> tuple[str, ...]:
        """The registry's languages that have a folder of texts."""
        return tuple(code for code in codes() if (self.root / code).is_dir())

    def _lang_file(self, lang: str, name: str, schema: str) -> Any:
        """A language's file: required of the languages of the built-in data; a language only a
        pack brings may leave it out (its texts then fall back, see `languages.fallback_chain`)."""
        if not (self.root / lang).is_dir() and not self._has(f"{lang}/{name}"):
            return None
        return self._read(self.root / lang / name, schema)

    def _has(self, rel: str) -> bool:
        return (self.root / rel).exists()

    def _provenance(self, lang: str, data: object, unit: Callable[[str], str]) -> None:
        """Record a file's `translated_from` block (removed from `data`) under text-unit keys."""
        block = data.pop("translated_from", None) if isinstance(data, dict) else None
        if block:
            for key, digest in block["hashes"].items():
                self.provenance[lang][unit(key)] = (block["lang"], digest)
            for key, text in block.get("texts", {}).items():
                self.source_texts[lang][unit(key)] = text if isinstance(text, str) else tuple(text)

    def load(self) -> tuple[Database | None, list[DataError]]:
        facts_path = self.root / "characters.yaml"
        facts = self._read(facts_path, "characters")
        if facts is None:
            return None, self.problems
        records = {}
        for i, rec in enumerate(facts["characters"]):
            if rec["id"] in records:
                self._problem(facts_path, f"record '{rec['id']}': duplicate id", ["characters", i, "id"])
            records[rec["id"]] = rec

        texts = {lang: self._load_texts(lang, records) for lang in self.languages}
        night = self._read(self.root / "night.yaml", "night") or {n: [] for n in NIGHTS}
        night_texts = {lang: self._lang_file(lang, "night.yaml", "night_texts") for lang in self.languages}
        for lang, nt in night_texts.items():
            if nt:
                self._provenance(lang, nt, _night_unit)
                self._check_night_texts(lang, nt, night, texts[lang], records)

        characters = {}
        for char_id, rec in records.items():
            per_lang = {}
            for lang in self.languages:
                t = texts[lang].get(char_id)
                if t is None:
                    continue
                nt = night_texts[lang] or {}
                per_lang[lang] = Texts(
                    name=t["name"],
                    ability=t["ability"],
                    aliases=tuple(t.get("aliases", ())),
                    flavor=t.get("flavor"),
                    overview=t.get("overview"),
                    how_to_run=tuple(t.get("how_to_run", ())),
                    examples=tuple(t.get("examples", ())),
                    **{n.reminder_field: nt.get(n.key, {}).get(char_id) for n in NIGHT_TABLE},
                    translated_from=self.provenance[lang].get(f"{char_id}.ability", (None,))[0],
                    layers=tuple(self.text_layers.get((lang, char_id), {}).items()),
                )
            if not per_lang:
                self._problem(facts_path, f"record '{char_id}': no texts in any language",
                              ["characters", list(records).index(char_id)])
            characters[char_id] = Character(
                id=char_id,
                team=rec["team"],
                edition=rec["edition"],
                texts=per_lang,
                reminders=tuple(rec.get("reminders", ())),
                reminders_global=tuple(rec.get("reminders_global", ())),
                setup=SetupEffect.from_data(rec["setup"]) if "setup" in rec else None,
                aliases=tuple(rec.get("aliases", ())),
                homebrew=rec.get("homebrew", False),
                night=rec.get("night", {}),
            )

        jinxes = self._load_jinxes(records)
        labels = {lang: self._lang_file(lang, "reminders.yaml", "reminders") or {} for lang in self.languages}
        for lang, table in labels.items():
            self._provenance(lang, table, lambda k: f"reminder.{k}")
        self._check_labels(records, labels)
        own = {lang: self._lang_file(lang, "ui.yaml", "ui") or {} for lang in self.languages}
        for lang, words in own.items():
            self._provenance(lang, words, lambda k: f"ui.{k}")
        ui, shipped, official_ui = self._interface_words(own)
        glossary = {}
        for lang in self.languages:
            if self._has(f"{lang}/glossary.yaml"):
                glossary[lang] = (self._read(self.root / lang / "glossary.yaml", "glossary") or {"terms": []})["terms"]
            else:
                glossary[lang] = []
        other_names = {}
        for lang in self.languages:
            if self._has(f"{lang}/names.yaml"):
                table = self._read(self.root / lang / "names.yaml", "names") or {}
                other_names[lang] = _joined_names(table.values())
        setup = self._read(self.root / "setup.yaml", "setup") or {"players": {}}

        steps = {
            s: NightStep(
                id=s,
                names={lang: nt["steps"][s]["name"] for lang, nt in night_texts.items() if nt},
                **{n: {lang: nt["steps"][s][n] for lang, nt in night_texts.items() if nt and n in nt["steps"][s]}
                   for n in NIGHTS},
            )
            for s in NIGHT_STEPS
        }
        nights: dict[str, Any] = {n: tuple(night[n]) for n in NIGHTS}
        db = Database(
            characters=characters,
            **nights,
            steps=steps,
            jinxes=jinxes,
            base_setup={int(k): v for k, v in setup["players"].items()},
            reminder_labels=labels,
            ui=ui,
            shipped_ui=shipped,
            official_ui=official_ui,
            glossary=glossary,
            other_names=other_names,
            data_dir=self.root,
            languages=self.languages,
            provenance=self.provenance,
            source_texts=self.source_texts,
            setup_without_bracket=setup.get("without_bracket", {}),
            script_advice=setup.get("script_advice", {}),
        )
        return db, self.problems

    def _interface_words(self, own: dict[str, dict[str, Any]]) -> tuple[dict[str, dict[str, Any]], ...]:
        """(the interface words of every language, merged per key; the words the built-in data
        ships; the words official interface files gave), each lang -> a ui.yaml tree.

        Lowest first: for a language whose built-in data has a ui.yaml (en, ko), the official
        words, then every layer's ui.yaml, ours first; for any other language, our
        data/interface/<code>.yaml, then the official words (a pack's <lang>/interface.yaml),
        then the ui.yaml of the packs and the user's translation layer."""
        ui, shipped, official_words = {}, {}, {}
        for code in codes():
            found = self._read(self.root / code / "interface.yaml", "interface") \
                if self._has(f"{code}/interface.yaml") else None
            if found:
                official_words[code] = found
            ours_first = (self.root / code / "ui.yaml").is_file()
            if ours_first:
                shipped[code] = own.get(code, {}) if not found else \
                    {k: v for k, v in (ProblemCollector._read(self, self.root / code / "ui.yaml", "ui") or {}).items()
                     if k != "translated_from"}
            elif self._has(f"interface/{code}.yaml"):
                shipped[code] = self._read(self.root / "interface" / f"{code}.yaml", "ui") or {}
            parts = [found or {}, own.get(code, {})] if ours_first else \
                [shipped.get(code, {}), found or {}, own.get(code, {})]
            merged: dict[str, Any] = {}
            for part in parts:
                merged = _merge_texts(merged, part)
            if merged:
                ui[code] = merged
        return ui, shipped, official_words

    def _load_texts(self, lang: str, records: dict[str, Any]) -> dict[str, dict[str, Any]]:
        out = {}
        for path in self._text_files(lang):
            char_id = path.stem
            if char_id not in records:
                self._problem(path, f"record '{char_id}': no character with this id in characters.yaml")
                continue
            data = self._read(path, "texts", record_id=char_id)
            if data is not None:
                self._provenance(lang, data, functools.partial("{}.{}".format, char_id))
                out[char_id] = data
        return out

    def _text_files(self, lang: str) -> list[Path]:
        return sorted((self.root / lang / "characters").glob("*.yaml"))

    def _check_night_texts(self, lang: str, nt: dict[str, Any], night: dict[str, Any], texts: dict[str, Any],
                           records: dict[str, Any]) -> None:
        path = self.root / lang / "night.yaml"
        for key in NIGHTS:
            for char_id in nt[key]:
                wakes = char_id in night[key] or key in records.get(char_id, {}).get("night", {})
                if char_id not in records:
                    self._problem(path, f"record '{char_id}': no character with this id in characters.yaml",
                                  [key, char_id])
                elif not wakes:
                    self._problem(path, f"record '{char_id}', field '{key}': this character does not wake "
                                        f"then in data/night.yaml", [key, char_id])
                elif char_id not in texts:
                    self._problem(path, f"record '{char_id}', field '{key}': the character has no texts in "
                                        f"'{lang}'", [key, char_id])

    def _load_jinxes(self, records: dict[str, Any]) -> tuple[Jinx, ...]:
        path = self.root / "jinxes.yaml"
        pairs = (self._read(path, "jinxes") or {"jinxes": []})["jinxes"]
        texts = {lang: self._lang_file(lang, "jinxes.yaml", "jinx_texts") or {} for lang in self.languages}
        for lang, t in texts.items():
            self._provenance(lang, t, lambda k: f"jinx.{k}")
        out = []
        for i, (a, b) in enumerate(pairs):
            for char_id in (a, b):
                if char_id not in records:
                    self._problem(path, f"field 'jinxes': unknown character '{char_id}'", ["jinxes", i])
            key = f"{a}-{b}"
            out.append(Jinx(characters=(a, b), texts={lang: t[key] for lang, t in texts.items() if key in t}))
        known = {j.key for j in out}
        for lang, t in texts.items():
            for key in t:
                if key not in known:
                    self._problem(self.root / lang / "jinxes.yaml", f"record '{key}': no such jinx pair in "
                                                                   f"data/jinxes.yaml", [key])
        return tuple(out)

    def _check_labels(self, records: dict[str, Any], labels: dict[str, Any]) -> None:
        tokens = {t for rec in records.values() for t in (*rec.get("reminders", ()), *rec.get("reminders_global", ()))}
        for lang, table in labels.items():
            for token in sorted(tokens - set(table)):
                self._problem(self.root / lang / "reminders.yaml", f"record '{token}': reminder token has no label")


def pending_problems(root: Path, changes: dict[Path, Any]) -> list[DataError]:
    """The problems the data folder `root` alone (no packs) would have with `changes` (path ->
    data) written, that it does not have now: a writer's guard (`l10n import` must not write a
    pack character's text, or anything else that leaves the data inconsistent, into `root`)."""
    after = _Pending(Path(root), changes).load()[1]
    if not after:
        return []
    before = {str(p) for p in _Loader(Path(root)).load()[1]}
    return [p for p in after if str(p) not in before]


class _Pending(_Loader):
    """A data folder read as it would be once `changes` (path -> data) were written."""

    def __init__(self, root: Path, changes: dict[Path, Any]) -> None:
        self.changes = {Path(p).resolve(): copy.deepcopy(data) for p, data in changes.items()}
        super().__init__(root)

    def _languages(self) -> tuple[str, ...]:
        return tuple(code for code in codes() if (self.root / code).is_dir()
                     or any(p.is_relative_to((self.root / code).resolve()) for p in self.changes))

    def _text_files(self, lang: str) -> list[Path]:
        folder = self.root / lang / "characters"
        pending = {folder / p.name for p in self.changes if p.parent == folder.resolve()}
        return sorted({*folder.glob("*.yaml"), *pending})

    def _has(self, rel: str) -> bool:
        return (self.root / rel).resolve() in self.changes or super()._has(rel)

    def _read(self, path: Path, schema: str, record_id: str | None = None) -> Any:
        key = Path(path).resolve()
        if key not in self.changes:
            return super()._read(path, schema, record_id)

        data = self.changes[key]
        try:
            validate(data, schema, path, record_id)
        except DataError as exc:
            self.problems.append(exc)
            return None
        return data


# -- packs: the built-in data with data packs on top ---------------------------------------------


def pack_name(folder: Path) -> str:
    """A pack's name: `name` in its pack.yaml, else the folder's name."""
    return pack_label(folder)[0]


def pack_label(folder: Path) -> tuple[str, str]:
    """(a pack's name: `name` in its pack.yaml, else the folder's name; the date it was made or
    updated: `updated` in its pack.yaml, else "")."""
    manifest = read_manifest(folder)
    return manifest.name, manifest.updated


class _LayeredLoader(_Loader):
    """Reads each data file from the built-in root and from every pack that has it, each checked
    against its schema, and merges them in order before the usual checks run on the result:

    - characters.yaml: a pack adds characters and overrides facts per field (a setup effect per
      key, so a bracket reading does not drop what only our data says, e.g. Lil' Monsta's missing
      Demon token; aliases are joined); characters keep the sheet order of the latest layer;
    - night.yaml: a pack's night lists replace the earlier ones;
    - jinxes.yaml: pairs are unioned (a pair keeps its first orientation);
    - texts, night texts, reminder labels, jinx texts: per field / per key, later layers win.

    Each character's `source` is the last layer that gave its facts or texts ("scriptforge" for
    the built-in data, else the pack's name).
    """

    def __init__(self, root: Path, packs: Sequence[str | Path]) -> None:
        # deferred: start-up time
        from scriptforge.db.translations import is_partial

        self.layers = [(root, "scriptforge"), *((Path(p), pack_name(Path(p))) for p in packs)]
        self.partial = {Path(p) for p in packs if is_partial(Path(p))}  # layers of partial texts
        super().__init__(root)
        self.origin: dict[str, str] = {}
        self.turned: dict[str, str] = {}  # jinx key written the other way round -> our key
        self.pack_units: dict[str, set[str]] = {}
        self.unit_layers: dict[str, dict[str, str]] = {}  # lang -> text unit -> the last layer giving it

    def _languages(self) -> tuple[str, ...]:
        return tuple(code for code in codes() if any((layer / code).is_dir() for layer, _ in self.layers))

    def _has(self, rel: str) -> bool:
        return any((layer / rel).exists() for layer, _ in self.layers)

    def _text_files(self, lang: str) -> list[Path]:
        ids = {p.stem for layer, _ in self.layers for p in (layer / lang / "characters").glob("*.yaml")}
        return [self.root / lang / "characters" / f"{i}.yaml" for i in sorted(ids)]

    def _read(self, path: Path, schema: str, record_id: str | None = None) -> Any:
        rel = path.relative_to(self.root)
        present = [(layer, name) for layer, name in self.layers if (layer / rel).exists()]
        if not present:
            return super()._read(path, schema, record_id)  # the usual "file not found"
        merged = None
        for layer, name in present:
            data = super()._read(layer / rel, schema + PARTIAL if layer in self.partial else schema, record_id)
            if data is None:
                continue
            if layer != self.root and "/" in rel.as_posix():
                self._note_pack_units(rel.as_posix(), data)
            if schema == "characters":
                self.origin.update({rec["id"]: name for rec in data["characters"]})
            elif schema == "texts" and record_id and layer != self.root:
                self.origin[record_id] = name
            if schema == "texts" and record_id:
                self.text_layers.setdefault((rel.parts[0], record_id), {}).update(
                    {key: name for key in data if key in TEXT_FIELDS})
            elif schema == "night_texts":
                for night, text_field in NIGHT_REMINDER_FIELDS.items():
                    for char_id in data.get(night, {}):
                        self.text_layers.setdefault((rel.parts[0], char_id), {})[text_field] = name
            elif schema == "jinx_texts":
                data = {self.turned.get(k, k): v for k, v in data.items()}
            if len(rel.parts) > 1 and rel.parts[0] in self.languages:
                self.unit_layers.setdefault(rel.parts[0], {}).update(
                    dict.fromkeys(_unit_keys(schema, data, record_id), name))
            merged = data if merged is None else self._merge(schema, merged, data)
        return merged

    def _note_pack_units(self, rel: str, data: Any) -> None:
        if isinstance(data, dict):
            lang = rel.split("/")[0]
            self.pack_units.setdefault(lang, set()).update(units({rel: data}, lang))

    def _check_night_texts(self, lang: str, nt: dict[str, Any], night: dict[str, Any], texts: dict[str, Any],
                           records: dict[str, Any]) -> None:
        # a pack's night lists replace ours: a reminder for a character that no longer wakes is dropped
        for key in NIGHTS:
            for char_id in [c for c in nt[key] if c in records and c not in night[key]
                            and key not in records[c].get("night", {})]:
                del nt[key][char_id]
        super()._check_night_texts(lang, nt, night, texts, records)

    def _check_labels(self, records: dict[str, Any], labels: dict[str, Any]) -> None:
        # a pack's token needs its label in one language; the other languages fall back to it
        anywhere = {t: t for table in labels.values() for t in table if t != "translated_from"}
        super()._check_labels(records, {lang: {**anywhere, **table} for lang, table in labels.items()})

    def _merge(self, schema: str, old: Any, new: Any) -> Any:
        """A later layer's file on top of the earlier ones', by the file's schema (LAYER_MERGES)."""
        return LAYER_MERGES.get(schema, _merge_layer_texts)(self, old, new)

    def _merge_jinxes(self, old: Any, new: Any) -> Any:
        """Pairs of every layer, once each; a pair a later layer writes the other way round is
        remembered (`turned`) so that its jinx text finds the pair."""
        seen = {frozenset(pair): pair for pair in old["jinxes"]}
        pairs = list(old["jinxes"])
        for a, b in new["jinxes"]:
            mine = seen.get(frozenset((a, b)))
            if mine is None:
                pairs.append([a, b])
                seen[frozenset((a, b))] = [a, b]
            elif mine != [a, b]:
                self.turned[f"{a}-{b}"] = "-".join(mine)
        return {"jinxes": pairs}

    def load(self) -> tuple[Database | None, list[DataError]]:
        db, problems = super().load()
        if db is not None:
            chars = {i: replace(c, source=self.origin.get(i, "scriptforge")) for i, c in db.characters.items()}
            sources = {}
            for lang in db.languages:
                if self._has(f"{lang}/sources.yaml"):
                    block = self._read(self.root / lang / "sources.yaml", "pack_sources") or {}
                    sources[lang] = {key: record["text"] for key, record in block.get("texts", {}).items()}
            db = replace(db, characters=chars, official_sources=sources, unit_layers=self.unit_layers,
                         pack_units={lang: frozenset(keys) for lang, keys in self.pack_units.items()},
                         packs=tuple(pack_label(root) for root, _ in self.layers[1:]))
        return db, problems


def _unit_keys(schema: str, data: Any, record_id: str | None) -> list[str]:
    """The text units (see scriptforge.l10n.units) a language file of one layer gives."""
    if not isinstance(data, dict):
        return []
    if schema == "texts":
        return [f"{record_id}.{key}" for key in data if key in TEXT_FIELDS]
    if schema == "night_texts":
        return [*(f"{char_id}.{text_field}" for night, text_field in NIGHT_REMINDER_FIELDS.items()
                  for char_id in data.get(night, {})),
                *(f"step.{step}.{key}" for step, texts in data.get("steps", {}).items() for key in texts)]
    if schema in ("reminders", "jinx_texts"):
        kind = "reminder" if schema == "reminders" else "jinx"
        return [f"{kind}.{key}" for key in data if key != "translated_from"]
    if schema == "ui":
        def leaves(tree: Any, prefix: str) -> list[str]:
            if isinstance(tree, dict):
                return [path for key, value in tree.items() if key != "translated_from"
                        for path in leaves(value, f"{prefix}.{key}")]
            return [prefix] if isinstance(tree, str) else []

        return leaves(data, "ui")
    return []


def _joined_names(tables: Iterable[dict[str, list[str]]]) -> dict[str, tuple[str, ...]]:
    """One id -> names table of a names.yaml's sections, each name once."""
    out: dict[str, tuple[str, ...]] = {}
    for table in tables:
        for char_id, names in table.items():
            out[char_id] = tuple(dict.fromkeys([*out.get(char_id, ()), *names]))
    return out
