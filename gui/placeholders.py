"""TEMPORARY stand-in for the engine bridge (gui/engine_bridge.py, landing from the panels
helper). Deleted before the branch is finished."""

from __future__ import annotations

import dataclasses
import queue
import threading
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from ai.engine import run_search
from ai.events import Finished
from ai.settings import SearchRequest


class PlaceholderBridge(QObject):
    search_started = Signal(object)
    iteration_received = Signal(object)
    progress_received = Signal(object)
    current_move_received = Signal(object)
    search_finished = Signal(object)
    search_failed = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._generation = 0
        self._stop = threading.Event()
        self._results: queue.Queue[tuple[Any, int]] = queue.Queue()
        self._poll = QTimer(self)
        self._poll.setInterval(20)
        self._poll.timeout.connect(self._drain)
        self._poll.start()
        self._search_id: int | None = None

    @property
    def is_searching(self) -> bool:
        return self._search_id is not None

    def start_search(self, request: SearchRequest) -> int | None:
        self.stop()
        self._generation += 1
        generation = self._generation
        stop = threading.Event()
        self._stop = stop
        request = dataclasses.replace(request, search_id=generation)
        self._search_id = generation

        def work() -> None:
            try:
                result: Any = run_search(request, None, stop.is_set)
            except Exception as error:  # noqa: BLE001
                result = str(error)
            self._results.put((result, generation))

        threading.Thread(target=work, daemon=True).start()
        return generation

    def _drain(self) -> None:
        while True:
            try:
                result, generation = self._results.get_nowait()
            except queue.Empty:
                return
            if generation != self._generation:
                continue
            self._search_id = None
            if isinstance(result, Finished):
                self.search_finished.emit(result)
            else:
                self.search_failed.emit(str(result))

    def move_now(self) -> None:
        self._stop.set()

    def stop(self) -> None:
        self._generation += 1
        self._stop.set()
        self._search_id = None

    def shutdown(self) -> None:
        self.stop()
        self._poll.stop()
