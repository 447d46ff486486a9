"""How long past its time limit a clocked search answers through the engine pool.

Run: ``.venv/bin/python -m bench.timing_overhead [--repeats 5]``.
The app's computer plays from its clock with ``Limits(time=T, from_clock=True)`` on the
engine pool (``ai.parallel.EnginePool``, worker processes). Between the clock's start and the
move coming back the pool adds its own time: the request's way to a worker, the search's last
poll of its deadline, the answer's way back. This measures that overshoot (wall time from
submit to ``Finished``, less T) for every game's default algorithm (and chess's compiled
search) at several T from a position after a few seeded random plies; ``ai.timing.POOL_OVERHEAD``
keeps at least the largest overshoot back on every move, so a move never flags.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from ai.parallel import EnginePool
from ai.settings import Limits, SearchRequest, SearchSettings
from games import CHANCE, GAME_NAMES, get_game, new_game

TIMES = (0.05, 0.1, 0.2, 0.5)
"""The time limits measured (seconds): short ones are where the overhead matters."""
PLAYOUT_PLIES = 10
"""Random plies played from the start before measuring (out of the opening book)."""


def start_position(game: str, seed: int) -> tuple[str, tuple[str, ...]]:
    """The start text and up to ``PLAYOUT_PLIES`` random moves (dice included) from it,
    stopping before a move that would end the game: a position with a move to search."""
    generator = random.Random(seed)
    state = new_game(game)
    names: list[str] = []
    for _ in range(PLAYOUT_PLIES):
        if state.to_move() == CHANCE:
            outcomes, weights = zip(*state.chance_outcomes())
            move = generator.choices(outcomes, weights)[0]
        else:
            move = generator.choice(state.legal_moves())
        name = state.move_name(move)
        state.play(move)
        if state.is_terminal():
            break
        names.append(name)
    return new_game(game).to_text(), tuple(names)


def overshoots(pool: EnginePool, game: str, algorithm: str, repeats: int) -> list[float]:
    """Wall time less the limit, for every (T, repeat)."""
    found = []
    for seconds in TIMES:
        for repeat in range(repeats):
            position, moves = start_position(game, repeat)
            request = SearchRequest(
                game=game,
                position=position,
                moves=moves,
                settings=SearchSettings(algorithm=algorithm, book=False),
                limits=Limits(time=seconds, from_clock=True),
            )
            began = time.perf_counter()
            finished = pool.answer(request, lambda event: None)
            found.append(time.perf_counter() - began - seconds)
            if finished.error is not None:
                raise RuntimeError(finished.error)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    arguments = parser.parse_args()
    pool = EnginePool(workers=1)
    try:
        for game in GAME_NAMES:  # the worker's start and each game's first import are not a move's
            overshoots(pool, game, get_game(game).DEFAULT_ALGORITHM, 1)
        rows = [(game, get_game(game).DEFAULT_ALGORITHM) for game in GAME_NAMES] + [("chess", "native")]
        print(f"{'game':<12}{'algorithm':<16}{'median s':>10}{'max s':>10}  (overshoot past T in {TIMES})")
        worst = 0.0
        for game, algorithm in rows:
            values = overshoots(pool, game, algorithm, arguments.repeats)
            worst = max(worst, max(values))
            print(f"{game:<12}{algorithm:<16}{statistics.median(values):>10.3f}{max(values):>10.3f}", flush=True)
        print(f"largest overshoot: {worst:.3f} s")
    finally:
        pool.shutdown()


if __name__ == "__main__":
    main()
