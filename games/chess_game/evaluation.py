"""The chess EVAL: PeSTO material and piece-square tables plus a few cheap classical terms.

EVAL = Σ wᵢ·fᵢ(s), tapered: every weight is a (middlegame, endgame) pair and the two halves
are blended by game phase (24 units of minor and major pieces at the start, 0 in a pawn
ending), as in PeSTO and Fruit. The weights are data: resources/weights/chess.json, read by
``tables`` and replaced by ``set_weights`` (``ChessState.set_weights``).

Terms, each White's count minus Black's:

* material and piece-square bonuses (PeSTO), kept *incrementally* by ``ChessState.play``;
* mobility of knights, bishops, rooks and queens: attacked squares not held by their own
  side and not attacked by an enemy pawn (one popcount per piece);
* king safety: pawn shield in front of the king, piece attacks next to the enemy king, and
  a king attack that grows with the square of the attackers' units;
* rooks on open and semi-open files; enemy pieces attacked by pawns;
* pawn structure: doubled and isolated pawns, and passed pawns by rank (memoised on the
  two pawn bitboards, the classical "pawn hash table", because pawns rarely move);
* passed pawns with their square in front free, and the kings' race to that square;
* the bishop pair.

``activity_counts``, ``pawn_counts`` and ``passer_counts`` are the single source of truth
for the feature values: the fast path (``dynamic_score``), the display path (``features``)
and the tuner's path (``feature_terms``) all use them, so ``evaluate`` always equals the sum
of the breakdown, and the weight vector times ``feature_terms``.
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
    KING_ATTACK_MIN_ATTACKERS,
    KING_ATTACK_UNIT_CAP,
    KING_ATTACK_UNITS,
    KING_SHIELD_MASKS,
    KING_ATTACKS,
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
    PASSER_DISTANCE_FACTORS,
    PASSER_FREE_FACTORS,
    PHASE_WEIGHTS,
    PIECE_SCORES,
    RANK_ATTACKS,
    RANK_RAY_MASKS,
    SQUARE_DISTANCES,
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
    "king_attack",
    "rook_open_file",
    "rook_semi_open_file",
    "pawn_threats",
    "minor_threats",
    "rook_threats",
    "hanging_pieces",
    "king_open_files",
)
"""The order of the values ``activity_counts`` returns."""
PAWN_FEATURES: tuple[str, ...] = ("doubled_pawns", "isolated_pawns")
"""The order of the counts ``pawn_counts`` returns before its passed pawns by rank."""
PASSER_FEATURES: tuple[str, ...] = ("passed_pawn_free", "king_passer_distance")
"""The order of the values ``passer_counts`` returns."""

ACTIVITY_WEIGHTS: list[Packed] = tables.packed_weights(ACTIVITY_FEATURES)
"""Packed weights of ``ACTIVITY_FEATURES`` (kept current by ``tables.apply_weights``)."""
PAWN_WEIGHTS: list[Packed] = tables.packed_weights(PAWN_FEATURES)
"""Packed weights of ``PAWN_FEATURES`` (kept current by ``tables.apply_weights``)."""
PASSER_WEIGHTS: list[Packed] = tables.packed_weights(PASSER_FEATURES)
"""Packed weights of ``PASSER_FEATURES`` (kept current by ``tables.apply_weights``)."""

EVAL_CACHE_LIMIT = 1 << 17
"""Entries kept by the evaluation memo (``eval_cache``) before it is emptied (~15 MB)."""
eval_cache: dict[int, float] = {}
"""Zobrist key -> White's-view evaluation. ``ChessState.evaluate`` finds a quarter to a third
of its positions here during iterative deepening (measured on Bratko-Kopec positions and
in the engine's PVS)."""

PAWN_CACHE_LIMIT = 1 << 16
"""Entries kept by the pawn-structure memo before it is emptied (a few MB at most)."""
_pawn_cache: dict[tuple[Bitboard, Bitboard], tuple[Packed, Bitboard, Bitboard]] = {}
"""(white pawns, black pawns) -> (packed pawn-structure score, White's passed pawns, Black's
passed pawns). A pure-function memo: it holds no state a result could depend on, so sharing
it between states is safe."""


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
    own_pawns: Bitboard,
    all_pawns: Bitboard,
) -> tuple[int, int, int, int, int, int, int, int, Bitboard, Bitboard, Bitboard]:
    """(knight, bishop, rook, queen mobility, attacks on the enemy king zone, king attack,
    rooks on open files, rooks on semi-open files; the squares its knights and bishops, its
    rooks, and all four kinds attack) of one side.

    Hot path (called twice per ``evaluate``): inlined bit scans and python-chess's attack
    tables instead of ``board.attacks_mask``, measured about 3x faster.
    """
    knight_mobility = bishop_mobility = rook_mobility = queen_mobility = zone_attacks = 0
    attackers = attack_units = open_files = semi_open_files = 0
    minor_attacks = rook_attacks = covered = 0
    while knights:
        lowest = knights & -knights
        knights ^= lowest
        attacks = KNIGHT_ATTACKS[lowest.bit_length() - 1]
        minor_attacks |= attacks
        knight_mobility += (attacks & mobility_area).bit_count()
        if attacks & enemy_king_zone:
            zone_attacks += (attacks & enemy_king_zone).bit_count()
            attackers += 1
            attack_units += KING_ATTACK_UNITS[chess.KNIGHT]
    while bishops:
        lowest = bishops & -bishops
        bishops ^= lowest
        square = lowest.bit_length() - 1
        attacks = DIAGONAL_ATTACKS[square][DIAGONAL_MASKS[square] & occupied]
        minor_attacks |= attacks
        bishop_mobility += (attacks & mobility_area).bit_count()
        if attacks & enemy_king_zone:
            zone_attacks += (attacks & enemy_king_zone).bit_count()
            attackers += 1
            attack_units += KING_ATTACK_UNITS[chess.BISHOP]
    while rooks:
        lowest = rooks & -rooks
        rooks ^= lowest
        square = lowest.bit_length() - 1
        attacks = (
            RANK_ATTACKS[square][RANK_RAY_MASKS[square] & occupied]
            | FILE_ATTACKS[square][FILE_RAY_MASKS[square] & occupied]
        )
        rook_attacks |= attacks
        rook_mobility += (attacks & mobility_area).bit_count()
        if attacks & enemy_king_zone:
            zone_attacks += (attacks & enemy_king_zone).bit_count()
            attackers += 1
            attack_units += KING_ATTACK_UNITS[chess.ROOK]
        file = FILE_MASKS[square & 7]
        if not file & own_pawns:
            if file & all_pawns:
                semi_open_files += 1
            else:
                open_files += 1
    while queens:
        lowest = queens & -queens
        queens ^= lowest
        square = lowest.bit_length() - 1
        attacks = (
            RANK_ATTACKS[square][RANK_RAY_MASKS[square] & occupied]
            | FILE_ATTACKS[square][FILE_RAY_MASKS[square] & occupied]
            | DIAGONAL_ATTACKS[square][DIAGONAL_MASKS[square] & occupied]
        )
        covered |= attacks
        queen_mobility += (attacks & mobility_area).bit_count()
        if attacks & enemy_king_zone:
            zone_attacks += (attacks & enemy_king_zone).bit_count()
            attackers += 1
            attack_units += KING_ATTACK_UNITS[chess.QUEEN]
    king_attack = 0
    if attackers >= KING_ATTACK_MIN_ATTACKERS:
        king_attack = min(attack_units, KING_ATTACK_UNIT_CAP) ** 2 // 4
    return (
        knight_mobility, bishop_mobility, rook_mobility, queen_mobility, zone_attacks,
        king_attack, open_files, semi_open_files,
        minor_attacks, rook_attacks, covered | minor_attacks | rook_attacks,
    )  # fmt: skip


