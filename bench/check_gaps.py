"""CPU time between two checks of the clock and the stop flag (``ai.control.SearchControl``),
per game and algorithm, and the garbage collector's pauses during the same searches.

A stop request is seen at the next check, so the longest gap bounds the stop latency, and
the ``Progress`` heartbeat can only tick at a check. ``--ballast N`` first builds N small
objects, the heap of a long test session or an application, whose full collections are
what the searches' ``gc.freeze`` keeps out of them.

Run: ``.venv/bin/python -m bench.check_gaps [--seconds 1.5] [--ballast 0]``.
"""

from __future__ import annotations

import argparse
import gc
import time


import ai.control as control
from ai.engine import search
from ai.settings import Limits, SearchSettings
from games import new_game
from tests.ai.test_stop import backgammon_midgame

CASES = [
    ("chess", dict(algorithm="mcts")),
    ("chess", dict(algorithm="mcts", playout="eval")),
    ("chess", dict(algorithm="pvs")),
    ("checkers", dict(algorithm="mcts")),
    ("othello", dict(algorithm="mcts")),
    ("backgammon", dict(algorithm="mcts")),
    ("backgammon", dict(algorithm="mcts", playout="eval")),
    ("backgammon", dict(algorithm="star2")),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.5)
    parser.add_argument("--ballast", type=int, default=0)
    args = parser.parse_args()
    ballast = [[index] for index in range(args.ballast)]
    pauses: list[tuple[int, float]] = []
    started = [0.0]

    def on_collection(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[0] = time.process_time()
        else:
            pauses.append((info["generation"], time.process_time() - started[0]))

    gc.callbacks.append(on_collection)
    checks: list[float] = []
    real_check = control.SearchControl.check

    def timed_check(self: control.SearchControl) -> None:
        checks.append(time.process_time())
        real_check(self)

    control.SearchControl.check = timed_check  # type: ignore[method-assign]
    print(f"ballast {len(ballast)} objects; gaps in ms of CPU time, the first (set-up) left out")
    for game, switches in CASES:
        state = backgammon_midgame() if game == "backgammon" else new_game(game)
        checks.clear()
        pauses.clear()
        answer = search(state, SearchSettings(book=False, **switches), Limits(time=args.seconds))  # type: ignore[arg-type]
        gaps = sorted((later - earlier) * 1000 for earlier, later in zip(checks, checks[1:])) or [0.0]
        at = lambda share: gaps[min(len(gaps) - 1, int(share * len(gaps)))]  # noqa: E731
        name = " ".join([game, *(str(value) for value in switches.values())])
        longest_gc = max((pause for _, pause in pauses), default=0.0) * 1000
        print(
            f"{name:26s} nodes {answer.nodes:7d} checks {len(checks):4d}  median {at(0.5):5.1f}  p90 {at(0.9):5.1f}"
            f"  p99 {at(0.99):5.1f}  max {gaps[-1]:5.1f}  | collections {len(pauses):3d}, longest {longest_gc:5.1f}"
        )


if __name__ == "__main__":
    main()
