"""The search algorithms, each selectable by name.

Every algorithm module exposes ``run(state, context) -> Finished`` (see ``ai.context``),
mirrors its textbook pseudocode and cites its source in its docstring. ``ALGORITHMS`` says
what each accepts so that a request fails fast with a helpful message instead of searching
a game the algorithm cannot handle.
"""

from __future__ import annotations

import enum
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ai.context import SearchContext
    from ai.events import Finished
    from ai.settings import SearchSettings
    from games.base import GameState

CHANCE_ALGORITHMS = ("expectiminimax", "star1", "star2", "mcts")


class Parallelism(enum.Enum):
    """How one search of an algorithm is shared among the pool's worker processes; the
    pool's strategy for each (its plan and its merge) is in ``ai.parallel.strategies``."""

    LAZY_SMP = "lazy-smp"
    """Every worker searches the whole root over one shared transposition table; the main
    search's answer is the answer (the alpha-beta family: its table is what is shared)."""
    ROOT_PARALLEL = "root-parallel"
    """Independent searches with different seeds whose root statistics are summed (MCTS)."""
    ROOT_SPLIT = "root-split"
    """The root moves dealt out among the workers; the best part's value wins (an algorithm
    without a table to share: minimax and the expectiminimax family)."""
    SINGLE_WORKER = "single-worker"
    """One worker process whatever ``threads`` says (a compiled search, which runs its own
    threads over its own table inside that process)."""


@dataclass(frozen=True)
class AlgorithmSpec:
    """A selectable algorithm: where its ``run`` lives and which games it accepts."""

    name: str
    module: str
    summary: str
    handles_chance: bool
    """Whether it can search games with chance nodes (backgammon)."""
    quiescence_by_default: bool = True
    """Whether a quiescence search extends the horizon when ``SearchSettings.quiescence``
    is ``None`` (the algorithms without a horizon search ignore it)."""
    needs_native: bool = False
    """Whether it runs the game's own compiled search (``GameState.NATIVE_SEARCH``), which
    only some games have, instead of searching through the protocol."""
    parallelism: Parallelism = Parallelism.ROOT_SPLIT
    """How the pool shares one search among its workers (``ai.parallel.strategies``); a
    root split is right for any algorithm that searches root moves and keeps no table."""
    records_depth_first_tree: bool = True
    """Whether ``ai.tree.recorder.TreeRecorder`` records its tree when asked: every
    depth-first search in Python (MCTS sends snapshots of its own tree, ``ai.tree.mcts``;
    the compiled search records nothing)."""

    def load(self) -> Callable[[GameState, SearchContext], Finished]:
        run: Callable[[GameState, SearchContext], Finished] = importlib.import_module(self.module).run
        return run

    def check_game(self, game: type[GameState]) -> None:
        """Fail fast, pointing to a suitable algorithm, when ``game`` is out of reach."""
        if game.HAS_CHANCE and not self.handles_chance:
            raise ValueError(
                f"{self.name} cannot search {game.NAME}: it has chance nodes (dice); "
                f"use {', '.join(CHANCE_ALGORITHMS)}"
            )
        if self.needs_native and game.NATIVE_SEARCH is None:
            raise ValueError(
                f"{self.name} cannot search {game.NAME}: it has no compiled search "
                f"(chess and checkers have one, when their C extensions are built); use {game.DEFAULT_ALGORITHM}"
            )


ALGORITHMS: dict[str, AlgorithmSpec] = {
    spec.name: spec
    for spec in (
        AlgorithmSpec(
            "minimax",
            "ai.search.minimax",
            "plain depth-limited minimax",
            False,
            quiescence_by_default=False,
            parallelism=Parallelism.ROOT_SPLIT,
        ),
        AlgorithmSpec("alphabeta", "ai.search.alphabeta", "fail-soft alpha-beta", False, parallelism=Parallelism.LAZY_SMP),
        AlgorithmSpec(
            "pvs", "ai.search.pvs", "principal variation search (NegaScout)", False, parallelism=Parallelism.LAZY_SMP
        ),
        AlgorithmSpec(
            "mtdf", "ai.search.mtdf", "MTD(f): null-window alpha-beta with memory", False, parallelism=Parallelism.LAZY_SMP
        ),
        AlgorithmSpec(
            "expectiminimax", "ai.search.expectiminimax", "expectiminimax", True, parallelism=Parallelism.ROOT_SPLIT
        ),
        AlgorithmSpec(
            "star1",
            "ai.search.star1",
            "expectiminimax with Star1 chance pruning",
            True,
            parallelism=Parallelism.ROOT_SPLIT,
        ),
        AlgorithmSpec(
            "star2",
            "ai.search.star2",
            "expectiminimax with Star2 chance pruning",
            True,
            parallelism=Parallelism.ROOT_SPLIT,
        ),
        AlgorithmSpec(
            "mcts",
            "ai.search.mcts",
            "Monte Carlo tree search (UCT)",
            True,
            parallelism=Parallelism.ROOT_PARALLEL,
            records_depth_first_tree=False,
        ),
        AlgorithmSpec(
            "native",
            "ai.search.native",
            "the game's compiled PVS, for strength (chess, checkers, Othello)",
            False,
            needs_native=True,
            parallelism=Parallelism.SINGLE_WORKER,
            records_depth_first_tree=False,
        ),
    )
}


def get_algorithm(name: str) -> AlgorithmSpec:
    """The algorithm called ``name``; ``ValueError`` lists the known names."""
    try:
        return ALGORITHMS[name]
    except KeyError:
        raise ValueError(f"unknown algorithm {name!r}; choose one of {', '.join(ALGORITHMS)}") from None


def uses_quiescence(settings: SearchSettings) -> bool:
    """Whether a search with ``settings`` runs quiescence search at its horizon: what
    ``settings.quiescence`` says, or when it is ``None`` the algorithm's default."""
    if settings.quiescence is not None:
        return settings.quiescence
    return get_algorithm(settings.algorithm).quiescence_by_default


def algorithms_for(game: type[GameState]) -> list[str]:
    """The algorithms a player is offered for ``game``, the game's own choice first
    (``DEFAULT_ALGORITHM``): the chance family and MCTS for a dice game, the deterministic
    family and MCTS otherwise (the chance family can search a game without dice, but only
    as a slower minimax), and ``native`` where the game has a compiled search."""
    names = [
        name
        for name, spec in ALGORITHMS.items()
        if (name == "mcts" or spec.handles_chance == game.HAS_CHANCE)
        and (not spec.needs_native or game.NATIVE_SEARCH is not None)
    ]
    default = game.DEFAULT_ALGORITHM
    return [default, *(name for name in names if name != default)]
