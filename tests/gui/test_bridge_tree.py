"""EngineBridge and the recorded tree: who records, every batch delivered in order (in
slices) and taken into ``bridge.tree``, the answer after the last batch, nothing of a
stopped search, hostile options refused."""

from __future__ import annotations

import dataclasses
import gc
import weakref
from collections.abc import Iterator

import pytest
from pytestqt.qtbot import QtBot

from ai.events import Finished, Score
from ai.settings import SearchRequest, SearchSettings, SettingError
from ai.tree.model import SearchTree, TreeBatch, TreeOptions
from games import new_game
from gui.engine_bridge import TREE_SLICE_ENTRIES, EngineBridge
from gui.players import COMPUTER, HUMAN, PlayerConfig
from gui.session import GameSession
from tests.ai.test_tree_pool import ShareRecorder, position, split_search
from tests.gui.engine_doubles import ScriptedPool


@pytest.fixture
def scripted() -> Iterator[tuple[ScriptedPool, EngineBridge]]:
    pool = ScriptedPool()
    bridge = EngineBridge(pool)
    yield pool, bridge
    bridge.shutdown()


def submitted(qtbot: QtBot, pool: ScriptedPool, count: int) -> int:
    qtbot.waitUntil(lambda: len(pool.searches) >= count, timeout=2000)
    return sorted(pool.searches)[count - 1]


def finished(search_id: int, nodes: int) -> Finished:
    return Finished(search_id, 1, Score(0.0), (1,), 9, 9, nodes, 1e3, 1.0)


def stamped(batches: list[TreeBatch], search_id: int) -> list[TreeBatch]:
    return [dataclasses.replace(batch, search_id=search_id) for batch in batches]


def test_record_tree_decides_what_the_next_search_records(qtbot: QtBot, scripted: tuple[ScriptedPool, EngineBridge]) -> None:
    pool, bridge = scripted
    assert bridge.record_tree is None
    bridge.start_search(position())
    submitted(qtbot, pool, 1)
    assert pool.requests[-1].tree is None and bridge.tree is None
    options = TreeOptions(cap=5000)
    bridge.record_tree = options
    with qtbot.waitSignal(bridge.tree_started, timeout=1000) as started:
        bridge.start_search(position())
    assert isinstance(started.args[0], SearchTree) and started.args[0] is bridge.tree and len(bridge.tree) == 0
    submitted(qtbot, pool, 2)
    assert pool.requests[-1].tree == options
    assert bridge.search_info is not None and bridge.search_info.tree == options
    own = TreeOptions(cap=7)
    bridge.start_search(SearchRequest("tictactoe", tree=own))  # a request's own options come first
    submitted(qtbot, pool, 3)
    assert pool.requests[-1].tree == own
    bridge.record_tree = None
    bridge.start_search(position(), tree=own)  # and the call's
    submitted(qtbot, pool, 4)
    assert pool.requests[-1].tree == own


@pytest.mark.parametrize("options", [TreeOptions(cap=0), TreeOptions(batch_seconds=float("nan")), "on"])
def test_hostile_recording_options_are_refused(scripted: tuple[ScriptedPool, EngineBridge], options: object) -> None:
    _, bridge = scripted
    with pytest.raises(SettingError):
        bridge.record_tree = options  # type: ignore[assignment]
    assert bridge.record_tree is None


