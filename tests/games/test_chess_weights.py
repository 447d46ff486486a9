"""Chess EVAL weights as data (resources/weights/chess.json): loading, replacing, and the
linear form the Texel tuner fits."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from games.chess_game import ChessState, evaluation, tables
from games.weights import WeightsError, read_weights

DATA = Path(__file__).resolve().parent.parent / "data" / "chess"
SHIPPED = Path(__file__).resolve().parents[2] / "resources" / "weights" / "chess.json"


@pytest.fixture(autouse=True)
def shipped_weights_after() -> Iterator[None]:
    yield
    ChessState.set_weights(None)


NEW_TERMS = (
    "rook_open_file",
    "rook_semi_open_file",
    "pawn_threats",
    "king_attack",
    "passed_pawn_free",
    "king_passer_distance",
    "minor_threats",
    "rook_threats",
    "hanging_pieces",
    "king_open_files",
)
"""Count terms added after weights_pesto.json was written: at 0 they leave the EVAL as it was."""


def pesto_weights() -> dict:
    """weights_pesto.json, with the terms added since at 0 (the file predates them)."""
    weights = json.loads((DATA / "weights_pesto.json").read_text())["weights"]
    return {**{name: [0, 0] for name in NEW_TERMS}, **weights}


def sample_states(seed: int, count: int) -> list[ChessState]:
    """Positions from random games from the start and from the test suites' positions."""
    rng = random.Random(seed)
    fens = [line.split(" bm ")[0].split(" am ")[0] for line in (DATA / "wac.epd").read_text().splitlines()]
    states = []
    while len(states) < count:
        state = ChessState.from_text(rng.choice(fens)) if rng.random() < 0.5 else ChessState.initial()
        for _ply in range(rng.randint(0, 60)):
            moves = state.legal_moves()
            if not moves:
                break
            state.play(rng.choice(moves))
        states.append(state)
    return states


def test_the_pesto_weights_give_the_evaluations_of_the_code_before_weights_became_data() -> None:
    ChessState.set_weights(pesto_weights())
    recorded = json.loads((DATA / "eval_pesto.json").read_text())["evaluations"]
    assert len(recorded) > 100
    for fen, value in recorded:
        assert ChessState.from_text(fen).evaluate(0) == pytest.approx(value, abs=1e-9), fen


def test_the_shipped_file_is_what_the_tables_hold_at_start() -> None:
    shipped = json.loads(SHIPPED.read_text())
    assert shipped["game"] == "chess"
    assert evaluation.current_weights() == tables.checked_weights(shipped["weights"])


@pytest.mark.parametrize("weights", ["shipped", "perturbed"])
def test_the_weight_vector_times_the_feature_terms_is_the_evaluation(weights: str) -> None:
    if weights == "perturbed":
        rng = random.Random(3)
        vector = [value + rng.randint(-30, 30) for value in evaluation.weight_vector()]
        ChessState.set_weights(evaluation.weights_from_vector(vector))
    vector = evaluation.weight_vector()
    for state in sample_states(seed=7, count=80):
        state = ChessState.from_text(state.to_text())  # an incremental score made with these weights
        linear = sum(coefficient * vector[index] for index, coefficient in evaluation.feature_terms(state.board).items())
        assert state.evaluate(0) == pytest.approx(linear, abs=1e-6), state.to_text()


def test_changed_piece_values_change_the_evaluation_by_the_difference() -> None:
    fen = "4k3/pppp4/8/8/8/8/PPPPP3/4K3 w - - 0 1"  # White a pawn up, no pieces: phase 0 (endgame)
    before = ChessState.from_text(fen).evaluate(0)
    material = pesto_weights()["material"]
    material[0] = [material[0][0], material[0][1] + 40]
    ChessState.set_weights({"material": material})
    assert ChessState.from_text(fen).evaluate(0) == pytest.approx(before + 40)
    ChessState.set_weights(None)
    assert ChessState.from_text(fen).evaluate(0) == before


