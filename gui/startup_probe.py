"""Startup measurement: when the first main window has painted, write the time and quit.

``bench/startup.py`` measures "launch to first painted window" from outside the process, for
the app run from source and for the frozen build alike. It sets ``PLYGROUND_STARTUP_PROBE`` to
a file path; the app calls ``install(app)`` once its ``QApplication`` exists (one line in
``gui.app``), and then:

1. an application-wide event filter waits for the first ``Paint`` event of any widget whose
   top-level window is a ``QMainWindow``;
2. once that paint has been handled, it writes one JSON object to the file and asks the app to
   quit, so the run ends through the app's normal shutdown (workers stopped, nothing left
   behind): ``painted_at`` (``time.time()``, comparable with the launcher's clock on the same
   machine), ``font`` (the application font's family), ``families`` (every family Qt can
   use), ``window_icon_sizes`` and ``version`` (what the About box shows). The packaging
   check starts the frozen build with fontconfig blinded to the system's fonts and reads
   them: the text must still have the bundled font, the window its icon, the build its version.

Without the variable ``install`` does nothing and costs nothing.
"""

from __future__ import annotations

import json
import os
import time

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer
from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import QMainWindow, QWidget

PROBE_ENV = "PLYGROUND_STARTUP_PROBE"


class FirstPaintProbe(QObject):
    """Watches every event until a main window has painted once, then reports and quits."""

    def __init__(self, app: QCoreApplication, path: str) -> None:
        super().__init__(app)
        self._app = app
        self._path = path
        self._fired = False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if (
            not self._fired
            and event.type() == QEvent.Type.Paint
            and isinstance(watched, QWidget)
            and isinstance(watched.window(), QMainWindow)
        ):
            self._fired = True
            QTimer.singleShot(0, self._report)  # after this paint has been drawn
        return False

    def _report(self) -> None:
        painted_at = time.time()
        from gui.about import app_version  # after the clock: not part of the measured start

        report = {
            "painted_at": painted_at,
            "font": QGuiApplication.font().family(),
            "families": QFontDatabase.families(),
            "window_icon_sizes": [size.width() for size in QGuiApplication.windowIcon().availableSizes()],
            "version": app_version(),
        }
        self._app.removeEventFilter(self)
        with open(self._path, "w", encoding="utf-8") as file:
            json.dump(report, file)
        self._app.quit()


def install(app: QCoreApplication, environ: os._Environ[str] | dict[str, str] = os.environ) -> FirstPaintProbe | None:
    """Arm the probe if ``PLYGROUND_STARTUP_PROBE`` names a file; returns it (``None`` if not)."""
    path = environ.get(PROBE_ENV)
    if not path:
        return None
    probe = FirstPaintProbe(app, path)
    app.installEventFilter(probe)
    return probe
