"""A program spoken to in lines of text, with a deadline on every answer.

A thread reads the program's output into a queue so that a wait can time out; a program that
misses its deadline is killed (no zombie: ``kill`` waits for it).
"""

from __future__ import annotations

import queue
import subprocess
import threading
import time

from ai.match.players import PlayerFailure


class LineProcess:
    def __init__(self, command: list[str]) -> None:
        try:
            self.process: subprocess.Popen[str] | None = subprocess.Popen(
                command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                text=True, bufsize=1,
            )
        except OSError as error:
            raise PlayerFailure(f"the program did not start: {error.strerror or error}") from None
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
        for stream in (process.stdin, process.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        return status
