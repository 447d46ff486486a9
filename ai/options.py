"""The search options: one row per switch of ``SearchSettings``, and all that derives from it.

A search is configured by ``ai.settings.SearchSettings`` (the typed record a request carries
to a worker). Everything else a switch needs is written once, in its row of ``OPTIONS``:

* what values it takes (its type and default come from ``SearchSettings``; its ``Range`` or
  its choices here) — the one validation that the command line, match specs, UCI
  ``setoption``, the app's settings file and the engine itself apply;
* how each front end names it: the CLI flag and help, the UCI option, the GUI label and
  tooltip (``ai.cli``, ``ai.uci`` and the app's settings panel build their options from the
  rows);
* which algorithms read it and which ability of the game it needs (a Protocol of
  ``games.capabilities``): what the app greys out and leaves out of the settings line;
* its ``Effect``: whether it can change the value a search returns (forward pruning,
  quiescence, extensions, the exact solver) or only the effort spent finding it (ordering,
  the table, aspiration windows, threads). The ``exact`` preset switches off every row of
  the first kind, and then alpha-beta, PVS and MTD(f) return minimax's value; the table's
  ``tree_signature`` is those rows' values, so a transposition table filled under other
  values is cleared rather than trusted.

A new switch is a field of ``SearchSettings``, a row here and the code that uses it; a test
walks every row through the settings, the CLI, UCI and the settings line.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any, Final

from games.base import GameState
from games.capabilities import SELECTIVE_NEEDS, SELECTIVE_SWITCHES, ExactSolver, SelectiveSwitch, declares, takes_selective

from ai.cores import available_cores
from ai.scores import MAX_PLY
from ai.search import ALGORITHMS, uses_quiescence
from ai.settings import Limits, SearchSettings, SettingError

# ------------------------------------------------------------------ vocabulary


class Effect(enum.Enum):
    """What turning a switch can do to a search's answer."""

    VALUE = "value"
    """It can change the value returned at a given depth: it prunes moves unsearched, extends
    or shortens lines, searches past the horizon or replaces EVAL with an exact solve. The
    ``exact`` preset turns every such switch off."""
    EFFORT = "effort"
    """It changes only the work done to find the same value: move ordering, the
    transposition table, aspiration windows, iterative deepening, threads, the number of
    best lines reported beside the best move (MultiPV)."""
    DEFINITION = "definition"
    """It says what is computed, not how hard: the algorithm, the evaluation (weights,
    network), MCTS's sampling, the opening book. No preset changes these."""


class Group(enum.Enum):
    """Where the app's settings panel shows a switch."""

    GENERAL = "general"
    """Beside the algorithm: threads and the opening book."""
    ENHANCEMENTS = "Search enhancements"
    """The depth-first and chance algorithms' enhancements."""
    MCTS = "Monte Carlo tree search"
    """MCTS's own parameters."""
    FILES = "files"
    """Files named on the command line, in match specs and UCI (not in the panel)."""


DEPTH_FIRST: Final = ("minimax", "alphabeta", "pvs", "mtdf")
WINDOWED: Final = ("alphabeta", "pvs")
"""The algorithms that search with an aspiration window (MTD(f) makes its own guesses;
minimax ignores windows)."""
ENHANCED: Final = ("alphabeta", "pvs", "mtdf")
"""The algorithms that use the transposition table and move ordering (plain minimax is the
reference without them)."""
CHANCE_FAMILY: Final = ("expectiminimax", "star1", "star2")
MCTS_ONLY: Final = ("mcts",)

MAX_HASH_MB: Final = 4096
"""Transposition table sizes accepted, in MB (the table is allocated up front)."""
MAX_SOLVER_REACH: Final = 64
"""An Othello board has 64 squares (and a checkers board fewer pieces): a larger solver
reach means nothing."""
MAX_SEED: Final = 2**64 - 1
MAX_NODES: Final = 2**63 - 1
MAX_MULTIPV: Final = 5
"""The most best lines a search reports: each costs about one more root search, and a
panel shows five lines at a glance."""
PLAYOUTS: Final = ("random", "eval")
BOOLEAN_WORDS: Final = {"on": True, "true": True, "yes": True, "1": True, "off": False, "false": False, "no": False, "0": False}
"""The words a switch may be written with (an option's value, a match spec, a settings file)."""


