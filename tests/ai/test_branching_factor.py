"""The effective branching factor the engine reports: AIMA's b* (3.6.1), which stays a
branching factor when the transposition table answers whole iterations."""

from __future__ import annotations

import math

import pytest

from ai.engine import clear_memory, search
from ai.events import Iteration, SearchEvent
from ai.reporting import effective_branching_factor
from ai.settings import Limits, SearchSettings
from ai.tt import Bound
from games import new_game


@pytest.mark.parametrize(("branching", "depth"), [(2, 5), (3, 4), (10, 3), (35, 6), (1.5, 12)])
def test_a_uniform_tree_gives_back_its_branching(branching: float, depth: int) -> None:
    nodes = sum(branching**level for level in range(1, depth + 1))
    assert effective_branching_factor(round(nodes), depth) == pytest.approx(branching, rel=1e-3)


def test_edge_cases() -> None:
    assert effective_branching_factor(0, 5) == 0.0
    assert effective_branching_factor(100, 0) == 0.0
    assert effective_branching_factor(37, 1) == 37.0  # depth 1: b* = N
    assert effective_branching_factor(3, 3) == pytest.approx(1.0)  # a single line
    assert 0 < effective_branching_factor(2, 10) < 1  # fewer nodes than plies: the table cut the line
    deep = effective_branching_factor(10**9, 200)  # no overflow at a large depth
    assert 1 < deep < 1.2 and math.isfinite(deep)


def test_iterations_answered_by_the_table_read_low_and_the_next_one_stays_sane() -> None:
    """A hint search after the engine's own move finds iterations 3-12 in the table at about
    ten nodes each; the first real one (5,000 nodes at depth 13) read 500 as a ratio of two
    iterations. As b* the free ones read below 1 and the real one as a branching factor."""
    assert effective_branching_factor(10, 12) < 1
    assert 1.5 < effective_branching_factor(5_000, 13) < 2


def test_each_iteration_reports_the_b_star_of_its_own_nodes() -> None:
    clear_memory("checkers")
    events: list[SearchEvent] = []
    search(new_game("checkers"), SearchSettings(threads=1, aspiration=False), Limits(depth=9), on_event=events.append)
    iterations = [event for event in events if isinstance(event, Iteration) and event.bound is Bound.EXACT]
    assert [event.depth for event in iterations] == list(range(1, 10))
    before = 0
    for event in iterations:
        assert event.ebf == pytest.approx(effective_branching_factor(event.nodes - before, event.depth))
        before = event.nodes
    assert all(1 < event.ebf < 7 for event in iterations[1:])  # checkers opens with 7 moves
    clear_memory("checkers")
