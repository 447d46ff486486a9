"""The computer's time for a move from its clock, as a UCI engine manages ``wtime``/``winc``.

A clock gives a side ``remaining`` seconds and an ``increment`` per move; the game says how
many more moves the side expects to make (``GameState.expected_moves_left``: Othello's empty
squares exactly, tic-tac-toe's too, chess by the moves played, checkers by the pieces,
backgammon by the pip count). The time manager shares the clock out over them, less a
reserve for a game that runs longer than expected:

    share = (remaining - reserve) / moves_left + INCREMENT_SHARE x increment
    reserve = RESERVE_MOVES x (MIN_MOVE_SECONDS + POOL_OVERHEAD)

and gives the search two limits (the usual soft/hard pair of engine time managers):

* the **hard** limit ``min(share, MAX_SHARE_OF_CLOCK x remaining) - POOL_OVERHEAD`` (at least
  ``MIN_MOVE_SECONDS``): the search stops there whatever it is doing;
* the **soft** limit ``SOFT_TIME_FRACTION x hard`` (half): no new iteration of iterative
  deepening starts after it, since the next would take several times longer and be cut off
  unfinished. ``Limits(time=hard, from_clock=True)`` carries both: the deepening loop derives
  the soft limit from the hard one (``ai.iterative.soft_deadline``).

``POOL_OVERHEAD`` is the engine pool's own time per move, measured: from the clock's start to
the move coming back (the request reaching a worker process, the search's last poll of its
deadline, the answer's way back) less the search's limit, by ``python -m bench.timing_overhead``.
Even a search that uses its whole hard limit and the whole overhead then costs at most the
equal share, and never more than half the clock: the clock shrinks geometrically towards the
reserve, and at the floor the reserve pays for ``RESERVE_MOVES`` more moves in that worst
case, many more with the overhead measured typically. At 1+0 a chess game of 100 moves a side
never flags even if every move costs the worst case, and random games of every game played to
their end never flag with the typical overhead (``tests/ai/test_timing.py``, on a fake clock).

``time_for_move`` is the UCI front end's rule (``go wtime ... movestogo``), unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from games.base import GameState

from ai.iterative import SOFT_TIME_FRACTION
from ai.settings import Limits

MOVES_TO_GO_DEFAULT: Final = 30
"""Without ``movestogo`` (and when the game cannot say) assume this many moves remain."""
MOVE_OVERHEAD: Final = 0.05
"""Seconds a UCI answer keeps back per move for process and pipe latency."""
MIN_MOVE_SECONDS: Final = 0.01
"""The least time a timed move gets (a movetime or clock share smaller than the overhead)."""
MAX_SHARE_OF_CLOCK: Final = 0.5
"""Never spend more than this share of the remaining clock on one move."""
INCREMENT_SHARE: Final = 0.8
"""Of the increment a move earns, this share is spent on the move (the rest builds a reserve)."""
POOL_OVERHEAD: Final = 0.2
"""Seconds kept back per move in the app for the engine pool's own time: more than the
largest overshoot of a clocked search that ``bench.timing_overhead`` measured (submit to
answer, less the time limit): 0.171 s (backgammon's Star2; chess and the others at most
0.042 s, every median below 0.002 s), with the machine's two cores shared by about ten busy
processes. Whole games on the pool at 20-30 s a side (Othello, chess's compiled search,
checkers, backgammon) overshot by at most 0.129 s after the first moves, and never flagged. A
worker's first search also loads the game (0.26-0.79 s seen): in a new game that is the
untimed first move (``games.clock``)."""
RESERVE_MOVES: Final = 20
"""Moves' worth of the most a move at the floor can cost (``MIN_MOVE_SECONDS`` plus the
overhead) kept back from sharing out, for a game that runs longer than its estimate (4.2 s of
a 1+0 minute)."""
MIN_MOVES_LEFT: Final = 1.0
"""A game's estimate is read as at least one move (the move being chosen)."""


def time_for_move(remaining: float, increment: float, moves_to_go: int | None) -> float:
    """Seconds to think from a clock: an equal share of what is left plus most of the
    increment, capped so a single move can never flag."""
    remaining, increment = max(0.0, remaining), max(0.0, increment)
    share = remaining / (moves_to_go if moves_to_go and moves_to_go > 0 else MOVES_TO_GO_DEFAULT) + INCREMENT_SHARE * increment
    return max(MIN_MOVE_SECONDS, min(share, remaining * MAX_SHARE_OF_CLOCK) - MOVE_OVERHEAD)


@dataclass(frozen=True)
class MoveBudget:
    """The time of one move from the clock: ``soft`` (no new iteration after it) and ``hard``
    (the search stops); ``hard`` plus ``POOL_OVERHEAD`` is at most the equal share and half
    the clock (above the floor of ``MIN_MOVE_SECONDS``)."""

    soft: float
    hard: float

    def limits(self) -> Limits:
        """The search's limits: the hard stop, with the soft one derived by the deepening loop."""
        return Limits(time=self.hard, from_clock=True)


def moves_left(state: GameState) -> float:
    """How many more moves the side to move expects to make (the game's own estimate, or
    ``MOVES_TO_GO_DEFAULT`` when it has none)."""
    estimate = state.expected_moves_left()
    return MOVES_TO_GO_DEFAULT if estimate is None else max(MIN_MOVES_LEFT, estimate)


def move_budget(remaining: float, increment: float, moves: float, overhead: float = POOL_OVERHEAD) -> MoveBudget:
    """The budget of a move with ``remaining`` seconds on the clock, ``increment`` earned
    by the move, ``moves`` still to make (this one included) and ``overhead`` seconds
    between the clock and the search (see the module's docstring)."""
    remaining, increment = max(0.0, remaining), max(0.0, increment)
    reserve = RESERVE_MOVES * (MIN_MOVE_SECONDS + overhead)
    share = max(0.0, remaining - reserve) / max(MIN_MOVES_LEFT, moves) + INCREMENT_SHARE * increment
    hard = max(MIN_MOVE_SECONDS, min(share, remaining * MAX_SHARE_OF_CLOCK) - overhead)
    return MoveBudget(soft=SOFT_TIME_FRACTION * hard, hard=hard)


def clock_budget(state: GameState, remaining: float, increment: float) -> MoveBudget:
    """``move_budget`` for the side to move in ``state`` with ``remaining`` seconds and
    ``increment`` per move."""
    return move_budget(remaining, increment, moves_left(state))


def clock_limits(state: GameState, remaining: float, increment: float, level: Limits | None = None) -> Limits:
    """The limits of a computer's move from its clock: ``clock_budget``'s, within a level's
    own (its depth and nodes kept; its time, when shorter, kept as a fixed time a move)."""
    budget = clock_budget(state, remaining, increment)
    if level is None:
        return budget.limits()
    if level.time is not None and level.time <= budget.hard:
        return level
    return Limits(depth=level.depth, time=budget.hard, from_clock=True, nodes=level.nodes)
