"""The command line under hostile input: every subcommand given garbage, huge, NaN, empty,
truncated values, devices and folders for files, misbehaving external engines, a closed
stdout. Each refusal is one line ``plyground: error: ...`` on stderr, exit status 2, no
traceback, nothing on stdout, and no process left behind.

Every case is a real ``plyground`` process. They are started together by one fixture (a
few at a time) so that the suite pays for the interpreter's start-up in parallel; each case
is still its own test. Fake engines are tiny scripts written into a temporary folder.
"""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import textwrap
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.processes import MARK, processes_marked

PROGRAM = str(Path(sys.executable).parent / "plyground")
USAGE = 2
CASE_TIMEOUT = 60.0
"""Seconds a case may take before it counts as hung (a hang guard, not a timing check)."""
PARALLEL = 4


@dataclass(frozen=True)
class Case:
    """One command line that must be refused: its arguments (``{tmp}`` is the folder of
    fixtures) and a phrase the one error line must contain."""

    name: str
    args: tuple[str, ...]
    says: str
    env: tuple[tuple[str, str], ...] = ()
    stdin: str | None = None


def case(name: str, says: str, *args: str, env: dict[str, str] | None = None) -> Case:
    return Case(name, args, says, tuple((env or {}).items()))


MATCH = ("match", "--game", "tictactoe", "--games", "2", "--depth", "1")
CHESS_MATCH = ("match", "--game", "chess", "--games", "2", "--depth", "1")
ANALYSE = ("analyse", "--game", "tictactoe", "--depth", "1")
CHESS_ANALYSE = ("analyse", "--game", "chess", "--depth", "1")
HUGE = "9" * 5000
"""A 5,000-digit number."""

