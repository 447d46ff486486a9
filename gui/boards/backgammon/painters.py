"""The backgammon board's painters: each draws one kind of thing from plain values.

A painter gets the ``QPainter``, where things are (``layout``), the palette (``colours``)
and what to draw; it never reads the widget, so the widget decides *what* is shown and the
painters only *how*. Proportions are in units (a point's width), named below.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QPainter, QPainterPath, QPen, QPixmap, QPolygonF, QRadialGradient

from games.backgammon.board import BAR, OFF, POINTS, Board, Play, O, X
from games.base import Player
from gui.boards.backgammon.colours import BoardColours
from gui.boards.backgammon.layout import (
    CHECKER,
    SLAB,
    SLAB_MARGIN,
    STACK_SHOWN,
    TRIANGLE_LENGTH,
    BoardGeometry,
    BoardView,
    Button,
    button_font,
    cube_font,
    number_font,
)
from gui.boards.base import text_font

# ------------------------------------------------------------------------ proportions
MIN_PEN_PIXELS = 1.0
"""Edges and lines are never thinner than a pixel, so they stay visible on a small board."""
FRAME_CORNER = 0.25
"""Corner radius of the wooden frame."""
BAR_SHADOW = 0.04
"""Width of the thin shadow line along each edge of the bar."""
POINT_INSET = 0.04
"""Room between neighbouring triangles at their bases."""
TARGET_OUTLINE = 0.07
"""Pen width of a lit destination's outline and of the ring where the checker would land."""
TARGET_TRAY_OUTLINE = 0.08
"""Pen width of a lit tray's outline (bearing off)."""
TARGET_TRAY_INSET = 0.05
"""Room between a lit tray's outline and the tray's edge."""
TARGET_RING_INSET = 0.05
"""How much smaller than a checker the dashed landing ring is."""
SELECTION_RING = 0.12
"""Pen width of the ring round the picked-up checker."""
SELECTION_RING_GAP = 0.02
"""Room between the picked-up checker and its ring."""
DRAGGED_OPACITY = 0.85
"""A dragged checker is a little transparent, so what it passes over shows."""
CHECKER_EDGE = 0.07
"""A checker's edge, in checker radii (at least one pixel)."""
CHECKER_INSET = 0.03
"""How far a checker's edge sits inside its radius, in radii (the pen stays inside)."""
CHECKER_RING = 0.66
"""Radius of the turned ring on a checker's face, in radii."""
CHECKER_RING_PEN = 0.06
"""Pen width of that ring, in radii (at least one pixel)."""
CHECKER_HIGHLIGHT = (0.3, 0.35, 1.4)
"""The checker's light: the gradient's centre left and up of the middle (in radii) and its
radius (in radii)."""
COUNT_TEXT = 0.95
"""Text height of a tall stack's count, in checker radii."""
SPRITE_CACHE_SIZE = 32
"""Checker sprites kept (two players at a few sizes and resolutions)."""
SPRITE_SIZE_STEPS = 4
"""Sprites are rendered per quarter device pixel of radius."""
SLAB_EDGE = 0.04
"""Pen width of a borne-off checker's edge."""
SLAB_SIDE_INSET = 0.12
"""Room between a borne-off checker and the tray's sides."""
SLAB_CORNER = 0.08
"""Corner radius of a borne-off checker."""
CUBE_EDGE = 0.04
"""Pen width of the cube's edge."""
CUBE_CORNER = 0.14
"""Corner radius of the cube."""
DIE_EDGE = 0.05
"""Pen width of a die's edge, in die sides (at least one pixel)."""
DIE_CORNER = 0.18
"""Corner radius of a die, in die sides."""
PIP_RADIUS = 0.1
"""Radius of a pip, in die sides."""
PIP_SPACING = 0.27
"""From a die's centre to the next row or column of pips, in die sides."""
USED_DIE_OPACITY = 0.3
"""A die already used in the turn being entered is drawn faded."""
DEAD_CUBE_OPACITY = 0.25
"""Opacity of the cube while nobody may turn it (the Crawford game, a dead cube)."""
MATCH_TEXT = 0.4
"""Text height of the match line."""
MATCH_TEXT_SMALLEST = 0.3
"""The match line shrinks to this before it drops its least needed parts."""
MATCH_SEPARATOR = " · "
"""Between the parts of the match line."""
BUTTON_EDGE = 0.04
"""Pen width of a button's edge."""
BUTTON_CORNER = 0.2
"""Corner radius of a button."""
BEST_BUTTON_RING = 0.1
"""Pen width of the ring round the button the engine suggests."""
BEST_BUTTON_GAP = 0.06
"""Room between a button and the ring round it."""
BEST_BUTTON_CORNER = 0.24
"""Corner radius of that ring."""
UNDO_ARC = 0.26
"""Radius of the undo arrow's arc, in button sides."""
UNDO_PEN = 0.08
"""Pen width of the undo arrow, in button sides."""
UNDO_HEAD_OFFSET = 0.12
"""How far left of the centre the undo arrow's head points, in button sides."""
UNDO_HEAD = (0.16, 0.12)
"""The undo arrow's head: its length and half its width, in button sides."""
MARKER_RADIUS = 0.26
"""Radius of the small checker before a player's name."""
MARKER_LEFT = 0.55
"""From the label band's left end to that checker's centre."""
NAME_LEFT = 0.5
"""From that checker's centre to the player's name."""
NAME_TEXT = 0.42
"""Text height of a player's name (bold)."""
NAME_WIDTH = 4.5
"""Room for a player's name."""
DETAILS_TEXT = 0.38
"""Text height of the pip count, the checkers off and the status."""
DETAILS_GAP = 0.45
"""Space between a player's name and the details after it."""
LABEL_END = 0.4
"""Room between the status and the band's right end."""
STATUS_GAP = 0.6
"""The least space between the details and the status."""
DETAILS_MIN_WIDTH = 8
"""The details' text box is at least this wide."""
ARROW_HEAD = 0.42
"""Length of an arrow's head."""
ARROW_SHAFT_END = 0.8
"""Where the shaft stops under the head, in head lengths from the tip (so the round cap
hides under the head)."""
ARROW_HEAD_WIDTH = 0.5
"""Half the head's width, in head lengths."""
ARROW_MIN_LENGTH = 1e-6
"""An arrow shorter than this (in pixels) is not drawn: it has no direction."""
BOW_ROW = 1.5
"""A hop whose ends are less than this apart vertically and more horizontally runs along
one row of points, and its arrow bows toward the middle."""
BOW_DEPTH = 0.35
"""How far an arrow bows, as a fraction of its length across."""
BOW_MAX = 2.4
"""The farthest an arrow bows."""
SHADOW = QColor(0, 0, 0, 60)
"""The bar's shadow lines."""
BUTTON_SHADOW = QColor(0, 0, 0, 110)
"""A button's edge."""
CUBE_SHADOW = QColor(0, 0, 0, 140)
"""The cube's edge."""
TARGET_FILL_ALPHA = 190
"""Opacity of a lit destination's fill (of 255)."""
CHECKER_RING_ALPHA = 90
"""Opacity of the ring on a checker's face (of 255)."""
CHECKER_FULL_COLOUR = 0.6
"""Where the checker's gradient reaches the player's colour (from its light, 0, to its edge, 1)."""
CHECKER_LIGHTER = 125
"""The gradient's light end, as a ``QColor.lighter`` factor (%)."""
CHECKER_DARKER = 118
"""The gradient's dark end (the checker's rim), as a ``QColor.darker`` factor (%)."""


PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}
"""Pip offsets of each die face, in steps of ``PIP_SPACING``."""


# ------------------------------------------------------------------ the background
class BackgroundCache:
    """The parts that change only with the size and colours (frame, fields, trays,
    points, numbers), rendered once at the device's resolution."""

    def __init__(self) -> None:
        self._cached: tuple[tuple[Any, ...], QPixmap] | None = None

    def pixmap(self, painter: QPainter, geometry: BoardGeometry, width: int, height: int, colours: BoardColours) -> QPixmap:
        ratio = painter.device().devicePixelRatioF()
        key = (width, height, ratio, colours, geometry.match_band is not None)
        if self._cached is None or self._cached[0] != key:
            pixmap = QPixmap(math.ceil(width * ratio), math.ceil(height * ratio))
            pixmap.setDevicePixelRatio(ratio)
            pixmap.fill(QColor(colours.background))
            cached = QPainter(pixmap)
            cached.setRenderHint(QPainter.RenderHint.Antialiasing)
            cached.setRenderHint(QPainter.RenderHint.TextAntialiasing)
            paint_frame(cached, geometry, colours)
            paint_points(cached, geometry, colours)
            cached.end()
            self._cached = (key, pixmap)
        return self._cached[1]


def paint_frame(painter: QPainter, geometry: BoardGeometry, colours: BoardColours) -> None:
    """The frame, the fields, the trays, the bar's edges and the point numbers (from the
    bottom player's point of view)."""
    unit = geometry.unit
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(colours.frame))
    painter.drawRoundedRect(geometry.frame_rect, FRAME_CORNER * unit, FRAME_CORNER * unit)
    painter.setBrush(QColor(colours.field))
    painter.drawRect(geometry.left_field)
    painter.drawRect(geometry.right_field)
    painter.setBrush(QColor(colours.tray))
    for right in (False, True):
        for top in (False, True):
            painter.drawRect(geometry.tray(right, top))
    painter.setPen(QPen(SHADOW, max(MIN_PEN_PIXELS, BAR_SHADOW * unit)))
    painter.drawLine(geometry.bar.topLeft(), geometry.bar.bottomLeft())
    painter.drawLine(geometry.bar.topRight(), geometry.bar.bottomRight())
    painter.setFont(number_font(unit))
    painter.setPen(QColor(colours.frame_text))
    for point in range(1, POINTS + 1):
        column, top = geometry.point_column(point)
        if top:
            strip = QRectF(column.left(), geometry.frame_rect.top(), unit, geometry.number_strip)
        else:
            strip = QRectF(column.left(), geometry.field_bottom, unit, geometry.number_strip)
        painter.drawText(strip, Qt.AlignmentFlag.AlignCenter, str(point))


