"""Clocks on screen and in the app's data: the new-game dialog's clock row, the settings
entry (hostile values fall back to no clock), the clock faces' text and colours, the bars
by the board at a small window size, and the autosave's clock entry (round trip, hostile
entries refused with a reason, the clocks resumed paused)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QColor
from pytestqt.qtbot import QtBot

from games.clock import PRESETS, TimeControl
from gui import autosave
from gui.clock_view import DARK_CLOCKS, LIGHT_CLOCKS, ClockColours, clock_text, low_time_threshold
from gui.dialogs.new_game import CUSTOM_CLOCK, NewGameDialog
from gui.main_window import MainWindow
from gui.players import COMPUTER, HUMAN, PlayerConfig
from gui.session import GameSession
from gui.settings import Settings

HUMANS = (PlayerConfig(kind=HUMAN), PlayerConfig(kind=HUMAN))
BLITZ = TimeControl.parse("3+2")


# --------------------------------------------------------------------------- faces
@pytest.mark.parametrize(
    ("seconds", "shown"),
    [
        (180.0, "3:00"),
        (179.99, "2:59"),  # cut, not rounded: a clock never shows time it does not have
        (65.5, "1:05"),
        (10.0, "0:10"),
        (9.99, "0:09.9"),
        (0.05, "0:00.0"),
        (0.0, "0:00.0"),
        (-3.0, "0:00.0"),
        (math.nan, "0:00.0"),
        (3 * 3600 + 61, "3:01:01"),
    ],
)
def test_a_clock_reads_as_a_chess_server_shows_it(seconds: float, shown: str) -> None:
    assert clock_text(seconds) == shown


def test_low_time_is_a_share_of_the_base_within_bounds() -> None:
    assert low_time_threshold(60) == 10  # 1+0: the floor
    assert low_time_threshold(300) == 30  # 5+3: a tenth
    assert low_time_threshold(5400) == 60  # 90 minutes: the ceiling


def contrast(first: str, second: str) -> float:
    """WCAG 2.1's contrast ratio of two colours (relative luminance of sRGB)."""

    def luminance(value: str) -> float:
        colour = QColor(value)
        channels = []
        for channel in (colour.redF(), colour.greenF(), colour.blueF()):
            channels.append(channel / 12.92 if channel <= 0.03928 else ((channel + 0.055) / 1.055) ** 2.4)
        return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]

    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("colours", [LIGHT_CLOCKS, DARK_CLOCKS])
def test_every_clock_face_is_readable(colours: ClockColours) -> None:
    for background, text in (
        (colours.idle_background, colours.idle_text),
        (colours.running_background, colours.running_text),
        (colours.low_background, colours.low_text),
    ):
        assert contrast(background, text) >= 4.5, (background, text)


# --------------------------------------------------------------------------- dialog and settings
def test_the_clock_row_offers_none_presets_and_custom_per_game(qtbot: QtBot) -> None:
    dialog = NewGameDialog("chess", {}, time_controls={"othello": TimeControl.parse("5+3")})
    qtbot.addWidget(dialog)
    dialog.show()
    row = dialog.clock_row
    assert dialog.time_control() is None and not row.custom.isVisibleTo(dialog)  # no clock by default
    offered = [row.choice.itemText(index) for index in range(row.choice.count())]
    assert offered[0] == "No clock" and offered[-1] == "Custom…" and "3+2 · Blitz" in offered and len(offered) == len(PRESETS) + 2
    row.choice.setCurrentIndex(row.choice.findData("3+2"))
    assert dialog.time_control() == BLITZ
    row.choice.setCurrentIndex(row.choice.findData(CUSTOM_CLOCK))
    assert row.custom.isVisibleTo(dialog)
    assert dialog.time_control() == TimeControl.of(600, 5)  # chess's own custom start: 10+5
    row.minutes.setValue(2.5)
    row.increment.setValue(1)
    assert dialog.time_control() == TimeControl.of(150, 1)
    dialog.game.setCurrentIndex(dialog.game.findData("othello"))  # each game keeps its own clock
    assert dialog.time_control() == TimeControl.parse("5+3")
    dialog.game.setCurrentIndex(dialog.game.findData("backgammon"))
    row.choice.setCurrentIndex(row.choice.findData(CUSTOM_CLOCK))
    assert dialog.time_control() == TimeControl.of(300, 12, delay=True)  # backgammon's twelve-second delay
    assert row.delay.isChecked() and "5 d12 · 12 s delay a move" in offered
    row.delay.setChecked(False)
    assert dialog.time_control() == TimeControl.of(300, 12)  # twelve seconds added instead
    row.choice.setCurrentIndex(row.choice.findData("5 d12"))
    assert dialog.time_control() == TimeControl.of(300, 12, delay=True)
    dialog.game.setCurrentIndex(dialog.game.findData("chess"))
    assert dialog.time_control() == TimeControl.of(150, 1)


