"""Screenshots of the main window: the start page and every game mid-game against the engine,
light and dark, at two window sizes (offscreen ``grab()``).

    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/gui_screens_app.py [--out DIR]

Each game is played through the real window: a few moves by the human side (the board's
``move_requested``, as a click) each answered by the engine, so the board, the move list,
the engine dock and the status bar show a live game.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PLYGROUND_DATA_DIR", tempfile.mkdtemp(prefix="plyground-screens-"))

from PySide6.QtCore import QEventLoop, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from games import CHANCE, GAME_NAMES  # noqa: E402
from gui.app import load_fonts  # noqa: E402
from gui.main_window import MainWindow, apply_theme  # noqa: E402
from gui.players import COMPUTER, HUMAN, PlayerConfig  # noqa: E402

SIZES = {"large": (1400, 860), "small": (1000, 680)}
MOVES = {"tictactoe": 2, "checkers": 6, "chess": 6, "othello": 8, "backgammon": 4}
"""Human moves per game before the picture (each answered by the engine)."""


def spin(condition, seconds: float) -> bool:  # type: ignore[no-untyped-def]
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
    spin(lambda: session.is_over or (session.state.to_move() in (0, CHANCE) and not session.is_thinking), 60)
    settle()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("/tmp/screens/app"))
    parser.add_argument("--games", nargs="*", default=list(GAME_NAMES))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    load_fonts()
    window = MainWindow(offer_resume=False, seed=5)
    window.show()
    written = []
    try:
        for theme in ("light", "dark"):
            apply_theme(app, theme)  # type: ignore[arg-type]
            window.set_theme(theme)
            for size_name, (width, height) in SIZES.items():
                window.resize(width, height)
                window.show_start_page()
                settle()
                path = args.out / f"start-{theme}-{size_name}.png"
                window.grab().save(str(path))
                written.append(path)
            for game in args.games:
                play_game(window, game)
                for size_name, (width, height) in SIZES.items():
                    window.resize(width, height)
                    settle()
                    path = args.out / f"{game}-{theme}-{size_name}.png"
                    window.grab().save(str(path))
                    written.append(path)
    finally:
        window.shutdown()
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
