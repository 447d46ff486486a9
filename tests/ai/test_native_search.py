"""The ``native`` algorithm: a game's compiled search under the engine's rules.

What the engine promises of every algorithm, checked for this one: limits (depth, nodes,
time, the stop flag) end it with the last completed iteration's answer; its events are the
same ``Iteration``/``Progress`` events; a mate is a proven result; root moves are honoured;
the table outlives one search; games without a compiled search refuse it up front. The
compiled search itself (perft, EVAL, tactics) is checked in
``tests/games/test_chess_native_search.py``.
"""

from __future__ import annotations

import chess
import pytest

from games import get_game, new_game
from games.chess_game import native

from ai.engine import search
from ai.events import Iteration, Progress, SearchEvent
from ai.search import ALGORITHMS, algorithms_for
from ai.settings import Limits, SearchSettings
from tests.native_extensions import require_module

require_module(native.NATIVE, "the compiled chess search", native.NATIVE_SEARCH_BACKEND)

NATIVE = SearchSettings(algorithm="native", book=False)
MATE_IN_TWO = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 10"
"""1. Nf6+ gxf6 2. Bxf7# (a classic): White mates in 2 moves, 3 plies."""
MIDDLEGAME = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8"


def test_offered_only_where_the_game_has_a_compiled_search() -> None:
    assert "native" in algorithms_for(get_game("chess"))
    for game in ("checkers", "othello"):
        assert ("native" in algorithms_for(get_game(game))) == (get_game(game).NATIVE_SEARCH is not None)
    for game in ("tictactoe", "backgammon"):
        assert "native" not in algorithms_for(get_game(game))
        with pytest.raises(ValueError, match="no compiled search|chance nodes"):
            ALGORITHMS["native"].check_game(get_game(game))


def test_a_mate_is_found_and_reported_as_a_proven_result() -> None:
    state = new_game("chess", MATE_IN_TWO)
    answer = search(state, NATIVE, Limits(depth=6))
    assert answer.best_move == chess.Move.from_uci("d5f6")
    assert answer.score.win_in_plies == 3
    assert answer.score.mate_in_moves() == 2
    assert not answer.stopped
    assert answer.depth >= 3


def test_iterations_stream_with_legal_lines_and_growing_nodes() -> None:
    state = new_game("chess", MIDDLEGAME)
    events: list[SearchEvent] = []
    answer = search(state, NATIVE, Limits(depth=7), on_event=events.append)
    iterations = [event for event in events if isinstance(event, Iteration)]
    assert [event.depth for event in iterations] == list(range(1, 8))
    assert all(event.score.view == 0 for event in iterations)  # White to move at the root
    nodes = [event.nodes for event in iterations]
    assert nodes == sorted(nodes) and nodes[-1] > 0
    for event in iterations:
        board = state.board.copy()
        for move in event.pv:  # every PV is legal from the root
            assert board.is_legal(move), (event.depth, event.pv)
            board.push(move)
    assert answer.best_move == iterations[-1].pv[0]
    assert answer.depth == 7 and answer.nodes >= nodes[-1]
    assert state.board.fen() == MIDDLEGAME  # the root is only read


def test_a_node_limit_stops_it_with_the_last_completed_iteration() -> None:
    state = new_game("chess", MIDDLEGAME)
    answer = search(state, NATIVE, Limits(nodes=20_000))
    assert answer.stopped
    assert answer.best_move in state.legal_moves()
    assert 20_000 <= answer.nodes < 20_000 + 4096


def test_a_stop_request_ends_it_and_progress_keeps_coming() -> None:
    state = new_game("chess", MIDDLEGAME)
    events: list[SearchEvent] = []
    polls = [0]

    def should_stop() -> bool:
        polls[0] += 1
        return sum(isinstance(event, Iteration) for event in events) >= 3 and polls[0] > 50

    answer = search(state, NATIVE, Limits(), on_event=events.append, should_stop=should_stop)
    assert answer.stopped
    assert answer.best_move in state.legal_moves()
    assert any(isinstance(event, Progress) for event in events) or answer.time < 0.3


