"""A backgammon match: points per game, the Crawford rule, dead cubes, the next game's
position, JSON round trips and hostile input."""

from __future__ import annotations

import json
import math
import random
from typing import Any

import pytest

from games.backgammon import CENTRED, CUBE_DECISION, DOUBLE, DROP, NO_DOUBLE, ROLL, TAKE, BackgammonState, O, X
from games.backgammon.gnubg_ids import MatchKey, encode_match_id
from games.backgammon.match import GameResult, Match, MatchError
from games.base import CHANCE, BadPositionError

NEAR_END = ({1: 1}, {6: 5, 5: 5, 4: 5})
"""X (on roll) bears off its last checker with any roll; O has borne off nothing: a gammon
when X wins now, and O's checkers are all home (no backgammon)."""


def match_position(
    on_roll: dict[int, int],
    opponent: dict[int, int],
    *,
    length: int,
    score: tuple[int, int],
    crawford: bool = False,
    cube_value: int = 1,
    cube_owner: int = CENTRED,
    player: int = X,
) -> BackgammonState:
    """A position of a match, at the cube decision (or roll) of ``player``."""
    money = BackgammonState.from_points(on_roll, opponent, player=player)
    position = money.to_text().split(":")[0]
    key = MatchKey(cube_value=cube_value, cube_owner=cube_owner, player_on_roll=player, turn=player,
                   match_length=length, score=score, crawford=crawford)
    return BackgammonState.from_text(f"{position}:{encode_match_id(key)}")


def finish(state: BackgammonState) -> BackgammonState:
    """Roll 6-5 and play X's last checker off."""
    for move in state.roll_moves("6-5"):  # no double (when the cube is live), then the dice
        state.play(move)
    state.play(state.legal_moves()[0])
    assert state.is_terminal()
    return state


# --------------------------------------------------------------------- scoring
def test_a_gammon_at_a_doubled_cube_scores_four_points_in_a_match() -> None:
    match = Match(7, (1, 2))
    state = match_position(*NEAR_END, length=7, score=(1, 2), cube_value=2, cube_owner=X)
    after = match.record(finish(state))
    assert after.score == (1, 6) and after.games[-1] == GameResult(X, 4, 2, False)
    assert after.games[-1].describe() == "X wins a gammon: 4 points"
    assert after.crawford  # X reached 6 in a 7-point match: the next game is the Crawford game


def test_a_drop_scores_the_cube_before_the_double() -> None:
    state = match_position(*NEAR_END, length=5, score=(0, 0), cube_value=2, cube_owner=O, player=O)
    state.play(DOUBLE)
    state.play(DROP)
    result = GameResult.from_state(state)
    assert result == GameResult(O, 2, 2, True) and result.describe() == "X drops: O wins 2 points"
    assert Match(5).with_result(result).score == (2, 0)


def test_points_beyond_the_length_win_the_match() -> None:
    match = Match(3, (2, 0)).with_result(GameResult(O, 6, 2))
    assert match.is_over and match.winner == O and match.score == (8, 0)
    assert match.describe() == "Match to 3 · O 8 – X 0 · O wins the match"
    with pytest.raises(MatchError, match="the match is over"):
        match.new_game()
    with pytest.raises(MatchError, match="the match is over"):
        match.with_result(GameResult(X, 1))


# ------------------------------------------------------------- Crawford rule
def test_crawford_game_then_post_crawford_games() -> None:
    match = Match(5).with_result(GameResult(X, 4, 2))
    assert match.crawford and match.describe() == "Match to 5 · O 0 – X 4 · Crawford game"
    crawford_game = match.new_game()
    assert crawford_game.crawford and not crawford_game.can_double(O) and not crawford_game.can_double(X)
    # the Crawford game: nobody is ever asked to double
    state = match_position(*NEAR_END, length=5, score=(0, 4), crawford=True, player=O)
    assert state.phase == ROLL and state.legal_moves()[0] != DOUBLE
    after = match.with_result(GameResult(O, 1))
    assert not after.crawford and after.is_post_crawford and after.describe().endswith("post-Crawford")
    game = after.new_game()
    assert not game.crawford
    assert game.can_double(O)  # the trailer (4 away) may double again
    assert not game.can_double(X)  # the leader needs 1 point: the cube is dead for X
    # a later post-Crawford game is never a Crawford game again
    assert not after.with_result(GameResult(O, 1)).crawford
    assert not after.with_result(GameResult(O, 3)).crawford  # O reaches 4 too: double match point


