"""The engine panel: what the search is doing, live, about ten times a second.

Everything is built once and updated in place (label texts, rows appended to models), so a
display refreshed ten times a second neither flickers nor makes the layout jump: value labels
and table columns are as wide as their widest possible text (the score's for the game
searched) from the start; in a narrow dock the less important ones are hidden rather than
cut off.

Connect it to an ``EngineBridge`` with ``connect_bridge`` (or call the ``on_*`` slots).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QEvent, QModelIndex, QPersistentModelIndex, QSize, Qt, Signal, Slot
from PySide6.QtGui import QFont, QFontMetrics, QPainter, QPalette, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QGridLayout,
    QHeaderView,
    QLabel,
    QSizePolicy,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ai import options
from ai.events import CurrentMove, Finished, Iteration, Progress, PvLine, RootMoveStat, Score
from ai.levels import LevelChoice
from ai.search.chance_common import next_decider
from ai.tt import Bound
from games import GAME_NAMES, get_game
from games.base import CHANCE, GameState
from gui.engine_bridge import EngineBridge, SearchInfo
from gui.dialogs.new_game import game_title
from gui.panels import display
from gui.panels.display import LineNamer, MoveNamer

Index = QModelIndex | QPersistentModelIndex
ALIGN_NUMBER = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
ALIGN_TEXT = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
STATIC_SCORE_WORDS = "a static evaluation, not searched"
"""What the status line says of the score of an answer found without a search (a book
move, a known answer, the only legal move)."""
STATIC_SCORE_TIP = (
    "A static evaluation of the position after this move: nothing was searched, so the eval bar "
    "and the graph keep the game's last searched evaluation"
)
"""The muted headline's tooltip: why the bar beside it shows another number."""


NO_BREAK_SPACE = "\u00a0"
NO_BREAK_HYPHEN = "\u2011"
WORD_JOINER = "\u2060"
"""No line break on either side (Unicode line breaking, UAX #14)."""


def unbroken(name: str) -> str:
    """A move's name that a wrapped line never breaks: its spaces and hyphens unbreakable,
    no break after a ``/``."""
    return name.replace(" ", NO_BREAK_SPACE).replace("-", NO_BREAK_HYPHEN).replace("/", "/" + WORD_JOINER)


def tabular_font(base: QFont) -> QFont:
    """A font whose digits all have one width, so changing numbers do not shimmy: the app's
    own (the bundled DejaVu Sans has tabular figures; a system monospace font may be absent
    from the packaged app), asked for tabular figures where the font has the feature."""
    font = QFont(base)
    tag = QFont.Tag.fromString("tnum") if hasattr(QFont, "Tag") else None
    if tag is not None:
        font.setFeature(tag, 1)
    return font


CELL_PADDING = 10
"""Pixels beside a column's widest text: the item view's and the header's text margins
(3 and 4 a side in Fusion) with a little room to spare, so no text is ever elided."""
MIN_LINE_WIDTH = 90
"""The narrowest principal variation column worth showing (a move or two; the whole line is
in the label above and in the cell's tooltip)."""


class Column:
    """A table column: header, alignment, the widest text it will hold (sets its width) and
    a tooltip for a terse header."""

    def __init__(self, header: str, widest: str, align: Qt.AlignmentFlag = ALIGN_NUMBER, tip: str = "") -> None:
        self.header = header
        self.widest = widest
        self.align = align
        self.tip = tip


