"""The transposition table: what the search already knows about a position, keyed by Zobrist.

Alpha-beta searches the same position many times: through transpositions (the same position
reached by different move orders) and again at every iteration of iterative deepening. The
table remembers, per position, the depth it was searched to, the score with the kind of
bound it is (Knuth & Moore's fail-soft values: exact, or a lower/upper bound), and the best
move, which is tried first next time (the strongest single move-ordering hint).

Design, chosen so that a shared-memory table (Lazy SMP across worker processes) can later
implement the same small interface (``probe``/``store``/``hashfull``/``clear``/``new_search``):

* a fixed-size array of slots indexed by ``key % size``, each holding one entry verified by
  the full 64-bit key (a different position landing in the slot is a miss, not a wrong hit);
* the size is given in megabytes and turned into a number of entries with an estimate of
  the bytes one entry takes (measured with ``tracemalloc``; see ``ENTRY_BYTES``);
* depth-preferred replacement with aging: an entry of the current search is replaced only by
  one searched at least as deep, while an entry left over from an earlier search (an older
  ``generation``) is always replaced;
* win scores ("mate in N") are stored relative to the node, not the root, with
  ``ai.scores.to_tt``/``from_tt``, so an entry stays right at whatever ply it is found again.
"""

from __future__ import annotations

import enum
import sys
from typing import Any, Final, Protocol, runtime_checkable


class Bound(enum.IntEnum):
    """What a fail-soft score is (Knuth & Moore 1975): the table stores it with each score,
    and an ``Iteration`` event says it of the root's (an aspiration fail is a bound). An
    ``int`` so that a shared-memory table packs it into its entry word as it is."""

    EXACT = 0
    """The score is the node's exact value (it fell inside the window)."""
    LOWER = 1
    """The score is a lower bound (the node failed high: some move reached beta)."""
    UPPER = 2
    """The score is an upper bound (the node failed low: no move reached alpha)."""

    @property
    def word(self) -> str:
        """``exact``, ``lower`` or ``upper``: UCI's ``lowerbound``/``upperbound`` without the
        suffix."""
        return self.name.lower()

    def __str__(self) -> str:
        return self.word

    def __format__(self, spec: str) -> str:
        return format(self.word, spec)


EXACT: Final = Bound.EXACT
LOWER: Final = Bound.LOWER
UPPER: Final = Bound.UPPER
"""Short names of the three bounds (the node compares entries with them)."""

Entry = tuple[int, int, float, int, Any, int]
"""``(key, depth, score, bound, move, generation)``: a plain tuple because creating and
unpacking one is the cheapest thing Python can do per node (named tuples cost a Python-level
``__new__``). Callers unpack it: ``key, depth, score, bound, move, generation = entry``."""

SLOT_BYTES: Final = 8
"""The list's pointer to the entry."""
TUPLE_BYTES: Final = 96
"""A 6-item tuple: ``sys.getsizeof`` says 88, rounded up to pymalloc's 16-byte classes."""
KEY_BYTES: Final = 48
"""A 64-bit Python int (36 bytes, rounded up)."""
SCORE_BYTES: Final = 32
"""A float or a large int."""
ENTRY_BYTES: Final = SLOT_BYTES + TUPLE_BYTES + KEY_BYTES + SCORE_BYTES
"""Bytes per filled entry, without its move. Depth, bound and generation are small ints that
Python shares. Measured: 155 bytes per entry for int moves and scores, so this is a safe
estimate."""
SMALL_INT_RANGE: Final = range(-5, 257)
"""Ints CPython keeps one shared object of: a move that is one of them costs nothing."""
MIN_ENTRIES: Final = 1024
"""Even a tiny table has this many slots (the ``hashfull`` sample is 1000)."""
HASHFULL_SAMPLE: Final = 1000
"""Slots sampled by ``hashfull`` (as UCI engines do: the first thousand)."""
BYTES_PER_MEGABYTE: Final = 1 << 20


def estimate_move_bytes(move: Any) -> int:
    """Bytes one stored move keeps alive: 0 for a small int (Othello squares, tic-tac-toe),
    the object and its attribute dict otherwise (a ``chess.Move`` is about 160)."""
    if move is None or (type(move) is int and move in SMALL_INT_RANGE):
        return 0
    size = sys.getsizeof(move)
    attributes = getattr(move, "__dict__", None)
    if attributes is not None:
        size += sys.getsizeof(attributes)
    if isinstance(move, tuple):
        size += sum(estimate_move_bytes(part) for part in move)
    return size


