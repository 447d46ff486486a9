"""The one GUI object that talks to the engine pool.

Where things run:

* **The searches** run in the pool's worker *processes* (``ai.parallel.EnginePool``,
  started with ``spawn``), never in the app's process: pure-Python search holds the GIL,
  and a search thread here would stall the event loop. ``SearchSettings.threads`` is the
  number of those processes a search uses (Lazy SMP, root-parallel MCTS or a root split,
  as the algorithm's strategy says: ``ai.parallel.strategies``); the pools the bridge
  starts run at a lower priority (``WORKER_NICENESS``).
* **The pool's dispatcher thread** (one, in this process, owned by the pool) reads the
  workers' pipes and calls the bridge's ``on_event`` callback with each event.
* **The bridge's admin thread** (one) makes every call into the pool in order: starting it
  (which spawns the processes, maps the shared table and waits until every worker answers,
  so that the first search's time limit is not spent on start-up), the workers' set-up of
  each game and algorithm before its first search (``EnginePool.warm_up``: a move's time is
  for searching, not for importing), a table resize, ``submit``, ``stop``, ``move_now``; and, when a search asks for another number of processes, shutting
  the old pool down on a short-lived thread of its own. The GUI thread only bumps the
  generation and queues the command, so it never waits for a process to spawn or end;
  only ``shutdown`` (at exit) waits for the pool's processes.
* **The GUI thread** receives the events, coalesced to about ten deliveries a second,
  because a live display gains nothing from more and the event loop must stay free for
  the person at the board:

  * ``Progress`` and ``CurrentMove``: only the latest of each batch is delivered;
  * ``Iteration``: every one is kept (the per-iteration table needs them all), delivered in
    the batch they arrived in;
  * ``TreeBatch`` (a search that records its tree): every one is kept, since each holds
    only the nodes since the last; the pool's thread cuts a large one into slices
    (``TREE_SLICE_ENTRIES``), and the GUI thread takes them in a few milliseconds of work
    per turn of the event loop (``TREE_BUDGET_MS``), so that a tree of 100,000 nodes grows
    while the loop stays free; while it grows, the garbage collector leaves it alone
    (``TreeCollection``);
  * ``Finished``: delivered at once, after whatever was pending for that search.

A cancelled search's late events are dropped, never shown: each search gets a generation
number (its ``search_id`` as the GUI sees it) before it is submitted; an event of any other
generation is ignored on the dispatcher thread and again on the GUI thread (a batch may be
in flight when the user presses stop).

The dispatcher thread wakes the GUI thread with the self-pipe trick (a byte on a socket
pair, read by a ``QSocketNotifier``), not with a signal emitted from that thread: PySide6
6.11 crashed (SIGSEGV in ``SignalInstance.emit``, about one test run in ten) when a Python
thread that Qt did not start emitted a queued signal, so no thread but the GUI's calls into
Qt.

Pattern from the Qt for Python examples and Anki's ``aqt`` (background work returns to the
main thread; a cancelled task's results are dropped).
"""

from __future__ import annotations

import collections
import dataclasses
import gc
import os
import socket
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Protocol

from PySide6.QtCore import QObject, QSocketNotifier, QTimer, Signal, Slot

from ai.cores import available_cores
from ai.engine import PreparedSearch, only_move_answer, prepare
from ai.events import CurrentMove, Finished, Iteration, Progress
from ai.parallel import EnginePool
from ai.settings import Limits, SearchRequest, SearchSettings, check_tree_options
from ai.tree.mcts import MctsSnapshot
from ai.tree.model import SearchTree, TreeBatch, TreeOptions
from games.base import GameState

