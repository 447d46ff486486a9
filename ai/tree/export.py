"""The recorded search tree written out: JSON (and read back) or Graphviz DOT.

JSON, format ``plyground-search-tree`` version 1 (``docs/tree-format.md`` shows an example)::

    {
      "header": {
        "format": "plyground-search-tree", "version": 1,
        "game": "chess",                 the game's name (games.new_game)
        "position": "<text>",            the root position, GameState.to_text()
        "root_player": 0,                MAX: the player whose view every value takes
        "scale": 100.0,                  search units per unit of utility (centipawns: 100)
        "settings": "<settings line>",   the search's settings in words
        "nodes": 5499,                   nodes the search counted (Finished.nodes)
        "helper_nodes": 0,               nodes of Lazy SMP helpers (not recorded)
        "recorded": 5499,                nodes in "nodes" below
        "sampled": false,                past the cap: deeper nodes sampled, counted in "unrecorded"
        "complete": true                 the search finished (false: stopped while recording)
      },
      "passes": [                        one per call of the search at the root
        {"number": 0, "root": 0, "iteration": 1, "alpha": "-inf", "beta": "inf",
         "scale": 100.0, "label": ""}    label: "", "aspiration re-search", "MTD(f) probe", ...
      ],
      "nodes": [                         depth first, each pass in visit order
        {"index": 0, "parent": -1, "pass": 0,
         "move": "e4", "code": 796,      the move in the game's notation and GameState.encode_move
                                         (null for a root or a null move; a chance outcome
                                         below a chance node, with its "probability")
         "depth": 3, "kind": "max",      max, min, chance, leaf, quiescence, terminal,
                                         tt_cut, solver, static_cut
         "alpha": "-inf", "beta": "inf", the window on entry, root player's view
         "value": 20.0, "bound": "exact",   exact, lower or upper (root player's view);
                                            value null: the node was never left (a stop)
         "probability": 1.0, "unrecorded": 0, "visits": 1,
         "cut": {"move": "Nf3", "code": 1478, "skipped": ["Nc3"], "skipped_codes": [1218]}
        }                                "cut" only where a move failed high
      ]
    }

Values and windows are on the search scale in the root player's view. The search's infinity
(``ai.scores.INFINITY``) is written ``"inf"``/``"-inf"``, as JSON has no infinities.
``SearchTree.size(root)`` summed over the pass roots (each node's ``1 + unrecorded``, or
``visits + unrecorded`` at a merged root) is the header's ``nodes`` minus ``helper_nodes``.

DOT draws MAX nodes as triangles, MIN nodes as inverted triangles, chance nodes as circles
and everything settled without children as boxes; a cut-off is a dashed edge to a "pruned"
note naming the skipped moves and why (``β-cut: Nf3 ≥ 1.20``). A picture of more than
``DOT_MAX_NODES`` nodes cannot be read: the top of the tree is drawn, level by level, and a
comment says how many nodes were left out.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import games
from games.base import GameState, Player

from ai import display
from ai.scores import INFINITY, to_report
from ai.tree.model import (
    ROOT_PARENT,
    Cut,
    NodeEntry,
    NodeExit,
    NodeKind,
    PassKind,
    SearchTree,
    TreeBatch,
    TreeNode,
    TreePass,
)
from ai.tree.recorder import root_player_of
from ai.tt import Bound

FORMAT: Final = "plyground-search-tree"
VERSION: Final = 1
DOT_MAX_NODES: Final = 2_000
"""The most nodes a DOT picture draws (Graphviz lays out a few thousand in seconds)."""
SUFFIXES: Final = (".json", ".dot")
"""The file kinds ``write_tree`` knows, by suffix."""
NULL_MOVE_NAME: Final = "null move"


class TreeFileError(ValueError):
    """A tree file that cannot be written or read: what is wrong, in one line."""


@dataclass(frozen=True)
class TreeHeader:
    """The header of a tree file."""

    game: str
    position: str
    root_player: int
    scale: float
    settings: str
    nodes: int
    helper_nodes: int
    recorded: int
    sampled: bool
    complete: bool


# ------------------------------------------------------------------ numbers
def number_out(value: float) -> float | str | None:
    """A value for JSON: the search's infinity as "inf"/"-inf", an unknown value (NaN) as null."""
    if math.isnan(value):
        return None
    if value >= INFINITY:
        return "inf"
    if value <= -INFINITY:
        return "-inf"
    return value


def number_in(value: Any) -> float:
    """``number_out`` read back."""
    if value is None:
        return math.nan
    if value == "inf":
        return float(INFINITY)
    if value == "-inf":
        return float(-INFINITY)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TreeFileError(f"{value!r} is not a number")
    return value


