"""A UCI chess engine front end on stdin/stdout (``plyground uci``).

The Universal Chess Interface (Stefan Meyer-Kahlen, 2000-2006): the GUI sends commands, the
engine answers with ``info`` lines and a final ``bestmove``. The search runs in a thread so
``stop`` and ``isready`` are answered while it thinks. This module only formats: the search
reports typed events (``ai.events``) carrying ``chess.Move`` values, written here in UCI
coordinates; scores go through ``ai.display`` like everywhere else. Its options are the
options table's rows (``ai.options``: a ``check`` per switch, a ``spin`` per whole number, a
``combo`` per choice, a ``string`` otherwise) and ``Exact``, the table's textbook preset.

A UCI engine must never die on a line and a GUI waits for every ``go``'s ``bestmove``, so:

* every command is answered or refused with ``info string error: ...``, and the engine goes
  on; a refused ``position`` resets to the start position and says so (the GUI and the
  engine must never silently disagree about the board);
* every ``go`` ends in ``bestmove``: unknown ``go`` words are ignored (and named), numbers
  out of range are clamped, ``depth 0``/``movetime 0`` still search one ply, and when the
  position is a draw by rule that the GUI may claim (threefold, fifty moves) the engine
  still names a legal move, with a draw score: claiming is the GUI's decision;
* output that cannot be written (the GUI went away) ends the session quietly.
"""

from __future__ import annotations

import io
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TextIO

import chess

from games import get_game

from ai.display import echo, one_line, uci_score
from ai.engine import clear_memory, prepare, run_search
from ai.events import Finished, Iteration
from ai.options import OPTIONS, Option, check_setting, exact, exact_values, is_exact, is_used, option, parse_setting
from ai.scores import MAX_PLY
from ai.search import ALGORITHMS, algorithms_for
from ai.settings import Limits, SearchRequest, SearchSettings, SettingError, check_input_file
from ai.timing import MIN_MOVE_SECONDS, MOVE_OVERHEAD, time_for_move

if TYPE_CHECKING:
    from ai.parallel import EnginePool

ENGINE_NAME = "Plyground"
ENGINE_AUTHOR = "the Plyground developers"
GAME = "chess"
"""UCI is a chess protocol: the one front end that names its game."""
HASH_MB_MAX = option("tt_megabytes").uci_max
UCI_ALGORITHMS = tuple(name for name in ALGORITHMS if name in algorithms_for(get_game(GAME)))
"""The algorithms that can search chess (``native`` only when the compiled search is built)."""
UCI_DEFAULT_ALGORITHM = "native" if "native" in UCI_ALGORITHMS else get_game(GAME).DEFAULT_ALGORITHM
"""A UCI engine is judged by how it plays: the compiled search when there is one (the
readable Python algorithms stay a ``setoption name Algorithm`` away)."""

MOVETIME_OVERHEAD_SHARE = 0.1
"""A short ``movetime`` keeps back at most this share of itself (0.2 s: 20 ms, not 50)."""
MAX_MILLISECONDS = 10**10
"""Clock values are clamped to this (about 4 months): a bigger one means "no hurry", and
a 400-digit one must not overflow a float."""
MAX_DEPTH = MAX_PLY
"""No search line is longer: a deeper ``go depth`` means no depth limit."""
MAX_NODES = 2**63 - 1
POOL_POLL_SECONDS = 0.01
"""How often a search on the pool looks at ``stop`` (a stop is answered within this)."""


NULL_MOVE = "0000"
"""UCI's "no move" (the position is over)."""
EMPTY = "<empty>"
"""How UCI writes an empty ``string`` option."""
EXACT_OPTION = "Exact"
"""The options table's textbook preset (``ai.options.exact``): every value-changing switch
off when true, back to the defaults when false."""
QUIESCENCE_WORDS = {"default": None, "on": True, "off": False}
"""The ``combo`` values of a switch that may also be the algorithm's own (quiescence)."""
UCI_OPTIONS: dict[str, Option] = {row.uci_name.lower(): row for row in OPTIONS}
"""Every row of the options table by its UCI name, lowercased (GUIs send names in any case)."""


