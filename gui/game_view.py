"""The game view: the board with its eval-bar slot, the players, the move list and move box,
and the game's controls. It renders the ``GameSession`` and forwards intents to it.

Where the engine widgets plug in (the panels helper's): ``set_eval_bar(widget)`` puts a
widget beside the board; the main window's "Engine" dock holds the engine panel, the eval
graph and the settings panel (``MainWindow.add_engine_panel``).
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import QEvent, QSize, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from games import CHANCE
from gui.boards import board_for
from gui.clock_view import ClockView
from gui.dialogs.new_game import game_title
from gui.panels.display import player_names
from gui.panels.move_list import MovePanel
from gui.session import GameSession


NO_BREAK_SPACE = "\u00a0"
WORD_JOINER = "\u2060"
"""No line break on either side (Unicode line breaking, UAX #14): keeps "s/move" whole."""


def unbroken_phrases(text: str) -> str:
    """Rich text of ``text`` that wraps only after its commas: ``Computer (PVS, 1 s/move)``
    breaks as "Computer (PVS," / "1 s/move)", never inside "1 s/move" (a line break may
    follow a "/" or a space)."""
    return ", ".join(html.escape(part).replace(" ", NO_BREAK_SPACE).replace("/", "/" + WORD_JOINER) for part in text.split(", "))


def side_text(session: GameSession, player: int) -> str:
    """Who plays ``player`` as its label says it (rich text): the app's side ("Computer
    (level 4, PVS search)"); for a game opened from a file that names its players, the
    file's name first, as a chess database shows it, and who plays on from here:
    "Morphy · now You". A file that names the app's own side (a game the app saved, an
    autosave resumed) names it once."""
    described = session.players[player].describe()
    side = unbroken_phrases(described)
    named = session.tags.players[player] if session.tags.has_players() else None
    if named is None or named.strip() == described:
        return side
    return f"{html.escape(named or '?')} · now {side}"


WHY_NOT_PROMPT = "Why not this move? Play the move you want explained: it is not played. Esc cancels."

MIN_BOARD_AREA = (260, 240)
"""The board area's least size before a board is shown."""


class BoardArea(QWidget):
    """The board and, beside it, the eval bar, kept together: the board gets the biggest
    rectangle of its own shape (its ``sizeHint``'s aspect) that fits, and the bar stands
    right next to it at the board's height, as on Lichess. In a game with clocks, the
    clock of the player at the top of the board stands above it and the other below it,
    as wide as the board and its bar (a chess server's layout): they stay by the board
    whatever the window does with the side column."""

    SPACING = 6

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.board: QWidget | None = None
        self.bar: QWidget | None = None
        self.clocks: tuple[QWidget, QWidget] | None = None
        """The (top, bottom) clock faces while the game has clocks; ``None`` otherwise."""

    def set_board(self, board: QWidget) -> None:
        if self.board is not None:
            self.board.setParent(None)
            self.board.deleteLater()
        self.board = board
        board.setParent(self)
        board.show()
        self.updateGeometry()  # a new minimum size
        self._place()

    def set_bar(self, bar: QWidget) -> None:
        if self.bar is not None:
            self.bar.setParent(None)
        self.bar = bar
        bar.setParent(self)
        bar.show()
        self._place()

    def set_clocks(self, clocks: tuple[QWidget, QWidget] | None) -> None:
        """Show the (top, bottom) clock faces by the board, or none."""
        for face in self.clocks or ():
            if clocks is None or face not in clocks:
                face.hide()
        self.clocks = clocks
        for face in clocks or ():
            face.setParent(self)
            face.show()
        self.updateGeometry()
        self._place()

    def _clock_height(self) -> int:
        """The room one clock bar takes, with its gap to the board (0 without clocks)."""
        if self.clocks is None:
            return 0
        return max(face.sizeHint().height() for face in self.clocks) + self.SPACING

    def resizeEvent(self, event: Any) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._place()

    def event(self, event: QEvent) -> bool:
        """A child's size hint changed (``updateGeometry``: the backgammon board's match
        line comes or goes, a new shape): place the board again by it."""
        if event.type() == QEvent.Type.LayoutRequest:
            self._place()
        return super().event(event)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        """Room for the board at its own minimum (what its text needs to stay readable), the
        bar and the clocks: the side panels give way first."""
        smallest = QSize(*MIN_BOARD_AREA)
        if self.board is None:
            return smallest
        board = self.board.minimumSizeHint()
        bar_width = self.bar.sizeHint().width() + self.SPACING if self.bar is not None else 0
        width = board.width() + bar_width
        if self.clocks is not None:
            width = max(width, *(face.minimumSizeHint().width() for face in self.clocks))
        return smallest.expandedTo(QSize(width, board.height() + 2 * self._clock_height()))

    def _place(self) -> None:
        if self.board is None:
            return
        bar_width = self.bar.sizeHint().width() + self.SPACING if self.bar is not None else 0
        clock_height = self._clock_height()
        hint = self.board.sizeHint()
        aspect = hint.width() / hint.height() if hint.isValid() and hint.height() > 0 else 1.0
        width = max(1, self.width() - bar_width)
        height = max(1, self.height() - 2 * clock_height)
        if width / height > aspect:
            width = int(height * aspect)
        else:
            height = int(width / aspect)
        left = (self.width() - width - bar_width) // 2
        top = (self.height() - height) // 2
        if self.bar is not None:
            self.bar.setGeometry(left, top, bar_width - self.SPACING, height)
        self.board.setGeometry(left + bar_width, top, width, height)
        if self.clocks is not None:
            self._place_clocks(left, top, width + bar_width, height)

    def _place_clocks(self, left: int, top: int, width: int, height: int) -> None:
        """The clocks above and below the board, as wide as it and its bar; never narrower
        than a clock's minimum (a small board gets a wider, centred clock)."""
        assert self.clocks is not None
        face_height = self._clock_height() - self.SPACING
        least = max(face.minimumSizeHint().width() for face in self.clocks)
        shown = min(self.width(), max(width, least))
        x = max(0, left - (shown - width) // 2)
        top_face, bottom_face = self.clocks
        top_face.setGeometry(x, top - self._clock_height(), shown, face_height)
        bottom_face.setGeometry(x, top + height + self.SPACING, shown, face_height)


class GameView(QWidget):
    """One game on screen; ``attach(session)`` shows a new game in it."""

    status_changed = Signal(str)
    orientation_changed = Signal(bool)
    """Whether player 0 is now at the top of the board (the eval bar follows it)."""
    setup_finished = Signal(object)
    """Set-up mode ended with "Done": the edited position (a state) to start a game from."""
    why_not_asked = Signal(object)
    """A legal move entered in why-not mode (on the board or in the move box): asked
    about, not played."""
    why_not_mode_changed = Signal(bool)
    resign_requested = Signal()
    """The Resign button: the window asks first (``MainWindow.resign``)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("gameView")
        self.session: GameSession | None = None
        self.board: Any = None
        self._flipped = False
        self._theme: Any = None
        self._viewing: int | None = None
        """The ply shown when looking back through the game; ``None`` at the live position."""
        self._history_length = -1
        self._why_not = False
        """The next move entered is asked about ("why not this move?"), not played."""
        self._focus_left_by_box: QWidget | None = None
        """Where Qt put the move box's focus when the box was disabled (the computer's
        turn); it goes back to the box when the box is enabled, unless the user moved it."""

        # left: the board with the eval bar beside it
        self.board_area = BoardArea()
        self.board_area.setObjectName("boardArea")
        self.board_area.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.clocks = ClockView(self.board_area)
        """The players' clocks, above and below the board in a game with a time control."""
        self.viewing_label = QLabel()
        self.viewing_label.setObjectName("viewingLabel")
        self.viewing_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        # Hidden, it keeps its line: stepping back and forth must not move the board.
        policy = self.viewing_label.sizePolicy()
        policy.setRetainSizeWhenHidden(True)
        self.viewing_label.setSizePolicy(policy)
        self.viewing_label.hide()
        self.why_not_label = QLabel(WHY_NOT_PROMPT)
        self.why_not_label.setObjectName("whyNotPrompt")
        self.why_not_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.why_not_label.setWordWrap(True)
        prompt_font = QFont(self.why_not_label.font())
        prompt_font.setBold(True)
        self.why_not_label.setFont(prompt_font)
        self.why_not_label.hide()

        self.setup_bar = QWidget()
        self.setup_bar.setObjectName("setupBar")
        setup_layout = QHBoxLayout(self.setup_bar)
        setup_layout.setContentsMargins(0, 0, 0, 0)
        self.setup_label = QLabel("Set up the position: click squares to place or remove pieces.")
        self.setup_label.setWordWrap(True)
        self.setup_done = QPushButton("Done")
        self.setup_cancel = QPushButton("Cancel")
        setup_layout.addWidget(self.setup_label, 1)
        setup_layout.addWidget(self.setup_done)
        setup_layout.addWidget(self.setup_cancel)
        self.setup_bar.hide()
        self._edited: Any = None

        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(8, 8, 8, 8)
        left_layout.addWidget(self.board_area, 1)
        left_layout.addWidget(self.viewing_label)
        left_layout.addWidget(self.why_not_label)
        left_layout.addWidget(self.setup_bar)

        # right: players, moves, controls
        self.title = QLabel()
        self.title.setObjectName("gameTitle")
        self.player_labels = (QLabel(), QLabel())
        for label in self.player_labels:
            label.setObjectName("playerLabel")
            label.setWordWrap(True)
            # Two lines kept: "▶ … — thinking…" wraps on the computer's turn, and the move
            # list below must not jump a line at every move.
            label.setMinimumHeight(2 * label.fontMetrics().lineSpacing())
        self.moves = MovePanel()
        self.undo_button = QPushButton("⟲ Undo")
        self.redo_button = QPushButton("Redo ⟳")
        self.flip_button = QPushButton("Flip")
        self.hint_button = QPushButton("Hint")
        self.think_button = QPushButton("Think")
        self.pause_button = QPushButton("Pause")
        self.resign_button = QPushButton("Resign")
        self.roll_button = QPushButton("Roll dice")
        for button, tip in (
            (self.undo_button, "Take back (Ctrl+Z)"),
            (self.redo_button, "Redo (Ctrl+Y)"),
            (self.flip_button, "Flip the board (F)"),
            (self.hint_button, "Show the engine's best move (H)"),
            (self.think_button, "Stop the engine and play now / step the computer (Space)"),
            (self.pause_button, "Pause or resume the game: a computer side and the clocks (P)"),
            (self.resign_button, "Resign the game"),
            (self.roll_button, "Roll the dice for me"),
        ):
            button.setToolTip(tip)
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        controls = QHBoxLayout()
        for button in (self.undo_button, self.redo_button, self.flip_button, self.hint_button):
            controls.addWidget(button)
        controls2 = QHBoxLayout()
        for button in (self.think_button, self.pause_button, self.roll_button, self.resign_button):
            controls2.addWidget(button)
        self.result_label = QLabel()
        self.result_label.setObjectName("resultLabel")
        self.result_label.setWordWrap(True)
        self.result_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.result_label.hide()

        right = QFrame()
        right.setObjectName("sideColumn")
        right.setMinimumWidth(260)
        right.setMaximumWidth(320)
        right.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Expanding)
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(8, 8, 8, 8)
        right_layout.addWidget(self.title)
        right_layout.addWidget(self.player_labels[1])
        right_layout.addWidget(self.moves, 1)
        right_layout.addWidget(self.player_labels[0])
        right_layout.addWidget(self.result_label)
        right_layout.addLayout(controls)
        right_layout.addLayout(controls2)

        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(left)
        splitter.addWidget(right)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 1)
        splitter.setChildrenCollapsible(False)
        self.side_column = right
        """The players, moves and controls: beside the board, or a tab of the engine dock in
        a small window (``take_side_column`` / ``restore_side_column``, the window decides)."""
        self._splitter = splitter
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(splitter)

        self.moves.ply_selected.connect(self._on_ply_selected)
        self.moves.move_entered.connect(self._on_move_entered)
        self.undo_button.clicked.connect(lambda: self.session and self.session.undo())
        self.redo_button.clicked.connect(lambda: self.session and self.session.redo())
        self.flip_button.clicked.connect(self.flip)
        self.hint_button.clicked.connect(lambda: self.session and self.session.request_hint())
        self.think_button.clicked.connect(lambda: self.session and self.session.think_or_stop())
        self.pause_button.clicked.connect(self.toggle_pause)
        self.resign_button.clicked.connect(self.resign_requested)
        self.roll_button.clicked.connect(lambda: self.session and self.session.roll_dice())
        self.setup_done.clicked.connect(lambda: self.end_setup(accept=True))
        self.setup_cancel.clicked.connect(lambda: self.end_setup(accept=False))

    # ------------------------------------------------------------------ set-up
    def attach(self, session: GameSession) -> None:
        """Show ``session`` (a new game): a fresh board of its kind."""
        self.set_why_not_mode(False)
        self.session = session
        self._viewing = None
        self._history_length = -1
        self.board = board_for(session.game)()
        self.board.setObjectName("board")
        if self._theme is not None:
            self.board.set_theme(self._theme)
        self._orient(session)
        self.board_area.set_board(self.board)
        self.board.move_requested.connect(self._on_board_move)
        self.board.move_texts_changed.connect(self._on_move_texts_changed)
        dice_entered = getattr(self.board, "dice_entered", None)
        if dice_entered is not None:
            dice_entered.connect(self._on_dice_entered)
        if self.can_set_up():
            self.board.position_edited.connect(self._on_position_edited)
            self.board.edit_problem_changed.connect(self._on_edit_problem)
        self.setup_bar.hide()
        self.moves.clear_entry()  # the last game's typed text and its error are not this game's
        session.state_changed.connect(self.refresh)
        session.hint_found.connect(self._on_hint)
        self.clocks.attach(session)
        self._place_clocks()
        names = player_names(session.game_class)
        self.title.setText(f"<b>{game_title(session.game)}</b>")
        self.moves.moves.set_players(names)
        self.refresh()
        # A new game starts with the board focused, where single keys (H, P, F, Space) are
        # the window's shortcuts: the last game's board is gone, and Qt would hand its focus
        # to the next widget in the chain, the move box, which takes them as text.
        self.board.setFocus(Qt.FocusReason.OtherFocusReason)

    def set_eval_bar(self, widget: QWidget) -> None:
        """Put the eval bar beside the board."""
        self.board_area.set_bar(widget)

    def set_theme(self, theme: Any) -> None:
        self._theme = theme
        self.clocks.set_theme(theme)
        if self.board is not None:
            self.board.set_theme(theme)

    def _place_clocks(self) -> None:
        """The clocks by the board: the bottom player's below it, the other above (none in
        a game without a clock)."""
        self.clocks.set_bottom_player(self.bottom_player())
        shown = self.clocks.is_shown()
        self.board_area.set_clocks((self.clocks.top(), self.clocks.bottom()) if shown else None)
        self.clocks.refresh()

    def _orient(self, session: GameSession) -> None:
        """The human's side at the bottom (the first player's when both or neither are)."""
        humans = [player for player in (0, 1) if not session.players[player].is_computer]
        bottom = humans[0] if len(humans) == 1 else 0
        orient = getattr(self.board, "orient_for", None)
        if orient is not None:
            orient(bottom)
        else:  # a board without orient_for: flipped puts the first player at the bottom
            self.board.set_flipped(bottom == 0)
        self._flipped = bool(getattr(self.board, "is_flipped", lambda: False)())
        self.orientation_changed.emit(self.bottom_player() != 0)

    def bottom_player(self) -> int:
        """The player whose side is at the bottom of the board now (0 on boards without sides)."""
        if self.board is None:
            return 0
        fixed = getattr(self.board, "BOTTOM_PLAYER", "none")
        if fixed is None:
            return 0
        if fixed == "none":  # a board without BOTTOM_PLAYER: flipped shows the first player below
            return 0 if self._flipped else 1
        return int(fixed) if not self._flipped else 1 - int(fixed)

    # ------------------------------------------------------------------ layout
    def has_side_column(self) -> bool:
        """Whether the players, moves and controls stand beside the board."""
        return self._splitter.indexOf(self.side_column) >= 0

    def restore_side_column(self) -> None:
        """The side column back beside the board (after a tab of the engine dock held it)."""
        if not self.has_side_column():
            self._splitter.addWidget(self.side_column)
            self._splitter.setStretchFactor(1, 1)
            self.side_column.show()

    # ------------------------------------------------------------------ set-up mode
    def can_set_up(self) -> bool:
        """Whether this game's board has a set-up (edit) mode."""
        return self.board is not None and bool(getattr(self.board, "SUPPORTS_EDIT", False))

    def is_setting_up(self) -> bool:
        return self.setup_bar.isVisible() or bool(self.board is not None and getattr(self.board, "is_edit_mode", lambda: False)())

    def begin_setup(self) -> bool:
        """Place pieces by clicking (the game is paused meanwhile); "Done" starts a game
        from the position."""
        if not self.can_set_up() or self.session is None:
            return False
        self.show_live()
        self.session.set_paused(True)
        self._edited = None
        self.board.set_interactive(False)
        self.board.set_edit_mode(True)
        self.setup_label.setText("Set up the position: click squares to place or remove pieces, then Done.")
        self.setup_bar.show()
        return True

    def end_setup(self, accept: bool) -> None:
        if self.board is None or not self.setup_bar.isVisible():
            return
        problem = self.board.edit_problem() if hasattr(self.board, "edit_problem") else ""
        if accept and problem:
            self.setup_label.setText(f"Not a valid position yet: {problem}")
            return
        edited = self._edited
        self.board.set_edit_mode(False)
        self.setup_bar.hide()
        self._edited = None
        if accept and edited is not None:
            self.setup_finished.emit(edited)
        else:
            self.refresh()

    def _on_position_edited(self, state: Any) -> None:
        self._edited = state
        self.setup_label.setText("Valid position: press Done to play from it.")

    def _on_edit_problem(self, problem: str) -> None:
        if problem:
            self.setup_label.setText(f"Not valid yet: {problem}")

    # ------------------------------------------------------------------ actions
    def flip(self) -> None:
        self._flipped = not self._flipped
        if self.board is not None:
            self.board.set_flipped(self._flipped)
        self._place_clocks()
        self.orientation_changed.emit(self.bottom_player() != 0)

    def toggle_pause(self) -> None:
        if self.session is not None:
            self.session.set_paused(not self.session.paused)

    def _enable_move_box(self, enabled: bool) -> None:
        """Enable or disable the move box, keeping a typist's focus across the computer's
        turn: a disabled box loses the focus, and the next typed move would otherwise go to
        the single-key shortcuts (the f of Nf3 flips the board)."""
        box = self.moves.box
        if enabled == box.isEnabled():
            return
        had_focus = box.hasFocus()
        box.setEnabled(enabled)
        if not enabled:
            self._focus_left_by_box = QApplication.focusWidget() if had_focus else None
            if had_focus and self._focus_left_by_box is None:
                self._focus_left_by_box = self  # nothing took the focus: still the box's
            return
        left, self._focus_left_by_box = self._focus_left_by_box, None
        if left is not None and QApplication.focusWidget() in (left, None):
            box.setFocus(Qt.FocusReason.OtherFocusReason)

    def leave_move_box(self) -> None:
        """The focus goes from the move box to the board (or the list), where single keys
        are shortcuts again."""
        target = self.board if self.board is not None else self.moves.moves
        target.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def show_live(self) -> None:
        """Back to the current position (after looking back)."""
        if self._viewing is not None:
            self._viewing = None
            self.moves.moves.show_ply(self.moves.moves.total_plies)
            self.refresh()

    def shown_ply(self) -> int | None:
        """The ply shown when looking back through the game; ``None`` at the live position."""
        return self._viewing

    def show_best_move(self, move: Any) -> None:
        """The engine's current best move as an arrow/highlight (live while it thinks)."""
        if self.board is not None and self._viewing is None:
            self.board.set_best_move(move)

    # ------------------------------------------------------------------ rendering
    def move_names(self) -> list[str]:
        """The game's moves as the board labels them (backgammon: in the numbering its point
        numbers show), for everything shown beside the board."""
        session = self.session
        if session is None or self.board is None:
            return []
        history = session.history
        return self.board.history_texts(
            session.state_at(0), [entry.move for entry in history], [entry.name for entry in history]
        )

    def _show_move_names(self) -> None:
        """Fill the move list (again after the board turned: its numbering may have changed)."""
        session = self.session
        if session is None:
            return
        state = session.state
        roller = state.to_move() if session.history and session.history[-1].mover == CHANCE else None
        first_number = session.state_at(0).move_number()
        self.moves.moves.set_history([entry.mover for entry in session.history], self.move_names(), roller, first_number)

    def _on_move_texts_changed(self) -> None:
        """The board turned: the moves are named again, the move looked at stays shown."""
        self._show_move_names()
        if self._viewing is not None:
            self.moves.moves.show_ply(self._viewing)

    def _show_ended(self, session: GameSession) -> None:
        """A board that says whose turn it is (backgammon's "to double or roll") is told
        when a game ended off the board (a resignation, a fallen flag): the winner's label
        says so, nobody is asked to move."""
        set_ended = getattr(self.board, "set_ended", None)
        if set_ended is None:
            return
        outcome = session.outcome
        winner = outcome.result.winner if outcome is not None and session.is_over else None
        if winner is None or session.state.is_terminal():
            set_ended(None)
            return
        assert outcome is not None
        set_ended(winner, f"wins ({outcome.reason})" if outcome.reason else "wins")

    def refresh(self) -> None:
        session = self.session
        if session is None or self.board is None:
            return
        history = session.history
        if len(history) != self._history_length:
            self._history_length = len(history)
            self._show_move_names()
            self._viewing = None
            self.board.set_best_move(None)
        state = session.state
        self.clocks.show_ply(self._viewing)
        if self.setup_bar.isVisible():
            pass  # the board shows the position being set up
        elif self._viewing is None:
            self.board.set_state(state)
            self.board.set_last_move(session.last_move())
            self.board.set_interactive(session.can_human_move())
            self._show_ended(session)
            self.viewing_label.hide()
        else:
            shown = session.state_at(self._viewing)
            last = next((entry.move for entry in reversed(history[: self._viewing]) if entry.mover != CHANCE), None)
            self.board.set_state(shown)
            self.board.set_last_move(last)
            self.board.set_interactive(False)
            self.viewing_label.setText(self._viewing_text(self._viewing))
            self.viewing_label.show()
        names = player_names(session.game_class)
        mover = state.to_move()
        for player, label in enumerate(self.player_labels):
            marker = "▶ " if (mover == player and not session.is_over) else ""
            thinking = " — thinking…" if (session.is_thinking and mover == player) else ""
            if thinking and session.is_finding_hint():
                thinking = " — the engine looks for a hint…"
            label.setText(f"{marker}<b>{names[player]}</b>: {side_text(session, player)}{thinking}")
        self.undo_button.setEnabled(session.can_undo())
        self.redo_button.setEnabled(session.can_redo())
        self.hint_button.setEnabled(not session.is_over and not session.is_computer_turn() and mover != CHANCE)
        if session.is_finding_hint():  # the engine stops and shows its hint; it plays nothing
            self.think_button.setText("Stop")
        else:
            self.think_button.setText("Move now" if session.is_thinking else ("Step" if session.is_computer_turn() else "Think"))
        self.think_button.setEnabled(not session.is_over)
        has_computer = any(side.is_computer for side in session.players)
        self.pause_button.setVisible(has_computer or session.clock is not None)  # pausing stops the clocks
        self.pause_button.setText("Play" if session.paused else "Pause")
        self.pause_button.setEnabled(not session.is_over)  # nothing to pause in a finished game
        self.resign_button.setEnabled(not session.is_over)
        self.roll_button.setVisible(session.waits_for_dice())
        dice_entry = getattr(self.board, "set_dice_entry", None)
        if dice_entry is not None:  # backgammon: the player enters the dice on the board
            dice_entry(session.waits_for_dice() and self._viewing is None)
        if session.is_over:
            self.result_label.setText(f"<b>{session.status_text()}</b>")
            self.result_label.show()
        else:
            self.result_label.hide()
        example = ""
        if session.can_human_move():
            moves = state.legal_moves() if mover != CHANCE else [o for o, _ in state.chance_outcomes()]
            if moves:
                example = state.move_name(moves[len(moves) // 2])
        self.moves.set_example(example)
        self._enable_move_box(session.can_human_move())
        if self._why_not and not self.can_ask_why_not():
            self.set_why_not_mode(False)  # the engine took the turn, or the game ended
        self.status_changed.emit(session.status_text())

    def _viewing_text(self, ply: int) -> str:
        """Where the board is when looking back, in the move list's numbering."""
        sheet = self.moves.moves
        number = sheet.move_number_of(ply)
        if number == 0:
            return "Looking at the start position — press End to go back"
        offset = sheet.first_number - 1  # rows are numbered from the start position's move number
        return f"Looking at move {offset + number} of {offset + sheet.move_count} — press End to go back"

    # ------------------------------------------------------------------ why not
    @property
    def why_not_mode(self) -> bool:
        return self._why_not

    def can_ask_why_not(self) -> bool:
        """Whether a move may be asked about now: the live position, a player to move who
        may move now, and no engine search of the game's running (a computer's move is
        never disturbed; a hint finishes first)."""
        session = self.session
        return (
            session is not None
            and not self.setup_bar.isVisible()
            and not session.is_thinking
            and session.can_human_move()
            and session.state.to_move() != CHANCE
        )

    def set_why_not_mode(self, on: bool) -> bool:
        """Enter (or leave) why-not mode: the next move entered is asked about, not played.
        Returns the mode now (entering is refused while ``can_ask_why_not`` is false)."""
        on = on and self.can_ask_why_not()
        if on and self._viewing is not None:
            self.show_live()
        if on != self._why_not:
            self._why_not = on
            self.why_not_label.setVisible(on)
            self.why_not_mode_changed.emit(on)
        return on

    def _ask_why_not(self, move: Any) -> None:
        self.set_why_not_mode(False)
        self.refresh()  # the board shows the position again, the move not played
        self.why_not_asked.emit(move)

    # ------------------------------------------------------------------ intents
    def _on_board_move(self, move: Any) -> None:
        if self.session is not None and self._viewing is None:
            if self._why_not:
                self._ask_why_not(move)
                return
            self.session.play_move(move)

    def _on_move_entered(self, text: str) -> None:
        if self.session is None:
            return
        if self._viewing is not None:
            self.show_live()
        if self._why_not:
            state = self.session.state
            try:
                move = state.parse_move(text)
            except ValueError as problem:
                self.moves.show_error(str(problem))
                return
            if move not in state.legal_moves():
                self.moves.show_error("That move is not legal here")
                return
            self.moves.accept_move()
            self._ask_why_not(move)
            return
        error = self.session.play_text(text)
        if error is None:
            self.moves.accept_move()
        else:
            self.moves.show_error(error)

    def _on_ply_selected(self, ply: int) -> None:
        session = self.session
        if session is None:
            return
        self._viewing = None if ply >= len(session.history) else ply
        self.refresh()

    def _on_dice_entered(self, roll: Any) -> None:
        if self.session is not None and self._viewing is None:
            self.session.roll_dice(roll)

    def _on_hint(self, move: Any) -> None:
        self.show_best_move(move)