@runtime_checkable
class SearchTable(Protocol):
    """What the search needs of a transposition table, and all it may use.

    ``TranspositionTable`` below is the in-process one; the worker pool's table in shared
    memory (Lazy SMP) will be another. A table put into ``SearchContext.shared[TT_KEY]``
    by its owner is used as it is; the search only makes a ``TranspositionTable`` when
    there is none (or when its own one has the wrong size).
    """

    def probe(self, key: int) -> Entry | None:
        """``(key, depth, score, bound, move, generation)`` stored for exactly ``key``."""
        ...

    def store(self, key: int, depth: int, score: float, bound: int, move: Any) -> None:
        """Remember a result (``move`` ``None`` keeps a move already known for ``key``)."""
        ...

    def new_search(self) -> None:
        """A new search begins: entries of earlier ones become replaceable."""
        ...

    def clear(self) -> None:
        """Forget everything."""
        ...

    def hashfull(self) -> float:
        """Fraction (0..1) of the table in use by the current search."""
        ...


class TranspositionTable:
    """A fixed number of slots, one entry each, indexed by ``key % size``.

    ``probe`` returns the entry stored for exactly this key, or ``None``. ``store`` writes an
    entry unless the slot holds a deeper one from the same search. Scores are stored as
    given: the caller converts win scores with ``ai.scores.to_tt`` before storing and
    ``from_tt`` after probing.
    """

    __slots__ = ("megabytes", "size", "slots", "generation", "entry_bytes")

    def __init__(self, megabytes: float, move_bytes: int = 0) -> None:
        """A table using about ``megabytes`` MB when full, for moves that each keep
        ``move_bytes`` bytes alive (see ``estimate_move_bytes``)."""
        if megabytes <= 0:
            raise ValueError(f"the transposition table needs a positive size, not {megabytes} MB")
        self.megabytes = megabytes
        self.entry_bytes = ENTRY_BYTES + move_bytes
        self.size = max(MIN_ENTRIES, int(megabytes * BYTES_PER_MEGABYTE) // self.entry_bytes)
        self.slots: list[Entry | None] = [None] * self.size
        self.generation = 0

    def probe(self, key: int) -> Entry | None:
        """The entry of the position with Zobrist ``key``, or ``None``."""
        entry = self.slots[key % self.size]
        if entry is not None and entry[0] == key:
            return entry
        return None

    def store(self, key: int, depth: int, score: float, bound: int, move: Any) -> None:
        """Remember a search result; ``move`` may be ``None`` (then a move already known for
        this position is kept, so a fail-low re-search does not forget the hash move)."""
        index = key % self.size
        slots = self.slots
        old = slots[index]
        if old is not None and old[5] == self.generation and old[1] > depth:
            return  # depth-preferred: keep the deeper entry of this search
        if move is None and old is not None and old[0] == key:
            move = old[4]
        slots[index] = (key, depth, score, bound, move, self.generation)

    def new_search(self) -> None:
        """Start a new search: older entries become replaceable whatever their depth."""
        self.generation += 1

    def clear(self) -> None:
        """Forget everything (UCI ``ucinewgame``)."""
        self.slots = [None] * self.size
        self.generation = 0

    def release(self) -> None:
        """Give the slots' memory back now, keeping a one-slot table that still works. For
        a table no later search will see: the finished search's node functions refer to
        themselves (a recursive closure), so the table they hold lives on until the next
        full garbage collection, which in a long-lived process may be thousands of
        searches away."""
        self.size = 1
        self.slots = [None]

    def hashfull(self) -> float:
        """Fraction (0..1) of slots holding an entry of the current search, sampled over the
        first ``HASHFULL_SAMPLE`` slots as UCI engines do."""
        sample = min(HASHFULL_SAMPLE, self.size)
        generation = self.generation
        used = 0
        for entry in self.slots[:sample]:
            if entry is not None and entry[5] == generation:
                used += 1
        return used / sample

    def __len__(self) -> int:
        """Number of filled slots (any generation); O(size), for tests and displays."""
        return self.size - self.slots.count(None)
