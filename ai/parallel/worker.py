"""The worker process of the engine pool: a loop that runs one search task at a time.

``worker_main`` is the process target. It is a top-level function of an importable module,
as the ``spawn`` start method and a PyInstaller-frozen app both need (no lambda, no
closure). The worker talks to the pool over one duplex pipe of its own: tasks in, events
out, so a worker killed in the middle of a message spoils only its own pipe.

A task says which search to run and in what role (``Role``): the main search, a Lazy SMP
helper, one part of a root split, or one tree of root-parallel MCTS. The role decides which
events go back: only a main search sends ``CurrentMove`` (the pool reads the others' node
counts and answers, and shows the main search's root moves), and a Lazy SMP helper sends
nothing but its node count (``NODES``) with every ``Progress`` tick: nobody shows a helper's
iterations, and every message wakes the pool's dispatcher, which takes its CPU from a
worker when the workers have every core.

A search stops when the pool's stop word no longer holds the task's token (``should_stop``,
polled by ``ai.control`` every few milliseconds), or when the parent process is gone: a
worker never outlives the pool's process, however that process ended. The stop word is read
at every poll; whether the parent lives, at most every ``PARENT_CHECK_SECONDS`` (asking
costs a ``poll`` system call and a selector object, ~10 us, at every poll otherwise).
"""

from __future__ import annotations

import multiprocessing
import signal
import time
import traceback
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, Final

from ai import engine
from ai.events import CurrentMove, Finished, Progress, Score, SearchEvent
from ai.parallel.segment import reclaim_segments
from ai.parallel.shared_table import SharedTable
from ai.search.common import TT_KEY, TT_SIGNATURE_KEY
from ai.settings import SearchRequest

IDLE_POLL_SECONDS: Final = 0.25
"""How often an idle worker looks whether its parent is still alive."""
PARENT_CHECK_SECONDS: Final = 0.05
"""During a search, how often a worker looks whether its parent is still alive (a stop
request itself is seen at once, through the stop word)."""
STOP_WORD: Final = 0
"""Index of the stop word in the pool's shared control array: it holds the token of the
task that may run; any other value stops it."""


@dataclass(frozen=True)
class Role:
    """What a task is for, and so which of its events the pool wants."""

    helper: int = 0
    """``run_search(helper=...)``: 0 for a main search, k > 0 for Lazy SMP helper k."""
    sends_current_moves: bool = True
    """CurrentMove events (the main search only)."""
    sends_only_nodes: bool = False
    """A Lazy SMP helper: no events, only its node count at each ``Progress`` tick."""


@dataclass(frozen=True)
class Task:
    """One search for one worker (picklable: it crosses the pipe)."""

    token: int
    request: SearchRequest
    started: float
    """``time.perf_counter()`` at submission: CLOCK_MONOTONIC, the same in every process on
    Linux, so the time limit counts from when the caller asked."""
    role: Role
    table_name: str
    tree_signature: tuple[object, ...]
    """The settings the shared table's scores belong to; the pool cleared the table if they
    changed, so the worker's search must never clear it (see ``ai.search.common``)."""
    clears: int = 0
    """The pool's count of ``clear_table`` calls (UCI ``ucinewgame``, a new game): a worker
    that has seen fewer first forgets what it keeps itself (``engine.clear_memory``: a
    compiled search's table and history live in the worker, not in the shared table)."""


QUIT: Final = "quit"
"""The message that ends a worker."""
READY: Final = "ready"
"""The message kind a worker sends once, when it has started: ``(READY, index)``."""
EVENT: Final = "event"
"""The message kind of a search event: ``(EVENT, token, index, event)``."""
FINISHED: Final = "finished"
"""The message kind of a task's answer: ``(FINISHED, token, index, finished)``."""
NODES: Final = "nodes"
"""The message kind of a helper's node count: ``(NODES, token, index, nodes)``."""


FOLLOWED_SIGNALS: Final = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)
"""Signals a worker ignores: Ctrl-C, a termination request, the terminal closing. Sent to
the whole process group, they are for the program, which decides; a worker ends when its
pool tells it to or when its parent has gone, and in the second case it frees its parent's
shared memory first (``ai.parallel.segment``), so it must outlive the signal that ended the
parent. The pool itself ends a worker with SIGKILL, which cannot be ignored."""


