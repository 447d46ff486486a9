"""Monte Carlo tree search: UCT with MCTS-Solver, for games with or without dice.

UCT (L. Kocsis and C. Szepesvari, "Bandit based Monte-Carlo planning", ECML 2006) in the
four phases of C. Browne et al., "A Survey of Monte Carlo Tree Search Methods" (IEEE TCIAIG
2012), fig. 2 and algorithm 2 (UCTSEARCH)::

    while within the limits:
        v_l = TREEPOLICY(v_0)          select down the tree by UCB1, expand one new child
        reward = DEFAULTPOLICY(s(v_l)) simulate: a playout from the new node
        BACKUP(v_l, reward)            add the reward to every node on the path
    return the most visited root move

Selection picks the child maximising UCB1 (Auer et al. 2002)::

    Q(child) + C * sqrt(ln N(node) / N(child))

where Q is the child's mean reward for the player choosing at ``node``, normalised into
[0, 1] by the least and greatest rewards seen so far (as MuZero does, Schrittwieser et al.
2020), so that one exploration constant ``C`` (``SearchSettings.exploration``, default
~sqrt 2, UCB1's own) suits every game's scale. Rewards are utilities seen by player 0, in
the game's utility units: +-1/0 for win/loss games, the disc margin in Othello, points in
backgammon, so a node's mean is an estimate of its expected utility.

* **Simulation** (``SearchSettings.playout``): ``random`` plays uniformly random moves to
  the end of the game; ``eval`` is an evaluation-guided playout: ``playout_depth`` decision
  plies chosen epsilon-greedily by a one-ply EVAL lookahead (the move whose child evaluates
  best for the mover, a random one with probability ``PLAYOUT_EPSILON``; N. Sturtevant,
  "An Analysis of UCT in Multi-Player Games", CG 2008, for epsilon-greedy playouts), then
  an early cut-off that reads EVAL (R. Lorentz, "Early Playout Termination in MCTS", ACG
  2015), squashed by ``tanh`` into (-1, 1) in win/loss games, so that no evaluation weighs
  as much as a real win; divided by ``EVAL_SCALE`` into utility units otherwise.
* **Stakes**: a playout's result counts at the stake (``GameState.stake``, backgammon's
  cube) the playout started with, so that cube actions played at random in it do not
  multiply the result (a cubeless rollout); the tree's own cube decisions keep their stakes.
* **Chance nodes** are part of the tree: selection samples an outcome by its probability
  and descends into that outcome's child (made on first use); the node's mean is then an
  estimate of the expectation over the dice.
* **Root moves** (``context.root_moves``: UCI ``searchmoves``): the root is expanded with
  those moves only; at a chance root, with those outcomes, their probabilities renormalised.
* **MCTS-Solver** (M. Winands, Y. Bjornsson and J.-T. Saito, "Monte-Carlo Tree Search
  Solver", CG 2008) in win/loss games: a terminal's value is proven; a decision node is a
  proven win for its mover as soon as one child is, and proven when all its children are
  (a loss, or here also a draw when that is the best); a chance node when all its outcomes
  are proven equal. Selection never descends into a proven node (its value is backed up
  directly) and skips the mover's proven losses; a proven root ends the search, and a
  proven win is reported as "win in N plies".
* **Randomness** comes only from ``random.Random(settings.seed)``: the same seed and the
  same node limit give the same tree, move and score, whatever the clock says.
* **Counting**: every move played -- a step down the tree or a playout move -- is one node
  for ``context.control`` (and the node limit).
* **Depth limit**: MCTS has no iterations of fixed depth; a depth limit ``d`` is a budget
  of ``d * ITERATIONS_PER_DEPTH`` iterations (fewer if the root is proven first), so a
  deeper limit means a bigger, deeper tree, as with the other algorithms.
* **Recording** (``context.tree`` set: the tree panel is watching): about ten times a second
  a snapshot of the top of the tree (``ai.tree.mcts.MctsSnapshot``) with, per node, the
  visits, the means and UCB1's two terms as ``select`` computes them, and the root
  children's visits over the iterations. Recording reads the tree and draws no random
  number, so the search plays the same iterations with it on or off; off, it costs one test
  per iteration.

Tree nodes are not shared between transpositions (a plain tree: simple and exact to count).
"""

