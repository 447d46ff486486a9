"""A UCI chess engine front end on stdin/stdout (``plyground uci``).

The Universal Chess Interface (Stefan Meyer-Kahlen, 2000-2006): the GUI sends commands, the
engine answers with ``info`` lines and a final ``bestmove``. The search runs in a thread so
``stop`` and ``isready`` are answered while it thinks. This module only formats: the search
reports typed events (``ai.events``), and here they become UCI text — SAN principal
variations are turned into UCI coordinates on a python-chess board.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from dataclasses import replace
from typing import TextIO

import chess

from ai.engine import clear_memory, run_search
from ai.events import Finished, Iteration, Score, SearchEvent
from ai.search import ALGORITHMS, CHANCE_ALGORITHMS
from ai.settings import Limits, SearchRequest, SearchSettings

ENGINE_NAME = "Plyground"
ENGINE_AUTHOR = "the Plyground developers"
HASH_MB_DEFAULT, HASH_MB_MAX = 64, 1024
UCI_ALGORITHMS = tuple(name for name in ALGORITHMS if name not in CHANCE_ALGORITHMS or name == "mcts")

MOVES_TO_GO_DEFAULT = 30
"""Without ``movestogo`` assume this many moves remain (sudden death)."""
MOVE_OVERHEAD = 0.05
"""Seconds kept back per move for process and pipe latency."""
MAX_SHARE_OF_CLOCK = 0.5
"""Never spend more than this share of the remaining clock on one move."""


def time_for_move(remaining: float, increment: float, moves_to_go: int | None) -> float:
    """Seconds to think from a clock: an equal share of what is left plus most of the
    increment, capped so a single move can never flag."""
    share = remaining / (moves_to_go or MOVES_TO_GO_DEFAULT) + 0.8 * increment
    return max(0.01, min(share, remaining * MAX_SHARE_OF_CLOCK) - MOVE_OVERHEAD)


BOUND_WORDS = {"lower": "lowerbound", "upper": "upperbound"}
MAX_THREADS = 1
"""Search threads the engine can use today (the worker pool will raise it)."""


def format_score(score: Score, side_to_move: int) -> str:
    """``cp N`` or ``mate N`` from the side to move's view, as UCI wants."""
    own = score.for_player(side_to_move)
    mate = own.mate_in_moves()
    if mate is not None:
        return f"mate {mate}"
    return f"cp {round(own.value)}"


