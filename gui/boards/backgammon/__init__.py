"""The backgammon board, split by job:

* ``board``: the widget (``BackgammonBoard``): the board API, what is shown when, and the
  mouse and key events, turned into steps of ``turn_entry``, cube actions and dice;
* ``layout``: the proportions, in units of a point's width, and where everything is;
* ``colours``: the palettes, light and dark, per board scheme;
* ``painters``: how each thing is drawn (frame, points, checkers, cube, dice, buttons,
  labels, arrows);
* ``turn_entry``: the play being entered: the checker picked up, a drag, the steps so far;
* ``dice_picker``: the panel where a player enters a roll;
* ``motion``: the opponent's play sliding in;
* ``match_line``: the match score above the board in a match (``MatchLine``).
"""

from __future__ import annotations

from gui.boards.backgammon.board import CONFIRM_KEY, ENTER_DICE_KEY, NEXT_GAME_KEY, UNDO_KEY, BackgammonBoard
from gui.boards.backgammon.colours import BoardColours
from gui.boards.backgammon.match_line import MatchLine

__all__ = ["CONFIRM_KEY", "ENTER_DICE_KEY", "NEXT_GAME_KEY", "UNDO_KEY", "BackgammonBoard", "BoardColours", "MatchLine"]
