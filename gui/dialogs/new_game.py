"""The new-game dialog: the game, and for each side Human or Computer with its algorithm
and strength (a named level 1-10, a fixed depth, or seconds per move).

The algorithms offered are those ``ai.search.ALGORITHMS`` says can play the game (those
that handle chance for backgammon), the game's default first. A fixed depth shows what it
costs (``ai.levels.plan_depth`` at the game's start position): the expected time of a move,
and when the depth cannot finish within the time cap, the depth that is searched instead.
The clock (none, a preset or a custom base + increment) is the game's, for both sides.
The dialog is always as tall as what it shows (a game without dice has no dice row).
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QBoxLayout,
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLayout,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ai.levels import LEVELS, DepthPlan, plan_depth
from games import GAME_NAMES, get_game, new_game
from games.clock import MAX_BASE_SECONDS, PRESETS, ClockError, TimeControl
from gui.players import ALGORITHM_LABELS, COMPUTER, HUMAN, PlayerConfig, algorithms_for, level_choice_text, level_note
from gui.panels.display import player_names

GAME_TITLES = {
    "tictactoe": "Tic-tac-toe",
    "checkers": "Checkers",
    "chess": "Chess",
    "othello": "Othello",
    "backgammon": "Backgammon",
}
"""Display names of the registry's games (unknown ones show their registry name)."""


def game_title(name: str) -> str:
    return GAME_TITLES.get(name, name.capitalize())


DURATION_STEPS = ((60.0, 1.0, "s"), (2 * 3600.0, 60.0, "min"), (2 * 86400.0, 3600.0, "h"), (2 * 365 * 86400.0, 86400.0, "days"))
"""(below this many seconds, count in units of, unit name) for ``duration_text``."""


def duration_text(seconds: float) -> str:
    """An expected time to an order of magnitude: ``0.3 s``, ``4 min``, ``36 h``, ``more
    than a year``."""
    if seconds < 0.1:
        return "under 0.1 s"
    for below, unit, name in DURATION_STEPS:
        if seconds < below:
            value = seconds / unit
            return f"{value:.1f} {name}" if value < 10 and name == "s" else f"{value:.0f} {name}"
    return "more than a year"


def depth_note(plan: DepthPlan) -> str:
    """What a typed depth costs, in one or two lines for the dialog."""
    if plan.expected_seconds is None:
        return f"No time estimate for this algorithm; a move stops after {plan.time_cap:g} s at most."
    stop = f"a move stops after {plan.time_cap:g} s at most, with the deepest depth completed"
    if not plan.is_capped:
        if plan.expected_seconds <= plan.time_cap:
            return f"About {duration_text(plan.expected_seconds)} a move."
        return f"About {duration_text(plan.expected_seconds)} a move (a rough estimate): {stop}."
    wanted = duration_text(plan.requested_seconds) if plan.requested_seconds is not None else "too long"
    return (
        f"Depth {plan.requested} would take about {wanted} a move: depth {plan.depth} is searched "
        f"(about {duration_text(plan.expected_seconds)}); {stop}."
    )


