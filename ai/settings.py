"""What a search is asked to do: the algorithm and its switches, and when to stop.

Everything here is a plain frozen dataclass of picklable values, because a search request
crosses a process boundary to reach a worker of the pool.
"""

from __future__ import annotations

import math
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from pathlib import Path

from games.othello.exact import SOLVER_EMPTIES


@dataclass(frozen=True)
class Limits:
    """When to stop. ``None`` means "no limit of this kind"; with no limit at all the
    search runs until stopped from outside (``infinite``)."""

    depth: int | None = None
    """Maximum nominal depth in plies (iterations for iterative deepening)."""
    time: float | None = None
    """Seconds of wall time for this move."""
    from_clock: bool = False
    """Whether ``time`` is a share of a clock (UCI ``wtime``/``btime``): the time a move does
    not use goes back to the clock, so iterative deepening starts no new iteration once half
    of it is gone. A fixed time a move (UCI ``movetime``, the app's and ``match``'s seconds a
    move) is searched to its end: time not used is lost (``ai.iterative.soft_deadline``)."""
    nodes: int | None = None
    """Maximum number of nodes visited."""


@dataclass(frozen=True)
class SearchSettings:
    """The algorithm and every enhancement switch, so that the GUI can show each effect.

    Defaults are the strong configuration; a teacher turns pieces off one at a time.
    """

    algorithm: str = "pvs"
    """One of ``ai.search.ALGORITHMS``: minimax, alphabeta, pvs, mtdf, expectiminimax,
    star1, star2, mcts."""

    iterative_deepening: bool = True
    aspiration: bool = True
    aspiration_window: float = 50.0
    """Half-width of the first aspiration window, in the game's evaluation units."""

    transposition_table: bool = True
    tt_megabytes: int = 64

    move_ordering: bool = True
    """Master switch for TT move, captures (MVV-LVA), killers and history."""
    killers: bool = True
    history: bool = True

    quiescence: bool | None = None
    """Search the game's noisy moves (``noisy_moves()``) beyond the depth limit. ``None``
    means the algorithm's default (``ai.search.uses_quiescence``): on for every algorithm
    but plain minimax, whose textbook form has none (and without alpha-beta bounds a
    quiescence search explodes in a tactical position)."""

    # Selectivity beyond the lecture notes: each game lists the switches it takes
    # (``GameState.SELECTIVE_SEARCH``: chess all of them, checkers LMR and futility).
    check_extensions: bool = True
    """Never stop in check: a node in check is searched one ply deeper, and in quiescence
    every evasion is searched (no standing pat in check)."""
    null_move: bool = True
    """Null-move pruning with an adaptive reduction, verified by a plain search at high
    depth (zugzwang)."""
    late_move_reductions: bool = True
    """Late quiet moves searched less deep (more so the deeper and later), searched again
    at full depth when they beat alpha; checks, captures and killers are never reduced."""
    quiescence_checks: bool = True
    """Quiescence also tries the quiet moves that give check, at its first ply."""
    see_pruning: bool = True
    """Static exchange evaluation prunes captures that lose material in quiescence, and
    losing captures and quiet moves near the horizon."""
    futility_pruning: bool = True
    """Near the horizon: a position far above beta is cut (reverse futility), quiet moves
    that cannot lift a position far below alpha are skipped (futility), and late quiet
    moves beyond a count are not searched (late move pruning)."""

    # Othello's exact endgame solver (``GameState.solve``), 0 to switch it off. The default
    # is the measured depth of the solver in use (``games.othello.exact``: 18 native, 14 Python).
    solver_empties: int = SOLVER_EMPTIES

    # MCTS (UCT, Kocsis & Szepesvari 2006).
    exploration: float = 1.41
    """The UCT exploration constant C in ``Q/N + C * sqrt(ln N_parent / N)``."""
    playout: str = "random"
    """``random`` playouts to the end, or ``eval``: a short playout scored by EVAL."""
    playout_depth: int = 8
    """Plies of an ``eval`` playout before EVAL is read."""
    seed: int = 0
    """Seed of the search's private random generator (MCTS): same seed, same result."""

    threads: int = 1
    """Worker processes for the pool (Lazy SMP / root parallel)."""

    weights: str = ""
    """A JSON file of EVAL weights (``games.weights``; a tuner's output) to search with
    instead of the packaged ones; empty: the packaged weights."""

    network: str = ""
    """The learned network the compiled search adds to EVAL (chess: ``native``): empty, the
    shipped one; ``off``, none; else a network file (``games.chess_game.network``)."""

    book: bool = True
    """Play the game's opening-book move (``GameState.book_moves``) when it has one, without
    searching; the answer then says ``book``."""


