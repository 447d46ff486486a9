"""Named shared memory that the program frees itself: the pool's segments and their clean-up.

``multiprocessing.shared_memory.SharedMemory`` registers every segment it makes or opens with
multiprocessing's *resource tracker*, a child process that unlinks what is left when the
program ends. That tracker is in the program's process group, so the signals that end the
program end it too: closing the terminal (SIGHUP to the group) or killing the group would
leave the 64 MB table in ``/dev/shm``. And once the tracker has died, the next ``unlink``
relaunches it and asks it to forget a name it never heard of, which it answers with a
``KeyError`` traceback on the terminal. So the pool's segments bypass the tracker and are
freed by the program itself, by three rules:

1. The owner (the pool, in the program's process) unlinks its segment when it shuts down.
2. A segment's name carries its owner's process id (``plyground_<pid>_<random>``). A worker
   whose parent has died unlinks every segment of that parent before it exits
   (``reclaim_segments(owner=...)``): that covers an owner killed alone, by any signal.
3. A new pool unlinks the segments of every owner that is no longer alive
   (``reclaim_segments()``): that covers the whole group killed at once (SIGKILL), where no
   process of ours lived to clean up.

Windows has no ``/dev/shm`` and no tracker for shared memory (a segment ends with the last
handle), so there the standard class is used as it is.
"""

from __future__ import annotations

import mmap
import os
import re
import secrets
from typing import Final

try:
    import _posixshmem
except ImportError:  # Windows
    _posixshmem = None

SEGMENT_PREFIX: Final = "plyground_"
"""Every segment of ours is named ``plyground_<owner pid>_<8 hex digits>``: at most 27
characters, within macOS's 31 for a shared memory name."""
SEGMENT_DIRECTORY: Final = "/dev/shm"
"""Where POSIX shared memory shows as files on Linux: the list ``reclaim_segments`` reads."""
_NAME = re.compile(re.escape(SEGMENT_PREFIX) + r"(\d+)_[0-9a-f]+")
_MODE: Final = 0o600
"""Only the user who runs the program may read or write its table."""


class Segment:
    """A block of shared memory of ``size`` bytes seen as ``buffer``: ``Segment.create``
    in the owner, ``Segment.attach(name)`` in the workers; ``close`` in each, ``unlink``
    by the owner only."""

    __slots__ = ("name", "size", "buffer", "_map", "_fallback")

    def __init__(self, name: str, memory: mmap.mmap | None, fallback: object = None) -> None:
        self.name = name
        self._map = memory
        self._fallback = fallback
        if fallback is not None:
            self.buffer: memoryview = fallback.buf  # type: ignore[attr-defined]
        else:
            assert memory is not None
            self.buffer = memoryview(memory)
        self.size = len(self.buffer)

    @classmethod
    def create(cls, size: int) -> Segment:
        """A new segment of ``size`` bytes (zeroed), named after this process."""
        if _posixshmem is None:
            from multiprocessing import shared_memory

            standard = shared_memory.SharedMemory(create=True, size=size)
            return cls(standard.name, None, standard)
        while True:
            name = f"{SEGMENT_PREFIX}{os.getpid()}_{secrets.token_hex(4)}"
            try:
                descriptor = _posixshmem.shm_open("/" + name, os.O_CREAT | os.O_EXCL | os.O_RDWR, mode=_MODE)
            except FileExistsError:
                continue
            break
        try:
            os.ftruncate(descriptor, size)
            memory = mmap.mmap(descriptor, size)
        except BaseException:
            _unlink(name)
            raise
        finally:
            os.close(descriptor)  # the mapping keeps the memory; the descriptor is not needed
        return cls(name, memory)

    @classmethod
    def attach(cls, name: str) -> Segment:
        """The existing segment ``name`` (``FileNotFoundError`` when there is none)."""
        if _posixshmem is None:
            from multiprocessing import shared_memory

            return cls(name, None, shared_memory.SharedMemory(name=name))
        descriptor = _posixshmem.shm_open("/" + name, os.O_RDWR, mode=_MODE)
        try:
            memory = mmap.mmap(descriptor, os.fstat(descriptor).st_size)
        finally:
            os.close(descriptor)
        return cls(name, memory)

    def close(self) -> None:
        """Unmap it in this process (the caller has released every view of ``buffer``)."""
        self.buffer.release()
        if self._fallback is not None:
            self._fallback.close()  # type: ignore[attr-defined]
        elif self._map is not None:
            self._map.close()

    def unlink(self) -> None:
        """Remove the name: the memory goes when the last process unmaps it. Idempotent."""
        if self._fallback is not None:
            try:
                self._fallback.unlink()  # type: ignore[attr-defined]
            except FileNotFoundError:
                pass
        else:
            _unlink(self.name)


def _unlink(name: str) -> None:
    try:
        _posixshmem.shm_unlink("/" + name)
    except FileNotFoundError:
        pass


def owner_of(name: str) -> int | None:
    """The process id in a segment name of ours, or ``None`` for any other name."""
    match = _NAME.fullmatch(name)
    return int(match.group(1)) if match else None


def is_alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process: alive, and not ours to judge
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            state = stat.read().rsplit(b")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True  # no /proc: os.kill said it exists
    return state not in (b"Z", b"X")


def reclaim_segments(owner: int | None = None) -> list[str]:
    """Unlink the segments left by ``owner`` (a worker's dead parent), or with ``None`` by
    every owner that is no longer alive (a pool starting); the names unlinked. Another
    process's live segments are never touched: only names of ours whose owner is gone."""
    if _posixshmem is None:
        return []
    try:
        names = os.listdir(SEGMENT_DIRECTORY)
    except OSError:  # no such listing on this system: rule 2 alone applies
        return []
    reclaimed = []
    for name in names:
        pid = owner_of(name)
        if pid is None or pid == os.getpid() or (owner is not None and pid != owner):
            continue
        if not is_alive(pid):  # asked of ``owner`` too: its number may be a new process's by now
            _unlink(name)
            reclaimed.append(name)
    return reclaimed
