"""Othello EVAL: a weighted linear sum of classic named features (Rosenbloom's IAGO, Buro).

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

from collections.abc import Mapping
from operator import mul
from typing import Final

from games.othello.bitboard import (
    BOARD_SIZE,
    CORNERS,
    FILES,
    FULL,
    SQUARE_COUNT,
    Bitboard,
    legal_moves_mask,
    square_of,
)

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


def evaluate_to_move(own: Bitboard, opponent: Bitboard, own_moves: Bitboard,
                     weight_values: tuple[float, ...] = DEFAULT_WEIGHT_VECTOR) -> float:
    """EVAL for the side to move in hundredths of a disc: ``sum(weight * value)``.

    ``own_moves`` is passed in because the state has it cached; ``weight_values`` is a
    ``weight_vector`` so that no dict is touched at a leaf.
    """
    values = feature_vector(own, opponent, own_moves, legal_moves_mask(opponent, own))
    return float(sum(map(mul, weight_values, values)))
