"""The checkers search's fast paths against their definitions, and the C ones against the Python.

Independent truths: ``bitboards.raw_captures``/``quiet_targets`` (the generator perft is
checked with against the literature) for the moves, in order (the search's move ordering
breaks ties by generation order, so the order is part of the result); ``feature_values``
with the weights summed in ``FEATURE_NAMES`` order (``reference_evaluation``) for EVAL;
``bitboards.has_any_move`` for the terminal test. Then ``games/checkers/_fast.c`` against
the Python functions, float for float to the bit, and a whole search both ways: the same
node count, move and score with ``PLYGROUND_PYTHON_HOTPATHS=1`` as with the C code.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from games.checkers import BLACK, WHITE, CheckersState
from games.checkers import state as checkers_state
from games.checkers.bitboards import MASK_OF_SQUARE, VALID, has_any_move, quiet_targets
from games.checkers.evaluation import (
    FEATURE_NAMES,
    WEIGHT_VALUES,
    evaluate_for_black,
    native_masks,
    reference_evaluation,
    weighted_evaluation,
)
from games.checkers.state import QUIET_MOVES, python_captures, python_quiet_moves
from tests.native_extensions import requires

ROOT = Path(__file__).resolve().parents[2]
native = checkers_state.native


def random_boards(rng: random.Random) -> tuple[int, int, int, int]:
    """A random legal-looking position: 1-12 pieces a side, kings anywhere, men never on
    their crown row, either side to move."""
    squares = list(range(1, 33))
    rng.shuffle(squares)
    black_count, white_count = rng.randint(1, 12), rng.randint(1, 12)
    black = white = kings = 0
    king_share = rng.choice((0.0, 0.2, 0.6))
    for square in squares[:black_count]:
        black |= MASK_OF_SQUARE[square]
        if square >= 29 or rng.random() < king_share:
            kings |= MASK_OF_SQUARE[square]
    for square in squares[black_count : black_count + white_count]:
        white |= MASK_OF_SQUARE[square]
        if square <= 4 or rng.random() < king_share:
            kings |= MASK_OF_SQUARE[square]
    return black, white, kings, rng.choice((BLACK, WHITE))


def positions(count: int, seed: int) -> list[tuple[int, int, int, int]]:
    """Random boards and the positions of seeded random games (every ply)."""
    rng = random.Random(seed)
    found = [random_boards(rng) for _ in range(count // 2)]
    while len(found) < count:
        state = CheckersState.initial()
        while not state.is_terminal() and len(found) < count:
            found.append((state.black, state.white, state.kings, state.player))
            state.play(rng.choice(state.legal_moves()))
    return found


def sides(black: int, white: int, player: int) -> tuple[int, int]:
    return (black, white) if player == BLACK else (white, black)


def reference_quiet_moves(mover: int, kings: int, empty: int, player: int) -> list:
    moves = []
    for direction, destinations in quiet_targets(mover, kings, empty, player):
        while destinations:
            destination = destinations & -destinations
            destinations ^= destination
            moves.append(QUIET_MOVES[direction][destination])
    return moves


def random_weights(rng: random.Random) -> dict[str, float]:
    """Every feature weighted, some at 0, fractional values (so the order of the sum matters)."""
    return {name: rng.choice((0.0, rng.uniform(-150.0, 150.0), float(rng.randint(-60, 140)))) for name in FEATURE_NAMES}


# ------------------------------------------------------------ Python against the definitions
def test_python_moves_are_the_reference_moves_in_order() -> None:
    for black, white, kings, player in positions(3000, seed=1):
        state = CheckersState(black, white, kings, player)
        mover, opponent = sides(black, white, player)
        empty = VALID ^ (black | white)
        captures = state._capture_moves(mover, opponent)
        assert list(python_captures(mover, opponent, kings, player)) == captures, state.to_text()
        assert python_quiet_moves(mover, kings, empty, player) == reference_quiet_moves(mover, kings, empty, player)
        assert state.perft_moves() == (captures or reference_quiet_moves(mover, kings, empty, player)), state.to_text()
        assert state.is_terminal() == (not has_any_move(mover, opponent, kings, player)), state.to_text()


def test_python_evaluation_is_the_weighted_sum_of_the_features() -> None:
    rng = random.Random(2)
    weight_sets = [dict(CheckersState.weights)] + [random_weights(rng) for _ in range(6)]
    for black, white, kings, player in positions(1500, seed=3):
        for weights in weight_sets:
            expected = reference_evaluation(black, white, kings, weights, player)
            assert evaluate_for_black(black, white, kings, weights, player) == expected
            assert weighted_evaluation(black, white, kings, player, WEIGHT_VALUES(weights)) == expected


def test_captures_are_kept_only_until_the_position_changes() -> None:
    state = CheckersState.from_text("B:W18,19:B14,15")  # Black must capture
    noisy = state.noisy_moves()
    assert noisy and noisy == state.legal_moves()
    noisy.clear()  # a caller's list is its own
    assert state.legal_moves() and state.noisy_moves()
    copy = state.copy()
    state.play(state.legal_moves()[0])
    assert state.noisy_moves() != copy.noisy_moves()  # White's captures (if any), not Black's
    state.undo()
    assert state.noisy_moves() == copy.noisy_moves() == copy.legal_moves()


# ------------------------------------------------------------------- C against Python
needs_native = requires(native is not None, "the checkers hot paths", checkers_state.HOTPATH_BACKEND)


@needs_native
def test_state_uses_the_native_paths() -> None:
    assert checkers_state.captures_of is native.captures
    assert checkers_state.quiet_moves_of is native.quiet_moves
    assert checkers_state.evaluation_of is native.evaluate


@needs_native
def test_native_moves_are_the_python_moves_in_order() -> None:
    for black, white, kings, player in positions(4000, seed=4):
        mover, opponent = sides(black, white, player)
        empty = VALID ^ (black | white)
        assert native.captures(mover, opponent, kings, player) == python_captures(mover, opponent, kings, player)
        assert native.quiet_moves(mover, kings, empty, player) == python_quiet_moves(mover, kings, empty, player)
    move = native.captures(*sides(MASK_OF_SQUARE[14], MASK_OF_SQUARE[18], BLACK), 0, BLACK)[0]
    assert type(move) is checkers_state.CheckersMove and move == checkers_state.CheckersMove((14, 23), (18,))


@needs_native
def test_native_evaluation_is_the_python_float_to_the_bit() -> None:
    rng = random.Random(5)
    weight_sets = [dict(CheckersState.weights)] + [random_weights(rng) for _ in range(6)]
    for black, white, kings, player in positions(2000, seed=6):
        for weights in weight_sets:
            values = WEIGHT_VALUES(weights)
            fast = native.evaluate(black, white, kings, player, values)
            assert fast.hex() == weighted_evaluation(black, white, kings, player, values).hex()


@needs_native
def test_native_paths_refuse_bad_input() -> None:
    with pytest.raises(ValueError, match="14 numbers"):
        native.evaluate(0, 0, 0, BLACK, (1.0, 2.0))
    with pytest.raises(TypeError):
        native.evaluate(0, 0, 0, BLACK, ("a",) * 14)
    with pytest.raises(OverflowError):
        native.captures(-1, 0, 0, BLACK)
    with pytest.raises(ValueError, match="player"):
        native.captures(0, 0, 0, 2)
    with pytest.raises(ValueError, match="sizes"):
        native.load(checkers_state.CheckersMove, (1,), (), (), native_masks(), FEATURE_NAMES)


@needs_native
def test_load_refuses_eval_terms_or_masks_that_differ_from_the_c_ones() -> None:
    """The weights cross to C as a tuple in FEATURE_NAMES order, so load takes the names and
    refuses any list but C's own (reordered, one more, one fewer); the masks cross by name,
    and an unknown or missing one is refused. The state in use stays."""
    args = load_arguments()
    position = positions(1, seed=8)[0]
    before = native.evaluate(*position, WEIGHT_VALUES(CheckersState.weights))
    swapped = (FEATURE_NAMES[1], FEATURE_NAMES[0], *FEATURE_NAMES[2:])
    for names, message in ((swapped, "position 0"), ((*FEATURE_NAMES, "tempo"), "'tempo'"), (FEATURE_NAMES[:-1], "'simplify'")):
        with pytest.raises(ValueError, match=message):
            native.load(*args, native_masks(), names)
    with pytest.raises(KeyError, match="BRIDGE"):
        native.load(*args, {**native_masks(), "BRIDGE": 1}, FEATURE_NAMES)
    masks = native_masks()
    del masks["EDGE"]
    with pytest.raises(KeyError, match="EDGE"):
        native.load(*args, masks, FEATURE_NAMES)
    assert native.evaluate(*position, WEIGHT_VALUES(CheckersState.weights)) == before


def load_arguments() -> tuple[object, ...]:
    """What games.checkers.state hands native.load before the masks and names."""
    directions = (checkers_state.DOWN_LEFT, checkers_state.DOWN_RIGHT, checkers_state.UP_LEFT, checkers_state.UP_RIGHT)
    return (
        checkers_state.CheckersMove,
        checkers_state.SQUARE_OF_BIT,
        tuple(tuple(QUIET_MOVES[direction].get(1 << bit) for bit in range(len(checkers_state.SQUARE_OF_BIT)))
              for direction in directions),
        directions,
    )


SEARCH_SCRIPT = """
import json, sys
from ai.engine import search
from ai.settings import Limits, SearchSettings
from games.checkers import CheckersState
from games.checkers import state
answers = []
for text, depth in json.loads(sys.argv[1]):
    finished = search(CheckersState.from_text(text), SearchSettings(), Limits(depth=depth))
    answers.append([finished.nodes, finished.best_move and list(map(list, finished.best_move)), finished.score.value])
print(json.dumps([state.native is not None, answers]))
"""
SEARCHES = [
    ["B:W19,21,22,23,28,30,31,32:B1,3,4,6,9,11,12,14", 7],
    ["B:W14,17,19,29,30,31,32:B1,4,6,10,11,12,21", 8],
    ["B:WK10,13,K17,K23,32:B5,12,K22,K29,K31", 6],
]


def searched(python_only: bool) -> list:
    environment = dict(os.environ, PLYGROUND_PYTHON_HOTPATHS="1" if python_only else "0")
    output = subprocess.run([sys.executable, "-c", SEARCH_SCRIPT, json.dumps(SEARCHES)], cwd=ROOT, env=environment,
                            capture_output=True, text=True, check=True).stdout
    is_native, answers = json.loads(output)
    built = importlib.util.find_spec("games.checkers._fast") is not None  # not this process's choice:
    assert is_native == (not python_only and built)  # the suite itself may run with the switch set
    return answers


def test_a_search_is_the_same_with_and_without_the_native_paths() -> None:
    """Node counts at a fixed depth are the search tree itself: equal counts, moves and
    scores mean the C code changed nothing but the speed."""
    assert searched(python_only=False) == searched(python_only=True)
