"""Moving between games: a new game starts clean, an unfinished game is not replaced without
asking, "N moves" means what the move list counts, a save is confirmed where it can be seen,
and a result is said once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from games import CHANCE
from gui.main_window import MainWindow
from gui.panels.move_list import ROLE_PLY
from gui.players import HUMAN, PlayerConfig
from gui.session import GameSession

HUMANS = (PlayerConfig(kind=HUMAN), PlayerConfig(kind=HUMAN))
FEN = "4k3/8/8/8/8/8/8/4K3 w - - 0 1"


class Answers:
    """The window's yes/no questions, answered by the test and remembered."""

    def __init__(self, window: MainWindow, answer: bool) -> None:
        self.questions: list[str] = []
        self.answer = answer
        window.ask = self.ask  # type: ignore[method-assign]

    def ask(self, question: str) -> bool:
        self.questions.append(question)
        return self.answer


def play(session: GameSession, names: list[str]) -> None:
    for name in names:
        assert session.play_text(name) is None, name


# ------------------------------------------------------------------ a new game starts clean
def test_a_new_game_empties_the_move_box_and_its_error(qtbot: QtBot, window: MainWindow) -> None:
    window.start_game("othello", HUMANS)
    panel = window.game_view.moves
    qtbot.keyClicks(panel.box, "b2")
    qtbot.keyClick(panel.box, Qt.Key.Key_Return)
    assert panel.error.isVisibleTo(window) and "b2" in panel.error.text()
    window.start_game("chess", HUMANS)
    assert panel.box.text() == ""
    assert not panel.error.isVisibleTo(window) and panel.error.text() == ""


def test_a_notice_ends_with_the_game_it_speaks_of(window: MainWindow) -> None:
    window.start_game("tictactoe", HUMANS)
    window.session.notice.emit("Hint: a3 (X +0)")
    assert window.statusBar().currentMessage() == "Hint: a3 (X +0)"
    window.start_game("checkers", HUMANS)
    assert window.statusBar().currentMessage() == ""
    assert window.status_label.isVisible()  # the new game's turn line has its room back
    window.session.notice.emit("Hint: 11-15 (Black +0.05)")
    window.show_start_page()
    assert window.statusBar().currentMessage() == ""


# ------------------------------------------------------------------ replacing a game asks
@pytest.mark.parametrize("answer", [False, True], ids=["no-keeps-the-game", "yes-replaces-it"])
def test_open_paste_and_set_up_ask_before_ending_an_unfinished_game(window: MainWindow, tmp_path: Path, answer: bool) -> None:
    path = tmp_path / "other.pgn"
    path.write_text("1. d4 d5 *", encoding="utf-8")
    for replace in (lambda: window.open_path(path), lambda: window.paste_text(FEN), window.begin_setup):
        session = window.start_game("chess", HUMANS)
        play(session, ["e4", "e5"])
        answers = Answers(window, answer)
        assert replace() is answer
        assert len(answers.questions) == 1 and "unfinished game of Chess (1 move)" in answers.questions[0]
        if answer:
            assert window.session is not session or window.game_view.is_setting_up()
        else:
            assert window.session is session and session.move_names() == ["e4", "e5"]
            assert not window.game_view.is_setting_up()


