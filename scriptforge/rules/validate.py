"""Checking a script: schema (the official verdict) plus the semantic findings.

Import-light on purpose: fastjsonschema (verdict) and jsonschema (messages) are imported inside
the functions that need them, so `show`/`list` never pay for them.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
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
from scriptforge.rules.setup import SetupRow, Shortfall

if TYPE_CHECKING:
    from scriptforge.analysis import Analysis
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


@cache
def _array_validator() -> Any:
    """The script schema without its item schema: the checks on the array itself."""
    from jsonschema import Draft202012Validator

    return Draft202012Validator({key: value for key, value in _schema().items() if key != "items"})


@cache
def _item_validator() -> Any:
    """The item schema alone (the script schema has no $ref, so it stands on its own)."""
    from jsonschema import Draft202012Validator

    return Draft202012Validator(_schema()["items"])


def schema_valid(data: object) -> bool:
    """The verdict of scriptforge's script schema (the same as the official schema's).

    Fast path: the array bounds, then each item (`_item_valid`).
    """
    schema = _schema()
    if not isinstance(data, list) or not schema["minItems"] <= len(data) <= schema["maxItems"]:
        return False
    try:
        return all(_item_valid(item) for item in data)
    except RecursionError:
        return bool(_validator().is_valid(data))


def _item_valid(item: object) -> bool:
    """One item's verdict. A string can only match the schema's string shape (the others are
    objects), so it is checked by its length; objects go through the compiled item schema
    (fastjsonschema); anything else matches no shape. RecursionError (deeply nested JSON) is the
    caller's to handle."""
    import fastjsonschema

    if isinstance(item, str):
        return len(item) <= int(_schema()["items"]["oneOf"][1]["maxLength"])
    if not isinstance(item, dict):
        return False
    try:
        _fast_item_check()(item)
    except fastjsonschema.JsonSchemaException:
        return False
    return True


def _schema_errors(data: object) -> Iterator[Any]:
    """jsonschema's errors for `data`, in its own order (the array's checks, then item by item),
    with messages run only on the items the compiled check refuses (most items of an invalid
    script are valid, and jsonschema is ~8× slower than the compiled check)."""
    yield from _array_validator().iter_errors(data)
    if not isinstance(data, list):
        return
    for index, item in enumerate(data):
        try:
            if _item_valid(item):
                continue
        except RecursionError:
            pass
        for error in _item_validator().iter_errors(item):
            error.path.appendleft(index)  # as if reported on the whole script
            yield error


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
    for error in _schema_errors(data):
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


def _players_text(players: list[int]) -> str:
    items = [str(p) for p in players]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def count_findings(script: "Script", table: Sequence[SetupRow], db: "Database") -> list[Finding]:
    """Team counts, and what the setup table's bags (rules.setup) say the script cannot fill."""
    counts = team_counts(script)
    out = [finding("team-counts", ", ".join(f"{n} {t}" for t, n in counts.items() if n) or "no characters",
                   None, **counts)]
    groups: dict[tuple[str, str, int, int], list[int]] = {}  # (code, team, needed, available) -> players
    who: dict[tuple[str, str, int, int], set[str]] = {}
    for row in table:
        too_small = False
        for team in PLAYER_TEAMS:
            base = 1 if team == "demon" else row.base[COUNT_KEYS[team]]
            if base > counts[team]:
                groups.setdefault(("team-too-small", team, base, counts[team]), []).append(row.players)
                too_small = True
        if not row.feasible:
            if not too_small:  # the base fits every team, yet no bag does
                gap = min(row.shortfalls, default=None, key=lambda s: (
                    s.needed <= row.base[COUNT_KEYS[s.team]], s.needed - s.available, s.team))  # setup-made first
                team, needed, available = (gap.team, gap.needed, gap.available) if gap else ("demon", 1, counts["demon"])
                groups.setdefault(("setup-impossible", team, needed, available), []).append(row.players)
            continue
        for char_id, gap in _unusable(row).items():
            key: tuple[str, str, int, int] = ("setup-shortfall", gap.team, gap.needed, gap.available)
            if row.players not in groups.setdefault(key, []):
                groups[key].append(row.players)
            who.setdefault(key, set()).add(char_id)
    order = {c.id: i for i, c in enumerate(script.characters)}
    for key, players in groups.items():
        code, team, needed, available = key
        plural = db.team_name(team, official(), plural=needed != 1)  # findings are in English
        at = f"at {_players_text(players)} players"
        data: dict[str, Any] = {"team": team, "players": players, "needed": needed, "available": available}
        if code == "team-too-small":
            message = f"{needed} {plural} are needed {at} but the script has {available}"
        elif code == "setup-impossible":
            message = (f"no bag can be filled {at}: at least {needed} {plural} are needed but the script "
                       f"has {available}")
        else:
            names = sorted(who[key], key=lambda i: order.get(i, len(order)))
            data["characters"] = names
            message = (f"{', '.join(names)} cannot be in play {at}: every such bag needs {needed} {plural} "
                       f"but only {available} of the script's can be in it")
        out.append(finding(code, message, None, **data))
    return out + unmodelled_findings(script)


