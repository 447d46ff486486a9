"""The architecture's arrows, enforced: rules -> search -> GUI, never backwards, and no circle.

Nothing outside gui/ (and the GUI's own tests, the frozen entry script and the programs that
take screenshots of the app) imports PySide6; games/ imports neither ai/ nor gui/; ai/ never
imports gui/; the shipped packages never import the scripts (bench/, tools/) or the tests.
And no module of the project imports itself by a way round: a cycle makes the order of
imports matter and hides which layer a module belongs to, so the import graph must be
acyclic. Both rules are checked on the source of every Python file (every import
statement, including ones inside functions, under ``if TYPE_CHECKING:`` and relative ones,
which are resolved against the file's package), so a lazy or relative import cannot sneak
round them.
"""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
QT = ("PySide6", "shiboken6")
SCRIPTS = ("bench", "tools", "tests")
"""Measurements, asset builders and tests: they use the app; the app never imports them."""
SKIPPED_DIRS = {".venv", ".git", "build", "dist", ".hypothesis", ".pytest_cache", "__pycache__"}
ALLOWED_QT = ("gui", "tests/gui", "packaging")
"""Where Qt may be imported: the app, its tests, and the executable's entry script."""
GUI_SCRIPT_PREFIXES = ("bench/gui_", "tools/gui_")
"""Programs that run the app itself are named gui_*.py: benchmarks of its event loop
(bench/gui_latency.py) and the screenshot makers (tools/gui_screens_*.py)."""
GRAPH_PACKAGES = ("ai", "games", "gui", "tools", "bench", "packaging", "tests")
"""The packages whose modules form the import graph that must have no cycle."""


def forbidden_for(relative: Path) -> tuple[str, ...]:
    """The top-level modules a file at ``relative`` (to the repository root) must not import."""
    top = relative.parts[0] if len(relative.parts) > 1 else ""
    posix = relative.as_posix()
    if top == "games":
        return ("ai", "gui", *SCRIPTS, *QT)
    if posix.startswith(GUI_SCRIPT_PREFIXES):
        return ()
    if top in ("ai", "resources"):
        return ("gui", *SCRIPTS, *QT)
    if top in ("bench", "tools"):
        return ("gui", *QT)
    if top in ("gui", "packaging"):
        return SCRIPTS
    if any(posix.startswith(allowed + "/") for allowed in ALLOWED_QT):
        return ()
    if posix.startswith(("tests/ai/", "tests/games/")):
        return ("gui", *QT)
    return QT


def python_files(root: Path = ROOT) -> list[Path]:
    """Every Python file of the project (not the virtual environment or build output)."""
    found = []
    for path in root.rglob("*.py"):
        relative = path.relative_to(root)
        if not SKIPPED_DIRS.intersection(relative.parts) and not any(part.startswith(".") for part in relative.parts):
            found.append(path)
    return sorted(found)


def resolve_relative(relative: Path, level: int, module: str | None) -> str:
    """The absolute dotted name of ``from <level dots><module> import ...`` in ``relative``."""
    package = list(relative.parent.parts)
    if level > 1:
        package = package[: len(package) - (level - 1)]
    return ".".join([*package, *([module] if module else [])])


@dataclass(frozen=True)
class Import:
    """One import statement: ``import module`` (no ``names``) or ``from module import names``.

    ``module`` is absolute (relative imports resolved); it is empty for ``from ... import ai``
    at the top of the tree, which imports the packages named in ``names``.
    """

    line: int
    module: str
    names: tuple[str, ...] = ()