def test_a_control_of_its_own_shows_as_custom(qtbot: QtBot) -> None:
    odds = TimeControl((420.0, 60.0), (7.0, 0.0))
    dialog = NewGameDialog("chess", {}, time_controls={"chess": TimeControl.of(100, 2), "checkers": odds})
    qtbot.addWidget(dialog)
    assert dialog.clock_row.choice.currentData() == CUSTOM_CLOCK and dialog.time_control() == TimeControl.of(100, 2)
    dialog.game.setCurrentIndex(dialog.game.findData("checkers"))
    assert dialog.time_control() == TimeControl.of(420, 7)  # odds are not offered: player 0's control for both


@pytest.mark.parametrize("stored", ["garbage", "-5+3", "99999999+0", "5+99999", "1e9+0", "5+3 vs", "x" * 10_000, "0+0", "nan+1"])
def test_a_stored_clock_that_is_no_time_control_reads_as_none(stored: str, data_directory: Path) -> None:
    store = QSettings(str(data_directory / "settings.ini"), QSettings.Format.IniFormat)
    store.setValue("games/chess/time_control", stored)
    settings = Settings(store)
    assert settings.time_control("chess") is None
    problems = settings.check()  # said once at start-up, then forgotten
    assert [line for line in problems if "clock" in line] == [next(line for line in problems if line.startswith("Settings: the clock for chess was ignored ("))]
    assert not any("clock" in line for line in settings.check())


def test_the_settings_keep_each_games_clock(data_directory: Path) -> None:
    settings = Settings(QSettings(str(data_directory / "settings.ini"), QSettings.Format.IniFormat))
    settings.set_time_control("chess", BLITZ)
    settings.set_time_control("othello", None)
    assert settings.time_control("chess") == BLITZ and settings.time_control("othello") is None
    assert settings.time_control("checkers") is None


# --------------------------------------------------------------------------- the window
def test_clocks_stand_by_the_board_only_in_a_game_with_a_clock(qtbot: QtBot, window: MainWindow) -> None:
    view = window.game_view
    window.start_game("chess", HUMANS)
    assert view.board_area.clocks is None and not any(face.isVisible() for face in view.clocks.faces)
    session = window.start_game("chess", (PlayerConfig(kind=HUMAN), PlayerConfig(kind=HUMAN)), time_control=BLITZ)
    qtbot.waitUntil(lambda: all(face.isVisible() for face in view.clocks.faces))
    assert view.pause_button.isVisible()  # two humans: the clocks can still be paused
    top, bottom = view.clocks.top(), view.clocks.bottom()
    assert bottom is view.clocks.faces[0]  # White's clock below White's side of the board
    qtbot.waitUntil(lambda: top.geometry().bottom() < view.board.geometry().top() and bottom.geometry().top() > view.board.geometry().bottom())
    assert top.shown.time == "3:00" and top.shown.name.startswith("Black")
    view.flip()
    assert view.clocks.bottom() is view.clocks.faces[1]
    qtbot.waitUntil(lambda: view.clocks.faces[1].geometry().top() > view.board.geometry().bottom())
    assert session.clock is not None


