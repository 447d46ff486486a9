"""The per-node observer: how the search tree view will watch a search node by node.

Every algorithm accepts an optional observer and calls it as it walks the tree. When no
observer is given the algorithms skip the calls entirely (one ``if observer is not None``
per node), so watching costs nothing when nobody watches.
"""

from __future__ import annotations

from collections.abc import Callable, MutableSequence, Sequence
from typing import Any, Protocol

from games.base import GameState

from ai.tt import Bound

NodeFunction = Callable[..., float]
"""A search node ``(state, depth, alpha, beta, ply, *extra) -> value``."""


class SearchObserver(Protocol):
    """Receives the walk of the search tree in depth-first order.

    ``path`` is the sequence of moves from the root to the node (as game move values, not
    text: the observer names them if it wants to). Windows and values are side-to-move
    scores on the search scale, as inside the search.
    """

    def entered(self, path: Sequence[Any], depth: int, alpha: float, beta: float) -> None:
        """A node was entered with window (alpha, beta) and ``depth`` plies to go."""

    def left(self, path: Sequence[Any], value: float, bound: Bound) -> None:
        """A node was left with ``value``; ``bound`` is ``EXACT``, ``LOWER`` (fail high)
        or ``UPPER`` (fail low)."""

    def cutoff(self, path: Sequence[Any], move: Any, skipped: Sequence[Any]) -> None:
        """At node ``path``, ``move`` caused a cut-off and the ``skipped`` siblings were
        pruned without being searched (the tree view draws them greyed out)."""


class RecordingObserver:
    """An observer that keeps every call as a tuple: for tests and for small demo trees."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []

    def entered(self, path: Sequence[Any], depth: int, alpha: float, beta: float) -> None:
        self.calls.append(("entered", tuple(path), depth, alpha, beta))

    def left(self, path: Sequence[Any], value: float, bound: Bound) -> None:
        self.calls.append(("left", tuple(path), value, bound))

    def cutoff(self, path: Sequence[Any], move: Any, skipped: Sequence[Any]) -> None:
        self.calls.append(("cutoff", tuple(path), move, tuple(skipped)))


def observed(
    node: NodeFunction,
    observer: SearchObserver,
    path: MutableSequence[Any],
    view_sign: Callable[[GameState], int] | None = None,
) -> NodeFunction:
    """``node`` wrapped so that ``observer`` sees every node entered and left; both search
    families use it, and only while an observer watches, so watching costs nothing otherwise.

    ``path`` is the search's own move path (it changes as the search walks). Without
    ``view_sign`` the node's window and value are already side-to-move (the negamax family);
    the expectimax family computes in the root player's view and passes ``view_sign(state)``
    (+1 when the node's own player is the root player, else -1) so the observer still sees
    side-to-move windows and values. Extra arguments after the ply (Star2's known first-move
    value) are passed through.
    """

    def watched(state: GameState, depth: int, alpha: float, beta: float, ply: int, *extra: Any) -> float:
        sign = 1 if view_sign is None else view_sign(state)
        low, high = (alpha, beta) if sign > 0 else (-beta, -alpha)
        observer.entered(path, depth, low, high)
        value = node(state, depth, alpha, beta, ply, *extra)
        seen = value if sign > 0 else -value
        bound = Bound.LOWER if seen >= high else Bound.UPPER if seen <= low else Bound.EXACT
        observer.left(path, seen, bound)
        return value

    return watched
