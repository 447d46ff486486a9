"""Replaying a recorded search step by step, as a student follows alpha-beta by hand.

A depth-first search does three things to a node, in this order: it *enters* it with a
window ``(alpha, beta)``, searches its children one after another (at a cut-off it stops,
leaving the remaining moves unsearched), and *leaves* it with a value. The recorded tree
(``ai.tree.model.SearchTree``) numbers nodes in visit order, so the whole run comes back by
walking the nodes in order with a stack of the nodes still open::

    for node in nodes, in visit order:
        while the node on top of the stack is not node's parent:
            (CUT top, if it had a cut-off); LEAVE top; pop it
        ENTER node; push it
    at the end: CUT / LEAVE what is still on the stack (the nodes the search has left)

At each step the window of every node on the path from the root is what the search held at
that moment: AIMA fig. 5.7's MAX-VALUE raises ``alpha`` as its children return
(``v = max(v, MIN-VALUE(...)); alpha = max(alpha, v)``), MIN-VALUE lowers ``beta``. So, in
the root player's view the records use, a MAX node's current alpha is the larger of its
entry alpha and every value its children have returned so far, a MIN node's beta the smaller
of its entry beta and those values; the other end stays as it entered. Children reached by a
null move (``move is None``: a test, not a move of the line) never tighten the window.

Nothing here knows a game: ``TreeWords`` names moves through the root position and writes
values in the game's units; the replay itself only reads the tree.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import IntEnum

from games.base import GameError, GameState, Player

from ai import display
from ai.scores import INFINITY, to_report
from ai.tree.model import KIND_NAMES, KIND_SYMBOLS, WORKER_SPAN, Move, NodeKind, SearchTree, TreeNode
from ai.tree.recorder import root_player_of
from ai.tt import Bound

NULL_WINDOW = 1e-9
"""A window narrower than this (relative) is a null window: ``(alpha, next_up(alpha))``."""
INFINITE = INFINITY * 0.99
"""Values this large are the search's open window ends (±``INFINITY``), read as ±∞."""


class ReplayEvent(IntEnum):
    """What the search does at a step."""

    ENTER = 0
    """The node is entered with its window."""
    CUT = 1
    """A move failed high: the node's remaining moves are never searched."""
    LEAVE = 2
    """The node returns its value to its parent."""


@dataclass(frozen=True)
class ReplayStep:
    """Step ``number`` of the replay: ``event`` at node ``node`` (a visit index)."""

    number: int
    event: ReplayEvent
    node: int
    visited_through: int
    """The largest visit index entered so far: nodes after it are not yet visited."""


@dataclass(frozen=True)
class PathWindow:
    """A node on the path from the root at some step, with its window at that moment."""

    node: TreeNode
    alpha: float
    beta: float
    best: float
    """The best value its children have returned so far (NaN before the first returns):
    the largest for MAX, the smallest for MIN, root player's view."""
    best_child: int | None
    """The child (visit index) that returned ``best``."""


def side_of(tree: SearchTree, node: TreeNode) -> NodeKind | None:
    """MAX or MIN: whose move it is at ``node`` in the root player's view, as far as the
    records tell. Decision nodes say it; a quiescence node takes the opposite of its parent
    (one move further); leaves and chance nodes have no side that tightens a window."""
    if node.kind.is_decision:
        return node.kind
    if node.kind is not NodeKind.QUIESCENCE or node.parent not in tree:
        return None
    parent_side = side_of(tree, tree.node(node.parent))
    if parent_side is None:
        return None
    return NodeKind.MIN if parent_side is NodeKind.MAX else NodeKind.MAX


