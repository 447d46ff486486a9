"""The app's own options under hostile input: ``plyground --self-test`` with a watchdog that
cannot fire (NaN, infinity), a screenshot that cannot be saved, and a SIGTERM in the middle.
A bad value is refused before the window opens (exit 2, no traceback); a self-test stopped
by a signal never reports "passed" and never blames a step's time limit."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

PROGRAM = str(Path(sys.executable).parent / "plyground")
USAGE = 2
FAILED = 1
CASE_TIMEOUT = 60.0
"""A hang guard for each process (not a timing check)."""


def offscreen(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PLYGROUND_DATA_DIR": str(tmp_path / "data")}


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--timeout", "nan"], "the self-test timeout must be more than 0"),
        (["--timeout", "inf"], "the self-test timeout must be more than 0"),
        (["--timeout", "-1"], "the self-test timeout must be more than 0"),
        (["--timeout", "1e300"], "the self-test timeout must be more than 0"),
        (["--timeout", ""], "is not a number"),
        (["--screenshot", "/nonexistent/dir/x.png"], "the folder '/nonexistent/dir' does not exist"),
    ],
    ids=["nan", "inf", "negative", "huge", "empty", "screenshot-folder-missing"],
)
def test_bad_self_test_options_are_refused_before_the_window(tmp_path: Path, args: list[str], says: str) -> None:
    done = subprocess.run(
        [PROGRAM, "--self-test", *args], capture_output=True, text=True, timeout=CASE_TIMEOUT, env=offscreen(tmp_path)
    )
    assert done.returncode == USAGE, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and "passed" not in done.stdout, done.stderr[-2000:]
    assert says in done.stderr.splitlines()[-1], done.stderr


def test_a_self_test_stopped_by_sigterm_does_not_pass(tmp_path: Path) -> None:
    """SIGTERM while the self-test runs: status 1, "stopped before it finished", never
    "passed" and never "not within 60 s" (Qt ends every event loop once the app quits; the
    waits must notice rather than spin to their deadline)."""
    process = subprocess.Popen(
        [PROGRAM, "--self-test", "--timeout", "100"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=offscreen(tmp_path),
    )
    autosave = tmp_path / "data" / "autosave.json"
    try:
        started = time.monotonic()
        # The autosave appears once the run has played its first move: the app's signal
        # handler is in place and the run is inside its waits.
        while not autosave.exists():
            assert process.poll() is None, "the self-test ended before its first move was saved"
            assert time.monotonic() - started < CASE_TIMEOUT, "no move was saved"
            time.sleep(0.05)  # polling another process: there is no event to wait on
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=CASE_TIMEOUT)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == FAILED, err[-2000:]
    assert "passed" not in out and "not within" not in err, err[-2000:]
    assert "self-test failed: stopped before it finished" in err, err[-2000:]
    assert "Traceback" not in err, err[-2000:]
