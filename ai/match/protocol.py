"""What every match player is: the ``Player`` protocol, its two errors and the game so far.

The built-in engine (``ai.match.players``) and each external program (``ai.match.uci``,
``gtp``, ``gnubg``, ``pubeval``) implement ``Player``; the registry that makes a player from a
SPEC (``ai.match.players.make_player``) imports them, so they import only this module.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from ai.settings import Limits
from games import GameState


class SpecError(ValueError):
    """A player SPEC that cannot be understood; the message says what is wrong."""


class PlayerFailure(Exception):
    """A player could not produce a legal move; ``str()`` is the reason recorded."""


@dataclass
class GameHistory:
    """A game so far as text: its start position and every move since, by name."""

    start: str
    moves: list[str] = dataclasses.field(default_factory=list)


class Player(Protocol):
    name: str

    def new_game(self, state: GameState) -> None:
        """A game starts at ``state`` (after the opening moves)."""

    def choose(self, state: GameState, history: GameHistory, limits: Limits) -> Any:
        """A legal move of ``state`` (never changed), within ``limits``; or ``PlayerFailure``.
        ``history`` is the game so far in notation (an external program replays it)."""

    def close(self) -> None:
        """Release the player's processes (idempotent)."""


class ProgramPlayer(Player, Protocol):
    """A player that is an external program, started once before the match."""

    def start(self) -> None:
        """Start the program and wait until it is ready; ``PlayerFailure`` if it is not."""


Program = TypeVar("Program", bound=ProgramPlayer)


def started(player: Program, spec: str) -> Program:
    """``player``, started: a program that cannot start is a bad SPEC, said in one line."""
    try:
        player.start()
    except PlayerFailure as error:
        raise SpecError(f"player {spec!r}: {error}") from None
    return player
