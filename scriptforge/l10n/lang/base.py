"""The rules every language starts from: words are runs of letters, names are compared letter
by letter, only digits state numbers, there is no night register to keep."""

from collections.abc import Iterable, Iterator
import re

_WORD = re.compile(r"[^\W\d_](?:[^\W\d_]|['’])*")


class Language:
    """A language's check rules; a module per language overrides what differs (see `ko`, `en`)."""

    #: number words -> the number (lower case); digits count in every language
    number_words: dict[str, int] = {}
    #: the kinds of text where a word one letter from a name is not looked for (a flavor text
    #: names people, Harry is no misspelt Harpy)
    typo_free_groups: tuple[str, ...] = ("flavor",)
    #: what the night-register finding says to write instead
    register_hint = ""

    def words(self, text: str) -> list[re.Match]:
        return list(_WORD.finditer(text))

    def numbers(self, text: str) -> set[int]:
        """The numbers a text states, 2 and up (1 is the article: 'a player' is '플레이어 1명')."""
        found = {int(n) for n in re.findall(r"\d+", text)}
        found |= {self.number_words[w.group(0).lower()] for w in self.words(text)
                  if w.group(0).lower() in self.number_words}
        return {n for n in found if n >= 2}

    def counters_as_digits(self, text: str) -> str:
        """The text with counted numbers as digits, for reading a setup bracket."""
        return text

    def imperatives(self, text: str) -> list[str]:
        """Words of a night text in a register the official night texts do not use."""
        return []

    def names_label(self, label: str, text: str) -> bool:
        """Whether a night text names a reminder token by its label: the label in capitals (POISONED)."""
        letters = re.findall(r"[^\W\d_]", label)
        return len(letters) >= 2 and label.upper() != label.lower() and \
            re.search(rf"(?<![^\W\d_]){re.escape(label.upper())}(?![^\W\d_])", text) is not None

    def candidates(self, text: str, lower_words: set[str]) -> Iterator[tuple[int, str, set[str]]]:
        """(number of words, the word(s) joined without spaces, its forms) that could be a name:
        capitalised words not at a sentence's start, one to three in a row."""
        matches = self.words(text)
        for i, match in enumerate(matches):
            word = match.group(0)
            if not word[0].isupper():
                continue
            # A capital after a sentence end is no sign of a name ("Drink up" is not the Drunk).
            before = text[: match.start()].rstrip()
            sentence_start = not before or before[-1] in ".!?:\"“"
            for n in (1, 2, 3):
                group = [m.group(0) for m in matches[i:i + n]]
                if len(group) < n:
                    break
                joined = "".join(group)
                # A plural or possessive of a known name is that name, not a misspelling of it.
                forms = {joined, re.sub(r"'s$|s'?$", "", joined)}
                if n == 1 and (sentence_start or joined.lower() in lower_words):
                    continue
                for form in forms:
                    yield n, form, forms

    def lower_words(self, texts: Iterable[str]) -> set[str]:
        """Words written in lower case somewhere in the texts: a capitalised one of them starts a
        phrase, it names nothing."""
        return {m.group(0).lower() for text in texts for m in self.words(text) if m.group(0)[0].islower()}

    def is_typo(self, candidate: str, name: str) -> bool:
        """Levenshtein distance 1, same first letter, at least four letters."""
        a, b = candidate, name.replace(" ", "")
        if len(a) < 4 or a == b or a[0] != b[0] or abs(len(a) - len(b)) > 1:
            return False
        if len(a) == len(b):
            return sum(x != y for x, y in zip(a, b)) == 1
        if len(a) > len(b):
            a, b = b, a
        return any(b[:i] + b[i + 1:] == a for i in range(len(b)))