from __future__ import annotations

import heapq
import math
import random
from collections.abc import Callable
from typing import Any, Final

from games.base import CHANCE, GameState, Player

from ai.context import SearchContext
from ai.control import SearchStopped
from ai.events import Finished, RootMoveStat
from ai.reporting import RawLine, Reporter, answer_without_search
from ai.scores import WIN_SCORE
from ai.settings import SearchSettings
from ai.search.chance_common import next_decider, searched_root_outcomes, unsearchable_reason
from ai.search.common import greedy_move, searched_root_moves
from ai.tree.mcts import FINAL_SNAPSHOT_NODES, SNAPSHOT_NODES, MctsNodeStat, MctsSnapshot, VisitHistory, VisitSample
from ai.tree.model import ROOT_PARENT, NodeKind, TreeOptions

REPORT_INTERVAL: Final = 0.25
"""Seconds between two ``Iteration`` reports."""
WIN_LOSS_EVAL_UNIT: Final = 400.0
"""EVAL units that ``tanh`` maps to ~0.76 of a win in a win/loss game's ``eval`` playout:
four pawns in chess (centipawns), four men in checkers (100 a man). The protocol has no
per-game scale from EVAL to winning chances; this one suits the engine's two big win/loss
games."""
MAX_REPORTED_MEAN: Final = 0.999
"""A win/loss mean is turned back into EVAL units by ``atanh``; clipped here to stay finite."""
MAX_PLAYOUT_PLIES: Final = 2_000
"""A random playout still unfinished after this many moves is scored by EVAL (a guard for
games whose draw rules are missing or lenient)."""
ITERATIONS_PER_DEPTH: Final = 1_000
"""With a depth limit ``d``, ``d`` times this many iterations are run."""
PLAYOUT_EPSILON: Final = 0.2
"""Chance that an ``eval`` playout plays a random move instead of the greedy one."""
TERMINAL: Final = -2
"""``Node.player`` of a terminal node."""
PLAYOUTS: Final = ("random", "eval")
"""The values ``SearchSettings.playout`` may take."""


class Node:
    """One node of the search tree (one per path: transpositions are not merged).

    ``total`` adds up the rewards of the iterations through the node, seen by player 0;
    ``proven`` is the solver's exact value for player 0 (+1, 0, -1) once it is known.
    """

    __slots__ = (
        "move",
        "parent",
        "player",
        "depth",
        "children",
        "untried",
        "outcomes",
        "outcome_children",
        "visits",
        "total",
        "proven",
        "proof_plies",
    )

    def __init__(self, state: GameState, move: Any, parent: Node | None, depth: int) -> None:
        self.move = move
        self.parent = parent
        self.depth = depth
        self.children: list[Node] = []
        self.untried: list[Any] = []
        self.outcomes: list[tuple[Any, float]] = []
        self.outcome_children: list[Node | None] = []
        self.visits = 0
        self.total = 0.0
        self.proven: float | None = None
        self.proof_plies = 0
        if state.is_terminal():
            self.player: Player = TERMINAL
        else:
            self.player = state.to_move()
            if self.player == CHANCE:
                self.outcomes = state.chance_outcomes()
                self.outcome_children = [None] * len(self.outcomes)
            else:
                self.untried = state.legal_moves()

    def mean(self) -> float:
        """Mean reward for player 0 (0 before the first visit)."""
        return self.total / self.visits if self.visits else 0.0


def proven_value(node: Node) -> float:
    """The solver's value of a proven ``node`` for player 0 (0 while unproven)."""
    return node.proven if node.proven is not None else 0.0


