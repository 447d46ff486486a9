"""Iterative deepening with aspiration windows: the one driver around every depth-first search.

Iterative deepening (Slate & Atkin's CHESS 4.5, 1977; AIMA fig. 3.18 for the idea) searches
to depth 1, 2, 3, ... until a limit says stop. It makes the search *anytime* -- a best move
exists as soon as depth 1 is done -- and costs little, since each iteration takes several
times the previous one (the effective branching factor): the earlier iterations fill the
transposition table and the killer/history tables that order the next one best-first.

One loop (``deepen``) drives both families; what differs is the search's tools object
(``DeepeningTools``): the negamax family (``SearchTools``: minimax, alpha-beta, PVS, MTD(f);
side-to-move scores, a PV completed from the table, the game's root solver, aspiration
windows) and the expectimax family (``ChanceTools``: expectiminimax, Star1, Star2; scores
from the root player's view, a root that may be a dice roll, per-root-move values). The
events of both are built by ``ai.reporting``.

Aspiration windows (Brudno 1963; Gillogly's TECH, 1972), negamax family only: iteration
``d`` is searched with a narrow window ``(guess - w, guess + w)`` around the previous
iteration's score instead of ``(-inf, +inf)``; a narrower window cuts more. If the value
falls outside (a *fail low* or *fail high*), the window is widened on that side and the
iteration searched again; the fail is reported as an ``Iteration`` whose ``bound`` is
``Bound.UPPER`` or ``Bound.LOWER``. (A chance node averages, so a window around the last score buys
the expectimax family little.)

Time: with a time limit of T seconds the hard stop is the ``SearchControl`` deadline at T.
A fixed time a move is searched to its end: the iteration cut off there still counts when
it found a better move (the previous best is searched first, so a new best beat it), and
the time it would leave unused is lost anyway. Where that last iteration cannot help (the
expectimax family keeps only completed iterations, and without move ordering the previous
best is not searched first) or the time is a clock's share that goes back to the clock
(``Limits.from_clock``), no new iteration starts once ``SOFT_TIME_FRACTION`` of the time left
when deepening began is used (the next one would take several times longer -- 20 to 400
times in backgammon, with its chance layer -- and be cut off unfinished). Time goes before
deepening when the game's exact solver tries the root first (Othello's endgame): it may
use ``ROOT_SOLVE_FRACTION`` of T (and of a node limit), and if it has not finished by then,
deepening answers with what is left. A stop from outside (``should_stop``), the node limit or the deadline
unwinds the search with ``SearchStopped``; the answer is then the last completed
iteration's, improved by what the interrupted iteration found when the family trusts it
(``DeepeningTools.stopped_answer``). A Lazy SMP helper skips some iterations
(``ai.lazy_smp``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, Protocol

from games.base import GameState

from ai.context import SearchContext
from ai.control import SearchStopped
from ai.events import Finished, RootMoveStat
from ai.lazy_smp import skips_depth
from ai.reporting import RawLine, Reporter, answer_without_search
from ai.scores import INFINITY, WIN_SCORE, is_win_score, terminal_score
from ai.settings import Limits
from ai.tt import Bound
from ai.search.chance_common import ChanceTools, RootSearch, unsearchable_reason
from ai.search.common import (
    MAX_ITERATION_DEPTH,
    NodeSearch,
    RootSolveAbandoned,
    SearchTools,
    greedy_move,
    solve_root,
)

IterationSearch = Callable[[GameState, int, float | None], float]
"""One iteration: ``(root, depth, previous score or None) -> root value``."""

SOFT_TIME_FRACTION: Final = 0.5
"""No new iteration starts once this fraction of the time left at the first is used."""
DEFAULT_FIXED_DEPTH: Final = 4
"""The depth searched with iterative deepening off and no depth limit given."""
CHANCE_DEFAULT_FIXED_DEPTH: Final = 2
"""The same for the expectimax family: two plies with a chance layer between is already
thousands of nodes in backgammon."""
ASPIRATION_MIN_DEPTH: Final = 2
"""Iterations before this are searched with the full window (no guess worth trusting)."""
ASPIRATION_GROWTH: Final = 4
"""After a fail the window on that side grows by this factor."""
ASPIRATION_MAX_FAILS: Final = 3
"""After this many fails the window is opened fully."""


class DeepeningTools(Protocol):
    """What ``deepen`` needs from a search's tools (``SearchTools``, ``ChanceTools``)."""

    reporter: Reporter

    @property
    def horizon_leaves(self) -> int:
        """Leaves scored by EVAL so far: unchanged over an iteration means its value is exact."""
        ...

    @property
    def root_move_count(self) -> int:
        """The moves searched at the root."""
        ...

    def start_iteration(self, depth: int) -> None:
        """Reset the root bookkeeping before searching to ``depth``."""

    def completed_line(self, state: GameState, depth: int) -> list[Any]:
        """The line (best move first) of the iteration to ``depth`` just completed."""
        ...

    def stopped_answer(self, state: GameState, score: float | None, line: list[Any]) -> tuple[float, list[Any]]:
        """The answer after a stop, from the last completed iteration's ``score`` and
        ``line`` (``None``: none completed) and what the interrupted one found."""
        ...

    @property
    def trusts_partial_iteration(self) -> bool:
        """Whether ``stopped_answer`` can take a better move from an interrupted iteration."""
        ...


