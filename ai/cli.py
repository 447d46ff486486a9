"""``plyground``: the engine's command line (perft, analyse, match, bench, uci).

Every subcommand reports bad input (an unknown game, a broken position, an illegal move, an
option out of range) as one line ``plyground: error: ...`` on stderr and exit status 2 —
never a traceback; a value too long to echo is cut (its first characters and its length).
Output that cannot be written (``| head -1``, a full disk) ends the program quietly with a
non-zero status; so does Ctrl-C during start-up (during ``analyse`` it stops the search,
which still answers). A program started with stdout closed (``>&-``) says so in one line on
stderr and exits 2 (quietly when stderr is closed too). The ranges of every search setting
are ``ai.settings``'s, shared with match specs, UCI and the app.

The front end knows no game by name: each game says its default algorithm, its dice hook
(``GameState.roll_moves``) and its score units and words (read by ``ai.display``).

``analyse`` prints every score from the first player's view, with that player named
(``score (White) +0.35``) and aspiration fails labelled ``lowerbound``/``upperbound``. Its
``--json`` lines are the events themselves (``dataclasses.asdict`` plus ``event``), so a
score there is seen by the player in its ``view`` field: the side to move at the root.
Every switch of ``SearchSettings`` has an option, so whatever configuration the GUI can show
can be reproduced here.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import errno
import logging
import math
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, NoReturn

from ai import INTERRUPTED_STATUS, interrupted_while_starting
from ai.display import echo, one_line
from ai.scores import MAX_PLY
from ai.settings import (
    MAX_HASH_MB,
    Limits,
    SearchRequest,
    SearchSettings,
    SettingError,
    check_input_file,
    parse_setting,
)
from games import CHANCE, GAME_NAMES, GameState

if TYPE_CHECKING:
    from ai.events import Finished

EXIT_OK = 0
EXIT_OUTPUT_FAILED = 1
"""The output could not be written (a full disk): said on stderr."""
EXIT_SEARCH_FAILED = 1
"""The engine could not answer (said on stderr)."""
EXIT_USAGE = 2
"""argparse's own status for bad usage; bad positions and moves use it too."""
EXIT_INTERRUPTED = INTERRUPTED_STATUS
"""128 + SIGINT, as a shell reports a program stopped by Ctrl-C."""
EXIT_BROKEN_PIPE = 141
"""128 + SIGPIPE: the reader went away (``| head -1``), so output was lost."""

PROGRAM = "plyground"
MAX_DEPTH = MAX_PLY
"""No search line is longer: a deeper limit means nothing."""
MAX_PERFT_DEPTH = 100

Command = Callable[[argparse.Namespace], int]

INTERRUPTED = threading.Event()
"""Set by Ctrl-C. Besides the ``KeyboardInterrupt`` that ends a command, the flag stays up,
so an interrupt that lands where an exception is swallowed (a finaliser) still stops the
search that follows (it polls this flag)."""


def on_interrupt(_signum: int, _frame: object) -> None:
    INTERRUPTED.set()
    raise KeyboardInterrupt


class UsageError(ValueError):
    """Bad command-line input that is not about a game's rules."""


class Terminated(BaseException):
    """SIGTERM or SIGHUP (the terminal closed) while a command holds processes of its own
    (``match``'s engines): raised like ``KeyboardInterrupt`` so that they are ended on the
    way out; the program then ends with status 128 + the signal's number, as a shell reports."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


@contextlib.contextmanager
def ending_on_stop_signals() -> Iterator[None]:
    """Within the block SIGTERM and SIGHUP raise ``Terminated`` (``finally`` blocks run);
    the previous handlers are back after it."""

    def stop(signum: int, _frame: object) -> None:
        raise Terminated(signum)

    previous = {number: signal.signal(number, stop) for number in STOP_SIGNALS}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


# ------------------------------------------------------------------ option types
def integer(name: str, low: int, high: int | Callable[[], int], unit: str = "") -> Callable[[str], int]:
    """An argparse type: an integer in ``low..high``, refused with the range stated
    (``high`` may be a function, asked only when the option is given)."""
    suffix = f" {unit}" if unit else ""

    def parse(text: str) -> int:
        nonlocal high
        if callable(high):
            high = high()
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{echo(text)!r} is not a whole number in {low}..{high}{suffix}")
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{echo(text)} is out of range {low}..{high}{suffix}")
        return value

    parse.__name__ = name  # argparse names the type in its own messages
    return parse


def positive_number(name: str, *, infinite: str | None = None, highest: float = math.inf) -> Callable[[str], float]:
    """An argparse type: a positive number, finite unless ``infinite`` says what ``inf``
    means (then it passes as ``math.inf``), at most ``highest``. ``nan`` never passes."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{echo(text)!r} is not a number")
        if value == math.inf and infinite is not None:
            return value
        if not 0 < value < math.inf:  # nan fails both comparisons
            allowed = f" or 'inf' ({infinite})" if infinite else ""
            raise argparse.ArgumentTypeError(f"must be a positive number{allowed}, not {echo(text)}")
        if value > highest:
            raise argparse.ArgumentTypeError(f"must be at most {highest:g}, not {echo(text)}")
        return value

    parse.__name__ = name
    return parse


