"""The new-game dialog: each side Human or Computer, the algorithms that can play the game,
strength by level, depth or time."""

from __future__ import annotations

from PySide6.QtWidgets import QBoxLayout
from pytestqt.qtbot import QtBot

from ai.search import ALGORITHMS
from games import get_game
from gui.dialogs.new_game import NewGameDialog, SideEditor, duration_text
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


def choose(side: SideEditor, *, strength: str, algorithm: str | None = None, depth: int | None = None) -> None:
    side.computer.setChecked(True)
    side.strength.setCurrentIndex(side.strength.findData(strength))
    if algorithm is not None:
        side.algorithm.setCurrentIndex(side.algorithm.findData(algorithm))
    if depth is not None:
        side.depth_box.setValue(depth)


def test_the_levels_note_shows_only_when_a_side_plays_by_level(qtbot: QtBot) -> None:
    dialog = NewGameDialog("chess", {"chess": (PlayerConfig(), PlayerConfig(kind=COMPUTER, strength="depth", depth=3))})
    qtbot.addWidget(dialog)
    dialog.show()
    white, black = dialog.sides
    assert not dialog.hint.isVisibleTo(dialog)  # a human and a depth
    choose(black, strength="time")
    assert not dialog.hint.isVisibleTo(dialog)
    choose(black, strength="level")
    assert dialog.hint.isVisibleTo(dialog)
    black.human.setChecked(True)
    assert not dialog.hint.isVisibleTo(dialog)


def test_the_dialog_is_as_tall_as_the_game_it_shows(qtbot: QtBot) -> None:
    dialog = NewGameDialog("chess", {})
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    height = dialog.height()
    dialog.game.setCurrentIndex(dialog.game.findData("backgammon"))
    qtbot.waitUntil(lambda: dialog.height() > height)  # the dice row
    dialog.game.setCurrentIndex(dialog.game.findData("chess"))
    qtbot.waitUntil(lambda: dialog.height() == height)


def test_two_computers_stand_one_above_the_other_so_the_dialog_fits_a_screen(qtbot: QtBot) -> None:
    """A computer's panel is as wide as the longest level text; two side by side made the
    dialog wider than a 1400-pixel screen (its Play button off it). Both computers: stacked,
    the dialog no wider than with one."""
    computer = PlayerConfig(kind=COMPUTER, strength="level", level=4)
    dialog = NewGameDialog("backgammon", {"backgammon": (PlayerConfig(), computer)})
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    one = dialog.width()
    first, second = dialog.sides
    first.computer.setChecked(True)
    assert dialog.sides_layout.direction() == QBoxLayout.Direction.TopToBottom
    qtbot.waitUntil(lambda: dialog.width() <= one + 10 and dialog.width() < 1300)
    qtbot.waitUntil(lambda: second.mapTo(dialog, second.rect().topLeft()).y() > first.mapTo(dialog, first.rect().bottomLeft()).y())
    first.human.setChecked(True)  # a human again: side by side
    assert dialog.sides_layout.direction() == QBoxLayout.Direction.LeftToRight


def test_a_depth_shows_its_expected_time_and_a_cap(qtbot: QtBot) -> None:
    dialog = NewGameDialog("backgammon", {})
    qtbot.addWidget(dialog)
    dialog.show()
    side = dialog.sides[1]
    choose(side, strength="depth", algorithm="expectiminimax", depth=4)
    plan = side.plan()
    assert plan.is_capped  # four plies of expectiminimax take hours
    note = side.depth_note.text()
    assert side.depth_note.isVisibleTo(dialog)
    assert "Depth 4 would take" in note and f"depth {plan.depth} is searched" in note
    dialog.game.setCurrentIndex(dialog.game.findData("chess"))
    choose(side, strength="depth", algorithm="pvs", depth=2)
    assert not side.plan().is_capped
    assert side.depth_note.text().startswith("About ") and "a move" in side.depth_note.text()
    choose(side, strength="level")  # a level picks its engine: the note names it, no algorithm row
    assert side.depth_note.isVisibleTo(dialog) and "picks its engine" in side.depth_note.text()
    assert not side.algorithm.isVisibleTo(dialog)
    choose(side, strength="time")
    assert not side.depth_note.isVisibleTo(dialog) and side.algorithm.isVisibleTo(dialog)


def test_the_level_list_shows_each_levels_rating_or_not_measured(qtbot: QtBot) -> None:
    from ai.levels import level_rating

    dialog = NewGameDialog("chess", {})
    qtbot.addWidget(dialog)
    side = dialog.sides[1]
    for game in ("chess", "backgammon"):
        dialog.game.setCurrentIndex(dialog.game.findData(game))
        for row in range(side.level.count()):
            text = side.level.itemText(row)
            rating = level_rating(game, row + 1)
            assert text.startswith(f"{row + 1} · ")
            assert text.endswith(rating.text() if rating is not None else "not measured")


def test_durations_read_as_orders_of_magnitude() -> None:
    assert duration_text(0.01) == "under 0.1 s" and duration_text(0.34) == "0.3 s" and duration_text(45) == "45 s"
    assert duration_text(200) == "3 min" and duration_text(126_000) == "35 h" and duration_text(2e7) == "231 days"
    assert duration_text(1e12) == "more than a year"
