"""The tree panel's textbook view, checked against real recorded searches (``ai.engine.search``
with ``tree``) and against small trees written out by hand: every node kind has its own
look, the thick path is the search's principal variation, each cut-off has its stub with
the reason, opening and closing a node changes what is laid out, a click selects a node
and fills its details, and a 100,000-node tree arriving in batches lays out only its
visible part."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication

from ai import display as engine_display
from ai.engine import search
from ai.events import Finished, Score
from ai.scores import WIN_SCORE
from ai.settings import Limits, SearchSettings
from ai.tree.mcts import MctsSnapshot
from ai.tree.model import ROOT_PARENT, Cut, NodeEntry, NodeExit, NodeKind, SearchTree, TreeBatch, TreeOptions, TreePass
from ai.tt import Bound
from games import new_game
from games.base import GameState
from gui.panels.tree.node_text import NodeTexts
from gui.panels.tree.panel import NOT_RECORDED, PYTHON_TWIN, TreePanel
from gui.panels.tree.textbook import GLYPHS, LAYOUT_BUDGET, MAX_CHILDREN_SHOWN, ZOOM_STEP, ItemKind, TreeLayout
from gui.theme import DARK, LIGHT, Theme, color
from tests.ai.test_tree_pool import interleaved, split_search
from tests.ai.test_tree_pool import position as split_position

MIDDLEGAME = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"


def recorded(state: GameState, algorithm: str, depth: int) -> tuple[Finished, list[TreeBatch]]:
    """A real search of ``state`` that records its tree: its answer and its batches."""
    events: list[Any] = []
    finished = search(state, SearchSettings(algorithm=algorithm, book=False), Limits(depth=depth),
                      on_event=events.append, tree=TreeOptions())
    return finished, [event for event in events if isinstance(event, TreeBatch)]


def fed_panel(qtbot: Any, state: GameState, batches: list[TreeBatch], algorithm: str = "alphabeta") -> TreePanel:
    panel = TreePanel()
    qtbot.addWidget(panel)
    panel.resize(900, 700)
    panel.show()
    qtbot.waitExposed(panel)
    panel.start(state, type(state), SearchSettings(algorithm=algorithm))
    for batch in batches:
        panel.add_batch(batch)
    panel.view.relayout()
    return panel


def layout_of(panel: TreePanel) -> TreeLayout:
    model = panel.view.layout_model
    assert model is not None, "the view laid nothing out"
    return model


class HandTree:
    """A tree written out node by node, as a recorder would send it (one pass)."""

    def __init__(self, alpha: float = -WIN_SCORE * 10, beta: float = WIN_SCORE * 10) -> None:
        self.entries: list[NodeEntry] = []
        self.exits: list[NodeExit] = []
        self.cuts: list[Cut] = []
        self.alpha, self.beta = alpha, beta

    def node(self, parent: int, move: Any, kind: NodeKind, value: float, bound: Bound = Bound.EXACT,
             final: NodeKind | None = None, probability: float = 1.0) -> int:
        index = len(self.entries)
        self.entries.append(NodeEntry(index, parent, move, 1, kind, self.alpha, self.beta, probability))
        self.exits.append(NodeExit(index, value, bound, final or kind))
        return index

    def cut(self, index: int, move: Any, skipped: tuple[Any, ...]) -> None:
        self.cuts.append(Cut(index, move, skipped))

    def batch(self) -> TreeBatch:
        return TreeBatch(0, (TreePass(0, 0, 1, self.alpha, self.beta),), tuple(self.entries), tuple(self.exits),
                         tuple(self.cuts), nodes=len(self.entries), complete=True)


# ---------------------------------------------------------------- what each node looks like
def test_every_kind_is_drawn_its_own_way_without_colour(qtbot: Any) -> None:
    state = new_game("tictactoe")
    hand = HandTree()
    root = hand.node(ROOT_PARENT, None, NodeKind.MAX, 0)
    kinds = [NodeKind.MIN, NodeKind.CHANCE, NodeKind.LEAF, NodeKind.TERMINAL, NodeKind.QUIESCENCE,
             NodeKind.TT_CUT, NodeKind.SOLVER, NodeKind.STATIC_CUT]
    children = [hand.node(root, square, NodeKind.MIN, 0, final=kind) for square, kind in enumerate(kinds)]
    panel = fed_panel(qtbot, state, [hand.batch()])
    placed = layout_of(panel).by_index
    assert placed[root].node_kind is NodeKind.MAX
    assert [placed[child].node_kind for child in children] == kinds
    looks = {(glyph.shape, glyph.filled, glyph.letter, glyph.size) for glyph in GLYPHS.values()}
    assert len(looks) == len(NodeKind), "two kinds of node look the same in black and white"
    assert GLYPHS[NodeKind.MAX].shape.value == "▲" and GLYPHS[NodeKind.MIN].shape.value == "▼"
    for kind in NodeKind:  # drawn as the symbol every view of the tree names it by
        glyph = GLYPHS[kind]
        if glyph.letter:
            assert glyph.letter == kind.symbol
        else:
            assert glyph.filled == (kind.symbol in "▲▼●■"), kind
    assert [placed[child].above for child in children[:3]] == [("a3",), ("b3",), ("c3",)]


def test_values_are_in_the_games_units_with_bounds(qtbot: Any) -> None:
    state = new_game("chess", MIDDLEGAME)
    hand = HandTree()
    root = hand.node(ROOT_PARENT, None, NodeKind.MAX, 120, Bound.LOWER)
    e4 = hand.node(root, state.parse_move("d4"), NodeKind.MIN, -35, Bound.UPPER)
    mate = hand.node(root, state.parse_move("Bc4"), NodeKind.MIN, WIN_SCORE - 5)
    panel = fed_panel(qtbot, state, [hand.batch()])
    placed = layout_of(panel).by_index
    assert placed[root].below == ("≥ +1.20",)
    assert placed[e4].below == ("≤ -0.35",)
    assert placed[mate].below == ("#3",)
    assert placed[e4].above == ("d4",)


def test_chance_edges_carry_the_outcome_probabilities(qtbot: Any) -> None:
    state = new_game("backgammon")
    outcomes = state.chance_outcomes() if state.to_move() < 0 else []
    if not outcomes:
        pytest.skip("the backgammon start is not a roll")
    hand = HandTree()
    root = hand.node(ROOT_PARENT, None, NodeKind.CHANCE, 0)
    children = [hand.node(root, roll, NodeKind.MAX, 0, probability=probability) for roll, probability in outcomes]
    panel = fed_panel(qtbot, state, [hand.batch()], algorithm="expectiminimax")
    placed = layout_of(panel).by_index
    assert placed[root].node_kind is NodeKind.CHANCE
    texts = {placed[child].above[0] for child in children}
    assert texts <= {"1/36", "1/18", "1/30", "1/15"}, texts
    assert len(children) in (15, 21, 30)


# ---------------------------------------------------------------- the principal variation
@pytest.mark.parametrize(("game", "position", "algorithm", "depth"), [
    ("tictactoe", None, "alphabeta", 9),
    ("chess", MIDDLEGAME, "pvs", 3),
    ("othello", None, "mtdf", 4),
    ("checkers", None, "alphabeta", 5),
])
def test_the_thick_path_is_the_searchs_principal_variation(
    qtbot: Any, game: str, position: str | None, algorithm: str, depth: int
) -> None:
    state = new_game(game, position)
    finished, batches = recorded(state, algorithm, depth)
    panel = fed_panel(qtbot, state, batches, algorithm)
    model = layout_of(panel)
    tree = panel.tree
    assert tree.node(model.pv[0]).parent == ROOT_PARENT
    assert model.pv[0] == tree.passes[-1].root
    assert tuple(tree.node(index).move for index in model.pv[1:]) == finished.pv
    thick = [item.index for item in model.items if item.kind is ItemKind.NODE and item.on_pv]
    assert thick == [index for index in model.pv if index in model.by_index]
    assert len(thick) >= 2, "the principal variation is open a few plies down by default"


# ---------------------------------------------------------------- cut-offs
def test_a_cut_is_a_stub_labelled_with_its_reason(qtbot: Any) -> None:
    state = new_game("chess", MIDDLEGAME)
    move = state.parse_move
    hand = HandTree()
    root = hand.node(ROOT_PARENT, None, NodeKind.MAX, 20)
    d4 = hand.node(root, move("d4"), NodeKind.MIN, 20)
    after_d4 = state.result(move("d4"))
    exd4 = hand.node(d4, after_d4.parse_move("exd4"), NodeKind.MAX, 20)
    nh6 = hand.node(d4, after_d4.parse_move("Nh6"), NodeKind.MAX, 120, Bound.LOWER)
    after_nh6 = after_d4.result(after_d4.parse_move("Nh6"))
    hand.node(nh6, after_nh6.parse_move("Bxh6"), NodeKind.MIN, 120)
    hand.cut(nh6, after_nh6.parse_move("Bxh6"), (after_nh6.parse_move("d5"), after_nh6.parse_move("Nc3")))
    hand.cut(d4, after_d4.parse_move("exd4"), ())
    panel = fed_panel(qtbot, state, [hand.batch()])
    panel.view.set_open(nh6, True)
    stubs = {item.index: item for item in layout_of(panel).items if item.kind is ItemKind.STUB}
    assert set(stubs) == {d4, nh6}
    assert layout_of(panel).by_index[exd4].above == ("exd4",)
    assert stubs[nh6].label == "β-cut: Bxh6 scored ≥ +1.20"
    assert stubs[nh6].pruned == 2 and stubs[nh6].stub_moves == ("d5", "Nc3")
    assert stubs[d4].label == "α-cut: exd4 scored ≤ +0.20"
    assert stubs[d4].pruned == 0


def test_every_cut_of_a_real_search_has_its_stub(qtbot: Any) -> None:
    state = new_game("chess", MIDDLEGAME)
    _finished, batches = recorded(state, "alphabeta", 3)
    panel = fed_panel(qtbot, state, batches)
    closed = [item for item in layout_of(panel).items if item.ply == 1 and item.hidden_children]
    assert closed and all(item.pruned == len(panel.tree.node(item.index).skipped) for item in closed)
    assert any(item.pruned for item in closed), "a chess root's closed moves show no pruning in their handles"
    panel.view.rules.opened.update({item.index: True for item in closed})
    panel.view.relayout()
    model = layout_of(panel)
    texts = panel.texts
    assert texts is not None
    open_cut_nodes = [item for item in model.items
                      if item.kind is ItemKind.NODE and item.children and panel.tree.node(item.index).was_cut]
    assert open_cut_nodes, "the opened root moves show no cut-off"
    stubs = {item.index: item for item in model.items if item.kind is ItemKind.STUB}
    for item in open_cut_nodes:
        node = panel.tree.node(item.index)
        stub = stubs[item.index]
        assert stub.pruned == len(node.skipped)
        expected = "β-cut" if node.kind is NodeKind.MAX else "α-cut"
        assert stub.label.startswith(f"{expected}: {texts.move_name(panel.tree, panel.tree.cut_child(node.index))} scored")
    assert set(stubs) == {item.index for item in open_cut_nodes}


# ---------------------------------------------------------------- opening, clicking, details
def test_opening_and_closing_a_node_changes_what_is_laid_out(qtbot: Any) -> None:
    state = new_game("tictactoe")
    _finished, batches = recorded(state, "alphabeta", 9)
    panel = fed_panel(qtbot, state, batches)
    model = layout_of(panel)
    closed = next(item for item in model.items if item.kind is ItemKind.NODE and item.hidden_children)
    before = len(model.items)
    children = closed.hidden_children
    panel.view.toggle(closed.index)
    opened = layout_of(panel)
    assert len(opened.items) >= before + children
    assert opened.by_index[closed.index].hidden_children == 0
    panel.view.toggle(closed.index)
    assert len(layout_of(panel).items) == before


def test_a_click_selects_the_node_and_shows_its_details(qtbot: Any) -> None:
    state = new_game("tictactoe")
    _finished, batches = recorded(state, "alphabeta", 9)
    panel = fed_panel(qtbot, state, batches)
    model = layout_of(panel)
    target = model.pv[2]
    panel.view.centre_on(target)
    point = panel.view.point_of(target)
    assert point is not None
    with qtbot.waitSignal(panel.node_selected, timeout=2000) as caught:
        qtbot.mouseClick(panel.view, Qt.MouseButton.LeftButton, pos=point.toPoint())
    assert caught.args == [target]
    node = panel.tree.node(target)
    path_names = state.line_names(panel.tree.moves_to(target))
    assert panel.details.text("Path") == "  ".join(path_names) == "b2  a3"
    assert panel.details.text("Window").startswith("α, β = [")
    assert panel.details.text("Kind").startswith("MAX node")
    assert panel.details.text("Value") == "+0: exact"
    assert panel.details.text("Depth left") == f"{node.depth:g} plies"
    assert panel.details.text("Subtree").startswith(f"{panel.tree.size(target):,} nodes searched")
    assert panel.details.picture.pixmap() is not None and not panel.details.picture.pixmap().isNull()


def test_why_not_this_move_selects_the_root_child_and_its_cut(qtbot: Any) -> None:
    state = new_game("tictactoe")
    _finished, batches = recorded(state, "alphabeta", 9)
    panel = fed_panel(qtbot, state, batches)
    tree = panel.tree
    root = tree.node(tree.passes[-1].root)
    refuted = next(tree.node(child) for child in root.children if tree.node(child).was_cut)
    with qtbot.waitSignal(panel.node_selected, timeout=2000):
        assert panel.highlight_move(refuted.move)
    assert panel.view.highlighted == refuted.index == panel.view.selected
    stubs = [item for item in layout_of(panel).items if item.kind is ItemKind.STUB and item.index == refuted.index]
    assert len(stubs) == 1 and stubs[0].label.startswith("α-cut: ")
    assert panel.details.text("Cut-off").startswith(stubs[0].label)
    assert not panel.highlight_move(99), "a move that is not in the tree is not found"


# ---------------------------------------------------------------- the bar
def test_passes_are_listed_and_chosen(qtbot: Any) -> None:
    state = new_game("tictactoe")
    _finished, batches = recorded(state, "alphabeta", 4)
    panel = fed_panel(qtbot, state, batches)
    assert panel.pass_box.count() == 1 + len(panel.tree.passes)
    assert panel.pass_box.itemText(1) == "1. Iteration 1"
    with qtbot.waitSignal(panel.pass_shown, timeout=2000) as caught:
        panel.pass_box.setCurrentIndex(2)
    assert caught.args == [1]
    assert layout_of(panel).pv[0] == panel.tree.passes[1].root
    assert panel.status.text().startswith(f"{len(panel.tree):,} nodes recorded of {panel.tree.searched_nodes:,} searched")


def test_the_compiled_search_offers_its_python_twin(qtbot: Any) -> None:
    panel = TreePanel()
    qtbot.addWidget(panel)
    panel.show()
    state = new_game("chess")
    panel.start(state, type(state), SearchSettings(algorithm="native"))
    assert panel.views.currentWidget() is panel.native_page
    with qtbot.waitSignal(panel.algorithm_requested, timeout=2000) as caught:
        qtbot.mouseClick(panel.native_button, Qt.MouseButton.LeftButton)
    assert caught.args == [PYTHON_TWIN]
    panel.start(state, type(state), SearchSettings(algorithm=PYTHON_TWIN))
    assert panel.views.currentWidget() is panel.view


def test_recording_is_wanted_only_while_on_and_on_screen(qtbot: Any) -> None:
    panel = TreePanel()
    qtbot.addWidget(panel)
    with qtbot.waitSignal(panel.recording_wanted, timeout=2000) as shown:
        panel.show()
    assert shown.args == [True]
    with qtbot.waitSignal(panel.recording_wanted, timeout=2000) as switched:
        panel.record_box.setChecked(False)
    assert switched.args == [False]
    panel.record_box.setChecked(True)
    with qtbot.waitSignal(panel.recording_wanted, timeout=2000) as hidden:
        panel.hide()
    assert hidden.args == [False]
    assert "costs the search time" in panel.record_box.toolTip()
    state = new_game("tictactoe")
    panel.start(state, type(state), SearchSettings(), records=False)
    assert panel.status.text() == NOT_RECORDED


def test_the_panel_floats_into_its_own_window_and_back(qtbot: Any) -> None:
    panel = TreePanel()
    qtbot.addWidget(panel)
    panel.show()
    panel.float_out()
    window = panel.tree_window
    assert window is not None and window.isVisible()
    assert panel.body.window() is window and panel.floating_note.isVisible()
    assert panel.is_recording_wanted()
    qtbot.mouseClick(panel.dock_button, Qt.MouseButton.LeftButton)
    assert panel.tree_window is None and panel.body.window() is panel.window()
    assert not panel.floating_note.isVisible()


# ---------------------------------------------------------------- a large tree, live
def tictactoe_batches(total: int, batch_size: int) -> list[TreeBatch]:
    """The first ``total`` nodes of tic-tac-toe's whole game tree in visit order (a minimax
    without pruning), in batches as a recorder sends them: each exit in the batch of the
    last entry before it (a node is never left before its children arrive)."""
    state = new_game("tictactoe")
    entries: list[NodeEntry] = []
    exits: list[tuple[int, NodeExit]] = []

    def visit(node_state: GameState, parent: int, move: Any, ply: int) -> None:
        if len(entries) >= total:
            return
        index = len(entries)
        kind = NodeKind.TERMINAL if node_state.is_terminal() else (NodeKind.MAX if ply % 2 == 0 else NodeKind.MIN)
        entries.append(NodeEntry(index, parent, move, 9 - ply, kind, -1e7, 1e7))
        if kind is not NodeKind.TERMINAL:
            for child_move in node_state.legal_moves():
                node_state.play(child_move)
                visit(node_state, index, child_move, ply + 1)
                node_state.undo()
        exits.append((len(entries) - 1, NodeExit(index, 0.0, Bound.EXACT, kind)))

    visit(state, ROOT_PARENT, None, 0)
    batches = []
    for start in range(0, total, batch_size):
        end = start + batch_size
        batches.append(TreeBatch(
            0, (TreePass(0, 0, 9, -1e7, 1e7),) if start == 0 else (),
            tuple(entries[start:end]), tuple(left for after, left in exits if start <= after < end),
            nodes=min(end, total), complete=end >= total,
        ))
    return batches


def test_a_100000_node_tree_in_batches_lays_out_only_what_is_open(qtbot: Any) -> None:
    total = 100_000
    batches = tictactoe_batches(total, 5_000)
    state = new_game("tictactoe")
    panel = TreePanel()
    qtbot.addWidget(panel)
    panel.resize(900, 700)
    panel.show()
    qtbot.waitExposed(panel)
    panel.start(state, type(state), SearchSettings(algorithm="minimax"))
    runs = panel.view.layout_runs
    for batch in batches:
        panel.add_batch(batch)
    assert panel.view.layout_runs == runs, "add_batch laid the tree out: the layout must wait for its timer"
    assert len(panel.tree) == total
    qtbot.waitUntil(lambda: panel.view.layout_runs > runs, timeout=3000)
    model = layout_of(panel)
    assert len(model.items) < 200, "the default view lays out the root's plies, not the tree"
    panel.view.repaint()
    assert 0 < panel.view.painted_items <= len(model.items)
    panel.view.rules.opened.update({node.index: True for node in panel.tree.nodes})
    panel.view.relayout()
    everything = layout_of(panel)
    assert everything.budget_reached and len(everything.items) <= LAYOUT_BUDGET
    panel.view.zoom_by(4.0)
    panel.view.repaint()
    assert panel.view.painted_items < len(everything.items) / 4, "a paint looked at items far off screen"
    assert panel.status.text().startswith("100,000 nodes recorded of 100,000 searched")


# ---------------------------------------------------------------- themes
@pytest.mark.parametrize("theme", [LIGHT, DARK], ids=["light", "dark"])
def test_the_tree_reads_in_both_themes(qtbot: Any, theme: Theme) -> None:
    state = new_game("tictactoe")
    _finished, batches = recorded(state, "alphabeta", 9)
    panel = fed_panel(qtbot, state, batches)
    panel.set_theme(theme)
    panel.view.fit()
    image = panel.view.grab().toImage()
    assert image.pixelColor(2, 2) == color(theme.panel)
    colours = {image.pixelColor(x, y).name() for x in range(0, image.width(), 2) for y in range(0, image.height(), 2)}
    for field in ("mark_x", "mark_o", "accent"):
        assert color(getattr(theme, field)).name() in colours, f"no {field} pixel: MAX, MIN or the PV is not drawn"


def test_texts_name_a_path_from_the_root_state() -> None:
    state = new_game("tictactoe")
    hand = HandTree()
    root = hand.node(ROOT_PARENT, None, NodeKind.MAX, 0)
    first = hand.node(root, 4, NodeKind.MIN, 0)
    second = hand.node(first, 0, NodeKind.MAX, 0)
    tree = SearchTree()
    tree.add(hand.batch())
    texts = NodeTexts(state)
    assert texts.path_text(tree, second) == "b2  a3"
    assert texts.position(tree, second).to_text() == state.result(4).result(0).to_text()
    assert texts.window_text(-WIN_SCORE * 10, WIN_SCORE * 10) == "[−∞, +∞]"


# ---------------------------------------------------------------- the overview and the replay
def test_the_overview_and_the_replay_select_in_the_textbook_view(qtbot: Any) -> None:
    state = new_game("tictactoe")
    _finished, batches = recorded(state, "alphabeta", 9)
    panel = fed_panel(qtbot, state, batches)
    assert panel.overview.tree is panel.tree
    deep = panel.tree.node(layout_of(panel).pv[4])
    with qtbot.waitSignal(panel.node_selected, timeout=2000) as chosen:
        panel.overview.node_chosen.emit(deep.index)
    assert chosen.args == [deep.index] and panel.view.selected == deep.index
    assert deep.index in layout_of(panel).by_index, "a node chosen in the overview is opened in the textbook view"
    panel.pane_actions["Replay"].setChecked(True)
    assert panel.replay_page.isVisible()
    replay = panel.replay.replay
    assert replay is not None
    qtbot.waitUntil(lambda: replay.is_caught_up, timeout=5000)
    target = panel.tree.passes[-1].root + 3
    with qtbot.waitSignal(panel.node_selected, timeout=2000) as reached:
        panel.replay.go_to_node(target)
    assert reached.args == [target]
    assert panel.view.visited_through is None or panel.view.visited_through >= target


def test_a_stopped_last_pass_gives_way_to_the_one_before(qtbot: Any) -> None:
    state = new_game("tictactoe")
    first = TreeBatch(0, (TreePass(0, 0, 1, -1e7, 1e7),), (NodeEntry(0, ROOT_PARENT, None, 1, NodeKind.MAX, -1e7, 1e7),
                      NodeEntry(1, 0, 4, 0, NodeKind.LEAF, -1e7, 1e7)),
                      (NodeExit(1, 0.0, Bound.EXACT, NodeKind.LEAF), NodeExit(0, 0.0, Bound.EXACT, NodeKind.MAX)), nodes=2)
    stopped = TreeBatch(0, (TreePass(1, 2, 2, -1e7, 1e7),), (NodeEntry(2, ROOT_PARENT, None, 2, NodeKind.MAX, -1e7, 1e7),),
                        nodes=3)
    panel = fed_panel(qtbot, state, [first, stopped])
    assert layout_of(panel).pv[0] == 2, "while the search runs, its latest pass is drawn"
    panel.add_batch(TreeBatch(0, nodes=3, complete=True))
    panel.view.relayout()
    assert layout_of(panel).pv[0] == 0 and panel.view.is_showing_stopped_pass()
    assert "the last pass was stopped" in panel.status.text()
    assert panel.pass_box.itemText(2) == "2. Iteration 2 (stopped)"
    assert "W5 / L5: X wins / loses in 5 plies" in panel.status.text()
    panel.pass_box.setCurrentIndex(2)
    assert layout_of(panel).pv[0] == 2


def test_mcts_shows_its_own_view_with_the_snapshots(qtbot: Any) -> None:
    state = new_game("tictactoe")
    events: list[Any] = []
    search(state, SearchSettings(algorithm="mcts", seed=1), Limits(nodes=2_000), on_event=events.append, tree=TreeOptions())
    snapshots = [event for event in events if isinstance(event, MctsSnapshot)]
    assert snapshots and snapshots[-1].complete
    panel = TreePanel()
    qtbot.addWidget(panel)
    panel.show()
    panel.start(state, type(state), SearchSettings(algorithm="mcts"))
    assert panel.views.currentWidget() is panel.mcts_page
    assert not panel.pass_box.isVisible() and not panel.overview_page.isVisible()
    for snapshot in snapshots:
        panel.add_snapshot(snapshot)
    last = snapshots[-1]
    assert panel.status.text().startswith(f"{last.iterations:,} iterations, {last.tree_size:,} nodes in the tree")
    panel.start(state, type(state), SearchSettings(algorithm="alphabeta"))
    assert panel.views.currentWidget() is panel.view and panel.pass_box.isVisible() and panel.overview_page.isVisible()


def test_many_children_wait_behind_more_and_the_view_zooms_and_pans(qtbot: Any) -> None:
    state = new_game("chess", MIDDLEGAME)
    hand = HandTree()
    root = hand.node(ROOT_PARENT, None, NodeKind.MAX, 0)
    child = hand.node(root, state.parse_move("d4"), NodeKind.MIN, 0)
    after = state.result(state.parse_move("d4"))
    replies = after.legal_moves()
    for reply in replies:  # a position with more replies than the view shows at once
        hand.node(child, reply, NodeKind.LEAF, 0)
    for reply in replies[:20]:
        hand.node(child, reply, NodeKind.LEAF, 0)  # searched twice (a re-search): 50+ children
    panel = fed_panel(qtbot, state, [hand.batch()])
    total = len(panel.tree.node(child).children)
    assert total > MAX_CHILDREN_SHOWN
    more = [item for item in layout_of(panel).items if item.kind is ItemKind.MORE]
    assert len(more) == 1 and more[0].below == (f"+{total - MAX_CHILDREN_SHOWN} more",)
    panel.view.show_more(child)
    assert not [item for item in layout_of(panel).items if item.kind is ItemKind.MORE]
    assert len(layout_of(panel).by_index[child].children) == total
    view = panel.view
    scale = view.scale
    centre = QPointF(view.width() / 2, view.height() / 2)
    wheel = QWheelEvent(centre, view.mapToGlobal(centre), QPoint(0, 0), QPoint(0, 120), Qt.MouseButton.NoButton,
                        Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(view, wheel)
    assert view.scale == pytest.approx(scale * ZOOM_STEP)
    before = view.to_scene(centre)
    qtbot.mousePress(view, Qt.MouseButton.LeftButton, pos=centre.toPoint())
    qtbot.mouseMove(view, (centre + QPointF(60, 30)).toPoint())
    qtbot.mouseRelease(view, Qt.MouseButton.LeftButton, pos=(centre + QPointF(60, 30)).toPoint())
    after_drag = view.to_scene(centre)
    assert after_drag.x() == pytest.approx(before.x() - 60 / view.scale)
    assert after_drag.y() == pytest.approx(before.y() - 30 / view.scale)
    qtbot.keyClick(view, Qt.Key.Key_Minus)
    assert view.scale == pytest.approx(scale)
    qtbot.mouseClick(panel.fit_button, Qt.MouseButton.LeftButton)
    bounds = layout_of(panel).bounds()
    assert view.scale == pytest.approx(max(0.03, min(view.width() / bounds.width(), view.height() / bounds.height(), 1.0)))


def test_windows_can_be_written_under_the_values(qtbot: Any) -> None:
    state = new_game("tictactoe")
    _finished, batches = recorded(state, "alphabeta", 9)
    panel = fed_panel(qtbot, state, batches)
    model = layout_of(panel)
    assert all(len(item.below) == 1 for item in model.items if item.kind is ItemKind.NODE)
    panel.windows_action.setChecked(True)
    texts = panel.texts
    assert texts is not None
    for item in layout_of(panel).items:
        if item.kind is ItemKind.NODE:
            node = panel.tree.node(item.index)
            assert item.below[1] == texts.window_text(node.alpha, node.beta, compact=True)
            assert item.below[1].startswith("[") and item.below[1].endswith("]")
    panel.view.relayout()
    assert len(layout_of(panel).items[0].below) == 2, "the choice stays for the next layout"


def test_the_arrow_keys_walk_the_tree(qtbot: Any) -> None:
    state = new_game("tictactoe")
    _finished, batches = recorded(state, "alphabeta", 9)
    panel = fed_panel(qtbot, state, batches)
    tree = panel.tree
    root = tree.node(tree.passes[-1].root)
    view = panel.view
    view.setFocus()
    with qtbot.waitSignal(panel.node_selected, timeout=2000) as first:
        qtbot.keyClick(view, Qt.Key.Key_Down)
    assert first.args == [root.index], "with nothing selected, a key selects the root"
    qtbot.keyClick(view, Qt.Key.Key_Down)
    assert view.selected == root.children[0]
    qtbot.keyClick(view, Qt.Key.Key_Right)
    assert view.selected == root.children[1]
    assert panel.details.text("Path") == state.move_name(tree.node(root.children[1]).move)
    qtbot.keyClick(view, Qt.Key.Key_Left)
    qtbot.keyClick(view, Qt.Key.Key_Left)
    assert view.selected == root.children[0], "there is nothing left of the first child"
    closed = next(item for item in layout_of(panel).items if item.kind is ItemKind.NODE and item.hidden_children)
    view.select(closed.index)
    qtbot.keyClick(view, Qt.Key.Key_Down)
    assert tree.node(view.selected).parent == closed.index, "down opens a closed node"
    qtbot.keyClick(view, Qt.Key.Key_Up)
    assert view.selected == closed.index


def test_a_selected_node_stays_in_place_when_the_layout_changes(qtbot: Any) -> None:
    state = new_game("tictactoe")
    _finished, batches = recorded(state, "alphabeta", 9)
    panel = fed_panel(qtbot, state, batches)
    root = panel.tree.node(panel.view.shown_root())
    target = root.children[-1]
    panel.select(target)
    before = panel.view.point_of(target)
    first = layout_of(panel).by_index[root.children[0]]
    assert first.children, "the first root move is open by default"
    moved_from = layout_of(panel).by_index[target].x
    panel.view.set_open(first.index, False)  # the tree left of the target shrinks, as a new pass makes it
    assert layout_of(panel).by_index[target].x < moved_from, "closing a node on its left moves the target"
    after = panel.view.point_of(target)
    assert before is not None and after is not None
    assert (after.x(), after.y()) == pytest.approx((before.x(), before.y()), abs=0.5)
    panel.view.grab()  # paints
    assert panel.view.painted_items > 0, "the view went blank after the layout changed"


def test_a_book_move_says_why_there_is_no_tree(qtbot: Any) -> None:
    state = new_game("chess")
    panel = TreePanel()
    qtbot.addWidget(panel)
    panel.show()
    panel.start(state, type(state), SearchSettings())
    answer = search(state, SearchSettings(), Limits(depth=1))
    finished = dataclasses.replace(answer, book=True, nodes=0, depth=0)  # as the engine answers from its book
    panel.search_finished(finished)
    assert panel.status.text().startswith(f"{state.move_name(finished.best_move)} came from the opening book: nothing was searched")
    assert "Settings → Opening book" in panel.status.text()


def test_a_move_searched_twice_is_labelled_probe_and_re_search(qtbot: Any) -> None:
    state = new_game("chess", MIDDLEGAME)
    hand = HandTree()
    root = hand.node(ROOT_PARENT, None, NodeKind.MAX, 20)
    best = hand.node(root, state.parse_move("Bc4"), NodeKind.MIN, 10)
    probe = hand.node(root, state.parse_move("d4"), NodeKind.MIN, 11, Bound.LOWER)
    research = hand.node(root, state.parse_move("d4"), NodeKind.MIN, 20)
    panel = fed_panel(qtbot, state, [hand.batch()])
    placed = layout_of(panel).by_index
    assert placed[best].above == ("Bc4",)
    assert placed[probe].above == ("d4 (probe)",)
    assert placed[research].above == ("d4 (re-search)",) and placed[research].on_pv


def after_the_opening_roll() -> GameState:
    state = new_game("backgammon")
    while state.to_move() < 0:
        state = state.result(state.chance_outcomes()[0][0])
    return state


def test_a_chance_cut_says_its_own_bound(qtbot: Any) -> None:
    state = after_the_opening_roll()
    _finished, batches = recorded(state, "star1", 2)
    tree = SearchTree()
    for batch in batches:
        tree.add(batch)
    texts = NodeTexts(state)
    cut = [node for node in tree.nodes if node.kind is NodeKind.CHANCE and node.was_cut and not node.is_open]
    assert cut, "Star1 cut no chance node here"
    for node in cut:
        label = texts.cut_label(tree, node)
        mark = "≥" if node.bound is Bound.LOWER else "≤"
        assert label.startswith("chance cut after ") and f"value {mark} {texts.value_text(node.value)}" in label, label


def test_at_a_dice_roll_max_is_the_player_who_decides_next(qtbot: Any) -> None:
    state = new_game("backgammon")
    assert state.to_move() < 0, "backgammon starts with the opening roll"
    finished, batches = recorded(state, "expectiminimax", 1)
    panel = fed_panel(qtbot, state, batches, algorithm="expectiminimax")
    texts = panel.texts
    assert texts is not None
    decider = after_the_opening_roll().to_move()
    root = layout_of(panel).by_index[panel.view.shown_root()]
    assert texts.root_player == decider
    assert f"Values for {texts.player_name(decider)} (MAX" in panel.status.text()
    expected = engine_display.value_text(finished.score.for_player(decider), type(state))
    assert root.below[0] == expected


def test_a_closed_nodes_subtree_is_counted_once(qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    state = new_game("tictactoe")
    _finished, batches = recorded(state, "alphabeta", 9)
    panel = fed_panel(qtbot, state, batches)
    root = panel.view.shown_root()
    assert root is not None
    panel.select(root)
    expected = panel.details.text("Subtree")
    assert expected.startswith(f"{panel.tree.size(root):,} nodes searched")
    walks: list[int] = []
    original = SearchTree.subtree
    monkeypatch.setattr(SearchTree, "subtree", lambda tree, index: walks.append(index) or original(tree, index))
    panel.select(panel.tree.node(root).children[0])
    panel.select(root)
    assert panel.details.text("Subtree") == expected
    assert root not in walks, "the root's subtree was walked again"


def test_a_tree_of_helper_table_cuts_says_how_to_see_more(qtbot: Any) -> None:
    state = new_game("tictactoe")
    hand = HandTree()
    root = hand.node(ROOT_PARENT, None, NodeKind.MAX, 0)
    for square in range(4):
        hand.node(root, square, NodeKind.MIN, 0, Bound.UPPER, final=NodeKind.TT_CUT)
    batch = dataclasses.replace(hand.batch(), helper_nodes=500)
    panel = fed_panel(qtbot, state, [batch])
    assert "set Threads to 1 (Settings) to draw the whole tree" in panel.status.text()
    alone = fed_panel(qtbot, state, [hand.batch()])
    assert "Threads" not in alone.status.text(), "without helpers the table cuts are the search's own"


def test_a_root_splits_shared_roots_count_once_per_worker(qtbot: Any) -> None:
    """Two workers share each pass's root (one node drawn, visited twice): the status's
    "recorded of searched" counts what the search counted, not one short per pass."""
    streams, counts = split_search(2, passes=2)
    tree = SearchTree()
    state = split_position()
    panel = TreePanel()
    qtbot.addWidget(panel)
    panel.start(state, type(state), SearchSettings(algorithm="minimax"))
    panel.use_tree(tree)
    for batch in interleaved(streams):
        tree.add(batch)
        panel.add_batch(batch)
    assert tree.complete and len(tree) == sum(counts) - 2
    expected = f"{sum(counts):,} nodes recorded of {sum(counts):,} searched\n"
    qtbot.waitUntil(lambda: panel.status.text().startswith(expected), timeout=3000)  # the throttled layout's


def test_the_thick_path_takes_the_searchs_answer_among_moves_of_equal_value(qtbot: Any) -> None:
    """Moves that tie are told apart only by the engine's choice (a root split's workers'
    children arrive mixed): once the answer is in, the thick path starts with its move."""
    streams, _counts = split_search(2)
    tree = SearchTree()
    state = split_position()
    panel = TreePanel()
    qtbot.addWidget(panel)
    panel.start(state, type(state), SearchSettings(algorithm="minimax"))
    panel.use_tree(tree)
    for batch in interleaved(streams):
        tree.add(batch)
        panel.add_batch(batch)
    (root,) = tree.roots()
    tied = [child for child in tree.children(root.index) if child.value == root.value]
    assert len(tied) >= 2
    chosen = tied[-1]
    qtbot.waitUntil(lambda: panel.view.layout_model is not None and len(panel.view.layout_model.pv) > 1, timeout=3000)
    assert panel.view.layout_model.pv[1] == tied[0].index  # before the answer: the first of equal value
    runs = panel.view.layout_runs
    panel.search_finished(Finished(0, chosen.move, Score(0.0, state.to_move()), (chosen.move,), 9, 9, 100, 1.0, 0.1))
    qtbot.waitUntil(lambda: panel.view.layout_runs > runs, timeout=3000)
    assert panel.view.layout_model.pv[1] == chosen.index
