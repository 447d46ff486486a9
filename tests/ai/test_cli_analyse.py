"""``plyground analyse``: one line per iteration, JSON lines named as the events, a final
``bestmove`` line, and clean errors."""

from __future__ import annotations

import json

import pytest

from ai.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str], str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out.strip().splitlines(), captured.err


def test_text_output_one_line_per_iteration(capsys: pytest.CaptureFixture[str]) -> None:
    status, lines, _ = run(capsys, "analyse", "--game", "tictactoe", "--depth", "4")
    assert status == 0
    depth_lines = [line for line in lines if line.startswith("depth ")]
    assert [int(line.split()[1]) for line in depth_lines] == [1, 2, 3, 4]
    assert all(" pv " in line and " nps " in line for line in depth_lines)
    assert lines[-1].startswith("bestmove ")


def test_json_lines_carry_event_fields(capsys: pytest.CaptureFixture[str]) -> None:
    status, lines, _ = run(capsys, "analyse", "--game", "tictactoe", "--position", "xx.oo....", "--depth", "3", "--json")
    assert status == 0
    records = [json.loads(line) for line in lines[:-1]]
    iterations = [record for record in records if record["event"] == "Iteration"]
    assert iterations and {"depth", "seldepth", "score", "pv", "nodes", "nps", "time", "hashfull",
                           "tt_hit_rate", "cutoffs", "first_move_cutoff_rate", "ebf"} <= set(iterations[0])
    finished = records[-1]
    assert finished["event"] == "Finished"
    assert finished["best_move"] == "c3"  # x completes the top row
    assert finished["score"]["win_in_plies"] == 1
    assert lines[-1] == "bestmove c3"


@pytest.mark.parametrize("algorithm", ["minimax", "alphabeta", "pvs", "mtdf", "expectiminimax", "mcts"])
def test_every_algorithm_finds_the_immediate_win(capsys: pytest.CaptureFixture[str], algorithm: str) -> None:
    limit = ["--nodes", "3000"] if algorithm == "mcts" else ["--depth", "3"]
    status, lines, _ = run(capsys, "analyse", "--game", "tictactoe", "--position", "xx.oo....",
                           "--algorithm", algorithm, *limit)
    assert status == 0
    assert lines[-1] == "bestmove c3"


def test_alphabeta_on_backgammon_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    status, lines, err = run(capsys, "analyse", "--game", "backgammon", "--algorithm", "alphabeta", "--depth", "1")
    assert status == 2
    assert "chance" in err and "expectiminimax" in err
    assert "Traceback" not in err


def test_bad_position_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "analyse", "--game", "tictactoe", "--position", "xxxxxxxxx")
    assert status == 2
    assert "x has 9 marks" in err


def test_minimax_on_a_backgammon_checker_play_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    """Refused up front from the game's ``HAS_CHANCE``, not only when the root is a roll."""
    status, _, err = run(capsys, "analyse", "--game", "backgammon", "--position", "4HPwATDgc/ABMA:cIkFAAAAAAAA",
                         "--algorithm", "minimax", "--depth", "1")
    assert status == 2
    assert "chance" in err and "expectiminimax" in err and "mcts" in err
