"""``native``: the game's own compiled search, driven like every other algorithm.

Why it exists: the algorithms beside this file are written once for every game and read
like their textbook pseudocode, which is what a student should watch; in Python that costs
~20k chess nodes a second, and strength against real engines is bought with depth. A game
may offer a compiled search of its own (``GameState.NATIVE_SEARCH``; chess: PVS with
aspiration windows, a table, null move, LMR, futility and SEE pruning, quiescence, in C,
``games/chess_game/_search.c``). This module runs it under the engine's rules, so a
player, the CLI, UCI and the match runner use it like any algorithm:

* limits: depth, nodes, time and the stop flag reach it through ``SearchControl`` (the
  compiled search reports its nodes every ``POLL_INTERVAL`` and stops when the poll
  raises ``SearchStopped``); the answer is the last completed iteration's;
* time: a fixed time a move is searched to its end, as the Python searches do: iterations
  start until the deadline, and the one cut off there still counts when it had found a
  better root move (``NativeSearcher.interrupted``); a clock's share stops starting them at
  half (``ai.iterative.soft_deadline``); an exact root solve (Othello's) gives way at half
  of the time or node limit, as in the Python search (``ai.search.common.root_solve_poll``);
* events: an ``Iteration`` per completed depth and ``Progress`` heartbeats, from the same
  ``Reporter`` as the other algorithms; scores from the side to move's view, a proven mate
  as "win in N plies";
* memory: the searcher (its table and history) is kept in ``SearchContext.shared`` and so
  outlives one search, like the Python table; ``ucinewgame`` forgets it.

The tree itself is not observable (no ``SearchObserver`` calls, no per-move events): use
the Python algorithms to watch a search.
"""

from __future__ import annotations

from typing import Any, Final

from games.base import GameState, NativeIteration, NativeSearcher

from ai.context import SearchContext
from ai.control import SearchStopped
from ai.events import Finished
from ai.iterative import soft_deadline
from ai.reporting import Reporter
from ai.scores import WIN_SCORE, terminal_score
from ai.search.common import MAX_ITERATION_DEPTH, greedy_move, root_solve_poll

POLL_INTERVAL: Final = 4096
"""Nodes between two reports of the compiled search: a few milliseconds at its speed, so a
stop or a deadline is seen within that; a node limit below it is polled at the limit."""
SEARCHER_KEY: Final = "native_searcher"
"""Where ``SearchContext.shared`` keeps the searcher between searches."""


class NativeCounters:
    """What ``Reporter`` reads of a compiled search: its seldepth, depth, table fill and
    the counters it keeps (``read`` copies them, at each iteration and at the end)."""

    __slots__ = ("seldepth", "depth", "searcher", "qnodes", "tt_probes", "tt_hits", "cutoffs", "first_move_cutoffs")

    def __init__(self, searcher: NativeSearcher) -> None:
        self.seldepth = 0
        self.depth = 0
        self.searcher = searcher
        self.qnodes = self.tt_probes = self.tt_hits = self.cutoffs = self.first_move_cutoffs = 0

    def read(self) -> None:
        """Copy the compiled search's counters."""
        self.qnodes, self.tt_probes, self.tt_hits, self.cutoffs, self.first_move_cutoffs = self.searcher.counters()

    @property
    def reported_depth(self) -> int:
        return self.depth + 1

    def hashfull(self) -> float:
        return self.searcher.hashfull()


def searcher_for(state: GameState, context: SearchContext) -> NativeSearcher:
    """The searcher kept for this game with the table size of ``context``'s settings."""
    megabytes = context.settings.tt_megabytes
    kept = context.shared.get(SEARCHER_KEY)
    if kept is None or kept[0] != megabytes:
        kept = (megabytes, type(state).native_searcher(megabytes))
        context.shared[SEARCHER_KEY] = kept
    searcher: NativeSearcher = kept[1]
    return searcher


def raw_score(report: NativeIteration) -> float:
    """A compiled search's score on the engine's scale (``ai.scores``): mates as wins."""
    plies = report.win_in_plies
    if plies is None:
        return report.score
    return WIN_SCORE - plies if plies > 0 else -WIN_SCORE - plies


def run(state: GameState, context: SearchContext) -> Finished:
    """Deepen with the game's compiled search within ``context``'s limits."""
    control = context.control
    limits = control.limits
    searcher = searcher_for(state, context)
    counters = NativeCounters(searcher)
    reporter = Reporter(context, type(state), state.to_move(), counters, counters)
    reporter.install_progress()

    root_moves = list(context.root_moves) or state.legal_moves()
    if not root_moves:  # the game is over: nothing to search
        raw = terminal_score(state, 0) if state.is_terminal() else state.evaluate(state.to_move())
        return reporter.finished(0, raw, [], stopped=False)

    max_depth = min(limits.depth or MAX_ITERATION_DEPTH, MAX_ITERATION_DEPTH)
    soft = soft_deadline(limits, control.elapsed(), trusts_partial_iteration=True)
    # One root move under a time limit: the first iteration answers (its move is the only
    # one), as ``ai.iterative`` does; a depth limit is searched out, for its score.
    only_move = limits.time is not None and len(root_moves) == 1
    last: list[Any] = []  # [depth, raw score, line] of the last completed iteration
    nodes_before = [0]

    # The compiled search reports its nodes every ``interval`` (``poll``) and with each
    # iteration (``report.nodes``); ``reported[1]`` is how many ``control`` has been given,
    # so that an iteration's event counts all of its nodes and none is counted twice.
    reported = [0, 0]  # [nodes heard through poll, nodes credited to control]

    def poll(nodes: int, check: bool) -> None:
        reported[0] += nodes
        extra = reported[0] - reported[1]
        reported[1] = max(reported[1], reported[0])
        control.count_nodes(max(0, extra), check)

    def on_iteration(report: NativeIteration) -> bool:
        if report.nodes > reported[1]:
            control.count_nodes(report.nodes - reported[1], check=False)
            reported[1] = report.nodes
        raw = raw_score(report)
        counters.read()
        counters.depth = report.depth
        counters.seldepth = max(counters.seldepth, report.seldepth)
        last[:] = [report.depth, raw, list(report.pv)]
        reporter.iteration(report.depth, raw, list(report.pv), report.nodes - nodes_before[0])
        nodes_before[0] = report.nodes
        proven = report.win_in_plies is not None and report.depth >= abs(report.win_in_plies)
        late = soft is not None and control.elapsed() >= soft
        return proven or late or only_move

    interval = POLL_INTERVAL if limits.nodes is None else max(1, min(POLL_INTERVAL, limits.nodes))
    stopped = False
    try:
        searcher.search(
            state,
            max_depth,
            poll,
            on_iteration,
            root_moves=tuple(context.root_moves),
            poll_interval=interval,
            threads=context.settings.threads,
            root_solve_poll=root_solve_poll(control, poll),
        )
    except SearchStopped:
        stopped = True
        better = searcher.interrupted(state)
        if better is not None and last:  # the cut iteration's new best move
            last[1:] = [raw_score(better), list(better.pv)]
            counters.seldepth = max(counters.seldepth, better.seldepth)
    counters.read()
    if not last:  # stopped before depth 1 ended (the compiled search promises it never is)
        move = greedy_move(state.copy(), root_moves)
        return reporter.finished(0, state.evaluate(state.to_move()), [move], stopped=True)
    depth, raw, line = last
    return reporter.finished(depth, raw, line, stopped)

