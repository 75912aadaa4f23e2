"""Jinxes on a script: the database's jinx pairs with both characters on the script, plus the
jinxes that full character objects carry (`jinxes: [{id, reason}]`); a script's own text for a
pair replaces the database text in that language. The Djinn is needed when there is any jinx and
the Djinn is not on the script.
"""

from dataclasses import dataclass, field

from scriptforge.model import pick_text


@dataclass(frozen=True)
class JinxRecord:
    characters: tuple[str, str]
    texts: dict[str, str]  # lang -> text
    source: str = "database"  # "database" or "script"

    def text(self, lang: str) -> str | None:
        return pick_text(self.texts, lang)

    def as_dict(self, lang: str) -> dict:
        return {"characters": list(self.characters), "text": self.text(lang), "source": self.source}


@dataclass(frozen=True)
class ScriptJinxes:
    jinxes: tuple[JinxRecord, ...]
    djinn_needed: bool
    djinn_on_script: bool = False
    extra: dict = field(default_factory=dict)

    def __iter__(self):
        return iter(self.jinxes)

    def __len__(self):
        return len(self.jinxes)

    def as_dict(self, lang: str) -> dict:
        return {"jinxes": [j.as_dict(lang) for j in self.jinxes], "djinn_needed": self.djinn_needed}


def script_jinxes(script, db) -> ScriptJinxes:
    """Every jinxed pair among the script's characters, with texts per language."""
    on_script = set(script.ids)
    records: dict[frozenset, JinxRecord] = {}
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
    return ScriptJinxes(jinxes, djinn_needed=bool(jinxes) and not djinn, djinn_on_script=djinn)
