"""The root's exact solve under a time limit: a solve too long for its share of the move
time (``ai.search.common.ROOT_SOLVE_FRACTION``) gives way to iterative deepening, which
answers with completed iterations instead of a one-ply guess."""

from __future__ import annotations

import random

import pytest

from ai.engine import search
from ai.events import Iteration
from ai.settings import Limits, SearchSettings
from ai.tt import Bound
from games import GameState, new_game
from games.othello.exact import NATIVE


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


# ---------------------------------------------------------------- a node limit
def test_a_root_solve_gives_way_at_half_the_node_limit() -> None:
    """A level's budget is a node limit: a solve that would not fit in half of it is
    dropped, and deepening answers with the rest, never a one-ply guess (depth 0)."""
    state = othello_with_empties(28, seed=4)
    answer = search(state, SearchSettings(algorithm="pvs", solver_empties=28, book=False), Limits(nodes=60_000))
    assert answer.depth >= 2
    assert answer.best_move in state.legal_moves()


def test_the_node_limit_charges_a_cheaper_solvers_nodes_at_their_cost() -> None:
    from ai.control import SearchControl, SearchStopped

    control = SearchControl(Limits(nodes=1_000))
    control.count_nodes(100_000, cost=1 / 120)  # 834 search nodes' worth
    assert (control.nodes, control.charged, control.stopped) == (100_000, 834, False)
    with pytest.raises(SearchStopped):
        control.count_nodes(30_000, cost=1 / 120)
    assert control.charged == 1_084


@pytest.mark.skipif(not NATIVE, reason="the native solver is not built")
def test_level_9_solves_eighteen_empties_within_its_budget() -> None:
    """At 18 empties Othello level 9 (400,000 nodes, solver at 20) answers with the exact
    value: the native solve of millions of its own nodes costs a fraction of the budget
    (``NATIVE_NODES_PER_SEARCH_NODE``); charged one for one, it ran out of the budget."""
    from ai.levels import level_play

    play = level_play("othello", 9)
    for seed in range(3):
        state = othello_with_empties(18, seed=seed)
        answer = search(state, play.settings(), Limits(nodes=play.nodes))
        assert answer.score is not None and answer.score.value % 100 == 0, answer  # a whole number of discs: solved
        assert answer.best_move in state.legal_moves()
