"""``plyground``: the engine's command line (perft, analyse, race, match, bench, uci, review).

Every subcommand reports bad input (an unknown game, a broken position, an illegal move, an
option out of range) as one line ``plyground: error: ...`` on stderr and exit status 2 —
never a traceback; a value too long to echo is cut (its first characters and its length).
Output that cannot be written (``| head -1``, a full disk) ends the program quietly with a
non-zero status; so does Ctrl-C during start-up (during ``analyse`` it stops the search,
which still answers). A program started with stdout closed (``>&-``) says so in one line on
stderr and exits 2 (quietly when stderr is closed too). The ranges of every search setting
are the options table's (``ai.options``), shared with match specs, UCI and the app.

The front end knows no game by name: each game says its default algorithm, its dice hook
(``GameState.roll_moves``) and its score units and words (read by ``ai.display``).

The package: ``arguments`` (exit codes, errors, option types, the search options from the
table), one module per subcommand (``perft``, ``analyse``, ``race``, ``match``, ``bench``, ``uci``,
``review``),
each with its ``add_parser`` and its command, and here the parser and ``main``.
"""

from __future__ import annotations

import errno
import logging
import os
import signal
import sys
from collections.abc import Callable, Sequence
from typing import Any

from ai import interrupted_while_starting
from ai.cli.analyse import add_parser as add_analyse
from ai.cli.bench import add_parser as add_bench
from ai.cli.match import add_parser as add_match
from ai.cli.perft import add_parser as add_perft
from ai.cli.race import add_parser as add_race
from ai.cli.review import add_parser as add_review
from ai.cli.uci import add_parser as add_uci
from ai.cli.arguments import (
    EXIT_BROKEN_PIPE,
    EXIT_INTERRUPTED,
    EXIT_OUTPUT_FAILED,
    EXIT_SEARCH_FAILED,
    EXIT_USAGE,
    INTERRUPTED,
    PROGRAM,
    Parser,
    SearchFailed,
    Terminated,
    on_interrupt,
    settings_from,
)
from ai.display import one_line
from ai.options import MAX_HASH_MB

__all__ = ["MAX_HASH_MB", "build_parser", "main", "settings_from"]

Command = Callable[[Any], int]

SUBCOMMANDS: tuple[Callable[[Any], None], ...] = (
    add_perft, add_analyse, add_race, add_match, add_bench, add_uci, add_review,
)
"""Each subcommand's ``add_parser``, in the order ``--help`` lists them."""


def build_parser() -> Parser:
    parser = Parser(
        prog=PROGRAM,
        description="Plyground's game engine: perft, analysis, an algorithm race, engine matches, a benchmark and a UCI chess engine.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=Parser)
    for add_parser in SUBCOMMANDS:
        add_parser(commands)
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

