"""Regenerate ``resources/pieces/chess/*.svg`` from python-chess's vector piece set.

Run once after upgrading python-chess (``.venv/bin/python packaging/make_chess_pieces.py``)
and commit the SVGs: the app loads the files, never python-chess's renderer, so the art is
fixed, reviewable and bundled by the packaging spec. python-chess is GPL-3.0-or-later,
like Plyground; its pieces are Colin M.L. Burnett's set (GPL/BSD/GFDL triple licence).
"""

from __future__ import annotations

from pathlib import Path

import chess
import chess.svg

OUTPUT = Path(__file__).resolve().parent.parent / "resources" / "pieces" / "chess"
COLOUR_PREFIX = {chess.WHITE: "w", chess.BLACK: "b"}


def file_name(piece: chess.Piece) -> str:
    """``wK.svg``, ``bN.svg``, ... (colour letter, then the upper-case piece letter)."""
    return f"{COLOUR_PREFIX[piece.color]}{piece.symbol().upper()}.svg"


def main() -> None:
    OUTPUT.mkdir(parents=True, exist_ok=True)
    for color in chess.COLORS:
        for piece_type in chess.PIECE_TYPES:
            piece = chess.Piece(piece_type, color)
            (OUTPUT / file_name(piece)).write_text(chess.svg.piece(piece) + "\n", encoding="utf-8")
    print(f"wrote 12 pieces to {OUTPUT} (python-chess {chess.__version__})")


if __name__ == "__main__":
    main()
