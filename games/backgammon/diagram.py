"""A backgammon position as a text diagram, in the style of gnubg's ``show board``.

X is at the bottom and the points are numbered in X's numbering, as gnubg draws them; the
ids above the board paste back into any program that reads gnubg ids.
"""

from __future__ import annotations

from typing import Protocol

from games.backgammon.board import BAR, OFF, PLAYER_NAMES, Board, Roll, O, X
from games.backgammon.gnubg_ids import CENTRED
from games.backgammon.notation import roll_name
from games.backgammon.phase import CHECKER_PLAY, GAME_OVER, OPENING, Phase
from games.base import Player

ROWS = 5
"""Checkers drawn per point; a taller stack shows its count in the last row."""


class DiagramSource(Protocol):
    """What the diagram reads of a state (``BackgammonState`` has it all)."""

    boards: list[Board]
    phase: Phase
    player: Player
    dice: Roll
    cube_value: int
    cube_owner: int
    cube_enabled: bool

    def position_id(self) -> str: ...

    def match_id(self) -> str: ...

    def pip_count(self, player: Player) -> int: ...

    def to_move(self) -> Player: ...

    def termination_reason(self) -> str: ...


def diagram(state: DiagramSource) -> str:
    """The diagram of ``state``: the ids, both pip counts, the checkers and a status line."""
    x_board, o_board = state.boards[X], state.boards[O]

    def cell(x_point: int, row: int) -> str:
        x_count, o_count = x_board[x_point], o_board[BAR - x_point]
        count, mark = (x_count, "X") if x_count else (o_count, "O")
        if count > row:
            return f" {count if row == ROWS - 1 and count > ROWS else mark} "
        return "   "

    def bar_cell(board: Board, mark: str, row: int) -> str:
        count = board[BAR]
        return f" {count if row == ROWS - 1 and count > ROWS else mark} " if count > row else "   "

    lines = [f" GNU Backgammon  Position ID: {state.position_id()}", f"                 Match ID   : {state.match_id()}"]
    lines.append(
        " +13-14-15-16-17-18------19-20-21-22-23-24-+     "
        f"O: {state.pip_count(O)} pips, {o_board[OFF]} off"
    )
    for row in range(ROWS):
        left = "".join(cell(point, row) for point in range(13, 19))
        right = "".join(cell(point, row) for point in range(19, 25))
        lines.append(f" |{left}|{bar_cell(o_board, 'O', row)}|{right}|")
    arrow = "v" if state.to_move() == X else "^" if state.to_move() == O else " "
    lines.append(f"{arrow}|                  |BAR|                  |     {status_line(state)}")
    for row in reversed(range(ROWS)):
        left = "".join(cell(point, row) for point in range(12, 6, -1))
        right = "".join(cell(point, row) for point in range(6, 0, -1))
        lines.append(f" |{left}|{bar_cell(x_board, 'X', row)}|{right}|")
    lines.append(
        " +12-11-10--9--8--7-------6--5--4--3--2--1-+     "
        f"X: {state.pip_count(X)} pips, {x_board[OFF]} off"
    )
    return "\n".join(lines)


def status_line(state: DiagramSource) -> str:
    """Who is to do what, and the cube: the line beside the diagram's bar."""
    if state.phase == GAME_OVER:
        return state.termination_reason()
    cube = "cube off" if not state.cube_enabled else f"cube {state.cube_value}" + (
        "" if state.cube_owner == CENTRED else f" ({PLAYER_NAMES[state.cube_owner]})"
    )
    if state.phase == CHECKER_PLAY:
        return f"{PLAYER_NAMES[state.player]} to play {roll_name(state.dice)}, {cube}"
    if state.phase == OPENING:
        return f"opening roll, {cube}"
    return f"{PLAYER_NAMES[state.to_move()]}: {Phase(state.phase).label}, {cube}"


__all__ = ["DiagramSource", "diagram", "status_line"]
