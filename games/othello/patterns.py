"""Othello pattern features (Buro's Logistello, Edax): every configuration of a few squares has
its own learned value.

A *pattern* is an ordered set of squares near one corner or along one line, in its
**canonical orientation** (the one by ``a1`` or on rank 1 / the a1-h8 diagonal). Each square
holds a ternary digit: 0 empty, 1 the side to move's disc, 2 the other side's; the digits
make the configuration's *index* ``sum(digit[i] * 3**i)``. The board's symmetric copies of a
pattern (the same squares near another corner, on another edge...) are *instances* of it
and share its table of values: an instance is read by applying a board symmetry to the
bitboards (an *image*) and reading the canonical squares there, so one gather expression
serves every instance and the digit order always matches. A pattern whose squares are
mapped onto themselves by a symmetry (an edge read backwards, a corner square transposed)
has ``self_symmetries``: both readings get one value (``canonical_index``), which halves the
table the fit has to fill and makes the evaluation identical on all 8 symmetric positions.

The set is Edax's (46 instances): 3x3 corners, 2x5 corners (both orientations), edges with
their two X-squares, the rows/columns 2, 3 and 4 in from each edge, and the diagonals of
length 8 down to 4.

Speed (pure Python): the 8 images of each bitboard cost 7 transforms (three delta swaps
for a transpose or a mirror, a byte swap for the vertical flip); the squares of a pattern are
gathered from an image into a compact int with one to three shift-and-masks (a multiply for
diagonals), and ``TERNARY[bits]`` turns the gathered bits of each side into their part of
the index. ``pattern_indices`` gives every instance's index (for fitting and for tests);
``games.othello.evaluation`` sums table values with the same gathers, unrolled.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Final

from games.othello.bitboard import Bitboard, Square

MAX_PATTERN_SQUARES: Final = 10

TERNARY: Final[tuple[int, ...]] = tuple(
    sum(3 ** bit for bit in range(MAX_PATTERN_SQUARES) if bits >> bit & 1)
    for bits in range(1 << MAX_PATTERN_SQUARES)
)
"""``TERNARY[bits]``: the base-3 number with digit 1 wherever ``bits`` has a 1 (the side to
move's part of an index); ``TERNARY_TWICE`` is the other side's part (digit 2)."""
TERNARY_TWICE: Final[tuple[int, ...]] = tuple(2 * value for value in TERNARY)

# ----------------------------------------------------------------- board symmetries
MIRROR_1: Final = 0x5555555555555555
MIRROR_2: Final = 0x3333333333333333
MIRROR_4: Final = 0x0F0F0F0F0F0F0F0F
TRANSPOSE_1: Final = 0x5500550055005500
TRANSPOSE_2: Final = 0x3333000033330000
TRANSPOSE_4: Final = 0x0F0F0F0F00000000


def mirror_horizontal(board: Bitboard) -> Bitboard:
    """File a <-> file h (``(file, rank) -> (7 - file, rank)``)."""
    board = ((board >> 1) & MIRROR_1) | ((board & MIRROR_1) << 1)
    board = ((board >> 2) & MIRROR_2) | ((board & MIRROR_2) << 2)
    return ((board >> 4) & MIRROR_4) | ((board & MIRROR_4) << 4)


def flip_vertical(board: Bitboard) -> Bitboard:
    """Rank 1 <-> rank 8 (a byte swap)."""
    return int.from_bytes(board.to_bytes(8, "little"), "big")


def transpose(board: Bitboard) -> Bitboard:
    """Across the a1-h8 diagonal (``(file, rank) -> (rank, file)``): three delta swaps."""
    swap = TRANSPOSE_4 & (board ^ (board << 28))
    board ^= swap ^ (swap >> 28)
    swap = TRANSPOSE_2 & (board ^ (board << 14))
    board ^= swap ^ (swap >> 14)
    swap = TRANSPOSE_1 & (board ^ (board << 7))
    return board ^ swap ^ (swap >> 7)


def images(board: Bitboard) -> tuple[Bitboard, ...]:
    """The board under the 8 symmetries, in ``IMAGE_NAMES`` order:
    identity, H, V, H then V, T, T after H (= V after T), T after V (= H after T),
    T after H and V. ``H`` mirrors files, ``V`` flips ranks, ``T`` transposes."""
    mirrored = mirror_horizontal(board)
    transposed = transpose(board)
    transposed_mirrored = mirror_horizontal(transposed)
    return (board, mirrored, flip_vertical(board), flip_vertical(mirrored), transposed,
            flip_vertical(transposed), transposed_mirrored, flip_vertical(transposed_mirrored))


IMAGE_NAMES: Final = ("id", "h", "v", "hv", "t", "th", "tv", "thv")


def _square_maps() -> dict[str, tuple[Square, ...]]:
    """Per image name: ``source[s]``, the square of the original board that lands on ``s``."""
    def h(square: Square) -> Square:
        return square - square % 8 + 7 - square % 8

    def v(square: Square) -> Square:
        return (7 - square // 8) * 8 + square % 8

    def t(square: Square) -> Square:
        return (square % 8) * 8 + square // 8

    # image(x) has bit s set iff x has bit source(s) set; compose the inverse maps.
    compositions = {
        "id": (), "h": (h,), "v": (v,), "hv": (h, v), "t": (t,), "th": (h, t),
        "tv": (v, t), "thv": (h, v, t),
    }
    maps = {}
    for name, steps in compositions.items():
        sources = []
        for square in range(64):
            source = square
            # The image applies steps left to right; its bit s came from undoing them right to left.
            for step in reversed(steps):
                source = step(source)
            sources.append(source)
        maps[name] = tuple(sources)
    return maps


IMAGE_SOURCES: Final = _square_maps()


# ------------------------------------------------------------------------- patterns
@dataclass(frozen=True)
class Pattern:
    """One pattern: canonical squares (digit ``i`` is ``squares[i]``), the images whose
    canonical squares are its instances, and the digit permutations that map it onto itself."""

    name: str
    squares: tuple[Square, ...]
    image_names: tuple[str, ...]
    self_symmetries: tuple[tuple[int, ...], ...] = ()

    @property
    def size(self) -> int:
        return 3 ** len(self.squares)


def _squares(*names: str) -> tuple[Square, ...]:
    return tuple("abcdefgh".index(name[0]) + 8 * (int(name[1]) - 1) for name in names)


def _reversal(length: int) -> tuple[tuple[int, ...], ...]:
    return (tuple(reversed(range(length))),)


CORNER_IMAGES: Final = ("id", "h", "v", "hv")
ALL_IMAGES: Final = IMAGE_NAMES
LINE_IMAGES: Final = ("id", "v", "t", "th")
"""Rank 1 (or 2, 3, 4), rank 8 (7, 6, 5), file a (b, c, d), file h (g, f, e)."""
DIAGONAL_IMAGES: Final = ("id", "t", "h", "th")

PATTERNS: Final[tuple[Pattern, ...]] = (
    Pattern("corner3x3", _squares("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"),
            CORNER_IMAGES, ((0, 3, 6, 1, 4, 7, 2, 5, 8),)),
    Pattern("corner2x5", _squares("a1", "b1", "c1", "d1", "e1", "a2", "b2", "c2", "d2", "e2"),
            ALL_IMAGES),
    Pattern("edge_x", _squares("a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "b2", "g2"),
            LINE_IMAGES, ((7, 6, 5, 4, 3, 2, 1, 0, 9, 8),)),
    Pattern("row2", _squares("a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2"), LINE_IMAGES, _reversal(8)),
    Pattern("row3", _squares("a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3"), LINE_IMAGES, _reversal(8)),
    Pattern("row4", _squares("a4", "b4", "c4", "d4", "e4", "f4", "g4", "h4"), LINE_IMAGES, _reversal(8)),
    Pattern("diagonal8", _squares("a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"), ("id", "h"),
            _reversal(8)),
    Pattern("diagonal7", _squares("b1", "c2", "d3", "e4", "f5", "g6", "h7"), DIAGONAL_IMAGES, _reversal(7)),
    Pattern("diagonal6", _squares("c1", "d2", "e3", "f4", "g5", "h6"), DIAGONAL_IMAGES, _reversal(6)),
    Pattern("diagonal5", _squares("d1", "e2", "f3", "g4", "h5"), DIAGONAL_IMAGES, _reversal(5)),
    Pattern("diagonal4", _squares("e1", "f2", "g3", "h4"), DIAGONAL_IMAGES, _reversal(4)),
)
PATTERN_NAMES: Final = tuple(pattern.name for pattern in PATTERNS)
INSTANCE_COUNT: Final = sum(len(pattern.image_names) for pattern in PATTERNS)


def instance_squares(pattern: Pattern, image_name: str) -> tuple[Square, ...]:
    """The squares of the original board that one instance reads, in digit order."""
    sources = IMAGE_SOURCES[image_name]
    return tuple(sources[square] for square in pattern.squares)


# --------------------------------------------------------------------------- gathers
DIAGONAL_GATHER: Final = 0x0101010101010101
"""Multiplying a diagonal's bits by this stacks them, one bit per file, in the top byte
(no two partial products share a bit, so there are no carries)."""
DIAGONAL_8: Final = 0x8040201008040201
DIAGONAL_7: Final = sum(1 << (9 * step + 1) for step in range(7))
DIAGONAL_6: Final = sum(1 << (9 * step + 2) for step in range(6))
DIAGONAL_5: Final = sum(1 << (9 * step + 3) for step in range(5))
DIAGONAL_4: Final = sum(1 << (9 * step + 4) for step in range(4))


def gather(pattern_number: int, board: Bitboard) -> int:
    """The canonical squares of pattern ``pattern_number`` on ``board`` as compact bits (digit
    order). The evaluation inlines these same expressions."""
    if pattern_number == 0:
        return (board & 0x7) | (board >> 5 & 0x38) | (board >> 10 & 0x1C0)
    if pattern_number == 1:
        return (board & 0x1F) | (board >> 3 & 0x3E0)
    if pattern_number == 2:
        return (board & 0xFF) | (board >> 1 & 0x100) | (board >> 5 & 0x200)
    if pattern_number in (3, 4, 5):
        return board >> (8 * (pattern_number - 2)) & 0xFF
    mask, shift = ((DIAGONAL_8, 56), (DIAGONAL_7, 57), (DIAGONAL_6, 58), (DIAGONAL_5, 59),
                   (DIAGONAL_4, 60))[pattern_number - 6]
    return ((board & mask) * DIAGONAL_GATHER >> shift) & (0xFF >> (shift - 56))


IMAGE_INDEX: Final = {name: index for index, name in enumerate(IMAGE_NAMES)}


def pattern_indices(own: Bitboard, opponent: Bitboard) -> list[list[int]]:
    """Per pattern (``PATTERNS`` order), the index of each instance (``image_names`` order)
    for the side to move ``own``. Not the hot path: the evaluation inlines this."""
    own_images, opponent_images = images(own), images(opponent)
    indices = []
    for number, pattern in enumerate(PATTERNS):
        row = []
        for image_name in pattern.image_names:
            image = IMAGE_INDEX[image_name]
            row.append(TERNARY[gather(number, own_images[image])]
                       + TERNARY_TWICE[gather(number, opponent_images[image])])
        indices.append(row)
    return indices


def permuted_index(index: int, permutation: tuple[int, ...]) -> int:
    """The index of the configuration whose digit ``permutation[i]`` is digit ``i`` here."""
    result = 0
    for position in range(len(permutation)):
        digit = index // 3 ** position % 3
        result += digit * 3 ** permutation[position]
    return result


@cache
def symmetric_index_table(pattern_number: int) -> tuple[int, ...] | None:
    """Per index, the index of its mirror reading (``None``: no self-symmetry). Built on
    first use (up to 59,049 entries)."""
    pattern = PATTERNS[pattern_number]
    if not pattern.self_symmetries:
        return None
    (permutation,) = pattern.self_symmetries
    length = len(pattern.squares)
    # Digit by digit: each index's digits land at permuted places.
    table = [0] * pattern.size
    powers = [3 ** permutation[position] for position in range(length)]
    for index in range(pattern.size):
        value = index
        result = 0
        for position in range(length):
            value, digit = divmod(value, 3)
            result += digit * powers[position]
        table[index] = result
    return tuple(table)


def canonical_index(pattern_number: int, index: int) -> int:
    """The one index that stands for ``index`` and its mirror reading (the smaller)."""
    table = symmetric_index_table(pattern_number)
    return index if table is None else min(index, table[index])
