"""The chess opening book: a Polyglot file, resources/books/chess.bin, read once on first use.

Polyglot (the de facto book format; ``chess.polyglot`` reads it too) is a sorted array of
16-byte big-endian entries ``key u64, move u16, weight u16, learn u32``. The key is the
position's Polyglot Zobrist key, which ``ChessState.key()`` already is; the move packs
``to | from << 6 | promotion << 12`` (promotion 1 = knight .. 4 = queen) and writes
castling as the king taking its own rook (``e1h1``). Our book was built by
``tools/chess_book.py`` from our own engine's analysis (the compiled search at depth 18) and
is checked against deeper searches by ``tools/chess_book_check.py`` (resources/books/README.md).

The only I/O is reading the packaged file, through ``importlib.resources``.
"""

from __future__ import annotations

import struct
from functools import cache
from importlib import resources

import chess

BOOK_PACKAGE = "resources"
BOOK_PATH = ("books", "chess.bin")
ENTRY = struct.Struct(">QHHI")
"""Polyglot entry: key, move, weight, learn."""

BookEntries = dict[int, tuple[tuple[int, int], ...]]
"""Polyglot key -> ((raw move, weight), ...)."""

_KING_TAKES_ROOK: dict[tuple[int, int], int] = {
    (chess.E1, chess.H1): chess.G1,
    (chess.E1, chess.A1): chess.C1,
    (chess.E8, chess.H8): chess.G8,
    (chess.E8, chess.A8): chess.C8,
}
"""Polyglot's castling (the king onto its rook) -> the king's two-square move, ours."""


class BookError(ValueError):
    """A Polyglot book that cannot be read (the message says why)."""


def parse(data: bytes) -> BookEntries:
    """The entries of a Polyglot file's bytes, grouped by key (weight-0 entries dropped)."""
    if len(data) % ENTRY.size:
        raise BookError(f"a Polyglot book is a whole number of {ENTRY.size}-byte entries, not {len(data)} bytes")
    grouped: dict[int, list[tuple[int, int]]] = {}
    for key, move, weight, _learn in ENTRY.iter_unpack(data):
        if weight:
            grouped.setdefault(key, []).append((move, weight))
    return {key: tuple(moves) for key, moves in grouped.items()}


@cache
def shipped_book() -> BookEntries:
    """The packaged book (empty when the file is missing from the installation)."""
    source = resources.files(BOOK_PACKAGE).joinpath(*BOOK_PATH)
    try:
        data = source.read_bytes()
    except FileNotFoundError:
        return {}
    return parse(data)


def decode(board: chess.Board, raw_move: int) -> chess.Move:
    """A Polyglot move as a python-chess move on ``board`` (castling made our form)."""
    to_square = raw_move & 0x3F
    from_square = raw_move >> 6 & 0x3F
    promotion_code = raw_move >> 12 & 0x7
    promotion = promotion_code + 1 if promotion_code else None
    castled = _KING_TAKES_ROOK.get((from_square, to_square))
    if castled is not None and board.kings & chess.BB_SQUARES[from_square]:
        to_square = castled
    return chess.Move(from_square, to_square, promotion)


def book_moves(
    board: chess.Board, key: int, legal: list[chess.Move], book: BookEntries | None = None
) -> list[tuple[chess.Move, float]]:
    """The book's moves at the position with Polyglot key ``key``, each legal, with weights."""
    entries = (shipped_book() if book is None else book).get(key, ())
    found: list[tuple[chess.Move, float]] = []
    for raw_move, weight in entries:
        move = decode(board, raw_move)
        if move in legal:
            found.append((move, float(weight)))
    return found
