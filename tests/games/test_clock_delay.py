"""A delay instead of an increment (backgammon's tournament clocks: USBGF clock rules, a
12-second delay): each turn's clock stands for its first seconds, a fast move costs
nothing and a clock never gains time. Worked by hand against the rules in
``games.clock``'s docstring."""

from __future__ import annotations

import json

import pytest

from games.clock import PRESETS, Clock, ClockError, TimeControl, time_control_from_text

DELAY = TimeControl.of(300, 12, delay=True)


def timed(control: TimeControl) -> Clock:
    """A clock past both untimed first moves, player 0 to move at t = 0."""
    clock = Clock(control)
    clock.start(0, -2.0)
    clock.press(-1.0)
    clock.press(0.0)
    assert clock.is_running and clock.turn == 0
    return clock


def test_text_json_and_pgn_say_a_delay() -> None:
    assert DELAY.text() == "5 d12" and TimeControl.parse("5 d12") == DELAY == TimeControl.parse("5d12")
    assert time_control_from_text("5 d12") == DELAY and TimeControl.parse("5+12") != DELAY
    odds = TimeControl.parse("5 d12 vs 3 d6")
    assert odds.delay and odds.base == (300.0, 180.0) and odds.increment == (12.0, 6.0) and odds.text() == "5 d12 vs 3 d6"
    with pytest.raises(ClockError, match="mixes an increment and a delay"):
        TimeControl.parse("5 d12 vs 5+12")
    document = DELAY.to_json()
    assert document == {"base": [300.0, 300.0], "increment": [12.0, 12.0], "delay": True}
    assert TimeControl.from_json(json.loads(json.dumps(document))) == DELAY
    assert "delay" not in TimeControl.of(300, 12).to_json()  # files written before delays read alike
    for bad in ("yes", 1, None, [True]):
        with pytest.raises(ClockError):
            TimeControl.from_json({**document, "delay": bad})
    assert DELAY.pgn() == "?"  # PGN's TimeControl forms have no delay
    assert "5 d12" in [control.text() for control in PRESETS]


def test_a_move_within_the_delay_costs_nothing_and_earns_nothing() -> None:
    clock = timed(DELAY)
    assert clock.remaining(0, 8.0) == 300.0  # the clock stands through the delay
    assert clock.press(10.0) == 300.0  # 10 s: within the 12, free, nothing added
    assert clock.remaining(1, 25.0) == pytest.approx(297.0)  # Black: 15 s, 3 beyond the delay
    assert clock.press(25.0) == pytest.approx(297.0)
    assert clock.press(25.5) == 300.0  # White at once: still 300, never more


def test_the_flag_falls_at_the_time_left_plus_the_delay() -> None:
    clock = timed(TimeControl.of(20, 12, delay=True))
    assert clock.seconds_to_flag(0.0) == pytest.approx(32.0)
    assert clock.seconds_to_flag(5.0) == pytest.approx(27.0)
    assert clock.flagged_player(31.9) is None and clock.remaining(0, 31.9) == pytest.approx(0.1)
    assert clock.flagged_player(32.0) == 0


def test_pausing_keeps_what_is_left_of_the_delay() -> None:
    clock = timed(DELAY)
    clock.pause(5.0)  # 7 s of the delay left
    clock.resume(100.0)
    assert clock.remaining(0, 107.0) == 300.0  # the 7 s left of it
    assert clock.remaining(0, 110.0) == pytest.approx(297.0)


def test_every_press_starts_the_opponents_delay() -> None:
    """A backgammon double hands the turn to the opponent (take or drop on their own
    time) and the take hands it back: each gets a fresh delay, none gains time."""
    clock = timed(DELAY)
    clock.press(3.0)  # O doubles within its delay
    clock.press(5.0)  # X takes within its delay
    assert clock.turn == 0 and clock.remaining(0, 16.0) == 300.0  # O's fresh 12 s: 11 used
    assert clock.press(20.0) == pytest.approx(297.0)  # O plays: 15 s this turn, 3 charged
    assert clock.remaining(1, 20.0) == 300.0


def test_a_forced_move_keeps_the_turns_start() -> None:
    clock = timed(DELAY)
    assert clock.press(30.0, forced=True) == 300.0  # the app's pass: the turn cost nothing


def test_the_delay_left_counts_down_then_the_clock_runs() -> None:
    clock = timed(DELAY)
    assert clock.delay_left(0.0) == 12.0 and clock.delay_left(5.0) == pytest.approx(7.0)
    assert clock.delay_left(12.0) == 0.0 and clock.remaining(0, 15.0) == pytest.approx(297.0)
    assert timed(TimeControl.of(300, 12)).delay_left(0.0) == 0.0  # an increment has none
    clock.pause(5.0)
    assert clock.delay_left(50.0) == 0.0  # nothing runs while paused
