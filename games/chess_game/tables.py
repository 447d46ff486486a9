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

from collections.abc import Mapping
from typing import Any

import chess
import chess.polyglot

from games.weights import WeightsError, shipped_weights

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

# ------------------------------------------------------------------ evaluation weights (data)
# The tunable numbers of the EVAL live in resources/weights/chess.json (read once at import
# by ``games.weights``, through importlib.resources, and replaceable by ``apply_weights``);
# this module turns them into the flat tables the hot paths read. The shipped file began as
# PeSTO's evaluation function (Ronald Friederich, 2018: material and tapered piece-square tables tuned by
# Texel's method, published on the Chessprogramming Wiki page "PeSTO's Evaluation Function",
# https://www.chessprogramming.org/PeSTO%27s_Evaluation_Function, values from Rofchade) plus
# our own hand-set classical terms; see resources/weights/README.md for how it was re-fitted.
#
# Every table below is a *mutable* container changed in place by ``apply_weights``, so that
# the modules that imported it by name (``state.py`` reads ``PIECE_SCORES`` in ``play``) see
# the new values without re-importing.

WEIGHTS_FILE = "chess.json"
"""The packaged weights file, in resources/weights/ (``games.weights``)."""

TUNED_PIECES: tuple[PieceType, ...] = (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN)
"""The piece types with a material value (the king has none), in the order of ``material``."""
PIECE_NAMES: dict[PieceType, str] = {
    chess.PAWN: "pawn",
    chess.KNIGHT: "knight",
    chess.BISHOP: "bishop",
    chess.ROOK: "rook",
    chess.QUEEN: "queen",
    chess.KING: "king",
}

PAIR_WEIGHTS: tuple[str, ...] = (
    # Mobility: per square a piece attacks that is neither its own side's nor attacked by an
    # enemy pawn.
    "knight_mobility",
    "bishop_mobility",
    "rook_mobility",
    "queen_mobility",
    # King safety: attacks by a side's pieces on the enemy king and the squares next to it;
    # own pawns on the three files around the king, one or two ranks ahead.
    "king_zone_attacks",
    "king_pawn_shield",
    "bishop_pair",
    # Pawn structure: counts of doubled and isolated pawns.
    "doubled_pawns",
    "isolated_pawns",
    # Rooks: on a file without pawns; on a file without their own side's pawns but with an
    # enemy pawn (the rook presses it).
    "rook_open_file",
    "rook_semi_open_file",
    # Threats: enemy knights, bishops, rooks and queens attacked by a side's pawns.
    "pawn_threats",
    # King attack, growing faster than the attackers: with at least two pieces attacking
    # the enemy king zone, min(units, KING_ATTACK_UNIT_CAP)^2 // 4, where each attacker
    # brings KING_ATTACK_UNITS of its type.
    "king_attack",
    # Passed pawns beyond their rank bonus: PASSER_FREE_FACTORS[rank] for each passer whose
    # square in front is empty; PASSER_DISTANCE_FACTORS[rank] times (enemy king distance
    # minus own king distance) to the square in front of each passer (an endgame term).
    "passed_pawn_free",
    "king_passer_distance",
    # More threats (added for the tuner, shipped at 0): enemy rooks and queens attacked by a
    # side's knights or bishops; enemy queens attacked by its rooks; enemy knights, bishops,
    # rooks and queens it attacks (with anything) that no enemy piece, pawn or king defends.
    "minor_threats",
    "rook_threats",
    "hanging_pieces",
    # King safety: the king's file and its neighbours without a pawn of its own side.
    "king_open_files",
)
"""The weights that are one (middlegame, endgame) pair of a count feature."""

WEIGHT_SHAPES: dict[str, tuple[int, ...]] = {
    "material": (len(TUNED_PIECES), 2),
    **{f"{name}_squares": (8, 8, 2) for name in PIECE_NAMES.values()},
    **{name: (2,) for name in PAIR_WEIGHTS},
    "passed_pawns": (8, 2),
}
"""Every weight of chess.json and its shape; the last axis is always (middlegame, endgame).

* ``material``: pawn, knight, bishop, rook, queen;
* ``<piece>_squares``: the piece-square bonus, printed from White's side as a human reads a
  diagram (the first row is rank 8, a8..h8; the last rank 1), for White's pieces; Black's
  use the mirrored square;
* ``passed_pawns``: the bonus of a passed pawn by its rank counted from its own side
  (index 1 = second rank).
"""

