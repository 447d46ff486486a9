"""The recorded tree on its way from the searches to whoever shows it.

Three layers, each against an independent truth:

* ``SearchTree`` joins the batches of a root split's workers into one tree: plain minimax
  searches of a tic-tac-toe position, each over a share of the root moves and each
  numbering its nodes from 0 (``ShareRecorder``, written here from the rules alone), make
  one tree whose root has every legal move, whose size is their node counts together and
  whose root value is the position's minimax value; a batch cut into slices makes the same
  tree.
* The strategies decide who records and close the tree with the answer's counts, fed plain
  batches (no process).
* The pool, on real worker processes, delivers the batches: Lazy SMP's main tree plus the
  helpers' nodes is the answer's node count; a root split's tree is one whole tree.
"""

from __future__ import annotations

import dataclasses
import math
import multiprocessing
import pickle
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ai.cores import available_cores
from ai.engine import prepare
from ai.events import Finished, Progress, Score
from ai.parallel import EnginePool
from ai.parallel.strategies import LazySmp, RootParallel, RootSplit, plan
from ai.settings import MAX_TREE_CAP, Limits, SearchRequest, SearchSettings, SettingError, check_tree_options
from ai.tree.model import (
    ROOT_PARENT,
    WORKER_SPAN,
    Cut,
    NodeEntry,
    NodeExit,
    NodeKind,
    SearchTree,
    TreeBatch,
    TreeOptions,
    TreePass,
)
from ai.tt import Bound
from games import new_game
from games.base import GameState

OPENING = (4, 0)
"""X in the centre, O in a corner: seven empty squares, a few thousand nodes to the end."""
NODES_PER_BATCH = 97
"""The reference recorder sends a batch every so many entries (a prime, so that batches
end at every depth)."""


def position() -> GameState:
    state = new_game("tictactoe")
    for move in OPENING:
        state.play(move)
    return state


def minimax_value(state: GameState, root_player: int) -> float:
    """The exact value for ``root_player`` (an independent negamax-free minimax)."""
    if state.is_terminal():
        return state.utility(root_player)
    values = []
    for move in state.legal_moves():
        state.play(move)
        values.append(minimax_value(state, root_player))
        state.undo()
    return max(values) if state.to_move() == root_player else min(values)


class ShareRecorder:
    """A plain minimax over ``moves`` at the root, recorded as the engine's recorder sends
    it: nodes numbered in visit order from 0, windows and values in the root player's view,
    a batch every ``NODES_PER_BATCH`` entries, a pass per call at the root."""

    def __init__(self, state: GameState, moves: list[Any]) -> None:
        self.state = state
        self.moves = moves
        self.root_player = state.to_move()
        self.count = 0
        self.pass_count = 0
        self.batches: list[TreeBatch] = []
        self._passes: list[TreePass] = []
        self._entries: list[NodeEntry] = []
        self._exits: list[NodeExit] = []

    def search(self, iteration: int = 9) -> float:
        """One pass; its value."""
        self._passes.append(TreePass(self.pass_count, self.count, iteration, -math.inf, math.inf))
        self.pass_count += 1
        return self._node(ROOT_PARENT, None, 9, self.moves)

    def _node(self, parent: int, move: Any, depth: int, moves: list[Any] | None = None) -> float:
        state = self.state
        index = self.count
        self.count += 1
        terminal = state.is_terminal()
        kind = NodeKind.TERMINAL if terminal else NodeKind.MAX if state.to_move() == self.root_player else NodeKind.MIN
        self._entries.append(NodeEntry(index, parent, move, depth, kind, -math.inf, math.inf))
        if len(self._entries) >= NODES_PER_BATCH:
            self.flush()
        if terminal:
            value = state.utility(self.root_player)
        else:
            values = []
            for child in moves if moves is not None else state.legal_moves():
                state.play(child)
                values.append(self._node(index, child, depth - 1))
                state.undo()
            value = max(values) if kind is NodeKind.MAX else min(values)
        self._exits.append(NodeExit(index, value, Bound.EXACT, kind))
        return value

    def flush(self, complete: bool = False) -> None:
        self.batches.append(
            TreeBatch(
                0,
                passes=tuple(self._passes),
                entries=tuple(self._entries),
                exits=tuple(self._exits),
                nodes=self.count,
                complete=complete,
            )
        )
        self._passes, self._entries, self._exits = [], [], []


