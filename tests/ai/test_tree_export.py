"""The recorded tree written out and read back: JSON round-trips to the same tree (every
field of every node, the passes, the header's counts), names moves in the game's notation
next to their codes, writes the search's infinity as "inf"; DOT draws the lecture notes'
shapes, cut stubs naming the pruned moves and why, and says what it left out."""

from __future__ import annotations

import dataclasses
import json
import math
import re
from pathlib import Path

import pytest

from ai import display
from ai.engine import search
from ai.events import Score
from ai.settings import Limits, SearchSettings
from ai.tree.export import (
    FORMAT,
    TreeFileError,
    check_tree_path,
    load_json,
    tree_to_dot,
    tree_to_json,
    write_tree,
)
from ai.tree.model import SearchTree, TreeBatch, TreeNode, TreeOptions
from games import GameState, new_game
from tests.ai.test_tree_recorder import backgammon_checker_play


def recorded(state: GameState, algorithm: str, depth: int, options: TreeOptions | None = None) -> tuple[SearchTree, int]:
    tree = SearchTree()
    answer = search(
        state, SearchSettings(algorithm=algorithm), Limits(depth=depth),
        on_event=lambda event: tree.add(event) if isinstance(event, TreeBatch) else None,
        tree=options or TreeOptions(),
    )
    return tree, answer.nodes


def fields(node: TreeNode) -> tuple[object, ...]:
    value = "open" if math.isnan(node.value) else node.value
    return (
        node.index, node.parent, node.move, node.depth, node.kind, node.alpha, node.beta, node.probability,
        value, node.bound, node.children, node.cut_move, node.skipped, node.unrecorded, node.pass_number, node.visits,
    )


CASES = [
    ("tictactoe", "alphabeta", 4, None),
    ("chess", "pvs", 3, None),
    ("checkers", "mtdf", 4, None),
    ("othello", "minimax", 2, None),
    ("backgammon", "star2", 2, None),
    ("checkers", "alphabeta", 5, TreeOptions(cap=200, whole_plies=2)),
]


@pytest.mark.parametrize(("game", "algorithm", "depth", "options"), CASES)
def test_json_round_trips_to_the_same_tree(game: str, algorithm: str, depth: int, options: TreeOptions | None) -> None:
    state = backgammon_checker_play(seed=6) if game == "backgammon" else new_game(game)
    tree, nodes = recorded(state, algorithm, depth, options)
    text = json.dumps(tree_to_json(tree, state, "a settings line"), allow_nan=False)
    header, loaded, root = load_json(text)
    assert header.game == game and header.position == state.to_text() and root.to_text() == state.to_text()
    assert header.nodes == nodes == sum(loaded.size(r.index) for r in loaded.roots())
    assert header.recorded == len(tree) == len(loaded)
    assert header.sampled == tree.sampled == (options is not None)
    assert loaded.passes == tree.passes
    assert [fields(node) for node in loaded.nodes] == [fields(node) for node in tree.nodes]


def test_json_names_moves_with_their_codes_and_writes_infinity_as_text() -> None:
    state = new_game("chess")
    tree, _ = recorded(state, "alphabeta", 2)
    document = tree_to_json(tree, state)
    assert document["header"]["format"] == FORMAT and document["header"]["root_player"] == 0
    root = document["nodes"][0]
    assert root["parent"] == -1 and root["move"] is None and root["alpha"] == "-inf" and root["beta"] == "inf"
    first_moves = {node["move"]: node["code"] for node in document["nodes"] if node["parent"] == root["index"]}
    assert "Nf3" in first_moves and first_moves["Nf3"] == state.encode_move(state.parse_move("Nf3"))
    cut = next(node["cut"] for node in document["nodes"] if "cut" in node)
    assert all(isinstance(name, str) for name in cut["skipped"]) and len(cut["skipped"]) == len(cut["skipped_codes"])
    assert "Infinity" not in json.dumps(document) and "NaN" not in json.dumps(document)


def test_dot_draws_the_lecture_notes_shapes_and_cut_stubs() -> None:
    state = new_game("tictactoe", "x...o....")
    tree, _ = recorded(state, "alphabeta", 4)
    dot = tree_to_dot(tree, state, max_nodes=10_000)
    assert dot.startswith("digraph search_tree {") and dot.rstrip().endswith("}")
    assert "shape=triangle" in dot and "shape=invtriangle" in dot and "shape=box" in dot
    assert re.search(r'cut\d+ \[shape=note, style=dashed, label="pruned: [a-c][1-3]', dot)
    assert "β-cut: " in dot or "α-cut: " in dot
    assert dot.count(" -> ") == len(tree) - len(tree.passes) + sum(1 for n in tree.nodes if n.skipped)
    chance_tree, _ = recorded(backgammon_checker_play(seed=6), "star1", 2)
    assert "shape=circle" in tree_to_dot(chance_tree, backgammon_checker_play(seed=6))


