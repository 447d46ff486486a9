"""Othello EVAL: learned pattern tables (the default) or a weighted sum of classic features.

Two models share one entry point, ``evaluate_to_move(own, opponent, own_moves)``, which reads
the current model at call time (``set_weights`` switches it, per process):

* **patterns** (the shipped default, ``resources/weights/othello.json``): per game phase (by
  the number of empty squares), a value for every configuration of each pattern of
  ``games.othello.patterns`` (Buro's Logistello, Edax), summed over the 46 instances, plus
  weights on mobility and potential mobility (and a per-phase constant and parity, shipped
  as 0). Fitted by least squares to the values of deeper searches (and exact solves near
  the end) of self-play positions (``tools/othello_label.py``, ``tools/tune_othello.py``; see
  the weights folder's README). Tables are in hundredths of a disc. The default since it
  beat the classic model at a fixed time (``bench/STRENGTH.md``, "Othello: EVAL").
* **classic** (``resources/weights/othello_classic.json``; ``DEFAULT_WEIGHTS``, also the
  model when no weights file is packaged): the hand-set linear sum described below.

The classic model's features:

Every feature is measured from the point of view of the side to move, as "mine minus the
opponent's", so swapping the two sides negates every value and the evaluation is exactly
antisymmetric. Values are in hundredths of a disc of final margin (``EVAL_SCALE = 100``), so a
midgame estimate and an exact endgame score share one scale.

Features:

* ``mobility``: legal moves, mine minus theirs. Few moves means forced bad moves later.
* ``potential_mobility``: empty squares next to the opponent's discs minus those next to
  mine: frontier discs give the opponent moves, quiet (interior) discs do not.
* ``corners``: corners held; a corner can never be flipped.
* ``x_squares`` / ``c_squares``: discs on the diagonal (X) or edge (C) neighbours of an
  *empty* corner; they tend to give that corner away. Once the corner is taken they are
  harmless and are not counted.
* ``edge_stability``: discs that can never be flipped because they are on a full edge, or
  in an unbroken run of one colour along an edge from a corner.
* ``parity``: in the endgame, whoever gets the last move of the game (the side to move when
  the number of empties is odd) gains the last flips; +1 or -1 for that side.
* ``discs``: the disc difference, phased in over the last ``DISC_PHASE_EMPTIES`` empties,
  when the count starts to be what the game is scored on.
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping
from dataclasses import dataclass
from operator import mul
from typing import Any, Final

from games.othello.bitboard import (
    BOARD_SIZE,
    CORNERS,
    FILES,
    FULL,
    SQUARE_COUNT,
    Bitboard,
    legal_moves_mask,
    native,
    square_of,
)
from games.weights import WeightsError, named_numbers, shipped_weights
from games.othello.patterns import (
    DIAGONAL_4,
    DIAGONAL_5,
    DIAGONAL_6,
    DIAGONAL_7,
    DIAGONAL_8,
    DIAGONAL_GATHER,
    MIRROR_1,
    MIRROR_2,
    MIRROR_4,
    PATTERN_NAMES,
    PATTERNS,
    TERNARY,
    TERNARY_TWICE,
    TRANSPOSE_1,
    TRANSPOSE_2,
    TRANSPOSE_4,
    instance_squares,
    pattern_indices,
    symmetric_index_table,
)

NATIVE_EVAL: Final = native is not None
"""Whether both models are summed in C (``games/othello/_fast.c``, see
``games.othello.bitboard.native``): the same values as ``classic_evaluate`` and
``pattern_evaluate``, bit for bit, ~10-20x faster. Without it (no compiler, or
``PLYGROUND_PYTHON_HOTPATHS=1``) the pure-Python functions run."""

DEFAULT_WEIGHTS: Final[dict[str, float]] = {
    "mobility": 70.0,
    "potential_mobility": 25.0,
    "corners": 800.0,
    "x_squares": -450.0,
    "c_squares": -150.0,
    "edge_stability": 120.0,
    "parity": 250.0,
    "discs": 100.0,
}
"""Hundredths of a disc of final margin per unit of each feature (hand-set, in the range of
the classic linear evaluators; a disc of the phased-in count is worth exactly one disc)."""

FEATURE_NAMES: Final[tuple[str, ...]] = tuple(DEFAULT_WEIGHTS)

PARITY_EMPTIES: Final = 16
"""Parity counts only from here on: earlier, passes and region splits make it noise."""

DISC_PHASE_EMPTIES: Final = 20
"""The disc-count feature ramps from 0 (at this many empties) to the full difference (at 0)."""

NOT_FILE_A: Final[Bitboard] = 0xFEFEFEFEFEFEFEFE
NOT_FILE_H: Final[Bitboard] = 0x7F7F7F7F7F7F7F7F



def _bits(*names: str) -> Bitboard:
    """The bitboard of the named squares (``"a1"``, ``"h8"`` ...)."""
    return sum(1 << square_of(FILES.index(name[0]), int(name[1]) - 1) for name in names)


A1, H1, A8, H8 = 0, 7, 56, 63
_CORNER_NEIGHBOURS: Final[tuple[tuple[int, Bitboard, Bitboard], ...]] = (
    (A1, _bits("b2"), _bits("b1", "a2")),
    (H1, _bits("g2"), _bits("g1", "h2")),
    (A8, _bits("b7"), _bits("a7", "b8")),
    (H8, _bits("g7"), _bits("h7", "g8")),
)
"""Per corner: its X-square (diagonal neighbour) and its two C-squares (edge neighbours)."""


def _build_danger_masks() -> dict[Bitboard, tuple[Bitboard, Bitboard]]:
    """For each of the 16 sets of empty corners: (X-squares, C-squares) next to them.
    One dict lookup then replaces four corner tests per evaluation."""
    table: dict[Bitboard, tuple[Bitboard, Bitboard]] = {}
    for subset in range(1 << len(_CORNER_NEIGHBOURS)):
        empty_corners = x_mask = c_mask = 0
        for index, (corner, x_square, c_squares) in enumerate(_CORNER_NEIGHBOURS):
            if subset >> index & 1:
                empty_corners |= 1 << corner
                x_mask |= x_square
                c_mask |= c_squares
        table[empty_corners] = (x_mask, c_mask)
    return table


DANGER_MASKS: Final = _build_danger_masks()


def _edge_squares(start: int, step: int) -> list[int]:
    return [start + step * index for index in range(BOARD_SIZE)]


EDGES: Final[tuple[Bitboard, ...]] = tuple(
    sum(1 << square for square in _edge_squares(start, step))
    for start, step in ((A1, 1), (A8, 1), (A1, 8), (H1, 8))
)
"""Rank 1, rank 8, file a, file h."""


def _build_edge_rays() -> tuple[tuple[Bitboard, Bitboard, bool], ...]:
    """(corner bit, the other 7 squares of an edge from that corner, runs upward?)."""
    rays = []
    for corner, step in ((A1, 1), (A1, 8), (H1, -1), (H1, 8), (A8, 1), (A8, -8), (H8, -1), (H8, -8)):
        ray = sum(1 << (corner + step * index) for index in range(1, BOARD_SIZE))
        rays.append((1 << corner, ray, step > 0))
    return tuple(rays)


EDGE_RAYS: Final = _build_edge_rays()


def edge_stable_discs(own: Bitboard, occupied: Bitboard) -> Bitboard:
    """``own``'s discs that can never be flipped along an edge: all its discs on a full edge
    (an edge disc can only be flipped along its edge), and unbroken runs from an own corner."""
    stable = 0
    for edge in EDGES:
        if occupied & edge == edge:
            stable |= own & edge
    if not own & CORNERS:
        return stable
    for corner, ray, upward in EDGE_RAYS:
        if own & corner:
            blockers = ray & ~own
            if upward:
                first = blockers & -blockers
                stable |= corner | (ray if not blockers else ray & (first - 1))
            else:
                stable |= corner | (ray & -(1 << blockers.bit_length()) if blockers else ray)
    return stable


def neighbours(board: Bitboard) -> Bitboard:
    """Every square touching ``board`` in the 8 directions (and ``board`` itself)."""
    row = board | ((board << 1) & NOT_FILE_A) | ((board >> 1) & NOT_FILE_H)
    return row | (row << 8) | (row >> 8)


def feature_vector(own: Bitboard, opponent: Bitboard, own_moves: Bitboard,
                   opponent_moves: Bitboard) -> tuple[float, ...]:
    """The feature values for the side to move, ``own``, in ``FEATURE_NAMES`` order.

    A plain tuple rather than a dict because this runs at every search leaf."""
    occupied = own | opponent
    empty = ~occupied & FULL
    empties = SQUARE_COUNT - occupied.bit_count()
    x_mask, c_mask = DANGER_MASKS[empty & CORNERS]
    parity = 0
    if empties <= PARITY_EMPTIES:
        parity = 1 if empties & 1 else -1
    lateness = max(0, DISC_PHASE_EMPTIES - empties) / DISC_PHASE_EMPTIES
    return (
        own_moves.bit_count() - opponent_moves.bit_count(),
        (neighbours(opponent) & empty).bit_count() - (neighbours(own) & empty).bit_count(),
        (own & CORNERS).bit_count() - (opponent & CORNERS).bit_count(),
        (own & x_mask).bit_count() - (opponent & x_mask).bit_count(),
        (own & c_mask).bit_count() - (opponent & c_mask).bit_count(),
        edge_stable_discs(own, occupied).bit_count() - edge_stable_discs(opponent, occupied).bit_count(),
        parity,
        (own.bit_count() - opponent.bit_count()) * lateness,
    )


def weight_vector(weights: Mapping[str, float]) -> tuple[float, ...]:
    """The weights in ``FEATURE_NAMES`` order; ``KeyError`` if one is missing."""
    return tuple(float(weights[name]) for name in FEATURE_NAMES)


DEFAULT_WEIGHT_VECTOR: Final = weight_vector(DEFAULT_WEIGHTS)


def feature_breakdown(own: Bitboard, opponent: Bitboard, own_moves: Bitboard,
                      weight_values: tuple[float, ...] = DEFAULT_WEIGHT_VECTOR,
                      ) -> dict[str, tuple[float, float]]:
    """``{name: (weight, value)}`` for the side to move (for display and tests)."""
    values = feature_vector(own, opponent, own_moves, legal_moves_mask(opponent, own))
    return {
        name: (weight, float(value))
        for name, weight, value in zip(FEATURE_NAMES, weight_values, values, strict=True)
    }


def classic_evaluate(own: Bitboard, opponent: Bitboard, own_moves: Bitboard,
                     weight_values: tuple[float, ...]) -> float:
    """The classic EVAL for the side to move in hundredths of a disc: ``sum(weight * value)``.

    ``own_moves`` is passed in because the state has it cached; ``weight_values`` is a
    ``weight_vector`` so that no dict is touched at a leaf.
    """
    values = feature_vector(own, opponent, own_moves, legal_moves_mask(opponent, own))
    return float(sum(map(mul, weight_values, values)))


# --------------------------------------------------------------------- pattern model
SCALAR_NAMES: Final[tuple[str, ...]] = ("bias", "mobility", "potential_mobility", "parity")
"""The pattern model's per-phase scalars: a constant (the side to move's edge, and the
phase's average), and weights on the mobility and potential-mobility differences (as the
classic features) and on parity (+1 when the side to move gets the last move)."""


@dataclass(frozen=True)
class PatternWeights:
    """A fitted pattern model: ``phase_bounds[i] <= empties < phase_bounds[i + 1]`` is phase
    ``i``; per phase, per pattern, the nonzero table entries as a flat ``[index, value, ...]``
    list (canonical indices, hundredths of a disc), and per phase the ``SCALAR_NAMES`` values."""

    phase_bounds: tuple[int, ...]
    tables: tuple[tuple[tuple[int, ...], ...], ...]
    scalars: tuple[tuple[float, ...], ...]

    @property
    def phase_count(self) -> int:
        return len(self.phase_bounds) - 1

    def phase_of_empties(self) -> tuple[int, ...]:
        """``phase[empties]`` for 0..64 (outside the bounds: the nearest phase)."""
        phases = []
        for empties in range(SQUARE_COUNT + 1):
            phase = 0
            while phase < self.phase_count - 1 and empties >= self.phase_bounds[phase + 1]:
                phase += 1
            phases.append(phase)
        return tuple(phases)

    def build_phase(self, phase: int) -> tuple:
        """The tables of one phase as full lists (both readings of a symmetric pattern filled),
        followed by the phase's scalars: what ``pattern_evaluate`` unpacks."""
        full = []
        for number, pattern in enumerate(PATTERNS):
            table = [0] * pattern.size
            mirror = symmetric_index_table(number)
            entries = self.tables[phase][number]
            for position in range(0, len(entries), 2):
                index, value = entries[position], entries[position + 1]
                table[index] = value
                if mirror is not None:
                    table[mirror[index]] = value
            full.append(table)
        return (*full, *self.scalars[phase])


