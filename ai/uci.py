"""A UCI chess engine front end on stdin/stdout (``plyground uci``).

The Universal Chess Interface (Stefan Meyer-Kahlen, 2000-2006): the GUI sends commands, the
engine answers with ``info`` lines and a final ``bestmove``. The search runs in a thread so
``stop`` and ``isready`` are answered while it thinks. This module only formats: the search
reports typed events (``ai.events``) carrying ``chess.Move`` values, written here in UCI
coordinates; scores go through ``ai.display`` like everywhere else.

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
from typing import TYPE_CHECKING, TextIO

import chess

from ai.display import echo, one_line, uci_score
from ai.engine import clear_memory, prepare, run_search, search_on_pool
from ai.events import Finished, Iteration, SearchEvent
from ai.parallel import available_cores as core_count
from ai.scores import MAX_PLY
from ai.search import ALGORITHMS, algorithms_for
from games import get_game
from ai.settings import SETTING_RANGES, Limits, SearchRequest, SearchSettings, SettingError, check_setting

if TYPE_CHECKING:
    from ai.parallel import EnginePool

ENGINE_NAME = "Plyground"
ENGINE_AUTHOR = "the Plyground developers"
GAME = "chess"
"""UCI is a chess protocol: the one front end that names its game."""
HASH_MB_DEFAULT, HASH_MB_MAX = 64, 1024
UCI_ALGORITHMS = tuple(name for name in ALGORITHMS if name in algorithms_for(get_game(GAME)))
"""The algorithms that can search chess (``native`` only when the compiled search is built)."""
UCI_DEFAULT_ALGORITHM = "native" if "native" in UCI_ALGORITHMS else get_game(GAME).DEFAULT_ALGORITHM
"""A UCI engine is judged by how it plays: the compiled search when there is one (the
readable Python algorithms stay a ``setoption name Algorithm`` away)."""

MOVES_TO_GO_DEFAULT = 30
"""Without ``movestogo`` assume this many moves remain (sudden death)."""
MOVE_OVERHEAD = 0.05
"""Seconds kept back per move for process and pipe latency."""
MOVETIME_OVERHEAD_SHARE = 0.1
"""A short ``movetime`` keeps back at most this share of itself (0.2 s: 20 ms, not 50)."""
MIN_MOVE_SECONDS = 0.01
"""The least time a timed move gets (a movetime or clock share smaller than the overhead)."""
MAX_SHARE_OF_CLOCK = 0.5
"""Never spend more than this share of the remaining clock on one move."""
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

GO_NUMBERS = ("depth", "nodes", "movetime", "wtime", "btime", "winc", "binc", "movestogo", "mate")
GO_FLAGS = ("infinite", "ponder")
GO_WORDS = (*GO_NUMBERS, *GO_FLAGS, "searchmoves")


def time_for_move(remaining: float, increment: float, moves_to_go: int | None) -> float:
    """Seconds to think from a clock: an equal share of what is left plus most of the
    increment, capped so a single move can never flag."""
    remaining, increment = max(0.0, remaining), max(0.0, increment)
    share = remaining / (moves_to_go if moves_to_go and moves_to_go > 0 else MOVES_TO_GO_DEFAULT) + 0.8 * increment
    return max(MIN_MOVE_SECONDS, min(share, remaining * MAX_SHARE_OF_CLOCK) - MOVE_OVERHEAD)


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
        self.debug = False
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
            "debug": self.command_debug,
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
        self.send(f"option name Hash type spin default {HASH_MB_DEFAULT} min 1 max {HASH_MB_MAX}")
        self.send(f"option name Threads type spin default 1 min 1 max {core_count()}")
        variants = " ".join(f"var {name}" for name in UCI_ALGORITHMS)
        self.send(f"option name Algorithm type combo default {self.settings.algorithm} {variants}")
        self.send(f"option name OwnBook type check default {str(self.settings.book).lower()}")
        self.send(f"option name UseNetwork type check default {str(self.settings.network != 'off').lower()}")
        self.send("uciok")

    def command_debug(self, arguments: list[str]) -> None:
        self.debug = bool(arguments) and arguments[0].lower() == "on"

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
        if name == "hash":
            megabytes = self.spin("Hash", "tt_megabytes", value, HASH_MB_MAX)
            self.stop_search()
            self.settings = replace(self.settings, tt_megabytes=megabytes)
            clear_memory(GAME)
            if self.pool is not None:
                self.pool.resize_table(megabytes)
        elif name == "threads":
            threads = self.spin("Threads", "threads", value, core_count())
            if threads != self.settings.threads:
                self.stop_search()
                self.close_pool()
                if threads > 1:
                    self.pool = self.start_pool(threads)
                self.settings = replace(self.settings, threads=threads)
        elif name == "algorithm":
            if value.lower() not in UCI_ALGORITHMS:  # combo values: any case, as GUIs send them
                raise ValueError(f"Algorithm must be one of {', '.join(UCI_ALGORITHMS)}, not {echo(value)!r}")
            self.settings = replace(self.settings, algorithm=value.lower())
        elif name == "ownbook":  # play from our Polyglot book (resources/books/chess.bin)
            if value.lower() not in ("true", "false"):
                raise ValueError(f"OwnBook must be true or false, not {echo(value)!r}")
            self.settings = replace(self.settings, book=value.lower() == "true")
        elif name == "usenetwork":  # the compiled search's learned correction (games/chess_game/network.py)
            if value.lower() not in ("true", "false"):
                raise ValueError(f"UseNetwork must be true or false, not {echo(value)!r}")
            self.stop_search()
            self.settings = replace(self.settings, network="" if value.lower() == "true" else "off")
        else:
            raise ValueError(f"no option named {echo(name)!r}")

    @staticmethod
    def spin(option: str, field: str, value: str, high: int) -> int:
        """A ``spin`` option's value for the settings field ``field``: in the field's one
        range (``ai.settings``, as the CLI and the app check it) and at most the ``max``
        this engine declares for the option."""
        low = int(SETTING_RANGES[field].low)
        try:
            number = int(value)
        except ValueError:
            raise ValueError(f"{option} must be a whole number {low}..{high}, not {echo(value)!r}") from None
        try:
            check_setting(field, number)
        except SettingError:
            number = high + 1  # out of the shared range: refused below with the declared one
        if not low <= number <= high:
            raise ValueError(f"{option} must be {low}..{high}, not {echo(value)}")
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
        final: str | None = None

        def on_event(event: SearchEvent) -> None:
            if isinstance(event, Iteration):
                self.send(self.info_line(event, side))

        try:
            request, drawn = self.request_for(board, go, search_id)
            prepared = prepare(request)
            if drawn:
                self.send("info string the position is a draw by rule: a move to play on, with a draw score")
            if self.pool is not None:
                # ``stop`` (or the ponderhit deadline) asks the pool to answer now.
                finished = search_on_pool(self.pool, prepared.request, on_event, self.should_stop, POOL_POLL_SECONDS)
            else:
                finished = run_search(prepared, on_event=on_event, should_stop=self.should_stop)
            if finished.error is not None:
                raise RuntimeError(finished.error)
            if finished.fault is not None:  # a worker died; the answer is its last iteration
                self.send(f"info string {one_line(finished.fault)}")
            best_move = finished.best_move
            if drawn:
                finished = replace(finished, score=replace(finished.score, value=0.0, win_in_plies=None))
            final = self.info_line(finished, side)  # the last word, as UCI GUIs expect
        except Exception as error:  # a refused request or a failing search: still answer
            self.error(str(error) if isinstance(error, ValueError) else f"{type(error).__name__}: {error}")
        if best_move is None and any(board.generate_legal_moves()):
            # Every go ends in a legal bestmove while one exists, whatever went wrong above.
            best_move = next(iter(board.generate_legal_moves()))
        if final is not None:
            self.send(final)
        self.release.wait()  # ``go infinite``/``go ponder``: the answer waits for stop/ponderhit
        self.send(f"bestmove {uci_move(best_move) if best_move else NULL_MOVE}")

    @staticmethod
    def info_line(event: Iteration | Finished, side: int) -> str:
        """UCI ``info`` for an iteration or the final answer. An aspiration fail is reported
        before its re-search with the score marked ``lowerbound``/``upperbound``; a line
        with no move to show (a fail-low) has no ``pv``."""
        bound = event.bound if isinstance(event, Iteration) else "exact"
        parts = [
            f"info depth {event.depth} seldepth {event.seldepth}",
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
