"""What each game says about itself for the front ends, so that none of them names a game:
its score unit and words, its default algorithm, and its dice hook (``roll_moves``)."""

from __future__ import annotations

import pytest

from ai.search import ALGORITHMS
from games import GAME_NAMES, get_game, new_game
from games.base import GameError

CUBE_DECISION_ID = "4HPwATDgc/ABMA:cAkAAAAAAAAA"
"""Backgammon's start as gnubg shows it: X on roll, may double or roll (no dice yet)."""


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_game_says_its_unit_words_and_algorithm(name: str) -> None:
    game = get_game(name)
    assert game.SCORE_UNIT and game.SCORE_UNIT_SIZE > 0 and game.SCORE_DECIMALS >= 0
    assert game.WIN_WORDING in ("mate", "plies")
    spec = ALGORITHMS[game.DEFAULT_ALGORITHM]
    assert spec.handles_chance or not game.HAS_CHANCE  # the default can search the game


@pytest.mark.parametrize("name", [name for name in GAME_NAMES if not get_game(name).HAS_CHANCE])
def test_a_game_without_dice_says_so(name: str) -> None:
    state = new_game(name)
    with pytest.raises(GameError, match=f"^{name} has no dice: there is nothing to roll$"):
        state.set_roll("3-1")


def test_backgammon_rolls_the_opening_dice() -> None:
    state = new_game("backgammon")
    state.set_roll("3-1")
    assert state.dice == (3, 1) and state.perft(1) == 16


def test_backgammon_rolls_past_the_cube_decision() -> None:
    state = new_game("backgammon", CUBE_DECISION_ID)
    moves = state.roll_moves("6-5")
    assert [state.copy().move_name(moves[0]), len(moves)] == ["roll", 2]
    state.set_roll("5-6")
    assert state.dice == (6, 5) and state.legal_moves()


@pytest.mark.parametrize(
    ("moves", "message"),
    [(["double"], "a double is pending: O must take or drop before X rolls"),
     (["double", "drop"], "the game is over in this position, nothing is rolled any more"),
     (["roll", "6-5"], "the dice disagree with the position: X's dice are already rolled \\(6-5\\)")],
)
def test_backgammon_says_why_a_roll_cannot_come_next(moves: list[str], message: str) -> None:
    state = new_game("backgammon", CUBE_DECISION_ID)
    for move in moves:
        state.play_checked(state.parse_move(move))
    before = state.to_text()
    with pytest.raises(GameError, match=f"^{message}$"):
        state.set_roll("3-1")
    assert state.to_text() == before  # nothing was played


def test_backgammon_accepts_the_dice_already_rolled() -> None:
    state = new_game("backgammon", CUBE_DECISION_ID)
    state.set_roll("6-5")
    assert state.roll_moves("5-6") == []
