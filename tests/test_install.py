"""The installed package is the one the README's commands set up.

The console scripts exist next to the interpreter that runs the tests and work as
processes, and ``import chess`` finds python-chess, not a module of ours that shadows it.
"""

from __future__ import annotations

import subprocess
import sys
import sysconfig
from pathlib import Path

import chess

BIN = Path(sys.executable).parent


def test_python_chess_is_the_installed_library_not_a_shadow() -> None:
    chess_file = Path(chess.__file__).resolve()
    site_packages = Path(sysconfig.get_paths()["purelib"]).resolve()
    assert site_packages in chess_file.parents, chess_file
    assert hasattr(chess, "Board")
    version = tuple(int(part) for part in chess.__version__.split(".")[:2])
    assert version >= (1, 11)


def test_installed_console_script_runs_perft() -> None:
    script = BIN / "plyground"
    assert script.exists(), f"{script} is missing: is the package installed (pip install -e .)?"
    result = subprocess.run(
        [str(script), "perft", "--game", "chess", "--depth", "3"], capture_output=True, text=True, timeout=60
    )
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.strip() == "8902"


def test_installed_console_script_reports_bad_input_in_one_line() -> None:
    result = subprocess.run(
        [str(BIN / "plyground"), "perft", "--game", "othello", "--position", "nonsense", "--depth", "1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_gui_script_is_installed() -> None:
    assert (BIN / "plyground-gui").exists()
