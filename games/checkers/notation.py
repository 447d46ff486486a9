"""PDN text for English draughts: FEN positions and move paths, parsed strictly.

Position (PDN FEN): ``<side to move>:W<white pieces>:B<black pieces>``, e.g. the start
``B:W21,22,...,32:B1,2,...,12`` or ``W:WK5,18:B2,K30``. Kings carry a ``K`` prefix. On input
the two piece lists may come in either order, may be empty (``B:W:B1`` — a side without
pieces), may use ranges as some PDN writers emit (``B1-12``, ``K29-32``), and the text may be
wrapped in a PDN tag (``[FEN "..."]``) and end in ``.``. ``format_fen`` writes one canonical
form: White's list, then Black's, squares ascending, no ranges.

PDN FEN has no field for the 40-move-rule counter, so positions read from text start it at
zero (see ``CheckersState``).

Moves: squares joined by ``-`` (a step) or ``x`` (a jump): ``11-15``, ``22x15``,
``22x15x6``. Older literature writes jumps with ``-`` too (``12-19``), so on input ``-``
may join the squares of a capture; which move is meant is decided against the legal moves.
``x`` claims a capture, though, and the state refuses it for a plain step (``11x15``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from games.base import BadPositionError, IllegalMoveError
from games.checkers.bitboards import BLACK, FIRST_SQUARE, LAST_SQUARE, WHITE, Player, Square

SIDE_LETTERS = "BW"
"""Indexed by player: ``B`` for Black (player 0), ``W`` for White (player 1)."""
SIDE_NAMES = ("black", "white")
KING_PREFIX = "K"
MAX_PIECES_PER_SIDE = 12
CROWN_SQUARES: tuple[range, range] = (range(29, 33), range(1, 5))
"""Indexed by player: where that side's men are crowned (so no man of it can stand there)."""

_TAG_PATTERN = re.compile(r'\[\s*FEN\s+"(.*)"\s*\]', re.IGNORECASE | re.DOTALL)
_NUMBER = r"[0-9]{1,9}"
"""ASCII digits only, and few enough that ``int`` never meets its length limit."""
_ENTRY_PATTERN = re.compile(rf"(K?)({_NUMBER})(?:-({_NUMBER}))?", re.IGNORECASE)
_MOVE_PATTERN = re.compile(rf"{_NUMBER}(?:\s*[-xX]\s*{_NUMBER})+")
_MOVE_SEPARATOR = re.compile(r"\s*[-xX]\s*")


@dataclass(frozen=True)
class ParsedPosition:
    """The content of a FEN: who moves, and each side's men and kings (PDN squares)."""

    player: Player
    men: tuple[frozenset[Square], frozenset[Square]]
    kings: tuple[frozenset[Square], frozenset[Square]]


def check_square(square: int) -> None:
    """``IllegalMoveError`` unless ``square`` is 1..32."""
    if not FIRST_SQUARE <= square <= LAST_SQUARE:
        raise IllegalMoveError(f"square {square} does not exist (squares are {FIRST_SQUARE}-{LAST_SQUARE})")


def _side_to_move(text: str) -> Player:
    letter = text.strip().upper()
    if letter not in ("B", "W"):
        raise BadPositionError(f"the side to move must be B or W, got {text.strip()!r}")
    return SIDE_LETTERS.index(letter)


def _parse_entry(entry: str, side: Player) -> tuple[list[Square], bool]:
    """One comma-separated item: ``18``, ``K5`` or a range ``1-12`` / ``K29-32``."""
    match = _ENTRY_PATTERN.fullmatch(entry)
    if match is None:
        raise BadPositionError(
            f"{entry!r} in the {SIDE_NAMES[side]} list is not a square: write 18, K18 or a range 1-12"
        )
    is_king = bool(match.group(1))
    first = int(match.group(2))
    last = int(match.group(3)) if match.group(3) is not None else first
    for square in (first, last):
        if not FIRST_SQUARE <= square <= LAST_SQUARE:
            raise BadPositionError(f"square {square} does not exist (squares are {FIRST_SQUARE}-{LAST_SQUARE})")
    if last < first:
        raise BadPositionError(f"the range {entry!r} in the {SIDE_NAMES[side]} list runs backwards")
    return list(range(first, last + 1)), is_king


def _parse_side(body: str, side: Player) -> tuple[set[Square], set[Square]]:
    """The men and kings of one side from the text after its ``W``/``B`` letter."""
    men: set[Square] = set()
    kings: set[Square] = set()
    if not body.strip():
        return men, kings
    for raw_entry in body.split(","):
        entry = raw_entry.strip()
        if not entry:
            raise BadPositionError(f"the {SIDE_NAMES[side]} list has an empty entry (two commas in a row?)")
        squares, is_king = _parse_entry(entry, side)
        for square in squares:
            if square in men or square in kings:
                raise BadPositionError(f"square {square} is listed twice for {SIDE_NAMES[side]}")
            (kings if is_king else men).add(square)
    return men, kings


