"""Where everything on the backgammon board is, for one widget size.

Every length is in *units*, the width of one point, so the board keeps its proportions at
any size; ``BoardGeometry`` turns units into pixels for a widget's width and height. The
only lengths in pixels are the minimums that keep text and dice readable on a small board.

The middle row (the dice of the roll being played and the buttons of the decision the board
waits for) is laid out here too, from what the board wants to show: ``middle_row``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QFont, QFontMetricsF

from games.backgammon.board import BAR, CHECKERS, OFF, POINTS, Board
from games.base import Player
from gui.boards.base import MIN_TEXT_PIXELS, text_font

# ------------------------------------------------------------------ the board's frame
FRAME = 0.3
"""The wooden frame between the fields and trays."""
TRAY = 1.3
"""Width of the bear-off trays (right) and of the cube's trays (left)."""
BAR_WIDTH = 1.1
"""Width of the bar between the two halves of the field."""
LABEL_BAND = 0.85
"""The strip above and below the board with each player's name, pips and checkers off."""
MATCH_BAND = 0.75
"""In a match, the strip above everything with the match line ("Match to 7 · O 3 – X 5 ·
Crawford game"); a money game has none."""
NUMBER_STRIP = 0.5
"""The frame strip above and below the fields where the point numbers are written."""
POINT_LENGTH = 5.0
"""Height of one half of the playing field (a point's triangle is a little shorter)."""
TRIANGLE_LENGTH = 4.55
"""Height of a point's triangle: shorter than the half field, so its tip stays clear of the
middle band."""
MIDDLE_GAP = 1.2
"""The empty band across the middle of the fields where the dice and buttons sit."""
HALF_POINTS = 6
"""Points in each quarter of the board (one half of a player's side of the field)."""
BOARD_WIDTH = 4 * FRAME + 2 * TRAY + 2 * HALF_POINTS + BAR_WIDTH
"""The whole board across: frames, both trays, two quarters of points and the bar."""
BOARD_HEIGHT = 2 * LABEL_BAND + 2 * NUMBER_STRIP + 2 * POINT_LENGTH + MIDDLE_GAP
"""The whole board down: both label bands, both number strips and the field."""
PREFERRED_UNIT_PIXELS = 44
"""A point's width at the board's preferred size."""
MINIMUM_UNIT_PIXELS = 20
"""A point's width at the board's minimum size."""
MIN_NUMBER_STRIP_PIXELS = 1.3 * MIN_TEXT_PIXELS
"""On a small board the strips with the point numbers keep room for readable text; the
fields shrink instead."""
MIN_LABEL_BAND_PIXELS = 1.7 * MIN_TEXT_PIXELS
"""On a small board the bands with the names and pip counts keep room for readable text;
the fields shrink instead."""

# ----------------------------------------------------------------------- checkers
CHECKER = 0.94
"""Checker diameter; stacks are drawn touching."""
STACK_SHOWN = 5
"""Checkers drawn on one point; a taller stack shows its count on the outermost one."""
BAR_CHECKER_GAP = 0.1
"""Room between the middle band and the first checker on the bar."""
SLAB_MARGIN = 0.2
"""Room between a tray's outer end and the first borne-off checker (and after the last)."""
SLAB = (POINT_LENGTH + MIDDLE_GAP / 2 - FRAME / 2 - 2 * SLAB_MARGIN) / CHECKERS
"""Thickness of one borne-off checker seen from the side in its tray: fifteen fill a tray's
length (half the field less half the frame between the trays) inside its margins."""

# ------------------------------------------------------------------- the middle row
DIE = 0.8
"""Side of a die of the roll being played."""
MIN_DIE_PIXELS = 16.0
"""Dice never drawn smaller than this, so their pips stay countable on a small board."""
MIN_GAP_SCALE = 0.2
"""How far the gaps between dice and buttons may close before the dice and buttons shrink."""
ROW_MARGIN = 0.15
"""Room between the middle row and the ends of its half of the field."""
DIE_SPACING = 0.3
"""Space between the two dice of a roll."""
DOUBLES_DIE_SPACING = 0.15
"""Space between the four dice of doubles (narrower, so the four fit beside a button)."""
BUTTON_GAP = 0.3
"""Space before a button (after the dice or another button)."""
UNDO_GAP = 0.2
"""Space between the row and the undo button at the half's end."""
BUTTON_HEIGHT = 0.85
"""Height of a button (and side of the square undo button)."""
BUTTON_WIDTH = 2.1
"""The narrowest a button is; a longer word widens it."""
BUTTON_TEXT_PADDING = 0.7
"""Room round a button's word, both sides together."""
BUTTON_TEXT = 0.38
"""Text height of the buttons' words (bold)."""
DICE_AREA_WIDTH = 5.6
"""Width of the area in the middle of a half where a click opens the dice picker."""

