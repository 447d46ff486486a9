"""Does the engine win a "to play and win" problem? Its first move, then the game played out.

A problem is a position, the side that wins, and the source's key moves (the winning first
moves; none when the side to move is the loser). It counts as solved when

1. the engine, searching the root, plays a key move (when there is one),
2. and the engine then *wins the game* playing the winning side against itself defending
   (``playout`` limits a move; each side its own transposition table; a forced move played
   without a search), within ``max_plies``.

A position can be won long before a search proves it, so the played-out win, not a proven
score, is the test; ``depth`` and ``proof`` say how far the first search went and whether it
already saw the win. Node limits make a run repeatable on a busy machine.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from ai.engine import search
from ai.settings import Limits, SearchSettings
from games.base import GameState, Player

DEFAULT_MAX_PLIES = 200


class Outcome(Enum):
    """The played-out game's end, from the winning side's view."""

    WON = "won"
    DRAWN = "drawn"
    LOST = "lost"


@dataclass(frozen=True)
class ProblemResult:
    """How the engine did on one problem."""

    first_move: str
    key_ok: bool
    """The first move is one of the key moves (or the problem gives none)."""
    depth: int
    proof: int
    """+1: the first search proved the win; 0: no proof; -1: it claimed a loss."""
    outcome: Outcome
    plies: int
    seconds: float
    line: tuple[str, ...] = ()
    """The played-out game's moves, and how it ended."""

    @property
    def solved(self) -> bool:
        return self.key_ok and self.outcome is Outcome.WON


def solve(
    state: GameState,
    winner: Player,
    keys: Sequence[str],
    limits: Limits,
    settings: SearchSettings | None = None,
    max_plies: int = DEFAULT_MAX_PLIES,
    playout: Limits | None = None,
) -> ProblemResult:
    """Search ``state`` (played on: pass a copy to keep it) within ``limits``, then play it out
    engine against engine within ``playout`` a move (default: ``limits``; see the module)."""
    settings = SearchSettings() if settings is None else settings
    playout = limits if playout is None else playout
    tables: dict[Player, dict[str, Any]] = {0: {}, 1: {}}
    started = time.perf_counter()
    first = search(state, settings, limits, shared=tables[state.to_move()])
    first_name = state.move_name(first.best_move)
    key_moves = [state.parse_move(text) for text in keys]
    key_ok = not key_moves or first.best_move in key_moves
    proof = first.score.outcome if state.to_move() == winner else -first.score.outcome
    plies = 0
    move = first.best_move
    line: list[str] = []
    while True:
        line.append(state.move_name(move))
        state.play(move)
        plies += 1
        if state.is_terminal() or plies >= max_plies:
            break
        moves = state.legal_moves()
        if len(moves) == 1:  # a forced move: nothing to search
            move = moves[0]
        else:
            move = search(state, settings, playout, shared=tables[state.to_move()]).best_move
    if state.is_terminal() and state.utility(winner) > 0:
        outcome = Outcome.WON
    elif state.is_terminal() and state.utility(winner) < 0:
        outcome = Outcome.LOST
    else:
        outcome = Outcome.DRAWN
    line.append(f"({state.termination_reason() or 'stopped at max_plies'}: {state.to_text()})")
    seconds = time.perf_counter() - started
    return ProblemResult(first_name, key_ok, first.depth, proof, outcome, plies, seconds, tuple(line))
