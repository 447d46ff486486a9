"""The recorded search tree: what one node is, how the records travel, how they are put
together.

A depth-first search visits its nodes in order; the recorder numbers them in that order
(a node's ``index`` is its visit number, 0, 1, 2, ...) and sends three kinds of record:

* ``NodeEntry`` when a node is entered: its parent, the move that led to it, the depth
  left, its kind as far as known on entry, and the window it was searched with;
* ``NodeExit`` when it is left: the value it returned, whether that value is exact or a
  bound, and its final kind (a node entered as MAX may turn out a table cut);
* ``Cut`` when a move failed high: which move caused the cut-off and which siblings were
  never visited (the branches alpha-beta prunes away).

All windows and values are in the **root player's view** (MAX is the side to move at the
root), as the lecture notes draw a minimax tree: a MIN node's negamax window ``(a, b)`` is
recorded as ``(-b, -a)`` and its fail high as an upper bound. ``value`` is on the search
scale (``TreePass.scale`` search units per unit of utility), the scale ``ai.events.Score``
uses.

Each call of the search at the root starts a *pass* (``TreePass``): one per iteration of
iterative deepening, more when an aspiration window fails or MTD(f) narrows its guess.
Passes are kept apart, so that the sizes of all passes add up to the search's node count.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

from ai.tt import Bound

Move = Any
"""A game's own move value, or a chance outcome below a chance node (``ai.events.Move``)."""

ROOT_PARENT = -1
"""The ``parent`` of a pass's root node."""


class NodeKind(IntEnum):
    """What a recorded node is. MAX and MIN are decision nodes in the side-to-move sense:
    MAX when the root's player is to move there, MIN otherwise; the others are leaves or
    settled nodes, except CHANCE (dice to roll, whose children are the outcomes)."""

    MAX = 0
    MIN = 1
    CHANCE = 2
    LEAF = 3
    """Evaluated at the horizon (the static evaluation)."""
    QUIESCENCE = 4
    """A node of the quiescence search below the horizon."""
    TERMINAL = 5
    """The game is over here (its utility), or a draw by repetition."""
    TT_CUT = 6
    """Settled by a transposition-table entry, without searching its children."""
    SOLVER = 7
    """Settled by the game's exact solver (Othello's endgame, checkers' databases)."""
    STATIC_CUT = 8
    """Cut by a heuristic before searching its children (null move, reverse futility)."""

    @property
    def is_decision(self) -> bool:
        return self in (NodeKind.MAX, NodeKind.MIN)

    def __str__(self) -> str:
        return self.name.lower().replace("_", " ")


@dataclass(frozen=True)
class TreeOptions:
    """How much of the tree to record. Past ``cap`` nodes in one pass the recorder keeps
    the top ``whole_plies`` plies whole and samples the deeper nodes (their counts are kept
    in ``unrecorded`` of the nearest recorded ancestor, so sizes still add up)."""

    cap: int = 100_000
    whole_plies: int = 3
    batch_seconds: float = 0.1
    """How often a batch is sent while the search runs (about ten times a second)."""


@dataclass(frozen=True)
class TreePass:
    """The start of one pass: a call of the search at the root."""

    number: int
    """0, 1, 2 ... in the order the passes ran."""
    root: int
    """The ``index`` of the pass's root node."""
    iteration: int
    """The nominal depth of the iteration this pass belongs to (1 for a single search)."""
    alpha: float
    beta: float
    """The root window, root player's view."""
    scale: float = 1.0
    label: str = ""
    """Why the pass ran, in words: "" (the iteration), "aspiration re-search", "MTD(f) probe"."""


@dataclass(frozen=True)
class NodeEntry:
    """A node entered: ``index`` is its visit number in the whole search."""

    index: int
    parent: int
    move: Move
    """The move (or chance outcome) from the parent; ``None`` for a root or a null move."""
    depth: float
    """Plies left (may be fractional for the chance family's probes); 0 at the horizon."""
    kind: NodeKind
    alpha: float
    beta: float
    probability: float = 1.0
    """Below a chance node: the outcome's probability; 1 elsewhere."""


@dataclass(frozen=True)
class NodeExit:
    """A node left with ``value`` (exact or a bound, root player's view)."""

    index: int
    value: float
    bound: Bound
    kind: NodeKind
    unrecorded: int = 0
    """Nodes below this one the search visited but the recorder did not keep (past the cap)."""


@dataclass(frozen=True)
class Cut:
    """At node ``index`` the move ``move`` failed high: ``skipped`` were never searched."""

    index: int
    move: Move
    skipped: tuple[Move, ...]


