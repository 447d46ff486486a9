"""The chess EVAL: PeSTO material and piece-square tables plus a few cheap classical terms.

EVAL = Σ wᵢ·fᵢ(s), tapered: every weight is a (middlegame, endgame) pair (``tables.EVAL_WEIGHTS``)
and the two halves are blended by game phase (24 units of minor and major pieces at the
start, 0 in a pawn ending), as in PeSTO and Fruit.

Terms, each White's count minus Black's:

* material and piece-square bonuses (PeSTO), kept *incrementally* by ``ChessState.play``;
* mobility of knights, bishops, rooks and queens: attacked squares not held by their own
  side and not attacked by an enemy pawn (one popcount per piece);
* king safety: pawn shield in front of the king, and piece attacks next to the enemy king;
* pawn structure: doubled, isolated and passed pawns (memoised on the two pawn bitboards,
  the classical "pawn hash table", because pawns rarely move);
* the bishop pair.

``activity_counts`` and ``pawn_counts`` are the single source of truth for the feature
values: the fast path (``dynamic_score``) and the display path (``features``) both use
them, so ``evaluate`` always equals the sum of the breakdown.
"""

from __future__ import annotations

import chess

from games.chess_game.tables import (
    ADJACENT_FILES,
    DIAGONAL_ATTACKS,
    DIAGONAL_MASKS,
    ENDGAME_PIECE_VALUES,
    EVAL_WEIGHTS,
    FILE_ATTACKS,
    FILE_MASKS,
    FILE_RAY_MASKS,
    FRONT_FILE_MASKS,
    KING_SHIELD_MASKS,
    KING_ZONES,
    KNIGHT_ATTACKS,
    MATERIAL_FEATURES,
    MAX_PHASE,
    MIDDLEGAME_PIECE_VALUES,
    NOT_FILE_A,
    NOT_FILE_H,
    PASSED_PAWN_MASKS,
    PASSED_PAWN_UNITS,
    PHASE_WEIGHTS,
    PIECE_SCORES,
    RANK_ATTACKS,
    RANK_RAY_MASKS,
    Bitboard,
    Packed,
    packed_weight,
    piece_index,
    square_bonus,
    unpack,
)

ACTIVITY_FEATURES: tuple[str, ...] = (
    "knight_mobility",
    "bishop_mobility",
    "rook_mobility",
    "queen_mobility",
    "king_zone_attacks",
    "king_pawn_shield",
    "bishop_pair",
)
"""The order of the values ``activity_counts`` returns."""
PAWN_FEATURES: tuple[str, ...] = ("doubled_pawns", "isolated_pawns", "passed_pawns")
"""The order of the values ``pawn_counts`` returns."""

ACTIVITY_WEIGHTS: tuple[Packed, ...] = tuple(packed_weight(name) for name in ACTIVITY_FEATURES)
PAWN_WEIGHTS: tuple[Packed, ...] = tuple(packed_weight(name) for name in PAWN_FEATURES)

EVAL_CACHE_LIMIT = 1 << 17
"""Entries kept by the evaluation memo (``eval_cache``) before it is emptied (~15 MB)."""
eval_cache: dict[int, float] = {}
"""Zobrist key -> White's-view evaluation. ``ChessState.evaluate`` finds a quarter to a third
of its positions here during iterative deepening (measured on Bratko-Kopec positions and
in the engine's PVS)."""

PAWN_CACHE_LIMIT = 1 << 16
"""Entries kept by the pawn-structure memo before it is emptied (a few MB at most)."""
_pawn_cache: dict[tuple[Bitboard, Bitboard], Packed] = {}
"""(white pawns, black pawns) -> packed pawn-structure score. A pure-function memo: it holds
no state a result could depend on, so sharing it between states is safe."""


def clear_caches() -> None:
    """Forget memoised scores (call after changing ``EVAL_WEIGHTS`` or the tables)."""
    eval_cache.clear()
    _pawn_cache.clear()


# ------------------------------------------------------------------ incremental part
def material_and_squares(board: chess.BaseBoard) -> Packed:
    """Packed PeSTO material + piece-square score, White's view, from scratch.

    ``ChessState`` computes this once and then updates it move by move.
    """
    score = 0
    for square, piece in board.piece_map().items():
        score += PIECE_SCORES[piece_index(piece.piece_type, piece.color, square)]
    return score


def game_phase(board: chess.BaseBoard) -> int:
    """PeSTO's phase units on the board (24 at the start; may exceed 24 after promotions)."""
    return sum(
        PHASE_WEIGHTS[piece_type]
        * chess.popcount(
            board.pieces_mask(piece_type, chess.WHITE) | board.pieces_mask(piece_type, chess.BLACK)
        )
        for piece_type in chess.PIECE_TYPES
    )


