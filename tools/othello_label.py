"""Training positions for the Othello pattern EVAL, labelled by deeper search (dev only).

Two steps, both on ``tools/othello_label.c`` (a plain fixed-depth alpha-beta in C over the
engine's own move generation and EVALs, built here on first use with the system's C
compiler) and the native exact solver:

* ``play``: positions from randomised self-play: ``--random-min``..``--random-max`` random
  opening plies, then each move by a ``--depth`` search with uniform noise (``--noise``, in
  hundredths of a disc) and, with probability ``--epsilon``, a random move instead; every
  position after the random plies down to ``--min-empties`` empties is written as
  ``own opponent`` (side to move first, hex), each position once.
* ``label``: per position, the exact final margin (native solver) at ``--solve-empties`` or
  fewer empty squares, else the value of a ``--depth`` search whose leaves are scored by the
  classic EVAL or by a pattern weights file (``--weights``; a TD-leaf style second round)
  and which searches to the end of the game from ``--exact-empties``. Output lines are
  ``own opponent label`` (label in discs, the side to move's view), the input of
  ``tools/tune_othello.py`` (fit with ``--bootstrap 0``: these labels are not game results).

    nice -n 10 .venv/bin/python -m tools.othello_label play --out /tmp/p.txt --games 4000 --seed 1
    nice -n 10 .venv/bin/python -m tools.othello_label label /tmp/p.txt --out /tmp/l.txt --depth 6
    nice -n 10 .venv/bin/python -m tools.othello_label label /tmp/p.txt --out /tmp/l2.txt --depth 6 \\
        --weights /tmp/round1.json

Both steps stop after ``--seconds`` and append, so a run can be continued (``label`` skips
the positions already in its output).
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import subprocess
import sysconfig
import tempfile
import time
from pathlib import Path
from typing import Any


from games.othello.bitboard import SQUARE_COUNT, flips, legal_moves_mask, squares_of
from games.othello.evaluation import DEFAULT_WEIGHT_VECTOR, PatternWeights, hand_to_native, parse_weights
from games.othello.exact import solve_exact
from games.othello.state import OthelloState
from games.weights import read_weights

SOURCE = Path(__file__).resolve().parent / "othello_label.c"
FAST_SOURCE = Path(__file__).resolve().parent.parent / "games" / "othello" / "_fast.c"


def build() -> Any:
    """The compiled ``othello_label`` module (rebuilt when either C source is newer)."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    target = Path(tempfile.gettempdir()) / "plyground-othello-label" / f"othello_label{suffix}"
    newest = max(path.stat().st_mtime for path in (SOURCE, FAST_SOURCE, FAST_SOURCE.with_name("_bitboard.h")))
    if not target.exists() or target.stat().st_mtime < newest:
        target.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["cc", "-O3", "-std=c11", "-shared", "-fPIC",
                        f"-I{sysconfig.get_paths()['include']}", str(SOURCE), "-o", str(target)],
                       check=True)
    spec = importlib.util.spec_from_file_location("othello_label", target)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_model(module: Any, weights_path: str) -> int:
    """Hand the EVAL of ``weights_path`` ("" = the classic defaults) to ``module``; the
    ``model`` number its searches take (0 classic, 1 pattern)."""
    model = parse_weights(read_weights(weights_path, "othello")) if weights_path else DEFAULT_WEIGHT_VECTOR
    hand_to_native(module, model)
    return 1 if isinstance(model, PatternWeights) else 0