# ------------------------------------------------------------------ ranges
@dataclass(frozen=True)
class Range:
    """The numbers a setting may take: ``kind`` (int or float), ``low``..``high``
    (``high`` may be a function, asked when a value is checked), ``low`` itself excluded
    when ``positive``. Every float must be finite."""

    kind: type
    low: float
    high: float | Callable[[], int] = math.inf
    unit: str = ""
    positive: bool = False

    def upper(self) -> float:
        return self.high() if callable(self.high) else self.high

    def describe(self) -> str:
        unit = f" {self.unit}" if self.unit else ""
        if self.kind is int:
            return f"a whole number in {self.low}..{int(self.upper())}{unit}"
        if self.positive:
            return "a positive number"
        return f"a finite number {self.low:g} or more"

    def problem(self, value: object) -> str | None:
        """Why ``value`` is not in the range (``None`` when it is)."""
        shown = _shown(value)
        if self.kind is int:
            if isinstance(value, bool) or not isinstance(value, int):
                return f"{shown!r} is not {self.describe()}"
            high = int(self.upper())
            if not self.low <= value <= high:
                unit = f" {self.unit}" if self.unit else ""
                return f"{shown} is out of range {self.low}..{high}{unit}"
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return f"{shown!r} is not a number"
        finite = value < math.inf and value > -math.inf  # NaN fails both comparisons
        inside = value > self.low if self.positive else value >= self.low
        if not (finite and inside and value <= self.upper()):
            return f"must be {self.describe()}, not {shown}"
        return None


# ------------------------------------------------------------------ what a game must have
@dataclass(frozen=True)
class Requirement:
    """What a game must have for a switch to do anything there (else the switch is off
    whatever the settings say, and the app greys it out saying ``reason``)."""

    capabilities: tuple[type, ...] = ()
    """The abilities (``games.capabilities``) the game must declare."""
    listed: bool = False
    """A selective switch: the game must also list it in ``SELECTIVE_SEARCH`` (it is taken
    only where a measurement showed that it pays); ``games.capabilities.takes_selective``
    is the rule."""
    writes: str | None = None
    """A ``GameState`` method the game must write itself (the protocol's default does
    nothing: ``noisy_moves`` is empty)."""
    reason: str = "{game} does not use it"
    """Why the switch is off for a game without it (``{game}``: the game's title)."""

    def is_met_by(self, game: type[GameState], name: str) -> bool:
        if self.listed:
            return name in SELECTIVE_SWITCHES and takes_selective(game, name)
        if not all(declares(game, capability) for capability in self.capabilities):
            return False
        return self.writes is None or getattr(game, self.writes) is not getattr(GameState, self.writes)


@dataclass(frozen=True)
class Dependency:
    """Another setting a switch needs (aspiration needs iterative deepening)."""

    holds: Callable[[SearchSettings], bool]
    reason: str
    """Why the switch does nothing without it, as the app's tooltip says."""


SettingsText = Callable[[SearchSettings, "type[GameState]"], "str | None"]
"""A row's part of the settings line, or ``None`` when it adds nothing."""


