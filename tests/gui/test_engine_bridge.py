"""EngineBridge: events reach the GUI thread coalesced to ~10 Hz, the latest value kept,
every iteration kept, the answer at once, and nothing of a stopped search."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import pytest

from pytestqt.qtbot import QtBot

from ai.engine import shared_memory_for
from ai.events import CurrentMove, Finished, Iteration, Progress, Score
from ai.settings import Limits, SearchSettings
from games import new_game
from gui.engine_bridge import WORKER_NICENESS, EngineBridge, SearchInfo, available_cores, lower_priority
from tests.gui.engine_doubles import ScriptedPool, ThreadedEnginePool


def progress(search_id: int, nodes: int) -> Progress:
    return Progress(search_id, nodes=nodes, nps=1000.0, time=nodes / 1000, hashfull=0.0, depth=3)


def iteration(search_id: int, depth: int) -> Iteration:
    return Iteration(search_id, depth, depth, Score(10.0 * depth), (), depth * 100, 1e3, 0.1, 0.0, 0.5, 3, 0.9, 2.0)


def finished(search_id: int) -> Finished:
    return Finished(search_id, None, Score(5.0), (), 4, 4, 1000, 1e3, 1.0)


@pytest.fixture
def scripted() -> Iterator[tuple[ScriptedPool, EngineBridge]]:
    pool = ScriptedPool()
    bridge = EngineBridge(pool)
    yield pool, bridge
    bridge.shutdown()
    assert pool.is_shut_down


def submitted(qtbot: QtBot, pool: ScriptedPool, count: int) -> int:
    """The pool's id of the ``count``-th search, once the bridge's admin thread sent it."""
    qtbot.waitUntil(lambda: len(pool.searches) >= count, timeout=2000)
    return sorted(pool.searches)[count - 1]


def record(bridge: EngineBridge) -> dict[str, list[tuple[float, object]]]:
    """Every emitted signal with the time it arrived (GUI thread)."""
    seen: dict[str, list[tuple[float, object]]] = {
        "iteration": [], "progress": [], "current": [], "finished": [], "failed": []
    }
    bridge.iteration_received.connect(lambda e: seen["iteration"].append((time.monotonic(), e)))
    bridge.progress_received.connect(lambda e: seen["progress"].append((time.monotonic(), e)))
    bridge.current_move_received.connect(lambda e: seen["current"].append((time.monotonic(), e)))
    bridge.search_finished.connect(lambda e: seen["finished"].append((time.monotonic(), e)))
    bridge.search_failed.connect(lambda e: seen["failed"].append((time.monotonic(), e)))
    return seen


def test_many_events_are_coalesced_to_about_ten_deliveries_a_second(
    qtbot: QtBot, scripted: tuple[ScriptedPool, EngineBridge]
) -> None:
    pool, bridge = scripted
    seen = record(bridge)
    search_id = bridge.start_search(new_game("tictactoe"), SearchSettings(), Limits())
    assert search_id is not None
    pool_id = submitted(qtbot, pool, 1)
    count = 3000
    start = time.monotonic()
    for chunk in range(6):  # 6 bursts over ~0.5 s of event loop time
        events: list[object] = [progress(pool_id, n) for n in range(chunk * 500, (chunk + 1) * 500)]
        events.insert(250, iteration(pool_id, chunk + 1))
        events.insert(100, CurrentMove(pool_id, chunk + 1, f"m{chunk}", 1, 9))
        sender = pool.send(pool_id, events)
        sender.join()
        qtbot.wait(80)
    qtbot.waitUntil(lambda: seen["progress"] and seen["progress"][-1][1].nodes == count - 1, timeout=2000)
    elapsed = time.monotonic() - start
    deliveries = len(seen["progress"])
    assert deliveries <= elapsed * 10 + 2, (deliveries, elapsed)
    assert [event.depth for _, event in seen["iteration"]] == [1, 2, 3, 4, 5, 6]  # every one kept
    times = [at for at, _ in seen["progress"]]
    gaps = [later - earlier for earlier, later in zip(times, times[1:])]
    assert min(gaps) >= 0.08, gaps
    assert seen["current"][-1][1].move == "m5"
    with qtbot.waitSignal(bridge.search_finished, timeout=2000) as answer:
        pool.send(pool_id, [progress(pool_id, count), finished(pool_id)])
    assert answer.args[0].nodes == 1000 and answer.args[0].search_id == search_id
    assert all(event.search_id == search_id for _, event in seen["progress"])
    assert seen["progress"][-1][1].nodes == count  # pending progress delivered before the answer
    assert not bridge.is_searching


def test_finished_is_delivered_at_once(qtbot: QtBot) -> None:
    pool = ScriptedPool()
    bridge = EngineBridge(pool, interval_ms=5000)  # a long interval: only Finished bypasses it
    seen = record(bridge)
    assert bridge.start_search(new_game("tictactoe")) is not None
    pool_id = submitted(qtbot, pool, 1)
    pool.send(pool_id, [progress(pool_id, 1)]).join()
    qtbot.waitUntil(lambda: len(seen["progress"]) == 1, timeout=1000)
    pool.send(pool_id, [progress(pool_id, 2)]).join()
    with qtbot.waitSignal(bridge.search_finished, timeout=1000):
        pool.send(pool_id, [finished(pool_id)])
    assert [event.nodes for _, event in seen["progress"]] == [1, 2]
    bridge.shutdown()


def test_events_of_a_replaced_search_are_dropped(qtbot: QtBot, scripted: tuple[ScriptedPool, EngineBridge]) -> None:
    pool, bridge = scripted
    seen = record(bridge)
    first = bridge.start_search(new_game("tictactoe"))
    first_id = submitted(qtbot, pool, 1)
    second = bridge.start_search(new_game("tictactoe"))
    assert first is not None and second is not None and first != second
    second_id = submitted(qtbot, pool, 2)
    assert pool.stopped == [first_id]
    pool.searches[first_id].is_cancelled = False  # a pool that delivers late anyway: the bridge still drops it
    pool.send(first_id, [progress(first_id, 7), iteration(first_id, 1), finished(first_id)]).join()
    with qtbot.waitSignal(bridge.search_finished, timeout=1000) as answer:
        pool.send(second_id, [progress(second_id, 9), finished(second_id)])
    assert answer.args[0].search_id == second
    assert all(event.search_id == second for key in seen for _, event in seen[key] if key != "failed")
    assert [event.nodes for _, event in seen["progress"]] == [9]


def test_stop_delivers_nothing_more_even_of_a_batch_in_flight(qtbot: QtBot) -> None:
    pool = ScriptedPool()
    bridge = EngineBridge(pool, interval_ms=300)
    seen = record(bridge)
    assert bridge.start_search(new_game("tictactoe")) is not None
    pool_id = submitted(qtbot, pool, 1)
    pool.send(pool_id, [progress(pool_id, 1)]).join()
    qtbot.waitUntil(lambda: len(seen["progress"]) == 1, timeout=1000)
    pool.send(pool_id, [progress(pool_id, 2), iteration(pool_id, 1)]).join()  # waits for the timer
    bridge.stop()
    qtbot.waitUntil(lambda: pool.stopped == [pool_id], timeout=1000)
    pool.searches[pool_id].is_cancelled = False  # a pool that delivers late anyway
    pool.send(pool_id, [finished(pool_id)]).join()
    qtbot.wait(400)  # longer than the delivery interval: anything pending would have come
    assert [event.nodes for _, event in seen["progress"]] == [1]
    assert seen["iteration"] == [] and seen["finished"] == []
    assert not bridge.is_searching
    bridge.shutdown()


def test_move_now_still_delivers_the_answer(qtbot: QtBot) -> None:
    pool = ThreadedEnginePool()
    bridge = EngineBridge(pool)
    started: list[SearchInfo] = []
    bridge.search_started.connect(started.append)
    search_id = bridge.start_search(new_game("chess"), SearchSettings(book=False), Limits())  # infinite
    assert started and started[0].search_id == search_id and started[0].root.NAME == "chess"
    with qtbot.waitSignal(bridge.iteration_received, timeout=5000):
        pass
    with qtbot.waitSignal(bridge.search_finished, timeout=5000) as answer:
        bridge.move_now()
    assert answer.args[0].stopped and answer.args[0].best_move is not None
    bridge.shutdown()


def test_a_bad_request_reports_one_line(qtbot: QtBot) -> None:
    bridge = EngineBridge(ThreadedEnginePool())
    with qtbot.waitSignal(bridge.search_failed, timeout=2000) as failure:
        bridge.start_search(new_game("backgammon"), SearchSettings(algorithm="pvs"), Limits(depth=1))
    assert "chance" in failure.args[0] and "\n" not in failure.args[0]
    assert not bridge.is_searching
    bridge.shutdown()


def test_the_table_is_resized_when_the_settings_ask(qtbot: QtBot) -> None:
    pool = ThreadedEnginePool(hash_megabytes=64)
    bridge = EngineBridge(pool)
    for megabytes in (16, 16, 32):
        with qtbot.waitSignal(bridge.search_finished, timeout=5000):
            bridge.start_search(new_game("tictactoe"), SearchSettings(tt_megabytes=megabytes), Limits(depth=2))
    assert pool.resized_to == [16, 32]
    bridge.shutdown()
    bridge.shutdown()  # idempotent


def test_clear_memory_empties_the_table_before_the_next_search(qtbot: QtBot) -> None:
    """A new game's search starts without the last game's table (as UCI ``ucinewgame``);
    before any search there is no pool, and clearing starts none."""
    made: list[ThreadedEnginePool] = []

    def factory(workers: int, megabytes: int) -> ThreadedEnginePool:
        made.append(ThreadedEnginePool(workers, megabytes))
        return made[-1]

    bridge = EngineBridge(pool_factory=factory)
    bridge.clear_memory()
    with qtbot.waitSignal(bridge.search_finished, timeout=5000):
        bridge.start_search(new_game("chess"), SearchSettings(book=False), Limits(depth=3))
    assert len(made) == 1 and made[0].tables_cleared == 0
    assert shared_memory_for("chess")  # the search left its table for the next one
    bridge.clear_memory()
    qtbot.waitUntil(lambda: made[0].tables_cleared == 1, timeout=2000)
    assert not shared_memory_for("chess")
    with qtbot.waitSignal(bridge.search_finished, timeout=5000) as answer:
        bridge.start_search(new_game("chess"), SearchSettings(book=False), Limits(depth=1))
    assert made[0].tables_cleared == 1
    assert answer.args[0].best_move is not None
    bridge.shutdown()
    bridge.clear_memory()  # after shutdown: nothing, and no error


def test_a_new_thread_count_gets_a_new_pool_and_the_old_one_ends(qtbot: QtBot) -> None:
    made: list[ThreadedEnginePool] = []

    def factory(workers: int, megabytes: int) -> ThreadedEnginePool:
        made.append(ThreadedEnginePool(workers, megabytes))
        return made[-1]

    bridge = EngineBridge(pool_factory=factory)
    assert bridge.pool is None  # no process before the first search
    for threads in (1, 1, 2):
        with qtbot.waitSignal(bridge.search_finished, timeout=5000):
            bridge.start_search(new_game("tictactoe"), SearchSettings(threads=threads), Limits(depth=2))
    expected = [1, min(2, available_cores())] if available_cores() > 1 else [1]
    assert [pool.workers for pool in made] == expected
    bridge.shutdown()
    assert all(pool.is_shut_down for pool in made)
    made.clear()
    fixed = EngineBridge(pool_factory=factory, workers=1)  # the app fixes the pool's size
    for threads in (2, 1):
        with qtbot.waitSignal(fixed.search_finished, timeout=5000):
            fixed.start_search(new_game("tictactoe"), SearchSettings(threads=threads), Limits(depth=2))
    assert [pool.workers for pool in made] == [1]
    fixed.shutdown()


def test_starting_the_pool_never_blocks_the_gui_thread(qtbot: QtBot) -> None:
    gate = threading.Event()
    made: list[ScriptedPool] = []

    def slow_factory(workers: int, megabytes: int) -> ScriptedPool:
        gate.wait(10)  # spawning processes and mapping the table take a while
        made.append(ScriptedPool())
        return made[-1]

    bridge = EngineBridge(pool_factory=slow_factory)
    started = time.monotonic()
    first = bridge.start_search(new_game("tictactoe"))
    bridge.stop()  # while the pool is still starting: the search never reaches it
    second = bridge.start_search(new_game("tictactoe"))
    assert time.monotonic() - started < 5  # returned long before the factory's 10 s
    assert first is not None and second is not None and bridge.is_searching
    gate.set()
    qtbot.waitUntil(lambda: bool(made) and len(made[0].searches) == 1, timeout=2000)
    pool_id = next(iter(made[0].searches))
    with qtbot.waitSignal(bridge.search_finished, timeout=1000) as answer:
        made[0].send(pool_id, [finished(pool_id)])
    assert answer.args[0].search_id == second
    bridge.shutdown()
    assert made[0].is_shut_down


@pytest.mark.skipif(not hasattr(os, "setpriority"), reason="no process niceness on this system")
def test_worker_processes_run_below_the_app() -> None:
    child = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    try:
        lower_priority([child.pid])
        assert os.getpriority(os.PRIO_PROCESS, child.pid) == max(WORKER_NICENESS, os.getpriority(os.PRIO_PROCESS, 0))
    finally:
        child.communicate(b"")


ONE_MOVE_POSITIONS = [
    ("tictactoe", "oox.xxoxo", "pvs"),  # one empty square
    ("checkers", "B:W17,18,22,23,24,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,9,11,12,14,16", "pvs"),  # 14x21, a forced capture
    ("othello", "XXXXXXXXXOOO-XXXXOOOOXXXXXXXXXOOXXOXXOOOOOOOOOXOOOOOOXOOOOOOOOOO O", "mcts"),  # e2
    ("othello", "O--------X-----------------XX------XX--------------------------- X", "mcts"),  # a forced pass
    ("chess", "7k/8/8/8/8/8/P5q1/7K w - - 0 1", "native"),  # in check: only Kxg2
    ("backgammon", "i56FASHg8+AAQw:EgEbAAAAAAAA", "star2"),  # a roll with no play at all
]
"""Positions with exactly one legal move, each with an algorithm the game is played with."""


@pytest.mark.parametrize(("game", "position", "algorithm"), ONE_MOVE_POSITIONS)
def test_a_root_with_one_legal_move_is_answered_at_once_without_a_search(
    qtbot: QtBot, game: str, position: str, algorithm: str
) -> None:
    """The pool is never asked (this one would never answer): the answer is the only move,
    nothing searched, no iteration, and it says ``only_move``, whatever the time allowed."""
    pool = ScriptedPool()
    bridge = EngineBridge(pool)
    seen = record(bridge)
    state = new_game(game, position)
    (only,) = state.legal_moves()
    with qtbot.waitSignal(bridge.search_finished, timeout=5000) as answer:
        search_id = bridge.start_search(state, SearchSettings(algorithm=algorithm), Limits(time=60.0))
    finished = answer.args[0]
    assert finished.search_id == search_id and finished.only_move and not (finished.book or finished.forced)
    assert finished.best_move == only and finished.pv == (only,)
    assert finished.nodes == 0 and finished.depth == 0 and not finished.stopped and finished.error is None
    assert seen["iteration"] == [] and seen["failed"] == [] and pool.searches == {}
    assert not bridge.is_searching
    bridge.shutdown()


def test_a_computer_plays_its_only_move_without_waiting_for_the_engine(qtbot: QtBot) -> None:
    """A computer side with a minute a move and a pool that never answers still plays an
    Othello move that is its only one, and then passes when it must."""
    from gui.players import COMPUTER, HUMAN, PlayerConfig
    from gui.session import GameSession

    pool = ScriptedPool()
    bridge = EngineBridge(pool)
    slow = PlayerConfig(kind=COMPUTER, algorithm="mcts", strength="time", seconds=60.0)
    position = "O--------X-----------------XX------XX--------------------------- X"  # X must pass
    session = GameSession(bridge, "othello", (slow, PlayerConfig(kind=HUMAN)), start=position)
    qtbot.waitUntil(lambda: len(session.history) >= 1, timeout=10_000)
    assert session.move_names()[0].lower() == "pass"
    assert pool.searches == {}  # nothing was ever sent to the engine
    session.close()
    bridge.shutdown()


def test_a_root_with_several_moves_is_still_searched(qtbot: QtBot, scripted: tuple[ScriptedPool, EngineBridge]) -> None:
    pool, bridge = scripted
    bridge.start_search(new_game("othello"), SearchSettings(algorithm="mcts"), Limits(time=60.0))
    submitted(qtbot, pool, 1)
    assert bridge.is_searching
