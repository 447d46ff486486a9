"""``plyground analyse --tree FILE``: the file's node count is the search's (one pass with
``--no-iterative-deepening``; with iterative deepening the passes add up), ``--tree-cap``
samples, and every bad path or cap is one line with status 2, found before searching."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ai.cli import main
from ai.tree.export import load_json


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str], str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out.strip().splitlines(), captured.err


def searched_nodes(lines: list[str]) -> int:
    return int(next(line for line in reversed(lines) if line.startswith("depth ")).split(" nodes ")[1].split()[0])


def test_one_pass_holds_every_node_without_iterative_deepening(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "tree.json"
    status, lines, _ = run(capsys, "analyse", "--game", "tictactoe", "--depth", "9", "--no-iterative-deepening", "--tree", str(path))
    assert status == 0
    header, tree, _ = load_json(path.read_text())
    assert len(tree.passes) == 1 and not header.sampled
    assert header.nodes == header.recorded == len(tree) == tree.pass_nodes(0) == searched_nodes(lines)
    assert lines[-2].startswith("bestmove ") and lines[-1].endswith(str(path))


def test_iterations_are_passes_that_add_up(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "tree.json"
    status, lines, _ = run(capsys, "analyse", "--game", "chess", "--depth", "3", "--tree", str(path))
    assert status == 0
    header, tree, _ = load_json(path.read_text())
    assert {p.iteration for p in tree.passes} == {1, 2, 3}
    assert sum(tree.pass_nodes(p.number) for p in tree.passes) == header.nodes == searched_nodes(lines)


def test_json_output_and_dot_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "tree.dot"
    status, lines, _ = run(capsys, "analyse", "--game", "othello", "--depth", "3", "--tree", str(path), "--json")
    assert status == 0 and lines[-1].startswith("bestmove ")
    assert all(json.loads(line) for line in lines[:-1])
    assert path.read_text().startswith("digraph search_tree {")


def test_the_cap_samples_and_sizes_still_add_up(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "tree.json"
    status, lines, _ = run(capsys, "analyse", "--game", "checkers", "--depth", "6", "--tree", str(path), "--tree-cap", "150")
    assert status == 0 and "deeper nodes sampled" in lines[-1]
    header, tree, _ = load_json(path.read_text())
    assert header.sampled and len(tree) < header.nodes
    assert sum(tree.pass_nodes(p.number) for p in tree.passes) == header.nodes == searched_nodes(lines)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--tree", "{dir}/tree.txt"], "written as .json or .dot"),
        (["--tree", "{dir}"], "written as .json or .dot"),
        (["--tree", "{dir}/missing/tree.json"], "no folder"),
        (["--tree", "{dir}/tree.json", "--tree-cap", "0"], "out of range"),
        (["--tree", "{dir}/tree.json", "--tree-cap", "-5"], "out of range"),
        (["--tree", "{dir}/tree.json", "--tree-cap", "10000000000000"], "out of range"),
        (["--tree", "{dir}/tree.json", "--tree-cap", "many"], "not a whole number"),
        (["--tree-cap", "100"], "needs --tree"),
    ],
)
def test_bad_paths_and_caps_are_one_line_with_status_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, arguments: list[str], message: str
) -> None:
    argv = ["analyse", "--game", "tictactoe", "--depth", "2", *(a.format(dir=tmp_path) for a in arguments)]
    status, lines, error = run(capsys, *argv)
    assert status == 2 and lines == []  # refused before searching
    assert error.count("\n") == 1 and message in error and "Traceback" not in error


def test_a_tree_that_cannot_be_written_after_the_search_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "tree.json"

    def refuse(self: Path, *args: object, **kwargs: object) -> int:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "write_text", refuse)
    status, lines, error = run(capsys, "analyse", "--game", "tictactoe", "--depth", "2", "--tree", str(path))
    assert status == 2 and lines[-1].startswith("bestmove ")
    assert error.count("\n") == 1 and "cannot write" in error and "Permission denied" in error


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--game", "chess", "--algorithm", "native", "--depth", "4"], "native runs the game's compiled search, which records no tree"),
        (["--game", "tictactoe", "--algorithm", "mcts", "--nodes", "500"], "mcts grows its own tree, which the app's Tree tab shows"),
    ],
)
def test_algorithms_that_record_no_tree_are_refused_before_the_search(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, arguments: list[str], message: str
) -> None:
    path = tmp_path / "tree.json"
    status, lines, error = run(capsys, "analyse", *arguments, "--tree", str(path))
    assert status == 2 and lines == [] and not path.exists()
    assert error.count("\n") == 1 and message in error and "alphabeta, pvs" in error


def test_a_root_split_on_the_pool_counts_its_shared_root_once_per_worker(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Star2 on two workers splits the root: both workers visit it, the tree draws it once
    (two visits); the line says every node searched was recorded."""
    path = tmp_path / "tree.json"
    argv = ["analyse", "--game", "backgammon", "--algorithm", "star2", "--depth", "2", "--dice", "4-2", "--threads", "2"]
    status, lines, _ = run(capsys, *argv, "--tree", str(path))
    assert status == 0
    searched = searched_nodes(lines)
    assert lines[-1].startswith(f"tree {searched:,} nodes of {searched:,} searched, 2 passes")


def test_lazy_smp_helpers_are_said_not_recorded(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "tree.json"
    status, lines, _ = run(capsys, "analyse", "--game", "chess", "--depth", "4", "--threads", "2", "--tree", str(path))
    assert status == 0
    last = lines[-1]
    recorded = int(last.split()[1].replace(",", ""))
    searched = int(last.split(" of ")[1].split()[0].replace(",", ""))
    helpers = int(last.split("(helpers searched ")[1].split(", not")[0].replace(",", ""))
    assert recorded + helpers == searched and helpers > 0, last
    assert "not recorded)" in last