def test_the_clocks_are_not_cut_off_in_a_small_window(qtbot: QtBot, window: MainWindow) -> None:
    view = window.game_view
    window.start_game("chess", (PlayerConfig(kind=HUMAN), PlayerConfig(kind=COMPUTER)), time_control=BLITZ)
    window.resize(900, 600)
    qtbot.waitUntil(lambda: window.size().toTuple() == (900, 600))
    area = view.board_area.rect()
    for face in view.clocks.faces:
        qtbot.waitUntil(face.isVisible)
        shown = face.geometry()
        assert area.contains(shown), (shown, area)
        assert shown.width() >= face.minimumSizeHint().width() and shown.height() >= face.minimumSizeHint().height()


# --------------------------------------------------------------------------- autosave
def test_the_autosave_keeps_the_clocks_and_old_autosaves_still_load(data_directory: Path) -> None:
    from gui.gamefile import GameRecord

    record = GameRecord(game="chess", start="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", moves=["e4"])
    entry = {"control": BLITZ.to_json(), "remaining": [171.5, 180.0], "turn": 1, "moves": [1, 0], "flagged": None}
    autosave.save(data_directory, record, HUMANS, clock=entry)
    saved = autosave.load(data_directory)
    assert saved is not None and saved.clock == entry
    autosave.mark_clean_exit(data_directory)
    kept = autosave.load(data_directory)
    assert kept is not None and kept.clean_exit and kept.clock == entry
    autosave.save(data_directory, record, HUMANS)  # a game without a clock: no entry
    document = json.loads((data_directory / autosave.AUTOSAVE_NAME).read_text())
    assert "clock" not in document["autosave"]
    old = autosave.load(data_directory)
    assert old is not None and old.clock is None


HOSTILE_CLOCKS: list[Any] = [
    None,
    "3+2",
    [],
    {"control": {"base": [180, 180], "increment": [2, 2]}, "remaining": [math.nan, 180], "turn": 1, "moves": [1, 0]},
    {"control": {"base": [180, 180], "increment": [2, 2]}, "remaining": [-5, 180], "turn": 1, "moves": [1, 0]},
    {"control": {"base": [180, 180], "increment": [2, 2]}, "remaining": [1e300, 180], "turn": 1, "moves": [1, 0]},
    {"control": {"base": [180, 180], "increment": [2, 2]}, "remaining": [170, 180], "turn": 0, "moves": [1, 0]},  # not White's turn
    {"control": {"base": [180, 180], "increment": [2, 2]}, "remaining": [170, 180], "turn": 7, "moves": [1, 0]},
    {"control": {"base": [60, 60], "increment": [0, 0]}, "remaining": [50, 60], "turn": 1, "moves": [1, 0]},  # another control
    {"control": {"base": [180, 180], "increment": [2, 2]}, "remaining": [170, 180], "turn": 1, "moves": [1, 0], "flagged": 1},
    {"control": {"base": [180, 180], "increment": [2, 2]}, "remaining": [170, "180"], "turn": 1, "moves": [True, 0]},
]


@pytest.mark.parametrize("entry", HOSTILE_CLOCKS)
def test_a_hostile_clock_entry_is_refused_with_a_reason(bridge: Any, entry: Any) -> None:
    session = GameSession(bridge, "chess", HUMANS, time_control=BLITZ, clock_now=lambda: 50.0)
    try:
        session.play_text("e4")
        before = session.clock_readings()
        problem = session.restore_clock_state(entry)
        assert problem and isinstance(problem, str)
        assert session.clock_readings() == before
    finally:
        session.close()