class TreeWalk:
    """The recorded nodes read in visit order, as the search entered and left them.

    ``advance`` reads the nodes recorded since the last call (at most ``limit``) and calls
    ``on_enter(position, parent)`` for each and ``on_close(position, parent)`` for each node
    whose subtree is over (a later node is no descendant of it), children before their
    parent; positions are indices into ``tree.nodes`` (a pass root's parent is -1). ``close_all`` closes what is still open (the search has
    ended). A root split's workers (``TreeBatch.worker``) send their nodes interleaved, each
    in its own visit order: each keeps its own stack under the pass's shared root.
    """

    def __init__(
        self, tree: SearchTree, on_enter: Callable[[int, int], None], on_close: Callable[[int, int], None]
    ) -> None:
        self.tree = tree
        self.position_of: dict[int, int] = {}
        self.read = 0
        self._on_enter = on_enter
        self._on_close = on_close
        self._stacks: dict[int, list[int]] = {}
        """Per worker: the open nodes below the pass root, deepest last."""
        self.root: int | None = None
        """The position of the open pass root."""

    def advance(self, limit: int | None = None) -> int:
        """Read up to ``limit`` more nodes (all when ``None``); returns how many."""
        nodes = self.tree.nodes
        end = len(nodes) if limit is None else min(len(nodes), self.read + limit)
        position_of = self.position_of
        stacks = self._stacks
        on_enter, on_close = self._on_enter, self._on_close
        for position in range(self.read, end):
            node = nodes[position]
            parent = position_of.get(node.parent, -1)
            if parent < 0:  # a pass's root: every node before it is over
                self.close_all()
                self.root = position
                position_of[node.index] = position
                on_enter(position, -1)
                continue
            worker = node.index // WORKER_SPAN
            stack = stacks.get(worker)
            if stack is None:
                stack = stacks[worker] = []
            while stack and stack[-1] != parent:
                closed = stack.pop()
                on_close(closed, stack[-1] if stack else parent)
            position_of[node.index] = position
            on_enter(position, parent)
            stack.append(position)
        read = end - self.read
        self.read = end
        return read

    def close_all(self) -> None:
        """Close every open node, the pass root last (the search has ended, or a new pass
        begins)."""
        root = -1 if self.root is None else self.root
        for stack in self._stacks.values():
            while stack:
                closed = stack.pop()
                self._on_close(closed, stack[-1] if stack else root)
        if self.root is not None:
            self._on_close(self.root, -1)
            self.root = None

    def stacks(self) -> list[list[int]]:
        """Each worker's open nodes below the pass root, shallowest first (read only)."""
        return [stack for stack in self._stacks.values() if stack]

    @property
    def is_caught_up(self) -> bool:
        return self.read == len(self.tree.nodes)


