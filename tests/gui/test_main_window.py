"""The main window: start page, files, paste, autosave and resume, the move list and move
box, shortcuts, and an engine failure that leaves the game playable."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from games import GAME_NAMES, new_game
from gui import autosave
from gui.gamefile import default_extension
from gui.main_window import MainWindow
from gui.players import HUMAN, PlayerConfig
from gui.session import GameSession

HUMANS = (PlayerConfig(kind=HUMAN), PlayerConfig(kind=HUMAN))
OPENINGS = {
    "tictactoe": ["b2", "a1", "c3"],
    "checkers": ["11-15", "23-19", "8-11"],
    "chess": ["e4", "c5", "Nf3"],
    "othello": ["d3", "c5", "f6"],
    "backgammon": ["O 3-1", "8/5 6/5", "roll", "6-4"],
}


@pytest.fixture
def window(qtbot: QtBot, bridge: Any, data_directory: Path) -> Iterator[MainWindow]:
    made = MainWindow(bridge=bridge, data_directory=data_directory, offer_resume=False, seed=3)
    made.ask = lambda _question: True  # type: ignore[method-assign]  # replacing a game: yes
    qtbot.addWidget(made)
    made.show()
    qtbot.waitExposed(made)
    yield made
    made.shutdown()


def play(session: GameSession, names: list[str]) -> None:
    for name in names:
        assert session.play_text(name) is None, name


def test_start_page_has_the_five_games_and_continue_after_a_game(window: MainWindow, data_directory: Path) -> None:
    assert set(window.start_page.cards) == set(GAME_NAMES)
    assert not window.start_page.continue_button.isVisibleTo(window)
    session = window.start_game("othello", HUMANS, manual_dice=False)
    play(session, ["d3"])
    window.show_start_page()
    assert window.start_page.continue_button.isVisibleTo(window)
    assert "Othello, 1 move" in window.start_page.continue_label.text()
    assert window.continue_last_game()
    assert window.session is not None and window.session.move_names() == ["d3"]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_save_and_open_round_trip(window: MainWindow, tmp_path: Path, game: str) -> None:
    session = window.start_game(game, HUMANS, manual_dice=True)
    play(session, OPENINGS[game])
    path = tmp_path / f"game.{default_extension(game)}"
    assert window.save_to(path)
    window.start_game("tictactoe", HUMANS)
    assert window.open_path(path)
    assert window.session is not None
    assert window.session.game == game and window.session.move_names() == OPENINGS[game]
    assert window.session.state.key() == session.state.key()


BAD = [
    ("empty.pgn", ""),
    ("broken.json", "{"),
    ("illegal.pgn", "1. e4 e5 2. Ke3 *"),
    ("binary.pdn", "\x00\x01\x02"),
]


@pytest.mark.parametrize(("name", "text"), BAD, ids=[case[0] for case in BAD])
def test_a_bad_file_leaves_the_game_untouched(window: MainWindow, tmp_path: Path, name: str, text: str) -> None:
    session = window.start_game("chess", HUMANS)
    play(session, ["d4", "d5"])
    path = tmp_path / name
    path.write_text(text, encoding="latin-1")
    assert not window.open_path(path)
    assert window.session is session and session.move_names() == ["d4", "d5"]
    assert name in window.last_error


def test_a_missing_file_says_so(window: MainWindow, tmp_path: Path) -> None:
    window.start_game("chess", HUMANS)
    assert not window.open_path(tmp_path / "nowhere.pgn")
    assert "nowhere.pgn" in window.last_error


def test_paste_a_position_or_a_game_and_bad_paste_changes_nothing(window: MainWindow) -> None:
    session = window.start_game("othello", HUMANS)
    play(session, ["d3"])
    assert not window.paste_text("this is not a position")
    assert window.session is session and session.move_names() == ["d3"]
    assert "as othello" in window.last_error
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    assert window.paste_text(fen)
    assert window.session is not None and window.session.game == "chess"
    assert window.session.state.to_text() == new_game("chess", fen).to_text()
    assert window.paste_text("1. e4 e5 2. Nf3 *")
    assert window.session.move_names() == ["e4", "e5", "Nf3"]


def test_copy_position_puts_the_text_on_the_clipboard(window: MainWindow) -> None:
    from PySide6.QtGui import QGuiApplication

    session = window.start_game("checkers", HUMANS)
    play(session, ["11-15"])
    window.copy_position()
    assert QGuiApplication.clipboard().text() == session.state.to_text()


def test_autosave_after_every_move_and_resume_after_a_crash(qtbot: QtBot, bridge: Any, data_directory: Path) -> None:
    first = MainWindow(bridge=bridge, data_directory=data_directory, offer_resume=False)
    qtbot.addWidget(first)
    session = first.start_game("chess", HUMANS)
    play(session, ["e4", "e5"])
    saved = autosave.load(data_directory)
    assert saved is not None and saved.record.moves == ["e4", "e5"] and not saved.clean_exit
    assert not list(data_directory.glob("*.tmp"))  # written atomically: no temporary left
    # the app "crashes": no shutdown, so the file still says the game was interrupted
    questions: list[str] = []
    second = MainWindow(bridge=bridge, data_directory=data_directory, offer_resume=False)
    qtbot.addWidget(second)
    second.ask = lambda question: questions.append(question) or True  # type: ignore[method-assign]
    second.offer_resume()
    assert questions and "Chess" in questions[0] and "(1 move)" in questions[0]  # e4 e5: one move of the sheet
    assert second.session is not None and second.session.move_names() == ["e4", "e5"]
    second.shutdown()
    first.session and first.session.close()
    third = MainWindow(bridge=bridge, data_directory=data_directory, offer_resume=False)
    qtbot.addWidget(third)
    third.ask = lambda question: questions.append(question) or True  # type: ignore[method-assign]
    third.offer_resume()
    assert len(questions) == 1  # a clean exit is not a crash: no question
    third.shutdown()


def test_a_broken_autosave_never_stops_the_app(window: MainWindow, data_directory: Path) -> None:
    (data_directory / autosave.AUTOSAVE_NAME).write_text("{ half a file", encoding="utf-8")
    window.offer_resume()
    window.show_start_page()
    assert not window.start_page.continue_button.isVisibleTo(window)


def test_move_list_click_shows_an_old_position_and_keys_step(qtbot: QtBot, window: MainWindow) -> None:
    session = window.start_game("tictactoe", HUMANS)
    play(session, ["b2", "a1", "c3"])
    moves = window.game_view.moves.moves
    assert moves.item_texts() == ["b2", "a1", "c3"]
    moves.show_ply(1)
    assert window.game_view.viewing_label.isVisibleTo(window)
    assert not window.game_view.board.is_interactive()
    assert window.game_view.board.state().to_text() == session.state_at(1).to_text()
    qtbot.keyClick(moves, Qt.Key.Key_Right)
    assert moves.shown_ply == 2
    qtbot.keyClick(moves, Qt.Key.Key_End)
    assert moves.shown_ply == 3 and not window.game_view.viewing_label.isVisibleTo(window)
    assert window.game_view.board.is_interactive()


def test_move_box_plays_a_typed_move_and_explains_a_bad_one(qtbot: QtBot, window: MainWindow) -> None:
    session = window.start_game("chess", HUMANS)
    panel = window.game_view.moves
    qtbot.keyClicks(panel.box, "Nf6")
    qtbot.keyClick(panel.box, Qt.Key.Key_Return)
    assert panel.error.isVisibleTo(window) and "Nf6" in panel.error.text()
    assert session.history == []
    panel.box.clear()
    qtbot.keyClicks(panel.box, "Nf3")
    qtbot.keyClick(panel.box, Qt.Key.Key_Return)
    assert session.move_names() == ["Nf3"] and panel.box.text() == "" and not panel.error.isVisibleTo(window)


def test_shortcuts_undo_redo_and_flip(qtbot: QtBot, window: MainWindow) -> None:
    session = window.start_game("othello", HUMANS)
    play(session, ["d3", "c5"])
    window.game_view.board.setFocus()
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert session.move_names() == ["d3"]
    qtbot.keyClick(window, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert session.move_names() == ["d3", "c5"]
    qtbot.keyClick(window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert session.move_names() == ["d3", "c5"]  # nothing left to redo
    shortcuts = {action.shortcut().toString() for action in window.actions()}
    assert {"Ctrl+N", "Ctrl+Z", "F", "H", "Space", "Ctrl+V", "Ctrl+S", "Ctrl+O"} <= shortcuts


def test_an_engine_failure_is_shown_and_the_game_goes_on(qtbot: QtBot, window: MainWindow) -> None:
    import dataclasses

    computer = PlayerConfig(kind="computer", strength="depth", depth=1)
    session = window.start_game("tictactoe", (PlayerConfig(kind=HUMAN), computer))
    # a request the engine refuses (the settings file's values are range-checked on reading,
    # so the bad value is put straight into the session)
    session.engine_settings = dataclasses.replace(session.engine_settings, aspiration_window=-1.0)
    with qtbot.waitSignal(session.engine_failed, timeout=10_000) as failed:
        play(session, ["b2"])
    assert "aspiration" in failed.args[0]
    assert session.paused and session.can_human_move()
    play(session, ["a1"])  # the human may move for the paused computer
    assert session.move_names() == ["b2", "a1"]


def test_new_game_during_a_search_stops_it(qtbot: QtBot, window: MainWindow, bridge: Any) -> None:
    slow = PlayerConfig(kind="computer", strength="time", seconds=30.0)
    session = window.start_game("chess", (slow, PlayerConfig(kind=HUMAN)))
    qtbot.waitUntil(lambda: session.is_thinking, timeout=5_000)
    window.start_game("tictactoe", HUMANS)
    assert not session.is_thinking and not bridge.is_searching


def test_each_new_game_clears_the_engines_memory(window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine searches a new game without the last one's table (bridge.clear_memory,
    tested with the pool in test_engine_bridge.py), after the old game's search stopped."""
    cleared: list[bool] = []
    monkeypatch.setattr(window.bridge, "clear_memory", lambda: cleared.append(window.bridge.is_searching))
    window.start_game("chess", HUMANS)
    window.start_game("othello", HUMANS)
    assert cleared == [False, False]


