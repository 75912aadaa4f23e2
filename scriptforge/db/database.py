"""The character database: facts once, texts per language, all checked against schemas on load."""

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
import functools
from pathlib import Path
import pickle
from typing import Any, TypeVar
import copy

from scriptforge.io.datafiles import PARTIAL, ProblemCollector, validate
from scriptforge.io.errors import DataError, NotFoundError
from scriptforge.model.records import NIGHT, NIGHT_REMINDER_FIELDS, NIGHT_TABLE, NIGHTS, TEAMS, TEXT_FIELDS, Character, Jinx, NightStep, \
    SetupEffect, Texts, pick_text_lang
from scriptforge.model.languages import REGISTRY_PATH, codes, detect, fallback_chain, official, translation_source
from scriptforge.model.languages import get as get_language
from scriptforge.model.ids import NIGHT_STEPS, NameIndex, name_key, normalize_id, without_locale
from scriptforge.io import cache
from scriptforge.io.fileio import files_digest, finish_journal, protect_data
from scriptforge.db.official import PACK_UPDATE, OfficialFacts, official_facts
from scriptforge.db.pack_sources import units
from scriptforge.db.pack_store import damaged_pack, read_manifest
from scriptforge.io.paths import DATA_DIR, PACKAGE_DIR, SCHEMAS_DIR



