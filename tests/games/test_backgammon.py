"""Backgammon: rules against hand-checked positions and gnubg's counts, gnubg ids, the cube,
notation round trips, evaluation sanity, and the protocol's property tests."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import get_game
from games.backgammon import (
    CENTRED,
    CHECKER_PLAY,
    CUBE_DECISION,
    NO_MOVE,
    OPENING,
    ROLL,
    TAKE_DECISION,
    BackgammonState,
    O,
    X,
)
from games.backgammon import notation
from games.backgammon.board import BAR, CHECKERS, OFF, Board, point_name, starting_board
from games.backgammon.gnubg_ids import (
    MatchKey,
    decode_match_id,
    decode_position_id,
    encode_match_id,
    encode_position_id,
)
from games.backgammon.movegen import generate_plays
from games.base import CHANCE, BadPositionError, IllegalMoveError
from tests.games.playout import random_playout as generic_playout
from tests.games.playout import random_step

DATA = Path(__file__).resolve().parent.parent / "data" / "backgammon"
OPENING_ROLLS = json.loads((DATA / "opening_moves.json").read_text())["rolls"]
START_ID = "4HPwATDgc/ABMA"


def random_playout(state: BackgammonState, rng: random.Random) -> Iterator[BackgammonState]:
    """``tests.games.playout.random_playout`` typed for backgammon states."""
    for current in generic_playout(state, rng):
        assert isinstance(current, BackgammonState)
        yield current


def start_with(roll: tuple[int, int]) -> BackgammonState:
    """The starting position, X to play ``roll`` (as after ``set gnubgid`` and ``roll``)."""
    state = BackgammonState.from_text(f"{START_ID}:cAkAAAAAAAAA")
    state.play("roll")
    state.play(roll)
    return state


def names(state: BackgammonState) -> list[str]:
    return sorted(state.move_name(move) for move in state.legal_moves())


def position(on_roll: dict[int, int], opponent: dict[int, int], dice: tuple[int, int], **rules: object) -> BackgammonState:
    """X on roll with ``dice``; maps are {point: checkers} in each owner's numbering."""
    return BackgammonState.from_points(on_roll, opponent, player=X, dice=dice, **rules)  # type: ignore[arg-type]


# ----------------------------------------------------------------- reference
def reference_plays(mine: Board, theirs: Board, dice: tuple[int, int]) -> set[tuple[tuple[int, ...], tuple[int, ...]]]:
    """A deliberately naive generator: every die order, every checker, full rule checks at
    each step, then the maximal-dice and larger-die rules; positions as tuples."""

    def steps(board: Board, other: Board, die: int) -> list[tuple[Board, Board]]:
        results = []
        sources = [BAR] if board[BAR] else [point for point in range(1, BAR) if board[point]]
        for source in sources:
            target = source - die
            if target >= 1:
                if other[BAR - target] >= 2:
                    continue
            else:
                if any(board[point] for point in range(7, BAR + 1)):
                    continue
                if target < 0 and any(board[point] for point in range(source + 1, 7)):
                    continue
                target = OFF
            new_board, new_other = list(board), list(other)
            new_board[source] -= 1
            new_board[target] += 1
            if target and new_other[BAR - target] == 1:
                new_other[BAR - target] = 0
                new_other[BAR] += 1
            results.append((new_board, new_other))
        return results

    high, low = max(dice), min(dice)
    orders = [[high] * 4] if high == low else [[high, low], [low, high]]
    finals: list[tuple[int, int, tuple[tuple[int, ...], tuple[int, ...]]]] = []

    def walk(board: Board, other: Board, remaining: list[int], used: int, first_die: int) -> None:
        children = steps(board, other, remaining[0]) if remaining else []
        if not children:
            finals.append((used, first_die, (tuple(board), tuple(other))))
        for new_board, new_other in children:
            walk(new_board, new_other, remaining[1:], used + 1, first_die or remaining[0])

    for order in orders:
        walk(list(mine), list(theirs), order, 0, 0)
    most = max(used for used, _, _ in finals)
    kept = [(first, result) for used, first, result in finals if used == most]
    if most == 1 and high != low and any(first == high for first, _ in kept):
        kept = [(first, result) for first, result in kept if first == high]
    return {result for _, result in kept}


def generated_positions(state: BackgammonState) -> set[tuple[tuple[int, ...], tuple[int, ...]]]:
    results = set()
    for move in state.legal_moves():
        child = state.result(move)
        results.add((tuple(child.boards[state.player]), tuple(child.boards[1 - state.player])))
    return results


# ---------------------------------------------------------------- opening rolls
@pytest.mark.parametrize("roll", sorted(OPENING_ROLLS))
def test_opening_roll_counts_match_gnubg(roll: str) -> None:
    high, low = (int(die) for die in roll.split("-"))
    state = start_with((high, low))
    assert state.phase == CHECKER_PLAY
    assert state.perft(1) == OPENING_ROLLS[roll]["distinct_resulting_positions"]
    # Distinct plays reach distinct positions.
    assert len(generated_positions(state)) == len(state.legal_moves())


