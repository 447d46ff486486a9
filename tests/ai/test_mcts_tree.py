"""The MCTS tree as recorded (``ai.tree.mcts``): the snapshots agree with the search's own
tree, their UCB1 numbers with the formula computed here from the snapshot's numbers and the
documented constant, and recording never changes what the search does.

Independent truths: the search object's own tree (read after the search), UCB1 written
out here from its definition (Browne et al. 2012, algorithm 2, with the search's documented
normalisation of the mean into [0, 1]), and the same search run without recording.
"""

from __future__ import annotations

import math
import pickle
from typing import Any

import pytest

from games import new_game
from games.base import CHANCE, GameState

from ai.context import SearchContext
from ai.control import SearchControl
from ai.engine import search as engine_search
from ai.events import Finished, SearchEvent
from ai.parallel import EnginePool
from ai.search import mcts
from ai.settings import Limits, SearchRequest, SearchSettings
from ai.tree.mcts import MctsNodeStat, MctsSnapshot, VisitHistory
from ai.tree.model import ROOT_PARENT, NodeKind, TreeOptions

POSITIONS = [
    ("tictactoe", None, 6_000),
    ("tictactoe", "x...o....", 3_000),
    ("othello", None, 6_000),
    ("chess", None, 3_000),
    ("backgammon", None, 6_000),
]
"""A game, a position (None: the start) and a node limit: win/loss, disc margin, a long
random playout, and a chance root (backgammon's opening roll)."""


def searched(
    state: GameState, nodes: int, tree: TreeOptions | None, **settings: Any
) -> tuple[mcts.MonteCarloTreeSearch, list[MctsSnapshot], Any]:
    """An MCTS search of ``state`` to ``nodes`` nodes, recording with ``tree`` (or not):
    the search object (its tree), the snapshots it sent and its answer."""
    snapshots: list[MctsSnapshot] = []

    def on_event(event: SearchEvent | MctsSnapshot) -> None:
        if isinstance(event, MctsSnapshot):
            snapshots.append(event)

    context = SearchContext(
        settings=SearchSettings(algorithm="mcts", **settings),
        control=SearchControl(Limits(nodes=nodes)),
        tree=tree,
    )
    context.emit = on_event  # type: ignore[assignment]
    search = mcts.MonteCarloTreeSearch(state, context)
    answer = search.run()
    return search, snapshots, answer


def position(game: str, text: str | None) -> GameState:
    return new_game(game, text) if text else new_game(game)


def every_snapshot_option() -> TreeOptions:
    """Snapshots every few milliseconds, so that a short search sends several."""
    return TreeOptions(batch_seconds=0.003)


def search_nodes(search: mcts.MonteCarloTreeSearch, snapshot: MctsSnapshot) -> dict[int, mcts.Node]:
    """Each snapshot node's node in the search's tree, found by its moves from the root."""
    found: dict[int, mcts.Node] = {}
    for stat in snapshot.nodes_shown:
        if stat.parent == ROOT_PARENT:
            found[stat.index] = search.root
            continue
        parent = found[stat.parent]
        children = (
            [child for child in parent.outcome_children if child is not None]
            if parent.player == CHANCE
            else parent.children
        )
        matches = [child for child in children if child.move == stat.move]
        assert len(matches) == 1, f"{stat} has {len(matches)} matches in the tree"
        found[stat.index] = matches[0]
    return found


def count_tree(node: mcts.Node) -> int:
    """Nodes in the search's tree below and including ``node``, counted by walking it."""
    children = node.children + [child for child in node.outcome_children if child is not None]
    return 1 + sum(count_tree(child) for child in children)


def player_of(stat: MctsNodeStat, root_player: int) -> int:
    """Player to move at a decision node, from its kind (MAX is the root player)."""
    assert stat.kind.is_decision
    return root_player if stat.kind is NodeKind.MAX else 1 - root_player