# ------------------------------------------------------------------ the row
@dataclass(frozen=True)
class Option:
    """One switch of ``SearchSettings``: its values, its names in every front end, what it
    needs and what it can change."""

    name: str
    """The ``SearchSettings`` field (also its name in match specs and the settings file)."""
    effect: Effect
    label: str
    """The app's label."""
    tooltip: str
    """The app's tooltip: what the switch does, in one line."""
    group: Group
    cli_help: str
    """The command line's help (of the flag that sets the value, or of the ``--no-`` flag
    that turns a default-on switch off)."""
    uci_name: str
    """The UCI option (``setoption name <uci_name> value ...``)."""
    flag: str | None = None
    """The command-line flag that sets the value (or turns a switch on)."""
    off_flag: str | None = None
    """The command-line flag that turns a switch off."""
    on_help: str = ""
    """Help of ``flag`` for a switch that has both flags (``--book`` / ``--no-book``)."""
    metavar: str | None = None
    range: Range | None = None
    choices: Callable[[], tuple[str, ...]] | None = None
    """The words a text setting may be (asked when needed: the algorithm registry)."""
    choice_noun: str = ""
    """How an error names what a setting with choices is (``an algorithm``)."""
    file_noun: str = ""
    """For a setting that names a file: how errors call the file (``weights file``)."""
    file_words: tuple[str, ...] = ()
    """Words such a setting takes instead of a file (``off``)."""
    uci_switch: tuple[object, object] | None = None
    """A UCI ``check`` standing for two values of a text setting: (value when true, value
    when false)."""
    uci_max: int | None = None
    """The largest value UCI offers when it is below the range's top."""
    used_by: tuple[str, ...] | None = None
    """The algorithms that read the switch (``None``: every algorithm)."""
    requires: Requirement | None = None
    depends: tuple[Dependency, ...] = ()
    text: SettingsText | None = None
    """Its part of the settings line (the app's engine panel)."""

    @property
    def default(self) -> Any:
        return getattr(_defaults(), self.name)

    @property
    def type(self) -> type:
        """The type of its values: ``bool``, ``int``, ``float`` or ``str`` (a switch that
        may also be ``None``, quiescence, is a ``bool``)."""
        default = self.default
        return bool if default is None else type(default)

    @property
    def is_optional(self) -> bool:
        """Whether ``None`` is a value (quiescence: the algorithm's own default)."""
        return self.default is None

    def allowed_choices(self) -> tuple[str, ...] | None:
        return None if self.choices is None else self.choices()

    def exact_value(self) -> object:
        """Its value in the ``exact`` preset: off (only asked of ``Effect.VALUE`` rows)."""
        if self.type is bool:
            return False
        assert self.range is not None, f"{self.name}: a value-changing number needs a range with 0 = off"
        return self.type(self.range.low)


@functools.cache
def _defaults() -> SearchSettings:
    return SearchSettings()


def _algorithm_names() -> tuple[str, ...]:
    return tuple(ALGORITHMS)


def _playouts() -> tuple[str, ...]:
    return PLAYOUTS


def _algorithm_text(settings: SearchSettings, _game: type[GameState]) -> str:
    spec = ALGORITHMS.get(settings.algorithm)
    return spec.summary if spec else settings.algorithm


def _deepening_text(settings: SearchSettings, _game: type[GameState]) -> str:
    return "iterative deepening" if settings.iterative_deepening else "fixed depth"


def _aspiration_text(settings: SearchSettings, _game: type[GameState]) -> str | None:
    if settings.iterative_deepening and settings.aspiration:
        return f"aspiration ±{settings.aspiration_window:g}"
    return None


def _table_text(settings: SearchSettings, _game: type[GameState]) -> str:
    return f"TT {settings.tt_megabytes} MB" if settings.transposition_table else "no TT"


def _ordering_text(settings: SearchSettings, _game: type[GameState]) -> str:
    if not settings.move_ordering:
        return "no ordering"
    extras = [name for name, on in (("killers", settings.killers), ("history", settings.history)) if on]
    return "ordering" + (f" ({', '.join(extras)})" if extras else "")


def _quiescence_text(settings: SearchSettings, _game: type[GameState]) -> str | None:
    return "quiescence" if uses_quiescence(settings) else None


def _switch_text(name: str, words: str) -> SettingsText:
    def text(settings: SearchSettings, _game: type[GameState]) -> str | None:
        return words if getattr(settings, name) else None

    return text


def _solver_text(settings: SearchSettings, game: type[GameState]) -> str | None:
    if not settings.solver_empties:
        return None
    words, unit = game.SOLVER_WORDS  # Othello's solver at empties, checkers' databases at pieces
    reach = min(settings.solver_empties, game.SOLVER_REACH or settings.solver_empties)
    return f"{words[0].lower()}{words[1:]} {reach} {unit}"


def _playout_text(settings: SearchSettings, _game: type[GameState]) -> str:
    return "random playouts" if settings.playout == "random" else f"EVAL playouts ({settings.playout_depth} plies)"


