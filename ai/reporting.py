"""The one place a search's events are built: ``Iteration``, ``CurrentMove``, ``Progress``
and the final ``Finished``, for every algorithm.

A search hands its raw scores (on the search scale of ``ai.scores``) to its ``Reporter``
together with the player whose point of view they take: the side to move at the root for
the negamax algorithms (alpha-beta, PVS, MTD(f), minimax), the root player for the
expectimax family and MCTS (the player to decide at the root, who is not "to move" at a
chance root). Scores are reported from that same player's view (what UCI prints);
``Score.for_player`` turns them round for a fixed-colour display.

The counters the events carry are read from the search's ``SearchCounters`` (for the negamax
family its ``Counters`` object), the depth and table fill it shows from its ``SearchGauge``.
When nobody listens (``context.emit`` is the default sink) no event but ``Finished`` is built
at all.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any, Protocol

from games.base import CHANCE, GameState, Player

from ai.context import DISCARD_EVENTS, SearchContext
from ai.events import CurrentMove, Finished, Iteration, Progress, PvLine, RootMoveStat, Score, SearchStats
from ai.scores import terminal_score, to_report
from ai.tt import Bound


class SearchCounters(Protocol):
    """What a search counts, as the events report it (zeros where it does not apply)."""

    seldepth: int
    qnodes: int
    tt_probes: int
    tt_hits: int
    cutoffs: int
    first_move_cutoffs: int


class SearchGauge(Protocol):
    """What ``Progress`` shows of a search besides its counts."""

    @property
    def reported_depth(self) -> int:
        """The depth ``Progress`` shows: the iteration under way (MCTS: the mean depth)."""
        ...

    def hashfull(self) -> float:
        """Fraction (0..1) of the transposition table in use (0 without one)."""
        ...


def effective_branching_factor(nodes: int, depth: int) -> float:
    """The effective branching factor b* of a depth-``depth`` search that visited ``nodes``
    nodes: the branching of the uniform tree of that depth with as many nodes,
    N + 1 = 1 + b* + b*^2 + ... + b*^d (Russell & Norvig, AIMA 3.6.1). 0 when there is no
    tree (no depth or no nodes).

    Why this and not the ratio of two iterations' nodes: when the transposition table
    answers some iterations of iterative deepening almost for free (a hint search after the
    engine's own move), the next real iteration divided by a free one reads in the
    thousands. b* stays a branching factor: it reads below the game's when the table cut
    the tree, never above what the nodes allow."""
    if depth < 1 or nodes < 1:
        return 0.0
    if depth == 1:
        return float(nodes)

    def tree_size(branching: float) -> float:
        # b + b^2 + ... + b^d, stopping once past ``nodes`` (large d would overflow).
        total, term = 0.0, 1.0
        for _ in range(depth):
            term *= branching
            total += term
            if total > nodes:
                break
        return total

    low, high = 0.0, float(nodes)  # tree_size(0) = 0 <= N <= tree_size(N)
    for _ in range(60):
        middle = (low + high) / 2
        if tree_size(middle) < nodes:
            low = middle
        else:
            high = middle
    return (low + high) / 2


RawLine = tuple[int, float, Sequence[Any]]
"""One of the best lines as a search finds it: ``(depth, raw score, moves)``, the score in the
reporter's player's view on the search scale, the moves from the root."""


class Reporter:
    """Builds and emits the events of one search whose raw scores are seen by ``player``."""

    def __init__(
        self, context: SearchContext, game: type[GameState], player: Player, counters: SearchCounters, gauge: SearchGauge
    ) -> None:
        self.context = context
        self.control = context.control
        self.game = game
        self.player = player
        self.counters = counters
        self.gauge = gauge
        self.is_listening = context.emit is not DISCARD_EVENTS
        self.reports_bounds = True
        """Whether an aspiration fail is reported: not while the root is searched again for
        a line after the best (MultiPV), whose bounds say nothing of the best move."""

    def score(self, raw: float) -> Score:
        """Raw score ``raw`` (``player``'s view) as the ``Score`` the world sees."""
        return to_report(raw, self.player, self.game, view=self.player)

    def stats(self) -> SearchStats:
        counters = self.counters
        return SearchStats(
            nodes=self.control.nodes,
            qnodes=counters.qnodes,
            tt_probes=counters.tt_probes,
            tt_hits=counters.tt_hits,
            cutoffs=counters.cutoffs,
            first_move_cutoffs=counters.first_move_cutoffs,
        )

    # ------------------------------------------------------------------ events
    def iteration(
        self,
        depth: int,
        raw: float,
        line: list[Any],
        iteration_nodes: int,
        bound: Bound = Bound.EXACT,
        root_moves: tuple[RootMoveStat, ...] = (),
        lines: Sequence[RawLine] = (),
        line_visits: Sequence[int] = (),
    ) -> None:
        """Emit the ``Iteration`` of a completed depth (``bound`` exact) with its best
        ``lines`` (MCTS: with each line's first move's visits in ``line_visits``), or of an
        aspiration fail (a lower or upper bound: no effective branching factor, no lines)."""
        if not self.is_listening or (bound is not Bound.EXACT and not self.reports_bounds):
            return
        control = self.control
        stats = self.stats()
        is_complete = bound is Bound.EXACT
        self.context.emit(
            Iteration(
                search_id=self.context.search_id,
                depth=depth,
                seldepth=max(self.counters.seldepth, depth),
                score=self.score(raw),
                pv=tuple(line),
                nodes=control.nodes,
                nps=control.nps(),
                time=control.elapsed(),
                hashfull=self.gauge.hashfull(),
                tt_hit_rate=stats.tt_hit_rate,
                cutoffs=stats.cutoffs,
                first_move_cutoff_rate=stats.first_move_cutoff_rate,
                ebf=effective_branching_factor(iteration_nodes, depth) if is_complete else 0.0,
                bound=bound,
                root_moves=root_moves,
                lines=self.pv_lines(lines, line_visits) if is_complete else (),
            )
        )

    def pv_lines(self, lines: Sequence[RawLine], visits: Sequence[int] = ()) -> tuple[PvLine, ...]:
        """The best lines as events carry them, ranked in the order given (best first),
        ``visits[k]`` the visits of line ``k``'s first move (MCTS; none: 0); a line without
        moves is left out."""
        counts = list(visits) + [0] * (len(lines) - len(visits))
        kept = [(line, count) for line, count in zip(lines, counts) if line[2]]
        return tuple(
            PvLine(rank=rank, move=moves[0], score=self.score(raw), pv=tuple(moves), depth=depth, visits=count)
            for rank, ((depth, raw, moves), count) in enumerate(kept, start=1)
        )

    def current_move(
        self, depth: int, move: Any, number: int, total: int, roll: Any = None, roll_number: int = 0, roll_total: int = 0
    ) -> None:
        """Emit ``CurrentMove``: root move ``number`` of ``total`` (UCI's currmove), and for
        the expectimax family the roll under it now searched."""
        if self.is_listening:
            self.context.emit(
                CurrentMove(
                    search_id=self.context.search_id, depth=depth, move=move, number=number, total=total,
                    roll=roll, roll_number=roll_number, roll_total=roll_total,
                )
            )

    def progress(self) -> None:
        """Emit ``Progress``: the heartbeat ``SearchControl.on_tick`` calls."""
        control = self.control
        self.context.emit(
            Progress(
                search_id=self.context.search_id,
                nodes=control.nodes,
                nps=control.nps(),
                time=control.elapsed(),
                hashfull=self.gauge.hashfull(),
                depth=self.gauge.reported_depth,
            )
        )

    def install_progress(self) -> None:
        """Make ``control.on_tick`` emit ``Progress`` (after any tick already installed),
        when somebody listens."""
        if not self.is_listening:
            return
        control = self.control
        previous = control.on_tick
        if previous is None:
            control.on_tick = self.progress
            return
        progress = self.progress

        def both() -> None:
            previous()
            progress()

        control.on_tick = both

    def finished(
        self,
        depth: int,
        raw: float,
        line: list[Any],
        stopped: bool,
        root_moves: tuple[RootMoveStat, ...] = (),
        error: str | None = None,
        lines: Sequence[RawLine] = (),
        line_visits: Sequence[int] = (),
    ) -> Finished:
        """The answer: ``line[0]`` is the move (none when ``line`` is empty); ``lines``: the
        best lines of the last complete iteration."""
        control = self.control
        return Finished(
            search_id=self.context.search_id,
            best_move=line[0] if line else None,
            score=self.score(raw),
            pv=tuple(line),
            depth=depth,
            seldepth=max(self.counters.seldepth, depth),
            nodes=control.nodes,
            nps=control.nps() if error is None else 0.0,
            time=control.elapsed(),
            stats=self.stats(),
            root_moves=root_moves,
            stopped=stopped,
            error=error,
            lines=self.pv_lines(lines, line_visits),
        )


class _NothingCounted:
    """The counters of a search that never ran."""

    seldepth = qnodes = tt_probes = tt_hits = cutoffs = first_move_cutoffs = reported_depth = 0

    def hashfull(self) -> float:
        return 0.0


def answer_without_search(state: GameState, context: SearchContext, reason: str) -> Finished:
    """The answer for a root with nothing to search: no move, ``reason`` in ``error``, the
    score of a finished game for its side to move (player 0 when nobody is)."""
    mover = state.to_move()
    view = mover if mover != CHANCE else 0
    raw = terminal_score(state, 0) if state.is_terminal() else 0.0
    nothing = _NothingCounted()
    reporter = Reporter(context, type(state), view, nothing, nothing)
    return reporter.finished(0, raw, [], stopped=False, error=reason)


def answer_known(state: GameState, context: SearchContext, move: Any, *, book: bool) -> Finished:
    """The answer for a move known without search (a book move when ``book``, else the
    game's ``forced_answer``): ``move``, nothing searched (depth and nodes 0), ``book`` or
    ``forced`` set; its score is the root's static EVAL for the side to move, the only
    estimate an answer that searched nothing has."""
    mover = state.to_move()
    nothing = _NothingCounted()
    reporter = Reporter(context, type(state), mover, nothing, nothing)
    answer = reporter.finished(0, state.evaluate(mover), [move], stopped=False)
    return dataclasses.replace(answer, book=book, forced=not book)
