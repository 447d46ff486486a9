"""The compiled checkers search (``games/checkers/_search.c``, ``games.checkers.native``):
its move generator against the literature's perft and the Python rules, its EVAL against
the Python search's at depth 1, the game's draw rules, the databases, the engine's limits
and events, and bad input."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from ai.engine import search as engine_search
from ai.settings import Limits, SearchSettings
from games.checkers import CheckersState
from games.checkers import native as compiled
from games.checkers.bitboards import MASK_OF_SQUARE
from games.checkers.evaluation import WEIGHT_VALUES
from tests.conftest import DATA_DIR
from tests.native_extensions import require_module

require_module(compiled.NATIVE, "the compiled checkers search", compiled.NATIVE_SEARCH_BACKEND)

MATE = compiled.MATE
HASH_MB = 4
NEWELL = "B:W22,K5:BK15,K6"
"""Newell's first position (problems.json): Black to play and win, 15-10."""
MIDGAME = "B:W18,19,21,23,24,25,26,27,28,29,30,32:B1,2,3,4,5,6,7,8,10,11,12,15"


class StopSearch(Exception):
    """Raised by a test's poll callback to stop a search."""


def raw_search(state: CheckersState, depth: int, searcher: Any = None, **options: Any) -> list[tuple[Any, ...]]:
    """Every iteration report of a C search of ``state`` to ``depth``."""
    reports: list[tuple[Any, ...]] = []
    searcher = searcher or compiled._fast.Searcher(HASH_MB)
    options.setdefault("weights", tuple(WEIGHT_VALUES(CheckersState.weights)))
    searcher.search(
        (state.black, state.white, state.kings, state.player, state.no_progress_plies),
        state.earlier_positions(),
        depth,
        lambda nodes, check: None,
        lambda *report: reports.append(report),
        **options,
    )
    return reports


def native_settings(**options: Any) -> SearchSettings:
    return SearchSettings(algorithm="native", **options)


def random_states(seed: int, count: int) -> list[CheckersState]:
    """Positions from random games, with kings, multi-jumps and blocked sides among them."""
    rng = random.Random(seed)
    states: list[CheckersState] = []
    while len(states) < count:
        state = CheckersState.initial()
        while not state.is_terminal() and len(states) < count:
            state.play(rng.choice(state.legal_moves()))
            if rng.random() < 0.2:
                states.append(state.copy())
    return states


# ------------------------------------------------------------------ moves
def test_perft_from_the_start_matches_the_literature() -> None:
    data = json.loads((DATA_DIR / "checkers" / "perft.json").read_text())
    counts = {int(depth): int(count) for depth, count in data["perft"].items()}
    start = CheckersState.initial()
    for depth in range(1, 10):
        assert compiled.native_perft(start, depth) == counts[depth], depth


def test_perft_equals_the_python_rules_on_random_positions() -> None:
    for state in random_states(7, 60):
        for depth in (1, 2, 3):
            assert compiled.native_perft(state, depth) == state.perft(depth), state.to_text()


# ------------------------------------------------------------------ EVAL and search
def test_depth_one_scores_are_the_python_search_scores() -> None:
    """One ply and the captures after it, with the same EVAL: the C score is the Python
    search's rounded to a whole unit, on positions with pending captures and kings."""
    checked = 0
    for state in random_states(11, 40):
        if state.is_terminal():
            continue
        python = engine_search(state, SearchSettings(algorithm="alphabeta", transposition_table=False), Limits(depth=1))
        report = raw_search(state, 1)[-1]
        if python.score.outcome:
            continue
        assert abs(report[2] - python.score.value) <= 0.5 + 1e-9, state.to_text()
        checked += 1
    assert checked >= 30


def test_engine_native_answers_legal_moves_with_events() -> None:
    for state in random_states(3, 12):
        if state.is_terminal():
            continue
        result = engine_search(state, native_settings(), Limits(depth=8))
        assert result.best_move in state.legal_moves()
        assert result.depth >= 1 and result.pv and result.pv[0] == result.best_move


def test_a_database_win_is_found_and_reported_as_a_win() -> None:
    state = CheckersState.from_text(NEWELL)
    result = engine_search(state, native_settings(), Limits(depth=30))
    assert state.move_name(result.best_move) == "15-10"
    assert result.score.outcome == 1


