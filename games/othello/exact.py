"""The one place that decides which exact endgame solver runs: native C or pure Python.

Why two solvers: the search an exact endgame needs is the same everywhere (PVS with
fastest-first ordering, a transposition table, parity and stability), but its cost is all in
bit twiddling, where Python pays ~1 µs an operation. The pure-Python ``EndgameSolver``
(``games/othello/solver.py``) searches ~100-200k nodes/s, the C one
(``games/othello/_solver.c``, the extension module ``games.othello._solver``) ~25M nodes/s
on one core here, and the FFO #40-#49 positions (20-26 empties) need 20M-1,400M nodes.

Which one: the C module when it imports, else the Python one. ``pip install -e .`` (``make
setup``) compiles it through ``setup.py`` when a C compiler and the Python headers are
present; it is an optional extension, so an install without them still succeeds, the import
below fails, and every caller gets the Python solver (same values, slower, and a smaller
default depth ``SOLVER_EMPTIES``). ``PLYGROUND_PYTHON_SOLVER=1`` in the environment forces
the Python one (to compare the two). ``SOLVER_BACKEND`` says which runs and why.

The native solver keeps one ``Solver`` (and its transposition table, ``TABLE_BITS``) per
thread for the life of the process: every table entry is a true bound on an exact value,
so later solves (the engine asks many times in one search) reuse earlier work.
"""

from __future__ import annotations

import os
import threading
from typing import Any, Final

from games.base import NodePoll
from games.othello.bitboard import Bitboard
from games.othello.solver import POLL_INTERVAL as PYTHON_POLL_INTERVAL
from games.othello.solver import PYTHON_SOLVER_EMPTIES, EndgameSolver, SolveResult

FORCE_PYTHON_VARIABLE: Final = "PLYGROUND_PYTHON_SOLVER"

TABLE_BITS: Final = 20
"""The native solver's table: 2**20 buckets of two 24-byte entries (48 MB of address space,
touched as it fills). A bigger table changes little: FFO #41 and #44 searched the same node
counts within 0.2% with 2**22 buckets."""

NATIVE_POLL_INTERVAL: Final = 4096
"""Nodes between two polls of the native solver: ~0.2 ms at its speed, so a time limit, a
stop or a node limit (``--nodes``) is seen within a fraction of a millisecond; a poll costs
~1 µs, under 1% of the solve."""

NATIVE_SOLVER_EMPTIES: Final = 20
"""Default exact-solve depth with the native solver, by measured time and by play
(``bench/othello_solver_depth.py``: positions of 24 seeded games, CPU seconds median / 90% /
max at load ~9.5: 18 empties 0.036 / 0.12 / 0.22, 19 empties 0.072 / 0.22 / 0.50, 20 empties
0.31 / 0.97 / 1.18, 21 empties 0.54 / 1.68 / 1.85). With a time limit the root solve may
use half of it (``ai.search.common.ROOT_SOLVE_FRACTION``) and then gives way to the
search, so a solve that would not fit costs half a move's search, not the move: at 1 s a
move most 20-empty solves finish. In play, from 20 engine-game positions at 22 empties
(each with both colours, 1 s a move), 20 against 18 scored 23-17: 17 pairs split as the
colours did, 3 pairs won twice by 20, none by 18 (``bench/STRENGTH.md``, "Othello: endgame solver")."""

NATIVE_NODES_PER_SEARCH_NODE: Final = 120
"""Native solver nodes in the time of one node of the engine's Python search, measured on
one core (process time, three runs): the PVS searched 232-248k nodes a second at 40 empties,
the native solver 29.6-32.9M at 18 empties, 123-142 times as many. A node limit charges
the solver's nodes at ``1 / NATIVE_NODES_PER_SEARCH_NODE`` (``GameState.SOLVER_NODE_COST``):
charged one for one, Othello level 9's 400,000-node budget would run out inside a 20-empty
solve of a twentieth of a second, leaving the level a one-ply guess."""

_native: Any = None
if os.environ.get(FORCE_PYTHON_VARIABLE, "") not in ("", "0"):
    SOLVER_BACKEND = f"python ({FORCE_PYTHON_VARIABLE} is set)"
else:
    try:
        import games.othello._solver as _solver_module
    except ImportError as error:  # not built (no compiler at install time) or unusable CPU
        SOLVER_BACKEND = f"python (the native solver did not load: {error})"
    else:
        _native = _solver_module
        SOLVER_BACKEND = "native (games.othello._solver, C)"

NATIVE: Final = _native is not None
"""Whether the C solver answers."""

SOLVER_EMPTIES: Final = NATIVE_SOLVER_EMPTIES if NATIVE else PYTHON_SOLVER_EMPTIES
"""Default limit of ``OthelloState.solve`` and of the engine's root solve
(``SearchSettings.solver_empties``): positions with at most this many empty squares are
solved exactly."""

SOLVER_NODE_COST: Final = 1 / NATIVE_NODES_PER_SEARCH_NODE if NATIVE else 1.0
"""What a solver node costs in search nodes (``GameState.SOLVER_NODE_COST``): the Python
solver's nodes cost what the search's do."""

POLL_INTERVAL: Final = NATIVE_POLL_INTERVAL if NATIVE else PYTHON_POLL_INTERVAL
"""Nodes between two reports to a ``poll`` (interior nodes for the Python solver)."""

_local = threading.local()


def native_solver() -> Any:
    """This thread's native ``Solver`` (made on first use); only when ``NATIVE``."""
    solver = getattr(_local, "solver", None)
    if solver is None:
        assert _native is not None
        solver = _local.solver = _native.Solver(table_bits=TABLE_BITS, poll_interval=NATIVE_POLL_INTERVAL)
    return solver


def solve_exact(own: Bitboard, opponent: Bitboard, poll: NodePoll | None = None) -> SolveResult:
    """Exact value and a best move for ``own`` to move, by the chosen solver. ``poll``
    hears the node counts as the solve goes and may stop it by raising (``NodePoll``)."""
    if _native is None:
        return EndgameSolver(poll).solve(own, opponent)
    score, move, nodes = native_solver().solve(own, opponent, poll)
    return SolveResult(score, move, nodes)
