"""What every scene-by-scene screenshot tool shares: a ``Shot`` (a name and the function that
plays the scene in the real window) and ``run``, the command line that plays the chosen shots
in each theme and writes ``<prefix>-<name>-<theme>.png`` (``tools.gui_screens_search``,
``tools.gui_screens_players``).

A scene returns the widget to grab (the window or a dialog), or a finished picture when it is
made of several windows (a dialog with a list open).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PLYGROUND_DATA_DIR", tempfile.mkdtemp(prefix="plyground-screens-"))

from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QApplication, QWidget

from gui.app import load_fonts
from gui.main_window import MainWindow, apply_theme
from tools.gui_screens_app import settle, spin

DEFAULT_OUT = Path(__file__).resolve().parent.parent / "docs" / "screens"
WINDOW_SIZE = (1400, 860)
"""The large window of the screenshots: room for the board and a wide engine dock."""
THEMES = ("light", "dark")


@dataclass(frozen=True)
class Shot:
    """One picture: its name (``<prefix>-<name>-<theme>.png``) and how it is made."""

    name: str
    make: Callable[[MainWindow], QWidget | QPixmap]
    """Plays the scene in the window and returns the widget to grab (the window or a
    dialog), or the picture itself."""


def run(shots: Sequence[Shot], prefix: str, description: str, before_each: Callable[[MainWindow], None] | None = None) -> int:
    """The screenshot command line: ``--out DIR``, ``--only NAME ...``, ``--themes ...``.
    Every chosen shot is played in one window at ``WINDOW_SIZE``, theme by theme;
    ``before_each`` readies the window for a scene. A search a scene leaves running plays
    its move now, so the next scene starts clean."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output directory (default: docs/screens/)")
    parser.add_argument("--only", nargs="*", default=[shot.name for shot in shots], help="pictures to make (by name)")
    parser.add_argument("--themes", nargs="*", default=list(THEMES))
    args = parser.parse_args()
    unknown = set(args.only) - {shot.name for shot in shots}
    if unknown:
        parser.error(f"no such picture: {', '.join(sorted(unknown))} (known: {', '.join(shot.name for shot in shots)})")
    args.out.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    load_fonts()
    window = MainWindow(offer_resume=False, seed=5)
    window.resize(*WINDOW_SIZE)
    window.show()
    written = []
    try:
        for theme in args.themes:
            apply_theme(app, theme)  # type: ignore[arg-type]
            window.set_theme(theme)
            for shot in shots:
                if shot.name not in args.only:
                    continue
                window.resize(*WINDOW_SIZE)
                if before_each is not None:
                    before_each(window)
                began = time.monotonic()
                made = shot.make(window)
                settle()
                path = args.out / f"{prefix}-{shot.name}-{theme}.png"
                picture = made if isinstance(made, QPixmap) else made.grab()
                picture.save(str(path), "PNG", 0)  # 0: the smallest file
                written.append(path)
                print(f"{path} ({time.monotonic() - began:.0f} s)", file=sys.stderr)
                if isinstance(made, QWidget) and made is not window:
                    made.close()
                stop_search(window)
    finally:
        window.shutdown()
    for path in written:
        print(path)
    return 0


def stop_search(window: MainWindow) -> None:
    """A search still running after its picture plays its move now (the next scene starts clean)."""
    session = window.session
    if session is not None and session.is_thinking:
        session.move_now()
        spin(lambda: not session.is_thinking, 30)
