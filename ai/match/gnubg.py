"""GNU Backgammon as a match player: Debian's ``gnubg`` program with its embedded Python.

SPEC ``gnubg`` (0-ply: the neural net alone) or ``gnubg:PLIES`` (``gnubg:1``, ``gnubg:2``).
The program runs ``gnubg_server.py`` (next to this file), which answers the best cubeless
play for a Position ID and a roll; the answer (``8/5 6/5``) is read with the game's own
notation. In a match with the cube (``plyground match --cube``) gnubg also decides its own
doubles, takes and passes (its cubeful money evaluation at the same plies).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from ai.match.protocol import GameHistory, PlayerFailure, SpecError, started
from ai.match.process import LineProcess
from ai.match.uci import find_program
from ai.settings import Limits
from games import GameState
from games.backgammon.notation import DOUBLE, DROP, NO_DOUBLE, TAKE
from games.backgammon.state import CUBE_DECISION, TAKE_DECISION
from games.base import GameError

SERVER = Path(__file__).with_name("gnubg_server.py")
PREFIX = "@@ "
START_TIMEOUT = 60.0
"""gnubg loads its networks and bear-off databases first (a few seconds)."""
MAX_PLIES = 4


class GnubgPlayer:
    def __init__(self, command: list[str], plies: int, name: str) -> None:
        self.command = command
        self.plies = plies
        self.name = name
        self.move_timeout = 60.0
        self.start_timeout = START_TIMEOUT
        self.process: LineProcess | None = None

    @classmethod
    def from_spec(cls, rest: str, spec: str, start_timeout: float | None = None) -> GnubgPlayer:
        try:
            plies = int(rest) if rest.strip() else 0
        except ValueError:
            raise SpecError(f"player {spec!r}: write gnubg:PLIES with PLIES 0-{MAX_PLIES}") from None
        if not 0 <= plies <= MAX_PLIES:
            raise SpecError(f"player {spec!r}: plies must be 0-{MAX_PLIES}, not {plies}")
        player = cls([find_program("gnubg", spec), "-t", "-q", "-r", "-p", str(SERVER)], plies, spec)
        player.start_timeout = start_timeout or START_TIMEOUT
        return started(player, spec)

    def start(self) -> None:
        self.process = LineProcess(self.command)
        self._answer(time.monotonic() + self.start_timeout, "start-up")

    def _answer(self, deadline: float, waiting_for: str) -> str:
        assert self.process is not None
        return self.process.read_tagged(PREFIX, deadline, waiting_for)

    def new_game(self, state: GameState) -> None:
        pass

    def choose(self, state: GameState, history: GameHistory, limits: Limits) -> Any:
        if state.phase in (CUBE_DECISION, TAKE_DECISION):  # type: ignore[attr-defined]
            return self._cube_action(state)
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]  # a forced play (or no play at all): nothing to ask
        if self.process is None or not self.process.is_running:
            self.start()
        assert self.process is not None
        position = state.to_text().split(":")[0]
        die1, die2 = state.dice  # type: ignore[attr-defined]
        self.process.send(f"{self.plies} {position} {die1} {die2}")
        text = self._answer(time.monotonic() + self.move_timeout, "a move request")
        if text.startswith("ERROR"):
            raise PlayerFailure(f"gnubg: {text[6:]}")
        try:
            move = state.parse_move(text)
        except GameError as error:
            raise PlayerFailure(f"played an illegal move ({text!r}: {error})") from None
        return move

    def _cube_action(self, state: GameState) -> str:
        """Double or roll, take or drop: gnubg's verdict on the doubler's cube decision."""
        decision = state.copy()
        if decision.phase == TAKE_DECISION:  # type: ignore[attr-defined]
            decision.undo()  # back to the doubler's decision, which gnubg judges for both sides
        if self.process is None or not self.process.is_running:
            self.start()
        assert self.process is not None
        self.process.send(f"CUBE {self.plies} {decision.to_text()}")
        verdict = self._answer(time.monotonic() + self.move_timeout, "a cube decision")
        if verdict.startswith("ERROR"):
            raise PlayerFailure(f"gnubg: {verdict[6:]}")
        doubles, _, answer = verdict.partition(",")
        if state.phase == CUBE_DECISION:  # type: ignore[attr-defined]
            return DOUBLE if doubles.strip().lower().startswith(("double", "redouble")) else NO_DOUBLE
        return DROP if answer.strip().lower().startswith("pass") else TAKE

    def close(self) -> None:
        if self.process is not None:
            if self.process.is_running:
                try:
                    self.process.send("quit")
                    self.process.process.wait(timeout=5)  # type: ignore[union-attr]
                except Exception:  # noqa: BLE001 - killed below in any case
                    pass
            self.process.kill()
            self.process = None
