"""Checkers problems: does the engine find the win in every published problem?

Run: ``.venv/bin/python -m bench.checkers_problems [--nodes N | --time S] [--ids a,b]
[--algorithm native]`` (default: the engine's PVS, in Python).

The problems (``tests/data/checkers/problems.json``, read by ``games.checkers.problems``) are
"X to play and win" positions with the sources' winning first move(s). "Solved" is
``ai.problems.solve``'s: the engine plays a key move, then wins the game played out against
itself defending (the same limits a move, or ``--playout-nodes``), within ``--max-plies``.
The printed ``depth`` and ``proof`` columns say how far the first search went and whether it
already saw the win. Node limits make runs repeatable on a busy machine; ``--time`` is the
wall-clock form.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ai.problems import DEFAULT_MAX_PLIES, solve
from ai.settings import Limits, SearchSettings
from games.checkers import CheckersState
from games.checkers.problems import parse_problems

PROBLEMS = Path(__file__).resolve().parent.parent / "tests" / "data" / "checkers" / "problems.json"
DEFAULT_NODES = 200_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    limit = parser.add_mutually_exclusive_group()
    limit.add_argument("--nodes", type=int, help=f"nodes a move (default {DEFAULT_NODES:,})")
    limit.add_argument("--time", type=float, help="seconds a move")
    limit.add_argument("--depth", type=int, help="depth a move")
    parser.add_argument("--ids", default="", help="comma-separated problem ids (default: all)")
    parser.add_argument("--max-plies", type=int, default=DEFAULT_MAX_PLIES)
    parser.add_argument("--verbose", action="store_true", help="print each played-out game")
    parser.add_argument("--weights", default="", help="a checkers EVAL weights file (default: the shipped weights)")
    parser.add_argument("--algorithm", default="pvs", help="the engine's algorithm (pvs; native: the compiled search)")
    parser.add_argument("--playout-nodes", type=int, help="nodes a move after the first (default: the first move's limit)")
    args = parser.parse_args()
    if args.time is not None:
        limits = Limits(time=args.time)
    elif args.depth is not None:
        limits = Limits(depth=args.depth)
    else:
        limits = Limits(nodes=args.nodes or DEFAULT_NODES)
    playout = Limits(nodes=args.playout_nodes) if args.playout_nodes else limits
    wanted = {text.strip() for text in args.ids.split(",") if text.strip()}
    problems = [problem for problem in parse_problems(PROBLEMS.read_text()) if not wanted or problem.problem_id in wanted]
    print(f"{'problem':<30}{'first':>8}{'key':>5}{'depth':>6}{'proof':>6}{'result':>8}{'plies':>6}{'seconds':>9}")
    solved, total = 0, 0.0
    for problem in problems:
        settings = SearchSettings(algorithm=args.algorithm, weights=args.weights)
        state = CheckersState.from_text(problem.position)
        result = solve(state, problem.winner, problem.keys, limits, settings, args.max_plies, playout)
        solved += result.solved
        total += result.seconds
        proof = {1: "win", 0: "-", -1: "LOSS"}[result.proof]
        print(
            f"{problem.problem_id:<30}{result.first_move:>8}{'ok' if result.key_ok else 'NO':>5}{result.depth:>6}"
            f"{proof:>6}{result.outcome.value:>8}{result.plies:>6}{result.seconds:>9.1f}",
            flush=True,
        )
        if args.verbose or not result.solved:
            print("    " + " ".join(result.line), flush=True)
    print(f"solved {solved}/{len(problems)} in {total:.1f} s (first move {limits}; play-out {playout})")


if __name__ == "__main__":
    main()
