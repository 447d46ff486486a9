"""Alpha-beta, PVS and MTD(f) return exactly the minimax value.

On the same tree with the same EVAL -- quiescence, the Othello solver and the chess
selectivity switched off, since those change the tree -- every pruning algorithm, with and
without the transposition table, with and without move ordering, must answer what plain
minimax answers. Checked from every reachable tic-tac-toe position (depth-limited with the
open-lines EVAL, and to the end against an independent solver written here), and from
seeded random positions of checkers, Othello and chess.
"""

from __future__ import annotations

import functools
import itertools
import random

import pytest

from ai.engine import search
from ai.scores import WIN_SCORE
from ai.settings import Limits, SearchSettings
from games import new_game
from games.base import GameState

PRUNING_ALGORITHMS = ("alphabeta", "pvs", "mtdf")
CONFIGURATIONS = list(itertools.product(PRUNING_ALGORITHMS, (False, True), (False, True)))
"""(algorithm, transposition table, move ordering)."""
CONFIGURATION_IDS = [f"{name}-{'tt' if table else 'nott'}-{'ordered' if ordered else 'unordered'}" for name, table, ordered in CONFIGURATIONS]

SAME_TREE = dict(
    quiescence=False,
    solver_empties=0,
    check_extensions=False,
    null_move=False,
    late_move_reductions=False,
    quiescence_checks=False,
    see_pruning=False,
    futility_pruning=False,
    tt_megabytes=1,  # a fresh small table per search: no knowledge carried between positions
)
"""The settings that keep every algorithm on the same tree as minimax."""


def settings_for(algorithm: str, table: bool = True, ordered: bool = True, deepening: bool = False) -> SearchSettings:
    return SearchSettings(
        algorithm=algorithm,
        transposition_table=table,
        move_ordering=ordered,
        iterative_deepening=deepening,
        **SAME_TREE,  # type: ignore[arg-type]
    )


def value_of(state: GameState, settings: SearchSettings, depth: int) -> float:
    return search(state, settings, Limits(depth=depth)).score.value


# --------------------------------------------------------------------- tic-tac-toe
@functools.cache
def tictactoe_positions() -> tuple[GameState, ...]:
    """Every position reachable from the empty board (5,478), as fresh states."""
    seen: dict[str, GameState] = {}
    stack = [new_game("tictactoe")]
    while stack:
        state = stack.pop()
        text = state.to_text()
        if text in seen:
            continue
        seen[text] = state
        for move in state.legal_moves():
            stack.append(state.result(move))
    return tuple(new_game("tictactoe", text) for text in sorted(seen))


def open_positions() -> tuple[GameState, ...]:
    return tuple(state for state in tictactoe_positions() if not state.is_terminal())


@functools.cache
def reference_value(text: str, depth: int) -> float:
    """``reference_negamax`` of a position text, computed once per test session."""
    return reference_negamax(new_game("tictactoe", text), depth)


@functools.cache
def engine_minimax(text: str, depth: int) -> tuple[float, int]:
    """(value, nodes) of the engine's plain minimax, computed once per test session."""
    answer = search(new_game("tictactoe", text), settings_for("minimax"), Limits(depth=depth))
    return answer.score.value, answer.nodes


def reference_negamax(state: GameState, depth: int, ply: int = 0) -> float:
    """An independent depth-limited minimax (negamax) with the same scale: terminals are
    worth WIN - plies for the winner, the horizon is the game's EVAL."""
    if state.is_terminal():
        utility = state.utility(state.to_move())
        return 0 if utility == 0 else (WIN_SCORE - ply if utility > 0 else -WIN_SCORE + ply)
    if depth == 0:
        return state.evaluate(state.to_move())
    best = -float("inf")
    for move in state.legal_moves():
        state.play(move)
        best = max(best, -reference_negamax(state, depth - 1, ply + 1))
        state.undo()
    return best


@functools.cache
def exact_value(text: str) -> float:
    """The game-theoretic value of a tic-tac-toe position for the side to move, with the
    distance to the end: WIN - k for a win in k plies (the winner hurries, the loser
    delays), 0 for a draw. Memoised on the position text; shares no code with the engine."""
    state = new_game("tictactoe", text)
    if state.is_terminal():
        utility = state.utility(state.to_move())
        return 0 if utility == 0 else (WIN_SCORE if utility > 0 else -WIN_SCORE)
    best = -float("inf")
    for move in state.legal_moves():
        child = -exact_value(state.result(move).to_text())
        best = max(best, child - 1 if child > 0 else child + 1 if child < 0 else 0)
    return best


