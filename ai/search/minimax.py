"""Plain depth-limited minimax: every node of the tree, no pruning.

AIMA fig. 5.3 (MINIMAX-SEARCH) with the depth cut-off of section 5.4 (H-MINIMAX: EVAL at
the cut-off depth), written in *negamax* form: instead of separate MAX-VALUE and MIN-VALUE,
one function returns the value for the side to move, and a child's value is negated
(``max(a, b) = -min(-a, -b)``; Knuth & Moore 1975 use the same form). Terminal states are
scored by ``ai.scores.terminal_score`` (a win found sooner is worth more).

This is the reference the other algorithms are checked against (``tests/ai/
test_equivalence.py``): on the same tree with the same EVAL, alpha-beta, PVS and MTD(f)
return exactly this value. It deliberately has none of their enhancements -- no table, no
ordering, no selectivity -- whatever the settings say, and by default no quiescence search
either, as in the textbook: without alpha-beta's bounds the noisy-move tree below every
leaf is searched in full, and in a tactical chess middlegame that made depth 3 take over
five minutes. Asked for explicitly (``SearchSettings.quiescence=True``) it is called with
the full window, which makes it the exact minimax value of the noisy-move tree. The game's
exact solver serves as a perfect EVAL when ``solver_empties`` reaches.
"""

from __future__ import annotations

from games.base import GameState

from ai.context import SearchContext
from ai.events import Finished
from ai.iterative import full_window_iteration, run_iterative_deepening
from ai.scores import INFINITY, terminal_score
from ai.search.common import DRAW_SCORE, NO_LINE, NodeSearch, SearchTools
from ai.search.quiescence import build_leaf


def build(tools: SearchTools) -> NodeSearch:
    """The minimax node function of one search; the window arguments are ignored (they are
    there so that every algorithm has the same node signature)."""
    count_node = tools.control.count_node
    leaf = build_leaf(tools)
    pv_table = tools.pv_table
    recorder = tools.recorder
    counters = tools.counters
    root_moves = tools.root.moves
    repeats_within = tools.abilities.repeats_within

    def minimax(state: GameState, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The minimax value of ``state`` for the side to move, ``depth`` plies deep."""
        if repeats_within is not None and ply and repeats_within(ply):
            count_node()  # repeated since the root: a draw (as in every algorithm)
            pv_table[ply] = NO_LINE
            counters.horizon_leaves += 1
            return DRAW_SCORE
        if depth <= 0:
            return leaf(state, -INFINITY, INFINITY, ply)  # IS-CUTOFF: EVAL (or quiescence)
        count_node()
        pv_table[ply] = NO_LINE
        if state.is_terminal():
            return terminal_score(state, ply)
        best: float = -INFINITY
        for number, move in enumerate(root_moves if ply == 0 else state.legal_moves(), start=1):
            if ply == 0:
                tools.report_root_move(move, number)
            state.play(move)
            if recorder is not None:
                recorder.next_move = move
            value = -search(state, depth - 1, -INFINITY, INFINITY, ply + 1)
            state.undo()
            if value > best:
                best = value
                pv_table[ply] = (move, *pv_table[ply + 1])
                if ply == 0:
                    tools.note_root_best(move, value)
        return best

    search: NodeSearch = minimax if recorder is None else recorder.negamax_node(minimax, repeats_within, tools.switches.quiescence)
    return search


def run(state: GameState, context: SearchContext) -> Finished:
    """Iterative deepening over plain minimax (each iteration the full tree to its depth)."""
    return run_iterative_deepening(
        state, context, lambda tools: full_window_iteration(build(tools)), enhanced=False
    )
