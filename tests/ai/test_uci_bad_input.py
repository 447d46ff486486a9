"""``plyground uci`` given what chess GUIs (and people) send: it never dies on a line, and
every ``go`` ends in ``bestmove`` — a legal move whenever one exists.

Each case is a line a GUI or a person really sent; a fuzz test tries the rest. The engine runs
in-process; a search is waited for by joining its thread (``stop_search`` after ``go``
returns once the ``bestmove`` is out)."""

from __future__ import annotations

import io

import chess
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ai.uci import UciEngine, parse_go

MATE_IN_ONE = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"  # Rd8#
FAIL_LOW_FOR_WHITE = "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1"
"""WAC.003: the Python PVS's window fails low at depth 3."""


class Session:
    """An engine fed line by line, its output read back as lines."""

    def __init__(self) -> None:
        self.output = io.StringIO()
        self.engine = UciEngine(self.output)

    def send(self, *lines: str) -> None:
        for line in lines:
            assert self.engine.handle(line) is True, line

    def finish(self) -> list[str]:
        """Wait for the running search's natural end (no ``stop``), then all output lines."""
        thread = self.engine.search_thread
        if thread is not None:
            thread.join(timeout=60)
            assert not thread.is_alive(), "the search did not end"
        return self.lines()

    def lines(self) -> list[str]:
        return self.output.getvalue().splitlines()

    def go(self, *arguments: str, board: chess.Board | None = None) -> tuple[chess.Move | None, list[str]]:
        """``go`` with ``arguments``; the bestmove (checked legal) and the lines before it."""
        before = len(self.lines())
        self.send(" ".join(("go", *arguments)))
        lines = self.finish()[before:]
        bestmoves = [line for line in lines if line.startswith("bestmove ")]
        assert len(bestmoves) == 1, lines
        text = bestmoves[0].split()[1]
        if text == "0000":
            return None, lines
        move = chess.Move.from_uci(text)
        if board is not None:
            assert move in board.legal_moves, (text, board.fen())
        return move, lines


def errors(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("info string error")]


def test_moves_without_a_position_reset_to_the_start_and_say_so() -> None:
    session = Session()
    session.send("position moves e2e4")
    assert errors(session.lines()) == [
        "info string error: position needs 'startpos' or 'fen <FEN>' before any moves; "
        "the position is now the start position"
    ]
    session.go("depth", "1", board=chess.Board())


def test_a_failed_position_does_not_keep_the_previous_one() -> None:
    session = Session()
    session.send("position startpos moves e2e4", "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 e1e2 e8e7 e2e5")
    assert errors(session.lines())[-1].endswith("; the position is now the start position")
    session.go("depth", "1", board=chess.Board())  # white to move: the start, not 1. e4


@pytest.mark.parametrize(
    "arguments",
    [("movetime", "9" * 400, "depth", "1"), ("banana", "depth", "1"), ("depth", "abc", "nodes", "500"),
     ("movetime", "0"), ("depth", "0"), ("nodes", "-5"), ("wtime", "-100", "btime", "-100"),
     ("movestogo", "0", "wtime", "1000"), ("depth", "1", "searchmoves"), ("DEPTH", "1"), ("mate", "0"),
     ("mate", "-2")],
)
def test_every_go_ends_in_a_legal_bestmove(arguments: tuple[str, ...]) -> None:
    session = Session()
    session.send("position startpos")
    move, lines = session.go(*arguments, board=chess.Board())
    assert move is not None
    assert not errors(lines), lines


@pytest.mark.parametrize(
    "arguments", [(), ("banana",), ("depth",), ("depth", "abc"), ("depth", "99999999999999999999999"),
                  ("movetime", "9" * 400), ("infinite",)]
)
def test_a_go_without_a_usable_limit_searches_until_stop(arguments: tuple[str, ...]) -> None:
    """As UCI engines do: no limit is an infinite search, answered on ``stop``."""
    session = Session()
    session.send("position startpos", " ".join(("go", *arguments)))
    session.engine.stop_search()
    lines = session.lines()
    bestmoves = [line for line in lines if line.startswith("bestmove ")]
    assert len(bestmoves) == 1 and chess.Move.from_uci(bestmoves[0].split()[1]) in chess.Board().legal_moves
    assert not errors(lines), lines


