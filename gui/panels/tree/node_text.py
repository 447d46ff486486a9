"""What a recorded node says in words: its move in the game's notation, its value in the
game's units, its window, its kind, and why a cut-off pruned its siblings.

A ``SearchTree`` keeps values on the search scale, in the root player's view (MAX is the
side to move at the root), and moves as the game's own values. ``NodeTexts`` holds the root
state the search started from and names everything from it: a node's position is the root
with the moves of its path played (``positions`` caches them for the nodes on screen, so
naming a node costs one ``result`` once).

Values read as the lecture notes write them on a game tree: ``+1.20`` (pawns for chess,
discs for Othello ...), ``≥ +1.20`` for a lower bound (a fail high), ``#3`` for chess's
"mate in 3" (``#-3`` mated), ``W5`` / ``L5`` for another game's win or loss in 5 plies.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from ai import display as engine_display
from ai.scores import INFINITY, WIN_SCORE, is_win_score, to_report
from ai.tree.model import NodeKind, SearchTree, TreeNode
from ai.tree.recorder import root_player_of
from ai.tt import Bound
from games.base import GameState
from gui.panels import display
from gui.panels.display import LineNamer, MoveNamer


OPEN_VALUE = "…"
"""A node entered and not yet left (the search is inside it, or was stopped there)."""
NULL_MOVE = "null"
"""The null move of null-move pruning (a pass that is no legal move)."""
PROBABILITY_DENOMINATOR = 1296
"""Chance probabilities read as fractions up to this denominator (36² covers two rolls of two
dice); anything finer is written as a decimal."""
POSITION_CACHE_LIMIT = 4096
"""Positions kept for naming (the nodes on screen and their paths); past it the cache starts over."""

BOUND_MARK: dict[Bound, str] = {Bound.EXACT: "", Bound.LOWER: "≥ ", Bound.UPPER: "≤ "}
BOUND_WORDS: dict[Bound, str] = {
    Bound.EXACT: "exact",
    Bound.LOWER: "lower bound (failed high: the true value is at least this)",
    Bound.UPPER: "upper bound (failed low: the true value is at most this)",
}
KIND_WORDS: dict[NodeKind, str] = {
    NodeKind.MAX: "MAX node: the root player to move, takes the largest child value",
    NodeKind.MIN: "MIN node: the opponent to move, takes the smallest child value",
    NodeKind.CHANCE: "chance node: dice to roll, the probability-weighted mean of its outcomes",
    NodeKind.LEAF: "leaf at the horizon: the static evaluation",
    NodeKind.QUIESCENCE: "quiescence node: captures searched below the horizon",
    NodeKind.TERMINAL: "terminal: the game is over here (its utility)",
    NodeKind.TT_CUT: "table cut: settled by a transposition-table entry, children not searched",
    NodeKind.SOLVER: "solved: settled by the game's exact solver",
    NodeKind.STATIC_CUT: "static cut: pruned by a heuristic (null move, reverse futility) before its children",
}


def cut_name(kind: NodeKind) -> str:
    """What the lecture notes call a cut-off at a node of ``kind``, in the root player's view:
    a MAX node stops when a child reaches β (a β-cut), a MIN node when a child falls to α
    (an α-cut); a chance node's cut is Star1/Star2's probe bound."""
    if kind is NodeKind.MIN:
        return "α-cut"
    if kind is NodeKind.CHANCE:
        return "chance cut"
    return "β-cut"


def probability_text(probability: float) -> str:
    """``1/36``, ``1/18``; ``""`` for the certain edge of a decision node."""
    if probability >= 1.0:
        return ""
    fraction = Fraction(probability).limit_denominator(PROBABILITY_DENOMINATOR)
    if abs(float(fraction) - probability) < 1e-9:
        return f"{fraction.numerator}/{fraction.denominator}"
    return f"{probability:.3f}"


class NodeTexts:
    """Names the nodes of one search's tree from the root state it started from."""

    def __init__(self, root: GameState, move_text: MoveNamer | None = None, line_texts: LineNamer | None = None) -> None:
        self.root = root
        self.game: type[GameState] = type(root)
        self.root_player = root_player_of(root)
        """MAX: the player to move at the root (at a dice roll, the one who decides next), as
        the recorder takes it: every value is in this player's view."""
        self._move_text: MoveNamer = move_text or (lambda state, move: state.move_name(move))
        self._line_texts: LineNamer = line_texts or (lambda state, moves: state.line_names(moves))
        self._positions: dict[int, GameState] = {}
        self._names: dict[int, str] = {}
        """Move names by node index (a node's move never changes; the layout asks often)."""

    # ---------------------------------------------------------------- positions
    def position(self, tree: SearchTree, index: int) -> GameState:
        """The position at node ``index``: the root with its path's moves played."""
        cached = self._positions.get(index)
        if cached is not None:
            return cached
        path: list[TreeNode] = []
        node: TreeNode | None = tree.node(index)
        state = self.root
        while node is not None:
            known = self._positions.get(node.index)
            if known is not None:
                state = known
                break
            path.append(node)
            node = tree.node(node.parent) if node.parent in tree else None
        if len(self._positions) > POSITION_CACHE_LIMIT:
            self._positions.clear()
        for step in reversed(path):
            if step.parent in tree:  # the pass's root is the root state itself
                state = played(state, step.move)
            self._positions[step.index] = state
        return state

    # ---------------------------------------------------------------- moves
    def move_name(self, tree: SearchTree, node: TreeNode) -> str:
        """The move that led to ``node`` from its parent, in the game's notation."""
        known = self._names.get(node.index)
        if known is not None:
            return known
        if node.parent not in tree:
            return ""
        if node.move is None:
            name = NULL_MOVE
        else:
            parent = self.position(tree, node.parent)
            try:
                name = self._move_text(parent, node.move)
            except Exception:  # noqa: BLE001 - a name must never break the drawing; the raw value says enough
                name = str(node.move)
        if len(self._names) > POSITION_CACHE_LIMIT * 4:
            self._names.clear()
        self._names[node.index] = name
        return name

    def path_text(self, tree: SearchTree, index: int) -> str:
        """The moves from the pass's root to ``index`` as one line (``e4  e5  Nf3``)."""
        path = tree.path(index)[1:]
        if not path:
            return "the root (the position searched)"
        if any(step.move is None for step in path):
            return display.joined_line([self.move_name(tree, step) for step in path])
        try:
            return display.joined_line(self._line_texts(self.root, [step.move for step in path]))
        except Exception:  # noqa: BLE001 - fall back to naming move by move
            return display.joined_line([self.move_name(tree, step) for step in path])

    # ---------------------------------------------------------------- values
    def score_of(self, value: float) -> Any:
        """``value`` (search scale, root player's view) as an ``ai.events.Score``."""
        return to_report(value, self.root_player, self.game, view=self.root_player)

    def value_text(self, value: float, bound: Bound = Bound.EXACT, compact: bool = True) -> str:
        """A node's value in the game's units with its bound mark: ``≥ +1.20``, ``#3``."""
        if math.isnan(value):
            return OPEN_VALUE
        if abs(value) >= INFINITY:
            number = "+∞" if value > 0 else "−∞"
        elif compact and is_win_score(value):
            plies = int(WIN_SCORE - abs(value))
            if self.game.WIN_WORDING == "mate":
                moves = (plies + 1) // 2
                number = f"#{moves}" if value > 0 else f"#-{moves}"
            else:
                number = f"W{plies}" if value > 0 else f"L{plies}"
        else:
            number = engine_display.value_text(self.score_of(value), self.game)
        return f"{BOUND_MARK[bound]}{number}"

    def window_text(self, alpha: float, beta: float, compact: bool = False) -> str:
        """The α-β window ``[−∞, +∞]``, ``[+0.20, +0.21]`` (a null window is one unit wide);
        ``compact``: proven results as on the nodes (``W5``, ``#3``)."""
        return f"[{self.value_text(alpha, compact=compact)}, {self.value_text(beta, compact=compact)}]"

    def player_name(self, player: int) -> str:
        return display.player_names(self.game)[player]

    def view_caption(self) -> str:
        """Whose view the values are in, and how a proven result reads: ``Values for White
        (MAX, to move at the root), in pawns; #3 / #-3: White mates / is mated in 3``."""
        name = self.player_name(self.root_player)
        unit = f", in {self.game.SCORE_UNIT}" if self.game.SCORE_UNIT else ""
        caption = f"Values for {name} (MAX, to move at the root){unit}"
        if self.game.UTILITY_KIND != "win_loss":
            return caption
        if self.game.WIN_WORDING == "mate":
            return f"{caption}; #3 / #-3: {name} mates / is mated in 3"
        return f"{caption}; W5 / L5: {name} wins / loses in 5 plies"

    # ---------------------------------------------------------------- cuts
    def cut_label(self, tree: SearchTree, node: TreeNode) -> str:
        """Why ``node`` stopped searching its moves: ``β-cut: Nf3 scored ≥ 1.20``."""
        name = cut_name(node.kind)
        child = tree.cut_child(node.index)
        if node.cut_move is None:
            mover = "a probe"
        elif child is not None:
            mover = self.move_name(tree, child)
        else:
            parent = self.position(tree, node.index)
            try:
                mover = self._move_text(parent, node.cut_move)
            except Exception:  # noqa: BLE001
                mover = str(node.cut_move)
        value = child.value if child is not None and not child.is_open else node.value
        if node.kind is NodeKind.CHANCE:  # Star1/Star2: the chance node's own bound decides
            value = node.value
            mark = "≥" if node.bound is Bound.LOWER else "≤"
        else:
            mark = "≤" if node.kind is NodeKind.MIN else "≥"
        if math.isnan(value):
            return f"{name}: {mover}"
        if node.kind is NodeKind.CHANCE:
            return f"{name} after {mover}: value {mark} {self.value_text(value)}"
        return f"{name}: {mover} scored {mark} {self.value_text(value)}"

    def skipped_names(self, tree: SearchTree, node: TreeNode) -> list[str]:
        """The moves the cut-off pruned, in the game's notation."""
        parent = self.position(tree, node.index)
        names = []
        for move in node.skipped:
            try:
                names.append(self._move_text(parent, move))
            except Exception:  # noqa: BLE001
                names.append(str(move))
        return names


def played(state: GameState, move: Any) -> GameState:
    """``state`` with ``move`` played (``None``: the null move), as a new state."""
    if move is None:
        child = state.copy()
        child.play_null()
        return child
    return state.result(move)
