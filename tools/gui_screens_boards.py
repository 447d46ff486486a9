"""Photograph every board mid-game: light and dark themes, two sizes, highlights and arrows.

    QT_QPA_PLATFORM=offscreen .venv/bin/python -m tools.gui_screens_boards [--out /tmp/screens]

Writes ``<game>-<variant>-<theme>-<size>.png`` (offscreen ``grab()``), to be opened and looked
at: text cut off, blurry pieces, misaligned coordinates. Needs no display.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import chess
from PySide6.QtWidgets import QApplication

from games import GameState, new_game
from gui.boards import board_for
from gui.boards.base import BoardWidget
from gui.resources import load_fonts
from gui.theme import theme_named

SIZES = (480, 900)
THEMES = ("light", "dark")


def played(game: str, moves: list[str], text: str | None = None) -> tuple[GameState, object]:
    """The state after ``moves`` (in the game's notation) and the last move value."""
    state = new_game(game, text)
    last = None
    for name in moves:
        last = state.parse_move(name)
        state.play(last)
    return state, last


def chess_check(board: BoardWidget) -> None:
    state, last = played("chess", ["e4", "d5", "exd5", "Qxd5", "Nc3", "Qe5+"])
    board.set_state(state)
    board.set_last_move(last)
    board.set_best_move(state.parse_move("Be2"))
    board.toggle_annotation(chess.D1, chess.H5)  # type: ignore[attr-defined]  # the player's arrow
    board.toggle_annotation(chess.F7, chess.F7)  # type: ignore[attr-defined]  # and ring


def chess_selected(board: BoardWidget) -> None:
    state, last = played("chess", ["e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "Ng5", "d5", "exd5", "Nxd5"])
    board.set_state(state)
    board.set_last_move(last)
    board.set_best_move(state.parse_move("Nxf7"))
    board._selected = chess.G5  # type: ignore[attr-defined]  # show the knight's dots and captures


def chess_promotion(board: BoardWidget) -> None:
    state, _ = played("chess", [], "8/4P1k1/8/8/8/8/5K2/8 w - - 0 1")
    board.set_theme(board.theme().with_board("blue"))
    board.set_state(state)
    board.set_flipped(True)
    board._try_move(chess.E7, chess.E8)  # type: ignore[attr-defined]


def chess_edit(board: BoardWidget) -> None:
    state, _ = played("chess", ["e4", "e5"])
    board.set_state(state)
    board.set_edit_mode(True)
    board.set_edit_tool("n")  # type: ignore[attr-defined]


def checkers_mid(board: BoardWidget) -> None:
    state, last = played("checkers", ["11-15", "23-19", "8-11", "22-17", "9-13", "17-14", "10x17", "21x14"])
    board.set_theme(board.theme().with_board("green"))
    board.orient_for(0)  # Black, who moved first, at the bottom
    board.set_state(state)
    board.set_last_move(last)


def checkers_kings(board: BoardWidget) -> None:
    state, last = played("checkers", [], "B:WK10,19,23,26,27,30:B6,K15,13,21,K28")
    board.set_state(state)
    moves = state.legal_moves()
    board.set_best_move(moves[0])
    board.set_last_move(None)


def checkers_hop(board: BoardWidget) -> None:
    state, _ = played("checkers", [], "B:W15,21,22,23,24,25,27,29,30,31,32:B1,2,3,4,5,6,10,12,14,16,20")
    board.set_state(state)
    board._path = (10, 19)  # type: ignore[attr-defined]  # half-way: 10x19, then 26 or 28


def othello_mid(board: BoardWidget) -> None:
    state, last = played("othello", ["f5", "d6", "c3", "d3", "c4", "f4", "f6", "f3", "e6", "e7"])
    board.set_state(state)
    board.set_last_move(last)
    board.set_best_move(state.legal_moves()[0])


def tictactoe_mid(board: BoardWidget) -> None:
    state, last = played("tictactoe", ["b2", "a1", "c3"])
    board.set_state(state)
    board.set_last_move(last)
    board.set_best_move(state.parse_move("a3"))


def tictactoe_won(board: BoardWidget) -> None:
    state, last = played("tictactoe", ["b2", "a2", "a1", "c1", "c3"])
    board.set_state(state)
    board.set_last_move(last)


SCENES: dict[str, tuple[str, Callable[[BoardWidget], None]]] = {
    "chess-check": ("chess", chess_check),
    "chess-selected": ("chess", chess_selected),
    "chess-promotion": ("chess", chess_promotion),
    "chess-edit": ("chess", chess_edit),
    "checkers-mid": ("checkers", checkers_mid),
    "checkers-kings": ("checkers", checkers_kings),
    "checkers-hop": ("checkers", checkers_hop),
    "othello-mid": ("othello", othello_mid),
    "tictactoe-mid": ("tictactoe", tictactoe_mid),
    "tictactoe-won": ("tictactoe", tictactoe_won),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="/tmp/screens", help="directory for the PNGs")
    parser.add_argument("--only", default="", help="only scenes whose name contains this")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication([sys.argv[0]])
    load_fonts()
    written = 0
    for name, (game, scene) in SCENES.items():
        if args.only not in name:
            continue
        for theme_name in THEMES:
            for size in SIZES:
                board = board_for(game)(theme_named(theme_name))
                board.resize(size, size)
                scene(board)
                board.show()
                app.processEvents()
                path = out / f"{name}-{theme_name}-{size}.png"
                board.grab().save(str(path))
                board.close()
                board.deleteLater()
                written += 1
    app.processEvents()
    print(f"wrote {written} screenshots to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
