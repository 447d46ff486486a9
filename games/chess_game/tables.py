"""Chess knowledge as data: piece-square tables, evaluation weights, Zobrist and mask tables.

Everything here is computed once at import time so that the hot paths in ``state.py`` and
``evaluation.py`` are plain list lookups.

Square numbering is python-chess's: a1 = 0, b1 = 1, ..., h8 = 63.

Scores are *packed*: a middlegame and an endgame value travel together in one int,
``mg + eg * PACK`` (Stockfish's ``make_score`` trick). Adding packed values adds both halves
at once, so the incremental update in ``play`` costs one addition instead of two; the halves
are separated only when ``evaluate`` tapers them by game phase.
"""

from __future__ import annotations

import chess
import chess.polyglot

Square = int
Bitboard = int
PieceType = int
Packed = int
"""``mg + eg * PACK``: a middlegame/endgame score pair in one int."""

# ------------------------------------------------------------------ packed scores
PACK_SHIFT = 32
PACK: int = 1 << PACK_SHIFT
PACK_HALF: int = PACK >> 1
PACK_MASK: int = PACK - 1


def pack(middlegame: int, endgame: int) -> Packed:
    """One int holding both halves of a score (see the module docstring)."""
    return middlegame + endgame * PACK


def unpack(score: Packed) -> tuple[int, int]:
    """``(middlegame, endgame)`` of a packed score; the inverse of ``pack``."""
    middlegame = ((score + PACK_HALF) & PACK_MASK) - PACK_HALF
    return middlegame, (score - middlegame) >> PACK_SHIFT


# ------------------------------------------------------------------ game phase
PHASE_WEIGHTS: tuple[int, ...] = (0, 0, 1, 1, 2, 4, 0)
"""Phase units per piece type (index = python-chess piece type; 0 is unused): PeSTO's
``gamephaseInc``. The start position has 24 units; fewer means closer to the endgame."""
MAX_PHASE = 24

# ------------------------------------------------------------------ PeSTO tables
# PeSTO's evaluation function (Ronald Friederich, 2018): material and tapered piece-square
# tables tuned by Texel's method, published on the Chessprogramming Wiki page "PeSTO's
# Evaluation Function" (https://www.chessprogramming.org/PeSTO%27s_Evaluation_Function),
# values from Rofchade. The tables are printed from White's side: the first row is rank 8
# (a8..h8), the last row rank 1 (a1..h1), as a human reads a diagram.

MIDDLEGAME_PIECE_VALUES: tuple[int, ...] = (0, 82, 337, 365, 477, 1025, 0)
ENDGAME_PIECE_VALUES: tuple[int, ...] = (0, 94, 281, 297, 512, 936, 0)

