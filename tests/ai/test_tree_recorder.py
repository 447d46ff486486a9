"""The tree recorder, for every depth-first algorithm: what the tree panel and ``--tree`` show.

Checked against independent truth: the recorded tree's size equals the engine's node
counter (every counted node is one recorded or unrecorded node), recording changes nothing
(same move, value, line and node count), every recorded move is legal where it was played,
a cut-off's skipped moves were never searched at that visit, an exact node's value is what
a plain minimax of the same subtree gives, a MAX node's exact value is the largest of its
children's and a MIN node's the smallest (the root player's view), a chance node's value is
its outcomes' expectation, and past the cap the top plies stay whole while sizes still add up.
"""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

import ai.tree.recorder
from ai.engine import search
from ai.events import Finished, Iteration, SearchEvent
from ai.options import exact
from ai.scores import INFINITY, from_tt, is_win_score
from ai.settings import Limits, SearchSettings
from ai.tree.model import NodeKind, PassKind, SearchTree, TreeBatch, TreeOptions
from ai.tt import Bound
from games import CHANCE, GameState, new_game

DEPTH_FIRST = ["minimax", "alphabeta", "pvs", "mtdf"]
CHANCE_ALGORITHMS = ["expectiminimax", "star1", "star2"]
DETERMINISTIC_GAMES = ["tictactoe", "checkers", "othello", "chess"]
SMALL_DEPTH = {"tictactoe": 4, "checkers": 3, "othello": 3, "chess": 2, "backgammon": 1}


def backgammon_checker_play(seed: int = 4) -> GameState:
    """A backgammon position with the dice rolled and a few plays to choose from."""
    rng = random.Random(seed)
    state = new_game("backgammon", "4HPwATDgc/ABMA:cAkAAAAAAAAA")
    state.play("roll")
    state.play((3, 1))
    for _ in range(6):
        if state.to_move() == CHANCE:
            outcomes = state.chance_outcomes()
            state.play(rng.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0])
        else:
            state.play(rng.choice([move for move in state.legal_moves() if move not in ("double", "drop")]))
    while state.to_move() == CHANCE or state.legal_moves() in (["roll", "double"], ["take", "drop"]):
        state.play(state.chance_outcomes()[0][0] if state.to_move() == CHANCE else state.legal_moves()[0])
    return state


def start(game: str) -> GameState:
    return backgammon_checker_play() if game == "backgammon" else new_game(game)


def recorded(
    state: GameState, settings: SearchSettings, limits: Limits, options: TreeOptions | None = None
) -> tuple[SearchTree, Finished, list[SearchEvent]]:
    """The search with its tree recorded: the tree, the answer, the other events."""
    tree = SearchTree()
    events: list[SearchEvent] = []

    def receive(event: Any) -> None:
        if isinstance(event, TreeBatch):
            tree.add(event)
        else:
            events.append(event)

    answer = search(state, settings, limits, on_event=receive, tree=options or TreeOptions())
    return tree, answer, events


def total_size(tree: SearchTree) -> int:
    return sum(tree.size(root.index) for root in tree.roots())


def position_of(root: GameState, tree: SearchTree, index: int) -> GameState:
    """The node's position: the moves from its pass root played on a copy of the root."""
    state = root.copy()
    for move in tree.moves_to(index):
        if move is None:
            state.play_null()
        else:
            state.play(move)
    return state