class SideEditor(QGroupBox):
    """One side: Human or Computer, and the computer's algorithm and strength."""

    shown_changed = Signal()
    """Human/Computer or the kind of strength changed (the dialog's notes follow)."""

    def __init__(self, player_name: str, parent: QWidget | None = None) -> None:
        super().__init__(player_name, parent)
        self._game = "chess"
        self.human = QRadioButton("Human")
        self.computer = QRadioButton("Computer")
        kinds = QButtonGroup(self)
        kinds.addButton(self.human)
        kinds.addButton(self.computer)
        self.algorithm = QComboBox()
        self.strength = QComboBox()
        self.strength.addItem("Level", "level")
        self.strength.addItem("Depth", "depth")
        self.strength.addItem("Time per move", "time")
        self.level = QComboBox()
        for level in LEVELS:
            self.level.addItem(f"{level.number} — {level.name}", level.number)
        # As wide as the longest level text of any game, so that choosing another game
        # (whose ratings read longer or shorter) never makes the dialog jump in width.
        self.level.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.level.setMinimumContentsLength(
            max(len(level_choice_text(name, level.number)) for name in GAME_NAMES for level in LEVELS)
        )
        self.depth_box = QSpinBox()
        self.depth_box.setRange(1, 30)
        self.depth_box.setSuffix(" plies")
        self.seconds = QDoubleSpinBox()
        self.seconds.setRange(0.1, 600.0)
        self.seconds.setDecimals(1)
        self.seconds.setSuffix(" s")
        self.depth_note = QLabel()
        self.depth_note.setObjectName("depthNote")
        self.depth_note.setWordWrap(True)
        kind_row = QHBoxLayout()
        kind_row.addWidget(self.human)
        kind_row.addWidget(self.computer)
        kind_row.addStretch(1)
        form = QFormLayout()
        form.addRow(kind_row)
        form.addRow("Algorithm", self.algorithm)
        form.addRow("Strength", self.strength)
        form.addRow("Level", self.level)
        form.addRow("Depth", self.depth_box)
        form.addRow(self.depth_note)
        form.addRow("Time", self.seconds)
        self.setLayout(form)
        self._form = form
        self.human.toggled.connect(self._update_enabled)
        self.strength.currentIndexChanged.connect(self._update_enabled)
        self.algorithm.currentIndexChanged.connect(self._update_depth_note)
        self.level.currentIndexChanged.connect(self._update_depth_note)
        self.depth_box.valueChanged.connect(self._update_depth_note)

    def plan(self) -> DepthPlan:
        """What the depth chosen will search, at the game's start position."""
        algorithm = self.algorithm.currentData() or algorithms_for(self._game)[0]
        return plan_depth(new_game(self._game), algorithm, self.depth_box.value())

    def uses_levels(self) -> bool:
        return self.computer.isChecked() and self.strength.currentData() == "level"

    def _update_depth_note(self) -> None:
        """Under a depth, what it will cost; under a level, the engine it picks."""
        mode = self.strength.currentData() if self.computer.isChecked() else None
        if mode == "level":
            self.depth_note.setText(level_note(self._game, int(self.level.currentData())))
        else:
            self.depth_note.setText(depth_note(self.plan()) if mode == "depth" else "")
        self.depth_note.setVisible(mode in ("depth", "level"))

    def set_game(self, game: str) -> None:
        self._game = game
        current = self.algorithm.currentData()
        self.algorithm.clear()
        for name in algorithms_for(game):
            self.algorithm.addItem(ALGORITHM_LABELS.get(name, name), name)
        index = self.algorithm.findData(current)
        self.algorithm.setCurrentIndex(max(0, index))
        for row, promise in enumerate(LEVELS):  # each level's measured rating in this game
            self.level.setItemText(row, level_choice_text(game, promise.number))

    def set_config(self, config: PlayerConfig) -> None:
        config = config.for_game(self._game)
        (self.computer if config.is_computer else self.human).setChecked(True)
        self.algorithm.setCurrentIndex(max(0, self.algorithm.findData(config.algorithm)))
        self.strength.setCurrentIndex(max(0, self.strength.findData(config.strength)))
        self.level.setCurrentIndex(max(0, self.level.findData(config.level)))
        self.depth_box.setValue(config.depth)
        self.seconds.setValue(config.seconds)
        self._update_enabled()

    def config(self) -> PlayerConfig:
        return PlayerConfig(
            kind=COMPUTER if self.computer.isChecked() else HUMAN,
            algorithm=self.algorithm.currentData() or algorithms_for(self._game)[0],
            strength=self.strength.currentData(),
            level=int(self.level.currentData()),
            depth=self.depth_box.value(),
            seconds=self.seconds.value(),
        )

    def _update_enabled(self) -> None:
        computer = self.computer.isChecked()
        mode = self.strength.currentData()
        for widget, shown in (
            (self.algorithm, computer and mode != "level"),  # a level picks its own engine
            (self.strength, computer),
            (self.level, computer and mode == "level"),
            (self.depth_box, computer and mode == "depth"),
            (self.seconds, computer and mode == "time"),
        ):
            widget.setVisible(shown)
            label = self._form.labelForField(widget)
            if label is not None:
                label.setVisible(shown)
        self._update_depth_note()
        self.shown_changed.emit()


MATCH_GAMES = frozenset({"backgammon"})
"""Games played as a match to N points as well as game by game."""
MATCH_LENGTHS = tuple(range(1, 26))
"""The match lengths offered: every length up to the 25 points the match equity table
covers (``games.backgammon.met``), as GNU Backgammon offers any length; odd lengths are the
usual ones of tournament play, even ones the ones of some clubs and leagues."""


