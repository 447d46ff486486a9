"""Star2: Star1 with a cheap probing phase at each chance node (Ballard 1983).

B. W. Ballard, "The *-minimax search procedure for trees containing chance nodes",
*Artificial Intelligence* 21 (1983); T. Hauk, M. Buro and J. Schaeffer, "Rediscovering
*-Minimax Search" (Computers and Games 2004), fig. 3.

Star1 (``ai.search.star1``) knows nothing about an outcome before searching it but the game's
bounds ``[L, U]``. Star2 first *probes*: for each outcome it searches only the first move of
the decision node the outcome leads to. At a MAX node (the root player to move) the first
move's value is a lower bound on the node's value; at a MIN node an upper bound. So after
the probes the chance value is bracketed by::

    sum_i P_i lows[i]  <=  V  <=  sum_i P_i highs[i]

and as soon as the left side reaches ``beta`` (or the right side falls to ``alpha``) the
chance node is decided without searching any outcome fully. That pays off where Ballard
intended it -- regular max-chance-min-chance trees such as backgammon's -- because a good
first move often proves a fail high alone. Each probe is searched with the window that
matters for that test, ``(L, B_i)`` at a MAX child (``B_i`` as in Star1, from the probed
lower bounds) and ``(A_i, U)`` at a MIN child.

When the probes decide nothing, the Star1 pass follows with each outcome's probed bounds
instead of ``[L, U]`` (narrower windows), and the probe's work is not repeated: a probe that
did not cause a cut-off returned its first move's exact value, which the full search of that
node reuses as its first move (``known_first``). A leaf outcome (terminal, or at the horizon)
is scored once in the probing phase and is then known exactly.

As for Star1, the root value is exactly expectiminimax's.
"""

from __future__ import annotations

from games.base import CHANCE, GameState, Player

from ai.context import SearchContext
from ai.events import Finished
from ai.search.chance_common import MAX_SEARCH_PLY, ChanceTools, RootSearch
from ai.iterative import run_chance_search
from ai.search.star1 import Star1Search
from ai.tree.model import NodeKind
from ai.tt import Bound


class Star2Search(Star1Search):
    """Star1's decision nodes, with the probing chance node."""

    def chance_value(self, state: GameState, depth: int, alpha: float, beta: float, ply: int) -> float:
        """Probe every outcome's first move, cut if the probed bounds decide, else run the
        Star1 pass with the probed bounds."""
        tools = self.tools
        low, high = tools.bounds(state)
        outcomes = tools.chance_outcomes(state, ply)
        count = len(outcomes)
        lows = [low] * count
        highs = [high] * count
        known_firsts: list[float | None] = [None] * count
        lower_total = 0.0  # sum_i P_i lows[i]
        upper_total = 0.0  # sum_i P_i highs[i]
        for _, probability in outcomes:
            lower_total += probability * low
            upper_total += probability * high

        for index, (outcome, probability) in enumerate(outcomes):
            state.play(outcome)
            if self.recorder is not None:
                self.recorder.outcome(outcome, probability)
            player = state.to_move()
            if state.is_terminal() or depth <= 0 or ply >= MAX_SEARCH_PLY:
                value = self.search(state, depth, low, high, ply)  # a leaf: scored exactly, once
                lows[index] = highs[index] = value
            elif player != CHANCE:
                if player == self.root_player:  # MAX node: its first move is a lower bound
                    probe_alpha = low
                    probe_beta = min(high, (beta - (lower_total - probability * low)) / probability)
                else:  # MIN node: its first move is an upper bound
                    probe_alpha = max(low, (alpha - (upper_total - probability * high)) / probability)
                    probe_beta = high
                if self.recorder is not None:
                    value = self.recorded_probe(state, player, depth, probe_alpha, probe_beta, ply)
                else:
                    value = self.probe(state, player, depth, probe_alpha, probe_beta, ply)
                if player == self.root_player:
                    lows[index] = value
                    if value < probe_beta or probe_beta >= high:
                        known_firsts[index] = value
                else:
                    highs[index] = value
                    if value > probe_alpha or probe_alpha <= low:
                        known_firsts[index] = value
            # (a chance node right after a chance node: nothing cheap to learn, keep [L, U])
            state.undo()
            lower_total += probability * (lows[index] - low)
            upper_total += probability * (highs[index] - high)
            if lower_total >= beta or upper_total <= alpha:  # the probes decide the node
                tools.probe_cutoffs += 1
                self._chance_cutoff(index + 1, outcomes, ply)
                return lower_total if lower_total >= beta else upper_total
        return self.chance_pass(state, depth, alpha, beta, ply, outcomes, lows, highs, known_firsts)

    def probe(self, state: GameState, player: Player, depth: int, alpha: float, beta: float, ply: int) -> float:
        """PROBE the decision node ``state`` (one node): its first move's value only."""
        self.count_node()
        return self.child_value(state, state.legal_moves()[0], player, depth, alpha, beta, ply)

    def recorded_probe(self, state: GameState, player: Player, depth: int, alpha: float, beta: float, ply: int) -> float:
        """``probe``, recorded as a visit of the decision node that searched only its first
        move: a lower bound at a MAX node, an upper bound at a MIN node (root player's view)."""
        recorder = self.recorder
        assert recorder is not None
        move, probability = recorder.next_move, recorder.next_probability
        is_max = player == self.root_player
        frame = recorder.enter(state, depth, alpha, beta, 1, NodeKind.MAX if is_max else NodeKind.MIN)
        value = self.probe(state, player, depth, alpha, beta, ply)
        recorder.leave(frame, move, probability, value, bound=Bound.LOWER if is_max else Bound.UPPER)
        return value


def build(tools: ChanceTools) -> RootSearch:
    """The Star2 search of one run: ``(root, depth) -> value`` (root player's view)."""
    return Star2Search(tools).iteration


def run(state: GameState, context: SearchContext) -> Finished:
    """Iterative deepening over Star2 (Star1 plus probing at chance nodes)."""
    return run_chance_search(state, context, build)
