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

from ai.match.players import PlayerFailure


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
                text=True, bufsize=1, process_group=0,
            )
        except (OSError, ValueError) as error:
            raise PlayerFailure(f"the program did not start: {getattr(error, 'strerror', None) or error}") from None
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, args=(self.process, self.lines), daemon=True).start()

    @staticmethod
    def _read(process: subprocess.Popen[str], lines: queue.Queue[str | None]) -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.put(line)
        lines.put(None)  # end of output: the program exited

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
        try:
            line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise self.failure(f"no answer to {waiting_for} within the deadline (killed)") from None
        if line is None:
            raise self.failure("the program exited")
        return line.rstrip("\r\n")

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
