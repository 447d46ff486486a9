"""The start page: the five games as picture cards, and "Continue" for the last game.

Each card draws a small preview of its game with QPainter (vector shapes, so it is crisp at
any size and device-pixel ratio) in the window's palette colours.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QMouseEvent, QPainter, QPainterPath, QPaintEvent, QPen, QPolygonF
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from games import GAME_NAMES, get_game
from gui.dialogs.new_game import game_title
from gui.panels.display import player_names
from gui.theme import LIGHT

CARD_SIZE = QSize(200, 230)
CARD_MIN_SIZE = QSize(150, 170)
"""A card's least size: two rows of cards, the title and Continue fit a 900×600 window."""
TAGLINES = {
    "tictactoe": "Solved in a blink: watch minimax prove the draw",
    "checkers": "English draughts, forced captures, multi-jumps",
    "chess": "Alpha-beta, PVS, MTD(f) against the king of games",
    "othello": "Mobility, corners and an exact endgame solver",
    "backgammon": "Dice, the doubling cube and expectiminimax",
}


# ------------------------------------------------------------------ previews
def draw_preview(painter: QPainter, game: str, rect: QRectF) -> None:
    """A small picture of ``game`` inside ``rect`` (square, centred)."""
    side = min(rect.width(), rect.height())
    square = QRectF(rect.center().x() - side / 2, rect.center().y() - side / 2, side, side)
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    drawer = _PREVIEWS.get(game, _draw_unknown)
    drawer(painter, square)
    painter.restore()


def _grid(painter: QPainter, rect: QRectF, size: int, light: str, dark: str) -> float:
    cell = rect.width() / size
    for row in range(size):
        for column in range(size):
            colour = dark if (row + column) % 2 else light
            painter.fillRect(QRectF(rect.x() + column * cell, rect.y() + row * cell, cell, cell), QColor(colour))
    return cell