def test_there_are_5478_reachable_positions() -> None:
    assert len(tictactoe_positions()) == 5478


@pytest.mark.parametrize("depth", [2, 3])
def test_engine_minimax_matches_an_independent_negamax(depth: int) -> None:
    for state in open_positions():
        text = state.to_text()
        assert engine_minimax(text, depth)[0] == reference_value(text, depth), text


@pytest.mark.parametrize(("algorithm", "table", "ordered"), CONFIGURATIONS, ids=CONFIGURATION_IDS)
def test_tictactoe_depth_2_every_position(algorithm: str, table: bool, ordered: bool) -> None:
    settings = settings_for(algorithm, table, ordered)
    for state in open_positions():
        text = state.to_text()
        assert value_of(state, settings, 2) == reference_value(text, 2), text


@pytest.mark.parametrize("algorithm", PRUNING_ALGORITHMS)
@pytest.mark.parametrize(("table", "ordered"), [(False, False), (True, True)], ids=["bare", "tt-ordered"])
def test_tictactoe_depth_3_every_position(algorithm: str, table: bool, ordered: bool) -> None:
    """Same value as minimax; alpha-beta also never visits more nodes than minimax."""
    settings = settings_for(algorithm, table, ordered)
    for state in open_positions():
        text = state.to_text()
        answer = search(state, settings, Limits(depth=3))
        minimax_value, minimax_nodes = engine_minimax(text, 3)
        assert answer.score.value == minimax_value, text
        if algorithm == "alphabeta":
            assert answer.nodes <= minimax_nodes, text


@pytest.mark.parametrize(
    ("algorithm", "deepening"),
    [("alphabeta", False), ("mtdf", False), ("pvs", True), ("mtdf", True)],
    ids=["alphabeta", "mtdf", "pvs-iterative-aspiration", "mtdf-iterative"],
)
def test_tictactoe_full_depth_every_position_is_exact(algorithm: str, deepening: bool) -> None:
    """To the end of the game, including how many plies the win takes."""
    settings = settings_for(algorithm, table=True, ordered=True, deepening=deepening)
    for state in open_positions():
        assert value_of(state, settings, 9) == exact_value(state.to_text()), state.to_text()


@pytest.mark.slow
def test_alphabeta_prunes_the_empty_board_a_lot() -> None:
    """The textbook figure: 549,946 nodes for minimax to the end; alpha-beta far fewer."""
    empty = new_game("tictactoe")
    minimax = search(empty, settings_for("minimax"), Limits(depth=9))
    pruned = search(empty, settings_for("alphabeta", table=False, ordered=False), Limits(depth=9))
    assert minimax.nodes == 549_946
    assert minimax.score.value == pruned.score.value == 0
    assert pruned.nodes * 10 < minimax.nodes


# ------------------------------------------------------------------- other games
def random_positions(game: str, count: int, seed: int) -> list[GameState]:
    """Positions after seeded random playouts of 2..40 plies, rebuilt from their text so that
    no history (repetition rules) makes the tree depend on the path."""
    generator = random.Random(seed)
    positions: list[GameState] = []
    while len(positions) < count:
        state = new_game(game)
        for _ in range(generator.randrange(2, 40)):
            if state.is_terminal():
                break
            state.play(generator.choice(state.legal_moves()))
        if not state.is_terminal():
            positions.append(new_game(game, state.to_text()))
    return positions


def check_all_configurations(positions: list[GameState], depth: int) -> None:
    minimax = settings_for("minimax")
    for state in positions:
        expected = value_of(state, minimax, depth)
        for algorithm, table, ordered in CONFIGURATIONS:
            got = value_of(state, settings_for(algorithm, table, ordered), depth)
            assert got == expected, (state.to_text(), algorithm, table, ordered)
        deepened = value_of(state, settings_for("pvs", deepening=True), depth)
        assert deepened == expected, (state.to_text(), "pvs with iterative deepening and aspiration")



@pytest.mark.parametrize(("game", "count"), [("checkers", 20), ("othello", 16), ("chess", 4)])
def test_random_positions_depth_3(game: str, count: int) -> None:
    check_all_configurations(random_positions(game, count, seed=2024), depth=3)


@pytest.mark.slow
@pytest.mark.parametrize(("game", "count", "depth"), [("checkers", 40, 5), ("othello", 40, 4), ("chess", 30, 3)])
def test_more_random_positions(game: str, count: int, depth: int) -> None:
    check_all_configurations(random_positions(game, count, seed=7), depth=depth)
