"""Shared helpers for the games' property tests: seeded random playouts."""

from __future__ import annotations

import random
from collections.abc import Iterator

from games.base import CHANCE, GameState

MAX_PLIES = 2_000
"""Every game here ends long before this; a playout that does not is a bug."""


def random_step(state: GameState, rng: random.Random) -> None:
    """Play one random legal move, or a chance outcome weighted by its probability."""
    if state.to_move() == CHANCE:
        outcomes = state.chance_outcomes()
        choice = rng.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0]
        state.play(choice)
    else:
        state.play(rng.choice(state.legal_moves()))


def random_playout(state: GameState, rng: random.Random) -> Iterator[GameState]:
    """Yield ``state`` at every ply of a random game until it ends."""
    for _ in range(MAX_PLIES):
        yield state
        if state.is_terminal():
            return
        random_step(state, rng)
    raise AssertionError(f"{state.NAME} playout did not end in {MAX_PLIES} plies")
