"""A shared transposition table of a requested size, or the reason there can be none.

The size is checked against the free shared memory before the table is made: on a tmpfs
(``/dev/shm``) a mapping larger than the space left is made without complaint, and touching
its far pages later kills the process with SIGBUS.
"""

from __future__ import annotations

import os

from ai.parallel.segment import SEGMENT_DIRECTORY
from ai.parallel.shared_table import SharedTable


def create_table(megabytes: float) -> SharedTable:
    """A shared table of ``megabytes`` MB, or ``ValueError`` saying why none can be made."""
    if isinstance(megabytes, bool) or not isinstance(megabytes, (int, float)):
        raise ValueError(f"the table size is a number of megabytes, not {megabytes!r}")
    if not megabytes > 0 or megabytes == float("inf"):
        raise ValueError(f"the shared transposition table needs a positive size, not {megabytes} MB")
    free = free_shared_megabytes()
    if free is not None and megabytes > free:
        raise ValueError(f"cannot make a shared table of {megabytes} MB: only {free:.0f} MB of shared memory are free")
    try:
        return SharedTable.create(megabytes)
    except (OSError, OverflowError, MemoryError) as error:
        raise ValueError(f"cannot make a shared table of {megabytes} MB: {error}") from None


def free_shared_megabytes() -> float | None:
    """Free space for shared memory in MB, or ``None`` where that cannot be known."""
    try:
        stats = os.statvfs(SEGMENT_DIRECTORY)
    except (OSError, AttributeError):
        return None
    return stats.f_bavail * stats.f_frsize / (1 << 20)
