"""The "Tree" tab in the main window: the bridge records while the tab is on screen, the
tab draws the computer's search of the game being played, and the compiled search's notice
switches the algorithm to Python's PVS."""

from __future__ import annotations

from typing import Any

from ai.events import Finished
from ai.settings import SearchSettings
from ai.tree.model import SearchTree
from games import new_game
from gui.panels.tree.panel import TreePanel
from gui.players import HUMAN, PlayerConfig


def tree_tab(window: Any) -> int:
    return window.engine_tabs.indexOf(window.tree_panel)


def test_the_tree_tab_draws_the_computers_search(window: Any, qtbot: Any) -> None:
    panel = window.tree_panel
    assert window.engine_tabs.tabText(tree_tab(window)) == "Tree"
    computer = PlayerConfig(kind="computer", algorithm="alphabeta", strength="depth", depth=3)
    window.start_game("tictactoe", (computer, PlayerConfig(kind=HUMAN)), paused=True)
    window.engine_tabs.setCurrentIndex(tree_tab(window))
    qtbot.waitUntil(lambda: window.bridge.record_tree is not None, timeout=2000)
    with qtbot.waitSignal(window.bridge.search_finished, timeout=20000) as caught:
        window.session.set_paused(False)
    finished: Finished = caught.args[0]
    assert panel.tree is window.bridge.tree
    qtbot.waitUntil(lambda: panel.tree.complete, timeout=5000)
    runs = panel.view.layout_runs
    qtbot.waitUntil(lambda: panel.view.layout_runs > runs, timeout=5000)  # the throttled layout of the last batch
    model = panel.view.layout_model
    assert model is not None
    assert sum(panel.tree.size(node.index) for node in panel.tree.roots()) + panel.tree.helper_nodes == finished.nodes
    # The thick path is the PV as far as the main worker's tree holds it: with Lazy SMP the
    # helpers' table entries may settle its nodes (T) before the line's end.
    thick = tuple(panel.tree.node(index).move for index in model.pv[1:])
    assert thick and finished.pv[:len(thick)] == thick
    assert len(thick) == len(finished.pv) or not panel.tree.node(model.pv[-1]).children
    assert panel.status.text().startswith(f"{len(panel.tree):,} nodes recorded of ")


def test_recording_stops_when_the_tab_is_hidden(window: Any, qtbot: Any) -> None:
    window.start_game("tictactoe", (PlayerConfig(kind=HUMAN), PlayerConfig(kind=HUMAN)))
    window.engine_tabs.setCurrentIndex(tree_tab(window))
    qtbot.waitUntil(lambda: window.bridge.record_tree is not None, timeout=2000)
    window.engine_tabs.setCurrentIndex(0)
    qtbot.waitUntil(lambda: window.bridge.record_tree is None, timeout=2000)


def test_the_native_notice_switches_to_python_pvs(window: Any, qtbot: Any) -> None:
    window.start_game("chess", (PlayerConfig(kind=HUMAN), PlayerConfig(kind="computer", algorithm="native")))
    window.engine_tabs.setCurrentIndex(tree_tab(window))
    panel = window.tree_panel
    panel.algorithm_requested.emit("pvs")
    assert window.settings_panel.settings().algorithm == "pvs"
    assert all(side.algorithm == "pvs" for side in window.session.players if side.is_computer)


def test_why_not_rings_the_move_in_the_best_moves_tree(window: Any, qtbot: Any) -> None:
    session = window.start_game("tictactoe", (PlayerConfig(kind=HUMAN), PlayerConfig(kind=HUMAN)))
    panel = window.tree_panel
    window.engine_tabs.setCurrentIndex(tree_tab(window))
    qtbot.waitUntil(lambda: window.bridge.record_tree is not None, timeout=2000)
    with qtbot.waitSignal(window.bridge.search_finished, timeout=20000):
        session.request_hint()
    qtbot.waitUntil(lambda: panel.tree.complete, timeout=5000)
    hinted = panel.tree
    root = hinted.node(panel.view.shown_root())
    qtbot.waitUntil(lambda: panel.view.layout_model is not None and len(panel.view.layout_model.pv) > 1, timeout=5000)
    best = panel.view.layout_model.pv[1]
    asked = next(hinted.node(child) for child in reversed(root.children) if hinted.node(child).move != hinted.node(best).move)
    with qtbot.waitSignal(window.why_not_panel.move_cut_asked, timeout=20000):
        window.game_view.why_not_asked.emit(asked.move)
    window.engine_tabs.setCurrentIndex(tree_tab(window))
    assert panel.tree is hinted, "the asked move's own search replaced the best move's tree"
    assert panel.view.highlighted is not None
    assert hinted.node(panel.view.highlighted).move == asked.move
    assert hinted.node(panel.view.highlighted).parent == root.index


