"""Finding the processes a test started, and everything they started in turn: the test puts
a mark in the environment of what it runs, and every child inherits it."""

from __future__ import annotations

from pathlib import Path

MARK = "PLYGROUND_TEST_MARK"
"""The environment variable that carries a test's mark."""


def processes_marked(mark: str) -> list[int]:
    """Live processes whose environment carries ``MARK=mark`` (a zombie's environment cannot
    be read, so it is not live)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if f"{MARK}={mark}".encode() in (entry / "environ").read_bytes():
                found.append(int(entry.name))
        except OSError:
            continue
    return found
