"""Leave no multiprocessing resource tracker behind when the last pool ends.

multiprocessing's resource tracker is a child process started by the first ``spawn`` of
the program and kept until the interpreter exits. The pools' shared memory does not use it
(``ai.parallel.segment``), so a tracker that the pools started is ended when the last pool
ends, and no child process of the pools outlives them. It must outlive every worker:
ending it waits for their copies of its pipe.

This reads two private attributes of ``multiprocessing.resource_tracker`` (``_pid``,
``_stop``); where they are missing nothing is ended and the interpreter's exit ends it.
"""

from __future__ import annotations

import multiprocessing
import threading
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from multiprocessing import resource_tracker

_lock = threading.Lock()
_live_pools = 0
_tracker_is_ours = False
"""Whether no tracker ran when the first of the live pools started (so the pools started it)."""


def pool_started() -> None:
    """Count a pool in: the first one notes whether a tracker was running already."""
    global _live_pools, _tracker_is_ours
    with _lock:
        if _live_pools == 0:
            _tracker_is_ours = getattr(resource_tracker._resource_tracker, "_pid", None) is None
        _live_pools += 1


def pool_ended() -> None:
    """Count a pool out: the last one ends the tracker if the pools started it."""
    global _live_pools
    with _lock:
        _live_pools -= 1
        # Another process of ours (not a pool's) would keep the tracker's pipe open, and
        # ending the tracker would wait for it: leave the tracker to the interpreter's exit.
        if _live_pools == 0 and _tracker_is_ours and not multiprocessing.active_children():
            stop = getattr(resource_tracker._resource_tracker, "_stop", None)
            if stop is not None:
                try:
                    stop()
                except Exception:  # it is gone already
                    pass


@contextmanager
def quiet_relaunch() -> Iterator[None]:
    """Around a ``spawn``: it relaunches the tracker if the tracker was killed (with its
    process group, say) and warns that "some resources might leak". None of the pools'
    can, since they register nothing with the tracker (``ai.parallel.segment``)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="resource_tracker: process died unexpectedly")
        yield
