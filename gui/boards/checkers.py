"""The checkers board: click a piece, then where it goes, or drag it there; a multi-jump hop by hop.

* When captures are mandatory, the pieces that can capture are ringed.
* Click a piece that can move: dots mark its next landing squares. For a multi-jump, click
  each landing in turn; after the first hop only the continuations are shown, the piece is
  drawn where it stands and the men jumped so far fade. The move is emitted as soon as the
  clicked hops leave exactly one legal move (the rest of its path is forced). Clicking the
  final square of a capture directly works too when only one path leads there.
* Dragging does the same as clicking: press on the piece, drop it on a landing square (or
  on the final square when one path leads there); in a multi-jump drag it on from where it
  stands, hop by hop. A press and release on the same square is a click.
* Square numbers (PDN) are written small in the corner of the empty dark squares (never
  under a piece, where they would be half hidden): checkers players name squares by number. Kings wear a crown.
* Edit mode: palette of black/white men and kings, an eraser and the side to move.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen, QPixmap, QRadialGradient
from PySide6.QtWidgets import QWidget

from games.base import GameState
from games.checkers import BLACK, WHITE, CheckersMove, square_at, square_column, square_row
from games.checkers.notation import ParsedPosition, format_fen
from gui.boards.base import DRAG_THRESHOLD, MIN_TEXT_PIXELS, Cell, GridBoard, text_font
from gui.theme import Theme

Square = int
Piece = tuple[int, bool]
"""(owner, is_king), as ``CheckersState.piece_at`` says."""

PIECE_FRACTION = 0.78
"""Diameter of a piece, in squares."""
NUMBER_FRACTION = 0.2
"""Height of the square numbers, in squares."""
NUMBER_MIN_SQUARE = 2.2 * MIN_TEXT_PIXELS
"""Squares smaller than this (pixels) have no room for a readable number: none is drawn."""
JUMPED_OPACITY = 0.35
DRAG_GHOST_OPACITY = 0.3
"""The dragged piece's square shows it faintly, so the player sees where it came from."""
PIECE_CACHE_SIZE = 64
"""Rendered piece pixmaps kept (4 pieces at a few sizes: board, palette, turn marker)."""
ERASE_TOOL = "erase"
TURN_TOOL = "turn"
PIECE_TOOLS: dict[str, Piece] = {"b": (BLACK, False), "B": (BLACK, True), "w": (WHITE, False), "W": (WHITE, True)}


def crown_path(rect: QRectF) -> QPainterPath:
    """A three-pointed crown inside ``rect`` (drawn on kings; no font needed)."""
    x, y, w, h = rect.x(), rect.y(), rect.width(), rect.height()

    def at(fx: float, fy: float) -> QPointF:
        return QPointF(x + fx * w, y + fy * h)

    path = QPainterPath(at(0.14, 0.72))
    for point in ((0.08, 0.28), (0.32, 0.5), (0.5, 0.14), (0.68, 0.5), (0.92, 0.28), (0.86, 0.72)):
        path.lineTo(at(*point))
    path.closeSubpath()
    path.addRoundedRect(QRectF(at(0.14, 0.78), at(0.86, 0.92)), w * 0.03, w * 0.03)
    for fx, fy in ((0.08, 0.28), (0.5, 0.14), (0.92, 0.28)):
        path.addEllipse(at(fx, fy), w * 0.06, w * 0.06)
    return path.simplified()


