"""The doubling cube in money play: cubeful equity and cube decisions from cubeless chances.

The network answers cubeless chances (win, gammons, backgammons). What the cube is worth on
top of them comes from R. Janowski's model ("Take-points in money games", 1993), the one
GNU Backgammon uses for its 0-ply cube (``Cl2CfMoney`` in gnubg's eval.c):

* ``W`` = the average points won when winning (1 plus gammons and backgammons per win) and
  ``L`` = the average points lost when losing;
* the **dead cube** equity is the cubeless one, ``p (W + L) - L``;
* the **live cube** equity assumes a perfectly efficient market: linear in ``p`` between the
  points where the cube changes hands. The take point is ``TP = (L - 1/2) / (W + L + 1/2)``
  (below it the player on roll would pass a double), the cash point
  ``CP = (L + 1) / (W + L + 1/2)`` (above it the opponent passes). With the cube centred the
  equity runs from ``-L`` at ``p = 0`` through ``-1`` at TP and ``+1`` at CP to ``W`` at
  ``p = 1``; the owner has no TP to fear, the player without the cube no CP to cash at;
* the **cubeful** equity is ``x * live + (1 - x) * dead``, ``x`` the cube efficiency:
  about 0.68 in contact positions, from 0.6 to 0.7 in races by pip count (gnubg's values).

A cube decision compares, per unit of the current cube, "no double" (the cubeful equity
with the cube as it is), "double, take" (twice the cubeful equity with the opponent owning
the cube) and "double, pass" (+1): double when ``min(take, pass) > no double``; the
opponent takes when ``take <= pass`` (the taker's equity after taking, ``-take``, is at
least -1). ``BackgammonState.forced_answer`` answers the engine's own cube and take
decisions with these numbers, without a search (a search would compare "no double"
searched a ply deeper than "double, take"), and ``BackgammonState.evaluate`` uses them at
the cube decisions inside a search. Everything is seen from the player on roll.

The network's chances are calibrated first (``Calibration``, fitted by
``tools/backgammon_cube.py --fit`` to GNU Backgammon's 0-ply chances of 3000 cube decisions
of the network's self-play, shipped as ``resources/weights/backgammon_cube.json``), for the
cube decisions in contact positions only; checker play (and every race) reads the network
as it is. The network is itself fitted to gnubg's chances, so the correction is small: on
3000 held-out decisions it gives gnubg's verdict at 89.2% against 88.6% with the network's
chances, and gives up 0.6 +- 0.4 millipoints of the cube a decision less (bench/STRENGTH.md).
A calibration belongs to the network it was fitted to (it records that network's chances at
the starting position): with any other network the cube reads that network's chances as
they are, since a calibration fitted to another network made the decisions worse (82% of
verdicts against 89%).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from games.backgammon.board import CHECKERS, OFF, Board, is_race, pip_count, starting_board
from games.backgammon.network import Network, Probabilities, cubeless_equity, current_network, default_network
from games.weights import WeightsError, shipped_weights

Ownership = Literal["centred", "mine", "theirs"]
"""Who holds the cube, from the player on roll's side."""

CONTACT_EFFICIENCY = 0.68
RACE_EFFICIENCY_BASE = 0.55
RACE_EFFICIENCY_PER_PIP = 0.00125
RACE_EFFICIENCY_RANGE = (0.6, 0.7)
"""Cube efficiency ``x``: gnubg's 0.68 in contact; in a race 0.55 + 0.00125 per pip of the
player on roll, kept within 0.6..0.7 (long races leave more time to use the cube)."""

EPSILON = 1e-7

CALIBRATION_FILE = "backgammon_cube.json"
LOGIT_LIMIT = 1e-4
"""Chances are clipped to ``[LOGIT_LIMIT, 1 - LOGIT_LIMIT]`` before taking logits."""
SAME_NETWORK_TOLERANCE = 1e-6
"""Two networks whose chances at the starting position differ by less are the same one."""


def logit(probability: float) -> float:
    clipped = min(1.0 - LOGIT_LIMIT, max(LOGIT_LIMIT, probability))
    return math.log(clipped / (1.0 - clipped))


def logistic(value: float) -> float:
    return 1.0 / (1.0 + math.exp(-value)) if value >= 0 else math.exp(value) / (1.0 + math.exp(value))


POSITION_FEATURES = ("their_back", "my_back", "my_off", "their_off", "pip_lead")
"""What the calibration reads besides the chances, from the player on roll's side: the
opponent's checkers in the player's home board or on the bar / 5; the player's own there
/ 5; checkers borne off by each / 15; the pip lead / 50."""


def position_features(board: Board, opponent: Board) -> tuple[float, ...]:
    """``POSITION_FEATURES`` for the player on roll with ``board`` against ``opponent``."""
    return (
        sum(opponent[HOME_BOARD_OF_OPPONENT]) / 5.0,
        sum(board[HOME_BOARD_OF_OPPONENT]) / 5.0,
        board[OFF] / CHECKERS,
        opponent[OFF] / CHECKERS,
        (pip_count(opponent) - pip_count(board)) / 50.0,
    )


