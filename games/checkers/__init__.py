"""English draughts / American checkers: ``CheckersState`` and its ``CheckersMove``.

Modules: ``bitboards`` (board geometry, ghost-square bitboards, move generator, perft),
``notation`` (PDN FEN and move text), ``evaluation`` (EVAL features and weights), ``state``
(the ``GameState``). Square helpers for boards that draw the game: ``square_row``,
``square_column`` and ``square_at`` use the usual PDN diagram (square 1 top-left area,
Black at the top).
"""

from __future__ import annotations

from games.checkers.bitboards import BLACK, WHITE, Square, square_at, square_column, square_row
from games.checkers.evaluation import DEFAULT_WEIGHTS, FEATURE_NAMES
from games.checkers.state import NO_PROGRESS_LIMIT, CheckersMove, CheckersState

__all__ = [
    "BLACK",
    "DEFAULT_WEIGHTS",
    "FEATURE_NAMES",
    "NO_PROGRESS_LIMIT",
    "WHITE",
    "CheckersMove",
    "CheckersState",
    "Square",
    "square_at",
    "square_column",
    "square_row",
]
