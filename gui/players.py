"""Who plays each side, and how strong a computer side is. No Qt here.

A computer side has a strength: a level 1-10, or a depth, or seconds per move. A level is
the game's own recipe (``ai.levels``: its engine, node budget, time cap and weakness, the
same the match runner measures), so a side playing by level ignores the algorithm chosen
for it; the algorithm is for the depth and time strengths, to watch an algorithm play.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Final, Literal

from ai.levels import DEFAULT_LEVEL, LEVEL_REMARKS, LEVELS, LevelPlay, level, level_play, level_rating
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


def level_choice_text(game: str, number: int) -> str:
    """A level as the new-game dialog lists it: ``5 · Club player — ≈1640 Elo (1560–1720)
    vs Stockfish``, or ``— not measured`` before its matches have been played."""
    rating = level_rating(game, number)
    measured = rating.text() if rating is not None else "not measured"
    return f"{number} · {level(number).name} — {measured}"


def level_note(game: str, number: int) -> str:
    """What a level plays with, under its choice: ``The level picks its engine: the compiled
    search, at most 4 s a move; it never errs on purpose: levels 6-10 differ only in how
    much they search (up to 30,000 positions a move here).``"""
    play = level_play(game, number)
    if play.is_weak:
        overlooks = "it overlooks some quiet moves and " if play.notice < 1.0 else "it "
        errs = f"{overlooks}makes mistakes on purpose, small ones often, big ones rarely"
    else:
        first = next(n for n in range(1, len(LEVELS) + 1) if not level_play(game, n).is_weak)
        errs = (f"it never errs on purpose: levels {first}-{len(LEVELS)} differ only in how much they search "
                f"(up to {play.nodes:,} positions a move here)")
    remark = LEVEL_REMARKS.get((game, number))
    if remark:
        errs = f"{errs}; {remark}"
    return f"The level picks its engine: the {play.engine_name}, at most {play.seconds:g}\u00a0s a move; {errs}."


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
    game: str = field(default="", compare=False)
    """The game the side plays (``for_game`` sets it): a level's recipe is the game's."""

    @property
    def is_computer(self) -> bool:
        return self.kind == COMPUTER

    @property
    def plays_by_level(self) -> bool:
        return self.is_computer and self.strength == "level"

    def for_game(self, game: str) -> PlayerConfig:
        """The same side in ``game``, with an algorithm that can play it (backgammon needs
        one that handles chance)."""
        algorithm = self.algorithm if self.algorithm in algorithms_for(game) else default_algorithm(game)
        return replace(self, algorithm=algorithm, game=game)

    def level_play(self) -> LevelPlay:
        """How this side's level plays its game (``ai.levels.level_play``)."""
        if not self.game:
            raise ValueError("a side's level needs its game: make it with for_game(game)")
        return level_play(self.game, self.level)

    def limits(self) -> Limits:
        """The side's limits: its depth, its seconds, or its level's budget and time cap."""
        if self.strength == "depth":
            return Limits(depth=max(1, self.depth))
        if self.strength == "time":
            return Limits(time=max(0.05, self.seconds))
        if self.game:
            return self.level_play().limits()
        return Limits(time=level(self.level).seconds)

    def settings(self, base: SearchSettings | None = None) -> SearchSettings:
        """The engine settings for this side: ``base`` (the settings panel's switches)
        with this side's algorithm."""
        return replace(base or SearchSettings(), algorithm=self.algorithm)

    def strength_text(self) -> str:
        """A computer side's strength in a few words, to stand in a sentence: ``level 7,
        compiled search``, ``PVS, depth 4``, ``MCTS, 2 s/move``; empty for a human."""
        if not self.is_computer:
            return ""
        if self.strength == "level":
            engine = f", {self.level_play().engine_name}" if self.game else ""
            return f"level {self.level}{engine}"
        label = SHORT_LABELS.get(self.algorithm, ALGORITHM_LABELS.get(self.algorithm, self.algorithm))
        strength = f"depth {self.depth}" if self.strength == "depth" else f"{self.seconds:g} s/move"
        return f"{label}, {strength}"

    def describe(self) -> str:
        """``Computer (level 7, compiled search)``, ``Computer (PVS, depth 4)``, ``Human``."""
        return f"Computer ({self.strength_text()})" if self.is_computer else "Human"

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

