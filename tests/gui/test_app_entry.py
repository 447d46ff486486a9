"""The ``plyground`` entry point: subcommands run the engine's CLI without importing Qt; no
display gives one line instead of Qt's abort; the self-test passes offscreen and leaves no
process behind."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from gui.app import display_problem, is_cli

ROOT = Path(__file__).resolve().parents[2]


def run(code_or_args: list[str], env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *code_or_args], capture_output=True, text=True, timeout=timeout, cwd=ROOT, env=env
    )


def test_a_subcommand_runs_the_cli_without_importing_qt() -> None:
    code = (
        "import sys; from gui.app import main; status = main(['perft', '--game', 'tictactoe', '--depth', '2']); "
        "qt = sorted(name for name in sys.modules if name.startswith(('PySide6', 'shiboken6'))); "
        "print('QT', qt); sys.exit(status)"
    )
    done = run(["-c", code])
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["72", "QT []"]


def test_python_dash_m_gui_dispatches_too() -> None:
    done = run(["-m", "gui", "perft", "--game", "tictactoe", "--depth", "1"])
    assert done.returncode == 0 and done.stdout.strip() == "9"


def test_the_dispatch_rule() -> None:
    assert is_cli(["perft"]) and is_cli(["uci"]) and is_cli(["analyse", "--game", "chess"])
    assert not is_cli([]) and not is_cli(["--self-test"]) and not is_cli(["--help"])


def test_no_display_is_one_line_and_exit_2() -> None:
    env = {key: value for key, value in os.environ.items() if key not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    done = run(["-m", "gui"], env=env, timeout=30)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "QT_QPA_PLATFORM=offscreen" in lines[0] and "display" in lines[0]
    assert display_problem({"DISPLAY": ":0"}) is None and display_problem({}, platform="win32") is None


def test_self_test_passes_offscreen_and_leaves_no_process(tmp_path: Path) -> None:
    mark = uuid.uuid4().hex
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PLYGROUND_DATA_DIR=str(tmp_path), PLYGROUND_TEST_MARK=mark)
    done = run(["-m", "gui", "--self-test", "--timeout", "100", "--screenshot", str(tmp_path / "end.png")], env=env, timeout=150)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "self-test passed" in done.stdout
    for game in ("tictactoe", "checkers", "chess", "othello", "backgammon"):
        assert game in done.stdout
    assert "engine pool of" in done.stdout  # the moves came from worker processes
    assert (tmp_path / "end.png").stat().st_size > 1000
    assert not processes_marked(mark), "the self-test left processes behind"


def processes_marked(mark: str) -> list[int]:
    """Live processes whose environment carries ``mark`` (children inherit it)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if f"PLYGROUND_TEST_MARK={mark}".encode() in (entry / "environ").read_bytes():
                found.append(int(entry.name))
        except OSError:
            continue
    return found


SIGNAL_DRIVER = """
import os, signal, sys
from PySide6.QtCore import QTimer
import gui.main_window as main_window
from gui.app import main
from gui.players import PlayerConfig

original_show = main_window.MainWindow.show

def show(window):
    original_show(window)
    slow = PlayerConfig(kind="computer", strength="time", seconds=60.0)
    session = window.start_game("chess", (slow, PlayerConfig()))
    def kill_when_searching():
        if window.bridge.is_searching:
            os.kill(os.getpid(), getattr(signal, sys.argv[1]))
        else:
            QTimer.singleShot(50, kill_when_searching)
    QTimer.singleShot(50, kill_when_searching)

main_window.MainWindow.show = show
sys.exit(main([]))
"""


@pytest.mark.parametrize("signal_name", ["SIGTERM", "SIGINT"])
def test_a_signal_quits_cleanly_during_a_search(tmp_path: Path, signal_name: str) -> None:
    mark = uuid.uuid4().hex
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PLYGROUND_DATA_DIR=str(tmp_path), PLYGROUND_TEST_MARK=mark)
    done = run(["-c", SIGNAL_DRIVER, signal_name], env=env, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    assert not processes_marked(mark), "engine processes were left behind"
    assert '"clean_exit": true' in (tmp_path / "autosave.json").read_text()