def paint_points(painter: QPainter, geometry: BoardGeometry, colours: BoardColours) -> None:
    """The 24 triangles, alternating in the two point colours."""
    unit = geometry.unit
    painter.setPen(Qt.PenStyle.NoPen)
    for point in range(1, POINTS + 1):
        column, top = geometry.point_column(point)
        painter.setBrush(QColor(colours.points[point % 2]))
        painter.drawPolygon(triangle(column, top, unit))


def triangle(column: QRectF, top: bool, unit: float) -> QPolygonF:
    """The triangle of the point in ``column``, pointing down from the top edge or up
    from the bottom one."""
    inset = POINT_INSET * unit
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


# ------------------------------------------------------------------------ checkers
class CheckerSprites:
    """Checkers blitted from sprites rendered once per size, colour and resolution."""

    def __init__(self) -> None:
        self._sprites: dict[tuple[Any, ...], QPixmap] = {}

    def draw(self, painter: QPainter, centre: QPointF, radius: float, player: Player, colours: BoardColours) -> None:
        """One of ``player``'s checkers of ``radius`` centred on ``centre``."""
        ratio = painter.device().devicePixelRatioF()
        key = (player, round(radius * ratio * SPRITE_SIZE_STEPS), ratio, colours)
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
            paint_checker(sprite_painter, QPointF(middle, middle), radius, player, colours)
            sprite_painter.end()
            self._sprites[key] = sprite
        half = side / ratio / 2
        painter.drawPixmap(QPointF(centre.x() - half, centre.y() - half), sprite)


def paint_checker(painter: QPainter, centre: QPointF, radius: float, player: Player, colours: BoardColours) -> None:
    """A checker: lit from the top left, with an edge and a turned ring on its face."""
    base = QColor(colours.checkers[player])
    light_x, light_y, light_radius = CHECKER_HIGHLIGHT
    gradient = QRadialGradient(centre.x() - light_x * radius, centre.y() - light_y * radius, light_radius * radius)
    gradient.setColorAt(0.0, base.lighter(CHECKER_LIGHTER))
    gradient.setColorAt(CHECKER_FULL_COLOUR, base)
    gradient.setColorAt(1.0, base.darker(CHECKER_DARKER))
    painter.setPen(QPen(QColor(colours.checker_edges[player]), max(MIN_PEN_PIXELS, CHECKER_EDGE * radius)))
    painter.setBrush(gradient)
    painter.drawEllipse(centre, radius - CHECKER_INSET * radius, radius - CHECKER_INSET * radius)
    ring = QColor(colours.checker_edges[player])
    ring.setAlpha(CHECKER_RING_ALPHA)
    painter.setPen(QPen(ring, max(MIN_PEN_PIXELS, CHECKER_RING_PEN * radius)))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawEllipse(centre, CHECKER_RING * radius, CHECKER_RING * radius)