# fmt: off
_MG_PAWN = (
      0,   0,   0,   0,   0,   0,   0,   0,
     98, 134,  61,  95,  68, 126,  34, -11,
     -6,   7,  26,  31,  65,  56,  25, -20,
    -14,  13,   6,  21,  23,  12,  17, -23,
    -27,  -2,  -5,  12,  17,   6,  10, -25,
    -26,  -4,  -4, -10,   3,   3,  33, -12,
    -35,  -1, -20, -23, -15,  24,  38, -22,
      0,   0,   0,   0,   0,   0,   0,   0,
)
_EG_PAWN = (
      0,   0,   0,   0,   0,   0,   0,   0,
    178, 173, 158, 134, 147, 132, 165, 187,
     94, 100,  85,  67,  56,  53,  82,  84,
     32,  24,  13,   5,  -2,   4,  17,  17,
     13,   9,  -3,  -7,  -7,  -8,   3,  -1,
      4,   7,  -6,   1,   0,  -5,  -1,  -8,
     13,   8,   8,  10,  13,   0,   2,  -7,
      0,   0,   0,   0,   0,   0,   0,   0,
)
_MG_KNIGHT = (
   -167, -89, -34, -49,  61, -97, -15, -107,
    -73, -41,  72,  36,  23,  62,   7,  -17,
    -47,  60,  37,  65,  84, 129,  73,   44,
     -9,  17,  19,  53,  37,  69,  18,   22,
    -13,   4,  16,  13,  28,  19,  21,   -8,
    -23,  -9,  12,  10,  19,  17,  25,  -16,
    -29, -53, -12,  -3,  -1,  18, -14,  -19,
   -105, -21, -58, -33, -17, -28, -19,  -23,
)
_EG_KNIGHT = (
    -58, -38, -13, -28, -31, -27, -63, -99,
    -25,  -8, -25,  -2,  -9, -25, -24, -52,
    -24, -20,  10,   9,  -1,  -9, -19, -41,
    -17,   3,  22,  22,  22,  11,   8, -18,
    -18,  -6,  16,  25,  16,  17,   4, -18,
    -23,  -3,  -1,  15,  10,  -3, -20, -22,
    -42, -20, -10,  -5,  -2, -20, -23, -44,
    -29, -51, -23, -15, -22, -18, -50, -64,
)
_MG_BISHOP = (
    -29,   4, -82, -37, -25, -42,   7,  -8,
    -26,  16, -18, -13,  30,  59,  18, -47,
    -16,  37,  43,  40,  35,  50,  37,  -2,
     -4,   5,  19,  50,  37,  37,   7,  -2,
     -6,  13,  13,  26,  34,  12,  10,   4,
      0,  15,  15,  15,  14,  27,  18,  10,
      4,  15,  16,   0,   7,  21,  33,   1,
    -33,  -3, -14, -21, -13, -12, -39, -21,
)
_EG_BISHOP = (
    -14, -21, -11,  -8,  -7,  -9, -17, -24,
     -8,  -4,   7, -12,  -3, -13,  -4, -14,
      2,  -8,   0,  -1,  -2,   6,   0,   4,
     -3,   9,  12,   9,  14,  10,   3,   2,
     -6,   3,  13,  19,   7,  10,  -3,  -9,
    -12,  -3,   8,  10,  13,   3,  -7, -15,
    -14, -18,  -7,  -1,   4,  -9, -15, -27,
    -23,  -9, -23,  -5,  -9, -16,  -5, -17,
)
_MG_ROOK = (
     32,  42,  32,  51,  63,   9,  31,  43,
     27,  32,  58,  62,  80,  67,  26,  44,
     -5,  19,  26,  36,  17,  45,  61,  16,
    -24, -11,   7,  26,  24,  35,  -8, -20,
    -36, -26, -12,  -1,   9,  -7,   6, -23,
    -45, -25, -16, -17,   3,   0,  -5, -33,
    -44, -16, -20,  -9,  -1,  11,  -6, -71,
    -19, -13,   1,  17,  16,   7, -37, -26,
)
_EG_ROOK = (
     13,  10,  18,  15,  12,  12,   8,   5,
     11,  13,  13,  11,  -3,   3,   8,   3,
      7,   7,   7,   5,   4,  -3,  -5,  -3,
      4,   3,  13,   1,   2,   1,  -1,   2,
      3,   5,   8,   4,  -5,  -6,  -8, -11,
     -4,   0,  -5,  -1,  -7, -12,  -8, -16,
     -6,  -6,   0,   2,  -9,  -9, -11,  -3,
     -9,   2,   3,  -1,  -5, -13,   4, -20,
)
_MG_QUEEN = (
    -28,   0,  29,  12,  59,  44,  43,  45,
    -24, -39,  -5,   1, -16,  57,  28,  54,
    -13, -17,   7,   8,  29,  56,  47,  57,
    -27, -27, -16, -16,  -1,  17,  -2,   1,
     -9, -26,  -9, -10,  -2,  -4,   3,  -3,
    -14,   2, -11,  -2,  -5,   2,  14,   5,
    -35,  -8,  11,   2,   8,  15,  -3,   1,
     -1, -18,  -9,  10, -15, -25, -31, -50,
)
_EG_QUEEN = (
     -9,  22,  22,  27,  27,  19,  10,  20,
    -17,  20,  32,  41,  58,  25,  30,   0,
    -20,   6,   9,  49,  47,  35,  19,   9,
      3,  22,  24,  45,  57,  40,  57,  36,
    -18,  28,  19,  47,  31,  34,  39,  23,
    -16, -27,  15,   6,   9,  17,  10,   5,
    -22, -23, -30, -16, -16, -23, -36, -32,
    -33, -28, -22, -43,  -5, -32, -20, -41,
)
_MG_KING = (
    -65,  23,  16, -15, -56, -34,   2,  13,
     29,  -1, -20,  -7,  -8,  -4, -38, -29,
     -9,  24,   2, -16, -20,   6,  22, -22,
    -17, -20, -12, -27, -30, -25, -14, -36,
    -49,  -1, -27, -39, -46, -44, -33, -51,
    -14, -14, -22, -46, -44, -30, -15, -27,
      1,   7,  -8, -64, -43, -16,   9,   8,
    -15,  36,  12, -54,   8, -28,  24,  14,
)
_EG_KING = (
    -74, -35, -18, -18, -11,  15,   4, -17,
    -12,  17,  14,  17,  17,  38,  23,  11,
     10,  17,  23,  15,  20,  45,  44,  13,
     -8,  22,  24,  27,  26,  33,  26,   3,
    -18,  -4,  21,  24,  27,  23,   9, -11,
    -19,  -3,  11,  21,  23,  16,   7,  -9,
    -27, -11,   4,  13,  14,   4,  -5, -17,
    -53, -34, -21, -11, -28, -14, -24, -43,
)
# fmt: on

