"""The root's exact solve under a time limit: a solve too long for its share of the move
time (``ai.search.common.ROOT_SOLVE_TIME_FRACTION``) gives way to iterative deepening, which
answers with completed iterations instead of a one-ply guess."""

from __future__ import annotations

import random

from ai.engine import search
from ai.events import Iteration
from ai.settings import Limits, SearchSettings
from ai.tt import Bound
from games import GameState, new_game


def othello_with_empties(empties: int, seed: int) -> GameState:
    rng = random.Random(seed)
    state = new_game("othello")
    while state.empties() > empties:  # type: ignore[attr-defined]
        state.play(rng.choice(state.legal_moves()))
    return state


def test_an_abandoned_root_solve_gives_way_to_deepening() -> None:
    """28 empties take the native solver minutes: after its share of the 0.6 s the solve is
    dropped and the search reports depth-by-depth iterations (a one-ply guess had depth 0)."""
    state = othello_with_empties(28, seed=4)
    before = state.to_text()
    iterations: list[Iteration] = []
    answer = search(state, SearchSettings(algorithm="pvs", solver_empties=28, book=False), Limits(time=0.6),
                    on_event=lambda event: iterations.append(event) if isinstance(event, Iteration) else None)
    assert answer.depth >= 1
    assert max(iteration.depth for iteration in iterations if iteration.bound is Bound.EXACT) == answer.depth
    assert answer.best_move in state.legal_moves()
    assert state.to_text() == before


def test_an_abandoned_solve_of_each_root_move_leaves_the_root_as_it_was() -> None:
    """With the root restricted, each child is solved in turn; abandoning that mid-way must
    undo the move being solved, or deepening would search the wrong position."""
    state = othello_with_empties(28, seed=5)
    allowed = state.legal_moves()[:2]
    answer = search(state, SearchSettings(algorithm="pvs", solver_empties=28, book=False), Limits(time=0.6),
                    root_moves=allowed)
    assert answer.depth >= 1
    assert answer.best_move in allowed
