"""Loading a game's optional C hot paths (``games/<game>/_fast.c``), one rule for every game.

Each is an optional extension built by setup.py: without a C compiler it is missing, and the
game's pure-Python functions run (the same values, slower). ``PLYGROUND_PYTHON_HOTPATHS``
set to anything but 0 forces the Python paths even when the C ones are built, so the two can
be compared on one machine. The packaged app lists every ``games`` module as hidden imports
(``packaging/plyground.spec``), so importing by name here bundles them too.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import Final

FORCE_PYTHON_VARIABLE: Final = "PLYGROUND_PYTHON_HOTPATHS"
"""Set (to anything but 0) in the environment: run the Python hot paths of every game."""


def load_hot_paths(name: str) -> tuple[ModuleType | None, str]:
    """The C module ``name`` (e.g. ``games.othello._fast``) or ``None``, and a line saying
    which backend runs and why (shown by tests that skip, and by the self-test)."""
    if os.environ.get(FORCE_PYTHON_VARIABLE, "") not in ("", "0"):
        return None, f"python ({FORCE_PYTHON_VARIABLE} is set)"
    try:
        module = importlib.import_module(name)
    except ImportError as error:  # not built (no C compiler at install time)
        return None, f"python ({name} did not load: {error})"
    return module, f"native ({name}, C)"
