"""Who plays each side, and how strong a computer side is. No Qt here.

A computer side has an algorithm, a strength (a named level, or a depth, or seconds per
move) and, at the lowest levels, *noise* so that a beginner can win: the engine then
searches only a random part of the root moves (``SearchRequest.root_moves``), so it
sometimes misses the best move the way a weak player does, while every move it plays is
still one it searched and found best among those it looked at. The random choice is the
GUI-side player policy; the engine itself stays exact.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace
from typing import Final, Literal

from ai.levels import DEFAULT_LEVEL, LEVELS, level
from ai.search import ALGORITHMS
from ai.search import algorithms_for as search_algorithms_for  # the GUI names games by registry name
from ai.settings import Limits, SearchSettings
from games import get_game

SideKind = Literal["human", "computer"]
HUMAN: Final[SideKind] = "human"
COMPUTER: Final[SideKind] = "computer"
StrengthMode = Literal["level", "depth", "time"]

DEFAULT_ALGORITHM = "pvs"
"""A side's algorithm before it knows its game (``for_game`` picks the game's own default)."""
ALGORITHM_LABELS = {
    "pvs": "PVS (NegaScout)",
    "alphabeta": "Alpha-beta",
    "mtdf": "MTD(f)",
    "minimax": "Minimax",
    "mcts": "MCTS (UCT)",
    "expectiminimax": "Expectiminimax",
    "star1": "Star1",
    "star2": "Star2",
    "native": "Compiled PVS (strongest)",
}
"""How the new-game dialog names each algorithm of ``ai.search.ALGORITHMS``."""




SHORT_LABELS = {
    "pvs": "PVS",
    "alphabeta": "Alpha-beta",
    "mtdf": "MTD(f)",
    "minimax": "Minimax",
    "mcts": "MCTS",
    "native": "Compiled PVS",
}
"""Algorithm names short enough for a player label."""


def algorithms_for(game: str) -> list[str]:
    """The algorithms offered for the game called ``game``, its own default first."""
    return search_algorithms_for(get_game(game))


def default_algorithm(game: str) -> str:
    """The game's own choice (``GameState.DEFAULT_ALGORITHM``: PVS, Star2 for backgammon)."""
    return get_game(game).DEFAULT_ALGORITHM


@dataclass(frozen=True)
class PlayerConfig:
    """One side of a game."""

    kind: SideKind = HUMAN
    algorithm: str = DEFAULT_ALGORITHM
    strength: StrengthMode = "level"
    level: int = DEFAULT_LEVEL
    depth: int = 4
    seconds: float = 1.0

    @property
    def is_computer(self) -> bool:
        return self.kind == COMPUTER

    def for_game(self, game: str) -> PlayerConfig:
        """The same side with an algorithm that can play ``game`` (backgammon needs one
        that handles chance)."""
        if self.algorithm in algorithms_for(game):
            return self
        return replace(self, algorithm=default_algorithm(game))

    def limits(self) -> Limits:
        if self.strength == "depth":
            return Limits(depth=max(1, self.depth))
        if self.strength == "time":
            return Limits(time=max(0.05, self.seconds))
        chosen = level(self.level)
        return Limits(depth=chosen.depth, time=chosen.seconds)

    def root_share(self) -> float:
        return level(self.level).root_share if self.strength == "level" else 1.0

    def settings(self, base: SearchSettings | None = None) -> SearchSettings:
        """The engine settings for this side: ``base`` (the settings panel's switches)
        with this side's algorithm."""
        return replace(base or SearchSettings(), algorithm=self.algorithm)

    def describe(self) -> str:
        """``Computer (PVS, level 4 Club)``, ``Human``."""
        if not self.is_computer:
            return "Human"
        label = SHORT_LABELS.get(self.algorithm, ALGORITHM_LABELS.get(self.algorithm, self.algorithm))
        if self.strength == "depth":
            strength = f"depth {self.depth}"
        elif self.strength == "time":
            strength = f"{self.seconds:g} s/move"
        else:
            strength = f"level {self.level} {level(self.level).name}"
        return f"Computer ({label}, {strength})"

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "algorithm": self.algorithm,
            "strength": self.strength,
            "level": self.level,
            "depth": self.depth,
            "seconds": self.seconds,
        }

    @classmethod
    def from_dict(cls, data: object) -> PlayerConfig:
        """A side from saved settings; anything malformed falls back to the default."""
        if not isinstance(data, dict):
            return cls()
        default = cls()
        kind = data.get("kind") if data.get("kind") in (HUMAN, COMPUTER) else default.kind
        algorithm = data.get("algorithm") if data.get("algorithm") in ALGORITHMS else default.algorithm
        strength = data.get("strength") if data.get("strength") in ("level", "depth", "time") else default.strength
        number = _int_in(data.get("level"), 1, len(LEVELS), default.level)
        depth = _int_in(data.get("depth"), 1, 64, default.depth)
        seconds = data.get("seconds")
        seconds = float(seconds) if isinstance(seconds, (int, float)) and 0.05 <= seconds <= 3600 else default.seconds
        return cls(kind, algorithm, strength, number, depth, seconds)  # type: ignore[arg-type]


def sides_from_data(data: object, game: str) -> tuple[tuple[PlayerConfig, PlayerConfig], str]:
    """The two sides of ``game`` from saved data (a settings entry, an autosave), and why
    they were not used when they were not: the default sides and "not a pair of sides" or
    "a side cannot be read"."""
    default = (PlayerConfig(), PlayerConfig(kind=COMPUTER).for_game(game))
    if not (isinstance(data, list) and len(data) == 2 and all(isinstance(side, dict) for side in data)):
        return default, "not a pair of sides"
    try:
        return (PlayerConfig.from_dict(data[0]).for_game(game), PlayerConfig.from_dict(data[1]).for_game(game)), ""
    except (TypeError, ValueError, KeyError, AttributeError, RecursionError):
        return default, "a side cannot be read"


def _int_in(value: object, low: int, high: int, default: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high else default


def noisy_root_moves(names: list[str], share: float, rng: random.Random) -> tuple[str, ...]:
    """The root moves a noisy level searches: a random ``share`` of ``names`` (at least
    one), or ``()`` meaning all of them."""
    if share >= 1.0 or len(names) <= 1:
        return ()
    count = max(1, math.ceil(share * len(names)))
    if count >= len(names):
        return ()
    return tuple(rng.sample(names, count))
