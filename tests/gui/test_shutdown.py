"""Closing the window during a search stops it and leaves no engine process behind."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

from pytestqt.qtbot import QtBot

from gui.main_window import MainWindow
from gui.players import COMPUTER, HUMAN, PlayerConfig


def test_closing_the_window_during_a_search_leaves_no_process(qtbot: QtBot, data_directory: Path) -> None:
    assert multiprocessing.active_children() == []
    window = MainWindow(data_directory=data_directory, offer_resume=False, workers=2)
    qtbot.addWidget(window)
    window.show()
    slow = PlayerConfig(kind=COMPUTER, strength="time", seconds=60.0)
    session = window.start_game("chess", (slow, PlayerConfig(kind=HUMAN)))
    qtbot.waitUntil(lambda: session.is_thinking and window.bridge.is_searching, timeout=10_000)
    qtbot.waitUntil(lambda: len(multiprocessing.active_children()) >= 2, timeout=10_000)  # the pool's workers
    window.close()
    assert not session.is_thinking
    assert multiprocessing.active_children() == []


def test_a_new_game_during_a_search_then_closing_leaves_nothing(qtbot: QtBot, data_directory: Path) -> None:
    window = MainWindow(data_directory=data_directory, offer_resume=False, workers=1)
    qtbot.addWidget(window)
    window.show()
    slow = PlayerConfig(kind=COMPUTER, strength="time", seconds=60.0)
    first = window.start_game("othello", (slow, PlayerConfig(kind=HUMAN)))
    qtbot.waitUntil(lambda: first.is_thinking, timeout=10_000)
    second = window.start_game("checkers", (PlayerConfig(kind=HUMAN), PlayerConfig(kind=HUMAN)))
    assert not first.is_thinking and not window.bridge.is_searching and second.history == []
    window.shutdown()
    window.shutdown()  # idempotent
    assert multiprocessing.active_children() == []