class Replay:
    """The steps of a recorded search, read from a ``SearchTree``.

    Built incrementally: ``extend`` takes in the nodes recorded since the last call (at most
    ``limit`` of them), so a 100,000-node tree is read in chunks off a timer and a tree still
    growing can be replayed up to where it has got. The nodes still open at the end are left
    when the search has finished (``tree.complete``) or when ``finish`` is called; a node the
    search never left (it was stopped inside) has no LEAVE step.
    """

    def __init__(self, tree: SearchTree) -> None:
        self.tree = tree
        self._events = bytearray()
        self._positions = array("l")
        """Per step: the node's position in ``tree.nodes``."""
        self._frontier = array("l")
        """Per step: the position of the last node entered at or before it."""
        self._enter_step = array("l")
        self._leave_step = array("l")
        """Per node position: the step it was entered and left at (-1: not yet)."""
        self._walk = TreeWalk(tree, self._enter, self._close)
        self._finished = False

    # ------------------------------------------------------------------ reading
    @property
    def is_caught_up(self) -> bool:
        """Every recorded node has been read (and the open ones left, if the search is over)."""
        return self._walk.is_caught_up and (self._finished or not self.tree.complete)

    def extend(self, limit: int | None = None) -> int:
        """Read up to ``limit`` more nodes (all when ``None``); returns how many were read.
        When the tree is complete and every node read, the nodes still open are left."""
        read = self._walk.advance(limit)
        if self.tree.complete and self._walk.is_caught_up and not self._finished:
            self.finish()
        return read

    def finish(self) -> None:
        """Leave the nodes still open (the search has ended)."""
        self._walk.close_all()
        self._finished = True

    def _enter(self, position: int, _parent: int) -> None:
        self._enter_step.append(len(self._events))
        self._leave_step.append(-1)
        self._add(ReplayEvent.ENTER, position, position)

    def _close(self, position: int, _parent: int) -> None:
        node = self.tree.nodes[position]
        if node.is_open:
            return  # the search stopped inside it: never left
        frontier = self._frontier[-1]
        if node.was_cut:
            self._add(ReplayEvent.CUT, position, frontier)
        self._leave_step[position] = len(self._events)
        self._add(ReplayEvent.LEAVE, position, frontier)

    def _add(self, event: ReplayEvent, position: int, frontier: int) -> None:
        self._events.append(event)
        self._positions.append(position)
        self._frontier.append(frontier)

    # ------------------------------------------------------------------ steps
    def __len__(self) -> int:
        return len(self._events)

    def step(self, number: int) -> ReplayStep:
        if not 0 <= number < len(self._events):
            raise IndexError(f"step {number} is outside the replay's 0..{len(self._events) - 1}")
        nodes = self.tree.nodes
        return ReplayStep(
            number,
            ReplayEvent(self._events[number]),
            nodes[self._positions[number]].index,
            nodes[self._frontier[number]].index,
        )

    def steps(self) -> list[ReplayStep]:
        return [self.step(number) for number in range(len(self))]

    def enter_step(self, index: int) -> int | None:
        """The step at which node ``index`` was entered (``None``: not read yet)."""
        position = self._walk.position_of.get(index)
        return None if position is None else self._enter_step[position]

    def leave_step(self, index: int) -> int | None:
        """The step at which node ``index`` was left (``None``: not yet, or never)."""
        position = self._walk.position_of.get(index)
        if position is None or self._leave_step[position] < 0:
            return None
        return self._leave_step[position]

    def next_event(self, number: int, event: ReplayEvent) -> int | None:
        """The first step after ``number`` with ``event`` (``None``: none)."""
        found = self._events.find(bytes([event]), number + 1)
        return found if found >= 0 else None

    def previous_event(self, number: int, event: ReplayEvent) -> int | None:
        """The last step before ``number`` with ``event`` (``None``: none)."""
        found = self._events.rfind(bytes([event]), 0, max(number, 0))
        return found if found >= 0 else None

    def next_cut(self, number: int) -> int | None:
        return self.next_event(number, ReplayEvent.CUT)

    def previous_cut(self, number: int) -> int | None:
        return self.previous_event(number, ReplayEvent.CUT)

    def pass_starts(self) -> list[int]:
        """The step at which each pass's root is entered, in pass order."""
        starts = []
        for tree_pass in self.tree.passes:
            step = self.enter_step(tree_pass.root)
            if step is not None:
                starts.append(step)
        return starts

    def next_pass(self, number: int) -> int | None:
        """The first step of the next pass (the next iteration or re-search)."""
        return next((start for start in self.pass_starts() if start > number), None)

    def previous_pass(self, number: int) -> int | None:
        """The first step of this pass, or of the one before when already at its start."""
        return next((start for start in reversed(self.pass_starts()) if start < number), None)

    # ------------------------------------------------------------------ windows
    def window_path(self, number: int) -> list[PathWindow]:
        """The path from the pass's root to the node of step ``number``, each node with its
        window as the search held it at that step (see the module's docstring)."""
        node_index = self.step(number).node
        return [self.window_of(node, number) for node in self.tree.path(node_index)]

    def window_of(self, node: TreeNode, number: int) -> PathWindow:
        """``node``'s window after step ``number`` (its entry window before any child returned).

        A move searched twice (PVS's null-window scout, then the full window when the scout
        failed high; a late move reduction, then the full depth) shows as two children with
        the same move: only the last search's value reaches the node's loop, so a child
        followed by a sibling with the same move does not tighten the window."""
        side = side_of(self.tree, node)
        alpha, beta = node.alpha, node.beta
        best, best_child = math.nan, None
        if side is not None:
            children = self.tree.children(node.index)
            for at, child in enumerate(children):
                left = self.leave_step(child.index)
                if left is None or left > number:
                    break  # children return in visit order: the rest have not yet
                if child.move is None:
                    continue  # a null move's search tests a bound; it is no line of play
                if at + 1 < len(children) and children[at + 1].move == child.move:
                    continue  # searched again at once: the next search's value is the one used
                value = child.value
                if side is NodeKind.MAX and (math.isnan(best) or value > best):
                    best, best_child = value, child.index
                elif side is NodeKind.MIN and (math.isnan(best) or value < best):
                    best, best_child = value, child.index
            if not math.isnan(best):
                if side is NodeKind.MAX:
                    alpha = max(alpha, best)
                else:
                    beta = min(beta, best)
        return PathWindow(node, alpha, beta, best, best_child)


