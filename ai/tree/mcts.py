"""The Monte Carlo search tree as the lecture shows it: per node its visits, its mean value,
UCB1's two terms and their total, and the root's visits as they grew.

UCT (``ai.search.mcts``) does not walk a tree depth first, so the records of a depth-first
search (``NodeEntry``/``NodeExit``/``Cut``) do not fit it. A recording MCTS sends instead,
about ten times a second, a *snapshot* of the top of its tree (``MctsSnapshot``): the root
and every child of it, then, best first by visits, the children of the most visited nodes,
up to a bound. Each node carries what selection reads (Browne et al. 2012, algorithm 2)::

    UCT(child) = Q(child) + C * sqrt(ln N(parent) / N(child))
                 ^^^^^^^^   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
                 exploitation          exploration

``exploitation`` is the child's mean for the player choosing at the parent, normalised into
[0, 1] by the least and greatest rewards seen (``MctsSnapshot.least_reward`` and
``greatest_reward``), as the search normalises it; ``uct`` is the total the selection
compares, computed by the search's own function. Values are the mean rewards in the game's
utility units (+-1 for a win or loss), ``value`` in the **root player's view** (MAX is the
root's side to move, as ``ai.tree.model`` draws every tree) and ``mover_value`` in the view
of the player who chose the node at its parent (the value UCB1 maximises there).

``history`` keeps the root children's visits as the iterations went (``VisitHistory``), the
picture of UCT's asymmetric growth: the promising moves take more and more of the visits.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Final

from ai.tree.model import ROOT_PARENT, NodeKind

Move = Any
"""A game's own move value, or a chance outcome below a chance node."""

SNAPSHOT_NODES: Final = 500
"""Nodes in a live snapshot at most (fewer when ``TreeOptions.cap`` is smaller): the root's
children and the most visited few plies below, made and pickled in about 5 ms."""
FINAL_SNAPSHOT_NODES: Final = 2_000
"""Nodes in the last snapshot of a search at most (fewer when the cap is smaller), which
stays on screen to be browsed once the search has answered (about 20 ms)."""
HISTORY_SAMPLES: Final = 256
"""Samples of the root's visits kept at most; when full every other one is dropped and the
sampling step doubles, so the history spans the whole search at an even spacing."""


@dataclass(frozen=True, slots=True)
class MctsNodeStat:
    """One node of a snapshot, as the selection at its parent sees it."""

    index: int
    """Its place in ``MctsSnapshot.nodes`` (the root is 0; a parent comes before its children)."""
    parent: int
    """The parent's ``index``; ``ROOT_PARENT`` for the root."""
    move: Move
    """The move (or chance outcome) from the parent; ``None`` at the root."""
    kind: NodeKind
    """MAX or MIN (the root player to move or not), CHANCE, or TERMINAL."""
    visits: int
    value: float
    """The mean reward, root player's view, utility units (0 before the first visit)."""
    mover_value: float
    """The mean reward for the player who chose this node at its parent (below a chance node,
    and at the root: the root player)."""
    exploitation: float = math.nan
    """The normalised mean UCB1 used, in [0, 1]; NaN where selection computes none (the root,
    below a chance node, an unvisited child)."""
    exploration: float = math.nan
    """``C * sqrt(ln N(parent) / N(node))``; NaN where ``exploitation`` is."""
    uct: float = math.nan
    """``exploitation + exploration``: what selection compares among the siblings."""
    probability: float = 1.0
    """Below a chance node: the outcome's probability (selection samples by it)."""
    prior: float | None = None
    """A policy's prior probability for the move; plain UCT has none."""
    proven: float | None = None
    """MCTS-Solver's exact value once known (+1, 0, -1 in the root player's view)."""
    proof_plies: int = 0
    """Plies to the end of the game along the proof (for a proven node)."""
    untried: int = 0
    """Moves of this node not expanded yet (the next iterations through it expand them)."""
    child_count: int = 0
    """Children in the search's tree; the snapshot holds all of them or none of them."""
    is_pick: bool = False
    """The child the selection would descend into next from its parent (its largest UCT)."""

    @property
    def is_proven(self) -> bool:
        return self.proven is not None