def option_line(row: Option, settings: SearchSettings) -> str:
    """The ``option`` line of ``row``, its default what ``settings`` holds: a ``check`` for a
    switch, a ``spin`` for a whole number, a ``combo`` for choices, a ``string`` otherwise."""
    value = getattr(settings, row.name)
    head = f"option name {row.uci_name} type"
    if row.uci_switch is not None:
        return f"{head} check default {str(value == row.uci_switch[0]).lower()}"
    if row.is_optional:
        shown = next(word for word, meaning in QUIESCENCE_WORDS.items() if meaning is value)
        return f"{head} combo default {shown} " + " ".join(f"var {word}" for word in QUIESCENCE_WORDS)
    if row.type is bool:
        return f"{head} check default {str(value).lower()}"
    choices = uci_choices(row)
    if choices is not None:
        return f"{head} combo default {value} " + " ".join(f"var {name}" for name in choices)
    if row.type is int and row.range is not None:
        return f"{head} spin default {value} min {int(row.range.low)} max {spin_max(row)}"
    return f"{head} string default {value if value != '' else EMPTY}"


def uci_choices(row: Option) -> tuple[str, ...] | None:
    """The words a ``combo`` offers: the algorithms that can search chess (UCI is a chess
    protocol), the row's own choices otherwise."""
    return UCI_ALGORITHMS if row.name == "algorithm" else row.allowed_choices()


def spin_max(row: Option) -> int:
    assert row.range is not None
    return row.uci_max if row.uci_max is not None else int(row.range.upper())

GO_NUMBERS = ("depth", "nodes", "movetime", "wtime", "btime", "winc", "binc", "movestogo", "mate")
GO_FLAGS = ("infinite", "ponder")
GO_WORDS = (*GO_NUMBERS, *GO_FLAGS, "searchmoves")


def uci_move(move: chess.Move) -> str:
    return move.uci()


def parse_uci_move(board: chess.Board, text: str) -> chess.Move:
    """A legal move in UCI coordinates; the promotion letter in either case (``e7e8Q``, as
    some GUIs send it). ``ValueError`` says what is wrong."""
    try:
        move = chess.Move.from_uci(text[:4] + text[4:].lower())
    except ValueError:
        raise ValueError(f"{echo(text)!r} is not a move in UCI coordinates (e2e4, e7e8q)") from None
    if move not in board.legal_moves:
        raise ValueError(f"{move.uci()} is not legal in {board.fen()}")
    return move


@dataclass(frozen=True)
class GoCommand:
    """A parsed ``go``: its limits, its root-move subset and how ``bestmove`` waits."""

    limits: Limits
    searchmoves: tuple[str, ...] = ()
    infinite: bool = False
    """``go infinite``: the ``bestmove`` waits for ``stop``."""
    ponder: bool = False
    """``go ponder``: ``bestmove`` waits for ``ponderhit`` (then the time limit of
    ``ponder_limits`` applies, counted from the hit) or ``stop``."""
    ponder_limits: Limits = Limits()
    notes: tuple[str, ...] = ()
    """What was ignored or clamped, for ``info string``."""