HOME_BOARD_OF_OPPONENT = slice(19, 26)
"""In a player's own numbering: the opponent's home board (points 19-24) and the bar."""


@dataclass(frozen=True)
class Calibration:
    """A correction of the network's chances (logistic, per output, in logits), read by
    the cube decisions:

    * win: ``logistic(w . (1, logit(win), *features))``;
    * the gammon share of the wins: ``logistic(g . (1, logit(win_gammon / win), logit(win),
      *features))``, the same for the losses with ``logit(lose_gammon / (1 - win))``;
    * backgammons keep the network's share of the gammons.

    ``features`` are ``position_features``. ``network_opening`` is what the network it was
    fitted to gives the side on roll at the starting position, which names that network
    (``fits``). ``Calibration()`` is the identity, which fits every network. It is fitted to
    contact positions and applies to them only (``calibrated_chances``): in races the
    network's chances decide as well as gnubg's without it (measured), and better than with
    a contact fit."""

    win: tuple[float, ...] = (0.0, 1.0) + (0.0,) * len(POSITION_FEATURES)
    win_gammon: tuple[float, ...] = (0.0, 1.0, 0.0) + (0.0,) * len(POSITION_FEATURES)
    lose_gammon: tuple[float, ...] = (0.0, 1.0, 0.0) + (0.0,) * len(POSITION_FEATURES)
    network_opening: tuple[float, ...] | None = None

    @classmethod
    def from_weights(cls, weights: Mapping[str, Any]) -> Calibration:
        """From a weights mapping ``{"win": [2 + F numbers], "win_gammon": [3 + F],
        "lose_gammon": [3 + F], "network_opening": [5]}`` (F = ``len(POSITION_FEATURES)``);
        ``WeightsError`` names what is wrong."""
        shapes = {"win": 2 + len(POSITION_FEATURES), "win_gammon": 3 + len(POSITION_FEATURES),
                  "lose_gammon": 3 + len(POSITION_FEATURES), "network_opening": 5}
        extra = sorted(set(weights) - set(shapes))
        if extra:
            raise WeightsError(f"backgammon cube calibration: unknown {', '.join(extra)}")
        values: dict[str, tuple[float, ...]] = {}
        for name, size in shapes.items():
            value = weights.get(name)
            if (
                not isinstance(value, list)
                or len(value) != size
                or not all(isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) for x in value)
            ):
                raise WeightsError(f"backgammon cube calibration: {name} must be a list of {size} numbers")
            values[name] = tuple(float(x) for x in value)
        return cls(**values)

    def fits(self, net: Network) -> bool:
        """Whether this calibration was fitted to ``net`` (the identity fits every network)."""
        if self.network_opening is None:
            return True
        return all(
            abs(ours - theirs) < SAME_NETWORK_TOLERANCE
            for ours, theirs in zip(self.network_opening, opening_chances(net), strict=True)
        )

    def apply(self, chances: Sequence[float], features: Sequence[float]) -> Probabilities:
        """The calibrated five chances of the same side (gammons within wins, as the network's)."""
        win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = chances
        new_win = logistic(_dot(self.win, (1.0, logit(win), *features)))
        win_share = win_gammon / win if win > EPSILON else 0.0
        loss_share = lose_gammon / (1.0 - win) if win < 1.0 - EPSILON else 0.0
        new_win_gammon = new_win * logistic(_dot(self.win_gammon, (1.0, logit(win_share), logit(win), *features)))
        new_lose_gammon = (1.0 - new_win) * logistic(
            _dot(self.lose_gammon, (1.0, logit(loss_share), logit(win), *features))
        )
        return (
            new_win,
            new_win_gammon,
            new_win_gammon * (win_backgammon / win_gammon if win_gammon > EPSILON else 0.0),
            new_lose_gammon,
            new_lose_gammon * (lose_backgammon / lose_gammon if lose_gammon > EPSILON else 0.0),
        )


def _dot(weights: Sequence[float], values: Sequence[float]) -> float:
    return sum(w * v for w, v in zip(weights, values, strict=True))


def opening_chances(net: Network) -> Probabilities:
    """``net``'s five chances for the side on roll at the starting position."""
    return net.probabilities(starting_board(), starting_board())


def calibrated_chances(chances: Probabilities, board: Board, opponent: Board) -> Probabilities:
    """The chances the cube decisions read for the player on roll with ``board`` against
    ``opponent``: in contact, the packaged network's ``chances`` through the shipped
    calibration; in a race, or from any other network, as they are."""
    if is_race(board, opponent) or current_network() is not default_network():
        return chances
    return shipped_calibration().apply(chances, position_features(board, opponent))


