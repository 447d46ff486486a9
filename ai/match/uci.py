"""A UCI chess engine as a match player, driven by python-chess's ``chess.engine``.

SPEC ``uci:COMMAND[?Option=value&Option=value]``: ``COMMAND`` is the program and its
arguments (found on ``PATH`` or in ``/usr/games``, as Debian installs Stockfish); each option
is set with ``setoption`` (``uci:stockfish?UCI_LimitStrength=true&UCI_Elo=1350``).

The engine is started when the player is made (so a bad command or option is an error before
the match begins) and again after it crashed or timed out. Every move has a deadline
(``move_timeout``); an engine that misses it is killed and loses the game, as does one that
exits or answers an illegal move.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import shlex
import shutil
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import chess
import chess.engine

from ai.match.protocol import GameHistory, PlayerFailure, SpecError, started
from ai.match.process import kill_group
from ai.settings import Limits
from games import GameState

EXTRA_DIRECTORIES = ("/usr/games", "/usr/local/games")
"""Where Debian puts game programs (Stockfish, gnubg, gtp-rhino), often not on ``PATH``."""
START_TIMEOUT = 20.0
"""Seconds an engine may take to start and answer ``uci`` / ``isready``."""
QUIT_TIMEOUT = 2.0
"""Seconds an engine gets to leave after ``quit`` before it is killed."""


def find_program(word: str, spec: str) -> str:
    """The full path of program ``word`` (``SpecError`` when it is nowhere)."""
    if "/" in word:
        if Path(word).is_file():
            return word
        raise SpecError(f"player {spec!r}: no program at {word!r}")
    found = shutil.which(word)
    if found is None:
        for directory in EXTRA_DIRECTORIES:
            candidate = Path(directory) / word
            if candidate.is_file():
                return str(candidate)
        raise SpecError(f"player {spec!r}: program {word!r} not found on PATH or in {', '.join(EXTRA_DIRECTORIES)}")
    return found


def split_command(text: str, spec: str) -> list[str]:
    try:
        words = shlex.split(text)
    except ValueError as error:
        raise SpecError(f"player {spec!r}: {error}") from None
    if not words:
        raise SpecError(f"player {spec!r}: no program named after the colon")
    return [find_program(words[0], spec), *words[1:]]


def _option_value(text: str) -> Any:
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    try:
        return int(text)
    except ValueError:
        return text


class UciPlayer:
    """One UCI engine process (restarted after a failure)."""

    FOLLOWS_TIME_LIMIT = True
    """UCI engines are told the time a move (``go movetime``)."""

    def __init__(self, command: list[str], options: dict[str, Any], name: str) -> None:
        self.command = command
        self.options = options
        self.name = name
        self.move_timeout = 30.0
        self.engine: chess.engine.SimpleEngine | None = None
        self.group: int | None = None
        """The engine's process group (its pid), ended with it."""
        self.start_timeout = START_TIMEOUT
        self.thinking = False
        """A move was asked for and not yet answered."""
        self.game_token = object()

    @classmethod
    def from_spec(cls, rest: str, spec: str, start_timeout: float | None = None) -> UciPlayer:
        command_text, _, query = rest.partition("?")
        options = {key: _option_value(value) for key, value in parse_qsl(query, keep_blank_values=True)}
        if query and not options:
            raise SpecError(f"player {spec!r}: options go as Name=value&Name=value after '?'")
        player = cls(split_command(command_text, spec), options, spec)
        player.start_timeout = start_timeout or START_TIMEOUT
        return started(player, spec)

    def start(self) -> None:
        started: list[int] = []

        class Protocol(chess.engine.UciProtocol):
            """python-chess's UCI protocol, noting the program's pid as soon as it runs,
            so that its process group can be ended even when the handshake never ends."""

            def connection_made(self, transport: Any) -> None:
                started.append(transport.get_pid())
                super().connection_made(transport)

        timeout = self.start_timeout
        try:
            # setpgrp: the engine leads a process group of its own (``ai.match.process``)
            engine = chess.engine.SimpleEngine.popen(Protocol, self.command, timeout=timeout, setpgrp=True)
        except (asyncio.TimeoutError, concurrent.futures.TimeoutError):
            kill_group(started[0] if started else None)
            raise PlayerFailure(f"the engine did not start: it did not finish the UCI handshake ('uci' … 'uciok') within {timeout:g} s") from None
        except chess.engine.EngineTerminatedError as error:
            kill_group(started[0] if started else None)
            raise PlayerFailure(f"the engine did not start: it exited during the UCI handshake ({describe(error)})") from None
        except (OSError, ValueError, chess.engine.EngineError) as error:
            kill_group(started[0] if started else None)
            raise PlayerFailure(f"the engine did not start: {describe(error)}") from None
        self.group = started[0] if started else None
        try:
            for option in self.options:
                if option not in engine.options:
                    raise PlayerFailure(f"the engine has no option {option!r}")
            engine.configure(self.options)
        except (chess.engine.EngineError, ValueError, asyncio.TimeoutError, concurrent.futures.TimeoutError) as error:
            self.engine = engine
            self._kill()
            raise PlayerFailure(f"option rejected: {describe(error)}") from None
        except PlayerFailure:
            self.engine = engine
            self._kill()
            raise
        self.engine = engine

    def new_game(self, state: GameState) -> None:
        self.game_token = object()  # a new token makes python-chess send ucinewgame

    def choose(self, state: GameState, history: GameHistory, limits: Limits) -> Any:
        if self.engine is None:
            self.start()
        engine = self.engine
        assert engine is not None
        board: chess.Board = state.board  # type: ignore[attr-defined]
        limit = chess.engine.Limit(time=limits.time, depth=limits.depth, nodes=limits.nodes)
        coroutine = asyncio.wait_for(engine.protocol.play(board, limit, game=self.game_token), self.move_timeout)
        self.thinking = True  # until the answer: an interrupted wait leaves the engine busy
        try:
            answer = asyncio.run_coroutine_threadsafe(coroutine, engine.protocol.loop).result()
            self.thinking = False
        except (asyncio.TimeoutError, concurrent.futures.TimeoutError):
            self._kill()
            raise PlayerFailure(f"no move within {self.move_timeout:g} s (killed)") from None
        except chess.engine.EngineTerminatedError as error:
            self._kill()
            raise PlayerFailure(f"the engine crashed ({error})") from None
        except chess.engine.EngineError as error:
            self._kill()
            raise PlayerFailure(f"played an illegal or unreadable move: {error}") from None
        if answer.move is None:
            self._kill()
            raise PlayerFailure("the engine answered no move (bestmove (none))")
        if answer.move not in board.legal_moves:
            raise PlayerFailure(f"played an illegal move ({answer.move.uci()})")
        return answer.move

    def _kill(self) -> None:
        if self.engine is not None:
            self.engine.close()  # closing the transport kills the process if it still runs
            self.engine = None
        kill_group(self.group)  # and whatever it started
        self.group = None
        self.thinking = False

    def close(self) -> None:
        """``quit`` to an idle engine, given ``QUIT_TIMEOUT`` to leave; an engine still
        thinking (the match was interrupted mid-move) is killed at once, with its group."""
        engine, self.engine = self.engine, None
        if engine is not None:
            if not self.thinking:
                leaving = asyncio.wait_for(engine.protocol.quit(), QUIT_TIMEOUT)
                try:
                    asyncio.run_coroutine_threadsafe(leaving, engine.protocol.loop).result(QUIT_TIMEOUT + 1)
                except Exception:  # noqa: BLE001 - an engine that will not quit is killed below
                    pass
            engine.close()
        kill_group(self.group)
        self.group = None
        self.thinking = False


def describe(error: BaseException) -> str:
    """An exception as one line of text: its message, or its kind when it has none (a
    time-out carries no message)."""
    text = " ".join(str(error).split())
    return text or type(error).__name__
