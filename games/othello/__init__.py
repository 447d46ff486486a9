"""Othello (Reversi): bitboard rules, a linear evaluation and an exact endgame solver.

* ``bitboard``: squares, the flood-fill move generator, flips, perft.
* ``evaluation``: the named features and their weights (EVAL).
* ``solver``: the negamax alpha-beta endgame solver on raw bitboards, in pure Python.
* ``_solver`` (C, optional) and ``exact``: the native solver, and the module that picks it
  when it was built (else the Python one).
* ``state``: ``OthelloState``, the ``games.base.GameState`` protocol.
"""

from __future__ import annotations

from games.othello.bitboard import Bitboard, Square, square_name
from games.othello.evaluation import DEFAULT_WEIGHTS, FEATURE_NAMES
from games.othello.exact import NATIVE, SOLVER_BACKEND, SOLVER_EMPTIES, solve_exact
from games.othello.solver import EndgameSolver, SolveResult, solve_position
from games.othello.state import BLACK, PASS, PASS_NAME, WHITE, OthelloState, parse_square

__all__ = [
    "BLACK",
    "Bitboard",
    "DEFAULT_WEIGHTS",
    "EndgameSolver",
    "FEATURE_NAMES",
    "NATIVE",
    "OthelloState",
    "PASS",
    "PASS_NAME",
    "SOLVER_BACKEND",
    "SOLVER_EMPTIES",
    "SolveResult",
    "Square",
    "WHITE",
    "parse_square",
    "solve_exact",
    "solve_position",
    "square_name",
]
