"""Moves shown beside a board are named in the numbers the board draws.

Backgammon's point numbers are drawn from the bottom player's side, so a play shown beside
the board (move list, engine lines, hints, the board's own status line) is written in those
numbers, whoever made it; files, the command line and gnubg keep each mover's own numbering.
"""

from __future__ import annotations

import random
import re

import pytest
from PySide6.QtCore import QPointF
from pytestqt.qtbot import QtBot

from games import new_game
from games.backgammon.board import BAR, OFF
from games.backgammon.notation import MOVER, OPPONENT, format_play
from games.backgammon.state import CHECKER_PLAY, BackgammonState, O, X
from gui.boards import board_for
from gui.boards.backgammon import BackgammonBoard
from gui.boards.base import BoardWidget

_NUMBER = re.compile(r"\d+")


def make_board(qtbot: QtBot, game: str) -> BoardWidget:
    board = board_for(game)()
    assert isinstance(board, BoardWidget)
    qtbot.addWidget(board)
    board.resize(760, 625)
    board.show()
    qtbot.waitExposed(board)
    return board


def random_checker_play_states(seed: int, count: int) -> list[BackgammonState]:
    """Positions with checkers to play from random games (both players on roll)."""
    rng = random.Random(seed)
    found: list[BackgammonState] = []
    state = BackgammonState.initial(cube_enabled=False)
    while len(found) < count:
        if state.is_terminal():
            state = BackgammonState.initial(cube_enabled=False)
        if state.phase == CHECKER_PLAY:
            found.append(state.copy())
            state.play(rng.choice(state.legal_moves()))
        else:
            state.play(rng.choice(state.chance_outcomes())[0])
    return found


def same_place(first: QPointF, second: QPointF) -> bool:
    return abs(first.x() - second.x()) < 0.5 and abs(first.y() - second.y()) < 0.5


@pytest.mark.parametrize("flipped", [False, True])
def test_every_shown_play_names_the_points_as_the_board_labels_them(qtbot: QtBot, flipped: bool) -> None:
    board = make_board(qtbot, "backgammon")
    assert isinstance(board, BackgammonBoard)
    board.set_flipped(flipped)
    bottom = board.bottom_player()
    movers = set()
    for state in random_checker_play_states(seed=5 + flipped, count=40):
        board.set_state(state)
        mover = state.player
        movers.add(mover)
        for play in state.legal_moves()[:6]:
            if not play:
                continue
            text = board.move_text(state, play)
            if mover == bottom:
                assert text == state.move_name(play)  # the standard text: the board's numbers
            sources = {source for source, _ in play}
            targets = {target for _, target in play}
            for path in text.split():
                points = path.split("(")[0].split("/")
                first, last = points[0], points[-1].rstrip("*")
                if first != "bar":
                    # the label on the point this path leaves is the number written first
                    where = board.point_position(bottom, int(first))
                    assert any(same_place(where, board.point_position(mover, s)) for s in sources if s != BAR), (text, play)
                if last != "off":
                    where = board.point_position(bottom, int(last))
                    assert any(same_place(where, board.point_position(mover, t)) for t in targets if t != OFF), (text, play)
    assert movers == {O, X}


def test_the_numbering_follows_a_flip_and_says_so(qtbot: QtBot) -> None:
    board = make_board(qtbot, "backgammon")
    state = BackgammonState.initial(cube_enabled=False)
    state.play((1, 3))  # X opens with 3-1
    board.set_state(state)
    play = state.parse_move("8/5 6/5")
    assert board.move_text(state, play) == state.move_name(play)  # X at the bottom: X's own numbers
    with qtbot.waitSignal(board.move_texts_changed, timeout=1000):
        board.set_flipped(True)  # O at the bottom: X's 8 is O's 17
    assert board.move_text(state, play) == "17/20 19/20"
    assert state.move_name(play) == "8/5 6/5"  # what files and gnubg get is unchanged


def test_a_whole_game_is_named_move_by_move_with_rolls(qtbot: QtBot) -> None:
    board = make_board(qtbot, "backgammon")
    board.set_flipped(True)
    rng = random.Random(2)
    state = BackgammonState.initial(cube_enabled=False)
    start, moves, expected = state.copy(), [], []
    for _ in range(30):
        moves_now = state.legal_moves() if state.phase == CHECKER_PLAY else [o for o, _ in state.chance_outcomes()]
        move = rng.choice(moves_now)
        expected.append(board.move_text(state, move))
        moves.append(move)
        state.play(move)
    assert board.history_texts(start, moves) == expected
    assert any("-" in name for name in expected)  # the rolls are named too


@pytest.mark.parametrize("game", ["chess", "checkers", "othello", "tictactoe"])
def test_grid_boards_name_moves_as_the_game_does(qtbot: QtBot, game: str) -> None:
    board = make_board(qtbot, game)
    state = new_game(game)
    board.set_state(state)
    board.set_flipped(True)
    moves = state.legal_moves()
    assert [board.move_text(state, move) for move in moves] == [state.move_name(move) for move in moves]
    line = [moves[0]]
    assert board.line_texts(state, line) == state.line_names(line)


def test_the_opponents_numbering_is_each_point_counted_from_the_other_side() -> None:
    for state in random_checker_play_states(seed=9, count=60):
        mover = state.player
        mine, theirs = state.boards[mover], state.boards[1 - mover]
        for play in state.legal_moves()[:8]:
            standard = format_play(mine, theirs, play, MOVER)
            assert standard == state.move_name(play)
            turned = format_play(mine, theirs, play, OPPONENT)
            assert turned == _NUMBER.sub(lambda match: str(BAR - int(match.group())) if not _is_count(standard, match) else match.group(), standard)


def _is_count(text: str, match: re.Match[str]) -> bool:
    """Whether the number matched is a checker count ``(2)``, not a point."""
    return match.start() > 0 and text[match.start() - 1] == "("

