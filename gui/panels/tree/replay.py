"""The replay bar: step through a recorded search as a student follows alpha-beta by hand.

The buttons (and keys) move through the steps of ``ai.tree.replay.Replay``: a step at a time
(enter, cut-off, leave), a node at a time, to the next cut-off, to the next pass (iteration
or re-search), to the start or the end, or play at a chosen speed. At each step the bar says
what happens in words and lists the path from the root, each node with alpha and beta as the
search held them at that moment; the bound that the step just tightened is marked.

The bar emits where it is; the textbook view highlights the node (``node_reached``) and
greys the nodes not yet visited (``visited_changed``), the overview does the same.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QKeyEvent, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSizePolicy,
    QSlider,
    QTableWidget,
    QTableWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ai.tree.model import KIND_SYMBOLS, NodeKind, SearchTree
from ai.tree.replay import (
    PathWindow,
    Replay,
    ReplayEvent,
    ReplayStep,
    TreeWords,
    describe,
    side_of,
)
from ai.tt import Bound
from games.base import GameState
from gui.panels.display import LineNamer, MoveNamer
from gui.theme import LIGHT, Theme

SPEEDS = (1, 2, 3, 5, 8, 12, 20, 30, 50, 100)
"""Steps a second while playing (the slider's stops)."""
DEFAULT_SPEED = 3
"""The slider's stop at start: 5 steps a second, slow enough to read the windows."""
READ_CHUNK = 1_500
"""Nodes of a large tree read per tick (about 2 ms), so the app keeps running."""
READ_PAUSE_MS = 10
GROWING_MS = 300
"""How often a tree still being searched is read again."""
PATH_ROWS_SHOWN = 3
"""Rows of the path table always in view (the root and two plies below it)."""
BUTTON_PADDING = 10
"""Pixels round a move button's glyphs."""
PATH_COLUMNS = ("node", "α", "β", "best so far")


class PathTable(QTableWidget):
    """The path table: it asks for no more height than its minimum, so that in a scroll area
    (the tree panel's pane) the bar fits the pane and the table scrolls its own rows, keeping
    the current node (the last row) in view."""

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        hint = super().sizeHint()
        return QSize(hint.width(), self.minimumHeight())


class ReplayBar(QWidget):
    """Step through a recorded tree. ``step_changed(step)``, ``node_reached(index)`` and
    ``visited_changed(index)`` (the largest visit index entered so far) at every move the
    user makes; a new tree resets the replay quietly (``visited_changed(None)``), so a search
    shown live is never greyed until someone steps through it."""

    step_changed = Signal(int)
    node_reached = Signal(int)
    visited_changed = Signal(object)
    """The largest visit index entered so far (an ``int``), or ``None`` when no replay is
    under way (a new tree: nothing is to be greyed)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._tree: SearchTree | None = None
        self._replay: Replay | None = None
        self._words = TreeWords()
        self._theme: Theme = LIGHT
        self._step = 0
        self._reader = QTimer(self)
        self._reader.setSingleShot(True)
        self._reader.timeout.connect(self._read_more)
        self._player = QTimer(self)
        self._player.timeout.connect(self._play_tick)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._build()
        self._show_step()

    # ----------------------------------------------------------------- the parts
    def _build(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(4)
        # Two rows, so that the bar fits the engine dock at its narrowest (300 px): the moves,
        # then playing with its speed.
        moves = QHBoxLayout()
        moves.setSpacing(1)
        playing = QHBoxLayout()
        playing.setSpacing(4)
        self.buttons: dict[str, QToolButton] = {}
        for name, text, tip, action, row in (
            ("start", "|◀", "To the start (Home)", self.to_start, moves),
            ("previous_pass", "◀◀", "Back to the start of this pass, or the one before (Page Up)", self.previous_pass, moves),
            ("previous_cut", "◀✂", "The previous cut-off (Ctrl+Left)", self.previous_cut, moves),
            ("previous_node", "◀●", "The node entered before (Shift+Left)", self.previous_node, moves),
            ("previous", "◀", "One step back (Left)", self.previous_step, moves),
            ("next", "▶", "One step on: enter, cut-off or leave (Right)", self.next_step, moves),
            ("next_node", "●▶", "The next node entered (Shift+Right)", self.next_node, moves),
            ("next_cut", "✂▶", "The next cut-off (Ctrl+Right)", self.next_cut, moves),
            ("next_pass", "▶▶", "The next pass: the next iteration or re-search (Page Down)", self.next_pass, moves),
            ("end", "▶|", "To the end (End)", self.to_end, moves),
            ("play", "▶ Play", "Play the search at the chosen speed (Space)", self.toggle_play, playing),
        ):
            button = QToolButton(self)
            button.setText(text)
            button.setToolTip(tip)
            button.setAutoRaise(True)
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the keys stay with the bar
            button.clicked.connect(action)
            if row is moves:  # as narrow as its glyphs allow: ten of them fit the narrowest dock
                button.setFixedWidth(self.fontMetrics().horizontalAdvance(text) + BUTTON_PADDING)
            row.addWidget(button)
            self.buttons[name] = button
        moves.addStretch(1)
        self.speed = QSlider(Qt.Orientation.Horizontal, self)
        self.speed.setRange(0, len(SPEEDS) - 1)
        self.speed.setValue(DEFAULT_SPEED)
        self.speed.setPageStep(1)
        self.speed.setToolTip("Playing speed")
        self.speed.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.speed.setMinimumWidth(60)
        self.speed.setMaximumWidth(140)
        self.speed.valueChanged.connect(self._speed_changed)
        self.speed_label = QLabel(self)
        playing.addWidget(self.speed, 1)
        playing.addWidget(self.speed_label)
        playing.addStretch(1)
        layout.addLayout(moves)
        layout.addLayout(playing)
        self.counter = QLabel(self)
        self.counter.setWordWrap(True)
        self.counter.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.counter)
        self.event_text = QLabel(self)
        self.event_text.setWordWrap(True)
        self.event_text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        bold = QFont(self.event_text.font())
        bold.setBold(True)
        self.event_text.setFont(bold)
        layout.addWidget(self.event_text)
        self.path = PathTable(0, len(PATH_COLUMNS), self)
        self.path.setHorizontalHeaderLabels(list(PATH_COLUMNS))
        self.path.verticalHeader().setVisible(False)
        self.path.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        self.path.horizontalHeader().setFixedHeight(self.fontMetrics().height() + 6)
        self.path.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.path.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.path.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.path.setToolTip(
            "The path from the root to the node of this step. α and β are each node's window at this moment "
            "of the search, in the root player's view: a MAX node (▲) raises α as its children return, a MIN "
            "node (▼) lowers β; when α ≥ β the node's remaining moves are pruned. Bold: what this step changed."
        )
        header = self.path.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in range(1, len(PATH_COLUMNS)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.path.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        row_height = self.fontMetrics().height() + 6
        self.path.setMinimumHeight((PATH_ROWS_SHOWN + 1) * row_height + 4)
        layout.addWidget(self.path, 1)
        self._speed_changed(self.speed.value())
        mod = Qt.KeyboardModifier
        self._keys: dict[tuple[Qt.Key, Qt.KeyboardModifier], Callable[[], None]] = {
            (Qt.Key.Key_Right, mod.NoModifier): self.next_step,
            (Qt.Key.Key_Left, mod.NoModifier): self.previous_step,
            (Qt.Key.Key_Right, mod.ShiftModifier): self.next_node,
            (Qt.Key.Key_Left, mod.ShiftModifier): self.previous_node,
            (Qt.Key.Key_Right, mod.ControlModifier): self.next_cut,
            (Qt.Key.Key_Left, mod.ControlModifier): self.previous_cut,
            (Qt.Key.Key_PageDown, mod.NoModifier): self.next_pass,
            (Qt.Key.Key_PageUp, mod.NoModifier): self.previous_pass,
            (Qt.Key.Key_Home, mod.NoModifier): self.to_start,
            (Qt.Key.Key_End, mod.NoModifier): self.to_end,
            (Qt.Key.Key_Space, mod.NoModifier): self.toggle_play,
        }
        """The keys, while the bar has the focus (a click on it gives it)."""

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt's name)
        modifiers = event.modifiers() & (Qt.KeyboardModifier.ShiftModifier | Qt.KeyboardModifier.ControlModifier)
        action = self._keys.get((Qt.Key(event.key()), modifiers))
        if action is None:
            super().keyPressEvent(event)
            return
        action()
        event.accept()

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        return QSize(520, 260)

    # ----------------------------------------------------------------- contents
    def set_tree(self, tree: SearchTree | None) -> None:
        """Replay ``tree`` from its start; the same tree again (it grew) is read on."""
        if tree is self._tree:
            if tree is not None and not self._reader.isActive():
                self._reader.start(0)
            return
        self.pause()
        self._tree = tree
        self._replay = Replay(tree) if tree is not None else None
        self._step = 0
        if tree is not None:
            self._read_more()
        self._show_step(emit=False)
        self.visited_changed.emit(None)

    def clear(self) -> None:
        self.set_tree(None)

    @property
    def replay(self) -> Replay | None:
        return self._replay

    def set_root(self, root_state: GameState | None) -> None:
        """The position the search started from: it names the moves and the game's units."""
        self._words = TreeWords(root_state, self._words.line_texts)
        self._show_step(emit=False)

    def set_move_namer(
        self,
        move_text: MoveNamer | None,
        line_texts: LineNamer | None = None,
    ) -> None:
        """Name moves as the board labels them (``board.line_texts``); ``None``: the game's
        notation. ``move_text`` is accepted for the panels' common call and not needed."""
        self._words = TreeWords(self._words.root, line_texts)
        self._show_step(emit=False)

    def set_theme(self, theme: Theme) -> None:
        self._theme = theme
        self._show_step(emit=False)

    def _read_more(self) -> None:
        replay = self._replay
        if replay is None:
            return
        if self.window() is not self and not self.isVisibleTo(self.window()):
            return  # a hidden pane reads nothing: showing it reads on (``showEvent``)
        replay.extend(READ_CHUNK)
        if not replay.is_caught_up:
            self._reader.start(READ_PAUSE_MS)
        elif self._tree is not None and not self._tree.complete:
            self._reader.start(GROWING_MS)
        self._show_step(emit=False)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        if self._replay is not None and not self._reader.isActive():
            self._reader.start(0)

    # ----------------------------------------------------------------- where we are
    def current(self) -> ReplayStep | None:
        if self._replay is None or not len(self._replay):
            return None
        return self._replay.step(self._step)

    def window_path(self) -> list[PathWindow]:
        if self._replay is None or not len(self._replay):
            return []
        return self._replay.window_path(self._step)

    @property
    def step_number(self) -> int:
        return self._step

    def go_to(self, number: int | None) -> None:
        """Show step ``number`` (clamped to the replay); ``None`` leaves it where it is."""
        if number is None or self._replay is None or not len(self._replay):
            return
        number = max(0, min(number, len(self._replay) - 1))
        if number != self._step:
            self._step = number
            self._show_step()

    def go_to_node(self, index: int) -> None:
        """The step at which node ``index`` is entered."""
        if self._replay is not None:
            self.go_to(self._replay.enter_step(index))

    # ------------------------------------------------------------------ moves
    def next_step(self) -> None:
        self.go_to(self._step + 1)

    def previous_step(self) -> None:
        self.go_to(self._step - 1)

    def next_node(self) -> None:
        if self._replay is not None:
            self.go_to(self._replay.next_event(self._step, ReplayEvent.ENTER))

    def previous_node(self) -> None:
        if self._replay is not None:
            self.go_to(self._replay.previous_event(self._step, ReplayEvent.ENTER))

    def next_cut(self) -> None:
        if self._replay is not None:
            self.go_to(self._replay.next_cut(self._step))

    def previous_cut(self) -> None:
        if self._replay is not None:
            self.go_to(self._replay.previous_cut(self._step))

    def next_pass(self) -> None:
        if self._replay is not None:
            self.go_to(self._replay.next_pass(self._step))

    def previous_pass(self) -> None:
        if self._replay is not None:
            self.go_to(self._replay.previous_pass(self._step))

    def to_start(self) -> None:
        self.go_to(0)

    def to_end(self) -> None:
        if self._replay is not None:
            self.go_to(len(self._replay) - 1)

    # ------------------------------------------------------------------ playing
    @property
    def is_playing(self) -> bool:
        return self._player.isActive()

    def toggle_play(self) -> None:
        if self.is_playing:
            self.pause()
        else:
            self.play()

    def play(self) -> None:
        if self._replay is None or not len(self._replay):
            return
        if self._step >= len(self._replay) - 1:
            self.go_to(0)
        self._player.start(round(1000 / SPEEDS[self.speed.value()]))
        self.buttons["play"].setText("❚❚ Pause")

    def pause(self) -> None:
        self._player.stop()
        self.buttons["play"].setText("▶ Play")

    def _play_tick(self) -> None:
        if self._replay is None or self._step >= len(self._replay) - 1:
            self.pause()
            return
        self.next_step()

    def _speed_changed(self, stop: int) -> None:
        speed = SPEEDS[stop]
        self.speed_label.setText(f"{speed} step{'s' if speed != 1 else ''}/s")
        if self.is_playing:
            self._player.setInterval(round(1000 / speed))

    # ------------------------------------------------------------------ showing
    def _show_step(self, emit: bool = True) -> None:
        replay = self._replay
        has_steps = replay is not None and len(replay) > 0
        for button in self.buttons.values():
            button.setEnabled(has_steps)
        if not has_steps or replay is None:
            self.counter.setText("No recorded tree to replay" if replay is None else "Reading the tree…")
            self.event_text.setText("")
            self.path.setRowCount(0)
            return
        step = replay.step(self._step)
        tree = replay.tree
        node = tree.node(step.node)
        number = node.pass_number
        tree_pass = tree.passes[number] if number < len(tree.passes) else None
        where = f"pass {number + 1} of {len(tree.passes)}"
        if tree_pass is not None:
            where += f" (depth {tree_pass.iteration}{', ' + tree_pass.label if tree_pass.label else ''})"
        more = "" if replay.is_caught_up else " (reading…)"
        self.counter.setText(
            f"Step {self._step + 1:,} of {len(replay):,}{more} · {where} · node #{step.node:,}"
            f" · {step.event.name.lower()}"
        )
        self.event_text.setText(describe(replay, self._step, self._words))
        self._show_path(replay, step)
        self.buttons["previous"].setEnabled(self._step > 0)
        self.buttons["start"].setEnabled(self._step > 0)
        self.buttons["next"].setEnabled(self._step < len(replay) - 1)
        self.buttons["end"].setEnabled(self._step < len(replay) - 1)
        if emit:
            self.step_changed.emit(self._step)
            self.node_reached.emit(step.node)
            self.visited_changed.emit(step.visited_through)

    def _show_path(self, replay: Replay, step: ReplayStep) -> None:
        path = replay.window_path(step.number)
        before = replay.window_path(step.number - 1) if step.number > 0 else []
        earlier = {window.node.index: window for window in before}
        tree = replay.tree
        words = self._words
        self.path.setRowCount(len(path))
        accent = QColor(self._theme.accent)
        muted = QColor(self._theme.muted_text)
        for row, window in enumerate(path):
            node = window.node
            side = side_of(tree, node)
            symbol = KIND_SYMBOLS[side] if side is not None else KIND_SYMBOLS[node.kind]
            name = words.move_name(tree, node.index) if node.parent in tree else "root"
            label = "  " * row + f"{symbol} {name}"
            best = words.value(window.best) if not math.isnan(window.best) else "–"
            if node.index == step.node and step.event is ReplayEvent.LEAVE:
                best = {Bound.LOWER: "≥ ", Bound.UPPER: "≤ "}.get(node.bound, "") + words.value(node.value)
            cells = [label, words.value(window.alpha), words.value(window.beta), best]
            previous = earlier.get(node.index)
            changed = [
                False,
                previous is not None and previous.alpha != window.alpha,
                previous is not None and previous.beta != window.beta,
                previous is not None and not _same(previous.best, window.best),
            ]
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if column:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if changed[column]:
                    font = item.font()
                    font.setBold(True)
                    item.setFont(font)
                    item.setForeground(accent)
                if node.index == step.node and column == 0:
                    font = item.font()
                    font.setBold(True)
                    item.setFont(font)
                if side is None and column in (1, 2) and node.kind is not NodeKind.CHANCE:
                    item.setForeground(muted)
                item.setToolTip(self._row_tip(window))
                self.path.setItem(row, column, item)
        QTimer.singleShot(0, self.path.scrollToBottom)  # after the rows have their heights: the current node in view

    def _row_tip(self, window: PathWindow) -> str:
        node = window.node
        tree = self._replay.tree if self._replay is not None else None
        if tree is None:
            return ""
        line = self._words.line(tree, node.index)
        entered = self._words.window(node.alpha, node.beta)
        now = self._words.window(window.alpha, window.beta)
        return f"{line}\nentered with {entered}; now {now}"


def _same(first: float, second: float) -> bool:
    return first == second or (math.isnan(first) and math.isnan(second))


__all__ = ["SPEEDS", "ReplayBar"]