def test_set_up_a_position_then_play_from_it(qtbot: QtBot, window: MainWindow) -> None:
    session = window.start_game("tictactoe", HUMANS)
    play(session, ["b2"])
    assert window.begin_setup()
    assert window.game_view.board.is_edit_mode() and session.paused
    window.game_view.board.publish_edit("x.o.x....")  # what clicks in the edit mode end with
    window.game_view.setup_done.click()
    assert window.session is not session
    assert window.session is not None and window.session.start_text == new_game("tictactoe", "x.o.x....").to_text()
    assert not window.game_view.board.is_edit_mode() and window.session.can_human_move()


def test_set_up_refuses_a_position_that_is_not_valid(qtbot: QtBot, window: MainWindow) -> None:
    session = window.start_game("tictactoe", HUMANS)
    window.begin_setup()
    window.game_view.board.publish_edit("xxxxx....")
    window.game_view.setup_done.click()
    assert window.session is session and window.game_view.setup_bar.isVisibleTo(window)
    window.game_view.setup_cancel.click()
    assert window.session is session and not window.game_view.board.is_edit_mode()


def test_the_engine_panels_follow_the_game(qtbot: QtBot, window: MainWindow) -> None:
    computer = PlayerConfig(kind="computer", algorithm="alphabeta", strength="depth", depth=1)
    session = window.start_game("chess", (PlayerConfig(kind=HUMAN), computer))
    assert window.settings_panel.settings().algorithm == "alphabeta"
    assert window.features_panel.rows()  # EVAL's breakdown of the position shown
    with qtbot.waitSignal(session.move_played, timeout=20_000):
        play(session, ["e4"])
    qtbot.waitUntil(lambda: len(session.history) == 2, timeout=20_000)
    scores = window.eval_graph.scores
    assert len(scores) == 3 and scores[2] is not None  # the computer's evaluation after its move
    # the settings panel's algorithm becomes the computer side's
    index = window.settings_panel.algorithm.findData("mtdf")
    window.settings_panel.algorithm.setCurrentIndex(index)
    qtbot.waitUntil(lambda: session.players[1].algorithm == "mtdf", timeout=2_000)
    assert window.settings.players("chess")[1].algorithm == "mtdf"


