"""The script schema: the official verdict on a script document (fast: fastjsonschema, compiled
once) and, for a document that fails it, one finding per violation (worded by jsonschema), plus the
official length limits.

Import-light on purpose: fastjsonschema (verdict) and jsonschema (messages) are imported inside
the functions that need them, so `show`/`list` never pay for them.
"""

from collections.abc import Callable, Iterator
from functools import cache
import json
from typing import Any

from scriptforge.model.character_json import overlong
from scriptforge.model.findings import Finding, finding, short
from scriptforge.io.errors import json_pointer
from scriptforge.io.paths import SCHEMAS_DIR
from scriptforge.io.datafiles import compiled_check

SCRIPT_SCHEMA = SCHEMAS_DIR / "script.schema.json"
MAX_SCHEMA_FINDINGS = 50


@cache
def _schema() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(SCRIPT_SCHEMA.read_text(encoding="utf-8"))
    return schema


@cache
def _fast_item_checks() -> tuple[int, Callable[[object], bool], Callable[[object], bool], Callable[[object], bool]]:
    """(the longest id string, then the verdicts of the full character, the _meta and the
    {"id": ...} shapes), each shape compiled once by fastjsonschema (see `_item_valid`)."""
    # deferred: start-up time
    import fastjsonschema


    def verdict(shape: dict[str, Any]) -> Callable[[object], bool]:
        # the official schema's formats are not checked (see the schema's description)
        check = compiled_check(f"script-item-{shapes.index(shape)}", shape, use_formats=False,
                               detailed_exceptions=False)

        def valid(item: object) -> bool:
            try:
                check(item)
            except fastjsonschema.JsonSchemaException:
                return False
            return True
        return valid

    shapes = _schema()["items"]["oneOf"]
    assert [shape["type"] for shape in shapes] == ["object", "string", "object", "object"], "the item shapes moved"
    return int(shapes[1]["maxLength"]), verdict(shapes[0]), verdict(shapes[2]), verdict(shapes[3])


@cache
def _validator() -> Any:  # a jsonschema Draft7Validator
    # deferred: start-up time
    from jsonschema import Draft7Validator

    return Draft7Validator(_schema())


@cache
def _array_validator() -> Any:
    """The script schema without its item schema: the checks on the array itself."""
    # deferred: start-up time
    from jsonschema import Draft7Validator

    return Draft7Validator({key: value for key, value in _schema().items() if key != "items"})


@cache
def _item_validator() -> Any:
    """The item schema alone (the script schema has no $ref, so it stands on its own)."""
    # deferred: start-up time
    from jsonschema import Draft7Validator

    return Draft7Validator(_schema()["items"])


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
    """One item's verdict: exactly one of the schema's four shapes (`oneOf`). A string can only
    match the string shape, so it is checked by its length; anything but a string or an object
    matches none. Of the object shapes, the full character and _meta need a `name` and the
    {"id": ...} shape allows no other key, so an object without `name` can only be the last; one
    whose id is not "_meta" can only be a full character; a "_meta" object with a name can be
    either of those two, and must be exactly one. So each object is checked against the one or
    two shapes it can match, each compiled once (fastjsonschema). RecursionError (deeply nested
    JSON) is the caller's to handle."""
    longest, full, meta, short_form = _fast_item_checks()
    if isinstance(item, str):
        return len(item) <= longest
    if not isinstance(item, dict):
        return False
    if "name" not in item:
        return short_form(item)
    if item.get("id") != "_meta":
        return full(item)
    return full(item) != meta(item)


_Worded = tuple[tuple[tuple[tuple[str | int, ...], str, str], ...], ...]
_ITEMS_WORDED: dict[str, _Worded] = {}


def _schema_problems(data: object) -> Iterator[tuple[tuple[tuple[str | int, ...], str, str], ...]]:
    """jsonschema's errors for `data`, in its own order (the array's checks, then item by item),
    each as its worded violations ((steps from the top, message, rule), see `_worded`). Messages
    are made only for the items the compiled check refuses (most items of an invalid script are
    valid, and jsonschema is ~8× slower than the compiled check on the corpus), and once per
    distinct refused item: a batch repeats the same homebrew objects in file after file."""
    for error in _array_validator().iter_errors(data):
        yield _worded(error)
    if not isinstance(data, list):
        return
    for index, item in enumerate(data):
        try:
            if _item_valid(item):
                continue
        except RecursionError:
            pass
        for problems in _item_worded(item):
            yield tuple(((index, *steps), message, rule) for steps, message, rule in problems)


def _item_worded(item: object) -> _Worded:
    """The worded errors of one refused item (steps from the item), remembered by its JSON text
    (key order included: jsonschema names unexpected keys in the item's order)."""
    try:
        key: str | None = json.dumps(item, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        key = None
    found = _ITEMS_WORDED.get(key) if key is not None else None
    if found is None:
        found = tuple(_worded(error) for error in _item_validator().iter_errors(item))
        if key is not None:
            if len(_ITEMS_WORDED) >= 4096:
                _ITEMS_WORDED.clear()
            _ITEMS_WORDED[key] = found
    return found


def _worded(error: Any) -> tuple[tuple[tuple[str | int, ...], str, str], ...]:
    """One jsonschema error as the violations a finding names: for a failed oneOf, those of the
    shape the author most likely meant (`_branch`), else the best match; maxLength left to
    text-too-long (same verdict)."""
    # deferred: start-up time
    from jsonschema.exceptions import best_match

    errors = [error]
    if error.validator == "oneOf" and error.context:
        wanted = _branch(error.instance)
        errors = [e for e in error.context if e.relative_schema_path and e.relative_schema_path[0] == wanted] \
            or [best_match(error.context)]
    return tuple((tuple(sub.absolute_path), short(sub.message, 200), str(sub.validator)) for sub in errors
                 if sub.validator != "maxLength")


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
    out: list[Finding] = []
    for problems in _schema_problems(data):
        for steps, message, rule in problems:
            path = json_pointer(list(steps))
            where = f"at {path}" if path else "at the top level"
            out.append(finding("schema-violation", f"{where}: {message}", path or "", rule=rule))
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
