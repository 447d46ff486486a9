"""``plyground`` given what a new user types: one line on stderr and exit 2, or a sane answer.

Each case is an input a user really typed; the fuzz tests at the end try the rest."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ai.cli import MAX_HASH_MB, build_parser, main, settings_from
from ai.settings import SearchSettings
from games import GAME_NAMES, get_game


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str], str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out.splitlines(), captured.err


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The one error line ``argv`` gives (status 2, nothing on stdout)."""
    status, out, err = run(capsys, *argv)
    assert (status, out) == (2, []), (argv, status, out, err)
    assert err.startswith("plyground: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err.strip()


ANALYSE = ("analyse", "--game", "tictactoe")


@pytest.mark.parametrize("megabytes", ["100000000", "9" * 400, "0", "-5", "lots"])
def test_a_hash_size_out_of_range_is_refused_with_the_range(capsys: pytest.CaptureFixture[str], megabytes: str) -> None:
    err = refused(capsys, *ANALYSE, "--hash", megabytes)
    assert err.startswith("plyground: error: argument --hash: ") and err.endswith(f" 1..{MAX_HASH_MB} MB")
    assert len(err) < 200  # 400 digits are not echoed back whole


def test_an_empty_algorithm_is_refused_with_the_choices(capsys: pytest.CaptureFixture[str]) -> None:
    err = refused(capsys, *ANALYSE, "--algorithm", "")
    assert err == (
        "plyground: error: argument --algorithm: '' is not an algorithm; choose one of "
        "minimax, alphabeta, pvs, mtdf, expectiminimax, star1, star2, mcts, native"
    )


@pytest.mark.parametrize("seconds", ["nan", "-inf", "0", "-1", "soon"])
def test_a_time_that_is_no_time_is_refused(capsys: pytest.CaptureFixture[str], seconds: str) -> None:
    err = refused(capsys, *ANALYSE, "--time", seconds)
    assert "--time" in err


def test_time_inf_means_no_limit_and_help_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    """Tic-tac-toe is solved before any limit: the search runs to the end of the game."""
    status, lines, _ = run(capsys, *ANALYSE, "--time", "inf", "--json")
    assert status == 0
    assert lines[-1].startswith("bestmove ")
    assert main(["analyse", "--help"]) == 0
    assert "'inf' = no limit" in " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_huge_bad_position_is_echoed_cut(capsys: pytest.CaptureFixture[str], game: str) -> None:
    position = "W" * 100_000
    err = refused(capsys, "analyse", "--game", game, "--position", position)
    assert len(err) < 400, err
    assert "W" * 200 not in err


def test_repeated_moves_options_append(capsys: pytest.CaptureFixture[str]) -> None:
    status, twice, _ = run(capsys, *ANALYSE, "--moves", "a1", "--moves", "b2", "--depth", "2", "--json")
    assert status == 0
    status, once, _ = run(capsys, *ANALYSE, "--moves", "a1", "b2", "--depth", "2", "--json")
    assert twice[-1] == once[-1]
    status, alone, _ = run(capsys, *ANALYSE, "--moves", "b2", "--depth", "2", "--json")
    assert "a1" not in alone[-1] and once[-1] != "bestmove a1"


def test_a_value_beginning_with_a_dash_says_how_to_write_it(capsys: pytest.CaptureFixture[str]) -> None:
    """argparse reads a word that begins with '-' (and has no space) as an option."""
    squares = "-" * 27 + "XO------OX" + "-" * 27
    err = refused(capsys, "analyse", "--game", "othello", "--position", squares)
    assert err.endswith("expected one argument (a value that begins with '-' is written --position=VALUE)")
    for argv in (["--position", f"{squares} X"], [f"--position={squares} X"]):
        status, lines, _ = run(capsys, "analyse", "--game", "othello", *argv, "--depth", "1")
        assert status == 0 and lines[-1].startswith("bestmove ")


def test_backgammon_from_the_start_says_a_roll_is_needed(capsys: pytest.CaptureFixture[str]) -> None:
    status, lines, _ = run(capsys, "analyse", "--game", "backgammon", "--depth", "1")
    assert status == 0
    assert lines[-2:] == [
        "no move: the dice are to be rolled first: give the roll with --dice (e.g. --dice 3-1)",
        "bestmove (none)",
    ]
    status, lines, _ = run(capsys, "analyse", "--game", "backgammon", "--depth", "1", "--dice", "3-1")
    assert status == 0 and lines[-1] == "bestmove 8/5 6/5"


def test_dice_for_a_game_without_dice_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    err = refused(capsys, *ANALYSE, "--dice", "3-1")
    assert err == "plyground: error: --dice 3-1: tictactoe has no dice: there is nothing to roll"


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [("--depth", "0", "0 is out of range 1..1000"), ("--depth", "1" * 400, "characters) is out of range 1..1000"),
     ("--nodes", "0", "out of range 1.."), ("--threads", "0", "out of range 1.."),
     ("--threads", "100000", "out of range 1.."), ("--aspiration-window", "nan", "must be a positive number, not nan"),
     ("--solver-empties", "-1", "out of range 0..64"), ("--exploration", "inf", "finite"),
     ("--playout", "", "random, eval"), ("--game", "go", "tictactoe, checkers, chess, othello, backgammon"),
     ("--seed", "-1", "out of range 0.."), ("--nodes", "ten", "'ten' is not a whole number in 1..")],
)
def test_every_option_states_its_range(capsys: pytest.CaptureFixture[str], option: str, value: str, message: str) -> None:
    argv = ["analyse", "--game", "tictactoe", option, value] if option != "--game" else ["analyse", "--game", value]
    err = refused(capsys, *argv)
    assert err.startswith(f"plyground: error: argument {option}: ") and message in err