def parse_go(arguments: list[str], white_to_move: bool) -> GoCommand:
    """``go`` as UCI writes it. Never raises: an unknown word, a missing or non-numeric
    value is noted and ignored; numbers are clamped to what a search can honour."""
    numbers: dict[str, int] = {}
    searchmoves: list[str] = []
    flags: set[str] = set()
    notes: list[str] = []
    index = 0
    while index < len(arguments):
        word = arguments[index].lower()
        index += 1
        if word in GO_FLAGS:
            flags.add(word)
        elif word == "searchmoves":
            while index < len(arguments) and arguments[index].lower() not in GO_WORDS:
                searchmoves.append(arguments[index])
                index += 1
        elif word in GO_NUMBERS:
            text = arguments[index] if index < len(arguments) else None
            if text is None or text.lower() in GO_WORDS:
                notes.append(f"go {word} needs a number: ignored")
                continue
            index += 1
            try:
                numbers[word] = max(-MAX_MILLISECONDS, min(int(text), MAX_MILLISECONDS))
            except ValueError:
                notes.append(f"go {word} {echo(text)!r} is not a number: ignored")
        else:
            notes.append(f"go: unknown word {echo(word)!r} ignored")

    depth = numbers.get("depth")
    if "mate" in numbers:  # mate in N moves: 2N - 1 plies find it
        depth = 2 * max(1, numbers["mate"]) - 1
    if depth is not None:
        depth = max(1, min(depth, MAX_DEPTH))  # depth 0 still searches one ply
    nodes = numbers.get("nodes")
    if nodes is not None:
        nodes = max(1, min(nodes, MAX_NODES))
    seconds: float | None = None
    if "movetime" in numbers:
        if numbers["movetime"] <= 0:  # no time at all: answer after one ply
            depth = 1 if depth is None else depth
        else:
            # searched to its end (a fixed time a move), less the overhead of answering
            movetime = numbers["movetime"] / 1000
            seconds = max(MIN_MOVE_SECONDS, movetime - min(MOVE_OVERHEAD, MOVETIME_OVERHEAD_SHARE * movetime))
    clock, increment = ("wtime", "winc") if white_to_move else ("btime", "binc")
    from_clock = clock in numbers
    if from_clock:
        seconds = time_for_move(numbers[clock] / 1000, numbers.get(increment, 0) / 1000, numbers.get("movestogo"))
    limits = Limits(depth=depth, time=seconds, nodes=nodes, from_clock=from_clock)
    if "infinite" in flags:
        return GoCommand(Limits(), tuple(searchmoves), infinite=True, notes=tuple(notes))
    if "ponder" in flags:  # depth and nodes hold while pondering; the clock starts at the hit
        pondering = Limits(depth=depth, nodes=nodes)
        return GoCommand(pondering, tuple(searchmoves), ponder=True, ponder_limits=limits, notes=tuple(notes))
    return GoCommand(limits, tuple(searchmoves), notes=tuple(notes))


