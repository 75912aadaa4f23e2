"""A way back upstream: the user's corrections (`l10n import` writes them into the translation
layer) in the official translation file's layout, `game/<code>.json`, so that a translator can
hand them to the official Weblate.

Only the keys the user changed are written: a text of the user's translation layer that differs
from the text the layers below it give (the built-in data and the packs). The layout is the one
`pack update` reads (FACTS.md 8): `roles.<id>.name|ability|flavor|first|other` (the night steps
as roles `dusk`, `minioninfo`, `demoninfo`, `dawn`), `reminders.<token>`, `jinxes.<a>-<b>`.
Texts the official layout has no place for (overview, how to run, examples, interface words)
are counted as left out.
"""

from dataclasses import dataclass, field
import json

from scriptforge.db.translations import NAME as USER_LAYER
from scriptforge.l10n.units import all_units
from scriptforge.model.records import NIGHT

_ROLE_FIELDS = {"name": "name", "ability": "ability", "flavor": "flavor",
                **{n.reminder_field: n.translation for n in NIGHT.values()}}


@dataclass
class Corrections:
    """The user's corrections of one language in the official layout, and what had no place in it."""

    data: dict = field(default_factory=lambda: {"roles": {}, "reminders": {}, "jinxes": {}})
    left_out: list[str] = field(default_factory=list)  # unit keys the official layout cannot carry

    @property
    def count(self) -> int:
        return sum(len(v) for v in self.data["roles"].values()) + len(self.data["reminders"]) + \
            len(self.data["jinxes"])

    def as_bytes(self) -> bytes:
        data = {k: v for k, v in self.data.items() if v}
        return (json.dumps(data, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def corrections(db, below, lang: str) -> Corrections:
    """The texts of `lang` that the user's translation layer gives in `db` and that differ from
    `below` (the same database without that layer), in the official layout."""
    before = {unit.key: unit.text(lang) for unit in all_units(below)}
    layers = db.unit_layers.get(lang, {})
    out = Corrections()
    for unit in all_units(db):
        text = unit.text(lang)
        if layers.get(unit.key) != USER_LAYER or text is None or text == before.get(unit.key):
            continue
        kind, _, rest = unit.key.partition(".")
        if unit.character and unit.field in _ROLE_FIELDS:
            out.data["roles"].setdefault(unit.character, {})[_ROLE_FIELDS[unit.field]] = text
        elif kind == "step":
            step, night = rest.split(".")
            name = "name" if night == "name" else NIGHT[night].translation
            out.data["roles"].setdefault(step, {})[name] = text
        elif kind == "reminder":
            out.data["reminders"][rest] = text
        elif kind == "jinx":
            out.data["jinxes"][rest] = text
        else:
            out.left_out.append(unit.key)
    return out
