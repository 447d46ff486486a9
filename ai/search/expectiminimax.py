"""Expectiminimax: minimax for games with dice (Michie 1966; AIMA 3rd ed. section 5.5).

AIMA's EXPECTIMINIMAX, with the depth cut-off of section 5.4 (EVAL at the horizon)::

    EXPECTIMINIMAX(s) = UTILITY(s)                                   if TERMINAL-TEST(s)
                        max_a EXPECTIMINIMAX(RESULT(s, a))           if PLAYER(s) = MAX
                        min_a EXPECTIMINIMAX(RESULT(s, a))           if PLAYER(s) = MIN
                        sum_r P(r) EXPECTIMINIMAX(RESULT(s, r))      if PLAYER(s) = CHANCE

written in that MAX/MIN/CHANCE form with every value from the root player's view (see
``ai.search.chance_common`` for the point of view, the depth convention and the scores).
The chance value is the probability-weighted sum of the outcomes' values with the
probabilities exactly as ``chance_outcomes()`` gives them (they sum to 1 by the protocol):
nothing is normalised here, in particular not twice, which was AIMA-python's bug.

No pruning and no enhancements: this is the reference Star1 and Star2 are checked against
(they return exactly this value at the root). On a game without chance nodes it *is* plain
depth-limited minimax.
"""

from __future__ import annotations

from games.base import CHANCE, GameState

from ai.context import SearchContext
from ai.events import Finished
from ai.scores import INFINITY
from ai.search.chance_common import (
    MAX_SEARCH_PLY,
    NO_LINE,
    ChanceTools,
    NodeSearch,
    RootSearch,
)
from ai.iterative import run_chance_search


def build(tools: ChanceTools) -> RootSearch:
    """The expectiminimax search of one run: ``(root, depth) -> value`` (root player's view)."""
    count_node = tools.control.count_node
    root_player = tools.root_player
    pv_table = tools.pv_table
    recorder = tools.recorder
    is_listening = tools.is_listening
    root_is_decision = not tools.root_is_chance
    """Root bookkeeping happens at ply 0 of a decision root only: below a chance root the
    first decision nodes are at ply 0 too (chance layers add no ply)."""

    def expectiminimax(state: GameState, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The value of ``state`` for the root player, ``depth`` decision plies deep (the
        window is unused: every node gets its exact value)."""
        count_node()
        pv_table[ply] = NO_LINE
        if state.is_terminal():
            return tools.terminal_value(state, ply)
        if depth <= 0 or ply >= MAX_SEARCH_PLY:
            return tools.eval_value(state)  # IS-CUTOFF: EVAL
        if ply > tools.seldepth:
            tools.seldepth = ply
        player = state.to_move()

        if player == CHANCE:  # sum_r P(r) * EXPECTIMINIMAX(RESULT(s, r))
            expected = 0.0
            outcomes = tools.chance_outcomes(state, ply)
            for index, (outcome, probability) in enumerate(outcomes):
                if is_listening:
                    tools.report_roll(ply, outcome, index + 1, len(outcomes))
                state.play(outcome)
                if recorder is not None:
                    recorder.outcome(outcome, probability)
                value = search(state, depth, alpha, beta, ply)  # chance consumes no depth
                state.undo()
                if ply == 0:
                    tools.note_root_value(index, outcome, value, is_exact=True)
                expected += probability * value
            pv_table[ply] = NO_LINE  # a line of play stops at the dice
            return expected

        is_max = player == root_player
        best: float = -INFINITY if is_max else INFINITY
        is_root = ply == 0 and root_is_decision
        for index, move in enumerate(tools.root_moves if is_root else state.legal_moves()):
            if is_root and is_listening:
                tools.report_root_move(move, index + 1)
            state.play(move)
            if recorder is not None:
                recorder.next_move = move
            value = search(state, tools.depth_after(state, player, depth), alpha, beta, ply + 1)
            state.undo()
            if (value > best) if is_max else (value < best):  # max_a (MAX) or min_a (MIN)
                best = value
                pv_table[ply] = (move, *pv_table[ply + 1])
            if is_root:
                tools.note_root_value(index, move, value, is_exact=True)
        return best

    search: NodeSearch = expectiminimax if recorder is None else recorder.chance_node(expectiminimax)

    def iteration(root: GameState, depth: int) -> float:
        return search(root, depth, -INFINITY, INFINITY, 0)

    return iteration


def run(state: GameState, context: SearchContext) -> Finished:
    """Iterative deepening over expectiminimax (each iteration the full tree to its depth)."""
    return run_chance_search(state, context, build)
