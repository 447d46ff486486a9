"""Static exchange evaluation (SEE): what a capture wins once every recapture on its square
has been played out, cheapest piece first, each side free to stop when going on would lose.

The swap-list algorithm of the chess programming literature (e.g. Heinz, "Scalable Search in
Computer Chess", 2000, and every engine since): the pieces attacking the target square are
collected once, x-ray attackers behind a piece that has captured join as it leaves the
square; ``gains[d]`` is what the side making capture ``d`` has won if the exchange stops
after it, and the list is folded back with "stop or go on, whichever is better"::

    gains[0] = value(victim)
    gains[d] = value(piece captured at step d) - gains[d - 1]
    gains[d - 1] = -max(-gains[d - 1], gains[d])      (for d = last .. 1)

Pins and checks are ignored (as usual for SEE); a king captures only when the other side has
no attacker left on the square (it may not step into check). Values are material only,
in centipawns, on the scale of the evaluation's middlegame pieces; the king is worth more
than everything else together, so it never ends up "captured".
"""

from __future__ import annotations

from typing import Final

import chess

Bitboard = int

SEE_VALUES: Final[tuple[int, ...]] = (0, 100, 320, 330, 500, 950, 20_000)
"""Material per piece type (index: python-chess's piece type; 0 = no piece)."""
PIECE_TYPES_CHEAPEST_FIRST: Final = (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING)
BB_SQUARES = chess.BB_SQUARES
BB_BACKRANKS = chess.BB_RANK_1 | chess.BB_RANK_8


BB_DIAG_MASKS, BB_DIAG_ATTACKS = chess.BB_DIAG_MASKS, chess.BB_DIAG_ATTACKS
BB_FILE_MASKS, BB_FILE_ATTACKS = chess.BB_FILE_MASKS, chess.BB_FILE_ATTACKS
BB_RANK_MASKS, BB_RANK_ATTACKS = chess.BB_RANK_MASKS, chess.BB_RANK_ATTACKS
BB_KNIGHT_ATTACKS, BB_KING_ATTACKS, BB_PAWN_ATTACKS = chess.BB_KNIGHT_ATTACKS, chess.BB_KING_ATTACKS, chess.BB_PAWN_ATTACKS


def _slider_attackers(board: chess.Board, target: int, occupied: Bitboard) -> Bitboard:
    """Bishops, rooks and queens of both colours that see ``target`` through ``occupied``."""
    queens = board.queens
    return (
        BB_DIAG_ATTACKS[target][BB_DIAG_MASKS[target] & occupied] & (board.bishops | queens)
        | (BB_RANK_ATTACKS[target][BB_RANK_MASKS[target] & occupied] | BB_FILE_ATTACKS[target][BB_FILE_MASKS[target] & occupied])
        & (board.rooks | queens)
    )


def _all_attackers(board: chess.Board, target: int, occupied: Bitboard) -> Bitboard:
    """Every piece of both colours attacking ``target`` with the board's pieces on
    ``occupied`` (a piece not on ``occupied`` has left and is masked out by the caller)."""
    colours = board.occupied_co
    pawns = board.pawns
    return (
        BB_KNIGHT_ATTACKS[target] & board.knights
        | BB_KING_ATTACKS[target] & board.kings
        | BB_PAWN_ATTACKS[chess.BLACK][target] & pawns & colours[chess.WHITE]
        | BB_PAWN_ATTACKS[chess.WHITE][target] & pawns & colours[chess.BLACK]
        | _slider_attackers(board, target, occupied)
    )


def _victim_value(board: chess.Board, move: chess.Move) -> int:
    """Material the move takes off the board (en passant: a pawn), plus what a promotion
    adds (the new piece less the pawn)."""
    victim = board.piece_type_at(move.to_square)
    value = SEE_VALUES[victim] if victim else 0
    if not victim and board.pawns & BB_SQUARES[move.from_square] and move.to_square == board.ep_square:
        value = SEE_VALUES[chess.PAWN]
    if move.promotion:
        value += SEE_VALUES[move.promotion] - SEE_VALUES[chess.PAWN]
    return value


