"""The window's shortcuts work wherever the focus is: real key presses on the focused move box
reach every action with a Ctrl/Alt key; single keys are text in the box until Escape
leaves it; F1 lists every action's keys (derived from the actions, so it cannot drift)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from gui.main_window import MainWindow
from gui.players import HUMAN, PlayerConfig

HUMANS = (PlayerConfig(kind=HUMAN), PlayerConfig(kind=HUMAN))
COMMAND_MODIFIERS = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.MetaModifier


@pytest.fixture
def window(qtbot: QtBot, window: MainWindow) -> MainWindow:
    window.activateWindow()
    qtbot.waitActive(window)  # a window shortcut needs its window active (on a real display too)
    return window


MATCH_ACTIONS = frozenset({"next_game"})
"""Actions offered only in a backgammon match, disabled in the single games these tests play
(``test_the_next_game_key_works_in_a_match`` presses them there)."""


def shortcut_actions(window: MainWindow) -> list[tuple[str, QAction, QKeySequence]]:
    """Every (name, action, key) of the window's actions with a shortcut."""
    return [(name, action, keys) for name, action in window.actions_by_name.items() for keys in action.shortcuts() if not keys.isEmpty()]


def game_shortcut_actions(window: MainWindow) -> list[tuple[str, QAction, QKeySequence]]:
    """``shortcut_actions`` that act in a single game (not ``MATCH_ACTIONS``)."""
    return [(name, action, keys) for name, action, keys in shortcut_actions(window) if name not in MATCH_ACTIONS]


def recorded(action: QAction) -> list[bool]:
    """The action's own slot replaced by a recorder (no modal dialog opens in a test)."""
    fired: list[bool] = []
    action.triggered.disconnect()
    action.triggered.connect(lambda *_: fired.append(True))
    return fired


def press(qtbot: QtBot, widget: Any, keys: QKeySequence) -> None:
    combination = keys[0]
    qtbot.keyClick(widget, combination.key(), combination.keyboardModifiers())


def focus_box_after_a_typed_move(qtbot: QtBot, window: MainWindow) -> Any:
    """A chess game with one move typed in the box, which keeps the focus (as after Return)."""
    window.start_game("chess", HUMANS)
    box = window.game_view.moves.box
    box.setFocus()
    qtbot.waitUntil(box.hasFocus, timeout=2_000)
    qtbot.keyClicks(box, "e4")
    qtbot.keyClick(box, Qt.Key.Key_Return)
    assert window.session is not None and window.session.move_names() == ["e4"]
    assert box.hasFocus()
    return box


def test_every_command_shortcut_works_in_the_focused_move_box(qtbot: QtBot, window: MainWindow) -> None:
    box = focus_box_after_a_typed_move(qtbot, window)
    QGuiApplication.clipboard().setText("4k3/8/8/8/8/8/8/4K3 w - - 0 1")  # Ctrl+V has a position to paste
    commands = [(name, action, keys) for name, action, keys in game_shortcut_actions(window) if keys[0].keyboardModifiers() & COMMAND_MODIFIERS]
    assert {"undo", "redo", "setup", "dark", "copy_position", "paste", "home", "new", "open", "save"} <= {name for name, _, _ in commands}
    fired = {name: recorded(action) for name, action, _ in commands}
    dead = []
    for name, action, keys in commands:
        assert action.isEnabled(), name
        box.setFocus()
        count = len(fired[name])
        press(qtbot, box, keys)
        if len(fired[name]) != count + 1:
            dead.append(f"{keys.toString()} ({name})")
    assert not dead, f"dead in the move box: {dead}"
    assert box.text() == ""  # none of them edited the box


