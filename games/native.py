"""Loading a game's optional C hot paths (``games/<game>/_fast.c``), one rule for every game.

Each is an optional extension built by setup.py: without a C compiler it is missing, and the
game's pure-Python functions run (the same values, slower). ``PLYGROUND_PYTHON_HOTPATHS``
set to anything but 0 forces the Python paths even when the C ones are built, so the two can
be compared on one machine. The packaged app lists every ``games`` module as hidden imports
(``packaging/plyground.spec``), so importing by name here bundles them too.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Sequence
from types import ModuleType
from typing import Any, ClassVar, Final

from games.base import NativeIteration

FORCE_PYTHON_VARIABLE: Final = "PLYGROUND_PYTHON_HOTPATHS"
"""Set (to anything but 0) in the environment: run the Python hot paths of every game."""


def load_hot_paths(name: str) -> tuple[ModuleType | None, str]:
    """The C module ``name`` (e.g. ``games.othello._fast``) or ``None``, and a line saying
    which backend runs and why (shown by tests that skip, and by the self-test)."""
    if os.environ.get(FORCE_PYTHON_VARIABLE, "") not in ("", "0"):
        return None, f"python ({FORCE_PYTHON_VARIABLE} is set)"
    try:
        module = importlib.import_module(name)
    except ImportError as error:  # not built (no C compiler at install time)
        return None, f"python ({name} did not load: {error})"
    return module, f"native ({name}, C)"


class CompiledSearcher:
    """What the compiled searches' Python sides share (``games.chess_game.native``,
    ``games.checkers.native``, ``games.othello.native``), behind ``games.base.NativeSearcher``: a C ``Searcher`` whose
    table and move-ordering history live as long as this object, so the next move's search
    starts from what this one learned (the engine keeps it between searches; ``clear`` on a
    new game), and C's reports read as ``NativeIteration``.

    A subclass sets ``MATE`` and ``MATE_BOUND`` (its C module's), makes ``_searcher`` and
    implements ``search`` and ``_line`` (C's names of a line's moves as the game's moves,
    played from a copy of the root)."""

    __slots__ = ("_searcher", "table_megabytes")

    MATE: ClassVar[int]
    MATE_BOUND: ClassVar[int]

    _searcher: Any
    table_megabytes: float

    def _line(self, root: Any, names: Sequence[Any]) -> tuple[Any, ...]:
        raise NotImplementedError

    def _iteration(self, root: Any, depth: int, seldepth: int, score: float, nodes: int, names: Sequence[Any]) -> NativeIteration:
        """C's report of an iteration (``root``: the searched position, as ``_line`` takes
        it) as the protocol's ``NativeIteration``: a proven result as plies."""
        line = self._line(root, names)
        if abs(score) > self.MATE_BOUND:
            plies = self.MATE - int(abs(score))
            return NativeIteration(depth, seldepth, 0.0, plies if score > 0 else -plies, nodes, line)
        return NativeIteration(depth, seldepth, float(score), None, nodes, line)

    def _root(self, state: Any) -> Any:
        """What ``_line`` reads a line from, for ``state`` (the state itself by default)."""
        return state

    def interrupted(self, state: Any) -> NativeIteration | None:
        """The cut iteration's better root move after a stopped search (``None``: none)."""
        found = self._searcher.interrupted()
        if found is None:
            return None
        return self._iteration(self._root(state), *found)

    def counters(self) -> tuple[int, int, int, int, int]:
        """(qnodes, tt_probes, tt_hits, cutoffs, first_move_cutoffs) of the last search."""
        counted: tuple[int, int, int, int, int] = self._searcher.counters()
        return counted

    def hashfull(self) -> float:
        return float(self._searcher.hashfull()) / 1000.0

    def clear(self) -> None:
        self._searcher.clear()
