"""Screenshots of the end of one whole game of each game, played by mouse clicks in the real
window (small, 1000 x 680, large, 1400 x 860, or wide, 1600 x 1000) against the computer at a short time a move
(offscreen ``grab()``).

    QT_QPA_PLATFORM=offscreen .venv/bin/python -m tools.gui_screens_full_games [--out DIR]
        [--games chess othello ...] [--seconds 0.1] [--size small|large]

The human side is driven as a person would: tic-tac-toe and Othello by a click on the square,
chess by a drag (a promotion by a click in the chooser), checkers a piece and then every hop,
backgammon a checker and then its destination, hop by hop, the cube by the board's buttons.
Its policy ends games quickly (a mate in one, the biggest capture, a hit), so every game
reaches its end. For each game the final window is written in the light and the dark theme
(``<game>-over-<theme>.png``), and again with the eval graph tab shown
(``<game>-over-graph-<theme>.png``): look at them for anything cut off or reading wrong.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PLYGROUND_DATA_DIR", tempfile.mkdtemp(prefix="plyground-screens-"))

import chess
from PySide6.QtCore import QPointF, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from games import GAME_NAMES
from games.backgammon import DOUBLE, DROP, NO_DOUBLE, NO_MOVE, TAKE
from gui.app import load_fonts
from gui.main_window import MainWindow, apply_theme
from gui.players import COMPUTER, HUMAN, PlayerConfig
from gui.session import GameSession
from tests.gui.test_full_games import (  # the human's choice, as the test plays it
    backgammon_choice,
    checkers_choice,
    chess_choice,
    othello_choice,
    tictactoe_choice,
)
from tools.gui_screens_app import settle, spin

SIZES = {"large": (1400, 860), "small": (1000, 680), "wide": (1600, 1000)}
LEFT = Qt.MouseButton.LeftButton
HUMAN_SIDE = 0
PLY_CAP = 3000
"""Backgammon between two hitters can go long; no game gets near it otherwise."""
TURN_SECONDS = 120.0


# --- the human's hand ---------------------------------------------------------------------
def click(window: MainWindow, point: QPointF) -> None:
    QTest.mouseClick(window.game_view.board, LEFT, Qt.KeyboardModifier.NoModifier, point.toPoint())


def enter_click(window: MainWindow, move: Any) -> None:
    click(window, window.game_view.board.point_of(move))


def enter_chess(window: MainWindow, move: chess.Move) -> None:
    board = window.game_view.board
    start, end = board.point_of(move.from_square), board.point_of(move.to_square)
    no = Qt.KeyboardModifier.NoModifier
    QTest.mousePress(board, LEFT, no, start.toPoint())
    QTest.mouseMove(board, ((start + end) / 2).toPoint())
    QTest.mouseMove(board, end.toPoint())
    QTest.mouseRelease(board, LEFT, no, end.toPoint())
    if move.promotion:
        cell = dict(board.promotion_rects())[move.promotion]
        click(window, cell.center())


def enter_checkers(window: MainWindow, move: Any) -> None:
    board = window.game_view.board
    click(window, board.point_of(move.origin))
    for square in move.path[1:-1]:
        if square in board.next_hops():
            click(window, board.point_of(square))
    click(window, board.point_of(move.path[-1]))


def enter_backgammon(window: MainWindow, move: Any) -> None:
    board = window.game_view.board
    if move in (NO_DOUBLE, DOUBLE, TAKE, DROP, NO_MOVE):
        click(window, board.button_position(move))
        return
    mover = board.state().player
    for source, target in move:
        click(window, board.point_position(mover, source))
        click(window, board.point_position(mover, target))


HANDS: dict[str, tuple[Callable[[GameSession, random.Random], Any], Callable[[MainWindow, Any], None]]] = {
    "tictactoe": (tictactoe_choice, enter_click),
    "othello": (othello_choice, enter_click),
    "chess": (chess_choice, enter_chess),
    "checkers": (checkers_choice, enter_checkers),
    "backgammon": (backgammon_choice, enter_backgammon),
}


def human_may_move(session: GameSession) -> bool:
    return session.is_over or (session.can_human_move() and session.state.to_move() == HUMAN_SIDE)


def play_whole_game(window: MainWindow, game: str, seconds: float, seed: int, algorithm: str = "pvs") -> GameSession:
    choose, enter = HANDS[game]
    rng = random.Random(seed)
    computer = PlayerConfig(kind=COMPUTER, algorithm=algorithm, strength="time", seconds=seconds).for_game(game)
    session = window.start_game(game, (PlayerConfig(kind=HUMAN), computer), manual_dice=False)
    failures: list[str] = []
    session.engine_failed.connect(failures.append)
    while not session.is_over and len(session.history) < PLY_CAP:
        if not spin(lambda: human_may_move(session) or bool(failures), TURN_SECONDS) or failures:
            raise RuntimeError(f"{game}: the game stopped moving ({failures or 'timeout'})")
        if session.is_over:
            break
        move = choose(session, rng)
        before = len(session.history)
        if move is None:  # Othello's forced pass: the session plays it after its notice
            spin(lambda: len(session.history) > before, TURN_SECONDS)
            continue
        enter(window, move)
        if not spin(lambda: len(session.history) > before, 10):
            raise RuntimeError(f"{game}: the click did not play {session.state.move_name(move)}")
    return session


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("/tmp/screens/full-games"))
    parser.add_argument("--games", nargs="*", default=list(GAME_NAMES), choices=list(GAME_NAMES))
    parser.add_argument("--seconds", type=float, default=0.1, help="the computer's time a move")
    parser.add_argument("--size", choices=list(SIZES), default="small")
    parser.add_argument("--seed", type=int, default=20261124)
    parser.add_argument("--algorithm", default="pvs", help="the computer's algorithm, where the game offers it (native)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    load_fonts()
    window = MainWindow(offer_resume=False, seed=args.seed)
    window.resize(*SIZES[args.size])
    window.show()
    try:
        for game in args.games:
            apply_theme(app, "light")  # type: ignore[arg-type]
            window.set_theme("light")
            started = time.monotonic()
            session = play_whole_game(window, game, args.seconds, args.seed, args.algorithm)
            print(f"{game}: {session.status_text()} after {len(session.history)} plies "
                  f"({time.monotonic() - started:.0f} s)")
            for theme in ("light", "dark"):
                apply_theme(app, theme)  # type: ignore[arg-type]
                window.set_theme(theme)
                window.engine_tabs.setCurrentWidget(window.engine_panel)
                settle(200)
                path = args.out / f"{game}-over-{theme}.png"
                window.grab().save(str(path), "PNG", 0)
                window.engine_tabs.setCurrentWidget(window.graph_page)
                settle(200)
                window.grab().save(str(args.out / f"{game}-over-graph-{theme}.png"), "PNG", 0)
                print(path)
            window.engine_tabs.setCurrentWidget(window.engine_panel)
    finally:
        window.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