def sample_outcome(outcomes: list[tuple[Any, float]], rng: random.Random) -> int:
    """The index of an outcome drawn with its probability."""
    draw = rng.random()
    cumulative = 0.0
    for index, (_, probability) in enumerate(outcomes):
        cumulative += probability
        if draw < cumulative:
            return index
    return len(outcomes) - 1  # the probabilities summed to a hair under 1


class MonteCarloTreeSearch:
    """One UCT search: the tree, the random generator, the counters and the reports."""

    qnodes = tt_probes = tt_hits = cutoffs = first_move_cutoffs = 0
    """What the other algorithms count and UCT has not (``ai.reporting.SearchCounters``)."""

    def __init__(self, state: GameState, context: SearchContext) -> None:
        self.state = state
        self.work = state.copy()
        """The state the iterations play on (make/unmake); left mid-line by a stop."""
        self.context = context
        self.control = context.control
        self.settings = context.settings
        self.game: type[GameState] = type(state)
        self.rng = random.Random(context.settings.seed)
        self.exploration = context.settings.exploration
        self.is_win_loss = state.UTILITY_KIND == "win_loss"
        self.use_solver = self.is_win_loss
        self.eval_scale = float(state.EVAL_SCALE)
        self.eval_playout = context.settings.playout == "eval"
        self.playout_depth = context.settings.playout_depth
        self.root = Node(state, None, None, 0)
        self.root_move_list: list[Any] = []
        """The root's moves searched (all legal moves, or ``context.root_moves``)."""
        if self.root.player == CHANCE:
            self.root.outcomes = searched_root_outcomes(state, context.root_moves)
            self.root.outcome_children = [None] * len(self.root.outcomes)
        elif self.root.player != TERMINAL:
            self.root_move_list = searched_root_moves(state, context)
            self.root.untried = list(self.root_move_list)
        mover = state.to_move()
        decider = next_decider(self.work) if mover == CHANCE else mover
        self.root_player: Player = 0 if decider is None else decider
        self.least_reward = math.inf
        self.greatest_reward = -math.inf
        self.iterations = 0
        self.tree_size = 1
        """Nodes in the tree (the root and every node expanded)."""
        self.depth_sum = 0
        self.seldepth = 0
        self.next_report = REPORT_INTERVAL
        self.reporter = Reporter(context, self.game, self.root_player, self, self)
        """Builds this search's events; scores are the root player's."""
        self.recording: TreeRecording | None = None if context.tree is None else TreeRecording(self, context.tree)
        """Snapshots of the tree for the tree panel, when the search records its tree."""

    # ---------------------------------------------------------------- search
    def run(self) -> Finished:
        depth_limit = self.control.limits.depth
        iteration_limit = None if depth_limit is None else depth_limit * ITERATIONS_PER_DEPTH
        recording = self.recording
        stopped = False
        try:
            while self.root.proven is None:
                self.iterate()
                if self.reporter.is_listening and self.control.elapsed() >= self.next_report:
                    self.next_report = self.control.elapsed() + REPORT_INTERVAL
                    self.report()
                if recording is not None:
                    recording.after_iteration()
                if iteration_limit is not None and self.iterations >= iteration_limit:
                    break
        except SearchStopped:
            stopped = True
        self.report()
        if recording is not None:
            recording.close()
        return self.finished(stopped)

    def iterate(self) -> None:
        """One iteration: select and expand, simulate, back up."""
        state = self.work
        count_node = self.control.count_node
        node = self.root
        plays = 0
        while True:  # selection (TREEPOLICY)
            if node.proven is not None or node.player == TERMINAL:
                break
            if node.player == CHANCE:
                index = sample_outcome(node.outcomes, self.rng)
                state.play(node.outcomes[index][0])
                plays += 1
                count_node()
                child = node.outcome_children[index]
                if child is None:  # expansion of a new outcome
                    child = Node(state, node.outcomes[index][0], node, node.depth + 1)
                    self.tree_size += 1
                    node.outcome_children[index] = child
                    node = child
                    break
                node = child
                continue
            if node.untried:  # expansion of an untried move, chosen at random
                move = node.untried.pop(self.rng.randrange(len(node.untried)))
                state.play(move)
                plays += 1
                count_node()
                child = Node(state, move, node, node.depth + 1)
                self.tree_size += 1
                node.children.append(child)
                node = child
                break
            selected = self.select(node)
            if selected is None:  # a decision node without moves: treat it as a leaf
                break
            state.play(selected.move)
            plays += 1
            count_node()
            node = selected

        if node.proven is not None:  # the value is known: no simulation needed
            reward = node.proven
        elif node.player == TERMINAL:
            reward = self.terminal_reward(state)
        else:
            reward = self.simulate(state)
        self.backup(node, reward)
        for _ in range(plays):
            state.undo()
        self.iterations += 1
        self.depth_sum += node.depth
        if node.depth > self.seldepth:
            self.seldepth = node.depth

    def select(self, node: Node, terms: dict[Node, tuple[float, float]] | None = None) -> Node | None:
        """UCB1 among the children of a fully expanded decision node (proven losses of the
        mover skipped while something else remains).

        A child's score is its mean for the mover normalised into [0, 1] by the rewards'
        range so far (0.5 while every reward was the same), plus the exploration term
        ``C * sqrt(ln N(node) / N(child))``. ``terms``, when given, receives the two terms
        of every child scored: how the tree panel shows the very numbers selection compares."""
        sign = 1.0 if node.player == 0 else -1.0
        least, greatest = self.least_reward, self.greatest_reward
        spread = greatest - least
        low = least if sign > 0 else -greatest
        log_visits = math.log(node.visits) if node.visits > 0 else 0.0
        constant = self.exploration
        best: Node | None = None
        best_score = -math.inf
        for child in node.children:
            if child.proven is not None and child.proven * sign < 0:
                continue  # a proven loss for the mover: never worth trying again
            if child.visits == 0:
                return child
            exploitation = (sign * child.total / child.visits - low) / spread if spread > 0 else 0.5
            exploration = constant * math.sqrt(log_visits / child.visits)
            if terms is not None:
                terms[child] = (exploitation, exploration)
            score = exploitation + exploration
            if score > best_score:
                best_score = score
                best = child
        if best is None and node.children:  # every child is a proven loss
            best = node.children[0]
        return best

    def simulate(self, state: GameState) -> float:
        """DEFAULTPOLICY: a playout from ``state`` (left unchanged), scored for player 0 at
        the stake the playout started with (``GameState.stake``): a playout's random cube
        actions are noise, not the position's worth (backgammon's doubles and takes chosen
        at random multiply a result by 2 at every turn, up to 64 and beyond, and the means
        then swamp UCB1's normalised values), so its result counts as if the cube had stayed
        where the tree left it, as a cubeless rollout counts."""
        start_stake = state.stake()
        count_node = self.control.count_node
        poll = self.control.check
        rng = self.rng
        plays = 0
        decisions = 0
        guided = self.eval_playout
        limit = self.playout_depth if guided else MAX_PLAYOUT_PLIES
        while not state.is_terminal() and decisions < limit:
            if state.to_move() == CHANCE:
                outcomes = state.chance_outcomes()
                state.play(outcomes[sample_outcome(outcomes, rng)][0])
            else:
                moves = state.legal_moves()
                if not moves:
                    break
                if guided and len(moves) > 1 and rng.random() >= PLAYOUT_EPSILON:
                    state.play(greedy_move(state, moves, poll))
                else:
                    state.play(moves[rng.randrange(len(moves))])
                decisions += 1
            plays += 1
            count_node()
        reward = state.utility(0) if state.is_terminal() else self.eval_value(state)
        end_stake = state.stake()
        if end_stake != start_stake:
            reward *= start_stake / end_stake
        self.note_reward(reward)
        for _ in range(plays):
            state.undo()
        return reward

    def terminal_reward(self, state: GameState) -> float:
        """UTILITY for player 0 in utility units (+-1/0 in win/loss games)."""
        reward = state.utility(0)
        self.note_reward(reward)
        return reward

    def eval_value(self, state: GameState) -> float:
        """EVAL for player 0 as a reward: ``tanh(EVAL / WIN_LOSS_EVAL_UNIT)`` in win/loss
        games (strictly inside a win), ``EVAL / EVAL_SCALE`` utility units otherwise."""
        value = state.evaluate(0)
        return math.tanh(value / WIN_LOSS_EVAL_UNIT) if self.is_win_loss else value / self.eval_scale

    def note_reward(self, reward: float) -> None:
        if reward < self.least_reward:
            self.least_reward = reward
        if reward > self.greatest_reward:
            self.greatest_reward = reward

    def backup(self, node: Node, reward: float) -> None:
        """BACKUP: add ``reward`` to every node from ``node`` to the root, and (solver) prove
        the ancestors whose value the newly proven node decides."""
        is_news = self.use_solver and node.proven is None and node.player == TERMINAL
        if is_news:
            node.proven = reward
            node.proof_plies = 0
        current: Node | None = node
        while current is not None:
            current.visits += 1
            current.total += reward
            parent = current.parent
            if is_news and parent is not None:
                is_news = self.prove(parent)
            current = parent

    def prove(self, node: Node) -> bool:
        """MCTS-Solver: whether ``node`` is now proven (a child of it just was)."""
        if node.proven is not None:
            return False
        if node.player == CHANCE:
            children = node.outcome_children
            if any(child is None or child.proven is None for child in children):
                return False
            values = {child.proven for child in children if child is not None}
            if len(values) != 1:
                return False
            node.proven = values.pop()
            node.proof_plies = max(child.proof_plies for child in children if child is not None)
            return True
        sign = 1.0 if node.player == 0 else -1.0
        winning = [child for child in node.children if child.proven is not None and child.proven * sign > 0]
        if winning:
            fastest = min(winning, key=lambda child: child.proof_plies)
            node.proven = fastest.proven
            node.proof_plies = fastest.proof_plies + 1
            return True
        if node.untried or any(child.proven is None for child in node.children) or not node.children:
            return False
        best = max(node.children, key=lambda child: (sign * proven_value(child), child.proof_plies))
        node.proven = best.proven
        node.proof_plies = best.proof_plies + 1
        return True

    @staticmethod
    def is_selecting(node: Node) -> bool:
        """Whether the next iteration through ``node`` picks its child by UCB1: not at a
        chance node (an outcome is drawn), a proven or terminal node (its value is backed
        up as it is), or a node with moves still untried (one of them is expanded)."""
        return node.player in (0, 1) and node.proven is None and not node.untried and bool(node.children)

    def node_kind(self, node: Node) -> NodeKind:
        if node.player == TERMINAL:
            return NodeKind.TERMINAL
        if node.player == CHANCE:
            return NodeKind.CHANCE
        return NodeKind.MAX if node.player == self.root_player else NodeKind.MIN

    # ------------------------------------------------------------- answers
    def best_child(self, node: Node) -> Node | None:
        """The move to play at a decision node: a proven win (the fastest), else the most
        visited child that is not a proven loss (ties broken by the mean)."""
        if not node.children:
            return None
        sign = 1.0 if node.player == 0 else -1.0

        def own(child: Node) -> float:
            return sign * child.mean()

        proven = [child for child in node.children if child.proven is not None]
        winning = [child for child in proven if sign * proven_value(child) > 0]
        if winning:
            return min(winning, key=lambda child: child.proof_plies)
        if node.proven is not None:  # every child proven: the best result, lost as late as possible
            return max(node.children, key=lambda child: (sign * proven_value(child), child.proof_plies))
        candidates = [child for child in node.children if child.proven is None or child.proven * sign >= 0]
        return max(candidates or node.children, key=lambda child: (child.visits, own(child)))

    def principal_variation(self, start: Node | None = None) -> list[Any]:
        """The most visited line from ``start`` (the root), up to the first chance node."""
        line: list[Any] = []
        node = self.root if start is None else start
        while node.player not in (CHANCE, TERMINAL):
            child = self.best_child(node)
            if child is None or (child.visits == 0 and child.proven is None):
                break
            line.append(child.move)
            node = child
        return line

    def mean_depth(self) -> float:
        return self.depth_sum / self.iterations if self.iterations else 0.0

    @property
    def reported_depth(self) -> int:
        """The depth the events show: the mean depth of the iterations' leaves."""
        return round(self.mean_depth())

    def hashfull(self) -> float:
        """No transposition table: the tree is the memory."""
        return 0.0

    def root_raw_score(self) -> float:
        """The root value for the root player on the search scale of ``ai.scores``."""
        return self.raw_value(self.root, 1.0 if self.root_player == 0 else -1.0)

    def raw_value(self, root: Node, sign: float, plies_above: int = 0) -> float:
        """The value of node ``root`` on the search scale of ``ai.scores``, for player 0
        (``sign`` 1) or player 1 (``sign`` -1): a proof as a win in N plies (counted from
        ``plies_above`` plies higher: 1 for a root move's line), else the mean."""
        if root.proven is not None:
            value = sign * root.proven
            plies = root.proof_plies + plies_above
            if self.is_win_loss:
                if value > 0:
                    return WIN_SCORE - plies
                if value < 0:
                    return -WIN_SCORE + plies
                return 0.0
            return value * self.eval_scale
        mean = sign * root.mean()
        if self.is_win_loss:
            clipped = max(-MAX_REPORTED_MEAN, min(MAX_REPORTED_MEAN, mean))
            return math.atanh(clipped) * WIN_LOSS_EVAL_UNIT
        return mean * self.eval_scale

    def root_moves(self) -> tuple[RootMoveStat, ...]:
        """Per root move (or outcome at a chance root, in outcome order): visits and mean
        utility for the root player."""
        root = self.root
        sign = 1.0 if self.root_player == 0 else -1.0
        if root.player == CHANCE:
            children = [child for child in root.outcome_children if child is not None]
        else:  # most visited first, then in the order of ``legal_moves``
            order = {move: index for index, move in enumerate(self.root_move_list)}
            children = sorted(root.children, key=lambda child: (-child.visits, order.get(child.move, 0)))
        return tuple(
            RootMoveStat(
                move=child.move, visits=child.visits, value=sign * child.mean()
            )
            for child in children
        )

    def best_lines(self) -> tuple[list[RawLine], list[int]]:
        """MultiPV (``settings.multipv`` lines): the move MCTS plays, then the other root
        moves by visits, each with its own mean (or proof) as the score, for the root
        player on the search scale, and its most visited line; and each line's visits.
        None at a chance root (no move to choose) and none for a move never visited."""
        root = self.root
        if root.player not in (0, 1) or not root.children:
            return [], []
        best = self.best_child(root)
        order = {move: index for index, move in enumerate(self.root_move_list)}
        others = sorted(
            (child for child in root.children if child is not best),
            key=lambda child: (-child.visits, order.get(child.move, 0)),
        )
        sign = 1.0 if self.root_player == 0 else -1.0
        lines: list[RawLine] = []
        visits: list[int] = []
        for child in ([best] if best is not None else []) + others:
            if len(lines) == self.settings.multipv:
                break
            if child.visits == 0 and child.proven is None:
                continue
            lines.append((0, self.raw_value(child, sign, plies_above=1), [child.move, *self.principal_variation(child)]))
            visits.append(child.visits)
        return lines, visits

    def report(self) -> None:
        """An ``Iteration`` event: depth = mean tree depth, seldepth = deepest node, score
        from the root's mean (or proof), PV = the most visited line."""
        if self.reporter.is_listening:
            line = self.principal_variation()
            lines, visits = self.best_lines()
            self.reporter.iteration(
                self.reported_depth, self.root_raw_score(), line, 0, root_moves=self.root_moves(),
                lines=lines, line_visits=visits,
            )

    def finished(self, stopped: bool) -> Finished:
        line = self.principal_variation()
        if not line and self.root.player != CHANCE:  # stopped before any iteration finished
            line = [self.root_move_list[0]]
        lines, visits = self.best_lines()
        return self.reporter.finished(
            self.reported_depth, self.root_raw_score(), line, stopped, self.root_moves(), lines=lines, line_visits=visits
        )


