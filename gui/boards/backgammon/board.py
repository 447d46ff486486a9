"""The backgammon board: drawn with QPainter, a turn entered checker by checker.

What a GNU Backgammon user expects to see: 24 points, the bar, a bear-off tray per player
on the home-board side, checkers stacked (a number on stacks taller than five), point
numbers from the viewpoint of the player at the bottom (X, as gnubg draws it, or O when
flipped), both pip counts, the dice of the player on roll and the doubling cube at its
owner's side (in the middle when centred, showing 64).

Entering a turn: click a checker (or the bar), the points it can reach with the dice left
are highlighted, click one of them (or the tray, to bear off), or drag the checker there.
A checker may go as far as the remaining dice take it in one click. Right-click, Backspace
or the small undo button takes the last step back; the roll beside the player's name reads
the steps so far in gnubg's notation. When the steps make a whole legal play the board emits
``move_requested(play)`` with that play, taken from ``state.legal_moves()``
(``games.backgammon.turn`` decides what may be clicked: the rules live in games/; the
board renders and emits).

Everything else a turn can ask of the player appears as buttons on the board, in the half
of the player who decides: "Double"/"Roll" and "Take"/"Drop" emit the cube action, "No
move" the forced empty play. Dice are the app's: at a chance node the board shows nothing
to click unless the app turned on dice entry (``set_dice_entry``, over-the-board play);
then "Enter dice" (or a click on the dice area) opens a picker and the board emits
``dice_entered(roll)``, a chance outcome of the state.

The board never plays a move itself; the session does and calls ``set_state``. When the
new state continues the shown game with a play the board did not ask for (the opponent's),
its checkers slide there hop by hop.
The parts, each in its own module of this package: ``layout`` (the proportions and where
everything is), ``colours`` (the palettes), ``painters`` (how each thing is drawn),
``turn_entry`` (the play being entered: the checker picked up, a drag, the steps),
``dice_picker`` (the panel that enters a roll) and ``motion`` (the opponent's play sliding
in). This module is the widget: the board API, what is shown when, and the mouse and key
events (``games.backgammon.turn.TurnBuilder`` holds the rules of a turn entered step by
step).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFontMetricsF, QKeyEvent, QMouseEvent, QPainter
from PySide6.QtWidgets import QWidget

from games.backgammon.board import BAR, DIE_FACES, NO_MOVE, OFF, Board, Hop, Play, O, X
from games.backgammon.gnubg_ids import CENTRED
from games.backgammon.notation import DOUBLE, DROP, MOVER, NO_DOUBLE, OPPONENT, TAKE, format_play, roll_name
from games.backgammon.phase import CHANCE_PHASES
from games.backgammon.state import (
    CHECKER_PLAY,
    CUBE_DECISION,
    GAME_OVER,
    OPENING,
    RESULT_NAMES,
    TAKE_DECISION,
    BackgammonState,
)
from games.base import GameState, Player
from gui.boards.backgammon import painters
from gui.boards.backgammon.colours import BoardColours
from gui.boards.backgammon.dice_picker import DicePicker, RollWanted
from gui.boards.backgammon.layout import (
    BOARD_WIDTH,
    CENTRED_CUBE_FACE,
    MINIMUM_UNIT_PIXELS,
    PREFERRED_UNIT_PIXELS,
    BoardGeometry,
    BoardView,
    Button,
    board_height,
    button_font,
    cube_font,
    cube_rect,
    middle_row,
)
from gui.boards.backgammon.match_line import MatchLine
from gui.boards.backgammon.motion import PlaySlide, continues_without_play, last_play, slide_hops
from gui.boards.backgammon.turn_entry import TurnEntry
from gui.boards.base import BoardWidget
from gui.theme import Theme

UNDO_KEY = "undo"
"""The key of the small button that takes the last step back."""
ENTER_DICE_KEY = "enter dice"
"""The key of the button that opens the dice picker."""
CONFIRM_KEY = "confirm"
"""The key of the "Done" button that confirms a finished turn (without auto-confirm)."""
NEXT_GAME_KEY = "next game"
"""The key of the "Next game" button between two games of a match."""
BUTTON_TEXT = {
    DOUBLE: "Double",
    NO_DOUBLE: "Roll",
    TAKE: "Take",
    DROP: "Drop",
    ENTER_DICE_KEY: "Enter dice",
    CONFIRM_KEY: "Done",
    NEXT_GAME_KEY: "Next game",
}
"""The word on each button."""
NO_MOVE_TEXT = "No move"
"""The word on the button that plays the forced empty play."""
DRAG_THRESHOLD = 0.25
"""How far (in units) the pointer moves with the button down before a press becomes a drag."""
BEST_MOVE_ARROW = 0.14
"""Width of the engine's move arrows, in units."""
LAST_MOVE_ARROW = 0.07
"""Width of the last move's arrows, in units (thinner: it is history, not advice)."""
LAST_MOVE_ALPHA = 150
"""Opacity of the last move's arrows (of 255)."""


