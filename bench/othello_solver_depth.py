"""How many empties the exact solver settles in play time: the measurement behind
``games.othello.exact.NATIVE_SOLVER_EMPTIES`` (the engine's default ``solver_empties``).

Run: ``.venv/bin/python -m bench.othello_solver_depth [--games 24 --empties 16,18,20,22,24]``.
Positions come from seeded games of a greedy player (one ply of the app's evaluation, the
first 10 plies random): one position per game at each listed number of empties. Each is
solved with an empty table; we print the median, 90th percentile and maximum CPU time per
number of empties (CPU time, since the machine is shared: wall time is CPU time times the
load), with the solver that ``games.othello.exact`` picks.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time


from games.othello import OthelloState, exact

RANDOM_PLIES = 10


def greedy_game(seed: int, wanted: set[int]) -> dict[int, tuple[int, int]]:
    """{empties: (own, opponent)} from one seeded greedy game."""
    rng = random.Random(seed)
    state = OthelloState.initial()
    found: dict[int, tuple[int, int]] = {}
    ply = 0
    while not state.is_terminal():
        if state.empties() in wanted and state.empties() not in found:
            found[state.empties()] = (state.own, state.opponent)
        moves = state.legal_moves()
        if ply < RANDOM_PLIES or len(moves) == 1:
            move = rng.choice(moves)
        else:
            mover = state.to_move()
            scored = []
            for candidate in moves:
                state.play(candidate)
                scored.append((state.evaluate(mover) + rng.random(), candidate))
                state.undo()
            move = max(scored)[1]
        state.play(move)
        ply += 1
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--empties", default="16,18,20,22,24")
    args = parser.parse_args()
    wanted = {int(value) for value in args.empties.split(",")}
    positions: dict[int, list[tuple[int, int]]] = {empties: [] for empties in wanted}
    for seed in range(args.games):
        for empties, position in greedy_game(seed, wanted).items():
            positions[empties].append(position)
    print(f"solver: {exact.SOLVER_BACKEND}; load average {os.getloadavg()[0]:.2f}")
    print(f"{'empties':>8}{'positions':>10}{'median s':>10}{'90% s':>9}{'max s':>9}{'max nodes':>14}")
    for empties in sorted(wanted):
        times, most_nodes = [], 0
        for own, opponent in positions[empties]:
            if exact.NATIVE:
                exact.native_solver().clear()
            started = time.process_time()
            result = exact.solve_exact(own, opponent)
            times.append(time.process_time() - started)
            most_nodes = max(most_nodes, result.nodes)
        times.sort()
        ninety = times[min(len(times) - 1, int(0.9 * len(times)))]
        print(f"{empties:>8}{len(times):>10}{statistics.median(times):>10.3f}{ninety:>9.3f}{max(times):>9.3f}"
              f"{most_nodes:>14,}", flush=True)
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
