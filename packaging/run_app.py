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
import sys
from collections.abc import Sequence

def choose_entry(argv: Sequence[str]) -> str:
    """``"cli"`` or ``"gui"`` for the arguments after the program name (the rule lives in
    ``gui.app``, which imports no Qt: a subcommand first selects the engine's CLI)."""
    from gui.app import is_cli

    return "cli" if is_cli(argv) else "gui"


def main(argv: Sequence[str]) -> int:
    from gui.app import main as app_main

    return app_main(list(argv))


if __name__ == "__main__":
    multiprocessing.freeze_support()
    sys.exit(main(sys.argv[1:]))
