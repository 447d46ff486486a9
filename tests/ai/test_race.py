"""The algorithm race: every depth-first entrant returns minimax's value, node counts say what
the textbook says, the numbers add up, MCTS gets its budget, and the race leaves nothing behind.

The truths are independent of the race: minimax run in this process (``ai.engine.search``),
the full-width tree counted node by node (``count_levels``), the race's own events.
"""

from __future__ import annotations

import dataclasses
import os
import queue
import signal
from pathlib import Path

import pytest

import games
from ai.engine import search
from ai.events import Score
from ai.race import (
    ALL_ENTRANTS,
    BUDGET_SOURCES,
    MINIMAX_NODE_BUDGET,
    Branching,
    DepthDone,
    Entrant,
    EntrantDone,
    EntrantResult,
    Race,
    RaceDone,
    RaceRequest,
    RaceResult,
    count_levels,
    deepest_within,
    default_depth,
    entrant_settings,
    estimate_levels,
    extrapolated,
    measure_branching,
    minimax_nodes,
    parse_entrants,
    prepare_race,
    quick_levels,
    run_race,
)
from ai.options import is_exact
from ai.settings import Limits

WAIT = 120.0
DEPTH_FIRST = tuple(entrant for entrant in ALL_ENTRANTS if entrant.is_depth_first)
RACES = {
    # game, position, depth: each minimax in well under a second
    "tictactoe": ("x...o....", 6),
    "checkers": (None, 5),
    "chess": (None, 3),
}


@pytest.fixture(scope="module")
def races() -> dict[str, RaceResult]:
    """One full race per game (every entrant), run once for the tests below."""
    results = {}
    for game, (position, depth) in RACES.items():
        results[game] = run_race(RaceRequest(game=game, position=position, depth=depth, workers=2))
    return results


def alive(pid: int) -> bool:
    """Whether process ``pid`` lives (a zombie does not count)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


# ------------------------------------------------------------------ values


@pytest.mark.parametrize("game", RACES)
def test_every_depth_first_entrant_returns_minimax_value_at_every_depth(races: dict[str, RaceResult], game: str) -> None:
    position, depth = RACES[game]
    result = races[game]
    state = games.new_game(game, position)
    for level in range(1, depth + 1):
        truth = search(state, entrant_settings(Entrant.MINIMAX), Limits(depth=level))
        for entrant in DEPTH_FIRST:
            entry = result.entry(entrant)
            assert entry is not None and entry.finished, (game, entrant, entry)
            if level > len(entry.scores_per_depth):
                # Deepening ends early once no leaf was cut by the horizon (an exact value).
                assert entry.scores_per_depth[-1].value == truth.score.value, (game, entrant, level)
                continue
            own = entry.scores_per_depth[level - 1]
            assert (own.value, own.win_in_plies) == (truth.score.value, truth.score.win_in_plies), (
                f"{game} {position} depth {level}: {entrant.label} {own}, minimax {truth.score}"
            )
    assert result.disagreements == ()
    assert result.reference is Entrant.MINIMAX
    assert result.compared_depths >= depth * (len(DEPTH_FIRST) - 1) - len(DEPTH_FIRST)


@pytest.mark.parametrize("game", RACES)
def test_minimax_in_the_race_is_minimax_in_this_process(races: dict[str, RaceResult], game: str) -> None:
    position, depth = RACES[game]
    entry = races[game].entry(Entrant.MINIMAX)
    truth = search(games.new_game(game, position), entrant_settings(Entrant.MINIMAX), Limits(depth=depth))
    assert entry is not None
    assert (entry.nodes, entry.depth, entry.score) == (truth.nodes, truth.depth, truth.score)
    assert entry.best_move == truth.best_move


def test_disagreement_is_named() -> None:
    """The check can fail: a value that differs from minimax's at depth 2 is reported."""
    minimax = EntrantResult(
        Entrant.MINIMAX, depth=2, score=Score(5.0), nodes=30, nodes_per_depth=(10, 20), scores_per_depth=(Score(3.0), Score(5.0))
    )
    wrong = dataclasses.replace(minimax, entrant=Entrant.PVS, scores_per_depth=(Score(3.0), Score(6.0)))
    result = RaceResult(RaceRequest(game="chess", depth=2, entrants=(Entrant.MINIMAX, Entrant.PVS)), (minimax, wrong))
    assert result.disagreements == ("PVS returns +0.06 at depth 2, minimax +0.05",)  # centipawns in pawns
    assert [(found.entrant, found.depth) for found in result.disagreeing()] == [(Entrant.PVS, 2)]
    assert "DISAGREEMENT: PVS returns +0.06 at depth 2, minimax +0.05" in result.as_text()
    agreeing = dataclasses.replace(result, entries=(minimax, dataclasses.replace(wrong, scores_per_depth=minimax.scores_per_depth)))
    assert agreeing.disagreements == ()
    assert "Every depth-first entrant returns minimax's value at every depth (2 values compared)" in agreeing.as_text()