def test_a_large_dot_picture_is_capped_and_says_so() -> None:
    state = new_game("checkers")
    tree, _ = recorded(state, "alphabeta", 6)
    dot = tree_to_dot(tree, state, max_nodes=300)
    drawn = len(re.findall(r"^  n\d+ \[", dot, flags=re.MULTILINE))
    assert drawn == 300 < len(tree)
    assert f"{len(tree) - 300:,} left out of this picture" in dot
    deepened, _ = recorded(state, "pvs", 5)  # several passes: the last iteration is drawn
    last = [p for p in deepened.passes if p.iteration == 5][0]
    dot = tree_to_dot(deepened, state, max_nodes=200)
    assert f"  n{last.root} [shape=triangle" in dot
    assert not any(f"  n{p.root} [" in dot for p in deepened.passes if p.iteration < 5)


def test_write_tree_by_suffix_and_refuses_others(tmp_path: Path) -> None:
    state = new_game("tictactoe")
    tree, _ = recorded(state, "pvs", 3)
    write_tree(tmp_path / "t.json", tree, state)
    write_tree(tmp_path / "t.dot", tree, state)
    assert load_json((tmp_path / "t.json").read_text())[1].passes == tree.passes
    assert (tmp_path / "t.dot").read_text().startswith("digraph")
    with pytest.raises(TreeFileError, match=r"\.json or \.dot"):
        write_tree(tmp_path / "t.txt", tree, state)
    with pytest.raises(TreeFileError, match="cannot write"):
        write_tree(tmp_path / "missing" / "t.json", tree, state)
    for bad in (tmp_path, tmp_path / "no-suffix", tmp_path / "missing" / "t.json"):
        with pytest.raises(TreeFileError):
            check_tree_path(bad)


@pytest.mark.parametrize(
    "text",
    ["not json", "[]", '{"header": {"format": "other"}}', '{"header": {"format": "plyground-search-tree", "version": 99}}',
     '{"header": {"format": "plyground-search-tree", "version": 1, "game": "tictactoe"}}'],
)
def test_loading_a_bad_file_says_what_is_wrong(text: str) -> None:
    with pytest.raises(TreeFileError):
        load_json(text)


def test_a_root_split_tree_round_trips() -> None:
    """A root split's workers share one root node (``visits`` 2): its children come from
    both workers, and the file keeps the tree as it was put together."""
    state = new_game("tictactoe", "x...o....")
    moves = state.legal_moves()
    tree = SearchTree()
    nodes = 0
    for worker, part in enumerate((moves[::2], moves[1::2])):
        answer = search(
            state, SearchSettings(algorithm="minimax"), Limits(depth=3), root_moves=part,
            on_event=lambda event, w=worker: tree.add(dataclasses.replace(event, worker=w)) if isinstance(event, TreeBatch) else None,
            tree=TreeOptions(),
        )
        nodes += answer.nodes
    assert sum(tree.size(root.index) for root in tree.roots()) == nodes
    assert {root.visits for root in tree.roots()} == {2}
    header, loaded, _ = load_json(json.dumps(tree_to_json(tree, state)))
    assert header.nodes == nodes == sum(loaded.size(root.index) for root in loaded.roots())
    assert sorted(fields(node) for node in loaded.nodes) == sorted(fields(node) for node in tree.nodes)


def recorded_tree(state: GameState, depth: int) -> tuple[SearchTree, Score]:
    tree = SearchTree()

    def receive(event: object) -> None:
        if isinstance(event, TreeBatch):
            tree.add(event)

    answer = search(state, SearchSettings(algorithm="alphabeta", book=False), Limits(depth=depth), on_event=receive, tree=TreeOptions())
    return tree, answer.score


def test_dot_values_are_in_the_games_units_as_the_app_writes_them() -> None:
    """Chess values in pawns (the search counts centipawns), proven results in the game's
    words; the root's label is the answer's score as ai.display writes it."""
    state = new_game("chess", "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
    tree, score = recorded_tree(state, 2)
    dot = tree_to_dot(tree, state)
    root_label = re.search(rf'  n{tree.roots()[-1].index} \[shape=triangle, label="([^"\\]*)', dot)
    assert root_label is not None and root_label.group(1) == display.value_text(score, type(state))
    values = re.findall(r'label="(?:[a-z_]+\\n)?(?:[≥≤] )?([^"\\]*)\\n\[', dot)
    assert values and all(re.fullmatch(r"[+-]\d+\.\d\d|\?|mate in \d+|mated in \d+", value) for value in values), values[:20]
    mate = new_game("chess", "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")  # Ra8 mates
    assert "mate in 1" in tree_to_dot(recorded_tree(mate, 2)[0], mate)
