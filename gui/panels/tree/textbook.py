"""The textbook view: the top plies of one pass of the search drawn as the lecture notes
draw a game tree.

* MAX nodes are triangles pointing up (▲), MIN nodes pointing down (▼), chance nodes
  circles (●) with each outcome's probability over its edge; a leaf at the horizon is a
  small hollow square, a terminal a filled one, a quiescence node a diamond, and nodes
  settled without their children carry a letter: T (table), S (solver), H (heuristic
  static cut). Shapes tell them apart without colour; colour (MAX blue, MIN red) helps.
* Each node shows the move that led to it above it and its value below it, in the root
  player's view and the game's units, ``≥``/``≤`` for a bound.
* The principal variation is the thick path; a cut-off draws its pruned moves as dashed
  stubs labelled with the reason (``β-cut: Nf3 scored ≥ 1.20``).

The arrow keys walk the tree (up to the parent, down to the first child, left and right
along the siblings), as a student follows the search by hand.

Only the expanded part is laid out (``TreeLayout``): the root, and the principal variation
a few plies down, open by default; a click on a node's "N ▾" handle (or a double click)
opens or closes it; a node's children past ``MAX_CHILDREN_SHOWN`` wait behind a "+N more"
box. Layout is bounded by ``LAYOUT_BUDGET`` items whatever the tree's size, runs at most
every ``LAYOUT_INTERVAL_MS`` while batches arrive, and painting looks only at the items on
screen, found by bisection per ply: a 100,000-node tree arriving live costs the view what
its visible part costs.
"""

from __future__ import annotations

import bisect
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
    QPolygonF,
    QWheelEvent,
)
from PySide6.QtWidgets import QSizePolicy, QWidget

from ai.tree.model import NodeKind, SearchTree, TreeNode
from ai.tt import Bound
from gui.panels.tree.node_text import NodeTexts, probability_text
from gui.theme import LIGHT, Theme, color

# ---------------------------------------------------------------- proportions (scene pixels)
GLYPH = 16.0
"""A node's shape: the side of its triangle, square or circle."""
LEVEL_HEIGHT = 108.0
"""From one ply to the next: the move's name, the shape, the value, the handle and an edge."""
TOP_MARGIN = 34.0
SIDE_MARGIN = 16.0
SLOT_MIN = 30.0
"""The narrowest column a node takes (its shape and a little room)."""
SLOT_GAP = 8.0
"""Space between neighbouring columns, so that labels never touch."""
LINE = 12.0
"""Height of a line of the small text."""
LABEL_FONT_PX = 10
VALUE_FONT_PX = 11
CENTRE_SPAN_MAX = 480.0
"""Children spread wider than this: the parent stands over its principal child instead of
their middle (see ``TreeLayout._centre``)."""
BUS_RISE = 40.0
"""A wide fan's bus runs this far above the children's shapes (over their move names)."""
STUB_SPACING = 14.0

# ---------------------------------------------------------------- what is laid out
DEFAULT_OPEN_PLIES = 2
"""Plies open by default: the root's children and theirs (so the root moves' refutations and cut-offs show)."""
PV_OPEN_PLIES = 4
"""The principal variation is open this many plies down (its siblings shown at each)."""
PROBE = " (probe)"
RE_SEARCH = " (re-search)"
"""Labels of a move searched twice under one node (see ``TreeLayout._twins``)."""
OPEN_SIBLINGS_MAX = 12
"""Nodes with more siblings than this are closed by default off the PV (tic-tac-toe's nine
root moves open, chess's thirty stay closed)."""
MAX_CHILDREN_SHOWN = 40
"""Children of one node shown before a "+N more" box (a chess root has up to ~40 moves)."""
MORE_STEP = 40
"""How many more a click on "+N more" shows."""
STUB_EACH_MAX = 3
"""Up to this many pruned moves get a stub each (with the move's name); more, one stub "N pruned"."""
LAYOUT_BUDGET = 2500
"""At most this many items are laid out: past it nodes stay closed, whatever was asked."""
LAYOUT_INTERVAL_MS = 250
"""While batches arrive the layout runs at most this often (4 a second)."""
LAYOUT_SHARE = 0.2
"""...and takes at most this share of the GUI thread: a layout that took 100 ms waits
500 ms before the next (a user who opened many nodes keeps a responsive window)."""

# ---------------------------------------------------------------- view
MIN_SCALE = 0.03
MAX_SCALE = 4.0
ZOOM_STEP = 1.25
TEXT_MIN_SCALE = 0.45
"""Below this zoom the text would be unreadable: only shapes and edges are drawn."""
READABLE_SCALE = 0.8
"""The first view of a tree too wide to fit readably is shown at this zoom, round the PV."""
CLICK_SLOP = 4.0
"""A press that moves less than this many pixels is a click, not a drag."""
FADED_OPACITY = 0.25
"""Nodes the replay has not reached yet."""
PV_WIDTH = 3.5
EDGE_WIDTH = 1.0


class Shape(Enum):
    UP = "▲"
    DOWN = "▼"
    CIRCLE = "●"
    SQUARE = "■"
    DIAMOND = "◆"


@dataclass(frozen=True)
class Glyph:
    """How a node kind is drawn: a shape, filled or hollow, and a letter inside."""

    shape: Shape
    filled: bool
    letter: str = ""
    size: float = GLYPH


GLYPHS: dict[NodeKind, Glyph] = {
    NodeKind.MAX: Glyph(Shape.UP, True),
    NodeKind.MIN: Glyph(Shape.DOWN, True),
    NodeKind.CHANCE: Glyph(Shape.CIRCLE, True),
    NodeKind.LEAF: Glyph(Shape.SQUARE, False, size=GLYPH * 0.6),
    NodeKind.TERMINAL: Glyph(Shape.SQUARE, True, size=GLYPH * 0.7),
    NodeKind.QUIESCENCE: Glyph(Shape.DIAMOND, False, size=GLYPH * 0.8),
    NodeKind.TT_CUT: Glyph(Shape.SQUARE, False, "T"),
    NodeKind.SOLVER: Glyph(Shape.SQUARE, False, "S"),
    NodeKind.STATIC_CUT: Glyph(Shape.SQUARE, False, "H"),
}
"""Every kind has its own look, readable in black and white, drawn as its symbol reads
(``ai.tree.model.KIND_SYMBOLS``: ▲ ▼ ● □ ■ ◇ T S H)."""

