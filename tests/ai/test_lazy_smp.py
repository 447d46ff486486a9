"""Lazy SMP helpers (``SearchContext.helper > 0``): other depths, another order, same value.

A helper exists to fill the shared table with work the main search has not done, so it must
search differently -- and still be exact: at a fixed depth, with the selective pruning off,
every helper returns a legal move and exactly the main search's value. Checked from every
open tic-tac-toe position reachable in two plies and from seeded checkers and chess positions.
"""

from __future__ import annotations

import pytest

from games import new_game
from games.base import GameState

from ai.engine import search
from ai.events import Iteration, SearchEvent
from ai.lazy_smp import skips_depth
from ai.settings import Limits, SearchSettings
from ai.tt import Bound
from tests.ai.test_equivalence import SAME_TREE

ALPHA_BETA_FAMILY = ("alphabeta", "pvs", "mtdf")
HELPERS = (1, 2, 3, 7)


def tictactoe_positions() -> list[GameState]:
    """The empty board and every open position two plies into the game."""
    positions = [new_game("tictactoe")]
    for first in positions[0].legal_moves():
        after = positions[0].result(first)
        positions += [after.result(second) for second in after.legal_moves()]
    return [state for state in positions if not state.is_terminal()]


@pytest.mark.parametrize("algorithm", ALPHA_BETA_FAMILY)
def test_a_helper_returns_a_legal_move_and_the_main_search_value(algorithm: str) -> None:
    settings = SearchSettings(algorithm=algorithm, **SAME_TREE)  # type: ignore[arg-type]
    for state in tictactoe_positions():
        main = search(state, settings, Limits(depth=4))
        for helper in HELPERS:
            answer = search(state, settings, Limits(depth=4), helper=helper)
            assert answer.best_move in state.legal_moves(), (state.to_text(), helper)
            assert answer.score.value == main.score.value, (state.to_text(), helper)
            assert answer.depth == 4


@pytest.mark.parametrize(("game", "moves", "depth"), [("checkers", ("11-15", "23-19"), 5), ("chess", ("e4", "e5", "Nf3"), 3)])
def test_helpers_agree_with_the_main_search_on_larger_games(game: str, moves: tuple[str, ...], depth: int) -> None:
    state = new_game(game)
    for text in moves:
        state.play(state.parse_move(text))
    settings = SearchSettings(algorithm="pvs", **SAME_TREE)  # type: ignore[arg-type]
    main = search(state, settings, Limits(depth=depth))
    for helper in (1, 2):
        answer = search(state, settings, Limits(depth=depth), helper=helper)
        assert answer.score.value == main.score.value, helper
        assert answer.best_move in state.legal_moves()


def test_helpers_search_differently_and_reproducibly() -> None:
    """Another order visits another tree; the same helper index visits the same one."""
    state = new_game("chess")
    state.play(state.parse_move("e4"))
    settings = SearchSettings(algorithm="pvs", book=False, **SAME_TREE)  # type: ignore[arg-type]
    counts = {helper: search(state, settings, Limits(depth=4), helper=helper).nodes for helper in (0, 1, 2, 3)}
    assert len(set(counts.values())) == len(counts), counts
    assert search(state, settings, Limits(depth=4), helper=3).nodes == counts[3]


def test_helpers_start_at_staggered_depths_and_end_at_the_limit() -> None:
    state = new_game("checkers")
    depths = {}
    for helper in (0, 1, 2, 3):
        events: list[SearchEvent] = []
        search(state, SearchSettings(algorithm="alphabeta"), Limits(depth=7), helper=helper, on_event=events.append)
        depths[helper] = [event.depth for event in events if isinstance(event, Iteration) and event.bound is Bound.EXACT]
    assert depths[0] == [1, 2, 3, 4, 5, 6, 7]
    assert depths[1] == [2, 4, 6, 7]
    assert depths[2] == [1, 3, 5, 7]
    assert depths[3] == [1, 4, 5, 7]


def test_the_skip_pattern_never_skips_the_main_search_or_the_last_depth() -> None:
    assert not any(skips_depth(0, depth, 20) for depth in range(1, 21))
    assert all(not skips_depth(helper, 9, 9) for helper in range(1, 41))
    assert skips_depth(21, 3, 9) == skips_depth(1, 3, 9)  # the pattern repeats every 20 helpers