def test_unknown_and_broken_go_words_are_named_and_ignored() -> None:
    session = Session()
    session.send("position startpos")
    _, lines = session.go("banana", "depth", "abc", "depth", "1")
    assert "info string go: unknown word 'banana' ignored" in lines
    assert "info string go depth 'abc' is not a number: ignored" in lines
    assert all(int(line.split()[2]) <= 1 for line in lines if line.startswith("info depth"))


def test_searchmoves_limits_the_root_moves() -> None:
    session = Session()
    session.send("position fen " + MATE_IN_ONE)
    move, _ = session.go("searchmoves", "g2g3", "h2h3", "depth", "2")
    assert move is not None and move.uci() in ("g2g3", "h2h3")  # not the mate, Rd8#
    move, _ = session.go("depth", "2", "searchmoves", "d1d8")
    assert move == chess.Move.from_uci("d1d8")


def test_illegal_searchmoves_are_named_and_left_out() -> None:
    session = Session()
    session.send("position startpos")
    move, lines = session.go("searchmoves", "e2e5", "zz", "depth", "1")
    assert "info string go searchmoves: e2e5 is not legal in rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1: ignored" in lines
    assert "info string go searchmoves: 'zz' is not a move in UCI coordinates (e2e4, e7e8q): ignored" in lines
    assert move is not None and move in chess.Board().legal_moves


def test_go_mate_finds_the_mate() -> None:
    session = Session()
    session.send("position fen " + MATE_IN_ONE)
    move, lines = session.go("mate", "1")
    assert move == chess.Move.from_uci("d1d8")
    assert "score mate 1" in [line for line in lines if line.startswith("info depth")][-1]


@pytest.mark.parametrize(
    ("position", "reason"),
    [("startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8", "threefold"),
     ("fen 4k3/8/8/8/8/8/8/4K2R w K - 100 80", "fifty moves"),
     ("fen 7k/8/8/8/8/8/8/K7 w - - 0 1", "insufficient material")],
)
def test_a_draw_by_rule_still_gets_a_legal_move_with_a_draw_score(position: str, reason: str) -> None:
    """Claiming is the GUI's decision: the engine plays on, saying the score is a draw."""
    session = Session()
    session.send(f"position {position}")
    board = session.engine.board.copy()
    move, lines = session.go("depth", "3", board=board)
    assert move is not None, reason
    final = [line for line in lines if line.startswith("info depth")][-1]
    assert " score cp 0 " in final, (reason, final)
    assert "info string the position is a draw by rule: a move to play on, with a draw score" in lines


def test_playing_on_past_an_unclaimed_draw_is_accepted() -> None:
    """A GUI that did not claim the threefold sends the moves after it too."""
    session = Session()
    session.send("position startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 e2e4")
    assert not errors(session.lines())
    board = session.engine.board.copy()
    move, _ = session.go("depth", "2", board=board)
    assert move is not None


def test_a_fail_low_line_has_no_empty_pv() -> None:
    session = Session()
    session.send("setoption name Algorithm value pvs")  # the Python PVS reports its aspiration fails
    session.send("position fen " + FAIL_LOW_FOR_WHITE)
    _, lines = session.go("depth", "3")
    infos = [line for line in lines if line.startswith("info depth")]
    assert any("upperbound" in line for line in infos)  # the fail-low is there
    assert not [line for line in infos if line.endswith(" pv") or " pv  " in line]
    assert all(" pv " not in line for line in infos if "upperbound" in line)


def test_combo_values_are_case_insensitive() -> None:
    session = Session()
    session.send("setoption name Algorithm value PVS", "setoption name algorithm value AlphaBeta")
    assert not errors(session.lines())
    assert session.engine.settings.algorithm == "alphabeta"


@pytest.mark.parametrize("line", ["debug on", "debug off", "register later", "register name x code y", "ponderhit"])
def test_standard_commands_are_accepted(line: str) -> None:
    session = Session()
    session.send(line, "isready")
    assert session.lines() == ["readyok"]


def test_uppercase_promotion_letters_are_accepted() -> None:
    session = Session()
    session.send("position fen 8/4P1k1/8/8/8/8/8/4K3 w - - 0 1 moves e7e8Q")
    assert not errors(session.lines())
    assert session.engine.board.piece_at(chess.E8) == chess.Piece(chess.QUEEN, chess.WHITE)