def test_the_view_menu_opens_the_tree_tab_which_stands_beside_the_engine_panel(window: Any, qtbot: Any) -> None:
    window.start_game("chess", (PlayerConfig(kind=HUMAN), PlayerConfig(kind=HUMAN)))
    tabs = window.engine_tabs
    assert tree_tab(window) == tabs.indexOf(window.engine_panel) + 1
    tabs.setCurrentWidget(window.engine_panel)
    window.actions_by_name["tree"].trigger()
    assert tabs.currentWidget() is window.tree_panel
    window.tree_panel.float_out()
    window.actions_by_name["tree"].trigger()
    assert window.tree_panel.tree_window is not None and window.tree_panel.tree_window.isVisible()
    window.tree_panel.dock()


def test_the_recording_cap_is_set_in_the_tab(window: Any, qtbot: Any) -> None:
    window.start_game("tictactoe", (PlayerConfig(kind=HUMAN), PlayerConfig(kind=HUMAN)))
    window.engine_tabs.setCurrentWidget(window.tree_panel)
    qtbot.waitUntil(lambda: window.bridge.record_tree is not None, timeout=2000)
    assert window.bridge.record_tree.cap == 100_000
    window.tree_panel.cap_box.setValue(20_000)
    assert window.bridge.record_tree.cap == 20_000
    window.engine_tabs.setCurrentWidget(window.engine_panel)
    qtbot.waitUntil(lambda: window.bridge.record_tree is None, timeout=2000)
    window.engine_tabs.setCurrentWidget(window.tree_panel)
    qtbot.waitUntil(lambda: window.bridge.record_tree is not None, timeout=2000)
    assert window.bridge.record_tree.cap == 20_000
    window.tree_panel.cap_box.setValue(100_000)


def test_a_cancelled_search_reads_cancelled_not_waiting(window: Any, qtbot: Any) -> None:
    """A search stopped before it answered (a take-back, a new game) grows no more: the
    tab says it was cancelled, and the count is no longer followed by "…"."""
    computer = PlayerConfig(kind="computer", algorithm="pvs", strength="time", seconds=60.0)
    window.start_game("chess", (computer, PlayerConfig(kind=HUMAN)), paused=True)
    panel = window.tree_panel
    window.engine_tabs.setCurrentWidget(panel)
    qtbot.waitUntil(lambda: window.bridge.record_tree is not None, timeout=2000)
    window.session.set_paused(False)
    qtbot.waitUntil(lambda: len(panel.tree) > 0, timeout=20000)
    growing = panel.tree
    with qtbot.waitSignal(window.bridge.tree_cancelled, timeout=2000):
        window.bridge.stop()
    assert growing.cancelled and panel.tree is growing
    first_line = panel.status.text().splitlines()[0]
    assert "search cancelled before it answered" in first_line
    assert not first_line.endswith("…") and "Waiting for the tree" not in first_line
    assert first_line.startswith(f"{growing.recorded_nodes:,} nodes recorded of ")


def test_a_search_cancelled_before_its_tree_arrived_says_so(qtbot: Any) -> None:
    panel = TreePanel()
    qtbot.addWidget(panel)
    state = new_game("tictactoe")
    panel.start(state, type(state), SearchSettings(algorithm="alphabeta"))
    tree = SearchTree()
    panel.use_tree(tree)
    assert panel.status.text().startswith("Waiting for the tree…")
    tree.cancelled = True
    panel.search_cancelled(SearchTree())  # another tree's cancelling is not this one's
    assert panel.status.text().startswith("Waiting for the tree…")
    panel.search_cancelled(tree)
    assert panel.status.text().startswith("The search cancelled before it answered")


def test_why_not_without_a_hint_keeps_the_tree_tab_and_rings_the_move(window: Any, qtbot: Any) -> None:
    """No analysis at hand: the position is searched first; with the Tree tab on screen it
    stays on screen, that search is recorded, and the asked move is ringed in its tree."""
    session = window.start_game("tictactoe", (PlayerConfig(kind=HUMAN), PlayerConfig(kind=HUMAN)))
    panel = window.tree_panel
    window.engine_tabs.setCurrentWidget(panel)
    qtbot.waitUntil(lambda: window.bridge.record_tree is not None, timeout=2000)
    asked = session.state.legal_moves()[0]
    with qtbot.waitSignal(window.why_not_panel.move_cut_asked, timeout=30000):
        window.game_view.why_not_asked.emit(asked)
    assert window.engine_tabs.currentWidget() is panel
    assert window.bridge.record_tree is not None
    qtbot.waitUntil(lambda: panel.view.highlighted is not None, timeout=5000)
    tree = panel.tree
    assert tree.complete and len(tree) > 0
    ringed = tree.node(panel.view.highlighted)
    assert ringed.move == asked and ringed.parent == panel.view.shown_root()
    assert window.statusBar().currentMessage().startswith(window.why_not_panel.verdict_text().rstrip("."))