def soft_deadline(limits: Limits, spent: float, trusts_partial_iteration: bool) -> float | None:
    """The time (seconds from the search's start) after which no new iteration starts, or
    ``None`` to start them until the hard stop. ``spent``: the time used before deepening
    began (the set-up, an abandoned root solve)."""
    if limits.time is None or (trusts_partial_iteration and not limits.from_clock):
        return None
    return spent + SOFT_TIME_FRACTION * max(0.0, limits.time - spent)


def deepen(
    state: GameState,
    root: GameState,
    context: SearchContext,
    tools: DeepeningTools,
    iterate: IterationSearch,
    default_fixed_depth: int,
    helper: int = 0,
    lines: MultiPv | None = None,
) -> tuple[int, float, list[Any], bool]:
    """Search ``root`` (a copy of ``state``, which is only read) to depth 1, 2, 3, ... with
    ``iterate`` until a limit says stop, reporting every completed depth (with its best
    ``lines``, when given: the negamax family). Returns the answer: ``(depth, score, line,
    stopped)``.

    A proven win or loss ends the deepening as soon as the depth reaches its length: an
    iteration to depth ``d`` scores every line of at most ``d`` plies to its end (a full-width
    tree, or a pruned one whose root value is provably the same), and a win sooner (a loss
    later) scores higher, so the first iteration that reaches a win's length proves it the
    shortest, and a loss in ``n <= d`` means no line survives longer. Chance layers add no
    plies and a decision ply is at least one depth step, so the rule holds for both families.
    """
    control = context.control
    settings = context.settings
    limits = control.limits
    reporter = tools.reporter
    if limits.depth is not None:
        target = max(1, min(limits.depth, MAX_ITERATION_DEPTH))
    else:
        target = MAX_ITERATION_DEPTH if settings.iterative_deepening else default_fixed_depth
    depths = range(1, target + 1) if settings.iterative_deepening else range(target, target + 1)
    timed = limits.time is not None
    soft_time = soft_deadline(limits, control.elapsed(), tools.trusts_partial_iteration)

    completed_depth = 0
    completed_score: float | None = None
    completed_line: list[Any] = []
    stopped = False
    # Depth 1 is cheap in every game; searched whatever the clock says, it keeps a short or
    # late-starting timed search from answering with an unsearched move.
    control.deadline_waits = timed and depths[0] == 1
    try:
        for depth in depths:
            if helper and skips_depth(helper, depth, target):
                continue
            tools.start_iteration(depth)
            nodes_before = control.nodes
            horizon_before = tools.horizon_leaves
            score = iterate(root, depth, completed_score)
            line = tools.completed_line(state, depth)
            completed_depth, completed_score, completed_line = depth, score, line
            if lines is None:
                control.deadline_waits = False
                reporter.iteration(depth, score, line, control.nodes - nodes_before)
            else:
                # The first depth's other lines wait for the clock too: every line is searched once.
                found, stopped = lines.search_after_best(state, root, depth, score, line, iterate)
                score, line = found[0][1], list(found[0][2])  # a later line may have scored higher: it leads
                completed_score, completed_line = score, line
                control.deadline_waits = False
                reporter.iteration(depth, score, line, control.nodes - nodes_before, lines=found)
                if stopped:
                    break  # a stop while searching the lines after the best: line 1 is complete
            if tools.horizon_leaves == horizon_before:
                break  # no leaf was cut by the horizon: the value is exact, deeper changes nothing
            if is_win_score(score) and depth >= WIN_SCORE - abs(score):
                break  # a proven win or loss: the shortest, see ``deepen``
            if timed and (tools.root_move_count == 1 or (soft_time is not None and control.elapsed() >= soft_time)):
                stopped = True
                break
    except SearchStopped:
        stopped = True
        completed_score, completed_line = tools.stopped_answer(state, completed_score, completed_line)
    finally:
        control.deadline_waits = False
    assert completed_score is not None  # an iteration completed, or ``stopped_answer`` gave one
    return completed_depth, completed_score, completed_line, stopped


