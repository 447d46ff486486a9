"""The chess tuner's self-play (``tools/tune_chess.py selfplay``): our compiled search plays
legal, finished games whose results the ``positions`` step can read."""

from __future__ import annotations

import random

import chess

from games.chess_game import ChessState
from games.chess_game import native as compiled
from tests.native_extensions import require_module
from tools import tune_chess

require_module(compiled._search is not None, "the compiled chess search", compiled.NATIVE_SEARCH_BACKEND)


def test_native_move_spends_about_its_budget_and_finds_a_mate_in_one() -> None:
    searcher = ChessState.native_searcher(1)
    state = ChessState.from_text("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
    move, score = tune_chess.native_move(searcher, state, 2000)
    assert move == chess.Move.from_uci("a1a8")
    assert score == 100_000.0
    quiet = ChessState.initial()
    move, score = tune_chess.native_move(searcher, quiet, 500)
    assert move in quiet.board.legal_moves
    assert abs(score) < 200


def test_a_self_play_game_is_legal_finished_and_gives_positions() -> None:
    searcher = ChessState.native_searcher(1)
    result, moves = tune_chess.play_native_game(searcher, random.Random(3), nodes=300, random_plies=2)
    assert result in ("1", "0.5", "0")
    board = chess.Board()
    for move in moves:
        assert move in board.legal_moves
        board.push(move)
    adjudicated = not board.is_game_over(claim_draw=True)
    assert adjudicated or board.outcome(claim_draw=True) is not None
    if board.is_checkmate():  # a mate on the board is the result written
        assert result == ("0" if board.turn == chess.WHITE else "1")
    line = result + " " + " ".join(move.uci() for move in moves)
    positions = list(tune_chess.game_positions(line, 1, random.Random(1)))
    assert positions, "a game of this length has quiet positions to fit"
    for position, white_result in positions:
        assert white_result == {"1": 1.0, "0.5": 0.5, "0": 0.0}[result]
        assert not position.is_in_check()
