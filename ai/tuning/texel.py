"""Texel tuning: fit a linear evaluation's weights to game results by logistic regression.

Samuel tuned his checkers evaluation from play; Peter Österlund's "Texel" method (2014) is
the form every chess programmer now uses. Take many positions from real games, each with
the game's result ``r`` (1 win, 0.5 draw, 0 loss, from one fixed point of view). The
evaluation is linear, ``q = offset + Σ wᵢ·fᵢ``, and a logistic curve turns it into an
expected result, ``σ(s·q) = 1 / (1 + e^(−s·q))``. The weights that minimise the mean squared
error ``E = mean((r − σ(s·q))²)`` are the ones whose evaluations best predict results.

The scale ``s`` (Texel's ``K·ln 10 / 400``) is fitted first with the initial weights held
fixed, so that the weights then only have to improve the ranking of positions, not the
units; afterwards the weights are fitted by Adam on full-batch gradients, optionally with
an L2 pull towards the initial weights (sparse pattern features, seen in few positions,
then stay near their start instead of running off).

The features are stored sparse (one row per position: the non-zero feature indices and
their values), which is what pattern evaluations (Othello) and piece-square tables (chess)
look like; numpy is a development dependency only (the ``tune`` extra): the app never runs
this, it reads the weights files the tuners write.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

try:
    import numpy as np
except ImportError as error:  # pragma: no cover - the message is the point
    raise ImportError("Texel tuning needs numpy, a development extra: .venv/bin/pip install -e '.[tune]'") from error

Row = Mapping[int, float] | Sequence[float]
"""One position's features: ``{index: value}`` (sparse) or a full list (dense)."""


class SparseRows:
    """Feature rows in compressed form: ``indices``/``values`` of the non-zero entries, and
    ``rows`` saying which position each belongs to."""

    def __init__(self, rows: Iterable[Row], feature_count: int) -> None:
        row_ids: list[int] = []
        indices: list[int] = []
        values: list[float] = []
        count = 0
        for count, row in enumerate(rows, start=1):
            items = row.items() if isinstance(row, Mapping) else enumerate(row)
            for index, value in items:
                if value:
                    if not 0 <= index < feature_count:
                        raise ValueError(f"position {count}: feature index {index} outside 0..{feature_count - 1}")
                    row_ids.append(count - 1)
                    indices.append(index)
                    values.append(float(value))
        self.count = count
        self.feature_count = feature_count
        self.rows = np.asarray(row_ids, dtype=np.int64)
        self.indices = np.asarray(indices, dtype=np.int64)
        self.values = np.asarray(values, dtype=np.float64)

    @classmethod
    def from_arrays(cls, row_starts: np.ndarray, indices: np.ndarray, values: np.ndarray, feature_count: int) -> SparseRows:
        """Rows stored as compressed arrays (row ``i``'s entries are ``row_starts[i]`` up to
        ``row_starts[i + 1]``), as a tuner's positions file keeps them: built without a
        Python object per entry, which a million positions could not afford."""
        starts = np.asarray(row_starts, dtype=np.int64)
        if starts.ndim != 1 or len(starts) == 0 or starts[0] != 0 or np.any(np.diff(starts) < 0):
            raise ValueError("row_starts must rise from 0")
        if starts[-1] != len(indices) or len(indices) != len(values):
            raise ValueError(f"{len(indices)} indices and {len(values)} values for rows ending at {starts[-1]}")
        index_array = np.asarray(indices, dtype=np.int64)
        if len(index_array) and (index_array.min() < 0 or index_array.max() >= feature_count):
            raise ValueError(f"a feature index lies outside 0..{feature_count - 1}")
        value_array = np.asarray(values, dtype=np.float64)
        rows = np.repeat(np.arange(len(starts) - 1, dtype=np.int64), np.diff(starts))
        nonzero = value_array != 0
        part = cls((), feature_count)
        part.count = len(starts) - 1
        part.rows, part.indices, part.values = rows[nonzero], index_array[nonzero], value_array[nonzero]
        return part

    def dot(self, weights: np.ndarray) -> np.ndarray:
        """``X · w``: each position's feature sum."""
        return np.bincount(self.rows, weights=self.values * weights[self.indices], minlength=self.count)

    def transpose_dot(self, per_row: np.ndarray) -> np.ndarray:
        """``Xᵀ · g``: each feature's sum over positions of ``g`` times its value."""
        return np.bincount(self.indices, weights=self.values * per_row[self.rows], minlength=self.feature_count)

    def subset(self, chosen: np.ndarray) -> SparseRows:
        """The rows whose positions ``chosen`` (a boolean mask) marks, renumbered."""
        keep = chosen[self.rows]
        new_ids = np.cumsum(chosen) - 1
        part = SparseRows((), self.feature_count)
        part.count = int(chosen.sum())
        part.rows = new_ids[self.rows[keep]]
        part.indices = self.indices[keep]
        part.values = self.values[keep]
        return part


