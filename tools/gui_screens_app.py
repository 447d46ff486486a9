"""Screenshots of the main window: the start page, the new-game dialog and every game
mid-game with the engine thinking, light and dark, at three window sizes (offscreen ``grab()``):
large 1400×860, small 1000×680 and compact 900×600 (a small laptop's window, where the board
must keep its room).

    QT_QPA_PLATFORM=offscreen .venv/bin/python -m tools.gui_screens_app [--out DIR]

The default output is ``docs/screens/`` (kept in the repository, so a reader sees the app
without running it). Each game is played through the real window: a few moves by the human
side (the board's ``move_requested``, as a click) each answered by the engine; then the human
asks for a hint and the picture is taken while that search runs, so the engine panel shows a
live search (iterations, principal variation, nodes) and the board its current best move.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PLYGROUND_DATA_DIR", tempfile.mkdtemp(prefix="plyground-screens-"))

from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtWidgets import QApplication

from games import GAME_NAMES
from gui.app import load_fonts
from gui.main_window import MainWindow, apply_theme
from gui.players import COMPUTER, HUMAN, PlayerConfig

SIZES = {"large": (1400, 860), "small": (1000, 680), "compact": (900, 600)}
DEFAULT_OUT = Path(__file__).resolve().parent.parent / "docs" / "screens"
LIVE_MS = 700
"""How long the hint search runs before the picture (a 3 s hint, see ``grab_thinking``): long enough for
a few iterations in the panel, short enough to catch it still thinking."""
MOVES = {"tictactoe": 2, "checkers": 6, "chess": 6, "othello": 8, "backgammon": 4}
"""Human moves per game before the picture (each answered by the engine)."""


def spin(condition: Callable[[], bool], seconds: float) -> bool:
    """Run the event loop until ``condition()`` holds (True) or ``seconds`` pass (False)."""
    deadline = time.monotonic() + seconds
    loop = QEventLoop()
    while not condition():
        if time.monotonic() > deadline:
            return False
        QTimer.singleShot(20, loop.quit)
        loop.exec()
    return True


def settle(ms: int = 150) -> None:
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def play_game(window: MainWindow, game: str) -> None:
    computer = PlayerConfig(kind=COMPUTER, strength="depth", depth=2).for_game(game)
    session = window.start_game(game, (PlayerConfig(kind=HUMAN), computer), manual_dice=False)
    for _ in range(MOVES[game]):
        if not spin(lambda: session.is_over or (session.can_human_move() and session.state.to_move() == 0), 60):
            break
        if session.is_over:
            break
        moves = session.state.legal_moves()
        preferred = [move for move in moves if session.state.move_name(move) not in ("double", "drop")] or moves
        window.game_view.board.move_requested.emit(preferred[len(preferred) // 2])
    spin(lambda: session.is_over or (session.state.to_move() == 0 and not session.is_thinking), 60)
    settle()


def grab_thinking(window: MainWindow, path: Path) -> None:
    """The window while the engine searches a hint for the human (a live engine panel).
    The hint's limit is widened to a few seconds (the app's own, depth 6, ends in a few
    milliseconds in checkers) so the picture catches the search running."""
    import gui.session
    from ai.settings import Limits

    gui.session.HINT_LIMITS = Limits(time=3.0)
    session = window.session
    if session is not None and not session.is_over:
        spin(lambda: not session.is_thinking, 30)
        session.request_hint()
        spin(lambda: session.is_thinking, 5)
    settle(LIVE_MS)
    window.grab().save(str(path), "PNG", 0)  # 0: the smallest file
    if session is not None and session.is_thinking:
        session.move_now()
        spin(lambda: not session.is_thinking, 30)


def grab_new_game_dialog(window: MainWindow, path: Path) -> None:
    from games import GAME_NAMES as NAMES
    from gui.dialogs.new_game import NewGameDialog

    players_for = {name: window.settings.players(name) for name in NAMES}
    dialog = NewGameDialog("chess", players_for, parent=window)
    dialog.show()
    settle()
    dialog.grab().save(str(path), "PNG", 0)  # 0: the smallest file
    dialog.close()


def size_note(window: MainWindow, path: Path, width: int, height: int) -> str | None:
    """A line when the window could not take the requested size (its minimum is larger), so
    the picture is not what its name says."""
    if (window.width(), window.height()) == (width, height):
        return None
    return f"{path.name}: the window is {window.width()}x{window.height()}, not {width}x{height} (its minimum size)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output directory (default: docs/screens/)")
    parser.add_argument("--games", nargs="*", default=list(GAME_NAMES))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    load_fonts()
    window = MainWindow(offer_resume=False, seed=5)
    window.show()
    written = []
    notes: list[str | None] = []
    try:
        for theme in ("light", "dark"):
            apply_theme(app, theme)  # type: ignore[arg-type]
            window.set_theme(theme)
            for size_name, (width, height) in SIZES.items():
                window.resize(width, height)
                window.show_start_page()
                settle()
                path = args.out / f"start-{theme}-{size_name}.png"
                window.grab().save(str(path), "PNG", 0)  # 0: the smallest file
                written.append(path)
                notes.append(size_note(window, path, width, height))
            path = args.out / f"new-game-{theme}.png"
            grab_new_game_dialog(window, path)
            written.append(path)
            for game in args.games:
                play_game(window, game)
                for size_name, (width, height) in SIZES.items():
                    # Twice: a window shrunk past COMPACT_WIDTH in one step is held at the
                    # wide layout's minimum until the layout turns compact, as a window
                    # dragged smaller passes through every width on the way.
                    window.resize(width, height)
                    settle()
                    window.resize(width, height)
                    settle()
                    path = args.out / f"{game}-{theme}-{size_name}.png"
                    grab_thinking(window, path)
                    written.append(path)
                    notes.append(size_note(window, path, width, height))
    finally:
        window.shutdown()
    for path in written:
        print(path)
    for note in notes:
        if note is not None:
            print(note, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