def test_opening_total_is_447_and_matches_the_reference() -> None:
    total = 0
    for high, low in itertools.combinations_with_replacement(range(6, 0, -1), 2):
        plays = generate_plays(starting_board(), starting_board(), high, low)
        total += len(plays)
        state = start_with((high, low))
        assert generated_positions(state) == reference_plays(starting_board(), starting_board(), (high, low))
    assert total == 447


def test_known_opening_plays_are_named_like_gnubg() -> None:
    state = start_with((6, 5))
    assert names(state) == sorted(["24/13", "24/18 13/8", "24/18 8/3", "13/8 13/7", "13/7 8/3", "13/2", "8/3 8/2"])
    state.undo()
    state.play((3, 1))
    assert "8/5 6/5" in names(state)
    state.undo()
    state.play((6, 6))
    assert "24/18(2) 13/7(2)" in names(state)


def test_initial_opening_chance_node() -> None:
    state = BackgammonState.initial()
    assert state.to_move() == CHANCE and state.phase == OPENING
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 30 and all(first != second for (first, second), _ in outcomes)
    assert sum(probability for _, probability in outcomes) == pytest.approx(1.0)
    state.play((2, 6))  # O throws 2, X throws 6: X starts with 6-2
    assert state.to_move() == X and state.dice == (6, 2)
    state.undo()
    assert state.move_name((2, 6)) == "X 6-2" and state.parse_move("X 6-2") == (2, 6)
    assert state.parse_move("o 6-2") == (6, 2)
    # Depth counts decisions: 2 * (sum of the 15 non-double opening rolls).
    non_doubles = sum(v["distinct_resulting_positions"] for k, v in OPENING_ROLLS.items() if k[0] != k[2])
    assert state.perft(1) == 2 * non_doubles == 380


def test_later_rolls_are_21_with_double_weights() -> None:
    state = BackgammonState.initial(cube_enabled=False)
    state.play((6, 5))
    state.play(state.parse_move("24/13"))
    assert state.to_move() == CHANCE and state.phase == ROLL
    outcomes = dict(state.chance_outcomes())
    assert len(outcomes) == 21
    assert outcomes[(6, 6)] == pytest.approx(1 / 36) and outcomes[(6, 5)] == pytest.approx(2 / 36)
    assert sum(outcomes.values()) == pytest.approx(1.0)
    assert state.move_name((6, 5)) == "6-5" and state.parse_move("56") == (6, 5)


# ------------------------------------------------------------------ rules
def test_hitting_sends_the_blot_to_the_bar() -> None:
    # X: checkers on 8 and 6; O has a blot on its 20 point (X's 5).
    state = position({8: 2, 6: 5}, {20: 1, 6: 5}, (3, 1))
    play = state.parse_move("8/5*/4")
    assert state.move_name(play) == "8/5*/4"
    assert state.capture_score(play) == 5  # O's checker goes from its 20 point to the bar (25)
    pips_before = state.pip_count(O)
    state.play(play)
    assert state.boards[O][BAR] == 1 and state.boards[O][20] == 0
    assert state.pip_count(O) == pips_before + 5
    state.undo()
    # 8/7/4 reaches the same point without hitting: a different position, a different play,
    # and the one meant when no hit is marked.
    quiet = state.parse_move("8/4")
    assert quiet != play and state.move_name(quiet) == "8/4" and state.capture_score(quiet) == 0


def test_entering_from_the_bar_comes_first() -> None:
    # O holds its 6 point (X's 19) so a 6 cannot enter; the 1 enters on X's 24.
    state = position({BAR: 1, 13: 5, 6: 5}, {6: 2, 8: 3}, (6, 1))
    plays = names(state)
    assert plays and all(name.startswith("bar/") for name in plays)
    assert "bar/18" in plays  # bar/24/18 combined
    assert "bar/24 13/7" in plays


def test_closed_board_means_no_move() -> None:
    closed = {point: 2 for point in range(1, 7)}
    state = position({BAR: 1, 13: 5}, {**closed, 13: 3}, (6, 6))
    assert state.legal_moves() == [NO_MOVE]
    assert state.move_name(NO_MOVE) == "no move"
    assert state.parse_move("no move") == NO_MOVE and state.parse_move("Cannot Move") == NO_MOVE
    state.play(NO_MOVE)
    assert state.to_move() == O


def test_two_on_the_bar_with_one_entry_point_enter_only_one() -> None:
    board = {point: 2 for point in range(1, 6)}  # O's 6 point (X's 19) is the only way in
    state = position({BAR: 2, 13: 5}, {**board, 13: 5}, (6, 5))
    # The 6 enters one checker; the 5 cannot enter and nothing else may move.
    assert names(state) == ["bar/19"]


def test_bear_off_with_a_higher_die_only_from_the_highest_point() -> None:
    # 6 bears off from the 5 (the highest point); the 2 then plays 3/1, or 5/3 first and a
    # 6 from the 3: two distinct positions.
    state = position({5: 1, 3: 2}, {13: 2}, (6, 2))
    assert names(state) == ["5/off", "5/off 3/1"]
    # A checker on the 6 point forbids bearing off the 2 point checker with a 5 or a 4:
    # 6/1 then 2/off with the 4, or 6/2 then off from the 2 with the 5.
    state = position({6: 1, 2: 1}, {13: 2}, (5, 4))
    assert names(state) == ["6/1 2/off", "6/off"]


