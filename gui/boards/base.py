"""The board widget every game shares: state in, intents out.

A board shows a *copy* of a state that it owns for display, and turns clicks and drags into
``move_requested(move)`` where ``move`` is always one of ``state.legal_moves()`` (the board
never builds a move the rules did not produce, and never plays one: the ``GameSession``
does, and sends the new state back with ``set_state``). In edit mode it turns clicks into
positions instead and emits ``position_edited(state)`` for every valid one.

``GridBoard`` adds what the square-grid games share: the geometry (square size from the
widget size, centred, snapped to device pixels so square edges stay sharp), coordinates in a
margin round the board, flipping, the standard highlights, the engine's arrow, an edit
palette strip under the board, one move animation (``start_motion``/``motion_progress``;
only while the board is on screen, never for a move the player just dropped), and the
player's own right-mouse arrows and rings.

A subclass maps its squares to cells and implements the ``square_pressed`` /
``pointer_moved`` / ``square_released`` hooks and the ``paint_*`` steps; a board that is not
a grid (backgammon) subclasses ``BoardWidget`` and implements ``paint`` itself.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from PySide6.QtCore import QEasingCurve, QEvent, QPointF, QRectF, QSize, Qt, QVariantAnimation, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QHelpEvent,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QPainterPathStroker,
    QPaintEvent,
    QPen,
    QPolygonF,
    QRadialGradient,
)
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from games.base import GameError, GameState
from gui.resources import board_font, load_fonts
from gui.theme import LIGHT, Theme

Square = Any
"""A game's own square value (python-chess square, PDN number, Othello index ...)."""
Cell = tuple[int, int]
"""(row, column) in the board's own orientation: row 0 at the top when not flipped."""

MARGIN_FRACTION = 0.34
"""Width of the coordinate margin round a grid board, in squares."""
COORDINATE_FRACTION = 0.24
"""Height of coordinate text, in squares."""
PALETTE_FRACTION = 0.9
"""Height of the edit palette strip under the board, in squares."""
PALETTE_GAP_FRACTION = 0.15
ARROW_WIDTH_FRACTION = 0.17
ARROW_HEAD_LENGTH_FRACTION = 0.42
ARROW_HEAD_WIDTH_FRACTION = 0.46
ARROW_START_OFFSET_FRACTION = 0.12
"""The arrow leaves the origin square's centre by this much, so the piece stays visible."""
DOT_FRACTION = 0.3
"""Diameter of a legal-destination dot, in squares (Lichess: about a third)."""
RING_WIDTH_FRACTION = 0.09
REVIEW_RING_FRACTION = 0.11
"""The review's better move on a one-square move (Othello, tic-tac-toe): a ring this wide,
thicker than the engine's, so the two never read as one."""
ANNOTATION_RING_FRACTION = 0.07
MIN_TEXT_PIXELS = 11
"""The smallest text a board paints (labels, coordinates, numbers, counts): most platform
guidelines put their smallest type at 11-12 px; board text scales with the board above it."""
MIN_MARGIN_PIXELS = 15
"""The coordinate margin never gets narrower than this, so text of ``MIN_TEXT_PIXELS`` fits."""
MIN_SIDE = 224
"""The smallest board the layout should give: eight squares of 24 px (room for a readable
square number) and two margins of ``MIN_MARGIN_PIXELS``; smaller, text would crowd the squares."""
PREFERRED_SIDE = 480
DRAG_THRESHOLD = 4.0
"""Pixels the pointer must travel with the button down before a press becomes a drag."""
MOTION_MS = 160
"""How long a move's piece takes to slide (or Othello's discs to turn); 0 switches it off."""


@dataclass(frozen=True)
class GridGeometry:
    """Where the cells of a ``rows`` x ``columns`` grid are drawn.

    ``left``/``top`` is the board's top-left corner and ``square`` the side of a cell, all in
    logical pixels but multiples of one device pixel. ``flipped`` turns the board 180°.
    """

    rows: int
    columns: int
    left: float
    top: float
    square: float
    margin: float
    flipped: bool = False

    @property
    def board_rect(self) -> QRectF:
        return QRectF(self.left, self.top, self.columns * self.square, self.rows * self.square)

    def display_cell(self, cell: Cell) -> Cell:
        """Where ``cell`` appears on screen (row/column counted from the top-left)."""
        row, column = cell
        if self.flipped:
            return self.rows - 1 - row, self.columns - 1 - column
        return row, column

    def cell_rect(self, cell: Cell) -> QRectF:
        row, column = self.display_cell(cell)
        return QRectF(self.left + column * self.square, self.top + row * self.square, self.square, self.square)

    def cell_centre(self, cell: Cell) -> QPointF:
        return self.cell_rect(cell).center()

    def cell_at(self, point: QPointF) -> Cell | None:
        """The cell under ``point``, or ``None`` outside the board."""
        column = math.floor((point.x() - self.left) / self.square)
        row = math.floor((point.y() - self.top) / self.square)
        if not (0 <= row < self.rows and 0 <= column < self.columns):
            return None
        return self.display_cell((row, column))  # the 180° turn is its own inverse