# ------------------------------------------------------------------ every switch
SWITCHES = {
    "algorithm": (["--algorithm", "mtdf"], "mtdf"),
    "iterative_deepening": (["--no-iterative-deepening"], False),
    "aspiration": (["--no-aspiration"], False),
    "aspiration_window": (["--aspiration-window", "25"], 25.0),
    "transposition_table": (["--no-tt"], False),
    "tt_megabytes": (["--hash", "8"], 8),
    "move_ordering": (["--no-ordering"], False),
    "killers": (["--no-killers"], False),
    "history": (["--no-history"], False),
    "quiescence": (["--no-quiescence"], False),
    "check_extensions": (["--no-check-extensions"], False),
    "null_move": (["--no-null-move"], False),
    "late_move_reductions": (["--no-lmr"], False),
    "quiescence_checks": (["--no-quiescence-checks"], False),
    "see_pruning": (["--no-see-pruning"], False),
    "futility_pruning": (["--no-futility"], False),
    "solver_empties": (["--solver-empties", "10"], 10),
    "exploration": (["--exploration", "0.7"], 0.7),
    "playout": (["--playout", "eval"], "eval"),
    "playout_depth": (["--playout-depth", "4"], 4),
    "seed": (["--seed", "7"], 7),
    "threads": (["--threads", "1"], 1),
    "weights": (["--weights", "tuned.json"], "tuned.json"),
    "network": (["--network", "off"], "off"),
    "book": (["--book"], True),
    "multipv": (["--multipv", "3"], 3),
}
"""Every ``SearchSettings`` field: the option that sets it and the value it then has."""


def test_every_search_setting_has_an_option() -> None:
    assert set(SWITCHES) == {field.name for field in dataclasses.fields(SearchSettings)}