def test_a_move_that_leaves_the_opponent_no_move_wins_at_once() -> None:
    """From random games: wherever a move blocks the opponent or takes its last piece, the
    search finds a win in one ply; where the side to move has no move, nothing is searched."""
    wins = over = 0
    for state in random_states(5, 4000):
        if not state.perft_moves():  # blocked or without pieces
            assert raw_search(state, 3) == []
            over += 1
            continue
        if state.is_terminal():  # drawn by rule: the engine does not search it
            continue
        for move in state.legal_moves():
            after = state.copy()
            after.play(move)
            if after.is_terminal() and after.utility(state.to_move()) > 0:
                assert raw_search(state, 3)[-1][2] == MATE - 1, state.to_text()
                wins += 1
                break
    assert wins >= 3 and over >= 1


REPEATING = "W:WK25,K32,30,31:BK1,3"
"""White, two pieces up (six pieces: outside the databases), shuttles its king 25-29-25
while Black's goes 1-5-1, far apart."""
SHUTTLE = ("25-29", "1-5", "29-25", "5-1", "25-29", "1-5")


def test_the_winner_avoids_a_threefold_repetition_of_the_game() -> None:
    """After the shuttle twice less a ply, 29-25 would let Black's 5-1 bring back the
    start a third time (a draw): White, winning, plays something else."""
    state = CheckersState.from_text(REPEATING)
    for name in SHUTTLE:
        state.play(state.parse_move(name))
    repeating = state.parse_move("29-25")
    result = engine_search(state, native_settings(), Limits(depth=10))
    assert result.best_move != repeating
    assert result.score.value > 100


def test_the_loser_claims_a_threefold_repetition() -> None:
    """One ply later, Black, lost, plays 5-1: the third occurrence, a draw."""
    state = CheckersState.from_text(REPEATING)
    for name in SHUTTLE + ("29-25",):
        state.play(state.parse_move(name))
    drawing = state.parse_move("5-1")
    copy = state.copy()
    copy.play(drawing)
    assert copy.is_terminal() and copy.utility(0) == 0  # the rules call it a draw
    report = raw_search(state, 6)[-1]
    assert report[2] == 0 and tuple(report[4][0]) == compiled.move_boards(drawing)


def test_the_forty_move_rule_draws() -> None:
    state = CheckersState.from_text("B:WK27,K28,30,31:BK1")
    state.no_progress_plies = 79
    report = raw_search(state, 6)[-1]  # every Black move is the 80th quiet ply: a draw
    assert report[2] == 0
    state.no_progress_plies = 80
    assert raw_search(state, 6) == []  # drawn already: no move to search


def test_root_moves_restrict_the_root() -> None:
    state = CheckersState.initial()
    allowed = [move for move in state.legal_moves() if state.move_name(move) in ("12-16", "11-15")]
    result = engine_search(state, native_settings(), Limits(depth=6), root_moves=allowed)
    assert result.best_move in allowed


def test_time_limits_and_stop_are_kept() -> None:
    state = CheckersState.initial()
    result = engine_search(state, native_settings(), Limits(time=0.2))
    assert result.best_move in state.legal_moves()
    assert result.time < 1.5


# ------------------------------------------------------------------ control
def test_poll_raising_stops_within_the_interval_and_propagates() -> None:
    heard: list[int] = []

    def poll(nodes: int, check: bool) -> None:
        heard.append(nodes)
        if len(heard) == 10:
            raise StopSearch

    state = CheckersState.initial()
    with pytest.raises(StopSearch):
        raw_search_with_poll(state, poll, 500)
    assert heard == [500] * 10


def raw_search_with_poll(state: CheckersState, poll: Any, interval: int, searcher: Any = None) -> list[Any]:
    reports: list[Any] = []
    (searcher or compiled._fast.Searcher(HASH_MB)).search(
        (state.black, state.white, state.kings, state.player, 0),
        [],
        60,
        poll,
        lambda *report: reports.append(report),
        tuple(WEIGHT_VALUES(CheckersState.weights)),
        poll_interval=interval,
    )
    return reports


def test_depth_one_finishes_even_if_the_first_poll_raises() -> None:
    reports: list[Any] = []

    def poll(nodes: int, check: bool) -> None:
        raise StopSearch

    searcher = compiled._fast.Searcher(HASH_MB)
    state = CheckersState.from_text(MIDGAME)
    with pytest.raises(StopSearch):
        searcher.search(
            (state.black, state.white, state.kings, state.player, 0), [], 10, poll,
            lambda *report: reports.append(report), tuple(WEIGHT_VALUES(CheckersState.weights)), poll_interval=1,
        )
    assert [report[0] for report in reports] == [1]


