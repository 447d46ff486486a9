"""Faults from outside, as a person causes them: signals to the command line and to the app
(to the whole process group, as closing a terminal or Ctrl-C does), a killed resource
tracker, an engine worker killed in the middle of a search. Each case checks one clear
message (or none where a signal's death says it all), the exit status, and that no process
and no shared-memory segment is left.

The programs run in process groups of their own (``start_new_session``), so a signal to the
group reaches the program, its engine workers and multiprocessing's resource tracker at
once. Waits are on output lines and pidfds with generous timeouts, never on sleeps; nothing
asserts how fast anything is.
"""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from ai.parallel.segment import SEGMENT_DIRECTORY, owner_of
from tests.processes import processes_marked

ROOT = Path(__file__).resolve().parents[1]
WAIT = 90.0
"""Seconds a single wait may take before the test fails (the machine is shared and slow)."""
pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc and /dev/shm, waits on pidfds")


# ------------------------------------------------------------------ helpers
def segments_of(pid: int) -> list[str]:
    """The pool segments in /dev/shm whose owner is process ``pid``."""
    return [name for name in os.listdir(SEGMENT_DIRECTORY) if owner_of(name) == pid]


def children(pid: int) -> list[tuple[int, str]]:
    """(pid, command line) of the live children of ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            except (OSError, IndexError):
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                found.append((int(entry.name), command))
    return found


def workers_of(pid: int) -> list[int]:
    """The engine worker processes of program ``pid`` (its spawned children that are not
    the resource tracker)."""
    return [child for child, command in children(pid) if "spawn_main" in command]


def wait_gone(pid: int, timeout: float = WAIT) -> bool:
    try:
        descriptor = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        return bool(select.select([descriptor], [], [], timeout)[0])
    finally:
        os.close(descriptor)


def wait_all_gone(mark: str) -> None:
    for pid in processes_marked(mark):
        assert wait_gone(pid), f"process {pid} was left behind"
    assert processes_marked(mark) == []


class Program:
    """A program in a process group of its own whose output lines are read as they come."""

    def __init__(self, arguments: list[str], env: dict[str, str] | None = None, stdin: bool = False) -> None:
        self.mark = uuid.uuid4().hex
        environment = dict(os.environ if env is None else env, PLYGROUND_TEST_MARK=self.mark)
        self.process = subprocess.Popen(
            [sys.executable, *arguments],
            cwd=ROOT,
            env=environment,
            stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        self.lines: list[str] = []
        self._watchdog = threading.Timer(WAIT * 2, self.kill_group)  # a hung test still ends
        self._watchdog.start()

    @property
    def pid(self) -> int:
        return self.process.pid

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def read_until(self, wanted: Callable[[str], bool]) -> str:
        """Read output lines until one is ``wanted``; return it."""
        assert self.process.stdout is not None
        while True:
            line = self.process.stdout.readline()
            if not line:
                assert self.process.stderr is not None
                err = self.process.stderr.read()
                self.process.wait(timeout=WAIT)
                raise AssertionError(f"the program ended first ({self.process.returncode}): {self.lines[-5:]} {err[-2000:]}")
            self.lines.append(line.rstrip("\n"))
            if wanted(self.lines[-1]):
                return self.lines[-1]

    def signal_group(self, number: int) -> None:
        os.killpg(self.pid, number)

    def kill_group(self) -> None:
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    def finish(self) -> tuple[int, str, str]:
        """Wait for the end: (exit status, the rest of stdout, stderr). Read through the
        same buffered streams as ``read_until`` (``communicate`` reads the pipes beneath
        them and would miss lines already buffered); the watchdog ends a program that hangs."""
        assert self.process.stdout is not None and self.process.stderr is not None
        out = self.process.stdout.read()
        err = self.process.stderr.read()
        self.process.wait(timeout=WAIT)
        self._watchdog.cancel()
        self.lines.extend(out.splitlines())
        return self.process.returncode, out, err

    def close(self) -> None:
        self._watchdog.cancel()
        self.kill_group()
        if self.process.poll() is None:
            self.process.kill()
        self.process.communicate()


@contextmanager
def program(arguments: list[str], env: dict[str, str] | None = None, stdin: bool = False) -> Iterator[Program]:
    started = Program(arguments, env, stdin)
    try:
        yield started
    finally:
        started.close()


def analyse(*options: str) -> list[str]:
    return ["-m", "ai.cli", "analyse", *options]


def is_iteration(line: str) -> bool:
    return line.startswith("depth ")


def deeper_than(depth: int) -> Callable[[str], bool]:
    return lambda line: is_iteration(line) and int(line.split()[1]) > depth


def first_pv_move(iteration_line: str) -> str:
    return iteration_line.split(" pv ", 1)[1].split()[0]


def is_completed(line: str) -> bool:
    """An iteration line of a completed depth: with a line, and an exact score (an
    aspiration fail, marked ``lowerbound``/``upperbound``, is re-searched)."""
    return " pv " in line and not any(mark in line for mark in ("bound", "≥", "≤"))


# ------------------------------------------------------------------ signals to the command line
@pytest.mark.parametrize("name", ["SIGHUP", "SIGTERM"])
def test_the_cli_ended_by_a_signal_to_its_group_leaves_nothing(name: str) -> None:
    """Closing the terminal (SIGHUP) or ``kill`` of the group (SIGTERM) during
    ``analyse --threads 2``: the program dies of the signal, silently (the shell says
    "Hangup"/"Terminated"), and its workers free the shared table before they follow it."""
    number = getattr(signal, name)
    with program(analyse("--game", "chess", "--threads", "2", "--time", "60")) as cli:
        cli.read_until(is_iteration)
        assert segments_of(cli.pid), "the pool's table should exist while it searches"
        cli.signal_group(number)
        status, _, err = cli.finish()
        assert status == -number
        assert err == ""
        wait_all_gone(cli.mark)
        assert segments_of(cli.pid) == []


def test_ctrl_c_to_the_cli_group_answers_and_leaves_nothing() -> None:
    with program(analyse("--game", "chess", "--threads", "2", "--time", "60")) as cli:
        cli.read_until(is_iteration)
        cli.signal_group(signal.SIGINT)
        status, out, err = cli.finish()
        assert status == 0, err
        assert err == ""
        assert re.search(r"^bestmove \S+$", out, re.MULTILINE)
        wait_all_gone(cli.mark)
        assert segments_of(cli.pid) == []


def test_a_table_left_by_a_killed_group_is_reclaimed_by_the_next_pool() -> None:
    """SIGKILL of the whole group leaves no process of ours alive to free the table; the
    next program that starts a pool unlinks it (its owner is dead), and only it."""
    with program(analyse("--game", "chess", "--threads", "2", "--time", "60")) as cli:
        cli.read_until(is_iteration)
        left = segments_of(cli.pid)
        assert left
        cli.signal_group(signal.SIGKILL)
        status, _, _ = cli.finish()
        assert status == -signal.SIGKILL
        wait_all_gone(cli.mark)
    with program(analyse("--game", "tictactoe", "--threads", "2", "--depth", "2")) as after:
        status, out, err = after.finish()
        assert status == 0 and err == "", err
        assert "bestmove" in out
        assert not any(name in os.listdir(SEGMENT_DIRECTORY) for name in left)
        assert segments_of(after.pid) == []


def test_a_killed_resource_tracker_says_nothing() -> None:
    """multiprocessing's resource tracker killed during ``analyse --threads 2`` (it dies
    with its group): the search answers, with no tracker warning and no ``KeyError``
    traceback, and the table is freed all the same."""
    with program(analyse("--game", "chess", "--threads", "2", "--time", "60")) as cli:
        cli.read_until(is_iteration)
        trackers = [pid for pid, command in children(cli.pid) if "resource_tracker" in command]
        assert trackers
        for pid in trackers:
            os.kill(pid, signal.SIGKILL)
        for pid in workers_of(cli.pid)[:1]:  # a replacement worker is spawned after it
            os.kill(pid, signal.SIGKILL)
        cli.signal_group(signal.SIGINT)  # answer now
        status, out, err = cli.finish()
        assert status == 0
        assert "bestmove" in out
        assert "Traceback" not in err and "KeyError" not in err and "resource_tracker" not in err, err
        wait_all_gone(cli.mark)
        assert segments_of(cli.pid) == []


# ------------------------------------------------------------------ a worker dies
@pytest.mark.parametrize("algorithm", ["native", "pvs"])
def test_a_dead_worker_answers_with_the_last_iteration(algorithm: str) -> None:
    """Every engine worker killed in the middle of ``analyse --threads 2``: the answer is
    the last iteration printed (not an error, not some other move), exit status 0, and one
    line on stderr says what happened."""
    with program(analyse("--game", "chess", "--algorithm", algorithm, "--threads", "2", "--time", "60")) as cli:
        cli.read_until(deeper_than(2))
        workers = workers_of(cli.pid)
        for pid in workers:
            os.kill(pid, signal.SIGKILL)
        for pid in workers:
            assert wait_gone(pid)
        status, out, err = cli.finish()
        assert status == 0, err
        last = [line for line in cli.lines if is_iteration(line) and is_completed(line)][-1]
        assert re.search(rf"^bestmove {re.escape(first_pv_move(last))}$", out, re.MULTILINE), (cli.lines[-6:], err)
        lines = err.splitlines()
        assert len(lines) == 1 and lines[0].startswith("plyground: warning:") and "killed by signal 9" in lines[0], err
        wait_all_gone(cli.mark)
        assert segments_of(cli.pid) == []


def test_uci_with_two_threads_answers_a_dead_worker_with_its_last_iteration() -> None:
    """UCI, ``Threads 2``, the compiled search: its worker killed after some iterations.
    ``bestmove`` is the last reported line's move (not the first legal move)."""
    with program(["-m", "ai.cli", "uci"], stdin=True) as engine:
        for line in ("uci", "setoption name Threads value 2", "setoption name Algorithm value native", "isready"):
            engine.send(line)
        engine.read_until(lambda line: line == "readyok")
        engine.send("position startpos")
        engine.send("go movetime 60000")
        engine.read_until(lambda line: line.startswith("info depth ") and int(line.split()[2]) > 2 and " pv " in line)
        for pid in workers_of(engine.pid):
            os.kill(pid, signal.SIGKILL)
        answer = engine.read_until(lambda line: line.startswith("bestmove"))
        last = [line for line in engine.lines if line.startswith("info depth ") and is_completed(line)][-1]
        assert answer == f"bestmove {last.split(' pv ', 1)[1].split()[0]}"
        assert any(line.startswith("info string") and "killed by signal 9" in line for line in engine.lines)
        assert not any("error" in line for line in engine.lines if line.startswith("info string"))
        engine.send("quit")
        status, _, err = engine.finish()
        assert status == 0 and "Traceback" not in err, err
        wait_all_gone(engine.mark)
        assert segments_of(engine.pid) == []


