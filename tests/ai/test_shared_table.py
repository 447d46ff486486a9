"""The shared-memory transposition table: same behaviour as the in-process one, every game's
moves through the codec, torn writes read as misses, and processes see each other's work."""

from __future__ import annotations

import dis
import math
import multiprocessing
import random
from multiprocessing import shared_memory

import pytest

import games
from ai.parallel import shared_table
from ai.parallel.shared_table import SharedTable
from ai.scores import WIN_SCORE
from ai.tt import EXACT, LOWER, UPPER, SearchTable, TranspositionTable
from tests.games.playout import random_playout
from tests.games.test_move_codec import every_move


@pytest.fixture
def table() -> SharedTable:
    made = SharedTable.create(1)
    made.use_codec(games.new_game("othello"))
    made.new_search()
    yield made
    made.close()


def keys_in_slot(size: int, slot: int, count: int, seed: int = 1) -> list[int]:
    generator = random.Random(seed)
    return [slot + generator.getrandbits(30) * size for _ in range(count)]


def test_it_is_a_search_table_and_frees_its_memory_on_close() -> None:
    table = SharedTable.create(2)
    assert isinstance(table, SearchTable)
    assert 2 * (1 << 20) - shared_table.ENTRY_BYTES < table.megabytes * (1 << 20) <= 2 * (1 << 20)
    name = table.name
    table.close()
    table.close()  # idempotent
    with pytest.raises(FileNotFoundError):
        shared_memory.SharedMemory(name=name)


@pytest.mark.parametrize("megabytes", [0, -1, math.nan])
def test_a_size_that_is_not_positive_is_refused(megabytes: float) -> None:
    with pytest.raises(ValueError, match="positive size"):
        SharedTable.create(megabytes)


def test_the_hot_path_literals_are_the_named_constants() -> None:
    """``probe``/``store`` spell the layout as literals for speed: they must agree."""
    literals = {
        instruction.argval
        for method in (SharedTable.probe, SharedTable.store)
        for instruction in dis.get_instructions(method)
        if instruction.opname == "LOAD_CONST" and type(instruction.argval) is int
    }
    assert shared_table.HEADER_BYTES in literals and shared_table.ENTRY_BYTES == 1 << 5
    assert {shared_table.GENERATION_MASK, shared_table.DEPTH_OFFSET} <= literals
    assert {shared_table.DEPTH_SHIFT, shared_table.BOUND_SHIFT} <= literals
    assert shared_table.DEPTH_MASK == shared_table.GENERATION_MASK


@pytest.mark.parametrize("name", games.GAME_NAMES)
def test_entries_with_every_games_moves_round_trip(name: str) -> None:
    """Moves of random games (chance outcomes too), float and win scores, every bound."""
    rng = random.Random(7)
    table = SharedTable.create(4)
    try:
        table.use_codec(games.new_game(name))
        table.new_search()
        stored = {}
        states = (state for _ in range(4) for state in random_playout(games.new_game(name), rng))
        for state in states:
            moves = every_move(state)
            if not moves:
                continue
            key = len(stored) + rng.getrandbits(40) * table.size  # a slot of its own
            entry = (
                key,
                rng.randint(1, 60),
                rng.choice([rng.uniform(-500, 500), rng.randint(-3000, 3000), WIN_SCORE - 7, -WIN_SCORE + 3]),
                rng.choice([EXACT, LOWER, UPPER]),
                rng.choice(moves),
            )
            table.store(*entry)
            stored[key] = entry
        assert len(stored) > 10
        for key, entry in stored.items():
            found = table.probe(key)
            assert found is not None and found[:5] == entry, (name, entry, found)
            assert type(found[2]) is float and found[5] == table.generation
    finally:
        table.close()


def test_it_behaves_like_the_in_process_table() -> None:
    """Random stores (deeper and shallower, fresh and known moves, new searches) on a few
    slots of both tables: every probe gives the same entry."""
    rng = random.Random(3)
    reference = TranspositionTable(1)
    table = SharedTable.create(1)
    table.use_codec(games.new_game("othello"))
    try:
        step = math.lcm(reference.size, table.size)
        keys = [slot + multiple * step for slot in (5, 9) for multiple in range(1, 5)]
        for _ in range(3000):
            action = rng.random()
            if action < 0.02:
                reference.new_search()
                table.new_search()
            else:
                arguments = (
                    rng.choice(keys),
                    rng.randint(1, 12),
                    rng.uniform(-100, 100),
                    rng.choice([EXACT, LOWER, UPPER]),
                    rng.choice([None, rng.randrange(65)]),
                )
                reference.store(*arguments)
                table.store(*arguments)
            for key in keys:
                expected, found = reference.probe(key), table.probe(key)
                assert (expected is None) == (found is None), (key, expected, found)
                if expected is not None and found is not None:
                    assert expected[:5] == found[:5]
    finally:
        table.close()