# ------------------------------------------------------------------ against the tree
@pytest.mark.parametrize(("game", "text", "nodes"), POSITIONS)
def test_the_last_snapshot_is_the_search_tree(game: str, text: str | None, nodes: int) -> None:
    search, snapshots, _ = searched(position(game, text), nodes, TreeOptions())
    last = snapshots[-1]
    assert last.complete and all(not snapshot.complete for snapshot in snapshots[:-1])
    assert last.iterations == search.iterations and last.nodes == nodes
    assert last.tree_size == count_tree(search.root)
    root_sign = 1.0 if search.root_player == 0 else -1.0
    nodes_of = search_nodes(search, last)
    for stat in last.nodes_shown:
        node = nodes_of[stat.index]
        where = f"{game} {text}: node {stat.index} after {[s.move for s in last.path(stat.index)[1:]]}"
        assert stat.visits == node.visits, where
        assert stat.value == pytest.approx(root_sign * node.total / max(node.visits, 1)), where
        assert stat.untried == len(node.untried), where
        assert stat.child_count == len(node.children) + sum(c is not None for c in node.outcome_children), where
        shown = last.children(stat.index)
        assert len(shown) in (0, stat.child_count), f"{where}: children shown all or none"
    # The root and every child of it are always shown.
    assert len(last.children(0)) == last.root.child_count > 0


@pytest.mark.parametrize(("game", "text", "nodes"), POSITIONS)
def test_visits_add_up_by_the_search_rule(game: str, text: str | None, nodes: int) -> None:
    """Each iteration adds one visit to every node on its path and ends at the node it
    expanded (or a terminal or proven one): so an open node's visits are its children's plus
    one (its own expansion), and the root's are exactly its children's (never expanded by an
    iteration), which also equal the iterations run."""
    _, snapshots, _ = searched(position(game, text), nodes, every_snapshot_option())
    assert len(snapshots) >= 2
    for snapshot in snapshots:
        assert snapshot.root.visits == snapshot.iterations
        for stat in snapshot.nodes_shown:
            children = snapshot.children(stat.index)
            if not children or stat.proven is not None or stat.kind is NodeKind.TERMINAL:
                continue
            own_expansion = 0 if stat.parent == ROOT_PARENT else 1
            assert stat.visits == sum(child.visits for child in children) + own_expansion, (
                f"{game}: node {stat.index} ({stat.kind}) {stat.visits} visits, children {[c.visits for c in children]}"
            )


@pytest.mark.parametrize(("game", "text", "nodes"), POSITIONS)
def test_uct_numbers_follow_ucb1_from_the_snapshot_numbers(game: str, text: str | None, nodes: int) -> None:
    """exploration = C sqrt(ln N(parent) / N(child)) with the documented constant; the
    exploitation term is the chooser's mean normalised by the rewards' range; uct is their sum;
    the pick is the largest uct among the children a fully expanded node may choose."""
    constant = SearchSettings().exploration
    assert constant == pytest.approx(1.41)
    _, snapshots, _ = searched(position(game, text), nodes, every_snapshot_option())
    checked = 0
    for snapshot in snapshots:
        assert snapshot.exploration_constant == constant
        least, greatest = snapshot.least_reward, snapshot.greatest_reward
        for parent in snapshot.nodes_shown:
            children = snapshot.children(parent.index)
            if not children:
                continue
            if parent.kind is NodeKind.CHANCE:
                assert all(math.isnan(child.uct) for child in children), "an outcome is drawn, not chosen"
                assert sum(child.probability for child in children) <= 1.0 + 1e-9
                assert not any(child.is_pick for child in children)
                continue
            mover = player_of(parent, snapshot.root_player)
            low, high = (least, greatest) if mover == 0 else (-greatest, -least)
            for child in children:
                if child.visits == 0:  # made by an iteration the stop cut short
                    assert math.isnan(child.uct)
                    continue
                if child.proven is not None and child.proven * (1 if mover == snapshot.root_player else -1) < 0:
                    continue  # selection skips the mover's proven losses
                expected_mean = (child.value if mover == snapshot.root_player else -child.value)
                assert child.mover_value == pytest.approx(expected_mean)
                exploitation = (expected_mean - low) / (high - low) if high > low else 0.5
                exploration = constant * math.sqrt(math.log(parent.visits) / child.visits)
                assert child.exploitation == pytest.approx(exploitation, abs=1e-12)
                assert child.exploration == pytest.approx(exploration, abs=1e-12)
                assert child.uct == pytest.approx(exploitation + exploration, abs=1e-12)
                checked += 1
            picks = [child for child in children if child.is_pick]
            if parent.untried or parent.proven is not None:
                assert not picks, "a node with untried moves expands one; a proven node is not entered"
            elif any(child.visits == 0 for child in children):
                assert len(picks) == 1 and picks[0].visits == 0, "an unvisited child is tried first"
            else:
                choosable = [child for child in children if not math.isnan(child.uct)]
                assert len(picks) == 1 and picks[0].uct == max(child.uct for child in choosable)
    assert checked > 10


