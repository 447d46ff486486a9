"""The chess opening book: our Polyglot reader against python-chess's, the shipped book,
the engine playing from it, and match openings from a book file."""

from __future__ import annotations

import io
import struct
from importlib import resources
from pathlib import Path

import chess
import chess.polyglot
import pytest

from ai.engine import search
from ai.match.openings import OpeningError, load
from ai.settings import Limits, SearchSettings
from ai.uci import UciEngine
from games.chess_game import ChessState, book
from games.chess_game import native as compiled
from tests.native_extensions import requires

ENTRY = struct.Struct(">QHHI")


def raw(uci: str, castling_rook: str | None = None) -> int:
    move = chess.Move.from_uci(uci)
    to_square = chess.parse_square(castling_rook) if castling_rook else move.to_square
    promotion = {None: 0, chess.KNIGHT: 1, chess.BISHOP: 2, chess.ROOK: 3, chess.QUEEN: 4}[move.promotion]
    return to_square | move.from_square << 6 | promotion << 12


def write_book(path: Path, entries: list[tuple[chess.Board, str, int, str | None]]) -> None:
    """A Polyglot file of (position, move, weight, castling rook square) entries, sorted by key."""
    packed = sorted(
        (chess.polyglot.zobrist_hash(board), raw(uci, rook), weight) for board, uci, weight, rook in entries
    )
    path.write_bytes(b"".join(ENTRY.pack(key, move, weight, 0) for key, move, weight in packed))


def after(*sans: str) -> chess.Board:
    board = chess.Board()
    for san in sans:
        board.push_san(san)
    return board


def shipped_path() -> Path:
    return Path(str(resources.files("resources").joinpath("books", "chess.bin")))


def test_the_shipped_book_reads_as_python_chess_reads_it() -> None:
    """Every position of the shipped book reached from the start through book moves: our
    moves and weights are python-chess's (its reader is the independent one)."""
    with chess.polyglot.open_reader(shipped_path()) as reader:
        frontier = [chess.Board()]
        checked = in_book = 0
        while frontier and checked < 80:
            board = frontier.pop()
            expected = sorted((entry.move.uci(), float(entry.weight)) for entry in reader.find_all(board))
            state = ChessState.from_board(board)
            assert sorted((move.uci(), weight) for move, weight in state.book_moves()) == expected, board.fen()
            checked += 1
            in_book += bool(expected)
            for entry in reader.find_all(board):
                child = board.copy()
                child.push(entry.move)
                frontier.append(child)
    assert in_book >= 10  # the book goes beyond the first moves


def test_castling_and_promotion_entries_become_our_moves(tmp_path: Path) -> None:
    castle = chess.Board("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1")
    promote = chess.Board("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1")
    path = tmp_path / "small.bin"
    write_book(path, [(castle, "e1g1", 7, "h1"), (castle, "e1c1", 3, "a1"), (promote, "e7e8q", 5, None)])
    entries = book.parse(path.read_bytes())
    moves = book.book_moves(castle, chess.polyglot.zobrist_hash(castle), list(castle.legal_moves), entries)
    assert sorted((move.uci(), weight) for move, weight in moves) == [("e1c1", 3.0), ("e1g1", 7.0)]
    moves = book.book_moves(promote, chess.polyglot.zobrist_hash(promote), list(promote.legal_moves), entries)
    assert moves == [(chess.Move.from_uci("e7e8q"), 5.0)]


def test_a_broken_book_is_refused_in_one_line() -> None:
    with pytest.raises(book.BookError, match="16-byte entries, not 17 bytes"):
        book.parse(b"x" * 17)


def test_the_engine_plays_the_book_and_says_so(books_on: None) -> None:
    state = ChessState.initial()
    moves = dict(state.book_moves())
    assert moves, "the shipped book has moves for the start position"
    answer = search(state, SearchSettings(), Limits(depth=3))
    assert answer.book and answer.best_move in moves and answer.nodes == 0
    searched = search(state, SearchSettings(book=False), Limits(depth=1))
    assert not searched.book and searched.nodes > 0
    out_of_book = ChessState.from_text("8/8/3k4/8/8/3K4/3P4/8 w - - 0 1")
    assert out_of_book.book_moves() == []
    assert not search(out_of_book, SearchSettings(), Limits(depth=2)).book


def test_match_openings_from_a_polyglot_book(tmp_path: Path) -> None:
    path = tmp_path / "tiny.bin"
    write_book(path, [
        (after(), "e2e4", 3, None), (after(), "d2d4", 1, None),
        (after("e4"), "e7e5", 1, None), (after("e4"), "c7c5", 1, None),
    ])  # fmt: skip
    lines = [opening.moves for opening in load(path, "chess")]
    assert lines == [("e4", "c5"), ("e4", "e5"), ("d4",)]  # most likely first: 3/8, 3/8, 1/4
    assert all(opening.state("chess").board.ply() == len(opening.moves) for opening in load(path, "chess"))


