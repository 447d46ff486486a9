"""Drag-and-drop on every board where pieces move, with real press/move/release events.

A person presses on a piece, moves the pointer with the button down and lets go over the
destination; each ``move_requested`` must carry exactly the legal move that was meant, and
clicks (press and release on one square) must keep working beside drags.
"""

from __future__ import annotations

import random

import chess
from PySide6.QtCore import QPoint, QPointF, Qt
from pytestqt.qtbot import QtBot

from games import GameState, new_game
from games.backgammon.state import CHECKER_PLAY, BackgammonState, X
from games.checkers import CheckersMove
from gui.boards import board_for
from gui.boards.backgammon import BackgammonBoard
from gui.boards.base import BoardWidget, GridBoard
from gui.boards.checkers import CheckersBoard
from gui.resources import load_fonts

LEFT = Qt.MouseButton.LeftButton
SIGNAL_TIMEOUT_MS = 1000


def at(point: QPointF) -> QPoint:
    return QPoint(round(point.x()), round(point.y()))


def make_board(qtbot: QtBot, game: str, state: GameState, width: int = 400, height: int = 400) -> BoardWidget:
    load_fonts()
    board = board_for(game)()
    assert isinstance(board, BoardWidget)
    qtbot.addWidget(board)
    board.resize(width, height)
    board.show()
    qtbot.waitExposed(board)
    board.set_state(state)
    return board


def drag(qtbot: QtBot, board: BoardWidget, start: QPointF, end: QPointF) -> None:
    """Press at ``start``, move in three steps with the button down, release at ``end``."""
    qtbot.mousePress(board, LEFT, pos=at(start))
    for fraction in (0.2, 0.6, 1.0):
        qtbot.mouseMove(board, pos=at(start + (end - start) * fraction))
    qtbot.mouseRelease(board, LEFT, pos=at(end))


def drag_squares(qtbot: QtBot, board: BoardWidget, origin: object, target: object) -> None:
    assert isinstance(board, GridBoard)
    drag(qtbot, board, board.point_of(origin), board.point_of(target))


class Recorder:
    def __init__(self, board: BoardWidget) -> None:
        self.moves: list[object] = []
        board.move_requested.connect(self.moves.append)


# ---------------------------------------------------------------------- checkers
def test_checkers_a_whole_game_by_drag_with_multi_jumps_hop_by_hop(qtbot: QtBot) -> None:
    state = new_game("checkers")
    board = make_board(qtbot, "checkers", state)
    assert isinstance(board, CheckersBoard)
    recorder = Recorder(board)
    rng = random.Random(3)
    multi_jumps = 0
    while not state.is_terminal():
        move = rng.choice(state.legal_moves())
        if state.to_move() == 0:
            for hop in range(1, len(move.path)):
                drag_squares(qtbot, board, move.path[hop - 1], move.path[hop])
                if recorder.moves:
                    break
                assert board.entered_path() == move.path[: hop + 1]  # dropped on the landing
                assert not board.is_dragging()
            assert recorder.moves == [move]
            recorder.moves.clear()
            multi_jumps += len(move.captured) > 1
        state.play(move)
        board.set_state(state)
        board.set_last_move(move)
    assert multi_jumps >= 1


def test_checkers_drag_to_the_final_square_of_the_only_path(qtbot: QtBot) -> None:
    state = new_game("checkers", "W:WK18:B8,12,K15,16,24")
    board = make_board(qtbot, "checkers", state)
    recorder = Recorder(board)
    drag_squares(qtbot, board, 18, 4)
    assert recorder.moves == [state.parse_move("18x11x4")]


def test_checkers_a_drop_where_the_piece_cannot_go_keeps_it_picked_up(qtbot: QtBot) -> None:
    board = make_board(qtbot, "checkers", new_game("checkers"))
    assert isinstance(board, CheckersBoard)
    recorder = Recorder(board)
    drag_squares(qtbot, board, 9, 18)  # two rows on: no such move
    assert recorder.moves == [] and board.entered_path() == (9,)
    assert not board.is_dragging()
    qtbot.mouseClick(board, LEFT, pos=at(board.point_of(14)))  # then a click finishes it
    assert recorder.moves == [CheckersMove((9, 14))]


