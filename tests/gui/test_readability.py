"""What a demanding player reads off the app: a score while the engine re-searches an
aspiration fail, proven results in words (and ``#3`` on the bar), long backgammon moves in
a narrow move list, and Othello's disc counter at a game that ends with empty squares.

Each test checks the text against a truth computed apart from the display code: the
search's own events, the position's discs, the font's measure of the text.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QStyle
from pytestqt.qtbot import QtBot

from ai.engine import search
from ai.events import CurrentMove, Finished, Iteration, Progress, Score
from ai.settings import Limits, SearchSettings
from ai.tt import Bound
from games import GAME_NAMES, get_game, new_game
from gui.boards.othello import OthelloBoard
from gui.engine_bridge import SearchInfo
from gui.panels import display
from gui.panels.engine_panel import EnginePanel
from gui.panels.eval_bar import EvalBar
from gui.panels.eval_graph import EvalGraph
from gui.panels.move_list import ROW_HEIGHT, MoveList
from gui.players import COMPUTER, HUMAN, PlayerConfig
from gui.session import GameSession

FAILING = "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 0 9"
"""A Dragon middlegame whose score swings from depth to depth: with a 10-centipawn window the
search fails both high and low on the way to depth 5."""
BLACK_MATES_IN_ONE = "r5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1"
"""Black mates with Ra1#."""
WIPE_OUT = ("d3", "c3", "b3", "d2", "e1", "d6", "d7", "e3", "f4")
"""Nine moves after which White has no disc left: 13 black discs and 51 empty squares."""


def feed(panel: EnginePanel, events: list[object], finished: Finished | None = None) -> None:
    for event in events:
        if isinstance(event, Iteration):
            panel.on_iteration(event)
        elif isinstance(event, Progress):
            panel.on_progress(event)
        elif isinstance(event, CurrentMove):
            panel.on_current_move(event)
    if finished is not None:
        panel.on_finished(finished)


def pawns_for_white(score: Score) -> str:
    """The score in pawns from White's view, written apart from the display module."""
    value = score.value if score.view == 0 else -score.value
    return f"{round(value / 100.0, 2) + 0.0:+.2f}"


def headline(value: str, mark: str = "") -> str:
    """The headline for White's ``value`` (and bound ``mark``), written apart from the display
    module: it names the side the score favours, as the eval bar does, so White's -0.14 reads
    "Black +0.14" and White's "at most" is Black's "at least"."""
    if not value.startswith("-"):
        return f"White {mark + ' ' if mark else ''}{value}"
    turned = {"≥": "≤", "≤": "≥", "": ""}[mark]
    return f"Black {turned + ' ' if turned else ''}+{value[1:]}"


# ------------------------------------------------------------------ aspiration fails
def test_an_aspiration_fail_shows_its_bound_and_never_a_dash(qtbot: QtBot) -> None:
    state = get_game("chess").from_text(FAILING)
    settings, limits = SearchSettings(aspiration_window=10.0, book=False), Limits(depth=5)
    events: list[object] = []
    finished = search(state, settings, limits, on_event=events.append, search_id=1)
    iterations = [event for event in events if isinstance(event, Iteration)]
    assert {event.bound for event in iterations} == set(Bound)  # both fails happen

    panel = EnginePanel()
    qtbot.addWidget(panel)
    panel.on_search_started(SearchInfo(1, state.copy(), settings, limits))
    last_line = None
    for event in iterations:
        feed(panel, [event])
        value = pawns_for_white(event.score)
        score_cell = panel.iterations.rows[-1][1]
        if event.bound is Bound.EXACT:
            last_line = "  ".join(state.line_names(event.pv))
            assert panel.score_label.text() == headline(value)
            assert score_cell == value
            assert panel.pv_text() == last_line
        else:
            # a lower bound for the side to move (White here) is "at least" for White
            mark = "≥" if event.bound is Bound.LOWER else "≤"
            assert panel.score_label.text() == headline(value, mark), event
            assert score_cell == f"{mark} {value}"
            assert panel.pv_text() not in ("", display.NO_VALUE)
            if not event.pv:  # a fail low has no line: the last complete one stays
                assert panel.pv_text() == last_line
            note = panel.iterations.rows[-1][-1]
            assert ("fails high" if event.bound is Bound.LOWER else "fails low") in note.lower()
    feed(panel, [], finished)
    assert panel.score_label.text() == headline(pawns_for_white(finished.score))


