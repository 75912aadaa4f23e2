"""Reading YAML data files and checking them against their JSON Schemas.

Every error names the file, the line, the record and the field, in one line.
"""

from collections.abc import Sequence
import functools
import hashlib
import json
from pathlib import Path
from typing import Any
import marshal

from scriptforge.io import userfiles
from scriptforge.io.errors import DataError, DataReferenceError, InputError
from scriptforge.io import cache
from scriptforge.io.paths import SCHEMAS_DIR



def read_yaml(path: Path) -> Any:
    """Parse one YAML data file through the user-file guard; any problem is a DataError naming file and line."""
    try:
        return userfiles.read_yaml(path)
    except InputError as exc:
        raise DataError(str(exc)) from None


PARTIAL = "~partial"  # a schema name with this suffix: the schema with its completeness `required` lifted


@functools.cache
def _validator(schema_name: str):
    # Generating a validator costs ~10 ms per schema, more than reading all the data; the
    # generated code is cached per schema content and fastjsonschema version, and so is its
    # bytecode (per Python bytecode version): compiling the generated Python took as long
    # again, in every process that checks data (`db check`, a changed data file).
    base = schema_name.removesuffix(PARTIAL)
    schema = json.loads(schema_path(base).read_text(encoding="utf-8"))
    if base != schema_name:
        _lift_required(schema)
    return compiled_check(f"{base}{'-partial' if base != schema_name else ''}", schema)


def _lift_required(schema: dict[str, Any]) -> None:
    """A layer of partial texts may hold one night step's reminder or one team's name: lift the
    `required` lists that ask for a file's every part (the top level and the objects below it
    through `properties`), and keep those of a record's own shape (`translated_from`, list items)."""
    schema.pop("required", None)
    for name, sub in schema.get("properties", {}).items():
        if isinstance(sub, dict) and name != "translated_from":
            _lift_required(sub)


def compiled_check(label: str, schema: dict[str, Any], **options: Any) -> Any:
    """fastjsonschema's check of `schema` (`options`: compile_to_code's), the bytecode of its
    generated code kept in the user cache under the hash of the schema, the options and
    fastjsonschema's version (see `_validator`)."""
    # deferred: start-up time
    import fastjsonschema

    key = json.dumps([fastjsonschema.VERSION, label, schema, sorted(options.items())], sort_keys=True)
    name = f"{label}-{hashlib.sha256(key.encode()).hexdigest()[:24]}"
    compiled = None
    data = cache.read("validators", name, code=True)
    if data is not None:
        try:
            compiled = marshal.loads(data)
        except (ValueError, EOFError, TypeError):
            compiled = None
    if compiled is None:
        compiled = compile(fastjsonschema.compile_to_code(schema, **options), f"<validator {label}>", "exec")
        cache.write("validators", name, marshal.dumps(compiled), code=True)
    namespace: dict[str, Any] = {}
    exec(compiled, namespace)
    return namespace["validate"]


def schema_path(schema_name: str) -> Path:
    return SCHEMAS_DIR / f"{schema_name}.schema.json"


def validate(data, schema_name: str, path: Path, record_id: str | None = None) -> None:
    """Check `data` (read from `path`) against a schema; raise one clear DataError if it fails."""
    # deferred: start-up time
    import fastjsonschema

    try:
        _validator(schema_name)(data)
    except fastjsonschema.JsonSchemaValueException as exc:
        steps = _steps(data, (exc.path or [])[1:])
        raise DataError(
            _describe(exc, steps, data, record_id),
            where=f"{path}:{line_of(path, steps)}",
        ) from None


def _steps(data, raw) -> list:
    """fastjsonschema's path with list indexes as ints (it reports them as strings)."""
    steps, node = [], data
    for step in raw:
        if isinstance(node, list) and str(step).isdigit():
            step = int(step)
        steps.append(step)
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            node = None
    return steps


def _describe(exc, steps, data, record_id):
    record = record_id
    node = data
    for step in steps:
        if isinstance(node, dict) and isinstance(node.get("id"), str):
            record = node["id"]
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            break
    if isinstance(node, dict) and isinstance(node.get("id"), str):
        record = node["id"]
    field = ".".join(str(s) for s in steps if not isinstance(s, int)) or "(top level)"
    rule = exc.message.removeprefix(exc.name).strip() if exc.name else exc.message
    parts = [f"record '{record}'"] if record else []
    parts.append(f"field '{field}'")
    return f"{', '.join(parts)}: {rule}"


def line_of(path: Path, steps) -> int:
    """The 1-based line of the node at `steps` in a YAML file (the deepest node that exists)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return 1
    return userfiles.yaml_line(text, list(steps))


class ProblemCollector:
    """Base of the loaders: read and validate files, collecting every problem instead of stopping."""

    def __init__(self) -> None:
        self.problems: list[DataError] = []

    def _read(self, path: Path, schema: str, record_id: str | None = None) -> Any:
        try:
            data = read_yaml(path)
            validate(data, schema, path, record_id)
            return data
        except DataError as exc:
            self.problems.append(exc)
            return None

    def _problem(self, path: Path, message: str, steps: Sequence[str | int] = ()) -> None:
        self.problems.append(DataReferenceError(message, where=f"{path}:{line_of(path, list(steps))}"))
