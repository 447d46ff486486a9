"""A GTP (Go Text Protocol, version 2) engine as an Othello match player.

SPEC ``gtp:COMMAND ARGS`` (``gtp:gtp-rhino -l 3``). GTP is Go's protocol; Othello programs
such as GRhino speak it with an 8x8 board, ``a1``..``h8`` as Othello writes squares (row 1 at
the top), ``pass`` for a pass. The player keeps the program's board in step with the game by
``play`` commands and asks for its move with ``genmove``; a game that starts from another
position than the initial one (or a history it cannot follow) is replayed after
``clear_board``.

Each answer has a deadline (``move_timeout``). A program that exits, misses the deadline
(it is killed) or answers an illegal move loses the game; ``resign`` is a loss too.
"""

from __future__ import annotations

import time
from typing import Any

from ai.match.protocol import GameHistory, PlayerFailure, started
from ai.match.process import LineProcess
from ai.match.uci import split_command
from ai.settings import Limits
from games import GameState, new_game
from games.base import GameError

BOARD_SIZE = 8
START_TIMEOUT = 10.0
PASS = "pass"
MAX_ANSWER_LINES = 100
"""The longest GTP answer read (``showboard`` is 10 lines)."""


class GtpPlayer:
    def __init__(self, command: list[str], name: str) -> None:
        self.command = command
        self.name = name
        self.move_timeout = 30.0
        self.start_timeout = START_TIMEOUT
        self.process: LineProcess | None = None
        self.synced: list[str] | None = None
        """The moves the program's board has seen (``None``: it must be cleared first)."""

    @classmethod
    def from_spec(cls, rest: str, spec: str, start_timeout: float | None = None) -> GtpPlayer:
        player = cls(split_command(rest, spec), spec)
        player.start_timeout = start_timeout or START_TIMEOUT
        return started(player, spec)

    # ------------------------------------------------------------------ process
    def start(self) -> None:
        self.process = LineProcess(self.command)
        self.synced = None
        try:
            self.command_answer(f"boardsize {BOARD_SIZE}", self.start_timeout)
        except GtpError as error:
            raise PlayerFailure(f"refused 'boardsize {BOARD_SIZE}': {error}") from None

    def command_answer(self, command: str, timeout: float) -> str:
        """Send ``command``; the text of its ``=`` answer, or ``GtpError`` for ``?``."""
        if self.process is None or not self.process.is_running:
            self.start()
        process = self.process
        assert process is not None
        process.send(command)
        deadline = time.monotonic() + timeout
        answer: list[str] = []
        while True:
            try:
                line = process.read_line(deadline, command.split()[0])
            except PlayerFailure as failure:
                self.synced = None
                raise PlayerFailure(str(failure).replace("the deadline", f"{timeout:g} s")) from None
            if not line.strip():
                if answer:
                    break
                continue
            answer.append(line)
            if len(answer) > MAX_ANSWER_LINES:  # an answer ends with a blank line; this one does not
                self.synced = None
                raise process.failure(f"not a GTP answer: more than {MAX_ANSWER_LINES} lines without an end")
        first = answer[0]
        if first.startswith("?"):
            raise GtpError(first[1:].strip())
        if not first.startswith("="):
            self.synced = None
            raise process.failure(f"not a GTP answer: {first[:60]!r}")
        return " ".join([first[1:].strip(), *answer[1:]]).strip()

    # -------------------------------------------------------------------- play
    def new_game(self, state: GameState) -> None:
        self.synced = None

    def choose(self, state: GameState, history: GameHistory, limits: Limits) -> Any:
        if history.start != new_game(state.NAME).to_text():
            raise PlayerFailure("a GTP engine starts from the initial position; this game does not")
        self._sync(history.moves)
        colour = state.PLAYER_NAMES[state.to_move()].lower()
        try:
            text = self.command_answer(f"genmove {colour}", self.move_timeout)
        except GtpError as error:
            raise PlayerFailure(f"genmove refused: {error}") from None
        word = text.split()[0].lower() if text.split() else ""
        if word == "resign":
            raise PlayerFailure("resigned")
        try:
            move = state.parse_move(word)
        except GameError:
            self.synced = None
            raise PlayerFailure(f"played an illegal move ({text!r})") from None
        assert self.synced is not None
        self.synced.append(state.move_name(move))
        return move

    def _sync(self, moves: list[str]) -> None:
        """Bring the program's board to ``moves`` (only new moves if it can)."""
        if self.synced is None or moves[: len(self.synced)] != self.synced:
            self.command_answer("clear_board", START_TIMEOUT)
            self.synced = []
        replay = new_game("othello")
        for name in self.synced:
            replay.play(replay.parse_move(name))
        for name in moves[len(self.synced):]:
            colour = replay.PLAYER_NAMES[replay.to_move()].lower()
            try:
                self.command_answer(f"play {colour} {name}", START_TIMEOUT)
            except GtpError as error:
                if name != PASS:  # GRhino passes by itself and refuses "play <colour> pass"
                    raise PlayerFailure(f"refused the move {name}: {error}") from None
            replay.play(replay.parse_move(name))
            self.synced.append(name)

    def close(self) -> None:
        if self.process is not None and self.process.is_running:
            try:
                self.command_answer("quit", 2.0)
            except (PlayerFailure, GtpError):
                pass
        if self.process is not None:
            self.process.kill()
            self.process = None


class GtpError(Exception):
    """A ``?`` answer: the program refused a command."""