DELIVERY_INTERVAL_MS = 100
"""At most one delivery per this many milliseconds while a search runs (about 10 Hz)."""
TREE_SLICE_ENTRIES = 500
"""The most node entries of one ``tree_batch_received``: taking in a slice (the bridge's
tree and the panels that draw it) must fit in a turn of the event loop."""
TREE_BUDGET_MS = 6.0
"""GUI-thread time spent on tree slices before the event loop gets a turn: input, painting
and timers run between two such stretches (goal: no gap over 20 ms in 99 of 100)."""
WORKER_NICENESS = 10
"""How much lower than the app the engine's worker processes run (Unix niceness). The app
needs a few milliseconds of CPU at the moment it wakes; with every core busy searching at
the same priority it waited up to ~50-150 ms for one (bench/gui_latency.py on 2 cores). The
CLI and UCI engine keep full priority: this is the app's choice, made here."""


class EnginePoolLike(Protocol):
    """What the bridge uses of ``ai.parallel.EnginePool`` (tests hand in doubles)."""

    @property
    def workers(self) -> int: ...

    def submit(self, request: SearchRequest, on_event: Callable[[Any], None]) -> int: ...

    def move_now(self, search_id: int) -> None: ...

    def stop(self, search_id: int | None = None) -> None: ...

    def resize_table(self, megabytes: int) -> None: ...

    def clear_table(self) -> None: ...

    def warm_up(self, request: SearchRequest) -> bool: ...

    def shutdown(self) -> None: ...


PoolFactory = Callable[[int, int], EnginePoolLike]
"""Makes a pool of so many worker processes with a table of so many MB."""


class TreeCollection:
    """Keeps a growing tree out of the garbage collector's full collections.

    A recorded tree is two tracked objects a node (the node and its list of children),
    made by the hundred thousand while the search runs; every time the long-lived objects
    have grown by a quarter, Python runs a full collection over all of them, which with a
    100,000-node tree held up the event loop for 200-400 ms (bench/gui_latency.py --tree).
    While a tree grows, each turn that took in new nodes moves every tracked object out of
    the collector's sight (``gc.freeze``: O(1)); once it stops growing (the search ended,
    or the recorder is past its cap and sends only exits) they are handed back
    (``gc.unfreeze``), so garbage made meanwhile is collected as usual. The tree holds no
    cycles: it is freed by reference counting when it is dropped, frozen or not.
    """

    def __init__(self) -> None:
        self.is_holding = False

    def hold(self) -> None:
        gc.freeze()
        self.is_holding = True

    def release(self) -> None:
        if self.is_holding:
            self.is_holding = False
            gc.unfreeze()

    def follow(self, grew: bool) -> None:
        """A turn took in tree slices: hold while the tree grows, else let go."""
        if grew:
            self.hold()
        else:
            self.release()


def make_pool(workers: int, hash_megabytes: int) -> EnginePoolLike:
    """The real engine pool, returned once every worker process has started
    (``EnginePool.ready``): a search's time limit counts from its submission, so the first
    search of a fresh pool would otherwise spend it on the processes' start (a 1-second hint
    would answer at depth 0 with an unsearched move)."""
    pool = EnginePool(workers=workers, hash_megabytes=hash_megabytes)
    pool.ready()
    return pool


def lower_priority(pids: Iterable[int]) -> None:
    """Run processes ``pids`` at ``WORKER_NICENESS`` (where the system has niceness)."""
    if not hasattr(os, "setpriority"):
        return
    for pid in pids:
        try:
            os.setpriority(os.PRIO_PROCESS, pid, max(WORKER_NICENESS, os.getpriority(os.PRIO_PROCESS, pid)))
        except OSError:  # gone already, or not ours to change: it only costs smoothness
            pass


@dataclass(frozen=True)
class SearchInfo:
    """What a display needs to show one search: the root state names the moves of its
    events (``root.move_name(move)``, ``root.line_names(pv)``); the settings say what runs."""

    search_id: int
    root: GameState
    settings: SearchSettings
    limits: Limits
    tree: TreeOptions | None = None
    """How the search records its tree (``None``: it records none)."""


