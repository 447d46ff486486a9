"""Pool doubles for the bridge's tests: the same calling contract as ``ai.parallel.EnginePool``
(``on_event`` on a thread that is not the caller's; after ``stop`` returns nothing more of
that search is delivered).

``ThreadedEnginePool`` runs the real engine (``ai.engine.run_search``) in a thread per
search; ``ScriptedPool`` lets a test send any events it wants from another thread.
"""

from __future__ import annotations

import dataclasses
import itertools
import threading
from collections.abc import Callable, Iterable
from typing import Any

from ai.engine import clear_memory, run_search
from ai.events import Finished, Score
from ai.settings import SearchRequest


class _Search:
    def __init__(self, on_event: Callable[[Any], None]) -> None:
        self.on_event = on_event
        self.lock = threading.Lock()
        self.is_cancelled = False
        self.move_now = threading.Event()

    def deliver(self, event: object) -> None:
        with self.lock:
            if not self.is_cancelled:
                self.on_event(event)

    def cancel(self) -> None:
        with self.lock:  # waits for a delivery in progress: none starts after this
            self.is_cancelled = True
        self.move_now.set()


class ThreadedEnginePool:
    """The real engine in one thread per search (the pool's contract, in process)."""

    def __init__(self, workers: int = 1, hash_megabytes: int = 64) -> None:
        self.workers = workers
        self.hash_megabytes = hash_megabytes
        self._ids = itertools.count(1)
        self._searches: dict[int, _Search] = {}
        self._threads: list[threading.Thread] = []
        self.resized_to: list[int] = []
        self.tables_cleared = 0
        self.is_shut_down = False

    def submit(self, request: SearchRequest, on_event: Callable[[Any], None]) -> int:
        search_id = next(self._ids)
        search = _Search(on_event)
        self._searches[search_id] = search
        request = dataclasses.replace(request, search_id=search_id)  # root moves and tree kept

        def run() -> None:
            try:
                finished = run_search(request, search.deliver, search.move_now.is_set)
            except ValueError as error:
                finished = Finished(search_id, None, Score(0.0), (), 0, 0, 0, 0.0, 0.0, error=str(error))
            search.deliver(finished)

        thread = threading.Thread(target=run, daemon=True)
        self._threads.append(thread)
        thread.start()
        return search_id

    def move_now(self, search_id: int) -> None:
        if search_id in self._searches:
            self._searches[search_id].move_now.set()

    def stop(self, search_id: int | None = None) -> None:
        ids = list(self._searches) if search_id is None else [search_id]
        for key in ids:
            if key in self._searches:
                self._searches[key].cancel()

    def resize_table(self, megabytes: int) -> None:
        self.resized_to.append(megabytes)
        self.hash_megabytes = megabytes

    def clear_table(self) -> None:
        """As the pool's: what the searches in this process keep is forgotten."""
        clear_memory()
        self.tables_cleared += 1

    def warm_up(self, request: SearchRequest) -> bool:
        return True  # one process: its modules are the test's own

    def shutdown(self) -> None:
        self.stop()
        for thread in self._threads:
            thread.join(5)
        self.is_shut_down = True


class ScriptedPool:
    """Sends the events a test gives it, from a thread of its own."""

    def __init__(self) -> None:
        self._ids = itertools.count(1)
        self.searches: dict[int, _Search] = {}
        self.moved_now: list[int] = []
        self.stopped: list[int | None] = []
        self.tables_cleared = 0
        self.is_shut_down = False
        self.workers = 1
        self.hash_megabytes = 64
        self.requests: list[SearchRequest] = []
        self.warmed: list[tuple[str, str]] = []

    def submit(self, request: SearchRequest, on_event: Callable[[Any], None]) -> int:
        search_id = next(self._ids)
        self.searches[search_id] = _Search(on_event)
        self.requests.append(request)
        return search_id

    def send(self, search_id: int, events: Iterable[object]) -> threading.Thread:
        """Deliver ``events`` from another thread, as the pool's reader thread does."""
        search = self.searches[search_id]
        events = list(events)

        def run() -> None:
            for event in events:
                search.deliver(event)

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        return thread

    def move_now(self, search_id: int) -> None:
        self.moved_now.append(search_id)

    def stop(self, search_id: int | None = None) -> None:
        self.stopped.append(search_id)
        for key, search in self.searches.items():
            if search_id is None or key == search_id:
                search.cancel()

    def resize_table(self, megabytes: int) -> None:
        pass

    def clear_table(self) -> None:
        self.tables_cleared += 1

    def warm_up(self, request: SearchRequest) -> bool:
        self.warmed.append((request.game, request.settings.algorithm))
        return True

    def shutdown(self) -> None:
        self.is_shut_down = True
