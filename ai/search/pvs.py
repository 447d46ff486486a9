"""Principal variation search (NegaScout): alpha-beta that bets on its move ordering.

Reinefeld, "An improvement to the Scout tree search algorithm" (ICCA Journal 6(4), 1983);
Marsland & Campbell's PVS (1982) is the same idea. With good ordering the first move at a
node is usually the best. So only the first move is searched with the full window
``(alpha, beta)``; every later move is searched with a *null window* ``(alpha, alpha + e)``
that can only answer "worse than alpha" (fail low, the common case, and cheap) or "better"
(fail high). Only a fail high inside the window is searched again with the full window to
get its exact value. The result equals alpha-beta's; the tree is smaller when the ordering
is good and somewhat larger when it is bad.

"alpha + e" is ``next_up(alpha)``, the next float above alpha (scores may be floats). The
re-search uses ``(alpha, beta)`` after the null window, the common robust variant (with a
transposition table the fail-high value is not always a reliable lower bound).

Transposition table, move ordering, quiescence, the solver and the chess-only selectivity
(beyond the notes: check extensions, null-move pruning, late move reductions) are the same
pieces as in ``ai.search.alphabeta``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.base import GameState

from ai.context import SearchContext
from ai.events import Finished
from ai.iterative import aspiration_iteration, run_iterative_deepening
from ai.scores import INFINITY, from_tt, is_win_score, terminal_score, to_tt
from ai.search.common import (
    DEEP_NULL_MOVE_DEPTH,
    DEEP_NULL_MOVE_REDUCTION,
    LMR_FIRST_REDUCED_MOVE,
    LMR_MIN_DEPTH,
    LMR_REDUCTION,
    NO_LINE,
    NULL_MOVE_MIN_DEPTH,
    NULL_MOVE_REDUCTION,
    SOLVED_DEPTH,
    NodeSearch,
    SearchTools,
    next_up,
    observed,
)
from ai.search.quiescence import build_leaf
from ai.tt import EXACT, LOWER, UPPER


def build(tools: SearchTools) -> NodeSearch:
    """The PVS node function of one search, bound to its ``tools``."""
    count_node = tools.control.count_node
    poll = tools.control.count_nodes
    check_now = tools.control.check
    leaf = build_leaf(tools)
    table = tools.tt
    orderer = tools.orderer
    pv_table = tools.pv_table
    null_move_at = tools.null_move_at
    observer = tools.observer
    path = tools.path
    solver_empties = tools.solver_empties
    eval_scale = tools.eval_scale
    is_selective = tools.is_selective
    check_extensions = tools.check_extensions
    null_move = tools.null_move
    late_move_reductions = tools.late_move_reductions
    captures_known = tools.captures_known

    def pvs(state: GameState, depth: int, alpha: float, beta: float, ply: int) -> float:
        """NegaScout: the first move with the full window, the rest with a null window,
        re-searched when they fail high inside ``(alpha, beta)``. Fail-soft, negamax."""
        in_check = is_selective and state.is_in_check()
        if in_check and check_extensions and ply < tools.extension_ply_limit:
            depth += 1  # check extension
        if depth <= 0:
            return leaf(state, alpha, beta, ply)
        count_node()
        pv_table[ply] = NO_LINE
        if state.is_terminal():
            return terminal_score(state, ply)
        horizon_before = tools.horizon_leaves

        key = 0
        tt_move: Any = None
        if table is not None:
            key = state.key()
            tools.tt_probes += 1
            entry = table.probe(key)
            if entry is not None:
                tools.tt_hits += 1
                _, entry_depth, entry_score, entry_bound, tt_move, _ = entry
                if entry_depth >= depth and ply > 0:
                    score = from_tt(entry_score, ply)
                    if (
                        entry_bound == EXACT
                        or (entry_bound == LOWER and score >= beta)
                        or (entry_bound == UPPER and score <= alpha)
                    ):
                        if entry_depth < SOLVED_DEPTH:
                            tools.horizon_leaves += 1
                        return score
        if solver_empties and ply > 0:
            solved = state.solve(state.to_move(), solver_empties, poll)
            if solved is not None:
                check_now()  # a solve takes milliseconds: look at clock and stop flag now
                value = solved * eval_scale
                if table is not None:
                    table.store(key, SOLVED_DEPTH, to_tt(value, ply), EXACT, tt_move)
                return value
        if ply == 0 and tt_move is None:
            tt_move = tools.previous_best_move

        is_null_window = beta <= next_up(alpha)
        if (
            null_move
            and is_null_window
            and not in_check
            and ply > 0
            and depth >= NULL_MOVE_MIN_DEPTH
            and not null_move_at[ply]
            and not is_win_score(beta)
            and state.can_null_move()
            and state.evaluate(state.to_move()) >= beta
        ):
            reduction = DEEP_NULL_MOVE_REDUCTION if depth >= DEEP_NULL_MOVE_DEPTH else NULL_MOVE_REDUCTION
            state.play_null()
            null_move_at[ply + 1] = True
            value = -search(state, depth - 1 - reduction, -beta, -alpha, ply + 1)
            null_move_at[ply + 1] = False
            state.undo_null()
            if value >= beta:
                tools.horizon_leaves += 1  # a heuristic cut, never an exact result
                return beta if is_win_score(value) else value

        alpha_original = alpha
        best: float = -INFINITY
        best_move: Any = None
        moves: Iterable[Any]
        if ply == 0:
            moves = tools.root_move_order(state, tt_move)
        elif orderer is None:
            moves = state.legal_moves()
        else:
            moves = orderer.ordered_moves(state, ply, tt_move)
        number = 0
        for move in moves:
            number += 1
            if ply == 0:
                tools.report_root_move(move, number)
            reduce = (
                late_move_reductions
                and ply > 0
                and number >= LMR_FIRST_REDUCED_MOVE
                and depth >= LMR_MIN_DEPTH
                and not in_check
                and (not captures_known or state.capture_score(move) <= 0)
            )
            state.play(move)
            if observer is not None:
                path.append(move)
            if number == 1:
                value = -search(state, depth - 1, -beta, -alpha, ply + 1)
            else:
                is_refuted = False
                if reduce and not state.is_in_check():  # late move reduction first
                    value = -search(state, depth - 1 - LMR_REDUCTION, -next_up(alpha), -alpha, ply + 1)
                    is_refuted = value <= alpha
                if not is_refuted:
                    value = -search(state, depth - 1, -next_up(alpha), -alpha, ply + 1)  # null window
                    if alpha < value < beta:  # fail high inside the window: re-search
                        value = -search(state, depth - 1, -beta, -alpha, ply + 1)
            state.undo()
            if observer is not None:
                path.pop()
            if value > best:
                best = value
                best_move = move
                if value > alpha:
                    alpha = value
                    pv_table[ply] = (move, *pv_table[ply + 1])
                    if ply == 0:
                        tools.note_root_best(move, value)
                    if value >= beta:
                        tools.cutoffs += 1
                        if number == 1:
                            tools.first_move_cutoffs += 1
                        if orderer is not None:
                            orderer.note_cutoff(state, move, depth, ply)
                        if observer is not None:
                            skipped = moves[number:] if isinstance(moves, list) else list(moves)
                            observer.cutoff(path, move, skipped)
                        break

        if table is not None and not (ply == 0 and tools.is_root_restricted):
            bound = LOWER if best >= beta else EXACT if best > alpha_original else UPPER
            stored_depth = SOLVED_DEPTH if tools.horizon_leaves == horizon_before else depth
            # A fail-low names no best move (every move failed; the "best" is noise): store
            # None, which keeps the move an earlier search found (the previous best first).
            table.store(key, stored_depth, to_tt(best, ply), bound, None if bound == UPPER else best_move)
        return best

    search: NodeSearch = pvs if observer is None else observed(pvs, tools)
    return search


def run(state: GameState, context: SearchContext) -> Finished:
    """Iterative deepening over PVS, with aspiration windows."""
    return run_iterative_deepening(state, context, lambda tools: aspiration_iteration(build(tools), tools))
