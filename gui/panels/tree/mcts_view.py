"""The MCTS view: the tree panel's page for Monte Carlo tree search, where the lecture's UCT
numbers are read off the running search.

UCT does not cut branches; it spends its iterations unevenly. The view shows that:

* a table of one node's children (the root's first): the move, its visits and their share
  of the node's visits as a bar, its mean in the root player's view, and UCB1's two terms as
  the search computed them (``ai.tree.mcts``): ``Q``, the mean for the player choosing
  there normalised into [0, 1], the exploration term ``C·√(ln N / n)`` and their total,
  the UCT value selection compares. The child the next iteration descends into (UCB1's
  pick) is marked ▸ and bold; rows are sorted by visits, the move MCTS would play first;
* a double click on a child opens its own children the same way; the breadcrumb above the
  table goes back up;
* a chart of the root children's visits over the iterations (``VisitChart``): one line per
  move for the five most visited, the rest as one grey "others" line, so the asymmetric
  growth of the tree (the promising moves taking more and more of the visits) is seen.

It is fed a whole snapshot about ten times a second (``add_snapshot``) and keeps only the
newest; the table and chart are redrawn at most ``REFRESH_MS`` apart, and the last snapshot
of a search at once, so a fast search never floods the GUI thread.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QPointF,
    QRect,
    QRectF,
    QSize,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPainterPath, QPaintEvent, QPalette, QPen
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHeaderView,
    QLabel,
    QSizePolicy,
    QSplitter,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from ai import display as engine_display
from ai.events import Score
from ai.scores import WIN_SCORE, to_report
from ai.settings import SearchSettings
from ai.tree.mcts import MctsNodeStat, MctsSnapshot, VisitSample
from ai.tree.model import NodeKind
from games.base import CHANCE, GameState
from gui.panels import display
from gui.panels.display import LineNamer, MoveNamer
from gui.panels.tree.node_text import probability_text
from gui.theme import LIGHT, Theme, color

Index = QModelIndex | QPersistentModelIndex

REFRESH_MS: Final = 200
"""The table and chart are redrawn at most this often while snapshots arrive (5 a second)."""
TOP_SERIES: Final = 5
"""Root moves drawn as lines of their own in the chart; the rest are one "others" line."""
CELL_PADDING: Final = 6
"""Pixels beside a column's widest text (the view's text margins and a little room)."""
BAR_MIN_WIDTH: Final = 50
"""The share column: wide enough for a bar with "100.0%" on it."""
PICK_MARK: Final = "▸"
NO_NUMBER: Final = display.NO_VALUE
ROOT_CRUMB: Final = "Root"
VALUE_DIGITS: Final = 3
"""Means and UCB1 terms with three decimals: the terms of close siblings differ there."""

SERIES_COLOURS: Final[dict[bool, tuple[str, ...]]] = {
    False: ("#2f6fb0", "#d35400", "#1e8449", "#8e44ad", "#c0392b"),
    True: ("#6aa8e8", "#f0a04b", "#58d68d", "#c39bd3", "#ec7063"),
}
"""The top moves' line colours on a light (False) and a dark (True) panel: distinct hues,
each dark enough on white and light enough on the dark theme's panel."""

CHART_MARGIN: Final = 6.0
CHART_MIN_HEIGHT: Final = 150
LEGEND_SWATCH: Final = 14.0
LEGEND_GAP: Final = 8.0
AXIS_TICKS: Final = 4


# ---------------------------------------------------------------- words
def mean_text(value: float) -> str:
    """``+0.386``; never ``-0.000`` (a mean that rounds to 0 reads ``+0.000``)."""
    return f"{round(value, VALUE_DIGITS) + 0.0:+.{VALUE_DIGITS}f}"


def term_text(value: float) -> str:
    return NO_NUMBER if math.isnan(value) else f"{value:.{VALUE_DIGITS}f}"


def proof_score(stat: MctsNodeStat, plies: int, root_player: int, game: type[GameState]) -> Score:
    """MCTS-Solver's proven win or loss of ``stat`` as the ``Score`` the engine reports for
    it: ``plies`` to the end, in the root player's view (``MonteCarloTreeSearch.raw_value``)."""
    raw = WIN_SCORE - plies if (stat.proven or 0) > 0 else -(WIN_SCORE - plies)
    return to_report(raw, root_player, game, view=root_player)


