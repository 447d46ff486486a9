"""Move-generator speed: perft nodes per second for every game.

Run: ``.venv/bin/python -m bench.perft_speed [--repeat N]``. Prints, per game, the leaf
count (checked against the literature), the median wall time of N runs and leaves/s.
Targets on the shared 2-core box: Othello perft(8) < 1 s, checkers perft(8) < 2 s.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any


from games import CHANCE, GameState, new_game

EXPECTED = {
    ("chess", 4): 197_281,
    ("checkers", 8): 845_931,
    ("othello", 8): 390_216,
    ("tictactoe", 9): 127_872,
}
BACKGAMMON_POSITIONS = 200
"""Random mid-game backgammon positions (with dice) whose distinct plays are counted."""


def backgammon_positions(count: int, seed: int = 2026) -> list[GameState]:
    """Positions with the dice rolled, taken along seeded random games."""
    rng = random.Random(seed)
    positions: list[GameState] = []
    state = new_game("backgammon")
    while len(positions) < count:
        if state.is_terminal():
            state = new_game("backgammon")
        if state.to_move() == CHANCE:
            outcomes = state.chance_outcomes()
            state.play(rng.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0])
            if state.to_move() != CHANCE and not state.is_terminal():
                positions.append(state.copy())
        else:
            state.play(rng.choice(state.legal_moves()))
    return positions


def timed(work: Callable[[Any], int], repeat: int, prepare: Callable[[], Any] = lambda: None) -> tuple[int, float]:
    """(result, median seconds) of ``repeat`` runs of ``work(prepare())``; ``prepare`` is untimed."""
    times: list[float] = []
    result = 0
    for _ in range(repeat):
        prepared = prepare()
        started = time.perf_counter()
        result = work(prepared)
        times.append(time.perf_counter() - started)
    return result, statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement (median)")
    args = parser.parse_args()
    print(f"{'game':<12}{'depth':>6}{'leaves':>12}{'median s':>10}{'leaves/s':>12}  check")
    for (game, depth), expected in EXPECTED.items():
        state = new_game(game)
        leaves, seconds = timed(lambda _: state.perft(depth), args.repeat)
        verdict = "ok" if leaves == expected else f"WRONG (expected {expected})"
        print(f"{game:<12}{depth:>6}{leaves:>12,}{seconds:>10.3f}{leaves / seconds:>12,.0f}  {verdict}")
    # A backgammon state caches its legal plays, so every run gets fresh states parsed from
    # the position texts (untimed): otherwise runs after the first would only hit the cache.
    texts = [position.to_text() for position in backgammon_positions(BACKGAMMON_POSITIONS)]
    plays, seconds = timed(
        lambda states: sum(state.perft(1) for state in states),
        args.repeat,
        prepare=lambda: [new_game("backgammon", text) for text in texts],
    )
    print(
        f"{'backgammon':<12}{1:>6}{plays:>12,}{seconds:>10.3f}{plays / seconds:>12,.0f}"
        f"  ({BACKGAMMON_POSITIONS} random positions; {seconds / BACKGAMMON_POSITIONS * 1e3:.2f} ms each)"
    )


if __name__ == "__main__":
    main()
