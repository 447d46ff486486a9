"""Game-agnostic search: algorithms, the worker pool and the command line. No Qt here.

When this package is imported by the ``plyground`` program as it starts (its console
script, the frozen executable, ``python -m ai.cli``), Ctrl-C until ``ai.cli.main`` runs
ends the program at once, quietly, with status 130, instead of a ``KeyboardInterrupt`` traceback from
the middle of an import: the guard is set here, the first of the program's own code to run.
A library user importing ``ai`` is not affected.
"""

from __future__ import annotations

import os
import signal
import sys

INTERRUPTED_STATUS = 130
"""128 + SIGINT, as a shell reports a program stopped by Ctrl-C."""


def interrupted_while_starting(_signum: int, _frame: object) -> None:
    """Ctrl-C before ``ai.cli.main`` runs: nothing was done or written yet, so leave at once
    (``os._exit``: an exception raised here could land in a finaliser and be swallowed)."""
    os._exit(INTERRUPTED_STATUS)


def _starting_the_program() -> bool:
    main = sys.modules.get("__main__")
    program = os.path.basename(getattr(main, "__file__", None) or "").removesuffix(".exe")
    # ``python -m ai.cli``: while runpy imports the package, ``sys.argv[0]`` is "-m".
    return program == "plyground" or sys.argv[:1] == ["-m"]


if _starting_the_program() and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
    # (A worker process of the engine pool starts with SIGINT ignored: it stays so.)
    signal.signal(signal.SIGINT, interrupted_while_starting)