def setting(name: str, option: str) -> Callable[[str], object]:
    """An argparse type for the ``SearchSettings`` (or ``Limits``) field ``name``: the one
    range of ``ai.settings`` that match specs, UCI and the app's settings file share."""

    def parse(text: str) -> object:
        try:
            return parse_setting(name, text)
        except SettingError as error:
            raise argparse.ArgumentTypeError(error.problem) from None

    parse.__name__ = option
    return parse


def input_file(option: str, noun: str, *, words: Sequence[str] = ()) -> Callable[[str], str]:
    """An argparse type: a readable regular file of bounded size (``check_input_file``),
    or one of ``words`` (``off``)."""

    def parse(text: str) -> str:
        if text in words:
            return text
        try:
            check_input_file(text, option, noun)
        except SettingError as error:
            raise argparse.ArgumentTypeError(error.problem) from None
        return text

    parse.__name__ = option
    return parse


def choice(name: str, names: Sequence[str]) -> Callable[[str], str]:
    """An argparse type: one of ``names`` (an empty value is refused like any other)."""

    def parse(text: str) -> str:
        if text not in names:
            raise argparse.ArgumentTypeError(f"{echo(text)!r} is not {name}; choose one of {', '.join(names)}")
        return text

    parse.__name__ = name
    return parse


class Parser(argparse.ArgumentParser):
    """argparse with the project's one-line errors (no usage block), a hint for values
    that begin with ``-`` and long values cut."""

    arguments: Sequence[str] = ()
    """The command line being parsed (set by ``main``), whose long values errors cut."""

    def error(self, message: str) -> NoReturn:
        if "expected one argument" in message or "expected at least one argument" in message:
            option = message.split(":", 1)[0].removeprefix("argument ").split("/")[-1]
            message += f" (a value that begins with '-' is written {option}=VALUE)"
        self.exit(EXIT_USAGE, f"{PROGRAM}: error: {one_line(message, Parser.arguments)}\n")


# ------------------------------------------------------------------ positions and dice
def with_roll(request: SearchRequest, dice: str | None) -> SearchRequest:
    """``request`` with the moves that roll ``dice`` appended (the game's ``roll_moves``
    hook: backgammon rolls past a cube decision first); unchanged without ``dice``."""
    if dice is None:
        return request
    from ai.engine import build_state

    state = build_state(request)
    names: list[str] = []
    try:
        for move in state.roll_moves(dice):
            names.append(state.move_name(move))
            state.play_checked(move)
    except ValueError as error:
        raise UsageError(f"--dice {echo(dice)}: {error}") from None
    return dataclasses.replace(request, moves=request.moves + tuple(names))


def command_perft(args: argparse.Namespace) -> int:
    """Count the leaves of the legal-move tree (optionally per root move)."""
    from ai.engine import build_state

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


# ------------------------------------------------------------------ analyse
DEFAULT_DEPTH = 6
"""``analyse`` with no limit searches to this depth rather than forever."""
FIXED_VIEW = 0
"""``analyse`` text shows every score from player 0's view (white, black in checkers, x ...),
so the sign means the same thing on every line whoever is to move."""


ANALYSE_USES_BOOK = False
"""Analysis searches the position even where the game has a book move (``--book`` answers
from the book); a forced answer (``GameState.forced_answer``) is given either way."""


def settings_from(args: argparse.Namespace, game: type[GameState]) -> SearchSettings:
    """The ``SearchSettings`` the command line asks for: each settings option's ``dest`` is
    the field's name and it is absent unless given, so what is not said keeps the
    engine's default (the game's own default algorithm included), except the book: analysis
    searches unless ``--book`` is given (``ANALYSE_USES_BOOK``)."""
    given = {field.name: getattr(args, field.name) for field in dataclasses.fields(SearchSettings) if hasattr(args, field.name)}
    given.setdefault("algorithm", game.DEFAULT_ALGORITHM)
    given.setdefault("book", ANALYSE_USES_BOOK)
    return SearchSettings(**given)


