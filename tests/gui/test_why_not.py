""""Why not this move?": a move entered in why-not mode is asked about, not played; the
engine searches it alone to the depth of its best move's analysis, and the answer names
both moves with their scores and the difference. The truth each answer is checked against
is a search of the asked move alone (``searchmoves``) made here, outside the app. The
searches run on the app's engine bridge and pool (``tests/gui/conftest.py``)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from ai.engine import search
from ai.events import Score
from ai.options import exact
from ai.settings import Limits, SearchSettings
from ai.tree.model import ROOT_PARENT, NodeEntry, NodeExit, NodeKind, SearchTree, TreeBatch, TreePass
from ai.tt import Bound
from games import get_game, new_game
from games.base import CHANCE
from gui.engine_bridge import EngineBridge
from gui.game_view import GameView
from gui.panels import display
from gui.panels.engine_panel import EnginePanel
from gui.panels.why_not import Analysis, WhyNotPanel, WhyNotResult, analysis_for, cut_in_tree
from gui.players import HUMAN, PlayerConfig
from gui.session import GameSession

HUMANS = (PlayerConfig(kind=HUMAN), PlayerConfig(kind=HUMAN))
ITALIAN = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"
EXACT = exact(SearchSettings(book=False))


class App:
    """The pieces the main window joins, joined the same way on a test bridge."""

    def __init__(self, qtbot: QtBot, bridge: EngineBridge, game: str, start: str | None) -> None:
        self.bridge = bridge
        self.session = GameSession(bridge, game, HUMANS, start=start, engine_settings=EXACT)
        self.view = GameView()
        qtbot.addWidget(self.view)
        self.view.attach(self.session)
        self.engine_panel = EnginePanel()
        qtbot.addWidget(self.engine_panel)
        self.engine_panel.connect_bridge(bridge)
        self.panel = WhyNotPanel(bridge)
        qtbot.addWidget(self.panel)
        self.engine_panel.set_search_filter(lambda _info: not self.panel.is_starting_search())
        self.view.why_not_asked.connect(self.ask)
        self.session.state_changed.connect(self.panel.position_changed)

    def ask(self, move: Any) -> None:
        info, iteration = self.engine_panel.last_analysis()
        self.panel.ask(self.session, move, analysis_for(self.session.state, info, iteration), EXACT)

    def close(self) -> None:
        self.session.close()


def alone(state: Any, move: Any, depth: int) -> Any:
    return search(state, EXACT, Limits(depth=depth), root_moves=[move])


def check_answer(result: WhyNotResult, panel: WhyNotPanel, state: Any) -> None:
    """The asked move's score is its search alone at the best move's depth, and the panel's
    sentence names both moves, the difference and the refutation."""
    game = get_game(state.NAME)
    truth = alone(state, result.move, result.depth)
    assert result.searched and result.depth == result.best.depth
    assert (result.move_score, result.move_line) == (truth.score, truth.pv)
    name, best_name = state.move_name(result.move), state.move_name(result.best.move)
    mover = state.to_move()
    difference = (result.best.score.for_player(mover).value - truth.score.for_player(mover).value) / game.SCORE_UNIT_SIZE
    verdict = panel.verdict_text()
    assert verdict.startswith(f"{name} loses {difference:.{game.SCORE_DECIMALS}f} {game.SCORE_UNIT} against {best_name}: after {name}")
    assert " ".join(state.line_names(truth.pv)[:3]) in " ".join(verdict.split())
    # Both scores from the chooser's side, named: they compare at a glance.
    mover_name = display.player_names(game)[mover]
    assert panel.move_caption.text().endswith(f": {display.view_score_text(truth.score, game, mover)}")
    assert panel.best_caption.text().endswith(f": {display.view_score_text(result.best.score, game, mover)}")
    assert mover_name in panel.move_caption.text() and mover_name in panel.best_caption.text()


def test_chess_a_move_asked_is_not_played_and_is_searched_to_the_analysis_depth(qtbot: QtBot, bridge: EngineBridge) -> None:
    app = App(qtbot, bridge, "chess", ITALIAN)
    try:
        state = new_game("chess", ITALIAN)
        with qtbot.waitSignal(bridge.search_finished, timeout=30000):  # the engine's analysis, shown in its panel
            bridge.start_search(state, EXACT, Limits(depth=3))
        info, iteration = app.engine_panel.last_analysis()
        assert iteration is not None and iteration.depth == 3
        best_move = iteration.pv[0]
        asked = next(move for move in state.legal_moves() if state.move_name(move) == "a6")
        assert asked != best_move

        assert app.view.set_why_not_mode(True) and app.view.why_not_label.isVisibleTo(app.view)
        with qtbot.waitSignal(app.panel.result_shown, timeout=30000) as shown:
            app.view.board.move_requested.emit(asked)  # as a click on the board would
        assert app.session.history == [] and app.session.state.to_text() == state.to_text()  # not played
        assert not app.view.why_not_mode
        result: WhyNotResult = shown.args[0]
        assert result.move == asked and result.best.move == best_move and result.depth == 3
        check_answer(result, app.panel, state)
        # The engine panel still shows its analysis, not the search of a6 alone.
        assert app.engine_panel.last_analysis()[1] is iteration
        assert app.engine_panel.pv_text().split()[0] == state.move_name(best_move)
    finally:
        app.close()


def test_othello_without_an_analysis_searches_the_best_move_first(qtbot: QtBot, bridge: EngineBridge) -> None:
    app = App(qtbot, bridge, "othello", None)
    try:
        state = new_game("othello")
        asked = state.legal_moves()[-1]
        app.view.set_why_not_mode(True)
        with qtbot.waitSignal(app.panel.result_shown, timeout=60000) as shown:
            app.view.board.move_requested.emit(asked)
        result: WhyNotResult = shown.args[0]
        # The best move's search is the engine panel's (its last iteration is the analysis).
        info, iteration = app.engine_panel.last_analysis()
        assert iteration is not None and (iteration.depth, iteration.score) == (result.best.depth, result.best.score)
        if result.is_best:
            assert "is the engine's own choice" in app.panel.verdict_text()
        else:
            truth = alone(state, asked, result.depth)
            assert result.move_score == truth.score
            verdict, name, best_name = app.panel.verdict_text(), state.move_name(asked), state.move_name(result.best.move)
            # A loss names the cost; a tie (exact settings) reads "Searched alone, e6 is as good as d3".
            assert verdict.startswith(f"{name} ") and f"against {best_name}" in verdict or f", {name} is as good as {best_name} (" in verdict
    finally:
        app.close()


def test_the_move_box_asks_too_and_a_best_line_answers_without_a_search(qtbot: QtBot, bridge: EngineBridge) -> None:
    """With several best lines in the analysis, a move among them is answered from its line."""
    app = App(qtbot, bridge, "checkers", None)
    try:
        state = new_game("checkers")
        settings = exact(SearchSettings(book=False, multipv=3))
        with qtbot.waitSignal(bridge.search_finished, timeout=30000) as finished:
            bridge.start_search(state, settings, Limits(depth=4))
        second = finished.args[0].lines[1]
        app.view.set_why_not_mode(True)
        with qtbot.waitSignal(app.panel.result_shown, timeout=30000) as shown:
            app.view.moves.move_entered.emit(state.move_name(second.move))
        result: WhyNotResult = shown.args[0]
        assert not result.searched and result.move_score == second.score
        assert result.move_score == alone(state, second.move, 4).score
        assert app.session.history == []
    finally:
        app.close()


def test_why_not_mode_is_refused_while_the_engine_thinks_and_ends_on_a_new_game(qtbot: QtBot, bridge: EngineBridge) -> None:
    app = App(qtbot, bridge, "tictactoe", None)
    try:
        app.session.request_hint()
        assert app.session.is_thinking
        assert not app.view.can_ask_why_not() and not app.view.set_why_not_mode(True)
        qtbot.waitUntil(lambda: not app.session.is_thinking, timeout=20000)
        assert app.view.set_why_not_mode(True)
        app.view.attach(GameSession(bridge, "tictactoe", HUMANS))
        assert not app.view.why_not_mode
    finally:
        app.close()


def test_escape_leaves_the_mode_and_the_menu_action_follows(qtbot: QtBot, window: Any) -> None:
    window.start_game("chess", HUMANS)
    action = window.actions_by_name["why_not"]
    assert action.isEnabled() and action.isCheckable()
    action.trigger()
    assert window.game_view.why_not_mode and action.isChecked()
    qtbot.keyClick(window, Qt.Key.Key_Escape)
    assert not window.game_view.why_not_mode and not action.isChecked()
    assert window.session.history == []


def test_escape_cancels_a_question_under_way(qtbot: QtBot, window: Any) -> None:
    """Asked with no analysis at hand, the engine first searches the position (a second);
    Esc then stops that search, and nothing is answered."""
    session = window.start_game("chess", HUMANS)
    shown: list[object] = []
    window.why_not_panel.result_shown.connect(shown.append)
    window.actions_by_name["why_not"].trigger()
    window.game_view.board.move_requested.emit(session.state.parse_move("a3"))
    assert window.why_not_panel.is_searching and window.bridge.is_searching
    qtbot.keyClick(window, Qt.Key.Key_Escape)
    assert not window.why_not_panel.is_searching and not window.bridge.is_searching
    assert window.why_not_panel.status_label.text() == "Cancelled."
    assert shown == [] and session.history == []
    # The mode can be entered again at once: the engine is free.
    window.actions_by_name["why_not"].trigger()
    assert window.game_view.why_not_mode


def test_after_an_mcts_analysis_the_move_gets_the_same_node_budget(qtbot: QtBot, bridge: EngineBridge) -> None:
    """MCTS has no search depth (its "depth" is the mean depth of its tree): the asked move
    is searched alone for the analysis's nodes, and the answer says so."""
    app = App(qtbot, bridge, "othello", None)
    try:
        state = new_game("othello")
        mcts = SearchSettings(algorithm="mcts", book=False, threads=1)
        with qtbot.waitSignal(bridge.search_finished, timeout=30000):
            bridge.start_search(state, mcts, Limits(nodes=3000))
        info, iteration = app.engine_panel.last_analysis()
        assert iteration is not None and iteration.nodes > 0
        analysis = analysis_for(state, info, iteration)
        assert analysis is not None and analysis.by_nodes and analysis.nodes == iteration.nodes
        asked = next(move for move in state.legal_moves() if move != analysis.move)
        started: list[Any] = []
        bridge.search_started.connect(started.append)
        with qtbot.waitSignal(app.panel.result_shown, timeout=30000) as shown:
            app.panel.ask(app.session, asked, analysis, mcts)
        bridge.search_started.disconnect(started.append)
        (alone_info,) = started
        assert alone_info.limits == Limits(nodes=iteration.nodes)
        result: WhyNotResult = shown.args[0]
        assert result.searched and result.move == asked
        name, best_name = state.move_name(asked), state.move_name(analysis.move)
        assert app.panel.status_label.text() == f"{name} searched alone for {iteration.nodes:,} nodes, as {best_name} was."
        assert app.panel.note_label.text().startswith(f"Both searched for {iteration.nodes:,} nodes (MCTS has no search depth")
    finally:
        app.close()


