"""The players' clocks by the board: one bar above it and one below, as on a chess server.

Each ``ClockFace`` shows a side's name and its time left. The clock that runs is
highlighted; under ``LOW_TIME_SHARE`` of the base time (between ``LOW_TIME_FLOOR`` and
``LOW_TIME_CEILING`` seconds) its time turns the low-time colour; under ten seconds it
shows tenths; a fallen flag reads ``0:00.0`` in that colour. The faces paint themselves
from a few values and repaint only when one of them changed.

``ClockView`` owns the two faces and the ``QTimer`` that reads the session's clock: a
modest rate (``TICK_MS``, faster only while tenths are shown), stopped while no clock
runs, so a paused or finished game costs nothing. It never waits: it only reads the
clock's ``remaining`` (a subtraction) and sets text. Ending the game when a flag falls
is the session's job (its own timer), not the view's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from PySide6.QtCore import QObject, QRectF, QSize, Qt, QTimer
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPaintEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from gui.panels.display import player_names
from gui.session import ClockReadings, GameSession
from gui.theme import Theme

TENTHS_BELOW = 10.0
"""Under this many seconds a clock shows tenths (``0:09.3``), as chess servers do."""
LOW_TIME_SHARE = 0.1
"""A clock is low on time under this share of the base time ..."""
LOW_TIME_FLOOR = 10.0
"""... but never under this many seconds (a 1+0 game turns red at 10 s, not at 6 s) ..."""
LOW_TIME_CEILING = 60.0
"""... nor over this many (a 90-minute game turns red in the last minute)."""
TICK_MS = 200
"""How often a running clock is read while it shows whole seconds (five readings a second
keep the shown second at most 0.2 s late)."""
FAST_TICK_MS = 50
"""How often while it shows tenths (each tenth is shown)."""


def clock_text(seconds: float) -> str:
    """A clock reading as a chess server shows it: ``1:05:00``, ``3:00``, ``0:42``,
    ``0:09.3`` under ten seconds. Time is cut, not rounded, so a clock shows ``0:00.0``
    only when its flag has fallen (or is about to)."""
    if not math.isfinite(seconds) or seconds <= 0:
        return "0:00.0"
    if seconds < TENTHS_BELOW:
        tenths = int(seconds * 10)
        return f"0:{tenths // 10:02d}.{tenths % 10}"
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def low_time_threshold(base: float) -> float:
    """The seconds under which a clock of ``base`` seconds shows the low-time colour."""
    return min(LOW_TIME_CEILING, max(LOW_TIME_FLOOR, LOW_TIME_SHARE * base))


@dataclass(frozen=True)
class ClockColours:
    """The colours of a clock face: resting, running, and low on time (running or not)."""

    idle_background: str
    idle_text: str
    running_background: str
    running_text: str
    low_background: str
    low_text: str
    border: str


LIGHT_CLOCKS = ClockColours("#e9e6e1", "#5f5c59", "#d2e6bd", "#1b1b1b", "#f6d6d2", "#a3201a", "#c8c4be")
DARK_CLOCKS = ClockColours("#2e2c29", "#a19d97", "#3e5a28", "#f4f1ea", "#5a2420", "#ffb0a6", "#4a4741")
"""The running clock on Lichess's green, the resting one grey, low time red; every text and
background pair has a contrast of at least 4.5:1 (WCAG AA), so a clock is read at a glance
in either window theme (``tests/gui/test_clock_view.py`` computes it)."""


def clock_colours(theme: Theme) -> ClockColours:
    return DARK_CLOCKS if theme.is_dark else LIGHT_CLOCKS


@dataclass(frozen=True)
class FaceShown:
    """What one face shows; the face repaints only when this changes."""

    name: str
    time: str
    running: bool
    low: bool


class ClockFace(QWidget):
    """One side's clock: its name on the left, its time on the right."""

    PADDING = 8
    TIME_POINT_SCALE = 1.6
    """The time's font against the window's: read from afar, as a wall clock."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("clockFace")
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.shown = FaceShown("", "", running=False, low=False)
        self.colours = LIGHT_CLOCKS

    def time_font(self) -> QFont:
        font = QFont(self.font())
        font.setPointSizeF(max(9.0, font.pointSizeF() * self.TIME_POINT_SCALE))
        font.setBold(True)
        font.setStyleHint(QFont.StyleHint.Monospace)
        font.setFeature(QFont.Tag("tnum"), 1)  # tabular digits: the time does not jiggle as it runs
        return font

    def name_font(self) -> QFont:
        font = QFont(self.font())
        font.setBold(self.shown.running)
        return font

    def show_values(self, shown: FaceShown) -> None:
        if shown != self.shown:
            self.shown = shown
            self.setToolTip(f"{shown.name}: {shown.time}" + (" (running)" if shown.running else ""))
            self.update()

    def set_colours(self, colours: ClockColours) -> None:
        if colours != self.colours:
            self.colours = colours
            self.update()

    def _time_width(self) -> int:
        """Room for the widest reading (``0:00:00``), so the bar does not change width as
        the time runs."""
        return QFontMetrics(self.time_font()).horizontalAdvance("0:00:00")

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        metrics = QFontMetrics(self.time_font())
        name = QFontMetrics(self.font()).horizontalAdvance("Computer (White)")
        return QSize(name + self._time_width() + 3 * self.PADDING, metrics.height() + self.PADDING)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        """The time always fits whole; the name is elided first."""
        metrics = QFontMetrics(self.time_font())
        return QSize(self._time_width() + 2 * self.PADDING, metrics.height() + self.PADDING)

    def paintEvent(self, _event: QPaintEvent) -> None:  # noqa: N802 - Qt's name
        shown, colours = self.shown, self.colours
        if shown.low:
            background, text = colours.low_background, colours.low_text
        elif shown.running:
            background, text = colours.running_background, colours.running_text
        else:
            background, text = colours.idle_background, colours.idle_text
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        area = QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5)
        painter.setPen(QColor(colours.running_text if shown.running else colours.border))
        painter.setBrush(QColor(background))
        painter.drawRoundedRect(area, 4, 4)
        painter.setPen(QColor(text))
        inner = self.rect().adjusted(self.PADDING, 0, -self.PADDING, 0)
        painter.setFont(self.time_font())
        time_width = QFontMetrics(self.time_font()).horizontalAdvance(shown.time)
        painter.drawText(inner, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, shown.time)
        name_room = inner.width() - max(time_width, self._time_width()) - self.PADDING
        if name_room > 0:
            name_font = self.name_font()
            painter.setFont(name_font)
            name = QFontMetrics(name_font).elidedText(shown.name, Qt.TextElideMode.ElideRight, name_room)
            painter.drawText(inner.adjusted(0, 0, -(inner.width() - name_room), 0), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, name)
        painter.end()


class ClockView(QObject):
    """The two faces of a game with a clock, kept up to date by a timer while one runs.

    ``faces[player]`` is that player's face; the board area places ``top()`` above the
    board and ``bottom()`` below it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.faces = (ClockFace(parent), ClockFace(parent))
        self.session: GameSession | None = None
        self._bottom = 0
        self._ply: int | None = None
        """The ply looked at when stepping back through the game; ``None``: the live clocks."""
        self.timer = QTimer(self)
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.timeout.connect(self.refresh)
        for face in self.faces:
            face.hide()

    def attach(self, session: GameSession | None) -> None:
        """Show ``session``'s clocks (none when it plays without a clock)."""
        if self.session is not None:
            try:
                self.session.state_changed.disconnect(self.refresh)
                self.session.clock_held.disconnect(self.refresh)
            except (RuntimeError, TypeError):
                pass
        self.session = session
        self._ply = None
        if session is not None:
            session.state_changed.connect(self.refresh)
            session.clock_held.connect(self.refresh)
        self.refresh()

    def show_ply(self, ply: int | None) -> None:
        """Show the clocks as they read after ``ply`` moves (looking back), or live (``None``).
        While the game goes on the live clocks stay shown: a player looking back in blitz
        must still see their own time run (as on Lichess); a finished game shows each
        position's readings."""
        if ply != self._ply:
            self._ply = ply
            self.refresh()

    def set_bottom_player(self, player: int) -> None:
        self._bottom = player

    def top(self) -> ClockFace:
        return self.faces[1 - self._bottom]

    def bottom(self) -> ClockFace:
        return self.faces[self._bottom]

    def set_theme(self, theme: Theme) -> None:
        for face in self.faces:
            face.set_colours(clock_colours(theme))

    def is_shown(self) -> bool:
        """Whether the game has clocks to show."""
        return self.session is not None and self.session.clock_readings() is not None

    def refresh(self) -> None:
        """Read the clock and show it; the timer runs only while a clock runs."""
        looking_back = self._ply is not None and self.session is not None and self.session.is_over
        if self.session is None:
            readings = None
        elif looking_back and self._ply is not None:
            readings = self.session.clock_readings_at(self._ply)
        else:
            readings = self.session.clock_readings()
        if readings is None:
            self.timer.stop()
            return
        assert self.session is not None
        names = player_names(self.session.game_class)
        threshold = low_time_threshold(readings.base)
        for player, face in enumerate(self.faces):
            seconds = readings.remaining[player]
            side = self.session.players[player]
            label = f"{names[player]} · {'Computer' if side.is_computer else 'Human'}"
            on_turn = readings.turn == player
            if looking_back:
                pass  # a past position: its readings, nothing about now
            elif on_turn and self.session.paused:
                label += " · paused"
            elif on_turn and not readings.timed:
                label += " · first move, untimed"
            elif on_turn and readings.delay > 0:
                label += f" · delay {math.ceil(readings.delay)} s"  # the clock stands until it is gone
            face.show_values(FaceShown(label, clock_text(seconds), running=on_turn, low=seconds < threshold))
        self._schedule(readings)

    def _schedule(self, readings: ClockReadings) -> None:
        if not readings.running or readings.turn is None:
            self.timer.stop()
            return
        interval = FAST_TICK_MS if readings.remaining[readings.turn] < TENTHS_BELOW + 1 else TICK_MS
        if not self.timer.isActive() or self.timer.interval() != interval:
            self.timer.start(interval)

    def stop(self) -> None:
        self.timer.stop()

