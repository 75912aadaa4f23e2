"""What the reference commands show: characters as JSON-ready dicts and as text for people."""

from scriptforge.db.database import Database
from scriptforge.model.describe import quote_ability, setup_description
from scriptforge.model.languages import shown
from scriptforge.model.markup import to_text
from scriptforge.model.records import LIST_FIELDS, NIGHT_REMINDER_FIELDS, NIGHTS, TEAMS, Character, pick_text_lang
from scriptforge.model.findings import finding
from scriptforge.text.marks import notes, tag


def languages(choice: str) -> tuple[str, ...]:
    """The languages `--lang` shows: `ko` -> (ko,), `ko+en` -> (ko, en)."""
    return shown(choice)


def character_record(db: Database, ch: Character, langs: tuple[str, ...] = ()) -> dict:
    """Everything the database knows about one character, for `show --format json`."""
    langs = langs or db.languages
    return {
        "id": ch.id,
        "team": ch.team,
        "edition": ch.edition,
        "homebrew": ch.homebrew,
        "source": ch.source,
        "setup": ch.setup.as_dict() if ch.setup else None,
        "reminders": list(ch.reminders),
        "reminders_global": list(ch.reminders_global),
        "aliases": list(ch.aliases),
        **{night: db.night_position(ch.id, night) for night in NIGHTS},
        "jinxes": [
            {"with": next(c for c in j.characters if c != ch.id), "texts": {l: j.texts[l] for l in langs if l in j.texts}}
            for j in db.jinxes_of(ch.id)
        ],
        "texts": {lang: ch.texts[lang].as_dict() for lang in langs if lang in ch.texts},
        # where each text comes from: "scriptforge" (the built-in data), a pack's name, or
        # "translations" (the user's own, `l10n import`)
        "text_layers": {lang: dict(ch.texts[lang].layers) for lang in langs if lang in ch.texts},
        "labels": {lang: [db.reminder_label(t, lang) for t in (*ch.reminders, *ch.reminders_global)] for lang in langs},
        "fallbacks": {lang: fallbacks(db, ch, lang) for lang in langs},
    }


#: The texts of a character a page prints, for the fallback record.
PRINTED_FIELDS = ("name", "ability", "flavor", "first_night_reminder", "other_night_reminder")


def fallbacks(db: Database, ch: Character, lang: str) -> dict[str, str]:
    """Text -> the language it is shown in, for each text of `ch` that `lang` lacks and another
    language gives ("ability", "reminder.redherring", "jinx.widow-damsel")."""
    out: dict[str, str] = {}
    for key in PRINTED_FIELDS:
        _, code = ch.field(key, lang)
        if code and code != lang:
            out[key] = code
    for token in (*ch.reminders, *ch.reminders_global):
        _, code = db.reminder_label_lang(token, lang)
        if code and code != lang:
            out[f"reminder.{token}"] = code
    for jinx in db.jinxes_of(ch.id):
        _, code = pick_text_lang(jinx.texts, lang)
        if code and code != lang:
            out[f"jinx.{jinx.key}"] = code
    return out


def list_rows(db: Database, lang: str, team: str | None = None, edition: str | None = None) -> list[dict]:
    chars = [c for c in db.characters.values()
             if (team is None or c.team == team) and (edition is None or c.edition == edition)]
    rows = []
    for c in chars:
        row = {"id": c.id, "team": c.team, "edition": c.edition, "name": c.name(lang),
               "translated": lang in c.texts, "source": c.source}
        used = c.texts_for(lang)[1]
        if used and used != lang:
            row["fallback"] = used  # the language the name is in: `lang` has none
        rows.append(row)
    return rows


def list_text(db: Database, rows: list[dict], lang: str) -> str:
    lines = []
    for team in TEAMS:
        members = [r for r in rows if r["team"] == team]
        if not members:
            continue
        lines.append(f"{db.team_name(team, lang, plural=True)} ({len(members)})")
        width = max(len(r["id"]) for r in members)
        for r in members:
            shown = db.characters[r["id"]].texts_for(lang)[1] or lang
            marker = "" if r["translated"] else f"  [{db.fallback_label(lang, shown)}]"
            lines.append(f"  {r['id']:<{width}}  {r['name']}{marker}")
    return "\n".join(lines)