def _draw_tictactoe(painter: QPainter, rect: QRectF) -> None:
    painter.fillRect(rect, QColor("#f4efe6"))
    cell = rect.width() / 3
    pen = QPen(QColor("#3b3b3b"), max(2.0, rect.width() / 40))
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    painter.setPen(pen)
    for index in (1, 2):
        painter.drawLine(QPointF(rect.x() + index * cell, rect.y() + cell * 0.15), QPointF(rect.x() + index * cell, rect.bottom() - cell * 0.15))
        painter.drawLine(QPointF(rect.x() + cell * 0.15, rect.y() + index * cell), QPointF(rect.right() - cell * 0.15, rect.y() + index * cell))
    marks = {0: "x", 4: "o", 2: "x", 6: "o", 8: "x"}
    for square, mark in marks.items():
        centre = QPointF(rect.x() + (square % 3 + 0.5) * cell, rect.y() + (square // 3 + 0.5) * cell)
        radius = cell * 0.28
        if mark == "x":
            cross = QPen(QColor(LIGHT.mark_x), max(2.5, rect.width() / 28))  # the board's colours
            cross.setCapStyle(Qt.PenCapStyle.RoundCap)
            painter.setPen(cross)
            painter.drawLine(centre + QPointF(-radius, -radius), centre + QPointF(radius, radius))
            painter.drawLine(centre + QPointF(-radius, radius), centre + QPointF(radius, -radius))
        else:
            painter.setPen(QPen(QColor(LIGHT.mark_o), max(2.5, rect.width() / 28)))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(centre, radius, radius)


def _disc(painter: QPainter, centre: QPointF, radius: float, fill: str, rim: str, king: bool = False) -> None:
    painter.setPen(QPen(QColor(rim), max(1.0, radius / 6)))
    painter.setBrush(QColor(fill))
    painter.drawEllipse(centre, radius, radius)
    if king:
        painter.setPen(QPen(QColor("#f1c40f"), max(1.0, radius / 4)))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawEllipse(centre, radius * 0.5, radius * 0.5)


def _draw_checkers(painter: QPainter, rect: QRectF) -> None:
    cell = _grid(painter, rect, 8, "#f0d9b5", "#7b4a2d")
    for row in range(8):
        for column in range(8):
            if (row + column) % 2 == 0:
                continue
            centre = QPointF(rect.x() + (column + 0.5) * cell, rect.y() + (row + 0.5) * cell)
            if row < 3 and not (row == 2 and column in (1, 3)):
                _disc(painter, centre, cell * 0.38, LIGHT.checker_dark, "#000000", king=(row, column) == (0, 1))
            elif row > 4 and not (row == 5 and column == 4):
                _disc(painter, centre, cell * 0.38, LIGHT.checker_light, "#8a8a80")
    _disc(painter, QPointF(rect.x() + 4.5 * cell, rect.y() + 3.5 * cell), cell * 0.38, LIGHT.checker_dark, "#000000")


def _draw_chess(painter: QPainter, rect: QRectF) -> None:
    cell = _grid(painter, rect, 8, "#f0d9b5", "#b58863")
    pieces = {
        (0, 0): "♜", (0, 2): "♝", (0, 3): "♛", (0, 4): "♚", (0, 7): "♜", (1, 0): "♟", (1, 1): "♟",
        (1, 2): "♟", (1, 5): "♟", (1, 6): "♟", (1, 7): "♟", (2, 5): "♞", (3, 3): "♟", (3, 4): "♟",
        (4, 4): "♙", (4, 2): "♗", (5, 5): "♘", (6, 0): "♙", (6, 1): "♙", (6, 2): "♙", (6, 3): "♙",
        (6, 5): "♙", (6, 6): "♙", (6, 7): "♙", (7, 0): "♖", (7, 3): "♕", (7, 4): "♔", (7, 7): "♖",
    }
    font = QFont("DejaVu Sans")
    font.setPixelSize(max(6, int(cell * 0.86)))
    painter.setFont(font)
    for (row, column), glyph in pieces.items():
        target = QRectF(rect.x() + column * cell, rect.y() + row * cell, cell, cell)
        white = glyph in "♔♕♖♗♘♙"
        if white:  # a white piece: filled glyph in white with the outline glyph over it
            filled = chr(ord(glyph) + 6)
            painter.setPen(QColor("#ffffff"))
            painter.drawText(target, Qt.AlignmentFlag.AlignCenter, filled)
            painter.setPen(QColor("#222222"))
            painter.drawText(target, Qt.AlignmentFlag.AlignCenter, glyph)
        else:
            painter.setPen(QColor("#111111"))
            painter.drawText(target, Qt.AlignmentFlag.AlignCenter, glyph)


def _draw_othello(painter: QPainter, rect: QRectF) -> None:
    painter.fillRect(rect, QColor("#1e7a46"))
    cell = rect.width() / 8
    painter.setPen(QPen(QColor("#0f4d2b"), max(1.0, rect.width() / 160)))
    for index in range(1, 8):
        painter.drawLine(QPointF(rect.x() + index * cell, rect.y()), QPointF(rect.x() + index * cell, rect.bottom()))
        painter.drawLine(QPointF(rect.x(), rect.y() + index * cell), QPointF(rect.right(), rect.y() + index * cell))
    board = [
        "........",
        "........",
        "..wb....",
        "..bbbw..",
        "...wbb..",
        "....wb..",
        "........",
        "........",
    ]
    for row, line in enumerate(board):
        for column, mark in enumerate(line):
            if mark == ".":
                continue
            centre = QPointF(rect.x() + (column + 0.5) * cell, rect.y() + (row + 0.5) * cell)
            fill, rim = ("#111111", "#000000") if mark == "b" else ("#f7f7f7", "#9a9a9a")
            _disc(painter, centre, cell * 0.4, fill, rim)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(255, 255, 255, 90))
    for row, column in ((1, 3), (2, 4), (5, 2), (6, 5)):
        painter.drawEllipse(QPointF(rect.x() + (column + 0.5) * cell, rect.y() + (row + 0.5) * cell), cell * 0.12, cell * 0.12)


def _draw_backgammon(painter: QPainter, rect: QRectF) -> None:
    painter.fillRect(rect, QColor("#6b4226"))
    inner = rect.adjusted(rect.width() * 0.04, rect.height() * 0.06, -rect.width() * 0.04, -rect.height() * 0.06)
    painter.fillRect(inner, QColor("#e9d8b4"))
    bar = rect.width() * 0.06
    half = (inner.width() - bar) / 2
    painter.fillRect(QRectF(inner.x() + half, inner.y(), bar, inner.height()), QColor("#6b4226"))
    point_width = half / 6
    height = inner.height() * 0.42
    painter.setPen(Qt.PenStyle.NoPen)
    for index in range(12):
        x = inner.x() + (index % 6) * point_width + (0 if index < 6 else half + bar)
        colour = QColor("#a93226" if index % 2 else "#2c3e50")
        painter.setBrush(colour)
        painter.drawPolygon(QPolygonF([QPointF(x, inner.y()), QPointF(x + point_width, inner.y()), QPointF(x + point_width / 2, inner.y() + height)]))
        painter.setBrush(QColor("#2c3e50" if index % 2 else "#a93226"))
        painter.drawPolygon(QPolygonF([QPointF(x, inner.bottom()), QPointF(x + point_width, inner.bottom()), QPointF(x + point_width / 2, inner.bottom() - height)]))
    radius = point_width * 0.45
    stacks = {
        (0, True): (5, "w"), (4, True): (3, "b"), (6, True): (5, "b"), (11, True): (2, "w"),
        (0, False): (5, "b"), (4, False): (3, "w"), (6, False): (5, "w"), (11, False): (2, "b"),
    }
    """(point index from the left, top half) -> (checkers, colour): the starting position."""
    for (index, top), (count, side) in stacks.items():
        x = inner.x() + (index % 6) * point_width + (0 if index < 6 else half + bar) + point_width / 2
        for level in range(count):
            offset = radius + level * radius * 1.8
            y = inner.y() + offset if top else inner.bottom() - offset
            fill, rim = ("#f6f1e4", "#7e7560") if side == "w" else ("#8e1f22", "#3f0b0c")  # the board's X and O
            _disc(painter, QPointF(x, y), radius, fill, rim)
    for index, pips in enumerate((5, 3)):
        size = point_width * 0.9
        die = QRectF(inner.x() + half * 0.5 + index * size * 1.25 + half + bar - size, inner.center().y() - size / 2, size, size)
        painter.setPen(QPen(QColor("#333333"), 1))
        painter.setBrush(QColor("#ffffff"))
        painter.drawRoundedRect(die, size * 0.15, size * 0.15)
        painter.setBrush(QColor("#222222"))
        painter.setPen(Qt.PenStyle.NoPen)
        for dx, dy in _PIPS[pips]:
            painter.drawEllipse(QPointF(die.center().x() + dx * size * 0.27, die.center().y() + dy * size * 0.27), size * 0.09, size * 0.09)


_PIPS = {
    3: ((-1, -1), (0, 0), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
}


def _draw_unknown(painter: QPainter, rect: QRectF) -> None:
    painter.fillRect(rect, QColor("#999999"))
    path = QPainterPath()
    path.addEllipse(rect.center(), rect.width() / 4, rect.width() / 4)
    painter.fillPath(path, QColor("#dddddd"))


_PREVIEWS = {
    "tictactoe": _draw_tictactoe,
    "checkers": _draw_checkers,
    "chess": _draw_chess,
    "othello": _draw_othello,
    "backgammon": _draw_backgammon,
}


# ------------------------------------------------------------------ widgets
class GameCard(QFrame):
    """A clickable card: the preview, the game's name, its players and a tagline."""

    clicked = Signal(str)

    def __init__(self, game: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.game = game
        self.setObjectName(f"card_{game}")
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMinimumSize(CARD_MIN_SIZE)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        names = player_names(get_game(game))
        self.setToolTip(f"New game of {game_title(game)}: {names[0]} against {names[1]}")
        self.setAccessibleName(game_title(game))
        self._hover = False

    def sizeHint(self) -> QSize:  # noqa: N802
        return CARD_SIZE

    def enterEvent(self, event: object) -> None:  # noqa: N802
        self._hover = True
        self.update()

    def leaveEvent(self, event: object) -> None:  # noqa: N802
        self._hover = False
        self.update()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if event.button() == Qt.MouseButton.LeftButton and self.rect().contains(event.position().toPoint()):
            self.clicked.emit(self.game)

    def keyPressEvent(self, event: object) -> None:  # noqa: N802
        if getattr(event, "key", lambda: None)() in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space):
            self.clicked.emit(self.game)
        else:
            super().keyPressEvent(event)  # type: ignore[arg-type]

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        palette = self.palette()
        base = palette.color(palette.ColorRole.Base)
        text = palette.color(palette.ColorRole.Text)
        accent = palette.color(palette.ColorRole.Highlight)
        outline = accent if (self._hover or self.hasFocus()) else palette.color(palette.ColorRole.Mid)
        card = QRectF(self.rect()).adjusted(3, 3, -3, -3)
        painter.setPen(QPen(outline, 2.0 if (self._hover or self.hasFocus()) else 1.0))
        painter.setBrush(base)
        painter.drawRoundedRect(card, 10, 10)
        text_height = 64.0
        preview = card.adjusted(14, 14, -14, -text_height)
        draw_preview(painter, self.game, preview)
        title_font = QFont(self.font())
        title_font.setPointSizeF(self.font().pointSizeF() * 1.3)
        title_font.setBold(True)
        painter.setFont(title_font)
        painter.setPen(text)
        title_rect = QRectF(card.x() + 8, card.bottom() - text_height + 6, card.width() - 16, 24)
        painter.drawText(title_rect, Qt.AlignmentFlag.AlignCenter, game_title(self.game))
        small = QFont(self.font())
        small.setPointSizeF(self.font().pointSizeF() * 0.9)
        painter.setFont(small)
        muted = QColor(text)
        muted.setAlphaF(0.7)
        painter.setPen(muted)
        tagline_rect = QRectF(card.x() + 8, title_rect.bottom(), card.width() - 16, text_height - 30)
        painter.drawText(tagline_rect, Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap, TAGLINES.get(self.game, ""))
        painter.end()


class StartPage(QWidget):
    """Cards for a new game of each kind, and "Continue" when a game was saved."""

    game_chosen = Signal(str)
    continue_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("startPage")
        title = QLabel("<h1 style='margin-bottom:0'>Plyground</h1>")
        subtitle = QLabel("Play five classic games against a search engine — and watch it think.")
        subtitle.setObjectName("subtitle")
        self.continue_button = QPushButton("Continue")
        self.continue_button.setObjectName("continueButton")
        self.continue_button.setMinimumHeight(40)
        self.continue_label = QLabel()
        self.continue_label.setObjectName("continueLabel")
        self.continue_button.clicked.connect(self.continue_requested)
        header = QVBoxLayout()
        header.addWidget(title)
        header.addWidget(subtitle)
        continue_row = QHBoxLayout()
        continue_row.addWidget(self.continue_button)
        continue_row.addWidget(self.continue_label, 1)
        self.cards = {name: GameCard(name) for name in GAME_NAMES}
        grid = QGridLayout()
        grid.setSpacing(16)
        columns = 3
        for index, name in enumerate(GAME_NAMES):
            card = self.cards[name]
            card.clicked.connect(self.game_chosen)
            grid.addWidget(card, index // columns, index % columns)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(32, 24, 32, 24)
        layout.addLayout(header)
        layout.addSpacing(8)
        layout.addLayout(continue_row)
        layout.addSpacing(8)
        layout.addLayout(grid, 1)
        self.set_continue(None)

    def set_continue(self, description: str | None) -> None:
        """Show "Continue" with a one-line description of the saved game, or hide it."""
        self.continue_button.setVisible(description is not None)
        self.continue_label.setVisible(description is not None)
        self.continue_label.setText(description or "")
