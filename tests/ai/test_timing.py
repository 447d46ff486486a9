"""The computer's time from its clock: increments used, short moves on a short clock, never
more than the clock less the pool's margin, and whole games at 1+0 on a fake clock (each move
searching exactly its hard limit plus the measured overhead) that never flag."""

from __future__ import annotations

import random

import pytest

import ai.uci
from ai.iterative import SOFT_TIME_FRACTION
from ai.settings import Limits
from ai.timing import (
    INCREMENT_SHARE,
    MAX_SHARE_OF_CLOCK,
    MIN_MOVE_SECONDS,
    MOVES_TO_GO_DEFAULT,
    POOL_OVERHEAD,
    RESERVE_MOVES,
    clock_budget,
    clock_limits,
    move_budget,
    moves_left,
    time_for_move,
)
from games import CHANCE, GAME_NAMES, GameState, new_game
from games.backgammon.state import BackgammonState
from games.clock import Clock, TimeControl, clock_owner

RESERVE = RESERVE_MOVES * (MIN_MOVE_SECONDS + POOL_OVERHEAD)
TYPICAL_OVERSHOOT = 0.05
"""Seconds a clocked search overshoots its limit on the pool, typically: more than every
median ``bench.timing_overhead`` measured (at most 0.002 s)."""


def test_uci_keeps_the_same_rule() -> None:
    assert ai.uci.time_for_move is time_for_move
    assert time_for_move(60.0, 1.0, 40) == pytest.approx(60 / 40 + 0.8 - 0.05)
    assert time_for_move(60.0, 0.0, None) == pytest.approx(60 / MOVES_TO_GO_DEFAULT - 0.05)


def test_hard_limit_is_the_equal_share_less_the_overhead_soft_is_half() -> None:
    budget = move_budget(300.0, 3.0, 30.0)
    assert budget.hard == pytest.approx((300 - RESERVE) / 30 + INCREMENT_SHARE * 3 - POOL_OVERHEAD)
    assert budget.soft == pytest.approx(SOFT_TIME_FRACTION * budget.hard)
    assert budget.limits() == Limits(time=budget.hard, from_clock=True)


def test_the_increment_is_used() -> None:
    without, with_increment = move_budget(60.0, 0.0, 30.0), move_budget(60.0, 2.0, 30.0)
    assert with_increment.hard == pytest.approx(without.hard + INCREMENT_SHARE * 2)
    # a nearly empty clock lives on its increment, but never spends more than half of itself
    assert move_budget(1.0, 5.0, 30.0).hard == pytest.approx(1.0 * MAX_SHARE_OF_CLOCK - POOL_OVERHEAD)


def test_a_low_clock_gives_short_moves() -> None:
    hards = [move_budget(remaining, 0.0, 30.0).hard for remaining in (600.0, 60.0, 10.0, 1.0, 0.2)]
    assert hards == sorted(hards, reverse=True)
    assert hards[-1] < 0.1


@pytest.mark.parametrize("remaining", [0.0, 0.01, 0.15, 0.2, 0.5, 1.0, 3.0, 59.9, 600.0, 86_400.0])
@pytest.mark.parametrize("increment", [0.0, 1.0, 30.0])
@pytest.mark.parametrize("moves", [1.0, 5.0, 40.0])
def test_never_more_than_the_clock_less_the_margin(remaining: float, increment: float, moves: float) -> None:
    budget = move_budget(remaining, increment, moves)
    assert budget.soft <= budget.hard
    assert budget.hard <= max(MIN_MOVE_SECONDS, remaining * MAX_SHARE_OF_CLOCK - POOL_OVERHEAD) + 1e-12
    share = max(0.0, remaining - RESERVE) / moves + INCREMENT_SHARE * increment
    assert budget.hard + POOL_OVERHEAD <= max(MIN_MOVE_SECONDS + POOL_OVERHEAD, share) + 1e-12