MIDDLEGAME_PIECE_VALUES: list[int] = [0] * (chess.KING + 1)
"""Indexed by piece type (0 and the king: 0)."""
ENDGAME_PIECE_VALUES: list[int] = [0] * (chess.KING + 1)
PIECE_SQUARE_TABLES: dict[PieceType, tuple[list[int], list[int]]] = {
    piece_type: ([0] * 64, [0] * 64) for piece_type in chess.PIECE_TYPES
}
"""Piece type -> (middlegame table, endgame table), printed rank 8 first (see above)."""
EVAL_WEIGHTS: dict[str, tuple[int, int]] = {name: (0, 0) for name in PAIR_WEIGHTS}
"""Feature name -> (middlegame weight, endgame weight) of the count terms added to the
material and piece-square score. Each feature value is White's count minus Black's;
``evaluate`` tapers the weights by game phase."""
PASSED_PAWN_SCORES: list[tuple[int, int]] = [(0, 0)] * 8
"""(middlegame, endgame) bonus of a passed pawn by rank from its own side (index 1 = its
second rank): a passer is worth more the closer it is to promotion."""
PASSED_PAWN_PACKED: list[Packed] = [0] * 8
"""``PASSED_PAWN_SCORES`` packed."""


def square_bonus(piece_type: PieceType, color: chess.Color, square: Square) -> tuple[int, int]:
    """The positional bonus (without material) of a piece, from its own side's view.

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
PIECE_SCORES: list[Packed] = [0] * TABLE_SIZE
"""Packed material + piece-square score of each piece index, White's view (filled by
``apply_weights``)."""

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

MATERIAL_FEATURES: dict[str, PieceType] = {
    "pawns": chess.PAWN,
    "knights": chess.KNIGHT,
    "bishops": chess.BISHOP,
    "rooks": chess.ROOK,
    "queens": chess.QUEEN,
}
"""Feature name -> piece type of the material features (weights: ``material``)."""


def packed_weight(name: str) -> Packed:
    """The packed (middlegame, endgame) weight of an evaluation feature."""
    middlegame, endgame = EVAL_WEIGHTS[name]
    return pack(middlegame, endgame)


_PACKED_LISTS: list[tuple[tuple[str, ...], list[Packed]]] = []
"""Every list made by ``packed_weights``, with the names it holds, for ``apply_weights``."""


def packed_weights(names: tuple[str, ...]) -> list[Packed]:
    """A list of the packed weights of ``names`` (pair weights), in that order, which
    ``apply_weights`` keeps current in place: the one loader of packed weights, so the EVAL
    can bind the list once and index it in its hot loops."""
    unknown = [name for name in names if name not in EVAL_WEIGHTS]
    if unknown:
        raise KeyError(f"not a pair weight: {unknown[0]!r}")
    packed = [packed_weight(name) for name in names]
    _PACKED_LISTS.append((names, packed))
    return packed


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

SQUARE_DISTANCES: tuple[tuple[int, ...], ...] = tuple(
    tuple(chess.square_distance(a, b) for b in chess.SQUARES) for a in chess.SQUARES
)
"""Indexed [square][square]: king steps between two squares (Chebyshev distance)."""

KING_ATTACK_UNITS: tuple[int, ...] = (0, 0, 2, 2, 3, 5, 0)
"""Attack units a piece attacking the enemy king zone brings, by piece type (the classical
"attack weights" of Glaurung and early Stockfish: minor 2, rook 3, queen 5)."""
KING_ATTACK_UNIT_CAP = 16
"""Units beyond this add nothing more (the attack is decided anyway)."""
KING_ATTACK_MIN_ATTACKERS = 2
"""A lone attacker is no attack: ``king_attack`` counts from two pieces on."""
PASSER_FREE_FACTORS: tuple[int, ...] = (0, 0, 0, 1, 3, 6, 10, 0)
"""``passed_pawn_free``'s value of a free passer by its rank from its own side (index 1 =
the second rank): (rank - 1)(rank - 2) / 2, Fruit's quadratic growth towards promotion."""
PASSER_DISTANCE_FACTORS: tuple[int, ...] = (0, 0, 1, 2, 3, 4, 5, 0)
"""``king_passer_distance``'s multiplier of a passer's king distances by its rank: a far
advanced passer's race with the kings matters more."""

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