def imports_of(path: Path, relative: Path) -> Iterator[Import]:
    """Every import in ``path``, whose place in the repository is ``relative``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(node.lineno, alias.name)
        elif isinstance(node, ast.ImportFrom):
            module = resolve_relative(relative, node.level, node.module) if node.level else node.module or ""
            yield Import(node.lineno, module, tuple(alias.name for alias in node.names))
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "import_module":
            if node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                yield Import(node.lineno, node.args[0].value)


def imported_modules(path: Path, relative: Path | None = None) -> list[tuple[int, str]]:
    """(line, top-level module name) of every import in ``path``.

    ``relative`` is the file's place in the repository (to resolve relative imports); by
    default its path below the repository root.
    """
    relative = path.relative_to(ROOT) if relative is None else relative
    found: list[tuple[int, str]] = []
    for statement in imports_of(path, relative):
        if statement.module:
            found.append((statement.line, statement.module.split(".")[0]))
        else:  # "from ... import ai" at the top of the tree imports the names themselves
            found.extend((statement.line, name) for name in statement.names)
    return found


# ------------------------------------------------------------------------ the import graph
def module_name(relative: Path) -> str:
    """The dotted module name of the file ``relative`` (a package is its ``__init__.py``)."""
    parts = list(relative.with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


ImportGraph = dict[str, dict[str, str]]
"""Module -> {module it imports: where ("path:line", the first such import)}."""


def import_graph(root: Path = ROOT, packages: tuple[str, ...] = GRAPH_PACKAGES) -> ImportGraph:
    """The project's modules in ``packages`` and which of them each imports.

    ``from package import name`` points at the submodule ``package.name`` when there is one,
    else at ``package`` itself (``name`` is defined in its ``__init__``). An import of
    anything that is not a Python file of the project (the standard library, python-chess, a
    compiled extension such as ``games.othello._solver``) is no edge: it cannot import back.
    A module's parent packages are not edges either: Python runs them first, but they are
    not something the module depends on.
    """
    files = {
        module_name(path.relative_to(root)): path
        for path in python_files(root)
        if path.relative_to(root).parts[0] in packages
    }
    graph: ImportGraph = {}
    for module, path in files.items():
        relative = path.relative_to(root)
        edges: dict[str, str] = {}
        for statement in imports_of(path, relative):
            if statement.names:
                targets = [
                    f"{statement.module}.{name}" if f"{statement.module}.{name}" in files else statement.module
                    for name in statement.names
                ]
            else:
                targets = [statement.module]
            for target in targets:
                if target in files and target != module:
                    edges.setdefault(target, f"{relative.as_posix()}:{statement.line}")
        graph[module] = edges
    return graph


def strongly_connected(graph: ImportGraph) -> list[list[str]]:
    """The groups of modules that import each other by some way round (Tarjan), each sorted;
    a module alone is a group only when it imports itself (never: ``import_graph`` drops that)."""
    index: dict[str, int] = {}
    lowest: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(module: str) -> None:  # recursion depth is at most the number of modules
        index[module] = lowest[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in sorted(graph[module]):
            if target not in index:
                visit(target)
                lowest[module] = min(lowest[module], lowest[target])
            elif target in on_stack:
                lowest[module] = min(lowest[module], index[target])
        if lowest[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return sorted(groups)


def shortest_cycle(graph: ImportGraph, group: list[str]) -> list[str]:
    """A shortest way round from the group's first module back to it (breadth first)."""
    start, members = group[0], set(group)
    came_from: dict[str, str] = {}
    queue = deque([start])
    while queue:
        module = queue.popleft()
        for target in sorted(graph[module]):
            if target == start:
                path = [module]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return [*reversed(path), start]
            if target in members and target not in came_from:
                came_from[target] = module
                queue.append(target)
    raise AssertionError(f"{group} is not strongly connected")


def import_cycles(graph: ImportGraph) -> list[str]:
    """One cycle per group of mutually importing modules, written with the import of each step:
    ``a -> b (a.py:3) -> a (b.py:7)``."""
    cycles = []
    for group in strongly_connected(graph):
        cycle = shortest_cycle(graph, group)
        steps = [cycle[0], *(f"{after} ({graph[before][after]})" for before, after in zip(cycle, cycle[1:]))]
        extra = f" [group of {len(group)}: {', '.join(group)}]" if len(group) > len(cycle) - 1 else ""
        cycles.append(" -> ".join(steps) + extra)
    return cycles


# ----------------------------------------------------------------------------------- tests
def test_every_file_respects_layering() -> None:
    files = python_files()
    tops = {path.relative_to(ROOT).parts[0] for path in files}
    assert {"games", "ai", "gui", "tests"} <= tops
    violations = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in files
        for line, module in imported_modules(path)
        if module in forbidden_for(path.relative_to(ROOT))
    ]
    assert violations == []