def test_the_next_search_keeps_the_last_numbers_greyed_until_its_own_come(qtbot: QtBot) -> None:
    state = new_game("chess")
    settings, limits = SearchSettings(book=False), Limits(depth=2)
    panel = EnginePanel()
    qtbot.addWidget(panel)
    events: list[object] = []
    finished = search(state, settings, limits, on_event=events.append, search_id=1)
    panel.on_search_started(SearchInfo(1, state.copy(), settings, limits))
    feed(panel, events, finished)
    shown = panel.score_label.text()
    assert shown.startswith("White ") and panel.score_label.isEnabled()

    panel.on_search_started(SearchInfo(2, state.copy(), settings, limits))  # the same game: no dash
    assert panel.score_label.text() == shown and not panel.score_label.isEnabled()
    first = next(event for event in events if isinstance(event, Iteration))
    panel.on_iteration(dataclasses.replace(first, search_id=2))
    assert panel.score_label.isEnabled() and panel.score_label.text() == headline(pawns_for_white(first.score))

    panel.clear()  # a new game: nothing of the old one stays
    assert panel.score_label.text() == display.NO_VALUE and panel.iterations.rowCount() == 0


# ------------------------------------------------------------------- proven results
def test_a_mate_for_black_reads_the_same_on_panel_bar_and_graph(qtbot: QtBot) -> None:
    state = get_game("chess").from_text(BLACK_MATES_IN_ONE)
    settings, limits = SearchSettings(book=False), Limits(depth=3)
    events: list[object] = []
    finished = search(state, settings, limits, on_event=events.append, search_id=1)
    assert state.move_name(finished.best_move) == "Ra1#"
    panel = EnginePanel()
    qtbot.addWidget(panel)
    panel.on_search_started(SearchInfo(1, state.copy(), settings, limits))
    feed(panel, events, finished)
    assert panel.score_label.text() == "Black mates in 1"
    assert panel.iterations.rows[-1][1] == "mated in 1"  # the column is White's view

    bar = EvalBar()
    qtbot.addWidget(bar)
    bar.set_game(type(state))
    bar.set_score(panel.score)
    assert bar.share == 0.0 and bar.leader_mark() == "B" and bar.label_text() == "#-1"  # Lichess: White's view
    assert bar.describe() == "Black is winning: Black mates in 1"

    graph = EvalGraph()
    qtbot.addWidget(graph)
    graph.set_game(type(state))
    graph.set_scores([None, panel.score], ["", "Kf1"])
    assert graph.describe(1) == "Ply 1, after Kf1: Black mates in 1"


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_proven_result_is_words_or_a_lichess_mate(name: str) -> None:
    """Both players' wins, in a few plies and at once (the game over at the root), in every
    game: the long form names the winner; the bar's short form is ``#N``/``#-N`` (chess),
    ``wins`` / ``in N`` or ``won``, never a code such as ``W5``."""
    game = get_game(name)
    names = display.player_names(game)
    for plies in (0, 1, 5):
        for winner in (0, 1):
            score = Score(1e6 if winner == 0 else -1e6, 0, plies if winner == 0 else -plies)
            words = display.score_text(score, game)
            assert words.startswith(names[winner] + " "), words
            label = display.bar_label(score, game)
            if plies == 0:
                assert words == f"{names[winner]} has won" and label == "won"
            elif game.WIN_WORDING == "mate":
                moves = (plies + 1) // 2
                assert words == f"{names[winner]} mates in {moves}"
                assert label == f"#{moves}" if winner == 0 else label == f"#-{moves}"
            else:
                assert words == f"{names[winner]} wins in {plies} {'ply' if plies == 1 else 'plies'}"
                assert label == f"wins\nin {plies}"
            assert not re.fullmatch(r"[A-Z]\d+", label)


