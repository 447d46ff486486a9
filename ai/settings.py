"""What a search is asked to do: the algorithm and its switches, and when to stop.

Everything here is a plain frozen dataclass of picklable values, because a search request
crosses a process boundary to reach a worker of the pool.
"""

from __future__ import annotations

from dataclasses import dataclass, field

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
