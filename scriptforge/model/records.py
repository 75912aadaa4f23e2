"""The data the rest of scriptforge works with: frozen, read-only records."""

from dataclasses import dataclass, field
from typing import Any

from scriptforge.model.languages import fallback_chain, registry

#: The team vocabulary: every team id in sheet order, the four that make up the player count, and
#: the key each of those has in setup tables and setup effects (``outsiders: 2``).
TEAMS = ("townsfolk", "outsider", "minion", "demon", "traveller", "fabled", "loric")
PLAYER_TEAMS = ("townsfolk", "outsider", "minion", "demon")
COUNT_KEYS = {"townsfolk": "townsfolk", "outsider": "outsiders", "minion": "minions", "demon": "demons"}
#: Each team's colour on sheets, night sheets and almanacs (templates/colours.css.j2 makes the CSS).
TEAM_COLOURS = {"townsfolk": "#1d5aa6", "outsider": "#3f9bd6", "minion": "#d2541c", "demon": "#8e1016",
                "traveller": "#6a4a9c", "fabled": "#b88a12", "loric": "#3f7d3a"}

#: A character's text fields in almanac order (the two list fields hold several paragraphs).
TEXT_FIELDS = ("name", "ability", "flavor", "overview", "how_to_run", "examples",
               "first_night_reminder", "other_night_reminder")
LIST_FIELDS = ("how_to_run", "examples")
PAGE_FIELDS = TEXT_FIELDS[:6]  # what an almanac page prints of them: all but the night reminders


@dataclass(frozen=True)
class Night:
    """Every spelling of one night, said once: each file format names the two nights its own way.

    `key` is ours: the lists of night.yaml, the steps' texts in night texts, a homebrew character's
    `night` numbers, the JSON output of `night`, and the attribute of `Database`, `NightOrder` and
    `NightStep` holding that night's order or texts.
    """

    key: str  # "first_night"
    reminder_field: str  # the `Texts` field of a character's reminder: "first_night_reminder"
    official: str  # script `_meta` order, a character object's number, the night sheet: "firstNight"
    official_reminder: str  # a character object's reminder text: "firstNightReminder"
    translation: str  # an official translation file's role entry, and .po/diff field names: "first"


NIGHT_TABLE = (Night("first_night", "first_night_reminder", "firstNight", "firstNightReminder", "first"),
               Night("other_nights", "other_night_reminder", "otherNight", "otherNightReminder", "other"))
NIGHTS = tuple(n.key for n in NIGHT_TABLE)
#: night key -> its spellings
NIGHT = {n.key: n for n in NIGHT_TABLE}
#: a character's reminder text field -> its night
NIGHT_OF_FIELD = {n.reminder_field: n for n in NIGHT_TABLE}
#: night -> the text field holding a character's reminder for it
NIGHT_REMINDER_FIELDS = {n.key: n.reminder_field for n in NIGHT_TABLE}
#: our text field -> its key in the official character object (script JSON, official roles file)
OFFICIAL_TEXT_KEYS = {"name": "name", "ability": "ability", "flavor": "flavor",
                      **{n.reminder_field: n.official_reminder for n in NIGHT_TABLE}}


@dataclass(frozen=True)
class Texts:
    """One character's texts in one language; a field is None where nobody wrote it."""

    name: str
    ability: str
    aliases: tuple[str, ...] = ()
    flavor: str | None = None
    overview: str | None = None
    how_to_run: tuple[str, ...] = ()
    examples: tuple[str, ...] = ()
    first_night_reminder: str | None = None
    other_night_reminder: str | None = None
    translated_from: str | None = None  # the language these texts were translated from; None: originals
    # (field, the data layer its text comes from), where known; not part of the texts' equality
    layers: tuple[tuple[str, str], ...] = field(default=(), compare=False)

    def night_reminder(self, night: str) -> str | None:
        """The reminder for `night` ("first_night" or "other_nights") in these texts."""
        value: str | None = getattr(self, NIGHT_REMINDER_FIELDS[night])
        return value

    def as_dict(self) -> dict[str, Any]:
        """The fields that have text, in almanac order (absent keys where there is none)."""
        out: dict[str, Any] = {"name": self.name}
        if self.aliases:
            out["aliases"] = list(self.aliases)
        for key in TEXT_FIELDS[1:]:
            value = getattr(self, key)
            if value:
                out[key] = list(value) if key in LIST_FIELDS else value
        return out


