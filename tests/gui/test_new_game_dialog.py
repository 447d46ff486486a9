"""The new-game dialog: each side Human or Computer, the algorithms that can play the game,
strength by level, depth or time."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from ai.search import ALGORITHMS
from games import get_game
from gui.dialogs.new_game import NewGameDialog
from gui.players import COMPUTER, HUMAN, PlayerConfig


def test_the_dialog_offers_what_each_game_can_use_and_returns_the_sides(qtbot: QtBot) -> None:
    sides = {"chess": (PlayerConfig(), PlayerConfig(kind=COMPUTER, algorithm="mtdf", strength="depth", depth=5))}
    dialog = NewGameDialog("chess", sides)
    qtbot.addWidget(dialog)
    game, chosen, manual = dialog.choice()
    assert game == "chess" and chosen == sides["chess"] and not manual
    white, black = dialog.sides
    assert black.algorithm.currentData() == "mtdf" and black.depth_box.isVisibleTo(dialog) and not black.level.isVisibleTo(dialog)
    offered = [black.algorithm.itemData(index) for index in range(black.algorithm.count())]
    deterministic = {name for name, spec in ALGORITHMS.items() if not spec.handles_chance and not spec.needs_native}
    native = {"native"} if get_game("chess").NATIVE_SEARCH else set()
    assert offered[0] == "pvs" and set(offered) == deterministic | {"mcts"} | native
    dialog.game.setCurrentIndex(dialog.game.findData("backgammon"))
    offered = [black.algorithm.itemData(index) for index in range(black.algorithm.count())]
    assert offered[0] == "star2" and all(ALGORITHMS[name].handles_chance for name in offered)
    assert dialog.manual_dice.isVisibleTo(dialog)
    white.computer.setChecked(True)
    white.strength.setCurrentIndex(white.strength.findData("time"))
    white.seconds.setValue(2.5)
    game, chosen, _ = dialog.choice()
    assert game == "backgammon"
    assert chosen[0] == PlayerConfig(kind=COMPUTER, algorithm="star2", strength="time", level=4, depth=4, seconds=2.5)
    # going back to chess keeps what was chosen there
    dialog.game.setCurrentIndex(dialog.game.findData("chess"))
    assert dialog.choice()[1] == sides["chess"]
    assert dialog.sides[0].config().kind == HUMAN