# ------------------------------------------------------------------------ the cube
CUBE = 0.95
"""Side of the doubling cube, when its number fits."""
CUBE_TEXT_PADDING = 0.25
"""Room round the cube's number, in units: a small board's cube grows to fit readable text."""
CUBE_INSET = 0.15
"""Room between an owned cube and the end of the field at its owner's side."""
CUBE_TEXT_SIZES = ((2, 0.5), (3, 0.36))
"""The cube number's text height by its digits: up to two, three; more digits use
``CUBE_SMALLEST_TEXT``."""
CUBE_SMALLEST_TEXT = 0.27
"""The cube number's text height with four or five digits (up to 32768)."""
CENTRED_CUBE_FACE = 64
"""A centred cube shows 64, as on a real board."""

# ------------------------------------------------------------------------- numbers
NUMBER_TEXT = 0.36
"""Text height of the point numbers (before the fallbacks narrow it)."""
NUMBER_WIDTH = 0.75
"""The widest a point number may be, in points: the rest keeps neighbours apart."""
NUMBER_FONT_FALLBACKS: tuple[tuple[bool, int], ...] = ((True, 100), (False, 100), (False, 87), (False, 75))
"""(bold, stretch %) tried in turn for the point numbers until "24" fits ``NUMBER_WIDTH``."""


def board_height(match_band: bool) -> float:
    """The whole board's height in units, with the match line's strip or without."""
    return BOARD_HEIGHT + (MATCH_BAND if match_band else 0.0)


class BoardGeometry:
    """Where everything is for one widget size: the unit, the fields, trays and bar."""

    def __init__(self, width: float, height: float, *, match_band: bool = False) -> None:
        """``match_band``: leave the match line's strip (``MATCH_BAND``) above the board."""
        total = board_height(match_band)
        unit = min(width / BOARD_WIDTH, height / total)
        fields = BOARD_HEIGHT - 2 * (LABEL_BAND + NUMBER_STRIP)
        strip = max(NUMBER_STRIP * unit, MIN_NUMBER_STRIP_PIXELS)
        band = max(LABEL_BAND * unit, MIN_LABEL_BAND_PIXELS)
        match = max(MATCH_BAND * unit, MIN_LABEL_BAND_PIXELS) if match_band else 0.0
        unit = max(1.0, min(unit, (height - 2 * (strip + band) - match) / fields))
        self.unit = unit
        """Pixels per unit (a point's width)."""
        self.number_strip = strip = max(NUMBER_STRIP * unit, MIN_NUMBER_STRIP_PIXELS)
        self.label_band = band = max(LABEL_BAND * unit, MIN_LABEL_BAND_PIXELS)
        match = max(MATCH_BAND * unit, MIN_LABEL_BAND_PIXELS) if match_band else 0.0
        self.left = (width - BOARD_WIDTH * unit) / 2
        self.top = (height - fields * unit - 2 * (strip + band) - match) / 2 + match
        self.match_band: QRectF | None = QRectF(self.left, self.top - match, BOARD_WIDTH * unit, match) if match_band else None
        """The match line's strip above the top label band (``None``: a money game)."""
        self.frame_rect = QRectF(self.left, self.top + band, BOARD_WIDTH * unit, fields * unit + 2 * strip)
        self.field_top = self.frame_rect.top() + strip
        self.field_height = (2 * POINT_LENGTH + MIDDLE_GAP) * unit
        self.field_bottom = self.field_top + self.field_height
        self.middle = self.field_top + self.field_height / 2
        x = self.left + FRAME * unit
        self.left_tray_x = x
        x += (TRAY + FRAME) * unit
        self.left_field = QRectF(x, self.field_top, HALF_POINTS * unit, self.field_height)
        x += HALF_POINTS * unit
        self.bar = QRectF(x, self.field_top, BAR_WIDTH * unit, self.field_height)
        x += BAR_WIDTH * unit
        self.right_field = QRectF(x, self.field_top, HALF_POINTS * unit, self.field_height)
        x += (HALF_POINTS + FRAME) * unit
        self.right_tray_x = x
        tray_height = (self.field_height - FRAME * unit) / 2
        self.tray_height = tray_height
        self.top_band = QRectF(self.left, self.top, BOARD_WIDTH * unit, band)
        self.bottom_band = QRectF(self.left, self.frame_rect.bottom(), BOARD_WIDTH * unit, band)

    def tray(self, right: bool, top: bool) -> QRectF:
        """A tray: the bear-off trays on the right, the cube's on the left."""
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
        offset = (MIDDLE_GAP / 2 + BAR_CHECKER_GAP + (index + 0.5) * CHECKER) * self.unit
        return QPointF(self.bar.center().x(), self.middle - offset if top else self.middle + offset)

    def half_centre(self, right: bool) -> QPointF:
        """The middle of the right or left half of the field."""
        field = self.right_field if right else self.left_field
        return QPointF(field.center().x(), self.middle)

    def dice_area(self, right: bool) -> QRectF:
        """Where the dice of the player on roll are (a click there opens the dice picker)."""
        centre = self.half_centre(right)
        unit = self.unit
        return QRectF(centre.x() - DICE_AREA_WIDTH / 2 * unit, centre.y() - MIDDLE_GAP * unit / 2, DICE_AREA_WIDTH * unit, MIDDLE_GAP * unit)


