"""Board geometry and the bitboard move generator of English draughts (pure int arithmetic).

Squares are numbered 1-32 as in PDN: square 1 is at the top-left of the usual diagram
(Black at the top, White at the bottom), squares 1-4 form the top row, and Black's men
start on 1-12 and move down, towards 32. On the 8x8 board, square ``s`` (0-based
``s - 1``) of row ``r`` sits in column ``2p + 1`` on even rows and ``2p`` on odd rows, where
``p`` is its place in the row.

Bit layout: the classic "ghost square" layout (Samuel; Chinook) puts square ``s`` (0-based)
on bit ``s + s // 8``, leaving bits 8, 17 and 26 empty forever. With the ghosts every
diagonal step is one fixed shift, whatever the row: +4 is down-left, +5 down-right,
-5 up-left and -4 up-right, and a step off the side of the board lands on a ghost bit or
beyond bit 34, which the ``VALID`` mask removes. So each direction costs one shift and one
``and`` instead of three masked shifts.

Everything here works on raw ints (``mover``, ``opponent``, ``kings``) so that the state
class, the perft counter and the evaluation share one definition of the rules.
"""

from __future__ import annotations

Square = int
"""A PDN square number, 1..32."""

Bitboard = int
"""A set of squares in the ghost layout (bit ``square_bit(s)`` for square ``s``)."""

Player = int

BLACK: Player = 0
WHITE: Player = 1

SQUARE_COUNT = 32
SQUARES_PER_ROW = 4
ROW_COUNT = 8
SQUARES_PER_GHOST = 8
"""A ghost bit follows every 8 squares (two rows)."""

FIRST_SQUARE = 1
LAST_SQUARE = SQUARE_COUNT


def square_bit(square: Square) -> int:
    """The bit index of PDN ``square`` in the ghost layout."""
    index = square - 1
    return index + index // SQUARES_PER_GHOST


SQUARES: tuple[Square, ...] = tuple(range(FIRST_SQUARE, LAST_SQUARE + 1))
BIT_COUNT = square_bit(LAST_SQUARE) + 1

MASK_OF_SQUARE: tuple[Bitboard, ...] = (0,) + tuple(1 << square_bit(square) for square in SQUARES)
"""``MASK_OF_SQUARE[s]`` is the one-bit board of square ``s`` (index 0 unused)."""

SQUARE_OF_BIT: tuple[Square, ...] = tuple(
    next((square for square in SQUARES if square_bit(square) == bit), 0) for bit in range(BIT_COUNT)
)
"""``SQUARE_OF_BIT[b]`` is the PDN square on bit ``b``, 0 for a ghost bit."""

VALID: Bitboard = sum(MASK_OF_SQUARE)
"""Every real square: shifts that leave the board land outside this mask."""


def square_row(square: Square) -> int:
    """Row 0 (squares 1-4, Black's back rank, top of the diagram) to row 7 (29-32)."""
    return (square - 1) // SQUARES_PER_ROW


def square_column(square: Square) -> int:
    """Column 0 (left of the diagram) to 7; square 1 is in column 1, square 5 in column 0."""
    row, place = divmod(square - 1, SQUARES_PER_ROW)
    return 2 * place + (1 if row % 2 == 0 else 0)


def square_at(row: int, column: int) -> Square | None:
    """The PDN square at ``(row, column)`` of the diagram, ``None`` on a light square or
    off the board."""
    if not (0 <= row < ROW_COUNT and 0 <= column < ROW_COUNT):
        return None
    if (row + column) % 2 == 0:
        return None
    return row * SQUARES_PER_ROW + column // 2 + 1


ROW_MASKS: tuple[Bitboard, ...] = tuple(
    sum(MASK_OF_SQUARE[square] for square in SQUARES if square_row(square) == row)
    for row in range(ROW_COUNT)
)

CROWN_ROW: tuple[Bitboard, Bitboard] = (ROW_MASKS[ROW_COUNT - 1], ROW_MASKS[0])
"""Indexed by player: Black's men are crowned on 29-32, White's on 1-4."""

BACK_ROW: tuple[Bitboard, Bitboard] = (ROW_MASKS[0], ROW_MASKS[ROW_COUNT - 1])
"""Indexed by player: the row each side's men start from (the opponent's crown row)."""

