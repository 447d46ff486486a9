"""The engine panel's best lines (MultiPV): one row per line, ranked, each the line the
search reported, in the panel's score text; hidden when one line is asked for."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QSpinBox
from pytestqt.qtbot import QtBot

from ai.events import Finished, Iteration, PvLine, Score
from ai.settings import Limits, SearchSettings
from games import get_game, new_game
from gui.engine_bridge import EngineBridge, SearchInfo
from gui.panels import display
from gui.panels.engine_panel import CELL_PADDING, NO_BREAK_HYPHEN, NO_BREAK_SPACE, WORD_JOINER, EnginePanel, unbroken
from gui.panels.settings_panel import SettingsPanel
from tests.gui.engine_doubles import ThreadedEnginePool

ITALIAN = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"


def plain(text: str) -> str:
    """A line as the other labels write it (without its no-break characters)."""
    return text.replace(NO_BREAK_HYPHEN, "-").replace(NO_BREAK_SPACE, " ").replace(WORD_JOINER, "")


@pytest.fixture
def bridge() -> Iterator[EngineBridge]:
    engine = EngineBridge(ThreadedEnginePool())
    yield engine
    engine.shutdown()


def search_in_panel(qtbot: QtBot, bridge: EngineBridge, panel: EnginePanel, game: str, position: str | None,
                    settings: SearchSettings, depth: int) -> Finished:
    panel.connect_bridge(bridge)
    with qtbot.waitSignal(bridge.search_finished, timeout=30000) as answer:
        bridge.start_search(new_game(game, position), settings, Limits(depth=depth))
    return answer.args[0]


@pytest.mark.parametrize(("game", "position", "depth"), [("chess", ITALIAN, 4), ("othello", None, 4)])
def test_the_panel_shows_one_ranked_row_per_line(qtbot: QtBot, bridge: EngineBridge, game: str, position: str | None, depth: int) -> None:
    panel = EnginePanel()
    qtbot.addWidget(panel)
    panel.resize(420, 700)  # the dock's usual width
    panel.show()
    qtbot.waitExposed(panel)
    finished = search_in_panel(qtbot, bridge, panel, game, position, SearchSettings(multipv=3, book=False), depth)
    state = new_game(game, position)
    game_class = get_game(game)
    assert panel.line_view.isVisible() and len(finished.lines) == 3
    rows = panel.line_texts()
    assert [row[0] for row in rows] == ["1", "2", "3"]
    for row, line in zip(rows, finished.lines, strict=True):
        assert row[1] == display.score_value_text(line.score, game_class)
        assert row[3] == display.joined_line([unbroken(name) for name in state.line_names(line.pv)])
        assert row[2] == str(line.depth)
    assert plain(rows[0][3]) == panel.pv_text()  # line 1 is the principal variation shown above
    assert len({row[3].split("  ")[0] for row in rows}) == 3
    header = panel.line_view.horizontalHeader()
    assert panel.lines.headerData(1, header.orientation()) == f"Score ({display.player_names(game_class)[0]})"
    # Every row in sight, no scrolling: the table is as tall as its three rows.
    view = panel.line_view
    assert view.viewport().height() >= 3 * view.verticalHeader().defaultSectionSize()
    # The score column is as wide as its widest text: nothing is elided.
    metrics = view.fontMetrics()
    assert all(metrics.horizontalAdvance(row[1]) < header.sectionSize(1) for row in rows)
    # Each line fits its cell, wrapped, at the dock's width: nothing is cut off.
    room = header.sectionSize(3) - CELL_PADDING
    for row in rows:
        needed = metrics.boundingRect(QRect(0, 0, room, 10_000), Qt.TextFlag.TextWordWrap, row[3]).height()
        assert needed <= view.rowHeight(0), (row[3], needed, view.rowHeight(0))


def test_one_line_hides_the_table(qtbot: QtBot, bridge: EngineBridge) -> None:
    panel = EnginePanel()
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitExposed(panel)
    search_in_panel(qtbot, bridge, panel, "chess", ITALIAN, SearchSettings(multipv=2, book=False), 2)
    assert panel.line_view.isVisible() and len(panel.line_texts()) == 2
    search_in_panel(qtbot, bridge, panel, "chess", ITALIAN, SearchSettings(book=False), 2)
    assert not panel.line_view.isVisible()


def test_the_settings_panel_sets_the_number_of_lines(qtbot: QtBot) -> None:
    panel = SettingsPanel()
    qtbot.addWidget(panel)
    panel.set_game(get_game("chess"))
    control = panel.controls["multipv"]
    assert isinstance(control, QSpinBox) and (control.minimum(), control.maximum()) == (1, 5)
    with qtbot.waitSignal(panel.settings_changed, timeout=1000) as changed:
        control.setValue(3)
    assert changed.args[0] == SearchSettings(multipv=3)


def test_a_line_the_stop_left_at_the_last_depth_is_muted_and_says_why(qtbot: QtBot) -> None:
    panel = EnginePanel()
    qtbot.addWidget(panel)
    state = new_game("chess", ITALIAN)
    moves = state.legal_moves()[:3]
    panel.on_search_started(SearchInfo(1, state, SearchSettings(multipv=3), Limits(time=1.0)))
    lines = tuple(
        PvLine(rank, move, Score(value, 1), (move,), depth)
        for rank, (move, value, depth) in enumerate(zip(moves, (30.0, 40.0, 10.0), (5, 4, 5), strict=True), start=1)
    )
    panel.on_iteration(
        Iteration(1, 5, 9, lines[0].score, lines[0].pv, 100, 1.0, 1.0, 0.0, 0.0, 0, 0.0, 2.0, lines=lines)
    )
    assert [row[2] for row in panel.line_texts()] == ["5", "4", "5"]
    assert set(panel.lines.row_notes) == {1}
    assert "depth 4" in panel.lines.row_notes[1] and "depth 5" in panel.lines.row_notes[1]
    foreground = Qt.ItemDataRole.ForegroundRole
    assert panel.lines.data(panel.lines.index(1, 3), foreground) is not None
    assert panel.lines.data(panel.lines.index(0, 3), foreground) is None


def test_mcts_lines_say_their_visits(qtbot: QtBot, bridge: EngineBridge) -> None:
    panel = EnginePanel()
    qtbot.addWidget(panel)
    panel.show()
    qtbot.waitExposed(panel)
    panel.connect_bridge(bridge)
    settings = SearchSettings(algorithm="mcts", multipv=3, book=False)
    with qtbot.waitSignal(bridge.search_finished, timeout=30000) as answer:
        bridge.start_search(new_game("tictactoe"), settings, Limits(nodes=3000))
    finished: Finished = answer.args[0]
    assert panel.lines.headerData(2, Qt.Orientation.Horizontal) == "Visits"
    rows = panel.line_texts()
    assert len(rows) == len(finished.lines) == 3
    for row, line in zip(rows, finished.lines, strict=True):
        assert row[2] == (display.count_text(line.visits) if line.visits else display.NO_VALUE)


def test_a_line_wraps_between_moves_never_inside_one() -> None:
    assert unbroken("O-O") == "O\u2011O" and unbroken("10-14") == "10\u201114"
    assert unbroken("24/18 13/11") == "24/\u206018\u00a013/\u206011"
