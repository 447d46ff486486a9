"""An answer found without a search (the only legal move, a book move, a known answer) has a
static evaluation for its score, which the eval bar and graph never show
(``display.is_game_evaluation``): the engine panel's headline then says so — muted, the status
line "a static evaluation", a tooltip naming why the bar differs — so a static "O 64.2% MWC"
never sits unmarked beside the bar's searched "O 62%". A searched answer's headline is plain."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from ai.engine import only_move_answer, prepare, search
from ai.events import Finished
from ai.settings import Limits, SearchRequest, SearchSettings
from games import new_game
from games.backgammon.state import BackgammonState, O, X
from gui.engine_bridge import SearchInfo
from gui.panels import display
from gui.panels.engine_panel import STATIC_SCORE_TIP, EnginePanel
from gui.players import COMPUTER, HUMAN, PlayerConfig
from tests.gui.test_backgammon_match import match_text

SETTINGS = SearchSettings(algorithm="expectiminimax", book=False)
OPENING = BackgammonState.from_points({6: 5, 8: 3, 13: 5, 24: 2}, {6: 5, 8: 3, 13: 5, 24: 2}, player=O, dice=(3, 1))
"""O to play 3-1 in the opening: a real choice, searched."""
SHUT_OUT = BackgammonState.from_points(
    {25: 1, 6: 5, 8: 3, 13: 6}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}, player=X, dice=(6, 5)
)
"""X on the bar against O's closed board: its only move is no move (H12's case)."""
MWC_LINE = re.compile(r"^[OX] \d+\.\d% MWC · EMG [+-]\d\.\d{3}$")
ONLY_REPLY = "7k/6R1/8/8/8/8/P7/K7 b - - 0 1"
"""Black's one legal move is Kxg7."""


def positions(length: int) -> tuple[BackgammonState, BackgammonState]:
    if not length:
        return OPENING, SHUT_OUT
    return (BackgammonState.from_text(match_text(OPENING, length, (1, 0))),
            BackgammonState.from_text(match_text(SHUT_OUT, length, (1, 0))))


def searched(panel: EnginePanel, state: BackgammonState, search_id: int) -> Finished:
    panel.on_search_started(SearchInfo(search_id, state.copy(), SETTINGS, Limits(depth=1)))
    finished = search(state, SETTINGS, Limits(depth=1), on_event=lambda event: None, search_id=search_id)
    panel.on_finished(finished)
    return finished


def answered_at_once(panel: EnginePanel, state: BackgammonState, search_id: int) -> Finished:
    """The engine bridge's path for a root with one legal move: no search, ``only_move``."""
    request = SearchRequest(game="backgammon", position=state.to_text(), settings=SETTINGS, limits=Limits(depth=1),
                            search_id=search_id)
    finished = only_move_answer(prepare(request))
    assert finished is not None and finished.only_move and finished.depth == 0
    panel.on_search_started(SearchInfo(search_id, state.copy(), SETTINGS, Limits(depth=1)))
    panel.on_finished(finished)
    return finished


@pytest.mark.parametrize("length", [0, 3], ids=["money", "3-point match"])
def test_the_only_moves_static_score_is_marked_and_a_searched_one_is_not(qtbot: QtBot, length: int) -> None:
    panel = EnginePanel()
    qtbot.addWidget(panel)
    opening, shut_out = positions(length)
    searched(panel, opening, 1)
    assert panel.score_label.isEnabled() and panel.score_label.toolTip() == ""
    assert "static" not in panel.status_label.text()

    finished = answered_at_once(panel, shut_out, 2)
    headline = panel.score_label.text()
    assert headline == display.score_text(finished.score, BackgammonState, "exact", display.match_odds(shut_out))
    assert bool(MWC_LINE.match(headline)) == bool(length), headline  # a match speaks MWC, money equity
    assert not panel.score_label.isEnabled()  # muted: not the game's evaluation
    assert not panel.line_view.isEnabled()  # the best lines are the last search's, of the position before
    assert panel.score_label.toolTip() == STATIC_SCORE_TIP
    assert panel.status_label.text() == "Only move no move (no search needed: a static evaluation)"

    # a take-back after the game ended brings the static headline back, still marked
    panel.show_game_over("O wins", "")
    assert panel.score_label.isEnabled() and panel.score_label.toolTip() == ""
    panel.clear_game_over()
    assert panel.score_label.text() == headline and not panel.score_label.isEnabled()

    searched(panel, opening, 3)  # the next real search is plain again
    assert panel.score_label.isEnabled() and panel.score_label.toolTip() == "" and panel.line_view.isEnabled()


@pytest.mark.parametrize(("kind", "words"), [("book", "Book move {} (a static evaluation, not searched)"),
                                             ("forced", "Known answer {} (no search needed: a static evaluation)")])
def test_a_book_move_and_a_known_answer_are_marked_as_not_searched(qtbot: QtBot, kind: str, words: str) -> None:
    state = new_game("chess")
    settings = SearchSettings(book=False)
    panel = EnginePanel()
    qtbot.addWidget(panel)
    panel.on_search_started(SearchInfo(1, state.copy(), settings, Limits(depth=2)))
    finished = search(state, settings, Limits(depth=2), on_event=lambda event: None, search_id=1)
    # as the engine reports a book move or a known answer: nothing searched (depth 0, no rows)
    panel.on_finished(dataclasses.replace(finished, depth=0, nodes=0, pv=(finished.best_move,), lines=(), **{kind: True}))
    assert panel.status_label.text() == words.format(state.move_name(finished.best_move))
    assert not panel.score_label.isEnabled() and panel.score_label.toolTip() == STATIC_SCORE_TIP


def test_in_the_app_the_bar_keeps_the_searched_value_and_the_headline_says_why(qtbot: QtBot, bridge: Any,
                                                                                 data_directory: Any) -> None:
    from gui.main_window import MainWindow

    window = MainWindow(bridge=bridge, data_directory=data_directory, offer_resume=False, seed=3)
    qtbot.addWidget(window)
    try:
        computer = PlayerConfig(kind=COMPUTER, strength="depth", depth=3).for_game("chess")
        session = window.start_game("chess", (PlayerConfig(kind=HUMAN), computer), start=ONLY_REPLY)
        qtbot.waitUntil(lambda: len(session.history) == 1 and not session.is_thinking, timeout=20_000)
        assert session.move_names() == ["Kxg7"] and session.history[0].score is None
        qtbot.waitUntil(lambda: window.engine_panel.score_label.text() != display.NO_VALUE)
        assert window.eval_bar.label_text() == ""  # no searched value yet: the bar stays even
        assert not window.engine_panel.score_label.isEnabled()
        assert window.engine_panel.score_label.toolTip() == STATIC_SCORE_TIP
        assert "static evaluation" in window.engine_panel.status_label.text()
    finally:
        window.shutdown()