class BackgammonBoard(BoardWidget):
    """The backgammon board widget (see module doc for what it shows and emits).

    Signals, besides the board API's ``move_requested`` (a play, ``()`` for "no move", or a
    cube action ``"double"``/``"roll"``/``"take"``/``"drop"``):
      * ``dice_entered(object)``: with dice entry on, the roll the player entered, as the
        state's chance outcome (``(high, low)``; at the opening roll ``(O's die, X's die)``);
      * ``partial_turn_changed(object)``: the hops entered so far in this turn (a tuple);
      * ``next_game_requested()``: the "Next game" button between the games of a match
        (shown while the app says a next game may start: ``set_next_game``).
    Positions are set up by pasting a gnubg id, so there is no edit mode
    (``set_edit_mode(True)`` refuses, as on every board without one).
    """

    GAME = "backgammon"
    _state: BackgammonState | None  # set_state refuses any other game's state
    BOTTOM_PLAYER = X
    """Not flipped, X is at the bottom, as gnubg draws it."""

    dice_entered = Signal(object)
    partial_turn_changed = Signal(object)
    next_game_requested = Signal()

    def __init__(self, theme: Theme | None = None, parent: QWidget | None = None) -> None:
        super().__init__(theme, parent)
        self._colours = BoardColours.for_theme(self._theme)
        self._auto_confirm = True
        self._dice_entry = False
        self._player_names: tuple[str, str] = BackgammonState.PLAYER_NAMES
        self._entry: TurnEntry | None = None
        """The play being entered (only while the shown state is at a checker play)."""
        self._picker = DicePicker()
        self._background = painters.BackgroundCache()
        self._sprites = painters.CheckerSprites()
        self._slide = PlaySlide(self)
        self._slide.animation.valueChanged.connect(self.update)
        self._slide.animation.finished.connect(self._stop_motion)
        self._requested: tuple[Player, Play] | None = None
        """The play this board last asked for: it is already on the board, never slid."""
        self._match_line: MatchLine | None = None
        """The app's word on the match (between games, at its end); ``None``: the shown
        position's own (``MatchLine.from_state``)."""
        self._next_game = False
        self._ended: tuple[Player, str] | None = None
        """A game the rules did not end (a resignation, a fallen flag): its winner and what
        the winner's label says; the board waits for nobody."""
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)

    # ================================================================ board API
    def set_state(self, state: GameState | None) -> None:
        """Show ``state`` (the board keeps its own copy); a turn being entered is dropped.

        When ``state`` continues the shown one with a checker play this board did not ask
        for (the opponent's), its checkers slide there hop by hop."""
        previous = self._state
        had_band = self._has_match_band()
        sliding_on = continues_without_play(previous, state) and self._slide.is_running()
        if not sliding_on:  # a roll or a cube action after the play lets it finish sliding
            self._stop_motion()
        super().set_state(state)
        shown = self._state
        self._entry = TurnEntry(shown) if isinstance(shown, BackgammonState) and shown.phase == CHECKER_PLAY else None
        self._picker.close()
        if not sliding_on and isinstance(previous, BackgammonState) and isinstance(shown, BackgammonState):
            self._start_motion(previous, shown)
        self._requested = None
        if self._has_match_band() != had_band:
            self.updateGeometry()  # the match line's strip: a taller board
        self.update()

    def is_animating(self) -> bool:
        """Whether an opponent's play is being shown sliding."""
        return self._slide.is_running()

    def _start_motion(self, previous: BackgammonState, shown: BackgammonState) -> None:
        if self.animation_ms <= 0 or not self.isVisible():
            return
        hops = slide_hops(previous, shown, self._requested)
        if hops:
            self._slide.start(hops, self.animation_ms)

    def _stop_motion(self) -> None:
        if self._slide.stop():
            self.update()

    def reset_interaction(self) -> None:
        """Put a picked-up checker down (the steps entered stay until the next state)."""
        if self._entry is not None:
            self._entry.put_down()

    def set_theme(self, theme: Theme) -> None:
        self._colours = BoardColours.for_theme(theme)
        super().set_theme(theme)

    # ============================================================ backgammon API
    def side_colors(self) -> tuple[QColor, QColor]:
        """Players O's and X's checker colours (the eval bar shows each side in its colour)."""
        return QColor(self._colours.checkers[0]), QColor(self._colours.checkers[1])

    def set_dice_entry(self, enabled: bool) -> None:
        """Over-the-board play: at a chance node the player enters the roll (an "Enter
        dice" button and a click on the dice area open a picker; ``dice_entered`` carries
        the roll). The app turns it on when it wants the next roll from the player."""
        self._dice_entry = bool(enabled)
        if not enabled:
            self._picker.close()
        self.update()

    def set_match_line(self, line: MatchLine | None) -> None:
        """What the match line says, from the app that keeps the match (the score after
        a finished game, the match's winner); ``None``: what the shown position says."""
        had_band = self._has_match_band()
        self._match_line = line
        if self._has_match_band() != had_band:
            self.updateGeometry()
        self.update()

    def match_line(self) -> MatchLine | None:
        """The match line shown (``None`` in a money game)."""
        if self._match_line is not None:
            return self._match_line
        return MatchLine.from_state(self._state) if isinstance(self._state, BackgammonState) else None

    def match_text(self) -> str:
        """The match line's text as drawn in full ("" in a money game)."""
        line = self.match_line()
        return "" if line is None else line.text(self._player_names)

    def is_cube_live(self) -> bool:
        """Whether somebody may still turn the cube in this game: not in the Crawford game,
        nor a cube that already wins the match for whoever could turn it (the board draws
        a dead cube greyed out)."""
        state = self._state
        return isinstance(state, BackgammonState) and any(state.can_double(player) for player in (O, X))

    def set_ended(self, winner: Player | None, text: str = "") -> None:
        """The game ended off the board (a resignation, a flag): ``winner``'s label says
        ``text`` and no player is asked to play, double or roll; ``None``: it goes on."""
        ended = None if winner is None else (winner, text)
        if ended != self._ended:
            self._ended = ended
            self.update()

    def set_next_game(self, enabled: bool) -> None:
        """Between the games of a match: show the "Next game" button (it emits
        ``next_game_requested``)."""
        self._next_game = bool(enabled)
        self.update()

    def open_dice_picker(self) -> bool:
        """Open the dice picker now (dice entry on, state at a chance node); whether it opened."""
        if not (self._dice_entry and self._state is not None and self._state.phase in CHANCE_PHASES):
            return False
        self._picker.open()
        self.update()
        return True

    def is_dice_picker_open(self) -> bool:
        return self._picker.is_open()

    def set_auto_confirm(self, enabled: bool) -> None:
        """True (default): a finished turn is emitted at once. False: a "Done" button (or a
        click on the dice) confirms it, as in gnubg without auto-confirm."""
        self._auto_confirm = bool(enabled)
        self.update()

    def set_player_names(self, names: Sequence[str] | None) -> None:
        """Names shown beside the pip counts for O and X (default: "O" and "X")."""
        self._player_names = (names[0], names[1]) if names else BackgammonState.PLAYER_NAMES
        self.update()

    def undo_step(self) -> bool:
        """Take back the last checker step of the turn being entered; whether there was one."""
        if self._entry is None or not self._entry.undo_step():
            return False
        self.partial_turn_changed.emit(self._entry.hops)
        self.update()
        return True

    def can_undo_step(self) -> bool:
        return self._entry is not None and bool(self._entry.builder.steps)

    def partial_turn(self) -> tuple[Hop, ...]:
        """The hops entered so far in this turn, in the mover's numbering."""
        return self._entry.hops if self._entry is not None else ()

    def no_move_play(self) -> Play | None:
        """The forced empty play when the dice cannot be played at all (so the app can say
        so and play it), else ``None``."""
        if self._entry is not None and self._entry.builder.is_forced_no_move():
            return NO_MOVE
        return None

    def cube_actions(self) -> list[str]:
        """The cube actions legal now (``[]`` outside a cube or take decision)."""
        if self._state is not None and self._state.phase in (CUBE_DECISION, TAKE_DECISION):
            return list(self.legal_moves())
        return []

    def selected_source(self) -> int | None:
        """The point (mover's numbering, 25 = bar) of the checker picked up, if any."""
        return self._entry.selected if self._entry is not None else None

    def targets(self) -> list[int]:
        """Where the picked-up checker may go (mover's numbering, 0 = off)."""
        return self._entry.targets() if self._entry is not None else []

    # ------------------------------------------------------------- move text
    def move_text(self, state: GameState, move: Any) -> str:
        """A checker play written in the numbering the board's labels show (the bottom
        player's), so "1/10" beside the board is the checker that went from the point
        labelled 1 to the one labelled 10, whoever moved it; rolls and cube actions as the
        game names them."""
        if (
            isinstance(state, BackgammonState)
            and state.phase == CHECKER_PLAY
            and isinstance(move, tuple)
            and all(isinstance(hop, tuple) for hop in move)
        ):
            mover = state.player
            numbering = MOVER if mover == self.bottom_player() else OPPONENT
            return format_play(state.boards[mover], state.boards[1 - mover], move, numbering)
        return state.move_name(move)

    def history_texts(self, start: GameState, moves: Sequence[Any], names: Sequence[str] | None = None) -> list[str]:
        """The game's moves renamed in the board's numbering (the game's own ``names`` are in
        each mover's, so they are not used)."""
        return self.line_texts(start, moves)

    # -------------------------------------------------- where things are (widget coords)
    def bottom_player(self) -> Player:
        return O if self._flipped else X

    def point_of(self, player: Player, point: int) -> QPointF:
        """Same as ``point_position`` (the grid boards' name for "where is it")."""
        return self.point_position(player, point)

    def point_position(self, player: Player, point: int) -> QPointF:
        """The centre of ``point`` in ``player``'s numbering (1..24; 25 = that player's bar
        checkers; 0 = that player's bear-off tray): where a click picks or drops there."""
        return self._view().point_position(player, point)

    def button_position(self, key: Any) -> QPointF | None:
        """Centre of the on-board button for ``key`` (a cube action, ``NO_MOVE``,
        ``UNDO_KEY``, ``ENTER_DICE_KEY``, ``CONFIRM_KEY``), or ``None`` when not shown."""
        for button in self._buttons(self._geometry()):
            if button.key == key and type(button.key) is type(key):
                return button.rect.center()
        return None

    def dice_rects(self) -> list[QRectF]:
        """Where the dice of the roll being played are drawn (none outside checker play)."""
        return self._dice_rects(self._geometry())

    def dice_position(self) -> QPointF:
        """The centre of the dice area of the player on roll."""
        return self._geometry().half_centre(self._dice_on_right())

    def picker_die_position(self, row: int, face: int) -> QPointF | None:
        """Centre of die ``face`` (1..6) in picker row ``row`` (0 or 1), when it is open."""
        if not self._picker.is_open():
            return None
        return self._picker.die_position(self._geometry(), self._roll_wanted(), row, face)

    # ================================================================= sizing
    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        height = board_height(self._has_match_band())
        return QSize(round(BOARD_WIDTH * PREFERRED_UNIT_PIXELS), round(height * PREFERRED_UNIT_PIXELS))

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        height = board_height(self._has_match_band())
        return QSize(round(BOARD_WIDTH * MINIMUM_UNIT_PIXELS), round(height * MINIMUM_UNIT_PIXELS))

    def hasHeightForWidth(self) -> bool:  # noqa: N802
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802
        return round(width * board_height(self._has_match_band()) / BOARD_WIDTH)

    def _has_match_band(self) -> bool:
        """A match is shown: the board keeps a strip above it for the match line."""
        return self.match_line() is not None

    def _geometry(self) -> BoardGeometry:
        return BoardGeometry(self.width(), self.height(), match_band=self._has_match_band())

    def _view(self, geometry: BoardGeometry | None = None) -> BoardView:
        """The geometry with the bottom player's side at the bottom."""
        return BoardView(geometry or self._geometry(), self.bottom_player())

    # ============================================================ what is shown
    def _boards(self) -> tuple[Board, Board]:
        """O's and X's boards as drawn: with the steps of the turn being entered."""
        if self._slide.is_running():
            return self._slide.frame()[2]
        if self._entry is None:
            assert self._state is not None
            return self._state.boards[O], self._state.boards[X]
        return self._entry.boards()

    @property
    def _shown(self) -> BackgammonState:
        """The shown state, for the code that runs only while one is shown (painting the
        pieces, the status lines, the picker): a board without a state paints only its frame."""
        assert self._state is not None, "the backgammon board has no state to show"
        return self._state

    def _decider(self) -> Player | None:
        """The player whose decision the board waits for (cube or checkers)."""
        if self._ended is not None:
            return None
        phase = self._shown.phase
        if phase in (CHECKER_PLAY, CUBE_DECISION):
            return self._shown.player
        if phase == TAKE_DECISION:
            return 1 - self._shown.player
        return None

    def _dice_on_right(self) -> bool:
        """The dice and buttons sit in the right half for the bottom player, as in gnubg."""
        if self._state is None:
            return True
        phase = self._state.phase
        if phase in (OPENING, GAME_OVER):
            return True
        if phase == TAKE_DECISION:
            return 1 - self._state.player == self.bottom_player()
        return self._state.player == self.bottom_player()

    def _accepts_clicks(self) -> bool:
        return self.accepts_moves() and self._state is not None and self._state.phase != GAME_OVER

    def _roll_wanted(self) -> RollWanted:
        """The roll the dice picker asks for."""
        state = self._shown
        return RollWanted(opening=state.phase == OPENING, names=self._player_names, roller=state.player)

    def _cube_face(self) -> int:
        """The number on the cube: 64 while centred, the value offered during a take decision."""
        state = self._shown
        if state.phase == TAKE_DECISION:
            return state.cube_value * 2
        return CENTRED_CUBE_FACE if state.cube_owner == CENTRED else state.cube_value

    def _cube_rect(self, geometry: BoardGeometry) -> QRectF:
        """Where the cube is: centred on the left side, or at its owner's end; an offered
        cube sits in the middle of the half opposite the decision buttons."""
        state = self._shown
        face = self._cube_face()
        text_width = QFontMetricsF(cube_font(geometry.unit, face)).horizontalAdvance(str(face))
        offered_right = not self._dice_on_right() if state.phase == TAKE_DECISION else None
        owner_top = None if state.cube_owner == CENTRED else state.cube_owner != self.bottom_player()
        return cube_rect(geometry, text_width, offered_right, owner_top)

    def _status_text(self, player: Player) -> str:
        """What ``player`` is to do (beside their name), or the result when the game is over."""
        state = self._shown
        phase = state.phase
        if self._ended is not None:
            return self._ended[1] if player == self._ended[0] else ""
        if phase == GAME_OVER:
            if player != state.game_winner:
                return ""
            multiplier = state.points // state.cube_value if not state.dropped else 1
            what = "wins (cube dropped)" if state.dropped else f"wins {RESULT_NAMES.get(multiplier, 'the game')}"
            plural = "s" if state.points != 1 else ""
            return f"{what}: {state.points} point{plural}"
        if phase == CHECKER_PLAY:
            builder = self._entry.builder if self._entry is not None else None
            if builder is not None and builder.is_forced_no_move():
                return f"rolled {roll_name(state.dice)}: no move"
            if builder is not None and builder.steps:
                entered = self.move_text(state, builder.hops)
                return f"to play {roll_name(state.dice)}:  {entered}"
            return f"to play {roll_name(state.dice)}"
        if phase == CUBE_DECISION:
            return "to double or roll"
        if phase == TAKE_DECISION:
            return f"doubled to {state.cube_value * 2}: take or drop?"
        return ""

    # ================================================= the middle row: dice and buttons
    def _button_keys(self) -> list[Any]:
        """The buttons the board shows now (see module doc), the undo button aside."""
        state = self._state
        if self._picker.is_open() or state is None:
            return []
        if self._next_game:
            return [NEXT_GAME_KEY]
        if state.phase in CHANCE_PHASES:
            return [ENTER_DICE_KEY] if self._dice_entry else []
        if not self._accepts_clicks():
            return []
        if state.phase == CUBE_DECISION:
            return [DOUBLE, NO_DOUBLE]
        if state.phase == TAKE_DECISION:
            return [TAKE, DROP]
        if state.phase == CHECKER_PLAY and self._entry is not None:
            if self._entry.builder.is_forced_no_move():
                return [NO_MOVE]
            if self._entry.builder.is_complete() and not self._auto_confirm:
                return [CONFIRM_KEY]
        return []

    def _dice_values(self) -> list[int]:
        assert self._state is not None
        high, low = self._state.dice
        return [high] * 4 if high == low else [high, low]

    def _middle_row(self, geometry: BoardGeometry) -> tuple[list[QRectF], list[Button]]:
        """The dice (while checkers are to be played) and the buttons, in the decider's
        half; while the player enters a turn the undo button has its place at the half's end."""
        entry = self._entry
        entering = (
            self._state is not None
            and self._state.phase == CHECKER_PLAY
            and self._accepts_clicks()
            and entry is not None
            and not entry.builder.is_forced_no_move()
        )
        dice = len(self._dice_values()) if self._state is not None and self._state.phase == CHECKER_PLAY else 0
        metrics = QFontMetricsF(button_font(geometry.unit))
        buttons = []
        for key in self._button_keys():
            text = NO_MOVE_TEXT if key == NO_MOVE else BUTTON_TEXT[key]
            buttons.append((key, text, metrics.horizontalAdvance(text)))
        undo = UNDO_KEY if entering and self.can_undo_step() else None
        return middle_row(geometry, self._dice_on_right(), dice, buttons, undo, entering)

    def _buttons(self, geometry: BoardGeometry) -> list[Button]:
        return self._middle_row(geometry)[1]

    def _dice_rects(self, geometry: BoardGeometry) -> list[QRectF]:
        return self._middle_row(geometry)[0]

    # ================================================================ input
    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt's name)
        position = event.position()
        if self._state is None:
            return
        self._stop_motion()  # a click shows the position as it is
        if event.button() == Qt.MouseButton.RightButton:
            if self._picker.is_open():
                self._picker.close()
                self.update()
            elif self._accepts_clicks():
                self.undo_step()
            event.accept()
            return
        if event.button() != Qt.MouseButton.LeftButton:
            return
        event.accept()
        geometry = self._geometry()
        if self._picker.is_open():
            self._enter_roll(self._picker.click(geometry, self._roll_wanted(), position))
            return
        for button in self._buttons(geometry):
            if button.rect.contains(position):
                self._press_button(button.key)
                return
        if self._dice_entry and self._state.phase in CHANCE_PHASES:
            if geometry.dice_area(self._dice_on_right()).contains(position):
                self.open_dice_picker()
            return
        if not self._accepts_clicks():
            return
        if self._state.phase == CUBE_DECISION and self._cube_rect(geometry).contains(position):
            self.request_move(DOUBLE)
            return
        if self._entry is not None:
            if self._entry.builder.is_complete() and any(rect.contains(position) for rect in self._dice_rects(geometry)):
                self._confirm()
                return
            self._click_checkers(geometry, position)

    def _enter_roll(self, roll: tuple[int, int] | None) -> None:
        """After a pick in the dice picker: show it, and emit the roll once complete."""
        self.update()
        if roll is not None:
            self.dice_entered.emit(roll)

    def _press_button(self, key: Any) -> None:
        if key == NEXT_GAME_KEY:
            self.next_game_requested.emit()
        elif key == ENTER_DICE_KEY:
            self.open_dice_picker()
        elif key == UNDO_KEY:
            self.undo_step()
        elif key == CONFIRM_KEY:
            self._confirm()
        elif key == NO_MOVE and isinstance(key, tuple):
            self.request_move(NO_MOVE)  # nothing moves, nothing to slide
        elif key in self.cube_actions():
            self.request_move(key)

    def _location(self, geometry: BoardGeometry, position: QPointF) -> int | None:
        """What a click at ``position`` points at, in the mover's numbering: a point, the
        bar (25) or the mover's tray (0); ``None`` elsewhere."""
        assert self._entry is not None
        return self._view(geometry).location(self._entry.mover, position)

    def _click_checkers(self, geometry: BoardGeometry, position: QPointF) -> None:
        """A press over the checkers: drop the picked-up checker on a destination, or pick
        one up (a second press on it puts it down). The press may also start a drag."""
        assert self._entry is not None
        destination = self._entry.press(self._location(geometry, position), position)
        if destination is not None:
            self._step_to(destination)
            return
        self.update()

    def _step_to(self, location: int) -> None:
        """Move the picked-up checker to ``location`` (one of its targets)."""
        entry = self._entry
        assert entry is not None
        entry.step_to(location)
        self.partial_turn_changed.emit(entry.hops)
        self.update()
        if entry.builder.is_complete() and self._auto_confirm:
            self._confirm()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt's name)
        position = event.position()
        entry = self._entry
        if entry is None or not entry.is_pressed() or not event.buttons() & Qt.MouseButton.LeftButton:
            clickable = self._is_clickable(position)
            self.setCursor(Qt.CursorShape.PointingHandCursor if clickable else Qt.CursorShape.ArrowCursor)
            return
        if entry.drag(position, DRAG_THRESHOLD * self._geometry().unit):
            self.update()

    def _is_clickable(self, position: QPointF) -> bool:
        """Whether a click at ``position`` would do something (the pointer shows a hand)."""
        if self._state is None:
            return False
        geometry = self._geometry()
        if self._picker.is_open():
            return self._picker.is_clickable(geometry, self._roll_wanted(), position)
        if any(button.rect.contains(position) for button in self._buttons(geometry)):
            return True
        if self._dice_entry and self._state.phase in CHANCE_PHASES:
            return geometry.dice_area(self._dice_on_right()).contains(position)
        if not self._accepts_clicks():
            return False
        if self._state.phase == CUBE_DECISION:
            return self._cube_rect(geometry).contains(position)
        entry = self._entry
        if entry is None:
            return False
        if entry.builder.is_complete():
            return any(rect.contains(position) for rect in self._dice_rects(geometry))
        location = self._location(geometry, position)
        return entry.can_pick_up(location) or entry.can_go(location)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt's name)
        """The end of a drag: a checker dragged onto one of its destinations moves there."""
        entry = self._entry
        if event.button() != Qt.MouseButton.LeftButton or entry is None or entry.drag_start is None:
            return
        start = entry.release()
        assert start is not None
        self.update()
        if entry.selected is None or not self._accepts_clicks():
            return
        geometry = self._geometry()
        location = self._location(geometry, event.position())
        if location == self._location(geometry, start):
            return  # a click: the checker stays picked up
        if entry.can_go(location):
            assert location is not None
            self._step_to(location)

    def _confirm(self) -> None:
        entry = self._entry
        if entry is None:
            return
        play = entry.complete_play()
        if play is not None:
            self._requested = (entry.mover, play)
            self.request_move(play)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt's name)
        """Backspace takes a step back, Escape puts a checker down or closes the picker,
        and with the picker open the keys 1-6 enter the dice."""
        face = event.key() - Qt.Key.Key_0
        if self._picker.is_open() and 1 <= face <= DIE_FACES:
            self._enter_roll(self._picker.type_face(face, self._roll_wanted()))
        elif event.key() == Qt.Key.Key_Backspace and self._accepts_clicks():
            self.undo_step()
        elif event.key() == Qt.Key.Key_Escape:
            if self._entry is not None:
                self._entry.selected = None
            self._picker.close()
            self.update()
        else:
            super().keyPressEvent(event)

    # ================================================================= painting
    def paint(self, painter: QPainter) -> None:
        geometry = self._geometry()
        painter.drawPixmap(0, 0, self._background.pixmap(painter, geometry, self.width(), self.height(), self._colours))
        if self._state is None:
            return
        view = self._view(geometry)
        colours = self._colours
        boards = self._boards()
        entry = self._entry
        picked_up = entry.selected if entry is not None and self._interactive else None
        if entry is not None and picked_up is not None:
            painters.paint_targets(painter, view, colours, entry.mover, entry.targets(), boards)
        painters.paint_checkers(painter, view, colours, self._sprites, boards)
        if entry is not None and picked_up is not None:
            painters.paint_selection(painter, view, colours, self._sprites, entry.mover, picked_up, boards, entry.drag_position)
        if self._slide.is_running():
            mover, hop, lifted, fraction = self._slide.frame()
            painters.paint_sliding_checker(painter, view, colours, self._sprites, mover, hop, lifted, fraction)
        painters.paint_borne_off(painter, view, colours, boards)
        if self._shown.cube_enabled:
            dead = not self.is_cube_live()
            painters.paint_cube(painter, geometry, colours, self._cube_rect(geometry), self._cube_face(), dead=dead)
        line = self.match_line()
        if line is not None:
            painters.paint_match_line(painter, geometry, colours, line.parts(self._player_names))
        self._paint_dice(painter, geometry)
        best = self._best_move if isinstance(self._best_move, str) or self._best_move == NO_MOVE else None
        painters.paint_buttons(painter, geometry, colours, self._buttons(geometry), best, UNDO_KEY)
        painters.paint_labels(painter, geometry, colours, self._sprites, self._labels())
        if (entry is None or not entry.builder.steps) and not self._slide.is_running():
            self._paint_last_move(painter, view)
        self._paint_best_move(painter, view)
        self._paint_review_move(painter, view)
        if self._picker.is_open():
            self._picker.paint(painter, geometry, colours, self._roll_wanted())

    def _paint_dice(self, painter: QPainter, geometry: BoardGeometry) -> None:
        """The roll being played, in the roller's colours; the dice used so far faded."""
        state = self._shown
        if state.phase != CHECKER_PLAY:
            return  # no dice before the roll (with dice entry, the "Enter dice" button is there)
        used = self._entry.builder.used_dice() if self._entry is not None else [False] * len(self._dice_values())
        for rect, value, is_used in zip(self._dice_rects(geometry), self._dice_values(), used):
            painters.draw_die(painter, rect, value, self._colours, state.player, faded=is_used)

    def _labels(self) -> list[painters.PlayerLabel]:
        """Each player's name, pip count and checkers off, beside their side of the board;
        the status of the player the board waits for (both at the end)."""
        state = self._shown
        boards = (state.boards[O], state.boards[X]) if self._slide.is_running() else self._boards()  # no pips in flight
        decider = self._decider()
        labels = []
        for player in (O, X):
            board = boards[player]
            is_deciding = decider == player
            labels.append(
                painters.PlayerLabel(
                    player=player,
                    top=player != self.bottom_player(),
                    name=self._player_names[player],
                    pips=sum(point * board[point] for point in range(1, BAR + 1)),
                    off=board[OFF],
                    status=self._status_text(player) if is_deciding or state.phase == GAME_OVER or self._ended else "",
                    deciding=is_deciding,
                )
            )
        return labels

    def _paint_best_move(self, painter: QPainter, view: BoardView) -> None:
        """The engine's play as arrows, when it is legal here."""
        move = self._best_move
        state = self._shown
        if state.phase != CHECKER_PLAY or not isinstance(move, tuple) or not move:
            return
        if move not in self.legal_moves():
            return
        boards = (state.boards[O], state.boards[X])
        colour = QColor(self._colours.best_move)
        for start, end in painters.hop_arrows(view, state.player, move, boards):
            painters.draw_arrow(painter, view.geometry, start, end, colour, BEST_MOVE_ARROW)

    def _paint_review_move(self, painter: QPainter, view: BoardView) -> None:
        """The game review's better play (``set_review_move``: a play of the position before
        the play shown) as arrows from where the checkers stood, in the review's colour."""
        move = self._review_move
        found = last_play(self._shown) if isinstance(move, tuple) and move else None
        if found is None:
            return
        mover, _played, boards = found
        colour = QColor(self._theme.color("review_move_arrow"))
        for start, end in painters.hop_arrows(view, mover, move, boards):
            painters.draw_arrow(painter, view.geometry, start, end, colour, BEST_MOVE_ARROW)

    def _paint_last_move(self, painter: QPainter, view: BoardView) -> None:
        """The latest checker play as faint arrows, once ``set_last_move`` named a move."""
        found = last_play(self._shown) if self._last_move is not None else None
        if found is None:
            return
        mover, play, boards_before = found
        colour = QColor(self._colours.last_move)
        colour.setAlpha(LAST_MOVE_ALPHA)
        for start, end in painters.hop_arrows(view, mover, play, boards_before):
            painters.draw_arrow(painter, view.geometry, start, end, colour, LAST_MOVE_ARROW)


__all__ = ["CONFIRM_KEY", "ENTER_DICE_KEY", "NEXT_GAME_KEY", "UNDO_KEY", "BackgammonBoard"]