def test_no_bear_off_while_a_checker_is_outside() -> None:
    # 9/7 or 9/8 first: the 2 point checker may not bear off while the 9 is outside.
    state = position({9: 1, 2: 1}, {13: 2}, (2, 1))
    assert names(state) == ["9/6", "9/7 2/1"]
    # Once the outside checker is home, the rest of the roll may bear off.
    state = position({7: 1, 3: 2}, {13: 2}, (6, 3))
    assert names(state) == ["7/1 3/off", "7/off"]


def test_must_use_both_dice_when_possible() -> None:
    # Only the 5 first lets both dice be played: 13/8/2.
    state = position({13: 1}, {18: 2, 6: 13}, (6, 5))
    assert names(state) == ["13/2"]


def test_larger_die_when_only_one_can_be_played() -> None:
    # 13/7 and 13/8 are open, but X's 2 point is blocked: only one die fits, the 6.
    state = position({13: 1}, {23: 2, 6: 13}, (6, 5))
    assert names(state) == ["13/7"]
    # With the 6 blocked too, the 5 must be played.
    state = position({13: 1}, {23: 2, 18: 2, 6: 11}, (6, 5))
    assert names(state) == ["13/8"]


def random_checker_play(seed: int) -> BackgammonState | None:
    """The position after a random game of 2-120 steps, if it stopped at a checker play."""
    rng = random.Random(seed)
    state = BackgammonState.initial(cube_enabled=False)
    for _ in range(rng.randrange(2, 120)):
        if state.is_terminal():
            break
        random_step(state, rng)
    return state if state.phase == CHECKER_PLAY else None


def test_doubles_play_as_many_as_possible() -> None:
    state = position({13: 1}, {24: 2, 6: 13}, (6, 6))
    assert names(state) == ["13/7"]


@settings(deadline=None, max_examples=60)
@given(st.integers(min_value=0, max_value=10_000))
def test_generator_matches_the_naive_reference(seed: int) -> None:
    state = random_checker_play(seed)
    if state is None:
        return
    mover = state.player
    expected = reference_plays(state.boards[mover], state.boards[1 - mover], state.dice)
    assert generated_positions(state) == expected


# ---------------------------------------------------------------- scoring
def finishing(opponent: dict[int, int], **rules: object) -> BackgammonState:
    state = position({1: 1}, opponent, (2, 1), **rules)
    state.play(state.parse_move("1/off"))
    assert state.is_terminal()
    return state


def test_single_gammon_and_backgammon() -> None:
    single = finishing({6: 2})  # O has borne off 13
    assert single.utility(X) == 1 and single.utility(O) == -1 and single.winner() == X
    gammon = finishing({6: 15})
    assert gammon.utility(X) == 2 and "gammon" in gammon.termination_reason()
    backgammon = finishing({6: 14, 20: 1})  # O's 20 point is in X's home board (X's 5)
    assert backgammon.utility(X) == 3 and backgammon.utility(O) == -3
    on_bar = finishing({6: 14, BAR: 1})
    assert on_bar.utility(X) == 3


def test_cube_multiplies_and_jacoby_cancels_gammons_until_turned() -> None:
    assert finishing({6: 15}, cube_value=2, cube_owner=O).utility(X) == 4
    assert finishing({6: 15}, jacoby=True).utility(X) == 1
    assert finishing({6: 15}, jacoby=True, cube_value=2, cube_owner=X).utility(X) == 4
    assert finishing({6: 15}, cube_enabled=False).utility(X) == 2


def test_game_over_id_round_trip() -> None:
    state = finishing({6: 14, 20: 1})
    again = BackgammonState.from_text(state.to_text())
    assert again.is_terminal() and again.utility(X) == 3 and again.key() == state.key()


# ------------------------------------------------------------------- cube
def after_opening(cube_enabled: bool = True) -> BackgammonState:
    state = BackgammonState.initial(cube_enabled=cube_enabled)
    state.play((6, 5))  # O wins the opening with 6-5
    state.play(state.parse_move("24/13"))
    return state


def test_double_take_and_ownership() -> None:
    state = after_opening()
    assert state.phase == CUBE_DECISION and state.to_move() == X
    assert state.legal_moves() == ["roll", "double"]
    state.play(state.parse_move("double"))
    assert state.phase == TAKE_DECISION and state.to_move() == O
    assert decode_match_id(state.match_id()).doubled
    assert BackgammonState.from_text(state.to_text()).key() == state.key()
    state.play(state.parse_move("take"))
    assert (state.cube_value, state.cube_owner) == (2, O)
    assert state.to_move() == CHANCE  # X may not redouble: the cube is O's
    state.play((3, 1))
    state.play(state.parse_move("8/5 6/5"))
    assert state.phase == CUBE_DECISION and state.to_move() == O  # O owns the cube
    state.play("double")
    state.play("drop")
    assert state.is_terminal() and state.utility(O) == 2 and state.utility(X) == -2
    assert "dropped" in state.termination_reason()
    assert BackgammonState.from_text(state.to_text()).utility(O) == 2


def test_drop_pays_the_cube_before_doubling() -> None:
    state = after_opening()
    state.play("double")
    state.play(state.parse_move("pass"))
    assert state.utility(X) == 1


