"""Cost of the Othello EVAL models: microseconds an evaluation, and a fixed-depth search's
nodes, nodes/s and time with each weights file.

    .venv/bin/python -m bench.othello_eval_speed
    .venv/bin/python -m bench.othello_eval_speed --weights resources/weights/othello_classic.json \\
        resources/weights/othello.json --depth 8

Evaluation times are CPU time (``time.process_time``) over positions from seeded random
games (10-44 plies in), so a loaded machine inflates them less than wall time; the search
numbers are the engine's own (wall time). Note ``uptime`` beside the numbers.
"""

from __future__ import annotations

import argparse
import random
import time


from ai.engine import clear_memory, run_search
from ai.settings import Limits, SearchRequest, SearchSettings
from games.othello import evaluation
from games.othello.state import OthelloState
from games.weights import read_weights

LINES = (
    "f5 d6 c3 d3 c4 f4 c5 b3 c2 e6 c6 b4",
    "f5 f6 e6 f4 e3 c5 c4 d3",
)


def sample_positions(count: int, seed: int = 1) -> list[tuple[int, int, int]]:
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        state = OthelloState()
        for _ in range(rng.randint(10, 44)):
            moves = state.legal_moves()
            if not moves:
                break
            state.play(rng.choice(moves))
        if not state.is_terminal():
            positions.append((state.own, state.opponent, state.moves_mask()))
    return positions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--weights", nargs="+",
                        default=["resources/weights/othello_classic.json", "resources/weights/othello.json"])
    parser.add_argument("--depth", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args(argv)
    positions = sample_positions(200)
    for path in args.weights:
        OthelloState.set_weights(read_weights(path, "othello"))
        evaluate = evaluation.evaluate_to_move
        for own, opponent, moves in positions:  # build the tables of every phase first
            evaluate(own, opponent, moves)
        began = time.process_time()
        for _ in range(args.repeat):
            for own, opponent, moves in positions:
                evaluate(own, opponent, moves)
        micros = (time.process_time() - began) / (args.repeat * len(positions)) * 1e6
        print(f"{path}: {micros:.1f} us an evaluation (CPU)")
        for line in LINES:
            clear_memory("othello")  # no transposition table left over from another search
            finished = run_search(SearchRequest(
                game="othello", moves=tuple(line.split()),
                settings=SearchSettings(book=False, weights=str(path)), limits=Limits(depth=args.depth)))
            print(f"  depth {args.depth} after {line}: {finished.nodes} nodes, "
                  f"{finished.nps:.0f} nodes/s, {finished.time:.2f} s")
    OthelloState.set_weights(None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
