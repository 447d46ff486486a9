"""The eval graph: the score over the game's moves, drawn with QPainter (QtCharts is not in
PySide6-Essentials). Player 0's advantage is up, as on Lichess: player 0's colour fills the
plot below the curve, player 1's above it, as the eval bar shares its height. A click picks a
position.

A reviewed game's mistakes are coloured dots on the curve (Lichess's analysis graph marks
them so); a click on or near a dot goes to that move.

Values are plotted as player 0's share (``display.player0_share``), the eval bar's scale, so
a proven win touches the edge and a long game stays readable.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPainterPath, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from ai.events import Score
from games.base import GameState
from gui.panels import display
from gui.panels.eval_bar import player_colors, theme_sides
from gui.theme import Theme

MARGIN = 4.0
MARKER_RADIUS = 4.5
"""The current position's dot; the first and last plies sit this far inside the plot, so
the dot (and the line through it) at the live position, the right edge, is whole."""
MARKER_WIDTH = 2.0
STRIP_HEIGHT = 90
"""The graph as a strip under other panels."""
MARK_RADIUS = 4.0
"""A review mark's dot on the curve."""
MARK_CLICK_RADIUS = 9.0
"""A click this close to a mark's dot (in pixels, along the curve) goes to that move, not
to the nearest ply: at 200 plies the plies are a pixel or two apart."""


@dataclass(frozen=True)
class GraphMark:
    """A review mark on the graph: its dot's colour and the word for the tooltip."""

    colour: str
    """``#rrggbb``."""
    word: str
    """``Blunder``, ``Mistake``, ``Inaccuracy``."""


