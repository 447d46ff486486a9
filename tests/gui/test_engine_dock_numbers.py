"""The engine dock's numbers agree with each other: the headline, the depth counter and the
iteration rows have one source (the answer gets its own row when a cut iteration found
it), the eval bar names the side and sign the headline names, only the game's evaluation
(the computer's own move searches) moves the bar and the graph, a new game starts with a
clean panel, and "Searching" always says what is being searched."""

from __future__ import annotations

from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from ai.engine import search
from ai.events import CurrentMove, Finished, Iteration, Progress, Score
from ai.settings import Limits, SearchSettings
from games import GAME_NAMES, get_game, new_game
from gui.engine_bridge import SearchInfo
from gui.panels import display
from gui.panels.engine_panel import EnginePanel
from gui.panels.eval_bar import EvalBar
from gui.players import COMPUTER, HUMAN, PlayerConfig

ONLY_REPLY = "7k/6R1/8/8/8/8/P7/K7 b - - 0 1"
"""Black's one legal move is Kxg7."""


def fed(qtbot: QtBot, state: Any, settings: SearchSettings, limits: Limits) -> tuple[EnginePanel, Finished]:
    events: list[Any] = []
    finished = search(state, settings, limits, on_event=events.append, search_id=1)
    panel = EnginePanel()
    qtbot.addWidget(panel)
    panel.on_search_started(SearchInfo(1, state.copy(), settings, limits))
    for event in events:
        if isinstance(event, Iteration):
            panel.on_iteration(event)
        elif isinstance(event, Progress):
            panel.on_progress(event)
        elif isinstance(event, CurrentMove):
            panel.on_current_move(event)
    panel.on_finished(finished)
    return panel, finished


def as_player0(headline: str, names: tuple[str, str]) -> str:
    """A headline (``Black ≤ +0.03``) as player 0's signed value with its bound mark, the way
    the table's score column writes it (``≥ -0.03``), worked out apart from the display code."""
    name, _, rest = headline.partition(" ")
    mark = ""
    if rest[:1] in "≥≤":
        mark, rest = rest[:1], rest[2:]
    if name == names[0]:
        return f"{mark} {rest}".strip()
    flipped = {"≥": "≤", "≤": "≥", "": ""}[mark]
    value = f"-{rest[1:]}" if rest.startswith("+") else rest
    return f"{flipped} {value}".strip()


# ---------------------------------------------------------------------------- one source
@pytest.mark.parametrize(("game", "algorithm"), [("checkers", "pvs"), ("tictactoe", "pvs"), ("tictactoe", "mcts")])
def test_every_answer_shown_is_a_rows_answer(qtbot: QtBot, game: str, algorithm: str) -> None:
    """Searches cut at node limits that fall mid-iteration: the depth counter names a row and
    the headline says that row's score (with its bound mark); a cut iteration's better move,
    whose score bounds the unfinished depth from below, has its own ``≥`` row."""
    names = display.player_names(get_game(game))
    limits = range(3000, 27000, 3000) if game == "checkers" else range(100, 3000, 400)
    cut_rows = 0
    for nodes in limits:
        panel, finished = fed(qtbot, new_game(game), SearchSettings(algorithm=algorithm, book=False), Limits(nodes=nodes))
        depth = panel.stat_labels["depth"].text().replace(" ", "")
        rows = [row for row in panel.iterations.rows if row[0] == depth]
        assert rows, (nodes, depth, panel.iterations.rows)
        assert as_player0(panel.score_label.text(), names) == rows[-1][1], (nodes, panel.score_label.text(), rows[-1])
        if "cut short" in panel.iterations.rows[-1][-1]:
            cut_rows += 1
            assert panel.iterations.rows[-1][1].startswith(("≥", "≤"))  # a bound, marked
            assert panel.pv_text().startswith(display.move_text(new_game(game), finished.best_move))
    if algorithm == "mcts":  # more playouts than the last report: the answer's own row, no bound
        assert cut_rows == 0
    if game == "checkers":
        assert cut_rows, "no limit cut an iteration that had found a better move: the test tested nothing"


