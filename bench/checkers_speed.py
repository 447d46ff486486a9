"""Checkers search speed: nodes, CPU time and time to depth on fixed positions, fixed depth.

Run: ``.venv/bin/python -m bench.checkers_speed [--runs 5] [--json out.json]``.

Each position (the start, middlegames from self-play after 3-move ballots, and endgame
problems of ``tests/data/checkers/problems.json``) is searched by the default engine
(PVS, table, ordering, quiescence, the databases) to a fixed depth, with an empty table
every time. The node count of a fixed-depth search is exact: it must not change when only
the speed of the code changes (``--compare old.json`` checks it, position by position, with
the seconds each iteration took). The times are CPU seconds (``time.process_time``) of this
process, medians over ``--runs``, so other processes on the core disturb them less.

``--seconds S`` searches each position for S seconds of wall time instead: the depth it
completes is the result (time buys depth; node counts then vary with the load).

``--trees A,B`` measures other source trees in the same run (e.g. ``git archive main`` put in
/tmp/base, against this worktree): each run of each position goes to a child process
importing that tree's ``games`` and ``ai``, the trees alternating, so that both see the same
load. ``PLYGROUND_PYTHON_HOTPATHS=1`` in the environment measures the pure-Python paths.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

POSITIONS: tuple[tuple[str, str, int], ...] = (
    ("start", "B:W21-32:B1-12", 11),
    ("ballot 3, ply 14", "B:W19,22,24,26,27,29,30,31,32:B1,2,4,8,10,12,13,16,17", 12),
    ("ballot 40, ply 14", "B:W19,21,22,23,28,30,31,32:B1,3,4,6,9,11,12,14", 10),
    ("ballot 90, ply 14", "B:W13,21,22,24,29,30,31,32:B1,2,3,4,10,11,14,16", 10),
    ("ballot 3, ply 24", "B:W14,17,19,29,30,31,32:B1,4,6,10,11,12,21", 12),
    ("ballot 90, ply 24", "B:W9,17,20,21,27,29,32:B1,2,3,10,11,15,16", 12),
    ("ballot 40, ply 34", "B:W7,20,21,25,26:B3,10,14,17", 14),
    ("bell", "B:W26,23,21,20,19:B12,11,10,9,3", 13),
    ("cresswell", "B:W26,25,21,20,16:B14,8,7,5,3", 13),
    ("vair", "B:WK10,13,K17,K23,32:B5,12,K22,K29,K31", 9),
)
"""(label, PDN FEN, depth). Middlegames: self-play at depth 5 from 3-move ballots 3, 40 and 90
of ``resources/openings/checkers_3move.txt`` (``bench/checkers_speed.py`` does not replay
them; the texts are the record)."""


def measure_once(text: str, depth: int, seconds: float | None = None, algorithm: str = "pvs") -> dict[str, Any]:
    """One fixed-depth search with an empty table: nodes, CPU seconds, seconds per depth;
    with ``seconds``, a search of that much wall time instead (its depth is the result)."""
    from ai.engine import search
    from ai.events import Iteration
    from ai.settings import Limits, SearchSettings
    from games.checkers import CheckersState

    state = CheckersState.from_text(text)
    reached: list[float] = []
    started = time.process_time()

    def on_event(event: object) -> None:
        if isinstance(event, Iteration):
            reached.append(time.process_time() - started)

    limits = Limits(depth=depth) if seconds is None else Limits(time=seconds)
    finished = search(state, SearchSettings(algorithm=algorithm), limits, on_event=on_event)
    used = time.process_time() - started
    return {
        "nodes": finished.nodes,
        "seconds": used,
        "depth": finished.depth,
        "best": state.move_name(finished.best_move),
        "score": finished.score.value,
        "reached": reached,
    }


def worker(source: str, index: int, seconds: float | None, algorithm: str) -> None:
    """Child process, started with ``source`` on ``PYTHONPATH``: measure position ``index`` once
    with that tree's code."""
    _label, text, depth = POSITIONS[index]
    result = measure_once(text, depth, seconds, algorithm)
    import games.checkers.state as module

    result["source"] = str(Path(module.__file__).resolve().parent.parent.parent)
    print(json.dumps(result))


def run_tree(source: str, index: int, seconds: float | None, algorithm: str) -> dict[str, Any]:
    timed = [] if seconds is None else ["--seconds", str(seconds)]
    output = subprocess.run(
        [sys.executable, __file__, "--worker", source, "--index", str(index), "--algorithm", algorithm, *timed],
        check=True,
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=source),
    ).stdout
    result: dict[str, Any] = json.loads(output.splitlines()[-1])
    if Path(result["source"]) != Path(source).resolve():
        raise SystemExit(f"the child imported {result['source']}, not {source}")
    return result


