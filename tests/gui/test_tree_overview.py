"""The whole-tree overview (gui/panels/tree/overview.py): an icicle whose blocks are as wide
as their subtrees, coloured by node kind, with each ply's cut-off share beside it, that stays
cheap on a 100,000-node tree arriving in batches.

The trees are recorded by a small fail-soft alpha-beta below (windows and values in MAX's
view, as ``ai.tree.model`` says), over uniform game trees with random leaves, and checked
against ``SearchTree``'s own counts (``size``) and counts made here from the records.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QWidget

from ai.scores import INFINITY
from ai.tree.model import ROOT_PARENT, Cut, NodeEntry, NodeExit, NodeKind, SearchTree, TreeBatch, TreePass
from ai.tree.replay import Replay, ReplayEvent
from ai.tt import Bound
from gui.panels.tree.overview import (
    CHUNK,
    DARK_KIND_COLOURS,
    LIGHT_KIND_COLOURS,
    MIN_BLOCK,
    PAINT_STEP,
    PLACE_STEP,
    REFRESH_MS,
    IcicleView,
    PlyCounts,
    Work,
    kind_colours,
    side_plies,
)
from gui.theme import DARK, LIGHT

INF = float(INFINITY)


class Recorder:
    """Fail-soft alpha-beta (AIMA fig. 5.7) over a uniform tree, recording as the engine's
    recorder does: entries in visit order, exits after the children, a cut naming the
    moves never searched; every ``batch_nodes`` entries a batch is cut."""

    def __init__(self, branching: int, depth: int, seed: int = 1, batch_nodes: int = 5_000) -> None:
        self.branching, self.depth = branching, depth
        self.random = random.Random(seed)
        self.batch_nodes = batch_nodes
        self.batches: list[TreeBatch] = []
        self._entries: list[NodeEntry] = []
        self._exits: list[NodeExit] = []
        self._cuts: list[Cut] = []
        self._passes: list[TreePass] = []
        self.count = 0

    def run(self) -> list[TreeBatch]:
        self._passes.append(TreePass(0, 0, self.depth, -INF, INF))
        self.value = self._search(ROOT_PARENT, None, self.depth, -INF, INF, True)
        self._flush(complete=True)
        return self.batches

    def _search(self, parent: int, move: Any, depth: int, alpha: float, beta: float, is_max: bool) -> float:
        index = self.count
        self.count += 1
        kind = NodeKind.LEAF if depth == 0 else NodeKind.MAX if is_max else NodeKind.MIN
        self._entries.append(NodeEntry(index, parent, move, depth, kind, alpha, beta))
        if depth == 0:
            value = float(self.random.randint(-50, 50))
        else:
            value = -INF if is_max else INF
            moves = [f"m{number}" for number in range(self.branching)]
            for number, child_move in enumerate(moves):
                child = self._search(index, child_move, depth - 1, alpha, beta, not is_max)
                if is_max:
                    value, alpha = max(value, child), max(alpha, child)
                else:
                    value, beta = min(value, child), min(beta, child)
                if alpha >= beta:
                    self._cuts.append(Cut(index, child_move, tuple(moves[number + 1:])))
                    break
        bound = Bound.EXACT
        if value >= beta and depth:
            bound = Bound.LOWER
        elif value <= alpha and depth:
            bound = Bound.UPPER
        self._exits.append(NodeExit(index, value, bound, kind))
        if len(self._entries) >= self.batch_nodes:
            self._flush()
        return value

    def _flush(self, complete: bool = False) -> None:
        self.batches.append(TreeBatch(
            1, tuple(self._passes), tuple(self._entries), tuple(self._exits), tuple(self._cuts),
            nodes=self.count, complete=complete,
        ))
        self._passes, self._entries, self._exits, self._cuts = [], [], [], []


def recorded_tree(branching: int, depth: int, seed: int = 1) -> SearchTree:
    tree = SearchTree()
    for batch in Recorder(branching, depth, seed).run():
        tree.add(batch)
    return tree


def shown(qtbot: Any, tree: SearchTree, theme: Any = LIGHT, size: tuple[int, int] = (700, 360)) -> IcicleView:
    view = IcicleView()
    qtbot.addWidget(view)
    view.set_theme(theme)
    view.resize(*size)
    view.set_tree(tree)
    view.refresh_now()
    return view


def level_of(tree: SearchTree, index: int) -> int:
    return len(tree.path(index)) - 1


def test_blocks_are_as_wide_as_their_subtrees_and_children_fill_their_parent(qtbot: Any) -> None:
    tree = recorded_tree(4, 5)
    view = shown(qtbot, tree)
    picture = view.picture()
    layout = view.layout_model
    assert layout is not None
    root = tree.roots()[0]
    assert layout.size(0) == tree.size(root.index) == len(tree)
    scale = picture.plot.width() / tree.size(root.index)
    checked = 0
    for position, block in picture.by_position.items():
        node = tree.nodes[position]
        assert layout.size(position) == tree.size(node.index)
        assert block.right - block.left == pytest.approx(tree.size(node.index) * scale)
        children = tree.children(node.index)
        if children and all(layout.position_of[child.index] in picture.by_position for child in children):
            spans = [picture.by_position[layout.position_of[child.index]] for child in children]
            # the node's own visit at the left, then its children side by side, to its right end
            assert spans[0].left == pytest.approx(block.left + scale)
            for before, after in zip(spans, spans[1:]):
                assert after.left == pytest.approx(before.right)
            assert spans[-1].right == pytest.approx(block.right)
            checked += 1
    assert checked > 20
    assert picture.by_position[0].right - picture.by_position[0].left == pytest.approx(picture.plot.width())


@pytest.mark.parametrize("theme, colours", [(LIGHT, LIGHT_KIND_COLOURS), (DARK, DARK_KIND_COLOURS)])
def test_blocks_are_coloured_by_kind(qtbot: Any, theme: Any, colours: Any) -> None:
    tree = recorded_tree(3, 3)
    view = shown(qtbot, tree, theme)
    assert kind_colours(theme) is colours
    image = view.render_image()
    picture = view.picture()
    seen = set()
    for position, block in picture.by_position.items():
        if block.right - block.left < 8:
            continue
        node = tree.nodes[position]
        y = picture.top + block.row * picture.row_height + picture.row_height / 2
        pixel = image.pixelColor(QPoint(round(block.left + 3), round(y)))
        assert pixel.name() == colours.color(node.kind).name(), (node, pixel.name())
        seen.add(node.kind)
    assert seen == {NodeKind.MAX, NodeKind.MIN, NodeKind.LEAF}
    text = colours.color(NodeKind.MAX)
    panel = theme.color("panel")
    assert abs(text.lightnessF() - panel.lightnessF()) > 0.2  # a block stands out from the panel


def test_cut_share_per_ply_counts_the_records(qtbot: Any) -> None:
    tree = recorded_tree(4, 5, seed=7)
    view = shown(qtbot, tree)
    layout = view.layout_model
    assert layout is not None
    counts = layout.ply_counts(0)
    expected: dict[int, list[int]] = {}
    for node in tree.nodes:
        row = expected.setdefault(level_of(tree, node.index), [0, 0, 0, 0])
        row[0] += 1
        if node.kind in (NodeKind.MAX, NodeKind.MIN, NodeKind.CHANCE):
            row[1] += 1
            if node.skipped or node.cut_move is not None:
                row[2] += 1
                row[3] += len(node.skipped)
    assert [[c.nodes, c.can_cut, c.cut, c.pruned] for c in counts] == [expected[ply] for ply in sorted(expected)]
    assert any(c.cut for c in counts) and counts[-1].can_cut == 0
    assert 0 < counts[1].cut_share < 1
    text = view._side_text(counts[2])
    assert text == f"ply 2 · {counts[2].cut / counts[2].can_cut:.0%} cut · {counts[2].pruned:,} pruned"


def test_a_click_chooses_the_node_under_the_pointer(qtbot: Any) -> None:
    tree = recorded_tree(3, 4)
    view = shown(qtbot, tree)
    view.show()
    qtbot.waitExposed(view)
    picture = view.picture()
    for position in (0, 1, 2, 5):
        block = picture.by_position[position]
        point = QPoint(round((block.left + block.right) / 2), round(picture.top + (block.row + 0.5) * picture.row_height))
        with qtbot.waitSignal(view.node_chosen, timeout=2000) as chosen:
            qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=point)
        assert chosen.args == [tree.nodes[position].index]
        index = tree.nodes[position].index
        tooltip = view.describe_at(point.x(), point.y())
        line = " ".join(tree.moves_to(index)) or "the root"
        assert tooltip.startswith(f"{line}  —  ") and f"{tree.size(index):,} node" in tooltip


def test_double_click_zooms_into_a_subtree_and_right_click_backs_out(qtbot: Any) -> None:
    tree = recorded_tree(3, 4)
    view = shown(qtbot, tree)
    view.show()
    qtbot.waitExposed(view)
    picture = view.picture()
    block = picture.by_position[1]
    point = QPoint(round((block.left + block.right) / 2), round(picture.top + 1.5 * picture.row_height))
    with qtbot.waitSignal(view.zoom_changed, timeout=2000) as zoomed:
        qtbot.mouseDClick(view, Qt.MouseButton.LeftButton, pos=point)
    assert zoomed.args == [tree.nodes[1].index]
    picture = view.picture()
    assert picture.by_position[1].right - picture.by_position[1].left == pytest.approx(picture.plot.width())
    assert 0 not in picture.by_position
    with qtbot.waitSignal(view.zoom_changed, timeout=2000) as back:
        qtbot.mouseClick(view, Qt.MouseButton.RightButton, pos=point)
    assert back.args == [0]


def test_a_hundred_thousand_nodes_arriving_in_batches_cost_a_bounded_amount_of_work(qtbot: Any) -> None:
    """97,656 nodes (branching 5, depth 7... cut by alpha-beta) in batches: each batch costs
    nothing at arrival, each node is read once, and a picture draws at most a pixel's
    worth of rectangles per row."""
    recorder = Recorder(8, 7, seed=3, batch_nodes=4_000)
    batches = recorder.run()
    tree = SearchTree()
    view = IcicleView()
    qtbot.addWidget(view)
    view.resize(800, 400)
    view.show()
    qtbot.waitExposed(view)
    layout = None
    for batch in batches:
        tree.add(batch)
        view.set_tree(tree)
        layout = view.layout_model
        assert layout is not None
    assert layout is not None
    assert layout.read == 0  # the batches only started the timer: nothing is read per batch
    qtbot.waitUntil(lambda: view.layout_model is not None and view.layout_model.read == len(tree), timeout=10_000)
    assert len(tree) > 50_000, len(tree)
    picture = view.picture()
    rows = len(picture.rows)
    assert picture.rectangles <= picture.plot.width() / MIN_BLOCK * rows
    assert picture.runs > 0  # narrow siblings were drawn together
    assert layout.size(0) == tree.size(0) == len(tree)
    renders = view.renders
    view.set_tree(tree)  # nothing new: no new picture
    qtbot.wait(REFRESH_MS + 200)  # the refresh has run, found nothing new
    view.repaint()
    assert view.renders == renders



def test_a_root_splits_workers_interleaved_make_one_icicle_and_one_replay(qtbot: Any) -> None:
    """Two workers of a root split share the root and send their nodes interleaved, each in
    its own visit order from 0: the icicle counts the root once per worker, as
    ``SearchTree.size`` does, and the replay enters and leaves every node."""
    MAX, MIN, LEAF, EXACT = NodeKind.MAX, NodeKind.MIN, NodeKind.LEAF, Bound.EXACT
    root_pass = (TreePass(0, 0, 2, -INF, INF),)

    def leaves(parent: int, first: int, values: list[int]) -> tuple[tuple[NodeEntry, ...], tuple[NodeExit, ...]]:
        entries = tuple(NodeEntry(first + n, parent, f"x{first + n}", 0, LEAF, -INF, INF) for n in range(len(values)))
        exits = tuple(NodeExit(first + n, value, EXACT, LEAF) for n, value in enumerate(values))
        return entries, exits

    a1_leaves, a1_exits = leaves(1, 2, [3, 12, 8])
    a2_leaves, a2_exits = leaves(5, 6, [2])
    a3_first, a3_first_exit = leaves(1, 2, [14])
    a3_rest, a3_rest_exits = leaves(1, 3, [5, 2])
    batches = [
        TreeBatch(1, root_pass, (NodeEntry(0, ROOT_PARENT, None, 2, MAX, -INF, INF),
                                 NodeEntry(1, 0, "a1", 1, MIN, -INF, INF), *a1_leaves),
                  (*a1_exits, NodeExit(1, 3, EXACT, MIN)), nodes=5, worker=0),
        TreeBatch(1, root_pass, (NodeEntry(0, ROOT_PARENT, None, 2, MAX, -INF, INF),
                                 NodeEntry(1, 0, "a3", 1, MIN, -INF, INF), *a3_first),
                  a3_first_exit, nodes=3, worker=1),
        TreeBatch(1, (), (NodeEntry(5, 0, "a2", 1, MIN, 3, INF), *a2_leaves),
                  (*a2_exits, NodeExit(5, 2, Bound.UPPER, MIN), NodeExit(0, 3, EXACT, MAX)),
                  (Cut(5, "x6", ("c2", "c3")),), nodes=7, worker=0),
        TreeBatch(1, (), a3_rest, (*a3_rest_exits, NodeExit(1, 2, EXACT, MIN), NodeExit(0, 2, EXACT, MAX)),
                  nodes=5, worker=1, complete=True),
    ]
    tree = SearchTree()
    for batch in batches:
        tree.add(batch)
    root = tree.roots()[0]
    assert len(tree.roots()) == 1 and len(tree.children(root.index)) == 3
    view = shown(qtbot, tree)
    layout = view.layout_model
    assert layout is not None
    assert layout.size(layout.position_of[root.index]) == tree.size(root.index) == 12
    for node in tree.nodes:
        assert layout.size(layout.position_of[node.index]) == tree.size(node.index), node
    assert [counts.nodes for counts in layout.ply_counts(0)] == [1, 3, 7]
    replay = Replay(tree)
    replay.extend()
    entered = [step.node for step in replay.steps() if step.event is ReplayEvent.ENTER]
    left = [step.node for step in replay.steps() if step.event is ReplayEvent.LEAVE]
    assert sorted(entered) == sorted(left) == sorted(node.index for node in tree.nodes)
    assert replay.steps()[-1].node == root.index and root.value == 3


def test_a_replay_step_fades_the_nodes_not_reached_without_placing_the_blocks_again(qtbot: Any) -> None:
    tree = recorded_tree(3, 4)
    view = shown(qtbot, tree)
    picture = view.picture()
    placements = view.placements
    view.set_visited_through(5)
    image = view.render_image()
    assert view.placements == placements  # only the colours changed
    colours = kind_colours(LIGHT)
    for position, block in view.picture().by_position.items():
        if block.right - block.left < 8:
            continue
        node = tree.nodes[position]
        y = picture.top + block.row * picture.row_height + picture.row_height / 2
        pixel = image.pixelColor(QPoint(round(block.left + 3), round(y)))
        full = colours.color(node.kind).name()
        assert (pixel.name() == full) == (node.index <= 5), (node.index, pixel.name(), full)


def test_a_hidden_overview_reads_nothing_until_it_is_shown(qtbot: Any) -> None:
    tree = recorded_tree(3, 4)
    window = QWidget()
    view = IcicleView(window)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    view.hide()
    view.set_tree(tree)
    qtbot.wait(50)
    assert view.layout_model is not None and view.layout_model.read == 0
    view.show()
    qtbot.waitUntil(lambda: view.layout_model is not None and view.layout_model.read == len(tree), timeout=2000)


def test_a_growing_tree_is_read_and_drawn_in_slices_each_turn_bounded(qtbot: Any) -> None:
    """While batches arrive, no turn of the app's loop reads more than ``CHUNK`` nodes, places
    more than ``PLACE_STEP`` blocks or fills more than ``PAINT_STEP`` rectangles; the paint
    event only copies the image; and the picture made in slices is the one made at once."""
    batches = Recorder(8, 6, seed=5, batch_nodes=2_000).run()
    tree = SearchTree()
    view = IcicleView()
    qtbot.addWidget(view)
    view.resize(800, 400)
    view.show()
    qtbot.waitExposed(view)
    made_at_once: list[int] = []
    render_image = view.render_image
    view.render_image = lambda: (made_at_once.append(1), render_image())[1]  # type: ignore[method-assign]
    for batch in batches:
        tree.add(batch)
        view.set_tree(tree)
        qtbot.wait(5)

    def settled() -> bool:
        layout = view.layout_model
        return layout is not None and layout.read == len(tree) and view.is_picture_current()

    qtbot.waitUntil(settled, timeout=10_000)
    assert made_at_once == []  # every picture of the growing tree was made off the paint event
    most = view.work.most
    assert 0 < most[Work.READ] <= CHUNK
    assert 0 < most[Work.PLACE] <= PLACE_STEP
    assert 0 < most[Work.PAINT] <= PAINT_STEP
    assert view.work.turns > 2 * view.renders  # each picture took several turns
    shown_picture = view.picture()  # current: nothing made now
    assert made_at_once == []
    sliced = view.grab().toImage()
    at_once = render_image()
    assert len(made_at_once) == 0 and at_once.size() == sliced.size()
    assert at_once.convertToFormat(sliced.format()) == sliced
    assert shown_picture.by_position.keys() == view.picture().by_position.keys()


def test_thin_rows_write_the_ply_that_cut_for_each_pair_of_plies() -> None:
    """Rows too thin for a line each are written in groups: a probe whose MIN plies did all
    the cutting names those plies (not the MAX plies above them, with 0% cut)."""
    counts = [PlyCounts(0, 1, 1, 0, 0), PlyCounts(1, 20, 20, 20, 300), PlyCounts(2, 20, 20, 0, 0),
              PlyCounts(3, 400, 400, 380, 5_000), PlyCounts(4, 12)]
    assert side_plies(counts, 0, 5, 2) == [(range(0, 2), 1), (range(2, 4), 3), (range(4, 5), 4)]
    assert side_plies(counts, 0, 5, 1) == [(range(ply, ply + 1), ply) for ply in range(5)]
    assert side_plies(counts, 2, 3, 3) == [(range(2, 5), 3)]
    no_cuts = [PlyCounts(ply, 5, 5) for ply in range(4)]
    assert side_plies(no_cuts, 0, 4, 2) == [(range(0, 2), 0), (range(2, 4), 2)]


def test_a_cancelled_search_is_not_called_searching(qtbot: Any) -> None:
    tree = recorded_tree(3, 3)
    tree.complete = False
    growing = shown(qtbot, tree)
    assert "searching…" in growing._header(0)
    tree.cancelled = True  # what the bridge sets when the search is cancelled before it answers
    cancelled = shown(qtbot, tree)
    header = cancelled._header(0)
    assert "cancelled before it answered" in header and "searching" not in header
