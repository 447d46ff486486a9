"""The per-node observer: how the search tree view will watch a search node by node.

Every algorithm accepts an optional observer and calls it as it walks the tree. When no
observer is given the algorithms skip the calls entirely (one ``if observer is not None``
per node), so watching costs nothing when nobody watches.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol


class SearchObserver(Protocol):
    """Receives the walk of the search tree in depth-first order.

    ``path`` is the sequence of moves from the root to the node (as game move values, not
    text: the observer names them if it wants to). Windows and values are side-to-move
    scores on the search scale, as inside the search.
    """

    def entered(self, path: Sequence[Any], depth: int, alpha: float, beta: float) -> None:
        """A node was entered with window (alpha, beta) and ``depth`` plies to go."""

    def left(self, path: Sequence[Any], value: float, bound: str) -> None:
        """A node was left with ``value``; ``bound`` is ``exact``, ``lower`` (fail high)
        or ``upper`` (fail low)."""

    def cutoff(self, path: Sequence[Any], move: Any, skipped: Sequence[Any]) -> None:
        """At node ``path``, ``move`` caused a cut-off and the ``skipped`` siblings were
        pruned without being searched (the tree view draws them greyed out)."""


class RecordingObserver:
    """An observer that keeps every call as a tuple: for tests and for small demo trees."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def entered(self, path: Sequence[Any], depth: int, alpha: float, beta: float) -> None:
        self.calls.append(("entered", tuple(path), depth, alpha, beta))

    def left(self, path: Sequence[Any], value: float, bound: str) -> None:
        self.calls.append(("left", tuple(path), value, bound))

    def cutoff(self, path: Sequence[Any], move: Any, skipped: Sequence[Any]) -> None:
        self.calls.append(("cutoff", tuple(path), move, tuple(skipped)))
