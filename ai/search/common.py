"""What the deterministic algorithms (minimax, alpha-beta, PVS, MTD(f)) share in one search.

One search's state is split by lifetime: ``Switches`` (frozen: the enhancements in use, the
settings resolved against the game's declared abilities), ``Abilities`` (frozen: the game's
optional methods the node calls, resolved once), ``Counters`` (what the search counts; the
events carry them) and ``RootRecord`` (the root's moves and the best move of the iteration
under way). ``SearchTools`` holds them with the services (control, table, orderer, PV array,
reporter). Each algorithm module builds its node function once per search from these tools
as a closure, so the hot recursion reads its services from closure cells (one indexed load
each) instead of looking attributes up at every node.

Also here: the tuning constants of the node's enhancements, each with its source.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any, Final, cast

from games.base import GameState, NodePoll, SolveAbandoned
from games.capabilities import (
    BestMoveSolver,
    CapabilityError,
    CaptureScores,
    CheckAware,
    ExactSolver,
    ExchangeEvaluation,
    QuietChecks,
    RepetitionRules,
    check_declarations,
    declares,
    takes_selective,
)

from ai import options
from ai.context import SearchContext
from ai.control import SearchControl
from ai.lazy_smp import make_orderer
from ai.reporting import Reporter
from ai.search import uses_quiescence
from ai.scores import INFINITY, WIN_SCORE, solved_score, terminal_score
from ai.settings import SearchSettings
from ai.tree.recorder import TreeRecorder
from ai.tt import Bound, SearchTable, TranspositionTable, estimate_move_bytes

NodeSearch = Callable[[GameState, int, float, float, int], float]
"""A node function: ``(state, depth, alpha, beta, ply) -> value`` for the side to move."""
LeafSearch = Callable[[GameState, float, float, int], float]
"""What happens at the horizon: ``(state, alpha, beta, ply) -> value`` (EVAL or quiescence)."""

MAX_SEARCH_PLY: Final = 128
"""No line of one search is longer than this (killer and PV arrays are this long); a node
that deep is evaluated statically."""
MAX_ITERATION_DEPTH: Final = MAX_SEARCH_PLY // 2
"""Deepest iteration (room is left for extensions and quiescence)."""
SOLVED_DEPTH: Final = 10_000
"""The depth stored with a result that no horizon touched (every leaf below was a terminal
or an exact endgame solve): it is the true game value and holds at any depth."""
DRAW_SCORE: Final = 0.0
"""The value of a draw for the side to move (as ``terminal_score`` gives a drawn end)."""
NO_LINE: Final[tuple[Any, ...]] = ()
"""An empty principal variation (shared, so clearing a PV slot allocates nothing)."""
TT_KEY: Final = "transposition_table"
"""Where ``SearchContext.shared`` keeps the table between searches of the same game."""
TT_SIGNATURE_KEY: Final = "transposition_table_tree"
"""Where ``SearchContext.shared`` keeps the ``tree_signature`` the table's scores belong to."""

