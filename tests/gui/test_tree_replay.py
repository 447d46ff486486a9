"""The replay of a recorded search (ai.tree.replay and the replay bar): the steps come back in
the order the search took them, and the window of every node on the path is what a student
running alpha-beta by hand writes at that moment.

The hand-worked example is AIMA's figure 5.5: MAX at the root, three MIN nodes B, C, D with
the leaves 3 12 8 | 2 4 6 | 14 5 2. Alpha-beta finds 3; at C the first leaf 2 is already below
alpha = 3, so C's other two leaves (4 and 6) are pruned.
"""

from __future__ import annotations

from typing import Any


from PySide6.QtCore import Qt
from PySide6.QtWidgets import QScrollArea, QWidget

from ai.scores import INFINITY
from ai.tree.model import ROOT_PARENT, Cut, NodeEntry, NodeExit, NodeKind, SearchTree, TreeBatch, TreePass
from ai.tree.replay import Replay, ReplayEvent, TreeWords, describe
from ai.tt import Bound
from gui.panels.tree.replay import SPEEDS, ReplayBar

INF = float(INFINITY)
MAX, MIN, LEAF = NodeKind.MAX, NodeKind.MIN, NodeKind.LEAF
EXACT, UPPER = Bound.EXACT, Bound.UPPER


def aima_batch() -> TreeBatch:
    """Figure 5.5 as the recorder sends it: windows and values in MAX's view, visit order."""
    entries = (
        NodeEntry(0, ROOT_PARENT, None, 2, MAX, -INF, INF),
        NodeEntry(1, 0, "a1", 1, MIN, -INF, INF),
        NodeEntry(2, 1, "b1", 0, LEAF, -INF, INF),
        NodeEntry(3, 1, "b2", 0, LEAF, -INF, 3),
        NodeEntry(4, 1, "b3", 0, LEAF, -INF, 3),
        NodeEntry(5, 0, "a2", 1, MIN, 3, INF),
        NodeEntry(6, 5, "c1", 0, LEAF, 3, INF),
        NodeEntry(7, 0, "a3", 1, MIN, 3, INF),
        NodeEntry(8, 7, "d1", 0, LEAF, 3, INF),
        NodeEntry(9, 7, "d2", 0, LEAF, 3, 14),
        NodeEntry(10, 7, "d3", 0, LEAF, 3, 5),
    )
    exits = (
        NodeExit(2, 3, EXACT, LEAF), NodeExit(3, 12, EXACT, LEAF), NodeExit(4, 8, EXACT, LEAF),
        NodeExit(1, 3, EXACT, MIN),
        NodeExit(6, 2, EXACT, LEAF), NodeExit(5, 2, UPPER, MIN),
        NodeExit(8, 14, EXACT, LEAF), NodeExit(9, 5, EXACT, LEAF), NodeExit(10, 2, EXACT, LEAF),
        NodeExit(7, 2, UPPER, MIN),
        NodeExit(0, 3, EXACT, MAX),
    )
    cuts = (Cut(5, "c1", ("c2", "c3")),)
    return TreeBatch(1, (TreePass(0, 0, 2, -INF, INF),), entries, exits, cuts, nodes=11, complete=True)


def aima_replay() -> Replay:
    tree = SearchTree()
    tree.add(aima_batch())
    replay = Replay(tree)
    replay.extend()
    return replay


def windows(replay: Replay, step: int) -> list[tuple[float, float]]:
    return [(window.alpha, window.beta) for window in replay.window_path(step)]


def test_steps_come_back_in_the_order_alpha_beta_took_them() -> None:
    replay = aima_replay()
    events = [(step.event.name[0], step.node) for step in replay.steps()]
    assert events == [
        ("E", 0), ("E", 1), ("E", 2), ("L", 2), ("E", 3), ("L", 3), ("E", 4), ("L", 4), ("L", 1),
        ("E", 5), ("E", 6), ("L", 6), ("C", 5), ("L", 5),
        ("E", 7), ("E", 8), ("L", 8), ("E", 9), ("L", 9), ("E", 10), ("L", 10), ("L", 7),
        ("L", 0),
    ]
    assert replay.is_caught_up
    assert [replay.step(number).visited_through for number in (0, 8, 12, 22)] == [0, 4, 6, 10]


