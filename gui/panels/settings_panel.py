"""The search settings panel: the algorithm and every enhancement switch of ``SearchSettings``,
threads and hash size, so a student can turn each piece off and see what it did.

Only the algorithms that suit the game are offered; switches the chosen algorithm (or the
game) does not use stay visible but greyed out, with a tooltip saying why. Every change
emits ``settings_changed(SearchSettings)``.
"""

from __future__ import annotations

import dataclasses
import os
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ai.search import ALGORITHMS, algorithms_for, uses_quiescence
from ai.settings import SearchSettings
from games.base import GameState
from gui.dialogs.new_game import game_title
from gui.panels.display import SELECTIVITY, USED_BY, game_has_noisy_moves, game_takes
from gui.players import ALGORITHM_LABELS

MAX_TABLE_MEGABYTES = 4096
MAX_SOLVER_EMPTIES = 24


def valid_algorithms(game: type[GameState]) -> list[str]:
    """The algorithms offered for ``game`` (``ai.search.algorithms_for``), in the textbook's
    order (minimax, alpha-beta, PVS, MTD(f) ...) so a student steps through them in turn."""
    offered = algorithms_for(game)
    return [name for name in ALGORITHMS if name in offered]


COMBO_LETTERS = 10
"""A choice box asks for room for this many letters, not its longest item: the engine dock
of a small window is about 300 px wide. The algorithms' names are short (the new-game
dialog's); each one's description is a wrapped line under the box, never cut off."""


def narrow_combo(box: QComboBox) -> None:
    box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    box.setMinimumContentsLength(COMBO_LETTERS)