def split_search(workers: int, passes: int = 1) -> tuple[list[list[TreeBatch]], list[int]]:
    """Each worker's batches (stamped with its number, as the pool stamps them) and node
    count, for a root split of ``position()`` among ``workers`` searches."""
    state = position()
    moves = state.legal_moves()
    streams, counts = [], []
    for worker in range(workers):
        recorder = ShareRecorder(state.copy(), moves[worker::workers])
        for number in range(passes):
            recorder.search(iteration=number + 1)
        recorder.flush(complete=True)
        streams.append([dataclasses.replace(batch, worker=worker) for batch in recorder.batches])
        counts.append(recorder.count)
    return streams, counts


def interleaved(streams: list[list[TreeBatch]]) -> list[TreeBatch]:
    """The workers' batches as the pool forwards them: each worker's in order, mixed."""
    mixed: list[TreeBatch] = []
    for round_number in range(max(len(stream) for stream in streams)):
        for stream in reversed(streams):  # the last worker first: its root may come first
            if round_number < len(stream):
                mixed.append(stream[round_number])
    return mixed


# ------------------------------------------------------------------ SearchTree merge
@pytest.mark.parametrize("workers", [1, 2, 3])
def test_a_root_splits_workers_make_one_whole_tree(workers: int) -> None:
    streams, counts = split_search(workers)
    tree = SearchTree()
    for batch in interleaved(streams):
        tree.add(batch)
    state = position()
    assert len(tree.passes) == 1
    (root,) = tree.roots()
    assert root.visits == workers
    assert sorted(child.move for child in tree.children(root.index)) == sorted(state.legal_moves())
    assert tree.size(root.index) == sum(counts) == tree.total_nodes()
    assert len(tree) == sum(counts) - (workers - 1)  # one root for all
    assert tree.searched_nodes == sum(counts)
    assert root.value == minimax_value(state, state.to_move()) and root.bound is Bound.EXACT
    root_player = state.to_move()
    for child in tree.children(root.index):
        state.play(child.move)
        assert child.value == minimax_value(state, root_player), child
        state.undo()
    assert all(not node.is_open for node in tree.nodes)
    # every node hangs under the root, and its parent's children name it once
    assert sum(len(node.children) for node in tree.nodes) == len(tree) - 1
    assert {node.index // WORKER_SPAN for node in tree.nodes} == set(range(workers))
    assert tree.path(tree.nodes[-1].index)[0] is root


def test_the_shared_root_stays_open_until_every_worker_has_left_it() -> None:
    streams, counts = split_search(2)
    tree = SearchTree()
    for batch in streams[0]:
        tree.add(batch)
    (root,) = tree.roots()
    assert not root.is_open
    tree.add(streams[1][0])
    assert root.is_open and root.visits == 2
    for batch in streams[1][1:]:
        tree.add(batch)
    assert not root.is_open and tree.size(root.index) == sum(counts)


def test_passes_of_the_same_iteration_merge_and_their_sizes_add_up() -> None:
    streams, counts = split_search(2, passes=3)
    tree = SearchTree()
    for batch in interleaved(streams):
        tree.add(batch)
    assert [tree_pass.number for tree_pass in tree.passes] == [0, 1, 2]
    assert [tree_pass.iteration for tree_pass in tree.passes] == [1, 2, 3]
    assert sum(tree.pass_nodes(number) for number in range(3)) == sum(counts)
    assert all(root.visits == 2 for root in tree.roots())
    assert {node.pass_number for node in tree.nodes} == {0, 1, 2}
    for number, root in enumerate(tree.roots()):
        assert all(node.pass_number == number for node in tree.subtree(root.index))


def test_one_worker_keeps_its_own_numbers() -> None:
    (stream,), (count,) = split_search(1)
    tree = SearchTree()
    for batch in stream:
        tree.add(batch)
    assert [node.index for node in tree.nodes] == list(range(count))
    assert tree.complete and tree.searched_nodes == count


def assert_nothing_open_below_a_left_node(tree: SearchTree, piece: TreeBatch) -> None:
    """A node is never shown left while something below it is still open. A piece can break
    that only where it changed the tree: a node it left (its children must all be left), or
    a node it entered (under a left parent it must be left too); a shared root reopened by
    another worker has no parent. So those pairs are checked, not the whole tree each time."""
    offset = piece.worker * WORKER_SPAN
    for left in piece.exits:
        index = left.index + offset
        if index in tree and not tree.node(index).is_open:
            assert all(not child.is_open for child in tree.children(index))
    for root in tree.roots():  # a worker's shared root is known by the first worker's index
        if not root.is_open:
            assert all(not child.is_open for child in tree.children(root.index))
    for entry in piece.entries:
        index = entry.index + offset
        if entry.parent != ROOT_PARENT and index in tree:
            node = tree.node(index)
            assert not (node.parent in tree and not tree.node(node.parent).is_open and node.is_open)


@pytest.mark.parametrize("size", [1, 7, 40, 10_000])
def test_a_batch_cut_into_slices_makes_the_same_tree(size: int) -> None:
    streams, _ = split_search(2)
    whole, sliced = SearchTree(), SearchTree()
    pieces = 0
    for batch in interleaved(streams):
        whole.add(batch)
        slices = batch.split(size)
        assert sum(len(piece.entries) for piece in slices) == len(batch.entries)
        assert sum(len(piece.exits) for piece in slices) == len(batch.exits)
        assert all(len(piece.entries) <= size for piece in slices)
        assert [piece.complete for piece in slices].count(True) == int(batch.complete)
        pieces += len(slices)
        for piece in slices:
            sliced.add(piece)
            assert_nothing_open_below_a_left_node(sliced, piece)
    assert pieces >= len(interleaved(streams))
    assert [dataclasses.astuple(node) for node in sliced.nodes] == [dataclasses.astuple(node) for node in whole.nodes]
    for node in sliced.nodes:  # the sizes settled as nodes were left are the walked ones
        assert sliced.size(node.index) == sum(below.visits + below.unrecorded for below in sliced.subtree(node.index))
    assert sliced.passes == whole.passes
    with pytest.raises(ValueError):
        TreeBatch(0).split(0)


# ------------------------------------------------------------------ options
@pytest.mark.parametrize(
    "options",
    [
        TreeOptions(cap=0),
        TreeOptions(cap=-5),
        TreeOptions(cap=MAX_TREE_CAP + 1),
        TreeOptions(cap=10**100),
        TreeOptions(cap=True),
        TreeOptions(cap=2.5),  # type: ignore[arg-type]
        TreeOptions(cap="100"),  # type: ignore[arg-type]
        TreeOptions(whole_plies=-1),
        TreeOptions(whole_plies=10**6),
        TreeOptions(batch_seconds=math.nan),
        TreeOptions(batch_seconds=math.inf),
        TreeOptions(batch_seconds=0.0),
        TreeOptions(batch_seconds=-1.0),
        TreeOptions(batch_seconds=1e9),
        TreeOptions(batch_seconds="0.1"),  # type: ignore[arg-type]
        "cap=5",
        {"cap": 5},
    ],
)
def test_hostile_tree_options_are_refused_when_the_request_is_made(options: Any) -> None:
    with pytest.raises(SettingError) as refused:
        SearchRequest("tictactoe", tree=options)
    assert refused.value.name.startswith("tree")
    with pytest.raises(SettingError):
        check_tree_options(options)
    request = SearchRequest("tictactoe")
    with pytest.raises(SettingError):
        dataclasses.replace(request, tree=options)


def test_sane_tree_options_are_taken() -> None:
    for options in (None, TreeOptions(), TreeOptions(cap=1, whole_plies=0), TreeOptions(cap=MAX_TREE_CAP, batch_seconds=10)):
        assert SearchRequest("tictactoe", tree=options).tree == options


# ------------------------------------------------------------------ strategies
def planned(algorithm: str, workers: int, tree: TreeOptions | None = TreeOptions()) -> Any:
    settings = SearchSettings(algorithm=algorithm, book=False)
    request = SearchRequest("tictactoe", settings=settings, limits=Limits(depth=3), search_id=5, tree=tree)
    return plan(request, prepare(request), workers, started=0.0)


def answer(nodes: int) -> Finished:
    return Finished(5, 4, Score(0.0), (4,), 3, 3, nodes, 1.0, 1.0)


def test_only_the_shown_search_records() -> None:
    lazy = planned("pvs", 3)
    assert isinstance(lazy.strategy, LazySmp)
    assert [part.records_tree for part in lazy.parts] == [True, False, False]
    mcts = planned("mcts", 2)
    assert isinstance(mcts.strategy, RootParallel)
    assert [part.records_tree for part in mcts.parts] == [True, False]
    split = planned("minimax", 2)
    assert isinstance(split.strategy, RootSplit)
    assert [part.records_tree for part in split.parts] == [True, True]
    assert not planned("pvs", 2, tree=None).records_tree


def test_lazy_smp_forwards_the_main_tree_and_closes_it_with_the_helpers_nodes() -> None:
    run = planned("pvs", 2)
    main, helper = run.parts
    for part in run.parts:
        part.start_attempt(part.number)
    run.receive(helper, Progress(0, 300, 1.0, 1.0, 0.0, 1))
    (sent,) = run.receive(main, TreeBatch(0, entries=(NodeEntry(0, ROOT_PARENT, None, 3, NodeKind.MAX, -1, 1),), nodes=1, complete=True))
    assert sent.search_id == 5 and sent.worker == 0 and sent.helper_nodes == 300 and not sent.complete
    assert run.receive(helper, TreeBatch(0, nodes=9)) == ()  # a helper's tree is nobody's
    run.answered(main, answer(120))
    run.answered(helper, answer(310))
    (closing,) = run.closing_batches()
    assert closing.complete and closing.nodes == 120 and closing.helper_nodes == 310
    assert closing.nodes + closing.helper_nodes == run.answer(stopped=False).nodes


def test_a_root_split_forwards_every_parts_tree_and_closes_each() -> None:
    run = planned("minimax", 2)
    for part in run.parts:
        part.start_attempt(part.number)
    workers = [run.receive(part, TreeBatch(0, nodes=4))[0].worker for part in run.parts]
    assert workers == [0, 1]
    run.answered(run.parts[0], answer(40))
    run.answered(run.parts[1], answer(50))
    closing = run.closing_batches()
    assert [(batch.worker, batch.nodes, batch.helper_nodes, batch.complete) for batch in closing] == [
        (0, 40, 0, False),
        (1, 50, 0, True),
    ]
    tree = SearchTree()
    for batch in closing:
        tree.add(batch)
    assert tree.searched_nodes == run.answer(stopped=False).nodes == 90 and tree.complete


def test_a_part_searched_again_numbers_its_tree_apart() -> None:
    run = planned("minimax", 2)
    part = run.parts[1]
    part.start_attempt(1)
    first = run.receive(part, TreeBatch(0, nodes=4))[0].worker
    part.lose_attempt()
    part.start_attempt(0)
    again = run.receive(part, TreeBatch(0, nodes=4))[0].worker
    assert first == 1 and again not in (0, 1)


def test_a_search_that_records_nothing_sends_no_closing_batch() -> None:
    run = planned("pvs", 2, tree=None)
    for part in run.parts:
        part.start_attempt(part.number)
        run.answered(part, answer(10))
    assert run.closing_batches() == ()


def test_a_batch_crosses_a_pipe_unchanged() -> None:
    streams, _ = split_search(2)
    batch = dataclasses.replace(
        streams[1][0], helper_nodes=5, sampled=True, complete=True, cuts=(Cut(1, 4, (5, 6)),), nodes=77
    )
    back = pickle.loads(pickle.dumps(batch, protocol=pickle.HIGHEST_PROTOCOL))
    assert back == batch and type(back.entries[0]) is NodeEntry and type(back.exits[0]) is NodeExit
    assert back.entries[0].kind is batch.entries[0].kind and back.worker == 1
    assert type(back.cuts[0]) is Cut and back.cuts[0].skipped == (5, 6)


# ------------------------------------------------------------------ the pool
TWO_WORKERS = pytest.mark.skipif(available_cores() < 2, reason="a pool of 2 workers needs 2 cores")


def pool_search(pool: EnginePool, request: SearchRequest) -> tuple[SearchTree, Finished, list[TreeBatch]]:
    tree = SearchTree()
    batches: list[TreeBatch] = []
    answer = None
    for event in pool.search(request):
        if isinstance(event, TreeBatch):
            assert answer is None  # every batch before the answer
            batches.append(event)
            tree.add(event)
        elif isinstance(event, Finished):
            answer = event
    assert answer is not None and answer.error is None, answer
    return tree, answer, batches


@pytest.fixture
def pool() -> Iterator[EnginePool]:
    engine = EnginePool(workers=2, hash_megabytes=1)
    table = Path("/dev/shm") / engine._table.name
    yield engine
    engine.shutdown()
    assert multiprocessing.active_children() == []
    assert not table.exists()


@TWO_WORKERS
def test_lazy_smp_shows_the_main_tree_and_counts_the_helpers(pool: EnginePool) -> None:
    settings = SearchSettings(algorithm="pvs", threads=2, book=False)
    request = SearchRequest("tictactoe", settings=settings, limits=Limits(depth=6), tree=TreeOptions())
    tree, answer, batches = pool_search(pool, request)
    assert tree.complete and [batch.complete for batch in batches].count(True) == 1 and batches[-1].complete
    assert all(batch.search_id == answer.search_id and batch.worker == 0 for batch in batches)
    assert tree.total_nodes() == tree.searched_nodes > 0  # the main worker's counter, node for node
    assert tree.total_nodes() + tree.helper_nodes == answer.nodes
    assert tree.helper_nodes > 0  # the helper searched, and is not in the tree
    assert [tree_pass.iteration for tree_pass in tree.passes if not tree_pass.label] == list(range(1, 7))
    assert all(node.index < WORKER_SPAN for node in tree.nodes)


@TWO_WORKERS
def test_a_root_split_shows_one_whole_tree(pool: EnginePool) -> None:
    state = position()
    settings = SearchSettings(algorithm="minimax", threads=2, iterative_deepening=False, book=False)
    opening = new_game("tictactoe")
    names = []
    for move in OPENING:
        names.append(opening.move_name(move))
        opening.play(move)
    request = SearchRequest("tictactoe", moves=tuple(names), settings=settings, limits=Limits(depth=9), tree=TreeOptions())
    tree, answer, batches = pool_search(pool, request)
    assert {batch.worker for batch in batches} == {0, 1}
    (root,) = tree.roots()
    assert root.visits == 2 and len(tree.passes) == 1
    assert sorted(child.move for child in tree.children(root.index)) == sorted(state.legal_moves())
    assert tree.size(root.index) == answer.nodes == tree.searched_nodes
    assert len(tree) == answer.nodes - 1
    scale = tree.passes[0].scale
    assert root.value / scale == minimax_value(state, state.to_move()) and root.bound is Bound.EXACT
    assert tree.helper_nodes == 0 and tree.complete and not tree.sampled
    assert all(not node.is_open for node in tree.nodes)


def test_a_search_without_tree_sends_no_batch() -> None:
    with EnginePool(workers=1, hash_megabytes=1) as engine:
        events = list(engine.search(SearchRequest("tictactoe", settings=SearchSettings(book=False), limits=Limits(depth=3))))
    assert not any(isinstance(event, TreeBatch) for event in events)
    assert isinstance(events[-1], Finished) and events[-1].error is None
