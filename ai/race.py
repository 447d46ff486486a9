"""The algorithm race: one position, several algorithms, the same depth, side by side.

What the lecture notes state about game-tree search, measured on a real position:

* plain minimax visits every node of the tree to depth ``d``: about ``b^d`` for a branching
  factor ``b`` (AIMA 5.2);
* alpha-beta returns exactly minimax's value (Knuth & Moore 1975, "An analysis of alpha-beta
  pruning", Theorem 1) while visiting far fewer nodes;
* with perfect move ordering alpha-beta examines only ``b^ceil(d/2) + b^floor(d/2) - 1``
  leaves, about ``b^(d/2)`` (Knuth & Moore 1975, sec. 6; AIMA 5.3.1): good ordering (the
  table's move first, killers, history) and the transposition table bring the real search
  towards that bound; PVS and MTD(f) search null windows around the best guess to go further.
* MCTS (UCT) given as many nodes as a depth-first entrant shows what sampling makes of the
  same effort.

Every depth-first entrant searches in the ``exact`` preset (``ai.options.exact``: nothing
that can change the value is on), with iterative deepening to the same depth and no
aspiration windows, so each iteration's value must equal minimax's: the race checks it at
every depth and names any disagreement (``RaceResult.disagreements``). Per entrant it keeps
the value, the best move, the nodes, the time, nodes per second, the effective branching
factor and the nodes of each iteration alone (``nodes_per_depth``). The branching factor
``b`` of the curves is measured on the position (``measure_branching``): the nodes of the
full-width tree per level, counted exactly when the tree is small enough, else estimated by
Knuth's random probes (Knuth 1975, "Estimating the efficiency of backtrack programs").

The race runs in worker processes of its own, one entrant per process at a time (the engine
pool runs one search after another over one shared table, and each entrant must start with
an empty table of its own for the node counts to be its own). ``Race`` starts them from a
thread of its own, so ``start`` and ``stop`` never wait; its events (``DepthDone`` as each
iteration completes, ``EntrantDone``, ``BranchingMeasured``, ``RaceDone``) arrive on that
thread. No process outlives the race: workers are told to quit, killed after a grace, and
watch their parent; a worker that dies ends its entrant with one message saying so.
"""

from __future__ import annotations

import atexit
import dataclasses
import enum
import multiprocessing
import multiprocessing.connection
import random
import signal
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import games
from games.base import GameState

from ai import engine
from ai.cores import available_cores
from ai.display import value_text
from ai.events import Finished, Iteration, Progress, Score, SearchEvent
from ai.options import exact
from ai.parallel import tracker
from ai.reporting import effective_branching_factor
from ai.settings import Limits, SearchRequest, SearchSettings
from ai.tt import Bound

# ------------------------------------------------------------------ the entrants


class Entrant(enum.Enum):
    """An algorithm of the race; the value is its word on the command line."""

    MINIMAX = "minimax"
    ALPHABETA = "alphabeta"
    ALPHABETA_ORDERED = "alphabeta-ordered"
    ALPHABETA_TABLE = "alphabeta-table"
    PVS = "pvs"
    MTDF = "mtdf"
    MCTS = "mcts"

    @property
    def spec(self) -> EntrantSpec:
        return ENTRANTS[self]

    @property
    def label(self) -> str:
        return ENTRANTS[self].label

    @property
    def is_depth_first(self) -> bool:
        return self is not Entrant.MCTS


@dataclass(frozen=True)
class EntrantSpec:
    """How an entrant searches: its algorithm and the effort switches it has on."""

    label: str
    """Its name in the table and the chart."""
    algorithm: str
    move_ordering: bool
    """The table's move, captures, killers and history first (``SearchSettings.move_ordering``)."""
    transposition_table: bool
    description: str


ENTRANTS: Final[Mapping[Entrant, EntrantSpec]] = {
    Entrant.MINIMAX: EntrantSpec("minimax", "minimax", False, False, "every node of the tree, no pruning"),
    Entrant.ALPHABETA: EntrantSpec(
        "alpha-beta", "alphabeta", False, False, "alpha-beta, moves in the generator's order, no table"
    ),
    Entrant.ALPHABETA_ORDERED: EntrantSpec(
        "alpha-beta + ordering", "alphabeta", True, False, "alpha-beta with captures, killers and history first"
    ),
    Entrant.ALPHABETA_TABLE: EntrantSpec(
        "alpha-beta + ordering + table", "alphabeta", True, True, "alpha-beta with ordering and a transposition table"
    ),
    Entrant.PVS: EntrantSpec("PVS", "pvs", True, True, "principal variation search, ordering and table"),
    Entrant.MTDF: EntrantSpec("MTD(f)", "mtdf", True, True, "MTD(f): null-window searches with memory"),
    Entrant.MCTS: EntrantSpec("MCTS", "mcts", False, False, "UCT with as many nodes as the budget's entrant"),
}
"""Every entrant, in the order the race lists them (slowest first)."""

ALL_ENTRANTS: Final = tuple(Entrant)
BUDGET_SOURCES: Final = (
    Entrant.ALPHABETA_TABLE,
    Entrant.PVS,
    Entrant.MTDF,
    Entrant.ALPHABETA_ORDERED,
    Entrant.ALPHABETA,
    Entrant.MINIMAX,
)
"""Whose node count MCTS gets when no budget is given: the first of these in the race (the
well-ordered alpha-beta with its table is the fair opponent: what a real engine spends)."""
RACE_TABLE_MEGABYTES: Final = 16
"""Each depth-first entrant with a table gets one of this size of its own (the depths a race
affords fill a fraction of it; four workers' tables stay far below the app's)."""
MINIMAX_NODE_BUDGET: Final = 1_500_000
"""``default_depth`` picks the deepest depth whose minimax (all its iterations) is estimated
at most this many nodes: seconds in Python (tic-tac-toe's whole tree is 1.29 million
nodes over its nine iterations)."""
MAX_DEFAULT_DEPTH: Final = 12


