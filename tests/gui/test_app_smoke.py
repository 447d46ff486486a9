"""The launch command works: the app's window opens and shows the games."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from games import GAME_NAMES
from gui.app import PlaceholderWindow


def test_window_opens_and_lists_games(qtbot: QtBot) -> None:
    window = PlaceholderWindow()
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    texts = " ".join(label.text() for label in window.findChildren(QLabel))
    for name in GAME_NAMES:
        assert name in texts
    assert "unavailable" not in texts
    image = window.grab().toImage()
    assert image.width() > 100 and image.height() > 100
