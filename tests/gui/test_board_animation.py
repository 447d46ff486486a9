"""A move's animation plays once, for the move that was made.

The app shows a position again whenever anything about the game changes (Think, Hint, a
pause, the engine's arrow): the board is handed the same position and the same last move.
That must not replay the last move (a castling king drawn mid-way a second later); nor may
an arrow or a taken-back move.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from games import GameState, new_game
from games.backgammon.state import CHECKER_PLAY, BackgammonState
from gui.boards import board_for
from gui.boards.base import BoardWidget
from gui.main_window import MainWindow
from gui.players import HUMAN, PlayerConfig
from gui.resources import load_fonts

OPENINGS: dict[str, tuple[str, ...]] = {
    "chess": ("e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O"),  # ends with a castling
    "checkers": ("11-15", "23-19", "8-11"),
    "othello": ("d3", "c5", "f6"),
    "tictactoe": ("b2", "a1", "c3"),
}
ANIMATION_TIMEOUT_MS = 3000


def make_board(qtbot: QtBot, game: str) -> BoardWidget:
    load_fonts()
    board = board_for(game)()
    assert isinstance(board, BoardWidget)
    qtbot.addWidget(board)
    board.resize(420, 420)
    board.show()
    qtbot.waitExposed(board)
    return board


def show(board: BoardWidget, state: GameState, last: object) -> None:
    """What the app does on every change: the position, then its last move."""
    board.set_state(state)
    board.set_last_move(last)


def animating(board: BoardWidget) -> bool:
    return board.is_animating()


@pytest.mark.parametrize("game", sorted(OPENINGS))
def test_the_last_move_is_animated_once_and_never_replayed(qtbot: QtBot, game: str) -> None:
    board = make_board(qtbot, game)
    state = new_game(game)
    show(board, state, None)
    move = None
    for text in OPENINGS[game]:
        move = state.parse_move(text)
        state.play(move)
    before = state.copy()
    before.undo()
    show(board, before, None)
    show(board, state, move)  # the move was made: it slides
    assert animating(board)
    show(board, state, move)  # shown again at once (the engine starts thinking): it slides on
    assert animating(board)
    qtbot.waitUntil(lambda: not animating(board), timeout=ANIMATION_TIMEOUT_MS)
    show(board, state, move)  # Think: the same position again
    assert not animating(board)
    board.set_best_move(state.legal_moves()[0])  # Hint: an arrow
    show(board, state, move)
    assert not animating(board)


@pytest.mark.parametrize("game", sorted(OPENINGS))
def test_taking_a_move_back_does_not_replay_the_one_before(qtbot: QtBot, game: str) -> None:
    board = make_board(qtbot, game)
    state = new_game(game)
    moves = []
    for text in OPENINGS[game]:
        moves.append(state.parse_move(text))
        state.play(moves[-1])
    show(board, state, moves[-1])
    qtbot.waitUntil(lambda: not animating(board), timeout=ANIMATION_TIMEOUT_MS)
    state.undo()  # Undo: the position before, whose last move is the one before
    show(board, state, moves[-2])
    assert not animating(board)


def test_backgammon_slides_the_opponents_play_once(qtbot: QtBot) -> None:
    board = make_board(qtbot, "backgammon")
    state = BackgammonState.initial(cube_enabled=False)
    state.play((1, 3))
    show(board, state, None)
    play = state.parse_move("8/5 6/5")
    state.play(play)
    show(board, state, play)
    assert animating(board)
    rolled = state.copy()
    rolled.play(rolled.chance_outcomes()[0][0])  # the next roll comes at once: the play slides on
    show(board, rolled, play)
    assert animating(board)
    show(board, state, play)
    qtbot.waitUntil(lambda: not animating(board), timeout=ANIMATION_TIMEOUT_MS)
    show(board, state, play)  # Think / Hint: the same position again
    assert not animating(board)
    state.play(state.chance_outcomes()[0][0])  # the next roll: nothing slides again
    show(board, state, play)
    assert not animating(board)
    if state.phase == CHECKER_PLAY and state.legal_moves()[0]:
        board.set_best_move(state.legal_moves()[0])
        show(board, state, play)
        assert not animating(board)


def test_in_the_app_think_and_hint_do_not_replay_a_castling(qtbot: QtBot, bridge: Any, data_directory: Path) -> None:
    window = MainWindow(bridge=bridge, data_directory=data_directory, offer_resume=False, seed=3)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    try:
        session = window.start_game("chess", (PlayerConfig(kind=HUMAN), PlayerConfig(kind=HUMAN)))
        board = window.game_view.board
        for text in OPENINGS["chess"]:
            assert session.play_text(text) is None  # typed: the board slides each move
        assert animating(board)  # the castling king and rook slide once
        qtbot.waitUntil(lambda: not animating(board), timeout=ANIMATION_TIMEOUT_MS)
        with qtbot.waitSignal(session.hint_found, timeout=30_000):
            session.request_hint()  # Hint (Think on a human's turn asks for one too)
            assert not animating(board)
        assert not animating(board) and board.best_move() is not None  # the arrow, no replay
        session.set_paused(True)
        assert not animating(board)
    finally:
        window.shutdown()
