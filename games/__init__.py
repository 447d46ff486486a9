"""Pure game rules and game knowledge: one module per game behind ``games.base``.

``get_game(name)`` maps a registry name to its state class; modules are imported lazily so
that asking for tic-tac-toe never pays for python-chess.
"""

from __future__ import annotations

import importlib

from games.base import CHANCE, BadPositionError, GameError, GameState, IllegalMoveError, Player

GAME_MODULES: dict[str, tuple[str, str]] = {
    "tictactoe": ("games.tictactoe", "TicTacToeState"),
    "checkers": ("games.checkers", "CheckersState"),
    "chess": ("games.chess_game", "ChessState"),
    "othello": ("games.othello", "OthelloState"),
    "backgammon": ("games.backgammon", "BackgammonState"),
}
"""Registry name -> (module, class). The chess module is ``chess_game`` so that it can
never shadow the python-chess package ``chess``."""

GAME_NAMES: tuple[str, ...] = tuple(GAME_MODULES)


def get_game(name: str) -> type[GameState]:
    """The state class registered under ``name``; ``ValueError`` lists the known names."""
    try:
        module_name, class_name = GAME_MODULES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; choose one of {', '.join(GAME_NAMES)}") from None
    module = importlib.import_module(module_name)
    game: type[GameState] = getattr(module, class_name)
    return game


def new_game(name: str, text: str | None = None) -> GameState:
    """The initial state of game ``name``, or the position ``text`` in its notation."""
    game = get_game(name)
    return game.initial() if text is None else game.from_text(text)


def default_solver_reach() -> int:
    """The reach the games' exact solvers take by default (``SearchSettings.solver_empties``):
    Othello's measured depth for the solver in use (``games.othello.exact``); checkers'
    databases stop at their own reach (``CheckersState.SOLVER_REACH``).

    The Othello module is imported here, when asked, so that importing the registry never
    loads a game (asking for tic-tac-toe never pays for Othello's solver)."""
    from games.othello.exact import SOLVER_EMPTIES

    return SOLVER_EMPTIES


__all__ = [
    "CHANCE",
    "BadPositionError",
    "GAME_NAMES",
    "GameError",
    "GameState",
    "IllegalMoveError",
    "Player",
    "default_solver_reach",
    "get_game",
    "new_game",
]