def test_checkers_drawn_while_dragging_and_a_click_still_lets_go(qtbot: QtBot) -> None:
    board = make_board(qtbot, "checkers", new_game("checkers"))
    assert isinstance(board, CheckersBoard)
    start, end = board.point_of(11), board.point_of(15)
    qtbot.mousePress(board, LEFT, pos=at(start))
    qtbot.mouseMove(board, pos=at((start + end) / 2))
    assert board.is_dragging()
    assert not board.grab().isNull()  # painting the piece under the pointer works
    qtbot.mouseRelease(board, LEFT, pos=at(start))  # back where it came from: nothing moves
    assert board.entered_path() == (11,) and not board.is_dragging()
    qtbot.mouseClick(board, LEFT, pos=at(start))  # a second click lets go
    assert board.entered_path() == ()


def test_checkers_multi_jump_mixes_clicks_and_drags(qtbot: QtBot) -> None:
    fen = "B:W15,21,22,23,24,25,27,29,30,31,32:B1,2,3,4,5,6,10,12,14,16,20"
    board = make_board(qtbot, "checkers", new_game("checkers", fen))
    assert isinstance(board, CheckersBoard)
    recorder = Recorder(board)
    qtbot.mouseClick(board, LEFT, pos=at(board.point_of(10)))
    qtbot.mouseClick(board, LEFT, pos=at(board.point_of(19)))
    assert board.entered_path() == (10, 19)
    drag_squares(qtbot, board, 19, 28)  # dragged on from where it stands
    assert recorder.moves == [CheckersMove((10, 19, 28), (15, 24))]


# ------------------------------------------------------------------------- chess
def test_chess_drag_and_click_click_both_move(qtbot: QtBot) -> None:
    state = new_game("chess")
    board = make_board(qtbot, "chess", state)
    recorder = Recorder(board)
    drag_squares(qtbot, board, chess.G1, chess.F3)
    assert recorder.moves == [chess.Move.from_uci("g1f3")]
    state.play(recorder.moves[-1])
    board.set_state(state)
    assert isinstance(board, GridBoard)
    qtbot.mouseClick(board, LEFT, pos=at(board.point_of(chess.E7)))
    qtbot.mouseClick(board, LEFT, pos=at(board.point_of(chess.E5)))
    assert recorder.moves[-1] == chess.Move.from_uci("e7e5")


# -------------------------------------------------------------------- backgammon
def backgammon_board(qtbot: QtBot, state: BackgammonState) -> BackgammonBoard:
    board = make_board(qtbot, "backgammon", state, 760, 625)
    assert isinstance(board, BackgammonBoard)
    return board


def test_backgammon_a_whole_turn_by_drags(qtbot: QtBot) -> None:
    state = BackgammonState.initial(cube_enabled=False)
    state.play((1, 3))  # X opens with 3-1
    board = backgammon_board(qtbot, state)
    drag(qtbot, board, board.point_position(X, 8), board.point_position(X, 5))
    assert board.partial_turn() == ((8, 5),)
    with qtbot.waitSignal(board.move_requested, timeout=SIGNAL_TIMEOUT_MS) as emitted:
        drag(qtbot, board, board.point_position(X, 6), board.point_position(X, 5))
    assert emitted.args[0] == state.parse_move("8/5 6/5")


def test_backgammon_games_played_by_drags_for_both_sides_flipped_or_not(qtbot: QtBot) -> None:
    """Random games, each turn dragged checker by checker, on both orientations: every
    emitted play is the legal play whose hops were dragged."""
    for flipped in (False, True):
        rng = random.Random(11 + flipped)
        state = BackgammonState.initial(cube_enabled=False)
        board = backgammon_board(qtbot, state)
        board.set_flipped(flipped)
        turns = 0
        while not state.is_terminal() and turns < 40:
            if state.phase != CHECKER_PLAY:
                outcomes = state.chance_outcomes()
                state.play(rng.choice(outcomes)[0])
                continue
            play = rng.choice(state.legal_moves())
            board.set_state(state)
            if play:
                mover = state.player
                emitted: list[object] = []
                board.move_requested.connect(emitted.append)
                for source, target in play:
                    drag(qtbot, board, board.point_position(mover, source), board.point_position(mover, target))
                board.move_requested.disconnect(emitted.append)
                assert emitted == [play], (state.to_text(), play, emitted)
            state.play(play)
            turns += 1
        assert turns >= 20
