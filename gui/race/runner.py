"""``RaceRunner``: one ``ai.race.Race`` whose events reach the GUI thread as Qt signals.

The race runs on its own thread and worker processes; its callback only emits signals,
which Qt queues to the receivers on the GUI thread, so the GUI never waits for it. A runner
is made per race: a stopped race's late events come from a runner nobody listens to any
more, so they are never shown.
"""

from __future__ import annotations

import threading

from PySide6.QtCore import QObject, Signal

from ai.engine import search
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
from ai.settings import Limits, SearchSettings
from games.base import GameState

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


_probing: set[SpeedProbe] = set()
"""Probes whose search still runs: kept alive until their ``measured``."""


class SpeedProbe(QObject):
    """A search's nodes a second on a position, measured by a short search on a thread of
    its own: ``measured(float)`` reaches the GUI thread as a queued signal, so the GUI
    thread never runs the engine (the search holds the interpreter only in slices, and the
    event loop keeps its turns meanwhile)."""

    measured = Signal(float)
    """Nodes a second (0 when the search failed or took no time)."""

    def __init__(self, state: GameState, settings: SearchSettings, seconds: float) -> None:
        super().__init__()
        self.state = state.copy()
        self.settings = settings
        self.seconds = seconds

    def start(self) -> None:
        _probing.add(self)
        self.measured.connect(self._forget)
        threading.Thread(target=self._run, name="race-speed-probe", daemon=True).start()

    def _forget(self, _speed: float) -> None:
        _probing.discard(self)

    def _run(self) -> None:
        """On the probe's thread."""
        try:
            answer = search(self.state, self.settings, Limits(time=self.seconds))
            speed = answer.nodes / answer.time if answer.time > 0 else 0.0
        except Exception:  # noqa: BLE001 - a probe that fails leaves the warning without a time
            speed = 0.0
        self.measured.emit(speed)
