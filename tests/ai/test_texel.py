"""The Texel fitter recovers known weights from results drawn from its own model."""

from __future__ import annotations

import math
import random

import pytest

np = pytest.importorskip("numpy")

from ai.tuning.texel import SparseRows, fit, fit_scale, loss  # noqa: E402

TRUE_WEIGHTS = [100.0, -40.0, 25.0, 0.0, 60.0]
TRUE_SCALE = 0.01


def synthetic(count: int, seed: int = 1) -> tuple[list[dict[int, float]], list[float]]:
    """Positions with random sparse features and results drawn from sigma(s * q)."""
    rng = random.Random(seed)
    rows, results = [], []
    for _ in range(count):
        row = {index: float(rng.randint(-3, 3)) for index in range(len(TRUE_WEIGHTS)) if rng.random() < 0.7}
        q = sum(TRUE_WEIGHTS[index] * value for index, value in row.items())
        win = 1.0 / (1.0 + math.exp(-TRUE_SCALE * q))
        draw_band = 0.15
        roll = rng.random()
        results.append(1.0 if roll < win - draw_band / 2 else 0.5 if roll < win + draw_band / 2 else 0.0)
        rows.append(row)
    return rows, results


def test_fit_recovers_the_weights_that_made_the_results() -> None:
    rows, results = synthetic(20000)
    start = [100.0, 0.0, 0.0, 0.0, 0.0]  # the first weight fixes the unit, as a pawn does
    result = fit(rows, results, start, scale=TRUE_SCALE, frozen=[0], epochs=600, learning_rate=2.0)
    assert result.weights[0] == 100.0
    assert result.loss_after < result.loss_before
    for fitted, true in zip(result.weights[1:], TRUE_WEIGHTS[1:]):
        assert abs(fitted - true) < 8.0, (result.weights, TRUE_WEIGHTS)


def test_the_scale_is_found_when_not_given() -> None:
    rows, results = synthetic(20000, seed=2)
    data = SparseRows(rows, len(TRUE_WEIGHTS))
    target = np.asarray(results)
    scale = fit_scale(data, target, np.zeros(len(results)), np.asarray(TRUE_WEIGHTS))
    assert 0.7 * TRUE_SCALE < scale < 1.3 * TRUE_SCALE
    best = loss(data, target, np.zeros(len(results)), np.asarray(TRUE_WEIGHTS), scale)
    assert best <= loss(data, target, np.zeros(len(results)), np.asarray(TRUE_WEIGHTS), 2 * scale)


def test_holdout_loss_improves_too_and_dense_rows_equal_sparse_ones() -> None:
    rows, results = synthetic(6000, seed=3)
    dense = [[row.get(index, 0.0) for index in range(len(TRUE_WEIGHTS))] for row in rows]
    start = [100.0, 0.0, 0.0, 0.0, 0.0]
    sparse_fit = fit(rows, results, start, scale=TRUE_SCALE, frozen=[0], epochs=100, holdout=0.2)
    dense_fit = fit(dense, results, start, scale=TRUE_SCALE, frozen=[0], epochs=100, holdout=0.2)
    assert sparse_fit.weights == pytest.approx(dense_fit.weights)
    assert sparse_fit.holdout_after is not None and sparse_fit.holdout_before is not None
    assert sparse_fit.holdout_after < sparse_fit.holdout_before
    assert sparse_fit.positions + round(0.2 * 6000) == pytest.approx(6000, abs=150)


def test_offsets_are_the_fixed_part_of_each_evaluation() -> None:
    rows, results = synthetic(8000, seed=4)
    # Move the first feature's contribution into the offsets: the rest must fit the same.
    offsets = [TRUE_WEIGHTS[0] * row.get(0, 0.0) for row in rows]
    stripped = [{index: value for index, value in row.items() if index != 0} for row in rows]
    with_offsets = fit(stripped, results, [0.0] * 5, offsets=offsets, scale=TRUE_SCALE, frozen=[0], epochs=300, learning_rate=2.0)
    assert with_offsets.weights[1] == pytest.approx(TRUE_WEIGHTS[1], abs=10.0)


@pytest.mark.parametrize(
    ("rows", "results", "initial", "message"),
    [
        ([{0: 1.0}], [0.5, 1.0], [0.0], "positions but"),
        ([{3: 1.0}], [1.0], [0.0], "outside"),
        ([{0: 1.0}], [2.0], [0.0], "results must lie"),
    ],
)
def test_bad_data_is_refused_in_one_line(rows: list, results: list, initial: list, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        fit(rows, results, initial, scale=1.0, epochs=1)


def test_rows_from_compressed_arrays_equal_rows_from_dicts() -> None:
    rows, _results = synthetic(500, seed=4)
    starts, indices, values = [0], [], []
    for row in rows:
        for index, value in row.items():
            indices.append(index)
            values.append(value)  # zeros included: from_arrays drops them as the dict form does
        starts.append(len(indices))
    from_dicts = SparseRows(rows, len(TRUE_WEIGHTS))
    from_arrays = SparseRows.from_arrays(np.array(starts), np.array(indices), np.array(values), len(TRUE_WEIGHTS))
    assert from_arrays.count == from_dicts.count == 500
    weights = np.asarray(TRUE_WEIGHTS)
    assert from_arrays.dot(weights) == pytest.approx(from_dicts.dot(weights))
    assert from_arrays.transpose_dot(np.arange(500.0)) == pytest.approx(from_dicts.transpose_dot(np.arange(500.0)))
    with pytest.raises(ValueError):
        SparseRows.from_arrays(np.array([0, 2]), np.array([0, 9]), np.array([1.0, 1.0]), len(TRUE_WEIGHTS))
    with pytest.raises(ValueError):
        SparseRows.from_arrays(np.array([0, 3]), np.array([0, 1]), np.array([1.0, 1.0]), len(TRUE_WEIGHTS))