def taper(score: Packed, phase: int) -> float:
    """Blend the two halves of a packed score: all middlegame at phase 24, all endgame at 0."""
    middlegame, endgame = unpack(score)
    phase = min(phase, MAX_PHASE)
    return (middlegame * phase + endgame * (MAX_PHASE - phase)) / MAX_PHASE


# ------------------------------------------------------------------ pieces
def _side_activity(
    knights: Bitboard,
    bishops: Bitboard,
    rooks: Bitboard,
    queens: Bitboard,
    occupied: Bitboard,
    mobility_area: Bitboard,
    enemy_king_zone: Bitboard,
) -> tuple[int, int, int, int, int]:
    """(knight, bishop, rook, queen mobility, attacks on the enemy king zone) of one side.

    Hot path (called twice per ``evaluate``): inlined bit scans and python-chess's attack
    tables instead of ``board.attacks_mask``, measured about 3x faster.
    """
    knight_mobility = bishop_mobility = rook_mobility = queen_mobility = zone_attacks = 0
    while knights:
        lowest = knights & -knights
        knights ^= lowest
        attacks = KNIGHT_ATTACKS[lowest.bit_length() - 1]
        knight_mobility += (attacks & mobility_area).bit_count()
        zone_attacks += (attacks & enemy_king_zone).bit_count()
    while bishops:
        lowest = bishops & -bishops
        bishops ^= lowest
        square = lowest.bit_length() - 1
        attacks = DIAGONAL_ATTACKS[square][DIAGONAL_MASKS[square] & occupied]
        bishop_mobility += (attacks & mobility_area).bit_count()
        zone_attacks += (attacks & enemy_king_zone).bit_count()
    while rooks:
        lowest = rooks & -rooks
        rooks ^= lowest
        square = lowest.bit_length() - 1
        attacks = (
            RANK_ATTACKS[square][RANK_RAY_MASKS[square] & occupied]
            | FILE_ATTACKS[square][FILE_RAY_MASKS[square] & occupied]
        )
        rook_mobility += (attacks & mobility_area).bit_count()
        zone_attacks += (attacks & enemy_king_zone).bit_count()
    while queens:
        lowest = queens & -queens
        queens ^= lowest
        square = lowest.bit_length() - 1
        attacks = (
            RANK_ATTACKS[square][RANK_RAY_MASKS[square] & occupied]
            | FILE_ATTACKS[square][FILE_RAY_MASKS[square] & occupied]
            | DIAGONAL_ATTACKS[square][DIAGONAL_MASKS[square] & occupied]
        )
        queen_mobility += (attacks & mobility_area).bit_count()
        zone_attacks += (attacks & enemy_king_zone).bit_count()
    return knight_mobility, bishop_mobility, rook_mobility, queen_mobility, zone_attacks


def activity_counts(board: chess.BaseBoard) -> tuple[int, ...]:
    """White minus Black for each of ``ACTIVITY_FEATURES``."""
    occupied = board.occupied
    white, black = board.occupied_co[chess.WHITE], board.occupied_co[chess.BLACK]
    pawns, knights, bishops = board.pawns, board.knights, board.bishops
    rooks, queens, kings = board.rooks, board.queens, board.kings
    white_pawns, black_pawns = pawns & white, pawns & black
    white_pawn_attacks = (white_pawns & NOT_FILE_A) << 7 | (white_pawns & NOT_FILE_H) << 9
    black_pawn_attacks = (black_pawns & NOT_FILE_A) >> 9 | (black_pawns & NOT_FILE_H) >> 7
    white_king = (kings & white).bit_length() - 1
    black_king = (kings & black).bit_length() - 1
    white_side = _side_activity(
        knights & white, bishops & white, rooks & white, queens & white,
        occupied, ~white & ~black_pawn_attacks, KING_ZONES[black_king],
    )  # fmt: skip
    black_side = _side_activity(
        knights & black, bishops & black, rooks & black, queens & black,
        occupied, ~black & ~white_pawn_attacks, KING_ZONES[white_king],
    )  # fmt: skip
    shield = (KING_SHIELD_MASKS[chess.WHITE][white_king] & white_pawns).bit_count() - (
        KING_SHIELD_MASKS[chess.BLACK][black_king] & black_pawns
    ).bit_count()
    bishop_pair = ((bishops & white).bit_count() >= 2) - ((bishops & black).bit_count() >= 2)
    return (
        white_side[0] - black_side[0],
        white_side[1] - black_side[1],
        white_side[2] - black_side[2],
        white_side[3] - black_side[3],
        white_side[4] - black_side[4],
        shield,
        bishop_pair,
    )