def parse_entrants(text: str) -> tuple[Entrant, ...]:
    """The entrants named in ``text`` (comma-separated words, ``all``), in the race's order,
    without repeats; ``ValueError`` names an unknown word and lists the known ones."""
    words = [word.strip().lower() for word in text.split(",")]
    if not any(words):
        raise ValueError(f"no entrant named; choose from {', '.join(entrant.value for entrant in Entrant)} or all")
    chosen: set[Entrant] = set()
    for word in words:
        if not word:
            continue
        if word == "all":
            chosen.update(Entrant)
            continue
        try:
            chosen.add(Entrant(word))
        except ValueError:
            raise ValueError(
                f"unknown entrant {word!r}; choose from {', '.join(entrant.value for entrant in Entrant)} or all"
            ) from None
    return tuple(entrant for entrant in Entrant if entrant in chosen)


def entrant_settings(entrant: Entrant, base: SearchSettings | None = None) -> SearchSettings:
    """The settings ``entrant`` searches with: ``base`` (its MCTS parameters, its weights)
    in the ``exact`` preset, iterative deepening on and aspiration windows off (each
    iteration's value is then the full-window value minimax returns), one thread, no book,
    and the entrant's own ordering and table."""
    spec = ENTRANTS[entrant]
    base = SearchSettings() if base is None else base
    return exact(
        dataclasses.replace(
            base,
            algorithm=spec.algorithm,
            iterative_deepening=True,
            aspiration=False,
            move_ordering=spec.move_ordering,
            killers=spec.move_ordering,
            history=spec.move_ordering,
            transposition_table=spec.transposition_table,
            tt_megabytes=RACE_TABLE_MEGABYTES,
            threads=1,
            book=False,
        )
    )


# ------------------------------------------------------------------ the request


@dataclass(frozen=True)
class RaceRequest:
    """A race: the position (as a ``SearchRequest`` names one), the depth, the entrants."""

    game: str
    depth: int
    entrants: tuple[Entrant, ...] = ALL_ENTRANTS
    position: str | None = None
    moves: tuple[str, ...] = ()
    mcts_nodes: int | None = None
    """MCTS's node budget; ``None``: the node count of the first of ``BUDGET_SOURCES`` run."""
    settings: SearchSettings = field(default_factory=SearchSettings)
    """The base of every entrant's settings (``entrant_settings``)."""
    workers: int | None = None
    """Processes searching at once; ``None``: as many as there are cores (at most one per job)."""

    def budget_source(self) -> Entrant | None:
        """The entrant whose nodes MCTS gets (``None``: a stated budget, or no MCTS)."""
        if Entrant.MCTS not in self.entrants or self.mcts_nodes is not None:
            return None
        return next((entrant for entrant in BUDGET_SOURCES if entrant in self.entrants), None)


def prepare_race(request: RaceRequest) -> GameState:
    """The position ``request`` races on, once everything about it is known to be sane;
    ``ValueError`` says what is wrong (a bad game, position, move, depth or entrant set)."""
    if not request.entrants:
        raise ValueError("a race needs at least one entrant")
    if len(set(request.entrants)) != len(request.entrants):
        raise ValueError("an entrant is named twice")
    if isinstance(request.depth, bool) or not isinstance(request.depth, int) or not 1 <= request.depth <= MAX_RACE_DEPTH:
        raise ValueError(f"the race's depth must be a whole number in 1..{MAX_RACE_DEPTH}, not {request.depth!r}")
    if request.mcts_nodes is not None and (
        isinstance(request.mcts_nodes, bool) or not isinstance(request.mcts_nodes, int) or request.mcts_nodes < 1
    ):
        raise ValueError(f"MCTS's node budget must be a whole number 1 or more, not {request.mcts_nodes!r}")
    if Entrant.MCTS in request.entrants and request.mcts_nodes is None and request.budget_source() is None:
        raise ValueError("MCTS alone needs a node budget: give one, or race it against a depth-first entrant")
    state = engine.build_state(SearchRequest(game=request.game, position=request.position, moves=request.moves))
    if type(state).HAS_CHANCE:
        raise ValueError(
            f"the race compares the deterministic algorithms (minimax, alpha-beta, PVS, MTD(f)): "
            f"{state.NAME} has dice"
        )
    if state.is_terminal():
        raise ValueError(f"the game is over at this position ({state.termination_reason()}): nothing to search")
    for entrant in request.entrants:
        settings = entrant_settings(entrant, request.settings)
        limits = Limits(nodes=request.mcts_nodes) if entrant is Entrant.MCTS and request.mcts_nodes else Limits(depth=request.depth)
        engine.checked_algorithm(settings, limits).check_game(type(state))
    return state


MAX_RACE_DEPTH: Final = 30
"""Deeper than any race can finish; a larger number is a typing error."""


# ------------------------------------------------------------------ the branching factor


