"""The engine service: a persistent pool of worker processes (no Qt).

``EnginePool`` runs every search of the CLI, the UCI front end and the GUI bridge on all
cores: Lazy SMP over a shared-memory transposition table (``SharedTable``) for the alpha-beta
family, root-parallel MCTS, and a root split for minimax and the expectiminimax family.
"""

from ai.parallel.pool import EnginePool, available_cores
from ai.parallel.shared_table import SharedTable

__all__ = ["EnginePool", "SharedTable", "available_cores"]
