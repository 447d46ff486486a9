"""The race window: the chosen algorithms on the current position, to one depth, side by side.

The user ticks the entrants, picks the depth (by default the deepest whose minimax takes
seconds, estimated from the position; a warning when minimax would take long) and starts.
The table fills as each entrant completes an iteration (value, best move, nodes, time,
nodes/s, effective branching factor); the chart draws each entrant's nodes per depth on a
log scale beside the ``b^d`` and ``b^(d/2)`` curves of the measured branching factor; the
verdict line says whether every depth-first entrant returned minimax's value (in red when
one did not). "Copy table" puts the race as text on the clipboard.

Everything runs in the race's worker processes (``gui.race.runner``); the window only
receives signals, so it never waits.
"""

from __future__ import annotations

from typing import Any, Final, Protocol

from PySide6.QtCore import QSize, Qt, Signal, SignalInstance
from PySide6.QtGui import QCloseEvent, QColor, QGuiApplication, QIcon, QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QDialog,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ai.race import (
    ALL_ENTRANTS,
    BUDGET_SOURCES,
    MAX_RACE_DEPTH,
    MINIMAX_NODE_BUDGET,
    NUMERIC_COLUMNS,
    TABLE_HEADINGS,
    Branching,
    DepthDone,
    Entrant,
    EntrantProgress,
    EntrantResult,
    RaceRequest,
    RaceResult,
    deepest_within,
    entrant_settings,
    extrapolated,
    minimax_nodes,
    prepare_race,
    quick_levels,
    row_cells,
)
from ai.settings import SearchSettings
from games.base import GameState
from gui.dialogs.new_game import game_title
from gui.race.chart import NodesChart, Series, SeriesKind
from gui.race.runner import RaceRunner, SpeedProbe
from gui.theme import LIGHT, Theme, theme_named

ENTRANT_COLOURS: dict[Entrant, tuple[str, str]] = {
    Entrant.MINIMAX: ("#c0392b", "#ff6b5e"),
    Entrant.ALPHABETA: ("#d35400", "#ffa040"),
    Entrant.ALPHABETA_ORDERED: ("#9a7d0a", "#f1d04b"),
    Entrant.ALPHABETA_TABLE: ("#1e8449", "#52d68a"),
    Entrant.PVS: ("#1f5fa8", "#6fb2ff"),
    Entrant.MTDF: ("#7d3c98", "#c79bf2"),
    Entrant.MCTS: ("#a0306e", "#f07cc0"),
}
"""Each entrant's colour in the light and the dark theme (the chart's lines, the table's
swatches): distinct hues, dark enough on white and light enough on the dark panel."""
CURVE_COLOURS = ("#6b6b6b", "#b5b5b5")
"""The textbook curves: grey, dashed (b^d) and dotted (b^(d/2))."""
DISAGREEMENT_COLOUR = "#e0302a"
"""A value that is not minimax's, and the verdict that says so (readable in both themes)."""
SWATCH_SIZE = 12
ROW_HEIGHT_EMS = 1.45
VERDICT_LINES = 2
PROGRESS_COLUMN = {"nodes": 4, "time": 5, "nps": 6, "depth": 3}
"""Columns a running entrant's progress updates."""
DIALOG_SIZE = QSize(1020, 760)
MINIMUM_SIZE = QSize(760, 680)
"""Below this the wrapped position line and the chart's legend would squeeze the chart (and a
768-line screen still holds it)."""


def entrant_colour(entrant: Entrant, theme: Theme) -> QColor:
    light, dark = ENTRANT_COLOURS[entrant]
    return QColor(dark if theme.is_dark else light)


def swatch(colour: QColor) -> QIcon:
    """A square of ``colour``, the same when its widget is disabled (while a race runs the
    check boxes are, and their colours are the chart's legend)."""
    pixmap = QPixmap(SWATCH_SIZE, SWATCH_SIZE)
    pixmap.fill(colour)
    icon = QIcon(pixmap)
    icon.addPixmap(pixmap, QIcon.Mode.Disabled)
    return icon


