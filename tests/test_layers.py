"""The house's layers (README, Layout): every import, module level or inside a function, points
down or sideways, never up, and no two modules import each other round a cycle. `rules/` is pure:
it opens no file and imports nothing that does."""

import ast
from pathlib import Path
import re

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "scriptforge"


def declared_layers() -> list[tuple[str, list[str]]]:
    """The README's layer table, top layer first: (name, module prefixes)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```text\nlayers, top first[^\n]*\n(.*?)```", readme, re.S)
    assert block, "README's Layout section has no layer table"
    out = []
    for line in block.group(1).splitlines():
        name, _, modules = line.partition(":")
        out.append((name.strip(), modules.split()))
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
    """Index of the layer whose longest prefix matches (0 = top); the package's own module
    (`scriptforge/__init__.py`) is written `scriptforge.__init__`."""
    module = "scriptforge.__init__" if module == "scriptforge" else module
    best, best_len = None, -1
    for index, (_, prefixes) in enumerate(layers):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best_len:
                best, best_len = index, len(prefix)
    assert best is not None, f"{module} is in no layer of the README's table"
    return best


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
    layers = [("top", ["scriptforge.cli"]), ("bottom", ["scriptforge"])]
    assert layer_of("scriptforge.cli", layers) < layer_of("scriptforge.model", layers)
    visitor = Imports("scriptforge.rules.x", False, {"scriptforge.analysis"})
    visitor.visit(ast.parse("def f():\n    from scriptforge.analysis import analyse\n"
                            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from scriptforge.cli import main\n"))
    assert visitor.found == {"scriptforge.analysis"}  # inside a function counts; a type-only import does not


_IO_MODULES = {"scriptforge.paths", "scriptforge.fileio", "scriptforge.userfiles", "scriptforge.datafiles",
               "scriptforge.official", "scriptforge.database", "scriptforge.script", "scriptforge.text"}
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