NULL_MOVE_MIN_DEPTH: Final = 3
"""Null-move pruning only where at least this many plies remain."""
NULL_MOVE_REDUCTION: Final = 2
NULL_MOVE_DEPTH_STEP: Final = 4
"""Adaptive R (Heinz 1999, in Stockfish's continuous form): R = NULL_MOVE_REDUCTION, plus
one for every ``NULL_MOVE_DEPTH_STEP`` plies of depth, plus one for every
``NULL_MOVE_EVAL_STEP`` by which the static evaluation exceeds beta (at most
``NULL_MOVE_MAX_EVAL_BONUS``)."""
NULL_MOVE_EVAL_STEP: Final = 200.0
NULL_MOVE_MAX_EVAL_BONUS: Final = 2
NULL_MOVE_VERIFY_DEPTH: Final = 8
"""From this depth a null move's fail high is verified by a reduced search of the real moves
with null moves forbidden for the first plies below (Tabibi & Netanyahu, "Verified null-move
pruning", ICGA Journal 25(3), 2002, in Stockfish's form): in zugzwang the real moves fail
low, and the node is not cut. Shallower, a zugzwang mistake is found again by the next
iteration."""
LMR_MIN_DEPTH: Final = 3
LMR_FIRST_REDUCED_MOVE: Final = 4
"""Late move reductions start with this move number (1-based) at depth >= LMR_MIN_DEPTH."""
LMR_REDUCTION: Final = 1
"""The reduction of the old fixed scheme, and the least a reduced move loses."""
LMR_BASE: Final = 0.75
LMR_DIVISOR: Final = 2.25
"""The reduction of move ``n`` at depth ``d``: ``int(LMR_BASE + ln d * ln n / LMR_DIVISOR)``
(the logarithmic table of Fruit/Stockfish/Ethereal), one ply less at PV nodes, never below
``LMR_REDUCTION``, and never so much that the reduced search falls below depth 1."""
LMR_TABLE_SIZE: Final = 64
REVERSE_FUTILITY_DEPTH: Final = 6
REVERSE_FUTILITY_MARGIN: Final = 110.0
"""Reverse futility ("static null move"): at depth <= REVERSE_FUTILITY_DEPTH, off the PV and
not in check, a static evaluation at least ``margin * depth`` above beta cuts the node."""
FUTILITY_DEPTH: Final = 3
FUTILITY_MARGIN: Final = 120.0
FUTILITY_BASE: Final = 80.0
"""Futility (Heinz, "Extended futility pruning", ICCA Journal 21(2), 1998): at depth <=
FUTILITY_DEPTH, a quiet move that gives no check is skipped when the static evaluation plus
``FUTILITY_BASE + FUTILITY_MARGIN * depth`` is still at most alpha."""
LATE_MOVE_PRUNING_DEPTH: Final = 3
LATE_MOVE_PRUNING_BASE: Final = 4
"""Late move pruning (move-count pruning): at depth <= LATE_MOVE_PRUNING_DEPTH off the PV,
quiet moves after the first ``LATE_MOVE_PRUNING_BASE + depth * depth`` are not searched."""
SEE_CAPTURE_PRUNING_DEPTH: Final = 2
SEE_CAPTURE_MARGIN: Final = 100
SEE_QUIET_PRUNING_DEPTH: Final = 4
SEE_QUIET_MARGIN: Final = 40
"""SEE pruning: at depth <= SEE_CAPTURE_PRUNING_DEPTH, a capture losing more than
``SEE_CAPTURE_MARGIN * depth``, and at depth <= SEE_QUIET_PRUNING_DEPTH a quiet move losing
more than ``SEE_QUIET_MARGIN * depth * depth``, by static exchange evaluation, are skipped;
a move that gives check never is. Why these depths and the check rule (measured with
``bench/chess_tactics.py --engines inproc``, results in bench/STRENGTH.md): pruning
captures up to depth 4, checks included, solves 255/300 WAC positions at 30,000 nodes a
position and misses 12 that ``see_pruning=off`` solves, mostly sacrifices by capture (Nxd6,
Nxg2, Rxh2+, axb4); these rules solve 261/300 and keep Bratko-Kopec at 13/24 at 100,000
nodes, while pruning no capture at all solves 10/24 BK. For quiet moves a margin of 80, or
pruning only in null-window searches, solves fewer WAC positions than the rule above."""


@functools.cache
def lmr_table(size: int = LMR_TABLE_SIZE) -> tuple[tuple[int, ...], ...]:
    """``table[depth][number]``: the late move reduction of move ``number`` at ``depth``
    (both capped at ``size - 1``). Computed once: building it (4,096 logarithms) cost 4 ms,
    more than a whole shallow search, when every search built its own."""
    return tuple(
        tuple(0 if depth == 0 or number == 0 else int(LMR_BASE + math.log(depth) * math.log(number) / LMR_DIVISOR)
              for number in range(size))
        for depth in range(size)
    )


