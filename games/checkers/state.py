"""English draughts (American checkers) as a ``GameState``: rules, text, hashing and EVAL.

Rules: 8x8 board, squares 1-32 (PDN); Black (player 0) has men on 1-12 and moves first,
White (player 1) on 21-32. Men step and jump diagonally forward only; kings one square in
all four directions. Capturing is mandatory, with free choice among captures (no majority
rule); a multi-jump is one move and goes on while a jump is available, except that a man
reaching the crown row is crowned and ends the move there. A side with no legal move
(blocked or without pieces) loses. Draws: threefold repetition (same pieces and side to
move), and the 40-move rule, here 80 plies in a row with no capture and no man move. If the
80th such ply leaves the opponent without a move, the blocked side loses (the win comes
first, as a checkmate does in chess).

Moves are ``CheckersMove`` tuples: the path of PDN squares (origin, then every landing) and
the captured squares in jump order. Two different capture paths are always different moves,
even in the rare king tours that capture the same pieces and end on the same square (a
loop taken clockwise or anticlockwise): their names differ (``15x24x31x22x15`` against
``15x22x31x24x15``), the perft literature counts them separately, and keeping them apart
keeps ``parse_move(move_name(m)) == m``. The short form ``15x15`` is then reported as
ambiguous.

The 40-move-rule counter (``no_progress_plies``) is part of the state but not of PDN FEN,
so ``to_text`` does not carry it and ``from_text`` starts it at zero; ``key()`` does not
cover it either, as in chess engines, but it does mark a position that has occurred before
(one more occurrence draws it, so the search must not mix it with its first occurrence).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Final, NamedTuple

from games.annotations import CHECKERS_SCALE, Reviewed, ReviewScale
from games.base import GameState, IllegalMoveError, NodePoll, Player
from games.capabilities import CaptureScores, CheckAware, ExactSolver
from games.checkers.bitboards import (
    BLACK,
    CROWN_ROW,
    DIRECTIONS,
    DOWN_LEFT,
    DOWN_RIGHT,
    JUMP,
    MAN_DIRECTIONS,
    MASK_OF_SQUARE,
    ROW_COUNT,
    SQUARE_OF_BIT,
    SQUARES,
    STEP,
    UP_LEFT,
    UP_RIGHT,
    VALID,
    WHITE,
    Bitboard,
    Square,
    perft,
    raw_captures,
    square_at,
    square_bit,
    squares_of,
)
from games.checkers import native as compiled
from games.checkers.endgame import DATABASE, DATABASE_PIECES, DATABASE_WIN, database_value
from games.checkers.evaluation import (
    DEFAULT_WEIGHTS,
    FEATURE_NAMES,
    WEIGHT_VALUES,
    WEIGHTS_FILE,
    feature_values,
    native_masks,
    weighted_evaluation,
)
from games.checkers.notation import (
    CROWN_SQUARES,
    SIDE_NAMES,
    ParsedPosition,
    format_fen,
    format_move,
    parse_fen,
    parse_move_squares,
)
from games.native import load_hot_paths
from games.weights import named_numbers
from games.zobrist import zobrist_keys

NO_PROGRESS_LIMIT = 80
"""The 40-move rule: 40 moves by each side (80 plies) without a capture or a man move."""
REPETITION_LIMIT = 3
"""Threefold repetition."""
SHORTEST_REPETITION_PLIES = 8
"""A third occurrence needs at least two back-and-forth cycles of four plies."""
SHORTEST_REPEAT_PLIES = 4
"""A second occurrence needs at least one cycle of four plies."""
NAMES_IN_MESSAGES = 3
"""How many example moves an error message lists."""
MOVES_LEFT_PER_PIECE = 1.5
MOVES_LEFT_AT_END = 10.0
"""The model of moves a side still makes (``expected_moves_left``): this many per piece on
the board, plus this many for the ending."""


class CheckersMove(NamedTuple):
    """A move: ``path`` = origin and every landing square; ``captured`` = jumped squares in
    order (empty for a step). Hashable and picklable, like every Plyground move."""

    path: tuple[Square, ...]
    captured: tuple[Square, ...] = ()

    @property
    def origin(self) -> Square:
        return self.path[0]

    @property
    def destination(self) -> Square:
        return self.path[-1]

    @property
    def is_capture(self) -> bool:
        return bool(self.captured)


# Zobrist keys: one per (piece kind, square) with kind = 2 * player + is_king, plus one for
# "White to move". Indexed by PDN square (index 0 unused).
_KIND_COUNT = 4
_ZOBRIST = zobrist_keys(_KIND_COUNT * len(SQUARES) + 2, seed=0xC0EC4E25)
PIECE_KEYS: tuple[tuple[int, ...], ...] = tuple(
    (0,) + tuple(_ZOBRIST[kind * len(SQUARES) : (kind + 1) * len(SQUARES)]) for kind in range(_KIND_COUNT)
)
WHITE_TO_MOVE_KEY = _ZOBRIST[-2]
REPEATED_KEY = _ZOBRIST[-1]
"""Marks the key of a position that already occurred (``CheckersState.key``)."""
MAN_KIND = (0, 2)
KING_KIND = (1, 3)
MAN_KEYS = (PIECE_KEYS[MAN_KIND[BLACK]], PIECE_KEYS[MAN_KIND[WHITE]])
KING_KEYS = (PIECE_KEYS[KING_KIND[BLACK]], PIECE_KEYS[KING_KIND[WHITE]])
"""Indexed by player, then PDN square."""


def _quiet_move_table() -> dict[int, dict[Bitboard, CheckersMove]]:
    """Every possible step, built once: ``table[direction][destination mask]``."""
    table: dict[int, dict[Bitboard, CheckersMove]] = {direction: {} for direction in DIRECTIONS}
    for square in SQUARES:
        bit = square_bit(square)
        for direction in DIRECTIONS:
            target = STEP[direction][bit]
            if target:
                table[direction][target] = CheckersMove((square, SQUARE_OF_BIT[target.bit_length() - 1]))
    return table


QUIET_MOVES = _quiet_move_table()

STEP_DIRECTION: dict[tuple[Square, Square], int] = {
    (square, SQUARE_OF_BIT[STEP[direction][square_bit(square)].bit_length() - 1]): direction
    for square in SQUARES
    for direction in DIRECTIONS
    if STEP[direction][square_bit(square)]
}
"""``(from, to)`` of every diagonal step -> its direction."""

JUMP_OVER: dict[tuple[Square, Square], tuple[int, Square]] = {
    (square, SQUARE_OF_BIT[JUMP[direction][square_bit(square)].bit_length() - 1]): (
        direction,
        SQUARE_OF_BIT[STEP[direction][square_bit(square)].bit_length() - 1],
    )
    for square in SQUARES
    for direction in DIRECTIONS
    if JUMP[direction][square_bit(square)]
}
"""``(from, to)`` of every jump -> (direction, jumped square)."""

DOWN_LEFT_MOVES = QUIET_MOVES[DOWN_LEFT]
DOWN_RIGHT_MOVES = QUIET_MOVES[DOWN_RIGHT]
UP_LEFT_MOVES = QUIET_MOVES[UP_LEFT]
UP_RIGHT_MOVES = QUIET_MOVES[UP_RIGHT]

Hop = tuple[Bitboard, Bitboard, int, Square, Square]
"""One jump from a bit: (jumped square's mask, landing mask, landing bit, jumped square,
landing square)."""


def _hop_table(directions: tuple[int, ...]) -> tuple[tuple[Hop, ...], ...]:
    """``table[bit]``: the jumps from ``bit`` in ``directions``, in that order, that stay on
    the board (``bitboards.jump_sequences`` tries the same ones in the same order)."""
    table = []
    for bit in range(len(SQUARE_OF_BIT)):
        hops = []
        for direction in directions:
            landing = JUMP[direction][bit]
            if landing:
                middle = STEP[direction][bit]
                landing_bit = bit + 2 * direction
                hops.append((middle, landing, landing_bit, SQUARE_OF_BIT[bit + direction], SQUARE_OF_BIT[landing_bit]))
        table.append(tuple(hops))
    return tuple(table)


KING_HOPS = _hop_table(DIRECTIONS)
BLACK_MAN_HOPS = _hop_table(MAN_DIRECTIONS[BLACK])
WHITE_MAN_HOPS = _hop_table(MAN_DIRECTIONS[WHITE])
NO_CAPTURES: tuple[CheckersMove, ...] = ()
_new_tuple = tuple.__new__


def _add_jumps(
    bit: int,
    opponent: Bitboard,
    empty: Bitboard,
    hops: tuple[tuple[Hop, ...], ...],
    crown_row: Bitboard,
    path: tuple[Square, ...],
    captured: tuple[Square, ...],
    moves: list[CheckersMove],
) -> bool:
    """Append to ``moves`` every complete capture continuing from ``bit`` after ``path``
    (jumping ``captured`` so far); whether any jump was available. The rules and the order
    of ``bitboards.jump_sequences``: ``empty`` counts the moving piece's origin as empty, a
    man reaching ``crown_row`` stops there, a jumped piece is gone at once."""
    found = False
    here = 1 << bit
    for middle, landing, landing_bit, jumped, landing_square in hops[bit]:
        if middle & opponent and landing & empty:
            found = True
            longer_path = path + (landing_square,)
            longer_captured = captured + (jumped,)
            if landing & crown_row or not _add_jumps(
                landing_bit, opponent ^ middle, (empty ^ landing) | here, hops, crown_row, longer_path, longer_captured, moves
            ):
                moves.append(_new_tuple(CheckersMove, (longer_path, longer_captured)))
    return found


def python_quiet_moves(mover: Bitboard, kings: Bitboard, empty: Bitboard, player: Player) -> list[CheckersMove]:
    """The steps of ``mover`` (``player``'s pieces) into ``empty``: direction by direction in
    ``bitboards.quiet_targets``'s order, destinations ascending (the search's move ordering
    breaks ties by this order)."""
    mover_kings = mover & kings
    if player == BLACK:
        targets = (
            (DOWN_LEFT_MOVES, (mover << 4) & empty),
            (DOWN_RIGHT_MOVES, (mover << 5) & empty),
            (UP_LEFT_MOVES, (mover_kings >> 5) & empty),
            (UP_RIGHT_MOVES, (mover_kings >> 4) & empty),
        )
    else:
        targets = (
            (UP_LEFT_MOVES, (mover >> 5) & empty),
            (UP_RIGHT_MOVES, (mover >> 4) & empty),
            (DOWN_LEFT_MOVES, (mover_kings << 4) & empty),
            (DOWN_RIGHT_MOVES, (mover_kings << 5) & empty),
        )
    moves: list[CheckersMove] = []
    append = moves.append
    for table, destinations in targets:
        while destinations:
            destination = destinations & -destinations
            destinations ^= destination
            append(table[destination])
    return moves


def python_captures(mover: Bitboard, opponent: Bitboard, kings: Bitboard, player: Player) -> tuple[CheckersMove, ...]:
    """Every capture of ``mover`` (``player``'s pieces): the moves of ``bitboards.raw_captures``
    in its order (origins by ascending bit, each depth first), ``()`` when there is none."""
    empty = VALID ^ (mover | opponent)
    if player == BLACK:
        down_movers, up_movers = mover, mover & kings
        man_hops = BLACK_MAN_HOPS
    else:
        down_movers, up_movers = mover & kings, mover
        man_hops = WHITE_MAN_HOPS
    starts = 0
    if down_movers:
        starts = down_movers & ((opponent >> 4) & (empty >> 8) | (opponent >> 5) & (empty >> 10))
    if up_movers:
        starts |= up_movers & ((opponent << 4) & (empty << 8) | (opponent << 5) & (empty << 10))
    if not starts:
        return NO_CAPTURES
    crown_row = CROWN_ROW[player]
    moves: list[CheckersMove] = []
    while starts:
        low = starts & -starts
        starts ^= low
        bit = low.bit_length() - 1
        origin = (SQUARE_OF_BIT[bit],)
        if low & kings:
            _add_jumps(bit, opponent, empty | low, KING_HOPS, 0, origin, (), moves)
        else:
            _add_jumps(bit, opponent, empty | low, man_hops, crown_row, origin, (), moves)
    return tuple(moves)


# ---------------------------------------------------------------- native hot paths
native: Any
"""``games.checkers._fast`` (``games/checkers/_fast.c``) when it loads: ``python_captures``,
``python_quiet_moves`` and ``evaluation.weighted_evaluation`` in C, the same moves in the
same order and the same float. setup.py builds it as an optional extension: without a C
compiler, or with ``PLYGROUND_PYTHON_HOTPATHS=1``, the Python functions run (same values,
slower)."""
native, HOTPATH_BACKEND = load_hot_paths("games.checkers._fast")
if native is not None:
    native.load(
        CheckersMove,
        SQUARE_OF_BIT,
        tuple(
            tuple(QUIET_MOVES[direction].get(1 << bit) for bit in range(len(SQUARE_OF_BIT)))
            for direction in (DOWN_LEFT, DOWN_RIGHT, UP_LEFT, UP_RIGHT)
        ),
        (DOWN_LEFT, DOWN_RIGHT, UP_LEFT, UP_RIGHT),
        native_masks(),
        FEATURE_NAMES,
    )

captures_of = python_captures if native is None else native.captures
quiet_moves_of = python_quiet_moves if native is None else native.quiet_moves
evaluation_of = weighted_evaluation if native is None else native.evaluate
"""``(black, white, kings, player, WEIGHT_VALUES(weights))`` -> EVAL for Black."""


# Move codes (``encode_move``): origin - 1 (5 bits), capture flag, hop count (4 bits), then the
# direction of each hop (2 bits, an index into DIRECTIONS). A man captures at most 12 pieces.
_ORIGIN_BITS = 5
_HOP_COUNT_SHIFT = _ORIGIN_BITS + 1
_HOPS_SHIFT = _HOP_COUNT_SHIFT + 4
_DIRECTION_INDEX = {direction: index for index, direction in enumerate(DIRECTIONS)}
HOP_CODE: dict[tuple[Square, Square], int] = {
    hop: _DIRECTION_INDEX[direction] for hop, direction in STEP_DIRECTION.items()
} | {hop: _DIRECTION_INDEX[direction] for hop, (direction, _) in JUMP_OVER.items()}
"""``(from, to)`` of every step or jump -> the index of its direction."""
STEP_TARGET: dict[tuple[Square, int], Square] = {
    (source, _DIRECTION_INDEX[direction]): target for (source, target), direction in STEP_DIRECTION.items()
}
JUMP_TARGET: dict[tuple[Square, int], tuple[Square, Square]] = {
    (source, _DIRECTION_INDEX[direction]): (target, jumped)
    for (source, target), (direction, jumped) in JUMP_OVER.items()
}
"""``(from, direction index)`` -> (landing square, jumped square)."""

_History = tuple[Bitboard, Bitboard, Bitboard, int, int]
"""What ``undo`` restores: black, white, kings, key, no_progress_plies."""


def _names(moves: list[CheckersMove]) -> str:
    """``14x23``, ``14x23 or 15x24``, ``14x23, 15x24 or 15x22 ...`` for messages."""
    names = [format_move(move.path, move.is_capture) for move in moves[:NAMES_IN_MESSAGES]]
    if len(moves) > NAMES_IN_MESSAGES:
        return ", ".join(names) + " ..."
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " or " + names[-1]


class CheckersState(GameState, CheckAware, CaptureScores, ExactSolver, Reviewed):
    """A position of English draughts with its history (for ``undo`` and repetitions).

    ``black``, ``white`` and ``kings`` are bitboards in the ghost layout of
    ``games.checkers.bitboards``; use ``piece_at``/``pieces`` for PDN squares. The
    constructor trusts its boards (it is the fast path for code that already has them);
    ``from_text`` is the validating way in.
    """

    NAME: ClassVar[str] = "checkers"
    REVIEW_SCALE: ClassVar[ReviewScale] = CHECKERS_SCALE
    """How a review measures this game's moves (``games.annotations``)."""
    PLAYER_NAMES: ClassVar[tuple[str, str]] = ("Black", "White")
    UTILITY_KIND = "win_loss"
    SCORE_UNIT: ClassVar[str] = "men"
    SCORE_UNIT_SIZE: ClassVar[float] = 100.0
    """The evaluation counts a man as 100 (see ``games.checkers.evaluation``)."""
    weights: ClassVar[dict[str, float]] = DEFAULT_WEIGHTS
    """The EVAL weights in use (``set_weights``); every evaluation reads them at call time."""
    WEIGHTS_FILE: ClassVar[str | None] = WEIGHTS_FILE
    SELECTIVE_SEARCH: ClassVar[frozenset[str]] = frozenset({"late_move_reductions", "futility_pruning"})
    """Late move reductions and futility pruning (reverse futility, futility, late move
    pruning), which pay by measurement (bench/STRENGTH.md, "Checkers: selective search"). A
    capture to make is the "check" (``is_in_check``) they never reduce or prune. Not check
    extensions: they would extend every forced capture (13x the nodes to depth 11 with LMR,
    same section). No null move (zugzwang is everywhere in checkers), no SEE, no quiet checks."""

    @classmethod
    def set_weights(cls, weights: Mapping[str, Any] | None) -> None:
        """EVAL reads ``weights`` (every feature of ``FEATURE_NAMES``, a number each) from
        now on; ``None``: the packaged ones. ``WeightsError`` names what is missing or extra."""
        cls.weights = dict(DEFAULT_WEIGHTS) if weights is None else named_numbers(weights, FEATURE_NAMES, cls.NAME)

    __slots__ = ("black", "white", "kings", "player", "no_progress_plies", "_key", "_history", "_keys", "_captures")

    def __init__(
        self,
        black: Bitboard = 0,
        white: Bitboard = 0,
        kings: Bitboard = 0,
        player: Player = BLACK,
        no_progress_plies: int = 0,
    ) -> None:
        self.black = black
        self.white = white
        self.kings = kings
        self.player = player
        self.no_progress_plies = no_progress_plies
        self._key = self._full_key()
        self._history: list[_History] = []
        self._keys: list[int] = [self._key]
        self._captures: tuple[CheckersMove, ...] | None = None
        """The side to move's captures once generated (``_find_captures``), until the
        position changes."""

    def _full_key(self) -> int:
        """The Zobrist key computed from scratch (``play`` updates it incrementally)."""
        key = WHITE_TO_MOVE_KEY if self.player == WHITE else 0
        for side, pieces in ((BLACK, self.black), (WHITE, self.white)):
            for square in squares_of(pieces):
                is_king = bool(self.kings & MASK_OF_SQUARE[square])
                key ^= PIECE_KEYS[2 * side + is_king][square]
        return key

    # --------------------------------------------------------------- players
    @classmethod
    def initial(cls) -> CheckersState:
        return cls.from_text("B:W21-32:B1-12")

    def to_move(self) -> Player:
        return self.player

    def _sides(self) -> tuple[Bitboard, Bitboard]:
        """(pieces of the side to move, pieces of the other side)."""
        if self.player == BLACK:
            return self.black, self.white
        return self.white, self.black

    # --------------------------------------------------------------- actions
    def legal_moves(self) -> list[CheckersMove]:
        """The captures if any is available (capturing is mandatory), else every step;
        empty once the game is drawn by rule or the side to move is blocked."""
        if self.no_progress_plies >= SHORTEST_REPETITION_PLIES and self._is_draw_by_rule():
            return []
        return self.perft_moves()

    def perft_moves(self) -> list[CheckersMove]:
        """The moves by the rules of movement alone, as perft counts them (draws ignored).

        Order (the search's move ordering breaks ties by it): the captures as
        ``bitboards.raw_captures`` lists them, else the steps direction by direction in
        ``bitboards.quiet_targets``'s order, destinations ascending."""
        captures = self._captures
        if captures is None:
            captures = self._find_captures()
        if captures:
            return list(captures)
        if self.player == BLACK:
            mover = self.black
            empty = VALID ^ (mover | self.white)
        else:
            mover = self.white
            empty = VALID ^ (mover | self.black)
        return quiet_moves_of(mover, self.kings, empty, self.player)

    def _find_captures(self) -> tuple[CheckersMove, ...]:
        """Every capture of the side to move (``captures_of``), kept in ``_captures`` until the
        next ``play``/``undo``: a quiescence node asks for them twice (``noisy_moves``, then
        ``legal_moves`` to see that they are all its moves)."""
        if self.player == BLACK:
            captures = captures_of(self.black, self.white, self.kings, BLACK)
        else:
            captures = captures_of(self.white, self.black, self.kings, WHITE)
        self._captures = captures
        return captures

    def _capture_moves(self, mover: Bitboard, opponent: Bitboard) -> list[CheckersMove]:
        """The reference form of capture generation, from ``bitboards.raw_captures`` (the
        tests check ``_find_captures`` against it, move for move and in order)."""
        empty = VALID ^ (mover | opponent)
        moves: list[CheckersMove] = []
        for origin_bit, (landings, _captured) in raw_captures(mover, opponent, self.kings, empty, self.player):
            path = (SQUARE_OF_BIT[origin_bit],) + tuple(SQUARE_OF_BIT[bit] for bit in landings)
            bits = (origin_bit,) + landings
            jumped = tuple(SQUARE_OF_BIT[(bits[index] + bits[index + 1]) >> 1] for index in range(len(landings)))
            moves.append(CheckersMove(path, jumped))
        return moves

    def is_in_check(self) -> bool:
        """The side to move must capture: its reply is forced, like chess's check. Late
        move reductions and futility pruning spare such a node and the move that made it,
        so a sacrifice (a move that offers a capture) is always searched to full depth."""
        captures = self._captures
        if captures is None:
            captures = self._find_captures()
        return bool(captures)

    def noisy_moves(self) -> list[CheckersMove]:
        """The pending captures (quiescence search must resolve them); empty otherwise."""
        if self.no_progress_plies >= SHORTEST_REPETITION_PLIES and self._is_draw_by_rule():
            return []
        captures = self._captures
        if captures is None:
            captures = self._find_captures()
        return list(captures)

    # ------------------------------------------------------------ transition
    def play(self, move: CheckersMove) -> None:
        # Boards change by ``origin ^ destination`` (not ``|``): a king's capture tour may
        # end on the square it started from, and then nothing moves.
        path, captured_squares = move
        player = self.player
        kings = self.kings
        key = self._key
        self._history.append((self.black, self.white, kings, key, self.no_progress_plies))
        origin_square = path[0]
        destination_square = path[-1]
        origin = MASK_OF_SQUARE[origin_square]
        destination = MASK_OF_SQUARE[destination_square]
        key ^= WHITE_TO_MOVE_KEY
        if kings & origin:
            king_keys = KING_KEYS[player]
            key ^= king_keys[origin_square] ^ king_keys[destination_square]
            kings ^= origin ^ destination
            self.no_progress_plies += 1
        else:
            if destination & CROWN_ROW[player]:
                kings |= destination
                key ^= MAN_KEYS[player][origin_square] ^ KING_KEYS[player][destination_square]
            else:
                man_keys = MAN_KEYS[player]
                key ^= man_keys[origin_square] ^ man_keys[destination_square]
            self.no_progress_plies = 0
        captured = 0
        if captured_squares:
            self.no_progress_plies = 0
            opponent = 1 - player
            man_keys = MAN_KEYS[opponent]
            king_keys = KING_KEYS[opponent]
            for square in captured_squares:
                mask = MASK_OF_SQUARE[square]
                captured |= mask
                if kings & mask:
                    key ^= king_keys[square]
                else:
                    key ^= man_keys[square]
            kings &= ~captured
        if player == BLACK:
            self.black ^= origin ^ destination
            self.white ^= captured
        else:
            self.white ^= origin ^ destination
            self.black ^= captured
        self.kings = kings
        self._key = key
        self.player = 1 - player
        self._keys.append(key)
        self._captures = None

    def undo(self) -> None:
        self.black, self.white, self.kings, self._key, self.no_progress_plies = self._history.pop()
        self._keys.pop()
        self.player = 1 - self.player
        self._captures = None

    def copy(self) -> CheckersState:
        clone = CheckersState.__new__(CheckersState)
        clone.black = self.black
        clone.white = self.white
        clone.kings = self.kings
        clone.player = self.player
        clone.no_progress_plies = self.no_progress_plies
        clone._key = self._key
        clone._history = list(self._history)
        clone._keys = list(self._keys)
        clone._captures = self._captures
        return clone

    # ------------------------------------------------------------------- end
    def _is_repetition(self) -> bool:
        """The current position (same side to move) occurred twice before since the last
        capture or man move; only those positions can repeat."""
        return self.no_progress_plies >= SHORTEST_REPETITION_PLIES and self._occurrences() >= REPETITION_LIMIT

    def _occurrences(self) -> int:
        """How often the current position (same side to move) has occurred since the last
        capture or man move, this time included."""
        keys = self._keys
        last = len(keys) - 1
        start = max(last - 2 * (self.no_progress_plies // 2), last % 2)
        return keys[start::2].count(self._key)

    def _is_draw_by_rule(self) -> bool:
        return self.no_progress_plies >= NO_PROGRESS_LIMIT or self._is_repetition()

    def _can_move(self) -> bool:
        """``bitboards.has_any_move`` for the side to move, spelled out (it runs at every
        node): a step first, then a capture."""
        kings = self.kings
        if self.player == BLACK:
            mover, opponent = self.black, self.white
            empty = VALID ^ (mover | opponent)
            if (mover << 4) & empty or (mover << 5) & empty:
                return True
            mover_kings = mover & kings
            if mover_kings and ((mover_kings >> 4) & empty or (mover_kings >> 5) & empty):
                return True
            down_movers, up_movers = mover, mover_kings
        else:
            mover, opponent = self.white, self.black
            empty = VALID ^ (mover | opponent)
            if (mover >> 4) & empty or (mover >> 5) & empty:
                return True
            mover_kings = mover & kings
            if mover_kings and ((mover_kings << 4) & empty or (mover_kings << 5) & empty):
                return True
            down_movers, up_movers = mover_kings, mover
        if down_movers and down_movers & ((opponent >> 4) & (empty >> 8) | (opponent >> 5) & (empty >> 10)):
            return True
        return bool(up_movers and up_movers & ((opponent << 4) & (empty << 8) | (opponent << 5) & (empty << 10)))

    def is_terminal(self) -> bool:
        if not self._can_move():
            return True
        return self.no_progress_plies >= SHORTEST_REPETITION_PLIES and self._is_draw_by_rule()

    def utility(self, player: Player) -> float:
        """+1/-1 when the side to move has no legal move, 0 for a draw by rule (and for a
        position that is not terminal)."""
        if not self._can_move():
            return -1.0 if player == self.player else 1.0
        return 0.0

    def termination_reason(self) -> str:
        if not self._can_move():
            mover, _ = self._sides()
            side = self.PLAYER_NAMES[self.player]
            return f"{side} has no pieces left" if not mover else f"{side} is blocked: no legal move"
        if self.no_progress_plies >= NO_PROGRESS_LIMIT:
            return "40-move rule: 40 moves each without a capture or a man move"
        if self._is_repetition():
            return "threefold repetition"
        return ""

    # --------------------------------------------------------------- hashing
    def key(self) -> int:
        """The Zobrist key of the pieces and the side to move, turned by ``REPEATED_KEY`` when
        this position already occurred since the last capture or man move.

        A repeated position is a different search node: one more repetition draws it, so
        its value is not the value the table holds for its first occurrence (graph history
        interaction). Without the mark, a search reusing the table sees a king endgame's
        repeated position as the win it has stored, and the stronger side repeats moves
        into a threefold draw (the Atkinson problem in tests/data/checkers/problems.json)."""
        if self.no_progress_plies >= SHORTEST_REPEAT_PLIES and self._occurrences() > 1:
            return self._key ^ REPEATED_KEY
        return self._key

    def encode_move(self, move: CheckersMove) -> int:
        """Origin, capture flag, hop count and each hop's direction: at most 34 bits."""
        path = move.path
        code = path[0] - 1 | (len(path) - 1) << _HOP_COUNT_SHIFT
        if move.captured:
            code |= 1 << _ORIGIN_BITS
        shift = _HOPS_SHIFT
        for hop in zip(path, path[1:]):
            code |= HOP_CODE[hop] << shift
            shift += 2
        return code

    def decode_move(self, code: int) -> CheckersMove:
        square = (code & ((1 << _ORIGIN_BITS) - 1)) + 1
        count = code >> _HOP_COUNT_SHIFT & 15
        directions = code >> _HOPS_SHIFT
        path = [square]
        if not code >> _ORIGIN_BITS & 1:
            return CheckersMove((square, STEP_TARGET[square, directions & 3]))
        captured = []
        for _ in range(count):
            square, jumped = JUMP_TARGET[square, directions & 3]
            directions >>= 2
            path.append(square)
            captured.append(jumped)
        return CheckersMove(tuple(path), tuple(captured))

    # ------------------------------------------------------------- knowledge
    NATIVE_SEARCH: ClassVar[str | None] = (
        "C alpha-beta (PVS) with this EVAL and the endgame databases, games/checkers/_search.c"
        if compiled.NATIVE
        else None
    )

    @classmethod
    def native_searcher(cls, table_megabytes: float) -> compiled.CheckersNativeSearcher:
        """The compiled checkers search (``games.checkers.native``): the engine's ``native``
        algorithm, about 25 times the Python search's nodes a second."""
        return compiled.CheckersNativeSearcher(table_megabytes)

    def earlier_positions(self) -> list[tuple[Bitboard, Bitboard, Bitboard, Player]]:
        """The game's positions before this one, oldest first, as (black, white, kings, player
        to move): what a compiled search needs to see repetitions of the game's history."""
        count = len(self._history)
        return [
            (black, white, kings, self.player ^ ((count - index) & 1))
            for index, (black, white, kings, _key, _plies) in enumerate(self._history)
        ]

    HAS_SOLVER: ClassVar[bool] = True
    """The endgame databases (``games.checkers.endgame``) solve every position with at most
    four pieces, and three kings against two pieces."""
    SOLVER_WORDS: ClassVar[tuple[str, str]] = ("Endgame databases at ≤", "pieces")
    SOLVER_REACH: ClassVar[int | None] = DATABASE_PIECES
    SOLVED_WIN: ClassVar[float | None] = DATABASE_WIN
    """A database win is ``DATABASE_WIN`` less its plies to the end: the engine reads it as
    "win in N" (``ai.scores.solved_score``)."""

    def expected_moves_left(self) -> float:
        """A model of the moves still to come, from the pieces left (46 a side from the
        start, about ten in an ending of a few pieces, which the 40-move rule bounds). It
        only shares a clock out: ``ai.timing``'s cap and reserve keep a wrong guess from
        flagging, it can only make moves a little faster or slower."""
        pieces = (self.black | self.white).bit_count()
        return MOVES_LEFT_AT_END + MOVES_LEFT_PER_PIECE * pieces

    def solve(self, player: Player, max_empties: int, poll: NodePoll | None = None) -> float | None:
        """The endgame databases' exact value for ``player`` (``DATABASE_WIN`` less the plies
        to the end for a win, its negation for a loss, 0 for a draw) when the databases hold
        the position (at most four pieces, or three kings against two) and at most
        ``max_empties`` pieces (the engine's exact-solving reach, read here as pieces: 0 turns
        the databases off) are left; ``None`` otherwise.
        A probe is a table look-up, so ``poll`` is not needed."""
        pieces = (self.black | self.white).bit_count()
        if pieces > DATABASE_PIECES or pieces > max_empties:
            return None
        found = DATABASE.result(self.black, self.white, self.kings, self.player)
        if found is None:
            return None
        value = database_value(*found)
        return value if player == self.player else -value

    def evaluation_features(self, player: Player) -> Mapping[str, tuple[float, float]]:
        sign = 1 if player == BLACK else -1
        values = feature_values(self.black, self.white, self.kings, self.player)
        return {name: (self.weights[name], float(sign * value)) for name, value in zip(FEATURE_NAMES, values)}

    def evaluate(self, player: Player) -> float:
        value = evaluation_of(self.black, self.white, self.kings, self.player, WEIGHT_VALUES(self.weights))
        return value if player == BLACK else -value

    def capture_score(self, move: CheckersMove) -> int:
        """Material the move captures (kings count as kings), 0 for a step."""
        if not move.captured:
            return 0
        man_value = self.weights["men"]
        king_value = self.weights["kings"]
        kings = self.kings
        total = 0.0
        for square in move.captured:
            total += king_value if kings & MASK_OF_SQUARE[square] else man_value
        return int(total)

    # ----------------------------------------------------------------- perft
    def perft(self, depth: int) -> int:
        """Leaf count ``depth`` plies deep on bare bitboards (bulk-counted at depth 1).

        Convention of the literature (Aart Bik): draw rules are ignored, and every distinct
        capture path is a separate move."""
        mover, opponent = self._sides()
        return perft(mover, opponent, self.kings, self.player, depth)

    # ------------------------------------------------------------------ text
    @classmethod
    def from_text(cls, text: str) -> CheckersState:
        """A PDN FEN (see ``games.checkers.notation``); the 40-move counter starts at 0."""
        position = parse_fen(text)
        boards = []
        for side in (BLACK, WHITE):
            boards.append(sum(MASK_OF_SQUARE[square] for square in position.men[side] | position.kings[side]))
        kings = sum(MASK_OF_SQUARE[square] for square in position.kings[BLACK] | position.kings[WHITE])
        return cls(boards[BLACK], boards[WHITE], kings, position.player)

    def to_text(self) -> str:
        """Canonical PDN FEN, e.g. ``B:W21,...,32:B1,...,12`` or ``W:WK5,18:B2,K30``."""
        men = (frozenset(squares_of(self.black & ~self.kings)), frozenset(squares_of(self.white & ~self.kings)))
        kings = (frozenset(squares_of(self.black & self.kings)), frozenset(squares_of(self.white & self.kings)))
        return format_fen(ParsedPosition(self.player, men, kings))

    def move_name(self, move: CheckersMove) -> str:
        """``11-15`` for a step, ``22x15x6`` (every landing) for a capture."""
        return format_move(move.path, move.is_capture)

    def parse_move(self, text: str) -> CheckersMove:
        """A move as ``11-15``, ``22x15x6`` or the short ``22x6`` when only one capture path
        goes from 22 to 6. ``x`` claims a capture, so ``11x15`` for a step is refused; a
        capture may be written with ``-`` as the older literature does (``22-15``)."""
        squares = parse_move_squares(text)
        shown = text.strip()
        if self.is_terminal():
            raise IllegalMoveError(f"{shown} is not legal: the game is over ({self.termination_reason()})")
        origin = squares[0]
        mover, opponent = self._sides()
        side = SIDE_NAMES[self.player]
        if not mover & MASK_OF_SQUARE[origin]:
            held = self.piece_at(origin)
            detail = f" (it holds a {SIDE_NAMES[held[0]]} {'king' if held[1] else 'man'})" if held else ""
            raise IllegalMoveError(f"there is no {side} piece on {origin}{detail}")
        moves = self.legal_moves()
        path = tuple(squares)
        for move in moves:
            if move.path == path:
                return _written_as_capture_only_if_one(shown, move)
        if len(squares) == 2:
            matches = [move for move in moves if move.path[0] == origin and move.path[-1] == squares[1]]
            if len(matches) == 1:
                return _written_as_capture_only_if_one(shown, matches[0])
            if matches:
                raise IllegalMoveError(f"{shown} is ambiguous: it could be {_names(matches)}; write the whole path")
        raise IllegalMoveError(f"{shown} is not legal: {self._why_illegal(squares, moves)}")

    def _why_illegal(self, squares: list[Square], moves: list[CheckersMove]) -> str:
        """The first rule the path ``squares`` breaks, for the error message."""
        captures = [move for move in moves if move.is_capture]
        longer = [move for move in captures if move.path[: len(squares)] == tuple(squares)]
        if longer:
            return f"the capture must go on ({_names(longer)})"
        mover, opponent = self._sides()
        origin = squares[0]
        is_king = bool(self.kings & MASK_OF_SQUARE[origin])
        side, other_side = SIDE_NAMES[self.player], SIDE_NAMES[1 - self.player]
        occupied = (mover | opponent) & ~MASK_OF_SQUARE[origin]
        crown = CROWN_SQUARES[self.player]
        for index, (start, end) in enumerate(zip(squares, squares[1:])):
            if (start, end) in STEP_DIRECTION:
                direction = STEP_DIRECTION[(start, end)]
                jumped = None
            elif (start, end) in JUMP_OVER:
                direction, jumped = JUMP_OVER[(start, end)]
            else:
                return f"{end} is neither a diagonal step nor a jump away from {start}"
            if not is_king and direction not in MAN_DIRECTIONS[self.player]:
                return f"a {side} man moves only forward, towards {crown[0]}-{crown[-1]}"
            if occupied & MASK_OF_SQUARE[end]:
                return f"square {end} is occupied"
            if jumped is None:
                if len(squares) > 2:
                    return "only a capture can take more than one step"
                if captures:
                    return f"a capture is mandatory ({_names(captures)})"
                break
            if not opponent & MASK_OF_SQUARE[jumped]:
                return f"there is no {other_side} piece on {jumped} to jump"
            opponent &= ~MASK_OF_SQUARE[jumped]
            if not is_king and end in crown and index < len(squares) - 2:
                return f"a man crowned on {end} ends the move there"
        return "no legal move follows that path"

    # ------------------------------------------------------------- board view
    def piece_at(self, square: Square) -> tuple[Player, bool] | None:
        """``(owner, is_king)`` of the piece on PDN ``square``, or ``None`` if it is empty."""
        if square not in SQUARES:
            raise ValueError(f"square {square} does not exist (squares are 1-32)")
        mask = MASK_OF_SQUARE[square]
        if self.black & mask:
            return BLACK, bool(self.kings & mask)
        if self.white & mask:
            return WHITE, bool(self.kings & mask)
        return None

    def pieces(self) -> dict[Square, tuple[Player, bool]]:
        """Every piece: ``{square: (owner, is_king)}``."""
        found: dict[Square, tuple[Player, bool]] = {}
        for square in SQUARES:
            piece = self.piece_at(square)
            if piece is not None:
                found[square] = piece
        return found

    def __str__(self) -> str:
        """The diagram with Black at the top: ``b``/``w`` men, ``B``/``W`` kings."""
        symbols = {(BLACK, False): "b", (BLACK, True): "B", (WHITE, False): "w", (WHITE, True): "W"}
        rows = []
        for row in range(ROW_COUNT):
            cells = []
            for column in range(ROW_COUNT):
                square = square_at(row, column)
                piece = None if square is None else self.piece_at(square)
                cells.append("." if piece is None else symbols[piece])
            rows.append(" ".join(cells))
        return "\n".join(rows)


def _written_as_capture_only_if_one(shown: str, move: CheckersMove) -> CheckersMove:
    """``move``, unless its text ``shown`` marks a step as a capture with ``x``."""
    if not move.is_capture and "x" in shown.lower():
        name = format_move(move.path, move.is_capture)
        raise IllegalMoveError(f"{shown} is not a capture (nothing is jumped): write {name}")
    return move


__all__ = ["CheckersMove", "CheckersState", "NO_PROGRESS_LIMIT"]