# ---------------------------------------------------------------------- words
LineNamer = Callable[[GameState, Sequence[Move]], list[str]]
"""Names of a line of moves played from a position (a board's ``line_texts``)."""


class TreeWords:
    """Moves and values of a recorded tree in words: moves named from the search's root
    position (``line_texts`` when a board names them its own way), values in the game's
    units in the root player's view, open window ends as ±∞, proven results as wins."""

    def __init__(self, root: GameState | None = None, line_texts: LineNamer | None = None) -> None:
        self.root = root
        self.line_texts = line_texts
        self.max_player: Player | None = root_player_of(root) if root is not None else None
        """MAX of the tree: the root's mover, or at a dice roll the player who decides next,
        as the recorder takes it."""
        self._names: dict[int, list[str]] = {}

    @property
    def game(self) -> type[GameState] | None:
        return type(self.root) if self.root is not None else None

    def path_names(self, tree: SearchTree, index: int) -> list[str]:
        """The moves from the pass's root to node ``index``, named (cached per node)."""
        names = self._names.get(index)
        if names is None:
            names = self.line_names(tree.moves_to(index))
            if len(self._names) > 50_000:
                self._names.clear()
            self._names[index] = names
        return names

    def line_names(self, moves: Sequence[Move]) -> list[str]:
        """``moves`` played from the root, named; a null move reads ``(pass)``."""
        if self.root is None:
            return ["null" if move is None else str(move) for move in moves]
        names: list[str] = []
        position = self.root.copy()
        for move in moves:
            if move is None:  # a null move: the side to move passes
                names.append("(pass)")
                if position.can_null_move():
                    position.play_null()
                continue
            try:
                names.append(self._name(position, move))
                position.play(move)
            except GameError:  # a move the position cannot name: show its code
                names.append(str(move))
        return names

    def _name(self, position: GameState, move: Move) -> str:
        if self.line_texts is not None:
            return self.line_texts(position, [move])[0]
        return position.move_name(move)

    def move_name(self, tree: SearchTree, index: int) -> str:
        """The move that led to node ``index`` (``root`` for a pass's root)."""
        names = self.path_names(tree, index)
        return names[-1] if names else "root"

    def line(self, tree: SearchTree, index: int) -> str:
        """``e4 e5 Nf3``; ``the root`` for a pass's root."""
        names = self.path_names(tree, index)
        return " ".join(names) if names else "the root"

    def value(self, value: float) -> str:
        """The root player's value as ``ai.display`` writes every score of the app: ``+0.35``
        in the game's unit, ``mate in 3`` / ``mated in 2`` (chess), ``win in 5 plies``;
        ``±∞`` for an open window end; ``?`` for a node not yet left."""
        if math.isnan(value):
            return "?"
        if value >= INFINITE:
            return "+∞"
        if value <= -INFINITE:
            return "−∞"
        game = self.game
        player = self.max_player
        if game is None or player is None:
            return f"{value:+g}"
        return display.value_text(to_report(value, player, game, view=player), game)

    def window(self, alpha: float, beta: float) -> str:
        """``[0.20, +∞)``: a finite end closed, an open one as the infinity it is; a null
        window (PVS's scout, MTD(f)'s probe: beta just above alpha) as ``null window at 0.20``."""
        if alpha < beta <= alpha + NULL_WINDOW * max(1.0, abs(alpha)):
            return f"null window at {self.value(alpha)}"
        low = "(" if alpha <= -INFINITE else "["
        high = ")" if beta >= INFINITE else "]"
        return f"{low}{self.value(alpha)}, {self.value(beta)}{high}"

    def window_phrase(self, alpha: float, beta: float) -> str:
        """``window [0.20, +∞)`` or ``a null window at 0.20``, to follow "with"."""
        text = self.window(alpha, beta)
        return f"a {text}" if text.startswith("null window") else f"window {text}"

    def amount(self, value: float, bound: Bound = Bound.EXACT) -> str:
        """A value as a sentence says it: ``+1.20``, ``a win in 7 plies``, ``mate in 3``,
        ``being mated in 2``, ``at least +1.20`` (a lower bound), ``at most a loss in 8
        plies`` (an upper bound)."""
        text = self.value(value)
        if text.startswith(("win ", "loss ")):
            text = f"a {text}"
        elif text.startswith("mated "):
            text = f"being {text}"
        elif text in ("won", "lost"):
            text = f"a {text} game"
        if bound is Bound.LOWER:
            return f"at least {text}"
        if bound is Bound.UPPER:
            return f"at most {text}"
        return text

    def side_name(self, side: NodeKind) -> str:
        """``▲ MAX (X)``, ``▼ MIN (Black)``: a side with the player it is, when the root is known."""
        name = f"{KIND_SYMBOLS[side]} {side.name}"
        if self.root is None or self.max_player is None:
            return name
        player = self.max_player if side is NodeKind.MAX else 1 - self.max_player
        return f"{name} ({type(self.root).PLAYER_NAMES[player].capitalize()})"

    def bounded_value(self, node: TreeNode) -> str:
        """``0.35 (exact)``, ``≥ 1.20 (lower bound)``, ``≤ −0.10 (upper bound)``."""
        if node.bound is Bound.LOWER:
            return f"≥ {self.value(node.value)} (lower bound)"
        if node.bound is Bound.UPPER:
            return f"≤ {self.value(node.value)} (upper bound)"
        return f"{self.value(node.value)} (exact)"


