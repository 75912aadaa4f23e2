"""The script schema: the official verdict on a script document (fast: fastjsonschema, compiled
once) and, for a document that fails it, one finding per violation (worded by jsonschema), plus the
official length limits.

Import-light on purpose: fastjsonschema (verdict) and jsonschema (messages) are imported inside
the functions that need them, so `show`/`list` never pay for them.
"""

from collections.abc import Callable
from functools import cache
import json
from typing import Any

from scriptforge.character_json import overlong
from scriptforge.findings import Finding, finding, short
from scriptforge.ids import json_pointer
from scriptforge.paths import SCHEMAS_DIR

SCRIPT_SCHEMA = SCHEMAS_DIR / "script.schema.json"
MAX_SCHEMA_FINDINGS = 50


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
def _validator() -> Any:  # a jsonschema Draft7Validator
    from jsonschema import Draft7Validator

    return Draft7Validator(_schema())


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
            path = json_pointer(list(sub.absolute_path))
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
