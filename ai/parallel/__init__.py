"""The engine service: a persistent pool of worker processes (no Qt).

``EnginePool`` runs every search of the CLI, the UCI front end and the GUI bridge on all
cores; how a search is shared among them is its algorithm's strategy
(``ai.parallel.strategies``): Lazy SMP over a shared-memory transposition table
(``SharedTable``) for the alpha-beta family, root-parallel MCTS, a root split for minimax and
the expectiminimax family, and one worker for a game's compiled search.
"""

from ai.cores import available_cores
from ai.parallel.pool import EnginePool
from ai.parallel.shared_table import SharedTable

__all__ = ["EnginePool", "SharedTable", "available_cores"]
