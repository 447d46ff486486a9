"""The replay of a search the engine recorded (``ai.engine.search`` with a ``TreeOptions``):
tic-tac-toe from the empty board at full depth is browsable whole, every node entered and
left, each pass ending with its root's value; and the windows the replay recomputes are the
windows the engine's alpha-beta searched each child with."""

from __future__ import annotations

from typing import Any

import pytest

from ai import display
from ai.engine import search
from ai.options import exact
from ai.settings import Limits, SearchSettings
from ai.tree.model import NodeKind, SearchTree, TreeBatch, TreeOptions
from ai.tree.replay import Replay, ReplayEvent, TreeWords, describe
from games import new_game


def recorded_search(game: str, depth: int, **settings: Any) -> tuple[Any, SearchTree, Any]:
    state = new_game(game)
    batches: list[TreeBatch] = []
    finished = search(
        state, exact(SearchSettings(book=False, **settings)), Limits(depth=depth),
        on_event=lambda event: batches.append(event) if isinstance(event, TreeBatch) else None,
        tree=TreeOptions(),
    )
    tree = SearchTree()
    for batch in batches:
        tree.add(batch)
    return state, tree, finished


@pytest.mark.parametrize("algorithm", ["alphabeta", "pvs"])
def test_tic_tac_toe_whole_replays_every_node_and_ends_with_the_root_value(algorithm: str) -> None:
    """Tic-tac-toe from the empty board at full depth, recorded by the engine: the replay
    enters every recorded node once and leaves each, and each pass ends with its root's value
    (the last the search's own answer)."""
    state, tree, finished = recorded_search("tictactoe", 9, algorithm=algorithm)
    replay = Replay(tree)
    while not replay.is_caught_up:
        replay.extend(1_000)
    steps = replay.steps()
    entered = [step.node for step in steps if step.event is ReplayEvent.ENTER]
    left = [step.node for step in steps if step.event is ReplayEvent.LEAVE]
    assert entered == [node.index for node in tree.nodes]
    assert sorted(left) == sorted(entered)
    assert sum(tree.size(root.index) for root in tree.roots()) == finished.nodes
    assert steps[-1].event is ReplayEvent.LEAVE and steps[-1].node == tree.passes[-1].root
    final = replay.window_path(len(replay) - 1)[0]
    assert final.node.value == finished.score.value
    for start in replay.pass_starts():
        assert replay.step(start).event is ReplayEvent.ENTER
    words = TreeWords(state)
    last_pass = replay.pass_starts()[-1]
    text = describe(replay, last_pass + 1, words)
    assert text.startswith("Enter ▼ MIN after ") and "(depth 8)" in text, text


def test_in_a_real_alpha_beta_search_each_child_enters_with_its_parents_window() -> None:
    """The engine's alpha-beta searches every child with the node's window at that moment:
    the window the replay recomputes for the parent (entry window tightened by the values
    returned so far) is the window the recorder wrote on the child's entry, at every node of
    a whole tic-tac-toe search; and at every cut-off alpha >= beta."""
    _, tree, _ = recorded_search("tictactoe", 9, algorithm="alphabeta")
    replay = Replay(tree)
    replay.extend()
    checked = cuts = 0
    for step in replay.steps():
        if step.event is ReplayEvent.ENTER and tree.node(step.node).parent in tree:
            path = replay.window_path(step.number)
            parent, child = path[-2], path[-1].node
            if parent.node.kind.is_decision and child.move is not None:
                assert (parent.alpha, parent.beta) == (child.alpha, child.beta), step
                checked += 1
        elif step.event is ReplayEvent.CUT:
            window = replay.window_path(step.number)[-1]
            assert window.alpha >= window.beta, step
            cuts += 1
    assert checked > 1000 and cuts > 100


def test_in_a_real_pvs_search_each_child_enters_at_its_parents_bound() -> None:
    """PVS searches the first move with the node's window and the others with a null window
    at alpha (re-searched with the full window when they fail high): in the root player's
    view a MAX node's child enters with the node's current alpha as its own, a MIN node's
    with its current beta, at every node of a whole tic-tac-toe search; the scout that is
    searched again does not move the window."""
    _, tree, _ = recorded_search("tictactoe", 9, algorithm="pvs")
    replay = Replay(tree)
    replay.extend()
    checked = researched = 0
    for step in replay.steps():
        if step.event is not ReplayEvent.ENTER or tree.node(step.node).parent not in tree:
            continue
        path = replay.window_path(step.number)
        parent, child = path[-2], path[-1].node
        if child.move is None or not parent.node.kind.is_decision:
            continue
        if parent.node.kind is NodeKind.MAX:
            assert child.alpha == parent.alpha, step
        else:
            assert child.beta == parent.beta, step
        checked += 1
        siblings = tree.children(parent.node.index)
        at = siblings.index(child)
        researched += at > 0 and siblings[at - 1].move == child.move
    assert checked > 1000 and researched > 0


def test_a_value_returned_says_what_it_does_to_the_parent_in_the_games_words() -> None:
    """The leave of a node that tightens its parent's window names the parent and the change,
    with values as the app writes scores (ai.display: tic-tac-toe's wins 'win in N plies')."""
    state, tree, _ = recorded_search("tictactoe", 9, algorithm="alphabeta")
    replay = Replay(tree)
    replay.extend()
    words = TreeWords(state)
    texts = [describe(replay, step.number, words) for step in replay.steps() if step.event is ReplayEvent.LEAVE]
    changes = [text for text in texts if "→" in text]
    assert changes and all(" at after " not in text for text in changes)
    assert any("; ▼ MIN after " in text and ": β " in text for text in changes)
    assert any("; ▲ MAX at the root: α " in text for text in changes)
    assert any("win in " in text and " plies" in text for text in texts)


def test_at_a_dice_roll_the_values_are_the_player_who_decides_next() -> None:
    """Backgammon starts with the opening roll (no player to move): the recorder takes MAX to
    be the player who moves after it, so the root's value in words is ai.display's text of
    the search's score for that player, and MAX is named as that player."""
    state, tree, finished = recorded_search("backgammon", 1, algorithm="expectiminimax")
    assert state.to_move() < 0, "backgammon starts with the opening roll"
    decider = state.result(state.chance_outcomes()[0][0]).to_move()
    words = TreeWords(state)
    root = tree.node(tree.passes[-1].root)
    assert words.value(root.value) == display.value_text(finished.score.for_player(decider), type(state))
    assert words.side_name(NodeKind.MAX).endswith(f"({type(state).PLAYER_NAMES[decider].capitalize()})")