@cache
def shipped_calibration() -> Calibration:
    """The packaged calibration (``resources/weights/backgammon_cube.json``), read once; the
    identity if it was fitted to another network than the packaged one."""
    calibration = Calibration.from_weights(shipped_weights(CALIBRATION_FILE, "backgammon"))
    return calibration if calibration.fits(default_network()) else Calibration()


def cube_efficiency(is_race: bool, pips_on_roll: int) -> float:
    """How much of a live cube's value the player can use in this kind of position."""
    if not is_race:
        return CONTACT_EFFICIENCY
    low, high = RACE_EFFICIENCY_RANGE
    return min(high, max(low, RACE_EFFICIENCY_BASE + RACE_EFFICIENCY_PER_PIP * pips_on_roll))


def average_win_and_loss(chances: Probabilities, gammons_count: bool = True) -> tuple[float, float]:
    """``W`` and ``L``: points per game won when winning, lost when losing."""
    win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = chances
    if not gammons_count:
        return 1.0, 1.0
    average_win = 1.0 + (win_gammon + win_backgammon) / win if win > EPSILON else 1.0
    average_loss = 1.0 + (lose_gammon + lose_backgammon) / (1.0 - win) if win < 1.0 - EPSILON else 1.0
    return average_win, average_loss


def live_cube_equity(win: float, average_win: float, average_loss: float, ownership: Ownership) -> float:
    """Equity per unit of cube with a perfectly efficient cube (Janowski's live cube)."""
    take_point = (average_loss - 0.5) / (average_win + average_loss + 0.5)
    cash_point = (average_loss + 1.0) / (average_win + average_loss + 0.5)
    if ownership != "mine" and win < take_point:  # from (0, -L) to (TP, -1)
        return -average_loss + (average_loss - 1.0) * win / take_point
    if ownership != "theirs" and win >= cash_point:  # from (CP, +1) to (1, W)
        return 1.0 + (average_win - 1.0) * (win - cash_point) / (1.0 - cash_point)
    if ownership == "centred":  # from (TP, -1) to (CP, +1)
        return -1.0 + 2.0 * (win - take_point) / (cash_point - take_point)
    if ownership == "mine":  # from (0, -L) to (CP, +1)
        return -average_loss + (1.0 + average_loss) * win / cash_point
    return -1.0 + (average_win + 1.0) * (win - take_point) / (1.0 - take_point)  # (TP, -1) to (1, W)


def cubeful_equity(
    chances: Probabilities, ownership: Ownership, efficiency: float, gammons_count: bool = True
) -> float:
    """Janowski's cubeful money equity per unit of cube for the side these chances belong to."""
    dead = cubeless_equity(chances, gammons_count)
    average_win, average_loss = average_win_and_loss(chances, gammons_count)
    live = live_cube_equity(chances[0], average_win, average_loss, ownership)
    return efficiency * live + (1.0 - efficiency) * dead


@dataclass(frozen=True)
class CubeDecision:
    """The three equities of a cube decision, per unit of the current cube, for the player
    on roll (who may double); in a match, the three match winning chances (``match_cube``)."""

    no_double: float
    double_take: float
    double_pass: float = 1.0

    @property
    def should_take(self) -> bool:
        """The opponent's right answer: take unless that loses more than passing."""
        return self.double_take <= self.double_pass

    @property
    def after_double(self) -> float:
        """What doubling is worth against the right answer."""
        return min(self.double_take, self.double_pass)

    @property
    def should_double(self) -> bool:
        """Double when the opponent's best answer leaves more than not doubling (never when
        too good: playing on for a gammon is worth more than the cube's single point)."""
        return self.after_double > self.no_double

    @property
    def best(self) -> float:
        """The decision's value with both sides deciding right."""
        return max(self.no_double, self.after_double)

    @property
    def is_too_good(self) -> bool:
        """The opponent would pass, but playing on is worth more than cashing."""
        return not self.should_take and self.no_double >= self.double_pass


def cube_decision(
    chances: Probabilities, centred: bool, efficiency: float, gammons_count: bool = True
) -> CubeDecision:
    """The decision of the player on roll whose cubeless chances are ``chances``; ``centred``
    says whether the cube is centred (else the player owns it). After a take the opponent
    owns the cube, and gammons count even under the Jacoby rule (the cube has turned)."""
    ownership: Ownership = "centred" if centred else "mine"
    return CubeDecision(
        no_double=cubeful_equity(chances, ownership, efficiency, gammons_count),
        double_take=2.0 * cubeful_equity(chances, "theirs", efficiency, True),
    )


__all__ = [
    "Calibration",
    "CubeDecision",
    "Ownership",
    "average_win_and_loss",
    "calibrated_chances",
    "cube_decision",
    "cube_efficiency",
    "cubeful_equity",
    "live_cube_equity",
    "opening_chances",
    "position_features",
    "shipped_calibration",
]
