"""The tree recorder: a depth-first search's walk, written down node by node where it runs.

A search records its tree only when asked (``SearchRequest.tree``): the engine then makes a
``TreeRecorder`` and hands it to the algorithm (``SearchContext.recorder``), which wraps its
node function in one of the recording wrappers below (``negamax_node``, ``quiescence_node``,
``chance_node``). Without a recorder the node function is not wrapped, so recording costs
nothing when nobody records; the node itself tells the recorder only what a wrapper cannot
see from outside:

* the move (or chance outcome, with its probability) it is about to search
  (``next_move``/``next_probability``, set just before the recursive call);
* that a cut-off left moves unsearched (``cut``);
* that something other than its children settled it (``settle``: the transposition table,
  the exact solver, a static cut).

Everything else the wrapper works out itself: the node's visit number and how many nodes
lay below it (from the engine's node counter: every ``count_node`` is exactly one node,
recorded or not), its kind, its window and value in the **root player's view** (a MIN node's
negamax window ``(a, b)`` is ``(-b, -a)`` and its fail high an upper bound), and a new pass
(``TreePass``) at each call at the root. The records travel as ``TreeBatch`` events through
the search's ``emit``, about every ``TreeOptions.batch_seconds``, the last one (``finish``)
with ``complete=True``; ``ai.tree.model.SearchTree`` puts them together.

Past ``TreeOptions.cap`` recorded nodes the recorder keeps the top ``whole_plies`` tree
levels of every pass whole and samples below them: one deeper subtree in ``k`` is recorded
whole, ``k`` doubling with every further quarter of the cap, and nothing deeper is recorded
once twice the cap is reached. A node left out is counted in ``unrecorded`` of its nearest
recorded ancestor, so ``SearchTree.size`` of the pass roots still adds up to the engine's
node count.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any, Final

from games.base import CHANCE, GameState, Player

from ai.control import SearchControl
from ai.scores import INFINITY
from ai.settings import Limits
from ai.tree.model import (
    ROOT_PARENT,
    Cut,
    Move,
    NodeEntry,
    NodeExit,
    NodeKind,
    PassKind,
    TreeBatch,
    TreeOptions,
    TreePass,
)
from ai.tt import Bound

MAX: Final = NodeKind.MAX
MIN: Final = NodeKind.MIN
CLOCK_EVERY: Final = 256
"""Recorded nodes between two looks at the clock for the next batch."""
SAMPLING_STEPS: Final = 4
"""Past the cap, the sampling rate halves with every ``cap / SAMPLING_STEPS`` nodes recorded."""
HARD_CAP_FACTOR: Final = 2
"""Below the whole plies nothing is recorded once ``HARD_CAP_FACTOR * cap`` nodes are."""

ASPIRATION_LABEL: Final = PassKind.ASPIRATION_RESEARCH
MTDF_LABEL: Final = PassKind.MTDF_PROBE
MULTIPV_LABEL: Final = PassKind.NEXT_BEST_LINE
RESEARCH_LABEL: Final = PassKind.RESEARCH
ROOT_SOLVE_LABEL: Final = PassKind.ROOT_SOLVE


def root_player_of(state: GameState) -> Player:
    """MAX of the recorded tree: the root's side to move, or at a dice roll the player who
    decides next (looking through the chance nodes along their first outcome)."""
    state = state.copy()
    while not state.is_terminal() and state.to_move() == CHANCE:
        state.play(state.chance_outcomes()[0][0])
    mover = state.to_move()
    return 0 if mover == CHANCE else mover


def known_bound(kind: NodeKind, is_alone: bool, may_have_stood_pat: bool) -> Bound | None:
    """``EXACT`` for a node whose value is its own whatever its window: a finished game, an
    exact solve, a leaf scored without children (its static evaluation) unless it stood pat
    at or above beta with noisy moves (or quiet checks) left unsearched (a lower bound);
    ``None``: the window decides (a node that searched children, or a table's or a static
    cut's bound)."""
    if kind is NodeKind.TERMINAL or kind is NodeKind.SOLVER:
        return Bound.EXACT
    if is_alone and (kind is NodeKind.LEAF or kind is NodeKind.QUIESCENCE) and not may_have_stood_pat:
        return Bound.EXACT
    return None


class Frame:
    """An open recorded node: what its exit needs."""

    __slots__ = ("index", "sign", "low", "high", "kind", "depth", "below", "move", "probability", "settled", "level", "chosen", "has_search_child")

    def __init__(
        self, index: int, sign: int, low: float, high: float, kind: NodeKind, depth: float,
        move: Move, probability: float, level: int, chosen: bool,
    ) -> None:
        self.index = index
        self.sign = sign
        """+1 when the node's own values are the root player's, -1 when negamax turned them."""
        self.low = low
        self.high = high
        """The window on entry, root player's view."""
        self.kind = kind
        self.depth = depth
        self.below = 0
        """Nodes counted in the recorded children's subtrees (their sizes)."""
        self.move = move
        self.probability = probability
        self.settled: NodeKind | None = None
        self.level = level
        """Tree levels below the pass root (0 at the root)."""
        self.chosen = chosen
        """Inside a subtree the sampler chose: its descendants are recorded whole."""
        self.has_search_child = False
        """A horizon node searched main-search children (a check extension): not a leaf."""


class TreeRecorder:
    """Records one search's tree and sends it in batches through ``emit``."""

    def __init__(
        self,
        options: TreeOptions,
        search_id: int,
        emit: Callable[[Any], None],
        root: GameState,
        *,
        control: SearchControl | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.options = options
        self.search_id = search_id
        self.emit = emit
        self.root_player: Player = root_player_of(root)
        self.scale = float(root.EVAL_SCALE)
        self.control = control if control is not None else SearchControl(Limits())
        self.clock = clock
        self.next_move: Move = None
        """The move (or outcome) the node is about to search: set just before the call."""
        self.next_probability = 1.0
        """The outcome's probability when the node is a chance node; 1 otherwise."""
        self.iteration_depth: Callable[[], int] = lambda: 1
        """The nominal depth of the iteration under way (the algorithm binds it)."""
        self.root_move_count: Callable[[], int] = lambda: 0
        """How many root moves the search at the root considers now (MultiPV leaves out
        the better lines' first moves)."""
        self.next_pass: PassKind | None = None
        """Why the next call at the root runs, when the algorithm says so (``named_passes``);
        ``None``: the recorder tells it from the window and the root moves."""
        self.last_move_count = 0
        self.stack: list[Frame] = []
        self.hidden = 0
        """How deep the search is inside a subtree not recorded (0: recording)."""
        self.recorded = 0
        self.sampled = False
        self.accounted = 0
        """Nodes inside the passes so far (their roots' sizes)."""
        self.samples_seen = 0
        self.pass_count = 0
        self.last_pass: TreePass | None = None
        self.passes: list[TreePass] = []
        self.entries: list[NodeEntry] = []
        self.exits: list[NodeExit] = []
        self.cuts: list[Cut] = []
        self.since_clock = 0
        self.last_sent = clock()
        self.is_finished = False

    # ------------------------------------------------------------ binding
    def bind(
        self,
        control: SearchControl,
        iteration_depth: Callable[[], int],
        root_move_count: Callable[[], int] = lambda: 0,
    ) -> None:
        """Tie the recorder to the search: its node counter, its iteration depth and the
        number of root moves it searches."""
        self.control = control
        self.iteration_depth = iteration_depth
        self.root_move_count = root_move_count

    def named_passes(self, search: Callable[..., float], kind: PassKind) -> Callable[..., float]:
        """``search`` (a root search) whose every call is recorded as a pass of ``kind``:
        how an algorithm names passes of its own (MTD(f)'s null-window probes)."""

        def labelled(*arguments: Any) -> float:
            self.next_pass = kind
            return search(*arguments)

        return labelled

    # ------------------------------------------------------ what nodes say
    def cut(self, move: Move, skipped: Any) -> None:
        """The innermost node had a cut-off at ``move``: ``skipped`` were never searched."""
        if self.hidden or not self.stack:
            return
        self.cuts.append(Cut(self.stack[-1].index, move, tuple(skipped)))

    def settle(self, kind: NodeKind) -> None:
        """The innermost node was settled without its children (``TT_CUT``, ``SOLVER``,
        ``STATIC_CUT``)."""
        if self.hidden or not self.stack:
            return
        self.stack[-1].settled = kind

    def hide(self) -> None:
        """The searches until ``show`` are not recorded: their nodes count in the innermost
        recorded node's ``unrecorded`` (a null move's verification, which searches the same
        node again)."""
        self.hidden += 1

    def show(self) -> None:
        """Record again after ``hide``."""
        self.hidden -= 1

    def outcome(self, outcome: Any, probability: float) -> None:
        """The chance node is about to search ``outcome``."""
        self.next_move = outcome
        self.next_probability = probability

    # ------------------------------------------------------ entering, leaving
    def enter(self, state: GameState, depth: float, alpha: float, beta: float, sign: int, kind: NodeKind) -> Frame | None:
        """A node is entered (before it counts itself): its frame, or ``None`` when the
        sampler leaves it out (then its subtree is not recorded either)."""
        move, probability = self.next_move, self.next_probability
        self.next_probability = 1.0
        if self.hidden:
            self.hidden += 1
            return None
        self.since_clock += 1
        if self.since_clock >= CLOCK_EVERY:
            # Sent before this node is recorded: every node recorded so far has counted
            # itself, so a batch never holds more nodes than its ``nodes`` says.
            self.since_clock = 0
            if self.clock() - self.last_sent >= self.options.batch_seconds:
                self.send()
        stack = self.stack
        level = len(stack)
        chosen = False
        if self.recorded >= self.options.cap and level > self.options.whole_plies:
            chosen = self.samples(stack[-1])
            if not chosen:
                self.sampled = True
                self.hidden = 1
                return None
        low, high = (alpha, beta) if sign > 0 else (-beta, -alpha)
        index = self.control.nodes
        if level == 0:
            parent = ROOT_PARENT
            self.start_pass(index, low, high)
        else:
            above = stack[-1]
            parent = above.index
            if kind is NodeKind.QUIESCENCE:
                depth = min(above.depth, 0) - 1
            else:
                above.has_search_child = True
        frame = Frame(index, sign, low, high, kind, depth, move, probability, level, chosen)
        stack.append(frame)
        self.entries.append(NodeEntry(index, parent, move, depth, kind, low, high, probability))
        self.recorded += 1
        return frame

    def samples(self, parent: Frame) -> bool:
        """Past the cap: whether a node below the whole plies is recorded (its parent's
        subtree was chosen, or it is chosen now as one subtree in ``k``)."""
        cap = self.options.cap
        if self.recorded >= HARD_CAP_FACTOR * cap:
            return False
        if parent.chosen:
            return True
        self.samples_seen += 1
        step = max(1, cap // SAMPLING_STEPS)
        every = 2 ** (1 + (self.recorded - cap) // step)
        return self.samples_seen % every == 0

    def leave(self, frame: Frame | None, move: Move, probability: float, value: float, kind: NodeKind | None = None, bound: Bound | None = None) -> None:
        """A node returned ``value`` (its own view). ``kind``: its final kind when the caller
        knows it; ``bound``: when the caller knows it better than the window does."""
        self.next_move, self.next_probability = move, probability
        if frame is None:
            self.hidden -= 1
            return
        self.stack.pop()
        seen = value if frame.sign > 0 else -value
        if bound is None:
            bound = Bound.LOWER if seen >= frame.high else Bound.UPPER if seen <= frame.low else Bound.EXACT
        elif frame.sign < 0 and bound is not Bound.EXACT:
            bound = Bound.UPPER if bound is Bound.LOWER else Bound.LOWER
        self.close(frame, seen, bound, kind if kind is not None else frame.kind)

    def skip(self, move: Move, probability: float) -> None:
        """A node the sampler (or ``hide``) left out returned: the caller's move is current
        again."""
        self.next_move, self.next_probability = move, probability
        self.hidden -= 1

    def exit_node(
        self, frame: Frame, move: Move, probability: float, value: float, kind: NodeKind | None, is_alone: bool, stood_pat: bool
    ) -> None:
        """The exit every recording wrapper makes: a recorded node returned ``value`` (its
        own view), ``kind`` its final kind when the wrapper knows it (``None``: as entered),
        ``is_alone`` when nothing was counted below it, ``stood_pat`` when it stood pat at or
        above beta with moves left unsearched. Its bound is ``known_bound``'s when the node
        decides it, else the window's."""
        final = kind if kind is not None else frame.kind
        self.leave(frame, move, probability, value, final, known_bound(final, is_alone, stood_pat))

    def close(self, frame: Frame, value: float, bound: Bound, kind: NodeKind) -> None:
        """Write a node's exit and add its size to its parent's (or to the passes')."""
        size = self.control.nodes - frame.index
        unrecorded = size - 1 - frame.below
        self.exits.append(NodeExit(frame.index, value, bound, kind, max(0, unrecorded)))
        if self.stack:
            self.stack[-1].below += size
        else:
            self.accounted += size

    def start_pass(self, index: int, low: float, high: float) -> None:
        """A call at the root: a new pass, labelled by why it ran: as the algorithm said
        (``named_passes``: an MTD(f) null-window probe); else, in the same iteration, fewer root
        moves than the pass before (MultiPV's next line), or the window of the pass before
        failed (an aspiration re-search)."""
        iteration = self.iteration_depth()
        moves = self.root_move_count()
        label = PassKind.ITERATION
        previous = self.last_pass
        if self.next_pass is not None:
            label = self.next_pass
            self.next_pass = None
        elif previous is not None and previous.iteration == iteration:
            if moves != self.last_move_count:
                label = MULTIPV_LABEL
            elif previous.alpha > -INFINITY or previous.beta < INFINITY:
                label = ASPIRATION_LABEL
            else:
                label = RESEARCH_LABEL
        self.last_move_count = moves
        self.add_pass(index, iteration, low, high, label)

    def add_pass(self, index: int, iteration: int, low: float, high: float, label: PassKind) -> None:
        record = TreePass(self.pass_count, index, iteration, low, high, self.scale, label)
        self.pass_count += 1
        self.last_pass = record
        self.passes.append(record)

    # -------------------------------------------------------------- sending
    def send(self, complete: bool = False) -> None:
        """Emit what was recorded since the last batch."""
        self.last_sent = self.clock()
        batch = TreeBatch(
            self.search_id,
            tuple(self.passes),
            tuple(self.entries),
            tuple(self.exits),
            tuple(self.cuts),
            nodes=self.control.nodes,
            sampled=self.sampled,
            complete=complete,
        )
        self.passes, self.entries, self.exits, self.cuts = [], [], [], []
        self.emit(batch)

    def finish(self) -> None:
        """The search returned (or was stopped): close the nodes left open (their value
        unknown, NaN), put nodes counted outside any root call (an exact solve of the
        root) in a pass of their own, and send the last batch (``complete``)."""
        if self.is_finished:
            return
        self.is_finished = True
        while self.stack:
            frame = self.stack.pop()
            self.close(frame, math.nan, Bound.EXACT, frame.kind)
        outside = self.control.nodes - self.accounted
        if outside > 0:
            index = self.accounted
            self.add_pass(index, 0, -INFINITY, INFINITY, ROOT_SOLVE_LABEL)
            self.entries.append(NodeEntry(index, ROOT_PARENT, None, 0, NodeKind.SOLVER, -INFINITY, INFINITY))
            self.exits.append(NodeExit(index, math.nan, Bound.EXACT, NodeKind.SOLVER, outside - 1))
            self.accounted += outside
        self.send(complete=True)

    # ------------------------------------------------------------ wrappers
    def negamax_node(
        self,
        node: Callable[..., float],
        repeats_within: Callable[[int], bool] | None,
        quiescence: bool,
        quiet_checks: bool = False,
    ) -> Callable[..., float]:
        """``node`` (a negamax node: side-to-move values) recorded; ``quiescence``: its
        horizon is a quiescence search (a leaf's stand-pat may cut), ``quiet_checks``: one
        that also tries quiet checks at its first ply."""
        root_player = self.root_player
        enter, exit_node, skip = self.enter, self.exit_node, self.skip

        def recorded(state: GameState, depth: int, alpha: float, beta: float, ply: int) -> float:
            move, probability = self.next_move, self.next_probability
            is_max = state.to_move() == root_player
            frame = enter(state, depth, alpha, beta, 1 if is_max else -1, NodeKind.LEAF if depth <= 0 else MAX if is_max else MIN)
            value = node(state, depth, alpha, beta, ply)
            if frame is None:
                skip(move, probability)
                return value
            kind = frame.settled
            is_alone = self.control.nodes - frame.index == 1
            if kind is None:
                if is_alone and (state.is_terminal() or (repeats_within is not None and ply and repeats_within(ply))):
                    kind = NodeKind.TERMINAL
                elif depth <= 0:
                    kind = (MAX if is_max else MIN) if frame.has_search_child else NodeKind.LEAF
            stood_pat = (
                quiescence and is_alone and value >= beta and kind is NodeKind.LEAF
                and (quiet_checks or bool(state.noisy_moves()))
            )
            exit_node(frame, move, probability, value, kind, is_alone, stood_pat)
            return value

        return recorded

    def quiescence_node(self, node: Callable[..., float]) -> Callable[..., float]:
        """``node`` (quiescence's recursion: ``(state, alpha, beta, ply, move)``, ``move``
        the noisy move just played) recorded."""
        root_player = self.root_player
        enter, exit_node, skip = self.enter, self.exit_node, self.skip

        def recorded(state: GameState, alpha: float, beta: float, ply: int, played: Any) -> float:
            move, probability = self.next_move, self.next_probability
            self.next_move = played
            sign = 1 if state.to_move() == root_player else -1
            frame = enter(state, -1, alpha, beta, sign, NodeKind.QUIESCENCE)
            value = node(state, alpha, beta, ply, played)
            if frame is None:
                skip(move, probability)
                return value
            kind = frame.settled
            is_alone = self.control.nodes - frame.index == 1
            if kind is None and is_alone and state.is_terminal():
                kind = NodeKind.TERMINAL
            stood_pat = is_alone and value >= beta and kind is None and bool(state.noisy_moves())
            exit_node(frame, move, probability, value, kind, is_alone, stood_pat)
            return value

        return recorded

    def chance_node(self, node: Callable[..., float]) -> Callable[..., float]:
        """``node`` of the expectimax family (root player's values; a chance node's
        children are its outcomes) recorded. Extra arguments (Star2's known first value)
        are passed through."""
        enter, exit_node, skip = self.enter, self.exit_node, self.skip

        def recorded(state: GameState, depth: int, alpha: float, beta: float, ply: int, *extra: Any) -> float:
            move, probability = self.next_move, self.next_probability
            frame = enter(state, depth, alpha, beta, 1, self.decision_kind(state, depth))
            value = node(state, depth, alpha, beta, ply, *extra)
            if frame is None:
                skip(move, probability)
                return value
            kind = frame.settled
            is_alone = self.control.nodes - frame.index == 1
            if kind is None and is_alone and state.is_terminal():
                kind = NodeKind.TERMINAL
            exit_node(frame, move, probability, value, kind, is_alone, False)
            return value

        return recorded

    def decision_kind(self, state: GameState, depth: float) -> NodeKind:
        """A node's kind on entry in the expectimax family."""
        if depth <= 0:
            return NodeKind.LEAF
        mover = state.to_move()
        if mover == CHANCE:
            return NodeKind.CHANCE
        return MAX if mover == self.root_player else MIN