def _unusable(row: SetupRow) -> dict[str, Shortfall]:
    """The setup characters that are in no bag the script can fill at this count, each with the
    bag that came closest. Only shortages the setup characters make count: a bag short of what
    the base itself asks for is not their doing."""
    usable = {i for bag in row.bags for i in bag.in_play}
    out: dict[str, Shortfall] = {}
    for gap in row.shortfalls:
        if gap.needed <= row.base[COUNT_KEYS[gap.team]]:
            continue
        for char_id in gap.bag.in_play:
            seen = out.get(char_id)
            if char_id not in usable and (seen is None or (len(gap.bag.in_play), gap.needed - gap.available)
                                          < (len(seen.bag.in_play), seen.needed - seen.available)):
                out[char_id] = gap
    return out


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
    return [finding("jinx-without-djinn", f"the script has {len(pairs)} jinx(es) ({listed}) but no Djinn",
                    None, pairs=pairs)]


def input_error_report(source: str, error: InputError) -> Report:
    """A Report for a file that could not be read at all (exit code 2)."""
    return Report(source, (finding("unreadable-input", str(error), None),), unreadable=True)


def validate_files(sources: Iterable[str | Path], db: "Database",
                   chosen: Selection | None = None, jobs: int = 1) -> Iterator[Report]:
    """One Report per file, as each is checked (an unreadable file gets an unreadable-input report),
    so that a caller can print it and let it go: checking 10,000 files holds one at a time. A
    folder stands for its *.json files (sorted). `chosen` (--select / --ignore) applies to the
    findings of the files that could be read. With ``jobs`` > 1 the files are checked by that many
    forked processes (scriptforge.batch.forked_map), in order, and the reports carry no analysis."""
    from scriptforge.batch import forked_map

    def one(source: str | Path) -> Report:
        try:
            report = validate_file(source, db)
        except InputError as exc:
            if Path(source).is_dir():
                exc = InputError("the folder holds no .json script files", where=str(source))
            return input_error_report(str(source), exc)
        report = report.selected(chosen) if chosen is not None else report
        return replace(report, analysis=None) if jobs > 1 else report

    return forked_map(one, _expanded(sources), jobs)


def _expanded(sources: Iterable[str | Path]) -> Iterator[str | Path]:
    """The files named: a folder's *.json files sorted by name (itself, when it holds none, so
    that it is reported as unreadable), anything else as given."""
    for source in sources:
        path = Path(source)
        if str(source) != "-" and path.is_dir():
            found: list[str | Path] = sorted(p for p in path.glob("*.json") if p.is_file())
            yield from found or [source]
        else:
            yield source
