"""Plain-text views of the script analyses, for people (the CLI prints these; JSON comes from as_dict)."""

from typing import TYPE_CHECKING

from scriptforge.markup import to_text
from scriptforge.model import TEAMS
from scriptforge.rules.night import NIGHTS

if TYPE_CHECKING:
    from scriptforge.analysis import Analysis


def _span(base: int, span: tuple[int, int]) -> str:
    lo, hi = span
    return str(base) if lo == hi == base else f"{base} ({lo}–{hi})" if lo != hi else f"{base} ({lo})"


def setup_text(rows) -> str:
    keys = ("townsfolk", "outsiders", "minions", "demons")
    lines = [f"{'players':>7}  " + "  ".join(f"{k:<11}" for k in keys)]
    for row in rows:
        cells = "  ".join(f"{_span(row.base[k], row.ranges[k]):<11}" for k in keys)
        lines.append(f"{row.players:>7}  {cells}".rstrip())
    mods = rows[0].modifiers if rows else ()
    if mods:
        lines.append("")
        lines.append("setup characters:")
        for mod in mods:
            effect = ", ".join(f"{k} {v}" for k, v in mod["effect"].items())
            lines.append(f"  {mod['character']} ({mod['team']}): {effect}")
    lines.append("")
    lines.append("base (range the setup characters allow)")
    return "\n".join(lines)


def jinxes_text(analysis: "Analysis", lang: str) -> str:
    result, db, script = analysis.jinxes, analysis.db, analysis.script
    lines = []
    for jinx in result.jinxes:
        names = " × ".join(_name(db, script, c, lang) for c in jinx.characters)
        lines.append(f"{names}: {jinx.text(lang)}")
    if not result.jinxes:
        lines.append("no jinxes")
    if result.djinn_needed:
        lines.append("The Djinn is needed: add it to the script to carry these jinxes.")
    return to_text("\n".join(lines)) or ""


def _name(db, script, char_id: str, lang: str) -> str:
    ch = script.get(char_id) or db.characters.get(char_id)
    return ch.name(lang) if ch else char_id


def night_text(order, lang: str) -> str:
    titles = {"first_night": "First night", "other_nights": "Other nights"}
    lines = []
    for night in NIGHTS:
        lines.append(titles[night])
        for number, row in enumerate(order.rows(night, lang), 1):
            lines.append(f"{number:>3}. {row['name']}" + (f" — {row['reminder']}" if row["reminder"] else ""))
        lines.append("")
    return to_text("\n".join(lines).rstrip()) or ""


def order_text(chars, db, lang: str) -> str:
    lines = []
    for team in TEAMS:
        members = [c for c in chars if c.team == team]
        if members:
            lines.append(db.team_name(team, lang, plural=True))
            lines.extend(f"  {c.name(lang)} ({c.id})" for c in members)
    return "\n".join(lines)
