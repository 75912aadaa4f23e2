"""Reading a homebrew ability's "[...]" setup bracket into the structured SetupEffect.

English and Korean wordings are read; a clause whose wording is not understood is returned
as unknown (the caller turns it into a warning) and never guessed at.
"""

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
import functools
import re
from typing import Any

from scriptforge.model.records import SetupEffect


class _Pattern:
    """A regular expression compiled on first use: most scripts have no homebrew bracket to read,
    and compiling these fifteen at import cost ~4 ms of every command's start-up."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self._source = (pattern, flags)

    @functools.cached_property
    def _compiled(self) -> re.Pattern[str]:
        return re.compile(*self._source)

    def match(self, text: str) -> re.Match[str] | None:
        return self._compiled.match(text)

    def search(self, text: str) -> re.Match[str] | None:
        return self._compiled.search(text)

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        return self._compiled.finditer(text)

    def sub(self, replacement: str, text: str) -> str:
        return self._compiled.sub(replacement, text)


_BRACKET = _Pattern(r"\[([^\[\]]*)\]")
_TEAM_WORDS = {
    "townsfolk": "townsfolk", "townsfolks": "townsfolk",
    "outsider": "outsiders", "outsiders": "outsiders",
    "minion": "minions", "minions": "minions",
    "demon": "demons", "demons": "demons",
    "주민": "townsfolk", "마을주민": "townsfolk",
    "외지인": "outsiders", "하수인": "minions", "악마": "demons",
}
_EN_TEAM = r"(?P<team>townsfolks?|outsiders?|minions?|demons?)"
_KO_TEAM = r"(?P<team>마을\s*주민|주민|외지인|하수인|악마)"
_NUM = r"[+\-−]\s*\d+"
_ALT = r"(?:\s*(?P<sep>or|to|~|–|또는|에서)\s*(?P<second>[+\-−]?\s*\d+)\s*명?)?"
_EN_COUNT = _Pattern(rf"^(?P<first>{_NUM}){_ALT}\s+{_EN_TEAM}$", re.I)
_KO_COUNT = _Pattern(rf"^{_KO_TEAM}\s*(?P<first>{_NUM})\s*명?{_ALT}$")
_KO_COUNT_NUM_FIRST = _Pattern(rf"^(?P<first>{_NUM})\s*명?{_ALT}\s*{_KO_TEAM}$")
_ADD = _Pattern(r"^\+\s*(?:the\s+)?(?P<name>[^\d+\-].*)$", re.I)
_COPIES = _Pattern(rf"^(?P<first>{_NUM}){_ALT}\s+(?P<name>.+)$", re.I)
_KO_COPIES = _Pattern(rf"^(?P<name>[^\d+\-−]+?)\s*(?P<first>{_NUM})\s*명?{_ALT}$")  # 마을 백치 +0~+2명
_NO_DEMON = _Pattern(r"^(no demon|악마 없음|악마가 없습니다)$", re.I)
_EVIL_TOWNSFOLK = _Pattern(
    r"^(?:(?P<n1>\d+) townsfolk (?:is|are) evil|(?:마을\s*주민|주민) (?P<n2>\d+)명이 악한 팀|"
    r"(?P<n3>\d+)명의 (?:마을\s*주민|주민)이 악합니다|"
    r"(?:마을\s*주민|주민)\s*(?P<n4>\d+)\s*명이\s*악(?:합니다|함|입니다|한 팀입니다|한 팀))$", re.I)
# Korean: 외지인 -?명~+?명 (the official Korean form), -?~+?명, -?명에서 +?명
# and the community's 외지인 수가 늘어나거나 줄어들 수 있습니다 ("the Outsiders may go up or down")
_ANY_OUTSIDERS = _Pattern(r"^(?:-\s*\?\s*(?:to|or|~)\s*\+\s*\?\s+outsiders?|"
                            r"외지인\s*-\s*\?\s*명?\s*(?:~|–|에서|또는)\s*\+\s*\?\s*명?|"
                            r"외지인\s*(?:의\s*)?수가\s*늘어나거나\s*줄어들\s*수\s*있습니다)$", re.I)
# "-?, +?" (a community spelling of "-? to +?"), joined before the clauses are split at commas
_ANY_COMMA = _Pattern(r"-\s*\?\s*명?\s*,\s*\+\s*\?")
# the community's 하수인이 1명 추가되며 / 외지인이 2명 추가로 참여합니다: "+N" of a team
_KO_ADDED = _Pattern(rf"^{_KO_TEAM}\s*(?:이|가)?\s*(?P<first>\d+)\s*명\s*(?:이\s*)?(?:추가|더)")
_X_OUTSIDERS = _Pattern(r"^(?:x outsiders?|외지인\s*x\s*명)$", re.I)
_NO_EVIL = _Pattern(r"^(?:no evil characters?|악한 캐릭터 없음|악한 캐릭터가 없습니다)$", re.I)
_MAJORITY = _Pattern(r"^(?:most players are (?P<n1>.+)|대부분의 (?:플레이어|참가자)가 (?P<n2>.+?)"
                     r"(?:입니다|이 됨|가 됨|이 됩니다|가 됩니다)?)$", re.I)
_SEATING = _Pattern(r"neighbou?r|in a line|in the middle|which players are which|이웃|한 줄|일렬|가운데|누가 어떤|"
                      r"어떤 하수인|나란히", re.I)
_EXTRAS_DRUNK = _Pattern(r"^(?:(?P<n1>\d+) of the extras (?:is|are) drunk|"
                           r"(?:그중|추가된\s*.+?\s*중)\s*(?P<n2>\d+)\s*명은\s*취(?:함|한 상태(?:입니다)?|해 있습니다|합니다))$",
                           re.I)


SELECTION_MARKS = ("bag-disabled", "bag-duplicate", "good-duplicate", "evil-duplicate")


def selection_marks(special: Any) -> tuple[str, ...]:
    """The bag-building marks of an official `special` list (FACTS.md 1.2): the names of its
    `selection` items that the setup model reads, in the schema's order."""
    if not isinstance(special, list):
        return ()
    named = {item.get("name") for item in special if isinstance(item, dict) and item.get("type") == "selection"}
    return tuple(mark for mark in SELECTION_MARKS if mark in named)


