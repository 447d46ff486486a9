"""What happens at the search horizon: EVAL, or a quiescence search of the noisy moves.

A depth-limited search that stops in the middle of an exchange misjudges the position (the
*horizon effect*): it counts the queen just taken and not the recapture. Quiescence search
(Shannon 1950's "quiescent positions"; the stand-pat form of Beal 1990 and every chess
program since) keeps searching the game's ``noisy_moves()`` -- chess captures and
promotions, checkers' pending captures -- until the position is quiet, and lets the side to
move *stand pat*: accept the static evaluation if no noisy move improves on it.

Stand-pat assumes the side to move may decline the noisy moves. In checkers captures are
mandatory: when ``noisy_moves()`` is every legal move, declining is not an option, so there
is no stand-pat and all of them are searched (like any other node). The test is
``len(noisy) == len(legal_moves())`` (noisy moves are a subset of the legal ones), made
only when there are noisy moves at all, and only until the search has seen one position
whose noisy moves are not all its moves: then the game's captures are optional (chess),
and generating every legal move at every quiescence node just to compare is wasted work
(measured in chess middlegames: 12.5k nodes/s with the comparison, 21k without).

Chess refinements, each behind its switch (the game must declare the ability it uses,
``games.capabilities``):

* in check there is no standing pat: every evasion is searched, and a mate is seen as one
  (``check_extensions``: "never stop in check", the main search's rule carried on here);
* at quiescence's first ply the quiet moves that give check are tried too, after the
  captures (``quiescence_checks``; ``QuietChecks.checking_moves()``): a mate or a fork
  one check beyond the horizon;
* captures (and quiet checks) that lose material by static exchange evaluation are not
  searched (``see_pruning``; ``ExchangeEvaluation.exchange_at_least(move, 0)``): a queen taking a
  defended pawn only costs nodes, and the stand-pat already bounds the node from below.

With quiescence off (``SearchSettings.quiescence``, or by default for plain minimax: see
``ai.search.uses_quiescence``) the horizon is plain EVAL (AIMA's IS-CUTOFF/EVAL).
Both leaf functions count the node and begin with the same prologue (``build_settle``): keep
``seldepth``, score a finished game, and use the game's exact solver (Othello, checkers'
databases) as a perfect EVAL when it reaches.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.base import GameState

from ai.scores import INFINITY, solved_score, terminal_score
from ai.search.common import MAX_SEARCH_PLY, NO_LINE, Counters, LeafSearch, SearchTools
from ai.tree.model import NodeKind

Settle = Callable[[GameState, int], "float | None"]
"""A leaf's prologue: ``(state, ply) -> value``, or ``None`` when the leaf must be judged."""


def terminal_leaf(state: GameState, ply: int, counters: Counters) -> float:
    """The value of a terminal ``state`` (``terminal_score``). A draw *by rule* (repetition,
    a move-count rule: the game is over although moves remain by the rules of movement) is
    counted as a horizon leaf: it depends on the path that led here, so a value built on it
    is never stored as the position's exact game value (``SOLVED_DEPTH``), which every later
    search would trust at any depth (in checkers king endgames, draws by repetition stored
    as solved would make later searches see every line as a draw, and the stronger side
    would let the game be repeated away)."""
    value = terminal_score(state, ply)
    if value == 0 and state.perft_moves():
        counters.horizon_leaves += 1
    return value


def build_leaf(tools: SearchTools) -> LeafSearch:
    """The horizon function of this search: quiescence search or static EVAL."""
    if tools.switches.quiescence:
        return build_quiescence(tools)
    return build_static_leaf(tools)


def build_settle(tools: SearchTools) -> Settle:
    """The prologue of every leaf, after the caller counted the node: clear its PV, keep
    ``seldepth``; a finished game has its exact value, and so has a position within the
    solver's reach."""
    poll = tools.solver_poll
    check_now = tools.control.check
    pv_table = tools.pv_table
    counters = tools.counters
    solver_empties = tools.switches.solver_empties
    eval_scale = tools.abilities.eval_scale
    recorder = tools.recorder

    def settle(state: GameState, ply: int) -> float | None:
        pv_table[ply] = NO_LINE
        if ply > counters.seldepth:
            counters.seldepth = ply
        if state.is_terminal():
            return terminal_leaf(state, ply, counters)
        if solver_empties:
            solved = state.solve(state.to_move(), solver_empties, poll)
            if solved is not None:
                check_now()  # a solve takes milliseconds: look at clock and stop flag now
                if recorder is not None:
                    recorder.settle(NodeKind.SOLVER)
                return solved_score(state, solved, ply, eval_scale)
        return None

    return settle


