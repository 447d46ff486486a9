"""The dice picker: a panel over the backgammon board where a player enters a roll.

Two rows of six dice (the first and the second die; at the opening roll, O's die and X's
die) and a close box. A click (or the keys 1-6) picks a face in each row; when both are
picked the picker closes and answers the roll as the state's chance outcome: ``(high,
low)``, or at the opening roll ``(O's die, X's die)``, where equal dice are thrown again
(the second pick is dropped). A click outside the panel or on the close box closes it.

The picker is an object the board owns, not a child widget: it is drawn in the board's
paint pass over the board, and it answers the board's own mouse and key events. A child
widget would take the clicks over its panel from the board (a click outside the panel must
still reach the board to close it, and the keys 1-6 arrive while the board has the focus),
so the board would have to forward every event to keep the behaviour.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPen

from games.backgammon.board import DIE_FACES, Roll, O, X
from games.base import Player
from gui.boards.backgammon.colours import BoardColours
from gui.boards.backgammon.layout import MIN_DIE_PIXELS, BoardGeometry
from gui.boards.backgammon.painters import MIN_PEN_PIXELS, draw_die
from gui.boards.base import text_font

PICKER_DIE = 0.85
"""Side of a die in the picker."""
PICKER_DIE_SPACING = 0.25
"""Space between two dice of a row."""
PICKER_ROW_GAP = 0.5
"""Space between the two rows."""
PICKER_FIRST_ROW = 1.25
"""From the panel's top to the first row (the title is above it)."""
PICKER_HEIGHT = 4.0
"""The panel's height."""
PICKER_PADDING = 0.4
"""Room between the panel's left edge and the labels (and, doubled, round the rows)."""
PICKER_LABEL = 0.36
"""Text height of the rows' labels."""
PICKER_LABEL_MIN_WIDTH = 2.0
"""The labels' column is at least this wide."""
PICKER_TITLE = 0.42
"""Text height of the title (bold)."""
PICKER_TITLE_TOP = 0.2
"""From the panel's top to the title's box."""
PICKER_TITLE_HEIGHT = 0.7
"""Height of the title's box."""
PICKER_TITLE_ROOM = 1.6
"""Room the title leaves across the panel: its padding and the close box beside it."""
PICKER_TITLE_RIGHT = 1.2
"""How much shorter than the panel the title's box is (the close box is there)."""
PICKER_CLOSE = 0.55
"""Side of the close box."""
PICKER_CLOSE_RIGHT = 0.75
"""From the panel's right edge to the close box's left edge."""
PICKER_CLOSE_TOP = 0.2
"""From the panel's top to the close box."""
PICKER_CLOSE_INSET = 0.22
"""Where the cross in the close box starts, in box sides from its corners."""
PICKER_CROSS = 0.07
"""Pen width of the cross."""
PICKER_CORNER = 0.3
"""Corner radius of the panel."""
PICKER_EDGE = 0.04
"""Pen width of the panel's edge (at least one pixel)."""
PICKED_RING = 0.1
"""Pen width of the ring round a picked die."""
PICKED_RING_GAP = 0.08
"""Room between a picked die and its ring."""
PICKED_RING_CORNER = 0.2
"""Corner radius of that ring."""
PANEL_SHADOW = QColor(0, 0, 0, 120)
"""The panel's edge."""
ROWS = 2
"""A die per row: first and second (or O's and X's at the opening)."""


@dataclass(frozen=True)
class RollWanted:
    """The roll the picker asks for."""

    opening: bool
    """The opening roll: one die per player, never equal."""
    names: tuple[str, str]
    """O's and X's names (the rows' labels at the opening roll)."""
    roller: Player
    """Whose colours the dice have after the opening roll."""


@dataclass(frozen=True)
class PickerLayout:
    """Where the picker's parts are."""

    panel: QRectF
    rows: list[list[QRectF]]
    """The six dice of each row."""
    close: QRectF