_KING_FILE_SPANS: tuple[int, ...] = tuple((0b111 << file >> 1) & 0xFF for file in range(8))
"""By the king's file: the bits (one a file) of that file and its neighbours on the board."""


def _open_king_files(king: int, own_pawns: Bitboard) -> int:
    """How many of the king's file and its neighbours hold none of its own pawns.

    Hot path: the pawns folded onto one rank (a bit a file that has one) instead of a loop
    over the three file masks, which cost about 2% of the Python search's time
    (``plyground bench --game chess --depth 4``: 680 ms with the loop, 668 ms folded)."""
    files = own_pawns | own_pawns >> 32
    files |= files >> 16
    files |= files >> 8
    return (_KING_FILE_SPANS[king & 7] & ~files).bit_count()


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
        occupied, ~white & ~black_pawn_attacks, KING_ZONES[black_king], white_pawns, pawns,
    )  # fmt: skip
    black_side = _side_activity(
        knights & black, bishops & black, rooks & black, queens & black,
        occupied, ~black & ~white_pawn_attacks, KING_ZONES[white_king], black_pawns, pawns,
    )  # fmt: skip
    pieces = knights | bishops | rooks | queens
    pawn_threats = (white_pawn_attacks & black & pieces).bit_count() - (
        black_pawn_attacks & white & pieces
    ).bit_count()
    shield = (KING_SHIELD_MASKS[chess.WHITE][white_king] & white_pawns).bit_count() - (
        KING_SHIELD_MASKS[chess.BLACK][black_king] & black_pawns
    ).bit_count()
    bishop_pair = ((bishops & white).bit_count() >= 2) - ((bishops & black).bit_count() >= 2)
    majors = rooks | queens
    minor_threats = (white_side[8] & black & majors).bit_count() - (black_side[8] & white & majors).bit_count()
    rook_threats = (white_side[9] & black & queens).bit_count() - (black_side[9] & white & queens).bit_count()
    white_covers = white_side[10] | white_pawn_attacks | KING_ATTACKS[white_king]
    black_covers = black_side[10] | black_pawn_attacks | KING_ATTACKS[black_king]
    hanging = (white_covers & black & pieces & ~black_covers).bit_count() - (
        black_covers & white & pieces & ~white_covers
    ).bit_count()
    open_files = _open_king_files(white_king, white_pawns) - _open_king_files(black_king, black_pawns)
    return (
        white_side[0] - black_side[0],
        white_side[1] - black_side[1],
        white_side[2] - black_side[2],
        white_side[3] - black_side[3],
        white_side[4] - black_side[4],
        shield,
        bishop_pair,
        white_side[5] - black_side[5],
        white_side[6] - black_side[6],
        white_side[7] - black_side[7],
        pawn_threats,
        minor_threats,
        rook_threats,
        hanging,
        open_files,
    )


