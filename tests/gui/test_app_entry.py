"""The ``plyground`` entry point: subcommands run the engine's CLI without importing Qt; no
display gives one line instead of Qt's abort; the self-test passes offscreen and leaves no
process behind."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest

from gui.app import display_problem, is_cli
from tests.processes import processes_marked

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
    assert display_problem({}, platform="win32") is None


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


# ------------------------------------------------------------------ a display that is not there
def without_display(**extra: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env.update(extra)
    return env


def unused_x_display() -> str:
    number = next(number for number in range(150, 400) if not Path(f"/tmp/.X11-unix/X{number}").exists())
    return f":{number}"


@pytest.mark.parametrize(
    "extra",
    [{"QT_QPA_PLATFORM": "xcb"}, {"QT_QPA_PLATFORM": "xcb", "DISPLAY": "DEAD"}, {"DISPLAY": "DEAD"}, {"QT_QPA_PLATFORM": "wayland"}],
    ids=["xcb-no-DISPLAY", "xcb-dead-DISPLAY", "default-dead-DISPLAY", "wayland-no-compositor"],
)
def test_a_platform_without_its_display_is_one_line_and_exit_2(extra: dict[str, str]) -> None:
    """Qt aborts (exit 134, core dump) when the platform chosen cannot reach its display:
    the app says so in the same one line as without any display."""
    extra = {key: unused_x_display() if value == "DEAD" else value for key, value in extra.items()}
    done = run(["-m", "gui"], env=without_display(XDG_RUNTIME_DIR=str(ROOT / "no-such-runtime-dir"), **extra), timeout=30)
    assert done.returncode == 2, (done.returncode, done.stderr[-500:])
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("plyground: no display (") and "QT_QPA_PLATFORM=offscreen" in lines[0]


def test_the_display_rule() -> None:
    dead = unused_x_display()
    assert display_problem({"QT_QPA_PLATFORM": "offscreen"}) is None
    assert display_problem({"QT_QPA_PLATFORM": "minimal", "DISPLAY": dead}) is None
    assert display_problem({"QT_QPA_PLATFORM": "wayland;offscreen"}) is None  # a fallback without a display
    assert "DISPLAY" in (display_problem({"QT_QPA_PLATFORM": "xcb:nograb"}) or "")
    assert dead in (display_problem({"DISPLAY": dead}) or "")
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:  # an X server's (abstract) socket
        server.bind(f"\0/tmp/.X11-unix/X{dead[1:]}")
        server.listen(1)
        assert display_problem({"DISPLAY": dead}) is None and display_problem({"QT_QPA_PLATFORM": "xcb", "DISPLAY": dead}) is None


# ------------------------------------------------------------------ plyground FILE
OPEN_DRIVER = """
import sys
from PySide6.QtWidgets import QApplication
import gui.main_window as main_window
from gui.app import main

original = main_window.MainWindow.open_path

def open_path(window, path):
    opened = original(window, path)
    print("OPENED", opened, window.session.game if window.session else None, window.session.move_names() if window.session else None)
    print("ERROR", window.last_error.replace(chr(10), " | "))
    QApplication.instance().quit()
    return opened

main_window.MainWindow.open_path = open_path
sys.exit(main(sys.argv[1:]))
"""

GAME_FILES = {
    "game.pgn": ("1. e4 e5 2. Nf3 *", "chess", ["e4", "e5", "Nf3"]),
    "game.pdn": ('[GameType "21"]\n1. 11-15 23-19 *', "checkers", ["11-15", "23-19"]),
    "game.json": ('{"format": "plyground-game", "version": 1, "game": "othello", "moves": ["d3", "c5"]}', "othello", ["d3", "c5"]),
}


def test_a_game_file_is_an_app_argument_not_a_subcommand(tmp_path: Path) -> None:
    assert not is_cli(["game.pgn"]) and not is_cli([str(tmp_path / "x")]) and is_cli(["perft", "--depth", "1"])


@pytest.mark.parametrize("name", list(GAME_FILES))
def test_plyground_file_opens_the_game(tmp_path: Path, name: str) -> None:
    text, game, moves = GAME_FILES[name]
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PLYGROUND_DATA_DIR=str(tmp_path / "data"))
    done = run(["-c", OPEN_DRIVER, str(path)], env=env, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert f"OPENED True {game} {moves!r}" in done.stdout, done.stdout


def test_plyground_bad_file_says_what_open_says(qtbot: Any, tmp_path: Path, bridge: Any) -> None:
    from gui.main_window import MainWindow

    path = tmp_path / "broken.pgn"
    path.write_text("1. e4 e5 2. Ke3 *", encoding="utf-8")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PLYGROUND_DATA_DIR=str(tmp_path / "data"))
    done = run(["-c", OPEN_DRIVER, str(path)], env=env, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "OPENED False None None" in done.stdout
    window = MainWindow(bridge=bridge, data_directory=tmp_path / "menu", offer_resume=False)
    qtbot.addWidget(window)
    assert not window.open_path(path)  # Game > Open on the same file
    assert f"ERROR {window.last_error.replace(chr(10), ' | ')}" in done.stdout.splitlines()
    assert "broken.pgn" in window.last_error
    window.shutdown()
