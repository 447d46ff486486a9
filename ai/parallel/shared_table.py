"""A transposition table in shared memory, for Lazy SMP across worker processes.

Every worker of the pool searches the same root and shares what it learns through one table
that lives in shared memory (``ai.parallel.segment``). It implements ``ai.tt.SearchTable``
with the semantics of ``ai.tt.TranspositionTable`` (one entry per slot, indexed by ``key % size``,
verified by the full key; depth-preferred replacement within a search, older generations
always replaceable; ``move=None`` keeps a move already known for the key).

An entry is four unsigned 64-bit words::

    check = key ^ move ^ score ^ meta
    move  = encode_move(move) + 1, or 0 for none        (the game's codec, games.base)
    score = the IEEE-754 bits of the score as a float64  (exact for ints below 2**53,
                                                          Othello's float EVAL, win scores)
    meta  = generation | depth << 16 | bound << 32

There are no locks. Two processes may write one slot at the same time, or one may read a
slot while another writes it, and then the four words can come from different writes. The
lockless scheme of Hyatt and Mann ("A lockless transposition table implementation for
parallel search", ICGA Journal 25(1), 2002) makes such a torn entry harmless: the key is not
stored but ``check``, the XOR of the key with the data words, so an entry whose words do not
belong together gives back a different key and reads as a miss.

Generations and clearing belong to the table's owner (the pool, in the parent process):
``new_search`` on the owner starts a new generation, on a worker it adopts the owner's
current one (every worker of a search calls it), and only the owner may ``clear``, between
searches while the workers are idle, so no worker ever clears the table under the others.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any, Final

from games.base import GameState

from ai.parallel.segment import Segment
from ai.tt import HASHFULL_SAMPLE, BYTES_PER_MEGABYTE, Entry

ENTRY_BYTES: Final = 32
"""Four 64-bit words per entry."""
HEADER_BYTES: Final = 64
"""Word 0: the number of entries; word 1: the current generation; the rest unused."""
DEFAULT_MEGABYTES: Final = 64
GENERATION_MASK: Final = 0xFFFF
"""Generations count 1..65535 and wrap round (0 marks a slot never written)."""
DEPTH_SHIFT: Final = 16
DEPTH_OFFSET: Final = 1 << 15
"""Depths are stored with this added, so that -32768..32767 fit 16 bits (the search stores
1..``SOLVED_DEPTH``)."""
DEPTH_MASK: Final = 0xFFFF
BOUND_SHIFT: Final = 32
MIN_ENTRIES: Final = 1024

_ENTRY = struct.Struct("<4Q")
_HEADER = struct.Struct("<2Q")

MoveEncoder = Callable[[Any], int]
MoveDecoder = Callable[[int], Any]


def _no_codec(_: Any) -> int:
    raise RuntimeError("SharedTable.use_codec(state) must be called before the table holds moves")


def entries_for(megabytes: float) -> int:
    """How many entries a table of ``megabytes`` MB holds."""
    if not megabytes > 0:
        raise ValueError(f"the shared transposition table needs a positive size, not {megabytes} MB")
    return max(MIN_ENTRIES, (int(megabytes * BYTES_PER_MEGABYTE) - HEADER_BYTES) // ENTRY_BYTES)


class SharedTable:
    """The shared-memory ``SearchTable``: ``SharedTable.create(mb)`` in the owner process,
    ``SharedTable.attach(name)`` in each worker, ``use_codec(state)`` before a search."""

    __slots__ = (
        "name",
        "size",
        "generation",
        "is_owner",
        "_memory",
        "_buffer",
        "_scratch",
        "_scratch_float",
        "_scratch_bits",
        "_encode",
        "_decode",
        "_moves",
        "_game",
        "_unpack",
        "_pack",
    )

    def __init__(self, memory: Segment, is_owner: bool) -> None:
        self._memory = memory
        self.name = memory.name
        self.is_owner = is_owner
        self._buffer: memoryview = memory.buffer
        self.size, self.generation = _HEADER.unpack_from(self._buffer, 0)
        scratch = memoryview(bytearray(8))
        self._scratch = scratch
        self._scratch_float = scratch.cast("d")
        self._scratch_bits = scratch.cast("Q")
        """A private word seen as a float and as its bits: the score's conversion, done
        locally so that nothing another process writes can slip into an entry's check."""
        self._encode: MoveEncoder = _no_codec
        self._decode: MoveDecoder = _no_codec
        self._moves: dict[int, Any] = {}
        """Stored code -> decoded move: decoding once per distinct move, not per probe."""
        self._game = ""
        self._unpack = _ENTRY.unpack_from
        self._pack = _ENTRY.pack_into

    # ------------------------------------------------------------- lifetime
    @classmethod
    def create(cls, megabytes: float = DEFAULT_MEGABYTES) -> SharedTable:
        """A new, empty table of about ``megabytes`` MB, owned by the calling process."""
        size = entries_for(megabytes)
        memory = Segment.create(HEADER_BYTES + size * ENTRY_BYTES)
        table = cls(memory, is_owner=True)
        _HEADER.pack_into(table._buffer, 0, size, 1)
        table.size, table.generation = size, 1
        return table

    @classmethod
    def attach(cls, name: str) -> SharedTable:
        """The table ``name`` made by another process (a worker's handle)."""
        return cls(Segment.attach(name), is_owner=False)

    @property
    def megabytes(self) -> float:
        return (HEADER_BYTES + self.size * ENTRY_BYTES) / BYTES_PER_MEGABYTE

    def close(self) -> None:
        """Let go of the memory in this process (idempotent); the owner also frees it."""
        if self._buffer is None:
            return
        self._buffer = None  # type: ignore[assignment]
        self._memory.close()
        if self.is_owner:
            self._memory.unlink()

    # ------------------------------------------------------------ the codec
    def use_codec(self, state: GameState) -> None:
        """Store and return moves of ``state``'s game (its ``encode_move``/``decode_move``)."""
        if state.NAME != self._game:
            self._game = state.NAME
            self._encode = state.encode_move
            self._decode = state.decode_move
            self._moves = {}

    # ------------------------------------------------------------- protocol
    # The two methods below run at every node: constants are written as literals (a global
    # lookup costs as much as the arithmetic), checked against the named ones by the tests.
    def probe(self, key: int) -> Entry | None:
        """``(key, depth, score, bound, move, generation)`` stored for exactly ``key``."""
        check, code, bits, meta = self._unpack(self._buffer, 64 + (key % self.size << 5))
        if check ^ code ^ bits ^ meta != key:
            return None  # another position, an empty slot, or a torn write
        if code:
            move = self._moves.get(code)
            if move is None:
                move = self._moves[code] = self._decode(code - 1)
        else:
            move = None
        self._scratch_bits[0] = bits
        # depth: (meta >> DEPTH_SHIFT & DEPTH_MASK) - DEPTH_OFFSET; bound: meta >> BOUND_SHIFT
        return (key, (meta >> 16 & 0xFFFF) - 32768, self._scratch_float[0], meta >> 32, move, meta & 0xFFFF)

    def store(self, key: int, depth: int, score: float, bound: int, move: Any) -> None:
        """Write an entry unless the slot holds a deeper one of this search; ``move=None``
        keeps the move already stored for ``key``."""
        buffer = self._buffer
        offset = 64 + (key % self.size << 5)
        check, code, bits, meta = self._unpack(buffer, offset)
        generation = self.generation
        depth += 32768  # DEPTH_OFFSET
        if meta & 0xFFFF == generation and meta >> 16 & 0xFFFF > depth:
            return  # depth-preferred: keep the deeper entry of this search
        if move is not None:
            code = self._encode(move) + 1
        elif check ^ code ^ bits ^ meta != key:
            code = 0
        self._scratch_float[0] = score
        bits = self._scratch_bits[0]
        meta = generation | depth << 16 | bound << 32
        self._pack(buffer, offset, key ^ code ^ bits ^ meta, code, bits, meta)

    def new_search(self) -> None:
        """The owner starts a new generation (older entries become replaceable); a worker
        adopts the owner's current generation."""
        if self.is_owner:
            self.generation = self.generation % GENERATION_MASK + 1
            _HEADER.pack_into(self._buffer, 0, self.size, self.generation)
        else:
            self.generation = _HEADER.unpack_from(self._buffer, 0)[1]

    def clear(self) -> None:
        """Forget everything. Only the owner may, while no worker searches."""
        if not self.is_owner:
            raise RuntimeError("only the pool that owns the shared transposition table may clear it")
        buffer = self._buffer
        chunk = bytes(1 << 20)
        for start in range(HEADER_BYTES, len(buffer), len(chunk)):
            end = min(len(buffer), start + len(chunk))
            buffer[start:end] = chunk[: end - start]
        self.generation = 1
        _HEADER.pack_into(buffer, 0, self.size, self.generation)

    def hashfull(self) -> float:
        """Fraction of the first ``HASHFULL_SAMPLE`` slots holding a valid entry of the
        current generation (as UCI engines sample it)."""
        sample = min(HASHFULL_SAMPLE, self.size)
        generation = self.generation
        used = 0
        for check, code, bits, meta in _ENTRY.iter_unpack(
            self._buffer[HEADER_BYTES : HEADER_BYTES + sample * ENTRY_BYTES]
        ):
            if meta & GENERATION_MASK == generation and check ^ code ^ bits ^ meta:
                used += 1
        return used / sample

    def __len__(self) -> int:
        """Entries written since the last clear (any generation); O(size), for tests."""
        return sum(1 for *_, meta in _ENTRY.iter_unpack(self._buffer[HEADER_BYTES:]) if meta)

    def __getstate__(self) -> None:
        raise TypeError("a SharedTable is not pickled: pass its name and SharedTable.attach(name)")
