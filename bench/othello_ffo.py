"""Othello endgames: time to solve FFO positions exactly through the engine.

Run: ``.venv/bin/python -m bench.othello_ffo [--suite 1-19|40-59] [--first N --last M]``
(default: #1-#19; the hard set, each to be solved within 60 s: ``--suite 40-59 --first 40
--last 49``). Each position is searched by the default engine (PVS with the exact endgame
solver switched on for every empty square) until it completes; we check the score against the suite's exact value and the
move against the suite's best moves, and print per-position wall and CPU time, nodes and
nodes per CPU second, and the totals. The solver's table is emptied before each position.

Which solver runs is ``games.othello.exact``'s choice (printed first): the native one when
it is built; ``PLYGROUND_PYTHON_SOLVER=1`` in the environment forces the pure-Python one.
The load average is printed before and after: on a shared machine wall time follows it,
CPU time much less.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path


from ai.engine import run_search
from ai.settings import Limits, SearchRequest, SearchSettings
from games import new_game
from games.othello import exact

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "othello"
SUITES = {"1-19": (DATA / "fforum-1-19.obf", 1), "40-59": (DATA / "fforum-40-59.obf", 40)}
ALL_EMPTIES = 64


def load_suite(path: Path) -> list[tuple[str, dict[str, int]]]:
    """(position text, {move: exact score}) per line of the OBF file."""
    problems = []
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        fields = [field.strip() for field in line.split(";") if field.strip()]
        scores = {}
        for entry in fields[1:]:
            move, score = entry.split(":")
            scores[move.strip().lower()] = int(score)
        problems.append((fields[0], scores))
    return problems


def load_average() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", choices=sorted(SUITES), default="1-19")
    parser.add_argument("--first", type=int)
    parser.add_argument("--last", type=int)
    args = parser.parse_args()
    path, base = SUITES[args.suite]
    problems = load_suite(path)
    first = base if args.first is None else args.first
    last = base + len(problems) - 1 if args.last is None else args.last
    if not base <= first <= last < base + len(problems):
        parser.error(f"--first/--last must lie in {base}..{base + len(problems) - 1} for suite {args.suite}")
    print(f"solver: {exact.SOLVER_BACKEND}; load average {load_average()}")
    total_time, total_cpu, total_nodes, correct = 0.0, 0.0, 0, 0
    print(f"{'#':>3}{'empties':>8}{'score':>7}{'expect':>7}{'move':>6}{'ok':>4}{'seconds':>9}{'cpu s':>8}"
          f"{'nodes':>15}{'nodes/cpu s':>13}")
    for number in range(first, last + 1):
        text, scores = problems[number - base]
        best_score = max(scores.values())
        request = SearchRequest(
            game="othello",
            position=text,
            settings=SearchSettings(algorithm="pvs", solver_empties=ALL_EMPTIES),
            limits=Limits(depth=ALL_EMPTIES),
        )
        if exact.NATIVE:
            exact.native_solver().clear()
        started, started_cpu = time.perf_counter(), time.process_time()
        finished = run_search(request)
        seconds, cpu = time.perf_counter() - started, time.process_time() - started_cpu
        score = round(finished.score.for_player(0 if text.split()[1] == "X" else 1).value / finished.score.scale)
        root = new_game("othello", text)
        move = root.move_name(finished.best_move).lower() if finished.best_move is not None else ""
        ok = score == best_score and scores.get(move) == best_score
        correct += ok
        total_time += seconds
        total_cpu += cpu
        total_nodes += finished.nodes
        empties = text.split()[0].count("-")
        print(f"{number:>3}{empties:>8}{score:>7}{best_score:>7}{move:>6}{'yes' if ok else 'NO':>4}"
              f"{seconds:>9.2f}{cpu:>8.2f}{finished.nodes:>15,}{finished.nodes / max(cpu, 1e-9):>13,.0f}", flush=True)
    print(f"solved {correct}/{last - first + 1} in {total_time:.1f} s ({total_cpu:.1f} s CPU), {total_nodes:,} nodes,"
          f" {total_nodes / max(total_cpu, 1e-9):,.0f} nodes per CPU second; load average {load_average()}")


if __name__ == "__main__":
    main()
