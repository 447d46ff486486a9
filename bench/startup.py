"""Launch to first painted window: the app from source and the frozen build, median of N.

Run: ``.venv/bin/python -m bench.startup [--runs 5] [--platform offscreen|xcb] [--only source|frozen]
[--executable dist/onefile/plyground]``.

Each run starts a fresh process with ``PLYGROUND_STARTUP_PROBE=<file>``; the app
(``gui.startup_probe``) writes the wall-clock time of its main window's first paint to that
file and quits through its normal shutdown. Launch time = that time minus the time just before
the process was started; "exit" is until the process has ended (workers stopped). One
untimed run first warms the file cache ("warm" start). With ``--platform xcb`` and no
``DISPLAY`` the runs go through ``xvfb-run``. Target: < 2 s warm for the frozen build.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FROZEN = ROOT / "dist" / "plyground" / "plyground"
PROBE_ENV = "PLYGROUND_STARTUP_PROBE"
RUN_TIMEOUT_S = 60.0
TARGET_S = 2.0


def commands(frozen: Path = FROZEN) -> dict[str, list[str]]:
    """What to launch: the source app through the interpreter, and the frozen build if built."""
    found = {"source": [sys.executable, "-m", "gui"]}
    if frozen.exists():
        found["frozen"] = [str(frozen.resolve())]
    return found


def launch_once(command: list[str], platform: str) -> tuple[float, float]:
    """(seconds to the first paint, seconds to process exit) of one run."""
    with tempfile.TemporaryDirectory(prefix="plyground-startup-") as folder:
        marker = Path(folder) / "painted"
        env = dict(os.environ, QT_QPA_PLATFORM=platform, **{PROBE_ENV: str(marker)})
        # the user's settings and autosave untouched (PLYGROUND_DATA_DIR: gui.settings)
        env["XDG_CONFIG_HOME"] = env["XDG_DATA_HOME"] = env["PLYGROUND_DATA_DIR"] = folder
        if platform == "xcb" and not env.get("DISPLAY"):
            command = ["xvfb-run", "-a", "-s", "-screen 0 1280x1024x24", *command]
        started = time.time()
        result = subprocess.run(command, env=env, cwd=folder, capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
        ended = time.time()
        if result.returncode != 0 or not marker.exists():
            tail = (result.stderr.strip().splitlines() or ["(no output)"])[-1]
            raise RuntimeError(f"{command[0]} exited {result.returncode} without painting: {tail}")
        painted = float(json.loads(marker.read_text())["painted_at"])
        return painted - started, ended - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--platform", default="offscreen", choices=("offscreen", "xcb"))
    parser.add_argument("--only", choices=("source", "frozen"))
    parser.add_argument("--executable", type=Path, default=FROZEN, help="the frozen build (e.g. dist/onefile/plyground)")
    args = parser.parse_args(argv)
    if args.platform == "xcb" and not os.environ.get("DISPLAY") and not shutil.which("xvfb-run"):
        print("startup: --platform xcb needs a DISPLAY or xvfb-run (Debian: xvfb xauth)", file=sys.stderr)
        return 2
    targets = commands(args.executable)
    if args.only:
        if args.only not in targets:
            print(f"startup: no {args.only} build (run `make package` first)", file=sys.stderr)
            return 2
        targets = {args.only: targets[args.only]}
    print(f"launch to first painted main window, {args.platform}, median of {args.runs} warm runs")
    for name, command in targets.items():
        try:
            launch_once(command, args.platform)  # warm-up: file cache, Python bytecode caches
            runs = [launch_once(command, args.platform) for _ in range(args.runs)]
        except (RuntimeError, subprocess.TimeoutExpired) as error:
            print(f"startup: {name}: {error}", file=sys.stderr)
            return 1
        paints = sorted(run[0] for run in runs)
        exits = sorted(run[1] for run in runs)
        verdict = "ok" if statistics.median(paints) < TARGET_S else f"OVER the {TARGET_S:.0f} s target"
        print(
            f"{name:>7}: first paint {statistics.median(paints):.2f} s (min {paints[0]:.2f}, max {paints[-1]:.2f}), "
            f"process end {statistics.median(exits):.2f} s  [{verdict}]"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
