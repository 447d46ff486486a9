"""Backgammon's top levels are different searches where they can be, and say so where they
cannot: level 8 looks at the opponent's answers only when that fits in its budget, levels 9
and 10 search the same two plies (a third would take minutes a move)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ai.engine import run_search
from ai.levels import LEVEL_REMARKS, level_play, request_for_level
from games import new_game


def opening(roll: str) -> str:
    """The start position after X's opening roll ``roll`` (``6-5``), as text."""
    state = new_game("backgammon")
    outcome = next(o for o, _ in state.chance_outcomes() if state.move_name(o) == f"X {roll}")
    state.play(outcome)
    return state.to_text()


def searched(number: int, position: str) -> tuple[int, int]:
    """(depth completed, nodes) of level ``number``'s search of ``position``, its node budget
    alone ending it (no time cap: the machine's load changes nothing)."""
    request = request_for_level(level_play("backgammon", number), position, [])
    finished = run_search(replace(request, limits=replace(request.limits, time=None)), shared={})
    assert finished.error is None
    return finished.depth, finished.nodes


@pytest.mark.parametrize(("roll", "level_8_depth"), [("6-5", 2), ("2-1", 1)])
def test_level_8_looks_two_plies_ahead_only_within_its_budget(roll: str, level_8_depth: int) -> None:
    # 6-5 has 7 plays: two plies cost 949 nodes; 2-1 has 15: about 3,000, past level 8's 2,500.
    position = opening(roll)
    depth, nodes = searched(8, position)
    assert depth == level_8_depth and nodes <= level_play("backgammon", 8).nodes
    assert searched(9, position)[0] == 2  # level 9 always completes its two plies here


def test_levels_9_and_10_are_the_same_two_ply_search_and_say_so() -> None:
    nine, ten = level_play("backgammon", 9), level_play("backgammon", 10)
    assert (nine.algorithm, nine.depth) == (ten.algorithm, ten.depth) == ("star2", 2)
    assert ten.nodes >= nine.nodes
    for number in (9, 10):
        assert "same two-ply search" in LEVEL_REMARKS[("backgammon", number)]
    assert "when that fits in its budget" in LEVEL_REMARKS[("backgammon", 8)]