def character_text(db: Database, ch: Character, langs) -> str:
    """A readable card: facts once, then every text section per language."""
    first = langs[0]
    labels = db.labels(first)
    used = [ch.texts_for(first)[1]]  # the languages shown instead of the one asked for, for the notes
    head = [f"{ch.name(first)}{tag(used[0], first)} ({ch.id}) · {db.team_name(ch.team, first)} · "
            f"{db.word_table(first, 'editions').get(ch.edition, ch.edition)}" + (f" · {ch.source}" if ch.source != "scriptforge" else "")]
    nights = []
    for key in NIGHTS:
        pos = db.night_position(ch.id, key)
        nights.append(f"{labels[key]}: {_number(pos) if pos else '—'}")
    head.append(" · ".join(nights))
    if ch.reminders or ch.reminders_global:
        labelled = [db.reminder_label_lang(t, first) for t in (*ch.reminders, *ch.reminders_global)]
        used += [code for _, code in labelled]
        tokens = [label + tag(code, first) for label, code in labelled]
        head.append(f"{labels['reminders']}: {', '.join(tokens)}")
    if ch.setup:
        head.append(f"{labels['setup']}: {setup_description(ch.setup, db, first, ch.name(first), lambda i: db.characters[i].name(first) if i in db.characters else i)}")
    out = ["\n".join(head)]
    for lang in langs:
        texts, shown_in = ch.texts_for(lang)
        lab = db.labels(lang)
        if texts is None:
            out.append(f"[{lang}] {db.fallback_label(lang, lang)}")
            continue
        mark = tag(shown_in, lang)  # no `lang` texts: those of the next language, every one tagged
        used.append(shown_in)
        block = [f"[{lang}] {texts.name}{mark}", texts.ability + mark]
        if mark:
            block.insert(0, f"[{lang}] {db.fallback_label(lang, shown_in or lang)}")
        flavor, code = ch.field("flavor", lang)
        if isinstance(flavor, str):
            used.append(code)
            block.append((f"“{flavor}”" if not flavor.startswith(("\"", "“")) else flavor) + tag(code, lang))
        if texts.overview:
            block += ["", f"{lab['overview']}:", quote_ability(texts.overview, texts.ability) + mark]
        for key in LIST_FIELDS:
            items = getattr(texts, key)
            if items:
                block += ["", f"{lab[key]}:"] + [f"  - {item}{mark}" for item in items]
        for label in NIGHT_REMINDER_FIELDS:
            reminder, code = ch.night_reminder(label, lang)
            if reminder:
                used.append(code)
                block += ["", f"{lab[label]}: {reminder}{tag(code, lang)}"]
        for jinx in db.jinxes_of(ch.id):  # every jinx: one without a `lang` text is shown tagged
            text, code = pick_text_lang(jinx.texts, lang)
            if text:
                other = db.characters.get(next(c for c in jinx.characters if c != ch.id))
                other_code = other.texts_for(lang)[1] if other else None
                used += [code, other_code]
                name = (other.name(lang) + tag(other_code, lang)) if other else ""
                block += ["", f"{lab['jinxes']} × {name}: {text}{tag(code, lang)}"]
        out.append("\n".join(block))
    explained = notes(db, first, used)
    return to_text("\n\n".join([*out, *(["\n".join(explained)] if explained else [])])) or ""


def _number(pos: float) -> str:
    return str(int(pos)) if float(pos).is_integer() else str(pos)


def search_rows(db: Database, text: str, langs) -> list[dict]:
    return [{"id": c.id, "team": c.team, "names": {l: c.texts[l].name for l in db.languages if l in c.texts}}
            for c in db.search(text, langs)]


def check_summary(db: Database | None, problems) -> dict:
    """Counts per team and language plus every problem, for `db check`."""
    summary: dict = {"ok": not problems, "problems": [str(p) for p in problems],
                     "findings": [finding(p.code, str(p)).as_dict() for p in problems]}
    if db is not None:
        summary["characters"] = len(db.characters)
        summary["teams"] = {t: sum(1 for c in db.characters.values() if c.team == t) for t in TEAMS
                            if any(c.team == t for c in db.characters.values())}
        summary["languages"] = {lang: sum(1 for c in db.characters.values() if lang in c.texts) for lang in db.languages}
        # A character's texts in a language are a translation when its ability records a source.
        summary["translated"] = {lang: sum(1 for c in db.characters.values()
                                           if f"{c.id}.ability" in db.provenance.get(lang, {}))
                                 for lang in db.languages}
        summary["jinxes"] = len(db.jinxes)
    return summary


def check_text(summary: dict) -> str:
    """`db check` for people (its problems go to stderr, one line each): the counts, then the verdict."""
    lines = []
    if "characters" in summary:
        teams = ", ".join(f"{t} {n}" for t, n in summary["teams"].items())
        langs = ", ".join(f"{l} {n} ({n - summary['translated'][l]} original, {summary['translated'][l]} translated)"
                          for l, n in summary["languages"].items())
        lines += [f"{summary['characters']} characters ({teams})", f"texts: {langs}; {summary['jinxes']} jinxes"]
    cache = summary.get("cache", {})
    if cache.get("state") in ("damaged", "different"):
        why = "its checksum does not match" if cache["state"] == "damaged" else "it differs from the data"
        lines.append(f"cache: {cache['entry']}: {why}; replaced with the data as loaded now")
    lines.append("ok" if summary["ok"] else f"{len(summary['problems'])} problem(s)")
    return "\n".join(lines)
