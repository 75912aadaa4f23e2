"""Plain-text views of the script analyses, for people (the CLI prints these; JSON comes from as_dict)."""

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
import json
from typing import TYPE_CHECKING

from scriptforge.model.describe import count_phrase, effect_text, joined, option_phrase, setup_cell
from scriptforge.model.markup import to_text
from scriptforge.model.languages import default
from scriptforge.model.records import COUNT_KEYS, PLAYER_TEAMS, TEAMS, Character
from scriptforge.model.records import NIGHTS
from scriptforge.rules.night import NightOrder
from scriptforge.text.marks import tag, with_notes
from scriptforge.io.terminal import display_width, pad

if TYPE_CHECKING:
    from scriptforge.scripts.analysis import Analysis
    from scriptforge.db.database import Database
    from scriptforge.rules.setup import SetupRow
    from scriptforge.scripts.analysis import Report
    from scriptforge.scripts.script import Script


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


def _players_list(players: list[int]) -> str:
    return ", ".join(str(p) for p in players)


def _count_words(n: int, team: str, db: "Database", lang: str) -> str:
    form = str(db.word(lang, "setup", "bag_count_one" if n == 1 else "bag_count_many"))
    return form.format(count=n, team=db.team_name(team, lang), teams=db.team_name(team, lang, plural=True))


def setup_text(rows: Sequence["SetupRow"], characters: Sequence[Character], db: "Database", lang: str = "",
               travellers: int = 0) -> str:
    """The setup table: the base row and each team's range per player count; with one player
    count, also every legal bag (and the Travellers beside it). Words come from ui.yaml in `lang`."""

    lang = lang or default("text")
    words = db.labels(lang)
    keys = tuple(COUNT_KEYS[t] for t in PLAYER_TEAMS)
    titles = [db.team_name(t, lang, plural=True) for t in PLAYER_TEAMS]
    width = max(11, *(display_width(t) for t in titles))
    players = max(7, display_width(words.get("players", "players")))
    lines = [pad(words.get("players", "players"), players, ">") + "  " +
             "  ".join(pad(t, width) for t in titles).rstrip()]
    for row in rows:
        cells = "  ".join(pad(setup_cell(row.base[k], row.ranges[k]), width) for k in keys)
        lines.append(f"{pad(str(row.players), players, '>')}  {cells}".rstrip())
    lines.append(words["setup_table_note"])
    names = {c.id: c.name(lang) + tag(c.texts_for(lang)[1], lang) for c in characters}
    if any(not r.exact for r in rows):
        lines.append(str(db.word(lang, "setup", "bounds")))
    unfillable = [r.players for r in rows if not r.feasible]
    if unfillable:
        lines.append(words["setup_unfillable"].format(players=_players_list(unfillable)))
    shaping = [c for c in characters if c.setup is not None and effect_text(c, db, lang, names)]
    if shaping:
        lines += ["", words["setup_characters"]]
        for ch in shaping:
            team = db.team_name(ch.team, lang)
            lines.append(f"  {names[ch.id]} ({team}): {effect_text(ch, db, lang, names)}")
    if rows and rows[0].unmodelled:
        lines.append("")
        lines += [words["setup_unmodelled"].format(name=names.get(c, c), clause=clause)
                  for c, clause in rows[0].unmodelled]
    if len(rows) == 1:
        row = rows[0]
        notes = forced_notes(row, names, db, lang)
        if notes:
            lines += ["", *notes]
        lines.append("")
        if travellers:
            lines.append(words["setup_travellers"].format(players=row.players, travellers=travellers))
        if not row.listable:
            # deferred: start-up time
            from scriptforge.rules.setup import MAX_LISTED

            if row.exact:
                lines.append(str(db.word(lang, "setup", "unlisted")).format(limit=f"{MAX_LISTED:,}"))
            return "\n".join(lines).rstrip()
        lines.append(words["setup_bags"].format(players=row.players))
        for bag in row.bags:
            counts = " · ".join(_count_words(n, team, db, lang) for n, team in zip(bag.counts, PLAYER_TEAMS))
            who = ", ".join(names.get(i, i) for i in bag.in_play) or words["setup_no_character"]
            lines.append(f"  {counts} — {who}")
    shown = "\n".join(lines)  # the notes of the tags the names shown carry
    return "\n".join(with_notes(db, lang, lines, (code for c in characters for code in [c.texts_for(lang)[1]]
                                                  if tag(code, lang) and tag(code, lang) in shown)))


