"""``plyground analyse``: search a position, one line per completed iteration, then the answer.

Every score is printed from the first player's view, with that player named (``score
(White) +0.35``), and aspiration fails are labelled ``lowerbound``/``upperbound``. The
``--json`` lines are the events themselves (``dataclasses.asdict`` plus ``event``), so a
score there is seen by the player in its ``view`` field: the side to move at the root.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from games import CHANCE, GameState

from ai.cli.arguments import (
    EXIT_OK,
    GAME_CHOICE,
    GAME_HELP,
    INTERRUPTED,
    POSITION_HELP,
    PROGRAM,
    SearchFailed,
    add_settings_options,
    interrupt_ignored,
    interrupt_sets_flag,
    UsageError,
    integer,
    positive_number,
    setting,
    settings_from,
    tree_file,
    with_roll,
)
from ai.scores import MAX_PLY
from ai.settings import MAX_TREE_CAP, Limits, SearchRequest
from ai.tree.export import DOT_MAX_NODES
from ai.tree.model import SearchTree, TreeBatch, TreeOptions

if TYPE_CHECKING:
    from ai.events import Finished
    from ai.parallel import EnginePool
    from ai.search import AlgorithmSpec

DEFAULT_DEPTH = 6
"""``analyse`` with no limit searches to this depth rather than forever."""
FIXED_VIEW = 0
"""``analyse`` text shows every score from player 0's view (white, black in checkers, x ...),
so the sign means the same thing on every line whoever is to move."""
POOL_POLL_SECONDS = 0.05
"""How often a search on the pool looks for a Ctrl-C while it waits for events."""


def add_parser(commands: Any) -> None:
    analyse = commands.add_parser("analyse", help="search a position and report each iteration")
    analyse.add_argument("--game", required=True, type=GAME_CHOICE, help=GAME_HELP)
    analyse.add_argument("--position", help=POSITION_HELP)
    analyse.add_argument(
        "--moves",
        nargs="*",
        action="extend",
        default=[],
        metavar="MOVE",
        help="moves to play from the position first (a repeated --moves appends)",
    )
    analyse.add_argument("--dice", help="games with dice: roll these dice first, e.g. 3-1")
    analyse.add_argument(
        "--searchmoves",
        nargs="+",
        action="extend",
        default=[],
        metavar="MOVE",
        help="search only these root moves",
    )
    limit = analyse.add_mutually_exclusive_group()
    limit.add_argument(
        "--depth", type=setting("depth", "--depth"), help=f"search to this depth (1..{MAX_PLY}; default {DEFAULT_DEPTH})"
    )
    limit.add_argument(
        "--time",
        type=positive_number("--time", infinite="no limit"),
        metavar="SECONDS",
        help="answer within this many seconds, set-up included; 'inf' = no limit: search until "
        "the game is solved or Ctrl-C, which stops the search and prints its answer",
    )
    limit.add_argument("--nodes", type=setting("nodes", "--nodes"), help="search this many nodes (1 or more)")
    analyse.add_argument(
        "--tree",
        type=tree_file("--tree"),
        metavar="FILE",
        help="write the search tree to FILE: JSON (.json, the format of docs/tree-format.md) or Graphviz "
        f"(.dot, the top {DOT_MAX_NODES:,} nodes)",
    )
    analyse.add_argument(
        "--tree-cap",
        type=integer("--tree-cap", 1, MAX_TREE_CAP, "nodes"),
        metavar="N",
        help=f"with --tree: record at most about N nodes whole (default {TreeOptions().cap:,}); past it the top "
        f"{TreeOptions().whole_plies} plies stay whole and deeper nodes are sampled",
    )
    add_settings_options(analyse)
    analyse.add_argument(
        "--json",
        action="store_true",
        help="JSON lines, fields named as the events; each score is seen by the player in its "
        "'view' field (the side to move at the root, as in UCI), not the fixed view of the text",
    )
    analyse.set_defaults(handler=command_analyse)


def event_record(event: object, root: GameState) -> dict[str, object]:
    """An event as a JSON-ready dict: its fields, plus ``event`` = its class name; moves
    named in the game's notation from ``root``, the position searched (a root move of a
    chance root is a roll, which ``move_name`` names too); a bound by its word."""
    record: dict[str, object] = {"event": type(event).__name__}
    record.update(dataclasses.asdict(event))  # type: ignore[call-overload]
    record["pv"] = root.line_names(getattr(event, "pv", ()))
    if "bound" in record:
        record["bound"] = str(record["bound"])  # its word: exact, lower or upper
    if getattr(event, "best_move", None) is not None:
        record["best_move"] = root.move_name(event.best_move)  # type: ignore[attr-defined]
    if "lines" in record:
        record["lines"] = [
            {"rank": line.rank, "move": root.move_name(line.move), "score": dataclasses.asdict(line.score),
             "pv": root.line_names(line.pv), "depth": line.depth, "visits": line.visits}
            for line in getattr(event, "lines")
        ]
    if "root_moves" in record:
        record["root_moves"] = [
            {"move": root.move_name(stat.move), "visits": stat.visits, "value": stat.value}
            for stat in getattr(event, "root_moves")
        ]
    return record


def no_move_reason(root: GameState) -> str:
    """Why a search of ``root`` has no best move to give."""
    if root.is_terminal():
        return f"the game is over ({root.termination_reason()})"
    if root.to_move() == CHANCE:
        return "the dice are to be rolled first: give the roll with --dice (e.g. --dice 3-1)"
    return "no move was searched"


def start_pool(threads: int, hash_megabytes: int) -> EnginePool:
    """An ``EnginePool`` of ``threads`` worker processes, started with Ctrl-C ignored (the
    workers inherit it: the program decides what an interrupt means, and it is not their
    death)."""
    from ai.parallel import EnginePool  # the pool loads when a command runs, not for --help

    with interrupt_ignored():
        return EnginePool(workers=threads, hash_megabytes=hash_megabytes)


def search_on_pool(request: SearchRequest, threads: int, show: Callable[[object], None]) -> Finished:
    """Run ``request`` on a pool of ``threads`` workers (Lazy SMP, root-parallel MCTS or a
    root split, as the algorithm declares), showing its events as they come; Ctrl-C asks
    the pool to answer now."""
    with start_pool(threads, request.settings.tt_megabytes) as pool, interrupt_sets_flag():
        return pool.answer(request, show, INTERRUPTED.is_set, POOL_POLL_SECONDS)


def command_analyse(args: argparse.Namespace) -> int:
    """Search a position, printing one line per completed iteration and the best move.

    ``--time`` counts from here, once the command line is read: loading the game's module
    and building the position are inside the budget (only the interpreter's start-up and
    the import of this module, the cost of ``plyground --help``, come before it).
    """
    received = time.perf_counter()
    import json

    from ai.display import score_text
    from ai.engine import prepare, run_search
    from ai.events import Finished, Iteration, Score
    from ai.options import settings_line
    from ai.search import ALGORITHMS, get_algorithm
    from ai.tree.export import write_tree
    from games import get_game

    if args.tree_cap is not None and args.tree is None:
        raise UsageError("--tree-cap needs --tree FILE (the file to write the tree to)")
    game = get_game(args.game)
    settings = settings_from(args, game)
    if args.tree is not None and not get_algorithm(settings.algorithm).records_depth_first_tree:
        raise UsageError(tree_refusal(get_algorithm(settings.algorithm), game, ALGORITHMS.values()))  # before a search that would write nothing
    seconds = None if args.time == math.inf else args.time  # ``--time inf``: no limit, on purpose
    depth = DEFAULT_DEPTH if args.depth is None and args.time is None and args.nodes is None else args.depth
    limits = Limits(depth=depth, time=seconds, nodes=args.nodes)
    request = SearchRequest(
        game=args.game,
        position=args.position,
        moves=tuple(args.moves),
        settings=settings,
        limits=limits,
        root_moves=tuple(args.searchmoves),
        tree=None if args.tree is None else TreeOptions(cap=args.tree_cap or TreeOptions().cap),
    )
    prepared = prepare(with_roll(request, args.dice))
    root = prepared.state
    tree = SearchTree()

    def show(event: object) -> None:
        if isinstance(event, TreeBatch):
            tree.add(event)
        elif args.json:
            if isinstance(event, (Iteration, Finished)):
                print(json.dumps(event_record(event, root)), flush=True)
        elif isinstance(event, Iteration):
            # With --multipv above 1, one line per best line found, ranked as UCI prints them.
            ranked: list[tuple[int | None, int, Score, tuple[Any, ...]]] = [(None, event.depth, event.score, event.pv)]
            if settings.multipv > 1 and len(event.lines) > 1:
                ranked = [(pv_line.rank, pv_line.depth, pv_line.score, pv_line.pv) for pv_line in event.lines]
            for rank, depth, score, pv in ranked:
                line = (
                    f"depth {depth} seldepth {event.seldepth} {'' if rank is None else f'multipv {rank} '}"
                    f"score {score_text(score, game, FIXED_VIEW, event.bound)} "
                    f"nodes {event.nodes} nps {event.nps:.0f} time {event.time:.2f} "
                    f"hashfull {event.hashfull:.1%} ebf {event.ebf:.2f}"
                )
                # A fail-low has no move to show: its line ends without ``pv``.
                print(f"{line} pv {' '.join(root.line_names(pv))}" if pv else line, flush=True)

    if settings.threads > 1:
        finished = search_on_pool(prepared.request, settings.threads, show)
    else:
        # Ctrl-C stops the search, which still answers with what it has (``--time inf``).
        with interrupt_sets_flag():
            finished = run_search(prepared, on_event=show, should_stop=INTERRUPTED.is_set, started=received)
    if finished.error is not None:
        raise SearchFailed(finished.error)
    if finished.fault is not None:  # a worker died; the answer is its last iteration
        print(f"{PROGRAM}: warning: {finished.fault}", file=sys.stderr)
    show(finished)
    if not args.json:
        print(f"score {score_text(finished.score, game, FIXED_VIEW, unit=True)}")
    if finished.best_move is None and not args.json:
        print(f"no move: {no_move_reason(root)}")
    best = root.move_name(finished.best_move) if finished.best_move is not None else "(none)"
    print(f"bestmove {best}", flush=True)
    if args.tree is not None:  # after the answer: a tree that cannot be written loses only itself
        write_tree(args.tree, tree, root, settings_line(settings, game))
        if not args.json:
            sampled = ", deeper nodes sampled" if tree.sampled else ""
            passes = f"{len(tree.passes)} pass{'es' if len(tree.passes) != 1 else ''}"
            helpers = f" (helpers searched {tree.helper_nodes:,}, not recorded)" if tree.helper_nodes else ""
            print(
                f"tree {tree.recorded_nodes:,} nodes of {finished.nodes:,} searched{helpers}{sampled}, {passes}: {args.tree}",
                flush=True,
            )
    return EXIT_OK


def tree_refusal(spec: AlgorithmSpec, game: type[GameState], algorithms: Iterable[AlgorithmSpec]) -> str:
    """Why ``--tree`` cannot be written for ``spec``'s algorithm, and which of
    ``algorithms`` write one for ``game``."""
    if spec.needs_native:
        why = "runs the game's compiled search, which records no tree"
    else:
        why = "grows its own tree, which the app's Tree tab shows and no file holds"
    writers = [row.name for row in algorithms if row.records_depth_first_tree and row.handles_chance == game.HAS_CHANCE]
    return f"--tree: {spec.name} {why}; {', '.join(writers)} write one"
