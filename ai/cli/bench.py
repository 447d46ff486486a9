"""``plyground bench``: the engine's speed and node-count signature on fixed positions.

Each game's positions (``games.bench_positions``) are searched to that game's depth with the
engine's default configuration (or the settings given on the command line), each from an
empty transposition table, as Stockfish's ``bench`` does. On one thread the node count is a
signature: the same build and settings give the same count on any machine, so a changed
count says the search changed; nodes per second says how fast this machine and build are.
With ``--threads N`` the pool searches (Lazy SMP and friends): faster, but the count then
depends on how the workers' timing interleaves.

The summary's last three lines are Stockfish's (``Total time (ms)``, ``Nodes searched``,
``Nodes/second``), so scripts written for it read ours.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ai.cli.analyse import POOL_POLL_SECONDS, start_pool
from ai.cli.arguments import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    GAME_CHOICE,
    INTERRUPTED,
    SearchFailed,
    add_settings_options,
    interrupt_sets_flag,
    setting,
    settings_from,
)
from ai.settings import Limits, SearchRequest

if TYPE_CHECKING:
    from ai.events import Finished
    from games.base import GameState


@dataclass(frozen=True)
class BenchResult:
    """One position's search: what the summary adds up."""

    game: str
    number: int
    depth: int
    nodes: int
    seconds: float
    best_move: str
    position: str

    @property
    def nps(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


def totals(results: list[BenchResult]) -> dict[str, Any]:
    """The sums over ``results``: positions, nodes, seconds and their rate."""
    nodes = sum(result.nodes for result in results)
    seconds = sum(result.seconds for result in results)
    return {"positions": len(results), "nodes": nodes, "seconds": seconds, "nps": nodes / seconds if seconds > 0 else 0.0}


def summary_lines(results: list[BenchResult]) -> list[str]:
    """Stockfish's three closing lines, over ``results``."""
    total = totals(results)
    return [
        "===========================",
        f"Total time (ms) : {total['seconds'] * 1000:.0f}",
        f"Nodes searched  : {total['nodes']}",
        f"Nodes/second    : {total['nps']:.0f}",
    ]


@contextmanager
def searcher(first: SearchRequest, interrupted: Callable[[], bool]) -> Iterator[Callable[[SearchRequest], Finished]]:
    """A function that searches one request from an empty table: in this process on one
    thread, else on one ``EnginePool`` of ``first.settings.threads`` workers that lives as
    long as the bench (its table cleared before each position; its workers started, and
    ``first``'s game loaded in them, by a depth-1 search before any position is timed).
    Ctrl-C stops the search under way (it still answers)."""
    from ai.engine import run_search  # the engine loads when a command runs, not for --help

    threads = first.settings.threads
    if threads <= 1:
        yield lambda request: run_search(request, should_stop=interrupted, shared={})
        return
    pool = start_pool(threads, first.settings.tt_megabytes)

    def on_pool(request: SearchRequest) -> Finished:
        pool.clear_table()
        return pool.answer(request, lambda _event: None, interrupted, POOL_POLL_SECONDS)

    with pool:
        on_pool(dataclasses.replace(first, limits=Limits(depth=1)))
        yield on_pool


def command_bench(args: argparse.Namespace) -> int:
    """Search every chosen game's bench positions; one line each, then the totals. Every
    request is checked before the first search, so a setting one game cannot use (``pvs``
    for backgammon) fails at once, not after the other games."""
    from ai.engine import prepare
    from games import get_game
    from games.bench_positions import BENCH_SETS

    requests: list[tuple[SearchRequest, GameState, int, int]] = []
    for name in args.game or list(BENCH_SETS):
        game = get_game(name)
        bench_set = BENCH_SETS[name]
        limits = Limits(depth=args.depth or bench_set.depth)
        settings = settings_from(args, game)
        for number, position in enumerate(bench_set.positions, start=1):
            request = SearchRequest(game=name, position=position, settings=settings, limits=limits)
            root = prepare(request).state  # raises ValueError (one line, status 2) for what cannot run
            requests.append((request, root, number, len(bench_set.positions)))
    first = requests[0][0]
    results: list[BenchResult] = []
    with interrupt_sets_flag(), searcher(first, INTERRUPTED.is_set) as search:
        for request, root, number, count in requests:
            if INTERRUPTED.is_set():
                break
            started = time.perf_counter()
            finished = search(request)
            seconds = time.perf_counter() - started
            if finished.error is not None:
                raise SearchFailed(finished.error)
            if INTERRUPTED.is_set():
                break  # a stopped search's count is not the position's signature
            best = root.move_name(finished.best_move) if finished.best_move is not None else "(none)"
            depth = request.limits.depth or 0
            result = BenchResult(request.game, number, depth, finished.nodes, seconds, best, request.position or "")
            results.append(result)
            show(result, count, args.json)
    if args.json:
        total = totals(results)
        total["seconds"], total["nps"] = round(total["seconds"], 3), round(total["nps"])
        print(json.dumps({"total": total, "interrupted": INTERRUPTED.is_set()}), flush=True)
    else:
        for line in summary_lines(results):
            print(line)
        if INTERRUPTED.is_set():
            print("interrupted: the totals count the positions searched so far")
    return EXIT_INTERRUPTED if INTERRUPTED.is_set() else EXIT_OK


def show(result: BenchResult, count: int, as_json: bool) -> None:
    if as_json:
        record = dataclasses.asdict(result)
        record["seconds"] = round(result.seconds, 4)
        record["nps"] = round(result.nps)
        print(json.dumps(record), flush=True)
        return
    print(
        f"{result.game:<11}{result.number}/{count}  depth {result.depth:>2}  nodes {result.nodes:>9}  "
        f"time {result.seconds:7.2f} s  nps {result.nps:>8.0f}  bestmove {result.best_move}",
        flush=True,
    )


def add_parser(commands: Any) -> None:
    """The ``bench`` subcommand, its options next to ``analyse``'s settings options."""
    from games.bench_positions import BENCH_SETS

    bench = commands.add_parser("bench", help="search fixed positions: the node-count signature and nodes/s")
    bench.add_argument(
        "--game",
        action="append",
        type=GAME_CHOICE,
        metavar="GAME",
        help=f"a game to bench (repeat for several; default all: {', '.join(BENCH_SETS)})",
    )
    bench.add_argument(
        "--depth",
        type=setting("depth", "--depth"),
        help="search every position to this depth (default: each game's own: "
        + ", ".join(f"{name} {bench_set.depth}" for name, bench_set in BENCH_SETS.items())
        + ")",
    )
    add_settings_options(bench)
    bench.add_argument("--json", action="store_true", help="one JSON line per position, then the totals")
    bench.set_defaults(handler=command_bench)