@dataclass(frozen=True)
class SearchRequest:
    """Everything a worker needs to run one search, as picklable text and numbers.

    ``moves`` are played from ``position`` in the game's notation so that history-based
    rules (repetition draws) are seen by the search.
    """

    game: str
    position: str | None = None
    moves: tuple[str, ...] = ()
    settings: SearchSettings = field(default_factory=SearchSettings)
    limits: Limits = field(default_factory=Limits)
    search_id: int = 0
    root_moves: tuple[str, ...] = ()
    """Search only these root moves, in notation (UCI ``searchmoves``, the pool's root
    split among workers); empty: all legal moves."""


# ------------------------------------------------------------------ what each value may be
# One table of ranges for every way a setting arrives: the command line's options, a match
# player's spec, UCI ``setoption`` and the app's settings file. A value outside its range is
# refused where it enters, in one line naming the setting, the range and the value, so no
# search starts with a setting it cannot honour (a NaN exploration puts every visit on one
# move; an infinite time never ends; a huge table is a MemoryError).

MAX_HASH_MB = 4096
"""Transposition table sizes accepted, in MB (the table is allocated up front)."""
MAX_SOLVER_EMPTIES = 64
"""An Othello board has 64 squares: a larger solver depth means nothing."""
MAX_SEED = 2**64 - 1
MAX_NODES = 2**63 - 1
MAX_INPUT_FILE_BYTES = 64 * 1024 * 1024
"""A file named by an option (weights, a network, openings) larger than this is refused
rather than read: the shipped ones are a few MB at most."""
PLAYOUTS = ("random", "eval")
CHOICE_WORDS = {"algorithm": "an algorithm", "playout": "a playout"}
"""How an error names what a setting with choices is."""


class SettingError(ValueError):
    """A setting or limit that no search can honour: ``name`` is the field, ``problem`` the
    phrase without it (``99999999 is out of range 1..4096 MB``), as an option's parser
    shows it after the option's own name."""

    def __init__(self, name: str, problem: str) -> None:
        super().__init__(f"{name}: {problem}")
        self.name = name
        self.problem = problem


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


def available_cores() -> int:
    """The cores this process may run on (the pool's count; imported when asked)."""
    from ai.parallel import available_cores as cores

    return cores()


def _max_ply() -> int:
    from ai.scores import MAX_PLY

    return MAX_PLY


SETTING_RANGES: dict[str, Range] = {
    "aspiration_window": Range(float, 0.0, positive=True),
    "tt_megabytes": Range(int, 1, MAX_HASH_MB, "MB"),
    "solver_empties": Range(int, 0, MAX_SOLVER_EMPTIES),
    "exploration": Range(float, 0.0),
    "playout_depth": Range(int, 1, _max_ply),
    "seed": Range(int, 0, MAX_SEED),
    "threads": Range(int, 1, available_cores),
}
"""The numeric fields of ``SearchSettings`` and their ranges (the CLI's options use these)."""

LIMIT_RANGES: dict[str, Range] = {
    "depth": Range(int, 1, _max_ply),
    "time": Range(float, 0.0, positive=True, unit="s"),
    "nodes": Range(int, 1, MAX_NODES),
}
"""The fields of ``Limits`` (``None`` is always allowed: no limit of that kind)."""


def setting_choices(name: str) -> tuple[str, ...] | None:
    """The words a text setting may be (``None``: not a setting with choices)."""
    if name == "algorithm":
        from ai.search import ALGORITHMS

        return tuple(ALGORITHMS)
    if name == "playout":
        return PLAYOUTS
    return None