def event_record(event: object, root: GameState) -> dict[str, object]:
    """An event as a JSON-ready dict: its fields, plus ``event`` = its class name; moves
    named in the game's notation from ``root``, the position searched (a root move of a
    chance root is a roll, which ``move_name`` names too)."""
    record: dict[str, object] = {"event": type(event).__name__}
    record.update(dataclasses.asdict(event))  # type: ignore[call-overload]
    record["pv"] = root.line_names(getattr(event, "pv", ()))
    if getattr(event, "best_move", None) is not None:
        record["best_move"] = root.move_name(event.best_move)  # type: ignore[attr-defined]
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


POOL_POLL_SECONDS = 0.05
"""How often ``search_on_pool`` looks for a Ctrl-C while it waits for events."""


class SearchFailed(RuntimeError):
    """The engine could not answer (a worker failed for good): said in one line, status 1."""


def search_on_pool(request: SearchRequest, threads: int, show: Callable[[object], None]) -> Finished:
    """Run ``request`` on an ``EnginePool`` of ``threads`` worker processes (Lazy SMP, root
    parallel MCTS or a root split, as the pool decides), showing its events as they come;
    Ctrl-C asks the pool to answer now (``move_now``). The pool's workers start with Ctrl-C
    ignored: the program decides what an interrupt means, and it is not their death."""
    from ai.engine import search_on_pool as wait_for_pool

    from ai.parallel import EnginePool

    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)  # inherited by the spawned workers
    try:
        pool = EnginePool(workers=threads, hash_megabytes=request.settings.tt_megabytes)
    finally:
        signal.signal(signal.SIGINT, previous)
    with pool:
        previous = signal.signal(signal.SIGINT, lambda _signum, _frame: INTERRUPTED.set())
        try:
            return wait_for_pool(pool, request, show, INTERRUPTED.is_set, POOL_POLL_SECONDS)
        finally:
            signal.signal(signal.SIGINT, previous)


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
    from ai.events import Finished, Iteration
    from games import get_game

    game = get_game(args.game)
    settings = settings_from(args, game)
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
    )
    prepared = prepare(with_roll(request, args.dice))
    root = prepared.state

    def show(event: object) -> None:
        if args.json:
            if isinstance(event, (Iteration, Finished)):
                print(json.dumps(event_record(event, root)), flush=True)
        elif isinstance(event, Iteration):
            line = (
                f"depth {event.depth} seldepth {event.seldepth} "
                f"score {score_text(event.score, game, FIXED_VIEW, event.bound)} "
                f"nodes {event.nodes} nps {event.nps:.0f} time {event.time:.2f} "
                f"hashfull {event.hashfull:.1%} ebf {event.ebf:.2f}"
            )
            # A fail-low has no move to show: its line ends without ``pv``.
            print(f"{line} pv {' '.join(root.line_names(event.pv))}" if event.pv else line, flush=True)

    if settings.threads > 1:
        finished = search_on_pool(prepared.request, settings.threads, show)
    else:
        # Ctrl-C stops the search, which still answers with what it has (``--time inf``).
        previous = signal.signal(signal.SIGINT, lambda _signum, _frame: INTERRUPTED.set())
        try:
            finished = run_search(prepared, on_event=show, should_stop=INTERRUPTED.is_set, started=received)
        finally:
            signal.signal(signal.SIGINT, previous)
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
    return EXIT_OK


def command_uci(_args: argparse.Namespace) -> int:
    """Speak UCI on stdin/stdout until ``quit``."""
    from ai.uci import serve

    if sys.stdin is None:  # started with stdin closed (``<&-``): Python gives no stream at all
        raise UsageError("the standard input is closed: no UCI command can be read")
    return serve(sys.stdin, sys.stdout)


