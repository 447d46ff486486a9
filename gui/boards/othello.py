"""The Othello board: green felt, discs, legal moves as small dots.

Row 1 is at the top and files a-h are written above the board, as in Othello diagrams and
the OBF text. The last move's disc carries a small red dot and the discs it turned over a
faint ring. The disc counts are drawn under the board and exposed (``disc_counts``).

A board cannot click a pass: when the side to move has only the pass, ``must_pass()`` is
True and the app announces it and plays ``PASS`` itself.

Edit mode: a click cycles a square empty -> black -> white -> empty (right-click goes the
other way); the palette holds the side to move.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import ClassVar

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QPainter, QPen, QRadialGradient
from PySide6.QtWidgets import QWidget

from games.base import GameState
from games.othello import BLACK, PASS, WHITE, OthelloState
from gui.boards.base import COORDINATE_FRACTION, Cell, GridBoard, text_font
from gui.theme import Theme

Square = int
SIZE = 8
DISC_FRACTION = 0.84
"""Diameter of a disc, in squares."""
MOVE_DOT_FRACTION = 0.2
LAST_MOVE_DOT_FRACTION = 0.14
FLIPPED_RING_FRACTION = 0.28
STAR_POINTS: tuple[Cell, ...] = ((2, 2), (2, 6), (6, 2), (6, 6))
"""Grid intersections marked with a small dot (the corners of c3, f3, c6 and f6)."""
TURN_TOOL = "turn"
TURN_SCALE = 2.0
"""Turning discs over takes this many times the usual animation length."""
EMPTY, BLACK_DISC, WHITE_DISC = "-", "X", "O"
CYCLE = (EMPTY, BLACK_DISC, WHITE_DISC)


class OthelloBoard(GridBoard):
    """A board for ``games.othello.OthelloState``."""

    SUPPORTS_EDIT: ClassVar[bool] = True
    GAME: ClassVar[str] = "othello"
    CHEQUERED: ClassVar[bool] = False
    FILES_ON_TOP: ClassVar[bool] = True

    def __init__(self, theme: Theme | None = None, parent: QWidget | None = None) -> None:
        super().__init__(theme, parent)
        self._edit_cells: list[str] = [EMPTY] * (SIZE * SIZE)
        self._edit_player = BLACK
        self.show_counts = True
        self._turning: set[Square] = set()

    # ----------------------------------------------------------- mapping
    def cell_of(self, square: Square) -> Cell:
        return divmod(square, SIZE)

    def square_at(self, cell: Cell) -> Square:
        row, column = cell
        return row * SIZE + column

    def rank_labels(self) -> Sequence[str]:
        return [str(row + 1) for row in range(SIZE)]

    def discs(self) -> dict[Square, int]:
        """Square -> owner of every disc shown (the edited ones in edit mode)."""
        if self._edit_mode:
            return {
                square: BLACK if cell == BLACK_DISC else WHITE
                for square, cell in enumerate(self._edit_cells)
                if cell != EMPTY
            }
        state = self._state
        if not isinstance(state, OthelloState):
            return {}
        found: dict[Square, int] = {}
        for owner, board in ((BLACK, state.black), (WHITE, state.white)):
            for square in range(SIZE * SIZE):
                if board >> square & 1:
                    found[square] = owner
        return found

    def disc_counts(self) -> tuple[int, int]:
        """(black discs, white discs) on the board shown."""
        owners = list(self.discs().values())
        return owners.count(BLACK), owners.count(WHITE)

    def must_pass(self) -> bool:
        """The side to move has no move but the pass (the app plays it after a notice)."""
        return self.legal_moves() == [PASS]

    def last_flipped(self) -> set[Square]:
        """The discs the last move turned over (when the shown state's history has it)."""
        state = self._state
        if not isinstance(state, OthelloState) or not state.history or self._last_move is None:
            return set()
        move, flipped, _ = state.history[-1]
        if move != self._last_move or move == PASS:
            return set()
        return {square for square in range(SIZE * SIZE) if flipped >> square & 1}

    # --------------------------------------------------------- animation
    def set_last_move(self, move: int | None) -> None:
        """Mark ``move`` and turn the discs it flipped over, one half-turn."""
        super().set_last_move(move)
        flipped = self.last_flipped()
        if flipped and self.start_motion(scale=TURN_SCALE):
            self._turning = flipped

    def motion_finished(self) -> None:
        self._turning = set()

    # ------------------------------------------------------------- moves
    def is_clickable(self, square: Square) -> bool:
        return square in self.legal_moves()

    def square_pressed(self, square: Square | None, point: QPointF, button: Qt.MouseButton) -> None:
        if self._edit_mode:
            self._edit_press(square, button)
            return
        if square is None or button != Qt.MouseButton.LeftButton or not self.accepts_moves():
            return
        if square in self.legal_moves():
            self.request_move(square)

    # -------------------------------------------------------------- edit
    def load_edit_model(self, state: GameState) -> None:
        text = state.to_text()
        self._edit_cells = list(text[: SIZE * SIZE])
        self._edit_player = state.to_move()

    def edit_tools(self) -> Sequence[str]:
        return (TURN_TOOL,)

    def edit_tool_tip(self, tool: str) -> str:
        side = "Black" if self._edit_player == BLACK else "White"
        return f"{side} to move: click to change. Click a square to cycle empty, black, white."

    def edit_tool_clicked(self, tool: str) -> None:
        if tool == TURN_TOOL:
            self._edit_player = 1 - self._edit_player
            self._publish()

    def _edit_press(self, square: Square | None, button: Qt.MouseButton) -> None:
        if square is None:
            return
        step = -1 if button == Qt.MouseButton.RightButton else 1
        current = CYCLE.index(self._edit_cells[square])
        self._edit_cells[square] = CYCLE[(current + step) % len(CYCLE)]
        self._publish()

    def _publish(self) -> None:
        side = BLACK_DISC if self._edit_player == BLACK else WHITE_DISC
        self.publish_edit("".join(self._edit_cells) + " " + side)
        self.update()

    def paint_edit_tool(self, painter: QPainter, tool: str, rect: QRectF) -> None:
        if tool == TURN_TOOL:
            shrink = rect.width() * 0.18
            self._paint_disc(painter, rect.adjusted(shrink, shrink, -shrink, -shrink), self._edit_player)

    # ---------------------------------------------------------- painting
    def paint_background(self, painter: QPainter) -> None:
        geometry = self.grid()
        board = geometry.board_rect
        theme = self._theme
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        painter.fillRect(board, theme.color("othello_felt"))
        ratio = self.device_pixel_ratio()
        width = max(1.0, round(geometry.square * 0.025 * ratio)) / ratio
        painter.setPen(QPen(theme.color("othello_lines"), width))
        for index in range(SIZE + 1):
            x = board.left() + index * geometry.square
            y = board.top() + index * geometry.square
            painter.drawLine(QPointF(x, board.top()), QPointF(x, board.bottom()))
            painter.drawLine(QPointF(board.left(), y), QPointF(board.right(), y))
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(theme.color("othello_lines"))
        for row, column in STAR_POINTS:
            centre = QPointF(board.left() + column * geometry.square, board.top() + row * geometry.square)
            painter.drawEllipse(centre, geometry.square * 0.07, geometry.square * 0.07)
        painter.restore()

    def paint_highlights(self, painter: QPainter) -> None:
        if self._edit_mode or self._state is None:
            return
        best = self._best_move
        if isinstance(best, int) and best != PASS and 0 <= best < SIZE * SIZE:
            self.draw_ring(painter, best, self._theme.color("best_move_arrow"), 0.08)

    def paint_pieces(self, painter: QPainter) -> None:
        discs = self.discs()
        progress = self.motion_progress()
        for square, owner in discs.items():
            rect = self.square_rect(square)
            if square in self._turning and progress < 1.0:
                # Seen edge-on half-way: squeeze horizontally, old colour until the middle.
                painter.save()
                centre = rect.center()
                painter.translate(centre)
                painter.scale(max(0.02, abs(math.cos(math.pi * progress))), 1.0)
                painter.translate(-centre)
                self._paint_disc(painter, rect, owner if progress >= 0.5 else 1 - owner)
                painter.restore()
            else:
                self._paint_disc(painter, rect, owner)
        if self._edit_mode or self._state is None:
            return
        last = self._last_move
        if isinstance(last, int) and last in discs:
            rect = self.square_rect(last)
            radius = rect.width() * LAST_MOVE_DOT_FRACTION / 2
            painter.save()
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor("#e0342b"))
            painter.drawEllipse(rect.center(), radius, radius)
            painter.restore()
        for square in self.last_flipped():
            flipped_owner = discs.get(square)
            if flipped_owner is None:
                continue
            rect = self.square_rect(square)
            radius = rect.width() * FLIPPED_RING_FRACTION / 2
            colour = QColor(255, 255, 255, 90) if flipped_owner == BLACK else QColor(0, 0, 0, 70)
            painter.save()
            painter.setPen(QPen(colour, max(1.0, rect.width() * 0.025)))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(rect.center(), radius, radius)
            painter.restore()
        if self.accepts_moves():
            mover = self._state.to_move()
            colour = QColor(0, 0, 0, 80) if mover == BLACK else QColor(255, 255, 255, 110)
            hover = self.hover_square()
            for square in self.legal_moves():
                if square == PASS:
                    continue
                if square == hover:  # a preview of the disc the click would put down
                    painter.setOpacity(0.5)
                    self._paint_disc(painter, self.square_rect(square), mover)
                    painter.setOpacity(1.0)
                else:
                    self.draw_dot(painter, square, colour, MOVE_DOT_FRACTION)

    def _paint_disc(self, painter: QPainter, cell: QRectF, owner: int) -> None:
        size = cell.width() * DISC_FRACTION
        rect = QRectF(0, 0, size, size)
        rect.moveCenter(cell.center())
        base = self._theme.color("disc_black" if owner == BLACK else "disc_white")
        painter.save()
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(0, 0, 0, 80))
        painter.drawEllipse(rect.translated(size * 0.02, size * 0.045))
        gradient = QRadialGradient(rect.center() - QPointF(size * 0.18, size * 0.2), size * 0.8)
        gradient.setColorAt(0.0, base.lighter(180) if owner == BLACK else base.lighter(104))
        gradient.setColorAt(0.55, base)
        gradient.setColorAt(1.0, base.darker(110 if owner == BLACK else 118))
        painter.setBrush(gradient)
        painter.drawEllipse(rect)
        painter.restore()

    def paint_overlays(self, painter: QPainter) -> None:
        if self.show_counts and not self._edit_mode:
            self._paint_counts(painter)

    def count_texts(self) -> tuple[str, str]:
        """What the counters under the board say for (black, white): the discs on the board;
        at the end of a game with empty squares, the winner's discs plus those squares, as
        the standard (WOF) scoring credits them (``13 + 51 = 64``): so the counter adds up to
        the margin the game-over line gives (``Black wins by 64``) rather than contradict it."""
        black, white = self.disc_counts()
        texts = [str(black), str(white)]
        empties = SIZE * SIZE - black - white
        state = self._state
        if state is not None and state.is_terminal() and empties and black != white:
            winner = 0 if black > white else 1
            own = (black, white)[winner]
            texts[winner] = f"{own} + {empties} empty = {own + empties}"
        return texts[0], texts[1]

    def final_score(self) -> tuple[int, int] | None:
        """(black, white) by the standard scoring at the end of a game, else ``None``."""
        if self._state is None or not self._state.is_terminal():
            return None
        black, white = self.disc_counts()
        empties = SIZE * SIZE - black - white
        if black > white:
            return black + empties, white
        if white > black:
            return black, white + empties
        return black, white

    def _paint_counts(self, painter: QPainter) -> None:
        """Each side's disc count under the board, centred as one line; the side to move's
        in bold."""
        geometry = self.grid()
        board = geometry.board_rect
        texts = self.count_texts()
        mover = self._state.to_move() if self._state is not None and not self._state.is_terminal() else None
        band = QRectF(board.left(), board.bottom(), board.width(), geometry.margin)
        disc = geometry.margin * 0.62
        gap = geometry.square * 0.5  # between the two counters
        fonts = [text_font(geometry.square * COORDINATE_FRACTION * 1.1, bold=owner == mover) for owner in (BLACK, WHITE)]
        widths = [QFontMetricsF(font).horizontalAdvance(text) for font, text in zip(fonts, texts)]
        spacing = disc * 0.45  # between a disc and its number
        total = 2 * (disc + spacing) + widths[0] + widths[1] + gap
        if total > board.width():  # a narrow board: the counters may use the margins too
            gap = max(disc * 0.5, gap - (total - board.width()))
            total = 2 * (disc + spacing) + widths[0] + widths[1] + gap
        left = band.center().x() - total / 2
        painter.save()
        for owner, text, font, width in zip((BLACK, WHITE), texts, fonts, widths):
            disc_rect = QRectF(left, band.center().y() - disc / 2, disc, disc)
            cell = disc_rect.adjusted(-disc * 0.1, -disc * 0.1, disc * 0.1, disc * 0.1)
            self._paint_disc(painter, cell, owner)
            painter.setPen(QPen(self._theme.color("muted_text"), 1.0))  # visible on any window colour
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(disc_rect)
            painter.setFont(font)
            painter.setPen(self._theme.color("text"))
            text_rect = QRectF(disc_rect.right() + spacing, band.top(), width + 2, band.height())
            painter.drawText(text_rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, text)
            left = text_rect.left() + width + gap
        painter.restore()


__all__ = ["OthelloBoard"]
