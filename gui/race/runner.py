"""``RaceRunner``: one ``ai.race.Race`` whose events reach the GUI thread as Qt signals.

The race runs on its own thread and worker processes; its callback only emits signals,
which Qt queues to the receivers on the GUI thread, so the GUI never waits for it. A runner
is made per race: a stopped race's late events come from a runner nobody listens to any
more, so they are never shown.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from ai.race import (
    BranchingMeasured,
    DepthDone,
    EntrantDone,
    EntrantProgress,
    Race,
    RaceDone,
    RaceEvent,
    RaceRequest,
)

_running: set[RaceRunner] = set()
"""Runners whose race still runs: kept alive until their ``finished`` (the race's thread
emits through them)."""


class RaceRunner(QObject):
    """Emits each event of its race; ``finished(RaceResult)`` last."""

    depth_done = Signal(object)
    """``DepthDone``: an entrant completed an iteration."""
    progressed = Signal(object)
    """``EntrantProgress``: an entrant's nodes so far, a few times a second."""
    entrant_done = Signal(object)
    """``EntrantResult`` of one entrant (finished, stopped or failed)."""
    branching_measured = Signal(object)
    """``Branching`` of the position's full-width tree."""
    finished = Signal(object)
    """``RaceResult``: the race is over and its processes are gone."""

    def __init__(self, request: RaceRequest) -> None:
        super().__init__()
        self.race = Race(request, self._relay)  # ValueError for a bad request, before anything starts

    def start(self) -> None:
        _running.add(self)
        self.finished.connect(self._forget)
        self.race.start()

    def stop(self) -> None:
        """Stop the race (returns at once; ``finished`` still comes)."""
        self.race.stop()

    @property
    def is_running(self) -> bool:
        return self.race.is_running

    def _forget(self, _result: object) -> None:
        _running.discard(self)

    def _relay(self, event: RaceEvent) -> None:
        """On the race's thread: hand ``event`` to the GUI thread."""
        if isinstance(event, DepthDone):
            self.depth_done.emit(event)
        elif isinstance(event, EntrantProgress):
            self.progressed.emit(event)
        elif isinstance(event, EntrantDone):
            self.entrant_done.emit(event.result)
        elif isinstance(event, BranchingMeasured):
            self.branching_measured.emit(event.branching)
        elif isinstance(event, RaceDone):
            self.finished.emit(event.result)