def summarise(results: list[dict[str, Any]], timed: bool) -> dict[str, Any]:
    nodes = {result["nodes"] for result in results}
    if len(nodes) != 1 and not timed:
        raise SystemExit(f"node counts differ between runs of one position: {sorted(nodes)}")
    seconds = statistics.median(result["seconds"] for result in results)
    reached = [statistics.median(times) for times in zip(*(result["reached"] for result in results))]
    first = results[0]
    return {"nodes": int(statistics.median(result["nodes"] for result in results)), "seconds": seconds,
            "depth": statistics.median(result["depth"] for result in results), "reached": reached,
            "best": first["best"], "score": first["score"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", default="", help="comma-separated position numbers (0-based)")
    parser.add_argument("--trees", default="", help="comma-separated source trees to compare in one run")
    parser.add_argument("--json", type=Path, help="write the medians here")
    parser.add_argument("--compare", type=Path, help="an earlier --json: node counts must be identical")
    parser.add_argument("--seconds", type=float, help="search each position this long (wall) instead of to its depth")
    parser.add_argument("--algorithm", default="pvs", help="e.g. mcts (with --seconds: its iterations a second)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--index", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.index, args.seconds, args.algorithm)
        return
    indices = [int(part) for part in args.only.split(",")] if args.only else list(range(len(POSITIONS)))
    trees = [str(Path(tree).resolve()) for tree in args.trees.split(",")] if args.trees else [str(ROOT)]
    print(f"load average {os.getloadavg()[0]:.2f}; {args.runs} runs; CPU seconds, medians; "
          f"PLYGROUND_PYTHON_HOTPATHS={os.environ.get('PLYGROUND_PYTHON_HOTPATHS', '')!r}")
    summary: dict[str, dict[str, Any]] = {tree: {} for tree in trees}
    for index in indices:
        label, _text, depth = POSITIONS[index]
        runs: dict[str, list[dict[str, Any]]] = {tree: [] for tree in trees}
        for _ in range(args.runs):
            for tree in trees:
                runs[tree].append(
                    run_tree(tree, index, args.seconds, args.algorithm)
                    if args.trees
                    else measure_once(POSITIONS[index][1], depth, args.seconds, args.algorithm)
                )
        for tree in trees:
            row = summarise(runs[tree], args.seconds is not None)
            summary[tree][label] = row
            name = Path(tree).name
            print(f"{label:<20} d{row['depth']:<3g} {name:<12} {row['nodes']:>9,} nodes {row['seconds']:7.2f} s "
                  f"{row['nodes'] / row['seconds']:>9,.0f} n/s  {row['best']:>7} {row['score']:+.1f}", flush=True)
    for tree in trees:
        nodes = sum(row["nodes"] for row in summary[tree].values())
        seconds = sum(row["seconds"] for row in summary[tree].values())
        print(f"{'total':<20}      {Path(tree).name:<12} {nodes:>9,} nodes {seconds:7.2f} s {nodes / seconds:>9,.0f} n/s")
    if len(trees) > 1:
        base = summary[trees[0]]
        for tree in trees[1:]:
            if args.seconds is not None:
                gains = [summary[tree][label]["depth"] - base[label]["depth"] for label in base]
                rates = [summary[tree][label]["nodes"] / base[label]["nodes"] for label in base]
                print(f"{Path(tree).name} against {Path(trees[0]).name} at {args.seconds:g} s: depth gained per position "
                      f"median {statistics.median(gains):+g} (min {min(gains):+g}, max {max(gains):+g}); nodes x"
                      f"{statistics.median(rates):.2f} (min {min(rates):.2f}, max {max(rates):.2f})")
                continue
            same = all(summary[tree][label]["nodes"] == base[label]["nodes"] for label in base)
            ratios = [base[label]["seconds"] / summary[tree][label]["seconds"] for label in base]
            print(f"{Path(tree).name} against {Path(trees[0]).name}: node counts identical: {same}; "
                  f"speed-up per position median {statistics.median(ratios):.2f}x "
                  f"(min {min(ratios):.2f}, max {max(ratios):.2f})")
    print(f"load average {os.getloadavg()[0]:.2f}")
    if args.json:
        args.json.write_text(json.dumps(summary[trees[-1]], indent=1))
    if args.compare:
        old = json.loads(args.compare.read_text())
        new = summary[trees[-1]]
        differing = [label for label in new if label in old and old[label]["nodes"] != new[label]["nodes"]]
        print("node counts identical to", args.compare, ":", not differing, differing or "")
        if differing:
            raise SystemExit(1)


if __name__ == "__main__":
    main()
