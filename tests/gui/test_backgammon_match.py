"""Backgammon matches in the app: the dialog's match length, whole matches played by the
computer on both sides (a node-limited engine, seeded dice), the Crawford game without the
cube, the score after gammons and a doubled cube, resignation, taking a game's end back,
the match line on the board, copy and paste of a match id, a saved game file and the
autosave (resumed mid-match; hostile match entries), the whole match in a game file (its
earlier games; hostile match entries) and Game → Export match… (gnubg reads the .mat)."""

from __future__ import annotations

import dataclasses
import json
import os
import random
import re
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from pytestqt.qtbot import QtBot

from ai.settings import Limits, SearchRequest
from games.backgammon import gnubg_ids
from games.clock import TimeControl
from games.backgammon.notation import DOUBLE
from games.backgammon.state import BackgammonState, O, X
from games.records import write_game
from gui import autosave, match_session, session as session_module
from gui.boards.backgammon import NEXT_GAME_KEY, BackgammonBoard, MatchLine
from gui.boards.backgammon.layout import BOARD_WIDTH, board_height
from gui.dialogs.new_game import MATCH_LENGTHS, NewGameDialog
from gui.engine_bridge import EngineBridge
from gui.main_window import MainWindow
from gui.match_session import MatchSession
from gui.players import COMPUTER, HUMAN, PlayerConfig
from gui.session import GameSession
from gui.settings import Settings
from tests.gui.engine_doubles import ThreadedEnginePool

GNUBG = shutil.which("gnubg") or ("/usr/games/gnubg" if os.path.exists("/usr/games/gnubg") else None)
TINY_NODES = 60
"""The computer's move search: a few dozen nodes of Star2, so that a game takes a second."""
TINY = PlayerConfig(kind=COMPUTER, algorithm="star2", strength="depth", depth=1)
"""A computer side (its search is cut to ``TINY_NODES`` by the pool whatever it asks)."""
COMPUTERS = (TINY, TINY)
HUMANS = (PlayerConfig(kind=HUMAN), PlayerConfig(kind=HUMAN))


class TinyEnginePool(ThreadedEnginePool):
    """The real engine in a thread, every move search cut to ``TINY_NODES`` nodes."""

    def submit(self, request: SearchRequest, on_event: Callable[[Any], None]) -> int:
        return super().submit(dataclasses.replace(request, limits=Limits(nodes=TINY_NODES)), on_event)


@pytest.fixture(scope="module")
def tiny_bridge(qapp: Any) -> Iterator[EngineBridge]:
    made = EngineBridge(TinyEnginePool(), interval_ms=5)
    yield made
    made.shutdown()


@pytest.fixture
def fast(monkeypatch: pytest.MonkeyPatch) -> None:
    """No pause between the computer's moves nor between the games of a match."""
    monkeypatch.setattr(session_module, "WATCHING_DELAY_MS", 0)
    monkeypatch.setattr(match_session, "NEXT_GAME_DELAY_MS", 0)


def make_window(qtbot: QtBot, bridge: Any, data_directory: Path, seed: int = 5) -> MainWindow:
    made = MainWindow(bridge=bridge, data_directory=data_directory, offer_resume=False, seed=seed)
    made.ask = lambda _question: True  # type: ignore[method-assign]
    made.error_message = lambda message: setattr(made, "last_error", message)  # type: ignore[method-assign]
    qtbot.addWidget(made)
    made.show()
    qtbot.waitExposed(made)
    return made


@pytest.fixture
def window(qtbot: QtBot, tiny_bridge: EngineBridge, data_directory: Path) -> Iterator[MainWindow]:
    made = make_window(qtbot, tiny_bridge, data_directory)
    yield made
    made.shutdown()


def match_text(state: BackgammonState, length: int, score: tuple[int, int], *, crawford: bool = False) -> str:
    """``state`` (a money position) as the same position at a match score."""
    key = dataclasses.replace(
        gnubg_ids.decode_match_id(state.match_id()), match_length=length, score=score, crawford=crawford, jacoby=False
    )
    return f"{state.position_id()}:{gnubg_ids.encode_match_id(key)}"


def bear_off_last(cube_value: int = 1, cube_owner: int = gnubg_ids.CENTRED, gammon: bool = False) -> BackgammonState:
    """X on roll with 6-5 and one checker left on its 2 point: the next play wins. O has
    borne off nothing when ``gammon`` (its checkers on its own side: a gammon, not a
    backgammon), else one checker."""
    opponent = {6: 5, 7: 5, 8: 5} if gammon else {6: 5, 7: 5, 8: 4}
    return BackgammonState.from_points({2: 1}, opponent, player=X, dice=(6, 5), cube_value=cube_value, cube_owner=cube_owner)