# ------------------------------------------------------------------ nodes


@pytest.mark.parametrize("game", RACES)
def test_minimax_visits_the_full_width_tree(races: dict[str, RaceResult], game: str) -> None:
    """Minimax's iteration ``k`` alone visits every node of the legal-move tree to ``k``,
    counted independently."""
    position, depth = RACES[game]
    entry = races[game].entry(Entrant.MINIMAX)
    assert entry is not None
    levels = count_levels(games.new_game(game, position), depth)
    assert entry.nodes_per_depth == tuple(sum(levels[: level + 1]) for level in range(1, depth + 1))
    branching = races[game].branching
    assert branching is not None and branching.exact
    assert branching.level_nodes == tuple(float(count) for count in levels)


@pytest.mark.parametrize("game", RACES)
def test_per_depth_nodes_add_up_to_the_total(races: dict[str, RaceResult], game: str) -> None:
    for entrant in DEPTH_FIRST:
        entry = races[game].entry(entrant)
        assert entry is not None and entry.finished
        assert sum(entry.nodes_per_depth) == entry.nodes, (game, entrant)
        assert len(entry.nodes_per_depth) == entry.depth == len(entry.scores_per_depth)
        assert all(nodes > 0 for nodes in entry.nodes_per_depth)


@pytest.mark.parametrize("game", RACES)
def test_pruning_visits_fewer_nodes(races: dict[str, RaceResult], game: str) -> None:
    """Minimax visits at least as many nodes as alpha-beta at every depth (one full-window
    pass of alpha-beta visits part of minimax's tree; PVS and MTD(f) may search a node again,
    so for them only the totals compare), and strictly more in all; alpha-beta without
    ordering more than with."""
    result = races[game]
    minimax = result.entry(Entrant.MINIMAX)
    assert minimax is not None
    for entrant in DEPTH_FIRST[1:]:
        entry = result.entry(entrant)
        assert entry is not None
        if entrant.spec.algorithm == "alphabeta":
            for level, nodes in enumerate(entry.nodes_per_depth):
                assert nodes <= minimax.nodes_per_depth[level], (game, entrant, level + 1)
        assert entry.nodes < minimax.nodes, (game, entrant)
    unordered, ordered = result.entry(Entrant.ALPHABETA), result.entry(Entrant.ALPHABETA_ORDERED)
    assert unordered is not None and ordered is not None
    assert minimax.nodes > unordered.nodes > ordered.nodes


def test_ordering_and_table_approach_the_square_root_on_a_deeper_tree() -> None:
    """Tic-tac-toe to the end: minimax's last iteration is the whole tree (549,946 nodes);
    alpha-beta with ordering and a table needs under 1% of it, within a few times b^(d/2)."""
    result = run_race(
        RaceRequest(game="tictactoe", depth=9, entrants=(Entrant.ALPHABETA, Entrant.ALPHABETA_ORDERED, Entrant.ALPHABETA_TABLE), workers=2)
    )
    assert result.disagreements == ()
    table = result.entry(Entrant.ALPHABETA_TABLE)
    unordered = result.entry(Entrant.ALPHABETA)
    assert table is not None and unordered is not None and result.branching is not None
    assert result.branching.nodes == 549_946 and result.branching.exact
    assert table.nodes_per_depth[-1] < 549_946 / 100
    assert table.nodes_per_depth[-1] < 4 * result.branching.curve(9, 0.5)
    assert unordered.nodes > table.nodes


# ------------------------------------------------------------------ MCTS


def test_mcts_gets_the_node_count_of_alpha_beta_with_ordering_and_table(races: dict[str, RaceResult]) -> None:
    for game, result in races.items():
        mcts, source = result.entry(Entrant.MCTS), result.entry(BUDGET_SOURCES[0])
        assert mcts is not None and source is not None
        assert mcts.budget == source.nodes, game
        assert mcts.error is None and not mcts.stopped and mcts.best_move is not None
        assert 0 < mcts.nodes <= mcts.budget, game