def compute_geometry(
    width: float,
    height: float,
    rows: int,
    columns: int,
    device_pixel_ratio: float,
    flipped: bool = False,
    extra_rows: float = 0.0,
) -> GridGeometry:
    """The largest grid with a coordinate margin that fits ``width`` x ``height``, centred.

    ``extra_rows`` (in squares) is kept free under the board (the edit palette). The square
    side is a whole number of device pixels and the corner sits on a device pixel, so every
    square edge is sharp.
    """
    span_x = columns + 2 * MARGIN_FRACTION
    span_y = rows + 2 * MARGIN_FRACTION + extra_rows
    square = max(1.0, min(width / span_x, height / span_y))
    if square * MARGIN_FRACTION < MIN_MARGIN_PIXELS:  # a small board keeps room for readable labels
        square = max(1.0, min((width - 2 * MIN_MARGIN_PIXELS) / columns, (height - 2 * MIN_MARGIN_PIXELS) / (rows + extra_rows)))
    ratio = max(device_pixel_ratio, 1e-6)
    square = max(1.0, math.floor(square * ratio)) / ratio
    margin = max(square * MARGIN_FRACTION, MIN_MARGIN_PIXELS)
    content_height = rows * square + 2 * margin + extra_rows * square
    left = round((width - columns * square) / 2 * ratio) / ratio
    top = round(((height - content_height) / 2 + margin) * ratio) / ratio
    return GridGeometry(rows, columns, left, top, square, margin, flipped)


def text_font(pixel_size: float, bold: bool = False) -> QFont:
    """The board font at ``pixel_size`` pixels, never smaller than ``MIN_TEXT_PIXELS``."""
    return board_font(max(pixel_size, MIN_TEXT_PIXELS), bold)


def _same_position(first: GameState | None, second: GameState | None) -> bool:
    """Whether two states are the same position of the same game (by their hash key)."""
    if first is None or second is None or type(first) is not type(second):
        return False
    return first.key() == second.key()


def arrow_path(points: Sequence[QPointF], square: float) -> QPainterPath:
    """One filled outline for an arrow through ``points`` (centres of squares), sized for
    squares of side ``square``: a shaft along the polyline and a head at the last point.

    Shaft and head are united into one path so a translucent fill does not darken where
    they overlap."""
    if len(points) < 2:
        return QPainterPath()
    head_length = square * ARROW_HEAD_LENGTH_FRACTION
    head_width = square * ARROW_HEAD_WIDTH_FRACTION
    start, second = points[0], points[1]
    first_leg = math.hypot(second.x() - start.x(), second.y() - start.y())
    offset = min(square * ARROW_START_OFFSET_FRACTION, first_leg / 3)
    if first_leg > 0:
        start = QPointF(
            start.x() + (second.x() - start.x()) * offset / first_leg,
            start.y() + (second.y() - start.y()) * offset / first_leg,
        )
    tip, before = points[-1], points[-2]
    leg = math.hypot(tip.x() - before.x(), tip.y() - before.y()) or 1.0
    ux, uy = (tip.x() - before.x()) / leg, (tip.y() - before.y()) / leg
    base = QPointF(tip.x() - ux * head_length, tip.y() - uy * head_length)
    shaft = QPainterPath(start)
    for point in points[1:-1]:
        shaft.lineTo(point)
    shaft.lineTo(QPointF(base.x() + ux * 1.0, base.y() + uy * 1.0))  # overlap the head by a pixel
    stroker = QPainterPathStroker()
    stroker.setWidth(square * ARROW_WIDTH_FRACTION)
    stroker.setCapStyle(Qt.PenCapStyle.FlatCap)
    stroker.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    outline = stroker.createStroke(shaft)
    head = QPainterPath()
    head.addPolygon(
        QPolygonF(
            [
                tip,
                QPointF(base.x() - uy * head_width / 2, base.y() + ux * head_width / 2),
                QPointF(base.x() + uy * head_width / 2, base.y() - ux * head_width / 2),
                tip,
            ]
        )
    )
    return outline.united(head).simplified()


