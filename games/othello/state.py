"""``OthelloState``: the game protocol over the bitboards of ``games.othello.bitboard``.

The state keeps the discs as (side to move, other side) so that play is three bit operations
and a swap; the colour view (black, white) is derived on demand. The side to move's move mask
is cached because ``legal_moves``, ``is_terminal`` and ``evaluate`` all need it at one node.

Position text is Edax's OBF board: 64 characters ``a1 b1 .. h1 a2 .. h8`` (``X`` black,
``O`` white, ``-`` empty), a space, and the side to move (``X`` or ``O``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, ClassVar, Final

from games.annotations import OTHELLO_SCALE, Reviewed, ReviewScale
from games.base import BadPositionError, GameState, IllegalMoveError, NodePoll, Player
from games.capabilities import BestMoveSolver
from games.othello.bitboard import (
    FILES,
    FULL,
    SQUARE_COUNT,
    Bitboard,
    Square,
    final_margin,
    flips,
    legal_moves_mask,
    perft_count,
    square_name,
    squares_of,
)
from games.othello import book, evaluation
from games.othello import native as compiled
from games.othello.exact import SOLVER_EMPTIES, SOLVER_NODE_COST, solve_exact
from games.othello.solver import PASS_MOVE
from games.zobrist import zobrist_keys

BLACK: Final[Player] = 0
WHITE: Final[Player] = 1

PASS: Final[int] = PASS_MOVE
"""The explicit pass move (64), legal only when the side to move has no other move."""
PASS_NAME: Final = "pass"

NO_CACHE: Final = -1
"""Marks the cached move mask as not yet computed (a real mask is never negative)."""

BLACK_SYMBOLS: Final = "Xx*"
WHITE_SYMBOLS: Final = "Oo"
EMPTY_SYMBOLS: Final = "-."
SIDE_SYMBOLS: Final = ("X", "O")

# d4 e4 d5 e5: filled at the start, so never empty in a real game.
CENTRE_SQUARES: Final[tuple[Square, ...]] = (27, 28, 35, 36)
INITIAL_BLACK: Final[Bitboard] = (1 << 28) | (1 << 35)  # e4, d5
INITIAL_WHITE: Final[Bitboard] = (1 << 27) | (1 << 36)  # d4, e5

BOOK_MIN_EMPTIES: Final = 40
"""No book lookup with fewer empties than this: the book is a few plies deep, and a search
(which reaches the book anyway only at the root) should not pay for 8 symmetric images."""

MARGIN_LIMIT: Final = float(SQUARE_COUNT)
UNITS_PER_DISC: Final = 100.0
"""Evaluation units per disc of margin: ``evaluate`` is in hundredths of a disc."""
EVAL_LIMIT: Final = MARGIN_LIMIT * UNITS_PER_DISC

# Zobrist keys: [colour][square], plus one for "white to move".
_KEYS = zobrist_keys(2 * SQUARE_COUNT + 1, seed=0x07E110)
DISC_KEYS: Final[tuple[tuple[int, ...], tuple[int, ...]]] = (
    tuple(_KEYS[:SQUARE_COUNT]), tuple(_KEYS[SQUARE_COUNT:2 * SQUARE_COUNT]))
WHITE_TO_MOVE_KEY: Final = _KEYS[2 * SQUARE_COUNT]
FLIP_KEYS: Final[tuple[int, ...]] = tuple(black ^ white for black, white in zip(*DISC_KEYS, strict=True))
"""Turning the disc on a square over changes both colours' keys at once."""


def _board_key(black: Bitboard, white: Bitboard, player: Player) -> int:
    key = WHITE_TO_MOVE_KEY if player == WHITE else 0
    for square in squares_of(black):
        key ^= DISC_KEYS[BLACK][square]
    for square in squares_of(white):
        key ^= DISC_KEYS[WHITE][square]
    return key


SQUARE_PATTERN: Final = re.compile(r"([a-z])([0-9]+)")
MAX_RANK_DIGITS: Final = 2


def parse_square(text: str) -> Square:
    """``a1``..``h8`` (any case) to 0..63; ``IllegalMoveError`` naming the problem."""
    cleaned = text.strip().lower()
    match = SQUARE_PATTERN.fullmatch(cleaned)
    if match is None:
        raise IllegalMoveError(f"{text!r} is not a move: write a square a1..h8 or 'pass'")
    file_letter, rank_digits = match.groups()
    if (file_letter not in FILES or len(rank_digits) > MAX_RANK_DIGITS
            or not 1 <= int(rank_digits) <= len(FILES)):
        raise IllegalMoveError(f"square {cleaned} does not exist: files are a..h, ranks 1..8")
    return (int(rank_digits) - 1) * len(FILES) + FILES.index(file_letter)


