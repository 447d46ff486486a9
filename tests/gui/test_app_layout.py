"""The board has priority in a small window: at 900×600 the game's column (players, moves,
controls) becomes a tab of the engine dock and the board takes most of the width; in a large
window everything stands side by side."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from games import GAME_NAMES
from gui.main_window import MainWindow
from gui.players import HUMAN, PlayerConfig

HUMANS = (PlayerConfig(kind=HUMAN), PlayerConfig(kind=HUMAN))
SMALL_WINDOW_BOARD_SHARE = 0.55
"""At 900×600 the board is at least this share of the window's width (the side panels give way first)."""
LARGE_WINDOW_BOARD_SHARE = 0.4


def sized(qtbot: QtBot, window: MainWindow, width: int, height: int) -> None:
    window.resize(width, height)
    qtbot.waitUntil(lambda: window.size().toTuple() == (width, height))
    board = window.game_view.board
    qtbot.waitUntil(lambda: board.width() > 0 and board.geometry().right() <= window.game_view.board_area.width())


@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_board_takes_most_of_a_small_window(qtbot: QtBot, window: MainWindow, game: str) -> None:
    window.start_game(game, HUMANS, manual_dice=False)
    sized(qtbot, window, 900, 600)
    board = window.game_view.board
    qtbot.waitUntil(lambda: board.width() >= SMALL_WINDOW_BOARD_SHARE * window.width(), timeout=2_000)
    assert board.width() >= board.minimumSizeHint().width() and board.height() >= board.minimumSizeHint().height()
    assert window.is_compact() and not window.game_view.has_side_column()
    assert window.engine_tabs.tabText(0) == "Game" and window.engine_tabs.currentIndex() == 0


def test_the_game_column_works_as_a_tab_and_comes_back(qtbot: QtBot, window: MainWindow) -> None:
    session = window.start_game("chess", HUMANS)
    sized(qtbot, window, 900, 600)
    box = window.game_view.moves.box
    qtbot.waitUntil(box.isVisible)
    qtbot.keyClicks(box, "e4")
    qtbot.keyClick(box, Qt.Key.Key_Return)
    assert session.move_names() == ["e4"]
    window.engine_dock.close()  # no dock: the column stands beside the board again
    qtbot.waitUntil(window.game_view.has_side_column)
    assert window.game_view.side_column.isVisible() and not window.is_compact()
    window.engine_dock.show()
    qtbot.waitUntil(window.is_compact)
    sized(qtbot, window, 1600, 1000)
    assert window.game_view.has_side_column() and window.game_view.side_column.isVisible()
    assert window.engine_tabs.indexOf(window.game_view.side_column) < 0
    board = window.game_view.board
    qtbot.waitUntil(lambda: board.width() >= LARGE_WINDOW_BOARD_SHARE * window.width(), timeout=2_000)
    window.show_start_page()
    sized_start = window.size().toTuple()
    assert sized_start == (1600, 1000) and window.game_view.has_side_column()


def test_the_start_page_fits_a_900_by_600_window(qtbot: QtBot, window: MainWindow) -> None:
    window.show_start_page()
    window.resize(900, 600)
    qtbot.waitUntil(lambda: window.start_page.isVisible())
    assert window.minimumSizeHint().height() <= 600 and window.minimumSizeHint().width() <= 900
    qtbot.waitUntil(lambda: window.size().toTuple() == (900, 600))
    for card in window.start_page.cards.values():  # every card whole inside the page
        corner = card.mapTo(window.start_page, card.rect().bottomRight())
        assert window.start_page.rect().contains(corner), card.game
