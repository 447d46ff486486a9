"""Comments, docstrings and the map state what is true now, for whoever reads the code next.

Three slips this guards against: a docstring attached to nothing (a string statement after a
call or another docstring documents no name, and a reader takes it for the wrong one's); a
comment that tells the code's history instead of its rule — a numbered work session, a
branch name, a document that is not in the repository ("the brief", "contracts §3", an
issue number): the history is in git, the comment should say why the code is so; and a map
(ARCHITECTURE.md) that names a file or a module that is no longer there.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.test_layering import ROOT, python_files

SOURCE_PACKAGES = ("ai", "games", "gui", "tools", "bench", "packaging", "tests")
HISTORY = re.compile(
    r"\bsessions? \d+|\bwork period|\bcontracts? §|\bthe brief\b|\bbrief's\b|\bissue \d+|"
    r"\bbranch ``?[a-z]|\bon this branch\b",
    re.IGNORECASE,
)
"""Phrases that date a comment: a work session or period, a branch, a document elsewhere."""
BEFORE = re.compile(r"(?:^\s*|#\s*|\"\"\"|\. )Before, ")
"""A comment or sentence opening on "Before, ..." narrates what the code used to do."""
C_SOURCES = ("*.c", "*.h")
MAP = ROOT / "ARCHITECTURE.md"
FENCED = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"`([^`\n]+)`")
PATH_LIKE = re.compile(r"^(?:ai|games|gui|bench|tools|tests|resources|docs|packaging)/[\w./{},*<>-]*$")
MODULE_LIKE = re.compile(r"^(?:ai|games|gui)(?:\.\w+)+$")


def source_files() -> list[Path]:
    found = [path for path in python_files() if path.relative_to(ROOT).parts[0] in SOURCE_PACKAGES]
    for pattern in C_SOURCES:
        found.extend(path for path in (ROOT / "games").rglob(pattern) if "build" not in path.parts)
    return sorted(found)


def loose_strings(tree: ast.AST) -> list[int]:
    """Lines of string statements that document nothing: not the first statement of a module,
    class or function (its docstring), nor right after an assignment (the attribute's)."""
    lines = []
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            body = getattr(node, field, None)
            if not isinstance(body, list):
                continue
            for index, statement in enumerate(body):
                is_string = isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)
                if not is_string or not isinstance(statement.value.value, str):
                    continue
                documents_owner = index == 0 and field == "body" and isinstance(
                    node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
                )
                documents_assignment = index > 0 and isinstance(body[index - 1], (ast.Assign, ast.AnnAssign))
                if not documents_owner and not documents_assignment:
                    lines.append(statement.lineno)
    return lines


def history_lines(text: str) -> list[int]:
    return [
        number
        for number, line in enumerate(text.splitlines(), start=1)
        if HISTORY.search(line) or BEFORE.search(line)
    ]


def test_no_docstring_is_attached_to_nothing() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in source_files()
        if path.suffix == ".py"
        for line in loose_strings(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert not found, "\n".join(found)


def test_no_comment_tells_history() -> None:
    this_file = Path(__file__).resolve()
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in source_files()
        if path != this_file
        for line in history_lines(path.read_text(encoding="utf-8"))
    ]
    assert not found, "\n".join(found)


def test_the_checks_see_what_they_look_for() -> None:
    sample = '"""Module."""\nX = 1\n"""X\'s."""\nf()\n"""Loose."""\nclass A:\n    """A."""\n    """Loose too."""\n'
    assert loose_strings(ast.parse(sample)) == [5, 8]
    text = (
        "ok\n# measured in session 9\n# (contracts §3)\n# the brief asks\n# branch ``chprune``\n# a rule\n"
        "Before, a solve answered.\nx = (before, after)\n"
    )
    assert history_lines(text) == [2, 3, 4, 5, 7]


def named_paths(text: str) -> list[str]:
    """The files and folders a Markdown text names in code spans (``a/{b,c}.py`` expanded;
    spans with a placeholder such as ``<name>`` or a wildcard are patterns, not names)."""
    names = []
    for span in CODE_SPAN.findall(FENCED.sub("", text)):
        for word in span.replace("(", " ").replace(")", " ").split():
            word = word.rstrip(",;:")
            if not PATH_LIKE.match(word) or "<" in word or "*" in word:
                continue
            head, brace, rest = word.partition("{")
            if brace:
                choices, _, tail = rest.partition("}")
                names.extend(head + choice + tail for choice in choices.split(","))
            else:
                names.append(word)
    return names


def named_modules(text: str) -> list[str]:
    return [span for span in CODE_SPAN.findall(FENCED.sub("", text)) if MODULE_LIKE.match(span)]


def module_exists(name: str) -> bool:
    """Whether the dotted ``name`` is a module of the project, or a name defined in one."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        base = ROOT.joinpath(*parts[:cut])
        if base.with_suffix(".py").is_file() or (base / "__init__.py").is_file():
            return True
    return False


def test_the_map_names_what_exists() -> None:
    text = MAP.read_text(encoding="utf-8")
    paths, modules = named_paths(text), named_modules(text)
    assert len(paths) > 30 and len(modules) > 3  # the map names its modules, so this checks something
    assert [path for path in paths if not (ROOT / path.rstrip("/")).exists()] == []
    assert [name for name in modules if not module_exists(name)] == []


def test_the_map_reader_finds_names_and_skips_patterns() -> None:
    text = "```\nai/  `x`\n```\n`games/{a,b}/` and `ai/x.py` (`ai/<name>.py`, `resources/weights/*.json`) `ai.search.pvs`"
    assert named_paths(text) == ["games/a/", "games/b/", "ai/x.py"]
    assert named_modules(text) == ["ai.search.pvs"]
