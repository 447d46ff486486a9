"""Searching only some root moves (UCI ``searchmoves``, the pool's root split).

One contract over the registry of algorithms: the answer is one of the requested moves, the
``CurrentMove`` reports count and name only those, a search stopped before its first node
still answers with one of them, and the exact algorithms return exactly the best value
among the requested moves (checked against an independent negamax written here).
"""

from __future__ import annotations

import random

import pytest

from games import new_game
from games.base import CHANCE, GameState

from ai.engine import prepare, run_search, search
from ai.events import CurrentMove, SearchEvent
from ai.search import ALGORITHMS
from ai.settings import Limits, SearchRequest, SearchSettings
from tests.ai.test_equivalence import reference_negamax

EXACT_ALGORITHMS = ("minimax", "alphabeta", "pvs", "mtdf", "expectiminimax", "star1", "star2")
SAME_TREE = dict(
    quiescence=False,
    solver_empties=0,
    check_extensions=False,
    null_move=False,
    late_move_reductions=False,
    quiescence_checks=False,
    see_pruning=False,
    futility_pruning=False,
)
TICTACTOE = "x...o...."
"""x in a corner, o in the centre: seven moves, of different values."""


def restricted_value(state: GameState, moves: list[object], depth: int) -> float:
    values = []
    for move in moves:
        state.play(move)
        values.append(-reference_negamax(state, depth - 1, 1))
        state.undo()
    return max(values)


def subsets(state: GameState, seed: int = 1) -> list[list[object]]:
    """A few root-move subsets of ``state``: one move, two, all but the best ones."""
    moves = state.legal_moves()
    rng = random.Random(seed)
    return [[moves[-1]], rng.sample(moves, 2), moves[2:]]


@pytest.mark.parametrize("algorithm", EXACT_ALGORITHMS)
@pytest.mark.parametrize("depth", [1, 2, 4])
def test_the_value_is_the_best_among_the_requested_moves(algorithm: str, depth: int) -> None:
    state = new_game("tictactoe", TICTACTOE)
    for deepening in (False, True):
        settings = SearchSettings(algorithm=algorithm, iterative_deepening=deepening, **SAME_TREE)  # type: ignore[arg-type]
        for moves in subsets(state):
            answer = search(state, settings, Limits(depth=depth), root_moves=moves)
            names = state.line_names(moves)
            assert answer.best_move in moves, (names, answer)
            assert answer.score.value == restricted_value(state, moves, depth), names


PROTOCOL_ALGORITHMS = sorted(name for name, spec in ALGORITHMS.items() if not spec.needs_native)
"""The algorithms that search any game through the protocol (``native`` searches chess
and checkers, each with its own root-move test: ``test_native_search.py``,
``test_checkers_native_search.py``)."""


@pytest.mark.parametrize("algorithm", PROTOCOL_ALGORITHMS)
def test_every_algorithm_answers_and_reports_only_the_requested_moves(algorithm: str) -> None:
    state = new_game("tictactoe", TICTACTOE)
    moves = subsets(state)[1]
    events: list[SearchEvent] = []
    answer = search(state, SearchSettings(algorithm=algorithm), Limits(depth=3), on_event=events.append, root_moves=moves)
    assert answer.best_move in moves
    assert set(answer.pv[:1]) <= set(moves)
    current = [event for event in events if isinstance(event, CurrentMove)]
    if algorithm != "mcts":  # MCTS has no root-move loop to report
        assert current
    assert all(event.move in moves and event.total == len(moves) and event.number <= len(moves) for event in current)
    assert {stat.move for stat in answer.root_moves} <= set(moves)


@pytest.mark.parametrize("algorithm", sorted(ALGORITHMS))
def test_a_search_stopped_at_once_still_answers_a_requested_move(algorithm: str) -> None:
    state = new_game("chess")
    moves = [state.parse_move(text) for text in ("a3", "h4")]
    answer = search(state, SearchSettings(algorithm=algorithm), Limits(nodes=1), root_moves=moves)
    assert answer.stopped
    assert answer.best_move in moves


