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
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, QVariantAnimation, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QPixmap,
    QPen,
    QPolygonF,
    QRadialGradient,
)
from PySide6.QtWidgets import QWidget

from games.backgammon.board import BAR, CHECKERS, DIE_FACES, NO_MOVE, OFF, POINTS, Board, Hop, Play
from games.backgammon.gnubg_ids import CENTRED
from games.backgammon.notation import DOUBLE, DROP, MOVER, NO_DOUBLE, OPPONENT, TAKE, format_play, roll_name
from games.backgammon.state import (
    CHECKER_PLAY,
    CUBE_DECISION,
    GAME_OVER,
    OPENING,
    RESULT_NAMES,
    ROLL,
    TAKE_DECISION,
    BackgammonState,
    O,
    X,
)
from games.base import GameState, Player
from games.backgammon.turn import TurnBuilder
from gui.boards.base import MIN_TEXT_PIXELS, MOTION_MS, BoardWidget, text_font
from gui.theme import Theme

# --------------------------------------------------------------------- geometry
# Sizes in units of one point's width; the board keeps these proportions at any size.
FRAME = 0.3
"""The wooden frame between the fields and trays."""
TRAY = 1.3
"""Width of the bear-off trays (right) and of the cube's trays (left)."""
BAR_WIDTH = 1.1
LABEL_BAND = 0.85
"""The strip above and below the board with each player's name, pips and checkers off."""
NUMBER_STRIP = 0.5
"""The frame strip above and below the fields where the point numbers are written."""
POINT_LENGTH = 5.0
"""Height of one half of the playing field (a point's triangle is a little shorter)."""
TRIANGLE_LENGTH = 4.55
MIDDLE_GAP = 1.2
"""The empty band across the middle of the fields where the dice and buttons sit."""
CHECKER = 0.94
"""Checker diameter; stacks are drawn touching."""
STACK_SHOWN = 5
"""Checkers drawn on one point; a taller stack shows its count on the outermost one."""
DIE = 0.8
MIN_DIE_PIXELS = 16.0
"""Dice never drawn smaller than this, so their pips stay countable on a small board."""
MIN_GAP_SCALE = 0.2
"""How far the gaps between dice and buttons may close before the dice and buttons shrink."""
TURN_EVENTS = 5
"""The most a game moves on between two positions a session shows: a double, a take, a
roll and a play (and the opponent's cube turn); more than that is a jump, not slid."""
SPRITE_CACHE_SIZE = 32
"""Checker sprites kept (two players at a few sizes and resolutions)."""
DRAG_THRESHOLD = 0.25
"""How far (in units) the pointer moves with the button down before a press becomes a drag."""
CUBE = 0.95
BUTTON_HEIGHT = 0.85
BUTTON_WIDTH = 2.1
PICKER_LABEL = 0.36
"""Text height of the dice picker's row labels."""
SLAB = (POINT_LENGTH + MIDDLE_GAP / 2 - FRAME / 2 - 0.4) / CHECKERS
"""Thickness of one borne-off checker seen from the side in its tray."""

BOARD_WIDTH = 4 * FRAME + 2 * TRAY + 12 + BAR_WIDTH
BOARD_HEIGHT = 2 * LABEL_BAND + 2 * NUMBER_STRIP + 2 * POINT_LENGTH + MIDDLE_GAP
NUMBER_WIDTH = 0.75
"""The widest a point number may be, in points: the rest keeps neighbours apart."""
NUMBER_FONT_FALLBACKS: tuple[tuple[bool, int], ...] = ((True, 100), (False, 100), (False, 87), (False, 75))
"""(bold, stretch %) tried in turn for the point numbers until "24" fits ``NUMBER_WIDTH``."""
CUBE_TEXT_PADDING = 0.25
"""Room round the cube's number, in units: a small board's cube grows to fit readable text."""
MIN_NUMBER_STRIP_PIXELS = 1.3 * MIN_TEXT_PIXELS
MIN_LABEL_BAND_PIXELS = 1.7 * MIN_TEXT_PIXELS
"""On a small board the strips with the point numbers and the bands with the names and pip
counts keep room for readable text; the fields shrink instead."""
CENTRED_CUBE_FACE = 64
"""A centred cube shows 64, as on a real board."""

UNDO_KEY = "undo"
ENTER_DICE_KEY = "enter dice"
CONFIRM_KEY = "confirm"
_BUTTON_TEXT = {
    DOUBLE: "Double",
    NO_DOUBLE: "Roll",
    TAKE: "Take",
    DROP: "Drop",
    ENTER_DICE_KEY: "Enter dice",
    CONFIRM_KEY: "Done",
}
NO_MOVE_TEXT = "No move"


@dataclass(frozen=True)
class BoardColours:
    """The board's palette; ``for_theme`` picks one from the app's theme."""

    background: str
    frame: str
    frame_text: str
    field: str
    tray: str
    points: tuple[str, str]
    checkers: tuple[str, str]
    """Player O's and player X's checker colours."""
    checker_edges: tuple[str, str]
    checker_text: tuple[str, str]
    label_text: str
    label_dim: str
    highlight: str
    selection: str
    best_move: str
    last_move: str
    button: str
    button_text: str
    cube: str
    cube_text: str
    overlay: str

    @staticmethod
    def light() -> BoardColours:
        return BoardColours(
            background="#f3efe6",
            frame="#7b4f2c",
            frame_text="#f4e7d0",
            field="#ecdfc4",
            tray="#d9c7a3",
            points=("#a8432f", "#3d5a6c"),
            checkers=("#8e1f22", "#f6f1e4"),
            checker_edges=("#3f0b0c", "#7e7560"),
            checker_text=("#f6f1e4", "#2b2620"),
            label_text="#2b2620",
            label_dim="#6b6257",
            highlight="#f2c230",
            selection="#ff9f1a",
            best_move="#1f6fd1",
            last_move="#5b5248",
            button="#fbf7ee",
            button_text="#2b2620",
            cube="#fbf7ee",
            cube_text="#1d1a16",
            overlay="#fbf7ee",
        )

    @staticmethod
    def dark() -> BoardColours:
        return BoardColours(
            background="#1e1f22",
            frame="#3a2c22",
            frame_text="#cdbfa8",
            field="#264337",
            tray="#1c3229",
            points=("#9b3b2f", "#b9a27a"),
            checkers=("#b0282c", "#ece6d6"),
            checker_edges=("#4a0c0e", "#8d8470"),
            checker_text=("#ece6d6", "#26221c"),
            label_text="#e4e0d8",
            label_dim="#a09a90",
            highlight="#f2c230",
            selection="#ffae3d",
            best_move="#5aa2ff",
            last_move="#d8d0c0",
            button="#34373c",
            button_text="#ece6d6",
            cube="#ece6d6",
            cube_text="#1d1a16",
            overlay="#2b2d31",
        )

    @staticmethod
    def for_theme(theme: Theme) -> BoardColours:
        """The board's own wood, felt and checkers, light or dark as the theme is, with the
        theme's window, text, panel and engine-arrow colours so it sits among the others."""
        base = BoardColours.dark() if theme.is_dark else BoardColours.light()
        felt = FELTS.get((theme.board.name, theme.is_dark))
        if felt is not None:
            base = replace(base, frame=felt[0], field=felt[1], tray=felt[2], points=felt[3])
        return replace(
            base,
            background=theme.window,
            label_text=theme.text,
            label_dim=theme.muted_text,
            button=theme.panel,
            button_text=theme.text,
            overlay=theme.panel,
            best_move=theme.best_move_arrow,
        )


FELTS: dict[tuple[str, bool], tuple[str, str, str, tuple[str, str]]] = {
    ("brown", False): ("#7b4f2c", "#ecdfc4", "#d9c7a3", ("#a8432f", "#3d5a6c")),
    ("green", False): ("#5b3d24", "#3e7b55", "#336648", ("#e6d8b8", "#a23a2c")),
    ("blue", False): ("#43535f", "#d8e0e6", "#c2ccd4", ("#b04a36", "#4f6f82")),
    ("brown", True): ("#2a1f18", "#4a3b2f", "#3b2f26", ("#9b3b2f", "#c2ab80")),
    ("green", True): ("#3a2c22", "#264337", "#1c3229", ("#9b3b2f", "#b9a27a")),
    ("blue", True): ("#222a31", "#26333d", "#1d2830", ("#9b3b2f", "#a8b4bd")),
}
"""Frame, field, tray and the two point colours for each of the app's board schemes
(``gui.theme.BOARD_SCHEMES``), light and dark: the scheme the player chose for the grid
boards picks the felt here."""


