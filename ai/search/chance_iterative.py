"""Iterative deepening for the expectimax family (expectiminimax, Star1, Star2).

The same anytime scheme as ``ai.iterative`` (Slate & Atkin 1977): search to 1, 2, 3, ...
decision plies until a limit says stop, report each completed depth as an ``Iteration``,
and answer with the best move of the last completed depth. It is kept apart from
``ai.iterative`` because the family differs in what matters here: values are from the root
player's view rather than the side to move's, there is no transposition table, no
aspiration window (a chance node averages, so a window around the last score buys little),
and the root may be a chance node.

* Limits: the depth limit is the last iteration; the node limit, the time limit's deadline
  and a stop request unwind the search with ``SearchStopped`` (``SearchControl``). No new
  iteration starts after ``SOFT_TIME_FRACTION`` of the time limit: a chance layer makes the
  next iteration some 20-400 times dearer in backgammon, so it would only be cut off.
* A move always exists: depth 1 is tiny; if even it was cut off, the best root move of the
  unfinished iteration (or the first legal move) is played.
* A chance root (dice still to roll): the search runs and reports the expected value before
  the roll, but there is no move to choose: ``best_move`` is ``None`` and ``root_moves``
  lists each outcome's value.
* A terminal root, or one without moves: nothing is searched; ``Finished.error`` says why.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from games.base import CHANCE, GameState

from ai.context import DISCARD_EVENTS, SearchContext
from ai.control import SearchStopped
from ai.events import Finished, Iteration, RootMoveStat, Score, SearchStats
from ai.scores import WIN_SCORE, is_win_score, terminal_score, to_report
from ai.search.chance_common import MAX_SEARCH_PLY, ChanceTools, RootSearch

SOFT_TIME_FRACTION: Final = 0.5
"""No new iteration starts once this fraction of the time limit is used."""
MAX_ITERATION_DEPTH: Final = MAX_SEARCH_PLY // 2
"""The deepest iteration (without a depth limit the search goes on until stopped)."""
DEFAULT_FIXED_DEPTH: Final = 2
"""The depth searched with iterative deepening off and no depth limit given: two plies
with a chance layer between is already thousands of nodes in backgammon."""
MATE_CONFIRMATION_PLIES: Final = 2
"""A proven win or loss ends the search once the depth exceeds its length by this much."""


def unsearchable_reason(state: GameState) -> str | None:
    """Why ``state`` cannot be searched (the game is over, no move), or ``None``."""
    if state.is_terminal():
        reason = state.termination_reason() or "game over"
        return f"the game is over ({reason}): there is no move to search"
    if state.to_move() != CHANCE and not state.legal_moves():
        return "the side to move has no legal move"
    return None


def finished_early(state: GameState, context: SearchContext, reason: str) -> Finished:
    """The answer for a root with nothing to search: no move, ``reason`` in ``error``."""
    mover = state.to_move()
    view = mover if mover != CHANCE else 0
    raw = terminal_score(state, 0) if state.is_terminal() else 0.0
    control = context.control
    return Finished(
        search_id=context.search_id,
        best_move=None,
        score=to_report(raw, view, type(state), view=view),
        pv=(),
        depth=0,
        seldepth=0,
        nodes=control.nodes,
        nps=0.0,
        time=control.elapsed(),
        error=reason,
    )


def install_progress(context: SearchContext, emit_progress: Callable[[], None]) -> None:
    """Make ``control.on_tick`` emit ``Progress`` too (after any tick already installed),
    when somebody listens."""
    if context.emit is DISCARD_EVENTS:
        return
    control = context.control
    previous = control.on_tick
    if previous is None:
        control.on_tick = emit_progress
        return

    def both() -> None:
        previous()
        emit_progress()

    control.on_tick = both


class _Reporter:
    """Builds the ``Iteration`` events and the ``Finished`` answer of one search."""

    def __init__(self, state: GameState, tools: ChanceTools) -> None:
        self.state = state
        self.tools = tools
        self.previous_iteration_nodes = 1

    def score(self, raw: float) -> Score:
        """Seen by the root player, the side to decide at the root (as UCI prints)."""
        player = self.tools.root_player
        return to_report(raw, player, self.tools.game, view=player)

    def stats(self) -> SearchStats:
        tools = self.tools
        return SearchStats(
            nodes=tools.control.nodes,
            cutoffs=tools.cutoffs,
            first_move_cutoffs=tools.first_move_cutoffs,
        )

    def iteration(self, depth: int, raw: float, line: list[Any], iteration_nodes: int) -> None:
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
                hashfull=0.0,
                tt_hit_rate=0.0,
                cutoffs=stats.cutoffs,
                first_move_cutoff_rate=stats.first_move_cutoff_rate,
                ebf=iteration_nodes / self.previous_iteration_nodes,
            )
        )

    def finished(
        self,
        depth: int,
        raw: float,
        line: list[Any],
        root_values: dict[int, tuple[Any, float]],
        stopped: bool,
    ) -> Finished:
        tools = self.tools
        control = tools.control
        root_moves = tuple(
            RootMoveStat(move=move, visits=0, value=value)
            for _, (move, value) in sorted(root_values.items())
        )
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
            root_moves=root_moves,
            stopped=stopped,
        )


def run_chance_search(
    state: GameState,
    context: SearchContext,
    build: Callable[[ChanceTools], RootSearch],
) -> Finished:
    """Search ``state`` deeper and deeper with the iteration ``build`` makes, within
    ``context``'s limits; report each completed depth; answer with the best move.

    The search runs on a copy of ``state`` (a stop unwinds it mid-line); ``state`` itself is
    only read, to name moves.
    """
    reason = unsearchable_reason(state)
    if reason is not None:
        return finished_early(state, context, reason)
    root = state.copy()
    tools = ChanceTools(root, context)
    reporter = _Reporter(state, tools)
    control = context.control
    limits = control.limits
    install_progress(context, tools.emit_progress)
    search = build(tools)

    if limits.depth is not None:
        target = max(1, min(limits.depth, MAX_ITERATION_DEPTH))
    elif context.settings.iterative_deepening:
        target = MAX_ITERATION_DEPTH
    else:
        target = DEFAULT_FIXED_DEPTH
    first = 1 if context.settings.iterative_deepening else target

    completed_depth = 0
    completed_value: float | None = None
    completed_line: list[Any] = []
    completed_root_values: dict[int, tuple[Any, float]] = {}
    stopped = False
    try:
        for depth in range(first, target + 1):
            tools.start_iteration(depth)
            nodes_before = control.nodes
            horizon_before = tools.horizon_leaves
            value = search(root, depth)
            line = [] if tools.root_is_chance else list(tools.root_line)
            iteration_nodes = control.nodes - nodes_before
            completed_depth, completed_value, completed_line = depth, value, line
            completed_root_values = dict(tools.root_values)
            reporter.iteration(depth, value, line, iteration_nodes)
            reporter.previous_iteration_nodes = max(1, iteration_nodes)
            if tools.horizon_leaves == horizon_before:
                break  # no leaf was cut by the horizon: the value is exact
            if is_win_score(value) and depth >= WIN_SCORE - abs(value) + MATE_CONFIRMATION_PLIES:
                break  # a proven win or loss, confirmed
            if limits.time is not None and (
                control.elapsed() >= SOFT_TIME_FRACTION * limits.time or len(tools.root_moves) == 1
            ):
                stopped = True
                break
    except SearchStopped:
        stopped = True
        if completed_value is None:  # not even depth 1 finished: take what there is
            if tools.root_best_move is not None:
                completed_value = tools.root_best_value
                completed_line = list(tools.root_line)
            else:
                # ``root`` was left mid-line by the stop: read the caller's untouched state.
                completed_value = state.evaluate(tools.root_player) if not tools.root_is_chance else 0.0
                completed_line = [] if tools.root_is_chance else [tools.root_moves[0]]
            completed_root_values = dict(tools.root_values)
    assert completed_value is not None  # depth 1 completed, or the stop handler set it
    return reporter.finished(completed_depth, completed_value, completed_line, completed_root_values, stopped)