@dataclass(frozen=True)
class Database:
    """The character database as loaded (the built-in data, with the packs and translations on top): characters,
    night orders and steps, jinxes, base setup counts, and the texts and interface words per language."""

    characters: dict[str, Character]  # in sheet order
    first_night: tuple[str, ...]
    other_nights: tuple[str, ...]
    steps: dict[str, NightStep]
    jinxes: tuple[Jinx, ...]
    base_setup: dict[int, dict[str, int]]
    reminder_labels: dict[str, dict[str, str]]  # lang -> token id -> label
    ui: dict[str, dict[str, Any]]  # lang -> ui.yaml contents, every layer merged per key
    glossary: dict[str, list[dict[str, Any]]]  # lang -> terms
    data_dir: Path
    languages: tuple[str, ...] = ()  # the languages with texts, in registry order
    # lang -> text unit ("imp.ability", "imp.first_night_reminder", "step.dusk.name", "reminder.safe",
    # "jinx.widow-damsel", "ui.teams.minion.name") -> (source lang, hash of the source text it was
    # translated from); see scriptforge/l10n/provenance.py
    provenance: dict[str, dict[str, tuple[str, str]]] = field(default_factory=dict)
    # official character id -> setup effect that its roles.json record does not carry in a bracket
    # (data/setup.yaml `without_bracket`; `pack import` records them)
    setup_without_bracket: dict[str, dict[str, Any]] = field(default_factory=dict)
    # lang -> the text units ("imp.ability", "reminder.redherring", "jinx.a-b") whose text a data
    # pack gives: the official texts, which `l10n check` does not report as ours
    pack_units: dict[str, frozenset[str]] = field(default_factory=dict)
    # lang -> text unit -> the English an official translation was made from (a pack's
    # <lang>/sources.yaml; see scriptforge.db.pack_sources): what `l10n diff` shows for a stale one
    official_sources: dict[str, dict[str, str]] = field(default_factory=dict)
    # lang -> text unit -> the source text a translation was made from, as our data records it
    # beside its hash (`translated_from.texts`): the previous source of a stale translation
    source_texts: dict[str, dict[str, str | tuple[str, ...]]] = field(default_factory=dict)
    # lang -> text unit -> the name of the layer its text comes from, where a data pack or the
    # user's translation layer is loaded ("scriptforge", a pack's name, "translations"); a unit
    # not listed comes from the built-in data (`l10n status`, `l10n diff`)
    unit_layers: dict[str, dict[str, str]] = field(default_factory=dict)
    # the usual team sizes per script kind and the one-sheet size (data/setup.yaml `script_advice`)
    script_advice: dict[str, Any] = field(default_factory=dict)
    # lang -> the interface words the built-in data ships (data/<lang>/ui.yaml, else
    # data/interface/<lang>.yaml), and those the official interface files give (a pack's
    # <lang>/interface.yaml, from script/<code>.json): what `l10n check` compares
    shipped_ui: dict[str, dict[str, Any]] = field(default_factory=dict)
    official_ui: dict[str, dict[str, Any]] = field(default_factory=dict)
    # the data packs loaded on top of the built-in data, in order: (name, the date its pack.yaml
    # says it was made or updated, "" where it says none), for what a printed page was built from
    packs: tuple[tuple[str, str], ...] = ()
    # lang -> character id -> names players use besides the official ones (data/<lang>/names.yaml:
    # earlier and community names, the English name in the language's script); lookups only
    other_names: dict[str, dict[str, tuple[str, ...]]] = field(default_factory=dict)
    # name key (id, alias, name in any language, glossary spelling) -> ids; made by __post_init__
    _index: NameIndex = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        index = NameIndex()
        for ch in self.characters.values():
            keys = {ch.id, *(normalize_id(a) for a in ch.aliases)}
            for texts in ch.texts.values():
                keys.update(name_key(n) for n in (texts.name, *texts.aliases))
            for key in keys:
                index.add(key, ch.id)
            for word in (ch.id, *(t.name for t in ch.texts.values())):
                index.add_word(word)
        for terms in self.glossary.values():
            for term in terms:
                if term.get("character") in self.characters:
                    for spelling in (term["term"], *term.get("variants", ())):
                        index.add(name_key(spelling), term["character"])
        for table in self.other_names.values():  # below every name above: never one of theirs
            for char_id, names in table.items():
                if char_id in self.characters:
                    for name in names:
                        index.add_if_free(name_key(name), char_id)
        object.__setattr__(self, "_index", index)

    # -- lookup -----------------------------------------------------------------------

    def get(self, char_id: str) -> Character:
        return self.characters[char_id]

    def find(self, name: str) -> list[Character]:
        """Every character that `name` (id, legacy id, locale-prefixed id, name or alias) denotes."""
        candidates = [name, without_locale(name)]
        for candidate in candidates:
            if normalize_id(candidate) in self.characters:
                return [self.characters[normalize_id(candidate)]]
        ids = self._index.find(key for candidate in candidates for key in (name_key(candidate), normalize_id(candidate)))
        return [c for c in self.characters.values() if c.id in ids]

    def resolve(self, name: str) -> Character:
        """The one character `name` denotes; a NotFoundError with suggestions otherwise (for a
        name of an official character that is not loaded, the command that loads it)."""
        found = [c.id for c in self.find(name)]
        missing = None if found else self.unloaded(name)
        if missing:
            raise NotFoundError(f"'{name}' is {missing}, an official {official_facts().teams[missing]} that is not "
                                f"loaded; run `{PACK_UPDATE}` to get the official data")
        return self.characters[self._index.resolve(name, found, lambda i: self.characters[i].name(official()),
                                                   self.suggest, "character")]

    def unloaded(self, name: str) -> str | None:
        """The official character that `name` (its id, an earlier or community name, the English
        name in another script: `other_names`) names where that character is not loaded, else None."""
        char_id = normalize_id(without_locale(name))
        if char_id in official_facts().teams and char_id not in self.characters:
            return char_id
        key = name_key(name)
        ids = {char_id for table in self.other_names.values() for char_id, names in table.items()
               if char_id not in self.characters and any(name_key(n) == key for n in names)}
        return ids.pop() if len(ids) == 1 else None

    def suggest(self, name: str, limit: int = 3) -> list[str]:
        """Close matches for a misspelt name, as display names."""
        lang = detect(name, self.languages)
        return self._index.suggest(name, lambda char_id: self.characters[char_id].name(lang), limit, by_id=True)

    def search(self, text: str, langs: Iterable[str] | None = None) -> list[Character]:
        """Characters whose id, name, alias or ability contains `text` (case-insensitive)."""
        needle = text.casefold()
        loose = name_key(text)
        aliased = set(self._index.ids(loose))
        hits = []
        for ch in self.characters.values():
            if ch.id in aliased:
                hits.append(ch)
                continue
            haystack = [ch.id, *ch.aliases]
            for lang in langs or self.languages:
                t = ch.text(lang)
                if t:
                    haystack += [t.name, t.ability, *t.aliases]
            if any(needle in h.casefold() or (loose and loose in name_key(h)) for h in haystack):
                hits.append(ch)
        return hits

    def complete(self, prefix: str) -> list[str]:
        """Ids and names in every language that start with `prefix` (case-insensitive), for shell
        completion: in sheet order, each id followed by its names ("Imp" is left out after "imp")."""
        return self._index.complete(prefix)

    # -- derived facts ------------------------------------------------------------------

    @property
    def official(self) -> OfficialFacts:
        """The official ids, teams and jinx pairs (data/official.yaml), loaded or not."""
        return official_facts()

    def night_order(self, night: str) -> tuple[str, ...]:
        """The official order of `night` (a key of `model.NIGHT`)."""
        order: tuple[str, ...] = getattr(self, NIGHT[night].key)
        return order

    def night_position(self, char_id: str, night: str) -> float | None:
        """1-based position on the official night sheet; a homebrew character's own number."""
        order = self.night_order(night)
        if char_id in order:
            return order.index(char_id) + 1
        ch = self.characters.get(char_id)
        return ch.night.get(night) if ch else None

    def jinxes_of(self, char_id: str) -> list[Jinx]:
        return [j for j in self.jinxes if char_id in j.characters]

    def team_name(self, team: str, lang: str, plural: bool = False) -> str:
        return str(self.word(lang, "teams", team, "plural" if plural else "name") or team)

    def reminder_label(self, token: str, lang: str) -> str:
        """A reminder token's label in `lang`, else along the fallbacks; a token without any is its own label."""
        return self.reminder_label_lang(token, lang)[0]

    def reminder_label_lang(self, token: str, lang: str) -> tuple[str, str | None]:
        """(label, its language) of a reminder token in `lang`, else along the fallbacks; a token
        without any label is its own label, in no language (None)."""
        label, code = pick_text_lang({code: table[token] for code, table in self.reminder_labels.items()
                                      if token in table}, lang)
        return (label, code) if label else (token, None)

    def labels(self, lang: str) -> dict[str, str]:
        """The `labels` of ui.yaml in `lang` (each along the fallbacks), `fallback_language` filled in
        with the language most fallbacks come from."""
        keys = dict.fromkeys(key for ui in self.ui.values() for key in ui.get("labels", {}))
        labels = {key: str(self.word(lang, "labels", key)) for key in keys}
        labels["fallback_language"] = self.fallback_label(lang, translation_source(lang, self.languages) or lang)
        return labels

    def fallback_label(self, lang: str, source: str) -> str:
        """The mark of a text printed in `source` because `lang` has none ("Korean text (no English yet)")."""
        return str(self.word(lang, "labels", "fallback_language") or "").format(
            source=self.language_name(source, lang), target=self.language_name(lang, lang))

    def fallback_note(self, lang: str, source: str) -> str:
        """The line that explains the tag of a text shown in `source` because `lang` has none
        ("EN: printed in English; there is no Korean text yet")."""
        note = self.word(lang, "labels", "fallback_note") or "{tag}: {source}"
        return str(note).format(tag=source.upper(), source=self.language_name(source, lang),
                                target=self.language_name(lang, lang))

    def language_name(self, code: str, lang: str) -> str:
        """The name of language `code` in language `lang` (ui.yaml `languages`, else the registry's)."""
        own = (self.ui.get(lang) or {}).get("languages", {}).get(code)
        if own is None and code == lang:
            return get_language(code).native  # a language without interface words still knows its own name
        return str(own or self.word(lang, "languages", code) or get_language(code).name)

    def word_table(self, lang: str, *path: str) -> dict[str, Any]:
        """A section of ui.yaml (`word_table(lang, "editions")`) along the fallbacks; {} where there is none."""
        node = self.word(lang, *path)
        return node if isinstance(node, dict) else {}

    def word(self, lang: str, *path: str) -> object:
        """An interface word of ui.yaml (`word("de", "labels", "setup")`) in `lang`, else along the
        registry's fallbacks (a pack may bring a language's texts without its interface words)."""
        return self.word_lang(lang, *path)[0]

    def word_lang(self, lang: str, *path: str) -> tuple[object, str | None]:
        """(an interface word, the language it is in): in `lang`, else along the registry's
        fallbacks; (None, None) where no language has it."""
        for code in fallback_chain(lang):
            node: object = self.ui.get(code)
            for step in path:
                node = node.get(step) if isinstance(node, dict) else None
            if node is not None:
                return node, code
        return None, None


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