def test_an_interrupted_iteration_keeps_what_it_found() -> None:
    found = 0
    state = CheckersState.from_text(MIDGAME)
    legal = {compiled.move_boards(move) for move in state.legal_moves()}
    for stop_after in range(3, 80, 4):
        searcher = compiled._fast.Searcher(HASH_MB)
        polls = [0]

        def poll(nodes: int, check: bool) -> None:
            polls[0] += 1
            if polls[0] == stop_after:
                raise StopSearch

        with pytest.raises(StopSearch):
            raw_search_with_poll(state, poll, 300, searcher)
        better = searcher.interrupted()
        if better is not None:
            found += 1
            assert tuple(better[4][0]) in legal
    assert found > 0


@pytest.mark.parametrize("threads", [0, -1, 257])
def test_threads_out_of_range_are_refused(threads: int) -> None:
    with pytest.raises(ValueError, match="threads"):
        raw_search(CheckersState.initial(), 2, threads=threads)


def test_threads_search_together_and_their_nodes_are_counted() -> None:
    """With helpers, each poll still comes every ``interval`` of the main thread's nodes but
    reports every thread's: the polls add up to more than the main thread alone searched."""
    state = CheckersState.from_text(MIDGAME)
    heard: list[int] = []

    def poll(nodes: int, check: bool) -> None:
        heard.append(nodes)
        if len(heard) == 30:
            raise StopSearch

    with pytest.raises(StopSearch):
        compiled._fast.Searcher(HASH_MB).search(
            (state.black, state.white, state.kings, state.player, 0), [], 60, poll, lambda *report: None,
            tuple(WEIGHT_VALUES(CheckersState.weights)), poll_interval=2000, threads=2,
        )
    assert sum(heard) > 30 * 2000


@pytest.mark.parametrize("threads", [2, 4])
def test_threads_keep_the_rules_and_find_the_wins(threads: int) -> None:
    state = CheckersState.from_text(NEWELL)
    report = raw_search(state, 14, threads=threads, probe=compiled._probe, probe_pieces=5)[-1]
    assert report[2] > compiled.MATE_BOUND and tuple(report[4][0]) == compiled.move_boards(state.parse_move("15-10"))
    drawn = CheckersState.from_text(REPEATING)
    for name in SHUTTLE + ("29-25",):
        drawn.play(drawn.parse_move(name))
    report = raw_search(drawn, 8, threads=threads)[-1]
    assert report[2] == 0 and tuple(report[4][0]) == compiled.move_boards(drawn.parse_move("5-1"))


def test_a_stop_ends_every_thread_and_the_searcher_searches_again() -> None:
    searcher = compiled._fast.Searcher(HASH_MB)
    state = CheckersState.initial()
    polls = [0]

    def poll(nodes: int, check: bool) -> None:
        polls[0] += 1
        if polls[0] == 5:
            raise StopSearch

    for _ in range(3):
        polls[0] = 0
        with pytest.raises(StopSearch):
            searcher.search(
                (state.black, state.white, state.kings, state.player, 0), [], 60, poll, lambda *report: None,
                tuple(WEIGHT_VALUES(CheckersState.weights)), poll_interval=5000, threads=4,
            )
    searcher.clear()
    assert raw_search(state, 10, searcher, threads=3)[-1][0] == 10


@pytest.mark.parametrize(
    ("position", "message"),
    [
        ((1, 1, 0, 0, 0), "overlap"),
        ((1 << 8, 0, 0, 0, 0), "off the 32 squares"),
        ((MASK_OF_SQUARE[1], MASK_OF_SQUARE[32], MASK_OF_SQUARE[5], 0, 0), "king stands on an empty"),
        ((MASK_OF_SQUARE[1], MASK_OF_SQUARE[32], 0, 2, 0), "player"),
        ((-1, 0, 0, 0, 0), "negative|can't convert"),
    ],
)
def test_bad_positions_are_refused(position: tuple[int, ...], message: str) -> None:
    with pytest.raises((ValueError, OverflowError), match=message):
        compiled._fast.Searcher(HASH_MB).search(
            position, [], 3, lambda *call: None, lambda *call: None, tuple(WEIGHT_VALUES(CheckersState.weights))
        )


