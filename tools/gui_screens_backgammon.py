"""Screenshots of the backgammon board in the situations a player meets, to look at.

    QT_QPA_PLATFORM=offscreen .venv/bin/python -m tools.gui_screens_backgammon [--out /tmp/screens]

Writes ``bg-<scene>-<theme>-<width>.png`` for each scene (the start, a turn half entered
with a checker picked up and its destinations lit, checkers on the bar and borne off, the
cube decisions, the engine's suggestion, the dice picker, the end of a game), in the light
and dark themes at two sizes, a few at device-pixel ratio 2, and the engine's suggestion
on the other board felts.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QPixmap
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from games.backgammon.notation import DOUBLE, NO_DOUBLE
from games.backgammon.state import CHECKER_PLAY, BackgammonState, O, X
from games.base import CHANCE
from gui.boards.backgammon import BackgammonBoard
from gui.resources import load_fonts
from gui.theme import DARK, LIGHT

SIZES = ((900, 740), (520, 430))
THEMES = {"light": LIGHT, "dark": DARK}
OTHER_FELTS = {
    "light-green": LIGHT.with_board("green"),
    "light-blue": LIGHT.with_board("blue"),
    "dark-brown": DARK.with_board("brown"),
    "dark-blue": DARK.with_board("blue"),
}
"""The other board schemes, shown once each (large, mid-game with the engine's arrows)."""


def click(board: BackgammonBoard, where: QPointF | None) -> None:
    assert where is not None
    QTest.mouseClick(board, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, where.toPoint())


def midgame(seed: int, turns: int) -> BackgammonState:
    """A game played ``turns`` checker plays into by random moves, stopped with X to play."""
    rng = random.Random(seed)
    state = BackgammonState.initial()
    played = 0
    while True:
        if state.to_move() == CHANCE:
            outcomes = state.chance_outcomes()
            state.play(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        if state.phase == CHECKER_PLAY:
            if played >= turns and state.player == X and len(state.legal_moves()[0]) >= 2:
                return state
            played += 1
        moves = state.legal_moves()
        state.play(NO_DOUBLE if NO_DOUBLE in moves else rng.choice(moves))


def scene_start(board: BackgammonBoard) -> None:
    state = BackgammonState.initial()
    state.play((2, 6))  # X threw the 6: X opens with 6-2
    board.set_state(state)


def scene_partial_turn(board: BackgammonBoard) -> None:
    state = midgame(seed=11, turns=9)
    board.set_state(state)
    board.set_last_move(state.history[-1][1])
    first = state.legal_moves()[0]
    source, target = first[0]
    click(board, board.point_position(X, source))
    click(board, board.point_position(X, target))
    # pick up another checker to show where it may go
    options = [hop[0] for play in state.legal_moves() for hop in play[1:2] if play[0] == first[0]]
    if options:
        click(board, board.point_position(X, options[0]))


def scene_bar_and_off(board: BackgammonBoard) -> None:
    state = BackgammonState.from_points(
        {25: 2, 6: 4, 5: 3, 4: 2, 3: 1, 1: 1},  # X: two on the bar
        {25: 1, 6: 2, 5: 3, 3: 2, 2: 1},  # O: one on the bar, six off, a blot on its 2
        player=X,
        dice=(4, 2),
    )
    board.set_state(state)
    click(board, board.point_position(X, 25))


def scene_tall_stacks(board: BackgammonBoard) -> None:
    state = BackgammonState.from_points(
        {6: 8, 5: 4, 4: 1}, {1: 9, 2: 3, 24: 1}, player=X, dice=(6, 3), cube_value=4, cube_owner=O
    )
    board.set_state(state)
    click(board, board.point_position(X, 6))


def scene_cube_decision(board: BackgammonBoard) -> None:
    played = midgame(seed=5, turns=12)
    points = [{point: count for point, count in enumerate(played.boards[player]) if count and point} for player in (X, O)]
    board.set_state(BackgammonState.from_points(points[0], points[1], player=X))  # X to double or roll


def scene_take_decision(board: BackgammonBoard) -> None:
    state = BackgammonState.from_points({13: 4, 8: 4, 6: 5, 5: 2}, {24: 2, 13: 4, 8: 3, 6: 4, 4: 2}, player=O)
    state.play(DOUBLE)  # O doubles; X (bottom) decides
    board.set_state(state)


def scene_best_move(board: BackgammonBoard) -> None:
    state = midgame(seed=3, turns=14)
    board.set_state(state)
    board.set_best_move(state.legal_moves()[len(state.legal_moves()) // 2])


def scene_dice_picker(board: BackgammonBoard) -> None:
    state = BackgammonState.from_points({13: 4, 8: 4, 6: 5, 5: 2}, {24: 2, 13: 4, 8: 3, 6: 4, 4: 2}, player=X)
    state.play(NO_DOUBLE)
    board.set_state(state)
    board.set_dice_entry(True)
    board.open_dice_picker()
    click(board, board.picker_die_position(0, 5))


def scene_enter_dice(board: BackgammonBoard) -> None:
    board.set_state(BackgammonState.initial())
    board.set_dice_entry(True)


def scene_no_move(board: BackgammonBoard) -> None:
    state = BackgammonState.from_points(
        {25: 1, 13: 5, 8: 4, 6: 5}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}, player=X, dice=(6, 5)
    )
    board.set_state(state)


def scene_flipped(board: BackgammonBoard) -> None:
    state = midgame(seed=21, turns=8)
    state.play(state.legal_moves()[0])
    while state.to_move() != O or state.phase != CHECKER_PLAY:
        state.play(NO_DOUBLE if NO_DOUBLE in state.legal_moves() else state.legal_moves()[0])
    board.set_state(state)
    board.set_flipped(True)
    board.set_last_move(state.history[-1][1])


def scene_gammon(board: BackgammonBoard) -> None:
    state = BackgammonState.from_points({2: 1}, {22: 3, 20: 5, 13: 7}, player=X, dice=(2, 1), cube_value=2, cube_owner=O)
    state.play(state.legal_moves()[0])
    board.set_state(state)


SCENES: dict[str, Callable[[BackgammonBoard], None]] = {
    "start": scene_start,
    "partial-turn": scene_partial_turn,
    "bar-and-off": scene_bar_and_off,
    "tall-stacks": scene_tall_stacks,
    "cube-decision": scene_cube_decision,
    "take-decision": scene_take_decision,
    "best-move": scene_best_move,
    "dice-picker": scene_dice_picker,
    "enter-dice": scene_enter_dice,
    "no-move": scene_no_move,
    "flipped": scene_flipped,
    "gammon": scene_gammon,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("/tmp/screens"))
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    load_fonts()
    written = 0
    shots = [(name, theme_name, theme, size) for name in SCENES for theme_name, theme in THEMES.items() for size in SIZES]
    shots += [("best-move", theme_name, theme, SIZES[0]) for theme_name, theme in OTHER_FELTS.items()]
    for name, theme_name, theme, (width, height) in shots:
        board = BackgammonBoard(theme)
        board.resize(width, height)
        board.show()
        app.processEvents()
        SCENES[name](board)
        app.processEvents()
        board.grab().save(str(args.out / f"bg-{name}-{theme_name}-{width}.png"))
        written += 1
        if width == SIZES[0][0] and theme_name in THEMES and name in ("partial-turn", "bar-and-off"):
            pixmap = QPixmap(board.size() * 2)
            pixmap.setDevicePixelRatio(2)
            board.render(pixmap)
            pixmap.save(str(args.out / f"bg-{name}-{theme_name}-{width}@2x.png"))
            written += 1
        board.close()
        board.deleteLater()
    app.processEvents()
    print(f"{written} screenshots in {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
