"""Hostile typed moves: each refusal names the real reason in one short line — a promotion
to a king is no legal promotion (not "check"), and a 10,000-character move is not echoed."""

from __future__ import annotations

import subprocess
import sys

import chess
import pytest

from games.base import IllegalMoveError
from games.chess_game import notation

LONE_PAWN = "8/P7/8/8/8/8/8/k6K w - - 0 1"


@pytest.mark.parametrize(
    ("fen", "move", "reason"),
    [
        (LONE_PAWN, "a8=K", "never to a king"),
        (LONE_PAWN, "a7a8k", "never to a king"),
        ("1n6/P7/8/8/8/8/8/k6K w - - 0 1", "axb8=K", "never to a king"),
        ("k7/8/8/8/8/8/p7/7K b - - 0 1", "a1=K", "never to a king"),
        (chess.STARTING_FEN, "e4=Q", "only on the last rank"),
        (LONE_PAWN, "Kg2=Q", "only a pawn promotes"),
    ],
)
def test_an_impossible_promotion_says_why_not_check(fen: str, move: str, reason: str) -> None:
    with pytest.raises(IllegalMoveError) as caught:
        notation.parse_move(chess.Board(fen), move)
    assert reason in str(caught.value) and "check" not in str(caught.value)


def test_the_command_line_blames_the_promotion() -> None:
    done = subprocess.run([sys.executable, "-m", "ai.cli", "analyse", "--game", "chess", "--moves", "a8=K", "--depth", "1"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "never to a king" in done.stderr and "check" not in done.stderr
