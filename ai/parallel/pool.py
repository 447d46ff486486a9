"""``EnginePool``: the engine service. Persistent worker processes that run every search.

Pure-Python search holds the GIL, so threads give no speed-up and make a GUI stutter; worker
*processes* give nearly one core each and leave the caller's process free. The pool is
started once and reused: ``spawn`` processes (``fork`` is unsafe under Qt's threads, and
``spawn`` is what a PyInstaller-frozen app and Windows/macOS use anyway), as many as there
are cores by default and never more.

How one search uses all the workers depends on the algorithm:

* alpha-beta, PVS, MTD(f): **Lazy SMP**. Every worker searches the same root; helper ``k``
  starts at another depth and orders moves a little differently, and they all share one
  transposition table in shared memory (``SharedTable``), so the main search (worker part 0)
  finds more of its tree already done. The main search's answer is the result; the helpers
  are stopped when it finishes. Node counts are summed over the workers: a helper sends
  nothing but its count (and its answer), so that the dispatcher wakes only for what the
  caller sees. (Should the main search's worker die, a helper's answer ends the search, with
  no iterations shown in between.)
* MCTS: **root parallelism**. Independent trees with different seeds (``seed + k``); the
  root moves' visits and values are merged for the decision and for the display.
* ``native`` (a game's compiled search): one worker process, which runs the search's own
  Lazy SMP in as many threads as the search's share of the pool (``threads``, up to the
  pool's size); its table lives in that process, shared by its threads.
* minimax, expectiminimax, Star1, Star2: **root split**. The root moves are dealt out among
  the workers (``SearchRequest.root_moves``) and the best value wins. A chance root (dice to
  roll) has no move to choose and runs on one worker.

A search runs on ``settings.threads`` of the workers (all of them when it asks for more):
a pool started for the GUI's default of every core still runs a one-thread search on one.
Its transposition table is ``settings.tt_megabytes`` MB: a Lazy SMP search asking for
another size than the table has replaces the table before it starts (every worker is idle
then), and one that cannot have it ends with a ``Finished`` whose ``error`` says why.

A time limit counts from the submission for every worker. A node limit is the search's in
total where the parts are independent searches: MCTS's trees and a root split's parts each
get an equal share, so ``--nodes N --threads T`` searches about N nodes, as one worker
would. Lazy SMP is the exception: its answer is the main search's own tree, which the
helpers only feed through the table, so the main search keeps the whole limit (a share of
it would answer as a search of N/T nodes, weaker than one worker); the helpers stop when
it answers, so the nodes reported are up to T times N.

All the bookkeeping runs on one thread of the pool, the *dispatcher*: it starts searches,
reads the workers' pipes, merges, and delivers events to ``on_event`` (so every callback
runs on that thread, and the events of one search arrive in order). A search is stopped
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
import itertools
import multiprocessing
import multiprocessing.connection
import os
import queue
import threading
import time
import traceback
import warnings
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from multiprocessing import resource_tracker
from typing import Any, Final

from games.base import CHANCE

from ai import engine
from ai.events import CurrentMove, Finished, Iteration, Progress, RootMoveStat, SearchEvent, SearchStats
from ai.parallel.segment import SEGMENT_DIRECTORY, reclaim_segments
from ai.parallel.shared_table import DEFAULT_MEGABYTES, SharedTable, entries_for
from ai.parallel.worker import NODES, QUIT, STOP_WORD, Role, Task, failed, worker_main
from ai.search.common import tree_signature
from ai.settings import Limits, SearchRequest

EventCallback = Callable[[SearchEvent], None]

LAZY_SMP_ALGORITHMS: Final = frozenset({"alphabeta", "pvs", "mtdf"})
ROOT_PARALLEL_ALGORITHMS: Final = frozenset({"mcts"})
ONE_WORKER_ALGORITHMS: Final = frozenset({"native"})
"""Searches that run on one worker process whatever ``threads`` says: a game's compiled
search keeps its table in its own process and runs its own Lazy SMP threads there (as many
as ``threads``, up to the pool's size), sharing that table."""
"""Every other algorithm (minimax and the expectiminimax family) splits the root moves."""

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
NOT_STARTED: Final = "the engine pool was shut down before the search started"
MAX_PART_ATTEMPTS: Final = 2
"""A part searched again after its worker died (a root split's share, or a one-worker search
that had shown nothing yet) ends the search when its worker dies this many times."""


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


@dataclass
class _Worker:
    index: int
    process: Any
    connection: Any
    part: _Part | None = None
    dead: bool = False


@dataclass
class _Part:
    """What one worker does for one search."""

    number: int
    request: SearchRequest
    role: Role
    worker: int | None = None
    finished: Finished | None = None
    abandoned: bool = False
    attempts: int = 0
    nodes: int = 0
    """Nodes this part has searched, over all its attempts."""
    earlier_nodes: int = 0
    """Nodes of attempts lost with a worker that died."""
    root_moves: tuple[RootMoveStat, ...] = ()
    """MCTS: this tree's latest root statistics."""
    iterations: dict[int, Iteration] = field(default_factory=dict)
    """Root split: this part's completed iterations by depth."""

    @property
    def is_done(self) -> bool:
        return self.finished is not None or self.abandoned


@dataclass
class _Search:
    search_id: int
    request: SearchRequest
    on_event: EventCallback
    started: float
    mode: str = "single"
    """``smp``, ``mcts``, ``split`` or ``single``."""
    parts: list[_Part] = field(default_factory=list)
    pending: collections.deque[_Part] = field(default_factory=collections.deque)
    main: int = 0
    """The part whose answer and events are the search's (Lazy SMP, MCTS)."""
    token: int = 0
    move_now: bool = False
    stop_at: float | None = None
    reported_depth: int = 0
    """Root split: the deepest combined Iteration delivered."""
    deaths: list[str] = field(default_factory=list)
    uses_table: bool = False
    """The algorithm keeps a transposition table (the alpha-beta family)."""
    last_iteration: Iteration | None = None
    """The last completed iteration delivered to the caller (exact, with a line): the
    answer when the worker that would have answered dies (``_answer_from_last_iteration``)."""


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
        _pool_started()
        try:
            self._table = _create_table(hash_megabytes)
        except BaseException:
            _pool_ended()
            raise
        self._context = multiprocessing.get_context("spawn")
        self._control = self._context.RawArray("q", 1)
        self._lock = threading.RLock()
        """Guards delivery, the live searches and the stop word: ``stop`` takes it, so
        once it returns no event of the stopped search can be on its way to the caller."""
        self._live: dict[int, _Search] = {}
        self._cancelled: set[int] = set()
        self._queue: collections.deque[tuple[str, Any]] = collections.deque()
        self._active: _Search | None = None
        self._ids = itertools.count(1)
        self._tokens = itertools.count(1)
        self._table_signature: tuple[object, ...] | None = None
        self._clears = 0
        """How many ``clear_table`` calls have taken effect: a worker that has seen fewer
        forgets what it keeps of its own (a compiled search's table) before its next task."""
        self._closed = False
        self._wake_lock = threading.Lock()
        self._wake_reader, self._wake_writer = os.pipe()
        os.set_blocking(self._wake_reader, False)
        os.set_blocking(self._wake_writer, False)
        """A self-pipe: one byte wakes the dispatcher from its wait on the workers' pipes.
        Non-blocking, so that a flood of wake-ups (a callback submitting from the
        dispatcher thread itself) can never block."""
        self._workers: list[_Worker] = []
        try:
            for index in range(self._size):
                self._workers.append(self._spawn(index))
        except BaseException:
            self._kill_all()
            self._table.close()
            os.close(self._wake_reader)
            os.close(self._wake_writer)
            _pool_ended()
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
            self._queue.append(("search", search))
        self._wake()
        return search_id

    def search(self, request: SearchRequest) -> Iterator[SearchEvent]:
        """The blocking form: yield the events of ``request`` until (and with) its
        ``Finished``. Leaving the loop early stops the search."""
        events: queue.SimpleQueue[SearchEvent] = queue.SimpleQueue()
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
            self._queue.append(("clear", None))
        self._wake()

    def resize_table(self, megabytes: float) -> None:
        """Use a new shared table of ``megabytes`` MB from the next search on (the
        searches already submitted keep the old one). ``ValueError`` for a bad size. A
        search whose ``settings.tt_megabytes`` differs still gets a table of its own size:
        this makes the table ahead of time (UCI ``Hash``), it does not override the search."""
        table = _create_table(megabytes)
        with self._lock:
            if self._closed:
                table.close()
                self._check_open()
            self._queue.append(("table", table))
        self._wake()

    def shutdown(self) -> None:
        """Stop everything, end every worker and free the shared memory. Idempotent. A
        running search still delivers its ``Finished`` (stopped); one not started yet gets
        a ``Finished`` with ``error`` set."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
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
        with warnings.catch_warnings():
            # A spawn relaunches multiprocessing's resource tracker if it was killed (with
            # its process group, say) and warns that "some resources might leak": none of
            # ours can, since the pool registers nothing with it (``ai.parallel.segment``).
            warnings.filterwarnings("ignore", message="resource_tracker: process died unexpectedly")
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
        if kind == "ready":
            return
        _, token, _, payload = message
        search = self._active
        part = worker.part
        if search is None or token != search.token or part is None:
            return  # late news of a search already over
        if kind == NODES:
            part.nodes = part.earlier_nodes + payload
        elif kind == "event":
            self._on_worker_event(search, part, payload)
        elif kind == "finished":
            worker.part = None
            part.finished = payload
            part.nodes = part.earlier_nodes + payload.nodes
            if search.mode == "smp" and part.number == search.main:
                with self._lock:
                    self._stop_workers(search)  # the main search has answered: helpers stop
            self._assign_pending(search)
            self._complete_if_done(search)

    def _on_worker_event(self, search: _Search, part: _Part, event: SearchEvent) -> None:
        nodes = getattr(event, "nodes", None)
        if nodes is not None:
            part.nodes = part.earlier_nodes + nodes
        if search.mode == "split":
            if type(event) is Iteration:
                if event.bound == "exact":
                    part.iterations[event.depth] = event
                    self._report_split_iteration(search)
            elif type(event) is Progress and part is self._first_running(search):
                self._deliver(search, self._with_nodes(search, event))
            elif type(event) is CurrentMove and part is self._first_running(search):
                self._deliver(search, self._with_nodes(search, self._in_whole_root(search, part, event)))
            return
        if type(event) is Iteration and search.mode == "mcts":
            part.root_moves = event.root_moves
            if part.number == search.main:
                event = dataclasses.replace(event, root_moves=self._merged_root_moves(search))
        if part.number == search.main:
            self._deliver(search, self._with_nodes(search, event))

    # ----------------------------------------------------------- start a search
    def _start_next(self) -> bool:
        """Take the next queued item (a search, a table change); False when none."""
        while self._queue:
            kind, item = self._queue.popleft()
            if kind == "clear":
                self._table.clear()
                self._table_signature = None
                self._clears += 1
            elif kind == "table":
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
        self._plan(search, prepared)
        if search.uses_table and request.settings.transposition_table:
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
        search.pending.extend(search.parts)
        self._assign_pending(search)
        self._complete_if_done(search)  # no live worker at all
        return True

    def _size_table(self, megabytes: float) -> None:
        """Make the table ``megabytes`` MB if it is another size (between searches: no
        worker holds it); ``ValueError`` when no table of that size can be made."""
        if entries_for(megabytes) == self._table.size:
            return
        table = _create_table(megabytes)
        self._table.close()
        self._table = table
        self._table_signature = None

    def _plan(self, search: _Search, prepared: engine.PreparedSearch) -> None:
        """Cut ``search`` into parts, one per worker it may use (see the module docstring)."""
        request = search.request
        algorithm = prepared.algorithm.name
        count = max(1, min(self._size, request.settings.threads))
        if engine.known_answer(prepared.state, request.settings, prepared.root_moves) is not None:
            search.parts = [_Part(0, request, Role())]  # a book or forced answer: one worker, nothing to share out
            return
        if algorithm in ONE_WORKER_ALGORITHMS:
            settings = dataclasses.replace(request.settings, threads=count)
            search.parts = [_Part(0, dataclasses.replace(request, settings=settings), Role())]
            return
        if algorithm in LAZY_SMP_ALGORITHMS:
            search.mode = "smp" if count > 1 else "single"
            search.uses_table = True
            search.parts = [
                _Part(k, request, Role(helper=k, sends_current_moves=k == 0, sends_only_nodes=k > 0))
                for k in range(count)
            ]
            return
        if algorithm in ROOT_PARALLEL_ALGORITHMS:
            settings = request.settings
            search.mode = "mcts" if count > 1 else "single"
            search.parts = [
                _Part(
                    k,
                    dataclasses.replace(
                        request,
                        settings=dataclasses.replace(settings, seed=settings.seed + k),
                        limits=node_share(request.limits, k, count),
                    ),
                    Role(sends_current_moves=k == 0),
                )
                for k in range(count)
            ]
            return
        state = prepared.state
        moves = list(prepared.root_moves) or ([] if state.to_move() == CHANCE else state.legal_moves())
        if count == 1 or len(moves) < 2:
            search.parts = [_Part(0, request, Role())]
            return
        names = [state.move_name(move) for move in moves]
        shares = [tuple(names[k::count]) for k in range(min(count, len(names)))]
        search.mode = "split"
        search.parts = [
            _Part(
                k,
                dataclasses.replace(request, root_moves=share, limits=node_share(request.limits, k, len(shares))),
                Role(),
            )
            for k, share in enumerate(shares)
        ]

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
            part.worker = worker.index
            part.attempts += 1
            part.iterations.clear()
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
        search = self._active
        if search is None:
            return
        if part is None:
            self._assign_pending(search)  # the replacement can take a part left waiting
            return
        search.deaths.append(f"worker {worker.index} {how}")
        stopping = self._control[STOP_WORD] != search.token
        # A lost part is searched again by another worker when nothing else can answer
        # for it: a root split's moves, or a lone search that has shown no iteration yet.
        again = search.mode == "split" or (search.mode == "single" and search.last_iteration is None)
        if again and not stopping and part.attempts < MAX_PART_ATTEMPTS:
            part.earlier_nodes = part.nodes  # searched, if lost: the counts never go back
            search.pending.append(part)  # another worker searches it again
        else:
            part.abandoned = True
            if part.number == search.main:
                running = [other for other in search.parts if not other.is_done]
                if running:
                    search.main = running[0].number  # a helper's answer is as good
        self._assign_pending(search)
        self._complete_if_done(search)

    def _watch_clock(self) -> None:
        search = self._active
        if search is None:
            return
        now = time.perf_counter()
        limit = search.request.limits.time
        grace_after_limit = TIME_LIMIT_GRACE_SECONDS if search.last_iteration is not None else FIRST_ITERATION_GRACE_SECONDS
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
        finished = self._answer(search)
        with self._lock:
            self._active = None
            self._control[STOP_WORD] = 0
        self._deliver_final(search, finished)

    def _answer(self, search: _Search) -> Finished:
        """The search's ``Finished``, merged from its parts."""
        answered = [part.finished for part in search.parts if part.finished is not None]
        lost = [part for part in search.parts if not part.is_done]  # never ran: no worker left
        errors = [finished for finished in answered if finished.error is not None]
        if errors:
            return dataclasses.replace(errors[0], search_id=search.search_id)
        died = "; ".join(search.deaths)
        gave_up = any(part.abandoned for part in search.parts) and search.stop_at is None
        if not answered or (search.mode == "split" and (lost or gave_up)):
            if died and search.last_iteration is not None:
                return self._answer_from_last_iteration(search, died)
            reason = f"the search was lost: {died}" if died else "no worker could run the search"
            return failed(search.search_id, reason)
        nodes = sum(part.nodes for part in search.parts)
        if search.mode == "split":
            finished = self._best_of(answered)
            finished = dataclasses.replace(
                finished,
                depth=min(answer.depth for answer in answered),
                root_moves=tuple(stat for answer in answered for stat in answer.root_moves),
                stopped=any(answer.stopped for answer in answered),
                stats=_summed_stats(answered),
            )
        elif search.mode == "mcts":
            finished = self._merged_mcts(search, answered)
        else:
            main = search.parts[search.main].finished
            finished = main if main is not None else answered[0]
            last = search.last_iteration
            if died and last is not None and last.depth > finished.depth:
                # The main search died and a helper answered, from a shallower search than
                # the one already shown: the deeper completed iteration answers.
                return self._answer_from_last_iteration(search, died)
            if search.mode == "smp":
                finished = dataclasses.replace(finished, stats=_summed_stats(answered))
        elapsed = max(finished.time, 1e-9)
        return dataclasses.replace(finished, search_id=search.search_id, nodes=nodes, nps=nodes / elapsed)

    @staticmethod
    def _answer_from_last_iteration(search: _Search, died: str) -> Finished:
        """The answer of a search whose answering worker died: its last completed iteration
        (as a search stopped by its limit answers with it), marked ``stopped`` and with the
        ``fault`` said. Every iteration delivered was complete (a root split's only once
        every part had completed it), so its line is one the search stands by."""
        last = search.last_iteration
        assert last is not None and last.pv
        elapsed = max(time.perf_counter() - search.started, 1e-9)
        nodes = sum(part.nodes for part in search.parts)
        return Finished(
            search_id=search.search_id,
            best_move=last.pv[0],
            score=last.score,
            pv=last.pv,
            depth=last.depth,
            seldepth=last.seldepth,
            nodes=nodes,
            nps=nodes / elapsed,
            time=elapsed,
            stats=SearchStats(nodes=nodes),
            root_moves=last.root_moves,
            stopped=True,
            fault=f"an engine process died ({died}); the answer is the last completed iteration, depth {last.depth}",
        )

    @staticmethod
    def _best_of(answers: list[Finished]) -> Finished:
        """The part whose best move scores highest for the side to move at the root (all
        parts' scores are seen from that side)."""
        return max(answers, key=lambda answer: (answer.best_move is not None, answer.score.value))

    def _merged_root_moves(self, search: _Search) -> tuple[RootMoveStat, ...]:
        visits: dict[Any, int] = {}
        totals: dict[Any, float] = {}
        for part in search.parts:
            stats = part.root_moves if part.finished is None else part.finished.root_moves or part.root_moves
            for stat in stats:
                visits[stat.move] = visits.get(stat.move, 0) + stat.visits
                totals[stat.move] = totals.get(stat.move, 0.0) + stat.value * stat.visits
        merged = [
            RootMoveStat(move, count, totals[move] / count if count else 0.0) for move, count in visits.items()
        ]
        merged.sort(key=lambda stat: -stat.visits)  # stable: ties keep the first tree's order
        return tuple(merged)

    def _merged_mcts(self, search: _Search, answered: list[Finished]) -> Finished:
        """Root parallelism: the most visited root move over all trees; the score and line
        of the tree that visited it most."""
        root_moves = self._merged_root_moves(search)
        main = search.parts[search.main].finished or answered[0]
        if not root_moves or main.best_move is None:
            return dataclasses.replace(main, root_moves=root_moves)
        best = root_moves[0].move

        def visits_of_best(answer: Finished) -> int:
            return next((stat.visits for stat in answer.root_moves if stat.move == best), -1)

        source = max(answered, key=visits_of_best)
        if source.best_move != best:
            source = dataclasses.replace(source, best_move=best, pv=(best,))
        return dataclasses.replace(
            source,
            root_moves=root_moves,
            stats=_summed_stats(answered),
            stopped=any(answer.stopped for answer in answered),
        )

    def _report_split_iteration(self, search: _Search) -> None:
        """A root split's Iteration of depth d, once every part has completed depth d."""
        parts = [part for part in search.parts if not part.abandoned]
        depth = search.reported_depth + 1
        while all(depth in part.iterations for part in parts):
            iterations = [part.iterations[depth] for part in parts]
            best = max(iterations, key=lambda iteration: (bool(iteration.pv), iteration.score.value))
            search.reported_depth = depth
            self._deliver(search, self._with_nodes(search, best))
            depth += 1

    @staticmethod
    def _in_whole_root(search: _Search, part: _Part, event: CurrentMove) -> CurrentMove:
        """A root split part's current move, numbered among all the root's moves: part k
        searches every count-th move from the k-th, so its n-th is about the whole root's
        (k + (n - 1) * count + 1)-th. Only the first running part's are shown, so the
        count goes up as the search does rather than jumping between the parts."""
        count = len(search.parts)
        total = sum(len(other.request.root_moves) for other in search.parts)
        number = min(total, part.number + (event.number - 1) * count + 1)
        return dataclasses.replace(event, number=number, total=total)

    def _first_running(self, search: _Search) -> _Part | None:
        return next((part for part in search.parts if not part.is_done), None)

    def _with_nodes(self, search: _Search, event: SearchEvent) -> SearchEvent:
        """``event`` for the caller: its search id, and nodes summed over the workers. An
        event that has both already (a worker's request carries the search id; one worker's
        nodes are the sum) is passed on as it is: a ``replace`` costs the dispatcher more
        than reading the message did."""
        if isinstance(event, CurrentMove):
            if event.search_id == search.search_id:
                return event
            return dataclasses.replace(event, search_id=search.search_id)
        nodes = sum(part.nodes for part in search.parts)
        if nodes == event.nodes and event.search_id == search.search_id:
            return event
        elapsed = event.time
        return dataclasses.replace(
            event, search_id=search.search_id, nodes=nodes, nps=nodes / elapsed if elapsed > 0 else 0.0
        )

    # ------------------------------------------------------------ delivery
    def _deliver(self, search: _Search, event: SearchEvent) -> None:
        if type(event) is Iteration and event.bound == "exact" and event.pv:
            search.last_iteration = event
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
            if kind == "table":
                item.close()
            elif kind == "search":
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
        _pool_ended()


def node_share(limits: Limits, part: int, parts: int) -> Limits:
    """``limits`` for part ``part`` of ``parts`` independent searches that share a node
    limit: equal shares adding up to the limit (at least one node each)."""
    if limits.nodes is None or parts <= 1:
        return limits
    base, extra = divmod(limits.nodes, parts)
    return dataclasses.replace(limits, nodes=max(1, base + (1 if part < extra else 0)))


def _summed_stats(answers: list[Finished]) -> SearchStats:
    return SearchStats(
        nodes=sum(answer.stats.nodes for answer in answers),
        qnodes=sum(answer.stats.qnodes for answer in answers),
        tt_probes=sum(answer.stats.tt_probes for answer in answers),
        tt_hits=sum(answer.stats.tt_hits for answer in answers),
        cutoffs=sum(answer.stats.cutoffs for answer in answers),
        first_move_cutoffs=sum(answer.stats.first_move_cutoffs for answer in answers),
    )


def _create_table(megabytes: float) -> SharedTable:
    """A shared table, or ``ValueError`` saying why none of that size can be made.

    The size is checked against the free shared memory first: on a tmpfs a mapping larger
    than the space left is made without complaint, and touching its far pages later kills
    the process with SIGBUS."""
    if isinstance(megabytes, bool) or not isinstance(megabytes, (int, float)):
        raise ValueError(f"the table size is a number of megabytes, not {megabytes!r}")
    if not megabytes > 0 or megabytes == float("inf"):
        raise ValueError(f"the shared transposition table needs a positive size, not {megabytes} MB")
    free = _free_shared_megabytes()
    if free is not None and megabytes > free:
        raise ValueError(f"cannot make a shared table of {megabytes} MB: only {free:.0f} MB of shared memory are free")
    try:
        return SharedTable.create(megabytes)
    except (OSError, OverflowError, MemoryError) as error:
        raise ValueError(f"cannot make a shared table of {megabytes} MB: {error}") from None


def _free_shared_megabytes() -> float | None:
    """Free space for shared memory in MB, or ``None`` where that cannot be known."""
    try:
        stats = os.statvfs(SEGMENT_DIRECTORY)
    except (OSError, AttributeError):
        return None
    return stats.f_bavail * stats.f_frsize / (1 << 20)


# multiprocessing's resource tracker is a child process started by the first spawn process
# (the pool's shared memory does not use it), and kept until the interpreter exits. The pools end it when
# the last of them ends, if it was not running before the first began: no child process is
# left behind. (It must outlive every worker: ending it waits for their copies of its pipe.)
_pools_lock = threading.Lock()
_live_pools = 0
_tracker_is_ours = False


_open_pools: weakref.WeakSet[EnginePool] = weakref.WeakSet()
"""Pools not shut down yet: ``atexit`` shuts them down, so that a program that forgets to
still ends its workers and frees its table quietly."""


@atexit.register
def _shut_down_open_pools() -> None:
    for pool in list(_open_pools):
        pool.shutdown()


def _pool_started() -> None:
    global _live_pools, _tracker_is_ours
    with _pools_lock:
        if _live_pools == 0:
            _tracker_is_ours = getattr(resource_tracker._resource_tracker, "_pid", None) is None
        _live_pools += 1


def _pool_ended() -> None:
    global _live_pools
    with _pools_lock:
        _live_pools -= 1
        # Another process of ours (not a pool's) would keep the tracker's pipe open, and
        # ending the tracker would wait for it: leave the tracker to the interpreter's exit.
        if _live_pools == 0 and _tracker_is_ours and not multiprocessing.active_children():
            stop = getattr(resource_tracker._resource_tracker, "_stop", None)
            if stop is not None:
                try:
                    stop()
                except Exception:  # it is gone already
                    pass
