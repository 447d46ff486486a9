"""Limits and stopping, amortised: the search counts nodes and looks at the clock and the
stop flag only every ``CHECK_INTERVAL`` nodes (as Stockfish does), so the check costs
almost nothing per node yet a stop request is honoured within a few milliseconds.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ai.settings import Limits

CHECK_INTERVAL = 256
"""Nodes between two checks of clock and stop flag. Pure-Python search visits roughly
10-100k nodes/s, so 256 nodes is at most ~25 ms: well inside the 100 ms stop budget."""

PROGRESS_INTERVAL = 0.15
"""Seconds between two ``Progress`` heartbeats: the brief asks for at least 4 a second;
0.15 s leaves room for a check that comes late (a slow node, a loaded machine)."""


class SearchStopped(Exception):
    """Raised inside the search to unwind it when a limit is reached or a stop is asked.

    Drivers catch it and answer with the best result of the last completed iteration.
    """


class SearchControl:
    """Counts nodes and decides when the search must stop.

    ``should_stop`` is polled every ``CHECK_INTERVAL`` nodes (a shared-memory flag in a
    worker, a ``threading.Event.is_set`` in a thread); ``on_tick`` is called at most every
    ``PROGRESS_INTERVAL`` seconds so the engine can emit a ``Progress`` event. ``started``
    is when the request arrived (on ``clock``'s scale): the time limit counts from it, so the
    set-up before the first node (building the position, the table) is inside the budget.
    """

    __slots__ = (
        "limits",
        "should_stop",
        "on_tick",
        "nodes",
        "started",
        "deadline",
        "stopped",
        "_next_check",
        "_next_tick",
        "_clock",
    )

    def __init__(
        self,
        limits: Limits,
        should_stop: Callable[[], bool] | None = None,
        on_tick: Callable[[], None] | None = None,
        clock: Callable[[], float] = time.perf_counter,
        started: float | None = None,
    ) -> None:
        self.limits = limits
        self.should_stop = should_stop
        self.on_tick = on_tick
        self._clock = clock
        self.nodes = 0
        self.started = clock() if started is None else started
        self.deadline = self.started + limits.time if limits.time is not None else None
        self.stopped = False
        self._next_check = CHECK_INTERVAL if limits.nodes is None else min(CHECK_INTERVAL, limits.nodes)
        self._next_tick = self.started + PROGRESS_INTERVAL

    def count_node(self) -> None:
        """Call once per node visited; raises ``SearchStopped`` when it is time to stop."""
        self.nodes += 1
        if self.nodes >= self._next_check:
            self.check()

    def count_nodes(self, count: int, check: bool = True) -> None:
        """Add ``count`` nodes searched elsewhere (a game's exact solver reports in batches:
        ``games.base.NodePoll``); with ``check``, stop here if it is time."""
        self.nodes += count
        if check and self.nodes >= self._next_check:
            self.check()

    def check(self) -> None:
        """Look at the node limit, the clock and the stop flag now."""
        limit = self.limits.nodes
        self._next_check = self.nodes + CHECK_INTERVAL
        if limit is not None and limit > self.nodes:
            # Never check later than the limit: ``--nodes N`` stops at N, not N + interval.
            self._next_check = min(self._next_check, limit)
        if self.stopped:
            raise SearchStopped
        if limit is not None and self.nodes >= limit:
            self.stop()
        now = self._clock()
        if self.deadline is not None and now >= self.deadline:
            self.stop()
        if self.should_stop is not None and self.should_stop():
            self.stop()
        if self.on_tick is not None and now >= self._next_tick:
            self._next_tick = now + PROGRESS_INTERVAL
            self.on_tick()

    def stop(self) -> None:
        """Stop now: mark the search stopped and unwind it."""
        self.stopped = True
        raise SearchStopped

    def elapsed(self) -> float:
        """Seconds since the search started."""
        return self._clock() - self.started

    def nps(self) -> float:
        """Nodes per second so far."""
        elapsed = self.elapsed()
        return self.nodes / elapsed if elapsed > 0 else 0.0