def test_no_question_when_nothing_would_be_lost(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    answers = Answers(window, False)
    window.start_game("chess", HUMANS)
    assert window.paste_text(FEN)  # no moves yet
    session = window.start_game("tictactoe", HUMANS)
    with qtbot.waitSignal(session.game_over, timeout=5_000):
        play(session, ["a1", "b1", "a2", "b2", "a3"])  # finished: X has three in a row
    assert session.is_over and window.paste_text(FEN)
    session = window.start_game("chess", HUMANS)
    play(session, ["e4"])
    assert window.save_to(tmp_path / "kept.pgn")  # saved since its last move
    assert window.paste_text(FEN)
    assert answers.questions == []
    assert not window.paste_text("no position at all")  # a bad paste asks nothing either
    assert answers.questions == []


# ------------------------------------------------------------------ one count of moves
def play_backgammon(session: GameSession, turns: int) -> None:
    """Dice entered by hand, the first legal move each time."""
    for index in range(turns):
        state = session.state
        outcomes = [outcome for outcome, _ in state.chance_outcomes()] if state.to_move() == CHANCE else state.legal_moves()
        assert session.play_move(outcomes[index % len(outcomes)])


def test_looking_back_and_continue_count_moves_as_the_move_list_does(window: MainWindow) -> None:
    session = window.start_game("backgammon", HUMANS, manual_dice=True)
    play_backgammon(session, 20)
    sheet = window.game_view.moves.moves
    rows = sheet.rowCount()
    assert 0 < rows < len(session.history)  # rolls and "roll" are not moves of their own
    window.show_start_page()
    assert f"Backgammon, {rows} moves" in window.start_page.continue_label.text()
    assert window.continue_last_game()
    written = {  # the ply each cell of the sheet shows -> its move number (row)
        int(sheet.item(row, column).data(ROLE_PLY)): row + 1
        for row in range(rows) for column in range(2) if sheet.item(row, column) is not None
    }
    for ply in range(len(session.history)):
        sheet.show_ply(ply)
        number = max((row for shown, row in written.items() if shown <= ply), default=0)
        text = window.game_view.viewing_label.text()
        assert f"move {number} of {rows} " in text if number else "start position" in text, text


def test_chess_counts_a_white_and_black_pair_as_one_move(window: MainWindow) -> None:
    session = window.start_game("chess", HUMANS)
    play(session, ["e4", "e5", "Nf3"])
    window.game_view.moves.moves.show_ply(2)
    assert window.game_view.viewing_label.text().startswith("Looking at move 1 of 2")
    window.game_view.moves.moves.show_ply(0)
    assert "start position" in window.game_view.viewing_label.text()
    window.show_start_page()
    assert "Chess, 2 moves" in window.start_page.continue_label.text()


# ------------------------------------------------------------------ small things
def test_a_save_is_confirmed_in_the_status_bar(window: MainWindow, tmp_path: Path) -> None:
    session = window.start_game("chess", HUMANS)
    play(session, ["e4"])
    assert window.status_label.isVisible()
    assert window.save_to(tmp_path / "game.pgn")
    assert window.statusBar().currentMessage().startswith("Saved game.pgn")
    assert not window.status_label.isVisible()  # the turn line gives the notice its room
    window.statusBar().clearMessage()
    assert window.status_label.isVisible()


def test_a_draw_is_said_once(qtbot: QtBot, window: MainWindow) -> None:
    session = window.start_game("tictactoe", HUMANS)
    with qtbot.waitSignal(session.game_over, timeout=5_000):
        play(session, ["a1", "a2", "a3", "b1", "b2", "c1", "b3", "c3", "c2"])
    assert session.result == "1/2-1/2"
    words = session.status_text().lower().replace("—", " ").replace(":", " ").split()
    assert words.count("draw") == 1, session.status_text()
    assert window.game_view.result_label.text().lower().count("draw") == 1


def wrapped_lines(rich_text: str, width: int, font: Any) -> list[str]:
    """The lines a label's rich text breaks into at ``width`` (QLabel lays it out so)."""
    from PySide6.QtGui import QTextDocument

    document = QTextDocument()
    document.setDefaultFont(font)
    document.setDocumentMargin(0)
    document.setHtml(rich_text)
    document.setTextWidth(width)
    document.size()  # lays the text out
    lines = []
    block = document.begin()
    while block.isValid():
        layout = block.layout()
        for index in range(layout.lineCount()):
            line = layout.lineAt(index)
            text = block.text()[line.textStart(): line.textStart() + line.textLength()]
            lines.append(text.replace("\xa0", " ").replace("\u2060", "").strip())
        block = block.next()
    return lines


def test_player_lines_wrap_between_phrases_not_inside_them(window: MainWindow) -> None:
    timed = PlayerConfig(kind="computer", strength="time", seconds=1.0)
    window.start_game("chess", (PlayerConfig(kind=HUMAN), timed))  # Black's label: "Computer (PVS, 1 s/move)"
    label = window.game_view.player_labels[1]
    phrase = "1 s/move)"
    for width in range(60, 400, 7):
        lines = wrapped_lines(label.text(), width, label.font())
        assert any(phrase in line for line in lines), (width, lines)


def test_file_dialogs_start_in_the_last_folder_used(qtbot: QtBot, window: MainWindow, bridge: Any, data_directory: Path,
                                                     tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtWidgets import QFileDialog

    asked: list[str] = []
    answers: list[Path] = []

    def dialog(_parent: Any, _title: str, where: str, _filters: str) -> tuple[str, str]:
        asked.append(where)
        return str(answers.pop(0)), ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", dialog)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", dialog)
    saves, opens = tmp_path / "saves", tmp_path / "opens"
    saves.mkdir()
    opens.mkdir()
    session = window.start_game("chess", HUMANS)
    play(session, ["e4"])
    answers.append(saves / "one.pgn")
    assert window.save_file_as()
    answers.append(saves / "one.pgn")
    assert window.open_file()
    assert Path(asked[1]) == saves  # the folder saved to, not the home folder
    (opens / "two.pgn").write_text("1. d4 *", encoding="utf-8")
    answers.append(opens / "two.pgn")
    window.open_file()
    answers.append(opens / "three.pgn")
    assert window.save_file_as()
    assert Path(asked[3]).parent == opens
    later = MainWindow(bridge=bridge, data_directory=data_directory, offer_resume=False)  # the next run
    qtbot.addWidget(later)
    answers.append(opens / "two.pgn")
    assert later.open_file() and Path(asked[4]) == opens
    later.shutdown()


def test_a_loaded_game_at_an_unclaimed_draw_can_be_claimed_from_the_menu(qtbot: QtBot, window: MainWindow) -> None:
    claim = window.actions_by_name["claim_draw"]
    session = window.start_game("chess", HUMANS)
    assert not claim.isEnabled()
    assert window.paste_text("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *")  # threefold, not claimed
    assert window.session is not None and window.session is not session
    qtbot.waitUntil(claim.isEnabled, timeout=2_000)
    with qtbot.waitSignal(window.session.game_over, timeout=2_000) as over:
        claim.trigger()
    assert over.args[0].result == "1/2-1/2" and not claim.isEnabled()


def test_an_autosave_failure_is_said_once_not_after_every_move(window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    from gui import autosave

    def refuse(*_args: Any, **_kwargs: Any) -> None:
        raise PermissionError(13, "Permission denied")

    notices: list[str] = []
    monkeypatch.setattr(window, "notify", notices.append)
    monkeypatch.setattr(autosave, "save", refuse)
    session = window.start_game("chess", HUMANS)
    play(session, ["e4", "e5", "Nf3", "Nc6"])
    assert [notice for notice in notices if "autosave" in notice] == ["Could not autosave: Permission denied"]


def test_a_long_error_under_the_move_box_is_shown_whole(qtbot: QtBot, window: MainWindow) -> None:
    """A 10,000-character paste into the move box gives a three-line error at the dock's
    width: the error is as tall as its lines, none cut at the top or the bottom."""
    window.start_game("chess", HUMANS)
    panel = window.game_view.moves
    panel.box.setText("e4" * 5_000)
    panel.box.returnPressed.emit()
    error = panel.error
    qtbot.waitUntil(error.isVisible, timeout=2_000)
    assert error.height() >= error.heightForWidth(error.width()), (error.height(), error.heightForWidth(error.width()))
    assert len(error.text()) < 300
