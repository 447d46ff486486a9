"""Perft: count the leaves of the legal-move tree, the standard test of move generators.

Convention (as in chess): ``perft(s, 0) == 1``; a node with no legal move contributes 0 at
any remaining depth. Games whose literature counts differently (Othello counts a finished
game as one leaf at any depth) override ``GameState.perft``-style behaviour in their own
module; every game's ``perft`` method documents the convention it follows.
"""

from __future__ import annotations

from games.base import CHANCE, GameState


def perft(state: GameState, depth: int) -> int:
    """Leaf count of the move tree of ``state`` to ``depth`` plies (make/unmake).

    Chance nodes are expanded over every outcome without using up a ply, so for backgammon
    ``depth`` counts decisions.
    """
    if depth == 0:
        return 1
    if state.to_move() == CHANCE:
        total = 0
        for outcome, _probability in state.chance_outcomes():
            state.play(outcome)
            total += perft(state, depth)
            state.undo()
        return total
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        state.play(move)
        total += perft(state, depth - 1)
        state.undo()
    return total
