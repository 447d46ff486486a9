"""``plyground --self-test``: the app checks itself, end to end, in a few seconds.

For every game it starts a new game in the real main window (human against a depth-1
computer), makes the human's moves the way a board does (its ``move_requested`` signal),
lets the computer answer through the session, the bridge and the engine pool, and checks
what the window shows: the board's picture is not blank, the move list holds the moves,
take-back works. The start page is checked too. A watchdog ends a stuck run.

Exit status: 0 passed; 1 a check failed (one line on stderr says which), or the app was
asked to quit (SIGTERM, SIGINT) before every check ran; 3 the watchdog. Only a run that
made every check passes. The run uses a temporary data directory, never the user's
settings or autosave.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QWidget

from games import CHANCE, GAME_NAMES
from gui.boards.base import BoardWidget
from gui.players import COMPUTER, HUMAN, PlayerConfig
from gui.settings import DATA_DIR_ENV

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_TIMEOUT = 3
HUMAN_MOVES = 3
"""Moves the human side makes in each game (each answered by the computer)."""
MAX_TIMEOUT = (2**31 - 1) / 1000
"""The longest watchdog, in seconds: a Qt timer's interval is a 32-bit count of ms (24.8 days)."""
STEP_TIMEOUT = 60.0
"""Seconds one computer answer may take before the check fails."""
QUITTING = -1
"""What ``QEventLoop.exec`` returns when the application is already quitting."""
AVOID_FIRST = ("double", "drop", "resign")
"""Moves the self-test's human avoids when it has a choice (they would end the game)."""


class SelfTestFailure(Exception):
    """A check failed; the message is the one line printed."""


class SelfTestStopped(SelfTestFailure):
    """The application was asked to quit (a signal) while the self-test ran."""


def check_timeout(seconds: float) -> float:
    """``seconds`` when it can be a watchdog: positive, finite, and at most ``MAX_TIMEOUT``
    (``ValueError`` otherwise: a NaN or infinite watchdog never fires)."""
    if not 0 < seconds <= MAX_TIMEOUT:  # nan fails both comparisons
        raise ValueError(f"the self-test timeout must be more than 0 and at most {MAX_TIMEOUT:.0f} s, not {seconds:g}")
    return seconds


def check_screenshot(path: str) -> str:
    """``path`` when a PNG can be written there (its folder exists), else ``ValueError``:
    a screenshot that cannot be saved is found before the run, not silently after it."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise ValueError(f"{path!r} is a folder; name a PNG file")
    if not os.path.isdir(folder):
        raise ValueError(f"cannot save {path!r}: the folder {folder!r} does not exist")
    if not os.access(folder, os.W_OK):
        raise ValueError(f"cannot save {path!r}: the folder {folder!r} cannot be written")
    return path


def isolate_data() -> None:
    """Point the app's data (settings, autosave) to a fresh temporary directory."""
    if not os.environ.get(DATA_DIR_ENV):
        os.environ[DATA_DIR_ENV] = tempfile.mkdtemp(prefix="plyground-selftest-")


def is_blank(image: QImage, samples: int = 24) -> bool:
    """Whether a picture is one flat colour (nothing drawn), sampled on a grid."""
    if image.isNull() or image.width() < 4 or image.height() < 4:
        return True
    colours = set()
    for row in range(samples):
        for column in range(samples):
            x = int((column + 0.5) * image.width() / samples)
            y = int((row + 0.5) * image.height() / samples)
            colours.add(image.pixel(x, y))
    return len(colours) < 3


def timeout_argument(text: str) -> float:
    """The app's ``--timeout`` option (argparse type): a number ``check_timeout`` accepts."""
    try:
        return check_timeout(float(text))
    except ValueError as error:
        message = str(error) if "timeout" in str(error) else f"{text[:40]!r} is not a number"
        raise argparse.ArgumentTypeError(message) from None