def parse_weights(weights: Mapping[str, Any]) -> PatternWeights | tuple[float, ...]:
    """The ``"weights"`` object of ``resources/weights/othello.json`` (or of a file made like
    it) as a model. A pattern model has ``phase_bounds`` (increasing empty counts: phase
    ``i`` is ``bounds[i] <= empties < bounds[i + 1]``), per ``SCALAR_NAMES`` one number a
    phase, and per pattern name one ``[index, value, ...]`` list a phase. Otherwise the
    mapping must name exactly the classic features (``FEATURE_NAMES``). ``WeightsError``
    names the first thing wrong."""
    if not isinstance(weights, Mapping):
        raise WeightsError(f"Othello weights are a JSON object, not {type(weights).__name__}")
    if "phase_bounds" not in weights:
        return weight_vector(named_numbers(weights, FEATURE_NAMES, "othello"))
    expected = {"phase_bounds", *SCALAR_NAMES, *PATTERN_NAMES}
    missing, extra = sorted(expected - set(weights)), sorted(set(weights) - expected)
    if missing or extra:
        parts = ([f"missing {', '.join(missing)}"] if missing else []) + ([f"unknown {', '.join(extra)}"] if extra else [])
        raise WeightsError(f"othello pattern weights: {'; '.join(parts)}")
    try:
        bounds = tuple(int(bound) for bound in weights["phase_bounds"])
        phase_count = len(bounds) - 1
        if phase_count < 1 or list(bounds) != sorted(set(bounds)) or bounds[0] < 0:
            raise WeightsError("othello pattern weights: phase_bounds must be two or more increasing empty counts")
        tables = []
        for pattern in PATTERNS:
            per_phase = weights[pattern.name]
            if len(per_phase) != phase_count:
                raise WeightsError(f"othello pattern weights: {pattern.name} has {len(per_phase)} phases, not {phase_count}")
            checked = []
            size = pattern.size
            for entries in per_phase:
                entries = tuple(map(int, entries))
                indices = entries[0::2]
                if len(entries) % 2 or (indices and (min(indices) < 0 or max(indices) >= size)):
                    raise WeightsError(f"othello pattern weights: {pattern.name} entries are [index, value, ...] "
                                       f"with 0 <= index < {pattern.size}")
                checked.append(entries)
            tables.append(checked)
        for name in SCALAR_NAMES:
            if len(weights[name]) != phase_count:
                raise WeightsError(f"othello pattern weights: {name} has {len(weights[name])} phases, not {phase_count}")
        scalars = tuple(
            tuple(float(weights[name][phase]) for name in SCALAR_NAMES) for phase in range(phase_count)
        )
    except WeightsError:
        raise
    except (TypeError, ValueError, IndexError) as error:
        raise WeightsError(f"othello pattern weights are malformed: {error}") from None
    by_phase = tuple(tuple(tables[number][phase] for number in range(len(PATTERNS)))
                     for phase in range(phase_count))
    return PatternWeights(bounds, by_phase, scalars)


