"""At a backgammon match score the app speaks match winning chances (MWC), as GNU
Backgammon does: the eval bar's percentage, the engine panel's "O 55.0% MWC · EMG +0.290"
and the eval graph come from one conversion, so two percentages on screen never disagree;
money games keep their equity share. And every game of a match started with a fixed seed
rolls its own dice."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from ai.events import Score
from games.backgammon.match import Match
from games.backgammon.met import shipped_met
from games.backgammon.state import BackgammonState, O, X
from gui.engine_bridge import EngineBridge
from gui.main_window import MainWindow
from gui.match_session import MatchSession, start_match_scene
from gui.panels import display
from gui.panels.eval_bar import EvalBar
from gui.panels.eval_graph import EvalGraph
from gui.players import COMPUTER, PlayerConfig
from tests.gui.test_backgammon_match import HUMANS, bear_off_last, make_window, match_text
from tests.gui.test_backgammon_match import tiny_bridge, window  # noqa: F401 (the match tests' fixtures, used by name)

GAME = BackgammonState

PANEL_LINE = re.compile(r"^([OX]) (\d+\.\d)% MWC · EMG ([+-]\d\.\d{3})$")
"""The engine panel's score line at a match score."""


def opened(length: int, score: tuple[int, int], *, crawford: bool = False, dice: tuple[int, int] = (3, 1)) -> BackgammonState:
    """The opening position of a match game at ``score``, O to play ``dice``."""
    start = BackgammonState.from_points(
        {6: 5, 8: 3, 13: 5, 24: 2}, {6: 5, 8: 3, 13: 5, 24: 2}, player=O, dice=dice
    )
    return BackgammonState.from_text(match_text(start, length, score, crawford=crawford))


FIXED_POSITIONS = (
    ("3-point match, 0-0", opened(3, (0, 0))),
    ("7-point match, O 3 - X 5", opened(7, (3, 5), dice=(6, 4))),
    ("5-point match, Crawford game, O 4 - X 1", opened(5, (4, 1), crawford=True)),
    ("5-point match, post-Crawford, O 1 - X 4", opened(5, (1, 4), dice=(5, 5))),
    ("X bears off its last checker, 3-point match, O 1 - X 0", BackgammonState.from_text(match_text(bear_off_last(), 3, (1, 0)))),
    ("O leads the game but trails the match: 7-point, O 0 - X 6 post-Crawford", BackgammonState.from_text(
        match_text(BackgammonState.from_points({1: 2, 2: 2}, {19: 15}, player=O, dice=(6, 6)), 7, (0, 6))
    )),
)


def engine_score(state: BackgammonState) -> Score:
    """The score a search of ``state`` reports at depth 0: the evaluation, player 0's view."""
    return Score(state.evaluate(O), view=O)


def shown_bar(state: BackgammonState, score: Score, qtbot: QtBot) -> EvalBar:
    bar = EvalBar()
    qtbot.addWidget(bar)
    bar.set_game(GAME)
    bar.set_match_score(state)
    bar.set_score(score, state.stake())
    return bar


@pytest.mark.parametrize(("name", "state"), FIXED_POSITIONS, ids=[name for name, _ in FIXED_POSITIONS])
def test_the_bar_and_the_panel_say_the_positions_match_winning_chance(name: str, state: BackgammonState, qtbot: QtBot) -> None:
    mwc = state.match_winning_chance(O)  # the core's own MWC of the position
    score = engine_score(state)
    bar = shown_bar(state, score, qtbot)
    assert bar.share == pytest.approx(mwc, abs=1e-9), name
    leader = O if round(100 * mwc, 1) > 50 else X
    own = mwc if leader == O else 1 - mwc
    assert bar.leader_mark() == "OX"[leader], name
    assert bar.label_text() == (">99%" if round(100 * own) >= 100 else f"{100 * own:.0f}%"), name
    text = display.score_text(score, GAME, odds=display.match_odds(state))
    equity = state.evaluate(leader) + 0.0
    assert text == f"{'OX'[leader]} {100 * own:.1f}% MWC · EMG {equity:+.3f}", name
    assert bar.describe().endswith(text), name  # the tooltip says the panel's words


def test_a_trailer_ahead_in_the_game_is_named_by_the_match() -> None:
    # O 7-away against X 1-away post-Crawford, O far ahead in the race: a good game for O
    # (positive equity) but X's match.
    state = FIXED_POSITIONS[-1][1]
    assert state.evaluate(O) > 0 and state.match_winning_chance(O) < 0.5
    odds = display.match_odds(state)
    assert display.leader(engine_score(state), GAME, odds) == X
    assert PANEL_LINE.match(display.score_text(engine_score(state), GAME, odds=odds))


