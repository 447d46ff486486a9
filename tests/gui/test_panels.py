"""The panels beside the board, fed by real searches: engine panel, eval bar and graph,
feature breakdown, settings."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QCheckBox, QSpinBox
from pytestqt.qtbot import QtBot

from ai.events import Score
from ai.search import ALGORITHMS
from ai.settings import Limits, SearchSettings
from games import CHANCE, GAME_NAMES, get_game, new_game
from gui.engine_bridge import EngineBridge
from gui.panels.engine_panel import EnginePanel
from gui.panels.eval_bar import EvalBar
from gui.panels.eval_graph import EvalGraph
from gui.panels.features import FeaturesPanel
from gui.panels.settings_panel import SettingsPanel, valid_algorithms
from tests.gui.engine_doubles import ThreadedEnginePool

BACK_RANK_MATE = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"
"""White mates in one with Ra8#."""


@pytest.fixture
def bridge() -> Iterator[EngineBridge]:
    engine = EngineBridge(ThreadedEnginePool())
    yield engine
    engine.shutdown()


def run_search(qtbot: QtBot, bridge: EngineBridge, panel: EnginePanel, state, settings, limits):  # type: ignore[no-untyped-def]
    panel.connect_bridge(bridge)
    with qtbot.waitSignal(bridge.search_finished, timeout=20000) as answer:
        bridge.start_search(state, settings, limits)
    return answer.args[0]


def layout_widths(panel: EnginePanel) -> list[int]:
    """Widths that must not change while the panel updates (no jitter)."""
    header = panel.iteration_view.horizontalHeader()
    columns = [header.sectionSize(column) for column in range(panel.iterations.columnCount() - 1)]
    return columns + [label.width() for label in panel.stat_labels.values()]


def test_a_real_search_fills_the_panel_in_the_games_notation(qtbot: QtBot, bridge: EngineBridge) -> None:
    panel = EnginePanel()
    qtbot.addWidget(panel)
    panel.resize(640, 600)
    panel.show()
    qtbot.waitExposed(panel)
    widths: list[list[int]] = []  # as the first depth is shown (the score column fits its game's)
    bridge.iteration_received.connect(lambda _event: widths.append(layout_widths(panel)))
    best_moves: list[object] = []
    panel.best_move_changed.connect(best_moves.append)
    state = new_game("chess")
    finished = run_search(qtbot, bridge, panel, state, SearchSettings(book=False), Limits(depth=4))
    assert widths and layout_widths(panel) == widths[0]
    assert best_moves and best_moves[-1] == finished.best_move
    expected = "  ".join(state.line_names(finished.pv))
    assert panel.pv_text() == expected
    assert state.parse_move(panel.pv_text().split()[0]) in state.legal_moves()  # SAN, not a repr
    depths = [int(row[0].split("/")[0]) for row in panel.iterations.rows]  # one row per report,
    assert sorted(set(depths)) == [1, 2, 3, 4] and depths == sorted(depths)  # aspiration fails too
    for row in panel.iterations.rows:
        assert row[1].startswith(("+", "-", "0", "≥", "≤")), row
    assert panel.score_label.text().startswith("White ")
    assert panel.stat_labels["nodes"].text() == f"{finished.nodes:,}"
    assert "principal variation search" in panel.settings_label.text()
    assert panel.status_label.text().startswith("Best move ")


def test_the_panel_says_who_mates_in_how_many(qtbot: QtBot, bridge: EngineBridge) -> None:
    panel = EnginePanel()
    qtbot.addWidget(panel)
    state = get_game("chess").from_text(BACK_RANK_MATE)
    run_search(qtbot, bridge, panel, state, SearchSettings(), Limits(depth=3))
    assert panel.score_label.text() == "White mates in 1"
    assert panel.pv_text().startswith("Ra8#")
    bar = EvalBar()
    qtbot.addWidget(bar)
    bar.set_game(get_game("chess"))
    bar.set_score(panel.score)
    assert bar.share == 1.0 and bar.label_text() == "#1"


