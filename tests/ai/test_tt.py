"""The transposition table: store/probe, bounds, replacement, mate-score adjustment, size."""

from __future__ import annotations

import gc
import random
import tracemalloc

import pytest

from games import new_game

from ai.engine import search
from ai.scores import WIN_SCORE, from_tt, to_tt
from ai.settings import Limits, SearchSettings
from ai.tt import (
    ENTRY_BYTES,
    EXACT,
    HASHFULL_SAMPLE,
    LOWER,
    MIN_ENTRIES,
    UPPER,
    TranspositionTable,
    estimate_move_bytes,
)

MEGABYTE = 1 << 20


def keys_in_slot(table: TranspositionTable, slot: int, count: int, seed: int = 1) -> list[int]:
    """``count`` distinct 64-bit keys that all land in ``slot``."""
    generator = random.Random(seed)
    return [generator.getrandbits(40) * table.size + slot for _ in range(count)]


def test_store_then_probe_returns_the_entry() -> None:
    table = TranspositionTable(1)
    key = 0x1234_5678_9ABC_DEF0
    table.store(key, 5, 42.5, EXACT, "e4")
    stored_key, depth, score, bound, move, _generation = table.probe(key)  # type: ignore[misc]
    assert (stored_key, depth, score, bound, move) == (key, 5, 42.5, EXACT, "e4")


def test_probe_of_unknown_key_misses() -> None:
    table = TranspositionTable(1)
    assert table.probe(99) is None


def test_other_key_in_the_same_slot_is_a_miss_not_a_wrong_hit() -> None:
    table = TranspositionTable(1)
    first, second = keys_in_slot(table, 7, 2)
    table.store(first, 3, 10, LOWER, 1)
    assert table.probe(second) is None
    assert table.probe(first) is not None


@pytest.mark.parametrize("bound", [EXACT, LOWER, UPPER])
def test_each_bound_kind_is_kept(bound: int) -> None:
    table = TranspositionTable(1)
    table.store(12345, 2, -7, bound, None)
    entry = table.probe(12345)
    assert entry is not None and entry[3] == bound


def test_deeper_entry_of_the_same_search_is_kept() -> None:
    table = TranspositionTable(1)
    deep, shallow = keys_in_slot(table, 3, 2)
    table.store(deep, 8, 1, EXACT, "deep")
    table.store(shallow, 2, 2, EXACT, "shallow")
    assert table.probe(deep) is not None
    assert table.probe(shallow) is None


def test_equal_or_deeper_entry_replaces() -> None:
    table = TranspositionTable(1)
    old, new = keys_in_slot(table, 3, 2)
    table.store(old, 4, 1, EXACT, "old")
    table.store(new, 4, 2, EXACT, "new")
    assert table.probe(old) is None
    assert table.probe(new) is not None


def test_entries_of_an_older_search_are_replaced_whatever_their_depth() -> None:
    table = TranspositionTable(1)
    old, new = keys_in_slot(table, 5, 2)
    table.store(old, 20, 1, EXACT, "old")
    table.new_search()
    table.store(new, 1, 2, UPPER, "new")
    assert table.probe(old) is None
    assert table.probe(new) is not None


def test_storing_without_a_move_keeps_the_known_move() -> None:
    table = TranspositionTable(1)
    table.store(777, 3, 5, LOWER, "Nf3")
    table.store(777, 4, 1, UPPER, None)
    entry = table.probe(777)
    assert entry is not None
    assert entry[1] == 4 and entry[3] == UPPER and entry[4] == "Nf3"


def test_clear_forgets_everything() -> None:
    table = TranspositionTable(1)
    table.store(1, 1, 1, EXACT, None)
    table.clear()
    assert table.probe(1) is None
    assert len(table) == 0


@pytest.mark.parametrize("ply", [0, 1, 7, 30])
def test_win_scores_are_stored_relative_to_the_node(ply: int) -> None:
    """A mate found 3 plies below a node at ``ply`` is WIN - (ply + 3) from the root; stored
    it reads "win in 3 from here", and found again at another ply it is right there."""
    win_at_root_scale = WIN_SCORE - (ply + 3)
    stored = to_tt(win_at_root_scale, ply)
    assert stored == WIN_SCORE - 3
    for other_ply in (0, 2, 11):
        assert from_tt(stored, other_ply) == WIN_SCORE - (other_ply + 3)
    loss = -(WIN_SCORE - (ply + 4))
    assert from_tt(to_tt(loss, ply), 2) == -(WIN_SCORE - 6)
    assert from_tt(to_tt(123.0, ply), 5) == 123.0


def test_size_in_megabytes_sets_the_number_of_slots() -> None:
    assert TranspositionTable(1).size == MEGABYTE // ENTRY_BYTES
    assert TranspositionTable(4).size == 4 * MEGABYTE // ENTRY_BYTES
    assert TranspositionTable(0.001).size == MIN_ENTRIES
    chess_like = TranspositionTable(1, move_bytes=160)
    assert chess_like.size == MEGABYTE // (ENTRY_BYTES + 160)
    with pytest.raises(ValueError):
        TranspositionTable(0)


