"""How a time limit is spent: a fixed time a move to its end, a clock's share only while a
new iteration is likely to finish (``ai.iterative.soft_deadline``)."""

from __future__ import annotations

import time

import pytest

from ai.control import FIRST_CHECK_INTERVAL
from ai.engine import run_search, search
from ai.events import Finished
from ai.iterative import SOFT_TIME_FRACTION, soft_deadline
from ai.settings import Limits, SearchRequest, SearchSettings
from games import get_game, new_game


def test_a_fixed_time_has_no_soft_deadline_where_a_cut_iteration_counts() -> None:
    assert soft_deadline(Limits(time=1.0), 0.2, trusts_partial_iteration=True) is None
    assert soft_deadline(Limits(depth=5), 0.2, trusts_partial_iteration=False) is None


def test_a_clock_share_or_a_search_that_keeps_only_whole_iterations_stops_starting_them() -> None:
    expected = 0.2 + SOFT_TIME_FRACTION * 0.8
    assert soft_deadline(Limits(time=1.0, from_clock=True), 0.2, trusts_partial_iteration=True) == pytest.approx(expected)
    assert soft_deadline(Limits(time=1.0), 0.2, trusts_partial_iteration=False) == pytest.approx(expected)


@pytest.mark.parametrize(
    "game, settings, trusts",
    [
        ("chess", SearchSettings(), True),
        ("chess", SearchSettings(move_ordering=False), False),  # the old best is not searched first
        ("backgammon", SearchSettings(algorithm="star2"), False),  # only whole iterations answer
    ],
)
def test_which_searches_trust_a_cut_iteration(game: str, settings: SearchSettings, trusts: bool) -> None:
    from ai.context import SearchContext
    from ai.control import SearchControl
    from ai.search.chance_common import ChanceTools
    from ai.search.common import SearchTools

    state = new_game(game)
    if state.to_move() not in (0, 1):
        state.play(state.chance_outcomes()[1][0])
    context = SearchContext(settings=settings, control=SearchControl(Limits(time=1.0)))
    tools = ChanceTools(state, context) if get_game(game).HAS_CHANCE else SearchTools(state, context)
    assert tools.trusts_partial_iteration is trusts


def test_a_forced_move_is_answered_at_once_whatever_the_time() -> None:
    """With one legal move the first iteration answers (a fixed time is not waited out)."""
    forced = get_game("chess").from_text("7k/8/8/8/8/8/P5q1/7K w - - 0 1")  # in check: only Kxg2
    moves = forced.legal_moves()
    assert len(moves) == 1
    finished: Finished = search(forced, SearchSettings(), Limits(time=30.0))
    assert finished.depth == 1 and finished.time < 5


@pytest.mark.parametrize(
    ("game", "algorithm"),
    [("chess", "pvs"), ("checkers", "alphabeta"), ("othello", "mtdf"), ("tictactoe", "minimax"), ("backgammon", "star2")],
)
def test_a_timed_search_whose_time_went_before_its_first_node_still_searches_depth_1(game: str, algorithm: str) -> None:
    """A pool's worker may get its request after the time it was given has passed (workers
    still starting, a loaded machine): the answer is still a searched move (depth 1), never
    one chosen with no search. A stop request still answers at once."""
    state = new_game(game)
    if game == "backgammon":
        state.play(state.chance_outcomes()[0][0])
    request = SearchRequest(game=game, settings=SearchSettings(algorithm=algorithm, book=False), limits=Limits(time=0.1), position=state.to_text())
    finished = run_search(request, started=time.perf_counter() - 5.0)
    assert finished.depth >= 1 and finished.nodes > 0, finished
    assert finished.best_move in state.legal_moves()
    stopped = run_search(request, should_stop=lambda: True, started=time.perf_counter() - 5.0)
    assert stopped.stopped and stopped.nodes <= FIRST_CHECK_INTERVAL + 1, stopped
