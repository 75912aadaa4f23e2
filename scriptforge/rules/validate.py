"""Checking a script: schema (the official verdict) plus the semantic findings.

Import-light on purpose: fastjsonschema (verdict) and jsonschema (messages) are imported inside
the functions that need them, so `show`/`list` never pay for them.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
import json
from typing import TYPE_CHECKING

from scriptforge.errors import InputError
from scriptforge.model import COUNT_KEYS, PLAYER_TEAMS, TEAMS
from scriptforge.paths import SCHEMAS_DIR
from scriptforge.rules.findings import Finding, Selection, finding, has_errors, short
from scriptforge.rules.jinxes import ScriptJinxes, outdated_jinxes
from scriptforge.rules.night import missing_from_meta
from scriptforge.rules.setup import SetupRow, setup_modifiers

if TYPE_CHECKING:
    from scriptforge.analysis import Analysis

SCRIPT_SCHEMA = SCHEMAS_DIR / "script.schema.json"
MAX_SCHEMA_FINDINGS = 50
_TEAM_PLURAL = {"townsfolk": "Townsfolk", "outsider": "Outsiders", "minion": "Minions", "demon": "Demons"}

# Official length limits (FACTS.md §1.2), per kind of entry: field -> limit; "[]" marks list items.
_META_LIMITS = {"name": 50, "author": 50, "logo": 250, "background": 250, "almanac": 250}
_CHARACTER_LIMITS = {"id": 50, "name": 30, "edition": 50, "ability": 250, "flavor": 500,
                     "firstNightReminder": 500, "otherNightReminder": 500}
_LIST_LIMITS = {"reminders": 30, "remindersGlobal": 25}


@dataclass(frozen=True)
class Report:
    source: str
    findings: tuple[Finding, ...]
    analysis: "Analysis | None" = None  # when the file could be read

    @property
    def ok(self) -> bool:
        return not has_errors(self.findings)

    def as_dict(self) -> dict:
        return {"ok": self.ok, "findings": [{"file": self.source, **f.as_dict()} for f in self.findings]}

    def selected(self, chosen: Selection) -> "Report":
        """The report with only the findings `chosen` wants (--select / --ignore)."""
        return Report(self.source, tuple(chosen.apply(self.findings)), self.analysis)


def validate_file(source, db) -> Report:
    """Read and check one script file ("-" for stdin); InputError if it is not a script at all."""
    from scriptforge.script import read_script

    return validate_script(read_script(source, db), db)


def validate_data(data, db, source: str = "<data>") -> Report:
    """Check already-parsed JSON; InputError if it is not a non-empty array."""
    from scriptforge.script import script_from_data

    return validate_script(script_from_data(data, db, source), db)


def validate_script(script, db) -> Report:
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
    findings += count_findings(script, analysis.setup)
    findings += companion_findings(script)
    findings += jinx_findings(analysis.jinxes)
    findings += outdated_jinxes(script, analysis.db)
    findings += missing_from_meta(script, analysis.night, analysis.db)
    return findings


# -- schema ------------------------------------------------------------------------------------


@cache
def _schema() -> dict:
    return json.loads(SCRIPT_SCHEMA.read_text(encoding="utf-8"))


@cache
def _fast_item_check():
    import fastjsonschema

    return fastjsonschema.compile(_schema()["items"], formats={"uri": lambda value: True})


@cache
def _validator():
    from jsonschema import Draft202012Validator

    return Draft202012Validator(_schema())


def schema_valid(data) -> bool:
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
                return _validator().is_valid(data)
        else:
            return False
    return True


def _pointer(parts) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def _branch(item) -> int:
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


def schema_findings(data) -> list[Finding]:
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


def length_findings(data) -> list[Finding]:
    """Texts longer than the official limits (FACTS.md §1.2)."""
    if not isinstance(data, list):
        return []
    out = []

    def check(value, limit, path, field):
        if isinstance(value, str) and len(value) > limit:
            out.append(finding("text-too-long", f"{field} is {len(value)} characters long; the limit is {limit}",
                               path, field=field, length=len(value), limit=limit))

    for index, item in enumerate(data):
        base = f"/{index}"
        if isinstance(item, str):
            check(item, 20, base, "id")
        elif isinstance(item, dict):
            if item.get("id") == "_meta":
                for key, limit in _META_LIMITS.items():
                    check(item.get(key), limit, f"{base}/{key}", f"_meta.{key}")
            elif set(item) <= {"id"}:
                check(item.get("id"), 20, f"{base}/id", "id")
            else:
                for key, limit in _CHARACTER_LIMITS.items():
                    check(item.get(key), limit, f"{base}/{key}", key)
                for key, limit in _LIST_LIMITS.items():
                    if isinstance(item.get(key), list):
                        for i, label in enumerate(item[key]):
                            check(label, limit, f"{base}/{key}/{i}", f"{key} item")
                for key, fields in (("jinxes", {"id": 50, "reason": 500}), ("special", {"value": 50})):
                    if isinstance(item.get(key), list):
                        for i, entry in enumerate(item[key]):
                            if isinstance(entry, dict):
                                for sub, limit in fields.items():
                                    check(entry.get(sub), limit, f"{base}/{key}/{i}/{sub}", f"{key}.{sub}")
    return out


# -- counts and setup --------------------------------------------------------------------------


def team_counts(script) -> dict[str, int]:
    counts = {team: 0 for team in TEAMS}
    for ch in script.characters:
        counts[ch.team] = counts.get(ch.team, 0) + 1
    return counts


def _players_text(players: list[int]) -> str:
    items = [str(p) for p in players]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _relevant(mods, team: str) -> list[str]:
    key = COUNT_KEYS[team]
    out = []
    for mod in mods:
        effect = mod.effect
        if team == "townsfolk":
            hit = bool(effect.counts) or effect.bag_token == "townsfolk" or bool(effect.adds) or not effect.demon_token
        else:
            hit = key in effect.counts or any(a for a in effect.adds) or (team == "minion" and not effect.demon_token)
        if hit:
            out.append(mod.character)
    return out


def count_findings(script, table: Sequence[SetupRow]) -> list[Finding]:
    counts = team_counts(script)
    out = [finding("team-counts", ", ".join(f"{n} {t}" for t, n in counts.items() if n) or "no characters",
                   None, **counts)]
    mods = setup_modifiers(script)
    groups: dict[tuple, list[int]] = {}
    for row in table:
        for team in PLAYER_TEAMS:
            available = counts[team]
            base = 1 if team == "demon" else row.base[COUNT_KEYS[team]]
            lo, hi = row.demand[team]
            if base > available:
                groups.setdefault(("team-too-small", team, base), []).append(row.players)
            elif lo > available:
                groups.setdefault(("setup-impossible", team, lo), []).append(row.players)
            elif hi > available:
                groups.setdefault(("setup-shortfall", team, hi), []).append(row.players)
    for (code, team, needed), players in groups.items():
        available = counts[team]
        plural = _TEAM_PLURAL[team] if needed != 1 else {"townsfolk": "Townsfolk"}.get(team, team.capitalize())
        at = f"at {_players_text(players)} players"
        data = {"team": team, "players": players, "needed": needed, "available": available}
        if code == "team-too-small":
            message = f"{needed} {plural} are needed {at} but the script has {available}"
        else:
            who = _relevant(mods, team)
            data["characters"] = who
            by = f" ({', '.join(who)})" if who else ""
            if code == "setup-impossible":
                message = f"at least {needed} {plural} are needed {at}{by} but the script has {available}"
            else:
                message = f"up to {needed} {plural} can be needed {at}{by} but the script has {available}"
        out.append(finding(code, message, None, **data))
    return out


def companion_findings(script) -> list[Finding]:
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
    return Report(source, (finding("unreadable-input", str(error), None),))