def test_no_double_then_roll_is_a_distinct_chance_node() -> None:
    state = after_opening()
    cube_node = state.to_text()
    state.play("roll")
    assert state.to_move() == CHANCE
    assert state.to_text() != cube_node
    assert BackgammonState.from_text(state.to_text()).to_move() == CHANCE


def test_cubeless_goes_straight_to_the_dice() -> None:
    state = after_opening(cube_enabled=False)
    assert state.to_move() == CHANCE
    assert BackgammonState.from_text(state.to_text()).cube_enabled is False
    low, high = state.utility_bounds()
    assert (low, high) == (-3, 3)


def test_utility_bounds_with_cube() -> None:
    state = after_opening()
    low, high = state.utility_bounds()
    assert high >= 3 * 32768 and low == -high
    assert finishing({6: 15}, jacoby=True, cube_enabled=False).utility_bounds() == (-1, 1)


def test_cube_answers_are_checked() -> None:
    state = after_opening()
    with pytest.raises(IllegalMoveError, match="double or roll|roll or double"):
        state.parse_move("take")
    with pytest.raises(IllegalMoveError):
        state.parse_move("13/7")


# ------------------------------------------------------------------ gnubg ids
def test_start_position_id_and_manual_bit_string() -> None:
    # gnubg manual 11.6: the starting position's key bits, packed little-endian.
    one_side = "00000" + "111110" + "0" + "1110" + "0000" + "111110" + "0" * 10 + "110" + "0"
    bits = one_side * 2
    key = sum(int(bit) << index for index, bit in enumerate(bits))
    import base64

    assert base64.b64encode(key.to_bytes(10, "little")).decode()[:14] == START_ID
    assert encode_position_id(starting_board(), starting_board()) == START_ID


def test_gnubg_export_fanar_to_play_44() -> None:
    # GammOnLine export: "wells 0, fanar 3 (match to 7), fanar to play 44", pips wells 152,
    # fanar 167; gnubg's best play 21/17*(2) 8/4(2), the played one 21/17*(2) 11/7(2).
    state = BackgammonState.from_text("sG/BgCGMM+YAIw:cAnyAAAAGAAA")
    assert state.to_move() == X and state.dice == (4, 4)
    assert (state.match_length, state.score) == (7, (0, 3))
    assert state.pip_count(X) == 167 and state.pip_count(O) == 152
    assert state.move_name(state.parse_move("21/17*(2) 8/4(2)")) == "21/17*(2) 8/4(2)"
    assert state.parse_move("21/17*(2) 11/7(2)") in state.legal_moves()
    assert state.to_text() == "sG/BgCGMM+YAIw:cAnyAAAAGAAA"


def test_gnubg_export_blue_on_roll() -> None:
    # "Match to 7, Blue leads 3-0, Blue on roll. Cube action?" White 144, Blue 107 pips.
    state = BackgammonState.from_text("bLsQwCE2dmMGAA:cAngAAAAGAAA")
    assert state.to_move() == X and state.phase == CUBE_DECISION
    assert state.pip_count(X) == 107 and state.pip_count(O) == 144
    assert state.to_text() == "bLsQwCE2dmMGAA:cAngAAAAGAAA"


def test_known_match_ids() -> None:
    money = decode_match_id("cAkAAAAAAAAA")
    assert (money.cube_value, money.cube_owner, money.player_on_roll, money.match_length) == (1, CENTRED, 1, 0)
    assert money.game_state == 1 and money.dice == (0, 0)
    nine = decode_match_id("cIkmAQAAAAAA")  # bug-gnubg 2009: a 9-point match, 51 rolled
    assert nine.match_length == 9 and nine.dice == (5, 1)
    state = BackgammonState.from_text("g9vBASSYZ8wBBg:cIkmAQAAAAAA")
    assert state.dice == (5, 1) and state.to_text() == "g9vBASSYZ8wBBg:cIkmAQAAAAAA"


def test_bare_position_id_is_a_money_game_with_x_on_roll() -> None:
    state = BackgammonState.from_text(START_ID)
    assert state.to_move() == X and state.phase == CUBE_DECISION
    assert state.to_text() == f"{START_ID}:cAkAAAAAAAAA"