def open_roots(roots: Sequence[Path]) -> None:
    """Before a database or a game is loaded from `roots` (data folders): mark each as data, which
    no output of this command may replace, and finish a change to it that was interrupted."""
    for root in roots:
        protect_data(root)
        try:
            finish_journal(root)
        except OSError as exc:
            raise DataError(f"cannot finish a change that was interrupted: {exc.strerror or exc}",
                            where=str(root)) from None


T = TypeVar("T")


def load_cached(kind: str, loader: Path, roots: list[Path], expected: type[T],
                check: Callable[[], tuple[T | None, list[DataError]]], hint: str = "") -> T:
    """What `check` loads, kept in the user cache (`io.cache`: kind "database", named by
    `cache_name`) under the hash of the loader module, the code shaping the records, the language
    registry, the schemas and every YAML file under `roots`, by content: the same bytes always get
    the same verdict, so only a change pays for parsing and validating again. The first problem
    `check` finds is raised as a DataError (`hint` after the count of the others). The BotC
    database and every other rule set load through here."""
    name = cache_name(kind, loader, roots)
    kept = cache.read("database", name)  # None when missing, damaged or not the user's own
    try:
        made_in, found = (None, None) if kept is None else pickle.loads(kept)
        if isinstance(found, expected):
            return _moved(found, Path(str(made_in)), roots[0])
    except Exception:  # a checksummed pickle of another version of the code: load it properly (and replace it)
        pass
    checked, problems = check()
    if problems or checked is None:
        more = f" (and {len(problems) - 1} more problems{hint})" if len(problems) > 1 else ""
        raise DataError(str(problems[0]) + more)
    _keep(name, roots[0], checked)
    return checked


