"""``plyground``: the engine's command line (perft, analyse, uci ...).

Every subcommand reports bad input (an unknown game, a broken position, an illegal move) as
one line ``plyground: error: ...`` on stderr and exit status 2 — never a traceback.

``analyse`` prints every score from the first player's view, with that player named
(``score (White) +0.35``) and aspiration fails labelled ``lowerbound``/``upperbound``. Its
``--json`` lines are the events themselves (``dataclasses.asdict`` plus ``event``), so a
score there is seen by the player in its ``view`` field: the side to move at the root.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time
from collections.abc import Callable, Sequence

from ai.events import Score
from ai.search import ALGORITHMS
from ai.settings import Limits, SearchRequest, SearchSettings
from games import CHANCE, GAME_NAMES, GameState, get_game, new_game
from games.backgammon.notation import NO_DOUBLE, TAKE, parse_roll
from games.base import IllegalMoveError

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
    """Roll ``dice`` (e.g. ``3-1``) for perft from a given roll.

    A gnubg position is usually at the cube decision of the player on roll: that player
    rolls without doubling (``roll``), then the dice are set. Positions where the roll cannot
    come next (a take pending, the game over, other dice already rolled) are errors that say
    why; dice equal to the ones already rolled are accepted as they are.
    """
    if dice is None:
        return
    if not state.HAS_CHANCE:
        raise UsageError(f"--dice is for games with dice; {state.NAME} has none")
    if state.is_terminal():
        raise UsageError(f"--dice {dice}: the game is over in this position, nothing is rolled any more")
    if state.to_move() != CHANCE:
        names = state.PLAYER_NAMES
        mover = state.to_move()
        moves = state.legal_moves()
        if NO_DOUBLE in moves:  # cube decision: roll without doubling
            state.play(NO_DOUBLE)
        elif TAKE in moves:
            raise UsageError(
                f"--dice {dice}: a double is pending: {names[mover]} must take or drop "
                f"before {names[1 - mover]} rolls"
            )
        else:
            current = getattr(state, "dice", None)
            try:
                wanted = sorted(parse_roll(dice))
            except IllegalMoveError:
                wanted = None  # not a roll at all: said below, beside the dice already rolled
            if current and wanted == sorted(current):
                return  # the position already has exactly these dice
            rolled = f" ({current[0]}-{current[1]})" if current else ""
            raise UsageError(
                f"--dice {dice} disagrees with the position: {names[mover]}'s dice are already rolled{rolled}"
            )
    state.play_checked(state.parse_move(dice))


def command_perft(args: argparse.Namespace) -> int:
    """Count the leaves of the legal-move tree (optionally per root move)."""
    if args.depth < 0:
        raise UsageError("--depth must be 0 or more")
    if args.divide and args.depth < 1:
        raise UsageError("--divide needs --depth 1 or more")
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


DEFAULT_DEPTH = 6
"""``analyse`` with no limit searches to this depth rather than forever."""
ALGORITHM_NAMES = tuple(ALGORITHMS)
DEFAULT_ALGORITHM = {"backgammon": "star2"}
"""Per-game default algorithm where PVS does not apply (chance nodes)."""


PAWN_UNITS = {"chess": 100.0, "checkers": 100.0}
"""EVAL units per pawn (chess centipawns) or man (checkers) for display."""


def format_score(score: Score, game: type[GameState]) -> str:
    """A score for people: "win in 5 plies" / "mate in 3" for proven results, else the
    value in the game's units (pawns, men, discs, equity points)."""
    if score.win_in_plies is not None:
        plies = score.win_in_plies
        if game.NAME == "chess":
            mate = score.mate_in_moves()
            return f"mate in {mate}" if plies > 0 else f"mated in {-mate if mate else 0}"
        return f"win in {plies} plies" if plies > 0 else f"loss in {-plies} plies"
    if game.NAME in PAWN_UNITS:  # as chess players read it: +0.35 pawns (a man in checkers)
        return f"{round(score.value / PAWN_UNITS[game.NAME], 2) + 0.0:+.2f}"
    if game.UTILITY_KIND == "win_loss":
        return f"{round(score.value) + 0:+d}"  # + 0 turns -0 into 0
    return f"{round(score.value / score.scale, 3) + 0.0:+.3f}"  # + 0.0: never "-0.000"


FIXED_VIEW = 0
"""``analyse`` text shows every score from player 0's view (white, black in checkers, x ...),
so the sign means the same thing on every line whoever is to move."""
OTHER_BOUND = {"lower": "upper", "upper": "lower", "exact": "exact"}


def score_text(score: Score, bound: str, game: type[GameState]) -> str:
    """``(white) +0.350``, with ``lowerbound``/``upperbound`` for an aspiration fail.

    ``bound`` is from the side to move's view, like ``score``; seen from the other player a
    lower bound is an upper one."""
    fixed = score.for_player(FIXED_VIEW)
    if score.view != FIXED_VIEW:
        bound = OTHER_BOUND.get(bound, bound)
    text = f"({game.PLAYER_NAMES[FIXED_VIEW]}) {format_score(fixed, game)}"
    return text if bound == "exact" else f"{text} {bound}bound"