def test_mcts_shows_root_moves_sorted_by_visits(qtbot: QtBot, bridge: EngineBridge) -> None:
    panel = EnginePanel()
    qtbot.addWidget(panel)
    state = new_game("tictactoe")
    finished = run_search(qtbot, bridge, panel, state, SearchSettings(algorithm="mcts"), Limits(nodes=3000))
    rows = panel.root_moves.rows
    assert len(rows) == len(state.legal_moves())
    visits = [int(row[1].replace(",", "")) for row in rows]
    assert visits == sorted(visits, reverse=True)
    assert rows[0][0] == state.move_name(finished.best_move)
    assert panel.tabs.currentWidget() is panel.root_move_view
    assert "C = 1.41" in panel.settings_label.text()


def test_backgammon_scores_read_as_equity_and_win_chance(qtbot: QtBot) -> None:
    bar = EvalBar()
    qtbot.addWidget(bar)
    game = get_game("backgammon")
    bar.set_game(game)
    bar.set_score(Score(0.4, view=1, scale=1.0))  # X is ahead: O's equity -0.4
    assert bar.share == pytest.approx(0.3)
    assert bar.label_text() == "70%"
    from gui.panels.display import score_text

    assert score_text(Score(0.4, view=1), game) == "X equity +0.400"  # the side the bar shows ahead
    assert bar.leader_mark() == "X"


def test_the_eval_graph_reports_the_clicked_ply(qtbot: QtBot) -> None:
    graph = EvalGraph()
    qtbot.addWidget(graph)
    graph.resize(208, 90)
    graph.set_game(get_game("chess"))
    graph.set_scores([Score(0.0), Score(30.0), None, Score(-120.0, view=1), Score(900.0)])
    graph.show()
    qtbot.waitExposed(graph)
    with qtbot.waitSignal(graph.ply_clicked, timeout=1000) as clicked:
        qtbot.mouseClick(graph, Qt.MouseButton.LeftButton, pos=QPoint(round(graph.x_of(3)), 40))
    assert clicked.args == [3]
    with qtbot.waitSignal(graph.ply_clicked, timeout=1000) as clicked:
        qtbot.mouseClick(graph, Qt.MouseButton.LeftButton, pos=QPoint(2, 40))
    assert clicked.args == [0]
    graph.set_current_ply(3)
    image = graph.grab().toImage()
    assert image.width() == 208


@pytest.mark.parametrize("name", GAME_NAMES)
def test_features_add_up_to_the_evaluation(qtbot: QtBot, name: str) -> None:
    panel = FeaturesPanel()
    qtbot.addWidget(panel)
    state = new_game(name)
    if state.to_move() < 0:
        state.play(state.chance_outcomes()[0][0])
    player = 0
    panel.set_state(state)
    features = state.evaluation_features(player)
    assert [row[0] for row in panel.rows()] == [key.replace("_", " ") for key in features]
    total = sum(weight * value for weight, value in features.values())
    assert total == pytest.approx(state.evaluate(player))
    assert panel.title_label.text().startswith(f"EVAL for {state.PLAYER_NAMES[player].capitalize()}")  # X, not x


