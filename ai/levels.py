"""The engine's named strengths, levels 1-10: one table for the app and the match runner.

A level is a depth and a time cap per move and, at the lowest levels, *noise*: only a random
share of the root moves is searched (``SearchRequest.root_moves``), so the engine misses
some good moves and a beginner can win. The time cap keeps every level playable in every
game (a depth that is instant in tic-tac-toe takes long in backgammon).
"""

from __future__ import annotations

from dataclasses import dataclass


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
