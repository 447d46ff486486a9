"""The order of several best lines: Stockfish's stable sort by score, the leader played.

A selective search (reductions and pruning that depend on the window) can score a later
line above line 1: in the Italian game PVS to depth 4 found O-O +0.00 first, then d3 +0.05
without it. The lines of a depth are sorted by score, ties keeping their search order, and
line 1 after the sort is the answer: its move, score and line.
"""

from __future__ import annotations

import pytest

from ai.engine import search
from ai.events import Iteration, SearchEvent
from ai.settings import Limits, SearchSettings
from games import new_game

ITALIAN = "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"


def test_a_later_line_that_scores_higher_leads_and_is_played() -> None:
    state = new_game("chess", ITALIAN)
    settings = SearchSettings(algorithm="pvs", multipv=3, book=False)
    events: list[SearchEvent] = []
    answer = search(state, settings, Limits(depth=4), on_event=events.append)
    first = search(state, SearchSettings(algorithm="pvs", book=False), Limits(depth=4))
    names = [state.move_name(line.move) for line in answer.lines]
    values = [line.score.value for line in answer.lines]
    assert values == sorted(values, reverse=True), (names, values)
    # The search's own first line (one line alone) scored below a later one, which leads now.
    assert answer.lines[0].score.value > first.score.value and first.best_move in [line.move for line in answer.lines]
    assert (answer.best_move, answer.score, answer.pv) == (answer.lines[0].move, answer.lines[0].score, answer.lines[0].pv)
    # Ties keep the order they were searched in: the one-line answer (searched first) before the other.
    tied = [line for line in answer.lines if line.score.value == first.score.value]
    assert tied and tied[0].move == first.best_move
    for event in events:
        if isinstance(event, Iteration) and event.lines:
            scores = [line.score.value for line in event.lines if line.depth == event.depth]
            assert scores == sorted(scores, reverse=True)
            assert (event.lines[0].score, event.lines[0].pv) == (event.score, event.pv)


@pytest.mark.parametrize("algorithm", ["alphabeta", "pvs", "mtdf"])
def test_the_lines_come_best_first_in_the_default_preset(algorithm: str) -> None:
    for game, position, depth in (("chess", ITALIAN, 4), ("checkers", None, 6), ("othello", None, 5)):
        state = new_game(game, position)
        answer = search(state, SearchSettings(algorithm=algorithm, multipv=3, book=False), Limits(depth=depth))
        values = [line.score.value for line in answer.lines]
        assert values == sorted(values, reverse=True), (game, algorithm, values)
        assert answer.best_move == answer.lines[0].move and answer.score == answer.lines[0].score