def _shown(value: object, limit: int = 40) -> str:
    """``value`` as text, cut to ``limit`` characters (a 400-digit number is not echoed)."""
    text = str(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


_FIELD_TYPES = {item.name: item for item in fields(SearchSettings)}


def check_setting(name: str, value: object) -> None:
    """``SettingError`` unless ``value`` is a value the ``SearchSettings`` (or ``Limits``)
    field ``name`` may hold."""
    if name in LIMIT_RANGES:
        if value is not None:
            _check_range(name, LIMIT_RANGES[name], value)
        return
    if name not in _FIELD_TYPES:
        raise SettingError(name, "no such setting")
    if name in SETTING_RANGES:
        _check_range(name, SETTING_RANGES[name], value)
        return
    choices = setting_choices(name)
    if choices is not None:
        if value not in choices:
            raise SettingError(name, f"{_shown(value)!r} is not {CHOICE_WORDS[name]}; choose one of {', '.join(choices)}")
        return
    default = getattr(SearchSettings(), name)
    if name == "quiescence":
        if value is not None and not isinstance(value, bool):
            raise SettingError(name, f"{_shown(value)!r} is not on, off or default")
    elif type(value) is not type(default):
        raise SettingError(name, f"{_shown(value)!r} is not a {type(default).__name__}")


def _check_range(name: str, allowed: Range, value: object) -> None:
    problem = allowed.problem(value)
    if problem is not None:
        raise SettingError(name, problem)


def check_settings(settings: SearchSettings) -> None:
    """``SettingError`` for the first field of ``settings`` out of its range."""
    for item in fields(SearchSettings):
        check_setting(item.name, getattr(settings, item.name))


def check_limits(limits: Limits) -> None:
    """``SettingError`` for a limit no search can honour (``time`` must be finite: an
    infinite or NaN deadline is never reached)."""
    for name in LIMIT_RANGES:
        check_setting(name, getattr(limits, name))


BOOLEAN_WORDS = {"on": True, "true": True, "yes": True, "1": True, "off": False, "false": False, "no": False, "0": False}


def parse_setting(name: str, text: str) -> object:
    """The checked value of setting (or limit) ``name`` written as ``text`` (an option's
    value, a spec, a settings file): numbers in their range, ``on``/``off`` for switches,
    ``default`` for the algorithm's own quiescence. ``SettingError`` says what is wrong."""
    text = text.strip()
    allowed = LIMIT_RANGES.get(name) or SETTING_RANGES.get(name)
    if allowed is not None:
        try:
            value: object = allowed.kind(text)
        except ValueError:
            if allowed.kind is int:
                raise SettingError(name, f"{_shown(text)!r} is not {allowed.describe()}") from None
            raise SettingError(name, f"{_shown(text)!r} is not a number") from None
        _check_range(name, allowed, value)
        return value
    if name not in _FIELD_TYPES:
        raise SettingError(name, "no such setting")
    if setting_choices(name) is not None:
        check_setting(name, text)
        return text
    default = getattr(SearchSettings(), name)
    if name == "quiescence" and text.lower() == "default":
        return None
    if isinstance(default, bool) or name == "quiescence":
        if text.lower() not in BOOLEAN_WORDS:
            raise SettingError(name, f"{_shown(text)!r} is not on or off")
        return BOOLEAN_WORDS[text.lower()]
    return text


def check_input_file(path: str | Path, name: str, noun: str, limit: int = MAX_INPUT_FILE_BYTES) -> Path:
    """``path`` when it names a readable regular file of at most ``limit`` bytes; else
    ``SettingError`` for setting ``name``, its problem naming the file as ``noun`` ("weights
    file"). A device or a pipe (``/dev/zero``) is refused before a byte is read: it has no
    size and never ends."""
    shown = _shown(path, 200)
    try:
        status = os.stat(path)
    except (OSError, ValueError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise SettingError(name, f"cannot read {noun} {shown!r}: {reason}") from None
    if stat.S_ISDIR(status.st_mode):
        raise SettingError(name, f"{noun} {shown!r} is a folder, not a file")
    if not stat.S_ISREG(status.st_mode):
        raise SettingError(name, f"{noun} {shown!r} is not a regular file (a device or a pipe cannot be read as one)")
    if status.st_size > limit:
        raise SettingError(name, f"{noun} {shown!r} is {status.st_size:,} bytes, more than the {limit:,} allowed")
    if not os.access(path, os.R_OK):
        raise SettingError(name, f"cannot read {noun} {shown!r}: permission denied")
    return Path(path)
