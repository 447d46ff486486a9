"""EVAL for English draughts: a weighted linear sum of named features (AIMA 5.4.1).

Every feature is measured as Black's count minus White's, so the sum is from Black's point
of view and White's evaluation is its negation (the game is symmetric under turning the
board). Units are centipawn-like: a man is worth 100.

The features are the classic ones from Samuel (1959) and later checkers programs, chosen
because each is a handful of shifts and popcounts on the bitboards:

* ``men``, ``kings``: material; a king is worth about 1.4 men (it moves both ways).
* ``back_rank``: men still on their own back row keep the opponent from crowning.
* ``centre``: pieces on the eight central squares control the board.
* ``mobility``: non-capturing moves available (each side counted as if it were to move).
* ``runaway``: men at most three rows from crowning with no enemy piece anywhere in their
  forward cone, so nothing in front can stop them (further back, a king has time to come).
* ``advancement``: rows advanced by the men, summed; it pushes play forward in endgames.
* ``trade``: the piece-count lead times the number of pieces already gone (24 minus those
  left): the side ahead gains by exchanging, since a lead of one piece wins more surely the
  fewer pieces remain (the endgame maxim "when ahead, trade").
* ``double_corner``: the kings of the side with fewer pieces that stand in a double corner
  (squares 1, 5, 28, 32), where a lone king holds out longest; the side ahead must drive them
  out, so this counts for the weaker side and against the stronger one.

Endgame knowledge of the checkers literature:

* ``the_move``: "the move" (the opposition). With as many pieces on each side, count every
  piece, of either colour, standing in one "system" (the four rows 1-4, 9-12, 17-20,
  25-28; the other system has the same parity then): an odd count gives the side to move
  the move, an even one gives it to the other side (Lees; Boland). +1 for the side that has
  the move. It needs even material: as many men and as many kings on each side. Only exchanges can change it (a step moves a piece from one system to the other
  and passes the turn), so the term is stable from ply to ply. It counts when at most
  ``MOVE_PIECES`` pieces remain; earlier the move decides nothing yet. Checked against the
  4-piece databases: in the decisive 2-men-against-2 positions the side with the move wins
  81% of the time.
* ``trapped_kings``: kings that have no capture and cannot step anywhere an enemy piece
  could take them at once (or cannot step at all), as in the Banks-Jordan ending where a
  king locked on square 3 is as good as lost.
* ``dog_hole``: a man in the dog hole, a Black man on 28 with a White piece on 32 (a White
  man on 5 with a Black piece on 1): it cannot move, and it holds nothing.
* ``king_edge``: kings on the edge of the board (rows 1-4 and 29-32, the side columns) have
  two squares to go to instead of four; a king in the centre attacks and escapes.
* ``simplify``: the piece-count lead scaled by how few pieces remain (lead x 24 / pieces
  left): one piece up among 24 is little, one up among 5 wins. Exchanging when ahead raises
  it, exchanging when behind lowers it: "more kings wins, trade when ahead".

``dog_hole``, ``king_edge`` and ``simplify`` ship at weight 0: each feature says what the
literature and the databases say (``tests/games/test_checkers_knowledge.py``), but no
measurement showed that weighing them pays (no problem solved, play level within the
noise: ``bench/STRENGTH.md``, "Checkers: EVAL weights"). ``the_move`` and ``trapped_kings`` solve Jordan's problem.

The weights are data (``resources/weights/checkers.json``, read once at import); a search
may replace them (``CheckersState.set_weights``), so the code reads the class's current
table at every call.
"""

from __future__ import annotations

from operator import itemgetter

from games.checkers.bitboards import (
    BACK_ROW,
    BLACK,
    CROWN_ROW,
    MASK_OF_SQUARE,
    ROW_COUNT,
    ROW_MASKS,
    SQUARE_OF_BIT,
    SQUARES_PER_GHOST,
    VALID,
    WHITE,
    Bitboard,
    quiet_move_count,
    square_row,
)
from games.weights import named_numbers, shipped_weights

FEATURE_NAMES: tuple[str, ...] = (
    "men",
    "kings",
    "back_rank",
    "centre",
    "mobility",
    "runaway",
    "advancement",
    "trade",
    "double_corner",
    "the_move",
    "trapped_kings",
    "dog_hole",
    "king_edge",
    "simplify",
)

WEIGHTS_FILE = "checkers.json"
"""The packaged weights (``resources/weights/checkers.json``): data, fitted by
``tools/tune_checkers.py``."""

