"""Train the chess network: a correction to the hand-written EVAL, learned from our own
search's scores and game results (``tools/chess_net.py`` makes the data).

Dev-only: it needs PyTorch (CPU), which the app never loads. Run it from a venv of its own::

    python3 -m venv /tmp/torch && /tmp/torch/bin/pip install torch numpy
    /tmp/torch/bin/python -m tools.chess_net_train POSITIONS.npz... --out resources/weights/chess_net.json

The network (``games.chess_game.network`` evaluates the exported file; the compiled search
updates its first layer incrementally): 768 inputs a perspective (piece type and colour
relative to the perspective, square mirrored for Black) -> ``--hidden`` units with shared
weights for both perspectives, clipped ReLU, the side to move's half first -> 1 output in
centipawns. The EVAL of the search becomes ``hand-written EVAL + network`` (side to move's
view): the network starts at zero and only has to learn what the hand-written EVAL misses.

Loss: mean squared error in win-probability space (Texel's logistic curve,
``1 / (1 + 10^(-cp / 400))``) between the prediction and
``lambda * result + (1 - lambda) * curve(search score)``.
"""

from __future__ import annotations

import argparse
import base64
import copy
import json
import math
import sys
import time

import numpy as np
import torch
from torch import nn

INPUTS = 768
PAD = 768
FT_SCALE = 255
"""First-layer weights and biases are stored times this (int16); clipped ReLU at this."""
OUT_SCALE = 1024
"""Output weights are stored times this (int16)."""
OUTPUT_CP = 400
"""The network's raw output times this is centipawns."""
WEIGHT_LIMIT = 1.98
"""|weight| cap: 33 active rows of 1.98 * 255 stay inside int16."""
CURVE_K = 400 / math.log(10)


class Network(nn.Module):
    def __init__(self, hidden: int) -> None:
        super().__init__()
        self.hidden = hidden
        self.features = nn.EmbeddingBag(INPUTS + 1, hidden, mode="sum", padding_idx=PAD)
        nn.init.normal_(self.features.weight, std=0.05)
        with torch.no_grad():
            self.features.weight[PAD].zero_()
        self.features_bias = nn.Parameter(torch.zeros(hidden))
        self.output = nn.Linear(2 * hidden, 1)
        nn.init.zeros_(self.output.weight)
        nn.init.zeros_(self.output.bias)

    def forward(self, white: torch.Tensor, black: torch.Tensor, white_to_move: torch.Tensor) -> torch.Tensor:
        """The correction in centipawns, side to move's view."""
        white_acc = self.features(white) + self.features_bias
        black_acc = self.features(black) + self.features_bias
        stm = white_to_move.unsqueeze(1)
        us = torch.where(stm, white_acc, black_acc)
        them = torch.where(stm, black_acc, white_acc)
        hidden = torch.clamp(torch.cat([us, them], dim=1), 0.0, 1.0)
        return self.output(hidden).squeeze(1) * OUTPUT_CP

    def clip(self) -> None:
        with torch.no_grad():
            self.features.weight.clamp_(-WEIGHT_LIMIT, WEIGHT_LIMIT)
            self.features.weight[PAD].zero_()
            self.features_bias.clamp_(-WEIGHT_LIMIT, WEIGHT_LIMIT)
            self.output.weight.clamp_(-WEIGHT_LIMIT, WEIGHT_LIMIT)


def curve(cp: torch.Tensor) -> torch.Tensor:
    return torch.sigmoid(cp / CURVE_K)


def load(paths: list[str]) -> dict[str, torch.Tensor]:
    parts: dict[str, list[np.ndarray]] = {}
    for path in paths:
        with np.load(path) as data:
            for name in data.files:
                parts.setdefault(name, []).append(data[name])
    arrays = {name: np.concatenate(chunks) for name, chunks in parts.items()}
    return {
        "white": torch.from_numpy(arrays["white"].astype(np.int64)),
        "black": torch.from_numpy(arrays["black"].astype(np.int64)),
        "white_to_move": torch.from_numpy(arrays["white_to_move"]),
        "hce": torch.from_numpy(arrays["hce"].astype(np.float32)),
        "score": torch.from_numpy(arrays["score"].astype(np.float32)),
        "result": torch.from_numpy(arrays["result"]),
    }


def loss_of(net: Network, batch: dict[str, torch.Tensor], lam: float) -> torch.Tensor:
    target = lam * batch["result"] + (1 - lam) * curve(batch["score"])
    prediction = curve(batch["hce"] + net(batch["white"], batch["black"], batch["white_to_move"]))
    return torch.mean((prediction - target) ** 2)


def subset(data: dict[str, torch.Tensor], index: torch.Tensor | slice) -> dict[str, torch.Tensor]:
    return {name: tensor[index] for name, tensor in data.items()}