def cache_name(kind: str, loader: Path, roots: Sequence[Path]) -> str:
    """The cache entry's name for what `loader` loads from `roots` (see `load_cached`): named by
    content, so the same files moved elsewhere keep their entry (a FIFO named *.yaml is never read)."""
    code = ("db/database.py", "model/records.py", "io/datafiles.py", "model/ids.py", "model/languages.py",
            "db/pack_sources.py", "db/pack_store.py", "io/userfiles.py")
    files = [loader, *(PACKAGE_DIR / m for m in code), REGISTRY_PATH, *sorted(SCHEMAS_DIR.glob("*.json"))]
    files += [path for root in roots for path in sorted(root.rglob("*.yaml"))]
    return f"{kind}-{files_digest(files, [*roots, PACKAGE_DIR, DATA_DIR])[:32]}"


def _keep(name: str, root: Path, loaded: object) -> None:
    cache.write("database", name, pickle.dumps((str(root), loaded), protocol=pickle.HIGHEST_PROTOCOL))


def _moved(loaded: T, made_in: Path, root: Path) -> T:
    """`loaded` (made from files under `made_in`) with its data folder where those files are now."""
    data_dir = getattr(loaded, "data_dir", None)
    if made_in == root or not isinstance(data_dir, Path) or not data_dir.is_relative_to(made_in):
        return loaded
    return replace(loaded, data_dir=root / data_dir.relative_to(made_in))  # type: ignore[type-var]


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


def _merge_layer_texts(loader: Any, old: Any, new: Any) -> Any:
    """Texts and tables: per key, recursively (`_merge_texts`); anything else: the later one."""
    return _merge_texts(old, new) if isinstance(old, dict) and isinstance(new, dict) else new