# The current model (module state read by ``evaluate_to_move`` at every call).
_pattern_model: PatternWeights | None = None
_phase_of_empties: tuple[int, ...] = ()
_phase_tables: list[tuple | None] = []
_classic_weights: tuple[float, ...] = DEFAULT_WEIGHT_VECTOR


def native_classic_constants() -> dict[str, int | tuple[int, ...]]:
    """The constants the classic model computes with, by name, as the C EVAL
    (``games/othello/_fast.c``) takes them: it keeps no copy and refuses a missing or unknown
    name. Per corner (a1, h1, a8, h8) its bit, X-square and C-squares; ``EDGES``; per
    ``EDGE_RAYS`` ray its corner, squares and direction."""
    return {
        "PARITY_EMPTIES": PARITY_EMPTIES,
        "DISC_PHASE_EMPTIES": DISC_PHASE_EMPTIES,
        "CORNERS": tuple(1 << corner for corner, _, _ in _CORNER_NEIGHBOURS),
        "X_SQUARES": tuple(x_square for _, x_square, _ in _CORNER_NEIGHBOURS),
        "C_SQUARES": tuple(c_squares for _, _, c_squares in _CORNER_NEIGHBOURS),
        "EDGES": EDGES,
        "EDGE_RAY_CORNERS": tuple(corner for corner, _, _ in EDGE_RAYS),
        "EDGE_RAYS": tuple(ray for _, ray, _ in EDGE_RAYS),
        "EDGE_RAYS_UPWARD": tuple(int(upward) for _, _, upward in EDGE_RAYS),
    }


