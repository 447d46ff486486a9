"""The PyInstaller build's inputs, checked fast (the build itself is ``make package``).

The spec must be valid Python; the frozen entry must call ``freeze_support()`` before
anything else runs (spawned workers re-run the script); one executable serves both the app
and the engine's command line.
"""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

import pytest

PACKAGING = Path(__file__).resolve().parent.parent / "packaging"


def load_entry():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("run_app", PACKAGING / "run_app.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_spec_is_python_and_collects_the_dynamically_imported_packages() -> None:
    source = (PACKAGING / "plyground.spec").read_text()
    compile(source, "plyground.spec", "exec")
    assert 'collect_submodules("games")' in source and 'collect_submodules("ai")' in source
    assert "upx=False" in source


def test_freeze_support_comes_first_in_the_main_block() -> None:
    tree = ast.parse((PACKAGING / "run_app.py").read_text())
    main_blocks = [
        node for node in tree.body
        if isinstance(node, ast.If) and isinstance(node.test, ast.Compare)
        and getattr(node.test.left, "id", None) == "__name__"
    ]
    assert len(main_blocks) == 1
    first = main_blocks[0].body[0]
    assert isinstance(first, ast.Expr) and ast.unparse(first.value) == "multiprocessing.freeze_support()"
    # and no project module is imported at the top of the script, before it
    top_imports = [node for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))]
    names = {alias.name.split(".")[0] for node in top_imports for alias in node.names}
    names |= {node.module.split(".")[0] for node in top_imports if isinstance(node, ast.ImportFrom) and node.module}
    assert not names & {"ai", "games", "gui"}


@pytest.mark.parametrize(
    ("argv", "entry"),
    [([], "gui"), (["--smoke-test"], "gui"), (["perft", "--game", "chess", "--depth", "1"], "cli"),
     (["uci"], "cli"), (["analyse"], "cli"), (["--help"], "gui"), (["--self-test"], "gui")],
)
def test_one_executable_serves_app_and_command_line(argv: list[str], entry: str) -> None:
    assert load_entry().choose_entry(argv) == entry


def test_the_cli_route_runs_the_engine(capsys: pytest.CaptureFixture[str]) -> None:
    assert load_entry().main(["perft", "--game", "tictactoe", "--depth", "2"]) == 0
    assert capsys.readouterr().out.strip() == "72"