def test_a_stated_budget_is_respected() -> None:
    result = run_race(RaceRequest(game="chess", depth=2, entrants=(Entrant.MCTS,), mcts_nodes=1234, workers=1))
    mcts = result.entry(Entrant.MCTS)
    assert mcts is not None and mcts.budget == 1234
    assert mcts.nodes == 1234  # nothing proven at the start of chess: the budget is the end


# ------------------------------------------------------------------ text


def test_as_text_has_every_entrant_and_the_curves(races: dict[str, RaceResult]) -> None:
    text = races["chess"].as_text()
    for entrant in ALL_ENTRANTS:
        assert entrant.label in text
    for heading in ("value", "best move", "nodes", "time s", "nodes/s", "EBF", "b^d", "b^(d/2)", "Nodes per depth"):
        assert heading in text
    minimax = races["chess"].entry(Entrant.MINIMAX)
    assert minimax is not None
    assert f"{minimax.nodes:,}" in text and "9,323" in text  # chess depth 3: the full-width tree
    table = text.split("\n\n")[1].splitlines()
    assert len({len(line) for line in table[:1]}) == 1
    assert all(line.index("value") == table[0].index("value") for line in table[:1])


# ------------------------------------------------------------------ the tree measured


def test_tree_counted_and_estimated() -> None:
    state = games.new_game("chess")
    assert count_levels(state, 3) == (1, 20, 400, 8902)
    estimate = estimate_levels(state, 3, 2000)
    assert estimate[:3] == (1.0, 20.0, 400.0)  # every line has 20 moves for the first two plies
    assert abs(estimate[3] - 8902) / 8902 < 0.05
    assert state.to_text() == games.new_game("chess").to_text()  # left as it was
    branching = measure_branching(games.new_game("tictactoe"), 9)
    assert branching.exact and branching.nodes == 549_946
    assert branching.per_level()[:3] == (9.0, 8.0, 7.0)
    uniform = sum(branching.b**level for level in range(10))
    assert abs(uniform - 549_946) / 549_946 < 1e-6  # b: the uniform tree of as many nodes


def test_default_depth() -> None:
    assert default_depth(games.new_game("tictactoe")) == 9
    assert default_depth(games.new_game("chess")) in (3, 4)


def test_estimates_past_the_quick_depth_carry_the_last_branching_factor() -> None:
    chess = quick_levels(games.new_game("chess"), 3)
    assert chess[:3] == (1.0, 20.0, 400.0)
    carried = extrapolated(chess, 6)
    assert carried[:4] == chess and len(carried) == 7
    growth = chess[3] / chess[2]
    assert carried[4] / carried[3] == pytest.approx(growth) and carried[6] / carried[5] == pytest.approx(growth)
    assert minimax_nodes(carried, 6) > MINIMAX_NODE_BUDGET  # the window warns at chess depth 6
    ended = quick_levels(games.new_game("tictactoe"), 12)
    assert ended[10:] == (0.0, 0.0, 0.0) and extrapolated(ended, 20)[10:] == (0.0,) * 11  # the game is over by ply 9
    assert deepest_within(ended) == 9 == deepest_within(extrapolated(ended, 20))
    assert extrapolated(chess, 2) == chess  # nothing to carry on


# ------------------------------------------------------------------ requests


def test_entrant_settings_are_exact_and_differ_only_in_effort() -> None:
    for entrant in ALL_ENTRANTS:
        settings = entrant_settings(entrant)
        assert is_exact(settings) and not settings.aspiration and settings.threads == 1 and not settings.book
    assert not entrant_settings(Entrant.ALPHABETA).move_ordering
    assert entrant_settings(Entrant.ALPHABETA_ORDERED).move_ordering
    assert not entrant_settings(Entrant.ALPHABETA_ORDERED).transposition_table
    assert entrant_settings(Entrant.ALPHABETA_TABLE).transposition_table


def test_parse_entrants() -> None:
    assert parse_entrants("pvs, minimax") == (Entrant.MINIMAX, Entrant.PVS)
    assert parse_entrants("all") == ALL_ENTRANTS
    for bad in ("", ",", "negascout"):
        with pytest.raises(ValueError):
            parse_entrants(bad)


