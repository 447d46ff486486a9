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

The decisions read the network's chances as they are, the same chances as every other node
of a search, so that a search values a cube decision as the engine answers it. The network is
fitted to GNU Backgammon's chances: on 3000 held-out decisions of its self-play its chances
give gnubg 0-ply's verdict at 88.6%, and gnubg's own chances through this model at 99.9%
(``tools/backgammon_cube.py``; bench/STRENGTH.md). A correction of the chances fitted to
gnubg's on other decisions gained 0.6 +- 0.4 millipoints of the cube a decision but moved the
values of checker plays in 2-ply searches away from gnubg's (eight opening plays against gnubg
1.07's losses, tests/ai/test_review_gnubg.py: mean error 0.034 against 0.028 without it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from games.backgammon.network import Probabilities, cubeless_equity

Ownership = Literal["centred", "mine", "theirs"]
"""Who holds the cube, from the player on roll's side."""

CONTACT_EFFICIENCY = 0.68
RACE_EFFICIENCY_BASE = 0.55
RACE_EFFICIENCY_PER_PIP = 0.00125
RACE_EFFICIENCY_RANGE = (0.6, 0.7)
"""Cube efficiency ``x``: gnubg's 0.68 in contact; in a race 0.55 + 0.00125 per pip of the
player on roll, kept within 0.6..0.7 (long races leave more time to use the cube)."""

EPSILON = 1e-7


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
    "CubeDecision",
    "Ownership",
    "average_win_and_loss",
    "cube_decision",
    "cube_efficiency",
    "cubeful_equity",
    "live_cube_equity",
]
