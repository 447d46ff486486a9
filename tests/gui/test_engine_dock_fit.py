"""The engine dock after a game and in a small window: a finished game's result heads the
engine panel (not the last search's "mates in 1"), the eval graph marks the live position
at its right edge visibly in both themes, and the iteration table's columns fit a narrow
dock whole (no sideways scrolling, no cut-off numbers)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtGui import QColor, QFontMetrics
from pytestqt.qtbot import QtBot

from ai.engine import search
from ai.events import Iteration, Score
from ai.settings import Limits, SearchSettings
from games import get_game, new_game
from gui.engine_bridge import SearchInfo
from gui.panels.engine_panel import EnginePanel
from gui.panels.eval_graph import MARGIN, MARKER_RADIUS, EvalGraph
from gui.players import COMPUTER, HUMAN, PlayerConfig
from gui.theme import theme_named

BLACK_MATES_IN_ONE = "r5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1"
"""Black (the computer) mates with Ra1#."""


@pytest.fixture
def window(qtbot: QtBot, bridge: Any, tmp_path: Any) -> Iterator[Any]:
    from gui.main_window import MainWindow

    made = MainWindow(bridge=bridge, data_directory=tmp_path, offer_resume=False, seed=3)
    qtbot.addWidget(made)
    made.resize(1000, 680)  # the small window: the dock is 300 px wide
    made.show()
    qtbot.waitExposed(made)
    yield made
    made.shutdown()


# ------------------------------------------------------------------ the game's end
def test_the_computers_mate_heads_the_panel_as_the_result(qtbot: QtBot, window: Any) -> None:
    """Lichess shows "Checkmate, Black is victorious" once it is mate, never the search's
    "mate in 1": the headline is the result, the status says the greyed numbers below are
    the last search's; a take-back brings the search's headline back."""
    computer = PlayerConfig(kind=COMPUTER, strength="depth", depth=2).for_game("chess")
    session = window.start_game("chess", (PlayerConfig(kind=HUMAN), computer), start=BLACK_MATES_IN_ONE)
    with qtbot.waitSignal(session.game_over, timeout=30_000):
        pass
    panel = window.engine_panel
    assert session.move_names() == ["Ra1#"]
    assert panel.score_label.text() == "Black wins"
    status = panel.status_label.text()
    assert status.startswith("Game over: checkmate") and "last search: Best move Ra1#" in status
    assert panel.score_label.isEnabled() and not panel.pv_label.isEnabled()  # the line is the past's
    assert not panel.stat_labels["nodes"].isEnabled()

    session.set_paused(True)  # the computer would mate again at once
    session.undo()
    qtbot.waitUntil(lambda: not panel.is_showing_game_over)
    assert panel.score_label.text() == "Black mates in 1"  # the search's forecast, true again
    assert panel.status_label.text().startswith("Best move Ra1#")
    assert panel.pv_label.isEnabled()


def test_the_humans_winning_move_heads_the_panel_with_the_result(qtbot: QtBot, window: Any) -> None:
    computer = PlayerConfig(kind=COMPUTER, strength="depth", depth=1).for_game("tictactoe")
    session = window.start_game("tictactoe", (PlayerConfig(kind=HUMAN), computer), manual_dice=False)
    session.set_paused(True)  # the human plays both sides
    for name in ("a1", "b1", "a2", "b2"):
        assert session.play_text(name) is None, name
    with qtbot.waitSignal(session.game_over, timeout=5_000):
        assert session.play_text("a3") is None
    panel = window.engine_panel
    assert panel.score_label.text() == "X wins"
    assert panel.status_label.text() == "Game over: X has three in a row"  # no search to speak of


def test_a_resignation_while_the_engine_thinks_is_no_search_result(qtbot: QtBot, window: Any) -> None:
    """The search cut short by the resignation never finished: the status names none."""
    computer = PlayerConfig(kind=COMPUTER, strength="time", seconds=60.0).for_game("chess")
    session = window.start_game("chess", (computer, PlayerConfig(kind=HUMAN)))
    qtbot.waitUntil(lambda: session.is_thinking, timeout=10_000)
    with qtbot.waitSignal(session.game_over, timeout=5_000):
        session.resign()  # the human's side, Black
    panel = window.engine_panel
    assert panel.score_label.text() == "White wins"
    assert panel.status_label.text() == "Game over: Black resigned"


# ----------------------------------------------------------------- the graph marker
def marker_rows(graph: EvalGraph, ply: int, colour: QColor) -> tuple[int, int]:
    """Rows of the plot with the marker's colour within 2 px of the ply's x, and all rows."""
    image = graph.grab().toImage()
    x = round(graph.x_of(ply))
    top, bottom = int(MARGIN) + 1, graph.height() - int(MARGIN) - 2

    def is_marker(pixel: QColor) -> bool:
        return max(abs(pixel.red() - colour.red()), abs(pixel.green() - colour.green()), abs(pixel.blue() - colour.blue())) < 40

    found = sum(any(is_marker(image.pixelColor(column, row)) for column in range(x - 2, x + 3)) for row in range(top, bottom + 1))
    return found, bottom - top + 1


