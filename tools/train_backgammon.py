"""Fit the backgammon network (``games.backgammon.network``) to gnubg 0-ply chances.

Supervised regression, not self-play learning: the positions and their targets come from
``tools/gnubg_positions.py`` (run inside GNU Backgammon), and this script fits a network
with one hidden layer of sigmoids and five sigmoid outputs (win, win gammon, win
backgammon, lose gammon, lose backgammon, for the side on roll) by cross-entropy with Adam.
numpy is a development dependency only (``.venv/bin/pip install numpy``); the app reads the
written JSON in pure Python.

    .venv/bin/python -m tools.train_backgammon POSITIONS.txt [...] \
        --hidden 64 --epochs 30 --out resources/weights/backgammon_net.json

It prints the held-out (5%) cross-entropy and the root-mean-square error of the cubeless
equity, the number that matters for choosing plays.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np


from games.backgammon.network import (
    BAR_SCALE,
    INPUT_COUNT,
    OFF_SCALE,
    PIP_SCALE,
    OUTPUTS,
    input_names,
)
from games.weights import weights_document

CHECKERS = 15
EQUITY_WEIGHTS = np.array([2.0, 1.0, 1.0, -1.0, -1.0])


def load(paths: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Inputs (N, INPUT_COUNT) from the side on roll, and targets (N, 5)."""
    rows = np.concatenate([np.loadtxt(path, dtype=np.float32, ndmin=2)[:, :55] for path in paths])
    opponent, mover, targets = rows[:, :25], rows[:, 25:50], rows[:, 50:55]
    blocks = []
    for side in (mover, opponent):
        points = side[:, :24]
        units = np.stack(
            [points >= 1, points >= 2, points >= 3, np.where(points > 3, (points - 3) / 2, 0.0)], axis=2
        ).reshape(len(rows), 96)
        bar = side[:, 24:25] / BAR_SCALE
        off = (CHECKERS - side.sum(axis=1, keepdims=True)) / OFF_SCALE
        pips = (side[:, :24] @ np.arange(1, 25) + 25 * side[:, 24]).reshape(-1, 1) / PIP_SCALE
        blocks.extend([units, bar, off, pips])
    inputs = np.concatenate(blocks, axis=1).astype(np.float32)
    assert inputs.shape[1] == INPUT_COUNT
    return inputs, targets.astype(np.float32)


def network_document(weights: dict, training: dict) -> dict:
    """The weights file (``games.weights`` format 1) that ``games.backgammon.network`` reads."""
    return weights_document(
        "backgammon",
        weights,
        "Backgammon evaluation network for games.backgammon.network: inputs (hidden_weights "
        "has one row per input, in input_names order) are Tesauro's raw encoding of the side "
        "on roll then of the opponent; one hidden layer of sigmoids (hidden_bias); five "
        "sigmoid outputs (output_weights: one row per output, output_bias) giving the chances "
        "in 'outputs' for the side on roll. Fitted by tools/train_backgammon.py to GNU "
        "Backgammon's chances (1-ply for its best candidates, else 0-ply) of the positions after "
        "every legal play in its self-play (tools/gnubg_positions.py).",
        training=training,
        outputs=list(OUTPUTS),
        input_names=list(input_names()),
    )


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(x, -60, 60)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("positions", nargs="+")
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--rate", type=float, default=0.005)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--init", help="start from this network's weights (same hidden size)")
    parser.add_argument("--out", default="resources/weights/backgammon_net.json")
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    inputs, targets = load(args.positions)
    order = rng.permutation(len(inputs))
    held = order[: len(order) // 20]
    train = order[len(order) // 20:]
    print(f"{len(train)} training positions, {len(held)} held out", flush=True)

    hidden = args.hidden
    params = {
        "w1": (rng.standard_normal((INPUT_COUNT, hidden)) * 0.1).astype(np.float32),
        "b1": np.zeros(hidden, np.float32),
        "w2": (rng.standard_normal((hidden, len(OUTPUTS))) * 0.1).astype(np.float32),
        "b2": np.zeros(len(OUTPUTS), np.float32),
    }
    if args.init:
        start = json.loads(Path(args.init).read_text())["weights"]
        params = {
            "w1": np.array(start["hidden_weights"], np.float32),
            "b1": np.array(start["hidden_bias"], np.float32),
            "w2": np.array(start["output_weights"], np.float32).T.copy(),
            "b2": np.array(start["output_bias"], np.float32),
        }
        if params["w1"].shape != (INPUT_COUNT, hidden):
            parser.error(f"--init {args.init} has {params['w1'].shape[1]} hidden units, not {hidden}")
    moments = {key: (np.zeros_like(value), np.zeros_like(value)) for key, value in params.items()}
    beta1, beta2, epsilon = 0.9, 0.999, 1e-8
    step = 0

    def forward(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        h = sigmoid(x @ params["w1"] + params["b1"])
        return h, sigmoid(h @ params["w2"] + params["b2"])

    def report(epoch: int) -> None:
        _, predicted = forward(inputs[held])
        truth = targets[held]
        p = np.clip(predicted, 1e-6, 1 - 1e-6)
        entropy = -np.mean(truth * np.log(p) + (1 - truth) * np.log(1 - p))
        equity_error = np.sqrt(np.mean(((predicted - truth) @ EQUITY_WEIGHTS) ** 2))
        print(f"epoch {epoch:3d}  held-out cross-entropy {entropy:.4f}  equity rmse {equity_error:.4f}", flush=True)

    report(0)
    started = time.perf_counter()
    for epoch in range(1, args.epochs + 1):
        rate = args.rate * (0.5 ** (3 * epoch / args.epochs))  # decays 8x over the run
        shuffled = rng.permutation(train)
        for first in range(0, len(shuffled), args.batch):
            batch = shuffled[first:first + args.batch]
            x, y = inputs[batch], targets[batch]
            h, out = forward(x)
            delta_out = (out - y) / len(batch)  # cross-entropy through a sigmoid
            delta_hidden = (delta_out @ params["w2"].T) * h * (1 - h)
            grads = {"w2": h.T @ delta_out, "b2": delta_out.sum(0),
                     "w1": x.T @ delta_hidden, "b1": delta_hidden.sum(0)}
            step += 1
            for key, grad in grads.items():
                m, v = moments[key]
                m *= beta1
                m += (1 - beta1) * grad
                v *= beta2
                v += (1 - beta2) * grad * grad
                params[key] -= rate * (m / (1 - beta1 ** step)) / (np.sqrt(v / (1 - beta2 ** step)) + epsilon)
        report(epoch)
    print(f"trained in {time.perf_counter() - started:.0f} s", flush=True)

    document = network_document(
        {
            "hidden_weights": [[round(float(v), 5) for v in row] for row in params["w1"]],
            "hidden_bias": [round(float(v), 5) for v in params["b1"]],
            "output_weights": [[round(float(v), 5) for v in row] for row in params["w2"].T],
            "output_bias": [round(float(v), 5) for v in params["b2"]],
        },
        {
            "positions": len(train),
            "held_out": len(held),
            "hidden": hidden,
            "epochs": args.epochs,
            "seed": args.seed,
            "command": " ".join(sys.argv),
        },
    )
    Path(args.out).write_text(json.dumps(document, separators=(",", ":")) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
