"""Limits and stopping, amortised: the search counts nodes and looks at the clock and the
stop flag only every few nodes (as Stockfish does), so the check costs almost nothing per
node yet a stop request is honoured within a few milliseconds.

How many nodes lie between two checks adapts to the node rate: a node costs ~10 us in a
fast game (checkers, Othello) and ~0.5 ms in an MCTS playout guided by EVAL or in the
backgammon chance layers, so a fixed count of 256 nodes put 2.5 ms between two checks in
one search and 130 ms in another (measured, ``bench/check_gaps.py``). Each check measures
the time since the previous one and sets the next interval so that checks come about
``CHECK_SECONDS`` apart, never more than ``CHECK_INTERVAL`` nodes apart.

``collecting_young_objects`` keeps the garbage collector's pauses during a search to the
search's own objects: a full collection in a process with a big heap (a long test session,
an application) scans it all, ~70 ms a million objects, and that pause landed between a
stop request and its answer.
"""

from __future__ import annotations

import gc
import math
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from ai.settings import Limits

CHECK_INTERVAL = 256
"""The most nodes between two checks of clock and stop flag (and the fewest, when set
lower: a test sets 1 to check at every node)."""
FIRST_CHECK_INTERVAL = 16
"""Nodes before the first check: the node rate is not known yet."""
CHECK_SECONDS = 0.005
"""The time aimed at between two checks. The interval at most doubles from one check to
the next and shrinks at once, so checks stay within ~2 * CHECK_SECONDS (plus one node)."""

PROGRESS_INTERVAL = 0.15
"""Seconds between two ``Progress`` heartbeats: a live display needs at least 4 a second;
0.15 s leaves room for a check that comes late (a slow node, a loaded machine)."""


class SearchStopped(Exception):
    """Raised inside the search to unwind it when a limit is reached or a stop is asked.

    Drivers catch it and answer with the best result of the last completed iteration.
    """


class SearchControl:
    """Counts nodes and decides when the search must stop.

    ``should_stop`` (a shared-memory flag in a worker, a ``threading.Event.is_set`` in a
    thread) is polled every few milliseconds, as the module docstring says; ``on_tick`` is
    called at most every ``PROGRESS_INTERVAL`` seconds so the engine can emit a ``Progress``
    event. ``started``
    is when the request arrived (on ``clock``'s scale): the time limit counts from it, so the
    set-up before the first node (building the position, the table) is inside the budget.
    """

    __slots__ = (
        "limits",
        "should_stop",
        "on_tick",
        "nodes",
        "spared",
        "started",
        "deadline",
        "deadline_waits",
        "stopped",
        "_next_check",
        "_next_tick",
        "_clock",
        "_interval",
        "_last_check",
        "_last_check_nodes",
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
        self.spared = 0
        """Nodes counted at less than a search node's cost (``count_nodes``'s ``cost``): the
        part of them the node limit does not charge."""
        self.started = clock() if started is None else started
        self.deadline = self.started + limits.time if limits.time is not None else None
        # While set, the deadline is not enforced: iterative deepening sets it until its
        # first iteration completes, so a timed search always answers with a searched move
        # (as Stockfish does), even when the time went before the first node (a pool's
        # workers still starting, a loaded machine). Stop requests and node limits still stop.
        self.deadline_waits = False
        self.stopped = False
        self._interval = min(FIRST_CHECK_INTERVAL, CHECK_INTERVAL)
        self._next_check = self._interval if limits.nodes is None else min(self._interval, limits.nodes)
        self._next_tick = self.started + PROGRESS_INTERVAL
        self._last_check = clock()
        self._last_check_nodes = 0

    def count_node(self) -> None:
        """Call once per node visited; raises ``SearchStopped`` when it is time to stop."""
        self.nodes += 1
        if self.nodes >= self._next_check:
            self.check()

    def count_nodes(self, count: int, check: bool = True, cost: float = 1.0) -> None:
        """Add ``count`` nodes searched elsewhere (a game's exact solver reports in batches:
        ``games.base.NodePoll``); with ``check``, stop here if it is time. ``cost``: what
        one of them costs in search nodes (``GameState.SOLVER_NODE_COST``), as the node
        limit charges them; the node count shows them all."""
        self.nodes += count
        if cost < 1.0:
            self.spared += count - math.ceil(count * cost)
        if check and self.nodes >= self._next_check:
            self.check()

    @property
    def charged(self) -> int:
        """The nodes the node limit charges: every node, those of a cheaper kind at their cost."""
        return self.nodes - self.spared

    def check(self) -> None:
        """Look at the node limit, the clock and the stop flag now."""
        now = self._clock()
        self._adapt_interval(now)
        limit = self.limits.nodes
        self._next_check = self.nodes + self._interval
        if limit is not None and limit > self.charged:
            # Never check later than the limit: ``--nodes N`` stops at N, not N + interval.
            self._next_check = min(self._next_check, self.nodes + limit - self.charged)
        if self.stopped:
            raise SearchStopped
        if limit is not None and self.charged >= limit:
            self.stop()
        if self.deadline is not None and now >= self.deadline and not self.deadline_waits:
            self.stop()
        if self.should_stop is not None and self.should_stop():
            self.stop()
        if self.on_tick is not None and now >= self._next_tick:
            self._next_tick = now + PROGRESS_INTERVAL
            self.on_tick()

    def _adapt_interval(self, now: float) -> None:
        """Set the nodes until the next check from the node rate since the last one."""
        nodes = self.nodes - self._last_check_nodes
        seconds = now - self._last_check
        self._last_check, self._last_check_nodes = now, self.nodes
        most = max(1, CHECK_INTERVAL)
        if nodes <= 0:
            return
        if seconds <= 0:  # a coarse clock: no news of the rate, grow as if it were fast
            self._interval = min(most, 2 * self._interval)
            return
        wanted = int(nodes * CHECK_SECONDS / seconds)
        self._interval = max(1, min(most, 2 * self._interval, wanted))

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


_collector_lock = threading.Lock()
_searches_collecting_young = 0


@contextmanager
def collecting_young_objects() -> Iterator[None]:
    """While the block runs, the garbage collector ignores every object that existed before
    it (``gc.freeze``); they are handed back to it (``gc.unfreeze``) when the last of the
    searches running in this process ends. Both calls move whole lists: O(1).

    A search allocates (an MCTS tree, table entries) and so sets off collections, now and
    then a full one; in a process with a big heap a full collection stopped the search for
    tens of milliseconds, however few objects were the search's own. Garbage made before the
    search waits until it ends to be collected.
    """
    global _searches_collecting_young
    with _collector_lock:
        if _searches_collecting_young == 0:
            gc.freeze()
        _searches_collecting_young += 1
    try:
        yield
    finally:
        with _collector_lock:
            _searches_collecting_young -= 1
            if _searches_collecting_young == 0:
                gc.unfreeze()
