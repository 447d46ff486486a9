"""Tic-tac-toe levels by their rate of perfect play: the share of moves that keep the
game-theoretic value, judged by a full solve.

Tic-tac-toe is a draw with best play (every game between two perfect players is drawn), so
no Elo scale can tell its levels apart: a level is measured by how often its move keeps the
value of the position it was played in. The judge is a plain negamax over the whole game
tree written here (no code of the engine): the value of every reachable position, and for
each position the moves that keep it ("optimal").

Each level answers once in each of a fixed seeded sample of the reachable positions where
the side to move has a choice that matters, the *critical* positions (at least one move
lowers the value: a won game thrown to a draw or a loss, a draw thrown to a loss; 3,191 of
the 4,520 positions with a move to make); in the other positions every move is perfect and
a level cannot err. The rate is the share of sampled positions where the level's move was
optimal, with Wilson's 95% score interval (Wilson 1927, "Probable inference, the law of
succession, and statistical inference", JASA 22:209-212).

A level plays as ``level=N,cap=off`` (its node budget alone, as ``bench.levels`` plays every
level). Run: ``.venv/bin/python -m bench.tictactoe_perfect [--levels 1,2,...] [--sample 1000] [--seed 1]``
(``--sample 0``: every critical position); the sample and a level's weakness draw from
``--seed``, so a run is reproduced exactly.
"""

from __future__ import annotations

import argparse
import gc
import math
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache

from ai.match.protocol import GameHistory, Player
from ai.match.stats import Z_95
from ai.settings import Limits
from games import new_game
from games.tictactoe import LINES, TicTacToeState

GAME = "tictactoe"
REACHABLE_POSITIONS = 5478
"""Positions reachable from the empty board, terminal ones included (a classic count,
e.g. Schaeffer's game-complexity tables: 5,478 legal positions); checked when enumerated."""
GC_EVERY = 10
"""Positions between two full garbage collections: a finished search's node functions refer
to themselves, so the table of a game dropped by ``new_game`` lives until one."""


def _wins(mask: int) -> bool:
    return any(mask & line == line for line in LINES)


@cache
def solved_value(own: int, other: int) -> int:
    """The value of the position for the side to move, whose marks are ``own``: +1 a win,
    0 a draw, -1 a loss, with best play by both (negamax over the whole tree)."""
    if _wins(other):
        return -1
    empty = ~(own | other) & 0b111_111_111
    if not empty:
        return 0
    best = -1
    for square in range(9):
        if empty >> square & 1:
            best = max(best, -solved_value(other, own | 1 << square))
            if best == 1:
                break
    return best


def optimal_moves(state: TicTacToeState) -> frozenset[int]:
    """The moves of ``state`` that keep its solved value."""
    own, other = state.masks[state.player], state.masks[1 - state.player]
    value = solved_value(own, other)
    return frozenset(move for move in state.legal_moves() if -solved_value(other, own | 1 << move) == value)


@dataclass(frozen=True)
class Position:
    """A reachable position and one line of moves from the empty board to it."""

    state: TicTacToeState
    line: tuple[str, ...]

    @property
    def is_critical(self) -> bool:
        """Some move lowers the value here: a level can err."""
        return len(optimal_moves(self.state)) < len(self.state.legal_moves())


def reachable_positions() -> list[Position]:
    """Every position reachable from the empty board (once each, by the first line found,
    in a fixed order), terminal ones included."""
    seen: dict[tuple[int, int], Position] = {}

    def walk(state: TicTacToeState, line: tuple[str, ...]) -> None:
        key = (state.masks[0], state.masks[1])
        if key in seen:
            return
        seen[key] = Position(state.copy(), line)
        for move in state.legal_moves():
            name = state.move_name(move)
            state.play(move)
            walk(state, (*line, name))
            state.undo()

    start = new_game(GAME)
    assert isinstance(start, TicTacToeState)
    walk(start, ())
    return list(seen.values())


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """Wilson's score interval of a proportion ``successes / trials`` (95% by default)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class PerfectPlay:
    """One level's answers: its optimal moves among the critical positions."""

    level: int
    critical_optimal: int
    critical: int
    seconds: float

    @property
    def rate(self) -> float:
        return self.critical_optimal / self.critical if self.critical else 1.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.critical_optimal, self.critical)