def proven_text(stat: MctsNodeStat, plies: int, root_player: int, game: type[GameState]) -> str:
    """MCTS-Solver's verdict, worded as the engine panel words results: ``proven: win in 3
    plies for X``, ``proven: mate in 2 for White``, ``proven draw``."""
    if stat.proven is None:
        return ""
    if stat.proven == 0:
        return "proven draw"
    name = display.player_names(game)[root_player]
    return f"proven: {engine_display.value_text(proof_score(stat, plies, root_player, game), game)} for {name}"


def tree_words(snapshot: MctsSnapshot) -> str:
    """``tree 7,776 nodes (all shown)`` or ``tree 90,123 nodes (the 2,000 most visited shown)``."""
    shown = len(snapshot.nodes_shown)
    if shown >= snapshot.tree_size:
        return f"tree {display.count_text(snapshot.tree_size)} nodes (all shown)"
    return f"tree {display.count_text(snapshot.tree_size)} nodes (the {display.count_text(shown)} most visited shown)"


def nice_ticks(most: float, most_marks: int = AXIS_TICKS + 2) -> list[int]:
    """Round axis marks from 0 to just past ``most``: whole steps of 1, 2, 2.5 or 5 times a
    power of ten, at most ``most_marks`` steps (what the axis has room to label), the axis
    ending as close above ``most`` as those steps allow (so the lines use the plot's
    width), with as many steps to it as there is room for (a finer grid)."""
    if most <= 0:
        return [0, 1]
    most_marks = max(1, most_marks)
    candidates = []
    power = 1
    while power <= most:
        for multiple in (1, 2, 2.5, 5):
            step = multiple * power
            marks = math.ceil(most / step)
            if step == int(step) and marks <= most_marks:
                candidates.append((marks * step, -marks, int(step)))
        power *= 10
    if not candidates:
        return [0, 10 * power]
    end, _, step = min(candidates)
    return list(range(0, int(end) + 1, step))


def value_cell(child: MctsNodeStat, root_player: int, game: type[GameState]) -> str:
    """A child's mean, or for a proven child the solver's result for the root player in the
    engine's words (``win in 3 plies``, ``mate in 2``), counted from its parent: the child's
    own move included."""
    if child.proven is None:
        return mean_text(child.value) if child.visits else NO_NUMBER
    if child.proven == 0:
        return "draw"
    return engine_display.value_text(proof_score(child, child.proof_plies + 1, root_player, game), game)


# ---------------------------------------------------------------- the table
@dataclass(frozen=True)
class ChildColumn:
    header: str
    widest: str
    tip: str
    align: Qt.AlignmentFlag = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter


PICK, MOVE, VISITS, SHARE, CHANCE_COLUMN, MEAN, Q, EXPLORE, UCT, ALL_TREES = range(10)
"""The children table's columns."""


def child_columns() -> list[ChildColumn]:
    left = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
    centre = Qt.AlignmentFlag.AlignCenter
    return [
        ChildColumn("", PICK_MARK, "▸: UCB1's pick, the child the next iteration through this node descends into", centre),
        ChildColumn("Move", "", "The move (or the dice's outcome below a chance node)", left),
        ChildColumn("Visits", "9,999", "Iterations that went through this child"),
        ChildColumn("Share", "", "The child's visits as a share of the node's: where UCT spent its iterations"),
        ChildColumn("Chance", "1/36", "The outcome's probability: selection draws an outcome by it"),
        ChildColumn("Mean", "+0.000", "The mean result of the playouts through this child, in the root player's view "
                    "(+1 a win, -1 a loss; the game's points otherwise)"),
        ChildColumn("Q", "0.000", "The mean for the player choosing here, normalised into [0, 1] by the range of "
                    "results seen: UCB1's exploitation term"),
        ChildColumn("Explore", "0.000", "UCB1's exploration term C·√(ln N / n): N the node's visits, n the child's"),
        ChildColumn("UCT", "0.000", "Q + exploration: selection descends into the child with the largest"),
        ChildColumn("All trees", "9,999", "Root parallel: the move's visits summed over every worker's tree"),
    ]


@dataclass(frozen=True)
class ChildRow:
    """One child as the table shows it (texts made once per refresh)."""

    stat: MctsNodeStat
    texts: tuple[str, ...]
    share: float
    tip: str