REFUSED: tuple[Case, ...] = (
    # perft
    case("perft-depth-nan", "--depth", "perft", "--game", "chess", "--depth", "nan"),
    case("perft-depth-empty", "--depth", "perft", "--game", "chess", "--depth", ""),
    case("perft-depth-huge", "characters", "perft", "--game", "chess", "--depth", HUGE),
    case("perft-game-empty", "--game", "perft", "--game", "", "--depth", "1"),
    case("perft-game-long", "--game", "perft", "--game", "x" * 10_000, "--depth", "1"),
    case("perft-fen-truncated", "FEN", "perft", "--game", "chess", "--position", "rnbqkbnr/pppp", "--depth", "1"),
    case("perft-dice-garbage", "--dice", "perft", "--game", "backgammon", "--dice", "9-9", "--depth", "1"),
    # analyse: every numeric option with NaN, infinity, nothing, out of range
    case("analyse-time-nan", "--time", "analyse", "--game", "chess", "--time", "nan"),
    case("analyse-time-negative", "--time", "analyse", "--game", "chess", "--time", "-1"),
    case("analyse-nodes-zero", "--nodes", "analyse", "--game", "chess", "--nodes", "0"),
    case("analyse-hash-huge", "1..4096 MB", *ANALYSE, "--hash", "999999999"),
    case("analyse-exploration-nan", "--exploration", *ANALYSE, "--exploration", "nan"),
    case("analyse-exploration-negative", "--exploration", *ANALYSE, "--exploration", "-1"),
    case("analyse-playout-bogus", "--playout", *ANALYSE, "--playout", "bogus"),
    case("analyse-playout-depth-zero", "--playout-depth", *ANALYSE, "--playout-depth", "0"),
    case("analyse-aspiration-inf", "--aspiration-window", *ANALYSE, "--aspiration-window", "inf"),
    case("analyse-seed-negative", "--seed", *ANALYSE, "--seed", "-1"),
    case("analyse-threads-huge", "--threads", *ANALYSE, "--threads", HUGE),
    case("analyse-solver-empties-65", "--solver-empties", *ANALYSE, "--solver-empties", "65"),
    case("analyse-algorithm-empty", "--algorithm", *ANALYSE, "--algorithm", ""),
    case("analyse-moves-illegal", "e2e4", *CHESS_ANALYSE, "--moves", "e2e4", "e2e4"),
    case("analyse-network-dev-zero", "not a regular file", *CHESS_ANALYSE, "--network", "/dev/zero"),
    case("analyse-weights-dev-zero", "not a regular file", *CHESS_ANALYSE, "--weights", "/dev/zero"),
    case("analyse-weights-folder", "folder", *CHESS_ANALYSE, "--weights", "{tmp}"),
    case("analyse-weights-huge", "bytes, more than", *CHESS_ANALYSE, "--weights", "{tmp}/huge.json"),
    case("analyse-weights-empty", "weights", *CHESS_ANALYSE, "--weights", "{tmp}/empty.txt"),
    case("analyse-weights-missing", "No such file", *CHESS_ANALYSE, "--weights", "{tmp}/missing.json"),
    case("analyse-network-binary", "network", *CHESS_ANALYSE, "--algorithm", "native", "--network", "{tmp}/binary.bin"),
    # match: player specs get the ranges of the options
    case("spec-time-inf", "time", *MATCH[:-2], "--a", "time=inf", "--b", "depth=1"),
    case("spec-time-nan", "time", *MATCH[:-2], "--a", "time=nan", "--b", "depth=1"),
    case("spec-tt-huge", "tt_megabytes", *MATCH, "--a", "tt_megabytes=999999999", "--b", "depth=1"),
    case("spec-exploration-nan", "exploration", *MATCH, "--a", "algorithm=mcts,exploration=nan", "--b", "depth=1"),
    case("spec-exploration-negative", "exploration", *MATCH, "--a", "algorithm=mcts,exploration=-1", "--b", "depth=1"),
    case("spec-playout-depth-zero", "playout_depth", *MATCH, "--a", "algorithm=mcts,playout_depth=0", "--b", "depth=1"),
    case("spec-playout-bogus", "playout", *MATCH, "--a", "algorithm=mcts,playout=bogus", "--b", "depth=1"),
    case("spec-depth-huge", "depth", *MATCH, "--a", f"depth={HUGE}", "--b", "depth=1"),
    case("spec-nodes-zero", "nodes", *MATCH, "--a", "nodes=0", "--b", "depth=1"),
    case("spec-empty", "SPEC is empty", *MATCH, "--a", " ", "--b", "depth=1"),
    case("spec-truncated", "key=value", *MATCH, "--a", "algorithm=", "--b", "depth=1"),
    case("spec-weights-dev-zero", "not a regular file", *CHESS_MATCH, "--a", "weights=/dev/zero", "--b", "depth=1"),
    case("spec-network-dev-zero", "not a regular file", *CHESS_MATCH, "--a", "network=/dev/zero", "--b", "depth=1"),
    case("spec-uci-missing", "no program", *CHESS_MATCH, "--a", "uci:/nonexistent/engine", "--b", "depth=1"),
    # match: its own options and files
    case("match-games-zero", "--games", "match", "--game", "tictactoe", "--a", "depth=1", "--b", "depth=1", "--games", "0"),
    case("match-time-inf", "--time", "match", "--game", "tictactoe", "--a", "depth=1", "--b", "depth=1", "--games", "1", "--time", "inf"),
    case("match-move-timeout-nan", "--move-timeout", *MATCH, "--a", "depth=1", "--b", "depth=1", "--move-timeout", "nan"),
    case("match-move-timeout-huge", "--move-timeout", *MATCH, "--a", "depth=1", "--b", "depth=1", "--move-timeout", "1e300"),
    case("match-start-timeout-inf", "--start-timeout", *MATCH, "--a", "depth=1", "--b", "depth=1", "--start-timeout", "inf"),
    case("match-openings-dev-zero", "not a regular file", *MATCH, "--a", "depth=1", "--b", "depth=1", "--openings", "/dev/zero"),
    case("match-openings-folder", "folder", *MATCH, "--a", "depth=1", "--b", "depth=1", "--openings", "{tmp}"),
    case("match-openings-huge", "bytes, more than", *MATCH, "--a", "depth=1", "--b", "depth=1", "--openings", "{tmp}/huge.json"),
    case("match-openings-empty", "no opening", *MATCH, "--a", "depth=1", "--b", "depth=1", "--openings", "{tmp}/empty.txt"),
    case("match-openings-binary", "not UTF-8", *MATCH, "--a", "depth=1", "--b", "depth=1", "--openings", "{tmp}/binary.bin"),
    case("match-openings-illegal-pgn", "Ke3", *CHESS_MATCH, "--a", "depth=1", "--b", "depth=1", "--openings", "{tmp}/illegal.pgn"),
    case("match-openings-truncated-fen", "EPD/FEN", *CHESS_MATCH, "--a", "depth=1", "--b", "depth=1", "--openings", "{tmp}/truncated.epd"),
    case("match-out-folder", "is a folder", *MATCH, "--a", "depth=1", "--b", "depth=1", "--out", "{tmp}"),
    case("match-out-missing-folder", "does not exist", *MATCH, "--a", "depth=1", "--b", "depth=1", "--out", "{tmp}/missing/games.json"),
    case("match-out-device", "not a regular file", *MATCH, "--a", "depth=1", "--b", "depth=1", "--out", "/dev/zero"),
    case("match-locks-unusable", "PLYGROUND_CORE_LOCKS", *MATCH, "--a", "depth=1", "--b", "depth=1",
         env={"PLYGROUND_CORE_LOCKS": "{tmp}/empty.txt/locks"}),
    case("match-uci-mute", "handshake", *CHESS_MATCH, "--a", "uci:{tmp}/mute.sh", "--b", "depth=1", "--start-timeout", "1"),
    case("match-uci-exits", "exited", *CHESS_MATCH, "--a", "uci:{tmp}/exits.sh", "--b", "depth=1"),
    case("match-uci-zeros", "handshake", *CHESS_MATCH, "--a", "uci:{tmp}/zeros.sh", "--b", "depth=1", "--start-timeout", "1"),
    case("match-uci-chatty", "handshake", *CHESS_MATCH, "--a", "uci:{tmp}/chatty.sh", "--b", "depth=1", "--start-timeout", "1"),
    case("match-gtp-mute", "boardsize", "match", "--game", "othello", "--games", "2", "--depth", "1",
         "--a", "gtp:{tmp}/mute.sh", "--b", "depth=1", "--start-timeout", "1"),
    case("match-gtp-zeros", "a line of more than", "match", "--game", "othello", "--games", "2", "--depth", "1",
         "--a", "gtp:{tmp}/zeros.sh", "--b", "depth=1", "--start-timeout", "5"),
    case("match-gtp-chatty", "not a GTP answer", "match", "--game", "othello", "--games", "2", "--depth", "1",
         "--a", "gtp:{tmp}/chatty.sh", "--b", "depth=1", "--start-timeout", "5"),
    # bench
    case("bench-depth-nan", "--depth", "bench", "--depth", "nan"),
    case("bench-game-empty", "--game", "bench", "--game", ""),
)