def draw_count(painter: QPainter, centre: QPointF, radius: float, colours: BoardColours, player: Player, count: int) -> None:
    """The height of a stack taller than ``STACK_SHOWN``, on its outermost checker."""
    painter.setFont(text_font(COUNT_TEXT * radius, bold=True))
    painter.setPen(QColor(colours.checker_text[player]))
    box = QRectF(centre.x() - radius, centre.y() - radius, 2 * radius, 2 * radius)
    painter.drawText(box, Qt.AlignmentFlag.AlignCenter, str(count))


def paint_checkers(
    painter: QPainter, view: BoardView, colours: BoardColours, sprites: CheckerSprites, boards: Sequence[Board]
) -> None:
    """Both players' checkers on the points and the bar, stacks of more than
    ``STACK_SHOWN`` with their count."""
    geometry = view.geometry
    radius = CHECKER * geometry.unit / 2
    for player in (O, X):
        board = boards[player]
        for point in range(1, POINTS + 1):
            count = board[point]
            if not count:
                continue
            screen = view.screen_point(player, point)
            for index in range(min(count, STACK_SHOWN)):
                sprites.draw(painter, geometry.slot(screen, index), radius, player, colours)
            if count > STACK_SHOWN:
                draw_count(painter, geometry.slot(screen, STACK_SHOWN - 1), radius, colours, player, count)
        count = board[BAR]
        top = view.is_top(player)
        for index in range(min(count, STACK_SHOWN)):
            sprites.draw(painter, geometry.bar_slot(top, index), radius, player, colours)
        if count > STACK_SHOWN:
            draw_count(painter, geometry.bar_slot(top, STACK_SHOWN - 1), radius, colours, player, count)


def paint_selection(
    painter: QPainter,
    view: BoardView,
    colours: BoardColours,
    sprites: CheckerSprites,
    mover: Player,
    source: int,
    boards: Sequence[Board],
    dragged_to: QPointF | None,
) -> None:
    """A ring round the picked-up checker on ``source``, and the checker itself where it
    is being dragged (``dragged_to``)."""
    unit = view.geometry.unit
    radius = CHECKER * unit / 2
    centre = view.checker_centre(mover, source, boards, top_of_stack=True)
    painter.setPen(QPen(QColor(colours.selection), SELECTION_RING * unit))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawEllipse(centre, radius + SELECTION_RING_GAP * unit, radius + SELECTION_RING_GAP * unit)
    if dragged_to is not None:
        painter.save()
        painter.setOpacity(DRAGGED_OPACITY)
        sprites.draw(painter, dragged_to, radius, mover, colours)
        painter.restore()


def paint_sliding_checker(
    painter: QPainter,
    view: BoardView,
    colours: BoardColours,
    sprites: CheckerSprites,
    mover: Player,
    hop: tuple[int, int],
    lifted: Sequence[Board],
    fraction: float,
) -> None:
    """The checker of ``hop`` ``fraction`` of the way along its bow (``lifted``: the boards
    without it); onto a blot it slides to the blot's place."""
    geometry = view.geometry
    radius = CHECKER * geometry.unit / 2
    source, target = hop
    start = view.checker_centre(mover, source, lifted, top_of_stack=False)
    end = view.checker_centre(mover, target, lifted, top_of_stack=False)
    if target != OFF and lifted[1 - mover][BAR - target] == 1:
        end = view.checker_centre(1 - mover, BAR - target, lifted, top_of_stack=True)
    control = bow_control(geometry, start, end)
    rest = 1 - fraction  # along the same bow as the arrows
    moving = QPointF(
        rest * rest * start.x() + 2 * rest * fraction * control.x() + fraction * fraction * end.x(),
        rest * rest * start.y() + 2 * rest * fraction * control.y() + fraction * fraction * end.y(),
    )
    sprites.draw(painter, moving, radius, mover, colours)


