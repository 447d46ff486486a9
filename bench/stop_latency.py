"""Stop latency on the wall clock: from a stop request to the search's answer, in process.

The tests (``tests/ai/test_stop.py``) check the engine's budget of 100 ms in CPU time, which
other jobs on the machine cannot stretch; this prints what a user waits, on the wall clock,
for the same positions and algorithms (the median and the worst of ``--runs``). On a loaded
machine the wall-clock numbers grow with the load: compare runs on a quiet one.

Run: ``.venv/bin/python -m bench.stop_latency [--runs 5]``.
"""

from __future__ import annotations

import argparse
import statistics
import time


from ai.settings import SearchSettings
from games import GameState, new_game
from tests.ai.test_stop import STOP_BUDGET, backgammon_midgame, othello_with_empties, stop_latency

ITALIAN = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"


def cases() -> list[tuple[str, GameState, SearchSettings]]:
    """The positions and algorithms of the stop tests."""
    rows = [("othello 22 empties, solver", othello_with_empties(22), SearchSettings(algorithm="pvs", solver_empties=22, book=False))]
    for algorithm in ("alphabeta", "pvs", "mtdf", "minimax", "mcts"):
        rows.append((f"chess Italian, {algorithm}", new_game("chess", ITALIAN), SearchSettings(algorithm=algorithm, book=False)))
    for algorithm in ("expectiminimax", "star1", "star2", "mcts"):
        rows.append((f"backgammon midgame, {algorithm}", backgammon_midgame(), SearchSettings(algorithm=algorithm, book=False)))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="stops measured per case")
    arguments = parser.parse_args()
    print(f"stop latency, wall clock, ms (budget {STOP_BUDGET * 1000:.0f}); {arguments.runs} runs per case")
    print(f"{'case':<34}{'median':>8}{'worst':>8}")
    for name, state, settings in cases():
        latencies = [stop_latency(state.copy(), settings, clock=time.perf_counter)[0] for _ in range(arguments.runs)]
        print(f"{name:<34}{statistics.median(latencies) * 1000:>8.1f}{max(latencies) * 1000:>8.1f}")


if __name__ == "__main__":
    main()