def hand_to_native(module: Any, model: PatternWeights | tuple[float, ...]) -> None:
    """Make ``model`` the EVAL of a compiled module built from ``games/othello/_fast.c``
    (``native``, or a tool's own build of it). Everything crosses by name: the classic weights
    by ``FEATURE_NAMES`` with ``native_classic_constants``; a pattern model's scalars by
    ``SCALAR_NAMES``, with the pattern geometry of ``games.othello.patterns`` (each instance's
    squares in digit order, each pattern's self-symmetry) and the sparse tables, which C
    expands as ``PatternWeights.build_phase`` does."""
    if not isinstance(model, PatternWeights):
        module.set_classic(dict(zip(FEATURE_NAMES, model, strict=True)), native_classic_constants())
        return
    instances = [(number, instance_squares(pattern, image_name))
                 for number, pattern in enumerate(PATTERNS) for image_name in pattern.image_names]
    permutations = [pattern.self_symmetries[0] if pattern.self_symmetries else ()
                    for pattern in PATTERNS]
    tables = [[array("i", entries) for entries in phase_tables] for phase_tables in model.tables]
    scalars = {name: tuple(phase[index] for phase in model.scalars) for index, name in enumerate(SCALAR_NAMES)}
    module.load(model.phase_of_empties(), scalars, instances, permutations, tables)


