"""The chess EVAL: PeSTO material and piece-square tables plus a few cheap classical terms.

EVAL = Σ wᵢ·fᵢ(s), tapered: every weight is a (middlegame, endgame) pair and the two halves
are blended by game phase (24 units of minor and major pieces at the start, 0 in a pawn
ending), as in PeSTO and Fruit. The weights are data: resources/weights/chess.json, read by
``tables`` and replaced by ``set_weights`` (``ChessState.set_weights``).

Terms, each White's count minus Black's:

* material and piece-square bonuses (PeSTO), kept *incrementally* by ``ChessState.play``;
* mobility of knights, bishops, rooks and queens: attacked squares not held by their own
  side and not attacked by an enemy pawn (one popcount per piece);
* king safety: pawn shield in front of the king, and piece attacks next to the enemy king;
* pawn structure: doubled and isolated pawns, and passed pawns by rank (memoised on the
  two pawn bitboards, the classical "pawn hash table", because pawns rarely move);
* the bishop pair.

``activity_counts`` and ``pawn_counts`` are the single source of truth for the feature
values: the fast path (``dynamic_score``), the display path (``features``) and the tuner's
path (``feature_terms``) all use them, so ``evaluate`` always equals the sum of the
breakdown, and the weight vector times ``feature_terms``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import chess

from games.weights import WeightsError
from games.chess_game import tables
from games.chess_game.tables import (
    ADJACENT_FILES,
    DIAGONAL_ATTACKS,
    DIAGONAL_MASKS,
    FILE_ATTACKS,
    FILE_MASKS,
    FILE_RAY_MASKS,
    FRONT_FILE_MASKS,
    KING_SHIELD_MASKS,
    KING_ZONES,
    KNIGHT_ATTACKS,
    MATERIAL_FEATURES,
    MAX_PHASE,
    PIECE_NAMES,
    TUNED_PIECES,
    WEIGHT_SHAPES,
    NOT_FILE_A,
    NOT_FILE_H,
    PASSED_PAWN_MASKS,
    PASSED_PAWN_PACKED,
    PASSED_PAWN_SCORES,
    PHASE_WEIGHTS,
    PIECE_SCORES,
    RANK_ATTACKS,
    RANK_RAY_MASKS,
    Bitboard,
    Packed,
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
PAWN_FEATURES: tuple[str, ...] = ("doubled_pawns", "isolated_pawns")
"""The order of the counts ``pawn_counts`` returns before its passed pawns by rank."""

ACTIVITY_WEIGHTS: list[Packed] = tables.packed_weights(ACTIVITY_FEATURES)
"""Packed weights of ``ACTIVITY_FEATURES`` (kept current by ``tables.apply_weights``)."""
PAWN_WEIGHTS: list[Packed] = tables.packed_weights(PAWN_FEATURES)
"""Packed weights of ``PAWN_FEATURES`` (kept current by ``tables.apply_weights``)."""

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
    """Forget memoised scores (``set_weights`` calls it: they were made with other weights)."""
    eval_cache.clear()
    _pawn_cache.clear()


weights_generation = 0
"""Counts ``set_weights`` calls: a state's incremental score is good for one generation."""


def set_weights(weights: Mapping[str, Any] | None) -> None:
    """Evaluate with ``weights`` from now on (``None``: the shipped ones), in this process.

    Names missing from ``weights`` keep their shipped values; an unknown name or a badly
    shaped value raises ``games.weights.WeightsError`` (and changes nothing). Each call
    starts a new ``weights_generation``: a ``ChessState`` made earlier carries an incremental
    score made with the old tables, and notices (see ``ChessState.copy`` and ``evaluate``).
    """
    global weights_generation
    tables.apply_weights(tables.SHIPPED_WEIGHTS if weights is None else weights)
    weights_generation += 1
    clear_caches()


def current_weights() -> dict[str, Any]:
    """Every weight the EVAL uses now (a copy, in the shape of chess.json's ``weights``)."""
    return {name: _nested_copy(value) for name, value in tables.CURRENT_WEIGHTS.items()}