class BoardWidget(QWidget):
    """Base of every game's board (``gui.boards.BOARD_API``). Subclasses paint and map
    input to moves.

    Signals:
      ``move_requested(move)``: a complete move from ``state.legal_moves()``.
      ``position_edited(state)``: in edit mode, each time the edited position is valid.
      ``edit_problem_changed(str)``: in edit mode, why the edited position is not valid
        ("" once it is again), so the app can say it.
    """

    move_requested = Signal(object)
    position_edited = Signal(object)
    edit_problem_changed = Signal(str)
    move_texts_changed = Signal()
    """The board's numbering changed (it was turned): text from ``move_text`` is stale."""

    SUPPORTS_EDIT: ClassVar[bool] = False
    GAME: ClassVar[str] = ""
    """The registry name of the game this board shows (``set_state`` refuses others)."""
    BOTTOM_PLAYER: ClassVar[int | None] = None
    """The player whose side is at the bottom when the board is not flipped (chess: White,
    checkers: White, as in the PDN diagram); None when the board has no sides (Othello)."""

    def __init__(self, theme: Theme | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        load_fonts(set_default=False)  # board text must never be boxes, even if the app forgot
        self._theme = theme or LIGHT
        self._state: GameState | None = None
        self._legal_moves: list[Any] | None = None
        self._last_move: Any = None
        self._best_move: Any = None
        self._review_move: Any = None
        self._flipped = False
        self._interactive = True
        self._edit_mode = False
        self._edit_problem = ""
        self.animation_ms = MOTION_MS
        """How long a move takes to be shown moving (backgammon: each checker hop); 0
        switches motion off."""
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)

    # ------------------------------------------------------------ contract API
    def set_state(self, state: GameState | None) -> None:
        """Show ``state`` (the board keeps its own copy). Clears any half-made move."""
        if state is not None and self.GAME and state.NAME != self.GAME:
            raise ValueError(f"{type(self).__name__} shows {self.GAME}, not {state.NAME}")
        self._state = None if state is None else state.copy()
        self._legal_moves = None
        self.reset_interaction()
        if self._edit_mode and self._state is not None:
            self.load_edit_model(self._state)
        self.update()

    def state(self) -> GameState | None:
        """The board's own copy of the shown state (do not change it)."""
        return self._state

    def set_last_move(self, move: Any) -> None:
        """Highlight ``move`` (played into the shown state) as the last move; ``None`` clears."""
        self._last_move = move
        self.update()

    def last_move(self) -> Any:
        return self._last_move

    def set_best_move(self, move: Any) -> None:
        """Draw the engine's move ``move`` (legal in the shown state) as an arrow/highlight."""
        self._best_move = move
        self.update()

    def best_move(self) -> Any:
        return self._best_move

    def set_review_move(self, move: Any) -> None:
        """Draw ``move`` as the game review's better move (``None`` clears): a move legal in
        the position *before* the move shown, as chess.com's and Lichess's reviews draw the
        move that should have been played beside the one that was, in the theme's
        ``review_move_arrow`` colour, which no other arrow uses."""
        self._review_move = move
        self.update()

    def review_move(self) -> Any:
        return self._review_move

    def set_flipped(self, flipped: bool) -> None:
        """Turn the board 180° (Black/White at the bottom)."""
        changed = bool(flipped) != self._flipped
        self._flipped = bool(flipped)
        self.reset_interaction()
        self.update()
        if changed:
            self.move_texts_changed.emit()

    def is_flipped(self) -> bool:
        return self._flipped

    def orient_for(self, player: int) -> None:
        """Put ``player``'s side at the bottom (no change on a board without sides), so the
        app can face the human without knowing which game it shows."""
        if self.BOTTOM_PLAYER is not None:
            self.set_flipped(player != self.BOTTOM_PLAYER)

    def set_theme(self, theme: Theme) -> None:
        self._theme = theme
        self.update()

    def theme(self) -> Theme:
        return self._theme

    def set_interactive(self, interactive: bool) -> None:
        """Accept moves from the mouse (False while the computer thinks or history is shown)."""
        self._interactive = bool(interactive)
        if not self._interactive:
            self.reset_interaction()
        self.update()

    def is_interactive(self) -> bool:
        return self._interactive

    def is_animating(self) -> bool:
        """Whether a move is being shown moving now (boards that animate say so)."""
        return False

    def set_edit_mode(self, editing: bool) -> None:
        """Switch the set-up mode on or off (boards whose ``SUPPORTS_EDIT`` is False refuse)."""
        editing = bool(editing)
        if editing and not self.SUPPORTS_EDIT:
            raise ValueError(f"{type(self).__name__} has no edit mode")
        if editing == self._edit_mode:
            return
        self._edit_mode = editing
        self.reset_interaction()
        if editing and self._state is not None:
            self.load_edit_model(self._state)
        if not editing:
            self._set_edit_problem("")
        self.updateGeometry()
        self.update()

    def is_edit_mode(self) -> bool:
        return self._edit_mode

    # ------------------------------------------------------------------ moves
    def legal_moves(self) -> list[Any]:
        """The shown state's legal moves (computed once per state)."""
        if self._state is None:
            return []
        if self._legal_moves is None:
            self._legal_moves = self._state.legal_moves()
        return self._legal_moves

    def accepts_moves(self) -> bool:
        """Whether a click may make a move now: interactive, not editing, game not over."""
        return (
            self._interactive
            and not self._edit_mode
            and self._state is not None
            and bool(self.legal_moves())
        )

    def request_move(self, move: Any) -> None:
        """Emit ``move_requested(move)``; ``move`` must come from ``legal_moves()``."""
        if move not in self.legal_moves():
            raise AssertionError(f"board tried to request {move!r}, which is not a legal move")
        self.reset_interaction()
        self.update()
        self.move_requested.emit(move)

    def reset_interaction(self) -> None:
        """Forget a half-made move (selection, drag, pending choice). Subclasses extend."""

    # ------------------------------------------------------------ move text
    def move_text(self, state: GameState, move: Any) -> str:
        """``move`` (legal in ``state``) named as this board labels its squares, for text
        shown beside the board (move list, engine lines, hints). A board whose labels depend
        on its orientation (backgammon's point numbers) overrides it; files and the command
        line keep ``state.move_name``."""
        return state.move_name(move)

    def line_texts(self, state: GameState, moves: Sequence[Any]) -> list[str]:
        """A line of ``moves`` played from ``state``, each named by ``move_text``."""
        names: list[str] = []
        position = state.copy()
        for move in moves:
            names.append(self.move_text(position, move))
            position.play(move)
        return names

    def history_texts(self, start: GameState, moves: Sequence[Any], names: Sequence[str] | None = None) -> list[str]:
        """A game played from ``start`` (chance outcomes included), one name per move.
        ``names``, the game's own names of the moves, are the answer of a board whose
        labels do not turn with it (nothing is replayed then)."""
        if names is not None and len(names) == len(moves):
            return list(names)
        return self.line_texts(start, moves)

    # -------------------------------------------------------------------- edit
    def load_edit_model(self, state: GameState) -> None:
        """Start editing from ``state`` (subclasses with an edit mode override)."""

    def publish_edit(self, text: str) -> GameState | None:
        """Try the edited position ``text`` (the game's own notation). A valid one becomes
        the shown state and is emitted with ``position_edited``; an invalid one is reported
        through ``edit_problem`` / ``edit_problem_changed``. Returns the new state or None."""
        if self._state is None:
            return None
        try:
            edited = type(self._state).from_text(text)
        except GameError as error:
            self._set_edit_problem(str(error))
            self.update()
            return None
        self._state = edited
        self._legal_moves = None
        self._last_move = None
        self._best_move = None
        self._review_move = None
        self._set_edit_problem("")
        self.update()
        self.position_edited.emit(edited.copy())
        return edited

    def edit_problem(self) -> str:
        """Why the edited position is not valid ("" when it is, or outside edit mode)."""
        return self._edit_problem

    def _set_edit_problem(self, problem: str) -> None:
        if problem != self._edit_problem:
            self._edit_problem = problem
            self.edit_problem_changed.emit(problem)

    # ---------------------------------------------------------------- painting
    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        return QSize(PREFERRED_SIDE, PREFERRED_SIDE)

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        return QSize(MIN_SIDE, MIN_SIDE)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        painter.fillRect(self.rect(), self._theme.color("window"))
        self.paint(painter)
        painter.end()

    def paint(self, painter: QPainter) -> None:
        """Draw the board (subclasses)."""
        raise NotImplementedError

    def device_pixel_ratio(self) -> float:
        return float(self.devicePixelRatioF())


