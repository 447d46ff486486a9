"""The MCTS view (``gui.panels.tree.mcts_view``): its rows are the snapshot's children in
the game's notation with the snapshot's own numbers, a double click opens a child and the
breadcrumb goes back, the chart draws one line per top root move, and nothing is cut off.

The snapshots come from real seeded searches (``ai.engine.search`` with ``tree=``), so the
view is checked against the numbers the search sent, not against numbers made up here.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics

from ai.engine import search
from ai.settings import Limits, SearchSettings
from ai.tree.mcts import MctsSnapshot, VisitSample
from ai.tree.model import NodeKind, TreeOptions
from games import new_game
from games.base import GameState
from gui.panels import display
from gui.panels.tree.mcts_view import (
    EXPLORE,
    MEAN,
    MOVE,
    PICK,
    PICK_MARK,
    TOP_SERIES,
    Q,
    UCT,
    VISITS,
    MctsView,
    mean_text,
    visit_series,
)
from gui.theme import DARK, LIGHT

SETTINGS = SearchSettings(algorithm="mcts", book=False)


def snapshots_of(state: GameState, nodes: int) -> list[MctsSnapshot]:
    sent: list[MctsSnapshot] = []
    search(state, SETTINGS, Limits(nodes=nodes), tree=TreeOptions(batch_seconds=0.02),
           on_event=lambda event: sent.append(event) if isinstance(event, MctsSnapshot) else None)
    assert sent and sent[-1].complete
    return sent


@pytest.fixture
def view(qtbot: Any) -> MctsView:
    made = MctsView()
    qtbot.addWidget(made)
    made.resize(720, 640)
    made.show()
    qtbot.waitExposed(made)
    return made


def shown(view: MctsView, state: GameState, snapshot: MctsSnapshot) -> MctsView:
    view.start(state, type(state), SETTINGS)
    view.add_snapshot(snapshot)
    return view


def test_rows_are_the_snapshot_children_by_visits(view: MctsView) -> None:
    state = new_game("tictactoe")
    snapshot = snapshots_of(state, 20_000)[-1]
    shown(view, state, snapshot)
    children = snapshot.children(0)
    rows = view.row_texts()
    assert len(rows) == len(children) == 9
    for row, child in zip(rows, children):
        assert row[MOVE] == state.move_name(child.move)
        assert row[VISITS] == display.count_text(child.visits)
        assert row[MEAN] == f"{child.value:+.3f}" or child.proven is not None
        assert row[EXPLORE] == f"{child.exploration:.3f}"
        assert row[UCT] == f"{child.uct:.3f}"
        assert (row[PICK] == PICK_MARK) == child.is_pick
    visits = [child.visits for child in children]
    assert visits == sorted(visits, reverse=True)
    assert sum(row[PICK] == PICK_MARK for row in rows) == 1
    assert view.model.headerData(MEAN, Qt.Orientation.Horizontal) == "Mean (X)"
    assert "UCB1 picks" in view.node_line.text()


def test_double_click_opens_a_child_and_the_breadcrumb_goes_back(view: MctsView, qtbot: Any) -> None:
    state = new_game("tictactoe")
    snapshot = snapshots_of(state, 20_000)[-1]
    shown(view, state, snapshot)
    first = snapshot.children(0)[0]
    cell = view.table.visualRect(view.model.index(0, MOVE)).center()
    with qtbot.waitSignal(view.node_chosen) as opened:
        # A double click as Qt delivers it: a press and release, then the double-click event.
        qtbot.mouseClick(view.table.viewport(), Qt.MouseButton.LeftButton, pos=cell)
        qtbot.mouseDClick(view.table.viewport(), Qt.MouseButton.LeftButton, pos=cell)
    assert opened.args == [(first.move,)]
    after = state.result(first.move)
    grandchildren = snapshot.children(first.index)
    assert [row[MOVE] for row in view.row_texts()] == [after.move_name(child.move) for child in grandchildren]
    assert view.shown_node() == first
    assert view.shown_node() is not None and view.shown_node().kind is NodeKind.MIN  # type: ignore[union-attr]
    assert view.model.headerData(MEAN, Qt.Orientation.Horizontal) == "Mean (X)"
    assert view.model.headerData(Q, Qt.Orientation.Horizontal) == "Q (O)"
    assert state.move_name(first.move) in view.crumbs.text()
    with qtbot.waitSignal(view.node_chosen) as back:
        view.crumbs.linkActivated.emit("0")
    assert back.args == [()]
    assert len(view.row_texts()) == 9


def test_a_leaf_does_not_open(view: MctsView) -> None:
    """x wins at once: the proven winning child is terminal and has nothing to open."""
    state = new_game("tictactoe", "xx.oo....")
    snapshot = snapshots_of(state, 5_000)[-1]
    shown(view, state, snapshot)
    rows = view.row_texts()
    winner = next(row for row, child in enumerate(snapshot.children(0)) if child.kind is NodeKind.TERMINAL)
    assert rows[winner][MEAN] == "win in 1 ply"  # the engine panel's words (ai.display)
    assert not view.open_row(winner)
    assert "no children" in view.node_line.text()
    assert view.path == ()


def test_newer_snapshots_keep_the_node_shown(view: MctsView) -> None:
    state = new_game("tictactoe")
    snapshots = snapshots_of(state, 30_000)
    shown(view, state, snapshots[len(snapshots) // 2])
    assert view.open_row(0)
    path = view.path
    view.add_snapshot(snapshots[-1])
    assert view.path == path
    node = snapshots[-1].find(path)
    assert node is not None and view.shown_node() == node


def test_chart_has_one_series_per_top_move_and_the_others(view: MctsView) -> None:
    state = new_game("tictactoe")
    snapshot = snapshots_of(state, 20_000)[-1]
    shown(view, state, snapshot)
    series = view.chart.series
    assert len(series) == TOP_SERIES + 1
    top = sorted(snapshot.children(0), key=lambda child: -child.visits)[:TOP_SERIES]
    assert [line.label for line in series[:TOP_SERIES]] == [state.move_name(child.move) for child in top]
    assert [line.last for line in series[:TOP_SERIES]] == [child.visits for child in top]
    assert series[-1].is_others and series[-1].label == "mean of 4 others"
    rest = sorted(snapshot.children(0), key=lambda child: -child.visits)[TOP_SERIES:]
    assert series[-1].last == round(sum(child.visits for child in rest) / len(rest))
    assert series[0].points[-1][0] == snapshot.iterations


def test_a_root_of_few_moves_has_no_others_line() -> None:
    history = (VisitSample(1, (1,)), VisitSample(2, (1, 1)), VisitSample(4, (2, 1, 1)))
    series = visit_series(history, ["a", "b", "c"])
    assert [line.label for line in series] == ["a", "b", "c"]
    assert series[1].points == ((1, 0), (2, 1), (4, 1))


def test_a_chance_root_shows_probabilities_not_uct(view: MctsView) -> None:
    state = new_game("backgammon")
    snapshot = snapshots_of(state, 6_000)[-1]
    shown(view, state, snapshot)
    assert snapshot.root.kind is NodeKind.CHANCE
    assert view.table.isColumnHidden(UCT) and view.table.isColumnHidden(PICK)
    assert not any(row[PICK] for row in view.row_texts())
    assert "drawn by its probability" in view.node_line.text()


@pytest.mark.parametrize("theme", [LIGHT, DARK])
def test_nothing_is_cut_off(view: MctsView, theme: Any) -> None:
    """Every shown column is at least as wide as its widest cell and its header; the chart's
    legend fits beside the plot."""
    state = new_game("backgammon")
    snapshot = snapshots_of(state, 6_000)[-1]
    view.set_theme(theme)
    shown(view, state, snapshot)
    view.open_row(0)  # a roll's plays: long names
    metrics = QFontMetrics(view.table.font())
    header = view.table.horizontalHeader()
    for column in range(view.model.columnCount()):
        if view.table.isColumnHidden(column):
            continue
        texts = [row[column] for row in view.row_texts()]
        widest = max((metrics.horizontalAdvance(text) for text in texts), default=0)
        assert header.sectionSize(column) >= widest + 6, f"column {column}: {texts}"
        title = str(view.model.headerData(column, Qt.Orientation.Horizontal))
        assert header.sectionSize(column) >= QFontMetrics(header.font()).horizontalAdvance(title)
    plot = view.chart.plot_rect()
    assert plot.right() + view.chart.legend_width() <= view.chart.width()
    image = view.chart.grab()
    assert image.width() == view.chart.width()


def test_the_bridge_delivers_snapshots_before_the_answer(qtbot: Any, bridge: Any) -> None:
    """On the app's bridge and pool: an MCTS search that records its tree sends snapshots
    on the GUI thread with the bridge's search id, the complete one last and before the
    answer; the view shows it with the answer's root visits."""
    received: list[Any] = []
    bridge.mcts_snapshot_received.connect(lambda snapshot: received.append(("snapshot", snapshot)))
    bridge.search_finished.connect(lambda finished: received.append(("finished", finished)))
    state = new_game("tictactoe")
    with qtbot.waitSignal(bridge.search_finished, timeout=30_000):
        search_id = bridge.start_search(state, SETTINGS, Limits(nodes=30_000), tree=TreeOptions())
    kinds = [kind for kind, _ in received]
    assert kinds[-1] == "finished" and kinds.count("snapshot") >= 1
    snapshots = [event for kind, event in received if kind == "snapshot"]
    assert all(snapshot.search_id == search_id for snapshot in snapshots)
    assert snapshots[-1].complete and not any(snapshot.complete for snapshot in snapshots[:-1])
    finished = received[-1][1]
    visits = {stat.move: stat.visits for stat in finished.root_moves}
    assert {child.move: child.visits for child in snapshots[-1].children(0)} == visits


