"""Each parallel strategy alone: its plan of a search, and its merge of plain events.

No process runs here: a strategy is fed the events its parts would send and must answer
what the pool delivers (``tests/ai/test_pool.py`` runs the same on real workers).
"""

from __future__ import annotations

import dataclasses

import pytest

from ai.engine import prepare
from ai.events import CurrentMove, Finished, Iteration, Progress, RootMoveStat, Score, SearchStats
from ai.parallel import strategies
from ai.parallel.strategies import (
    ONE_PART,
    STRATEGIES,
    LazySmp,
    Part,
    RootParallel,
    RootSplit,
    SearchRun,
    SingleWorker,
    Strategy,
    node_share,
    plan,
)
from ai.parallel.worker import Role
from ai.search import ALGORITHMS, Parallelism
from ai.settings import Limits, SearchRequest, SearchSettings
from ai.tt import Bound

SEARCH_ID = 7


def iteration(depth: int, value: float, pv: tuple[object, ...], nodes: int = 10, **more: object) -> Iteration:
    return Iteration(
        search_id=0,
        depth=depth,
        seldepth=depth,
        score=Score(value),
        pv=pv,
        nodes=nodes,
        nps=float(nodes),
        time=1.0,
        hashfull=0.0,
        tt_hit_rate=0.0,
        cutoffs=0,
        first_move_cutoff_rate=0.0,
        ebf=0.0,
        **more,  # type: ignore[arg-type]
    )


def finished(move: object, value: float, depth: int = 2, nodes: int = 10, **more: object) -> Finished:
    return Finished(
        search_id=0,
        best_move=move,
        score=Score(value),
        pv=(move,) if move is not None else (),
        depth=depth,
        seldepth=depth,
        nodes=nodes,
        nps=float(nodes),
        time=1.0,
        stats=SearchStats(nodes=nodes, cutoffs=1),
        **more,  # type: ignore[arg-type]
    )


def progress(nodes: int) -> Progress:
    return Progress(search_id=0, nodes=nodes, nps=float(nodes), time=1.0, hashfull=0.0, depth=1)


def planned(algorithm: str, workers: int, game: str = "tictactoe", position: str | None = None, **limits: object) -> SearchRun:
    settings = SearchSettings(algorithm=algorithm, book=False)  # the pool passes its ``workers``
    request = SearchRequest(game, position, settings=settings, limits=Limits(**limits), search_id=SEARCH_ID)  # type: ignore[arg-type]
    return plan(request, prepare(request), workers, started=0.0)


def test_every_algorithm_declares_a_strategy() -> None:
    assert set(STRATEGIES) == set(Parallelism)
    for spec in ALGORITHMS.values():
        assert STRATEGIES[spec.parallelism].parallelism is spec.parallelism
    assert ALGORITHMS["pvs"].parallelism is Parallelism.LAZY_SMP
    assert ALGORITHMS["mcts"].parallelism is Parallelism.ROOT_PARALLEL
    assert ALGORITHMS["star2"].parallelism is Parallelism.ROOT_SPLIT
    assert ALGORITHMS["native"].parallelism is Parallelism.SINGLE_WORKER


def test_node_shares_add_up_to_the_limit() -> None:
    shares = [node_share(Limits(nodes=11), k, 3).nodes for k in range(3)]
    assert shares == [4, 4, 3]
    assert node_share(Limits(nodes=2), 2, 3).nodes == 1  # at least one node each
    assert node_share(Limits(depth=3), 1, 3) == Limits(depth=3)


# ------------------------------------------------------------------ plans
def test_lazy_smp_plans_the_whole_root_for_every_worker_over_the_shared_table() -> None:
    run = planned("pvs", 3, depth=4, nodes=900)
    assert isinstance(run.strategy, LazySmp) and run.shares_table
    assert [part.request for part in run.parts] == [run.parts[0].request] * 3  # whole limits: the main search's own
    assert run.parts[0].request.limits.nodes == 900
    assert [part.role.helper for part in run.parts] == [0, 1, 2]
    assert [part.role.sends_current_moves for part in run.parts] == [True, False, False]
    assert [part.role.sends_only_nodes for part in run.parts] == [False, True, True]
    alone = planned("pvs", 1)
    assert alone.strategy is ONE_PART and alone.shares_table and len(alone.parts) == 1


def test_root_parallel_plans_trees_with_their_own_seeds_and_node_shares() -> None:
    run = planned("mcts", 2, nodes=11)
    assert isinstance(run.strategy, RootParallel) and not run.shares_table
    seed = run.parts[0].request.settings.seed
    assert [part.request.settings.seed for part in run.parts] == [seed, seed + 1]
    assert [part.request.limits.nodes for part in run.parts] == [6, 5]
    assert [part.role.sends_current_moves for part in run.parts] == [True, False]