@pytest.mark.parametrize(
    ("request_", "words"),
    [
        (RaceRequest(game="backgammon", depth=2), "dice"),
        (RaceRequest(game="chess", depth=0), "depth"),
        (RaceRequest(game="chess", depth=2, entrants=()), "at least one"),
        (RaceRequest(game="chess", depth=2, entrants=(Entrant.MCTS,)), "budget"),
        (RaceRequest(game="chess", depth=2, position="not a fen"), "FEN"),
        (RaceRequest(game="tictactoe", depth=2, position="xxxoo...."), "over"),
        (RaceRequest(game="go", depth=2), "go"),
    ],
)
def test_bad_requests_fail_before_any_process(request_: RaceRequest, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        prepare_race(request_)
    with pytest.raises(ValueError):
        Race(request_)


# ------------------------------------------------------------------ stop, faults, hygiene


def shm_names(pids: tuple[int, ...]) -> set[str]:
    """Names in /dev/shm that carry one of ``pids`` (shared memory is named after its
    maker's process id; other programs' come and go meanwhile)."""
    try:
        names = os.listdir("/dev/shm")
    except OSError:
        return set()
    return {name for name in names if any(f"-{pid}-" in name or f"_{pid}_" in name for pid in pids)}


def test_stop_ends_the_race_and_leaves_nothing() -> None:
    events: queue.SimpleQueue[object] = queue.SimpleQueue()
    race = Race(RaceRequest(game="chess", depth=6, entrants=(Entrant.MINIMAX, Entrant.ALPHABETA, Entrant.MCTS), workers=2), events.put)
    race.start()
    while True:  # minimax's depth 1 is done: it searches depth 2 .. 6 (minutes) now
        event = events.get(timeout=WAIT)
        if isinstance(event, DepthDone) and event.entrant is Entrant.MINIMAX:
            break
    pids = race.worker_pids
    assert pids and all(alive(pid) for pid in pids)
    race.stop()
    result = race.wait(WAIT)
    assert result is not None and result.stopped
    minimax = result.entry(Entrant.MINIMAX)
    assert minimax is not None and minimax.stopped and minimax.depth >= 1 and minimax.nodes_per_depth
    mcts = result.entry(Entrant.MCTS)
    assert mcts is not None and mcts.error is not None  # its budget never came
    assert not any(alive(pid) for pid in pids)
    assert shm_names((os.getpid(), *pids)) == set()
    assert "(stopped)" in result.as_text()
    final = []
    while not events.empty():
        final.append(events.get())
    assert isinstance(final[-1], RaceDone)


def test_a_dying_worker_gives_one_message() -> None:
    events: queue.SimpleQueue[object] = queue.SimpleQueue()
    race = Race(RaceRequest(game="chess", depth=4, entrants=(Entrant.MINIMAX, Entrant.PVS), workers=2), events.put)
    race.start()
    while True:
        event = events.get(timeout=WAIT)
        if isinstance(event, DepthDone) and event.entrant is Entrant.MINIMAX and event.depth >= 2:
            break
    pids = race.worker_pids
    os.kill(pids[0], signal.SIGKILL)  # minimax's worker: it was given the first job
    done = [event for event in iter_until_done(events)]
    result = race.wait(WAIT)
    assert result is not None
    minimax = result.entry(Entrant.MINIMAX)
    assert minimax is not None and minimax.error == "its worker process died (killed by signal 9)"
    assert minimax.nodes_per_depth[:2] == (21, 421)  # what it had shown is kept
    pvs = result.entry(Entrant.PVS)
    assert pvs is not None and pvs.finished
    messages = [event for event in done if isinstance(event, EntrantDone) and event.result.entrant is Entrant.MINIMAX]
    assert len(messages) == 1
    assert not any(alive(pid) for pid in race.worker_pids + pids)


def iter_until_done(events: queue.SimpleQueue[object]) -> list[object]:
    seen = []
    while True:
        event = events.get(timeout=WAIT)
        seen.append(event)
        if isinstance(event, RaceDone):
            return seen


def test_events_stream_depth_by_depth() -> None:
    events: list[object] = []
    result = run_race(RaceRequest(game="tictactoe", depth=4, entrants=(Entrant.MINIMAX, Entrant.PVS), workers=1), events.append)
    depths = [(event.entrant, event.depth) for event in events if isinstance(event, DepthDone)]
    assert [depth for entrant, depth in depths if entrant is Entrant.MINIMAX] == [1, 2, 3, 4]
    minimax = result.entry(Entrant.MINIMAX)
    assert minimax is not None
    assert [event.depth_nodes for event in events if isinstance(event, DepthDone) and event.entrant is Entrant.MINIMAX] == list(
        minimax.nodes_per_depth
    )
    assert isinstance(events[-1], RaceDone) and events[-1].result == result
    assert any(isinstance(event, EntrantDone) for event in events)
    assert isinstance(result.branching, Branching)
