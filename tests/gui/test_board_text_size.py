"""Every text a board paints is readable at the sizes the app gives it, and grows with it.

Coordinates, square and point numbers, pip counts, stack counts, the cube, the dice picker
and the buttons are recorded as they are painted (every ``QPainter.drawText`` call with its
font's pixel size) at a small window's board (about 280 px, what a 900×600 window leaves)
and at a large one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QFontInfo, QFontMetricsF, QPainter
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

from games import GameState, new_game
from games.backgammon.state import BackgammonState
from gui.boards import board_for
from gui.boards.backgammon import BackgammonBoard
from gui.boards.base import BoardWidget
from gui.resources import load_fonts

READABLE_PIXELS = 11
"""The smallest text a person reads without effort on a desktop screen (most platform
guidelines put their smallest type at 11-12 px)."""
SMALL_SIZES = ((280, 280), (300, 240), (240, 300), (338, 278))
LARGE_SIZE = (1000, 860)


OVERFLOWS: list[tuple[str, float, float]] = []
"""(text, its width, the width of the box it was drawn in) for text wider than its box."""
OVERLAPS: list[tuple[str, str]] = []
"""Texts painted over each other in one picture."""
PLACED: list[tuple[str, QRectF]] = []
"""Where each text drawn into a box really is (its own width, placed as its alignment says)."""


@contextmanager
def recorded_text() -> Iterator[list[tuple[int, str]]]:
    """(pixel size, text) of every non-empty text painted while the block runs; text drawn
    into a box wider than the box goes to ``OVERFLOWS``."""
    seen: list[tuple[int, str]] = []
    original = QPainter.drawText

    def recording(painter: QPainter, *args: object) -> object:
        text = next((arg for arg in args if isinstance(arg, str)), "")
        if text.strip():
            seen.append((QFontInfo(painter.font()).pixelSize(), text))
            box = args[0]
            if isinstance(box, QRectF):
                width = QFontMetricsF(painter.font()).horizontalAdvance(text)
                if width > box.width() + 0.5:
                    OVERFLOWS.append((text, width, box.width()))
                PLACED.append((text, placed(box, args[1], width, QFontMetricsF(painter.font()).height())))
        return original(painter, *args)  # type: ignore[call-overload]

    QPainter.drawText = recording  # type: ignore[assignment,method-assign]
    try:
        yield seen
    finally:
        QPainter.drawText = original  # type: ignore[method-assign]


def placed(box: QRectF, flags: object, width: float, height: float) -> QRectF:
    """The rectangle text of ``width`` x ``height`` takes in ``box`` under ``flags``."""
    alignment = Qt.AlignmentFlag(int(flags))  # type: ignore[call-overload]
    if alignment & Qt.AlignmentFlag.AlignRight:
        left = box.right() - width
    elif alignment & Qt.AlignmentFlag.AlignLeft:
        left = box.left()
    else:
        left = box.center().x() - width / 2
    top = box.center().y() - height / 2 if alignment & Qt.AlignmentFlag.AlignVCenter else box.top()
    return QRectF(left, top, width, height)


def overlapping(texts: list[tuple[str, QRectF]]) -> list[tuple[str, str]]:
    """Pairs of texts painted over each other (more than a pixel across)."""
    found = []
    for index, (text, rect) in enumerate(texts):
        for other, other_rect in texts[index + 1 :]:
            shared = rect.intersected(other_rect)
            if shared.width() > 1 and shared.height() > 1:
                found.append((text, other))
    return found


def make_board(qtbot: QtBot, game: str) -> BoardWidget:
    load_fonts()
    board = board_for(game)()
    assert isinstance(board, BoardWidget)
    qtbot.addWidget(board)
    board.show()
    qtbot.waitExposed(board)
    return board


def tall_stack_position() -> BackgammonState:
    """A position with checkers to play and a stack of more than five (its count is text)."""
    state = BackgammonState.initial(cube_enabled=False)
    state.play((1, 3))
    while True:
        plays = state.legal_moves()
        state.play(max(plays, key=lambda play: sum(1 for _, target in play if target == 6)))
        state.play((2, 2))
        if max(state.boards[state.player][1:25]) > 5:
            return state


def long_status_position() -> tuple[BackgammonState, tuple[tuple[int, int], ...]]:
    """X to play 6-6 early in a game, and the four steps of 24/18(2) 13/7(2)."""
    state = BackgammonState.initial(cube_enabled=False)
    state.play((1, 3))
    state.play(state.parse_move("8/5 6/5"))
    state.play((6, 5))
    state.play(state.legal_moves()[0])
    state.play((6, 6))
    return state, ((24, 18), (24, 18), (13, 7), (13, 7))


def enter_steps(board: BackgammonBoard, steps: tuple[tuple[int, int], ...]) -> None:
    """Click the steps in, as a person does (the last one stays out: the turn is not sent)."""
    mover = board.state().player  # type: ignore[union-attr]
    for source, target in steps[:-1]:
        for point in (source, target):
            QTest.mouseClick(board, Qt.MouseButton.LeftButton, pos=board.point_position(mover, point).toPoint())


def open_picker(board: BackgammonBoard) -> None:
    board.set_dice_entry(True)
    assert board.open_dice_picker()


def backgammon_states() -> list[tuple[GameState, Callable[[BackgammonBoard], object] | None]]:
    opening = BackgammonState.initial()
    opening.play((1, 3))  # X to play 3-1: dice and the status line
    cube = opening.copy()
    cube.play(cube.parse_move("8/5 6/5"))  # O at the cube decision: Double / Roll buttons
    rolling = BackgammonState.initial()  # the dice picker, with its labels
    long_status, steps = long_status_position()
    return [
        (opening, None),
        (cube, None),
        (tall_stack_position(), None),
        (rolling, open_picker),
        (long_status, lambda board: enter_steps(board, steps)),
    ]


def states_for(game: str) -> list[tuple[GameState, Callable[[BackgammonBoard], object] | None]]:
    if game == "backgammon":
        return backgammon_states()
    return [(new_game(game), None)]


def painted_sizes(qtbot: QtBot, game: str, width: int, height: int) -> list[tuple[int, str]]:
    board = make_board(qtbot, game)
    board.resize(width, height)
    found: list[tuple[int, str]] = []
    for state, prepare in states_for(game):
        board.set_state(state)
        if prepare is not None:
            prepare(board)  # type: ignore[arg-type]
        PLACED.clear()
        with recorded_text() as seen:
            assert not board.grab().isNull()
        found.extend(seen)
        OVERLAPS.extend(overlapping(PLACED))
    return found


@pytest.mark.parametrize("game", ["backgammon", "checkers", "chess", "othello", "tictactoe"])
def test_no_board_text_is_smaller_than_readable_or_wider_than_its_place(qtbot: QtBot, game: str) -> None:
    OVERFLOWS.clear()
    OVERLAPS.clear()
    smallest = board_for(game)().minimumSizeHint()  # the least the layout should give the board
    for width, height in (*SMALL_SIZES, (smallest.width(), smallest.height())):
        sizes = painted_sizes(qtbot, game, width, height)
        if (width, height) == SMALL_SIZES[0]:  # smaller still, a board may leave an aid out
            assert sizes, f"{game} painted no text at {width}x{height}"
        small = sorted({(size, text) for size, text in sizes if size < READABLE_PIXELS})
        assert not small, f"{game} at {width}x{height}: {small[:8]}"
    assert not OVERFLOWS, f"{game}: text wider than its place: {OVERFLOWS[:8]}"
    assert not OVERLAPS, f"{game}: texts painted over each other: {OVERLAPS[:8]}"


@pytest.mark.parametrize("game", ["backgammon", "checkers", "chess", "othello", "tictactoe"])
def test_board_text_grows_with_the_board(qtbot: QtBot, game: str) -> None:
    small = painted_sizes(qtbot, game, *SMALL_SIZES[0])
    large = painted_sizes(qtbot, game, *LARGE_SIZE)
    assert min(size for size, _ in large) > min(size for size, _ in small)
    assert max(size for size, _ in large) > 1.5 * max(size for size, _ in small)


COUNTABLE_DIE_PIXELS = 16
"""A die whose pips a person counts at a glance (its pips are then about 3 px across)."""


def test_backgammon_dice_stay_countable_on_a_small_board(qtbot: QtBot) -> None:
    board = make_board(qtbot, "backgammon")
    assert isinstance(board, BackgammonBoard)
    doubles, _ = long_status_position()  # four dice and the undo button in one half
    for state in (doubles, backgammon_states()[0][0]):
        board.set_state(state)
        for width, height in SMALL_SIZES:
            board.resize(width, height)
            rects = board.dice_rects()
            assert rects and min(rect.width() for rect in rects) >= COUNTABLE_DIE_PIXELS, (width, height)
            assert all(a.right() <= b.left() for a, b in zip(rects, rects[1:]))  # side by side, apart
    board.set_dice_entry(True)
    board.set_state(BackgammonState.initial())
    assert board.open_dice_picker()  # the picker's dice too: one face to the next is a die and a gap
    first, second = board.picker_die_position(0, 1), board.picker_die_position(0, 2)
    assert first is not None and second is not None
    assert second.x() - first.x() > COUNTABLE_DIE_PIXELS