def test_a_picked_child_is_where_the_next_iteration_goes() -> None:
    """The pick marked at the root is the child the very next iteration descends into."""
    state = new_game("tictactoe")
    search, snapshots, _ = searched(state, 4_000, TreeOptions())
    last = snapshots[-1]
    picks = [child for child in last.children(0) if child.is_pick]
    assert len(picks) == 1
    before = {child.move: child.visits for child in search.root.children}
    search.iterate()
    after = {child.move: child.visits for child in search.root.children}
    grown = [move for move in after if after[move] != before.get(move, 0)]
    assert grown == [picks[0].move]


# ------------------------------------------------------------------ recording is harmless
@pytest.mark.parametrize(("game", "text", "nodes"), POSITIONS)
def test_recording_changes_nothing_in_the_search(game: str, text: str | None, nodes: int) -> None:
    plain, none_sent, plain_answer = searched(position(game, text), nodes, None, seed=5)
    recorded, sent, recorded_answer = searched(position(game, text), nodes, every_snapshot_option(), seed=5)
    assert none_sent == [] and len(sent) >= 2
    assert recorded.iterations == plain.iterations
    assert recorded_answer.best_move == plain_answer.best_move
    assert recorded_answer.score == plain_answer.score
    assert recorded_answer.pv == plain_answer.pv
    assert recorded_answer.nodes == plain_answer.nodes == nodes
    assert recorded_answer.root_moves == plain_answer.root_moves


def test_snapshots_are_sent_through_the_engine_and_pickle() -> None:
    """The engine's ``search(..., tree=...)`` path: snapshots reach ``on_event`` and survive
    the pool's pipe (pickle) unchanged."""
    events: list[Any] = []
    answer = engine_search(
        new_game("tictactoe"),
        SearchSettings(algorithm="mcts"),
        Limits(nodes=3_000),
        on_event=events.append,
        tree=TreeOptions(),
        search_id=7,
    )
    snapshots = [event for event in events if isinstance(event, MctsSnapshot)]
    assert snapshots and snapshots[-1].complete and all(s.search_id == 7 for s in snapshots)
    last = snapshots[-1]
    assert repr(pickle.loads(pickle.dumps(last))) == repr(last)  # NaN terms: == would fail on them
    best = last.children(0)[0]
    assert best.move == answer.best_move


# ------------------------------------------------------------------ bounds and history
def test_the_snapshot_is_bounded_by_the_cap_but_keeps_the_whole_root() -> None:
    state = new_game("othello")
    _, snapshots, _ = searched(state, 20_000, TreeOptions(cap=30))
    for snapshot in snapshots:
        root_children = snapshot.root.child_count
        assert len(snapshot.children(0)) == root_children
        opened = [stat for stat in snapshot.nodes_shown if snapshot.children(stat.index)]
        largest_fan = max(stat.child_count for stat in opened)
        assert len(snapshot.nodes_shown) <= max(30, 1 + root_children) + largest_fan
        assert snapshot.tree_size > len(snapshot.nodes_shown)


def test_the_most_visited_nodes_are_the_ones_shown() -> None:
    """Best first by visits: a node left closed has no more visits than any node opened
    (the root aside, which is always opened)."""
    _, snapshots, _ = searched(new_game("tictactoe"), 20_000, TreeOptions(cap=200))
    last = snapshots[-1]
    opened = [stat for stat in last.nodes_shown[1:] if last.children(stat.index)]
    closed = [stat for stat in last.nodes_shown if not last.children(stat.index) and stat.child_count]
    assert opened and closed
    assert max(stat.visits for stat in closed) <= min(stat.visits for stat in opened)