class ChildrenModel(QAbstractTableModel):
    """The children of the node shown, most visited first."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.columns = child_columns()
        self.rows: list[ChildRow] = []
        self.bold = QFont()
        self.bold.setBold(True)
        self.muted: QColor | None = None

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802 (Qt's name)
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(self.columns)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row = self.rows[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return row.texts[column]
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return self.columns[column].align
        if role == Qt.ItemDataRole.FontRole and row.stat.is_pick:
            return self.bold
        if role == Qt.ItemDataRole.ForegroundRole and self.muted is not None and row.stat.visits == 0:
            return self.muted
        if role == Qt.ItemDataRole.ToolTipRole:
            return row.tip
        if role == Qt.ItemDataRole.UserRole:
            return row.share
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # noqa: N802
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.columns[section].header
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.columns[section].tip
        return None

    def set_header(self, column: int, text: str) -> None:
        if self.columns[column].header != text:
            self.columns[column] = ChildColumn(text, self.columns[column].widest, self.columns[column].tip,
                                               self.columns[column].align)
            self.headerDataChanged.emit(Qt.Orientation.Horizontal, column, column)

    def set_rows(self, rows: list[ChildRow]) -> None:
        """New rows: changed in place when the count is the same (the view keeps its scroll)."""
        if len(rows) == len(self.rows):
            self.rows = rows
            if rows:
                self.dataChanged.emit(self.index(0, 0), self.index(len(rows) - 1, len(self.columns) - 1))
            return
        self.beginResetModel()
        self.rows = rows
        self.endResetModel()


class ShareBarDelegate(QStyledItemDelegate):
    """The share column: a bar as long as the child's share of the node's visits, under the
    percentage (the cell's background first, then the bar, then the text, so both read)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bar_colour = QColor(color(LIGHT.accent))

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        item = QStyleOptionViewItem(option)
        self.initStyleOption(item, index)
        text = item.text  # type: ignore[attr-defined]
        item.text = ""  # type: ignore[attr-defined]
        widget = item.widget  # type: ignore[attr-defined]
        style = widget.style() if widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, item, painter, widget)
        share = index.data(Qt.ItemDataRole.UserRole)
        rect = QRect(item.rect).adjusted(3, 3, -3, -3)  # type: ignore[attr-defined]
        painter.save()
        if isinstance(share, float):
            fill = QColor(self.bar_colour)
            fill.setAlpha(120)
            painter.fillRect(QRectF(rect.left(), rect.top(), rect.width() * max(0.0, min(1.0, share)), rect.height()), fill)
        painter.setFont(item.font)  # type: ignore[attr-defined]
        painter.setPen(item.palette.color(QPalette.ColorRole.Text))  # type: ignore[attr-defined]
        painter.drawText(rect.adjusted(0, 0, -2, 0), int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter), text)
        painter.restore()


# ---------------------------------------------------------------- the chart
@dataclass(frozen=True)
class Series:
    """One line of the chart: a label and (iterations, visits) points."""

    label: str
    points: tuple[tuple[int, int], ...]
    is_others: bool = False

    @property
    def last(self) -> int:
        return self.points[-1][1] if self.points else 0


def visit_series(
    history: Sequence[VisitSample], names: Sequence[str], top: int = TOP_SERIES
) -> list[Series]:
    """The chart's lines from the history of the root's visits: one per move among the
    ``top`` most visited at the last sample (most visited first), and, when there are more,
    one line for the rest: their mean visits, so that the gap between the favourites and a
    typical other move is what the eye compares (their sum would dwarf every line at a
    root of thirty moves)."""
    if not history:
        return []
    last = history[-1]
    count = len(names)
    ranked = sorted(range(count), key=lambda child: (-last.visits_of(child), child))
    chosen = ranked[:top]
    series = [
        Series(names[child], tuple((sample.iterations, sample.visits_of(child)) for sample in history))
        for child in chosen
    ]
    rest = ranked[top:]
    if len(rest) == 1:  # one line for one move, rather than a "mean of 1 others"
        chosen, rest = ranked, []
        series.append(Series(names[chosen[-1]], tuple((sample.iterations, sample.visits_of(chosen[-1])) for sample in history)))
    if rest:
        points = tuple(
            (sample.iterations, round(sum(sample.visits_of(child) for child in rest) / len(rest))) for sample in history
        )
        series.append(Series(f"mean of {len(rest)} others", points, is_others=True))
    return series