def glyph_text(kind: NodeKind) -> str:
    """The kind as one character of text (the legend, a tooltip): ``▲``, ``▼``, ``T`` ...,
    the symbol every view of the tree uses (``ai.tree.model.KIND_SYMBOLS``)."""
    return kind.symbol


# ---------------------------------------------------------------- the layout
class Step(Enum):
    """A move of the selection with the arrow keys."""

    UP = "parent"
    DOWN = "first child"
    LEFT = "previous sibling"
    RIGHT = "next sibling"


STEP_KEYS: dict[int, Step] = {
    Qt.Key.Key_Up: Step.UP,
    Qt.Key.Key_Down: Step.DOWN,
    Qt.Key.Key_Left: Step.LEFT,
    Qt.Key.Key_Right: Step.RIGHT,
}


class ItemKind(Enum):
    NODE = "node"
    STUB = "stub"
    """The pruned moves of a cut-off."""
    MORE = "more"
    """Children not shown yet ("+N more")."""


@dataclass
class Placed:
    """One laid-out item: a node, a cut's stub group or a "+N more" box, centred at ``x``
    on ply ``ply`` (its shape's centre is at ``y``)."""

    kind: ItemKind
    index: int
    """The node's visit index (for a stub or "+N more": the parent's)."""
    ply: int
    width: float
    x: float = 0.0
    y: float = 0.0
    parent: Placed | None = None
    children: list[Placed] = field(default_factory=list)
    above: tuple[str, ...] = ()
    """Text over the shape: the move's name, a chance outcome's probability."""
    below: tuple[str, ...] = ()
    """Text under it: the value; a stub's reason and count."""
    node_kind: NodeKind = NodeKind.MAX
    bound: Bound = Bound.EXACT
    is_open: bool = False
    on_pv: bool = False
    hidden_children: int = 0
    """A closed node's children (its handle says how many)."""
    stub_moves: tuple[str, ...] = ()
    label: str = ""
    """A stub's whole reason, one line (``β-cut: Nf3 scored ≥ 1.20``)."""
    pruned: int = 0

    @property
    def left(self) -> float:
        return self.x - self.width / 2

    @property
    def right(self) -> float:
        return self.x + self.width / 2

    def top(self) -> float:
        """The top of the item's text: where the edge from its parent ends."""
        return self.y - GLYPH / 2 - 2 - LINE * len(self.above)

    def bottom(self) -> float:
        """Under the value and the handle: where edges to the children start."""
        lines = len(self.below) + (1 if self.hidden_children else 0)
        return self.y + GLYPH / 2 + 6 + LINE * lines


class Rules:
    """Which nodes are open: the defaults (the root, the PV's first plies) and the user's
    clicks, which win over them; how many children a node shows."""

    def __init__(self) -> None:
        self.opened: dict[int, bool] = {}
        """The user's choice per node index: open (True) or closed (False)."""
        self.shown: dict[int, int] = {}
        """Children shown per node, past ``MAX_CHILDREN_SHOWN`` ("+N more" clicked)."""
        self.pinned: set[int] = set()
        """Nodes that must be on screen (the selection and its path, a highlighted move)."""
        self.show_windows = False
        """Each node's α-β window under its value, as the lecture notes annotate alpha-beta."""

    def is_open(self, node: TreeNode, ply: int, on_pv: bool, siblings: int = 1) -> bool:
        """The user's choice; else open on the PV's first plies, on the path of a pinned
        node, and in the first plies when the node has few siblings (a chess root's 30
        moves stay closed side by side, their handles saying how many replies each had)."""
        chosen = self.opened.get(node.index)
        if chosen is not None:
            return chosen
        if (on_pv and ply < PV_OPEN_PLIES) or node.index in self.pinned:
            return True
        return ply < DEFAULT_OPEN_PLIES and siblings <= OPEN_SIBLINGS_MAX

    def limit(self, index: int) -> int:
        return self.shown.get(index, MAX_CHILDREN_SHOWN)

    def clear(self) -> None:
        """Forget the clicks (a new tree); the choice to show windows stays."""
        self.opened.clear()
        self.shown.clear()
        self.pinned.clear()


def principal_child(tree: SearchTree, node: TreeNode, answer: Any = None) -> TreeNode | None:
    """The child the node's value came from: among the children of equal value, the one
    of the search's ``answer`` move (moves that tie are told apart only by the engine's
    choice: a root split's workers' children are merged in the order they arrived), else
    the exact one (a PVS re-search's, not its null-window probe's), else the first."""
    if not node.kind.is_decision or node.is_open:
        return None
    first_equal: TreeNode | None = None
    first_exact: TreeNode | None = None
    for index in node.children:
        child = tree.node(index)
        if child.is_open or child.value != node.value:
            continue
        if answer is not None and child.move == answer and child.bound is Bound.EXACT:
            return child
        if child.bound is Bound.EXACT and first_exact is None:
            first_exact = child
        if first_equal is None:
            first_equal = child
    return first_exact or first_equal


def principal_path(tree: SearchTree, root: int, answer_line: Sequence[Any] = ()) -> list[int]:
    """The PV as node indices from ``root`` down (the thick path), following the search's
    answer (``answer_line``) among moves of equal value as long as it is in the tree."""
    path = [root]
    node = tree.node(root)
    following = True
    while True:
        answer = answer_line[len(path) - 1] if following and len(path) - 1 < len(answer_line) else None
        child = principal_child(tree, node, answer)
        if child is None:
            return path
        following = answer is not None and child.move == answer
        path.append(child.index)
        node = child


