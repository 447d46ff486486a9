"""``plyground perft``: counts, divide, and clean one-line errors with exit status 2."""

from __future__ import annotations

import subprocess
import sys

import pytest

from ai.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_perft_counts_tictactoe(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "perft", "--game", "tictactoe", "--depth", "4")
    assert status == 0
    assert out.strip() == "3024"


def test_perft_divide_names_moves_and_sums(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "perft", "--game", "tictactoe", "--position", "x...o....", "--depth", "2", "--divide")
    assert status == 0
    lines = out.strip().splitlines()
    rows = dict(line.split(": ") for line in lines[:-2])
    assert set(rows) == {"b3", "c3", "a2", "c2", "a1", "b1", "c1"}
    assert all(count == "6" for count in rows.values())
    assert lines[-1] == "42"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--position", "xxxxxxxxx"], "x has 9 marks"),
        (["--position", "x..o..q.."], "holds 'q'"),
        (["--dice", "3-1"], "tictactoe has no dice"),
        (["--depth", "-1"], "argument --depth: -1 is out of range 0..100"),
    ],
)
def test_bad_input_is_one_line_with_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    base = ["perft", "--game", "tictactoe", "--depth", "2"]
    status, out, err = run(capsys, *base, *argv)
    assert status == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert message in err
    assert "Traceback" not in err


def test_console_entry_point_runs_as_a_process() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ai.cli", "perft", "--game", "tictactoe", "--position", "nonsense", "--depth", "1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "9 squares" in result.stderr


@pytest.mark.parametrize(("dice", "plays"), [("3-1", 16), ("6-5", 7), ("2-1", 15)])
def test_perft_backgammon_counts_the_distinct_plays_of_a_roll(
    capsys: pytest.CaptureFixture[str], dice: str, plays: int
) -> None:
    """From the start, with the opening roll given by ``--dice`` (counts as in gnubg)."""
    status, out, err = run(capsys, "perft", "--game", "backgammon", "--dice", dice, "--depth", "1")
    assert (status, err) == (0, "")
    assert out.strip() == str(plays)


def test_perft_backgammon_divide_names_plays_in_standard_notation(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "perft", "--game", "backgammon", "--dice", "3-1", "--depth", "1", "--divide")
    assert status == 0
    rows = dict(line.split(": ") for line in out.strip().splitlines()[:-2])
    assert "8/5 6/5" in rows and all(count == "1" for count in rows.values())
    assert out.strip().splitlines()[-1] == "16"


def test_perft_backgammon_rejects_a_double_as_the_opening_roll(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "perft", "--game", "backgammon", "--dice", "6-6", "--depth", "1")
    assert status == 2 and out == ""
    assert "double" in err and len(err.strip().splitlines()) == 1


CUBE_DECISION_ID = "4HPwATDgc/ABMA:cAkAAAAAAAAA"
"""The start position as gnubg shows it: X (player 1) on roll, may double or roll (no dice yet)."""


def test_perft_backgammon_rolls_past_the_cube_decision(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(
        capsys, "perft", "--game", "backgammon", "--position", CUBE_DECISION_ID, "--dice", "3-1", "--depth", "1"
    )
    assert (status, err) == (0, "")
    assert out.strip() == "16"


STARTING_3_1_ID = "4HPwATDgc/ABMA:cIkFAAAAAAAA"
"""The start with the opening 3-1 rolled: X plays those dice (no cube decision)."""


def test_perft_backgammon_accepts_dice_equal_to_the_rolled_ones(capsys: pytest.CaptureFixture[str]) -> None:
    for dice in ("3-1", "1-3", "31"):
        status, out, err = run(
            capsys, "perft", "--game", "backgammon", "--position", STARTING_3_1_ID, "--dice", dice, "--depth", "1"
        )
        assert (status, out, err) == (0, "16\n", "")


@pytest.mark.parametrize(
    ("moves", "dice", "message"),
    [
        (["double"], "3-1", "--dice 3-1: a double is pending: O must take or drop before X rolls"),
        (["double", "drop"], "3-1", "--dice 3-1: the game is over in this position, nothing is rolled any more"),
        (["roll", "6-5"], "3-1", "--dice 3-1: the dice disagree with the position: X's dice are already rolled (6-5)"),
        (["roll", "6-5"], "5-6", None),  # the same dice: accepted
    ],
)
def test_perft_backgammon_dice_errors_say_why(
    capsys: pytest.CaptureFixture[str], moves: list[str], dice: str, message: str | None
) -> None:
    """From gnubg's cube decision: a pending take, a dropped double (game over) and dice
    already rolled each give one exact line and status 2."""
    from games import new_game

    state = new_game("backgammon", CUBE_DECISION_ID)
    for move in moves:
        state.play_checked(state.parse_move(move))
    status, out, err = run(
        capsys, "perft", "--game", "backgammon", "--position", state.to_text(), "--dice", dice, "--depth", "1"
    )
    if message is None:
        assert (status, out, err) == (0, f"{state.perft(1)}\n", "")
    else:
        assert (status, out, err) == (2, "", f"plyground: error: {message}\n")


@pytest.mark.parametrize("dice", ["7-1", "3-1-2", "three"])
def test_perft_backgammon_rejects_dice_that_are_not_a_roll(capsys: pytest.CaptureFixture[str], dice: str) -> None:
    status, out, err = run(
        capsys, "perft", "--game", "backgammon", "--position", CUBE_DECISION_ID, "--dice", dice, "--depth", "1"
    )
    assert (status, out) == (2, "")
    assert err.startswith("plyground: error: ") and f"{dice!r} is not a roll" in err
    assert len(err.splitlines()) == 1 and "Traceback" not in err


BROKEN_POSITIONS = {
    "tictactoe": ("xxxxxxxxxx", "9"),
    "checkers": ("B:W33:B1", "33"),
    "chess": ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "turn"),
    "othello": ("-" * 63 + " X", "64"),
    "backgammon": ("notAnId", "Position ID"),
}


