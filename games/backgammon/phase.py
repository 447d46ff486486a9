"""The phases of a backgammon turn: which node of the game tree a state is.

One turn passes through several nodes, and the phase says whose decision (or which
chance event) comes next:

* ``OPENING`` (chance): both players throw one die; the 30 ordered pairs of different dice
  are equally likely (1/30 each; equal dice are re-thrown, so they never appear). The
  outcome ``(O's die, X's die)`` decides who starts, and the starter plays those two dice.
* ``CUBE_DECISION`` (player on roll): ``"double"`` or ``"roll"``. Only when cube play is on,
  the player may double (the cube is centred or theirs, it is not the Crawford game, the cube
  is below 32768) and the dice are not yet rolled; otherwise the turn goes straight to ROLL.
* ``TAKE_DECISION`` (the opponent): ``"take"`` (the cube doubles and the taker owns it) or
  ``"drop"`` (the game ends; the doubler wins the cube value before doubling).
* ``ROLL`` (chance): the 21 distinct rolls ``(high, low)``, doubles 1/36, others 2/36.
* ``CHECKER_PLAY`` (player on roll): one whole play, a tuple of hops (``board.Play``); the
  empty tuple is the forced "no move".
* ``GAME_OVER``: single game, gammon or backgammon, times the cube.

The values are the Zobrist table's row numbers (``hashing``), so they are fixed.
"""

from __future__ import annotations

from enum import IntEnum


class Phase(IntEnum):
    """The node a backgammon state is at (see the module doc for each)."""

    OPENING = 0
    """Chance: both players throw one die; the higher starts with both."""
    CUBE_DECISION = 1
    """The player on roll doubles or rolls."""
    TAKE_DECISION = 2
    """The doubled player takes or drops."""
    ROLL = 3
    """Chance: the player on roll throws the dice."""
    CHECKER_PLAY = 4
    """The player on roll plays the dice."""
    GAME_OVER = 5
    """The game is won: nothing more happens."""

    @property
    def label(self) -> str:
        """The phase in words, for messages and the text diagram."""
        return PHASE_NAMES[self]


# The members by their own names, as the rules and the board compare them (``phase == ROLL``).
OPENING = Phase.OPENING
CUBE_DECISION = Phase.CUBE_DECISION
TAKE_DECISION = Phase.TAKE_DECISION
ROLL = Phase.ROLL
CHECKER_PLAY = Phase.CHECKER_PLAY
GAME_OVER = Phase.GAME_OVER

PHASE_NAMES: tuple[str, ...] = ("opening roll", "cube decision", "take decision", "roll", "checker play", "game over")
"""Each phase in words, indexed by the phase."""

CHANCE_PHASES = frozenset({OPENING, ROLL})
"""The phases whose next event is a throw of the dice."""

__all__ = [
    "CHANCE_PHASES",
    "CHECKER_PLAY",
    "CUBE_DECISION",
    "GAME_OVER",
    "OPENING",
    "PHASE_NAMES",
    "ROLL",
    "TAKE_DECISION",
    "Phase",
]
