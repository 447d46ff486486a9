"""The tic-tac-toe board: a clean grid, stroked X and O marks, the winning line drawn.

Squares are ``games.tictactoe``'s indices 0..8, row-major from the top-left (a3 .. c1).
Edit mode: a click cycles a square empty -> x -> o -> empty (right-click the other way);
the side to move follows from the counts, as in the position text.
"""

from __future__ import annotations

from typing import ClassVar

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QWidget

from games.base import GameState
from games.tictactoe import LINES, O, X, TicTacToeState
from gui.boards.base import Cell, GridBoard
from gui.theme import Theme

Square = int
SIZE = 3
MARK_FRACTION = 0.5
"""Side of a mark, in squares."""
STROKE_FRACTION = 0.085
GRID_FRACTION = 0.035
WIN_LINE_FRACTION = 0.07
GHOST_ALPHA = 0.45
"""Opacity of the engine's suggested mark."""
HOVER_ALPHA = 0.2
"""Opacity of the mark a click would put down, under the pointer."""
DRAWING_SCALE = 1.6
"""Drawing a new mark takes this many times the usual animation length."""
EMPTY_CELL = "."
CYCLE = (EMPTY_CELL, "x", "o")


class TicTacToeBoard(GridBoard):
    """A board for ``games.tictactoe.TicTacToeState``."""

    SUPPORTS_EDIT: ClassVar[bool] = True
    GAME: ClassVar[str] = "tictactoe"
    ROWS: ClassVar[int] = SIZE
    COLUMNS: ClassVar[int] = SIZE
    CHEQUERED: ClassVar[bool] = False

    def __init__(self, theme: Theme | None = None, parent: QWidget | None = None) -> None:
        super().__init__(theme, parent)
        self._edit_cells: list[str] = [EMPTY_CELL] * (SIZE * SIZE)

    def cell_of(self, square: Square) -> Cell:
        return divmod(square, SIZE)

    def square_at(self, cell: Cell) -> Square:
        row, column = cell
        return row * SIZE + column

    def side_colors(self) -> tuple[QColor, QColor]:
        """X's and O's mark colours (the eval bar shows each side in its colour, not in the
        white and black of games whose players are called so)."""
        return QColor(self._theme.color("mark_x")), QColor(self._theme.color("mark_o"))

    def marks(self) -> dict[Square, int]:
        """Square -> player (``X`` = 0, ``O`` = 1) of every mark shown."""
        if self._edit_mode:
            return {square: CYCLE.index(cell) - 1 for square, cell in enumerate(self._edit_cells) if cell != EMPTY_CELL}
        state = self._state
        if not isinstance(state, TicTacToeState):
            return {}
        return {
            square: player
            for player in (X, O)
            for square in range(SIZE * SIZE)
            if state.masks[player] >> square & 1
        }

    def winning_line(self) -> tuple[Square, Square] | None:
        """The two end squares of a completed line, if any."""
        marks = self.marks()
        for line in LINES:
            squares = [square for square in range(SIZE * SIZE) if line >> square & 1]
            owners = {marks.get(square) for square in squares}
            if len(owners) == 1 and None not in owners:
                return squares[0], squares[-1]
        return None

    # ------------------------------------------------------------- input
    def is_clickable(self, square: Square) -> bool:
        return square in self.legal_moves()

    def square_pressed(self, square: Square | None, point: QPointF, button: Qt.MouseButton) -> None:
        if square is None:
            return
        if self._edit_mode:
            step = -1 if button == Qt.MouseButton.RightButton else 1
            current = CYCLE.index(self._edit_cells[square])
            self._edit_cells[square] = CYCLE[(current + step) % len(CYCLE)]
            self.publish_edit("".join(self._edit_cells))
            return
        if button == Qt.MouseButton.LeftButton and self.accepts_moves() and square in self.legal_moves():
            self.request_move(square)

    def load_edit_model(self, state: GameState) -> None:
        self._edit_cells = list(state.to_text())

    # ---------------------------------------------------------- painting
    def paint_background(self, painter: QPainter) -> None:
        geometry = self.grid()
        board = geometry.board_rect
        painter.save()
        pen = QPen(self._theme.color("grid_lines"), geometry.square * GRID_FRACTION)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        painter.setPen(pen)
        inset = geometry.square * 0.08
        for index in (1, 2):
            x = board.left() + index * geometry.square
            y = board.top() + index * geometry.square
            painter.drawLine(QPointF(x, board.top() + inset), QPointF(x, board.bottom() - inset))
            painter.drawLine(QPointF(board.left() + inset, y), QPointF(board.right() - inset, y))
        painter.restore()

    def paint_highlights(self, painter: QPainter) -> None:
        last = self._last_move
        if isinstance(last, int) and 0 <= last < SIZE * SIZE and not self._edit_mode:
            rect = self.square_rect(last)
            inset = rect.width() * 0.1
            painter.save()
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(self._theme.color("last_move"))
            painter.drawRoundedRect(rect.adjusted(inset, inset, -inset, -inset), inset, inset)
            painter.restore()

    def set_last_move(self, move: int | None) -> None:
        """Mark ``move`` as the last one and draw it stroke by stroke, as a pen would."""
        super().set_last_move(move)
        if isinstance(move, int) and move in self.marks():
            self.start_motion(scale=DRAWING_SCALE)

    def paint_pieces(self, painter: QPainter) -> None:
        drawing = self._last_move if self.is_animating() else None
        for square, player in self.marks().items():
            progress = self.motion_progress() if square == drawing else 1.0
            self._paint_mark(painter, self.square_rect(square), player, progress=progress)
        best = self._best_move
        state = self._state
        if isinstance(best, int) and state is not None and not self._edit_mode and best in self.legal_moves():
            self._paint_mark(painter, self.square_rect(best), state.to_move(), GHOST_ALPHA)
        hover = self.hover_square()
        if state is not None and hover is not None and hover != best and self.accepts_moves() and hover in self.legal_moves():
            self._paint_mark(painter, self.square_rect(hover), state.to_move(), HOVER_ALPHA)

    def _paint_mark(
        self, painter: QPainter, cell: QRectF, player: int, opacity: float = 1.0, progress: float = 1.0
    ) -> None:
        """X as two strokes, O as a circle; ``progress`` < 1 draws only that much of it."""
        size = cell.width() * MARK_FRACTION
        rect = QRectF(0, 0, size, size)
        rect.moveCenter(cell.center())
        colour = QColor(self._theme.color("mark_x" if player == X else "mark_o"))
        pen = QPen(colour, cell.width() * STROKE_FRACTION)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        painter.save()
        painter.setOpacity(opacity)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        if player == X:
            first = QLineF(rect.topLeft(), rect.bottomRight())
            second = QLineF(rect.topRight(), rect.bottomLeft())
            painter.drawLine(QLineF(first.p1(), first.pointAt(min(1.0, progress * 2))))
            if progress > 0.5:
                painter.drawLine(QLineF(second.p1(), second.pointAt(progress * 2 - 1)))
        elif progress >= 1.0:
            painter.drawEllipse(rect)
        else:  # from the top, anticlockwise (Qt's angles are in 1/16 degree)
            painter.drawArc(rect, 90 * 16, round(360 * 16 * progress))
        painter.restore()

    def paint_overlays(self, painter: QPainter) -> None:
        line = self.winning_line()
        if line is None:
            return
        start, end = (self.square_centre(square) for square in line)
        segment = QLineF(start, end)
        extra = self.grid().square * 0.35 / max(segment.length(), 1.0)
        stretched = QLineF(segment.pointAt(-extra), segment.pointAt(1 + extra))
        pen = QPen(self._theme.color("win_line"), self.grid().square * WIN_LINE_FRACTION)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        painter.save()
        painter.setPen(pen)
        painter.drawLine(stretched)
        painter.restore()


__all__ = ["TicTacToeBoard"]