def forced_notes(row: "SetupRow", names: dict[str, str], db: "Database", lang: str) -> list[str]:
    """One sentence per forced choice at the row's player count, in `lang` (ui.yaml words)."""
    def name(ids: str) -> str:  # a kind of several characters: "A/B"
        return "/".join(names.get(i, i) for i in ids.split("/"))

    out = []
    for forced in row.forced:
        single = len(forced.allowed) == 1
        option = option_phrase(dict(forced.allowed[0] if single else forced.refused), db, lang)
        form = ("forced" if single else "refused") + ("" if forced.others else "_alone")
        others = joined([name(o) for o in forced.others], db, lang)
        out.append(str(db.word(lang, "setup", form)).format(
            players=row.players, others=others, name=name(forced.character), option=option,
            need=count_phrase(forced.gap.needed, forced.gap.team, db, lang), available=forced.gap.available))
    return out


def setup_document(analysis: "Analysis", rows: Sequence["SetupRow"], travellers: int = 0,
                   bags: bool = False) -> list[dict[str, object]]:
    """`setup --format json`: one object per row, with the `validate` findings about that count
    (`findings`), and its bags when `bags`."""
    out = []
    for row in rows:
        data = row.as_dict(bags=bags)
        data["findings"] = [f.as_dict() for f in analysis.findings
                            if row.players in (f.data.get("players") or ())]
        if travellers:
            data["travellers"] = travellers
        out.append(data)
    return out


def jinxes_text(analysis: "Analysis", lang: str) -> str:
    """The script's jinxes, each text in `lang` or tagged with the language it is shown in."""
    result, db, script = analysis.jinxes, analysis.db, analysis.script
    lines, used = [], []
    for jinx in result.jinxes:
        names = []
        for char_id in jinx.characters:
            name, code = _name(db, script, char_id, lang)
            names.append(name + tag(code, lang))
            used.append(code)
        used.append(jinx.text_lang(lang))
        lines.append(f"{' × '.join(names)}: {jinx.text(lang)}{tag(jinx.text_lang(lang), lang)}")
    labels = db.labels(lang)
    if not result.jinxes:
        lines.append(labels["no_jinxes"])
    if result.djinn_needed:
        lines.append(labels["djinn_needed"])
    return to_text("\n".join(with_notes(db, lang, lines, used))) or ""


def _name(db: "Database", script: "Script", char_id: str, lang: str) -> tuple[str, str | None]:
    """(a character's name in `lang`, else along the fallbacks; the language it is in)."""
    ch = script.get(char_id) or db.characters.get(char_id)
    return (ch.name(lang), ch.texts_for(lang)[1]) if ch else (char_id, None)


def night_text(order: NightOrder, db: "Database", lang: str) -> str:
    """The night order as text, its headings in `lang` (ui.yaml); a name or reminder in another
    language is tagged with it."""
    labels = db.labels(lang)
    lines, used = [], []
    for night in NIGHTS:
        lines.append(labels[night])
        for number, row in enumerate(order.rows(night, lang), 1):
            used += [row.get("name_fallback"), row.get("fallback") if row["reminder"] else None]
            reminder = f" — {row['reminder']}{tag(row.get('fallback'), lang)}" if row["reminder"] else ""
            lines.append(f"{number:>3}. {row['name']}{tag(row.get('name_fallback'), lang)}{reminder}")
        lines.append("")
    return to_text("\n".join(with_notes(db, lang, lines[:-1], used))) or ""


def order_text(chars: Iterable[Character], db: "Database", lang: str) -> str:
    lines = []
    for team in TEAMS:
        members = [c for c in chars if c.team == team]
        if members:
            lines.append(db.team_name(team, lang, plural=True))
            lines.extend(f"  {c.name(lang)} ({c.id})" for c in members)
    return "\n".join(lines)


def bag_lines(ids: Sequence[str], characters: Sequence[Character], db: "Database", lang: str, script: str,
              players: int, seed: int | None, problem: str | None) -> list[str]:
    """A bag for the terminal: the names by team (of the script's `characters`), then the `kit`
    command that prints its game (or why a hand-chosen bag is not legal)."""
    chars = [ch for ch in characters if ch.id in ids]
    head = f"Bag for {players} players" + (f" (--seed {seed})" if seed is not None else "") + ":"
    lines = [head]
    for team in TEAMS:
        names = [ch.name(lang) for ch in chars if ch.team == team]
        if names:
            lines.append(f"  {db.team_name(team, lang)}: {', '.join(names)}")
    if problem:
        return [*lines, f"Not legal: {problem}"]
    quoted = script if script.replace("/", "").replace(".", "").replace("-", "").replace("_", "").isalnum() \
        else json.dumps(script, ensure_ascii=False)
    return [*lines, f"scriptforge kit {quoted} --players {players} --bag {','.join(ids)}"]
