"""The game's moves in its notation, and a box to type the next one.

The list has a row per move number and a column per player, as a score sheet. A dice roll
(a chance node) is shown in front of the play it belongs to (``6-1: 8/2 6/5``). Clicking a
move shows the position after it (the board is then not interactive until you come back to
the last move); the arrow keys step back and forth, Home/End jump to the start and the end.

A reviewed game's moves carry their marks (``Qh5??`` in the mark's colour, as Lichess writes
them) and the review's comment: in the cell's tooltip, and under the list for the move shown.

The move box takes a move typed in the game's notation (``Nf3``, ``11-15``, ``d3``,
``24/18 13/11``, a dice roll ``3-1`` when the dice are entered by hand); a bad move gets
the rules' reason underneath, in red, and nothing is played.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QKeyEvent, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from games import CHANCE, new_game
from games.base import GameError
from games.backgammon.notation import NO_DOUBLE

SILENT_NAMES = frozenset({NO_DOUBLE})
"""Moves not written on the score sheet: backgammon's "roll" (a decision not to double),
which is every turn's default; the roll itself follows."""

ROLE_PLY = Qt.ItemDataRole.UserRole + 1
ROW_HEIGHT = 24
"""A score-sheet row of one line; a move that must wrap makes its row taller."""


@dataclass(frozen=True)
class Cell:
    """One score-sheet cell: its text and the ply shown when it is clicked."""

    row: int
    column: int
    text: str
    ply: int


@dataclass(frozen=True)
class CellMark:
    """What a review says of one move, as the score sheet shows it."""

    symbol: str
    """Written after the move: ``?!``, ``?``, ``??`` (empty: a comment alone)."""
    colour: str
    """The symbol's colour (``#rrggbb``), the cell's text colour."""
    comment: str
    """The review's words on the move (``Blunder: Nf3 was best.``), for the tooltip and
    the line under the list."""


def roll_only(name: str) -> str:
    """A chance entry without the player it names: backgammon's opening roll ``X 5-4``
    (who starts, and the dice) is ``5-4`` once it stands in X's column."""
    who, _, roll = name.partition(" ")
    return roll if roll and len(who) == 1 and who.isalpha() and roll[:1].isdigit() else name


def score_sheet(movers: Sequence[int], names: Sequence[str], roller: int | None = None) -> list[Cell]:
    """Lay the history out as rows of (first player, second player) cells; ``roller`` is
    who rolled the dice of a last chance entry not yet played (its cell goes in that column).

    A chance entry is shown in front of the next move of a player; a player who moves twice
    in a row (a pass that is not written, a cube action) starts a new row as needed.
    """
    cells: list[Cell] = []
    row = -1
    taken: set[int] = {0, 1}  # so that the first move opens row 0
    prefix: list[str] = []
    for ply, (mover, name) in enumerate(zip(movers, names), start=1):
        if mover == CHANCE or name in SILENT_NAMES:
            if mover == CHANCE:
                prefix.append(name)
            continue
        rolls = [roll_only(roll) for roll in prefix]  # in the mover's own column: "5-4", not "X 5-4"
        text = f"{' '.join(rolls)}: {name}" if prefix else name
        prefix = []
        if mover in taken or (mover == 0 and 1 in taken):
            row += 1
            taken = set()
        taken.add(mover)
        cells.append(Cell(row, mover, text, ply))
    if prefix and roller in (0, 1):  # a roll not played yet, in the column of who rolled it
        if roller in taken or (roller == 0 and 1 in taken):
            row += 1
        cells.append(Cell(row, roller, " ".join(roll_only(roll) for roll in prefix) + ":", len(names)))
    elif prefix:  # the roller unknown: in the first free cell
        column = 0 if (0 not in taken and 1 not in taken) else 1
        if column in taken:
            row, column = row + 1, 0
        cells.append(Cell(row, column, " ".join(prefix) + ":", len(names)))
    return cells


def sheet_moves(movers: Sequence[int], names: Sequence[str]) -> int:
    """How many moves a game has, counted as its score sheet counts them (a row per move
    number: White's and Black's halves are one move; backgammon's rolls and "roll" are
    part of a turn). Every "N moves" the app shows is this number."""
    return max((cell.row for cell in score_sheet(movers, names)), default=-1) + 1


def record_movers(game: str, start: str | None, names: Sequence[str]) -> list[int] | None:
    """Who made each move of a saved game (replayed from ``start``), or ``None`` when the
    moves do not replay."""
    try:
        state = new_game(game, start or None)
        movers = []
        for name in names:
            movers.append(state.to_move())
            state.play(state.parse_move(name))
    except (GameError, ValueError):
        return None
    return movers


