"""``plyground race``: the table and the nodes per depth on stdout, exit statuses, and bad input
as one line with status 2 (no traceback, no process started)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from ai import race
from ai.cli import main
from ai.cli import race as race_command
from tests.processes import MARK, processes_marked

REPO = Path(__file__).resolve().parents[2]
HUGE = "9" * 10_000


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_race_prints_the_table_and_nodes_per_depth(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "race", "chess", "--depth", "3", "--entrants", "minimax,alphabeta,pvs,mcts", "--workers", "2")
    assert status == 0, err
    assert err == ""
    assert "Algorithm race: chess, depth 3, exact preset" in out
    rows = {line.split("  ")[0]: line for line in out.splitlines()}
    assert "minimax" in rows and "alpha-beta" in rows and "PVS" in rows
    assert "9,765" in rows["minimax"] and "+0.50" in rows["minimax"]  # 1 + 20 + 421 + 9,323: every iteration's tree
    assert "+0.50" in rows["alpha-beta"] and "+0.50" in rows["PVS"]
    assert any(line.startswith("MCTS (") for line in out.splitlines())
    assert "Nodes per depth (each iteration alone)" in out
    depth_rows = [line.split() for line in out.split("Nodes per depth (each iteration alone)")[1].strip().splitlines()[1:4]]
    assert [row[:2] for row in depth_rows] == [["1", "21"], ["2", "421"], ["3", "9,323"]]
    assert "b^d" in out and "b^(d/2)" in out
    assert "Every depth-first entrant returns minimax's value at every depth" in out


def test_position_and_default_depth(capsys: pytest.CaptureFixture[str]) -> None:
    """A position given as the second word; without --depth the race goes as deep as its
    minimax affords (this tic-tac-toe position: to the end)."""
    status, out, err = run(capsys, "race", "tictactoe", "xo.x.o...", "--entrants", "minimax,alphabeta-table")
    assert status == 0, err
    assert "depth 5" in out.splitlines()[0]  # five empty squares
    assert "Position: xo.x.o..." in out
    assert "win in" in out  # x wins from here


def test_entrant_words_match_the_race() -> None:
    assert race_command.ENTRANT_WORDS == tuple(entrant.value for entrant in race.Entrant)
    assert race_command.MAX_RACE_DEPTH == race.MAX_RACE_DEPTH


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["race", "nim"], "'nim' is not a game"),
        (["race", "x" * 10_000], "characters"),
        (["race", "chess", "not a fen", "--depth", "2"], "FEN"),
        (["race", "chess", "--depth", "0"], "--depth: 0 is out of range 1..30"),
        (["race", "chess", "--depth", "nan"], "--depth"),
        (["race", "chess", "--depth", HUGE], "characters"),
        (["race", "chess", "--depth", "2", "--entrants", "negascout"], "unknown entrant 'negascout'"),
        (["race", "chess", "--depth", "2", "--entrants", ""], "no entrant named"),
        (["race", "chess", "--depth", "2", "--entrants", "mcts"], "needs a node budget"),
        (["race", "chess", "--depth", "2", "--mcts-nodes", "-1"], "--mcts-nodes"),
        (["race", "chess", "--depth", "2", "--workers", "0"], "--workers"),
        (["race", "chess", "--depth", "2", "--moves", "e2e5"], "move 1"),
        (["race", "backgammon", "--depth", "2"], "backgammon has dice"),
        (["race", "tictactoe", "xxxoo....", "--depth", "2"], "the game is over"),
    ],
)
def test_bad_input_is_one_line_with_status_2(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2, err
    assert out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith("plyground: error: ")
    assert message in err
    assert "Traceback" not in err
    assert len(err) < 600


def marked_environment(mark: str) -> dict[str, str]:
    return {**os.environ, MARK: mark, "PYTHONPATH": str(REPO)}


def test_as_a_process_it_leaves_no_process() -> None:
    mark = uuid.uuid4().hex
    result = subprocess.run(
        [sys.executable, "-m", "ai.cli", "race", "tictactoe", "--depth", "3", "--entrants", "minimax,pvs"],
        capture_output=True,
        text=True,
        env=marked_environment(mark),
        cwd=REPO,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "PVS" in result.stdout
    assert processes_marked(mark) == []


def test_ctrl_c_stops_the_race_prints_what_it_has_and_leaves_no_process() -> None:
    mark = uuid.uuid4().hex
    process = subprocess.Popen(
        [sys.executable, "-m", "ai.cli", "race", "chess", "--depth", "6", "--entrants", "minimax,alphabeta", "--workers", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=marked_environment(mark),
        cwd=REPO,
    )
    try:
        deadline = time.monotonic() + 120
        # Wait until the workers run (the program and its two workers carry the mark).
        while len(processes_marked(mark)) < 3 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(processes_marked(mark)) >= 3
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, err
    assert "(stopped)" in out
    assert "Traceback" not in err
    assert processes_marked(mark) == []