def test_a_hint_says_who_mates(qtbot: QtBot, bridge: Any) -> None:
    """Black asks for a hint where Black mates: "Black mates in 1", not "mated in 1" (White's
    view, which read as if Black were mated)."""
    session = GameSession(
        bridge, "chess", (PlayerConfig(kind=COMPUTER, strength="depth", depth=1).for_game("chess"), PlayerConfig(kind=HUMAN)),
        seed=1, start=BLACK_MATES_IN_ONE,
    )
    try:
        notices: list[str] = []
        session.notice.connect(notices.append)
        qtbot.waitUntil(session.can_human_move, timeout=10_000)
        with qtbot.waitSignal(session.hint_found, timeout=30_000):
            session.request_hint()
        assert "Hint: Ra1# (Black mates in 1)" in notices
    finally:
        session.close()


# --------------------------------------------------------------- the move list
LONG_TURNS = ["6-6: bar/19* 13/7* 8/2(2)", "4-4: 24/20 13/9 8/4* 6/2", "2-1: bar/23* 24/23", "5-3: 8/3 6/3"]


@pytest.fixture
def move_list(qtbot: QtBot) -> Iterator[MoveList]:
    made = MoveList()
    qtbot.addWidget(made)
    made.set_players(["O", "X"])
    made.set_history([0, 1, 0, 1], LONG_TURNS)
    made.show()
    qtbot.waitExposed(made)
    yield made


def hidden_text(move_list: MoveList) -> list[str]:
    """Cells whose text does not fit inside their cell, wrapped at its width."""
    cut = []
    margin = move_list.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, move_list) + 1  # Qt's item text margin
    for row in range(move_list.rowCount()):
        for column in range(move_list.columnCount()):
            item = move_list.item(row, column)
            if item is None or not item.text():
                continue
            cell = move_list.visualItemRect(item)
            metrics = QFontMetrics(move_list.font())
            wrapped = metrics.boundingRect(QRect(0, 0, cell.width() - 2 * margin, 10_000), Qt.TextFlag.TextWordWrap, item.text())
            if wrapped.height() > cell.height() or wrapped.width() > cell.width():
                cut.append(item.text())
    return cut


def test_long_backgammon_turns_wrap_in_a_narrow_move_list(qtbot: QtBot, move_list: MoveList) -> None:
    move_list.resize(250, 300)  # the small window's list: about 110 px a column
    qtbot.waitUntil(lambda: move_list.rowHeight(0) > ROW_HEIGHT)
    assert hidden_text(move_list) == []
    assert move_list.rowHeight(1) == ROW_HEIGHT  # "2-1: bar/23* 24/23" / "5-3: 8/3 6/3" fit on one line
    assert all(move_list.item(row, column).toolTip().endswith(move_list.item(row, column).text())
               for row in range(2) for column in range(2))
    move_list.resize(700, 300)  # room enough: every row one line again
    qtbot.waitUntil(lambda: move_list.rowHeight(0) == ROW_HEIGHT)
    assert hidden_text(move_list) == []


# -------------------------------------------------------------- Othello's counter
@pytest.fixture
def make_session(bridge: Any) -> Iterator[Callable[..., GameSession]]:
    made: list[GameSession] = []

    def make(game: str, **options: Any) -> GameSession:
        session = GameSession(bridge, game, (PlayerConfig(kind=HUMAN), PlayerConfig(kind=HUMAN)), seed=1, **options)
        made.append(session)
        return session

    yield make
    for session in made:
        session.close()


def test_othello_counter_agrees_with_the_margin_of_a_wipe_out(qtbot: QtBot, make_session: Callable[..., GameSession]) -> None:
    session = make_session("othello")
    for name in WIPE_OUT[:-1]:
        assert session.play_text(name) is None, name
    with qtbot.waitSignal(session.game_over, timeout=5_000):
        assert session.play_text(WIPE_OUT[-1]) is None
    board_text = session.state.to_text().split()[0]
    black, white, empty = board_text.count("X"), board_text.count("O"), board_text.count("-")
    assert (black, white, empty) == (13, 0, 51)
    assert session.status_text() == f"White has no discs left; Black wins by {black + empty - white}"

    board = OthelloBoard()
    qtbot.addWidget(board)
    board.set_state(session.state.copy())
    assert board.disc_counts() == (13, 0)
    assert board.final_score() == (64, 0)
    assert board.count_texts() == ("13 + 51 empty = 64", "0")