class TreeLayout:
    """The expanded part of one pass, placed: parents centred over their children, every
    item as wide as its widest text, so no two labels on a ply overlap."""

    def __init__(
        self, tree: SearchTree, texts: NodeTexts, rules: Rules, measure: Callable[[str], float],
        answer_line: Sequence[Any] = (),
    ) -> None:
        self.tree = tree
        self.answer_line = answer_line
        """The search's answer (its PV), for the pass it came from: the thick path takes it
        among moves of equal value."""
        self.texts = texts
        self.rules = rules
        self.measure = measure
        self.items: list[Placed] = []
        self.by_index: dict[int, Placed] = {}
        self.levels: list[list[Placed]] = []
        self._lefts: list[list[float]] = []
        self.pv: list[int] = []
        self.budget_reached = False
        self._promised = 0
        """Items of opened nodes not placed yet (held against the budget)."""
        self._level_right: list[float] = []

    # ---------------------------------------------------------------- building
    def build(self, root: int) -> TreeLayout:
        self.pv = principal_path(self.tree, root, self.answer_line)
        pv = set(self.pv)
        self._place(self.tree.node(root), 0, pv, 1)
        self.levels = [sorted((item for item in self.items if item.ply == ply), key=lambda item: item.x)
                       for ply in range(1 + max((item.ply for item in self.items), default=-1))]
        self._lefts = [[item.left for item in level] for level in self.levels]
        return self

    def _slot(self, texts: tuple[str, ...]) -> float:
        return max([SLOT_MIN, *(self.measure(text) for text in texts)]) + SLOT_GAP

    def _node_item(self, node: TreeNode, ply: int, on_pv: bool, twin: str = "") -> Placed:
        texts = self.texts
        above: tuple[str, ...] = ()
        if ply > 0:
            move = texts.move_name(self.tree, node) + twin
            chance = probability_text(node.probability)
            above = (chance, move) if chance else (move,)
        below: tuple[str, ...] = (texts.value_text(node.value, node.bound),)
        if self.rules.show_windows:
            below = (*below, texts.window_text(node.alpha, node.beta, compact=True))
        item = Placed(ItemKind.NODE, node.index, ply, 0.0, above=above, below=below, node_kind=node.kind,
                      bound=node.bound, is_open=node.is_open, on_pv=on_pv)
        return item

    def _place(self, node: TreeNode, ply: int, pv: set[int], siblings: int, twin: str = "") -> Placed:
        item = self._node_item(node, ply, node.index in pv, twin)
        self.items.append(item)
        self.by_index[node.index] = item
        children = node.children
        is_open = bool(children or node.was_cut) and self.rules.is_open(node, ply, item.on_pv, siblings)
        shown: list[int] = []
        hidden = 0
        if is_open:
            shown, hidden = self._shown_children(node, pv)
            promised = len(shown) + (1 if hidden else 0) + (1 if node.was_cut else 0)
            if len(self.items) + self._promised + promised > LAYOUT_BUDGET:
                self.budget_reached = True
                is_open = False
        if not is_open:
            item.hidden_children = len(children)
            item.pruned = len(node.skipped)
            item.width = self._slot((*item.above, *item.below, handle_text(item)))
            self._put_leaf(item)
            return item
        self._promised += promised
        item.width = self._slot((*item.above, *item.below))
        twins = self._twins(children)
        for child in shown:
            self._promised -= 1
            placed = self._place(self.tree.node(child), ply + 1, pv, len(children), twins.get(child, ""))
            placed.parent = item
            item.children.append(placed)
        if hidden:
            self._promised -= 1
            more = Placed(ItemKind.MORE, node.index, ply + 1, 0.0, below=(f"+{hidden} more",), parent=item)
            more.width = self._slot(more.below)
            self.items.append(more)
            item.children.append(more)
            self._put_leaf(more)
        if node.was_cut:
            self._promised -= 1
            stub = self._stub(node, ply + 1, item)
            self.items.append(stub)
            item.children.append(stub)
            self._put_leaf(stub)
        self._centre(item)
        return item

    def _twins(self, children: list[int]) -> dict[int, str]:
        """Children searched twice with one move (PVS's null-window probe, then its re-search
        with the full window; Star2's probe of a roll, then its full search): the earlier ones
        are labelled ``PROBE``, the last ``RE_SEARCH``, so a student does not count two moves."""
        last: dict[str, int] = {}
        counts: dict[str, int] = {}
        for child in children:
            key = repr(self.tree.node(child).move)  # moves need not be hashable; their text is
            counts[key] = counts.get(key, 0) + 1
            last[key] = child
        labels: dict[int, str] = {}
        for child in children:
            key = repr(self.tree.node(child).move)
            if counts[key] > 1:
                labels[child] = RE_SEARCH if last[key] == child else PROBE
        return labels

    def _shown_children(self, node: TreeNode, pv: set[int]) -> tuple[list[int], int]:
        """The children drawn (the first ones searched, and always the PV's and a pinned
        one) and how many wait behind "+N more"."""
        limit = self.rules.limit(node.index)
        children = node.children
        if len(children) <= limit:
            return list(children), 0
        first = children[:limit]
        chosen = set(first)
        extra = [child for child in children[limit:] if child in pv or child in self.rules.pinned]
        shown = [child for child in children if child in chosen or child in extra]
        return shown, len(children) - len(shown)

    def _stub(self, node: TreeNode, ply: int, parent: Placed) -> Placed:
        texts = self.texts
        label = texts.cut_label(self.tree, node)
        names = tuple(texts.skipped_names(self.tree, node))
        count = len(names)
        reason, _, score = label.partition(" scored ")
        lines = [reason]
        if score:
            lines.append(f"scored {score}")
        lines.append(f"{count} pruned" if count else "none left to prune")
        stub = Placed(ItemKind.STUB, node.index, ply, 0.0, below=tuple(lines), parent=parent, label=label,
                      stub_moves=names if count <= STUB_EACH_MAX else (), pruned=count, node_kind=node.kind)
        stub_row = max(SLOT_MIN, len(stub.stub_moves) * max([STUB_SPACING, *(self.measure(n) + 4 for n in stub.stub_moves)]))
        stub.width = max(self._slot(stub.below), stub_row + SLOT_GAP)
        return stub

    def _put_leaf(self, item: Placed) -> None:
        """A childless item takes the next column of its own ply (each ply fills from the
        left on its own, so a closed sibling stands next to an open one, not past all of
        the open one's descendants)."""
        item.x = self._right_of(item.ply) + item.width / 2
        item.y = TOP_MARGIN + item.ply * LEVEL_HEIGHT
        self._mark(item)

    def _centre(self, item: Placed) -> None:
        """A parent over the middle of its children, as the lecture notes draw it; over its
        principal child when the children spread wider than ``CENTRE_SPAN_MAX`` (a chess
        node's 30 replies), so that the PV runs straight down and the root stays near the
        best move. Moved right (with its subtree) if it would overlap its left neighbour."""
        item.y = TOP_MARGIN + item.ply * LEVEL_HEIGHT
        first, last = item.children[0], item.children[-1]
        if last.x - first.x <= CENTRE_SPAN_MAX:
            item.x = (first.x + last.x) / 2
        else:
            item.x = next((child.x for child in item.children if child.on_pv), first.x)
        overlap = self._right_of(item.ply) - item.left
        if overlap > 0:
            for placed in self._subtree(item):
                placed.x += overlap
                self._mark(placed)
        self._mark(item)

    def _right_of(self, ply: int) -> float:
        return self._level_right[ply] if ply < len(self._level_right) else SIDE_MARGIN

    def _mark(self, item: Placed) -> None:
        while len(self._level_right) <= item.ply:
            self._level_right.append(SIDE_MARGIN)
        self._level_right[item.ply] = max(self._level_right[item.ply], item.right)

    @staticmethod
    def _subtree(item: Placed) -> Iterator[Placed]:
        stack = [item]
        while stack:
            placed = stack.pop()
            yield placed
            stack.extend(placed.children)

    # ---------------------------------------------------------------- reading
    def bounds(self) -> QRectF:
        if not self.items:
            return QRectF(0, 0, 1, 1)
        right = max(item.right for item in self.items) + SIDE_MARGIN
        bottom = max(item.y + GLYPH + LINE * 4 for item in self.items)
        return QRectF(0, 0, right, bottom)

    def visible(self, area: QRectF) -> Iterator[Placed]:
        """The items that meet ``area`` (scene coordinates), found by bisection on each ply."""
        for ply, level in enumerate(self.levels):
            y = TOP_MARGIN + ply * LEVEL_HEIGHT
            if y + LEVEL_HEIGHT / 2 < area.top() or y - LEVEL_HEIGHT / 2 > area.bottom():
                continue
            lefts = self._lefts[ply]
            start = max(0, bisect.bisect_left(lefts, area.left()) - 1)
            for item in level[start:]:
                if item.left > area.right():
                    break
                if item.right >= area.left():
                    yield item

    def item_at(self, point: QPointF) -> Placed | None:
        ply = round((point.y() - TOP_MARGIN) / LEVEL_HEIGHT)
        if not 0 <= ply < len(self.levels):
            return None
        lefts = self._lefts[ply]
        position = bisect.bisect_right(lefts, point.x()) - 1
        if position < 0:
            return None
        item = self.levels[ply][position]
        if item.left <= point.x() <= item.right and item.top() - 2 <= point.y() <= item.bottom() + 2:
            return item
        return None

    def count(self, kind: ItemKind) -> int:
        return sum(1 for item in self.items if item.kind is kind)