class SettingsPanel(QWidget):
    """Every switch of ``SearchSettings``; ``settings()`` reads them, ``set_settings`` shows
    them, and each change emits ``settings_changed``."""

    settings_changed = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._game: type[GameState] | None = None
        self._is_loading = False
        self._solver_setting = SearchSettings().solver_empties
        """The ``solver_empties`` setting itself: for a game whose solver reaches less far
        (checkers' databases: 5 pieces) the spin box shows the reach, and a larger setting is
        kept for the other games (one set of engine settings serves every game)."""
        self._settings = SearchSettings()
        self.controls: dict[str, QWidget] = {}
        self._tips: dict[str, str] = {}
        self._quiescence_chosen = False
        """Whether ``quiescence`` is the user's choice (else ``None``: the algorithm's default)."""

        self.algorithm = QComboBox()
        narrow_combo(self.algorithm)
        self.controls["algorithm"] = self.algorithm

        def check(field: str, text: str, tip: str) -> QCheckBox:
            box = QCheckBox(text)
            box.setToolTip(tip)
            self.controls[field] = box
            return box

        def spin(field: str, low: int, high: int, suffix: str = "") -> QSpinBox:
            box = QSpinBox()
            box.setRange(low, high)
            box.setSuffix(suffix)
            box.setKeyboardTracking(False)
            self.controls[field] = box
            return box

        def real(field: str, low: float, high: float, step: float, decimals: int) -> QDoubleSpinBox:
            box = QDoubleSpinBox()
            box.setRange(low, high)
            box.setSingleStep(step)
            box.setDecimals(decimals)
            box.setKeyboardTracking(False)
            self.controls[field] = box
            return box

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        top = QFormLayout()
        top.addRow("Algorithm", self.algorithm)
        self.algorithm_summary = QLabel("")
        self.algorithm_summary.setObjectName("algorithmSummary")
        self.algorithm_summary.setWordWrap(True)  # the whole description, wrapped, never clipped
        self.algorithm_summary.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        top.addRow("", self.algorithm_summary)
        cores = os.cpu_count() or 1
        top.addRow("Threads", spin("threads", 1, cores, f" of {cores}"))
        top.addRow(check("book", "Opening book", "Play a book move, without searching, while the game is in the book"))
        layout.addLayout(top)

        depth_first = QGroupBox("Search enhancements")
        form = QFormLayout(depth_first)
        form.addRow(check("iterative_deepening", "Iterative deepening", "Search depth 1, 2, 3, ... reusing each result"))
        row = QHBoxLayout()
        row.addWidget(check("aspiration", "Aspiration window ±", "Search each iteration in a window round the last score"))
        row.addWidget(real("aspiration_window", 1.0, 100000.0, 10.0, 0))
        form.addRow(row)
        row = QHBoxLayout()
        row.addWidget(check("transposition_table", "Transposition table", "Remember positions already searched"))
        row.addWidget(spin("tt_megabytes", 1, MAX_TABLE_MEGABYTES, " MB"))
        form.addRow(row)
        form.addRow(check("move_ordering", "Move ordering", "Table move, captures (MVV-LVA), killers, history first"))
        form.addRow(check("killers", "Killer moves", "Quiet moves that cut off at the same ply"))
        form.addRow(check("history", "History heuristic", "Quiet moves that cut off anywhere"))
        form.addRow(check("quiescence", "Quiescence search", "Search noisy moves (captures) past the depth limit"))
        form.addRow(check("check_extensions", "Check extensions", "Search one ply deeper after a check"))
        form.addRow(check("null_move", "Null move", "Pass to prove a position is too good (R = 2)"))
        form.addRow(check("late_move_reductions", "Late move reductions", "Search late quiet moves less deep"))
        form.addRow(check("quiescence_checks", "Checks in quiescence", "Also try quiet checks at quiescence's first ply"))
        form.addRow(check("see_pruning", "SEE pruning", "Skip captures and moves that lose material by static exchange"))
        form.addRow(check("futility_pruning", "Futility pruning", "Skip hopeless quiet moves near the horizon"))
        self._solver_label = QLabel(GameState.SOLVER_WORDS[0])
        form.addRow(self._solver_label, spin("solver_empties", 0, MAX_SOLVER_EMPTIES, f" {GameState.SOLVER_WORDS[1]}"))
        layout.addWidget(depth_first)

        mcts = QGroupBox("Monte Carlo tree search")
        form = QFormLayout(mcts)
        form.addRow("Exploration C", real("exploration", 0.0, 10.0, 0.1, 2))
        playout = QComboBox()
        narrow_combo(playout)
        playout.addItem("Random to the end", "random")
        playout.addItem("Short, scored by EVAL", "eval")
        self.controls["playout"] = playout
        form.addRow("Playouts", playout)
        form.addRow("Playout depth", spin("playout_depth", 1, 200, " plies"))
        form.addRow("Seed", spin("seed", 0, 2**31 - 1))
        layout.addWidget(mcts)
        layout.addStretch(1)

        self.set_settings(self._settings)
        self.algorithm.currentIndexChanged.connect(self._on_changed)
        quiescence = self.controls["quiescence"]
        assert isinstance(quiescence, QCheckBox)
        quiescence.toggled.connect(self._on_quiescence_chosen)  # first: before _read
        for field, control in self.controls.items():
            if isinstance(control, QCheckBox):
                control.toggled.connect(self._on_changed)
            elif isinstance(control, QSpinBox | QDoubleSpinBox):
                control.valueChanged.connect(self._on_changed)
            elif isinstance(control, QComboBox) and field != "algorithm":
                control.currentIndexChanged.connect(self._on_changed)

    # -------------------------------------------------------------------- API
    def set_game(self, game: type[GameState]) -> None:
        """Offer the algorithms of ``game``; keep the current one if it suits the game."""
        self._game = game
        label, unit = game.SOLVER_WORDS
        self._solver_label.setText(label)
        solver = self.controls["solver_empties"]
        assert isinstance(solver, QSpinBox)
        solver.setSuffix(f" {unit}")
        solver.setMaximum(min(MAX_SOLVER_EMPTIES, game.SOLVER_REACH or MAX_SOLVER_EMPTIES))
        names = valid_algorithms(game)
        current = self._settings.algorithm if self._settings.algorithm in names else game.DEFAULT_ALGORITHM
        self._is_loading = True
        self.algorithm.clear()
        for name in names:
            self.algorithm.addItem(ALGORITHM_LABELS.get(name, name), name)
            self.algorithm.setItemData(self.algorithm.count() - 1, ALGORITHMS[name].summary, Qt.ItemDataRole.ToolTipRole)
        self._is_loading = False
        self.set_settings(dataclasses.replace(self._settings, algorithm=current))
        self.settings_changed.emit(self._settings)

    def settings(self) -> SearchSettings:
        return self._settings

    def set_settings(self, settings: SearchSettings) -> None:
        """Show ``settings`` (no signal)."""
        self._is_loading = True
        try:
            index = self.algorithm.findData(settings.algorithm)
            if index < 0 and self.algorithm.count() == 0:
                spec = ALGORITHMS[settings.algorithm]
                self.algorithm.addItem(ALGORITHM_LABELS.get(spec.name, spec.name), spec.name)
                index = 0
            if index >= 0:
                self.algorithm.setCurrentIndex(index)
            self._quiescence_chosen = settings.quiescence is not None
            self._solver_setting = settings.solver_empties
            for field, control in self.controls.items():
                value = getattr(settings, field)
                if field == "quiescence":  # None: the algorithm's default, shown as what it does
                    assert isinstance(control, QCheckBox)
                    control.setChecked(uses_quiescence(settings))
                elif isinstance(control, QCheckBox):
                    control.setChecked(bool(value))
                elif isinstance(control, QSpinBox):
                    control.setValue(int(value))
                elif isinstance(control, QDoubleSpinBox):
                    control.setValue(float(value))
                elif field == "playout":
                    assert isinstance(control, QComboBox)
                    control.setCurrentIndex(max(0, control.findData(value)))
        finally:
            self._is_loading = False
        self._settings = self._read()
        self._update_enabled()

    # ---------------------------------------------------------------- internals
    def _read(self) -> SearchSettings:
        values: dict[str, Any] = {}
        for field, control in self.controls.items():
            if field == "quiescence" and not self._quiescence_chosen:
                values[field] = None  # the algorithm's default
            elif isinstance(control, QCheckBox):
                values[field] = control.isChecked()
            elif field == "solver_empties":
                assert isinstance(control, QSpinBox)
                values[field] = self._solver_value(control)
            elif isinstance(control, QSpinBox):
                values[field] = control.value()
            elif isinstance(control, QDoubleSpinBox):
                values[field] = control.value()
            elif isinstance(control, QComboBox):
                data = control.currentData()
                if data is not None:
                    values[field] = data
        return dataclasses.replace(self._settings, **values)

    def _solver_value(self, control: QSpinBox) -> int:
        """The box's value, unless it shows this game's reach for a setting beyond it (kept)."""
        shown = control.value()
        if not (shown == control.maximum() < self._solver_setting):
            self._solver_setting = shown
        return self._solver_setting

    def _on_quiescence_chosen(self, _checked: bool) -> None:
        if not self._is_loading:
            self._quiescence_chosen = True  # the user's choice from now on, not the default

    def _on_changed(self, *_args: object) -> None:
        if self._is_loading:
            return
        self._settings = self._read()
        if not self._quiescence_chosen:  # a new algorithm: show its own default
            self._is_loading = True
            self.controls["quiescence"].setChecked(uses_quiescence(self._settings))  # type: ignore[attr-defined]
            self._is_loading = False
        self._update_enabled()
        self.settings_changed.emit(self._settings)

    def _update_enabled(self) -> None:
        settings, game = self._settings, self._game
        spec = ALGORITHMS.get(settings.algorithm)
        self.algorithm_summary.setText(spec.summary[:1].upper() + spec.summary[1:] if spec else "")
        for field, users in USED_BY.items():
            control = self.controls[field]
            reason = ""
            if settings.algorithm not in users:
                reason = f"{settings.algorithm} does not use this"
            elif field in ("aspiration", "aspiration_window") and not settings.iterative_deepening:
                reason = "needs iterative deepening"
            elif field == "aspiration_window" and not settings.aspiration:
                reason = "aspiration is off"
            elif field == "tt_megabytes" and not settings.transposition_table:
                reason = "the table is off"
            elif field in ("killers", "history") and not settings.move_ordering:
                reason = "move ordering is off"
            elif field == "playout_depth" and settings.playout != "eval":
                reason = "random playouts run to the end"
            elif game is not None:
                if field in SELECTIVITY and not game_takes(game, field):
                    reason = f"{game_title(game.NAME)} does not use it"
                elif field == "solver_empties" and not game.HAS_SOLVER:
                    reason = f"{game_title(game.NAME)} has no exact endgame solver"
                elif field == "quiescence" and not game_has_noisy_moves(game):
                    reason = f"{game_title(game.NAME)} has no noisy moves"
            control.setEnabled(not reason)
            tip = self._tips.setdefault(field, control.toolTip())
            control.setToolTip(f"{tip} (off here: {reason})" if reason and tip else reason or tip)