PIECE_SQUARE_TABLES: dict[PieceType, tuple[tuple[int, ...], tuple[int, ...]]] = {
    chess.PAWN: (_MG_PAWN, _EG_PAWN),
    chess.KNIGHT: (_MG_KNIGHT, _EG_KNIGHT),
    chess.BISHOP: (_MG_BISHOP, _EG_BISHOP),
    chess.ROOK: (_MG_ROOK, _EG_ROOK),
    chess.QUEEN: (_MG_QUEEN, _EG_QUEEN),
    chess.KING: (_MG_KING, _EG_KING),
}
"""Piece type -> (middlegame table, endgame table), printed rank 8 first (see above)."""


def square_bonus(piece_type: PieceType, color: chess.Color, square: Square) -> tuple[int, int]:
    """PeSTO's positional bonus (without material) of a piece, from its own side's view.

    The printed tables are White's view with rank 8 first, so White's a1 is printed index
    56 (``square ^ 56``) and Black, seeing the board the other way up, reads ``square``.
    """
    printed_index = square ^ 56 if color == chess.WHITE else square
    middlegame, endgame = PIECE_SQUARE_TABLES[piece_type]
    return middlegame[printed_index], endgame[printed_index]


# ------------------------------------------------------------------ flat piece tables
# A "piece index" joins colour and type: (piece_type * 2 + color) * 64 + square, with
# color = 1 for White (python-chess's WHITE is True). Polyglot numbers its 768 piece keys
# 64 * ((piece_type - 1) * 2 + color) + square, i.e. the same order 128 places earlier, so
# one flat index serves the Zobrist keys and the packed piece-square scores.
PIECE_INDEX_BASE = 128
"""The piece index of the first polyglot piece (a black pawn on a1)."""
TABLE_SIZE = 2 * 64 * (chess.KING + 1)


def piece_index(piece_type: PieceType, color: chess.Color, square: Square) -> int:
    """Index into ``PIECE_KEYS`` and ``PIECE_SCORES``."""
    return (piece_type * 2 + int(color)) * 64 + square


