"""The chess board: drag-and-drop and click-click, as on Lichess.

* Press on one of the side to move's pieces to select it (its legal destinations get dots,
  captures get corner marks); drag it to a destination, or release and click the
  destination.
* Castling: move the king two squares, or onto its own rook.
* Promotion: a chooser of the four pieces opens over the promotion file; click one (or
  anywhere else to cancel).
* Edit mode: a palette of the twelve pieces, an eraser and the side to move under the
  board; a click with a piece puts it on the square (or takes it off if the same piece is
  there), right-click empties a square. Castling rights follow the kings and rooks standing
  on their home squares. Each valid position is emitted with ``position_edited``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import chess
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen, QRadialGradient
from PySide6.QtWidgets import QWidget

from games.base import GameState
from gui.boards.base import DRAG_THRESHOLD, Cell, GridBoard
from gui.resources import chess_pieces
from gui.theme import Theme

PROMOTION_CHOICES: tuple[chess.PieceType, ...] = (chess.QUEEN, chess.KNIGHT, chess.ROOK, chess.BISHOP)
"""Top to bottom in the chooser, as Lichess orders them."""
CAPTURE_HOLE_FRACTION = 0.42
"""Radius of the hole in a capture mark (Lichess's corner triangles), in squares."""
DRAG_GHOST_OPACITY = 0.3
ERASE_TOOL = "erase"
TURN_TOOL = "turn"
CLEAR_TOOL = "clear"
START_TOOL = "start"
PIECE_TOOLS: tuple[str, ...] = tuple("KQRBNP") + tuple("kqrbnp")
CASTLING_ROOK_SQUARES: dict[tuple[chess.PieceType, chess.Square, chess.Square], tuple[chess.Square, chess.Square]] = {
    (chess.KING, chess.E1, chess.G1): (chess.H1, chess.F1),
    (chess.KING, chess.E1, chess.C1): (chess.A1, chess.D1),
    (chess.KING, chess.E8, chess.G8): (chess.H8, chess.F8),
    (chess.KING, chess.E8, chess.C8): (chess.A8, chess.D8),
}
"""(king, from, to) of each castling -> the rook's (from, to), for the slide animation."""


def castling_rook_square(board: chess.Board, move: chess.Move) -> chess.Square | None:
    """The rook's square of a castling ``move`` (``e1g1`` -> h1), else ``None``."""
    if not board.is_castling(move):
        return None
    rank = chess.square_rank(move.from_square)
    return chess.square(7 if chess.square_file(move.to_square) > chess.square_file(move.from_square) else 0, rank)


class ChessBoard(GridBoard):
    """A chess board for ``games.chess_game.ChessState``."""

    SUPPORTS_EDIT: ClassVar[bool] = True
    GAME: ClassVar[str] = "chess"
    BOTTOM_PLAYER: ClassVar[int | None] = 0  # White

    def __init__(self, theme: Theme | None = None, parent: QWidget | None = None) -> None:
        super().__init__(theme, parent)
        self._selected: chess.Square | None = None
        self._press_square: chess.Square | None = None
        self._press_point: QPointF | None = None
        self._was_selected = False
        self._dragging = False
        self._drag_point: QPointF | None = None
        self._promotion: tuple[chess.Square, chess.Square, list[chess.Move]] | None = None
        self._edit_board: chess.Board | None = None
        self._dropped_move: chess.Move | None = None
        self._sliding: list[tuple[str, chess.Square, chess.Square]] = []

    # ----------------------------------------------------------- mapping
    def cell_of(self, square: chess.Square) -> Cell:
        return 7 - chess.square_rank(square), chess.square_file(square)

    def square_at(self, cell: Cell) -> chess.Square:
        row, column = cell
        return chess.square(column, 7 - row)

    # --------------------------------------------------------- animation
    def set_last_move(self, move: chess.Move | None) -> None:
        """Highlight ``move`` and, if the board is on screen, slide its piece (and a
        castling rook) there, unless the player just dropped it there by hand."""
        super().set_last_move(move)
        dropped, self._dropped_move = self._dropped_move, None
        board = self.board()
        if not (isinstance(move, chess.Move) and move and board is not None) or move == dropped:
            return
        piece = board.piece_at(move.to_square)
        if piece is None:
            return
        sliding = [(piece.symbol(), move.from_square, move.to_square)]
        rook_squares = CASTLING_ROOK_SQUARES.get((piece.piece_type, move.from_square, move.to_square))
        if rook_squares is not None:
            rook = board.piece_at(rook_squares[1])
            if rook is not None:
                sliding.append((rook.symbol(), *rook_squares))
        if self.start_motion():
            self._sliding = sliding

    def motion_finished(self) -> None:
        self._sliding = []

    def request_move(self, move: object) -> None:
        if self._dragging:
            self._dropped_move = move  # type: ignore[assignment]
        super().request_move(move)

    def board(self) -> chess.Board | None:
        """The python-chess board shown (the edited one in edit mode)."""
        if self._edit_mode and self._edit_board is not None:
            return self._edit_board
        state = self._state
        return None if state is None else state.board  # type: ignore[attr-defined]

    # ------------------------------------------------------------- moves
    def reset_interaction(self) -> None:
        self._selected = None
        self._press_square = None
        self._press_point = None
        self._was_selected = False
        self._dragging = False
        self._drag_point = None
        self._promotion = None

    def selected_square(self) -> chess.Square | None:
        return self._selected

    def destinations(self, origin: chess.Square) -> dict[chess.Square, list[chess.Move]]:
        """Squares the piece on ``origin`` can be put on -> the legal moves that does.
        A castling king's own rook square counts too; a promotion square has four moves."""
        board = self.board()
        found: dict[chess.Square, list[chess.Move]] = {}
        if board is None:
            return found
        for move in self.legal_moves():
            if move.from_square != origin:
                continue
            found.setdefault(move.to_square, []).append(move)
            rook = castling_rook_square(board, move)
            if rook is not None:
                found.setdefault(rook, []).append(move)
        return found

    def _can_pick(self, square: chess.Square | None) -> bool:
        board = self.board()
        if square is None or board is None:
            return False
        piece = board.piece_at(square)
        return piece is not None and piece.color == board.turn and any(
            move.from_square == square for move in self.legal_moves()
        )

    def is_clickable(self, square: chess.Square) -> bool:
        if self._selected is not None and square in self.destinations(self._selected):
            return True
        return self._can_pick(square)

    def _try_move(self, origin: chess.Square, target: chess.Square) -> bool:
        moves = self.destinations(origin).get(target, [])
        if not moves:
            return False
        if len(moves) == 1:
            self.request_move(moves[0])
        else:  # the four promotions
            self._promotion = (origin, target, moves)
            self._selected = origin
        return True

    def is_promotion_pending(self) -> bool:
        return self._promotion is not None

    def promotion_rects(self) -> list[tuple[chess.PieceType, QRectF]]:
        """The chooser's cells (piece type, rect) while a promotion is pending."""
        if self._promotion is None:
            return []
        _, target, _ = self._promotion
        geometry = self.grid()
        first = geometry.cell_rect(self.cell_of(target))
        downward = first.top() < geometry.board_rect.center().y()
        step = geometry.square if downward else -geometry.square
        return [(piece, first.translated(0, index * step)) for index, piece in enumerate(PROMOTION_CHOICES)]

    def choose_promotion(self, piece_type: chess.PieceType) -> None:
        """Finish the pending promotion with ``piece_type`` (what a click in the chooser does)."""
        if self._promotion is None:
            raise ValueError("no promotion is pending")
        for move in self._promotion[2]:
            if move.promotion == piece_type:
                self.request_move(move)
                return
        raise ValueError(f"{chess.piece_name(piece_type)} is not a promotion choice here")

    # ------------------------------------------------------------- mouse
    def square_pressed(self, square: chess.Square | None, point: QPointF, button: Qt.MouseButton) -> None:
        if self._edit_mode:
            self._edit_press(square, button)
            return
        if button != Qt.MouseButton.LeftButton:
            self.reset_interaction()
            return
        if self._promotion is not None:
            for piece_type, rect in self.promotion_rects():
                if rect.contains(point):
                    self.choose_promotion(piece_type)
                    return
            self.reset_interaction()
            return
        if not self.accepts_moves():
            self.reset_interaction()
            return
        if self._selected is not None and square is not None and square != self._selected:
            if self._try_move(self._selected, square):
                return
        if self._can_pick(square):
            self._was_selected = self._selected == square
            self._selected = square
            self._press_square = square
            self._press_point = point
            self._dragging = False
        else:
            self.reset_interaction()

    def pointer_moved(self, point: QPointF, dragging: bool) -> None:
        if self._press_square is None or not dragging:
            return
        if not self._dragging and self._press_point is not None:
            moved = point - self._press_point
            if abs(moved.x()) + abs(moved.y()) < DRAG_THRESHOLD:
                return
            self._dragging = True
        self._drag_point = point
        self.update()

    def square_released(self, square: chess.Square | None, point: QPointF, button: Qt.MouseButton) -> None:
        origin = self._press_square
        if origin is None or button != Qt.MouseButton.LeftButton:
            return
        self._press_square = None
        if self._dragging:
            self._drag_point = None
            moved = square is not None and square != origin and self._try_move(origin, square)
            self._dragging = False
            if moved:
                return
        elif square == origin and self._was_selected:
            self._selected = None  # a second click on the selected piece lets go of it
        self._was_selected = False

    # -------------------------------------------------------------- edit
    def load_edit_model(self, state: GameState) -> None:
        self._edit_board = state.board.copy(stack=False)  # type: ignore[attr-defined]

    def edit_tools(self) -> Sequence[str]:
        return (*PIECE_TOOLS, ERASE_TOOL, TURN_TOOL, START_TOOL, CLEAR_TOOL)

    def edit_tool_tip(self, tool: str) -> str:
        if tool in PIECE_TOOLS:
            piece = chess.Piece.from_symbol(tool)
            return f"{'White' if piece.color else 'Black'} {chess.piece_name(piece.piece_type)}: click squares to place it"
        board = self._edit_board
        side = "White" if board is None or board.turn else "Black"
        return {
            ERASE_TOOL: "Eraser: click a square to empty it (or right-click any square)",
            TURN_TOOL: f"{side} to move: click to change",
            START_TOOL: "The starting position",
            CLEAR_TOOL: "Clear the board",
        }[tool]

    def edit_tool_clicked(self, tool: str) -> None:
        board = self._edit_board
        if tool in (TURN_TOOL, START_TOOL, CLEAR_TOOL):
            if board is not None:
                if tool == TURN_TOOL:
                    board.turn = not board.turn
                elif tool == START_TOOL:
                    board.reset()
                else:
                    board.clear()
                self._publish()
            return
        self.set_edit_tool(tool)

    def _edit_press(self, square: chess.Square | None, button: Qt.MouseButton) -> None:
        board = self._edit_board
        if square is None or board is None:
            return
        tool = self._edit_tool
        if button == Qt.MouseButton.RightButton or tool == ERASE_TOOL:
            board.remove_piece_at(square)
        elif tool in PIECE_TOOLS:
            piece = chess.Piece.from_symbol(tool)
            if board.piece_at(square) == piece:
                board.remove_piece_at(square)
            else:
                board.set_piece_at(square, piece)
        else:
            return
        self._publish()

    def _publish(self) -> None:
        board = self._edit_board
        if board is None:
            return
        board.ep_square = None
        board.set_castling_fen("KQkq")
        board.castling_rights = board.clean_castling_rights()
        self.publish_edit(board.fen())
        self.update()

    def paint_edit_tool(self, painter: QPainter, tool: str, rect: QRectF) -> None:
        inner = rect.adjusted(rect.width() * 0.06, rect.height() * 0.06, -rect.width() * 0.06, -rect.height() * 0.06)
        if tool in PIECE_TOOLS:
            painter.drawPixmap(inner.topLeft(), chess_pieces().pixmap(tool, inner.width(), self.device_pixel_ratio()))
        elif tool == ERASE_TOOL:
            self._paint_cross(painter, inner)
        elif tool == TURN_TOOL:
            board = self._edit_board
            white = board is None or board.turn == chess.WHITE
            radius = inner.width() * 0.3
            painter.save()
            painter.setPen(self._theme.color("text"))
            painter.setBrush(QColor("#ffffff") if white else QColor("#222222"))
            painter.drawEllipse(inner.center(), radius, radius)
            painter.restore()
        elif tool in (START_TOOL, CLEAR_TOOL):
            self._paint_mini_board(painter, inner, full=tool == START_TOOL)

    def _paint_mini_board(self, painter: QPainter, rect: QRectF, full: bool) -> None:
        """A 4x4 board icon: with two rows of men each side (start) or empty (clear)."""
        side = rect.width() * 0.64
        board = QRectF(0, 0, side, side)
        board.moveCenter(rect.center())
        cell = side / 4
        painter.save()
        painter.setPen(Qt.PenStyle.NoPen)
        for row in range(4):
            for column in range(4):
                square = QRectF(board.left() + column * cell, board.top() + row * cell, cell, cell)
                painter.setBrush(QColor(self._theme.board.dark if (row + column) % 2 else self._theme.board.light))
                painter.drawRect(square)
                if full and row in (0, 3):
                    painter.setBrush(QColor("#222222") if row == 0 else QColor("#ffffff"))
                    painter.drawEllipse(square.center(), cell * 0.3, cell * 0.3)
        painter.restore()

    def _paint_cross(self, painter: QPainter, rect: QRectF) -> None:
        painter.save()
        pen = QPen(self._theme.color("edit_problem"), rect.width() * 0.1)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        painter.setPen(pen)
        margin = rect.width() * 0.28
        inner = rect.adjusted(margin, margin, -margin, -margin)
        painter.drawLine(inner.topLeft(), inner.bottomRight())
        painter.drawLine(inner.topRight(), inner.bottomLeft())
        painter.restore()

    # ---------------------------------------------------------- painting
    def paint_highlights(self, painter: QPainter) -> None:
        board = self.board()
        if board is None:
            return
        theme = self._theme
        last = self._last_move
        if isinstance(last, chess.Move) and last and not self._edit_mode:
            for square in (last.from_square, last.to_square):
                self.fill_square(painter, square, theme.color("last_move"))
        if self._selected is not None:
            self.fill_square(painter, self._selected, theme.color("selection"))
            if self._dragging and self._drag_point is not None:
                hovered = self.square_at_point(self._drag_point)
                if hovered is not None and hovered in self.destinations(self._selected):
                    self.fill_square(painter, hovered, theme.color("hover"))
        if not self._edit_mode and self._state is not None and self._state.is_in_check():
            king = board.king(board.turn)
            if king is not None:
                self.draw_glow(painter, king, theme.color("check"))

    def paint_pieces(self, painter: QPainter) -> None:
        board = self.board()
        if board is None:
            return
        pieces = chess_pieces()
        ratio = self.device_pixel_ratio()
        size = self.grid().square
        arriving = {target for _, _, target in self._sliding}
        for square, piece in board.piece_map().items():
            if square in arriving:
                continue
            rect = self.square_rect(square)
            if self._dragging and square == self._selected:
                painter.setOpacity(DRAG_GHOST_OPACITY)
            painter.drawPixmap(rect.topLeft(), pieces.pixmap(piece.symbol(), size, ratio))
            painter.setOpacity(1.0)
        if self._sliding:
            progress = self.motion_progress()
            for symbol, origin, target in self._sliding:
                start, end = self.square_rect(origin).topLeft(), self.square_rect(target).topLeft()
                painter.drawPixmap(start + (end - start) * progress, pieces.pixmap(symbol, size, ratio))
        if self._selected is not None and not self._edit_mode:
            self._paint_destinations(painter, board)

    def _paint_destinations(self, painter: QPainter, board: chess.Board) -> None:
        colour = self._theme.color("legal_destination")
        assert self._selected is not None
        for target in self.destinations(self._selected):
            occupied = board.piece_at(target) is not None
            rook = board.piece_at(target)
            is_own_rook = rook is not None and rook.color == board.turn
            if occupied and not is_own_rook:
                self._paint_capture_mark(painter, target, colour)
            else:
                self.draw_dot(painter, target, colour)

    def _paint_capture_mark(self, painter: QPainter, square: chess.Square, colour: QColor) -> None:
        """Lichess's capture mark: the square filled except a round hole over the piece."""
        rect = self.square_rect(square)
        path = QPainterPath()
        path.addRect(rect)
        hole = QPainterPath()
        radius = rect.width() * CAPTURE_HOLE_FRACTION * 1.2
        hole.addEllipse(rect.center(), radius, radius)
        painter.save()
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(colour)
        painter.drawPath(path.subtracted(hole))
        painter.restore()

    def move_squares(self, move: object) -> tuple[chess.Square, ...]:
        """A chess move is drawn from its square to its square."""
        return (move.from_square, move.to_square) if isinstance(move, chess.Move) and move else ()

    def paint_overlays(self, painter: QPainter) -> None:
        best = self._best_move
        if isinstance(best, chess.Move) and best and not self._edit_mode:
            self.draw_arrow(painter, (best.from_square, best.to_square), self._theme.color("best_move_arrow"))
        board = self.board()
        if self._dragging and self._drag_point is not None and self._selected is not None and board is not None:
            piece = board.piece_at(self._selected)
            if piece is not None:
                size = self.grid().square
                pixmap = chess_pieces().pixmap(piece.symbol(), size, self.device_pixel_ratio())
                painter.drawPixmap(self._drag_point - QPointF(size / 2, size / 2), pixmap)
        if self._promotion is not None and board is not None:
            self._paint_promotion(painter, board)

    def _paint_promotion(self, painter: QPainter, board: chess.Board) -> None:
        geometry = self.grid()
        painter.save()
        painter.setPen(Qt.PenStyle.NoPen)
        painter.fillRect(geometry.board_rect, QColor(0, 0, 0, 110))
        colour = board.turn
        for piece_type, rect in self.promotion_rects():
            gradient = QRadialGradient(rect.center(), rect.width() * 0.5)
            gradient.setColorAt(0.0, QColor("#ffffff"))
            gradient.setColorAt(0.8, QColor("#b0b0b0"))
            gradient.setColorAt(1.0, QColor("#808080"))
            painter.setBrush(gradient)
            painter.drawEllipse(rect.adjusted(1, 1, -1, -1))
            symbol = chess.Piece(piece_type, colour).symbol()
            inner = rect.adjusted(rect.width() * 0.08, rect.height() * 0.08, -rect.width() * 0.08, -rect.height() * 0.08)
            painter.drawPixmap(inner.topLeft(), chess_pieces().pixmap(symbol, inner.width(), self.device_pixel_ratio()))
        painter.restore()


__all__ = ["ChessBoard", "castling_rook_square"]