class BoardView:
    """The geometry seen with one player at the bottom: where each player's points,
    checkers, bar and tray are, and what a position on the widget points at."""

    def __init__(self, geometry: BoardGeometry, bottom: Player) -> None:
        self.geometry = geometry
        self.bottom = bottom
        """The player whose side is at the bottom (whose numbering the labels show)."""

    def is_top(self, player: Player) -> bool:
        """Whether ``player``'s side (label band, tray, bar checkers) is at the top."""
        return player != self.bottom

    def screen_point(self, player: Player, point: int) -> int:
        """``player``'s point in the bottom player's numbering."""
        return point if player == self.bottom else BAR - point

    def point_position(self, player: Player, point: int) -> QPointF:
        """The centre of ``point`` in ``player``'s numbering (1..24; 25 = that player's bar
        checkers; 0 = that player's bear-off tray): where a click picks or drops there."""
        geometry = self.geometry
        bottom = player == self.bottom
        if point == BAR:
            return geometry.bar_slot(not bottom, 0)
        if point == OFF:
            return geometry.tray(True, not bottom).center()
        column, _ = geometry.point_column(point if bottom else BAR - point)
        return column.center()

    def checker_centre(self, player: Player, point: int, boards: Sequence[Board], *, top_of_stack: bool) -> QPointF:
        """Centre of ``player``'s top checker on ``point`` (``top_of_stack``) or of the
        place the next one would take, with ``boards`` (O's, X's) on the board; the tray's
        centre for ``OFF``."""
        geometry = self.geometry
        count = boards[player][point]
        index = max(count - 1, 0) if top_of_stack else count
        bottom = player == self.bottom
        if point == BAR:
            return geometry.bar_slot(not bottom, index)
        if point == OFF:
            return geometry.tray(True, not bottom).center()
        return geometry.slot(self.screen_point(player, point), index)

    def location(self, mover: Player, position: QPointF) -> int | None:
        """What a click at ``position`` points at, in ``mover``'s numbering: a point, the
        bar (25) or the mover's tray (0); ``None`` elsewhere."""
        geometry = self.geometry
        bottom = mover == self.bottom
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


def cube_rect(geometry: BoardGeometry, text_width: float, offered_right: bool | None, owner_top: bool | None) -> QRectF:
    """Where the cube is: an offered cube in the middle of the half ``offered_right`` says
    (the half opposite the decision buttons); otherwise in the left trays, centred
    (``owner_top`` None) or at its owner's end. It grows to fit its number's ``text_width``."""
    unit = geometry.unit
    side = max(CUBE * unit, text_width + 2 * CUBE_TEXT_PADDING * unit)
    if offered_right is not None:
        centre = geometry.half_centre(offered_right)
    else:
        x = geometry.left_tray_x + TRAY * unit / 2
        if owner_top is None:
            y = geometry.middle
        elif not owner_top:
            y = geometry.field_bottom - CUBE_INSET * unit - side / 2
        else:
            y = geometry.field_top + CUBE_INSET * unit + side / 2
        centre = QPointF(x, y)
    return QRectF(centre.x() - side / 2, centre.y() - side / 2, side, side)