def critical_sample(positions: Sequence[Position], size: int, seed: int) -> list[Position]:
    """``size`` of the critical positions (all of them for 0), drawn with ``seed``."""
    critical = [p for p in positions if not p.state.is_terminal() and p.is_critical]
    if size <= 0 or size >= len(critical):
        return critical
    return random.Random(seed).sample(critical, size)


def measure(level: int, player: Player, positions: Sequence[Position], limits: Limits) -> PerfectPlay:
    """Ask ``player`` once in each critical position (each a new game, so its weakness
    draws afresh from its seed); count its optimal answers."""
    start = new_game(GAME).to_text()
    critical_optimal = critical = 0
    started = time.process_time()
    for position in positions:
        state = position.state
        if state.is_terminal() or not position.is_critical:
            continue
        player.new_game(state.copy())
        move = player.choose(state.copy(), GameHistory(start, list(position.line)), limits)
        critical += 1
        critical_optimal += move in optimal_moves(state)
        if critical % GC_EVERY == 0:
            gc.collect()  # each new game's table (64 MB) is held by the finished search's cycles
    return PerfectPlay(level, critical_optimal, critical, time.process_time() - started)


def format_row(result: PerfectPlay) -> str:
    low, high = result.interval
    return (
        f"level {result.level:2}  critical {result.critical_optimal:4}/{result.critical:4} = "
        f"{100 * result.rate:5.1f}% (95%: {100 * low:5.1f} .. {100 * high:5.1f})   "
        f"[{result.seconds:.1f} s CPU]"
    )


def run(levels: Sequence[int], make: Callable[[int], Player], limits: Limits, sample: int = 0,
        seed: int = 1) -> Iterator[PerfectPlay]:
    positions = reachable_positions()
    if len(positions) != REACHABLE_POSITIONS:
        raise SystemExit(f"found {len(positions)} reachable positions, not {REACHABLE_POSITIONS}: the walk is wrong")
    positions = critical_sample(positions, sample, seed)
    for level in levels:
        player = make(level)
        try:
            yield measure(level, player, positions, limits)
        finally:
            player.close()


def main(argv: Sequence[str] | None = None) -> int:
    from ai.levels import LEVELS
    from ai.match.players import make_player

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default=None, help="comma-separated level numbers (default: all)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the sample and of a level's chance (its weakness)")
    parser.add_argument("--sample", type=int, default=1000, help="critical positions asked (0: all 3,191)")
    parser.add_argument("--record", action="store_true", help="store the rates in bench/levels_results.json (bench.levels)")
    args = parser.parse_args(argv)
    numbers = [level.number for level in LEVELS]
    try:
        levels = [int(text) for text in args.levels.split(",")] if args.levels else numbers
    except ValueError:
        parser.error(f"--levels: give level numbers separated by commas, not {args.levels!r}")
    unknown = sorted(set(levels) - set(numbers))
    if unknown:
        parser.error(f"--levels: no level {unknown[0]}; the levels are {numbers[0]}-{numbers[-1]}")
    limits = Limits(time=10.0)  # a level=N player keeps its own limits; this is only the fallback
    positions = reachable_positions()
    critical = sum(p.is_critical for p in positions if not p.state.is_terminal())
    print(f"tic-tac-toe: {len(positions)} reachable positions, {sum(not p.state.is_terminal() for p in positions)} "
          f"with a move to make, {critical} critical (a move there can lower the value); asking "
          f"{min(critical, args.sample or critical)}", flush=True)
    results = []
    if args.sample < 0:
        parser.error("--sample: 0 (every critical position) or more")
    for result in run(levels, lambda n: make_player(f"level={n},cap=off", GAME, seed=args.seed), limits, args.sample, args.seed):
        print(format_row(result), flush=True)
        results.append(result)
    if args.record:
        from bench.levels import record_perfect

        record_perfect(results, args.sample, args.seed)
        print("recorded in bench/levels_results.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
