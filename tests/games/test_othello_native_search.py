"""The compiled Othello search (``games/othello/_search.c``, ``games.othello.native``)
against independent truth: its move generator against perft (the literature's counts and
the Python rules); its values against the Python engine's PVS and plain minimax with the
``exact`` settings at the same depth, on positions of every phase, with forced passes in
and at the root, near the end within and beyond the solver's reach, and with the solver at
the Python search's reach; the engine's ``native`` algorithm for Othello; and bad input."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from ai.engine import search as engine_search
from ai.options import exact
from ai.search import algorithms_for
from ai.search.common import INTERIOR_SOLVER_EMPTIES
from ai.settings import Limits, SearchSettings
from bench import othello_native
from games.othello import PASS, OthelloState
from games.othello import native as compiled
from games.othello.bitboard import HOTPATH_BACKEND
from tests.native_extensions import require_module

require_module(compiled.NATIVE, "the compiled Othello search", HOTPATH_BACKEND)

HASH_MB = 4


class StopSearch(Exception):
    """Raised by a test's poll callback to stop a search."""


def random_position(rng: random.Random, plies: int) -> OthelloState:
    """The position after ``plies`` random moves (passes included), or earlier at a game's end."""
    state = OthelloState.initial()
    while len(state.history) < plies and not state.is_terminal():
        state.play(rng.choice(state.legal_moves()))
    return state


def positions_with_empties(seed: int, count: int, low: int, high: int) -> list[OthelloState]:
    """Positions of random games with ``low``..``high`` empty squares, not finished."""
    rng = random.Random(seed)
    found: list[OthelloState] = []
    while len(found) < count:
        state = random_position(rng, 60 - rng.randint(low, high))
        if not state.is_terminal() and low <= state.empties() <= high:
            found.append(state)
    return found


def positions_with_passes(seed: int, count: int, plies_ahead: int) -> list[OthelloState]:
    """Positions of random games where a forced pass comes within ``plies_ahead`` plies of
    some line (the root itself among them), not finished."""
    rng = random.Random(seed)
    found: list[OthelloState] = []
    while len(found) < count:
        state = OthelloState.initial()
        history: list[OthelloState] = []
        while not state.is_terminal():
            history.append(state.copy())
            state.play(rng.choice(state.legal_moves()))
            if state.legal_moves() == [PASS]:
                back = rng.randint(0, min(plies_ahead, len(history) - 1))
                found.append(state.copy() if back == 0 else history[-back])
                break
    return found[:count]


OPENINGS = [random_position(random.Random(seed), plies) for seed, plies in enumerate((2, 5, 8, 11, 14, 17, 20, 23))]
MIDGAMES = positions_with_empties(31, 8, 24, 40)
PASSES = positions_with_passes(32, 8, 3)
NEAR_END = positions_with_empties(33, 4, 4, 9) + positions_with_empties(34, 4, 12, 20)
POSITIONS = OPENINGS + MIDGAMES + PASSES + NEAR_END


def compiled_reports(state: OthelloState, depth: int, **options: Any) -> list[Any]:
    """Every iteration a fresh compiled searcher reports searching ``state`` to ``depth``."""
    reports: list[Any] = []
    searcher = OthelloState.native_searcher(HASH_MB)
    searcher.search_with(state, depth, lambda nodes, check: None, lambda report: reports.append(report) or False,
                         **options)
    return reports


def python_search(state: OthelloState, depth: int, algorithm: str, root_moves: tuple[int, ...] = (),
                  solver_empties: int = 0) -> tuple[float, int]:
    """The Python engine's value of ``state`` at ``depth`` (the side to move's view) and the
    depth it completed: fewer when no leaf met the depth limit (the value is exact)."""
    settings = dataclasses.replace(exact(SearchSettings(algorithm=algorithm, book=False)), solver_empties=solver_empties)
    finished = engine_search(state, settings, Limits(depth=depth), root_moves=root_moves)
    assert not finished.stopped and 1 <= finished.depth <= depth, (state.to_text(), depth, finished)
    score = finished.score
    return (score.value if score.view == state.to_move() else -score.value), finished.depth


def python_value(state: OthelloState, depth: int, algorithm: str, root_moves: tuple[int, ...] = (),
                 solver_empties: int = 0) -> float:
    """The Python engine's value of ``state`` at ``depth``, the side to move's view."""
    return python_search(state, depth, algorithm, root_moves, solver_empties)[0]


def deepening_ends_alike(state: OthelloState, reports: list[Any], depth: int, **python: Any) -> None:
    """The compiled iterations are 1, 2, ...; they end before ``depth`` only where the
    Python search's do: where no leaf met the depth limit."""
    completed = [report.depth for report in reports]
    assert completed == list(range(1, len(completed) + 1)), (state.to_text(), completed)
    if len(completed) < depth:
        assert python_search(state, depth, "pvs", **python)[1] == len(completed), state.to_text()