def build_static_leaf(tools: SearchTools) -> LeafSearch:
    """EVAL at the horizon (terminal states scored exactly)."""
    count_node = tools.control.count_node
    settle = build_settle(tools)
    counters = tools.counters

    def static_leaf(state: GameState, alpha: float, beta: float, ply: int) -> float:
        count_node()
        settled = settle(state, ply)
        if settled is not None:
            return settled
        counters.horizon_leaves += 1
        return state.evaluate(state.to_move())

    return static_leaf


def build_quiescence(tools: SearchTools) -> LeafSearch:
    """Fail-soft quiescence search over ``noisy_moves()`` with stand-pat."""
    count_node = tools.control.count_node
    settle = build_settle(tools)
    counters = tools.counters
    switches = tools.switches
    sort_captures = tools.orderer is not None and tools.orderer.use_captures
    evasions = switches.check_extensions
    quiet_checks = switches.quiescence_checks
    see_pruning = switches.see_pruning
    exchange_at_least = tools.abilities.exchange_at_least
    checking_moves = tools.abilities.checking_moves
    recorder = tools.recorder
    noisy_is_optional = False
    """Learned from the positions: set the first time a position has noisy moves besides
    quiet ones. In a game with mandatory captures that never happens; in chess it happens
    at once, and from then on quiescence skips generating all legal moves just to compare
    (measured: 12.5k -> 21k nodes/s in chess middlegames)."""

    def learned_optional() -> None:
        nonlocal noisy_is_optional
        noisy_is_optional = True

    def search_moves(state: GameState, moves: list[Any], best: float, alpha: float, beta: float, ply: int, prune_losing: bool) -> float:
        """The loop every quiescence node ends with: play each move, take the negated
        quiescence value, keep the best (fail-soft, from ``best``: the stand-pat or
        -infinity), raise alpha, stop at beta. ``prune_losing``: skip the moves that lose
        material by static exchange evaluation (the stand-pat is better than them)."""
        for move in moves:
            if prune_losing and not exchange_at_least(move, 0):
                continue
            state.play(move)
            value = -search(state, -beta, -alpha, ply + 1, move)
            state.undo()
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if value >= beta:
                        break
        return best

    def search_evasions(state: GameState, alpha: float, beta: float, ply: int) -> float:
        """In check: no stand-pat; every legal move (there is one: the node is not
        terminal), captures first."""
        moves = state.legal_moves()
        if sort_captures and len(moves) > 1:
            moves.sort(key=state.capture_score, reverse=True)
        return search_moves(state, moves, -INFINITY, alpha, beta, ply, False)

    def quiescence(state: GameState, alpha: float, beta: float, ply: int, move: Any) -> float:
        """Negamax quiescence: stand pat on EVAL unless every move is noisy (mandatory
        captures) or the side to move is in check, then the noisy moves, best captures
        first (and quiet checks at the first ply). ``move`` is the noisy move that led
        here, ``None`` at quiescence's first ply (the main search's horizon node)."""
        count_node()
        counters.qnodes += 1
        settled = settle(state, ply)
        if settled is not None:
            return settled
        if evasions and ply < MAX_SEARCH_PLY and state.is_in_check():
            return search_evasions(state, alpha, beta, ply)
        noisy = state.noisy_moves()
        is_forced = False
        if noisy and not noisy_is_optional:
            every_move_is_noisy = len(noisy) == len(state.legal_moves())
            if not every_move_is_noisy:  # learned only from a real choice, never from the ply cap
                learned_optional()
            is_forced = every_move_is_noisy and ply < MAX_SEARCH_PLY
        if is_forced:
            best: float = -INFINITY  # every move is noisy (mandatory capture): no standing pat
            if sort_captures and len(noisy) > 1:
                noisy.sort(key=state.capture_score, reverse=True)
        else:
            counters.horizon_leaves += 1
            best = state.evaluate(state.to_move())  # stand pat
            if best >= beta or ply >= MAX_SEARCH_PLY:
                return best
            if sort_captures and len(noisy) > 1:
                noisy.sort(key=state.capture_score, reverse=True)
            if move is None and quiet_checks:  # quiescence's first ply
                noisy.extend(checking_moves())
            if not noisy:
                return best
            if best > alpha:
                alpha = best
        return search_moves(state, noisy, best, alpha, beta, ply, see_pruning and not is_forced)

    def quiescence_at_horizon(state: GameState, alpha: float, beta: float, ply: int) -> float:
        """The leaf the main search calls: quiescence's first ply (the main search's node at
        the horizon, recorded as that node)."""
        return quiescence(state, alpha, beta, ply, None)

    search = quiescence if recorder is None else recorder.quiescence_node(quiescence)
    """What quiescence's recursion calls: the node, or the node recorded."""

    return quiescence_at_horizon
