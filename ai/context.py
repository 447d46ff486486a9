"""The bundle of services one running search shares across its pieces."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ai.control import SearchControl
from ai.events import SearchEvent
from ai.tree.model import TreeOptions
from ai.tree.recorder import TreeRecorder
from ai.settings import SearchSettings


def _discard(_event: SearchEvent) -> None:
    """The default event sink: nobody is listening."""


DISCARD_EVENTS: Callable[[SearchEvent], None] = _discard
"""The default ``emit``: a search may skip building events nobody receives
(``context.emit is DISCARD_EVENTS``)."""


@dataclass
class SearchContext:
    """What an algorithm's ``run(state, context)`` gets besides the root state.

    ``emit`` delivers events (``Iteration``, ``CurrentMove``, ``Progress``); the algorithm
    returns its ``Finished`` rather than emitting it. ``shared`` is where a driver may keep
    objects that outlive one search (a transposition table reused between moves), keyed by
    name.
    """

    settings: SearchSettings
    control: SearchControl
    emit: Callable[[SearchEvent], None] = _discard
    search_id: int = 0
    recorder: TreeRecorder | None = None
    """Records the depth-first search's tree (``ai.tree.recorder``) when the request asks."""
    tree: TreeOptions | None = None
    """What the request asked to record, for every algorithm (MCTS records its own way)."""
    shared: dict[str, Any] = field(default_factory=dict)
    root_moves: tuple[Any, ...] = ()
    """Search only these root moves (UCI ``searchmoves``, the pool's root split); empty: all."""
    helper: int = 0
    """0 for the main search; ``k > 0`` for Lazy SMP helper ``k`` of the worker pool."""