def test_the_positions_cover_what_they_claim() -> None:
    assert len(POSITIONS) >= 30
    assert len({state.to_text() for state in POSITIONS}) == len(POSITIONS)
    assert any(state.legal_moves() == [PASS] for state in PASSES)
    assert all(state.empties() <= 20 for state in NEAR_END)


# ------------------------------------------------------------------ moves
def test_perft_from_the_start_matches_the_literature() -> None:
    counts = [1, 4, 12, 56, 244, 1396, 8200, 55092, 390216]  # Aart Bik's Othello perft
    start = OthelloState.initial()
    for depth, count in enumerate(counts):
        assert compiled.native_perft(start, depth) == count, depth


def test_perft_equals_the_python_rules_with_passes_and_ends() -> None:
    for state in POSITIONS:
        for depth in (1, 2, 3):
            assert compiled.native_perft(state, depth) == state.perft(depth), (state.to_text(), depth)


# ------------------------------------------------------------------ values
@pytest.mark.parametrize("state", POSITIONS, ids=lambda state: state.to_text())
def test_values_equal_python_pvs_and_minimax_at_each_depth(state: OthelloState) -> None:
    """With no forward pruning the compiled search's value at depth d is the exact settings'
    minimax value at d, to the last bit of the double; its move is worth that value too."""
    reports = compiled_reports(state, 4)
    deepening_ends_alike(state, reports, 4)
    for report in reports:
        depth = report.depth
        message = f"{state.to_text()} depth {depth}"
        assert report.score == python_value(state, depth, "pvs"), message
        if depth <= 3:
            assert report.score == python_value(state, depth, "minimax"), message
        best = report.pv[0]
        assert best in state.legal_moves(), message
        assert python_value(state, depth, "pvs", root_moves=(best,)) == report.score, message


@pytest.mark.parametrize("state", MIDGAMES[:2] + PASSES[:2] + NEAR_END[4:6], ids=lambda state: state.to_text())
def test_values_equal_python_pvs_deeper(state: OthelloState) -> None:
    reports = compiled_reports(state, 6)
    for report in reports[4:]:
        assert report.score == python_value(state, report.depth, "pvs"), (state.to_text(), report.depth)


@pytest.mark.parametrize("state", NEAR_END, ids=lambda state: state.to_text())
def test_values_with_the_solver_equal_python_at_the_same_reach(state: OthelloState) -> None:
    """The solver on: the root solved up to ``reach`` empties, the tree up to the Python
    search's interior reach, in both searches; near the end or beyond the reach."""
    for reach in (0, 8, 14):
        interior = min(reach, INTERIOR_SOLVER_EMPTIES)
        reports = compiled_reports(state, 3, solver_empties=interior, root_solver_empties=reach)
        if state.empties() > reach:
            deepening_ends_alike(state, reports, 3, solver_empties=reach)
        else:  # solved by the third iteration at the latest (the last asked), then no deeper one
            assert reports[-1].depth <= 3
            assert reports[-1].score == state.solve(state.to_move(), reach) * OthelloState.EVAL_SCALE
        for report in reports:
            expected = python_value(state, report.depth, "pvs", solver_empties=reach)
            assert report.score == expected, (state.to_text(), reach, report.depth)


def test_the_interior_reach_is_the_python_searchs() -> None:
    assert compiled.INTERIOR_SOLVER_EMPTIES == INTERIOR_SOLVER_EMPTIES


def test_a_forced_pass_at_the_root_is_searched_as_a_move() -> None:
    state = next(state for state in PASSES if state.legal_moves() == [PASS])
    reports = compiled_reports(state, 3)
    assert all(report.pv[0] == PASS for report in reports)
    assert reports[-1].score == python_value(state, 3, "pvs")


def test_a_finished_game_reports_nothing_and_the_engine_scores_it() -> None:
    state = OthelloState.from_text("X" * 63 + "O X")
    assert state.is_terminal()
    assert compiled_reports(state, 3) == []
    finished = engine_search(state, SearchSettings(algorithm="native"), Limits(depth=3))
    assert finished.best_move is None
    assert finished.score.value == state.utility(finished.score.view) * OthelloState.EVAL_SCALE


