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

import bisect
import dataclasses
import math
import operator
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from typing import Any, Final

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

    @property
    def symbol(self) -> str:
        """The kind as one character, as every view of the tree draws and names it (the
        lecture notes' ▲ and ▼ for MAX and MIN): ``KIND_SYMBOLS``."""
        return KIND_SYMBOLS[self]

    @property
    def short_name(self) -> str:
        """The kind in a word or two, for legends: ``KIND_NAMES``."""
        return KIND_NAMES[self]


KIND_SYMBOLS: dict[NodeKind, str] = {
    NodeKind.MAX: "▲",
    NodeKind.MIN: "▼",
    NodeKind.CHANCE: "●",
    NodeKind.LEAF: "□",
    NodeKind.TERMINAL: "■",
    NodeKind.QUIESCENCE: "◇",
    NodeKind.TT_CUT: "T",
    NodeKind.SOLVER: "S",
    NodeKind.STATIC_CUT: "H",
}
"""One symbol per kind, told apart without colour; the tree's views draw and name kinds so."""
KIND_NAMES: dict[NodeKind, str] = {
    NodeKind.MAX: "MAX",
    NodeKind.MIN: "MIN",
    NodeKind.CHANCE: "chance",
    NodeKind.LEAF: "leaf",
    NodeKind.TERMINAL: "game over",
    NodeKind.QUIESCENCE: "quiescence",
    NodeKind.TT_CUT: "table cut",
    NodeKind.SOLVER: "solver",
    NodeKind.STATIC_CUT: "static cut",
}
"""The kinds' names in the tree's legends."""


@dataclass(frozen=True)
class TreeOptions:
    """How much of the tree to record. Past ``cap`` nodes in one pass the recorder keeps
    the top ``whole_plies`` plies whole and samples the deeper nodes (their counts are kept
    in ``unrecorded`` of the nearest recorded ancestor, so sizes still add up)."""

    cap: int = 100_000
    whole_plies: int = 3
    batch_seconds: float = 0.1
    """How often a batch is sent while the search runs (about ten times a second)."""


class PassKind(StrEnum):
    """Why a pass ran: one member per reason, its value the words every view and the tree
    file use (a ``StrEnum``, so a member is its words wherever text is wanted)."""

    ITERATION = ""
    """An iteration of iterative deepening (or the one search): no words needed."""
    ASPIRATION_RESEARCH = "aspiration re-search"
    MTDF_PROBE = "MTD(f) probe"
    NEXT_BEST_LINE = "next best line"
    RESEARCH = "re-search"
    ROOT_SOLVE = "root solve"
    """Nodes the engine counted outside any call at the root (Othello's exact root solve)."""


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
    label: PassKind = PassKind.ITERATION
    """Why the pass ran (``PassKind``: its value is the words, "" for an iteration)."""


@dataclass(slots=True)
class NodeEntry:
    """A node entered: ``index`` is its visit number in the whole search.

    The records are made in the search's hot loop, one or two a node: plain slotted
    dataclasses, read-only by agreement (a frozen one's ``__init__`` sets each field through
    ``object.__setattr__``: 0.94 us against 0.21 us a record)."""

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


@dataclass(slots=True)
class NodeExit:
    """A node left with ``value`` (exact or a bound, root player's view)."""

    index: int
    value: float
    bound: Bound
    kind: NodeKind
    unrecorded: int = 0
    """Nodes below this one the search visited but the recorder did not keep (past the cap)."""


@dataclass(slots=True)
class Cut:
    """At node ``index`` the move ``move`` failed high: ``skipped`` were never searched."""

    index: int
    move: Move
    skipped: tuple[Move, ...]


