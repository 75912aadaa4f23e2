"""Reading YAML data files and checking them against their JSON Schemas.

Every error names the file, the line, the record and the field, in one line.
"""

from collections.abc import Sequence
from functools import cache
import hashlib
import json
from pathlib import Path
from typing import Any

from scriptforge.errors import DataError, DataReferenceError
from scriptforge.fileio import atomic_write_text
from scriptforge.paths import SCHEMAS_DIR, cache_dir



def _yaml():
    """PyYAML and its fastest safe loader, imported on first use (a cached database needs neither)."""
    import yaml

    return yaml, getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_yaml(path: Path) -> Any:
    """Parse one YAML file; a syntax error becomes a DataError naming file and line."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataError("file not found", where=str(path)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(f"cannot read file: {exc}", where=str(path)) from None
    yaml, loader = _yaml()
    try:
        return yaml.load(text, Loader=loader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark else str(path)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise DataError(f"invalid YAML: {problem}", where=where) from None


@cache
def _validator(schema_name: str):
    # Generating a validator costs ~10 ms per schema, more than reading all the data; the
    # generated code is cached per schema content and fastjsonschema version.
    text = schema_path(schema_name).read_text(encoding="utf-8")
    import fastjsonschema

    digest = hashlib.sha256(f"{fastjsonschema.VERSION}\n{text}".encode()).hexdigest()[:24]
    cached = cache_dir("validators") / f"{schema_name}-{digest}.py"
    try:
        code = cached.read_text(encoding="utf-8")
    except OSError:
        code = fastjsonschema.compile_to_code(json.loads(text))
        try:
            atomic_write_text(cached, code, durable=False)
        except OSError:
            pass  # a read-only home only costs speed
    namespace: dict = {}
    exec(compile(code, str(cached), "exec"), namespace)
    return namespace["validate"]


def schema_path(schema_name: str) -> Path:
    return SCHEMAS_DIR / f"{schema_name}.schema.json"


def validate(data, schema_name: str, path: Path, record_id: str | None = None) -> None:
    """Check `data` (read from `path`) against a schema; raise one clear DataError if it fails."""
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
        yaml, loader = _yaml()
        node = yaml.compose(path.read_text(encoding="utf-8"), Loader=loader)
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
