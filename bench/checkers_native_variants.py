"""A/B of the compiled checkers search's tunable numbers, by match.

    .venv/bin/python -m bench.checkers_native_variants --a lmr_min_depth=0 --b "" \\
        --nodes 100000 [--openings 40] [--seed 1] [--threads 2] [--a-weights FILE]

Each side is a ``games.checkers.native.CheckersNativeSearcher`` made with its ``parameters`` (names from
``Searcher().parameters()``; empty: the defaults the engine uses) and its EVAL weights
(``--a-weights``/``--b-weights``: a weights file; default: the shipped ones). Each opening of the ACF
3-move deck (``ai.match.openings``, in the seeded order) is played twice, each side once
with Black, a fixed number of nodes a move (repeatable on a busy machine; a forced move is
played without a search), to the game's end by its rules or ``--max-plies`` (a draw). The
score, the Elo difference with its 95% interval and the likelihood of superiority are the
answer. ``--threads``: that many processes play the openings between them.
"""

from __future__ import annotations

import argparse
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Any


from ai.match.openings import built_in
from ai.match.stats import MatchStatistics, format_elo
from games.checkers import CheckersState
from games.checkers import native as compiled
from games.checkers.evaluation import DEFAULT_WEIGHTS, FEATURE_NAMES
from games.checkers.native import CheckersNativeSearcher
from games.weights import named_numbers, read_weights

HASH_MB = 16


class NodesUsed(Exception):
    """The poll's way to end a search at its node budget."""


def parameters(text: str) -> dict[str, int]:
    """``"a=1,b=2"`` as ``{"a": 1, "b": 2}``."""
    found: dict[str, int] = {}
    for item in text.split(","):
        if item.strip():
            name, _, value = item.partition("=")
            found[name.strip()] = int(value)
    return found


def side_weights(path: str) -> dict[str, float]:
    """The EVAL weights of the file at ``path`` (empty: the shipped ones)."""
    return named_numbers(read_weights(path, "checkers"), FEATURE_NAMES, "checkers") if path else dict(DEFAULT_WEIGHTS)


def best_move(searcher: CheckersNativeSearcher, state: CheckersState, nodes: int) -> Any:
    """The move a search of ``nodes`` nodes chooses: the last completed iteration's, or the
    cut one's when it found a better root move."""
    used = [0]
    lines: list[Any] = []

    def poll(count: int, check: bool) -> None:
        used[0] += count
        if check and used[0] >= nodes:
            raise NodesUsed

    try:
        searcher.search(state, 100, poll, lambda report: lines.append(report.pv), poll_interval=min(nodes, 4096))
    except NodesUsed:
        better = searcher.interrupted(state)
        if better is not None:
            lines.append(better.pv)
    return lines[-1][0]


def play(job: tuple[Any, ...]) -> int:
    """One game: +1 when side A wins, -1 when B does, 0 a draw. Each side searches with its
    own weights (``CheckersState.set_weights`` before its move; the shipped ones after)."""
    opening, a_black, a_spec, b_spec, nodes, max_plies, a_weights, b_weights = job
    state = CheckersState.initial()
    for name in opening:
        state.play(state.parse_move(name))
    a = CheckersNativeSearcher(HASH_MB, a_spec)
    b = CheckersNativeSearcher(HASH_MB, b_spec)
    a_player = 0 if a_black else 1
    plies = 0
    try:
        while not state.is_terminal() and plies < max_plies:
            moves = state.legal_moves()
            searcher, weights = (a, a_weights) if state.to_move() == a_player else (b, b_weights)
            if len(moves) > 1:
                CheckersState.set_weights(weights)
            state.play(moves[0] if len(moves) == 1 else best_move(searcher, state, nodes))
            plies += 1
    finally:
        CheckersState.set_weights(None)
    if not state.is_terminal() or state.utility(a_player) == 0:
        return 0
    return 1 if state.utility(a_player) > 0 else -1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", default="", help="side A's parameters, e.g. lmr_min_depth=0,rfp_margin=60")
    parser.add_argument("--b", default="", help="side B's parameters (default: the engine's)")
    parser.add_argument("--a-weights", default="", help="side A's EVAL weights file (default: the shipped weights)")
    parser.add_argument("--b-weights", default="", help="side B's EVAL weights file")
    parser.add_argument("--nodes", type=int, default=100_000, help="nodes a move")
    parser.add_argument("--openings", type=int, default=156, help="how many 3-move openings (each played twice)")
    parser.add_argument("--seed", type=int, default=1, help="the openings' order")
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--threads", type=int, default=1, help="processes playing games at once")
    args = parser.parse_args(argv)
    if not compiled.NATIVE:
        print(f"the compiled checkers search is not built: {compiled.NATIVE_SEARCH_BACKEND}", file=sys.stderr)
        return 2
    a_spec, b_spec = parameters(args.a), parameters(args.b)
    a_weights, b_weights = side_weights(args.a_weights), side_weights(args.b_weights)
    print(f"A: {CheckersNativeSearcher(1, a_spec).parameters()} weights {args.a_weights or 'shipped'}")
    print(f"B: {CheckersNativeSearcher(1, b_spec).parameters()} weights {args.b_weights or 'shipped'}")
    openings = built_in("checkers", args.seed)[: args.openings]
    jobs = [
        (opening.moves, a_black, a_spec, b_spec, args.nodes, args.max_plies, a_weights, b_weights)
        for opening in openings
        for a_black in (True, False)
    ]
    wins = draws = losses = 0
    with ProcessPoolExecutor(max_workers=max(1, args.threads)) as pool:
        for result in pool.map(play, jobs):
            wins += result > 0
            draws += result == 0
            losses += result < 0
    statistics = MatchStatistics(wins, draws, losses)
    low, high = statistics.elo_interval
    print(
        f"A against B, {len(jobs)} games at {args.nodes:,} nodes a move: +{wins} ={draws} -{losses} "
        f"({100 * statistics.score_fraction:.1f}%), Elo {format_elo(statistics.elo)} "
        f"({format_elo(low)} .. {format_elo(high)}), LOS {100 * statistics.los:.1f}%"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
