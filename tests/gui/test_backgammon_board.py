"""The backgammon board: turns entered by clicks become legal plays; cube, dice entry, flip.

Every test drives the widget with simulated mouse clicks on the places the board says it
draws things (``point_position``, ``button_position``), checks where those places are on
screen where it matters (flip), and checks each emitted move against ``legal_moves()``.
"""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import QPointF, Qt
from pytestqt.qtbot import QtBot

from games.backgammon.board import BAR, NO_MOVE, OFF, Play
from games.backgammon.notation import DOUBLE, DROP, NO_DOUBLE, TAKE
from games.backgammon.state import (
    CHECKER_PLAY,
    CUBE_DECISION,
    ROLL,
    TAKE_DECISION,
    BackgammonState,
    O,
    X,
)
from games.base import CHANCE
from gui.boards.backgammon import ENTER_DICE_KEY, UNDO_KEY, BackgammonBoard

SIGNAL_TIMEOUT_MS = 1000


@pytest.fixture
def board(qtbot: QtBot) -> BackgammonBoard:
    widget = BackgammonBoard()
    qtbot.addWidget(widget)
    widget.resize(760, 625)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def click(qtbot: QtBot, board: BackgammonBoard, where: QPointF | None, button: Qt.MouseButton = Qt.MouseButton.LeftButton) -> None:
    assert where is not None, "the board does not show that place"
    qtbot.mouseClick(board, button, pos=where.toPoint())


def click_point(qtbot: QtBot, board: BackgammonBoard, player: int, point: int) -> None:
    click(qtbot, board, board.point_position(player, point))


def play_by_clicks(qtbot: QtBot, board: BackgammonBoard, play: Play) -> object:
    """Enter ``play`` hop by hop (checker, then destination); return what the board emitted."""
    mover = board.state().player
    assert play, "the empty play is a button, not clicks"
    for source, target in play[:-1]:
        click_point(qtbot, board, mover, source)
        assert target in board.targets(), (source, target, board.targets())
        click_point(qtbot, board, mover, target)
    source, target = play[-1]
    click_point(qtbot, board, mover, source)
    with qtbot.waitSignal(board.move_requested, timeout=SIGNAL_TIMEOUT_MS) as emitted:
        click_point(qtbot, board, mover, target)
    return emitted.args[0]


def roll(state: BackgammonState, rng: random.Random) -> None:
    outcomes = state.chance_outcomes()
    state.play(rng.choices([outcome for outcome, _ in outcomes], [p for _, p in outcomes])[0])


@pytest.mark.parametrize(("human", "seed"), [(X, 20261124), (O, 3)])
def test_a_whole_game_by_clicks_against_a_first_move_opponent(
    qtbot: QtBot, board: BackgammonBoard, human: int, seed: int
) -> None:
    """The human side's every decision is clicked (O from a flipped board); the opponent
    doubles once and otherwise plays its first legal move; the app rolls seeded dice."""
    rng = random.Random(seed)
    state = BackgammonState.initial()
    board.set_flipped(human == O)
    seen = {"bar entry": False, "bear off": False, "hit": False, "cube": False, "take": False}
    turns = 0
    while not state.is_terminal():
        mover = state.to_move()
        if mover == CHANCE:
            roll(state, rng)
            continue
        if mover != human:
            opponent_doubles = state.phase == CUBE_DECISION and state.cube_value == 1
            state.play(DOUBLE if opponent_doubles else state.legal_moves()[0])
            continue
        board.set_state(state)
        legal = state.legal_moves()
        if state.phase == CUBE_DECISION:
            seen["cube"] = True
            with qtbot.waitSignal(board.move_requested, timeout=SIGNAL_TIMEOUT_MS) as emitted:
                click(qtbot, board, board.button_position(NO_DOUBLE))
            move = emitted.args[0]
        elif state.phase == TAKE_DECISION:
            seen["take"] = True
            with qtbot.waitSignal(board.move_requested, timeout=SIGNAL_TIMEOUT_MS) as emitted:
                click(qtbot, board, board.button_position(TAKE))
            move = emitted.args[0]
        elif legal == [NO_MOVE]:
            assert board.no_move_play() == NO_MOVE
            with qtbot.waitSignal(board.move_requested, timeout=SIGNAL_TIMEOUT_MS) as emitted:
                click(qtbot, board, board.button_position(NO_MOVE))
            move = emitted.args[0]
        else:
            assert state.phase == CHECKER_PLAY and board.no_move_play() is None
            chosen = rng.choice(legal)
            seen["bar entry"] |= chosen[0][0] == BAR
            seen["bear off"] |= any(target == OFF for _, target in chosen)
            seen["hit"] |= state.capture_score(chosen) > 0
            move = play_by_clicks(qtbot, board, chosen)
            assert move == chosen
            turns += 1
        assert move in legal
        state.play(move)
    assert turns > 10
    assert state.cube_value == 2 and state.points >= 2
    assert all(seen.values()), seen


