"""Korean: particles and endings after a name, native numerals with their counters, a typo as one
jamo off, the plain present of the official night texts (깨웁니다, not 깨우세요)."""

from collections.abc import Iterable, Iterator
import functools
import re

from scriptforge.l10n.lang.base import Language

# Particles and endings that may follow a name (longest first).
_SUFFIXES = sorted("""은 는 이 가 을 를 의 에 와 과 도 만 로 으로 에게 에게서 께서 한테 에서 까지 부터 처럼 보다
이나 나 이며 며 이든 든 이고 고 이라 라 이라고 라고 이라는 라는 이라면 라면 이다 다 입니다 이었 였 이에요 예요
인 임 들 들이 들은 들을 들의 들에게""".split(), key=len, reverse=True)
# Syllables that end a verb stem (소환하-, 중독되-): a word ending in one is a verb, no name
_VERB_STEM_ENDS = ("하", "되")
_WORD = re.compile(r"[가-힣]+")
_NUMERALS = {"두": 2, "둘": 2, "세": 3, "셋": 3, "네": 4, "넷": 4, "다섯": 5, "여섯": 6, "일곱": 7,
             "여덟": 8, "아홉": 9, "열": 10}
_NUMBER_WORD = re.compile(r"(?<![가-힣])(두|둘|세|셋|네|넷|다섯|여섯|일곱|여덟|아홉|열)"
                          r"(?=\s*(?:명|번|개|쌍|플레이어|캐릭터|가지))")
_COUNTED = {"한": 1, "두": 2, "세": 3, "네": 4, "다섯": 5}
_IMPERATIVE = re.compile(r"[가-힣]+세요(?=[.!)]|$)")


@functools.lru_cache(maxsize=65536)
def stems(word: str) -> frozenset[str]:
    """The word and what is left of it without each particle or ending it may carry."""
    out = {word}
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) > len(suffix):
            out.add(word[: -len(suffix)])
    return frozenset(out)


def jamo(syllable: str) -> tuple[int, int, int] | None:
    """A Hangul syllable's initial, medial and final letter (None for anything else)."""
    code = ord(syllable) - 0xAC00
    return (code // 588, code % 588 // 28, code % 28) if 0 <= code < 11172 else None


class Korean(Language):
    typo_free_groups = ()
    register_hint = "night texts describe what happens ('깨웁니다', '놓습니다', '보여 줍니다')"

    def numbers(self, text: str) -> set[int]:
        found = {int(n) for n in re.findall(r"\d+", text)}
        found |= {_NUMERALS[word] for word in _NUMBER_WORD.findall(text)}
        return {n for n in found if n >= 2}

    def counters_as_digits(self, text: str) -> str:
        """'한 번' -> '1명', '2번' -> '2명', '두 명' -> '2명'."""
        text = re.sub(r"(한|두|세|네|다섯)\s*(명|번)", lambda m: f"{_COUNTED[m.group(1)]}명", text)
        return re.sub(r"(\d)\s*번", r"\1명", text)

    def imperatives(self, text: str) -> list[str]:
        return _IMPERATIVE.findall(text)

    def names_label(self, label: str, text: str) -> bool:
        """A label is named in quotes: '중독'."""
        return f"'{label}'" in text or f"‘{label}’" in text

    def candidates(self, text: str, lower_words: set[str]) -> Iterator[tuple[int, str, set[str]]]:
        """Every word and pair of words, with each particle or ending taken off."""
        words = _WORD.findall(text)
        for i, word in enumerate(words):
            for stem in stems(word):
                yield 1, stem, {stem}
            if i + 1 < len(words):
                for stem in stems(words[i + 1]):
                    yield 2, word + stem, {word + stem}

    def lower_words(self, texts: Iterable[str]) -> set[str]:
        return set()

    def is_typo(self, candidate: str, name: str) -> bool:
        """Same length, one syllable different by one jamo (미망임 / 미망인), outside a one-syllable
        word; a verb stem (소환하-: 소환하다) is no misspelt name (소환사)."""
        compact = name.replace(" ", "")
        if len(compact) < 3 or len(candidate) != len(compact):
            return False
        if candidate.endswith(_VERB_STEM_ENDS) and not compact.endswith(_VERB_STEM_ENDS):
            return False
        diffs = [i for i, (x, y) in enumerate(zip(candidate, compact)) if x != y]
        if len(diffs) != 1:
            return False
        i = diffs[0]
        a, b = jamo(candidate[i]), jamo(compact[i])
        if a is None or b is None or sum(x != y for x, y in zip(a, b)) != 1:
            return False
        pos = 0
        for word in name.split():
            if pos <= i < pos + len(word):
                return len(word) > 1
            pos += len(word)
        return True
