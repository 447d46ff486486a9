"""The race window: a tic-tac-toe race runs to its end through signals, the table and the chart
show every entrant (and the two curves), the copy is the race's text, and nothing is cut off."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFontMetricsF, QGuiApplication, QImage
from PySide6.QtWidgets import QApplication

import games
from ai.race import ALL_ENTRANTS, Entrant, RaceResult, count_levels, default_depth
from gui.players import HUMAN, PlayerConfig
from gui.race import RaceDialog
from gui.race.dialog import big_number, duration_text
from gui.race.chart import NodesChart, Series, SeriesKind, decade_label, decades
from gui.theme import DARK, LIGHT

WAIT_MS = 120_000


@pytest.fixture
def dialog(qtbot: Any) -> RaceDialog:
    made = RaceDialog(games.new_game("tictactoe", "x...o...."), theme=LIGHT)
    qtbot.addWidget(made)
    made.show()
    qtbot.waitExposed(made)
    return made


def cell(dialog: RaceDialog, row: int, column: int) -> str:
    item = dialog.table.item(row, column)
    assert item is not None, (row, column)
    return item.text()


def run_to_end(qtbot: Any, dialog: RaceDialog) -> RaceResult:
    with qtbot.waitSignal(dialog.race_finished, timeout=WAIT_MS) as blocker:
        qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
        assert dialog.stop_button.isEnabled() and not dialog.start_button.isEnabled()
    result = blocker.args[0]
    assert isinstance(result, RaceResult)
    return result


def test_default_depth_is_the_whole_game_here(dialog: RaceDialog) -> None:
    assert dialog.depth_box.value() == default_depth(games.new_game("tictactoe", "x...o....")) == 7
    assert all(box.isChecked() for box in dialog.checks.values())
    assert not dialog.copy_button.isEnabled()


def test_a_race_runs_to_its_end(qtbot: Any, dialog: RaceDialog) -> None:
    dialog.depth_box.setValue(5)
    result = run_to_end(qtbot, dialog)
    assert not result.stopped and result.disagreements == ()
    assert dialog.start_button.isEnabled() and not dialog.stop_button.isEnabled()
    assert all(box.isEnabled() for box in dialog.checks.values())
    assert [entry.entrant for entry in result.entries] == list(ALL_ENTRANTS)
    # The table: one row per entrant, its cells the result's.
    assert dialog.table.rowCount() == len(ALL_ENTRANTS)
    for row, entry in enumerate(result.entries):
        assert cell(dialog, row, 0).startswith(entry.entrant.label)
        assert cell(dialog, row, 4) == f"{entry.nodes:,}"
    minimax = result.entry(Entrant.MINIMAX)
    assert minimax is not None
    levels = count_levels(games.new_game("tictactoe", "x...o...."), 5)
    assert minimax.nodes_per_depth[-1] == sum(levels)  # the full-width tree, counted here
    assert "returns minimax's value at every depth" in dialog.verdict.text()
    # The chart: one series per entrant, then b^d and b^(d/2).
    series = dialog.chart.series()
    assert [item.label.split(" (")[0] for item in series[: len(ALL_ENTRANTS)]] == [entrant.label for entrant in ALL_ENTRANTS]
    assert [item.kind for item in series[len(ALL_ENTRANTS):]] == [SeriesKind.CURVE, SeriesKind.CURVE]
    assert series[-2].label.startswith("b^d") and series[-1].label == "b^(d/2)"
    assert len(series) == len(ALL_ENTRANTS) + 2
    lines = {item.label: item for item in series}
    assert lines["minimax"].points == tuple((depth, float(nodes)) for depth, nodes in enumerate(minimax.nodes_per_depth, 1))
    mcts = next(item for item in series if item.kind is SeriesKind.MARKER)
    mcts_entry = result.entry(Entrant.MCTS)
    assert mcts_entry is not None and mcts.points == ((5, float(mcts_entry.nodes)),)
    # Copy table: the race's text on the clipboard.
    assert dialog.copy_button.isEnabled()
    qtbot.mouseClick(dialog.copy_button, Qt.MouseButton.LeftButton)
    assert QGuiApplication.clipboard().text() == result.as_text()
    for entrant in ALL_ENTRANTS:
        assert entrant.label in QGuiApplication.clipboard().text()


def test_the_warning_reads_the_tree_estimate_at_every_depth(qtbot: Any) -> None:
    dialog = RaceDialog(games.new_game("chess"), theme=LIGHT)
    qtbot.addWidget(dialog)
    dialog.set_entrants((Entrant.MINIMAX,))
    warnings = []
    for depth in (5, 12, 30):
        dialog.depth_box.setValue(depth)
        warnings.append(dialog.warning.text())
    assert "million nodes at depth 5" in warnings[0]  # perft 1..5 over five iterations: 5.1 million
    assert "× 10^" in warnings[1] and "at depth 12" in warnings[1]
    assert "at depth 30" in warnings[2]
    assert [big_number(n) for n in (4.9e6, 2.5e9, 8.04e16, 9.99e35)] == [
        "4.9 million", "2.5 billion", "8.0 × 10^16", "1.0 × 10^36"
    ]


def test_stop_ends_the_race(qtbot: Any) -> None:
    dialog = RaceDialog(games.new_game("chess"), theme=LIGHT)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.set_entrants((Entrant.MINIMAX, Entrant.ALPHABETA))
    dialog.depth_box.setValue(6)
    assert "Minimax would visit about" in dialog.warning.text()  # chess depth 6: minutes
    with qtbot.waitSignal(dialog.race_finished, timeout=WAIT_MS) as blocker:
        qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: dialog.table.item(0, 3) is not None and cell(dialog, 0, 3).startswith("2"), timeout=WAIT_MS)  # depth 2 done
        qtbot.mouseClick(dialog.stop_button, Qt.MouseButton.LeftButton)
    result = blocker.args[0]
    assert result.stopped
    assert dialog.verdict.text().startswith("Stopped.")
    assert dialog.start_button.isEnabled() and not dialog.stop_button.isEnabled()


def test_no_race_on_a_dice_game(qtbot: Any) -> None:
    dialog = RaceDialog(games.new_game("backgammon"), theme=LIGHT)
    qtbot.addWidget(dialog)
    assert not dialog.start_button.isEnabled()
    assert "dice" in dialog.verdict.text()


def test_only_mcts_cannot_start(dialog: RaceDialog) -> None:
    dialog.set_entrants((Entrant.MCTS,))
    assert not dialog.start_button.isEnabled()
    assert "needs a depth-first entrant" in dialog.budget_label.text()


@pytest.mark.parametrize("theme", [LIGHT, DARK], ids=["light", "dark"])
def test_chart_draws_whole_in_both_themes(qtbot: Any, theme: Any) -> None:
    """Axis labels and legend inside the widget at its smallest size; a line drawn where the
    data is (a pixel of the entrant's colour)."""
    chart = NodesChart()
    qtbot.addWidget(chart)
    chart.set_theme(theme)
    chart.resize(chart.minimumSize())
    chart.set_depth(4)
    red = Qt.GlobalColor.red
    chart.set_series(
        [
            Series("minimax", QColor(red), ((1, 21.0), (2, 421.0), (3, 9323.0), (4, 206604.0))),
            Series("alpha-beta + ordering + table", QColor("#1e8449"), ((1, 21.0), (2, 80.0), (3, 696.0), (4, 2021.0))),
            Series("b^(d/2)", QColor("#6b6b6b"), ((1, 4.6), (4, 444.0)), SeriesKind.CURVE, Qt.PenStyle.DotLine),
        ]
    )
    image = QImage(chart.size(), QImage.Format.Format_ARGB32)
    chart.render(image)
    layout = chart._layout(QFontMetricsF(chart.font()))  # noqa: SLF001 - the geometry under test
    assert layout.plot.left() > 0 and layout.plot.right() < chart.width()
    assert layout.plot.height() > 60
    bottom_of_legend = layout.legend_top + len(layout.legend_rows) * QFontMetricsF(chart.font()).height() * 1.3
    assert bottom_of_legend <= chart.height()
    reds = sum(
        1 for x in range(image.width()) for y in range(image.height()) if QColor(image.pixel(x, y)) == QColor(red)
    )
    assert reds > 50


def test_decades() -> None:
    assert decades(21, 206_604) == [1, 2, 3, 4, 5, 6]
    assert [decade_label(power) for power in (0, 2, 3, 6, 7)] == ["1", "100", "1k", "1M", "10M"]


def test_opened_from_the_engine_menu(qtbot: Any, window: Any) -> None:
    window.start_game("tictactoe", (PlayerConfig(kind=HUMAN), PlayerConfig(kind=HUMAN)))
    action = window.actions_by_name["race"]
    assert action.text().replace("&", "") == "Algorithm race…"
    action.trigger()
    dialogs = [widget for widget in QApplication.topLevelWidgets() if isinstance(widget, RaceDialog) and widget.isVisible()]
    assert len(dialogs) == 1
    dialog = dialogs[0]
    assert dialog.game.NAME == "tictactoe" and dialog.depth_box.value() == 9
    window.set_theme("dark")
    assert dialog.theme.is_dark
    dialog.close()


def test_a_disagreement_is_shown_in_red(qtbot: Any, dialog: RaceDialog) -> None:
    """The window's check can fail: a result whose PVS value differs from minimax's at depth 2
    turns PVS's value red and says so in the verdict."""
    from ai.events import Score
    from ai.race import EntrantResult, RaceRequest

    minimax = EntrantResult(
        Entrant.MINIMAX, depth=2, score=Score(5.0), value_text="+5", nodes=30, nodes_per_depth=(10, 20),
        scores_per_depth=(Score(3.0), Score(5.0)),
    )
    pvs = EntrantResult(
        Entrant.PVS, depth=2, score=Score(6.0), value_text="+6", nodes=20, nodes_per_depth=(10, 10),
        scores_per_depth=(Score(3.0), Score(6.0)),
    )
    result = RaceResult(RaceRequest(game="tictactoe", depth=2, entrants=(Entrant.MINIMAX, Entrant.PVS)), (minimax, pvs))
    with qtbot.waitSignal(dialog.race_finished, timeout=WAIT_MS):
        dialog.show_result(result)
    assert "DISAGREEMENT: PVS returns +6 at depth 2, minimax +5" in dialog.verdict.text()
    value = dialog.table.item(1, 1)
    assert value is not None and value.foreground().color() == QColor("#e0302a")
    assert "PVS returns +6 at depth 2" in value.toolTip()


def test_a_hopeless_minimax_says_how_long_at_its_measured_speed_and_cannot_start(qtbot: Any) -> None:
    """Chess after 1.e4 c5 2.Nf3 Nc6 3.a4 d5 4.Nc3 e6 to depth 9: about 7 × 10^13 minimax
    nodes. The warning gives the time at the speed minimax was measured at on this
    position (years, not "minutes"), and Start is off; a shallow depth starts."""
    state = games.new_game("chess")
    for name in ("e4", "c5", "Nf3", "Nc6", "a4", "d5", "Nc3", "e6"):
        state.play(state.parse_move(name))
    dialog = RaceDialog(state, theme=LIGHT)
    qtbot.addWidget(dialog)
    dialog.set_entrants((Entrant.MINIMAX, Entrant.ALPHABETA))
    dialog.depth_box.setValue(9)
    assert "measuring how fast it searches here" in dialog.warning.text()  # off the GUI thread
    qtbot.waitUntil(lambda: dialog.minimax_speed is not None, timeout=10_000)
    text = dialog.warning.text()
    speed = dialog.minimax_speed
    assert speed is not None and speed > 0
    estimate = dialog.minimax_estimate(9)
    assert estimate > 1e12
    assert f"at the {speed:,.0f} nodes a second it searches here" in text
    assert "years" in text and "minutes" not in text and "it will not finish" in text
    assert not dialog.start_button.isEnabled()
    dialog.depth_box.setValue(3)
    assert dialog.start_button.isEnabled()
    assert [duration_text(s) for s in (40, 3 * 3600, 400 * 365.25 * 86400, 2.3e9 * 365.25 * 86400)] == [
        "about 40 seconds", "about 3 hours", "about 400 years", "about 2.3 billion years"
    ]