class CheckersBoard(GridBoard):
    """A board for ``games.checkers.CheckersState`` (PDN diagram: Black at the top)."""

    SUPPORTS_EDIT: ClassVar[bool] = True
    GAME: ClassVar[str] = "checkers"
    BOTTOM_PLAYER: ClassVar[int | None] = WHITE

    def __init__(self, theme: Theme | None = None, parent: QWidget | None = None) -> None:
        super().__init__(theme, parent)
        self._path: tuple[Square, ...] = ()
        self._press_point: QPointF | None = None
        """Where the press that may start a drag of the selected piece was."""
        self._drag_point: QPointF | None = None
        """Where the dragged piece is drawn (None: not dragging)."""
        self._was_selected = False
        """The pressed piece was selected before the press (a click on it lets go of it)."""
        self._edit_pieces: dict[Square, Piece] = {}
        self._edit_player = BLACK
        self._requested: CheckersMove | None = None
        self._sliding: tuple[Piece, tuple[Square, ...]] | None = None
        self._piece_pixmaps: dict[tuple[Piece, int, float, str, str, str], QPixmap] = {}

    # ----------------------------------------------------------- mapping
    def cell_of(self, square: Square) -> Cell:
        return square_row(square), square_column(square)

    def square_at(self, cell: Cell) -> Square | None:
        return square_at(*cell)

    def file_labels(self) -> Sequence[str]:
        return ()

    def rank_labels(self) -> Sequence[str]:
        return ()

    def pieces(self) -> dict[Square, Piece]:
        """The pieces shown (the edited ones in edit mode)."""
        if self._edit_mode:
            return dict(self._edit_pieces)
        state = self._state
        return {} if state is None else state.pieces()  # type: ignore[attr-defined]

    # --------------------------------------------------------- animation
    def set_last_move(self, move: CheckersMove | None) -> None:
        """Highlight ``move`` and slide its piece hop by hop, unless the player just
        entered it on this board."""
        super().set_last_move(move)
        requested, self._requested = self._requested, None
        state = self._state
        if not isinstance(move, CheckersMove) or state is None or move == requested:
            return
        piece = state.pieces().get(move.destination)  # type: ignore[attr-defined]
        if piece is not None and self.start_motion(scale=len(move.path) - 1):
            self._sliding = (piece, move.path)

    def motion_finished(self) -> None:
        self._sliding = None

    def request_move(self, move: object) -> None:
        self._requested = move  # type: ignore[assignment]
        super().request_move(move)

    # ------------------------------------------------------------- moves
    def reset_interaction(self) -> None:
        self._path = ()
        self._press_point = None
        self._drag_point = None
        self._was_selected = False

    def is_dragging(self) -> bool:
        return self._drag_point is not None

    def entered_path(self) -> tuple[Square, ...]:
        """The squares clicked so far: the piece, then each hop entered."""
        return self._path

    def candidates(self) -> list[CheckersMove]:
        """Legal moves that start with the entered path."""
        path = self._path
        return [move for move in self.legal_moves() if move.path[: len(path)] == path] if path else []

    def next_hops(self) -> set[Square]:
        """Where the next click may land (the squares that get dots)."""
        depth = len(self._path)
        return {move.path[depth] for move in self.candidates() if len(move.path) > depth}

    def forced_capture_squares(self) -> set[Square]:
        """The pieces that can capture when capturing is mandatory (empty otherwise)."""
        moves = self.legal_moves()
        if not moves or not moves[0].is_capture:
            return set()
        return {move.origin for move in moves}

    def is_clickable(self, square: Square) -> bool:
        if self._path and (square in self.next_hops() or square == self._path[-1]):
            return True
        return self._movable(square)

    def _movable(self, square: Square | None) -> bool:
        return square is not None and any(move.origin == square for move in self.legal_moves())

    def square_pressed(self, square: Square | None, point: QPointF, button: Qt.MouseButton) -> None:
        if self._edit_mode:
            self._edit_press(square, button)
            return
        if button != Qt.MouseButton.LeftButton or not self.accepts_moves() or square is None:
            self.reset_interaction()
            return
        if self._path and self._land(square):
            return
        if self._path and square == self._path[-1]:
            # the piece being moved, where it stands: a drag may take it on
            self._was_selected = True
        elif self._movable(square):
            self._was_selected = self._path == (square,)
            self._path = (square,)
        else:
            self.reset_interaction()
            return
        self._press_point = point
        self._drag_point = None

    def pointer_moved(self, point: QPointF, dragging: bool) -> None:
        if self._press_point is None or not dragging or not self._path:
            return
        if self._drag_point is None:
            moved = point - self._press_point
            if abs(moved.x()) + abs(moved.y()) < DRAG_THRESHOLD:
                return
        self._drag_point = point
        self.update()

    def square_released(self, square: Square | None, point: QPointF, button: Qt.MouseButton) -> None:
        if button != Qt.MouseButton.LeftButton or self._press_point is None:
            return
        was_dragging, was_selected = self._drag_point is not None, self._was_selected
        self._press_point = self._drag_point = None
        self._was_selected = False
        if not self._path or square is None:
            return
        if was_dragging:
            if square != self._path[-1]:
                self._land(square)  # dropped where it cannot go: it stays picked up
        elif square == self._path[0] and len(self._path) == 1 and was_selected:
            self._path = ()  # a second click on the selected piece lets go of it

    def _land(self, square: Square) -> bool:
        """Put the piece being moved on ``square`` if it may land there: the next hop, or
        the final square of the only path that leads there. Whether it did."""
        if square in self.next_hops():
            self._advance(square)
            return True
        finishing = [move for move in self.candidates() if move.destination == square]
        if len(finishing) == 1 and len(self._path) < len(finishing[0].path):
            self.request_move(finishing[0])
            return True
        return False

    def _advance(self, square: Square) -> None:
        path = self._path + (square,)
        remaining = [move for move in self.legal_moves() if move.path[: len(path)] == path]
        if len(remaining) == 1:
            self.request_move(remaining[0])
        else:
            self._path = path
            self._press_point = self._drag_point = None

    # -------------------------------------------------------------- edit
    def load_edit_model(self, state: GameState) -> None:
        self._edit_pieces = state.pieces()  # type: ignore[attr-defined]
        self._edit_player = state.to_move()

    def edit_tools(self) -> Sequence[str]:
        return (*PIECE_TOOLS, ERASE_TOOL, TURN_TOOL)

    def edit_tool_tip(self, tool: str) -> str:
        if tool in PIECE_TOOLS:
            owner, is_king = PIECE_TOOLS[tool]
            return f"{'Black' if owner == BLACK else 'White'} {'king' if is_king else 'man'}: click squares to place it"
        if tool == ERASE_TOOL:
            return "Eraser: click a square to empty it (or right-click any square)"
        return f"{'Black' if self._edit_player == BLACK else 'White'} to move: click to change"

    def edit_tool_clicked(self, tool: str) -> None:
        if tool == TURN_TOOL:
            self._edit_player = 1 - self._edit_player
            self._publish()
            return
        self.set_edit_tool(tool)

    def _edit_press(self, square: Square | None, button: Qt.MouseButton) -> None:
        if square is None:
            return
        tool = self._edit_tool
        if button == Qt.MouseButton.RightButton or tool == ERASE_TOOL:
            self._edit_pieces.pop(square, None)
        elif tool in PIECE_TOOLS:
            piece = PIECE_TOOLS[tool]
            if self._edit_pieces.get(square) == piece:
                del self._edit_pieces[square]
            else:
                self._edit_pieces[square] = piece
        else:
            return
        self._publish()

    def _publish(self) -> None:
        men: tuple[set[Square], set[Square]] = (set(), set())
        kings: tuple[set[Square], set[Square]] = (set(), set())
        for square, (owner, is_king) in self._edit_pieces.items():
            (kings if is_king else men)[owner].add(square)
        position = ParsedPosition(
            self._edit_player, (frozenset(men[0]), frozenset(men[1])), (frozenset(kings[0]), frozenset(kings[1]))
        )
        self.publish_edit(format_fen(position))
        self.update()

    def paint_edit_tool(self, painter: QPainter, tool: str, rect: QRectF) -> None:
        if tool in PIECE_TOOLS:
            self._paint_piece(painter, rect, PIECE_TOOLS[tool])
        elif tool == ERASE_TOOL:
            pen = QPen(self._theme.color("edit_problem"), rect.width() * 0.1)
            pen.setCapStyle(Qt.PenCapStyle.RoundCap)
            painter.save()
            painter.setPen(pen)
            margin = rect.width() * 0.3
            inner = rect.adjusted(margin, margin, -margin, -margin)
            painter.drawLine(inner.topLeft(), inner.bottomRight())
            painter.drawLine(inner.topRight(), inner.bottomLeft())
            painter.restore()
        elif tool == TURN_TOOL:
            shrink = rect.width() * 0.2
            self._paint_piece(painter, rect.adjusted(shrink, shrink, -shrink, -shrink), (self._edit_player, False))

    # ---------------------------------------------------------- painting
    def paint_background(self, painter: QPainter) -> None:
        super().paint_background(painter)
        geometry = self.grid()
        if not self.coordinates_visible() or geometry.square < NUMBER_MIN_SQUARE:
            return
        painter.save()
        painter.setFont(text_font(geometry.square * NUMBER_FRACTION))
        painter.setPen(QColor(self._theme.board.coordinates_on_dark))
        pad = geometry.square * 0.06
        occupied = set(self.shown_pieces()[0])
        for square in range(1, 33):
            if square in occupied:  # under a piece a number is half hidden: PDN boards skip it
                continue
            rect = self.square_rect(square).adjusted(pad, pad * 0.5, -pad, -pad)
            painter.drawText(rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, str(square))
        painter.restore()

    def paint_highlights(self, painter: QPainter) -> None:
        theme = self._theme
        last = self._last_move
        if isinstance(last, CheckersMove) and not self._edit_mode:
            for square in (last.origin, last.destination):
                self.fill_square(painter, square, theme.color("last_move"))
        if self._path:
            for square in self._path:
                self.fill_square(painter, square, theme.color("selection"))
        elif self.accepts_moves():
            for square in self.forced_capture_squares():
                self.draw_ring(painter, square, theme.color("forced_capture"), 0.07)

    def shown_pieces(self) -> tuple[dict[Square, Piece], set[Square]]:
        """The pieces where they are drawn now (a piece being moved hop by hop stands on its
        last hop, a sliding one is off the board) and the squares jumped so far."""
        pieces = self.pieces()
        jumped: set[Square] = set()
        candidates = self.candidates()
        if len(self._path) > 1 and candidates:
            jumped.update(candidates[0].captured[: len(self._path) - 1])
            moving = pieces.pop(self._path[0], None)
            if moving is not None:
                pieces[self._path[-1]] = moving
        sliding = self._sliding
        if sliding is not None:
            pieces.pop(sliding[1][-1], None)
        return pieces, jumped

    def paint_pieces(self, painter: QPainter) -> None:
        pieces, jumped = self.shown_pieces()
        sliding = self._sliding
        dragged = self._path[-1] if self._path and self._drag_point is not None else None
        for square, piece in pieces.items():
            if square in jumped:
                painter.setOpacity(JUMPED_OPACITY)
            elif square == dragged:
                painter.setOpacity(DRAG_GHOST_OPACITY)
            self._paint_piece(painter, self.square_rect(square), piece)
            painter.setOpacity(1.0)
        if sliding is not None:
            piece, path = sliding
            legs = len(path) - 1
            position = self.motion_progress() * legs
            leg = min(int(position), legs - 1)
            start, end = self.square_rect(path[leg]), self.square_rect(path[leg + 1])
            fraction = position - leg
            self._paint_piece(painter, start.translated((end.topLeft() - start.topLeft()) * fraction), piece)
        if self._path:
            colour = self._theme.color("legal_destination")
            for square in self.next_hops():
                self.draw_dot(painter, square, colour)

    def _paint_piece(self, painter: QPainter, cell: QRectF, piece: Piece) -> None:
        """Blit ``piece`` into ``cell`` from a pixmap rendered once per size, ratio and theme."""
        ratio = self.device_pixel_ratio()
        pixels = max(1, round(cell.width() * ratio))
        theme = self._theme
        key = (piece, pixels, ratio, theme.checker_dark, theme.checker_light, theme.crown)
        pixmap = self._piece_pixmaps.get(key)
        if pixmap is None:
            if len(self._piece_pixmaps) > PIECE_CACHE_SIZE:
                self._piece_pixmaps.clear()
            pixmap = QPixmap(pixels, pixels)
            pixmap.fill(Qt.GlobalColor.transparent)
            pixmap_painter = QPainter(pixmap)
            pixmap_painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            self._draw_piece(pixmap_painter, QRectF(0, 0, pixels, pixels), piece)
            pixmap_painter.end()
            pixmap.setDevicePixelRatio(ratio)
            self._piece_pixmaps[key] = pixmap
        painter.drawPixmap(cell.topLeft(), pixmap)

    def _draw_piece(self, painter: QPainter, cell: QRectF, piece: Piece) -> None:
        """A man (a disc with a rim, a soft light and a groove), or a king with a crown."""
        owner, is_king = piece
        theme = self._theme
        base = QColor(theme.checker_dark if owner == BLACK else theme.checker_light)
        size = cell.width() * PIECE_FRACTION
        rect = QRectF(0, 0, size, size)
        rect.moveCenter(cell.center())
        edge = base.darker(160) if owner == WHITE else base.lighter(60)
        painter.save()
        painter.setPen(Qt.PenStyle.NoPen)
        # A thin shadow under the rim, then the rim, then the face with a soft light.
        shadow = rect.translated(0, size * 0.035)
        painter.setBrush(QColor(0, 0, 0, 70))
        painter.drawEllipse(shadow)
        painter.setBrush(edge)
        painter.drawEllipse(rect)
        face = rect.adjusted(size * 0.05, size * 0.05, -size * 0.05, -size * 0.05)
        gradient = QRadialGradient(face.center() - QPointF(size * 0.15, size * 0.18), size * 0.75)
        gradient.setColorAt(0.0, base.lighter(135 if owner == BLACK else 108))
        gradient.setColorAt(1.0, base.darker(115))
        painter.setBrush(gradient)
        painter.drawEllipse(face)
        groove = QPen(base.darker(140) if owner == WHITE else base.lighter(170), max(1.0, size * 0.025))
        painter.setPen(groove)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawEllipse(face.adjusted(size * 0.12, size * 0.12, -size * 0.12, -size * 0.12))
        if is_king:
            crown_rect = face.adjusted(size * 0.19, size * 0.2, -size * 0.19, -size * 0.18)
            gold = theme.color("crown")
            painter.setPen(QPen(gold.darker(170), max(1.0, size * 0.02)))
            painter.setBrush(gold)
            painter.drawPath(crown_path(crown_rect))
        painter.restore()

    def move_squares(self, move: object) -> tuple[Square, ...]:
        """A checkers move is drawn through every square it lands on (a multi-jump's too)."""
        return tuple(move.path) if isinstance(move, CheckersMove) else ()

    def paint_overlays(self, painter: QPainter) -> None:
        best = self._best_move
        if isinstance(best, CheckersMove) and not self._edit_mode:
            self.draw_arrow(painter, best.path, self._theme.color("best_move_arrow"))
        if self._drag_point is not None and self._path:
            piece = self.shown_pieces()[0].get(self._path[-1])
            if piece is not None:
                size = self.grid().square
                cell = QRectF(self._drag_point.x() - size / 2, self._drag_point.y() - size / 2, size, size)
                self._paint_piece(painter, cell, piece)


__all__ = ["CheckersBoard", "crown_path"]
