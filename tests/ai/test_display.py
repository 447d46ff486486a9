"""``ai.display``: scores as people read them, the same for the CLI, UCI and the GUI.

The games say their units and words; a finished game's winner survives every change of view
(``0 plies to the end`` has no sign of its own, ``-0 == 0``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ai.display import echo, in_units, one_line, score_text, uci_score, value_text
from ai.engine import search
from ai.events import Score
from ai.scores import WIN_SCORE
from ai.settings import Limits, SearchSettings
from games import GAME_NAMES, get_game, new_game

ROOT = Path(__file__).resolve().parents[2]

FINISHED = {
    # game: (position, moves, winner (None: a draw))
    "tictactoe": ("xxxoo....", (), 0),
    "checkers": ("W:W:B5", (), 0),
    "chess": ("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", (), 0),
    "othello": ("X" * 64 + " O", (), 0),
    "backgammon": ("4HPwATDgc/ABMA:cAkAAAAAAAAA", ("double", "drop"), 1),
}
"""A finished position of every game, most with the loser to move."""


def finished_state(game: str):  # type: ignore[no-untyped-def]
    position, moves, _ = FINISHED[game]
    state = new_game(game, position)
    for move in moves:
        state.play_checked(state.parse_move(move))
    assert state.is_terminal(), game
    return state


def test_every_game_has_a_finished_position_here() -> None:
    assert set(FINISHED) == set(GAME_NAMES)


@pytest.mark.parametrize("game", sorted(FINISHED))
def test_a_finished_game_is_won_by_its_winner_in_every_view(game: str) -> None:
    """The search's answer at a finished root, seen by either player, names the winner."""
    state = finished_state(game)
    winner = FINISHED[game][2]
    cls = type(state)
    settings = SearchSettings(algorithm=cls.DEFAULT_ALGORITHM)
    answer = search(state, settings, Limits(depth=2))
    assert answer.best_move is None
    for view in (0, 1):
        text = score_text(answer.score, cls, view)
        assert text.startswith(f"({cls.PLAYER_NAMES[view]}) "), text
        seen = answer.score.for_player(view)
        if cls.UTILITY_KIND == "win_loss":
            assert text.endswith(" won" if view == winner else " lost"), (game, view, text)
            assert seen.outcome == (1 if view == winner else -1)
            assert in_units(seen, cls) == (float("inf") if view == winner else float("-inf"))
        else:  # a margin or equity: the winner's value is positive
            assert (seen.value > 0) == (view == winner), (game, view, text)
            assert text.split()[-1].startswith("+" if view == winner else "-"), (game, view, text)


def test_the_cli_prints_the_winner_of_a_finished_game(capsys: pytest.CaptureFixture[str]) -> None:
    """The issue's three examples, through ``plyground analyse``."""
    from ai.cli import main

    for game, expected in (("chess", "(White) won"), ("tictactoe", "(x) won"), ("checkers", "(Black) won")):
        position = FINISHED[game][0]
        assert main(["analyse", "--game", game, "--depth", "2", "--position", position]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert lines[-3:] == [f"score {expected}", f"no move: the game is over ({finished_state(game).termination_reason()})",
                              "bestmove (none)"], lines


def test_uci_says_mate_0_for_the_mated_side_to_move() -> None:
    score = Score(-WIN_SCORE, view=1, win_in_plies=0)
    assert uci_score(score, 1) == "mate 0"
    assert score.for_player(0).outcome == 1 and score.for_player(0).for_player(1).outcome == -1


@pytest.mark.parametrize(
    ("plies", "chess_text", "other_text", "seen_by_the_other"),
    [(1, "mate in 1", "win in 1 ply", "loss in 1 ply"), (3, "mate in 2", "win in 3 plies", "loss in 3 plies"),
     (-4, "mated in 2", "loss in 4 plies", "win in 4 plies"), (-1, "mated in 1", "loss in 1 ply", "win in 1 ply")],
)
def test_proven_results_in_each_games_words(plies: int, chess_text: str, other_text: str, seen_by_the_other: str) -> None:
    score = Score(WIN_SCORE - abs(plies) if plies > 0 else -WIN_SCORE + abs(plies), 0, plies)
    assert value_text(score, get_game("chess")) == chess_text
    assert value_text(score, get_game("checkers")) == other_text
    assert value_text(score.for_player(1), get_game("tictactoe")) == seen_by_the_other


@pytest.mark.parametrize(
    ("game", "value", "text"),
    [("chess", 35.0, "+0.35 pawns"), ("checkers", -150.0, "-1.50 men"), ("othello", 420.0, "+4.20 discs"),
     ("backgammon", 0.1234, "+0.123 points"), ("tictactoe", 2.0, "+2 lines")],
)
def test_each_game_names_its_unit(game: str, value: float, text: str) -> None:
    cls = get_game(game)
    assert score_text(Score(value, 0, None, cls.EVAL_SCALE), cls, unit=True) == f"({cls.PLAYER_NAMES[0]}) {text}"


def test_a_bound_turns_with_the_view() -> None:
    chess_game = get_game("chess")
    assert score_text(Score(35.0, view=1), chess_game, 0, "lower") == "(White) -0.35 upperbound"
    assert score_text(Score(35.0, view=1), chess_game, 1, "lower") == "(Black) +0.35 lowerbound"
    assert uci_score(Score(35.0, view=0), 1, "upper") == "cp -35 lowerbound"


def test_no_front_end_knows_a_game_by_name() -> None:
    """The games say their units and words; only UCI (a chess protocol) names its game."""
    modules = [*sorted((ROOT / "ai/cli").glob("*.py")), ROOT / "ai/display.py", ROOT / "ai/options.py"]
    assert len(modules) > 3  # the command line's package was found
    for module in modules:
        text = module.read_text()
        assert not re.findall(r"\"(chess|checkers|backgammon|othello|tictactoe)\"", text), module
        assert "import games.backgammon" not in text and "from games.backgammon" not in text
    uci = (ROOT / "ai/uci.py").read_text()
    assert re.findall(r"\"(chess|checkers|backgammon|othello|tictactoe)\"", uci) == ["chess"]


def test_long_values_are_cut_and_kept_on_one_line() -> None:
    value = "x" * 100_000
    assert echo(value) == "x" * 80 + "... (100,000 characters)"
    message = one_line(f"bad position {value!r}\nsecond line", [value])
    assert message == f"bad position 'x{'x' * 79}... (100,000 characters)' second line"
    assert len(one_line("y" * 5000)) < 120  # a long run the caller did not name is cut too