Span = tuple[int, int]


@dataclass(frozen=True)
class SetupEffect:
    """How a character changes setup (the fields are documented in the characters schema).

    Count changes are (min, max) deltas per team count key; every value between is a choice
    unless the key is in `ends_only` ("-1 or +1": the Storyteller picks one end).
    """

    counts: dict[str, Span] = field(default_factory=dict)
    ends_only: tuple[str, ...] = ()
    demon_token: bool = True
    extra_copies: Span | None = None
    extra_copies_drunk: int = 0
    adds: tuple[str, ...] = ()
    evil_townsfolk: int = 0
    bag_token: str | None = None
    outsiders_any: int | None = None  # any Outsider count from this number up
    no_evil: bool = False  # no Minions and no Demon: their seats are Townsfolk
    majority: bool = False  # most players are this character; no Minions
    seating: bool = False  # the bracket also says who sits where (no count change)
    duplicate_good: bool = False  # good characters can be in play more than once
    selection: tuple[str, ...] = ()  # the official `special` selection marks (bag-duplicate, ...)
    unmodelled: tuple[str, ...] = ()  # clauses scriptforge cannot count

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> "SetupEffect":
        def span(value: int | list[int]) -> Span:
            return (value, value) if isinstance(value, int) else (value[0], value[1])

        return cls(
            counts={k: span(data[k]) for k in ("townsfolk", "outsiders", "minions", "demons") if k in data},
            ends_only=tuple(data.get("ends_only", ())),
            demon_token=data.get("demon_token", True),
            extra_copies=span(data["extra_copies"]) if "extra_copies" in data else None,
            extra_copies_drunk=data.get("extra_copies_drunk", 0),
            adds=tuple(data.get("adds", ())),
            evil_townsfolk=data.get("evil_townsfolk", 0),
            bag_token=data.get("bag_token"),
            outsiders_any=data.get("outsiders_any"),
            no_evil=data.get("no_evil", False),
            majority=data.get("majority", False),
            seating=data.get("seating", False),
            duplicate_good=data.get("duplicate_good", False),
            selection=tuple(data.get("selection", ())),
            unmodelled=tuple(data.get("unmodelled", ())),
        )

    def as_dict(self) -> dict[str, Any]:
        def compact(span: Span) -> int | list[int]:
            return span[0] if span[0] == span[1] else list(span)

        out: dict[str, Any] = {k: compact(v) for k, v in self.counts.items()}
        if self.ends_only:
            out["ends_only"] = list(self.ends_only)
        if not self.demon_token:
            out["demon_token"] = False
        if self.extra_copies:
            out["extra_copies"] = compact(self.extra_copies)
        if self.extra_copies_drunk:
            out["extra_copies_drunk"] = self.extra_copies_drunk
        if self.adds:
            out["adds"] = list(self.adds)
        if self.evil_townsfolk:
            out["evil_townsfolk"] = self.evil_townsfolk
        if self.bag_token:
            out["bag_token"] = self.bag_token
        if self.outsiders_any is not None:
            out["outsiders_any"] = self.outsiders_any
        for flag in ("no_evil", "majority", "seating", "duplicate_good"):
            if getattr(self, flag):
                out[flag] = True
        if self.selection:
            out["selection"] = list(self.selection)
        if self.unmodelled:
            out["unmodelled"] = list(self.unmodelled)
        return out

    def choices(self, key: str) -> tuple[int, ...]:
        """The deltas the Storyteller can pick for one count key (0 when the key is not changed)."""
        lo, hi = self.counts.get(key, (0, 0))
        return (lo, hi) if key in self.ends_only and lo != hi else tuple(range(lo, hi + 1))


