"""The move <-> integer codec of every game (``encode_move``/``decode_move``): a shared-memory
transposition table stores moves as integers, so every move any position can produce must
survive the round trip, and its code must fit the table's word."""

from __future__ import annotations

import random

import pytest

import games
from games.base import CHANCE, MOVE_CODE_LIMIT, GameState
from tests.games.playout import random_playout

PLAYOUTS = 12
"""Seeded random games per game: thousands of positions, every kind of move among them."""


def every_move(state: GameState) -> list[object]:
    """Legal moves, or the chance outcomes at a dice roll."""
    if state.to_move() == CHANCE:
        return [outcome for outcome, _ in state.chance_outcomes()]
    return state.legal_moves()


@pytest.mark.parametrize("name", games.GAME_NAMES)
def test_every_move_of_random_games_round_trips(name: str) -> None:
    rng = random.Random(20261124)
    decoder = games.new_game(name)  # codes do not depend on the position: any state decodes
    checked = 0
    for _ in range(PLAYOUTS):
        for state in random_playout(games.new_game(name), rng):
            codes: dict[int, object] = {}
            for move in every_move(state):
                code = state.encode_move(move)
                assert type(code) is int and 0 <= code < MOVE_CODE_LIMIT, (state.to_text(), move, code)
                assert decoder.decode_move(code) == move, (state.to_text(), state.move_name(move), code)
                assert codes.setdefault(code, move) == move, f"{state.to_text()}: two moves share code {code}"
                checked += 1
    assert checked > 100


def test_long_checkers_captures_and_promotions_round_trip() -> None:
    """A king's multi-jump and chess promotions: the longest and the rarest codes."""
    checkers = games.new_game("checkers", "W:WK30:B26,19,11,10,18")
    captures = [move for move in checkers.legal_moves() if len(move.path) > 3]
    assert captures, checkers.legal_moves()
    for move in captures:
        assert checkers.decode_move(checkers.encode_move(move)) == move
    chess = games.new_game("chess", "8/1P4k1/8/8/8/8/6K1/8 w - - 0 1")
    promotions = [move for move in chess.legal_moves() if move.promotion]
    assert len(promotions) == 4
    for move in promotions:
        assert chess.decode_move(chess.encode_move(move)) == move
