"""The compiled Othello search (``games/othello/_search.c``), behind the engine's protocol.

Why a second Othello search: the readable one (``ai.search`` over ``OthelloState``) pays
Python's ~1 µs an operation at every node and searches ~200k nodes a second, although a
node is a few bit operations and one pattern EVAL, both in C already (``_fast.c``). The C
search plays the same rules with the same EVAL (the double of ``evaluate_to_move``, clamped
as ``OthelloState.evaluate`` clamps it) and the same exact solver at the same reach as the
Python search (the root up to ``SOLVER_EMPTIES`` empties, inside the tree up to
``INTERIOR_SOLVER_EMPTIES``), with PVS, aspiration windows, a table, killers and history and
no forward pruning: at a fixed depth it answers the Python PVS's value exactly
(``tests/games/test_othello_native_search.py``), only faster. It is the engine's ``native``
algorithm for Othello; every other algorithm stays the readable Python one.

It lives in the optional extension ``games.othello._fast`` (``Searcher``), so it is missing
exactly when the other Othello hot paths are (no C compiler at install time, or
``PLYGROUND_PYTHON_HOTPATHS=1``): then ``NATIVE`` is false and the engine does not offer
``native`` for Othello.

Moves cross the boundary as squares 0..63 and ``PASS`` (64), the game's own move values.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from games.base import IllegalMoveError, NativeIterationSink, NodePoll, SolveAbandoned
from games.native import CompiledSearcher, load_hot_paths
from games.othello.bitboard import Bitboard
from games.othello.exact import NATIVE as NATIVE_SOLVER
from games.othello.exact import SOLVER_EMPTIES, native_solver, solve_exact

_fast, NATIVE_SEARCH_BACKEND = load_hot_paths("games.othello._fast")
"""The C module or ``None``, and a line saying which and why."""

NATIVE: Final = _fast is not None and hasattr(_fast, "Searcher")
"""Whether the compiled search is there."""

MATE: Final = 1 << 30
"""Othello has no mate scores: a proven value is a final margin on the EVAL's scale, far
inside this bound (``CompiledSearcher`` reads scores beyond ``MATE_BOUND`` as wins)."""
MATE_BOUND: Final = MATE
MAX_DEPTH: Final = 100
"""The deepest iteration asked of C."""

INTERIOR_SOLVER_EMPTIES: Final = 10
"""Inside the tree and at its horizon, positions with at most this many empty squares take
the exact solver's value: the Python search's reach (``ai.search.common.
INTERIOR_SOLVER_EMPTIES``; ``games`` never imports ``ai``, so a test holds the two equal),
so that both searches see the same tree. A 10-empty solve is a few thousand native solver
nodes, about what the search spends on a few of its own nodes there."""

SOLVER_NODES_PER_SEARCH_NODE: Final = 12
"""The C solver's nodes in the time of one node of this search: it solves 29.6-32.9M nodes a
second (``games.othello.exact.NATIVE_NODES_PER_SEARCH_NODE``), this search visits 2.5-2.8M
(1 s searches from seven random positions). A node limit charges every solve, at the root
and inside the tree, at ``SOLVER_NODE_COST`` search nodes a solver node, so that a level's
budget is a time on any machine here too. At the Python search's rate (a 120th), a
1,000,000-node budget would let one 20-empty root solve run 4 s on a busy core, and solves
inside the tree left uncharged 4 s more."""
SOLVER_NODE_COST: Final = 1 / SOLVER_NODES_PER_SEARCH_NODE if NATIVE_SOLVER else float(SOLVER_NODES_PER_SEARCH_NODE)
"""What a solver node costs in this search's nodes (the pure-Python solver's nodes cost what
a Python search node does, about a dozen of these)."""


def native_perft(state: Any, depth: int) -> int:
    """Perft with the compiled search's own move generator (tests compare it with ``perft``)."""
    if not NATIVE or _fast is None:
        raise RuntimeError(NATIVE_SEARCH_BACKEND)
    count: int = _fast.search_perft((state.own, state.opponent), depth)
    return count


def solve(own: Bitboard, opponent: Bitboard, poll: NodePoll | None, low: int, high: int) -> tuple[int, int] | None:
    """The final margin for ``own`` to move, fail-soft within the margins ``(low, high)``
    (exact inside, a bound outside: what the search's window needs), and a move reaching it
    (-1: none), by the game's solver (``games.othello.exact``): what C asks near the end.
    Without the C solver the Python one solves exactly (a value is a bound too). ``None``
    when ``poll`` gave the solve up (``SolveAbandoned``): C then deepens without it."""
    try:
        if NATIVE_SOLVER:
            score, move, _ = native_solver().solve(own, opponent, poll, low, high)
            return score, -1 if move is None else move
        result = solve_exact(own, opponent, poll)
    except SolveAbandoned:
        return None
    return result.score, -1 if result.best_move is None else result.best_move


