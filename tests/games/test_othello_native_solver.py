"""The native Othello endgame solver (games/othello/_solver.c) against the pure-Python one
and the FFO suite: same exact values, legal best moves that reach them, stopping, bad input,
and the one module (games.othello.exact) that picks the solver."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from games.othello import PASS, EndgameSolver, OthelloState
from games.othello.bitboard import FULL, final_margin, flips, legal_moves_mask
from tests.native_extensions import import_extension, require_module

native, BACKEND = import_extension("games.othello._solver")
require_module(native is not None, "the native Othello solver", BACKEND)

DATA = Path(__file__).resolve().parent.parent / "data" / "othello"
ROOT = Path(__file__).resolve().parents[2]


def play(own: int, opponent: int, move: int) -> tuple[int, int]:
    """The child (own, opponent) after ``own`` plays ``move`` (``PASS`` = 64)."""
    if move == PASS:
        return opponent, own
    flipped = flips(own, opponent, move)
    assert flipped, f"move {move} flips nothing"
    return opponent ^ flipped, own | flipped | 1 << move


def random_endgames(seed: int, count: int, low: int, high: int) -> list[tuple[int, int]]:
    """``count`` positions (own, opponent) with ``low``..``high`` empties from seeded random
    games, passes and finished games included when the games reach them."""
    rng = random.Random(seed)
    positions: list[tuple[int, int]] = []
    while len(positions) < count:
        target = rng.randint(low, high)
        state = OthelloState.initial()
        while state.empties() > target and not state.is_terminal():
            state.play(rng.choice(state.legal_moves()))
        positions.append((state.own, state.opponent))
    return positions


def check_answer(own: int, opponent: int, score: int, move: int | None) -> None:
    """``move`` is legal and reaches ``score`` (checked by solving its child), or the game is
    over (``None``) or a pass is forced (``PASS``)."""
    moves = legal_moves_mask(own, opponent)
    if move is None:
        assert not moves and not legal_moves_mask(opponent, own)
        assert score == final_margin(own, opponent)
        return
    if move == PASS:
        assert not moves and legal_moves_mask(opponent, own)
    else:
        assert moves >> move & 1
    child_own, child_opponent = play(own, opponent, move)
    child_score, _, _ = native.Solver(table_bits=10).solve(child_own, child_opponent)
    assert -child_score == score


def test_same_values_as_the_python_solver_on_random_endgames() -> None:
    solver = native.Solver(table_bits=16)
    positions = random_endgames(seed=11, count=60, low=8, high=13) + random_endgames(seed=12, count=6, low=14, high=16)
    kinds = set()
    for own, opponent in positions:
        expected = EndgameSolver().solve(own, opponent)
        score, move, nodes = solver.solve(own, opponent)
        assert score == expected.score, (hex(own), hex(opponent))
        assert nodes >= 1
        check_answer(own, opponent, score, move)
        kinds.add("pass" if move == PASS else "over" if move is None else "move")
    assert "move" in kinds


def late_positions(kind: str) -> list[tuple[int, int]]:
    """Seeded random-game positions with at most 14 empties where the side to move must pass
    (``pass``) or the game is over (``over``)."""
    found = []
    for seed in range(400):
        rng = random.Random(seed)
        state = OthelloState.initial()
        while not state.is_terminal():
            if state.empties() <= 14:
                forced = state.legal_moves() == [PASS]
                if kind == "pass" and forced:
                    found.append((state.own, state.opponent))
                    break
            state.play(rng.choice(state.legal_moves()))
        if kind == "over" and state.empties() > 0:
            found.append((state.own, state.opponent))  # ended with empty squares left
        if len(found) >= 5:
            return found
    raise AssertionError(f"no {kind} positions in 400 random games")


@pytest.mark.parametrize("kind", ["pass", "over"])
def test_forced_passes_and_finished_games(kind: str) -> None:
    for own, opponent in late_positions(kind):
        score, move, _ = native.Solver().solve(own, opponent)
        assert score == EndgameSolver().solve(own, opponent).score
        assert move == (PASS if kind == "pass" else None)
        check_answer(own, opponent, score, move)


def test_full_board_and_wipe_out() -> None:
    solver = native.Solver()
    black = 0x00000000FFFFFFFF
    assert solver.solve(black, FULL ^ black) == (0, None, 1)
    assert solver.solve(0x0000001818000000, 0)[0:2] == (64, None)  # the opponent has no disc left


def load_obf(name: str) -> list[tuple[str, dict[str, int]]]:
    problems = []
    for line in (DATA / name).read_text().splitlines():
        if not line.strip():
            continue
        position, *scored = (part.strip() for part in line.split(";"))
        problems.append((position, {m.lower(): int(s) for m, s in (item.split(":") for item in scored if item)}))
    return problems


@pytest.mark.parametrize("number", range(1, 20))
def test_ffo_1_to_19(number: int) -> None:
    position, scores = load_obf("fforum-1-19.obf")[number - 1]
    state = OthelloState.from_text(position)
    score, move, _ = native.Solver().solve(state.own, state.opponent)
    assert score == max(scores.values())
    assert scores.get(state.move_name(move)) == score


@pytest.mark.slow
@pytest.mark.parametrize("number", [40, 44])
def test_ffo_40_and_44(number: int) -> None:
    position, scores = load_obf("fforum-40-59.obf")[number - 40]
    state = OthelloState.from_text(position)
    score, move, _ = native.Solver().solve(state.own, state.opponent)
    assert score == max(scores.values())
    assert scores.get(state.move_name(move)) == score


def test_windows_give_true_bounds() -> None:
    solver = native.Solver()
    for own, opponent in random_endgames(seed=5, count=12, low=10, high=14):
        exact, _, _ = solver.solve(own, opponent)
        for alpha, beta in [(-65, 0), (0, 1), (exact - 1, exact + 1), (exact, exact + 2), (exact - 3, exact)]:
            if not -65 <= alpha < beta <= 65:
                continue
            value, _, _ = native.Solver().solve(own, opponent, alpha=alpha, beta=beta)
            if value <= alpha:
                assert exact <= value
            elif value >= beta:
                assert exact >= value
            else:
                assert value == exact


def never_flipped(own: int, opponent: int) -> int:
    """How many ``own`` discs no legal continuation ever flips, whoever moves first (brute
    force over every line of play): the truth that stable-disc counting may only undercount."""
    stable = own
    seen: set[tuple[int, int, bool]] = set()

    def walk(mine: int, theirs: int, my_turn: bool) -> None:
        nonlocal stable
        if (mine, theirs, my_turn) in seen or not stable:
            return
        seen.add((mine, theirs, my_turn))
        stable &= mine
        mover, other = (mine, theirs) if my_turn else (theirs, mine)
        moves = legal_moves_mask(mover, other)
        if not moves:
            if legal_moves_mask(other, mover):
                walk(mine, theirs, not my_turn)
            return
        while moves:
            bit = moves & -moves
            moves ^= bit
            flipped = flips(mover, other, bit.bit_length() - 1)
            new_mover, new_other = mover | flipped | bit, other ^ flipped
            walk(*((new_mover, new_other) if my_turn else (new_other, new_mover)), not my_turn)

    walk(own, opponent, True)
    walk(own, opponent, False)
    return stable.bit_count()


def test_stable_discs_never_exceed_the_truth() -> None:
    solver = native.Solver()
    checked = 0
    for own, opponent in random_endgames(seed=3, count=40, low=4, high=7):
        found = solver.stable_discs(own, opponent)
        truth = never_flipped(own, opponent)
        assert found <= truth, (hex(own), hex(opponent))
        checked += found > 0
    assert checked > 5
    assert solver.stable_discs(FULL, 0) == 64


def test_a_raising_poll_stops_the_solve() -> None:
    position, _ = load_obf("fforum-40-59.obf")[5]  # FFO #45: minutes unstopped
    state = OthelloState.from_text(position)
    calls: list[tuple[int, bool]] = []

    class Enough(Exception):
        pass

    def poll(nodes: int, check: bool) -> None:
        calls.append((nodes, check))
        if len(calls) == 3:
            raise Enough

    solver = native.Solver(poll_interval=10_000)
    with pytest.raises(Enough):
        solver.solve(state.own, state.opponent, poll)
    assert len(calls) == 3 and all(check for _, check in calls)
    assert all(nodes >= 10_000 and nodes < 10_100 for nodes, _ in calls)
    # The solver is usable again, and a full solve ends with one check=False report.
    small = load_obf("fforum-1-19.obf")[0][0]
    state = OthelloState.from_text(small)
    calls.clear()
    score, _, nodes = solver.solve(state.own, state.opponent, lambda n, c: calls.append((n, c)))
    assert score == 18 and calls[-1][1] is False and sum(n for n, _ in calls) == nodes


def test_stop_from_another_thread() -> None:
    position, _ = load_obf("fforum-40-59.obf")[5]
    state = OthelloState.from_text(position)
    solver = native.Solver(poll_interval=4096)
    started = threading.Event()
    polls_after_stop: list[int] = []
    outcome: list[BaseException] = []

    def poll(nodes: int, check: bool) -> None:
        started.set()
        if stop_sent.is_set():
            polls_after_stop.append(nodes)

    stop_sent = threading.Event()

    def run() -> None:
        try:
            solver.solve(state.own, state.opponent, poll)
        except BaseException as error:  # noqa: BLE001 - the test inspects it
            outcome.append(error)

    worker = threading.Thread(target=run)
    worker.start()
    assert started.wait(60)
    with pytest.raises(RuntimeError, match="already solving"):
        solver.solve(state.own, state.opponent)  # one solve at a time per Solver
    stop_sent.set()
    solver.stop()
    worker.join(60)
    assert not worker.is_alive()
    assert len(outcome) == 1 and isinstance(outcome[0], native.SolveStopped)
    assert len(polls_after_stop) <= 2  # it stops at its next poll (4096 nodes, well under 10 ms)


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "message"),
    [
        ((-1, 0), {}, ValueError, "own must be a 64-bit bitboard"),
        ((0, 1 << 64), {}, ValueError, "opponent must be a 64-bit bitboard"),
        ((1, 1), {}, ValueError, "share a square"),
        (("x", 0), {}, TypeError, "own must be an int"),
        ((0, 1.5), {}, TypeError, "opponent must be an int"),
        ((1, 2), {"poll": 3}, TypeError, "poll must be callable"),
        ((1, 2), {"alpha": 5, "beta": 5}, ValueError, "alpha < beta"),
        ((1, 2), {"alpha": -100}, ValueError, "alpha < beta"),
    ],
)
def test_bad_input(args: tuple[object, ...], kwargs: dict[str, object], error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        native.Solver().solve(*args, **kwargs)


@pytest.mark.parametrize(("kwargs", "message"), [({"table_bits": 2}, "table_bits"), ({"poll_interval": 0}, "poll_interval")])
def test_bad_solver_settings(kwargs: dict[str, int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        native.Solver(**kwargs)


def test_exact_picks_the_native_solver_and_can_be_told_not_to() -> None:
    from games.othello import exact

    assert exact.NATIVE and exact.SOLVER_BACKEND.startswith("native")
    assert exact.SOLVER_EMPTIES == exact.NATIVE_SOLVER_EMPTIES
    code = "from games.othello import exact; print(exact.NATIVE, exact.SOLVER_EMPTIES, exact.SOLVER_BACKEND)"
    environment = dict(os.environ, PLYGROUND_PYTHON_SOLVER="1")
    shown = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=environment, capture_output=True, text=True,
                           check=True).stdout.split()
    assert shown[:3] == ["False", str(exact.PYTHON_SOLVER_EMPTIES), "python"]


def test_state_solve_uses_the_chosen_solver() -> None:
    from games.othello import exact

    position, scores = load_obf("fforum-1-19.obf")[2]
    state = OthelloState.from_text(position)
    exact.native_solver().clear()  # this thread's table outlives solves: start it cold
    polled: list[int] = []
    assert state.solve_best_move(20, poll=lambda nodes, check: polled.append(nodes)) is not None
    score, move = state.solve_best_move(20)  # type: ignore[misc]
    assert score == max(scores.values()) and scores[state.move_name(move)] == score
    assert sum(polled) > 1000
    # The table is kept: the same solve again is much cheaper (its entries are true bounds).
    again: list[int] = []
    assert state.solve_best_move(20, poll=lambda nodes, check: again.append(nodes)) == (score, move)
    assert sum(again) < sum(polled) / 10