def test_root_split_deals_the_root_moves_out() -> None:
    run = planned("minimax", 2, depth=2, nodes=9)
    assert isinstance(run.strategy, RootSplit) and not run.shares_table
    first, second = (part.request.root_moves for part in run.parts)
    assert (first, second) == (("a3", "c3", "b2", "a1", "c1"), ("b3", "a2", "c2", "b1"))  # every other move
    assert [part.request.limits.nodes for part in run.parts] == [5, 4]
    # More workers than moves: one part per move.
    nearly_over = planned("minimax", 3, position="XOXOXO.X.")
    assert [len(part.request.root_moves) for part in nearly_over.parts] == [1, 1]


def test_a_root_split_of_one_move_or_one_worker_is_one_part() -> None:
    for run in (planned("minimax", 1), planned("expectiminimax", 2, position="XOXXOOOX.")):
        assert run.strategy is ONE_PART and [part.request.root_moves for part in run.parts] == [()]


def test_a_chance_root_runs_on_one_worker() -> None:
    run = planned("expectiminimax", 2, game="backgammon", depth=1)
    assert run.strategy is ONE_PART and len(run.parts) == 1


def test_a_single_worker_gets_every_thread() -> None:
    request = SearchRequest("tictactoe")
    (part,) = SingleWorker().parts(request, prepare(request).state, (), 2)
    assert part.request.settings.threads == 2 and part.role.helper == 0


def test_a_known_answer_is_one_part_without_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(strategies.engine, "known_answer", lambda *_args: object())
    run = planned("pvs", 3)
    assert run.strategy is ONE_PART and not run.shares_table and len(run.parts) == 1


# ----------------------------------------------------------------- merges
def run_of(strategy: Strategy, parts: int, names: tuple[tuple[str, ...], ...] = ()) -> SearchRun:
    """A run of ``parts`` parts merged by ``strategy`` (``names``: each part's root moves)."""
    request = SearchRequest("tictactoe", search_id=SEARCH_ID)
    made = [Part(k, dataclasses.replace(request, root_moves=names[k] if names else ()), Role()) for k in range(parts)]
    return SearchRun(SEARCH_ID, 0.0, strategy, made)


def test_lazy_smp_shows_the_main_search_and_stops_the_helpers_when_it_answers() -> None:
    run = run_of(LazySmp(), 2)
    main, helper = run.parts
    assert run.receive(helper, progress(30)) == ()
    (shown,) = run.receive(main, iteration(1, 0.5, (4,), nodes=20))
    assert isinstance(shown, Iteration) and shown.search_id == SEARCH_ID and shown.nodes == 50  # summed
    assert not run.answered(helper, finished(2, 9.0, depth=1))
    assert run.answered(main, finished(4, 0.5, depth=3))
    answer = run.answer(stopped=True)
    assert answer.best_move == 4 and answer.search_id == SEARCH_ID
    assert answer.stats.cutoffs == 2 and answer.nodes == 20  # stats and nodes summed over both


def test_lazy_smp_answers_from_a_helper_or_the_deeper_iteration_shown_when_the_main_search_dies() -> None:
    run = run_of(LazySmp(), 2)
    main, helper = run.parts
    run.deaths.append("worker 0 killed by signal 9")
    run.abandon(main)
    assert run.main == 1
    run.answered(helper, finished(2, 9.0, depth=3))
    assert run.answer(stopped=False).best_move == 2
    run.shown(iteration(5, 1.0, (6, 1)))
    deeper = run.answer(stopped=False)
    assert (deeper.best_move, deeper.depth, deeper.stopped) == (6, 5, True)
    assert deeper.fault is not None and "worker 0 killed by signal 9" in deeper.fault


