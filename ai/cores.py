"""How many cores this process may use: the most worker processes worth starting.

A module of its own, importing nothing of the engine, so that the settings' range of
``threads``, the pool and the GUI all ask the one function without an import cycle.
"""

from __future__ import annotations

import os


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)
