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

CLI_COMMANDS = frozenset({"perft", "analyse", "uci", "-h", "--help"})
"""First arguments that select the engine's command line instead of the app."""


def choose_entry(argv: Sequence[str]) -> str:
    """``"cli"`` or ``"gui"`` for the arguments after the program name."""
    return "cli" if argv and argv[0] in CLI_COMMANDS else "gui"


def main(argv: Sequence[str]) -> int:
    if choose_entry(argv) == "cli":
        from ai.cli import main as cli_main

        return cli_main(list(argv))
    from gui.app import main as gui_main

    return gui_main(list(argv))


if __name__ == "__main__":
    multiprocessing.freeze_support()
    sys.exit(main(sys.argv[1:]))