def _threads_text(settings: SearchSettings, _game: type[GameState]) -> str:
    # A compiled search runs its threads as its own threads in one worker (ai.parallel).
    return f"{settings.threads} thread{'s' if settings.threads != 1 else ''}"


def _multipv_text(settings: SearchSettings, _game: type[GameState]) -> str | None:
    return f"{settings.multipv} best lines" if settings.multipv > 1 else None


def _selective(name: SelectiveSwitch) -> Requirement:
    return Requirement(SELECTIVE_NEEDS[name], listed=True)


NEEDS_DEEPENING = Dependency(lambda settings: settings.iterative_deepening, "needs iterative deepening")
NEEDS_ORDERING = Dependency(lambda settings: settings.move_ordering, "move ordering is off")

# ------------------------------------------------------------------ THE TABLE
OPTIONS: Final[tuple[Option, ...]] = (
    Option(
        "algorithm", Effect.DEFINITION, "Algorithm", "The search algorithm (only those that suit the game are offered)",
        Group.GENERAL,
        cli_help="one of: {choices} (default: the game's own, e.g. star2 for dice games)",
        uci_name="Algorithm", flag="--algorithm", choices=_algorithm_names, choice_noun="an algorithm",
        text=_algorithm_text,
    ),
    Option(
        "iterative_deepening", Effect.EFFORT, "Iterative deepening", "Search depth 1, 2, 3, ... reusing each result",
        Group.ENHANCEMENTS,
        cli_help="without iterative deepening: search the depth at once",
        uci_name="IterativeDeepening", off_flag="--no-iterative-deepening",
        used_by=(*DEPTH_FIRST, *CHANCE_FAMILY), text=_deepening_text,
    ),
    Option(
        "aspiration", Effect.EFFORT, "Aspiration windows", "Search each iteration in a window round the last score",
        Group.ENHANCEMENTS,
        cli_help="without aspiration windows",
        uci_name="Aspiration", off_flag="--no-aspiration",
        used_by=WINDOWED, depends=(NEEDS_DEEPENING,), text=_aspiration_text,
    ),
    Option(
        "aspiration_window", Effect.EFFORT, "Aspiration half-width",
        "Half-width of the first aspiration window, in the game's evaluation units",
        Group.ENHANCEMENTS,
        cli_help="half-width of the first aspiration window, in evaluation units",
        uci_name="AspirationWindow", flag="--aspiration-window", metavar="UNITS", range=Range(float, 0.0, positive=True),
        used_by=WINDOWED,
        depends=(NEEDS_DEEPENING, Dependency(lambda settings: settings.aspiration, "aspiration is off")),
    ),
    Option(
        "transposition_table", Effect.EFFORT, "Transposition table", "Remember positions already searched",
        Group.ENHANCEMENTS,
        cli_help="without the transposition table",
        uci_name="TranspositionTable", off_flag="--no-tt", used_by=ENHANCED, text=_table_text,
    ),
    Option(
        "tt_megabytes", Effect.EFFORT, "Table size", "The transposition table's size in MB",
        Group.ENHANCEMENTS,
        cli_help=f"transposition table size, 1..{MAX_HASH_MB} MB",
        uci_name="Hash", flag="--hash", metavar="MB", range=Range(int, 1, MAX_HASH_MB, "MB"), uci_max=1024,
        used_by=ENHANCED, depends=(Dependency(lambda settings: settings.transposition_table, "the table is off"),),
    ),
    Option(
        "move_ordering", Effect.EFFORT, "Move ordering", "Table move, captures (MVV-LVA), killers, history first",
        Group.ENHANCEMENTS,
        cli_help="without move ordering (table move, captures, killers, history: all off)",
        uci_name="MoveOrdering", off_flag="--no-ordering", used_by=ENHANCED, text=_ordering_text,
    ),
    Option(
        "killers", Effect.EFFORT, "Killer moves", "Quiet moves that cut off at the same ply",
        Group.ENHANCEMENTS,
        cli_help="without the killer-move heuristic",
        uci_name="Killers", off_flag="--no-killers", used_by=ENHANCED, depends=(NEEDS_ORDERING,),
    ),
    Option(
        "history", Effect.EFFORT, "History heuristic", "Quiet moves that cut off anywhere",
        Group.ENHANCEMENTS,
        cli_help="without the history heuristic",
        uci_name="History", off_flag="--no-history", used_by=ENHANCED, depends=(NEEDS_ORDERING,),
    ),
    Option(
        "quiescence", Effect.VALUE, "Quiescence search", "Search noisy moves (captures) past the depth limit",
        Group.ENHANCEMENTS,
        cli_help="search noisy moves (captures) beyond the depth (default: the algorithm's own, "
        "on for all but plain minimax)",
        uci_name="Quiescence", flag="--quiescence", off_flag="--no-quiescence", used_by=DEPTH_FIRST,
        requires=Requirement(writes="noisy_moves", reason="{game} has no noisy moves"), text=_quiescence_text,
    ),
    Option(
        "check_extensions", Effect.VALUE, "Check extensions", "Search one ply deeper after a check",
        Group.ENHANCEMENTS,
        cli_help="without check extensions (chess)",
        uci_name="CheckExtensions", off_flag="--no-check-extensions", used_by=DEPTH_FIRST,
        requires=_selective("check_extensions"), text=_switch_text("check_extensions", "check ext."),
    ),
    Option(
        "null_move", Effect.VALUE, "Null move", "Pass to prove a position is too good (R = 2)",
        Group.ENHANCEMENTS,
        cli_help="without null-move pruning (chess)",
        uci_name="NullMove", off_flag="--no-null-move", used_by=DEPTH_FIRST,
        requires=_selective("null_move"), text=_switch_text("null_move", "null move"),
    ),
    Option(
        "late_move_reductions", Effect.VALUE, "Late move reductions", "Search late quiet moves less deep",
        Group.ENHANCEMENTS,
        cli_help="without late move reductions (chess, checkers)",
        uci_name="LateMoveReductions", off_flag="--no-lmr", used_by=DEPTH_FIRST,
        requires=_selective("late_move_reductions"), text=_switch_text("late_move_reductions", "LMR"),
    ),
    Option(
        "quiescence_checks", Effect.VALUE, "Checks in quiescence", "Also try quiet checks at quiescence's first ply",
        Group.ENHANCEMENTS,
        cli_help="without quiet checks at quiescence's first ply (chess)",
        uci_name="QuiescenceChecks", off_flag="--no-quiescence-checks", used_by=DEPTH_FIRST,
        requires=_selective("quiescence_checks"), text=_switch_text("quiescence_checks", "q-checks"),
    ),
    Option(
        "see_pruning", Effect.VALUE, "SEE pruning", "Skip captures and moves that lose material by static exchange",
        Group.ENHANCEMENTS,
        cli_help="without static-exchange pruning of losing moves (chess)",
        uci_name="SEEPruning", off_flag="--no-see-pruning", used_by=DEPTH_FIRST,
        requires=_selective("see_pruning"), text=_switch_text("see_pruning", "SEE pruning"),
    ),
    Option(
        "futility_pruning", Effect.VALUE, "Futility pruning", "Skip hopeless quiet moves near the horizon",
        Group.ENHANCEMENTS,
        cli_help="without futility, reverse futility and late move pruning (chess, checkers)",
        uci_name="FutilityPruning", off_flag="--no-futility", used_by=DEPTH_FIRST,
        requires=_selective("futility_pruning"), text=_switch_text("futility_pruning", "futility"),
    ),
    Option(
        # The field keeps its first game's word (files and command lines use it); the reach is
        # in each game's own unit: Othello's empty squares, checkers' pieces on the board.
        "solver_empties", Effect.VALUE, GameState.SOLVER_WORDS[0],
        "Solve exactly near the end: at most this many empty squares (Othello) or pieces (checkers' "
        "endgame databases); 0: off",
        Group.ENHANCEMENTS,
        cli_help="the exact solver's reach, in the game's unit: Othello solves positions with at most N "
        "empty squares, checkers probes its endgame databases with at most N pieces (up to its 5); 0: off",
        uci_name="SolverReach", flag="--solver-empties", metavar="N", range=Range(int, 0, MAX_SOLVER_REACH),
        used_by=DEPTH_FIRST, requires=Requirement((ExactSolver,), reason="{game} has no exact endgame solver"),
        text=_solver_text,
    ),
    Option(
        "exploration", Effect.DEFINITION, "Exploration C", "The UCT exploration constant C: larger tries more moves",
        Group.MCTS,
        cli_help="MCTS: the UCT exploration constant",
        uci_name="Exploration", flag="--exploration", metavar="C", range=Range(float, 0.0), used_by=MCTS_ONLY,
        text=lambda settings, _game: f"C = {settings.exploration:g}",
    ),
    Option(
        "playout", Effect.DEFINITION, "Playouts", "Random playouts to the end, or short ones scored by EVAL",
        Group.MCTS,
        cli_help="MCTS: random playouts to the end, or short ones scored by the evaluation",
        uci_name="Playout", flag="--playout", metavar="{random,eval}", choices=_playouts, choice_noun="a playout",
        used_by=MCTS_ONLY, text=_playout_text,
    ),
    Option(
        "playout_depth", Effect.DEFINITION, "Playout depth", "Plies of an EVAL playout before EVAL is read",
        Group.MCTS,
        cli_help="MCTS: plies of an 'eval' playout",
        uci_name="PlayoutDepth", flag="--playout-depth", metavar="PLIES", range=Range(int, 1, MAX_PLY),
        used_by=MCTS_ONLY,
        depends=(Dependency(lambda settings: settings.playout == "eval", "random playouts run to the end"),),
    ),
    Option(
        "seed", Effect.DEFINITION, "Seed", "Seed of the search's random choices: same seed, same result",
        Group.MCTS,
        cli_help="MCTS: random seed",
        uci_name="Seed", flag="--seed", range=Range(int, 0, MAX_SEED), used_by=MCTS_ONLY,
        text=lambda settings, _game: f"seed {settings.seed}",
    ),
    Option(
        "threads", Effect.EFFORT, "Threads", "Worker processes: Lazy SMP, root-parallel MCTS or a root split",
        Group.GENERAL,
        cli_help="worker processes, 1 up to the cores this process may use; more than 1 searches on the engine "
        "pool (Lazy SMP, root-parallel MCTS, a root split), whose start-up --time does not count",
        uci_name="Threads", flag="--threads", metavar="N", range=Range(int, 1, available_cores), text=_threads_text,
    ),
    Option(
        "weights", Effect.DEFINITION, "Weights file", "A JSON file of EVAL weights (a tuner's output); empty: the packaged ones",
        Group.FILES,
        cli_help="a JSON file of evaluation weights (a tuner's output) instead of the packaged ones",
        uci_name="Weights", flag="--weights", metavar="FILE", file_noun="weights file",
    ),
    Option(
        "network", Effect.DEFINITION, "Network", "The learned network the compiled chess search adds to EVAL",
        Group.FILES,
        cli_help="chess, native: the learned network added to the EVAL (a trainer's output), or off; "
        "default: the packaged one",
        uci_name="UseNetwork", flag="--network", metavar="FILE|off", file_noun="network file", file_words=("", "off"),
        uci_switch=("", "off"),
    ),
    Option(
        "book", Effect.DEFINITION, "Opening book", "Play a book move, without searching, while the game is in the book",
        Group.GENERAL,
        cli_help="without the opening book (the default: analysis searches the opening too)",
        on_help="answer from the game's opening book where it has a move (analysis searches by default)",
        uci_name="OwnBook", flag="--book", off_flag="--no-book",
    ),
    Option(
        "multipv", Effect.EFFORT, "Best lines",
        "MultiPV: show this many best moves, each with its exact score and line (each line more costs about "
        "one more search)",
        Group.GENERAL,
        cli_help=f"find and show the N best lines, 1..{MAX_MULTIPV} (each with its exact score; the best move is "
        "the same whatever N is)",
        uci_name="MultiPV", flag="--multipv", metavar="N", range=Range(int, 1, MAX_MULTIPV),
        used_by=(*DEPTH_FIRST, *MCTS_ONLY), text=_multipv_text,
    ),
)
"""Every switch of ``SearchSettings``, in its field order."""

