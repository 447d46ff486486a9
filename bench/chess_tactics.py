"""Chess tactics: positions solved out of an EPD test suite at a fixed time per position.

Run: ``.venv/bin/python -m bench.chess_tactics --suite wac --seconds 1 [--engines plyground,sunfish]``
(``--suite bk --seconds 10`` for Bratko-Kopec). Each engine runs as a UCI process driven by
python-chess, with the same time per move, one position after another; a position counts as
solved when the engine's move is one of the suite's ``bm`` moves (and none of its ``am``).
Prints solved/total per engine, the median nps each reported, and the ids that failed.
Reference: Sunfish solves 110/300 WAC at 1 s and 7/24 BK at 10 s on this machine.

In-process, load-independent: ``--engines inproc --depth 6`` (or ``--nodes 200000``) runs the
built-in search in this process with ``--settings key=value,...`` (a match SPEC's settings,
e.g. ``see_pruning=off``) and reports, besides solved/total, the nodes each solved position
needed: the nodes when the last iteration's best move became a solution and stayed one (its
sum over the positions every compared run solved is the number to compare between versions;
the per-position numbers go to ``--csv``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import chess
import chess.engine


from bench.peers import PROJECT_ROOT, plyground_command, sunfish_command

SUITES = {
    "wac": PROJECT_ROOT / "tests" / "data" / "chess" / "wac.epd",
    "bk": PROJECT_ROOT / "tests" / "data" / "chess" / "bk.epd",
    "kaufman": PROJECT_ROOT / "tests" / "data" / "chess" / "kaufman.epd",
}


@dataclass
class SuiteResult:
    engine: str
    solved: int = 0
    total: int = 0
    nps: list[float] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    nodes_to_solve: dict[str, int] = field(default_factory=dict)
    """In-process runs: per solved id, the nodes when the best move became and stayed right."""
    total_nodes: int = 0
    seconds: float = 0.0


def load_suite(path: Path, limit: int | None) -> list[tuple[chess.Board, dict[str, object]]]:
    """(board, operations) for each EPD line."""
    positions = []
    for line in path.read_text().splitlines():
        if line.strip():
            board = chess.Board()
            operations = board.set_epd(line)
            positions.append((board, operations))
    return positions[:limit] if limit else positions


def is_solved(move: chess.Move, operations: dict[str, object]) -> bool:
    best = operations.get("bm") or []
    avoid = operations.get("am") or []
    return (not best or move in best) and move not in avoid  # type: ignore[operator]


def run_suite(name: str, command: list[str], positions: list, seconds: float) -> SuiteResult:
    result = SuiteResult(name)
    with chess.engine.SimpleEngine.popen_uci(command, cwd=str(PROJECT_ROOT)) as engine:
        for board, operations in positions:
            started = time.perf_counter()
            info = engine.play(board, chess.engine.Limit(time=seconds), info=chess.engine.INFO_ALL)
            elapsed = time.perf_counter() - started
            result.total += 1
            nps = info.info.get("nps")
            if nps:
                result.nps.append(float(nps))
            if info.move is not None and is_solved(info.move, operations):
                result.solved += 1
            else:
                result.failed.append(str(operations.get("id", "?")))
            if elapsed > seconds * 1.5 + 0.5:
                print(f"  {name}: {operations.get('id')} took {elapsed:.2f} s (limit {seconds} s)", file=sys.stderr)
    return result


def run_in_process(name: str, settings_text: str, positions: list, limits: object) -> SuiteResult:
    """The built-in engine in this process, a fresh table per position, ``limits`` (depth,
    nodes or time): solved/total and the nodes each solved position needed."""
    from ai.engine import search
    from ai.events import Iteration
    from ai.match.players import parse_builtin
    from games.chess_game.state import ChessState

    settings = parse_builtin(settings_text or "default", "chess").settings
    result = SuiteResult(name)
    for board, operations in positions:
        state = ChessState.from_board(board)
        iterations: list[tuple[int, object]] = []

        def on_event(event: object) -> None:
            if isinstance(event, Iteration) and event.bound == "exact" and event.pv:
                iterations.append((event.nodes, event.pv[0]))

        started = time.perf_counter()
        finished = search(state, settings, limits, on_event=on_event)  # type: ignore[arg-type]
        result.seconds += time.perf_counter() - started
        result.total += 1
        result.total_nodes += finished.nodes
        identifier = str(operations.get("id", "?"))
        if finished.best_move is not None and is_solved(finished.best_move, operations):
            result.solved += 1
            needed = finished.nodes
            for nodes, move in reversed(iterations):
                if not is_solved(move, operations):
                    break
                needed = nodes
            result.nodes_to_solve[identifier] = needed
        else:
            result.failed.append(identifier)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", choices=sorted(SUITES), default="wac")
    parser.add_argument("--seconds", type=float, default=1.0, help="time per position")
    parser.add_argument("--engines", default="plyground,sunfish", help="comma-separated: plyground, sunfish (UCI), inproc")
    parser.add_argument("--limit", type=int, default=None, help="only the first N positions")
    parser.add_argument("--depth", type=int, default=None, help="inproc: fixed depth instead of time")
    parser.add_argument("--nodes", type=int, default=None, help="inproc: fixed nodes instead of time")
    parser.add_argument("--settings", default="default", help="inproc: a match SPEC's settings (key=value,...)")
    parser.add_argument("--csv", default=None, help="inproc: write id,solved,nodes_to_solve here")
    args = parser.parse_args()
    positions = load_suite(SUITES[args.suite], args.limit)
    commands = {"plyground": plyground_command, "sunfish": sunfish_command}
    for name in args.engines.split(","):
        if name == "inproc":
            from ai.settings import Limits

            limits = Limits(depth=args.depth, nodes=args.nodes, time=None if args.depth or args.nodes else args.seconds)
            result = run_in_process(name, args.settings, positions, limits)
            needed = sorted(result.nodes_to_solve.values())
            print(
                f"{args.suite} inproc depth={args.depth} nodes={args.nodes} settings={args.settings}  solved "
                f"{result.solved}/{result.total}  nodes total {result.total_nodes:,}  nodes-to-solve sum "
                f"{sum(needed):,} median {statistics.median(needed) if needed else 0:,.0f}  {result.seconds:.0f} s"
            )
            print(f"  failed: {' '.join(result.failed)}")
            if args.csv:
                with open(args.csv, "w") as out:
                    out.write("id,solved,nodes_to_solve\n")
                    for board, operations in positions:
                        identifier = str(operations.get("id", "?"))
                        out.write(f"{identifier},{int(identifier in result.nodes_to_solve)},{result.nodes_to_solve.get(identifier, '')}\n")
            continue
        result = run_suite(name, commands[name](), positions, args.seconds)
        median_nps = statistics.median(result.nps) if result.nps else 0.0
        print(
            f"{args.suite} @ {args.seconds:g} s  {name:<10} solved {result.solved}/{result.total}"
            f"  median nps {median_nps:,.0f}"
        )
        print(f"  failed: {' '.join(result.failed)}")


if __name__ == "__main__":
    main()