def backgammon_after_a_roll(session: GameSession) -> Any:
    """The opening roll entered by hand: the human has a checker play to choose."""
    roll = session.state.chance_outcomes()[0][0]
    assert session.play_move(roll)
    state = session.state
    assert state.to_move() != CHANCE and len(state.legal_moves()) > 1
    return state


def test_backgammon_why_not_searches_with_the_hints_algorithm(qtbot: QtBot, window: Any) -> None:
    """Dice: the settings' PVS cannot search them, so the question is searched as a hint
    is (Star2, the game's adviser) and answered."""
    session = window.start_game("backgammon", HUMANS, manual_dice=True)
    state = backgammon_after_a_roll(session)
    assert window.engine_settings().algorithm == "pvs"
    asked = state.legal_moves()[-1]
    started: list[Any] = []
    window.bridge.search_started.connect(started.append)
    try:
        with qtbot.waitSignal(window.why_not_panel.result_shown, timeout=60000) as shown:
            window.game_view.why_not_asked.emit(asked)
    finally:
        window.bridge.search_started.disconnect(started.append)
    assert started and {info.settings.algorithm for info in started} == {session.adviser_algorithm()} == {"star2"}
    result: WhyNotResult = shown.args[0]
    assert result.move == asked and result.best.settings.algorithm == "star2"
    assert "Searching" not in window.why_not_panel.status_label.text()
    verdict = window.why_not_panel.verdict_text()
    assert " against " in verdict or "the engine's own choice" in verdict


