"""The house's layers (docs/architecture.md): every import, module level or inside a function, points
down or sideways, never up, and no two modules import each other round a cycle. `rules/` is pure:
it opens no file and imports nothing that does."""

import ast
from pathlib import Path
import re

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "scriptforge"


def declared_layers() -> list[tuple[str, list[str]]]:
    """The README's layer table, top layer first: (name, the folders of scriptforge/ in it; the
    package's own `__init__` and `__main__` are named as such)."""
    readme = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    block = re.search(r"```text\nlayers, top first[^\n]*\n(.*?)```", readme, re.S)
    assert block, "docs/architecture.md has no layer table"
    out = []
    for line in block.group(1).splitlines():
        name, _, folders = line.partition(":")
        out.append((name.strip(), folders.split()))
    return out


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


class Imports(ast.NodeVisitor):
    """Every scriptforge module a module imports at run time (TYPE_CHECKING blocks left out)."""

    def __init__(self, name: str, is_package: bool, known: set[str]):
        self.name, self.is_package, self.known = name, is_package, known
        self.found: set[str] = set()

    def visit_If(self, node: ast.If) -> None:
        if "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                self.visit(child)
            return
        self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name.split(".")[0] == "scriptforge":
                self.found.add(alias.name)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level:
            base = self.name.split(".")
            base = base[:len(base) - node.level + (1 if self.is_package else 0)]
            module = ".".join(base + ([node.module] if node.module else []))
        else:
            module = node.module or ""
        if module.split(".")[0] != "scriptforge":
            return
        for alias in node.names:
            full = f"{module}.{alias.name}"
            self.found.add(full if full in self.known else module)


def import_graph() -> dict[str, set[str]]:
    files = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph = {}
    for name, path in files.items():
        visitor = Imports(name, path.name == "__init__.py", set(files))
        visitor.visit(ast.parse(path.read_text(encoding="utf-8")))
        graph[name] = {m for m in visitor.found if m in files and m != name}
    return graph


def layer_of(module: str, layers: list[tuple[str, list[str]]]) -> int:
    """Index of the layer (0 = top) of the folder the module sits in: `scriptforge.db.database`
    is in the layer that names `db`. A module at the top of the package other than `__init__` and
    `__main__`, or in a folder no layer names, is in none (the test fails)."""
    parts = module.split(".")
    folder = "__init__" if len(parts) == 1 else parts[1]
    for index, (_, folders) in enumerate(layers):
        if folder in folders:
            return index
    raise AssertionError(f"{module}: its folder is in no layer of the table in docs/architecture.md")


def test_every_import_points_down_the_declared_layers():
    layers = declared_layers()
    upward = []
    for module, imported in sorted(import_graph().items()):
        mine = layer_of(module, layers)
        for other in sorted(imported):
            theirs = layer_of(other, layers)
            if theirs < mine:
                upward.append(f"{module} ({layers[mine][0]}) imports {other} ({layers[theirs][0]})")
    assert not upward, "imports pointing up:\n" + "\n".join(upward)


def test_no_import_cycle():
    graph = import_graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def connect(node: str) -> None:  # Tarjan's strongly connected components
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph[node]:
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    assert not cycles, f"import cycles: {cycles}"


def test_the_layer_check_finds_an_upward_import_and_a_cycle():
    layers = [("top", ["cli"]), ("bottom", ["model"])]
    assert layer_of("scriptforge.cli.printing", layers) < layer_of("scriptforge.model.records", layers)
    for stray in ("scriptforge.helpers", "scriptforge.render.views"):  # beside the layers, or in no layer
        with pytest.raises(AssertionError):
            layer_of(stray, layers)
    visitor = Imports("scriptforge.rules.x", False, {"scriptforge.scripts.analysis"})
    visitor.visit(ast.parse("def f():\n    from scriptforge.scripts.analysis import analyse\n"
                            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from scriptforge.cli import main\n"))
    assert visitor.found == {"scriptforge.scripts.analysis"}  # inside a function counts; a type-only import does not


_IO_MODULES = {"scriptforge.io", "scriptforge.db", "scriptforge.scripts", "scriptforge.text"}
_IO_CALLS = {"open", "read_text", "read_bytes", "write_text", "write_bytes", "glob", "iterdir", "print", "echo"}


def test_rules_are_pure():
    graph = import_graph()
    for path in sorted((PACKAGE / "rules").glob("*.py")):
        module = module_name(path)
        reach = {m for m in graph[module] if any(m == io or m.startswith(io + ".") for io in _IO_MODULES)}
        assert not reach, f"{module} imports {reach}: rules/ takes what it needs from its callers"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
                assert name not in _IO_CALLS, f"{module}:{node.lineno}: {name}() in rules/"
