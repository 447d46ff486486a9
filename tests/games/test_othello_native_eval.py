"""The native hot paths (``games/othello/_fast.c``) against their pure-Python twins: move
generation and flips on every empty square of positions of every phase; the pattern EVAL
the same float, bit for bit, under a synthetic model (random values in every table entry and
scalar) and the fitted one; and the refusal of malformed tables and bitboards."""

from __future__ import annotations

import random
from array import array
from pathlib import Path

import pytest

from games.othello import OthelloState, evaluation
from games.othello import bitboard
from games.othello.bitboard import HOTPATH_BACKEND
from games.othello.patterns import PATTERNS, canonical_index
from games.weights import read_weights
from tests.native_extensions import require_module

require_module(evaluation.NATIVE_EVAL, "the Othello hot paths", HOTPATH_BACKEND)

WEIGHTS = Path(__file__).resolve().parents[2] / "resources" / "weights"
PATTERNS_FILE = WEIGHTS / "othello.json"  # the shipped default, a pattern model
CLASSIC_FILE = WEIGHTS / "othello_classic.json"


def positions_of_every_phase(count: int, seed: int) -> list[OthelloState]:
    """Positions from seeded random games, every ply of each game (4 to 63 discs)."""
    rng = random.Random(seed)
    positions: list[OthelloState] = []
    while len(positions) < count:
        state = OthelloState.initial()
        while not state.is_terminal():
            positions.append(state.copy())
            state.play(rng.choice(state.legal_moves()))
    return positions[:count]


def synthetic_weights(seed: int) -> dict:
    """Random values for every canonical entry of every pattern and every scalar, with
    fractional scalars so that the float sum's order matters."""
    rng = random.Random(seed)
    bounds = [0, 14, 33, 61]
    weights: dict = {"phase_bounds": bounds}
    for name in evaluation.SCALAR_NAMES:
        weights[name] = [rng.uniform(-300, 300) for _ in bounds[1:]]
    for number, pattern in enumerate(PATTERNS):
        weights[pattern.name] = [
            [value for index in range(pattern.size) if canonical_index(number, index) == index
             for value in (index, rng.randint(-900, 900))]
            for _ in bounds[1:]
        ]
    return weights


def test_native_move_generation_is_the_python_one() -> None:
    for state in positions_of_every_phase(600, seed=10):
        own, opponent = state.own, state.opponent
        moves = bitboard.legal_moves_mask(own, opponent)
        assert moves == bitboard.python_legal_moves_mask(own, opponent), state.to_text()
        assert bitboard.squares_of(moves) == bitboard.python_squares_of(moves)
        empty = ~(own | opponent) & bitboard.FULL
        for square in bitboard.python_squares_of(empty):
            assert bitboard.flips(own, opponent, square) == bitboard.python_flips(own, opponent, square), (
                state.to_text(), square)


