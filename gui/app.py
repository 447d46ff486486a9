"""The application entry point.

Until the full app lands (the road: worker pool, boards, live engine panels), this opens a
window that says what Plyground is and lists its games and the engine's command line, so
that the launch command works end to end on a fresh machine.
"""

from __future__ import annotations

import argparse
import signal
import sys
from collections.abc import Sequence

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow, QVBoxLayout, QWidget

from games import GAME_NAMES, get_game
from gui import startup_probe
from gui.about import app_icon
from gui.resources import load_fonts

APP_NAME = "Plyground"
SMOKE_TEST_EXIT_MS = 300
"""How long the smoke test shows the window before it quits."""


def _games_summary() -> str:
    lines = []
    for name in GAME_NAMES:
        try:
            game = get_game(name)
            lines.append(f"<li><b>{name}</b> — {game.PLAYER_NAMES[0]} vs {game.PLAYER_NAMES[1]}</li>")
        except (ImportError, AttributeError) as error:  # a game module that failed to load
            lines.append(f"<li><b>{name}</b> — unavailable: {error}</li>")
    return "".join(lines)


class PlaceholderWindow(QMainWindow):
    """The first window: the games and the command line, until the boards arrive."""

    def __init__(self) -> None:
        super().__init__()
        self.setWindowTitle(APP_NAME)
        central = QWidget()
        layout = QVBoxLayout(central)
        title = QLabel(f"<h1>{APP_NAME}</h1><p>Play against a search engine and watch it think.</p>")
        games = QLabel(f"<p>Games:</p><ul>{_games_summary()}</ul>")
        cli = QLabel(
            "<p>The engine's command line: <code>plyground perft</code>, "
            "<code>plyground analyse</code>, <code>plyground uci</code>.</p>"
        )
        for label in (title, games, cli):
            label.setTextFormat(Qt.TextFormat.RichText)
            label.setWordWrap(True)
            layout.addWidget(label)
        layout.addStretch(1)
        self.setCentralWidget(central)
        self.resize(560, 420)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="plyground-gui", description=f"{APP_NAME}: the desktop app")
    parser.add_argument("--smoke-test", action="store_true", help="show the window briefly, then exit 0")
    parser.add_argument("--screenshot", metavar="PNG", help="with --smoke-test: save the window to PNG")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the app; returns the process exit status."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    app = QApplication.instance() or QApplication([sys.argv[0]])
    app.setApplicationName(APP_NAME)
    load_fonts()
    app.setWindowIcon(app_icon())
    probe = startup_probe.install(app)  # noqa: F841 (kept alive; bench/startup.py)
    window = PlaceholderWindow()
    window.show()
    # Let Python run its signal handlers during exec(): Ctrl-C and SIGTERM quit cleanly.
    signal.signal(signal.SIGINT, lambda *_: app.quit())
    signal.signal(signal.SIGTERM, lambda *_: app.quit())
    heartbeat = QTimer()
    heartbeat.start(200)
    heartbeat.timeout.connect(lambda: None)
    if args.smoke_test:

        def finish() -> None:
            if args.screenshot:
                window.grab().save(args.screenshot)
            app.quit()

        QTimer.singleShot(SMOKE_TEST_EXIT_MS, finish)
    return int(app.exec())