class MoveList(QTableWidget):
    """The score sheet; keys step through the game."""

    ply_selected = Signal(int)
    comment_changed = Signal(str)
    """The review's comment on the move shown ("" when it has none)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(0, 2, parent)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        # A long backgammon turn ("6-6: bar/19* 13/7* 8/2(2)") wraps onto a second line of
        # its row rather than being cut to "6-6: bar/19* …" when the list is narrow: rows
        # are as tall as their text at the column's width, one line (24 px) at the least.
        self.setWordWrap(True)
        self.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.verticalHeader().setMinimumSectionSize(ROW_HEIGHT)
        self.verticalHeader().setDefaultSectionSize(ROW_HEIGHT)
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self._fit_rows = QTimer(self)  # once the columns have their new widths, after a resize
        self._fit_rows.setSingleShot(True)
        self._fit_rows.setInterval(0)
        self._fit_rows.timeout.connect(self._fit_rows_to_text)
        self.horizontalHeader().sectionResized.connect(lambda *_: self._fit_rows.start())
        self.setAlternatingRowColors(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._plies: list[int] = []
        """The ply of each cell, in order (for stepping)."""
        self._cells: dict[int, tuple[int, int]] = {}
        self._texts: dict[int, str] = {}
        """The plain text of each move's cell (without a mark), by ply."""
        self._marks: dict[int, CellMark] = {}
        self._total = 0
        self._shown = 0
        self.first_number = 1
        """The first row's move number (a game set up mid-way starts from its own)."""
        self.cellClicked.connect(self._on_clicked)

    @property
    def shown_ply(self) -> int:
        return self._shown

    @property
    def total_plies(self) -> int:
        return self._total

    @property
    def move_count(self) -> int:
        """The moves on the sheet (its rows)."""
        return self.rowCount()

    def move_number_of(self, ply: int) -> int:
        """The sheet's move number (row) of the last written move at or before ``ply``;
        0 at the start."""
        rows = [row for cell_ply, (row, _column) in self._cells.items() if cell_ply <= ply]
        return max(rows, default=-1) + 1

    def set_players(self, names: Sequence[str]) -> None:
        self.setHorizontalHeaderLabels(list(names))

    def set_history(
        self, movers: Sequence[int], names: Sequence[str], roller: int | None = None, first_number: int = 1
    ) -> None:
        """Show the game; the last move becomes the shown one (``roller``: see ``score_sheet``;
        ``first_number``: the first row's move number, ``GameState.move_number`` at the start)."""
        cells = score_sheet(movers, names, roller)
        self.setRowCount(max((cell.row for cell in cells), default=-1) + 1)
        self.clearContents()
        self._plies = [0]
        self._cells = {}
        self._texts = {}
        for cell in cells:
            item = QTableWidgetItem(cell.text)
            item.setData(ROLE_PLY, cell.ply)
            self.setItem(cell.row, cell.column, item)
            self._plies.append(cell.ply)
            self._cells[cell.ply] = (cell.row, cell.column)
            self._texts[cell.ply] = cell.text
            self._dress(cell.ply)
        self.first_number = first_number
        self.setVerticalHeaderLabels([f"{first_number + row}" for row in range(self.rowCount())])
        self.resizeRowsToContents()
        self._total = len(names)
        self._select(self._total, emit=False)

    def set_marks(self, marks: Mapping[int, CellMark]) -> None:
        """The review's marks by ply (the position after the move; empty: none)."""
        changed = set(self._marks) | set(marks)
        self._marks = dict(marks)
        for ply in changed:
            self._dress(ply)
        self.resizeRowsToContents()
        self.comment_changed.emit(self.shown_comment())

    def marks(self) -> dict[int, CellMark]:
        return dict(self._marks)

    def shown_comment(self) -> str:
        """The review's comment on the move shown, or ""."""
        mark = self._marks.get(self._shown)
        return "" if mark is None else mark.comment

    def _dress(self, ply: int) -> None:
        """The cell of ``ply`` with its mark: the symbol after the move, the text in the
        mark's colour and bold, the comment in the tooltip."""
        where = self._cells.get(ply)
        item = self.item(*where) if where is not None else None
        if item is None:
            return
        text = self._texts.get(ply, item.text())
        mark = self._marks.get(ply)
        font = QFont(self.font())
        if mark is None:
            item.setText(text)
            item.setData(Qt.ItemDataRole.ForegroundRole, None)
            item.setToolTip(f"Show the position after {text}")
        else:
            item.setText(f"{text}{mark.symbol}")
            if mark.symbol:
                item.setForeground(QBrush(QColor(mark.colour)))
                font.setBold(True)
            item.setToolTip(mark.comment or f"Show the position after {text}")
        item.setFont(font)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        """Rows refit to the new width, and the move shown stays in sight (the game-over line
        appearing under the list makes it shorter: the last move must not slip out of view)."""
        super().resizeEvent(event)
        self._fit_rows.start()

    def _fit_rows_to_text(self) -> None:
        self.resizeRowsToContents()
        where = self._cells.get(self._shown)
        item = self.item(*where) if where is not None else None
        if item is not None:
            self.scrollToItem(item)

    def item_texts(self) -> list[str]:
        """Every move cell's text in order (tests and the self-test read it)."""
        texts = []
        for row in range(self.rowCount()):
            for column in range(self.columnCount()):
                item = self.item(row, column)
                if item is not None and item.text():
                    texts.append(item.text())
        return texts

    def show_ply(self, ply: int) -> None:
        self._select(ply, emit=True)

    def step(self, delta: int) -> None:
        """Show the previous (``-1``) or next (``+1``) move's position."""
        plies = sorted(set(self._plies) | {self._total})
        if self._shown in plies:
            index = plies.index(self._shown) + delta
        else:
            index = next((i for i, ply in enumerate(plies) if ply > self._shown), len(plies)) + (delta if delta < 0 else 0)
        index = max(0, min(index, len(plies) - 1))
        self._select(plies[index], emit=True)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt's name
        key = event.key()
        if key in (Qt.Key.Key_Left, Qt.Key.Key_Up):
            self.step(-1)
        elif key in (Qt.Key.Key_Right, Qt.Key.Key_Down):
            self.step(1)
        elif key == Qt.Key.Key_Home:
            self._select(0, emit=True)
        elif key == Qt.Key.Key_End:
            self._select(self._total, emit=True)
        else:
            super().keyPressEvent(event)

    def _on_clicked(self, row: int, column: int) -> None:
        item = self.item(row, column)
        if item is not None:
            self._select(int(item.data(ROLE_PLY)), emit=True)

    def _select(self, ply: int, *, emit: bool) -> None:
        ply = max(0, min(ply, self._total))
        self._shown = ply
        self.blockSignals(True)
        self.clearSelection()
        where = self._cells.get(ply)
        if where is not None:
            self.setCurrentCell(*where)
            item = self.item(*where)
            if item is not None:
                self.scrollToItem(item)
        self.blockSignals(False)
        if self._marks:
            self.comment_changed.emit(self.shown_comment())
        if emit:
            self.ply_selected.emit(ply)