def _piece_keys() -> list[int]:
    keys = [0] * TABLE_SIZE
    for index in range(PIECE_INDEX_BASE, TABLE_SIZE):
        keys[index] = chess.polyglot.POLYGLOT_RANDOM_ARRAY[index - PIECE_INDEX_BASE]
    return keys


def _piece_scores() -> list[Packed]:
    """Packed material + square bonus from White's view: Black's pieces count negative."""
    scores = [0] * TABLE_SIZE
    for piece_type in chess.PIECE_TYPES:
        for color in chess.COLORS:
            sign = 1 if color == chess.WHITE else -1
            for square in chess.SQUARES:
                middlegame, endgame = square_bonus(piece_type, color, square)
                middlegame += MIDDLEGAME_PIECE_VALUES[piece_type]
                endgame += ENDGAME_PIECE_VALUES[piece_type]
                scores[piece_index(piece_type, color, square)] = sign * pack(middlegame, endgame)
    return scores


PIECE_KEYS: list[int] = _piece_keys()
"""Polyglot Zobrist key of each piece index (so ``key()`` equals ``chess.polyglot.zobrist_hash``)."""
PIECE_SCORES: list[Packed] = _piece_scores()
"""Packed PeSTO material + piece-square score of each piece index, White's view."""

_POLYGLOT_CASTLING = 768
_POLYGLOT_EN_PASSANT = 772
WHITE_TO_MOVE_KEY: int = chess.polyglot.POLYGLOT_RANDOM_ARRAY[780]
"""Polyglot XORs this in when White is to move."""
EN_PASSANT_FILE_KEYS: tuple[int, ...] = tuple(
    chess.polyglot.POLYGLOT_RANDOM_ARRAY[_POLYGLOT_EN_PASSANT + file] for file in range(8)
)
"""Polyglot key of an en passant file (only hashed when a pawn stands ready to capture)."""

_CASTLING_ROOKS: tuple[tuple[Square, int], ...] = (
    (chess.H1, _POLYGLOT_CASTLING + 0),
    (chess.A1, _POLYGLOT_CASTLING + 1),
    (chess.H8, _POLYGLOT_CASTLING + 2),
    (chess.A8, _POLYGLOT_CASTLING + 3),
)
CASTLING_CORNERS: Bitboard = chess.BB_A1 | chess.BB_H1 | chess.BB_A8 | chess.BB_H8


def castling_key(castling_rights: Bitboard) -> int:
    """Polyglot key of python-chess castling rights (a bitboard of the castling rooks)."""
    key = 0
    for square, array_index in _CASTLING_ROOKS:
        if castling_rights & chess.BB_SQUARES[square]:
            key ^= chess.polyglot.POLYGLOT_RANDOM_ARRAY[array_index]
    return key


CASTLING_KEYS: dict[Bitboard, int] = {}
"""Castling rights -> key, for every subset of the four corners (filled below)."""
for _subset in range(16):
    _rights = 0
    for _bit, (_square, _unused) in enumerate(_CASTLING_ROOKS):
        if _subset >> _bit & 1:
            _rights |= chess.BB_SQUARES[_square]
    CASTLING_KEYS[_rights] = castling_key(_rights)

CASTLING_ROOK_MOVES: dict[tuple[Square, Square], tuple[Square, Square]] = {
    (chess.E1, chess.G1): (chess.H1, chess.F1),
    (chess.E1, chess.C1): (chess.A1, chess.D1),
    (chess.E8, chess.G8): (chess.H8, chess.F8),
    (chess.E8, chess.C8): (chess.A8, chess.D8),
}
"""King move of a castling -> the rook's move (standard chess; python-chess writes
castling as the king's two-square move)."""

