"""Plain-text views of the script analyses, for people (the CLI prints these; JSON comes from as_dict)."""

from dataclasses import dataclass
import json
from typing import TYPE_CHECKING, Iterable, Iterator

from scriptforge.model import TEAMS
from scriptforge.rules.night import NIGHTS

if TYPE_CHECKING:
    from scriptforge.rules.validate import Report


def findings_text(report) -> list[str]:
    lines = []
    for f in report.findings:
        where = f" {f.path}" if f.path else ""
        lines.append(f"{report.source}:{where} {f.severity} [{f.code}] {f.message}")
    errors = sum(f.severity == "error" for f in report.findings)
    warnings = sum(f.severity == "warning" for f in report.findings)
    lines.append(f"{report.source}: {'ok' if report.ok else 'FAILED'} ({errors} error(s), {warnings} warning(s))")
    return lines


@dataclass
class Tally:
    """What a stream of validate reports adds up to, counted as they pass."""

    ok: bool = True
    unreadable: bool = False

    def count(self, report: "Report") -> "Report":
        self.ok = self.ok and report.ok
        self.unreadable = self.unreadable or report.unreadable
        return report

    @property
    def exit_code(self) -> int:
        return 2 if self.unreadable else 0 if self.ok else 1


def report_line(report: "Report") -> str:
    """`validate --format jsonl`: one JSON object per file, on one line."""
    return json.dumps({"file": report.source, "ok": report.ok, "unreadable": report.unreadable,
                       "findings": report.as_dict()["findings"]}, ensure_ascii=False, allow_nan=False)


def findings_document(reports: Iterable["Report"], tally: Tally) -> Iterator[str]:
    """`validate --format json` in pieces (printed without newlines) as the reports come:
    {"findings": [...], "ok": bool}.

    The same document json.dumps(indent=2) gives, with "ok" last because it is known last.
    """
    yield '{\n  "findings": ['
    first = True
    for report in reports:
        for item in report.as_dict()["findings"]:
            text = json.dumps(item, ensure_ascii=False, indent=2, allow_nan=False).replace("\n", "\n    ")
            yield ("\n    " if first else ",\n    ") + text
            first = False
    yield ('' if first else '\n  ') + f'],\n  "ok": {"true" if tally.ok else "false"}\n}}\n'


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


def jinxes_text(result, db, script, lang: str) -> str:
    lines = []
    for jinx in result.jinxes:
        names = " × ".join(_name(db, script, c, lang) for c in jinx.characters)
        lines.append(f"{names}: {jinx.text(lang)}")
    if not result.jinxes:
        lines.append("no jinxes")
    if result.djinn_needed:
        lines.append("The Djinn is needed: add it to the script to carry these jinxes.")
    return "\n".join(lines)


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
    return "\n".join(lines).rstrip()


def order_text(chars, db, lang: str) -> str:
    lines = []
    for team in TEAMS:
        members = [c for c in chars if c.team == team]
        if members:
            lines.append(db.team_name(team, lang, plural=True))
            lines.extend(f"  {c.name(lang)} ({c.id})" for c in members)
    return "\n".join(lines)
