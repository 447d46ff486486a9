"""MTD(f): the minimax value found by null-window alpha-beta searches alone.

Plaat, Schaeffer, Pijls & de Bruin, "Best-first fixed-depth minimax algorithms" (Artificial
Intelligence 87, 1996). A null-window alpha-beta search ``(beta - e, beta)`` answers only
"is the value at least beta?", but it does so fast, and fail-soft it returns a bound: a
lower bound when it fails high, an upper bound when it fails low. MTD(f) starts from a first
guess ``f`` (the previous iteration's value) and moves the test up or down, each result
narrowing ``lower <= value <= upper``, until the two meet:

    g = f; lower = -inf; upper = +inf
    while lower < upper:
        beta = g + e if g == lower else g
        g = AlphaBetaWithMemory(root, beta - e, beta)
        if g < beta: upper = g else: lower = g
    return g

Every pass searches the same tree again, so MTD(f) relies on the transposition table
("alpha-beta *with memory*") to make the repeated passes cheap. With the table switched off
it still returns the right value, only much more slowly: a good demonstration of why it
needs memory. "+ e" is ``next_up``, the next float (scores may be floats).

The inner search is ``ai.search.alphabeta`` with all its pieces. The best move is the one
that made the last fail-high pass fail high (that pass proved the final lower bound); the PV
is read from the table.
"""

from __future__ import annotations

from typing import Final

from games.base import GameState

from ai.context import SearchContext
from ai.events import Finished
from ai.iterative import IterationSearch, run_iterative_deepening
from ai.scores import INFINITY
from ai.search import alphabeta
from ai.search.common import NodeSearch, SearchTools, next_down, next_up
from ai.tree.model import PassKind

MAX_PASSES: Final = 100
"""Null-window passes before giving up on convergence and searching with the full window.
Search instability (table entries from other depths, repetition draws seen on one path and
not another, and in the selective preset pruning that depends on the window) can make the
bounds inconsistent; this keeps MTD(f) from looping."""


def mtdf(
    search: NodeSearch, root: GameState, depth: int, first_guess: float, full_window: NodeSearch | None = None
) -> float:
    """The minimax value of ``root`` to ``depth`` by null-window searches from
    ``first_guess`` (Plaat et al. 1996, fig. 2).

    On the same tree every pass keeps ``lower <= value <= upper``. An unstable search can
    break that: a pass fails high above the proven upper bound, or low below the proven
    lower bound. Crossed bounds prove nothing (the last pass's value may be a move that
    loses material), so the value then comes from one full-window search, as it does after
    ``MAX_PASSES``. ``full_window`` runs that search (default: ``search``)."""
    value = first_guess
    lower: float = -INFINITY
    upper: float = INFINITY
    passes = 0
    while lower < upper:
        beta = next_up(value) if value == lower else value
        value = search(root, depth, next_down(beta), beta, 0)
        if value < beta:
            if value < lower:
                break  # failed low below a proven lower bound: the bounds crossed
            upper = value  # failed low: the value is at most this
        else:
            if value > upper:
                break  # failed high above a proven upper bound: the bounds crossed
            lower = value  # failed high: the value is at least this
        passes += 1
        if passes >= MAX_PASSES:
            break
    else:
        return value
    return (full_window or search)(root, depth, -INFINITY, INFINITY, 0)


def mtdf_iteration(search: NodeSearch, tools: SearchTools) -> IterationSearch:
    """Each iteration is one MTD(f) call whose first guess is the previous iteration's
    value (the root's static evaluation before the first). A recorded tree names each
    null-window pass an MTD(f) probe and the full-window fallback a re-search."""
    recorder = tools.recorder
    probe = search if recorder is None else recorder.named_passes(search, PassKind.MTDF_PROBE)
    full_window = search if recorder is None else recorder.named_passes(search, PassKind.RESEARCH)

    def iteration(root: GameState, depth: int, guess: float | None) -> float:
        first_guess = root.evaluate(root.to_move()) if guess is None else guess
        return mtdf(probe, root, depth, first_guess, full_window)

    return iteration


def run(state: GameState, context: SearchContext) -> Finished:
    """Iterative deepening over MTD(f) (alpha-beta with the transposition table)."""
    return run_iterative_deepening(state, context, lambda tools: mtdf_iteration(alphabeta.build(tools), tools))
