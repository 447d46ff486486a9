"""``plyground race``: several algorithms on one position to the same depth, side by side.

Prints the race's table (value, best move, nodes, time, nodes/s, effective branching
factor), the nodes of each iteration beside the ``b^d`` and ``b^(d/2)`` curves, and the
verdict: every depth-first entrant must return minimax's value at every depth (``ai.race``).
A disagreement is printed in the table's text and said on stderr, and the status is 1.
Ctrl-C stops the race, which prints what it has (status 130).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ai.cli.arguments import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_SEARCH_FAILED,
    GAME_CHOICE,
    GAME_HELP,
    INTERRUPTED,
    PROGRAM,
    UsageError,
    integer,
    interrupt_sets_flag,
    setting,
)

ENTRANT_WORDS = ("minimax", "alphabeta", "alphabeta-ordered", "alphabeta-table", "pvs", "mtdf", "mcts")
"""The entrants' words (``ai.race.Entrant``), named here so that ``--help`` loads no engine."""
MAX_RACE_DEPTH = 30


def add_parser(commands: Any) -> None:
    race = commands.add_parser(
        "race",
        help="race the algorithms on one position to the same depth (exact preset)",
        description="Run minimax, alpha-beta (without ordering, with ordering, with ordering and a "
        "table), PVS, MTD(f) and MCTS on one position to the same depth, in the exact preset, one "
        "worker process each, and print their values, nodes, times and nodes per depth beside the "
        "b^d and b^(d/2) curves. Every depth-first entrant must return minimax's value.",
    )
    race.add_argument("game", type=GAME_CHOICE, help=GAME_HELP)
    race.add_argument(
        "position", nargs="?", default=None, help="position in the game's notation (default: the start)"
    )
    race.add_argument(
        "--moves",
        nargs="*",
        action="extend",
        default=[],
        metavar="MOVE",
        help="moves to play from the position first",
    )
    race.add_argument(
        "--depth",
        type=integer("--depth", 1, MAX_RACE_DEPTH),
        help=f"plies, 1..{MAX_RACE_DEPTH} (default: the deepest whose minimax takes seconds, "
        "estimated from the position: tic-tac-toe's whole game, chess 4)",
    )
    race.add_argument(
        "--entrants",
        default="all",
        metavar="LIST",
        help=f"comma-separated: {', '.join(ENTRANT_WORDS)}, or all (default)",
    )
    race.add_argument(
        "--mcts-nodes",
        dest="mcts_nodes",
        type=setting("nodes", "--mcts-nodes"),
        metavar="N",
        help="MCTS's node budget (default: the node count of alpha-beta with ordering and table, "
        "or of the best-ordered depth-first entrant in the race)",
    )
    race.add_argument(
        "--workers",
        type=integer("--workers", 1, 64),
        metavar="N",
        help="worker processes searching at once (default: one per core)",
    )
    race.set_defaults(handler=command_race)


def command_race(args: argparse.Namespace) -> int:
    """Run the race and print its table; status 1 when the values disagree."""
    from ai.engine import build_state
    from ai.race import RaceRequest, default_depth, parse_entrants, run_race
    from ai.settings import SearchRequest, SearchSettings

    try:
        entrants = parse_entrants(args.entrants)
    except ValueError as error:
        raise UsageError(f"--entrants: {error}") from None
    depth = args.depth
    if depth is None:
        depth = default_depth(build_state(SearchRequest(game=args.game, position=args.position, moves=tuple(args.moves))))
    request = RaceRequest(
        game=args.game,
        depth=depth,
        entrants=entrants,
        position=args.position,
        moves=tuple(args.moves),
        mcts_nodes=args.mcts_nodes,
        settings=SearchSettings(book=False),
        workers=args.workers,
    )
    # Ctrl-C stops the race, which still prints what it has; its workers ignore it.
    with interrupt_sets_flag():
        result = run_race(request, should_stop=INTERRUPTED.is_set)
    sys.stdout.write(result.as_text())
    sys.stdout.flush()
    disagreements = result.disagreements
    if disagreements:
        reference = result.reference.label if result.reference is not None else "the reference"
        print(
            f"{PROGRAM}: error: {len(disagreements)} value(s) differ from {reference}'s, which the exact "
            "preset forbids: every depth-first algorithm must return minimax's value",
            file=sys.stderr,
        )
        return EXIT_SEARCH_FAILED
    if result.stopped:
        return EXIT_INTERRUPTED
    return EXIT_OK
