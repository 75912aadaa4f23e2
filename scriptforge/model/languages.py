"""The language registry (data/languages.json): which languages exist, how they are written
and printed, and where a missing text falls back to.

Nothing else in scriptforge names a language: the CLI's ``--lang`` choices, the schemas' language
keys, text fallbacks and the guess of a script's text language all come from here. Texts exist only
for the languages that have a data folder (built in: English and Korean) or a pack folder.

A *sheet language* is one code (``de``) or two joined by ``+`` (``ko+en``): the texts of the first,
with the second shown beside them (``show`` prints both; sheets print the second's names small).
"""

from bisect import bisect_right
from dataclasses import dataclass
from functools import cache, lru_cache
import json
from pathlib import Path

from scriptforge.io.paths import DATA_DIR

REGISTRY_PATH = DATA_DIR / "languages.json"
#: The shape of a language code in data files and schemas (the registry decides which exist).


@dataclass(frozen=True)
class WritingSystem:
    """A writing system of the registry: its ISO 15924 code, its name, its Unicode ranges
    (`char in system`) and the Debian package with fonts for it."""

    code: str  # ISO 15924: Latn, Hang, Kana, ...
    name: str
    ranges: tuple[tuple[int, int], ...]
    font_package: str = ""  # the Debian package with fonts for it

    def __contains__(self, char: str) -> bool:
        point = ord(char)
        return any(lo <= point <= hi for lo, hi in self.ranges)


@dataclass(frozen=True)
class Language:
    """A language of the registry: its names, writing systems, letters, fallbacks and how
    its texts are written (plural forms, quotation marks)."""

    code: str
    name: str  # in English
    native: str  # in the language itself
    writing_systems: tuple[str, ...]
    letters: str  # letters a font must have to set the language (CLDR-style exemplar characters)
    fallback: tuple[str, ...]  # where its missing texts are looked for before registry order
    translation_file: str  # its code in the official translation repository (zh_Hans for zh-Hans)
    aliases: tuple[str, ...] = ()  # other spellings --lang accepts (zh, zh_Hans)
    plural_forms: str = "nplurals=2; plural=(n != 1);"  # gettext's Plural-Forms header
    quotes: tuple[tuple[str, str], ...] = (("“", "”"),)  # its quotation marks, (opening, closing)
    # system font families that set it in its own glyph forms (祖 has a Japanese, a Chinese and a
    # Korean form): named first on its pages, after the bundled fonts
    fonts: tuple[str, ...] = ()


@dataclass(frozen=True)
class Registry:
    """The language registry (data/languages.json): its languages and writing systems, the
    official language and the default language per use."""

    languages: dict[str, Language]  # in registry order
    writing_systems: dict[str, WritingSystem]
    official: str  # the language of the official data and of the sheet-order rule
    defaults: dict[str, str]  # "text" (reference commands), "sheet" (printing), "pair" (the example of
    # two joined), "both" (what show and search print by default)


def _span(text: str) -> tuple[int, int]:
    lo, _, hi = text.partition("-")
    return int(lo, 16), int(hi or lo, 16)


@cache
def registry(path: Path = REGISTRY_PATH) -> Registry:
    data = json.loads(path.read_text(encoding="utf-8"))
    systems = {code: WritingSystem(code, ws["name"], tuple(_span(r) for r in ws["ranges"]), ws.get("font_package", ""))
               for code, ws in data["writing_systems"].items()}
    languages = {lang["code"]: Language(lang["code"], lang["name"], lang["native"], tuple(lang["writing_systems"]),
                                        lang["letters"], tuple(lang["fallback"]),
                                        lang.get("translation_file", lang["code"]), tuple(lang.get("aliases", ())),
                                        lang.get("plural_forms", Language.plural_forms),
                                        tuple((a, b) for a, b in lang.get("quotes", Language.quotes)),
                                        tuple(lang.get("fonts", ())))
                 for lang in data["languages"]}
    return Registry(languages, systems, data["official"], dict(data["defaults"]))


def codes() -> tuple[str, ...]:
    return tuple(registry().languages)


def get(code: str) -> Language:
    return registry().languages[code]


def official() -> str:
    return registry().official


def default(kind: str) -> str:
    return registry().defaults[kind]


def resolve(value: str) -> str | None:
    """The registry code that `value` names: a code, one of its aliases or its official file code
    (zh, zh_Hans -> zh-Hans), a pair of them joined by '+'; None for anything else."""
    spellings = {spelling: lang.code for lang in registry().languages.values()
                 for spelling in (lang.code, lang.translation_file, *lang.aliases)}
    parts = [spellings.get(part) for part in value.split("+")]
    if not 1 <= len(parts) <= 2 or None in parts or len(set(parts)) != len(parts):
        return None
    return "+".join(p for p in parts if p)


def split_pair(value: str) -> tuple[str, str | None]:
    """A sheet language as (texts language, language shown beside it or None): ko+en -> (ko, en)."""
    first, _, second = value.partition("+")
    return first, second or None