def othello_endgame(empties: int = 8, seed: int = 3) -> GameState:
    rng = random.Random(seed)
    state = new_game("othello")
    while state.empties() > empties:  # type: ignore[attr-defined]
        state.play(rng.choice(state.legal_moves()))
    return state


@pytest.mark.parametrize("algorithm", ["alphabeta", "pvs", "mtdf"])
def test_the_exact_solver_at_the_root_solves_only_the_requested_moves(algorithm: str) -> None:
    state = othello_endgame()
    whole = search(state, SearchSettings(algorithm=algorithm), Limits(depth=2))
    others = [move for move in state.legal_moves() if move != whole.best_move]
    assert others, "the position needs a choice"
    answer = search(state, SearchSettings(algorithm=algorithm), Limits(depth=2), root_moves=others)
    assert answer.best_move in others
    assert answer.score.value <= whole.score.value
    each = [search(state, SearchSettings(algorithm=algorithm), Limits(depth=2), root_moves=[move]) for move in others]
    assert answer.score.value == max(single.score.value for single in each)


def backgammon_after_roll(seed: int = 5) -> GameState:
    rng = random.Random(seed)
    state = new_game("backgammon")
    for _ in range(12):
        if state.to_move() == CHANCE:
            outcomes = state.chance_outcomes()
            state.play(rng.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0])
        else:
            state.play(rng.choice([move for move in state.legal_moves() if move not in ("double", "drop")]))
    while state.to_move() == CHANCE or len(state.legal_moves()) < 3:
        state.play(state.legal_moves()[0] if state.to_move() != CHANCE else state.chance_outcomes()[0][0])
    return state


@pytest.mark.parametrize("algorithm", ["star1", "star2"])
def test_chance_pruning_keeps_the_restricted_expectiminimax_value(algorithm: str) -> None:
    state = backgammon_after_roll()
    moves = state.legal_moves()[1:3]
    reference = search(state, SearchSettings(algorithm="expectiminimax"), Limits(depth=2), root_moves=moves)
    answer = search(state, SearchSettings(algorithm=algorithm), Limits(depth=2), root_moves=moves)
    assert answer.best_move in moves
    assert answer.score.value == pytest.approx(reference.score.value, abs=1e-9)


@pytest.mark.parametrize("algorithm", ["expectiminimax", "star1", "star2", "mcts"])
def test_at_a_chance_root_the_requested_rolls_give_their_conditional_expectation(algorithm: str) -> None:
    state = new_game("backgammon")
    assert state.to_move() == CHANCE
    outcomes = state.chance_outcomes()
    wanted = [outcome for outcome, _ in outcomes[:4]]
    limits = Limits(depth=1) if algorithm != "mcts" else Limits(nodes=2_000)
    answer = search(state, SearchSettings(algorithm=algorithm), limits, root_moves=wanted)
    assert answer.best_move is None
    assert {stat.move for stat in answer.root_moves} <= set(wanted)
    if algorithm != "mcts":
        whole = search(state, SearchSettings(algorithm=algorithm), limits)
        values = {stat.move: stat.value for stat in whole.root_moves}
        weights = dict(outcomes)
        expected = sum(weights[move] * values[move] for move in wanted) / sum(weights[move] for move in wanted)
        assert answer.score.value == pytest.approx(expected, abs=1e-9)


def test_a_request_names_its_root_moves_in_notation() -> None:
    request = SearchRequest(game="chess", root_moves=("e4", "Nf3", "e4"), limits=Limits(depth=2))
    prepared = prepare(request)
    assert [prepared.state.move_name(move) for move in prepared.root_moves] == ["e4", "Nf3"]
    assert run_search(prepared).best_move in prepared.root_moves


def test_an_illegal_root_move_value_is_refused() -> None:
    state = new_game("tictactoe", TICTACTOE)
    with pytest.raises(ValueError, match="not legal"):
        search(state, SearchSettings(), Limits(depth=1), root_moves=[new_game("tictactoe").parse_move("a3")])
