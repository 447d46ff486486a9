"""A program spoken to in lines of text, with a deadline on every answer.

A thread reads the program's output into a queue so that a wait can time out; a program that
misses its deadline is killed (no zombie: ``kill`` waits for it).

Every external program runs in a process group of its own, and ending it ends the whole
group: an engine that is a shell script (or starts helpers) leaves no child running when it
is killed or quits. The group also keeps the terminal's Ctrl-C away from the engines: the
match decides what an interrupt means, and closes them itself.
"""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import threading
import time

from ai.match.protocol import PlayerFailure


MAX_LINE_CHARS = 64 * 1024
"""The longest line read from a program (a protocol line is a few hundred characters)."""
MAX_QUEUED_LINES = 10_000
"""Lines read ahead of the player; past this the reader waits (and so does the program)."""
POLL_SECONDS = 0.5
TOO_LONG = "\0 a line too long \0"
"""Queued (this very object) in place of a line longer than ``MAX_LINE_CHARS``."""


def kill_group(group: int | None) -> None:
    """SIGKILL every process left in the process group ``group`` (the pid of the program
    started as its leader); nothing when the group is gone already."""
    if group is None or group <= 0 or not hasattr(os, "killpg"):
        return
    try:
        os.killpg(group, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


class LineProcess:
    def __init__(self, command: list[str]) -> None:
        try:
            self.process: subprocess.Popen[str] | None = subprocess.Popen(
                command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                text=True, errors="replace", bufsize=1, process_group=0,
            )
        except (OSError, ValueError) as error:
            raise PlayerFailure(f"the program did not start: {getattr(error, 'strerror', None) or error}") from None
        self.lines: queue.Queue[str | None] = queue.Queue(maxsize=MAX_QUEUED_LINES)
        threading.Thread(target=self._read, args=(self.process, self.lines), daemon=True).start()

    @staticmethod
    def _read(process: subprocess.Popen[str], lines: queue.Queue[str | None]) -> None:
        """Queue the program's lines; a line longer than ``MAX_LINE_CHARS`` is queued as
        ``TOO_LONG`` and reading stops (a program writing ``/dev/zero`` would fill the
        memory). A full queue holds the program back until the line is taken or it ends."""
        assert process.stdout is not None
        try:
            while True:
                line = process.stdout.readline(MAX_LINE_CHARS)
                if not line:
                    break
                if len(line) >= MAX_LINE_CHARS and not line.endswith("\n"):
                    line = TOO_LONG
                while True:
                    try:
                        lines.put(line, timeout=POLL_SECONDS)
                        break
                    except queue.Full:
                        if process.poll() is not None:
                            return
                if line is TOO_LONG:
                    return
        except (OSError, ValueError):  # the pipe was closed under the reader (the program killed)
            pass
        try:
            lines.put(None, timeout=POLL_SECONDS)  # end of output: the program exited
        except queue.Full:
            pass

    @property
    def is_running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def send(self, line: str) -> None:
        process = self.process
        if process is None or process.stdin is None:
            raise PlayerFailure("the program exited")
        try:
            process.stdin.write(line + "\n")
            process.stdin.flush()
        except OSError:
            raise self.failure("the program exited") from None

    def read_line(self, deadline: float, waiting_for: str) -> str:
        """The next line (without its end), or ``PlayerFailure`` when the program exited or
        ``deadline`` (``time.monotonic()``) passed (it is killed then)."""
        left = deadline - time.monotonic()
        try:
            if left <= 0:  # checked first: a program that floods its output never lets the queue empty
                raise queue.Empty
            line = self.lines.get(timeout=left)
        except queue.Empty:
            raise self.failure(f"no answer to {waiting_for} within the deadline (killed)") from None
        if line is TOO_LONG:
            raise self.failure(f"a line of more than {MAX_LINE_CHARS:,} characters while waiting for {waiting_for} (killed)")
        if line is None:
            raise self.failure("the program exited")
        return line.rstrip("\r\n")

    def read_tagged(self, tag: str, deadline: float, waiting_for: str) -> str:
        """The text after ``tag`` on the next line that starts with it, skipping the
        program's other output (a line protocol wrapped round a chatty program, such as
        gnubg's Python server or the py-draughts peer); ``PlayerFailure`` as ``read_line``."""
        while True:
            line = self.read_line(deadline, waiting_for)
            if line.startswith(tag):
                return line[len(tag):].strip()

    def failure(self, reason: str) -> PlayerFailure:
        status = self.kill()
        return PlayerFailure(f"{reason} (status {status})" if "exited" in reason and status is not None else reason)

    def kill(self) -> int | None:
        process, self.process = self.process, None
        if process is None:
            return None
        if process.poll() is None:
            process.kill()
        status = process.wait()
        kill_group(process.pid)  # the program's own children (its group outlives it)
        for stream in (process.stdin, process.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        return status