# ------------------------------------------------------------------ positions
def walk_positions(tree: SearchTree, root: GameState) -> Iterator[tuple[TreeNode, GameState]]:
    """Every recorded node with its PARENT's position (where its move was made; the root
    with the root position), depth first, playing and undoing moves on one copy."""
    state = root.copy()
    for pass_root in tree.roots():
        yield pass_root, state
        stack: list[tuple[TreeNode, int]] = [(pass_root, 0)]
        plays: list[str] = []
        while stack:
            node, next_child = stack.pop()
            children = node.children
            if next_child < len(children):
                stack.append((node, next_child + 1))
                child = tree.node(children[next_child])
                yield child, state
                how = play(state, child.move)
                plays.append(how)
                stack.append((child, 0))
            elif plays and node is not pass_root:
                unplay(state, plays.pop())


def play(state: GameState, move: Any) -> str:
    """Play ``move`` (``None``: a null move where the game allows one, else nothing, as for
    a search repeated at the same node)."""
    if move is None:
        if state.can_null_move():
            state.play_null()
            return "null"
        return "none"
    state.play(move)
    return "move"


def unplay(state: GameState, how: str) -> None:
    if how == "null":
        state.undo_null()
    elif how == "move":
        state.undo()


def move_name(state: GameState, move: Any) -> str | None:
    """``move`` in the game's notation at ``state`` (``None`` for no move)."""
    if move is None:
        return None
    try:
        return state.move_name(move)
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        return str(move)


def move_code(state: GameState, move: Any) -> int | None:
    if move is None:
        return None
    try:
        return state.encode_move(move)
    except NotImplementedError:
        return None


# ------------------------------------------------------------------ JSON
def tree_to_json(tree: SearchTree, root: GameState, settings: str = "") -> dict[str, Any]:
    """The tree as the JSON document described above (a dict ready for ``json.dump``)."""
    nodes: list[dict[str, Any]] = []
    # The parent is the node that lists a node as its child (a root shared by several
    # workers' searches stands for each worker's own root).
    parent_of = {child: node.index for node in tree.nodes for child in node.children}
    for node, state in walk_positions(tree, root):
        record: dict[str, Any] = {
            "index": node.index,
            "parent": parent_of.get(node.index, ROOT_PARENT),
            "pass": node.pass_number,
            "move": move_name(state, node.move),
            "code": move_code(state, node.move),
            "depth": node.depth,
            "kind": node.kind.name.lower(),
            "alpha": number_out(node.alpha),
            "beta": number_out(node.beta),
            "value": number_out(node.value),
            "bound": node.bound.name.lower(),
            "probability": node.probability,
            "unrecorded": node.unrecorded,
            "visits": node.visits,
        }
        if node.was_cut:
            after = state.copy()
            if node.index in parent_of:
                play(after, node.move)
            record["cut"] = {
                "move": move_name(after, node.cut_move),
                "code": move_code(after, node.cut_move),
                "skipped": [move_name(after, move) for move in node.skipped],
                "skipped_codes": [move_code(after, move) for move in node.skipped],
            }
        nodes.append(record)
    header = {
        "format": FORMAT,
        "version": VERSION,
        "game": root.NAME,
        "position": root.to_text(),
        "root_player": root_player_of(root),
        "scale": float(root.EVAL_SCALE),
        "settings": settings,
        "nodes": tree.searched_nodes + tree.helper_nodes,
        "helper_nodes": tree.helper_nodes,
        "recorded": len(tree),
        "sampled": tree.sampled,
        "complete": tree.complete,
    }
    passes = [
        {
            "number": p.number, "root": p.root, "iteration": p.iteration,
            "alpha": number_out(p.alpha), "beta": number_out(p.beta), "scale": p.scale, "label": p.label,
        }
        for p in tree.passes
    ]
    return {"header": header, "passes": passes, "nodes": nodes}


