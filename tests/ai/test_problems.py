"""``ai.problems.solve`` on positions small enough to know: a won position is won and its key
found; a wrong key, or a side that cannot win, is reported as such."""

from __future__ import annotations

from ai.problems import Outcome, solve
from ai.settings import Limits
from games import new_game
from games.base import GameState


def won_for_x() -> GameState:
    """X (player 0) to move with a row to complete at c3 (a3 and b3 are X's)."""
    state = new_game("tictactoe")
    for name in ("a3", "a1", "b3", "b1"):
        state.play(state.parse_move(name))
    return state


def test_a_won_position_is_solved_with_its_key() -> None:
    result = solve(won_for_x(), 0, ["c3"], Limits(depth=9))
    assert result.solved and result.first_move == "c3" and result.outcome is Outcome.WON
    assert result.plies == 1 and result.proof == 1


def test_a_wrong_key_is_not_solved() -> None:
    result = solve(won_for_x(), 0, ["c2"], Limits(depth=9))
    assert not result.key_ok and not result.solved


def test_a_drawn_start_is_not_won() -> None:
    result = solve(new_game("tictactoe"), 0, [], Limits(depth=9))
    assert result.outcome is Outcome.DRAWN and not result.solved