# -------------------------------------------------------------- the bar and the headline
@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_bar_names_the_side_and_sign_the_headline_names(qtbot: QtBot, name: str) -> None:
    """The headline and the bar name the same side ahead with the same number (checkers'
    White 0.02 ahead is "White +0.02" beside "W 0.02", never "Black −0.02")."""
    game = get_game(name)
    names = display.player_names(game)
    bar = EvalBar()
    qtbot.addWidget(bar)
    bar.set_game(game)
    unit = game.SCORE_UNIT_SIZE
    for value in (2.0, 35.0, 250.0, 1234.0, 0.4 * unit, 3.0 * unit):
        for sign in (1, -1):
            for view in (0, 1):
                score = Score(sign * value, view)
                bar.set_score(score)
                headline = display.score_text(score, game)
                if bar.leader() is None:
                    assert headline.startswith(f"{names[0]} +0") and bar.leader_mark() == ""
                    continue
                assert headline.startswith(names[bar.leader()] + " "), (headline, bar.leader_mark())
                assert bar.leader_mark() == headline[:1]
                number = headline.rsplit(" ", 1)[-1]
                assert number.startswith("+"), headline  # the side ahead is never behind
                if game.UTILITY_KIND != "equity":  # the bar shows equity as a win chance
                    assert float(bar.label_text()) == pytest.approx(float(number), rel=0.01, abs=0.5 / 10**game.SCORE_DECIMALS)


# ------------------------------------------------------ what moves the bar and the graph
def test_a_forced_reply_and_a_hint_leave_the_bar_and_graph_alone(qtbot: QtBot, window: Any) -> None:
    """Black's only legal move, searched or not, is no evaluation of the game: the graph gets
    no point for it and the bar stays even; a hint of the human's next move is advice, and
    leaves them too."""
    computer = PlayerConfig(kind=COMPUTER, strength="depth", depth=3).for_game("chess")
    session = window.start_game("chess", (PlayerConfig(kind=HUMAN), computer), start=ONLY_REPLY)
    qtbot.waitUntil(lambda: len(session.history) == 1 and not session.is_thinking, timeout=20_000)
    assert session.move_names() == ["Kxg7"]
    assert session.history[0].score is None and session.history[0].evaluation is None
    qtbot.waitUntil(lambda: len(window.eval_graph.scores) == 2)
    assert window.eval_graph.scores == [None, None]
    assert window.eval_bar.leader() is None and window.eval_bar.label_text() == ""
    with qtbot.waitSignal(session.hint_found, timeout=20_000):
        session.request_hint()
    qtbot.waitUntil(lambda: not session.is_thinking, timeout=5_000)
    assert window.engine_panel.score_label.text() != display.NO_VALUE  # the panel shows the hint's search
    assert window.eval_bar.label_text() == "" and window.eval_graph.scores == [None, None]


@pytest.mark.parametrize(
    ("changes", "counts"),
    [({}, True), ({"book": True}, False), ({"forced": True}, False), ({"only_move": True}, False), ({"depth": 0}, False)],
    ids=["searched", "book", "known-answer", "only-move", "nothing-completed"],
)
def test_the_rule_for_the_games_evaluation(changes: dict[str, Any], counts: bool) -> None:
    import dataclasses

    state = new_game("chess")
    searched = search(state, SearchSettings(book=False), Limits(depth=2), search_id=1)
    answer = dataclasses.replace(searched, **changes)
    assert display.is_game_evaluation(answer, len(state.legal_moves())) is counts
    assert not display.is_game_evaluation(searched, 1)  # one legal move: nothing was chosen