INTERIOR_SOLVER_EMPTIES: Final = 10
"""Inside the tree the game's solver is asked only about positions this close to the end;
the root itself is solved up to ``SearchSettings.solver_empties``. Othello's native solver
(``games/othello/_solver.c``) polls the clock every few thousand nodes, so an interior solve
does not hold a stop up (the pure-Python one is 100x slower: 14 empties everywhere turn a
3-second search into 12 seconds). What bounds it is cost against the
search around it: a solve at 10 empties is a few thousand native nodes, a fraction of a
millisecond, about as much as one or two midgame nodes of the Python search."""
ROOT_SOLVE_FRACTION: Final = 0.5
"""The root's exact solve may use this fraction of the time limit and of the node limit. A
solve still running then is abandoned and iterative deepening answers with the rest (the
solve's table entries stay: they are true bounds, and the next move's solve reuses them).
So the exact-solve depth need not fit the worst case into the whole move: a solve that
does not finish costs half of it, and never answers with a one-ply guess. The node limit
counts as the time does: a level's budget (``ai.levels``) is a node limit, and a solve that
ran into the whole of it would leave the level nothing but a one-ply guess."""


class RootSolveAbandoned(SolveAbandoned):
    """The root's exact solve ran past ``ROOT_SOLVE_FRACTION`` of the time or node limit."""


def root_solve_poll(control: SearchControl, charge: NodePoll) -> NodePoll:
    """What the root's exact solve reports its nodes to: ``charge`` (which counts them on
    ``control``), and once the solve has used ``ROOT_SOLVE_FRACTION`` of the node limit
    (counted from its start) or the search that much of the time limit,
    ``RootSolveAbandoned``: the search then deepens in what is left. One rule for the Python
    search (``solve_root``) and the compiled ones (``ai.search.native``)."""
    time_budget = math.inf if control.limits.time is None else ROOT_SOLVE_FRACTION * control.limits.time
    node_share = math.inf if control.limits.nodes is None else ROOT_SOLVE_FRACTION * control.limits.nodes
    started: list[int] = []  # the nodes charged when the solve began

    def poll(count: int, check: bool = True) -> None:
        if not started:
            started.append(control.charged)
        charge(count, check)
        if check and (control.charged - started[0] >= node_share or control.elapsed() >= time_budget):
            raise RootSolveAbandoned

    return poll


CHECK_EXTENSION_PLY_FACTOR: Final = 2
"""Check extensions stop at ply >= this times the iteration depth (no endless check lines)."""


def next_up(value: float) -> float:
    """The least score above ``value``: the top of a null window ``(value, next_up(value))``.

    Scores may be floats (Othello's EVAL), so "alpha + 1" is not a null window in general;
    the next representable float is, and for integer scores it tests the same thing.
    """
    return math.nextafter(value, INFINITY)


def next_down(value: float) -> float:
    """The greatest score below ``value``: the bottom of a null window ending at ``value``."""
    return math.nextafter(value, -INFINITY)


def tree_signature(settings: SearchSettings) -> tuple[object, ...]:
    """The settings that change the values a search computes (the options table's
    value-changing rows): a table filled under other values is cleared rather than trusted."""
    return options.tree_signature(settings)


def searched_root_moves(state: GameState, context: SearchContext) -> list[Any]:
    """The root moves this search considers: ``context.root_moves`` (UCI ``searchmoves``, a
    worker's share of the pool's root split) in the game's generation order, or every legal
    move when that is empty. A requested move that is not legal here is left out (``engine.
    prepare`` has refused such requests already)."""
    moves = state.legal_moves()
    wanted = context.root_moves
    if not wanted:
        return moves
    return [move for move in moves if move in wanted]