# ------------------------------------------------------------------ the parser
def add_settings_options(parser: argparse.ArgumentParser) -> None:
    """One option per ``SearchSettings`` field (``dest`` = the field's name, absent unless
    given; a test checks that every field has one)."""
    from ai.search import ALGORITHMS

    algorithm_names = tuple(ALGORITHMS)
    group = parser.add_argument_group("search settings (defaults: the engine's strong configuration)")
    unset = argparse.SUPPRESS

    def switch_off(flag: str, field: str, what: str) -> None:
        group.add_argument(flag, dest=field, action="store_false", default=unset, help=f"without {what}")

    group.add_argument(
        "--algorithm",
        type=setting("algorithm", "--algorithm"),
        default=unset,
        help=f"one of: {', '.join(algorithm_names)} (default: the game's own, e.g. star2 for dice games)",
    )
    switch_off("--no-iterative-deepening", "iterative_deepening", "iterative deepening: search the depth at once")
    switch_off("--no-aspiration", "aspiration", "aspiration windows")
    group.add_argument(
        "--aspiration-window",
        dest="aspiration_window",
        type=setting("aspiration_window", "--aspiration-window"),
        default=unset,
        metavar="UNITS",
        help="half-width of the first aspiration window, in evaluation units",
    )
    switch_off("--no-tt", "transposition_table", "the transposition table")
    group.add_argument(
        "--hash",
        dest="tt_megabytes",
        type=setting("tt_megabytes", "--hash"),
        default=unset,
        metavar="MB",
        help=f"transposition table size, 1..{MAX_HASH_MB} MB",
    )
    switch_off("--no-ordering", "move_ordering", "move ordering (table move, captures, killers, history: all off)")
    switch_off("--no-killers", "killers", "the killer-move heuristic")
    switch_off("--no-history", "history", "the history heuristic")
    group.add_argument(
        "--quiescence",
        dest="quiescence",
        action=argparse.BooleanOptionalAction,
        default=unset,
        help="search noisy moves (captures) beyond the depth (default: the algorithm's own, "
        "on for all but plain minimax)",
    )
    switch_off("--no-check-extensions", "check_extensions", "check extensions (chess)")
    switch_off("--no-null-move", "null_move", "null-move pruning (chess)")
    switch_off("--no-lmr", "late_move_reductions", "late move reductions (chess, checkers)")
    switch_off("--no-quiescence-checks", "quiescence_checks", "quiet checks at quiescence's first ply (chess)")
    switch_off("--no-see-pruning", "see_pruning", "static-exchange pruning of losing moves (chess)")
    switch_off("--no-futility", "futility_pruning", "futility, reverse futility and late move pruning (chess, checkers)")
    group.add_argument(
        "--solver-empties",
        dest="solver_empties",
        type=setting("solver_empties", "--solver-empties"),
        default=unset,
        metavar="N",
        help="Othello: solve exactly with at most N empty squares; checkers: probe the endgame databases with at most N pieces (up to 4); 0: off",
    )
    group.add_argument(
        "--exploration",
        dest="exploration",
        type=setting("exploration", "--exploration"),
        default=unset,
        metavar="C",
        help="MCTS: the UCT exploration constant",
    )
    group.add_argument(
        "--playout",
        dest="playout",
        type=setting("playout", "--playout"),
        default=unset,
        metavar="{random,eval}",
        help="MCTS: random playouts to the end, or short ones scored by the evaluation",
    )
    group.add_argument(
        "--playout-depth",
        dest="playout_depth",
        type=setting("playout_depth", "--playout-depth"),
        default=unset,
        metavar="PLIES",
        help="MCTS: plies of an 'eval' playout",
    )
    group.add_argument(
        "--seed", dest="seed", type=setting("seed", "--seed"), default=unset, help="MCTS: random seed"
    )
    group.add_argument(
        "--threads",
        dest="threads",
        type=setting("threads", "--threads"),
        default=unset,
        metavar="N",
        help="worker processes, 1 up to the cores this process may use; more than 1 searches on the engine "
        "pool (Lazy SMP, root-parallel MCTS, a root split), whose start-up --time does not count",
    )
    group.add_argument(
        "--weights",
        dest="weights",
        type=input_file("--weights", "weights file"),
        default=unset,
        metavar="FILE",
        help="a JSON file of evaluation weights (a tuner's output) instead of the packaged ones",
    )
    group.add_argument(
        "--network",
        dest="network",
        type=input_file("--network", "network file", words=("", "off")),
        default=unset,
        metavar="FILE|off",
        help="chess, native: the learned network added to the EVAL (a trainer's output), or off; "
        "default: the packaged one",
    )
    group.add_argument(
        "--book",
        dest="book",
        action="store_true",
        default=unset,
        help="answer from the game's opening book where it has a move (analysis searches by default)",
    )
    switch_off("--no-book", "book", "the opening book (the default: analysis searches the opening too)")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog=PROGRAM,
        description="Plyground's game engine: perft, analysis, engine matches, a benchmark and a UCI chess engine.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=Parser)
    position_help = "position in the game's notation (default: the start); one beginning with '-' as --position=TEXT"
    game_choice = choice("a game", GAME_NAMES)

    perft = commands.add_parser("perft", help="count move-tree leaves (move generator test)")
    perft.add_argument("--game", required=True, type=game_choice, help=f"one of: {', '.join(GAME_NAMES)}")
    perft.add_argument("--position", help=position_help)
    perft.add_argument("--dice", help="games with dice: the roll to play from, e.g. 3-1")
    perft.add_argument(
        "--depth",
        required=True,
        type=integer("--depth", 0, MAX_PERFT_DEPTH),
        help=f"plies (backgammon: decisions), 0..{MAX_PERFT_DEPTH}",
    )
    perft.add_argument("--divide", action="store_true", help="one line per root move")
    perft.set_defaults(handler=command_perft)

    analyse = commands.add_parser("analyse", help="search a position and report each iteration")
    analyse.add_argument("--game", required=True, type=game_choice, help=f"one of: {', '.join(GAME_NAMES)}")
    analyse.add_argument("--position", help=position_help)
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
        "--depth", type=setting("depth", "--depth"), help=f"search to this depth (1..{MAX_DEPTH}; default {DEFAULT_DEPTH})"
    )
    limit.add_argument(
        "--time",
        type=positive_number("--time", infinite="no limit"),
        metavar="SECONDS",
        help="answer within this many seconds, set-up included; 'inf' = no limit: search until "
        "the game is solved or Ctrl-C, which stops the search and prints its answer",
    )
    limit.add_argument("--nodes", type=setting("nodes", "--nodes"), help="search this many nodes (1 or more)")
    add_settings_options(analyse)
    analyse.add_argument(
        "--json",
        action="store_true",
        help="JSON lines, fields named as the events; each score is seen by the player in its "
        "'view' field (the side to move at the root, as in UCI), not the fixed view of the text",
    )
    analyse.set_defaults(handler=command_analyse)

    from ai.match.command import add_parser as add_match_parser

    add_match_parser(commands)

    from ai.benchmark import add_parser as add_bench_parser

    add_bench_parser(commands, game_choice, MAX_DEPTH)

    uci = commands.add_parser("uci", help="run as a UCI chess engine on stdin/stdout")
    uci.set_defaults(handler=command_uci)
    return parser



