"""The character database: facts once, texts per language, as loaded (`Database`), and its lookups —
names in every language, night orders, jinxes, reminder labels, interface words along the fallbacks.
Loading it from the data files is `scriptforge.db.loading`."""

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scriptforge.io.errors import NotFoundError
from scriptforge.model.records import NIGHT, Character, Jinx, NightStep, pick_text_lang
from scriptforge.model.languages import detect, fallback_chain, official, translation_source
from scriptforge.model.languages import get as get_language
from scriptforge.model.ids import NameIndex, name_key, normalize_id, without_locale
from scriptforge.db.official import PACK_UPDATE, OfficialFacts, official_facts


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