def play(args: argparse.Namespace) -> int:
    module = build()
    model = load_model(module, args.weights)
    rng = random.Random(args.seed)
    seen: set[tuple[int, int]] = set()
    started = time.monotonic()
    games = written = 0
    with open(args.out, "a", encoding="ascii") as out:
        while games < args.games and time.monotonic() - started < args.seconds:
            state = OthelloState()
            own, opponent = state.own, state.opponent
            random_plies = rng.randint(args.random_min, args.random_max)
            ply = 0
            while True:
                moves = legal_moves_mask(own, opponent)
                if not moves:
                    if not legal_moves_mask(opponent, own):
                        break
                    own, opponent = opponent, own
                    continue
                empties = SQUARE_COUNT - (own | opponent).bit_count()
                if empties < args.min_empties:
                    break
                if ply < random_plies or rng.random() < args.epsilon:
                    square = rng.choice(squares_of(moves))
                else:
                    if (own, opponent) not in seen:
                        seen.add((own, opponent))
                        out.write(f"{own:x} {opponent:x}\n")
                        written += 1
                    values = module.root_values(own, opponent, args.depth, model, args.exact_empties)
                    square = max(values, key=lambda item: item[1] + rng.uniform(-args.noise, args.noise))[0]
                flipped = flips(own, opponent, square)
                own, opponent = opponent ^ flipped, own | flipped | 1 << square
                ply += 1
            games += 1
            if games % 200 == 0:
                out.flush()
                print(f"{games} games, {written} positions, {time.monotonic() - started:.0f} s", flush=True)
    print(f"done: {games} games, {written} positions, {time.monotonic() - started:.0f} s")
    return 0


def label(args: argparse.Namespace) -> int:
    module = build()
    model = load_model(module, args.weights)
    done: set[str] = set()
    if Path(args.out).exists():
        done = {" ".join(line.split()[:2]) for line in Path(args.out).read_text(encoding="ascii").splitlines()}
    lines = []
    for path in args.inputs:
        lines.extend(line.strip() for line in Path(path).read_text(encoding="ascii").splitlines() if line.strip())
    started = time.monotonic()
    count = nodes = 0
    with open(args.out, "a", encoding="ascii") as out:
        for line in lines:
            key = " ".join(line.split()[:2])
            if key in done:
                continue
            done.add(key)
            own_text, opponent_text = key.split()
            own, opponent = int(own_text, 16), int(opponent_text, 16)
            empties = SQUARE_COUNT - (own | opponent).bit_count()
            if empties <= args.solve_empties:
                value = float(solve_exact(own, opponent).score)
            else:
                hundredths, searched = module.search(own, opponent, args.depth, model, args.exact_empties)
                value = hundredths / 100.0
                nodes += searched
            out.write(f"{key} {value:g}\n")
            count += 1
            if count % 2000 == 0:
                out.flush()
                print(f"{count} labelled, {nodes} search nodes, {time.monotonic() - started:.0f} s", flush=True)
            if time.monotonic() - started > args.seconds:
                break
    print(f"done: {count} labelled, {nodes} search nodes, {time.monotonic() - started:.0f} s")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    play_parser = commands.add_parser("play", help="positions from randomised self-play")
    play_parser.add_argument("--out", required=True)
    play_parser.add_argument("--games", type=int, default=1_000_000)
    play_parser.add_argument("--seed", type=int, default=1)
    play_parser.add_argument("--depth", type=int, default=3)
    play_parser.add_argument("--noise", type=float, default=100.0)
    play_parser.add_argument("--epsilon", type=float, default=0.03)
    play_parser.add_argument("--random-min", type=int, default=2)
    play_parser.add_argument("--random-max", type=int, default=12)
    play_parser.add_argument("--min-empties", type=int, default=10)
    play_parser.add_argument("--exact-empties", type=int, default=8)
    label_parser = commands.add_parser("label", help="label positions by search / exact solve")
    label_parser.add_argument("inputs", nargs="+")
    label_parser.add_argument("--out", required=True)
    label_parser.add_argument("--depth", type=int, default=6)
    label_parser.add_argument("--solve-empties", type=int, default=16)
    label_parser.add_argument("--exact-empties", type=int, default=10)
    for sub in (play_parser, label_parser):
        sub.add_argument("--weights", default="", help="pattern weights file for the leaves (default: classic)")
        sub.add_argument("--seconds", type=float, default=1100.0)
    args = parser.parse_args(argv)
    return play(args) if args.command == "play" else label(args)


if __name__ == "__main__":
    raise SystemExit(main())
