"""Lazy SMP helpers: the same search, started elsewhere and ordered otherwise.

Lazy SMP (Dan Homan, "Lazy SMP", TalkChess/CCC, January 2013; Stockfish from version 7,
2016) runs several complete iterative-deepening searches of the same root at once, sharing
only the transposition table. The main search (helper 0) is unchanged and its answer is the
answer; the helpers are there to fill the table with results the main search will probe.
Helpers that searched exactly like the main search would only repeat its work, so each
helper is made to diverge in two cheap, deterministic ways:

* **Staggered depths.** Helper ``k`` skips some iterations, by Stockfish's skip blocks
  (Stockfish 8-10, ``src/search.cpp``, ``SkipSize``/``SkipPhase``): with ``i = (k - 1) mod
  20`` it skips depth ``d`` when ``((d + SKIP_PHASE[i]) // SKIP_SIZE[i])`` is odd. Helper 1
  searches depths 2, 4, 6, ...; helper 2 depths 1, 3, 5, ...; helpers 3-6 blocks of two
  depths in four phases, and so on: at any moment the helpers are spread over the depths
  around the main search's, some ahead of it. (Stockfish adds the game ply to ``d``; it is
  left out here so that a helper's work depends on its index alone.) The last iteration
  of a depth limit is never skipped: every helper ends with a complete answer at the
  requested depth.
* **Perturbed move order.** Helper ``k`` shuffles each node's moves with a random generator
  seeded by ``k`` before the usual stable sort (captures by MVV-LVA, killers, history), so
  the heuristics still decide where they know something and the many ties (quiet moves
  without history) come out in a helper-specific order; the table move still comes first.
  Different orders reach different cut-offs and store different entries.

Both keep the search exact: at a fixed depth, with the selective pruning off, a helper
returns the same value as the main search (``tests/ai/test_lazy_smp.py``).
"""

from __future__ import annotations

import random
from typing import Any, Final

from games.base import GameState

from ai.ordering import MoveOrderer
from ai.scores import MAX_PLY
from ai.settings import SearchSettings

SKIP_SIZE: Final = (1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4)
SKIP_PHASE: Final = (0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7)
"""Stockfish's skip blocks: helper ``k`` uses entry ``(k - 1) % 20`` of both."""
ORDER_SEED_BASE: Final = 0x5EED
"""Mixed with the helper index into the seed of its move-order shuffle."""


def skips_depth(helper: int, depth: int, last_depth: int) -> bool:
    """Whether helper ``helper`` skips iteration ``depth`` (never the main search, never the
    last iteration ``last_depth``)."""
    if helper <= 0 or depth >= last_depth:
        return False
    index = (helper - 1) % len(SKIP_SIZE)
    return (depth + SKIP_PHASE[index]) // SKIP_SIZE[index] % 2 == 1


class PerturbedMoveOrderer(MoveOrderer):
    """``MoveOrderer`` whose ties come out in a helper-specific (seeded) order."""

    __slots__ = ("shuffle",)

    def __init__(self, settings: SearchSettings, state: GameState, max_ply: int, helper: int) -> None:
        super().__init__(settings, state, max_ply)
        self.shuffle = random.Random(ORDER_SEED_BASE * 1_000_003 + helper).shuffle

    def sort(self, state: GameState, moves: list[Any], ply: int) -> None:
        """Shuffle, then the usual stable sort: known priorities first, ties shuffled."""
        self.shuffle(moves)
        super().sort(state, moves, ply)


def make_orderer(settings: SearchSettings, state: GameState, max_ply: int = MAX_PLY, helper: int = 0) -> MoveOrderer:
    """The move orderer of the main search (``helper`` 0) or of Lazy SMP helper ``helper``."""
    if helper > 0:
        return PerturbedMoveOrderer(settings, state, max_ply, helper)
    return MoveOrderer(settings, state, max_ply)
