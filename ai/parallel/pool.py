"""``EnginePool``: the engine service. Persistent worker processes that run every search.

Pure-Python search holds the GIL, so threads give no speed-up and make a GUI stutter; worker
*processes* give nearly one core each and leave the caller's process free. The pool is
started once and reused: ``spawn`` processes (``fork`` is unsafe under Qt's threads, and
``spawn`` is what a PyInstaller-frozen app and Windows/macOS use anyway), as many as there
are cores by default and never more.

The pool runs processes, carries events and keeps the shared memory; how one search is
shared among the workers (Lazy SMP, root parallel, root split, single worker) is the
search's strategy (``ai.parallel.strategies``), declared by its algorithm
(``AlgorithmSpec.parallelism``).

A search runs on ``settings.threads`` of the workers (all of them when it asks for more):
a pool started for the GUI's default of every core still runs a one-thread search on one.
Its transposition table is ``settings.tt_megabytes`` MB: a search over the shared table
asking for another size than the table has replaces the table before it starts (every
worker is idle then), and one that cannot have it ends with a ``Finished`` whose ``error``
says why. A time limit counts from the submission for every worker.

All the bookkeeping runs on one thread of the pool, the *dispatcher*: it starts searches,
reads the workers' pipes, merges, and delivers events to ``on_event`` (so every callback
runs on that thread, and the events of one search arrive in order). A search that records
its tree (``SearchRequest.tree``) sends ``TreeBatch`` events among the others: which workers
record it and how the run closes it are its strategy's. A search is stopped
through one shared word that every worker polls every few milliseconds. A worker that dies
(even by SIGKILL) is replaced at once; the search goes on with the others, and the caller
always gets its ``Finished``: when no other worker can answer for the dead one, the last
completed iteration delivered answers (as a search stopped by its limit does), with
``Finished.fault`` saying what happened. Workers watch their parent and exit when it is
gone, freeing its shared memory (``ai.parallel.segment``).
"""

from __future__ import annotations

import atexit
import collections
import dataclasses
import enum
import itertools
import multiprocessing
import multiprocessing.connection
import os
import queue
import threading
import time
import traceback
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Final

from ai import engine
from ai.cores import available_cores
from ai.events import Finished
from ai.parallel import tracker
from ai.parallel.segment import reclaim_segments
from ai.parallel.shared_table import DEFAULT_MEGABYTES, SharedTable, entries_for
from ai.parallel.strategies import Part, PoolEvent, SearchRun, plan
from ai.parallel.table_memory import create_table
from ai.parallel.worker import EVENT, FINISHED, NODES, QUIT, READY, STOP_WORD, Task, failed, worker_main
from ai.search.common import tree_signature
from ai.settings import Limits, SearchRequest

EventCallback = Callable[[PoolEvent], None]

STOP_GRACE_SECONDS: Final = 3.0
"""A worker that has not answered this long after a stop is killed and replaced (a stop is
normally answered within milliseconds): the caller never waits for a stuck worker."""
TIME_LIMIT_GRACE_SECONDS: Final = 0.5
"""The pool stops a search itself this long after its time limit, should a worker not."""
FIRST_ITERATION_GRACE_SECONDS: Final = 10.0
"""Before any iteration was shown, the pool waits this long past the time limit instead: a
worker's deepening completes its first iteration whatever the clock says
(``SearchControl.deadline_waits``), and a search stopped before it answers unsearched."""
DISPATCH_TICK_SECONDS: Final = 0.05
"""How often the dispatcher looks at the clock while a search runs (stop grace, limits)."""
SHUTDOWN_SECONDS: Final = 2.0
"""How long ``shutdown`` lets a search unwind and a worker exit before killing it."""
STOP_POLL_SECONDS: Final = 0.05
"""How often ``answer`` asks its ``should_stop`` while no event comes."""
NOT_STARTED: Final = "the engine pool was shut down before the search started"
WARM_UP_SECONDS: Final = 30.0
"""The longest ``warm_up`` waits for the workers (a machine that slow is told by the search)."""
MAX_PART_ATTEMPTS: Final = 2
"""A part searched again after its worker died (a root split's share, or a one-worker search
that had shown nothing yet) ends the search when its worker dies this many times."""


def _never() -> bool:
    return False