def test_position_id_puts_the_player_on_roll_second() -> None:
    state = position({BAR: 1, 6: 14}, {24: 15}, (3, 1))
    not_on_roll, on_roll = decode_position_id(state.position_id())
    assert on_roll[BAR] == 1 and on_roll[6] == 14 and not_on_roll[24] == 15


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("4HPwATDgc/ABM", "14 base64 characters"),
        ("4HPwATDgc/AB!A", "not a base64 character"),
        ("//////////////", "must be one of"),
        ("/////////////w", "O has 80 checkers on the board: a side has 15"),
        ("4OfgA2DA5+ADYA", "O has 16 checkers on the board"),
        (f"{START_ID}:cAkAAAAAAAA", "12 base64 characters"),
        (f"{START_ID}:cAkAAAAAAAAA:x", "parts"),
        (f"{START_ID}:{encode_match_id(MatchKey(resignation=1))}", "resign"),
        (f"{START_ID}:{encode_match_id(MatchKey(game_state=3))}", "resign"),
        (f"{START_ID}:{encode_match_id(MatchKey(match_length=5, score=(5, 0)))}", "already over"),
        (f"{START_ID}:{encode_match_id(MatchKey(crawford=True))}", "no Crawford"),
        (f"{START_ID}:{encode_match_id(MatchKey(cube_value=2))}", "centred cube"),
        (f"{START_ID}:{encode_match_id(MatchKey(cube_value=2, cube_owner=0, doubled=True, turn=0))}", "may not double"),
        (f"{START_ID}:{encode_match_id(MatchKey(dice=(3, 0)))}", "one die"),
        (f"{START_ID}:{encode_match_id(MatchKey(game_state=2))}", "neither player"),
        (f"{START_ID}:cAEAAAAAAAAA", "other player"),
        ("AAAAAAAAAAAAAA:cAkAAAAAAAAA", "both players have borne off"),
    ],
)
def test_bad_ids_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(BadPositionError, match=message):
        BackgammonState.from_text(text)


def test_sixteen_checkers_named() -> None:
    with pytest.raises(BadPositionError, match="X has 16 checkers"):
        BackgammonState.from_points({6: 16}, {19: 2}, dice=(3, 1))


# ------------------------------------------------------------- notation
def test_parse_variants() -> None:
    state = start_with((6, 5))
    assert state.parse_move("24/13") == state.parse_move("24/18 18/13") == state.parse_move("24/18/13")
    assert state.parse_move(" 24/18,  13/8 ") == state.parse_move("13/8 24/18")
    state.undo()
    state.play((4, 4))
    assert state.parse_move("13/9(2) 24/20(2)") == state.parse_move("24/20 24/20 13/9 13/9")
    with pytest.raises(IllegalMoveError, match=r"13/5 moves 8 pips, but the dice 4-4 are used up by then \(the play moves 32 pips, the dice at most 16\)"):
        state.parse_move("13/5(4)")
    with pytest.raises(IllegalMoveError, match="backwards"):
        state.parse_move("9/13")
    with pytest.raises(IllegalMoveError, match="hits nothing"):
        state.parse_move("24/20*(2) 13/9(2)")


def test_bar_notation_accepts_25() -> None:
    state = position({BAR: 1, 13: 5, 6: 5}, {6: 2, 8: 3}, (6, 1))
    assert state.parse_move("25/24 13/7") == state.parse_move("bar/24 13/7")


# ------------------------------------------------------------- evaluation
def test_evaluate_is_the_sum_of_its_breakdown_and_antisymmetric() -> None:
    rng = random.Random(5)
    state = BackgammonState.initial()
    for current in random_playout(state, rng):
        if current.is_terminal():
            break
        for player in (O, X):
            breakdown = current.evaluation_features(player)
            total = sum(weight * value for weight, value in breakdown.values())
            assert current.evaluate(player) == pytest.approx(total, abs=1e-9)
        assert current.evaluate(O) == -current.evaluate(X)
        low, high = current.utility_bounds()
        assert low <= current.evaluate(O) <= high


def test_evaluation_sanity() -> None:
    # A pip lead in a race is good; the side on roll in an equal race is favourite.
    ahead = BackgammonState.from_points({6: 5, 5: 5}, {6: 5, 5: 5, 4: 3, 3: 2}, dice=None, cube_enabled=False)
    assert ahead.is_race() and ahead.evaluate(X) > 0.3
    even = BackgammonState.from_points({6: 5}, {6: 5}, cube_enabled=False)
    assert even.evaluate(X) > 0 > even.evaluate(O)
    # O on the bar against X's 5-point board is bad for O.
    attack = BackgammonState.from_points(
        {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 13: 5}, {BAR: 2, 13: 5, 6: 5, 8: 3}, cube_enabled=False
    )
    assert attack.evaluate(X) > 0.5
    # A blot exposed to a direct shot is worse than the same checkers made into a point.
    safe = position({8: 2, 13: 5}, {24: 2, 13: 5}, (3, 1), cube_enabled=False)
    loose = position({8: 1, 7: 1, 13: 5}, {24: 2, 13: 5}, (3, 1), cube_enabled=False)
    assert safe.evaluate(X) > loose.evaluate(X)
    # The cube scales the estimate, and owning it is worth more than facing it.
    doubled = BackgammonState.from_points({6: 5}, {6: 5}, cube_value=2, cube_owner=O)
    redoubled = BackgammonState.from_points({6: 5}, {6: 5}, cube_value=4, cube_owner=O)
    assert redoubled.evaluate(X) == pytest.approx(2 * doubled.evaluate(X))
    owned = BackgammonState.from_points({6: 5}, {6: 5}, cube_value=2, cube_owner=X)
    assert owned.evaluate(X) > doubled.evaluate(X)


# ------------------------------------------------------------ protocol
def test_registry_and_metadata() -> None:
    assert get_game("backgammon") is BackgammonState
    assert BackgammonState.PLAYER_NAMES == ("O", "X")
    assert BackgammonState.UTILITY_KIND == "equity" and BackgammonState.EVAL_SCALE == 1.0


