"""Screenshots of what the app offers players: the new-game dialog with each level's measured
rating and the clock row, a chess game on the clock (one clock low on time), a backgammon
match with its score, and a reviewed game (scholar's mate, the blunder marked), light and
dark (offscreen ``grab()``).

    QT_QPA_PLATFORM=offscreen .venv/bin/python -m tools.gui_screens_players [--out DIR] [--only NAME ...]

The default output is ``docs/screens/players-<name>-<theme>.png``, kept in the repository for
the README. Every picture is made through the real window as a player makes it: the dialog as
"New game…" opens it, games started with the dialog's choices, moves played on the session,
the engine's replies searched in the pool.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QPoint, QRect
from PySide6.QtGui import QPainter, QPixmap
from PySide6.QtWidgets import QWidget

from games import GAME_NAMES
from games.clock import TimeControl
from gui.dialogs.new_game import NewGameDialog
from gui.gamefile import read_game
from gui.main_window import MainWindow
from gui.match_session import start_match_scene
from gui.players import COMPUTER, HUMAN, PlayerConfig
from tools.gui_screens import Shot, run
from tools.gui_screens_app import settle, spin

DIALOG_LEVEL = 5
"""The computer's level shown selected in the dialog (its list shows every level's rating)."""
DIALOG_CLOCK = TimeControl.parse("5+3")
CLOCK_GAME = TimeControl.parse("3+2")
CLOCK_LEVEL = 3
CLOCK_OPENING = ("e4", "Nf3", "Bc4", "d3")
"""White's moves before the clock picture (the computer answers each)."""
LOW_TIME = (8.4, 71.0)
"""The clocks in the picture (White, Black): White's under ten seconds, red, with tenths."""
MATCH_LENGTH = 7
MATCH_SCORE = (3, 5)
"""O 3, X 5 in a match to 7: 4-away, 2-away."""
SEARCH_SECONDS = 120
REVIEWED_GAME = """[Event "Casual game"]
[White "Human"]
[Black "Computer (level 2)"]
[Result "1-0"]

1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0
"""
"""Scholar's mate: 3...Nf6?? lets the queen mate at once (3...g6 or 3...Qe7 holds)."""
REVIEW_SECONDS = 300


def new_game_dialog(window: MainWindow) -> QPixmap:
    """The dialog as "New game…" opens it: chess, the human against the computer at a
    level, on a 5+3 clock, with the list of levels open (each with its measured rating and
    interval, or "not measured"): the dialog and the list's own window in one picture."""
    players = {name: (PlayerConfig(kind=HUMAN), PlayerConfig(kind=COMPUTER, level=DIALOG_LEVEL).for_game(name)) for name in GAME_NAMES}
    dialog = NewGameDialog("chess", players, time_controls={"chess": DIALOG_CLOCK}, parent=window)
    dialog.show()
    settle(300)
    levels = dialog.sides[1].level
    levels.showPopup()
    settle(300)
    popup = levels.view().window()
    origin = dialog.mapToGlobal(QPoint(0, 0))
    placed = QRect(popup.mapToGlobal(QPoint(0, 0)) - origin, popup.size())
    area = dialog.rect().united(placed)
    picture = QPixmap(area.size())
    picture.fill(dialog.palette().window().color())
    painter = QPainter(picture)
    painter.drawPixmap(-area.topLeft(), dialog.grab())
    painter.drawPixmap(placed.topLeft() - area.topLeft(), popup.grab())
    painter.end()
    levels.hidePopup()
    dialog.close()
    return picture


def clocks(window: MainWindow) -> QWidget:
    """A chess game on a 3+2 clock against the computer: after a few moves White's clock
    runs with 8.4 s left (red, tenths) and Black's stands at 1:11."""
    computer = PlayerConfig(kind=COMPUTER, level=CLOCK_LEVEL).for_game("chess")
    session = window.start_game("chess", (PlayerConfig(kind=HUMAN), computer), manual_dice=False, paused=False, time_control=CLOCK_GAME)
    for move in CLOCK_OPENING:
        if not spin(lambda: session.can_human_move() and not session.is_thinking, SEARCH_SECONDS):
            raise RuntimeError("the computer did not answer")
        if session.play_text(move) is not None:  # the computer's reply made it illegal: any move
            session.play_move(session.state.legal_moves()[0])
    spin(lambda: session.can_human_move() and not session.is_thinking, SEARCH_SECONDS)
    state = session.clock_state()
    assert state is not None
    state["remaining"] = list(LOW_TIME)
    if session.restore_clock_state(state):
        raise RuntimeError("the clock picture's readings were refused")
    session.set_paused(False)  # the clocks run again
    settle(600)
    return window


def match_score(window: MainWindow) -> QWidget:
    """A backgammon match to 7 at 3-5, the human (X) against the computer, the score above
    the board; the computer paused so the picture stays still."""
    session = start_match_scene(window, length=MATCH_LENGTH, score=MATCH_SCORE)
    session.set_paused(True)
    settle(600)
    return window


def reviewed_game(window: MainWindow) -> QWidget:
    """A finished chess game reviewed (Game → Review game): the marks in the move list and
    on the eval graph, the accuracy per side, the blunder shown with the better move."""
    window.load_record(read_game(REVIEWED_GAME, "pgn"))
    settle(300)
    if not window.review_game():
        raise RuntimeError("the review did not start")
    reviews = window.reviews
    if not spin(lambda: reviews.review is not None, REVIEW_SECONDS):
        raise RuntimeError(f"the review did not finish in {REVIEW_SECONDS} s")
    settle(300)
    reviews.step_mistake(step=-1)  # from the end back to the blunder
    settle(600)
    return window


SHOTS: tuple[Shot, ...] = (
    Shot("new-game", new_game_dialog),
    Shot("clocks", clocks),
    Shot("match", match_score),
    Shot("review", reviewed_game),
)


def show_engine_tab(window: MainWindow) -> None:
    """Each scene starts on the engine's tab, not the tab the last scene left open."""
    window.engine_tabs.setCurrentWidget(window.engine_panel)


def main() -> int:
    return run(SHOTS, "players", __doc__.splitlines()[0], before_each=show_engine_tab)


if __name__ == "__main__":
    sys.exit(main())
