"""What a probe or a store of the shared-memory table costs from pure Python.

Run: ``.venv/bin/python -m bench.shared_table``.

Prints nanoseconds per call (best of several repeats, loop overhead taken off) for
``ai.parallel.SharedTable`` against the in-process ``ai.tt.TranspositionTable``: a probe that
hits (decoding the move), one that misses, a store of a chess move. Then the ways of reading
one 4-word entry out of shared memory that were weighed for the table: four memoryview
indexings of a ``'Q'`` cast, one slice of it, and one ``struct.unpack_from`` (the table uses
the last). The machine may be shared with other jobs: compare within one run.
"""

from __future__ import annotations

import random
import struct
import timeit
from collections.abc import Callable
from multiprocessing import shared_memory


import games
from ai.parallel import SharedTable
from ai.tt import EXACT, TranspositionTable, estimate_move_bytes

KEYS = 1000
REPEATS = 7
LOOPS = 200


def nanoseconds(loop: Callable[[], None], empty: Callable[[], None]) -> float:
    """Per-key cost of ``loop`` over ``KEYS`` keys, minus that of an empty loop."""
    best = min(timeit.repeat(loop, number=LOOPS, repeat=REPEATS))
    base = min(timeit.repeat(empty, number=LOOPS, repeat=REPEATS))
    return (best - base) / LOOPS / KEYS * 1e9


def tables() -> None:
    rng = random.Random(1)
    state = games.new_game("chess")
    moves = state.legal_moves()
    shared = SharedTable.create(16)
    shared.use_codec(state)
    local = TranspositionTable(16, estimate_move_bytes(moves[0]))
    keys = [rng.getrandbits(64) for _ in range(KEYS)]
    print(f"{'ns per call':<22}{'shared':>8}{'local':>8}")
    try:
        for table in (shared, local):
            table.new_search()
        rows: dict[str, list[float]] = {"store (chess move)": [], "probe, hit": [], "probe, miss": []}
        for table in (shared, local):
            probe, store = table.probe, table.store

            def stores() -> None:
                for index, key in enumerate(keys):
                    store(key, 5, 35, EXACT, moves[index % 20])

            def hits() -> None:
                for key in keys:
                    probe(key)

            def misses() -> None:
                for key in keys:
                    probe(key ^ 1)

            def empty() -> None:
                for _index, _key in enumerate(keys):
                    pass

            rows["store (chess move)"].append(nanoseconds(stores, empty))
            rows["probe, hit"].append(nanoseconds(hits, empty))
            rows["probe, miss"].append(nanoseconds(misses, empty))
        for name, (shared_ns, local_ns) in rows.items():
            print(f"{name:<22}{shared_ns:>8.0f}{local_ns:>8.0f}")
    finally:
        shared.close()


def raw_reads() -> None:
    size = 1 << 16
    memory = shared_memory.SharedMemory(create=True, size=size * 32)
    words = memory.buf.cast("Q")
    entry = struct.Struct("<4Q")
    unpack, buffer = entry.unpack_from, memory.buf
    rng = random.Random(2)
    keys = [rng.getrandbits(64) for _ in range(KEYS)]

    def indexed() -> None:
        for key in keys:
            base = (key % size) << 2
            if words[base] ^ words[base + 1] ^ words[base + 2] ^ words[base + 3] == key:
                pass

    def sliced() -> None:
        for key in keys:
            base = (key % size) << 2
            check, move, score, meta = words[base : base + 4]
            if check ^ move ^ score ^ meta == key:
                pass

    def unpacked() -> None:
        for key in keys:
            check, move, score, meta = unpack(buffer, (key % size) << 5)
            if check ^ move ^ score ^ meta == key:
                pass

    def empty() -> None:
        for _key in keys:
            pass

    print("\nreading one entry and checking its key, ns:")
    try:
        for name, loop in (("4 x memoryview[i]", indexed), ("memoryview slice", sliced), ("struct.unpack_from", unpacked)):
            print(f"  {name:<20}{nanoseconds(loop, empty):>6.0f}")
    finally:
        del indexed, sliced, unpacked, unpack, buffer
        words.release()
        memory.close()
        memory.unlink()


if __name__ == "__main__":
    tables()
    raw_reads()