def test_ponder_then_ponderhit_answers() -> None:
    session = Session()
    session.send("position startpos moves e2e4", "go ponder movetime 100")
    assert not any(line.startswith("bestmove") for line in session.lines())  # held until the hit
    session.send("ponderhit")
    lines = session.finish()
    assert [line for line in lines if line.startswith("bestmove ")]


def test_ponder_with_a_depth_holds_its_answer_until_the_hit() -> None:
    session = Session()
    session.send("position startpos", "go ponder depth 2")
    thread = session.engine.search_thread
    assert thread is not None
    thread.join(timeout=0.5)  # the depth-2 search is done long before; its answer is held
    assert thread.is_alive() and not any(line.startswith("bestmove") for line in session.lines())
    session.send("ponderhit")
    lines = session.finish()
    assert len([line for line in lines if line.startswith("bestmove ")]) == 1
    assert max(int(line.split()[2]) for line in lines if line.startswith("info depth")) == 2


def test_ponder_then_stop_answers() -> None:
    session = Session()
    session.send("position startpos", "go ponder wtime 1000 btime 1000")
    session.engine.stop_search()
    assert len([line for line in session.lines() if line.startswith("bestmove ")]) == 1


@pytest.mark.parametrize(
    ("line", "message"),
    [("setoption name Hash value " + "9" * 400, "Hash must be 1..1024"),
     ("setoption name Hash value 0", "Hash must be 1..1024, not 0"),
     ("setoption name Hash value lots", "Hash must be a whole number 1..1024, not 'lots'"),
     ("setoption name Threads value 0", "Threads must be 1.."),
     ("setoption name", "setoption needs 'name <id> value <x>'"),
     ("position fen " + "x" * 100_000, "(100,000 characters)"),
     ("position startpos moves e2e5", "move 1: e2e5 is not legal"),
     ("position startpos moves zz", "move 1: 'zz' is not a move in UCI coordinates")],
)
def test_refused_lines_are_one_short_error_and_the_engine_goes_on(line: str, message: str) -> None:
    session = Session()
    session.send(line, "isready")
    lines = session.lines()
    assert len(lines) == 2 and lines[-1] == "readyok", lines
    assert lines[0].startswith("info string error: ") and message in lines[0], lines[0]
    assert len(lines[0]) < 500


def test_parse_go_clamps_and_never_raises() -> None:
    go = parse_go(["movetime", "9" * 400, "depth", "-3", "nodes", "0"], True)
    assert go.limits.depth == 1 and go.limits.nodes == 1 and go.limits.time is not None
    assert go.limits.time < float("inf")


GO_WORDS = st.sampled_from(["go", "depth", "nodes", "movetime", "wtime", "btime", "winc", "binc", "movestogo",
                            "mate", "infinite", "ponder", "searchmoves", "e2e4", "e7e8Q", "0", "-1", "9" * 40,
                            "nan", "", "banana"])
LINES = st.one_of(
    st.lists(GO_WORDS, max_size=6).map(lambda words: " ".join(["go", *words])),
    st.sampled_from(["position", "position startpos moves", "position fen", "position moves e2e4",
                     "position startpos moves e2e4 e7e5", "setoption name Hash value", "setoption value x",
                     "ucinewgame", "stop", "ponderhit", "isready", "debug", "register", "uci", "\x00", "go"]),
    st.text(max_size=40),
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(LINES, max_size=6))
def test_fuzz_uci(lines: list[str]) -> None:
    """Any sequence of lines: handled without an exception, every go answered once.

    Searches are kept short: an infinite or pondering ``go`` is stopped by the next line
    (the next ``go`` stops it too) or at the end."""
    session = Session()
    gos = 0
    for line in lines:
        words = line.split()
        if words and words[0] == "go":
            gos += 1
            line = line + " depth 1" if "depth" not in words and "infinite" not in words else line
        if words and words[0] == "quit":
            continue
        assert session.engine.handle(line) is True
    session.engine.stop_search()
    bestmoves = [out for out in session.lines() if out.startswith("bestmove ")]
    assert len(bestmoves) == gos, session.lines()