def screenshot_argument(text: str) -> str:
    """The app's ``--screenshot`` option (argparse type): a file ``check_screenshot`` accepts."""
    try:
        return check_screenshot(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


class SelfTest:
    """Drives the window from the event loop (``run`` is started by a zero timer)."""

    def __init__(self, window: Any, *, timeout: float = 120.0, screenshot: str | None = None, quick: bool = False) -> None:
        self.window = window
        self.timeout = check_timeout(timeout)
        self.screenshot = check_screenshot(screenshot) if screenshot else None
        self.quick = quick
        self.failure: str | None = None
        self.completed = False
        """Whether every check ran (a run stopped by a signal never passes)."""
        self.timed_out = False
        self.started = time.monotonic()
        self.watchdog = QTimer()
        self.watchdog.setSingleShot(True)
        self.watchdog.timeout.connect(self._on_watchdog)
        self.report: list[str] = []

    # ------------------------------------------------------------------ driver
    def run(self) -> None:
        self.watchdog.start(int(self.timeout * 1000))
        try:
            self.check_start_page()
            if not self.quick:
                for game in GAME_NAMES:
                    self.check_game(game)
                self.check_workers()
            if self.screenshot and not self.window.grab().save(self.screenshot):
                raise SelfTestFailure(f"the screenshot could not be saved to {self.screenshot!r}")
            self.completed = True
        except SelfTestFailure as failure:
            self.failure = str(failure)
        except Exception as error:  # noqa: BLE001 - any crash is a failed self-test, said in one line
            self.failure = f"{type(error).__name__}: {error}"
        finally:
            self.watchdog.stop()
            QApplication.quit()

    def finish(self) -> int:
        if self.timed_out:
            print(f"plyground: self-test failed: watchdog fired after {self.timeout:g} s ({self.failure or 'stuck'})", file=sys.stderr)
            return EXIT_TIMEOUT
        if self.failure is not None:
            print(f"plyground: self-test failed: {self.failure}", file=sys.stderr)
            return EXIT_FAILED
        if not self.completed:  # the event loop ended before the run did (a signal)
            print(f"plyground: self-test failed: {self.stopped_text()}", file=sys.stderr)
            return EXIT_FAILED
        elapsed = time.monotonic() - self.started
        print(f"plyground: self-test passed in {elapsed:.1f} s: {'; '.join(self.report)}")
        return EXIT_OK

    def stopped_text(self) -> str:
        done = "; ".join(self.report) or "nothing"
        return f"stopped before it finished (the app was asked to quit); checked: {done}"

    def _on_watchdog(self) -> None:
        self.timed_out = True

    def wait_until(self, condition: Callable[[], bool], seconds: float, what: str) -> None:
        """Run the event loop until ``condition`` holds; fail after ``seconds``, or at once
        when the application is quitting (a signal asked it to): Qt then ends every event
        loop, and a new one returns at once with -1, which would spin to the deadline."""
        deadline = time.monotonic() + seconds
        loop = QEventLoop()
        while not condition():
            if self.timed_out:
                raise SelfTestFailure(f"while waiting for {what}")
            if time.monotonic() > deadline:
                raise SelfTestFailure(f"{what}: not within {seconds:g} s")
            QTimer.singleShot(20, loop.quit)
            if loop.exec() == QUITTING:
                raise SelfTestStopped(self.stopped_text())

    # ------------------------------------------------------------------ checks
    def check_start_page(self) -> None:
        window = self.window
        window.show_start_page()
        self.wait_until(lambda: window.isVisible(), 10, "the window to show")
        for name, card in window.start_page.cards.items():
            if is_blank(card.grab().toImage()):
                raise SelfTestFailure(f"the start page's {name} card is blank")
        self.report.append("start page")

    def check_game(self, game: str) -> None:
        window = self.window
        computer = PlayerConfig(kind=COMPUTER, strength="depth", depth=1).for_game(game)
        session = window.start_game(game, (PlayerConfig(kind=HUMAN), computer), manual_dice=False)
        board: BoardWidget = window.game_view.board
        human_moves = 0
        while human_moves < HUMAN_MOVES and not session.is_over:
            self.wait_until(
                lambda: session.is_over or (session.can_human_move() and session.state.to_move() == 0),
                STEP_TIMEOUT,
                f"{game}: the computer's move",
            )
            if session.is_over:
                break
            before = len(session.history)
            move = self.choose(session.state.legal_moves(), session.state)
            board.move_requested.emit(move)  # exactly what a click on the board does
            self.wait_until(lambda: len(session.history) > before, 5, f"{game}: the board's move to be played")
            if session.history[before].move != move:
                raise SelfTestFailure(f"{game}: the board asked for {session.state.move_name(move)}, another move was played")
            human_moves += 1
        self.wait_until(
            lambda: session.is_over or not session.is_thinking and session.state.to_move() in (0, CHANCE) and session.can_human_move()
            or session.is_over,
            STEP_TIMEOUT,
            f"{game}: the computer's last answer",
        )
        played = len(session.history)
        if played < 2 and not session.is_over:
            raise SelfTestFailure(f"{game}: only {played} moves were played")
        computer_moves = sum(1 for entry in session.history if entry.mover == 1)
        if computer_moves == 0 and not session.is_over:
            raise SelfTestFailure(f"{game}: the computer never moved")
        texts = window.game_view.moves.moves.item_texts()
        if not texts or window.game_view.moves.moves.total_plies != played:
            raise SelfTestFailure(f"{game}: the move list shows {len(texts)} cells for {played} moves")
        QApplication.processEvents()
        if is_blank(board.grab().toImage()):
            raise SelfTestFailure(f"{game}: the board's picture is blank")
        if session.can_undo():
            session.undo()
            self.wait_until(lambda: len(session.history) < played, 5, f"{game}: take-back")
        self.report.append(f"{game} {played} moves")

    def check_workers(self) -> None:
        """The computer's moves came from the engine's worker processes (the pool)."""
        import multiprocessing

        pool = getattr(self.window.bridge, "pool", None)
        workers = getattr(pool, "workers", 0) if pool is not None else 0
        children = len(multiprocessing.active_children())
        if not workers or not children:
            raise SelfTestFailure(f"the engine searched without worker processes (pool {pool!r})")
        self.report.append(f"engine pool of {workers} worker process{'es' if workers != 1 else ''}")

    @staticmethod
    def choose(moves: list[Any], state: Any) -> Any:
        """A legal move, avoiding those that end the game at once (a double, a drop)."""
        preferred = [move for move in moves if state.move_name(move) not in AVOID_FIRST]
        return (preferred or moves)[len(preferred or moves) // 2]