@pytest.mark.parametrize("theme_name", ["light", "dark"])
def test_the_live_positions_marker_stands_whole_at_the_right_edge(qtbot: QtBot, theme_name: str) -> None:
    theme = theme_named(theme_name)
    graph = EvalGraph()
    qtbot.addWidget(graph)
    graph.setPalette(theme.qpalette())
    graph.set_theme(theme)
    graph.resize(280, 126)
    graph.set_game(get_game("chess"))
    scores = [Score(value, 0) for value in (0, 30, 10, 80, -40, -300, -900)] + [Score(-1.0, 0, 0)]  # ends mated
    graph.set_scores(scores)
    last = len(scores) - 1
    graph.set_current_ply(last)
    graph.show()
    qtbot.waitExposed(graph)
    accent = theme.qpalette().color(theme.qpalette().ColorRole.Highlight)
    x = graph.x_of(last)
    assert x + 5 < graph.width() - MARGIN  # the dot and the line are inside the plot
    found, rows = marker_rows(graph, last, accent)
    assert found >= rows - 4, (found, rows)  # a line the plot's whole height (the dot's rim aside)
    dot = graph.grab().toImage().pixelColor(round(x), graph.height() - round(MARGIN + MARKER_RADIUS + 1))
    assert dot.rgb() == accent.rgb()  # the dot on the mated end of the curve, whole at the bottom
    assert marker_rows(graph, 2, accent)[0] < rows / 4  # and not where no marker is


def test_the_window_marks_the_live_position_on_the_graph(qtbot: QtBot, window: Any) -> None:
    session = window.start_game("tictactoe", (PlayerConfig(kind=HUMAN), PlayerConfig(kind=HUMAN)), manual_dice=False)
    for name in ("a1", "b1"):
        assert session.play_text(name) is None
    qtbot.waitUntil(lambda: window.eval_graph.current_ply == 2)  # the live position, not None


# ------------------------------------------------------------- the iteration table
def fed_panel(qtbot: QtBot, game: str, width: int, depth: int) -> EnginePanel:
    state = new_game(game)
    if game == "backgammon":
        state.play(state.chance_outcomes()[0][0])
    settings = SearchSettings(book=False, algorithm="star2" if game == "backgammon" else "pvs")
    limits = Limits(depth=depth)
    events: list[Any] = []
    finished = search(state, settings, limits, on_event=events.append, search_id=1)
    panel = EnginePanel()
    qtbot.addWidget(panel)
    panel.resize(width, 420)  # short: the rows need a vertical scroll bar
    panel.show()
    qtbot.waitExposed(panel)
    panel.on_search_started(SearchInfo(1, state.copy(), settings, limits))
    for event in events:
        if isinstance(event, Iteration):
            panel.on_iteration(event)
    panel.on_finished(finished)
    return panel


@pytest.mark.parametrize(("game", "depth"), [("chess", 5), ("othello", 6), ("backgammon", 1)])
@pytest.mark.parametrize("width", [300, 480])
def test_the_iteration_columns_shown_fit_the_dock_whole(qtbot: QtBot, game: str, depth: int, width: int) -> None:
    """In the dock of a 1000 px (300) or a 1600 px (480) window: no sideways scrolling, every
    column shown ends inside the table and holds its texts and header whole; depth, score and
    nodes always show, the wider dock shows time, branching factor and TT hits too."""
    panel = fed_panel(qtbot, game, width, depth)
    view = panel.iteration_view
    qtbot.waitUntil(lambda: view.horizontalScrollBar().maximum() == 0)
    model = panel.iterations
    assert model.rows
    room = view.viewport().width()
    shown = [column for column in range(model.columnCount()) if not view.isColumnHidden(column)]
    headers = [model.columns[column].header for column in shown]
    assert headers[:3] == ["Depth", f"Score ({get_game(game).PLAYER_NAMES[0].capitalize()})", "Nodes"], headers
    if width >= 480:
        assert {"Time", "EBF", "TT hits"} <= set(headers), headers
    metrics = QFontMetrics(view.font())
    header_metrics = QFontMetrics(view.horizontalHeader().font())
    for column in shown:
        left, size = view.columnViewportPosition(column), view.columnWidth(column)
        assert left + size <= room, (model.columns[column].header, left, size, room)
        if column == model.columnCount() - 1:
            continue  # the line stretches over the rest, elided, its whole text in a tooltip
        assert header_metrics.horizontalAdvance(model.columns[column].header) + 8 <= size
        for row in model.rows:
            assert metrics.horizontalAdvance(row[column]) + 6 <= size, (row[column], size)


def test_a_wider_dock_brings_the_columns_back(qtbot: QtBot) -> None:
    panel = fed_panel(qtbot, "chess", 300, 3)
    view = panel.iteration_view
    narrow = [view.isColumnHidden(column) for column in range(panel.iterations.columnCount())]
    panel.resize(900, 420)
    qtbot.waitUntil(lambda: not any(view.isColumnHidden(column) for column in range(panel.iterations.columnCount())))
    assert any(narrow)