@dataclass(frozen=True)
class _Button:
    key: Any
    """What a click means: a cube action, ``NO_MOVE``, or one of the ``*_KEY`` names."""
    text: str
    rect: QRectF


class _Geometry:
    """Where everything is for one widget size: the unit, the fields, trays and bar."""

    def __init__(self, width: float, height: float) -> None:
        unit = min(width / BOARD_WIDTH, height / BOARD_HEIGHT)
        fields = BOARD_HEIGHT - 2 * (LABEL_BAND + NUMBER_STRIP)
        strip = max(NUMBER_STRIP * unit, MIN_NUMBER_STRIP_PIXELS)
        band = max(LABEL_BAND * unit, MIN_LABEL_BAND_PIXELS)
        unit = max(1.0, min(unit, (height - 2 * (strip + band)) / fields))
        self.unit = unit
        self.number_strip = strip = max(NUMBER_STRIP * unit, MIN_NUMBER_STRIP_PIXELS)
        self.label_band = band = max(LABEL_BAND * unit, MIN_LABEL_BAND_PIXELS)
        self.left = (width - BOARD_WIDTH * unit) / 2
        self.top = (height - fields * unit - 2 * (strip + band)) / 2
        self.frame_rect = QRectF(self.left, self.top + band, BOARD_WIDTH * unit, fields * unit + 2 * strip)
        self.field_top = self.frame_rect.top() + strip
        self.field_height = (2 * POINT_LENGTH + MIDDLE_GAP) * unit
        self.field_bottom = self.field_top + self.field_height
        self.middle = self.field_top + self.field_height / 2
        x = self.left + FRAME * unit
        self.left_tray_x = x
        x += (TRAY + FRAME) * unit
        self.left_field = QRectF(x, self.field_top, 6 * unit, self.field_height)
        x += 6 * unit
        self.bar = QRectF(x, self.field_top, BAR_WIDTH * unit, self.field_height)
        x += BAR_WIDTH * unit
        self.right_field = QRectF(x, self.field_top, 6 * unit, self.field_height)
        x += (6 + FRAME) * unit
        self.right_tray_x = x
        tray_height = (self.field_height - FRAME * unit) / 2
        self.tray_height = tray_height
        self.top_band = QRectF(self.left, self.top, BOARD_WIDTH * unit, band)
        self.bottom_band = QRectF(self.left, self.frame_rect.bottom(), BOARD_WIDTH * unit, band)

    def tray(self, right: bool, top: bool) -> QRectF:
        x = self.right_tray_x if right else self.left_tray_x
        y = self.field_top if top else self.field_bottom - self.tray_height
        return QRectF(x, y, TRAY * self.unit, self.tray_height)

    def point_column(self, point: int) -> tuple[QRectF, bool]:
        """The half-field column of ``point`` (bottom player's numbering) and whether it is
        in the top half."""
        unit = self.unit
        if point <= 6:
            x, top = self.right_field.right() - point * unit, False
        elif point <= 12:
            x, top = self.left_field.right() - (point - 6) * unit, False
        elif point <= 18:
            x, top = self.left_field.left() + (point - 13) * unit, True
        else:
            x, top = self.right_field.left() + (point - 19) * unit, True
        y = self.field_top if top else self.middle
        return QRectF(x, y, unit, self.field_height / 2), top

    def slot(self, point: int, index: int) -> QPointF:
        """Centre of the ``index``-th checker (0 at the edge) of ``point`` (bottom
        numbering); indices past the shown stack sit on the outermost checker."""
        column, top = self.point_column(point)
        index = min(index, STACK_SHOWN - 1)
        offset = (index + 0.5) * CHECKER * self.unit
        y = column.top() + offset if top else column.bottom() - offset
        return QPointF(column.center().x(), y)

    def bar_slot(self, top: bool, index: int) -> QPointF:
        """Centre of a bar checker: the bottom player's below the middle, the top one's above."""
        index = min(index, STACK_SHOWN - 1)
        offset = (MIDDLE_GAP / 2 + 0.1 + (index + 0.5) * CHECKER) * self.unit
        return QPointF(self.bar.center().x(), self.middle - offset if top else self.middle + offset)

    def half_centre(self, right: bool) -> QPointF:
        field = self.right_field if right else self.left_field
        return QPointF(field.center().x(), self.middle)


