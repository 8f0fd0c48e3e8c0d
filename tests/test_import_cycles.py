"""No import circles among casebook's modules (house-style.md, pattern 9), held by walking every import with `ast`.

Imports inside functions count too: a lazy import only hides a circle until someone moves it.
Imports under `if TYPE_CHECKING:` do not, since they never run.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = {"casebook": "casebook", "rules": "casebook.rules", "generator": "casebook.generator",
           "companion": "casebook.companion"}  # repository folder -> its name when installed (pyproject.toml)


def module_files() -> dict[str, Path]:
    """Every module of casebook by its installed name: casebook.rules.games -> rules/games/__init__.py."""
    found = {}
    for folder, package in FOLDERS.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = path.relative_to(ROOT / folder).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join((package, *parts))] = path
    return found


def is_type_checking(test: ast.expr) -> bool:
    """`if TYPE_CHECKING:` or `if typing.TYPE_CHECKING:`."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def import_statements(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement that can run, at any depth (functions, try blocks), not under TYPE_CHECKING."""
    out: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.Import | ast.ImportFrom):
            out.append(node)
        if isinstance(node, ast.If) and is_type_checking(node.test):
            for child in node.orelse:  # the `else:` of a TYPE_CHECKING block does run
                visit(child)
            return
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return out


def targets(module: str, is_package: bool, node: ast.Import | ast.ImportFrom, modules: set[str]) -> list[str]:
    """The modules of ours that one import statement runs (the named module, and the packages above it)."""
    if isinstance(node, ast.Import):
        named = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:  # relative: from the module's own package, up level - 1 more
            package = module.split(".") if is_package else module.split(".")[:-1]
            package = package[:len(package) - (node.level - 1)]
            base = ".".join([*package, *([base] if base else [])])
        # `from pkg import name` imports the module pkg.name when there is one, else takes a name from pkg
        named = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
    out = []
    for name in named:
        parts = name.split(".")
        for n in range(1, len(parts) + 1):  # importing a.b.c runs a and a.b first
            above = ".".join(parts[:n])
            # ... except the importer's own packages: they are already importing when it runs (Python imports a
            # package's __init__ before any of its modules), so that implicit step is no circle. A module naming its
            # own package outright (`from casebook.rules.games import GAMES` inside rules/games/) still counts.
            if n < len(parts) and (module == above or module.startswith(above + ".")):
                continue
            if above in modules and above != module:
                out.append(above)
    return out


def import_graph() -> dict[str, dict[str, int]]:
    """For each module, the modules of ours it imports, with the line of the (first) import."""
    files = module_files()
    graph: dict[str, dict[str, int]] = {}
    for module, path in files.items():
        edges = graph.setdefault(module, {})
        for node in import_statements(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            for target in targets(module, path.name == "__init__.py", node, set(files)):
                edges.setdefault(target, node.lineno)
    return graph


def find_cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """One circle through each group of modules that import each other (depth-first, in name order)."""
    cycles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []
    seen: set[frozenset[str]] = set()

    def visit(module: str) -> None:
        state[module] = 1
        path.append(module)
        for target in sorted(graph.get(module, {})):
            if state.get(target) == 1:
                cycle = path[path.index(target):] + [target]
                if frozenset(cycle) not in seen:
                    seen.add(frozenset(cycle))
                    cycles.append(cycle)
            elif target not in state:
                visit(target)
        path.pop()
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module)
    return cycles


def readable(cycle: list[str], graph: dict[str, dict[str, int]], files: dict[str, Path]) -> str:
    """a (rules/a.py:12) -> b (rules/b.py:30) -> a: each step with the line that imports the next."""
    steps = [f"{m} ({files[m].relative_to(ROOT)}:{graph[m][n]})" for m, n in zip(cycle, cycle[1:], strict=False)]
    return " -> ".join([*steps, cycle[-1]])


def test_the_walk_sees_lazy_imports_and_skips_type_checking():
    """The graph holds what the test relies on: imports inside functions, `from pkg import module`, TYPE_CHECKING."""
    graph = import_graph()
    assert "casebook.rules.games.pi" in graph["casebook.companion.tables.pi.pad"]  # from casebook.rules.games import pi
    assert "casebook.generator.build" in graph["casebook.cli"]  # imported inside a function
    assert "casebook.rules.cards" not in graph["casebook.rules.games.graves"]  # only under TYPE_CHECKING


def test_a_circle_is_found_and_shown_as_a_chain():
    graph = {"casebook.a": {"casebook.b": 3}, "casebook.b": {"casebook.c": 5}, "casebook.c": {"casebook.a": 7},
             "casebook.d": {"casebook.a": 1}}
    files = {m: ROOT / "casebook" / f"{m.split('.')[1]}.py" for m in graph}
    assert find_cycles(graph) == [["casebook.a", "casebook.b", "casebook.c", "casebook.a"]]
    assert readable(find_cycles(graph)[0], graph, files) == (
        "casebook.a (casebook/a.py:3) -> casebook.b (casebook/b.py:5) -> casebook.c (casebook/c.py:7) -> casebook.a")


def test_no_module_imports_itself_back():
    graph = import_graph()
    files = module_files()
    cycles = find_cycles(graph)
    assert not cycles, "import circles (module (file:line of the import) -> ...):\n" + "\n".join(
        readable(cycle, graph, files) for cycle in cycles)