# --------------------------------------------------------------------------- the line
def test_the_match_line_says_length_score_crawford_and_away() -> None:
    names = ("O", "X")
    assert MatchLine(7, (3, 5)).text(names) == "Match to 7 points · O 3 – X 5 · 4-away, 2-away"
    assert MatchLine(7, (3, 6), crawford=True).parts(names)[2] == "Crawford game"
    assert MatchLine(7, (6, 6), post_crawford=True).parts(names)[2] == "post-Crawford"
    assert MatchLine(1, (0, 0)).parts(names)[0] == "Match to 1 point"
    assert MatchLine(3, (1, 3), winner=1).text(names) == "Match to 3 points · O 1 – X 3 · X wins the match"
    # a position says its own line: the Crawford flag, or one point short without it
    state = BackgammonState.from_text(match_text(BackgammonState.initial(), 5, (4, 2), crawford=True))
    assert MatchLine.from_state(state) == MatchLine(5, (4, 2), crawford=True)
    state = BackgammonState.from_text(match_text(BackgammonState.initial(), 5, (4, 2)))
    assert MatchLine.from_state(state) == MatchLine(5, (4, 2), post_crawford=True)
    assert MatchLine.from_state(BackgammonState.initial()) is None  # money play


def test_the_dialog_offers_money_play_or_a_match(qtbot: QtBot) -> None:
    dialog = NewGameDialog("backgammon", {}, match_length=7)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.match_row.isVisible() and dialog.match_length() == 7
    texts = [dialog.match_row.choice.itemText(index) for index in range(dialog.match_row.choice.count())]
    assert texts[0] == "Money game" and texts[1] == "Match to 1 point" and texts[-1] == "Match to 25 points"
    # Every length the match equity table covers, even ones and 19, 23 included (as gnubg).
    assert [dialog.match_row.choice.itemData(index) for index in range(1, len(texts))] == list(MATCH_LENGTHS) == list(range(1, 26))
    dialog.game.setCurrentIndex(dialog.game.findData("chess"))
    assert not dialog.match_row.isVisible() and dialog.match_length() == 0
    for stored in (4, 19, 23):
        kept = NewGameDialog("backgammon", {}, match_length=stored)
        qtbot.addWidget(kept)
        assert kept.match_length() == stored
    odd = NewGameDialog("backgammon", {}, match_length=40)  # a stored length not offered: money play
    qtbot.addWidget(odd)
    assert odd.match_length() == 0


# --------------------------------------------------------------------------- whole matches
def play_match(qtbot: QtBot, bridge: EngineBridge, length: int, seed: int) -> MatchSession:
    """A match to ``length`` played by the computer on both sides, each game's dice from
    ``seed`` and the game's number, each next game started when the match session wants it
    (as the window does, without its panels: a few seconds for a whole match)."""
    current: list[MatchSession] = []

    def start(match: MatchSession) -> None:
        if current:
            current[-1].release()
            assert current[-1].session is None
        game = GameSession(bridge, "backgammon", COMPUTERS, start=match.next_start(), seed=seed + match.game_number(), paused=False)
        match.follow(game)
        match.next_game_wanted.connect(lambda: start(match.advanced()))
        current.append(match)

    start(MatchSession.new(length))
    qtbot.waitUntil(lambda: current[-1].is_over(), timeout=20_000)
    return current[-1]


def replayed_score(match: MatchSession) -> tuple[int, int]:
    """The score counted again from the games' records: each game's start must carry the
    score so far, and its end (a play to the last checker or a drop) its points."""
    assert match.session is not None
    records = [*match.earlier, match.session.to_record()]
    score = [0, 0]
    crawford_played = False
    for record in records:
        start = BackgammonState.from_text(record.start)
        assert start.match_length == match.length and list(start.score) == score, record.start
        # the Crawford game: the first game after a player reaches one point short
        is_crawford = max(score) == match.length - 1 and not crawford_played and match.length > 1
        assert start.crawford == is_crawford, (score, record.start)
        crawford_played |= is_crawford
        if is_crawford:
            assert DOUBLE not in record.moves and "double" not in record.moves
        end = record.replay()
        assert end.is_terminal()
        score[end.game_winner] += end.points
    return (score[0], score[1])