@pytest.mark.parametrize(("game", "text", "nodes"), POSITIONS)
def test_history_of_root_visits(game: str, text: str | None, nodes: int) -> None:
    """Each sample's root visits add up to its iterations (every iteration passes one root
    child); samples are in order, the last at the final count, aligned with root_moves."""
    _, snapshots, _ = searched(position(game, text), nodes, every_snapshot_option())
    last = snapshots[-1]
    history = last.history
    assert history and history[-1].iterations == last.iterations
    assert [sample.iterations for sample in history] == sorted({sample.iterations for sample in history})
    for sample in history:
        assert sum(sample.visits) == sample.iterations
        assert len(sample.visits) <= len(last.root_moves)
    for snapshot in snapshots:  # each ends at the numbers its table shows, live ones too
        by_move = {child.move: child.visits for child in snapshot.children(0)}
        end = snapshot.history[-1]
        assert end.iterations == snapshot.iterations
        assert [end.visits_of(k) for k in range(len(snapshot.root_moves))] == [by_move.get(m, 0) for m in snapshot.root_moves]


def test_history_thins_evenly_and_stays_bounded() -> None:
    history = VisitHistory(limit=16)
    iterations = 0
    while iterations < 10_000:
        iterations += 1
        if history.is_due(iterations):
            history.add(iterations, (iterations,))
    samples = [sample.iterations for sample in history.samples]
    assert len(samples) < 16
    steps = {later - earlier for earlier, later in zip(samples, samples[1:])}
    assert len(steps) == 1, f"uneven spacing {samples}"
    assert samples[-1] > 10_000 - 2 * steps.pop()


def test_a_proven_root_is_shown_proven() -> None:
    """x to move wins at once: the solver proves the root; the winning child is shown proven
    (+1 for the root player) and the root too."""
    state = new_game("tictactoe", "xx.oo....")
    _, snapshots, answer = searched(state, 50_000, TreeOptions())
    last = snapshots[-1]
    assert last.root.proven == 1.0
    winner = next(child for child in last.children(0) if child.move == answer.best_move)
    assert winner.proven == 1.0 and winner.kind is NodeKind.TERMINAL
    assert state.move_name(answer.best_move) == "c3"


# ------------------------------------------------------------------ through the pool
def test_root_parallel_shows_the_main_tree_and_the_merged_root() -> None:
    """Two trees on two worker processes: the snapshots are tree 0's (the only one that
    records), stamped with the pool's search id, the number of trees and the root summed
    over both, which is the answer's merged root at the end."""
    pool = EnginePool(workers=2)
    try:
        request = SearchRequest(
            game="tictactoe",
            settings=SearchSettings(algorithm="mcts", threads=2),
            limits=Limits(nodes=40_000),
            tree=TreeOptions(),
        )
        events = list(pool.search(request))
    finally:
        pool.shutdown()
    answer = events[-1]
    assert isinstance(answer, Finished) and answer.error is None
    snapshots = [event for event in events if isinstance(event, MctsSnapshot)]
    assert snapshots and snapshots[-1].complete and not any(snapshot.complete for snapshot in snapshots[:-1])
    assert all(snapshot.search_id == answer.search_id and snapshot.workers == 2 for snapshot in snapshots)
    last = snapshots[-1]
    merged = {stat.move: stat.visits for stat in last.merged_root}
    assert merged == {stat.move: stat.visits for stat in answer.root_moves}
    own = {child.move: child.visits for child in last.children(0)}
    assert all(own[move] <= merged[move] for move in own)
    assert sum(merged.values()) > sum(own.values())  # the other tree's visits are in it


# ------------------------------------------------------------------ what the numbers mean
def test_playouts_count_at_the_stake_they_started_with() -> None:
    """Backgammon with a live cube: a playout's random doubles and takes would multiply its
    result up to 64 times and more (the view showed root means of +40 points and UCB1's
    normalised means all alike); counted at the stake it started from, every result lies
    within a backgammon's 3 points at the root's cube, and the root's children get unequal
    visits (what UCB1 is for)."""
    state = new_game("backgammon")
    assert state.stake() == 1.0
    search, snapshots, _ = searched(state, 30_000, TreeOptions())
    assert -3.0 <= search.least_reward <= search.greatest_reward <= 3.0  # -4,096 .. 1,024 counted at the end's cube
    roll = snapshots[-1].children(0)[0]  # the most visited roll: a decision node with plays
    visits = [child.visits for child in snapshots[-1].children(roll.index)]
    assert len(visits) > 3 and max(visits) >= 1.5 * min(visits)