def test_no_import_cycle() -> None:
    graph = import_graph()
    assert {"games.base", "ai.engine", "gui.app"} <= graph.keys()
    cycles = import_cycles(graph)
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


def test_docs_hold_no_code() -> None:
    """docs/ is what the README links to (screenshots, longer texts); programs live in tools/."""
    assert [path for path in python_files() if path.relative_to(ROOT).parts[0] == "docs"] == []


@pytest.mark.parametrize(
    ("relative", "forbidden"),
    [
        ("games/chess_game/state.py", ("ai", "gui", *SCRIPTS, *QT)),
        ("ai/search/mcts.py", ("gui", *SCRIPTS, *QT)),
        ("bench/perft_speed.py", ("gui", *QT)),
        ("bench/gui_latency.py", ()),
        ("tools/tune_chess.py", ("gui", *QT)),
        ("tools/gui_screens_app.py", ()),
        ("tests/ai/test_uci.py", ("gui", *QT)),
        ("tests/test_layering.py", QT),
        ("gui/app.py", SCRIPTS),
        ("packaging/run_app.py", SCRIPTS),
        ("tests/gui/test_app_smoke.py", ()),
    ],
)
def test_rules_per_place(relative: str, forbidden: tuple[str, ...]) -> None:
    assert forbidden_for(Path(relative)) == forbidden


def test_checker_sees_imports(tmp_path: Path) -> None:
    """The checker finds plain, from-, function-level, import_module and relative imports."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import os\nfrom PySide6.QtCore import Qt\n"
        "from . import board\nfrom ..base import GameState\nfrom ... import ai\n"
        "def f():\n    import gui.app\n    importlib.import_module('ai.cli')\n"
    )
    modules = sorted(module for _, module in imported_modules(sample, Path("games/probe/sample.py")))
    assert modules == sorted(["os", "PySide6", "games", "games", "ai", "gui", "ai"])


def write_tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_cycle_finder_finds_a_planted_cycle(tmp_path: Path) -> None:
    """A cycle closed by a function-level relative import, and one closed under TYPE_CHECKING,
    are both found and named with the import of each step; a plain chain, a compiled module and
    a parent package are no cycle."""
    write_tree(
        tmp_path,
        {
            "games/__init__.py": "from games.base import State\n",
            "games/base.py": "def perft():\n    from .counting import count\n",
            "games/counting.py": "from games.base import State\nimport games.othello._solver\n",
            "games/othello/__init__.py": "from games.othello import rules\n",
            "games/othello/rules.py": "from games import base\nimport games.othello._solver\n",
            "ai/__init__.py": "",
            "ai/engine.py": "from typing import TYPE_CHECKING\nimport games\nif TYPE_CHECKING:\n    from ai.pool import Pool\n",
            "ai/pool.py": "from ai import engine\n",
            "gui/app.py": "import ai.engine\nimport PySide6\n",
        },
    )
    graph = import_graph(tmp_path)
    assert graph["games.othello"] == {"games.othello.rules": "games/othello/__init__.py:1"}
    assert graph["games.othello.rules"] == {"games.base": "games/othello/rules.py:1"}
    assert import_cycles(graph) == [
        "ai.engine -> ai.pool (ai/engine.py:4) -> ai.engine (ai/pool.py:1)",
        "games.base -> games.counting (games/base.py:2) -> games.base (games/counting.py:1)",
    ]


def test_cycle_finder_names_the_whole_group(tmp_path: Path) -> None:
    """Three modules in a ring are written as one cycle through all three."""
    write_tree(
        tmp_path,
        {
            "ai/a.py": "import ai.b\n",
            "ai/b.py": "import ai.c\n",
            "ai/c.py": "def late():\n    import ai.a\n",
        },
    )
    assert import_cycles(import_graph(tmp_path)) == [
        "ai.a -> ai.b (ai/a.py:1) -> ai.c (ai/b.py:1) -> ai.a (ai/c.py:2)"
    ]