def check_walk(root: GameState, tree: SearchTree, probes: bool = False, most: int = 600) -> None:
    """Every move legal at its parent, every cut honest, windows and bounds consistent (at
    ``most`` nodes, spread over the tree: replaying each node's line costs).

    ``probes``: Star2 probes an outcome (one visit, first move only) before it may search it;
    an outcome its cut-off skips may have been probed, never searched fully."""
    for node in tree.nodes[:: max(1, len(tree) // most)]:
        assert node.alpha <= node.beta
        if node.is_open:
            continue
        if node.bound is Bound.EXACT and node.kind.is_decision:
            assert node.alpha < node.value < node.beta
        elif node.bound is Bound.LOWER and not probes:
            assert node.value >= node.beta
        elif node.bound is Bound.UPPER and not probes:
            assert node.value <= node.alpha
        if not node.children and not node.was_cut:
            continue
        state = position_of(root, tree, node.index)
        choices = (
            [outcome for outcome, _ in state.chance_outcomes()] if state.to_move() == CHANCE else state.legal_moves()
        )
        children = tree.children(node.index)
        for child in children:
            assert child.move is None or child.move in choices, f"{child.move!r} is not legal at node {node.index}"
        if node.was_cut:
            assert node.cut_move is None or node.cut_move in choices
            assert all(move in choices for move in node.skipped)
            searched = [child.move for child in children]
            for move in node.skipped:
                assert searched.count(move) <= (1 if probes else 0), f"skipped {move!r} was searched at node {node.index}"


# ------------------------------------------------------------ counts, and nothing changes
@pytest.mark.parametrize("algorithm", DEPTH_FIRST)
@pytest.mark.parametrize("game", DETERMINISTIC_GAMES)
def test_the_tree_counts_every_node_and_changes_nothing(game: str, algorithm: str) -> None:
    state = start(game)
    settings = SearchSettings(algorithm=algorithm)
    limits = Limits(depth=SMALL_DEPTH[game] - (algorithm == "minimax" and game == "chess"))
    plain = search(state, settings, limits)
    tree, answer, events = recorded(state, settings, limits)
    assert (answer.best_move, answer.score, answer.nodes, answer.pv) == (plain.best_move, plain.score, plain.nodes, plain.pv)
    assert tree.complete and not tree.sampled
    assert len(tree) == total_size(tree) == answer.nodes == tree.searched_nodes
    assert not any(node.is_open for node in tree.nodes)
    check_walk(state, tree)
    # The passes up to each iteration add up to the nodes its Iteration event reports.
    for event in events:
        if isinstance(event, Iteration) and event.bound is Bound.EXACT:
            passes = [p for p in tree.passes if p.iteration <= event.depth]
            assert sum(tree.pass_nodes(p.number) for p in passes) == event.nodes
    assert tree.roots()[-1].value == answer.score.value  # the root's side to move is MAX
    if algorithm == "mtdf":
        assert all(p.label == ai.tree.recorder.MTDF_LABEL for p in tree.passes)
    if algorithm == "minimax":
        assert not any(node.was_cut for node in tree.nodes)
    elif game != "othello":
        assert any(node.was_cut for node in tree.nodes)


def backgammon_roll() -> GameState:
    """A backgammon position at the dice (a chance root), no cube decision to make."""
    state = backgammon_checker_play()
    state.play(state.legal_moves()[0])
    while state.to_move() != CHANCE:
        state.play("roll" if "roll" in state.legal_moves() else state.legal_moves()[0])
    return state


@pytest.mark.parametrize("algorithm", CHANCE_ALGORITHMS)
def test_the_chance_family_records_rolls_with_their_probabilities(algorithm: str) -> None:
    state = backgammon_roll() if algorithm == "expectiminimax" else backgammon_checker_play(seed=6)
    settings = SearchSettings(algorithm=algorithm)
    depth = 1 if algorithm == "expectiminimax" else 2
    plain = search(state, settings, Limits(depth=depth))
    tree, answer, _ = recorded(state, settings, Limits(depth=depth))
    assert (answer.best_move, answer.score, answer.nodes, answer.pv) == (plain.best_move, plain.score, plain.nodes, plain.pv)
    assert len(tree) == total_size(tree) == answer.nodes
    check_walk(state, tree, probes=algorithm == "star2")
    chance_nodes = [node for node in tree.nodes if node.kind is NodeKind.CHANCE]
    assert chance_nodes
    for node in chance_nodes:
        children = tree.children(node.index)
        assert all(0 < child.probability < 1 for child in children)
        if algorithm == "expectiminimax":  # nothing pruned: the value is the expectation
            assert math.isclose(sum(child.probability for child in children), 1.0)
            expected = sum(child.probability * child.value for child in children)
            assert math.isclose(node.value, expected, rel_tol=1e-9, abs_tol=1e-9)
    if algorithm != "expectiminimax":
        assert any(node.was_cut for node in chance_nodes) or any(node.was_cut for node in tree.nodes)
    if algorithm == "star2":  # a probe searched only the first move: a bound, never exact
        probes = [
            node for node in tree.nodes
            if node.kind.is_decision and node.parent in tree and tree.node(node.parent).kind is NodeKind.CHANCE
            and len(node.children) == 1 and node.bound is not Bound.EXACT
        ]
        assert probes


def test_minimax_and_max_min_values_propagate_in_the_root_players_view() -> None:
    """Plain minimax: every node exact, MAX the largest child, MIN the smallest."""
    state = new_game("tictactoe", "x...o....")
    tree, answer, _ = recorded(state, SearchSettings(algorithm="minimax", iterative_deepening=False), Limits(depth=4))
    assert len(tree.passes) == 1 and len(tree) == answer.nodes
    kinds = {node.kind for node in tree.nodes}
    assert {NodeKind.MAX, NodeKind.MIN} <= kinds and kinds & {NodeKind.LEAF, NodeKind.TERMINAL}
    for node in tree.nodes:
        assert node.bound is Bound.EXACT
        values = [child.value for child in tree.children(node.index)]
        if node.kind is NodeKind.MAX:
            assert node.value == max(values)
        elif node.kind is NodeKind.MIN:
            assert node.value == min(values)


@pytest.mark.parametrize("algorithm", ["alphabeta", "pvs", "mtdf"])
@pytest.mark.parametrize("game", DETERMINISTIC_GAMES)
def test_exact_nodes_have_minimax_values(game: str, algorithm: str) -> None:
    """Exact decision nodes' values equal a plain minimax of the same subtree, at the node's
    depth, with the exact preset (a win's distance counted from the pass root); a lower
    bound is at most that value, an upper bound at least (MTD(f)'s null windows give bounds
    only)."""
    state = start(game)
    settings = exact(SearchSettings(algorithm=algorithm, iterative_deepening=False))
    depth = 3 if game != "chess" else 2
    tree, _, _ = recorded(state, settings, Limits(depth=depth))
    decision_nodes = [node for node in tree.nodes if node.kind.is_decision and node.depth > 0 and not node.is_open]
    exact_nodes = [node for node in decision_nodes if node.bound is Bound.EXACT]
    assert exact_nodes or algorithm == "mtdf"
    reference = exact(SearchSettings(algorithm="minimax", iterative_deepening=False))
    root_player = state.to_move()
    checked = exact_nodes[:: max(1, len(exact_nodes) // 20)] + decision_nodes[:: max(1, len(decision_nodes) // 20)]
    for node in checked:
        position = position_of(state, tree, node.index)
        answer = search(position, reference, Limits(depth=int(node.depth)))
        value = answer.score.value if position.to_move() == root_player else -answer.score.value
        ply = len(tree.moves_to(node.index))
        if is_win_score(value):
            value = from_tt(value, ply)
        where = f"node {node.index} {tree.moves_to(node.index)} ({node.bound.name}): {node.value} vs minimax {value}"
        if node.bound is Bound.EXACT:
            assert node.value == value, where
        elif node.bound is Bound.LOWER:
            assert node.value <= value, where
        else:
            assert node.value >= value, where


# ------------------------------------------------------------------ whole trees and caps
def test_the_tic_tac_toe_tree_from_the_empty_board_is_recorded_whole() -> None:
    state = new_game("tictactoe")
    settings = SearchSettings(algorithm="alphabeta", iterative_deepening=False)
    tree, answer, _ = recorded(state, settings, Limits(depth=9))
    assert not tree.sampled and len(tree.passes) == 1
    assert len(tree) == answer.nodes == tree.pass_nodes(0)
    assert 1_000 < len(tree) < TreeOptions().cap  # well under the cap: every node is there
    assert max(len(tree.moves_to(node.index)) for node in tree.nodes) == 9  # down to full boards
    assert any(node.kind is NodeKind.TERMINAL for node in tree.nodes)
    check_walk(state, tree)


def test_past_the_cap_the_top_plies_stay_whole_and_sizes_add_up() -> None:
    state = new_game("checkers")
    settings = SearchSettings(algorithm="alphabeta", iterative_deepening=False)
    whole, answer, _ = recorded(state, settings, Limits(depth=6))
    options = TreeOptions(cap=300, whole_plies=2)
    capped, capped_answer, _ = recorded(state, settings, Limits(depth=6), options)
    assert capped_answer.nodes == answer.nodes and capped_answer.best_move == answer.best_move
    assert capped.sampled and not whole.sampled
    assert len(capped) < len(whole)
    assert total_size(capped) == answer.nodes  # the unrecorded are counted where they hang
    top = lambda tree: {tuple(tree.moves_to(n.index)) for n in tree.nodes if len(tree.moves_to(n.index)) <= 2}  # noqa: E731
    assert top(capped) == top(whole)
    below = [n for n in capped.nodes if len(capped.moves_to(n.index)) > 2]
    assert len(below) <= ai.tree.recorder.HARD_CAP_FACTOR * options.cap
    for node in capped.nodes:  # a recorded node's subtree size is the whole tree's
        assert capped.size(node.index) == whole.size(node.index) if node.index in whole else True


def test_a_stopped_search_leaves_open_nodes_and_still_adds_up() -> None:
    state = new_game("chess")
    tree, answer, _ = recorded(state, SearchSettings(algorithm="pvs"), Limits(nodes=3_000))
    assert answer.stopped and tree.complete
    assert total_size(tree) == answer.nodes
    assert any(node.is_open for node in tree.nodes)


def test_an_exactly_solved_root_is_a_pass_of_its_own() -> None:
    position = "XOOOO---XOOO--X-XOOOO-XXXOOXO-X-XXXXXXX-OXOOXOOOOXXXOOXOOX-XXXX- X"
    state = new_game("othello", position)
    tree, answer, _ = recorded(state, SearchSettings(algorithm="alphabeta"), Limits(depth=2))
    assert total_size(tree) == answer.nodes
    assert [p.label for p in tree.passes] == [ai.tree.recorder.ROOT_SOLVE_LABEL]
    assert tree.roots()[0].kind is NodeKind.SOLVER


def test_the_solvers_own_nodes_hang_below_the_solved_node() -> None:
    """Othello's endgame solver inside the tree: its node count is the SOLVER node's
    ``unrecorded``, so the sizes add up although the solve's nodes are not recorded."""
    state = new_game("othello")
    rng = random.Random(3)
    while state.to_text().count("-") > 13:
        state.play(rng.choice(state.legal_moves()))
    tree, answer, _ = recorded(state, SearchSettings(algorithm="alphabeta", solver_empties=12), Limits(depth=4))
    assert total_size(tree) == answer.nodes
    solved = [node for node in tree.nodes if node.kind is NodeKind.SOLVER]
    assert solved and all(not node.children for node in solved)
    assert sum(node.unrecorded for node in solved) == answer.nodes - len(tree) > 0


def test_aspiration_re_searches_are_passes_of_their_own() -> None:
    state = new_game("chess", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    settings = SearchSettings(algorithm="pvs", aspiration_window=1.0)
    tree, answer, _ = recorded(state, settings, Limits(depth=4))
    assert total_size(tree) == answer.nodes
    research = [p for p in tree.passes if p.label == ai.tree.recorder.ASPIRATION_LABEL]
    assert research, [(p.iteration, p.alpha, p.beta) for p in tree.passes]
    assert all(p.alpha == -INFINITY and p.beta == INFINITY for p in tree.passes if p.iteration == 1)


def test_batches_arrive_while_the_search_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ai.tree.recorder, "CLOCK_EVERY", 1)
    batches: list[TreeBatch] = []
    state = new_game("checkers")
    answer = search(
        state, SearchSettings(algorithm="alphabeta"), Limits(depth=6),
        on_event=lambda event: batches.append(event) if isinstance(event, TreeBatch) else None,
        tree=TreeOptions(batch_seconds=0.02),
    )
    assert len(batches) > 1
    assert [batch.complete for batch in batches] == [False] * (len(batches) - 1) + [True]
    assert [batch.nodes for batch in batches] == sorted(batch.nodes for batch in batches)
    assert batches[-1].nodes == answer.nodes
    assert sum(len(batch.entries) for batch in batches) == answer.nodes


def test_nodes_record_their_kind() -> None:
    """Leaves at the horizon, table cuts, quiescence nodes below the horizon."""
    state = new_game("chess", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    tree, answer, _ = recorded(state, SearchSettings(algorithm="alphabeta"), Limits(depth=4))
    kinds = {node.kind for node in tree.nodes}
    assert {NodeKind.MAX, NodeKind.MIN, NodeKind.LEAF, NodeKind.QUIESCENCE, NodeKind.TT_CUT} <= kinds
    for node in tree.nodes:
        if node.kind is NodeKind.QUIESCENCE:
            assert node.depth < 0
            assert tree.node(node.parent).kind in (NodeKind.LEAF, NodeKind.QUIESCENCE) or tree.node(node.parent).depth <= 0
        if node.kind is NodeKind.TT_CUT:
            assert not node.children and node.unrecorded == 0
    assert len(tree) == answer.nodes


def test_multipv_lines_are_passes_of_their_own() -> None:
    state = new_game("tictactoe", "x...o....")
    settings = SearchSettings(algorithm="alphabeta", multipv=3, aspiration=False)
    tree, answer, _ = recorded(state, settings, Limits(depth=3))
    assert total_size(tree) == answer.nodes
    for iteration in (1, 2, 3):
        passes = [p for p in tree.passes if p.iteration == iteration]
        assert [p.label for p in passes] == ["", ai.tree.recorder.MULTIPV_LABEL, ai.tree.recorder.MULTIPV_LABEL]
        first, second, third = (len(tree.node(p.root).children) for p in passes)
        assert first == second + 1 == third + 2  # each line leaves out the better lines' first moves


@pytest.mark.parametrize("algorithm", ["mcts", "native"])
def test_searches_without_a_depth_first_tree_send_no_batches(algorithm: str) -> None:
    """MCTS sends its own snapshots (``ai.tree.mcts``); the compiled search records nothing."""
    from ai.search import get_algorithm

    state = new_game("chess")
    if get_algorithm(algorithm).needs_native and state.NATIVE_SEARCH is None:
        pytest.skip("the compiled chess search is not built")
    assert not get_algorithm(algorithm).records_depth_first_tree
    tree, answer, _ = recorded(state, SearchSettings(algorithm=algorithm, seed=1), Limits(nodes=500) if algorithm == "mcts" else Limits(depth=3))
    assert answer.best_move is not None and len(tree) == 0 and not tree.passes


@pytest.mark.parametrize("algorithm", DEPTH_FIRST)
@pytest.mark.parametrize("tt", [False, True])
def test_a_well_formed_walk_with_and_without_the_table(algorithm: str, tt: bool) -> None:
    """Every node checked (a small tree): legal moves, honest cut-offs, the root's value is
    the answer; alpha-beta's family cuts, minimax never does; no table, no table cuts."""
    state = new_game("tictactoe", "x...o....")
    settings = SearchSettings(algorithm=algorithm, transposition_table=tt, quiescence=False)
    tree, answer, _ = recorded(state, settings, Limits(depth=4))
    check_walk(state, tree, most=len(tree))
    assert tree.roots()[-1].value == answer.score.value and len(tree) == answer.nodes
    assert any(node.was_cut for node in tree.nodes) == (algorithm != "minimax")
    assert any(node.kind is NodeKind.TT_CUT for node in tree.nodes) <= tt


def test_finished_games_and_evaluated_leaves_are_exact_whatever_their_window() -> None:
    """A terminal's utility and a leaf's static evaluation are the node's value; only the
    parent's fail makes a bound. With quiescence a leaf that stood pat at or above beta is
    a lower bound (its noisy moves were not searched)."""
    state = new_game("tictactoe")
    settings = SearchSettings(algorithm="alphabeta", transposition_table=False, iterative_deepening=False)
    tree, _, _ = recorded(state, settings, Limits(depth=9))
    terminals = [node for node in tree.nodes if node.kind is NodeKind.TERMINAL]
    assert terminals and all(node.bound is Bound.EXACT for node in terminals)
    assert any(not node.alpha < node.value < node.beta for node in terminals)  # outside its window, still exact
    tree, _, _ = recorded(new_game("checkers"), SearchSettings(algorithm="alphabeta"), Limits(depth=4))
    leaves = [node for node in tree.nodes if node.kind is NodeKind.LEAF and not node.children]
    assert any(node.bound is Bound.EXACT for node in leaves)
    for node in leaves:
        if node.bound is not Bound.EXACT:  # stood pat at or above beta, in its side to move's view
            assert (node.value >= node.beta) if tree.node(node.parent).kind is NodeKind.MIN else (node.value <= node.alpha)
    tree, _, _ = recorded(state, SearchSettings(algorithm="pvs", quiescence=False), Limits(depth=3))
    assert all(node.bound is Bound.EXACT for node in tree.nodes if node.kind is NodeKind.LEAF)


def test_no_batch_holds_more_nodes_than_it_says_were_searched(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ai.tree.recorder, "CLOCK_EVERY", 1)
    tree = SearchTree()
    seen: list[tuple[int, int]] = []

    def receive(event: Any) -> None:
        if isinstance(event, TreeBatch):
            tree.add(event)
            seen.append((len(tree), event.nodes))

    search(new_game("checkers"), SearchSettings(algorithm="pvs"), Limits(depth=6), on_event=receive, tree=TreeOptions(batch_seconds=0.02))
    assert len(seen) > 1 and all(recorded <= searched for recorded, searched in seen)


def test_mtdf_names_its_passes_probes_and_its_fallback_a_re_search() -> None:
    """MTD(f) tells the recorder what its passes are: each null-window pass a probe; where
    an unstable (selective) search crossed the bounds, the full-window search that settles
    the value a re-search (the Italian game with three lines, depth 4, line 1 crosses)."""
    state = new_game("chess", "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
    tree, answer, _ = recorded(state, SearchSettings(algorithm="mtdf", multipv=3, book=False), Limits(depth=4))
    for p in tree.passes:
        assert p.label is (PassKind.MTDF_PROBE if p.alpha > -INFINITY else PassKind.RESEARCH), p
    full = [p for p in tree.passes if p.label is PassKind.RESEARCH and p.iteration == 4]
    assert full and tree.roots()[full[0].number].value == answer.score.value
    assert len(tree) == answer.nodes