def event_record(event: object, root: GameState) -> dict[str, object]:
    """An event as a JSON-ready dict: its fields, plus ``event`` = its class name; moves
    named in the game's notation from ``root``, the position searched (a root move of a
    chance root is a roll, which ``move_name`` names too)."""
    record: dict[str, object] = {"event": type(event).__name__}
    record.update(dataclasses.asdict(event))  # type: ignore[call-overload]
    pv = getattr(event, "pv", ())
    record["pv"] = root.line_names(pv)
    if getattr(event, "best_move", None) is not None:
        record["best_move"] = root.move_name(event.best_move)  # type: ignore[attr-defined]
    if "root_moves" in record:
        record["root_moves"] = [
            {"move": root.move_name(stat.move), "visits": stat.visits, "value": stat.value}
            for stat in getattr(event, "root_moves")
        ]
    return record


def command_analyse(args: argparse.Namespace) -> int:
    """Search a position, printing one line per completed iteration and the best move.

    ``--time`` counts from here, once the command line is read: loading the game's module
    and building the position are inside the budget (only the interpreter's start-up and
    the import of this module, the cost of ``plyground --help``, come before it).
    """
    received = time.perf_counter()
    from ai.engine import prepare, run_search
    from ai.events import Finished, Iteration

    game = get_game(args.game)
    settings = SearchSettings(
        algorithm=args.algorithm or DEFAULT_ALGORITHM.get(args.game, "pvs"),
        transposition_table=not args.no_tt,
        move_ordering=not args.no_ordering,
        seed=args.seed,
        **({"tt_megabytes": args.hash} if args.hash else {}),
    )
    if args.depth is None and args.time is None and args.nodes is None:
        args.depth = DEFAULT_DEPTH
    limits = Limits(depth=args.depth, time=args.time, nodes=args.nodes)
    request = SearchRequest(
        game=args.game, position=args.position, moves=tuple(args.moves), settings=settings, limits=limits
    )

    prepared = prepare(request)
    root = prepared.state

    def show(event: object) -> None:
        if args.json:
            if isinstance(event, (Iteration, Finished)):
                print(json.dumps(event_record(event, root)), flush=True)
        elif isinstance(event, Iteration):
            line = (
                f"depth {event.depth} seldepth {event.seldepth} score {score_text(event.score, event.bound, game)} "
                f"nodes {event.nodes} nps {event.nps:.0f} time {event.time:.2f} "
                f"hashfull {event.hashfull:.1%} ebf {event.ebf:.2f}"
            )
            # A fail-low has no move to show: its line ends without ``pv``.
            print(f"{line} pv {' '.join(root.line_names(event.pv))}" if event.pv else line, flush=True)

    finished = run_search(prepared, on_event=show, started=received)
    show(finished)
    if not args.json:
        print(f"score {score_text(finished.score, 'exact', game)}")
    best = root.move_name(finished.best_move) if finished.best_move is not None else "(none)"
    print(f"bestmove {best}")
    return EXIT_OK


def command_uci(_args: argparse.Namespace) -> int:
    """Speak UCI on stdin/stdout until ``quit``."""
    from ai.uci import serve

    return serve()


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

    analyse = commands.add_parser("analyse", help="search a position and report each iteration")
    analyse.add_argument("--game", required=True, choices=GAME_NAMES)
    analyse.add_argument("--position", help="position in the game's notation (default: the start)")
    analyse.add_argument("--moves", nargs="*", default=[], help="moves to play from the position first")
    analyse.add_argument("--algorithm", default=None, help=f"one of: {', '.join(ALGORITHM_NAMES)}")
    limit = analyse.add_mutually_exclusive_group()
    limit.add_argument("--depth", type=int, help="search to this depth")
    limit.add_argument("--time", type=float, help="answer within this many seconds, set-up included")
    limit.add_argument("--nodes", type=int, help="search this many nodes")
    analyse.add_argument("--no-tt", action="store_true", help="switch the transposition table off")
    analyse.add_argument("--no-ordering", action="store_true", help="switch move ordering off")
    analyse.add_argument("--hash", type=int, default=None, metavar="MB", help="transposition table size")
    analyse.add_argument("--seed", type=int, default=0, help="MCTS random seed")
    analyse.add_argument(
        "--json",
        action="store_true",
        help="JSON lines, fields named as the events; each score is seen by the player in its "
        "'view' field (the side to move at the root, as in UCI), not the fixed view of the text",
    )
    analyse.set_defaults(handler=command_analyse)

    from ai.match.command import add_parser as add_match_parser

    add_match_parser(commands)

    uci = commands.add_parser("uci", help="run as a UCI chess engine on stdin/stdout")
    uci.set_defaults(handler=command_uci)
    return parser


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
    except BrokenPipeError:  # the reader went away (``plyground perft ... | head``)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