# ------------------------------------------------------------------ the switches
@dataclass(frozen=True, slots=True)
class Switches:
    """The enhancements one search uses: the settings, resolved once against the abilities
    the game declares (``games.capabilities``). A switch the game cannot take is off here
    whatever the settings say; the node reads only these."""

    quiescence: bool = False
    """Quiescence search at the horizon (the setting, or the algorithm's default)."""
    check_extensions: bool = False
    null_move: bool = False
    late_move_reductions: bool = False
    quiescence_checks: bool = False
    """Quiet checks at quiescence's first ply (``QuietChecks``)."""
    see_pruning: bool = False
    """SEE pruning of losing captures and quiet moves (``ExchangeEvaluation``)."""
    futility_pruning: bool = False
    captures_known: bool = False
    """Whether the game tells captures from quiet moves (``CaptureScores``): late move
    reductions and futility spare captures; without it every move is quiet."""
    root_solver_empties: int = 0
    """The root is solved exactly when at most this many squares are empty (``ExactSolver``)."""
    solver_empties: int = 0
    """Inside the tree (and at the horizon) the solver is a perfect EVAL up to this."""

    @property
    def is_selective(self) -> bool:
        """Whether any selective switch is on (then the node asks ``is_in_check``)."""
        return (
            self.check_extensions
            or self.null_move
            or self.late_move_reductions
            or self.quiescence_checks
            or self.see_pruning
            or self.futility_pruning
        )

    @classmethod
    def resolve(cls, settings: SearchSettings, game: type[GameState]) -> Switches:
        """The switches of a search of ``game`` under ``settings``: a selective switch only
        where the game opts in and declares what it needs (``takes_selective``)."""
        root_solver_empties = settings.solver_empties if declares(game, ExactSolver) else 0
        return cls(
            quiescence=uses_quiescence(settings),
            check_extensions=settings.check_extensions and takes_selective(game, "check_extensions"),
            null_move=settings.null_move and takes_selective(game, "null_move"),
            late_move_reductions=settings.late_move_reductions and takes_selective(game, "late_move_reductions"),
            quiescence_checks=settings.quiescence_checks and takes_selective(game, "quiescence_checks"),
            see_pruning=settings.see_pruning and takes_selective(game, "see_pruning"),
            futility_pruning=settings.futility_pruning and takes_selective(game, "futility_pruning"),
            captures_known=declares(game, CaptureScores),
            root_solver_empties=root_solver_empties,
            solver_empties=min(root_solver_empties, INTERIOR_SOLVER_EMPTIES),
        )


def _not_declared(*_: Any) -> Any:
    """Stands for an ability the game does not declare; its switch is off, so never called."""
    raise CapabilityError("an ability the game does not declare was called")


@dataclass(frozen=True, slots=True)
class Abilities:
    """The game's declared abilities as the node calls them: resolved once per search
    (``from_state``), bound to the search's root state -- the one object every node of the
    search plays its moves on and takes back (make/unmake), so a bound method asks the
    current node. An ability the game lacks is ``_not_declared`` (its switch is off) or,
    where the node asks at every node, ``None``."""

    gives_check: Callable[[Any], bool] = _not_declared
    """``CheckAware.gives_check(move)``: asked before pruning a move (a check never is)."""
    exchange_at_least: Callable[[Any, int], bool] = _not_declared
    """``ExchangeEvaluation.exchange_at_least(move, threshold)``: SEE pruning."""
    checking_moves: Callable[[], list[Any]] = _not_declared
    """``QuietChecks.checking_moves()``: quiescence's quiet checks."""
    repeats_within: Callable[[int], bool] | None = None
    """``RepetitionRules.repeats_within(plies)``: asked with the node's ply, it makes a
    position repeated inside the search tree a draw (twofold, as strong chess engines score
    it; the game's own rule decides for repetitions of positions before the root)."""
    solve_best_move: Callable[..., tuple[float, Any] | None] | None = None
    """``BestMoveSolver.solve_best_move``: the root solved once, not once per move."""
    eval_scale: float = 1.0
    """Evaluation units per unit of utility (``GameState.EVAL_SCALE``): a solved value's scale."""

    @classmethod
    def from_state(cls, state: GameState) -> Abilities:
        """The abilities of ``state``'s game, after ``check_declarations`` (a game that
        declares an ability it does not implement fails here, before any node)."""
        game = type(state)
        check_declarations(game)
        return cls(
            gives_check=cast(CheckAware, state).gives_check if declares(game, CheckAware) else _not_declared,
            exchange_at_least=(
                cast(ExchangeEvaluation, state).exchange_at_least if declares(game, ExchangeEvaluation) else _not_declared
            ),
            checking_moves=cast(QuietChecks, state).checking_moves if declares(game, QuietChecks) else _not_declared,
            repeats_within=cast(RepetitionRules, state).repeats_within if declares(game, RepetitionRules) else None,
            solve_best_move=cast(BestMoveSolver, state).solve_best_move if declares(game, BestMoveSolver) else None,
            eval_scale=float(game.EVAL_SCALE),
        )