# Directions as signed bit offsets in the ghost layout.
DOWN_LEFT = 4
DOWN_RIGHT = 5
UP_LEFT = -5
UP_RIGHT = -4
DIRECTIONS: tuple[int, ...] = (DOWN_LEFT, DOWN_RIGHT, UP_LEFT, UP_RIGHT)
MAN_DIRECTIONS: tuple[tuple[int, ...], tuple[int, ...]] = ((DOWN_LEFT, DOWN_RIGHT), (UP_LEFT, UP_RIGHT))
"""Indexed by player: men move only forward (Black down, White up)."""
KING_DIRECTIONS: tuple[int, ...] = DIRECTIONS


def _target_mask(bit: int, offset: int) -> Bitboard:
    target = bit + offset
    if 0 <= target < BIT_COUNT and VALID >> target & 1:
        return 1 << target
    return 0


STEP: dict[int, tuple[Bitboard, ...]] = {
    direction: tuple(_target_mask(bit, direction) for bit in range(BIT_COUNT)) for direction in DIRECTIONS
}
"""``STEP[direction][bit]``: the neighbour of ``bit`` that way, 0 off the board."""

JUMP: dict[int, tuple[Bitboard, ...]] = {
    direction: tuple(
        _target_mask(bit, 2 * direction) if STEP[direction][bit] else 0 for bit in range(BIT_COUNT)
    )
    for direction in DIRECTIONS
}
"""``JUMP[direction][bit]``: the landing square of a jump from ``bit`` that way, 0 off the board."""


def popcount(board: Bitboard) -> int:
    """Number of squares in ``board``."""
    return board.bit_count()


def squares_of(board: Bitboard) -> list[Square]:
    """The PDN squares in ``board``, ascending."""
    squares: list[Square] = []
    while board:
        low = board & -board
        squares.append(SQUARE_OF_BIT[low.bit_length() - 1])
        board ^= low
    return squares


# ------------------------------------------------------------------ quiet moves
def quiet_targets(mover: Bitboard, kings: Bitboard, empty: Bitboard, player: Player) -> list[tuple[int, Bitboard]]:
    """``[(direction, destinations)]``: for each direction, the squares a piece of ``mover``
    can step to that way. Each destination has exactly one origin (``dest - direction``)."""
    mover_kings = mover & kings
    if player == BLACK:
        return [
            (DOWN_LEFT, (mover << 4) & empty),
            (DOWN_RIGHT, (mover << 5) & empty),
            (UP_LEFT, (mover_kings >> 5) & empty),
            (UP_RIGHT, (mover_kings >> 4) & empty),
        ]
    return [
        (UP_LEFT, (mover >> 5) & empty),
        (UP_RIGHT, (mover >> 4) & empty),
        (DOWN_LEFT, (mover_kings << 4) & empty),
        (DOWN_RIGHT, (mover_kings << 5) & empty),
    ]


def quiet_move_count(mover: Bitboard, kings: Bitboard, empty: Bitboard, player: Player) -> int:
    """Number of non-capturing moves (one per origin and direction)."""
    mover_kings = mover & kings
    if player == BLACK:
        forward = ((mover << 4) & empty).bit_count() + ((mover << 5) & empty).bit_count()
        if not mover_kings:
            return forward
        return forward + ((mover_kings >> 4) & empty).bit_count() + ((mover_kings >> 5) & empty).bit_count()
    forward = ((mover >> 4) & empty).bit_count() + ((mover >> 5) & empty).bit_count()
    if not mover_kings:
        return forward
    return forward + ((mover_kings << 4) & empty).bit_count() + ((mover_kings << 5) & empty).bit_count()


# --------------------------------------------------------------------- captures
def jumpers(mover: Bitboard, opponent: Bitboard, kings: Bitboard, empty: Bitboard, player: Player) -> Bitboard:
    """The pieces of ``mover`` that can start a capture (an opponent piece next to them,
    an empty square behind it, in a direction they may move)."""
    mover_kings = mover & kings
    if player == BLACK:
        down_movers, up_movers = mover, mover_kings
    else:
        down_movers, up_movers = mover_kings, mover
    found = 0
    if down_movers:
        found |= down_movers & (opponent >> 4) & (empty >> 8)
        found |= down_movers & (opponent >> 5) & (empty >> 10)
    if up_movers:
        found |= up_movers & (opponent << 4) & (empty << 8)
        found |= up_movers & (opponent << 5) & (empty << 10)
    return found


JumpSequence = tuple[tuple[int, ...], Bitboard]
"""``(landing bits in order, captured squares as a board)`` of one complete capture."""


