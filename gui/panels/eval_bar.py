"""The eval bar beside the board: each player's share of a vertical bar, from the score.

As on Lichess: the side at the bottom of the board has its colour at the bottom of the bar;
a proven win fills it; a small number says the score, under the initial of the side ahead
(``W``/``B``, ``X``/``O``), the side the engine panel's headline names, so the bar says whose
advantage it shows. Backgammon reads equity as a win chance (``display.player0_share``);
at a match score the bar is the match winning chance, its number the MWC of the player more
likely to win the match (the engine panel's ``O 55.0% MWC``), as GNU Backgammon shows it.

The bar and the eval graph show the game's evaluation: the scores of the computer's own move
searches (``display.is_game_evaluation``), never a hint's or a forced reply's.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPaintEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from ai.events import Score
from games.base import GameState
from gui.panels import display
from gui.theme import Theme

LIGHT_SIDE = QColor("#f4f4f0")
DARK_SIDE = QColor("#2a2a2a")
MIN_LABEL_POINTS = 8.0
"""The number on the bar is never smaller than this (bold): about 11 px at 96 dpi, the size
of a small caption, readable at any window size."""
WIDEST_LABELS = (">99%", "#-12", "99.9", "wins", "in 12")
"""The widest texts the bar shows (``display.bar_label`` keeps estimates to three digits):
the bar is as wide as the widest of them at the label's font, so no number is shrunk."""
LABEL_PADDING = 6
"""Pixels beside the widest label (the bar's frame and a little air)."""


def player_colors(game: type[GameState], light: QColor = LIGHT_SIDE, dark: QColor = DARK_SIDE) -> tuple[QColor, QColor]:
    """The bar colours of players 0 and 1: a player called White is light, one called Black
    dark; otherwise the first player light."""
    names = [name.lower() for name in game.PLAYER_NAMES]
    if names[0] == "black" or names[1] == "white":
        return dark, light
    return light, dark


def text_color_on(background: QColor) -> QColor:
    """Near-black on a light colour, near-white on a dark one (by perceived lightness), so
    the number is legible on any side colour (white, black, backgammon's red, x's blue)."""
    lightness = 0.299 * background.redF() + 0.587 * background.greenF() + 0.114 * background.blueF()
    return QColor("#1a1a1a") if lightness > 0.55 else QColor("#f4f4f4")


def theme_sides(theme: Theme | None) -> tuple[QColor, QColor]:
    """The light and dark side colours of ``theme`` (its white and black discs)."""
    if theme is None:
        return LIGHT_SIDE, DARK_SIDE
    return QColor(theme.color("disc_white")), QColor(theme.color("disc_black"))


