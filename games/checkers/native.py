"""The compiled checkers search (``games/checkers/_search.c``), behind the engine's protocol.

Why a second checkers search: the readable one (``ai.search`` over ``CheckersState``) pays
Python's ~1 µs an operation at every node and searches ~150k nodes a second (with the C
move generation and EVAL), and checkers is decided deep: the tempo of a men ending ("the
move") shows 20 plies and more ahead, so Cresswell's problem in ``problems.json`` stayed
open at a million nodes. The C search plays
the same rules with the same EVAL (``_fast.c``'s, equal to the Python double) and the same
endgame databases at ~25 times the speed, with PVS, a table, killers, history, late move
reductions and quiescence over pending captures, and Lazy SMP threads (the pool gives it
every core). It is the engine's ``native`` algorithm for checkers; every other algorithm
stays the readable Python one.

It lives in the optional extension ``games.checkers._fast`` (``Searcher``), so it is
missing exactly when the other checkers hot paths are (no C compiler at install time, or
``PLYGROUND_PYTHON_HOTPATHS=1``): then ``NATIVE`` is false and the engine does not offer
``native`` for checkers.

Moves cross the boundary as ``(from, to, captured)`` bitboards (the ghost layout of
``games.checkers.bitboards``); ``move_boards`` makes them from a ``CheckersMove``, and a
line from C is read back against the legal moves of each position.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from games.base import IllegalMoveError, NativeIterationSink, NodePoll
from games.checkers.bitboards import MASK_OF_SQUARE
from games.checkers.endgame import DATABASE, DATABASE_PIECES
from games.checkers.evaluation import WEIGHT_VALUES
from games.native import CompiledSearcher, load_hot_paths

_fast, NATIVE_SEARCH_BACKEND = load_hot_paths("games.checkers._fast")
"""The C module or ``None``, and a line saying which and why."""

NATIVE: Final = _fast is not None and hasattr(_fast, "Searcher")
"""Whether the compiled search is there."""

MATE: Final[int] = getattr(_fast, "MATE", 30000)
"""The C search's win score: ``MATE - n`` means the side to move wins in ``n`` plies."""
MATE_BOUND: Final[int] = getattr(_fast, "MATE_BOUND", MATE - 1000)
"""Scores beyond this (in magnitude) are proven wins or losses."""
MAX_DEPTH: Final = 100
"""The deepest iteration asked of C."""

MoveBoards = tuple[int, int, int]
"""A move as C names it: (origin, destination, captured pieces), bitboards."""


def move_boards(move: Any) -> MoveBoards:
    """The ``(from, to, captured)`` boards of a ``CheckersMove``."""
    captured = 0
    for square in move.captured:
        captured |= MASK_OF_SQUARE[square]
    return MASK_OF_SQUARE[move.path[0]], MASK_OF_SQUARE[move.path[-1]], captured


def _probe(black: int, white: int, kings: int, player: int) -> tuple[int, int] | None:
    """The databases' (outcome, plies to the end) for the side to move, ``None`` outside them."""
    return DATABASE.result(black, white, kings, player)


def native_perft(state: Any, depth: int) -> int:
    """Perft with the compiled search's own move generator (tests compare it with ``perft``)."""
    if not NATIVE or _fast is None:
        raise RuntimeError(NATIVE_SEARCH_BACKEND)
    count: int = _fast.search_perft((state.black, state.white, state.kings, state.player), depth)
    return count


class CheckersNativeSearcher(CompiledSearcher):
    """One compiled checkers searcher (see ``games.native.CompiledSearcher``)."""

    __slots__ = ()

    MATE = MATE
    MATE_BOUND = MATE_BOUND

    def __init__(self, table_megabytes: float, parameters: Mapping[str, int] | None = None) -> None:
        """``parameters``: the search's tunable numbers by name (``Searcher.parameters()``
        lists them; the engine uses the defaults, ``bench/checkers_native_variants.py`` A/Bs)."""
        if not NATIVE or _fast is None:
            raise RuntimeError(NATIVE_SEARCH_BACKEND)
        self.table_megabytes = table_megabytes
        self._searcher = _fast.Searcher(max(1, int(table_megabytes)), dict(parameters or {}))

    def search(
        self,
        state: Any,
        max_depth: int,
        poll: NodePoll,
        on_iteration: NativeIterationSink,
        root_moves: Sequence[Any] = (),
        poll_interval: int = 4096,
        threads: int = 1,
        root_solve_poll: NodePoll | None = None,
    ) -> None:
        """Search the ``CheckersState`` ``state`` (see ``games.base.NativeSearcher``); the
        game's earlier positions count for repetitions as in the Python search. ``threads`` >
        1: Lazy SMP helper threads share the table (only the first probes the databases)."""
        root = self._root(state)  # only read while C searches; _line plays a line on a copy

        def report(depth: int, seldepth: int, score: int, nodes: int, pv: list[MoveBoards]) -> bool:
            return bool(on_iteration(self._iteration(root, depth, seldepth, score, nodes, pv)))

        self._searcher.search(
            (state.black, state.white, state.kings, state.player, state.no_progress_plies),
            state.earlier_positions(),
            max(1, min(max_depth, MAX_DEPTH)),
            poll,
            report,
            tuple(float(weight) for weight in WEIGHT_VALUES(type(state).weights)),
            poll_interval=max(1, poll_interval),
            root_moves=[move_boards(move) for move in root_moves] or None,
            threads=threads,
            probe=_probe,
            probe_pieces=DATABASE_PIECES,
        )

    def parameters(self) -> dict[str, int]:
        """The tunable numbers this searcher searches with, by name."""
        numbers: dict[str, int] = self._searcher.parameters()
        return numbers

    def _line(self, root: Any, names: Sequence[Any]) -> tuple[Any, ...]:
        """The moves of a PV as far as each is legal in turn from ``root`` (played on a
        copy): the table a line is read from may hold a stale entry past its first moves."""
        position = root.copy()
        line: list[Any] = []
        for wanted in names:
            move = next((move for move in position.legal_moves() if move_boards(move) == tuple(wanted)), None)
            if move is None:
                break
            line.append(move)
            position.play(move)
        if not line and names:
            raise IllegalMoveError(f"the compiled search answered {tuple(names[0])!r}, not a legal move here")
        return tuple(line)
