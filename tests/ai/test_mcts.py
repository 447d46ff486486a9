"""Monte Carlo tree search (UCT + MCTS-Solver): finds wins, proves them, is reproducible.

Independent truths: brute-force negamax written here (tic-tac-toe wins, Othello endgames
with a unique winning move) and expectiminimax (``ai.search.expectiminimax``) for the dice
game of ``test_chance``.
"""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import pytest

from games import new_game
from games.base import CHANCE, GameState

from ai.context import SearchContext
from ai.control import SearchControl
from ai.engine import search
from ai.events import Finished, Iteration, SearchEvent
from ai.search import mcts
from ai.settings import Limits, SearchSettings
from tests.ai.test_chance import DiceTreeState, WinLossDiceTreeState, backgammon_positions, fixed_depth
from tests.ai.stop_clock import STOP_BUDGET, stop_latency_in_thread


def run_mcts(
    state: GameState,
    limits: Limits,
    on_event: Any = None,
    should_stop: Any = None,
    **settings: Any,
) -> Finished:
    """``mcts.run`` called directly with a ``SearchContext``."""
    context = SearchContext(
        settings=SearchSettings(algorithm="mcts", **settings),
        control=SearchControl(limits, should_stop),
    )
    if on_event is not None:
        context.emit = on_event
    return mcts.run(state, context)


def negamax(state: GameState) -> float:
    """The exact game value for the side to move (brute force, deterministic games)."""
    if state.is_terminal():
        return state.utility(state.to_move())
    best = -float("inf")
    for move in state.legal_moves():
        state.play(move)
        best = max(best, -negamax(state))
        state.undo()
    return best


def move_values(state: GameState) -> dict[str, float]:
    """Exact value of each root move for the side to move."""
    values = {}
    for move in state.legal_moves():
        child = state.result(move)
        values[state.move_name(move)] = -negamax(child)
    return values


# ---------------------------------------------------------------------- tic-tac-toe
@pytest.mark.parametrize(
    ("position", "winning_move"),
    [
        ("xx.oo....", "c3"),  # x completes the top row
        ("x.o.x..o.", "c1"),  # x completes the diagonal
        ("oo.xx.x.o", "c2"),  # x wins on the middle row (o threatens the top row)
        ("x.xo.o...", "b3"),  # x completes the top row before o completes the middle one
    ],
)
def test_finds_and_proves_a_win_in_one(position: str, winning_move: str) -> None:
    state = new_game("tictactoe", position)
    assert move_values(state)[winning_move] == 1
    answer = run_mcts(state, Limits(nodes=20_000))
    assert state.move_name(answer.best_move) == winning_move
    assert answer.score.win_in_plies == 1
    assert not answer.stopped  # the solver proved the root: no need to use the budget


def forced_wins_in_three(count: int) -> list[tuple[GameState, set[str]]]:
    """Tic-tac-toe positions where the side to move has no immediate win but forces one in
    three plies (a fork), with the set of moves that do so (brute force)."""
    found: list[tuple[GameState, set[str]]] = []
    rng = random.Random(4)
    seen: set[str] = set()
    while len(found) < count:
        state = new_game("tictactoe")
        for _ in range(rng.randrange(2, 5)):
            if state.is_terminal():
                break
            state.play(rng.choice(state.legal_moves()))
        if state.is_terminal() or state.to_text() in seen:
            continue
        seen.add(state.to_text())
        wins_now = []
        forcing = set()
        for move in state.legal_moves():
            child = state.result(move)
            if child.is_terminal() and child.utility(state.to_move()) > 0:
                wins_now.append(move)
            elif (
                all(
                    any(
                        (grandchild := child.result(reply).result(answer)).is_terminal()
                        and grandchild.utility(state.to_move()) > 0
                        for answer in child.result(reply).legal_moves()
                    )
                    for reply in child.legal_moves()
                )
                and child.legal_moves()
            ):
                forcing.add(state.move_name(move))
        if not wins_now and forcing:
            found.append((state, forcing))
    return found


