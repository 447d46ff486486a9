"""The clock: Fischer increments, the untimed first moves, pause, flag, forced moves, saving;
time controls as text, PGN and JSON; hostile documents. Time is passed in, never slept."""

from __future__ import annotations

import json
import math

import pytest

from games import CHANCE, new_game
from games.backgammon.state import BackgammonState
from games.base import GameState
from games.clock import (
    PRESETS,
    Clock,
    ClockError,
    Speed,
    TimeControl,
    clock_owner,
    flag_result,
    time_control_from_pgn,
    time_control_from_text,
)


def timed_clock(control: TimeControl, now: float = 0.0) -> Clock:
    """A clock past both untimed first moves (each played instantly at ``now``)."""
    clock = Clock(control)
    clock.start(0, now)
    clock.press(now)
    clock.press(now)
    assert clock.is_timed and clock.turn == 0
    return clock


# --------------------------------------------------------------------------- TimeControl
@pytest.mark.parametrize(
    ("text", "base", "increment"),
    [("5+3", 300, 3), ("1+0", 60, 0), ("0.5+0", 30, 0), ("0.25+0", 15, 0), ("15|10", 900, 10), ("100s+2", 100, 2), (" 3 + 2 ", 180, 2), ("1.5+0.5", 90, 0.5)],
)
def test_text_reads_minutes_plus_seconds(text: str, base: float, increment: float) -> None:
    control = TimeControl.parse(text)
    assert control == TimeControl.of(base, increment)
    assert TimeControl.parse(control.text()) == control


def test_odds_are_written_player_zero_first_and_read_back() -> None:
    control = TimeControl((300.0, 60.0), (3.0, 0.0))
    assert control.text() == "5+3 vs 1+0"
    assert TimeControl.parse("5+3 vs 1+0") == control
    assert not control.is_symmetric and TimeControl.of(300, 3).is_symmetric


def test_pgn_tag_is_seconds_plus_increment() -> None:
    assert TimeControl.of(300, 3).pgn() == "300+3"
    assert TimeControl.from_pgn("300+3") == TimeControl.of(300, 3)
    assert TimeControl.from_pgn("600") == TimeControl.of(600, 0)
    assert time_control_from_pgn("-") is None and time_control_from_pgn("?") is None
    for unmodelled in ("40/7200:3600", "40/7200:20/3600:900", "5400+30:1800", "*60", "0+1", "0+2"):
        assert time_control_from_pgn(unmodelled) is None  # periods, hourglass: the game still loads
    for garbage in ("five minutes", "garbage:stuff", "300+", "nan"):
        with pytest.raises(ClockError, match="not seconds"):
            time_control_from_pgn(garbage)


def test_a_huge_number_is_quoted_short() -> None:
    with pytest.raises(ClockError) as raised:
        TimeControl.of(1e300)
    assert len(str(raised.value)) < 80 and "1e+300" in str(raised.value)


def test_no_clock_words() -> None:
    assert time_control_from_text("") is None and time_control_from_text("None") is None
    assert time_control_from_text("5+3") == TimeControl.of(300, 3)


def test_presets_are_lichess_controls_in_lichess_speeds() -> None:
    """lichess.org/faq: estimated duration base + 40 x increment; < 3 min bullet, < 8 blitz, < 25 rapid."""
    texts = [control.text() for control in PRESETS]
    assert texts[:10] == ["1+0", "3+0", "3+2", "5+0", "5+3", "10+0", "10+5", "15+10", "30+0", "30+20"]
    speeds = {control.text(): control.speed for control in PRESETS}
    assert speeds["1+0"] is Speed.BULLET and speeds["3+0"] is Speed.BLITZ and speeds["5+3"] is Speed.BLITZ
    assert speeds["10+0"] is Speed.RAPID and speeds["15+10"] is Speed.RAPID and speeds["30+0"] is Speed.CLASSICAL
    assert TimeControl.of(15, 0).speed is Speed.ULTRABULLET
    assert TimeControl.of(120, 1).speed is Speed.BULLET  # 120 + 40 = 160 s


@pytest.mark.parametrize(
    "text",
    ["", "5", "+3", "5+", "a+b", "-5+3", "5+-3", "nan+0", "inf+0", "1e400+0", "0+1", "100000+0", "5+5000", "5+3 vs 1+0 vs 2+0", "5+3" * 40],
)
def test_bad_text_is_one_clear_error(text: str) -> None:
    with pytest.raises(ClockError):
        TimeControl.parse(text)