def test_steps_are_taken_back_by_method_right_click_button_and_backspace(qtbot: QtBot, board: BackgammonBoard) -> None:
    state = BackgammonState.initial()
    state.play((1, 3))  # X threw the 3: X opens with 3-1
    board.set_state(state)
    partials: list[object] = []
    board.partial_turn_changed.connect(partials.append)

    click_point(qtbot, board, X, 8)
    assert board.selected_source() == 8
    assert board.targets() == [4, 5, 7]  # by the 1, the 3, and both dice
    click_point(qtbot, board, X, 5)
    assert board.partial_turn() == ((8, 5),)
    assert board.undo_step()
    assert board.partial_turn() == () and partials[-1] == ()
    assert not board.undo_step()

    click_point(qtbot, board, X, 8)
    click_point(qtbot, board, X, 5)
    click(qtbot, board, board.point_position(X, 13), Qt.MouseButton.RightButton)
    assert board.partial_turn() == ()

    click_point(qtbot, board, X, 8)
    click_point(qtbot, board, X, 5)
    click(qtbot, board, board.button_position(UNDO_KEY))
    assert board.partial_turn() == ()
    assert board.button_position(UNDO_KEY) is None

    click_point(qtbot, board, X, 6)
    click_point(qtbot, board, X, 5)
    qtbot.keyClick(board, Qt.Key.Key_Backspace)
    assert board.partial_turn() == ()

    # after the take-backs the turn still completes into the legal play
    assert play_by_clicks(qtbot, board, ((8, 5), (6, 5))) == state.parse_move("8/5 6/5")


def test_a_checker_on_the_bar_must_enter_first(qtbot: QtBot, board: BackgammonBoard) -> None:
    state = BackgammonState.from_points(
        {25: 1, 24: 1, 13: 5, 8: 3, 6: 5},
        {24: 2, 13: 5, 8: 3, 6: 3, 5: 2},  # O holds its 5 and 6: X's 20 and 19
        player=X,
        dice=(6, 3),
    )
    board.set_state(state)
    click_point(qtbot, board, X, 13)
    assert board.selected_source() is None, "nothing moves while a checker is on the bar"
    click_point(qtbot, board, X, BAR)
    assert board.selected_source() == BAR
    assert 19 not in board.targets() and 22 in board.targets()
    click_point(qtbot, board, X, 22)
    assert board.partial_turn() == ((BAR, 22),)
    move = play_by_clicks(qtbot, board, ((13, 7),))
    assert move == state.parse_move("bar/22 13/7") and move in state.legal_moves()


def test_bearing_off_by_clicking_the_tray(qtbot: QtBot, board: BackgammonBoard) -> None:
    state = BackgammonState.from_points(
        {6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2}, {18: 2, 13: 5, 8: 3, 6: 5}, player=X, dice=(6, 2)
    )
    board.set_state(state)
    click_point(qtbot, board, X, 6)
    assert OFF in board.targets()
    click_point(qtbot, board, X, OFF)
    assert board.partial_turn() == ((6, OFF),)
    move = play_by_clicks(qtbot, board, ((2, OFF),))
    assert move == state.parse_move("6/off 2/off") and move in state.legal_moves()


def test_only_the_larger_die_is_offered_when_one_die_can_be_played(qtbot: QtBot, board: BackgammonBoard) -> None:
    # X's only movable checker is on 13 (the others wait on the ace point until it is home).
    # 6-5: 13/7 or 13/8, but then 7/2 or 8/2 is blocked by O's point on X's 2: one die only,
    # and the rules say the larger.
    state = BackgammonState.from_points(
        {13: 1, 1: 14}, {23: 2, 1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 3}, player=X, dice=(6, 5)
    )
    assert state.legal_moves() == [((13, 7),)]
    board.set_state(state)
    click_point(qtbot, board, X, 13)
    assert board.targets() == [7]
    with qtbot.waitSignal(board.move_requested, timeout=SIGNAL_TIMEOUT_MS) as emitted:
        click_point(qtbot, board, X, 7)
    assert emitted.args[0] == ((13, 7),)


