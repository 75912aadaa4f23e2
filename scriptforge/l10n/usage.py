"""How the official translation files use the glossary's terms, per kind of text.

The official files are the authority for terms: the glossary (data/<lang>/glossary.yaml) says
per entry in which kinds of text (`wrong_in`: ability, night, jinxes, reminders, name, flavor,
ui, ...) a variant is wrong, and that must follow official usage. This module counts, in the
official files of one language — `game/<lang>.json` (character names, abilities, flavor, night
texts, jinxes, reminder labels) and `script/<lang>.json`, `app/<lang>.json` (interface words) —
every spelling of every entry, by kind, and says where the glossary disagrees:

- `conflict`: the glossary calls a spelling wrong in a kind where the official texts use it
  regularly (the glossary should change: add the kind's exception);
- `typo`: a spelling the official texts use once or twice where they otherwise use the entry's
  term (in that kind, or anywhere when that kind never names it; to report upstream; never
  "fixed" here).
"""

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
import re

from scriptforge.model.glossary import wrong_in

#: official role fields -> glossary kinds
ROLE_KINDS = {"name": "name", "ability": "ability", "flavor": "flavor", "first": "night", "other": "night"}
TYPO_AT_MOST = 2  # official uses of a variant that, beside many of the term, look like a slip


@dataclass
class Usage:
    """How the official texts use one glossary entry: the uses of each spelling per kind of text, and
    where the entry's `wrong_in` disagrees (conflicts, typos)."""

    term: str
    counts: dict[str, Counter] = field(default_factory=dict)  # spelling -> kind -> uses
    conflicts: list[tuple[str, str, int]] = field(default_factory=list)  # (variant, kind, uses)
    typos: list[tuple[str, str, int, list[str]]] = field(default_factory=list)  # (variant, kind, uses, where)


def official_texts(game: dict, interface: Sequence[dict] = ()) -> list[tuple[str, str, str]]:
    """(kind, where, text) for every text of official files: a game file and interface files."""
    out = []
    for role_id, entry in (game.get("roles") or {}).items():
        for key, kind in ROLE_KINDS.items():
            if isinstance(entry, dict) and isinstance(entry.get(key), str):
                out.append((kind, f"roles/{role_id}/{key}", entry[key]))
    for key, text in (game.get("jinxes") or {}).items():
        if isinstance(text, str):
            out.append(("jinxes", f"jinxes/{key}", text))
    for key, text in (game.get("reminders") or {}).items():
        if isinstance(text, str):
            out.append(("reminders", f"reminders/{key}", text))
    for i, data in enumerate(interface):
        out += [("ui", where, text) for where, text in _leaves(data, f"ui{i}")]
    return out


def _leaves(data, prefix: str):
    if isinstance(data, str):
        yield prefix, data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield from _leaves(value, f"{prefix}/{key}")
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _leaves(value, f"{prefix}/{i}")


def _pattern(spelling: str, keep: tuple[str, ...]) -> re.Pattern[str]:
    after = "|".join(re.escape(k) for k in keep)
    return re.compile(rf"(?<![가-힣A-Za-z]){re.escape(spelling)}" + (f"(?!{after})" if after else ""))


def term_usage(terms: list[dict], texts: list[tuple[str, str, str]]) -> list[Usage]:
    """Each glossary entry with variants: the official uses of its term and variants per kind, and
    where its `wrong_in` disagrees with them."""
    out = []
    for entry in terms:
        variants = entry.get("variants", ())
        if not variants:
            continue
        usage = Usage(entry["term"])
        keep = tuple(entry.get("keep_before", ()))
        where: dict[tuple[str, str], list[str]] = {}
        for spelling in (entry["term"], *variants):
            pattern = _pattern(spelling, keep)
            counts: Counter = Counter()
            for kind, place, text in texts:
                found = len(pattern.findall(_without_longer(text, spelling, (entry["term"], *variants))))
                if found:
                    counts[kind] += found
                    where.setdefault((spelling, kind), []).append(place)
            usage.counts[spelling] = counts
        wrong = set(wrong_in(entry))
        term_counts = usage.counts[entry["term"]]
        for variant in variants:
            for kind, uses in sorted(usage.counts[variant].items()):
                if kind not in wrong:
                    continue
                if uses <= TYPO_AT_MOST and (term_counts[kind] or sum(term_counts.values())) > uses:
                    usage.typos.append((variant, kind, uses, where[(variant, kind)]))
                else:
                    usage.conflicts.append((variant, kind, uses))
        out.append(usage)
    return out


def _without_longer(text: str, spelling: str, spellings) -> str:
    """`text` without the other spellings that contain `spelling` (마을 주민 is not 주민)."""
    for other in spellings:
        if other != spelling and spelling in other:
            text = text.replace(other, " ")
    return text