# ------------------------------------------------------------------ pawns
def _side_pawn_counts(
    own: Bitboard, enemy: Bitboard, color: chess.Color
) -> tuple[int, int, list[int], Bitboard]:
    """(doubled, isolated, passed pawns by rank from their own side, the passed pawns) of
    one side's pawns."""
    doubled = isolated = 0
    for file in range(8):
        on_file = (own & FILE_MASKS[file]).bit_count()
        if on_file:
            doubled += on_file - 1
            if not own & ADJACENT_FILES[file]:
                isolated += on_file
    passed = [0] * 8
    passers = 0
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
            passers |= lowest
    return doubled, isolated, passed, passers


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


def pawn_structure(white_pawns: Bitboard, black_pawns: Bitboard) -> tuple[Packed, Bitboard, Bitboard]:
    """(packed pawn-structure score, White's view; White's passed pawns; Black's passed
    pawns), memoised on the pawn bitboards."""
    cache_key = (white_pawns, black_pawns)
    entry = _pawn_cache.get(cache_key)
    if entry is None:
        white = _side_pawn_counts(white_pawns, black_pawns, chess.WHITE)
        black = _side_pawn_counts(black_pawns, white_pawns, chess.BLACK)
        score = (white[0] - black[0]) * PAWN_WEIGHTS[0] + (white[1] - black[1]) * PAWN_WEIGHTS[1]
        for rank in range(8):
            passed = white[2][rank] - black[2][rank]
            if passed:
                score += passed * PASSED_PAWN_PACKED[rank]
        if len(_pawn_cache) >= PAWN_CACHE_LIMIT:
            _pawn_cache.clear()
        entry = (score, white[3], black[3])
        _pawn_cache[cache_key] = entry
    return entry


