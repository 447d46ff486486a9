"""The race's chart: nodes of each iteration per depth on a log scale, one line per entrant,
beside the textbook's ``b^d`` (minimax) and ``b^(d/2)`` (alpha-beta with perfect ordering)
curves, drawn with QPainter (QtCharts is not in PySide6-Essentials).

On a log scale ``b^d`` is a straight line of slope ``log b`` and ``b^(d/2)`` one of half that
slope: minimax's line lies on the first, and the better the ordering, the nearer an
alpha-beta line comes to the second. MCTS has no iterations: its node budget is one diamond
at the race's depth.

Every length is a named proportion of the font, so the axis labels and the legend are whole
at any size; the legend sits below the plot and wraps.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QPainter, QPainterPath, QPaintEvent, QPen, QPolygonF
from PySide6.QtWidgets import QSizePolicy, QWidget

from gui.theme import Theme


class SeriesKind(Enum):
    """How a series is drawn."""

    LINE = "line"
    """An entrant's nodes per depth: a solid line with a dot at each depth."""
    MARKER = "marker"
    """One point (MCTS's budget): a diamond."""
    CURVE = "curve"
    """A textbook curve: a dashed line without dots."""


@dataclass(frozen=True)
class Series:
    """One thing the chart draws: ``points`` are ``(depth, nodes)``."""

    label: str
    color: QColor
    points: tuple[tuple[int, float], ...]
    kind: SeriesKind = SeriesKind.LINE
    dash: Qt.PenStyle = Qt.PenStyle.SolidLine


@dataclass
class _Layout:
    plot: QRectF
    legend_rows: list[list[tuple[Series, float]]] = field(default_factory=list)
    legend_top: float = 0.0


PAD_EMS = 0.8
"""Space round the chart, in font heights."""
TICK_EMS = 0.35
LINE_WIDTH = 2.0
DOT_RADIUS = 3.2
DIAMOND_RADIUS = 6.0
LEGEND_SWATCH_EMS = 2.0
"""The line sample before a legend label, in font heights."""
LEGEND_GAP_EMS = 1.2
MIN_PLOT_HEIGHT = 120.0
TITLE = "Nodes per depth (each iteration alone), log scale"
EMPTY_TEXT = "Each entrant's nodes per depth appear here as the race runs."


def decades(low: float, high: float) -> list[int]:
    """The powers of ten from below ``low`` to above ``high`` (at least two)."""
    first = math.floor(math.log10(max(low, 1.0)))
    last = max(first + 1, math.ceil(math.log10(max(high, 1.0))))
    return list(range(first, last + 1))


def decade_label(power: int) -> str:
    """``1``, ``10``, ``100``, ``1k`` ... ``1M``, ``1G``: short, so the axis stays narrow."""
    for step, suffix in ((9, "G"), (6, "M"), (3, "k")):
        if power >= step:
            return f"{10 ** (power - step)}{suffix}"
    return str(10**power)


