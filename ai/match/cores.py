"""One core per match: matches on the same machine wait for a free core rather than share one.

A match at a time a move measures how well each side uses its clock. Two matches on one
core each get half of it, so our pure-Python engine plays at half its speed while a native
peer hardly notices: the result says more about the machine than about the engines. So
``plyground match`` reserves as many cores as it uses (its ``--threads``) before the first
game, by holding an exclusive lock on one file per core in a shared folder; a second match
that finds every core taken says so once and waits until one is released (``--no-wait``
makes it stop instead). The locks are ``flock`` locks: the kernel releases them when the
process ends however it ends, so a killed match never leaves a core reserved.

Other programs on the machine are not counted (nothing can reserve a core against them);
the load average printed beside each result is the check for that.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import IO, Final

try:
    import fcntl
except ImportError:  # Windows: no flock; matches then run without reservations
    fcntl = None  # type: ignore[assignment]

LOCK_FOLDER_VARIABLE: Final = "PLYGROUND_CORE_LOCKS"
"""Environment variable naming the folder of the lock files (default: a folder in the temp dir)."""
POLL_SECONDS: Final = 0.5


class NoFreeCore(ValueError):
    """Every core is reserved by other matches and the caller would not wait."""


class CoreLockError(ValueError):
    """The folder of the core locks cannot be made or written."""


def usable_cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def lock_folder() -> Path:
    folder = os.environ.get(LOCK_FOLDER_VARIABLE) or str(Path(tempfile.gettempdir()) / "plyground-match-cores")
    return Path(folder)


class CoreReservation:
    """Exclusive use of ``count`` cores (of ``cores``) for as long as the ``with`` block runs."""

    def __init__(
        self,
        count: int,
        *,
        cores: int | None = None,
        wait: bool = True,
        on_wait: Callable[[str], None] | None = None,
        folder: Path | None = None,
    ) -> None:
        self.cores = usable_cores() if cores is None else cores
        self.count = min(max(count, 1), self.cores)
        self.wait = wait
        self.on_wait = on_wait
        self.folder = lock_folder() if folder is None else folder
        self.held: list[IO[bytes]] = []

    def __enter__(self) -> CoreReservation:
        if fcntl is None:
            return self
        said = False
        while not self._reserve_or_say_why():
            if not self.wait:
                raise NoFreeCore(
                    f"all {self.cores} cores are reserved by other matches (need {self.count}); "
                    "run it later, or without --no-wait to wait for one"
                )
            if not said and self.on_wait is not None:
                self.on_wait(f"waiting for {self.count} free core(s): other matches hold them (one match a core keeps timings fair)")
                said = True
            time.sleep(POLL_SECONDS)  # a CLI process with nothing else to do; never on a GUI thread
        return self

    def check_folder(self) -> None:
        """``CoreLockError`` now if the lock folder cannot hold the lock files (made if
        missing), rather than when the match is about to start."""
        if fcntl is None:
            return
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            with open(self.folder / "core-0.lock", "ab"):
                pass
        except OSError as error:
            raise self._folder_error(error) from None

    def _folder_error(self, error: OSError) -> CoreLockError:
        """The lock folder cannot be used, said as such (it is the user's setting,
        ``PLYGROUND_CORE_LOCKS``, or the temporary folder)."""
        where = f"{LOCK_FOLDER_VARIABLE}={str(self.folder)!r}" if os.environ.get(LOCK_FOLDER_VARIABLE) else repr(str(self.folder))
        return CoreLockError(f"cannot reserve a core: the lock folder {where} cannot be used: {error.strerror or error}")

    def _reserve_or_say_why(self) -> bool:
        """``_try_reserve``, with a lock folder that cannot be used said as such."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            return self._try_reserve()
        except OSError as error:
            self.release()
            raise self._folder_error(error) from None

    def _try_reserve(self) -> bool:
        """Take ``count`` core locks at once, or none."""
        assert fcntl is not None
        for core in range(self.cores):
            if len(self.held) == self.count:
                break
            handle = open(self.folder / f"core-{core}.lock", "ab")  # noqa: SIM115 - held until release
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                handle.close()
                continue
            self.held.append(handle)
        if len(self.held) == self.count:
            return True
        self.release()
        return False

    def release(self) -> None:
        for handle in self.held:
            handle.close()  # closing the file drops its flock
        self.held = []

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        self.release()


__all__ = ["CoreLockError", "CoreReservation", "NoFreeCore", "lock_folder", "usable_cores"]