def test_a_refused_search_says_why_instead_of_searching_forever(qtbot: QtBot, bridge: EngineBridge) -> None:
    """A request the engine refuses (PVS asked to search dice) shows the engine's reason."""
    app = App(qtbot, bridge, "backgammon", None)
    try:
        app.session.manual_dice = True
        state = backgammon_after_a_roll(app.session)
        asked, other = state.legal_moves()[:2]
        pvs = SearchSettings(algorithm="pvs", book=False)
        analysis = Analysis(2, Score(0.0, state.to_move()), (other,), pvs)
        with qtbot.waitSignal(bridge.search_failed, timeout=10000) as failed:
            assert app.panel.ask(app.session, asked, analysis, pvs)
        qtbot.waitUntil(lambda: failed.args[0] in app.panel.status_label.text(), timeout=5000)
        assert app.panel.status_label.text() == f"The engine could not answer: {failed.args[0]}"
        assert not app.panel.is_searching and not app.panel.cancel_button.isVisibleTo(app.panel)
    finally:
        app.close()


FOUR_KNIGHTS = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R b KQkq - 5 4"


def one_pass_tree(best: Any, asked: Any, cut_value: float) -> SearchTree:
    """A depth-2 pass as a selective search leaves it (root player's view): the engine's
    move exact at -0.44, the asked move cut at an upper bound (failed low)."""
    inf = float("inf")
    tree = SearchTree()
    tree.add(TreeBatch(
        1,
        passes=(TreePass(0, 0, 2, -inf, inf),),
        entries=(
            NodeEntry(0, ROOT_PARENT, None, 2, NodeKind.MAX, -inf, inf),
            NodeEntry(1, 0, best, 1, NodeKind.MIN, -inf, inf),
            NodeEntry(2, 0, asked, 1, NodeKind.MIN, -44.0, -43.0),
        ),
        exits=(
            NodeExit(1, -44.0, Bound.EXACT, NodeKind.MIN),
            NodeExit(2, cut_value, Bound.UPPER, NodeKind.STATIC_CUT),
            NodeExit(0, -44.0, Bound.EXACT, NodeKind.MAX),
        ),
        nodes=3,
        complete=True,
    ))
    return tree