@pytest.mark.usefixtures("fast")
def test_a_one_point_match_played_by_the_computer(qtbot: QtBot, tiny_bridge: EngineBridge) -> None:
    match = play_match(qtbot, tiny_bridge, 1, seed=11)
    assert match.game_number() == 1 and not match.earlier  # one game decides a 1-point match
    assert replayed_score(match) == match.match.score
    state = match.session.state if match.session else None
    assert state is not None and match.match.winner == state.game_winner
    assert not match.is_between_games() and match.line().winner == state.game_winner
    assert "double" not in match.session.move_names()  # a 1-point match has no cube to turn
    board = BackgammonBoard()
    board.set_state(match.session.state_at(0))
    assert not board.is_cube_live()  # so the board greys it out, as in the Crawford game


@pytest.mark.usefixtures("fast")
def test_a_three_point_match_with_its_crawford_game(qtbot: QtBot, tiny_bridge: EngineBridge) -> None:
    # A match that jumps past 2 points (a gammon at 0-0) has no Crawford game: the next
    # dice are tried, a few at most (most matches to 3 have one).
    for seed in range(CRAWFORD_SEED, CRAWFORD_SEED + MATCHES_TRIED):
        match = play_match(qtbot, tiny_bridge, 3, seed=seed)
        final = replayed_score(match)  # every game's start, Crawford flag and points checked
        assert final == match.match.score and max(final) >= 3
        assert match.line().parts(("O", "X"))[2] == f"{'OX'[match.match.winner]} wins the match"
        starts = [BackgammonState.from_text(record.start) for record in [*match.earlier, match.session.to_record()]]
        if any(start.crawford for start in starts):
            return
    pytest.fail(f"no match to 3 of {MATCHES_TRIED} had a Crawford game")


CRAWFORD_SEED = 4
"""The first dice tried for a match to 3 that reaches 2-away before it ends."""
MATCHES_TRIED = 4


@pytest.mark.usefixtures("fast")
def test_the_window_starts_the_next_game_by_itself_between_computers(qtbot: QtBot, window: MainWindow) -> None:
    first = window.start_game("backgammon", COMPUTERS, start=match_text(bear_off_last(), 3, (0, 1)), paused=False)
    qtbot.waitUntil(lambda: window.session is not first, timeout=5000)  # X bore off: 2-0, then the next game
    assert first.is_over and window.match is not None
    state = window.session.state
    assert state.crawford and state.score == (0, 2)
    assert "Crawford game" in window.game_view.board.match_text()
    window.session.set_paused(True)


# --------------------------------------------------------------------------- scoring
def test_a_gammon_with_a_doubled_cube_scores_four(qtbot: QtBot, window: MainWindow) -> None:
    start = match_text(bear_off_last(cube_value=2, cube_owner=X, gammon=True), 5, (1, 2))
    session = window.start_game("backgammon", HUMANS, start=start)
    match = window.match
    assert match is not None and match.match.score == (1, 2)
    assert "O 1 – X 2" in window.game_view.board.match_text()
    assert window.game_view.board.is_cube_live()  # X owns the cube at 2, 3-away: X may redouble
    assert session.play_text("2/off") is None
    qtbot.waitUntil(lambda: session.is_over, timeout=2000)
    assert match.match.score == (1, 6)  # 2 + the cube 2 × a gammon
    assert match.is_over() and "X wins the match" in window.game_view.board.match_text()


def test_a_single_game_then_the_crawford_game_without_the_cube(qtbot: QtBot, window: MainWindow) -> None:
    session = window.start_game("backgammon", HUMANS, start=match_text(bear_off_last(), 5, (1, 3)))
    assert not window.next_match_game() and "once this one is over" in window.statusBar().currentMessage()
    assert session.play_text("2/off") is None
    qtbot.waitUntil(lambda: session.is_over, timeout=2000)
    match = window.match
    assert match is not None and match.match.score == (1, 4) and match.is_between_games()
    board = window.game_view.board
    assert board.button_position(NEXT_GAME_KEY) is not None and window.actions_by_name["next_game"].isEnabled()
    assert "next: the Crawford game" in board.match_text()
    qtbot.mouseClick(board, Qt.MouseButton.LeftButton, pos=board.button_position(NEXT_GAME_KEY).toPoint())
    assert window.match is not match and window.match is not None
    state = window.session.state
    assert state.crawford and state.score == (1, 4) and state.match_length == 5
    assert "Crawford game" in window.game_view.board.match_text() and not window.game_view.board.is_cube_live()
    # the new board takes the shape with the match line's strip (no empty margins beside it)
    new_board = window.game_view.board
    qtbot.waitUntil(lambda: abs(new_board.height() / new_board.width() - board_height(True) / BOARD_WIDTH) < 0.01, timeout=2000)
    assert window.match.game_number() == 2 and window.match.earlier[0].moves == ["2/off"]
    # no cube decision in the Crawford game: the player on roll rolls
    qtbot.waitUntil(lambda: window.session.state.phase != 0, timeout=2000)  # the opening roll
    assert all(name not in ("double", "roll") for name in window.session.move_names())


