"""Reading YAML data files and checking them against their JSON Schemas.

Every error names the file, the line, the record and the field, in one line.
"""

from functools import cache
import json
from pathlib import Path

import fastjsonschema
import yaml

from scriptforge.errors import DataError
from scriptforge.paths import SCHEMAS_DIR

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_yaml(path: Path):
    """Parse one YAML file; a syntax error becomes a DataError naming file and line."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError("file not found", where=str(path)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(f"cannot read file: {exc}", where=str(path)) from None
    try:
        return yaml.load(text, Loader=_Loader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark else str(path)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise DataError(f"invalid YAML: {problem}", where=where) from None


@cache
def _validator(schema_name: str):
    schema = json.loads((SCHEMAS_DIR / f"{schema_name}.schema.json").read_text(encoding="utf-8"))
    return fastjsonschema.compile(schema)


def schema_path(schema_name: str) -> Path:
    return SCHEMAS_DIR / f"{schema_name}.schema.json"


def validate(data, schema_name: str, path: Path, record_id: str | None = None) -> None:
    """Check `data` (read from `path`) against a schema; raise one clear DataError if it fails."""
    try:
        _validator(schema_name)(data)
    except fastjsonschema.JsonSchemaValueException as exc:
        steps = [p for p in (exc.path or [])[1:] if p != ""]
        raise DataError(
            _describe(exc, steps, data, record_id),
            where=f"{path}:{line_of(path, steps)}",
        ) from None


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
        node = yaml.compose(path.read_text(encoding="utf-8"), Loader=_Loader)
    except (OSError, yaml.YAMLError):
        return 1
    line = node.start_mark.line if node is not None else 0
    for step in steps:
        child = None
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                if key.value == str(step):
                    child, line = value, key.start_mark.line
                    break
        elif isinstance(node, yaml.SequenceNode) and isinstance(step, int) and step < len(node.value):
            child = node.value[step]
            line = child.start_mark.line
        if child is None:
            break
        node = child
    return line + 1