def test_a_move_alone_scoring_as_well_as_the_engines_is_explained_not_called_better(qtbot: QtBot, bridge: EngineBridge) -> None:
    """Selective pruning: searched alone Nxe4 scores -0.42, the engine's Bc5 -0.44, while the
    engine's own search cut Nxe4 at <= -1.72. The verdict says that in words, with the tree's
    value, instead of "Nxe4 scores 0.02 pawns more against Bc5"."""
    panel = WhyNotPanel(bridge)
    qtbot.addWidget(panel)
    state = new_game("chess", FOUR_KNIGHTS)
    asked, best = state.parse_move("Nxe4"), state.parse_move("Bc5")
    black = state.to_move()
    tree = one_pass_tree(best, asked, -172.0)
    cut = cut_in_tree(tree, 2, asked)
    assert cut is not None and (cut.move, cut.value, cut.bound) == (asked, -172.0, Bound.UPPER)
    assert cut_in_tree(tree, 3, asked) is None  # no pass of that depth

    analysis = Analysis(2, Score(-44.0, black), (best,), SearchSettings(book=False))
    panel.show_result(WhyNotResult(state, asked, Score(-42.0, black), (asked,), analysis, 2, searched=True, cut=cut))
    assert panel.verdict_text() == (
        "Searched alone, Nxe4 is as good as Bc5 (-0.42 vs -0.44); the engine's own search cut it at "
        "≤ -1.72 through its selective pruning; with Settings → Textbook (exact) the two agree."
    )
    # Without a recorded tree, the first half; a move alone that scores worse keeps "loses".
    panel.show_result(WhyNotResult(state, asked, Score(-44.0, black), (asked,), analysis, 2, searched=True))
    assert panel.verdict_text() == (
        "Searched alone, Nxe4 is as good as Bc5 (-0.44 vs -0.44); with Settings → Textbook (exact) the two agree."
    )
    exact_analysis = Analysis(2, Score(-44.0, black), (best,), EXACT)
    panel.show_result(WhyNotResult(state, asked, Score(-50.0, black), (asked,), exact_analysis, 2, searched=True))
    assert panel.verdict_text().startswith("Nxe4 loses 0.06 pawns against Bc5: after Nxe4")