@dataclass(frozen=True)
class TreeBatch:
    """The records of a stretch of search, in visit order, as the pool's event channel
    carries them (about ten a second). ``complete`` is set on the last batch of a search.

    A pass (``TreePass``) travels in the batch that holds its root's entry, and a node's
    exit and cut never before its entry."""

    search_id: int
    passes: tuple[TreePass, ...] = ()
    entries: tuple[NodeEntry, ...] = ()
    exits: tuple[NodeExit, ...] = ()
    cuts: tuple[Cut, ...] = ()
    nodes: int = 0
    """Nodes the recording search (worker ``worker``) had counted when the batch was made."""
    helper_nodes: int = 0
    """Lazy SMP: nodes the helper workers searched, whose trees are not recorded."""
    sampled: bool = False
    """The cap was reached: deeper nodes are sampled from here on."""
    complete: bool = False
    worker: int = 0
    """Which recording search sent it: 0, or a root split's part (each part searches a share
    of the root moves and numbers its own nodes from 0; ``SearchTree`` merges them)."""

    @property
    def records(self) -> int:
        return len(self.entries) + len(self.exits) + len(self.cuts)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled as rows of plain values, rebuilt by ``_unpickled_batch``: a pickled
        dataclass record costs several us to write and to read, all of it in one call that
        holds the interpreter (in the app, the pool's thread would stall the event loop for
        tens of milliseconds a batch); a row costs well under 1 us each way, and the records
        are rebuilt in Python, which lets other threads in."""
        return (
            _unpickled_batch,
            (
                self.search_id,
                self.passes,
                tuple(map(_ENTRY_ROW, self.entries)),
                tuple(map(_EXIT_ROW, self.exits)),
                tuple(map(_CUT_ROW, self.cuts)),
                self.nodes,
                self.helper_nodes,
                self.sampled,
                self.complete,
                self.worker,
            ),
        )

    def split(self, max_entries: int) -> list[TreeBatch]:
        """This batch as consecutive batches, which ``SearchTree.add`` takes in to the same
        tree: a receiver that must stay responsive (the app's event loop) takes in a large
        batch a slice at a time. The entries come first, at most ``max_entries`` a slice
        (each pass with its root's entry), then the exits, at most twice as many a slice, in
        their order (a node is left after everything below it), with the cuts in the last;
        ``complete`` stays on the last slice."""
        if max_entries < 1:
            raise ValueError(f"a slice needs room for at least 1 entry, not {max_entries}")
        exits_per_slice = 2 * max_entries
        if len(self.entries) <= max_entries and len(self.exits) <= exits_per_slice:
            return [self]
        entry_starts = range(0, len(self.entries), max_entries)
        passes: list[list[TreePass]] = [[] for _ in entry_starts] or [[]]
        firsts = [self.entries[at].index for at in entry_starts]
        for tree_pass in self.passes:
            passes[max(0, bisect.bisect_right(firsts, tree_pass.root) - 1)].append(tree_pass)
        slices = [
            TreeBatch(self.search_id, tuple(passes[number]), self.entries[at : at + max_entries])
            for number, at in enumerate(entry_starts)
        ] or [TreeBatch(self.search_id, tuple(passes[0]))]
        exit_slices = [self.exits[at : at + exits_per_slice] for at in range(exits_per_slice, len(self.exits), exits_per_slice)]
        slices[-1] = dataclasses.replace(slices[-1], exits=self.exits[:exits_per_slice])
        slices.extend(TreeBatch(self.search_id, exits=exits) for exits in exit_slices)
        last = len(slices) - 1
        return [
            dataclasses.replace(
                piece,
                cuts=self.cuts if number == last else (),
                nodes=self.nodes,
                helper_nodes=self.helper_nodes,
                sampled=self.sampled,
                complete=self.complete and number == last,
                worker=self.worker,
            )
            for number, piece in enumerate(slices)
        ]


_ENTRY_FIELDS: Final = tuple(item.name for item in dataclasses.fields(NodeEntry))
_EXIT_FIELDS: Final = tuple(item.name for item in dataclasses.fields(NodeExit))
_CUT_FIELDS: Final = tuple(item.name for item in dataclasses.fields(Cut))
_ENTRY_ROW: Final = operator.attrgetter(*_ENTRY_FIELDS)
_EXIT_ROW: Final = operator.attrgetter(*_EXIT_FIELDS)
_CUT_ROW: Final = operator.attrgetter(*_CUT_FIELDS)


def _records(kind: type[Any], rows: tuple[tuple[Any, ...], ...]) -> tuple[Any, ...]:
    """Records of ``kind`` from rows of their fields' values."""
    return tuple([kind(*row) for row in rows])


def _unpickled_batch(
    search_id: int,
    passes: tuple[TreePass, ...],
    entries: tuple[tuple[Any, ...], ...],
    exits: tuple[tuple[Any, ...], ...],
    cuts: tuple[tuple[Any, ...], ...],
    nodes: int,
    helper_nodes: int,
    sampled: bool,
    complete: bool,
    worker: int,
) -> TreeBatch:
    """A ``TreeBatch`` from the rows ``TreeBatch.__reduce__`` made."""
    return TreeBatch(
        search_id,
        passes,
        _records(NodeEntry, entries),
        _records(NodeExit, exits),
        _records(Cut, cuts),
        nodes,
        helper_nodes,
        sampled,
        complete,
        worker,
    )


@dataclass(slots=True)
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
    visits: int = 1
    """How many times the search visited this node: 1, except at the root of a pass that a
    root split's workers searched together (each of them visited that root once)."""

    @property
    def is_open(self) -> bool:
        """Entered and not yet left."""
        return math.isnan(self.value)

    @property
    def was_cut(self) -> bool:
        return bool(self.skipped) or self.cut_move is not None

    @property
    def searched(self) -> int:
        """Nodes of the search this record stands for: its visits and the unrecorded
        nodes below it."""
        return self.visits + self.unrecorded


WORKER_SPAN: Final = 1 << 40
"""In a ``SearchTree``, node ``index`` of worker ``w`` is ``index + w * WORKER_SPAN``: each
root split worker numbers its nodes from 0, and the tree keeps them apart (worker 0's
numbers stay as they were sent)."""


@dataclass
class _PassRoot:
    """The root of a pass as the workers that share it leave it: it is left when every
    worker that entered it has left it, with the best of their values (the root is MAX)."""

    inside: int = 0
    best: NodeExit | None = None
    unrecorded: int = 0


class SearchTree:
    """The tree put together from batches, in the process that shows it. Nodes are kept
    by visit number, so replaying the search is walking ``nodes`` in order.

    The batches of a root split's workers (``TreeBatch.worker``) make one tree: the k-th
    pass of iteration d of every worker is one pass, whose root's children are the root
    moves of all of them, and whose root counts one visit per worker (``TreeNode.visits``),
    so that ``size`` of every root adds up to the nodes the workers counted."""

    def __init__(self) -> None:
        self.nodes: list[TreeNode] = []
        self.passes: list[TreePass] = []
        self.searched_nodes = 0
        """Nodes the recording searches counted (their latest ``TreeBatch.nodes``, summed)."""
        self.recorded_nodes = 0
        """Node visits recorded (every entry received): a root split's shared root counts
        once per worker, so with nothing sampled away this is ``searched_nodes`` where
        ``len(tree)`` is one less per shared root and pass."""
        self.helper_nodes = 0
        self.sampled = False
        self.complete = False
        self.cancelled = False
        """The search was cancelled before it answered (the position changed, a new search
        began): nothing more of it comes, and it is not ``complete``."""
        self._by_index: dict[int, TreeNode] = {}
        self._worker_nodes: dict[int, int] = {}
        self._pass_keys: dict[tuple[int, str, int], int] = {}
        """(iteration, label, how many such passes the worker ran before) -> pass number."""
        self._passes_seen: dict[tuple[int, int, str], int] = {}
        """(worker, iteration, label) -> passes of that kind the worker has sent."""
        self._pass_of_root: dict[int, int] = {}
        """A worker's pass root (tree index) -> its pass number."""
        self._shared_root: dict[int, int] = {}
        """A worker's pass root (tree index) -> the pass's root node, where another worker's."""
        self._pass_roots: dict[int, _PassRoot] = {}
        self._sizes: dict[int, int] = {}
        """The nodes below each node whose whole subtree has been left, settled when it is
        left (in a search's order everything below it was left before) or when first asked
        (``size``): a closed subtree's size then costs nothing however large it is."""

    # ---------------------------------------------------------------- building
    def add(self, batch: TreeBatch) -> None:
        """Take in one batch (batches of one search, each worker's in the order sent)."""
        worker = batch.worker
        offset = worker * WORKER_SPAN
        for tree_pass in batch.passes:
            self._add_pass(tree_pass, worker, offset)
        by_index = self._by_index
        shared = self._shared_root
        sizes = self._sizes
        self.recorded_nodes += len(batch.entries)
        for entry in batch.entries:
            index = entry.index + offset
            if entry.parent == ROOT_PARENT:
                self._enter_root(entry, index)
                continue
            parent_index = entry.parent + offset
            parent_index = shared.get(parent_index, parent_index)
            parent = by_index.get(parent_index)
            node = TreeNode(
                index, parent_index, entry.move, entry.depth, entry.kind,
                entry.alpha, entry.beta, entry.probability,
                pass_number=parent.pass_number if parent is not None else self._last_pass(),
            )
            self.nodes.append(node)
            by_index[index] = node
            if parent is not None:
                parent.children.append(index)
        for left in batch.exits:
            index = left.index + offset
            index = shared.get(index, index)
            left_node = by_index.get(index)
            if left_node is None:
                continue
            root = self._pass_roots.get(index)
            if root is not None:
                self._leave_root(left_node, root, left)
                if root.inside > 0:
                    continue
            else:
                left_node.value = left.value
                left_node.bound = left.bound
                left_node.kind = left.kind
                left_node.unrecorded = left.unrecorded
            below = 0
            for child in left_node.children:  # in a search's order all were left before it
                settled = sizes.get(child)
                if settled is None:
                    break
                child_node = by_index[child]
                below += child_node.visits + child_node.unrecorded + settled
            else:
                sizes[index] = below
        for cut in batch.cuts:
            index = cut.index + offset
            cut_node = by_index.get(shared.get(index, index))
            if cut_node is not None:
                cut_node.cut_move = cut.move
                cut_node.skipped = cut.skipped
        if batch.nodes > self._worker_nodes.get(worker, 0):
            self._worker_nodes[worker] = batch.nodes
            self.searched_nodes = sum(self._worker_nodes.values())
        self.helper_nodes = max(self.helper_nodes, batch.helper_nodes)
        self.sampled = self.sampled or batch.sampled
        self.complete = self.complete or batch.complete

    def _add_pass(self, tree_pass: TreePass, worker: int, offset: int) -> None:
        kind = (worker, tree_pass.iteration, tree_pass.label)
        before = self._passes_seen.get(kind, 0)
        self._passes_seen[kind] = before + 1
        key = (tree_pass.iteration, tree_pass.label, before)
        root = tree_pass.root + offset
        number = self._pass_keys.get(key)
        if number is None:
            number = len(self.passes)
            if tree_pass.number != number or root != tree_pass.root:
                tree_pass = dataclasses.replace(tree_pass, number=number, root=root)
            self.passes.append(tree_pass)
            self._pass_keys[key] = number
        else:
            self._shared_root[root] = self.passes[number].root
        self._pass_of_root[root] = number

    def _enter_root(self, entry: NodeEntry, index: int) -> None:
        number = self._pass_of_root.get(index, self._last_pass())
        index = self._shared_root.get(index, index)
        node = self._by_index.get(index)
        if node is not None:  # another worker's root of the same pass: one node
            node.visits += 1
            node.value = math.nan  # open again until this worker has left it too
            self._sizes.pop(index, None)
            self._pass_roots[index].inside += 1
            return
        node = TreeNode(
            index, ROOT_PARENT, entry.move, entry.depth, entry.kind,
            entry.alpha, entry.beta, entry.probability, pass_number=number,
        )
        self.nodes.append(node)
        self._by_index[index] = node
        self._pass_roots[index] = _PassRoot(inside=1)

    @staticmethod
    def _leave_root(node: TreeNode, root: _PassRoot, left: NodeExit) -> None:
        root.inside -= 1
        root.unrecorded += left.unrecorded
        if root.best is None or left.value > root.best.value:
            root.best = left
        node.unrecorded = root.unrecorded
        if root.inside <= 0:
            node.value = root.best.value
            node.bound = root.best.bound
            node.kind = root.best.kind

    def _last_pass(self) -> int:
        return self.passes[-1].number if self.passes else 0

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
        """Nodes the search visited in this subtree: recorded ones (a shared root once per
        worker) plus ``unrecorded``. O(1) once the subtree has been left."""
        node = self._by_index[index]
        below = self._sizes.get(index)
        if below is None:
            below = self._count_below(index)
        return node.visits + node.unrecorded + below

    def _count_below(self, index: int) -> int:
        """The nodes below ``index``, counted children first; kept for every node whose
        whole subtree has been left (its count can no longer change)."""
        by_index, sizes = self._by_index, self._sizes
        below: dict[int, int] = {}
        closed: dict[int, bool] = {}
        stack = [(index, False)]
        while stack:
            at, children_done = stack.pop()
            node = by_index[at]
            if not children_done:
                stack.append((at, True))
                stack.extend((child, False) for child in node.children if child not in sizes)
                continue
            count, is_closed = 0, not node.is_open
            for child in node.children:
                child_node = by_index[child]
                settled = sizes.get(child)
                if settled is None:
                    settled = below[child]
                    is_closed = is_closed and closed[child]
                count += child_node.visits + child_node.unrecorded + settled
            below[at], closed[at] = count, is_closed
            if is_closed:
                sizes[at] = count
        return below[index]

    def total_nodes(self) -> int:
        """Nodes the search visited in all passes: its node count, when every node was
        recorded and the search has ended (``complete``), less ``helper_nodes``."""
        return sum(self.pass_nodes(tree_pass.number) for tree_pass in self.passes)

    def pass_nodes(self, number: int) -> int:
        """Nodes the search visited in pass ``number``."""
        root = self.passes[number].root
        return self.size(root) if root in self._by_index else 0

    def cut_child(self, index: int) -> TreeNode | None:
        """The child of ``index`` whose move caused its cut-off (the last one searched with
        that move: a re-search after a null-window probe), or ``None``."""
        node = self._by_index[index]
        if not node.was_cut:
            return None
        for child_index in reversed(node.children):
            child = self._by_index[child_index]
            if child.move == node.cut_move:
                return child
        return None

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