@dataclass(frozen=True)
class Character:
    """A character: its facts (team, edition, reminder tokens, setup effect, a homebrew
    character's night numbers) and its texts per language."""

    id: str
    team: str
    edition: str
    texts: dict[str, Texts]
    reminders: tuple[str, ...] = ()
    reminders_global: tuple[str, ...] = ()
    setup: SetupEffect | None = None
    aliases: tuple[str, ...] = ()
    homebrew: bool = False
    night: dict[str, float] = field(default_factory=dict)  # homebrew night numbers
    source: str = "scriptforge"

    def text(self, lang: str) -> Texts | None:
        return self.texts.get(lang)

    def original_language(self) -> str | None:
        """The first language (registry order) whose texts are not a translation."""
        return next((code for code in registry().languages
                     if code in self.texts and self.texts[code].translated_from is None), None)

    def languages_for(self, lang: str) -> tuple[str, ...]:
        """Where this character's texts in `lang` are looked for, in order: `lang`, the language
        its `lang` texts were translated from (no texts: its original language), then the
        registry's fallbacks; only languages it has texts in."""
        own = self.texts.get(lang)
        source = own.translated_from if own is not None else self.original_language()
        return tuple(code for code in fallback_chain(lang, source) if code in self.texts)

    def texts_for(self, lang: str) -> tuple[Texts | None, str | None]:
        """(texts, their language): in `lang`, else along `languages_for`; (None, None) without any."""
        chain = self.languages_for(lang)
        return (self.texts[chain[0]], chain[0]) if chain else (None, None)

    def field(self, name: str, lang: str) -> tuple[object, str | None]:
        """One text field in `lang`, else along `languages_for`: (value, its language) or (None, None)."""
        for code in self.languages_for(lang):
            value = getattr(self.texts[code], name)
            if value:
                return value, code
        return None, None

    def night_reminder(self, night: str, lang: str) -> tuple[str | None, str | None]:
        """The storyteller's reminder for `night` ("first_night" or "other_nights") in `lang`, else
        along `languages_for`: (text, its language), (None, None) where nobody wrote one."""
        for code in self.languages_for(lang):
            text = self.texts[code].night_reminder(night)
            if text:
                return text, code
        return None, None

    def name(self, lang: str) -> str:
        """The name in `lang`, else along `languages_for`, else the id."""
        texts, _ = self.texts_for(lang)
        return texts.name if texts else self.id


@dataclass(frozen=True)
class Jinx:
    """A jinx of the database: the pair of character ids, and its text per language."""

    characters: tuple[str, str]
    texts: dict[str, str]

    @property
    def key(self) -> str:
        return "-".join(self.characters)

    def text(self, lang: str) -> str | None:
        return pick_text(self.texts, lang)


@dataclass(frozen=True)
class NightStep:
    """A night-sheet entry that is not a character: dusk, minion info, demon info, dawn."""

    id: str
    names: dict[str, str]
    first_night: dict[str, str]
    other_nights: dict[str, str]

    def name(self, lang: str) -> str:
        return pick_text(self.names, lang) or self.id

    def reminder(self, night: str, lang: str) -> str | None:
        """The step's text for `night` in `lang`, else along the registry's fallbacks."""
        texts: dict[str, str] = getattr(self, NIGHT[night].key)
        return pick_text(texts, lang)


def pick_text(texts: dict[str, str], lang: str) -> str | None:
    """The text of `texts` (lang -> text) in `lang`, else along the registry's fallbacks."""
    return pick_text_lang(texts, lang)[0]


def pick_text_lang(texts: dict[str, str], lang: str) -> tuple[str | None, str | None]:
    """(text, its language) of `texts` in `lang`, else along the registry's fallbacks; (None, None)."""
    return next(((texts[code], code) for code in fallback_chain(lang) if texts.get(code)), (None, None))