SCRIPTS = {
    "mute.sh": "#!/bin/sh\n# starts a child, then never answers\nsleep 1000 &\nexec sleep 1000\n",
    "exits.sh": "#!/bin/sh\nexit 7\n",
    "zeros.sh": "#!/bin/sh\n# one endless line of NUL bytes\nexec cat /dev/zero\n",
    "chatty.sh": "#!/bin/sh\n# endless lines, never 'uciok'\nexec yes 'info string hello'\n",
    "sleeper.sh": textwrap.dedent(
        """\
        #!/bin/sh
        # a UCI engine that starts a long child on every 'go' and never answers it
        while read line; do
          case "$line" in
            uci) echo "id name sleeper"; echo uciok;;
            isready) echo readyok;;
            go*) sleep 1000;;
            quit) exit 0;;
          esac
        done
        """
    ),
}


def make_fixtures(folder: Path) -> None:
    """The files the cases name: engines, an empty file, a huge sparse one, binary bytes,
    an illegal PGN, a truncated FEN."""
    for name, text in SCRIPTS.items():
        path = folder / name
        path.write_text(text, encoding="utf-8")
        path.chmod(path.stat().st_mode | stat.S_IXUSR)
    (folder / "empty.txt").write_text("", encoding="utf-8")
    with open(folder / "huge.json", "wb") as huge:
        huge.truncate(100 * 1024 * 1024)  # sparse: 100 MB without using the disk
    (folder / "binary.bin").write_bytes(bytes(range(256)) * 16)
    (folder / "illegal.pgn").write_text("1. e4 e5 2. Ke3 *\n", encoding="utf-8")
    (folder / "truncated.epd").write_text("rnbqkbnr/pppp\n", encoding="utf-8")


@dataclass
class Outcome:
    status: int | None
    stdout: str
    stderr: str
    left: list[int] = field(default_factory=list)
    """Processes of the case still alive after it ended."""


