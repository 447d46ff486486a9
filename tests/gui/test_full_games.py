"""A complete game of every game through the real main window against a depth-1 computer.

The human side is driven only by simulated mouse input on the window's board, the way a person
plays: tic-tac-toe and Othello by a click on the square, chess by a drag (a promotion by a click
in the chooser), checkers a piece and then every hop of a multi-jump, backgammon a checker and
then its destination, hop by hop, with the cube answered by the board's buttons. The computer
answers through the real session, engine bridge and worker pool. Every game must end with the
window's game-over notice showing a result and its reason.

The human's policy is chosen to end games: it takes a win at once when one is there (a mate in
one, the capture that leaves the other side nothing), otherwise it plays the move that gains
the most by the game's own crude material count, and a seeded random choice among equals.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import chess
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from pytestqt.qtbot import QtBot

from games import GAME_NAMES
from games.backgammon import DOUBLE, DROP, NO_DOUBLE, NO_MOVE, TAKE
from gui.main_window import MainWindow
from gui.players import COMPUTER, HUMAN, PlayerConfig
from gui.session import GameSession

LEFT = Qt.MouseButton.LeftButton
HUMAN_SIDE = 0
TURN_TIMEOUT_MS = 30_000
"""The computer's depth-1 answer (and the app's roll and forced pass) take well under a second;
the margin is for a loaded machine."""


@pytest.fixture
def window(qtbot: QtBot, bridge: Any, data_directory: Path) -> Iterator[MainWindow]:
    made = MainWindow(bridge=bridge, data_directory=data_directory, offer_resume=False, seed=3)
    qtbot.addWidget(made)
    made.resize(1100, 760)
    made.show()
    qtbot.waitExposed(made)
    yield made
    made.shutdown()


def at(point: QPointF) -> QPoint:
    return point.toPoint()


# --- the human's choice -------------------------------------------------------------------


def chess_choice(session: GameSession, rng: random.Random) -> Any:
    """Mate in one if there is one, else the biggest capture (a promotion counts as one),
    else a check, else any move: against a depth-1 engine this ends games."""
    board: chess.Board = session.state.board  # type: ignore[attr-defined]
    values = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 0}

    def gain(move: chess.Move) -> float:
        board.push(move)
        try:
            if board.is_checkmate():
                return 1000.0
            checking = board.is_check()
        finally:
            board.pop()
        captured = board.piece_at(move.to_square)
        value = values[captured.piece_type] if captured else (1 if board.is_en_passant(move) else 0)
        if move.promotion:
            value += values[move.promotion] - 1
        return value + 0.5 * checking + rng.random() * 0.1

    return max(session.state.legal_moves(), key=gain)


def checkers_choice(session: GameSession, rng: random.Random) -> Any:
    """The capture that takes the most pieces (the rules force a capture anyway), else any move."""
    return max(session.state.legal_moves(), key=lambda move: (len(move.captured), rng.random()))


def othello_choice(session: GameSession, rng: random.Random) -> Any:
    moves = [move for move in session.state.legal_moves() if session.state.move_name(move) != "pass"]
    return rng.choice(moves) if moves else None


def tictactoe_choice(session: GameSession, rng: random.Random) -> Any:
    return rng.choice(session.state.legal_moves())


def backgammon_choice(session: GameSession, rng: random.Random) -> Any:
    """Never doubles, takes every double, hits when it can (gammons come quicker both ways)."""
    state = session.state
    legal = state.legal_moves()
    if NO_DOUBLE in legal:
        return NO_DOUBLE
    if TAKE in legal:
        return TAKE
    return max(legal, key=lambda play: (state.capture_score(play), rng.random()))


# --- the human's hand ---------------------------------------------------------------------


def click_square(qtbot: QtBot, window: MainWindow, square: Any) -> None:
    board = window.game_view.board
    qtbot.mouseClick(board, LEFT, pos=at(board.point_of(square)))


def enter_click(qtbot: QtBot, window: MainWindow, move: Any) -> None:
    click_square(qtbot, window, move)


def enter_chess(qtbot: QtBot, window: MainWindow, move: chess.Move) -> None:
    board = window.game_view.board
    start, end = board.point_of(move.from_square), board.point_of(move.to_square)
    qtbot.mousePress(board, LEFT, pos=at(start))
    qtbot.mouseMove(board, pos=at((start + end) / 2))
    qtbot.mouseMove(board, pos=at(end))
    qtbot.mouseRelease(board, LEFT, pos=at(end))
    if move.promotion:
        assert board.is_promotion_pending()
        cell = dict(board.promotion_rects())[move.promotion]
        qtbot.mouseClick(board, LEFT, pos=at(cell.center()))


def enter_checkers(qtbot: QtBot, window: MainWindow, move: Any) -> None:
    board = window.game_view.board
    if move.is_capture:
        assert move.origin in board.forced_capture_squares()
    click_square(qtbot, window, move.origin)
    for square in move.path[1:-1]:
        if square in board.next_hops():
            click_square(qtbot, window, square)
    click_square(qtbot, window, move.path[-1])


def enter_backgammon(qtbot: QtBot, window: MainWindow, move: Any) -> None:
    board = window.game_view.board
    if move in (NO_DOUBLE, DOUBLE, TAKE, DROP, NO_MOVE):
        qtbot.mouseClick(board, LEFT, pos=at(board.button_position(move)))
        return
    mover = board.state().player
    for source, target in move:
        qtbot.mouseClick(board, LEFT, pos=at(board.point_position(mover, source)))
        assert target in board.targets(), (source, target, board.targets())
        qtbot.mouseClick(board, LEFT, pos=at(board.point_position(mover, target)))


HANDS: dict[str, tuple[Callable[[GameSession, random.Random], Any], Callable[[QtBot, MainWindow, Any], None]]] = {
    "tictactoe": (tictactoe_choice, enter_click),
    "othello": (othello_choice, enter_click),
    "chess": (chess_choice, enter_chess),
    "checkers": (checkers_choice, enter_checkers),
    "backgammon": (backgammon_choice, enter_backgammon),
}
PLY_CAP = 600
"""No game here comes near it (a backgammon game is ~120 plies with the rolls); a driver bug
that stops a game from moving fails the test instead of hanging it."""


def human_may_move(session: GameSession) -> bool:
    return session.is_over or (session.can_human_move() and session.state.to_move() == HUMAN_SIDE)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_whole_game_by_mouse_against_the_depth_1_computer(qtbot: QtBot, window: MainWindow, game: str, tmp_path: Path) -> None:
    choose, enter = HANDS[game]
    rng = random.Random(20261124)
    computer = PlayerConfig(kind=COMPUTER, strength="depth", depth=1).for_game(game)
    session = window.start_game(game, (PlayerConfig(kind=HUMAN), computer), manual_dice=False)
    board = window.game_view.board
    failures: list[str] = []
    session.engine_failed.connect(failures.append)
    human_moves = 0
    cube_taken = False
    while not session.is_over:
        assert len(session.history) < PLY_CAP, session.move_names()
        qtbot.waitUntil(lambda: human_may_move(session) or bool(failures), timeout=TURN_TIMEOUT_MS)
        assert not failures, failures  # an engine failure pauses the computer: the game would hang
        if session.is_over:
            break
        move = choose(session, rng)
        before = len(session.history)
        if move is None:  # Othello's forced pass: the session plays it after its notice
            qtbot.waitUntil(lambda: len(session.history) > before, timeout=TURN_TIMEOUT_MS)
            continue
        assert board.is_interactive()
        with qtbot.waitSignal(session.move_played, timeout=TURN_TIMEOUT_MS):
            enter(qtbot, window, move)
        assert session.history[before].move == move, (session.state_at(before).move_name(move), session.move_names())
        human_moves += 1
        cube_taken |= game == "backgammon" and move == TAKE
    assert human_moves >= 3
    if game == "backgammon":  # the computer doubled at some point; the human took by the button
        assert cube_taken
    assert not failures, failures
    assert session.result and session.reason
    print(f"{game}: {session.result} ({session.reason}) after {len(session.history)} plies")
    notice = window.game_view.result_label
    assert notice.isVisibleTo(window)
    assert session.reason.lower() in notice.text().lower(), (notice.text(), session.reason)
    words = notice.text().removeprefix("<b>")
    assert words[:1].isupper(), words  # "X wins", "White has no discs left", never "x …"
    if session.result != "1/2-1/2":  # the winner is said once, not "O wins — … O wins …; O wins by 1"
        assert words.lower().count("wins") == 1, words
    assert not board.is_interactive()
    window.grab().save(str(tmp_path / f"{game}-over.png"))  # the end of the game, to look at
