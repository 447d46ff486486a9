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


# ------------------------------------------------------------ calibration of the chances
import json  # noqa: E402
from importlib import resources  # noqa: E402

from games.backgammon import cube as cube_model  # noqa: E402
from games.backgammon import network  # noqa: E402
from games.weights import WeightsError  # noqa: E402

CONTACT = BackgammonState.from_points(  # X has a 5-point board with two O checkers closed in
    {6: 3, 5: 3, 4: 2, 3: 2, 2: 2, 8: 2, 13: 1}, {25: 1, 1: 1, 24: 1, 13: 5, 8: 3, 6: 4}
)


def test_the_identity_calibration_changes_nothing() -> None:
    chances = CONTACT.chances(X)
    board, opponent = CONTACT.boards[X], CONTACT.boards[O]
    same = cube_model.Calibration().apply(chances, cube_model.position_features(board, opponent))
    assert same == pytest.approx(chances, abs=1e-9)


def test_the_shipped_calibration_gives_consistent_chances_in_contact_and_leaves_races_alone() -> None:
    calibrated = CONTACT.cube_chances()
    assert calibrated != CONTACT.chances(X)
    win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = calibrated
    assert 0 < win < 1 and 0 <= win_backgammon <= win_gammon <= win and 0 <= lose_backgammon <= lose_gammon <= 1 - win
    race = BackgammonState.from_points({6: 4, 5: 3, 4: 2, 8: 2, 9: 2, 10: 2}, {6: 4, 5: 3, 4: 2, 8: 2, 9: 2, 11: 2})
    assert race.is_race() and race.cube_chances() == race.chances(X)


def test_no_gammon_is_calibrated_into_a_game_the_loser_has_started_bearing_off() -> None:
    """O has borne a checker off: X cannot win a gammon, whatever the network's share."""
    state = BackgammonState.from_points({6: 3, 5: 3, 4: 3, 3: 3, 8: 2, 13: 1}, {6: 4, 5: 3, 4: 3, 3: 2, 2: 1, 23: 1})
    assert not state.is_race()
    assert state.cube_chances()[1] < min(1e-5, state.chances(X)[1])


def test_a_bad_calibration_is_refused_in_one_line() -> None:
    opening = [0.5, 0.15, 0.01, 0.13, 0.01]
    good = {"win": [0, 1, 0, 0, 0, 0, 0], "win_gammon": [0, 1, 0, 0, 0, 0, 0, 0], "lose_gammon": [0, 1, 0, 0, 0, 0, 0, 0],
            "network_opening": opening}
    assert cube_model.Calibration.from_weights(good) == cube_model.Calibration(network_opening=tuple(opening))
    with pytest.raises(WeightsError, match="win must be a list of 7 numbers"):
        cube_model.Calibration.from_weights({**good, "win": [0, 1]})
    with pytest.raises(WeightsError, match="unknown extra"):
        cube_model.Calibration.from_weights({**good, "extra": [1]})
    with pytest.raises(WeightsError, match="lose_gammon must be"):
        cube_model.Calibration.from_weights({**good, "lose_gammon": [0, 1, 0, 0, 0, 0, 0, True]})
    with pytest.raises(WeightsError, match="network_opening must be a list of 5 numbers"):
        cube_model.Calibration.from_weights({name: value for name, value in good.items() if name != "network_opening"})


def test_the_shipped_calibration_was_fitted_to_the_shipped_network() -> None:
    """A calibration fitted to another network made the cube decisions worse (82% of gnubg's
    verdicts against 89% from the network's chances): a new network needs a new fit."""
    document = json.loads(resources.files("resources").joinpath("weights", "backgammon_cube.json").read_text())
    fitted = cube_model.Calibration.from_weights(document["weights"])
    assert fitted.fits(network.default_network()), (
        "resources/weights/backgammon_cube.json was fitted to another network: refit it "
        "(tools/backgammon_cube.py --fit, command in its docstring)"
    )
    assert cube_model.shipped_calibration() == fitted


def test_a_calibration_applies_only_to_the_network_it_was_fitted_to() -> None:
    """Another network in use (the packaged one with its output biases moved): the cube
    reads its chances as they are, and the shipped calibration does not fit it."""
    weights = json.loads(resources.files("resources").joinpath("weights", "backgammon_net.json").read_text())["weights"]
    other = {**weights, "output_bias": [bias + 0.5 for bias in weights["output_bias"]]}
    assert not cube_model.shipped_calibration().fits(network.from_weights(other))
    assert cube_model.Calibration().fits(network.from_weights(other))
    try:
        BackgammonState.set_weights(other)
        assert CONTACT.cube_chances() == CONTACT.chances(X)
    finally:
        BackgammonState.set_weights(None)
    assert CONTACT.cube_chances() != CONTACT.chances(X)