def test_perft_two_from_the_cubeless_start() -> None:
    state = BackgammonState.initial(cube_enabled=False)
    first = state.perft(1)
    assert first == 380
    state.play((6, 5))
    assert state.perft(1) == 7
    # After 24/13 the opponent's 21 rolls, counted over their distinct plays.
    state.play(state.parse_move("24/13"))
    total = sum(state.result(roll).perft(1) for roll, _ in state.chance_outcomes())
    assert state.perft(1) == total


text_strategy = st.one_of(
    st.text(max_size=40),
    st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/:", min_size=10, max_size=30),
    st.builds(
        lambda base, index, char: base[:index] + char + base[index + 1 :],
        st.sampled_from(
            [f"{START_ID}:cAkAAAAAAAAA", "sG/BgCGMM+YAIw:cAnyAAAAGAAA", "bLsQwCE2dmMGAA:cAngAAAAGAAA", START_ID]
        ),
        st.integers(min_value=0, max_value=26),
        st.sampled_from("ABgw/+:09zQ "),
    ),
)


@settings(deadline=None, max_examples=400)
@given(text_strategy)
def test_random_text_gives_a_state_or_a_clean_error(text: str) -> None:
    try:
        state = BackgammonState.from_text(text)
    except BadPositionError:
        return
    assert BackgammonState.from_text(state.to_text()).to_text() == state.to_text()
    for move in state.legal_moves():
        assert state.parse_move(state.move_name(move)) == move


move_text = st.one_of(
    st.text(max_size=25),
    st.text(alphabet="0123456789/*() barofBAROF-,\u00b2\u0663", max_size=25),
    st.sampled_from(["24/13", "bar/22*", "6/off", "8/5(2)", "13/7*/5", "no move", "double", "take", "6-5", "X 6-5"]),
)


@settings(deadline=None, max_examples=300)
@given(move_text, st.integers(min_value=0, max_value=50))
def test_random_move_text_gives_a_move_or_a_clean_error(text: str, plies: int) -> None:
    rng = random.Random(plies)
    state = BackgammonState.initial()
    for _ in range(plies):
        if state.is_terminal():
            break
        random_step(state, rng)
    try:
        move = state.parse_move(text)
    except IllegalMoveError:
        return
    assert move in state.legal_moves()


@settings(deadline=None, max_examples=25)
@given(st.integers(min_value=0, max_value=100_000), st.booleans())
def test_random_playouts_undo_keys_and_round_trips(seed: int, cube_enabled: bool) -> None:
    rng = random.Random(seed)
    state = BackgammonState.initial(cube_enabled=cube_enabled)
    plies = 0
    for current in random_playout(state, rng):
        key, text = current.key(), current.to_text()
        fresh = BackgammonState.from_text(text)
        assert fresh.key() == key and fresh.to_text() == text
        if current.is_terminal():
            assert current.utility(O) == -current.utility(X) != 0
            break
        for move in current.legal_moves():
            if current.to_move() != CHANCE:
                assert current.parse_move(current.move_name(move)) == move
            current.play(move)
            assert BackgammonState.from_text(current.to_text()).key() == current.key()
            current.undo()
            assert current.key() == key and current.to_text() == text
        plies += 1
    while state.history:
        state.undo()
    assert state.to_text() == BackgammonState.initial(cube_enabled=cube_enabled).to_text()
    assert plies > 0


def test_key_covers_dice_cube_and_rules() -> None:
    rolled = {start_with(roll).key() for roll in [(6, 5), (5, 5), (3, 1)]}
    assert len(rolled) == 3
    cube_node = BackgammonState.from_text(f"{START_ID}:cAkAAAAAAAAA")
    assert cube_node.key() != BackgammonState.from_text(f"{START_ID}:{encode_match_id(MatchKey(cubeless=True))}").key()
    assert cube_node.key() != BackgammonState.from_text(f"{START_ID}:{encode_match_id(MatchKey(jacoby=True))}").key()
    owned = encode_match_id(MatchKey(cube_value=2, cube_owner=X))
    assert cube_node.key() != BackgammonState.from_text(f"{START_ID}:{owned}").key()
    assert cube_node.key() != BackgammonState.from_text(f"{START_ID}:{encode_match_id(MatchKey(player_on_roll=0, turn=0))}").key()


def test_copy_is_independent() -> None:
    state = after_opening()
    clone = state.copy()
    clone.play("double")
    assert state.phase == CUBE_DECISION and clone.phase == TAKE_DECISION
    clone.undo()
    assert clone.key() == state.key()


def test_checker_counts_are_conserved_in_playouts() -> None:
    rng = random.Random(3)
    for current in random_playout(BackgammonState.initial(cube_enabled=False), rng):
        for player in (O, X):
            assert sum(current.boards[player]) == CHECKERS
        if current.is_terminal():
            break


# ------------------------------------------------------------------ the evaluation plays
def test_greedy_eval_crushes_a_random_player() -> None:
    """One ply on EVAL against uniform random play, cubeless: a sane evaluation wins almost
    every game, many of them gammons (bench/backgammon_eval.py measured +2.29 points a game
    over 200 games, and +0.05 against Tesauro's pubeval over 2,000)."""
    rng = random.Random(11)
    points = 0
    games = 16
    for game in range(games):
        ours = game % 2
        state = BackgammonState.initial(cube_enabled=False)
        while not state.is_terminal():
            if state.to_move() == CHANCE:
                random_step(state, rng)
            elif state.player == ours:
                mover = state.player
                state.play(max(state.legal_moves(), key=lambda move: state.result(move).evaluate(mover)))
            else:
                state.play(rng.choice(state.legal_moves()))
        points += state.utility(ours)
    assert points / games > 1.2