class BackgammonBoard(BoardWidget):
    """The backgammon board widget (see module doc for what it shows and emits).

    Signals, besides the board API's ``move_requested`` (a play, ``()`` for "no move", or a
    cube action ``"double"``/``"roll"``/``"take"``/``"drop"``):
      * ``dice_entered(object)``: with dice entry on, the roll the player entered, as the
        state's chance outcome (``(high, low)``; at the opening roll ``(O's die, X's die)``);
      * ``partial_turn_changed(object)``: the hops entered so far in this turn (a tuple).
    Positions are set up by pasting a gnubg id, so there is no edit mode
    (``set_edit_mode(True)`` refuses, as on every board without one).
    """

    GAME = "backgammon"
    _state: BackgammonState | None  # set_state refuses any other game's state
    BOTTOM_PLAYER = X
    """Not flipped, X is at the bottom, as gnubg draws it."""

    dice_entered = Signal(object)
    partial_turn_changed = Signal(object)

    def __init__(self, theme: Theme | None = None, parent: QWidget | None = None) -> None:
        super().__init__(theme, parent)
        self._colours = BoardColours.for_theme(self._theme)
        self._auto_confirm = True
        self._dice_entry = False
        self._player_names: tuple[str, str] = BackgammonState.PLAYER_NAMES
        self._builder: TurnBuilder | None = None
        self._selected: int | None = None
        """The source (mover's numbering) of the checker the player picked up."""
        self._picker_open = False
        self._picked: list[int | None] = [None, None]
        self._drag_start: QPointF | None = None
        """Where the press that picked up the selected checker was (a drag may follow)."""
        self._drag_position: QPointF | None = None
        """Where a dragged checker is now (``None``: not dragging)."""
        self._background_cache: tuple[tuple[Any, ...], QPixmap] | None = None
        self._sprites: dict[tuple[Any, ...], QPixmap] = {}
        self.animation_ms = MOTION_MS
        """How long one checker hop of an opponent's play slides; 0 switches it off."""
        self._motion = QVariantAnimation(self)
        self._motion.setStartValue(0.0)
        self._motion.setEndValue(1.0)
        self._motion.valueChanged.connect(self.update)
        self._motion.finished.connect(self._stop_motion)
        self._motion_hops: list[tuple[Player, Hop, tuple[Board, Board]]] = []
        """The play being shown sliding: each hop with its mover and the boards before it."""
        self._requested: tuple[Player, Play] | None = None
        """The play this board last asked for: it is already on the board, never slid."""
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)

    # ================================================================ board API
    def set_state(self, state: GameState | None) -> None:
        """Show ``state`` (the board keeps its own copy); a turn being entered is dropped.

        When ``state`` continues the shown one with a checker play this board did not ask
        for (the opponent's), its checkers slide there hop by hop."""
        previous = self._state
        sliding_on = _continues_without_play(previous, state) and bool(self._motion_hops)
        if not sliding_on:  # a roll or a cube action after the play lets it finish sliding
            self._stop_motion()
        super().set_state(state)
        shown = self._state
        self._builder = TurnBuilder(shown) if isinstance(shown, BackgammonState) and shown.phase == CHECKER_PLAY else None
        self._close_picker()
        if not sliding_on and isinstance(previous, BackgammonState) and isinstance(shown, BackgammonState):
            self._start_motion(previous, shown)
        self._requested = None
        self.update()

    def is_animating(self) -> bool:
        """Whether an opponent's play is being shown sliding."""
        return bool(self._motion_hops)

    def _start_motion(self, previous: BackgammonState, shown: BackgammonState) -> None:
        old, new = previous.history, shown.history
        if self.animation_ms <= 0 or not self.isVisible() or not 0 < len(new) - len(old) <= TURN_EVENTS:
            return  # nothing new, or a jump (a loaded game, a position from the history)
        if old and new[len(old) - 1] != old[-1]:
            return  # not the game shown going on (a new game, a jump in the history)
        for snapshot, move, hits in reversed(new[len(old) :]):
            if snapshot[0] != CHECKER_PLAY:
                continue
            mover = snapshot[1]
            if not move or hits is None or self._requested == (mover, move):
                return
            boards = _boards_before(shown, mover, move, hits)
            hops = []
            for hop in move:
                hops.append((mover, hop, (list(boards[O]), list(boards[X]))))
                _apply_hop(boards, mover, hop)
            self._motion_hops = hops
            self._motion.stop()
            self._motion.setDuration(self.animation_ms * len(hops))
            self._motion.start()
            return

    def _stop_motion(self) -> None:
        if self._motion_hops:
            self._motion_hops = []
            self._motion.stop()
            self.update()

    def _motion_frame(self) -> tuple[Player, Hop, tuple[Board, Board], float]:
        """The hop sliding now, the boards without its checker, and how far it has gone."""
        progress = float(self._motion.currentValue() or 0.0) * len(self._motion_hops)
        index = min(int(progress), len(self._motion_hops) - 1)
        mover, hop, boards = self._motion_hops[index]
        lifted = (list(boards[O]), list(boards[X]))
        lifted[mover][hop[0]] -= 1
        fraction = min(max(progress - index, 0.0), 1.0)
        return mover, hop, lifted, fraction * fraction * (3 - 2 * fraction)  # eased

    def reset_interaction(self) -> None:
        """Put a picked-up checker down (the steps entered stay until the next state)."""
        self._selected = None
        self._drag_start = self._drag_position = None

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
            self._close_picker()
        self.update()

    def open_dice_picker(self) -> bool:
        """Open the dice picker now (dice entry on, state at a chance node); whether it opened."""
        if not (self._dice_entry and self._state is not None and self._state.phase in (OPENING, ROLL)):
            return False
        self._picker_open = True
        self._picked = [None, None]
        self.update()
        return True

    def is_dice_picker_open(self) -> bool:
        return self._picker_open

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
        if self._builder is None or self._builder.undo_step() is None:
            return False
        self._selected = None
        self.partial_turn_changed.emit(self._builder.hops)
        self.update()
        return True

    def can_undo_step(self) -> bool:
        return self._builder is not None and bool(self._builder.steps)

    def partial_turn(self) -> tuple[Hop, ...]:
        """The hops entered so far in this turn, in the mover's numbering."""
        return self._builder.hops if self._builder is not None else ()

    def no_move_play(self) -> Play | None:
        """The forced empty play when the dice cannot be played at all (so the app can say
        so and play it), else ``None``."""
        if self._builder is not None and self._builder.is_forced_no_move():
            return NO_MOVE
        return None

    def cube_actions(self) -> list[str]:
        """The cube actions legal now (``[]`` outside a cube or take decision)."""
        if self._state is not None and self._state.phase in (CUBE_DECISION, TAKE_DECISION):
            return list(self.legal_moves())
        return []

    def selected_source(self) -> int | None:
        """The point (mover's numbering, 25 = bar) of the checker picked up, if any."""
        return self._selected

    def targets(self) -> list[int]:
        """Where the picked-up checker may go (mover's numbering, 0 = off)."""
        if self._builder is None or self._selected is None:
            return []
        return sorted(self._builder.options().get(self._selected, {}))

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
        geometry = self._geometry()
        bottom = player == self.bottom_player()
        if point == BAR:
            return geometry.bar_slot(not bottom, 0)
        if point == OFF:
            return geometry.tray(True, not bottom).center()
        column, _ = geometry.point_column(point if bottom else BAR - point)
        return column.center()

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
        geometry = self._geometry()
        return geometry.half_centre(self._dice_on_right())

    def picker_die_position(self, row: int, face: int) -> QPointF | None:
        """Centre of die ``face`` (1..6) in picker row ``row`` (0 or 1), when it is open."""
        if not self._picker_open:
            return None
        return self._picker_layout(self._geometry())[1][row][face - 1].center()

    # ================================================================= sizing
    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        return QSize(round(BOARD_WIDTH * 44), round(BOARD_HEIGHT * 44))

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        return QSize(round(BOARD_WIDTH * 20), round(BOARD_HEIGHT * 20))

    def hasHeightForWidth(self) -> bool:  # noqa: N802
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802
        return round(width * BOARD_HEIGHT / BOARD_WIDTH)

    def _geometry(self) -> _Geometry:
        return _Geometry(self.width(), self.height())

    # ============================================================ who is where
    def _screen_point(self, player: Player, point: int) -> int:
        """``player``'s point in the bottom player's numbering."""
        return point if player == self.bottom_player() else BAR - point

    def _boards(self) -> tuple[Board, Board]:
        """O's and X's boards as drawn: with the steps of the turn being entered."""
        if self._motion_hops:
            return self._motion_frame()[2]
        builder = self._builder
        if builder is None:
            assert self._state is not None
            return self._state.boards[O], self._state.boards[X]
        if builder.mover == O:
            return builder.mine, builder.theirs
        return builder.theirs, builder.mine

    @property
    def _shown(self) -> BackgammonState:
        """The shown state, for the code that runs only while one is shown (painting the
        pieces, the status lines, the picker): a board without a state paints only its frame."""
        assert self._state is not None, "the backgammon board has no state to show"
        return self._state

    def _decider(self) -> Player | None:
        """The player whose decision the board waits for (cube or checkers)."""
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

    # ================================================= the middle row: dice and buttons
    def _button_keys(self) -> list[Any]:
        """The buttons the board shows now (see module doc), the undo button aside."""
        state = self._state
        if self._picker_open or state is None:
            return []
        if state.phase in (OPENING, ROLL):
            return [ENTER_DICE_KEY] if self._dice_entry else []
        if not self._accepts_clicks():
            return []
        if state.phase == CUBE_DECISION:
            return [DOUBLE, NO_DOUBLE]
        if state.phase == TAKE_DECISION:
            return [TAKE, DROP]
        if state.phase == CHECKER_PLAY and self._builder is not None:
            if self._builder.is_forced_no_move():
                return [NO_MOVE]
            if self._builder.is_complete() and not self._auto_confirm:
                return [CONFIRM_KEY]
        return []

    def _dice_values(self) -> list[int]:
        assert self._state is not None
        high, low = self._state.dice
        return [high] * 4 if high == low else [high, low]

    def _middle_row(self, geometry: _Geometry) -> tuple[list[QRectF], list[_Button]]:
        """The dice (while checkers are to be played) and the buttons, one row centred in
        the decider's half, shrunk to fit if need be. While the player enters a turn the
        undo button has a fixed place at the half's end, so the dice never move."""
        unit = geometry.unit
        half = geometry.right_field if self._dice_on_right() else geometry.left_field
        centre_y = geometry.middle
        margin = 0.15 * unit
        area_left, area_right = half.left() + margin, half.right() - margin
        undo: QRectF | None = None
        builder = self._builder
        if (
            self._state is not None
            and self._state.phase == CHECKER_PLAY
            and self._accepts_clicks()
            and builder is not None
            and not builder.is_forced_no_move()
        ):
            side = BUTTON_HEIGHT * unit
            undo = QRectF(area_right - side, centre_y - side / 2, side, side)
            area_right = undo.left() - 0.2 * unit
        values = self._dice_values() if self._state is not None and self._state.phase == CHECKER_PLAY else []
        die_spacing = (0.15 if len(values) == 4 else 0.3) * unit
        gap = 0.3 * unit
        keys = self._button_keys()
        metrics = QFontMetricsF(self._button_font(unit))
        texts = [NO_MOVE_TEXT if key == NO_MOVE else _BUTTON_TEXT[key] for key in keys]
        widths: list[float] = [max(DIE * unit, MIN_DIE_PIXELS)] * len(values) + [
            max(BUTTON_WIDTH * unit, metrics.horizontalAdvance(text) + 0.7 * unit) for text in texts
        ]
        # the space before item i + 1: between dice a narrow one, else a button's gap
        spacings = [die_spacing if index < len(values) else gap for index in range(1, len(widths))]
        # a row too wide for the half closes its gaps first; dice and buttons (whose text
        # must stay readable) shrink only on a board below its minimum size
        room, items, gaps = area_right - area_left, sum(widths), sum(spacings)
        gap_scale = min(1.0, max(MIN_GAP_SCALE, (room - items) / gaps)) if gaps else 1.0
        scale = min(1.0, room / (items + gaps * gap_scale)) if items else 1.0
        total = (items + gaps * gap_scale) * scale
        x = (area_left + area_right) / 2 - total / 2
        dice: list[QRectF] = []
        buttons: list[_Button] = []
        for index, width in enumerate(widths):
            width *= scale
            if index < len(values):
                dice.append(QRectF(x, centre_y - width / 2, width, width))
            else:
                key = keys[index - len(values)]
                rect = QRectF(x, centre_y - BUTTON_HEIGHT * unit / 2, width, BUTTON_HEIGHT * unit)
                buttons.append(_Button(key, texts[index - len(values)], rect))
            x += width + (spacings[index] * gap_scale * scale if index < len(spacings) else 0.0)
        if undo is not None and self.can_undo_step():
            buttons.append(_Button(UNDO_KEY, "", undo))
        return dice, buttons

    @staticmethod
    def _button_font(unit: float) -> QFont:
        return text_font(0.38 * unit, bold=True)

    def _buttons(self, geometry: _Geometry) -> list[_Button]:
        return self._middle_row(geometry)[1]

    def _dice_rects(self, geometry: _Geometry) -> list[QRectF]:
        return self._middle_row(geometry)[0]

    # ================================================================ picker
    def _close_picker(self) -> None:
        self._picker_open = False
        self._picked = [None, None]

    def _picker_rows(self) -> tuple[str, str]:
        if self._state is not None and self._state.phase == OPENING:
            return (f"{self._player_names[O]}'s die", f"{self._player_names[X]}'s die")
        return ("First die", "Second die")

    def _picker_layout(self, geometry: _Geometry) -> tuple[QRectF, list[list[QRectF]], QRectF]:
        """The panel, the 2 x 6 die rects and the close box."""
        unit = geometry.unit
        die = max(0.85 * unit, MIN_DIE_PIXELS)
        spacing = 0.25 * unit
        metrics = QFontMetricsF(text_font(PICKER_LABEL * unit))
        label = max(2.0 * unit, max(metrics.horizontalAdvance(text) for text in self._picker_rows()) + 0.4 * unit)
        title = QFontMetricsF(self._picker_title_font(unit)).horizontalAdvance(self._picker_title())
        width = max(label + 6 * die + 5 * spacing + 0.8 * unit, title + 1.6 * unit)  # the title beside the close box
        height = 4.0 * unit
        centre = QPointF(
            (geometry.left_field.left() + geometry.right_field.right()) / 2, geometry.middle
        )
        panel = QRectF(centre.x() - width / 2, centre.y() - height / 2, width, height)
        rows = []
        for row in range(2):
            y = panel.top() + 1.25 * unit + row * (die + 0.5 * unit)
            rows.append(
                [QRectF(panel.left() + 0.4 * unit + label + face * (die + spacing), y, die, die) for face in range(6)]
            )
        close = QRectF(panel.right() - 0.75 * unit, panel.top() + 0.2 * unit, 0.55 * unit, 0.55 * unit)
        return panel, rows, close

    def _picker_title(self) -> str:
        opening = self._state is not None and self._state.phase == OPENING
        return "Enter the opening roll" if opening else "Enter the roll"

    @staticmethod
    def _picker_title_font(unit: float) -> QFont:
        return text_font(0.42 * unit, bold=True)

    def _pick_die(self, row: int, face: int) -> None:
        self._picked[row] = face
        first, second = self._picked
        if first is None or second is None:
            self.update()
            return
        if self._state is not None and self._state.phase == OPENING:
            if first == second:  # equal opening dice are thrown again: keep the first pick
                self._picked[1] = None
                self.update()
                return
            outcome: tuple[int, int] = (first, second)  # (O's die, X's die), as the state takes it
        else:
            outcome = (max(first, second), min(first, second))
        self._close_picker()
        self.update()
        self.dice_entered.emit(outcome)

    # ================================================================ mouse
    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt's name)
        position = event.position()
        if self._state is None:
            return
        self._stop_motion()  # a click shows the position as it is
        if event.button() == Qt.MouseButton.RightButton:
            if self._picker_open:
                self._close_picker()
                self.update()
            elif self._accepts_clicks():
                self.undo_step()
            event.accept()
            return
        if event.button() != Qt.MouseButton.LeftButton:
            return
        event.accept()
        geometry = self._geometry()
        if self._picker_open:
            self._click_picker(geometry, position)
            return
        for button in self._buttons(geometry):
            if button.rect.contains(position):
                self._press_button(button.key)
                return
        if self._dice_entry and self._state.phase in (OPENING, ROLL):
            if self._dice_area(geometry).contains(position):
                self.open_dice_picker()
            return
        if not self._accepts_clicks():
            return
        if self._state.phase == CUBE_DECISION and self._cube_rect(geometry).contains(position):
            self.request_move(DOUBLE)
            return
        if self._builder is not None:
            if self._builder.is_complete() and any(rect.contains(position) for rect in self._dice_rects(geometry)):
                self._confirm()
                return
            self._click_checkers(geometry, position)

    def _dice_area(self, geometry: _Geometry) -> QRectF:
        centre = geometry.half_centre(self._dice_on_right())
        unit = geometry.unit
        return QRectF(centre.x() - 2.8 * unit, centre.y() - MIDDLE_GAP * unit / 2, 5.6 * unit, MIDDLE_GAP * unit)

    def _click_picker(self, geometry: _Geometry, position: QPointF) -> None:
        panel, rows, close = self._picker_layout(geometry)
        if close.contains(position) or not panel.contains(position):
            self._close_picker()
            self.update()
            return
        for row, rects in enumerate(rows):
            for face, rect in enumerate(rects, start=1):
                if rect.contains(position):
                    self._pick_die(row, face)
                    return

    def _press_button(self, key: Any) -> None:
        if key == ENTER_DICE_KEY:
            self.open_dice_picker()
        elif key == UNDO_KEY:
            self.undo_step()
        elif key == CONFIRM_KEY:
            self._confirm()
        elif key == NO_MOVE and isinstance(key, tuple):
            self.request_move(NO_MOVE)  # nothing moves, nothing to slide
        elif key in self.cube_actions():
            self.request_move(key)

    def _location(self, geometry: _Geometry, position: QPointF) -> int | None:
        """What a click at ``position`` points at, in the mover's numbering: a point, the
        bar (25) or the mover's tray (0); ``None`` elsewhere."""
        assert self._builder is not None
        mover = self._builder.mover
        bottom = mover == self.bottom_player()
        if geometry.bar.contains(position):
            return BAR
        tray = geometry.tray(True, not bottom)
        if tray.contains(position):
            return OFF
        for point in range(1, POINTS + 1):
            column, _ = geometry.point_column(point)
            if column.contains(position):
                return point if bottom else BAR - point
        return None

    def _click_checkers(self, geometry: _Geometry, position: QPointF) -> None:
        """A press over the checkers: drop the picked-up checker on a destination, or pick
        one up (a second press on it puts it down). The press may also start a drag."""
        builder = self._builder
        assert builder is not None
        location = self._location(geometry, position)
        if self._selected is not None and location in builder.options().get(self._selected, {}):
            assert location is not None
            self._step_to(location)
            return
        if location is not None and location in builder.options() and location != self._selected:
            self._selected = location
            self._drag_start = position
        else:
            self._selected = None
        self.update()

    def _step_to(self, location: int) -> None:
        """Move the picked-up checker to ``location`` (one of its targets)."""
        builder = self._builder
        assert builder is not None and self._selected is not None
        builder.play_step(self._selected, location)
        self._selected = None
        self._drag_start = self._drag_position = None
        self.partial_turn_changed.emit(builder.hops)
        self.update()
        if builder.is_complete() and self._auto_confirm:
            self._confirm()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt's name)
        position = event.position()
        if self._drag_start is None or self._selected is None or not event.buttons() & Qt.MouseButton.LeftButton:
            clickable = self._is_clickable(position)
            self.setCursor(Qt.CursorShape.PointingHandCursor if clickable else Qt.CursorShape.ArrowCursor)
            return
        if self._drag_position is None:
            moved = position - self._drag_start
            if math.hypot(moved.x(), moved.y()) < DRAG_THRESHOLD * self._geometry().unit:
                return
        self._drag_position = position
        self.update()

    def _is_clickable(self, position: QPointF) -> bool:
        """Whether a click at ``position`` would do something (the pointer shows a hand)."""
        if self._state is None:
            return False
        geometry = self._geometry()
        if self._picker_open:
            _, rows, close = self._picker_layout(geometry)
            return close.contains(position) or any(rect.contains(position) for row in rows for rect in row)
        if any(button.rect.contains(position) for button in self._buttons(geometry)):
            return True
        if self._dice_entry and self._state.phase in (OPENING, ROLL):
            return self._dice_area(geometry).contains(position)
        if not self._accepts_clicks():
            return False
        if self._state.phase == CUBE_DECISION:
            return self._cube_rect(geometry).contains(position)
        builder = self._builder
        if builder is None:
            return False
        if builder.is_complete():
            return any(rect.contains(position) for rect in self._dice_rects(geometry))
        location = self._location(geometry, position)
        options = builder.options()
        return location in options or (self._selected is not None and location in options.get(self._selected, {}))

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt's name)
        """The end of a drag: a checker dragged onto one of its destinations moves there."""
        if event.button() != Qt.MouseButton.LeftButton or self._drag_start is None:
            return
        start, self._drag_start, self._drag_position = self._drag_start, None, None
        self.update()
        if self._selected is None or self._builder is None or not self._accepts_clicks():
            return
        geometry = self._geometry()
        location = self._location(geometry, event.position())
        if location == self._location(geometry, start):
            return  # a click: the checker stays picked up
        if location in self._builder.options().get(self._selected, {}):
            assert location is not None
            self._step_to(location)

    def _confirm(self) -> None:
        if self._builder is None:
            return
        play = self._builder.complete_play()
        if play is not None:
            self._requested = (self._builder.mover, play)
            self.request_move(play)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt's name)
        """Backspace takes a step back, Escape puts a checker down or closes the picker,
        and with the picker open the keys 1-6 enter the dice."""
        face = event.key() - Qt.Key.Key_0
        if self._picker_open and 1 <= face <= DIE_FACES:
            self._pick_die(0 if self._picked[0] is None else 1, face)
        elif event.key() == Qt.Key.Key_Backspace and self._accepts_clicks():
            self.undo_step()
        elif event.key() == Qt.Key.Key_Escape:
            self._selected = None
            self._close_picker()
            self.update()
        else:
            super().keyPressEvent(event)

    # ================================================================= painting
    def paint(self, painter: QPainter) -> None:
        geometry = self._geometry()
        painter.drawPixmap(0, 0, self._background(painter, geometry))
        if self._state is None:
            return
        self._paint_targets(painter, geometry)
        self._paint_checkers(painter, geometry)
        self._paint_borne_off(painter, geometry)
        self._paint_cube(painter, geometry)
        self._paint_dice(painter, geometry)
        self._paint_buttons(painter, geometry)
        self._paint_labels(painter, geometry)
        if (self._builder is None or not self._builder.steps) and not self._motion_hops:
            self._paint_last_move(painter, geometry)
        self._paint_best_move(painter, geometry)
        if self._picker_open:
            self._paint_picker(painter, geometry)

    def _background(self, painter: QPainter, geometry: _Geometry) -> QPixmap:
        """The parts that change only with the size and colours (frame, fields, trays,
        points, numbers), rendered once at the device's resolution."""
        ratio = painter.device().devicePixelRatioF()
        key = (self.width(), self.height(), ratio, self._colours)
        if self._background_cache is None or self._background_cache[0] != key:
            pixmap = QPixmap(math.ceil(self.width() * ratio), math.ceil(self.height() * ratio))
            pixmap.setDevicePixelRatio(ratio)
            pixmap.fill(QColor(self._colours.background))
            cached = QPainter(pixmap)
            cached.setRenderHint(QPainter.RenderHint.Antialiasing)
            cached.setRenderHint(QPainter.RenderHint.TextAntialiasing)
            self._paint_frame(cached, geometry)
            self._paint_points(cached, geometry)
            cached.end()
            self._background_cache = (key, pixmap)
        return self._background_cache[1]

    def _paint_frame(self, painter: QPainter, geometry: _Geometry) -> None:
        colours, unit = self._colours, geometry.unit
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(colours.frame))
        painter.drawRoundedRect(geometry.frame_rect, 0.25 * unit, 0.25 * unit)
        painter.setBrush(QColor(colours.field))
        painter.drawRect(geometry.left_field)
        painter.drawRect(geometry.right_field)
        painter.setBrush(QColor(colours.tray))
        for right in (False, True):
            for top in (False, True):
                painter.drawRect(geometry.tray(right, top))
        # a thin shadow line along the bar's edges
        painter.setPen(QPen(QColor(0, 0, 0, 60), max(1.0, 0.04 * unit)))
        painter.drawLine(geometry.bar.topLeft(), geometry.bar.bottomLeft())
        painter.drawLine(geometry.bar.topRight(), geometry.bar.bottomRight())
        # point numbers, from the bottom player's point of view
        painter.setFont(self._number_font(unit))
        painter.setPen(QColor(colours.frame_text))
        for point in range(1, POINTS + 1):
            column, top = geometry.point_column(point)
            if top:
                strip = QRectF(column.left(), geometry.frame_rect.top(), unit, geometry.number_strip)
            else:
                strip = QRectF(column.left(), geometry.field_bottom, unit, geometry.number_strip)
            painter.drawText(strip, Qt.AlignmentFlag.AlignCenter, str(point))

    @staticmethod
    def _number_font(unit: float) -> QFont:
        """The point numbers' font: bold while "24" leaves a quarter of a point free, then
        regular, then narrowed, so neighbouring numbers never run together on a small board."""
        font = text_font(0.36 * unit, bold=True)
        for bold, stretch in NUMBER_FONT_FALLBACKS:
            font.setBold(bold)
            font.setStretch(stretch)
            if QFontMetricsF(font).horizontalAdvance("24") <= NUMBER_WIDTH * unit:
                break
        return font

    def _paint_points(self, painter: QPainter, geometry: _Geometry) -> None:
        colours, unit = self._colours, geometry.unit
        painter.setPen(Qt.PenStyle.NoPen)
        for point in range(1, POINTS + 1):
            column, top = geometry.point_column(point)
            painter.setBrush(QColor(colours.points[point % 2]))
            painter.drawPolygon(self._triangle(column, top, unit))

    @staticmethod
    def _triangle(column: QRectF, top: bool, unit: float) -> QPolygonF:
        inset = 0.04 * unit
        length = TRIANGLE_LENGTH * unit
        if top:
            base_y, apex_y = column.top(), column.top() + length
        else:
            base_y, apex_y = column.bottom(), column.bottom() - length
        return QPolygonF(
            [
                QPointF(column.left() + inset, base_y),
                QPointF(column.right() - inset, base_y),
                QPointF(column.center().x(), apex_y),
            ]
        )

    def _paint_targets(self, painter: QPainter, geometry: _Geometry) -> None:
        """Highlight where the picked-up checker may go, and ring the checker itself."""
        builder = self._builder
        if builder is None or self._selected is None or not self._interactive:
            return
        unit = geometry.unit
        highlight = QColor(self._colours.highlight)
        fill = QColor(highlight)
        fill.setAlpha(190)
        boards = self._boards()
        mover = builder.mover
        for target in self.targets():
            if target == OFF:
                tray = geometry.tray(True, mover != self.bottom_player())
                painter.setPen(QPen(highlight, 0.08 * unit))
                painter.setBrush(fill)
                painter.drawRect(tray.adjusted(0.05 * unit, 0.05 * unit, -0.05 * unit, -0.05 * unit))
                continue
            screen = self._screen_point(mover, target)
            column, top = geometry.point_column(screen)
            outline = QPen(highlight, 0.07 * unit)
            outline.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
            painter.setPen(outline)
            painter.setBrush(fill)
            painter.drawPolygon(self._triangle(column, top, unit))
            # where the checker would land (on a blot it lands on the blot's place)
            mine = boards[mover][target]
            landing = geometry.slot(screen, mine)
            painter.setPen(QPen(highlight, 0.07 * unit, Qt.PenStyle.DashLine))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            radius = CHECKER * unit / 2 - 0.05 * unit
            painter.drawEllipse(landing, radius, radius)

    def _paint_checkers(self, painter: QPainter, geometry: _Geometry) -> None:
        unit = geometry.unit
        radius = CHECKER * unit / 2
        boards = self._boards()
        for player in (O, X):
            board = boards[player]
            for point in range(1, POINTS + 1):
                count = board[point]
                if not count:
                    continue
                screen = self._screen_point(player, point)
                for index in range(min(count, STACK_SHOWN)):
                    self._draw_checker(painter, geometry.slot(screen, index), radius, player)
                if count > STACK_SHOWN:
                    self._draw_count(painter, geometry.slot(screen, STACK_SHOWN - 1), radius, player, count)
            count = board[BAR]
            top = player != self.bottom_player()
            for index in range(min(count, STACK_SHOWN)):
                self._draw_checker(painter, geometry.bar_slot(top, index), radius, player)
            if count > STACK_SHOWN:
                self._draw_count(painter, geometry.bar_slot(top, STACK_SHOWN - 1), radius, player, count)
        if self._selected is not None and self._builder is not None and self._interactive:
            centre = self._checker_centre(geometry, self._builder.mover, self._selected, top_of_stack=True)
            painter.setPen(QPen(QColor(self._colours.selection), 0.12 * unit))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(centre, radius + 0.02 * unit, radius + 0.02 * unit)
            if self._drag_position is not None:
                painter.save()
                painter.setOpacity(0.85)
                self._draw_checker(painter, self._drag_position, radius, self._builder.mover)
                painter.restore()
        if self._motion_hops:
            mover, (source, target), lifted, fraction = self._motion_frame()
            start = self._checker_centre(geometry, mover, source, top_of_stack=False, boards=lifted)
            end = self._checker_centre(geometry, mover, target, top_of_stack=False, boards=lifted)
            if target != OFF and lifted[1 - mover][BAR - target] == 1:
                end = self._checker_centre(geometry, 1 - mover, BAR - target, top_of_stack=True, boards=lifted)
            control = _bow_control(geometry, start, end)
            rest = 1 - fraction  # along the same bow as the arrows
            moving = QPointF(
                rest * rest * start.x() + 2 * rest * fraction * control.x() + fraction * fraction * end.x(),
                rest * rest * start.y() + 2 * rest * fraction * control.y() + fraction * fraction * end.y(),
            )
            self._draw_checker(painter, moving, radius, mover)

    def _checker_centre(
        self, geometry: _Geometry, player: Player, point: int, *, top_of_stack: bool, boards: Sequence[Board] | None = None
    ) -> QPointF:
        """Centre of ``player``'s top checker on ``point`` (``top_of_stack``) or of the
        place the next one would take; the tray's centre for ``OFF``."""
        board = (boards or self._boards())[player]
        count = board[point]
        index = max(count - 1, 0) if top_of_stack else count
        bottom = player == self.bottom_player()
        if point == BAR:
            return geometry.bar_slot(not bottom, index)
        if point == OFF:
            return geometry.tray(True, not bottom).center()
        return geometry.slot(self._screen_point(player, point), index)

    def _draw_checker(self, painter: QPainter, centre: QPointF, radius: float, player: Player) -> None:
        """One checker, blitted from a sprite rendered once per size, colour and resolution."""
        ratio = painter.device().devicePixelRatioF()
        key = (player, round(radius * ratio * 4), ratio, self._colours)
        sprite = self._sprites.get(key)
        side = math.ceil(2 * radius * ratio) + 2
        if sprite is None:
            if len(self._sprites) > SPRITE_CACHE_SIZE:
                self._sprites.clear()
            sprite = QPixmap(side, side)
            sprite.setDevicePixelRatio(ratio)
            sprite.fill(Qt.GlobalColor.transparent)
            sprite_painter = QPainter(sprite)
            sprite_painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            middle = side / ratio / 2
            self._paint_checker(sprite_painter, QPointF(middle, middle), radius, player)
            sprite_painter.end()
            self._sprites[key] = sprite
        half = side / ratio / 2
        painter.drawPixmap(QPointF(centre.x() - half, centre.y() - half), sprite)

    def _paint_checker(self, painter: QPainter, centre: QPointF, radius: float, player: Player) -> None:
        colours = self._colours
        base = QColor(colours.checkers[player])
        gradient = QRadialGradient(centre.x() - 0.3 * radius, centre.y() - 0.35 * radius, 1.4 * radius)
        gradient.setColorAt(0.0, base.lighter(125))
        gradient.setColorAt(0.6, base)
        gradient.setColorAt(1.0, base.darker(118))
        painter.setPen(QPen(QColor(colours.checker_edges[player]), max(1.0, 0.07 * radius)))
        painter.setBrush(gradient)
        painter.drawEllipse(centre, radius - 0.03 * radius, radius - 0.03 * radius)
        ring = QColor(colours.checker_edges[player])
        ring.setAlpha(90)
        painter.setPen(QPen(ring, max(1.0, 0.06 * radius)))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawEllipse(centre, 0.66 * radius, 0.66 * radius)

    def _draw_count(self, painter: QPainter, centre: QPointF, radius: float, player: Player, count: int) -> None:
        painter.setFont(text_font(0.95 * radius, bold=True))
        painter.setPen(QColor(self._colours.checker_text[player]))
        box = QRectF(centre.x() - radius, centre.y() - radius, 2 * radius, 2 * radius)
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, str(count))

    def _paint_borne_off(self, painter: QPainter, geometry: _Geometry) -> None:
        """Borne-off checkers as slabs seen from the side, stacked from the tray's outer end."""
        unit = geometry.unit
        boards = self._boards()
        for player in (O, X):
            count = boards[player][OFF]
            if not count:
                continue
            top = player != self.bottom_player()
            tray = geometry.tray(True, top)
            base = QColor(self._colours.checkers[player])
            painter.setPen(QPen(QColor(self._colours.checker_edges[player]), max(1.0, 0.04 * unit)))
            painter.setBrush(base)
            slab = SLAB * unit
            for index in range(count):
                offset = 0.2 * unit + index * slab
                y = tray.top() + offset if top else tray.bottom() - offset - slab
                painter.drawRoundedRect(
                    QRectF(tray.left() + 0.12 * unit, y, tray.width() - 0.24 * unit, slab), 0.08 * unit, 0.08 * unit
                )

    def _cube_rect(self, geometry: _Geometry) -> QRectF:
        """Where the cube is: centred on the left side, or at its owner's end; an offered
        cube sits in the middle of the half opposite the decision buttons."""
        unit = geometry.unit
        state = self._shown
        text_width = QFontMetricsF(self._cube_font(unit, self._cube_face())).horizontalAdvance(str(self._cube_face()))
        side = max(CUBE * unit, text_width + 2 * CUBE_TEXT_PADDING * unit)
        if state.phase == TAKE_DECISION:
            centre = geometry.half_centre(not self._dice_on_right())
        else:
            x = geometry.left_tray_x + TRAY * unit / 2
            if state.cube_owner == CENTRED:
                y = geometry.middle
            elif state.cube_owner == self.bottom_player():
                y = geometry.field_bottom - 0.15 * unit - side / 2
            else:
                y = geometry.field_top + 0.15 * unit + side / 2
            centre = QPointF(x, y)
        return QRectF(centre.x() - side / 2, centre.y() - side / 2, side, side)

    def _cube_face(self) -> int:
        """The number on the cube: 64 while centred, the value offered during a take decision."""
        state = self._shown
        if state.phase == TAKE_DECISION:
            return state.cube_value * 2
        return CENTRED_CUBE_FACE if state.cube_owner == CENTRED else state.cube_value

    @staticmethod
    def _cube_font(unit: float, face: int) -> QFont:
        digits = len(str(face))
        size = 0.5 if digits <= 2 else 0.36 if digits <= 3 else 0.27
        return text_font(size * unit, bold=True)

    def _paint_cube(self, painter: QPainter, geometry: _Geometry) -> None:
        state = self._shown
        if not state.cube_enabled:
            return
        unit = geometry.unit
        rect = self._cube_rect(geometry)
        face = self._cube_face()
        painter.setPen(QPen(QColor(0, 0, 0, 140), max(1.0, 0.04 * unit)))
        painter.setBrush(QColor(self._colours.cube))
        painter.drawRoundedRect(rect, 0.14 * unit, 0.14 * unit)
        text = str(face)
        painter.setFont(self._cube_font(unit, face))
        painter.setPen(QColor(self._colours.cube_text))
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)

    def _paint_dice(self, painter: QPainter, geometry: _Geometry) -> None:
        """The roll being played, in the roller's colours; the dice used so far faded."""
        state = self._state
        assert state is not None
        if state.phase != CHECKER_PLAY:
            return  # no dice before the roll (with dice entry, the "Enter dice" button is there)
        used = self._builder.used_dice() if self._builder is not None else [False] * len(self._dice_values())
        for rect, value, is_used in zip(self._dice_rects(geometry), self._dice_values(), used):
            self._draw_die(painter, rect, value, state.player, faded=is_used)

    def _draw_die(self, painter: QPainter, rect: QRectF, value: int, player: Player, *, faded: bool = False) -> None:
        colours = self._colours
        painter.save()
        if faded:
            painter.setOpacity(0.3)
        side = rect.width()
        painter.setPen(QPen(QColor(colours.checker_edges[player]), max(1.0, 0.05 * side)))
        painter.setBrush(QColor(colours.checkers[player]))
        painter.drawRoundedRect(rect, 0.18 * side, 0.18 * side)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(colours.checker_text[player]))
        pip = 0.1 * side
        for dx, dy in _PIPS[value]:
            painter.drawEllipse(QPointF(rect.center().x() + dx * 0.27 * side, rect.center().y() + dy * 0.27 * side), pip, pip)
        painter.restore()

    def _paint_buttons(self, painter: QPainter, geometry: _Geometry) -> None:
        unit = geometry.unit
        colours = self._colours
        best = self._best_move if isinstance(self._best_move, str) or self._best_move == NO_MOVE else None
        for button in self._buttons(geometry):
            rect = button.rect
            painter.setPen(QPen(QColor(0, 0, 0, 110), max(1.0, 0.04 * unit)))
            painter.setBrush(QColor(colours.button))
            painter.drawRoundedRect(rect, 0.2 * unit, 0.2 * unit)
            if best is not None and button.key == best:
                painter.setPen(QPen(QColor(colours.best_move), 0.1 * unit))
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawRoundedRect(rect.adjusted(-0.06 * unit, -0.06 * unit, 0.06 * unit, 0.06 * unit), 0.24 * unit, 0.24 * unit)
            if button.key == UNDO_KEY:
                self._draw_undo_icon(painter, rect)
                continue
            painter.setFont(self._button_font(unit))
            painter.setPen(QColor(colours.button_text))
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, button.text)

    def _draw_undo_icon(self, painter: QPainter, rect: QRectF) -> None:
        """A counter-clockwise arrow."""
        side = rect.width()
        centre = rect.center()
        radius = 0.26 * side
        pen = QPen(QColor(self._colours.button_text), 0.08 * side)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        arc = QRectF(centre.x() - radius, centre.y() - radius, 2 * radius, 2 * radius)
        painter.drawArc(arc, 90 * 16, -270 * 16)
        # arrowhead at the arc's start (top), pointing left
        tip = QPointF(centre.x() - 0.12 * side, centre.y() - radius)
        painter.setBrush(QColor(self._colours.button_text))
        painter.setPen(Qt.PenStyle.NoPen)
        painter.drawPolygon(
            QPolygonF(
                [
                    tip,
                    QPointF(tip.x() + 0.16 * side, tip.y() - 0.12 * side),
                    QPointF(tip.x() + 0.16 * side, tip.y() + 0.12 * side),
                ]
            )
        )

    def _paint_labels(self, painter: QPainter, geometry: _Geometry) -> None:
        """Each player's name, pip count and checkers off, beside their side of the board."""
        unit = geometry.unit
        colours = self._colours
        state = self._state
        assert state is not None
        boards = (state.boards[O], state.boards[X]) if self._motion_hops else self._boards()  # no pips in flight
        decider = self._decider()
        for player in (O, X):
            band = geometry.top_band if player != self.bottom_player() else geometry.bottom_band
            board = boards[player]
            pips = sum(point * board[point] for point in range(1, BAR + 1))
            radius = 0.26 * unit
            marker = QPointF(band.left() + 0.55 * unit, band.center().y())
            self._draw_checker(painter, marker, radius, player)
            x = marker.x() + 0.5 * unit
            is_deciding = decider == player
            painter.setFont(text_font(0.42 * unit, bold=True))
            painter.setPen(QColor(colours.label_text))
            name = self._player_names[player]
            name_rect = QRectF(x, band.top(), 4.5 * unit, band.height())
            painter.drawText(name_rect, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, name)
            name_width = painter.fontMetrics().horizontalAdvance(name)
            details_left = x + name_width + 0.45 * unit
            status = self._status_text(player) if is_deciding or state.phase == GAME_OVER else ""
            status_font = text_font(0.38 * unit, bold=is_deciding)
            details_font = text_font(0.38 * unit)
            # On a narrow board the status keeps its words and the details give way:
            # first the checkers off, then the roll before the steps entered.
            room = band.right() - 0.4 * unit - details_left - 0.6 * unit
            details = f"pips {pips}    off {board[OFF]}"
            for candidate_details, candidate_status in (
                (details, status),
                (f"pips {pips}", status),
                (f"pips {pips}", status.split(":  ", 1)[-1]),
            ):
                details, status = candidate_details, candidate_status
                used = QFontMetricsF(details_font).horizontalAdvance(details) + QFontMetricsF(status_font).horizontalAdvance(status)
                if used <= room:
                    break
            painter.setFont(details_font)
            painter.setPen(QColor(colours.label_dim))
            painter.drawText(
                QRectF(details_left, band.top(), max(8 * unit, room), band.height()),
                Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                details,
            )
            if status:
                painter.setFont(status_font)
                painter.setPen(QColor(colours.label_text))
                painter.drawText(
                    band.adjusted(0, 0, -0.4 * unit, 0),
                    Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight,
                    status,
                )

    def _status_text(self, player: Player) -> str:
        state = self._shown
        phase = state.phase
        if phase == GAME_OVER:
            if player != state.game_winner:
                return ""
            multiplier = state.points // state.cube_value if not state.dropped else 1
            what = "wins (cube dropped)" if state.dropped else f"wins {RESULT_NAMES.get(multiplier, 'the game')}"
            plural = "s" if state.points != 1 else ""
            return f"{what}: {state.points} point{plural}"
        if phase == CHECKER_PLAY:
            builder = self._builder
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

    # ---------------------------------------------------------------- arrows
    def _hop_arrows(self, geometry: _Geometry, mover: Player, play: Play, boards: Sequence[Board]) -> Iterator[tuple[QPointF, QPointF]]:
        """Start and end of each hop of ``play`` made from ``boards`` (O's, X's), following
        the stacks as the hops change them."""
        working = [list(boards[O]), list(boards[X])]
        mine, theirs = working[mover], working[1 - mover]
        for source, target in play:
            start = self._checker_centre(geometry, mover, source, top_of_stack=True, boards=working)
            mine[source] -= 1
            if target != OFF and theirs[BAR - target] == 1:
                theirs[BAR - target] = 0
                theirs[BAR] += 1
            end = self._checker_centre(geometry, mover, target, top_of_stack=False, boards=working)
            mine[target] += 1
            yield start, end

    def _paint_best_move(self, painter: QPainter, geometry: _Geometry) -> None:
        move = self._best_move
        state = self._shown
        if state.phase != CHECKER_PLAY or not isinstance(move, tuple) or not move:
            return
        if move not in self.legal_moves():
            return
        boards = (state.boards[O], state.boards[X])
        for start, end in self._hop_arrows(geometry, state.player, move, boards):
            self._draw_arrow(painter, geometry, start, end, QColor(self._colours.best_move), 0.14)

    def _paint_last_move(self, painter: QPainter, geometry: _Geometry) -> None:
        found = self._last_play()
        if found is None:
            return
        mover, play, boards_before = found
        colour = QColor(self._colours.last_move)
        colour.setAlpha(150)
        for start, end in self._hop_arrows(geometry, mover, play, boards_before):
            self._draw_arrow(painter, geometry, start, end, colour, 0.07)

    def _last_play(self) -> tuple[Player, Play, tuple[Board, Board]] | None:
        """The checker play to mark as the last move: once ``set_last_move`` named one, the
        latest play in the state's history (after a roll or cube action that is still the
        play the player wants to see), with its mover and the boards before it (rebuilt by
        taking its hops back)."""
        if self._last_move is None:
            return None
        for snapshot, move, hits in reversed(self._shown.history):
            phase, player = snapshot[0], snapshot[1]
            if phase != CHECKER_PLAY:
                continue
            if not move or hits is None:
                return None
            return player, move, _boards_before(self._shown, player, move, hits)
        return None

    @staticmethod
    def _draw_arrow(
        painter: QPainter,
        geometry: _Geometry,
        start: QPointF,
        end: QPointF,
        colour: QColor,
        width: float,
    ) -> None:
        """An arrow from ``start`` to ``end``; along one row of points it bows toward the
        middle of the board so that it does not run over the checkers it passes."""
        unit = geometry.unit
        dx, dy = end.x() - start.x(), end.y() - start.y()
        if math.hypot(dx, dy) < 1e-6:
            return
        control = _bow_control(geometry, start, end)
        # the head points along the curve's last tangent
        tx, ty = end.x() - control.x(), end.y() - control.y()
        tangent = math.hypot(tx, ty) or 1.0
        ux, uy = tx / tangent, ty / tangent
        head = 0.42 * unit
        base = QPointF(end.x() - ux * head, end.y() - uy * head)
        shaft_end = QPointF(end.x() - ux * head * 0.8, end.y() - uy * head * 0.8)
        path = QPainterPath(start)
        path.quadTo(control, shaft_end)
        pen = QPen(colour, width * unit)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(path)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(colour)
        normal_x, normal_y = -uy, ux
        half = head * 0.5
        painter.drawPolygon(
            QPolygonF(
                [
                    end,
                    QPointF(base.x() + normal_x * half, base.y() + normal_y * half),
                    QPointF(base.x() - normal_x * half, base.y() - normal_y * half),
                ]
            )
        )

    # ---------------------------------------------------------------- picker
    def _paint_picker(self, painter: QPainter, geometry: _Geometry) -> None:
        unit = geometry.unit
        colours = self._colours
        panel, rows, close = self._picker_layout(geometry)
        painter.setPen(QPen(QColor(0, 0, 0, 120), max(1.0, 0.04 * unit)))
        painter.setBrush(QColor(colours.overlay))
        painter.drawRoundedRect(panel, 0.3 * unit, 0.3 * unit)
        painter.setPen(QColor(colours.button_text))
        painter.setFont(self._picker_title_font(unit))
        title = QRectF(panel.left() + 0.4 * unit, panel.top() + 0.2 * unit, panel.width() - 1.2 * unit, 0.7 * unit)
        opening = self._shown.phase == OPENING
        painter.drawText(title, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, self._picker_title())
        # close box: a cross
        pen = QPen(QColor(colours.button_text), 0.07 * unit)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        painter.setPen(pen)
        inset = close.width() * 0.22
        painter.drawLine(close.topLeft() + QPointF(inset, inset), close.bottomRight() - QPointF(inset, inset))
        painter.drawLine(close.topRight() + QPointF(-inset, inset), close.bottomLeft() + QPointF(inset, -inset))
        labels = self._picker_rows()
        roller = self._shown.player
        for row, rects in enumerate(rows):
            owner = (O if row == 0 else X) if opening else roller
            painter.setFont(text_font(PICKER_LABEL * unit))
            painter.setPen(QColor(colours.button_text))
            painter.drawText(
                QRectF(panel.left() + 0.4 * unit, rects[0].top(), rects[0].left() - panel.left(), rects[0].height()),
                Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                labels[row],
            )
            for face, rect in enumerate(rects, start=1):
                picked = self._picked[row] == face
                if picked:
                    painter.setPen(QPen(QColor(colours.selection), 0.1 * unit))
                    painter.setBrush(Qt.BrushStyle.NoBrush)
                    painter.drawRoundedRect(rect.adjusted(-0.08 * unit, -0.08 * unit, 0.08 * unit, 0.08 * unit), 0.2 * unit, 0.2 * unit)
                self._draw_die(painter, rect, face, owner)


