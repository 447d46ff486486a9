"""The engine pool: answers, merging, stopping, faults, and no process or memory left behind.

Waits are on events (queues, pidfds) with generous timeouts, never on sleeps.
"""

from __future__ import annotations

import dataclasses

import json
import multiprocessing
import os
import queue
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

import games
from ai.engine import clear_memory, search
from ai.events import CurrentMove, Finished, Iteration, Progress, SearchEvent
from ai.parallel import EnginePool
from ai.parallel import pool as pool_module
from ai.parallel.pool import available_cores
from ai.parallel.segment import Segment, owner_of, reclaim_segments
from ai.parallel.shared_table import SharedTable
from ai.parallel.worker import EVENT, FINISHED, NODES, STOP_WORD, Role, Task, _Runner
from ai.search.common import tree_signature
from ai.settings import Limits, SearchRequest, SearchSettings
from ai.tt import Bound

REPO = Path(__file__).resolve().parents[2]
WAIT = 60.0
"""Seconds any single wait may take before the test fails (a loaded machine is slow)."""
LINUX_ONLY = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc and /dev/shm, waits on pidfds")
EXACT = dict(
    quiescence=False,
    null_move=False,
    late_move_reductions=False,
    check_extensions=False,
    quiescence_checks=False,
    see_pruning=False,
    futility_pruning=False,
    solver_empties=0,
)
"""Settings without quiescence or selectivity: the trees of 1 and 2 workers are comparable."""


@pytest.fixture(scope="module")
def pool() -> Iterator[EnginePool]:
    with EnginePool(workers=2, hash_megabytes=8) as made:
        yield made


@pytest.fixture(scope="module")
def two_workers() -> Iterator[EnginePool]:
    """A pool of two workers even on one core (they share it): what is tested with it is
    how a search is shared out and what happens when one of its workers dies, not speed."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pool_module, "available_cores", lambda: 2)
        made = EnginePool(workers=2, hash_megabytes=1)
    with made:
        assert made.workers == 2
        yield made


class Collector:
    """An ``on_event`` that queues events and keeps them all."""

    def __init__(self) -> None:
        self.events: list[SearchEvent] = []
        self.queue: queue.SimpleQueue[SearchEvent] = queue.SimpleQueue()

    def __call__(self, event: SearchEvent) -> None:
        self.events.append(event)
        self.queue.put(event)

    def next_of(self, kind: type) -> SearchEvent:
        while True:
            event = self.queue.get(timeout=WAIT)
            if isinstance(event, kind):
                return event


def children_of(pid: int) -> set[int]:
    """Process ids whose parent is ``pid`` (from /proc)."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.add(int(entry))
    return found


def wait_gone(pid: int, timeout: float = WAIT) -> bool:
    """Wait until process ``pid`` has ended (a pidfd: no polling); True if it did."""
    try:
        descriptor = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        readable, _, _ = select.select([descriptor], [], [], timeout)
        return bool(readable)
    finally:
        os.close(descriptor)


def request(game: str, position: str | None = None, *, algorithm: str = "pvs", **limits: object) -> SearchRequest:
    exact = EXACT if limits.pop("exact", False) else {}
    # book=False: these tests need searches (a start position would be answered from a book);
    # every worker of the pool fixture, and its table's size
    settings = SearchSettings(algorithm=algorithm, book=False, threads=2, tt_megabytes=8, **exact)  # type: ignore[arg-type]
    return SearchRequest(game, position, settings=settings, limits=Limits(**limits))  # type: ignore[arg-type]


def answer(pool: EnginePool, search_request: SearchRequest) -> Finished:
    events = list(pool.search(search_request))
    finished = events[-1]
    assert isinstance(finished, Finished)
    return finished


# ------------------------------------------------------------------ answers
def test_the_pool_uses_the_cores_and_never_more() -> None:
    with pytest.raises(ValueError, match="at least 1 worker"):
        EnginePool(workers=0)
    assert available_cores() >= 1


