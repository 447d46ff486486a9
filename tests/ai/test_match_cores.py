"""Matches reserve cores: a second match waits (or, with --no-wait, stops) while others hold them."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest

from ai.match.cores import CoreReservation, NoFreeCore

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="flock reservations are POSIX only")


def test_reservations_take_distinct_cores_and_refuse_when_none_is_left(tmp_path: Path) -> None:
    with CoreReservation(1, cores=2, folder=tmp_path) as first, CoreReservation(1, cores=2, folder=tmp_path) as second:
        assert len(first.held) == len(second.held) == 1
        with pytest.raises(NoFreeCore, match="all 2 cores are reserved"):
            with CoreReservation(1, cores=2, folder=tmp_path, wait=False):
                pass
    with CoreReservation(2, cores=2, folder=tmp_path, wait=False) as both:  # released on exit
        assert len(both.held) == 2


def test_a_reservation_needing_more_than_is_free_takes_nothing(tmp_path: Path) -> None:
    with CoreReservation(1, cores=2, folder=tmp_path):
        with pytest.raises(NoFreeCore):
            with CoreReservation(2, cores=2, folder=tmp_path, wait=False):
                pass
        with CoreReservation(1, cores=2, folder=tmp_path, wait=False) as other:  # the free core was not kept
            assert len(other.held) == 1


def test_a_waiting_match_says_so_once_and_starts_when_a_core_is_free(tmp_path: Path) -> None:
    messages: list[str] = []
    got_it = threading.Event()
    holder = CoreReservation(1, cores=1, folder=tmp_path).__enter__()

    def second() -> None:
        with CoreReservation(1, cores=1, folder=tmp_path, on_wait=messages.append):
            got_it.set()

    thread = threading.Thread(target=second)
    thread.start()
    assert not got_it.wait(1.2)
    assert len(messages) == 1 and "waiting for 1 free core" in messages[0]
    holder.release()
    assert got_it.wait(10)
    thread.join(10)


def test_a_killed_holder_frees_its_core(tmp_path: Path) -> None:
    code = (
        "import sys, time; from pathlib import Path; from ai.match.cores import CoreReservation\n"
        "r = CoreReservation(1, cores=1, folder=Path(sys.argv[1])).__enter__(); print('held', flush=True); time.sleep(60)"
    )
    process = subprocess.Popen([sys.executable, "-c", code, str(tmp_path)], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None and process.stdout.readline().strip() == "held"
        with pytest.raises(NoFreeCore):
            with CoreReservation(1, cores=1, folder=tmp_path, wait=False):
                pass
    finally:
        process.kill()
        process.wait()
    with CoreReservation(1, cores=1, folder=tmp_path, wait=False) as mine:
        assert len(mine.held) == 1


def test_match_no_wait_is_one_line_and_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from ai.cli import main
    from ai.match import cores

    monkeypatch.setenv(cores.LOCK_FOLDER_VARIABLE, str(tmp_path))
    with CoreReservation(cores.usable_cores(), folder=tmp_path):
        status = main(["match", "--game", "tictactoe", "--a", "depth=1", "--b", "depth=1", "--games", "2", "--no-wait"])
    error = capsys.readouterr().err
    assert status == 2 and "cores are reserved" in error and "Traceback" not in error
    assert main(["match", "--game", "tictactoe", "--a", "depth=1", "--b", "depth=1", "--games", "2", "--no-wait"]) == 0


def test_bad_specs_are_refused_before_waiting_for_a_core(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Every core held by other matches: a spec error is still said at once (the match
    would otherwise wait for a core, then refuse)."""
    from ai.cli import main
    from ai.match import cores

    monkeypatch.setenv(cores.LOCK_FOLDER_VARIABLE, str(tmp_path))
    with CoreReservation(cores.usable_cores(), folder=tmp_path):
        status = main(["match", "--game", "tictactoe", "--a", "depth=x", "--b", "depth=1", "--games", "2"])
    error = capsys.readouterr().err
    assert status == 2 and "'x' is not a whole number" in error and "waiting" not in error


def test_an_unusable_lock_folder_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from ai.cli import main
    from ai.match import cores

    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv(cores.LOCK_FOLDER_VARIABLE, str(blocker / "locks"))
    status = main(["match", "--game", "tictactoe", "--a", "depth=1", "--b", "depth=1", "--games", "2"])
    captured = capsys.readouterr()
    assert status == 2 and captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("plyground: error: cannot reserve a core: the lock folder PLYGROUND_CORE_LOCKS=")
    assert lines[0].endswith("cannot be used: Not a directory")