# --------------------------------------------------------- illegal plays say why
START_3_1 = "4HPwATDgc/ABMA:cIkFAAAAAAAA"
"""The start with 3-1 rolled."""
ON_THE_BAR_5_1 = "wtfgQQIND/gAaA:MIEGAAAAAAAA"
"""Two checkers on the bar, 5-1 to play (only bar/24 bar/20 is legal)."""


@pytest.mark.parametrize(
    ("position", "play", "reason"),
    [
        (START_3_1, "13/7", "13/7 moves 6 pips, which the dice 3-1 cannot make"),
        (START_3_1, "13/12 13/10", "the checker on 13 cannot move 1: point 12 is blocked (5 O checkers)"),
        (START_3_1, "6/off 6/3", "cannot bear off: 10 checkers are outside the home board"),
        (START_3_1, "8/5", "the play uses only one die but both can be used (e.g. 24/21 8/7)"),
        (START_3_1, "13/10 6/5 5/4", "5/4 moves 1 pip, but the dice 3-1 are used up by then (the play moves 5 pips, the dice at most 4)"),
        (START_3_1, "20/17", "X has no checker on point 20"),
        (START_3_1, "8/7 8/7 8/7 8/7", "X has no checker left on point 8"),
        (ON_THE_BAR_5_1, "13/8 6/5", "O must enter from the bar first (2 checkers on the bar)"),
    ],
)
def test_an_illegal_play_says_which_rule_it_breaks(position: str, play: str, reason: str) -> None:
    state = BackgammonState.from_text(position)
    with pytest.raises(IllegalMoveError) as error:
        state.parse_move(play)
    assert str(error.value) == f"{play!r} is not legal with {notation.roll_name(state.dice)}: {reason}"


BLOCKED_6_5 = {"on_roll": {13: 2, 6: 13}, "opponent": {18: 2, 17: 2, 1: 11}, "dice": (6, 5)}
"""X's 7 and 8 points are held by O (O's 18 and 17): 6-5 moves only 6/1."""
ON_THE_BAR_AGAINST_TWO_POINTS = {"on_roll": {BAR: 2, 6: 13}, "opponent": {1: 11, 5: 2, 3: 2}, "dice": (5, 1)}
"""Two X checkers on the bar; O holds X's 24, 22 and 20 points: 5-1 cannot enter."""
BEARING_OFF_5_3 = {"on_roll": {6: 2, 2: 3, 1: 10}, "opponent": {1: 15}, "dice": (5, 3)}
SMALLER_DIE_ONLY_5_2 = {"on_roll": {13: 1, 1: 14}, "opponent": {19: 2, 1: 13}, "dice": (5, 2)}
"""X's 6 point is held: 13/8 or 13/11, and then nothing; the 5 must be played."""
DOUBLE_2_2 = {"on_roll": {13: 2, 6: 13}, "opponent": {1: 13, 16: 2}, "dice": (2, 2)}
"""O holds X's 9 point: 2-2 can still be played in full (13/11(2) 6/4(2), ...)."""


@pytest.mark.parametrize(
    ("setup", "play", "reason"),
    [
        (BLOCKED_6_5, "13/7", "the checker on 13 cannot move 6: point 7 is blocked (2 O checkers)"),
        (BLOCKED_6_5, "13/2", "the checker on 13 cannot move 11: points 7 and 8 are blocked (2 O checkers each)"),
        (BLOCKED_6_5, "6/off", "cannot bear off: 2 checkers are outside the home board"),
        (ON_THE_BAR_AGAINST_TWO_POINTS, "bar/20", "a checker on the bar cannot enter with the 5: point 20 is blocked (2 O checkers)"),
        (
            ON_THE_BAR_AGAINST_TWO_POINTS,
            "bar/19",
            "a checker on the bar cannot reach 19: points 20 (2 O checkers) and 24 (11 O checkers) are blocked",
        ),
        (ON_THE_BAR_AGAINST_TWO_POINTS, "bar/22", "bar/22 moves 3 pips, which the dice 5-1 cannot make"),
        (
            BEARING_OFF_5_3,
            "2/off 6/3",
            "cannot bear off from 2 with the 5 while 6 has checkers "
            "(a die larger than the point bears off only from the highest point)",
        ),
        (SMALLER_DIE_ONLY_5_2, "13/11", "the play uses die 2 but the larger die 5 must be used (only one can be played, e.g. 13/8)"),
        (DOUBLE_2_2, "13/11 13/11", "the play uses two of the four 2s but 4 can be used (e.g. 13/11(2) 6/4(2))"),
        (DOUBLE_2_2, "13/5", "the checker on 13 cannot move 8: point 9 is blocked (2 O checkers)"),
        (DOUBLE_2_2, "6/4(4) 6/4", "6/4 moves 2 pips, but the dice 2-2 are used up by then (the play moves 10 pips, the dice at most 8)"),
    ],
)
def test_an_illegal_play_names_the_blocked_point_or_the_dice_rule(setup: dict[str, Any], play: str, reason: str) -> None:
    state = position(setup["on_roll"], setup["opponent"], setup["dice"])
    with pytest.raises(IllegalMoveError) as error:
        state.parse_move(play)
    assert str(error.value) == f"{play!r} is not legal with {notation.roll_name(state.dice)}: {reason}"


