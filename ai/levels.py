"""The engine's named strengths, levels 1-10: one table for the app and the match runner.

A level is a depth and a time cap per move and, at the lowest levels, *noise*: only a random
share of the root moves is searched (``SearchRequest.root_moves``), so the engine misses
some good moves and a beginner can win. The time cap keeps every level playable in every
game (a depth that is instant in tic-tac-toe takes long in backgammon).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from ai.settings import Limits
from games.base import CHANCE, GameState


@dataclass(frozen=True)
class Level:
    """A named strength: a depth and a time cap, and the share of root moves searched."""

    number: int
    name: str
    depth: int | None
    """``None``: as deep as the time allows."""
    seconds: float
    root_share: float
    """1.0: every root move is searched; less: a random part of them (the noise)."""


LEVELS: tuple[Level, ...] = (
    Level(1, "Beginner", 1, 0.3, 0.25),
    Level(2, "Novice", 1, 0.4, 0.45),
    Level(3, "Casual", 2, 0.5, 0.7),
    Level(4, "Club", 2, 0.6, 1.0),
    Level(5, "Strong club", 3, 1.0, 1.0),
    Level(6, "Expert", 4, 1.5, 1.0),
    Level(7, "Candidate master", 5, 2.0, 1.0),
    Level(8, "Master", 6, 3.0, 1.0),
    Level(9, "Grandmaster", 8, 5.0, 1.0),
    Level(10, "Full strength", None, 10.0, 1.0),
)
DEFAULT_LEVEL = 4


def level(number: int) -> Level:
    """Level ``number`` (1-10); ``ValueError`` names the range."""
    if not 1 <= number <= len(LEVELS):
        raise ValueError(f"levels are 1-{len(LEVELS)}, not {number}")
    return LEVELS[number - 1]


# ------------------------------------------------------------ a typed depth's cost
DEPTH_TIME_CAP: Final = 10.0
"""Seconds a move searched to a typed depth ("Strength: Depth") may take at most: a depth
expected to take longer is capped (``plan_depth``), and the search stops here in any case."""

GROWTH_EXPONENTS: Final[dict[str, float]] = {
    "minimax": 1.0,
    "expectiminimax": 1.0,
    "alphabeta": 0.75,
    "pvs": 0.7,
    "mtdf": 0.7,
    "star1": 0.95,
    "star2": 0.8,
}
"""Per algorithm, the exponent ``e`` of the branching ``b**e`` it searches at each decision
ply: 1 for a full-width tree; alpha-beta with perfect ordering reaches 0.5 (Knuth & Moore
1975), real ordering 0.7-0.75. Star1/Star2 prune only at chance nodes: measured on
backgammon at 2 plies, Star1 visits 0.6-0.8 and Star2 0.15-0.35 of expectiminimax's nodes.
Algorithms without a depth (MCTS) or not searched in Python (the compiled search) are
absent: no estimate."""

NODE_OVERHEAD: Final = 1.5
"""A searched node costs about this many times a leaf's play, EVAL and undo (the node's
own bookkeeping and move generation)."""


DETERMINISTIC_ESTIMATE_MARGIN: Final = 30.0
"""How far an estimate may exceed the cap before a game without dice searches a shallower
depth: measured at the start positions, the estimates ran 30 times high for chess's PVS at
depth 5 and 10 times low for Othello's at depth 6 (``plan_depth``)."""


def limits_for_depth(state: GameState, algorithm: str, depth: int) -> Limits:
    """The limits a move searched to a typed ``depth`` gets: the planned depth and the
    time cap as a hard stop, so no typed depth makes the computer think for long."""
    leaf = _LEAF_SECONDS_BY_GAME.get(state.NAME)
    if leaf is None:
        leaf = _LEAF_SECONDS_BY_GAME[state.NAME] = leaf_seconds(state)
    plan = plan_depth(state, algorithm, depth, seconds_per_leaf=leaf)
    return Limits(depth=plan.depth, time=plan.time_cap)


_LEAF_SECONDS_BY_GAME: dict[str, float] = {}
"""A leaf's cost, measured once per game in this process (the caller may be a GUI thread:
a backgammon leaf after a dance looks a roll ahead, and eight of them take a while)."""


@dataclass(frozen=True)
class DepthPlan:
    """What a typed depth will search: the depth, capped when it cannot finish in time."""

    requested: int
    depth: int
    """The depth searched: ``requested``, or the deepest expected to finish within ``time_cap``."""
    expected_seconds: float | None
    """Expected time of ``depth`` (all its iterations); ``None``: no estimate."""
    requested_seconds: float | None
    """Expected time of ``requested``; ``None``: no estimate."""
    time_cap: float
    """The search stops here whatever the estimate said."""

    @property
    def is_capped(self) -> bool:
        return self.depth < self.requested


