"""Check a chess opening book's top moves against a deeper search: ours and Stockfish's.

Every position of a Polyglot book that its own moves reach from the start is visited; its
top move (the highest weight) is searched alone and the position is searched in full, both
by a deeper search than the book's, and the top move's loss is the difference (centipawns,
side to move). A top move *agrees* when it loses at most ``--margin`` centipawns (the book
builder's own margin: a move that close to the best is a fair choice); the table also
counts the top moves that are the checker's own best move exactly.

Two checkers, each optional:

* ``native``: our compiled search at ``--native-depth`` (the checker the tests use too);
* ``stockfish``: Debian's Stockfish at ``--stockfish-depth`` (one thread), an independent
  judge. It is used here, in a bench script, and never by the app.

Run (about a minute per checker and 100 positions)::

    nice -n 10 .venv/bin/python -m tools.chess_book_check resources/books/chess.bin \\
        --checkers native stockfish
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

import chess
import chess.engine
import chess.polyglot

from ai.engine import search
from ai.settings import Limits, SearchSettings
from bench.peers import stockfish_command
from games.chess_game import ChessState

DEFAULT_MARGIN_CP = 25.0
"""A top move this close to the checker's best agrees (the book builder's default margin)."""
MATE_CP = 100_000
"""Stockfish's mate scores as centipawns (far beyond any margin)."""


@dataclass(frozen=True)
class BookPosition:
    """A position of the book, the line that first reaches it and its top move."""

    board: chess.Board
    line: tuple[str, ...]
    top_move: chess.Move


@dataclass(frozen=True)
class Verdict:
    """One checker's view of one top move: its loss against the best (side to move's
    centipawns, never negative) and the checker's own best move."""

    loss: float
    best_move: chess.Move

    def agrees(self, margin: float) -> bool:
        return self.loss <= margin


def book_positions(path: Path) -> list[BookPosition]:
    """Every position of the book that a line staying in the book reaches from the start
    (its own moves, and any move into a position it has), each once, breadth first."""
    found: list[BookPosition] = []
    seen: set[int] = set()
    with chess.polyglot.open_reader(path) as reader:
        frontier: list[tuple[chess.Board, tuple[str, ...]]] = [(chess.Board(), ())]
        while frontier:
            board, line = frontier.pop(0)
            key = chess.polyglot.zobrist_hash(board)
            entries = list(reader.find_all(board))
            if key in seen or not entries:
                continue
            seen.add(key)
            found.append(BookPosition(board, line, max(entries, key=lambda entry: entry.weight).move))
            for move in board.legal_moves:
                child = board.copy()
                child.push(move)
                frontier.append((child, (*line, board.san(move))))
    return found


class NativeChecker:
    """Our compiled search, deeper than the book's: the best score and the top move's score."""

    name = "native"

    def __init__(self, depth: int) -> None:
        self.depth = depth
        self.settings = SearchSettings(algorithm="native", book=False)
        self.shared: dict = {}

    def verdict(self, position: BookPosition) -> Verdict:
        state = ChessState.from_board(position.board)
        limits = Limits(depth=self.depth)
        best = search(state, self.settings, limits, shared=self.shared)
        top = search(state, self.settings, limits, shared=self.shared, root_moves=[position.top_move])
        assert best.best_move is not None
        return Verdict(max(0.0, best.score.value - top.score.value), best.best_move)

    def close(self) -> None:
        pass


class StockfishChecker:
    """Stockfish at a fixed depth on one thread, through UCI."""

    name = "stockfish"

    def __init__(self, depth: int) -> None:
        command = stockfish_command()
        if command is None:
            raise SystemExit("stockfish is not installed (apt install stockfish)")
        self.depth = depth
        self.engine = chess.engine.SimpleEngine.popen_uci(command)
        self.engine.configure({"Threads": 1, "Hash": 64})

    def _score(self, board: chess.Board, root_moves: list[chess.Move] | None) -> tuple[float, chess.Move]:
        info = self.engine.analyse(board, chess.engine.Limit(depth=self.depth), root_moves=root_moves)
        return float(info["score"].relative.score(mate_score=MATE_CP)), info["pv"][0]

    def verdict(self, position: BookPosition) -> Verdict:
        best_score, best_move = self._score(position.board, None)
        top_score, _ = self._score(position.board, [position.top_move])
        return Verdict(max(0.0, best_score - top_score), best_move)

    def close(self) -> None:
        self.engine.quit()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("book", type=Path, nargs="?", default=Path("resources/books/chess.bin"))
    parser.add_argument("--checkers", nargs="+", choices=("native", "stockfish"), default=["native", "stockfish"])
    parser.add_argument("--native-depth", type=int, default=20)
    parser.add_argument("--stockfish-depth", type=int, default=18)
    parser.add_argument("--margin", type=float, default=DEFAULT_MARGIN_CP, help="centipawns a top move may lose")
    parser.add_argument("--show", action="store_true", help="print every position, not only disagreements")
    args = parser.parse_args(argv)
    positions = book_positions(args.book)
    checkers: list[NativeChecker | StockfishChecker] = []
    for name in args.checkers:
        checkers.append(NativeChecker(args.native_depth) if name == "native" else StockfishChecker(args.stockfish_depth))
    agreed = {checker.name: 0 for checker in checkers}
    same = {checker.name: 0 for checker in checkers}
    try:
        for position in positions:
            cells = []
            disagrees = False
            for checker in checkers:
                verdict = checker.verdict(position)
                agreed[checker.name] += verdict.agrees(args.margin)
                same[checker.name] += verdict.best_move == position.top_move
                disagrees |= not verdict.agrees(args.margin)
                cells.append(f"{checker.name} best {position.board.san(verdict.best_move)}, loss {verdict.loss:.0f}")
            if disagrees or args.show:
                line = " ".join(position.line) or "(start)"
                print(f"{line}: top {position.board.san(position.top_move)}; " + "; ".join(cells), flush=True)
    finally:
        for checker in checkers:
            checker.close()
    print(f"{args.book}: {len(positions)} positions")
    for checker in checkers:
        depth = checker.depth
        print(
            f"  {checker.name} depth {depth}: {agreed[checker.name]}/{len(positions)} top moves within "
            f"{args.margin:.0f} cp of the best, {same[checker.name]}/{len(positions)} the same move"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
