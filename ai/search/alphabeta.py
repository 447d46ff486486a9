"""Alpha-beta search: minimax that skips what cannot matter.

AIMA fig. 5.7 (ALPHA-BETA-SEARCH) and Knuth & Moore, "An analysis of alpha-beta pruning"
(Artificial Intelligence 6, 1975), written in negamax form (one function for both players:
a child's value is negated, and its window ``(alpha, beta)`` becomes ``(-beta, -alpha)``)
and *fail-soft*: the value returned may lie outside the window, and is then a bound -- at or
above beta a lower bound (a cut-off: the opponent will avoid this node), at or below alpha an
upper bound. With the window ``(-inf, +inf)`` the root value is exactly the minimax value.

The enhancements are separate pieces, each switchable in ``SearchSettings`` so their effect
can be seen one at a time:

* transposition table (``ai.tt``): cut-offs from stored bounds and the stored best move
  tried first;
* move ordering (``ai.ordering``): TT move, captures by MVV-LVA, killers, history;
* quiescence search at the horizon (``ai.search.quiescence``);
* the game's exact solver as a perfect EVAL (Othello endgames);
* beyond the lecture notes, and only for games that know about check (chess): check
  extensions, null-move pruning (Beal 1989; Donninger 1993) and late move reductions.
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
    """The alpha-beta node function of one search, bound to its ``tools``."""
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

    def alphabeta(state: GameState, depth: int, alpha: float, beta: float, ply: int) -> float:
        """Fail-soft negamax alpha-beta: the value of ``state`` for the side to move,
        exact when it lies inside ``(alpha, beta)``, else a bound on the side it fell."""
        in_check = is_selective and state.is_in_check()
        if in_check and check_extensions and ply < tools.extension_ply_limit:
            depth += 1  # check extension: never stop in check
        if depth <= 0:
            return leaf(state, alpha, beta, ply)
        count_node()
        pv_table[ply] = NO_LINE
        if state.is_terminal():
            return terminal_score(state, ply)
        horizon_before = tools.horizon_leaves

        # Transposition table: a stored bound may settle the node at once.
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

        # Null-move pruning (beyond the notes): if passing still fails high, cut.
        if (
            null_move
            and not in_check
            and ply > 0
            and depth >= NULL_MOVE_MIN_DEPTH
            and not null_move_at[ply]
            and beta <= next_up(alpha)
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
            if reduce and not state.is_in_check():
                # Late move reduction: a shallower null-window look first; only a move
                # that beats alpha there is searched to full depth.
                value = -search(state, depth - 1 - LMR_REDUCTION, -next_up(alpha), -alpha, ply + 1)
                if value > alpha:
                    value = -search(state, depth - 1, -beta, -alpha, ply + 1)
            else:
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
                    if value >= beta:  # cut-off: the opponent will not allow this node
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

    search: NodeSearch = alphabeta if observer is None else observed(alphabeta, tools)
    return search


def run(state: GameState, context: SearchContext) -> Finished:
    """Iterative deepening over fail-soft alpha-beta, with aspiration windows."""
    return run_iterative_deepening(state, context, lambda tools: aspiration_iteration(build(tools), tools))