class _Order(enum.Enum):
    """What the caller queued for the dispatcher, done in the order queued."""

    SEARCH = enum.auto()
    """Run a ``_Search``."""
    CLEAR_TABLE = enum.auto()
    """Forget the shared table's contents."""
    NEW_TABLE = enum.auto()
    """Use the ``SharedTable`` given from now on."""


@dataclass
class _Worker:
    index: int
    process: Any
    connection: Any
    part: Part | None = None
    dead: bool = False
    started: bool = False
    """It has said it is ready (spawned, its modules imported, waiting for tasks)."""


@dataclass
class _Search:
    """A submitted search: the caller's side, and its run once it has started."""

    search_id: int
    request: SearchRequest
    on_event: EventCallback
    started: float
    run: SearchRun | None = None
    """Its parts and their merge (``None`` until it starts)."""
    pending: collections.deque[Part] = field(default_factory=collections.deque)
    """Parts waiting for a free worker."""
    token: int = 0
    move_now: bool = False
    stop_at: float | None = None
    """When the pool stopped it (a limit, ``move_now``, a cancel)."""


class EnginePool:
    """The engine service: ``submit`` a ``SearchRequest``, receive its events.

    ``workers=None`` uses every core; a larger number is cut to the core count; a search
    uses ``settings.threads`` of them. ``hash_megabytes`` sizes the shared transposition
    table until a search asks for another ``settings.tt_megabytes``. ``on_event``
    callbacks run on the pool's dispatcher thread and must not block on a thread that
    calls ``stop``.
    """

    def __init__(self, workers: int | None = None, hash_megabytes: float = DEFAULT_MEGABYTES) -> None:
        cores = available_cores()
        if workers is None:
            workers = cores
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise ValueError(f"the pool needs at least 1 worker, not {workers!r}")
        self._size = min(workers, cores)
        reclaim_segments()  # tables left by programs killed with their workers (SIGKILL of the group)
        tracker.pool_started()
        try:
            self._table = create_table(hash_megabytes)
        except BaseException:
            tracker.pool_ended()
            raise
        self._context = multiprocessing.get_context("spawn")
        self._control = self._context.RawArray("q", 1)
        self._lock = threading.RLock()
        """Guards delivery, the live searches and the stop word: ``stop`` takes it, so
        once it returns no event of the stopped search can be on its way to the caller."""
        self._workers_started = threading.Condition(self._lock)
        """Notified when a worker says it is ready, dies, or the pool closes (``ready``)."""
        self._live: dict[int, _Search] = {}
        self._cancelled: set[int] = set()
        self._queue: collections.deque[tuple[_Order, Any]] = collections.deque()
        self._active: _Search | None = None
        self._ids = itertools.count(1)
        self._tokens = itertools.count(1)
        self._table_signature: tuple[object, ...] | None = None
        self._clears = 0
        """How many ``clear_table`` calls have taken effect: a worker that has seen fewer
        forgets what it keeps of its own (a compiled search's table) before its next task."""
        self._closed = False
        self._wake_lock = threading.Lock()
        # A self-pipe: one byte wakes the dispatcher from its wait on the workers' pipes.
        # Non-blocking, so that a flood of wake-ups (a callback submitting from the
        # dispatcher thread itself) can never block.
        self._wake_reader, self._wake_writer = os.pipe()
        os.set_blocking(self._wake_reader, False)
        os.set_blocking(self._wake_writer, False)
        self._workers: list[_Worker] = []
        try:
            for index in range(self._size):
                self._workers.append(self._spawn(index))
        except BaseException:
            self._kill_all()
            self._table.close()
            os.close(self._wake_reader)
            os.close(self._wake_writer)
            tracker.pool_ended()
            raise
        self._thread = threading.Thread(target=self._dispatch, name="engine-pool-dispatcher", daemon=True)
        self._thread.start()
        _open_pools.add(self)

    # ------------------------------------------------------------- public API
    @property
    def workers(self) -> int:
        """How many worker processes search."""
        return self._size

    @property
    def worker_pids(self) -> tuple[int, ...]:
        """Process ids of the current workers (diagnostics; tests kill one)."""
        return tuple(worker.process.pid for worker in self._workers if not worker.dead)

    @property
    def hash_megabytes(self) -> float:
        return self._table.megabytes

    def ready(self, timeout: float | None = None) -> bool:
        """Block until every worker process has started and waits for work (spawned, its
        modules imported): a new pool's processes take a second or more (longer on a busy
        machine), and a search's time limit counts from its submission, so a search
        submitted after this has all of its time. False when ``timeout`` seconds passed
        first or the pool was shut down."""
        with self._workers_started:
            self._workers_started.wait_for(self._all_started, timeout)
            return self._all_started() and not self._closed

    def _all_started(self) -> bool:
        return self._closed or all(worker.started for worker in self._workers if not worker.dead)

    def warm_up(self, request: SearchRequest, timeout: float = WARM_UP_SECONDS) -> bool:
        """Have the workers that would search ``request`` set up its game and algorithm
        (import their modules, load a compiled search, attach the table) with a search of
        one node each, and wait for it here: a search's time counts from its submission, and
        a worker's first search of a game spent most of a short move on that (tic-tac-toe
        MCTS, 0.6 s on 2 fresh workers: 1,753 nodes; the same search next: 55,278). Nothing
        is delivered; False when the workers did not answer within ``timeout`` seconds."""
        settings = dataclasses.replace(request.settings, book=False)  # a book answer runs one part
        warm = dataclasses.replace(request, settings=settings, limits=Limits(nodes=1), tree=None)
        answered = threading.Event()
        search_id = self.submit(warm, lambda event: answered.set() if isinstance(event, Finished) else None)
        if answered.wait(timeout):
            return True
        self.stop(search_id)
        return False

    def submit(self, request: SearchRequest, on_event: EventCallback) -> int:
        """Queue ``request``; its events go to ``on_event`` (on the dispatcher thread), each
        with the returned search id, ending with exactly one ``Finished`` unless stopped.
        Searches run one after another in the order submitted."""
        started = time.perf_counter()
        with self._lock:
            if self._closed:
                raise RuntimeError("the engine pool has been shut down")
            search_id = next(self._ids)
            search = _Search(search_id, dataclasses.replace(request, search_id=search_id), on_event, started)
            self._live[search_id] = search
            self._queue.append((_Order.SEARCH, search))
        self._wake()
        return search_id

    def search(self, request: SearchRequest) -> Iterator[PoolEvent]:
        """The blocking form: yield the events of ``request`` until (and with) its
        ``Finished``. Leaving the loop early stops the search."""
        events: queue.SimpleQueue[PoolEvent] = queue.SimpleQueue()
        search_id = self.submit(request, events.put)
        done = False
        try:
            while not done:
                event = events.get()
                done = type(event) is Finished
                yield event
        finally:
            if not done:
                self.stop(search_id)

    def answer(
        self,
        request: SearchRequest,
        on_event: EventCallback,
        should_stop: Callable[[], bool] = _never,
        poll_seconds: float = STOP_POLL_SECONDS,
    ) -> Finished:
        """``request``'s ``Finished``, waited for on this thread; every other event goes to
        ``on_event`` on this thread (the CLI's ``--threads`` and the UCI front end drive the
        pool so). ``should_stop`` is asked every ``poll_seconds`` while no event comes; once
        it is true the search is asked to answer now (``move_now``), and its ``Finished``
        still comes."""
        events: queue.SimpleQueue[PoolEvent] = queue.SimpleQueue()
        search_id = self.submit(request, events.put)
        asked_to_stop = False
        while True:
            if not asked_to_stop and should_stop():
                self.move_now(search_id)
                asked_to_stop = True
            try:
                event = events.get(timeout=poll_seconds)
            except queue.Empty:
                continue
            if isinstance(event, Finished):
                return event
            on_event(event)

    def move_now(self, search_id: int) -> None:
        """Ask search ``search_id`` to end now; its ``Finished`` (``stopped=True``) still
        comes, with the best move found so far."""
        with self._lock:
            search = self._live.get(search_id)
            if search is None:
                return
            search.move_now = True
            if search is self._active:
                self._stop_workers(search)

    def stop(self, search_id: int | None = None) -> None:
        """Cancel ``search_id`` (default: every search, running or queued). When this
        returns, nothing more of it is delivered."""
        with self._lock:
            ids = set(self._live) if search_id is None else {search_id} & set(self._live)
            self._cancelled |= ids
            active = self._active
            if active is not None and active.search_id in ids:
                self._stop_workers(active)
        self._wake()

    def clear_table(self) -> None:
        """Forget the shared table's contents (UCI ``ucinewgame``), after the searches
        already submitted."""
        with self._lock:
            self._check_open()
            self._queue.append((_Order.CLEAR_TABLE, None))
        self._wake()

    def resize_table(self, megabytes: float) -> None:
        """Use a new shared table of ``megabytes`` MB from the next search on (the
        searches already submitted keep the old one). ``ValueError`` for a bad size. A
        search whose ``settings.tt_megabytes`` differs still gets a table of its own size:
        this makes the table ahead of time (UCI ``Hash``), it does not override the search."""
        table = create_table(megabytes)
        with self._lock:
            if self._closed:
                table.close()
                self._check_open()
            self._queue.append((_Order.NEW_TABLE, table))
        self._wake()

    def shutdown(self) -> None:
        """Stop everything, end every worker and free the shared memory. Idempotent. A
        running search still delivers its ``Finished`` (stopped); one not started yet gets
        a ``Finished`` with ``error`` set."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._workers_started.notify_all()
        self._wake()
        if threading.current_thread() is self._thread:
            return  # called from a callback: the dispatcher ends everything when it returns
        self._thread.join(SHUTDOWN_SECONDS * 3)
        if self._thread.is_alive():  # a callback blocks the dispatcher: end the workers anyway
            self._kill_all()

    def __enter__(self) -> EnginePool:
        return self

    def __exit__(self, *_: object) -> None:
        self.shutdown()

    # -------------------------------------------------------------- workers
    def _spawn(self, index: int) -> _Worker:
        parent_end, child_end = self._context.Pipe(duplex=True)
        process = self._context.Process(
            target=worker_main,
            args=(child_end, self._control, index),
            name=f"plyground-engine-{index}",
            daemon=True,
        )
        with tracker.quiet_relaunch():
            process.start()
        child_end.close()
        return _Worker(index, process, parent_end)

    def _send(self, worker: _Worker, message: object) -> bool:
        try:
            worker.connection.send(message)
            return True
        except (OSError, ValueError):
            return False  # it died: its sentinel tells the dispatcher

    def _kill_all(self) -> None:
        for worker in self._workers:
            if worker.process.is_alive():
                worker.process.kill()
            worker.process.join(SHUTDOWN_SECONDS)
            worker.connection.close()

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("the engine pool has been shut down")

    def _wake(self) -> None:
        with self._wake_lock:
            if self._wake_writer < 0:
                return  # the dispatcher has finished
            try:
                os.write(self._wake_writer, b"\0")
            except BlockingIOError:
                pass  # the pipe is full: the dispatcher wakes anyway

    def _stop_workers(self, search: _Search) -> None:
        """Clear the stop word (with the lock held): every worker of ``search`` unwinds."""
        self._control[STOP_WORD] = 0
        if search.stop_at is None:
            search.stop_at = time.perf_counter()

    # ----------------------------------------------------------- dispatcher
    def _dispatch(self) -> None:
        try:
            while True:
                if self._active is None and not self._start_next():
                    if self._closed:
                        break
                self._wait_and_handle()
                if self._closed and self._active is not None:
                    with self._lock:
                        self._stop_workers(self._active)
            self._finish_queue(NOT_STARTED)
        except Exception:  # a bug in the pool: keep the caller from hanging, say what it was
            traceback.print_exc()
            self._fail_everything("the engine pool failed: " + traceback.format_exc(limit=1).strip().splitlines()[-1])
        finally:
            self._end_workers()

    def _wait_and_handle(self) -> None:
        watched: list[Any] = [self._wake_reader]
        for worker in self._workers:
            if not worker.dead:
                watched.append(worker.connection)
                watched.append(worker.process.sentinel)
        timeout = DISPATCH_TICK_SECONDS if self._active is not None else None
        ready = multiprocessing.connection.wait(watched, timeout)
        if self._wake_reader in ready:
            try:
                while os.read(self._wake_reader, 4096):
                    pass
            except BlockingIOError:
                pass
        for worker in list(self._workers):
            if worker.dead:
                continue
            if worker.connection in ready:
                self._read(worker)
            if not worker.dead and worker.process.sentinel in ready:
                self._read(worker)  # what it sent before it died
                if not worker.dead:
                    self._worker_died(worker)
        self._watch_clock()

    def _read(self, worker: _Worker) -> None:
        try:
            while worker.connection.poll():
                message = worker.connection.recv()
                self._handle(worker, message)
        except (EOFError, OSError):
            self._worker_died(worker)

    def _handle(self, worker: _Worker, message: tuple[Any, ...]) -> None:
        kind = message[0]
        if kind == READY:
            with self._workers_started:
                worker.started = True
                self._workers_started.notify_all()
            return
        _, token, _, payload = message
        search = self._active
        part = worker.part
        if search is None or token != search.token or part is None or search.run is None:
            return  # late news of a search already over
        if kind == NODES:
            part.nodes = part.earlier_nodes + payload
        elif kind == EVENT:
            for event in search.run.receive(part, payload):
                self._deliver(search, event)
        elif kind == FINISHED:
            worker.part = None
            if search.run.answered(part, payload):
                with self._lock:
                    self._stop_workers(search)
            self._assign_pending(search)
            self._complete_if_done(search)

    # ----------------------------------------------------------- start a search
    def _start_next(self) -> bool:
        """Take the next queued item (a search, a table change); False when none."""
        while self._queue:
            kind, item = self._queue.popleft()
            if kind is _Order.CLEAR_TABLE:
                self._table.clear()
                self._table_signature = None
                self._clears += 1
            elif kind is _Order.NEW_TABLE:
                self._table.close()
                self._table = item
                self._table_signature = None
            elif item.search_id in self._cancelled:
                self._forget(item)
            elif self._closed:
                self._deliver_final(item, failed(item.search_id, NOT_STARTED))
            elif self._start(item):
                return True
        return False

    def _start(self, search: _Search) -> bool:
        """Start ``search`` on the workers; False when it could not start (a bad request,
        answered at once)."""
        request = search.request
        try:
            prepared = engine.prepare(request)
        except ValueError as error:
            self._deliver_final(search, failed(search.search_id, str(error)))
            return False
        workers = max(1, min(self._size, request.settings.threads))
        search.run = run = plan(request, prepared, workers, search.started)
        if run.shares_table and request.settings.transposition_table:
            try:
                self._size_table(request.settings.tt_megabytes)
            except ValueError as error:
                self._deliver_final(search, failed(search.search_id, str(error)))
                return False
            signature = (request.game, tree_signature(request.settings))
            if signature != self._table_signature:
                self._table.clear()  # every worker is idle: nobody searches it now
                self._table_signature = signature
            self._table.new_search()
        with self._lock:
            search.token = next(self._tokens)
            self._active = search
            self._control[STOP_WORD] = search.token
            if search.move_now or search.search_id in self._cancelled:
                self._stop_workers(search)
        search.pending.extend(run.parts)
        self._assign_pending(search)
        self._complete_if_done(search)  # no live worker at all
        return True

    def _size_table(self, megabytes: float) -> None:
        """Make the table ``megabytes`` MB if it is another size (between searches: no
        worker holds it); ``ValueError`` when no table of that size can be made."""
        if entries_for(megabytes) == self._table.size:
            return
        table = create_table(megabytes)
        self._table.close()
        self._table = table
        self._table_signature = None

    def _assign_pending(self, search: _Search) -> None:
        for worker in self._workers:
            if not search.pending:
                return
            if worker.dead or worker.part is not None:
                continue
            part = search.pending.popleft()
            task = Task(
                token=search.token,
                request=part.request,
                started=search.started,
                role=part.role,
                table_name=self._table.name,
                tree_signature=tree_signature(part.request.settings),
                clears=self._clears,
            )
            part.start_attempt(worker.index)
            worker.part = part
            if not self._send(worker, task):
                worker.part = None
                search.pending.appendleft(part)
                self._worker_died(worker)
                return

    # ------------------------------------------------------------- faults
    def _worker_died(self, worker: _Worker) -> None:
        """Reap ``worker``, start its replacement, and save what can be saved of the
        running search."""
        if worker.dead:
            return
        worker.dead = True
        worker.process.join(SHUTDOWN_SECONDS)
        code = worker.process.exitcode
        worker.connection.close()
        how = f"killed by signal {-code}" if code is not None and code < 0 else f"exited with status {code}"
        part = worker.part
        worker.part = None
        if not self._closed:
            replacement = self._spawn(worker.index)
            self._workers[self._workers.index(worker)] = replacement
        with self._workers_started:
            self._workers_started.notify_all()
        search = self._active
        if search is None or search.run is None:
            return
        if part is None:
            self._assign_pending(search)  # the replacement can take a part left waiting
            return
        run = search.run
        run.deaths.append(f"worker {worker.index} {how}")
        stopping = self._control[STOP_WORD] != search.token
        if run.strategy.searches_again(run) and not stopping and part.attempts < MAX_PART_ATTEMPTS:
            part.lose_attempt()
            search.pending.append(part)  # another worker searches it again
        else:
            run.abandon(part)
        self._assign_pending(search)
        self._complete_if_done(search)

    def _watch_clock(self) -> None:
        search = self._active
        if search is None:
            return
        now = time.perf_counter()
        limit = search.request.limits.time
        shown = search.run is not None and search.run.last_iteration is not None
        grace_after_limit = TIME_LIMIT_GRACE_SECONDS if shown else FIRST_ITERATION_GRACE_SECONDS
        if search.stop_at is None and limit is not None and now > search.started + limit + grace_after_limit:
            with self._lock:
                self._stop_workers(search)
        grace = SHUTDOWN_SECONDS if self._closed else STOP_GRACE_SECONDS
        if search.stop_at is not None and now > search.stop_at + grace:
            for worker in list(self._workers):
                if worker.part is not None and not worker.dead:
                    worker.process.kill()
                    self._worker_died(worker)

    # -------------------------------------------------------------- answers
    def _complete_if_done(self, search: _Search) -> None:
        if search is not self._active:
            return
        if search.pending and any(not worker.dead for worker in self._workers):
            return
        if any(worker.part is not None for worker in self._workers):
            return
        assert search.run is not None
        finished = search.run.answer(stopped=search.stop_at is not None)
        with self._lock:
            self._active = None
            self._control[STOP_WORD] = 0
        for batch in search.run.closing_batches():
            self._deliver(search, batch)
        for snapshot in search.run.closing_snapshot():
            self._deliver(search, snapshot)
        self._deliver_final(search, finished)

    # ------------------------------------------------------------ delivery
    def _deliver(self, search: _Search, event: PoolEvent) -> None:
        if search.run is not None:
            search.run.shown(event)
        with self._lock:
            if search.search_id in self._cancelled:
                return
            try:
                search.on_event(event)
            except Exception:  # the caller's bug must not take the pool down
                traceback.print_exc()

    def _deliver_final(self, search: _Search, finished: Finished) -> None:
        self._deliver(search, finished)
        self._forget(search)

    def _forget(self, search: _Search) -> None:
        with self._lock:
            self._live.pop(search.search_id, None)
            self._cancelled.discard(search.search_id)

    def _finish_queue(self, reason: str) -> None:
        while self._queue:
            kind, item = self._queue.popleft()
            if kind is _Order.NEW_TABLE:
                item.close()
            elif kind is _Order.SEARCH:
                self._deliver_final(item, failed(item.search_id, reason))

    def _fail_everything(self, reason: str) -> None:
        with self._lock:
            self._closed = True
        if self._active is not None:
            self._deliver_final(self._active, failed(self._active.search_id, reason))
            self._active = None
        self._finish_queue(reason)

    def _end_workers(self) -> None:
        """Ask every worker to quit, wait a little, kill what remains, free the table."""
        for worker in self._workers:
            if not worker.dead:
                self._send(worker, QUIT)
        deadline = time.monotonic() + SHUTDOWN_SECONDS
        for worker in self._workers:
            worker.process.join(max(0.0, deadline - time.monotonic()))
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join(SHUTDOWN_SECONDS)
            worker.connection.close()
        self._table.close()
        with self._wake_lock:
            os.close(self._wake_reader)
            os.close(self._wake_writer)
            self._wake_writer = -1
        with self._workers_started:
            self._workers_started.notify_all()
        tracker.pool_ended()


_open_pools: weakref.WeakSet[EnginePool] = weakref.WeakSet()
"""Pools not shut down yet: ``atexit`` shuts them down, so that a program that forgets to
still ends its workers and frees its table quietly."""


@atexit.register
def _shut_down_open_pools() -> None:
    for pool in list(_open_pools):
        pool.shutdown()