def latest_finished_pass(tree: SearchTree) -> int:
    """The pass to draw when following the search: the latest; once the search is over, the
    latest whose root returned a value (a search stopped by its clock leaves its last pass
    open, and the one before it is what the answer came from; a cancelled search too)."""
    number = len(tree.passes) - 1
    if not (tree.complete or tree.cancelled):
        return number
    for candidate in range(number, -1, -1):
        root = tree.passes[candidate].root
        if root in tree and not tree.node(root).is_open:
            return candidate
    return number


def handle_text(item: Placed) -> str:
    """A closed node's handle: its children searched, and of how many moves when a cut-off
    pruned the rest (``2/31 ▾``: two searched, 29 pruned)."""
    if not item.hidden_children:
        return ""
    if item.pruned:
        return f"{item.hidden_children}/{item.hidden_children + item.pruned} ▾"
    return f"{item.hidden_children} ▾"


def handle_rect(item: Placed) -> QRectF:
    """The "N ▾" handle under a closed node (click: open it)."""
    top = item.y + GLYPH / 2 + 2 + LINE * len(item.below)
    return QRectF(item.x - item.width / 2 + SLOT_GAP / 2, top, item.width - SLOT_GAP, LINE)


# ---------------------------------------------------------------- the widget
class TextbookView(QWidget):
    """The textbook drawing of one pass, with zoom (wheel, + and -), pan (drag), fit, and
    clicks: a node selects it (``node_clicked``), its handle or a double click opens or
    closes it, "+N more" shows more, a stub selects the node that was cut."""

    node_clicked = Signal(int)
    layout_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tree: SearchTree | None = None
        self.texts: NodeTexts | None = None
        self.rules = Rules()
        self.layout_model: TreeLayout | None = None
        self.pass_number: int | None = None
        """The pass shown; ``None``: the latest (it follows the search)."""
        self.selected: int | None = None
        self.highlighted: int | None = None
        """A node drawn with a warning ring ("why not this move?")."""
        self.answer_line: tuple[Any, ...] = ()
        """The finished search's PV: the thick path of the pass it came from follows it
        among moves of equal value (``set_answer_line``)."""
        self.visited_through: int | None = None
        """The replay's progress: nodes entered after this visit number are drawn faded."""
        self.layout_runs = 0
        """How many layouts ran (a test counts work, not time)."""
        self.painted_items = 0
        """Items the last paint looked at (the visible ones and a margin)."""
        self._theme: Theme = LIGHT
        self._scale = 1.0
        self._offset = QPointF(0, 0)
        """The scene point at the widget's top-left corner."""
        self._auto_fit = True
        """Until the user zooms or pans, each layout frames the tree."""
        self._press: QPointF | None = None
        self._press_offset = QPointF(0, 0)
        self._dragged = False
        self._dirty = False
        self._label_font = QFont(self.font())
        self._label_font.setPixelSize(LABEL_FONT_PX)
        self._value_font = QFont(self.font())
        self._value_font.setPixelSize(VALUE_FONT_PX)
        self._value_font.setBold(True)
        self._metrics = QFontMetricsF(self._value_font)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(LAYOUT_INTERVAL_MS)
        self._timer.timeout.connect(self.relayout)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMouseTracking(True)
        self.setMinimumSize(160, 100)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        return QSize(300, 150)

    # ---------------------------------------------------------------- contents
    def set_tree(self, tree: SearchTree | None, texts: NodeTexts | None) -> None:
        """A new tree (a new search): everything opened, selected and zoomed is forgotten."""
        self.tree = tree
        self.texts = texts
        self.answer_line = ()
        self.rules.clear()
        self.selected = None
        self.highlighted = None
        self.pass_number = None
        self._auto_fit = True
        self.layout_model = None
        self.relayout()

    def set_answer_line(self, line: Sequence[Any]) -> None:
        """The search's answer (its PV) arrived: the thick path takes its moves."""
        self.answer_line = tuple(line)
        self.tree_changed()

    def set_theme(self, theme: Theme) -> None:
        self._theme = theme
        self.update()

    def show_pass(self, number: int | None) -> None:
        """Show pass ``number`` (``None``: the latest, following the search)."""
        if number != self.pass_number:
            self.pass_number = number
            self.rules.clear()
            self._auto_fit = True
            self.relayout()

    def shown_root(self) -> int | None:
        tree = self.tree
        number = self.shown_pass_number()
        if tree is None or number is None:
            return None
        root = tree.passes[number].root
        return root if root in tree else None

    def tree_changed(self) -> None:
        """More of the tree arrived: lay out again soon (at most every ``LAYOUT_INTERVAL_MS``)."""
        self._dirty = True
        if not self._timer.isActive():
            self._timer.start()

    def relayout(self) -> None:
        """Lay out the expanded part now."""
        self._timer.stop()
        self._dirty = False
        root = self.shown_root()
        if self.tree is None or self.texts is None or root is None:
            self.layout_model = None
            self.update()
            self.layout_changed.emit()
            return
        self.layout_runs += 1
        anchor = self._anchor()
        started = time.perf_counter()
        answered = self.tree.complete and self.shown_pass_number() == latest_finished_pass(self.tree)
        line = self.answer_line if answered else ()
        self.layout_model = TreeLayout(self.tree, self.texts, self.rules, self._measure, line).build(root)
        took_ms = (time.perf_counter() - started) * 1000
        self._timer.setInterval(max(LAYOUT_INTERVAL_MS, round(took_ms / LAYOUT_SHARE)))
        if self._auto_fit:
            self._frame()
        else:
            self._hold(anchor)
        self.update()
        self.layout_changed.emit()

    def _anchor(self) -> tuple[int, QPointF] | None:
        """What the user looks at and where on screen: the selected node, else the root."""
        model = self.layout_model
        if model is None or not model.items:
            return None
        index = self.selected if self.selected in model.by_index else model.items[0].index
        placed = model.by_index[index]
        return index, self.to_view(QPointF(placed.x, placed.y))

    def _hold(self, anchor: tuple[int, QPointF] | None) -> None:
        """After a layout, the anchor node stays where it was on screen (the tree grew round
        it); a tree without it (a new pass) is framed afresh."""
        model = self.layout_model
        if model is None:
            return
        placed = model.by_index.get(anchor[0]) if anchor is not None else None
        if anchor is None or placed is None:
            self._frame()
            return
        screen = anchor[1]
        self._offset = QPointF(placed.x - screen.x() / self._scale, placed.y - screen.y() / self._scale)

    def _measure(self, text: str) -> float:
        return self._metrics.horizontalAdvance(text)

    # ---------------------------------------------------------------- opening
    def toggle(self, index: int) -> None:
        """Open a closed node, close an open one."""
        placed = self.layout_model.by_index.get(index) if self.layout_model else None
        is_open = placed is not None and bool(placed.children)
        self.rules.opened[index] = not is_open
        self.relayout()

    def set_windows_shown(self, shown: bool) -> None:
        """Write each node's α-β window under its value (or not)."""
        self.rules.show_windows = shown
        self.relayout()

    def set_open(self, index: int, is_open: bool) -> None:
        self.rules.opened[index] = is_open
        self.relayout()

    def show_more(self, index: int) -> None:
        self.rules.shown[index] = self.rules.limit(index) + MORE_STEP
        self.relayout()

    def reveal(self, index: int) -> None:
        """Open the path down to ``index`` (and keep it on screen) and centre the view on it."""
        tree = self.tree
        if tree is None or index not in tree:
            return
        self.rules.pinned = {node.index for node in tree.path(index)}
        for node in tree.path(index)[:-1]:
            self.rules.opened[node.index] = True
        node = tree.node(index)
        if node.pass_number != self.shown_pass_number():
            self.pass_number = node.pass_number
        self.relayout()
        self.centre_on(index)

    def shown_pass_number(self) -> int | None:
        """The pass drawn: the one chosen, or the latest (finished) when following."""
        tree = self.tree
        if tree is None or not tree.passes:
            return None
        if self.pass_number is not None:
            return min(self.pass_number, len(tree.passes) - 1)
        return latest_finished_pass(tree)

    def is_showing_stopped_pass(self) -> bool:
        """Following the search, a finished search's last pass was stopped inside: the
        pass before it (whole) is drawn instead."""
        tree = self.tree
        return self.pass_number is None and tree is not None and bool(tree.passes) and \
            self.shown_pass_number() != len(tree.passes) - 1

    def select(self, index: int | None) -> None:
        self.selected = index
        self.update()

    def set_visited_through(self, index: int | None) -> None:
        """Fade the nodes the replay has not reached (``None``: none faded)."""
        self.visited_through = index
        self.update()

    def _is_ahead(self, item: Placed) -> bool:
        """Whether the replay has not reached ``item`` yet (its node, or for a stub the cut)."""
        through = self.visited_through
        return through is not None and item.index > through
    # ---------------------------------------------------------------- zoom and pan
    @property
    def scale(self) -> float:
        return self._scale

    def to_scene(self, point: QPointF) -> QPointF:
        return QPointF(point.x() / self._scale + self._offset.x(), point.y() / self._scale + self._offset.y())

    def to_view(self, point: QPointF) -> QPointF:
        return QPointF((point.x() - self._offset.x()) * self._scale, (point.y() - self._offset.y()) * self._scale)

    def zoom_by(self, factor: float, around: QPointF | None = None) -> None:
        """Zoom by ``factor`` keeping the scene point under ``around`` (the centre) still."""
        self._auto_fit = False
        centre = around if around is not None else QPointF(self.width() / 2, self.height() / 2)
        fixed = self.to_scene(centre)
        self._scale = min(MAX_SCALE, max(MIN_SCALE, self._scale * factor))
        self._offset = QPointF(fixed.x() - centre.x() / self._scale, fixed.y() - centre.y() / self._scale)
        self.update()

    def fit(self) -> None:
        """The whole laid-out tree in the view (and again after every layout, until the user
        zooms or pans)."""
        self._auto_fit = True
        self._frame(whole=True)
        self.update()

    def _frame(self, whole: bool = False) -> None:
        model = self.layout_model
        if model is None:
            return
        bounds = model.bounds()
        width, height = max(1, self.width()), max(1, self.height())
        scale = min(width / bounds.width(), height / bounds.height(), 1.0)
        if whole or scale >= READABLE_SCALE:
            self._scale = max(MIN_SCALE, scale)
            self._offset = QPointF(bounds.center().x() - width / 2 / self._scale, bounds.top())
            return
        # Too wide to read whole: readable, from the root's ply down, round the best move
        # (the principal variation's first step) and the replies it was searched against.
        self._scale = READABLE_SCALE
        path = [model.by_index[index] for index in model.pv if index in model.by_index]
        focus = path[min(1, len(path) - 1)].x if path else bounds.center().x()
        self._offset = QPointF(max(bounds.left(), focus - width / 2 / self._scale), bounds.top())

    def centre_on(self, index: int) -> None:
        model = self.layout_model
        placed = model.by_index.get(index) if model else None
        if placed is None:
            return
        self._auto_fit = False
        if self._scale < TEXT_MIN_SCALE:
            self._scale = READABLE_SCALE
        self._offset = QPointF(placed.x - self.width() / 2 / self._scale, placed.y - self.height() / 2 / self._scale)
        self.update()

    # ---------------------------------------------------------------- input
    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 (Qt's name)
        steps = event.angleDelta().y() / 120
        if steps:
            self.zoom_by(ZOOM_STEP ** steps, event.position())
        event.accept()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        key = event.key()
        if key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            self.zoom_by(ZOOM_STEP)
        elif key == Qt.Key.Key_Minus:
            self.zoom_by(1 / ZOOM_STEP)
        elif key == Qt.Key.Key_0:
            self.fit()
        elif key in STEP_KEYS and self.step(STEP_KEYS[key]):
            event.accept()
        elif key in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space) and self.selected is not None:
            self.toggle(self.selected)
        else:
            super().keyPressEvent(event)

    def step(self, direction: Step) -> bool:
        """Move the selection with the keyboard, as a student walks the tree: up to the
        parent, down to the first child (opening the node), left and right to the siblings.
        ``node_clicked`` follows; False when there is nowhere to go."""
        model = self.layout_model
        if model is None:
            return False
        current = model.by_index.get(self.selected) if self.selected is not None else None
        if current is None:
            target = model.items[0] if model.items else None
        elif direction is Step.UP:
            target = current.parent
        elif direction is Step.DOWN:
            if current.hidden_children:
                self.set_open(current.index, True)
                model = self.layout_model
                current = model.by_index.get(current.index) if model else None
            target = next((child for child in current.children if child.kind is ItemKind.NODE), None) if current else None
        else:
            siblings = [item for item in current.parent.children if item.kind is ItemKind.NODE] if current.parent else [current]
            position = siblings.index(current) + (1 if direction is Step.RIGHT else -1)
            target = siblings[position] if 0 <= position < len(siblings) else None
        if target is None or target.kind is not ItemKind.NODE:
            return False
        self.node_clicked.emit(target.index)
        self._keep_in_view(target)
        return True

    def _keep_in_view(self, item: Placed) -> None:
        shown = QRectF(self.to_scene(QPointF(0, 0)), self.to_scene(QPointF(self.width(), self.height())))
        if not shown.contains(QPointF(item.x, item.y)):
            self.centre_on(item.index)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if event.button() == Qt.MouseButton.LeftButton:
            self._press = event.position()
            self._press_offset = QPointF(self._offset)
            self._dragged = False
        event.accept()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if self._press is not None:
            moved = event.position() - self._press
            if self._dragged or abs(moved.x()) + abs(moved.y()) > CLICK_SLOP:
                self._dragged = True
                self._auto_fit = False
                self._offset = QPointF(self._press_offset.x() - moved.x() / self._scale,
                                       self._press_offset.y() - moved.y() / self._scale)
                self.setCursor(Qt.CursorShape.ClosedHandCursor)
                self.update()
            return
        self.setToolTip(self._tip_at(event.position()))

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if self._press is not None and not self._dragged and event.button() == Qt.MouseButton.LeftButton:
            self.click(event.position())
        self._press = None
        self._dragged = False
        self.unsetCursor()
        event.accept()

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        model = self.layout_model
        item = model.item_at(self.to_scene(event.position())) if model else None
        if item is not None and item.kind is ItemKind.NODE:
            self.toggle(item.index)
        event.accept()

    def click(self, point: QPointF) -> None:
        """A click at view point ``point``: select, open or show more."""
        model = self.layout_model
        if model is None:
            return
        scene = self.to_scene(point)
        item = model.item_at(scene)
        if item is None:
            return
        if item.kind is ItemKind.MORE:
            self.show_more(item.index)
            return
        if item.kind is ItemKind.NODE and item.hidden_children and handle_rect(item).contains(scene):
            self.set_open(item.index, True)
        self.node_clicked.emit(item.index)

    def point_of(self, index: int) -> QPointF | None:
        """Where node ``index`` is drawn (view coordinates), for a test's click."""
        placed = self.layout_model.by_index.get(index) if self.layout_model else None
        return None if placed is None else self.to_view(QPointF(placed.x, placed.y))

    def _tip_at(self, point: QPointF) -> str:
        model = self.layout_model
        item = model.item_at(self.to_scene(point)) if model else None
        if item is None:
            return ""
        if item.kind is ItemKind.STUB:
            pruned = f"\nPruned: {', '.join(item.stub_moves)}" if item.stub_moves else ""
            return f"{item.label}{pruned}"
        if item.kind is ItemKind.MORE:
            return "Click to show more of this node's children"
        move = item.above[-1] if item.above else "root"
        pruned = f", {item.pruned} more moves pruned by a cut-off" if item.pruned else ""
        opening = (f"\n{item.hidden_children} children searched{pruned}: click the handle or double-click to open"
                   if item.hidden_children else "")
        return f"{move}: {item.node_kind} node, value {item.below[0]}{opening}"

    def resizeEvent(self, event: object) -> None:  # noqa: N802
        if self._auto_fit:
            self._frame()
        super().resizeEvent(event)  # type: ignore[arg-type]

    # ---------------------------------------------------------------- painting
    def paintEvent(self, _event: QPaintEvent) -> None:  # noqa: N802
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        theme = self._theme
        painter.fillRect(self.rect(), color(theme.panel))
        model = self.layout_model
        if model is None:
            painter.setPen(color(theme.muted_text))
            painter.drawText(QRectF(self.rect()).adjusted(12, 12, -12, -12), Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap,
                             "No tree yet: the tree of the engine's next search is drawn here.")
            painter.end()
            return
        area = QRectF(self.to_scene(QPointF(0, 0)), self.to_scene(QPointF(self.width(), self.height())))
        painter.translate(-self._offset.x() * self._scale, -self._offset.y() * self._scale)
        painter.scale(self._scale, self._scale)
        items = list(model.visible(area.adjusted(-area.width(), -LEVEL_HEIGHT, area.width(), LEVEL_HEIGHT)))
        self.painted_items = len(items)
        with_text = self._scale >= TEXT_MIN_SCALE
        self._paint_edges(painter, items, area)
        for item in items:
            painter.setOpacity(FADED_OPACITY if self._is_ahead(item) else 1.0)
            if item.kind is ItemKind.NODE:
                self._paint_node(painter, item, with_text)
            elif item.kind is ItemKind.STUB:
                self._paint_stub(painter, item, with_text)
            else:
                self._paint_more(painter, item, with_text)
        painter.end()

    def _colours(self) -> tuple[QColor, QColor, QColor, QColor]:
        theme = self._theme
        return color(theme.text), color(theme.muted_text), color(theme.accent), color(theme.panel)

    def _paint_edges(self, painter: QPainter, items: list[Placed], area: QRectF) -> None:
        """The edges of every parent with an end among ``items``: straight lines as the
        lecture notes draw them, or, for a fan wider than ``CENTRE_SPAN_MAX``, a bus (down
        from the parent, along the gap between the plies, down to each child) so that no
        edge runs through the labels of the parent's own ply."""
        _text, muted, accent, _panel = self._colours()
        pens = EdgePens(QPen(muted, EDGE_WIDTH), QPen(accent, PV_WIDTH), QPen(muted, EDGE_WIDTH, Qt.PenStyle.DashLine))
        pens.pv.setCapStyle(Qt.PenCapStyle.RoundCap)
        parents = {id(item.parent): item.parent for item in items if item.parent is not None}
        for item in items:
            if item.kind is ItemKind.NODE and item.children:
                parents[id(item)] = item
        for parent in parents.values():
            if parent is None:
                continue
            first, last = parent.children[0], parent.children[-1]
            if min(first.left, parent.x) > area.right() or max(last.right, parent.x) < area.left():
                continue
            if last.x - first.x > CENTRE_SPAN_MAX:
                self._paint_bus(painter, parent, pens)
            else:
                self._paint_fan(painter, parent, pens)

    def _paint_fan(self, painter: QPainter, parent: Placed, pens: EdgePens) -> None:
        start = QPointF(parent.x, parent.bottom())
        for child in parent.children:
            if child.kind is ItemKind.STUB:
                if child.pruned:  # a cut at the last move prunes nothing: its reason alone, no stub
                    painter.setPen(pens.stub)
                    for x in stub_xs(child):
                        painter.drawLine(start, QPointF(x, stub_end(child)))
                    self._paint_crosses(painter, child)
                continue
            on_pv = child.on_pv and parent.on_pv
            painter.setPen(pens.pv if on_pv else (pens.stub if child.kind is ItemKind.MORE else pens.edge))
            painter.drawLine(start, QPointF(child.x, child.top()))

    def _paint_bus(self, painter: QPainter, parent: Placed, pens: EdgePens) -> None:
        bus = parent.y + LEVEL_HEIGHT - BUS_RISE
        start = QPointF(parent.x, parent.bottom())
        drawn = [child for child in parent.children if child.kind is not ItemKind.STUB]
        xs = [parent.x, *(child.x for child in drawn)]
        painter.setPen(pens.edge)
        painter.drawLine(start, QPointF(parent.x, bus))
        painter.drawLine(QPointF(min(xs), bus), QPointF(max(xs), bus))
        for child in drawn:
            painter.setPen(pens.stub if child.kind is ItemKind.MORE else pens.edge)
            painter.drawLine(QPointF(child.x, bus), QPointF(child.x, child.top()))
        for stub in (child for child in parent.children if child.kind is ItemKind.STUB and child.pruned):
            painter.setPen(pens.stub)
            for x in stub_xs(stub):
                painter.drawLine(QPointF(max(xs), bus), QPointF(x, bus))
                painter.drawLine(QPointF(x, bus), QPointF(x, stub_end(stub)))
            self._paint_crosses(painter, stub)
        principal = next((child for child in drawn if child.on_pv and parent.on_pv), None)
        if principal is not None:
            painter.setPen(pens.pv)
            painter.drawPolyline(QPolygonF([start, QPointF(parent.x, bus), QPointF(principal.x, bus),
                                            QPointF(principal.x, principal.top())]))

    def _paint_crosses(self, painter: QPainter, stub: Placed) -> None:
        """A cross at the end of each named stub: the branch is cut there."""
        if not stub.stub_moves:
            return
        painter.save()
        pen = QPen(painter.pen())
        pen.setStyle(Qt.PenStyle.SolidLine)
        pen.setWidthF(1.6)
        painter.setPen(pen)
        end_y = stub_end(stub)
        for x in stub_xs(stub):
            painter.drawLine(QPointF(x - 4, end_y - 4), QPointF(x + 4, end_y + 4))
            painter.drawLine(QPointF(x - 4, end_y + 4), QPointF(x + 4, end_y - 4))
        painter.restore()

    def _kind_colour(self, kind: NodeKind) -> QColor:
        theme = self._theme
        if kind is NodeKind.MAX:
            return color(theme.mark_x)
        if kind is NodeKind.MIN:
            return color(theme.mark_o)
        return color(theme.text)

    def _paint_node(self, painter: QPainter, item: Placed, with_text: bool) -> None:
        text, muted, accent, panel = self._colours()
        glyph = GLYPHS[item.node_kind]
        centre = QPointF(item.x, item.y)
        if item.index == self.selected or item.index == self.highlighted:
            ring = accent if item.index == self.selected else color(self._theme.edit_problem)
            painter.setPen(QPen(ring, 2.5))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(centre, GLYPH * 0.8, GLYPH * 0.8)
        kind_colour = self._kind_colour(item.node_kind)
        outline = QPen(accent if item.on_pv else kind_colour, 2.2 if item.on_pv else 1.4)
        if item.is_open:
            outline.setStyle(Qt.PenStyle.DotLine)
        painter.setPen(outline)
        painter.setBrush(kind_colour if glyph.filled and not item.is_open else panel)
        draw_glyph(painter, glyph, centre)
        if glyph.letter and with_text:
            painter.setFont(self._label_font)
            painter.setPen(text)
            painter.drawText(QRectF(item.x - GLYPH / 2, item.y - GLYPH / 2, GLYPH, GLYPH), Qt.AlignmentFlag.AlignCenter, glyph.letter)
        if not with_text:
            return
        painter.setFont(self._label_font)
        painter.setPen(muted)
        for line, words in enumerate(reversed(item.above)):
            top = item.y - GLYPH / 2 - 2 - LINE * (line + 1)
            painter.drawText(QRectF(item.left, top, item.width, LINE), Qt.AlignmentFlag.AlignCenter, words)
        painter.setFont(self._value_font)
        painter.setPen(accent if item.on_pv else text)
        value_top = item.y + GLYPH / 2 + 2
        painter.drawText(QRectF(item.left, value_top, item.width, LINE + 2), Qt.AlignmentFlag.AlignCenter, item.below[0])
        painter.setFont(self._label_font)
        painter.setPen(muted)
        for line, words in enumerate(item.below[1:], start=1):
            painter.drawText(QRectF(item.left, value_top + LINE * line + 1, item.width, LINE), Qt.AlignmentFlag.AlignCenter, words)
        if item.hidden_children:
            handle = handle_rect(item)
            painter.setFont(self._label_font)
            painter.setPen(QPen(muted, 1))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(handle.adjusted(2, 1, -2, 0), 4, 4)
            painter.drawText(handle, Qt.AlignmentFlag.AlignCenter, handle_text(item))

    def _paint_stub(self, painter: QPainter, item: Placed, with_text: bool) -> None:
        if not with_text:
            return
        text, muted, _accent, _panel = self._colours()
        painter.setFont(self._label_font)
        painter.setPen(muted)
        count = len(item.stub_moves)
        top = item.y - GLYPH / 2 + 6
        slot = (item.width - SLOT_GAP) / max(count, 1)
        for x, name in zip(stub_xs(item), item.stub_moves):
            painter.drawText(QRectF(x - slot / 2, top, slot, LINE), Qt.AlignmentFlag.AlignCenter, name)
        first = top + (LINE if count else 0)
        painter.setPen(text)
        for line, words in enumerate(item.below):
            painter.drawText(QRectF(item.left, first + LINE * line, item.width, LINE), Qt.AlignmentFlag.AlignCenter, words)

    def _paint_more(self, painter: QPainter, item: Placed, with_text: bool) -> None:
        _text, muted, _accent, _panel = self._colours()
        box = QRectF(item.left + SLOT_GAP / 2, item.y - LINE / 2 - 2, item.width - SLOT_GAP, LINE + 4)
        painter.setPen(QPen(muted, 1, Qt.PenStyle.DashLine))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(box, 5, 5)
        if with_text:
            painter.setFont(self._label_font)
            painter.setPen(muted)
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter, item.below[0])