@pytest.mark.parametrize("algorithm", ["alphabeta", "pvs", "mtdf"])
@pytest.mark.parametrize(
    "game, position",
    [
        ("tictactoe", None),
        ("tictactoe", "x...o...."),
        ("checkers", "W:WK11:B1,2,5,9,10,17,25,K28,K31"),
        ("othello", "-O-XXXX-OOOOOO-O-OOXOXO-XXOOOXXXXX-OOXXXXXOOOX-XXX-OXXXX-XXXXX-X O"),
        ("othello", "-XXXXXX-OOOOXX--OOOOX---OOOXXXXXOOOOOO-XOXOOOOXXOOXX-XXXOX-XXXX- O"),
    ],
)
def test_lazy_smp_gives_the_single_worker_value(pool: EnginePool, algorithm: str, game: str, position: str) -> None:
    """Two workers sharing a table return one worker's value, on positions searched to the
    end of the game. Why only there: at a horizon a table entry searched deeper than needed
    is used (entry depth >= remaining depth), so a value may legitimately reflect a deeper
    look, and which entries exist depends on the order the workers fill the shared table
    (one worker's value depends on its own order the same way). Where every leaf is a
    terminal, or the value is a proven win or loss, every entry is the exact game value
    and the two must agree."""
    search_request = request(game, position, algorithm=algorithm, depth=30, exact=True)
    single = search(games.new_game(game, position), search_request.settings, search_request.limits)
    assert single.score.is_win or single.depth < 30 or game == "othello"
    parallel = answer(pool, search_request)
    assert parallel.error is None
    assert parallel.score.value == single.score.value, f"{game} {position}: {parallel.score} != {single.score}"
    assert parallel.best_move in games.new_game(game, position).legal_moves()


@pytest.mark.parametrize(
    "algorithm, game, position, depth",
    [
        ("minimax", "tictactoe", "x...o....", 3),
        ("minimax", "checkers", None, 4),
        ("minimax", "othello", None, 3),
        ("expectiminimax", "backgammon", "4HPwATDgc/ABMA:cIkWAAAAAAAA", 1),
        ("star1", "backgammon", "4HPwATDgc/ABMA:cIkWAAAAAAAA", 1),
        ("star2", "backgammon", "4HPwATDgc/ABMA:cIkWAAAAAAAA", 1),
    ],
)
def test_root_split_gives_the_single_worker_value_at_a_horizon(
    pool: EnginePool, algorithm: str, game: str, position: str | None, depth: int
) -> None:
    """Without a table the root split is exact: the best of the parts' values is the value."""
    search_request = request(game, position, algorithm=algorithm, depth=depth, exact=True)
    single = search(games.new_game(game, position), search_request.settings, search_request.limits)
    parallel = answer(pool, search_request)
    assert parallel.error is None
    assert parallel.score.value == pytest.approx(single.score.value, abs=1e-9)
    assert parallel.depth == single.depth


def test_the_root_split_divides_the_work_and_reports_every_depth(pool: EnginePool) -> None:
    """Each worker searches only its share of the root moves: together about the nodes of
    one search, not twice them; the combined iterations come depth by depth."""
    search_request = request("checkers", algorithm="minimax", depth=4, exact=True)
    single = search(games.new_game("checkers"), search_request.settings, search_request.limits)
    events = list(pool.search(search_request))
    finished = events[-1]
    assert isinstance(finished, Finished) and finished.score.value == single.score.value
    assert finished.nodes < 1.3 * single.nodes
    assert [event.depth for event in events if isinstance(event, Iteration)] == [1, 2, 3, 4]


def test_a_root_split_shows_what_it_searches_among_all_the_root_moves(pool: EnginePool) -> None:
    """The parts of a root split search shares of the root; the caller still hears which
    move is searched (UCI's currmove, the app's "Searching"), numbered among all the root's
    moves, and from a backgammon decision the roll under it."""
    state = games.new_game("backgammon")
    state.play(state.chance_outcomes()[0][0])
    moves = state.legal_moves()
    search_request = request("backgammon", state.to_text(), algorithm="expectiminimax", depth=2)
    events = list(pool.search(search_request))
    current = [event for event in events if isinstance(event, CurrentMove)]
    assert current, "no CurrentMove from a root split"
    assert {event.total for event in current} == {len(moves)}
    assert all(1 <= event.number <= len(moves) and event.move in moves for event in current)
    assert any(event.roll is not None for event in current)