@dataclass(frozen=True, slots=True)
class VisitSample:
    """The root children's visits after ``iterations`` iterations, in the order of
    ``MctsSnapshot.root_moves`` (children expanded later are missing from earlier samples)."""

    iterations: int
    visits: tuple[int, ...]

    def visits_of(self, child: int) -> int:
        return self.visits[child] if child < len(self.visits) else 0


@dataclass(frozen=True)
class MctsSnapshot:
    """The top of one MCTS tree at one moment (sent about ten times a second while the
    search records its tree, and once more when it answers with ``complete`` set)."""

    search_id: int
    iterations: int
    nodes: int
    """Nodes the search had counted (every move played, in the tree or in a playout)."""
    time: float
    """Seconds since the search started."""
    exploration_constant: float
    """UCB1's ``C`` (``SearchSettings.exploration``)."""
    least_reward: float
    greatest_reward: float
    """The rewards' range so far, by which the means are normalised into [0, 1]."""
    root_player: int
    tree_size: int
    """Nodes in the search's whole tree (the snapshot holds the top ``len(nodes)`` of them)."""
    nodes_shown: tuple[MctsNodeStat, ...]
    root_moves: tuple[Move, ...]
    """The root's children (moves, or outcomes at a chance root) in the order they were expanded."""
    history: tuple[VisitSample, ...] = ()
    complete: bool = False
    """The search has answered: this is its last snapshot."""
    workers: int = 1
    """Root parallel: trees searched in all. ``nodes_shown`` is the main worker's tree."""
    merged_root: tuple[Any, ...] = ()
    """Root parallel: the root moves' statistics summed over every tree
    (``ai.events.RootMoveStat``, most visited first); empty with one tree."""

    # ---------------------------------------------------------------- reading
    @property
    def root(self) -> MctsNodeStat:
        return self.nodes_shown[0]

    def children(self, index: int) -> list[MctsNodeStat]:
        """The children of node ``index`` in the snapshot, most visited first (empty when
        the snapshot did not open it)."""
        return self.children_by_parent.get(index, [])

    @cached_property
    def children_by_parent(self) -> dict[int, list[MctsNodeStat]]:
        """Node index -> its children in the snapshot, most visited first (built once, where
        the snapshot is read)."""
        by_parent: dict[int, list[MctsNodeStat]] = {}
        for node in self.nodes_shown[1:]:
            by_parent.setdefault(node.parent, []).append(node)
        for children in by_parent.values():
            children.sort(key=lambda child: -child.visits)
        return by_parent

    def path(self, index: int) -> list[MctsNodeStat]:
        """The nodes from the root down to ``index``."""
        path = []
        while index != ROOT_PARENT:
            node = self.nodes_shown[index]
            path.append(node)
            index = node.parent
        path.reverse()
        return path

    def find(self, moves: Sequence[Move]) -> MctsNodeStat | None:
        """The node reached from the root by ``moves``, if this snapshot holds it (how a
        view keeps the node it shows from one snapshot to the next)."""
        node: MctsNodeStat | None = self.root
        for move in moves:
            if node is None:
                break
            node = next((child for child in self.children(node.index) if child.move == move), None)
        return node


@dataclass
class VisitHistory:
    """The root children's visits sampled every ``step`` iterations, thinned to at most
    ``limit`` samples by dropping every other one and doubling the step, so that a long
    search keeps an evenly spaced history of bounded size. Sampled by iteration count,
    never by the clock, so a seeded search records the same history every time."""

    limit: int = HISTORY_SAMPLES
    step: int = 1
    samples: list[VisitSample] = field(default_factory=list)
    next_due: int = 1

    def is_due(self, iterations: int) -> bool:
        return iterations >= self.next_due

    def add(self, iterations: int, visits: tuple[int, ...]) -> None:
        self.samples.append(VisitSample(iterations, visits))
        if len(self.samples) >= self.limit:
            self.samples = self.samples[1::2]
            self.step *= 2
        self.next_due = iterations + self.step

    def as_tuple(self) -> tuple[VisitSample, ...]:
        return tuple(self.samples)


__all__ = [
    "FINAL_SNAPSHOT_NODES",
    "HISTORY_SAMPLES",
    "SNAPSHOT_NODES",
    "MctsNodeStat",
    "MctsSnapshot",
    "VisitHistory",
    "VisitSample",
]