def test_a_resignation_gives_the_stake_and_taking_back_the_end_takes_the_points_back(qtbot: QtBot, window: MainWindow) -> None:
    start = match_text(bear_off_last(cube_value=2, cube_owner=O), 7, (0, 0))
    session = window.start_game("backgammon", HUMANS, start=start)
    match = window.match
    assert match is not None
    session.resign()  # X, on roll, resigns: O wins the cube's 2 points
    assert match.match.score == (2, 0) and match.is_between_games()
    session.undo()  # nothing played yet: the resignation stands
    session2 = window.start_game("backgammon", HUMANS, start=start)
    match = window.match
    assert match is not None
    assert session2.play_text("2/off") is None
    qtbot.waitUntil(lambda: session2.is_over, timeout=2000)
    assert match.match.score == (0, 2)
    session2.undo()
    assert not session2.is_over and match.match.score == (0, 0) and not match.is_between_games()
    assert window.game_view.board.button_position(NEXT_GAME_KEY) is None


# --------------------------------------------------------------------------- ids, files, autosave
def test_copy_writes_the_match_id_and_paste_starts_a_match_at_its_score(qtbot: QtBot, window: MainWindow) -> None:
    window.start_match(HUMANS, 7)
    window.copy_position()
    copied = QGuiApplication.clipboard().text()
    key = gnubg_ids.decode_match_id(copied.split(":")[1])
    assert key.match_length == 7 and key.score == (0, 0)
    pasted = match_text(BackgammonState.initial(), 9, (4, 6))
    assert window.paste_text(pasted)
    assert window.match is not None and window.match.match.score == (4, 6) and window.match.length == 9
    assert "Match to 9 points · O 4 – X 6" in window.game_view.board.match_text()
    assert window.paste_text(BackgammonState.initial().to_text())  # a money position: no match
    assert window.match is None and window.game_view.board.match_text() == ""


