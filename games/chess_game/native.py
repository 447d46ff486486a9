"""The compiled chess search (``games/chess_game/_search.c``), behind the engine's protocol.

Why a second chess search: the readable one (``ai.search`` over ``ChessState``) pays
Python's ~1 µs an operation on every node and searches ~20k nodes a second; playing
strength against real engines is bought with depth, and depth with nodes. The C module
searches the same rules with the same EVAL (``evaluate`` equals ``ChessState.evaluate`` to
the bit, and the tests check it) at ~50 times the speed, with the classic PVS of a
tournament engine: aspiration windows, a transposition table, null move, late move
reductions, futility and SEE pruning, quiescence, killers and history. It is the engine's
``native`` algorithm; every other algorithm stays the readable Python one.

The module is optional, like the Othello and checkers hot paths: without a C compiler at
install time it is missing, ``NATIVE_SEARCH`` says why, and the engine does not offer the
``native`` algorithm. ``PLYGROUND_PYTHON_HOTPATHS=1`` hides it too (``games.native``).

``NATIVE`` says whether it loaded.

Weights: C keeps no number of the EVAL of its own. Every search first hands C the current
weight tables and the constants the terms compute with (``eval_constants``), when
``ChessState.set_weights`` has started a new ``evaluation.weights_generation`` since
(``_sync_weights``); C reads each by name and refuses a missing name or one it does not
know, so a term added or renamed on one side only fails loudly at the first search.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import chess

from games.base import IllegalMoveError, NativeIterationSink, NodePoll
from games.chess_game import evaluation, network, tables
from games.native import CompiledSearcher, load_hot_paths

_search, NATIVE_SEARCH_BACKEND = load_hot_paths("games.chess_game._search")
"""The C module or ``None``; and a line saying which and why (``plyground bench`` and the
app's settings summary show it)."""

NATIVE: Final = _search is not None
"""Whether the compiled search is there."""

MATE: Final[int] = getattr(_search, "MATE", 32000)
"""The C search's mate score: ``MATE - n`` means the side to move mates in ``n`` plies."""
MATE_BOUND: Final[int] = getattr(_search, "MATE_BOUND", MATE - 1000)
"""Scores beyond this (in magnitude) are mate scores."""
MAX_DEPTH: Final = 100
"""The deepest iteration asked of C (its own cap is higher)."""

EVAL_CONSTANT_NAMES: Final = (
    "MAX_PHASE",
    "PHASE_WEIGHTS",
    "KING_ATTACK_UNITS",
    "KING_ATTACK_UNIT_CAP",
    "KING_ATTACK_MIN_ATTACKERS",
    "PASSER_FREE_FACTORS",
    "PASSER_DISTANCE_FACTORS",
)
"""The constants of ``tables`` the C EVAL computes with (C refuses the list if it differs
from the one it reads)."""


def eval_constants() -> dict[str, Any]:
    """``EVAL_CONSTANT_NAMES`` with their values in ``tables``: C's second ``set_weights`` argument."""
    return {name: getattr(tables, name) for name in EVAL_CONSTANT_NAMES}


_synced_generation = -1
"""The ``evaluation.weights_generation`` whose tables C holds (-1: none yet)."""


_synced_network = -1
"""The ``network.generation`` whose network C holds (-1: none handed over yet)."""


def _sync_weights() -> None:
    """Hand C the EVAL's current weight tables and network, when they changed since it last
    got them."""
    global _synced_generation, _synced_network
    if _search is not None and _synced_generation != evaluation.weights_generation:
        _search.set_weights(tables.CURRENT_WEIGHTS, eval_constants())
        _synced_generation = evaluation.weights_generation
    if _search is not None and network.generation == 0:
        network.select("")  # nothing chose yet: the shipped network, as every search gets
    if _search is not None and _synced_network != network.generation:
        chosen = network.current
        _search.set_network(*(chosen.arguments() if chosen is not None else (None,)))
        _synced_network = network.generation


def native_evaluate(fen: str) -> float:
    """The C EVAL of ``fen``, White's view in centipawns (tests compare it with Python's)."""
    if _search is None:
        raise RuntimeError(NATIVE_SEARCH_BACKEND)
    _sync_weights()
    result: float = _search.evaluate(fen)
    return result


def native_network_score(fen: str, moves: Sequence[str] = ()) -> int:
    """The compiled network's correction after the UCI ``moves`` from ``fen`` (made one by
    one, so the sums are the incrementally updated ones), side to move's view in
    centipawns; 0 without a network. Tests compare it with ``network.network_score``."""
    if _search is None:
        raise RuntimeError(NATIVE_SEARCH_BACKEND)
    _sync_weights()
    result: int = _search.network_evaluate(fen, list(moves))
    return result


class ChessNativeSearcher(CompiledSearcher):
    """One compiled chess searcher (see ``games.native.CompiledSearcher``)."""

    __slots__ = ()

    MATE = MATE
    MATE_BOUND = MATE_BOUND

    def __init__(self, table_megabytes: float) -> None:
        if _search is None:
            raise RuntimeError(NATIVE_SEARCH_BACKEND)
        self.table_megabytes = table_megabytes
        self._searcher = _search.Searcher(max(1, int(table_megabytes)))

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
        """Search the ``ChessState`` ``state`` (see ``games.base.NativeSearcher``). C gets the
        game from its first position with every move since, so repetitions of the game's
        history count inside its tree as they do in the Python search."""
        _sync_weights()
        board: chess.Board = state.board
        start = board.root().fen()
        moves = [move.uci() for move in board.move_stack]
        root = self._root(state)

        def report(depth: int, seldepth: int, score: int, nodes: int, pv: list[str]) -> bool:
            return bool(on_iteration(self._iteration(root, depth, seldepth, score, nodes, pv)))

        self._searcher.search(
            start,
            moves,
            max(1, min(max_depth, MAX_DEPTH)),
            poll,
            report,
            poll_interval=max(1, poll_interval),
            root_moves=[move.uci() for move in root_moves] or None,
            threads=threads,
        )

    def _root(self, state: Any) -> chess.Board:
        board: chess.Board = state.board.copy(stack=False)
        return board

    def _line(self, root: chess.Board, names: Sequence[str]) -> tuple[chess.Move, ...]:
        """The moves of a PV as C names them (UCI), as far as each is legal from ``root``:
        the table the C line is read from may hold a stale entry past its first moves."""
        board = root.copy(stack=False)
        line: list[chess.Move] = []
        for name in names:
            try:
                move = chess.Move.from_uci(name)
            except ValueError:
                break
            if not board.is_legal(move):
                break
            line.append(move)
            board.push(move)
        if not line and names:
            raise IllegalMoveError(f"the compiled search answered {names[0]!r}, not a legal move here")
        return tuple(line)
