"""The turn builder behind the backgammon board, checked against the move generator.

Over the positions of seeded random games: legal plays can be entered hop by hop, and
whatever steps a player picks among those offered, the turn always ends as one of the legal
plays (nothing offered leads to a dead end or to an illegal play); taking every step back
restores the position.
"""

from __future__ import annotations

import random

import pytest

from games.backgammon.board import NO_MOVE
from games.backgammon.state import CHECKER_PLAY, BackgammonState
from games.backgammon.turn import TurnBuilder
from games.base import CHANCE

GAMES = 2
PLAYS_PER_POSITION = 40
"""Plays entered per position (doubles have hundreds; a sample keeps the test quick)."""


def checker_play_positions(seed: int) -> list[BackgammonState]:
    rng = random.Random(seed)
    state = BackgammonState.initial(cube_enabled=False)
    positions = []
    while not state.is_terminal():
        if state.to_move() == CHANCE:
            outcomes = state.chance_outcomes()
            state.play(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        if state.phase == CHECKER_PLAY:
            positions.append(state.copy())
        state.play(rng.choice(state.legal_moves()))
    return positions


def test_legal_plays_can_be_entered_hop_by_hop() -> None:
    rng = random.Random(0)
    for state in checker_play_positions(seed=0):
        plays = state.legal_moves()
        for play in rng.sample(plays, min(len(plays), PLAYS_PER_POSITION)):
            builder = TurnBuilder(state)
            for source, target in play:
                builder.play_step(source, target)
            assert builder.complete_play() == play, f"{state.to_text()}: {play}"


@pytest.mark.parametrize("seed", range(GAMES))
def test_any_path_through_the_offered_steps_ends_in_a_legal_play(seed: int) -> None:
    rng = random.Random(seed)
    for state in checker_play_positions(seed):
        legal = state.legal_moves()
        builder = TurnBuilder(state)
        assert builder.is_forced_no_move() == (legal == [NO_MOVE])
        while not builder.is_complete():
            options = builder.options()
            assert options, f"{state.to_text()}: dead end after {builder.hops}"
            source = rng.choice(sorted(options))
            builder.play_step(source, rng.choice(sorted(options[source])))
        assert builder.complete_play() in legal, f"{state.to_text()}: {builder.hops}"
        assert builder.options() == {}
        while builder.undo_step() is not None:
            pass
        assert builder.mine == state.boards[state.player]
        assert builder.theirs == state.boards[1 - state.player]
        assert builder.dice_left == builder.dice


def test_a_step_not_offered_is_refused() -> None:
    state = BackgammonState.initial()
    state.play((1, 3))  # X to play 3-1
    builder = TurnBuilder(state)
    with pytest.raises(ValueError, match="no step from 24 to 22"):
        builder.play_step(24, 22)
    assert builder.hops == ()


def test_dice_are_used_up_step_by_step() -> None:
    state = BackgammonState.initial()
    state.play((1, 3))
    builder = TurnBuilder(state)
    builder.play_step(8, 5)
    assert builder.used_dice() == [True, False] and builder.dice_left == (1,)
    builder.undo_step()
    builder.play_step(8, 4)  # one checker by both dice in one step
    assert builder.used_dice() == [True, True] and len(builder.steps[0].hops) == 2
    assert builder.complete_play() == state.parse_move("8/4")
