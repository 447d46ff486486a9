"""One board widget per game, found by the game's registry name.

``board_for("chess")`` imports only the chess board; modules load lazily (like
``games.GAME_MODULES``), so the registry works before every board exists and asking for
tic-tac-toe never pays for the chess pieces.
"""

from __future__ import annotations

import importlib

from PySide6.QtWidgets import QWidget

from gui.boards.base import BoardWidget, GridBoard

BOARD_MODULES: dict[str, tuple[str, str]] = {
    "tictactoe": ("gui.boards.tictactoe", "TicTacToeBoard"),
    "checkers": ("gui.boards.checkers", "CheckersBoard"),
    "chess": ("gui.boards.chess", "ChessBoard"),
    "othello": ("gui.boards.othello", "OthelloBoard"),
    "backgammon": ("gui.boards.backgammon", "BackgammonBoard"),
}
"""Game registry name -> (module, class) of its board widget."""

BOARD_API: tuple[str, ...] = (
    "set_state",
    "set_last_move",
    "set_best_move",
    "set_flipped",
    "set_theme",
    "set_interactive",
    "set_edit_mode",
    "move_requested",
    "position_edited",
)
"""What every board offers the app: methods and signals of ``BoardWidget``, which every board
derives from (the backgammon board adds its own, such as dice entry)."""


def board_for(game_name: str) -> type[QWidget]:
    """The board widget class of the game registered as ``game_name`` (it has ``BOARD_API``).

    ``ValueError`` names the known games; a board whose module is not there yet raises
    ``ImportError`` saying which module is missing."""
    try:
        module_name, class_name = BOARD_MODULES[game_name]
    except KeyError:
        raise ValueError(f"no board for {game_name!r}; boards exist for {', '.join(BOARD_MODULES)}") from None
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name != module_name:
            raise
        raise ImportError(f"the {game_name} board ({module_name}) is not installed") from error
    board: type[QWidget] = getattr(module, class_name)
    return board


__all__ = ["BOARD_API", "BOARD_MODULES", "BoardWidget", "GridBoard", "board_for"]
