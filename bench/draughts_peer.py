"""An outside checkers opponent: py-draughts' ``SimpleEngine`` on the American board.

No checkers engine is packaged for this machine (Debian's kcheckers and fltk's checkers are
programs with a window, not a protocol); on PyPI, ``py-draughts`` (MIT licence) plays
American checkers with a depth-limited alpha-beta search (negamax with a transposition
table, quiescence on captures, PVS and late move reductions; material, men 1 and kings 2.5,
and piece-square tables). Its depth is counted the same on any machine, so a match against
it does not depend on the load.

It runs in a virtual environment of its own under ``bench/.peers`` (made on first use, as
``bench/peers.py`` does for Sunfish), as a child process answering one position a line.

Two rule fixes: py-draughts' American board lets a side move quietly when it can capture
("captures optional"), but captures are compulsory in American checkers (WCDF/ACF rules,
rule 1.20: "all capturing is compulsory"), so the child's board offers the captures alone
when there is one. And its board is drawn the other way round: the side that moves first,
on squares 21-32, is its "white" moving towards square 1, where here (as in the ACF's
numbering) Black moves first from squares 1-12 towards 32. Square ``s`` here is its
``33 - s``; its colours are ours swapped.

SPEC (``bench.levels``): ``draughts:DEPTH``.
"""

from __future__ import annotations

import subprocess
import sys
import time
import venv
from typing import Any

from ai.match.process import LineProcess
from ai.match.protocol import GameHistory, PlayerFailure
from ai.settings import Limits
from bench.peers import PEERS_DIR
from games import GameState

PACKAGE = "py-draughts==1.10.1"
"""The version measured against (its engine's strength is what the checkers scale anchors)."""
ENVIRONMENT = PEERS_DIR / "py-draughts"
PREFIX = "@@ "
START_TIMEOUT = 60.0
SQUARES = 32

SERVER = r'''
import sys
from draughts.boards.american import Board as AmericanBoard, _CORE
from draughts import SimpleEngine
from loguru import logger
logger.remove()

class Board(AmericanBoard):
    """American checkers with compulsory captures."""
    @property
    def legal_moves(self):
        return self._legal_moves_from_core(_CORE, max_capture=False, captures_optional=False)

engines = {}
print("@@ ready", flush=True)
for line in sys.stdin:
    words = line.split()
    if not words or words[0] == "quit":
        break
    try:
        depth, fen = int(words[0]), words[1]
        board = Board.from_fen(fen)
        engine = engines.get(depth) or engines.setdefault(depth, SimpleEngine(depth_limit=depth))
        move = engine.get_best_move(board)
        print("@@ " + ",".join(str(square + 1) for square in move.square_list), flush=True)
    except Exception as error:
        print("@@ ERROR " + " ".join(str(error).split()), flush=True)
'''


def python_command() -> list[str]:
    """The peer's Python (installing py-draughts on first use)."""
    python = ENVIRONMENT / "bin" / "python"
    if not python.exists():
        print("setting up the py-draughts peer in", ENVIRONMENT, file=sys.stderr)
        venv.create(ENVIRONMENT, with_pip=True)
        subprocess.run([str(ENVIRONMENT / "bin" / "pip"), "install", "-q", PACKAGE], check=True)
    return [str(python), "-c", SERVER]


def their_square(square: int) -> int:
    """Square ``square`` (1-32, Black moving first from 1-12) on py-draughts' board."""
    return SQUARES + 1 - square


def their_fen(state: GameState) -> str:
    """The position as py-draughts' FEN: squares mirrored, colours swapped."""
    turn, first, second = state.to_text().split(":")

    def mapped(field: str) -> tuple[str, str]:
        colour, squares = field[0], field[1:]
        names = []
        for item in squares.split(","):
            if item:
                king = item.startswith("K")
                names.append(("K" if king else "") + str(their_square(int(item.lstrip("K")))))
        return ("B" if colour == "W" else "W"), ",".join(names)

    fields = dict(mapped(field) for field in (first, second))
    their_turn = "B" if turn == "W" else "W"
    return f"{their_turn}:W{fields.get('W', '')}:B{fields.get('B', '')}"


class DraughtsPlayer:
    """py-draughts' SimpleEngine at a fixed depth, as a match player."""

    def __init__(self, depth: int) -> None:
        self.depth = depth
        self.name = f"draughts:{depth}"
        self.move_timeout = 600.0
        self.process: LineProcess | None = None

    def start(self) -> None:
        self.process = LineProcess(python_command())
        self._answer(time.monotonic() + START_TIMEOUT, "start-up")

    def _answer(self, deadline: float, waiting_for: str) -> str:
        assert self.process is not None
        return self.process.read_tagged(PREFIX, deadline, waiting_for)

    def new_game(self, state: GameState) -> None:
        pass

    def choose(self, state: GameState, history: GameHistory, limits: Limits) -> Any:
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        if self.process is None or not self.process.is_running:
            self.start()
        assert self.process is not None
        self.process.send(f"{self.depth} {their_fen(state)}")
        text = self._answer(time.monotonic() + self.move_timeout, "a move")
        if text.startswith("ERROR"):
            raise PlayerFailure(f"py-draughts: {text[6:]}")
        path = [their_square(int(square)) for square in text.split(",")]
        for move in moves:
            squares = [int(square) for square in state.move_name(move).replace("x", "-").split("-")]
            if squares == path or (squares[0], squares[-1]) == (path[0], path[-1]) and len(path) == 2:
                return move
        raise PlayerFailure(f"played a move that is not legal here ({'-'.join(map(str, path))})")

    def close(self) -> None:
        if self.process is not None:
            if self.process.is_running:
                try:
                    self.process.send("quit")
                except Exception:  # noqa: BLE001 - killed below in any case
                    pass
            self.process.kill()
            self.process = None