class EvalGraph(QWidget):
    """Score per ply; ``ply_clicked(int)`` when the user clicks a position."""

    ply_clicked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._game: type[GameState] | None = None
        self._scores: list[Score | None] = []
        self._stakes: list[float] = []
        self._odds: display.MatchOdds | None = None
        self._move_names: list[str] = []
        """The move that led to each position (index = plies played; ``""`` for the start)."""
        self._current: int | None = None
        self._marks: dict[int, GraphMark] = {}
        self._theme: Theme | None = None
        self._aspect: float | None = None
        self._side_colors: Callable[[], tuple[QColor, QColor] | None] | None = None
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setFixedHeight(STRIP_HEIGHT)
        self.setMouseTracking(True)
        self.setCursor(Qt.CursorShape.PointingHandCursor)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        return QSize(320, self.heightForWidth(320) if self._aspect else 90)

    def set_aspect(self, aspect: float | None) -> None:
        """Height = width x ``aspect`` (at least the strip's 90 px), for a graph that has a
        page of its own (the engine dock's "Graph" tab) instead of a thin strip in an empty
        page; ``None``: the fixed 90 px strip (under the engine panel)."""
        self._aspect = aspect
        if aspect is None:
            self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
            self.setFixedHeight(STRIP_HEIGHT)
            return
        self.setMinimumHeight(STRIP_HEIGHT)
        self.setMaximumHeight(16777215)
        policy = QSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)
        self.updateGeometry()

    def hasHeightForWidth(self) -> bool:  # noqa: N802 (Qt's name)
        return self._aspect is not None

    def heightForWidth(self, width: int) -> int:  # noqa: N802 (Qt's name)
        return max(STRIP_HEIGHT, round(width * self._aspect)) if self._aspect else STRIP_HEIGHT

    # ----------------------------------------------------------------- contents
    def set_game(self, game: type[GameState]) -> None:
        self._game = game
        self._scores = []
        self._stakes = []
        self._current = None
        self._marks = {}
        self.update()

    def set_theme(self, theme: Theme) -> None:
        """The sides' colours from the theme (the rest follows the application palette)."""
        self._theme = theme
        self.update()

    def set_match_score(self, state: GameState | None) -> None:
        """Plot the game ``state`` belongs to: at a backgammon match score as match winning
        chances (``display.match_odds``), the eval bar's scale there."""
        self._odds = display.match_odds(state)
        self.update()

    def set_side_colors(self, source: Callable[[], tuple[QColor, QColor] | None] | None) -> None:
        """Players 0's and 1's colours from the board (backgammon's red and white checkers), as
        the eval bar takes them; None falls back to the theme's light and dark sides."""
        self._side_colors = source
        self.update()

    def set_scores(
        self, scores: Sequence[Score | None], move_names: Sequence[str] = (), stakes: Sequence[float] = ()
    ) -> None:
        """The score of every position (index = plies played; ``None`` = not evaluated) and,
        for the tooltip, the name of the move that led to each (index 0: the start); the
        ``GameState.stake`` of each position where it is not 1 (backgammon's cube)."""
        self._scores = list(scores)
        self._move_names = list(move_names)
        self._stakes = list(stakes)
        self.update()

    def set_score(self, ply: int, score: Score | None) -> None:
        """The score of the position after ``ply`` plies (the list grows as needed)."""
        if ply < 0:
            raise ValueError(f"a ply is never negative, not {ply}")
        if ply >= len(self._scores):
            self._scores.extend([None] * (ply + 1 - len(self._scores)))
        self._scores[ply] = score
        self.update()

    def truncate(self, plies: int) -> None:
        """Forget positions after ``plies`` (a take-back, a new line)."""
        del self._scores[plies + 1:]
        self.update()

    def set_marks(self, marks: Mapping[int, GraphMark]) -> None:
        """The review's marks by ply (the position after the marked move); empty: none."""
        self._marks = dict(marks)
        self.update()

    def marks(self) -> dict[int, GraphMark]:
        return dict(self._marks)

    def mark_at(self, x: float) -> int | None:
        """The ply of the mark nearest ``x`` within ``MARK_CLICK_RADIUS``, else ``None``."""
        near = [(abs(self.x_of(ply) - x), ply) for ply in self._marks if ply < len(self._scores)]
        distance, ply = min(near, default=(MARK_CLICK_RADIUS + 1, None))
        return ply if distance <= MARK_CLICK_RADIUS else None

    def set_current_ply(self, ply: int | None) -> None:
        self._current = ply
        self.update()

    @property
    def scores(self) -> list[Score | None]:
        return list(self._scores)

    @property
    def current_ply(self) -> int | None:
        """The position marked (``None``: no marker)."""
        return self._current

    # ------------------------------------------------------------------ geometry
    def _plot_rect(self) -> QRectF:
        return QRectF(self.rect()).adjusted(MARGIN, MARGIN, -MARGIN, -MARGIN)

    def _span(self) -> int:
        return max(len(self._scores) - 1, 1)

    def _plies_rect(self) -> QRectF:
        """The plot less the marker's radius at each end: where plies 0 to the last sit."""
        return self._plot_rect().adjusted(MARKER_RADIUS + 1, 0, -MARKER_RADIUS - 1, 0)

    def x_of(self, ply: int) -> float:
        plies = self._plies_rect()
        return plies.left() + plies.width() * ply / self._span()

    def ply_at(self, x: float) -> int | None:
        """The position nearest ``x`` (``None`` while the graph is empty)."""
        if not self._scores:
            return None
        plies = self._plies_rect()
        fraction = (x - plies.left()) / plies.width() if plies.width() > 0 else 0.0
        return min(len(self._scores) - 1, max(0, round(fraction * self._span())))

    def _y_of(self, score: Score, ply: int) -> float:
        plot = self._plot_rect()
        stake = self._stakes[ply] if ply < len(self._stakes) else 1.0
        share = display.player0_share(score, self._game, stake, self._odds) if self._game else 0.5
        return plot.bottom() - plot.height() * share

    # ---------------------------------------------------------------------- input
    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt's name)
        if event.button() != Qt.MouseButton.LeftButton:
            return super().mousePressEvent(event)
        marked = self.mark_at(event.position().x())
        ply = marked if marked is not None else self.ply_at(event.position().x())
        if ply is not None:
            self.ply_clicked.emit(ply)
        event.accept()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        marked = self.mark_at(event.position().x())
        ply = marked if marked is not None else self.ply_at(event.position().x())
        if ply is None or self._game is None:
            self.setToolTip("")
            return
        self.setToolTip(self.describe(ply))

    def describe(self, ply: int) -> str:
        """The tooltip over position ``ply``: ``Ply 12, after Bxg2: Black mates in 3``."""
        if self._game is None or not 0 <= ply < len(self._scores):
            return ""
        score = self._scores[ply]
        text = display.score_text(score, self._game, odds=self._odds) if score else "not evaluated"
        name = self._move_names[ply] if ply < len(self._move_names) else ""
        where = "Start" if ply == 0 else f"Ply {ply}, after {name}" if name else f"Ply {ply}"
        mark = self._marks.get(ply)
        return f"{where}: {text}" + (f" — {mark.word}" if mark is not None else "")

    # -------------------------------------------------------------------- drawing
    def paintEvent(self, _event: QPaintEvent) -> None:  # noqa: N802
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        palette = self.palette()
        plot = self._plot_rect()
        painter.fillRect(self.rect(), palette.color(palette.ColorRole.Base))
        mid = plot.top() + plot.height() / 2
        points = [(ply, score) for ply, score in enumerate(self._scores) if score is not None]
        if self._game is not None and points:
            # As the eval bar (and Lichess's graph): player 0's colour fills the plot from the
            # bottom up to the curve, player 1's the rest, so the side ahead owns more of it.
            # Both colours stand against each other, whatever the panel's background.
            own = self._side_colors() if self._side_colors is not None else None
            first_color, second_color = own if own is not None else player_colors(self._game, *theme_sides(self._theme))
            curve = [QPointF(self.x_of(ply), self._y_of(score, ply)) for ply, score in points]
            lower = QPainterPath(QPointF(plot.left(), plot.bottom()))
            lower.lineTo(QPointF(plot.left(), curve[0].y()))  # flat before the first score
            for point in curve:
                lower.lineTo(point)
            lower.lineTo(QPointF(plot.right(), curve[-1].y()))
            lower.lineTo(QPointF(plot.right(), plot.bottom()))
            lower.closeSubpath()
            painter.fillRect(plot, second_color)
            painter.fillPath(lower, first_color)
            painter.setPen(QPen(QColor(128, 128, 128, 200), 1, Qt.PenStyle.DashLine))
            painter.drawLine(QPointF(plot.left(), mid), QPointF(plot.right(), mid))
            line = QPainterPath(curve[0])
            for point in curve[1:]:
                line.lineTo(point)
            painter.setPen(QPen(palette.color(palette.ColorRole.Highlight), 1.6))
            painter.drawPath(line)
        else:
            grid = QColor(palette.color(palette.ColorRole.Text))
            grid.setAlpha(70)
            painter.setPen(QPen(grid, 1, Qt.PenStyle.DashLine))
            painter.drawLine(QPointF(plot.left(), mid), QPointF(plot.right(), mid))
        if self._marks and self._game is not None:
            self._draw_marks(painter, plot)
        if self._current is not None and self._scores:
            self._draw_marker(painter, plot, min(self._current, len(self._scores) - 1))
        border = QColor(palette.color(palette.ColorRole.Text))
        border.setAlpha(90)
        painter.setPen(QPen(border, 1))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5))
        painter.end()

    def _draw_marks(self, painter: QPainter, plot: QRectF) -> None:
        """Each mark as a dot on the curve at its move, edged with the panel's background so
        it stands out on either side's colour (a move without a score: on the middle line)."""
        edge = self.palette().color(self.palette().ColorRole.Base)
        low, high = plot.top() + MARK_RADIUS + 1, plot.bottom() - MARK_RADIUS - 1
        for ply, mark in sorted(self._marks.items()):
            if ply >= len(self._scores):
                continue
            y = min(max(self._curve_y(ply, plot), low), high)
            painter.setPen(QPen(edge, 1.5))
            painter.setBrush(QColor(mark.colour))
            painter.drawEllipse(QPointF(self.x_of(ply), y), MARK_RADIUS, MARK_RADIUS)

    def _curve_y(self, ply: int, plot: QRectF) -> float:
        """Where the curve is at ``ply``: its score's height, or for a position without one
        (a human's move, which no search scored) the straight line between the scored
        positions on either side, as the curve is drawn; flat before the first and after
        the last, the middle when nothing is scored."""
        score = self._scores[ply]
        if score is not None:
            return self._y_of(score, ply)
        scored = [(at, self._scores[at]) for at in range(len(self._scores))]
        before = [(at, known) for at, known in scored[:ply] if known is not None]
        after = [(at, known) for at, known in scored[ply + 1:] if known is not None]
        if not before and not after:
            return plot.top() + plot.height() / 2
        if not before or not after:
            at, known = (before[-1] if before else after[0])
            return self._y_of(known, at)
        (start, first), (end, last) = before[-1], after[0]
        low, high = self._y_of(first, start), self._y_of(last, end)
        return low + (ply - start) / (end - start) * (high - low)

    def _draw_marker(self, painter: QPainter, plot: QRectF, ply: int) -> None:
        """The position shown: a line the plot's height and a dot on the curve, in the
        highlight colour edged with the panel's background, so it stands out on either
        side's colour in both themes (the live position's is at the right edge)."""
        palette = self.palette()
        accent, edge = palette.color(palette.ColorRole.Highlight), palette.color(palette.ColorRole.Base)
        x = self.x_of(ply)
        top, bottom = QPointF(x, plot.top()), QPointF(x, plot.bottom())
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(edge, MARKER_WIDTH + 2, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap))
        painter.drawLine(top, bottom)
        painter.setPen(QPen(accent, MARKER_WIDTH, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap))
        painter.drawLine(top, bottom)
        score = self._scores[ply]
        if score is not None:  # on the curve, kept whole at a won game's top or bottom edge
            low, high = plot.top() + MARKER_RADIUS + 1, plot.bottom() - MARKER_RADIUS - 1
            y = min(max(self._y_of(score, ply), low), high)
            painter.setPen(QPen(edge, 1.5))
            painter.setBrush(accent)
            painter.drawEllipse(QPointF(x, y), MARKER_RADIUS, MARKER_RADIUS)