def with_marks(effect: SetupEffect | None, marks: tuple[str, ...]) -> SetupEffect | None:
    """The effect with the selection marks added (a character with marks only gets an effect)."""
    if not marks:
        return effect

    return replace(effect or SetupEffect(), selection=tuple(dict.fromkeys((*(effect.selection if effect else ()), *marks))))


@dataclass(frozen=True)
class BracketReading:
    """What `read_brackets` understood of an ability's "[...]" setup brackets."""

    effect: SetupEffect | None  # None when no clause was understood
    brackets: tuple[str, ...]  # the bracket texts found, "[...]" included
    unknown: tuple[str, ...]  # clauses not understood


def _int(text: str) -> int:
    return int(text.replace("−", "-").replace(" ", ""))


def _span(match: re.Match[str]) -> tuple[int, int]:
    first = _int(match.group("first"))
    second = match.group("second")
    if second is None:
        return first, first
    value = _int(second)
    if second.strip()[0] not in "+-−" and first < 0:
        value = -value  # "-0 or 1" keeps the sign of the first number
    return min(first, value), max(first, value)


def _clauses(text: str) -> list[str]:
    text = _ANY_COMMA.sub("-? ~ +?", text)
    parts = re.split(r"[.;,。]\s*|\s+and\s+|\s*그리고\s*", text)
    return [p.strip() for p in parts if p.strip()]


def _singular(name: str) -> str:
    return re.sub(r"(?<=[a-z])s$", "", name.strip(), flags=re.I)


def read_brackets(ability: str, self_names: Iterable[str] = (),
                  resolve: Callable[[str], str | None] | None = None) -> BracketReading:
    """Read every "[...]" in `ability`.

    `self_names`: the character's own names (for "+0 to +2 Village Idiots");
    `resolve`: name -> character id or None (for "+the Damsel").
    """
    brackets = tuple(m.group(0) for m in _BRACKET.finditer(ability or ""))
    counts: dict[str, tuple[int, int]] = {}
    data: dict[str, Any] = {}
    unknown: list[str] = []
    ends: list[str] = []
    own = {_singular(n).casefold() for n in self_names if n}
    for bracket in brackets:
        for clause in _clauses(bracket[1:-1]):
            match = _EN_COUNT.match(clause) or _KO_COUNT.match(clause) or _KO_COUNT_NUM_FIRST.match(clause)
            if match:
                key = _TEAM_WORDS[re.sub(r"\s+", "", match.group("team").lower())]
                lo, hi = _span(match)
                old = counts.get(key, (0, 0))
                counts[key] = (old[0] + lo, old[1] + hi)
                if match.group("sep") in ("or", "또는") and hi - lo > 1:
                    ends.append(key)  # "-1 or +1": not 0
                continue
            match = _KO_ADDED.match(clause)
            if match:
                key = _TEAM_WORDS[re.sub(r"\s+", "", match.group("team"))]
                old = counts.get(key, (0, 0))
                counts[key] = (old[0] + int(match.group("first")), old[1] + int(match.group("first")))
                continue
            if _NO_DEMON.match(clause):
                counts["demons"] = (-1, -1)
                continue
            if _ANY_OUTSIDERS.match(clause) or _X_OUTSIDERS.match(clause):
                # "X Outsiders": X is the night the ability acts on, so at least 1
                data["outsiders_any"] = 0 if _ANY_OUTSIDERS.match(clause) else 1
                continue
            if _NO_EVIL.match(clause):
                data["no_evil"] = True
                continue
            match = _MAJORITY.match(clause)
            if match and own and _singular(match.group("n1") or match.group("n2")).casefold() in own:
                data["majority"] = True
                continue
            if _SEATING.search(clause):
                data["seating"] = True
                continue
            match = _EVIL_TOWNSFOLK.match(clause)
            if match:
                data["evil_townsfolk"] = int(next(g for g in match.groups() if g))
                continue
            match = _EXTRAS_DRUNK.match(clause)
            if match:
                data["extra_copies_drunk"] = int(next(g for g in match.groups() if g))
                continue
            match = _COPIES.match(clause) or _KO_COPIES.match(clause)
            if match and own and _singular(match.group("name")).casefold() in own:
                data["extra_copies"] = _span(match)
                continue
            match = _ADD.match(clause)
            if match and resolve:
                target = resolve(match.group("name").strip())
                if target:
                    data.setdefault("adds", []).append(target)
                    continue
            unknown.append(clause)
    if not counts and not data and not unknown:
        return BracketReading(None, brackets, ())
    effect = SetupEffect(
        counts=counts,
        ends_only=tuple(dict.fromkeys(ends)),
        extra_copies=data.get("extra_copies"),
        extra_copies_drunk=data.get("extra_copies_drunk", 0),
        adds=tuple(data.get("adds", ())),
        evil_townsfolk=data.get("evil_townsfolk", 0),
        outsiders_any=data.get("outsiders_any"),
        no_evil=data.get("no_evil", False),
        majority=data.get("majority", False),
        seating=data.get("seating", False),
        unmodelled=tuple(unknown),
    )
    return BracketReading(effect, brackets, tuple(unknown))
