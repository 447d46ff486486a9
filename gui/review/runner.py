"""``ReviewRunner``: the engine reviews a game in the background, one search at a time.

Where it runs: on an ``EngineBridge`` of its own, over a pool of ``REVIEW_WORKERS`` worker
process at niceness ``REVIEW_NICENESS``, not on the app's bridge. The app's bridge runs one
search at a time and a new one stops the last, so a shared bridge would have the game's
next move cancel the review (or the review delay the move); with a pool of its own the
review goes on while a new game is played, and the lower priority gives the game's own
searches the CPU first (the app's workers run at niceness 10: on a shared core the kernel
then gives them about 7 times the review's share, Linux's CFS weights 110 against 15).

What it runs: ``ai.review``'s plan of the game (a search of each position for the best
move, and of the move played where it was not the best), driven through ``ReviewRun``:
each answer is accepted as it comes, and the review (``GameReview``) is folded from them
at the end. A search that survived a dying worker (``Finished.fault``) still answers; the
review goes on and says so once. A search that fails ends the review with one message.
A cancelled review's late answers are dropped (the bridge's generation, then our own id).
Each search starts with the pool's memory cleared (its table, each worker's compiled
searcher): an answer then depends on its request alone, so a review is reproducible.

A review of another game asked for while one runs (``start(..., set_aside=True)``: the
running one is of a game that was left) does not cancel it: that review waits, with the
answers it has, and goes on once the new one is finished, cancelled or failed; the search
it was running is asked again then. Signals speak of the review in ``record``.
"""

from __future__ import annotations

import collections
import dataclasses
import os
from collections.abc import Callable, Iterable
from typing import Any

from PySide6.QtCore import QObject, Signal

from ai.events import Finished
from ai.review import ReviewDepth, ReviewRun, ReviewStrength, ReviewTask, TaskKind, plan_review
from games.annotations import GameReview
from games.records import GameRecord, RecordError
from gui.engine_bridge import EngineBridge, EnginePoolLike, make_pool

REVIEW_WORKERS = 1
"""One process: a review is many short searches one after another, and the game being
played keeps the other cores."""
REVIEW_NICENESS = 19
"""The lowest priority there is (Unix niceness): the review yields to the game's searches
(niceness 10, ``gui.engine_bridge.WORKER_NICENESS``) and to everything else."""


ReviewLevel = ReviewDepth
"""Quick, Standard, Deep: ``ai.review``'s node budgets per position (``NODE_BUDGETS``)."""


def level_word(level: ReviewLevel) -> str:
    """``Quick``, ``Standard``, ``Deep``."""
    return level.value.capitalize()


def make_review_pool(workers: int, megabytes: int) -> EnginePoolLike:
    """The review's pool: started like the app's, then set to ``REVIEW_NICENESS``."""
    pool = make_pool(workers, megabytes)
    set_niceness(getattr(pool, "worker_pids", ()), REVIEW_NICENESS)
    return pool


def set_niceness(pids: Iterable[int], niceness: int) -> None:
    """Run processes ``pids`` at ``niceness`` at least (where the system has niceness)."""
    if not hasattr(os, "setpriority"):
        return
    for pid in pids:
        try:
            os.setpriority(os.PRIO_PROCESS, pid, max(niceness, os.getpriority(os.PRIO_PROCESS, pid)))
        except OSError:  # gone already, or not ours to change: it only costs the game some speed
            pass


def make_review_bridge() -> EngineBridge:
    """The review's own bridge (its pool starts with the first review)."""
    return EngineBridge(pool_factory=make_review_pool, workers=REVIEW_WORKERS)