# ------------------------------------------------------------------------- a clean start
def test_a_new_game_starts_with_a_clean_engine_panel(qtbot: QtBot, window: Any) -> None:
    computer = PlayerConfig(kind=COMPUTER, strength="depth", depth=2).for_game("checkers")
    session = window.start_game("checkers", (computer, PlayerConfig(kind=HUMAN)))
    qtbot.waitUntil(lambda: len(session.history) == 1 and not session.is_thinking, timeout=20_000)
    panel = window.engine_panel
    assert panel.iterations.columns[1].header == "Score (Black)"
    assert "databases" in panel.settings_label.text()  # checkers' own switch
    window.start_game("chess", (PlayerConfig(kind=HUMAN), PlayerConfig(kind=HUMAN)))
    assert panel.iterations.columns[1].header == "Score"  # no player of the last game
    assert [column.header for column in panel.root_moves.columns] == ["Move", "Visits", "Share", "Value"]
    assert panel.settings_label.text() == "" and panel.status_label.text() == "Engine idle"
    assert panel.score_label.text() == panel.pv_text() == display.NO_VALUE
    assert panel.iterations.rowCount() == 0


# --------------------------------------------------------------------------- "Searching"
def test_searching_always_says_what_is_searched(qtbot: QtBot) -> None:
    """Between a depth's start and its first root move the line names the depth, never a
    dash; a root move is named with its place and depth; the answer clears it."""
    state = new_game("chess")
    settings, limits = SearchSettings(book=False), Limits(depth=3)
    panel = EnginePanel()
    qtbot.addWidget(panel)
    panel.on_search_started(SearchInfo(1, state.copy(), settings, limits))
    current = panel.stat_labels["current"]
    assert current.text() != display.NO_VALUE  # before the engine's first report
    panel.on_progress(Progress(1, nodes=10, nps=100.0, time=0.1, hashfull=0.0, depth=2))
    assert current.text() != display.NO_VALUE and "depth 2" in current.text()
    move = state.legal_moves()[3]
    panel.on_current_move(CurrentMove(1, depth=2, move=move, number=4, total=20))
    assert current.text() == f"{state.move_name(move)} (4/20), depth 2"
    panel.on_progress(Progress(1, nodes=20, nps=100.0, time=0.2, hashfull=0.0, depth=2))
    assert current.text().startswith(state.move_name(move))  # the same depth: the move stays
    panel.on_progress(Progress(1, nodes=30, nps=100.0, time=0.3, hashfull=0.0, depth=3))
    assert "depth 3" in current.text()
    panel.on_finished(search(state, settings, limits, search_id=1))
    assert current.text() == display.NO_VALUE


def test_a_chance_root_names_the_roll_searched(qtbot: QtBot) -> None:
    """Before the dice, the root's moves are the rolls: the line names the roll."""
    state = new_game("backgammon")  # the opening roll
    assert state.to_move() < 0
    settings, limits = SearchSettings(algorithm="star2"), Limits(depth=1)
    panel = EnginePanel()
    qtbot.addWidget(panel)
    panel.on_search_started(SearchInfo(1, state.copy(), settings, limits))
    roll = state.chance_outcomes()[2][0]
    panel.on_current_move(CurrentMove(1, depth=1, move=roll, number=3, total=len(state.chance_outcomes())))
    assert panel.stat_labels["current"].text().startswith(state.move_name(roll))