class NodesChart(QWidget):
    """Nodes per depth, log scale: ``set_series`` with the entrants and the curves."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._series: list[Series] = []
        self._depth = 1
        self._theme: Theme | None = None
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(360, 260)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        return QSize(640, 360)

    # ----------------------------------------------------------------- contents
    def set_depth(self, depth: int) -> None:
        """The x axis runs from depth 1 to ``depth``."""
        self._depth = max(1, depth)
        self.update()

    def set_series(self, series: Sequence[Series]) -> None:
        self._series = list(series)
        self.update()

    def series(self) -> list[Series]:
        """What the chart draws now (entrants first, then the curves)."""
        return list(self._series)

    def set_theme(self, theme: Theme) -> None:
        self._theme = theme
        self.update()

    # ----------------------------------------------------------------- geometry
    def _values(self) -> list[float]:
        return [nodes for series in self._series for _, nodes in series.points if nodes > 0]

    def _range(self) -> tuple[int, int]:
        values = self._values() or [1.0, 10.0]
        powers = decades(min(values), max(values))
        return powers[0], powers[-1]

    def _layout(self, metrics: QFontMetricsF) -> _Layout:
        em = metrics.height()
        pad = PAD_EMS * em
        low, high = self._range()
        axis_width = max(metrics.horizontalAdvance(decade_label(power)) for power in range(low, high + 1))
        left = pad + em + TICK_EMS * em + axis_width + TICK_EMS * em  # rotated "nodes", labels, ticks
        right = self.width() - pad - metrics.horizontalAdvance(str(self._depth)) / 2
        # The legend: as many rows as its entries need at this width.
        rows: list[list[tuple[Series, float]]] = [[]]
        used = 0.0
        for series in self._series:
            width = LEGEND_SWATCH_EMS * em + TICK_EMS * em + metrics.horizontalAdvance(series.label)
            if rows[-1] and used + LEGEND_GAP_EMS * em + width > right - left:
                rows.append([])
                used = 0.0
            used += (LEGEND_GAP_EMS * em if rows[-1] else 0.0) + width
            rows[-1].append((series, width))
        legend_height = len(rows) * em * 1.3 if self._series else 0.0
        top = pad + em * 1.4  # the title
        bottom = self.height() - pad - legend_height - em * 2.6  # depth labels and the axis title
        plot = QRectF(left, top, max(10.0, right - left), max(MIN_PLOT_HEIGHT / 4, bottom - top))
        return _Layout(plot, rows, bottom + em * 2.6)

    def x_of(self, plot: QRectF, depth: float) -> float:
        if self._depth <= 1:
            return plot.center().x()
        return plot.left() + plot.width() * (depth - 1) / (self._depth - 1)

    def y_of(self, plot: QRectF, nodes: float) -> float:
        low, high = self._range()
        fraction = (math.log10(max(nodes, 10.0**low)) - low) / (high - low)
        return plot.bottom() - plot.height() * fraction

    # ----------------------------------------------------------------- drawing
    def paintEvent(self, _event: QPaintEvent) -> None:  # noqa: N802 (Qt's name)
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        palette = self.palette()
        text = palette.color(palette.ColorRole.Text)
        painter.fillRect(self.rect(), palette.color(palette.ColorRole.Base))
        metrics = QFontMetricsF(self.font())
        layout = self._layout(metrics)
        plot = layout.plot
        em = metrics.height()
        self._draw_axes(painter, plot, metrics, text)
        painter.save()
        painter.setClipRect(plot.adjusted(-DIAMOND_RADIUS - 2, -DIAMOND_RADIUS - 2, DIAMOND_RADIUS + 2, DIAMOND_RADIUS + 2))
        for series in self._series:
            self._draw_series(painter, plot, series)
        painter.restore()
        if not self._values():
            muted = QColor(text)
            muted.setAlpha(150)
            painter.setPen(muted)
            painter.drawText(plot, Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, EMPTY_TEXT)
        painter.setPen(text)
        painter.drawText(QRectF(plot.left(), PAD_EMS * em, plot.width(), em * 1.2), Qt.AlignmentFlag.AlignCenter, TITLE)
        self._draw_legend(painter, layout, metrics, text)
        border = QColor(text)
        border.setAlpha(90)
        painter.setPen(QPen(border, 1))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5))
        painter.end()

    def _draw_axes(self, painter: QPainter, plot: QRectF, metrics: QFontMetricsF, text: QColor) -> None:
        em = metrics.height()
        grid = QColor(text)
        grid.setAlpha(45)
        low, high = self._range()
        for power in range(low, high + 1):
            y = self.y_of(plot, 10.0**power)
            painter.setPen(QPen(grid, 1))
            painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y))
            painter.setPen(text)
            label = decade_label(power)
            width = metrics.horizontalAdvance(label)
            painter.drawText(QPointF(plot.left() - TICK_EMS * em - width, y + metrics.ascent() / 2 - 1), label)
        for depth in range(1, self._depth + 1):
            x = self.x_of(plot, depth)
            painter.setPen(QPen(grid, 1))
            painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()))
            painter.setPen(text)
            label = str(depth)
            painter.drawText(
                QPointF(x - metrics.horizontalAdvance(label) / 2, plot.bottom() + TICK_EMS * em + metrics.ascent()), label
            )
        painter.setPen(QPen(text, 1))
        painter.drawLine(plot.bottomLeft(), plot.bottomRight())
        painter.drawLine(plot.bottomLeft(), plot.topLeft())
        painter.drawText(
            QRectF(plot.left(), plot.bottom() + em * 1.4, plot.width(), em * 1.2), Qt.AlignmentFlag.AlignCenter, "depth (plies)"
        )
        painter.save()  # the y axis's title, read bottom to top
        painter.translate(PAD_EMS * em * 0.5 + em * 0.5, plot.center().y())
        painter.rotate(-90)
        painter.drawText(QRectF(-plot.height() / 2, -em / 2, plot.height(), em), Qt.AlignmentFlag.AlignCenter, "nodes")
        painter.restore()

    def _draw_series(self, painter: QPainter, plot: QRectF, series: Series) -> None:
        points = [QPointF(self.x_of(plot, depth), self.y_of(plot, nodes)) for depth, nodes in series.points if nodes > 0]
        if not points:
            return
        if series.kind is SeriesKind.MARKER:
            painter.setPen(QPen(self.palette().color(self.palette().ColorRole.Base), 1.5))
            painter.setBrush(series.color)
            for point in points:
                painter.drawPolygon(diamond(point, DIAMOND_RADIUS))
            return
        pen = QPen(series.color, LINE_WIDTH if series.kind is SeriesKind.LINE else 1.6, series.dash)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        path = QPainterPath(points[0])
        for point in points[1:]:
            path.lineTo(point)
        painter.drawPath(path)
        if series.kind is SeriesKind.LINE:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(series.color)
            for point in points:
                painter.drawEllipse(point, DOT_RADIUS, DOT_RADIUS)

    def _draw_legend(self, painter: QPainter, layout: _Layout, metrics: QFontMetricsF, text: QColor) -> None:
        em = metrics.height()
        y = layout.legend_top
        for row in layout.legend_rows:
            x = layout.plot.left()
            middle = y + em * 0.65
            for series, width in row:
                swatch = LEGEND_SWATCH_EMS * em
                if series.kind is SeriesKind.MARKER:
                    painter.setPen(Qt.PenStyle.NoPen)
                    painter.setBrush(series.color)
                    painter.drawPolygon(diamond(QPointF(x + swatch / 2, middle), DIAMOND_RADIUS))
                else:
                    painter.setPen(QPen(series.color, LINE_WIDTH, series.dash))
                    painter.drawLine(QPointF(x, middle), QPointF(x + swatch, middle))
                painter.setPen(text)
                painter.drawText(QPointF(x + swatch + TICK_EMS * em, middle + metrics.ascent() / 2 - 1), series.label)
                x += width + LEGEND_GAP_EMS * em
            y += em * 1.3


def diamond(center: QPointF, radius: float) -> QPolygonF:
    return QPolygonF(
        [
            QPointF(center.x(), center.y() - radius),
            QPointF(center.x() + radius, center.y()),
            QPointF(center.x(), center.y() + radius),
            QPointF(center.x() - radius, center.y()),
        ]
    )