# ------------------------------------------------------------------ signals to the app
APP_DRIVER = """
import json, sys
from PySide6.QtCore import QTimer
import gui.main_window as main_window
from gui.app import main
from gui.players import PlayerConfig

original_show = main_window.MainWindow.show

def show(window):
    original_show(window)
    slow = PlayerConfig(kind="computer", strength="time", seconds=60.0)
    window.start_game("chess", (slow, PlayerConfig()))
    def tell_when_searching():
        pool = window.bridge.pool
        if window.bridge.is_searching and pool is not None:
            print(json.dumps({"table": pool._table.name}), flush=True)
        else:
            QTimer.singleShot(50, tell_when_searching)
    QTimer.singleShot(50, tell_when_searching)

main_window.MainWindow.show = show
sys.exit(main(["--workers", "2"]))
"""


def app_environment(data: Path) -> dict[str, str]:
    return dict(os.environ, QT_QPA_PLATFORM="offscreen", PLYGROUND_DATA_DIR=str(data))


@pytest.mark.parametrize(
    "name", ["SIGHUP", pytest.param("SIGTERM", marks=pytest.mark.slow), pytest.param("SIGINT", marks=pytest.mark.slow)]
)
def test_the_app_quits_cleanly_on_a_signal_to_its_group(tmp_path: Path, name: str) -> None:
    """The terminal that started the app closes (SIGHUP), or the group is terminated or
    interrupted, during a search: the app quits as from its menu (status 0, the autosave
    marked clean), and leaves no process and no segment."""
    with program(["-c", APP_DRIVER], env=app_environment(tmp_path)) as app:
        table = json.loads(app.read_until(lambda line: line.startswith("{")))["table"]
        assert (Path(SEGMENT_DIRECTORY) / table).exists()
        app.signal_group(getattr(signal, name))
        status, _, err = app.finish()
        assert status == 0, err[-2000:]
        assert "Traceback" not in err and "resource_tracker" not in err, err[-2000:]
        wait_all_gone(app.mark)
        assert not (Path(SEGMENT_DIRECTORY) / table).exists()
        assert '"clean_exit": true' in (tmp_path / "autosave.json").read_text()