def test_the_classic_model_is_searched_when_it_is_the_eval() -> None:
    """A searcher whose table holds values of one model clears it when the EVAL changes."""
    state = MIDGAMES[0]
    searcher = OthelloState.native_searcher(HASH_MB)
    reports: list[Any] = []
    searcher.search_with(state, 3, lambda nodes, check: None, lambda report: reports.append(report) or False)
    pattern_value = reports[-1].score
    try:
        OthelloState.set_weights({"mobility": 70, "potential_mobility": 25, "corners": 800, "x_squares": -450,
                                  "c_squares": -150, "edge_stability": 120, "parity": 250, "discs": 100})
        reports.clear()
        searcher.search_with(state, 3, lambda nodes, check: None, lambda report: reports.append(report) or False)
        assert reports[-1].score == python_value(state, 3, "pvs") != pattern_value
    finally:
        OthelloState.set_weights(None)


# ------------------------------------------------------------------ the engine's native algorithm
def test_native_is_offered_for_othello() -> None:
    assert OthelloState.NATIVE_SEARCH is not None
    assert "native" in algorithms_for(OthelloState)


def test_engine_native_answers_legal_moves_with_events() -> None:
    events: list[Any] = []
    for state in (MIDGAMES[1], NEAR_END[5], PASSES[0]):
        finished = engine_search(state, SearchSettings(algorithm="native"), Limits(depth=5), on_event=events.append)
        assert finished.best_move in state.legal_moves()
        assert finished.depth >= 1 and finished.nodes > 0
        assert finished.pv and finished.pv[0] == finished.best_move
    assert any(type(event).__name__ == "Iteration" for event in events)


def test_engine_native_solves_the_root_within_reach() -> None:
    state = NEAR_END[0]
    finished = engine_search(state, SearchSettings(algorithm="native"), Limits(depth=20))
    solved = state.solve(finished.score.view, 20)
    assert finished.score.value == solved * OthelloState.EVAL_SCALE
    assert finished.best_move in state.legal_moves()


def test_root_moves_restrict_the_root() -> None:
    state = MIDGAMES[2]
    moves = state.legal_moves()[:2]
    reports = compiled_reports(state, 3, root_moves=moves)
    assert reports[-1].pv[0] in moves
    assert reports[-1].score == python_value(state, 3, "pvs", root_moves=tuple(moves))


def test_time_limits_and_stop_are_kept() -> None:
    state = MIDGAMES[3]
    finished = engine_search(state, SearchSettings(algorithm="native"), Limits(nodes=20_000))
    assert finished.best_move in state.legal_moves()
    assert finished.nodes < 20_000 + 2 * 4096


def test_poll_raising_stops_and_propagates_after_depth_one() -> None:
    searcher = OthelloState.native_searcher(HASH_MB)
    reports: list[Any] = []

    def poll(nodes: int, check: bool) -> None:
        if check:
            raise StopSearch

    with pytest.raises(StopSearch):
        searcher.search_with(MIDGAMES[4], 30, poll, lambda report: reports.append(report) or False, poll_interval=64)
    assert [report.depth for report in reports] == [1]  # depth 1 always finishes
    assert reports[0].pv[0] in MIDGAMES[4].legal_moves()


def test_an_interrupted_iteration_keeps_what_it_found() -> None:
    """Stopped inside an iteration whose root had already raised alpha: the searcher says what
    it found (``interrupted``), one depth beyond the last completed one, with a legal move."""
    state = MIDGAMES[7]
    found = 0
    for stop_after in range(3, 120, 4):
        searcher = OthelloState.native_searcher(HASH_MB)
        reports: list[Any] = []
        polls = [0]

        def poll(nodes: int, check: bool) -> None:
            polls[0] += 1
            if check and polls[0] >= stop_after:
                raise StopSearch

        with pytest.raises(StopSearch):
            searcher.search_with(state, 30, poll, lambda report: reports.append(report) or False, poll_interval=200)
        better = searcher.interrupted(state)
        if better is not None:
            found += 1
            assert better.depth == reports[-1].depth + 1
            assert better.pv[0] in state.legal_moves()
    assert found > 0


def test_a_stopped_root_solve_falls_back_on_the_search() -> None:
    """Asked for depth 1 only, the root is solved at depth 1; a solve its poll stops gives
    way to depth 1's search, which answers (depth 1 always finishes)."""
    state = positions_with_empties(35, 1, 19, 20)[0]
    searcher = OthelloState.native_searcher(HASH_MB)
    reports: list[Any] = []

    def poll(nodes: int, check: bool) -> None:
        if check:
            raise StopSearch

    with pytest.raises(StopSearch):
        searcher.search(state, 1, poll, lambda report: reports.append(report) or False, poll_interval=1 << 30)
    assert len(reports) == 1 and reports[0].pv[0] in state.legal_moves()