def test_every_batch_arrives_in_order_in_slices_before_the_answer(qtbot: QtBot, scripted: tuple[ScriptedPool, EngineBridge]) -> None:
    pool, bridge = scripted
    bridge.record_tree = TreeOptions()
    order: list[str] = []
    received: list[TreeBatch] = []
    bridge.tree_batch_received.connect(received.append)
    bridge.tree_batch_received.connect(lambda _batch: order.append("tree"))
    bridge.search_finished.connect(lambda _answer: order.append("finished"))
    search_id = bridge.start_search(position())
    pool_id = submitted(qtbot, pool, 1)
    streams, counts = split_search(2)
    batches = [dataclasses.replace(batch, search_id=pool_id) for stream in streams for batch in stream]
    big = ShareRecorder(position(), position().legal_moves())
    big.search(iteration=1)
    big.flush(complete=True)
    merged = TreeBatch(  # one batch of the whole search, as a slow receiver might get it
        pool_id,
        passes=tuple(p for b in big.batches for p in b.passes),
        entries=tuple(e for b in big.batches for e in b.entries),
        exits=tuple(x for b in big.batches for x in b.exits),
        nodes=big.count,
        worker=2,
    )
    assert len(merged.entries) > 2 * TREE_SLICE_ENTRIES
    pool.send(pool_id, [*batches, merged])
    with qtbot.waitSignal(bridge.search_finished, timeout=5000):
        pool.send(pool_id, [TreeBatch(pool_id, complete=True), finished(pool_id, sum(counts) + big.count)])
    assert order[-1] == "finished" and order.count("finished") == 1
    assert all(batch.search_id == search_id for batch in received)
    assert all(len(batch.entries) <= TREE_SLICE_ENTRIES for batch in received)
    assert sum(len(batch.entries) for batch in received) == sum(len(b.entries) for b in batches) + len(merged.entries)
    tree = bridge.tree
    assert tree is not None and tree.complete
    # workers 0 and 1 share a root; worker 2's whole search is a second shared visit of it
    (root,) = tree.roots()
    assert root.visits == 3 and tree.size(root.index) == sum(counts) + big.count == tree.total_nodes()
    assert sorted(child.move for child in tree.children(root.index)) == sorted(position().legal_moves() * 2)


def test_a_stopped_search_delivers_no_more_batches(qtbot: QtBot) -> None:
    pool = ScriptedPool()
    bridge = EngineBridge(pool, interval_ms=300)
    bridge.record_tree = TreeOptions()
    received: list[TreeBatch] = []
    bridge.tree_batch_received.connect(received.append)
    bridge.start_search(position())
    pool_id = submitted(qtbot, pool, 1)
    streams, _ = split_search(1)
    pool.send(pool_id, stamped(streams[0][:3], pool_id)).join()
    qtbot.waitUntil(lambda: len(received) >= 1, timeout=2000)  # the first delivery comes at once
    pool.send(pool_id, stamped(streams[0][3:], pool_id)).join()  # waits for the next delivery
    bridge.stop()
    qtbot.wait(400)
    assert len(received) < len(streams[0])
    before = len(received)
    pool.searches[pool_id].is_cancelled = False  # late news: still dropped
    pool.send(pool_id, stamped(streams[0], pool_id)).join()
    qtbot.wait(400)
    assert len(received) == before
    bridge.shutdown()


def test_an_only_move_answer_closes_an_empty_tree(qtbot: QtBot, scripted: tuple[ScriptedPool, EngineBridge]) -> None:
    pool, bridge = scripted
    bridge.record_tree = TreeOptions()
    state = new_game("tictactoe")
    for move in (0, 1, 2, 4, 3, 5, 7, 6):  # one empty square left
        state.play(move)
    assert len(state.legal_moves()) == 1
    with qtbot.waitSignal(bridge.search_finished, timeout=2000):
        bridge.start_search(state)
    assert bridge.tree is not None and bridge.tree.complete and len(bridge.tree) == 0
    assert not pool.searches


def test_the_sessions_searches_follow_its_recording_switch(qtbot: QtBot, scripted: tuple[ScriptedPool, EngineBridge]) -> None:
    pool, bridge = scripted
    computer = PlayerConfig(kind=COMPUTER, strength="depth", depth=2)
    session = GameSession(bridge, "tictactoe", (computer, PlayerConfig(kind=HUMAN)), seed=1, paused=True)
    options = TreeOptions(cap=1000)
    session.record_tree = options
    assert bridge.record_tree == options and session.record_tree == options
    with qtbot.waitSignal(bridge.tree_started, timeout=2000):
        session.step()  # the computer's move: searched with the tree recorded
    submitted(qtbot, pool, 1)
    assert pool.requests[-1].tree == options
    session.close()


def test_the_workers_set_up_each_game_and_algorithm_before_its_first_search(
    qtbot: QtBot, scripted: tuple[ScriptedPool, EngineBridge]
) -> None:
    pool, bridge = scripted
    for count, algorithm in enumerate(("pvs", "pvs", "mcts", "pvs"), start=1):
        bridge.start_search(SearchRequest("tictactoe", settings=SearchSettings(algorithm=algorithm)))
        submitted(qtbot, pool, count)
    bridge.start_search(SearchRequest("chess", settings=SearchSettings(algorithm="pvs")))
    submitted(qtbot, pool, 5)
    assert pool.warmed == [("tictactoe", "pvs"), ("tictactoe", "mcts"), ("chess", "pvs")]