@dataclass(frozen=True)
class TreeBatch:
    """The records of a stretch of search, in visit order, as the pool's event channel
    carries them (about ten a second). ``complete`` is set on the last batch of a search."""

    search_id: int
    passes: tuple[TreePass, ...] = ()
    entries: tuple[NodeEntry, ...] = ()
    exits: tuple[NodeExit, ...] = ()
    cuts: tuple[Cut, ...] = ()
    nodes: int = 0
    """Nodes the search had counted when the batch was made (for the recorded share)."""
    helper_nodes: int = 0
    """Lazy SMP: nodes the helper workers searched, whose trees are not recorded."""
    sampled: bool = False
    """The cap was reached: deeper nodes are sampled from here on."""
    complete: bool = False


@dataclass
class TreeNode:
    """One node of a ``SearchTree`` (mutable: its exit arrives after its children)."""

    index: int
    parent: int
    move: Move
    depth: float
    kind: NodeKind
    alpha: float
    beta: float
    probability: float = 1.0
    value: float = math.nan
    """NaN until the node is left (a search stopped inside it never leaves it)."""
    bound: Bound = Bound.EXACT
    children: list[int] = field(default_factory=list)
    cut_move: Move = None
    skipped: tuple[Move, ...] = ()
    unrecorded: int = 0
    pass_number: int = 0

    @property
    def is_open(self) -> bool:
        """Entered and not yet left."""
        return math.isnan(self.value)

    @property
    def was_cut(self) -> bool:
        return bool(self.skipped) or self.cut_move is not None


class SearchTree:
    """The tree put together from batches, in the process that shows it. Nodes are kept
    by visit number, so replaying the search is walking ``nodes`` in order."""

    def __init__(self) -> None:
        self.nodes: list[TreeNode] = []
        self.passes: list[TreePass] = []
        self.searched_nodes = 0
        self.helper_nodes = 0
        self.sampled = False
        self.complete = False
        self._by_index: dict[int, TreeNode] = {}

    # ---------------------------------------------------------------- building
    def add(self, batch: TreeBatch) -> None:
        """Take in one batch (batches of one search, in the order they were sent)."""
        self.passes.extend(batch.passes)
        for entry in batch.entries:
            node = TreeNode(
                entry.index, entry.parent, entry.move, entry.depth, entry.kind,
                entry.alpha, entry.beta, entry.probability,
                pass_number=self.passes[-1].number if self.passes else 0,
            )
            self.nodes.append(node)
            self._by_index[entry.index] = node
            parent = self._by_index.get(entry.parent)
            if parent is not None:
                parent.children.append(entry.index)
        for left in batch.exits:
            node = self._by_index.get(left.index)
            if node is not None:
                node.value = left.value
                node.bound = left.bound
                node.kind = left.kind
                node.unrecorded = left.unrecorded
        for cut in batch.cuts:
            node = self._by_index.get(cut.index)
            if node is not None:
                node.cut_move = cut.move
                node.skipped = cut.skipped
        self.searched_nodes = max(self.searched_nodes, batch.nodes)
        self.helper_nodes = max(self.helper_nodes, batch.helper_nodes)
        self.sampled = self.sampled or batch.sampled
        self.complete = self.complete or batch.complete

    # ---------------------------------------------------------------- reading
    def __len__(self) -> int:
        return len(self.nodes)

    def node(self, index: int) -> TreeNode:
        return self._by_index[index]

    def __contains__(self, index: int) -> bool:
        return index in self._by_index

    def roots(self) -> list[TreeNode]:
        """The root node of every pass, in pass order."""
        return [self._by_index[p.root] for p in self.passes if p.root in self._by_index]

    def children(self, index: int) -> list[TreeNode]:
        return [self._by_index[child] for child in self._by_index[index].children]

    def path(self, index: int) -> list[TreeNode]:
        """The nodes from the pass's root down to ``index``."""
        path = []
        node: TreeNode | None = self._by_index[index]
        while node is not None:
            path.append(node)
            node = self._by_index.get(node.parent)
        path.reverse()
        return path

    def moves_to(self, index: int) -> list[Move]:
        """The moves (and chance outcomes) from the pass's root to ``index``."""
        return [node.move for node in self.path(index)[1:]]

    def subtree(self, index: int) -> Iterator[TreeNode]:
        """``index`` and its recorded descendants, depth first in visit order."""
        stack = [index]
        while stack:
            node = self._by_index[stack.pop()]
            yield node
            stack.extend(reversed(node.children))

    def size(self, index: int) -> int:
        """Nodes the search visited in this subtree: recorded ones plus ``unrecorded``."""
        return sum(1 + node.unrecorded for node in self.subtree(index))

    def pass_nodes(self, number: int) -> int:
        """Nodes the search visited in pass ``number``."""
        root = self.passes[number].root
        return self.size(root) if root in self._by_index else 0

    def principal_variation(self, index: int) -> list[TreeNode]:
        """From ``index`` down, at each decision node the child whose exact value is the
        node's value (the line the values came from); stops where no child matches."""
        line = []
        node = self._by_index[index]
        while node.children and node.kind.is_decision:
            match = None
            for child in self.children(node.index):
                if child.value == node.value and not child.is_open:
                    match = child
                    break
            if match is None:
                break
            line.append(match)
            node = match
        return line
