"""The frozen executable's entry point: one program for the app and the engine's CLI.

``plyground`` with no arguments (or app options such as ``--smoke-test``) opens the app;
``plyground perft|analyse|uci ...`` runs the engine's command line, so the frozen build can
be registered as a UCI engine in other chess GUIs. ``multiprocessing.freeze_support()``
comes first: the worker pool's spawn children re-run this script, and without it each
child would parse their ``--multiprocessing-fork`` arguments as ours (see
``../shared/notes/packaging.md``).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

PR_SET_PDEATHSIG = 1
"""Linux prctl option: the signal this process gets when its parent dies."""


def end_with_the_launcher() -> None:
    """In a one-file build on Linux, get SIGTERM when the launcher that unpacked us dies.

    A one-file build runs as two processes: PyInstaller's launcher and this one. SIGKILL on
    the launcher (a task manager, ``kill -9``) would leave this process, and so its worker
    pool, running (measured by packaging/check_frozen.py). SIGTERM ends the app through its
    normal shutdown; the workers then see their parent gone and end. The launcher is
    single-threaded, so the parent-death signal fires only when it exits.
    """
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle is None or not sys.platform.startswith("linux"):
        return
    if Path(bundle).resolve().parent == Path(sys.executable).resolve().parent:
        return  # one-dir: _internal/ beside the executable, no launcher process
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    launcher = os.getppid()
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != launcher:  # the launcher died before the request was made
        os.kill(os.getpid(), signal.SIGTERM)


def choose_entry(argv: Sequence[str]) -> str:
    """``"cli"`` or ``"gui"`` for the arguments after the program name (the rule lives in
    ``gui.app``, which imports no Qt: a subcommand first selects the engine's CLI)."""
    from gui.app import is_cli

    return "cli" if is_cli(argv) else "gui"


def main(argv: Sequence[str]) -> int:
    from gui.app import main as app_main

    return app_main(list(argv))


if __name__ == "__main__":
    multiprocessing.freeze_support()  # first: a worker or helper process of the pool ends here
    end_with_the_launcher()
    sys.exit(main(sys.argv[1:]))