@pytest.mark.parametrize("field", sorted(SWITCHES))
def test_each_option_sets_its_field_and_nothing_else(field: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    argv, value = SWITCHES[field]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tuned.json").write_text("{}", encoding="utf-8")  # a file option names a file that exists
    game = get_game("chess")
    args = build_parser().parse_args(["analyse", "--game", "chess", *argv])
    chosen = settings_from(args, game)
    default = SearchSettings(algorithm=game.DEFAULT_ALGORITHM, book=False)  # analysis searches the book too
    assert getattr(chosen, field) == value
    assert dataclasses.replace(chosen, **{field: getattr(default, field)}) == default


def test_quiescence_can_be_switched_on_too() -> None:
    args = build_parser().parse_args(["analyse", "--game", "chess", "--quiescence"])
    assert settings_from(args, get_game("chess")).quiescence is True


def test_the_games_default_algorithm_is_used() -> None:
    for game in GAME_NAMES:
        args = build_parser().parse_args(["analyse", "--game", game])
        assert settings_from(args, get_game(game)).algorithm == get_game(game).DEFAULT_ALGORITHM
    assert get_game("backgammon").DEFAULT_ALGORITHM == "star2"


def test_switches_reach_the_search(capsys: pytest.CaptureFixture[str]) -> None:
    """Without iterative deepening one iteration is reported, at the depth asked for."""
    status, lines, _ = run(capsys, "analyse", "--game", "chess", "--depth", "2", "--no-iterative-deepening",
                           "--no-aspiration", "--no-null-move", "--no-lmr", "--no-killers", "--no-history",
                           "--no-check-extensions", "--no-quiescence", "--no-book")
    assert status == 0
    assert [line.split()[1] for line in lines if line.startswith("depth ")] == ["2"]


# ------------------------------------------------------------------ fuzz
OPTIONS = ["--game", "--position", "--moves", "--dice", "--depth", "--time", "--nodes", "--hash", "--algorithm",
           "--aspiration-window", "--solver-empties", "--exploration", "--playout", "--playout-depth", "--seed",
           "--threads", "--searchmoves"]
NASTY = st.sampled_from(["", "nan", "inf", "-inf", "-1", "0", "1e999", "9" * 400, "\x00", "-", "--", "x" * 5000,
                         "é", "\n", " ", "3-1", "e4", "--depth"])
VALUES = st.one_of(NASTY, st.text(max_size=30))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(command=st.sampled_from(["perft", "analyse"]), game=st.sampled_from(GAME_NAMES),
       pairs=st.lists(st.tuples(st.sampled_from(OPTIONS), VALUES), max_size=3))
def test_fuzz_the_command_line(capsys: pytest.CaptureFixture[str], command: str, game: str,
                               pairs: list[tuple[str, str]]) -> None:
    """Garbage, huge, nan, empty and truncated values: exit 0 with an answer, or one line
    and exit 2 — never a traceback, never a hang (each search is held to 200 nodes)."""
    argv = [command, "--game", game]
    for option, value in pairs:
        if option in ("--depth", "--time", "--nodes"):
            continue  # the limit is ours, below
        argv += [option, value]
    argv += ["--depth", "1"] if command == "perft" else ["--nodes", "200"]
    status = main(argv)
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    if status == 0:
        assert captured.err == ""
    else:
        assert status == 2, (argv, captured.err)
        assert captured.err.startswith("plyground: error: ") and captured.err.count("\n") == 1, captured.err
        assert len(captured.err) < 600


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=VALUES, option=st.sampled_from(["--depth", "--time", "--nodes"]))
def test_fuzz_the_limits(capsys: pytest.CaptureFixture[str], value: str, option: str) -> None:
    """A limit is a positive number in range or refused; a valid one answers (tic-tac-toe
    is solved within any of them)."""
    status = main(["analyse", "--game", "tictactoe", option, value])
    captured = capsys.readouterr()
    assert status in (0, 2) and "Traceback" not in captured.err
    if status == 2:
        assert captured.err.count("\n") == 1
    else:
        number = float(value)
        assert number > 0 and not math.isnan(number)
        assert captured.out.splitlines()[-1].startswith("bestmove ")
