"""Iterative deepening with aspiration windows: the driver around every depth-first search.

Iterative deepening (Slate & Atkin's CHESS 4.5, 1977; AIMA fig. 3.18 for the idea) searches
to depth 1, 2, 3, ... until a limit says stop. It makes the search *anytime* -- a best move
exists as soon as depth 1 is done -- and costs little, since each iteration takes several
times the previous one (the effective branching factor): the earlier iterations fill the
transposition table and the killer/history tables that order the next one best-first.

Aspiration windows (Brudno 1963; Gillogly's TECH, 1972): iteration ``d`` is searched with a
narrow window ``(guess - w, guess + w)`` around the previous iteration's score instead of
``(-inf, +inf)``; a narrower window cuts more. If the value falls outside (a *fail low* or
*fail high*), the window is widened on that side and the iteration searched again; the
fail is reported as an ``Iteration`` whose ``bound`` is ``upper`` or ``lower``.

Time: with a time limit of T seconds the hard stop is the ``SearchControl`` deadline at T,
and no new iteration starts after ``SOFT_TIME_FRACTION * T`` (the next one would take
several times longer and be cut off unfinished). A stop from outside (``should_stop``),
the node limit or the deadline unwinds the search with ``SearchStopped``; the answer is then
the last completed iteration's, improved by the interrupted iteration's best root move when
that move already beat the previous best (which is searched first).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from games.base import GameState

from ai.context import SearchContext
from ai.control import SearchStopped
from ai.events import Finished, Iteration, SearchStats
from ai.scores import INFINITY, WIN_SCORE, is_win_score, terminal_score, to_report
from ai.search.common import MAX_SEARCH_PLY, NodeSearch, SearchTools, greedy_move, solve_root

IterationSearch = Callable[[GameState, int, float | None], float]
"""One iteration: ``(root, depth, previous score or None) -> root value`` (side to move)."""

SOFT_TIME_FRACTION: Final = 0.5
"""No new iteration starts once this fraction of the time limit is used."""
DEFAULT_FIXED_DEPTH: Final = 4
"""The depth searched with iterative deepening off and no depth limit given."""
MAX_ITERATION_DEPTH: Final = MAX_SEARCH_PLY // 2
"""Deepest iteration (room is left for extensions and quiescence)."""
MATE_CONFIRMATION_PLIES: Final = 0
"""A proven win or loss ends the search once the depth reaches its length plus this many
plies: a full-width search to depth d finds every win of at most d plies, so the first
iteration that reaches the win's length already proves it is the shortest."""
ASPIRATION_MIN_DEPTH: Final = 2
"""Iterations before this are searched with the full window (no guess worth trusting)."""
ASPIRATION_GROWTH: Final = 4
"""After a fail the window on that side grows by this factor."""
ASPIRATION_MAX_FAILS: Final = 3
"""After this many fails the window is opened fully."""


def full_window_iteration(search: NodeSearch) -> IterationSearch:
    """Each iteration searched with ``(-inf, +inf)`` (plain minimax, or aspiration off)."""

    def iteration(root: GameState, depth: int, guess: float | None) -> float:
        return search(root, depth, -INFINITY, INFINITY, 0)

    return iteration


def aspiration_iteration(search: NodeSearch, tools: SearchTools) -> IterationSearch:
    """Each iteration searched with an aspiration window around the previous score
    (``SearchSettings.aspiration``/``aspiration_window``), widened after a fail."""
    settings = tools.settings
    if not settings.aspiration:
        return full_window_iteration(search)

    def iteration(root: GameState, depth: int, guess: float | None) -> float:
        if guess is None or depth < ASPIRATION_MIN_DEPTH or is_win_score(guess):
            return search(root, depth, -INFINITY, INFINITY, 0)
        width = settings.aspiration_window
        alpha, beta = guess - width, guess + width
        fails = 0
        while True:
            value = search(root, depth, alpha, beta, 0)
            if alpha < value < beta or (alpha == -INFINITY and beta == INFINITY):
                return value
            fails += 1
            width *= ASPIRATION_GROWTH
            wide_open = fails >= ASPIRATION_MAX_FAILS or is_win_score(value)
            if value <= alpha:
                tools.report_window_fail(depth, value, "upper")
                alpha = -INFINITY if wide_open else max(-INFINITY, value - width)
            else:
                tools.report_window_fail(depth, value, "lower")
                beta = INFINITY if wide_open else min(INFINITY, value + width)

    return iteration


class _Reporter:
    """Builds the ``Iteration`` events and the final ``Finished`` of one search."""

    def __init__(self, state: GameState, tools: SearchTools) -> None:
        self.state = state
        self.tools = tools
        self.player = state.to_move()
        self.previous_iteration_nodes = 1

    def score(self, raw: float) -> Any:
        """Scores are reported from the view of the side to move at the root (what UCI
        prints); ``Score.for_player`` turns them round for a fixed-colour display."""
        return to_report(raw, self.player, self.tools.game, view=self.player)

    def stats(self) -> SearchStats:
        tools = self.tools
        return SearchStats(
            nodes=tools.control.nodes,
            qnodes=tools.qnodes,
            tt_probes=tools.tt_probes,
            tt_hits=tools.tt_hits,
            cutoffs=tools.cutoffs,
            first_move_cutoffs=tools.first_move_cutoffs,
        )

    def iteration(self, depth: int, raw: float, line: list[Any], iteration_nodes: int, bound: str) -> None:
        tools = self.tools
        if not tools.is_listening:
            return
        control = tools.control
        stats = self.stats()
        tools.context.emit(
            Iteration(
                search_id=tools.context.search_id,
                depth=depth,
                seldepth=max(tools.seldepth, depth),
                score=self.score(raw),
                pv=tuple(line),
                nodes=control.nodes,
                nps=control.nps(),
                time=control.elapsed(),
                hashfull=tools.hashfull(),
                tt_hit_rate=stats.tt_hit_rate,
                cutoffs=stats.cutoffs,
                first_move_cutoff_rate=stats.first_move_cutoff_rate,
                ebf=iteration_nodes / self.previous_iteration_nodes,
                bound=bound,
            )
        )

    def finished(self, depth: int, raw: float, line: list[Any], stopped: bool) -> Finished:
        tools = self.tools
        control = tools.control
        return Finished(
            search_id=tools.context.search_id,
            best_move=line[0] if line else None,
            score=self.score(raw),
            pv=tuple(line),
            depth=depth,
            seldepth=max(tools.seldepth, depth),
            nodes=control.nodes,
            nps=control.nps(),
            time=control.elapsed(),
            stats=self.stats(),
            stopped=stopped,
        )


