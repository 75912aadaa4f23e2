"""Writing a script in the official format with every character as a full object in one language,
so that the official app and other tools can load a script in Korean (or English) as it is.

Each official character becomes {id, name, team, edition, ability, flavor, firstNight,
firstNightReminder, otherNight, otherNightReminder, reminders, remindersGlobal, setup, jinxes}:
numbers are 1-based positions on the official night sheet (0: does not wake), reminders are the
labels in the chosen language, jinxes are {id, reason} with the database's text in that language
(each pair once, under the character the database files it under). A character with no text in
the chosen language falls back to the other language, with a warning. `_meta` is kept as it was.
"""

from dataclasses import dataclass, field

from scriptforge.analysis import Analysis
from scriptforge.languages import default, fallback_chain
from scriptforge.model import NIGHTS, Texts
from scriptforge.character_json import ITEM_LIMITS, character_object, overlong_entry



@dataclass
class Export:
    data: list
    warnings: list[str] = field(default_factory=list)


def export_script(analysis: Analysis, lang: str = default("sheet")) -> Export:
    """The script as official-format JSON data with full character objects in `lang`."""
    script, db = analysis.script, analysis.db
    out = Export([])
    if script.meta:
        out.data.append(dict(script.meta))
    fallback = []
    pairs = analysis.jinxes
    for ch in script.characters:
        texts, text_lang = ch.texts_for(lang)
        if text_lang != lang:
            fallback.append(ch.id)
        nights = {n: (db.night_position(ch.id, n) if not ch.homebrew else ch.night.get(n)) or 0 for n in NIGHTS}
        obj = character_object(
            ch.id, ch.team, texts or Texts(name=ch.id, ability=""), edition=ch.edition, night=nights,
            reminders={n: ch.night_reminder(n, lang)[0] for n in NIGHTS},
            labels=[_label(db, t, lang) for t in ch.reminders][:20],
            global_labels=[_label(db, t, lang) for t in ch.reminders_global][:20],
            setup=ch.setup is not None,
            jinxes=[{"id": j.characters[1], "reason": j.text(lang) or ""} for j in pairs
                    if j.characters[0] == ch.id and j.text(lang)])
        for problem in overlong_entry(obj, ""):
            out.warnings.append(f"'{ch.id}': {problem.field} is {problem.length} characters, over the official "
                                f"limit of {problem.limit}; the official app may refuse the script")
        out.data.append(obj)
    if fallback:
        out.warnings.append(f"{len(fallback)} character(s) have no '{lang}' text and are written in another "
                            f"language: {', '.join(fallback[:8])}{'…' if len(fallback) > 8 else ''}")
    return out


def _label(db, token: str, lang: str) -> str:
    for l in fallback_chain(lang):
        label = db.reminder_labels.get(l, {}).get(token)
        if label:
            return label[:ITEM_LIMITS["reminders"]]
    return token[:ITEM_LIMITS["reminders"]]
