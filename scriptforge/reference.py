"""What the reference commands show: characters as JSON-ready dicts and as text for people."""

from scriptforge.database import Database
from scriptforge.markup import to_text
from scriptforge.model import TEAMS, Character
from scriptforge.names import LANGUAGES
from scriptforge.rules.findings import finding


def languages(choice: str) -> tuple[str, ...]:
    return LANGUAGES if choice == "both" else (choice,)


def character_record(db: Database, ch: Character, langs=LANGUAGES) -> dict:
    """Everything the database knows about one character, for `show --format json`."""
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
        "first_night": db.night_position(ch.id, "first_night"),
        "other_nights": db.night_position(ch.id, "other_nights"),
        "jinxes": [
            {"with": next(c for c in j.characters if c != ch.id), "texts": {l: j.texts[l] for l in langs if l in j.texts}}
            for j in db.jinxes_of(ch.id)
        ],
        "texts": {lang: ch.texts[lang].as_dict() for lang in langs if lang in ch.texts},
    }


def list_rows(db: Database, lang: str, team: str | None = None, edition: str | None = None) -> list[dict]:
    chars = [c for c in db.characters.values()
             if (team is None or c.team == team) and (edition is None or c.edition == edition)]
    return [{"id": c.id, "team": c.team, "edition": c.edition, "name": c.name(lang),
             "translated": lang in c.texts, "source": c.source} for c in chars]


def list_text(db: Database, rows: list[dict], lang: str) -> str:
    lines = []
    for team in TEAMS:
        members = [r for r in rows if r["team"] == team]
        if not members:
            continue
        lines.append(f"{db.team_name(team, lang, plural=True)} ({len(members)})")
        width = max(len(r["id"]) for r in members)
        for r in members:
            marker = "" if r["translated"] else f"  [{db.ui[lang]['labels']['fallback_language']}]"
            lines.append(f"  {r['id']:<{width}}  {r['name']}{marker}")
    return "\n".join(lines)


def character_text(db: Database, ch: Character, langs) -> str:
    """A readable card: facts once, then every text section per language."""
    first = langs[0]
    ui = db.ui[first]
    labels = ui["labels"]
    head = [f"{ch.name(first)} ({ch.id}) · {db.team_name(ch.team, first)} · "
            f"{ui['editions'].get(ch.edition, ch.edition)}" + (f" · {ch.source}" if ch.source != "scriptforge" else "")]
    nights = []
    for key in ("first_night", "other_nights"):
        pos = db.night_position(ch.id, key)
        nights.append(f"{labels[key]}: {_number(pos) if pos else '—'}")
    head.append(" · ".join(nights))
    if ch.reminders or ch.reminders_global:
        tokens = [db.reminder_labels[first].get(t, t) for t in (*ch.reminders, *ch.reminders_global)]
        head.append(f"{labels['reminders']}: {', '.join(tokens)}")
    if ch.setup:
        head.append(f"{labels['setup']}: {_setup_text(ch.setup.as_dict())}")
    out = ["\n".join(head)]
    for lang in langs:
        texts = ch.text(lang)
        lab = db.ui[lang]["labels"]
        if texts is None:
            out.append(f"[{lang}] {lab['fallback_language']}")
            continue
        block = [f"[{lang}] {texts.name}", texts.ability]
        if texts.flavor:
            block.append(f"“{texts.flavor}”" if not texts.flavor.startswith(("\"", "“")) else texts.flavor)
        if texts.overview:
            block += ["", f"{lab['overview']}:", texts.overview]
        for key in ("how_to_run", "examples"):
            items = getattr(texts, key)
            if items:
                block += ["", f"{lab[key]}:"] + [f"  - {item}" for item in items]
        for key, label in (("first_night_reminder", "first_night"), ("other_night_reminder", "other_nights")):
            if getattr(texts, key):
                block += ["", f"{lab[label]}: {getattr(texts, key)}"]
        for jinx in db.jinxes_of(ch.id):
            if lang in jinx.texts:
                other = db.characters.get(next(c for c in jinx.characters if c != ch.id))
                block += ["", f"{lab['jinxes']} × {other.name(lang) if other else ''}: {jinx.texts[lang]}"]
        out.append("\n".join(block))
    return to_text("\n\n".join(out)) or ""


def _number(pos: float) -> str:
    return str(int(pos)) if float(pos).is_integer() else str(pos)


def _setup_text(setup: dict) -> str:
    parts = []
    for key, value in setup.items():
        if isinstance(value, bool) or isinstance(value, str):
            parts.append(f"{key}: {str(value).lower()}")
        elif isinstance(value, int):
            parts.append(f"{key} {value:+d}")
        elif all(isinstance(v, int) for v in value):
            parts.append(f"{key} {value[0]:+d} to {value[1]:+d}")
        else:
            parts.append(f"{key}: {', '.join(value)}")
    return ", ".join(parts)


def search_rows(db: Database, text: str, langs) -> list[dict]:
    return [{"id": c.id, "team": c.team, "names": {l: c.texts[l].name for l in LANGUAGES if l in c.texts}}
            for c in db.search(text, langs)]


def check_summary(db: Database | None, problems) -> dict:
    """Counts per team and language plus every problem, for `db check`."""
    summary: dict = {"ok": not problems, "problems": [str(p) for p in problems],
                     "findings": [finding(p.code, str(p)).as_dict() for p in problems]}
    if db is not None:
        summary["characters"] = len(db.characters)
        summary["teams"] = {t: sum(1 for c in db.characters.values() if c.team == t) for t in TEAMS
                            if any(c.team == t for c in db.characters.values())}
        summary["languages"] = {lang: sum(1 for c in db.characters.values() if lang in c.texts) for lang in LANGUAGES}
        # A character's texts in a language are a translation when its ability records a source.
        summary["translated"] = {lang: sum(1 for c in db.characters.values()
                                           if f"{c.id}.ability" in db.provenance.get(lang, {}))
                                 for lang in LANGUAGES}
        summary["jinxes"] = len(db.jinxes)
    return summary