class GridBoard(BoardWidget):
    """A board of square cells: chess, checkers, Othello and tic-tac-toe.

    Subclasses map their squares to cells (``cell_of``/``square_at``), name the files and
    ranks, and paint their pieces; mouse input arrives as ``square_pressed`` /
    ``pointer_moved`` / ``square_released`` with the game's own squares.
    """

    ROWS: ClassVar[int] = 8
    COLUMNS: ClassVar[int] = 8
    CHEQUERED: ClassVar[bool] = True
    """Paint light and dark squares (chess, checkers); otherwise ``paint_background``."""
    FILES_ON_TOP: ClassVar[bool] = False
    """File letters above the board (Othello's diagrams) instead of below it."""

    def __init__(self, theme: Theme | None = None, parent: QWidget | None = None) -> None:
        super().__init__(theme, parent)
        self._geometry: GridGeometry | None = None
        self._geometry_key: tuple[int, int, float, bool, float] | None = None
        self._hover_square: Square | None = None
        self._annotations: list[tuple[Square, Square]] = []
        self._annotation_start: Square | None = None
        self._edit_tool: str | None = None
        self._coordinates_visible = True
        self._motion = QVariantAnimation(self)
        self._motion.setStartValue(0.0)
        self._motion.setEndValue(1.0)
        self._motion.setEasingCurve(QEasingCurve.Type.InOutCubic)
        self._motion.valueChanged.connect(self.update)
        self._motion.finished.connect(self.stop_motion)
        self._motion_running = False
        self._arrived_from: GameState | None = None
        """The position shown before the current one, until ``set_last_move`` looks at it."""
        self._move_is_new = False
        """The last move named is the one that led here from the position shown before."""

    # -------------------------------------------------------------- motion
    def set_state(self, state: GameState | None) -> None:
        """Show ``state``; the same position shown again (the app refreshes on Think, Hint,
        a pause) keeps a move's animation running and the player's own arrows."""
        previous = self._state
        if not _same_position(previous, state):
            self.stop_motion()
            self._annotations = []
        super().set_state(state)
        self._arrived_from = previous
        self._move_is_new = False

    def set_last_move(self, move: Any) -> None:
        """Highlight ``move``; it may be animated only if it is what turned the position
        shown before into this one (the app shows the same position again on Think, Hint
        or a pause, and the position before after an undo: none of these replays a move)."""
        previous, self._arrived_from = self._arrived_from, None
        self._move_is_new = previous is not None and self._leads_here(previous, move)
        super().set_last_move(move)

    def _leads_here(self, previous: GameState, move: Any) -> bool:
        state = self._state
        if state is None or move is None or previous.is_terminal():
            return False
        try:
            if move not in previous.legal_moves():
                return False
            return previous.result(move).key() == state.key()
        except GameError:
            return False

    def start_motion(self, scale: float = 1.0) -> bool:
        """Start the move animation (``scale`` times the usual length) if the board is on
        screen, animations are on and the last move is new here (see ``set_last_move``);
        subclasses paint from ``motion_progress``."""
        is_new, self._move_is_new = self._move_is_new, False
        if self.animation_ms <= 0 or not self.isVisible() or self._edit_mode or not is_new:
            return False
        self._motion.stop()
        self._motion.setDuration(max(1, round(self.animation_ms * scale)))
        self._motion_running = True
        self._motion.start()
        return True

    def stop_motion(self) -> None:
        if self._motion_running:
            self._motion_running = False
            self._motion.stop()
            self.motion_finished()
            self.update()

    def motion_finished(self) -> None:
        """The animation ended or was cut short (subclasses drop what they animated)."""

    def is_animating(self) -> bool:
        return self._motion_running

    def motion_progress(self) -> float:
        """0 at the start of the animation, 1 at its end (1 when nothing moves)."""
        if not self._motion_running:
            return 1.0
        value = self._motion.currentValue()
        return float(value) if value is not None else 0.0

    # --------------------------------------------------------- square mapping
    def cell_of(self, square: Square) -> Cell:
        """The (row, column) of ``square`` with the board unflipped (row 0 at the top)."""
        raise NotImplementedError

    def square_at(self, cell: Cell) -> Square | None:
        """The square in ``cell``, or ``None`` for a cell that is not a square (checkers'
        light cells)."""
        raise NotImplementedError

    def file_labels(self) -> Sequence[str]:
        """Labels of the columns left to right, unflipped (empty: no file labels)."""
        return "abcdefgh"[: self.COLUMNS]

    def rank_labels(self) -> Sequence[str]:
        """Labels of the rows top to bottom, unflipped (empty: no rank labels)."""
        return [str(self.ROWS - row) for row in range(self.ROWS)]

    # --------------------------------------------------------------- geometry
    def grid(self) -> GridGeometry:
        """The current geometry (recomputed when the size, ratio, flip or palette change)."""
        extra = PALETTE_FRACTION + PALETTE_GAP_FRACTION if self._edit_mode and self.edit_tools() else 0.0
        key = (self.width(), self.height(), self.device_pixel_ratio(), self._flipped, extra)
        if self._geometry is None or key != self._geometry_key:
            width, height, ratio, flipped, extra = key
            self._geometry = compute_geometry(width, height, self.ROWS, self.COLUMNS, ratio, flipped, extra)
            self._geometry_key = key
        return self._geometry

    def square_rect(self, square: Square) -> QRectF:
        return self.grid().cell_rect(self.cell_of(square))

    def square_centre(self, square: Square) -> QPointF:
        return self.grid().cell_centre(self.cell_of(square))

    def square_at_point(self, point: QPointF) -> Square | None:
        cell = self.grid().cell_at(point)
        return None if cell is None else self.square_at(cell)

    def point_of(self, square: Square) -> QPointF:
        """The centre of ``square`` in widget coordinates (for tests and overlays)."""
        return self.square_centre(square)

    # ------------------------------------------------------------------ mouse
    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        point = event.position()
        square = self.square_at_point(point)
        if self._edit_mode:
            tool = self.edit_tool_at(point)
            if tool is not None:
                self.edit_tool_clicked(tool)
                self.update()
                return
        elif event.button() == Qt.MouseButton.RightButton:
            # Lichess's pen: right-drag draws an arrow, right-click rings a square.
            self.reset_interaction()
            self._annotation_start = square
            self.update()
            return
        elif self._annotations:
            self._annotations = []
        self.square_pressed(square, point, event.button())
        self.update()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        point = event.position()
        dragging = bool(event.buttons() & Qt.MouseButton.LeftButton)
        square = self.square_at_point(point)
        if square != self._hover_square:
            self._hover_square = square
            self.update()
        if self._edit_mode:
            clickable = square is not None or self.edit_tool_at(point) is not None
        else:
            clickable = square is not None and self.accepts_moves() and self.is_clickable(square)
        shape = Qt.CursorShape.ClosedHandCursor if dragging else Qt.CursorShape.PointingHandCursor
        self.setCursor(shape if clickable or dragging and self.accepts_moves() else Qt.CursorShape.ArrowCursor)
        self.pointer_moved(point, dragging)

    def leaveEvent(self, event: QEvent) -> None:  # noqa: N802
        if self._hover_square is not None:
            self._hover_square = None
            self.update()
        super().leaveEvent(event)

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            tool = self.edit_tool_at(QPointF(event.pos())) if self._edit_mode else None
            if tool is not None:
                QToolTip.showText(event.globalPos(), self.edit_tool_tip(tool), self)
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().event(event)

    def hover_square(self) -> Square | None:
        """The square under the pointer (None outside the board)."""
        return self._hover_square

    def is_clickable(self, square: Square) -> bool:
        """Whether a click on ``square`` would do something now (the pointer becomes a hand)."""
        return False

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        point = event.position()
        square = self.square_at_point(point)
        if event.button() == Qt.MouseButton.RightButton and self._annotation_start is not None:
            start, self._annotation_start = self._annotation_start, None
            if square is not None:
                self.toggle_annotation(start, square)
            return
        self.square_released(square, point, event.button())
        self.update()

    # ------------------------------------------------------------ annotations
    def annotations(self) -> list[tuple[Square, Square]]:
        """The player's own marks: (from, to) arrows, and (square, square) rings."""
        return list(self._annotations)

    def toggle_annotation(self, start: Square, end: Square) -> None:
        """Add the arrow ``start`` -> ``end`` (a ring when they are equal), or take it away."""
        mark = (start, end)
        if mark in self._annotations:
            self._annotations.remove(mark)
        else:
            self._annotations.append(mark)
        self.update()

    def clear_annotations(self) -> None:
        self._annotations = []
        self.update()

    def paint_annotations(self, painter: QPainter) -> None:
        colour = self._theme.color("annotation")
        for start, end in self._annotations:
            if start == end:
                self.draw_ring(painter, start, colour, ANNOTATION_RING_FRACTION)
            else:
                self.draw_arrow(painter, (start, end), colour)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        if event.key() == Qt.Key.Key_Escape:
            self.reset_interaction()
            self.update()
            return
        super().keyPressEvent(event)

    def square_pressed(self, square: Square | None, point: QPointF, button: Qt.MouseButton) -> None:
        """A press on ``square`` (None: outside the board)."""

    def pointer_moved(self, point: QPointF, dragging: bool) -> None:
        """The pointer moved (``dragging``: with the left button down)."""

    def square_released(self, square: Square | None, point: QPointF, button: Qt.MouseButton) -> None:
        """The button was released over ``square``."""

    # ---------------------------------------------------------- edit palette
    def edit_tools(self) -> Sequence[str]:
        """The palette's tools under the board in edit mode (empty: no palette)."""
        return ()

    def edit_tool(self) -> str | None:
        """The palette tool in use."""
        return self._edit_tool

    def set_edit_tool(self, tool: str | None) -> None:
        if tool is not None and tool not in self.edit_tools():
            raise ValueError(f"{tool!r} is not a tool of this board: {', '.join(self.edit_tools())}")
        self._edit_tool = tool
        self.update()

    def edit_tool_clicked(self, tool: str) -> None:
        """A palette cell was clicked; by default it becomes the tool in use."""
        self.set_edit_tool(tool)

    def edit_tool_rects(self) -> list[tuple[str, QRectF]]:
        """Where each palette tool is drawn: one row of cells centred under the board."""
        tools = list(self.edit_tools())
        if not self._edit_mode or not tools:
            return []
        geometry = self.grid()
        board = geometry.board_rect
        cell = min(geometry.square * PALETTE_FRACTION, board.width() / len(tools))
        top = board.bottom() + geometry.margin + geometry.square * PALETTE_GAP_FRACTION
        left = board.center().x() - cell * len(tools) / 2
        return [(tool, QRectF(left + index * cell, top, cell, cell)) for index, tool in enumerate(tools)]

    def edit_tool_tip(self, tool: str) -> str:
        """The tooltip of palette ``tool`` (subclasses name their tools)."""
        return tool

    def edit_tool_at(self, point: QPointF) -> str | None:
        for tool, rect in self.edit_tool_rects():
            if rect.contains(point):
                return tool
        return None

    def paint_edit_tool(self, painter: QPainter, tool: str, rect: QRectF) -> None:
        """Draw palette ``tool`` inside ``rect`` (subclasses)."""

    # --------------------------------------------------------------- painting
    def paint(self, painter: QPainter) -> None:
        if self._state is None:
            return
        self.paint_background(painter)
        self.paint_coordinates(painter)
        self.paint_highlights(painter)
        self.paint_pieces(painter)
        if not self._edit_mode:
            self.paint_annotations(painter)
            self.paint_review_move(painter)
        self.paint_overlays(painter)
        if self._edit_mode:
            self.paint_palette(painter)

    def paint_background(self, painter: QPainter) -> None:
        geometry = self.grid()
        scheme = self._theme.board
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)  # squares on device pixels
        painter.fillRect(geometry.board_rect, QColor(scheme.light))
        dark = QColor(scheme.dark)
        for row in range(self.ROWS):
            for column in range(self.COLUMNS):
                if (row + column) % 2 == 1:
                    painter.fillRect(geometry.cell_rect((row, column)), dark)
        painter.restore()

    def set_coordinates_visible(self, visible: bool) -> None:
        """Show or hide the file/rank labels (a setting); the margin stays, so the board
        does not jump."""
        self._coordinates_visible = bool(visible)
        self.update()

    def coordinates_visible(self) -> bool:
        return self._coordinates_visible

    def paint_coordinates(self, painter: QPainter) -> None:
        """File letters under (or over) the board and rank numbers on its left, in the margin."""
        if not self._coordinates_visible:
            return
        geometry = self.grid()
        painter.save()
        painter.setPen(self._theme.color("coordinates"))
        painter.setFont(text_font(geometry.square * COORDINATE_FRACTION))
        board = geometry.board_rect
        files, ranks = list(self.file_labels()), list(self.rank_labels())
        for column, label in enumerate(files):
            rect = geometry.cell_rect((0, column))
            y = board.top() - geometry.margin if self.FILES_ON_TOP else board.bottom()
            painter.drawText(
                QRectF(rect.left(), y, rect.width(), geometry.margin), Qt.AlignmentFlag.AlignCenter, label
            )
        for row, label in enumerate(ranks):
            rect = geometry.cell_rect((row, 0))
            painter.drawText(
                QRectF(board.left() - geometry.margin, rect.top(), geometry.margin * 0.85, rect.height()),
                Qt.AlignmentFlag.AlignCenter,
                label,
            )
        painter.restore()

    def move_squares(self, move: Any) -> tuple[Square, ...]:
        """The squares ``move`` goes through, first to last, for drawing it: a placement
        game's move is its one square (Othello, tic-tac-toe); a board whose moves are
        paths names them itself (chess: from and to; checkers: every landing). Nothing for
        a move with no square here (a pass)."""
        if isinstance(move, int) and not isinstance(move, bool):
            row, column = self.cell_of(move) if move >= 0 else (-1, -1)
            if 0 <= row < self.ROWS and 0 <= column < self.COLUMNS:
                return (move,)
        return ()

    def paint_review_move(self, painter: QPainter) -> None:
        """The review's better move: an arrow along its squares, a ring on a one-square move."""
        squares = self.move_squares(self._review_move) if self._review_move is not None else ()
        colour = self._theme.color("review_move_arrow")
        if len(squares) == 1:
            self.draw_ring(painter, squares[0], colour, REVIEW_RING_FRACTION)
        elif len(squares) > 1:
            self.draw_arrow(painter, squares, colour)

    def paint_highlights(self, painter: QPainter) -> None:
        """Last move, selection, destinations ... (subclasses)."""

    def paint_pieces(self, painter: QPainter) -> None:
        """The pieces (subclasses)."""

    def paint_overlays(self, painter: QPainter) -> None:
        """Above the pieces: the engine's arrow, a dragged piece, choosers (subclasses)."""

    def paint_palette(self, painter: QPainter) -> None:
        rects = self.edit_tool_rects()
        if not rects:
            return
        painter.save()
        whole = rects[0][1].united(rects[-1][1])
        radius = whole.height() * 0.12
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(self._theme.color("palette_background"))
        painter.drawRoundedRect(whole, radius, radius)
        for tool, rect in rects:
            if tool == self._edit_tool:
                painter.setBrush(self._theme.color("palette_selected"))
                painter.drawRoundedRect(rect.adjusted(1, 1, -1, -1), radius, radius)
            self.paint_edit_tool(painter, tool, rect)
        painter.restore()

    # ---------------------------------------------------------- paint helpers
    def fill_square(self, painter: QPainter, square: Square, colour: QColor) -> None:
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        painter.fillRect(self.square_rect(square), colour)
        painter.restore()

    def draw_dot(self, painter: QPainter, square: Square, colour: QColor, fraction: float = DOT_FRACTION) -> None:
        """A filled dot in the middle of ``square`` (a legal destination)."""
        rect = self.square_rect(square)
        radius = rect.width() * fraction / 2
        painter.save()
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(colour)
        painter.drawEllipse(rect.center(), radius, radius)
        painter.restore()

    def draw_ring(self, painter: QPainter, square: Square, colour: QColor, width_fraction: float = RING_WIDTH_FRACTION) -> None:
        """A ring just inside ``square`` (a capture destination, a piece that must capture)."""
        rect = self.square_rect(square)
        width = rect.width() * width_fraction
        painter.save()
        pen = QPen(colour, width)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        inner = rect.adjusted(width / 2, width / 2, -width / 2, -width / 2)
        painter.drawEllipse(inner)
        painter.restore()

    def draw_glow(self, painter: QPainter, square: Square, colour: QColor) -> None:
        """A radial glow filling ``square`` (check, Lichess style)."""
        rect = self.square_rect(square)
        gradient = QRadialGradient(rect.center(), rect.width() * 0.6)
        strong = QColor(colour)
        middle = QColor(colour)
        middle.setAlphaF(colour.alphaF() * 0.75)
        clear = QColor(colour)
        clear.setAlpha(0)
        gradient.setColorAt(0.0, strong)
        gradient.setColorAt(0.3, middle)
        gradient.setColorAt(1.0, clear)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        painter.fillRect(rect, gradient)
        painter.restore()

    def draw_arrow(self, painter: QPainter, squares: Sequence[Square], colour: QColor) -> None:
        """An arrow from the first of ``squares`` through the others to the last."""
        points = [self.square_centre(square) for square in squares]
        path = arrow_path(points, self.grid().square)
        painter.save()
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(colour)
        painter.drawPath(path)
        painter.restore()


__all__ = [
    "BoardWidget",
    "Cell",
    "GridBoard",
    "GridGeometry",
    "arrow_path",
    "compute_geometry",
    "text_font",
]
