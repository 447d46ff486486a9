"""A/B of the compiled chess search's build-time parameters, by match.

    .venv/bin/python -m bench.chess_native_variants --a RFP_MARGIN=100 --b "" \\
        --games 100 --time 0.05 --seed 1 [--cpu 1] [--keep /tmp/variants]

Each side is a copy of this checkout's ``games``, ``ai`` and ``resources`` with
``games/chess_game/_search.c`` compiled with setup.py's flags plus the side's ``-D`` macros
(any of the ``#ifndef`` parameters at the top of ``_search.c``: ``RFP_MARGIN=100``,
``LMP_MAX_DEPTH=6,FUTILITY_BASE=120``; empty: the parameters as written). The two play a
``plyground match`` as UCI engines (``plyground uci``, whose default algorithm is the compiled
search), each started from its own copy, so both builds live side by side. The match's
output (score, Elo with its 95% interval, LOS) is the answer; ``--cpu`` pins the match and
both engines to one core, so that two A/Bs can run at once on a 2-core machine.

Build-time macros, not runtime options, because the search reads its parameters as
constants in its hot loop; a variant that wins becomes the new ``#define``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
MODULE_SOURCE = Path("games/chess_game/_search.c")
FLAGS = ["-O3", "-std=c11", "-ffp-contract=off", "-fPIC", "-shared", "-DNDEBUG", "-fwrapv"]
"""setup.py's flags for the module, plus what a shared object needs."""


def macros(text: str) -> list[str]:
    """``"A=1,B=2"`` as ``["-DA=1", "-DB=2"]``; empty for ``""``."""
    return [f"-D{item.strip()}" for item in text.split(",") if item.strip()]


def build(side: str, spec: str, root: Path) -> Path:
    """A copy of the project's packages under ``root / side`` with the module built from
    ``spec``; returns the copy's folder."""
    folder = root / side
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    for package in ("games", "ai", "resources"):
        shutil.copytree(PROJECT / package, folder / package, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    for native in PROJECT.glob("games/*/*.so"):  # the other games' C paths, as built
        if "_search" not in native.name:
            shutil.copy2(native, folder / native.relative_to(PROJECT))
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    target = folder / MODULE_SOURCE.with_name(f"_search{suffix}")
    include = sysconfig.get_paths()["include"]
    command = ["gcc", *FLAGS, *macros(spec), f"-I{include}", str(folder / MODULE_SOURCE), "-o", str(target)]
    subprocess.run(command, check=True)
    return folder


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", default="", help="macros of side A (NAME=VALUE,...)")
    parser.add_argument("--b", default="", help="macros of side B")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--time", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cpu", type=int, default=None, help="pin the match and the engines to this core")
    parser.add_argument("--keep", type=Path, default=Path("/tmp/plyground-variants"), help="where the builds go")
    parser.add_argument("--out", default=None, help="write the games here (PGN)")
    args = parser.parse_args(argv)
    tag = f"{abs(hash((args.a, args.b, args.seed))) % 10**8}"
    sides = {side: build(f"{tag}-{side}", spec, args.keep) for side, spec in (("a", args.a), ("b", args.b))}
    python = sys.executable
    pin = ["taskset", "-c", str(args.cpu)] if args.cpu is not None else []
    players = {
        side: f"uci:env PYTHONPATH={folder} {' '.join(pin)} {python} -m ai.cli uci".replace("  ", " ")
        for side, folder in sides.items()
    }
    command = [
        *pin, python, "-m", "ai.cli", "match", "--game", "chess",
        "--a", players["a"], "--b", players["b"],
        "--games", str(args.games), "--time", str(args.time), "--seed", str(args.seed), "--no-wait",
    ]
    if args.out:
        command += ["--out", args.out]
    print(f"A: {args.a or '(as written)'}\nB: {args.b or '(as written)'}", flush=True)
    environment = dict(os.environ, PLYGROUND_CORE_LOCKS=str(args.keep / f"locks-{args.cpu}"))
    return subprocess.run(command, cwd=sides["a"], env=environment).returncode


if __name__ == "__main__":
    sys.exit(main())
