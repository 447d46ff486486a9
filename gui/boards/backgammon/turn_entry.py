"""A checker play being entered on the board: the steps so far, the checker picked up and a
drag in progress.

The rules of a turn entered step by step are ``games.backgammon.turn.TurnBuilder``'s (which
checker may move where, which legal play the steps make); this object adds what the
player's hand is doing. Points are in the mover's numbering (25 the bar, 0 off); the widget
turns pointer positions into points (``layout.BoardView.location``), hands them here, and
emits what comes out.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF

from games.backgammon.board import Board, Hop, Play, O
from games.backgammon.state import BackgammonState
from games.backgammon.turn import TurnBuilder
from games.base import Player


class TurnEntry:
    """The play being entered in one checker-play position."""

    def __init__(self, state: BackgammonState) -> None:
        self.builder = TurnBuilder(state)
        """The steps entered so far and what may come next."""
        self.selected: int | None = None
        """The source of the checker the player picked up."""
        self.drag_start: QPointF | None = None
        """Where the press that picked up the selected checker was (a drag may follow)."""
        self.drag_position: QPointF | None = None
        """Where a dragged checker is now (``None``: not dragging)."""

    @property
    def mover(self) -> Player:
        return self.builder.mover

    @property
    def hops(self) -> tuple[Hop, ...]:
        return self.builder.hops

    def boards(self) -> tuple[Board, Board]:
        """O's and X's boards with the steps entered so far."""
        builder = self.builder
        if builder.mover == O:
            return builder.mine, builder.theirs
        return builder.theirs, builder.mine

    def put_down(self) -> None:
        """Put a picked-up checker down (the steps entered stay)."""
        self.selected = None
        self.drag_start = self.drag_position = None

    def targets(self) -> list[int]:
        """Where the picked-up checker may go (0 = off)."""
        if self.selected is None:
            return []
        return sorted(self.builder.options().get(self.selected, {}))

    def can_go(self, location: int | None) -> bool:
        """Whether the picked-up checker may go to ``location``."""
        return self.selected is not None and location in self.builder.options().get(self.selected, {})

    def can_pick_up(self, location: int | None) -> bool:
        """Whether a checker on ``location`` may take the next step."""
        return location in self.builder.options()

    def press(self, location: int | None, position: QPointF) -> int | None:
        """A press on ``location`` at ``position``: the destination to step to when the
        picked-up checker may go there; otherwise the checker there is picked up (a second
        press on it puts it down), and a drag may start from ``position``."""
        if self.can_go(location):
            return location
        if location is not None and self.can_pick_up(location) and location != self.selected:
            self.selected = location
            self.drag_start = position
        else:
            self.selected = None
        return None

    def step_to(self, location: int) -> None:
        """Move the picked-up checker to ``location`` (one of its targets) and put it down."""
        assert self.selected is not None
        self.builder.play_step(self.selected, location)
        self.put_down()

    def undo_step(self) -> bool:
        """Take the last step back; whether there was one."""
        if self.builder.undo_step() is None:
            return False
        self.selected = None
        return True

    def is_pressed(self) -> bool:
        """Whether the button that picked up the checker is still down (a drag may go on)."""
        return self.drag_start is not None and self.selected is not None

    def drag(self, position: QPointF, threshold: float) -> bool:
        """The pointer moved to ``position`` with the button down: whether the checker is
        being dragged (it leaves its point once the pointer has gone ``threshold`` pixels)."""
        assert self.drag_start is not None
        if self.drag_position is None:
            moved = position - self.drag_start
            if math.hypot(moved.x(), moved.y()) < threshold:
                return False
        self.drag_position = position
        return True

    def release(self) -> QPointF | None:
        """The button went up: the drag ends; where it started (``None``: no press to end)."""
        start, self.drag_start, self.drag_position = self.drag_start, None, None
        return start

    def complete_play(self) -> Play | None:
        """The legal play the steps make, once they make one."""
        return self.builder.complete_play()


__all__ = ["TurnEntry"]
