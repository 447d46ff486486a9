"""Build Plyground's own chess opening book (Polyglot format) from its own engine's analysis.

No game or book of anybody else goes in: starting from the initial position, each position
is searched by our compiled search (``native``: PVS with the shipped EVAL and network, a
fixed depth deeper than a game move at blitz times, where its choices agree with a deeper
search: ``tools/chess_book_check.py`` checks them), and its good moves are found one by one — the best move, then the best of
the others (the same search restricted to the remaining root moves), and so on while a
move scores within ``--margin`` centipawns of the best, at most ``--width`` moves. Each
kept move gets a Polyglot weight that halves every ``HALVING_CP`` centipawns it is worse
than the best, so the engine plays mostly its best move and sometimes a near-equal one
(varied games, hard to prepare against).

The tree grows best-first: the next position analysed is the one its line reaches most
often (the product of the move shares along it), until ``--positions`` positions have been
analysed or every line reached ``--plies``. Transpositions are merged (Polyglot keys).
Besides the engine's own lines, the tree starts from the openings people play most
(``COMMON_LINES``: 1.e4 d5, 1.d4 f5, ...), each as likely as ``COMMON_LINE_SHARE``, so the
book answers them too when the engine meets them (its own choices never reach 1.e4 d5).

Output: a Polyglot book (16-byte big-endian entries ``key u64, move u16, weight u16,
learn u32``, sorted by key; castling written as king-takes-rook, as Polyglot does), which
``chess.polyglot`` and every Polyglot-aware GUI read. Usage::

    nice -n 10 .venv/bin/python -m tools.chess_book --positions 120 --depth 18 \\
        --seconds 3600 --out resources/books/chess.bin
"""

from __future__ import annotations

import argparse
import heapq
import struct
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import chess

from ai.engine import search
from ai.settings import Limits, SearchSettings
from games.chess_game import ChessState

ENTRY = struct.Struct(">QHHI")
"""A Polyglot book entry: key, move, weight, learn (big-endian)."""
HALVING_CP = 10.0
"""A book move's weight halves for every this many centipawns it scores below the best."""
ALGORITHM = "native"
"""The search that analyses each position: the compiled one, the strongest we have (the
Python PVS reaches depth 6 in the time the compiled search reaches 18)."""
TOP_WEIGHT = 100
"""The best move's Polyglot weight (the others get less)."""
COMMON_LINES: tuple[str, ...] = (
    "e4",
    "d4",
    "c4",
    "Nf3",
    "e4 e5",
    "e4 c5",
    "e4 e6",
    "e4 c6",
    "e4 d5",
    "e4 d6",
    "e4 Nf6",
    "d4 d5",
    "d4 Nf6",
    "d4 e6",
    "d4 f5",
    "c4 e5",
    "c4 Nf6",
)
"""Openings a person plays first (the first moves and replies of every opening book): the
book covers them whether or not our engine would play them."""
COMMON_LINE_SHARE = 0.2
"""How likely each common line counts as being reached (the start is 1): ahead of the
engine's own lines' third and fourth moves, behind their first two."""
POLYGLOT_PROMOTIONS = {chess.KNIGHT: 1, chess.BISHOP: 2, chess.ROOK: 3, chess.QUEEN: 4}
CASTLING_TO_ROOK = {
    (chess.E1, chess.G1): chess.H1,
    (chess.E1, chess.C1): chess.A1,
    (chess.E8, chess.G8): chess.H8,
    (chess.E8, chess.C8): chess.A8,
}


def polyglot_move(board: chess.Board, move: chess.Move) -> int:
    """Polyglot's 16-bit move: to | from << 6 | promotion << 12; castling is the king
    taking its own rook (e1h1), as the format requires."""
    to_square = move.to_square
    if board.is_castling(move):
        to_square = CASTLING_TO_ROOK[move.from_square, move.to_square]
    return to_square | move.from_square << 6 | POLYGLOT_PROMOTIONS.get(move.promotion or 0, 0) << 12


def uci_line(line: str) -> tuple[str, ...]:
    """A line of moves in SAN from the start, as the builder's UCI texts."""
    board = chess.Board()
    return tuple(board.push_san(san).uci() for san in line.split())


