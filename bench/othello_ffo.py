"""Othello endgames: time to solve the FFO positions #1-#19 exactly through the engine.

Run: ``.venv/bin/python bench/othello_ffo.py [--first 1 --last 19]``. Each position is
searched by the default engine (PVS with the exact endgame solver switched on for every
empty square) until it completes; we check the score against the suite's exact value and
the move against the suite's best moves, and print per-position and total times.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai.engine import run_search  # noqa: E402
from ai.settings import Limits, SearchRequest, SearchSettings  # noqa: E402
from games import new_game  # noqa: E402

SUITE = Path(__file__).resolve().parent.parent / "tests" / "data" / "othello" / "fforum-1-19.obf"
ALL_EMPTIES = 64


def load_suite() -> list[tuple[str, dict[str, int]]]:
    """(position text, {move: exact score}) per line of the OBF file."""
    problems = []
    for line in SUITE.read_text().splitlines():
        if not line.strip():
            continue
        fields = [field.strip() for field in line.split(";") if field.strip()]
        scores = {}
        for entry in fields[1:]:
            move, score = entry.split(":")
            scores[move.strip().lower()] = int(score)
        problems.append((fields[0], scores))
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--last", type=int, default=19)
    args = parser.parse_args()
    problems = load_suite()
    total_time, total_nodes, correct = 0.0, 0, 0
    print(f"{'#':>3}{'empties':>8}{'score':>7}{'expect':>7}{'move':>6}{'ok':>4}{'seconds':>9}{'nodes':>11}")
    for number in range(args.first, args.last + 1):
        text, scores = problems[number - 1]
        best_score = max(scores.values())
        request = SearchRequest(
            game="othello",
            position=text,
            settings=SearchSettings(algorithm="pvs", solver_empties=ALL_EMPTIES),
            limits=Limits(depth=ALL_EMPTIES),
        )
        started = time.perf_counter()
        finished = run_search(request)
        seconds = time.perf_counter() - started
        score = round(finished.score.for_player(0 if text.split()[1] == "X" else 1).value / finished.score.scale)
        root = new_game("othello", text)
        move = root.move_name(finished.best_move).lower() if finished.best_move is not None else ""
        ok = score == best_score and scores.get(move) == best_score
        correct += ok
        total_time += seconds
        total_nodes += finished.nodes
        empties = text.split()[0].count("-")
        print(f"{number:>3}{empties:>8}{score:>7}{best_score:>7}{move:>6}{'yes' if ok else 'NO':>4}"
              f"{seconds:>9.2f}{finished.nodes:>11,}")
    print(f"solved {correct}/{args.last - args.first + 1} in {total_time:.1f} s, {total_nodes:,} nodes,"
          f" {total_nodes / max(total_time, 1e-9):,.0f} nodes/s")


if __name__ == "__main__":
    main()