DEFAULT_WEIGHTS: dict[str, float] = named_numbers(shipped_weights(WEIGHTS_FILE, "checkers"), FEATURE_NAMES, "checkers")
"""Evaluation units per unit of each feature (a man = 100), as shipped."""

CENTRE_SQUARES: tuple[int, ...] = (10, 11, 14, 15, 18, 19, 22, 23)
CENTRE: Bitboard = sum(MASK_OF_SQUARE[square] for square in CENTRE_SQUARES)
DOUBLE_CORNER_SQUARES: tuple[int, ...] = (1, 5, 28, 32)
DOUBLE_CORNERS: Bitboard = sum(MASK_OF_SQUARE[square] for square in DOUBLE_CORNER_SQUARES)
FULL_SET = 24
"""Pieces on the board at the start: ``trade`` counts those gone since."""
SYSTEM: Bitboard = sum(ROW_MASKS[row] for row in range(0, ROW_COUNT, 2))
"""One of the two "systems" of "the move": rows 1-4, 9-12, 17-20 and 25-28 (the squares of
the four columns that start on Black's back row)."""
MOVE_PIECES = 12
"""``the_move`` counts from this many pieces down (Bell's and Cresswell's 5-against-5
endings are won on it)."""
EDGE_SQUARES: tuple[int, ...] = (1, 2, 3, 4, 5, 12, 13, 20, 21, 28, 29, 30, 31, 32)
EDGE: Bitboard = sum(MASK_OF_SQUARE[square] for square in EDGE_SQUARES)
DOG_HOLE: tuple[tuple[Bitboard, Bitboard], tuple[Bitboard, Bitboard]] = (
    (MASK_OF_SQUARE[28], MASK_OF_SQUARE[32]),
    (MASK_OF_SQUARE[5], MASK_OF_SQUARE[1]),
)
"""Indexed by player: (the dog-hole square of that player's men, the enemy square that shuts it)."""

RUNAWAY_ROWS = 3
"""Only men this close to crowning can be runaways, so the cones are at most 3 rows deep."""
RUNAWAY_ZONE: tuple[Bitboard, Bitboard] = (
    sum(ROW_MASKS[ROW_COUNT - 1 - distance] for distance in range(1, RUNAWAY_ROWS + 1)),
    sum(ROW_MASKS[distance] for distance in range(1, RUNAWAY_ROWS + 1)),
)


def _black_cone_blocked(white: Bitboard) -> Bitboard:
    """Squares with a white piece somewhere in their forward (downward) cone, up to three
    rows deep: the flood runs backwards from the white pieces one row per step."""
    blocked = 0
    for _ in range(RUNAWAY_ROWS):
        source = white | blocked
        grown = ((source >> 4) | (source >> 5)) & VALID
        if grown == blocked:
            break
        blocked = grown
    return blocked


def _white_cone_blocked(black: Bitboard) -> Bitboard:
    """Squares with a black piece somewhere in their forward (upward) cone, three rows deep."""
    blocked = 0
    for _ in range(RUNAWAY_ROWS):
        source = black | blocked
        grown = ((source << 4) | (source << 5)) & VALID
        if grown == blocked:
            break
        blocked = grown
    return blocked


_CHUNK_BITS = SQUARES_PER_GHOST + 1
"""Two rows plus their ghost bit: the board is four such 9-bit chunks."""
_CHUNK_MASK = (1 << _CHUNK_BITS) - 1
_CHUNK_COUNT = ROW_COUNT // 2


def _advancement_table(player: int, chunk_index: int) -> tuple[int, ...]:
    """Summed advancement of every set of men within one 9-bit chunk."""
    values = []
    for pattern in range(1 << _CHUNK_BITS):
        total = 0
        for offset in range(_CHUNK_BITS):
            bit = chunk_index * _CHUNK_BITS + offset
            if pattern >> offset & 1 and bit < len(SQUARE_OF_BIT) and SQUARE_OF_BIT[bit]:
                row = square_row(SQUARE_OF_BIT[bit])
                total += row if player == BLACK else ROW_COUNT - 1 - row
        values.append(total)
    return tuple(values)


ADVANCEMENT_TABLES: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_advancement_table(player, chunk) for chunk in range(_CHUNK_COUNT)) for player in (BLACK, WHITE)
)
"""``[player][chunk][9-bit pattern]``: four look-ups replace seven masked popcounts
(measured for both sides: 1.7 us down to 0.8 us)."""