def test_settings_panel_produces_the_settings_it_shows(qtbot: QtBot) -> None:
    panel = SettingsPanel()
    qtbot.addWidget(panel)
    chess = get_game("chess")
    with qtbot.waitSignal(panel.settings_changed, timeout=1000) as changed:
        panel.set_game(chess)
    assert changed.args[0] == SearchSettings()
    null_move = panel.controls["null_move"]
    assert isinstance(null_move, QCheckBox) and null_move.isEnabled()
    with qtbot.waitSignal(panel.settings_changed, timeout=1000) as changed:
        null_move.setChecked(False)
    assert changed.args[0] == SearchSettings(null_move=False)
    table = panel.controls["tt_megabytes"]
    assert isinstance(table, QSpinBox)
    with qtbot.waitSignal(panel.settings_changed, timeout=1000) as changed:
        table.setValue(16)
    threads = panel.controls["threads"]
    assert isinstance(threads, QSpinBox)
    threads.setValue(threads.maximum())
    with qtbot.waitSignal(panel.settings_changed, timeout=1000) as changed:
        panel.algorithm.setCurrentIndex(panel.algorithm.findData("mcts"))
    expected = SearchSettings(null_move=False, tt_megabytes=16, threads=threads.maximum(), algorithm="mcts")
    assert changed.args[0] == expected
    assert not panel.controls["aspiration"].isEnabled()  # MCTS has no window
    assert panel.controls["exploration"].isEnabled()
    assert not panel.controls["playout_depth"].isEnabled()  # random playouts run to the end
    panel.set_settings(dataclasses.replace(expected, playout="eval"))
    assert panel.controls["playout_depth"].isEnabled()


def test_settings_panel_offers_only_the_algorithms_of_the_game(qtbot: QtBot) -> None:
    panel = SettingsPanel()
    qtbot.addWidget(panel)
    with qtbot.waitSignal(panel.settings_changed, timeout=1000) as changed:
        panel.set_game(get_game("backgammon"))
    offered = [panel.algorithm.itemData(index) for index in range(panel.algorithm.count())]
    assert offered == ["expectiminimax", "star1", "star2", "mcts"]
    assert changed.args[0].algorithm == "star2"
    assert not panel.controls["null_move"].isEnabled()
    panel.set_game(get_game("othello"))
    offered = [panel.algorithm.itemData(index) for index in range(panel.algorithm.count())]
    compiled = ["native"] if get_game("othello").NATIVE_SEARCH is not None else []
    assert offered == ["minimax", "alphabeta", "pvs", "mtdf", "mcts", *compiled]
    assert panel.settings().algorithm == "pvs"
    assert panel.controls["solver_empties"].isEnabled()
    assert not panel.controls["null_move"].isEnabled()
    assert (panel.labels["solver_empties"].text(), panel.controls["solver_empties"].suffix()) == ("Exact solver at ≤", " empties")
    panel.set_game(get_game("checkers"))  # its databases are counted in pieces, not empty squares
    assert panel.controls["solver_empties"].isEnabled()
    assert (panel.labels["solver_empties"].text(), panel.controls["solver_empties"].suffix()) == ("Endgame databases at ≤", " pieces")
    # checkers takes late move reductions and futility pruning, not chess's null move
    assert panel.controls["late_move_reductions"].isEnabled() and panel.controls["futility_pruning"].isEnabled()
    assert not panel.controls["null_move"].isEnabled()
    assert panel.controls["null_move"].toolTip().endswith("(off here: Checkers does not use it)")
    for name in GAME_NAMES:
        game = get_game(name)
        for algorithm in valid_algorithms(game):
            ALGORITHMS[algorithm].check_game(game)  # every offered algorithm accepts the game


def test_a_chance_root_shows_the_value_of_each_roll(qtbot: QtBot, bridge: EngineBridge) -> None:
    panel = EnginePanel()
    qtbot.addWidget(panel)
    state = new_game("backgammon")  # the opening roll: nothing to choose yet
    run_search(qtbot, bridge, panel, state, SearchSettings(algorithm="star2"), Limits(depth=1))
    assert panel.status_label.text().startswith("Value before the roll")
    rows = panel.root_moves.rows
    assert len(rows) == len(state.chance_outcomes())
    assert panel.root_moves.columns[2].header == "Chance"
    values = [float(row[3]) for row in rows]
    assert values == sorted(values, reverse=True)
    assert sum(float(row[2].rstrip("%")) for row in rows) == pytest.approx(100.0, abs=0.05 * len(rows))  # each rounded to 0.1
    assert panel.tabs.currentWidget() is panel.root_move_view
    assert panel.score_label.text().startswith("O equity ")


