"""Zobrist keys of backgammon positions (Zobrist 1970).

A state's key is the XOR of one key per (player, point, checker count), kept incrementally
as checkers move, and the keys of everything else a position holds: the phase with the
player it concerns, the dice, the cube's value and owner, and the rule flags. Two states
with equal keys are the same node of the game tree (the table, repetition and MCTS rely
on it), so every field that changes the legal moves or the result has a key.
"""

from __future__ import annotations

from games.backgammon.board import BOARD_SIZE, CHECKERS, DIE_FACES, Board
from games.backgammon.gnubg_ids import MAX_CUBE_LOG
from games.backgammon.phase import Phase
from games.base import Player
from games.zobrist import zobrist_keys

COUNT_LEVELS = CHECKERS + 1
"""0..15 checkers on one point."""
CUBE_LEVELS = MAX_CUBE_LOG + 1
"""Cube values 1, 2, 4 ... 32768, by their logarithm."""
CUBE_OWNERS = 3
"""Centred (-1), O (0) or X (1), stored at ``owner + 1``."""
DIE_VALUES = DIE_FACES + 1
"""0 (not rolled) to 6."""
RULE_KEYS = 7
"""Cubeless, Jacoby, Crawford, dropped, match length and the two scores."""
SEED = 0xBAC6A11
"""The table's seed: the same keys in every process that shares a transposition table."""

_KEYS = zobrist_keys(
    2 * BOARD_SIZE * COUNT_LEVELS + len(Phase) * 2 + DIE_VALUES**2 + CUBE_LEVELS * CUBE_OWNERS + RULE_KEYS,
    seed=SEED,
)

CHECKER_KEYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(_KEYS[(player * BOARD_SIZE + point) * COUNT_LEVELS + count] for count in range(COUNT_LEVELS))
        for point in range(BOARD_SIZE)
    )
    for player in (0, 1)
)
"""``CHECKER_KEYS[player][point][count]``: ``count`` of ``player``'s checkers on ``point``."""

_offset = 2 * BOARD_SIZE * COUNT_LEVELS
PHASE_KEYS = _KEYS[_offset : _offset + len(Phase) * 2]
"""``PHASE_KEYS[phase * 2 + player]``."""
_offset += len(Phase) * 2
DICE_KEYS = _KEYS[_offset : _offset + DIE_VALUES**2]
"""``DICE_KEYS[high * DIE_VALUES + low]``."""
_offset += DIE_VALUES**2
CUBE_KEYS = _KEYS[_offset : _offset + CUBE_LEVELS * CUBE_OWNERS]
"""``CUBE_KEYS[log2(value) * CUBE_OWNERS + owner + 1]``."""
_offset += CUBE_LEVELS * CUBE_OWNERS
(
    CUBELESS_KEY,
    JACOBY_KEY,
    CRAWFORD_KEY,
    DROPPED_KEY,
    MATCH_LENGTH_KEY,
    SCORE0_KEY,
    SCORE1_KEY,
) = _KEYS[_offset : _offset + RULE_KEYS]
"""The rule flags; the match length and scores multiply theirs (masked to 64 bits)."""


def board_key(player: Player, board: Board) -> int:
    """The XOR of ``player``'s checker keys over ``board`` (computed from scratch)."""
    keys = CHECKER_KEYS[player]
    key = 0
    for point in range(BOARD_SIZE):
        key ^= keys[point][board[point]]
    return key


__all__ = [
    "CHECKER_KEYS",
    "CRAWFORD_KEY",
    "CUBELESS_KEY",
    "CUBE_KEYS",
    "CUBE_OWNERS",
    "DICE_KEYS",
    "DIE_VALUES",
    "DROPPED_KEY",
    "JACOBY_KEY",
    "MATCH_LENGTH_KEY",
    "PHASE_KEYS",
    "SCORE0_KEY",
    "SCORE1_KEY",
    "board_key",
]