# ------------------------------------------------------------------ loading weights
def _checked_array(name: str, value: object, shape: tuple[int, ...]) -> Any:
    """``value`` as nested lists of ints of ``shape`` (an int for shape ``()``;
    ``WeightsError`` otherwise).

    Scores are packed ints (see ``pack``), so a fitted weight is rounded to the centipawn.
    """
    if not shape:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
            raise WeightsError(f"chess weight {name!r}: {value!r} is not a number")
        if abs(value) > MAX_WEIGHT:
            raise WeightsError(f"chess weight {name!r}: {value!r} is beyond +-{MAX_WEIGHT}")
        return round(value)
    if not isinstance(value, list) or len(value) != shape[0]:
        raise WeightsError(f"chess weight {name!r}: expected a list of {shape[0]} items, shape {list(shape)}")
    return [_checked_array(name, item, shape[1:]) for item in value]


MAX_WEIGHT = 100_000
"""No weight is larger (a packed half must stay far inside +-2^31)."""


def checked_weights(weights: Mapping[str, Any]) -> dict[str, Any]:
    """Every weight of ``WEIGHT_SHAPES`` as int lists: ``weights`` over the shipped ones.

    A name missing from ``weights`` keeps its shipped value (a file may hold only the
    weights it changes); an unknown name or a wrong shape raises ``WeightsError``.
    """
    unknown = sorted(set(weights) - set(WEIGHT_SHAPES))
    if unknown:
        raise WeightsError(f"unknown chess weight {unknown[0]!r} (known: {', '.join(WEIGHT_SHAPES)})")
    merged = dict(SHIPPED_WEIGHTS) if SHIPPED_WEIGHTS else {}
    for name, value in weights.items():
        merged[name] = _checked_array(name, value, WEIGHT_SHAPES[name])
    missing = sorted(set(WEIGHT_SHAPES) - set(merged))
    if missing:
        raise WeightsError(f"chess weight {missing[0]!r} is missing")
    return merged


def apply_weights(weights: Mapping[str, Any]) -> None:
    """Fill every table the EVAL reads from ``weights`` (see ``checked_weights``), in place."""
    checked = checked_weights(weights)
    for index, piece_type in enumerate(TUNED_PIECES):
        MIDDLEGAME_PIECE_VALUES[piece_type], ENDGAME_PIECE_VALUES[piece_type] = checked["material"][index]
    for piece_type, name in PIECE_NAMES.items():
        middlegame, endgame = PIECE_SQUARE_TABLES[piece_type]
        rows = checked[f"{name}_squares"]
        middlegame[:] = [pair[0] for row in rows for pair in row]
        endgame[:] = [pair[1] for row in rows for pair in row]
    for name in PAIR_WEIGHTS:
        EVAL_WEIGHTS[name] = tuple(checked[name])  # type: ignore[assignment]
    PASSED_PAWN_SCORES[:] = [tuple(pair) for pair in checked["passed_pawns"]]
    PASSED_PAWN_PACKED[:] = [pack(*pair) for pair in PASSED_PAWN_SCORES]
    PIECE_SCORES[:] = _piece_scores()
    for names, packed in _PACKED_LISTS:
        packed[:] = [packed_weight(name) for name in names]
    CURRENT_WEIGHTS.clear()
    CURRENT_WEIGHTS.update(checked)


SHIPPED_WEIGHTS: dict[str, Any] = {}
"""The packaged weights (resources/weights/chess.json), every name, as int lists."""
CURRENT_WEIGHTS: dict[str, Any] = {}
"""The weights the tables hold now (every name, int lists)."""
SHIPPED_WEIGHTS.update(checked_weights(shipped_weights(WEIGHTS_FILE, "chess")))
apply_weights(SHIPPED_WEIGHTS)
