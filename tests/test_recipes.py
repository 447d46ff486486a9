"""The recipes of ARCHITECTURE.md, followed: a new game and a new algorithm, each added in one
place and then served by everything that was already there.

* **Add a game**: ``NimState`` below is a whole game (one heap; take 1, 2 or 3 stones; who takes
  the last stone wins) written against ``games.base.GameState`` alone, registered with one
  entry in ``games.GAME_MODULES``. It goes through perft, every registered algorithm (each
  with the ``exact`` preset of ``ai.options`` returns plain minimax's value), and the worker
  pool on two processes.
* **Add an algorithm**: ``run`` below is a whole algorithm (one-ply greedy choice) written
  against ``ai.context.SearchContext`` alone, registered with one ``AlgorithmSpec`` in
  ``ai.search.ALGORITHMS``; the engine runs it by name and it answers minimax's depth-1 value.

The third recipe, **add a search switch** (a field of ``SearchSettings``, a row of
``ai.options.OPTIONS``, the code that reads it), is followed by ``tests/ai/test_options.py``:
one row per field, and every row reaches the command line, UCI and the settings line.
"""

from __future__ import annotations

import itertools
import multiprocessing
from collections.abc import Iterator
from typing import ClassVar

import pytest

import games
from ai import options
from ai import search as algorithms
from ai.context import SearchContext
from ai.engine import search
from ai.events import Finished
from ai.parallel import EnginePool
from ai.parallel import pool as pool_module
from ai.scores import terminal_score, to_report
from ai.settings import Limits, SearchRequest, SearchSettings
from games.base import BadPositionError, GameState, IllegalMoveError, Player
from games.zobrist import zobrist_keys

# ------------------------------------------------------------------------ a game: Nim
TAKES = (1, 2, 3)
"""How many stones a move may take."""
START_HEAP = 7
MAX_HEAP = 64
_KEYS = zobrist_keys(MAX_HEAP + 2, seed=0x4E1)
HEAP_KEYS, SECOND_TO_MOVE_KEY = _KEYS[: MAX_HEAP + 1], _KEYS[MAX_HEAP + 1]


class NimState(GameState):
    """A heap of stones; the side to move takes 1, 2 or 3; who takes the last one wins.

    Text: ``"<heap> <side to move>"`` (``"7 0"``); a move is the number of stones taken.
    The position is lost for the side to move exactly when the heap is a multiple of 4.
    """

    NAME: ClassVar[str] = "nim"
    PLAYER_NAMES: ClassVar[tuple[str, str]] = ("first", "second")
    SCORE_DECIMALS: ClassVar[int] = 0

    __slots__ = ("heap", "player", "history")

    def __init__(self, heap: int = START_HEAP, player: Player = 0) -> None:
        self.heap = heap
        self.player = player
        self.history: list[int] = []

    @classmethod
    def initial(cls) -> NimState:
        return cls()

    @classmethod
    def from_text(cls, text: str) -> NimState:
        heap, _, player = text.partition(" ")
        if not heap.isdigit() or int(heap) > MAX_HEAP or player not in ("0", "1"):
            raise BadPositionError(f"{text!r} is not '<heap 0-{MAX_HEAP}> <side 0 or 1>'")
        return cls(int(heap), int(player))

    def to_text(self) -> str:
        return f"{self.heap} {self.player}"

    def to_move(self) -> Player:
        return self.player

    def legal_moves(self) -> list[int]:
        return [take for take in TAKES if take <= self.heap]

    def play(self, move: int) -> None:
        self.heap -= move
        self.player = 1 - self.player
        self.history.append(move)

    def undo(self) -> None:
        self.heap += self.history.pop()
        self.player = 1 - self.player

    def copy(self) -> NimState:
        clone = NimState(self.heap, self.player)
        clone.history = list(self.history)
        return clone

    def is_terminal(self) -> bool:
        return self.heap == 0

    def utility(self, player: Player) -> float:
        return -1.0 if player == self.player else 1.0  # the side to move has nothing left to take

    def key(self) -> int:
        return HEAP_KEYS[self.heap] ^ (SECOND_TO_MOVE_KEY if self.player else 0)

    def parse_move(self, text: str) -> int:
        if not text.strip().isdigit() or int(text) not in self.legal_moves():
            raise IllegalMoveError(f"{text!r}: take one of {self.legal_moves()} stones")
        return int(text)

    def move_name(self, move: int) -> str:
        return str(move)

    def encode_move(self, move: int) -> int:
        return move

    def decode_move(self, code: int) -> int:
        return code

    def evaluate(self, player: Player) -> float:
        """A deliberately imperfect EVAL (the heap modulo 3, not 4), so that depth matters."""
        value = self.heap % 3 - 1.0
        return value if player == self.player else -value


@pytest.fixture
def nim_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """The one line a new game adds to ``games.GAME_MODULES``."""
    monkeypatch.setitem(games.GAME_MODULES, NimState.NAME, (__name__, NimState.__name__))


def sequences(heap: int, depth: int) -> int:
    """Perft counted another way: the tuples of ``depth`` takes, each at most what is left."""
    return sum(
        1
        for takes in itertools.product(TAKES, repeat=depth)
        if all(sum(takes[: ply + 1]) <= heap for ply in range(depth))
        and all(sum(takes[:ply]) < heap for ply in range(depth))
    )