def paint_targets(
    painter: QPainter, view: BoardView, colours: BoardColours, mover: Player, targets: Sequence[int], boards: Sequence[Board]
) -> None:
    """Light the points (or the tray) the picked-up checker may go to, each with a dashed
    ring where it would land (on a blot it lands on the blot's place)."""
    geometry = view.geometry
    unit = geometry.unit
    highlight = QColor(colours.highlight)
    fill = QColor(highlight)
    fill.setAlpha(TARGET_FILL_ALPHA)
    for target in targets:
        if target == OFF:
            tray = geometry.tray(True, view.is_top(mover))
            inset = TARGET_TRAY_INSET * unit
            painter.setPen(QPen(highlight, TARGET_TRAY_OUTLINE * unit))
            painter.setBrush(fill)
            painter.drawRect(tray.adjusted(inset, inset, -inset, -inset))
            continue
        screen = view.screen_point(mover, target)
        column, top = geometry.point_column(screen)
        outline = QPen(highlight, TARGET_OUTLINE * unit)
        outline.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        painter.setPen(outline)
        painter.setBrush(fill)
        painter.drawPolygon(triangle(column, top, unit))
        landing = geometry.slot(screen, boards[mover][target])
        painter.setPen(QPen(highlight, TARGET_OUTLINE * unit, Qt.PenStyle.DashLine))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        radius = CHECKER * unit / 2 - TARGET_RING_INSET * unit
        painter.drawEllipse(landing, radius, radius)


def paint_borne_off(painter: QPainter, view: BoardView, colours: BoardColours, boards: Sequence[Board]) -> None:
    """Borne-off checkers as slabs seen from the side, stacked from the tray's outer end."""
    geometry = view.geometry
    unit = geometry.unit
    for player in (O, X):
        count = boards[player][OFF]
        if not count:
            continue
        top = view.is_top(player)
        tray = geometry.tray(True, top)
        base = QColor(colours.checkers[player])
        painter.setPen(QPen(QColor(colours.checker_edges[player]), max(MIN_PEN_PIXELS, SLAB_EDGE * unit)))
        painter.setBrush(base)
        slab = SLAB * unit
        for index in range(count):
            offset = SLAB_MARGIN * unit + index * slab
            y = tray.top() + offset if top else tray.bottom() - offset - slab
            painter.drawRoundedRect(
                QRectF(tray.left() + SLAB_SIDE_INSET * unit, y, tray.width() - 2 * SLAB_SIDE_INSET * unit, slab),
                SLAB_CORNER * unit,
                SLAB_CORNER * unit,
            )


# ------------------------------------------------------------------ cube and dice
def paint_cube(
    painter: QPainter, geometry: BoardGeometry, colours: BoardColours, rect: QRectF, face: int, *, dead: bool = False
) -> None:
    """The doubling cube in ``rect`` showing ``face``; ``dead``: greyed out, as the cube is
    out of play in the Crawford game of a match, or when it already wins the match for
    whoever could turn it."""
    unit = geometry.unit
    painter.save()
    if dead:
        painter.setOpacity(DEAD_CUBE_OPACITY)
    painter.setPen(QPen(CUBE_SHADOW, max(MIN_PEN_PIXELS, CUBE_EDGE * unit)))
    painter.setBrush(QColor(colours.cube))
    painter.drawRoundedRect(rect, CUBE_CORNER * unit, CUBE_CORNER * unit)
    painter.setFont(cube_font(unit, face))
    painter.setPen(QColor(colours.cube_text))
    painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, str(face))
    painter.restore()


def draw_die(
    painter: QPainter, rect: QRectF, value: int, colours: BoardColours, player: Player, *, faded: bool = False
) -> None:
    """A die showing ``value`` in ``player``'s colours (faded: already used)."""
    painter.save()
    if faded:
        painter.setOpacity(USED_DIE_OPACITY)
    side = rect.width()
    painter.setPen(QPen(QColor(colours.checker_edges[player]), max(MIN_PEN_PIXELS, DIE_EDGE * side)))
    painter.setBrush(QColor(colours.checkers[player]))
    painter.drawRoundedRect(rect, DIE_CORNER * side, DIE_CORNER * side)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(colours.checker_text[player]))
    pip = PIP_RADIUS * side
    for dx, dy in PIPS[value]:
        painter.drawEllipse(
            QPointF(rect.center().x() + dx * PIP_SPACING * side, rect.center().y() + dy * PIP_SPACING * side), pip, pip
        )
    painter.restore()