def test_the_answer_carries_the_node_the_tree_tab_rings(qtbot: QtBot, window: Any) -> None:
    """With the tree recorded for the hint, the asked move's node in that tree (its value where
    the engine's search left it) comes with the answer: the one the Tree tab rings."""
    session = window.start_game("tictactoe", HUMANS)
    window.engine_tabs.setCurrentWidget(window.tree_panel)
    qtbot.waitUntil(lambda: window.bridge.record_tree is not None, timeout=2000)
    with qtbot.waitSignal(window.bridge.search_finished, timeout=20000) as finished:
        session.request_hint()
    asked = next(move for move in session.state.legal_moves() if move != finished.args[0].best_move)
    with qtbot.waitSignal(window.why_not_panel.result_shown, timeout=20000) as shown:
        window.game_view.why_not_asked.emit(asked)
    result: WhyNotResult = shown.args[0]
    tree = window.tree_panel.tree
    qtbot.waitUntil(lambda: window.tree_panel.view.highlighted is not None, timeout=5000)
    ringed = tree.node(window.tree_panel.view.highlighted)
    assert result.cut is not None and result.cut.move == ringed.move == asked
    assert (result.cut.value, result.cut.bound) == (ringed.value, ringed.bound)


def test_the_move_alone_is_searched_from_an_empty_table_so_asking_again_answers_the_same(qtbot: QtBot, bridge: EngineBridge) -> None:
    """The pool's table keeps what earlier searches found: entries of a deeper search would
    answer some of the asked move's nodes deeper than the analysis's depth, so its score would
    not compare like for like with the best move's, and asking twice could answer twice
    differently. The move alone is searched from an empty table: its score is a depth-d
    search's, the same after a deeper search of the position as after none."""
    app = App(qtbot, bridge, "othello", None)
    try:
        state = new_game("othello")
        shallow = search(state, EXACT, Limits(depth=3))
        analysis = Analysis(3, shallow.score, tuple(shallow.pv), EXACT)
        asked = state.legal_moves()[-1]
        truth = alone(state, asked, 3)
        answers = []
        for _ in range(2):
            # A deeper search of the position first: its entries fill the pool's table.
            with qtbot.waitSignal(bridge.search_finished, timeout=60000):
                bridge.start_search(state, EXACT, Limits(depth=7))
            with qtbot.waitSignal(app.panel.result_shown, timeout=30000) as shown:
                app.panel.ask(app.session, asked, analysis, EXACT)
            result: WhyNotResult = shown.args[0]
            assert result.searched and result.depth == 3
            answers.append((result.move_score, result.move_line))
        assert answers == [(truth.score, truth.pv)] * 2
    finally:
        app.close()
