"""Every import inside a function buys start-up time: importing its module does not load what it
imports (else it belongs at the top, where the layer test sees it plainly), and a `# deferred`
comment says so where the run of such imports begins (issue 22: keep the lazy imports that buy
start-up time, and say so beside each). And every dataclass has a docstring: without one,
`dataclass` computes the class's `inspect.signature` at import to write one (~0.3 ms a class)."""

import ast
from concurrent.futures import ThreadPoolExecutor
import json
from pathlib import Path
import subprocess
import sys

ROOT = Path(__file__).resolve().parents[1]

_PROBE = """
import importlib.util, json, sys
import {module}
loaded = set(sys.modules)
def loads(target, names):
    if target is None:
        return all(name in loaded for name in names)
    def submodule(name):
        try:
            return importlib.util.find_spec(f"{{target}}.{{name}}") is not None
        except (ImportError, ValueError):
            return False
    return target in loaded and all(f"{{target}}.{{n}}" in loaded for n in names if submodule(n))
print(json.dumps([loads(t, n) for t, n in json.loads(sys.argv[1])]))
"""


def _module(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def _target(node: ast.Import | ast.ImportFrom, module: str, package: bool) -> tuple[str | None, list[str]]:
    names = [alias.name for alias in node.names]
    if isinstance(node, ast.Import):
        return None, names
    if not node.level:
        return node.module, names
    parts = module.split(".") if package else module.split(".")[:-1]
    base = parts[: len(parts) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else [])), names


def _function_imports(path: Path):
    """(import, marked, starts a run) for every import inside a function; a run of imports side by side is
    marked by one `# deferred` comment above its first line."""
    lines = path.read_text(encoding="utf-8").splitlines()
    seen: set[int] = set()
    for function in ast.walk(ast.parse("\n".join(lines))):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for block in ast.walk(function):
            for field in ("body", "orelse", "finalbody"):
                marked = False
                previous = None
                for node in getattr(block, field, []) if isinstance(getattr(block, field, None), list) else []:
                    if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in seen:
                        seen.add(id(node))
                        starts = not isinstance(previous, (ast.Import, ast.ImportFrom))
                        if starts:
                            above = lines[node.lineno - 2].strip() if node.lineno > 1 else ""
                            marked = above.startswith("# deferred") or "# deferred" in lines[node.lineno - 1]
                        yield node, marked, starts
                    previous = node


def _probe(path: Path, nodes: list) -> list[bool]:
    module = _module(path)
    targets = [_target(node, module, path.name == "__init__.py") for node in nodes]
    done = subprocess.run([sys.executable, "-c", _PROBE.format(module=module), json.dumps(targets)],
                          capture_output=True, text=True, cwd=ROOT, check=True)
    return json.loads(done.stdout)


def test_every_import_inside_a_function_defers_a_module_and_says_so():
    found = {path: list(_function_imports(path)) for path in sorted((ROOT / "scriptforge").rglob("*.py"))}
    found = {path: items for path, items in found.items() if items}
    unmarked = [f"{path.relative_to(ROOT)}:{node.lineno}" for path, items in found.items()
                for node, marked, _ in items if not marked]
    assert not unmarked, f"imports inside functions without a '# deferred' comment: {unmarked}"
    with ThreadPoolExecutor(2) as pool:
        verdicts = dict(zip(found, pool.map(lambda path: _probe(path, [node for node, *_ in found[path]]), found)))
    already = [f"{path.relative_to(ROOT)}:{node.lineno}" for path, items in found.items()
               for (node, *_), loaded in zip(items, verdicts[path]) if loaded]
    assert not already, f"imports inside functions of modules their module already loads: {already}"


def _is_dataclass(node: ast.ClassDef) -> bool:
    """Whether the class is decorated with `dataclass` or `dataclasses.dataclass`, called or not."""
    return any(ast.unparse(d.func if isinstance(d, ast.Call) else d) in ("dataclass", "dataclasses.dataclass")
               for d in node.decorator_list)


def test_every_dataclass_has_a_docstring():
    undocumented = [f"{path.relative_to(ROOT)}:{node.lineno} {node.name}"
                    for path in sorted((ROOT / "scriptforge").rglob("*.py"))
                    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                    if isinstance(node, ast.ClassDef) and _is_dataclass(node) and not ast.get_docstring(node)]
    assert not undocumented, ("dataclasses without a docstring (dataclass computes inspect.signature at import "
                              f"to fill __doc__, ~0.3 ms a class): {undocumented}")