SNAPSHOT_TIME_SHARE_INVERSE: Final = 20
"""A live snapshot waits at least this many times as long as the last one took to make, so
that snapshots take at most a twentieth (5 %) of the search's time."""


class TreeRecording:
    """The tree as the lecture shows it, sent while the search runs (``ai.tree.mcts``): a
    snapshot of the top of the tree every ``TreeOptions.batch_seconds``, and the root
    children's visits sampled as the iterations go.

    It reads the tree and never changes it, nor draws from the search's random generator,
    so a recorded search plays the same iterations, move and score as an unrecorded one;
    the clock decides only when snapshots are sent, never what the search does."""

    def __init__(self, search: MonteCarloTreeSearch, options: TreeOptions) -> None:
        self.search = search
        self.options = options
        self.emit: Callable[[Any], None] = search.context.emit
        """The search's event channel, which carries tree events beside the search's own
        (as ``ai.tree.recorder``'s batches)."""
        self.history = VisitHistory()
        self.next_snapshot = options.batch_seconds
        self.root_sign = 1.0 if search.root_player == 0 else -1.0

    def after_iteration(self) -> None:
        search = self.search
        if self.history.is_due(search.iterations):
            self.history.add(search.iterations, self.root_visits())
        now = search.control.elapsed()
        if now >= self.next_snapshot:
            self.send(min(self.options.cap, SNAPSHOT_NODES), complete=False)
            done = search.control.elapsed()
            # Never more than a share of the search's time: a slow snapshot (a big game's
            # tree, a loaded machine) spaces the next ones out.
            self.next_snapshot = done + max(self.options.batch_seconds, (done - now) * SNAPSHOT_TIME_SHARE_INVERSE)

    def close(self) -> None:
        """The last snapshot, with the history's last sample at the final count."""
        search = self.search
        samples = self.history.samples
        if not samples or samples[-1].iterations != search.iterations:
            self.history.add(search.iterations, self.root_visits())
        self.send(min(self.options.cap, FINAL_SNAPSHOT_NODES), complete=True)

    def history_now(self) -> tuple[VisitSample, ...]:
        """The sampled history and, when the last sample is older than the snapshot, the
        root's visits now as a last point (not kept: the samples stay evenly spaced), so the
        chart ends at the numbers the table shows."""
        samples = self.history.as_tuple()
        iterations = self.search.iterations
        if samples and samples[-1].iterations == iterations:
            return samples
        return (*samples, VisitSample(iterations, self.root_visits()))

    def root_visits(self) -> tuple[int, ...]:
        root = self.search.root
        if root.player == CHANCE:
            return tuple(0 if child is None else child.visits for child in root.outcome_children)
        return tuple(child.visits for child in root.children)

    def root_moves(self) -> tuple[Any, ...]:
        root = self.search.root
        if root.player == CHANCE:
            return tuple(outcome for outcome, _ in root.outcomes)
        return tuple(child.move for child in root.children)

    def send(self, limit: int, complete: bool) -> None:
        search = self.search
        control = search.control
        self.emit(
            MctsSnapshot(
                search_id=search.context.search_id,
                iterations=search.iterations,
                nodes=control.nodes,
                time=control.elapsed(),
                exploration_constant=search.exploration,
                least_reward=search.least_reward,
                greatest_reward=search.greatest_reward,
                root_player=search.root_player,
                tree_size=search.tree_size,
                nodes_shown=self.top_of_tree(limit),
                root_moves=self.root_moves(),
                history=self.history_now(),
                complete=complete,
            )
        )

    def top_of_tree(self, limit: int) -> tuple[MctsNodeStat, ...]:
        """The root and all its children, then best first by visits the children of the
        most visited nodes opened so far, until ``limit`` nodes (a node's children are
        taken all or none, so a node shown either shows every child or none)."""
        search = self.search
        root = search.root
        shown = [self.stat(root, 0, ROOT_PARENT, None, 1.0, (math.nan, math.nan), False)]
        frontier: list[tuple[int, int, Node]] = [(-root.visits, 0, root)]
        while frontier and (len(shown) < limit or len(shown) == 1):
            _, index, node = heapq.heappop(frontier)
            terms: dict[Node, tuple[float, float]] = {}
            pick = search.select(node, terms) if node.player in (0, 1) else None
            if not search.is_selecting(node):
                pick = None
            for child, probability in children_with_probabilities(node):
                child_index = len(shown)
                child_terms = terms.get(child, (math.nan, math.nan))
                shown.append(self.stat(child, child_index, index, node, probability, child_terms, child is pick))
                if child.children or any(child.outcome_children):
                    heapq.heappush(frontier, (-child.visits, child_index, child))
        return tuple(shown)

    def stat(
        self,
        node: Node,
        index: int,
        parent_index: int,
        parent: Node | None,
        probability: float,
        terms: tuple[float, float],
        is_pick: bool,
    ) -> MctsNodeStat:
        """``node`` as selection at ``parent`` sees it (``terms``: UCB1's two terms as
        ``select`` computed them, NaN where it computes none), its mean in the root
        player's view and in its chooser's."""
        root_sign = self.root_sign
        mean = node.total / node.visits if node.visits else 0.0
        chooser_sign = root_sign
        if parent is not None and parent.player in (0, 1):
            chooser_sign = 1.0 if parent.player == 0 else -1.0
        exploitation, exploration = terms
        outcomes = node.outcome_children
        return MctsNodeStat(
            index=index,
            parent=parent_index,
            move=node.move,
            kind=self.search.node_kind(node),
            visits=node.visits,
            value=root_sign * mean,
            mover_value=chooser_sign * mean,
            exploitation=exploitation,
            exploration=exploration,
            uct=exploitation + exploration,
            probability=probability,
            proven=None if node.proven is None else root_sign * node.proven,
            proof_plies=node.proof_plies,
            untried=len(node.untried),
            child_count=len(node.children) + len(outcomes) - outcomes.count(None),
            is_pick=is_pick,
        )


