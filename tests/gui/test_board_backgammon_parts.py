"""The backgammon board's parts on their own: the geometry's points and hit tests agree in
both orientations, the middle row keeps the dice still when the undo button appears, the
dice picker turns picks into the state's chance outcomes, and a turn is entered by picking
up, dropping and dragging checkers."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QPointF

from games.backgammon.board import BAR, OFF, O, X
from games.backgammon.state import BackgammonState
from gui.boards.backgammon.dice_picker import DicePicker, RollWanted
from gui.boards.backgammon.layout import BOARD_HEIGHT, BOARD_WIDTH, BoardGeometry, BoardView, middle_row
from gui.boards.backgammon.turn_entry import TurnEntry

SIZES = ((760, 625), (338, 278), (1400, 700))
"""A usual board, the minimum size and a wide window (the board centred, bands kept)."""
OPENING = RollWanted(opening=True, names=("Olga", "Xavier"), roller=O)
AFTER_OPENING = RollWanted(opening=False, names=("O", "X"), roller=X)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("bottom", [O, X])
def test_a_click_where_a_point_is_drawn_points_at_that_point(size: tuple[int, int], bottom: int) -> None:
    view = BoardView(BoardGeometry(*size), bottom)
    for mover in (O, X):
        for point in (*range(1, BAR), BAR, OFF):
            assert view.location(mover, view.point_position(mover, point)) == point, (mover, point)
    for point in range(1, BAR):
        assert view.screen_point(O, point) + view.screen_point(X, point) == BAR  # one point, two numberings


def test_the_board_keeps_its_proportions() -> None:
    geometry = BoardGeometry(BOARD_WIDTH * 40, BOARD_HEIGHT * 40)
    assert geometry.unit == pytest.approx(40)
    assert geometry.frame_rect.width() == pytest.approx(BOARD_WIDTH * 40)
    assert geometry.bar.left() == pytest.approx(geometry.left_field.right())
    assert geometry.right_field.left() == pytest.approx(geometry.bar.right())


def test_the_dice_stay_where_they_are_when_the_undo_button_appears() -> None:
    geometry = BoardGeometry(760, 625)
    buttons = [("confirm", "Done", 40.0)]
    dice_before, buttons_before = middle_row(geometry, True, 2, buttons, None, True)
    dice_after, buttons_after = middle_row(geometry, True, 2, buttons, "undo", True)
    assert dice_before == dice_after and buttons_after[:-1] == buttons_before
    assert buttons_after[-1].key == "undo" and buttons_after[-1].rect.right() <= geometry.right_field.right()
    doubles, _ = middle_row(geometry, False, 4, [], None, False)
    assert len(doubles) == 4 and all(geometry.left_field.contains(rect) for rect in doubles)


def test_the_picker_gives_the_higher_die_first_after_the_opening() -> None:
    picker = DicePicker()
    picker.open()
    assert picker.pick(0, 3, AFTER_OPENING) is None and picker.is_open()
    assert picker.pick(1, 5, AFTER_OPENING) == (5, 3)
    assert not picker.is_open()


def test_the_picker_gives_the_opening_roll_as_o_and_x_threw_it_and_refuses_equal_dice() -> None:
    picker = DicePicker()
    picker.open()
    assert picker.type_face(2, OPENING) is None
    assert picker.type_face(2, OPENING) is None and picker.is_open()  # equal dice are thrown again
    assert picker.type_face(6, OPENING) == (2, 6)
    assert (2, 6) in [outcome for outcome, _ in BackgammonState.initial().chance_outcomes()]
    assert DicePicker.labels(OPENING) == ("Olga's die", "Xavier's die")


def test_the_picker_closes_on_a_click_outside_it_and_picks_the_die_under_a_click(qapp: Any) -> None:
    """(The layout measures its labels: fonts need the application.)"""
    geometry = BoardGeometry(760, 625)
    picker = DicePicker()
    picker.open()
    layout = picker.layout(geometry, AFTER_OPENING)
    assert geometry.frame_rect.contains(layout.panel)
    assert picker.is_clickable(geometry, AFTER_OPENING, layout.close.center())
    assert picker.click(geometry, AFTER_OPENING, layout.rows[0][5].center()) is None
    assert picker.click(geometry, AFTER_OPENING, picker.die_position(geometry, AFTER_OPENING, 1, 6)) == (6, 6)
    picker.open()
    assert picker.click(geometry, AFTER_OPENING, QPointF(1, 1)) is None and not picker.is_open()


def test_a_turn_is_entered_by_picking_up_and_dropping_checkers() -> None:
    state = BackgammonState.from_points({24: 2, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5}, dice=(3, 1))
    entry = TurnEntry(state)
    somewhere = QPointF(10, 10)
    assert entry.press(8, somewhere) is None and entry.selected == 8 and entry.targets() == [4, 5, 7]
    assert entry.press(8, somewhere) is None and entry.selected is None  # a second press puts it down
    assert entry.press(2, somewhere) is None and entry.selected is None  # no checker there
    entry.press(8, somewhere)
    assert entry.press(5, somewhere) == 5  # a destination: the caller steps
    entry.step_to(5)
    assert entry.hops == ((8, 5),) and entry.selected is None and entry.drag_start is None
    entry.press(6, somewhere)
    entry.step_to(5)
    assert entry.complete_play() == ((8, 5), (6, 5)) and entry.complete_play() in state.legal_moves()
    assert entry.undo_step() and entry.hops == ((8, 5),) and entry.complete_play() is None


def test_a_checker_is_dragged_only_once_the_pointer_has_gone_far_enough() -> None:
    state = BackgammonState.from_points({24: 2, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5}, dice=(3, 1))
    entry = TurnEntry(state)
    entry.press(13, QPointF(100, 100))
    assert entry.is_pressed()
    assert not entry.drag(QPointF(103, 100), threshold=5) and entry.drag_position is None
    assert entry.drag(QPointF(106, 100), threshold=5) and entry.drag_position == QPointF(106, 100)
    assert entry.drag(QPointF(101, 100), threshold=5)  # once dragging, it follows the pointer
    assert entry.release() == QPointF(100, 100) and not entry.is_pressed() and entry.selected == 13
