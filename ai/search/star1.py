"""Star1: alpha-beta pruning carried through chance nodes (Ballard 1983).

B. W. Ballard, "The *-minimax search procedure for trees containing chance nodes",
*Artificial Intelligence* 21 (1983); pseudocode as restated by T. Hauk, M. Buro and
J. Schaeffer, "Rediscovering *-Minimax Search" (Computers and Games 2004), fig. 2.

Decision nodes are fail-soft alpha-beta, AIMA fig. 5.7's MAX-VALUE and MIN-VALUE, with every
value from the root player's view (the form and the depth convention are explained in
``ai.search.chance_common``). The new part is the chance node. If every value below lies in
``[L, U]`` (the game's ``utility_bounds``), then after outcomes ``1..i-1`` have values
``v_j`` the chance value ``V = sum_j P_j v_j`` is already known to lie between::

    S + P_i v_i + R_i L   and   S + P_i v_i + R_i U,     S = sum_{j<i} P_j v_j,  R_i = sum_{j>i} P_j

so outcome ``i`` only has to be searched with the window::

    A_i = (alpha - S - R_i U) / P_i        B_i = (beta - S - R_i L) / P_i

clamped to ``[L, U]``: a value at or below ``A_i`` proves ``V <= alpha`` (fail low), one at
or above ``B_i`` proves ``V >= beta`` (fail high), and the remaining outcomes are skipped.
For equally likely outcomes this is Hauk et al.'s ``A = N(alpha - U) + U``; here each
outcome keeps its own probability (backgammon: doubles 1/36, other rolls 2/36).

The value at the root is *exactly* expectiminimax's (``tests/ai/test_chance.py`` checks it);
only the work differs. The pruning is as strong as the bounds are tight: with win/loss
scores (+-``WIN_SCORE``) or an unbounded doubling cube it prunes almost nothing.

Floating point: the windows are computed in floats, so a cut-off is taken only when the
bound it returns really lies beyond the window; otherwise the outcome is searched again with
the window opened (this never happens with exact arithmetic).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from games.base import CHANCE, GameState, Player

from ai.context import SearchContext
from ai.events import Finished
from ai.scores import INFINITY
from ai.search.chance_common import (
    MAX_SEARCH_PLY,
    NO_LINE,
    ChanceTools,
    RootSearch,
    report_cutoff,
)
from ai.iterative import run_chance_search

Outcomes = Sequence[tuple[Any, float]]


class Star1Search:
    """The node functions of one Star1 search (Star2 overrides ``chance_value``)."""

    def __init__(self, tools: ChanceTools) -> None:
        self.tools = tools
        self.count_node = tools.control.count_node
        self.root_player = tools.root_player
        self.pv_table = tools.pv_table
        self.recorder = tools.recorder
        self.root_is_decision = not tools.root_is_chance
        self.search: Callable[..., float] = self.value if self.recorder is None else self.recorder.chance_node(self.value)
        """What the recursion calls: ``value``, or ``value`` recorded."""

    def iteration(self, root: GameState, depth: int) -> float:
        """One iteration: the root's value with the full window."""
        return self.search(root, depth, -INFINITY, INFINITY, 0)

    # ------------------------------------------------------------ any node
    def value(
        self,
        state: GameState,
        depth: int,
        alpha: float,
        beta: float,
        ply: int,
        known_first: float | None = None,
    ) -> float:
        """The fail-soft value of ``state`` for the root player with window ``(alpha,
        beta)``. ``known_first``, for a decision node, is the exact value of its first move
        when a Star2 probe has already searched it."""
        self.count_node()
        self.pv_table[ply] = NO_LINE
        if state.is_terminal():
            return self.tools.terminal_value(state, ply)
        if depth <= 0 or ply >= MAX_SEARCH_PLY:
            return self.tools.eval_value(state)
        if ply > self.tools.seldepth:
            self.tools.seldepth = ply
        player = state.to_move()
        if player == CHANCE:
            return self.chance_value(state, depth, alpha, beta, ply)
        if player == self.root_player:
            return self.max_value(state, player, depth, alpha, beta, ply, known_first)
        return self.min_value(state, player, depth, alpha, beta, ply, known_first)

    def child_value(
        self, state: GameState, move: Any, player: Player, depth: int, alpha: float, beta: float, ply: int
    ) -> float:
        """The value after ``player`` plays ``move`` (one ply less, unless the turn goes on)."""
        state.play(move)
        if self.recorder is not None:
            self.recorder.next_move = move
        value = self.search(state, self.tools.depth_after(state, player, depth), alpha, beta, ply + 1)
        state.undo()
        return value

    # ------------------------------------------------------- decision nodes
    def max_value(
        self,
        state: GameState,
        player: Player,
        depth: int,
        alpha: float,
        beta: float,
        ply: int,
        known_first: float | None,
    ) -> float:
        """AIMA fig. 5.7 MAX-VALUE, fail-soft: the best move for the root player."""
        tools = self.tools
        is_root = ply == 0 and self.root_is_decision
        best: float = -INFINITY
        moves = tools.root_moves if is_root else state.legal_moves()
        for index, move in enumerate(moves):
            if is_root:
                tools.report_root_move(move, index + 1)
            if index == 0 and known_first is not None:
                value = known_first
                self.pv_table[ply + 1] = NO_LINE
            else:
                value = self.child_value(state, move, player, depth, alpha, beta, ply)
            if value > best:
                best = value
                self.pv_table[ply] = (move, *self.pv_table[ply + 1])
            if is_root:
                tools.note_root_value(index, move, value, is_exact=alpha < value < beta)
            if best >= beta:
                self._cutoff(index, moves)
                return best
            if best > alpha:
                alpha = best
        return best

    def min_value(
        self,
        state: GameState,
        player: Player,
        depth: int,
        alpha: float,
        beta: float,
        ply: int,
        known_first: float | None,
    ) -> float:
        """AIMA fig. 5.7 MIN-VALUE, fail-soft: the opponent's best reply."""
        best: float = INFINITY
        moves = state.legal_moves()
        for index, move in enumerate(moves):
            if index == 0 and known_first is not None:
                value = known_first
                self.pv_table[ply + 1] = NO_LINE
            else:
                value = self.child_value(state, move, player, depth, alpha, beta, ply)
            if value < best:
                best = value
                self.pv_table[ply] = (move, *self.pv_table[ply + 1])
            if best <= alpha:
                self._cutoff(index, moves)
                return best
            if best < beta:
                beta = best
        return best

    def _cutoff(self, index: int, moves: list[Any]) -> None:
        tools = self.tools
        tools.cutoffs += 1
        if index == 0:
            tools.first_move_cutoffs += 1
        if self.recorder is not None:
            report_cutoff(tools, moves[index], moves[index + 1 :])

    # ---------------------------------------------------------- chance nodes
    def chance_value(self, state: GameState, depth: int, alpha: float, beta: float, ply: int) -> float:
        """Star1: every outcome may lie anywhere in the game's bounds ``[L, U]``."""
        low, high = self.tools.bounds(state)
        outcomes = self.tools.chance_outcomes(state, ply)
        count = len(outcomes)
        return self.chance_pass(
            state, depth, alpha, beta, ply, outcomes, [low] * count, [high] * count, [None] * count
        )

    def chance_pass(
        self,
        state: GameState,
        depth: int,
        alpha: float,
        beta: float,
        ply: int,
        outcomes: Outcomes,
        lows: list[float],
        highs: list[float],
        known_firsts: list[float | None],
    ) -> float:
        """Ballard's Star1 pass over the outcomes, each with its own bounds ``lows[i] <=
        v_i <= highs[i]`` (the game's ``L``/``U`` for Star1, probed bounds for Star2; an
        outcome with ``lows[i] == highs[i]`` is known already and not searched again).

        Returns the fail-soft value: exact inside ``(alpha, beta)``, an upper bound at or
        below ``alpha``, a lower bound at or above ``beta``.
        """
        tools = self.tools
        count = len(outcomes)
        rest_low = [0.0] * count  # rest_low[i] = sum_{j>i} P_j lows[j]
        rest_high = [0.0] * count
        for index in range(count - 2, -1, -1):
            probability = outcomes[index + 1][1]
            rest_low[index] = rest_low[index + 1] + probability * lows[index + 1]
            rest_high[index] = rest_high[index + 1] + probability * highs[index + 1]

        expected = 0.0  # S: the sum of P_j v_j over the outcomes searched so far
        for index, (outcome, probability) in enumerate(outcomes):
            if tools.is_listening:
                tools.report_roll(ply, outcome, index + 1, count)
            low, high = lows[index], highs[index]
            lowest = expected + probability * low + rest_low[index]
            highest = expected + probability * high + rest_high[index]
            if highest <= alpha or lowest >= beta:  # decided before outcome ``index``
                self._chance_cutoff(index, outcomes, ply)
                return highest if highest <= alpha else lowest
            if low == high:  # known exactly (a leaf Star2's probing phase scored)
                value = low
            else:
                child_alpha = max(low, (alpha - expected - rest_high[index]) / probability)
                child_beta = min(high, (beta - expected - rest_low[index]) / probability)
                state.play(outcome)
                if self.recorder is not None:
                    self.recorder.outcome(outcome, probability)
                while True:
                    value = self.search(state, depth, child_alpha, child_beta, ply, known_firsts[index])
                    if value <= child_alpha and child_alpha > low:  # fail low: v_i <= value
                        bound = expected + probability * value + rest_high[index]
                        if bound <= alpha:
                            break
                        child_alpha = low  # not proven after rounding: search again, wider
                        tools.window_researches += 1
                    elif value >= child_beta and child_beta < high:  # fail high: v_i >= value
                        bound = expected + probability * value + rest_low[index]
                        if bound >= beta:
                            break
                        child_beta = high
                        tools.window_researches += 1
                    else:
                        bound = None  # exact
                        break
                state.undo()
                if bound is not None:
                    self._chance_cutoff(index + 1, outcomes, ply)
                    return bound
            if ply == 0 and not self.root_is_decision:
                tools.note_root_value(index, outcome, value, is_exact=True)
            expected += probability * value
        self.pv_table[ply] = NO_LINE  # a line of play stops at the dice
        return expected

    def _chance_cutoff(self, searched: int, outcomes: Outcomes, ply: int) -> None:
        """The chance node was decided after ``searched`` outcomes; the rest are skipped."""
        tools = self.tools
        tools.cutoffs += 1
        tools.chance_cutoffs += 1
        self.pv_table[ply] = NO_LINE
        if self.recorder is not None:
            skipped = [outcome for outcome, _ in outcomes[searched:]]
            report_cutoff(tools, outcomes[searched - 1][0] if searched > 0 else None, skipped)


def build(tools: ChanceTools) -> RootSearch:
    """The Star1 search of one run: ``(root, depth) -> value`` (root player's view)."""
    return Star1Search(tools).iteration


def run(state: GameState, context: SearchContext) -> Finished:
    """Iterative deepening over Star1 (expectiminimax with alpha-beta and chance pruning)."""
    return run_chance_search(state, context, build)
