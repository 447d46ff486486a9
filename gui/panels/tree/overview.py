"""The whole-tree overview: a pass of the recorded search as an icicle.

Each node is a block as wide as its subtree (``SearchTree.size``: the nodes the search
visited below it, recorded or not), its children side by side beneath it in visit order, one
row per ply; the colour says what the node is (MAX, MIN, chance, leaf, quiescence, table cut
...), a bar at a block's right end that it had a cut-off. The node's own visit takes the left
end of its block; below it, the nodes under it that were not recorded (sampled past the cap)
are a hatched stretch.

At the right, each ply's cut-off share: of the ply's nodes whose search can stop early (MAX
and MIN nodes, and chance nodes, which Star1 and Star2 cut), the share whose search stopped at
a cut-off, and how many moves (or outcomes) those cut-offs left unsearched: the branches
pruned away below that ply.

It stays responsive on a 100,000-node tree that grows while the search runs:

* ``IcicleLayout`` reads the tree incrementally (``ai.tree.replay.TreeWalk``: each node once,
  its size settled when its subtree is over), a chunk per timer tick, never per batch;
* a block narrower than a pixel is never drawn on its own: neighbouring narrow siblings are
  drawn as one block (a *run*) with one stippled shade under it down to the deepest ply their
  subtrees reach, so at most a width's worth of rectangles is drawn per row;
* the picture is painted into a cached ``QImage``; the blocks are placed again only when the
  tree, the size, the pass or the zoom changed, and only repainted when a replay's step fades
  the nodes it has not reached;
* a new picture is made off the paint event, a slice per event-loop turn (``PLACE_STEP``
  blocks placed, ``PAINT_STEP`` rectangles filled), into an image of its own that replaces
  the shown one when it is whole: no turn of the app's loop waits for a whole picture, and
  the tree is not read on while a picture is being made (its blocks stay of one tree).

A click chooses the node under the pointer (``node_chosen``), a double click zooms into its
subtree, a right click (or Backspace) zooms back out.
"""

from __future__ import annotations

import bisect
import math
from array import array
import time
from collections.abc import Generator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from PySide6.QtCore import QEvent, QRect, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetrics,
    QHelpEvent,
    QImage,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
    QResizeEvent,
    QShowEvent,
)
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from ai.tree.model import KIND_NAMES, KIND_SYMBOLS, NodeKind, SearchTree, TreeNode
from ai.tree.replay import TreeWalk, TreeWords, kind_word, side_of
from games.base import GameState
from gui.panels.display import LineNamer, MoveNamer
from gui.theme import LIGHT, Theme

REFRESH_MS = 500
"""How often a growing tree is read and redrawn (at most two pictures a second: an overview
need not follow the search closer, and placing the blocks is the tab's largest cost)."""
CATCH_UP_MS = 0
"""The pause between chunks while a large tree is being read: none, the next turn of the
app's loop (the events waiting run first, so the app keeps running)."""
CHUNK = 1_000
"""Nodes read per turn of the app's loop: about 3 ms of work."""
PICTURE_WAIT_MS = 5
"""While a picture is being made, how often the reading looks whether it may go on."""
PLACE_STEP = 500
"""Blocks placed (and children looked at) per turn while a picture is made: about 3 ms."""
PAINT_STEP = 2_000
"""Rectangles filled per turn while a picture is made (a label counts as ``LABEL_COST``)."""
LABEL_COST = 40
"""A label's text costs about as much as this many filled rectangles."""
MIN_BLOCK = 1.0
"""A block narrower than this (pixels) is drawn together with its narrow neighbours."""
LABEL_MIN_WIDTH = 20.0
"""A block at least this wide gets its move written in it, if the move fits."""
MAX_ROW_HEIGHT = 32.0
MIN_ROW_HEIGHT = 3.0
MARGIN = 4.0
GAP = 1.0
"""The line between neighbouring blocks, in the background colour (blocks this wide and more)."""
CUT_MARK = 2.0
"""A node with a cut-off has a bar this wide at the right end of its block."""
FADED_ALPHA = 60
"""Nodes the replay has not reached yet: drawn this opaque (of 255)."""
SWATCH = 10.0
SIDE_LENGTHS = 4
"""The per-ply line comes at this many lengths (``IcicleView._side_texts``)."""


@dataclass(frozen=True)
class KindColours:
    """The colour of each node kind, chosen to stand apart for colour-blind readers too
    (Okabe and Ito's palette) on the panel's background."""

    colours: dict[NodeKind, str]

    def color(self, kind: NodeKind) -> QColor:
        return QColor(self.colours[kind])


LIGHT_KIND_COLOURS = KindColours({
    NodeKind.MAX: "#3573b9",
    NodeKind.MIN: "#d55e00",
    NodeKind.CHANCE: "#8e6bbf",
    NodeKind.LEAF: "#cfc6ad",
    NodeKind.QUIESCENCE: "#e3c04a",
    NodeKind.TERMINAL: "#6b6b6b",
    NodeKind.TT_CUT: "#009e73",
    NodeKind.SOLVER: "#56b4e9",
    NodeKind.STATIC_CUT: "#cc79a7",
})
DARK_KIND_COLOURS = KindColours({
    NodeKind.MAX: "#5b93d6",
    NodeKind.MIN: "#e07a3f",
    NodeKind.CHANCE: "#a98ad6",
    NodeKind.LEAF: "#8d8671",
    NodeKind.QUIESCENCE: "#c9a93a",
    NodeKind.TERMINAL: "#b0b0b0",
    NodeKind.TT_CUT: "#34b98c",
    NodeKind.SOLVER: "#62bde8",
    NodeKind.STATIC_CUT: "#d68ab6",
})


def kind_colours(theme: Theme) -> KindColours:
    """The node kinds' colours for ``theme`` (light or dark)."""
    return DARK_KIND_COLOURS if theme.is_dark else LIGHT_KIND_COLOURS


def kind_colour(kind: NodeKind, theme: Theme) -> QColor:
    return kind_colours(theme).color(kind)




# ---------------------------------------------------------------------- layout
CAN_CUT = frozenset((NodeKind.MAX, NodeKind.MIN, NodeKind.CHANCE))
"""The kinds whose search can stop at a cut-off (chance nodes in Star1 and Star2)."""

@dataclass
class PlyCounts:
    """What happened at one ply of a pass (ply 0: its root)."""

    ply: int
    nodes: int = 0
    """Recorded nodes at this ply."""
    can_cut: int = 0
    """MAX, MIN and chance nodes: the nodes whose search can stop at a cut-off."""
    cut: int = 0
    """Nodes whose search stopped at a cut-off."""
    pruned: int = 0
    """Moves those cut-offs left unsearched."""

    @property
    def cut_share(self) -> float:
        """The share of the ply's ``can_cut`` nodes that had a cut-off (0 when there are none)."""
        return self.cut / self.can_cut if self.can_cut else 0.0


