"""The benchmarks of search measure a search: never an opening book's answer, and a "same
value" check that cannot pass when nothing was searched. The books are on here (as in the
app) so that a benchmark that leaves them on is caught. This is the one test module that
imports bench/: it tests the measurements themselves."""

from __future__ import annotations

import chess
import pytest

from ai.engine import search
from ai.settings import Limits
from bench import checkers_native_variants, engine_speed, node_counts
from bench.peers import plyground_command
from games import new_game
from games.checkers import CheckersState
from games.checkers import native as checkers_compiled
from tests.conftest import DATA_DIR


@pytest.mark.parametrize("game", ["chess", "othello"])
def test_node_counts_search_the_start_position(books_on: None, game: str) -> None:
    """Both starts are in a book; every column of the lecture table still searches them."""
    row = node_counts.count_nodes(new_game(game), depth=1)
    assert all(count > 0 for count in row.nodes), row
    assert row.same_value, row


def test_same_value_fails_when_a_column_searched_nothing() -> None:
    assert not node_counts.Row(nodes=(0, 0), values=(0.0, 0.0)).same_value
    assert not node_counts.Row(nodes=(12, 0), values=(5.0, 5.0)).same_value
    assert not node_counts.Row(nodes=(12, 9), values=(5.0, 4.0)).same_value
    assert node_counts.Row(nodes=(12, 9), values=(5.0, 5.0)).same_value


@pytest.mark.parametrize("game", ["othello", "backgammon"])
def test_engine_speed_measures_a_search_on_every_position(books_on: None, game: str) -> None:
    positions = engine_speed.sample_positions(game, 2)
    assert len(positions) == 2
    assert all(rate > 0 for rate in engine_speed.in_process_nps(game, positions, 0.05))


def test_engine_speed_times_the_python_pvs_through_uci(books_on: None) -> None:
    """The Python PVS keeps its own row against Sunfish (the UCI default is the compiled
    search); a book answer is refused, never timed as a speed."""
    assert "pvs" in engine_speed.CHESS_ALGORITHMS
    start = [chess.STARTING_FEN]
    rates = engine_speed.uci_nps(plyground_command(), start, 0.2, {"Algorithm": "pvs", "OwnBook": False})
    assert rates[0] > 0
    with pytest.raises(engine_speed.NothingSearched):
        engine_speed.uci_nps(plyground_command(), start, 0.2, {"Algorithm": "pvs", "OwnBook": True})


def test_gui_latency_searches_with_the_book_off(books_on: None) -> None:
    from bench import gui_latency

    settings = gui_latency.bench_settings("pvs", threads=1)
    assert not settings.book
    assert search(new_game("chess"), settings, Limits(depth=1)).nodes > 0


@pytest.mark.skipif(not checkers_compiled.NATIVE, reason="the compiled checkers search is not built")
def test_the_checkers_variants_bench_plays_whole_games_by_the_rules() -> None:
    """``bench/checkers_native_variants.py`` (how the compiled checkers search's numbers are
    chosen): a game at a small budget ends by the rules, and a settings dict reaches its side."""
    bench = checkers_native_variants
    assert bench.parameters("lmr_min_depth=0, rfp_margin=60") == {"lmr_min_depth": 0, "rfp_margin": 60}
    shipped = bench.side_weights("")
    assert shipped == CheckersState.weights
    tuned = bench.side_weights(str(DATA_DIR.parent.parent / "tools" / "checkers_tuned.json"))
    assert tuned != shipped and tuned.keys() == shipped.keys()
    results = {
        bench.play((("9-13", "21-17", "5-9"), black, {"lmr_min_depth": 0}, {}, 300, 300, tuned, shipped))
        for black in (True, False)
    }
    assert CheckersState.weights == shipped  # a game leaves the shipped weights in place
    assert results <= {-1, 0, 1}
