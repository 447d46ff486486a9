"""``plyground perft``: count the leaves of the legal-move tree (the move generator's test)."""

from __future__ import annotations

import argparse
from typing import Any

from ai.cli.arguments import EXIT_OK, GAME_CHOICE, GAME_HELP, POSITION_HELP, UsageError, integer, with_roll
from ai.settings import SearchRequest

MAX_PERFT_DEPTH = 100


def add_parser(commands: Any) -> None:
    perft = commands.add_parser("perft", help="count move-tree leaves (move generator test)")
    perft.add_argument("--game", required=True, type=GAME_CHOICE, help=GAME_HELP)
    perft.add_argument("--position", help=POSITION_HELP)
    perft.add_argument("--dice", help="games with dice: the roll to play from, e.g. 3-1")
    perft.add_argument(
        "--depth",
        required=True,
        type=integer("--depth", 0, MAX_PERFT_DEPTH),
        help=f"plies (backgammon: decisions), 0..{MAX_PERFT_DEPTH}",
    )
    perft.add_argument("--divide", action="store_true", help="one line per root move")
    perft.set_defaults(handler=command_perft)


def command_perft(args: argparse.Namespace) -> int:
    """Count the leaves of the legal-move tree (optionally per root move)."""
    from ai.engine import build_state  # the engine loads when a command runs, not for --help

    if args.divide and args.depth < 1:
        raise UsageError("--divide needs --depth 1 or more")
    state = build_state(with_roll(SearchRequest(game=args.game, position=args.position), args.dice))
    if args.divide:
        total = 0
        for name, count in state.divide(args.depth):
            print(f"{name}: {count}")
            total += count
        print()
        print(total)
    else:
        print(state.perft(args.depth))
    return EXIT_OK