def test_one_point_of_equity_is_one_game_won_on_the_match_equity_table() -> None:
    # +1 EMG = a single game won at cube 1, -1 one lost: the table's MWC at those scores
    # (Kazaross XG2 as gnubg ships it), whatever the engine thinks of the position.
    table = shipped_met()
    for length, score in ((3, (0, 0)), (7, (3, 5)), (11, (2, 9))):
        odds = display.match_odds(opened(length, score))
        assert odds is not None
        mine, theirs = length - score[0], length - score[1]
        assert odds.chance(1.0) == pytest.approx(table.equity(mine - 1, theirs))
        assert odds.chance(-1.0) == pytest.approx(table.equity(mine, theirs - 1))
        assert odds.chance(0.0) == pytest.approx((table.equity(mine - 1, theirs) + table.equity(mine, theirs - 1)) / 2)


def test_money_games_keep_the_equity_share(qtbot: QtBot) -> None:
    state = BackgammonState.from_points({6: 5, 8: 3, 13: 5, 24: 2}, {6: 5, 8: 3, 13: 5, 24: 2}, player=O, dice=(3, 1))
    assert display.match_odds(state) is None and display.match_odds(None) is None
    bar = shown_bar(state, Score(0.46, view=O), qtbot)
    assert bar.share == pytest.approx(0.73) and bar.label_text() == "73%" and bar.leader_mark() == "O"
    assert display.score_text(Score(0.46, view=O), GAME) == "O equity +0.460"
    doubled = shown_bar(state, Score(0.46, view=O), qtbot)
    doubled.set_score(Score(0.92, view=O), 2.0)  # a doubled cube doubles the equity, not the chances
    assert doubled.label_text() == "73%"


def test_the_graph_plots_the_bars_share(qtbot: QtBot) -> None:
    state = FIXED_POSITIONS[1][1]
    graph = EvalGraph()
    qtbot.addWidget(graph)
    graph.resize(300, 90)
    graph.set_game(GAME)
    graph.set_match_score(state)
    score = engine_score(state)
    graph.set_scores([score], ["", ""], [state.stake()])
    plot = graph._plot_rect()
    assert graph._y_of(score, 0) == pytest.approx(plot.bottom() - plot.height() * state.match_winning_chance(O))
    assert display.score_text(score, GAME, odds=display.match_odds(state)) in graph.describe(0)


# --------------------------------------------------------------------------- in the window
def test_after_the_computers_move_bar_and_panel_say_one_mwc(qtbot: QtBot, window: MainWindow) -> None:
    tiny = PlayerConfig(kind=COMPUTER, algorithm="star2", strength="depth", depth=1)
    session = start_match_scene(window, length=3, score=(0, 0), players=(tiny, PlayerConfig()))
    qtbot.waitUntil(lambda: any(entry.score is not None for entry in session.history) and not session.is_thinking, timeout=10_000)
    headline = window.engine_panel.score_label.text()
    found = PANEL_LINE.match(headline)
    assert found, headline
    name, percent, equity = found.group(1), float(found.group(2)), float(found.group(3))
    odds = display.match_odds(session.state)
    assert odds is not None
    seen = equity if name == "O" else -equity
    mwc = odds.chance(seen)  # the EMG shown, read on the table: the percentage shown
    swing = odds.chance(1.0) - odds.chance(0.0)  # the EMG is shown to 0.0005
    assert 100 * (mwc if name == "O" else 1 - mwc) == pytest.approx(percent, abs=0.05 + 100 * 0.0005 * swing)
    bar = window.eval_bar
    assert bar.leader_mark() == name
    assert abs(float(bar.label_text().rstrip("%")) - percent) <= 0.5  # 55% beside 55.0%
    window.start_game("backgammon", HUMANS)  # a money game: the equity share again
    assert display.match_odds(window.session.state) is None and bar.share == 0.5


# --------------------------------------------------------------------------- dice
def opening_of(qtbot: QtBot, window: MainWindow, match: MatchSession) -> tuple[int, ...]:
    """The opening roll of the match's game as the window throws it."""
    session = window.start_game("backgammon", HUMANS, start=match.next_start(), manual_dice=False, paused=False, match=match)
    qtbot.waitUntil(lambda: any(session.state.dice), timeout=5000)
    return tuple(session.state.dice)


def test_each_game_of_a_seeded_match_rolls_its_own_dice(qtbot: QtBot, tiny_bridge: EngineBridge, data_directory: Path) -> None:
    scores = ((0, 0), (1, 0), (1, 1), (2, 1), (2, 2))

    def openings(window: MainWindow) -> list[tuple[int, ...]]:
        return [opening_of(qtbot, window, MatchSession(Match(3, score))) for score in scores]

    first = make_window(qtbot, tiny_bridge, data_directory, seed=5)
    again = make_window(qtbot, tiny_bridge, data_directory, seed=5)
    try:
        seen = openings(first)
        assert all(seen) and len(set(seen)) > 1  # not one opening roll for every game
        assert openings(again) == seen  # the same seed replays the same match
        match = MatchSession(Match(3))
        assert match.game_seed(None) is None  # the app's own start: fresh dice from the system
        assert match.game_seed(5) != MatchSession(Match(3, (1, 0))).game_seed(5)
    finally:
        first.shutdown()
        again.shutdown()