def worker_main(connection: Connection, control: Any, index: int) -> None:
    """The process target: run tasks from ``connection`` until told to quit, the pipe
    closes, or the parent dies. ``control`` is the pool's shared stop word array."""
    for number in FOLLOWED_SIGNALS:
        signal.signal(number, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    runner = _Runner(connection, control, index, parent)
    try:
        runner.serve()
    except (EOFError, BrokenPipeError, ConnectionResetError, KeyboardInterrupt):
        pass  # the pool is gone or going: nothing to tell anyone
    finally:
        runner.close()
        if parent is not None and not parent.is_alive():
            reclaim_segments(owner=parent.pid)  # nobody else is left to free the table


class _Runner:
    """The worker's state between tasks: its table handle and its game codecs."""

    def __init__(self, connection: Connection, control: Any, index: int, parent: Any) -> None:
        self.connection = connection
        self.control = control
        self.index = index
        self.parent = parent
        self.table: SharedTable | None = None
        self.clears = 0

    def parent_alive(self) -> bool:
        return self.parent is None or self.parent.is_alive()

    def serve(self) -> None:
        connection = self.connection
        connection.send((READY, self.index))
        while True:
            if not connection.poll(IDLE_POLL_SECONDS):
                if not self.parent_alive():
                    return
                continue
            message = connection.recv()
            if message == QUIT:
                return
            self.run(message)

    def close(self) -> None:
        if self.table is not None:
            self.table.close()
            self.table = None
        self.connection.close()

    def attach(self, name: str) -> SharedTable:
        if self.table is None or self.table.name != name:
            if self.table is not None:
                self.table.close()
            self.table = SharedTable.attach(name)
        return self.table

    def run(self, task: Task) -> None:
        """Run ``task`` and send its events and its ``Finished``; a failure is a
        ``Finished`` with ``error`` set, never an exception out of the worker."""
        send = self.connection.send
        token = task.token
        role = task.role
        control = self.control

        index = self.index
        parent_alive = self.parent_alive
        monotonic = time.monotonic
        next_parent_check = monotonic() + PARENT_CHECK_SECONDS

        def should_stop() -> bool:
            nonlocal next_parent_check
            if control[STOP_WORD] != token:
                return True
            now = monotonic()
            if now < next_parent_check:
                return False
            next_parent_check = now + PARENT_CHECK_SECONDS
            return not parent_alive()

        def on_event(event: SearchEvent) -> None:
            if type(event) is CurrentMove and not role.sends_current_moves:
                return
            send((EVENT, token, index, event))

        def send_nodes(event: SearchEvent) -> None:
            if type(event) is Progress:
                send((NODES, token, index, event.nodes))

        request = task.request
        if task.clears != self.clears:
            engine.clear_memory()
            self.clears = task.clears
        try:
            prepared = engine.prepare(request)
            table = self.attach(task.table_name)
            table.use_codec(prepared.state)
            shared = engine.shared_memory_for(request.game)
            shared[TT_KEY] = table
            shared[TT_SIGNATURE_KEY] = task.tree_signature
            finished = engine.run_search(
                prepared,
                send_nodes if role.sends_only_nodes else on_event,
                should_stop,
                started=task.started,
                shared=shared,
                helper=role.helper,
            )
        except ValueError as error:
            finished = failed(request.search_id, str(error))
        except Exception as error:  # a bug: say what it was, keep the worker serving
            last = traceback.extract_tb(error.__traceback__)[-1]
            where = f" ({last.filename.rsplit('/', 1)[-1]}:{last.lineno})"
            finished = failed(request.search_id, f"{type(error).__name__}: {error}{where}")
        send((FINISHED, token, self.index, finished))


def failed(search_id: int, error: str) -> Finished:
    """The ``Finished`` of a search that could not run or could not finish."""
    return Finished(
        search_id=search_id,
        best_move=None,
        score=Score(0.0),
        pv=(),
        depth=0,
        seldepth=0,
        nodes=0,
        nps=0.0,
        time=0.0,
        error=error,
    )
