"""What a printed character sheet must show, to check a PDF's text against: every character of
the script (name and ability, in the sheet's language or along its fallbacks), every jinxed pair
(both names and the jinx text) and every rule of the script's own (`_meta.bootlegger`).

The items come from the script as read and the rules engine (`Analysis`), not from the view
model, so a check against them also catches a view that leaves something out. The print check
(`benchmarks/print_check.py`) runs it over the corpus; `missing` compares with text extracted
from a PDF (whitespace, line breaks and the invisible word joiners do not count).
"""

from dataclasses import dataclass
import re

from scriptforge.scripts.analysis import Analysis
from scriptforge.model.languages import split_pair
from scriptforge.model.markup import TEXT_GLYPH, to_text

KINDS = ("character", "jinx", "rule")
_INVISIBLE = re.compile("[\\s\u2060\u200b\u00ad\ufffe]+")


@dataclass(frozen=True)
class Item:
    """One thing a printed sheet must show (a character, a jinx or a rule):
    the texts that must each be on it somewhere."""

    kind: str  # character | jinx | rule
    label: str  # what it is, for a report: an id, a pair "a × b", "rule 1"
    texts: tuple[str, ...]  # what the page must show, each somewhere


def squash(text: str) -> str:
    """`text` as a PDF's text layer is compared: marks as printed, no whitespace or invisible marks."""
    return _INVISIBLE.sub("", (to_text(text) or "").replace(TEXT_GLYPH, ""))


def sheet_items(analysis: Analysis, sheet_lang: str) -> list[Item]:
    """Every item the character sheet of `analysis` in `sheet_lang` (ko, en, ko+en, …) must show."""
    lang, _ = split_pair(sheet_lang)
    script = analysis.script
    items = []
    names = {}
    for ch in script.characters:
        texts, _used = ch.texts_for(lang)
        name, ability = (texts.name, texts.ability) if texts else (ch.id, "")
        names[ch.id] = name
        items.append(Item("character", ch.id, tuple(t for t in (name, ability) if t.strip())))
    for jinx in analysis.jinxes.jinxes:
        a, b = jinx.characters
        if a in names and b in names:
            items.append(Item("jinx", f"{a} × {b}", tuple(t for t in (f"{names[a]} · {names[b]}", jinx.text(lang) or "")
                                                         if t.strip())))
    for index, rule in enumerate(script.rules, 1):
        items.append(Item("rule", f"rule {index}", (rule,)))
    return items


def missing(items: list[Item], printed: str) -> list[Item]:
    """The items of which some text is not in `printed` (text extracted from the PDF)."""
    page = squash(printed)
    return [item for item in items if not all(squash(text) in page for text in item.texts)]
