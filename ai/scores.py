"""One scale for every score the search computes, and the one place that converts it.

Inside the search a score is a number from the side to move's point of view (negamax). For
win/loss games a won terminal is ``WIN_SCORE - ply`` (so a faster win scores higher, and a
transposition table can store it relative to the node: see ``to_tt``/``from_tt``); for
margin and equity games a terminal is ``utility * EVAL_SCALE``. ``to_report`` turns a raw
score into the ``Score`` the outside world sees: from a fixed player's view, with "win in
N plies" spelled out.
"""

from __future__ import annotations

from games.base import GameState, Player

from ai.events import Score

WIN_SCORE = 1_000_000
"""A won terminal at the root; every evaluation lies far inside (-WIN_SCORE, WIN_SCORE)."""
MAX_PLY = 1_000
"""The farthest win a score can count in plies (a bound, not the length of a search's lines,
which ``ai.search.common.MAX_SEARCH_PLY`` caps far lower); scores beyond
``WIN_SCORE - MAX_PLY`` are wins. The front ends accept depths up to it."""
WIN_THRESHOLD = WIN_SCORE - MAX_PLY
INFINITY = 10 * WIN_SCORE
"""Wider than any score: the initial alpha-beta window."""


def terminal_score(state: GameState, ply: int) -> float:
    """UTILITY of a terminal ``state`` from the side to move's view, on the search scale.

    ``ply`` is the distance from the root: a win found sooner is worth more.
    """
    player = state.to_move()
    if player < 0:  # a terminal is never a chance node, but be safe: view of player 0
        player = 0
    value = state.utility(player)
    if state.UTILITY_KIND == "win_loss":
        if value > 0:
            return WIN_SCORE - ply
        if value < 0:
            return -WIN_SCORE + ply
        return 0
    return value * state.EVAL_SCALE


def solved_score(state: GameState, solved: float, ply: int, eval_scale: float) -> float:
    """The search score of ``solve``'s exact value ``solved`` (side to move's view) at a node
    ``ply`` plies from the root: a proven win or loss at a distance (``GameState.SOLVED_WIN``)
    becomes ``±(WIN_SCORE - ply - distance)``, as the finished game that far down would
    score; any other value is an evaluation, scaled."""
    win = state.SOLVED_WIN
    if win is not None and abs(solved) > win - MAX_PLY:
        plies = ply + round(win - abs(solved))
        return WIN_SCORE - plies if solved > 0 else -WIN_SCORE + plies
    return solved * eval_scale


def is_win_score(score: float) -> bool:
    """Whether ``score`` proves a forced win or loss (a mate score)."""
    return abs(score) >= WIN_THRESHOLD


def to_tt(score: float, ply: int) -> float:
    """Store a win score as distance from this node, not from the root."""
    if score >= WIN_THRESHOLD:
        return score + ply
    if score <= -WIN_THRESHOLD:
        return score - ply
    return score


def from_tt(score: float, ply: int) -> float:
    """Inverse of ``to_tt`` at a node ``ply`` plies from the root."""
    if score >= WIN_THRESHOLD:
        return score - ply
    if score <= -WIN_THRESHOLD:
        return score + ply
    return score


def to_report(raw: float, side_to_move: Player, game: type[GameState], view: Player = 0) -> Score:
    """The ``Score`` of raw side-to-move score ``raw`` as seen by ``view``.

    This is the only place the search's side-to-move scores are turned round. A proven
    result keeps its sign in ``value`` (``±(WIN_SCORE - plies)``) as well as in
    ``win_in_plies``: at 0 plies (the root is a finished game) only ``value`` can carry it
    (``Score.outcome`` reads it from there).
    """
    value = raw if side_to_move == view or side_to_move < 0 else -raw
    win_in: int | None = None
    if game.UTILITY_KIND == "win_loss" and is_win_score(value):
        plies = int(WIN_SCORE - abs(value))
        win_in = plies if value > 0 else -plies
    return Score(value=float(value), view=view, win_in_plies=win_in, scale=float(game.EVAL_SCALE))