def close_stdout() -> None:
    os.close(1)


def run_case(args: list[str], env: dict[str, str], stdin: str | None = None, *, stdout_closed: bool = False) -> Outcome:
    """Run ``plyground ARGS`` (with its stdout closed: ``>&-``); kill what it leaves behind
    (and report it)."""
    mark = uuid.uuid4().hex
    environment = {**os.environ, **env, MARK: mark}
    try:
        done = subprocess.run(
            [PROGRAM, *args], input=stdin, capture_output=True, text=True, timeout=CASE_TIMEOUT,
            env=environment, errors="replace", preexec_fn=close_stdout if stdout_closed else None,
        )
        outcome = Outcome(done.returncode, done.stdout, done.stderr)
    except subprocess.TimeoutExpired as expired:
        outcome = Outcome(None, str(expired.stdout or ""), str(expired.stderr or "hung"))
    outcome.left = processes_marked(mark)
    for pid in outcome.left:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    return outcome


def substitute(text: str, folder: Path) -> str:
    return text.replace("{tmp}", str(folder))


@pytest.fixture(scope="module")
def fixtures(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("hostile")
    make_fixtures(folder)
    return folder


@pytest.fixture(scope="module")
def refused(fixtures: Path) -> Iterator[dict[str, Outcome]]:
    """Every case of ``REFUSED``, run a few at a time."""

    def run(one: Case) -> tuple[str, Outcome]:
        args = [substitute(arg, fixtures) for arg in one.args]
        env = {key: substitute(value, fixtures) for key, value in one.env}
        return one.name, run_case(args, env, one.stdin)

    with ThreadPoolExecutor(PARALLEL) as pool:
        yield dict(pool.map(run, REFUSED))


def assert_one_line_refusal(outcome: Outcome, says: str) -> None:
    assert outcome.status == USAGE, f"status {outcome.status}: {outcome.stderr[-2000:]}"
    assert "Traceback" not in outcome.stderr, outcome.stderr[-2000:]
    lines = outcome.stderr.splitlines()
    assert len(lines) == 1, f"{len(lines)} lines on stderr: {outcome.stderr[-2000:]}"
    assert lines[0].startswith("plyground: error: "), lines[0]
    assert says in lines[0], lines[0]
    assert len(lines[0]) < 1000, f"an error line of {len(lines[0])} characters"
    assert outcome.stdout == "", f"stdout: {outcome.stdout[:500]}"
    assert outcome.left == [], f"processes left: {outcome.left}"


@pytest.mark.parametrize("one", REFUSED, ids=[one.name for one in REFUSED])
def test_bad_input_is_one_line_and_exit_2(refused: dict[str, Outcome], one: Case) -> None:
    assert_one_line_refusal(refused[one.name], one.says)


# ------------------------------------------------------------------ stdout closed
@pytest.mark.parametrize(
    "args",
    [["uci"], ["perft", "--game", "tictactoe", "--depth", "1"], ["analyse", "--game", "tictactoe", "--depth", "1"]],
    ids=["uci", "perft", "analyse"],
)
def test_a_closed_stdout_is_one_line_and_exit_2(args: list[str]) -> None:
    """``plyground uci >&-``: Python has no ``sys.stdout`` at all; one line, status 2."""
    outcome = run_case(args, {}, "uci\ngo depth 1\n", stdout_closed=True)
    assert outcome.status == USAGE and "Traceback" not in outcome.stderr, outcome.stderr
    assert outcome.stderr.splitlines() == ["plyground: error: the standard output is closed: nothing could be written"]


def test_uci_with_its_stdin_closed_is_one_line_and_exit_2() -> None:
    done = subprocess.run([PROGRAM, "uci"], stdin=None, capture_output=True, text=True, timeout=CASE_TIMEOUT, preexec_fn=close_stdin)
    assert done.returncode == USAGE, done.stderr
    assert done.stderr.splitlines() == ["plyground: error: the standard input is closed: no UCI command can be read"]


def close_stdin() -> None:
    os.close(0)


def test_closed_stdout_and_stderr_end_quietly() -> None:
    done = subprocess.run(
        [PROGRAM, "perft", "--game", "tictactoe", "--depth", "1"],
        preexec_fn=lambda: (os.close(1), os.close(2)), timeout=CASE_TIMEOUT,  # type: ignore[func-returns-value]
    )
    assert done.returncode == USAGE


# ------------------------------------------------------------------ external engines
def test_an_engine_killed_at_its_deadline_leaves_no_child(fixtures: Path) -> None:
    """An engine script that runs ``sleep 1000`` on ``go``: killed at the move time-out,
    its whole process group goes with it, and the match still sums up."""
    outcome = run_case(
        ["match", "--game", "chess", "--games", "2", "--time", "0.1", "--move-timeout", "1",
         "--a", f"uci:{fixtures}/sleeper.sh", "--b", "depth=1"],
        {},
    )
    assert outcome.status == 0, outcome.stderr
    assert outcome.stdout.count("forfeits: no move within 1 s") == 2
    assert outcome.left == [], f"the engine left {len(outcome.left)} processes running"


def test_an_engine_that_never_starts_leaves_no_child(fixtures: Path) -> None:
    outcome = run_case([*CHESS_MATCH, "--a", f"uci:{fixtures}/mute.sh", "--b", "depth=1", "--start-timeout", "1"], {})
    assert_one_line_refusal(outcome, "did not finish the UCI handshake ('uci' … 'uciok') within 1 s")


# ------------------------------------------------------------------ match outputs and summary
def test_out_naming_a_folder_is_refused_before_any_game(fixtures: Path) -> None:
    outcome = run_case([*MATCH, "--a", "depth=1", "--b", "depth=1", "--out", str(fixtures)], {})
    assert_one_line_refusal(outcome, f"--out {str(fixtures)!r}")


def test_one_game_has_no_interval() -> None:
    outcome = run_case(["match", "--game", "tictactoe", "--games", "1", "--depth", "1", "--a", "depth=1", "--b", "depth=1"], {})
    assert outcome.status == 0, outcome.stderr
    elo = [line for line in outcome.stdout.splitlines() if line.startswith("Elo")]
    assert len(elo) == 1 and "one game: no interval" in elo[0] and "95%" not in elo[0], elo
    assert "in 1 game\n" in outcome.stdout and "1 games" not in outcome.stdout


# ------------------------------------------------------------------ limits that must hold
def test_a_depth_limit_bounds_the_othello_solver() -> None:
    """``--solver-empties 64 --depth 1`` from the start: the depth limit applies to the exact
    solve too, so the answer comes (it would otherwise solve 60 empties, for hours)."""
    outcome = run_case(["analyse", "--game", "othello", "--solver-empties", "64", "--depth", "1"], {})
    assert outcome.status == 0, outcome.stderr
    assert outcome.stdout.splitlines()[-1].startswith("bestmove ")


@pytest.mark.parametrize("signal_name", ["SIGTERM", "SIGHUP"])
def test_a_stopped_match_ends_its_engines(fixtures: Path, tmp_path: Path, signal_name: str) -> None:
    """SIGTERM or SIGHUP (the terminal closed) while an engine thinks: the match ends with
    128 + the signal and ends the engine's process group (which the signal never reached)."""
    mark = uuid.uuid4().hex
    env = {**os.environ, MARK: mark, "PLYGROUND_CORE_LOCKS": str(tmp_path / "locks")}
    process = subprocess.Popen(
        [PROGRAM, "match", "--game", "chess", "--games", "2", "--time", "0.1", "--a", f"uci:{fixtures}/sleeper.sh", "--b", "depth=1"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )
    try:
        started = time.monotonic()
        while not any(Path(f"/proc/{pid}/cmdline").read_bytes().startswith(b"sleep\x001000") for pid in alive(processes_marked(mark))):
            assert process.poll() is None, process.communicate()[1]
            assert time.monotonic() - started < CASE_TIMEOUT, "the engine never started thinking"
            time.sleep(0.05)  # polling other processes: there is no event to wait on
        process.send_signal(getattr(signal, signal_name))
        _, err = process.communicate(timeout=CASE_TIMEOUT)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    left = processes_marked(mark)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert process.returncode == 128 + getattr(signal, signal_name), err
    assert "Traceback" not in err, err
    assert left == [], f"{len(left)} processes left"


def alive(pids: list[int]) -> list[int]:
    """The pids whose command line can still be read."""
    return [pid for pid in pids if Path(f"/proc/{pid}/cmdline").exists()]
