"""FIDE Laws 6.9 for a flag in chess: can the side with time still checkmate?

Checked against python-chess's ``Board.has_insufficient_material(color)`` (the same material
rule, written independently over bitboards) on thousands of random material sets, and against
the rules themselves: for each "can mate" verdict of a minor-piece ending, a real checkmate
position with that material, verified by python-chess's move generator."""

from __future__ import annotations

import random

import chess
import pytest

from games import new_game
from games.chess_game.material import can_checkmate
from games.clock import flag_result

PIECES = (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN)
MINOR_HEAVY_WEIGHTS = (1, 4, 4, 1, 1)
"""Minor pieces drawn most often: the rule is subtle only among kings, knights and bishops."""


def random_board(generator: random.Random) -> chess.Board:
    board = chess.Board(None)
    squares = generator.sample(chess.SQUARES, 12)
    board.set_piece_at(squares.pop(), chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(squares.pop(), chess.Piece(chess.KING, chess.BLACK))
    for _ in range(generator.randint(0, 5)):
        piece = generator.choices(PIECES, MINOR_HEAVY_WEIGHTS)[0]
        square = squares.pop()
        if piece == chess.PAWN and chess.square_rank(square) in (0, 7):
            continue
        board.set_piece_at(square, chess.Piece(piece, generator.random() < 0.5))
    return board


def test_agrees_with_python_chess_on_random_material() -> None:
    generator = random.Random(69)
    verdicts = {True: 0, False: 0}
    for _ in range(20_000):
        board = random_board(generator)
        for color in chess.COLORS:
            expected = not board.has_insufficient_material(color)
            assert can_checkmate(board, color) == expected, f"{board.fen()} {chess.COLOR_NAMES[color]}"
            verdicts[expected] += 1
    assert min(verdicts.values()) > 2_000  # both verdicts are tested many times


@pytest.mark.parametrize(
    ("mate", "winner_material"),
    [
        # K+N against K+N+P: White Kc8 Nc7, Black Ka8 Pa7 Nb8 (its own men block a7 and b8)
        ("knK5/p1N5/8/8/8/8/8/8 b - - 0 1", "K+N"),
        # K+B against K+P: White Kc7 Bd5, Black Ka8 Pa7 (the pawn blocks a7, a dark square)
        ("k7/p1K5/8/3B4/8/8/8/8 b - - 0 1", "K+B"),
        # K+N+N against a lone king (no forced mate, but a mate exists): Kb6 Nc7 Nd7 v Ka8
        ("k7/2NN4/1K6/8/8/8/8/8 b - - 0 1", "K+N+N"),
    ],
)
def test_the_material_called_sufficient_does_mate(mate: str, winner_material: str) -> None:
    board = chess.Board(mate)
    assert board.is_checkmate(), f"{mate} is no mate ({winner_material})"
    assert can_checkmate(board, chess.WHITE)


def test_lone_minor_against_a_lone_king_is_a_draw_on_time() -> None:
    for fen in ("8/8/3k4/8/8/8/8/1N2K3 w - - 0 1", "8/8/3k4/8/8/8/8/2B1K3 w - - 0 1"):
        assert flag_result(new_game("chess", fen), 1).winner is None
