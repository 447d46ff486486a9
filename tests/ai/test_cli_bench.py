"""``plyground bench``: a node-count signature that is the engine's own count, the same on
every run, and a textbook figure where there is one; one-line errors for bad input."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ai.cli import main
from ai.engine import search
from ai.settings import Limits, SearchSettings
from games import get_game
from games.bench_positions import BENCH_SETS

PROGRAM = str(Path(sys.executable).parent / "plyground")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_every_bench_position_is_a_live_position_of_its_game() -> None:
    for name, bench_set in BENCH_SETS.items():
        game = get_game(name)
        assert bench_set.depth >= 1 and bench_set.positions
        for text in bench_set.positions:
            state = game.from_text(text)
            assert not state.is_terminal() and state.legal_moves(), (name, text)
            assert state.to_text() == text, "written as the game writes it"


def test_minimax_over_the_empty_board_counts_the_textbook_tree(capsys: pytest.CaptureFixture[str]) -> None:
    """549,946 nodes: the whole tic-tac-toe game tree, root included (the figure is from the
    literature, tests/data/tictactoe/counts.json)."""
    status, out, err = run(
        capsys, "bench", "--game", "tictactoe", "--algorithm", "minimax", "--no-tt", "--no-iterative-deepening"
    )
    assert status == 0 and err == ""
    first = out.splitlines()[0].split()
    assert first[:2] == ["tictactoe", "1/2"] and first[first.index("nodes") + 1] == "549946"


def test_the_signature_is_the_engines_count_and_repeats(capsys: pytest.CaptureFixture[str]) -> None:
    """Each line's nodes are what a direct search of that position from an empty table
    counts, the total is their sum, and a second run gives the same numbers."""
    runs = []
    for _ in range(2):
        status, out, err = run(capsys, "bench", "--game", "tictactoe", "--game", "othello", "--depth", "5", "--json")
        assert status == 0 and err == ""
        runs.append([json.loads(line) for line in out.splitlines()])
    first, second = runs
    positions, total = first[:-1], first[-1]["total"]
    assert [record["nodes"] for record in positions] == [record["nodes"] for record in second[:-1]]
    assert total["nodes"] == sum(record["nodes"] for record in positions)
    assert total["positions"] == len(BENCH_SETS["tictactoe"].positions) + len(BENCH_SETS["othello"].positions)
    for record in positions:
        game = get_game(record["game"])
        state = game.from_text(record["position"])
        direct = search(state, SearchSettings(algorithm=game.DEFAULT_ALGORITHM, book=False), Limits(depth=5))
        assert record["nodes"] == direct.nodes and record["best_move"] == state.move_name(direct.best_move)


def test_the_summary_reads_like_stockfishs(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "bench", "--game", "checkers", "--depth", "3")
    lines = out.splitlines()
    assert status == 0 and len(lines) == len(BENCH_SETS["checkers"].positions) + 4
    assert lines[-3].startswith("Total time (ms) : ")
    nodes = int(lines[-2].removeprefix("Nodes searched  : "))
    assert nodes == sum(int(line.split()[line.split().index("nodes") + 1]) for line in lines[:-4])
    assert int(lines[-1].removeprefix("Nodes/second    : ")) > 0


def test_a_setting_one_game_cannot_use_fails_before_any_search(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "bench", "--algorithm", "pvs")
    assert status == 2 and out == ""
    assert err.startswith("plyground: error: pvs cannot search backgammon") and err.count("\n") == 1


NASTY = st.sampled_from(["", "nan", "inf", "-1", "0", "1e999", "9" * 400, "\x00", "-", "x" * 3000, "é", "chess"])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(option=st.sampled_from(["--game", "--depth", "--threads", "--hash", "--algorithm", "--weights"]), value=NASTY)
def test_bad_values_are_one_line(capsys: pytest.CaptureFixture[str], option: str, value: str) -> None:
    """Garbage in any option: one line and status 2, or (a value that happens to be valid)
    a bench, kept short by the game and depth."""
    argv = ["bench", option, value]
    if option != "--game":
        argv += ["--game", "tictactoe"]
    if option != "--depth":
        argv += ["--depth", "2"]
    status, _, err = run(capsys, *argv)
    assert "Traceback" not in err
    if status != 0:
        assert status == 2 and err.startswith("plyground: error: ") and err.count("\n") == 1, (argv, err)


def test_ctrl_c_ends_the_bench_with_the_totals_so_far() -> None:
    """Tic-tac-toe is solved whatever the depth; the chess search to depth 30 is what Ctrl-C
    stops. The totals then count both games' positions."""
    process = subprocess.Popen(
        [PROGRAM, "bench", "--game", "tictactoe", "--game", "chess", "--depth", "30"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None
    first = process.stdout.readline() + process.stdout.readline()
    assert first.startswith(b"tictactoe  1/2")
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130 and b"Traceback" not in err
    lines = (first + out).decode().splitlines()
    assert lines[-1].startswith("interrupted") and lines[-2].startswith("Nodes/second")
    assert [line.split()[0] for line in lines[:3]] == ["tictactoe", "tictactoe", "==========================="]
    searched = sum(int(line.split()[line.split().index("nodes") + 1]) for line in lines[:2])
    assert lines[-3] == f"Nodes searched  : {searched}", "the stopped chess search is not in the signature"
