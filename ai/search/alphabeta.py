"""Alpha-beta search: minimax that skips what cannot matter.

AIMA fig. 5.7 (ALPHA-BETA-SEARCH) and Knuth & Moore, "An analysis of alpha-beta pruning"
(Artificial Intelligence 6, 1975), in negamax form and fail-soft::

    function ALPHA-BETA(node, depth, alpha, beta):
        ...                                  (horizon, table, solver, null move: the shared node)
        for each move, best first:
            value = -ALPHA-BETA(child, depth - 1, -beta, -alpha)
            best = max(best, value); alpha = max(alpha, value)
            if alpha >= beta: break          (cut-off: the opponent will avoid this node)
        return best

The value returned may lie outside the window, and is then a bound -- at or above beta a
lower bound, at or below alpha an upper bound. With the window ``(-inf, +inf)`` the root
value is exactly the minimax value.

The node itself is ``ai.search.negamax``, shared with PVS and MTD(f); what is alpha-beta's
own is only the rule below: every child is searched with the node's window. The
enhancements are separate pieces there, each switchable in ``SearchSettings``: the
transposition table (``ai.tt``), move ordering (``ai.ordering``), quiescence search at the
horizon (``ai.search.quiescence``), the game's exact solver as a perfect EVAL (Othello
endgames), and, beyond the lecture notes and only for games that know about check (chess),
check extensions, null-move pruning (Beal 1989; Donninger 1993) and late move reductions.
"""

from __future__ import annotations

from games.base import GameState

from ai.context import SearchContext
from ai.events import Finished
from ai.iterative import aspiration_iteration, run_iterative_deepening
from ai.search import negamax
from ai.search.common import NodeSearch, SearchTools


def full_window(search: NodeSearch, state: GameState, depth: int, alpha: float, beta: float, ply: int, number: int) -> float:
    """Alpha-beta's child: searched with the node's window, turned round."""
    return -search(state, depth - 1, -beta, -alpha, ply + 1)


def build(tools: SearchTools) -> NodeSearch:
    """The alpha-beta node function of one search, bound to its ``tools``."""
    return negamax.build(tools, full_window)


def run(state: GameState, context: SearchContext) -> Finished:
    """Iterative deepening over fail-soft alpha-beta, with aspiration windows."""
    return run_iterative_deepening(state, context, lambda tools: aspiration_iteration(build(tools), tools))