@dataclass(order=True)
class Pending:
    """A position waiting for analysis, ordered by how often its line is reached (highest first)."""

    priority: float
    moves: tuple[str, ...] = field(compare=False)


def analyse(state: ChessState, depth: int, margin: float, width: int, shared: dict) -> list[tuple[chess.Move, float]]:
    """The position's good moves with their scores (side to move's centipawns), best first."""
    settings = SearchSettings(algorithm=ALGORITHM, book=False)  # the analysis itself, never the old book
    limits = Limits(depth=depth)
    remaining = list(state.legal_moves())
    found: list[tuple[chess.Move, float]] = []
    while remaining and len(found) < width:
        answer = search(state, settings, limits, shared=shared, root_moves=remaining)
        if answer.best_move is None:
            break
        score = answer.score.value
        if found and found[0][1] - score > margin:
            break
        found.append((answer.best_move, score))
        remaining.remove(answer.best_move)
    return found


def build(
    positions: int, plies: int, depth: int, margin: float, width: int, seconds: float
) -> dict[int, list[tuple[int, int]]]:
    """Polyglot key -> [(polyglot move, weight)] of the analysed positions (stopping after
    ``seconds`` of wall time too: the best-first order means the most played lines are in)."""
    book: dict[int, list[tuple[int, int]]] = {}
    queue = [Pending(-1.0, ()), *(Pending(-COMMON_LINE_SHARE, uci_line(line)) for line in COMMON_LINES)]
    heapq.heapify(queue)
    shared: dict = {}
    started = time.perf_counter()
    while queue and len(book) < positions and time.perf_counter() - started < seconds:
        pending = heapq.heappop(queue)
        state = ChessState.initial()
        for text in pending.moves:
            state.play(state.parse_move(text))
        if state.key() in book or state.is_terminal():
            continue
        good = analyse(state, depth, margin, width, shared)
        best = max(score for _move, score in good)  # a re-search without the first move may score higher
        weights = [max(1, round(TOP_WEIGHT * 0.5 ** ((best - score) / HALVING_CP))) for _move, score in good]
        book[state.key()] = [(polyglot_move(state.board, move), weight) for (move, _score), weight in zip(good, weights)]
        total = sum(weights)
        names = [state.move_name(move) for move, _score in good]
        print(
            f"{len(book):4d} {time.perf_counter() - started:6.0f}s  {' '.join(pending.moves) or '(start)'}: "
            + ", ".join(f"{name} {score:+.0f} w{weight}" for name, (_move, score), weight in zip(names, good, weights)),
            file=sys.stderr,
            flush=True,
        )
        if len(pending.moves) + 1 < plies:
            for (move, _score), weight in zip(good, weights):
                line = (*pending.moves, move.uci())
                heapq.heappush(queue, Pending(pending.priority * weight / total, line))
    return book


def write_book(book: dict[int, list[tuple[int, int]]], path: Path) -> int:
    """Write ``book`` as a Polyglot file (entries sorted by key, then by weight, highest
    first); returns the number of entries."""
    entries = sorted(
        ((key, move, weight) for key, moves in book.items() for move, weight in moves),
        key=lambda entry: (entry[0], -entry[2], entry[1]),
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as out:
        for key, move, weight in entries:
            out.write(ENTRY.pack(key, move, weight, 0))
    return len(entries)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=120, help="positions to analyse")
    parser.add_argument("--plies", type=int, default=10, help="deepest book ply")
    parser.add_argument("--depth", type=int, default=18, help="search depth of each analysis")
    parser.add_argument("--margin", type=float, default=25.0, help="centipawns a book move may lose")
    parser.add_argument("--width", type=int, default=3, help="book moves per position at most")
    parser.add_argument("--seconds", type=float, default=3600.0, help="stop analysing after this long")
    parser.add_argument("--out", type=Path, required=True)
    arguments = parser.parse_args(argv)
    book = build(
        arguments.positions, arguments.plies, arguments.depth, arguments.margin, arguments.width, arguments.seconds
    )
    count = write_book(book, arguments.out)
    print(f"{len(book)} positions, {count} entries -> {arguments.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
