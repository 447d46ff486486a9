"""GNU Backgammon's Position ID and Match ID (gnubg manual, Technical Notes 11.6 and 11.7).

**Position ID**: an 80-bit key, base64 in 14 characters. For each player in turn, for every
point from that player's ace point to their 24 point and then the bar, append one 1 bit per
checker and a 0 bit; pad with zeros to 80 bits; pack little-endian (the first bit is the
least significant bit of the first byte). The first player in the key is the one NOT on roll
and the second the player on roll: that is what gnubg's code does (``PositionKey`` encodes
``anBoard[0]`` first, and ``anBoard[1]`` is the side to move in ``ApplySubMove``), and what
its exported positions show (e.g. ``sG/BgCGMM+YAIw``, "fanar to play 44", pips 152 vs 167:
the 167 is the second half). The manual's prose names the player on roll first; the
symmetric starting position ``4HPwATDgc/ABMA`` cannot tell the two readings apart.

**Match ID**: a 66-bit key packed the same way into 9 bytes, base64 in 12 characters.
Bits (1-based as in the manual): 1-4 log2 of the cube, 5-6 cube owner (0, 1, or 3 =
centred), 7 player on roll, 8 Crawford, 9-11 game state, 12 player to decide, 13 double
offered, 14-15 resignation, 16-18 and 19-21 the dice, 22-36 match length (0 = money),
37-51 and 52-66 the scores of players 0 and 1.

Bits 67-72 follow the 66 the manual describes. gnubg (``matchid.c``, as in gnubg 1.07)
writes bit 67 as "the Jacoby rule is off": set in every match (where the rule never
applies) and in money play without it; ids without it (older gnubg, published examples)
mean the same in a match. Plyground keeps that bit as it was read (``gnubg_jacoby_off``) and sets it in the
match positions it makes, so a match position's id is exactly what gnubg 1.07 shows; money
ids keep it clear. Bits 68-72 are ignored by gnubg (bug-gnubg, "Extending MatchID's", March
2011); Plyground keeps its own rule flags there so that one ``PositionID:MatchID`` string
describes a Plyground state completely while staying a valid gnubg id: bit 69 = cube play
disabled, bit 70 = Jacoby rule, bit 71 = the player on roll has declined to double and the
dice are about to be rolled.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass

from games.backgammon.board import BAR, BOARD_SIZE, CHECKERS, HOME_POINTS, OFF, PLAYER_NAMES, Board, empty_board
from games.base import BadPositionError

POSITION_ID_LENGTH = 14
MATCH_ID_LENGTH = 12
POSITION_KEY_BYTES = 10
MATCH_KEY_BYTES = 9
POSITION_KEY_BITS = 80
BASE64_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
LAST_POSITION_CHARACTERS = "AQgw"
"""The 14th character carries only the top 2 bits of its 6 (80 = 13 * 6 + 2)."""

# Match key fields: (first bit, width), 0-based.
CUBE_FIELD = (0, 4)
CUBE_OWNER_FIELD = (4, 2)
PLAYER_ON_ROLL_FIELD = (6, 1)
CRAWFORD_FIELD = (7, 1)
GAME_STATE_FIELD = (8, 3)
TURN_FIELD = (11, 1)
DOUBLED_FIELD = (12, 1)
RESIGNATION_FIELD = (13, 2)
DIE1_FIELD = (15, 3)
DIE2_FIELD = (18, 3)
MATCH_LENGTH_FIELD = (21, 15)
SCORE0_FIELD = (36, 15)
SCORE1_FIELD = (51, 15)
GNUBG_JACOBY_OFF_FIELD = (66, 1)
CUBELESS_FIELD = (68, 1)
JACOBY_FIELD = (69, 1)
DECLINED_DOUBLE_FIELD = (70, 1)

CENTRED_OWNER_BITS = 3
CENTRED = -1
"""``cube_owner`` of a centred cube."""

GAME_NOT_STARTED = 0
GAME_PLAYING = 1
GAME_OVER = 2
GAME_RESIGNED = 3
GAME_DROPPED = 4
GAME_STATES = ("no game started", "playing", "game over", "game resigned", "cube dropped")

MAX_CUBE_LOG = (1 << CUBE_FIELD[1]) - 1
MAX_SCORE = (1 << MATCH_LENGTH_FIELD[1]) - 1
MAX_MATCH_LENGTH = 64
"""The longest match gnubg plays (its ``MAXSCORE``) and the match equity tables reach."""


def _decode_base64(text: str, length: int, what: str) -> bytes:
    if len(text) != length:
        raise BadPositionError(f"{what} must be {length} base64 characters, got {len(text)} ({text!r})")
    for char in text:
        if char not in BASE64_ALPHABET:
            raise BadPositionError(f"{what} {text!r} contains {char!r}, which is not a base64 character")
    padding = "=" * (-length % 4)
    try:
        return base64.b64decode(text + padding, validate=True)
    except (binascii.Error, ValueError) as error:  # pragma: no cover - alphabet checked above
        raise BadPositionError(f"{what} {text!r} is not valid base64: {error}") from None


# ------------------------------------------------------------------ position id
def encode_position_id(not_on_roll: Board, on_roll: Board) -> str:
    """The 14-character Position ID of two boards (each in its owner's numbering)."""
    key = 0
    bit = 0
    for board in (not_on_roll, on_roll):
        for point in range(1, BOARD_SIZE):  # 1..24, then the bar (25)
            count = board[point]
            key |= ((1 << count) - 1) << bit
            bit += count + 1
    data = key.to_bytes(POSITION_KEY_BYTES, "little")
    return base64.b64encode(data).decode("ascii")[:POSITION_ID_LENGTH]


def decode_position_id(text: str, names: tuple[str, str] = ("the player not on roll", "the player on roll")) -> tuple[Board, Board]:
    """``(not_on_roll, on_roll)`` boards of a Position ID; ``off`` = 15 minus the rest.

    ``names`` name the two players in error messages ("X has 16 checkers").
    """
    data = _decode_base64(text, POSITION_ID_LENGTH, "a position id")
    if text[-1] not in LAST_POSITION_CHARACTERS:
        raise BadPositionError(
            f"position id {text!r} cannot end in {text[-1]!r}: only 2 bits of the 14th character "
            f"are used, so it must be one of {', '.join(LAST_POSITION_CHARACTERS)}"
        )
    key = int.from_bytes(data[:POSITION_KEY_BYTES], "little")
    boards = (empty_board(), empty_board())
    bit = 0
    for board, name in zip(boards, names):
        total = 0
        for point in range(1, BOARD_SIZE):
            while bit < POSITION_KEY_BITS and key >> bit & 1:
                board[point] += 1
                total += 1
                bit += 1
            bit += 1
        if total > CHECKERS:
            raise BadPositionError(f"{name} has {total} checkers on the board: a side has {CHECKERS}")
        board[0] = CHECKERS - total
    if bit > POSITION_KEY_BITS:
        raise BadPositionError(f"position id {text!r} runs out of bits before the last point")
    if key >> bit:
        raise BadPositionError(f"position id {text!r} has bits set after the last point (not a gnubg id)")
    return boards


# --------------------------------------------------------------------- match id
@dataclass(frozen=True)
class MatchKey:
    """The fields of a Match ID, in Plyground's player indices (0 = O, 1 = X, as gnubg)."""

    cube_value: int = 1
    cube_owner: int = CENTRED
    player_on_roll: int = 1
    crawford: bool = False
    game_state: int = GAME_PLAYING
    turn: int = 1
    doubled: bool = False
    resignation: int = 0
    dice: tuple[int, int] = (0, 0)
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    cubeless: bool = False
    jacoby: bool = False
    declined_double: bool = False
    gnubg_jacoby_off: bool = False
    """gnubg's bit 67 (module doc): kept as read; set in the match positions Plyground makes."""


def _put(key: int, field: tuple[int, int], value: int) -> int:
    first, width = field
    return key | (value & ((1 << width) - 1)) << first


def _get(key: int, field: tuple[int, int]) -> int:
    first, width = field
    return key >> first & ((1 << width) - 1)


def encode_match_id(match: MatchKey) -> str:
    """The 12-character Match ID of ``match``."""
    cube_log = match.cube_value.bit_length() - 1
    owner = CENTRED_OWNER_BITS if match.cube_owner == CENTRED else match.cube_owner
    key = 0
    for field, value in (
        (CUBE_FIELD, cube_log),
        (CUBE_OWNER_FIELD, owner),
        (PLAYER_ON_ROLL_FIELD, match.player_on_roll),
        (CRAWFORD_FIELD, int(match.crawford)),
        (GAME_STATE_FIELD, match.game_state),
        (TURN_FIELD, match.turn),
        (DOUBLED_FIELD, int(match.doubled)),
        (RESIGNATION_FIELD, match.resignation),
        (DIE1_FIELD, match.dice[0]),
        (DIE2_FIELD, match.dice[1]),
        (MATCH_LENGTH_FIELD, match.match_length),
        (SCORE0_FIELD, match.score[0]),
        (SCORE1_FIELD, match.score[1]),
        (CUBELESS_FIELD, int(match.cubeless)),
        (JACOBY_FIELD, int(match.jacoby)),
        (GNUBG_JACOBY_OFF_FIELD, int(match.gnubg_jacoby_off)),
        (DECLINED_DOUBLE_FIELD, int(match.declined_double)),
    ):
        key = _put(key, field, value)
    return base64.b64encode(key.to_bytes(MATCH_KEY_BYTES, "little")).decode("ascii")


def decode_match_id(text: str) -> MatchKey:
    """The fields of a Match ID; ``BadPositionError`` for values no field can hold."""
    key = int.from_bytes(_decode_base64(text, MATCH_ID_LENGTH, "a match id"), "little")
    owner_bits = _get(key, CUBE_OWNER_FIELD)
    if owner_bits == 2:
        raise BadPositionError(f"match id {text!r}: cube owner bits 10 name no owner (00, 01 or 11 = centred)")
    game_state = _get(key, GAME_STATE_FIELD)
    if game_state >= len(GAME_STATES):
        raise BadPositionError(f"match id {text!r}: game state {game_state} does not exist (0..4)")
    dice = (_get(key, DIE1_FIELD), _get(key, DIE2_FIELD))
    for die in dice:
        if die > 6:
            raise BadPositionError(f"match id {text!r}: a die shows {die}")
    return MatchKey(
        cube_value=1 << _get(key, CUBE_FIELD),
        cube_owner=CENTRED if owner_bits == CENTRED_OWNER_BITS else owner_bits,
        player_on_roll=_get(key, PLAYER_ON_ROLL_FIELD),
        crawford=bool(_get(key, CRAWFORD_FIELD)),
        game_state=game_state,
        turn=_get(key, TURN_FIELD),
        doubled=bool(_get(key, DOUBLED_FIELD)),
        resignation=_get(key, RESIGNATION_FIELD),
        dice=dice,
        match_length=_get(key, MATCH_LENGTH_FIELD),
        score=(_get(key, SCORE0_FIELD), _get(key, SCORE1_FIELD)),
        cubeless=bool(_get(key, CUBELESS_FIELD)),
        jacoby=bool(_get(key, JACOBY_FIELD)),
        gnubg_jacoby_off=bool(_get(key, GNUBG_JACOBY_OFF_FIELD)),
        declined_double=bool(_get(key, DECLINED_DOUBLE_FIELD)),
    )


# ------------------------------------------------------------------ the ids in text
_GNUBG_COMMAND = re.compile(r"(?i)^\s*(?:set\s+)?gnubgid\b")
"""``set gnubgid p:m`` / ``gnubgid p:m``: the command gnubg reads ids with."""
_POSITION_LABEL = re.compile(r"(?i)\bposition\s*id\s*:\s*(\S*)")
_MATCH_LABEL = re.compile(r"(?i)\bmatch\s*id\s*:\s*(\S*)")
"""gnubg's display labels ("Position ID: 4HPwATDgc/ABMA", "Match ID   : cAkAAAAAAAAA");
text around labelled ids (gnubg's banner, say) is ignored."""


def split_gnubg_ids(text: str) -> tuple[str, str | None]:
    """``(position id, match id or None)`` from ``p:m``, ``p m``, ``p``, ``gnubgid p:m`` or
    gnubg's labelled display (``Position ID: p  Match ID: m``, in either order)."""
    position_label, match_label = _POSITION_LABEL.search(text), _MATCH_LABEL.search(text)
    if position_label is not None:
        if not position_label.group(1):
            raise BadPositionError(f"{text.strip()!r}: 'Position ID:' is followed by no id")
        if match_label is not None and not match_label.group(1):
            raise BadPositionError(f"{text.strip()!r}: 'Match ID:' is followed by no id")
        return position_label.group(1), None if match_label is None else match_label.group(1)
    if match_label is not None:
        raise BadPositionError(f"{text.strip()!r}: a Match ID alone is no position; give the Position ID too")
    cleaned = _GNUBG_COMMAND.sub(" ", text).strip()
    words = cleaned.replace(":", " : ").split()
    if ":" in words:
        if words.count(":") > 1:
            raise BadPositionError(f"{text.strip()!r}: expected PositionID:MatchID, found {words.count(':') + 1} ':'-separated parts")
        if words[0] == ":":
            raise BadPositionError(f"{text.strip()!r}: no Position ID before ':'")
        if words[-1] == ":":
            raise BadPositionError(f"{text.strip()!r}: no Match ID after ':' (or leave the ':' out for a money game)")
        words.remove(":")
    if len(words) > 2:
        raise BadPositionError(
            f"{text.strip()!r}: expected PositionID:MatchID (or the two ids separated by a space), found {len(words)} words"
        )
    if len(words) == 2 and (len(words[0]), len(words[1])) == (MATCH_ID_LENGTH, POSITION_ID_LENGTH):
        raise BadPositionError(
            f"{text.strip()!r}: the Position ID comes first and the Match ID second: {words[1]}:{words[0]}"
        )
    if not words:
        raise BadPositionError(f"no gnubg id in {text!r}: expected PositionID:MatchID, such as 4HPwATDgc/ABMA:cAkAAAAAAAAA")
    return words[0], words[1] if len(words) == 2 else None


# ---------------------------------------------------------- what an id may describe
def check_match_rules(match: MatchKey) -> None:
    """``BadPositionError`` for a Match ID whose rules no Plyground game reaches: a
    resignation (not supported), a finished match, Jacoby in a match, Crawford in money
    play, a cube value its owner contradicts, a turned cube with cube play off or in the
    Crawford game."""
    if match.resignation or match.game_state == GAME_RESIGNED:
        raise BadPositionError("the match id holds a resignation; resigning is not supported")
    if match.jacoby and match.gnubg_jacoby_off:
        raise BadPositionError("the match id says both that the Jacoby rule is on (bit 70) and off (gnubg's bit 67)")
    if match.match_length:
        if match.match_length > MAX_MATCH_LENGTH:
            raise BadPositionError(
                f"a match to {match.match_length} points is longer than the {MAX_MATCH_LENGTH} points gnubg plays"
            )
        for player in (0, 1):
            if match.score[player] >= match.match_length:
                raise BadPositionError(
                    f"{PLAYER_NAMES[player]} has {match.score[player]} points in a {match.match_length}-point match: "
                    "that match is already over"
                )
        if match.jacoby:
            raise BadPositionError("the Jacoby rule applies to money play only, not to a match")
        if match.crawford and match.score.count(match.match_length - 1) != 1:
            raise BadPositionError(
                f"the Crawford game is played when one player is 1 point from winning, not at "
                f"{match.score[0]}-{match.score[1]} in a {match.match_length}-point match"
            )
    elif match.crawford:
        raise BadPositionError("a money game has no Crawford game")
    if match.cube_owner == CENTRED and match.cube_value != 1:
        raise BadPositionError(f"a centred cube shows 1, not {match.cube_value} (no automatic doubles)")
    if match.cube_owner != CENTRED and match.cube_value == 1:
        raise BadPositionError(f"{PLAYER_NAMES[match.cube_owner]} cannot own a cube that was never turned (value 1)")
    if match.cubeless and (match.cube_value != 1 or match.doubled):
        raise BadPositionError("cube play is off, yet the cube has been turned or offered")
    if match.crawford and (match.cube_value != 1 or match.doubled):
        raise BadPositionError("no doubling in the Crawford game, yet the cube has been turned or offered")


def check_boards(board_o: Board, board_x: Board) -> None:
    """``BadPositionError`` for two boards no game reaches: a point held by both players,
    both sides borne off, or both on the bar against closed boards."""
    for point in range(1, BAR):
        if board_x[point] and board_o[BAR - point]:
            raise BadPositionError(f"X's point {point} (O's point {BAR - point}) holds checkers of both players")
    if board_o[OFF] == CHECKERS and board_x[OFF] == CHECKERS:
        raise BadPositionError("both players have borne off all 15 checkers")
    closed_o = all(board_o[point] >= 2 for point in range(1, HOME_POINTS + 1))
    closed_x = all(board_x[point] >= 2 for point in range(1, HOME_POINTS + 1))
    if board_o[BAR] and board_x[BAR] and closed_o and closed_x:
        raise BadPositionError("both players are on the bar against closed boards: no game reaches that")


__all__ = [
    "CENTRED",
    "GAME_DROPPED",
    "GAME_NOT_STARTED",
    "GAME_OVER",
    "GAME_PLAYING",
    "GAME_RESIGNED",
    "MAX_MATCH_LENGTH",
    "MatchKey",
    "check_boards",
    "check_match_rules",
    "decode_match_id",
    "decode_position_id",
    "encode_match_id",
    "encode_position_id",
    "split_gnubg_ids",
]