def _written_plays(draw: st.DrawFn, state: BackgammonState) -> str:
    """One to four checker moves from points X occupies (or the bar) to lower points or off."""
    mine = state.boards[state.player]
    sources = [point for point in range(1, BAR + 1) if mine[point]]
    paths = []
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        source = draw(st.sampled_from(sources))
        destination = draw(st.integers(min_value=max(OFF, source - 24), max_value=source - 1))
        paths.append(f"{point_name(source)}/{point_name(destination)}")
    return " ".join(paths)


@settings(deadline=None, max_examples=150)
@given(st.integers(min_value=0, max_value=10_000), st.data())
def test_every_illegal_play_gets_a_specific_reason(seed: int, data: st.DataObject) -> None:
    """The diagnosis replays the rules independently of the move generator: a written play
    it cannot fault would be legal, so it never falls back to "the rules allow ..."."""
    state = random_checker_play(seed)
    if state is None:
        return
    text = _written_plays(data.draw, state)
    try:
        move = state.parse_move(text)
    except IllegalMoveError as error:
        assert str(error).startswith(f"{text!r} is not legal with {notation.roll_name(state.dice)}: ")
        assert "the rules allow" not in str(error)
        return
    assert move in state.legal_moves()


def test_a_point_must_be_written_in_ascii_digits() -> None:
    with pytest.raises(IllegalMoveError) as error:
        BackgammonState.from_text(START_3_1).parse_move("1\u00b2/10")
    assert str(error.value) == "'1\u00b2' in '1\u00b2/10' is not a point: use 1-24, bar (25) or off (0)"


def test_moving_from_an_empty_bar_names_the_bar() -> None:
    with pytest.raises(IllegalMoveError, match="X has no checker on the bar"):
        BackgammonState.from_text(START_3_1).parse_move("bar/22")


@pytest.mark.parametrize(
    "text",
    [
        "4HPwATDgc/ABMA:cAkAAAAAAAAA",
        "4HPwATDgc/ABMA cAkAAAAAAAAA",
        "Position ID: 4HPwATDgc/ABMA  Match ID: cAkAAAAAAAAA",
        "gnubgid 4HPwATDgc/ABMA:cAkAAAAAAAAA",
        "set gnubgid 4HPwATDgc/ABMA:cAkAAAAAAAAA",
        "  4HPwATDgc/ABMA:cAkAAAAAAAAA\n",
        "4HPwATDgc/ABMA\tcAkAAAAAAAAA",
        "4HPwATDgc/ABMA : cAkAAAAAAAAA",
        " GNU Backgammon  Position ID: 4HPwATDgc/ABMA\n                 Match ID   : cAkAAAAAAAAA\n",
        "Match ID: cAkAAAAAAAAA Position ID: 4HPwATDgc/ABMA",
        "position id:4HPwATDgc/ABMA match id:cAkAAAAAAAAA",
    ],
)
def test_gnubg_ids_are_read_in_every_form_gnubg_writes(text: str) -> None:
    assert BackgammonState.from_text(text).to_text() == "4HPwATDgc/ABMA:cAkAAAAAAAAA"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no gnubg id in '': expected PositionID:MatchID, such as 4HPwATDgc/ABMA:cAkAAAAAAAAA"),
        (
            "4HPwATDgc/ABMA cAkAAAAAAAAA extra",
            "'4HPwATDgc/ABMA cAkAAAAAAAAA extra': expected PositionID:MatchID "
            "(or the two ids separated by a space), found 3 words",
        ),
        (
            "cAkAAAAAAAAA 4HPwATDgc/ABMA",
            "'cAkAAAAAAAAA 4HPwATDgc/ABMA': the Position ID comes first and the Match ID second: "
            "4HPwATDgc/ABMA:cAkAAAAAAAAA",
        ),
        ("4HPwATDgc/ABMA:", "'4HPwATDgc/ABMA:': no Match ID after ':' (or leave the ':' out for a money game)"),
        (":cAkAAAAAAAAA", "':cAkAAAAAAAAA': no Position ID before ':'"),
        ("Position ID:", "'Position ID:': 'Position ID:' is followed by no id"),
        ("Match ID: cAkAAAAAAAAA", "'Match ID: cAkAAAAAAAAA': a Match ID alone is no position; give the Position ID too"),
    ],
)
def test_misshapen_gnubg_ids_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(BadPositionError) as error:
        BackgammonState.from_text(text)
    assert str(error.value) == message


def test_too_many_checkers_in_a_position_id_gives_the_exact_count() -> None:
    with pytest.raises(BadPositionError) as error:
        BackgammonState.from_text("4OfgA2DA5+ADYA")
    assert str(error.value) == "O has 16 checkers on the board: a side has 15"