def _side_passer_counts(
    passers: Bitboard, color: chess.Color, occupied: Bitboard, own_king: int, enemy_king: int
) -> tuple[int, int]:
    """(free passers weighted by rank, king distances weighted by rank) of one side's passed
    pawns: see ``passer_counts``."""
    free = distance = 0
    step = 8 if color == chess.WHITE else -8
    while passers:
        lowest = passers & -passers
        passers ^= lowest
        square = lowest.bit_length() - 1
        rank = square >> 3 if color == chess.WHITE else 7 - (square >> 3)
        front = square + step
        if not occupied >> front & 1:
            free += PASSER_FREE_FACTORS[rank]
        distance += PASSER_DISTANCE_FACTORS[rank] * (
            SQUARE_DISTANCES[enemy_king][front] - SQUARE_DISTANCES[own_king][front]
        )
    return free, distance


def passer_counts(board: chess.BaseBoard, white_passers: Bitboard, black_passers: Bitboard) -> tuple[int, int]:
    """White minus Black for each of ``PASSER_FEATURES``.

    ``passed_pawn_free``: Σ ``PASSER_FREE_FACTORS[rank]`` over the passed pawns whose square
    in front is empty; ``king_passer_distance``: Σ ``PASSER_DISTANCE_FACTORS[rank]`` times
    (the enemy king's distance minus the own king's distance to the square in front), so
    a passer the enemy king cannot catch, or its own king escorts, counts up.
    """
    occupied = board.occupied
    kings = board.kings
    white_king = (kings & board.occupied_co[chess.WHITE]).bit_length() - 1
    black_king = (kings & board.occupied_co[chess.BLACK]).bit_length() - 1
    white_free, white_distance = _side_passer_counts(white_passers, chess.WHITE, occupied, white_king, black_king)
    black_free, black_distance = _side_passer_counts(black_passers, chess.BLACK, occupied, black_king, white_king)
    return white_free - black_free, white_distance - black_distance


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
        + counts[7] * ACTIVITY_WEIGHTS[7]
        + counts[8] * ACTIVITY_WEIGHTS[8]
        + counts[9] * ACTIVITY_WEIGHTS[9]
        + counts[10] * ACTIVITY_WEIGHTS[10]
        + counts[11] * ACTIVITY_WEIGHTS[11]
        + counts[12] * ACTIVITY_WEIGHTS[12]
        + counts[13] * ACTIVITY_WEIGHTS[13]
        + counts[14] * ACTIVITY_WEIGHTS[14]
    )
    pawns = board.pawns
    pawn_score, white_passers, black_passers = pawn_structure(
        pawns & board.occupied_co[chess.WHITE], pawns & board.occupied_co[chess.BLACK]
    )
    score += pawn_score
    if white_passers or black_passers:
        free, distance = passer_counts(board, white_passers, black_passers)
        score += free * PASSER_WEIGHTS[0] + distance * PASSER_WEIGHTS[1]
    return score


def _count_features(board: chess.BaseBoard) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(the counts of ``ACTIVITY_FEATURES + PAWN_FEATURES + PASSER_FEATURES``, in that
    order; ``pawn_counts``), from scratch: the breakdown's and the tuner's path."""
    pawns = board.pawns
    white_pawns, black_pawns = pawns & board.occupied_co[chess.WHITE], pawns & board.occupied_co[chess.BLACK]
    pawn_values = pawn_counts(white_pawns, black_pawns)
    _pawn_score, white_passers, black_passers = pawn_structure(white_pawns, black_pawns)
    counts = (
        activity_counts(board)
        + pawn_values[: len(PAWN_FEATURES)]
        + passer_counts(board, white_passers, black_passers)
    )
    return counts, pawn_values


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
    counts, pawn_values = _count_features(board)
    for name, count in zip(ACTIVITY_FEATURES + PAWN_FEATURES + PASSER_FEATURES, counts):
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
    counts, pawn_values = _count_features(board)
    for name, count in zip(ACTIVITY_FEATURES + PAWN_FEATURES + PASSER_FEATURES, counts):
        add(WEIGHT_OFFSETS[name], count)
    passed_offset = WEIGHT_OFFSETS["passed_pawns"]
    for rank, count in enumerate(pawn_values[len(PAWN_FEATURES) :]):
        add(passed_offset + 2 * rank, count)
    return terms


set_weights(None)
