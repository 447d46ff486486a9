"""Training positions for the Othello pattern EVAL: randomised self-play, labelled exactly.

Each game starts with ``--random-plies`` (a random number in a range) uniformly random moves,
so that games differ, then both sides play a small alpha-beta search (``--depth`` plies on the
shipped EVAL, with a little random noise to break ties). When ``--solve-empties`` squares are
left the position is solved exactly (``games.othello.solver``), and the rest of the game is
played perfectly. Every position from the first searched move to the end is written out with
its label, the exact final margin reached from it (side to move's view):

* from the solve on, the label is the exact value of the position (perfect play);
* before it, the exact value of the solved position the game went on to (so the label is the
  result of this game with a perfect finish: the midgame play between is only as good as the
  small search, which is the noise that many games average out).

Output: one line a position, ``own opponent label`` (bitboards of the side to move and of the
other side as hex, the margin as an int). Run under ``nice`` with a time limit; it appends,
so several runs (other seeds) may share a file::

    nice -n 10 .venv/bin/python -m tools.othello_selfplay --out /tmp/othello_positions.txt \\
        --seconds 1100 --seed 1
"""

from __future__ import annotations

import argparse
import random
import time


from games.othello.bitboard import SQUARE_COUNT, Bitboard, final_margin, flips, legal_moves_mask
from games.othello.solver import EndgameSolver
from games.othello.state import OthelloState

INFINITY = 1 << 30


def _squares(mask: Bitboard) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def negamax(own: Bitboard, opponent: Bitboard, depth: int, alpha: float, beta: float,
            evaluate, passed: bool = False) -> float:
    """Plain fail-soft alpha-beta on bitboards; ``evaluate(own, opponent, own_moves)``."""
    moves = legal_moves_mask(own, opponent)
    if not moves:
        if passed or not legal_moves_mask(opponent, own):
            return 100.0 * final_margin(own, opponent)
        return -negamax(opponent, own, depth, -beta, -alpha, evaluate, True)
    if depth == 0:
        return evaluate(own, opponent, moves)
    best = -INFINITY
    for square in _squares(moves):
        flipped = flips(own, opponent, square)
        value = -negamax(opponent ^ flipped, own | flipped | 1 << square, depth - 1, -beta,
                         -alpha, evaluate)
        if value > best:
            best = value
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    return best


def choose(own: Bitboard, opponent: Bitboard, depth: int, noise: float, rng: random.Random,
           evaluate) -> int:
    best_value, best_square = -INFINITY, -1
    for square in _squares(legal_moves_mask(own, opponent)):
        flipped = flips(own, opponent, square)
        value = -negamax(opponent ^ flipped, own | flipped | 1 << square, depth - 1,
                         -INFINITY, INFINITY, evaluate) + rng.uniform(-noise, noise)
        if value > best_value:
            best_value, best_square = value, square
    return best_square


def play_game(rng: random.Random, args: argparse.Namespace, evaluate) -> list[tuple[int, int, int]]:
    own, opponent = OthelloState().own, OthelloState().opponent
    random_plies = rng.randint(args.random_min, args.random_max)
    ply = 0
    recorded: list[tuple[int, int, int]] = []  # (own, opponent, sign relative to the solved side)
    sign = 1
    while True:
        moves = legal_moves_mask(own, opponent)
        if not moves:
            if not legal_moves_mask(opponent, own):
                return [(o, p, s * sign * final_margin(own, opponent)) for o, p, s in recorded]
            own, opponent, sign = opponent, own, -sign
            continue
        empties = SQUARE_COUNT - (own | opponent).bit_count()
        if empties <= args.solve_empties:
            break
        if ply >= random_plies:
            recorded.append((own, opponent, sign))
            square = choose(own, opponent, args.depth, args.noise, rng, evaluate)
        else:
            square = rng.choice(_squares(moves))
        flipped = flips(own, opponent, square)
        own, opponent = opponent ^ flipped, own | flipped | 1 << square
        sign = -sign
        ply += 1
    solver = EndgameSolver()
    result = solver.solve(own, opponent)
    value = result.score
    labelled = [(o, p, s * sign * value) for o, p, s in recorded]
    # The perfect finish: every position on it has the solved value (from its mover's view).
    mover_sign = 1
    while result.best_move is not None:
        labelled.append((own, opponent, mover_sign * value))
        if result.best_move != SQUARE_COUNT:
            flipped = flips(own, opponent, result.best_move)
            own, opponent = opponent ^ flipped, own | flipped | 1 << result.best_move
        else:
            own, opponent = opponent, own
        mover_sign = -mover_sign
        result = solver.solve(own, opponent)
    return labelled


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", required=True, help="file to append positions to")
    parser.add_argument("--seconds", type=float, default=600.0, help="stop after this long")
    parser.add_argument("--games", type=int, default=1_000_000, help="or after this many games")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--depth", type=int, default=2, help="search depth of the play")
    parser.add_argument("--noise", type=float, default=30.0, help="uniform noise (1/100 disc)")
    parser.add_argument("--random-min", type=int, default=4)
    parser.add_argument("--random-max", type=int, default=14)
    parser.add_argument("--solve-empties", type=int, default=12)
    parser.add_argument("--weights", default="", help="EVAL weights file for the play (default: shipped)")
    args = parser.parse_args(argv)
    if args.weights:
        OthelloState.set_weights_file(args.weights)  # type: ignore[attr-defined]
    probe = OthelloState()

    def evaluate(own: Bitboard, opponent: Bitboard, moves: Bitboard) -> float:
        probe.own, probe.opponent, probe._moves = own, opponent, moves
        return probe.evaluate(probe.player)

    rng = random.Random(args.seed)
    start = time.monotonic()
    games = positions = 0
    with open(args.out, "a", encoding="ascii") as out:
        while games < args.games and time.monotonic() - start < args.seconds:
            for own, opponent, label in play_game(rng, args, evaluate):
                out.write(f"{own:x} {opponent:x} {label}\n")
                positions += 1
            games += 1
            if games % 50 == 0:
                out.flush()
                print(f"{games} games, {positions} positions, {time.monotonic() - start:.0f} s",
                      flush=True)
    print(f"done: {games} games, {positions} positions, {time.monotonic() - start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