def use_model(model: PatternWeights | tuple[float, ...]) -> None:
    """Make ``model`` (from ``parse_weights``) the EVAL of this process."""
    global _pattern_model, _phase_of_empties, _phase_tables, _classic_weights
    if native is not None:
        hand_to_native(native, model)
    if isinstance(model, PatternWeights):
        _pattern_model = model
        _phase_of_empties = model.phase_of_empties()
        _phase_tables = [None] * model.phase_count
    else:
        _pattern_model = None
        _classic_weights = model


def current_model() -> PatternWeights | tuple[float, ...]:
    return _pattern_model if _pattern_model is not None else _classic_weights


def _tables(empties: int) -> tuple:
    phase = _phase_of_empties[empties]
    tables = _phase_tables[phase]
    if tables is None:
        assert _pattern_model is not None
        tables = _phase_tables[phase] = _pattern_model.build_phase(phase)
    return tables


LOW_HALF: Final = FULL
"""The side to move's half of a board pair ``own | opponent << 64``."""


def _pair(mask: int) -> int:
    """``mask`` in both halves of a board pair."""
    return mask | mask << 64


PAIR_MIRROR_1: Final = _pair(MIRROR_1)
PAIR_MIRROR_2: Final = _pair(MIRROR_2)
PAIR_MIRROR_4: Final = _pair(MIRROR_4)
PAIR_TRANSPOSE_1: Final = _pair(TRANSPOSE_1)
PAIR_TRANSPOSE_2: Final = _pair(TRANSPOSE_2)
PAIR_TRANSPOSE_4: Final = _pair(TRANSPOSE_4)
PAIR_CORNER_3X3 = (_pair(0x7), _pair(0x38), _pair(0x1C0))
PAIR_CORNER_2X5 = (_pair(0x1F), _pair(0x3E0))
PAIR_EDGE_X = (_pair(0xFF), _pair(0x100), _pair(0x200))
PAIR_ROW = _pair(0xFF)


