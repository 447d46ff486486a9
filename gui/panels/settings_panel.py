"""The search settings panel: the algorithm and every switch of the options table
(``ai.options.OPTIONS``), so a student can turn each piece off and see what it did.

Each row of the table the panel shows becomes one control, labelled and explained by the
row: a switch is a check box, a number a spin box, a word a choice box. Only the algorithms
that suit the game are offered; a switch the chosen algorithm (or the game) does not use
stays visible but greyed out, its tooltip saying why (``options.unused_reason``).

"Textbook (exact)" applies the exact preset (``options.exact``): every switch that can change
the value is shown off and locked, so alpha-beta, PVS and MTD(f) return minimax's value;
turning it off gives back the user's own switches, which the panel keeps meanwhile. Every
change emits ``settings_changed`` with the settings a search is to use.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ai import options
from ai.options import Effect, Group, Option
from ai.search import ALGORITHMS, algorithms_for, uses_quiescence
from ai.settings import SearchSettings
from games.base import GameState
from gui.dialogs.new_game import game_title
from gui.players import ALGORITHM_LABELS

SHOWN_GROUPS = (Group.GENERAL, Group.ENHANCEMENTS, Group.MCTS)
"""The table's groups the panel shows, in this order (files are named on the command line)."""

MAX_SPIN_BOX = 2**31 - 1
"""A Qt spin box holds a 32-bit number: a wider range (the seed's) is offered up to here."""
MAX_SOLVER_BOX = 24
"""The largest solver reach the app offers (the engine accepts up to the whole board): each
empty square more multiplies an exact solve's time by about the branching factor."""


@dataclass(frozen=True)
class NumberBox:
    """How a number row's spin box looks where its range alone does not say it: the step
    and decimals of a real number, a unit, and a smaller span than the engine accepts where
    the rest is of no use in the app (a box cannot offer an unbounded range)."""

    low: float | None = None
    high: float | None = None
    step: float = 1.0
    decimals: int = 0
    suffix: str | None = None
    """Text after the number; ``{high}`` is the box's maximum. ``None``: the range's unit."""


NUMBER_BOXES: dict[str, NumberBox] = {
    "aspiration_window": NumberBox(low=1.0, high=100_000.0, step=10.0),
    "exploration": NumberBox(high=10.0, step=0.1, decimals=2),
    "playout_depth": NumberBox(high=200, suffix=" plies"),
    "solver_empties": NumberBox(high=MAX_SOLVER_BOX),
    "threads": NumberBox(suffix=" of {high}"),
}
"""Spin boxes that differ from their row's range (every other number row: its range, whole
steps, the range's unit)."""

CHOICE_LABELS: dict[str, dict[str, str]] = {
    "playout": {"random": "Random to the end", "eval": "Short, scored by EVAL"},
}
"""The words a choice box shows for a choice row's values (a value without one shows itself)."""

ALGORITHM_DEFAULTS: dict[str, Callable[[SearchSettings], bool]] = {"quiescence": uses_quiescence}
"""What an optional switch does while it is left to the algorithm (``None``): the box shows it."""


def valid_algorithms(game: type[GameState]) -> list[str]:
    """The algorithms offered for ``game`` (``ai.search.algorithms_for``), in the textbook's
    order (minimax, alpha-beta, PVS, MTD(f) ...) so a student steps through them in turn."""
    offered = algorithms_for(game)
    return [name for name in ALGORITHMS if name in offered]


def shown_rows() -> list[Option]:
    """The rows of the options table the panel has a control for, group by group."""
    return [row for group in SHOWN_GROUPS for row in options.OPTIONS if row.group is group]


COMBO_LETTERS = 10
"""A choice box asks for room for this many letters, not its longest item: the engine dock
of a small window is about 300 px wide. The algorithms' names are short (the new-game
dialog's); each one's description is a wrapped line under the box, never cut off."""


def narrow_combo(box: QComboBox) -> None:
    box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    box.setMinimumContentsLength(COMBO_LETTERS)


def number_box(row: Option) -> QSpinBox | QDoubleSpinBox:
    """The spin box of a number row: its range (or the panel's ``NUMBER_BOXES`` span)."""
    assert row.range is not None, f"{row.name}: a number row needs a range"
    look = NUMBER_BOXES.get(row.name, NumberBox())
    low = row.range.low if look.low is None else look.low
    high = min(row.range.upper(), MAX_SPIN_BOX if look.high is None else look.high)
    box: QSpinBox | QDoubleSpinBox
    if row.type is int:
        box = QSpinBox()
        box.setRange(int(low), int(high))
    else:
        box = QDoubleSpinBox()
        box.setDecimals(look.decimals)
        box.setRange(low, high)
        box.setSingleStep(look.step)
    suffix = f" {row.range.unit}" if look.suffix is None and row.range.unit else (look.suffix or "")
    box.setSuffix(suffix.format(high=int(high)))
    box.setKeyboardTracking(False)
    return box