def _check_side(side: Player, men: set[Square], kings: set[Square]) -> None:
    count = len(men) + len(kings)
    if count > MAX_PIECES_PER_SIDE:
        raise BadPositionError(
            f"{SIDE_NAMES[side]} has {count} pieces; a side has at most {MAX_PIECES_PER_SIDE}"
        )
    crown = CROWN_SQUARES[side]
    for square in sorted(men):
        if square in crown:
            raise BadPositionError(
                f"a {SIDE_NAMES[side]} man cannot stand on square {square}: {SIDE_NAMES[side]} men are "
                f"crowned on {crown[0]}-{crown[-1]} (write K{square} for a king)"
            )


def _unwrap(text: str) -> str:
    """Strip a ``[FEN "..."]`` tag, surrounding whitespace and one trailing ``.``."""
    cleaned = text.strip()
    tagged = _TAG_PATTERN.fullmatch(cleaned)
    if tagged:
        cleaned = tagged.group(1).strip()
    if cleaned.endswith("."):
        cleaned = cleaned[:-1].rstrip()
    return cleaned


def parse_fen(text: str) -> ParsedPosition:
    """Parse a PDN FEN; ``BadPositionError`` names the first problem found."""
    if not isinstance(text, str):
        raise BadPositionError(f"a position must be text, got {type(text).__name__}")
    cleaned = _unwrap(text)
    if not cleaned:
        raise BadPositionError("empty position text: expected e.g. B:W21,22,23:B1,2,3")
    sections = cleaned.split(":")
    player = _side_to_move(sections[0])
    lists: dict[Player, tuple[set[Square], set[Square]]] = {}
    for section in sections[1:]:
        stripped = section.strip()
        letter = stripped[:1].upper()
        if letter not in ("B", "W"):
            raise BadPositionError(
                f"each piece list starts with W or B, got {stripped[:10]!r}; expected e.g. W21,22:B1,2"
            )
        side = SIDE_LETTERS.index(letter)
        if side in lists:
            raise BadPositionError(f"the {SIDE_NAMES[side]} pieces are listed twice")
        lists[side] = _parse_side(stripped[1:], side)
    for side in (WHITE, BLACK):
        if side not in lists:
            raise BadPositionError(
                f"the {SIDE_NAMES[side]} piece list is missing: add :{SIDE_LETTERS[side]}<squares> "
                f"(or :{SIDE_LETTERS[side]} alone for no pieces)"
            )
    black_squares = lists[BLACK][0] | lists[BLACK][1]
    for square in sorted(lists[WHITE][0] | lists[WHITE][1]):
        if square in black_squares:
            raise BadPositionError(f"square {square} is listed for both sides")
    for side in (BLACK, WHITE):
        _check_side(side, *lists[side])
    return ParsedPosition(
        player=player,
        men=(frozenset(lists[BLACK][0]), frozenset(lists[WHITE][0])),
        kings=(frozenset(lists[BLACK][1]), frozenset(lists[WHITE][1])),
    )


def _format_side(side: Player, men: frozenset[Square] | set[Square], kings: frozenset[Square] | set[Square]) -> str:
    entries = [f"{KING_PREFIX}{square}" if square in kings else str(square) for square in sorted(men | kings)]
    return SIDE_LETTERS[side] + ",".join(entries)


def format_fen(position: ParsedPosition) -> str:
    """The canonical PDN FEN: side to move, White's list, Black's list, squares ascending."""
    return ":".join(
        (
            SIDE_LETTERS[position.player],
            _format_side(WHITE, position.men[WHITE], position.kings[WHITE]),
            _format_side(BLACK, position.men[BLACK], position.kings[BLACK]),
        )
    )


def parse_move_squares(text: str) -> list[Square]:
    """The squares of a move text (``11-15``, ``22x15x6``), each checked to exist.

    Only the syntax is checked here; whether the move is legal is the state's business."""
    if not isinstance(text, str):
        raise IllegalMoveError(f"a move must be text, got {type(text).__name__}")
    cleaned = text.strip()
    if not _MOVE_PATTERN.fullmatch(cleaned):
        raise IllegalMoveError(f"{text!r} is not a move: write e.g. 11-15, 22x15 or 22x15x6")
    squares = [int(part) for part in _MOVE_SEPARATOR.split(cleaned)]
    for square in squares:
        check_square(square)
    return squares


def format_move(path: tuple[Square, ...], is_capture: bool) -> str:
    """``11-15`` for a step, the full landing path ``22x15x6`` for a capture."""
    return ("x" if is_capture else "-").join(str(square) for square in path)
