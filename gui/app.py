"""``plyground``: the one entry point for the app and the engine's command line.

* ``plyground`` (or only app options such as ``--self-test``) opens the app;
* ``plyground perft|analyse|uci|... ARGS`` runs ``ai.cli.main`` and never imports Qt, so
  the command line starts fast and works where Qt cannot (no display, no GL libraries).

This module imports nothing of Qt at its top: the GUI is imported only on the app's path.
When the Qt platform chosen needs a display that is not there (no ``DISPLAY``, a ``DISPLAY``
nobody answers on, ``QT_QPA_PLATFORM=xcb`` without one) Qt would abort the process; the app
says so in one line and exits 2 instead.

``plyground --self-test`` opens the main window, plays a few moves of every game against the
engine through the real session, bridge and pool, checks what it drew, and exits 0 — or 1
with a one-line reason, or 3 when its watchdog fires (see ``gui.selftest``).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import signal
import socket
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

APP_NAME = "Plyground"
EXIT_NO_DISPLAY = 2
HEARTBEAT_MS = 200
"""A no-op timer this often lets Python run its signal handlers while Qt's loop runs."""


GAME_FILE_SUFFIXES = (".pgn", ".pdn", ".json")
"""The game files the app opens (``gui.main_window.FILE_FILTERS``)."""


def is_cli(argv: Sequence[str]) -> bool:
    """Whether the arguments select the engine's command line (a subcommand first) rather
    than the app (options, or a game file to open: ``plyground game.pgn``)."""
    return bool(argv) and not argv[0].startswith("-") and not names_a_file(argv[0])


def names_a_file(word: str) -> bool:
    """Whether a first argument is a file for the app: a game file's suffix, a path with a
    folder, or an existing file that is no subcommand's name."""
    if word.lower().endswith(GAME_FILE_SUFFIXES) or os.sep in word:
        return True
    return os.path.isfile(word) and word not in cli_commands()


DISPLAY_ADVICE = (
    "run the app on a desktop, or without a window with QT_QPA_PLATFORM=offscreen plyground --self-test; "
    "the engine's command line needs no display (plyground perft|analyse|uci ...)"
)
DEFAULT_PLATFORMS = "wayland;xcb"
"""What Qt tries on Linux when ``QT_QPA_PLATFORM`` is unset: Wayland, then X11."""
CONNECT_TIMEOUT_S = 1.0
"""How long the check waits for a display server to accept a connection."""


def display_problem(environ: Mapping[str, str], platform: str = sys.platform) -> str | None:
    """The one line to print when the Qt platform chosen (``QT_QPA_PLATFORM``, a list
    ``a;b`` of fallbacks, each ``name:options``) needs a display server that is not there,
    else ``None``. Qt itself would abort the process (SIGABRT, exit 134) in that case.

    ``xcb`` needs ``DISPLAY`` to name a server that answers, ``wayland*`` a compositor's
    socket; every other platform (offscreen, minimal, vnc, eglfs, ...) needs none."""
    if not platform.startswith("linux"):
        return None
    chosen = environ.get("QT_QPA_PLATFORM", "").strip()
    if not chosen and not environ.get("DISPLAY") and not environ.get("WAYLAND_DISPLAY"):
        return f"plyground: no display (DISPLAY and WAYLAND_DISPLAY are unset): {DISPLAY_ADVICE}"
    reasons = []
    for entry in (chosen or DEFAULT_PLATFORMS).split(";"):
        name = entry.split(":", 1)[0].strip().lower()
        if not name:
            continue
        reason = _missing_display(name, environ)
        if reason is None:
            return None
        if chosen or not reason.endswith("is unset"):  # Qt's own default list: only what was set
            reasons.append(reason)
    if not reasons:
        return None
    return f"plyground: no display ({'; '.join(dict.fromkeys(reasons))}): {DISPLAY_ADVICE}"


def _missing_display(platform_name: str, environ: Mapping[str, str]) -> str | None:
    """Why ``platform_name`` cannot open a window here, or ``None`` when it can."""
    if platform_name == "xcb":
        display = environ.get("DISPLAY", "")
        if not display:
            return "QT_QPA_PLATFORM=xcb needs DISPLAY, which is unset"
        return None if x11_display_answers(display) else f"no X server answers on DISPLAY={display}"
    if platform_name.startswith("wayland"):
        name = environ.get("WAYLAND_DISPLAY", "")
        if not name:
            return "WAYLAND_DISPLAY is unset"
        runtime = environ.get("XDG_RUNTIME_DIR", "")
        path = name if name.startswith("/") else (os.path.join(runtime, name) if runtime else "")
        return None if path and _unix_socket_answers(path) else f"no Wayland compositor answers on WAYLAND_DISPLAY={name}"
    return None


def x11_display_answers(display: str) -> bool:
    """Whether an X server accepts a connection on ``display`` (``:N``, ``unix:N``,
    ``host:N`` with an optional ``.screen``)."""
    host, separator, rest = display.rpartition(":")
    number = rest.split(".", 1)[0]
    if not separator or not number.isdigit():
        return False
    if host in ("", "unix"):
        path = f"/tmp/.X11-unix/X{number}"
        return _unix_socket_answers(path) or _unix_socket_answers("\0" + path)  # file or abstract socket
    try:
        with socket.create_connection((host, 6000 + int(number)), timeout=CONNECT_TIMEOUT_S):
            return True
    except OSError:
        return False


def _unix_socket_answers(path: str) -> bool:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
        connection.settimeout(CONNECT_TIMEOUT_S)
        try:
            connection.connect(path)
        except OSError:
            return False
    return True


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
    parser.add_argument("file", nargs="?", metavar="FILE", help="a game to open (PGN, PDN or Plyground JSON), as Game > Open does")
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
    testing = args.self_test or args.smoke_test
    window = MainWindow(settings=settings, workers=args.workers, offer_resume=not (testing or args.file))
    window.show()
    if args.file and not testing:  # a file given (a file manager's "Open with"): Game > Open's checks and messages
        QTimer.singleShot(0, lambda: window.open_path(Path(args.file)))
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
