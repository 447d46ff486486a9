"""Backgammon moves as integers, and back (``GameState.encode_move``/``decode_move``).

A shared-memory transposition table and the search-tree records store moves as integers
below ``games.base.MOVE_CODE_LIMIT``. The low two bits say the kind of move; the rest
carry it:

* a play: its hop count (3 bits), then ``from`` and ``to`` of each hop (5 bits each); at
  most 4 hops, so at most 2 + 3 + 40 = 45 bits;
* a roll: the two dice, 3 bits each, in the order the state takes them;
* a cube action: its index in ``roll, double, take, drop``.

Codes do not depend on the position, so any state decodes any code.
"""

from __future__ import annotations

from typing import Any

from games.backgammon.notation import DOUBLE, DROP, NO_DOUBLE, TAKE

PLAY_CODE, ROLL_CODE, CUBE_CODE = 0, 1, 2
"""The kinds, in the low ``KIND_BITS`` bits."""
KIND_BITS = 2
"""Bits of the kind, at the bottom of every code."""
KIND_MASK = (1 << KIND_BITS) - 1
"""Selects the kind."""
HOP_COUNT_BITS = 3
"""A play has at most 4 hops (doubles)."""
HOP_COUNT_MASK = (1 << HOP_COUNT_BITS) - 1
"""Selects a play's hop count."""
POINT_BITS = 5
"""A point 0..25 (``OFF``..``BAR``)."""
POINT_MASK = (1 << POINT_BITS) - 1
"""Selects one point of a hop."""
DIE_BITS = 3
"""A die 1..6."""
DIE_MASK = (1 << DIE_BITS) - 1
"""Selects one die of a roll."""
CUBE_ACTIONS: tuple[str, ...] = (NO_DOUBLE, DOUBLE, TAKE, DROP)
"""A cube action's code is its index here."""


def encode_move(move: Any) -> int:
    """The integer code of ``move`` (a play, a roll or a cube action)."""
    if type(move) is str:
        return CUBE_ACTIONS.index(move) << KIND_BITS | CUBE_CODE
    if move and type(move[0]) is int:  # a roll (two dice); a play is a tuple of hops
        return (move[0] | move[1] << DIE_BITS) << KIND_BITS | ROLL_CODE
    payload = len(move)
    shift = HOP_COUNT_BITS
    for source, target in move:
        payload |= (source | target << POINT_BITS) << shift
        shift += 2 * POINT_BITS
    return payload << KIND_BITS | PLAY_CODE


def decode_move(code: int) -> Any:
    """The move whose code is ``code`` (``encode_move``'s inverse)."""
    kind = code & KIND_MASK
    payload = code >> KIND_BITS
    if kind == CUBE_CODE:
        return CUBE_ACTIONS[payload]
    if kind == ROLL_CODE:
        return (payload & DIE_MASK, payload >> DIE_BITS & DIE_MASK)
    count = payload & HOP_COUNT_MASK
    payload >>= HOP_COUNT_BITS
    hops = []
    for _ in range(count):
        hops.append((payload & POINT_MASK, payload >> POINT_BITS & POINT_MASK))
        payload >>= 2 * POINT_BITS
    return tuple(hops)


__all__ = ["CUBE_ACTIONS", "decode_move", "encode_move"]