def test_othello_counter_is_the_plain_count_during_a_game_and_a_full_board(qtbot: QtBot) -> None:
    board = OthelloBoard()
    qtbot.addWidget(board)
    state = new_game("othello")
    board.set_state(state)
    assert board.count_texts() == ("2", "2") and board.final_score() is None
    full = get_game("othello").from_text("X" * 40 + "O" * 24 + " X")
    assert full.is_terminal()
    board.set_state(full)
    assert board.count_texts() == ("40", "24") and board.final_score() == (40, 24)
    assert full.utility(0) == 16



# ------------------------------------------------------------- the end of a game
@pytest.fixture
def window(qtbot: QtBot, bridge: Any, tmp_path: Any) -> Iterator[Any]:
    from gui.main_window import MainWindow

    made = MainWindow(bridge=bridge, data_directory=tmp_path, offer_resume=False, seed=3)
    qtbot.addWidget(made)
    made.resize(1000, 680)  # the small window
    made.show()
    qtbot.waitExposed(made)
    yield made
    made.shutdown()


def test_a_finished_game_shows_its_result_on_bar_and_graph(qtbot: QtBot, window: Any) -> None:
    """After the winning move the bar says who has won (not the last search's "wins in 1"),
    the graph's last point is the result, and nothing offers to pause a finished game."""
    computer = PlayerConfig(kind=COMPUTER, strength="depth", depth=1).for_game("tictactoe")
    session = window.start_game("tictactoe", (PlayerConfig(kind=HUMAN), computer), manual_dice=False)
    session.set_paused(True)  # the human plays both sides: the computer waits
    for name in ("a1", "b1", "a2", "b2"):
        assert session.play_text(name) is None, name
    assert not session.is_over and window.game_view.pause_button.isEnabled()
    with qtbot.waitSignal(session.game_over, timeout=5_000):
        assert session.play_text("a3") is None
    assert session.state.winner() == 0
    bar = window.eval_bar
    assert bar.share == 1.0 and bar.leader_mark() == "X" and bar.label_text() == "won"
    assert bar.describe() == "X has won"
    last = window.eval_graph.scores[-1]
    assert last is not None and last.outcome == 1 and last.plies_to_end == 0
    assert window.eval_graph.describe(5) == "Ply 5, after a3: X has won"
    assert not window.game_view.pause_button.isEnabled()


def test_the_last_move_stays_in_sight_when_the_list_gets_shorter(qtbot: QtBot) -> None:
    move_list = MoveList()
    qtbot.addWidget(move_list)
    move_list.set_players(["White", "Black"])
    names = [f"m{ply}" for ply in range(60)]
    move_list.resize(240, 400)
    move_list.show()
    qtbot.waitExposed(move_list)
    move_list.set_history([ply % 2 for ply in range(60)], names)

    def last_in_sight() -> bool:
        cell = move_list.visualItemRect(move_list.item(29, 1))
        return move_list.viewport().rect().contains(cell)

    qtbot.waitUntil(last_in_sight)
    scroll_range = move_list.verticalScrollBar().maximum()
    move_list.resize(240, 330)  # a game-over line appears under the list
    qtbot.waitUntil(lambda: move_list.verticalScrollBar().maximum() > scroll_range)  # the list has its new height
    qtbot.waitUntil(last_in_sight)


def test_the_graph_tab_gives_the_graph_room(qtbot: QtBot, window: Any) -> None:
    window.start_game("chess", (PlayerConfig(kind=HUMAN), PlayerConfig(kind=HUMAN)), manual_dice=False)
    window.engine_dock.show()
    window.engine_tabs.setCurrentWidget(window.graph_page)
    qtbot.waitUntil(lambda: window.eval_graph.isVisible())
    graph = window.eval_graph
    qtbot.waitUntil(lambda: graph.height() > 90)
    assert graph.height() == pytest.approx(graph.width() * 0.45, abs=2)
    assert "up is White's advantage" in window.graph_caption.text()