def test_windows_tighten_as_the_hand_run_of_figure_5_5_writes_them() -> None:
    replay = aima_replay()
    step_of = {(step.event, step.node): step.number for step in replay.steps()}
    # B's first leaf returns 3: B (MIN) lowers beta to 3; A (MAX) still has (-inf, +inf).
    assert windows(replay, step_of[ReplayEvent.LEAVE, 2]) == [(-INF, INF), (-INF, 3), (-INF, INF)]
    # 12 and 8 do not lower B's beta below 3.
    assert windows(replay, step_of[ReplayEvent.LEAVE, 4]) == [(-INF, INF), (-INF, 3), (-INF, 3)]
    # B returns 3: A's alpha rises to 3, and C enters with [3, +inf).
    assert windows(replay, step_of[ReplayEvent.LEAVE, 1]) == [(3, INF), (-INF, 3)]
    assert windows(replay, step_of[ReplayEvent.ENTER, 5]) == [(3, INF), (3, INF)]
    # C's first leaf is 2: beta 2 <= alpha 3, the cut-off; 4 and 6 are never looked at.
    assert windows(replay, step_of[ReplayEvent.CUT, 5]) == [(3, INF), (3, 2)]
    assert replay.tree.node(5).skipped == ("c2", "c3")
    # D: 14 then 5 then 2 lower its beta; A keeps alpha 3 (C's 2 and D's 2 are no better).
    assert windows(replay, step_of[ReplayEvent.LEAVE, 8])[1] == (3, 14)
    assert windows(replay, step_of[ReplayEvent.LEAVE, 9])[1] == (3, 5)
    assert windows(replay, step_of[ReplayEvent.LEAVE, 10])[1] == (3, 2)
    last = replay.window_path(len(replay) - 1)
    assert last[0].alpha == 3 and last[0].best == 3 and last[0].best_child == 1
    assert replay.tree.node(0).value == 3


def test_every_child_enters_with_its_parents_window_at_that_moment() -> None:
    """Alpha-beta searches each child with the node's current window: the recorded entry
    window of every node equals its parent's window as the replay recomputes it."""
    replay = aima_replay()
    for step in replay.steps():
        if step.event is ReplayEvent.ENTER and step.node != 0:
            path = replay.window_path(step.number)
            parent = path[-2]
            assert (parent.alpha, parent.beta) == (path[-1].node.alpha, path[-1].node.beta), step


def test_jumps_to_cut_offs_and_passes() -> None:
    replay = aima_replay()
    cut = replay.next_cut(0)
    assert cut == 12 and replay.step(cut).event is ReplayEvent.CUT
    assert replay.next_cut(cut) is None
    assert replay.previous_cut(len(replay) - 1) == cut
    assert replay.pass_starts() == [0]
    assert replay.next_pass(0) is None


def test_events_in_words() -> None:
    replay = aima_replay()
    words = TreeWords()
    step_of = {(step.event, step.node): step.number for step in replay.steps()}
    assert describe(replay, step_of[ReplayEvent.ENTER, 5], words) == (
        "Enter ▼ MIN after a2 (depth 1) with window [+3, +∞)"
    )
    assert describe(replay, step_of[ReplayEvent.CUT, 5], words) == (
        "α-cut at ▼ MIN after a2: c1 scored +2, not above α = +3, which ▲ MAX already has; 2 moves pruned: c2 c3"
    )
    assert describe(replay, step_of[ReplayEvent.LEAVE, 1], words) == (
        "Leave ▼ MIN after a1 with +3 (exact); ▲ MAX at the root: α −∞ → +3"
    )
    assert describe(replay, step_of[ReplayEvent.LEAVE, 5], words) == "Leave ▼ MIN after a2 with ≤ +2 (upper bound)"


