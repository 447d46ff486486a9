"""Chess search speed at a fixed depth: nodes, seconds and nodes/s per position, for
comparing two versions of the engine in one run on a shared machine.

Run: ``.venv/bin/python -m bench.chess_depth_speed [--depth 6] [--limit 12] [--suite bk|wac|sample]
[--profile out.txt] [--compare /path/to/other/checkout]``. Each position of the EPD suite is
searched from a fresh table to ``--depth`` (CPU time, ``time.process_time``). With
``--compare`` the other checkout's engine searches the same positions in a subprocess,
alternating position by position with this one, so both see the same machine load; the
totals (sum of nodes, sum of CPU seconds, their ratio) are the numbers to compare.
``--profile`` writes a cProfile of this checkout's searches (top functions by own time).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path.cwd() if "--serve" in sys.argv else Path(__file__).resolve().parent.parent
"""The checkout whose engine runs here (``--serve``: the other one, our working directory)."""

from ai.engine import run_search
from ai.settings import Limits, SearchRequest, SearchSettings

SUITES = {"bk": "bk.epd", "wac": "wac.epd", "kaufman": "kaufman.epd"}


def suite_fens(suite: str, limit: int) -> list[str]:
    if suite == "sample":  # bench/engine_speed.py's positions: the start and random playouts
        from bench.engine_speed import sample_positions

        return sample_positions("chess", limit)
    lines = (ROOT / "tests" / "data" / "chess" / SUITES[suite]).read_text().splitlines()
    fens = [" ".join(line.split()[:4]) + " 0 1" for line in lines if line.strip()]
    return fens[:limit]


def search_one(fen: str, depth: int, settings_text: str = "") -> tuple[int, float, int]:
    """(nodes, CPU seconds, depth reached) of one search from a fresh table."""
    options = dict(item.split("=", 1) for item in settings_text.split(",") if item)
    settings = SearchSettings(book=False, **{k: (v not in ("off", "false", "0")) for k, v in options.items()})
    request = SearchRequest(game="chess", position=fen, settings=settings, limits=Limits(depth=depth))
    started = time.process_time()
    finished = run_search(request, shared={})
    return finished.nodes, time.process_time() - started, finished.depth


def serve(depth: int, settings_text: str) -> None:
    """Worker mode for ``--compare``: one FEN per stdin line, one JSON answer per line."""
    for line in sys.stdin:
        nodes, seconds, reached = search_one(line.strip(), depth, settings_text)
        print(json.dumps([nodes, seconds, reached]), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", choices=[*sorted(SUITES), "sample"], default="bk")
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--limit", type=int, default=12)
    parser.add_argument("--settings", default="", help="boolean switches, e.g. see_pruning=off")
    parser.add_argument("--profile", default=None)
    parser.add_argument("--compare", default=None, help="another checkout (its .venv runs it)")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.depth, args.settings)
        return
    other = None
    if args.compare:
        checkout = Path(args.compare)
        other = subprocess.Popen(
            [str(checkout / ".venv" / "bin" / "python"), str(Path(__file__).resolve()), "--serve",
             "--depth", str(args.depth), "--settings", args.settings],
            cwd=checkout, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            env={"PYTHONPATH": str(checkout), "PATH": "/usr/bin:/bin"},
        )
    profiler = cProfile.Profile() if args.profile else None
    totals = {"this": [0, 0.0], "other": [0, 0.0]}
    for number, fen in enumerate(suite_fens(args.suite, args.limit), 1):
        if profiler:
            profiler.enable()
        nodes, seconds, _ = search_one(fen, args.depth, args.settings)
        if profiler:
            profiler.disable()
        totals["this"][0] += nodes
        totals["this"][1] += seconds
        line = f"{number:3d} this {nodes:8d} nodes {seconds:7.2f} s {nodes / seconds:8.0f} nps"
        if other is not None:
            other.stdin.write(fen + "\n")
            other.stdin.flush()
            o_nodes, o_seconds, _ = json.loads(other.stdout.readline())
            totals["other"][0] += o_nodes
            totals["other"][1] += o_seconds
            line += f" | other {o_nodes:8d} nodes {o_seconds:7.2f} s {o_nodes / o_seconds:8.0f} nps"
        print(line, flush=True)
    for name, (nodes, seconds) in totals.items():
        if seconds:
            print(f"total {name}: {nodes} nodes, {seconds:.1f} CPU s, {nodes / seconds:,.0f} nps")
    if other is not None:
        other.stdin.close()
        other.wait()
    if profiler:
        stream = io.StringIO()
        pstats.Stats(profiler, stream=stream).sort_stats("tottime").print_stats(30)
        Path(args.profile).write_text(stream.getvalue())


if __name__ == "__main__":
    main()