def leaf_seconds(state: GameState, samples: int = 8) -> float:
    """A quick measure of one leaf's cost in ``state``'s game: a root move played, EVAL read
    and the move taken back, the median over a few root moves (a few milliseconds)."""
    probe = state.copy()
    if probe.is_terminal():
        return 0.0
    player = probe.to_move()
    moves = probe.legal_moves()[:samples] if player != CHANCE else [o for o, _ in probe.chance_outcomes()][:samples]
    viewer = 0 if player == CHANCE else player
    costs = []
    for move in moves:
        started = time.perf_counter()
        probe.play(move)
        probe.evaluate(viewer)
        probe.undo()
        costs.append(time.perf_counter() - started)
    costs.sort()
    return costs[len(costs) // 2] if costs else 0.0


def branching(state: GameState) -> tuple[int, int]:
    """``(b, c)``: the decision branching at ``state`` (its legal moves; at a chance root,
    those after its first outcome) and the number of chance outcomes between two decisions
    (1 in a game without dice)."""
    probe = state.copy()
    plays = 0
    chance = 1
    while not probe.is_terminal() and probe.to_move() == CHANCE:
        chance = max(chance, len(probe.chance_outcomes()))
        probe.play(probe.chance_outcomes()[0][0])
        plays += 1
    moves = probe.legal_moves() if not probe.is_terminal() else []
    if probe.HAS_CHANCE and moves and chance == 1:
        probe.play(moves[0])
        plays += 1
        while not probe.is_terminal() and probe.to_move() != CHANCE:
            follow = probe.legal_moves()
            probe.play(follow[0])
            plays += 1
        if not probe.is_terminal():
            chance = len(probe.chance_outcomes())
    return max(1, len(moves)), chance


def expected_seconds(
    state: GameState, algorithm: str, depth: int, seconds_per_leaf: float | None = None
) -> float | None:
    """The expected time of a search of ``state`` to ``depth`` with ``algorithm`` (iterative
    deepening: the iterations 1..depth), from the game's branching here (``branching``) and
    a leaf's measured cost (``leaf_seconds``, or ``seconds_per_leaf``): a decision ply
    multiplies the leaves by ``b ** e`` (``GROWTH_EXPONENTS``) and a chance layer by its
    outcomes. ``None`` for an algorithm without a depth or an estimate (MCTS, native).

    An estimate to an order of magnitude: it says whether a depth takes a second or an hour
    (backgammon's expectiminimax: depth 2 a few seconds, 3 about an hour, 4 days)."""
    exponent = GROWTH_EXPONENTS.get(algorithm)
    if exponent is None or depth < 1:
        return None
    leaf = leaf_seconds(state) if seconds_per_leaf is None else seconds_per_leaf
    leaves = 0.0
    if state.HAS_CHANCE:
        moves, outcomes = branching(state)
        per_ply = float(moves) ** exponent
        for ply in range(1, depth + 1):
            leaves += per_ply**ply * outcomes ** (ply - 1)
    else:
        # A game without dice: the branching of each ply down the line, which shrinks as a
        # board fills (tic-tac-toe: 9, 8, 7, ...) and ends where the game does.
        width = 1.0
        for mean_moves in branching_by_ply(state, depth):
            width *= mean_moves**exponent
            leaves += width
    return leaves * leaf * NODE_OVERHEAD


LINES_SAMPLED: Final = 4
"""Random lines ``branching_by_ply`` walks down; a ply's branching is their mean."""


def branching_by_ply(state: GameState, depth: int, seed: int = 0) -> list[float]:
    """The mean number of legal moves at each of the first ``depth`` plies from ``state``,
    over a few random lines (a line that ends counts no moves from there on); stops at the
    first ply where every line has ended."""
    rng = random.Random(seed)
    totals = [0.0] * depth
    for _ in range(LINES_SAMPLED):
        probe = state.copy()
        for ply in range(depth):
            if probe.is_terminal():
                break
            moves = probe.legal_moves()
            totals[ply] += len(moves)
            probe.play(rng.choice(moves))
    means = [total / LINES_SAMPLED for total in totals]
    while means and means[-1] == 0.0:
        means.pop()
    return means


def plan_depth(
    state: GameState,
    algorithm: str,
    depth: int,
    time_cap: float = DEPTH_TIME_CAP,
    seconds_per_leaf: float | None = None,
) -> DepthPlan:
    """The depth a typed ``depth`` searches: the deepest at most ``depth`` expected to
    finish within ``time_cap`` (at least 1), with the expected times to show beside it.

    In a game without dice a depth is dropped only when its estimate exceeds the cap
    ``DETERMINISTIC_ESTIMATE_MARGIN`` times over: there the estimate is good to an order of
    magnitude at best, and the cap itself stops a search that runs long (iterative
    deepening then answers with the deepest depth it completed). With dice a ply costs
    hundreds of times the one before, so the estimate decides alone."""
    leaf = leaf_seconds(state) if seconds_per_leaf is None else seconds_per_leaf
    estimate: Callable[[int], float | None] = lambda d: expected_seconds(state, algorithm, d, leaf)
    requested_seconds = estimate(depth)
    allowed = time_cap if state.HAS_CHANCE else time_cap * DETERMINISTIC_ESTIMATE_MARGIN
    chosen = depth
    if requested_seconds is not None:
        while chosen > 1 and (estimate(chosen) or 0.0) > allowed:
            chosen -= 1
    return DepthPlan(depth, chosen, estimate(chosen), requested_seconds, time_cap)