# ------------------------------------------------------------------ negamax family
class MultiPv:
    """The best ``count`` lines of every iteration (UCI's MultiPV), Stockfish's way: once
    the iteration has found the best move, the root is searched again to the same depth
    without it, which finds the second best move and its exact score, then without both,
    and so on. Each line is searched like the best (aspiration window round the same
    line's last score, MTD(f) from it as first guess); its value is that of the root
    restricted to the moves left, so it is never stored in the table as the position's.

    The lines searched at a depth are then sorted by score, best first, ties keeping their
    search order (Stockfish's stable sort after each line). On the same tree a later line
    never scores above line 1, so the order changes nothing; a selective search (reductions
    and pruning that depend on the window) can score a later line higher, and that line then
    becomes line 1: its move is the one played, and the next depth searches it first.

    With ``count`` 1 nothing more is searched: the lines are the best line alone."""

    def __init__(self, tools: SearchTools, count: int) -> None:
        self.tools = tools
        self.count = count
        self.completed: list[RawLine] = []
        """The last iteration's lines, best first: ``(depth, score, moves)``."""

    def search_after_best(
        self, state: GameState, root: GameState, depth: int, score: float, line: list[Any], iterate: IterationSearch
    ) -> tuple[list[RawLine], bool]:
        """The lines of the iteration to ``depth`` whose best line (``score``, ``line``) is
        complete, and whether a stop came while searching the others: then the lines not
        searched again keep the previous iteration's (their depth says so), after the lines
        of this depth. The root record is left holding line 1 (after the sort), for the next
        iteration and the answer."""
        found: list[RawLine] = [(depth, score, line)]
        if self.count == 1 or not line:
            self.completed = found
            return found, False
        record = self.tools.root
        reporter = self.tools.reporter
        best = (record.best_move, record.best_score, record.line, record.previous_best_move)
        previous = self.completed
        stopped = False
        reporter.reports_bounds = False
        try:
            while len(found) < self.count:
                record.exclude([moves[0] for _, _, moves in found])
                if record.move_count == 0:
                    break
                rank = len(found)
                guess = previous[rank][1] if rank < len(previous) else None
                record.previous_best_move = previous[rank][2][0] if guess is not None else None
                self.tools.start_iteration(depth)
                value = iterate(root, depth, guess)
                found.append((depth, value, self.tools.completed_line(state, depth)))
            found.sort(key=lambda found_line: -found_line[1])  # stable: ties keep their order
        except SearchStopped:
            stopped = True
            found.sort(key=lambda found_line: -found_line[1])
            taken = {moves[0] for _, _, moves in found}
            kept = [old for old in previous if old[2][0] not in taken]
            found.extend(kept[: self.count - len(found)])
        finally:
            reporter.reports_bounds = True
            record.exclude(())
            record.best_move, record.best_score, record.line, record.previous_best_move = best
        if found[0][2] is not line:
            _, leader_score, leader_line = found[0]
            record.best_move, record.best_score = leader_line[0], leader_score
            record.line, record.previous_best_move = tuple(leader_line), leader_line[0]
        self.completed = found
        return found, stopped

    def answer_lines(self, score: float, line: list[Any], depth: int) -> list[RawLine]:
        """The lines that go with the answer ``(score, line)``: the last iteration's when
        the answer is its best line; else (a stop kept a better move the interrupted
        iteration found, as a lower bound of depth ``depth + 1``) the answer first, then
        the last iteration's other lines, each with its depth."""
        if not line:
            return []
        if self.completed and self.completed[0][2][:1] == line[:1]:
            return self.completed
        others = [old for old in self.completed if old[2][:1] != line[:1]]
        return [(depth + 1, score, line), *others[: self.count - 1]]


