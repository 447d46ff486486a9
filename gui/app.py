"""``plyground``: the one entry point for the app and the engine's command line.

* ``plyground`` (or only app options such as ``--self-test``) opens the app;
* ``plyground perft|analyse|uci|... ARGS`` runs ``ai.cli.main`` and never imports Qt, so
  the command line starts fast and works where Qt cannot (no display, no GL libraries).

This module imports nothing of Qt at its top: the GUI is imported only on the app's path.
Without a display (no ``DISPLAY``/``WAYLAND_DISPLAY`` and no ``QT_QPA_PLATFORM``) Qt would
abort the process; the app says so in one line and exits 2 instead.

``plyground --self-test`` opens the main window, plays a few moves of every game against the
engine through the real session, bridge and pool, checks what it drew, and exits 0 — or 1
with a one-line reason, or 3 when its watchdog fires (see ``gui.selftest``).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import signal
import sys
from collections.abc import Sequence

APP_NAME = "Plyground"
EXIT_NO_DISPLAY = 2
HEARTBEAT_MS = 200
"""A no-op timer this often lets Python run its signal handlers while Qt's loop runs."""


def is_cli(argv: Sequence[str]) -> bool:
    """Whether the arguments select the engine's command line (a subcommand first)."""
    return bool(argv) and not argv[0].startswith("-")


def display_problem(environ: dict[str, str] | os._Environ[str], platform: str = sys.platform) -> str | None:
    """The one line to print when Qt has no display to open a window on, else ``None``."""
    if not platform.startswith("linux"):
        return None
    if environ.get("QT_QPA_PLATFORM") or environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"):
        return None
    return (
        "plyground: no display (DISPLAY and WAYLAND_DISPLAY are unset): run the app on a desktop, "
        "or without a window with QT_QPA_PLATFORM=offscreen plyground --self-test; "
        "the engine's command line needs no display (plyground perft|analyse|uci ...)"
    )


def cli_commands() -> list[str]:
    """The engine's subcommands (``ai.cli``'s parser is the one place that lists them)."""
    from ai.cli import build_parser

    for action in build_parser()._actions:
        if isinstance(action, argparse._SubParsersAction):
            return list(action.choices)
    return []


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="plyground",
        description=f"{APP_NAME}: play five classic games against a search engine and watch it think.",
        epilog=f"The engine's command line (no window, no Qt): plyground {{{','.join(cli_commands())}}} ...; "
        "plyground COMMAND --help says more.",
    )
    parser.add_argument("--self-test", action="store_true", help="play a few moves of every game through the app, check, exit")
    from gui.selftest import screenshot_argument, timeout_argument  # checked here: one line, exit 2

    parser.add_argument("--timeout", type=timeout_argument, default=120.0, help="self-test watchdog in seconds (default 120)")
    parser.add_argument("--screenshot", type=screenshot_argument, metavar="PNG", help="with --self-test: save the window at the end")
    parser.add_argument("--smoke-test", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--workers", type=int, default=None, help="engine worker processes (default: the settings, all cores)")
    return parser.parse_args(list(argv))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the app or the command line; returns the exit status."""
    multiprocessing.freeze_support()  # harmless when not frozen; the frozen entry calls it first too
    arguments = list(sys.argv[1:] if argv is None else argv)
    if is_cli(arguments):
        from ai.cli import main as cli_main

        return int(cli_main(arguments))
    args = parse_args(arguments)
    problem = display_problem(os.environ)
    if problem is not None:
        print(problem, file=sys.stderr)
        return EXIT_NO_DISPLAY
    return run_app(args)


def run_app(args: argparse.Namespace) -> int:
    """Make the QApplication and the window, run the event loop, shut down in order."""
    if args.self_test or args.smoke_test:
        from gui.selftest import isolate_data

        isolate_data()  # the self-test never touches the user's settings or autosave
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from gui.main_window import MainWindow, apply_theme
    from gui.settings import Settings

    app = QApplication.instance() or QApplication([sys.argv[0]])
    assert isinstance(app, QApplication)
    app.setApplicationName(APP_NAME)
    app.setOrganizationName(APP_NAME)
    app.setApplicationDisplayName(APP_NAME)
    from gui import startup_probe
    from gui.about import app_icon

    app.setWindowIcon(app_icon())
    probe = startup_probe.install(app)  # noqa: F841 (kept while the app runs; bench/startup.py)
    load_fonts()
    settings = Settings()
    apply_theme(app, settings.theme)
    window = MainWindow(settings=settings, workers=args.workers, offer_resume=not (args.self_test or args.smoke_test))
    window.show()
    quit_app = lambda *_: app.quit()  # noqa: E731
    # Closing the terminal that started the app (SIGHUP) quits it as SIGTERM does.
    quitting = [getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)]
    previous = {sig: signal.signal(sig, quit_app) for sig in quitting}
    heartbeat = QTimer()
    heartbeat.timeout.connect(lambda: None)
    heartbeat.start(HEARTBEAT_MS)
    try:
        if args.self_test or args.smoke_test:
            from gui.selftest import SelfTest

            test = SelfTest(window, timeout=args.timeout, screenshot=args.screenshot, quick=args.smoke_test)
            QTimer.singleShot(0, test.run)
            app.exec()
            return test.finish()
        return int(app.exec())
    finally:
        heartbeat.stop()
        window.shutdown()  # stops the search and ends the worker processes, also after SIGTERM
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def load_fonts() -> None:
    """The bundled font, so that text renders on a machine without fonts."""
    from gui.resources import load_fonts as load_bundled_fonts

    load_bundled_fonts()
