"""Checkers problems: does the engine find the win in every published problem?

Run: ``.venv/bin/python bench/checkers_problems.py [--nodes N | --time S] [--ids a,b]
[--algorithm native]`` (default: the engine's PVS, in Python).

The problems (``tests/data/checkers/problems.json``, from ``shared/data/checkers``) are
"X to play and win" positions with the sources' winning first move(s) (``key``; empty when
the side to move is the loser). A problem counts as solved when

1. the engine, searching the root for the winning side, plays a key move (when there is one),
2. and the engine then *wins the game* playing the winning side against itself defending
   (the same limits a move, or ``--playout-nodes``; separate transposition tables, a forced
   move played without a search), within ``--max-plies``.

A position can be won long before a search proves it, so the played-out win, not a proven
score, is the test; the printed ``depth`` and ``proof`` columns say how far the first search
went and whether it already saw the win. Node limits make runs repeatable on a busy machine;
``--time`` is the wall-clock form.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai.engine import search  # noqa: E402
from ai.settings import Limits, SearchSettings  # noqa: E402
from games.checkers import CheckersState  # noqa: E402
from games.checkers.bitboards import BLACK, WHITE  # noqa: E402

PROBLEMS = Path(__file__).resolve().parent.parent / "tests" / "data" / "checkers" / "problems.json"
DEFAULT_NODES = 200_000
DEFAULT_MAX_PLIES = 200


@dataclass(frozen=True)
class ProblemResult:
    """How the engine did on one problem."""

    problem_id: str
    first_move: str
    key_ok: bool
    depth: int
    proof: int
    """+1: the first search proved the win; 0: no proof; -1: it claimed a loss."""
    outcome: str
    """``won``, ``drawn`` or ``lost`` from the winning side's view, after the play-out."""
    plies: int
    seconds: float
    line: tuple[str, ...] = ()
    """The played-out game's moves, and how it ended."""

    @property
    def solved(self) -> bool:
        return self.key_ok and self.outcome == "won"


def load_problems(path: Path = PROBLEMS) -> list[dict[str, Any]]:
    problems: list[dict[str, Any]] = json.loads(path.read_text())["problems"]
    return problems


def winner_of(problem: dict[str, Any]) -> int:
    """The side the problem says wins (``goal`` reads "black to play and win", or "black to
    play, white to win")."""
    goal = str(problem["goal"]).lower()
    if "white to win" in goal or ("white to play and win" in goal):
        return WHITE
    if "black to win" in goal or "black to play and win" in goal:
        return BLACK
    raise ValueError(f"problem {problem['id']}: cannot tell the winner from goal {problem['goal']!r}")


def solve(
    problem: dict[str, Any],
    limits: Limits,
    settings: SearchSettings | None = None,
    max_plies: int = DEFAULT_MAX_PLIES,
    playout: Limits | None = None,
) -> ProblemResult:
    """Search the problem's root within ``limits``, then play it out engine against engine
    within ``playout`` a move (default: ``limits``; see the module)."""
    settings = SearchSettings() if settings is None else settings
    playout = limits if playout is None else playout
    state = CheckersState.from_text(str(problem["fen"]))
    winner = winner_of(problem)
    tables: dict[int, dict[str, Any]] = {BLACK: {}, WHITE: {}}
    started = time.perf_counter()
    first = search(state, settings, limits, shared=tables[state.to_move()])
    first_name = state.move_name(first.best_move)
    keys = [state.parse_move(text) for text in problem["key"]]
    key_ok = not keys or first.best_move in keys
    proof = first.score.outcome if state.to_move() == winner else -first.score.outcome
    plies = 0
    move = first.best_move
    line: list[str] = []
    while True:
        line.append(state.move_name(move))
        state.play(move)
        plies += 1
        if state.is_terminal() or plies >= max_plies:
            break
        moves = state.legal_moves()
        if len(moves) == 1:  # a forced capture: nothing to search
            move = moves[0]
        else:
            move = search(state, settings, playout, shared=tables[state.to_move()]).best_move
    if state.is_terminal() and state.utility(winner) > 0:
        outcome = "won"
    elif state.is_terminal() and state.utility(winner) < 0:
        outcome = "lost"
    else:
        outcome = "drawn"
    line.append(f"({state.termination_reason() or 'stopped at --max-plies'}: {state.to_text()})")
    seconds = time.perf_counter() - started
    return ProblemResult(str(problem["id"]), first_name, key_ok, first.depth, proof, outcome, plies, seconds, tuple(line))


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
    problems = [problem for problem in load_problems() if not wanted or problem["id"] in wanted]
    print(f"{'problem':<30}{'first':>8}{'key':>5}{'depth':>6}{'proof':>6}{'result':>8}{'plies':>6}{'seconds':>9}")
    solved, total = 0, 0.0
    for problem in problems:
        result = solve(
            problem, limits, SearchSettings(algorithm=args.algorithm, weights=args.weights), args.max_plies, playout
        )
        solved += result.solved
        total += result.seconds
        proof = {1: "win", 0: "-", -1: "LOSS"}[result.proof]
        print(
            f"{result.problem_id:<30}{result.first_move:>8}{'ok' if result.key_ok else 'NO':>5}{result.depth:>6}"
            f"{proof:>6}{result.outcome:>8}{result.plies:>6}{result.seconds:>9.1f}",
            flush=True,
        )
        if args.verbose or not result.solved:
            print("    " + " ".join(result.line), flush=True)
    print(f"solved {solved}/{len(problems)} in {total:.1f} s (first move {limits}; play-out {playout})")


if __name__ == "__main__":
    main()