@dataclass(frozen=True)
class Branching:
    """The full-width tree of the position to ``depth``: nodes per level and its ``b``."""

    depth: int
    level_nodes: tuple[float, ...]
    """Nodes at each level of the full-width (minimax) tree, the root (1) first; a game's
    end has no children. Whole numbers when ``exact``, Knuth's estimates otherwise."""
    exact: bool
    probes: int = 0
    """Random probes of the estimate (0 when counted exactly)."""

    @property
    def nodes(self) -> float:
        """Nodes of the full-width tree to ``depth``, the root included."""
        return sum(self.level_nodes)

    @property
    def b(self) -> float:
        """The branching factor: that of the uniform tree of ``depth`` levels with as many
        nodes as the full-width tree (1 + b + ... + b^d = its nodes), the average number of
        legal moves along the tree in the sense the textbook's ``b^d`` uses."""
        return self.b_at(self.depth)

    def b_at(self, depth: int) -> float:
        """``b`` of the full-width tree cut at ``depth`` (1 .. ``self.depth``). In a game
        whose branching shrinks as it goes (tic-tac-toe: 9, 8, 7 ...) one ``b`` for every
        depth would put the whole tree of depth 5 (18,730 nodes) fourteen times above its
        ``b^5``; the tree's own ``b`` to each depth keeps minimax on its curve."""
        return effective_branching_factor(round(sum(self.level_nodes[1 : depth + 1])), depth)

    def per_level(self) -> tuple[float, ...]:
        """Average legal moves at each level (nodes of the next level per node of this one)."""
        return tuple(
            below / above if above else 0.0 for above, below in zip(self.level_nodes, self.level_nodes[1:])
        )

    def curve(self, depth: int, exponent: float = 1.0) -> float:
        """``b^(exponent * depth)`` with the ``b`` of the tree to ``depth`` (``b_at``): the
        textbook's ``b^d`` (1: about minimax's nodes) and ``b^(d/2)`` (0.5: about what
        alpha-beta with perfect ordering visits, Knuth & Moore's ``b^ceil(d/2) + b^floor(d/2) - 1``)."""
        if not 1 <= depth <= self.depth:
            raise ValueError(f"the tree was measured to depth {self.depth}, not {depth}")
        return float(self.b_at(depth) ** (exponent * depth))


EXACT_COUNT_LIMIT: Final = 600_000
"""The full-width tree is counted node by node when its internal nodes are estimated at
most this many (a few seconds at most), else estimated."""
ESTIMATE_PROBES: Final = 2_000
"""Knuth's random probes for the estimate of a large tree (relative error a few per cent)."""
QUICK_PROBES: Final = 64
"""Probes for the quick estimate of ``default_depth`` and the race window's warning (a few
milliseconds for tic-tac-toe, ~0.1 s for chess to depth 12)."""


class _TreeTooLarge(Exception):
    """The exact count went past its limit: the estimate is used instead."""


def estimate_levels(state: GameState, depth: int, probes: int, seed: int = 0) -> tuple[float, ...]:
    """Knuth's estimate of the nodes at each level of the full-width tree of ``state`` to
    ``depth``: walk a random line from the root; the product of the branching factors met
    down to level ``k`` is an unbiased estimate of the nodes at level ``k``; average over
    ``probes`` walks (Knuth 1975). ``state`` is left as it was."""
    rng = random.Random(seed)
    totals = [0.0] * (depth + 1)
    for _ in range(probes):
        weight = 1.0
        totals[0] += 1.0
        played = 0
        for level in range(1, depth + 1):
            if state.is_terminal():
                break
            moves = state.legal_moves()
            if not moves:
                break
            weight *= len(moves)
            totals[level] += weight
            if level < depth:
                state.play(rng.choice(moves))
                played += 1
        for _ in range(played):
            state.undo()
    return tuple(total / probes for total in totals)


def count_levels(
    state: GameState, depth: int, limit: int = EXACT_COUNT_LIMIT * 2, should_stop: Callable[[], bool] | None = None
) -> tuple[int, ...]:
    """The nodes at each level of the full-width tree of ``state`` to ``depth``, counted (a
    game's end has no children). ``_TreeTooLarge`` past ``limit`` internal nodes;
    ``should_stop`` is asked every thousand of them. ``state`` is left as it was."""
    counts = [1] + [0] * depth
    internal = 0

    def walk(level: int) -> None:
        nonlocal internal
        if state.is_terminal():
            return
        moves = state.legal_moves()
        counts[level + 1] += len(moves)
        internal += 1
        if internal > limit:
            raise _TreeTooLarge
        if internal % 1000 == 0 and should_stop is not None and should_stop():
            raise _TreeTooLarge
        if level + 1 == depth:
            return
        for move in moves:
            state.play(move)
            try:
                walk(level + 1)
            finally:
                state.undo()

    if depth > 0:
        walk(0)
    return tuple(counts)


def measure_branching(state: GameState, depth: int, should_stop: Callable[[], bool] | None = None) -> Branching:
    """The full-width tree of ``state`` to ``depth``: counted when it is small enough
    (``EXACT_COUNT_LIMIT`` internal nodes, judged by a quick estimate first), else
    estimated by ``ESTIMATE_PROBES`` of Knuth's probes. Works on a copy of ``state``."""
    work = state.copy()
    quick = estimate_levels(work, depth, QUICK_PROBES)
    if sum(quick[:-1]) <= EXACT_COUNT_LIMIT:
        try:
            return Branching(depth, tuple(float(count) for count in count_levels(work, depth, should_stop=should_stop)), True)
        except _TreeTooLarge:
            work = state.copy()  # the count was unwound mid-line
    return Branching(depth, estimate_levels(work, depth, ESTIMATE_PROBES), False, ESTIMATE_PROBES)


def minimax_nodes(levels: Sequence[float], depth: int) -> float:
    """The nodes minimax with iterative deepening visits to ``depth``: every iteration
    ``k`` visits the full-width tree to ``k`` (``levels``: its nodes per level)."""
    return sum(sum(levels[: iteration + 1]) for iteration in range(1, depth + 1))


def quick_levels(state: GameState, depth: int = MAX_DEFAULT_DEPTH) -> tuple[float, ...]:
    """``QUICK_PROBES`` of Knuth's probes of the full-width tree to ``depth``: nodes per
    level, good enough to choose a depth or to warn. Its cost grows with the depth and the
    game's move generation (chess to depth 12: ~0.1 s), so a window computes it once and
    reads every depth's estimate off it (``minimax_nodes``)."""
    return estimate_levels(state.copy(), depth, QUICK_PROBES)