def kind_word(node: TreeNode, side: NodeKind | None) -> str:
    """``▲ MAX``, ``▼ MIN``, ``□ leaf``, ``T table`` ...: what the node is, symbol first (a
    quiescence node with the side to move there: ``◇ quiescence ▼``)."""
    word = f"{KIND_SYMBOLS[node.kind]} {KIND_NAMES[node.kind]}"
    if node.kind is NodeKind.QUIESCENCE and side is not None:
        word += f" {KIND_SYMBOLS[side]}"
    return word


def describe(replay: Replay, number: int, words: TreeWords, pruned_shown: int = 6) -> str:
    """Step ``number`` in a sentence:

    * ``Enter ▼ MIN after e4 e5 (depth 3) with window [0.20, +∞)``
    * ``Leave ▼ MIN after e4 e5 with 0.35 (exact); ▲ MAX root: α 0.20 → 0.35``
    * ``β-cut at ▲ MAX after e4: Nf3 scored ≥ 1.20 ≥ β 1.20; 3 moves pruned: d4 c4 Nc3``
    """
    tree = replay.tree
    step = replay.step(number)
    node = tree.node(step.node)
    side = side_of(tree, node)
    where = f"after {words.line(tree, node.index)}" if node.parent in tree else "at the root"
    what = kind_word(node, side)
    if step.event is ReplayEvent.ENTER:
        depth = f"{node.depth:g}"
        chance = f", probability {node.probability:.3g}" if node.probability != 1.0 else ""
        again = " again" if _searched_before(tree, node) else ""
        return f"Enter{again} {what} {where} (depth {depth}{chance}) with {words.window_phrase(node.alpha, node.beta)}"
    if step.event is ReplayEvent.CUT:
        return _cut_text(replay, number, node, side, what, where, words, pruned_shown)
    text = f"Leave {what} {where} with {words.bounded_value(node)}"
    if node.unrecorded:
        text += f"; {node.unrecorded:,} nodes below it not recorded"
    return text + _parent_change(replay, number, node, words)