BY_NAME: Final[Mapping[str, Option]] = {row.name: row for row in OPTIONS}
VALUE_OPTIONS: Final[tuple[Option, ...]] = tuple(row for row in OPTIONS if row.effect is Effect.VALUE)
"""The switches that can change the value a search returns (the tree signature's)."""


def option(name: str) -> Option:
    """The row of the ``SearchSettings`` field ``name`` (``KeyError`` for no such field)."""
    return BY_NAME[name]


# ------------------------------------------------------------------ presets and signature
EXACT_LABEL: Final = "Textbook (exact)"
EXACT_TOOLTIP: Final = (
    "Every switch that can change the value off (quiescence, extensions, forward pruning, the exact "
    "solver): alpha-beta, PVS and MTD(f) then return exactly what minimax returns"
)
EXACT_HELP: Final = (
    "textbook search: every switch that can change the value off (quiescence, extensions, forward "
    "pruning, the exact solver), so alpha-beta, PVS and MTD(f) return minimax's value; "
    "a switch given as well still applies"
)


def exact_values() -> dict[str, object]:
    """The ``exact`` preset as field values: every ``Effect.VALUE`` switch off."""
    return {row.name: row.exact_value() for row in VALUE_OPTIONS}


def exact(settings: SearchSettings) -> SearchSettings:
    """``settings`` with every switch that can change the value off (the textbook search)."""
    return dataclasses.replace(settings, **exact_values())  # type: ignore[arg-type]


