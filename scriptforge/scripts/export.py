"""Writing a script in the official format for the place it goes.

`app` (the default): an unchanged official character is its plain id, so the official app shows
it in its own translation (the player's language) and treats the script as an official one;
homebrew characters and official ones this script changes stay full objects in `lang`. Any object
left makes the app treat the script as homebrew (it adds the Bootlegger): the export says so in
an `export-homebrew` finding. `full`: every character as a full object in `lang`, for tools that
have no translations of their own (the app treats such a script as homebrew).

Each official character becomes {id, name, team, edition, ability, flavor, firstNight,
firstNightReminder, otherNight, otherNightReminder, reminders, remindersGlobal, setup, jinxes}:
numbers are 1-based positions on the official night sheet (0: does not wake), reminders are the
labels in the chosen language, jinxes are {id, reason} with the database's text in that language
(each pair once, under the character the database files it under). A character with no text in
the chosen language falls back to the other language, with a warning. `_meta` is kept as it was.
"""

from dataclasses import dataclass, field

from scriptforge.scripts.analysis import Analysis
from scriptforge.model.languages import default, fallback_chain
from scriptforge.model.records import NIGHTS, Texts
from scriptforge.model.character_json import ITEM_LIMITS, character_object, overlong_entry
from scriptforge.db.official import official_facts
from scriptforge.model.findings import Finding, finding



TARGETS = ("app", "full")  # `export --for`


@dataclass
class Export:
    """A script in the official format (`data`: the JSON array to write),
    with the warnings and findings of making it."""

    data: list
    warnings: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)


def is_plain_official(ch, script) -> bool:
    """An official character the script leaves as it is: the official app knows it by its id."""
    return not ch.homebrew and ch.id in official_facts().teams and ch.id not in script.overridden


def export_script(analysis: Analysis, lang: str = default("sheet"), target: str = TARGETS[0]) -> Export:
    """The script as official-format JSON data for `target` (TARGETS), character objects in `lang`."""
    script, db = analysis.script, analysis.db
    out = Export([])
    if script.meta:
        out.data.append(dict(script.meta))
    fallback = []
    objects = []
    pairs = analysis.jinxes
    for ch in script.characters:
        if target == "app" and is_plain_official(ch, script):
            out.data.append(ch.id)
            continue
        objects.append(ch.id)
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
    if objects:
        why = "every character is written as an object (--for full)" if target == "full" else \
            "homebrew or changed characters are written as objects"
        out.findings.append(finding(
            "export-homebrew", f"the official app will treat this script as homebrew (and add the Bootlegger): "
                               f"{why}: {', '.join(objects[:8])}{'…' if len(objects) > 8 else ''}",
            objects=objects, target=target))
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