class UciEngine:
    """The protocol state machine: one instance per ``plyground uci`` session."""

    def __init__(self, output: TextIO = sys.stdout) -> None:
        self.output = output
        self.output_lock = threading.Lock()
        self.output_closed = False
        self.board = chess.Board()
        # OwnBook starts off, as UCI GUIs expect (they manage books themselves; a search's
        # lines are what they show): ``setoption name OwnBook value true`` plays from ours.
        self.settings = SearchSettings(algorithm=UCI_DEFAULT_ALGORITHM, book=False)
        self.stop_event = threading.Event()
        self.release = threading.Event()
        """Set when a held ``bestmove`` (``go infinite``/``go ponder``) may go out."""
        self.deadline: float | None = None
        """After ``ponderhit``: when the search must end (``time.perf_counter`` scale)."""
        self.ponder_limits: Limits | None = None
        self.search_thread: threading.Thread | None = None
        self.search_id = 0
        self.pool: EnginePool | None = None
        """The worker pool, while ``Threads`` is more than 1 (made on ``setoption``, in
        the main thread: its workers start with Ctrl-C ignored)."""

    # ------------------------------------------------------------------ output
    def send(self, line: str) -> None:
        """Write one line; a closed output marks the session over instead of raising (the
        search thread must not die with a traceback because the GUI went away)."""
        with self.output_lock:
            if self.output_closed:
                return
            try:
                self.output.write(line + "\n")
                self.output.flush()
            except (OSError, ValueError):  # broken pipe, or a closed file
                self.output_closed = True
                self.stop_event.set()
                self.release.set()

    def error(self, message: str) -> None:
        self.send(f"info string error: {one_line(message)}")

    # ---------------------------------------------------------------- commands
    def handle(self, line: str) -> bool:
        """Handle one command line; False means quit. Never raises: whatever goes wrong
        is said on an ``info string error`` line and the engine goes on."""
        words = line.split()
        if not words:
            return True
        command, arguments = words[0], words[1:]
        if command == "quit":
            self.close()
            return False
        handlers: dict[str, Callable[[list[str]], None]] = {
            "uci": self.command_uci,
            "isready": lambda _: self.send("readyok"),
            "ucinewgame": self.command_new_game,
            "position": self.command_position,
            "go": self.command_go,
            "stop": lambda _: self.stop_search(),
            "ponderhit": self.command_ponderhit,
            "setoption": self.command_setoption,
            "debug": lambda _: None,  # accepted: this engine has no extra output to switch on
            "register": lambda _: None,  # nothing to register: accepted
        }
        handler = handlers.get(command)
        if handler is None:
            self.send(f"info string unknown command: {echo(command)}")
            return True
        try:
            handler(arguments)
        except ValueError as error:
            self.error(str(error))
        except Exception as error:  # a UCI engine never dies on a line
            self.error(f"{command}: {type(error).__name__}: {error}")
        return not self.output_closed

    def command_uci(self, _arguments: list[str]) -> None:
        self.send(f"id name {ENGINE_NAME}")
        self.send(f"id author {ENGINE_AUTHOR}")
        for row in OPTIONS:
            self.send(option_line(row, self.settings))
        self.send(f"option name {EXACT_OPTION} type check default {str(is_exact(self.settings)).lower()}")
        self.send("uciok")

    def command_new_game(self, _arguments: list[str]) -> None:
        self.stop_search()
        clear_memory(GAME)
        if self.pool is not None:
            self.pool.clear_table()
        self.board = chess.Board()

    def command_setoption(self, arguments: list[str]) -> None:
        text = " ".join(arguments)
        lowered = text.lower()
        if not lowered.startswith("name ") or " value " not in lowered:
            raise ValueError(f"setoption needs 'name <id> value <x>', got {echo(text)!r}")
        split = lowered.index(" value ")
        name, value = text[len("name ") : split].strip().lower(), text[split + len(" value ") :].strip()
        if name == EXACT_OPTION.lower():
            self.settings = exact(self.settings) if self.check(EXACT_OPTION, value) else self.without_preset()
            return
        row = UCI_OPTIONS.get(name)
        if row is None:
            raise ValueError(f"no option named {echo(name)!r}")
        if row.name == "tt_megabytes":  # a new table: the old one's entries are gone
            megabytes = self.spin(row.uci_name, row.name, value, spin_max(row))
            self.stop_search()
            self.settings = replace(self.settings, tt_megabytes=megabytes)
            clear_memory(GAME)
            if self.pool is not None:
                self.pool.resize_table(megabytes)
        elif row.name == "threads":
            threads = self.spin(row.uci_name, row.name, value, spin_max(row))
            if threads != self.settings.threads:
                self.stop_search()
                self.close_pool()
                if threads > 1:
                    self.pool = self.start_pool(threads)
                self.settings = replace(self.settings, threads=threads)
        else:
            chosen: Any = self.option_value(row, value)
            if row.name == "network":  # the compiled search's learned correction (games/chess_game/network.py)
                self.stop_search()
            self.settings = replace(self.settings, **{row.name: chosen})

    def without_preset(self) -> SearchSettings:
        """The settings with every value-changing switch back at its default (``Exact`` false)."""
        defaults = SearchSettings()
        return replace(self.settings, **{name: getattr(defaults, name) for name in exact_values()})

    def option_value(self, row: Option, value: str) -> object:
        """The settings value ``setoption name <row's UCI name> value <value>`` asks for, in
        the row's one range (``ai.options``, as the CLI and the app check it); ``ValueError``
        names the option, what it may be and the value."""
        name = row.uci_name
        if row.uci_switch is not None:
            on, off = row.uci_switch
            return on if self.check(name, value) else off
        if row.is_optional:
            if value.lower() not in QUIESCENCE_WORDS:
                raise ValueError(f"{name} must be one of {', '.join(QUIESCENCE_WORDS)}, not {echo(value)!r}")
            return QUIESCENCE_WORDS[value.lower()]
        if row.type is bool:
            return self.check(name, value)
        choices = uci_choices(row)
        if choices is not None:
            if value.lower() not in choices:  # combo values: any case, as GUIs send them
                raise ValueError(f"{name} must be one of {', '.join(choices)}, not {echo(value)!r}")
            return value.lower()
        if row.type is int and row.range is not None:
            return self.spin(name, row.name, value, spin_max(row))
        try:
            if row.file_noun:
                text = "" if value in ("", EMPTY) else value  # empty: the packaged file
                if text and text not in row.file_words:
                    check_input_file(text, row.name, row.file_noun)
                return text
            return parse_setting(row.name, value)
        except SettingError as error:
            raise ValueError(f"{name}: {error.problem}") from None

    @staticmethod
    def check(name: str, value: str) -> bool:
        """A ``check`` option's value: ``true`` or ``false`` in any case."""
        if value.lower() not in ("true", "false"):
            raise ValueError(f"{name} must be true or false, not {echo(value)!r}")
        return value.lower() == "true"

    @staticmethod
    def spin(name: str, field: str, value: str, high: int) -> int:
        """A ``spin`` option's value for the settings field ``field``: in the field's one
        range (``ai.options``, as the CLI and the app check it) and at most the ``max``
        this engine declares for the option."""
        allowed = option(field).range
        assert allowed is not None, field
        low = int(allowed.low)
        try:
            number = int(value)
        except ValueError:
            raise ValueError(f"{name} must be a whole number {low}..{high}, not {echo(value)!r}") from None
        try:
            check_setting(field, number)
        except SettingError:
            number = high + 1  # out of the shared range: refused below with the declared one
        if not low <= number <= high:
            raise ValueError(f"{name} must be {low}..{high}, not {echo(value)}")
        return number

    def command_position(self, arguments: list[str]) -> None:
        """``position startpos|fen <fen> [moves ...]``; on any error the position becomes
        the start position, and the error line says so."""
        try:
            self.board = self.parse_position(arguments)
        except ValueError as error:
            self.board = chess.Board()
            words = " ".join(arguments).split(" moves ", 1)[0]  # the FEN, which the reason may quote
            reason = one_line(str(error), [words, words.removeprefix("fen ")])
            raise ValueError(f"{reason}; the position is now the start position") from None

    @staticmethod
    def parse_position(arguments: list[str]) -> chess.Board:
        lowered = [word.lower() for word in arguments]
        split = lowered.index("moves") if "moves" in lowered else len(arguments)
        spec, moves = arguments[:split], arguments[split + 1 :]
        if not spec or spec[0].lower() not in ("startpos", "fen"):
            raise ValueError("position needs 'startpos' or 'fen <FEN>' before any moves")
        if spec[0].lower() == "startpos":
            if len(spec) > 1:
                raise ValueError(f"position startpos takes no more words, got {echo(' '.join(spec[1:]))!r}")
            board = chess.Board()
        else:
            from games import new_game

            fen = " ".join(spec[1:])
            board = chess.Board(new_game(GAME, fen).to_text())  # our parser: exact reasons
        for number, text in enumerate(moves, start=1):
            try:
                board.push(parse_uci_move(board, text))
            except ValueError as error:
                raise ValueError(f"move {number}: {error}") from None
        return board

    def command_go(self, arguments: list[str]) -> None:
        go = parse_go(arguments, self.board.turn == chess.WHITE)
        for note in go.notes:
            self.send(f"info string {note}")
        if go.searchmoves:
            go = replace(go, searchmoves=self.legal_searchmoves(go.searchmoves))
        self.stop_search()
        self.search_id += 1
        self.stop_event.clear()
        self.release.clear()
        self.deadline = None
        self.ponder_limits = go.ponder_limits if go.ponder else None
        hold = go.infinite or go.ponder
        if not hold:
            self.release.set()
        self.search_thread = threading.Thread(
            target=self.run, args=(go, self.board.copy(), self.search_id), daemon=True, name="uci-search"
        )
        self.search_thread.start()

    def legal_searchmoves(self, texts: tuple[str, ...]) -> tuple[str, ...]:
        """The ``searchmoves`` that are legal here, in UCI coordinates; each other one is
        named on an ``info string`` and left out (none left: every move is searched)."""
        legal: list[str] = []
        for text in texts:
            try:
                legal.append(parse_uci_move(self.board, text).uci())
            except ValueError as error:
                self.send(f"info string go searchmoves: {one_line(str(error))}: ignored")
        return tuple(legal)

    def command_ponderhit(self, _arguments: list[str]) -> None:
        """The opponent played the pondered move: the search goes on as a normal one. Its
        time limit counts from now (its depth and node limits held all along); a search
        that has already ended answers at once, one without any limit waits for ``stop``."""
        limits = self.ponder_limits
        if limits is None:
            return  # not pondering: nothing to do
        self.ponder_limits = None
        if limits.time is not None:
            self.deadline = time.perf_counter() + limits.time
        self.release.set()

    def stop_search(self) -> None:
        """Ask a running search to stop and wait for its ``bestmove``."""
        self.stop_event.set()
        self.release.set()
        if self.search_thread is not None:
            self.search_thread.join()
            self.search_thread = None

    def start_pool(self, threads: int) -> EnginePool:
        """An ``EnginePool`` of ``threads`` workers with the table size of ``Hash``."""
        from ai.parallel import EnginePool

        main_thread = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main_thread else None
        try:  # the workers inherit "Ctrl-C ignored": the session decides what it means
            return EnginePool(workers=threads, hash_megabytes=self.settings.tt_megabytes)
        finally:
            if previous is not None:
                signal.signal(signal.SIGINT, previous)

    def close_pool(self) -> None:
        if self.pool is not None:
            self.pool.shutdown()
            self.pool = None

    def close(self) -> None:
        """End the session: the search, then the pool (no worker process is left)."""
        self.stop_search()
        self.close_pool()

    def should_stop(self) -> bool:
        deadline = self.deadline
        return self.stop_event.is_set() or (deadline is not None and time.perf_counter() >= deadline)

    # ------------------------------------------------------------------ search
    def request_for(self, board: chess.Board, go: GoCommand, search_id: int) -> tuple[SearchRequest, bool]:
        """The request for ``board``, and whether its root is a draw by rule with moves
        left (threefold, fifty moves, insufficient material: the game state says the game
        is over, a GUI may play on). Such a root is searched as the same position without
        its history (so the search sees a game going on) and answered with a draw score."""
        root = board.root()
        start_fen = None if root == chess.Board() else root.fen()
        # ``go infinite`` is analysis: a GUI asking for it wants the search's lines, not a book move.
        settings = replace(self.settings, book=False) if go.infinite else self.settings
        request = SearchRequest(
            game=GAME,
            position=start_fen,
            moves=tuple(move.uci() for move in board.move_stack),
            settings=settings,
            limits=go.limits,
            search_id=search_id,
            root_moves=go.searchmoves,
        )
        try:
            if not prepare(replace(request, root_moves=())).state.is_terminal():
                return request, False
        except ValueError:
            pass  # a move after a draw by rule that nobody claimed: the game went on
        if not any(board.generate_legal_moves()):
            return request, False  # checkmate or stalemate: truly over
        fresh = board.copy(stack=False)
        fresh.halfmove_clock = 0
        return replace(request, position=fresh.fen(), moves=()), board.can_claim_draw() or board.is_insufficient_material()

    def run(self, go: GoCommand, board: chess.Board, search_id: int) -> None:
        side = 0 if board.turn == chess.WHITE else 1
        best_move: chess.Move | None = None
        final: list[str] = []

        def on_event(event: object) -> None:  # the pool also delivers tree records: not UCI's
            if isinstance(event, Iteration):
                for line in self.info_lines(event, side):
                    self.send(line)

        if self.settings.multipv > 1 and not is_used("multipv", self.settings, None):
            self.send(f"info string MultiPV: {self.settings.algorithm} reports one line (the Python algorithms give several)")
        try:
            request, drawn = self.request_for(board, go, search_id)
            prepared = prepare(request)
            if drawn:
                self.send("info string the position is a draw by rule: a move to play on, with a draw score")
            if self.pool is not None:
                # ``stop`` (or the ponderhit deadline) asks the pool to answer now.
                finished = self.pool.answer(prepared.request, on_event, self.should_stop, POOL_POLL_SECONDS)
            else:
                finished = run_search(prepared, on_event=on_event, should_stop=self.should_stop)
            if finished.error is not None:
                raise RuntimeError(finished.error)
            if finished.fault is not None:  # a worker died; the answer is its last iteration
                self.send(f"info string {one_line(finished.fault)}")
            best_move = finished.best_move
            if drawn:
                finished = replace(finished, score=replace(finished.score, value=0.0, win_in_plies=None))
            final = self.info_lines(finished, side)  # the last word, as UCI GUIs expect
        except Exception as error:  # a refused request or a failing search: still answer
            self.error(str(error) if isinstance(error, ValueError) else f"{type(error).__name__}: {error}")
        if best_move is None and any(board.generate_legal_moves()):
            # Every go ends in a legal bestmove while one exists, whatever went wrong above.
            best_move = next(iter(board.generate_legal_moves()))
        for line in final:
            self.send(line)
        self.release.wait()  # ``go infinite``/``go ponder``: the answer waits for stop/ponderhit
        self.send(f"bestmove {uci_move(best_move) if best_move else NULL_MOVE}")

    def info_lines(self, event: Iteration | Finished, side: int) -> list[str]:
        """The ``info`` lines of an iteration or the answer: one, or with ``MultiPV`` above 1
        one per line found, as Stockfish prints them (``info depth 9 multipv 2 score cp 31
        ... pv ...``), best first; a line the stop left at the previous depth says its own."""
        if self.settings.multipv == 1:
            return [self.info_line(event, side)]
        if len(event.lines) < 2:  # an aspiration fail, or a root with one move
            return [self.info_line(event, side, multipv=1)]
        return [
            self.info_line(replace(event, depth=line.depth, score=line.score, pv=line.pv), side, multipv=line.rank)
            for line in event.lines
        ]

    @staticmethod
    def info_line(event: Iteration | Finished, side: int, multipv: int | None = None) -> str:
        """UCI ``info`` for an iteration or the final answer (``multipv``: the rank of the
        line, with ``MultiPV`` above 1). An aspiration fail is reported before its
        re-search with the score marked ``lowerbound``/``upperbound``; a line with no move
        to show (a fail-low) has no ``pv``."""
        bound = event.bound if isinstance(event, Iteration) else "exact"
        rank = "" if multipv is None else f" multipv {multipv}"
        parts = [
            f"info depth {event.depth} seldepth {event.seldepth}{rank}",
            f"score {uci_score(event.score, side, bound)}",
            f"nodes {event.nodes} nps {int(event.nps)} time {int(event.time * 1000)}",
        ]
        if isinstance(event, Iteration):
            parts.append(f"hashfull {int(event.hashfull * 1000)}")
        if event.pv:
            parts.append("pv " + " ".join(uci_move(move) for move in event.pv))
        return " ".join(parts)


def serve(input_stream: TextIO = sys.stdin, output: TextIO = sys.stdout) -> int:
    """Run the protocol until ``quit``, the end of input, or output that cannot be written
    (then the status is non-zero: 141, as for a program ended by SIGPIPE)."""
    # Bytes that are not text (in any locale) must not end the session either.
    for stream, errors in ((input_stream, "replace"), (output, "backslashreplace")):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors=errors)
    engine = UciEngine(output)
    try:
        for line in input_stream:
            if not engine.handle(line.strip()):
                break
    finally:
        engine.close()
    return 141 if engine.output_closed else 0