def number_font(unit: float) -> QFont:
    """The point numbers' font: bold while "24" leaves a quarter of a point free, then
    regular, then narrowed, so neighbouring numbers never run together on a small board."""
    font = text_font(NUMBER_TEXT * unit, bold=True)
    for bold, stretch in NUMBER_FONT_FALLBACKS:
        font.setBold(bold)
        font.setStretch(stretch)
        if QFontMetricsF(font).horizontalAdvance("24") <= NUMBER_WIDTH * unit:
            break
    return font


def button_font(unit: float) -> QFont:
    """The buttons' words."""
    return text_font(BUTTON_TEXT * unit, bold=True)


def cube_font(unit: float, face: int) -> QFont:
    """The cube's number, smaller as it has more digits."""
    digits = len(str(face))
    size = next((size for most, size in CUBE_TEXT_SIZES if digits <= most), CUBE_SMALLEST_TEXT)
    return text_font(size * unit, bold=True)


@dataclass(frozen=True)
class Button:
    """A button drawn on the board."""

    key: Any
    """What a click means: a cube action, ``NO_MOVE``, or one of the ``*_KEY`` names."""
    text: str
    rect: QRectF


def middle_row(
    geometry: BoardGeometry,
    right: bool,
    dice: int,
    buttons: Sequence[tuple[Any, str, float]],
    undo: Any | None,
    undo_reserved: bool,
) -> tuple[list[QRectF], list[Button]]:
    """The ``dice`` dice and the ``buttons`` ((key, text, text width) each), one row centred
    in the right or left half, shrunk to fit if need be. While the player enters a turn
    (``undo_reserved``) the undo button has a fixed place at the half's end, so the dice
    never move; it is shown when ``undo`` (its key) is given."""
    unit = geometry.unit
    half = geometry.right_field if right else geometry.left_field
    centre_y = geometry.middle
    margin = ROW_MARGIN * unit
    area_left, area_right = half.left() + margin, half.right() - margin
    undo_rect: QRectF | None = None
    if undo_reserved:
        side = BUTTON_HEIGHT * unit
        undo_rect = QRectF(area_right - side, centre_y - side / 2, side, side)
        area_right = undo_rect.left() - UNDO_GAP * unit
    die_spacing = (DOUBLES_DIE_SPACING if dice == 4 else DIE_SPACING) * unit
    gap = BUTTON_GAP * unit
    widths: list[float] = [max(DIE * unit, MIN_DIE_PIXELS)] * dice + [
        max(BUTTON_WIDTH * unit, text_width + BUTTON_TEXT_PADDING * unit) for _, _, text_width in buttons
    ]
    # the space before item i + 1: between dice a narrow one, else a button's gap
    spacings = [die_spacing if index < dice else gap for index in range(1, len(widths))]
    # a row too wide for the half closes its gaps first; dice and buttons (whose text
    # must stay readable) shrink only on a board below its minimum size
    room, items, gaps = area_right - area_left, sum(widths), sum(spacings)
    gap_scale = min(1.0, max(MIN_GAP_SCALE, (room - items) / gaps)) if gaps else 1.0
    scale = min(1.0, room / (items + gaps * gap_scale)) if items else 1.0
    total = (items + gaps * gap_scale) * scale
    x = (area_left + area_right) / 2 - total / 2
    dice_rects: list[QRectF] = []
    button_list: list[Button] = []
    for index, width in enumerate(widths):
        width *= scale
        if index < dice:
            dice_rects.append(QRectF(x, centre_y - width / 2, width, width))
        else:
            key, text, _ = buttons[index - dice]
            rect = QRectF(x, centre_y - BUTTON_HEIGHT * unit / 2, width, BUTTON_HEIGHT * unit)
            button_list.append(Button(key, text, rect))
        x += width + (spacings[index] * gap_scale * scale if index < len(spacings) else 0.0)
    if undo_rect is not None and undo is not None:
        button_list.append(Button(undo, "", undo_rect))
    return dice_rects, button_list


__all__ = [
    "BOARD_HEIGHT",
    "BOARD_WIDTH",
    "BoardGeometry",
    "BoardView",
    "Button",
    "button_font",
    "cube_font",
    "cube_rect",
    "middle_row",
    "number_font",
]