class MatchLengthRow(QWidget):
    """Backgammon: a money game (every game on its own, the cube's value in points) or a
    match to N points (Crawford rule, the cube decided by match equity)."""

    def __init__(self, length: int = 0, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.choice = QComboBox()
        self.choice.setObjectName("matchLength")
        self.choice.addItem("Money game", 0)
        for points in MATCH_LENGTHS:
            self.choice.addItem(f"Match to {points} point{'s' if points != 1 else ''}", points)
        self.choice.setCurrentIndex(max(0, self.choice.findData(length)))
        form = QFormLayout(self)
        form.setContentsMargins(0, 0, 0, 0)
        form.addRow("Play", self.choice)

    def length(self) -> int:
        return int(self.choice.currentData())


NO_CLOCK = ""
CUSTOM_CLOCK = "custom"
"""The clock combo's two entries that are no preset (the presets hold their text, ``5+3``)."""
CUSTOM_CLOCK_DEFAULTS: dict[str, tuple[float, int, bool]] = {
    "chess": (10.0, 5, False),
    "checkers": (10.0, 5, False),
    "othello": (10.0, 5, False),
    "backgammon": (5.0, 12, True),
    "tictactoe": (1.0, 2, False),
}
"""What "Custom" starts from per game (minutes, seconds a move, whether they are a delay): a
rapid 10+5 for the board games, backgammon's twelve-second delay of tournament clocks, a
minute for tic-tac-toe. Other games start from ``DEFAULT_CUSTOM_CLOCK``."""
DEFAULT_CUSTOM_CLOCK = (10.0, 5, False)
MAX_INCREMENT_SHOWN = 180
"""The most seconds a move the dialog offers (Lichess's limit)."""


def _number_text(seconds: float) -> str:
    """``12`` for 12.0, ``2.5`` for 2.5."""
    return f"{seconds:g}"


class ClockRow(QWidget):
    """The game's clock, the same for both sides (the human's and the computer's): none,
    a preset (Lichess's 1+0 … 30+20, backgammon's 5 d12), or a custom base in minutes plus
    seconds a move, added after it or as a delay. The computer manages its own time from
    its clock."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.choice = QComboBox()
        self.choice.setObjectName("clockChoice")
        self.choice.addItem("No clock", NO_CLOCK)
        for control in PRESETS:
            kind = f"{_number_text(control.increment[0])} s delay a move" if control.delay else control.speed.value
            self.choice.addItem(f"{control.text()} · {kind}", control.text())
        self.choice.addItem("Custom…", CUSTOM_CLOCK)
        self.choice.setToolTip("Minutes for the game + seconds added after each move, for both sides")
        self.minutes = QDoubleSpinBox()
        self.minutes.setObjectName("clockMinutes")
        self.minutes.setRange(0.25, MAX_BASE_SECONDS / 60)
        self.minutes.setDecimals(2)
        self.minutes.setSingleStep(1.0)
        self.minutes.setSuffix(" min")
        self.increment = QSpinBox()
        self.increment.setObjectName("clockIncrement")
        self.increment.setRange(0, MAX_INCREMENT_SHOWN)
        self.increment.setPrefix("+ ")
        self.increment.setSuffix(" s a move")
        self.custom = QWidget()
        custom_row = QHBoxLayout(self.custom)
        custom_row.setContentsMargins(0, 0, 0, 0)
        custom_row.addWidget(self.minutes)
        custom_row.addWidget(self.increment)
        self.delay = QCheckBox("as a delay")
        self.delay.setObjectName("clockDelay")
        self.delay.setToolTip("The seconds a move are a delay: each turn's clock stands that long, then runs "
                              "(backgammon's tournament clocks), instead of being added after the move")
        custom_row.addWidget(self.delay)
        form = QFormLayout(self)
        form.setContentsMargins(0, 0, 0, 0)
        form.addRow("Clock", self.choice)
        form.addRow("", self.custom)
        self.choice.currentIndexChanged.connect(self._update_custom)
        self._update_custom()

    def set_game(self, game: str, control: TimeControl | None) -> None:
        """Show ``game``'s clock: ``control``, and "Custom" starting from the game's own
        values unless ``control`` is custom itself."""
        minutes, increment, delay = CUSTOM_CLOCK_DEFAULTS.get(game, DEFAULT_CUSTOM_CLOCK)
        self.minutes.setValue(minutes)
        self.increment.setValue(increment)
        self.delay.setChecked(delay)
        if control is None:
            self.choice.setCurrentIndex(0)
            return
        index = self.choice.findData(control.text()) if control.is_symmetric else -1
        if index < 0:  # a control of its own (player 0's, if the two differ)
            index = self.choice.findData(CUSTOM_CLOCK)
            self.minutes.setValue(control.base[0] / 60)
            self.increment.setValue(min(MAX_INCREMENT_SHOWN, round(control.increment[0])))
            self.delay.setChecked(control.delay)
        self.choice.setCurrentIndex(index)

    def time_control(self) -> TimeControl | None:
        """The clock chosen, or ``None`` for no clock."""
        chosen = self.choice.currentData()
        try:
            if chosen == CUSTOM_CLOCK:
                # whole seconds: two decimals of a minute are within 0.3 s of any whole second
                seconds = float(round(self.minutes.value() * 60))
                return TimeControl.of(seconds, float(self.increment.value()), delay=self.delay.isChecked())
            return TimeControl.parse(chosen) if chosen else None
        except ClockError:  # the spin boxes' ranges keep every value valid
            return None

    def _update_custom(self) -> None:
        self.custom.setVisible(self.choice.currentData() == CUSTOM_CLOCK)


class NewGameDialog(QDialog):
    """Choose a game and its two sides; ``choice()`` after ``exec()`` accepted."""

    def __init__(
        self,
        game: str,
        players_for: dict[str, tuple[PlayerConfig, PlayerConfig]],
        *,
        manual_dice: bool = False,
        match_length: int = 0,
        time_controls: dict[str, TimeControl | None] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("New game")
        self._players_for = dict(players_for)
        self._time_controls = dict(time_controls or {})
        """Each game's clock as last chosen (``None``: no clock, the default)."""
        self.game = QComboBox()
        for name in GAME_NAMES:
            self.game.addItem(game_title(name), name)
        self.sides = (SideEditor("First player"), SideEditor("Second player"))
        self.manual_dice = QCheckBox("Enter the dice myself (over-the-board play)")
        self.manual_dice.setChecked(manual_dice)
        self.match_row = MatchLengthRow(match_length)
        self.clock_row = ClockRow()
        self.hint = QLabel(
            "The low levels make mistakes on purpose, small ones often and big ones rarely, so a beginner "
            "can win; the top levels never err and differ only in how much they search; a level's rating "
            "comes from matches against outside programs."
        )
        self.hint.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Play")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        top = QFormLayout()
        top.addRow("Game", self.game)
        # Side by side, or one above the other when both are computers: two computer
        # panels side by side (each as wide as the longest level text) would make the
        # dialog wider than a 1400-pixel screen, its buttons off it.
        self.sides_layout = sides = QBoxLayout(QBoxLayout.Direction.LeftToRight)
        for side in self.sides:
            sides.addWidget(side)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addLayout(sides)
        layout.addWidget(self.clock_row)
        layout.addWidget(self.manual_dice)
        layout.addWidget(self.match_row)
        layout.addWidget(self.hint)
        layout.addWidget(buttons)
        layout.setSizeConstraint(QLayout.SizeConstraint.SetFixedSize)  # as tall as what it shows
        self._align_labels([(top, self.game), (self.clock_row.layout(), self.clock_row.choice), (self.match_row.layout(), self.match_row.choice)])
        for side in self.sides:
            side.shown_changed.connect(self._update_hint)
        self._current = ""
        self.game.currentIndexChanged.connect(self._on_game_changed)
        self.game.setCurrentIndex(max(0, self.game.findData(game)))
        self._on_game_changed()

    @staticmethod
    def _align_labels(rows: list[tuple[QLayout | None, QWidget]]) -> None:
        """One label column for the dialog's rows ("Game", "Clock", "Play"), which sit in
        forms of their own: each label as wide as the widest, so the boxes start at one x."""
        labels = [form.labelForField(field) for form, field in rows if isinstance(form, QFormLayout)]
        shown = [label for label in labels if label is not None]
        width = max((label.sizeHint().width() for label in shown), default=0)
        for label in shown:
            label.setMinimumWidth(width)

    def _on_game_changed(self) -> None:
        if self._current:
            self._players_for[self._current] = (self.sides[0].config(), self.sides[1].config())
            self._time_controls[self._current] = self.clock_row.time_control()
        name = self.game.currentData()
        self._current = name
        game_class = get_game(name)
        defaults = self._players_for.get(name, (PlayerConfig(), PlayerConfig(kind=COMPUTER)))
        for index, side in enumerate(self.sides):
            side.setTitle(player_names(game_class)[index])
            side.set_game(name)
            side.set_config(defaults[index])
        self.manual_dice.setVisible(game_class.HAS_CHANCE)
        self.match_row.setVisible(name in MATCH_GAMES)
        self.clock_row.set_game(name, self._time_controls.get(name))
        self._update_hint()

    def _update_hint(self) -> None:
        """The note on levels only when a side plays by level; the sides stacked when both
        are computers."""
        self.hint.setVisible(any(side.uses_levels() for side in self.sides))
        both = all(side.computer.isChecked() for side in self.sides)
        self.sides_layout.setDirection(QBoxLayout.Direction.TopToBottom if both else QBoxLayout.Direction.LeftToRight)

    def choice(self) -> tuple[str, tuple[PlayerConfig, PlayerConfig], bool]:
        """The game, its two sides, and whether the player enters the dice."""
        name = self.game.currentData()
        return name, (self.sides[0].config(), self.sides[1].config()), self.manual_dice.isChecked()

    def time_control(self) -> TimeControl | None:
        """The game's clock, both sides alike; ``None`` to play without one."""
        return self.clock_row.time_control()

    def match_length(self) -> int:
        """Backgammon: the points the match is played to; 0 for a money game (and for
        every other game)."""
        return self.match_row.length() if self.game.currentData() in MATCH_GAMES else 0