def test_six_root_moves_are_six_lines() -> None:
    """One move past the five is drawn as itself, not as "the mean of 1 other"."""
    history = (VisitSample(6, (1, 1, 1, 1, 1, 1)), VisitSample(12, (3, 2, 2, 2, 2, 1)))
    series = visit_series(history, ["a", "b", "c", "d", "e", "f"])
    assert [line.label for line in series] == ["a", "b", "c", "d", "e", "f"]
    assert not any(line.is_others for line in series)


def test_a_mean_rounding_to_zero_has_no_minus_sign() -> None:
    assert [mean_text(value) for value in (-0.0004, 0.0, 0.0004, -0.0006)] == ["+0.000", "+0.000", "+0.000", "-0.001"]


def test_a_node_missing_from_a_live_snapshot_comes_back(view: MctsView) -> None:
    """Live snapshots hold only the most visited nodes: while the node opened is missing its
    nearest ancestor is shown (and the view says so), and the node again once it is back."""
    state = new_game("tictactoe")
    full = snapshots_of(state, 20_000)[-1]
    shown(view, state, full)
    assert view.open_row(0) and view.open_row(0)
    path = view.path
    opened = full.find(path)
    assert opened is not None and len(path) == 2
    trimmed = dataclasses.replace(full, nodes_shown=full.nodes_shown[: opened.parent + 1])  # parents come first
    assert trimmed.find(path) is None and trimmed.find(path[:1]) is not None
    view.add_snapshot(trimmed)
    view.refresh()
    assert view.path == path and view.shown_path == path[:1]
    assert "not among" in view.node_line.text()
    view.add_snapshot(full)
    view.refresh()
    assert view.shown_path == path and view.shown_node() == opened
    assert "not among" not in view.node_line.text()