def test_a_full_table_stays_within_its_megabytes() -> None:
    """Fill every slot with realistic entries (64-bit keys, large scores) and measure."""
    megabytes = 2
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        table = TranspositionTable(megabytes)
        generator = random.Random(3)
        for slot in range(table.size):
            key = generator.getrandbits(48) * table.size + slot
            table.store(key, generator.randrange(30), generator.randrange(-30_000, 30_000) + 0.5, EXACT, slot % 64)
        used = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(table) == table.size
    assert used <= megabytes * MEGABYTE
    assert used >= 0.6 * megabytes * MEGABYTE  # the estimate is not wildly pessimistic


def test_move_size_estimate() -> None:
    assert estimate_move_bytes(12) == 0
    assert estimate_move_bytes(None) == 0
    assert estimate_move_bytes(10**30) > 0
    assert estimate_move_bytes((1, 2, 10**30)) > estimate_move_bytes(10**30)


def test_hashfull_counts_entries_of_the_current_search() -> None:
    table = TranspositionTable(0.001)  # MIN_ENTRIES slots; the sample is the first 1000
    assert table.hashfull() == 0.0
    for slot in range(HASHFULL_SAMPLE // 4):
        table.store(slot, 1, 0, EXACT, None)
    assert table.hashfull() == pytest.approx(0.25)
    table.new_search()
    assert table.hashfull() == 0.0  # old entries are replaceable: not "full"
    for slot in range(HASHFULL_SAMPLE):
        table.store(slot, 1, 0, EXACT, None)
    assert table.hashfull() == 1.0


class DictTable:
    """A table that is not ours: a plain dict, to show the search needs only ``SearchTable``
    (as the worker pool's shared-memory table will)."""

    def __init__(self) -> None:
        self.entries: dict[int, tuple] = {}  # type: ignore[type-arg]
        self.generation = 0
        self.stores = 0

    def probe(self, key: int):  # type: ignore[no-untyped-def]
        return self.entries.get(key)

    def store(self, key: int, depth: int, score: float, bound: int, move: object) -> None:
        self.stores += 1
        old = self.entries.get(key)
        if old is not None and old[5] == self.generation and old[1] > depth:
            return
        if move is None and old is not None:
            move = old[4]
        self.entries[key] = (key, depth, score, bound, move, self.generation)

    def new_search(self) -> None:
        self.generation += 1

    def clear(self) -> None:
        self.entries.clear()

    def hashfull(self) -> float:
        return min(1.0, len(self.entries) / 1000)


@pytest.mark.parametrize(("game", "depth"), [("tictactoe", 9), ("othello", 5), ("chess", 3)])
def test_the_search_runs_on_any_search_table(game: str, depth: int) -> None:
    from ai.engine import search
    from ai.search.common import TT_KEY
    from ai.settings import Limits, SearchSettings
    from ai.tt import SearchTable
    from games import new_game

    own = DictTable()
    assert isinstance(own, SearchTable)
    settings = SearchSettings(algorithm="alphabeta", quiescence=False, book=False)
    builtin = search(new_game(game), settings, Limits(depth=depth), shared={})
    shared: dict[str, object] = {TT_KEY: own}
    answer = search(new_game(game), settings, Limits(depth=depth), shared=shared)
    assert shared[TT_KEY] is own and own.stores > 0
    assert answer.score == builtin.score


def test_something_else_in_the_table_slot_is_refused() -> None:
    from ai.engine import search
    from ai.search.common import TT_KEY
    from games import new_game

    with pytest.raises(TypeError, match="not a SearchTable"):
        search(new_game("tictactoe"), shared={TT_KEY: object()})


def test_a_search_with_its_own_table_leaves_no_full_table_behind() -> None:
    """``ai.engine.search`` without a ``shared`` dict makes a table nobody can use again; the
    finished search's recursive node functions would keep it alive until a full garbage
    collection (a test searching every tic-tac-toe position grew by 400 MB that way)."""
    gc.collect()
    gc.disable()  # nothing may be freed by the collector: only what the search itself frees
    try:
        before = {id(table) for table in gc.get_objects() if isinstance(table, TranspositionTable)}
        search(new_game("tictactoe"), SearchSettings(algorithm="alphabeta"), Limits(depth=3))
        made = [table.size for table in gc.get_objects() if isinstance(table, TranspositionTable) and id(table) not in before]
    finally:
        gc.enable()
    assert made == [1], f"tables the search made, by size: {made}"


def test_a_released_table_still_answers_and_stores() -> None:
    table = TranspositionTable(1)
    table.store(12345, 3, 1.5, EXACT, "a")
    table.release()
    assert table.size == 1
    table.store(99, 2, 0.5, EXACT, "b")
    assert table.probe(99) is not None and table.probe(99)[4] == "b"
    table.clear()
    assert table.probe(99) is None