def test_a_backgammon_search_names_the_move_and_the_roll(qtbot: QtBot) -> None:
    """Below a decision root the chance family searches each root play under every roll of
    the reply: the line names both, as the search reports them."""
    state = new_game("backgammon")
    state.play(state.chance_outcomes()[0][0])  # the opening roll: the starter plays it
    settings, limits = SearchSettings(algorithm="star2", book=False), Limits(depth=2)
    events: list[Any] = []
    search(state, settings, limits, on_event=events.append, search_id=1)
    with_rolls = [event for event in events if isinstance(event, CurrentMove) and event.roll is not None]
    assert with_rolls
    panel = EnginePanel()
    qtbot.addWidget(panel)
    panel.on_search_started(SearchInfo(1, state.copy(), settings, limits))
    for event in with_rolls[:: max(1, len(with_rolls) // 20)]:
        panel.on_current_move(event)
        text = panel.stat_labels["current"].text()
        assert text.startswith(f"{state.move_name(event.move)} ({event.number}/{event.total})"), text
        high, low = max(event.roll), min(event.roll)  # as the move list writes a roll: "6-5"
        assert f"roll {high}-{low} ({event.roll_number}/{event.roll_total})" in text, text
        assert text.endswith(f"depth {event.depth}")


def test_the_panel_names_moves_as_the_board_labels_them(qtbot: QtBot, window: Any) -> None:
    """Backgammon's plays beside the board are in the numbering the board shows: the engine
    panel asks the board, as the move list does."""
    computer = PlayerConfig(kind=COMPUTER, strength="depth", depth=1, algorithm="star2").for_game("backgammon")
    session = window.start_game("backgammon", (PlayerConfig(kind=HUMAN), computer), manual_dice=False)
    qtbot.waitUntil(lambda: any(entry.mover == 1 for entry in session.history) and not session.is_thinking, timeout=30_000)
    played = next(index for index, entry in enumerate(session.history) if entry.mover == 1)
    before = session.state_at(played)
    board = window.game_view.board
    named = board.move_text(before, session.history[played].move)
    assert named != before.move_name(session.history[played].move)  # X's move, O at the bottom
    assert window.engine_panel.status_label.text().startswith(f"Best move {named} ")


def test_a_doubled_cube_doubles_the_equity_not_the_chances_on_the_bar(qtbot: QtBot) -> None:
    """After a double and a take the equity counts two points a game: X's +1.004 read as
    "X >99%" on the bar. The bar and the graph read equity per the position's stake."""
    from gui.panels.eval_graph import EvalGraph

    state = new_game("backgammon")
    state.play(state.chance_outcomes()[0][0])
    state.play(state.legal_moves()[0])
    for name in ("double", "take"):
        state.play(next(move for move in state.legal_moves() if state.move_name(move) == name))
    assert state.stake() == 2.0 and new_game("chess").stake() == 1.0
    game = get_game("backgammon")
    bar = EvalBar()
    qtbot.addWidget(bar)
    bar.set_game(game)
    score = Score(1.004 * game.SCORE_UNIT_SIZE, 0)
    bar.set_score(score, state.stake())
    assert bar.share == pytest.approx(0.751, abs=0.001) and bar.label_text() == "75%"
    bar.set_score(score)
    assert bar.label_text() == ">99%"  # the same equity at stake 1 is near a certain win
    graph = EvalGraph()
    qtbot.addWidget(graph)
    graph.set_game(game)
    graph.resize(300, 120)
    graph.set_scores([None, score], ["", "x"], [1.0, 2.0])
    doubled = graph._y_of(score, 1)
    graph.set_scores([None, score], ["", "x"], [1.0, 1.0])
    assert doubled > graph._y_of(score, 1)  # lower on the graph: a smaller share for player 0


def test_a_take_back_greys_the_search_of_the_position_taken_back(qtbot: QtBot, window: Any) -> None:
    """After Ctrl+Z the last search's numbers ("Best move c1 … X +5") are not of the board's
    position: they are greyed and said to be of a position taken back."""
    computer = PlayerConfig(kind=COMPUTER, strength="depth", depth=1)
    session = window.start_game("tictactoe", (PlayerConfig(kind=HUMAN), computer))
    panel = window.engine_panel
    assert session.play_text("b2") is None
    qtbot.waitUntil(lambda: len(session.move_names()) == 2 and not session.is_thinking, timeout=60_000)
    assert panel.score_label.isEnabled()
    session.undo()
    qtbot.waitUntil(lambda: not panel.score_label.isEnabled(), timeout=5_000)
    assert "taken back" in panel.status_label.text()
