"""``plyground``: the engine's command line (perft, analyse, uci ...).

Every subcommand reports bad input (an unknown game, a broken position, an illegal move) as
one line ``plyground: error: ...`` on stderr and exit status 2 — never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from games import CHANCE, GAME_NAMES, GameState, new_game

EXIT_OK = 0
EXIT_USAGE = 2
"""argparse's own status for bad usage; bad positions and moves use it too."""

Command = Callable[[argparse.Namespace], int]


class UsageError(ValueError):
    """Bad command-line input that is not about a game's rules."""


def load_position(game: str, position: str | None, moves: Sequence[str] = ()) -> GameState:
    """The state of ``game`` at ``position`` (or the start) after ``moves`` in notation."""
    state = new_game(game, position)
    for text in moves:
        state.play_checked(state.parse_move(text))
    return state


def apply_dice(state: GameState, dice: str | None) -> None:
    """Roll ``dice`` (e.g. ``3-1``) at a chance node, for perft from a given roll."""
    if dice is None:
        return
    if not state.HAS_CHANCE:
        raise UsageError(f"--dice is for games with dice; {state.NAME} has none")
    if state.to_move() != CHANCE:
        raise UsageError("--dice was given but the position already has its dice rolled")
    state.play_checked(state.parse_move(dice))


def command_perft(args: argparse.Namespace) -> int:
    """Count the leaves of the legal-move tree (optionally per root move)."""
    if args.depth < 0:
        raise UsageError("--depth must be 0 or more")
    state = load_position(args.game, args.position)
    apply_dice(state, args.dice)
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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="plyground",
        description="Plyground's game engine: perft, analysis and a UCI chess engine.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    perft = commands.add_parser("perft", help="count move-tree leaves (move generator test)")
    perft.add_argument("--game", required=True, choices=GAME_NAMES)
    perft.add_argument("--position", help="position in the game's notation (default: the start)")
    perft.add_argument("--dice", help="backgammon: the roll to play from, e.g. 3-1")
    perft.add_argument("--depth", required=True, type=int, help="plies (backgammon: decisions)")
    perft.add_argument("--divide", action="store_true", help="one line per root move")
    perft.set_defaults(handler=command_perft)

    _add_engine_commands(commands)
    return parser


def _add_engine_commands(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """The engine's subcommands live in ``ai.cli_engine`` (analyse, uci ...)."""
    try:
        from ai import cli_engine
    except ImportError:  # the engine commands are optional while the engine is being built
        return
    cli_engine.add_commands(commands)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Command = args.handler
    try:
        return handler(args)
    except ValueError as error:  # GameError, UsageError and the engine's request errors
        print(f"{parser.prog}: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
