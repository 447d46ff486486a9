"""The bridge on the real engine pool (worker processes): live panel updates, stop, shutdown
leaves no process behind."""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Iterator

import pytest
from pytestqt.qtbot import QtBot

from ai.events import Finished
from ai.settings import Limits, SearchSettings
from ai.tree.model import TreeBatch, TreeOptions
from ai.tt import Bound
from games import get_game, new_game
from gui.engine_bridge import WORKER_NICENESS, EngineBridge, available_cores
from gui.panels.engine_panel import EnginePanel

THREADS = min(2, available_cores())
SPAWN_TIMEOUT_MS = 60_000
"""The first search waits for the workers to start (spawn imports the engine in each)."""


def process_exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.fixture
def bridge() -> Iterator[EngineBridge]:
    engine = EngineBridge()
    yield engine
    engine.shutdown()
    assert multiprocessing.active_children() == []


def test_a_search_on_the_pool_updates_the_panel_live(qtbot: QtBot, bridge: EngineBridge) -> None:
    panel = EnginePanel()
    qtbot.addWidget(panel)
    panel.connect_bridge(bridge)
    progress: list[object] = []
    bridge.progress_received.connect(progress.append)
    state = get_game("chess").from_text("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    with qtbot.waitSignal(bridge.search_finished, timeout=SPAWN_TIMEOUT_MS) as answer:
        search_id = bridge.start_search(state, SearchSettings(threads=THREADS), Limits(depth=5))
    finished = answer.args[0]
    assert finished.search_id == search_id and finished.best_move in state.legal_moves()
    assert panel.pv_text() == "  ".join(state.line_names(finished.pv))
    assert state.parse_move(panel.pv_text().split()[0]) == finished.pv[0]  # SAN from the values
    assert panel.iterations.rowCount() >= 5
    assert panel.stat_labels["nodes"].text() == f"{finished.nodes:,}"
    pool = bridge.pool
    assert pool is not None and pool.workers == THREADS
    pids = getattr(pool, "worker_pids", ())
    if hasattr(os, "getpriority"):
        assert all(os.getpriority(os.PRIO_PROCESS, pid) >= WORKER_NICENESS for pid in pids)


def test_stop_on_the_pool_delivers_nothing_more_and_shutdown_ends_every_worker(qtbot: QtBot) -> None:
    bridge = EngineBridge()
    seen: list[object] = []
    with qtbot.waitSignal(bridge.iteration_received, timeout=SPAWN_TIMEOUT_MS):
        bridge.start_search(new_game("othello"), SearchSettings(threads=THREADS), Limits())  # until stopped
    for signal in (bridge.iteration_received, bridge.progress_received, bridge.search_finished, bridge.search_failed):
        signal.connect(seen.append)
    bridge.stop()
    assert not bridge.is_searching
    qtbot.wait(500)  # several delivery intervals and progress heartbeats
    assert seen == []
    with qtbot.waitSignal(bridge.search_finished, timeout=20_000) as answer:  # the pool still serves
        bridge.start_search(new_game("tictactoe"), SearchSettings(threads=THREADS), Limits(depth=3))
    assert answer.args[0].best_move is not None
    pool = bridge.pool
    pids = list(getattr(pool, "worker_pids", ()))
    bridge.shutdown()
    assert multiprocessing.active_children() == []
    assert not any(process_exists(pid) for pid in pids)


def test_the_first_search_of_a_new_pool_has_all_of_its_time(qtbot: QtBot, bridge: EngineBridge) -> None:
    """A time limit counts from the submission: were the first search submitted while the
    workers still start (a second or more), a short hint would answer unsearched (depth 0).
    Black mates with Ra1#, which any completed iteration finds."""
    state = get_game("chess").from_text("r5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1")
    with qtbot.waitSignal(bridge.search_finished, timeout=SPAWN_TIMEOUT_MS) as answer:
        bridge.start_search(state, SearchSettings(threads=THREADS, book=False), Limits(time=0.5))
    finished = answer.args[0]
    assert finished.depth >= 1, finished
    assert state.move_name(finished.best_move) == "Ra1#"
    assert finished.score.win_in_plies is not None and finished.score.outcome > 0


@pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="waits on pidfds")
@pytest.mark.parametrize("algorithm", ["native", "pvs"])
def test_a_dead_worker_still_gives_the_app_a_move_and_says_why(qtbot: QtBot, bridge: EngineBridge, algorithm: str) -> None:
    """Every worker killed while the computer thinks: the app still gets a move, the last
    iteration it showed, and ``fault`` says what happened (not an engine error)."""
    if algorithm == "native" and get_game("chess").NATIVE_SEARCH is None:
        pytest.skip("the compiled chess search is not built")
    state = get_game("chess").from_text("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    iterations: list[object] = []
    bridge.iteration_received.connect(iterations.append)
    failures: list[str] = []
    bridge.search_failed.connect(failures.append)
    bridge.start_search(state, SearchSettings(algorithm=algorithm, threads=THREADS, book=False), Limits(time=120.0))
    qtbot.waitUntil(lambda: len(iterations) >= 2, timeout=SPAWN_TIMEOUT_MS)
    pool = bridge.pool
    assert pool is not None
    victims = list(getattr(pool, "worker_pids", ()))
    with qtbot.waitSignal(bridge.search_finished, timeout=SPAWN_TIMEOUT_MS) as answer:
        for pid in victims:
            os.kill(pid, signal.SIGKILL)
    finished = answer.args[0]
    shown = [event for event in iterations if getattr(event, "pv", ()) and getattr(event, "bound", None) is Bound.EXACT]
    assert failures == [] and finished.error is None
    assert finished.best_move == shown[-1].pv[0] and finished.best_move in state.legal_moves()  # type: ignore[attr-defined]
    assert finished.fault is not None and "killed by signal 9" in finished.fault


def test_a_recorded_tree_reaches_the_gui_thread_whole(qtbot: QtBot, bridge: EngineBridge) -> None:
    bridge.record_tree = TreeOptions()
    batches: list[TreeBatch] = []
    answers: list[object] = []
    bridge.tree_batch_received.connect(batches.append)
    bridge.search_finished.connect(answers.append)
    settings = SearchSettings(algorithm="alphabeta", threads=THREADS, book=False)
    with qtbot.waitSignal(bridge.tree_batch_received, timeout=SPAWN_TIMEOUT_MS) as first:
        search_id = bridge.start_search(new_game("tictactoe"), settings, Limits(depth=5))
    assert first.args[0].search_id == search_id
    qtbot.waitUntil(lambda: bool(answers), timeout=SPAWN_TIMEOUT_MS)
    (finished,) = answers
    assert isinstance(finished, Finished)
    tree = bridge.tree
    assert tree is not None and tree.complete and batches[-1].complete
    assert all(batch.search_id == search_id for batch in batches)
    assert tree.total_nodes() == tree.searched_nodes > 0  # the main worker's tree, node for node
    assert tree.total_nodes() + tree.helper_nodes == finished.nodes
    assert [tree_pass.iteration for tree_pass in tree.passes if not tree_pass.label] == [1, 2, 3, 4, 5]