@pytest.mark.usefixtures("nim_registered")
@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_new_game_counts_its_tree(depth: int) -> None:
    state = games.new_game("nim")
    assert state.perft(depth) == sequences(START_HEAP, depth)
    assert sum(count for _, count in state.divide(depth)) == state.perft(depth)
    assert games.new_game("nim", state.to_text()).to_text() == "7 0"


SAMPLING_ALGORITHMS = frozenset({"mcts"})
"""Algorithms that estimate by sampling rather than search the minimax tree: they must find a
winning move, not reproduce a value."""
POSITIONS = ("7 0", "8 1", "10 0", "13 1")


def minimax_value(text: str, depth: int) -> float:
    settings = options.exact(SearchSettings(algorithm="minimax"))
    return search(NimState.from_text(text), settings, Limits(depth=depth)).score.value


@pytest.mark.usefixtures("nim_registered")
@pytest.mark.parametrize("algorithm", list(algorithms.ALGORITHMS))
def test_new_game_goes_through_every_algorithm(algorithm: str) -> None:
    spec = algorithms.get_algorithm(algorithm)
    settings = options.exact(SearchSettings(algorithm=algorithm, seed=1))
    if spec.needs_native:
        with pytest.raises(ValueError, match="no compiled search"):
            search(NimState.initial(), settings, Limits(depth=2))
        return
    if algorithm in SAMPLING_ALGORITHMS:
        answer = search(NimState.from_text("5 0"), settings, Limits(nodes=3000))
        assert answer.best_move == 1  # leaves 4: the only winning move
        return
    for text, depth in itertools.product(POSITIONS, (1, 2, 3, 5)):
        answer = search(NimState.from_text(text), settings, Limits(depth=depth))
        assert answer.score.value == minimax_value(text, depth), f"{algorithm} at {text!r}, depth {depth}"
        assert answer.best_move in NimState.from_text(text).legal_moves()


@pytest.fixture
def forked_pool(monkeypatch: pytest.MonkeyPatch) -> Iterator[EnginePool]:
    """A pool of two workers that know the game registered in this process.

    A game added for real is a line in ``games/__init__.py``, which a spawned worker reads
    when it starts; a game registered by a test exists only in this process, so here the
    workers are forked (they start with this process's registry) instead of spawned."""
    fork = multiprocessing.get_context("fork")
    monkeypatch.setattr(pool_module.multiprocessing, "get_context", lambda _method: fork)
    with EnginePool(workers=2, hash_megabytes=1) as pool:
        yield pool


@pytest.mark.usefixtures("nim_registered")
@pytest.mark.parametrize("algorithm", ["minimax", "pvs", "star2"])
def test_new_game_runs_on_the_pool(forked_pool: EnginePool, algorithm: str) -> None:
    """Two workers (a root split for minimax and Star2, Lazy SMP for PVS) answer what one
    search in this process answers."""
    settings = options.exact(SearchSettings(algorithm=algorithm, threads=2))
    for text in POSITIONS:
        forked_pool.clear_table()  # a new game: nothing known from the last position's search
        request = SearchRequest(game="nim", position=text, settings=settings, limits=Limits(depth=4))
        finished = [event for event in forked_pool.search(request) if isinstance(event, Finished)][-1]
        assert finished.error is None
        assert finished.score.value == minimax_value(text, 4), f"{algorithm} at {text!r}"


# ------------------------------------------------------------- an algorithm: greedy
def run(state: GameState, context: SearchContext) -> Finished:
    """One-ply greedy choice: the move whose resulting position EVAL likes best (a finished
    game scored as UTILITY). Minimax at depth 1, written without the shared node."""
    control = context.control
    best_move, best_value = None, -float("inf")
    for move in context.root_moves or state.legal_moves():
        state.play(move)
        control.count_node()
        value = -(terminal_score(state, 1) if state.is_terminal() else state.evaluate(state.to_move()))
        state.undo()
        if value > best_value:
            best_move, best_value = move, value
    return Finished(
        search_id=context.search_id,
        best_move=best_move,
        score=to_report(best_value, state.to_move(), type(state)),
        pv=(best_move,) if best_move is not None else (),
        depth=1,
        seldepth=1,
        nodes=control.nodes,
        nps=control.nps(),
        time=control.elapsed(),
    )


@pytest.fixture
def greedy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """The one entry a new algorithm adds to ``ai.search.ALGORITHMS``."""
    spec = algorithms.AlgorithmSpec("greedy", __name__, "one-ply greedy choice", handles_chance=False)
    monkeypatch.setitem(algorithms.ALGORITHMS, spec.name, spec)


@pytest.mark.usefixtures("greedy_registered", "nim_registered")
@pytest.mark.parametrize("game", ["tictactoe", "nim"])
def test_new_algorithm_runs_by_name(game: str) -> None:
    state = games.new_game(game)
    answer = search(state, SearchSettings(algorithm="greedy"), Limits(depth=1))
    exact_minimax = options.exact(SearchSettings(algorithm="minimax", iterative_deepening=False))
    assert answer.score.value == search(state, exact_minimax, Limits(depth=1)).score.value
    assert answer.best_move in state.legal_moves() and answer.nodes == len(state.legal_moves())
    assert "greedy" in algorithms.algorithms_for(type(state))