def test_finds_and_proves_a_forced_win_in_three_plies() -> None:
    for state, forcing in forced_wins_in_three(4):
        answer = run_mcts(state, Limits(nodes=60_000))
        assert state.move_name(answer.best_move) in forcing, state.to_text()
        assert answer.score.win_in_plies == 3, state.to_text()


def test_proves_a_loss_and_delays_it() -> None:
    state = new_game("tictactoe", "xx.o.....")  # o to move must block at c3
    assert state.to_move() == 1
    answer = run_mcts(state, Limits(nodes=60_000))
    assert state.move_name(answer.best_move) == "c3"
    lost = new_game("tictactoe", "x.x.o.x.o")  # o to move; x threatens two lines
    values = move_values(lost)
    assert max(values.values()) == -1
    answer = run_mcts(lost, Limits(nodes=60_000))
    assert answer.score.win_in_plies is not None and answer.score.win_in_plies < 0
    assert answer.score.win_in_plies == -2  # o blocks one line, x wins on the other


@pytest.mark.parametrize(("position", "only_draw"), [(".x.xo.o..", "c3"), ("x.o.ox...", "a1")])
def test_the_solver_proves_a_draw_and_avoids_the_losing_moves(position: str, only_draw: str) -> None:
    state = new_game("tictactoe", position)
    values = move_values(state)
    assert values[only_draw] == 0 and sorted(values.values()) == [-1] * (len(values) - 1) + [0]
    answer = run_mcts(state, Limits(nodes=200_000))
    assert not answer.stopped  # proven before the budget ran out
    assert state.move_name(answer.best_move) == only_draw
    assert answer.score.value == 0 and answer.score.win_in_plies is None


# -------------------------------------------------------------------------- Othello
def othello_endgames(empties: int, count: int, seed: int) -> list[tuple[GameState, str]]:
    """Random Othello positions with ``empties`` empty squares where exactly one move wins
    (brute force), with that move."""
    rng = random.Random(seed)
    found: list[tuple[GameState, str]] = []
    while len(found) < count:
        state = new_game("othello")
        while not state.is_terminal() and state.to_text()[:64].count("-") > empties:
            state.play(rng.choice(state.legal_moves()))
        if state.is_terminal() or len(state.legal_moves()) < 3:
            continue
        winners = [move for move, value in move_values(state).items() if value > 0]
        if len(winners) == 1:
            found.append((new_game("othello", state.to_text()), winners[0]))
    return found


def test_finds_the_only_winning_move_in_small_othello_endgames() -> None:
    for state, winning_move in othello_endgames(empties=7, count=5, seed=2):
        answer = run_mcts(state, Limits(nodes=40_000))
        assert state.move_name(answer.best_move) == winning_move, state.to_text()


# ------------------------------------------------------------------------- dice games
def test_dice_game_best_move_agrees_with_expectiminimax() -> None:
    """Chance nodes are sampled by their probabilities: with enough playouts the most visited
    move is expectiminimax's best whenever that one is clearly best."""
    checked = 0
    for seed in range(60):
        state = DiceTreeState(seed, max_length=5)
        if state.is_terminal() or state.to_move() == CHANCE or len(state.legal_moves()) < 2:
            continue
        exact = fixed_depth("expectiminimax", state, 5)
        values = sorted((stat.value for stat in exact.root_moves), reverse=True)
        if values[0] - values[1] < 2 * DiceTreeState.EVAL_SCALE:  # a near tie: either is fine
            continue
        answer = run_mcts(state, Limits(nodes=20_000))
        assert answer.best_move == exact.best_move, seed
        checked += 1
    assert checked >= 5