def test_quiescence_follows_the_algorithm_until_the_user_chooses(qtbot: QtBot) -> None:
    panel = SettingsPanel()
    qtbot.addWidget(panel)
    panel.set_game(get_game("chess"))
    box = panel.controls["quiescence"]
    assert isinstance(box, QCheckBox)
    assert panel.settings().quiescence is None and box.isChecked()  # PVS: on by default
    panel.algorithm.setCurrentIndex(panel.algorithm.findData("minimax"))
    assert panel.settings().quiescence is None and not box.isChecked()  # the textbook's minimax: off
    with qtbot.waitSignal(panel.settings_changed, timeout=1000) as changed:
        box.setChecked(True)
    assert changed.args[0].quiescence is True
    panel.algorithm.setCurrentIndex(panel.algorithm.findData("pvs"))
    assert panel.settings().quiescence is True and box.isChecked()  # the choice stays
    panel.set_settings(SearchSettings())
    assert panel.settings().quiescence is None


def test_the_opening_roll_in_the_movers_column_does_not_repeat_the_name() -> None:
    """gnubg writes "54: 24/20 13/8" in X's column; the sheet wrote "X 5-4: …" there."""
    from gui.panels.move_list import score_sheet

    cells = score_sheet([CHANCE, 1, CHANCE, 0], ["X 5-4", "24/20 13/8", "4-1", "8/7 8/4"])
    assert [(cell.row, cell.column, cell.text) for cell in cells] == [(0, 1, "5-4: 24/20 13/8"), (1, 0, "4-1: 8/7 8/4")]
    pending = score_sheet([CHANCE], ["X 5-4"])  # not played yet: the roll still says whose it is
    assert [cell.text for cell in pending] == ["X 5-4:"]


def test_the_settings_line_names_each_games_exact_solving_as_the_settings_panel_does() -> None:
    # Othello solves at a number of empty squares, checkers probes databases at a number of
    # pieces: the one-line summary above the iterations says which, in the panel's words.
    from ai.options import settings_line

    settings = SearchSettings(solver_empties=20)
    assert "exact solver at ≤ 20 empties" in settings_line(settings, get_game("othello"))
    assert "endgame databases at ≤ 5 pieces" in settings_line(settings, get_game("checkers"))  # all it has
    assert "endgame databases at ≤ 3 pieces" in settings_line(SearchSettings(solver_empties=3), get_game("checkers"))
    assert "≤" not in settings_line(settings, get_game("chess"))


def test_checkers_shows_its_databases_reach_and_keeps_othellos_solver_setting(qtbot: QtBot) -> None:
    """One set of engine settings serves every game: checkers' box shows its 5-piece reach for
    Othello's 20 empties, and going back to Othello finds the 20 again."""
    panel = SettingsPanel()
    qtbot.addWidget(panel)
    box = panel.controls["solver_empties"]
    assert isinstance(box, QSpinBox)
    panel.set_game(get_game("othello"))
    panel.set_settings(SearchSettings(solver_empties=20))
    panel.set_game(get_game("checkers"))
    assert (box.value(), box.maximum()) == (5, 5)
    assert panel.settings().solver_empties == 20
    with qtbot.waitSignal(panel.settings_changed, timeout=1000) as changed:
        panel.controls["killers"].setChecked(False)  # another change reads every control
    assert changed.args[0].solver_empties == 20
    panel.set_game(get_game("othello"))
    assert (box.value(), panel.settings().solver_empties) == (20, 20)
    panel.set_game(get_game("checkers"))
    with qtbot.waitSignal(panel.settings_changed, timeout=1000) as changed:
        box.setValue(2)  # the user's own choice within the reach counts
    assert changed.args[0].solver_empties == 2
    panel.set_game(get_game("othello"))
    assert box.value() == 2