def test_a_restored_clock_waits_paused_with_the_time_it_had(bridge: Any) -> None:
    now = [50.0]
    session = GameSession(bridge, "chess", HUMANS, time_control=BLITZ, clock_now=lambda: now[0])
    try:
        for move in ("e4", "e5", "Nf3"):
            session.play_text(move)
        now[0] += 12  # Black thinks 12 s, then the app is closed (White has 180 + 2 after Nf3)
        entry = session.clock_state()
        assert entry is not None and entry["remaining"][1] == 168
        resumed = GameSession(bridge, "chess", HUMANS, time_control=BLITZ, clock_now=lambda: now[0])
        resumed.load_history(session.move_names(), (), [move.clock for move in session.history])
        now[0] += 3600  # an hour with the app closed
        assert resumed.restore_clock_state(entry) == ""
        readings = resumed.clock_readings()
        assert readings is not None and readings.remaining == (182, 168) and not readings.running and resumed.paused
        assert "clocks are paused" in resumed.status_text()
        resumed.set_paused(False)
        now[0] += 8
        readings = resumed.clock_readings()
        assert readings is not None and readings.remaining == (182, 160) and readings.running
        resumed.close()
    finally:
        session.close()


def test_a_set_up_position_starts_a_game_without_a_clock(qtbot: QtBot, window: MainWindow) -> None:
    """Setting up a position pauses the game and its clocks; the game played from it has no
    clock (the clock was the old game's)."""
    session = window.start_game("chess", HUMANS, time_control=BLITZ)
    assert window.game_view.begin_setup()
    readings = session.clock_readings()
    assert readings is not None and not readings.running and session.paused
    from games import new_game

    window.game_view.setup_finished.emit(new_game("chess", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1"))
    assert window.session is not session and window.session is not None
    assert window.session.clock is None and window.game_view.board_area.clocks is None


def test_a_game_on_the_clock_is_saved_and_opened_with_its_clocks(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    """PGN keeps the control and each move's reading (``[TimeControl "180+2"]``,
    ``{[%clk 0:02:58]}``); the opened game shows them, paused; a game without them none."""
    session = window.start_game("chess", HUMANS, time_control=BLITZ)
    for move in ("e4", "e5", "Nf3", "Nc6"):
        assert session.play_text(move) is None
    readings = [entry.clock for entry in session.history]
    path = tmp_path / "blitz.pgn"
    assert window.save_to(path)
    text = path.read_text()
    assert '[TimeControl "180+2"]' in text and "[%clk 0:03:00]" in text
    assert window.open_path(path)
    opened = window.session
    assert opened is not None and opened is not session
    assert opened.time_control == BLITZ and [entry.clock for entry in opened.history] == pytest.approx(readings, abs=1)
    shown = opened.clock_readings()
    assert shown is not None and not shown.running and opened.paused and shown.turn == 0
    assert window.game_view.board_area.clocks is not None
    plain = tmp_path / "plain.pgn"
    plain.write_text('[Event "?"]\n[Result "*"]\n\n1. e4 e5 *\n')
    assert window.open_path(plain)
    assert window.session is not None and window.session.clock is None and window.game_view.board_area.clocks is None


def test_continue_resumes_the_clocks_paused_as_they_stood(qtbot: QtBot, window: MainWindow, data_directory: Path) -> None:
    session = window.start_game("chess", (PlayerConfig(kind=HUMAN), PlayerConfig(kind=HUMAN)), time_control=BLITZ)
    for move in ("e4", "e5", "Nf3"):
        assert session.play_text(move) is None
    window.shutdown()  # the exit writes the clocks as they stand
    saved = autosave.load(data_directory)
    assert saved is not None and isinstance(saved.clock, dict) and saved.record.time_control == BLITZ
    entry = dict(saved.clock)
    entry["remaining"] = [150.5, 99.25]  # as if Black had thought 80 s before the app closed
    autosave.save(data_directory, saved.record, saved.players, clock=entry)
    again = MainWindow(bridge=window.bridge, data_directory=data_directory, offer_resume=False, seed=3)
    qtbot.addWidget(again)
    try:
        messages: list[str] = []
        again.notify = messages.append  # type: ignore[method-assign]
        assert again.continue_last_game()
        resumed = again.session
        assert resumed is not None and resumed.move_names() == ["e4", "e5", "Nf3"]
        readings = resumed.clock_readings()
        assert readings is not None and readings.remaining == (150.5, 99.25) and not readings.running and readings.turn == 1
        assert any("paused" in message and "press P" in message for message in messages)
        resumed.set_paused(False)
        assert resumed.clock_readings() is not None and resumed.clock_readings().running  # type: ignore[union-attr]
    finally:
        again.shutdown()


def test_the_faces_tick_only_while_a_clock_runs(qtbot: QtBot, bridge: Any) -> None:
    """The view's timer reads the clock five times a second while one runs, twenty times
    while it shows tenths, and not at all while the clocks stand (no busy repaint)."""
    from gui.clock_view import FAST_TICK_MS, TICK_MS, ClockView

    now = [100.0]
    session = GameSession(bridge, "chess", HUMANS, time_control=BLITZ, clock_now=lambda: now[0])
    view = ClockView()
    try:
        view.attach(session)
        assert not view.timer.isActive()  # untimed first moves: nothing runs yet
        assert view.faces[0].shown.name == "White · Human · first move, untimed"
        for move in ("e4", "e5"):
            session.play_text(move)
        assert view.timer.isActive() and view.timer.interval() == TICK_MS
        assert view.faces[0].shown.running and not view.faces[1].shown.running
        now[0] += 175
        view.refresh()
        assert view.timer.interval() == FAST_TICK_MS and view.faces[0].shown.time == "0:05.0" and view.faces[0].shown.low
        session.set_paused(True)
        assert not view.timer.isActive() and view.faces[0].shown.name.endswith("paused")
        session.set_paused(False)
        now[0] += 6
        session.check_flag()
        assert session.is_over and not view.timer.isActive() and view.faces[0].shown.time == "0:00.0"
    finally:
        session.close()


@pytest.mark.parametrize("entry", ["garbage", {"remaining": [1e308, -1]}, [180, 180], 12])
def test_continue_with_a_hostile_clock_entry_says_so_and_keeps_the_moves_readings(
    qtbot: QtBot, window: MainWindow, data_directory: Path, entry: Any
) -> None:
    session = window.start_game("chess", HUMANS, time_control=BLITZ)
    for move in ("e4", "e5", "Nf3"):
        assert session.play_text(move) is None
    readings = [move.clock for move in session.history]
    saved = autosave.load(data_directory)
    assert saved is not None
    autosave.save(data_directory, saved.record, saved.players, clock=entry)
    messages: list[str] = []
    window.notify = messages.append  # type: ignore[method-assign]
    assert window.continue_last_game()
    resumed = window.session
    assert resumed is not None and resumed is not session and [move.clock for move in resumed.history] == pytest.approx(readings)
    shown = resumed.clock_readings()
    assert shown is not None and shown.remaining[0] == pytest.approx(readings[2]) and shown.remaining[1] == pytest.approx(readings[1])
    assert not shown.running and any("read as after the last move" in message for message in messages)


def test_new_game_starts_on_the_clock_chosen_and_remembers_it(qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    """Game → New game: the clock row's choice reaches the game and the settings, and the
    dialog opens on it next time."""
    opened: list[NewGameDialog] = []

    def choose_blitz(dialog: NewGameDialog) -> int:
        opened.append(dialog)
        row = dialog.clock_row
        if not opened[1:]:
            row.choice.setCurrentIndex(row.choice.findData("3+2"))
        return NewGameDialog.DialogCode.Accepted

    monkeypatch.setattr(NewGameDialog, "exec", choose_blitz)
    assert window.new_game_dialog("chess")
    assert window.session is not None and window.session.time_control == BLITZ
    assert window.settings.time_control("chess") == BLITZ
    assert window.new_game_dialog("chess")
    assert opened[1].time_control() == BLITZ and window.session.time_control == BLITZ


def test_a_game_lost_on_time_opens_with_the_fallen_flag(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    """The result and the clock agree in a reopened game: the side that ran out of time
    reads 0:00.0, fallen, not its last move's reading."""
    now = [10.0]
    session = GameSession(window.bridge, "chess", HUMANS, time_control=TimeControl.of(60, 0), clock_now=lambda: now[0])
    try:
        for move in ("e4", "e5", "Nf3", "Nc6"):
            now[0] += 5
            session.play_text(move)
        now[0] += 61
        assert session.check_flag() and session.reason == "White ran out of time"
        record = session.to_record()
    finally:
        session.close()
    opened = window.load_record(record)
    readings = opened.clock_readings()
    assert readings is not None and readings.flagged == 0 and readings.remaining == (0.0, 55.0) and not readings.running
    assert window.game_view.clocks.faces[0].shown.time == "0:00.0" and window.game_view.clocks.faces[0].shown.low


def test_the_dialogs_boxes_start_at_one_x(qtbot: QtBot) -> None:
    """The Game, Clock and (backgammon) Play rows sit in forms of their own; their boxes
    still line up (one label column)."""
    dialog = NewGameDialog("backgammon", {})
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    lefts = {box.mapTo(dialog, box.rect().topLeft()).x() for box in (dialog.game, dialog.clock_row.choice, dialog.match_row.choice)}
    assert len(lefts) == 1, lefts


def test_looking_back_shows_each_moves_clocks(qtbot: QtBot, bridge: Any) -> None:
    """Stepping back through a finished game (the move list, ←) shows the clocks as they
    read in that position, as Lichess shows each move's %clk; End shows the final clocks
    again. While the game goes on, the live clocks stay."""
    from gui.game_view import GameView

    now = [100.0]
    session = GameSession(bridge, "chess", HUMANS, time_control=BLITZ, clock_now=lambda: now[0])
    view = GameView()
    qtbot.addWidget(view)
    try:
        view.attach(session)
        for move, seconds in (("e4", 3), ("e5", 3), ("Nf3", 20), ("Nc6", 40)):
            now[0] += seconds
            session.play_text(move)
        now[0] += 5
        view.clocks.refresh()  # what the view's timer does five times a second
        white, black = view.clocks.faces
        assert (white.shown.time, black.shown.time) == ("2:37", "2:22")  # live: 180-20+2-5, 180-40+2
        # While the game goes on, looking back keeps the live clocks: White's runs on.
        view.moves.moves.show_ply(3)
        now[0] += 1
        view.clocks.refresh()
        assert (white.shown.time, black.shown.time) == ("2:36", "2:22") and white.shown.running and view.clocks.timer.isActive()
        view.show_live()
        session.resign()  # over: each position's readings
        live = (white.shown.time, black.shown.time)
        view.moves.moves.show_ply(3)  # after Nf3: Black to move, White's reading after Nf3
        assert (white.shown.time, black.shown.time) == ("2:42", "3:00") and black.shown.running
        assert not view.clocks.timer.isActive()  # a past position's clocks stand
        view.moves.moves.show_ply(0)
        assert (white.shown.time, black.shown.time) == ("3:00", "3:00")
        view.show_live()
        assert (white.shown.time, black.shown.time) == live
    finally:
        session.close()


def test_opening_or_resuming_a_file_says_what_was_left_out(qtbot: QtBot, window: MainWindow, tmp_path: Path, data_directory: Path) -> None:
    """A clock reading the reader cannot use is left out of the game (``GameRecord.left_out``)
    and the app says so in the line that says the game was opened or resumed."""
    messages: list[str] = []
    window.notify = messages.append  # type: ignore[method-assign]
    path = tmp_path / "damaged.pgn"
    path.write_text('[Event "?"]\n[TimeControl "180+2"]\n[Result "*"]\n\n1. e4 {[%clk abc]} e5 {[%clk 0:03:00]} *\n')
    assert window.open_path(path)
    assert window.session is not None and window.session.move_names() == ["e4", "e5"]
    assert messages[-1].startswith("Opened damaged.pgn; left out: ")
    session = window.session
    window.autosave()
    saved = autosave.load(data_directory)
    assert saved is not None
    document = json.loads((data_directory / autosave.AUTOSAVE_NAME).read_text())
    document["clocks"] = ["x", None]
    (data_directory / autosave.AUTOSAVE_NAME).write_text(json.dumps(document))
    assert window.continue_last_game() and window.session is not session
    assert "left out: " in messages[-1] and window.session.move_names() == ["e4", "e5"]


def test_a_modal_window_holds_a_humans_clock_not_a_computers(qtbot: QtBot, bridge: Any) -> None:
    """While a modal window keeps the players from the board (``hold_clock``), the human to
    move loses no time; the computer's clock runs on, as its search does."""
    now = [100.0]
    session = GameSession(bridge, "chess", HUMANS, time_control=BLITZ, clock_now=lambda: now[0])
    try:
        for move in ("e4", "e5", "Nf3", "Nc6"):
            assert session.play_text(move) is None
        before = session.clock_readings()  # White to move, on the clock
        assert before is not None and before.running and before.turn == 0
        session.hold_clock(True)
        now[0] += 30.0  # a dialog open for half a minute
        held = session.clock_readings()
        assert held is not None and not held.running and held.remaining == before.remaining
        session.hold_clock(False)
        now[0] += 4.0
        after = session.clock_readings()
        assert after is not None and after.running and after.remaining[0] == pytest.approx(before.remaining[0] - 4.0)
    finally:
        session.close()
    computer = PlayerConfig(kind=COMPUTER, depth=1)
    against = GameSession(bridge, "chess", (HUMANS[0], computer), time_control=BLITZ, clock_now=lambda: now[0])
    try:
        assert against.play_text("e4") is None
        qtbot.waitUntil(lambda: len(against.history) == 2, timeout=20000)  # its untimed first move
        assert against.play_text("Nf3") is None  # the computer's turn, timed: it thinks
        against.hold_clock(True)
        running = against.clock_readings()
        assert running is not None and running.turn == 1 and running.running
    finally:
        against.close()


def test_the_new_game_dialog_and_the_file_dialogs_hold_the_clock(qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtWidgets import QFileDialog

    session = window.start_game("chess", HUMANS, time_control=BLITZ)
    for move in ("e4", "e5"):
        assert session.play_text(move) is None
    readings = session.clock_readings()
    assert readings is not None and readings.running
    seen: list[bool] = []

    def look(*_args: Any) -> Any:
        shown = session.clock_readings()
        assert shown is not None
        seen.append(shown.running)
        return ("", "")

    monkeypatch.setattr(NewGameDialog, "exec", lambda _dialog: look() and NewGameDialog.DialogCode.Rejected)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", look)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", look)
    assert not window.new_game_dialog("chess") and not window.open_file() and not window.save_file_as()
    assert seen == [False, False, False] and window.session is session
    after = session.clock_readings()
    assert after is not None and after.running  # the dialogs closed: White's clock runs again


def test_a_clock_on_a_delay_says_so_and_stands_through_it(qtbot: QtBot, bridge: Any) -> None:
    """Backgammon's tournament clock: the running face reads "delay 7 s" and its time
    stands until the delay is gone, then runs."""
    from gui.clock_view import ClockView

    now = [100.0]
    session = GameSession(bridge, "chess", HUMANS, time_control=TimeControl.parse("5 d12"), clock_now=lambda: now[0])
    view = ClockView()
    try:
        view.attach(session)
        for move in ("e4", "e5", "Nf3", "Nc6"):  # the first two untimed
            now[0] += 1
            assert session.play_text(move) is None
        now[0] += 5
        view.refresh()
        white = view.faces[0]
        assert white.shown.name == "White · Human · delay 7 s" and white.shown.time == "5:00" and white.shown.running
        now[0] += 10  # 15 s into the turn: 3 s past the delay
        view.refresh()
        assert white.shown.name == "White · Human" and white.shown.time == "4:57"
    finally:
        session.close()