@pytest.mark.parametrize(("content", "message"), [(b"x" * 5, "invalid file size"), (b"", "no move for the start")])
def test_a_bad_book_as_openings_file_is_one_clear_error(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "bad.bin"
    path.write_bytes(content)
    with pytest.raises(OpeningError, match=message) as caught:
        load(path, "chess")
    assert "\n" not in str(caught.value)


def test_uci_own_book_option(books_on: None) -> None:
    """``OwnBook`` (UCI's standard name): off by default (GUIs manage books); on, a book move
    at the start; never for ``go infinite`` (analysis)."""
    output = io.StringIO()
    engine = UciEngine(output)

    def best_move(*lines: str) -> str:
        before = len(output.getvalue().splitlines())
        for line in lines:
            engine.handle(line)
        thread = engine.search_thread
        if thread is not None:
            thread.join(timeout=60)
        answer = [line for line in output.getvalue().splitlines()[before:] if line.startswith("bestmove ")]
        assert len(answer) == 1
        return answer[0].split()[1]

    engine.handle("uci")
    assert "option name OwnBook type check default false" in output.getvalue().splitlines()
    assert not engine.settings.book
    best_move("position startpos", "go depth 1")
    assert "info depth 1" in output.getvalue()
    book_ucis = {move.uci() for move, _weight in ChessState.initial().book_moves()}
    assert best_move("setoption name OwnBook value true", "position startpos", "go depth 2") in book_ucis
    last_info = [line for line in output.getvalue().splitlines() if line.startswith("info depth")][-1]
    assert engine.settings.book and " depth 0 " in last_info and " nodes 0 " in last_info  # nothing searched
    engine.handle("setoption name OwnBook value maybe")
    assert "OwnBook must be true or false" in output.getvalue().splitlines()[-1]


def reachable_book() -> dict[int, list[chess.polyglot.Entry]]:
    """Every position of the shipped book reached from the start by any line that stays in the
    book (its own moves, and any move into a position it has: the common openings it answers)
    -> its entries, each checked to be a legal move there."""
    reached: dict[int, list[chess.polyglot.Entry]] = {}
    with chess.polyglot.open_reader(shipped_path()) as reader:
        frontier = [chess.Board()]
        while frontier:
            board = frontier.pop()
            key = chess.polyglot.zobrist_hash(board)
            entries = list(reader.find_all(board))
            if key in reached or not entries:
                continue
            reached[key] = entries
            for entry in entries:
                assert entry.move in board.legal_moves, f"{entry.move} in {board.fen()}"
            for move in board.legal_moves:
                child = board.copy()
                child.push(move)
                frontier.append(child)
    return reached


def test_every_book_entry_is_a_legal_move_of_a_position_the_book_reaches() -> None:
    """No entry belongs to a position outside the book's tree (so every entry was checked for
    legality above, in the position it belongs to)."""
    reached = reachable_book()
    assert set(book.parse(shipped_path().read_bytes())) == set(reached)
    assert len(reached) >= 60  # a book, not a handful of moves


def test_the_book_answers_common_first_moves() -> None:
    """The openings people play first are in the book even where our engine would not play
    them (1.e4 d5 is not its own choice), so the engine answers them from it."""
    for line in ("e4", "d4", "c4", "Nf3", "e4 d5", "e4 c6", "d4 f5", "e4 d5 exd5"):
        assert ChessState.from_board(after(*line.split())).book_moves(), line


def test_the_scandinavian_book_move_is_not_bf5() -> None:
    """After 1.e4 d5 2.exd5, 2...Bf5 gives White +0.91 (Stockfish, depth 20) against +0.63
    for 2...Qxd5: a deep enough analysis does not make it the book's top move."""
    moves = ChessState.from_board(after("e4", "d5", "exd5")).book_moves()
    assert moves, "the Scandinavian is in the book"
    top_move = max(moves, key=lambda entry: entry[1])[0]
    assert top_move != chess.Move.from_uci("c8f5")


BOOK_CHECK_DEPTH = 20
"""The deeper search that checks the book (built at depth 18 by tools/chess_book.py)."""
BOOK_CHECK_MARGIN_CP = 50.0
"""A top move may lose this much against the deeper search's best: twice the builder's
25 cp margin, room for the deeper search's own verdict moving between near-equal moves."""


@pytest.mark.slow
@pytest.mark.timeout(3600)  # 260 depth-20 searches: 5 CPU-minutes, far longer on a shared machine
@requires(compiled._search is not None, "the compiled chess search", compiled.NATIVE_SEARCH_BACKEND)
def test_every_top_move_holds_up_in_a_deeper_search() -> None:
    """Each book position's top move scores within ``BOOK_CHECK_MARGIN_CP`` of the best by our
    compiled search at ``BOOK_CHECK_DEPTH`` (tools/chess_book_check.py prints the same table,
    and Stockfish's)."""
    from tools.chess_book_check import NativeChecker, book_positions

    checker = NativeChecker(BOOK_CHECK_DEPTH)
    failures = []
    for position in book_positions(shipped_path()):
        verdict = checker.verdict(position)
        if not verdict.agrees(BOOK_CHECK_MARGIN_CP):
            board = position.board
            failures.append(
                f"{' '.join(position.line)}: {board.san(position.top_move)} loses {verdict.loss:.0f} cp to {board.san(verdict.best_move)}"
            )
    assert failures == []
