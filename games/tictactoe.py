"""Tic-tac-toe: the textbook's first game (AIMA fig. 5.1), and the engine's test bench.

The board is two 9-bit masks (x's squares, o's squares) indexed row-major from the top-left,
the same order as the position text. Moves are square indices 0..8, named ``a1``..``c3``:
files a-c left to right, ranks 1-3 bottom to top (``a3`` is index 0, ``c1`` index 8).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from games.annotations import TICTACTOE_SCALE, Reviewed, ReviewScale
from games.base import BadPositionError, GameState, IllegalMoveError, Player
from games.weights import named_numbers, shipped_weights
from games.zobrist import zobrist_keys

Square = int
Bitboard = int

X: Player = 0
O: Player = 1
SYMBOLS = "xo"
EMPTY = "."
FULL: Bitboard = 0b111_111_111

LINES: tuple[Bitboard, ...] = tuple(
    sum(1 << square for square in line)
    for line in (
        (0, 1, 2), (3, 4, 5), (6, 7, 8),  # rows
        (0, 3, 6), (1, 4, 7), (2, 5, 8),  # columns
        (0, 4, 8), (2, 4, 6),  # diagonals
    )
)

# Zobrist keys: [player][square], plus one for "o to move".
_KEYS = zobrist_keys(19, seed=0x7AC7AC)
SQUARE_KEYS: tuple[tuple[int, ...], tuple[int, ...]] = (tuple(_KEYS[0:9]), tuple(_KEYS[9:18]))
O_TO_MOVE_KEY = _KEYS[18]

# The notes' open-lines evaluation: Eval = X_n - O_n, where X_n counts the lines still open
# for x (no o in them). A line with two of a player's marks and an empty third is weighted
# more, so depth-limited demos prefer real threats.
WEIGHTS_NAMES = ("open_lines", "threats")
DEFAULT_WEIGHTS: dict[str, float] = named_numbers(shipped_weights("tictactoe.json", "tictactoe"), WEIGHTS_NAMES, "tictactoe")
"""EVAL's weights as shipped in ``resources/weights/tictactoe.json``."""