def test_a_big_backgammon_estimate_is_not_a_certain_win(qtbot: QtBot) -> None:
    bar = EvalBar()
    qtbot.addWidget(bar)
    bar.set_game(get_game("backgammon"))
    bar.set_score(Score(4.065, view=1))  # X far ahead (a gammon with the cube at 2), not proven
    assert bar.share == 0.0 and bar.label_text() == ">99%"


def test_a_game_fits_the_small_window_with_the_engine_dock(qtbot: QtBot, window: Any) -> None:
    """The start page's row of game cards (the widest page of the stack) does not widen the
    window once a game and the engine dock are shown: the window keeps the size it was given."""
    assert window.width() == 1000
    window.start_game("chess", (PlayerConfig(kind=HUMAN), PlayerConfig(kind=HUMAN)), manual_dice=False)
    qtbot.waitUntil(lambda: window.engine_dock.isVisible())
    qtbot.waitUntil(lambda: window.game_view.board.width() > 0)
    assert window.minimumSizeHint().width() <= 1000
    assert window.width() == 1000
    window.show_start_page()
    qtbot.waitUntil(lambda: not window.engine_dock.isVisible())
    qtbot.waitUntil(lambda: window.start_page.width() >= window.start_page.minimumSizeHint().width())
    assert window.width() == 1000


@pytest.mark.parametrize(("name", "winner"), [("othello", 1), ("othello", 0), ("chess", 0), ("chess", 1)])
def test_the_graph_shows_the_side_ahead_in_its_own_colour(qtbot: QtBot, name: str, winner: int) -> None:
    """The side ahead owns most of the graph, in its own colour (White light, Black dark,
    whichever of them moves first), as it owns most of the eval bar: player 0 from the
    bottom up, player 1 from the top down; a light side must not turn grey on a light panel."""
    from gui.panels.eval_bar import DARK_SIDE, LIGHT_SIDE

    game = get_game(name)
    graph = EvalGraph()
    qtbot.addWidget(graph)
    graph.resize(300, 90)
    graph.set_game(game)
    lead = Score(400.0, view=winner)  # four pawns or four discs up: clearly ahead, not won
    graph.set_scores([None, *[lead for _ in range(10)]])
    graph.show()
    qtbot.waitExposed(graph)
    image = graph.grab().toImage()
    colour = {"white": LIGHT_SIDE.rgb(), "black": DARK_SIDE.rgb()}
    ahead, behind = (colour[game.PLAYER_NAMES[side].lower()] for side in (winner, 1 - winner))
    middle = graph.height() // 2
    assert image.pixelColor(150, middle + 3).rgb() == ahead and image.pixelColor(150, middle - 3).rgb() == ahead
    behind_edge = 6 if winner == 0 else graph.height() - 7  # just inside the plot on the far side
    assert 0.5 < display.player0_share(lead, game) if winner == 0 else display.player0_share(lead, game) < 0.5
    assert image.pixelColor(150, behind_edge).rgb() == behind, (name, winner)


def test_the_engine_dock_leaves_the_board_its_room_in_a_small_window(qtbot: QtBot, window: Any) -> None:
    """At 1000 px the dock takes its share (30 %), not the width of two columns of counters
    or of the settings form: the counters stack one pair a row, every one wholly in sight,
    and the settings fit the width (a long algorithm name is elided in its box)."""
    from gui.main_window import ENGINE_DOCK_SHARE

    window.start_game("chess", (PlayerConfig(kind=HUMAN), PlayerConfig(kind=HUMAN)), manual_dice=False)
    panel = window.engine_panel
    qtbot.waitUntil(lambda: panel.isVisible() and panel.stats.columns == 1)
    assert window.engine_dock.width() <= ENGINE_DOCK_SHARE * window.width() + 10
    for label in panel.stat_labels.values():
        corner = label.mapTo(panel, label.rect().bottomRight())
        assert panel.rect().contains(corner), label.text()
    window.engine_tabs.setCurrentWidget(window.settings_page)
    qtbot.waitUntil(lambda: window.settings_panel.isVisible())
    assert window.settings_page.horizontalScrollBar().maximum() == 0  # the form scrolls down only
    window.engine_tabs.setCurrentWidget(panel)
    window.resize(1400, 860)  # the large window: two pairs side by side again
    qtbot.waitUntil(lambda: panel.stats.columns == 2)
    rows = {label.mapTo(panel, label.rect().topLeft()).y() for label in panel.stat_labels.values()}
    assert len(rows) == 6  # five rows of two pairs and the move being searched


