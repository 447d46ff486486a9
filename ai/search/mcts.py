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
* **Observer**: each iteration is shown as a walk: ``entered`` for every tree node on the
  selected path, root first (``depth`` = the node's depth in the tree, window (-inf, inf):
  UCT has no window), then, after the backup, ``left`` for each of them, leaf first, with
  the node's new mean on the search scale for the side to move there (for chance and
  terminal nodes: for the root player) and bound ``exact``. Playout moves are not tree
  nodes and are not shown. With no observer the cost is one test per iteration.

Tree nodes are not shared between transpositions (a plain tree: simple and exact to count).
"""

from __future__ import annotations

import math
import random
from typing import Any, Final

from games.base import CHANCE, GameState, Player

from ai.context import SearchContext
from ai.control import SearchStopped
from ai.events import Finished, RootMoveStat
from ai.reporting import Reporter, answer_without_search
from ai.scores import WIN_SCORE
from ai.settings import SearchSettings
from ai.search.chance_common import next_decider, searched_root_outcomes, unsearchable_reason
from ai.search.common import greedy_move, searched_root_moves
from ai.tt import Bound

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
        self.depth_sum = 0
        self.seldepth = 0
        self.next_report = REPORT_INTERVAL
        self.observer = context.observer
        self.reporter = Reporter(context, self.game, self.root_player, self, self)
        """Builds this search's events; scores are the root player's."""

    # ---------------------------------------------------------------- search
    def run(self) -> Finished:
        depth_limit = self.control.limits.depth
        iteration_limit = None if depth_limit is None else depth_limit * ITERATIONS_PER_DEPTH
        stopped = False
        try:
            while self.root.proven is None:
                self.iterate()
                if self.reporter.is_listening and self.control.elapsed() >= self.next_report:
                    self.next_report = self.control.elapsed() + REPORT_INTERVAL
                    self.report()
                if iteration_limit is not None and self.iterations >= iteration_limit:
                    break
        except SearchStopped:
            stopped = True
        self.report()
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
        if self.observer is None:
            self.backup(node, reward)
        else:
            self.observed_backup(node, reward)
        for _ in range(plays):
            state.undo()
        self.iterations += 1
        self.depth_sum += node.depth
        if node.depth > self.seldepth:
            self.seldepth = node.depth

    def observed_backup(self, node: Node, reward: float) -> None:
        """``backup`` shown to the observer as a walk down the selected path and back up."""
        observer = self.observer
        assert observer is not None
        chain: list[Node] = []
        current: Node | None = node
        while current is not None:
            chain.append(current)
            current = current.parent
        chain.reverse()
        paths = [tuple(entry.move for entry in chain[1 : index + 1]) for index in range(len(chain))]
        for entry, path in zip(chain, paths):
            observer.entered(path, entry.depth, -math.inf, math.inf)
        self.backup(node, reward)
        for entry, path in zip(reversed(chain), reversed(paths)):
            observer.left(path, self.node_value(entry), Bound.EXACT)

    def node_value(self, node: Node) -> float:
        """``node``'s mean (or proof) on the search scale, for its side to move (the root
        player at chance and terminal nodes): what the observer is shown."""
        player = node.player if node.player in (0, 1) else self.root_player
        return self.raw_value(node, 1.0 if player == 0 else -1.0)

    def select(self, node: Node) -> Node | None:
        """UCB1 among the children of a fully expanded decision node (proven losses of the
        mover skipped while something else remains)."""
        sign = 1.0 if node.player == 0 else -1.0
        least, greatest = self.least_reward, self.greatest_reward
        spread = greatest - least
        log_visits = math.log(node.visits) if node.visits > 0 else 0.0
        exploration = self.exploration
        best: Node | None = None
        best_score = -math.inf
        for child in node.children:
            if child.proven is not None and child.proven * sign < 0:
                continue  # a proven loss for the mover: never worth trying again
            if child.visits == 0:
                return child
            mean = child.total / child.visits
            own = mean if sign > 0 else -mean
            if spread > 0:
                own = (own - (least if sign > 0 else -greatest)) / spread
            else:
                own = 0.5
            score = own + exploration * math.sqrt(log_visits / child.visits)
            if score > best_score:
                best_score = score
                best = child
        if best is None and node.children:  # every child is a proven loss
            best = node.children[0]
        return best

    def simulate(self, state: GameState) -> float:
        """DEFAULTPOLICY: a playout from ``state`` (left unchanged), scored for player 0."""
        count_node = self.control.count_node
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
                    state.play(greedy_move(state, moves))
                else:
                    state.play(moves[rng.randrange(len(moves))])
                decisions += 1
            plays += 1
            count_node()
        reward = self.terminal_reward(state) if state.is_terminal() else self.eval_reward(state)
        for _ in range(plays):
            state.undo()
        return reward

    def terminal_reward(self, state: GameState) -> float:
        """UTILITY for player 0 in utility units (+-1/0 in win/loss games)."""
        reward = state.utility(0)
        self.note_reward(reward)
        return reward

    def eval_reward(self, state: GameState) -> float:
        """EVAL for player 0 as a reward: ``tanh(EVAL / WIN_LOSS_EVAL_UNIT)`` in win/loss
        games (strictly inside a win), ``EVAL / EVAL_SCALE`` utility units otherwise."""
        value = state.evaluate(0)
        reward = math.tanh(value / WIN_LOSS_EVAL_UNIT) if self.is_win_loss else value / self.eval_scale
        self.note_reward(reward)
        return reward

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

    def principal_variation(self) -> list[Any]:
        """The most visited line from the root, up to the first chance node."""
        line: list[Any] = []
        node = self.root
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

    def raw_value(self, root: Node, sign: float) -> float:
        """The value of node ``root`` on the search scale of ``ai.scores``, for player 0
        (``sign`` 1) or player 1 (``sign`` -1): a proof as a win in N plies, else the mean."""
        if root.proven is not None:
            value = sign * root.proven
            if self.is_win_loss:
                if value > 0:
                    return WIN_SCORE - root.proof_plies
                if value < 0:
                    return -WIN_SCORE + root.proof_plies
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

    def report(self) -> None:
        """An ``Iteration`` event: depth = mean tree depth, seldepth = deepest node, score
        from the root's mean (or proof), PV = the most visited line."""
        if self.reporter.is_listening:
            line = self.principal_variation()
            self.reporter.iteration(self.reported_depth, self.root_raw_score(), line, 0, root_moves=self.root_moves())

    def finished(self, stopped: bool) -> Finished:
        line = self.principal_variation()
        if not line and self.root.player != CHANCE:  # stopped before any iteration finished
            line = [self.root_move_list[0]]
        return self.reporter.finished(self.reported_depth, self.root_raw_score(), line, stopped, self.root_moves())


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
