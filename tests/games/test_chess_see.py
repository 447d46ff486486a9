"""Chess search hooks: static exchange evaluation and the quiet checks of quiescence.

SEE values are worked out by hand for each position (the swap sequence is in the comment);
``exchange_at_least`` must agree with the full swap list on every capture and quiet move of
seeded random games; ``checking_moves`` is checked against python-chess's ``gives_check``.
"""

from __future__ import annotations

import random

import chess
import pytest

from games.chess_game.see import SEE_VALUES, exchange_gain
from games.chess_game.state import ChessState

PAWN, KNIGHT, BISHOP, ROOK, QUEEN = (SEE_VALUES[piece] for piece in range(1, 6))

EXCHANGES = [
    # Rxe5: the pawn is undefended.
    ("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5", PAWN),
    # Nxe5 Nxe5 Rxe5 Bxe5 ...: white wins a pawn, loses the knight, and going on with the
    # rook only loses more (Bxe5), so white stops: pawn minus knight.
    ("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1", "d3e5", PAWN - KNIGHT),
    # exd5 cxd5: pawn for pawn.
    ("4k3/8/2p5/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", 0),
    # Qxd5 cxd5: the queen for a pawn.
    ("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", PAWN - QUEEN),
    # Rxd5 Rxd5 Rxd5: white ends a rook up (the x-ray rook on d1 joins).
    ("3rk3/8/8/3r4/8/8/3R4/3RK3 w - - 0 1", "d2d5", ROOK),
    # Kxe2: the queen is undefended.
    ("4k3/8/8/8/8/8/4q3/4K3 w - - 0 1", "e1e2", QUEEN),
    # Nf6+?? (quiet) gxf6: the knight is lost to a pawn.
    ("4k3/6p1/8/3N4/8/8/8/4K3 w - - 0 1", "d5f6", -KNIGHT),
    # Nb6 (quiet) to a square nobody guards: nothing lost.
    ("4k3/6p1/8/3N4/8/8/8/4K3 w - - 0 1", "d5b6", 0),
    # exd6 en passant, cxd6: pawn for pawn.
    ("4k3/2p5/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 0),
    # b8=Q, Rxb8: the new queen is taken at once, a pawn lost.
    ("2r1k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q", -PAWN),
    # bxa8=Q, nothing recaptures: a rook and a queen for a pawn.
    ("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7a8q", ROOK + QUEEN - PAWN),
    # Na8 (quiet), bxa8=Q: the knight is lost, and the pawn taking it becomes a queen.
    ("2n5/1P6/1n1k4/8/3K4/8/4N3/5N2 b - - 4 7", "b6a8", -(KNIGHT + QUEEN - PAWN)),
    # Ba1 (quiet), Kxa1: only the bishop is lost (the king takes on a last-rank square).
    ("8/8/8/1B1B4/3b4/4b3/5k2/1K6 b - - 90 46", "d4a1", -BISHOP),
]


@pytest.mark.parametrize(("fen", "uci", "gain"), EXCHANGES)
def test_exchange_gain_by_hand(fen: str, uci: str, gain: int) -> None:
    state = ChessState.from_text(fen)
    move = chess.Move.from_uci(uci)
    assert move in state.legal_moves(), f"{uci} in {fen}"
    assert state.exchange_gain(move) == gain, f"{uci} in {fen}"
    for threshold in (gain - 1, gain, gain + 1):
        assert state.exchange_at_least(move, threshold) == (gain >= threshold), f"{uci} >= {threshold} in {fen}"


def random_positions(count: int, seed: int = 5) -> list[ChessState]:
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        state = ChessState()
        for _ in range(rng.randint(6, 70)):
            if state.is_terminal():
                break
            state.play(rng.choice(state.legal_moves()))
        if not state.is_terminal():
            positions.append(state)
    return positions


def test_exchange_at_least_agrees_with_the_swap_list() -> None:
    for state in random_positions(60):
        for move in state.legal_moves():
            gain = exchange_gain(state.board, move)
            for threshold in (-QUEEN, -ROOK, -PAWN, 0, PAWN, ROOK):
                assert state.exchange_at_least(move, threshold) == (gain >= threshold), (
                    f"{move.uci()} >= {threshold} in {state.to_text()} (gain {gain})"
                )


def test_exchange_at_least_agrees_on_positions_with_promotions_and_en_passant() -> None:
    """The threshold loop ends early, and last-rank squares (a recapture may promote) take
    the swap list: both must give the swap list's answer, on perft-suite playouts."""
    from tests.games.test_chess import random_states

    for state in random_states(5, 150):
        board = state.board
        for move in state.legal_moves():
            gain = exchange_gain(board, move)
            for threshold in (-QUEEN - ROOK, -QUEEN, -ROOK, -KNIGHT, -PAWN, -40, 0, 1, PAWN, ROOK, QUEEN):
                assert state.exchange_at_least(move, threshold) == (gain >= threshold), (
                    f"{move.uci()} >= {threshold} in {state.to_text()} (gain {gain})"
                )


def test_gives_check_agrees_with_python_chess() -> None:
    """``gives_check`` (asked before a quiet move is pruned) names exactly the moves after
    which the enemy king is attacked: direct, discovered, by promotion, castling, en passant."""
    from tests.games.test_chess import random_states

    checks = 0
    for state in random_states(3, 300) + random_positions(60, seed=5):
        board = state.board
        for move in state.legal_moves():
            expected = board.gives_check(move)
            checks += expected
            assert state.gives_check(move) == expected, f"{move.uci()} in {state.to_text()}"
    assert checks > 50  # the sample has checks of every kind to get right


def test_checking_moves_are_the_quiet_direct_checks() -> None:
    for state in random_positions(150, seed=11):
        if state.is_in_check():
            continue
        board = state.board
        found = state.checking_moves()
        assert len(found) == len(set(found))
        direct = set()
        for move in state.legal_moves():
            if board.is_capture(move) or move.promotion or not board.gives_check(move):
                continue
            board.push(move)
            if board.checkers() & chess.BB_SQUARES[move.to_square]:
                direct.add(move)
            board.pop()
        # every direct quiet check, and (a knight's move that also uncovers a check aside)
        # only quiet checking moves
        assert direct <= set(found), state.to_text()
        for move in found:
            assert move in state.legal_moves() and board.gives_check(move) and not board.is_capture(move), (
                f"{move.uci()} in {state.to_text()}"
            )