# ------------------------------------------------------------------ the counters
class Counters:
    """What one search counts, cumulative over its iterations; the events carry it
    (``Reporter.stats``: ``SearchStats`` is these numbers frozen, with the node count)."""

    __slots__ = ("qnodes", "tt_probes", "tt_hits", "cutoffs", "first_move_cutoffs", "seldepth", "horizon_leaves")

    def __init__(self) -> None:
        self.qnodes = 0
        self.tt_probes = 0
        self.tt_hits = 0
        self.cutoffs = 0
        self.first_move_cutoffs = 0
        self.seldepth = 0
        self.horizon_leaves = 0
        """Leaves scored by EVAL (or results resting on such leaves, or heuristic cuts):
        unchanged over a subtree means that subtree's value is exact."""


# ------------------------------------------------------------------ the root record
class RootRecord:
    """The root's bookkeeping of one search: its moves, and per iteration the best move so
    far, which the iterative-deepening driver reads back."""

    __slots__ = (
        "moves", "is_restricted", "move_count", "iteration_depth", "previous_best_move",
        "best_move", "best_score", "line", "extension_ply_limit", "given_moves", "is_subset",
    )

    def __init__(self, moves: list[Any], is_restricted: bool) -> None:
        self.moves = moves
        """The moves searched at the root, in generation order (all legal moves unless
        ``context.root_moves`` names a subset)."""
        self.is_restricted = is_restricted
        """Whether the root searches a subset: its value is then not the position's, and is
        never stored in the (possibly shared) table."""
        self.move_count = len(moves)
        self.given_moves = tuple(moves)
        """The moves the search was given; ``exclude`` leaves some of them out for a while."""
        self.is_subset = is_restricted
        """Whether the given moves are a subset of the legal ones."""
        self.iteration_depth = 0
        self.previous_best_move: Any = None
        """The completed iteration's best move: the next iteration tries it first."""
        self.best_move: Any = None
        self.best_score: float = -INFINITY
        self.line: tuple[Any, ...] = NO_LINE
        self.extension_ply_limit = 0
        """Check extensions stop at this ply (``CHECK_EXTENSION_PLY_FACTOR`` x the depth)."""

    def start_iteration(self, depth: int) -> None:
        """Reset the per-iteration bookkeeping before searching to ``depth``."""
        self.iteration_depth = depth
        self.best_move = None
        self.best_score = -INFINITY
        self.line = NO_LINE
        self.extension_ply_limit = CHECK_EXTENSION_PLY_FACTOR * depth

    def exclude(self, moves: Collection[Any]) -> None:
        """Search the root without ``moves`` (MultiPV: the first moves of the better lines of
        this iteration); ``exclude(())`` brings every given move back. ``moves`` is changed
        in place, as the node functions hold the list; a root without some of its moves is
        restricted (its value is not the position's)."""
        self.moves[:] = [move for move in self.given_moves if move not in moves]
        self.move_count = len(self.moves)
        self.is_restricted = self.is_subset or bool(moves)

    def note_best(self, move: Any, value: float, line: tuple[Any, ...]) -> None:
        """A root move raised alpha: the best move of this iteration so far, with its line."""
        self.best_move = move
        self.best_score = value
        self.line = line


