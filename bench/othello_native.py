"""Othello: the Python PVS against the compiled search on the same positions, same depth.

Run: ``taskset -c 1 .venv/bin/python -m bench.othello_native [--depth 7] [--positions 9] [--runs 3]``.

Positions: the start and seeded random playouts of 10 to 34 plies (more than one legal
move, book off). Each is searched to ``--depth`` by the Python PVS (``pvs``) and by the
compiled search (``native``), both with the engine's default settings (the same exact
solver reach: the root up to ``SOLVER_EMPTIES`` empties, the tree up to 10) and an empty
table every run, in this process; then by the compiled search to ``--native-depth`` alone.
Times are CPU seconds of this process (``time.process_time``), medians over ``--runs``. A
row prints each engine's nodes, seconds to the depth and nodes a second, and whether the
two values at the depth agree (they must: neither prunes, and the compiled search scores
leaves with the very EVAL double; a difference is printed as one and fails the run).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import dataclass

from ai.engine import search
from ai.settings import Limits, SearchSettings
from games.othello import OthelloState


@dataclass(frozen=True)
class Run:
    """One engine's search of one position to a fixed depth (medians of the runs)."""

    value: float
    nodes: int
    seconds: float

    @property
    def nps(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


def sample_positions(count: int, seed: int = 11) -> list[OthelloState]:
    """The start and positions of seeded random playouts, 10 to 34 plies in, each with a choice."""
    rng = random.Random(seed)
    positions = [OthelloState.initial()]
    while len(positions) < count:
        state = OthelloState.initial()
        for _ in range(10 + 3 * (len(positions) - 1) % 25):
            if state.is_terminal():
                break
            state.play(rng.choice(state.legal_moves()))
        if not state.is_terminal() and len(state.legal_moves()) > 1:
            positions.append(state)
    return positions


def measure(state: OthelloState, algorithm: str, depth: int, runs: int) -> Run:
    """Median CPU seconds and nodes of ``runs`` searches of ``state`` to ``depth`` (a fresh
    table each: a new ``shared`` dictionary holds no searcher)."""
    times, nodes, values = [], [], []
    for _ in range(runs):
        started = time.process_time()
        finished = search(state, SearchSettings(algorithm=algorithm, book=False), Limits(depth=depth), shared={})
        times.append(time.process_time() - started)
        if finished.nodes == 0:
            raise RuntimeError(f"{algorithm}: nothing searched in {state.to_text()}")
        nodes.append(finished.nodes)
        score = finished.score
        values.append(score.value if score.view == state.to_move() else -score.value)
    return Run(statistics.median(values), int(statistics.median(nodes)), statistics.median(times))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=7, help="the depth both engines search")
    parser.add_argument("--native-depth", type=int, default=12, help="the depth the compiled search alone goes on to")
    parser.add_argument("--positions", type=int, default=9)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"depth {args.depth}: Python PVS vs compiled (native); then native to depth {args.native_depth}")
    print(f"{'empties':>7} {'pvs nodes':>10} {'pvs s':>7} {'pvs nps':>9} {'nat nodes':>10} {'nat s':>7} "
          f"{'nat nps':>10} {'speed-up':>8} {'same':>5} {'nat d' + str(args.native_depth) + ' s':>10} {'nps':>10}")
    ratios, python_rates, native_rates, python_times, native_times, deep_times, deep_rates = [], [], [], [], [], [], []
    mismatches = 0
    for state in sample_positions(args.positions):
        python = measure(state, "pvs", args.depth, args.runs)
        native = measure(state, "native", args.depth, args.runs)
        deep = measure(state, "native", args.native_depth, args.runs)
        same = python.value == native.value
        mismatches += not same
        ratio = python.seconds / native.seconds if native.seconds > 0 else float("inf")
        ratios.append(ratio)
        python_rates.append(python.nps)
        native_rates.append(native.nps)
        python_times.append(python.seconds)
        native_times.append(native.seconds)
        deep_times.append(deep.seconds)
        deep_rates.append(deep.nps)
        print(f"{state.empties():>7} {python.nodes:>10,} {python.seconds:>7.3f} {python.nps:>9,.0f} {native.nodes:>10,} "
              f"{native.seconds:>7.3f} {native.nps:>10,.0f} {ratio:>7.1f}x {'yes' if same else 'NO':>5} {deep.seconds:>10.3f} "
              f"{deep.nps:>10,.0f}")
    print(f"medians: pvs {statistics.median(python_rates):,.0f} nodes/s, {statistics.median(python_times):.3f} s to depth "
          f"{args.depth}; native {statistics.median(native_rates):,.0f} nodes/s, {statistics.median(native_times):.3f} s "
          f"to depth {args.depth}, {statistics.median(deep_times):.3f} s to depth {args.native_depth} "
          f"({statistics.median(deep_rates):,.0f} nodes/s); "
          f"time-to-depth speed-up {statistics.median(ratios):.1f}x")
    if mismatches:
        raise SystemExit(f"{mismatches} position(s) where the two values at depth {args.depth} differ")


if __name__ == "__main__":
    main()
