"""The per-node observer, for every algorithm: the tree view's only source.

Checked on small searches: ``entered``/``left`` nest like a stack (each ``left`` closes the
most recent open ``entered`` of the same path), the root is entered first and left last,
every path is a legal line from the root (chance outcomes included), cut-offs name legal
siblings of the node that were not searched, and the root's last value is the answer.
Watching must not change the search: same move, score and node count with and without.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from ai.engine import search
from ai.events import Finished
from ai.observer import RecordingObserver
from ai.settings import Limits, SearchSettings
from ai.tt import Bound
from games import CHANCE, GameState, new_game

DEPTH_FIRST = ["minimax", "alphabeta", "pvs", "mtdf"]
CHANCE_ALGORITHMS = ["expectiminimax", "star1", "star2"]


def backgammon_checker_play(seed: int = 4) -> GameState:
    """A backgammon position with the dice rolled and a few plays to choose from."""
    rng = random.Random(seed)
    state = new_game("backgammon", "4HPwATDgc/ABMA:cAkAAAAAAAAA")
    state.play("roll")
    state.play((3, 1))
    for _ in range(6):
        if state.to_move() == CHANCE:
            outcomes = state.chance_outcomes()
            state.play(rng.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0])
        else:
            state.play(rng.choice([move for move in state.legal_moves() if move not in ("double", "drop")]))
    while state.to_move() == CHANCE or state.legal_moves() in (["roll", "double"], ["take", "drop"]):
        state.play(state.chance_outcomes()[0][0] if state.to_move() == CHANCE else state.legal_moves()[0])
    return state


def is_roll(move: Any) -> bool:
    return isinstance(move, tuple) and len(move) == 2 and all(isinstance(die, int) for die in move)


def watched(state: GameState, settings: SearchSettings, limits: Limits) -> tuple[RecordingObserver, Finished]:
    observer = RecordingObserver()
    return observer, search(state, settings, limits, observer=observer)


def check_walk(state: GameState, calls: list[tuple[Any, ...]], probes: bool = False) -> None:
    """Stack discipline, root first and last, legal paths, honest cut-offs.

    ``probes``: Star2 first probes every outcome of a chance node cheaply, then searches them
    in turn; what a cut-off skips is the second search, so a skipped outcome may have been
    entered once already (by its probe)."""
    assert calls and calls[0][:2] == ("entered", ())
    assert [call for call in calls if call[0] != "cutoff"][-1][:2] == ("left", ())
    open_paths: list[tuple[Any, ...]] = []
    searched_children: dict[tuple[Any, ...], set[Any]] = {}
    for call in calls:
        kind, path = call[0], call[1]
        if kind == "entered":
            if path:
                assert open_paths and path[:-1] == open_paths[-1], f"{path} entered outside its parent"
                searched_children[path[:-1]].add(path[-1])
            searched_children[path] = set()  # this visit's children (iterations revisit nodes)
            open_paths.append(path)
        elif kind == "left":
            assert open_paths and open_paths[-1] == path, f"{path} left out of order"
            open_paths.pop()
            assert isinstance(call[3], Bound)
        else:
            assert open_paths and open_paths[-1] == path, "a cut-off is reported at the open node"
            node = replay(state, path)
            legal = node.legal_moves()
            assert call[2] in legal
            assert all(move in legal for move in call[3])
            if not probes:
                assert not set(call[3]) & searched_children.get(path, set()) - {call[2]}
    assert open_paths == []
    for path in {call[1] for call in calls}:
        replay(state, path)  # every path is a legal line


def replay(state: GameState, path: tuple[Any, ...]) -> GameState:
    node = state.copy()
    for move in path:
        if node.to_move() == CHANCE:
            assert move in [outcome for outcome, _ in node.chance_outcomes()]
        else:
            assert move in node.legal_moves(), f"{move!r} is not legal after {path}"
        node.play(move)
    return node


@pytest.mark.parametrize("algorithm", DEPTH_FIRST)
@pytest.mark.parametrize("tt", [False, True])
def test_depth_first_algorithms_show_a_well_formed_walk(algorithm: str, tt: bool) -> None:
    state = new_game("tictactoe", "x...o....")
    settings = SearchSettings(algorithm=algorithm, transposition_table=tt, quiescence=False)
    observer, answer = watched(state, settings, Limits(depth=4))
    check_walk(state, observer.calls)
    root_values = [call[2] for call in observer.calls if call[0] == "left" and call[1] == ()]
    assert root_values[-1] == answer.score.value
    if algorithm != "minimax":
        assert any(call[0] == "cutoff" for call in observer.calls)
    else:
        assert not any(call[0] == "cutoff" for call in observer.calls)


@pytest.mark.parametrize("algorithm", CHANCE_ALGORITHMS)
def test_chance_algorithms_show_dice_in_the_walk(algorithm: str) -> None:
    state = backgammon_checker_play()
    observer, answer = watched(state, SearchSettings(algorithm=algorithm), Limits(depth=2))
    check_walk(state, observer.calls, probes=algorithm == "star2")
    dice_entered = [call for call in observer.calls if call[0] == "entered" and call[1] and is_roll(call[1][-1])]
    assert dice_entered, "the walk goes through chance nodes"
    assert answer.best_move is not None


@pytest.mark.parametrize(("game", "position"), [("tictactoe", "x...o...."), ("othello", None)])
def test_mcts_shows_each_iteration_as_a_walk_down_and_back(game: str, position: str | None) -> None:
    state = new_game(game, position)
    observer, answer = watched(state, SearchSettings(algorithm="mcts", seed=3), Limits(nodes=2000))
    check_walk(state, observer.calls)
    root_entries = sum(1 for call in observer.calls if call[0] == "entered" and call[1] == ())
    assert root_entries == sum(stat.visits for stat in answer.root_moves)
    assert all(call[3:5] == (float("-inf"), float("inf")) for call in observer.calls if call[0] == "entered")


@pytest.mark.parametrize(
    ("game", "algorithm"),
    [("tictactoe", name) for name in DEPTH_FIRST]
    + [("chess", "pvs"), ("checkers", "alphabeta"), ("othello", "mtdf"), ("othello", "mcts")]
    + [("backgammon", name) for name in CHANCE_ALGORITHMS],
)
def test_watching_does_not_change_the_search(game: str, algorithm: str) -> None:
    state = backgammon_checker_play() if game == "backgammon" else new_game(game)
    settings = SearchSettings(algorithm=algorithm, seed=1)
    limits = Limits(nodes=3000) if algorithm == "mcts" else Limits(depth=2 if game in ("chess", "backgammon") else 3)
    plain = search(state, settings, limits)
    _, seen = watched(state, settings, limits)
    assert (seen.best_move, seen.score, seen.nodes, seen.pv) == (plain.best_move, plain.score, plain.nodes, plain.pv)
