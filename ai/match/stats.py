"""Match statistics: score, Elo difference with its 95% interval, likelihood of superiority.

The formulas are the standard ones of engine testing (chessprogramming.org, "Match
Statistics"; the same as cutechess-cli's ``Elo`` class and BayesElo's normal approximation):

* score fraction ``s = (W + D/2) / N``;
* Elo difference of the logistic model ``E = -400 log10(1/s - 1)`` (so 60/100 is +70.4);
* its interval: the per-game score has variance ``sigma^2 = [W(1-s)^2 + D(1/2-s)^2 + L s^2] / N``
  (draws count half a point), the mean score a standard error ``sigma / sqrt(N)``, and
  ``s +- 1.96 * SE`` mapped through ``E`` gives the 95% interval (asymmetric in Elo);
* likelihood of superiority ``LOS = 1/2 [1 + erf((W - L) / sqrt(2 (W + L)))]``: the chance
  that A is the stronger, from wins and losses alone (draws say nothing about who is
  better), the normal approximation of the binomial.

For a game scored in points (backgammon: gammons 2, backgammons 3) the mean points per game
and its 95% interval ``mean +- 1.96 * stdev / sqrt(N)`` are the fair measure; the Elo line
then counts each game as won or lost.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z_95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""


def elo_from_score(fraction: float) -> float:
    """The Elo difference whose expected score is ``fraction`` (0..1; +-inf at the ends)."""
    if fraction <= 0.0:
        return -math.inf
    if fraction >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / fraction - 1.0)


def score_from_elo(difference: float) -> float:
    """The expected score of a player ``difference`` Elo above the opponent."""
    return 1.0 / (1.0 + 10.0 ** (-difference / 400.0))


def likelihood_of_superiority(wins: int, losses: int) -> float:
    """LOS: the probability that the player with ``wins`` is stronger (0.5 without
    decisive games)."""
    decisive = wins + losses
    if decisive == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * decisive)))


@dataclass(frozen=True)
class MatchStatistics:
    """Wins, draws and losses of player A, and what follows from them."""

    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        """A's score: a win 1, a draw 1/2."""
        return self.wins + 0.5 * self.draws

    @property
    def score_fraction(self) -> float:
        return self.points / self.games if self.games else 0.5

    @property
    def elo(self) -> float:
        """A's Elo advantage over B (+inf when A won every game)."""
        return elo_from_score(self.score_fraction)

    @property
    def score_standard_error(self) -> float:
        """The standard error of A's mean score per game."""
        games = self.games
        if games == 0:
            return 0.0
        s = self.score_fraction
        variance = (self.wins * (1 - s) ** 2 + self.draws * (0.5 - s) ** 2 + self.losses * s**2) / games
        return math.sqrt(variance / games)

    @property
    def elo_interval(self) -> tuple[float, float]:
        """The 95% interval of the Elo difference (``s +- 1.96 SE`` through ``elo_from_score``)."""
        margin = Z_95 * self.score_standard_error
        s = self.score_fraction
        return elo_from_score(s - margin), elo_from_score(s + margin)

    @property
    def los(self) -> float:
        return likelihood_of_superiority(self.wins, self.losses)


@dataclass(frozen=True)
class PointStatistics:
    """Points per game (backgammon's gammons count 2, backgammons 3): mean and 95% interval."""

    mean: float
    half_width: float

    @classmethod
    def of(cls, points: Sequence[float]) -> PointStatistics:
        count = len(points)
        if count == 0:
            return cls(0.0, 0.0)
        mean = sum(points) / count
        if count == 1:
            return cls(mean, math.inf)
        variance = sum((point - mean) ** 2 for point in points) / (count - 1)
        return cls(mean, Z_95 * math.sqrt(variance / count))


def format_elo(value: float) -> str:
    """``+70``, ``-12``, ``+inf``."""
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{round(value) + 0:+d}"  # + 0: never "-0"


def format_elo_line(stats: MatchStatistics) -> str:
    """``Elo +70 (95%: +1 .. +145)``, or why there is no finite estimate."""
    low, high = stats.elo_interval
    if stats.games == 0:
        return "Elo: no games"
    if math.isinf(stats.elo):
        side = "every game won" if stats.elo > 0 else "every game lost"
        return f"Elo {format_elo(stats.elo)} ({side}: no finite estimate; play more games or a stronger opponent)"
    if stats.games == 1:  # one result has no spread: an interval of width 0 would claim certainty
        return f"Elo {format_elo(stats.elo)} (one game: no interval; play more games)"
    if stats.score_standard_error == 0.0:
        return f"Elo {format_elo(stats.elo)} (every game drawn: no interval; play more games)"
    return f"Elo {format_elo(stats.elo)} (95%: {format_elo(low)} .. {format_elo(high)})"