def jump_sequences(
    bit: int, opponent: Bitboard, empty: Bitboard, directions: tuple[int, ...], crown_row: Bitboard
) -> list[JumpSequence]:
    """Every complete capture continuing from ``bit``: a multi-jump goes on while a jump is
    available, except that a man reaching ``crown_row`` stops there (pass 0 for a king).

    ``empty`` must already count the moving piece's origin as empty: a king may pass
    through (or end on) the square it started from. A captured piece is removed at once;
    in English draughts this cannot change which landings are possible (landings and
    jumped squares are on different rows), it only stops a piece being jumped twice.
    Distinct paths stay distinct even when they capture the same pieces (perft convention).
    """
    sequences: list[JumpSequence] = []
    here = 1 << bit
    for direction in directions:
        middle = STEP[direction][bit]
        if not middle & opponent:
            continue
        landing = JUMP[direction][bit]
        if not landing & empty:
            continue
        landing_bit = bit + 2 * direction
        if landing & crown_row:
            sequences.append(((landing_bit,), middle))
            continue
        tails = jump_sequences(landing_bit, opponent ^ middle, (empty ^ landing) | here, directions, crown_row)
        if not tails:
            sequences.append(((landing_bit,), middle))
            continue
        for landings, captured in tails:
            sequences.append(((landing_bit,) + landings, captured | middle))
    return sequences


RawMove = tuple[Bitboard, Bitboard, Bitboard]
"""``(origin, destination, captured)`` one-bit/one-bit/any boards: enough to make a move."""


def raw_captures(
    mover: Bitboard, opponent: Bitboard, kings: Bitboard, empty: Bitboard, player: Player
) -> list[tuple[int, JumpSequence]]:
    """Every capture for ``mover``: ``[(origin bit, (landings, captured))]``; empty when no
    capture is available."""
    starts = jumpers(mover, opponent, kings, empty, player)
    captures: list[tuple[int, JumpSequence]] = []
    while starts:
        low = starts & -starts
        starts ^= low
        bit = low.bit_length() - 1
        if low & kings:
            sequences = jump_sequences(bit, opponent, empty | low, KING_DIRECTIONS, 0)
        else:
            sequences = jump_sequences(bit, opponent, empty | low, MAN_DIRECTIONS[player], CROWN_ROW[player])
        for sequence in sequences:
            captures.append((bit, sequence))
    return captures


def has_any_move(mover: Bitboard, opponent: Bitboard, kings: Bitboard, player: Player) -> bool:
    """Whether the side owning ``mover`` has a legal move (a side with none loses)."""
    empty = VALID ^ (mover | opponent)
    return quiet_move_count(mover, kings, empty, player) > 0 or jumpers(mover, opponent, kings, empty, player) != 0


# ------------------------------------------------------------------------ perft
def perft(mover: Bitboard, opponent: Bitboard, kings: Bitboard, player: Player, depth: int) -> int:
    """Leaves of the move tree, ``depth`` plies deep, ignoring the draw rules (as the
    literature does). Every capture path is its own move. Bulk counting at depth 1.

    This is a specialised copy of the state's make/unmake on bare ints: perft(8) drops from
    several seconds through ``CheckersState`` to well under one (measured)."""
    if depth <= 0:
        return 1
    empty = VALID ^ (mover | opponent)
    captures = raw_captures(mover, opponent, kings, empty, player)
    other = 1 - player
    total = 0
    if captures:
        if depth == 1:
            return len(captures)
        for bit, (landings, captured) in captures:
            origin = 1 << bit
            destination = 1 << landings[-1]
            new_kings = kings & ~captured
            if kings & origin:
                new_kings ^= origin ^ destination
            elif destination & CROWN_ROW[player]:
                new_kings |= destination
            total += perft(opponent ^ captured, mover ^ origin ^ destination, new_kings, other, depth - 1)
        return total
    if depth == 1:
        return quiet_move_count(mover, kings, empty, player)
    crown_row = CROWN_ROW[player]
    for direction, destinations in quiet_targets(mover, kings, empty, player):
        while destinations:
            destination = destinations & -destinations
            destinations ^= destination
            origin = destination >> direction if direction > 0 else destination << -direction
            if kings & origin:
                new_kings = kings ^ origin ^ destination
            elif destination & crown_row:
                new_kings = kings | destination
            else:
                new_kings = kings
            total += perft(opponent, mover ^ origin ^ destination, new_kings, other, depth - 1)
    return total