def load_json(document: Mapping[str, Any] | str) -> tuple[TreeHeader, SearchTree, GameState]:
    """A tree file read back: its header, the tree, and the root position. ``TreeFileError``
    when it is not a tree file this version can read."""
    if isinstance(document, str):
        try:
            document = json.loads(document)
        except json.JSONDecodeError as error:
            raise TreeFileError(f"not JSON: {error}") from None
    if not isinstance(document, Mapping) or not isinstance(document.get("header"), Mapping):
        raise TreeFileError("not a search tree file: no header")
    head = document["header"]
    if head.get("format") != FORMAT:
        raise TreeFileError(f"not a search tree file: format {head.get('format')!r}")
    if head.get("version") != VERSION:
        raise TreeFileError(f"tree file version {head.get('version')!r}; this program reads version {VERSION}")
    try:
        root = games.new_game(head["game"], head["position"])
        header = TreeHeader(
            head["game"], head["position"], int(head["root_player"]), float(head["scale"]), str(head["settings"]),
            int(head["nodes"]), int(head["helper_nodes"]), int(head["recorded"]), bool(head["sampled"]),
            bool(head["complete"]),
        )
        passes = tuple(
            TreePass(
                int(p["number"]), int(p["root"]), int(p["iteration"]), number_in(p["alpha"]), number_in(p["beta"]),
                float(p["scale"]), PassKind(str(p["label"])),
            )
            for p in document["passes"]
        )
        decode = root.decode_move
        entries: list[NodeEntry] = []
        exits: list[NodeExit] = []
        cuts: list[Cut] = []
        visits: dict[int, int] = {}
        for record in document["nodes"]:
            index = int(record["index"])
            code = record["code"]
            move = None if code is None else decode(int(code))
            entries.append(NodeEntry(
                index, int(record["parent"]), move, record["depth"], NodeKind[record["kind"].upper()],
                number_in(record["alpha"]), number_in(record["beta"]), float(record["probability"]),
            ))
            exits.append(NodeExit(
                index, number_in(record["value"]), Bound[record["bound"].upper()], NodeKind[record["kind"].upper()],
                int(record["unrecorded"]),
            ))
            if int(record.get("visits", 1)) != 1:
                visits[index] = int(record["visits"])
            cut = record.get("cut")
            if cut is not None:
                cut_move = None if cut["code"] is None else decode(int(cut["code"]))
                cuts.append(Cut(index, cut_move, tuple(decode(int(code)) for code in cut["skipped_codes"])))
    except (KeyError, TypeError, ValueError) as error:
        raise TreeFileError(f"a damaged tree file: {type(error).__name__}: {error}") from None
    tree = SearchTree()
    tree.add(TreeBatch(
        0, passes, tuple(entries), tuple(exits), tuple(cuts), nodes=header.nodes - header.helper_nodes,
        helper_nodes=header.helper_nodes, sampled=header.sampled, complete=header.complete,
    ))
    for index, count in visits.items():
        if index in tree:
            tree.node(index).visits = count
    return header, tree, root


# ------------------------------------------------------------------ DOT
SHAPES: Final = {
    NodeKind.MAX: "triangle",
    NodeKind.MIN: "invtriangle",
    NodeKind.CHANCE: "circle",
}
"""Graphviz shapes as the lecture notes draw them; every other kind is a box (a leaf)."""


def value_text(value: float, root_player: Player, game: type[GameState]) -> str:
    """A value of the tree (search scale, ``root_player``'s view) as the app writes it: in
    the game's units (``+0.49`` pawns), a proven result in its words (``mate in 3``); the
    search's infinities of an open window ``±∞``, a node never left ``?``."""
    if math.isnan(value):
        return "?"
    if value >= INFINITY:
        return "+∞"
    if value <= -INFINITY:
        return "-∞"
    return display.value_text(to_report(value, root_player, game, view=root_player), game)


def one_line(text: str) -> str:
    return " ".join(text.split())


def quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def tree_to_dot(tree: SearchTree, root: GameState, max_nodes: int = DOT_MAX_NODES, settings: str = "") -> str:
    """The tree as a Graphviz digraph: the top ``max_nodes`` nodes (level by level)."""
    game = type(root)
    root_player = root_player_of(root)

    def shown_value(value: float) -> str:
        return value_text(value, root_player, game)

    names: dict[int, str | None] = {}
    positions: dict[int, GameState] = {}
    parent_of = {child: node.index for node in tree.nodes for child in node.children}
    for node, state in walk_positions(tree, root):
        names[node.index] = move_name(state, node.move)
        if node.was_cut:
            after = state.copy()
            if node.index in parent_of:
                play(after, node.move)
            positions[node.index] = after
    chosen: list[TreeNode] = []
    level = drawn_roots(tree, max_nodes)
    while level and len(chosen) < max_nodes:
        room = max_nodes - len(chosen)
        chosen.extend(level[:room])
        level = [child for node in level[:room] for child in tree.children(node.index)]
    shown = {node.index for node in chosen}
    left_out = len(tree) - len(shown)
    lines = [
        "digraph search_tree {",
        f"  // {root.NAME}: {one_line(root.to_text())}",
        f"  // {one_line(settings)}" if settings else "  // settings: not given",
        f"  // {len(tree):,} nodes recorded of {tree.searched_nodes:,} searched"
        + (f"; {left_out:,} left out of this picture (the first {len(shown):,} of the last iteration's pass, level by level, are drawn)" if left_out else ""),
        "  graph [rankdir=TB, nodesep=0.15, ranksep=0.5];",
        '  node [fontname="Helvetica", fontsize=10, style=filled, fillcolor=white];',
        '  edge [fontname="Helvetica", fontsize=9];',
    ]
    for node in sorted(chosen, key=lambda n: n.index):
        shape = SHAPES.get(node.kind, "box")
        window = f"[{shown_value(node.alpha)}, {shown_value(node.beta)}]"
        bound = {Bound.EXACT: "", Bound.LOWER: "≥ ", Bound.UPPER: "≤ "}[node.bound]
        label = f"{bound}{shown_value(node.value)}\n{window}"
        if node.kind not in SHAPES:
            label = f"{node.kind}\n{label}"
        if node.unrecorded:
            label += f"\n+{node.unrecorded:,} unrecorded"
        lines.append(f"  n{node.index} [shape={shape}, label={quoted(label)}];")
        parent = parent_of.get(node.index)
        if parent in shown:
            move = names[node.index] or NULL_MOVE_NAME
            if node.probability != 1.0:
                move += f" (p={node.probability:.3g})"
            lines.append(f"  n{parent} -> n{node.index} [label={quoted(move)}];")
        if node.was_cut and node.skipped:
            after = positions[node.index]
            skipped = ", ".join(move_name(after, move) or NULL_MOVE_NAME for move in node.skipped)
            lines.append(f"  cut{node.index} [shape=note, style=dashed, label={quoted('pruned: ' + skipped + chr(10) + cut_reason(node, after, shown_value(node.value)))}];")
            lines.append(f"  n{node.index} -> cut{node.index} [style=dashed, arrowhead=none];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def drawn_roots(tree: SearchTree, max_nodes: int) -> list[TreeNode]:
    """The pass roots a picture starts from: every pass when the whole tree fits, else the
    last iteration's own pass (its first; the deepest search, the one the answer came from)."""
    roots = tree.roots()
    if len(tree) <= max_nodes or not roots:
        return roots
    last_iteration = max(p.iteration for p in tree.passes)
    first_of_last = next(p for p in tree.passes if p.iteration == last_iteration)
    return [root for root in roots if root.index == first_of_last.root] or roots[-1:]


def cut_reason(node: TreeNode, state: GameState, value: str) -> str:
    """Why a node's remaining moves were pruned, in the lecture notes' words (``value``:
    the node's value as written)."""
    cause = move_name(state, node.cut_move) if node.cut_move is not None else "the bounds"
    if node.kind is NodeKind.MIN:
        return f"α-cut: {cause} scored ≤ {value}"
    if node.kind is NodeKind.CHANCE:
        return f"chance cut after {cause}: {'≥' if node.bound is Bound.LOWER else '≤'} {value}"
    return f"β-cut: {cause} scored ≥ {value}"


# ------------------------------------------------------------------ files
def write_tree(path: str | Path, tree: SearchTree, root: GameState, settings: str = "", max_dot_nodes: int = DOT_MAX_NODES) -> None:
    """Write ``tree`` to ``path``: JSON for ``.json``, Graphviz for ``.dot``. ``TreeFileError``
    for another suffix or a path that cannot be written."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise TreeFileError(f"{str(path)!r}: the tree is written as .json or .dot, not {suffix or 'a file without a suffix'}")
    if suffix == ".json":
        text = json.dumps(tree_to_json(tree, root, settings), ensure_ascii=False, allow_nan=False) + "\n"
    else:
        text = tree_to_dot(tree, root, max_dot_nodes, settings)
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise TreeFileError(f"cannot write {str(path)!r}: {error.strerror or error}") from None


def check_tree_path(path: str | Path) -> Path:
    """``path`` when a tree can be written there (a known suffix, an existing folder, not a
    folder itself); ``TreeFileError`` otherwise. Asked before searching, so a bad path fails
    at once rather than after a long search."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise TreeFileError(f"{str(path)!r}: the tree is written as .json or .dot, not {suffix or 'a file without a suffix'}")
    if path.is_dir():
        raise TreeFileError(f"{str(path)!r} is a folder")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise TreeFileError(f"cannot write {str(path)!r}: no folder {str(folder)!r}")
    return path