@pytest.mark.parametrize("command", ["perft", "analyse"])
@pytest.mark.parametrize("game", sorted(BROKEN_POSITIONS))
def test_a_broken_position_is_one_line_with_status_2_for_every_game(
    capsys: pytest.CaptureFixture[str], game: str, command: str
) -> None:
    position, hint = BROKEN_POSITIONS[game]
    status, out, err = run(capsys, command, "--game", game, "--position", position, "--depth", "1")
    assert status == 2 and out == ""
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert err.startswith("plyground: error: ") and hint.lower() in err.lower()


ILLEGAL_MOVES = {"tictactoe": "d4", "checkers": "11-18", "chess": "e2e5", "othello": "a1", "backgammon": "24/1"}


@pytest.mark.parametrize("game", sorted(ILLEGAL_MOVES))
def test_an_illegal_move_is_one_line_with_status_2_for_every_game(
    capsys: pytest.CaptureFixture[str], game: str
) -> None:
    extra = ["--position", "4HPwATDgc/ABMA:cIkFAAAAAAAA"] if game == "backgammon" else []
    status, out, err = run(capsys, "analyse", "--game", game, *extra, "--moves", ILLEGAL_MOVES[game], "--depth", "1")
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert ILLEGAL_MOVES[game] in err


DIVIDE_CASES = {
    "tictactoe": (None, 3),
    "checkers": (None, 4),
    "chess": ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 2),
    "othello": (None, 4),
    "backgammon": (CUBE_DECISION_ID, 2),
}


@pytest.mark.parametrize("game", sorted(DIVIDE_CASES))
def test_divide_rows_sum_to_perft_for_every_game(capsys: pytest.CaptureFixture[str], game: str) -> None:
    from games import new_game

    position, depth = DIVIDE_CASES[game]
    base = ["perft", "--game", game, "--depth", str(depth)] + (["--position", position] if position else [])
    status, plain, _ = run(capsys, *base)
    assert status == 0
    status, out, _ = run(capsys, *base, "--divide")
    assert status == 0
    lines = out.strip().splitlines()
    rows = [line.rsplit(": ", 1) for line in lines[:-2]]
    assert sum(int(count) for _, count in rows) == int(lines[-1]) == int(plain)
    assert len(rows) == len(new_game(game, position).perft_moves())


def test_chess_divide_counts_past_a_draw_by_rule_like_perft(capsys: pytest.CaptureFixture[str]) -> None:
    """Fifty-move rule reached: the game is drawn, but perft (and so divide) ignore it."""
    fen = "4k3/8/8/8/8/8/8/4K2R w K - 100 80"
    status, plain, _ = run(capsys, "perft", "--game", "chess", "--position", fen, "--depth", "2")
    assert status == 0 and int(plain) > 0
    status, out, _ = run(capsys, "perft", "--game", "chess", "--position", fen, "--depth", "2", "--divide")
    assert out.strip().splitlines()[-1] == plain.strip()


def test_othello_divide_of_a_finished_game_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    finished = "X" * 64 + " O"
    status, out, err = run(capsys, "perft", "--game", "othello", "--position", finished, "--depth", "2", "--divide")
    assert status == 2 and out == "" and "game is over" in err
    status, out, _ = run(capsys, "perft", "--game", "othello", "--position", finished, "--depth", "2")
    assert (status, out.strip()) == (0, "1")


OTHELLO_FORCED_PASS = "OOOOOXOOOOOOXXOOOXOOXXOOOXXOOXOOOXOOXOOOOOOOOXOOOOXXXXX-OXXXXXX- X"
"""Two empties (h7, h8); X has no move and must pass, then O has two."""


def test_othello_divide_counts_a_pass_as_a_move(capsys: pytest.CaptureFixture[str]) -> None:
    """Aart Bik's convention, as Othello's perft: a forced pass uses a ply, and a finished
    game is one leaf however much depth is left."""
    base = ["perft", "--game", "othello", "--position", OTHELLO_FORCED_PASS, "--depth", "3"]
    status, out, err = run(capsys, *base, "--divide")
    assert (status, out, err) == (0, "pass: 2\n\n2\n", "")
    status, out, _ = run(capsys, *base)
    assert (status, out) == (0, "2\n")


@pytest.mark.parametrize(
    ("depth", "message"),
    [("0", "--divide needs --depth 1 or more"), ("-1", "argument --depth: -1 is out of range 0..100")],
)
def test_divide_needs_depth_one(capsys: pytest.CaptureFixture[str], depth: str, message: str) -> None:
    status, out, err = run(capsys, "perft", "--game", "chess", "--depth", depth, "--divide")
    assert (status, out, err) == (2, "", f"plyground: error: {message}\n")