def test_chance_nodes_are_proven_only_when_every_outcome_agrees() -> None:
    for seed in range(30):
        state = WinLossDiceTreeState(seed, max_length=4)
        if state.is_terminal() or state.to_move() == CHANCE:
            continue
        answer = run_mcts(state, Limits(nodes=30_000))
        exact = fixed_depth("expectiminimax", state, 4).score
        if answer.score.win_in_plies is not None:  # a proof must be a sure win (or loss)
            assert exact.win_in_plies is not None and (exact.win_in_plies > 0) == (
                answer.score.win_in_plies > 0
            )
            assert abs(exact.win_in_plies) == abs(answer.score.win_in_plies)


def test_backgammon_playouts_random_and_eval() -> None:
    state = backgammon_positions(1, seed=9, cube=False)[0]
    legal = state.legal_moves()
    for playout in ("random", "eval"):
        answer = run_mcts(state, Limits(nodes=3_000), playout=playout)
        assert answer.best_move in legal
        assert sum(stat.visits for stat in answer.root_moves) > 0
        assert answer.score.win_in_plies is None


def test_chance_root_has_no_move_but_a_value() -> None:
    from games.backgammon.state import BackgammonState

    state = BackgammonState.initial(cube_enabled=False)
    state.play(state.chance_outcomes()[0][0])
    state.play(state.legal_moves()[0])
    assert state.to_move() == CHANCE
    answer = run_mcts(state, Limits(nodes=2_000), playout="eval")
    assert answer.best_move is None and answer.error is None
    assert answer.root_moves and all(stat.visits > 0 for stat in answer.root_moves)


# ---------------------------------------------------------------------- reproducibility
def fingerprint(answer: Finished) -> tuple[Any, ...]:
    return (answer.best_move, answer.score, answer.pv, answer.nodes, answer.depth, answer.root_moves)


@pytest.mark.parametrize(
    ("game", "position", "playout"),
    [("tictactoe", None, "random"), ("othello", None, "random"), ("othello", None, "eval")],
)
def test_same_seed_same_result_and_seeds_differ(game: str, position: str | None, playout: str) -> None:
    state = new_game(game, position)
    first = run_mcts(state, Limits(nodes=5_000), seed=7, playout=playout)
    again = run_mcts(state, Limits(nodes=5_000), seed=7, playout=playout)
    assert fingerprint(first) == fingerprint(again)
    others = [run_mcts(state, Limits(nodes=5_000), seed=seed, playout=playout) for seed in (8, 9)]
    assert any(fingerprint(other) != fingerprint(first) for other in others)


def test_same_seed_same_result_with_dice() -> None:
    state = backgammon_positions(1, seed=4, cube=False)[0]
    first = run_mcts(state, Limits(nodes=2_000), seed=3)
    assert fingerprint(first) == fingerprint(run_mcts(state, Limits(nodes=2_000), seed=3))
    assert fingerprint(first) != fingerprint(run_mcts(state, Limits(nodes=2_000), seed=4))


def test_the_engine_runs_mcts_with_the_settings_seed() -> None:
    state = new_game("othello")
    settings = SearchSettings(algorithm="mcts", seed=5)
    first = search(state, settings, Limits(nodes=3_000))
    assert fingerprint(first) == fingerprint(search(state, settings, Limits(nodes=3_000)))


# ------------------------------------------------------------------ reports and limits
def test_iteration_reports_have_the_engine_shape() -> None:
    state = new_game("othello")
    events: list[SearchEvent] = []
    ticks = iter(range(10**9))
    context = SearchContext(
        settings=SearchSettings(algorithm="mcts"),
        control=SearchControl(Limits(nodes=20_000), clock=lambda: next(ticks) * 0.01),
        emit=events.append,
    )
    answer = mcts.run(state, context)
    iterations = [event for event in events if isinstance(event, Iteration)]
    assert len(iterations) >= 2  # periodic reports, plus the final one
    last = iterations[-1]
    assert last.pv == answer.pv and last.pv[0] == answer.best_move
    assert 1 <= last.depth <= last.seldepth
    most_visits = max(stat.visits for stat in answer.root_moves)
    assert answer.best_move in [stat.move for stat in answer.root_moves if stat.visits == most_visits]
    assert all(-64 <= stat.value <= 64 for stat in answer.root_moves)  # disc margins