def is_exact(settings: SearchSettings) -> bool:
    """Whether ``settings`` has every value-changing switch off."""
    return all(getattr(settings, name) == value for name, value in exact_values().items())


SIGNATURE_OPTIONS: Final[tuple[Option, ...]] = tuple(
    sorted(VALUE_OPTIONS, key=lambda row: row.requires is not None and row.requires.listed)
)
"""The value-changing switches in the signature's order: the horizon's (quiescence, the
exact solver) first, then the selective ones a game opts into."""


def tree_signature(settings: SearchSettings) -> tuple[object, ...]:
    """The values of the switches that change what a search computes (its horizon and its
    pruning), quiescence resolved against the algorithm's own default. A table filled under
    another signature is cleared rather than trusted."""
    return tuple(
        uses_quiescence(settings) if row.is_optional else getattr(settings, row.name) for row in SIGNATURE_OPTIONS
    )


# ------------------------------------------------------------------ where a switch applies
def game_supports(name: str, game: type[GameState]) -> bool:
    """Whether ``game`` has what the switch ``name`` needs."""
    row = BY_NAME[name]
    return row.requires is None or row.requires.is_met_by(game, name)


def is_used(name: str, settings: SearchSettings, game: type[GameState] | None) -> bool:
    """Whether the switch ``name`` changes what this search does: the algorithm reads it and
    the game (when given) has what it needs."""
    users = BY_NAME[name].used_by
    if users is not None and settings.algorithm not in users:
        return False
    return game is None or game_supports(name, game)


