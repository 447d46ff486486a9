"""The engine dock's text at the window's default size: every table's headers and numbers
fit their columns (the Evaluation tab's wᵢ·fᵢ, the root moves' "Value (White)"), the
algorithm's name fits its box in Settings, the evaluation's sum is in the game's unit, and
the eval bar's number is readable (never under ``MIN_LABEL_POINTS``) at every window size."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QComboBox, QStyle, QStyleOptionComboBox, QTableView
from pytestqt.qtbot import QtBot

from ai import display as scores
from ai.engine import search
from ai.events import CurrentMove, Iteration, Score
from ai.settings import Limits, SearchSettings
from games import GAME_NAMES, get_game, new_game
from gui.engine_bridge import SearchInfo
from gui.panels.eval_bar import MIN_LABEL_POINTS
from gui.panels.settings_panel import valid_algorithms
from gui.players import HUMAN, PlayerConfig

HUMANS = (PlayerConfig(kind=HUMAN), PlayerConfig(kind=HUMAN))
HEADER_MARGIN = 8
"""Pixels a header section needs beside its text (the style's margins): less and Qt elides."""
CELL_MARGIN = 6


DOCK_WIDTH = 300
"""The engine dock's narrowest (``MainWindow.fit_engine_dock``: 30 % of the window, at least
300 px): the default window's dock on a 96-dpi display is about 350 px."""


def show_tab(qtbot: QtBot, window: Any, widget: Any) -> None:
    """Show ``widget``'s tab of the engine dock, the dock at its narrowest."""
    window.resizeDocks([window.engine_dock], [DOCK_WIDTH], Qt.Orientation.Horizontal)
    qtbot.waitUntil(lambda: abs(window.engine_dock.width() - DOCK_WIDTH) <= 2)
    tabs = window.engine_tabs
    index = next(index for index in range(tabs.count()) if widget is tabs.widget(index) or tabs.widget(index).isAncestorOf(widget))
    tabs.setCurrentIndex(index)
    qtbot.waitExposed(widget)


def assert_fits(view: QTableView, stretched: int) -> None:
    """Every shown column holds its header, and every fixed column its texts, whole; the
    table needs no sideways scrolling. ``stretched``: the column of names that takes the
    width left (elided if need be, whole in a tooltip), which still shows its header."""
    model: Any = view.model()
    header = view.horizontalHeader()
    header_metrics, metrics = QFontMetrics(header.font()), QFontMetrics(view.font())
    assert view.horizontalScrollBar().maximum() == 0
    room = view.viewport().width()
    for column in range(model.columnCount()):
        if view.isColumnHidden(column):
            continue
        text, size = model.columns[column].header, header.sectionSize(column)
        assert view.columnViewportPosition(column) + size <= room, (text, size, room)
        assert header_metrics.horizontalAdvance(text) + HEADER_MARGIN <= size, (text, size)
        if column != stretched:
            for row in model.rows:
                assert metrics.horizontalAdvance(row[column]) + CELL_MARGIN <= size, (text, row[column], size)


# ---------------------------------------------------------------------------- Evaluation
@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_evaluation_tab_fits_and_sums_in_the_games_unit(qtbot: QtBot, window: Any, name: str) -> None:
    session = window.start_game(name, HUMANS, manual_dice=False)
    for move in {"chess": ["e4", "e5", "Nf3", "Nc6"], "othello": ["d3", "c5"], "checkers": ["11-15", "23-19"]}.get(name, []):
        assert session.play_text(move) is None, move
    qtbot.waitUntil(lambda: window.features_panel.rows() != [] or not session.state.evaluation_features(0))
    panel = window.features_panel
    show_tab(qtbot, window, panel)
    assert_fits(panel.view, stretched=0)
    game = get_game(name)
    state = session.state
    total = state.evaluate(0)
    if panel.rows():
        # Σ in the game's unit, as the engine panel writes scores (Σ -8 centipawns: -0.08 pawns)
        shown = scores.value_text(Score(total), game) if total else "0"
        assert panel.total_label.text().startswith(f"Σ = {shown} {game.SCORE_UNIT}"), panel.total_label.text()


# ---------------------------------------------------------------------------- root moves
@pytest.mark.parametrize(("name", "algorithm"), [("tictactoe", "mcts"), ("othello", "mcts"), ("backgammon", "star2")])
def test_the_root_moves_headers_fit(qtbot: QtBot, window: Any, name: str, algorithm: str) -> None:
    """Each header ("Value (White)") fits its column at the default size, never cut to "lue (W"."""
    window.start_game(name, HUMANS, manual_dice=False)
    state = new_game(name)
    if name == "backgammon":
        state.play(state.chance_outcomes()[0][0])
    settings = SearchSettings(algorithm=algorithm, book=False)
    limits = Limits(nodes=3000) if algorithm == "mcts" else Limits(depth=1)
    events: list[Any] = []
    finished = search(state, settings, limits, on_event=events.append, search_id=1)
    panel = window.engine_panel
    panel.on_search_started(SearchInfo(1, state.copy(), settings, limits))
    for event in events:
        if isinstance(event, Iteration):
            panel.on_iteration(event)
        elif isinstance(event, CurrentMove):
            panel.on_current_move(event)
    panel.on_finished(finished)
    show_tab(qtbot, window, panel)
    panel.tabs.setCurrentWidget(panel.root_move_view)
    qtbot.waitExposed(panel.root_move_view)
    assert panel.root_moves.rows
    assert "(" in panel.root_moves.columns[3].header  # names the player whose value it is
    assert_fits(panel.root_move_view, stretched=0)
    assert_fits(panel.iteration_view, stretched=panel.iterations.columnCount() - 1)


# ------------------------------------------------------------------------------ Settings
def test_every_algorithms_name_fits_its_box(qtbot: QtBot, window: Any) -> None:
    """The box names the algorithm in full ("PVS (NegaScout)", never cut to "(NegaScou"); the
    line under it describes it, wrapped."""
    settings = window.settings_panel
    for name in GAME_NAMES:
        window.start_game(name, HUMANS, manual_dice=False)
        show_tab(qtbot, window, settings)
        box: QComboBox = settings.algorithm
        for index in range(box.count()):
            box.setCurrentIndex(index)
            option = QStyleOptionComboBox()
            box.initStyleOption(option)
            field = box.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option, QStyle.SubControl.SC_ComboBoxEditField, box)
            assert box.fontMetrics().horizontalAdvance(box.currentText()) <= field.width(), (name, box.currentText(), field.width())
            summary = settings.algorithm_summary
            assert summary.wordWrap() and summary.text(), box.currentText()
        assert box.count() == len(valid_algorithms(get_game(name)))


