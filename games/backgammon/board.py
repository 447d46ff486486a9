"""Backgammon vocabulary: points, boards, hops and plays, as gnubg numbers them.

Every player counts points from their own side: the ace point is 1, the midpoint 13, the
opponent's ace point 24. A player's checkers are one list of 26 counts in that numbering:
index 0 holds the checkers borne off, 1..24 the points, 25 the bar. The opponent's checkers
on *my* point ``p`` are at index ``25 - p`` of *their* list, which is why that expression
appears wherever the two sides meet (hits, blocks, contact).

A *hop* is one checker moving by one die, ``(from, to)`` in the mover's numbering
(``to == 0`` bears off). A *play* is a whole turn: the tuple of its hops, sorted from the
back of the board forward so that replaying them in that order is always possible.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.base import Player

O: Player = 0
X: Player = 1
PLAYER_NAMES: tuple[str, str] = ("O", "X")
"""Player 0 is O and player 1 is X, as in gnubg (whose Match ID stores "player 0/1" with the
same meaning, and which draws X at the bottom)."""

Point = int
"""A point in the mover's numbering: 1..24, ``BAR`` (25) or ``OFF`` (0)."""

Board = list[int]
"""26 checker counts of one player in their own numbering: [off, 1..24, bar]."""

Hop = tuple[int, int]
"""One checker moved by one die: ``(from, to)``."""

Play = tuple[Hop, ...]
"""A whole turn: its hops, highest source first. ``()`` is the forced "no move"."""

Roll = tuple[int, int]
"""Two dice. After the opening: ``(high, low)``. The opening roll is ``(O's die, X's die)``."""

OFF: Point = 0
BAR: Point = 25
POINTS = 24
BOARD_SIZE = 26
CHECKERS = 15
HOME_POINTS = 6
"""Points 1..6 are the home board, where bearing off starts."""
OUTER_START = HOME_POINTS + 1
DIE_FACES = 6

NO_MOVE: Play = ()
"""The only legal play when neither die can be played."""

STARTING_POINTS: dict[Point, int] = {24: 2, 13: 5, 8: 3, 6: 5}
"""Where each player's checkers start, in their own numbering."""


def take_back(mine: Board, theirs: Board, play: Play, hits: Sequence[bool]) -> None:
    """Undo ``play`` on the mover's and the opponent's boards, in place: each hop taken back
    in reverse order, a checker it hit returned from the bar to its point. ``hits[i]`` says
    whether hop ``i`` hit (the state records it when the play is made)."""
    for (source, target), hit in zip(reversed(play), reversed(hits)):
        mine[target] -= 1
        mine[source] += 1
        if hit:
            theirs[BAR - target] = 1
            theirs[BAR] -= 1


def empty_board() -> Board:
    """No checkers anywhere (not even borne off)."""
    return [0] * BOARD_SIZE


def starting_board() -> Board:
    """One player's checkers at the start of a game."""
    board = empty_board()
    for point, count in STARTING_POINTS.items():
        board[point] = count
    return board


def pip_count(board: Board) -> int:
    """Pips the player still has to travel: the bar counts 25, the ace point 1."""
    return sum(point * board[point] for point in range(1, BOARD_SIZE))


def back_point(board: Board) -> Point:
    """The player's rearmost occupied point (25 with a checker on the bar), 0 if none."""
    for point in range(BAR, OFF, -1):
        if board[point]:
            return point
    return OFF


def is_race(board: Board, opponent: Board) -> bool:
    """No contact left: every checker of each side has passed every checker of the other."""
    return back_point(board) + back_point(opponent) <= BAR


def point_name(point: Point) -> str:
    """gnubg's spelling: ``bar``, ``off`` or the number."""
    if point == BAR:
        return "bar"
    if point == OFF:
        return "off"
    return str(point)
