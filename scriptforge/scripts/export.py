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
the chosen language is written as its id where the official app knows it (a homebrew or changed
one keeps its own texts, with a warning); a night reminder or jinx with no text in the object's
language is left out, never written in another language, and a warning names it.

Everything else the format can hold is kept: the keys of the script's own object that do not
depend on the language (`special`, `image`; `setup` where the author marked it) and every `_meta`
key. A `_meta` without a `name` gets the script's name (the official schema requires one), with a
warning. A local picture (`_meta.logo`/`background`, a character's `image`: a path from the
script's folder) is embedded as a `data:` URI where it fits the field's length limit; one that
cannot be embedded is left out with a warning naming it, since the official app cannot load a
path.
"""

import base64
from dataclasses import dataclass, field
from pathlib import Path
import re
from typing import Any

from scriptforge.scripts.analysis import Analysis
from scriptforge.model.languages import default, fallback_chain
from scriptforge.model.records import NIGHT_TABLE, NIGHTS, Texts
from scriptforge.model.character_json import ITEM_LIMITS, META_LIMITS, character_object, overlong_entry
from scriptforge.db.official import official_facts
from scriptforge.model.findings import Finding, finding
from scriptforge.io.errors import InputError
from scriptforge.io.userfiles import read_bytes


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
        out.data.append(_meta_object(script, out.warnings))
    fallback, as_ids, left_out, foreign_labels = [], [], [], []
    objects = []
    pairs = analysis.jinxes
    for ch in script.characters:
        if target == "app" and is_plain_official(ch, script):
            out.data.append(ch.id)
            continue
        texts, text_lang = ch.texts_for(lang)
        if text_lang != lang and is_plain_official(ch, script):
            as_ids.append(ch.id)  # its id: a reader shows its own translation, not ours in another language
            out.data.append(ch.id)
            continue
        objects.append(ch.id)
        if text_lang != lang:
            fallback.append(ch.id)  # a homebrew or changed character: its own texts, in their language
        # every text of one object in the object's language: another language's is left out
        reminders = {n: text for n in NIGHTS for text, code in [ch.night_reminder(n, lang)] if code == text_lang}
        jinxes = [{"id": j.characters[1], "reason": j.texts[text_lang]} for j in pairs
                  if j.characters[0] == ch.id and text_lang in j.texts]
        left_out += [f"{ch.id}: {n.replace('_', ' ')} reminder" for n in NIGHTS
                     if ch.night_reminder(n, lang)[0] and n not in reminders]
        left_out += [f"{ch.id}: jinx with {j.characters[1]}" for j in pairs
                     if j.characters[0] == ch.id and j.texts and text_lang not in j.texts]
        foreign_labels += [f"{ch.id}: {t}" for t in (*ch.reminders, *ch.reminders_global)
                           if db.reminder_label_lang(t, text_lang or lang)[1] not in (text_lang, None)]
        nights = {n: (db.night_position(ch.id, n) if not ch.homebrew else ch.night.get(n)) or 0 for n in NIGHTS}
        obj = character_object(
            ch.id, ch.team, texts or Texts(name=ch.id, ability=""), edition=ch.edition, night=nights,
            reminders=reminders,
            labels=[_label(db, t, text_lang or lang) for t in ch.reminders][:20],
            global_labels=[_label(db, t, text_lang or lang) for t in ch.reminders_global][:20],
            setup=ch.setup is not None, jinxes=jinxes)
        _keep_own_keys(obj, _entry(script, ch.id), script.source, out.warnings)
        if ch.homebrew:
            _keep_unplaced_reminders(obj, reminders)
        for problem in overlong_entry(obj, ""):
            out.warnings.append(f"'{ch.id}': {problem.field} is {problem.length} characters, over the official "
                                f"limit of {problem.limit}; the official app may refuse the script")
        out.data.append(obj)
    if objects:
        why = "every character is written as an object (--for full)" if target == "full" else \
            "homebrew or changed characters are written as objects"
        out.findings.append(finding(
            "export-homebrew", f"the official app will treat this script as homebrew (and add the Bootlegger): "
                               f"{why}: {_some(objects)}",
            objects=objects, target=target))
    for items, what in (
            (fallback, f"character(s) have no '{lang}' text and are written in another language"),
            (as_ids, f"official character(s) have no '{lang}' text and are written as their ids, not as objects "
                     f"in another language"),
            (left_out, f"text(s) have no '{lang}' text and are left out rather than written in another language"),
            (foreign_labels, f"reminder label(s) have no '{lang}' text and are written in another language (a "
                             f"token needs its label)")):
        if items:
            out.warnings.append(f"{len(items)} {what}: {_some(items)}")
    return out


def _some(items: list[str]) -> str:
    return ", ".join(items[:8]) + ("…" if len(items) > 8 else "")


def _label(db, token: str, lang: str) -> str:
    for l in fallback_chain(lang):
        label = db.reminder_labels.get(l, {}).get(token)
        if label:
            return label[:ITEM_LIMITS["reminders"]]
    return token[:ITEM_LIMITS["reminders"]]


# -- what the format holds besides the texts ------------------------------------------------------

#: Keys of a script's own character object that say the same in every language: kept as written.
KEPT_KEYS = ("special",)
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
_MIME = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
         ".webp": "image/webp", ".svg": "image/svg+xml"}
_PICTURE_BYTES = 2_000_000  # a local picture embedded as a data: URI (a character icon is tens of KB)


def _keep_unplaced_reminders(obj: dict[str, Any], reminders: dict[str, str | None]) -> None:
    """A homebrew character's night reminder where it has no number: a `_meta.firstNight`/
    `otherNight` list places it, and the reminder is what the night sheet prints there."""
    for spelling in NIGHT_TABLE:
        reminder = reminders.get(spelling.key)
        if reminder and spelling.official_reminder not in obj:
            obj[spelling.official_reminder] = reminder


def _entry(script, char_id: str) -> dict[str, Any]:
    """The script's own object for `char_id` ({} where the script names it by id only)."""
    path = script.paths.get(char_id, "")
    try:
        item = script.document[int(path[1:])] if path else None
    except (ValueError, IndexError, TypeError):
        return {}
    return item if isinstance(item, dict) else {}


def _keep_own_keys(obj: dict[str, Any], item: dict[str, Any], source: str, warnings: list[str]) -> None:
    """The language-neutral keys of the script's own object `item` added to the exported `obj`:
    `special` as written, `image` with local pictures embedded, `setup` where the author set it."""
    for key in KEPT_KEYS:
        if key in item:
            obj[key] = item[key]
    if item.get("setup") is True:
        obj["setup"] = True
    image = item.get("image")
    where = f"'{obj['id']}': image"
    if isinstance(image, str):
        url = _picture_url(image, source, None, where, warnings)
        if url:
            obj["image"] = url
    elif isinstance(image, list):
        urls = [u for i, value in enumerate(image) if isinstance(value, str)
                for u in [_picture_url(value, source, None, f"{where} {i + 1}", warnings)] if u]
        if urls:
            obj["image"] = urls


def _meta_object(script, warnings: list[str]) -> dict[str, Any]:
    """Every `_meta` key as written, `name` supplied where it is missing, local pictures embedded."""
    meta = dict(script.meta)
    name = meta.get("name")
    if not isinstance(name, str) or not name.strip():
        meta["name"] = script.name[:META_LIMITS["name"]]
        warnings.append(f"_meta has no name (the official format requires one): written as "
                        f"'{meta['name']}', the script's file name")
    for key in ("logo", "background"):
        value = meta.get(key)
        if isinstance(value, str):
            url = _picture_url(value, script.source, META_LIMITS[key], f"_meta.{key}", warnings)
            if url:
                meta[key] = url
            else:
                del meta[key]
    return meta


def _picture_url(value: str, source: str, limit: int | None, where: str, warnings: list[str]) -> str | None:
    """A picture reference the official app can load: a URL as it is; a local file (a path from
    the script's folder) as a data: URI of its bytes, where that fits `limit`. None, with a
    warning naming it, for a local picture that cannot be embedded."""
    value = value.strip()
    if not value or _SCHEME.match(value):
        return value or None
    if source in ("-", "<data>"):
        warnings.append(f"{where} '{value}' is a local file and the script was read from {source}: "
                        f"left out (the official app cannot load a path)")
        return None
    path = Path(source).parent / value
    mime = _MIME.get(path.suffix.lower())
    if mime is None:
        warnings.append(f"{where} '{value}' is not a picture the official app shows "
                        f"({', '.join(_MIME)}): left out")
        return None
    try:
        data = read_bytes(path, _PICTURE_BYTES)
    except InputError as exc:
        warnings.append(f"{where} '{value}' cannot be embedded ({exc}): left out")
        return None
    url = f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"
    if limit is not None and len(url) > limit:
        warnings.append(f"{where} '{value}' is {len(data):,} bytes: as a data: URI it is {len(url):,} "
                        f"characters, over the official limit of {limit}; left out (put it online "
                        f"and give its URL)")
        return None
    return url