class VisitChart(QWidget):
    """The root children's visits over the iterations, drawn with QPainter: the asymmetric
    growth of the UCT tree. The legend to the right names each line with its latest visits."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("mctsVisitChart")
        self._series: list[Series] = []
        self._theme: Theme = LIGHT
        self.setMinimumHeight(CHART_MIN_HEIGHT)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        return QSize(360, 190)

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        return QSize(self.legend_width() + 140, CHART_MIN_HEIGHT)

    def set_theme(self, theme: Theme) -> None:
        self._theme = theme
        self.update()

    def set_series(self, series: list[Series]) -> None:
        self._series = series
        self.updateGeometry()
        self.update()

    @property
    def series(self) -> list[Series]:
        return list(self._series)

    def series_colour(self, index: int) -> QColor:
        series = self._series[index]
        if series.is_others:
            return QColor(color(self._theme.muted_text))
        palette = SERIES_COLOURS[self._theme.is_dark]
        return QColor(palette[index % len(palette)])

    def legend_texts(self) -> list[str]:
        return [f"{series.label}  {display.count_text(series.last)}" for series in self._series]

    def legend_width(self) -> int:
        metrics = QFontMetrics(self.font())
        texts = self.legend_texts() or ["mean of 99 others  99,999"]
        return int(LEGEND_SWATCH + 4 + max(metrics.horizontalAdvance(text) for text in texts) + LEGEND_GAP)

    def plot_rect(self) -> QRectF:
        """Where the lines are drawn: the widget less the axis labels and the legend."""
        metrics = QFontMetrics(self.font())
        most_visits = max((max(visits for _, visits in series.points) for series in self._series), default=10)
        left = metrics.horizontalAdvance(display.count_text(2 * most_visits)) + CHART_MARGIN + 4
        bottom = metrics.height() * 2 + CHART_MARGIN
        top = metrics.height() + CHART_MARGIN
        return QRectF(left, top, max(10.0, self.width() - left - self.legend_width() - 2 * CHART_MARGIN),
                      max(10.0, self.height() - top - bottom))

    def paintEvent(self, _event: QPaintEvent) -> None:  # noqa: N802 (Qt's name)
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        theme = self._theme
        text, muted = color(theme.text), color(theme.muted_text)
        painter.fillRect(self.rect(), color(theme.panel))
        metrics = QFontMetrics(self.font())
        plot = self.plot_rect()
        painter.setPen(text)
        painter.drawText(QRectF(CHART_MARGIN, CHART_MARGIN / 2, self.width() - 2 * CHART_MARGIN, metrics.height()),
                         int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                         "Root moves' visits over the iterations")
        if not self._series:
            painter.setPen(muted)
            painter.drawText(plot, int(Qt.AlignmentFlag.AlignCenter), "No iterations yet")
            painter.end()
            return
        most_iterations = max(series.points[-1][0] for series in self._series)
        label_room = metrics.horizontalAdvance(display.count_text(most_iterations)) + metrics.height()
        iteration_marks = nice_ticks(most_iterations, int(plot.width() // label_room))
        visit_marks = nice_ticks(max(max(visits for _, visits in series.points) for series in self._series),
                                 int(plot.height() // (2 * metrics.height())))
        most_iterations, most_visits = iteration_marks[-1], visit_marks[-1]

        def at(iterations: int, visits: int) -> QPointF:
            return QPointF(plot.left() + plot.width() * iterations / most_iterations,
                           plot.bottom() - plot.height() * visits / most_visits)

        grid = QColor(muted)
        grid.setAlpha(80)
        for mark in visit_marks:
            y = plot.bottom() - plot.height() * mark / most_visits
            painter.setPen(QPen(grid, 1, Qt.PenStyle.DotLine))
            painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y))
            painter.setPen(muted)
            label = display.count_text(mark)
            painter.drawText(QRectF(0, y - metrics.height() / 2, plot.left() - 4, metrics.height()),
                             int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter), label)
        painter.setPen(QPen(muted, 1))
        painter.drawLine(plot.bottomLeft(), plot.bottomRight())
        painter.drawLine(plot.bottomLeft(), plot.topLeft())
        for mark in iteration_marks:
            x = plot.left() + plot.width() * mark / most_iterations
            label = display.count_text(mark)
            width = metrics.horizontalAdvance(label)
            left = min(max(x - width / 2, plot.left() - 4), self.width() - CHART_MARGIN - width)
            painter.drawText(QRectF(left, plot.bottom() + 2, width + 2, metrics.height()),
                             int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop), label)
        painter.drawText(QRectF(plot.left(), plot.bottom() + metrics.height() + 2, plot.width(), metrics.height()),
                         int(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop), "iterations")
        for index in reversed(range(len(self._series))):  # the most visited drawn last, on top
            series = self._series[index]
            path = QPainterPath(at(*series.points[0]))
            for point in series.points[1:]:
                path.lineTo(at(*point))
            style = Qt.PenStyle.DashLine if series.is_others else Qt.PenStyle.SolidLine
            painter.setPen(QPen(self.series_colour(index), 2.0 if index == 0 else 1.6, style))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPath(path)
        legend_left = plot.right() + LEGEND_GAP + CHART_MARGIN
        for index, label in enumerate(self.legend_texts()):
            y = plot.top() + index * (metrics.height() + 3)
            if y + metrics.height() > self.height():
                break
            style = Qt.PenStyle.DashLine if self._series[index].is_others else Qt.PenStyle.SolidLine
            painter.setPen(QPen(self.series_colour(index), 2.5, style))
            middle = y + metrics.height() / 2
            painter.drawLine(QPointF(legend_left, middle), QPointF(legend_left + LEGEND_SWATCH, middle))
            painter.setPen(text)
            painter.drawText(QRectF(legend_left + LEGEND_SWATCH + 4, y, self.width() - legend_left, metrics.height()),
                             int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), label)
        painter.end()


# ---------------------------------------------------------------- the view
class MctsView(QWidget):
    """The MCTS page of the tree panel. ``node_chosen(tuple)``: the moves from the root to
    the node the user opened (a double click, or a breadcrumb)."""

    node_chosen = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("mctsView")
        self.snapshot: MctsSnapshot | None = None
        self.root_state: GameState | None = None
        self.game: type[GameState] | None = None
        self.path: tuple[Any, ...] = ()
        """The moves from the root to the node the user opened."""
        self.shown_path: tuple[Any, ...] = ()
        """The moves to the node whose children the table shows: ``path``, or while a live
        snapshot lacks that node (only the most visited are sent), its nearest ancestor."""
        self._theme: Theme = LIGHT
        self._move_text: MoveNamer = lambda state, move: state.move_name(move)
        self._line_texts: LineNamer = lambda state, moves: state.line_names(moves)
        self._positions: dict[tuple[Any, ...], GameState] = {}
        self._dirty = False
        self._shown_stat: MctsNodeStat | None = None
        self._notice = ""

        self.summary = QLabel("MCTS: waiting for the search")
        self.summary.setObjectName("mctsSummary")
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.crumbs = QLabel("")
        self.crumbs.setObjectName("mctsBreadcrumb")
        self.crumbs.setWordWrap(True)
        self.crumbs.setTextFormat(Qt.TextFormat.RichText)
        self.crumbs.linkActivated.connect(self._crumb_clicked)
        self.crumbs.setToolTip("The node shown and the path to it from the root: click a step to go back up")
        self.node_line = QLabel("")
        self.node_line.setObjectName("mctsNodeLine")
        self.node_line.setWordWrap(True)
        self.node_line.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.model = ChildrenModel(self)
        self.table = QTableView()
        self.table.setObjectName("mctsChildren")
        self.table.setModel(self.model)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setWordWrap(False)
        self.table.setAlternatingRowColors(True)
        self.table.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(QFontMetrics(self.font()).height() + 6)
        self.table.horizontalHeader().setStretchLastSection(False)
        self.table.horizontalHeader().setSectionsClickable(False)
        self.table.horizontalHeader().setMinimumSectionSize(8)  # the pick mark's column is narrow
        self.table.setToolTip("")
        self.bar_delegate = ShareBarDelegate(self.table)
        self.table.setItemDelegateForColumn(SHARE, self.bar_delegate)
        self.table.doubleClicked.connect(lambda index: self.open_row(index.row()))

        self.chart = VisitChart()
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.setObjectName("mctsSplitter")
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(self.table)
        self.splitter.addWidget(self.chart)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(self.summary)
        layout.addWidget(self.crumbs)
        layout.addWidget(self.node_line)
        layout.addWidget(self.splitter, 1)

        self._timer = QTimer(self)
        self._timer.setInterval(REFRESH_MS)
        self._timer.timeout.connect(self._refresh_if_dirty)
        self._size_columns()
        self._show_columns(is_chance=False, has_merged=False)

    # ---------------------------------------------------------------- feeding
    def start(self, root_state: GameState, game_class: type[GameState], settings: SearchSettings | None = None) -> None:
        """A new search from ``root_state``: the old tree goes; the root is shown."""
        self.root_state = root_state.copy()
        self.game = game_class
        self.snapshot = None
        self.path = self.shown_path = ()
        self._positions = {(): self.root_state}
        self._notice = ""
        constant = f" · C = {settings.exploration:g}" if settings is not None else ""
        self.summary.setText(f"MCTS (UCT){constant}: waiting for the first snapshot of the tree")
        self.crumbs.setText("")
        self.node_line.setText("")
        self.model.set_rows([])
        self.chart.set_series([])

    def add_snapshot(self, snapshot: MctsSnapshot) -> None:
        """The newest picture of the tree (a whole one: older ones are dropped)."""
        self.snapshot = snapshot
        self._dirty = True
        if snapshot.complete:
            self.refresh()
        elif not self._timer.isActive():
            self.refresh()  # the first one at once, then throttled
            self._timer.start()

    def add_batch(self, _batch: object) -> None:
        """A depth-first search's records: MCTS sends none, so there is nothing to show."""

    def clear(self) -> None:
        self._timer.stop()
        self.snapshot = None
        self.root_state = None
        self.path = self.shown_path = ()
        self._positions = {}
        self.summary.setText("MCTS: no search yet")
        self.crumbs.setText("")
        self.node_line.setText("")
        self.model.set_rows([])
        self.chart.set_series([])

    def set_move_namer(self, move_text: MoveNamer | None, line_texts: LineNamer | None = None) -> None:
        """Name moves as the board does (``board.move_text`` / ``board.line_texts``)."""
        self._move_text = move_text or (lambda state, move: state.move_name(move))
        self._line_texts = line_texts or (lambda state, moves: state.line_names(moves))
        self._dirty = True

    def set_theme(self, theme: Theme) -> None:
        self._theme = theme
        self.chart.set_theme(theme)
        self.bar_delegate.bar_colour = QColor(color(theme.accent))
        self.model.muted = QColor(color(theme.muted_text))
        self.table.viewport().update()
        if self.snapshot is not None:
            self._show_crumbs()

    # ---------------------------------------------------------------- navigation
    def open_row(self, row: int) -> bool:
        """Show the children of the table's child ``row`` (a double click); False when the
        snapshot holds none (a leaf, or a node outside the most visited part sent)."""
        snapshot = self.snapshot
        if snapshot is None or not 0 <= row < len(self.model.rows):
            return False
        stat = self.model.rows[row].stat
        if not snapshot.children(stat.index):
            name = self.model.rows[row].texts[MOVE]
            if stat.child_count == 0:
                self._notice = f"{name} has no children yet: " + (
                    "the game is over there" if stat.kind is NodeKind.TERMINAL else "it was expanded and simulated, no more"
                )
            else:
                self._notice = (f"{name}'s {stat.child_count} children are not in the snapshot "
                                f"(it holds the {len(snapshot.nodes_shown):,} most visited nodes)")
            self._show_node_line()
            return False
        self.path = self.shown_path + (stat.move,)
        self._notice = ""
        self.refresh()
        self.node_chosen.emit(self.path)
        return True

    def go_up(self, depth: int) -> None:
        """Back to the node ``depth`` moves from the root (0: the root)."""
        self.path = self.path[: max(0, depth)]
        self._notice = ""
        self.refresh()
        self.node_chosen.emit(self.path)

    def _crumb_clicked(self, link: str) -> None:
        self.go_up(int(link))

    # ---------------------------------------------------------------- drawing
    def _refresh_if_dirty(self) -> None:
        if self._dirty:
            self.refresh()
        else:
            self._timer.stop()  # nothing arrived for a while: wake again with the next snapshot

    def refresh(self) -> None:
        """Table, breadcrumb, summary and chart from the newest snapshot."""
        self._dirty = False
        snapshot = self.snapshot
        if snapshot is None or self.root_state is None:
            return
        shown = self.path
        node = snapshot.find(shown)
        while node is None:  # not among the nodes sent now: its deepest ancestor that is
            shown = shown[:-1]
            node = snapshot.find(shown)
        self.shown_path = shown
        self._shown_stat = node
        self._show_summary(snapshot)
        self._show_crumbs()
        self._show_children(snapshot, node)
        self._show_chart(snapshot)

    def position(self, path: tuple[Any, ...]) -> GameState:
        """The root with ``path`` played (cached along the path shown)."""
        known = self._positions.get(path)
        if known is not None:
            return known
        state = self.position(path[:-1]).result(path[-1])
        if len(self._positions) > 64:
            self._positions = {(): self._positions[()]}
        self._positions[path] = state
        return state

    def player_name(self, player: int) -> str:
        assert self.game is not None
        return display.player_names(self.game)[player]

    def _show_summary(self, snapshot: MctsSnapshot) -> None:
        parts = [
            f"MCTS (UCT), C = {snapshot.exploration_constant:g}",
            f"{display.count_text(snapshot.iterations)} iterations",
            f"{display.count_text(snapshot.nodes)} nodes searched",
            tree_words(snapshot),
        ]
        if snapshot.workers > 1:
            parts.append(f"{snapshot.workers} trees searched in parallel: this is the main worker's; "
                         "“All trees” sums the root over every tree")
        parts.append("final" if snapshot.complete else "searching…")
        self.summary.setText(" · ".join(parts))

    def _show_crumbs(self) -> None:
        """Root ▸ e4 ▸ **e5**: each step a link back up; steps past the node shown (not in
        the snapshot now) greyed."""
        names = ["Root"]
        for depth in range(len(self.path)):
            names.append(self._move_text(self.position(self.path[:depth]), self.path[depth]))
        crumbs = []
        link = color(self._theme.accent).name()  # the theme's, readable on either panel
        muted = color(self._theme.muted_text).name()
        shown = len(self.shown_path)
        for depth, name in enumerate(names):
            text = html.escape(name)
            if depth == shown:
                crumbs.append(f"<b>{text}</b>")
            elif depth > shown:
                crumbs.append(f'<span style="color: {muted}">{text}</span>')
            else:
                crumbs.append(f'<a href="{depth}" style="color: {link}">{text}</a>')
        self.crumbs.setText(" ▸ ".join(crumbs))

    def node_words(self, stat: MctsNodeStat, snapshot: MctsSnapshot) -> str:
        """What the node is and what the next iteration through it will do."""
        root_name = self.player_name(snapshot.root_player)
        if stat.kind is NodeKind.CHANCE:
            who = "Chance node (dice to roll)"
        elif stat.kind is NodeKind.TERMINAL:
            who = "Terminal: the game is over"
        else:
            player = snapshot.root_player if stat.kind is NodeKind.MAX else 1 - snapshot.root_player
            who = f"{'MAX' if stat.kind is NodeKind.MAX else 'MIN'}: {self.player_name(player)} to move"
        words = [who, f"N = {display.count_text(stat.visits)} visits",
                 f"mean {mean_text(stat.value)} for {root_name}"]
        if stat.is_proven:
            game = type(self.position(()))
            words.append(proven_text(stat, stat.proof_plies, snapshot.root_player, game) + ": selection stops here")
        elif stat.kind is NodeKind.CHANCE:
            words.append("next: an outcome drawn by its probability")
        elif stat.untried:
            words.append(f"next: expands one of its {stat.untried} untried moves")
        else:
            pick = next((row for row in self.model.rows if row.stat.is_pick), None)
            if pick is not None and pick.stat.visits == 0:
                words.append(f"next: {pick.texts[MOVE]}, never visited (UCB1 tries an unvisited child first)")
            elif pick is not None:
                words.append(f"next: UCB1 picks {pick.texts[MOVE]} (largest UCT, {pick.texts[UCT]})")
        return " · ".join(words)

    def _show_node_line(self) -> None:
        snapshot, stat = self.snapshot, self._shown_stat
        if snapshot is None or stat is None:
            return
        text = self.node_words(stat, snapshot)
        if stat.kind.is_decision and not stat.is_proven:
            text += f"\nUCT = Q + C·√(ln N / n), C = {snapshot.exploration_constant:g}, ln N = {math.log(max(stat.visits, 1)):.3f}"
        if len(self.shown_path) < len(self.path):
            text += (f"\nThe node opened is not among the {display.count_text(len(snapshot.nodes_shown))} most visited "
                     "nodes of this snapshot: its nearest ancestor is shown until it is again.")
        if self._notice:
            text += f"\n{self._notice}"
        self.node_line.setText(text)

    def _show_children(self, snapshot: MctsSnapshot, node: MctsNodeStat) -> None:
        state = self.position(self.shown_path)
        is_chance = node.kind is NodeKind.CHANCE
        children = snapshot.children(node.index)
        merged = {stat.move: stat.visits for stat in snapshot.merged_root} if not self.shown_path else {}
        chooser = state.to_move()
        chooser_name = self.player_name(chooser) if chooser in (0, 1) else ""
        root_name = self.player_name(snapshot.root_player)
        total = max(node.visits, 1)
        rows = []
        for child in children:
            name = self._move_text(state, child.move) if child.move is not None else NO_NUMBER
            share = child.visits / total
            texts = (
                PICK_MARK if child.is_pick else "",
                name,
                display.count_text(child.visits),
                display.percent_text(share, compact=True),
                probability_text(child.probability) or "1",
                value_cell(child, snapshot.root_player, type(state)),
                term_text(child.exploitation),
                term_text(child.exploration),
                term_text(child.uct),
                display.count_text(merged[child.move]) if child.move in merged else NO_NUMBER,
            )
            tip = self.row_tip(child, name, root_name, chooser_name, node)
            rows.append(ChildRow(child, texts, share, tip))
        self.model.set_header(MEAN, f"Mean ({root_name})")
        self.model.set_header(Q, f"Q ({chooser_name})" if chooser_name else "Q")
        self.model.set_rows(rows)
        self._show_node_line()
        self._show_columns(is_chance, bool(merged))
        self._size_columns()

    def row_tip(self, child: MctsNodeStat, name: str, root_name: str, chooser_name: str, node: MctsNodeStat) -> str:
        lines = [f"{name}: {display.count_text(child.visits)} of the node's {display.count_text(node.visits)} visits"]
        if child.visits:
            lines.append(f"mean {mean_text(child.value)} for {root_name}"
                         + (f", {mean_text(child.mover_value)} for {chooser_name}" if chooser_name else ""))
        if not math.isnan(child.uct):
            lines.append(f"UCT = Q {child.exploitation:.3f} + exploration {child.exploration:.3f} = {child.uct:.3f}")
        if child.is_pick:
            lines.append("UCB1's pick: the next iteration through this node descends here")
        if child.is_proven and self.snapshot is not None:
            plies = child.proof_plies + 1
            game = type(self.position(()))
            lines.append(proven_text(child, plies, self.snapshot.root_player, game) + " (this move included)")
            if math.isnan(child.uct) and child.visits:
                lines.append("a proven loss for the player choosing here: selection never tries it again")
        if child.child_count:
            lines.append(f"{child.child_count} children; double-click to open")
        elif child.kind is NodeKind.TERMINAL:
            lines.append("the game is over here")
        return "\n".join(lines)

    def _show_columns(self, is_chance: bool, has_merged: bool) -> None:
        for column, hidden in (
            (CHANCE_COLUMN, not is_chance),
            (Q, is_chance),
            (EXPLORE, is_chance),
            (UCT, is_chance),
            (PICK, is_chance),
            (ALL_TREES, not has_merged),
        ):
            if self.table.isColumnHidden(column) != hidden:
                self.table.setColumnHidden(column, hidden)

    def _size_columns(self) -> None:
        """Every column as wide as its widest text or header (the move column's from the
        names shown), so that nothing is elided; the view scrolls sideways when narrow."""
        bold = QFont(self.table.font())
        bold.setBold(True)
        bold_metrics = QFontMetrics(bold)
        header_metrics = QFontMetrics(self.table.horizontalHeader().font())
        header = self.table.horizontalHeader()
        for column, spec in enumerate(self.model.columns):
            widest = spec.widest
            texts = [row.texts[column] for row in self.model.rows]
            width = max([bold_metrics.horizontalAdvance(text) for text in texts + [widest]], default=0)
            width = max(width, header_metrics.horizontalAdvance(spec.header) + 8)
            if column == SHARE:
                width = max(width, BAR_MIN_WIDTH)
            width += CELL_PADDING
            if header.sectionSize(column) != width:
                header.setSectionResizeMode(column, QHeaderView.ResizeMode.Fixed)
                header.resizeSection(column, width)

    def _show_chart(self, snapshot: MctsSnapshot) -> None:
        root = self.position(())
        names = [self._move_text(root, move) for move in snapshot.root_moves]
        self.chart.set_series(visit_series(snapshot.history, names))

    # ---------------------------------------------------------------- reading (tests, screenshots)
    def row_texts(self) -> list[tuple[str, ...]]:
        return [row.texts for row in self.model.rows]

    def shown_node(self) -> MctsNodeStat | None:
        return self._shown_stat


__all__ = ["MctsView", "Series", "VisitChart", "visit_series"]
