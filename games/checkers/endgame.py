"""Endgame databases of English draughts: every position with at most four pieces, and
every position of three kings against two pieces, solved by retrograde analysis
(``tools/checkers_endgame.py`` builds them).

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

Layout (shared with the generator ``tools/checkers_endgame.c``): positions are seen from
the side to move, whose men move down the board as Black's do; with White to move the board
is turned round (square ``s`` -> ``33 - s``) and the colours swapped. Squares are 0-31
(PDN square - 1). One table per material signature (mover men, mover kings, opponent men,
opponent kings), in ascending order of those four counts; a table's index is a mixed-radix
number of four colexicographic combination ranks: mover men over squares 0-27, opponent men
over squares 4-31 (a man on its crown row would be a king), kings over all 32. A value byte
is 0 for a draw (or an impossible index), otherwise 1 + distance, an odd distance being a
win for the side to move.

Two resources hold the tables:

* ``checkers_4.xz``: the tables of 2-4 pieces concatenated (7.5 MB), compressed with LZMA
  as one stream and read whole at the first probe.
* ``checkers_5.blk``: the 5-piece tables of three kings against two pieces (either side to
  move), 17.6M bytes. Those are the long king endings, where a search alone wanders (with a
  man among the three, its advance gives the search progress; every 3-against-2 table with
  its distances would take 49 MB compressed, these 6.7 MB). Too large to inflate in every
  worker process, so they are cut into blocks of ``FIVE_BLOCK`` bytes, each compressed with
  zlib (a block inflates in about 0.05 ms); a probe inflates its block and keeps the last
  ``FIVE_CACHE_BLOCKS`` blocks. The file is a header (``FIVE_MAGIC``, then block size, block
  count and total bytes as little-endian unsigned 64-bit numbers), the block count + 1
  offsets of the blocks in the data that follows (unsigned 64-bit), then the blocks.
"""

from __future__ import annotations

import lzma
import struct
import zlib
from collections import OrderedDict
from importlib import resources
from math import comb
from typing import Final

from games.checkers.bitboards import BLACK, SQUARE_OF_BIT, Bitboard

DATABASE_PIECES: Final = 5
"""The databases reach this many pieces (at five, only three kings against two pieces)."""
FULL_PIECES: Final = 4
"""Every position with at most this many pieces is in ``checkers_4.xz``."""
DATABASE_PACKAGE: Final = "resources"
DATABASE_FOLDER: Final = "endgames"
DATABASE_FILE: Final = "checkers_4.xz"
FIVE_FILE: Final = "checkers_5.blk"
FIVE_MAGIC: Final = b"PLYCK5\x00\x01"
FIVE_BLOCK: Final = 16384
"""Bytes of table a compressed block holds (the last one may hold fewer)."""
FIVE_CACHE_BLOCKS: Final = 512
"""Inflated blocks a process keeps (8 MB)."""
DATABASE_WIN: Final = 20_000.0
"""A database win in evaluation units (200 men), less one per ply to the end."""
MAN_SQUARES: Final = 28
"""A man stands on one of 28 squares: never on the row where it would be crowned."""
SQUARE_COUNT: Final = 32

Signature = tuple[int, int, int, int]


def signatures(max_pieces: int = FULL_PIECES) -> list[Signature]:
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


def five_signatures() -> list[Signature]:
    """The 5-piece tables of three kings against two pieces (either side to move), in file
    order."""
    return [
        signature
        for signature in signatures(5)
        if sum(signature) == 5 and ((signature[0], signature[1]) == (0, 3) or (signature[2], signature[3]) == (0, 3))
    ]


def offsets(tables: list[Signature]) -> tuple[dict[Signature, int], int]:
    """Where each table starts in the concatenated tables, and their total size."""
    found, total = {}, 0
    for signature in tables:
        found[signature] = total
        total += table_size(signature)
    return found, total


OFFSETS, TOTAL_SIZE = offsets(signatures())
"""``checkers_4.xz``: where each table starts, and the bytes of them all (impossible
indices included)."""
FIVE_OFFSETS, FIVE_SIZE = offsets(five_signatures())
"""``checkers_5.blk``: the same for the three-kings-against-two tables."""

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


