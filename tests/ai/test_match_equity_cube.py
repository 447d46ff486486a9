"""The match-equity cube against GNU Backgammon's own decisions (0 ply) at match scores, and
the cube facts every match player knows (DMP, Crawford, post-Crawford, dead cubes).

``tests/data/backgammon_match_cube.json``: 50 positions of the network's self-play, each at
12 match scores, labelled by gnubg 1.07's ``cfevaluate`` (command and version in the file;
``tools/backgammon_match_cube.py`` makes and checks it)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from games.backgammon import CENTRED, CUBE_DECISION, DOUBLE, DROP, NO_DOUBLE, ROLL, TAKE, BackgammonState, O, X
from games.backgammon.cube import CubeDecision
from games.backgammon.gnubg_ids import MatchKey, encode_match_id
from games.backgammon.match_cube import (
    MatchContext,
    cash_points,
    cubeful_mwc,
    dead_cube_mwc,
    efficiency,
    match_cube_decision,
    normalized,
)
from games.backgammon.met import shipped_met

DATA = Path(__file__).resolve().parents[1] / "data" / "backgammon_match_cube.json"

MIN_AGREEMENT = 0.93
"""Our verdicts (double or not, and take or pass, both right) agree with gnubg's on 95.2%
of the 600 decisions of the file (on a held-out set of 1800: 88.8%); every disagreement
comes from our network's chances, none from the model (gnubg's own chances give gnubg's
verdicts on all 600, its printed equities to 1e-4)."""
MIN_DOUBLE_AGREEMENT = 0.95
MIN_TAKE_AGREEMENT = 0.97

OPENING_LIKE = (0.52, 0.14, 0.006, 0.12, 0.005)
"""Cubeless chances of a position near the start: about even, gammons both ways."""


@cache
def labelled() -> tuple[dict[str, Any], ...]:
    return tuple(json.loads(DATA.read_text(encoding="utf-8"))["decisions"])


def gnubg_verdict(entry: dict[str, Any]) -> tuple[bool, bool]:
    doubles = min(entry["double_take"], entry["double_pass"]) > entry["no_double"]
    return doubles, entry["double_take"] <= entry["double_pass"]


def model_from(state: BackgammonState, chances: tuple[float, ...]) -> CubeDecision:
    on_roll = state.player
    return match_cube_decision(
        chances,  # type: ignore[arg-type]
        state.match_context(on_roll),
        state.cube_owner == CENTRED,
        efficiency(state.boards[on_roll], state.boards[1 - on_roll]),
    )


def test_the_file_says_what_made_it() -> None:
    document = json.loads(DATA.read_text(encoding="utf-8"))
    assert document["gnubg"].startswith("GNU Backgammon 1.07")
    assert "Kazaross XG2" in document["met"] and "tools.backgammon_match_cube" in document["command"]
    scores = {entry["score"] for entry in document["decisions"]}
    assert {"2a-1a post-Crawford", "2a-4a", "3a-3a", "5a-7a", "2a-2a", "6a-4a redouble at 2"} <= scores
    assert len(document["decisions"]) == 600


def test_the_model_reproduces_gnubgs_equities_from_gnubgs_chances() -> None:
    """Cl2CfMatch and GetPoints on the MET: gnubg's no double / double-take / double-pass,
    as it prints them (normalized match equity at the current cube), to 1e-3 everywhere."""
    worst = 0.0
    for entry in labelled():
        state = BackgammonState.from_text(entry["id"])
        decision = model_from(state, tuple(entry["chances"]))
        context = state.match_context(state.player)
        ours = [normalized(value, context, state.cube_value)
                for value in (decision.no_double, decision.double_take, decision.double_pass)]
        theirs = [entry["no_double"], entry["double_take"], entry["double_pass"]]
        gap = max(abs(a - b) for a, b in zip(ours, theirs))
        assert gap < 1e-3, (entry["id"], entry["score"], ours, theirs)
        assert (decision.should_double, decision.should_take) == gnubg_verdict(entry), (entry["id"], entry["score"])
        worst = max(worst, gap)
    assert worst > 0.0  # the numbers were compared, not skipped


def test_our_decisions_agree_with_gnubgs() -> None:
    both = doubles = takes = 0
    for entry in labelled():
        advice = BackgammonState.from_text(entry["id"]).cube_advice()
        assert advice is not None, entry["id"]
        double, take = gnubg_verdict(entry)
        doubles += advice.should_double == double
        takes += advice.should_take == take
        both += advice.should_double == double and advice.should_take == take
    count = len(labelled())
    assert both / count >= MIN_AGREEMENT, f"both verdicts {both}/{count}"
    assert doubles / count >= MIN_DOUBLE_AGREEMENT, f"double/no double {doubles}/{count}"
    assert takes / count >= MIN_TAKE_AGREEMENT, f"take/pass {takes}/{count}"


def match_state(length: int, score: tuple[int, int], *, crawford: bool = False, player: int = X,
                cube_value: int = 1, cube_owner: int = CENTRED) -> BackgammonState:
    """The starting checkers at a match score, ``player`` to decide before rolling."""
    key = MatchKey(cube_value=cube_value, cube_owner=cube_owner, player_on_roll=player, turn=player,
                   match_length=length, score=score, crawford=crawford)
    return BackgammonState.from_text(f"4HPwATDgc/ABMA:{encode_match_id(key)}")


# ----------------------------------------------------------------- known facts
def test_nobody_doubles_at_double_match_point() -> None:
    for player in (O, X):
        state = match_state(7, (6, 6), player=player)
        assert state.phase == ROLL and not state.can_double(O) and not state.can_double(X)
        assert state.forced_answer() is None  # nothing to decide
    assert MatchContext(1, 1).cube_is_dead
    # with the cube dead, the cubeful chance is the cubeless one: the match is this game
    assert cubeful_mwc(OPENING_LIKE, MatchContext(1, 1), "centred", 0.68) == pytest.approx(0.52)


def test_no_cube_action_in_the_crawford_game() -> None:
    for player in (O, X):
        state = match_state(5, (4, 1), crawford=True, player=player)
        assert state.phase == ROLL and DOUBLE not in state.legal_moves()
        assert state.cube_advice() is None
    context = MatchContext(1, 4, crawford_game=True)
    assert cubeful_mwc(OPENING_LIKE, context, "centred", 0.68) == dead_cube_mwc(OPENING_LIKE, context)


@pytest.mark.parametrize("trailer_away", [2, 3, 4, 5, 6])
def test_post_crawford_the_trailer_doubles_at_once(trailer_away: int) -> None:
    """Even in an even position the trailer doubles: the leader needs one point whatever the
    cube says, so the cube costs the trailer nothing; the leader never doubles."""
    length = 7
    state = match_state(length, (length - trailer_away, length - 1), player=O)
    assert state.phase == CUBE_DECISION
    assert state.forced_answer() == DOUBLE
    leader = match_state(length, (length - trailer_away, length - 1), player=X)
    assert leader.phase == ROLL and not leader.can_double(X)
    decision = match_cube_decision(OPENING_LIKE, MatchContext(trailer_away, 1), True, 0.68)
    assert decision.should_double


def test_post_crawford_the_leader_takes_or_drops_by_the_met() -> None:
    """Trailer 2-away: a pass leaves double match point (1/2) and after a take the game
    decides the match, so the leader takes while the trailer is no favourite and drops the
    moment the trailer is (the free drop: why the MET gives 2-away only 48.8%). Trailer
    3-away: a pass leaves the trailer that 48.8%, a take gives the trailer only 1/2 for a
    single win, so the leader takes nearly everything."""
    met = shipped_met()
    free_drop = met.equity(2, 1, post_crawford=True)
    assert free_drop == pytest.approx(0.48803)
    context = MatchContext(2, 1)
    for win in (0.40, 0.49, 0.51, 0.60):
        decision = match_cube_decision((win, 0.0, 0.0, 0.0, 0.0), context, True, 0.68)
        assert decision.double_pass == 0.5  # double match point
        assert decision.double_take == pytest.approx(win)  # the doubled cube is dead: the game is the match
        assert decision.should_take == (win <= 0.5), win
    three_away = MatchContext(3, 1)
    for win, takes in ((0.60, True), (0.95, True), (0.99, False)):
        decision = match_cube_decision((win, 0.0, 0.0, 0.0, 0.0), three_away, True, 0.68)
        assert decision.double_pass == pytest.approx(free_drop)
        assert decision.double_take == pytest.approx(win * 0.5)  # a single win reaches 1-away both
        assert decision.should_take == takes, win
    # with gammons the trailer's take value rises (a gammon wins the match at once)
    gammons = match_cube_decision((0.95, 0.3, 0.0, 0.0, 0.0), three_away, True, 0.68)
    assert gammons.double_take == pytest.approx(0.65 * 0.5 + 0.3) and not gammons.should_take


def test_a_dead_cube_is_never_turned_and_a_live_one_is_worth_something() -> None:
    # X 2 away owns the cube at 2 in a 7-point match: the cube already wins X the match
    state = match_state(7, (0, 5), player=X, cube_value=2, cube_owner=X)
    assert state.phase == ROLL and state.cube_advice() is None
    # centred cube, both far away: owning it is worth more than the opponent owning it
    context = MatchContext(7, 7)
    mine = cubeful_mwc(OPENING_LIKE, context, "mine", 0.68)
    theirs = cubeful_mwc(OPENING_LIKE, context, "theirs", 0.68)
    centred = cubeful_mwc(OPENING_LIKE, context, "centred", 0.68)
    assert theirs < centred < mine


def test_cash_points_at_a_symmetric_score_are_symmetric() -> None:
    chances = (0.5, 0.1, 0.0, 0.1, 0.0)
    mine, theirs = cash_points(chances, MatchContext(5, 5))
    assert mine == pytest.approx(theirs) and 0.6 < mine < 0.9


def test_forced_answers_follow_the_match_decision() -> None:
    state = match_state(7, (4, 6), player=O)  # post-Crawford: O 3 away doubles X 1 away
    assert state.forced_answer() == DOUBLE
    state.play(DOUBLE)
    answer = state.forced_answer()
    advice = state.cube_advice()
    assert advice is not None and answer == (TAKE if advice.should_take else DROP)
    quiet = match_state(9, (0, 0), player=X)  # nobody doubles the starting position
    assert quiet.forced_answer() == NO_DOUBLE


def test_match_evaluation_is_antisymmetric_and_in_normalized_match_equity() -> None:
    state = match_state(7, (2, 4), player=X)
    for player in (O, X):
        assert state.evaluate(player) == pytest.approx(-state.evaluate(1 - player))
        assert state.match_winning_chance(player) == pytest.approx(1.0 - state.match_winning_chance(1 - player))
    low, high = state.utility_bounds()
    assert low <= state.evaluate(O) <= high and state.stake() == 1.0  # the cube at 1 is one point
    # X (3 away) against O (5 away) at the start: the MET's side, more or less
    assert 0.55 < state.match_winning_chance(X) < 0.75


def test_money_play_is_not_touched() -> None:
    state = BackgammonState.from_points({6: 5, 8: 3, 13: 5, 24: 2}, {6: 5, 8: 3, 13: 5, 24: 2})
    assert state.match_length == 0 and state.stake() == 1.0
    advice = state.cube_advice()
    assert advice is not None and advice.double_pass == 1.0  # money units: +1 point on a pass
    with pytest.raises(ValueError, match="money play has no match score"):
        state.match_context(X)


@pytest.mark.parametrize(("length", "score", "crawford"), [(64, (0, 0), False), (64, (0, 63), False), (25, (24, 0), True), (1, (0, 0), False)])
def test_extreme_scores_evaluate_to_finite_numbers(length: int, score: tuple[int, int], crawford: bool) -> None:
    state = match_state(length, score, crawford=crawford, player=O)
    for player in (O, X):
        value = state.evaluate(player)
        low, high = state.utility_bounds()
        assert low <= value <= high and 0.0 <= state.match_winning_chance(player) <= 1.0


def test_the_stake_is_the_cubes_worth_at_the_score() -> None:
    """A loss in normalized equity over the stake is the loss in gnubg's normalized equity
    at the current cube (the unit of its match error rates)."""
    state = match_state(9, (2, 3), player=X, cube_value=2, cube_owner=O)
    context = state.match_context(X)
    better, worse = state.match_winning_chance(X), 0.3
    loss_at_one = normalized(better, context) - normalized(worse, context)
    assert state.evaluate(X) == pytest.approx(normalized(better, context))
    assert loss_at_one / state.stake() == pytest.approx(normalized(better, context, 2) - normalized(worse, context, 2))
    assert 1.0 < state.stake() < 2.5  # a 2-cube is worth about twice a point far from the end
    near_end = match_state(7, (5, 5), player=X, cube_value=2, cube_owner=O)  # 2-away each: the 2-cube decides
    assert near_end.stake() == pytest.approx(
        (1.0 - 0.0) / (shipped_met().equity(1, 2) - shipped_met().equity(2, 1))
    )