def _advancement(men: Bitboard, player: int) -> int:
    """Rows the men have moved from their own back row, summed."""
    first, second, third, fourth = ADVANCEMENT_TABLES[player]
    return (
        first[men & _CHUNK_MASK]
        + second[(men >> _CHUNK_BITS) & _CHUNK_MASK]
        + third[(men >> 2 * _CHUNK_BITS) & _CHUNK_MASK]
        + fourth[(men >> 3 * _CHUNK_BITS) & _CHUNK_MASK]
    )


def attacked_squares(attackers: Bitboard, kings: Bitboard, empty: Bitboard, player: int) -> Bitboard:
    """The squares a piece of ``player`` (the ``attackers``) could jump at once if an enemy
    piece stood there: an attacker next to the square, in a direction it may capture, and
    an empty square beyond it."""
    if player == BLACK:
        down, up = attackers, attackers & kings
    else:
        down, up = attackers & kings, attackers
    found = 0
    if down:
        found |= (down << 4) & (empty >> 4)
        found |= (down << 5) & (empty >> 5)
    if up:
        found |= (up >> 5) & (empty << 5)
        found |= (up >> 4) & (empty << 4)
    return found & VALID


def trapped_king_count(own_kings: Bitboard, enemy: Bitboard, kings: Bitboard, empty: Bitboard, player: int) -> int:
    """Kings of ``player`` that cannot capture and whose every step lands on a square the
    enemy (``enemy``, of the other player) could jump at once: nowhere safe to go.

    All the kings at once, in bit operations: a step's landing square is attacked when an
    enemy piece could jump it with the kings' own squares counted as empty (the square a
    king leaves is empty after its step; another king's square is not, a rare error that
    saves a loop)."""
    open_squares = empty | own_kings
    if player == BLACK:  # White attacks: its men jump up, its kings both ways
        up, down = enemy, enemy & kings
    else:
        up, down = enemy & kings, enemy
    attacked = ((up >> 5) & (open_squares << 5)) | ((up >> 4) & (open_squares << 4))
    if down:
        attacked |= ((down << 4) & (open_squares >> 4)) | ((down << 5) & (open_squares >> 5))
    safe = empty & ~attacked
    free = ((safe >> 4) | (safe >> 5) | (safe << 4) | (safe << 5)) & own_kings
    capturing = own_kings & (
        (enemy >> 4) & (empty >> 8) | (enemy >> 5) & (empty >> 10) | (enemy << 4) & (empty << 8) | (enemy << 5) & (empty << 10)
    )
    return (own_kings & ~free & ~capturing).bit_count()


def feature_values(black: Bitboard, white: Bitboard, kings: Bitboard, player: int = BLACK) -> tuple[float, ...]:
    """The features in ``FEATURE_NAMES`` order, each as Black's value minus White's, with
    ``player`` to move (only ``the_move`` depends on it)."""
    black_men = black & ~kings
    white_men = white & ~kings
    black_kings = black & kings
    white_kings = white & kings
    empty = VALID ^ (black | white)
    runaway = 0
    black_candidates = black_men & RUNAWAY_ZONE[BLACK]
    if black_candidates:
        runaway += (black_candidates & ~_black_cone_blocked(white)).bit_count()
    white_candidates = white_men & RUNAWAY_ZONE[WHITE]
    if white_candidates:
        runaway -= (white_candidates & ~_white_cone_blocked(black)).bit_count()
    black_count = black.bit_count()
    white_count = white.bit_count()
    lead = black_count - white_count
    cornered = 0
    if lead < 0:
        cornered = (black_kings & DOUBLE_CORNERS).bit_count()
    elif lead > 0:
        cornered = -(white_kings & DOUBLE_CORNERS).bit_count()
    total = black_count + white_count
    the_move = 0
    if lead == 0 and total <= MOVE_PIECES and (black_kings.bit_count() == white_kings.bit_count()):
        # Black has the move when the system's count is odd with Black to move, even with White.
        the_move = 1 if ((black | white) & SYSTEM).bit_count() + player & 1 else -1
    trapped = 0
    king_edge = 0
    if kings:
        if black_kings:
            trapped += trapped_king_count(black_kings, white, kings, empty, BLACK)
        if white_kings:
            trapped -= trapped_king_count(white_kings, black, kings, empty, WHITE)
        king_edge = (black_kings & EDGE).bit_count() - (white_kings & EDGE).bit_count()
    dog_hole = 0
    hole, shut = DOG_HOLE[BLACK]
    if black_men & hole and white & shut:
        dog_hole += 1
    hole, shut = DOG_HOLE[WHITE]
    if white_men & hole and black & shut:
        dog_hole -= 1
    return (
        black_men.bit_count() - white_men.bit_count(),
        black_kings.bit_count() - white_kings.bit_count(),
        (black_men & BACK_ROW[BLACK]).bit_count() - (white_men & BACK_ROW[WHITE]).bit_count(),
        (black & CENTRE).bit_count() - (white & CENTRE).bit_count(),
        quiet_move_count(black, kings, empty, BLACK) - quiet_move_count(white, kings, empty, WHITE),
        runaway,
        _advancement(black_men, BLACK) - _advancement(white_men, WHITE),
        lead * (FULL_SET - total),
        cornered,
        the_move,
        trapped,
        dog_hole,
        king_edge,
        lead * FULL_SET / total if total else 0.0,
    )


