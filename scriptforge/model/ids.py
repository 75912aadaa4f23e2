"""The one place ids and addresses are made: character ids, reminder-token ids, name keys, the
locale prefix of script ids (`ko_KR_imp`); JSON pointers are `errors.json_pointer`.

A reminder token's id is made from its English label by the same rule as the official
translation files' `reminders` keys, so a translated label finds its token without a mapping.
"""

from collections.abc import Callable, Iterable, Sequence
import hashlib
import re
import unicodedata

from scriptforge.io.errors import NotFoundError

_NOT_ID = re.compile(r"[^a-z0-9]")
_NOT_NAME = re.compile(r"[\s'’`´\-_.·]")
_LOCALE_PREFIX = re.compile(r"^[a-z]{2}_[A-Z]{2}_")
NIGHT_STEPS = ("dusk", "minioninfo", "demoninfo", "dawn")


def normalize_id(text: str) -> str:
    """Official-id form: lowercase, every character outside [a-z0-9] dropped (`Lil' Monsta` -> `lilmonsta`)."""
    return _NOT_ID.sub("", text.lower())


def token_id(label: str) -> str:
    """A reminder token's id from its English label, the official translation files' key:
    "Red Herring" -> redherring, "3 Votes" -> 3votes. A label without a letter or digit ("?")
    gets its code points instead ("u3f"), so that every label has an id."""
    return normalize_id(label) or "u" + "".join(f"{ord(c):x}" for c in label.strip())


def neutral_label(label: str) -> bool:
    """A reminder label that reads the same in every language: no word in it, a mark or a number
    ("?", "1", "X", "+1"), so no language is missing it."""
    letters = re.findall(r"[^\W\d_]", label)
    return not letters or (len(letters) == 1 and letters[0].isascii() and len(label.strip()) <= 2)


def name_key(text: str) -> str:
    """Lookup key for names in any script: NFC, casefolded, without spaces, apostrophes and dashes."""
    return _NOT_NAME.sub("", unicodedata.normalize("NFC", text).casefold())


def letters_key(key: str) -> str:
    """A name key spelt letter by letter: each Hangul syllable as its jamo (NFD), so that a close
    match is measured in letters, 병사 nearer 병사 than 역병 의사; other scripts are unchanged."""
    return unicodedata.normalize("NFD", key)


def without_locale(text: str) -> str:
    """An id as some script tools write it, without their locale prefix: `ko_KR_imp` -> `imp`."""
    return _LOCALE_PREFIX.sub("", text)


class NameIndex:
    """Name key -> the ids it names, in the order added, and the words (ids and names as written)
    shell completion offers: the one lookup behind `find`, `resolve`, `suggest` and `complete` of
    the BotC database and of every other rule set (`games`)."""

    def __init__(self) -> None:
        self._ids: dict[str, list[str]] = {}
        self._words: dict[str, str] = {}  # casefolded word -> the word as first added
        self._weak: set[str] = set()  # keys only `add_if_free` gave

    def add(self, key: str, item_id: str) -> None:
        ids = self._ids.setdefault(key, [])
        if item_id not in ids:
            ids.append(item_id)

    def add_if_free(self, key: str, item_id: str) -> None:
        """A name people use besides the proper ones (an earlier or community name, a spelling in
        another script): kept unless `key` is already a proper name of another item."""
        if key in self._ids and key not in self._weak:
            return
        self._weak.add(key)
        self.add(key, item_id)

    def add_word(self, word: str) -> None:
        """A word `complete` offers (an id, or a name in some language), after those added before."""
        self._words.setdefault(word.casefold(), word)

    def ids(self, key: str) -> list[str]:
        """The ids `key` (already a name key or an id) names, in the order added."""
        return self._ids.get(key, [])

    def find(self, keys: Iterable[str]) -> list[str]:
        """The ids the first of `keys` that names anything names ([] where none does)."""
        return next((list(self._ids[key]) for key in keys if key in self._ids), [])

    def resolve(self, name: str, found: Sequence[str], shown: Callable[[str], str],
                suggest: Callable[[str], list[str]], noun: str, within: str = "") -> str:
        """The one id of `found` (what `name` was found to name); else a NotFoundError that lists
        them (`shown(id)` beside each) or, where none was found, says the `noun` and offers
        `suggest(name)`; `within` names the rule set where it is not the only one."""
        if len(found) == 1:
            return found[0]
        where = f" in {within}" if within else ""
        if found:
            raise NotFoundError(f"'{name}' is ambiguous{where}: it names " + ", ".join(f"{i} ({shown(i)})" for i in found))
        hint = suggest(name)
        raise NotFoundError(f"no {noun} named '{name}'{where}" + (f"; did you mean {', '.join(hint)}?" if hint else ""))

    def suggest(self, name: str, label: Callable[[str], str], limit: int = 3, *, by_id: bool = False) -> list[str]:
        """Display labels (`label(id)`) of the close matches for a misspelt `name`, at most `limit`;
        `by_id`: each key's ids in id order instead of the order added."""
        # deferred: start-up time (only a misspelt name needs it)
        import difflib

        letters = {letters_key(key): key for key in reversed(list(self._ids))}  # the first added wins
        out: list[str] = []
        for close in difflib.get_close_matches(letters_key(name_key(name)), letters, n=limit * 2, cutoff=0.6):
            key = letters[close]
            for item_id in sorted(self._ids[key]) if by_id else self._ids[key]:
                shown = label(item_id)
                if shown not in out:
                    out.append(shown)
        return out[:limit]

    def complete(self, prefix: str) -> list[str]:
        """The words added that start with `prefix` (case-insensitive, in any language), in the
        order added: what the shell completes a name with."""
        start = prefix.casefold()
        return [word for key, word in self._words.items() if key.startswith(start)]


def text_hash(value: str | Sequence[str]) -> str:
    """A text's address in translation records: 12 hex digits of its sha256 (a list's items
    joined with a newline)."""
    if not isinstance(value, str):
        value = "\n".join(value)
    return hashlib.sha256(value.encode("utf-8")).hexdigest()[:12]
