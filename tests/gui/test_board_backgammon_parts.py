"""The backgammon board's parts on their own: the geometry's points and hit tests agree in
both orientations, the middle row keeps the dice still when the undo button appears, and
the dice picker turns picks into the state's chance outcomes."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QPointF

from games.backgammon.board import BAR, OFF, O, X
from games.backgammon.state import BackgammonState
from gui.boards.backgammon.dice_picker import DicePicker, RollWanted
from gui.boards.backgammon.layout import BOARD_HEIGHT, BOARD_WIDTH, BoardGeometry, BoardView, middle_row

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
