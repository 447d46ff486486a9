"""Every event of every algorithm survives pickling: it crosses a process boundary from a
worker of the pool to the front end, carrying the game's move values."""

from __future__ import annotations

import pickle

import pytest

from games import get_game, new_game

from ai.engine import search
from ai.events import CurrentMove, Finished, Iteration, SearchEvent
from ai.search import ALGORITHMS
from ai.settings import Limits, SearchSettings

GAMES = {"minimax": "chess", "alphabeta": "chess", "pvs": "checkers", "mtdf": "othello", "native": "chess"}
"""Each depth-first algorithm on another deterministic game; the chance family on backgammon."""


@pytest.mark.parametrize("algorithm", sorted(ALGORITHMS))
def test_every_event_round_trips_through_pickle(algorithm: str) -> None:
    game = GAMES.get(algorithm, "backgammon")
    if ALGORITHMS[algorithm].needs_native and get_game(game).NATIVE_SEARCH is None:
        pytest.skip(f"{game}'s compiled search is not built")
    state = new_game(game)
    if game == "backgammon":
        state.play(state.chance_outcomes()[3][0])  # a roll: a decision root with moves
    events: list[SearchEvent] = []
    limits = Limits(nodes=2_000) if algorithm == "mcts" else Limits(depth=2)
    answer = search(state, SearchSettings(algorithm=algorithm, book=False), limits, on_event=events.append)
    events.append(answer)
    kinds = {type(event) for event in events}
    assert Finished in kinds and Iteration in kinds
    if algorithm not in ("mcts", "native"):  # no root-move loop in Python to report
        assert CurrentMove in kinds
    for event in events:
        assert pickle.loads(pickle.dumps(event)) == event