class MovePanel(QWidget):
    """The move list with the move box under it."""

    ply_selected = Signal(int)
    move_entered = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.moves = MoveList()
        self.box = QLineEdit()
        self.box.setObjectName("moveBox")
        self.box.setClearButtonEnabled(True)
        self.error = QLabel()
        self.error.setObjectName("moveError")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #c0392b;")
        self.error.hide()
        self.comment = QLabel()
        self.comment.setObjectName("moveComment")
        self.comment.setWordWrap(True)
        self.comment.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.moves, 1)
        layout.addWidget(self.comment)
        layout.addWidget(self.box)
        layout.addWidget(self.error)
        self.moves.ply_selected.connect(self.ply_selected)
        self.moves.comment_changed.connect(self._show_comment)
        self.box.returnPressed.connect(self._on_return)
        self.box.textEdited.connect(lambda _text: self.clear_error())

    def _show_comment(self, text: str) -> None:
        """The review's comment on the move shown, under the list (hidden without one)."""
        self.comment.setText(text)
        self.comment.setVisible(bool(text))
        if text:  # a wrapped label in a dock is not asked for its height: give it
            self.comment.setMinimumHeight(self.comment.heightForWidth(max(1, self.width())))

    def set_example(self, example: str) -> None:
        self.box.setPlaceholderText(f"Type a move, e.g. {example}" if example else "Type a move")

    def show_error(self, message: str) -> None:
        self.error.setText(message)
        self.error.show()
        self._fit_error()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self._fit_error()

    def _fit_error(self) -> None:
        """The error label as tall as its wrapped lines at the panel's width: a layout in a
        dock does not ask a word-wrapped label for its height, and cut a three-line error
        at the top and bottom."""
        if not self.error.isHidden():  # the panel's layout has no margins
            self.error.setMinimumHeight(self.error.heightForWidth(max(1, self.width())))

    def clear_error(self) -> None:
        self.error.clear()
        self.error.hide()

    def _on_return(self) -> None:
        text = self.box.text().strip()
        if text:
            self.move_entered.emit(text)

    def clear_entry(self) -> None:
        """An empty box without an error (a new game)."""
        self.box.clear()
        self.clear_error()

    def accept_move(self) -> None:
        """The typed move was played: empty the box."""
        self.box.clear()
        self.clear_error()