class PassCounts:
    """Per-ply counts of one pass, kept flat (one list per count) for speed: a node is
    counted once, when its subtree is over."""

    def __init__(self) -> None:
        self.nodes: list[int] = []
        self.can_cut: list[int] = []
        self.cut: list[int] = []
        self.pruned: list[int] = []
        self.kinds: dict[NodeKind, int] = {}

    def add(self, node: TreeNode, level: int) -> None:
        if level >= len(self.nodes):
            grow = level + 1 - len(self.nodes)
            for column in (self.nodes, self.can_cut, self.cut, self.pruned):
                column.extend([0] * grow)
        self.nodes[level] += 1
        kind = node.kind
        self.kinds[kind] = self.kinds.get(kind, 0) + 1
        if kind in CAN_CUT:
            self.can_cut[level] += 1
            if node.skipped or node.cut_move is not None:
                self.cut[level] += 1
                self.pruned[level] += len(node.skipped)

    def plies(self) -> list[PlyCounts]:
        return [
            PlyCounts(level, self.nodes[level], self.can_cut[level], self.cut[level], self.pruned[level])
            for level in range(len(self.nodes))
        ]


class IcicleLayout:
    """Sizes, plies and per-ply counts of a ``SearchTree``, kept up to date as it grows.

    Positions are indices into ``tree.nodes``. A node's size (its visits, the nodes below it
    that were not recorded, and its children's sizes) is settled when its subtree is over, so
    each node is handled once; the few nodes still open (the path the search is on) are
    summed afresh by ``settle_open`` after each read.
    """

    def __init__(self, tree: SearchTree) -> None:
        self.tree = tree
        self.level = array("l")
        self.deepest = array("l")
        """The deepest ply in the node's subtree (so far)."""
        self._size = array("q")
        self._closed = bytearray()
        self._parent = array("l")
        self._children: dict[int, list[int]] = {}
        self._walk = TreeWalk(tree, self._enter, self._close)
        self._counts: dict[int, PassCounts] = {}
        self._open_size: dict[int, int] = {}
        self._open_deepest: dict[int, int] = {}
        self._open_counts: dict[int, PassCounts] = {}

    @property
    def position_of(self) -> dict[int, int]:
        return self._walk.position_of

    @property
    def read(self) -> int:
        return self._walk.read

    @property
    def is_caught_up(self) -> bool:
        return self._walk.is_caught_up

    def advance(self, limit: int | None = None) -> int:
        """Read up to ``limit`` more nodes; then settle the open ones."""
        read = self._walk.advance(limit)
        if (self.tree.complete or self.tree.cancelled) and self._walk.is_caught_up:
            self._walk.close_all()
        self.settle_open()
        return read

    def _enter(self, position: int, parent: int) -> None:
        level = self.level[parent] + 1 if parent >= 0 else 0
        self.level.append(level)
        self.deepest.append(level)
        self._size.append(0)
        self._closed.append(0)
        self._parent.append(parent)

    def _close(self, position: int, parent: int) -> None:
        node = self.tree.nodes[position]
        size = self._size[position] + node.visits + node.unrecorded
        self._size[position] = size
        self._closed[position] = 1
        if parent >= 0:
            self._size[parent] += size
            if self.deepest[position] > self.deepest[parent]:
                self.deepest[parent] = self.deepest[position]
        counts = self._counts.get(node.pass_number)
        if counts is None:
            counts = self._counts[node.pass_number] = PassCounts()
        counts.add(node, self.level[position])

    def settle_open(self) -> None:
        """The sizes, depths and counts of the nodes still open (children's share included)."""
        self._open_size.clear()
        self._open_deepest.clear()
        self._open_counts = {}
        nodes = self.tree.nodes
        root = self._walk.root
        for stack in self._walk.stacks():
            below, deepest = 0, -1
            for position in reversed(stack):
                node = nodes[position]
                below += self._size[position] + node.visits + node.unrecorded
                deepest = max(deepest, self.deepest[position])
                self._open_size[position] = below
                self._open_deepest[position] = deepest
                self._count_open(position)
            if root is not None and stack:
                self._open_size[root] = self._open_size.get(root, 0) + below
                self._open_deepest[root] = max(self._open_deepest.get(root, 0), deepest)
        if root is not None:
            node = nodes[root]
            self._open_size[root] = self._open_size.get(root, 0) + self._size[root] + node.visits + node.unrecorded
            self._open_deepest[root] = max(self._open_deepest.get(root, 0), self.deepest[root])
            self._count_open(root)

    def _count_open(self, position: int) -> None:
        node = self.tree.nodes[position]
        self._open_counts.setdefault(node.pass_number, PassCounts()).add(node, self.level[position])

    # ------------------------------------------------------------------ reading
    def size(self, position: int) -> int:
        """Nodes the search visited in the subtree (as read so far)."""
        if self._closed[position]:
            return self._size[position]
        return self._open_size.get(position, self._size[position] + 1)

    def deepest_level(self, position: int) -> int:
        if self._closed[position]:
            return self.deepest[position]
        return self._open_deepest.get(position, self.deepest[position])

    def parent(self, position: int) -> int:
        """The parent's position (-1 for a pass's root)."""
        return self._parent[position]

    def children(self, position: int) -> list[int]:
        """The positions of the node's children read so far, in visit order (kept once the
        node is closed: its children are then all known)."""
        found = self._children.get(position)
        if found is not None:
            return found
        position_of = self._walk.position_of
        found = []
        for index in self.tree.nodes[position].children:
            child = position_of.get(index)
            if child is None:
                break  # children are read in visit order: the rest are not yet
            found.append(child)
        if self._closed[position]:
            self._children[position] = found
        return found

    def sizes(self) -> tuple[array, bytearray, dict[int, int]]:
        """The settled sizes, which positions are settled, and the open nodes' sizes: for a
        loop that reads many (``size`` for one)."""
        return self._size, self._closed, self._open_size

    def depths(self) -> tuple[array, dict[int, int]]:
        """The settled deepest plies and the open nodes' (``deepest_level`` for one)."""
        return self.deepest, self._open_deepest

    def ply_counts(self, pass_number: int) -> list[PlyCounts]:
        """The per-ply counts of a pass, the open nodes included."""
        closed = self._counts.get(pass_number, PassCounts()).plies()
        opened = self._open_counts.get(pass_number, PassCounts()).plies()
        merged = []
        for level in range(max(len(closed), len(opened))):
            counts = PlyCounts(level)
            for source in (closed, opened):
                if level < len(source):
                    part = source[level]
                    counts.nodes += part.nodes
                    counts.can_cut += part.can_cut
                    counts.cut += part.cut
                    counts.pruned += part.pruned
            merged.append(counts)
        return merged

    def kinds(self, pass_number: int) -> dict[NodeKind, int]:
        """Recorded nodes of each kind in a pass."""
        found = dict(self._counts.get(pass_number, PassCounts()).kinds)
        for kind, count in self._open_counts.get(pass_number, PassCounts()).kinds.items():
            found[kind] = found.get(kind, 0) + count
        return found