def pack_blocks(data: bytes) -> bytes:
    """``data`` as a ``checkers_5.blk`` file (``tools/checkers_endgame.py`` writes it)."""
    blocks = [zlib.compress(data[start : start + FIVE_BLOCK], 9) for start in range(0, len(data), FIVE_BLOCK)]
    positions = [0]
    for block in blocks:
        positions.append(positions[-1] + len(block))
    header = FIVE_MAGIC + struct.pack("<QQQ", FIVE_BLOCK, len(blocks), len(data))
    return header + struct.pack(f"<{len(positions)}Q", *positions) + b"".join(blocks)


class BlockFile:
    """The 5-piece tables: compressed blocks, inflated on demand, the recent ones kept."""

    def __init__(self, packed: bytes, size: int = FIVE_SIZE, name: str = FIVE_FILE) -> None:
        start = len(FIVE_MAGIC)
        if packed[:start] != FIVE_MAGIC or len(packed) < start + 24:
            raise ValueError(f"{name}: not a Plyground block file")
        block_size, count, total = struct.unpack_from("<QQQ", packed, start)
        if block_size != FIVE_BLOCK or total != size or count != -(-total // block_size):
            raise ValueError(f"{name}: {total} bytes in {count} blocks of {block_size}, expected {size} in blocks of {FIVE_BLOCK}")
        table_start = start + 24
        self._data_start = table_start + 8 * (count + 1)
        if len(packed) < self._data_start:
            raise ValueError(f"{name}: cut short in its block table")
        self._positions = struct.unpack_from(f"<{count + 1}Q", packed, table_start)
        if self._data_start + self._positions[-1] != len(packed):
            raise ValueError(f"{name}: {len(packed)} bytes, the block table says {self._data_start + self._positions[-1]}")
        self._packed = memoryview(packed)  # slices without copies
        self._name = name
        self._size = size
        self._cache: OrderedDict[int, bytes] = OrderedDict()

    def __getitem__(self, index: int) -> int:
        number, within = divmod(index, FIVE_BLOCK)
        cache = self._cache
        block = cache.get(number)
        if block is None:
            start = self._data_start + self._positions[number]
            try:
                block = zlib.decompress(self._packed[start : self._data_start + self._positions[number + 1]])
            except zlib.error as error:
                raise ValueError(f"{self._name}: block {number} is damaged ({error})") from None
            if len(block) != min(FIVE_BLOCK, self._size - number * FIVE_BLOCK):
                raise ValueError(f"{self._name}: block {number} holds {len(block)} bytes")
            cache[number] = block
            if len(cache) > FIVE_CACHE_BLOCKS:
                cache.popitem(last=False)
        else:
            cache.move_to_end(number)
        return block[within]


def _read_resource(name: str) -> bytes:
    return resources.files(DATABASE_PACKAGE).joinpath(DATABASE_FOLDER, name).read_bytes()


class EndgameDatabase:
    """The tables, read from the package's resources at the first probe that needs them."""

    def __init__(self, data: bytes | None = None, five: bytes | None = None) -> None:
        self._data = data
        self._five = BlockFile(five) if five is not None else None

    def _bytes(self) -> bytes:
        if self._data is None:
            data = lzma.decompress(_read_resource(DATABASE_FILE))
            if len(data) != TOTAL_SIZE:
                raise ValueError(f"{DATABASE_FILE}: {len(data)} bytes, expected {TOTAL_SIZE}")
            self._data = data
        return self._data

    def _blocks(self) -> BlockFile:
        if self._five is None:
            self._five = BlockFile(_read_resource(FIVE_FILE))
        return self._five

    def value_byte(self, black: Bitboard, white: Bitboard, kings: Bitboard, player: int) -> int | None:
        """The raw value byte (0 draw, else 1 + distance; odd distance = the side to move
        wins), or ``None`` when the position is not in the databases (more than five
        pieces, five but not three kings against two, or a side with none)."""
        if not black or not white:
            return None
        pieces = (black | white).bit_count()
        if pieces > DATABASE_PIECES:
            return None
        if pieces == DATABASE_PIECES and not (black == black & kings and black.bit_count() == 3) and not (
            white == white & kings and white.bit_count() == 3
        ):
            return None  # no three kings against two: not generated
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
        if pieces <= FULL_PIECES:
            return self._bytes()[OFFSETS[signature] + index]
        return self._blocks()[FIVE_OFFSETS[signature] + index]

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