def test_bad_weights_and_root_moves_are_refused() -> None:
    state = CheckersState.initial()
    with pytest.raises(ValueError, match="14 numbers"):
        raw_search(state, 2, weights=(1.0, 2.0))
    with pytest.raises(ValueError, match="not legal"):
        raw_search(state, 2, root_moves=[(MASK_OF_SQUARE[1], MASK_OF_SQUARE[5], 0)])
    with pytest.raises(TypeError, match="probe must be callable"):
        raw_search(state, 2, probe=3)
    with pytest.raises(TypeError, match="poll and on_iteration must be callable"):
        compiled._fast.Searcher(HASH_MB).search((0, 0, 0, 0, 0), [], 2, None, print, tuple(WEIGHT_VALUES(CheckersState.weights)))


def test_clear_hashfull_and_reuse() -> None:
    searcher = compiled.CheckersNativeSearcher(HASH_MB)
    state = CheckersState.initial()
    reports: list[Any] = []
    searcher.search(state, 12, lambda nodes, check: None, reports.append)
    assert 0.0 < searcher.hashfull() <= 1.0
    first = [report.pv for report in reports]
    searcher.clear()
    again: list[Any] = []
    searcher.search(state, 12, lambda nodes, check: None, again.append)
    assert [report.pv for report in again] == first  # deterministic from an empty table


# ------------------------------------------------------------------ tunable numbers
def test_parameters_default_and_override_by_name() -> None:
    defaults = compiled._fast.Searcher(1).parameters()
    assert defaults["lmr_min_depth"] >= 1 and defaults["aspiration_window"] > 0
    changed = compiled._fast.Searcher(1, {"lmr_min_depth": 0, "rfp_margin": 60}).parameters()
    assert changed == {**defaults, "lmr_min_depth": 0, "rfp_margin": 60}
    assert compiled.CheckersNativeSearcher(1, {"rfp_margin": 60}).parameters() == {**defaults, "rfp_margin": 60}


@pytest.mark.parametrize(
    ("given", "error", "message"),
    [
        ({"no_such": 1}, ValueError, "unknown search parameter"),
        ({"rfp_margin": -1}, ValueError, "0..10000"),
        ({"lmr_first_moves": 10**30}, OverflowError, ""),
        ({"aspiration_window": "wide"}, TypeError, ""),
        ([("rfp_margin", 1)], TypeError, "dict"),
    ],
)
def test_bad_parameters_are_refused(given: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message or None):
        compiled._fast.Searcher(1, given)


@pytest.mark.parametrize("given", [{"lmr_min_depth": 0, "rfp_max_depth": 0}, {"single_reply_extension": 1}])
def test_every_setting_still_finds_the_database_win(given: dict[str, int]) -> None:
    state = CheckersState.from_text(NEWELL)
    searcher = compiled._fast.Searcher(HASH_MB, given)
    report = raw_search(state, 12, searcher, probe=compiled._probe, probe_pieces=5)[-1]
    assert report[2] > compiled.MATE_BOUND and tuple(report[4][0]) == compiled.move_boards(state.parse_move("15-10"))


@pytest.mark.parametrize("position", ["B:W21,22,K30:B5,K9", "W:WK14,K18,K22:BK1,K3", "B:W25,26:B1,2,3"])
def test_the_databases_are_asked_only_about_positions_they_hold(position: str) -> None:
    """C asks Python only where the databases answer (at most four pieces, or three kings
    against two): a call that came back empty would be time lost at a leaf."""
    answers: list[Any] = []

    def probe(*board: int) -> Any:
        answers.append(compiled._probe(*board))
        return answers[-1]

    raw_search(CheckersState.from_text(position), 9, probe=probe, probe_pieces=5)
    assert answers and all(answer is not None for answer in answers)


def test_cresswells_key_is_found_in_a_few_million_nodes() -> None:
    """Cresswell's problem (problems.json): the Python search played 8-11 even at a million
    nodes; the compiled search finds the key 5-9 by depth 26 (bench/STRENGTH.md, "Checkers: matches and problems")."""
    problem = next(row for row in json.loads((DATA_DIR / "checkers" / "problems.json").read_text())["problems"]
                   if row["id"] == "cresswell")
    state = CheckersState.from_text(problem["fen"])
    result = engine_search(state, native_settings(threads=1), Limits(nodes=6_000_000))
    assert problem["key"] == ["5-9"] and state.move_name(result.best_move) == "5-9"