@dataclass
class _Pending:
    """Events of the current search waiting for the next delivery (the pool's thread
    writes, the GUI thread takes them all at once)."""

    iterations: list[tuple[int, Iteration]] = dataclasses.field(default_factory=list)
    trees: list[tuple[int, TreeBatch]] = dataclasses.field(default_factory=list)
    """Tree batches (in slices), every one: each holds only the nodes since the last."""
    progress: tuple[int, Progress] | None = None
    current_move: tuple[int, CurrentMove] | None = None
    snapshot: tuple[int, MctsSnapshot] | None = None
    """The newest MCTS snapshot (each is the whole top of the tree: older ones are dropped)."""
    finished: Finished | None = None
    failure: str | None = None
    """The search could not start (the pool failed to start or refused the request)."""

    def is_empty(self) -> bool:
        return (
            not self.iterations
            and not self.trees
            and self.progress is None
            and self.current_move is None
            and self.snapshot is None
            and self.finished is None
            and self.failure is None
        )


class EngineBridge(QObject):
    """Starts and stops searches on the pool and re-emits their events on the GUI thread.

    Signals (all on the GUI thread; every event's ``search_id`` is the one ``start_search``
    returned):

    * ``search_started(SearchInfo)`` when ``start_search`` accepted a search;
    * ``iteration_received(Iteration)``, every iteration, delivered in ~10 Hz batches;
    * ``progress_received(Progress)`` and ``current_move_received(CurrentMove)``: the latest;
    * ``search_finished(Finished)``: the answer (``stopped`` set after ``move_now`` or a limit);
      at a root with one legal move it comes at once, with no search and no pool
      (``only_move`` set: ``ai.engine.only_move_answer``), so the computer plays a forced
      move, a forced pass or a roll with one play without spending its time;
    * ``search_failed(str)``: the search could not run or a worker failed; one clear line;
    * ``tree_started(SearchTree)``: a search that records its tree started (after
      ``search_started``); the tree, empty yet, is ``tree`` from now on;
    * ``tree_cancelled(SearchTree)``: the recording search was stopped before it answered
      (``stop``, or a new search): its tree, ``cancelled`` set, will grow no more;
    * ``tree_batch_received(TreeBatch)``: a slice of the tree, already added to ``tree``;
      every one, in order, before the search's ``search_finished``;
    * ``mcts_snapshot_received(MctsSnapshot)``: an MCTS search that records its tree, the
      newest picture of its top (``ai.tree.mcts``; older ones not yet shown are dropped),
      the last one (``complete``) before ``search_finished``.

    After ``stop()`` (or a new ``start_search``) nothing more of the old search is emitted.

    A search records its tree when its request says so (``SearchRequest.tree``), when
    ``start_search`` is given ``tree``, or else while ``record_tree`` is set (the tree panel
    sets it while it is shown).

    The pool is started on the first search with ``settings.threads`` worker processes (at
    most the cores) and a ``settings.tt_megabytes`` table. A later search asking for another
    number of processes gets a new pool; the old one is shut down in the background. With ``workers``
    given, the pool always has that many workers whatever ``settings.threads`` says; a pool
    handed in as ``pool`` is used as it is.
    """

    search_started = Signal(object)
    iteration_received = Signal(object)
    progress_received = Signal(object)
    current_move_received = Signal(object)
    search_finished = Signal(object)
    search_failed = Signal(str)
    tree_started = Signal(object)
    tree_batch_received = Signal(object)
    tree_cancelled = Signal(object)
    mcts_snapshot_received = Signal(object)

    def __init__(
        self,
        pool: EnginePoolLike | None = None,
        *,
        pool_factory: PoolFactory = make_pool,
        workers: int | None = None,
        interval_ms: int = DELIVERY_INTERVAL_MS,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        if workers is not None and workers < 1:
            raise ValueError(f"the engine needs at least 1 worker, not {workers}")
        self._interval = interval_ms / 1000.0
        self._is_shut_down = False

        # Owned by the admin thread (read elsewhere only after it has ended).
        self._pool = pool
        self._pool_factory: PoolFactory | None = None if pool is not None else pool_factory
        """``None``: the pool was handed in and is kept whatever the settings say."""
        self._fixed_workers = workers
        self._table_megabytes: int | None = None
        self._pool_ids: dict[int, int] = {}
        """Generation -> the pool's id of that search, while the pool may still run it."""
        self._warmed: set[tuple[str, str]] = set()
        """(game, algorithm) the pool's workers have set up (``EnginePool.warm_up``)."""
        self._retiring: list[threading.Thread] = []
        """Threads shutting down pools replaced after a change of thread count."""
        self._admin = ThreadPoolExecutor(max_workers=1, thread_name_prefix="engine-bridge-admin")

        # Shared between the pool's thread and the GUI thread, under the lock.
        self._lock = threading.Lock()
        self._generation = 0
        """The current search's number; events of any other are dropped."""
        self._pending = _Pending()
        self._sequence = 0
        self._wake_posted = False

        # GUI thread only.
        self._info: SearchInfo | None = None
        self._last_delivery = 0.0
        self._record_tree: TreeOptions | None = None
        self._tree: SearchTree | None = None
        self._tree_collection = TreeCollection()
        self._ready: collections.deque[tuple[int, Any]] = collections.deque()
        """Delivered events not emitted yet (tree slices past the turn's budget, and what
        came after them), with the generation they belong to."""
        self._ready_final: tuple[int, Finished | str] | None = None
        """The answer (or failure) to emit once ``_ready`` is empty."""
        self._drain_timer = QTimer(self)
        self._drain_timer.setSingleShot(True)
        self._drain_timer.setInterval(0)
        self._drain_timer.timeout.connect(self._drain)
        self._wake_receiver, self._wake_sender = socket.socketpair()
        self._wake_receiver.setblocking(False)
        self._wake_sender.setblocking(False)
        self._wake_notifier = QSocketNotifier(self._wake_receiver.fileno(), QSocketNotifier.Type.Read, self)
        self._wake_notifier.activated.connect(self._on_events_waiting)
        self._delivery_timer = QTimer(self)
        self._delivery_timer.setSingleShot(True)
        self._delivery_timer.timeout.connect(self._deliver)

    # ------------------------------------------------------------------ commands
    @property
    def is_searching(self) -> bool:
        """Whether a search was started and has not finished, failed or been stopped."""
        return self._info is not None

    @property
    def search_info(self) -> SearchInfo | None:
        """The running search (``None`` when idle)."""
        return self._info

    @property
    def pool(self) -> EnginePoolLike | None:
        """The pool (``None`` until the first search has started it)."""
        return self._pool

    @property
    def record_tree(self) -> TreeOptions | None:
        """The tree recording of every search started from now on whose request does not
        say its own (``None``: none records). ``SettingError`` for options no recorder can
        honour."""
        return self._record_tree

    @record_tree.setter
    def record_tree(self, options: TreeOptions | None) -> None:
        check_tree_options(options)
        self._record_tree = options

    @property
    def tree(self) -> SearchTree | None:
        """The tree of the last search that recorded one, as far as it has come (kept after
        the search ends, until the next recording search starts)."""
        return self._tree

    def start_search(
        self,
        target: GameState | SearchRequest,
        settings: SearchSettings | None = None,
        limits: Limits | None = None,
        *,
        tree: TreeOptions | None = None,
    ) -> int | None:
        """Search ``target`` (a state, or a request with its move history for repetition
        rules); returns the search id, or ``None`` when the request is bad (then
        ``search_failed`` follows with the reason). A running search is stopped first.
        ``tree``: record the tree so (a request's own ``tree`` comes first, then this,
        then ``record_tree``)."""
        self.stop()
        if self._is_shut_down:
            self._fail_later("the engine was shut down")
            return None
        try:
            prepared = self._prepared(target, settings, limits, tree or self._record_tree)
        except ValueError as error:
            self._fail_later(str(error))
            return None
        request = prepared.request
        with self._lock:
            self._generation += 1
            generation = self._generation
            self._pending = _Pending()
            self._wake_posted = False
        self._info = SearchInfo(generation, prepared.state, request.settings, request.limits, request.tree)
        self._last_delivery = 0.0  # the first events are shown at once
        only_move = only_move_answer(prepared)
        if only_move is None:
            self._admin.submit(self._submit_on_admin, generation, request)
        self.search_started.emit(self._info)
        if request.tree is not None:
            self._tree = SearchTree()
            self._tree_collection.hold()  # what the app holds already is not scanned either
            self.tree_started.emit(self._tree)
        if only_move is not None:  # one legal move: answered here at once, nothing to search
            if request.tree is not None:
                self._receive(generation, TreeBatch(generation, complete=True))
            self._receive(generation, only_move)
        return generation

    def move_now(self) -> None:
        """Ask the running search to answer now; its ``Finished`` still comes."""
        if self._info is not None and not self._is_shut_down:
            self._admin.submit(self._move_now_on_admin, self._info.search_id)

    def stop(self) -> None:
        """Cancel the running search: nothing more of it is emitted (from this call on)."""
        with self._lock:
            stopped = self._generation
            self._generation += 1
            self._pending = _Pending()
            self._wake_posted = False
        self._delivery_timer.stop()
        self._drain_timer.stop()
        self._ready.clear()
        self._ready_final = None
        self._tree_collection.release()
        if self._info is not None and not self._is_shut_down:
            self._admin.submit(self._stop_on_admin, stopped)
        growing = self._info is not None and self._info.tree is not None and self._tree is not None
        self._info = None
        if growing and self._tree is not None and not self._tree.complete:
            self._tree.cancelled = True
            self.tree_cancelled.emit(self._tree)

    def clear_memory(self) -> None:
        """Forget what the searches so far learned (the pool's table and what each worker
        keeps, as UCI ``ucinewgame`` and the match runner between games): a new game is not
        searched with the last one's analysis. After the calls already queued, before the
        next search; nothing to do while no pool has started."""
        if not self._is_shut_down:
            self._admin.submit(self._clear_on_admin)

    def shutdown(self) -> None:
        """Stop any search and end the pool's processes, waiting for them (idempotent; the
        one blocking call: for the window's close and the app's exit)."""
        if self._is_shut_down:
            return
        self.stop()
        self._is_shut_down = True
        self._admin.shutdown(wait=True)  # a pool being started is finished first
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown()
        for retiring in self._retiring:
            retiring.join()
        self._retiring.clear()
        with self._lock:  # the pool's thread sends under this lock: none is sending now
            self._wake_notifier.setEnabled(False)
            self._wake_sender.close()
            self._wake_receiver.close()

    # ------------------------------------------------------------ set-up helpers
    @staticmethod
    def _prepared(
        target: GameState | SearchRequest,
        settings: SearchSettings | None,
        limits: Limits | None,
        tree: TreeOptions | None,
    ) -> PreparedSearch:
        if isinstance(target, SearchRequest):
            request = target
            if settings is not None:
                request = dataclasses.replace(request, settings=settings)
            if limits is not None:
                request = dataclasses.replace(request, limits=limits)
            if request.tree is None and tree is not None:
                request = dataclasses.replace(request, tree=tree)
        else:
            request = SearchRequest(
                game=target.NAME,
                position=target.to_text(),
                settings=SearchSettings() if settings is None else settings,
                limits=Limits() if limits is None else limits,
                tree=tree,
            )
        return prepare(request)  # fails fast, with the reason, on a bad request

    def _fail_later(self, message: str) -> None:
        """Emit ``search_failed`` from the event loop, as a failing search would."""
        QTimer.singleShot(0, self, lambda: self.search_failed.emit(message))

    # ------------------------------------------------------------ admin thread
    def _pool_for(self, settings: SearchSettings) -> EnginePoolLike:
        """A pool with the workers and table ``settings`` ask for (admin thread)."""
        threads = settings.threads if self._fixed_workers is None else self._fixed_workers
        workers = max(1, min(threads, available_cores()))
        megabytes = settings.tt_megabytes
        pool = self._pool
        if pool is not None and self._pool_factory is not None and pool.workers != workers:
            retiring = threading.Thread(target=pool.shutdown, name="engine-pool-retire", daemon=True)
            retiring.start()
            self._retiring.append(retiring)
            self._pool_ids.clear()
            self._warmed.clear()
            pool = self._pool = None
        if pool is None:
            assert self._pool_factory is not None
            pool = self._pool = self._pool_factory(workers, megabytes)
            lower_priority(getattr(pool, "worker_pids", ()))
        else:
            current = self._table_megabytes
            if current is None:  # a pool handed in: ask it
                current = getattr(pool, "hash_megabytes", megabytes)
            if megabytes != current:
                pool.resize_table(megabytes)
        self._table_megabytes = megabytes
        return pool

    def _is_current(self, generation: int) -> bool:
        with self._lock:
            return generation == self._generation

    def _submit_on_admin(self, generation: int, request: SearchRequest) -> None:
        if not self._is_current(generation):
            return  # stopped before it reached the pool
        try:
            pool = self._pool_for(request.settings)
            if not self._is_current(generation):
                return  # stopped while the pool was starting
            kind = (request.game, request.settings.algorithm)
            if kind not in self._warmed:  # the move's time is for searching, not for set-up
                pool.warm_up(request)
                self._warmed.add(kind)
                if not self._is_current(generation):
                    return
            pool_id = pool.submit(request, lambda event: self._receive(generation, event))
        except Exception as error:  # noqa: BLE001 (any failure to start must reach the user, not vanish in the executor)
            self._receive(generation, f"the engine could not start: {error}" if str(error) else type(error).__name__)
            return
        self._pool_ids[generation] = pool_id

    def _stop_on_admin(self, generation: int) -> None:
        pool_id = self._pool_ids.pop(generation, None)
        if pool_id is not None and self._pool is not None:
            self._pool.stop(pool_id)

    def _clear_on_admin(self) -> None:
        if self._pool is not None:
            self._pool.clear_table()

    def _move_now_on_admin(self, generation: int) -> None:
        pool_id = self._pool_ids.get(generation)
        if pool_id is not None and self._pool is not None:
            self._pool.move_now(pool_id)

    # ------------------------------------------------------- pool thread side
    def _receive(self, generation: int, event: object) -> None:
        """The pool's ``on_event`` (its thread) and the admin thread's failure report.
        Never calls into Qt: it buffers, and wakes the GUI thread through the socket."""
        with self._lock:
            if generation != self._generation:
                return  # a stopped or replaced search
            self._sequence += 1
            pending = self._pending
            is_final = False
            if isinstance(event, Iteration):
                pending.iterations.append((self._sequence, event))
            elif isinstance(event, TreeBatch):
                for piece in event.split(TREE_SLICE_ENTRIES):
                    pending.trees.append((self._sequence, piece))
                    self._sequence += 1
            elif isinstance(event, Progress):
                pending.progress = (self._sequence, event)
            elif isinstance(event, CurrentMove):
                pending.current_move = (self._sequence, event)
            elif isinstance(event, MctsSnapshot):
                pending.snapshot = (self._sequence, event)
            elif isinstance(event, Finished):
                pending.finished = event
                is_final = True
            elif isinstance(event, str):
                pending.failure = event
                is_final = True
            else:
                return
            if self._wake_posted and not is_final:
                return
            self._wake_posted = True
            try:
                self._wake_sender.send(b"\0")
            except OSError:  # full (a wake-up is already waiting) or closed at shutdown
                pass

    # ---------------------------------------------------------- GUI thread side
    @Slot()
    def _on_events_waiting(self) -> None:
        try:
            while self._wake_receiver.recv(4096):
                pass
        except OSError:  # nothing more to read
            pass
        with self._lock:
            is_final = self._pending.finished is not None or self._pending.failure is not None
        wait = self._last_delivery + self._interval - time.monotonic()
        if is_final or wait <= 0:
            self._deliver()
        elif not self._delivery_timer.isActive():
            self._delivery_timer.start(max(1, int(wait * 1000)))

    @Slot()
    def _deliver(self) -> None:
        """Take everything pending, in arrival order, then the answer; emit it (``_drain``)."""
        with self._lock:
            batch, self._pending = self._pending, _Pending()
            self._wake_posted = False
            generation = self._generation
        self._delivery_timer.stop()
        if batch.is_empty() or self._info is None or self._info.search_id != generation:
            return
        self._last_delivery = time.monotonic()
        ordered: list[tuple[int, Any]] = [*batch.iterations, *batch.trees]
        if batch.progress is not None:
            ordered.append(batch.progress)
        if batch.current_move is not None:
            ordered.append(batch.current_move)
        if batch.snapshot is not None:
            ordered.append(batch.snapshot)
        ordered.sort(key=lambda item: item[0])
        self._ready.extend((generation, event) for _, event in ordered)
        if batch.failure is not None:
            self._ready_final = (generation, batch.failure)
        elif batch.finished is not None:
            self._ready_final = (generation, batch.finished)
        self._drain()

    @Slot()
    def _drain(self) -> None:
        """Emit the delivered events in order, then the answer. Tree slices stop the
        emitting once they have taken ``TREE_BUDGET_MS`` of this turn; the rest follows in
        the next turn of the event loop (input and painting run in between)."""
        deadline = time.perf_counter() + TREE_BUDGET_MS / 1000
        took_tree = grew = False
        while self._ready:
            generation, event = self._ready.popleft()
            if generation != self._generation:
                return  # a slot stopped the search while we were delivering
            if isinstance(event, TreeBatch):
                self._take_tree_batch(generation, event)
                if generation != self._generation:
                    return
                took_tree = True
                if event.entries:
                    # Each slice's new nodes leave the collector's sight at once: left
                    # young until the turn ends, they made 85 ms collections mid-turn.
                    self._tree_collection.hold()
                    grew = True
                if self._ready and time.perf_counter() > deadline:
                    self._tree_collection.follow(grew)
                    self._drain_timer.start()
                    return
                continue
            event = dataclasses.replace(event, search_id=generation)
            if isinstance(event, Iteration):
                self.iteration_received.emit(event)
            elif isinstance(event, Progress):
                self.progress_received.emit(event)
            elif isinstance(event, MctsSnapshot):
                self.mcts_snapshot_received.emit(event)
            else:
                self.current_move_received.emit(event)
        if took_tree:
            self._tree_collection.follow(grew)
        final, self._ready_final = self._ready_final, None
        if final is None:
            return
        generation, answer = final
        if generation != self._generation:
            return
        self._end_search(generation)
        if isinstance(answer, str):
            self.search_failed.emit(answer)
        elif answer.error:
            self.search_failed.emit(answer.error)
        else:
            self.search_finished.emit(dataclasses.replace(answer, search_id=generation))

    def _take_tree_batch(self, generation: int, batch: TreeBatch) -> None:
        if batch.search_id != generation:
            batch = dataclasses.replace(batch, search_id=generation)
        if self._tree is not None:
            self._tree.add(batch)
        self.tree_batch_received.emit(batch)

    def _end_search(self, generation: int) -> None:
        """The search ended by itself: idle, and the pool forgets its id."""
        self._info = None
        self._tree_collection.release()
        if not self._is_shut_down:
            self._admin.submit(self._pool_ids.pop, generation, None)