@pytest.mark.parametrize(("call", "message"), [
    (lambda: bitboard.legal_moves_mask(-1, 0), "bitboard"),
    (lambda: bitboard.flips(0, 1 << 64, 3), "bitboard"),
    (lambda: bitboard.flips(0, 0, 64), "a square is 0..63"),
    (lambda: bitboard.squares_of(-5), "bitboard"),
])
def test_bad_bitboards_are_refused_in_one_line(call, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.parametrize("model", ["synthetic", "fitted"])
def test_native_evaluation_is_the_python_one_exactly(model: str) -> None:
    weights = synthetic_weights(11) if model == "synthetic" else read_weights(PATTERNS_FILE, "othello")
    OthelloState.set_weights(weights)
    try:
        positions = positions_of_every_phase(400, seed=12)
        assert {64 - (state.own | state.opponent).bit_count() for state in positions} >= set(range(4, 61))
        for state in positions:
            own, opponent, moves = state.own, state.opponent, state.moves_mask()
            native = evaluation.evaluate_to_move(own, opponent, moves)
            assert native == evaluation.pattern_evaluate(own, opponent, moves), state.to_text()
    finally:
        OthelloState.set_weights(None)


@pytest.mark.parametrize("weights", ["classic file", "random"])
def test_native_classic_evaluation_is_the_python_one_exactly(weights: str) -> None:
    """After a pattern model too: set_weights back to classic weights switches C's model."""
    rng = random.Random(16)
    values = (read_weights(CLASSIC_FILE, "othello") if weights == "classic file"
              else {name: rng.uniform(-900, 900) for name in evaluation.FEATURE_NAMES})
    OthelloState.set_weights(read_weights(PATTERNS_FILE, "othello"))
    OthelloState.set_weights(values)
    try:
        vector = evaluation.weight_vector(values)
        if weights == "classic file":
            assert vector == evaluation.DEFAULT_WEIGHT_VECTOR
        for state in positions_of_every_phase(600, seed=14):
            own, opponent, moves = state.own, state.opponent, state.moves_mask()
            python = evaluation.classic_evaluate(own, opponent, moves, vector)
            assert evaluation.evaluate_to_move(own, opponent, moves) == python, state.to_text()
    finally:
        OthelloState.set_weights(None)


def test_names_c_does_not_know_or_misses_are_refused_and_the_model_in_use_stays() -> None:
    """The classic weights, its constants and the pattern scalars cross to C by name: an
    unknown or missing name is a KeyError naming it, and the model in use stays."""
    state = positions_of_every_phase(30, seed=16)[-1]
    before = evaluation.evaluate_to_move(state.own, state.opponent, state.moves_mask())
    weights = dict(zip(evaluation.FEATURE_NAMES, evaluation.DEFAULT_WEIGHT_VECTOR))
    constants = evaluation.native_classic_constants()
    with pytest.raises(KeyError, match="wedges"):
        evaluation.native.set_classic({**weights, "wedges": 1.0}, constants)
    with pytest.raises(KeyError, match="parity"):
        evaluation.native.set_classic({name: value for name, value in weights.items() if name != "parity"}, constants)
    swapped = {"potential_mobility": weights["potential_mobility"], **weights}  # the sum would round otherwise
    with pytest.raises(ValueError, match="'potential_mobility' comes where"):
        evaluation.native.set_classic(swapped, constants)
    with pytest.raises(KeyError, match="EDGES"):
        evaluation.native.set_classic(weights, {name: value for name, value in constants.items() if name != "EDGES"})
    with pytest.raises(KeyError, match="STABLE_DISCS"):
        evaluation.native.set_classic(weights, {**constants, "STABLE_DISCS": 0})
    model = evaluation.current_model()
    assert isinstance(model, evaluation.PatternWeights)
    scalars = {name: [0.0] * model.phase_count for name in (*evaluation.SCALAR_NAMES, "tempo")}
    tables = [[array("i") for _ in PATTERNS] for _ in range(model.phase_count)]
    with pytest.raises(KeyError, match="tempo"):
        evaluation.native.load(model.phase_of_empties(), scalars, [(0, (0,))], [()], tables)
    assert evaluation.evaluate_to_move(state.own, state.opponent, state.moves_mask()) == before


def test_malformed_tables_are_refused_and_the_model_in_use_stays() -> None:
    OthelloState.set_weights(read_weights(PATTERNS_FILE, "othello"))
    try:
        state = positions_of_every_phase(20, seed=15)[-1]
        before = evaluation.evaluate_to_move(state.own, state.opponent, state.moves_mask())
        model = evaluation.current_model()
        assert isinstance(model, evaluation.PatternWeights)
        instances = [(0, (0, 1, 2, 8, 9, 10, 16, 17, 18))]
        scalars = {name: [0.0] * model.phase_count for name in evaluation.SCALAR_NAMES}
        out_of_range = [[array("i", [3 ** 9, 5])] for _ in model.scalars]
        with pytest.raises(ValueError, match="out of its pattern's range"):
            evaluation.native.load(model.phase_of_empties(), scalars, instances, [()], out_of_range)
        with pytest.raises(TypeError):  # a list is not a buffer of C ints
            evaluation.native.load(model.phase_of_empties(), scalars, instances, [()],
                                    [[[0, 5]] for _ in model.scalars])
        with pytest.raises(ValueError, match="a square is 0..63"):
            evaluation.native.load(model.phase_of_empties(), scalars, [(0, (64,))], [()],
                                    [[array("i")] for _ in model.scalars])
        assert evaluation.evaluate_to_move(state.own, state.opponent, state.moves_mask()) == before
    finally:
        OthelloState.set_weights(None)