def test_forced_no_move_is_exposed_and_offered_as_a_button(qtbot: QtBot, board: BackgammonBoard) -> None:
    state = BackgammonState.from_points(
        {25: 1, 13: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}, player=X, dice=(6, 5)
    )
    assert state.legal_moves() == [NO_MOVE]
    board.set_state(state)
    assert board.no_move_play() == NO_MOVE
    with qtbot.waitSignal(board.move_requested, timeout=SIGNAL_TIMEOUT_MS) as emitted:
        click(qtbot, board, board.button_position(NO_MOVE))
    assert emitted.args[0] == NO_MOVE


def test_one_click_moves_a_checker_by_both_dice_without_hitting_on_the_way(qtbot: QtBot, board: BackgammonBoard) -> None:
    state = BackgammonState.from_points(
        {13: 5, 8: 3, 6: 5, 24: 2}, {18: 1, 13: 5, 8: 3, 6: 5, 24: 1}, player=X, dice=(6, 2)
    )  # O's blot on its 18 is X's 7
    board.set_state(state)
    click_point(qtbot, board, X, 13)
    assert 5 in board.targets()
    with qtbot.waitSignal(board.move_requested, timeout=SIGNAL_TIMEOUT_MS) as emitted:
        click_point(qtbot, board, X, 5)
    assert emitted.args[0] == state.parse_move("13/11/5")
    # two clicks through the blot hit it
    board.set_state(state)
    assert play_by_clicks(qtbot, board, ((13, 7), (7, 5))) == state.parse_move("13/7*/5")


def test_cube_offer_take_and_drop_by_buttons(qtbot: QtBot, board: BackgammonBoard) -> None:
    state = BackgammonState.from_points({13: 5, 8: 3, 6: 5, 24: 2}, {13: 5, 8: 3, 6: 5, 24: 2}, player=X)
    assert state.phase == CUBE_DECISION
    board.set_state(state)
    assert board.cube_actions() == [NO_DOUBLE, DOUBLE]
    with qtbot.waitSignal(board.move_requested, timeout=SIGNAL_TIMEOUT_MS) as emitted:
        click(qtbot, board, board.button_position(DOUBLE))
    assert emitted.args[0] == DOUBLE
    state.play(DOUBLE)
    assert state.phase == TAKE_DECISION

    board.set_state(state)  # O answers
    assert board.button_position(DOUBLE) is None
    with qtbot.waitSignal(board.move_requested, timeout=SIGNAL_TIMEOUT_MS) as emitted:
        click(qtbot, board, board.button_position(TAKE))
    assert emitted.args[0] == TAKE
    with qtbot.waitSignal(board.move_requested, timeout=SIGNAL_TIMEOUT_MS) as emitted:
        click(qtbot, board, board.button_position(DROP))
    assert emitted.args[0] == DROP
    taken = state.result(TAKE)
    assert (taken.cube_value, taken.cube_owner) == (2, O)


def test_nothing_is_taken_while_not_interactive(qtbot: QtBot, board: BackgammonBoard) -> None:
    state = BackgammonState.from_points({13: 5, 8: 3, 6: 5, 24: 2}, {13: 5, 8: 3, 6: 5, 24: 2}, player=X)
    board.set_state(state)
    board.set_interactive(False)
    assert board.button_position(DOUBLE) is None
    emitted: list[object] = []
    board.move_requested.connect(emitted.append)
    state.play(NO_DOUBLE)
    state.play((6, 5))
    board.set_state(state)
    click_point(qtbot, board, X, 24)
    assert board.selected_source() is None and emitted == []