def _cut_text(
    replay: Replay, number: int, node: TreeNode, side: NodeKind | None, what: str, where: str,
    words: TreeWords, pruned_shown: int,
) -> str:
    tree = replay.tree
    window = replay.window_path(number)[-1]
    cut_child = tree.cut_child(node.index)
    cause = cut_child.index if cut_child is not None else window.best_child
    if cause is not None:
        child = tree.node(cause)
        mover = words.move_name(tree, cause)
        scored = words.amount(child.value, child.bound)
    else:
        mover, scored = "a move", words.amount(node.value, node.bound)
    if node.kind is NodeKind.CHANCE:
        head = f"Cut-off at {what} {where}: the outcomes searched already put its value outside the window"
    elif side is NodeKind.MIN:
        head = (
            f"α-cut at {what} {where}: {mover} scored {scored}, not above α = {words.amount(window.alpha)}, "
            f"which {words.side_name(NodeKind.MAX)} already has"
        )
    else:
        head = (
            f"β-cut at {what} {where}: {mover} scored {scored}, not below β = {words.amount(window.beta)}, "
            f"which {words.side_name(NodeKind.MIN)} can already hold it to"
        )
    skipped = node.skipped
    if not skipped:
        return head + "; it was the last move, so nothing is pruned"
    names = _skipped_names(words, tree, node, skipped[:pruned_shown])
    more = f" and {len(skipped) - pruned_shown} more" if len(skipped) > pruned_shown else ""
    count = f"{len(skipped)} move{'s' if len(skipped) != 1 else ''} pruned"
    return f"{head}; {count}: {' '.join(names)}{more}"


def _searched_before(tree: SearchTree, node: TreeNode) -> bool:
    """Whether the sibling searched just before ``node`` had the same move (a re-search)."""
    if node.parent not in tree or node.move is None:
        return False
    siblings = tree.node(node.parent).children
    at = siblings.index(node.index)
    return at > 0 and tree.node(siblings[at - 1]).move == node.move


def _skipped_names(words: TreeWords, tree: SearchTree, node: TreeNode, moves: Sequence[Move]) -> list[str]:
    """The pruned moves named from ``node``'s position."""
    if words.root is None:
        return [str(move) for move in moves]
    prefix = tree.moves_to(node.index)
    return [words.line_names([*prefix, move])[-1] for move in moves]


def _parent_change(replay: Replay, number: int, node: TreeNode, words: TreeWords) -> str:
    """``; ▲ MAX after e4: α 0.20 → 0.35``: what the value just returned does to its parent."""
    tree = replay.tree
    if node.parent not in tree or node.move is None:
        return ""
    parent = tree.node(node.parent)
    before = replay.window_of(parent, number - 1)
    after = replay.window_of(parent, number)
    where = "at the root" if parent.parent not in tree else f"after {words.line(tree, parent.index)}"
    name = kind_word(parent, side_of(tree, parent))
    if after.alpha != before.alpha:
        return f"; {name} {where}: α {words.value(before.alpha)} → {words.value(after.alpha)}"
    if after.beta != before.beta:
        return f"; {name} {where}: β {words.value(before.beta)} → {words.value(after.beta)}"
    return ""