@pytest.mark.parametrize("depth", [1, 2])
def test_depth_limit_is_a_budget_of_iterations(depth: int) -> None:
    """Depth d = d * ITERATIONS_PER_DEPTH iterations: depth 1 is not one lonely iteration."""
    answer = run_mcts(new_game("othello"), Limits(depth=depth), playout="eval", playout_depth=2)
    assert not answer.stopped
    assert sum(stat.visits for stat in answer.root_moves) == depth * mcts.ITERATIONS_PER_DEPTH
    assert answer.best_move in new_game("othello").legal_moves()


def test_eval_playouts_are_guided_by_the_evaluation_and_seeded() -> None:
    """The greedy playout differs from a random one, and the same seed repeats it."""
    state = new_game("checkers")
    guided = [run_mcts(state, Limits(nodes=3000), playout="eval", playout_depth=6, seed=1) for _ in range(2)]
    assert guided[0].root_moves == guided[1].root_moves
    random_answer = run_mcts(state, Limits(nodes=3000), playout="random", seed=1)
    assert guided[0].root_moves != random_answer.root_moves
    moves = state.legal_moves()
    chosen = mcts.greedy_move(state, moves)
    values = []
    for move in moves:
        state.play(move)
        values.append(state.evaluate(1 - state.to_move()))
        state.undo()
    assert values[moves.index(chosen)] == max(values)


def test_live_iterations_carry_root_move_visits() -> None:
    events: list[Any] = []
    answer = run_mcts(new_game("othello"), Limits(nodes=20_000), on_event=events.append, playout="eval")
    iterations = [event for event in events if isinstance(event, Iteration)]
    assert iterations and all(event.root_moves for event in iterations)
    assert iterations[-1].root_moves == answer.root_moves
    assert {stat.move for stat in answer.root_moves} <= set(new_game("othello").legal_moves())


def test_time_limit_is_honoured() -> None:
    started = time.perf_counter()
    answer = run_mcts(new_game("othello"), Limits(time=0.3))
    elapsed = time.perf_counter() - started
    assert answer.stopped and answer.best_move is not None
    assert elapsed < 0.3 + 0.2


def test_stop_flag_is_honoured_within_100_ms() -> None:
    reported = threading.Event()

    def on_event(event: SearchEvent) -> None:
        if isinstance(event, Iteration):
            reported.set()

    latency, answer = stop_latency_in_thread(
        lambda should_stop: run_mcts(new_game("othello"), Limits(), on_event, should_stop), reported
    )
    assert latency < STOP_BUDGET, f"{latency * 1000:.0f} ms of CPU time after the stop request"
    assert answer.stopped and answer.best_move is not None


def test_terminal_root_fails_fast_with_a_reason() -> None:
    answer = run_mcts(new_game("tictactoe", "xxxoo...."), Limits(nodes=1000))
    assert answer.best_move is None and answer.nodes == 0
    assert answer.error is not None and "game is over" in answer.error


@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({"playout": "heavy"}, "unknown playout"),
        ({"exploration": -1.0}, "exploration"),
        ({"playout": "eval", "playout_depth": 0}, "1 ply"),
    ],
)
def test_bad_settings_fail_fast(settings: dict[str, Any], words: str) -> None:
    answer = run_mcts(new_game("tictactoe"), Limits(nodes=1000), **settings)
    assert answer.best_move is None and answer.error is not None and words in answer.error


def test_a_move_exists_after_the_first_playouts() -> None:
    state = new_game("chess")
    answer = run_mcts(state, Limits(nodes=1))
    assert answer.stopped and answer.best_move in state.legal_moves()