@pytest.mark.parametrize(
    "document",
    [
        None,
        [],
        {},
        {"base": [300], "increment": [3, 3]},
        {"base": [300, 300], "increment": [3, "3"]},
        {"base": [math.nan, 300], "increment": [0, 0]},
        {"base": [-1, 300], "increment": [0, 0]},
        {"base": [10**400, 300], "increment": [0, 0]},
        {"base": [1e300, 300], "increment": [0, 0]},
        {"base": [True, 300], "increment": [0, 0]},
    ],
)
def test_bad_json_time_control_is_one_clear_error(document: object) -> None:
    with pytest.raises(ClockError):
        TimeControl.from_json(document)


def test_json_time_control_round_trips() -> None:
    control = TimeControl((300.0, 60.0), (3.0, 0.5))
    assert TimeControl.from_json(json.loads(json.dumps(control.to_json()))) == control


# --------------------------------------------------------------------------- Clock
def test_first_moves_are_untimed_then_the_clock_runs() -> None:
    """Lichess: each side's first move costs nothing and adds no increment."""
    clock = Clock(TimeControl.of(180, 2))
    clock.start(0, 0.0)
    assert not clock.is_running
    assert clock.press(25.0) == 180.0  # White thought 25 s over the first move: free
    assert clock.remaining(1, 40.0) == 180.0
    assert clock.press(40.0) == 180.0  # Black's first move: free too
    assert clock.is_running and clock.turn == 0
    assert clock.remaining(0, 50.0) == pytest.approx(170.0)
    assert clock.press(50.0) == pytest.approx(172.0)  # 10 s used, 2 s back


def test_fischer_increment_goes_to_the_mover_hand_worked() -> None:
    clock = timed_clock(TimeControl.of(300, 3))
    readings = []
    for now in (10.0, 12.0, 42.0, 45.5):  # White 10 s, Black 2 s, White 30 s, Black 3.5 s
        readings.append(clock.press(now))
    assert readings == pytest.approx([293.0, 301.0, 266.0, 300.5])
    assert clock.remaining(0, 45.5) == pytest.approx(266.0) and clock.remaining(1, 45.5) == pytest.approx(300.5)


def test_odds_use_each_players_own_increment() -> None:
    clock = timed_clock(TimeControl((60.0, 300.0), (0.0, 5.0)))
    assert clock.press(4.0) == pytest.approx(56.0)
    assert clock.press(5.0) == pytest.approx(304.0)


def test_pause_stops_both_clocks() -> None:
    clock = timed_clock(TimeControl.of(60, 0))
    clock.pause(10.0)
    assert clock.remaining(0, 500.0) == pytest.approx(50.0)
    assert clock.seconds_to_flag(500.0) is None and clock.flagged_player(10_000.0) is None
    clock.resume(500.0)
    assert clock.remaining(0, 505.0) == pytest.approx(45.0)


def test_resume_of_a_running_clock_forgives_nothing() -> None:
    clock = timed_clock(TimeControl.of(60, 0))
    clock.resume(20.0)  # not paused: the 20 s so far stay White's
    assert clock.remaining(0, 25.0) == pytest.approx(35.0)


def test_pause_in_the_opponents_turn_stops_the_opponents_clock() -> None:
    clock = timed_clock(TimeControl.of(60, 0))
    clock.press(10.0)  # White used 10 s; Black's clock runs
    clock.pause(14.0)
    assert clock.remaining(1, 100.0) == pytest.approx(56.0) and clock.remaining(0, 100.0) == pytest.approx(50.0)
    clock.resume(100.0)
    assert clock.turn == 1 and clock.remaining(1, 106.0) == pytest.approx(50.0)


def test_a_move_while_paused_switches_and_adds_the_increment() -> None:
    clock = timed_clock(TimeControl.of(60, 2))
    clock.pause(5.0)
    assert clock.press(100.0) == pytest.approx(57.0)
    assert clock.turn == 1 and clock.remaining(1, 200.0) == 60.0


def test_flag_falls_at_zero_and_stops_the_clock() -> None:
    clock = timed_clock(TimeControl.of(60, 0))
    assert clock.seconds_to_flag(59.0) == pytest.approx(1.0)
    assert clock.flagged_player(59.999) is None
    assert clock.flagged_player(60.0) == 0
    assert clock.flagged == 0 and not clock.is_running and clock.remaining(0, 90.0) == 0.0
    with pytest.raises(ClockError, match="flag"):
        clock.press(61.0)


def test_a_late_press_is_refused() -> None:
    clock = timed_clock(TimeControl.of(10, 5))
    with pytest.raises(ClockError, match="flag"):
        clock.press(10.5)  # the increment cannot rescue a move made after the flag
    assert clock.flagged == 0