def _nested_copy(value: Any) -> Any:
    return [_nested_copy(item) for item in value] if isinstance(value, list) else value


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
def _side_pawn_counts(
    own: Bitboard, enemy: Bitboard, color: chess.Color
) -> tuple[int, int, list[int]]:
    """(doubled, isolated, passed pawns by rank from their own side) of one side's pawns."""
    doubled = isolated = 0
    for file in range(8):
        on_file = (own & FILE_MASKS[file]).bit_count()
        if on_file:
            doubled += on_file - 1
            if not own & ADJACENT_FILES[file]:
                isolated += on_file
    passed = [0] * 8
    passed_masks = PASSED_PAWN_MASKS[color]
    front_masks = FRONT_FILE_MASKS[color]
    pawns = own
    while pawns:
        lowest = pawns & -pawns
        pawns ^= lowest
        square = lowest.bit_length() - 1
        if not enemy & passed_masks[square] and not own & front_masks[square]:
            rank = square >> 3
            passed[rank if color == chess.WHITE else 7 - rank] += 1
    return doubled, isolated, passed


def pawn_counts(white_pawns: Bitboard, black_pawns: Bitboard) -> tuple[int, ...]:
    """White minus Black for each of ``PAWN_FEATURES``, then for passed pawns on each
    rank counted from their own side (8 values, index 1 = the second rank)."""
    white = _side_pawn_counts(white_pawns, black_pawns, chess.WHITE)
    black = _side_pawn_counts(black_pawns, white_pawns, chess.BLACK)
    return (
        white[0] - black[0],
        white[1] - black[1],
        *(white_passed - black_passed for white_passed, black_passed in zip(white[2], black[2])),
    )