class SettingsPanel(QWidget):
    """A control for every row of the options table the app shows; ``settings()`` is what a
    search uses, ``own_settings()`` the user's switches (the same unless the textbook preset
    is on), ``set_settings`` shows them, and each change emits ``settings_changed``."""

    settings_changed = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._game: type[GameState] | None = None
        self._is_loading = False
        self._own = SearchSettings()
        """The user's switches: what the controls show while the textbook preset is off."""
        self._settings = self._own
        """What a search uses: ``_own``, or ``options.exact(_own)`` with the preset on."""
        self._solver_setting = self._own.solver_empties
        """The ``solver_empties`` setting itself: for a game whose solver reaches less far
        (checkers' databases: 5 pieces) the spin box shows the reach, and a larger setting is
        kept for the other games (one set of engine settings serves every game)."""
        self._chosen: set[str] = set()
        """The optional switches the user set; the others follow the algorithm (``None``)."""
        self.rows = {row.name: row for row in shown_rows()}
        self.controls: dict[str, QWidget] = {}
        self.labels: dict[str, QLabel | QCheckBox] = {}
        """The text that names each row's control: a check box names itself."""

        self.algorithm = QComboBox()
        narrow_combo(self.algorithm)
        self.algorithm_summary = QLabel("")
        self.algorithm_summary.setObjectName("algorithmSummary")
        self.algorithm_summary.setWordWrap(True)  # the whole description, wrapped, never clipped
        self.algorithm_summary.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.textbook = QCheckBox(options.EXACT_LABEL)
        self.textbook.setObjectName("textbookToggle")
        self.textbook.setToolTip(options.EXACT_TOOLTIP)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        forms: dict[Group, QFormLayout] = {}
        for group in SHOWN_GROUPS:
            if group is Group.GENERAL:
                forms[group] = QFormLayout()
                layout.addLayout(forms[group])
            else:
                box = QGroupBox(group.value)
                forms[group] = QFormLayout(box)
                layout.addWidget(box)
        forms[Group.ENHANCEMENTS].addRow(self.textbook)
        for row in self.rows.values():
            self._add_row(forms[row.group], row)
        layout.addStretch(1)

        self.set_settings(self._own)
        self.textbook.toggled.connect(self._on_textbook_toggled)
        for name, control in self.controls.items():
            if name in ALGORITHM_DEFAULTS:
                assert isinstance(control, QCheckBox)
                control.toggled.connect(lambda _checked, name=name: self._on_chosen(name))  # before _read
            if isinstance(control, QCheckBox):
                control.toggled.connect(self._on_changed)
            elif isinstance(control, QSpinBox | QDoubleSpinBox):
                control.valueChanged.connect(self._on_changed)
            elif isinstance(control, QComboBox):
                control.currentIndexChanged.connect(self._on_changed)

    def _add_row(self, form: QFormLayout, row: Option) -> None:
        """The row's control, labelled and explained by the row."""
        control: QWidget
        if row.name == "algorithm":
            control = self.algorithm  # its items are the game's algorithms (``set_game``)
        elif row.type is bool:
            control = QCheckBox(row.label)
        elif row.choices is not None:
            control = QComboBox()
            narrow_combo(control)
            words = CHOICE_LABELS.get(row.name, {})
            for value in row.allowed_choices() or ():
                control.addItem(words.get(value, value), value)
        else:
            control = number_box(row)
        control.setToolTip(row.tooltip)
        self.controls[row.name] = control
        if isinstance(control, QCheckBox):
            self.labels[row.name] = control
            form.addRow(control)
            return
        label = QLabel(row.label)
        label.setToolTip(row.tooltip)
        label.setBuddy(control)
        self.labels[row.name] = label
        form.addRow(label, control)
        if row.name == "algorithm":
            form.addRow("", self.algorithm_summary)

    # -------------------------------------------------------------------- API
    def set_game(self, game: type[GameState]) -> None:
        """Offer the algorithms of ``game``; keep the current one if it suits the game."""
        self._game = game
        label, unit = game.SOLVER_WORDS
        self.labels["solver_empties"].setText(label)
        solver = self.controls["solver_empties"]
        assert isinstance(solver, QSpinBox)
        solver.setSuffix(f" {unit}")
        solver.setMaximum(min(MAX_SOLVER_BOX, game.SOLVER_REACH or MAX_SOLVER_BOX))
        names = valid_algorithms(game)
        current = self._own.algorithm if self._own.algorithm in names else game.DEFAULT_ALGORITHM
        self._is_loading = True
        self.algorithm.clear()
        for name in names:
            self.algorithm.addItem(ALGORITHM_LABELS.get(name, name), name)
            self.algorithm.setItemData(self.algorithm.count() - 1, ALGORITHMS[name].summary, Qt.ItemDataRole.ToolTipRole)
        self._is_loading = False
        self.set_settings(dataclasses.replace(self._own, algorithm=current))
        self.settings_changed.emit(self._settings)

    def settings(self) -> SearchSettings:
        """The settings a search uses (the exact preset applied while it is on)."""
        return self._settings

    def own_settings(self) -> SearchSettings:
        """The user's own switches (what is kept, and shown again when the preset goes off)."""
        return self._own

    def is_textbook(self) -> bool:
        """Whether the "Textbook (exact)" preset is on."""
        return self.textbook.isChecked()

    def set_settings(self, settings: SearchSettings, textbook: bool | None = None) -> None:
        """Show ``settings`` as the user's switches, and the preset on or off (``None``: as
        it is). No signal."""
        if textbook is not None:
            self._is_loading = True
            self.textbook.setChecked(textbook)
            self._is_loading = False
        index = self.algorithm.findData(settings.algorithm)
        if index < 0 and self.algorithm.count() == 0:
            spec = ALGORITHMS[settings.algorithm]
            self.algorithm.addItem(ALGORITHM_LABELS.get(spec.name, spec.name), spec.name)
        self._chosen = {name for name in ALGORITHM_DEFAULTS if getattr(settings, name) is not None}
        self._solver_setting = settings.solver_empties
        self._own = settings
        self._show(settings)
        self._own = self._read()
        self._apply()

    # ---------------------------------------------------------------- internals
    def _is_locked(self, row: Option) -> bool:
        """Whether the preset holds the row off (it can change the value)."""
        return self.is_textbook() and row.effect is Effect.VALUE

    def _show(self, settings: SearchSettings) -> None:
        """Every control showing ``settings`` (a row the preset holds shows its exact value)."""
        self._is_loading = True
        try:
            shown = options.exact(settings) if self.is_textbook() else settings
            for name, control in self.controls.items():
                value = getattr(shown, name)
                if value is None:  # an optional switch left to the algorithm: show what it does
                    value = ALGORITHM_DEFAULTS[name](shown)
                if isinstance(control, QCheckBox):
                    control.setChecked(bool(value))
                elif isinstance(control, QSpinBox):
                    control.setValue(int(value))
                elif isinstance(control, QDoubleSpinBox):
                    control.setValue(float(value))
                elif isinstance(control, QComboBox):
                    index = control.findData(value)
                    if index >= 0 or control is not self.algorithm:
                        control.setCurrentIndex(max(0, index))
        finally:
            self._is_loading = False

    def _read(self) -> SearchSettings:
        """The user's switches as the controls show them (a row the preset holds keeps the
        user's value, not the preset's)."""
        values: dict[str, Any] = {}
        for name, control in self.controls.items():
            if self._is_locked(self.rows[name]):
                continue
            if name in ALGORITHM_DEFAULTS and name not in self._chosen:
                values[name] = None  # the algorithm's default
            elif isinstance(control, QCheckBox):
                values[name] = control.isChecked()
            elif name == "solver_empties":
                assert isinstance(control, QSpinBox)
                values[name] = self._solver_value(control)
            elif isinstance(control, QSpinBox | QDoubleSpinBox):
                values[name] = control.value()
            elif isinstance(control, QComboBox):
                data = control.currentData()
                if data is not None:
                    values[name] = data
        return dataclasses.replace(self._own, **values)

    def _solver_value(self, control: QSpinBox) -> int:
        """The box's value, unless it shows this game's reach for a setting beyond it (kept)."""
        shown = control.value()
        if not (shown == control.maximum() < self._solver_setting):
            self._solver_setting = shown
        return self._solver_setting

    def _apply(self) -> None:
        """The settings a search uses follow the user's switches and the preset."""
        self._settings = options.exact(self._own) if self.is_textbook() else self._own
        self._update_enabled()

    def _on_chosen(self, name: str) -> None:
        if not self._is_loading:
            self._chosen.add(name)  # the user's choice from now on, not the algorithm's default

    def _on_changed(self, *_args: object) -> None:
        if self._is_loading:
            return
        self._own = self._read()
        if any(name not in self._chosen for name in ALGORITHM_DEFAULTS):  # a new algorithm: its defaults
            self._show(self._own)
        self._apply()
        self.settings_changed.emit(self._settings)

    def _on_textbook_toggled(self, _checked: bool) -> None:
        if self._is_loading:
            return
        self._show(self._own)  # the preset's values, or the user's own again
        self._apply()
        self.settings_changed.emit(self._settings)

    def _update_enabled(self) -> None:
        settings, game = self._settings, self._game
        spec = ALGORITHMS.get(settings.algorithm)
        self.algorithm_summary.setText(spec.summary[:1].upper() + spec.summary[1:] if spec else "")
        title = game_title(game.NAME) if game is not None else ""
        for name, row in self.rows.items():
            if self._is_locked(row):
                reason = f"{options.EXACT_LABEL} is on"
            else:
                reason = options.unused_reason(name, settings, game, title)
            tip = f"{row.tooltip} (off here: {reason})" if reason else row.tooltip
            for widget in {self.controls[name], self.labels[name]}:
                widget.setEnabled(not reason)
                widget.setToolTip(tip)