def exchange_gain(board: chess.Board, move: chess.Move) -> int:
    """The material the side to move wins (negative: loses) by ``move`` when the exchange
    on its target square is played out; 0 for a quiet move to a square nobody attacks."""
    from_square, target = move.from_square, move.to_square
    mover = board.piece_type_at(from_square)
    if mover is None:
        raise ValueError(f"no piece on {chess.square_name(from_square)} for {move.uci()}")
    gains = [_victim_value(board, move)]
    on_square = SEE_VALUES[move.promotion or mover]  # what the next capture takes
    occupied = board.occupied ^ BB_SQUARES[from_square]
    if mover == chess.PAWN and target == board.ep_square and not board.piece_type_at(target):
        occupied ^= BB_SQUARES[target + (-8 if board.turn else 8)]
    occupied |= BB_SQUARES[target]
    by_type = (0, board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings)
    colours = board.occupied_co
    side = not board.turn
    attackers = _all_attackers(board, target, occupied) & occupied
    while True:
        own = attackers & colours[side]
        if not own:
            break
        for piece_type in PIECE_TYPES_CHEAPEST_FIRST:
            candidates = own & by_type[piece_type]
            if candidates:
                break
        if piece_type == chess.KING and attackers & colours[not side]:
            break  # the king may not capture into a defended square
        piece = candidates & -candidates
        gains.append(on_square - gains[-1])
        on_square = SEE_VALUES[piece_type]
        if piece_type == chess.PAWN and BB_SQUARES[target] & BB_BACKRANKS:
            gains[-1] += SEE_VALUES[chess.QUEEN] - SEE_VALUES[chess.PAWN]
            on_square = SEE_VALUES[chess.QUEEN]
        occupied ^= piece
        # x-rays: sliders behind the piece that just captured now see the square
        attackers = (attackers | _slider_attackers(board, target, occupied)) & occupied
        side = not side
    for depth in range(len(gains) - 1, 0, -1):
        gains[depth - 1] = -max(-gains[depth - 1], gains[depth])
    return gains[0]


def exchange_at_least(board: chess.Board, move: chess.Move, threshold: int) -> bool:
    """Whether ``exchange_gain(board, move) >= threshold``, with the two cheap answers first:
    a capture that wins ``threshold`` even if the capturer is lost at once, and one that
    cannot win it even if the capturer survives (most captures in a search are one of the
    two, so the swap list is rarely built)."""
    from_square, to_square, promotion = move.from_square, move.to_square, move.promotion
    occupied = board.occupied
    if occupied & BB_SQUARES[to_square]:
        victim = SEE_VALUES[board.piece_type_at(to_square)]  # type: ignore[index]
        if promotion:
            victim += SEE_VALUES[promotion] - SEE_VALUES[chess.PAWN]
    elif promotion or to_square == board.ep_square:
        victim = _victim_value(board, move)
    else:
        victim = 0  # a quiet move
    if victim < threshold:
        return False
    mover = board.piece_type_at(from_square)
    if mover == chess.KING:
        return True  # a king's capture is legal, so never recaptured
    if BB_SQUARES[to_square] & BB_BACKRANKS:
        return exchange_gain(board, move) >= threshold  # a pawn may take back and promote
    if victim - SEE_VALUES[promotion or mover] >= threshold:  # type: ignore[index]
        return True  # at worst lost at once
    occupied ^= BB_SQUARES[from_square]
    if mover == chess.PAWN and to_square == board.ep_square and not occupied & BB_SQUARES[to_square]:  # en passant
        occupied ^= BB_SQUARES[to_square + (-8 if board.turn else 8)]
    attackers = _all_attackers(board, to_square, occupied) & occupied
    colours = board.occupied_co
    side = not board.turn
    if not attackers & colours[side]:
        return True  # nobody can take back: the victim is won as it is
    # The swap loop with a threshold (Stockfish's see_ge): ``swap`` is what the side about
    # to capture is above its goal if it captures and the exchange then stops; the loop
    # ends as soon as one side reaches its goal whatever follows.
    # (Last-rank squares, where a recapture may promote, took the swap list above.)
    swap = SEE_VALUES[promotion or mover] - (victim - threshold)  # type: ignore[index]
    by_type = (0, board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings)
    result = True
    while True:
        own = attackers & colours[side]
        if not own:
            break
        for piece_type in PIECE_TYPES_CHEAPEST_FIRST:
            candidates = own & by_type[piece_type]
            if candidates:
                break
        if piece_type == chess.KING:
            return result if attackers & colours[not side] else not result
        result = not result
        swap = SEE_VALUES[piece_type] - swap
        if swap < result:
            break
        occupied ^= candidates & -candidates
        attackers = (attackers | _slider_attackers(board, to_square, occupied)) & occupied
        side = not side
    return result