def test_mcts_merges_the_trees(two_workers: EnginePool) -> None:
    """Root parallelism: tree k has seed + k and its share of the node limit, so the merged
    root is the sum of the trees one worker grows alone with those seeds and shares."""
    settings = SearchSettings(algorithm="mcts", seed=3, threads=2)
    merged = answer(two_workers, SearchRequest("othello", settings=settings, limits=Limits(nodes=1501)))
    trees = [
        search(games.new_game("othello"), replace(settings, seed=seed), Limits(nodes=nodes))
        for seed, nodes in [(3, 751), (4, 750)]
    ]
    expected: dict[object, int] = {}
    for tree in trees:
        for stat in tree.root_moves:
            expected[stat.move] = expected.get(stat.move, 0) + stat.visits
    assert {stat.move: stat.visits for stat in merged.root_moves} == expected
    visits = [stat.visits for stat in merged.root_moves]
    assert visits == sorted(visits, reverse=True) and merged.best_move == merged.root_moves[0].move
    assert merged.nodes == sum(tree.nodes for tree in trees) == 1501  # the limit is the search's


@pytest.mark.parametrize(("threads", "seeds"), [(1, [3]), (2, [3, 4])])
def test_a_search_runs_on_as_many_workers_as_it_asks_for(two_workers: EnginePool, threads: int, seeds: list[int]) -> None:
    """``settings.threads`` workers of the pool, not all of them: a one-thread MCTS search
    on a two-worker pool grows one tree, the one an in-process search grows."""
    settings = SearchSettings(algorithm="mcts", seed=3, threads=threads)
    on_pool = answer(two_workers, SearchRequest("othello", settings=settings, limits=Limits(nodes=1200)))
    trees = [search(games.new_game("othello"), replace(settings, seed=seed), Limits(nodes=1200 // threads)) for seed in seeds]
    assert sum(stat.visits for stat in on_pool.root_moves) == sum(stat.visits for tree in trees for stat in tree.root_moves)
    if threads == 1:
        assert on_pool.root_moves == trees[0].root_moves and on_pool.best_move == trees[0].best_move


def test_a_root_split_shares_the_node_limit(two_workers: EnginePool) -> None:
    limited = request("othello", algorithm="minimax", nodes=2000)
    finished = answer(two_workers, limited)
    assert finished.error is None and finished.stopped
    assert 2000 <= finished.nodes <= 2002, finished.nodes  # each part stops at its half


def test_a_search_asking_for_no_thread_is_refused_in_one_line(pool: EnginePool) -> None:
    bad = request("tictactoe", depth=2)
    finished = answer(pool, replace(bad, settings=replace(bad.settings, threads=0)))
    assert finished.error == f"threads: 0 is out of range 1..{available_cores()}"  # the options table's words


def test_a_search_gets_the_table_size_it_asks_for(two_workers: EnginePool) -> None:
    sized = request("checkers", depth=4)
    sized = replace(sized, settings=replace(sized.settings, tt_megabytes=3))
    assert answer(two_workers, sized).error is None
    assert two_workers.hash_megabytes == pytest.approx(3, abs=0.01)
    too_big = replace(sized, settings=replace(sized.settings, tt_megabytes=10**9))
    refused = answer(two_workers, too_big)
    assert refused.error is not None and "\n" not in refused.error and "MB" in refused.error, refused.error
    assert two_workers.hash_megabytes == pytest.approx(3, abs=0.01)  # the old table stays
    assert answer(two_workers, sized).error is None


@pytest.mark.parametrize("megabytes", [0, -5, float("nan"), float("inf"), 10**12, "64", True])
def test_a_table_size_that_cannot_be_is_refused_in_one_line(pool: EnginePool, megabytes: object) -> None:
    with pytest.raises(ValueError) as refused:
        EnginePool(workers=1, hash_megabytes=megabytes)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        pool.resize_table(megabytes)  # type: ignore[arg-type]
    message = str(refused.value)
    assert "\n" not in message and ("MB" in message or "megabytes" in message), message


def test_the_table_can_be_resized_and_cleared_between_searches(pool: EnginePool) -> None:
    old = pool.hash_megabytes
    pool.resize_table(2)
    two = request("checkers", depth=4)
    two = replace(two, settings=replace(two.settings, tt_megabytes=2))
    assert answer(pool, two).error is None
    assert pool.hash_megabytes == pytest.approx(2, abs=0.01)
    pool.clear_table()
    pool.resize_table(old)
    assert answer(pool, request("checkers", depth=4)).error is None
    assert pool.hash_megabytes == pytest.approx(old, abs=0.01)


def test_a_bad_request_ends_with_an_error_not_an_exception(pool: EnginePool) -> None:
    finished = answer(pool, SearchRequest("chess", "not a fen"))
    assert finished.error and finished.best_move is None
    finished = answer(pool, SearchRequest("backgammon", settings=SearchSettings(algorithm="pvs")))
    assert finished.error and "chance" in finished.error


def test_searches_queued_behind_a_bad_one_run_at_once(pool: EnginePool) -> None:
    bad, good = Collector(), Collector()
    pool.submit(SearchRequest("chess", "not a fen"), bad)
    pool.submit(request("tictactoe", depth=2), good)
    assert bad.next_of(Finished).error
    assert good.next_of(Finished).error is None


def test_events_arrive_in_order_with_nodes_summed(pool: EnginePool) -> None:
    events = list(pool.search(request("chess", depth=4)))
    assert {event.search_id for event in events} == {events[0].search_id}
    assert [type(event) for event in events].count(Finished) == 1 and isinstance(events[-1], Finished)
    depths = [event.depth for event in events if isinstance(event, Iteration) and event.bound is Bound.EXACT]
    assert depths == sorted(set(depths)) and depths[-1] == 4
    counts = [event.nodes for event in events if isinstance(event, (Iteration, Progress, Finished))]
    assert counts == sorted(counts)
    assert events[-1].nodes >= events[-1].stats.nodes - 1  # every worker's nodes, not only the main one's


@pytest.mark.parametrize(
    "role, kinds",
    [
        (Role(), {EVENT, FINISHED}),
        (Role(helper=1, sends_current_moves=False, sends_only_nodes=True), {NODES, FINISHED}),
    ],
    ids=["main-search", "helper"],
)
def test_a_helper_sends_only_its_node_count(role: Role, kinds: set[str]) -> None:
    """Every message wakes the pool's dispatcher, which takes its CPU from the workers: a
    Lazy SMP helper, whose events nobody shows, sends its node count and its answer only."""
    parent_end, worker_end = multiprocessing.Pipe(duplex=True)
    control = multiprocessing.RawArray("q", 1)
    control[STOP_WORD] = 7
    table = SharedTable.create(1)
    search_request = request("checkers", depth=9)
    messages: list[tuple[object, ...]] = []

    def read() -> None:  # at once, as the pool does: a full pipe would block the worker
        try:
            while True:
                messages.append(parent_end.recv())
        except EOFError:
            pass

    reader = threading.Thread(target=read)
    reader.start()
    try:
        runner = _Runner(worker_end, control, 0, parent=None)
        runner.run(Task(7, search_request, time.perf_counter(), role, table.name, tree_signature(search_request.settings)))
        runner.close()
        reader.join(WAIT)
    finally:
        table.close()
        parent_end.close()
    assert messages[-1][0] == FINISHED and messages[-1][3].error is None
    assert {message[0] for message in messages} <= kinds
    counts = [message[3] for message in messages if message[0] == NODES]
    assert counts == sorted(counts) and all(count <= messages[-1][3].nodes for count in counts)


# ---------------------------------------------------------------- stopping
def test_move_now_delivers_a_finished_within_100_ms(pool: EnginePool) -> None:
    latencies = []
    for _ in range(3):
        collector = Collector()
        search_id = pool.submit(request("chess"), collector)  # no limit: runs until told
        collector.next_of(Iteration)
        asked = time.perf_counter()
        pool.move_now(search_id)
        finished = collector.next_of(Finished)
        latencies.append(time.perf_counter() - asked)
        assert finished.stopped and finished.best_move in games.new_game("chess").legal_moves()
    assert sorted(latencies)[1] < 0.1, latencies


def test_answer_waits_for_the_finished_and_hands_on_every_other_event(pool: EnginePool) -> None:
    shown: list[SearchEvent] = []
    finished = pool.answer(request("tictactoe", depth=3), shown.append)
    assert finished.error is None and finished.best_move is not None and not finished.stopped
    assert any(isinstance(event, Iteration) for event in shown)
    assert not any(isinstance(event, Finished) for event in shown)


def test_answer_asks_for_the_move_now_once_should_stop_says_so(pool: EnginePool) -> None:
    asked: list[bool] = []

    def should_stop() -> bool:
        asked.append(True)
        return len(asked) > 1  # the search has been submitted and asked once

    finished = pool.answer(request("chess"), lambda _event: None, should_stop, poll_seconds=0.01)  # no limit
    assert finished.stopped and finished.best_move in games.new_game("chess").legal_moves()


def test_nothing_is_delivered_after_stop_returns(pool: EnginePool) -> None:
    collector = Collector()
    search_id = pool.submit(request("chess"), collector)
    collector.next_of(Iteration)
    pool.stop(search_id)
    delivered = len(collector.events)
    assert answer(pool, request("tictactoe", depth=2)).error is None  # the pool went on
    assert len(collector.events) == delivered
    assert not any(isinstance(event, Finished) for event in collector.events)


@pytest.mark.parametrize("game, algorithm, earliest", [("chess", "pvs", 0.9), ("othello", "mcts", 0.9)])
def test_a_time_limit_is_kept_within_10_percent(pool: EnginePool, game: str, algorithm: str, earliest: float) -> None:
    """The answer comes at most 10% late, and a fixed time a move is used to its end: PVS
    starts iterations until the deadline (``ai.iterative.soft_deadline``), MCTS samples
    until it."""
    collector = Collector()
    submitted = time.perf_counter()
    pool.submit(request(game, algorithm=algorithm, time=1.0), collector)
    finished = collector.next_of(Finished)
    elapsed = time.perf_counter() - submitted
    assert earliest <= elapsed <= 1.1, elapsed
    assert finished.best_move is not None


# ------------------------------------------------------------------ faults
@LINUX_ONLY
@pytest.mark.parametrize("victim", [0, 1], ids=["main-search", "helper"])
def test_a_killed_worker_is_replaced_and_the_search_still_answers(two_workers: EnginePool, victim: int) -> None:
    before = two_workers.worker_pids
    killed: list[int] = []
    collector = Collector()

    def kill_on_first_iteration(event: SearchEvent) -> None:
        if isinstance(event, Iteration) and not killed:
            killed.append(before[victim])
            os.kill(before[victim], signal.SIGKILL)
        collector(event)

    two_workers.clear_table()  # an answer from the table would come before the kill
    two_workers.submit(request("chess", depth=5), kill_on_first_iteration)
    finished = collector.next_of(Finished)
    assert finished.error is None and finished.best_move in games.new_game("chess").legal_moves()
    assert finished.depth == 5
    assert wait_gone(killed[0])
    assert answer(two_workers, request("checkers", depth=3)).error is None  # the replacement works
    assert killed[0] not in two_workers.worker_pids and len(two_workers.worker_pids) == len(before)


@LINUX_ONLY
@pytest.mark.parametrize(("algorithm", "threads"), [("native", 2), ("pvs", 1)], ids=["native", "python"])
def test_a_search_whose_answering_worker_dies_answers_with_its_last_iteration(
    two_workers: EnginePool, algorithm: str, threads: int
) -> None:
    """No worker is left to answer (the compiled search runs on one; a one-thread search
    too): the answer is the last iteration delivered, not an error, and ``fault`` says why."""
    if algorithm == "native" and games.get_game("chess").NATIVE_SEARCH is None:
        pytest.skip("the compiled chess search is not built")
    search_request = request("chess", algorithm=algorithm)  # no limit: it runs until the kill
    search_request = replace(search_request, settings=replace(search_request.settings, threads=threads))
    collector = Collector()
    killed: list[int] = []

    def kill_after_two_iterations(event: SearchEvent) -> None:
        collector(event)
        done = [item for item in collector.events if isinstance(item, Iteration) and item.pv]
        if len(done) >= 2 and not killed:
            killed.extend(two_workers.worker_pids)
            for pid in killed:
                os.kill(pid, signal.SIGKILL)

    two_workers.clear_table()
    two_workers.submit(search_request, kill_after_two_iterations)
    finished = collector.next_of(Finished)
    last = [event for event in collector.events if isinstance(event, Iteration) and event.pv and event.bound is Bound.EXACT][-1]
    assert finished.error is None and finished.stopped
    assert finished.best_move == last.pv[0] and finished.pv == last.pv and finished.depth == last.depth
    assert finished.score == last.score
    assert finished.fault is not None and "killed by signal 9" in finished.fault
    assert all(wait_gone(pid) for pid in killed)
    assert answer(two_workers, request("tictactoe", depth=2)).error is None  # the replacements work


@LINUX_ONLY
def test_a_helper_answering_for_a_dead_main_search_is_never_shallower_than_what_was_shown(
    two_workers: EnginePool,
) -> None:
    """Lazy SMP: the main search's worker dies, a helper goes on; asked to answer, the
    search gives the deeper of the helper's answer and the last iteration already shown."""
    main_pid = two_workers.worker_pids[0]  # the first idle worker takes part 0, the main search
    collector = Collector()
    killed = threading.Event()

    def kill_the_main_search(event: SearchEvent) -> None:
        collector(event)
        done = [item for item in collector.events if isinstance(item, Iteration) and item.pv]
        if len(done) >= 3 and not killed.is_set():
            os.kill(main_pid, signal.SIGKILL)
            killed.set()

    two_workers.clear_table()
    search_id = two_workers.submit(request("chess"), kill_the_main_search)  # threads=2, no limit
    assert killed.wait(WAIT) and wait_gone(main_pid)
    two_workers.move_now(search_id)
    finished = collector.next_of(Finished)
    last = [event for event in collector.events if isinstance(event, Iteration) and event.pv and event.bound is Bound.EXACT][-1]
    assert finished.error is None and finished.best_move in games.new_game("chess").legal_moves()
    assert finished.depth >= last.depth


@LINUX_ONLY
def test_a_lone_search_whose_worker_dies_before_any_iteration_is_searched_again(two_workers: EnginePool) -> None:
    """Nothing shown yet, nothing to answer with: another worker searches it from the start
    (before: an error, and UCI played the first legal move)."""
    collector = Collector()
    killed: list[int] = []
    shown_before_the_kill: list[int] = []

    def kill_on_first_progress(event: SearchEvent) -> None:
        collector(event)
        if isinstance(event, Progress) and not killed:
            shown_before_the_kill.append(sum(isinstance(item, Iteration) for item in collector.events))
            killed.extend(two_workers.worker_pids)
            for pid in killed:
                os.kill(pid, signal.SIGKILL)

    search_request = request("chess", algorithm="minimax", depth=3)
    search_request = replace(
        search_request,
        settings=replace(search_request.settings, threads=1, iterative_deepening=False),  # one long iteration
    )
    two_workers.submit(search_request, kill_on_first_progress)
    finished = collector.next_of(Finished)
    assert killed and shown_before_the_kill == [0], "the search showed an iteration before its first heartbeat"
    assert finished.error is None and finished.depth == 3 and not finished.stopped
    assert finished.best_move in games.new_game("chess").legal_moves()
    assert all(wait_gone(pid) for pid in killed)


LEAKING_SCRIPT = "from ai.parallel.segment import Segment; print(Segment.create(4096).name)"
"""A program that makes a segment and ends without freeing it, as one killed would."""


@LINUX_ONLY
def test_segments_of_dead_owners_are_reclaimed_and_live_ones_kept() -> None:
    leaker = subprocess.run([sys.executable, "-c", LEAKING_SCRIPT], cwd=REPO, capture_output=True, text=True, timeout=WAIT)
    leaked = leaker.stdout.strip()
    assert leaker.returncode == 0 and (Path("/dev/shm") / leaked).exists(), leaker.stderr
    mine = Segment.create(4096)
    try:
        assert owner_of(mine.name) == os.getpid() and owner_of(leaked) not in (None, os.getpid())
        assert leaked in reclaim_segments()
        assert not (Path("/dev/shm") / leaked).exists()
        assert (Path("/dev/shm") / mine.name).exists()  # its owner lives
    finally:
        mine.close()
        mine.unlink()
    assert not (Path("/dev/shm") / mine.name).exists()


def test_a_killed_root_split_worker_has_its_moves_searched_again(two_workers: EnginePool) -> None:
    before = two_workers.worker_pids
    killed: list[int] = []
    collector = Collector()

    def kill_on_first_progress(event: SearchEvent) -> None:
        # The first event of any kind (a fast share may end before the first Progress tick).
        if not isinstance(event, Finished) and not killed:
            killed.append(before[-1])
            os.kill(before[-1], signal.SIGKILL)
        collector(event)

    search_request = request("checkers", algorithm="minimax", depth=6, exact=True)
    two_workers.submit(search_request, kill_on_first_progress)
    finished = collector.next_of(Finished)
    single = search(games.new_game("checkers"), search_request.settings, search_request.limits)
    assert killed and finished.error is None
    assert finished.score.value == single.score.value
    counts = [event.nodes for event in collector.events if isinstance(event, (Iteration, Progress, Finished))]
    assert counts == sorted(counts)  # the lost work still counts: totals never go back


# -------------------------------------------------------------- lifecycle
@LINUX_ONLY
def test_start_and_shutdown_cycles_leave_no_process_and_no_memory() -> None:
    before = children_of(os.getpid())
    for _ in range(3):
        pool = EnginePool(workers=2, hash_megabytes=1)
        table = Path("/dev/shm") / pool._table.name
        assert table.exists()
        assert answer(pool, request("tictactoe", depth=2)).error is None
        pool.shutdown()
        pool.shutdown()
        assert children_of(os.getpid()) - before == set()
        assert not table.exists()
    with pytest.raises(RuntimeError, match="shut down"):
        pool.submit(request("tictactoe"), print)


def test_a_pool_is_ready_once_every_worker_has_started() -> None:
    pool = EnginePool(workers=1, hash_megabytes=1)
    try:
        assert pool.ready(timeout=WAIT)
        assert pool.ready(timeout=0)  # and stays so
    finally:
        pool.shutdown()
    assert not pool.ready(timeout=0)  # a pool shut down is not


TWO_POOLS_SCRIPT = """
import os
from ai.parallel import EnginePool
from ai.settings import Limits, SearchRequest
from tests.ai.test_pool import children_of

first = EnginePool(workers=1, hash_megabytes=1)  # starts the resource tracker
second = EnginePool(workers=1, hash_megabytes=1)
for pool in (first, second, first):
    assert list(pool.search(SearchRequest("tictactoe", limits=Limits(depth=2))))[-1].error is None
first.shutdown()
assert list(second.search(SearchRequest("tictactoe", limits=Limits(depth=2))))[-1].error is None
second.shutdown()
print(len(children_of(os.getpid())))
"""


@LINUX_ONLY
def test_pools_alive_together_shut_down_in_any_order() -> None:
    """The first pool of a fresh process starts multiprocessing's resource tracker, which
    must outlive the other pool's workers (ending it waits for their copies of its pipe):
    it ends with the last pool, and nothing is left."""
    done = subprocess.run(
        [sys.executable, "-c", TWO_POOLS_SCRIPT], cwd=REPO, capture_output=True, text=True, timeout=WAIT
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "0"


@LINUX_ONLY
def test_shutdown_during_a_search_still_ends_it() -> None:
    before = children_of(os.getpid())
    collector = Collector()
    with EnginePool(workers=2, hash_megabytes=1) as pool:
        pool.submit(request("chess"), collector)
        queued = Collector()
        pool.submit(request("chess"), queued)
        collector.next_of(Iteration)
    assert collector.next_of(Finished).stopped
    assert "shut down" in (queued.next_of(Finished).error or "")
    assert children_of(os.getpid()) - before == set()


FORGETFUL_SCRIPT = """
from ai.parallel import EnginePool
from ai.settings import Limits, SearchRequest

pool = EnginePool(workers=2, hash_megabytes=1)
print(pool._table.name, *pool.worker_pids, flush=True)
assert list(pool.search(SearchRequest("tictactoe", limits=Limits(depth=2))))[-1].error is None
pool.submit(SearchRequest("chess", limits=Limits()), lambda event: None)  # still running at exit
"""


@LINUX_ONLY
def test_a_program_that_forgets_shutdown_still_ends_quietly() -> None:
    done = subprocess.run(
        [sys.executable, "-c", FORGETFUL_SCRIPT], cwd=REPO, capture_output=True, text=True, timeout=WAIT
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    table, *workers = done.stdout.split()
    assert not (Path("/dev/shm") / table).exists()
    assert all(wait_gone(int(pid), 5) for pid in workers)


ORPHAN_SCRIPT = """
import json, os, signal, sys, threading
from multiprocessing import resource_tracker
from ai.parallel import EnginePool
from ai.settings import Limits, SearchRequest

pool = EnginePool(workers=2, hash_megabytes=1)
running = threading.Event()
pool.submit(SearchRequest("chess", limits=Limits()), lambda event: running.set())
running.wait(60)
print(json.dumps({"workers": pool.worker_pids, "tracker": resource_tracker._resource_tracker._pid,
                  "table": pool._table.name}), flush=True)
sys.stdin.readline()
os._exit(0)  # ends without any clean-up, as a crash would
"""


@LINUX_ONLY
@pytest.mark.parametrize("death", ["SIGKILL", "exit-without-clean-up"])
def test_workers_and_memory_go_when_the_parent_dies(death: str) -> None:
    parent = subprocess.Popen(
        [sys.executable, "-c", ORPHAN_SCRIPT],
        cwd=REPO,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        info = json.loads(parent.stdout.readline())  # type: ignore[union-attr]
        if death == "SIGKILL":
            parent.kill()
        else:
            parent.stdin.write("\n")  # type: ignore[union-attr]
            parent.stdin.flush()  # type: ignore[union-attr]
        parent.wait(WAIT)
        for pid in [*info["workers"], info["tracker"]]:
            assert wait_gone(pid), f"process {pid} outlived its parent"
        assert not (Path("/dev/shm") / info["table"]).exists()
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()


# ---------------------------------------------------------------- the compiled search
@pytest.mark.parametrize("game", ["chess", "checkers", "othello"])
def test_a_cleared_table_also_clears_the_compiled_search_in_its_worker(two_workers: EnginePool, game: str) -> None:
    """The compiled search keeps its own table in the worker that runs it: the same search
    again reuses it (fewer nodes), and after ``clear_table`` (UCI ``ucinewgame``, a new game)
    it starts from nothing again (the first search's count exactly)."""
    if games.get_game(game).NATIVE_SEARCH is None:
        pytest.skip(f"the compiled {game} search is not built")
    one_thread = request(game, algorithm="native", depth=9)
    one_thread = dataclasses.replace(one_thread, settings=dataclasses.replace(one_thread.settings, threads=1))
    first = answer(two_workers, one_thread)
    again = answer(two_workers, one_thread)
    two_workers.clear_table()
    cleared = answer(two_workers, one_thread)
    assert again.nodes < first.nodes
    assert cleared.nodes == first.nodes and cleared.best_move == first.best_move


@pytest.mark.parametrize("game", ["chess", "checkers", "othello"])
def test_the_compiled_search_runs_on_one_worker_and_stops_on_request(two_workers: EnginePool, game: str) -> None:
    """``native`` keeps its table in its own process: one worker, which runs ``threads``
    threads of its own (Lazy SMP); its events stream through the pool, and a stop answers
    at once."""
    if games.get_game(game).NATIVE_SEARCH is None:
        pytest.skip(f"the compiled {game} search is not built")
    one_thread = request(game, algorithm="native", depth=8)
    one_thread = dataclasses.replace(one_thread, settings=dataclasses.replace(one_thread.settings, threads=1))
    two_workers.clear_table()  # both from an empty table: the worker's and this process's
    clear_memory()
    finished = answer(two_workers, one_thread)
    alone = search(games.new_game(game), SearchSettings(algorithm="native", book=False, tt_megabytes=8), Limits(depth=8))
    assert finished.error is None and finished.depth == 8
    assert finished.nodes == alone.nodes and finished.best_move == alone.best_move  # one worker's tree
    two_threads = answer(two_workers, request(game, algorithm="native", depth=8))  # threads=2
    assert two_threads.error is None and two_threads.depth == 8
    assert two_threads.best_move in games.new_game(game).legal_moves()
    collector = Collector()
    search_id = two_workers.submit(request(game, algorithm="native"), collector)  # no limit
    collector.next_of(Iteration)
    asked = time.perf_counter()
    two_workers.move_now(search_id)
    stopped = collector.next_of(Finished)
    assert stopped.stopped and stopped.best_move in games.new_game(game).legal_moves()
    assert time.perf_counter() - asked < 1.0


def test_a_warm_up_sets_the_workers_up_and_delivers_nothing(pool: EnginePool) -> None:
    pids = pool.worker_pids
    settings = SearchSettings(algorithm="pvs", threads=pool.workers)
    request = SearchRequest("checkers", settings=settings, limits=Limits(depth=4))
    assert pool.warm_up(request)
    assert pool.worker_pids == pids  # nobody died or was replaced
    events = list(pool.search(request))
    assert isinstance(events[-1], Finished) and events[-1].error is None and events[-1].depth == 4
    assert all(event.search_id == events[-1].search_id for event in events)  # nothing of the warm-up