def children_with_probabilities(node: Node) -> list[tuple[Node, float]]:
    """``node``'s children in the tree, each with the chance of reaching it from ``node``
    (an outcome's probability below a chance node, 1 below a decision node)."""
    if node.player == CHANCE:
        return [
            (child, probability)
            for child, (_, probability) in zip(node.outcome_children, node.outcomes)
            if child is not None
        ]
    return [(child, 1.0) for child in node.children]


def settings_problem(settings: SearchSettings) -> str | None:
    """What is wrong with the MCTS switches of ``settings``, or ``None``."""
    if settings.playout not in PLAYOUTS:
        return f"unknown playout {settings.playout!r}: use {' or '.join(PLAYOUTS)}"
    if settings.exploration < 0:
        return f"the exploration constant must be 0 or more, not {settings.exploration}"
    if settings.playout == "eval" and settings.playout_depth < 1:
        return f"an eval playout needs at least 1 ply, not {settings.playout_depth}"
    return None


def run(state: GameState, context: SearchContext) -> Finished:
    """UCT from ``state`` (left unchanged) within ``context``'s limits; the most visited
    root move (or a proven win) is the answer. Bad MCTS settings or a root with nothing to
    search give a ``Finished`` without a move whose ``error`` says why."""
    reason = settings_problem(context.settings) or unsearchable_reason(state)
    if reason is not None:
        return answer_without_search(state, context, reason)
    search = MonteCarloTreeSearch(state, context)
    search.reporter.install_progress()
    return search.run()