class UciEngine:
    """The protocol state machine: one instance per ``plyground uci`` session."""

    def __init__(self, output: TextIO = sys.stdout) -> None:
        self.output = output
        self.output_lock = threading.Lock()
        self.board = chess.Board()
        self.start_fen: str | None = None
        self.moves: list[str] = []
        self.settings = SearchSettings()
        self.stop_event = threading.Event()
        self.search_thread: threading.Thread | None = None
        self.search_id = 0

    # ------------------------------------------------------------------ output
    def send(self, line: str) -> None:
        with self.output_lock:
            self.output.write(line + "\n")
            self.output.flush()

    # ---------------------------------------------------------------- commands
    def handle(self, line: str) -> bool:
        """Handle one command line; False means quit."""
        words = line.split()
        if not words:
            return True
        command, arguments = words[0], words[1:]
        handlers: dict[str, Callable[[list[str]], None]] = {
            "uci": self.command_uci,
            "isready": lambda _: self.send("readyok"),
            "ucinewgame": self.command_new_game,
            "position": self.command_position,
            "go": self.command_go,
            "stop": lambda _: self.stop_search(),
            "setoption": self.command_setoption,
        }
        if command == "quit":
            self.stop_search()
            return False
        handler = handlers.get(command)
        if handler is None:
            self.send(f"info string unknown command: {command}")
            return True
        try:
            handler(arguments)
        except ValueError as error:
            self.send(f"info string error: {error}")
        return True

    def command_uci(self, _arguments: list[str]) -> None:
        self.send(f"id name {ENGINE_NAME}")
        self.send(f"id author {ENGINE_AUTHOR}")
        self.send(
            f"option name Hash type spin default {HASH_MB_DEFAULT} min 1 max {HASH_MB_MAX}"
        )
        # The search runs on one thread until the worker pool (Lazy SMP) lands: say so
        # honestly (max 1) rather than accept a Threads value that changes nothing.
        self.send(f"option name Threads type spin default 1 min 1 max {MAX_THREADS}")
        variants = " ".join(f"var {name}" for name in UCI_ALGORITHMS)
        self.send(f"option name Algorithm type combo default {self.settings.algorithm} {variants}")
        self.send("uciok")

    def command_new_game(self, _arguments: list[str]) -> None:
        self.stop_search()
        clear_memory("chess")
        self.board = chess.Board()
        self.start_fen, self.moves = None, []

    def command_setoption(self, arguments: list[str]) -> None:
        text = " ".join(arguments)
        if not text.startswith("name ") or " value " not in text:
            raise ValueError(f"setoption needs 'name <id> value <x>', got {text!r}")
        name, value = text[len("name ") :].split(" value ", 1)
        name, value = name.strip().lower(), value.strip()
        if name == "hash":
            megabytes = int(value)
            if not 1 <= megabytes <= HASH_MB_MAX:
                raise ValueError(f"Hash must be 1..{HASH_MB_MAX} MB")
            self.settings = replace(self.settings, tt_megabytes=megabytes)
            clear_memory("chess")
        elif name == "threads":
            threads = int(value)
            if not 1 <= threads <= MAX_THREADS:
                raise ValueError(f"Threads must be 1..{MAX_THREADS}: this version searches on one thread")
            self.settings = replace(self.settings, threads=threads)
        elif name == "algorithm":
            if value not in UCI_ALGORITHMS:
                raise ValueError(f"Algorithm must be one of {', '.join(UCI_ALGORITHMS)}")
            self.settings = replace(self.settings, algorithm=value)
        else:
            raise ValueError(f"no option named {name!r}")

    def command_position(self, arguments: list[str]) -> None:
        if not arguments:
            raise ValueError("position needs startpos or fen")
        if "moves" in arguments:
            split = arguments.index("moves")
            spec, moves = arguments[:split], arguments[split + 1 :]
        else:
            spec, moves = arguments, []
        if spec[0] == "startpos":
            board, start_fen = chess.Board(), None
        elif spec[0] == "fen":
            start_fen = " ".join(spec[1:])
            board = chess.Board(start_fen)
        else:
            raise ValueError(f"position must be startpos or fen, got {spec[0]!r}")
        for uci in moves:
            move = chess.Move.from_uci(uci)
            if move not in board.legal_moves:
                raise ValueError(f"illegal move {uci} in position {board.fen()}")
            board.push(move)
        self.board, self.start_fen, self.moves = board, start_fen, moves

    def limits_from_go(self, arguments: list[str]) -> Limits:
        values: dict[str, int] = {}
        infinite = False
        index = 0
        while index < len(arguments):
            word = arguments[index]
            if word in ("infinite", "ponder"):
                infinite = True
                index += 1
            elif word in ("depth", "nodes", "movetime", "wtime", "btime", "winc", "binc", "movestogo", "mate"):
                if index + 1 >= len(arguments):
                    raise ValueError(f"go {word} needs a number")
                values[word] = int(arguments[index + 1])
                index += 2
            else:
                raise ValueError(f"unknown go parameter {word!r}")
        if infinite:
            return Limits()
        seconds: float | None = None
        if "movetime" in values:
            seconds = values["movetime"] / 1000
        clock = "wtime" if self.board.turn == chess.WHITE else "btime"
        increment = "winc" if self.board.turn == chess.WHITE else "binc"
        if clock in values:
            seconds = time_for_move(values[clock] / 1000, values.get(increment, 0) / 1000, values.get("movestogo"))
        depth = values.get("depth")
        if "mate" in values:
            depth = 2 * values["mate"]
        return Limits(depth=depth, time=seconds, nodes=values.get("nodes"))

    def command_go(self, arguments: list[str]) -> None:
        limits = self.limits_from_go(arguments)
        self.stop_search()
        self.search_id += 1
        request = SearchRequest(
            game="chess",
            position=self.start_fen,
            moves=tuple(self.moves),
            settings=self.settings,
            limits=limits,
            search_id=self.search_id,
        )
        self.stop_event.clear()
        infinite = limits.is_infinite
        self.search_thread = threading.Thread(
            target=self.run, args=(request, self.board.copy(), infinite), daemon=True
        )
        self.search_thread.start()

    def stop_search(self) -> None:
        """Ask a running search to stop and wait for its ``bestmove``."""
        self.stop_event.set()
        if self.search_thread is not None:
            self.search_thread.join()
            self.search_thread = None

    # ------------------------------------------------------------------ search
    def run(self, request: SearchRequest, board: chess.Board, infinite: bool) -> None:
        side = 0 if board.turn == chess.WHITE else 1

        def on_event(event: SearchEvent) -> None:
            if isinstance(event, Iteration):
                self.send(self.info_line(event, board, side))

        best_move: chess.Move | None = None
        try:
            finished: Finished = run_search(request, on_event=on_event, should_stop=self.stop_event.is_set)
            best_move = finished.best_move
            if finished.pv:  # the last word: what the answer stands on, as UCI GUIs expect
                self.send(self.info_line(finished, board, side))
        except ValueError as error:  # a request the engine refuses: say why, answer null
            self.send(f"info string error: {error}")
        if infinite:  # UCI: after "go infinite" the bestmove waits for "stop"
            self.stop_event.wait()
        self.send(f"bestmove {best_move.uci() if best_move else '0000'}")

    @staticmethod
    def info_line(event: Iteration | Finished, board: chess.Board, side: int) -> str:
        """UCI ``info`` for an iteration or the final answer. An aspiration fail is reported
        before its re-search with the score marked ``lowerbound``/``upperbound`` (both
        ``Iteration.bound`` and UCI's score are from the side to move's view)."""
        pv = " ".join(move.uci() for move in event.pv)
        score = format_score(event.score, side)
        bound = getattr(event, "bound", "exact")
        if bound in BOUND_WORDS:
            score += f" {BOUND_WORDS[bound]}"
        hashfull = event.hashfull if isinstance(event, Iteration) else None
        return (
            f"info depth {event.depth} seldepth {event.seldepth} score {score} "
            f"nodes {event.nodes} nps {int(event.nps)} time {int(event.time * 1000)}"
            + (f" hashfull {int(hashfull * 1000)}" if hashfull is not None else "")
            + f" pv {pv}"
        ).rstrip()


def serve(input_stream: TextIO = sys.stdin, output: TextIO = sys.stdout) -> int:
    """Run the protocol until ``quit`` or end of input."""
    engine = UciEngine(output)
    for line in input_stream:
        if not engine.handle(line.strip()):
            break
    engine.stop_search()
    return 0