def test_forced_move_costs_nothing_and_earns_nothing() -> None:
    clock = timed_clock(TimeControl.of(60, 5))
    assert clock.press(1.2, forced=True) == 60.0  # the app's 1.2 s "no move" notice
    assert clock.turn == 1
    assert clock.press(11.2) == pytest.approx(55.0)
    assert clock.press(13.2) == pytest.approx(63.0)  # an ordinary move keeps its increment


def test_start_charges_the_player_who_was_to_move() -> None:
    """Taking a move back makes the other player to move; time so far is charged."""
    clock = timed_clock(TimeControl.of(60, 0))
    clock.start(1, 7.0)
    assert clock.remaining(0, 7.0) == pytest.approx(53.0)
    assert clock.remaining(1, 9.0) == pytest.approx(58.0)


def test_starting_the_same_turn_again_keeps_its_start() -> None:
    clock = timed_clock(TimeControl.of(60, 2))
    clock.start(0, 4.0)  # asked again mid-turn: nothing changes
    assert clock.press(6.0, forced=True) == 60.0  # the whole forced turn is still free


def test_time_running_backwards_charges_nothing() -> None:
    clock = timed_clock(TimeControl.of(60, 0), now=100.0)
    assert clock.remaining(0, 50.0) == 60.0


@pytest.mark.parametrize("now", [math.nan, math.inf, -math.inf, "1", None, True])
def test_bad_now_is_refused(now: object) -> None:
    clock = Clock(TimeControl.of(60, 0))
    with pytest.raises(ClockError):
        clock.start(0, now)  # type: ignore[arg-type]


def test_press_before_start_is_refused() -> None:
    with pytest.raises(ClockError, match="start"):
        Clock(TimeControl.of(60, 0)).press(0.0)


def test_saved_clock_comes_back_paused_with_the_same_times() -> None:
    clock = timed_clock(TimeControl.of(300, 3))
    clock.press(10.0)
    document = json.loads(json.dumps(clock.to_json(14.0)))  # Black has used 4 s
    restored = Clock.from_json(document)
    assert restored.is_paused and restored.turn == 1 and restored.moves == (2, 1)
    assert restored.remaining(0, 1e6) == pytest.approx(293.0) and restored.remaining(1, 1e6) == pytest.approx(296.0)
    restored.resume(1000.0)
    assert restored.press(1001.0) == pytest.approx(298.0)


def test_saved_flag_stays_fallen() -> None:
    clock = timed_clock(TimeControl.of(5, 0))
    assert clock.flagged_player(6.0) == 0
    restored = Clock.from_json(clock.to_json(7.0))
    assert restored.flagged == 0 and not restored.is_running


@pytest.mark.parametrize(
    "change",
    [
        {"remaining": [math.nan, 1]},
        {"remaining": [-5, 1]},
        {"remaining": [1e300, 1]},
        {"remaining": [1, "2"]},
        {"remaining": [1]},
        {"turn": 2},
        {"turn": True},
        {"turn": "0"},
        {"flagged": -1},
        {"moves": [1, -1]},
        {"moves": [1, 1.5]},
        {"moves": [10**12, 0]},
        {"control": "5+3"},
        {"control": {"base": [0, 0], "increment": [0, 0]}},
    ],
)
def test_hostile_saved_clock_is_one_clear_error(change: dict[str, object]) -> None:
    document = Clock(TimeControl.of(60, 0)).to_json(0.0)
    document.update(change)
    with pytest.raises(ClockError):
        Clock.from_json(document)


def test_not_a_saved_clock() -> None:
    for document in (None, [], "clock", 3):
        with pytest.raises(ClockError):
            Clock.from_json(document)


# --------------------------------------------------------------------------- flag results
def test_flag_loses_for_the_flagged_player() -> None:
    for game in ("tictactoe", "othello", "checkers", "chess"):
        state = new_game(game)
        for flagged in (0, 1):
            fall = flag_result(state, flagged)
            assert fall.winner == 1 - flagged
            assert fall.reason == f"{state.PLAYER_NAMES[flagged]} ran out of time"