WEIGHT_VALUES = itemgetter(*FEATURE_NAMES)
"""``WEIGHT_VALUES(weights)``: the weights in ``FEATURE_NAMES`` order, read in one call."""


def evaluate_for_black(
    black: Bitboard, white: Bitboard, kings: Bitboard, weights: dict[str, float], player: int = BLACK
) -> float:
    """``sum(weight * feature)`` over ``feature_values``, in ``FEATURE_NAMES`` order, from
    Black's point of view, ``player`` to move (``reference_evaluation`` is the definition)."""
    return weighted_evaluation(black, white, kings, player, WEIGHT_VALUES(weights))


def weighted_evaluation(
    black: Bitboard, white: Bitboard, kings: Bitboard, player: int, weight_values: tuple[float, ...]
) -> float:
    """``evaluate_for_black`` with the weights as ``WEIGHT_VALUES`` gives them.

    The features of ``feature_values`` computed inline (this runs at every leaf: the call,
    the tuple and fourteen dictionary reads cost about a third of the time), and a feature
    whose weight is 0 not computed at all; its term is left out of the sum, which changes
    nothing (adding a zero). The tests check the value against ``reference_evaluation``, and
    ``games/checkers/_fast.c`` computes the same double in the same order."""
    (w_men, w_kings, w_back_rank, w_centre, w_mobility, w_runaway, w_advancement, w_trade, w_corner, w_the_move,
     w_trapped, w_dog_hole, w_king_edge, w_simplify) = weight_values
    not_kings = ~kings
    black_men = black & not_kings
    white_men = white & not_kings
    black_kings = black & kings
    white_kings = white & kings
    occupied = black | white
    empty = VALID ^ occupied
    black_count = black.bit_count()
    white_count = white.bit_count()
    black_king_count = black_kings.bit_count()
    white_king_count = white_kings.bit_count()
    lead = black_count - white_count
    total = black_count + white_count

    # mobility: quiet_move_count for each side
    mobility = ((black << 4) & empty).bit_count() + ((black << 5) & empty).bit_count()
    mobility -= ((white >> 4) & empty).bit_count() + ((white >> 5) & empty).bit_count()
    if black_kings:
        mobility += ((black_kings >> 4) & empty).bit_count() + ((black_kings >> 5) & empty).bit_count()
    if white_kings:
        mobility -= ((white_kings << 4) & empty).bit_count() + ((white_kings << 5) & empty).bit_count()

    runaway = 0
    black_candidates = black_men & BLACK_RUNAWAY_ZONE
    if black_candidates:
        runaway += (black_candidates & ~_black_cone_blocked(white)).bit_count()
    white_candidates = white_men & WHITE_RUNAWAY_ZONE
    if white_candidates:
        runaway -= (white_candidates & ~_white_cone_blocked(black)).bit_count()

    black_first, black_second, black_third, black_fourth = BLACK_ADVANCEMENT
    white_first, white_second, white_third, white_fourth = WHITE_ADVANCEMENT
    advancement = (
        black_first[black_men & _CHUNK_MASK]
        + black_second[(black_men >> _CHUNK_BITS) & _CHUNK_MASK]
        + black_third[(black_men >> _TWO_CHUNKS) & _CHUNK_MASK]
        + black_fourth[(black_men >> _THREE_CHUNKS) & _CHUNK_MASK]
    ) - (
        white_first[white_men & _CHUNK_MASK]
        + white_second[(white_men >> _CHUNK_BITS) & _CHUNK_MASK]
        + white_third[(white_men >> _TWO_CHUNKS) & _CHUNK_MASK]
        + white_fourth[(white_men >> _THREE_CHUNKS) & _CHUNK_MASK]
    )

    value = (
        w_men * ((black_count - black_king_count) - (white_count - white_king_count))
        + w_kings * (black_king_count - white_king_count)
        + w_back_rank * ((black_men & BLACK_BACK_ROW).bit_count() - (white_men & WHITE_BACK_ROW).bit_count())
        + w_centre * ((black & CENTRE).bit_count() - (white & CENTRE).bit_count())
        + w_mobility * mobility
        + w_runaway * runaway
        + w_advancement * advancement
    )
    if w_trade:
        value += w_trade * (lead * (FULL_SET - total))
    if w_corner and lead:
        if lead < 0:
            value += w_corner * (black_kings & DOUBLE_CORNERS).bit_count()
        else:
            value += w_corner * -(white_kings & DOUBLE_CORNERS).bit_count()
    if w_the_move and lead == 0 and total <= MOVE_PIECES and black_king_count == white_king_count:
        value += w_the_move * (1 if (occupied & SYSTEM).bit_count() + player & 1 else -1)
    if w_trapped and kings:
        trapped = 0
        if black_kings:
            trapped += trapped_king_count(black_kings, white, kings, empty, BLACK)
        if white_kings:
            trapped -= trapped_king_count(white_kings, black, kings, empty, WHITE)
        value += w_trapped * trapped
    if w_dog_hole:
        dog_hole = 0
        if black_men & BLACK_DOG_HOLE and white & BLACK_DOG_HOLE_SHUT:
            dog_hole += 1
        if white_men & WHITE_DOG_HOLE and black & WHITE_DOG_HOLE_SHUT:
            dog_hole -= 1
        value += w_dog_hole * dog_hole
    if w_king_edge and kings:
        value += w_king_edge * ((black_kings & EDGE).bit_count() - (white_kings & EDGE).bit_count())
    if w_simplify and total:
        value += w_simplify * (lead * FULL_SET / total)
    return value