class Cycle:
    """Garbage only the cycle collector frees."""

    def __init__(self) -> None:
        self.me = self


def test_the_collector_is_held_off_only_while_the_tree_grows(qtbot: QtBot, scripted: tuple[ScriptedPool, EngineBridge]) -> None:
    pool, bridge = scripted
    bridge.record_tree = TreeOptions()
    received: list[TreeBatch] = []
    bridge.tree_batch_received.connect(received.append)
    bridge.start_search(position())
    pool_id = submitted(qtbot, pool, 1)
    (stream,), (count,) = split_search(1)
    batches = stamped(stream, pool_id)
    pool.send(pool_id, batches[:5]).join()
    qtbot.waitUntil(lambda: len(received) >= 5, timeout=2000)
    assert gc.get_freeze_count() > 0  # growing: the tree is out of the collector's sight
    made = Cycle()
    garbage = weakref.ref(made)
    del made  # a cycle made mid-search, frozen at the next growing turn
    pool.send(pool_id, batches[5:]).join()
    qtbot.waitUntil(lambda: len(received) >= len(batches), timeout=5000)
    with qtbot.waitSignal(bridge.search_finished, timeout=2000):
        pool.send(pool_id, [TreeBatch(pool_id, complete=True), finished(pool_id, count)])
    assert gc.get_freeze_count() == 0
    gc.collect()
    assert garbage() is None  # handed back and collected once the search ended
    assert bridge.tree is not None and bridge.tree.total_nodes() == count


def test_a_tree_that_stops_growing_lets_the_collector_go(qtbot: QtBot, scripted: tuple[ScriptedPool, EngineBridge]) -> None:
    pool, bridge = scripted
    bridge.record_tree = TreeOptions()
    received: list[TreeBatch] = []
    bridge.tree_batch_received.connect(received.append)
    bridge.start_search(position())
    pool_id = submitted(qtbot, pool, 1)
    (stream,), _ = split_search(1)
    entered = TreeBatch(pool_id, passes=stream[0].passes, entries=stream[0].entries)
    pool.send(pool_id, [entered]).join()
    qtbot.waitUntil(lambda: len(received) == 1, timeout=2000)
    assert gc.get_freeze_count() > 0
    pool.send(pool_id, [TreeBatch(pool_id, exits=stream[0].exits, sampled=True)]).join()  # past the cap: exits only
    qtbot.waitUntil(lambda: len(received) == 2, timeout=2000)
    assert gc.get_freeze_count() == 0 and bridge.is_searching
    bridge.stop()


def test_a_stopped_search_says_its_tree_will_grow_no_more(qtbot: QtBot, scripted: tuple[ScriptedPool, EngineBridge]) -> None:
    pool, bridge = scripted
    bridge.record_tree = TreeOptions()
    cancelled: list[SearchTree] = []
    bridge.tree_cancelled.connect(cancelled.append)
    received: list[TreeBatch] = []
    bridge.tree_batch_received.connect(received.append)
    bridge.start_search(position())
    pool_id = submitted(qtbot, pool, 1)
    first = bridge.tree
    (stream,), _ = split_search(1)
    pool.send(pool_id, stamped(stream[:2], pool_id)).join()
    qtbot.waitUntil(lambda: len(received) >= 1, timeout=2000)
    bridge.start_search(position())  # a new search replaces it
    assert cancelled == [first] and first is not None and first.cancelled and not first.complete
    second = bridge.tree
    assert second is not first and second is not None and not second.cancelled
    bridge.stop()
    assert cancelled == [first, second] and second.cancelled
    bridge.stop()  # nothing running: nothing more said
    assert len(cancelled) == 2
    bridge.start_search(position(), tree=None)  # record_tree still on: a third tree
    # The second search may never reach the pool (stopped before the admin thread took it),
    # so the third is found by its own generation, not by counting submissions.
    info = bridge.search_info
    assert info is not None
    qtbot.waitUntil(lambda: info.search_id in bridge._pool_ids, timeout=2000)
    third_id = bridge._pool_ids[info.search_id]
    with qtbot.waitSignal(bridge.search_finished, timeout=2000):
        pool.send(third_id, [TreeBatch(third_id, complete=True), finished(third_id, 0)])
    bridge.stop()
    assert len(cancelled) == 2  # a finished search's tree is not cancelled