def test_a_root_solve_past_its_share_of_the_budget_gives_way_to_the_search() -> None:
    """A 20-empty solve (hundreds of thousands of search nodes' worth of solver nodes, charged
    at ``SOLVER_NODE_COST``) does not fit a 20,000-node budget: at half of it the solve gives
    way (``ai.search.native.root_solve_poll``) and the deepening goes on from depth 6, where
    the solve was tried, instead of answering with depth 5. With room for it, the solve
    answers the exact value."""
    for state in positions_with_empties(36, 2, 20, 20):
        finished = engine_search(state, SearchSettings(algorithm="native"), Limits(nodes=20_000))
        assert finished.stopped and finished.depth >= 6, state.to_text()
        assert finished.nodes < 20_000 + 2 * 4096 and finished.best_move in state.legal_moves()
        solved = engine_search(state, SearchSettings(algorithm="native"), Limits(nodes=3_000_000))
        assert not solved.stopped and solved.nodes < 3_000_000
        assert solved.score.value == state.solve(solved.score.view, 20) * OthelloState.EVAL_SCALE


def test_solves_inside_the_tree_are_charged_to_the_node_count() -> None:
    """A search whose horizon reaches 10 empties solves there; those solves' nodes reach
    ``poll`` at ``SOLVER_NODE_COST`` each, beside the search's own nodes."""
    state = positions_with_empties(37, 1, 15, 15)[0]
    heard = [0]

    def poll(nodes: int, check: bool) -> None:
        heard[0] += nodes

    reports: list[Any] = []
    searcher = OthelloState.native_searcher(HASH_MB)
    searcher.search_with(state, 6, poll, lambda report: reports.append(report) or False, solver_empties=10)
    assert reports  # depth 5 settles it: every leaf there is solved
    assert heard[0] > reports[-1].nodes  # the search's own nodes, and the solves' at their cost
    plain: list[Any] = []
    heard_plain = [0]
    OthelloState.native_searcher(HASH_MB).search_with(
        state, 6, lambda nodes, check: heard_plain.__setitem__(0, heard_plain[0] + nodes),
        lambda report: plain.append(report) or False)
    assert heard_plain[0] == plain[-1].nodes  # no solver: the search's own nodes alone


@pytest.mark.parametrize("threads", [2, 3])
def test_threads_search_together_and_answer_legal_moves(threads: int) -> None:
    state = MIDGAMES[5]
    reports: list[Any] = []
    searcher = OthelloState.native_searcher(HASH_MB)
    searcher.search(state, 6, lambda nodes, check: None, lambda report: reports.append(report) or False,
                    threads=threads)
    assert [report.depth for report in reports] == list(range(1, 7))
    assert reports[-1].pv[0] in state.legal_moves()


def test_clear_hashfull_and_reuse() -> None:
    searcher = OthelloState.native_searcher(HASH_MB)
    state = MIDGAMES[6]
    first: list[Any] = []
    searcher.search_with(state, 5, lambda nodes, check: None, lambda report: first.append(report) or False)
    assert searcher.hashfull() > 0
    searcher.clear()
    assert searcher.hashfull() == 0
    again: list[Any] = []
    searcher.search_with(state, 5, lambda nodes, check: None, lambda report: again.append(report) or False)
    assert [report.score for report in again] == [report.score for report in first]


# ------------------------------------------------------------------ bad input
def test_bad_input_is_refused() -> None:
    raw = compiled._fast.Searcher(1)  # type: ignore[union-attr]
    state = MIDGAMES[0]

    def run(**changes: Any) -> None:
        arguments: dict[str, Any] = {"position": (state.own, state.opponent), "max_depth": 2,
                                     "poll": lambda nodes, check: None, "on_iteration": lambda *report: False,
                                     "eval_limit": 6400.0, "margin_scale": 100.0}
        arguments.update(changes)
        raw.search(**arguments)

    with pytest.raises(ValueError, match="share a square"):
        run(position=(1, 1))
    with pytest.raises(TypeError, match="tuple"):
        run(position="x")
    with pytest.raises(ValueError, match="bitboard"):
        run(position=(-1, 0))
    with pytest.raises(ValueError, match="root move is not legal"):
        run(root_moves=[0])
    with pytest.raises(ValueError, match="threads"):
        run(threads=0)
    with pytest.raises(ValueError, match="eval_limit"):
        run(eval_limit=float("nan"))
    with pytest.raises(ValueError, match="solver_empties"):
        run(solver_empties=-1)
    with pytest.raises(TypeError, match="callable"):
        run(solve=3)
    with pytest.raises(ValueError, match="hash_mb"):
        compiled._fast.Searcher(0)  # type: ignore[union-attr]


# ------------------------------------------------------------------ the benchmark
def test_the_benchmark_times_both_engines_to_the_same_value() -> None:
    state = othello_native.sample_positions(2)[1]
    python = othello_native.measure(state, "pvs", 3, runs=1)
    native = othello_native.measure(state, "native", 3, runs=1)
    assert python.nodes > 0 and native.nodes > 0
    assert python.value == native.value