class DicePicker:
    """The picker's state (open, the faces picked), layout, clicks, keys and painting."""

    def __init__(self) -> None:
        self._open = False
        self._picked: list[int | None] = [None, None]

    # ------------------------------------------------------------------- state
    def is_open(self) -> bool:
        return self._open

    def open(self) -> None:
        """Show the panel with nothing picked."""
        self._open = True
        self._picked = [None, None]

    def close(self) -> None:
        self._open = False
        self._picked = [None, None]

    def pick(self, row: int, face: int, wanted: RollWanted) -> Roll | None:
        """Pick ``face`` in ``row``; the roll once both dice are in (the picker closes)."""
        self._picked[row] = face
        first, second = self._picked
        if first is None or second is None:
            return None
        if wanted.opening:
            if first == second:  # equal opening dice are thrown again: keep the first pick
                self._picked[1] = None
                return None
            outcome: Roll = (first, second)  # (O's die, X's die), as the state takes it
        else:
            outcome = (max(first, second), min(first, second))
        self.close()
        return outcome

    def type_face(self, face: int, wanted: RollWanted) -> Roll | None:
        """The key ``face`` (1-6): it fills the first row, then the second."""
        return self.pick(0 if self._picked[0] is None else 1, face, wanted)

    # ------------------------------------------------------------------ layout
    @staticmethod
    def labels(wanted: RollWanted) -> tuple[str, str]:
        """The rows' labels."""
        if wanted.opening:
            return (f"{wanted.names[O]}'s die", f"{wanted.names[X]}'s die")
        return ("First die", "Second die")

    @staticmethod
    def title(wanted: RollWanted) -> str:
        return "Enter the opening roll" if wanted.opening else "Enter the roll"

    @staticmethod
    def title_font(unit: float) -> QFont:
        return text_font(PICKER_TITLE * unit, bold=True)

    def layout(self, geometry: BoardGeometry, wanted: RollWanted) -> PickerLayout:
        """The panel, centred on the board's field, wide enough for its labels and title."""
        unit = geometry.unit
        die = max(PICKER_DIE * unit, MIN_DIE_PIXELS)
        spacing = PICKER_DIE_SPACING * unit
        metrics = QFontMetricsF(text_font(PICKER_LABEL * unit))
        label = max(
            PICKER_LABEL_MIN_WIDTH * unit,
            max(metrics.horizontalAdvance(text) for text in self.labels(wanted)) + PICKER_PADDING * unit,
        )
        title = QFontMetricsF(self.title_font(unit)).horizontalAdvance(self.title(wanted))
        width = max(
            label + DIE_FACES * die + (DIE_FACES - 1) * spacing + 2 * PICKER_PADDING * unit,
            title + PICKER_TITLE_ROOM * unit,
        )
        height = PICKER_HEIGHT * unit
        centre = QPointF((geometry.left_field.left() + geometry.right_field.right()) / 2, geometry.middle)
        panel = QRectF(centre.x() - width / 2, centre.y() - height / 2, width, height)
        rows = []
        for row in range(ROWS):
            y = panel.top() + PICKER_FIRST_ROW * unit + row * (die + PICKER_ROW_GAP * unit)
            rows.append(
                [
                    QRectF(panel.left() + PICKER_PADDING * unit + label + face * (die + spacing), y, die, die)
                    for face in range(DIE_FACES)
                ]
            )
        close = QRectF(
            panel.right() - PICKER_CLOSE_RIGHT * unit,
            panel.top() + PICKER_CLOSE_TOP * unit,
            PICKER_CLOSE * unit,
            PICKER_CLOSE * unit,
        )
        return PickerLayout(panel, rows, close)

    def die_position(self, geometry: BoardGeometry, wanted: RollWanted, row: int, face: int) -> QPointF:
        """Centre of die ``face`` (1..6) in row ``row`` (0 or 1)."""
        return self.layout(geometry, wanted).rows[row][face - 1].center()

    # ------------------------------------------------------------------- input
    def click(self, geometry: BoardGeometry, wanted: RollWanted, position: QPointF) -> Roll | None:
        """A click at ``position``: on the close box or outside the panel it closes the
        picker, on a die it picks it; the roll once both dice are in."""
        layout = self.layout(geometry, wanted)
        if layout.close.contains(position) or not layout.panel.contains(position):
            self.close()
            return None
        for row, rects in enumerate(layout.rows):
            for face, rect in enumerate(rects, start=1):
                if rect.contains(position):
                    return self.pick(row, face, wanted)
        return None

    def is_clickable(self, geometry: BoardGeometry, wanted: RollWanted, position: QPointF) -> bool:
        """Whether a click at ``position`` picks a die or closes the picker by its box."""
        layout = self.layout(geometry, wanted)
        return layout.close.contains(position) or any(rect.contains(position) for row in layout.rows for rect in row)

    # ---------------------------------------------------------------- painting
    def paint(self, painter: QPainter, geometry: BoardGeometry, colours: BoardColours, wanted: RollWanted) -> None:
        """The panel with its title, close box, labels and dice, picked dice ringed; the
        dice in O's and X's colours at the opening, else in the roller's."""
        unit = geometry.unit
        layout = self.layout(geometry, wanted)
        panel, close = layout.panel, layout.close
        painter.setPen(QPen(PANEL_SHADOW, max(MIN_PEN_PIXELS, PICKER_EDGE * unit)))
        painter.setBrush(QColor(colours.overlay))
        painter.drawRoundedRect(panel, PICKER_CORNER * unit, PICKER_CORNER * unit)
        painter.setPen(QColor(colours.button_text))
        painter.setFont(self.title_font(unit))
        title = QRectF(
            panel.left() + PICKER_PADDING * unit,
            panel.top() + PICKER_TITLE_TOP * unit,
            panel.width() - PICKER_TITLE_RIGHT * unit,
            PICKER_TITLE_HEIGHT * unit,
        )
        painter.drawText(title, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, self.title(wanted))
        pen = QPen(QColor(colours.button_text), PICKER_CROSS * unit)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        painter.setPen(pen)
        inset = close.width() * PICKER_CLOSE_INSET
        painter.drawLine(close.topLeft() + QPointF(inset, inset), close.bottomRight() - QPointF(inset, inset))
        painter.drawLine(close.topRight() + QPointF(-inset, inset), close.bottomLeft() + QPointF(inset, -inset))
        labels = self.labels(wanted)
        for row, rects in enumerate(layout.rows):
            owner = (O if row == 0 else X) if wanted.opening else wanted.roller
            painter.setFont(text_font(PICKER_LABEL * unit))
            painter.setPen(QColor(colours.button_text))
            painter.drawText(
                QRectF(panel.left() + PICKER_PADDING * unit, rects[0].top(), rects[0].left() - panel.left(), rects[0].height()),
                Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                labels[row],
            )
            for face, rect in enumerate(rects, start=1):
                if self._picked[row] == face:
                    gap = PICKED_RING_GAP * unit
                    painter.setPen(QPen(QColor(colours.selection), PICKED_RING * unit))
                    painter.setBrush(Qt.BrushStyle.NoBrush)
                    painter.drawRoundedRect(rect.adjusted(-gap, -gap, gap, gap), PICKED_RING_CORNER * unit, PICKED_RING_CORNER * unit)
                draw_die(painter, rect, face, colours, owner)


__all__ = ["DicePicker", "PickerLayout", "RollWanted"]