def unused_reason(name: str, settings: SearchSettings, game: type[GameState] | None, title: str = "") -> str:
    """Why the switch ``name`` does nothing in this configuration ("" when it is used):
    the algorithm does not read it, a switch it needs is off, or the game (named ``title``)
    lacks what it needs."""
    row = BY_NAME[name]
    if row.used_by is not None and settings.algorithm not in row.used_by:
        return f"{settings.algorithm} does not use this"
    for dependency in row.depends:
        if not dependency.holds(settings):
            return dependency.reason
    if game is not None and row.requires is not None and not game_supports(name, game):
        return row.requires.reason.format(game=title or game.NAME)
    return ""


def settings_line(settings: SearchSettings, game: type[GameState]) -> str:
    """One line naming the algorithm and the switches that shape this search (the engine
    panel's): each used row's part, in the table's order."""
    parts = []
    for row in OPTIONS:
        if row.text is not None and is_used(row.name, settings, game):
            part = row.text(settings, game)
            if part:
                parts.append(part)
    return " · ".join(parts)


# ------------------------------------------------------------------ validation
LIMIT_RANGES: Final[dict[str, Range]] = {
    "depth": Range(int, 1, MAX_PLY),
    "time": Range(float, 0.0, positive=True, unit="s"),
    "nodes": Range(int, 1, MAX_NODES),
}
"""The fields of ``Limits`` (``None`` is always allowed: no limit of that kind)."""
SETTING_RANGES: Final[dict[str, Range]] = {row.name: row.range for row in OPTIONS if row.range is not None}
"""The numeric fields of ``SearchSettings`` and their ranges."""