def test_root_moves_of_a_searched_turn_keep_their_value_in_sight(qtbot: QtBot, bridge: Any) -> None:
    """A backgammon turn searched by expectiminimax has no visits and no share: those columns
    are hidden, and the value column stands within a narrow (300 px) panel; at a chance root
    the chance column is back."""
    panel = EnginePanel()
    qtbot.addWidget(panel)
    panel.resize(300, 600)
    panel.show()
    qtbot.waitExposed(panel)
    panel.connect_bridge(bridge)
    state = new_game("backgammon")
    for roll, _chance in state.chance_outcomes():
        turn = state.copy()
        turn.play(roll)
        if len(turn.legal_moves()) > 1:
            break
    with qtbot.waitSignal(bridge.search_finished, timeout=30_000):
        bridge.start_search(turn, SearchSettings(algorithm="star2", book=False), Limits(depth=1))
    view = panel.root_move_view
    qtbot.waitUntil(lambda: panel.tabs.currentWidget() is view)
    assert len(panel.root_moves.rows) >= 2
    assert view.isColumnHidden(1) and view.isColumnHidden(2)
    assert view.columnViewportPosition(3) + 40 <= view.viewport().width()  # the value's digits show
    with qtbot.waitSignal(bridge.search_finished, timeout=30_000):
        bridge.start_search(state, SearchSettings(algorithm="star2", book=False), Limits(depth=1))
    qtbot.waitUntil(lambda: len(panel.root_moves.rows) == len(state.chance_outcomes()))
    assert view.isColumnHidden(1) and not view.isColumnHidden(2)


CUBE_ROLL = "omfwATDgc/ABMA:MAEAAAAAAAAA"
"""Backgammon, O to act before the roll: ``roll`` (no double) is the game's forced answer."""


def test_a_known_answer_does_not_keep_the_last_searchs_rates(qtbot: QtBot, bridge: Any) -> None:
    """After a real search, a known answer (nothing searched) shows no cut-offs or branching
    factor: the numbers left there would be the previous search's, next to 0 nodes."""
    panel = EnginePanel()
    qtbot.addWidget(panel)
    panel.connect_bridge(bridge)
    game = get_game("backgammon")
    turn = new_game("backgammon")
    turn.play(next(roll for roll, _chance in turn.chance_outcomes() if roll_is_a_choice(turn, roll)))
    with qtbot.waitSignal(bridge.search_finished, timeout=30_000):
        bridge.start_search(turn, SearchSettings(algorithm="star2"), Limits(depth=2))
    assert panel.stat_labels["cutoffs"].text() != display.NO_VALUE
    cube = game.from_text(CUBE_ROLL)
    assert cube.forced_answer() is not None and len(cube.legal_moves()) > 1
    with qtbot.waitSignal(bridge.search_finished, timeout=30_000) as finished:
        bridge.start_search(cube, SearchSettings(algorithm="star2"), Limits(depth=2))
    assert finished.args[0].forced and finished.args[0].nodes == 0
    assert panel.status_label.text().startswith("Known answer")
    for key in ("tt", "cutoffs", "first_cut", "ebf"):
        assert panel.stat_labels[key].text() == display.NO_VALUE, key
    assert panel.stat_labels["nodes"].text() == "0"


def roll_is_a_choice(state: Any, roll: Any) -> bool:
    after = state.copy()
    after.play(roll)
    return len(after.legal_moves()) > 1