def test_a_saved_match_game_opens_at_its_score(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    session = window.start_game("backgammon", HUMANS, start=match_text(bear_off_last(), 5, (2, 3), crawford=False))
    path = tmp_path / "match.json"
    assert window.save_to(path)
    document = json.loads(path.read_text())
    assert document["round"] == "1"
    window.start_game("chess", HUMANS)
    assert window.match is None
    assert window.open_path(path)
    assert window.match is not None and window.match.match.score == (2, 3) and window.match.length == 5
    assert session is not window.session


def test_the_autosave_resumes_a_match_mid_way(qtbot: QtBot, tiny_bridge: EngineBridge, data_directory: Path) -> None:
    first = make_window(qtbot, tiny_bridge, data_directory)
    session = first.start_game("backgammon", HUMANS, start=match_text(bear_off_last(), 5, (1, 1)))
    assert session.play_text("2/off") is None
    qtbot.waitUntil(lambda: session.is_over, timeout=2000)
    assert first.next_match_game()  # game 2 at 1-2
    second_game = first.session
    assert second_game is not None and second_game.state.score == (1, 2)
    qtbot.waitUntil(lambda: len(second_game.history) >= 1, timeout=2000)  # the opening roll
    saved = autosave.load(data_directory)
    assert saved is not None and isinstance(saved.match, dict)
    # the app stops without a word (a crash): a new window resumes the match
    resumed = make_window(qtbot, tiny_bridge, data_directory)
    assert resumed.continue_last_game()
    match = resumed.match
    assert match is not None and match.match.score == (1, 2) and match.game_number() == 2
    assert match.earlier[0].moves == ["2/off"] and resumed.last_error == ""
    assert resumed.session is not None and resumed.session.move_names() == second_game.move_names()
    resumed.shutdown()
    first.shutdown()


HOSTILE_MATCHES: list[tuple[object, str]] = [
    ("not a match", "not a match entry"),
    ({"start": "garbage"}, "cannot be read"),
    ({"start": {"length": -3, "score": [0, 0]}}, "cannot be read"),
    ({"start": {"length": float("nan"), "score": [0, 0]}}, "cannot be read"),
    ({"start": {"length": 10**400, "score": [0, 0]}}, "cannot be read"),
    ({"start": {"length": 5, "score": [4, 0]}}, "disagrees"),
    ({"start": {"length": 5, "score": [1, 1]}, "games": {"a": 1}}, "earlier games"),
    ({"start": {"length": 5, "score": [1, 1]}, "games": [{"format": "nope"}]}, "game 1"),
    ({"start": {"length": 5, "score": [1, 1]}, "games": [None] * 10_000}, "earlier games"),
]


@pytest.mark.parametrize(("entry", "said"), HOSTILE_MATCHES, ids=[str(index) for index in range(len(HOSTILE_MATCHES))])
def test_a_hostile_match_entry_keeps_the_game_and_its_score(
    qtbot: QtBot, tiny_bridge: EngineBridge, data_directory: Path, entry: object, said: str
) -> None:
    first = make_window(qtbot, tiny_bridge, data_directory)
    first.start_game("backgammon", HUMANS, start=match_text(bear_off_last(), 5, (1, 1)))
    first.shutdown()
    path = data_directory / autosave.AUTOSAVE_NAME
    document = json.loads(path.read_text())
    document["autosave"]["match"] = entry
    path.write_text(json.dumps(document))  # nan as NaN, as Python's json writes and reads it
    resumed = make_window(qtbot, tiny_bridge, data_directory)
    assert resumed.continue_last_game()
    assert resumed.match is not None and resumed.match.match.score == (1, 1) and resumed.match.length == 5
    assert said in resumed.last_error and resumed.last_error.count("\n") == 0
    resumed.shutdown()


def test_a_flag_loses_the_match(qtbot: QtBot, tiny_bridge: EngineBridge) -> None:
    now = [100.0]
    match = MatchSession.new(5)
    session = GameSession(
        tiny_bridge, "backgammon", HUMANS, start=match.next_start(), manual_dice=True,
        time_control=TimeControl.parse("1+0"), clock_now=lambda: now[0],
    )
    match.follow(session)
    try:
        for move in ("O 3-1", "8/5 6/5", "roll", "6-4", "24/18 13/9", "roll", "5-2"):
            assert session.play_text(move) is None, move
        now[0] += 61  # O thinks a minute over its one minute (both first moves were untimed)
        assert session.check_flag() and session.is_over
        assert match.flag_loser() == O and match.is_over() and match.match.winner == X
        assert match.match.score == (0, 5) and not match.is_between_games()
        assert match.line().text(("O", "X")) == "Match to 5 points · O 0 – X 5 · X wins the match"
    finally:
        match.release()
        session.close()


def test_every_game_of_a_match_gets_a_fresh_clock(qtbot: QtBot, window: MainWindow) -> None:
    control = TimeControl.parse("5+12")
    window.start_match(HUMANS, 3, time_control=control)
    assert window.session is not None and window.session.clock is not None and window.session.clock.control == control
    session = window.start_game("backgammon", HUMANS, start=match_text(bear_off_last(), 3, (0, 0)), time_control=control)
    assert session.play_text("2/off") is None
    qtbot.waitUntil(lambda: session.is_over, timeout=2000)
    assert window.next_match_game()
    following = window.session
    assert following is not session and following.clock is not None and following.clock.control == control
    assert following.state.score == (0, 1)


def test_pasted_match_ids_of_every_kind_never_break_the_match(qtbot: QtBot, window: MainWindow) -> None:
    """Random Match IDs (lengths 1-64, scores past the length, Crawford flags at any score,
    any cube): each is refused with a message or played as a match (or a single game), and
    a resignation ends it without an error."""
    rng = random.Random(7)
    opening = BackgammonState.initial()
    played = refused = 0
    for _ in range(40):
        length = rng.choice([1, 2, 3, 7, 25, 64])
        score = (rng.randrange(0, length + 3), rng.randrange(0, length + 3))
        cube = rng.choice([1, 2, 4, 64])
        key = dataclasses.replace(
            gnubg_ids.decode_match_id(opening.match_id()), match_length=length, score=score,
            crawford=rng.random() < 0.3, cube_value=cube, cube_owner=rng.choice([gnubg_ids.CENTRED, O, X]),
        )
        text = f"{opening.position_id()}:{gnubg_ids.encode_match_id(key)}"
        window.last_error = ""
        if not window.paste_text(text):
            assert window.last_error and window.last_error.count("\n") <= 1
            refused += 1
            continue
        played += 1
        session = window.session
        assert session is not None
        match = window.match
        if match is not None:
            assert match.length == length and match.match.score == score and window.game_view.board.match_text()
        session.resign()
        assert session.is_over
        if match is not None:
            assert match.is_over() or match.is_between_games()
    assert played and refused  # both kinds were tried


@pytest.mark.parametrize(
    ("stored", "read"), [("7", 7), ("0", 0), ("25", 25), ("64", 64), ("65", 0), ("-3", 0), ("abc", 0), ("", 0), ("٣", 0), ("9" * 5000, 0)]
)
def test_the_remembered_match_length_reads_only_a_match_length(stored: str, read: int, data_directory: Path) -> None:
    settings = Settings()
    settings._store.setValue("games/backgammon/match_length", stored)
    assert settings.match_length == read
    settings.match_length = 1000  # no match is that long: stored as a money game
    assert settings.match_length == 0


def hostile_ids() -> list[str]:
    """Match IDs whose match fields cannot be: a finished match, Crawford at 0-0, a length
    past gnubg's 64, a score past the length."""
    opening = BackgammonState.initial()
    key = gnubg_ids.decode_match_id(opening.match_id())
    ids = []
    for length, score, crawford in ((5, (5, 0), False), (5, (0, 0), True), (3, (1, 9), False)):
        changed = dataclasses.replace(key, match_length=length, score=score, crawford=crawford)
        ids.append(f"{opening.position_id()}:{gnubg_ids.encode_match_id(changed)}")
    return ids


@pytest.mark.parametrize("start", hostile_ids())
def test_a_game_file_with_impossible_match_fields_is_refused_and_the_game_kept(window: MainWindow, tmp_path: Path, start: str) -> None:
    kept = window.start_match(HUMANS, 7)
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps({"format": "plyground-game", "version": 1, "game": "backgammon", "start": start, "moves": []}))
    assert not window.open_path(path)
    assert "is not a game Plyground can read" in window.last_error and "match" in window.last_error.lower()
    assert window.session is kept and window.match is not None and window.match.length == 7


