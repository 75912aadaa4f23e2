"""Jinxes on a script: the database's jinx pairs with both characters on the script, plus the
jinxes that full character objects carry (`jinxes: [{id, reason}]`); a script's own text for a
pair replaces the database text in that language. The Djinn is needed when there is any jinx and
the Djinn is not on the script.
"""

from collections.abc import Iterator
from dataclasses import dataclass
import re
from typing import TYPE_CHECKING, Any

from scriptforge.model.ids import normalize_id
from scriptforge.model.languages import codes, detect
from scriptforge.model.records import pick_text, pick_text_lang
from scriptforge.model.findings import Finding, finding, short

if TYPE_CHECKING:
    from scriptforge.db.database import Database
    from scriptforge.scripts.script import Script


@dataclass(frozen=True)
class JinxRecord:
    """A jinx on a script: the pair of character ids, its text per language, and
    whether it comes from the database or the script."""

    characters: tuple[str, str]
    texts: dict[str, str]  # lang -> text
    source: str = "database"  # "database" or "script"

    def text(self, lang: str) -> str | None:
        return pick_text(self.texts, lang)

    def text_lang(self, lang: str) -> str | None:
        """The language `text` gives the text in (`lang`, or the fallback it came from)."""
        return pick_text_lang(self.texts, lang)[1]

    def as_dict(self, lang: str) -> dict[str, Any]:
        out = {"characters": list(self.characters), "text": self.text(lang), "source": self.source}
        used = self.text_lang(lang)
        if used and used != lang:
            out["fallback"] = used  # the language the text is in: `lang` has none
        return out


@dataclass(frozen=True)
class ScriptJinxes:
    """The jinxes on one script, and whether the Djinn is needed (there is a
    jinx and the Djinn is not on the script)."""

    jinxes: tuple[JinxRecord, ...]
    djinn_needed: bool

    def __iter__(self) -> Iterator[JinxRecord]:
        return iter(self.jinxes)

    def __len__(self) -> int:
        return len(self.jinxes)

    def as_dict(self, lang: str) -> dict[str, Any]:
        return {"jinxes": [j.as_dict(lang) for j in self.jinxes], "djinn_needed": self.djinn_needed}


def script_jinxes(script: "Script", db: "Database") -> ScriptJinxes:
    """Every jinxed pair among the script's characters, with texts per language."""
    on_script = set(script.ids)
    records: dict[frozenset[str], JinxRecord] = {}
    for jinx in db.jinxes:
        a, b = jinx.characters
        if a in on_script and b in on_script:
            records[frozenset((a, b))] = JinxRecord((a, b), dict(jinx.texts))
    for jinx in script.jinxes:
        owner, other_name = jinx.characters
        other = script.find(other_name)
        if other is None or other.id == owner:
            continue
        key = frozenset((owner, other.id))
        old = records.get(key)
        if old:
            records[key] = JinxRecord(old.characters, {**old.texts, **jinx.texts}, "script")
        else:
            records[key] = JinxRecord((owner, other.id), dict(jinx.texts), "script")
    djinn = "djinn" in on_script
    jinxes = tuple(records.values())
    return ScriptJinxes(jinxes, djinn_needed=bool(jinxes) and not djinn)


def unknown_jinxes(script: "Script", db: "Database") -> list[Finding]:
    """`jinx-unknown`: a jinx the script embeds whose other character is neither on the script nor
    in the database (a typo): `script_jinxes` cannot use it, and says so here instead of silently."""
    out: list[Finding] = []
    official = db.official.teams
    for owner, other_name, path, _text, _lang in _embedded(script):
        if script.find(other_name) is not None or normalize_id(other_name) in official or db.find(other_name):
            continue
        out.append(finding("jinx-unknown", f"{owner}'s jinx names '{short(other_name, 40)}', which is not a known "
                                           f"character: the jinx is left out", path, character=owner,
                           other=other_name))
    return out


def _same(a: str, b: str) -> bool:
    return re.sub(r"\s+", " ", a).strip() == re.sub(r"\s+", " ", b).strip()


def outdated_jinxes(script: "Script", db: "Database") -> list[Finding]:
    """`jinx-outdated`: a jinx a script embeds between two official characters whose text is not
    the loaded official text in its language, or that the official data no longer has. The sheet
    prints the script's text (the author's choice); this only says so."""
    official = db.official
    loaded: dict[frozenset[str], Any] | None = None  # made for the first embedded jinx only
    out: list[Finding] = []
    for owner, other_name, path, text, lang in _embedded(script):
        other = script.find(other_name)
        other_id = other.id if other else other_name
        pair = frozenset((owner, other_id))
        if owner not in official.teams or other_id not in official.teams or len(pair) < 2:
            continue
        data = {"characters": [owner, other_id], "script": text}
        if pair not in official.jinxes:
            out.append(finding("jinx-outdated", f"the script's jinx {owner} × {other_id} is not in the official "
                                                f"data (retired): “{short(text, 120)}”", path, retired=True, **data))
            continue
        if loaded is None:
            loaded = {frozenset(j.characters): j for j in db.jinxes}
        ours = loaded.get(pair)
        current = ours.texts.get(lang) if ours else None
        if current and not _same(current, text):
            out.append(finding("jinx-outdated", f"the script's jinx {owner} × {other_id} differs from the official "
                                                f"one: script “{short(text, 120)}”, official “{short(current, 120)}”; "
                                                f"the sheet prints the script's", path, official=current,
                               retired=False, **data))
    return out


def _embedded(script: "Script") -> Iterator[tuple[str, str, str, str, str]]:
    """(owner id, other id as written, JSON pointer, text, language) of each jinx in the script's objects."""
    raw = script.document if isinstance(script.document, list) else []
    if not any(isinstance(item, dict) and "jinxes" in item for item in raw):
        return  # the usual script: no object carries jinxes
    for ch in script.characters:
        path = script.paths.get(ch.id, "")
        index = int(path[1:]) if path[1:].isdigit() else -1
        item = raw[index] if 0 <= index < len(raw) else None
        jinxes = item.get("jinxes") if isinstance(item, dict) else None
        for k, entry in enumerate(jinxes if isinstance(jinxes, list) else ()):
            if isinstance(entry, dict) and isinstance(entry.get("id"), str) and isinstance(entry.get("reason"), str):
                text = entry["reason"]
                yield ch.id, entry["id"], f"{path}/jinxes/{k}", text, detect(text, codes())