class RowsModel(QAbstractTableModel):
    """Rows of ready-made texts; appending or replacing rows never resets the view."""

    def __init__(self, columns: list[Column], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.columns = columns
        self.rows: list[tuple[str, ...]] = []
        self.row_notes: dict[int, str] = {}
        """Rows drawn muted, each with the tooltip that says why (a best line the search
        did not reach again at its last depth)."""

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802 (Qt's name)
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(self.columns)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.rows[index.row()][index.column()]
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return self.columns[index.column()].align
        note = self.row_notes.get(index.row())
        if role == Qt.ItemDataRole.ForegroundRole and note is not None:
            return QApplication.palette().brush(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
        if role == Qt.ItemDataRole.ToolTipRole and note is not None:
            return note
        if role == Qt.ItemDataRole.ToolTipRole and not self.columns[index.column()].widest:
            return self.rows[index.row()][index.column()]  # a free-width cell may be elided
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # noqa: N802
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.columns[section].header
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.columns[section].tip or None
        return None

    def set_header(self, column: int, text: str) -> None:
        if self.columns[column].header != text:
            self.columns[column].header = text
            self.headerDataChanged.emit(Qt.Orientation.Horizontal, column, column)

    def append(self, row: tuple[str, ...]) -> None:
        self.beginInsertRows(QModelIndex(), len(self.rows), len(self.rows))
        self.rows.append(row)
        self.endInsertRows()

    def replace(self, rows: Sequence[tuple[str, ...]]) -> None:
        """New contents: rows changed in place, the rest inserted or removed."""
        common = min(len(rows), len(self.rows))
        if len(rows) < len(self.rows):
            self.beginRemoveRows(QModelIndex(), len(rows), len(self.rows) - 1)
            del self.rows[len(rows):]
            self.endRemoveRows()
        changed = [row for row in range(common) if self.rows[row] != rows[row]]
        self.rows[:common] = rows[:common]
        if changed:
            self.dataChanged.emit(self.index(changed[0], 0), self.index(changed[-1], len(self.columns) - 1))
        if len(rows) > common:
            self.beginInsertRows(QModelIndex(), common, len(rows) - 1)
            self.rows.extend(rows[common:])
            self.endInsertRows()

    def clear(self) -> None:
        self.row_notes = {}
        self.replace([])


ITERATION_COLUMNS = [
    Column("Depth", "99/99", tip="Depth / selective depth (the deepest line searched)"),
    Column("Score", max((display.widest_score_value(get_game(name)) for name in GAME_NAMES), key=len)),
    Column("Nodes", "99,999,999", tip="Positions visited up to this depth"),
    Column("Time", "99.99 s", tip="Seconds from the start of the search"),
    Column(
        "EBF",
        "99.99",
        tip="Effective branching factor b*: the branching of a uniform tree of this depth with as many "
        "nodes as this depth searched (AIMA 3.6.1); low when the hash table answered much of it",
    ),
    Column("TT hits", "100.0%", tip="Transposition table: probes that found the position"),
    Column("1st cut", "100.0%", tip="Cut-offs made by the first move tried (good ordering: high)"),
    Column("Principal variation", "", ALIGN_TEXT),
]
"""Per iteration: what a student compares between settings (rates and cut-off counts of the
running search are in the counters above the table)."""
ITERATION_DROP_ORDER = (7, 6, 5, 4, 3)
"""The iteration columns that give way in a narrow dock, first to last: the line (it is in
the label above), the rates (the latest are in the counters), the time; depth, score and
nodes always stay."""
ROOT_MOVE_COLUMNS = [
    Column("Move", "", ALIGN_TEXT),  # takes the width the numbers leave (a backgammon turn is long)
    Column("Visits", "99,999,999"),
    Column("Share", "100.0%"),
    Column("Value", "≥ +9.999"),
]
VALUE_COLUMN = 3
LINE_COLUMNS = [
    Column("#", "9", tip="The line's rank: 1 is the move the engine plays"),
    Column("Score", max((display.widest_score_value(get_game(name)) for name in GAME_NAMES), key=len)),
    Column("Depth", "99", tip="The depth the line was searched to (a stop leaves a line at the last depth)"),
    Column("Line", "", ALIGN_TEXT),
]
"""The best lines (MultiPV), one a row, best first: each the best move once the better
lines' first moves are left out, with its own exact score."""
LINE_SCORE_COLUMN = 1
LINE_TEXT_ROWS = 2
"""Rows of text a best line may take in its cell (a depth-10 chess line at the dock's width)."""
LINE_EFFORT_COLUMN = 2
"""The line's depth (MCTS: its first move's visits)."""
LINE_DROP_ORDER = (2,)
"""In a narrow dock the depth gives way first; rank, score and line always stay."""


class FittingTable(QTableView):
    """A table whose less important columns give way, in a set order, when the view is too
    narrow for all of them (a small window's engine dock): the columns kept stand wholly in
    sight, neither elided nor scrolled to; a wider view brings the others back."""

    def __init__(self, drop_order: Sequence[int] = ()) -> None:
        super().__init__()
        self._drop_order = tuple(drop_order)
        self._widths: dict[int, int] = {}
        """The fixed columns' widths (the last column stretches over what is left)."""

    def size_column(self, column: int) -> None:
        """A fixed column as wide as its widest text or its header (after either changed)."""
        spec: Column = self.model().columns[column]  # type: ignore[attr-defined]
        text_width = QFontMetrics(self.font()).horizontalAdvance(spec.widest)
        header_width = QFontMetrics(self.horizontalHeader().font()).horizontalAdvance(spec.header)
        self._widths[column] = max(text_width, header_width) + CELL_PADDING
        self.horizontalHeader().setSectionResizeMode(column, QHeaderView.ResizeMode.Fixed)
        self.horizontalHeader().resizeSection(column, self._widths[column])
        self.fit_columns()

    def fit_columns(self) -> None:
        if not self._drop_order or self.model() is None:
            return
        room = self.viewport().width()
        last = self.model().columnCount() - 1
        shown = list(range(last + 1))

        def needed() -> int:
            fixed = sum(self._widths.get(column, 0) for column in shown if column != last)
            return fixed + (MIN_LINE_WIDTH if last in shown else 0)

        for column in self._drop_order:
            if needed() <= room:
                break
            shown.remove(column)
        for column in self._drop_order:
            if self.isColumnHidden(column) != (column not in shown):
                self.setColumnHidden(column, column not in shown)

    def viewportEvent(self, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if event.type() == QEvent.Type.Resize:  # the dock's width, or a scroll bar came or went
            self.fit_columns()
        return super().viewportEvent(event)


def make_table(model: RowsModel, font: QFont, drop_order: Sequence[int] = ()) -> FittingTable:
    """A read-only table whose fixed columns are as wide as their widest text; those in
    ``drop_order`` are hidden, in that order, while the view is too narrow for them."""
    view = FittingTable(drop_order)
    view.setModel(model)
    view.setFont(font)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
    view.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    view.setWordWrap(False)
    view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)  # a narrow dock scrolls, never cuts
    view.setTextElideMode(Qt.TextElideMode.ElideRight)
    view.setAlternatingRowColors(True)
    view.verticalHeader().hide()
    header = view.horizontalHeader()
    header.setMinimumSectionSize(8)
    view.verticalHeader().setDefaultSectionSize(QFontMetrics(font).height() + 6)
    for column, spec in enumerate(model.columns):
        if spec.widest:
            view.size_column(column)
    header.setStretchLastSection(True)
    return view


class StatLabel(QLabel):
    """A value label of a fixed width (its column's widest expected text), right-aligned:
    changing numbers never move anything."""

    def __init__(self, width: int, font: QFont) -> None:
        super().__init__(display.NO_VALUE)
        self.setFont(font)
        self.setAlignment(ALIGN_NUMBER)
        self.setFixedWidth(width)  # no relayout as numbers change
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)


class ElidedLabel(QLabel):
    """One line of text that never runs past its width: cut in the middle with "…" (so a
    searched move's start and its depth at the end both stay), the whole text in a tooltip."""

    def setText(self, text: str) -> None:  # noqa: N802 (Qt's name)
        super().setText(text)
        self.setToolTip(text)
        self.update()

    def shown_text(self) -> str:
        """The text as drawn: elided to the label's width."""
        return self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideMiddle, self.contentsRect().width())

    def paintEvent(self, _event: Any) -> None:  # noqa: N802 (Qt's name)
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.drawText(self.contentsRect(), int(self.alignment()), self.shown_text())


STATS: list[tuple[str, str, str]] = [
    # key, caption, widest value
    ("depth", "Depth / sel.", "99 / 99"),
    ("nodes", "Nodes", "999,999,999"),
    ("nps", "Nodes/s", "999 k/s"),
    ("time", "Time", "999.99 s"),
    ("hash", "Hash fill", "100.0 %"),
    ("tt", "TT hit rate", "100.0 %"),
    ("cutoffs", "Cut-offs", "999,999,999"),
    ("first_cut", "1st-move cuts", "100.0 %"),
    ("ebf", "Eff. branching", "999.99"),
]
CURRENT_MOVE = ("current", "Searching")
"""The root move being searched: its own row, as wide as the panel (a backgammon turn is long)."""


class StatsGrid(QWidget):
    """The counters as caption/value pairs: two pairs side by side when there is room, one
    pair a row in a narrow engine dock (a small window), so the panel never asks for the
    width of two pairs; the last row (the move being searched) spans the grid."""

    def __init__(self, pairs: list[tuple[QLabel, QWidget]], wide_row: tuple[QLabel, QWidget]) -> None:
        super().__init__()
        self._pairs = pairs
        self._wide_row = wide_row
        self._grid = QGridLayout(self)
        self._grid.setContentsMargins(0, 0, 0, 0)
        self._grid.setHorizontalSpacing(10)
        self._grid.setVerticalSpacing(2)
        self._columns = 0
        self._lay_out(1)
        self._narrow_width = self._grid.minimumSize().width()
        self._lay_out(2)
        self._wide_width = self._grid.minimumSize().width()

    @property
    def columns(self) -> int:
        """Pairs side by side (1 or 2)."""
        return self._columns

    def _lay_out(self, columns: int) -> None:
        if columns == self._columns:
            return
        grid = self._grid
        while grid.count():
            grid.takeAt(0)
        for column in range(6):
            grid.setColumnStretch(column, 0)
            grid.setColumnMinimumWidth(column, 0)
        rows = (len(self._pairs) + columns - 1) // columns
        for index, (caption, value) in enumerate(self._pairs):
            pair, row = divmod(index, rows)
            grid.addWidget(caption, row, pair * 3)
            grid.addWidget(value, row, pair * 3 + 1)
        caption, value = self._wide_row
        grid.addWidget(caption, rows, 0)
        grid.addWidget(value, rows, 1, 1, 3 * columns - 1)
        if columns > 1:
            grid.setColumnMinimumWidth(2, 16)  # between the two columns of counters
        grid.setColumnStretch(3 * columns - 1, 1)  # spare width goes to the right
        self._columns = columns
        grid.invalidate()
        self.updateGeometry()

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        return QSize(self._narrow_width, super().minimumSizeHint().height())

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self._lay_out(2 if event.size().width() >= self._wide_width else 1)


class EnginePanel(QWidget):
    """Depth, score from a named side, PV in the game's notation, counters, the iteration
    table and (MCTS, chance roots) the root moves; the algorithm and its settings.

    ``best_move_changed(move | None)`` when the engine's current best move changes (the
    first move of the latest principal variation), for the board's arrow.
    """

    best_move_changed = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._info: SearchInfo | None = None
        self._game: type[GameState] | None = None
        self._last_score: Score | None = None
        self._exact_line = display.NO_VALUE
        """The principal variation of the last complete iteration (kept through a fail)."""
        self._last_exact: Iteration | None = None
        """The last complete iteration's report: the answer is checked against it."""
        self._value_player = display.NO_VALUE
        """The player whose view the root moves' values are (the side to move at the root)."""
        self._current_depth: int | None = None
        """The depth the "Searching" line speaks of (``None``: no search running)."""
        self._after_move: tuple[Any, GameState] | None = None
        """The root move last reported with a roll, and the chance node its rolls come from."""
        self._move_namer: MoveNamer | None = None
        self._line_namer: LineNamer | None = None
        self._shown_game: type[GameState] | None = None
        """The game whose numbers the labels show (``None``: dashes)."""
        self._best_move: object | None = None
        self._game_over: tuple[str, str] | None = None
        """The finished game's result and reason while the headline shows them."""
        self._before_game_over = ("", "")
        """The status and headline the result replaced (back after a take-back)."""
        self._finished_status = ""
        """The status line of this game's last finished search (``Best move Rc8# (done, …)``)."""
        self._headline_is_static = False
        """The headline is an answer's static evaluation (a book move, a known answer, the
        only move), not a searched one: drawn muted, its tooltip says why the eval bar differs."""
        self._lines_wanted = 1
        """The best lines the current search reports (``SearchSettings.multipv``)."""
        self._shows_search: Callable[[SearchInfo], bool] | None = None
        numbers = tabular_font(self.font())

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.setSpacing(4)

        self.status_label = QLabel("Engine idle")
        self.status_label.setObjectName("engineStatus")
        self.status_label.setWordWrap(True)  # an engine error is a sentence
        self.status_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        layout.addWidget(self.status_label)

        self.score_label = QLabel(display.NO_VALUE)
        self.score_label.setObjectName("engineScore")
        score_font = QFont(self.font())
        score_font.setPointSizeF(self.font().pointSizeF() * 1.5)
        score_font.setBold(True)
        self.score_label.setFont(score_font)
        self.score_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.score_label)

        self.pv_label = QLabel(display.NO_VALUE)
        self.pv_label.setObjectName("enginePv")
        self.pv_label.setWordWrap(True)
        self.pv_label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.pv_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        pv_lines = 3
        self.pv_label.setFixedHeight(QFontMetrics(self.pv_label.font()).lineSpacing() * pv_lines + 4)
        self.pv_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        layout.addWidget(self.pv_label)

        self.lines = RowsModel([Column(c.header, c.widest, c.align, c.tip) for c in LINE_COLUMNS], self)
        self.line_view = make_table(self.lines, self.font(), LINE_DROP_ORDER)
        self.line_view.setObjectName("engineLines")
        self.line_view.setAlternatingRowColors(False)  # the ranks tell the rows apart
        # Each line wraps over up to LINE_TEXT_ROWS rows of text (between its moves), as the
        # principal variation's label does; the whole line is in the cell's tooltip.
        self.line_view.setWordWrap(True)
        self.line_view.verticalHeader().setDefaultSectionSize(
            QFontMetrics(self.font()).lineSpacing() * LINE_TEXT_ROWS + CELL_PADDING // 2
        )

        self.stat_labels: dict[str, QLabel] = {}
        half = (len(STATS) + 1) // 2
        metrics = QFontMetrics(numbers)
        pairs: list[tuple[QLabel, QWidget]] = []
        for pair, stats in enumerate([STATS[:half], STATS[half:]]):
            width = max(metrics.horizontalAdvance(widest) for _, _, widest in stats) + 4
            for key, caption, _widest in stats:
                value = StatLabel(width, numbers)
                pairs.append((QLabel(caption), value))
                self.stat_labels[key] = value
        current = ElidedLabel(display.NO_VALUE)
        current.setFont(numbers)
        current.setMinimumWidth(0)
        current.setAlignment(ALIGN_TEXT)
        current.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.stat_labels[CURRENT_MOVE[0]] = current
        self.stats = StatsGrid(pairs, (QLabel(CURRENT_MOVE[1]), current))
        layout.addWidget(self.stats)

        self.settings_label = QLabel("")
        self.settings_label.setObjectName("engineSettings")
        self.settings_label.setWordWrap(True)
        self.settings_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        small = QFont(self.font())
        small.setPointSizeF(self.font().pointSizeF() * 0.9)
        self.settings_label.setFont(small)
        layout.addWidget(self.settings_label)

        self.iterations = RowsModel([Column(c.header, c.widest, c.align) for c in ITERATION_COLUMNS], self)
        self.root_moves = RowsModel([Column(c.header, c.widest, c.align) for c in ROOT_MOVE_COLUMNS], self)
        self.iteration_view = make_table(self.iterations, self.font(), ITERATION_DROP_ORDER)
        self.root_move_view = make_table(self.root_moves, self.font())
        root_header = self.root_move_view.horizontalHeader()
        root_header.setStretchLastSection(False)  # the moves' names stretch, elided, whole in a tooltip
        root_header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.tabs = QTabWidget()
        # The best lines are a tab, first and shown while a search looks for several: the
        # tabs take the height the window leaves (a small window's panel never overflows).
        self.tabs.addTab(self.line_view, "Best lines")
        self.tabs.addTab(self.iteration_view, "Iterations")
        self.tabs.addTab(self.root_move_view, "Root moves")
        self.tabs.setTabVisible(self.tabs.indexOf(self.line_view), False)
        layout.addWidget(self.tabs, 1)

    # ------------------------------------------------------------------ wiring
    def set_move_namer(self, move_text: MoveNamer | None, line_texts: LineNamer | None = None) -> None:
        """Name moves as the board labels them (``board.move_text`` / ``board.line_texts``:
        backgammon's points in the numbering the board shows); ``None``: the game's notation."""
        self._move_namer = move_text
        self._line_namer = line_texts

    def _move_text(self, root: GameState, move: Any) -> str:
        if move is None or self._move_namer is None:
            return display.move_text(root, move)
        return self._move_namer(root, move)

    def _line_text(self, root: GameState, moves: Sequence[Any]) -> str:
        if not moves or self._line_namer is None:
            return display.line_text(root, moves)
        return display.joined_line(self._line_namer(root, moves))

    def _wrapping_line_text(self, root: GameState, moves: Sequence[Any]) -> str:
        """A line that wraps only between its moves, never inside one (``O-O``, ``10-14``,
        a backgammon turn ``24/18 13/11``)."""
        if not moves:
            return display.NO_VALUE
        names = self._line_namer(root, moves) if self._line_namer is not None else root.line_names(moves)
        return display.joined_line([unbroken(name) for name in names])

    def connect_bridge(self, bridge: EngineBridge) -> None:
        bridge.search_started.connect(self.on_search_started)
        bridge.iteration_received.connect(self.on_iteration)
        bridge.progress_received.connect(self.on_progress)
        bridge.current_move_received.connect(self.on_current_move)
        bridge.search_finished.connect(self.on_finished)
        bridge.search_failed.connect(self.on_failed)

    @property
    def score(self) -> Score | None:
        """The latest score shown (for the eval bar and graph)."""
        return self._last_score

    def pv_text(self) -> str:
        return self.pv_label.text()

    # ------------------------------------------------------------------- slots
    def show_game_over(self, result: str, reason: str) -> None:
        """The game is over: its result is the headline (``Black wins``), never the last
        search's forecast (``Black mates in 1`` once it is mate, as Lichess shows "Checkmate"),
        and the status line says the greyed line and counters below are the last search's."""
        if self._game_over is None:
            self._before_game_over = (self.status_label.text(), self.score_label.text())
        self._game_over = (result, reason)
        status = f"Game over: {reason}" if reason else "Game over"
        if self._finished_status:
            status += f". Below, the last search: {self._finished_status}"
        self.status_label.setText(status)
        self.score_label.setText(result)
        self._set_stale(True)
        self.score_label.setEnabled(True)
        self.score_label.setToolTip("")

    def clear_game_over(self) -> None:
        """The game goes on again (a take-back): the last search's headline is back."""
        if self._game_over is None:
            return
        self._game_over = None
        status, headline = self._before_game_over
        self.status_label.setText(status)
        self.score_label.setText(headline)
        self._set_stale(False)

    def show_taken_back(self) -> None:
        """The position the last search was of was taken back: its numbers stay, greyed,
        and the status line says they are of a position no longer on the board."""
        if self._info is None or self._game_over is not None:
            return
        self.status_label.setText("Engine idle: below, the last search, of a position taken back")
        self._set_stale(True)

    @property
    def is_showing_game_over(self) -> bool:
        return self._game_over is not None

    def _keep_game_over(self) -> None:
        """A search's late report after the end (a resignation while the engine thought)
        changes the numbers below, not the result above them."""
        if self._game_over is not None:
            result, reason = self._game_over
            self._game_over = None
            self.show_game_over(result, reason)

    def set_search_filter(self, shows: Callable[[SearchInfo], bool] | None) -> None:
        """Which searches the panel shows (``None``: all): a search passed by leaves the
        last one's numbers in place, and its events are not this panel's ("why not this
        move?" searches a move alone while the panel keeps the best move's analysis)."""
        self._shows_search = shows

    def last_analysis(self) -> tuple[SearchInfo | None, Iteration | None]:
        """The search shown and its last complete iteration (either ``None``)."""
        return self._info, self._last_exact

    @Slot(object)
    def on_search_started(self, info: SearchInfo) -> None:
        if self._shows_search is not None and not self._shows_search(info):
            return
        self._game_over = None
        self._info = info
        self._game = type(info.root)
        self._last_score = None
        self._headline_is_static = False
        self._exact_line = display.NO_VALUE
        self._last_exact = None
        self._set_best_move(None)
        game = self._game
        self.iterations.clear()
        self.root_moves.clear()
        view_name = display.player_names(game)[display.FIXED_VIEW]
        self.iterations.columns[1].widest = display.widest_score_value(game)  # narrower for chess
        self.iterations.set_header(1, f"Score ({view_name})")
        self.iteration_view.size_column(1)
        is_chance = info.root.to_move() == CHANCE
        mover = next_decider(info.root.copy()) if is_chance else info.root.to_move()
        mover_name = display.player_names(game)[mover] if mover is not None else display.NO_VALUE
        self.root_moves.set_header(0, "Roll" if is_chance else "Move")
        self.root_moves.set_header(2, "Chance" if is_chance else "Share")
        self._value_player = mover_name
        self.root_moves.set_header(VALUE_COLUMN, f"Value ({mover_name})")
        self.root_move_view.size_column(VALUE_COLUMN)  # as wide as its header names the player
        self.tabs.setTabEnabled(self.tabs.indexOf(self.root_move_view), False)
        self.status_label.setText(f"Thinking: {game_title(game.NAME)}, {self._limits_text(info)}")
        if self._shown_game is game:  # the last search's numbers stay, greyed, until this one has its own
            self._set_stale(True)
        else:  # nothing of another game means anything here
            self.score_label.setText(display.NO_VALUE)
            self.pv_label.setText(display.NO_VALUE)
            for label in self.stat_labels.values():
                label.setText(display.NO_VALUE)
        self._clear_current()
        current = self.stat_labels["current"]
        current.setText("starting …")  # until the engine's first report (a new pool's workers start first)
        current.setToolTip("The engine has not reported on this search yet")
        self.settings_label.setText(options.settings_line(info.settings, game))
        self.tabs.setCurrentWidget(self.iteration_view)
        self._prepare_lines(info, game, view_name)

    def _prepare_lines(self, info: SearchInfo, game: type[GameState], view_name: str) -> None:
        """The best-lines tab: shown, and the tab in sight, when the search looks for more
        than one line (``multipv``, where its algorithm reads it); the last search's rows
        stay, greyed with the rest, until this one's first iteration."""
        wanted = info.settings.multipv if options.is_used("multipv", info.settings, game) else 1
        self._lines_wanted = wanted if info.root.to_move() != CHANCE else 1
        index = self.tabs.indexOf(self.line_view)
        if self._lines_wanted < 2:
            self.tabs.setTabVisible(index, False)
            self.lines.clear()
            return
        if self._shown_game is not game:
            self.lines.clear()
        self.lines.columns[LINE_SCORE_COLUMN].widest = display.widest_score_value(game)
        self.lines.set_header(LINE_SCORE_COLUMN, f"Score ({view_name})")
        self.line_view.size_column(LINE_SCORE_COLUMN)
        # MCTS ranks its lines by visits, not by a searched depth: the column says which.
        by_visits = info.settings.algorithm in options.MCTS_ONLY
        effort = self.lines.columns[LINE_EFFORT_COLUMN]
        effort.widest = "99,999,999" if by_visits else LINE_COLUMNS[LINE_EFFORT_COLUMN].widest
        effort.tip = "Playouts through the line's first move" if by_visits else LINE_COLUMNS[LINE_EFFORT_COLUMN].tip
        self.lines.set_header(LINE_EFFORT_COLUMN, "Visits" if by_visits else LINE_COLUMNS[LINE_EFFORT_COLUMN].header)
        self.line_view.size_column(LINE_EFFORT_COLUMN)
        self.tabs.setTabVisible(index, True)
        self.tabs.setCurrentIndex(index)

    def _show_lines(self, lines: Sequence[PvLine]) -> None:
        """The best lines, one a row, ranked: the score from the panel's fixed view and the
        line in the board's notation (whole in the cell's tooltip)."""
        info, game = self._info, self._game
        if info is None or game is None or self._lines_wanted < 2:
            return
        depth = max((line.depth for line in lines), default=0)
        self.lines.row_notes = {
            row: f"Searched to depth {line.depth}: the search stopped before it searched this line "
            f"again at depth {depth}, so its score may not compare with the lines above"
            for row, line in enumerate(lines[: self._lines_wanted])
            if line.depth and line.depth < depth
        }
        self.lines.replace(
            [
                (
                    str(line.rank),
                    display.score_value_text(line.score, game),
                    display.count_text(line.visits) if line.visits else str(line.depth) if line.depth else display.NO_VALUE,
                    self._wrapping_line_text(info.root, line.pv),
                )
                for line in lines[: self._lines_wanted]
            ]
        )
        self.line_view.viewport().update()  # a row muted or not with the same text

    def line_texts(self) -> list[tuple[str, ...]]:
        """The best-lines table's rows as shown (rank, score, depth, line)."""
        return list(self.lines.rows)

    @Slot(object)
    def on_iteration(self, event: Iteration) -> None:
        """A completed depth, or an aspiration fail reported before its re-search: then the
        score reads as the bound it is (``White ≥ +0.35``, as chess GUIs show a fail high or
        low), never a dash, and the line shown stays the last complete one (a fail low has
        none; a fail high only its new first move, written in front of it)."""
        info, game = self._info, self._game
        if info is None or game is None or event.search_id != info.search_id:
            return
        is_exact = event.bound is Bound.EXACT
        self._headline_is_static = False
        self._set_stale(False)
        if is_exact or self._last_score is None:
            self._last_score = event.score
        line = self._line_text(info.root, event.pv)
        self.score_label.setText(display.score_text(event.score, game, event.bound, display.match_odds(info.root)))
        if is_exact:
            self._exact_line = line
            self._last_exact = event
            self.pv_label.setText(line)
            self.pv_label.setToolTip(line)  # the whole line, should it not fit its three rows
        else:
            shown = self._fail_line(info.root, event)
            self.pv_label.setText(shown)
            self.pv_label.setToolTip(shown)
        self._show_counters(event.nodes, event.nps, event.time, event.hashfull, event.depth, event.seldepth)
        self.stat_labels["tt"].setText(display.percent_text(event.tt_hit_rate))
        self.stat_labels["cutoffs"].setText(display.count_text(event.cutoffs))
        self.stat_labels["first_cut"].setText(display.percent_text(event.first_move_cutoff_rate))
        self.stat_labels["ebf"].setText(display.ebf_text(event.ebf))
        self.iterations.append(
            (
                f"{event.depth}/{event.seldepth}",
                display.bound_mark(event.bound, event.score) + display.score_value_text(event.score, game),
                display.count_text(event.nodes),
                display.seconds_text(event.time),
                display.ebf_text(event.ebf),
                display.percent_text(event.tt_hit_rate, compact=True),
                display.percent_text(event.first_move_cutoff_rate, compact=True),
                line if is_exact else self._fail_note(info.root, event),
            )
        )
        self.iteration_view.scrollToBottom()
        if event.pv and is_exact:
            self._set_best_move(event.pv[0])
        if event.lines:
            self._show_lines(event.lines)
        if event.root_moves:
            self._show_root_moves(event.root_moves)
        self._keep_game_over()

    def _fail_note(self, root: GameState, event: Iteration) -> str:
        """An aspiration fail's row in the table: ``Rd1: fails high, re-searching`` (high or
        low for the side to move, whose search it is; the score column has the bound)."""
        note = f"{'fails high' if event.bound is Bound.LOWER else 'fails low'}, re-searching"
        if event.pv:
            return f"{self._move_text(root, event.pv[0])}: {note}"
        return note[:1].upper() + note[1:]

    def _fail_line(self, root: GameState, event: Iteration) -> str:
        """The line shown under a fail's score: the last complete line after a fail low; after
        a fail high, that line if it starts with the new move, else the new move alone."""
        before = self._exact_line
        if event.pv:
            first = self._move_text(root, event.pv[0])
            if before.startswith(first + display.MOVE_SEPARATOR) or before.startswith(first + " | "):
                return before
            return f"{first} …"
        return before

    def _answer_row(self, info: SearchInfo, event: Finished) -> tuple[int, int | None, Bound]:
        """The depth, selective depth and bound the answer is shown with.

        The answer is the last complete iteration's (its row says it all), or a search cut
        short mid-iteration kept the better move that iteration had already found: then that
        move's score is the cut iteration's lower bound for the side to move (the other moves
        were not searched yet), and it gets a row of its own, ``≥`` marked. An MCTS answer
        has more visits than its last report: its own row too. Nothing searched depth by depth
        (a book move, a known answer): no row, the answer's own depth."""
        last, game = self._last_exact, self._game
        assert game is not None
        if last is None:
            return event.depth, event.seldepth, Bound.EXACT
        first = last.pv[0] if last.pv else None
        if event.score == last.score and event.best_move == first:
            return last.depth, last.seldepth, Bound.EXACT
        mover = info.root.to_move()
        is_estimate = any(stat.visits for stat in event.root_moves)  # MCTS: more playouts, no bound
        is_cut = event.stopped and mover != CHANCE and not is_estimate
        if is_cut:
            depth, bound = last.depth + 1, Bound.LOWER if event.score.view == mover else Bound.UPPER
            note = f"{self._move_text(info.root, event.best_move)}: the best move so far, depth cut short"
        else:
            depth, bound = event.depth, Bound.EXACT
            note = self._line_text(info.root, event.pv)
        seldepth = max(event.seldepth, depth)
        self.iterations.append(
            (
                f"{depth}/{seldepth}",
                display.bound_mark(bound, event.score) + display.score_value_text(event.score, game),
                display.count_text(event.nodes),
                display.seconds_text(event.time),
                display.NO_VALUE,
                display.percent_text(event.stats.tt_hit_rate, compact=True),
                display.percent_text(event.stats.first_move_cutoff_rate, compact=True),
                note,
            )
        )
        self.iteration_view.scrollToBottom()
        return depth, seldepth, bound

    @Slot(object)
    def on_progress(self, event: Progress) -> None:
        if self._info is None or event.search_id != self._info.search_id:
            return
        self._set_counters_stale(False)
        self._show_counters(event.nodes, event.nps, event.time, event.hashfull, event.depth, None)
        if event.depth != self._current_depth:  # a depth under way whose first move is not named yet
            self._current_depth = event.depth
            current = self.stat_labels["current"]
            current.setText(f"depth {event.depth} …")
            current.setToolTip(f"Depth {event.depth} is being searched; it has not named a root move yet")

    @Slot(object)
    def on_current_move(self, event: CurrentMove) -> None:
        """The root move (or, before the dice, the roll) being searched, its place in the
        root's order, the roll searched under it (the expectimax family) and the depth:
        ``24/18 13/11 (3/12), roll 6-5 (2/21), depth 3``."""
        info = self._info
        if info is None or event.search_id != info.search_id:
            return
        self._current_depth = event.depth
        text = f"{self._move_text(info.root, event.move)} ({event.number}/{event.total})"
        if event.roll is not None:  # the expectimax family: the roll searched under the move
            text += f", roll {self._move_text(self._rolled_from(event.move, event.roll), event.roll)} ({event.roll_number}/{event.roll_total})"
        current = self.stat_labels["current"]
        current.setText(f"{text}, depth {event.depth}")
        current.setToolTip(current.text())

    def _rolled_from(self, move: Any, roll: Any) -> GameState:
        """The chance node under root move ``move`` where ``roll`` is thrown, which names it:
        the position after the move, or (a decision comes first: backgammon's cube) the one
        after the decision that leads to the dice. Found once a move: the search reports
        each of its rolls in turn."""
        info = self._info
        assert info is not None
        if self._after_move is None or self._after_move[0] != move:
            after = info.root.result(move)
            if after.to_move() != CHANCE and not after.is_terminal():
                for decision in after.legal_moves():
                    child = after.result(decision)
                    if child.to_move() == CHANCE and any(outcome == roll for outcome, _ in child.chance_outcomes()):
                        after = child
                        break
            self._after_move = (move, after)
        return self._after_move[1]

    @Slot(object)
    def on_finished(self, event: Finished) -> None:
        """The answer. Its score, line and depth are those of a row of the table: the last
        complete iteration's when the answer is that iteration's; otherwise the answer gets
        its own row first (``_answer_row``), so the headline never shows a number no row has."""
        info, game = self._info, self._game
        if info is None or game is None or event.search_id != info.search_id:
            return
        self._last_score = event.score
        # Nothing searched: the score is a static evaluation, which the eval bar and graph never
        # show (``display.is_game_evaluation``); the headline says so rather than sit, unmarked,
        # beside the bar's older searched value ("O 64.2% MWC" against "O 62%").
        self._headline_is_static = event.book or event.forced or event.only_move
        self._set_stale(False)
        depth, seldepth, bound = self._answer_row(info, event)
        self.score_label.setText(display.score_text(event.score, game, bound, display.match_odds(info.root)))
        if event.pv:
            self.pv_label.setText(self._line_text(info.root, event.pv))
        elif event.best_move is not None:
            self.pv_label.setText(self._move_text(info.root, event.best_move))
        self._show_counters(event.nodes, event.nps, event.time, None, depth, seldepth)
        if not self.iterations.rows:  # nothing searched depth by depth (a book move, a known
            for key in ("tt", "cutoffs", "first_cut", "ebf"):  # answer): the last search's
                self.stat_labels[key].setText(display.NO_VALUE)  # rates are not this one's
        stats = event.stats
        if stats.tt_probes:
            self.stat_labels["tt"].setText(display.percent_text(stats.tt_hit_rate))
        if stats.cutoffs:
            self.stat_labels["cutoffs"].setText(display.count_text(stats.cutoffs))
            self.stat_labels["first_cut"].setText(display.percent_text(stats.first_move_cutoff_rate))
        self._clear_current()
        if event.lines:
            self._show_lines(event.lines)
        if event.root_moves:
            self._show_root_moves(event.root_moves)
        self._set_best_move(event.best_move)
        how = "stopped" if event.stopped else "done"
        if info.root.to_move() == CHANCE:  # nothing to choose before the dice: a value
            what = "Value before the roll"
        elif event.book:  # nothing searched: the score is the position's static evaluation
            what, how = f"Book move {self._move_text(info.root, event.best_move)}", STATIC_SCORE_WORDS
        elif event.forced:
            what, how = f"Known answer {self._move_text(info.root, event.best_move)}", "no search needed: a static evaluation"
        elif event.only_move:  # one legal move: played at once, its score a static evaluation
            what, how = f"Only move {self._move_text(info.root, event.best_move)}", "no search needed: a static evaluation"
        else:
            what = f"Best move {self._move_text(info.root, event.best_move)}"
        if event.book or event.forced or event.only_move:
            status = f"{what} ({how})"
        else:
            status = f"{what} ({how}, {display.seconds_text(event.time)})"
        if event.fault is not None:  # survived: the answer is the last iteration before it
            status += f"; {event.fault}"
        self.status_label.setText(status)
        self._finished_status = self.status_label.text()
        self._keep_game_over()

    @Slot(object)
    def on_level_played(self, choice: LevelChoice) -> None:
        """A weak level's move (``GameSession.level_played``, after ``on_finished`` of its
        search): the headline, line and status say the move played and its score, the ones
        the eval graph keeps, and what the search preferred (``Level 1 played e6 (its search
        preferred Nf6, Black +0.06)``); a level that played its best among every move
        leaves the answer as it stands."""
        info, game = self._info, self._game
        if info is None or game is None or choice.search_id != info.search_id:
            return
        if not choice.deviated and not choice.overlooked:
            return
        reasons = []
        if choice.deviated:
            best = display.score_text(choice.best_score, game, "exact", display.match_odds(info.root))
            reasons.append(f"its search preferred {self._move_text(info.root, choice.best_move)}, {best}")
        if choice.overlooked:
            reasons.append(f"it looked at {choice.looked_at} of {choice.legal} moves")
        self._headline_is_static = False
        self._mark_headline()
        self.score_label.setText(display.score_text(choice.score, game, "exact", display.match_odds(info.root)))
        self.pv_label.setText(self._line_text(info.root, choice.line))
        self._set_best_move(choice.move)
        self.status_label.setText(
            f"Level {choice.level} played {self._move_text(info.root, choice.move)} ({'; '.join(reasons)})")
        self._finished_status = self.status_label.text()
        self._keep_game_over()

    @Slot(str)
    def on_failed(self, message: str) -> None:
        self.status_label.setText(f"Engine error: {message}")
        self._clear_current()

    def clear(self) -> None:
        """Back to idle with nothing shown (a new game: the last game's numbers mean nothing)."""
        self._info = None
        self._shown_game = None
        self._game_over = None
        self._finished_status = ""
        self._last_score = None
        self._headline_is_static = False
        self._exact_line = display.NO_VALUE
        self._set_best_move(None)
        self._set_stale(False)
        self.status_label.setText("Engine idle")
        self.score_label.setText(display.NO_VALUE)
        self.pv_label.setText(display.NO_VALUE)
        self.pv_label.setToolTip("")
        for label in self.stat_labels.values():
            label.setText(display.NO_VALUE)
        self.iterations.clear()
        self.root_moves.clear()
        self.lines.clear()
        self.tabs.setTabVisible(self.tabs.indexOf(self.line_view), False)
        self._last_exact = None
        self._clear_current()
        self.settings_label.setText("")  # the next search names its algorithm and settings
        for model, columns in ((self.iterations, ITERATION_COLUMNS), (self.root_moves, ROOT_MOVE_COLUMNS)):
            for column, spec in enumerate(columns):
                model.set_header(column, spec.header)  # no player of the last game
        self.tabs.setTabEnabled(self.tabs.indexOf(self.root_move_view), False)
        self.tabs.setCurrentWidget(self.iteration_view)

    # ----------------------------------------------------------------- helpers
    def _set_stale(self, is_stale: bool) -> None:
        """Grey the score, line and counters of the last search while a new one has shown
        nothing yet, rather than flash dashes between every two searches of a game."""
        if not is_stale and self._info is not None:
            self._shown_game = self._game
        for label in (self.score_label, self.pv_label, self.line_view):
            if label.isEnabled() == is_stale:
                label.setEnabled(not is_stale)
        self._set_counters_stale(is_stale)
        if not is_stale:
            self._mark_headline()

    def _mark_headline(self) -> None:
        """A static headline (``_headline_is_static``) muted, with the tooltip that says why,
        and the best lines, which are the last search's (of the position before), greyed as
        stale; a searched headline as it is."""
        if self._headline_is_static:
            self.score_label.setEnabled(False)
            self.score_label.setToolTip(STATIC_SCORE_TIP)
            self.line_view.setEnabled(False)
        else:
            self.score_label.setToolTip("")

    def _clear_current(self) -> None:
        """Nothing is being searched."""
        self._current_depth = None
        self._after_move = None
        self.stat_labels["current"].setText(display.NO_VALUE)
        self.stat_labels["current"].setToolTip("")

    def _set_counters_stale(self, is_stale: bool) -> None:
        for label in self.stat_labels.values():
            if label.isEnabled() == is_stale:
                label.setEnabled(not is_stale)

    def _set_best_move(self, move: object | None) -> None:
        if move != self._best_move:
            self._best_move = move
            self.best_move_changed.emit(move)

    def _show_counters(
        self, nodes: int, nps: float, seconds: float, hashfull: float | None, depth: int, seldepth: int | None
    ) -> None:
        labels = self.stat_labels
        labels["nodes"].setText(display.count_text(nodes))
        labels["nps"].setText(display.rate_text(nps))
        labels["time"].setText(display.seconds_text(seconds))
        if hashfull is not None:
            labels["hash"].setText(display.percent_text(hashfull))
        if seldepth is not None:
            labels["depth"].setText(f"{depth} / {seldepth}")
        elif labels["depth"].text() == display.NO_VALUE:
            labels["depth"].setText(f"{depth}")

    def _show_root_moves(self, stats: tuple[RootMoveStat, ...]) -> None:
        info = self._info
        if info is None:
            return
        root = info.root
        total = sum(stat.visits for stat in stats)
        if total:  # MCTS: the most visited first (the move it will play)
            ordered = sorted(stats, key=lambda stat: stat.visits, reverse=True)
        else:  # searched values (a chance root's rolls): the best first
            ordered = sorted(stats, key=lambda stat: stat.value, reverse=True)
        chances = dict(root.chance_outcomes()) if root.to_move() == CHANCE else {}
        rows = []
        for stat in ordered:
            if stat.move in chances:
                share = display.percent_text(chances[stat.move], compact=True)
            elif total:
                share = display.percent_text(stat.visits / total, compact=True)
            else:
                share = display.NO_VALUE
            visits = display.count_text(stat.visits) if total else display.NO_VALUE
            rows.append((self._move_text(root, stat.move), visits, share, f"{stat.value:+.3f}"))
        self.root_moves.replace(rows)
        # MCTS's value of a move is its playouts' mean result (-1 loss .. +1 win), not a score
        # on the headline's scale: the header says which it is.
        header = f"{'Mean' if total else 'Value'} ({self._value_player})"
        if self.root_moves.columns[VALUE_COLUMN].header != header:
            self.root_moves.set_header(VALUE_COLUMN, header)
            self.root_move_view.size_column(VALUE_COLUMN)
        # Columns with nothing to say are hidden, so the value stays in sight in a narrow dock:
        # visits are MCTS's, a share MCTS's or the dice's (a chance root).
        self.root_move_view.setColumnHidden(1, not total)
        self.root_move_view.setColumnHidden(2, not (total or chances))
        index = self.tabs.indexOf(self.root_move_view)
        if not self.tabs.isTabEnabled(index):
            self.tabs.setTabEnabled(index, True)
            if self._lines_wanted < 2:  # the best lines asked for stay in sight
                self.tabs.setCurrentIndex(index)  # the first root statistics: show them

    @staticmethod
    def _limits_text(info: SearchInfo) -> str:
        limits = info.limits
        parts = []
        if limits.depth is not None:
            parts.append(f"depth {limits.depth}")
        if limits.time is not None:
            parts.append(f"{limits.time:g} s")
        if limits.nodes is not None:
            parts.append(f"{limits.nodes:,} nodes")
        return ", ".join(parts) if parts else "until stopped"