def test_a_time_limit_is_kept() -> None:
    state = new_game("chess", MIDDLEGAME)
    answer = search(state, NATIVE, Limits(time=0.3))
    assert answer.best_move in state.legal_moves()
    assert answer.time < 1.5  # generous: a loaded machine; the point is that it ends
    assert answer.depth >= 4


@pytest.mark.parametrize("game", ["chess", "checkers"])
def test_one_legal_move_under_a_time_limit_is_answered_by_the_first_iteration(game: str) -> None:
    """As the Python searches do: the time is not waited out for a move that has no rival
    (a depth limit is still searched to its end, for the score)."""
    if get_game(game).NATIVE_SEARCH is None:
        pytest.skip(f"the compiled {game} search is not built")
    position = {
        "chess": "7k/8/8/8/8/8/P5q1/7K w - - 0 1",  # in check: only Kxg2
        "checkers": "B:W17,18,22,23,24,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,9,11,12,14,16",  # only 14x21
    }[game]
    state = new_game(game, position)
    assert len(state.legal_moves()) == 1
    answer = search(state, NATIVE, Limits(time=60.0))
    assert answer.depth == 1 and answer.best_move == state.legal_moves()[0]
    assert search(state, NATIVE, Limits(depth=3)).depth == 3


def test_root_moves_are_honoured() -> None:
    state = new_game("chess", MIDDLEGAME)
    moves = [state.parse_move(text) for text in ("a3", "h3")]
    answer = search(state, NATIVE, Limits(depth=5), root_moves=moves)
    assert answer.best_move in moves
    assert answer.pv[0] in moves


def test_a_finished_game_answers_without_a_move() -> None:
    mated = new_game("chess", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
    answer = search(mated, NATIVE, Limits(depth=3))
    assert answer.best_move is None
    assert answer.score.win_in_plies == 0 and answer.score.outcome == -1


def test_the_game_history_counts_for_repetitions() -> None:
    """After Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1, Black's Ng8 repeats the start position a third
    time: a draw. A side that is worse takes it; here the position is level, so the point is
    only that the score of that line is exactly 0 when it is forced (root_moves)."""
    state = new_game("chess")
    for text in ("Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"):
        state.play_checked(state.parse_move(text))
    answer = search(state, NATIVE, Limits(depth=4), root_moves=[state.parse_move("Ng8")])
    assert answer.score.value == 0


def test_the_table_outlives_a_search() -> None:
    state = new_game("chess", MIDDLEGAME)
    shared: dict[str, object] = {}
    first = search(state, NATIVE, Limits(depth=9), shared=shared)
    again = search(state, NATIVE, Limits(depth=9), shared=shared)
    assert again.nodes < first.nodes * 0.7  # the same search again, answered largely by the table


def test_the_counters_the_panel_shows_are_counted() -> None:
    state = new_game("chess", MIDDLEGAME)
    answer = search(state, NATIVE, Limits(depth=8))
    stats = answer.stats
    assert 0 < stats.qnodes < stats.nodes
    assert 0 < stats.tt_hits <= stats.tt_probes
    assert 0 < stats.first_move_cutoffs <= stats.cutoffs
    assert stats.first_move_cutoff_rate > 0.5  # a well-ordered search


def test_a_forgotten_searcher_is_freed_at_once_not_by_the_collector() -> None:
    """A UCI engine forgets its searcher at ``ucinewgame``; its 64 MB table must go then.
    A reference cycle through the search's events (control -> progress -> reporter ->
    counters -> searcher) once kept one table per game until a rare full collection: a
    match's engine grew by 64 MB a game. With the collector off, only reference counting
    can free it."""
    import gc
    import sys

    state = new_game("chess", MIDDLEGAME)
    shared: dict[str, object] = {}
    was_enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        for limits in (Limits(depth=5), Limits(time=0.05), Limits(nodes=20_000)):
            search(state, NATIVE, limits, on_event=lambda event: None, shared=shared)
        searcher = shared["native_searcher"][1]  # type: ignore[index]
        shared.clear()
        assert sys.getrefcount(searcher) == 2  # ``searcher`` and the call's argument: nothing else
    finally:
        if was_enabled:
            gc.enable()