def test_reaching_match_point_twice_gives_one_crawford_game() -> None:
    match = Match(3).with_result(GameResult(O, 2))  # O 1 away: the Crawford game
    assert match.crawford
    match = match.with_result(GameResult(X, 2))  # X 1 away too, after the Crawford game
    assert not match.crawford and match.score == (2, 2) and match.is_post_crawford


def test_one_point_match_has_no_crawford_game_and_no_cube() -> None:
    game = Match(1).new_game()
    assert not game.crawford and not game.can_double(O) and not game.can_double(X)
    assert Match(1).with_result(GameResult(X, 1)).winner == X


def test_a_cube_that_already_wins_the_match_is_dead() -> None:
    # O 2 away owns the cube at 2: a win gives O the match, so O never redoubles
    state = match_position(*NEAR_END, length=7, score=(5, 0), cube_value=2, cube_owner=O, player=O)
    assert not state.can_double(O) and state.phase == ROLL
    # X (7 away) owning the same cube may redouble
    state = match_position(*NEAR_END, length=7, score=(5, 0), cube_value=2, cube_owner=X)
    assert state.can_double(X) and state.phase == CUBE_DECISION
    assert state.legal_moves() == [NO_DOUBLE, DOUBLE]


def test_a_pasted_id_with_a_double_of_a_dead_cube_says_why() -> None:
    key = MatchKey(cube_value=2, cube_owner=O, player_on_roll=O, turn=X, doubled=True, match_length=7, score=(5, 0))
    with pytest.raises(BadPositionError, match="O needs 2 points: the cube at 2 is dead"):
        BackgammonState.from_text(f"4HPwATDgc/ABMA:{encode_match_id(key)}")


def test_the_next_games_position_carries_the_match() -> None:
    match = Match(7, (3, 5))
    state = match.new_game()
    assert (state.match_length, state.score, state.crawford, state.jacoby) == (7, (3, 5), False, False)
    again = BackgammonState.from_text(state.to_text())
    assert (again.match_length, again.score, again.crawford) == (7, (3, 5), False)
    assert Match.from_state(again) == match and Match.from_state(BackgammonState.initial()) is None
    crawford = Match(7, (6, 2), crawford=True).new_game()
    assert BackgammonState.from_text(crawford.to_text()).crawford


def test_a_game_of_another_score_is_not_recorded() -> None:
    state = finish(match_position(*NEAR_END, length=7, score=(1, 2)))
    with pytest.raises(MatchError, match="1-2 of a 7-point match"):
        Match(7, (0, 0)).record(state)
    with pytest.raises(MatchError, match="not over"):
        GameResult.from_state(BackgammonState.initial())


def test_jacoby_and_impossible_scores_are_refused_for_a_match_game() -> None:
    with pytest.raises(BadPositionError, match="Jacoby"):
        BackgammonState.initial(match_length=5, jacoby=True)
    with pytest.raises(BadPositionError, match="already over"):
        BackgammonState.initial(match_length=5, score=(5, 1))
    with pytest.raises(BadPositionError, match="Crawford game is played when one player"):
        BackgammonState.initial(match_length=5, score=(1, 1), crawford=True)
    for length in (-1, 99, math.nan, "7", True):
        with pytest.raises(BadPositionError, match="a match is 1-64 points long"):
            BackgammonState.initial(match_length=length)  # type: ignore[arg-type]
    with pytest.raises(BadPositionError, match="money play has no match score"):
        BackgammonState.initial(score=(1, 0))


def test_a_whole_match_played_at_random_keeps_the_rules() -> None:
    """Random cube actions and plays: every game's points are cube x 1/2/3 (or the cube on
    a drop), one Crawford game at most, never a cube turned in it, the match ends when a
    player reaches the length."""
    rng = random.Random(5)
    match = Match(5)
    crawford_games = 0
    while not match.is_over:
        state = match.new_game()
        crawford_games += state.crawford
        while not state.is_terminal():
            if state.to_move() == CHANCE:
                outcomes = state.chance_outcomes()
                state.play(outcomes[rng.randrange(len(outcomes))][0])
                continue
            moves = state.legal_moves()
            if state.crawford or not state.can_double(state.player):
                assert DOUBLE not in moves
            if state.match_length - state.score[state.player] <= state.cube_value and state.phase == CUBE_DECISION:
                pytest.fail(f"a dead cube offered: {state.to_text()}")
            state.play(moves[rng.randrange(len(moves))])
        previous = match
        match = match.record(state)
        result = match.games[-1]
        assert result.points in ((result.cube_value,) if result.dropped else (result.cube_value, 2 * result.cube_value, 3 * result.cube_value))
        assert sum(match.score) == sum(previous.score) + result.points
    assert crawford_games <= 1 and max(match.score) >= 5 and match.winner is not None
    assert Match.from_json(json.loads(json.dumps(match.to_json()))) == match