# ---------------------------------------------------------------------- the bar
def test_the_bar_steps_and_jumps_and_says_where_it_is(qtbot: Any) -> None:
    replay = aima_replay()
    bar = ReplayBar()
    qtbot.addWidget(bar)
    with qtbot.waitSignal(bar.visited_changed, timeout=2000) as reset:
        bar.set_tree(replay.tree)
    assert reset.args == [None] and bar.step_number == 0  # a new tree greys nothing
    assert bar.event_text.text() == "Enter ▲ MAX at the root (depth 2) with window (−∞, +∞)"
    with qtbot.waitSignal(bar.step_changed, timeout=2000) as changed:
        bar.buttons["next_cut"].click()
    assert changed.args == [12]
    assert bar.event_text.text().startswith("α-cut at ▼ MIN after a2: c1 scored +2, not above α = +3")
    # The path table: A with alpha 3, C with beta lowered to 2 (bold: this step's change is none,
    # the leaf's return one step before lowered it).
    assert [bar.path.item(row, 0).text().strip() for row in range(bar.path.rowCount())] == ["▲ root", "▼ a2"]
    assert [(bar.path.item(row, 1).text(), bar.path.item(row, 2).text()) for row in range(2)] == [
        ("+3", "+∞"), ("+3", "+2"),
    ]
    bar.previous_step()  # the leaf 2 returns: C's beta falls from +inf to 2, shown bold
    assert bar.path.item(1, 2).text() == "+2" and bar.path.item(1, 2).font().bold()
    with qtbot.waitSignal(bar.visited_changed, timeout=2000) as visited:
        bar.to_end()
    assert visited.args == [10]
    assert bar.event_text.text() == "Leave ▲ MAX at the root with +3 (exact)"
    bar.next_node()  # nothing after the end
    assert bar.step_number == len(replay) - 1
    bar.to_start()
    bar.next_node()
    bar.next_node()
    assert bar.current() == replay.step(2)
    bar.go_to_node(7)
    assert bar.current() is not None and bar.current().node == 7


def test_playing_walks_to_the_end_and_stops(qtbot: Any) -> None:
    bar = ReplayBar()
    qtbot.addWidget(bar)
    bar.set_tree(aima_replay().tree)
    bar.speed.setValue(len(SPEEDS) - 1)
    bar.play()
    assert bar.is_playing
    qtbot.waitUntil(lambda: not bar.is_playing, timeout=5000)
    assert bar.step_number == 22
    assert bar.buttons["play"].text() == "▶ Play"


def test_keys_move_the_replay(qtbot: Any) -> None:
    bar = ReplayBar()
    qtbot.addWidget(bar)
    bar.set_tree(aima_replay().tree)
    bar.show()
    qtbot.waitExposed(bar)
    bar.setFocus()
    qtbot.keyClick(bar, Qt.Key.Key_Right)
    assert bar.step_number == 1
    qtbot.keyClick(bar, Qt.Key.Key_Right, Qt.KeyboardModifier.ControlModifier)
    assert bar.step_number == 12  # the cut-off at C
    qtbot.keyClick(bar, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    assert bar.current() is not None and bar.current().node == 7  # the next node entered: D
    qtbot.keyClick(bar, Qt.Key.Key_End)
    assert bar.step_number == 22
    qtbot.keyClick(bar, Qt.Key.Key_Home)
    assert bar.step_number == 0


def test_the_path_table_keeps_the_current_node_in_view(qtbot: Any) -> None:
    """A deep path in a short bar: the table scrolls so that the node of the step (its last
    row) is seen."""
    depth = 14
    entries = tuple(
        NodeEntry(index, index - 1 if index else ROOT_PARENT, f"m{index}" if index else None, depth - index,
                  LEAF if index == depth else MAX if index % 2 == 0 else MIN, -INF, INF)
        for index in range(depth + 1)
    )
    tree = SearchTree()
    tree.add(TreeBatch(1, (TreePass(0, 0, depth, -INF, INF),), entries, nodes=depth + 1))
    bar = ReplayBar()
    pane = QScrollArea()  # as the tree panel holds it
    pane.setWidget(bar)
    pane.setWidgetResizable(True)
    qtbot.addWidget(pane)
    pane.resize(320, 280)
    pane.show()
    qtbot.waitExposed(pane)
    bar.set_tree(tree)
    bar.to_end()
    assert bar.path.rowCount() == depth + 1
    last = bar.path.item(depth, 0)
    assert last.text().strip() == f"□ m{depth}"

    def seen() -> bool:
        rect = bar.path.visualItemRect(last)
        corner = bar.path.viewport().mapTo(pane.viewport(), rect.bottomLeft())
        return bar.path.viewport().rect().contains(rect) and pane.viewport().rect().contains(corner)

    qtbot.waitUntil(seen, timeout=2000)


def test_a_hidden_pane_reads_nothing_until_it_is_shown(qtbot: Any) -> None:
    """In a shown window, the bar hidden (the tree panel's Replay pane switched off) leaves a
    growing tree alone; shown, it reads it."""
    window = QWidget()
    bar = ReplayBar(window)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    bar.hide()
    bar.set_tree(aima_replay().tree)
    qtbot.wait(50)
    assert bar.replay is not None and len(bar.replay) == 0
    bar.show()
    qtbot.waitUntil(lambda: bar.replay is not None and len(bar.replay) == 23, timeout=2000)
