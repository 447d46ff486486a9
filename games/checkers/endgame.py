"""Endgame databases of English draughts: every position with at most ``DATABASE_PIECES``
pieces, solved by retrograde analysis (``bench/checkers_endgame.py`` builds them).

For each position the database knows whether the side to move wins, loses or draws with
perfect play, and the distance to the end of the game in plies (the winner winning as fast
as it can, the loser holding out as long as it can). Draw rules are ignored, as in every
checkers database (the longest win takes 109 plies, men moves and captures included, which
reset the 40-move count; a database win could still outlast that count in rare king
endings, where the game then draws).

The engine sees the database through ``CheckersState.solve``: an exact value near
``DATABASE_WIN`` (minus the distance, so a shorter win is preferred and the winning side
always makes progress), ``0`` for a draw. ``solve`` knows nothing of the distance from the
search's root; the engine adds it (``CheckersState.SOLVED_WIN``, ``ai.scores.solved_score``)
and reports a database win as "win in N plies" like a finished game.

Layout (shared with the generator ``bench/checkers_endgame.c``): positions are seen from
the side to move, whose men move down the board as Black's do; with White to move the board
is turned round (square ``s`` -> ``33 - s``) and the colours swapped. Squares are 0-31
(PDN square - 1). One table per material signature (mover men, mover kings, opponent men,
opponent kings), in ascending order of those four counts; a table's index is a mixed-radix
number of four colexicographic combination ranks: mover men over squares 0-27, opponent men
over squares 4-31 (a man on its crown row would be a king), kings over all 32. A value byte
is 0 for a draw (or an impossible index), otherwise 1 + distance, an odd distance being a
win for the side to move. The resource is the tables concatenated and compressed with LZMA.
"""

from __future__ import annotations

import lzma
from importlib import resources
from math import comb
from typing import Final

from games.checkers.bitboards import BLACK, SQUARE_OF_BIT, Bitboard

DATABASE_PIECES: Final = 4
"""The databases cover every position with at most this many pieces."""
DATABASE_PACKAGE: Final = "resources"
DATABASE_FOLDER: Final = "endgames"
DATABASE_FILE: Final = "checkers_4.xz"
DATABASE_WIN: Final = 20_000.0
"""A database win in evaluation units (200 men), less one per ply to the end."""
MAN_SQUARES: Final = 28
"""A man stands on one of 28 squares: never on the row where it would be crowned."""
SQUARE_COUNT: Final = 32

Signature = tuple[int, int, int, int]


def signatures(max_pieces: int = DATABASE_PIECES) -> list[Signature]:
    """Every table's (mover men, mover kings, opponent men, opponent kings), in file order."""
    found = []
    for movers_men in range(max_pieces + 1):
        for movers_kings in range(max_pieces + 1 - movers_men):
            for others_men in range(max_pieces + 1 - movers_men - movers_kings):
                for others_kings in range(max_pieces + 1 - movers_men - movers_kings - others_men):
                    if movers_men + movers_kings and others_men + others_kings:
                        found.append((movers_men, movers_kings, others_men, others_kings))
    return found


def table_size(signature: Signature) -> int:
    movers_men, movers_kings, others_men, others_kings = signature
    return (
        comb(MAN_SQUARES, movers_men)
        * comb(MAN_SQUARES, others_men)
        * comb(SQUARE_COUNT, movers_kings)
        * comb(SQUARE_COUNT, others_kings)
    )


OFFSETS: Final[dict[Signature, int]] = {}
_total = 0
for _signature in signatures():
    OFFSETS[_signature] = _total
    _total += table_size(_signature)
TOTAL_SIZE: Final = _total
"""Bytes of all the tables together (impossible indices included)."""

_BINOMIAL: Final = tuple(tuple(comb(n, k) for k in range(DATABASE_PIECES + 1)) for n in range(SQUARE_COUNT + 1))
_SQUARE_INDEX: Final = tuple(square - 1 if square else -1 for square in SQUARE_OF_BIT)
"""0-based square of each ghost-layout bit."""


def _squares(board: Bitboard) -> list[int]:
    found = []
    while board:
        low = board & -board
        found.append(_SQUARE_INDEX[low.bit_length() - 1])
        board ^= low
    return found


def _rank(squares: list[int], offset: int) -> int:
    squares.sort()
    return sum(_BINOMIAL[square - offset][place] for place, square in enumerate(squares, 1))


class EndgameDatabase:
    """The tables, read from the package's resource at the first probe."""

    def __init__(self, data: bytes | None = None) -> None:
        self._data = data

    def _bytes(self) -> bytes:
        if self._data is None:
            source = resources.files(DATABASE_PACKAGE).joinpath(DATABASE_FOLDER, DATABASE_FILE)
            data = lzma.decompress(source.read_bytes())
            if len(data) != TOTAL_SIZE:
                raise ValueError(f"{DATABASE_FILE}: {len(data)} bytes, expected {TOTAL_SIZE}")
            self._data = data
        return self._data

    def value_byte(self, black: Bitboard, white: Bitboard, kings: Bitboard, player: int) -> int | None:
        """The raw value byte (0 draw, else 1 + distance; odd distance = the side to move
        wins), or ``None`` when the position has more pieces than the databases or a side
        has none."""
        if not black or not white or (black | white).bit_count() > DATABASE_PIECES:
            return None
        if player == BLACK:
            mover, other = black, white
            movers_men = _squares(mover & ~kings)
            movers_kings = _squares(mover & kings)
            others_men = _squares(other & ~kings)
            others_kings = _squares(other & kings)
        else:
            movers_men = [31 - square for square in _squares(white & ~kings)]
            movers_kings = [31 - square for square in _squares(white & kings)]
            others_men = [31 - square for square in _squares(black & ~kings)]
            others_kings = [31 - square for square in _squares(black & kings)]
        signature = (len(movers_men), len(movers_kings), len(others_men), len(others_kings))
        index = _rank(movers_men, 0)
        index = index * _BINOMIAL[MAN_SQUARES][signature[2]] + _rank(others_men, 4)
        index = index * _BINOMIAL[SQUARE_COUNT][signature[1]] + _rank(movers_kings, 0)
        index = index * _BINOMIAL[SQUARE_COUNT][signature[3]] + _rank(others_kings, 0)
        return self._bytes()[OFFSETS[signature] + index]

    def result(self, black: Bitboard, white: Bitboard, kings: Bitboard, player: int) -> tuple[int, int] | None:
        """``(outcome, distance)`` for the side to move: outcome +1 win, -1 loss, 0 draw
        (distance 0); ``None`` outside the databases."""
        byte = self.value_byte(black, white, kings, player)
        if byte is None:
            return None
        if byte == 0:
            return 0, 0
        distance = byte - 1
        return (1 if distance % 2 else -1), distance


DATABASE: Final = EndgameDatabase()
"""The shipped databases (loaded on first use)."""


def database_value(outcome: int, distance: int) -> float:
    """The evaluation a database result is worth to the side to move."""
    if outcome > 0:
        return DATABASE_WIN - distance
    if outcome < 0:
        return -DATABASE_WIN + distance
    return 0.0
