"""What a search is asked to do: the algorithm and its switches, and when to stop.

Everything here is a plain frozen dataclass of picklable values, because a search request
crosses a process boundary to reach a worker of the pool. What each switch may be, how each
front end names it and what it can change are the options table's (``ai.options``), which
also checks every value: this module imports nothing of the engine, so that the algorithms
may name these types.
"""

from __future__ import annotations

import math
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from games import default_solver_reach

from ai.tree.model import TreeOptions


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
    # (``SELECTIVE_SEARCH``: chess all of them, checkers LMR and futility).
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

    solver_empties: int = field(default_factory=default_solver_reach)
    """The reach of the game's exact solver (``GameState.solve``), in the game's own unit
    (``GameState.SOLVER_WORDS``): Othello solves positions with at most this many empty
    squares, checkers probes its endgame databases with at most this many pieces (up to
    their ``SOLVER_REACH``); 0 switches solving off. The name keeps Othello's word, which
    settings files, match specs and command lines use. The default is the games' own
    (``games.default_solver_reach``: the depth the Othello solver in use affords in a move,
    beyond the databases' reach), asked when settings are made."""

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

    multipv: int = 1
    """How many best lines to find and report (UCI's MultiPV): line ``k`` is the best move
    once the first moves of lines ``1..k-1`` are left out. The best move and its value are
    the same whatever this is; each line more costs about one more root search."""


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
    tree: TreeOptions | None = None
    """Record the search tree (``ai.tree``) with these options and send it in ``TreeBatch``
    events; ``None``: record nothing (and pay nothing). Checked when the request is made
    (``check_tree_options``)."""

    def __post_init__(self) -> None:
        check_tree_options(self.tree)


# ------------------------------------------------------------------ refusing a value
MAX_INPUT_FILE_BYTES = 64 * 1024 * 1024
"""A file named by an option (weights, a network, openings) larger than this is refused
rather than read: the shipped ones are a few MB at most."""


class SettingError(ValueError):
    """A setting or limit that no search can honour: ``name`` is the field, ``problem`` the
    phrase without it (``99999999 is out of range 1..4096 MB``), as an option's parser
    shows it after the option's own name. The ranges are the options table's
    (``ai.options``)."""

    def __init__(self, name: str, problem: str) -> None:
        super().__init__(f"{name}: {problem}")
        self.name = name
        self.problem = problem


def _shown(value: object, limit: int = 40) -> str:
    """``value`` as text, cut to ``limit`` characters (a long path is not echoed whole)."""
    text = str(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


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


# ------------------------------------------------------------------ the recorded tree
MAX_TREE_CAP: Final = 5_000_000
"""The most nodes a recorded tree may keep: each costs a few hundred bytes in the process
that shows it (5 million: about 2 GB), and no picture of more can be read."""
MAX_WHOLE_PLIES: Final = 64
"""The most plies kept whole past the cap (deeper than any search of the app goes)."""
BATCH_SECONDS_RANGE: Final = (0.02, 10.0)
"""How often a recording search may send its batches: faster than 50 a second floods the
receiver with messages; slower than one in ten seconds is no longer live."""


def check_tree_options(tree: TreeOptions | None) -> None:
    """``SettingError`` when ``tree`` is neither ``None`` nor ``TreeOptions`` that a
    recorder can honour: ``cap`` a whole number in 1..``MAX_TREE_CAP``, ``whole_plies`` in
    0..``MAX_WHOLE_PLIES``, ``batch_seconds`` a finite number in ``BATCH_SECONDS_RANGE``."""
    if tree is None:
        return
    if not isinstance(tree, TreeOptions):
        raise SettingError("tree", f"{_shown(tree)!r} is not TreeOptions")
    for name, value, high in (("cap", tree.cap, MAX_TREE_CAP), ("whole_plies", tree.whole_plies, MAX_WHOLE_PLIES)):
        low = 1 if name == "cap" else 0
        if isinstance(value, bool) or not isinstance(value, int):
            raise SettingError(f"tree.{name}", f"{_shown(value)!r} is not a whole number")
        if not low <= value <= high:
            raise SettingError(f"tree.{name}", f"{value} is out of range {low}..{high:,}")
    seconds = tree.batch_seconds
    low_seconds, high_seconds = BATCH_SECONDS_RANGE
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        raise SettingError("tree.batch_seconds", f"{_shown(seconds)!r} is not a number")
    if not math.isfinite(seconds) or not low_seconds <= seconds <= high_seconds:
        raise SettingError("tree.batch_seconds", f"{seconds} is out of range {low_seconds}..{high_seconds} seconds")