BLACK_RUNAWAY_ZONE, WHITE_RUNAWAY_ZONE = RUNAWAY_ZONE
BLACK_BACK_ROW, WHITE_BACK_ROW = BACK_ROW
BLACK_ADVANCEMENT, WHITE_ADVANCEMENT = ADVANCEMENT_TABLES
(BLACK_DOG_HOLE, BLACK_DOG_HOLE_SHUT), (WHITE_DOG_HOLE, WHITE_DOG_HOLE_SHUT) = DOG_HOLE
_TWO_CHUNKS = 2 * _CHUNK_BITS
_THREE_CHUNKS = 3 * _CHUNK_BITS


def reference_evaluation(
    black: Bitboard, white: Bitboard, kings: Bitboard, weights: dict[str, float], player: int = BLACK
) -> float:
    """The definition ``evaluate_for_black`` computes faster: every feature of
    ``feature_values`` times its weight, summed in ``FEATURE_NAMES`` order."""
    total = 0.0
    for name, value in zip(FEATURE_NAMES, feature_values(black, white, kings, player)):
        total += weights[name] * value
    return total


def native_masks() -> dict[str, int | tuple[int, ...]]:
    """The masks and numbers ``games/checkers/_fast.c``'s ``load`` takes, by name (a pair is
    indexed by player): the evaluation's geometry is defined here only, and C refuses a
    missing or unknown name."""
    return {
        "VALID": VALID,
        "CENTRE": CENTRE,
        "DOUBLE_CORNERS": DOUBLE_CORNERS,
        "SYSTEM": SYSTEM,
        "EDGE": EDGE,
        "ROW_MASKS": tuple(ROW_MASKS),
        "DOG_HOLE": (BLACK_DOG_HOLE, WHITE_DOG_HOLE),
        "DOG_HOLE_SHUT": (BLACK_DOG_HOLE_SHUT, WHITE_DOG_HOLE_SHUT),
        "RUNAWAY_ZONE": (BLACK_RUNAWAY_ZONE, WHITE_RUNAWAY_ZONE),
        "BACK_ROW": (BLACK_BACK_ROW, WHITE_BACK_ROW),
        "CROWN_ROW": tuple(CROWN_ROW),
        "MOVE_PIECES": MOVE_PIECES,
        "FULL_SET": FULL_SET,
        "RUNAWAY_ROWS": RUNAWAY_ROWS,
    }