def test_a_match_saved_between_games_resumes_at_its_next_game(qtbot: QtBot, tiny_bridge: EngineBridge, data_directory: Path) -> None:
    first = make_window(qtbot, tiny_bridge, data_directory)
    session = first.start_game("backgammon", HUMANS, start=match_text(bear_off_last(), 3, (0, 1)))
    assert session.play_text("2/off") is None
    qtbot.waitUntil(lambda: session.is_over, timeout=2000)
    first.shutdown()  # closed between games
    resumed = make_window(qtbot, tiny_bridge, data_directory)
    assert resumed.continue_last_game()
    match = resumed.match
    assert match is not None
    qtbot.waitUntil(match.is_between_games, timeout=2000)  # the loaded game ends by its rules
    assert match.match.score == (0, 2)
    assert "next: the Crawford game" in resumed.game_view.board.match_text()
    assert resumed.game_view.board.button_position(NEXT_GAME_KEY) is not None
    assert resumed.next_match_game()
    assert resumed.session is not None and resumed.session.state.crawford and resumed.session.state.score == (0, 2)
    resumed.shutdown()


# --------------------------------------------------------------------------- the whole match in a file
def two_games_in(qtbot: QtBot, window: MainWindow) -> GameSession:
    """Game 1 of a match to 5 (at 1-1, X bears its last checker off: 1-2), then game 2
    after its opening roll."""
    first = window.start_game("backgammon", HUMANS, start=match_text(bear_off_last(), 5, (1, 1)))
    assert first.play_text("2/off") is None
    qtbot.waitUntil(lambda: first.is_over, timeout=2000)
    assert window.next_match_game()
    second = window.session
    assert second is not None and second.state.score == (1, 2)
    qtbot.waitUntil(lambda: len(second.history) >= 1, timeout=2000)  # the opening roll
    return second