def test_the_incremental_score_follows_new_weights() -> None:
    rng = random.Random(5)
    vector = [value + rng.randint(-50, 50) for value in evaluation.weight_vector()]
    ChessState.set_weights(evaluation.weights_from_vector(vector))
    state = ChessState.initial()
    for _ply in range(80):
        moves = state.legal_moves()
        if not moves:
            break
        state.play(rng.choice(moves))
        evaluation.clear_caches()
        assert state.evaluate(0) == ChessState.from_text(state.to_text()).evaluate(0), state.to_text()


@pytest.mark.parametrize(
    ("weights", "message"),
    [
        ({"queen_value": [1, 2]}, "unknown chess weight 'queen_value'"),
        ({"material": [[1, 2]]}, "chess weight 'material': expected a list of 5 items"),
        ({"bishop_pair": [25, "50"]}, "chess weight 'bishop_pair': '50' is not a number"),
        ({"bishop_pair": [25, float("nan")]}, "is not a number"),
        ({"bishop_pair": [25, 1e12]}, "is beyond"),
        ({"passed_pawns": 5}, "chess weight 'passed_pawns': expected a list of 8 items"),
    ],
)
def test_bad_weights_are_refused_with_one_line(weights: dict, message: str) -> None:
    before = ChessState.initial().evaluate(0), evaluation.current_weights()
    with pytest.raises(WeightsError, match=message) as caught:
        ChessState.set_weights(weights)
    assert "\n" not in str(caught.value)
    assert (ChessState.initial().evaluate(0), evaluation.current_weights()) == before


def test_weights_round_trip_through_the_vector() -> None:
    weights = evaluation.current_weights()
    assert evaluation.weights_from_vector(evaluation.weight_vector()) == weights
    with pytest.raises(WeightsError, match="832 numbers"):
        evaluation.weights_from_vector([0.0])
    assert len(evaluation.weight_vector()) == evaluation.WEIGHT_COUNT == 832


def test_passed_pawns_score_by_rank() -> None:
    far = ChessState.from_text("4k3/8/1P6/8/8/8/8/4K3 w - - 0 1").evaluation_features(0)["passed_pawns"]
    near = ChessState.from_text("4k3/8/8/8/8/1P6/8/4K3 w - - 0 1").evaluation_features(0)["passed_pawns"]
    endgame = dict(enumerate(tables.PASSED_PAWN_SCORES))
    assert far == (1.0, endgame[5][1]) and near == (1.0, endgame[2][1])  # phase 0: endgame halves
    assert endgame[5][1] > endgame[2][1] > 0


def test_a_state_made_before_the_weights_changed_evaluates_with_the_new_ones() -> None:
    """The engine sets a player's weights just before its search: a match's game state,
    played on under the other player's weights, must not keep their incremental score."""
    rng = random.Random(9)
    state = sample_states(seed=11, count=1)[0]
    vector = [value + rng.randint(-40, 40) for value in evaluation.weight_vector()]
    ChessState.set_weights(evaluation.weights_from_vector(vector))
    fresh = ChessState.from_text(state.to_text())
    assert state.evaluate(0) == fresh.evaluate(0)
    evaluation.clear_caches()
    copy = state.copy()
    assert copy.evaluate(0) == fresh.evaluate(0)
    for move in copy.legal_moves()[:5]:  # the copy's incremental score is right after moves too
        copy.play(move)
        evaluation.clear_caches()
        assert copy.evaluate(0) == ChessState.from_text(copy.to_text()).evaluate(0)
        copy.undo()
    assert [m.uci() for m in copy.board.move_stack] == [m.uci() for m in state.board.move_stack]


def test_the_self_play_fit_kept_in_bench_is_a_valid_weights_file() -> None:
    """tools/chess_tuned.json (resources/weights/README.md) stays loadable, so
    ``--a weights=tools/chess_tuned.json`` keeps working as the weights change shape."""
    path = Path(__file__).resolve().parents[2] / "tools" / "chess_tuned.json"
    weights = read_weights(path, "chess")
    ChessState.set_weights(weights)
    assert tables.EVAL_WEIGHTS["rook_threats"] == (38, 19)
    assert ChessState.initial().evaluate(0) == pytest.approx(0.0)
