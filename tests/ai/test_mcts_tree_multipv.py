"""MCTS's several best lines (MultiPV): the move it plays first, then the root moves by
visits, each with its own mean as the score and its most visited line.

Independent truths: the answer's own root statistics (visits and means per root move, which
the merge of root-parallel trees and the engine panel read), the rules (every line is legal
from the root), and MCTS-Solver's proof for a win in one.
"""

from __future__ import annotations

import pytest

from games import new_game
from games.base import GameState

from ai.engine import search
from ai.events import Finished, Iteration
from ai.settings import Limits, SearchSettings

GAMES = [("tictactoe", None, 20_000), ("othello", None, 20_000), ("chess", None, 6_000), ("checkers", None, 6_000)]


def answer(state: GameState, nodes: int, multipv: int, events: list[object] | None = None) -> Finished:
    return search(
        state,
        SearchSettings(algorithm="mcts", multipv=multipv, book=False, seed=2),
        Limits(nodes=nodes),
        on_event=None if events is None else events.append,
    )


def position(game: str, text: str | None) -> GameState:
    return new_game(game, text) if text else new_game(game)


@pytest.mark.parametrize(("game", "text", "nodes"), GAMES)
def test_lines_are_the_played_move_then_the_most_visited(game: str, text: str | None, nodes: int) -> None:
    state = position(game, text)
    finished = answer(state, nodes, multipv=4)
    lines = finished.lines
    visits = {stat.move: stat.visits for stat in finished.root_moves}
    means = {stat.move: stat.value for stat in finished.root_moves}
    assert [line.rank for line in lines] == list(range(1, len(lines) + 1))
    assert len(lines) == min(4, sum(1 for count in visits.values() if count))
    assert lines[0].move == finished.best_move and lines[0].pv == finished.pv
    rest = [visits[line.move] for line in lines[1:]]
    assert rest == sorted(rest, reverse=True), f"{game}: lines 2.. not by visits: {rest}"
    assert all(visits[line.move] <= visits[lines[0].move] for line in lines[1:]) or finished.score.is_win
    assert len({line.move for line in lines}) == len(lines)
    for line in lines:
        assert line.pv[0] == line.move
        walk = state.copy()
        for move in line.pv:  # every line is legal from the root
            assert move in walk.legal_moves(), f"{game}: {state.line_names(list(line.pv))}"
            walk.play(move)
        assert line.depth == 0
    # Each score is its move's own mean, seen the same way (a monotone map of the mean).
    ordered_by_score = sorted(lines, key=lambda line: line.score.value)
    ordered_by_mean = sorted(lines, key=lambda line: means[line.move])
    assert [means[line.move] for line in ordered_by_score] == [means[line.move] for line in ordered_by_mean]
    assert all(line.score.view == finished.score.view for line in lines)


def test_the_lines_carry_their_visits() -> None:
    finished = answer(new_game("tictactoe"), 20_000, multipv=3)
    visits = {stat.move: stat.visits for stat in finished.root_moves}
    assert [line.visits for line in finished.lines] == [visits[line.move] for line in finished.lines]
    assert all(line.visits > 0 for line in finished.lines)


def test_one_line_by_default_is_the_answer() -> None:
    state = new_game("tictactoe")
    finished = answer(state, 10_000, multipv=1)
    assert len(finished.lines) == 1
    assert (finished.lines[0].move, finished.lines[0].pv) == (finished.best_move, finished.pv)


def test_live_iterations_carry_the_lines() -> None:
    events: list[object] = []
    answer(new_game("othello"), 60_000, multipv=3, events=events)
    iterations = [event for event in events if isinstance(event, Iteration)]
    assert iterations and all(len(event.lines) == 3 for event in iterations)
    assert all(event.lines[0].pv == event.pv for event in iterations)


def test_a_proven_win_is_line_one_with_its_plies() -> None:
    state = new_game("tictactoe", "xx.oo....")
    finished = answer(state, 20_000, multipv=3)
    first = finished.lines[0]
    assert state.move_name(first.move) == "c3"
    assert first.score.win_in_plies == 1
    visited = sum(1 for stat in finished.root_moves if stat.visits)  # the proof ends the search early
    assert len(finished.lines) == min(3, visited)


def test_a_chance_root_has_no_lines() -> None:
    finished = answer(new_game("backgammon"), 3_000, multipv=3)
    assert finished.best_move is None and finished.lines == ()