def test_a_saved_match_file_keeps_the_whole_match(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    second = two_games_in(qtbot, window)
    path = tmp_path / "match.json"
    assert window.save_to(path)
    document = json.loads(path.read_text())
    assert document["round"] == "2" and document["match"]["start"]["score"] == [1, 2]
    assert [game["moves"] for game in document["match"]["games"]] == [["2/off"]]
    window.start_game("chess", HUMANS)
    assert window.match is None
    assert window.open_path(path)
    match = window.match
    assert match is not None and match.game_number() == 2 and match.match.score == (1, 2) and match.length == 5
    assert match.earlier[0].moves == ["2/off"] and match.earlier[0].start == match_text(bear_off_last(), 5, (1, 1))
    assert window.session is not None and window.session.move_names() == second.move_names()
    assert "left out" not in window.statusBar().currentMessage() and window.last_error == ""
    # saved again, the file is the same match
    again = tmp_path / "again.json"
    assert window.save_to(again)
    assert json.loads(again.read_text())["match"] == document["match"]


def test_a_copied_match_game_pasted_keeps_the_whole_match(qtbot: QtBot, window: MainWindow) -> None:
    """Copy game writes the match whole (as Save does); pasting it plays on in that match."""
    second = two_games_in(qtbot, window)
    record = window.current_record()
    assert record is not None
    copied = write_game(record)
    window.start_game("chess", HUMANS)
    assert window.paste_text(copied)
    match = window.match
    assert match is not None and match.game_number() == 2 and match.match.score == (1, 2)
    assert [game.moves for game in match.earlier] == [["2/off"]]
    assert window.session is not None and window.session.move_names() == second.move_names() and window.last_error == ""


def test_a_money_game_file_has_no_match_entry(window: MainWindow, tmp_path: Path) -> None:
    window.start_game("backgammon", HUMANS)
    path = tmp_path / "money.json"
    assert window.save_to(path)
    assert "match" not in json.loads(path.read_text())


def bad_game(document: dict[str, Any]) -> dict[str, Any]:
    """An earlier game of the match whose moves stop half-way (it cannot give its points)."""
    return {**document, "moves": document["moves"][:0], "result": "*"}


FILE_MATCHES: list[tuple[Callable[[dict[str, Any]], object], str]] = [
    *[((lambda _match, entry=entry: entry), said) for entry, said in HOSTILE_MATCHES if said != "earlier games" and said != "game 1"],
    (lambda match: {**match, "games": {"a": 1}}, "earlier games"),
    (lambda match: {**match, "games": [None] * 10_000}, "earlier games"),
    (lambda match: {**match, "games": [{"format": "nope"}]}, "game 1"),
    (lambda match: {**match, "games": [[[[[[[[[[[]]]]]]]]]]]}, "game 1"),
    (lambda _match: {}, "cannot be read"),
    (lambda _match: [], "not a match entry"),
    (lambda _match: 1e308 * 10, "not a match entry"),  # inf
    (lambda match: {**match, "start": {**match["start"], "score": [1, 1]}}, "disagrees"),
    (lambda match: {**match, "start": {**match["start"], "crawford": "yes"}}, "cannot be read"),
    (lambda match: {**match, "games": [bad_game(match["games"][0])]}, "does not lead"),
    (lambda match: {**match, "games": match["games"] * 2}, "does not lead"),
    (lambda match: {**match, "games": [{**match["games"][0], "game": "chess"}]}, "game 1"),
    (lambda match: {**match, "games": [{**match["games"][0], "match": match}]}, ""),  # nested: not read, the game is
    (lambda match: {**match, "games": [{"format": "plyground-game", "version": 1, "game": "backgammon", "start": "x" * 100_000}]}, "game 1"),
]


@pytest.mark.parametrize(("change", "said"), FILE_MATCHES, ids=[str(index) for index in range(len(FILE_MATCHES))])
def test_a_hostile_match_entry_in_a_file_opens_the_game_at_its_score(
    qtbot: QtBot, window: MainWindow, tmp_path: Path, change: Callable[[dict[str, Any]], object], said: str
) -> None:
    second = two_games_in(qtbot, window)
    path = tmp_path / "match.json"
    assert window.save_to(path)
    document = json.loads(path.read_text())
    document["match"] = change(document["match"])
    path.write_text(json.dumps(document))  # nan and inf as NaN and Infinity, as Python's json reads them
    window.start_game("chess", HUMANS)
    window.last_error = ""
    assert window.open_path(path), window.last_error
    match = window.match
    assert match is not None and match.match.score == (1, 2) and match.length == 5
    assert window.session is not None and window.session.move_names() == second.move_names()
    if said:  # said in a message box, as a damaged autosave's match is
        assert window.last_error.startswith("match.json is opened, but ") and said in window.last_error
        assert "\n" not in window.last_error and match.earlier == []
    else:
        assert window.last_error == "" and len(match.earlier) == 1


def test_export_match_is_offered_in_a_match_and_writes_its_games(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    export = window.actions_by_name["export_match"]
    game_menu = window.menuBar().actions()[0].menu()
    window.start_game("chess", HUMANS)
    game_menu.aboutToShow.emit()
    assert not export.isEnabled() and not window.export_match()
    assert "Export match writes a backgammon match" in window.statusBar().currentMessage()
    two_games_in(qtbot, window)
    game_menu.aboutToShow.emit()
    assert export.isEnabled()
    assert window.export_match_to(tmp_path / "two")  # the extension is added
    text = (tmp_path / "two.mat").read_text()
    assert " 5 point match" in text and text.count(" Game ") == 2
    assert " O : 1                          X : 1" in text and " O : 1                          X : 2" in text
    notice = window.statusBar().currentMessage()
    assert "Exported the match (2 games) to two.mat" in notice and "game 1 starts from a position set up by hand" in notice
    assert not window.export_match_to(tmp_path / "no-such-folder" / "x.mat")
    assert "Could not export x.mat" in window.last_error


@pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon is not installed")
@pytest.mark.usefixtures("fast")
def test_gnubg_reads_a_match_the_engine_played_as_we_exported_it(qtbot: QtBot, tiny_bridge: EngineBridge, tmp_path: Path) -> None:
    """The independent truth: a match to 3 the computer played on both sides (its Crawford
    game included), exported and imported by GNU Backgammon: the same games, the same score,
    and gnubg's own export of what it read is our file."""
    match = play_match(qtbot, tiny_bridge, 3, seed=CRAWFORD_SEED)
    exported = match.mat_file("2026.11.28")
    assert exported.left_out == ()
    path, back = tmp_path / "ours.mat", tmp_path / "gnubg.mat"
    path.write_text(exported.text)
    assert GNUBG is not None
    script = f"import mat {path}\nshow score\nexport match mat {back}\n"
    output = subprocess.run([GNUBG, "-t", "-q"], input=script, capture_output=True, text=True, timeout=60).stdout
    found = re.findall(r"The score \(after (\d+) games?\) is: O (\d+), X (\d+)", output)
    assert found and tuple(map(int, found[-1])) == (match.game_number(), *match.match.score), output[-1500:]
    assert back.read_text() == exported.text


def test_resigning_is_asked_first_and_says_what_it_gives(qtbot: QtBot, window: MainWindow) -> None:
    """Game → Resign and the board's button ask before the game ends: one click next to
    Pause must not decide a game, or a match."""
    second = two_games_in(qtbot, window)  # a match to 5 at 1-2
    questions: list[str] = []
    window.ask = lambda question: questions.append(question) or False  # type: ignore[method-assign]
    window.game_view.resign_button.click()
    window.actions_by_name["resign"].trigger()
    assert not second.is_over and len(questions) == 2
    loser = second.resigner()
    names = ("O", "X")
    assert questions[0] == f"Resign for {names[loser]}? {names[1 - loser]} wins the game (1 point)."
    window.ask = lambda _question: True  # type: ignore[method-assign]
    assert window.resign() and second.is_over and second.result.winner == 1 - loser
    # A game that decides the match says so.
    decider = window.start_game("backgammon", HUMANS, start=match_text(BackgammonState.initial(), 3, (2, 2)))
    qtbot.waitUntil(lambda: len(decider.history) >= 1, timeout=2000)
    window.ask = lambda question: questions.append(question) or False  # type: ignore[method-assign]
    assert not window.resign()
    assert questions[-1].endswith("wins the game (1 point and the match).") and not decider.is_over
    # Not in a match: no stake named, and no next game of a match offered.
    chess = window.start_game("chess", HUMANS)
    assert not window.actions_by_name["next_game"].isEnabled()
    assert not window.resign() and questions[-1] == "Resign for White? Black wins the game." and not chess.is_over


def test_a_game_resigned_asks_nobody_to_roll(qtbot: QtBot, window: MainWindow) -> None:
    """After a resignation the board no longer says "to double or roll" or "to play 5-1":
    the winner's label says why the game ended, the loser's nothing."""
    session = window.start_game("backgammon", HUMANS)
    qtbot.waitUntil(lambda: len(session.history) >= 1, timeout=2000)  # the opening roll
    board = window.game_view.board
    assert isinstance(board, BackgammonBoard)
    assert any(label.status.startswith("to play") for label in board._labels())
    loser = session.resigner()
    session.resign()
    statuses = {label.player: label.status for label in board._labels()}
    assert statuses[loser] == "" and statuses[1 - loser] == f"wins ({('O', 'X')[loser]} resigned)"
    session.undo()  # taken back: the game goes on, nobody has won
    assert not session.is_over and not any("wins" in label.status for label in board._labels())