def test_flip_puts_o_at_the_bottom_and_maps_clicks_to_o_points(qtbot: QtBot, board: BackgammonBoard) -> None:
    state = BackgammonState.initial()
    state.play((3, 1))  # O threw the 3: O opens with 3-1
    board.set_state(state)
    width, height = board.width(), board.height()
    x_ace = board.point_position(X, 1)
    assert x_ace.x() > 0.75 * width and x_ace.y() > 0.5 * height, "X's ace point is bottom right"

    board.set_flipped(True)
    o_ace, x_ace = board.point_position(O, 1), board.point_position(X, 1)
    assert o_ace.x() > 0.75 * width and o_ace.y() > 0.5 * height, "flipped: O's ace point is bottom right"
    assert x_ace.x() > 0.75 * width and x_ace.y() < 0.5 * height, "flipped: X's ace point is top right"
    o_eight = board.point_position(O, 8)
    assert o_eight.x() < 0.5 * width and o_eight.y() > 0.5 * height

    # the pixel of X's 8 before the flip is O's 8 after it; X's 8 went to the top
    board.set_flipped(False)
    bottom_left = board.point_position(X, 8)
    board.set_flipped(True)
    assert board.point_position(X, 8).y() < 0.5 * height
    click_point(qtbot, board, X, 8)
    assert board.selected_source() is None, "X's checkers are not O's to move"
    click(qtbot, board, bottom_left)
    assert board.selected_source() == 8
    click(qtbot, board, bottom_left)  # a second click puts the checker down
    assert board.selected_source() is None
    assert play_by_clicks(qtbot, board, ((8, 5), (6, 5))) == state.parse_move("8/5 6/5")


def test_dice_entered_over_the_board(qtbot: QtBot, board: BackgammonBoard) -> None:
    state = BackgammonState.initial(cube_enabled=False)
    board.set_state(state)
    assert board.button_position(ENTER_DICE_KEY) is None
    board.set_dice_entry(True)
    click(qtbot, board, board.button_position(ENTER_DICE_KEY))
    assert board.is_dice_picker_open()
    click(qtbot, board, board.picker_die_position(0, 3))
    click(qtbot, board, board.picker_die_position(1, 3))  # equal opening dice: not a roll
    assert board.is_dice_picker_open()
    with qtbot.waitSignal(board.dice_entered, timeout=SIGNAL_TIMEOUT_MS) as entered:
        click(qtbot, board, board.picker_die_position(1, 5))
    assert entered.args[0] == (3, 5) and entered.args[0] in state.legal_moves()
    assert not board.is_dice_picker_open()

    state.play((3, 5))  # X starts with 5-3
    state.play(state.parse_move("8/3 6/3"))
    assert state.phase == ROLL
    board.set_state(state)
    click(qtbot, board, board.dice_position())  # a click on the dice area opens the picker too
    with qtbot.waitSignal(board.dice_entered, timeout=SIGNAL_TIMEOUT_MS) as entered:
        click(qtbot, board, board.picker_die_position(0, 2))
        click(qtbot, board, board.picker_die_position(1, 6))
    assert entered.args[0] == (6, 2) and entered.args[0] in state.legal_moves()


def test_best_move_arrows_are_drawn_for_a_legal_play_only(qtbot: QtBot, board: BackgammonBoard) -> None:
    state = BackgammonState.initial()
    state.play((1, 3))
    board.set_state(state)
    plain = board.grab().toImage()
    board.set_best_move(state.parse_move("8/5 6/5"))
    with_arrows = board.grab().toImage()
    board.set_best_move(((24, 1),))  # not a legal play here
    ignored = board.grab().toImage()
    assert with_arrows != plain
    assert ignored == plain


def test_without_auto_confirm_a_finished_turn_waits_for_done(qtbot: QtBot, board: BackgammonBoard) -> None:
    state = BackgammonState.initial()
    state.play((1, 3))
    board.set_state(state)
    board.set_auto_confirm(False)
    emitted: list[object] = []
    board.move_requested.connect(emitted.append)
    for point in (8, 5, 6, 5):
        click_point(qtbot, board, X, point)
    assert emitted == []
    with qtbot.waitSignal(board.move_requested, timeout=SIGNAL_TIMEOUT_MS) as confirmed:
        click(qtbot, board, board.button_position("confirm"))
    assert confirmed.args[0] == state.parse_move("8/5 6/5")