# ------------------------------------------------------------------ one search
class SearchTools:
    """One search of the negamax family: its services (control, table, orderer, PV array,
    reporter), its ``switches`` (frozen), its ``abilities`` (the game's, resolved), its
    ``counters`` and its ``root`` record. Each algorithm builds its node function once per
    search from these as a closure, so the hot recursion reads them from closure cells."""

    def __init__(self, state: GameState, context: SearchContext, *, enhanced: bool = True) -> None:
        """``enhanced=False`` (plain minimax) leaves out table and ordering whatever the
        settings say."""
        settings = context.settings
        self.context = context
        self.settings = settings
        self.control = context.control
        self.game: type[GameState] = type(state)
        self.abilities = Abilities.from_state(state)
        self.solver_poll: NodePoll = functools.partial(self.control.count_nodes, cost=self.game.SOLVER_NODE_COST)
        """The ``poll`` a game's exact solver reports to: its nodes charged at their cost."""
        self.switches = Switches.resolve(settings, self.game)
        self.counters = Counters()
        root_moves = searched_root_moves(state, context)
        self.root = RootRecord(root_moves, len(root_moves) != len(state.legal_moves()))
        self.recorder: TreeRecorder | None = context.recorder
        """Records the tree when asked (``ai.tree.recorder``); ``None``: nobody records."""
        if self.recorder is not None:
            root_record = self.root
            self.recorder.bind(self.control, lambda: root_record.iteration_depth, lambda: root_record.move_count)
        self.tt = self._transposition_table(state, context, root_moves) if enhanced else None
        self.orderer = (
            make_orderer(settings, state, MAX_SEARCH_PLY + 1, context.helper)
            if enhanced and settings.move_ordering
            else None
        )
        """Lazy SMP helpers (``context.helper > 0``) get a perturbed order (``ai.lazy_smp``)."""
        self.pv_table: list[Any] = [NO_LINE] * (MAX_SEARCH_PLY + 2)
        self.null_move_at: list[bool] = [False] * (MAX_SEARCH_PLY + 2)
        """``null_move_at[ply]``: the node at ``ply`` was reached by a null move."""
        self.reporter = Reporter(context, self.game, state.to_move(), self.counters, self)
        """Builds this search's events; scores are the side to move's at the root."""

    # ---------------------------------------------------------------- set-up
    @staticmethod
    def _transposition_table(
        state: GameState, context: SearchContext, root_moves: list[Any]
    ) -> SearchTable | None:
        """The table kept in ``context.shared`` (reused between searches of one game), made
        anew when missing or, for our own ``TranspositionTable``, of another size; ``None``
        when switched off. Any other ``SearchTable`` found there (a shared-memory table the
        worker pool put in) is used as it is: the search depends only on that protocol."""
        settings = context.settings
        if not settings.transposition_table:
            return None
        move_bytes = estimate_move_bytes(root_moves[0]) if root_moves else 0
        table = context.shared.get(TT_KEY)
        if isinstance(table, TranspositionTable):
            if table.megabytes != settings.tt_megabytes or table.entry_bytes < TranspositionTable(1, move_bytes).entry_bytes:
                table = None
        elif table is not None and not isinstance(table, SearchTable):
            raise TypeError(f"context.shared[{TT_KEY!r}] is a {type(table).__name__}, not a SearchTable")
        if table is None:
            table = TranspositionTable(settings.tt_megabytes, move_bytes)
            context.shared[TT_KEY] = table
        signature = tree_signature(settings)
        if context.shared.get(TT_SIGNATURE_KEY) != signature:
            table.clear()  # its scores come from another tree: another horizon or pruning
            context.shared[TT_SIGNATURE_KEY] = signature
        table.new_search()
        return table

    # The iterative-deepening driver's view (``ai.iterative.DeepeningTools``).
    @property
    def horizon_leaves(self) -> int:
        return self.counters.horizon_leaves

    @property
    def root_move_count(self) -> int:
        return self.root.move_count

    def start_iteration(self, depth: int) -> None:
        """Reset the per-iteration root bookkeeping before searching to ``depth``."""
        self.root.start_iteration(depth)

    def root_move_order(self, state: GameState, tt_move: Any) -> list[Any]:
        """The root's moves in search order: the orderer's (the table's or the previous
        iteration's best move first), restricted to the root's moves."""
        root = self.root
        if self.orderer is None:
            return list(root.moves)
        moves = self.orderer.ordered_list(state, 0, tt_move)
        if root.is_restricted or (tt_move is not None and tt_move not in root.moves):
            allowed = root.moves
            moves = [move for move in moves if move in allowed]
        return moves

    # ------------------------------------------------------------- reporting
    def report_root_move(self, move: Any, number: int) -> None:
        """Emit ``CurrentMove`` for root move ``number`` (UCI's currmove)."""
        self.reporter.current_move(self.root.iteration_depth, move, number, self.root.move_count)

    def note_root_best(self, move: Any, value: float) -> None:
        """A root move raised alpha: it is the best move found so far in this iteration
        (call it after ``pv_table[0]`` has its line)."""
        self.root.note_best(move, value, self.pv_table[0])

    def report_window_fail(self, depth: int, value: float, bound: Bound) -> None:
        """Report an aspiration fail: an ``Iteration`` with the bound ``value`` is (a fail
        high names the move that reached it)."""
        move = self.root.best_move
        self.reporter.iteration(depth, value, [move] if bound is Bound.LOWER and move is not None else [], 0, bound)

    def hashfull(self) -> float:
        return self.tt.hashfull() if self.tt is not None else 0.0

    @property
    def reported_depth(self) -> int:
        return self.root.iteration_depth

    # -------------------------------------------------------- PV and results
    def principal_variation(self, root: GameState, first_moves: list[Any], length: int) -> list[Any]:
        """The PV: ``first_moves`` (from the triangular array), extended with the table's
        moves up to ``length`` plies. Every move is checked against ``legal_moves()`` (a
        table move comes from a position with the same key, not necessarily the same one),
        and the walk stops at a repeated key."""
        state = root.copy()
        line: list[Any] = []
        seen = {state.key()}
        for move in first_moves:
            if move not in state.legal_moves():
                return line
            state.play(move)
            line.append(move)
            seen.add(state.key())
        while self.tt is not None and len(line) < length and not state.is_terminal():
            entry = self.tt.probe(state.key())
            if entry is None or entry[4] is None or entry[4] not in state.legal_moves():
                break
            state.play(entry[4])
            line.append(entry[4])
            key = state.key()
            if key in seen:
                break
            seen.add(key)
        return line

    def completed_line(self, state: GameState, depth: int) -> list[Any]:
        """The PV of the iteration to ``depth`` just completed: its root line, extended
        from the table; its first move is tried first by the next iteration."""
        root = self.root
        first_moves = list(root.line) if root.best_move is not None else [self.first_legal_move(state)]
        line = self.principal_variation(state, first_moves, depth)
        root.previous_best_move = line[0] if line else None
        return line

    def stopped_answer(self, state: GameState, score: float | None, line: list[Any]) -> tuple[float, list[Any]]:
        """After a stop: the last completed iteration's answer, unless the interrupted one
        already has a better move (the previous best is searched first, so a new best move
        beat it), or none completed (then its best so far, else the static evaluation)."""
        root = self.root
        partial_move = root.best_move
        improved = partial_move is not None and (
            score is None or (self.orderer is not None and partial_move != root.previous_best_move)
        )
        if improved:
            return root.best_score, self.principal_variation(state, list(root.line), MAX_ITERATION_DEPTH)
        if score is None:
            return state.evaluate(state.to_move()), [self.first_legal_move(state)]
        return score, line

    @property
    def trusts_partial_iteration(self) -> bool:
        """With move ordering the previous best is searched first, so a new best move found by
        an interrupted iteration beat it (``stopped_answer``)."""
        return self.orderer is not None

    def first_legal_move(self, state: GameState) -> Any:
        """The move to play when nothing was searched: the first in the search's order."""
        moves = self.root_move_order(state, None)
        return moves[0] if moves else None