#: How a layer's file (by its schema) goes on top of the earlier layers' (built-in data, then each
#: pack): character records merged per id in sheet order, night lists replaced, jinx pairs added;
#: every other file (texts, labels, setup, glossary) merged per key.
LAYER_MERGES: dict[str, Callable[[Any, Any, Any], Any]] = {
    "characters": lambda loader, old, new: {"characters": _merge_records(old["characters"], new["characters"])},
    "night": lambda loader, old, new: new,
    "jinxes": lambda loader, old, new: loader._merge_jinxes(old, new),
    "glossary": lambda loader, old, new: {"terms": _merge_terms(old["terms"], new["terms"])},
}


def _term_key(term: dict[str, Any]) -> tuple[str, str]:
    """What a glossary entry is about: its character, else its English, else its own spelling."""
    for key in ("character", "en", "term"):
        if term.get(key):
            return key, str(term[key])
    return "term", ""


def _merge_terms(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Glossary entries per entry: a later layer's entry about the same thing changes its fields;
    the earlier layers' other entries stay, in their order."""
    merged = [dict(term) for term in old]
    first: dict[tuple[str, str], int] = {}
    for i, term in enumerate(merged):
        first.setdefault(_term_key(term), i)
    for term in new:
        at = first.get(_term_key(term))
        if at is None:
            first[_term_key(term)] = len(merged)
            merged.append(dict(term))
        else:
            merged[at] = {**merged[at], **term}
    return merged


def _merge_records(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> list[dict[str, Any]]:
    by_id = {rec["id"]: rec for rec in old}
    merged = {}
    for rec in new:
        base = by_id.get(rec["id"], {})
        out = {**base, **rec}
        if "setup" in base and "setup" in rec:
            out["setup"] = {**base["setup"], **rec["setup"]}
        if base.get("aliases") or rec.get("aliases"):
            out["aliases"] = list(dict.fromkeys([*base.get("aliases", ()), *rec.get("aliases", ())]))
        merged[rec["id"]] = out
    order = [rec["id"] for rec in new]
    previous = None
    for rec in old:  # older-only characters keep their place after the one they followed
        if rec["id"] not in merged:
            merged[rec["id"]] = rec
            at = order.index(previous) + 1 if previous in order else len(order)
            order.insert(at, rec["id"])
        previous = rec["id"]
    teams = {t: i for i, t in enumerate(TEAMS)}
    records = sorted((merged[i] for i in order), key=lambda rec: teams.get(rec["team"], len(teams)))
    # official characters in the official sheet order, whichever layers brought them; the others
    # (homebrew, characters newer than data/official.yaml) keep their places
    positions = official_facts().positions
    slots = [i for i, rec in enumerate(records) if rec["id"] in positions]
    ranked = sorted((records[i] for i in slots), key=lambda rec: (teams.get(rec["team"], len(teams)), positions[rec["id"]]))
    for i, rec in zip(slots, ranked):
        records[i] = rec
    return records


def _leaves(data: dict[str, Any], prefix: str = "") -> set[str]:
    out = set()
    for key, value in data.items():
        if key == "translated_from":
            continue
        if isinstance(value, dict):
            out |= _leaves(value, f"{prefix}{key}.")
        else:
            out.add(f"{prefix}{key}")
    return out


def _merge_texts(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """Per key, recursively; a later text drops the earlier one's translation record."""
    out = dict(old)
    for key, value in new.items():
        if key != "translated_from":
            out[key] = _merge_texts(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) \
                else value
    if "translated_from" in old or "translated_from" in new:
        given = _leaves(new)
        block = old.get("translated_from") or {}
        hashes = {k: v for k, v in block.get("hashes", {}).items() if k not in given}
        newer = new.get("translated_from") or {}
        hashes.update(newer.get("hashes", {}))
        out.pop("translated_from", None)
        if hashes:
            out["translated_from"] = {"lang": newer.get("lang") or block.get("lang"), "hashes": hashes}
    return out