def test_a_checker_dragged_onto_a_destination_moves_there(qtbot: QtBot, board: BackgammonBoard) -> None:
    state = BackgammonState.initial()
    state.play((1, 3))
    board.set_state(state)
    qtbot.mousePress(board, Qt.MouseButton.LeftButton, pos=board.point_position(X, 8).toPoint())
    qtbot.mouseMove(board, board.point_position(X, 6).toPoint())
    qtbot.mouseRelease(board, Qt.MouseButton.LeftButton, pos=board.point_position(X, 5).toPoint())
    assert board.partial_turn() == ((8, 5),)
    # released where it was pressed: a click, the checker stays picked up
    qtbot.mousePress(board, Qt.MouseButton.LeftButton, pos=board.point_position(X, 6).toPoint())
    qtbot.mouseRelease(board, Qt.MouseButton.LeftButton, pos=board.point_position(X, 6).toPoint())
    assert board.selected_source() == 6 and board.partial_turn() == ((8, 5),)
    # dropped where it cannot go: nothing moves
    qtbot.mousePress(board, Qt.MouseButton.LeftButton, pos=board.point_position(X, 13).toPoint())
    qtbot.mouseRelease(board, Qt.MouseButton.LeftButton, pos=board.point_position(X, 1).toPoint())
    assert board.partial_turn() == ((8, 5),)
    with qtbot.waitSignal(board.move_requested, timeout=SIGNAL_TIMEOUT_MS) as emitted:
        qtbot.mousePress(board, Qt.MouseButton.LeftButton, pos=board.point_position(X, 6).toPoint())
        qtbot.mouseRelease(board, Qt.MouseButton.LeftButton, pos=board.point_position(X, 5).toPoint())
    assert emitted.args[0] == state.parse_move("8/5 6/5")


def test_dice_typed_into_the_picker(qtbot: QtBot, board: BackgammonBoard) -> None:
    state = BackgammonState.initial(cube_enabled=False)
    state.play((3, 5))
    state.play(state.parse_move("8/3 6/3"))
    board.set_state(state)
    board.set_dice_entry(True)
    assert board.open_dice_picker()
    with qtbot.waitSignal(board.dice_entered, timeout=SIGNAL_TIMEOUT_MS) as entered:
        qtbot.keyClick(board, Qt.Key.Key_4)
        qtbot.keyClick(board, Qt.Key.Key_4)
    assert entered.args[0] == (4, 4)


def test_the_pointer_is_a_hand_over_what_a_click_would_do(qtbot: QtBot, board: BackgammonBoard) -> None:
    state = BackgammonState.initial()
    state.play((1, 3))
    board.set_state(state)
    qtbot.mouseMove(board, board.point_position(X, 8).toPoint())
    assert board.cursor().shape() == Qt.CursorShape.PointingHandCursor
    qtbot.mouseMove(board, board.point_position(X, 3).toPoint())  # empty, nothing picked up
    assert board.cursor().shape() == Qt.CursorShape.ArrowCursor
    click_point(qtbot, board, X, 8)
    qtbot.mouseMove(board, board.point_position(X, 4).toPoint())  # 8/4 with both dice
    assert board.cursor().shape() == Qt.CursorShape.PointingHandCursor


def test_the_opponents_play_slides_in_but_the_players_own_does_not(qtbot: QtBot, board: BackgammonBoard) -> None:
    state = BackgammonState.initial()
    state.play((1, 3))  # X opens 3-1
    board.set_state(state)
    played = play_by_clicks(qtbot, board, ((8, 5), (6, 5)))
    state.play(played)
    board.set_state(state)
    assert not board.is_animating(), "the player's own play is already on the board"

    state.play(NO_DOUBLE)
    state.play((6, 4))
    board.set_state(state)
    state.play(state.parse_move("24/14"))  # O's play, applied by the session
    before = board.grab().toImage()
    board.set_state(state)
    assert board.is_animating()
    qtbot.waitUntil(lambda: not board.is_animating(), timeout=2000)
    after = board.grab().toImage()
    assert after != before

    board.animation_ms = 0
    state.play(NO_DOUBLE)
    state.play((2, 1))
    board.set_state(state)
    state.play(state.legal_moves()[0])
    board.set_state(state)
    assert not board.is_animating()


def test_a_jump_to_another_game_does_not_slide(qtbot: QtBot, board: BackgammonBoard) -> None:
    board.set_state(BackgammonState.initial())
    rng = random.Random(3)
    state = BackgammonState.initial()
    for _ in range(12):  # a saved game, several turns in
        if state.to_move() == CHANCE:
            roll(state, rng)
        state.play(state.legal_moves()[0])
    board.set_state(state)
    assert not board.is_animating()