# ------------------------------------------------------------------------ buttons
def paint_buttons(
    painter: QPainter, geometry: BoardGeometry, colours: BoardColours, buttons: Sequence[Button], best: Any, undo_key: Any
) -> None:
    """The buttons, the one whose key is ``best`` (the engine's choice) ringed; the button
    keyed ``undo_key`` shows an arrow instead of a word."""
    unit = geometry.unit
    for button in buttons:
        rect = button.rect
        painter.setPen(QPen(BUTTON_SHADOW, max(MIN_PEN_PIXELS, BUTTON_EDGE * unit)))
        painter.setBrush(QColor(colours.button))
        painter.drawRoundedRect(rect, BUTTON_CORNER * unit, BUTTON_CORNER * unit)
        if best is not None and button.key == best:
            gap = BEST_BUTTON_GAP * unit
            painter.setPen(QPen(QColor(colours.best_move), BEST_BUTTON_RING * unit))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(rect.adjusted(-gap, -gap, gap, gap), BEST_BUTTON_CORNER * unit, BEST_BUTTON_CORNER * unit)
        if button.key == undo_key:
            draw_undo_icon(painter, rect, QColor(colours.button_text))
            continue
        painter.setFont(button_font(unit))
        painter.setPen(QColor(colours.button_text))
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, button.text)


def draw_undo_icon(painter: QPainter, rect: QRectF, colour: QColor) -> None:
    """A counter-clockwise arrow, its head at the arc's start (top), pointing left."""
    side = rect.width()
    centre = rect.center()
    radius = UNDO_ARC * side
    pen = QPen(colour, UNDO_PEN * side)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    painter.setPen(pen)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    arc = QRectF(centre.x() - radius, centre.y() - radius, 2 * radius, 2 * radius)
    painter.drawArc(arc, 90 * 16, -270 * 16)  # Qt's angles are in 1/16 degree
    tip = QPointF(centre.x() - UNDO_HEAD_OFFSET * side, centre.y() - radius)
    length, half_width = UNDO_HEAD
    painter.setBrush(colour)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.drawPolygon(
        QPolygonF(
            [
                tip,
                QPointF(tip.x() + length * side, tip.y() - half_width * side),
                QPointF(tip.x() + length * side, tip.y() + half_width * side),
            ]
        )
    )


# ------------------------------------------------------------------------- labels
@dataclass(frozen=True)
class PlayerLabel:
    """What the band beside a player's side says."""

    player: Player
    top: bool
    """The band above the board (else below)."""
    name: str
    pips: int
    off: int
    status: str
    """What the player is to do, or the result ("" when nothing)."""
    deciding: bool
    """The board waits for this player: the status is bold."""


def paint_labels(
    painter: QPainter, geometry: BoardGeometry, colours: BoardColours, sprites: CheckerSprites, labels: Sequence[PlayerLabel]
) -> None:
    """Each player's checker, name, pip count and checkers off, and the status at the right."""
    unit = geometry.unit
    for label in labels:
        band = geometry.top_band if label.top else geometry.bottom_band
        radius = MARKER_RADIUS * unit
        marker = QPointF(band.left() + MARKER_LEFT * unit, band.center().y())
        sprites.draw(painter, marker, radius, label.player, colours)
        x = marker.x() + NAME_LEFT * unit
        painter.setFont(text_font(NAME_TEXT * unit, bold=True))
        painter.setPen(QColor(colours.label_text))
        name_rect = QRectF(x, band.top(), NAME_WIDTH * unit, band.height())
        painter.drawText(name_rect, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, label.name)
        name_width = painter.fontMetrics().horizontalAdvance(label.name)
        details_left = x + name_width + DETAILS_GAP * unit
        status = label.status
        status_font = text_font(DETAILS_TEXT * unit, bold=label.deciding)
        details_font = text_font(DETAILS_TEXT * unit)
        # On a narrow board the status keeps its words and the details give way:
        # first the checkers off, then the roll before the steps entered.
        room = band.right() - LABEL_END * unit - details_left - STATUS_GAP * unit
        details = f"pips {label.pips}    off {label.off}"
        for candidate_details, candidate_status in (
            (details, status),
            (f"pips {label.pips}", status),
            (f"pips {label.pips}", status.split(":  ", 1)[-1]),
        ):
            details, status = candidate_details, candidate_status
            used = QFontMetricsF(details_font).horizontalAdvance(details) + QFontMetricsF(status_font).horizontalAdvance(status)
            if used <= room:
                break
        painter.setFont(details_font)
        painter.setPen(QColor(colours.label_dim))
        painter.drawText(
            QRectF(details_left, band.top(), max(DETAILS_MIN_WIDTH * unit, room), band.height()),
            Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
            details,
        )
        if status:
            painter.setFont(status_font)
            painter.setPen(QColor(colours.label_text))
            painter.drawText(
                band.adjusted(0, 0, -LABEL_END * unit, 0),
                Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight,
                status,
            )


