"""The "Review" tab: start or cancel a review, see each side's accuracy (or backgammon's
error rate and rating) and how many inaccuracies, mistakes and blunders each made, step
from mistake to mistake, and read what the review says of the move shown.

The panel renders and emits intents; the main window runs the review (``ReviewRunner``)
and moves the board. Numbers come from the review (``GameReview.summary``): the panel only
names them, so the counts shown are the marks in the move list, one for one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from games.annotations import GameReview, Mark, SideSummary
from gui.review.runner import ReviewLevel, level_word
from gui.review.style import ERROR_MARKS, MARK_COLOURS

BOTH_SIDES = -1
"""The mistakes of either side (the side box's first choice)."""


def summary_rows(review: GameReview) -> list[tuple[str, tuple[str, str]]]:
    """The summary table as (row name, (player 0's cell, player 1's cell)): the figures the
    review has for this game (accuracy; error rate and rating for backgammon), the count of
    each error mark in the game's words, and the average loss in the game's review unit."""
    sides = review.summaries()
    scale = review.scale
    rows: list[tuple[str, tuple[str, str]]] = []

    def row(title: str, cell: Callable[[SideSummary], str]) -> None:
        rows.append((title, (cell(sides[0]), cell(sides[1]))))

    if any(side.accuracy is not None for side in sides):
        row("Accuracy", lambda side: "–" if side.accuracy is None else f"{side.accuracy:.0f}%")
    if any(side.error_rate is not None for side in sides):
        row("Error rate (mEMG)", lambda side: "–" if side.error_rate is None else f"{side.error_rate:.1f}")
    if any(side.rating for side in sides):
        row("Rating", lambda side: side.rating or "–")
    row(f"{scale.word(Mark.INACCURACY)} {Mark.INACCURACY.symbol}", lambda side: str(side.inaccuracies))
    row(f"{scale.word(Mark.MISTAKE)} {Mark.MISTAKE.symbol}", lambda side: str(side.mistakes))
    row(f"{scale.word(Mark.BLUNDER)} {Mark.BLUNDER.symbol}", lambda side: str(side.blunders))
    if any(side.centipawn_loss is not None for side in sides):  # chess: Lichess's figure
        row("Average centipawn loss", lambda side: "–" if side.centipawn_loss is None else f"{side.centipawn_loss:.0f}")
    else:
        row(f"Average loss ({scale.unit})", lambda side: f"{side.average_loss:.{scale.average_decimals}f}")
    return rows


class ReviewPanel(QWidget):
    """The review tab. Signals: ``review_requested(ReviewLevel)``, ``cancel_requested()``,
    ``level_changed(ReviewLevel)``, ``mistake_requested(int player, int step)`` (player
    ``BOTH_SIDES`` for either; step +1 next, -1 previous), ``side_changed()`` ("Mistakes of"
    now names another side)."""

    review_requested = Signal(object)
    cancel_requested = Signal()
    level_changed = Signal(object)
    mistake_requested = Signal(int, int)
    side_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("reviewPanel")
        self.level = QComboBox()
        self.level.setObjectName("reviewLevel")
        for level in ReviewLevel:
            self.level.addItem(level_word(level), level)
        self.level.setToolTip("How hard the engine looks at each move: Deep searches 4 times the nodes of Standard, Quick a quarter")
        self.start_button = QPushButton("Review game")
        self.start_button.setObjectName("reviewStart")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setObjectName("reviewCancel")
        self.cancel_button.hide()
        self.progress = QProgressBar()
        self.progress.setObjectName("reviewProgress")
        self.progress.setFormat("%v of %m moves reviewed")
        self.progress.hide()
        self.message = QLabel("The engine reviews every move of both sides: after a game, or Game → Review game.")
        self.message.setObjectName("reviewMessage")
        self.message.setWordWrap(True)

        self._names: tuple[str, str] = ("", "")
        self.table = QGridLayout()
        self.table.setHorizontalSpacing(12)
        self.table_box = QWidget()
        self.table_box.setLayout(self.table)
        self.table_box.hide()

        self.side = QComboBox()
        self.side.setObjectName("reviewSide")
        self.side.currentIndexChanged.connect(lambda _index: self.side_changed.emit())
        self.previous_button = QPushButton("◀ Previous")
        self.previous_button.setObjectName("reviewPrevious")
        self.next_button = QPushButton("Next ▶")
        self.next_button.setObjectName("reviewNext")
        for button, step in ((self.previous_button, -1), (self.next_button, 1)):
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.clicked.connect(lambda _checked=False, step=step: self.mistake_requested.emit(self.side_choice(), step))
        # Two short rows each, not one long one: the panel is a tab of a dock that may be
        # narrow (a small window gives it about 265 px).
        self.navigation = QWidget()
        navigation = QVBoxLayout(self.navigation)
        navigation.setContentsMargins(0, 0, 0, 0)
        side_row = QHBoxLayout()
        side_row.addWidget(QLabel("Mistakes of"))
        side_row.addWidget(self.side, 1)
        steps = QHBoxLayout()
        steps.addWidget(self.previous_button)
        steps.addWidget(self.next_button)
        navigation.addLayout(side_row)
        navigation.addLayout(steps)
        self.navigation.hide()

        self.detail = QLabel()
        self.detail.setObjectName("reviewDetail")
        self.detail.setWordWrap(True)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        top = QHBoxLayout()
        top.addWidget(QLabel("Strength"))
        top.addWidget(self.level, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.start_button, 1)
        buttons.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addLayout(buttons)
        layout.addWidget(self.progress)
        layout.addWidget(self.message)
        layout.addWidget(self.table_box)
        layout.addWidget(self.navigation)
        layout.addWidget(self.detail)
        layout.addStretch(1)

        self.start_button.clicked.connect(lambda: self.review_requested.emit(self.chosen_level()))
        self.cancel_button.clicked.connect(self.cancel_requested)
        self.level.currentIndexChanged.connect(lambda _index: self.level_changed.emit(self.chosen_level()))

    # ------------------------------------------------------------------ choices
    def chosen_level(self) -> ReviewLevel:
        level = self.level.currentData()
        return level if isinstance(level, ReviewLevel) else ReviewLevel.STANDARD

    def set_level(self, level: ReviewLevel) -> None:
        self.level.blockSignals(True)
        self.level.setCurrentIndex(max(0, self.level.findData(level)))
        self.level.blockSignals(False)

    def side_choice(self) -> int:
        """The player whose mistakes the buttons and keys step through (``BOTH_SIDES``)."""
        side = self.side.currentData()
        return side if isinstance(side, int) else BOTH_SIDES

    def set_players(self, names: tuple[str, str], own_side: int | None = None) -> None:
        """A new game's players; the side box starts at ``own_side`` (the human against the
        computer: your own mistakes first), else both."""
        self._names = names
        self.side.clear()
        self.side.addItem("both sides", BOTH_SIDES)
        for player, name in enumerate(names):
            self.side.addItem(name, player)
        self.side.setCurrentIndex(0 if own_side is None else own_side + 1)

    # ------------------------------------------------------------------ states
    def clear(self, message: str = "") -> None:
        """No review (a new game, a review cancelled or failed)."""
        self.show_running(None)
        self.table_box.hide()
        self.navigation.hide()
        self.detail.clear()
        self.start_button.setText("Review game")
        self.message.setText(message or "The engine reviews every move of both sides: after a game, or Game → Review game.")
        self.message.show()

    def show_running(self, progress: tuple[int, int] | None) -> None:
        """A review running at (moves reviewed, moves to review), or none (``None``)."""
        running = progress is not None
        self.cancel_button.setVisible(running)
        self.start_button.setEnabled(not running)
        self.level.setEnabled(not running)
        self.progress.setVisible(running)
        if progress is not None:
            done, total = progress
            self.progress.setMaximum(max(1, total))
            self.progress.setValue(min(done, max(1, total)))
            self.message.setText("Reviewing the game — you can go on playing meanwhile.")
            self.message.show()

    def show_message(self, text: str) -> None:
        self.message.setText(text)
        self.message.setVisible(bool(text))

    def show_review(self, review: GameReview, how: str) -> None:
        """The review's summary per side; ``how``: the strength it was made at, in words."""
        self.show_running(None)
        self.start_button.setText("Review again")
        while self.table.count():
            item = self.table.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        for column, name in enumerate(self._names, start=1):
            header = QLabel(f"<b>{name}</b>")
            header.setAlignment(Qt.AlignmentFlag.AlignRight)
            self.table.addWidget(header, 0, column)
        words = {f"{review.scale.word(mark)} {mark.symbol}": mark for mark in ERROR_MARKS}
        for row, (title, cells) in enumerate(summary_rows(review), start=1):
            label = QLabel(title)
            mark = words.get(title)
            if mark is not None:
                label.setStyleSheet(f"color: {MARK_COLOURS[mark]}; font-weight: bold;")
            self.table.addWidget(label, row, 0)
            for column, text in enumerate(cells, start=1):
                cell = QLabel(text)
                cell.setAlignment(Qt.AlignmentFlag.AlignRight)
                self.table.addWidget(cell, row, column)
        self.table.setColumnStretch(0, 1)
        self.table_box.show()
        self.navigation.show()
        errors = sum(1 for move in review.moves if move.mark in ERROR_MARKS)
        self.message.setText(f"Reviewed ({how}): {errors} move{'s' if errors != 1 else ''} marked. "
                             "Click a mark in the move list or on the graph, or step with N and Shift+N.")
        self.message.show()

    def cell_texts(self) -> list[tuple[str, ...]]:
        """The summary table's rows as text (tests read it)."""
        rows: dict[int, dict[int, str]] = {}
        for row in range(self.table.rowCount()):
            for column in range(3):
                item = self.table.itemAtPosition(row, column)
                widget = item.widget() if item is not None else None
                if isinstance(widget, QLabel):
                    rows.setdefault(row, {})[column] = widget.text()
        return [tuple(cells.get(column, "") for column in range(3)) for _, cells in sorted(rows.items())]

    def set_detail(self, text: str) -> None:
        """What the review says of the move shown (its verdict, the better move and line)."""
        self.detail.setText(text)


def mark_counts(review: GameReview, player: int) -> dict[Mark, int]:
    """How many of each error mark ``player``'s moves got, counted from the marks
    themselves (a check against the summary's counts)."""
    counts = {mark: 0 for mark in ERROR_MARKS}
    for move in review.moves:
        if move.mover == player and move.mark in counts:
            counts[move.mark] += 1
    return counts


__all__: Sequence[str] = ["BOTH_SIDES", "ReviewPanel", "mark_counts", "summary_rows"]