def test_ctrl_z_takes_back_and_ctrl_e_sets_up_from_the_move_box(qtbot: QtBot, window: MainWindow) -> None:
    box = focus_box_after_a_typed_move(qtbot, window)
    qtbot.keyClick(box, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.session is not None and window.session.move_names() == []
    qtbot.keyClick(box, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)
    assert window.session.move_names() == ["e4"]
    window.ask = lambda _question: True  # type: ignore[method-assign]
    box.setFocus()
    qtbot.keyClick(box, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    assert window.game_view.is_setting_up()


def test_single_keys_are_text_in_the_box_until_escape_leaves_it(qtbot: QtBot, window: MainWindow) -> None:
    box = focus_box_after_a_typed_move(qtbot, window)
    singles = [(name, action, keys) for name, action, keys in game_shortcut_actions(window)
               if not keys[0].keyboardModifiers() & COMMAND_MODIFIERS and name != "live" and keys[0].key() != Qt.Key.Key_F1]
    assert {"flip", "hint", "think", "pause"} <= {name for name, _, _ in singles}
    fired = {name: recorded(action) for name, action, _ in singles}
    for name, action, keys in singles:
        box.setFocus()
        press(qtbot, box, keys)
        assert not fired[name], f"{keys.toString()} acted while typing a move"
    assert len(box.text()) == len(singles)  # each went into the box as text
    qtbot.keyClick(box, Qt.Key.Key_Escape)
    assert not box.hasFocus()
    for name, action, keys in singles:
        focused = QApplication.focusWidget() or window
        press(qtbot, focused, keys)
        assert fired[name], f"{keys.toString()} ({name}) did nothing after Escape"


def test_f1_lists_every_shortcut_of_the_menus(qtbot: QtBot, window: MainWindow) -> None:
    window.start_game("chess", HUMANS)
    qtbot.keyClick(window, Qt.Key.Key_F1)
    box = window.findChild(QMessageBox, "shortcutsBox")
    assert box is not None
    text = box.text()
    box.close()
    for name, action, keys in shortcut_actions(window):
        assert keys.toString(QKeySequence.SequenceFormat.NativeText) in text, f"{name} missing from F1's list"
    assert "Ctrl+E" in text and "Ctrl+Shift+D" in text


FOCUS_TARGETS = {
    "move list": lambda window: window.game_view.moves.moves,
    "board": lambda window: window.game_view.board,
    "engine tabs": lambda window: window.engine_tabs.tabBar(),
    "settings spin box": lambda window: window.settings_panel.findChild(QAbstractSpinBox),
}


@pytest.mark.parametrize("target", list(FOCUS_TARGETS))
def test_every_shortcut_works_wherever_else_the_focus_is(qtbot: QtBot, window: MainWindow, target: str) -> None:
    """Outside the move box every key of every action acts: a spin box takes digits only."""
    window.start_game("chess", HUMANS)
    QGuiApplication.clipboard().setText("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    window.engine_tabs.setCurrentWidget(window.settings_page)
    widget = FOCUS_TARGETS[target](window)
    assert widget is not None
    keys_of = game_shortcut_actions(window)
    fired = {name: recorded(action) for name, action, _ in keys_of}
    dead = []
    for name, action, keys in keys_of:
        widget.setFocus()
        count = len(fired[name])
        press(qtbot, widget, keys)
        if len(fired[name]) != count + 1:
            dead.append(f"{keys.toString()} ({name})")
    assert not dead, f"dead with the focus on the {target}: {dead}"


def test_the_move_box_keeps_the_focus_while_the_computer_answers(qtbot: QtBot, window: MainWindow) -> None:
    """The box is disabled while the computer thinks, and Qt hands its focus on; once the
    computer has answered the focus comes back, so the next typed move (Nf3) goes into the
    box and not to the single-key shortcuts (its f flipped the board)."""
    from gui.players import COMPUTER

    computer = PlayerConfig(kind=COMPUTER, strength="depth", depth=1)
    window.start_game("chess", (PlayerConfig(kind=HUMAN), computer))
    session = window.session
    assert session is not None
    box = window.game_view.moves.box
    box.setFocus()
    qtbot.waitUntil(box.hasFocus, timeout=2_000)
    qtbot.keyClicks(box, "e4")
    qtbot.keyClick(box, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: len(session.move_names()) == 2 and box.isEnabled(), timeout=60_000)
    assert box.hasFocus()
    board = window.game_view.board
    assert board is not None
    flipped = board.is_flipped()
    qtbot.keyClicks(box, "Nf3")
    qtbot.keyClick(box, Qt.Key.Key_Return)
    assert session.move_names()[2] == "Nf3" and board.is_flipped() == flipped


def test_a_new_game_starts_with_the_single_keys_as_shortcuts(qtbot: QtBot, window: MainWindow) -> None:
    """The last game's board goes with it; its focus must not fall to the move box, where H,
    P and F are text: a new game's board has the focus, and H asks for a hint."""
    box = focus_box_after_a_typed_move(qtbot, window)
    for game in ("checkers", "chess"):
        window.start_game(game, HUMANS)
        board = window.game_view.board
        qtbot.waitUntil(board.hasFocus, timeout=2_000)
        assert not box.hasFocus()
    fired = recorded(window.actions_by_name["hint"])
    qtbot.keyClick(QApplication.focusWidget() or window, Qt.Key.Key_H)
    assert fired and box.text() == ""


def test_the_next_game_key_works_in_a_match(qtbot: QtBot, window: MainWindow) -> None:
    """Ctrl+Shift+N (Next game of the match) acts in a match, from the board and the box."""
    window.start_match(HUMANS, 3)
    action = window.actions_by_name["next_game"]
    assert action.isEnabled()
    fired = recorded(action)
    for widget in (window.game_view.board, window.game_view.moves.box):
        widget.setFocus()
        press(qtbot, widget, action.shortcuts()[0])
    assert len(fired) == 2
    window.start_game("chess", HUMANS)
    assert not action.isEnabled()