def pattern_evaluate(own: Bitboard, opponent: Bitboard, own_moves: Bitboard) -> int | float:
    """The pattern model's EVAL for the side to move, in hundredths of a disc.

    The hot path. Both sides travel as one 128-bit *pair* ``own | opponent << 64``, so one
    mirror, transpose or gather serves both (the shifts and masks of
    ``games.othello.patterns`` never carry a bit across the halves); a byte-swap flips the
    ranks and also swaps the halves, which the ``swapped`` images below account for. The
    gathers are those of ``games.othello.patterns.gather``, inlined per pattern."""
    occupied = own | opponent
    empties = SQUARE_COUNT - occupied.bit_count()
    (corner3x3, corner2x5, edge_x, row2, row3, row4, diagonal8, diagonal7, diagonal6,
     diagonal5, diagonal4, bias, mobility, potential_mobility, parity) = _tables(empties)
    ternary, twice = TERNARY, TERNARY_TWICE
    # The 8 images (patterns.IMAGE_NAMES order): mirror (h), transpose (t), byte swap (v).
    pair = own | opponent << 64
    mirrored = ((pair >> 1) & PAIR_MIRROR_1) | ((pair & PAIR_MIRROR_1) << 1)
    mirrored = ((mirrored >> 2) & PAIR_MIRROR_2) | ((mirrored & PAIR_MIRROR_2) << 2)
    mirrored = ((mirrored >> 4) & PAIR_MIRROR_4) | ((mirrored & PAIR_MIRROR_4) << 4)
    swap = PAIR_TRANSPOSE_4 & (pair ^ (pair << 28))
    transposed = pair ^ swap ^ (swap >> 28)
    swap = PAIR_TRANSPOSE_2 & (transposed ^ (transposed << 14))
    transposed ^= swap ^ (swap >> 14)
    swap = PAIR_TRANSPOSE_1 & (transposed ^ (transposed << 7))
    transposed ^= swap ^ (swap >> 7)
    transposed_mirrored = ((transposed >> 1) & PAIR_MIRROR_1) | ((transposed & PAIR_MIRROR_1) << 1)
    transposed_mirrored = (((transposed_mirrored >> 2) & PAIR_MIRROR_2)
                           | ((transposed_mirrored & PAIR_MIRROR_2) << 2))
    transposed_mirrored = (((transposed_mirrored >> 4) & PAIR_MIRROR_4)
                           | ((transposed_mirrored & PAIR_MIRROR_4) << 4))
    from_bytes = int.from_bytes
    flipped = from_bytes(pair.to_bytes(16, "little"), "big")  # big-endian read: ranks and halves swap
    flipped_mirrored = from_bytes(mirrored.to_bytes(16, "little"), "big")
    flipped_transposed = from_bytes(transposed.to_bytes(16, "little"), "big")
    flipped_transposed_mirrored = from_bytes(transposed_mirrored.to_bytes(16, "little"), "big")
    # (image, own half first?) per image; a byte-swapped image holds the side to move high.
    straight = (pair, mirrored, transposed, transposed_mirrored)
    swapped = (flipped, flipped_mirrored, flipped_transposed, flipped_transposed_mirrored)
    score = 0
    mask_a, mask_b, mask_c = PAIR_CORNER_3X3
    mask_d, mask_e = PAIR_CORNER_2X5
    for image in straight:
        bits = (image & mask_d) | (image >> 3 & mask_e)
        score += corner2x5[ternary[bits & 0x3FF] + twice[bits >> 64]]
    for image in swapped:
        bits = (image & mask_d) | (image >> 3 & mask_e)
        score += corner2x5[ternary[bits >> 64] + twice[bits & 0x3FF]]
    for image in (pair, mirrored):
        bits = (image & mask_a) | (image >> 5 & mask_b) | (image >> 10 & mask_c)
        score += corner3x3[ternary[bits & 0x3FF] + twice[bits >> 64]]
    for image in (flipped, flipped_mirrored):
        bits = (image & mask_a) | (image >> 5 & mask_b) | (image >> 10 & mask_c)
        score += corner3x3[ternary[bits >> 64] + twice[bits & 0x3FF]]
    mask_a, mask_b, mask_c = PAIR_EDGE_X
    row = PAIR_ROW
    for image, own_high in ((pair, False), (flipped, True), (transposed, False), (flipped_transposed, True)):
        bits = (image & mask_a) | (image >> 1 & mask_b) | (image >> 5 & mask_c)
        second = image >> 8 & row
        third = image >> 16 & row
        fourth = image >> 24 & row
        if own_high:
            score += (edge_x[ternary[bits >> 64] + twice[bits & 0x3FF]]
                      + row2[ternary[second >> 64] + twice[second & 0xFF]]
                      + row3[ternary[third >> 64] + twice[third & 0xFF]]
                      + row4[ternary[fourth >> 64] + twice[fourth & 0xFF]])
        else:
            score += (edge_x[ternary[bits & 0x3FF] + twice[bits >> 64]]
                      + row2[ternary[second & 0xFF] + twice[second >> 64]]
                      + row3[ternary[third & 0xFF] + twice[third >> 64]]
                      + row4[ternary[fourth & 0xFF] + twice[fourth >> 64]])
    gather = DIAGONAL_GATHER
    for image in (pair, mirrored):
        mine, theirs = image & DIAGONAL_8, image >> 64 & DIAGONAL_8
        score += diagonal8[ternary[mine * gather >> 56 & 0xFF] + twice[theirs * gather >> 56 & 0xFF]]
    for image, own_high in ((pair, False), (transposed, False), (mirrored, False), (flipped_transposed, True)):
        if own_high:
            mine, theirs = image >> 64, image & LOW_HALF
        else:
            mine, theirs = image & LOW_HALF, image >> 64
        score += (diagonal7[ternary[(mine & DIAGONAL_7) * gather >> 57 & 0x7F]
                            + twice[(theirs & DIAGONAL_7) * gather >> 57 & 0x7F]]
                  + diagonal6[ternary[(mine & DIAGONAL_6) * gather >> 58 & 0x3F]
                              + twice[(theirs & DIAGONAL_6) * gather >> 58 & 0x3F]]
                  + diagonal5[ternary[(mine & DIAGONAL_5) * gather >> 59 & 0x1F]
                              + twice[(theirs & DIAGONAL_5) * gather >> 59 & 0x1F]]
                  + diagonal4[ternary[(mine & DIAGONAL_4) * gather >> 60 & 0xF]
                              + twice[(theirs & DIAGONAL_4) * gather >> 60 & 0xF]])
    empty = ~occupied & FULL
    return (score + bias
            + mobility * (own_moves.bit_count() - legal_moves_mask(opponent, own).bit_count())
            + potential_mobility * ((neighbours(opponent) & empty).bit_count()
                                    - (neighbours(own) & empty).bit_count())
            + parity * (1 if empties & 1 else -1))


