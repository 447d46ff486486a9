"""The command line's vocabulary: exit codes, errors, option types and the search options.

Every option type refuses a bad value with one line naming the option, the allowed range
and the value (cut when long), through ``Parser.error``: exit status 2, never a traceback.
The search settings' options are made from the options table (``ai.options``): one per
row, with its flag, help and range, so whatever the app can configure can be reproduced
here; ``--exact`` is the table's textbook preset.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import math
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import NoReturn

from games import GAME_NAMES, GameState

from ai import INTERRUPTED_STATUS
from ai.display import echo, one_line
from ai.options import EXACT_HELP, OPTIONS, exact_values, parse_setting
from ai.settings import SearchRequest, SearchSettings, SettingError, check_input_file
from ai.tree.export import TreeFileError, check_tree_path

PROGRAM = "plyground"

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


class UsageError(ValueError):
    """Bad command-line input that is not about a game's rules."""


class SearchFailed(RuntimeError):
    """The engine could not answer (a worker failed for good): said in one line, status 1."""


# ------------------------------------------------------------------ interrupts and signals
INTERRUPTED = threading.Event()
"""Set by Ctrl-C. Besides the ``KeyboardInterrupt`` that ends a command, the flag stays up,
so an interrupt that lands where an exception is swallowed (a finaliser) still stops the
search that follows (it polls this flag)."""


def on_interrupt(_signum: int, _frame: object) -> None:
    INTERRUPTED.set()
    raise KeyboardInterrupt


@contextlib.contextmanager
def interrupt_sets_flag() -> Iterator[None]:
    """Within the block Ctrl-C only sets ``INTERRUPTED`` (a search polls it and still
    answers); the previous handler is back after it."""
    previous = signal.signal(signal.SIGINT, lambda _signum, _frame: INTERRUPTED.set())
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def interrupt_ignored() -> Iterator[None]:
    """Within the block Ctrl-C is ignored: processes started here (the pool's workers)
    inherit that, since the program decides what an interrupt means, and it is not their
    death."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


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
    range of the options table that match specs, UCI and the app's settings file share."""

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


def tree_file(option: str) -> Callable[[str], str]:
    """An argparse type: a file the search tree can be written to (``.json`` or ``.dot``
    in an existing folder; ``ai.tree.export.check_tree_path``), checked before searching."""

    def parse(text: str) -> str:
        try:
            check_tree_path(text)
        except TreeFileError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
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


# ------------------------------------------------------------------ the search settings
def add_settings_options(parser: argparse.ArgumentParser) -> None:
    """``--exact``, then one option per row of the options table (``dest`` = the field's
    name, absent unless given): a value option for a number, a word or a file, ``--no-X``
    for a switch that is on by default, both forms for the others."""
    group = parser.add_argument_group("search settings (defaults: the engine's strong configuration)")
    unset = argparse.SUPPRESS
    group.add_argument("--exact", dest="exact", action="store_true", default=unset, help=EXACT_HELP)
    for row in OPTIONS:
        if row.is_optional:
            assert row.flag is not None, row.name
            group.add_argument(row.flag, dest=row.name, action=argparse.BooleanOptionalAction, default=unset, help=row.cli_help)
        elif row.type is bool:
            if row.flag is not None:
                group.add_argument(row.flag, dest=row.name, action="store_true", default=unset, help=row.on_help)
            if row.off_flag is not None:
                group.add_argument(row.off_flag, dest=row.name, action="store_false", default=unset, help=row.cli_help)
        else:
            assert row.flag is not None, row.name
            kind = (
                input_file(row.flag, row.file_noun, words=row.file_words)
                if row.file_noun
                else setting(row.name, row.flag)
            )
            choices = row.allowed_choices()
            text = row.cli_help.format(choices=", ".join(choices)) if choices else row.cli_help
            group.add_argument(row.flag, dest=row.name, type=kind, default=unset, metavar=row.metavar, help=text)


ANALYSE_USES_BOOK = False
"""Analysis searches the position even where the game has a book move (``--book`` answers
from the book); a forced answer (``GameState.forced_answer``) is given either way."""


def settings_from(args: argparse.Namespace, game: type[GameState]) -> SearchSettings:
    """The ``SearchSettings`` the command line asks for: each settings option's ``dest`` is
    the field's name and it is absent unless given, so what is not said keeps the
    engine's default (the game's own default algorithm included), except the book: analysis
    searches unless ``--book`` is given (``ANALYSE_USES_BOOK``). ``--exact`` turns every
    value-changing switch off first; a switch given as well still applies."""
    given = {row.name: getattr(args, row.name) for row in OPTIONS if hasattr(args, row.name)}
    if getattr(args, "exact", False):
        given = {**exact_values(), **given}
    given.setdefault("algorithm", game.DEFAULT_ALGORITHM)
    given.setdefault("book", ANALYSE_USES_BOOK)
    return SearchSettings(**given)


# ------------------------------------------------------------------ positions and dice
GAME_CHOICE = choice("a game", GAME_NAMES)
"""The ``--game`` type of every subcommand."""
GAME_HELP = f"one of: {', '.join(GAME_NAMES)}"
POSITION_HELP = "position in the game's notation (default: the start); one beginning with '-' as --position=TEXT"


def with_roll(request: SearchRequest, dice: str | None) -> SearchRequest:
    """``request`` with the moves that roll ``dice`` appended (the game's ``roll_moves``
    hook: backgammon rolls past a cube decision first); unchanged without ``dice``."""
    if dice is None:
        return request
    from ai.engine import build_state  # the engine loads when a command runs, not for --help

    state = build_state(request)
    names: list[str] = []
    try:
        for move in state.roll_moves(dice):
            names.append(state.move_name(move))
            state.play_checked(move)
    except ValueError as error:
        raise UsageError(f"--dice {echo(dice)}: {error}") from None
    return dataclasses.replace(request, moves=request.moves + tuple(names))