def run_iterative_deepening(
    state: GameState,
    context: SearchContext,
    make_iteration: Callable[[SearchTools], IterationSearch],
    *,
    enhanced: bool = True,
) -> Finished:
    """Search ``state`` deeper and deeper with the iteration ``make_iteration`` builds, within
    ``context``'s limits; report each completed depth; answer with the best move.
    ``enhanced=False`` gives the algorithm no transposition table and no move ordering.

    The search runs on a copy of ``state`` (a stop unwinds it mid-line); ``state`` is only
    read, to name moves.
    """
    root = state.copy()
    tools = SearchTools(root, context, enhanced=enhanced)
    reporter = _Reporter(state, tools)
    control = context.control
    settings = context.settings
    limits = control.limits
    _install_progress(tools)

    if tools.root_move_count == 0:  # the game is over: nothing to search
        raw = terminal_score(root, 0) if root.is_terminal() else root.evaluate(root.to_move())
        return reporter.finished(0, raw, [], stopped=False)

    try:
        solved = solve_root(root, tools)
    except SearchStopped:  # time, nodes or a stop request during a long exact solve
        probe = state.copy()  # the stopped solve may have left ``root`` mid-line
        move = greedy_move(probe, probe.legal_moves())
        raw = root.evaluate(root.to_move())
        return reporter.finished(0, raw, [move], stopped=True)
    if solved is not None:  # the game's exact solver settles the root (Othello endgame)
        raw, move = solved
        control.count_node()
        line = tools.principal_variation(state, [move], MAX_ITERATION_DEPTH)
        reporter.iteration(1, raw, line, control.nodes, "exact")
        return reporter.finished(1, raw, line, stopped=False)

    def report_window_fail(depth: int, value: float, bound: str) -> None:
        move = tools.root_best_move
        reporter.iteration(depth, value, [move] if bound == "lower" and move is not None else [], control.nodes, bound)

    tools.report_window_fail = report_window_fail
    iteration = make_iteration(tools)

    if limits.depth is not None:
        target = max(1, min(limits.depth, MAX_ITERATION_DEPTH))
    else:
        target = MAX_ITERATION_DEPTH if settings.iterative_deepening else DEFAULT_FIXED_DEPTH
    depths = range(1, target + 1) if settings.iterative_deepening else range(target, target + 1)

    completed_depth = 0
    completed_score: float | None = None
    completed_line: list[Any] = []
    stopped = False
    try:
        for depth in depths:
            tools.start_iteration(depth)
            nodes_before = control.nodes
            horizon_before = tools.horizon_leaves
            score = iteration(root, depth, completed_score)
            best_move = tools.root_best_move
            first_moves = list(tools.root_line) if best_move is not None else [tools.first_legal_move(state)]
            line = tools.principal_variation(state, first_moves, depth)
            iteration_nodes = control.nodes - nodes_before
            completed_depth, completed_score, completed_line = depth, score, line
            tools.previous_best_move = line[0] if line else None
            reporter.iteration(depth, score, line, iteration_nodes, "exact")
            reporter.previous_iteration_nodes = max(1, iteration_nodes)
            if tools.horizon_leaves == horizon_before:
                break  # no leaf was cut by the horizon: the value is exact, deeper changes nothing
            if is_win_score(score) and depth >= WIN_SCORE - abs(score) + MATE_CONFIRMATION_PLIES:
                break  # a proven win or loss, confirmed
            if limits.time is not None and (
                control.elapsed() >= SOFT_TIME_FRACTION * limits.time or tools.root_move_count == 1
            ):
                stopped = True
                break
    except SearchStopped:
        stopped = True
        partial_move = tools.root_best_move
        improved = partial_move is not None and (
            completed_score is None or (tools.orderer is not None and partial_move != tools.previous_best_move)
        )
        if improved:
            completed_score = tools.root_best_score
            completed_line = tools.principal_variation(state, list(tools.root_line), MAX_ITERATION_DEPTH)
        elif completed_score is None:
            completed_score = root_fallback_score(state)
            completed_line = [tools.first_legal_move(state)]
    assert completed_score is not None  # the loop ran at least once or was stopped
    return reporter.finished(completed_depth, completed_score, completed_line, stopped)


def root_fallback_score(state: GameState) -> float:
    """The score given when not even depth 1 finished: the static evaluation."""
    return state.evaluate(state.to_move())


def _install_progress(tools: SearchTools) -> None:
    """Make ``control.on_tick`` emit ``Progress`` (after any tick already installed)."""
    if not tools.is_listening:
        return
    control = tools.control
    previous = control.on_tick
    if previous is None:
        control.on_tick = tools.emit_progress
        return

    def both() -> None:
        previous()
        tools.emit_progress()

    control.on_tick = both