@pytest.mark.parametrize(
    ("fen", "flagged", "winner"),
    [
        ("8/8/8/4k3/8/8/8/4K3 w - - 0 1", 0, None),  # bare kings
        ("8/8/8/4k3/8/8/8/4K2N w - - 0 1", 1, None),  # K+N v K: White cannot mate
        ("8/8/8/4k3/8/8/8/4K2B w - - 0 1", 1, None),  # K+B v K
        ("8/8/8/4k3/8/8/8/4KR2 w - - 0 1", 1, 0),  # K+R v K: a loss
        ("8/8/8/4k3/8/8/8/4KR2 w - - 0 1", 0, None),  # ... but Black with a lone king cannot mate White
        ("8/8/8/4k3/8/4p3/8/4K2N w - - 0 1", 1, 0),  # K+N v K+P: a helpmate exists (FIDE 6.9)
        ("8/8/8/4k3/8/4p3/8/4K2N w - - 0 1", 0, 1),  # Black's pawn can promote
        ("8/8/8/4kq2/8/8/8/4K2N w - - 0 1", 1, None),  # K+N v K+Q: the queen always takes the knight
        ("8/8/8/3bk3/8/8/8/3BK3 w - - 0 1", 1, None),  # bishops d5 and d1: one colour only
        ("8/8/8/2b1k3/8/8/8/3BK3 w - - 0 1", 1, 0),  # c5 and d1, opposite colours: mate exists
    ],
)
def test_chess_flag_is_a_draw_when_the_opponent_cannot_mate(fen: str, flagged: int, winner: int | None) -> None:
    fall = flag_result(new_game("chess", fen), flagged)
    assert fall.winner == winner
    if winner is None:
        assert fall.reason.endswith("cannot checkmate")


def test_backgammon_flag_loses_the_game_at_the_cube_value() -> None:
    state = new_game("backgammon")
    fall = flag_result(state, 0)
    assert fall.winner == 1 and fall.points == state.stake() == 1.0
    assert fall.reason == f"{state.PLAYER_NAMES[0]} ran out of time: {state.PLAYER_NAMES[1]} wins 1 point"


def test_backgammon_flag_in_a_money_game_at_cube_4_gives_4_points() -> None:
    state = new_game("backgammon")
    state.cube_value, state.cube_owner = 4, 1  # type: ignore[attr-defined]
    fall = flag_result(state, 0)
    assert fall.winner == 1 and fall.points == 4.0 and fall.reason.endswith("wins 4 points")


def test_backgammon_flag_in_a_match_names_no_points() -> None:
    # the match layer scores it (the flag loses the match); the cube's weight at the score,
    # 2.45 at 3-4 of 7 with the cube on 2, is no number of points
    state = BackgammonState.initial(match_length=7, score=(3, 4))
    state.cube_value, state.cube_owner = 2, 1
    fall = flag_result(state, 0)
    assert fall.winner == 1 and fall.reason == f"{state.PLAYER_NAMES[0]} ran out of time"


def test_flag_result_refuses_a_non_player() -> None:
    with pytest.raises(ClockError):
        flag_result(new_game("chess"), 2)


# --------------------------------------------------------------------------- turns
def test_the_clock_follows_turns_not_plies() -> None:
    """A player who decides twice in one turn presses once; a roll is its mover's time."""
    clock = Clock(TimeControl.of(60, 2))
    assert clock.turn_to(0, 0.0) is None and clock.turn == 0  # the first call starts the clock
    clock.press(0.0)
    clock.press(0.0)
    assert clock.turn_to(0, 5.0) is None  # the same player goes on: no press, no increment
    assert clock.turn_to(1, 10.0) == pytest.approx(52.0)
    assert clock.turn == 1


def test_a_dice_roll_belongs_to_the_player_who_moves_after_it() -> None:
    state = new_game("backgammon")
    state.play(state.chance_outcomes()[0][0])  # the opening roll
    while state.to_move() != CHANCE:
        state.play(state.legal_moves()[0])
    owner = clock_owner(state)
    assert owner in (0, 1)
    for outcome, _ in state.chance_outcomes():  # every roll: the same player moves after it
        after = state.copy()
        after.play(outcome)
        assert after.to_move() == owner
    assert clock_owner(new_game("chess")) == 0


def test_no_clock_runs_through_the_opening_roll_that_picks_the_first_mover() -> None:
    state = new_game("backgammon")
    assert clock_owner(state) is None
    clock = Clock(TimeControl.of(60, 2))
    assert clock.turn_to(clock_owner(state), 0.0) is None and clock.turn is None
    for first in (0, 1):  # whoever the roll makes first moves on an untouched clock
        after = state.copy()
        after.play(next(o for o, _ in state.chance_outcomes() if _mover_after(state, o) == first))
        clock = Clock(TimeControl.of(60, 2))
        clock.turn_to(clock_owner(state), 0.0)
        assert clock.turn_to(clock_owner(after), 1.0) is None
        assert clock.turn == first and clock.moves == (0, 0)


def _mover_after(state: GameState, outcome: object) -> int:
    after = state.copy()
    after.play(outcome)
    return after.to_move()


def test_no_clock_runs_after_the_game() -> None:
    assert clock_owner(new_game("chess", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")) is None