def deepest_within(levels: Sequence[float], budget: int = MINIMAX_NODE_BUDGET) -> int:
    """The deepest race whose minimax is estimated (from ``levels``) at most ``budget``
    nodes. At least 1."""
    best = 1
    for depth in range(1, len(levels)):
        if levels[depth] == 0 or minimax_nodes(levels, depth) > budget:
            break  # every line has ended (deeper is the same tree), or too long
        best = depth
    return best


def extrapolated(levels: Sequence[float], depth: int) -> tuple[float, ...]:
    """``levels`` (nodes per level) carried on to ``depth``, each further level the last
    times the last level's branching factor: a warning's order of magnitude past the
    quick estimate's depth, where minimax would take hours in any case."""
    carried = list(levels) or [1.0]
    while len(carried) <= depth:
        growth = carried[-1] / carried[-2] if len(carried) > 1 and carried[-2] > 0 else 0.0
        carried.append(carried[-1] * growth)
    return tuple(carried)


def default_depth(state: GameState, budget: int = MINIMAX_NODE_BUDGET) -> int:
    """The deepest race whose minimax is estimated at most ``budget`` nodes (seconds):
    tic-tac-toe's whole game, chess 4, by a quick estimate of the tree. At least 1."""
    return deepest_within(quick_levels(state), budget)


def estimated_minimax_nodes(state: GameState, depth: int) -> float:
    """A quick estimate of the nodes minimax visits in a race to ``depth`` (a warning's
    number)."""
    return minimax_nodes(quick_levels(state, depth), depth)


# ------------------------------------------------------------------ results


@dataclass(frozen=True)
class DepthDone:
    """One entrant completed one iteration."""

    entrant: Entrant
    depth: int
    score: Score
    """The value, seen by the side to move at the root."""
    best_move: Any
    move_text: str
    value_text: str
    nodes: int
    """Nodes so far (every iteration up to this one)."""
    depth_nodes: int
    """Nodes of this iteration alone."""
    time: float
    ebf: float


@dataclass(frozen=True)
class EntrantProgress:
    """An entrant still searching: its nodes and time so far (a few times a second)."""

    entrant: Entrant
    nodes: int
    time: float


@dataclass(frozen=True)
class EntrantResult:
    """What one entrant did."""

    entrant: Entrant
    depth: int = 0
    """The deepest iteration completed (MCTS: the depth asked; its tree has no iterations)."""
    score: Score | None = None
    best_move: Any = None
    move_text: str = ""
    value_text: str = ""
    nodes: int = 0
    time: float = 0.0
    nps: float = 0.0
    ebf: float = 0.0
    """Of the last completed iteration (0 for MCTS)."""
    nodes_per_depth: tuple[int, ...] = ()
    """Index ``k``: the nodes of iteration ``k + 1`` alone."""
    scores_per_depth: tuple[Score, ...] = ()
    budget: int | None = None
    """MCTS: the node budget it was given."""
    stopped: bool = False
    """Stopped from outside before it finished (its numbers are what it had done)."""
    error: str | None = None
    """Why it has no answer: could not run, its worker died, its budget never came."""

    @property
    def finished(self) -> bool:
        return self.error is None and not self.stopped and self.score is not None


@dataclass(frozen=True)
class EntrantDone:
    """One entrant's result (finished, stopped or failed)."""

    result: EntrantResult


@dataclass(frozen=True)
class BranchingMeasured:
    branching: Branching


@dataclass(frozen=True)
class RaceResult:
    """The race: every entrant's result in the request's order, and the measured tree."""

    request: RaceRequest
    entries: tuple[EntrantResult, ...]
    branching: Branching | None = None
    game_title: str = ""
    position_text: str = ""
    side_to_move: str = ""
    stopped: bool = False

    def entry(self, entrant: Entrant) -> EntrantResult | None:
        return next((entry for entry in self.entries if entry.entrant is entrant), None)

    @property
    def reference(self) -> Entrant | None:
        """Whose values the others must return: minimax when it ran, else the first
        depth-first entrant (``None`` when there is none)."""
        for entry in self.entries:
            if entry.entrant is Entrant.MINIMAX and entry.scores_per_depth:
                return Entrant.MINIMAX
        return next((entry.entrant for entry in self.entries if entry.entrant.is_depth_first and entry.scores_per_depth), None)

    def disagreeing(self) -> tuple[Disagreement, ...]:
        """Every depth where a depth-first entrant's value differs from the reference's
        (none may: in the exact preset they all compute minimax's value)."""
        reference = self.reference
        if reference is None:
            return ()
        expected = self.entry(reference)
        assert expected is not None
        return tuple(
            Disagreement(entry.entrant, depth, own, theirs, reference)
            for entry in self.entries
            if entry.entrant is not reference and entry.entrant.is_depth_first
            for depth, (own, theirs) in enumerate(zip(entry.scores_per_depth, expected.scores_per_depth), start=1)
            if not same_value(own, theirs)
        )

    @property
    def disagreements(self) -> tuple[str, ...]:
        """``disagreeing`` in words, values in the game's unit."""
        game = games.get_game(self.request.game)
        return tuple(
            f"{found.entrant.label} returns {value_text(found.value, game)} at depth {found.depth}, "
            f"{found.reference.label} {value_text(found.expected, game)}"
            for found in self.disagreeing()
        )

    @property
    def compared_depths(self) -> int:
        """Depth-first values checked against the reference (0: nothing was compared)."""
        reference = self.reference
        expected = self.entry(reference) if reference is not None else None
        if expected is None:
            return 0
        return sum(
            min(len(entry.scores_per_depth), len(expected.scores_per_depth))
            for entry in self.entries
            if entry.entrant is not reference and entry.entrant.is_depth_first
        )

    def as_text(self) -> str:
        """The race as aligned text (copyable): the table, the nodes per depth beside the
        ``b^d`` and ``b^(d/2)`` curves, and the verdict on the values."""
        request = self.request
        lines = [
            f"Algorithm race: {self.game_title or request.game}, depth {request.depth}, exact preset"
            + (" (stopped)" if self.stopped else ""),
            f"Position: {self.position_text}" if self.position_text else "",
            f"Values for {self.side_to_move}, the side to move." if self.side_to_move else "",
        ]
        if self.branching is not None:
            how = "counted" if self.branching.exact else f"estimated from {self.branching.probes:,} random probes"
            levels = " ".join(f"{moves:.1f}" for moves in self.branching.per_level())
            lines.append(
                f"Branching factor b = {self.branching.b:.2f} (full-width tree of {self.branching.nodes:,.0f} nodes, "
                f"{how}; legal moves per level: {levels}); the curves take each depth's own b"
            )
        lines = [line for line in lines if line]
        lines.append("")
        lines.extend(table_lines(self.entries))
        lines.append("")
        lines.extend(depth_lines(self.entries, self.branching, request.depth))
        lines.append("")
        lines.extend(self.verdict_lines())
        return "\n".join(lines) + "\n"

    def verdict_lines(self) -> list[str]:
        found = self.disagreements
        reference = self.reference
        if found:
            return [f"DISAGREEMENT: {line}" for line in found]
        if reference is None:
            return ["No depth-first entrant finished an iteration: no value to compare."]
        compared = self.compared_depths
        if compared == 0:
            return [f"Only {reference.label} has values: nothing to compare."]
        lines = [f"Every depth-first entrant returns {reference.label}'s value at every depth ({compared} values compared)."]
        moves = {entry.move_text for entry in self.entries if entry.entrant.is_depth_first and entry.move_text}
        if len(moves) > 1:
            lines.append(
                f"Their best moves differ ({', '.join(sorted(moves))}): these moves tie on the value, and the "
                "order an algorithm tries them in decides which it keeps."
            )
        return lines


