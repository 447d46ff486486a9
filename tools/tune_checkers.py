"""Texel tuning of the checkers EVAL weights from the engine's own games.

Two steps (numpy is a development extra: ``.venv/bin/pip install -e '.[tune]'``)::

    # 1. self-play: fixed-depth games from the ACF 3-move deck, a little noise early on;
    #    every quiet position (no capture pending) with the game's result, one game a line
    nice -n 10 .venv/bin/python -m tools.tune_checkers generate --games 400 --depth 4 \\
        --seed 1 --out /tmp/checkers_games.jsonl
    # 2. fit the weights (a man stays 100: it fixes the unit) and write a weights file
    .venv/bin/python -m tools.tune_checkers fit /tmp/checkers_games.jsonl \\
        --out /tmp/checkers_new.json
    # 3. measure before shipping: new against the packaged weights, paired ballot openings
    .venv/bin/plyground match --game checkers --a weights=/tmp/checkers_new.json --b default \\
        --games 100 --depth 4

The EVAL is linear (``games.checkers.evaluation``): ``Σ wᵢ·fᵢ`` with each feature Black's
count minus White's, so a position's feature row is ``feature_values`` and its result is
seen by Black (1 won, 0.5 drawn, 0 lost); ``ai.tuning.texel.fit`` does the rest.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path
from typing import Any


from ai.engine import search
from ai.match.openings import ballot_openings
from ai.settings import Limits, SearchSettings
from games.checkers import BLACK, DEFAULT_WEIGHTS, FEATURE_NAMES
from games.checkers.evaluation import feature_values
from games.weights import weights_document

MAX_PLIES = 240
"""A game still going after this many plies is scored a draw."""
NOISY_PLIES = 20
"""Random moves (``--noise``) are played only this early, after the opening."""
SKIP_PLIES = 4
"""Positions this close to the start (opening and its replies) teach little: left out."""
UNIT_FEATURE = "men"
"""The weight kept fixed during the fit: a man is 100, the unit of every score."""


def play_game(rng: random.Random, depth: int, noise: float, seed: int) -> dict[str, Any]:
    """One self-play game: its opening, the quiet positions seen (black, white, kings, side
    to move) and Black's result."""
    opening = rng.choice(ballot_openings("checkers"))
    state = opening.state("checkers")
    tables: dict[int, dict[str, Any]] = {0: {}, 1: {}}
    settings = SearchSettings(seed=seed)
    positions: list[tuple[int, int, int, int]] = []
    plies = 0
    while not state.is_terminal() and plies < MAX_PLIES:
        if plies >= SKIP_PLIES and not state.noisy_moves():
            positions.append((state.black, state.white, state.kings, state.to_move()))
        moves = state.legal_moves()
        if plies < NOISY_PLIES and len(moves) > 1 and rng.random() < noise:
            move = rng.choice(moves)
        else:
            move = search(state, settings, Limits(depth=depth), shared=tables[state.to_move()]).best_move
        state.play(move)
        plies += 1
    result = 0.5
    if state.is_terminal():
        result = (state.utility(BLACK) + 1) / 2
    return {"opening": " ".join(opening.moves), "result": result, "plies": plies, "positions": positions}


def generate(args: argparse.Namespace) -> None:
    rng = random.Random(args.seed)
    started = time.perf_counter()
    count = 0
    with open(args.out, "a", encoding="utf-8") as out:
        while count < args.games and time.perf_counter() - started < args.minutes * 60:
            game = play_game(rng, args.depth, args.noise, args.seed * 100_000 + count)
            out.write(json.dumps(game) + "\n")
            out.flush()
            count += 1
            print(f"game {count}: {game['opening']}, {game['plies']} plies, Black scores {game['result']}, "
                  f"{len(game['positions'])} positions ({time.perf_counter() - started:.0f} s)", flush=True)


def load(paths: list[str]) -> tuple[list[list[float]], list[float]]:
    """Feature rows and Black's results of every position in the files (repeats kept once
    per game: a shuffle of kings back and forth adds nothing)."""
    rows: list[list[float]] = []
    results: list[float] = []
    for path in paths:
        for line in Path(path).read_text().splitlines():
            if not line.strip():
                continue
            game = json.loads(line)
            for black, white, kings, player in {tuple(position) for position in game["positions"]}:
                rows.append([float(value) for value in feature_values(black, white, kings, player)])
                results.append(float(game["result"]))
    return rows, results


def fit(args: argparse.Namespace) -> None:
    from ai.tuning.texel import fit as texel_fit

    rows, results = load(args.data)
    initial = [DEFAULT_WEIGHTS[name] for name in FEATURE_NAMES]
    frozen = [FEATURE_NAMES.index(UNIT_FEATURE)]
    result = texel_fit(rows, results, initial, frozen=frozen, epochs=args.epochs, learning_rate=args.learning_rate,
                       l2=args.l2, holdout=args.holdout, seed=1,
                       report=lambda epoch, loss: print(f"epoch {epoch}: loss {loss:.6f}", flush=True))
    fitted = {name: round(value, 2) for name, value in zip(FEATURE_NAMES, result.weights)}
    print(f"{result.positions:,} positions fitted (+ held out), scale {result.scale:.5f}")
    print(f"loss {result.loss_before:.6f} -> {result.loss_after:.6f}; held out "
          f"{result.holdout_before:.6f} -> {result.holdout_after:.6f}" if result.holdout_before is not None else "")
    for name in FEATURE_NAMES:
        print(f"  {name:<12}{DEFAULT_WEIGHTS[name]:>9.2f} -> {fitted[name]:>9.2f}")
    games = sum(1 for path in args.data for line in Path(path).read_text().splitlines() if line.strip())
    description = (
        "Checkers EVAL (games/checkers/evaluation.py): a weighted sum of features, each Black's count minus "
        "White's, in units where a man is 100. Texel-tuned by tools/tune_checkers.py on "
        f"{result.positions:,} quiet positions from {games} fixed-depth self-play games (ACF 3-move openings)."
    )
    document = weights_document("checkers", fitted, description,
                                training={"games": games, "positions": result.positions, "scale": result.scale,
                                          "loss_before": result.loss_before, "loss_after": result.loss_after,
                                          "holdout_before": result.holdout_before,
                                          "holdout_after": result.holdout_after})
    Path(args.out).write_text(json.dumps(document, indent=1) + "\n")
    print(f"wrote {args.out}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("generate", help="self-play games -> positions with results (JSON lines, appended)")
    make.add_argument("--games", type=int, default=200)
    make.add_argument("--depth", type=int, default=4)
    make.add_argument("--noise", type=float, default=0.15, help="chance of a random move in the early plies")
    make.add_argument("--minutes", type=float, default=20.0, help="stop after this long")
    make.add_argument("--seed", type=int, default=1)
    make.add_argument("--out", required=True)
    tune = commands.add_parser("fit", help="fit the weights to the positions' results")
    tune.add_argument("data", nargs="+")
    tune.add_argument("--epochs", type=int, default=2000)
    tune.add_argument("--learning-rate", type=float, default=0.5)
    tune.add_argument("--l2", type=float, default=0.0)
    tune.add_argument("--holdout", type=float, default=0.1)
    tune.add_argument("--out", required=True)
    args = parser.parse_args()
    generate(args) if args.command == "generate" else fit(args)


if __name__ == "__main__":
    main()