def quiet_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # stdout has no file descriptor (tests capture it)
        pass


def closed_output() -> int | None:
    """Started with stdout closed (``plyground uci >&-``): the status to end with, said in
    one line on stderr when stderr is open; ``None`` when stdout is there. (Python makes
    ``sys.stdout`` None for a closed descriptor, and ``print`` would drop every line.)"""
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - errors then go nowhere, not to stdout
    if sys.stdout is not None:
        return None
    print(f"{PROGRAM}: error: the standard output is closed: nothing could be written", file=sys.stderr)
    return EXIT_USAGE


LIBRARY_LOGGERS = ("chess.pgn", "chess.engine", "asyncio")
"""Libraries that log what they also raise (python-chess's PGN reader on an illegal move,
asyncio on an engine process killed at a time-out): the command line says each problem
once, in its own words, so their log lines are not shown."""


def quiet_library_logs() -> None:
    for name in LIBRARY_LOGGERS:
        logger = logging.getLogger(name)
        if not logger.handlers:
            logger.addHandler(logging.NullHandler())
        logger.propagate = False


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    Parser.arguments = arguments
    INTERRUPTED.clear()
    closed = closed_output()
    if closed is not None:
        return closed
    quiet_library_logs()
    try:
        if signal.getsignal(signal.SIGINT) is interrupted_while_starting:
            signal.signal(signal.SIGINT, on_interrupt)  # Ctrl-C now ends below
        parser = build_parser()
        try:
            args = parser.parse_args(arguments)
        except SystemExit as exit:  # bad usage (said in one line) or --help
            return exit.code if isinstance(exit.code, int) else EXIT_USAGE
        handler: Command = args.handler
        try:
            status = handler(args)
            sys.stdout.flush()
            return status
        except ValueError as error:  # GameError, UsageError and the engine's request errors
            print(f"{PROGRAM}: error: {one_line(str(error), arguments)}", file=sys.stderr)
            return EXIT_USAGE
        except SearchFailed as error:
            print(f"{PROGRAM}: error: the search failed: {one_line(str(error))}", file=sys.stderr)
            return EXIT_SEARCH_FAILED
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except Terminated as stop:
        return 128 + stop.signum
    except BrokenPipeError:  # the reader went away (``plyground perft ... | head``)
        quiet_stdout()
        return EXIT_BROKEN_PIPE
    except OSError as error:
        if error.errno == errno.EPIPE:
            quiet_stdout()
            return EXIT_BROKEN_PIPE
        quiet_stdout()
        print(f"{PROGRAM}: error: cannot write the output: {error.strerror or error}", file=sys.stderr)
        return EXIT_OUTPUT_FAILED


if __name__ == "__main__":
    sys.exit(main())
