"""Othello pattern EVAL and opening book: the fast gathers against square-by-square readings,
symmetry of the evaluation, the weights format, and book lookups in every orientation."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from games.othello import OthelloState
from games.othello import evaluation
from games.othello.bitboard import FILES, legal_moves_mask
from games.othello.book import BOOK_MARGIN, book_entries, book_moves, canonical, shipped_book
from games.othello.patterns import (
    IMAGE_NAMES,
    PATTERNS,
    canonical_index,
    images,
    instance_squares,
    pattern_indices,
)
from games.weights import WeightsError, read_weights

WEIGHTS = Path(__file__).resolve().parents[2] / "resources" / "weights"
CLASSIC_FILE = WEIGHTS / "othello_classic.json"
PATTERNS_FILE = WEIGHTS / "othello.json"  # the shipped default: a pattern model


def random_positions(count: int, seed: int) -> list[OthelloState]:
    """Positions from seeded random games, every phase of the game."""
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        state = OthelloState.initial()
        while not state.is_terminal():
            state.play(rng.choice(state.legal_moves()))
            if not state.is_terminal() and state.moves_mask():
                positions.append(state.copy())
    return positions[:count]


def transform_square(name: str, square: int) -> int:
    """Where ``square`` goes under the symmetry ``name`` (composed from its letters, applied
    right to left as written: ``th`` is T after H), by coordinates."""
    file, rank = square % 8, square // 8
    for step in reversed(name if name != "id" else ""):
        if step == "h":
            file = 7 - file
        elif step == "v":
            rank = 7 - rank
        else:
            file, rank = rank, file
    return rank * 8 + file


def slow_image(board: int, name: str) -> int:
    return sum(1 << transform_square(name, square) for square in range(64) if board >> square & 1)


def slow_index(own: int, opponent: int, squares: tuple[int, ...]) -> int:
    return sum((1 if own >> square & 1 else 2 if opponent >> square & 1 else 0) * 3 ** digit
               for digit, square in enumerate(squares))


@pytest.fixture
def synthetic_model():
    """A model with random values in every table and scalar (independent of any fit)."""
    rng = random.Random(7)
    bounds = [0, 20, 40, 61]
    weights: dict = {"phase_bounds": bounds}
    for name in evaluation.SCALAR_NAMES:
        weights[name] = [rng.randint(-300, 300) for _ in bounds[1:]]
    for pattern in PATTERNS:
        weights[pattern.name] = [
            [value for index in range(pattern.size) if canonical_index(PATTERNS.index(pattern), index) == index
             for value in (index, rng.randint(-500, 500))]
            for _ in bounds[1:]
        ]
    OthelloState.set_weights(weights)
    yield weights
    OthelloState.set_weights(None)


def test_images_are_the_eight_symmetries() -> None:
    rng = random.Random(1)
    for _ in range(50):
        board = rng.getrandbits(64)
        assert list(images(board)) == [slow_image(board, name) for name in IMAGE_NAMES]
    assert len({slow_image(1 << 1, name) for name in IMAGE_NAMES}) == 8  # b1 lands on 8 squares


def test_every_instance_reads_its_squares_in_digit_order() -> None:
    counts = 0
    for pattern in PATTERNS:
        instances = {frozenset(instance_squares(pattern, name)) for name in pattern.image_names}
        assert len(instances) == len(pattern.image_names), pattern.name
        counts += len(instances)
    assert counts == 46  # Edax's pattern set
    for state in random_positions(40, seed=2):
        indices = pattern_indices(state.own, state.opponent)
        for pattern, row in zip(PATTERNS, indices, strict=True):
            expected = [slow_index(state.own, state.opponent, instance_squares(pattern, name))
                        for name in pattern.image_names]
            assert row == expected, (pattern.name, state.to_text())


def test_named_instances_are_where_the_textbook_puts_them() -> None:
    def squares(*names: str) -> set[int]:
        return {FILES.index(name[0]) + 8 * (int(name[1]) - 1) for name in names}

    corner = {name: set(instance_squares(PATTERNS[0], name)) for name in PATTERNS[0].image_names}
    assert corner["h"] == squares("f1", "g1", "h1", "f2", "g2", "h2", "f3", "g3", "h3")
    assert corner["hv"] == squares("f8", "g8", "h8", "f7", "g7", "h7", "f6", "g6", "h6")
    edges = [set(instance_squares(PATTERNS[2], name)) for name in PATTERNS[2].image_names]
    assert squares("a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "b2", "b7") in edges
    assert squares("h1", "h2", "h3", "h4", "h5", "h6", "h7", "h8", "g2", "g7") in edges


def test_fast_evaluation_is_the_sum_of_the_reference_readings(synthetic_model) -> None:
    for state in random_positions(150, seed=3):
        fast = evaluation.pattern_evaluate(state.own, state.opponent, state.moves_mask())
        features = evaluation.pattern_features(state.own, state.opponent, state.moves_mask())
        assert fast == pytest.approx(sum(weight * value for weight, value in features.values())), state.to_text()
        assert state.evaluate(state.to_move()) == pytest.approx(max(-6400, min(6400, fast)))


@pytest.fixture
def fitted_model():
    """The fitted pattern model of ``resources/weights/othello.json`` (the shipped default),
    set explicitly."""
    OthelloState.set_weights(read_weights(PATTERNS_FILE, "othello"))
    yield
    OthelloState.set_weights(None)


@pytest.mark.parametrize("model", ["synthetic_model", "fitted_model"])
def test_evaluation_is_the_same_on_all_symmetric_positions(model: str, request) -> None:
    request.getfixturevalue(model)
    for state in random_positions(60, seed=4):
        values = set()
        for name in IMAGE_NAMES:
            own, opponent = slow_image(state.own, name), slow_image(state.opponent, name)
            values.add(evaluation.evaluate_to_move(own, opponent, legal_moves_mask(own, opponent)))
        assert len(values) == 1, state.to_text()


def test_classic_weights_file_is_the_classic_evaluation(fitted_model) -> None:
    OthelloState.set_weights(read_weights(CLASSIC_FILE, "othello"))
    try:
        for state in random_positions(20, seed=5):
            features = state.evaluation_features(state.to_move())
            assert tuple(features) == evaluation.FEATURE_NAMES
            assert state.evaluate(state.to_move()) == pytest.approx(evaluation.classic_evaluate(
                state.own, state.opponent, state.moves_mask(), evaluation.DEFAULT_WEIGHT_VECTOR))
    finally:
        OthelloState.set_weights(None)


def test_shipped_weights_are_the_fitted_pattern_model() -> None:
    """set_weights(None) (and import) gives the pattern model of othello.json, value for value."""
    OthelloState.set_weights(read_weights(CLASSIC_FILE, "othello"))
    OthelloState.set_weights(None)
    assert isinstance(evaluation.current_model(), evaluation.PatternWeights)
    positions = random_positions(40, seed=6)
    shipped = [state.evaluate(state.to_move()) for state in positions]
    OthelloState.set_weights(read_weights(PATTERNS_FILE, "othello"))
    try:
        assert [state.evaluate(state.to_move()) for state in positions] == shipped
        assert tuple(positions[0].evaluation_features(positions[0].to_move()))[:1] != evaluation.FEATURE_NAMES[:1]
    finally:
        OthelloState.set_weights(None)


@pytest.mark.parametrize("change, message", [
    (lambda w: w.pop("corner3x3"), "missing corner3x3"),
    (lambda w: w.update(extra=[1]), "unknown extra"),
    (lambda w: w.update(bias=[0]), "bias has 1 phases"),
    (lambda w: w.update(phase_bounds=[10, 5]), "phase_bounds"),
    (lambda w: w["edge_x"].__setitem__(0, [59049, 3]), "0 <= index < 59049"),
    (lambda w: w["row2"].__setitem__(0, [1, 2, 3]), "[index, value, ...]"),
])
def test_bad_pattern_weights_are_refused_in_one_line(synthetic_model, change, message: str) -> None:
    weights = json.loads(json.dumps(synthetic_model))
    change(weights)
    with pytest.raises(WeightsError, match=message.replace("[", r"\[").replace("]", r"\]")) as error:
        OthelloState.set_weights(weights)
    assert "\n" not in str(error.value)
    assert OthelloState.initial().evaluate(0) == OthelloState.initial().evaluate(0)  # still usable


def test_classic_weights_with_a_missing_feature_are_refused() -> None:
    with pytest.raises(WeightsError, match="missing"):
        OthelloState.set_weights({"mobility": 1.0})


# ------------------------------------------------------------------------------- book
def test_books_switch_is_the_engines_not_the_books(monkeypatch: pytest.MonkeyPatch) -> None:
    """PLYGROUND_BOOKS=off (the suite's setting, tests/conftest.py) keeps the engine from
    answering from the book; the book itself still lists its moves."""
    from ai.engine import search
    from ai.settings import Limits, SearchSettings

    monkeypatch.setenv("PLYGROUND_BOOKS", "off")
    assert len(OthelloState.initial().book_moves()) == 4
    searched = search(OthelloState.initial(), SearchSettings(), Limits(depth=2))
    assert not searched.book and searched.depth == 2
    monkeypatch.setenv("PLYGROUND_BOOKS", "on")
    assert search(OthelloState.initial(), SearchSettings(), Limits(depth=2)).book


def test_book_reads_every_orientation_alike(books_on: None) -> None:
    book = shipped_book()
    assert len(book) >= 1000
    rng = random.Random(6)
    for key in rng.sample(sorted(book), 60):
        base = book_entries(*key)
        for name in IMAGE_NAMES:
            own, opponent = slow_image(key[0], name), slow_image(key[1], name)
            assert canonical(own, opponent)[0] == key
            entries = book_entries(own, opponent)
            assert sorted(entries) == sorted((transform_square(name, square), value) for square, value in base)
            legal = legal_moves_mask(own, opponent)
            assert all(legal >> square & 1 for square, _ in entries), (name, key)


def test_start_position_book_offers_the_four_symmetric_first_moves(books_on: None) -> None:
    state = OthelloState.initial()
    moves = {state.move_name(move) for move, _ in state.book_moves()}
    assert moves == {"c4", "d3", "e6", "f5"}


def test_book_moves_are_within_the_margin_of_the_best(books_on: None) -> None:
    state = OthelloState.initial()
    for text in ("f5", "d6", "c3"):
        state.play(state.parse_move(text))
        entries = book_entries(state.own, state.opponent)
        chosen = {move for move, _ in state.book_moves()}
        best = max(value for _, value in entries)
        assert chosen == {square for square, value in entries if value >= best - BOOK_MARGIN}
    assert book_moves(0x1, 0x2, {}) == []


def test_engine_plays_from_the_book_and_says_so(books_on: None) -> None:
    from ai.engine import run_search
    from ai.settings import Limits, SearchRequest, SearchSettings

    finished = run_search(SearchRequest(game="othello", moves=("f5", "d6"), limits=Limits(depth=3)))
    assert finished.book and finished.depth == 0
    state = OthelloState.initial()
    for text in ("f5", "d6"):
        state.play(state.parse_move(text))
    assert finished.best_move in {move for move, _ in state.book_moves()}
    searched = run_search(SearchRequest(game="othello", moves=("f5", "d6"),
                                         settings=SearchSettings(book=False), limits=Limits(depth=3)))
    assert not searched.book and searched.depth == 3
