"""The ``plyground`` program as a process: output that cannot be written and Ctrl-C end it
quietly (no traceback), with a non-zero status where output was lost.

Each test starts real processes (about 0.3 s each), so the cases are few and batched."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

PROGRAM = str(Path(sys.executable).parent / "plyground")
BROKEN_PIPE_STATUS = 141
INTERRUPTED_STATUS = 130


def interruptible(args: list[str], **options: Any) -> subprocess.Popen[bytes]:
    """The program started as from a terminal, where Ctrl-C reaches it: a shell without job
    control starts a background command (this suite run with ``&``) with SIGINT ignored, and a
    child inherits that, so the signal these tests send would never arrive."""
    return subprocess.Popen(args, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL), **options)


def answer(process: subprocess.Popen[bytes], timeout: float = 30) -> tuple[bytes, bytes]:
    """``process``'s output once it has ended; a process still running at ``timeout`` is
    killed (no test leaves one behind) and the test fails."""
    try:
        return process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        raise


def test_uci_with_its_output_closed_ends_quietly() -> None:
    """``plyground uci | head -1``: the GUI stops reading; the next line the engine writes
    fails, and it leaves with status 141 and nothing on stderr, even mid-search."""
    process = subprocess.Popen([PROGRAM, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(b"uci\n")
    process.stdin.flush()
    assert process.stdout.readline().startswith(b"id name")
    process.stdout.close()
    process.stdin.write(b"position startpos\ngo depth 30\n")
    process.stdin.flush()
    _, err = process.communicate(timeout=30)
    assert (process.returncode, err) == (BROKEN_PIPE_STATUS, b"")


def test_perft_into_a_closed_pipe_ends_quietly() -> None:
    process = subprocess.Popen(
        [PROGRAM, "perft", "--game", "tictactoe", "--depth", "2", "--divide"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None
    process.stdout.close()  # before the program has written anything (it is still starting)
    _, err = process.communicate(timeout=30)
    assert (process.returncode, err) == (BROKEN_PIPE_STATUS, b"")


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_perft_into_a_full_disk_says_so_in_one_line() -> None:
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [PROGRAM, "perft", "--game", "tictactoe", "--depth", "3"], stdout=full, stderr=subprocess.PIPE, timeout=30
        )
    assert result.returncode == 1
    assert result.stderr == b"plyground: error: cannot write the output: No space left on device\n"


def test_uci_reads_bytes_that_are_not_text() -> None:
    result = subprocess.run(
        [PROGRAM, "uci"],
        input=b"\xff\xfe\n position fen \xc3\xa9\xff\nisready\nquit\n",
        capture_output=True,
        timeout=30,
        env={**os.environ, "LC_ALL": "C", "PYTHONIOENCODING": "ascii"},
    )
    lines = result.stdout.splitlines()
    assert (result.returncode, result.stderr, lines[-1]) == (0, b"", b"readyok")
    assert lines[1].startswith(b"info string error: bad FEN") and lines[1].endswith(b"the position is now the start position")


def test_ctrl_c_while_uci_waits_for_a_command_ends_quietly() -> None:
    process = interruptible([PROGRAM, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(b"isready\n")
    process.stdin.flush()
    assert process.stdout.readline() == b"readyok\n"
    process.send_signal(signal.SIGINT)
    out, err = answer(process)
    assert (process.returncode, err) == (INTERRUPTED_STATUS, b"")


def test_ctrl_c_during_analyse_stops_the_search_which_answers() -> None:
    """``--time inf`` searches until Ctrl-C, then prints its answer and exits 0."""
    process = interruptible(
        [PROGRAM, "analyse", "--game", "othello", "--time", "inf"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert process.stdout is not None
    assert process.stdout.readline().startswith(b"depth 1 ")
    process.send_signal(signal.SIGINT)
    out, err = answer(process)
    assert process.returncode == 0 and err == b""
    assert out.splitlines()[-1].startswith(b"bestmove ")


OUR_CODE = (f"{os.sep}ai{os.sep}", f"{os.sep}games{os.sep}")


@pytest.mark.parametrize("delay", [0.0, 0.1, 0.2, 0.3])
def test_ctrl_c_during_start_up_is_quiet(delay: float) -> None:
    """Whenever it lands, Ctrl-C gives no traceback from the program's own code: status
    130 (or death by the signal, before Python has set up its handler). The interpreter's
    own start-up (``site``, an editable install's import hook) is out of the program's
    reach, so a traceback there is tolerated; none may pass through ``ai/`` or ``games/``."""
    process = interruptible(
        [PROGRAM, "analyse", "--game", "chess", "--depth", "30"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    time.sleep(delay)  # a point somewhere in start-up: the process is not ours to wait on
    process.send_signal(signal.SIGINT)
    out, err = answer(process)
    text = err.decode(errors="replace")
    assert not any(path in text for path in OUR_CODE), text
    if b"bestmove" in out:  # it was already searching: the search stopped and answered
        assert process.returncode == 0
    else:
        assert process.returncode in (INTERRUPTED_STATUS, -signal.SIGINT, 1), (process.returncode, text)