def test_hint_key_draws_the_engines_move_on_the_board(qtbot: QtBot, window: MainWindow) -> None:
    computer = PlayerConfig(kind="computer", strength="depth", depth=1)
    session = window.start_game("othello", (PlayerConfig(kind=HUMAN), computer))
    window.game_view.board.setFocus()
    with qtbot.waitSignal(session.hint_found, timeout=20_000) as hint:
        qtbot.keyClick(window, Qt.Key.Key_H)
    assert hint.args[0] in session.state.legal_moves()
    assert window.game_view.board.best_move() == hint.args[0]
    play(session, ["d3"])
    assert window.game_view.board.best_move() is None  # a new position clears it


@pytest.mark.parametrize(
    ("start", "leader", "mark"),
    [("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "White", "W"), ("3qk3/8/8/8/8/8/8/4K3 w - - 0 1", "Black", "B")],
    ids=["white-queen-up", "black-queen-up"],
)
def test_the_eval_bar_shows_the_computers_evaluation_and_never_a_hints(
    qtbot: QtBot, window: MainWindow, start: str, leader: str, mark: str
) -> None:
    """A queen up is a clear lead: the computer's own move search puts it on the bar, which
    names the side ahead as the engine panel's headline does; a hint is advice, not the
    game's evaluation, and leaves the bar as it was (``display.is_game_evaluation``)."""
    from gui.players import COMPUTER

    computer = PlayerConfig(kind=COMPUTER, strength="depth", depth=2).for_game("chess")
    session = window.start_game("chess", (computer, PlayerConfig(kind=HUMAN)), start=start)
    bar = window.eval_bar
    qtbot.waitUntil(lambda: len(session.history) == 1 and not session.is_thinking, timeout=20_000)
    ahead = 0 if leader == "White" else 1
    assert bar.leader() == ahead and (bar.share > 0.5) == (ahead == 0)
    assert bar.leader_mark() == mark
    assert bar.toolTip().startswith(f"{leader} is ahead: {leader} +")
    assert window.engine_panel.score_label.text().startswith(f"{leader} +")  # the headline agrees
    shown = bar.describe()
    with qtbot.waitSignal(session.hint_found, timeout=20_000):
        window.game_view.hint_button.click()
    qtbot.waitUntil(lambda: not session.is_thinking, timeout=5_000)
    assert bar.describe() == shown  # the hint's score is not the game's evaluation
    window.game_view.flip()  # the board's orientation, not the position: the score stays
    assert bar.leader() == ahead


def test_a_hint_leaves_the_board_playable(qtbot: QtBot, window: MainWindow) -> None:
    """While the engine looks for a hint the human's legal moves stay shown and playable
    (Othello's dots); a move made meanwhile drops the hint search."""
    session = window.start_game("othello", HUMANS)
    board = window.game_view.board
    session.request_hint()
    assert session.is_finding_hint()
    assert board.is_interactive() and board.accepts_moves()
    assert window.game_view.think_button.text() == "Stop"  # not "Move now": nothing is played for you
    target = session.state.parse_move("d3")
    with qtbot.waitSignal(session.move_played, timeout=5_000):
        qtbot.mouseClick(board, Qt.MouseButton.LeftButton, pos=board.point_of(target).toPoint())
    assert session.move_names() == ["d3"]
    assert not session.is_finding_hint() and session.hint_score() is None


def test_tictactoe_names_its_players_with_capitals(qtbot: QtBot, window: MainWindow) -> None:
    """X and O, as the rest of the app writes names: move list, status, side labels, game over."""
    session = window.start_game("tictactoe", HUMANS)
    table = window.game_view.moves.moves
    headers = [table.horizontalHeaderItem(column).text() for column in range(table.columnCount())]
    assert headers == ["X", "O"]
    assert session.status_text() == "X to move"
    assert [label.text().split("</b>")[0].split("<b>")[-1] for label in window.game_view.player_labels] == ["X", "O"]
    play(session, ["b1", "a1", "b2", "a2"])
    with qtbot.waitSignal(session.game_over, timeout=5_000):
        play(session, ["b3"])  # the b file: three in a row for X
    assert session.result == "1-0"
    assert session.status_text() == "X wins — X has three in a row"
    assert window.game_view.result_label.text() == "<b>X wins — X has three in a row</b>"


def test_stepping_back_and_the_turn_marker_never_move_the_board_or_the_list(qtbot: QtBot, window: MainWindow) -> None:
    """The "Looking at move …" line keeps its place while hidden, and the players' labels
    keep two lines: stepping through the moves, or the thinking marker wrapping a label,
    must not shift the board or the move list."""
    window.show()
    qtbot.waitExposed(window)
    session = window.start_game("chess", HUMANS)
    for move in ("e4", "e5", "Nf3"):
        assert session.play_text(move) is None
    view = window.game_view
    qtbot.wait(50)
    board_at = view.board_area.geometry()
    list_at = view.moves.geometry()
    view.moves.moves.show_ply(1)
    qtbot.waitUntil(view.viewing_label.isVisible)
    qtbot.wait(50)
    assert view.board_area.geometry() == board_at and view.moves.geometry() == list_at
    view.show_live()
    long = "▶ <b>Black</b>: Computer (level 10, compiled search) — the engine looks for a hint…"
    view.player_labels[1].setText(long)  # as long as the label gets on a narrow window
    qtbot.wait(50)
    assert view.moves.geometry() == list_at
