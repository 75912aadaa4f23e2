"""Applying a language's glossary: replace variant spellings with the established term.

Each entry of `data/<lang>/glossary.yaml` has one canonical `term`, its `variants` and, in
`wrong_in`, the kinds of text where a variant is wrong (default: every rule text, i.e. all
kinds but flavor, where an ordinary word such as 이방인 "a stranger" is fine).

Korean particles follow the last syllable of the word before them (은/는, 이/가, 을/를, ...),
so when a replacement changes whether that syllable has a final consonant, the particle
after it changes too (수도승은 -> 수도사는).
"""

from dataclasses import dataclass
import re

_HANGUL = re.compile(r"[가-힣]")
# (after a final consonant, after a vowel); longest first so 이라고 wins over 이.
_PARTICLES = [
    ("으로", "로"), ("이라고", "라고"), ("이라는", "라는"), ("이라면", "라면"), ("이라", "라"),
    ("이나", "나"), ("이며", "며"), ("이든", "든"), ("이었", "였"), ("이에요", "예요"),
    ("은", "는"), ("이", "가"), ("을", "를"), ("과", "와"),
]


def _final(syllable: str) -> int:
    """Index of the final consonant of a Hangul syllable (0: none, 8: ㄹ); -1 for other characters."""
    code = ord(syllable) - 0xAC00
    return code % 28 if 0 <= code < 11172 else -1


def _particle(word: str, rest: str) -> tuple[str, str]:
    """The particle at the start of `rest` (text after `word`) and the form agreeing with `word`."""
    final = _final(word[-1])
    if final < 0:
        return "", ""
    for with_final, without in _PARTICLES:
        for particle in (with_final, without):
            if rest.startswith(particle):
                if with_final == "으로":
                    return particle, without if final in (0, 8) else with_final
                return particle, with_final if final else without
    return "", ""


#: The kinds of text a glossary entry's `wrong_in` names (night: night reminders and night steps;
#: reminders: reminder-token labels; ui: interface words).
FIELD_KINDS = ("name", "ability", "flavor", "overview", "how_to_run", "examples", "night", "reminders",
               "jinxes", "ui")
#: Where a variant is wrong unless an entry says otherwise.
RULE_FIELDS = tuple(kind for kind in FIELD_KINDS if kind != "flavor")


def wrong_in(term: dict) -> tuple[str, ...]:
    """The kinds of text where `term`'s variants are wrong."""
    return tuple(term.get("wrong_in", RULE_FIELDS))


def terms_for(terms: list[dict], kind: str) -> list[dict]:
    """The entries whose variants are wrong in a text of `kind` (one of FIELD_KINDS)."""
    return [term for term in terms if kind in wrong_in(term)]


@dataclass(frozen=True)
class Replacement:
    """One replacement `apply_glossary` made: a variant spelling, and the glossary term put in its place."""

    variant: str
    term: str


def variant_pattern(terms: list[dict]) -> tuple[re.Pattern[str] | None, dict[str, str]]:
    """One regex matching any variant (longest first), not glued to a preceding Hangul syllable,
    nor followed by what its entry's `keep_before` lists (살아 있는 한 is another phrase)."""
    table = {v: t["term"] for t in terms for v in t.get("variants", ())}
    if not table:
        return None, table
    keep = {v: t.get("keep_before", ()) for t in terms for v in t.get("variants", ())}

    def alternative(variant: str) -> str:
        after = "|".join(re.escape(k) for k in keep[variant])
        return re.escape(variant) + (f"(?!{after})" if after else "")

    alternatives = "|".join(alternative(v) for v in sorted(table, key=len, reverse=True))
    return re.compile(rf"(?<![가-힣A-Za-z])(?:{alternatives})"), table


def apply_glossary(text: str, terms: list[dict], kind: str | None) -> tuple[str, list[Replacement]]:
    """Replace every variant that is wrong in a text of `kind` (None: of every entry) with its
    term; return the new text and what was replaced."""
    pattern, table = variant_pattern(terms if kind is None else terms_for(terms, kind))
    if pattern is None:
        return text, []
    out: list[str] = []
    done: list[Replacement] = []
    pos = 0
    for match in pattern.finditer(text):
        if match.start() < pos:
            continue
        variant = match.group(0)
        term = table[variant]
        out.append(text[pos:match.start()])
        out.append(term)
        done.append(Replacement(variant, term))
        pos = match.end()
        if _HANGUL.match(variant[-1:]):
            found, wanted = _particle(term, text[pos:])
            out.append(wanted)
            pos += len(found)
    out.append(text[pos:])
    return "".join(out), done
