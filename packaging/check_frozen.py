"""Check a frozen build the way a user would run it: files, app, worker processes, CLI, fonts.

Run by ``packaging/build.sh`` after PyInstaller (``python packaging/check_frozen.py dist/plyground/plyground``);
every check prints one line, and the first failure ends the run with status 1. In this order:

1. The files a user and the licences need are in place.
2. The self-test (``--self-test`` when the app offers it, else the placeholder's
   ``--smoke-test``) exits 0 offscreen. While it runs, its process tree is sampled from
   ``/proc``: the worker processes must be the frozen executable itself, started by spawn
   (``--multiprocessing-fork``), and after it exits nothing of its session may remain.
3. The engine pool from the CLI (``analyse --threads 2``): its workers are the frozen
   executable started by spawn, and nothing is left once it has answered.
4. Killed: SIGKILL on a searching ``analyse --threads 2`` while its workers run; they must end
   by themselves (the pool's orphan check, the same in the app).
5. The same self-test on a real X server (Xvfb, the xcb platform), when ``xvfb-run`` is there.
6. The command line: ``perft`` and a UCI handshake from the same executable.
   The native modules (``games.othello._solver``, ``games.othello._fast``, ``games.checkers._fast``,
   ``games.chess_game._search``) are in the bundle, and the Othello solver answers:
   ``analyse`` solves FFO #40 (20 empties) exactly, at native speed. The compiled chess
   search reads the shipped network (its bench tree differs from ``--network off``'s); the
   compiled Othello search reaches depth 10 from the start.
7. The first painted window (``gui.startup_probe``): the version is pyproject's, the window
   has its icon, and, started with fontconfig blinded to the system's fonts (``FONTCONFIG_FILE`` a
   configuration without font folders, ``QT_QPA_FONTDIR`` an empty folder), the only font Qt
   knows is the bundled DejaVu Sans and the window uses it, as on a machine with no fonts.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

SELF_TEST_TIMEOUT_S = 300.0
SAMPLE_INTERVAL_S = 0.05
ORPHAN_GRACE_S = 10.0
"""How long workers may take to notice that the app was killed."""
LEFTOVER_GRACE_S = 5.0
"""How long the session may take to empty after the app exits (the resource tracker's own exit)."""
BUNDLED_FAMILY = "DejaVu Sans"
GENERIC_FAMILIES = ("Monospace", "Sans Serif", "Serif")
"""Fontconfig's aliases, listed even when it knows no font."""
PROJECT_ROOT = Path(__file__).resolve().parent.parent
SPAWN_FLAG = "--multiprocessing-fork"
POOL_WORKERS = 2


class CheckFailed(Exception):
    """One check failed; the message says which and why."""


def offscreen_env(folder: str, **extra: str) -> dict[str, str]:
    """The environment of a checked run: offscreen, settings and autosave in ``folder``."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=folder, XDG_DATA_HOME=folder,
               PLYGROUND_DATA_DIR=folder, TMPDIR=folder)  # TMPDIR: a one-file build unpacks there
    env.update(extra)
    return env


def session_processes(session: int) -> dict[int, tuple[str, list[str]]]:
    """``{pid: (executable, argv)}`` of every live process in ``session`` (Linux ``/proc``)."""
    found: dict[int, tuple[str, list[str]]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[3]) != session or fields[0] == "Z":  # fields[3]: session id; Z: zombie
                continue
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            found[int(entry.name)] = (os.readlink(entry / "exe"), [part.decode() for part in argv if part])
        except (OSError, IndexError, ValueError):
            continue  # the process ended while we looked
    return found


def self_test_mode(executable: Path) -> str:
    """``--self-test`` if the app offers it (the real app), else ``--smoke-test`` (the placeholder)."""
    result = subprocess.run([str(executable), "--help"], capture_output=True, text=True, timeout=60)
    return "--self-test" if "--self-test" in result.stdout else "--smoke-test"


def run_watched(command: list[str], folder: str, name: str) -> tuple[str, float, int]:
    """Run ``command`` in a new session and watch its processes until it and they have ended.

    Returns (output, seconds, spawn workers seen). Fails if it exits non-zero, a worker is
    not the frozen executable itself, or anything of its session outlives it.
    """
    executable = Path(command[0]).resolve()
    started = time.monotonic()
    log = open(Path(folder) / "output.log", "w+", encoding="utf-8")  # a pipe could fill and block
    # A new session: every process it starts stays in it unless it leaves on purpose.
    process = subprocess.Popen(
        command, env=offscreen_env(folder), cwd=folder, start_new_session=True, stdout=log, stderr=subprocess.STDOUT
    )
    workers: set[int] = set()
    while process.poll() is None:
        for pid, (exe, argv) in session_processes(process.pid).items():
            if pid != process.pid and SPAWN_FLAG in argv:
                if Path(exe).resolve() != executable:
                    process.kill()
                    raise CheckFailed(f"{name}: a worker runs {exe}, not the frozen executable")
                workers.add(pid)
        if time.monotonic() - started > SELF_TEST_TIMEOUT_S:
            process.kill()
            raise CheckFailed(f"{name} did not finish in {SELF_TEST_TIMEOUT_S:.0f} s")
        time.sleep(SAMPLE_INTERVAL_S)
    seconds = time.monotonic() - started
    log.seek(0)
    output = log.read()
    log.close()
    if process.returncode != 0:
        tail = "\n".join(output.strip().splitlines()[-15:])
        raise CheckFailed(f"{name} exited {process.returncode}:\n{tail}")
    deadline = time.monotonic() + LEFTOVER_GRACE_S
    while (left := session_processes(process.pid)) and time.monotonic() < deadline:
        time.sleep(SAMPLE_INTERVAL_S)
    if left:
        raise CheckFailed(f"processes left behind after {name}: {left}")
    return output, seconds, len(workers)


def check_self_test(executable: Path, screenshot: Path | None) -> str:
    mode = self_test_mode(executable)
    with tempfile.TemporaryDirectory(prefix="plyground-check-") as folder:
        command = [str(executable), mode] + (["--screenshot", str(screenshot)] if screenshot else [])
        _, seconds, workers = run_watched(command, folder, mode)
    if mode == "--self-test" and not workers:
        raise CheckFailed("--self-test passed but no spawn worker process of the frozen executable was seen")
    return f"{mode}: exit 0 in {seconds:.1f} s, {workers} spawn worker process(es) of the frozen executable, none left"


def check_pool_from_cli(executable: Path) -> str:
    """``analyse --threads 2``: the engine pool's workers from the frozen executable, cleaned up."""
    command = [str(executable), "analyse", "--game", "chess", "--depth", "5", "--threads", str(POOL_WORKERS)]
    with tempfile.TemporaryDirectory(prefix="plyground-pool-") as folder:
        output, seconds, workers = run_watched(command, folder, "analyse --threads")
    if "bestmove" not in output:
        raise CheckFailed(f"analyse --threads printed no best move: {output[-300:]}")
    if workers < 1:
        raise CheckFailed("analyse --threads ran without a spawn worker process")
    return f"pool (CLI): analyse --threads {POOL_WORKERS} in {seconds:.1f} s with {workers} spawn worker(s), none left"


def check_killed_parent_leaves_nothing(executable: Path) -> str:
    """SIGKILL a long pool search's process while its workers run: they must notice and end.

    The pool's orphan check is the same for the app and the CLI; the CLI's search is used
    because it is certain to be running when the kill comes.
    """
    command = [str(executable), "analyse", "--game", "chess", "--depth", "60", "--threads", str(POOL_WORKERS)]
    with tempfile.TemporaryDirectory(prefix="plyground-kill-") as folder:
        process = subprocess.Popen(
            command, env=offscreen_env(folder), cwd=folder, start_new_session=True,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + SELF_TEST_TIMEOUT_S
        while not any(SPAWN_FLAG in argv for _, argv in session_processes(process.pid).values()):
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                raise CheckFailed("kill: no worker process appeared before the search ended")
            time.sleep(SAMPLE_INTERVAL_S)
        process.kill()
        process.wait()
        killed = time.monotonic()
        while (left := session_processes(process.pid)) and time.monotonic() - killed < ORPHAN_GRACE_S:
            time.sleep(SAMPLE_INTERVAL_S)
        for pid in left:  # leave the machine clean even when the check fails
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        unpacked = list(Path(folder).glob("_MEI*"))  # removed with the folder
    if left:
        raise CheckFailed(f"kill: {len(left)} process(es) outlived their killed parent by {ORPHAN_GRACE_S:.0f} s: {left}")
    note = f" (its one-file unpack folder {unpacked[0].name} was left behind)" if unpacked else ""
    return f"kill: after SIGKILL of a searching analyse --threads its workers ended within {time.monotonic() - killed:.1f} s{note}"


def check_first_paint(executable: Path) -> str:
    with tempfile.TemporaryDirectory(prefix="plyground-fonts-") as folder:
        report = Path(folder) / "probe.json"
        empty = Path(folder) / "no-fonts"
        empty.mkdir()
        # A valid configuration with no font folders: fontconfig then knows no font at all.
        # (FONTCONFIG_FILE=/dev/null is not enough: on a parse error fontconfig falls back to
        # its built-in default and finds /usr/share/fonts again.)
        blind = Path(folder) / "fonts.conf"
        blind.write_text('<?xml version="1.0"?>\n<fontconfig></fontconfig>\n')
        env = offscreen_env(
            folder, FONTCONFIG_FILE=str(blind), QT_QPA_FONTDIR=str(empty), PLYGROUND_STARTUP_PROBE=str(report)
        )
        result = subprocess.run([str(executable)], env=env, cwd=folder, capture_output=True, text=True, timeout=120)
        if result.returncode != 0 or not report.exists():
            raise CheckFailed(f"the app without system fonts exited {result.returncode}: {result.stderr.strip()[-400:]}")
        probe = json.loads(report.read_text())
    real = [family for family in probe["families"] if family not in GENERIC_FAMILIES]
    if probe["font"] != BUNDLED_FAMILY or real != [BUNDLED_FAMILY]:
        raise CheckFailed(f"without system fonts the app font is {probe['font']!r}; families {probe['families']}")
    if not probe.get("window_icon_sizes"):
        raise CheckFailed("the app sets no window icon (QApplication.setWindowIcon(gui.about.app_icon()))")
    with open(PROJECT_ROOT / "pyproject.toml", "rb") as file:
        version = tomllib.load(file)["project"]["version"]
    if probe.get("version") != version:
        raise CheckFailed(f"the build reports version {probe.get('version')!r}, pyproject.toml says {version!r}")
    return (
        f"first paint: with no system font visible (families {probe['families']}) the app draws with "
        f"{probe['font']}; window icon {probe['window_icon_sizes']} px; version {probe['version']}"
    )


def check_x11(executable: Path) -> str:
    """The self-test on a real X server (Xvfb) with the bundled xcb platform and its libraries."""
    if shutil.which("xvfb-run") is None:
        return "x11: SKIPPED, no xvfb-run (Debian: xvfb xauth)"
    mode = self_test_mode(executable)
    with tempfile.TemporaryDirectory(prefix="plyground-x11-") as folder:
        env = offscreen_env(folder, QT_QPA_PLATFORM="xcb")
        command = ["xvfb-run", "-a", "-s", "-screen 0 1280x1024x24", str(executable), mode]
        result = subprocess.run(command, env=env, cwd=folder, capture_output=True, text=True,
                                timeout=SELF_TEST_TIMEOUT_S)
    if result.returncode != 0:
        raise CheckFailed(f"x11: {mode} under Xvfb exited {result.returncode}: {result.stderr.strip()[-600:]}")
    return f"x11: {mode} passed on Xvfb with the bundled xcb platform"


def check_cli(executable: Path) -> str:
    perft = subprocess.run([str(executable), "perft", "--game", "chess", "--depth", "3"],
                           capture_output=True, text=True, timeout=120)
    if perft.stdout.strip() != "8902":
        raise CheckFailed(f"perft chess 3 printed {perft.stdout.strip()!r} (exit {perft.returncode}): {perft.stderr}")
    uci = subprocess.run([str(executable), "uci"], input="uci\nisready\nposition startpos\ngo depth 3\n",
                         capture_output=True, text=True, timeout=120)
    if "uciok" not in uci.stdout or "bestmove" not in uci.stdout:
        raise CheckFailed(f"uci handshake failed (exit {uci.returncode}): {uci.stdout[-300:]} {uci.stderr[-300:]}")
    bench = subprocess.run([str(executable), "bench", "--game", "tictactoe", "--algorithm", "minimax", "--no-tt",
                            "--no-iterative-deepening", "--depth", "9"], capture_output=True, text=True, timeout=300)
    if bench.returncode != 0 or " 549946 " not in bench.stdout:
        raise CheckFailed(f"bench tictactoe minimax printed {bench.stdout[-300:]!r} (exit {bench.returncode}): {bench.stderr[-300:]}")
    return "cli: perft chess 3 = 8902; uci: uciok, go depth 3 -> bestmove; bench: minimax tree of 549946 nodes"


NEWELL = "B:W22,K5:BK15,K6"
"""Newell's first position (problems.json): Black plays 15-10 and wins."""


def check_native_checkers(executable: Path) -> str:
    """The compiled checkers search (in ``games.checkers._fast``) and the endgame databases
    (``resources/endgames``) answer through the frozen engine."""
    run = subprocess.run([str(executable), "analyse", "--game", "checkers", "--algorithm", "native", "--position", NEWELL,
                          "--depth", "30"], capture_output=True, text=True, timeout=120)
    if run.returncode != 0 or "bestmove 15-10" not in run.stdout or "win" not in run.stdout.lower():
        raise CheckFailed(f"checkers native: Newell's 15-10 not found as a win (exit {run.returncode}): "
                          f"{run.stdout[-300:]} {run.stderr[-300:]}")
    return "checkers: the compiled search plays Newell's 15-10 and reports the win"


OTHELLO_OPENING_MOVES = ("d3", "c4", "f5", "e6")
"""Black's four first moves, equal by symmetry."""


def check_native_othello(executable: Path) -> str:
    """The compiled Othello search (in ``games.othello._fast``) answers through the frozen
    engine: depth 10 from the start, an opening move."""
    run = subprocess.run([str(executable), "analyse", "--game", "othello", "--algorithm", "native", "--depth", "10"],
                         capture_output=True, text=True, timeout=120)
    lines = run.stdout.splitlines()
    best = lines[-1].split()[-1] if lines and lines[-1].startswith("bestmove") else ""
    if run.returncode != 0 or best not in OTHELLO_OPENING_MOVES or not any(line.startswith("depth 10 ") for line in lines):
        raise CheckFailed(f"othello native: no depth-10 opening move (exit {run.returncode}): "
                          f"{run.stdout[-300:]} {run.stderr[-300:]}")
    return f"othello: the compiled search reaches depth 10 from the start and plays {best}"


def check_chess_network(executable: Path) -> str:
    """The shipped chess network (``resources/weights/chess_net.json``) is in the bundle and
    the frozen compiled search reads it: the same bench searches another tree without it."""
    internal = executable.parent / "_internal"
    if internal.is_dir() and not (internal / "resources" / "weights" / "chess_net.json").is_file():
        if (Path(__file__).resolve().parent.parent / "resources" / "weights" / "chess_net.json").is_file():
            raise CheckFailed("resources/weights/chess_net.json is shipped but not in the bundle")
        return "chess: no network shipped, nothing to check"

    def nodes(*extra: str) -> int:
        run = subprocess.run([str(executable), "bench", "--game", "chess", "--algorithm", "native", "--depth", "8",
                              *extra], capture_output=True, text=True, timeout=300)
        counts = [line.split(":")[1].strip() for line in run.stdout.splitlines() if line.startswith("Nodes searched")]
        if run.returncode != 0 or not counts:
            raise CheckFailed(f"bench chess native failed (exit {run.returncode}): {run.stdout[-300:]} {run.stderr[-300:]}")
        return int(counts[-1])

    shipped, plain = nodes(), nodes("--network", "off")
    if shipped == plain:
        raise CheckFailed(f"chess: the same {shipped} nodes with and without the network: the bundle's network is not read")
    return f"chess: the compiled search reads the shipped network ({shipped} nodes at bench depth 8, {plain} without)"


FFO_40 = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X"
"""FFO #40: Black plays a2 for +38 (21.8M nodes for the native solver, about a second of
CPU; the pure-Python solver would need minutes)."""
NATIVE_MIN_NPS = 1_000_000
"""The pure-Python solver runs ~150k nodes/s; the native one ~25M/s (per wall second on a
loaded machine, still several million)."""


def check_native_solver(executable: Path) -> str:
    folder = executable.parent
    internal = folder / "_internal"
    if internal.is_dir():
        # Othello's endgame solver, move generation and EVALs; checkers' move generation and EVAL;
        # the compiled chess search
        for game, module in (("othello", "_solver"), ("othello", "_fast"), ("checkers", "_fast"), ("chess_game", "_search")):
            if not list((internal / "games" / game).glob(f"{module}*.so")):
                raise CheckFailed(f"the native module games/{game}/{module}*.so is not in the bundle")
    command = [str(executable), "analyse", "--game", "othello", "--position", FFO_40, "--solver-empties", "20",
               "--time", "120"]
    run = subprocess.run(command, capture_output=True, text=True, timeout=300)
    lines = run.stdout.strip().splitlines()
    depth_lines = [line for line in lines if line.startswith("depth ")]
    nps = int(depth_lines[-1].split(" nps ")[1].split()[0]) if depth_lines and " nps " in depth_lines[-1] else 0
    if run.returncode != 0 or "bestmove a2" not in lines or "+38.00" not in run.stdout or nps < NATIVE_MIN_NPS:
        raise CheckFailed(f"FFO #40 not solved by the native solver (exit {run.returncode}, {nps:,} nodes/s): "
                          f"{run.stdout[-300:]} {run.stderr[-300:]}")
    return f"othello: the native endgame solver solves FFO #40 (a2, +38) at {nps:,} nodes/s"


def check_files(executable: Path) -> str:
    folder = executable.parent
    internal = folder / "_internal"
    required = [folder / "LICENSE", folder / "THIRD_PARTY_NOTICES.md", folder / "licenses" / "LGPL-3.0.txt"]
    if internal.is_dir():  # the one-dir build: the bundle and the Linux desktop integration
        required += [
            internal / "LICENSE", internal / "THIRD_PARTY_NOTICES.md", internal / "licenses" / "LGPL-3.0.txt",
            internal / "resources" / "icons" / "plyground-256.png",
            folder / "share" / "applications" / "plyground.desktop",
            folder / "share" / "icons" / "hicolor" / "256x256" / "apps" / "plyground.png",
            folder / "install.sh",
        ]
        fonts = sorted((internal / "resources" / "fonts").glob("*.ttf"))
        if (internal / "resources" / "fonts").exists() and not fonts:
            raise CheckFailed("resources/fonts/ is in the bundle without a .ttf")
        required += [internal / "resources" / "fonts" / "LICENSE"] if fonts else []
    missing = [str(path.relative_to(folder)) for path in required if not path.exists()]
    if missing:
        raise CheckFailed(f"missing from the build: {', '.join(missing)}")
    system = sorted((folder / "licenses" / "system").glob("*.copyright"))
    return f"files: licences, notices, {len(system)} system library copyright files, icons, desktop entry present"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="check a frozen Plyground build")
    parser.add_argument("executable", type=Path)
    parser.add_argument("--screenshot", type=Path, help="where the self-test saves its window")
    args = parser.parse_args(argv)
    args.executable = args.executable.resolve()  # the runs start in a scratch folder
    if not os.access(args.executable, os.X_OK):
        print(f"FAIL no executable at {args.executable} (build it with `make package`)", file=sys.stderr)
        return 1
    checks = [
        lambda: check_files(args.executable),
        lambda: check_self_test(args.executable, args.screenshot),
        lambda: check_pool_from_cli(args.executable),
        lambda: check_killed_parent_leaves_nothing(args.executable),
        lambda: check_x11(args.executable),
        lambda: check_cli(args.executable),
        lambda: check_native_solver(args.executable),
        lambda: check_native_checkers(args.executable),
        lambda: check_native_othello(args.executable),
        lambda: check_chess_network(args.executable),
        lambda: check_first_paint(args.executable),
    ]
    for check in checks:
        try:
            print("ok  " + check(), flush=True)
        except (CheckFailed, subprocess.TimeoutExpired) as error:
            print(f"FAIL {error}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