def test_root_parallel_sums_the_trees_root_statistics() -> None:
    run = run_of(RootParallel(), 2)
    main, other = run.parts
    assert run.receive(other, iteration(1, 0.0, (1,), root_moves=(RootMoveStat(1, 30, 0.2), RootMoveStat(2, 10, 0.9)))) == ()
    (shown,) = run.receive(main, iteration(1, 0.0, (2,), root_moves=(RootMoveStat(2, 25, 0.5), RootMoveStat(1, 5, 0.8))))
    # Most visited first; a tie keeps the main tree's order.
    assert [(stat.move, stat.visits) for stat in shown.root_moves] == [(2, 35), (1, 35)]  # type: ignore[union-attr]
    assert shown.root_moves[0].value == pytest.approx((25 * 0.5 + 10 * 0.9) / 35)  # type: ignore[union-attr]
    run.answered(main, finished(2, 0.5, root_moves=(RootMoveStat(2, 25, 0.5), RootMoveStat(1, 5, 0.8))))
    run.answered(other, finished(1, 0.2, stopped=True, root_moves=(RootMoveStat(1, 40, 0.2), RootMoveStat(2, 10, 0.9))))
    answer = run.answer(stopped=False)
    # Move 1 has 45 visits over both trees, move 2 35: 1 it is, with the line of the tree that visited it most.
    assert (answer.best_move, answer.score.value, answer.stopped) == (1, 0.2, True)
    assert answer.stats.cutoffs == 2


def test_root_split_shows_a_depth_once_every_part_has_completed_it() -> None:
    run = run_of(RootSplit(), 2, names=(("a1", "c1"), ("b1", "a2")))
    first, second = run.parts
    assert run.receive(first, iteration(1, 0.1, ("a1",))) == ()
    assert run.receive(second, iteration(1, 0.7, ("b1",), bound=Bound.LOWER)) == ()  # not exact: never shown
    (shown,) = run.receive(second, iteration(1, 0.7, ("b1",)))
    assert shown.pv == ("b1",) and shown.depth == 1 and run.reported_depth == 1  # type: ignore[union-attr]
    assert run.receive(second, iteration(2, 0.0, ("a2",))) == ()
    (deeper,) = run.receive(first, iteration(2, 0.3, ("c1",)))
    assert deeper.pv == ("c1",)  # type: ignore[union-attr]


def test_root_split_numbers_the_first_running_parts_move_among_the_whole_root() -> None:
    run = run_of(RootSplit(), 2, names=(("a1", "c1", "b2"), ("b1", "a2")))
    first, second = run.parts
    move = CurrentMove(search_id=0, depth=1, move="c1", number=2, total=3)
    (shown,) = run.receive(first, move)
    assert (shown.number, shown.total, shown.search_id) == (3, 5, SEARCH_ID)  # type: ignore[union-attr]
    assert run.receive(second, move) == () and run.receive(second, progress(5)) == ()
    run.answered(first, finished("a1", 0.0))
    (later,) = run.receive(second, move)  # now the first running part
    assert later.number == 4  # type: ignore[union-attr]


def test_root_split_answers_with_the_best_part_or_not_at_all_when_a_part_was_lost() -> None:
    run = run_of(RootSplit(), 2, names=(("a1",), ("b1",)))
    first, second = run.parts
    run.answered(first, finished("a1", 0.2, depth=4))
    run.answered(second, finished("b1", 0.6, depth=3, root_moves=(RootMoveStat("b1", 0, 0.6),)))
    answer = run.answer(stopped=False)
    assert (answer.best_move, answer.depth, answer.nodes, answer.stats.cutoffs) == ("b1", 3, 20, 2)
    assert answer.root_moves == (RootMoveStat("b1", 0, 0.6),)
    lost = run_of(RootSplit(), 2, names=(("a1",), ("b1",)))
    lost.answered(lost.parts[0], finished("a1", 0.2))
    lost.deaths.append("worker 1 exited with status 1")
    lost.abandon(lost.parts[1])
    assert lost.answer(stopped=False).error == "the search was lost: worker 1 exited with status 1"
    assert lost.answer(stopped=True).best_move == "a1"  # stopped: each part answers with what it has
    lost.shown(iteration(2, 0.4, ("b1",)))
    assert lost.answer(stopped=False).best_move == "b1"  # the last iteration shown answers


def test_which_lost_parts_are_searched_again() -> None:
    assert RootSplit().searches_again(run_of(RootSplit(), 2))
    assert not LazySmp().searches_again(run_of(LazySmp(), 2))
    assert not RootParallel().searches_again(run_of(RootParallel(), 2))
    alone = run_of(ONE_PART, 1)
    assert ONE_PART.searches_again(alone)
    alone.shown(iteration(1, 0.0, (1,)))
    assert not ONE_PART.searches_again(alone)  # the iteration shown answers instead


def test_an_error_from_any_part_is_the_answer() -> None:
    run = run_of(RootSplit(), 2, names=(("a1",), ("b1",)))
    run.answered(run.parts[0], finished("a1", 0.2))
    run.answered(run.parts[1], dataclasses.replace(finished(None, 0.0), error="bad weights"))
    answer = run.answer(stopped=False)
    assert answer.error == "bad weights" and answer.search_id == SEARCH_ID
