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
from scriptforge.names import LANGUAGES

# the official schema's limits (script-schema.json)
_LIMITS = {"name": 30, "ability": 250, "flavor": 500, "firstNightReminder": 500, "otherNightReminder": 500}


@dataclass
class Export:
    data: list
    warnings: list[str] = field(default_factory=list)


def _other(lang: str) -> list[str]:
    return [lang, *(l for l in LANGUAGES if l != lang)]


def export_script(analysis: Analysis, lang: str = "ko") -> Export:
    """The script as official-format JSON data with full character objects in `lang`."""
    script, db = analysis.script, analysis.db
    out = Export([])
    if script.meta:
        out.data.append(dict(script.meta))
    fallback = []
    pairs = analysis.jinxes
    for ch in script.characters:
        texts = next((ch.texts[l] for l in _other(lang) if l in ch.texts), None)
        text_lang = next((l for l in _other(lang) if l in ch.texts), lang)
        if text_lang != lang:
            fallback.append(ch.id)
        obj: dict = {"id": ch.id, "name": texts.name if texts else ch.id, "team": ch.team}
        if ch.edition:
            obj["edition"] = ch.edition
        obj["ability"] = texts.ability if texts else ""
        if texts and texts.flavor:
            obj["flavor"] = texts.flavor
        for night, key in (("first_night", "firstNight"), ("other_nights", "otherNight")):
            position = db.night_position(ch.id, night) if not ch.homebrew else ch.night.get(night)
            obj[key] = position or 0
            reminder = _night_text(ch, night, lang)
            if reminder and obj[key]:
                obj[f"{key}Reminder"] = reminder
        for key, tokens in (("reminders", ch.reminders), ("remindersGlobal", ch.reminders_global)):
            if tokens:
                obj[key] = [_label(db, t, lang) for t in tokens][:20]
        obj["setup"] = ch.setup is not None
        jinxes = [{"id": j.characters[1], "reason": j.text(lang)} for j in pairs
                  if j.characters[0] == ch.id and j.text(lang)]
        if jinxes:
            obj["jinxes"] = jinxes
        for key, limit in _LIMITS.items():
            if isinstance(obj.get(key), str) and len(obj[key]) > limit:
                out.warnings.append(f"'{ch.id}': {key} is {len(obj[key])} characters, over the official "
                                    f"limit of {limit}; the official app may refuse the script")
        out.data.append(obj)
    if fallback:
        out.warnings.append(f"{len(fallback)} character(s) have no '{lang}' text and are written in another "
                            f"language: {', '.join(fallback[:8])}{'…' if len(fallback) > 8 else ''}")
    return out


def _night_text(ch, night: str, lang: str) -> str | None:
    key = "first_night_reminder" if night == "first_night" else "other_night_reminder"
    for l in _other(lang):
        t = ch.texts.get(l)
        if t and getattr(t, key):
            return getattr(t, key)
    return None


def _label(db, token: str, lang: str) -> str:
    for l in _other(lang):
        label = db.reminder_labels.get(l, {}).get(token)
        if label:
            return label[:30]
    return token[:30]