def test_depth_preferred_within_a_search_and_older_searches_replaceable(table: SharedTable) -> None:
    deep, shallow, later = keys_in_slot(table.size, 11, 3)
    table.store(deep, 8, 1.0, EXACT, 19)
    table.store(shallow, 2, 2.0, EXACT, 20)
    assert table.probe(deep) is not None and table.probe(shallow) is None
    table.new_search()
    table.store(later, 1, 3.0, UPPER, None)
    assert table.probe(deep) is None
    assert table.probe(later) == (later, 1, 3.0, UPPER, None, table.generation)


def test_a_store_without_a_move_keeps_the_known_one(table: SharedTable) -> None:
    table.store(99, 3, 5.0, LOWER, 37)
    table.store(99, 4, -2.5, UPPER, None)
    assert table.probe(99) == (99, 4, -2.5, UPPER, 37, table.generation)


def test_a_torn_entry_reads_as_a_miss(table: SharedTable) -> None:
    """Words of two different writes in one slot (what a race leaves) never make a hit."""
    first, second = keys_in_slot(table.size, 4, 2)
    table.store(first, 3, 1.5, EXACT, 10)
    offset = shared_table.HEADER_BYTES + 4 * shared_table.ENTRY_BYTES
    words_of_first = bytes(table._buffer[offset : offset + shared_table.ENTRY_BYTES])
    table.store(second, 5, -7.0, LOWER, 11)
    torn = bytearray(table._buffer[offset : offset + shared_table.ENTRY_BYTES])
    torn[8:16] = words_of_first[8:16]  # the move word of the first write, the rest of the second
    table._buffer[offset : offset + shared_table.ENTRY_BYTES] = torn
    assert table.probe(first) is None and table.probe(second) is None


def test_clear_and_hashfull(table: SharedTable) -> None:
    for key in range(1, 401):  # slots 1..400 of the 1000 sampled
        table.store(key, 1, 0.0, EXACT, None)
    assert table.hashfull() == pytest.approx(0.4)
    table.new_search()
    assert table.hashfull() == 0.0
    assert len(table) == 400
    table.clear()
    assert len(table) == 0 and table.probe(5) is None


def _store_in_child(name: str, key: int, ready: multiprocessing.synchronize.Event) -> None:
    other = SharedTable.attach(name)
    other.use_codec(games.new_game("chess"))
    other.new_search()
    entry = other.probe(key)
    assert entry is not None  # the parent's store
    other.store(key + 1, 6, -WIN_SCORE + 9, LOWER, entry[4])
    other.close()
    ready.set()


def test_two_processes_see_each_others_stores() -> None:
    context = multiprocessing.get_context("spawn")
    table = SharedTable.create(1)
    chess = games.new_game("chess")
    table.use_codec(chess)
    table.new_search()
    move = chess.parse_move("Nf3")
    try:
        table.store(1000, 4, 12.0, EXACT, move)
        ready = context.Event()
        child = context.Process(target=_store_in_child, args=(table.name, 1000, ready))
        child.start()
        child.join(30)
        assert child.exitcode == 0 and ready.is_set()
        assert table.probe(1001) == (1001, 6, float(-WIN_SCORE + 9), LOWER, move, table.generation)
    finally:
        table.close()


def test_only_the_owner_clears_and_starts_generations(table: SharedTable) -> None:
    handle = SharedTable.attach(table.name)
    try:
        table.new_search()
        handle.new_search()
        assert handle.generation == table.generation
        with pytest.raises(RuntimeError, match="only the pool"):
            handle.clear()
    finally:
        handle.close()
    still_there = shared_memory.SharedMemory(name=table.name)  # the owner's table lives on
    still_there.close()


def test_it_is_never_pickled(table: SharedTable) -> None:
    import pickle

    with pytest.raises(TypeError, match="attach"):
        pickle.dumps(table)