@dataclass(frozen=True)
class Disagreement:
    """A depth where an entrant's value is not the reference's (a bug, or a switch that
    changes the value left on)."""

    entrant: Entrant
    depth: int
    value: Score
    expected: Score
    reference: Entrant


def same_value(first: Score, second: Score) -> bool:
    """Whether two searched values are the same (a proven result by its length too)."""
    return first.value == second.value and first.win_in_plies == second.win_in_plies


TABLE_HEADINGS: Final = ("entrant", "value", "best move", "depth", "nodes", "time s", "nodes/s", "EBF")


def row_cells(entry: EntrantResult) -> tuple[str, ...]:
    """The table's cells of one entrant (the GUI's table shows the same text)."""
    name = entry.entrant.label
    if entry.budget is not None:
        name += f" ({entry.budget:,} nodes)"
    if entry.error is not None:
        return (name, "—", "—", "—", f"{entry.nodes:,}" if entry.nodes else "—", "—", "—", entry.error)
    depth = "—" if entry.entrant is Entrant.MCTS else str(entry.depth) + (" (stopped)" if entry.stopped else "")
    value = entry.value_text or "—"
    if entry.entrant is Entrant.MCTS and entry.score is not None and not entry.score.is_win:
        value = f"{value} (mean)"
    return (
        name,
        value,
        entry.move_text or "—",
        depth,
        f"{entry.nodes:,}",
        f"{entry.time:.2f}",
        f"{entry.nps:,.0f}",
        f"{entry.ebf:.2f}" if entry.ebf else "—",
    )


NUMERIC_COLUMNS: Final = frozenset({3, 4, 5, 6, 7})
"""Columns aligned to the right (numbers)."""


def aligned(rows: Sequence[Sequence[str]], numeric: Iterable[int]) -> list[str]:
    """``rows`` as lines of columns two spaces apart, ``numeric`` ones right-aligned."""
    right = set(numeric)
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    return [
        "  ".join(
            cell.rjust(width) if column in right else cell.ljust(width)
            for column, (cell, width) in enumerate(zip(row, widths))
        ).rstrip()
        for row in rows
    ]


def table_lines(entries: Sequence[EntrantResult]) -> list[str]:
    return aligned([TABLE_HEADINGS, *(row_cells(entry) for entry in entries)], NUMERIC_COLUMNS)


def depth_lines(entries: Sequence[EntrantResult], branching: Branching | None, depth: int) -> list[str]:
    """Nodes of each iteration alone per depth-first entrant, beside ``b^d`` and ``b^(d/2)``."""
    columns = [entry for entry in entries if entry.entrant.is_depth_first]
    headings = ["depth", *(entry.entrant.label for entry in columns)]
    if branching is not None:
        headings += ["b^d", "b^(d/2)"]
    rows = [headings]
    for level in range(1, depth + 1):
        row = [str(level)]
        for entry in columns:
            row.append(f"{entry.nodes_per_depth[level - 1]:,}" if level <= len(entry.nodes_per_depth) else "—")
        if branching is not None:
            row += [f"{branching.curve(level):,.0f}", f"{branching.curve(level, 0.5):,.0f}"]
        rows.append(row)
    title = "Nodes per depth (each iteration alone)"
    return [title, *aligned(rows, range(len(headings)))]


@dataclass(frozen=True)
class RaceDone:
    result: RaceResult


RaceEvent = DepthDone | EntrantProgress | EntrantDone | BranchingMeasured | RaceDone
RaceCallback = Callable[[RaceEvent], None]


# ------------------------------------------------------------------ the worker process


@dataclass(frozen=True)
class _Job:
    """One entrant's search, or the measurement of the tree (``entrant`` ``None``)."""

    index: int
    entrant: Entrant | None
    game: str
    position: str | None
    moves: tuple[str, ...]
    settings: SearchSettings
    limits: Limits


_READY: Final = "ready"
_EVENT: Final = "event"
_DONE: Final = "done"
_QUIT: Final = "quit"
IDLE_POLL_SECONDS: Final = 0.25
"""How often an idle worker looks whether its parent still lives."""
PARENT_CHECK_SECONDS: Final = 0.1
"""During a search, how often a worker looks whether its parent still lives."""