# ------------------------------------------------------------------------- arrows
def hop_arrows(view: BoardView, mover: Player, play: Play, boards: Sequence[Board]) -> Iterator[tuple[QPointF, QPointF]]:
    """Start and end of each hop of ``play`` made from ``boards`` (O's, X's), following
    the stacks as the hops change them."""
    working = [list(boards[O]), list(boards[X])]
    mine, theirs = working[mover], working[1 - mover]
    for source, target in play:
        start = view.checker_centre(mover, source, working, top_of_stack=True)
        mine[source] -= 1
        if target != OFF and theirs[BAR - target] == 1:
            theirs[BAR - target] = 0
            theirs[BAR] += 1
        end = view.checker_centre(mover, target, working, top_of_stack=False)
        mine[target] += 1
        yield start, end


def draw_arrow(painter: QPainter, geometry: BoardGeometry, start: QPointF, end: QPointF, colour: QColor, width: float) -> None:
    """An arrow from ``start`` to ``end``, ``width`` units wide; along one row of points it
    bows toward the middle of the board so that it does not run over the checkers it passes."""
    unit = geometry.unit
    dx, dy = end.x() - start.x(), end.y() - start.y()
    if math.hypot(dx, dy) < ARROW_MIN_LENGTH:
        return
    control = bow_control(geometry, start, end)
    # the head points along the curve's last tangent
    tx, ty = end.x() - control.x(), end.y() - control.y()
    tangent = math.hypot(tx, ty) or 1.0
    ux, uy = tx / tangent, ty / tangent
    head = ARROW_HEAD * unit
    base = QPointF(end.x() - ux * head, end.y() - uy * head)
    shaft_end = QPointF(end.x() - ux * head * ARROW_SHAFT_END, end.y() - uy * head * ARROW_SHAFT_END)
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
    half = head * ARROW_HEAD_WIDTH
    painter.drawPolygon(
        QPolygonF(
            [
                end,
                QPointF(base.x() + normal_x * half, base.y() + normal_y * half),
                QPointF(base.x() - normal_x * half, base.y() - normal_y * half),
            ]
        )
    )


def bow_control(geometry: BoardGeometry, start: QPointF, end: QPointF) -> QPointF:
    """The control point of the quadratic curve from ``start`` to ``end``: straight across
    the board, but along one row of points bowed toward the middle, over the checkers."""
    control = QPointF((start.x() + end.x()) / 2, (start.y() + end.y()) / 2)
    dx, dy = end.x() - start.x(), end.y() - start.y()
    if abs(dy) < BOW_ROW * geometry.unit and abs(dx) > BOW_ROW * geometry.unit:
        toward_middle = -1.0 if control.y() > geometry.middle else 1.0
        control.setY(control.y() + toward_middle * min(BOW_DEPTH * abs(dx), BOW_MAX * geometry.unit))
    return control


# --------------------------------------------------------------------- match line
def paint_match_line(painter: QPainter, geometry: BoardGeometry, colours: BoardColours, parts: Sequence[str]) -> None:
    """The match line centred in its strip: ``parts`` joined by " · ", the first (the
    length) and the second (the score) always kept; on a narrow board the text shrinks,
    then the later parts (away scores, the Crawford note) are dropped from the end."""
    band = geometry.match_band
    if band is None or not parts:
        return
    unit = geometry.unit
    room = band.width() - 2 * LABEL_END * unit
    shown = list(parts)
    font = text_font(MATCH_TEXT * unit, bold=True)
    while True:
        text = MATCH_SEPARATOR.join(shown)
        for size in (MATCH_TEXT, (MATCH_TEXT + MATCH_TEXT_SMALLEST) / 2, MATCH_TEXT_SMALLEST):
            font = text_font(size * unit, bold=True)
            if QFontMetricsF(font).horizontalAdvance(text) <= room:
                break
        if QFontMetricsF(font).horizontalAdvance(text) <= room or len(shown) <= 2:
            break
        shown.pop()
    painter.setFont(font)
    painter.setPen(QColor(colours.label_text))
    painter.drawText(band, Qt.AlignmentFlag.AlignCenter, text)