# ---------------------------------------------------------------------- blocks
class Swatch(Enum):
    """How a legend entry is drawn."""

    FILL = "fill"
    CUT_BAR = "cut bar"
    SHADE = "shade"
    HATCH = "hatch"


@dataclass(frozen=True)
class LegendItem:
    text: str
    colour: QColor
    swatch: Swatch = Swatch.FILL


@dataclass(frozen=True, slots=True)
class Block:
    """A drawn rectangle: one node, or a run of narrow siblings drawn as one."""

    left: float
    right: float
    row: int
    position: int
    """The node's position (the first node of a run)."""
    count: int = 1
    """Nodes in the run (1: a node of its own)."""
    parent: int = -1
    """For a run: the parent's position (to find the node under a point)."""


@dataclass
class Picture:
    """What one rendering drew, for hit tests and the tests' counts."""

    rows: list[list[Block]] = field(default_factory=list)
    by_position: dict[int, Block] = field(default_factory=dict)
    rectangles: int = 0
    """Blocks, runs, the shades under runs and the hatches of unrecorded nodes drawn."""
    runs: int = 0
    row_height: float = 0.0
    top: float = 0.0
    plot: QRectF = field(default_factory=QRectF)

    def row_at(self, y: float) -> int | None:
        if self.row_height <= 0 or y < self.top:
            return None
        row = int((y - self.top) // self.row_height)
        return row if row < len(self.rows) else None

    def block_at(self, x: float, y: float) -> Block | None:
        row = self.row_at(y)
        if row is None:
            return None
        blocks = self.rows[row]
        at = bisect.bisect_right([block.left for block in blocks], x) - 1
        if at >= 0 and blocks[at].left <= x < max(blocks[at].right, blocks[at].left + MIN_BLOCK):
            return blocks[at]
        return None


@dataclass
class Placement:
    """Where a rendering puts its blocks (kept while only their colours change)."""

    picture: Picture
    fills: list[tuple[QRect, NodeKind, int]] = field(default_factory=list)
    """Each block (a node or a run) with its kind and visit index."""
    cut_bars: list[QRect] = field(default_factory=list)
    shades: list[QRect] = field(default_factory=list)
    hatches: list[QRectF] = field(default_factory=list)
    labels: list[tuple[QRectF, int]] = field(default_factory=list)
    """Blocks wide enough for their move, with the node's position."""


class Work(Enum):
    """What a turn of the app's loop spends on the overview, counted in units of work."""

    READ = "nodes read"
    PLACE = "blocks placed and children looked at"
    PAINT = "rectangles filled (a label counts as LABEL_COST)"


Steps = Generator[tuple[Work, int], None, Any]
"""Work done a slice at a time: yields what a slice did, returns the result at the end."""


@dataclass
class TurnWork:
    """The most work of each kind one turn of the app's loop did on the overview, and how
    many turns made pictures: what keeps the app responsive on a 100,000-node tree."""

    most: dict[Work, int] = field(default_factory=lambda: dict.fromkeys(Work, 0))
    total: dict[Work, int] = field(default_factory=lambda: dict.fromkeys(Work, 0))
    turns: int = 0
    """Turns that made a slice of a picture."""

    def note(self, work: Work, units: int) -> None:
        self.total[work] += units
        if units > self.most[work]:
            self.most[work] = units


def finish(steps: Steps) -> Any:
    """Do all of ``steps`` at once; their result."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


class Rendering:
    """A picture being made a slice per turn into an image of its own (``step``), shown
    once it is whole. The painter is active only during a slice (an image is never left
    being painted between turns)."""

    def __init__(
        self, image: QImage, painter: QPainter, font: QFont, steps: Steps, key: tuple[Any, ...], shape: int
    ) -> None:
        self.image = image
        self.painter = painter
        self.font = font
        self.steps = steps
        self.key = key
        """(width, height, pixel ratio, generation) the picture is made for."""
        self.shape = shape
        """The shape generation its blocks are placed for."""
        self.picture: Picture | None = None

    def step(self, work: TurnWork) -> bool:
        """Make the next slice; True when the picture is whole."""
        done = dict.fromkeys(Work, 0)
        self.painter.begin(self.image)
        self.painter.setFont(self.font)
        try:
            kind, units = next(self.steps)
            done[kind] += units
        except StopIteration as finished:
            self.picture = finished.value
        self.painter.end()
        work.turns += 1
        for kind, units in done.items():
            work.note(kind, units)
        return self.picture is not None

    def drop(self) -> None:
        """Give up the picture (it would show an old shape)."""
        if self.picture is None:
            self.steps.close()


class IcicleView(QWidget):
    """One pass of the recorded tree as an icicle; ``node_chosen(index)`` on a click."""

    node_chosen = Signal(int)
    zoom_changed = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._tree: SearchTree | None = None
        self._layout: IcicleLayout | None = None
        self._pass_wanted: int | None = None
        self._zoom: list[int] = []
        """Visit indices zoomed into, outermost first (empty: the pass's root)."""
        self._theme: Theme = LIGHT
        self._words = TreeWords()
        self._visited_through: int | None = None
        self._marked: int | None = None
        """A node drawn with a frame (the replay's node or the chosen one)."""
        self._image: QImage | None = None
        self._image_key: tuple[Any, ...] | None = None
        self._generation = 0
        """Bumped by every change that needs a new picture."""
        self._shape_generation = 0
        """Bumped by the changes that move blocks (the tree, the pass, the zoom); a replay's
        step or a theme only repaints the placed blocks."""
        self._placement: Placement | None = None
        self._placement_key: tuple[Any, ...] | None = None
        self._seen: tuple[int, int, bool, int] | None = None
        """What the tree was at the last reading (nodes read, passes, complete, counted)."""
        self._picture = Picture()
        """The blocks of the shown image (what a click or a tooltip points at)."""
        self.renders = 0
        """Pictures rendered (for the tests: a picture per change, not per batch)."""
        self.placements = 0
        """Times the blocks were placed (a replay's step repaints them without placing)."""
        self.work = TurnWork()
        """The most each turn of the app's loop did here (for the tests: a big tree in slices)."""
        self._rendering: Rendering | None = None
        self._reshaped_at = 0.0
        """When the tree's growth last asked for a new picture (``time.monotonic``)."""
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._refresh)
        self._render_timer = QTimer(self)
        self._render_timer.setSingleShot(True)
        self._render_timer.timeout.connect(self._render_step)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(240, 120)
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        return QSize(480, 260)

    # ----------------------------------------------------------------- contents
    def set_tree(self, tree: SearchTree | None, pass_number: int | None = None) -> None:
        """Show ``tree`` (pass ``pass_number``; ``None``: always its latest). The same tree
        again means it grew: it is read on the next tick, not now."""
        changed = tree is not self._tree or pass_number != self._pass_wanted
        if tree is not self._tree:
            self._tree = tree
            self._layout = IcicleLayout(tree) if tree is not None else None
            self._marked = None
            self._visited_through = None
        if changed:
            self._pass_wanted = pass_number
            self._zoom = []
            self._reshaped()
        if tree is not None and not self._timer.isActive():
            self._timer.start(0 if self._layout is not None and self._layout.read == 0 else REFRESH_MS)

    def clear(self) -> None:
        self.set_tree(None)

    @property
    def tree(self) -> SearchTree | None:
        return self._tree

    @property
    def layout_model(self) -> IcicleLayout | None:
        return self._layout

    def set_root(self, root_state: GameState | None) -> None:
        """The position the search started from: it names the moves and the game's units."""
        self._words = TreeWords(root_state, self._words.line_texts)
        self._changed()

    def set_move_namer(
        self,
        move_text: MoveNamer | None,
        line_texts: LineNamer | None = None,
    ) -> None:
        """Name moves as the board labels them (``board.line_texts``); ``None``: the game's
        notation. ``move_text`` is accepted for the panels' common call and not needed."""
        self._words = TreeWords(self._words.root, line_texts)
        self._changed()

    def set_theme(self, theme: Theme) -> None:
        self._theme = theme
        self._changed()

    def set_visited_through(self, index: int | None) -> None:
        """Replay: nodes after visit ``index`` are faded (``None``: none is)."""
        if index != self._visited_through:
            self._visited_through = index
            self._changed()

    def set_marked(self, index: int | None) -> None:
        """Frame node ``index`` (the replay's node, or the node shown elsewhere)."""
        if index != self._marked:
            self._marked = index
            self.update()

    def refresh_now(self) -> None:
        """Read everything recorded so far at once (tests; a finished tree shown once)."""
        if self._layout is not None:
            self._layout.advance()
        self._seen = None
        self._reshaped()

    # --------------------------------------------------------------- the pass
    def shown_pass(self) -> int | None:
        if self._tree is None or not self._tree.passes:
            return None
        if self._pass_wanted is not None and 0 <= self._pass_wanted < len(self._tree.passes):
            return self._pass_wanted
        return len(self._tree.passes) - 1

    def top_position(self) -> int | None:
        """The position drawn at the top: the zoomed node, else the shown pass's root."""
        layout = self._layout
        if layout is None:
            return None
        if self._zoom:
            position = layout.position_of.get(self._zoom[-1])
            if position is not None:
                return position
        number = self.shown_pass()
        if number is None or self._tree is None:
            return None
        return layout.position_of.get(self._tree.passes[number].root)

    def zoom_to(self, index: int | None) -> None:
        """Show the subtree of node ``index`` (``None``: the whole pass)."""
        if index is None:
            self._zoom = []
        elif self._layout is not None and index in self._layout.position_of:
            if self._zoom and self._zoom[-1] == index:
                return
            self._zoom.append(index)
        self._reshaped()
        top = self.top_position()
        if top is not None and self._tree is not None:
            self.zoom_changed.emit(self._tree.nodes[top].index)

    def zoom_out(self) -> None:
        """One step back out."""
        if self._zoom:
            self._zoom.pop()
            self._reshaped()
            top = self.top_position()
            if top is not None and self._tree is not None:
                self.zoom_changed.emit(self._tree.nodes[top].index)

    # ----------------------------------------------------------------- updates
    def _refresh(self) -> None:
        layout, tree = self._layout, self._tree
        if layout is None or tree is None:
            return
        if self.window() is not self and not self.isVisibleTo(self.window()):
            return  # a hidden pane reads nothing: showing it reads on (``showEvent``)
        if self._rendering is not None:  # its blocks are placed from the sizes read so far
            self._timer.start(PICTURE_WAIT_MS)
            return
        self.work.note(Work.READ, layout.advance(CHUNK))
        seen = (layout.read, len(tree.passes), tree.complete, tree.searched_nodes)
        # Redrawn only when the tree has changed: once it is read to its end, or every
        # REFRESH_MS while a large tree is still being read (the picture shows it coming).
        now = time.monotonic()
        if seen != self._seen and (layout.is_caught_up or now - self._reshaped_at >= REFRESH_MS / 1000):
            self._seen = seen
            self._reshaped_at = now
            self._reshaped()
        if not layout.is_caught_up:
            self._timer.start(CATCH_UP_MS)

    def _changed(self) -> None:
        self._generation += 1
        self._schedule_render()

    def _reshaped(self) -> None:
        """The blocks move: the tree grew, or the pass or the zoom changed."""
        self._shape_generation += 1
        self._changed()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        if self._layout is not None and not self._timer.isActive():
            self._timer.start(0)
        self._schedule_render()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self._schedule_render()

    # ----------------------------------------------------------------- drawing
    def _wanted_key(self) -> tuple[Any, ...]:
        return (self.width(), self.height(), self.devicePixelRatioF(), self._generation)

    def paintEvent(self, _event: QPaintEvent) -> None:  # noqa: N802 (Qt's name)
        """The cached image; a newer one is made off this event (``_render_step``), so a
        paint costs a copy of the image whatever the tree's size. Only the very first
        picture is made here (the widget has nothing else to show)."""
        if self._image is None:
            self._image = self.render_image()
            self._image_key = self._wanted_key()
        elif self._image_key != self._wanted_key():
            self._schedule_render()
        painter = QPainter(self)
        if self._image.deviceIndependentSize().toSize() != self.size():  # resized: until the new picture
            painter.fillRect(self.rect(), QColor(self._theme.panel))
        painter.drawImage(0, 0, self._image)
        self._draw_mark(painter)
        painter.end()

    def _new_image(self) -> tuple[QImage, QPainter]:
        ratio = self.devicePixelRatioF()
        image = QImage(
            max(1, round(self.width() * ratio)), max(1, round(self.height() * ratio)),
            QImage.Format.Format_ARGB32_Premultiplied,
        )
        image.setDevicePixelRatio(ratio)
        image.fill(QColor(self._theme.panel))
        painter = QPainter(image)
        painter.setFont(self.font())
        return image, painter

    def render_image(self) -> QImage:
        """The whole picture, painted afresh at once (the first image, the tests, a
        screenshot); a picture in the making is given up."""
        self._drop_rendering()
        image, painter = self._new_image()
        self.renders += 1
        self._picture = finish(self._draw(painter))
        painter.end()
        return image

    def picture(self) -> Picture:
        """The blocks of the latest rendering (rendering now if none was)."""
        if self._image is None or self._image_key is None or self._image_key[3] != self._generation:
            self._image = self.render_image()
            self._image_key = self._wanted_key()
        return self._picture

    def is_picture_current(self) -> bool:
        """Whether the shown image is of everything read so far at this size (no newer
        picture is in the making)."""
        return self._rendering is None and self._image is not None and self._image_key == self._wanted_key()

    def _shown_picture(self) -> Picture:
        """The blocks of the image on screen (what the pointer is over); made now only if
        nothing is shown yet."""
        return self._picture if self._image is not None else self.picture()

    # ------------------------------------------------- a picture in slices
    def _schedule_render(self) -> None:
        if not self._render_timer.isActive():
            self._render_timer.start(0)

    def _drop_rendering(self) -> None:
        if self._rendering is not None:
            self._rendering.drop()
            self._rendering = None

    def _render_step(self) -> None:
        """One slice of the next picture; the picture replaces the shown one when whole."""
        if self.window() is not self and not self.isVisibleTo(self.window()):
            return  # hidden: made when shown (``showEvent``)
        wanted = self._wanted_key()
        rendering = self._rendering
        if rendering is not None and (rendering.key[:3] != wanted[:3] or rendering.shape != self._shape_generation):
            self._drop_rendering()  # its blocks are for an old size, tree, pass or zoom
            rendering = None
        if rendering is None:
            if self._image is not None and self._image_key == wanted:
                return
            image, painter = self._new_image()
            painter.end()
            rendering = self._rendering = Rendering(
                image, painter, self.font(), self._draw(painter), wanted, self._shape_generation
            )
        if not rendering.step(self.work):
            self._render_timer.start(0)
            return
        self._rendering = None
        assert rendering.picture is not None
        self.renders += 1
        self._image, self._image_key, self._picture = rendering.image, rendering.key, rendering.picture
        self.update()
        if rendering.key != self._wanted_key():
            self._render_timer.start(0)

    def _draw(self, painter: QPainter) -> Steps:
        metrics = QFontMetrics(self.font())
        line = metrics.height()
        text = QColor(self._theme.text)
        muted = QColor(self._theme.muted_text)
        area = QRectF(self.rect()).adjusted(MARGIN, MARGIN, -MARGIN, -MARGIN)
        top = self.top_position()
        layout, tree = self._layout, self._tree
        if layout is None or tree is None or top is None:
            painter.setPen(muted)
            message = "No tree recorded yet" if tree is None or not tree.nodes else "Reading the tree…"
            painter.drawText(area, Qt.AlignmentFlag.AlignCenter, message)
            return Picture()
        number = tree.nodes[top].pass_number
        counts = layout.ply_counts(number)
        kinds = layout.kinds(number)
        # Header: the pass and the zoom; legend at the bottom; per-ply counts at the right.
        painter.setPen(text)
        painter.drawText(QRectF(area.left(), area.top(), area.width(), line),
                         Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         metrics.elidedText(self._header(top), Qt.TextElideMode.ElideRight, round(area.width())))
        crowded = layout.size(top) > area.width() / MIN_BLOCK
        legend_rows = self._legend_rows(kinds, area.width(), metrics, crowded, tree.sampled)
        legend_top = area.bottom() - len(legend_rows) * line
        self._draw_legend(painter, legend_rows, area.left(), legend_top, line, metrics)
        side_width = self._side_width(metrics, counts)
        plot = QRectF(area.left(), area.top() + line + 3, area.width() - side_width - 6, legend_top - area.top() - line - 6)
        top_level = layout.level[top]
        rows = layout.deepest_level(top) - top_level + 1
        row_height = min(MAX_ROW_HEIGHT, plot.height() / max(rows, 1))
        if row_height < MIN_ROW_HEIGHT:  # more plies than fit: the deepest are left out
            rows = max(1, int(plot.height() // MIN_ROW_HEIGHT))
            row_height = plot.height() / rows
        show_labels = row_height >= metrics.height() + 2
        key = (top, plot.left(), plot.top(), plot.width(), plot.height(), rows, show_labels, self._shape_generation)
        placed = self._placement
        if placed is None or self._placement_key != key:
            placed = yield from self._place_blocks(top, plot, row_height, rows, show_labels)
            self._placement, self._placement_key = placed, key
            self.placements += 1
        yield from self._paint_blocks(painter, placed, metrics)
        self._draw_side(painter, counts, top_level, rows, plot, row_height, side_width, metrics)
        return placed.picture

    def _header(self, top: int) -> str:
        tree = self._tree
        assert tree is not None and self._layout is not None
        node = tree.nodes[top]
        tree_pass = tree.passes[node.pass_number] if node.pass_number < len(tree.passes) else None
        size = self._layout.size(top)
        what = f"Pass {node.pass_number + 1} of {len(tree.passes)}"
        if tree_pass is not None:
            what += f" (depth {tree_pass.iteration}{', ' + tree_pass.label if tree_pass.label else ''})"
        if self._zoom:
            what += f" › {self._words.line(tree, node.index)} (right-click: zoom out)"
        what += f" · {size:,} nodes"
        if tree.sampled:
            what += " (sampled past the cap)"
        if tree.cancelled:
            what += " · cancelled before it answered"
        elif not tree.complete:
            what += " · searching…"
        return what

    def _place_blocks(self, top: int, plot: QRectF, row_height: float, rows: int, show_labels: bool) -> Steps:
        """Where every block goes, depth first from ``top``: each node's block, then its
        children, where a child narrower than ``MIN_BLOCK`` joins its narrow neighbours in
        one block (a *run*) that is not descended into; so each row holds at most
        ``width / MIN_BLOCK`` blocks. Kept while only colours change (a replay's step).
        The loop reads the layout's arrays directly: it runs for every child of every block.
        It pauses (yields) after every ``PLACE_STEP`` blocks and children looked at; returns
        the ``Placement``."""
        layout = self._layout
        tree = self._tree
        assert layout is not None and tree is not None
        settled, is_closed, open_size = layout.sizes()
        deepest_settled, open_deepest = layout.depths()
        levels = layout.level
        top_level = levels[top]
        scale = plot.width() / max(layout.size(top), 1)
        nodes = tree.nodes
        block_height = row_height - (GAP if row_height >= 6 else 0.0)
        plot_top = plot.top()
        row_tops = [round(plot_top + row * row_height) for row in range(rows + 1)]
        row_bottoms = [round(plot_top + row * row_height + block_height) for row in range(rows + 1)]
        picture = Picture(rows=[[] for _ in range(rows)], row_height=row_height, top=plot_top, plot=plot)
        placed = Placement(picture)
        fills, rows_blocks, by_position = placed.fills, picture.rows, picture.by_position
        shades = placed.shades

        def fill(left: float, width: float, row: int, kind: NodeKind, index: int) -> tuple[int, int]:
            """The block on whole pixels (crisp edges, and the raster engine fills whole
            pixels several times faster); returns its left and right pixel."""
            if width < MIN_BLOCK:
                width = MIN_BLOCK
            x = round(left)
            right = max(x + 1, round(left + width - (GAP if width >= 3 * GAP else 0.0)))
            top_y = row_tops[row]
            fills.append((QRect(x, top_y, right - x, max(1, row_bottoms[row] - top_y)), kind, index))
            return x, right

        def run(left: float, right: float, row: int, sizes: dict[NodeKind, int], first: int, count: int,
                parent: int, deepest: int) -> None:
            """Narrow neighbours as one block, in the colour of the kind that covers most of
            it, and under it one shade down to the deepest row their subtrees reach."""
            x, x_right = fill(left, right - left, row, max(sizes, key=sizes.__getitem__), nodes[first].index)
            rows_blocks[row].append(Block(left, right, row, first, count, parent))
            below = min(deepest - top_level, rows - 1)
            if below > row:
                shades.append(QRect(x, row_tops[row + 1], x_right - x, row_bottoms[below] - row_tops[row + 1]))

        stack = [(top, plot.left())]
        done = 0
        while stack:
            if done >= PLACE_STEP:
                yield Work.PLACE, done
                done = 0
            done += 1
            position, left = stack.pop()
            node = nodes[position]
            row = levels[position] - top_level
            size = settled[position] if is_closed[position] else open_size.get(position, settled[position] + 1)
            width = size * scale
            x, x_right = fill(left, width, row, node.kind, node.index)
            block = Block(left, left + width, row, position)
            rows_blocks[row].append(block)
            by_position[position] = block
            if width >= 4 * CUT_MARK and (node.skipped or node.cut_move is not None):
                placed.cut_bars.append(QRect(x_right - round(CUT_MARK), row_tops[row], round(CUT_MARK),
                                             max(1, row_bottoms[row] - row_tops[row])))
            if show_labels and width >= LABEL_MIN_WIDTH:
                placed.labels.append((QRectF(x, row_tops[row], x_right - x, row_bottoms[row] - row_tops[row]), position))
            if row + 1 >= rows:
                continue
            child_row = row + 1
            child_left = left + node.visits * scale
            if node.unrecorded and node.unrecorded * scale >= MIN_BLOCK:
                # the nodes below it that were not recorded (sampled away): hatched, one row
                placed.hatches.append(QRectF(child_left, plot_top + child_row * row_height, node.unrecorded * scale,
                                             block_height))
            child_left += node.unrecorded * scale
            if not node.children:
                continue
            run_left, run_count, run_first, run_deepest = 0.0, 0, -1, 0
            run_sizes: dict[NodeKind, int] = {}
            later: list[tuple[int, float]] = []
            for child in layout.children(position):
                if done >= PLACE_STEP:  # a node with hundreds of moves is placed over several turns
                    yield Work.PLACE, done
                    done = 0
                done += 1
                if is_closed[child]:
                    child_size = settled[child]
                    deepest = deepest_settled[child]
                else:
                    child_size = open_size.get(child, settled[child] + 1)
                    deepest = open_deepest.get(child, deepest_settled[child])
                child_width = child_size * scale
                if child_width >= MIN_BLOCK:
                    if run_count:
                        run(run_left, child_left, child_row, run_sizes, run_first, run_count, position, run_deepest)
                        run_count = 0
                    later.append((child, child_left))
                else:
                    if not run_count:
                        run_left, run_first, run_sizes, run_deepest = child_left, child, {}, 0
                    run_count += 1
                    if deepest > run_deepest:
                        run_deepest = deepest
                    kind = nodes[child].kind
                    run_sizes[kind] = run_sizes.get(kind, 0) + child_size
                    if child_left + child_width - run_left >= MIN_BLOCK:
                        run(run_left, child_left + child_width, child_row, run_sizes, run_first, run_count, position,
                            run_deepest)
                        run_count = 0
                child_left += child_width
            if run_count:
                run(run_left, child_left, child_row, run_sizes, run_first, run_count, position, run_deepest)
            stack.extend(reversed(later))
        picture.rectangles = len(fills) + len(placed.shades) + len(placed.hatches)
        picture.runs = sum(1 for row_blocks in rows_blocks for block in row_blocks if block.count > 1)
        for row_blocks in rows_blocks:
            row_blocks.sort(key=lambda block: block.left)
        yield Work.PLACE, done
        return placed

    def _paint_blocks(self, painter: QPainter, placed: Placement, metrics: QFontMetrics) -> Steps:
        """The placed blocks in the theme's colours; those the replay has not reached faded.
        Pauses (yields) after every ``PAINT_STEP`` rectangles."""
        full = {kind: kind_colour(kind, self._theme) for kind in NodeKind}
        faded = {kind: QColor(colour) for kind, colour in full.items()}
        for colour in faded.values():
            colour.setAlpha(FADED_ALPHA)
        visited = self._visited_through
        painter.setPen(Qt.PenStyle.NoPen)
        fills = placed.fills
        for start in range(0, len(fills), PAINT_STEP):
            for block, kind, index in fills[start:start + PAINT_STEP]:
                painter.fillRect(block, faded[kind] if visited is not None and index > visited else full[kind])
            yield Work.PAINT, min(PAINT_STEP, len(fills) - start)
        cut_colour = QColor(self._theme.text)
        muted = QColor(self._theme.muted_text)
        hatch = QBrush(muted, Qt.BrushStyle.BDiagPattern)
        shade = QBrush(muted, Qt.BrushStyle.Dense5Pattern)
        marks = [(bar, cut_colour) for bar in placed.cut_bars] + [(rect, hatch) for rect in placed.hatches] + [
            (stretch, shade) for stretch in placed.shades
        ]
        for start in range(0, len(marks), PAINT_STEP):
            for rect, brush in marks[start:start + PAINT_STEP]:
                painter.fillRect(rect, brush)
            yield Work.PAINT, min(PAINT_STEP, len(marks) - start)
        tree = self._tree
        assert tree is not None
        labels = [(rect, position, full[tree.nodes[position].kind]) for rect, position in placed.labels]
        per_step = PAINT_STEP // LABEL_COST
        for start in range(0, len(labels), per_step):
            self._draw_labels(painter, labels[start:start + per_step], metrics, visited)
            yield Work.PAINT, min(per_step, len(labels) - start) * LABEL_COST

    def _draw_labels(
        self, painter: QPainter, labels: list[tuple[QRectF, int, QColor]], metrics: QFontMetrics, visited: int | None
    ) -> None:
        tree = self._tree
        assert tree is not None
        for rect, position, fill in labels:
            node = tree.nodes[position]
            faded = visited is not None and node.index > visited
            if faded:
                continue  # the replay has not reached it: no name yet
            move = self._words.move_name(tree, node.index) if node.parent in tree else "root"
            symbol = KIND_SYMBOLS[node.kind]
            inner = rect.adjusted(3, 0, -3 - CUT_MARK, 0)
            room = inner.width()
            candidates = [f"{symbol} {move}", move]
            # During a replay a value is not shown: the replay may not have reached its return.
            if visited is None and not math.isnan(node.value):
                candidates.insert(0, f"{symbol} {move}  {self._words.value(node.value)}")
            name = next((text for text in candidates if metrics.horizontalAdvance(text) <= room), None)
            if name is None:
                continue  # a name cut short says nothing: the tooltip has it
            painter.setPen(QColor("#101010") if fill.lightnessF() > 0.55 else QColor("#ffffff"))
            painter.drawText(inner, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, name)

    def _side_width(self, metrics: QFontMetrics, counts: Sequence[PlyCounts]) -> float:
        widest = max((metrics.horizontalAdvance(self._side_text(count)) for count in counts), default=0)
        return float(min(widest + 4, max(90.0, self.width() * 0.38)))

    @staticmethod
    def _side_text(counts: PlyCounts) -> str:
        """``ply 3 · 41% cut · 1,203 pruned``: the ply's cut-off share and pruned moves."""
        return IcicleView._side_texts(counts)[0]

    @staticmethod
    def _side_texts(counts: PlyCounts) -> list[str]:
        """The ply's line at four lengths, longest first, for the room a panel has (every row
        is written at the same length; the tooltip over the column has the whole of it)."""
        if not counts.can_cut:
            nodes = _count(counts.nodes, "node")
            return [f"ply {counts.ply} · {nodes}", f"ply {counts.ply} · {nodes}", f"{counts.ply}: {nodes}",
                    f"{counts.ply}: {counts.nodes:,}"]
        share = f"{counts.cut_share:.0%}"
        pruned = f" · {counts.pruned:,} pruned" if counts.pruned else ""
        return [f"ply {counts.ply} · {share} cut{pruned}", f"ply {counts.ply} · {share} cut",
                f"{counts.ply}: {share} cut", f"{counts.ply}: {share}"]

    def _draw_side(
        self, painter: QPainter, counts: Sequence[PlyCounts], top_level: int, rows: int, plot: QRectF,
        row_height: float, side_width: float, metrics: QFontMetrics,
    ) -> None:
        """Each ply's line beside its row. Rows thinner than a line of text are taken in
        groups, each written once beside the group: the ply of the group that cut most (a
        probe's cutting plies are the ones a student looks for), else its first."""
        painter.setPen(QColor(self._theme.text))
        left = plot.right() + 6
        step = max(1, math.ceil(metrics.height() / max(row_height, 1e-6)))
        groups = side_plies(counts, top_level, rows, step)
        lines = [self._side_texts(counts[ply]) for _, ply in groups]
        length = next(
            (at for at in range(SIDE_LENGTHS) if all(metrics.horizontalAdvance(texts[at]) <= side_width for texts in lines)),
            SIDE_LENGTHS - 1,
        )
        for (group, _), texts in zip(groups, lines):
            top = plot.top() + (group.start - top_level) * row_height
            rect = QRectF(left, top, side_width, max(len(group) * row_height, metrics.height()))
            if rect.bottom() > plot.bottom() + MARGIN:
                continue  # the deepest plies' short group: its line would cover the legend (the tooltip has it)
            painter.drawText(rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                             metrics.elidedText(texts[length], Qt.TextElideMode.ElideRight, round(side_width)))

    def _legend_items(self, kinds: dict[NodeKind, int], crowded: bool, sampled: bool) -> list[LegendItem]:
        """Each kind in the pass, then the marks: the cut-off bar, the shade under nodes too
        small to draw one by one (``crowded``), the hatch of unrecorded nodes (``sampled``)."""
        colours = kind_colours(self._theme)
        shown = [kind for kind in NodeKind if kinds.get(kind)] or [NodeKind.MAX, NodeKind.MIN]
        items = [LegendItem(self._legend_text(kind), colours.color(kind)) for kind in shown]
        items.append(LegendItem("cut-off", QColor(self._theme.text), Swatch.CUT_BAR))
        if crowded:
            items.append(LegendItem("too small to draw", QColor(self._theme.muted_text), Swatch.SHADE))
        if sampled:
            items.append(LegendItem("not recorded", QColor(self._theme.muted_text), Swatch.HATCH))
        return items

    def _legend_rows(
        self, kinds: dict[NodeKind, int], width: float, metrics: QFontMetrics, crowded: bool, sampled: bool
    ) -> list[list[LegendItem]]:
        rows: list[list[LegendItem]] = [[]]
        used = 0.0
        for item in self._legend_items(kinds, crowded, sampled):
            advance = SWATCH + 4 + metrics.horizontalAdvance(item.text) + 12
            if rows[-1] and used + advance > width:
                rows.append([])
                used = 0.0
            rows[-1].append(item)
            used += advance
        return rows

    @staticmethod
    def _legend_text(kind: NodeKind) -> str:
        return f"{KIND_SYMBOLS[kind]} {KIND_NAMES[kind]}"

    def _draw_legend(
        self, painter: QPainter, rows: list[list[LegendItem]], left: float, top: float, line: float,
        metrics: QFontMetrics,
    ) -> None:
        for number, items in enumerate(rows):
            x = left
            y = top + number * line
            for item in items:
                swatch = QRectF(x, y + (line - SWATCH) / 2, SWATCH, SWATCH)
                if item.swatch is Swatch.CUT_BAR:  # the bar at the right end of a block that had a cut-off
                    painter.fillRect(swatch, kind_colour(NodeKind.MAX, self._theme))
                    painter.fillRect(QRectF(swatch.right() - CUT_MARK, swatch.top(), CUT_MARK, SWATCH), item.colour)
                elif item.swatch is Swatch.HATCH:
                    painter.fillRect(swatch, QBrush(QColor(self._theme.muted_text), Qt.BrushStyle.BDiagPattern))
                elif item.swatch is Swatch.SHADE:
                    painter.fillRect(swatch, QBrush(QColor(self._theme.muted_text), Qt.BrushStyle.Dense5Pattern))
                else:
                    painter.fillRect(swatch, item.colour)
                x += SWATCH + 4
                painter.setPen(QColor(self._theme.text))
                painter.drawText(QRectF(x, y, metrics.horizontalAdvance(item.text) + 2, line),
                                 Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, item.text)
                x += metrics.horizontalAdvance(item.text) + 12

    def _draw_mark(self, painter: QPainter) -> None:
        """A frame round the marked node's block (or its nearest drawn ancestor's)."""
        if self._marked is None or self._layout is None or self._tree is None:
            return
        position = self._layout.position_of.get(self._marked, -1)
        blocks = self._picture.by_position
        while position >= 0 and position not in blocks:
            position = self._layout.parent(position)
        if position < 0:
            return
        block = blocks[position]
        picture = self._picture
        rect = QRectF(block.left, picture.top + block.row * picture.row_height,
                      max(block.right - block.left, 2.0), picture.row_height).adjusted(-1, -1, 1, 1)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(QColor(self._theme.panel), 4))
        painter.drawRect(rect)
        painter.setPen(QPen(QColor(self._theme.text), 2))
        painter.drawRect(rect)

    # ------------------------------------------------------------------- input
    def node_at(self, x: float, y: float) -> int | None:
        """The visit index of the node drawn at (x, y); inside a run of narrow siblings, the
        one whose share of the run is under ``x``."""
        block = self._shown_picture().block_at(x, y)
        if block is None or self._tree is None or self._layout is None:
            return None
        if block.count == 1:
            return self._tree.nodes[block.position].index
        layout = self._layout
        scale = (block.right - block.left) / max(
            sum(layout.size(child) for child in self._run_members(block)), 1
        )
        left = block.left
        members = self._run_members(block)
        for child in members:
            left += layout.size(child) * scale
            if x < left:
                return self._tree.nodes[child].index
        return self._tree.nodes[members[-1]].index

    def _run_members(self, block: Block) -> list[int]:
        assert self._layout is not None
        children = self._layout.children(block.parent)
        start = children.index(block.position)
        return children[start:start + block.count]

    def describe_at(self, x: float, y: float) -> str:
        """The tooltip at (x, y): the node's line, kind, value, window and size."""
        picture = self._shown_picture()
        if x > picture.plot.right():
            return self._side_tip(picture, y)
        block = picture.block_at(x, y)
        index = self.node_at(x, y)
        tree, layout = self._tree, self._layout
        if block is None or index is None or tree is None or layout is None:
            return ""
        node = tree.node(index)
        position = layout.position_of[index]
        words = self._words
        line = words.line(tree, index)
        top = self.top_position()
        share = layout.size(position) / max(layout.size(top), 1) if top is not None else 1.0
        parts = [
            f"{line}  —  {kind_word(node, side_of(tree, node))}",
            f"value {words.bounded_value(node) if not node.is_open else '? (not yet left)'}",
            f"window {words.window(node.alpha, node.beta)} · depth {node.depth:g}"
            + (f" · probability {node.probability:.4g}" if node.probability != 1.0 else ""),
            f"{_count(layout.size(position), 'node')} in its subtree ({share:.1%} of the view)",
        ]
        if node.unrecorded:
            parts.append(f"{node.unrecorded:,} of them not recorded (past the cap, or settled by a solver)")
        if node.was_cut:
            parts.append(f"cut-off: {_count(len(node.skipped), 'move')} pruned")
        if block.count > 1:
            parts.append(f"one of {block.count:,} neighbours too narrow to draw one by one")
        parts.append("click: show it in the tree · double-click: zoom into it · right-click: zoom out")
        return "\n".join(parts)

    def _side_tip(self, picture: Picture, y: float) -> str:
        """What the per-ply counts at the right mean, with the pointed ply's numbers."""
        row = picture.row_at(y)
        top = self.top_position()
        if row is None or top is None or self._layout is None or self._tree is None:
            return ""
        ply = self._layout.level[top] + row
        counts = self._layout.ply_counts(self._tree.nodes[top].pass_number)
        if ply >= len(counts):
            return ""
        count = counts[ply]
        return (
            f"Ply {ply} of the whole pass: {count.nodes:,} recorded nodes, {count.can_cut:,} of them MAX, MIN or chance.\n"
            f"{count.cut:,} of those ({count.cut_share:.0%}) stopped at a cut-off (α ≥ β), leaving "
            f"{count.pruned:,} moves unsearched: the branches alpha-beta pruned below this ply."
        )

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            text = self.describe_at(event.pos().x(), event.pos().y())
            if text:
                QToolTip.showText(event.globalPos(), text, self)
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().event(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt's name)
        if event.button() == Qt.MouseButton.RightButton:
            self.zoom_out()
            event.accept()
            return
        if event.button() != Qt.MouseButton.LeftButton:
            return super().mousePressEvent(event)
        index = self.node_at(event.position().x(), event.position().y())
        if index is not None:
            self._marked = index
            self.update()
            self.node_chosen.emit(index)
        event.accept()

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt's name)
        if event.button() != Qt.MouseButton.LeftButton:
            return super().mouseDoubleClickEvent(event)
        index = self.node_at(event.position().x(), event.position().y())
        top = self.top_position()
        if index is None:
            return
        if top is not None and self._tree is not None and index == self._tree.nodes[top].index:
            self.zoom_out()  # the block at the top: back out
        else:
            self.zoom_to(index)
        event.accept()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt's name)
        if event.key() in (Qt.Key.Key_Backspace, Qt.Key.Key_Minus):
            self.zoom_out()
        elif event.key() == Qt.Key.Key_Escape:
            self.zoom_to(None)
        else:
            super().keyPressEvent(event)


def side_plies(counts: Sequence[PlyCounts], first: int, rows: int, step: int) -> list[tuple[range, int]]:
    """The plies ``first`` .. ``first + rows - 1`` in groups of ``step`` (the rows one line of
    text spans), each with the ply written for it: the one with the most cut-offs, else the
    group's first."""
    groups = [
        range(start, min(start + step, first + rows, len(counts)))
        for start in range(first, min(first + rows, len(counts)), step)
    ]
    return [(group, max(group, key=lambda ply: (counts[ply].cut, -ply))) for group in groups]


def _count(number: int, noun: str) -> str:
    """``1 node``, ``2,345 nodes``."""
    return f"{number:,} {noun}{'' if number == 1 else 's'}"


__all__ = [
    "DARK_KIND_COLOURS",
    "LIGHT_KIND_COLOURS",
    "Block",
    "IcicleLayout",
    "IcicleView",
    "KindColours",
    "PlyCounts",
    "kind_colour",
    "kind_colours",
    "side_plies",
]