def test_games_say_how_many_moves_are_left() -> None:
    othello = new_game("othello")
    assert moves_left(othello) == 30  # 60 empties, half each
    tictactoe = new_game("tictactoe")
    assert moves_left(tictactoe) == 5
    tictactoe.play(tictactoe.legal_moves()[0])
    assert moves_left(tictactoe) == 4  # O places at most 4 of the 8 empties
    assert moves_left(new_game("chess")) == 45
    assert moves_left(new_game("chess", "4k3/8/8/8/8/8/8/4K2R w K - 0 60")) == 20
    assert moves_left(new_game("checkers")) == pytest.approx(10 + 1.5 * 24)
    assert moves_left(new_game("backgammon")) == pytest.approx(167 / (49 / 6) + 1)  # 167 pips, 8.17 a roll


def test_a_level_time_shorter_than_the_clock_is_kept() -> None:
    state = new_game("chess")
    level = Limits(depth=6, time=0.5)
    assert clock_limits(state, 300.0, 3.0, level) == level
    capped = clock_limits(state, 3.0, 0.0, Limits(depth=12, time=30.0, nodes=10**6))
    assert capped.depth == 12 and capped.nodes == 10**6 and capped.from_clock
    assert capped.time == clock_budget(state, 3.0, 0.0).hard < 30.0
    assert clock_limits(state, 60.0, 0.0) == clock_budget(state, 60.0, 0.0).limits()


def start(game: str) -> GameState:
    """The game's start; backgammon without the cube (random doubles end a game in a few
    moves, and the clock is tested over a whole game)."""
    if game == "backgammon":
        return BackgammonState.initial(cube_enabled=False)
    return new_game(game)


def play_on_a_fake_clock(game: str, control: TimeControl, seed: int, plies: int) -> tuple[Clock, float]:
    """A random game where both sides are the computer and every move searches exactly its
    hard limit, plus the typical overshoot; returns the clock and the time. Dice cost no
    time (the app rolls them at once); the clock follows ``clock_owner`` as the app does."""
    generator = random.Random(seed)
    state = start(game)
    clock = Clock(control)
    now = 0.0
    for _ in range(plies):
        owner = clock_owner(state)
        if owner is None:
            break
        clock.turn_to(owner, now)
        if state.to_move() == CHANCE:
            outcomes, weights = zip(*state.chance_outcomes())
            state.play(generator.choices(outcomes, weights)[0])
            continue
        budget = clock_budget(state, clock.remaining(owner, now), control.increment[owner])
        now += budget.hard + TYPICAL_OVERSHOOT
        assert clock.flagged_player(now) is None, f"{game}: flag after {sum(clock.moves)} moves"
        state.play(generator.choice(state.legal_moves()))
    return clock, now


MAX_PLIES = 240
"""Random games are cut at 120 moves a side: longer than almost every real game (a random
chess game wanders for hundreds of moves; the worst-case test below covers 100 a side)."""


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_whole_game_at_one_minute_never_flags(game: str) -> None:
    clock, now = play_on_a_fake_clock(game, TimeControl.of(60.0, 0.0), seed=3, plies=MAX_PLIES)
    assert clock.flagged is None and min(clock.remaining(player, now) for player in (0, 1)) > 0


def test_a_long_chess_game_at_one_minute_never_flags_in_the_worst_case() -> None:
    """100 moves a side (the estimate stays at its floor of 20 moves past move 25), every
    search using its whole hard limit and overshooting by the whole margin."""
    clock = Clock(TimeControl.of(60.0, 0.0))
    clock.start(0, 0.0)
    now = 0.0
    for move in range(1, 101):
        for player in (0, 1):
            state = new_game("chess", f"4k3/8/8/8/8/8/8/4K3 {'wb'[player]} - - 0 {move}")
            now += clock_budget(state, clock.remaining(player, now), 0.0).hard + POOL_OVERHEAD
            assert clock.flagged_player(now) is None, f"flag at move {move}"
            clock.press(now)
    assert clock.remaining(0, now) > 0 and clock.remaining(1, now) > 0


def test_an_increment_keeps_the_clock_up() -> None:
    """At 1+1 a long game does not drain the clock below the increment's worth."""
    clock, now = play_on_a_fake_clock("othello", TimeControl.of(60.0, 1.0), seed=5, plies=200)
    assert clock.flagged is None and min(clock.remaining(player, now) for player in (0, 1)) > 1.0
