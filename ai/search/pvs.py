"""Principal variation search (NegaScout): alpha-beta that bets on its move ordering.

Reinefeld, "An improvement to the Scout tree search algorithm" (ICCA Journal 6(4), 1983);
Marsland & Campbell's PVS (1982) is the same idea. With good ordering the first move at a
node is usually the best. So only the first move is searched with the full window; every
later move is searched with a *null window* that can only answer "worse than alpha" (fail
low, the common case, and cheap) or "better" (fail high), and only a fail high inside the
window is searched again with the full window to get its exact value::

    for each move, best first:
        if it is the first:  value = -PVS(child, depth - 1, -beta, -alpha)
        else:
            value = -PVS(child, depth - 1, -alpha - e, -alpha)       (null window)
            if alpha < value < beta:
                value = -PVS(child, depth - 1, -beta, -alpha)        (re-search)
        ...                                                          (as alpha-beta)

The result equals alpha-beta's; the tree is smaller when the ordering is good and somewhat
larger when it is bad. "alpha + e" is ``next_up(alpha)``, the next float above alpha (scores
may be floats). The re-search uses ``(alpha, beta)`` after the null window, the common
robust variant (with a transposition table the fail-high value is not always a reliable
lower bound).

Everything else -- table, ordering, quiescence, the solver, selective search (chess,
checkers) -- is the node shared with alpha-beta (``ai.search.negamax``); this file holds
only the rule above.
"""

from __future__ import annotations

from games.base import GameState

from ai.context import SearchContext
from ai.events import Finished
from ai.iterative import aspiration_iteration, run_iterative_deepening
from ai.search import negamax
from ai.search.common import NodeSearch, SearchTools, next_up


def null_window_after_the_first(
    search: NodeSearch, state: GameState, depth: int, alpha: float, beta: float, ply: int, number: int
) -> float:
    """PVS's child: the first move with the full window; a later one with a null window,
    searched again with the full window only when it fails high inside ``(alpha, beta)``."""
    if number == 1:
        return -search(state, depth - 1, -beta, -alpha, ply + 1)
    value = -search(state, depth - 1, -next_up(alpha), -alpha, ply + 1)
    if alpha < value < beta:
        value = -search(state, depth - 1, -beta, -alpha, ply + 1)
    return value


def build(tools: SearchTools) -> NodeSearch:
    """The PVS node function of one search, bound to its ``tools``."""
    return negamax.build(tools, null_window_after_the_first)


def run(state: GameState, context: SearchContext) -> Finished:
    """Iterative deepening over PVS, with aspiration windows."""
    return run_iterative_deepening(state, context, lambda tools: aspiration_iteration(build(tools), tools))
