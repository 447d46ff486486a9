"""The fail-soft negamax node that alpha-beta, PVS and MTD(f) share.

Knuth & Moore, "An analysis of alpha-beta pruning" (Artificial Intelligence 6, 1975), in
negamax form: one function for both players, a child's value negated and its window
``(alpha, beta)`` turned into ``(-beta, -alpha)``; *fail-soft*: a value outside the window
is a bound on that side. The node, with each enhancement a named step below::

    function NEGAMAX(state, depth, alpha, beta, ply):
        if the position repeated since the root: return DRAW          repetition_draw
        if in check: depth += 1                                       (check extension)
        if depth <= 0: return LEAF(state, alpha, beta)                EVAL or quiescence
        if TERMINAL(state): return UTILITY(state)
        stored, tt_move = PROBE(state)          may settle the node   probe
        if the game solves state exactly: return its value            try_solver
        if far above beta near the horizon, or a free move
           for the opponent still fails high: return a bound          static_cut
        best, best_move = -inf, none
        for each move, best first (tt_move first):                    (children, inline)
            skip it if hopeless near the horizon                      (prune, inline)
            value = CHILD(move)      reduced first when late and quiet  late_move_reduction
            if value > best: best, best_move = value, move
            alpha = max(alpha, value); if alpha >= beta: break        note_cutoff
        STORE(state, best, best_move, bound)                          store
        return best

``CHILD`` is what makes the algorithm: alpha-beta searches each child with the node's window
(``ai.search.alphabeta``), PVS with a null window after the first (``ai.search.pvs``); MTD(f)
drives null-window passes of alpha-beta (``ai.search.mtdf``). The selective steps (check
extension, static cuts, pruning and reductions) run only for a game that declares the
abilities they need (``Switches``); the others are the lecture notes' alpha-beta.

The steps are closures over the search's services (``SearchTools``), not methods: the hot
recursion reads them from closure cells. When the tree is recorded (``ai.tree.recorder``) the
node function is wrapped, and the node tells the recorder only the move it is about to
search, a cut-off's skipped moves and what settled it without children; when nothing is
recorded, each of those is one ``recorder is not None`` test.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from games.base import GameState

from ai.scores import INFINITY, WIN_THRESHOLD, from_tt, is_win_score, solved_score, to_tt
from ai.search.common import (
    FUTILITY_BASE,
    FUTILITY_DEPTH,
    FUTILITY_MARGIN,
    LATE_MOVE_PRUNING_BASE,
    LATE_MOVE_PRUNING_DEPTH,
    LMR_FIRST_REDUCED_MOVE,
    LMR_MIN_DEPTH,
    LMR_REDUCTION,
    LMR_TABLE_SIZE,
    NO_LINE,
    NULL_MOVE_DEPTH_STEP,
    NULL_MOVE_EVAL_STEP,
    NULL_MOVE_MAX_EVAL_BONUS,
    NULL_MOVE_MIN_DEPTH,
    NULL_MOVE_REDUCTION,
    NULL_MOVE_VERIFY_DEPTH,
    REVERSE_FUTILITY_DEPTH,
    REVERSE_FUTILITY_MARGIN,
    SEE_CAPTURE_MARGIN,
    SEE_CAPTURE_PRUNING_DEPTH,
    SEE_QUIET_MARGIN,
    SEE_QUIET_PRUNING_DEPTH,
    DRAW_SCORE,
    SOLVED_DEPTH,
    NodeSearch,
    SearchTools,
    lmr_table,
    next_up,
)
from ai.search.quiescence import build_leaf, terminal_leaf
from ai.tree.model import NodeKind
from ai.tt import EXACT, LOWER, UPPER

ChildSearch = Callable[[NodeSearch, GameState, int, float, float, int, int], float]
"""An algorithm's rule for one child: ``(search, state, depth, alpha, beta, ply, number) ->
value`` of the node's move ``number`` (1-based), already played on ``state``, for the node's
side to move; ``depth``/``ply`` are the node's. ``search`` is the node function to recurse
into."""


def build(tools: SearchTools, search_child: ChildSearch) -> NodeSearch:
    """The negamax node function of one search, bound to its ``tools``, searching each
    child by the algorithm's ``search_child`` rule."""
    count_node = tools.control.count_node
    poll = tools.solver_poll
    check_now = tools.control.check
    leaf = build_leaf(tools)
    table = tools.tt
    orderer = tools.orderer
    pv_table = tools.pv_table
    null_move_at = tools.null_move_at
    recorder = tools.recorder
    counters = tools.counters
    root = tools.root
    switches = tools.switches
    solver_empties = switches.solver_empties
    is_selective = switches.is_selective
    check_extensions = switches.check_extensions
    null_move = switches.null_move
    late_move_reductions = switches.late_move_reductions
    see_pruning = switches.see_pruning
    futility_pruning = switches.futility_pruning
    prunes_moves = see_pruning or futility_pruning
    captures_known = switches.captures_known
    abilities = tools.abilities
    eval_scale = abilities.eval_scale
    gives_check = abilities.gives_check
    exchange_at_least = abilities.exchange_at_least
    repeats_within = abilities.repeats_within
    reductions = lmr_table()
    last_index = LMR_TABLE_SIZE - 1
    is_killer = orderer.is_killer if orderer is not None else None
    null_move_min_ply = 0
    """Null moves are forbidden above this ply while a null move's fail high is verified."""

    def repetition_draw(ply: int) -> float:
        """A position repeated since the root: a draw (path-dependent, so a horizon leaf)."""
        count_node()
        pv_table[ply] = NO_LINE
        counters.horizon_leaves += 1
        return DRAW_SCORE

    def probe(key: int, depth: int, alpha: float, beta: float, ply: int) -> tuple[float | None, Any]:
        """PROBE THE TABLE: ``(value, tt_move)``; the value, when not ``None``, settles the
        node (a stored result at least as deep whose bound answers for this window; never at
        the root, which must name a move); the move is tried first either way."""
        counters.tt_probes += 1
        entry = table.probe(key)  # type: ignore[union-attr]  # probe is called only with a table
        if entry is None:
            return None, None
        counters.tt_hits += 1
        _, entry_depth, entry_score, entry_bound, tt_move, _ = entry
        if entry_depth >= depth and ply > 0:
            score = from_tt(entry_score, ply)
            if (
                entry_bound == EXACT
                or (entry_bound == LOWER and score >= beta)
                or (entry_bound == UPPER and score <= alpha)
            ):
                if entry_depth < SOLVED_DEPTH:
                    counters.horizon_leaves += 1
                return score, tt_move
        return None, tt_move

    def try_solver(state: GameState, key: int, tt_move: Any, ply: int) -> float | None:
        """TRY THE SOLVER: the game's exact value near the end (Othello), stored as solved."""
        solved = state.solve(state.to_move(), solver_empties, poll)
        if solved is None:
            return None
        check_now()  # a solve takes milliseconds: look at clock and stop flag now
        value = solved_score(state, solved, ply, eval_scale)
        if table is not None:
            table.store(key, SOLVED_DEPTH, to_tt(value, ply), EXACT, tt_move)
        return value

    def static_cut(state: GameState, depth: int, alpha: float, beta: float, ply: int, is_scout: bool, static_eval: float) -> float | None:
        """STATIC CUTS, off the PV and not in check: reverse futility (a static evaluation
        far above beta near the horizon), then the null move; a value cuts the node."""
        if (
            futility_pruning
            and is_scout
            and depth <= REVERSE_FUTILITY_DEPTH
            and not is_win_score(beta)
            and static_eval - REVERSE_FUTILITY_MARGIN * depth >= beta
        ):
            counters.horizon_leaves += 1  # reverse futility: a heuristic cut
            return static_eval
        if (
            null_move
            and depth >= NULL_MOVE_MIN_DEPTH
            and is_scout  # only in a null-window search,
            and not null_move_at[ply]  # never twice in a row
            and ply >= null_move_min_ply
            and not is_win_score(beta)
            and static_eval >= beta
            and state.can_null_move()
        ):
            return null_move_cut(state, depth, alpha, beta, ply, static_eval)
        return None

    def null_move_cut(state: GameState, depth: int, alpha: float, beta: float, ply: int, static_eval: float) -> float | None:
        """NULL MOVE (Beal 1989; Donninger 1993; adaptive R, Heinz 1999): give the opponent
        a free move; if a reduced search still fails high, the node is cut. From
        ``NULL_MOVE_VERIFY_DEPTH`` on the cut is verified (Tabibi & Netanyahu 2002): a
        reduced search of the real moves, null moves forbidden near the top of it, must
        fail high too (in zugzwang it does not)."""
        nonlocal null_move_min_ply
        reduction = (
            NULL_MOVE_REDUCTION
            + depth // NULL_MOVE_DEPTH_STEP
            + min(NULL_MOVE_MAX_EVAL_BONUS, int((static_eval - beta) // NULL_MOVE_EVAL_STEP))
        )
        state.play_null()
        null_move_at[ply + 1] = True
        if recorder is not None:
            recorder.next_move = None  # a null move: no move leads to the child
        value = -search(state, depth - 1 - reduction, -beta, -alpha, ply + 1)
        null_move_at[ply + 1] = False
        state.undo_null()
        if value < beta:
            return None
        if is_win_score(value):
            value = beta  # a mate found after passing is no proof of a mate
        if depth >= NULL_MOVE_VERIFY_DEPTH and not null_move_min_ply:
            null_move_min_ply = ply + 3 * (depth - reduction) // 4
            if recorder is not None:
                recorder.hide()  # the same node searched again: its nodes count in it, drawn as none
            try:
                verified = search(state, depth - reduction, alpha, beta, ply)
            finally:
                null_move_min_ply = 0
                if recorder is not None:
                    recorder.show()
            if verified < beta:
                return None
        counters.horizon_leaves += 1  # a heuristic cut, never an exact result
        return value

    def late_move_reduction(depth: int, number: int, is_scout: bool) -> int:
        """LATE MOVE REDUCTION of a late quiet move (the logarithmic table, less at PV nodes,
        never below ``LMR_REDUCTION`` nor to below depth 1)."""
        reduction = reductions[min(depth, last_index)][min(number, last_index)]
        if not is_scout:
            reduction -= 1  # a PV node: reduce less
        return max(LMR_REDUCTION, min(reduction, depth - 2))

    def note_cutoff(state: GameState, move: Any, moves: Iterable[Any], number: int, depth: int, ply: int) -> None:
        """A move failed high: count it, teach the orderer, tell the recorder the skipped."""
        counters.cutoffs += 1
        if number == 1:
            counters.first_move_cutoffs += 1
        if orderer is not None:
            orderer.note_cutoff(state, move, depth, ply)
        if recorder is not None:
            skipped = moves[number:] if isinstance(moves, list) else list(moves)
            recorder.cut(move, skipped)

    def store(key: int, depth: int, alpha: float, beta: float, ply: int, best: float, best_move: Any, is_exact: bool) -> None:
        """STORE the value: a lower bound after a cut-off, an upper bound if nothing beat
        alpha (the node's alpha on entry), else exact; at ``SOLVED_DEPTH`` when no horizon
        touched the subtree (``is_exact``)."""
        bound = LOWER if best >= beta else EXACT if best > alpha else UPPER
        stored_depth = SOLVED_DEPTH if is_exact else depth
        # A fail-low names no best move (every move failed; the "best" is noise): store
        # None, which keeps the move an earlier search found (the previous best first).
        table.store(key, stored_depth, to_tt(best, ply), bound, None if bound == UPPER else best_move)  # type: ignore[union-attr]

    def negamax(state: GameState, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The fail-soft value of ``state`` for the side to move: exact inside ``(alpha,
        beta)``, else a bound on the side it fell."""
        if repeats_within is not None and ply and repeats_within(ply):
            return repetition_draw(ply)
        in_check = is_selective and state.is_in_check()
        if in_check and check_extensions and ply < root.extension_ply_limit:
            depth += 1  # check extension: never stop in check
        if depth <= 0:
            return leaf(state, alpha, beta, ply)
        count_node()
        pv_table[ply] = NO_LINE
        if state.is_terminal():
            return terminal_leaf(state, ply, counters)
        horizon_before = counters.horizon_leaves

        key = 0
        tt_move: Any = None
        if table is not None:
            key = state.key()
            stored, tt_move = probe(key, depth, alpha, beta, ply)
            if stored is not None:
                if recorder is not None:
                    recorder.settle(NodeKind.TT_CUT)
                return stored
        if solver_empties and ply > 0:
            solved = try_solver(state, key, tt_move, ply)
            if solved is not None:
                if recorder is not None:
                    recorder.settle(NodeKind.SOLVER)
                return solved
        if ply == 0 and tt_move is None:
            tt_move = root.previous_best_move

        is_scout = beta <= next_up(alpha)  # a null-window (non-PV) search
        static_eval = 0.0
        if is_selective and not in_check and ply > 0:
            static_eval = state.evaluate(state.to_move())
            cut = static_cut(state, depth, alpha, beta, ply, is_scout, static_eval)
            if cut is not None:
                if recorder is not None:
                    recorder.settle(NodeKind.STATIC_CUT)
                return cut

        # SEARCH THE CHILDREN, best first; each by the algorithm's rule (``search_child``);
        # near the horizon hopeless moves are skipped and late quiet moves reduced
        # (selective games, never in check). Inline, not a function: as a call per node it
        # made checkers' search 30% slower (bench: depth-13 PVS from the start, CPU time).
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
        may_prune = prunes_moves and ply > 0 and not in_check
        may_reduce = late_move_reductions and ply > 0 and depth >= LMR_MIN_DEPTH and not in_check
        futile = futility_pruning and depth <= FUTILITY_DEPTH and static_eval + FUTILITY_BASE + FUTILITY_MARGIN * depth <= alpha
        late_move_limit = LATE_MOVE_PRUNING_BASE + depth * depth if futility_pruning and is_scout and depth <= LATE_MOVE_PRUNING_DEPTH else 0
        asks_quiet = may_prune or may_reduce  # only pruning and reductions look at it
        number = 0
        for move in moves:
            number += 1
            if ply == 0:
                tools.report_root_move(move, number)
            is_quiet = asks_quiet and (not captures_known or state.capture_score(move) <= 0)
            if may_prune and best > -WIN_THRESHOLD:
                # PRUNE near the horizon (futility, late move pruning, SEE). Inline, not a
                # function: a call per move made checkers' search 20% slower. A capture is
                # pruned by SEE alone; a quiet move by futility, its number or SEE, each
                # asked only when the cheaper ones did not decide; neither when it gives
                # check (asked of the game without playing the move).
                if not is_quiet:
                    if (
                        see_pruning
                        and depth <= SEE_CAPTURE_PRUNING_DEPTH
                        and not exchange_at_least(move, -SEE_CAPTURE_MARGIN * depth)
                        and not gives_check(move)
                    ):
                        counters.horizon_leaves += 1
                        continue
                elif (
                    futile
                    or 0 < late_move_limit < number
                    or (
                        see_pruning
                        and depth <= SEE_QUIET_PRUNING_DEPTH
                        and not exchange_at_least(move, -SEE_QUIET_MARGIN * depth * depth)
                    )
                ) and not gives_check(move):
                    counters.horizon_leaves += 1  # not worth a search
                    continue
            state.play(move)
            if recorder is not None:
                recorder.next_move = move
            if (
                may_reduce
                and number >= LMR_FIRST_REDUCED_MOVE
                and is_quiet
                and not state.is_in_check()  # the move gives check
                and not (is_killer is not None and is_killer(move, ply))
            ):
                # A shallower null-window look first; only a move that beats alpha there
                # is searched by the algorithm's rule at full depth.
                reduction = late_move_reduction(depth, number, is_scout)
                value = -search(state, depth - 1 - reduction, -next_up(alpha), -alpha, ply + 1)
                if value > alpha:
                    value = search_child(search, state, depth, alpha, beta, ply, number)
            else:
                value = search_child(search, state, depth, alpha, beta, ply, number)
            state.undo()
            if value > best:
                best = value
                best_move = move
                if value > alpha:
                    alpha = value
                    pv_table[ply] = (move, *pv_table[ply + 1])
                    if ply == 0:
                        tools.note_root_best(move, value)
                    if value >= beta:  # cut-off: the opponent will not allow this node
                        note_cutoff(state, move, moves, number, depth, ply)
                        break

        # Never store a root that searched only some moves: its value is not the position's.
        if table is not None and not (ply == 0 and root.is_restricted):
            store(key, depth, alpha_original, beta, ply, best, best_move, counters.horizon_leaves == horizon_before)
        return best

    search: NodeSearch = negamax if recorder is None else recorder.negamax_node(negamax, repeats_within, switches.quiescence, switches.quiescence_checks)
    return search
