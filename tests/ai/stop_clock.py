"""Stop latency measured in the searching thread's CPU time.

A wall-clock latency includes whatever else the machine runs: on a loaded machine a search
thread that honours a stop within a few milliseconds of its own work can still take more
than 100 ms of wall time to answer, and the assert flakes. The CPU time the searching
thread spends between the request and its answer is the engine's own doing, however busy
the machine is; ``bench/stop_latency.py`` reports the wall-clock numbers.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TypeVar

STOP_BUDGET = 0.1
"""CPU seconds from the stop request to the answer: 100 ms, under what a person notices as
a delay after pressing Stop or Move now."""

Answer = TypeVar("Answer")


def stop_latency_in_thread(
    run: Callable[[Callable[[], bool]], Answer], is_searching: threading.Event
) -> tuple[float, Answer]:
    """Run ``run(should_stop)`` on a thread and, once ``is_searching`` is set, ask it to stop.

    Returns (CPU seconds the searching thread spent from the request to its answer, the
    answer). The request is a ``threading.Event`` set from this thread, as a front end sets
    it; the searching thread's CPU clock is read here at that instant
    (``pthread_getcpuclockid``) and by the thread itself when it has answered.
    """
    stop = threading.Event()
    outcome: dict[str, object] = {}

    def work() -> None:
        outcome["answer"] = run(stop.is_set)
        outcome["ended"] = time.thread_time()

    thread = threading.Thread(target=work)
    thread.start()
    assert is_searching.wait(timeout=30), "the search never reported that it was searching"
    assert thread.ident is not None
    searcher_clock = time.pthread_getcpuclockid(thread.ident)
    asked = time.clock_gettime(searcher_clock)
    stop.set()
    thread.join(timeout=10)
    assert not thread.is_alive(), "the search did not answer within 10 s of the stop request"
    return float(outcome["ended"]) - asked, outcome["answer"]  # type: ignore[arg-type, return-value]