NEIGHBOUR_SQUARES: tuple[Bitboard, ...] = tuple(
    (chess.BB_SQUARES[square - 1] if chess.square_file(square) > 0 else 0)
    | (chess.BB_SQUARES[square + 1] if chess.square_file(square) < 7 else 0)
    for square in chess.SQUARES
)
"""The squares left and right of a square on its rank: where a pawn able to capture a
double-pushed pawn en passant must stand."""

# ------------------------------------------------------------------ move ordering
CAPTURE_VICTIM_SCORES: tuple[int, ...] = (0, 100, 300, 300, 500, 900, 0)
"""MVV-LVA: the victim's value dominates, indexed by piece type (a pawn is 100)."""
CAPTURE_ATTACKER_PENALTY: tuple[int, ...] = (0, 1, 3, 3, 5, 9, 10)
"""MVV-LVA: among captures of the same victim, the cheaper attacker first."""
PROMOTION_SCORES: tuple[int, ...] = (0, 0, 200, 200, 400, 800, 0)
"""Ordering bonus of a promotion by piece: a queen promotion ranks with a queen capture."""

# ------------------------------------------------------------------ evaluation weights
EVAL_WEIGHTS: dict[str, tuple[int, int]] = {
    # Mobility: centipawns per square a piece attacks that is neither its own side's nor
    # attacked by an enemy pawn. Small values of the kind tuned engines use (e.g. Fruit).
    "knight_mobility": (4, 4),
    "bishop_mobility": (5, 5),
    "rook_mobility": (2, 4),
    "queen_mobility": (1, 2),
    # King safety: own pawns on the three files around the king, one or two ranks ahead;
    # and attacks by a side's pieces on the enemy king and the squares next to it.
    # Middlegame only.
    "king_pawn_shield": (12, 0),
    "king_zone_attacks": (7, 0),
    # Pawn structure: counts, except passed pawns, which score PASSED_PAWN_UNITS by rank.
    "doubled_pawns": (-10, -20),
    "isolated_pawns": (-12, -16),
    "passed_pawns": (5, 10),
    "bishop_pair": (25, 50),
}
"""Feature name -> (middlegame weight, endgame weight) of the terms added to PeSTO's
material and piece-square score (whose weight is 1). Each feature value is White's count
minus Black's; ``evaluate`` tapers the weights by game phase."""

PASSED_PAWN_UNITS: tuple[int, ...] = (0, 0, 1, 2, 4, 7, 11, 0)
"""Passed-pawn units by rank counted from the pawn's own side (index 1 = second rank):
a passer is worth more the closer it is to promotion."""

MATERIAL_FEATURES: dict[str, PieceType] = {
    "pawns": chess.PAWN,
    "knights": chess.KNIGHT,
    "bishops": chess.BISHOP,
    "rooks": chess.ROOK,
    "queens": chess.QUEEN,
}
"""Feature name -> piece type of the material features (weights: PeSTO piece values)."""
MOBILITY_FEATURES: dict[PieceType, str] = {
    chess.KNIGHT: "knight_mobility",
    chess.BISHOP: "bishop_mobility",
    chess.ROOK: "rook_mobility",
    chess.QUEEN: "queen_mobility",
}


def packed_weight(name: str) -> Packed:
    """The packed (middlegame, endgame) weight of an evaluation feature."""
    middlegame, endgame = EVAL_WEIGHTS[name]
    return pack(middlegame, endgame)


# ------------------------------------------------------------------ masks
FILE_MASKS: tuple[Bitboard, ...] = tuple(chess.BB_FILES)
ADJACENT_FILES: tuple[Bitboard, ...] = tuple(
    (chess.BB_FILES[file - 1] if file > 0 else 0) | (chess.BB_FILES[file + 1] if file < 7 else 0)
    for file in range(8)
)
"""The files either side of a file (isolated pawns have no friendly pawn there)."""


def _ranks_ahead(color: chess.Color, rank: int) -> Bitboard:
    ranks = range(rank + 1, 8) if color == chess.WHITE else range(rank)
    mask = 0
    for ahead in ranks:
        mask |= chess.BB_RANKS[ahead]
    return mask