class OthelloState(GameState, BestMoveSolver, Reviewed):
    """An Othello position; Black (player 0, ``X``) moves first."""

    NAME: ClassVar[str] = "othello"
    REVIEW_SCALE: ClassVar[ReviewScale] = OTHELLO_SCALE
    """How a review measures this game's moves (``games.annotations``)."""
    PLAYER_NAMES: ClassVar[tuple[str, str]] = ("Black", "White")
    UTILITY_KIND = "margin"
    EVAL_SCALE: ClassVar[float] = UNITS_PER_DISC
    SCORE_UNIT: ClassVar[str] = "discs"
    SCORE_UNIT_SIZE: ClassVar[float] = UNITS_PER_DISC
    HAS_SOLVER: ClassVar[bool] = True
    SOLVER_NODE_COST: ClassVar[float] = SOLVER_NODE_COST
    WEIGHTS_FILE: ClassVar[str | None] = "othello.json"

    __slots__ = ("own", "opponent", "player", "history", "_key", "_moves")

    def __init__(self, black: Bitboard = INITIAL_BLACK, white: Bitboard = INITIAL_WHITE,
                 player: Player = BLACK) -> None:
        self.own, self.opponent = (black, white) if player == BLACK else (white, black)
        self.player = player
        self.history: list[tuple[int, Bitboard, int]] = []
        """(move, flipped discs, key before the move) per ``play``, for ``undo``."""
        self._key = _board_key(black, white, player)
        self._moves = NO_CACHE

    # ------------------------------------------------------------- protocol
    @classmethod
    def initial(cls) -> OthelloState:
        return cls()

    @property
    def black(self) -> Bitboard:
        return self.own if self.player == BLACK else self.opponent

    @property
    def white(self) -> Bitboard:
        return self.opponent if self.player == BLACK else self.own

    def discs(self, player: Player) -> Bitboard:
        """The squares holding ``player``'s discs."""
        return self.own if player == self.player else self.opponent

    def to_move(self) -> Player:
        return self.player

    def moves_mask(self) -> Bitboard:
        """The side to move's legal squares as a bitboard (cached until the next move)."""
        moves = self._moves
        if moves == NO_CACHE:
            moves = self._moves = legal_moves_mask(self.own, self.opponent)
        return moves

    def legal_moves(self) -> list[int]:
        moves = self.moves_mask()
        if moves:
            return squares_of(moves)
        if legal_moves_mask(self.opponent, self.own):
            return [PASS]
        return []

    def play(self, move: int) -> None:
        own = self.own
        if move == PASS:
            self.history.append((PASS, 0, self._key))
            self._key ^= WHITE_TO_MOVE_KEY
        else:
            flipped = flips(own, self.opponent, move)
            self.history.append((move, flipped, self._key))
            key = self._key ^ WHITE_TO_MOVE_KEY ^ DISC_KEYS[self.player][move]
            bits = flipped
            while bits:
                lowest = bits & -bits
                key ^= FLIP_KEYS[lowest.bit_length() - 1]
                bits ^= lowest
            self._key = key
            bit = 1 << move
            own |= flipped | bit
            self.opponent ^= flipped
        self.own, self.opponent = self.opponent, own
        self.player ^= 1
        self._moves = NO_CACHE

    def undo(self) -> None:
        move, flipped, key = self.history.pop()
        own, opponent = self.opponent, self.own  # the mover of the undone ply
        if move != PASS:
            own &= ~(flipped | 1 << move)
            opponent |= flipped
        self.own, self.opponent = own, opponent
        self.player ^= 1
        self._key = key
        self._moves = NO_CACHE

    def copy(self) -> OthelloState:
        clone = OthelloState.__new__(OthelloState)
        clone.own = self.own
        clone.opponent = self.opponent
        clone.player = self.player
        clone.history = list(self.history)
        clone._key = self._key
        clone._moves = self._moves
        return clone

    def is_terminal(self) -> bool:
        return not self.moves_mask() and not legal_moves_mask(self.opponent, self.own)

    def utility(self, player: Player) -> float:
        """Final disc margin for ``player``, empty squares going to the winner."""
        return float(final_margin(self.discs(player), self.discs(1 - player)))

    def utility_bounds(self) -> tuple[float, float]:
        return (-MARGIN_LIMIT, MARGIN_LIMIT)

    def termination_reason(self) -> str:
        if not self.is_terminal():
            return ""
        if not self.black or not self.white:
            loser = BLACK if not self.black else WHITE
            return f"{self.PLAYER_NAMES[loser].lower()} has no discs left"
        if (self.own | self.opponent) == FULL:
            return "the board is full"
        return "neither side can move"

    def key(self) -> int:
        return self._key

    def encode_move(self, move: int) -> int:
        """A square 0..63 or ``PASS`` (64) is its own code."""
        return move

    def decode_move(self, code: int) -> int:
        return code

    def empties(self) -> int:
        """The number of empty squares."""
        return SQUARE_COUNT - (self.own | self.opponent).bit_count()

    def expected_moves_left(self) -> float:
        """Every move fills one empty square and the players alternate, so the player to
        move places at most half the empties, rounded up (passes only make it fewer)."""
        return float((self.empties() + 1) // 2)

    # ------------------------------------------------------------ knowledge
    @classmethod
    def set_weights(cls, weights: Mapping[str, Any] | None) -> None:
        """Make ``weights`` (the ``"weights"`` object of an ``othello.json``-like file: a
        pattern model, or the classic features' weights) the EVAL of this process; ``None``
        goes back to the shipped weights. ``games.weights.WeightsError`` says what is wrong."""
        if weights is None:
            evaluation.use_shipped()
        else:
            evaluation.use_model(evaluation.parse_weights(weights))

    def evaluation_features(self, player: Player) -> Mapping[str, tuple[float, float]]:
        """The EVAL breakdown for ``player`` (see ``games.othello.evaluation``); at a finished
        game, the one exact feature ``final_margin`` with weight ``EVAL_SCALE``."""
        if self.is_terminal():
            return {"final_margin": (self.EVAL_SCALE, self.utility(player))}
        breakdown = evaluation.features_to_move(self.own, self.opponent, self.moves_mask())
        if player != self.player:
            breakdown = {name: (weight, -value) for name, (weight, value) in breakdown.items()}
        return breakdown

    def book_moves(self) -> list[tuple[int, float]]:
        """The opening book's moves here (``games.othello.book``; symmetric positions share
        one entry), each with weight 1; empty outside the book."""
        if self.empties() < BOOK_MIN_EMPTIES:
            return []
        return book.book_moves(self.own, self.opponent)

    def evaluate(self, player: Player) -> float:
        """Estimated final margin for ``player`` in hundredths of a disc: the weighted sum of
        ``evaluation_features``, clamped to ``utility_bounds() * EVAL_SCALE`` (lopsided
        positions can add up past a 64-disc win, which no estimate may claim to beat);
        exactly ``utility * EVAL_SCALE`` at a finished game."""
        moves = self.moves_mask()
        if not moves and not legal_moves_mask(self.opponent, self.own):
            return self.utility(player) * self.EVAL_SCALE
        value = evaluation.evaluate_to_move(self.own, self.opponent, moves)
        value = min(max(value, -EVAL_LIMIT), EVAL_LIMIT)
        return value if player == self.player else -value

    NATIVE_SEARCH: ClassVar[str | None] = (
        "C alpha-beta (PVS) with this EVAL and the exact endgame solver, games/othello/_search.c"
        if compiled.NATIVE
        else None
    )

    @classmethod
    def native_searcher(cls, table_megabytes: float) -> compiled.OthelloNativeSearcher:
        """The compiled Othello search (``games.othello.native``): the engine's ``native``
        algorithm, the Python PVS's values at many times its nodes a second."""
        return compiled.OthelloNativeSearcher(table_megabytes, EVAL_LIMIT, cls.EVAL_SCALE)

    def solve(self, player: Player, max_empties: int = SOLVER_EMPTIES, poll: NodePoll | None = None) -> float | None:
        """The exact final margin for ``player`` when at most ``max_empties`` squares are
        empty, else ``None``. ``poll`` hears the node count as the solve goes and may stop
        it by raising (see ``games.base.NodePoll``)."""
        if self.empties() > max_empties:
            return None
        score = solve_exact(self.own, self.opponent, poll).score
        return float(score if player == self.player else -score)

    def solve_best_move(
        self, max_empties: int = SOLVER_EMPTIES, poll: NodePoll | None = None
    ) -> tuple[int, int | None] | None:
        """(exact margin for the side to move, a move reaching it) when at most
        ``max_empties`` squares are empty, else ``None``. The move is ``PASS`` for a forced
        pass and ``None`` at a finished game."""
        if self.empties() > max_empties:
            return None
        result = solve_exact(self.own, self.opponent, poll)
        return result.score, result.best_move

    # ----------------------------------------------------------------- perft
    def perft(self, depth: int) -> int:
        """Leaf count in Aart Bik's convention (a forced pass uses a ply; a finished game is
        one leaf at any remaining depth), on raw bitboards."""
        return perft_count(self.own, self.opponent, depth)

    def divide(self, depth: int) -> list[tuple[str, int]]:
        """As ``GameState.divide``; a finished game has no root move to divide by (its perft
        is one leaf at any depth), which is an error rather than an empty list."""
        if self.is_terminal():
            raise BadPositionError("the game is over in this position: there is no root move to divide by")
        return super().divide(depth)

    # ----------------------------------------------------------------- text
    @classmethod
    def from_text(cls, text: str) -> OthelloState:
        """Edax OBF: 64 board characters ``a1``..``h8`` row by row (``X``/``x``/``*`` black,
        ``O``/``o`` white, ``-``/``.`` empty), whitespace, then the side to move
        (``X``/``O``), optionally followed by ``;`` and anything (an OBF file's scores and
        comments). A position whose side to move must pass is accepted."""
        if not isinstance(text, str):
            raise BadPositionError(f"a position is text, not {type(text).__name__}")
        # An OBF line may go on after the side to move: ";" then the solutions and comments.
        parts = text.split(";", 1)[0].split()
        if len(parts) != 2:
            raise BadPositionError(
                "an Othello position is 64 board characters, a space and the side to move "
                f"(X or O); got {len(parts)} word(s)"
            )
        board, side = parts
        if len(board) != SQUARE_COUNT:
            raise BadPositionError(f"the board has 64 squares, got {len(board)} characters")
        black = white = 0
        for square, char in enumerate(board):
            if char in BLACK_SYMBOLS:
                black |= 1 << square
            elif char in WHITE_SYMBOLS:
                white |= 1 << square
            elif char not in EMPTY_SYMBOLS:
                raise BadPositionError(
                    f"square {square_name(square)} holds {char!r}; use X, O or -"
                )
        for square in CENTRE_SQUARES:
            if not (black | white) >> square & 1:
                raise BadPositionError(
                    f"square {square_name(square)} is empty, but the four centre squares "
                    "are filled from the start"
                )
        if side in BLACK_SYMBOLS:
            player = BLACK
        elif side in WHITE_SYMBOLS:
            player = WHITE
        else:
            raise BadPositionError(f"the side to move is {side!r}; use X (black) or O (white)")
        return cls(black, white, player)

    def to_text(self) -> str:
        black, white = self.black, self.white
        chars = []
        for square in range(SQUARE_COUNT):
            if black >> square & 1:
                chars.append("X")
            elif white >> square & 1:
                chars.append("O")
            else:
                chars.append("-")
        return "".join(chars) + " " + SIDE_SYMBOLS[self.player]

    def parse_move(self, text: str) -> int:
        """``d3`` (any case) or ``pass``, checked to be legal here."""
        if not isinstance(text, str):
            raise IllegalMoveError(f"a move is text, not {type(text).__name__}")
        move = PASS if text.strip().lower() == PASS_NAME else parse_square(text)
        self._check_legal(move)
        return move

    def move_name(self, move: int) -> str:
        return PASS_NAME if move == PASS else square_name(move)

    def play_checked(self, move: int) -> None:
        """``play`` after checking ``move`` with a message that says why it is illegal."""
        if not isinstance(move, int) or isinstance(move, bool) or not 0 <= move <= PASS:
            raise IllegalMoveError(f"{move!r} is not a move: use 0..63 for a1..h8, or {PASS} to pass")
        self._check_legal(move)
        self.play(move)

    def _check_legal(self, move: int) -> None:
        """Raise ``IllegalMoveError`` saying why ``move`` (0..64) is not legal here."""
        if move in self.legal_moves():
            return
        name = self.PLAYER_NAMES[self.player].lower()
        if self.is_terminal():
            raise IllegalMoveError("the game is over: no move is legal")
        if move == PASS:
            example = square_name(squares_of(self.moves_mask())[0])
            raise IllegalMoveError(f"you cannot pass: {name} has a legal move (e.g. {example})")
        if not self.moves_mask():
            raise IllegalMoveError(f"you must pass: {name} has no legal move")
        if (self.own | self.opponent) >> move & 1:
            raise IllegalMoveError(f"{square_name(move)} is occupied")
        raise IllegalMoveError(f"{square_name(move)} flips nothing")

    def __str__(self) -> str:
        """The board as a diagram, rank 8 at the top as players see it."""
        text = self.to_text()
        rows = [text[rank * 8: rank * 8 + 8] for rank in range(8)]
        lines = [f"{rank + 1} {' '.join(rows[rank])}" for rank in reversed(range(8))]
        lines.append("  " + " ".join(FILES))
        return "\n".join(lines)