def big_number(nodes: float) -> str:
    """``4,900,000`` as ``4.9 million``, ``8.0e16`` as ``8.0 × 10^16``: a warning's estimate."""
    if nodes == float("inf"):
        return "∞"
    if nodes >= 1e12:
        mantissa, exponent = f"{nodes:.1e}".split("e")
        return f"{mantissa} × 10^{int(exponent)}"
    if nodes >= 1e9:
        return f"{nodes / 1e9:.1f} billion"
    if nodes >= 1e6:
        return f"{nodes / 1e6:.1f} million"
    return f"{nodes:,.0f}"


SPEED_PROBE_SECONDS: Final = 0.05
"""A minimax search this long, on this position and off the GUI thread, measures its nodes
a second for the warning (once, when a depth first needs the warning; a race's own minimax
replaces it)."""

HOPELESS_SECONDS: Final = 24 * 3600.0
"""A minimax estimated to take longer than a day will not finish: Start is refused."""

DURATION_UNITS: Final = (
    (365.25 * 24 * 3600, "year"), (24 * 3600, "day"), (3600, "hour"), (60, "minute"), (1, "second"),
)


def duration_text(seconds: float) -> str:
    """``about 40 seconds``, ``about 3 hours``, ``about 400 years``, ``about 2.3 × 10^9 years``."""
    if seconds == float("inf"):
        return "forever"
    for size, unit in DURATION_UNITS:
        if seconds >= size or unit == "second":
            count = seconds / size
            if count >= 1e6:
                return f"about {big_number(count)} {unit}s"
            rounded = max(1, round(count))
            return f"about {rounded:,} {unit}{'' if rounded == 1 else 's'}"
    raise AssertionError("the last unit takes any time")