@dataclass(frozen=True)
class FitResult:
    """What a fit found, and how much it helped (losses are mean squared errors)."""

    weights: list[float]
    scale: float
    loss_before: float
    loss_after: float
    positions: int
    epochs: int
    holdout_before: float | None = None
    holdout_after: float | None = None


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(x, -500.0, 500.0)))


def loss(data: SparseRows, results: np.ndarray, offsets: np.ndarray, weights: np.ndarray, scale: float) -> float:
    """Mean squared error of the predicted results."""
    predicted = sigmoid(scale * (offsets + data.dot(weights)))
    return float(np.mean((results - predicted) ** 2))


def fit_scale(data: SparseRows, results: np.ndarray, offsets: np.ndarray, weights: np.ndarray) -> float:
    """The ``s`` minimising the loss for fixed weights: golden-section search on log s over
    a range wide enough for any unit (a pawn, a hundredth of a disc, a point of equity)."""
    low, high = math.log(1e-6), math.log(10.0)
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(80):
        first = high - ratio * (high - low)
        second = low + ratio * (high - low)
        if loss(data, results, offsets, weights, math.exp(first)) < loss(data, results, offsets, weights, math.exp(second)):
            high = second
        else:
            low = first
    return math.exp((low + high) / 2)


def fit(
    features: Iterable[Row] | SparseRows,
    results: Sequence[float],
    initial: Sequence[float],
    *,
    offsets: Sequence[float] | None = None,
    scale: float | None = None,
    frozen: Collection[int] = (),
    epochs: int = 400,
    learning_rate: float = 1.0,
    l2: float = 0.0,
    holdout: float = 0.0,
    seed: int = 0,
    report: Any = None,
) -> FitResult:
    """Weights fitted to ``results`` (see the module's docstring).

    ``features[i]`` and ``results[i]`` describe position ``i`` from the same point of view;
    ``offsets[i]`` is the part of its evaluation no weight here changes (default 0).
    ``frozen`` lists weight indices to keep as they are (e.g. a pawn's value, which fixes
    the unit). ``learning_rate`` is Adam's step in evaluation units; ``l2`` pulls each weight
    towards its initial value. ``holdout`` (0..0.5) keeps that fraction of the positions out
    of the fit to report an honest loss. ``report(epoch, loss)`` is called now and then.
    """
    start = np.asarray(initial, dtype=np.float64)
    data = features if isinstance(features, SparseRows) else SparseRows(features, len(start))
    if data.feature_count != len(start):
        raise ValueError(f"{data.feature_count} features but {len(start)} initial weights")
    target = np.asarray(results, dtype=np.float64)
    if data.count != len(target) or data.count == 0:
        raise ValueError(f"{data.count} positions but {len(target)} results")
    if np.any((target < 0) | (target > 1)):
        raise ValueError("results must lie in 0..1 (1 a win, 0.5 a draw, 0 a loss)")
    base = np.zeros(data.count) if offsets is None else np.asarray(offsets, dtype=np.float64)
    if not 0 <= holdout <= 0.5:
        raise ValueError(f"holdout must lie in 0..0.5, not {holdout}")
    held: tuple[SparseRows, np.ndarray, np.ndarray] | None = None
    if holdout:
        mask = np.random.default_rng(seed).random(data.count) < holdout
        held = (data.subset(mask), target[mask], base[mask])
        data, target, base = data.subset(~mask), target[~mask], base[~mask]

    s = fit_scale(data, target, base, start) if scale is None else float(scale)
    weights = start.copy()
    free = np.ones(len(start), dtype=bool)
    free[list(frozen)] = False
    first_moment = np.zeros(len(start))
    second_moment = np.zeros(len(start))
    beta1, beta2, epsilon = 0.9, 0.999, 1e-8
    before = loss(data, target, base, start, s)
    for epoch in range(1, epochs + 1):
        predicted = sigmoid(s * (base + data.dot(weights)))
        # dE/dq for each position: -2 (r - p) p (1 - p) s, averaged over positions
        per_row = -2.0 * (target - predicted) * predicted * (1.0 - predicted) * s / data.count
        gradient = data.transpose_dot(per_row) + 2.0 * l2 * (weights - start) / data.count
        gradient[~free] = 0.0
        first_moment = beta1 * first_moment + (1 - beta1) * gradient
        second_moment = beta2 * second_moment + (1 - beta2) * gradient**2
        corrected_first = first_moment / (1 - beta1**epoch)
        corrected_second = second_moment / (1 - beta2**epoch)
        weights -= learning_rate * corrected_first / (np.sqrt(corrected_second) + epsilon)
        if report is not None and (epoch % 50 == 0 or epoch == epochs):
            report(epoch, loss(data, target, base, weights, s))
    return FitResult(
        weights=weights.tolist(),
        scale=s,
        loss_before=before,
        loss_after=loss(data, target, base, weights, s),
        positions=data.count,
        epochs=epochs,
        holdout_before=None if held is None else loss(*held, start, s),
        holdout_after=None if held is None else loss(*held, weights, s),
    )


__all__ = ["FitResult", "SparseRows", "fit", "fit_scale", "loss", "sigmoid"]