# -------------------------------------------------------------------------- the eval bar
@pytest.mark.parametrize("size", [(900, 600), (1180, 760), (1600, 1000)])
def test_the_eval_bars_number_is_readable_at_every_size(qtbot: QtBot, window: Any, size: tuple[int, int]) -> None:
    """The number is at least ``MIN_LABEL_POINTS`` (bold) whatever the window's size, and every
    label a game can show fits the bar's width at that size (the bar widens; the number never
    shrinks)."""
    window.resize(*size)
    for name in GAME_NAMES:
        window.start_game(name, HUMANS, manual_dice=False)
        bar = window.eval_bar
        qtbot.waitUntil(lambda: bar.isVisible())
        font = bar.label_font()
        assert font.pointSizeF() >= MIN_LABEL_POINTS and font.bold()
        assert font.pointSizeF() >= window.font().pointSizeF() * 0.85  # about the text's own size
        metrics = QFontMetrics(font)
        game = get_game(name)
        unit = game.SCORE_UNIT_SIZE
        for score in [Score(value * unit, view) for value in (0.02, 0.35, 1.25, 9.99, 12.35, 99.9, 123.4) for view in (0, 1)] + [
            Score(1e6, 0, plies) for plies in (0, 1, 5, 23)
        ] + [Score(-1e6, 0, -plies) for plies in (1, 23)]:
            bar.set_score(score)
            for line in [bar.leader_mark(), *bar.label_text().split("\n")]:
                assert metrics.horizontalAdvance(line) + 2 <= bar.width(), (name, size, line, bar.width())


def test_the_searching_line_never_runs_past_the_panel(qtbot: QtBot) -> None:
    """A backgammon move with its roll and depth is long: in a narrow dock the line is cut
    in the middle, keeping the move and the depth (never "…, depth" with its number gone),
    with the whole line in a tooltip."""
    from gui.panels.engine_panel import EnginePanel

    panel = EnginePanel()
    qtbot.addWidget(panel)
    current = panel.stat_labels["current"]
    text = "bar/22 13/7 8/7 6/5 (13/20), roll 6-5 (2/21), depth 3"
    current.setText(text)
    current.resize(120, current.sizeHint().height())
    shown = current.shown_text()  # type: ignore[attr-defined]
    assert shown != text and shown.startswith("bar") and shown.endswith("depth 3")
    assert current.fontMetrics().horizontalAdvance(shown) <= current.contentsRect().width()
    assert current.toolTip() == text
