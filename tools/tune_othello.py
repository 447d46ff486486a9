"""Fit the Othello pattern EVAL (``games.othello.patterns``) to labelled positions.

Input: files of ``tools/othello_label.py label`` or ``tools/othello_selfplay.py`` (``own
opponent label`` lines: the bitboards of the side to move and of the other side in hex, and
the label in discs: a deeper search's value or exact score, or the exact final margin the
self-play game reached from there).
Model (``games.othello.evaluation.pattern_evaluate``): per phase (``--phase-bounds``, by empty
squares), one value per canonical configuration of each pattern, summed over its instances,
plus the scalars bias, mobility, potential mobility and parity. Fit: ridge least squares on
the margin in discs, ``min |A w - y|^2 + l2 |w_patterns|^2``, by conjugate gradients on the
normal equations (A is sparse: 46 ones and 4 scalars a row; numpy only, a dev-only extra).
The constant and parity are fitted but shipped as 0 (``--drop``): all leaves of a search
at one depth share them, so they cannot change a choice, and in the data they mostly tell
which colour is to move (black won more of these games); shipped, they only made the score
swing from one iteration to the next. Each phase is fitted on the positions within ``--overlap`` empties of its range, which
smooths the tables from one phase to the next. The last ``--holdout`` of each file (whole
games, the files are in game order) is kept out of the fit and reported, with the classic
EVAL's error on the same positions for comparison.

    .venv/bin/pip install numpy
    .venv/bin/python -m tools.tune_othello /tmp/otheval/pos1.txt --out resources/weights/othello.json
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path


import numpy as np

from games.othello.bitboard import FULL, SQUARE_COUNT, legal_moves_mask
from games.othello.evaluation import (
    DEFAULT_WEIGHT_VECTOR,
    SCALAR_NAMES,
    classic_evaluate,
    neighbours,
)
from games.othello.patterns import PATTERNS, canonical_index, pattern_indices

OFFSETS = np.cumsum([0] + [pattern.size for pattern in PATTERNS])
PATTERN_COLUMNS = int(OFFSETS[-1])


def features(own: int, opponent: int) -> tuple[list[int], tuple[float, ...], int]:
    """(pattern columns, scalar values, empties) of one position, side to move ``own``."""
    columns = []
    for number, indices in enumerate(pattern_indices(own, opponent)):
        offset = int(OFFSETS[number])
        columns.extend(offset + canonical_index(number, index) for index in indices)
    occupied = own | opponent
    empty = ~occupied & FULL
    empties = SQUARE_COUNT - occupied.bit_count()
    scalars = (
        1.0,
        legal_moves_mask(own, opponent).bit_count() - legal_moves_mask(opponent, own).bit_count(),
        (neighbours(opponent) & empty).bit_count() - (neighbours(own) & empty).bit_count(),
        1.0 if empties & 1 else -1.0,
    )
    return columns, scalars, empties


def load(paths: list[str], holdout: float) -> dict[str, np.ndarray]:
    """Features of every position in ``paths``, cached beside each file as ``.npz``."""
    parts = []
    for path in paths:
        cache = Path(f"{path}.h{holdout}.npz")
        if cache.exists() and cache.stat().st_mtime > Path(path).stat().st_mtime:
            with np.load(cache) as stored:
                parts.append(dict(stored))
        else:
            part = _load_one(path, holdout)
            np.savez(cache, **part)
            parts.append(part)
    return {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}


def _load_one(path: str, holdout: float) -> dict[str, np.ndarray]:
    rows_columns, rows_scalars, rows_empties, labels, classic, held = [], [], [], [], [], []
    owns, opponents = [], []
    lines = Path(path).read_text(encoding="ascii").split("\n")
    lines = [line for line in lines if line.strip()]
    cut = int(len(lines) * (1 - holdout))
    for number, line in enumerate(lines):
        own_text, opponent_text, label = line.split()
        own, opponent = int(own_text, 16), int(opponent_text, 16)
        owns.append(own)
        opponents.append(opponent)
        columns, scalars, empties = features(own, opponent)
        rows_columns.append(columns)
        rows_scalars.append(scalars)
        rows_empties.append(empties)
        labels.append(float(label))
        held.append(number >= cut)
        classic.append(classic_evaluate(own, opponent, legal_moves_mask(own, opponent),
                                        DEFAULT_WEIGHT_VECTOR) / 100.0 if number >= cut else 0.0)
    return {
        "columns": np.array(rows_columns, dtype=np.int64),
        "scalars": np.array(rows_scalars, dtype=np.float64),
        "empties": np.array(rows_empties, dtype=np.int64),
        "labels": np.array(labels, dtype=np.float64),
        "held": np.array(held, dtype=bool),
        "classic": np.array(classic, dtype=np.float64),
        "own": np.array(owns, dtype=np.uint64),
        "opponent": np.array(opponents, dtype=np.uint64),
    }


def later_positions(data: dict[str, np.ndarray], lookahead: int) -> tuple[np.ndarray, np.ndarray]:
    """Per position: the index of the first later position of the same game with at least
    ``lookahead`` fewer empties (-1 if none), and the sign that turns that position's value
    (its mover's view) into this one's. The files hold games in order; a game's positions
    follow each other move by move, and a pass between two of them keeps the mover (told
    apart by which side's discs only grew)."""
    count = len(data["labels"])
    empties = data["empties"]
    own = [int(value) for value in data["own"]]
    opponent = [int(value) for value in data["opponent"]]
    game = np.zeros(count, dtype=np.int64)
    relative = np.ones(count, dtype=np.int64)  # mover sign relative to the game's first position
    for index in range(1, count):
        same_game = empties[index] == empties[index - 1] - 1
        if not same_game:
            game[index] = game[index - 1] + 1
            continue
        game[index] = game[index - 1]
        moved = own[index - 1] & ~opponent[index] == 0  # the mover's discs are now "opponent"
        relative[index] = -relative[index - 1] if moved else relative[index - 1]
    later = np.full(count, -1, dtype=np.int64)
    sign = np.ones(count, dtype=np.int64)
    for index in range(count):
        target = index + lookahead
        if target < count and game[target] == game[index]:
            later[index] = target
            sign[index] = relative[index] * relative[target]
    return later, sign


def fit_phase(columns: np.ndarray, scalars: np.ndarray, labels: np.ndarray, l2: float,
              iterations: int) -> tuple[np.ndarray, np.ndarray]:
    """Ridge least squares by conjugate gradients; returns (pattern weights, scalar weights)."""
    count, width = columns.shape
    flat = columns.ravel()
    scalar_l2 = 1e-3

    def normal(pattern_w: np.ndarray, scalar_w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        prediction = pattern_w[columns].sum(axis=1) + scalars @ scalar_w
        pattern_out = np.bincount(flat, weights=np.repeat(prediction, width), minlength=PATTERN_COLUMNS)
        return pattern_out + l2 * pattern_w, scalars.T @ prediction + scalar_l2 * scalar_w

    right_p = np.bincount(flat, weights=np.repeat(labels, width), minlength=PATTERN_COLUMNS)
    right_s = scalars.T @ labels
    w_p = np.zeros(PATTERN_COLUMNS)
    w_s = np.zeros(scalars.shape[1])
    r_p, r_s = right_p.copy(), right_s.copy()
    d_p, d_s = r_p.copy(), r_s.copy()
    rr = r_p @ r_p + r_s @ r_s
    for _ in range(iterations):
        q_p, q_s = normal(d_p, d_s)
        step = rr / (d_p @ q_p + d_s @ q_s)
        w_p += step * d_p
        w_s += step * d_s
        r_p -= step * q_p
        r_s -= step * q_s
        new_rr = r_p @ r_p + r_s @ r_s
        if new_rr < 1e-10 * (right_p @ right_p + right_s @ right_s):
            break
        d_p = r_p + (new_rr / rr) * d_p
        d_s = r_s + (new_rr / rr) * d_s
        rr = new_rr
    return w_p, w_s


def predict(w_p: np.ndarray, w_s: np.ndarray, columns: np.ndarray, scalars: np.ndarray) -> np.ndarray:
    return w_p[columns].sum(axis=1) + scalars @ w_s


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("inputs", nargs="+", help="position files of tools/othello_selfplay.py")
    parser.add_argument("--out", help="weights file to write (resources/weights/othello.json)")
    parser.add_argument("--phase-bounds", default="0,12,18,24,30,36,42,48,54,61")
    parser.add_argument("--overlap", type=int, default=3, help="empties each side of a phase")
    parser.add_argument("--l2", type=float, default=5.0)
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--holdout", type=float, default=0.1)
    parser.add_argument("--exact-empties", type=int, default=12,
                        help="labels at this many empties or fewer are exact (the data's solve depth)")
    parser.add_argument("--lookahead", type=int, default=10,
                        help="bootstrap: the target of a position is the fitted value this many plies later")
    parser.add_argument("--bootstrap", type=float, default=0.0,
                        help="share of the bootstrapped target (0: the game's exact result only)")
    parser.add_argument("--drop", default="bias,parity",
                        help="scalars fitted (to absorb their effect) but shipped as 0")
    args = parser.parse_args(argv)
    args.drop = set(filter(None, args.drop.split(",")))
    bounds = [int(bound) for bound in args.phase_bounds.split(",")]
    started = time.monotonic()
    data = load(args.inputs, args.holdout)
    print(f"{len(data['labels'])} positions ({int(data['held'].sum())} held out), "
          f"features in {time.monotonic() - started:.0f} s", flush=True)
    patterns_out: dict[str, list[list[int]]] = {pattern.name: [] for pattern in PATTERNS}
    scalars_out: dict[str, list[float]] = {name: [] for name in SCALAR_NAMES}
    later, sign = later_positions(data, args.lookahead)
    fitted = np.where(data["empties"] <= args.exact_empties, data["labels"], np.nan)
    for phase, (low, high) in enumerate(zip(bounds, bounds[1:])):
        near = (data["empties"] >= low - args.overlap) & (data["empties"] < high + args.overlap)
        train = near & ~data["held"]
        targets = data["labels"].copy()
        if args.bootstrap > 0:
            later_value = np.where(later >= 0, sign * fitted[later], np.nan)
            usable = ~np.isnan(later_value) & (data["empties"] > args.exact_empties)
            targets[usable] = ((1 - args.bootstrap) * data["labels"][usable]
                               + args.bootstrap * later_value[usable])
        w_p, w_s = fit_phase(data["columns"][train], data["scalars"][train], targets[train],
                             args.l2, args.iterations)
        mine = (data["empties"] >= low) & (data["empties"] < high) & (data["empties"] > args.exact_empties)
        fitted[mine] = predict(w_p, w_s, data["columns"][mine], data["scalars"][mine])
        test = (data["empties"] >= low) & (data["empties"] < high) & data["held"]
        if test.any():
            error = predict(w_p, w_s, data["columns"][test], data["scalars"][test]) - data["labels"][test]
            classic_error = data["classic"][test] - data["labels"][test]
            baseline = data["labels"][test] - data["labels"][test].mean()
            print(f"phase {phase} empties {low}-{high - 1}: {int(train.sum())} train, {int(test.sum())} test; "
                  f"RMSE discs: patterns {np.sqrt((error ** 2).mean()):.2f}, classic "
                  f"{np.sqrt((classic_error ** 2).mean()):.2f}, constant {np.sqrt((baseline ** 2).mean()):.2f}",
                  flush=True)
        hundredths = np.rint(w_p * 100).astype(np.int64)
        for number, pattern in enumerate(PATTERNS):
            block = hundredths[OFFSETS[number]:OFFSETS[number + 1]]
            nonzero = np.nonzero(block)[0]
            entries = np.empty(2 * len(nonzero), dtype=np.int64)
            entries[0::2], entries[1::2] = nonzero, block[nonzero]
            patterns_out[pattern.name].append(entries.tolist())
        for name, value in zip(SCALAR_NAMES, w_s * 100, strict=True):
            if name in args.drop:
                value = 0.0
            scalars_out[name].append(round(float(value), 2))
    if args.out:
        document = {
            "game": "othello",
            "format": 1,
            "description": (
                "Othello pattern EVAL (games/othello/evaluation.py): per phase of empty squares, "
                "pattern tables as [canonical index, value in 1/100 disc, ...] and scalars; fitted by "
                "tools/tune_othello.py (see resources/weights/README.md)"),
            "training": {
                "inputs": [Path(path).name for path in args.inputs],
                "positions": int(len(data["labels"])),
                "l2": args.l2, "overlap": args.overlap, "holdout": args.holdout,
            },
            "weights": {"phase_bounds": bounds, **scalars_out, **patterns_out},
        }
        Path(args.out).write_text(json.dumps(document, separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"wrote {args.out} ({Path(args.out).stat().st_size // 1024} KiB)")
    print(f"total {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