def pattern_features(own: Bitboard, opponent: Bitboard, own_moves: Bitboard) -> dict[str, tuple[float, float]]:
    """The pattern model's EVAL as ``{name: (weight, value)}`` (for display and tests): each
    pattern's summed table values with weight 1, then the scalars with their weights."""
    occupied = own | opponent
    empties = SQUARE_COUNT - occupied.bit_count()
    tables = _tables(empties)
    breakdown: dict[str, tuple[float, float]] = {}
    for number, (pattern, indices) in enumerate(zip(PATTERNS, pattern_indices(own, opponent), strict=True)):
        breakdown[pattern.name] = (1.0, float(sum(tables[number][index] for index in indices)))
    empty = ~occupied & FULL
    values = (
        1.0,
        own_moves.bit_count() - legal_moves_mask(opponent, own).bit_count(),
        (neighbours(opponent) & empty).bit_count() - (neighbours(own) & empty).bit_count(),
        1.0 if empties & 1 else -1.0,
    )
    for name, weight, value in zip(SCALAR_NAMES, tables[len(PATTERNS):], values, strict=True):
        breakdown[name] = (float(weight), float(value))
    return breakdown


def evaluate_to_move(own: Bitboard, opponent: Bitboard, own_moves: Bitboard) -> float:
    """EVAL for the side to move in hundredths of a disc, by the current model."""
    if _pattern_model is not None:
        if native is not None:
            return native.evaluate(own, opponent, own_moves)
        return pattern_evaluate(own, opponent, own_moves)
    if native is not None:
        return native.classic(own, opponent, own_moves)
    return classic_evaluate(own, opponent, own_moves, _classic_weights)


def features_to_move(own: Bitboard, opponent: Bitboard, own_moves: Bitboard) -> dict[str, tuple[float, float]]:
    """``{name: (weight, value)}`` of the current model for the side to move; the weighted
    values add up to ``evaluate_to_move``."""
    if _pattern_model is not None:
        return pattern_features(own, opponent, own_moves)
    return feature_breakdown(own, opponent, own_moves, _classic_weights)


WEIGHTS_FILE: Final = "othello.json"


def use_shipped() -> None:
    """Back to the shipped model (the pattern model of ``othello.json``; the classic
    ``DEFAULT_WEIGHTS`` if no file is packaged)."""
    try:
        weights = shipped_weights(WEIGHTS_FILE, "othello")
    except FileNotFoundError:
        use_model(DEFAULT_WEIGHT_VECTOR)
        return
    use_model(parse_weights(weights))


use_shipped()