def _shown(value: object, limit: int = 40) -> str:
    """``value`` as text, cut to ``limit`` characters (a 400-digit number is not echoed)."""
    text = str(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def setting_choices(name: str) -> tuple[str, ...] | None:
    """The words a text setting may be (``None``: not a setting with choices)."""
    row = BY_NAME.get(name)
    return None if row is None else row.allowed_choices()


def check_setting(name: str, value: object) -> None:
    """``SettingError`` unless ``value`` is a value the ``SearchSettings`` (or ``Limits``)
    field ``name`` may hold. A value outside its range is refused where it enters, in one
    line naming the setting, the range and the value, so that no search starts with a
    setting it cannot honour (a NaN exploration puts every visit on one move; an infinite
    time never ends; a huge table is a MemoryError)."""
    if name in LIMIT_RANGES:
        if value is not None:
            _check_range(name, LIMIT_RANGES[name], value)
        return
    row = BY_NAME.get(name)
    if row is None:
        raise SettingError(name, "no such setting")
    if row.range is not None:
        _check_range(name, row.range, value)
        return
    choices = row.allowed_choices()
    if choices is not None:
        if value not in choices:
            raise SettingError(name, f"{_shown(value)!r} is not {row.choice_noun}; choose one of {', '.join(choices)}")
        return
    if row.is_optional:
        if value is not None and not isinstance(value, bool):
            raise SettingError(name, f"{_shown(value)!r} is not on, off or default")
    elif type(value) is not row.type:
        raise SettingError(name, f"{_shown(value)!r} is not a {row.type.__name__}")


def _check_range(name: str, allowed: Range, value: object) -> None:
    problem = allowed.problem(value)
    if problem is not None:
        raise SettingError(name, problem)


def check_settings(settings: SearchSettings, limits: Limits | None = None) -> None:
    """``SettingError`` (a ``ValueError``) for the first field of ``settings`` (then of
    ``limits``) that no search can honour: the one check of every request, whoever made it."""
    for item in fields(SearchSettings):
        check_setting(item.name, getattr(settings, item.name))
    if limits is not None:
        check_limits(limits)


def check_limits(limits: Limits) -> None:
    """``SettingError`` for a limit no search can honour (``time`` must be finite: an
    infinite or NaN deadline is never reached)."""
    for name in LIMIT_RANGES:
        check_setting(name, getattr(limits, name))


def parse_setting(name: str, text: str) -> object:
    """The checked value of setting (or limit) ``name`` written as ``text`` (an option's
    value, a spec, a settings file): numbers in their range, ``on``/``off`` for switches,
    ``default`` for the algorithm's own quiescence. ``SettingError`` says what is wrong."""
    text = text.strip()
    row = BY_NAME.get(name)
    allowed = LIMIT_RANGES.get(name) or (row.range if row is not None else None)
    if allowed is not None:
        try:
            value: object = allowed.kind(text)
        except ValueError:
            if allowed.kind is int:
                raise SettingError(name, f"{_shown(text)!r} is not {allowed.describe()}") from None
            raise SettingError(name, f"{_shown(text)!r} is not a number") from None
        _check_range(name, allowed, value)
        return value
    if row is None:
        raise SettingError(name, "no such setting")
    if row.choices is not None:
        check_setting(name, text)
        return text
    if row.is_optional and text.lower() == "default":
        return None
    if row.type is bool:
        if text.lower() not in BOOLEAN_WORDS:
            raise SettingError(name, f"{_shown(text)!r} is not on or off")
        return BOOLEAN_WORDS[text.lower()]
    return text