class RaceDialog(QDialog):
    """The race on ``state`` (a copy is kept); ``race_finished(RaceResult)`` at each end."""

    race_finished = Signal(object)

    def __init__(
        self, state: GameState, settings: SearchSettings | None = None, theme: Theme | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.state = state.copy()
        self.game = type(state)
        self.settings = settings or SearchSettings()
        self.theme = theme or LIGHT
        self.runner: RaceRunner | None = None
        self.is_racing = False
        """From Start until the race's ``finished`` signal (the race's own thread may still
        be ending its processes then: nothing here waits for it)."""
        self.race_result: RaceResult | None = None
        self._rows: dict[Entrant, int] = {}
        self._points: dict[Entrant, list[tuple[int, float]]] = {}
        self._mcts_nodes: float | None = None
        self._branching: Branching | None = None
        self._depth = 1
        self._minimax_speed: float | None = None
        """Minimax's nodes a second on this position: measured once when a warning needs it,
        then the last race's own."""
        self._speed_probe: SpeedProbe | None = None
        self._hopeless = False
        """Minimax at the chosen depth would take more than ``HOPELESS_SECONDS``: no Start."""
        self._levels: tuple[float, ...] = ()
        """Knuth's quick estimate of the position's full-width tree, nodes per level, made
        once (chess to depth 12 takes ~0.1 s): the default depth and every warning read it."""
        self.setWindowTitle(f"Algorithm race — {game_title(self.game.NAME)}")
        self.setModal(False)
        self.setMinimumSize(MINIMUM_SIZE)
        self.resize(DIALOG_SIZE)
        screen = self.screen().availableGeometry() if self.screen() is not None else None
        if screen is not None:  # a laptop's 768 lines: the whole window on the screen
            self.resize(min(DIALOG_SIZE.width(), screen.width() * 95 // 100), min(DIALOG_SIZE.height(), screen.height() * 92 // 100))
        self._build()
        self.problem = self._position_problem()
        if self.problem:
            self.verdict.setText(self.problem)
            self.start_button.setEnabled(False)
        if not self.problem:
            self._levels = quick_levels(self.state)
        self.depth_box.setValue(deepest_within(self._levels) if not self.problem else 1)
        self._update_warning()
        self._update_buttons()

    # ------------------------------------------------------------------ building
    def _build(self) -> None:
        layout = QVBoxLayout(self)
        mover = self.state.to_move()
        side = self.game.PLAYER_NAMES[mover] if mover in (0, 1) else ""
        self.position_label = QLabel(
            f"Position: {self.state.to_text()}" + (f" — values for {side}, the side to move" if side else "")
        )
        self.position_label.setWordWrap(True)
        self.position_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.position_label)

        entrants = QGroupBox("Entrants (exact preset: every depth-first one must return minimax's value)")
        grid = QGridLayout(entrants)
        self.checks: dict[Entrant, QCheckBox] = {}
        for index, entrant in enumerate(ALL_ENTRANTS):
            box = QCheckBox(entrant.label)
            box.setChecked(True)
            box.setToolTip(entrant.spec.description)
            box.setIcon(swatch(entrant_colour(entrant, self.theme)))
            box.toggled.connect(self._on_entrants_changed)
            grid.addWidget(box, index // 4, index % 4)
            self.checks[entrant] = box
        layout.addWidget(entrants)

        controls = QHBoxLayout()
        controls.addWidget(QLabel("Depth"))
        self.depth_box = QSpinBox()
        self.depth_box.setRange(1, MAX_RACE_DEPTH)
        self.depth_box.setToolTip("Plies every depth-first entrant deepens to (iterative deepening)")
        self.depth_box.valueChanged.connect(self._update_warning)
        self.depth_box.valueChanged.connect(self._on_depth_changed)
        controls.addWidget(self.depth_box)
        self.budget_label = QLabel()
        self.budget_label.setWordWrap(True)
        self.budget_label.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        controls.addWidget(self.budget_label, 1)
        self.start_button = QPushButton("Start")
        self.start_button.setDefault(True)
        self.start_button.clicked.connect(self.start)
        self.stop_button = QPushButton("Stop")
        self.stop_button.clicked.connect(self.stop)
        controls.addWidget(self.start_button)
        controls.addWidget(self.stop_button)
        layout.addLayout(controls)
        self.warning = QLabel()
        self.warning.setWordWrap(True)
        self.warning.setObjectName("raceWarning")
        layout.addWidget(self.warning)

        self.table = QTableWidget(0, len(TABLE_HEADINGS))
        self.table.setHorizontalHeaderLabels([heading[0].upper() + heading[1:] for heading in TABLE_HEADINGS])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        rows = self.table.verticalHeader()
        rows.setDefaultSectionSize(round(self.fontMetrics().height() * ROW_HEIGHT_EMS))
        # Room for every entrant's row without scrolling.
        self.table.setMinimumHeight(header.sizeHint().height() + len(ALL_ENTRANTS) * rows.defaultSectionSize() + 4)
        self.chart = NodesChart()
        self.chart.set_theme(self.theme)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.table)
        splitter.addWidget(self.chart)
        splitter.setStretchFactor(0, 2)
        splitter.setStretchFactor(1, 3)
        splitter.setChildrenCollapsible(False)
        layout.addWidget(splitter, 1)

        self.verdict = QLabel("Tick the entrants, choose the depth and start.")
        self.verdict.setWordWrap(True)
        self.verdict.setObjectName("raceVerdict")
        self.verdict.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # Its own row, two lines high whatever it says: a verdict with the note on tied moves
        # wraps, and a row shared with the buttons was cut at its second line.
        self.verdict.setMinimumHeight(VERDICT_LINES * self.fontMetrics().lineSpacing() + 4)
        self.verdict.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        layout.addWidget(self.verdict)
        bottom = QHBoxLayout()
        bottom.addStretch(1)
        self.copy_button = QPushButton("Copy table")
        self.copy_button.setToolTip("The race as aligned text: the table, nodes per depth and the verdict")
        self.copy_button.clicked.connect(self.copy_table)
        bottom.addWidget(self.copy_button)
        close = QPushButton("Close")
        close.clicked.connect(self.close)
        bottom.addWidget(close)
        layout.addLayout(bottom)

    def _position_problem(self) -> str:
        """Why this position cannot be raced ("" when it can)."""
        try:
            prepare_race(RaceRequest(game=self.game.NAME, depth=1, entrants=(Entrant.MINIMAX,), position=self.state.to_text()))
        except ValueError as error:
            return f"No race here: {error}."
        return ""

    # ------------------------------------------------------------------ choices
    def entrants(self) -> tuple[Entrant, ...]:
        return tuple(entrant for entrant, box in self.checks.items() if box.isChecked())

    def set_entrants(self, entrants: tuple[Entrant, ...]) -> None:
        for entrant, box in self.checks.items():
            box.setChecked(entrant in entrants)

    def _on_entrants_changed(self) -> None:
        self._update_warning()
        self._update_buttons()

    def _on_depth_changed(self, depth: int) -> None:
        if not self.is_racing:  # the chart's axis shows the depth the race will reach
            self.chart.set_depth(depth)

    def _update_warning(self) -> None:
        chosen = self.entrants()
        source = next((entrant for entrant in BUDGET_SOURCES if entrant in chosen), None)
        if Entrant.MCTS in chosen:
            self.budget_label.setText(
                f"MCTS gets {source.label}'s node count" if source else "MCTS needs a depth-first entrant for its node budget"
            )
        else:
            self.budget_label.setText("")
        warning = ""
        self._hopeless = False
        if Entrant.MINIMAX in chosen and not self.problem:
            depth = self.depth_box.value()
            estimate = self.minimax_estimate(depth)
            speed = self._minimax_speed
            if estimate > MINIMAX_NODE_BUDGET and speed is None:
                self._measure_minimax_speed()  # the warning is written again when it is known
                warning = (
                    f"Minimax would visit about {big_number(estimate)} nodes at depth {depth}: "
                    "measuring how fast it searches here…"
                )
            elif estimate > MINIMAX_NODE_BUDGET and speed is not None:
                seconds = estimate / speed if speed > 0 else float("inf")
                self._hopeless = seconds > HOPELESS_SECONDS
                verdict = ("it will not finish: Start is off until you lower the depth or leave minimax out."
                           if self._hopeless else "lower the depth, or leave minimax out, for a shorter race.")
                warning = (
                    f"Minimax would visit about {big_number(estimate)} nodes at depth {depth}: at the "
                    f"{speed:,.0f} nodes a second it searches here, that is {duration_text(seconds)}; {verdict}"
                )
        self.warning.setText(warning)
        self.warning.setVisible(bool(warning))
        self.warning.setStyleSheet("color: #d35400;" if warning else "")
        self._update_buttons()

    @property
    def minimax_speed(self) -> float | None:
        """Minimax's nodes a second on this position (``None`` until measured)."""
        return self._minimax_speed

    def _measure_minimax_speed(self) -> None:
        """Start the one short minimax search that measures its speed here (off the GUI
        thread: ``SpeedProbe``); its answer rewrites the warning."""
        if self._speed_probe is not None:
            return
        self._speed_probe = SpeedProbe(self.state, entrant_settings(Entrant.MINIMAX, self.settings), SPEED_PROBE_SECONDS)
        self._speed_probe.measured.connect(self._on_speed_measured)
        self._speed_probe.start()

    def _on_speed_measured(self, speed: float) -> None:
        if self._minimax_speed is None:  # a race's own speed, if one came first, is kept
            self._minimax_speed = speed
        self._update_warning()

    def minimax_estimate(self, depth: int) -> float:
        """Minimax's nodes in a race to ``depth``, read off the quick estimate (nothing is
        searched: the warning follows the spin box at once)."""
        return minimax_nodes(extrapolated(self._levels, depth), depth)

    def _update_buttons(self) -> None:
        running = self.is_racing
        chosen = self.entrants()
        runnable = bool(chosen) and not self.problem and (chosen != (Entrant.MCTS,)) and not self._hopeless
        self.start_button.setEnabled(runnable and not running)
        self.stop_button.setEnabled(running)
        self.copy_button.setEnabled(self.race_result is not None)
        self.depth_box.setEnabled(not running)
        for box in self.checks.values():
            box.setEnabled(not running)

    # ------------------------------------------------------------------ the race
    def start(self) -> None:
        """Start a race with the chosen entrants and depth (a race under way goes on)."""
        if self.is_racing:
            return
        entrants = self.entrants()
        request = RaceRequest(
            game=self.game.NAME,
            depth=self.depth_box.value(),
            entrants=entrants,
            position=self.state.to_text(),
            settings=self.settings,
        )
        try:
            runner = RaceRunner(request)
        except ValueError as error:
            self._show_verdict(f"Cannot race: {error}", problem=True)
            return
        self._forget_runner()
        self.runner = runner
        self.race_result = None
        self._depth = request.depth
        self._points = {entrant: [] for entrant in entrants}
        self._mcts_nodes = None
        self._branching = None
        self._fill_rows(entrants)
        self.chart.set_depth(request.depth)
        self._redraw_chart()
        for signal, slot in self._connections(runner):
            signal.connect(slot)
        runner.start()
        self.is_racing = True
        self._show_verdict("Racing: the workers are starting…")
        self._update_buttons()

    def stop(self) -> None:
        if self.runner is not None:
            self.runner.stop()
            self._show_verdict("Stopping…")

    def _forget_runner(self) -> None:
        """Listen no more to the last race (its late signals are never shown)."""
        if self.runner is None:
            return
        for signal, slot in self._connections(self.runner):
            try:
                signal.disconnect(slot)
            except (RuntimeError, TypeError):  # already disconnected
                pass
        self.runner.stop()

    def _connections(self, runner: RaceRunner) -> list[tuple[SignalInstance, Any]]:
        return [
            (runner.depth_done, self._on_depth_done),
            (runner.progressed, self._on_progress),
            (runner.entrant_done, self._on_entrant_done),
            (runner.branching_measured, self._on_branching),
            (runner.finished, self.show_result),
        ]

    def _fill_rows(self, entrants: tuple[Entrant, ...]) -> None:
        self.table.setRowCount(len(entrants))
        self._rows = {entrant: row for row, entrant in enumerate(entrants)}
        for entrant, row in self._rows.items():
            self._set_cells(row, (entrant.label, "…", "", "", "", "", "", ""))
            item = self.table.item(row, 0)
            assert item is not None  # made by _set_cells
            item.setIcon(swatch(entrant_colour(entrant, self.theme)))
            item.setToolTip(entrant.spec.description)

    def _set_cells(self, row: int, cells: tuple[str, ...]) -> None:
        for column, text in enumerate(cells):
            item = self.table.item(row, column)
            if item is None:
                item = QTableWidgetItem()
                alignment = Qt.AlignmentFlag.AlignRight if column in NUMERIC_COLUMNS else Qt.AlignmentFlag.AlignLeft
                item.setTextAlignment(alignment | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(row, column, item)
            if column == 0 and item.text() and not text:
                continue
            item.setText(text)

    def _on_depth_done(self, event: DepthDone) -> None:
        row = self._rows.get(event.entrant)
        if row is None:
            return
        nps = event.nodes / event.time if event.time > 0 else 0.0
        if event.entrant is Entrant.MINIMAX and nps > 0:
            self._minimax_speed = nps  # the race's own speed: the next warning reads it
        self._set_cells(
            row,
            (
                "",
                event.value_text,
                event.move_text,
                f"{event.depth} …",
                f"{event.nodes:,}",
                f"{event.time:.2f}",
                f"{nps:,.0f}",
                f"{event.ebf:.2f}" if event.ebf else "—",
            ),
        )
        self._points.setdefault(event.entrant, []).append((event.depth, float(event.depth_nodes)))
        self._redraw_chart()
        self._show_verdict(f"Racing: {event.entrant.label} finished depth {event.depth}.")

    def _on_progress(self, event: EntrantProgress) -> None:
        row = self._rows.get(event.entrant)
        if row is None:
            return
        for column, text in ((PROGRESS_COLUMN["nodes"], f"{event.nodes:,}"), (PROGRESS_COLUMN["time"], f"{event.time:.2f}")):
            item = self.table.item(row, column)
            if item is not None:
                item.setText(text)

    def _on_entrant_done(self, result: EntrantResult) -> None:
        row = self._rows.get(result.entrant)
        if row is None:
            return
        self._set_cells(row, row_cells(result))
        if result.entrant is Entrant.MCTS and result.error is None and result.nodes:
            self._mcts_nodes = float(result.nodes)
            self._redraw_chart()

    def _on_branching(self, branching: Branching) -> None:
        self._branching = branching
        self._redraw_chart()

    def show_result(self, result: RaceResult) -> None:
        """The race is over: its final table, chart and verdict; a value that is not the
        reference's is red in the table, its tooltip saying where it differs."""
        self.race_result = result
        self.is_racing = False
        entrants = tuple(entry.entrant for entry in result.entries)
        if tuple(self._rows) != entrants:  # a result not raced here: its own rows and axis
            self._fill_rows(entrants)
            self._depth = result.request.depth
            self.depth_box.setValue(self._depth)
            self.set_entrants(entrants)
            self.chart.set_depth(self._depth)
        for entry in result.entries:
            row = self._rows.get(entry.entrant)
            if row is not None:
                self._set_cells(row, row_cells(entry))
            if entry.entrant.is_depth_first:
                self._points[entry.entrant] = [
                    (depth, float(nodes)) for depth, nodes in enumerate(entry.nodes_per_depth, start=1)
                ]
        self._branching = result.branching or self._branching
        self._redraw_chart()
        found = result.disagreements
        for disagreement, words in zip(result.disagreeing(), found):
            row = self._rows.get(disagreement.entrant)
            item = self.table.item(row, 1) if row is not None else None
            if item is not None:
                item.setForeground(QColor(DISAGREEMENT_COLOUR))
                item.setToolTip("\n".join(filter(None, (item.toolTip(), words))))
        lines = result.verdict_lines()
        if result.stopped:
            lines.insert(0, "Stopped.")
        self._show_verdict(" ".join(lines), problem=bool(found))
        self._update_buttons()
        self.race_finished.emit(result)

    def _show_verdict(self, text: str, *, problem: bool = False) -> None:
        self.verdict.setText(text)
        self.verdict.setStyleSheet(f"color: {DISAGREEMENT_COLOUR}; font-weight: bold;" if problem else "")

    # ------------------------------------------------------------------ chart
    def chart_series(self) -> list[Series]:
        """The chart's series: one per entrant of the race, then the two curves."""
        series: list[Series] = []
        for entrant in self._rows:
            colour = entrant_colour(entrant, self.theme)
            if entrant is Entrant.MCTS:
                points = ((self._depth, self._mcts_nodes),) if self._mcts_nodes else ()
                series.append(Series(f"{entrant.label} (its budget)", colour, points, SeriesKind.MARKER))
            else:
                series.append(Series(entrant.label, colour, tuple(self._points.get(entrant, ()))))
        if self._branching is not None:
            grey = QColor(CURVE_COLOURS[1] if self.theme.is_dark else CURVE_COLOURS[0])
            depths = range(1, self._depth + 1)
            first, last = self._branching.b_at(1), self._branching.b
            b = f"b = {last:.1f}" if round(first, 1) == round(last, 1) else f"b = {first:.1f} … {last:.1f}"
            series.append(
                Series(f"b^d ({b})", grey, tuple((d, self._branching.curve(d)) for d in depths), SeriesKind.CURVE, Qt.PenStyle.DashLine)
            )
            series.append(
                Series("b^(d/2)", grey, tuple((d, self._branching.curve(d, 0.5)) for d in depths), SeriesKind.CURVE, Qt.PenStyle.DotLine)
            )
        return series

    def _redraw_chart(self) -> None:
        self.chart.set_series(self.chart_series())

    # ------------------------------------------------------------------ text, theme, closing
    def copy_table(self) -> None:
        if self.race_result is not None:
            QGuiApplication.clipboard().setText(self.race_result.as_text())
            self._show_verdict("The race is on the clipboard as text.")

    def set_theme(self, theme: Theme) -> None:
        self.theme = theme
        self.chart.set_theme(theme)
        for entrant, box in self.checks.items():
            box.setIcon(swatch(entrant_colour(entrant, theme)))
        for entrant, row in self._rows.items():
            item = self.table.item(row, 0)
            if item is not None:
                item.setIcon(swatch(entrant_colour(entrant, theme)))
        self._redraw_chart()

    def follow_theme(self, name: str) -> None:
        """The main window's theme changed to ``name``."""
        self.set_theme(theme_named(name))

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt's name)
        self._forget_runner()  # its processes end on their own; nothing waits here
        super().closeEvent(event)


class RaceHost(Protocol):
    """What ``open_race`` needs of the main window."""

    session: Any
    theme: Theme
    theme_changed: SignalInstance

    @property
    def game_view(self) -> Any: ...

    def engine_settings(self) -> SearchSettings: ...

    def notify(self, message: str) -> None: ...


def open_race(host: RaceHost, parent: QWidget | None = None) -> RaceDialog | None:
    """Open the race window on the position the host shows (``None`` between games)."""
    session = host.session
    if session is None:
        host.notify("Start or open a game to race the algorithms on its position")
        return None
    shown = host.game_view.shown_ply()
    state = session.state_at(shown) if shown is not None else session.state
    dialog = RaceDialog(state, host.engine_settings(), host.theme, parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    host.theme_changed.connect(dialog.follow_theme)
    dialog.show()
    return dialog
