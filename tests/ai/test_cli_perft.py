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
        (["--dice", "3-1"], "has none"),
        (["--depth", "-1"], "--depth"),
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
