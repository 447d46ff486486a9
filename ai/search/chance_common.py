"""What the expectimax family (expectiminimax, Star1, Star2) shares in one search.

**Point of view.** These algorithms are written in the textbook's MAX/MIN/CHANCE form (AIMA
3rd ed. section 5.5, EXPECTIMINIMAX), not in negamax form: every value is from the view of
the *root player* (the player to decide at the root). A decision node of the root player is
a MAX node, one of the opponent a MIN node, a dice roll a CHANCE node. This keeps chance
nodes simple -- a chance node has no "side to move" whose view a negamax value could take,
and in backgammon the same player decides before and after a roll (the cube decision, then
the checker play) -- and it is the form Ballard (1983) states Star1/Star2 in. Values are on
the search scale of ``ai.scores``: a terminal is ``utility * EVAL_SCALE`` (margin and equity
games) or "win in N plies" (``ai.scores.terminal_score``, win/loss games), the horizon is
``evaluate(root player)``.

**Depth.** Depth counts *decision plies*: a ply is one turn of one player, so chance nodes
consume no depth, and consecutive decisions of the same player with only chance nodes in
between (backgammon's "no double", the roll, then the checker play) make one ply. In
deterministic games every move hands the turn over, so depth is the ordinary ply count and
expectiminimax equals minimax. The cut-off test is made at every node, chance nodes
included, so a 1-ply backgammon search evaluates the position after each play *before* the
opponent's roll (the classic "1-ply"), not 21 times after it.

**Star1/Star2 bounds.** The chance-node pruning needs the least and greatest value any node
below can take, from ``GameState.utility_bounds()`` scaled to the search scale (``bounds``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from games.base import CHANCE, GameState, Player

from ai.context import DISCARD_EVENTS, SearchContext
from ai.reporting import Reporter
from ai.scores import INFINITY, WIN_SCORE, terminal_score
from ai.search.common import MAX_SEARCH_PLY, NO_LINE, searched_root_moves
from ai.tree.recorder import TreeRecorder

RootSearch = Callable[[GameState, int], float]
"""One iteration: ``(root state, depth) -> root value`` (root player's view)."""
NodeSearch = Callable[[GameState, int, float, float, int], float]
"""A node function ``(state, depth, alpha, beta, ply) -> value`` (root player's view);
expectiminimax ignores the window."""



def next_decider(state: GameState) -> Player | None:
    """The player who makes the next decision from ``state`` (looking through chance nodes
    along their first outcome), or ``None`` when the game ends first. ``state`` is left as
    it was.

    Dice decide *what* can be played, never *who* plays next, in every game of the
    protocol, so the first outcome answers for all of them.
    """
    plays = 0
    player: Player | None = None
    while not state.is_terminal():
        mover = state.to_move()
        if mover != CHANCE:
            player = mover
            break
        state.play(state.chance_outcomes()[0][0])
        plays += 1
    for _ in range(plays):
        state.undo()
    return player


def searched_root_outcomes(state: GameState, wanted: tuple[Any, ...]) -> list[tuple[Any, float]]:
    """The chance outcomes of a chance root that a search considers: all of them, or those
    ``wanted`` names with their probabilities renormalised, so that the root's value is the
    expectation *given* that the roll is one of them (a pool worker's share of a root split
    at the dice; the shares combine weighted by their total probability)."""
    outcomes = state.chance_outcomes()
    if not wanted:
        return outcomes
    kept = [(outcome, probability) for outcome, probability in outcomes if outcome in wanted]
    total = sum(probability for _, probability in kept)
    return [(outcome, probability / total) for outcome, probability in kept]


def unsearchable_reason(state: GameState) -> str | None:
    """Why ``state`` cannot be searched (the game is over, no move), or ``None``."""
    if state.is_terminal():
        reason = state.termination_reason() or "game over"
        return f"the game is over ({reason}): there is no move to search"
    if state.to_move() != CHANCE and not state.legal_moves():
        return "the side to move has no legal move"
    return None


def win_loss_value(raw_from_mover: float, state: GameState, root_player: Player) -> float:
    """A side-to-move terminal score of ``state`` seen by ``root_player``."""
    mover = state.to_move()
    view = mover if mover != CHANCE else 0  # terminal_score's view when no one is to move
    return raw_from_mover if view == root_player else -raw_from_mover


class ChanceTools:
    """Per-search services, counters and root bookkeeping of the expectimax family."""

    trusts_partial_iteration = False
    """An interrupted iteration's root values average unfinished chance nodes: only completed
    iterations answer (``stopped_answer``), so a time limit stops starting them early."""

    def __init__(self, state: GameState, context: SearchContext) -> None:
        self.context = context
        self.settings = context.settings
        self.control = context.control
        self.game: type[GameState] = type(state)
        self.recorder: TreeRecorder | None = context.recorder
        """Records the tree when asked (``ai.tree.recorder``); ``None``: nobody records."""
        self.is_listening = context.emit is not DISCARD_EVENTS

        root_mover = state.to_move()
        self.root_is_chance = root_mover == CHANCE
        decider = next_decider(state) if self.root_is_chance else root_mover
        self.root_player: Player = 0 if decider is None else decider
        """MAX: the player whose view every value takes (at a chance root, the next decider)."""
        self.is_win_loss = state.UTILITY_KIND == "win_loss"
        self.eval_scale = float(state.EVAL_SCALE)
        self.root_outcomes: list[tuple[Any, float]] = (
            searched_root_outcomes(state, context.root_moves) if self.root_is_chance else []
        )
        """At a chance root: the outcomes searched, with their probabilities (renormalised
        to sum to 1 when ``context.root_moves`` names a subset)."""
        self.is_root_restricted = bool(context.root_moves)
        self.root_key = state.key()
        self.root_moves: list[Any] = (
            [outcome for outcome, _ in self.root_outcomes]
            if self.root_is_chance
            else searched_root_moves(state, context)
        )
        """The root's moves searched (its outcomes at a chance root), in generation order."""
        self.pv_table: list[tuple[Any, ...]] = [NO_LINE] * (MAX_SEARCH_PLY + 2)

        # Counters (cumulative over the search).
        self.cutoffs = 0
        """Alpha-beta cut-offs at decision nodes plus Star1/Star2 cut-offs at chance nodes."""
        self.first_move_cutoffs = 0
        self.chance_cutoffs = 0
        """Chance nodes left early because their value could no longer matter."""
        self.probe_cutoffs = 0
        """Star2: chance nodes left during the probing phase."""
        self.window_researches = 0
        """Star1/Star2: outcomes searched again because a float-rounded window did not prove
        the cut-off it promised (zero with exact arithmetic)."""
        self.horizon_leaves = 0
        """Leaves scored by EVAL: unchanged over an iteration means its value is exact."""
        self.seldepth = 0
        self.qnodes = self.tt_probes = self.tt_hits = 0  # no quiescence, no table here

        # Root bookkeeping of the current iteration.
        self.iteration_depth = 0
        self.root_best_move: Any = None
        self.root_best_value: float = -INFINITY
        self.root_line: tuple[Any, ...] = NO_LINE
        self.root_values: dict[int, tuple[Any, float]] = {}
        """Root move (or outcome) index -> (move, value) for the root moves searched exactly."""
        self.completed_root_values: dict[int, tuple[Any, float]] = {}
        """``root_values`` of the last completed iteration: the answer's."""
        self.root_move_count = len(self.root_moves)
        self.current_root: tuple[Any, int] | None = None
        """The decision root's move now searched and its 1-based number (for ``CurrentMove``)."""
        self.roll_ply = -1
        """The ply of the first chance layer under the current root move (-1: not met yet):
        its outcomes are the rolls ``CurrentMove`` names."""
        self.reporter = Reporter(context, self.game, self.root_player, self, self)
        """Builds this search's events; scores are the root player's."""
        if self.recorder is not None:
            self.recorder.bind(self.control, lambda: self.iteration_depth)

    # ----------------------------------------------------------------- leaves
    def terminal_value(self, state: GameState, ply: int) -> float:
        """UTILITY of a terminal ``state`` for the root player, on the search scale."""
        if self.is_win_loss:
            return win_loss_value(terminal_score(state, ply), state, self.root_player)
        return state.utility(self.root_player) * self.eval_scale

    def eval_value(self, state: GameState) -> float:
        """EVAL at the cut-off, for the root player (counted as a horizon leaf)."""
        self.horizon_leaves += 1
        return state.evaluate(self.root_player)

    def bounds(self, state: GameState) -> tuple[float, float]:
        """``(L, U)``: the least and greatest value of any node below ``state``, on the
        search scale. ``utility_bounds()`` may be lopsided for one player, so the symmetric
        hull is taken (sound for either view of a zero-sum game); win/loss games reach
        +-``WIN_SCORE``."""
        if self.is_win_loss:
            return (-float(WIN_SCORE), float(WIN_SCORE))
        low, high = state.utility_bounds()
        reach = max(abs(low), abs(high)) * self.eval_scale
        return (-reach, reach)

    def depth_after(self, state: GameState, mover: Player, depth: int) -> int:
        """The depth left after ``mover`` played into ``state``: one ply less, unless the
        next decision is ``mover``'s again (the same turn goes on)."""
        player: Player | None = state.to_move()
        if player == CHANCE:
            player = next_decider(state)
        return depth if player == mover else depth - 1

    # ------------------------------------------------------------- root
    def start_iteration(self, depth: int) -> None:
        self.iteration_depth = depth
        self.current_root = None
        self.root_best_move = None
        self.root_best_value = -INFINITY
        self.root_line = NO_LINE
        self.root_values = {}

    def note_root_value(self, index: int, move: Any, value: float, is_exact: bool) -> None:
        """Root move number ``index`` (0-based) was searched to ``value``; a new best when it
        beats the previous ones (call it after ``pv_table[0]`` holds its line)."""
        if is_exact:
            self.root_values[index] = (move, value)
        if not self.root_is_chance and value > self.root_best_value:
            self.root_best_move = move
            self.root_best_value = value
            self.root_line = self.pv_table[0]

    def chance_outcomes(self, state: GameState, ply: int) -> list[tuple[Any, float]]:
        """The outcomes of chance node ``state`` to search: the root's own list at a chance
        root (the ``root_moves`` subset), the game's everywhere else. Only a restricted
        search pays for the root test (a key comparison at chance nodes of ply 0)."""
        if self.is_root_restricted and ply == 0 and self.root_is_chance and state.key() == self.root_key:
            return self.root_outcomes
        return state.chance_outcomes()

    def report_root_move(self, move: Any, number: int) -> None:
        """Emit ``CurrentMove`` for root move ``number`` (1-based; UCI's currmove)."""
        self.current_root = (move, number)
        self.roll_ply = -1
        self.reporter.current_move(self.iteration_depth, move, number, self.root_move_count)

    def report_roll(self, ply: int, outcome: Any, number: int, total: int) -> None:
        """Emit ``CurrentMove`` for the root move with the roll now searched under it, at
        the first chance layer below the root move (a deeper layer's rolls change too fast
        to read, and say less); at a chance root, the root's own outcome is the "move". Call
        only while listening (``is_listening``)."""
        if self.root_is_chance:
            if ply == 0:
                self.reporter.current_move(self.iteration_depth, outcome, number, total)
            return
        if self.current_root is None or (self.roll_ply >= 0 and ply != self.roll_ply):
            return
        self.roll_ply = ply
        move, move_number = self.current_root
        self.reporter.current_move(
            self.iteration_depth, move, move_number, self.root_move_count, outcome, number, total
        )

    def completed_line(self, state: GameState, depth: int) -> list[Any]:
        """The line of the iteration just completed (none at a chance root: a line of play
        stops at the dice); its root values become the answer's."""
        self.completed_root_values = dict(self.root_values)
        return [] if self.root_is_chance else list(self.root_line)

    def stopped_answer(self, state: GameState, score: float | None, line: list[Any]) -> tuple[float, list[Any]]:
        """After a stop: the last completed iteration's answer; if none completed, the
        interrupted one's best root move so far, else the first root move by EVAL's score
        (read on the caller's ``state``: the stop left the search's root mid-line)."""
        if score is not None:
            return score, line
        self.completed_root_values = dict(self.root_values)
        if self.root_best_move is not None:
            return self.root_best_value, list(self.root_line)
        if self.root_is_chance:
            return 0.0, []
        return state.evaluate(self.root_player), [self.root_moves[0]]

    @property
    def reported_depth(self) -> int:
        return self.iteration_depth

    def hashfull(self) -> float:
        """No transposition table in this family."""
        return 0.0


def report_cutoff(tools: ChanceTools, move: Any, remaining: Sequence[Any]) -> None:
    """Tell the recorder that ``move`` cut off and ``remaining`` were never searched."""
    recorder = tools.recorder
    if recorder is not None:
        recorder.cut(move, remaining)
