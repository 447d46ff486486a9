"""``analyse --threads N`` and UCI ``Threads``: searches on the engine pool.

The pool's own behaviour (values equal to one worker's, merging, faults) is tested with the
pool; here: the front ends use it, stop it, and leave no worker behind."""

from __future__ import annotations

import io
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import chess
import pytest

from ai.cli import main
from ai.parallel import available_cores
from ai.uci import UciEngine

PROGRAM = str(Path(sys.executable).parent / "plyground")
TWO = min(2, available_cores())


def no_workers_left() -> bool:
    return not [child for child in multiprocessing.active_children() if "resource_tracker" not in child.name]


@pytest.mark.parametrize("algorithm", ["pvs", "mcts", "minimax"])
def test_analyse_on_the_pool_finds_the_win(capsys: pytest.CaptureFixture[str], algorithm: str) -> None:
    limit = ["--nodes", "3000"] if algorithm == "mcts" else ["--depth", "3"]
    status = main(["analyse", "--game", "tictactoe", "--position", "xx.oo....", "--algorithm", algorithm,
                   "--threads", str(TWO), "--json", *limit])
    lines = capsys.readouterr().out.splitlines()
    assert status == 0 and lines[-1] == "bestmove c3"
    finished = json.loads(lines[-2])
    assert finished["event"] == "Finished" and finished["best_move"] == "c3" and finished["nodes"] > 0
    assert no_workers_left()


def test_analyse_on_the_pool_with_dice(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["analyse", "--game", "backgammon", "--dice", "3-1", "--depth", "1", "--threads", str(TWO)])
    assert status == 0 and capsys.readouterr().out.splitlines()[-1] == "bestmove 8/5 6/5"


def test_threads_beyond_the_cores_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["analyse", "--game", "tictactoe", "--threads", str(available_cores() + 1)])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and f"out of range 1..{available_cores()}" in err


def test_uci_threads_searches_on_the_pool_and_stops_fast() -> None:
    output = io.StringIO()
    uci = UciEngine(output)
    try:
        uci.handle(f"setoption name Threads value {TWO}")
        assert uci.settings.threads == TWO
        assert (uci.pool is not None) == (TWO > 1)
        uci.handle("position startpos moves e2e4")
        uci.handle("go depth 3")
        assert uci.search_thread is not None
        uci.search_thread.join(timeout=60)
        assert chess.Move.from_uci(output.getvalue().splitlines()[-1].split()[1]) in chess.Board(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").legal_moves
        uci.handle("setoption name Hash value 8")  # a new shared table for the next search
        uci.handle("ucinewgame")
        uci.handle("position startpos")
        uci.handle("go infinite")
        deadline = time.perf_counter() + 30
        while "info depth 2" not in output.getvalue():
            assert time.perf_counter() < deadline, output.getvalue()[-300:]
            uci.search_thread.join(timeout=0.01)  # type: ignore[union-attr]
        asked = time.perf_counter()
        uci.handle("stop")  # returns once the bestmove is out
        assert time.perf_counter() - asked < 0.2
        assert output.getvalue().splitlines()[-1].startswith("bestmove ")
        assert "info string error" not in output.getvalue()
    finally:
        uci.handle("quit")
    assert uci.pool is None and no_workers_left()


def test_uci_threads_range_is_the_cores() -> None:
    output = io.StringIO()
    uci = UciEngine(output)
    uci.handle("uci")
    assert f"option name Threads type spin default 1 min 1 max {available_cores()}" in output.getvalue()
    uci.handle(f"setoption name Threads value {available_cores() + 1}")
    assert f"info string error: Threads must be 1..{available_cores()}" in output.getvalue()
    uci.handle("quit")


def test_ctrl_c_to_the_process_group_stops_a_pool_search_which_answers() -> None:
    """A terminal's Ctrl-C reaches the workers too: they ignore it, the program asks the
    pool to answer now and prints the answer."""
    process = subprocess.Popen(
        [PROGRAM, "analyse", "--game", "othello", "--time", "inf", "--threads", str(TWO)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    assert process.stdout is not None
    try:
        assert process.stdout.readline().startswith(b"depth 1 ")
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert (process.returncode, err) == (0, b"")
    assert out.splitlines()[-1].startswith(b"bestmove ")