def pawn_structure_score(white_pawns: Bitboard, black_pawns: Bitboard) -> Packed:
    """Packed pawn-structure score, White's view, memoised on the pawn bitboards."""
    cache_key = (white_pawns, black_pawns)
    score = _pawn_cache.get(cache_key)
    if score is None:
        counts = pawn_counts(white_pawns, black_pawns)
        score = counts[0] * PAWN_WEIGHTS[0] + counts[1] * PAWN_WEIGHTS[1]
        for rank, passed in enumerate(counts[2:]):
            if passed:
                score += passed * PASSED_PAWN_PACKED[rank]
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
    feature's (middlegame, endgame) pair tapered to the current phase. The piece-square
    part is one feature, ``piece_squares``, of weight 1 whose value is the tapered sum of
    the square bonuses; passed pawns likewise (``passed_pawns``: their weights depend on
    the rank).
    """
    phase = min(game_phase(board), MAX_PHASE)
    sign = 1 if white_view else -1
    breakdown: dict[str, tuple[float, float]] = {}
    for name, piece_type in MATERIAL_FEATURES.items():
        count = chess.popcount(board.pieces_mask(piece_type, chess.WHITE)) - chess.popcount(
            board.pieces_mask(piece_type, chess.BLACK)
        )
        weight = _tapered_weight(
            tables.MIDDLEGAME_PIECE_VALUES[piece_type], tables.ENDGAME_PIECE_VALUES[piece_type], phase
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
    pawn_values = pawn_counts(pawns & board.occupied_co[chess.WHITE], pawns & board.occupied_co[chess.BLACK])
    counts = activity_counts(board) + pawn_values[: len(PAWN_FEATURES)]
    for name, count in zip(ACTIVITY_FEATURES + PAWN_FEATURES, counts):
        weight = _tapered_weight(*tables.EVAL_WEIGHTS[name], phase)
        breakdown[name] = (weight, float(sign * count))
    passed_middlegame = passed_endgame = 0
    for rank, count in enumerate(pawn_values[len(PAWN_FEATURES) :]):
        passed_middlegame += count * PASSED_PAWN_SCORES[rank][0]
        passed_endgame += count * PASSED_PAWN_SCORES[rank][1]
    breakdown["passed_pawns"] = (1.0, sign * _tapered_weight(passed_middlegame, passed_endgame, phase))
    return breakdown


# ------------------------------------------------------------------ the linear form (tuning)
def _weight_offsets() -> dict[str, int]:
    """Where each weight of ``WEIGHT_SHAPES`` starts in the flat weight vector."""
    offsets: dict[str, int] = {}
    size = 0
    for name, shape in WEIGHT_SHAPES.items():
        offsets[name] = size
        size += math.prod(shape)
    return offsets


WEIGHT_OFFSETS: dict[str, int] = _weight_offsets()
WEIGHT_COUNT: int = sum(math.prod(shape) for shape in WEIGHT_SHAPES.values())
"""Length of the flat weight vector: every weight of chess.json flattened in
``WEIGHT_SHAPES`` order (row-major; the last axis is middlegame, endgame)."""


def _flatten(value: Any) -> list[float]:
    if isinstance(value, list):
        return [number for item in value for number in _flatten(item)]
    return [float(value)]


def weight_vector(weights: Mapping[str, Any] | None = None) -> list[float]:
    """The flat weight vector of ``weights`` (default: the current ones)."""
    source = tables.checked_weights(weights) if weights is not None else tables.CURRENT_WEIGHTS
    vector: list[float] = []
    for name in WEIGHT_SHAPES:
        vector.extend(_flatten(source[name]))
    return vector


def weights_from_vector(vector: list[float]) -> dict[str, Any]:
    """The weights mapping (chess.json's shape, numbers rounded to ints) of a flat vector."""
    if len(vector) != WEIGHT_COUNT:
        raise WeightsError(f"a chess weight vector has {WEIGHT_COUNT} numbers, not {len(vector)}")
    numbers = iter(vector)

    def build(shape: tuple[int, ...]) -> Any:
        if not shape:
            return round(next(numbers))
        return [build(shape[1:]) for _ in range(shape[0])]

    return {name: build(shape) for name, shape in WEIGHT_SHAPES.items()}


def feature_terms(board: chess.BaseBoard) -> dict[int, float]:
    """The EVAL as a linear form: {index in the weight vector: coefficient}, White's view.

    ``sum(coefficient * weight_vector()[index])`` equals ``evaluate(WHITE)``: each count
    (White's minus Black's) feeds a weight's middlegame half with ``phase / 24`` and its
    endgame half with ``(24 - phase) / 24``. This is what the Texel tuner fits.
    """
    phase = min(game_phase(board), MAX_PHASE)
    middlegame_share = phase / MAX_PHASE
    endgame_share = (MAX_PHASE - phase) / MAX_PHASE
    terms: dict[int, float] = {}

    def add(index: int, count: float) -> None:
        if count:
            terms[index] = terms.get(index, 0.0) + count * middlegame_share
            terms[index + 1] = terms.get(index + 1, 0.0) + count * endgame_share

    material_offset = WEIGHT_OFFSETS["material"]
    for position, piece_type in enumerate(TUNED_PIECES):
        count = chess.popcount(board.pieces_mask(piece_type, chess.WHITE)) - chess.popcount(
            board.pieces_mask(piece_type, chess.BLACK)
        )
        add(material_offset + 2 * position, count)
    for square, piece in board.piece_map().items():
        printed_index = square ^ 56 if piece.color == chess.WHITE else square
        offset = WEIGHT_OFFSETS[f"{PIECE_NAMES[piece.piece_type]}_squares"]
        add(offset + 2 * printed_index, 1 if piece.color == chess.WHITE else -1)
    pawns = board.pawns
    pawn_values = pawn_counts(pawns & board.occupied_co[chess.WHITE], pawns & board.occupied_co[chess.BLACK])
    counts = activity_counts(board) + pawn_values[: len(PAWN_FEATURES)]
    for name, count in zip(ACTIVITY_FEATURES + PAWN_FEATURES, counts):
        add(WEIGHT_OFFSETS[name], count)
    passed_offset = WEIGHT_OFFSETS["passed_pawns"]
    for rank, count in enumerate(pawn_values[len(PAWN_FEATURES) :]):
        add(passed_offset + 2 * rank, count)
    return terms


set_weights(None)
