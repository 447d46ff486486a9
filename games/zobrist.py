"""Zobrist hashing keys (Zobrist 1970), drawn from a private seeded generator.

Each game asks for its own table with its own seed, so keys are the same in every process
(workers of the pool share one transposition table) and no global random state is used.
"""

from __future__ import annotations

import random

MASK64 = (1 << 64) - 1


def zobrist_keys(count: int, seed: int) -> list[int]:
    """``count`` distinct non-zero 64-bit random keys, the same for the same ``seed``."""
    rng = random.Random(seed)
    keys: list[int] = []
    seen: set[int] = {0}
    while len(keys) < count:
        value = rng.getrandbits(64)
        if value not in seen:
            seen.add(value)
            keys.append(value)
    return keys