@dataclass(frozen=True)
class EdgePens:
    edge: QPen
    pv: QPen
    stub: QPen


def stub_end(stub: Placed) -> float:
    """Where a stub's dashed line ends (its cross), above the names of the pruned moves."""
    return stub.y - GLYPH / 2


def stub_xs(stub: Placed) -> list[float]:
    """Where a stub group's dashed stubs end: one per named pruned move, spread over the
    group's width, or one in the middle."""
    count = len(stub.stub_moves)
    if count <= 1:
        return [stub.x]
    slot = (stub.width - SLOT_GAP) / count
    return [stub.left + SLOT_GAP / 2 + slot * (position + 0.5) for position in range(count)]


def draw_glyph(painter: QPainter, glyph: Glyph, centre: QPointF) -> None:
    """A node's shape centred on ``centre`` with the painter's pen and brush."""
    half = glyph.size / 2
    x, y = centre.x(), centre.y()
    if glyph.shape is Shape.UP:
        painter.drawPolygon(QPolygonF([QPointF(x, y - half), QPointF(x + half * 1.1, y + half * 0.85), QPointF(x - half * 1.1, y + half * 0.85)]))
    elif glyph.shape is Shape.DOWN:
        painter.drawPolygon(QPolygonF([QPointF(x, y + half), QPointF(x + half * 1.1, y - half * 0.85), QPointF(x - half * 1.1, y - half * 0.85)]))
    elif glyph.shape is Shape.CIRCLE:
        painter.drawEllipse(centre, half, half)
    elif glyph.shape is Shape.DIAMOND:
        painter.drawPolygon(QPolygonF([QPointF(x, y - half), QPointF(x + half, y), QPointF(x, y + half), QPointF(x - half, y)]))
    else:
        painter.drawRect(QRectF(x - half, y - half, glyph.size, glyph.size))