def solve_root(state: GameState, tools: SearchTools) -> tuple[float, Any] | None:
    """An exact root value and a best move from the game's solver, or ``None``.

    A game whose solver names a best move too (``BestMoveSolver``: Othello) is asked once; otherwise, and when the search is restricted
    to some root moves, each of the root's children is solved. With a time limit the solve
    raises ``RootSolveAbandoned`` once it has used ``ROOT_SOLVE_FRACTION`` of it, and so with
    a node limit; ``state`` is left as it was either way.
    """
    empties = tools.switches.root_solver_empties
    if not empties or state.is_terminal():
        return None
    control = tools.control
    time_limit = control.limits.time
    poll = root_solve_poll(control, tools.solver_poll)
    depth_limit = control.limits.depth
    if depth_limit is not None and time_limit is None:
        # A depth limit bounds the exact solve too (it is a search to the game's end): past
        # the default solver depth, measured to finish in a moment, the root is solved only
        # when the end is within the depth limit; no time limit would stop it otherwise.
        empties = min(empties, max(depth_limit, SearchSettings().solver_empties))

    best_move_solver = None if tools.root.is_restricted else tools.abilities.solve_best_move
    if best_move_solver is not None:
        answer = best_move_solver(empties, poll=poll)
        if answer is None:
            return None
        score, move = answer
        if move is None or move not in state.legal_moves():
            return None
        return score * tools.abilities.eval_scale, move
    if state.solve(state.to_move(), empties, poll=poll) is None:
        return None
    best: tuple[float, Any] | None = None
    for move in tools.root.moves:
        state.play(move)
        try:
            if state.is_terminal():
                value = -terminal_score(state, 1)
            else:
                child = state.solve(state.to_move(), empties, poll=poll)
                if child is None:
                    return None
                value = -solved_score(state, child, 1, tools.abilities.eval_scale)
        finally:
            state.undo()
        if best is None or value > best[0]:
            best = (value, move)
    return best


GREEDY_POLL_EVERY = 8
"""``greedy_move`` with a ``poll`` calls it after every this many children evaluated."""


def greedy_move(state: GameState, moves: list[Any], poll: Callable[[], None] | None = None) -> Any:
    """The move whose child is best for the mover by EVAL (a finished game by its utility;
    first of equals): one ply of lookahead. It guides MCTS's ``eval`` playouts and answers
    when a stop cuts the root's exact solve short. ``state`` is played on and restored.

    ``poll`` (the search's stop check) is called every ``GREEDY_POLL_EVERY`` children: a
    backgammon double has hundreds of plays, each evaluated by the network, so one choice
    can take ~50 ms, longer than a stop may wait."""
    mover = state.to_move()
    best_move, best_value = moves[0], -math.inf
    for number, move in enumerate(moves, start=1):
        state.play(move)
        value = state.utility(mover) * WIN_SCORE if state.is_terminal() else state.evaluate(mover)
        state.undo()
        if value > best_value:
            best_move, best_value = move, value
        if poll is not None and number % GREEDY_POLL_EVERY == 0:
            poll()
    return best_move
