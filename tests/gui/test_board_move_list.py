"""The app's move list names backgammon plays in the numbers its board draws.

With O at the bottom the board's labels are O's, so X's 8/5 6/5 reads 17/20 19/20 in the move
list and the eval graph (what files and gnubg get is unchanged); a roll waiting to be played
stands in the column of the player who rolled it; turning the board renames the moves.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pytestqt.qtbot import QtBot

from games.backgammon.state import O, X
from gui.boards.backgammon import BackgammonBoard
from gui.main_window import MainWindow
from gui.players import HUMAN, PlayerConfig


def sheet_text(window: MainWindow, row: int, column: int) -> str:
    item = window.game_view.moves.moves.item(row, column)
    return "" if item is None else item.text()


def test_the_move_list_writes_plays_and_rolls_as_the_board_shows_them(
    qtbot: QtBot, bridge: Any, data_directory: Path
) -> None:
    window = MainWindow(bridge=bridge, data_directory=data_directory, offer_resume=False, seed=3)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    try:
        humans = (PlayerConfig(kind=HUMAN), PlayerConfig(kind=HUMAN))
        session = window.start_game("backgammon", humans, manual_dice=True)
        board = window.game_view.board
        assert isinstance(board, BackgammonBoard) and board.bottom_player() == O  # O's numbers drawn
        assert session.play_text("X 3-1") is None  # X starts: its roll waits in X's column
        assert sheet_text(window, 0, X) == "3-1:" and sheet_text(window, 0, O) == ""
        assert session.play_text("8/5 6/5") is None  # X's own numbering, as typed
        assert sheet_text(window, 0, X) == "3-1: 17/20 19/20"  # the points labelled 17, 19 and 20
        assert window.game_view.move_names()[-1] == "17/20 19/20"
        assert session.move_names()[-1] == "8/5 6/5"  # files and gnubg keep the mover's numbering
        window.game_view.flip()  # X at the bottom: X's numbers drawn
        assert sheet_text(window, 0, X) == "3-1: 8/5 6/5"
    finally:
        window.shutdown()


def test_a_game_set_up_mid_way_is_numbered_from_its_own_move_number(qtbot: QtBot, window: Any) -> None:
    """A game from a FEN at move 80 was written as moves 1 and 2; the sheet and "Looking
    at move N" now count from 80, as the PGN does."""
    humans = (PlayerConfig(kind=HUMAN), PlayerConfig(kind=HUMAN))
    window.start_game("chess", humans, start="4k3/8/8/8/8/8/4P3/4K3 w - - 0 80")
    session = window.session
    for name in ("Kd1", "Kd8", "e4"):
        assert session.play_text(name) is None
    sheet = window.game_view.moves.moves
    assert [sheet.verticalHeaderItem(row).text() for row in range(sheet.rowCount())] == ["80", "81"]  # type: ignore[union-attr]
    assert "move 81 of 81" in window.game_view._viewing_text(3)
    window.start_game("chess", humans)
    assert session is not window.session and window.game_view.moves.moves.first_number == 1