class SolverCharge:
    """A solve's ``poll``: its nodes passed on to the search's ``poll`` at
    ``SOLVER_NODE_COST`` search nodes each (fractions carried over), as the Python search
    charges its solves, so that a node budget buys solves of what they cost in time."""

    __slots__ = ("poll", "owed")

    def __init__(self, poll: NodePoll) -> None:
        self.poll = poll
        self.owed = 0.0

    def __call__(self, nodes: int, check: bool) -> None:
        self.owed += nodes * SOLVER_NODE_COST
        whole = int(self.owed)
        self.owed -= whole
        self.poll(whole, check)


class OthelloNativeSearcher(CompiledSearcher):
    """One compiled Othello searcher (see ``games.native.CompiledSearcher``)."""

    __slots__ = ("eval_limit", "margin_scale")

    MATE = MATE
    MATE_BOUND = MATE_BOUND

    def __init__(self, table_megabytes: float, eval_limit: float, margin_scale: float) -> None:
        """``eval_limit``: the EVAL's clamp (``state.EVAL_LIMIT``); ``margin_scale``: units
        per disc of a final margin (``OthelloState.EVAL_SCALE``), as ``evaluate`` has them."""
        if not NATIVE or _fast is None:
            raise RuntimeError(NATIVE_SEARCH_BACKEND)
        self.table_megabytes = table_megabytes
        self.eval_limit = eval_limit
        self.margin_scale = margin_scale
        self._searcher = _fast.Searcher(max(1, int(table_megabytes)))

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
        """Search the ``OthelloState`` ``state`` (see ``games.base.NativeSearcher``) with
        the game's solver at the Python search's reach; ``threads`` > 1: Lazy SMP helper
        threads share the table (only the first solves)."""
        self.search_with(state, max_depth, poll, on_iteration, root_moves, poll_interval, threads,
                         solver_empties=min(SOLVER_EMPTIES, INTERIOR_SOLVER_EMPTIES),
                         root_solver_empties=SOLVER_EMPTIES, root_solve_poll=root_solve_poll)

    def search_with(
        self,
        state: Any,
        max_depth: int,
        poll: NodePoll,
        on_iteration: NativeIterationSink,
        root_moves: Sequence[Any] = (),
        poll_interval: int = 4096,
        threads: int = 1,
        solver_empties: int = 0,
        root_solver_empties: int = 0,
        root_solve_poll: NodePoll | None = None,
    ) -> None:
        """``search`` with the solver's reach given: inside the tree ``solver_empties``, at
        the root ``root_solver_empties`` (0: never solve; the ``exact`` settings' tree)."""
        root = self._root(state)  # only read while C searches; _line plays a line on a copy

        def report(depth: int, seldepth: int, score: float, nodes: int, pv: list[int]) -> bool:
            return bool(on_iteration(self._iteration(root, depth, seldepth, score, nodes, pv)))

        interior = SolverCharge(poll)  # C asks inside the tree without a poll: charge those solves too

        def solve_charged(own: Bitboard, opponent: Bitboard, solve_poll: NodePoll | None, low: int,
                          high: int) -> tuple[int, int] | None:
            return solve(own, opponent, interior if solve_poll is None else solve_poll, low, high)

        self._searcher.search(
            (state.own, state.opponent),
            max(1, min(max_depth, MAX_DEPTH)),
            poll,
            report,
            self.eval_limit,
            self.margin_scale,
            solve=solve_charged,
            solver_poll=SolverCharge(poll if root_solve_poll is None else root_solve_poll),
            solver_empties=solver_empties,
            root_solver_empties=root_solver_empties,
            poll_interval=max(1, poll_interval),
            root_moves=list(root_moves) or None,
            threads=threads,
        )

    def _line(self, root: Any, names: Sequence[Any]) -> tuple[Any, ...]:
        """The moves of a PV as far as each is legal in turn from ``root`` (played on a
        copy): the table a line is read from may hold a stale entry past its first moves."""
        position = root.copy()
        line: list[Any] = []
        for wanted in names:
            if wanted not in position.legal_moves():
                break
            line.append(wanted)
            position.play(wanted)
        if not line and names:
            raise IllegalMoveError(f"the compiled search answered {names[0]!r}, not a legal move here")
        return tuple(line)