def _passed_pawn_masks(color: chess.Color) -> tuple[Bitboard, ...]:
    """Per square: the squares in front of a pawn on its own and the adjacent files. A pawn
    is passed when no enemy pawn stands there."""
    masks = []
    for square in chess.SQUARES:
        file, rank = chess.square_file(square), chess.square_rank(square)
        masks.append((FILE_MASKS[file] | ADJACENT_FILES[file]) & _ranks_ahead(color, rank))
    return tuple(masks)


PASSED_PAWN_MASKS: tuple[tuple[Bitboard, ...], tuple[Bitboard, ...]] = (
    _passed_pawn_masks(chess.BLACK),
    _passed_pawn_masks(chess.WHITE),
)
"""Indexed [color][square] (BLACK = 0, WHITE = 1, as in python-chess)."""
FRONT_FILE_MASKS: tuple[tuple[Bitboard, ...], tuple[Bitboard, ...]] = tuple(
    tuple(
        FILE_MASKS[chess.square_file(square)] & _ranks_ahead(color, chess.square_rank(square))
        for square in chess.SQUARES
    )
    for color in (chess.BLACK, chess.WHITE)
)  # type: ignore[assignment]
"""Indexed [color][square]: the squares straight in front of a pawn. The rear pawn of a
doubled pair is not counted as passed: its own pawn blocks it."""


def _shield_masks(color: chess.Color) -> tuple[Bitboard, ...]:
    """Per king square: the king's file and its neighbours, one and two ranks ahead."""
    masks = []
    for square in chess.SQUARES:
        file, rank = chess.square_file(square), chess.square_rank(square)
        files = FILE_MASKS[file] | ADJACENT_FILES[file]
        step = 1 if color == chess.WHITE else -1
        ranks = 0
        for distance in (1, 2):
            ahead = rank + step * distance
            if 0 <= ahead < 8:
                ranks |= chess.BB_RANKS[ahead]
        masks.append(files & ranks)
    return tuple(masks)


KING_SHIELD_MASKS: tuple[tuple[Bitboard, ...], tuple[Bitboard, ...]] = (
    _shield_masks(chess.BLACK),
    _shield_masks(chess.WHITE),
)
"""Indexed [color][king square]: where the king's pawn shield stands."""
KING_ZONES: tuple[Bitboard, ...] = tuple(
    chess.BB_KING_ATTACKS[square] | chess.BB_SQUARES[square] for square in chess.SQUARES
)
"""The king's square and its neighbours: attacks there count against king safety."""

NOT_FILE_A: Bitboard = chess.BB_ALL & ~chess.BB_FILE_A
NOT_FILE_H: Bitboard = chess.BB_ALL & ~chess.BB_FILE_H

# python-chess's attack tables under descriptive names, for the inlined hot loops
# (``RANK_ATTACKS[square][RANK_RAY_MASKS[square] & occupied]`` is a rook's rank attacks).
KNIGHT_ATTACKS = chess.BB_KNIGHT_ATTACKS
KING_ATTACKS = chess.BB_KING_ATTACKS
DIAGONAL_MASKS, DIAGONAL_ATTACKS = chess.BB_DIAG_MASKS, chess.BB_DIAG_ATTACKS
FILE_RAY_MASKS, FILE_ATTACKS = chess.BB_FILE_MASKS, chess.BB_FILE_ATTACKS
RANK_RAY_MASKS, RANK_ATTACKS = chess.BB_RANK_MASKS, chess.BB_RANK_ATTACKS
KING_LINES: tuple[Bitboard, ...] = tuple(
    RANK_ATTACKS[square][0] | FILE_ATTACKS[square][0] | DIAGONAL_ATTACKS[square][0]
    for square in chess.SQUARES
)
"""Per square: every square on a rank, file or diagonal through it (where a piece could
be pinned against a king standing there)."""