def _bow_control(geometry: _Geometry, start: QPointF, end: QPointF) -> QPointF:
    """The control point of the quadratic curve from ``start`` to ``end``: straight across
    the board, but along one row of points bowed toward the middle, over the checkers."""
    control = QPointF((start.x() + end.x()) / 2, (start.y() + end.y()) / 2)
    dx, dy = end.x() - start.x(), end.y() - start.y()
    if abs(dy) < 1.5 * geometry.unit and abs(dx) > 1.5 * geometry.unit:
        toward_middle = -1.0 if control.y() > geometry.middle else 1.0
        control.setY(control.y() + toward_middle * min(0.35 * abs(dx), 2.4 * geometry.unit))
    return control


def _continues_without_play(previous: GameState | None, state: GameState | None) -> bool:
    """Whether ``state`` is ``previous`` (the same game) with nothing new but rolls and cube
    actions: no checker has moved, so what is sliding may go on sliding."""
    if not isinstance(previous, BackgammonState) or not isinstance(state, BackgammonState):
        return False
    old, new = previous.history, state.history
    if len(new) < len(old) or (old and new[len(old) - 1] != old[-1]):
        return False
    return all(snapshot[0] != CHECKER_PLAY or not move for snapshot, move, _ in new[len(old) :])


def _boards_before(state: BackgammonState, mover: Player, play: Play, hits: Sequence[bool]) -> tuple[Board, Board]:
    """O's and X's boards before ``play`` (the latest checker play of ``state``), rebuilt by
    taking its hops back."""
    before = (list(state.boards[O]), list(state.boards[X]))
    mine, theirs = before[mover], before[1 - mover]
    for (source, target), hit in zip(reversed(play), reversed(hits)):
        mine[target] -= 1
        mine[source] += 1
        if hit:
            theirs[BAR - target] = 1
            theirs[BAR] -= 1
    return before


def _apply_hop(boards: tuple[Board, Board], mover: Player, hop: Hop) -> None:
    source, target = hop
    mine, theirs = boards[mover], boards[1 - mover]
    mine[source] -= 1
    mine[target] += 1
    if target != OFF and theirs[BAR - target] == 1:
        theirs[BAR - target] = 0
        theirs[BAR] += 1


_PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}
"""Pip offsets of each die face, in units of a third of the face."""


__all__ = [
    "CONFIRM_KEY",
    "ENTER_DICE_KEY",
    "UNDO_KEY",
    "BackgammonBoard",
    "BoardColours",
]