# ------------------------------------------------------------------ pawns
def _side_pawn_counts(own: Bitboard, enemy: Bitboard, color: chess.Color) -> tuple[int, int, int]:
    """(doubled, isolated, passed-pawn units) of one side's pawns."""
    doubled = isolated = 0
    for file in range(8):
        on_file = (own & FILE_MASKS[file]).bit_count()
        if on_file:
            doubled += on_file - 1
            if not own & ADJACENT_FILES[file]:
                isolated += on_file
    passed = 0
    passed_masks = PASSED_PAWN_MASKS[color]
    front_masks = FRONT_FILE_MASKS[color]
    pawns = own
    while pawns:
        lowest = pawns & -pawns
        pawns ^= lowest
        square = lowest.bit_length() - 1
        if not enemy & passed_masks[square] and not own & front_masks[square]:
            rank = square >> 3
            passed += PASSED_PAWN_UNITS[rank if color == chess.WHITE else 7 - rank]
    return doubled, isolated, passed


def pawn_counts(white_pawns: Bitboard, black_pawns: Bitboard) -> tuple[int, int, int]:
    """White minus Black for each of ``PAWN_FEATURES``."""
    white = _side_pawn_counts(white_pawns, black_pawns, chess.WHITE)
    black = _side_pawn_counts(black_pawns, white_pawns, chess.BLACK)
    return white[0] - black[0], white[1] - black[1], white[2] - black[2]


def pawn_structure_score(white_pawns: Bitboard, black_pawns: Bitboard) -> Packed:
    """Packed pawn-structure score, White's view, memoised on the pawn bitboards."""
    cache_key = (white_pawns, black_pawns)
    score = _pawn_cache.get(cache_key)
    if score is None:
        doubled, isolated, passed = pawn_counts(white_pawns, black_pawns)
        score = doubled * PAWN_WEIGHTS[0] + isolated * PAWN_WEIGHTS[1] + passed * PAWN_WEIGHTS[2]
        if len(_pawn_cache) >= PAWN_CACHE_LIMIT:
            _pawn_cache.clear()
        _pawn_cache[cache_key] = score
    return score


# ------------------------------------------------------------------ totals
def dynamic_score(board: chess.BaseBoard) -> Packed:
    """Packed score of every term that is not kept incrementally, White's view."""
    counts = activity_counts(board)
    score = (
        counts[0] * ACTIVITY_WEIGHTS[0]
        + counts[1] * ACTIVITY_WEIGHTS[1]
        + counts[2] * ACTIVITY_WEIGHTS[2]
        + counts[3] * ACTIVITY_WEIGHTS[3]
        + counts[4] * ACTIVITY_WEIGHTS[4]
        + counts[5] * ACTIVITY_WEIGHTS[5]
        + counts[6] * ACTIVITY_WEIGHTS[6]
    )
    pawns = board.pawns
    return score + pawn_structure_score(
        pawns & board.occupied_co[chess.WHITE], pawns & board.occupied_co[chess.BLACK]
    )


def _tapered_weight(middlegame: float, endgame: float, phase: int) -> float:
    return (middlegame * phase + endgame * (MAX_PHASE - phase)) / MAX_PHASE


def features(board: chess.BaseBoard, white_view: bool) -> dict[str, tuple[float, float]]:
    """The EVAL breakdown ``{name: (weight, value)}`` computed from scratch.

    Values are White's count minus Black's (negated for Black's view); weights are the
    feature's (middlegame, endgame) pair tapered to the current phase. The PeSTO
    piece-square part is one feature, ``piece_squares``, of weight 1 whose value is the
    tapered sum of the square bonuses.
    """
    phase = min(game_phase(board), MAX_PHASE)
    sign = 1 if white_view else -1
    breakdown: dict[str, tuple[float, float]] = {}
    for name, piece_type in MATERIAL_FEATURES.items():
        count = chess.popcount(board.pieces_mask(piece_type, chess.WHITE)) - chess.popcount(
            board.pieces_mask(piece_type, chess.BLACK)
        )
        weight = _tapered_weight(
            MIDDLEGAME_PIECE_VALUES[piece_type], ENDGAME_PIECE_VALUES[piece_type], phase
        )
        breakdown[name] = (weight, float(sign * count))
    middlegame = endgame = 0
    for square, piece in board.piece_map().items():
        piece_sign = 1 if piece.color == chess.WHITE else -1
        bonus_middlegame, bonus_endgame = square_bonus(piece.piece_type, piece.color, square)
        middlegame += piece_sign * bonus_middlegame
        endgame += piece_sign * bonus_endgame
    breakdown["piece_squares"] = (1.0, sign * _tapered_weight(middlegame, endgame, phase))
    pawns = board.pawns
    counts = activity_counts(board) + pawn_counts(
        pawns & board.occupied_co[chess.WHITE], pawns & board.occupied_co[chess.BLACK]
    )
    for name, count in zip(ACTIVITY_FEATURES + PAWN_FEATURES, counts):
        weight = _tapered_weight(*EVAL_WEIGHTS[name], phase)
        breakdown[name] = (weight, float(sign * count))
    return breakdown
