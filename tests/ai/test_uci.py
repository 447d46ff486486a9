"""``plyground uci`` speaks UCI well enough for python-chess's engine driver (and so for
chess GUIs): handshake, options, positions with moves, every kind of ``go``, ``stop``."""

from __future__ import annotations

import io
import sys
import time
from pathlib import Path

import chess
import chess.engine
import pytest

from ai.events import Iteration, Score
from ai.uci import MOVE_OVERHEAD, UciEngine, parse_go, time_for_move

ROOT = Path(__file__).resolve().parents[2]
UCI_COMMAND = [sys.executable, "-m", "ai.cli", "uci"]
MATE_IN_ONE = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"  # Rd8#


@pytest.fixture
def engine() -> chess.engine.SimpleEngine:
    process = chess.engine.SimpleEngine.popen_uci(UCI_COMMAND, cwd=str(ROOT), timeout=30)
    yield process
    process.quit()


def test_handshake_and_options(engine: chess.engine.SimpleEngine) -> None:
    assert engine.id["name"] == "Plyground"
    assert {"Hash", "Threads", "Algorithm"} <= set(engine.options)
    assert "pvs" in engine.options["Algorithm"].var


def test_finds_mate_in_one_with_mate_score(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board(MATE_IN_ONE)
    result = engine.analyse(board, chess.engine.Limit(depth=3))
    assert result["pv"][0] == chess.Move.from_uci("d1d8")
    assert result["score"].white() == chess.engine.Mate(1)


def test_plays_legal_moves_from_position_with_moves(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board()
    for san in ("e4", "e5", "Nf3", "Nc6"):
        board.push_san(san)
    for limit in (chess.engine.Limit(depth=2), chess.engine.Limit(time=0.3), chess.engine.Limit(nodes=2000),
                  chess.engine.Limit(white_clock=5, black_clock=5, white_inc=0.1, black_inc=0.1)):
        played = engine.play(board, limit)
        assert played.move in board.legal_moves


def test_options_change_the_search(engine: chess.engine.SimpleEngine) -> None:
    engine.configure({"Algorithm": "alphabeta", "Hash": 8})
    result = engine.play(chess.Board(MATE_IN_ONE), chess.engine.Limit(depth=2))
    assert result.move == chess.Move.from_uci("d1d8")


def test_infinite_search_waits_for_stop(engine: chess.engine.SimpleEngine) -> None:
    with engine.analysis(chess.Board()) as analysis:
        for info in analysis:
            if info.get("depth", 0) >= 2:
                break
        analysis.stop()
        best = analysis.wait()
    assert best.move in chess.Board().legal_moves


def test_errors_are_reported_not_fatal() -> None:
    output = io.StringIO()
    uci = UciEngine(output)
    uci.handle("position fen not a fen")
    uci.handle("position startpos moves e2e5")
    uci.handle("setoption name Algorithm value nonsense")
    uci.handle("isready")
    lines = output.getvalue().splitlines()
    assert sum(line.startswith("info string error") for line in lines) == 3
    assert lines[-1] == "readyok"


def test_time_management_never_flags() -> None:
    assert time_for_move(1.0, 0.0, None) < 0.5
    assert time_for_move(60.0, 1.0, 40) == pytest.approx(60 / 40 + 0.8 - 0.05)
    assert time_for_move(0.02, 0.0, 1) >= 0.01


def raw_engine() -> tuple[UciEngine, io.StringIO]:
    output = io.StringIO()
    return UciEngine(output), output


def wait_for_line(output: io.StringIO, prefix: str, timeout: float = 10.0) -> str:
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        for line in output.getvalue().splitlines():
            if line.startswith(prefix):
                return line
        time.sleep(0.002)
    raise AssertionError(f"no {prefix!r} line within {timeout} s: {output.getvalue()[-500:]}")


def test_ucinewgame_then_a_search_still_works(engine: chess.engine.SimpleEngine) -> None:
    first = engine.play(chess.Board(), chess.engine.Limit(depth=3), game="one")
    second = engine.play(chess.Board(MATE_IN_ONE), chess.engine.Limit(depth=2), game="two")  # sends ucinewgame
    assert first.move in chess.Board().legal_moves
    assert second.move == chess.Move.from_uci("d1d8")


def test_go_movetime_answers_on_time() -> None:
    uci, output = raw_engine()
    uci.handle("position startpos moves e2e4 e7e5")
    started = time.perf_counter()
    uci.handle("go movetime 500")
    wait_for_line(output, "bestmove")
    assert time.perf_counter() - started < 0.7


def test_a_movetime_is_searched_to_its_end_and_a_clock_share_is_not() -> None:
    """``movetime``: time not used is lost, so the search may start iterations until the
    deadline (less the answering overhead); ``wtime``: time not used goes back to the clock
    (``Limits.from_clock``: no new iteration after half of the share)."""
    fixed = parse_go(["movetime", "1000"], True).limits
    assert fixed.time == pytest.approx(1.0 - MOVE_OVERHEAD) and not fixed.from_clock
    assert parse_go(["movetime", "200"], True).limits.time == pytest.approx(0.18)  # 10% kept back
    clock = parse_go(["wtime", "60000", "btime", "1000", "movestogo", "40"], True).limits
    assert clock.time == pytest.approx(time_for_move(60.0, 0.0, 40)) and clock.from_clock
    assert parse_go(["btime", "60000"], False).limits.from_clock
    assert not parse_go(["btime", "60000", "depth", "5"], True).limits.from_clock  # White's clock is not given


def test_stop_during_go_infinite_answers_within_100_ms() -> None:
    uci, output = raw_engine()
    uci.handle("position startpos")
    uci.handle("go infinite")
    wait_for_line(output, "info depth 3")
    asked = time.perf_counter()
    uci.handle("stop")  # returns once the bestmove is out
    latency = time.perf_counter() - asked
    assert wait_for_line(output, "bestmove", timeout=0.01)
    assert latency < 0.1


def test_a_final_info_line_comes_before_bestmove() -> None:
    uci, output = raw_engine()
    uci.handle("position fen " + MATE_IN_ONE)
    uci.handle("go depth 3")
    wait_for_line(output, "bestmove")
    lines = output.getvalue().splitlines()
    final_info = lines[lines.index("bestmove d1d8") - 1]
    assert final_info.startswith("info depth") and "score mate 1" in final_info and final_info.endswith("pv d1d8")


def test_aspiration_bounds_are_marked_in_the_score() -> None:
    common = dict(search_id=0, depth=5, seldepth=7, pv=(chess.Move.from_uci("e2e4"),), nodes=1000, nps=1000.0, time=1.0, hashfull=0.5,
                  tt_hit_rate=0.1, cutoffs=10, first_move_cutoff_rate=0.9, ebf=3.0)
    for bound, word in (("lower", " lowerbound"), ("upper", " upperbound"), ("exact", "")):
        line = UciEngine.info_line(Iteration(score=Score(35.0, 0), bound=bound, **common), 0)  # type: ignore[arg-type]
        assert f"score cp 35{word} nodes" in line
        assert line.endswith("hashfull 500 pv e2e4")


def test_threads_offers_the_cores(engine: chess.engine.SimpleEngine) -> None:
    from ai.parallel import available_cores as core_count

    assert engine.options["Threads"].max == core_count()
    uci, output = raw_engine()
    uci.handle(f"setoption name Threads value {core_count() + 1}")
    assert f"info string error: Threads must be 1..{core_count()}, not {core_count() + 1}" in output.getvalue()
