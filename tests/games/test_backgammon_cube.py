"""The doubling cube: Janowski's cubeful equity and the engine's cube decisions.

The formula checks use numbers worked out by hand from the textbook take points: with no
gammons, a dead cube's take point is 25% and a fully live cube's 20% (Janowski 1993;
Robertie). The position checks are clear cases any sound player agrees on."""

from __future__ import annotations

import pytest

from ai.engine import search
from ai.settings import Limits, SearchSettings
from games.backgammon import DOUBLE, DROP, NO_DOUBLE, TAKE, BackgammonState, O, X
from games.backgammon.cube import cube_decision, cubeful_equity, live_cube_equity

NO_GAMMONS = 0.0, 0.0, 0.0, 0.0


def chances(win: float) -> tuple[float, float, float, float, float]:
    return (win, *NO_GAMMONS)


@pytest.mark.parametrize(("efficiency", "take_point"), [(0.0, 0.25), (1.0, 0.20)])
def test_take_points_of_a_dead_and_a_live_cube(efficiency: float, take_point: float) -> None:
    """The taker takes at ``take_point`` and above, passes below (the doubler's win chance is
    1 - the taker's)."""
    just_take = cube_decision(chances(1.0 - take_point - 0.001), centred=True, efficiency=efficiency)
    just_pass = cube_decision(chances(1.0 - take_point + 0.001), centred=True, efficiency=efficiency)
    assert just_take.should_take and not just_pass.should_take
    exactly = cube_decision(chances(1.0 - take_point), centred=True, efficiency=efficiency)
    assert exactly.double_take == pytest.approx(1.0)


def test_live_cube_equity_turns_at_the_take_and_cash_points() -> None:
    """W = L = 1: take point 0.5 / 2.5 = 0.2, cash point 2 / 2.5 = 0.8."""
    assert live_cube_equity(0.2, 1.0, 1.0, "centred") == pytest.approx(-1.0)
    assert live_cube_equity(0.8, 1.0, 1.0, "centred") == pytest.approx(1.0)
    assert live_cube_equity(0.5, 1.0, 1.0, "centred") == pytest.approx(0.0)
    assert live_cube_equity(0.5, 1.0, 1.0, "mine") == pytest.approx(-1.0 + 2.0 * 0.5 / 0.8)
    assert live_cube_equity(0.5, 1.0, 1.0, "theirs") == pytest.approx(-1.0 + 2.0 * 0.3 / 0.8)
    # owning the cube is worth something, facing it costs something
    for win in (0.3, 0.5, 0.7):
        mine, centred, theirs = (cubeful_equity(chances(win), side, 0.68) for side in ("mine", "centred", "theirs"))
        assert mine > centred > theirs


def test_too_good_to_double_when_a_gammon_is_likely() -> None:
    """90% wins of which half are gammons: cashing one point gives up more than it gains."""
    decision = cube_decision((0.9, 0.45, 0.0, 0.0, 0.0), centred=True, efficiency=0.68)
    assert not decision.should_take and decision.is_too_good and not decision.should_double


def decide(state: BackgammonState) -> object:
    """The engine's own choice, as the app asks for it: answered from the chances (the
    game's forced answer), not searched, and the same with the book switched off."""
    answer = search(state, SearchSettings(algorithm="star2"), Limits(depth=2))
    assert answer.forced and not answer.book and answer.nodes == 0 and answer.best_move in state.legal_moves()
    without_book = search(state, SearchSettings(algorithm="star2", book=False), Limits(depth=2))
    assert without_book.forced and without_book.best_move == answer.best_move
    return answer.best_move


def test_a_bear_off_race_far_ahead_is_double_and_pass() -> None:
    """X has 7 checkers (33 pips) against O's 15 (62 pips), no gammon chances either way."""
    state = BackgammonState.from_points({6: 2, 5: 2, 4: 2, 3: 1}, {6: 4, 5: 3, 4: 3, 3: 2, 2: 2, 1: 1})
    advice = state.cube_advice()
    assert advice is not None and advice.should_double and not advice.should_take
    assert decide(state) == DOUBLE
    state.play(DOUBLE)
    assert decide(state) == DROP


def test_a_slightly_ahead_race_is_no_double_and_a_take() -> None:
    """101 pips against 103, X on roll: about 58% (a double needs roughly a 10% lead)."""
    state = BackgammonState.from_points({6: 4, 5: 3, 4: 2, 8: 2, 9: 2, 10: 2}, {6: 4, 5: 3, 4: 2, 8: 2, 9: 2, 11: 2})
    advice = state.cube_advice()
    assert advice is not None and not advice.should_double and advice.should_take
    assert decide(state) == NO_DOUBLE
    state.play(DOUBLE)
    assert decide(state) == TAKE


def test_a_race_at_the_doubling_point_is_double_and_take() -> None:
    """62 pips against 67, X on roll (an 8% lead with the roll): a double, and a take."""
    state = BackgammonState.from_points({6: 4, 5: 3, 4: 3, 3: 2, 2: 2, 1: 1}, {6: 5, 5: 3, 4: 3, 3: 2, 2: 2})
    assert decide(state) == DOUBLE
    state.play(DOUBLE)
    assert decide(state) == TAKE


def test_cubeful_evaluation_is_antisymmetric_and_cubeless_games_unchanged() -> None:
    state = BackgammonState.from_points({6: 4, 5: 3, 4: 3, 3: 2, 2: 2, 1: 1}, {6: 5, 5: 3, 4: 3, 3: 2, 2: 2})
    assert state.evaluate(X) == pytest.approx(-state.evaluate(O))
    advice = state.cube_advice()
    assert advice is not None and state.evaluate(X) == pytest.approx(advice.best)
    cubeless = BackgammonState.from_points(
        {6: 4, 5: 3, 4: 3, 3: 2, 2: 2, 1: 1}, {6: 5, 5: 3, 4: 3, 3: 2, 2: 2}, cube_enabled=False
    )
    win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = cubeless.chances(X)
    expected = 2 * win - 1 + win_gammon + win_backgammon - lose_gammon - lose_backgammon
    assert cubeless.evaluate(X) == pytest.approx(expected)
    assert cubeless.cube_advice() is None and cubeless.forced_answer() is None


# ------------------------------------------------------------ the chances the cube reads
CONTACT = BackgammonState.from_points(  # X has a 5-point board with two O checkers closed in
    {6: 3, 5: 3, 4: 2, 3: 2, 2: 2, 8: 2, 13: 1}, {25: 1, 1: 1, 24: 1, 13: 5, 8: 3, 6: 4}
)


def test_cube_decisions_and_the_search_read_the_network_chances_as_they_are() -> None:
    """The engine's decision (``cube_advice``) and a search's value of the cube decision
    (``evaluate``) come from the same chances: the network's."""
    advice = CONTACT.cube_advice()
    assert advice == cube_decision(CONTACT.chances(X), centred=True, efficiency=0.68)
    assert CONTACT.evaluate(X) == pytest.approx(advice.best)