class ReviewRunner(QObject):
    """Reviews one game at a time on its own bridge.

    Signals (on the GUI thread):

    * ``started(int)``: the review began; the number of searches it expects;
    * ``progressed(int, int)``: (moves reviewed, moves to review), after each answer;
    * ``finished(GameReview)``: the review, complete;
    * ``failed(str)``: it could not run or a search failed: one line, the review ends;
    * ``notice(str)``: something the user should know once (a worker died; it went on);
    * ``cancelled()``: ``cancel`` ended it.
    """

    started = Signal(int)
    progressed = Signal(int, int)
    finished = Signal(object)
    failed = Signal(str)
    notice = Signal(str)
    cancelled = Signal()

    def __init__(self, bridge: Any = None, *, bridge_factory: Callable[[], Any] = make_review_bridge,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._owns_bridge = bridge is None
        self._bridge_factory = bridge_factory
        self._bridge: Any = bridge
        self._run: ReviewRun | None = None
        self._queue: collections.deque[ReviewTask] = collections.deque()
        """Tasks handed out by the run, not sent yet: a played move's search goes first,
        so that "move k" is whole before the next position is searched."""
        self._task: ReviewTask | None = None
        self._search_id: int | None = None
        self._fault_said = False
        self._waiting: collections.deque[tuple[GameRecord, ReviewLevel, ReviewRun, list[ReviewTask], bool]] = collections.deque()
        """Reviews set aside for a newer one (record, level, run, tasks not sent, fault said),
        the oldest first: each goes on when the runner is free again."""
        self.record: GameRecord | None = None
        """The game under review (or last reviewed)."""
        self.strength_for: Callable[[str, ReviewLevel], ReviewStrength] = ReviewStrength.for_game
        """The strength of a level for a game (``ai.review``'s node budgets; tests use tiny ones)."""
        self.level = ReviewLevel.STANDARD
        if bridge is not None:
            self._connect()

    # ------------------------------------------------------------------ queries
    @property
    def is_running(self) -> bool:
        return self._run is not None

    @property
    def bridge(self) -> Any:
        """The review's bridge (made on the first review)."""
        return self._bridge

    def progress(self) -> tuple[int, int]:
        """(moves reviewed, moves to review) of the running review; (0, 0) when idle: a
        move counts once its position was searched (its played move's search comes next)."""
        run = self._run
        if run is None:
            return (0, 0)
        done = sum(1 for key in run.answers if key.kind is TaskKind.POSITION)
        known = sum(1 for ply in run.plan.searched if ply.ply in run.known)
        return (known + done, len(run.plan.searched))

    def level_of(self, review: GameReview) -> ReviewLevel | None:
        """The level ``review`` was made at (its settings are that level's strength for its
        game), ``None`` for a review made otherwise (the command line's ``--nodes``)."""
        for level in ReviewLevel:
            if self.strength_for(review.game, level).review_settings() == review.settings:
                return level
        return None

    # ------------------------------------------------------------------ commands
    @property
    def waiting(self) -> int:
        """Reviews set aside, to go on after the running one."""
        return len(self._waiting)

    def start(
        self, record: GameRecord, level: ReviewLevel = ReviewLevel.STANDARD, *, set_aside: bool = False,
        known: GameReview | None = None,
    ) -> bool:
        """Review ``record`` at ``level``. A running review is cancelled first (a review of
        the same game again), or with ``set_aside`` waits and goes on after this one (another
        game's). ``known``: a review of the game's first moves at this level, kept, so that
        only the moves after them are searched (``ai.review.known_moves``). False, with
        ``failed``, when the game cannot be reviewed (no moves, moves that do not replay)."""
        try:
            plan = plan_review(record, self.strength_for(record.game, level))
            run = ReviewRun(plan, known)
        except (RecordError, ValueError) as error:
            self.failed.emit(f"This game cannot be reviewed: {error}")
            return False
        if self._run is not None:
            if set_aside:
                self._set_aside()
            else:
                self.cancel()
        if self._bridge is None:
            self._bridge = self._bridge_factory()
            self._connect()
        self.record = record
        self.level = level
        self._run = run
        self._queue.clear()
        self._fault_said = False
        self.started.emit(len(plan.searched))
        self._next()
        return True

    def cancel(self) -> None:
        """Stop the review; nothing more of it is shown (one set aside goes on)."""
        if self._run is None:
            return
        self._end()
        self.cancelled.emit()
        self._resume()

    def shutdown(self) -> None:
        """Stop and end the review's processes (the app's exit; blocks for them)."""
        self._waiting.clear()
        self._end()
        if self._bridge is not None:
            if self._owns_bridge:
                self._bridge.shutdown()
            else:
                self._bridge.stop()

    # ------------------------------------------------------------------ internals
    def _connect(self) -> None:
        self._bridge.search_finished.connect(self._on_finished)
        self._bridge.search_failed.connect(self._on_failed)

    def _set_aside(self) -> None:
        """The running review waits: its search stopped, to be asked again when it goes on."""
        run = self._run
        assert run is not None and self.record is not None
        tasks = ([self._task] if self._task is not None else []) + list(self._queue)
        self._waiting.append((self.record, self.level, run, tasks, self._fault_said))
        self._end()

    def _resume(self) -> None:
        """The oldest review set aside goes on, if the runner is free."""
        if self._run is not None or not self._waiting:
            return
        self.record, self.level, self._run, tasks, self._fault_said = self._waiting.popleft()
        self._queue.extend(tasks)
        self.progressed.emit(*self.progress())
        self._next()

    def _end(self) -> None:
        if self._search_id is not None and self._bridge is not None:
            self._bridge.stop()
        self._run = None
        self._queue.clear()
        self._task = None
        self._search_id = None

    def _next(self) -> None:
        run = self._run
        if run is None:
            return
        if run.is_complete:
            review = run.result()
            self._run = None
            self._task = None
            self._search_id = None
            self.finished.emit(review)
            self._resume()
            return
        self._queue.extendleft(reversed(run.pending()))
        if not self._queue:  # nothing left to ask, yet answers missing: a bug, said once
            self._end()
            self.failed.emit("The review stopped: it has no more searches but is not complete")
            self._resume()
            return
        task = self._queue.popleft()
        request = dataclasses.replace(
            task.request,
            settings=dataclasses.replace(task.request.settings, threads=REVIEW_WORKERS),
        )
        self._task = task
        self._search_id = -1  # until the bridge says its id (a bad request fails from the event loop)
        # Every search starts from an empty table: a node-limited search that finds another
        # search's entries reaches another depth and may answer otherwise, and the same game
        # reviewed again (or a saved review compared with a new one) must get the same marks.
        self._bridge.clear_memory()
        search_id = self._bridge.start_search(request)
        if search_id is not None:
            self._search_id = search_id

    def _on_finished(self, finished: Finished) -> None:
        run, task = self._run, self._task
        if run is None or task is None or finished.search_id != self._search_id:
            return
        if finished.fault and not self._fault_said:
            self._fault_said = True
            self.notice.emit(f"The review goes on after an engine fault: {finished.fault}")
        self._task = None
        self._search_id = None
        run.accept(task.key, finished)
        self.progressed.emit(*self.progress())
        self._next()

    def _on_failed(self, message: str) -> None:
        if self._run is None or self._search_id is None:
            return
        self._end()
        self.failed.emit(f"The review stopped: {message}")
        self._resume()
