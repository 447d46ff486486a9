"""TEMPORARY stand-ins for pieces other helpers are landing (boards, bridge). Deleted before
the branch is finished."""

from __future__ import annotations

import threading
from typing import Any

from PySide6.QtCore import QObject, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import QWidget

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
    _done = Signal(object, int)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._generation = 0
        self._stop = threading.Event()
        self._done.connect(self._on_done, Qt.ConnectionType.QueuedConnection)
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
        import dataclasses

        request = dataclasses.replace(request, search_id=generation)
        self._search_id = generation

        def work() -> None:
            try:
                result: Any = run_search(request, None, stop.is_set)
            except Exception as error:  # noqa: BLE001
                result = str(error)
            self._done.emit(result, generation)

        threading.Thread(target=work, daemon=True).start()
        return generation

    def _on_done(self, result: Any, generation: int) -> None:
        if generation != self._generation:
            return
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


class PlaceholderBoard(QWidget):
    move_requested = Signal(object)
    position_edited = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._state: Any = None
        self.setMinimumSize(200, 200)

    def set_state(self, state: Any) -> None:
        self._state = state.copy()
        self.update()

    def set_last_move(self, move: Any) -> None: ...
    def set_best_move(self, move: Any) -> None: ...
    def set_flipped(self, flipped: bool) -> None: ...
    def set_theme(self, theme: Any) -> None: ...
    def set_interactive(self, interactive: bool) -> None: ...
    def set_edit_mode(self, edit: bool) -> None: ...

    def paintEvent(self, event: Any) -> None:  # noqa: N802
        painter = QPainter(self)
        painter.fillRect(self.rect(), QColor("#d8c8a8"))
        for i in range(0, self.width(), 40):
            painter.fillRect(i, 0, 20, self.height(), QColor("#b89868" if i % 80 else "#987848"))
        painter.setPen(QColor("#222"))
        if self._state is not None:
            painter.drawText(QRectF(self.rect()), Qt.AlignmentFlag.AlignCenter, str(self._state))
        painter.end()


def board_for(name: str) -> PlaceholderBoard:
    return PlaceholderBoard()


QTimer  # noqa: B018