def solved_lines(state: GameState, root: GameState, tools: SearchTools, count: int, best: RawLine) -> list[RawLine]:
    """The best ``count`` lines of a root the game's solver settles (Othello's endgame):
    the best, then the solver asked again without the moves already ranked. A solve that
    runs out of time or is stopped ends the list there."""
    found = [best]
    record = tools.root
    try:
        while len(found) < count:
            record.exclude([moves[0] for _, _, moves in found])
            if record.move_count == 0:
                break
            solved = solve_root(root, tools)
            if solved is None:
                break
            raw, move = solved
            found.append((best[0], raw, tools.principal_variation(state, [move], MAX_ITERATION_DEPTH)))
    except (RootSolveAbandoned, SearchStopped):
        pass
    finally:
        record.exclude(())
    return found


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
                tools.report_window_fail(depth, value, Bound.UPPER)
                alpha = -INFINITY if wide_open else max(-INFINITY, value - width)
            else:
                tools.report_window_fail(depth, value, Bound.LOWER)
                beta = INFINITY if wide_open else min(INFINITY, value + width)

    return iteration


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
    reporter = tools.reporter
    reporter.install_progress()
    # A Lazy SMP helper's events are not shown: it searches the best line alone.
    lines_wanted = 1 if context.helper else context.settings.multipv

    if tools.root.move_count == 0:  # the game is over: nothing to search
        raw = terminal_score(root, 0) if root.is_terminal() else root.evaluate(root.to_move())
        return reporter.finished(0, raw, [], stopped=False)

    try:
        solved = solve_root(root, tools)
    except RootSolveAbandoned:  # a long exact solve: deepening answers in the time left
        solved = None
    except SearchStopped:  # the node limit or a stop request during a long exact solve
        move = greedy_move(root, tools.root.moves)
        return reporter.finished(0, root.evaluate(root.to_move()), [move], stopped=True)
    if solved is not None:  # the game's exact solver settles the root (Othello endgame)
        raw, move = solved
        context.control.count_nodes(1, check=False)  # the root; a stop arriving now changes nothing solved
        line = tools.principal_variation(state, [move], MAX_ITERATION_DEPTH)
        found = solved_lines(state, root, tools, lines_wanted, (1, raw, line)) if lines_wanted > 1 else [(1, raw, line)]
        reporter.iteration(1, raw, line, context.control.nodes, lines=found)
        return reporter.finished(1, raw, line, stopped=False, lines=found)
    lines = MultiPv(tools, lines_wanted)
    depth, score, line, stopped = deepen(
        state, root, context, tools, make_iteration(tools), DEFAULT_FIXED_DEPTH, context.helper, lines
    )
    return reporter.finished(depth, score, line, stopped, lines=lines.answer_lines(score, line, depth))


# ---------------------------------------------------------------- expectimax family
def run_chance_search(state: GameState, context: SearchContext, build: Callable[[ChanceTools], RootSearch]) -> Finished:
    """Search ``state`` deeper and deeper with the iteration ``build`` makes, within
    ``context``'s limits; report each completed depth; answer with the best move and the
    value of every root move (or, at a chance root, of every roll: there is no move to
    choose then, and ``best_move`` is ``None``). A root with nothing to search answers at
    once, ``Finished.error`` saying why.
    """
    reason = unsearchable_reason(state)
    if reason is not None:
        return answer_without_search(state, context, reason)
    root = state.copy()
    tools = ChanceTools(root, context)
    tools.reporter.install_progress()
    search = build(tools)

    def iteration(root: GameState, depth: int, guess: float | None) -> float:
        return search(root, depth)

    depth, value, line, stopped = deepen(state, root, context, tools, iteration, CHANCE_DEFAULT_FIXED_DEPTH)
    root_values = tuple(
        RootMoveStat(move=move, visits=0, value=value)
        for _, (move, value) in sorted(tools.completed_root_values.items())
    )
    return tools.reporter.finished(depth, value, line, stopped, root_values)