def square_name(square: Square) -> str:
    """``a1``..``c3`` for a square index 0..8 (index 0 is the top-left, a3)."""
    return "abc"[square % 3] + str(3 - square // 3)


def parse_square(text: str) -> Square:
    """The square index of ``a1``..``c3``; ``IllegalMoveError`` otherwise."""
    cleaned = text.strip().lower()
    if len(cleaned) != 2 or cleaned[0] not in "abc" or cleaned[1] not in "123":
        raise IllegalMoveError(f"{text!r} is not a square: use a1..c3 (files a-c, ranks 1-3)")
    return (3 - int(cleaned[1])) * 3 + "abc".index(cleaned[0])


def _has_line(mask: Bitboard) -> bool:
    return any(mask & line == line for line in LINES)


class TicTacToeState(GameState, Reviewed):
    """A tic-tac-toe position: x (player 0) moves first."""

    NAME: ClassVar[str] = "tictactoe"
    REVIEW_SCALE: ClassVar[ReviewScale] = TICTACTOE_SCALE
    """How a review measures this game's moves (``games.annotations``)."""
    PLAYER_NAMES: ClassVar[tuple[str, str]] = ("x", "o")
    UTILITY_KIND = "win_loss"
    SCORE_UNIT: ClassVar[str] = "lines"
    """The evaluation counts lines still open to a player."""
    SCORE_DECIMALS: ClassVar[int] = 0
    weights: ClassVar[dict[str, float]] = DEFAULT_WEIGHTS
    WEIGHTS_FILE: ClassVar[str | None] = "tictactoe.json"

    @classmethod
    def set_weights(cls, weights: Mapping[str, object] | None) -> None:
        cls.weights = dict(DEFAULT_WEIGHTS) if weights is None else named_numbers(weights, WEIGHTS_NAMES, cls.NAME)

    __slots__ = ("masks", "player", "history", "_key")

    def __init__(self, x_mask: Bitboard = 0, o_mask: Bitboard = 0, player: Player = X) -> None:
        self.masks = [x_mask, o_mask]
        self.player = player
        self.history: list[Square] = []
        key = O_TO_MOVE_KEY if player == O else 0
        for side in (X, O):
            for square in range(9):
                if self.masks[side] >> square & 1:
                    key ^= SQUARE_KEYS[side][square]
        self._key = key

    def expected_moves_left(self) -> float:
        """At most half the empty squares, rounded up: each move fills one, in turn."""
        empties = 9 - (self.masks[X] | self.masks[O]).bit_count()
        return float((empties + 1) // 2)

    # ------------------------------------------------------------- protocol
    @classmethod
    def initial(cls) -> TicTacToeState:
        return cls()

    def to_move(self) -> Player:
        return self.player

    def legal_moves(self) -> list[Square]:
        if self.is_terminal():
            return []
        occupied = self.masks[0] | self.masks[1]
        return [square for square in range(9) if not occupied >> square & 1]

    def play(self, move: Square) -> None:
        player = self.player
        self.masks[player] |= 1 << move
        self._key ^= SQUARE_KEYS[player][move] ^ O_TO_MOVE_KEY
        self.player = 1 - player
        self.history.append(move)

    def undo(self) -> None:
        move = self.history.pop()
        player = 1 - self.player
        self.masks[player] &= ~(1 << move)
        self._key ^= SQUARE_KEYS[player][move] ^ O_TO_MOVE_KEY
        self.player = player

    def copy(self) -> TicTacToeState:
        clone = TicTacToeState.__new__(TicTacToeState)
        clone.masks = list(self.masks)
        clone.player = self.player
        clone.history = list(self.history)
        clone._key = self._key
        return clone

    def is_terminal(self) -> bool:
        x_mask, o_mask = self.masks
        return (x_mask | o_mask) == FULL or _has_line(x_mask) or _has_line(o_mask)

    def utility(self, player: Player) -> float:
        if _has_line(self.masks[player]):
            return 1.0
        if _has_line(self.masks[1 - player]):
            return -1.0
        return 0.0

    def termination_reason(self) -> str:
        if not self.is_terminal():
            return ""
        winner = self.winner()
        return "the board is full" if winner is None else f"{SYMBOLS[winner]} has three in a row"

    def key(self) -> int:
        return self._key

    def encode_move(self, move: Square) -> int:
        """A square 0..8 is its own code."""
        return move

    def decode_move(self, code: int) -> Square:
        return code

    # ------------------------------------------------------------ knowledge
    def evaluation_features(self, player: Player) -> Mapping[str, tuple[float, float]]:
        """Open lines (lines the player could still complete, minus the opponent's) and
        threats (open lines already holding two of the player's marks, minus the
        opponent's), each with its weight."""
        mine, theirs = self.masks[player], self.masks[1 - player]
        open_lines = threats = 0
        for line in LINES:
            if not line & theirs:
                open_lines += 1
                threats += bin(line & mine).count("1") == 2
            if not line & mine:
                open_lines -= 1
                threats -= bin(line & theirs).count("1") == 2
        return {
            "open_lines": (self.weights["open_lines"], float(open_lines)),
            "threats": (self.weights["threats"], float(threats)),
        }

    def evaluate(self, player: Player) -> float:
        return sum(weight * value for weight, value in self.evaluation_features(player).values())

    # ----------------------------------------------------------------- text
    @classmethod
    def from_text(cls, text: str) -> TicTacToeState:
        """Nine characters ``x``/``o``/``.`` row-major from the top-left; the side to move
        follows from the counts (x moves first)."""
        if not isinstance(text, str):
            raise BadPositionError(f"a tic-tac-toe position is text, not {type(text).__name__}")
        cleaned = text.strip().lower()
        if len(cleaned) != 9:
            raise BadPositionError(f"a tic-tac-toe position has 9 squares, got {len(cleaned)} characters")
        masks = [0, 0]
        for square, char in enumerate(cleaned):
            if char == EMPTY:
                continue
            if char not in SYMBOLS:
                raise BadPositionError(
                    f"square {square_name(square)} holds {char!r}; use x, o or ."
                )
            masks[SYMBOLS.index(char)] |= 1 << square
        x_count, o_count = bin(masks[0]).count("1"), bin(masks[1]).count("1")
        if x_count not in (o_count, o_count + 1):
            raise BadPositionError(
                f"x has {x_count} marks and o has {o_count}: x moves first, so x has as many "
                "marks as o or one more"
            )
        x_wins, o_wins = _has_line(masks[0]), _has_line(masks[1])
        if x_wins and o_wins:
            raise BadPositionError("both x and o have three in a row")
        if x_wins and x_count == o_count:
            raise BadPositionError("x has three in a row but o has moved since")
        if o_wins and x_count != o_count:
            raise BadPositionError("o has three in a row but x has moved since")
        player = X if x_count == o_count else O
        return cls(masks[0], masks[1], player)

    def to_text(self) -> str:
        chars = []
        for square in range(9):
            if self.masks[0] >> square & 1:
                chars.append("x")
            elif self.masks[1] >> square & 1:
                chars.append("o")
            else:
                chars.append(EMPTY)
        return "".join(chars)

    def parse_move(self, text: str) -> Square:
        square = parse_square(text)
        if self.is_terminal():
            raise IllegalMoveError("the game is over: no move is legal")
        if (self.masks[0] | self.masks[1]) >> square & 1:
            raise IllegalMoveError(f"square {square_name(square)} is already taken")
        return square

    def move_name(self, move: Square) -> str:
        return square_name(move)

    def __str__(self) -> str:
        text = self.to_text()
        return "\n".join(text[row * 3 : row * 3 + 3] for row in range(3))