def race_worker(connection: multiprocessing.connection.Connection, stop_flag: Any) -> None:
    """The process target: run jobs from ``connection`` until told to quit, the pipe
    closes, or the parent dies. ``stop_flag[0]`` set means stop the search under way."""
    for name in ("SIGINT", "SIGTERM", "SIGHUP"):  # the program decides; the race kills with SIGKILL
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_IGN)
    parent = multiprocessing.parent_process()

    def parent_alive() -> bool:
        return parent is None or parent.is_alive()

    try:
        connection.send((_READY,))
        while True:
            if not connection.poll(IDLE_POLL_SECONDS):
                if not parent_alive():
                    return
                continue
            job = connection.recv()
            if job == _QUIT:
                return
            _run_job(job, connection, stop_flag, parent_alive)
    except (EOFError, BrokenPipeError, ConnectionResetError, KeyboardInterrupt):
        pass  # the race is gone or going
    finally:
        connection.close()


def _run_job(
    job: _Job, connection: multiprocessing.connection.Connection, stop_flag: Any, parent_alive: Callable[[], bool]
) -> None:
    next_check = time.monotonic() + PARENT_CHECK_SECONDS

    def should_stop() -> bool:
        nonlocal next_check
        if stop_flag[0]:
            return True
        now = time.monotonic()
        if now < next_check:
            return False
        next_check = now + PARENT_CHECK_SECONDS
        return not parent_alive()

    def on_event(event: SearchEvent) -> None:
        if isinstance(event, (Iteration, Progress)):
            connection.send((_EVENT, job.index, event))

    try:
        state = engine.build_state(SearchRequest(game=job.game, position=job.position, moves=job.moves))
        if job.entrant is None:
            assert job.limits.depth is not None
            answer: Finished | Branching | str = measure_branching(state, job.limits.depth, should_stop)
        else:
            # A table of its own (``shared=None``), emptied when it returns: nothing carries over.
            answer = engine.search(state, job.settings, job.limits, on_event=on_event, should_stop=should_stop)
    except ValueError as error:
        answer = str(error)
    except Exception as error:  # a bug: say what it was, keep serving
        last = traceback.extract_tb(error.__traceback__)[-1]
        answer = f"{type(error).__name__}: {error} ({last.filename.rsplit('/', 1)[-1]}:{last.lineno})"
    connection.send((_DONE, job.index, answer))


# ------------------------------------------------------------------ the race


STOP_GRACE_SECONDS: Final = 3.0
"""A worker still searching this long after a stop is killed."""
QUIT_SECONDS: Final = 2.0
"""How long a worker has to exit after it is told to quit, before it is killed."""
TICK_SECONDS: Final = 0.05
"""How often the race's thread looks at the stop request and the clock."""


@dataclass
class _Worker:
    process: Any
    connection: Any
    job: _Job | None = None
    dead: bool = False


@dataclass
class _Entry:
    """The race's record of one entrant while it runs."""

    entrant: Entrant
    depths: list[DepthDone] = field(default_factory=list)
    nodes_seen: int = 0
    result: EntrantResult | None = None


