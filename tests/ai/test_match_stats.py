"""Match statistics against values worked out by hand and published ones."""

from __future__ import annotations

import math

import pytest

from ai.match.stats import (
    MatchStatistics,
    PointStatistics,
    elo_from_score,
    format_elo_line,
    likelihood_of_superiority,
    score_from_elo,
)


def test_sixty_percent_is_seventy_elo() -> None:
    assert elo_from_score(0.6) == pytest.approx(70.44, abs=0.01)
    assert MatchStatistics(60, 0, 40).elo == pytest.approx(70.44, abs=0.01)
    assert MatchStatistics(50, 20, 30).elo == pytest.approx(70.44, abs=0.01)  # 60/100 with draws


def test_elo_and_expected_score_are_inverse() -> None:
    for difference in (-400.0, -70.0, 0.0, 35.0, 200.0, 800.0):
        assert elo_from_score(score_from_elo(difference)) == pytest.approx(difference)
    assert score_from_elo(400.0) == pytest.approx(10 / 11)  # the logistic model's 10:1 at 400


def test_elo_interval_is_the_score_interval_mapped() -> None:
    """60 wins, 40 losses: per-game variance 0.24, SE = sqrt(0.24/100) = 0.04899, so the score
    interval is 0.6 +- 0.0960 and the Elo interval [elo(0.5040), elo(0.6960)] = [+2.8, +143.9]."""
    stats = MatchStatistics(60, 0, 40)
    assert stats.score_standard_error == pytest.approx(math.sqrt(0.24 / 100))
    low, high = stats.elo_interval
    assert low == pytest.approx(2.79, abs=0.05)
    assert high == pytest.approx(143.9, abs=0.1)
    assert "Elo +70 (95%: +3 .. +144)" == format_elo_line(stats)


def test_draws_narrow_the_interval() -> None:
    """Same score, fewer decisive games: less variance per game."""
    decisive = MatchStatistics(60, 0, 40).elo_interval
    drawish = MatchStatistics(30, 60, 10).elo_interval
    assert drawish[1] - drawish[0] < decisive[1] - decisive[0]


def test_likelihood_of_superiority() -> None:
    """LOS = (1 + erf((W - L) / sqrt(2 (W + L)))) / 2; draws do not count."""
    assert likelihood_of_superiority(10, 10) == 0.5
    assert likelihood_of_superiority(0, 0) == 0.5
    assert likelihood_of_superiority(60, 40) == pytest.approx(0.97725, abs=1e-5)  # z = 2
    assert likelihood_of_superiority(40, 60) == pytest.approx(1 - 0.97725, abs=1e-5)
    assert MatchStatistics(60, 500, 40).los == pytest.approx(0.97725, abs=1e-5)


def test_a_clean_sweep_has_no_finite_elo() -> None:
    stats = MatchStatistics(10, 0, 0)
    assert stats.elo == math.inf
    assert "every game won" in format_elo_line(stats)


def test_points_a_game() -> None:
    points = PointStatistics.of([1, -1, 2, -1, 1, 1])  # mean 0.5, sample variance 1.5
    assert points.mean == pytest.approx(0.5)
    assert points.half_width == pytest.approx(1.96 * math.sqrt(1.5 / 6), abs=1e-3)