# ---------------------------------------------------------------------- JSON
def test_json_round_trip() -> None:
    match = Match(9).with_result(GameResult(O, 2, 1)).with_result(GameResult(X, 4, 4, True))
    data = match.to_json()
    assert data == {"length": 9, "score": [2, 4], "crawford": False,
                    "games": [{"winner": 0, "points": 2, "cube": 1, "dropped": False},
                              {"winner": 1, "points": 4, "cube": 4, "dropped": True}]}
    assert Match.from_json(json.loads(json.dumps(data))) == match
    assert Match.from_json({"length": 3}) == Match(3)  # score and games default


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (None, "a match is an object"),
        ([7, 0, 0], "a match is an object"),
        ({"length": 0}, "a match length must be a whole number 1-64, not 0"),
        ({"length": -1}, "a match length must be a whole number 1-64, not -1"),
        ({"length": 99}, "not 99"),
        ({"length": math.nan}, "not nan"),
        ({"length": "7"}, "not '7'"),
        ({"length": 7.0}, "not 7.0"),
        ({"length": True}, "not True"),
        ({}, "not None"),
        ({"length": 7, "score": [1]}, "two numbers"),
        ({"length": 7, "score": "3-5"}, "two numbers"),
        ({"length": 7, "score": [-1, 0]}, "O's score must be a whole number"),
        ({"length": 7, "score": [0, 1e300]}, "X's score must be a whole number"),
        ({"length": 7, "score": [7, 9]}, "both players cannot have won"),
        ({"length": 7, "score": [0, 0], "crawford": True}, "Crawford game is played when one player"),
        ({"length": 7, "score": [6, 6], "crawford": True}, "Crawford game is played when one player"),
        ({"length": 7, "crawford": "yes"}, "'crawford' is true or false"),
        ({"length": 7, "games": {}}, "games are a list"),
        ({"length": 7, "games": [1]}, "a game result is an object"),
        ({"length": 7, "games": [{"winner": 0, "points": 1}]}, "O won 1 points in the games listed but has only 0"),
        ({"length": 7, "score": [4, 0], "games": [{"winner": 0, "points": 4, "cube": 1}]}, "scores 1 or 2 or 3 points, not 4"),
        ({"length": 7, "score": [3, 0], "games": [{"winner": 0, "points": 3, "cube": 3}]}, "power of two"),
        ({"length": 7, "score": [3, 0], "games": [{"winner": 0, "points": 2, "cube": 2, "dropped": "no"}]}, "'dropped'"),
        ({"length": 7, "games": [{"winner": 0, "points": 1, "extra": 1}]}, "unknown fields: extra"),
        ({"length": 7, "rules": "jacoby"}, "unknown fields: rules"),
    ],
)
def test_bad_match_json_is_refused_with_one_line(data: Any, message: str) -> None:
    with pytest.raises(MatchError, match=message.replace("(", r"\(").replace(")", r"\)")) as caught:
        Match.from_json(data)
    assert "\n" not in str(caught.value)


def test_direct_construction_is_checked_too() -> None:
    with pytest.raises(MatchError):
        Match(0)
    with pytest.raises(MatchError):
        Match(5, (1, 2, 3))  # type: ignore[arg-type]
    with pytest.raises(MatchError):
        GameResult(X, 4, 2, dropped=True)  # a drop scores the cube, not a gammon
    assert GameResult(X, 6, 2).kind == 3 and GameResult(O, 2, 2, True).kind == 1


def test_take_keeps_the_match_fields() -> None:
    state = match_position(*NEAR_END, length=9, score=(2, 3), player=O)
    state.play(DOUBLE)
    state.play(TAKE)
    assert (state.cube_value, state.cube_owner, state.match_length, state.score) == (2, X, 9, (2, 3))