class EvalBar(QWidget):
    """A vertical bar: player 0's share of it grows from the bottom (or top when flipped)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._game: type[GameState] | None = None
        self._score: Score | None = None
        self._share = 0.5
        self._stake = 1.0
        self._odds: display.MatchOdds | None = None
        self._is_flipped = False
        self._colors = (LIGHT_SIDE, DARK_SIDE)
        self._theme: Theme | None = None
        self._side_colors: Callable[[], tuple[QColor, QColor] | None] | None = None
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Expanding)
        self.setMinimumHeight(120)
        self.setFixedWidth(self.bar_width())

    def label_font(self) -> QFont:
        """The font of the number: the widget's own size (never under ``MIN_LABEL_POINTS``), bold."""
        font = QFont(self.font())
        font.setPointSizeF(max(MIN_LABEL_POINTS, font.pointSizeF()))
        font.setBold(True)
        return font

    def bar_width(self) -> int:
        """Wide enough for the widest label at the label's font."""
        metrics = QFontMetrics(self.label_font())
        return max(metrics.horizontalAdvance(text) for text in WIDEST_LABELS) + LABEL_PADDING

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        return QSize(self.bar_width(), 400)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt's name)
        if event.type() == QEvent.Type.FontChange:
            self.setFixedWidth(self.bar_width())
        super().changeEvent(event)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        return QSize(self.bar_width(), 120)

    def set_game(self, game: type[GameState]) -> None:
        self._game = game
        self._odds = None
        self._colors = player_colors(game, *theme_sides(self._theme))
        self.set_score(None)

    def set_match_score(self, state: GameState | None) -> None:
        """Read the scores of the game ``state`` belongs to: at a backgammon match score
        as match winning chances (``display.match_odds``), otherwise as the game's own."""
        self._odds = display.match_odds(state)
        self.set_score(self._score, self._stake)

    def set_side_colors(self, source: Callable[[], tuple[QColor, QColor] | None] | None) -> None:
        """Take players 0's and 1's colours from ``source`` (the board's own pieces, e.g. the
        backgammon checkers: O red, X white) so the bar matches what the board shows; None
        or a None answer falls back to the theme's light and dark sides by player name."""
        self._side_colors = source
        self.update()

    def set_theme(self, theme: Theme) -> None:
        """The sides' colours from the theme (the rest follows the application palette)."""
        self._theme = theme
        if self._game is not None:
            self._colors = player_colors(self._game, *theme_sides(theme))
        self.update()

    def set_flipped(self, is_flipped: bool) -> None:
        """Player 0 at the top (the board shows player 0 at the top)."""
        self._is_flipped = is_flipped
        self.update()

    def set_score(self, score: Score | None, stake: float = 1.0) -> None:
        """Show ``score`` (``None``: no evaluation yet, an even bar) of a position whose
        ``GameState.stake`` is ``stake``."""
        self._score = score
        self._stake = stake
        self._share = 0.5 if self._game is None else display.player0_share(score, self._game, stake, self._odds)
        self.setToolTip(self.describe())
        self.setAccessibleName(self.describe() or "Evaluation")
        self.update()

    def leader(self) -> int | None:
        """The player the bar shows ahead (``None``: no score, or an even one)."""
        if self._game is None or self._score is None:
            return None
        return display.leader(self._score, self._game, self._odds)  # as the engine panel's headline names it

    def leader_mark(self) -> str:
        """The leading side's initial drawn next to the number (``W``, ``B``, ``X``, ``O``), so
        the bar says whose advantage it shows; empty when even."""
        leader = self.leader()
        if leader is None or self._game is None:
            return ""
        return display.player_names(self._game)[leader][:1].upper()

    def describe(self) -> str:
        """The tooltip: ``White is ahead: White +1.20``, ``Even: X +0``, ``Black is winning:
        Black mates in 3``."""
        score, game = self._score, self._game
        if score is None or game is None:
            return ""
        if score.is_win and not score.plies_to_end:  # the game is over: "Black has won"
            return display.score_text(score, game, odds=self._odds)
        leader = self.leader()
        verb = "is winning" if score.is_win else "is ahead"
        who = "Even" if leader is None else f"{display.player_names(game)[leader]} {verb}"
        return f"{who}: {display.score_text(score, game, odds=self._odds)}"

    @property
    def score(self) -> Score | None:
        """The score shown (``None``: none, an even bar)."""
        return self._score

    @property
    def share(self) -> float:
        """Player 0's share of the bar, 0..1."""
        return self._share

    def label_text(self) -> str:
        """The short score on the bar: ``1.2``, ``#3`` / ``#-3`` (chess mates, White's view,
        as on Lichess), ``wins`` / ``in 5`` (plies, on two lines), ``won``, ``62%`` (win
        chance; at a match score the leader's match winning chance, ``display.MatchOdds``)."""
        score, game = self._score, self._game
        if score is None or game is None:
            return ""
        if game.UTILITY_KIND == "equity" and not score.is_win:
            leader = max(self._share, 1 - self._share)
            if round(100 * leader) >= 100:  # an estimate, however big, is no certainty
                return ">99%"
            return f"{100 * leader:.0f}%"
        return display.bar_label(score, game)

    def paintEvent(self, _event: QPaintEvent) -> None:  # noqa: N802 (Qt's name)
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        rect = QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5)
        own = self._side_colors() if self._side_colors is not None else None
        first, second = own if own is not None else self._colors
        bottom_color, top_color = (second, first) if self._is_flipped else (first, second)
        bottom_share = 1 - self._share if self._is_flipped else self._share
        split = rect.top() + rect.height() * (1 - bottom_share)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.fillRect(QRectF(rect.left(), rect.top(), rect.width(), split - rect.top()), top_color)
        painter.fillRect(QRectF(rect.left(), split, rect.width(), rect.bottom() - split), bottom_color)
        mid = rect.top() + rect.height() / 2
        painter.setPen(QColor(128, 128, 128, 160))
        painter.drawLine(int(rect.left()), int(mid), int(rect.right()), int(mid))
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(rect)
        text = self.label_text()
        if text:
            font = self.label_font()
            painter.setFont(font)
            metrics = QFontMetrics(font)
            words = text.split("\n")
            # The number sits at the end of the leading side, dark on light or light on dark,
            # read top down after the leader's initial: "W / 1.2", "B / #-3", "X / wins / in 5".
            mark = self.leader_mark()
            bottom_leads = bottom_share >= 0.5
            line = metrics.height()
            lines = [mark, *words] if mark else words
            height = line * len(lines) + 4
            if bottom_leads:
                box = QRectF(rect.left(), rect.bottom() - height, rect.width(), height)
                painter.setPen(text_color_on(bottom_color))
            else:
                box = QRectF(rect.left(), rect.top(), rect.width(), height)
                painter.setPen(text_color_on(top_color))
            for index, row_text in enumerate(lines):
                row = QRectF(box.left(), box.top() + 2 + index * line, box.width(), line)
                painter.drawText(row, Qt.AlignmentFlag.AlignCenter, row_text)
        painter.end()
