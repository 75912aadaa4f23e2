"""Checking a script: schema (the official verdict) plus the semantic findings.

Import-light on purpose: fastjsonschema (verdict) and jsonschema (messages) are imported inside
the functions that need them, so `show`/`list` never pay for them.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator

from scriptforge.errors import InputError
from scriptforge.languages import official
from scriptforge.model import COUNT_KEYS, PLAYER_TEAMS, TEAMS
from scriptforge.character_json import overlong
from scriptforge.paths import SCHEMAS_DIR
from scriptforge.rules.findings import Finding, Selection, finding, has_errors, short
from scriptforge.rules.jinxes import ScriptJinxes, outdated_jinxes
from scriptforge.rules.night import missing_from_meta
from scriptforge.rules.setup import MAX_CLASS_STATES, MAX_SELECTIONS, SetupRow

if TYPE_CHECKING:
    from scriptforge.analysis import Analysis
    from scriptforge.model import SetupEffect
    from scriptforge.database import Database
    from scriptforge.script import Script

SCRIPT_SCHEMA = SCHEMAS_DIR / "script.schema.json"
MAX_SCHEMA_FINDINGS = 50



@dataclass(frozen=True)
class Report:
    source: str
    findings: tuple[Finding, ...]
    analysis: "Analysis | None" = None  # when the file could be read
    unreadable: bool = False  # not a script at all (exit code 2)

    @property
    def ok(self) -> bool:
        return not has_errors(self.findings)

    def as_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "findings": [{"file": self.source, **f.as_dict()} for f in self.findings]}

    def selected(self, chosen: Selection) -> "Report":
        """The report with only the findings `chosen` wants (--select / --ignore)."""
        return Report(self.source, tuple(chosen.apply(self.findings)), self.analysis, self.unreadable)


def validate_file(source: str | Path, db: "Database") -> Report:
    """Read and check one script file ("-" for stdin); InputError if it is not a script at all."""
    from scriptforge.script import read_script

    return validate_script(read_script(source, db), db)


def validate_data(data: object, db: "Database", source: str = "<data>") -> Report:
    """Check already-parsed JSON; InputError if it is not a non-empty array."""
    from scriptforge.script import script_from_data

    return validate_script(script_from_data(data, db, source), db)


def validate_script(script: "Script", db: "Database") -> Report:
    from scriptforge.analysis import analyse

    analysis = analyse(script, db)
    return Report(script.source, analysis.findings, analysis)


def script_findings(analysis: "Analysis") -> list[Finding]:
    """Every finding on one analysed script (what `Analysis.findings` holds)."""
    script = analysis.script
    findings: list[Finding] = list(script.problems)
    findings += schema_findings(script.document)
    findings += length_findings(script.document)
    findings += analysis.night.problems
    findings += count_findings(script, analysis.setup, analysis.db)
    findings += advice_findings(script, analysis.db)
    findings += companion_findings(script)
    findings += jinx_findings(analysis.jinxes)
    findings += outdated_jinxes(script, analysis.db)
    findings += missing_from_meta(script, analysis.night, analysis.db)
    return findings


# -- schema ------------------------------------------------------------------------------------


@cache
def _schema() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(SCRIPT_SCHEMA.read_text(encoding="utf-8"))
    return schema


@cache
def _fast_item_check() -> Callable[[object], object]:
    import fastjsonschema

    check: Callable[[object], object] = fastjsonschema.compile(_schema()["items"], formats={"uri": lambda value: True})
    return check


@cache
def _validator() -> Any:  # a jsonschema Draft202012Validator
    from jsonschema import Draft202012Validator

    return Draft202012Validator(_schema())


def schema_valid(data: object) -> bool:
    """The verdict of scriptforge's script schema (the same as the official schema's).

    Fast path: the array bounds, then each item. A string can only match the schema's string
    shape (the others are objects), so it is checked by its length; objects go through the
    compiled item schema (fastjsonschema); anything else matches no shape.
    """
    import fastjsonschema

    schema = _schema()
    if not isinstance(data, list) or not schema["minItems"] <= len(data) <= schema["maxItems"]:
        return False
    string_limit = schema["items"]["oneOf"][1]["maxLength"]
    check = _fast_item_check()
    for item in data:
        if isinstance(item, str):
            if len(item) > string_limit:
                return False
        elif isinstance(item, dict):
            try:
                check(item)
            except fastjsonschema.JsonSchemaException:
                return False
            except RecursionError:
                return bool(_validator().is_valid(data))
        else:
            return False
    return True


def _pointer(parts: list[Any]) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def _branch(item: object) -> int:
    """Which of the four item shapes the author most likely meant (index in the schema's oneOf)."""
    if isinstance(item, str):
        return 1
    if isinstance(item, dict):
        if item.get("id") == "_meta" and ("name" in item or len(item) > 1):
            return 2
        if set(item) <= {"id"}:
            return 3
        return 0
    return 1


def schema_findings(data: object) -> list[Finding]:
    """Schema violations, one finding each; maxLength is left to text-too-long (same verdict)."""
    if schema_valid(data):
        return []
    from jsonschema.exceptions import best_match

    out: list[Finding] = []
    for error in _validator().iter_errors(data):
        errors = [error]
        if error.validator == "oneOf" and error.context:
            wanted = _branch(error.instance)
            errors = [e for e in error.context if e.relative_schema_path and e.relative_schema_path[0] == wanted] \
                or [best_match(error.context)]
        elif error.validator == "oneOf":
            errors = [error]
        for sub in errors:
            if sub.validator == "maxLength":
                continue
            path = _pointer(list(sub.absolute_path))
            where = f"at {path}" if path else "at the top level"
            out.append(finding("schema-violation", f"{where}: {short(sub.message, 200)}", path or "",
                               rule=sub.validator))
        if len(out) >= MAX_SCHEMA_FINDINGS:
            out.append(finding("schema-violation", f"more than {MAX_SCHEMA_FINDINGS} schema violations; "
                                                   f"the rest are not listed", "", rule="limit"))
            break
    if not out and not length_findings(data):
        out.append(finding("schema-violation", "the script does not match the official script schema", ""))
    return out


def length_findings(data: object) -> list[Finding]:
    """Texts longer than the official limits (FACTS.md §1.2)."""
    if not isinstance(data, list):
        return []
    return [finding("text-too-long", f"{p.field} is {p.length} characters long; the limit is {p.limit}",
                    p.pointer, field=p.field, length=p.length, limit=p.limit) for p in overlong(data)]


# -- counts and setup --------------------------------------------------------------------------


def team_counts(script: "Script") -> dict[str, int]:
    counts = {team: 0 for team in TEAMS}
    for ch in script.characters:
        counts[ch.team] = counts.get(ch.team, 0) + 1
    return counts


def _players_text(players: Sequence[object]) -> str:
    """"9", "9 and 12", "9, 12 and 15" (numbers or names)."""
    items = [str(p) for p in players]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _too_small(row: SetupRow, counts: dict[str, int]) -> bool:
    """Whether the base distribution alone needs more of some team than the script has."""
    return any((1 if team == "demon" else row.base[COUNT_KEYS[team]]) > counts[team] for team in PLAYER_TEAMS)


def _english_name(script: "Script", db: "Database", char_ids: str) -> str:
    """The English name; a kind of several characters ("a/b") is each name, joined by "/"."""
    names = []
    for char_id in char_ids.split("/"):
        ch = script.get(char_id) or db.characters.get(char_id)
        names.append(ch.name(official()) if ch else char_id)
    return "/".join(names)


def count_findings(script: "Script", table: Sequence[SetupRow], db: "Database") -> list[Finding]:
    """Team counts, and what the setup table says, count by count: a count no bag can fill
    (`team-too-small` when the base distribution alone is too big for the script, else
    `setup-impossible`), a setup character in no bag the script can fill (`setup-shortfall`), an
    option a setup character cannot take (`setup-forced-choice`). Every one comes from the
    table's own verdict (SetupRow.gaps, .unusable, .forced), so `setup` and `validate` agree."""
    from scriptforge.describe import count_phrase, option_phrase

    counts = team_counts(script)
    out = [finding("team-counts", ", ".join(count_phrase(n, t, db, official()) for t, n in counts.items() if n)
                   or "no characters", None, **counts)]
    groups: dict[tuple[Any, ...], list[int]] = {}
    who: dict[tuple[Any, ...], set[str]] = {}
    lang = official()  # findings are in English
    for row in table:
        if not row.feasible:
            small = _too_small(row, counts)
            for gap in (row.gaps if small else row.gaps[:1]):
                key: tuple[Any, ...] = ("team-too-small" if small else "setup-impossible", gap.team, gap.needed,
                                        gap.available)
                groups.setdefault(key, []).append(row.players)
            continue
        for gap in row.unusable:
            key = ("setup-shortfall", gap.team, gap.needed, gap.available)
            if row.players not in groups.setdefault(key, []):
                groups[key].append(row.players)
            who.setdefault(key, set()).update(gap.characters)
        for forced in row.forced:
            key = ("setup-forced-choice", forced.character, forced.others, forced.allowed, forced.refused,
                   forced.gap.team, forced.gap.needed, forced.gap.available)
            if row.players not in groups.setdefault(key, []):
                groups[key].append(row.players)
    order = {c.id: i for i, c in enumerate(script.characters)}
    for key, players in groups.items():
        code = key[0]
        at = f"at {_players_text(players)} players"
        if code == "setup-forced-choice":
            _, char_id, others, allowed, refused, team, needed, available = key
            name = _english_name(script, db, char_id)
            if len(allowed) == 1:
                what = f"must {option_phrase(dict(allowed[0]), db, lang)}"
            else:
                what = f"cannot {option_phrase(dict(refused), db, lang)}"
            context = (f", with {_players_text([_english_name(script, db, o) for o in others])} in play"
                       if others else "")
            message = (f"{at}{context}, the {name} {what}: the bag would need {count_phrase(needed, team, db, lang)}, "
                       f"the script has {available}")
            out.append(finding(code, message, script.paths.get(char_id), character=char_id, players=players,
                               others=list(others), allowed=[dict(o) for o in allowed], refused=dict(refused),
                               team=team, needed=needed, available=available))
            continue
        _, team, needed, available = key
        data: dict[str, Any] = {"team": team, "players": players, "needed": needed, "available": available}
        need = count_phrase(needed, team, db, lang)
        verb = "is" if needed == 1 else "are"
        if code == "team-too-small":
            message = f"no bag can be filled {at}: {need} {verb} needed but the script has {available}"
        elif code == "setup-impossible":
            message = f"no bag can be filled {at}: at least {need} {verb} needed but the script has {available}"
        else:
            names = sorted(who[key], key=lambda i: order.get(i, len(order)))
            data["characters"] = names
            message = (f"{', '.join(names)} cannot be in play {at}: every such bag needs {need} "
                       f"but only {available} of the script's can be in it")
        out.append(finding(code, message, None, **data))
    summarised = [row.players for row in table if not row.detailed]
    if summarised and all(row.exact for row in table):
        out.append(finding("setup-summarised", f"the script's setup characters make too many selections to check "
                                               f"one by one (more than {MAX_SELECTIONS:,}): the setup table's ranges "
                                               f"and verdict are exact, but which setup character cannot be in play "
                                               f"and which options are forced is not checked" +
                           ("" if table[0].listable else "; the bags are not listed"), None,
                           players=summarised, limit=MAX_SELECTIONS, exact=True))
    elif summarised:
        out.append(finding("setup-summarised", f"the script's setup characters are too many to count exactly "
                                               f"(more than {MAX_CLASS_STATES:,} classes of selections): the setup "
                                               f"table's ranges are bounds every bag falls in, not every value need "
                                               f"be reachable, and whether each count can be filled is not checked; "
                                               f"the bags are not listed", None,
                           players=summarised, limit=MAX_CLASS_STATES, exact=False))
    return out + unmodelled_findings(script)


def advice_findings(script: "Script", db: "Database") -> list[Finding]:
    """The script analysis of the official script tool (FACTS.md 9), as info: each team against
    the usual size for the script's kind (standard or Teensyville; data/setup.yaml), no
    character that changes the Outsider count, more characters than one sheet holds."""
    from scriptforge.describe import count_phrase
    from scriptforge.rules.script_kind import is_teensyville

    advice = db.script_advice
    if not advice:
        return []
    counts = team_counts(script)
    kind = "teensyville" if is_teensyville(script.meta, script.characters) else "standard"
    lang = official()
    out = []
    for team in PLAYER_TEAMS:
        lo, hi = advice[kind][team]
        have = counts[team]
        if lo <= have <= hi:
            continue
        usual = str(lo) if lo == hi else f"{lo} or {hi}" if hi == lo + 1 else f"{lo} to {hi}"
        what = "more" if have > hi else "fewer"
        out.append(finding("team-advice", f"{count_phrase(have, team, db, lang)}: {what} than a {kind} script "
                                          f"usually has ({usual})", None,
                           team=team, count=have, usual=[lo, hi], kind=kind))
    if counts["outsider"] and not any(_moves_outsiders(ch.setup) for ch in script.characters
                                      if ch.team in (*PLAYER_TEAMS, "fabled", "loric")):
        out.append(finding("no-outsider-modification", "no character on the script changes the Outsider count: "
                                                       "the players can always work out how many Outsiders there are",
                           None))
    players = sum(counts[t] for t in PLAYER_TEAMS)
    if players > advice["one_sheet"]:
        out.append(finding("sheet-too-full", f"{players} characters: more than one sheet holds at full size "
                                             f"({advice['one_sheet']}); the sheet is printed smaller or on more pages",
                           None, characters=players, one_sheet=advice["one_sheet"]))
    return out


def _moves_outsiders(effect: "SetupEffect | None") -> bool:
    if effect is None:
        return False
    return (effect.choices("outsiders") != (0,) or effect.choices("townsfolk") != (0,)
            or effect.outsiders_any is not None or effect.no_evil or effect.majority or bool(effect.adds))


def unmodelled_findings(script: "Script") -> list[Finding]:
    """Setup effects the counts leave out (a clause already reported when the script was read is
    not reported again)."""
    told = {f.data.get("character") for f in script.problems if f.code == "setup-bracket-unknown"}
    out = []
    for ch in script.characters:
        if ch.setup is None or not ch.setup.unmodelled or ch.id in told:
            continue
        clauses = "; ".join(ch.setup.unmodelled)
        out.append(finding("setup-unmodelled", f"'{ch.id}': its setup effect is not counted ({short(clauses)}); "
                                               f"check the setup table by hand", script.paths.get(ch.id),
                           character=ch.id, clauses=list(ch.setup.unmodelled)))
    return out


def companion_findings(script: "Script") -> list[Finding]:
    out = []
    for ch in script.characters:
        if ch.setup is None:
            continue
        for added in ch.setup.adds:
            if not script.has(added):
                out.append(finding("companion-missing", f"'{ch.id}' adds '{added}' to the game, "
                                                        f"but '{added}' is not on the script",
                                   script.paths.get(ch.id), character=ch.id, missing=added))
    return out


def jinx_findings(jinxes: ScriptJinxes) -> list[Finding]:
    if not jinxes.djinn_needed:
        return []
    pairs = [list(j.characters) for j in jinxes.jinxes]
    listed = "; ".join(" × ".join(p) for p in pairs)
    what = "1 jinx" if len(pairs) == 1 else f"{len(pairs)} jinxes"
    return [finding("jinx-without-djinn", f"the script has {what} ({listed}) and no Djinn: the jinxes are its "
                                          f"rules all the same, as on the official scripts", None, pairs=pairs)]


def input_error_report(source: str, error: InputError) -> Report:
    """A Report for a file that could not be read at all (exit code 2)."""
    return Report(source, (finding("unreadable-input", str(error), None),), unreadable=True)


def validate_files(sources: Iterable[str | Path], db: "Database",
                   chosen: Selection | None = None) -> Iterator[Report]:
    """One Report per file, as each is checked (an unreadable file gets an unreadable-input report),
    so that a caller can print it and let it go: checking 10,000 files holds one at a time.
    `chosen` (--select / --ignore) applies to the findings of the files that could be read."""
    for source in sources:
        try:
            report = validate_file(source, db)
            yield report.selected(chosen) if chosen is not None else report
        except InputError as exc:
            yield input_error_report(str(source), exc)
