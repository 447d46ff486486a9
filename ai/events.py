"""What a running search tells the world: frozen, picklable dataclasses.

The search never formats text, and never names a move: events carry the game's move values,
and the CLI, the UCI front end and the GUI each name and format them their own way, with the
root state they hold. Every event carries the ``search_id`` of the request it answers, so a
consumer can drop the late events of a search it has already cancelled.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ai.tt import Bound

Move = Any
"""A game's own move object (``chess.Move``, an Othello square, a backgammon turn ...):
events carry move values, picklable, and whoever shows them names them with the root state
it holds (``state.move_name(move)``, ``state.line_names(pv)``)."""


@dataclass(frozen=True)
class Score:
    """A search value as seen by player ``view`` (0 unless said otherwise).

    ``value`` is on the search scale: evaluation units for ordinary scores (centipawns for
    chess, hundredths of a disc for Othello, equity points for backgammon), ``scale`` of
    them per unit of utility. For a proven win/loss ``win_in_plies`` is set: positive when
    ``view`` wins in that many plies, negative when ``view`` loses.

    At 0 plies (the game is already over at the root) ``-0 == 0`` cannot carry the sign:
    there the sign of ``value`` (``±WIN_SCORE`` on the search scale, never 0 for a proven
    result) says who has won. ``outcome`` reads it either way, and ``for_player`` keeps it,
    so turning a finished game's score to the other player's view never loses the winner.
    People read scores through ``ai.display``.
    """

    value: float
    view: int = 0
    win_in_plies: int | None = None
    scale: float = 1.0

    @property
    def is_win(self) -> bool:
        """Whether the score is a proven result (a win or a loss), not an estimate."""
        return self.win_in_plies is not None

    @property
    def outcome(self) -> int:
        """+1 when ``view`` has a proven win, -1 a proven loss, 0 when nothing is proven."""
        if self.win_in_plies is None:
            return 0
        sign = self.win_in_plies or self.value
        return 1 if sign > 0 else -1

    @property
    def plies_to_end(self) -> int | None:
        """For a proven result: plies until the game ends (0: it is over), else ``None``."""
        return None if self.win_in_plies is None else abs(self.win_in_plies)

    def mate_in_moves(self) -> int | None:
        """Chess's "mate in N" (moves of the winner), signed like ``win_in_plies``; 0 when
        the game is over (UCI's ``mate 0``: the side to move is mated)."""
        if self.win_in_plies is None:
            return None
        moves = (abs(self.win_in_plies) + 1) // 2
        return moves if self.outcome > 0 else -moves

    def for_player(self, player: int) -> Score:
        """The same score seen by ``player``."""
        if player == self.view:
            return self
        win_in = None if self.win_in_plies is None else -self.win_in_plies
        return Score(-self.value, player, win_in, self.scale)


@dataclass(frozen=True)
class SearchStats:
    """Counters of one search (or one iteration of it)."""

    nodes: int = 0
    """Nodes visited, quiescence nodes included."""
    qnodes: int = 0
    """Nodes visited by quiescence search."""
    tt_probes: int = 0
    tt_hits: int = 0
    cutoffs: int = 0
    """Beta cut-offs (fail-highs)."""
    first_move_cutoffs: int = 0
    """Cut-offs caused by the first move searched: a measure of move-ordering quality."""

    @property
    def tt_hit_rate(self) -> float:
        return self.tt_hits / self.tt_probes if self.tt_probes else 0.0

    @property
    def first_move_cutoff_rate(self) -> float:
        return self.first_move_cutoffs / self.cutoffs if self.cutoffs else 0.0


@dataclass(frozen=True)
class PvLine:
    """One of the best lines (UCI's MultiPV): the ``rank``-th best root move with its score
    and its line. The depth-first algorithms find line ``k`` by searching the root again
    without the first moves of lines ``1..k-1`` (Stockfish's way), so each score is exact
    for its move; MCTS ranks the root's children by visits."""

    rank: int
    """1 for the best line, 2 for the next best, ..."""
    move: Move
    """The root move the line starts with."""
    score: Score
    """The line's value, from the same view as the event's ``score``."""
    pv: tuple[Move, ...]
    """The line: move values from the root, ``move`` first."""
    depth: int = 0
    """The iteration depth the line was searched to: the event's depth, or the previous
    iteration's for a line a stop cut off before it was searched again; 0 for MCTS."""
    visits: int = 0
    """MCTS: the visits of ``move``; 0 for the depth-first algorithms."""


@dataclass(frozen=True)
class Iteration:
    """One completed iteration of iterative deepening (or an MCTS report of the same shape:
    ``depth`` = average tree depth, ``seldepth`` = maximum, ``pv`` = most-visited line)."""

    search_id: int
    depth: int
    seldepth: int
    score: Score
    pv: tuple[Move, ...]
    """The principal variation: move values from the root."""
    nodes: int
    nps: float
    time: float
    """Seconds since the search started."""
    hashfull: float
    """Fraction (0..1) of the transposition table in use."""
    tt_hit_rate: float
    cutoffs: int
    first_move_cutoff_rate: float
    ebf: float
    """Effective branching factor b* of this iteration (AIMA 3.6.1: the uniform tree of this
    depth with this iteration's nodes; ``ai.reporting.effective_branching_factor``); 0 for
    an aspiration fail and for MCTS."""
    bound: Bound = Bound.EXACT
    """``Bound.EXACT``, or ``LOWER``/``UPPER`` for an aspiration fail reported before its
    re-search (``str(bound)`` is its word: ``exact``, ``lower``, ``upper``)."""
    root_moves: tuple[RootMoveStat, ...] = ()
    """MCTS: visits and mean value of every root move so far (most visited first); empty
    for the depth-first algorithms."""
    lines: tuple[PvLine, ...] = ()
    """The best lines, best first (``SearchSettings.multipv`` of them, fewer when the root
    has fewer moves); line 1 is ``pv`` with ``score``. Empty for an aspiration fail and for
    a search that does not rank lines (the expectimax family)."""


@dataclass(frozen=True)
class CurrentMove:
    """The root move now being searched (UCI's ``currmove``)."""

    search_id: int
    depth: int
    move: Move
    number: int
    """1-based index of ``move`` in the root move order."""
    total: int
    roll: Move | None = None
    """The expectimax family below a decision root: the chance outcome now searched in the
    first chance layer under ``move`` (backgammon: the opponent's roll after the root play),
    a move value of the position after ``move``; ``None`` elsewhere."""
    roll_number: int = 0
    """1-based index of ``roll`` among that chance node's outcomes (0: no roll)."""
    roll_total: int = 0


@dataclass(frozen=True)
class Progress:
    """A heartbeat at least 4 times a second, so displays stay live between iterations."""

    search_id: int
    nodes: int
    nps: float
    time: float
    hashfull: float
    depth: int


@dataclass(frozen=True)
class RootMoveStat:
    """Per-root-move statistics (MCTS visits and mean values; searched scores otherwise)."""

    move: Move
    """A root move, or at a chance root (dice to roll) a chance outcome."""
    visits: int
    value: float
    """Mean value for the player to move at the root (MCTS: in [-1, 1] or utility units)."""


@dataclass(frozen=True)
class Finished:
    """The final answer of a search."""

    search_id: int
    best_move: Move | None
    """A move value; ``None`` only when the root has no legal move (or is a chance node)."""
    score: Score
    pv: tuple[Move, ...]
    depth: int
    seldepth: int
    nodes: int
    nps: float
    time: float
    stats: SearchStats = field(default_factory=SearchStats)
    root_moves: tuple[RootMoveStat, ...] = ()
    stopped: bool = False
    """True when a limit or a stop request ended the search (not a natural end)."""
    error: str | None = None
    """Set when the search could not run (bad request); ``best_move`` is then ``None``."""
    book: bool = False
    """The move came from the opening book: nothing was searched (depth and nodes are 0)."""
    forced: bool = False
    """The move is the game's forced answer (``GameState.forced_answer``, e.g. a backgammon
    cube decision from the chances): nothing was searched (depth and nodes are 0)."""
    only_move: bool = False
    """The move is the only legal one, played without a search (depth and nodes are 0; the
    score is the static evaluation of the position after it, not a searched value)."""
    fault: str | None = None
    """A fault the search survived, in one line (a worker process died): the answer is the
    last iteration completed before it. Front ends say it once; ``error`` stays ``None``."""
    lines: tuple[PvLine, ...] = ()
    """The best lines of the last complete iteration (``Iteration.lines``); empty when the
    search ranks none or nothing was searched."""


SearchEvent = Iteration | CurrentMove | Progress | Finished
