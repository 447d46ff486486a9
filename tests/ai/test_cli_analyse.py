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


# ------------------------------------------------------------- scores in text
def test_scores_are_shown_from_the_first_players_view() -> None:
    from ai.cli import score_text
    from ai.events import Score
    from games import get_game

    chess_game = get_game("chess")
    assert score_text(Score(35.0, view=1), "exact", chess_game) == "(White) -0.35"
    assert score_text(Score(35.0, view=0), "exact", chess_game) == "(White) +0.35"
    # a lower bound for black (to move) is an upper bound for white
    assert score_text(Score(35.0, view=1), "lower", chess_game) == "(White) -0.35 upperbound"
    assert score_text(Score(35.0, view=0), "upper", chess_game) == "(White) +0.35 upperbound"
    assert score_text(Score(0.0, view=1, win_in_plies=3), "exact", chess_game) == "(White) mated in 2"


@pytest.mark.parametrize("value", [-0.0, -0.0001, 0.0004])
def test_no_negative_zero(value: float) -> None:
    from ai.cli import score_text
    from ai.events import Score
    from games import get_game

    assert score_text(Score(value, view=0), "exact", get_game("backgammon")) == "(O) +0.000"
    assert score_text(Score(value, view=1), "exact", get_game("chess")) == "(White) +0.00"


def test_text_lines_name_the_fixed_player(capsys: pytest.CaptureFixture[str]) -> None:
    status, lines, _ = run(capsys, "analyse", "--game", "chess", "--moves", "e4", "--depth", "2")
    assert status == 0
    assert all(" score (White) " in line for line in lines if line.startswith("depth "))
    assert lines[-2].startswith("score (White) ")


# ------------------------------------------------------------- limits and switches
def final_record(lines: list[str]) -> dict[str, object]:
    return json.loads(lines[-2])


def test_time_limit(capsys: pytest.CaptureFixture[str]) -> None:
    import time

    started = time.perf_counter()
    status, lines, _ = run(capsys, "analyse", "--game", "othello", "--time", "0.5", "--json")
    assert status == 0 and time.perf_counter() - started < 0.7
    record = final_record(lines)
    assert record["event"] == "Finished" and record["time"] <= 0.6  # type: ignore[operator]


def test_node_limit(capsys: pytest.CaptureFixture[str]) -> None:
    status, lines, _ = run(capsys, "analyse", "--game", "checkers", "--nodes", "5000", "--json")
    assert status == 0
    nodes = final_record(lines)["nodes"]
    assert 5000 <= nodes <= 5001  # type: ignore[operator]


def test_no_tt_means_no_table_probes(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["analyse", "--game", "chess", "--moves", "e4", "e5", "--depth", "4", "--json"]
    status, lines, _ = run(capsys, *args)
    with_table = final_record(lines)["stats"]
    status, lines, _ = run(capsys, *args, "--no-tt")
    without = final_record(lines)["stats"]
    assert with_table["tt_probes"] > 0 and with_table["tt_hits"] > 0  # type: ignore[index]
    assert without["tt_probes"] == without["tt_hits"] == 0  # type: ignore[index]
    iterations = [json.loads(line) for line in lines[:-2]]
    assert all(record["hashfull"] == 0 and record["tt_hit_rate"] == 0 for record in iterations)


def test_no_ordering_searches_more_nodes_for_the_same_value(capsys: pytest.CaptureFixture[str]) -> None:
    """Othello: no selective search (chess's reductions depend on the order, so its value may
    move), so plain alpha-beta gives the same value in more nodes."""
    args = ["analyse", "--game", "othello", "--moves", "d3", "c5", "f6", "--depth", "5", "--json", "--no-tt",
            "--algorithm", "alphabeta"]
    status, lines, _ = run(capsys, *args)
    ordered = final_record(lines)
    status, lines, _ = run(capsys, *args, "--no-ordering")
    unordered = final_record(lines)
    assert unordered["score"] == ordered["score"]
    assert unordered["nodes"] > 1.5 * ordered["nodes"]  # type: ignore[operator]