class Race:
    """One race: ``start`` it, receive its events on the race's thread through
    ``on_event``, ``stop`` it at any time; ``result`` once it is over (``wait``)."""

    def __init__(self, request: RaceRequest, on_event: RaceCallback | None = None) -> None:
        self.request = request
        self.state = prepare_race(request)  # a bad request fails here, before any process
        self.game = type(self.state)
        self._on_event = on_event
        self._stop_requested = threading.Event()
        self._done = threading.Event()
        self._thread: threading.Thread | None = None
        self._entries = {entrant: _Entry(entrant) for entrant in request.entrants}
        self._branching: Branching | None = None
        self.result: RaceResult | None = None
        self.worker_pids: tuple[int, ...] = ()
        """The worker processes' ids once started (tests and diagnostics)."""

    # ------------------------------------------------------------ public
    def start(self) -> None:
        """Start the race on its own thread (returns at once)."""
        if self._thread is not None:
            raise RuntimeError("a race runs once")
        self._thread = threading.Thread(target=self._run, name="algorithm-race", daemon=True)
        self._thread.start()
        _open_races.add(self)

    def stop(self) -> None:
        """Stop every search (returns at once); the race then ends with what it has."""
        self._stop_requested.set()

    def wait(self, timeout: float | None = None) -> RaceResult | None:
        """The result, once the race is over and its processes are gone (``None`` after
        ``timeout`` seconds)."""
        self._done.wait(timeout)
        return self.result

    @property
    def is_running(self) -> bool:
        return self._thread is not None and not self._done.is_set()

    # ------------------------------------------------------------ the race's thread
    def _run(self) -> None:
        context = multiprocessing.get_context("spawn")
        stop_flag = context.RawArray("b", 1)
        workers: list[_Worker] = []
        tracker.pool_started()
        try:
            jobs = self._jobs()
            pending = [job for job in jobs if job.entrant is not Entrant.MCTS or job.limits.nodes is not None]
            waiting = [job for job in jobs if job not in pending]  # MCTS waits for its budget
            count = max(1, min(self.request.workers or available_cores(), len(jobs)))
            for _ in range(count):
                workers.append(self._spawn(context, stop_flag))
            self.worker_pids = tuple(worker.process.pid for worker in workers)
            self._serve(context, stop_flag, workers, pending, waiting)
        except Exception as error:  # a bug in the race: the caller still gets its RaceDone
            traceback.print_exc()
            reason = f"the race failed: {type(error).__name__}: {(str(error).strip().splitlines() or [''])[0]}"
            for entry in self._entries.values():
                if entry.result is None:
                    entry.result = EntrantResult(entry.entrant, error=reason)
        finally:
            _end_workers(workers)
            tracker.pool_ended()
            self.result = self._result()
            self._deliver(RaceDone(self.result))
            self._done.set()
            _open_races.discard(self)

    def _jobs(self) -> list[_Job]:
        request = self.request
        jobs = []
        for index, entrant in enumerate(request.entrants):
            settings = entrant_settings(entrant, request.settings)
            if entrant is Entrant.MCTS:
                limits = Limits(nodes=request.mcts_nodes)
            else:
                limits = Limits(depth=request.depth)
            jobs.append(_Job(index, entrant, request.game, request.position, request.moves, settings, limits))
        measuring = _Job(len(jobs), None, request.game, request.position, request.moves, SearchSettings(), Limits(depth=request.depth))
        # Minimax first (the longest), the tree's measure next (the chart's curves), then the rest.
        return jobs[:1] + [measuring] + jobs[1:]

    def _spawn(self, context: Any, stop_flag: Any) -> _Worker:
        parent_end, child_end = context.Pipe(duplex=True)
        process = context.Process(target=race_worker, args=(child_end, stop_flag), name="plyground-race", daemon=True)
        with tracker.quiet_relaunch():
            process.start()
        child_end.close()
        return _Worker(process, parent_end)

    def _serve(
        self, context: Any, stop_flag: Any, workers: list[_Worker], pending: list[_Job], waiting: list[_Job]
    ) -> None:
        stop_at: float | None = None
        while True:
            if self._stop_requested.is_set() and stop_at is None:
                stop_at = time.monotonic()
                stop_flag[0] = 1
                for job in pending + waiting:
                    self._not_run(job, "stopped before it started")
                pending.clear()
                waiting.clear()
            for job in list(waiting):
                budget = self._budget()
                if budget is not None:
                    waiting.remove(job)
                    if budget > 0:
                        pending.append(dataclasses.replace(job, limits=Limits(nodes=budget)))
                    else:
                        source = self.request.budget_source()
                        name = source.label if source is not None else "its budget's entrant"
                        self._not_run(job, f"not run: its budget is {name}'s node count, and {name} did not finish")
            for worker in workers:
                if not pending:
                    break
                if worker.job is None and not worker.dead:
                    job = pending.pop(0)
                    worker.job = job
                    try:
                        worker.connection.send(job)
                    except (OSError, ValueError):
                        self._worker_died(worker)
            busy = [worker for worker in workers if worker.job is not None and not worker.dead]
            if not busy and not pending and not waiting:
                return
            if not any(not worker.dead for worker in workers):
                if stop_at is not None:
                    return
                workers.append(self._spawn(context, stop_flag))  # every worker died: a fresh one
                self.worker_pids = tuple(worker.process.pid for worker in workers if not worker.dead)
                continue
            watched: list[Any] = []
            for worker in workers:
                if not worker.dead:
                    watched += [worker.connection, worker.process.sentinel]
            ready = multiprocessing.connection.wait(watched, TICK_SECONDS)
            for worker in workers:
                if worker.dead:
                    continue
                if worker.connection in ready:
                    self._read(worker)
                if not worker.dead and worker.process.sentinel in ready:
                    self._read(worker)  # what it said before it died
                    if not worker.dead:
                        self._worker_died(worker)
            if stop_at is not None and time.monotonic() > stop_at + STOP_GRACE_SECONDS:
                for worker in workers:
                    if worker.job is not None and not worker.dead:
                        worker.process.kill()
                        self._worker_died(worker)

    def _read(self, worker: _Worker) -> None:
        try:
            while worker.connection.poll():
                message = worker.connection.recv()
                self._handle(worker, message)
        except (EOFError, OSError):
            self._worker_died(worker)

    def _handle(self, worker: _Worker, message: tuple[Any, ...]) -> None:
        kind = message[0]
        if kind == _READY or worker.job is None:
            return
        job = worker.job
        payload = message[2]
        if kind == _EVENT:
            if job.entrant is not None:
                self._search_event(self._entries[job.entrant], payload)
        elif kind == _DONE:
            worker.job = None
            if job.entrant is None:
                if isinstance(payload, Branching):
                    self._branching = payload
                    self._deliver(BranchingMeasured(payload))
            else:
                self._finished(self._entries[job.entrant], job, payload)

    def _search_event(self, entry: _Entry, event: SearchEvent) -> None:
        if isinstance(event, Progress):
            self._deliver(EntrantProgress(entry.entrant, event.nodes, event.time))
        elif isinstance(event, Iteration) and entry.entrant.is_depth_first and event.bound is Bound.EXACT:
            done = DepthDone(
                entrant=entry.entrant,
                depth=event.depth,
                score=event.score,
                best_move=event.pv[0] if event.pv else None,
                move_text=self.state.move_name(event.pv[0]) if event.pv else "",
                value_text=value_text(event.score, self.game),
                nodes=event.nodes,
                depth_nodes=event.nodes - entry.nodes_seen,
                time=event.time,
                ebf=event.ebf,
            )
            entry.nodes_seen = event.nodes
            entry.depths.append(done)
            self._deliver(done)

    def _finished(self, entry: _Entry, job: _Job, answer: Finished | str) -> None:
        if isinstance(answer, str) or answer.error is not None:
            entry.result = EntrantResult(entry.entrant, error=answer if isinstance(answer, str) else answer.error)
        else:
            # MCTS ends at its node budget, which stops it: that is its finish, not a stop.
            stopped = answer.stopped and (entry.entrant.is_depth_first or self._stop_requested.is_set())
            entry.result = self._record(entry, job, answer, answer.nodes, answer.time, answer.nps, stopped)
        self._deliver(EntrantDone(entry.result))

    def _record(
        self, entry: _Entry, job: _Job, answer: Finished | None, nodes: int, seconds: float, nps: float, stopped: bool
    ) -> EntrantResult:
        """``entry``'s result: a depth-first entrant's value and move are its last completed
        iteration's (an interrupted one proves nothing), MCTS's its answer's."""
        last = entry.depths[-1] if entry.depths else None
        if entry.entrant.is_depth_first or answer is None:
            depth = last.depth if last else 0
            score, move = (last.score, last.best_move) if last else (None, None)
        else:
            depth, score, move = self.request.depth, answer.score, answer.best_move
        return EntrantResult(
            entrant=entry.entrant,
            depth=depth,
            score=score,
            best_move=move,
            move_text="" if move is None else self.state.move_name(move),
            value_text="" if score is None else value_text(score, self.game),
            nodes=nodes,
            time=seconds,
            nps=nps,
            ebf=last.ebf if last is not None else 0.0,
            nodes_per_depth=tuple(done.depth_nodes for done in entry.depths),
            scores_per_depth=tuple(done.score for done in entry.depths),
            budget=job.limits.nodes if entry.entrant is Entrant.MCTS else None,
            stopped=stopped,
        )

    def _not_run(self, job: _Job, reason: str) -> None:
        if job.entrant is None:
            return
        entry = self._entries[job.entrant]
        entry.result = EntrantResult(job.entrant, error=reason)
        self._deliver(EntrantDone(entry.result))

    def _worker_died(self, worker: _Worker) -> None:
        if worker.dead:
            return
        worker.dead = True
        worker.process.join(QUIT_SECONDS)
        code = worker.process.exitcode
        worker.connection.close()
        job, worker.job = worker.job, None
        if job is None:
            return
        how = f"killed by signal {-code}" if code is not None and code < 0 else f"exited with status {code}"
        if job.entrant is None:
            return  # the curves are missing; the race goes on
        entry = self._entries[job.entrant]
        if self._stop_requested.is_set():
            self._finished_after_stop(entry, job)
        else:
            entry.result = EntrantResult(
                entry.entrant,
                nodes=entry.nodes_seen,
                nodes_per_depth=tuple(done.depth_nodes for done in entry.depths),
                scores_per_depth=tuple(done.score for done in entry.depths),
                error=f"its worker process died ({how})",
            )
            self._deliver(EntrantDone(entry.result))

    def _finished_after_stop(self, entry: _Entry, job: _Job) -> None:
        """An entrant whose worker was killed after a stop: what its iterations showed."""
        last = entry.depths[-1] if entry.depths else None
        seconds = last.time if last else 0.0
        nps = entry.nodes_seen / seconds if seconds > 0 else 0.0
        entry.result = self._record(entry, job, None, entry.nodes_seen, seconds, nps, stopped=True)
        self._deliver(EntrantDone(entry.result))

    def _budget(self) -> int | None:
        """MCTS's budget once it is known: the source's nodes (0: the source did not
        finish, so MCTS will not run); ``None`` while the source still searches."""
        source = self.request.budget_source()
        if source is None:
            return self.request.mcts_nodes or 0
        result = self._entries[source].result
        if result is None:
            return None
        return result.nodes if result.finished else 0

    def _deliver(self, event: RaceEvent) -> None:
        if self._on_event is None:
            return
        try:
            self._on_event(event)
        except Exception:  # the caller's bug must not end the race
            traceback.print_exc()

    def _result(self) -> RaceResult:
        entries = []
        for entrant in self.request.entrants:
            entry = self._entries[entrant]
            entries.append(entry.result or EntrantResult(entrant, error="not run"))
        state = self.state
        return RaceResult(
            request=self.request,
            entries=tuple(entries),
            branching=self._branching,
            game_title=self.game.NAME,
            position_text=state.to_text(),
            side_to_move=self.game.PLAYER_NAMES[state.to_move()],
            stopped=self._stop_requested.is_set(),
        )