def shown(value: str) -> tuple[str, ...]:
    """Every language a sheet language shows, in order: ko+en -> (ko, en)."""
    first, second = split_pair(value)
    return (first, second) if second else (first,)


# -- writing systems -------------------------------------------------------------------------------


@cache
def _spans() -> tuple[list[int], list[tuple[int, str]]]:
    """Every writing system's ranges sorted by start, for `bisect`: (starts, [(end, system code)]).
    The registry's ranges do not overlap (tests/test_languages.py checks it)."""
    spans = sorted((lo, hi, ws.code) for ws in registry().writing_systems.values() for lo, hi in ws.ranges)
    return [lo for lo, _, _ in spans], [(hi, code) for _, hi, code in spans]


@lru_cache(maxsize=4096)
def system_of(char: str) -> str | None:
    """The writing system (Latn, Hang, ...) whose ranges hold `char`, or None (remembered for the
    characters last asked about: a corpus repeats the same few thousand)."""
    starts, ends = _spans()
    point = ord(char)
    index = bisect_right(starts, point) - 1
    if index >= 0 and point <= ends[index][0]:
        return ends[index][1]
    return None


class _Letters(dict[str, "str | None"]):
    """Character -> its writing system if it is a letter (else None), each looked up once."""

    def __missing__(self, char: str) -> str | None:
        if len(self) > 50_000:  # a text of every character: start again rather than grow
            self.clear()
        code = self[char] = system_of(char) if char.isalpha() else None
        return code


_LETTERS = _Letters()


def writing_systems(text: str) -> set[str]:
    """The writing systems (Latn, Hang, ...) of the letters in `text`.

    Each distinct character is looked up once per process, by bisection over the sorted ranges
    (a corpus of 10,000 scripts has millions of characters but few distinct ones)."""
    letters = _LETTERS
    found = {letters[char] for char in set(text or "")}
    found.discard(None)
    return found  # type: ignore[return-value]  # None removed


def uses(text: str, system: str) -> bool:
    """Whether `text` has a letter of writing system `system` (e.g. "Hang")."""
    return any(system_of(char) == system for char in set(text or ""))


def char_class(system: str) -> str:
    """The letters of writing system `system` as the inside of a regex character class."""
    return "".join(f"\\u{lo:04x}-\\u{hi:04x}" if hi <= 0xFFFF else f"\\U{lo:08x}-\\U{hi:08x}"
                   for lo, hi in registry().writing_systems[system].ranges)


def detect(text: str, among: tuple[str, ...] | list[str]) -> str:
    """The language of `text` out of `among` (registry order): the first whose writing systems hold
    every writing system of the text, else the one holding most; `among`'s first when no letter tells."""
    return _detect(frozenset(writing_systems(text)), tuple(among))


@lru_cache(maxsize=1024)
def _detect(found: frozenset[str], among: tuple[str, ...]) -> str:
    """`detect` from the text's writing systems (few combinations: remembered)."""
    ordered = [code for code in registry().languages if code in among]
    if not found or not ordered:
        return ordered[0] if ordered else among[0]
    return max(ordered, key=lambda code: (len(found & set(get(code).writing_systems)), -ordered.index(code)))


# -- fonts -----------------------------------------------------------------------------------------


def font_packages(code: str) -> tuple[str, ...]:
    """The Debian packages whose fonts set language `code`'s writing systems."""
    systems = registry().writing_systems
    return tuple(dict.fromkeys(systems[ws].font_package for ws in get(code).writing_systems
                               if ws in systems and systems[ws].font_package))


def unprintable_letters(code: str, coverage: frozenset[int]) -> str:
    """The letters of language `code` that the fonts with `coverage` cannot set ("" when it can)."""
    return "".join(c for c in get(code).letters if ord(c) not in coverage)


# -- fallbacks -------------------------------------------------------------------------


@lru_cache(maxsize=1024)
def fallback_chain(code: str, source: str | None = None) -> tuple[str, ...]:
    """Where a text in `code` is looked for: `code`, then the language the text was written or
    translated from (`source`), then `code`'s own fallbacks, then registry order (the registry
    never changes in a process: each chain is made once)."""
    chain = [code, *([source] if source else []), *(get(code).fallback if code in registry().languages else ()),
             *registry().languages]
    return tuple(dict.fromkeys(chain))


def present(folder: Path) -> tuple[str, ...]:
    """The registry's languages that have a sub-folder of `folder` (data/en, data/ko, ...)."""
    return tuple(code for code in registry().languages if (folder / code).is_dir())


def translation_source(code: str, available: tuple[str, ...] | list[str]) -> str | None:
    """The language a translation into `code` is made from when nothing is recorded: the first of
    `code`'s fallbacks (then registry order) among `available`."""
    return next((other for other in fallback_chain(code) if other != code and other in available), None)