def export(net: Network, path: str, note: str) -> None:
    """The quantised network as JSON: int16 arrays in base64 (little-endian), no pickle."""

    def pack(array: np.ndarray, dtype: str) -> str:
        return base64.b64encode(np.ascontiguousarray(array.astype(dtype)).tobytes()).decode("ascii")

    features = np.rint(net.features.weight.detach().numpy()[:INPUTS] * FT_SCALE)
    bias = np.rint(net.features_bias.detach().numpy() * FT_SCALE)
    output = np.rint(net.output.weight.detach().numpy()[0] * OUT_SCALE)
    output_bias = int(np.rint(float(net.output.bias.detach()[0]) * FT_SCALE * OUT_SCALE))
    document = {
        "format": "plyground-chess-network-1",
        "note": note,
        "hidden": net.hidden,
        "ft_scale": FT_SCALE,
        "out_scale": OUT_SCALE,
        "output_cp": OUTPUT_CP,
        "feature_weights": pack(features, "<i2"),
        "feature_bias": pack(bias, "<i2"),
        "output_weights": pack(output, "<i2"),
        "output_bias": output_bias,
    }
    with open(path, "w", encoding="ascii") as out:
        json.dump(document, out, indent=1)
        out.write("\n")


def quantisation_error(net: Network, held: dict[str, torch.Tensor], count: int = 2000) -> float:
    """The exported integers' correction (the engine's arithmetic, in numpy) against the float
    network's, on held-out positions: the rounding the export costs."""
    features = np.rint(net.features.weight.detach().numpy()[:INPUTS] * FT_SCALE).astype(np.int64)
    features = np.vstack([features, np.zeros((1, net.hidden), dtype=np.int64)])  # the padding row
    bias = np.rint(net.features_bias.detach().numpy() * FT_SCALE).astype(np.int64)
    output = np.rint(net.output.weight.detach().numpy()[0] * OUT_SCALE).astype(np.int64)
    output_bias = int(np.rint(float(net.output.bias.detach()[0]) * FT_SCALE * OUT_SCALE))
    white = held["white"][:count].numpy()
    black = held["black"][:count].numpy()
    stm = held["white_to_move"][:count].numpy()[:, None]
    white_acc = features[white].sum(axis=1) + bias
    black_acc = features[black].sum(axis=1) + bias
    us = np.clip(np.where(stm, white_acc, black_acc), 0, FT_SCALE)
    them = np.clip(np.where(stm, black_acc, white_acc), 0, FT_SCALE)
    total = us @ output[: net.hidden] + them @ output[net.hidden :] + output_bias
    quantised = (total * OUTPUT_CP) // (FT_SCALE * OUT_SCALE)
    with torch.no_grad():
        exact = net(held["white"][:count], held["black"][:count], held["white_to_move"][:count]).numpy()
    return float(np.mean(np.abs(quantised - exact)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("positions", nargs="+", help=".npz files of tools/chess_net.py features")
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--lambda", dest="lam", type=float, default=0.5, help="weight of the game result")
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--batch", type=int, default=4096)
    parser.add_argument("--learning-rate", type=float, default=1e-3)
    parser.add_argument("--weight-decay", type=float, default=0.0, help="AdamW's decoupled weight decay")
    parser.add_argument("--hold-out", type=float, default=0.05, help="the last share of positions, kept out")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", required=True)
    arguments = parser.parse_args()
    torch.manual_seed(arguments.seed)
    data = load(arguments.positions)
    count = len(data["hce"])
    split = int(count * (1 - arguments.hold_out))
    train, held = subset(data, slice(0, split)), subset(data, slice(split, count))
    net = Network(arguments.hidden)
    optimiser = torch.optim.AdamW(net.parameters(), lr=arguments.learning_rate, weight_decay=arguments.weight_decay)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimiser, T_max=arguments.epochs)
    with torch.no_grad():
        base = loss_of(net, held, arguments.lam).item()
    print(f"{split} training, {count - split} held-out positions; held-out loss of the EVAL alone {base:.6f}", file=sys.stderr)
    started = time.perf_counter()
    best_loss, best_state, best_epoch = base, copy.deepcopy(net.state_dict()), 0
    for epoch in range(1, arguments.epochs + 1):
        order = torch.randperm(split)
        total = 0.0
        for start in range(0, split, arguments.batch):
            batch = subset(train, order[start : start + arguments.batch])
            optimiser.zero_grad()
            loss = loss_of(net, batch, arguments.lam)
            loss.backward()
            optimiser.step()
            net.clip()
            total += loss.item() * len(batch["hce"])
        scheduler.step()
        with torch.no_grad():
            held_loss = loss_of(net, held, arguments.lam).item()
        if held_loss < best_loss:
            best_loss, best_state, best_epoch = held_loss, copy.deepcopy(net.state_dict()), epoch
        print(
            f"epoch {epoch}: train {total / split:.6f}, held-out {held_loss:.6f} "
            f"({100 * (1 - held_loss / base):.1f}% below the EVAL alone), {time.perf_counter() - started:.0f} s",
            file=sys.stderr,
        )
    net.load_state_dict(best_state)  # the epoch that did best on the held-out positions
    note = (
        f"{count} positions, hidden {arguments.hidden}, lambda {arguments.lam}, epoch {best_epoch} of "
        f"{arguments.epochs}, weight decay {arguments.weight_decay}; held-out loss {best_loss:.6f} against "
        f"{base:.6f} for the EVAL alone"
    )
    export(net, arguments.out, note)
    print(note, file=sys.stderr)
    print(f"quantised against float, {quantisation_error(net, held):.2f} cp mean absolute difference", file=sys.stderr)


if __name__ == "__main__":
    main()