def _end_workers(workers: Sequence[_Worker]) -> None:
    """Tell every worker to quit, wait a little, kill what remains."""
    for worker in workers:
        if not worker.dead:
            try:
                worker.connection.send(_QUIT)
            except (OSError, ValueError):
                pass
    deadline = time.monotonic() + QUIT_SECONDS
    for worker in workers:
        worker.process.join(max(0.0, deadline - time.monotonic()))
        if worker.process.is_alive():
            worker.process.kill()
            worker.process.join(QUIT_SECONDS)
        if not worker.dead:
            worker.connection.close()
            worker.dead = True


def run_race(
    request: RaceRequest, on_event: RaceCallback | None = None, should_stop: Callable[[], bool] | None = None
) -> RaceResult:
    """Run ``request`` to its end on this thread (the command line): events go to
    ``on_event`` on the race's thread; ``should_stop`` is asked every tick and, once true,
    stops the race, which then answers with what it has."""
    race = Race(request, on_event)
    race.start()
    stopping = False
    while race.wait(TICK_SECONDS) is None:
        if not stopping and should_stop is not None and should_stop():
            race.stop()
            stopping = True
    assert race.result is not None
    return race.result


_open_races: set[Race] = set()
"""Races still running: stopped when the program exits, so no worker outlives it."""


def _stop_open_races() -> None:
    for race in list(_open_races):
        race.stop()
    for race in list(_open_races):
        race.wait(STOP_GRACE_SECONDS + QUIT_SECONDS * 2)


atexit.register(_stop_open_races)

__all__ = [
    "ALL_ENTRANTS",
    "ENTRANTS",
    "Branching",
    "BranchingMeasured",
    "DepthDone",
    "Disagreement",
    "Entrant",
    "EntrantDone",
    "EntrantProgress",
    "EntrantResult",
    "EntrantSpec",
    "Race",
    "RaceDone",
    "RaceEvent",
    "RaceRequest",
    "RaceResult",
    "deepest_within",
    "default_depth",
    "entrant_settings",
    "estimated_minimax_nodes",
    "extrapolated",
    "measure_branching",
    "minimax_nodes",
    "parse_entrants",
    "prepare_race",
    "quick_levels",
    "run_race",
]
