"""Exact Othello endgame solver in pure Python: negamax alpha-beta on raw bitboards.

The native solver (``games/othello/_solver.c``) does the same search ~150x faster;
``games.othello.exact`` decides which one runs. This one is the fallback and the reference
the tests check the C solver against.

The value of a position is the final disc margin for the side to move under perfect play
(empty squares to the winner), the same number the FFO test suite publishes. The search
works on ``(own, opponent)`` int pairs, never on ``OthelloState`` objects, because in
Python every attribute access and call costs as much as a bitboard operation.

The classic endgame recipe (Buro; Gunnar Andersson's "Writing an Othello program"; Edax):

* **Fastest-first** move ordering far from the end: try first the move that leaves the
  opponent the fewest replies (a corner reply counts three times). The child's move mask computed
  for the ordering is handed down, so the child never generates it again.
* **Principal variation search** (NegaScout): the first move with the full window, the rest
  with a null window, re-searched only when they beat alpha.
* A small **transposition table** (a dict keyed by the position) of bounds and best moves
  at the nodes with many empties, where it pays for itself, with **enhanced transposition
  cutoffs** (a child already known to be bad enough for the opponent cuts at once; 5% fewer
  nodes on FFO #1-#19).
* Near the end (``SHALLOW_EMPTIES``) no move generation at all: the few empty squares are
  tried directly, squares in regions with an odd number of empties first (**parity**:
  whoever moves last in a region tends to keep it), and the **last empty square** is scored
  without a recursive call.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from games.base import NodePoll
from games.othello.bitboard import (
    CORNERS,
    FULL,
    SQUARE_COUNT,
    Bitboard,
    Square,
    final_margin,
    flips,
    legal_moves_mask,
)

PYTHON_SOLVER_EMPTIES: Final = 14
"""Default exact-solve limit when this solver is the one in use (``games.othello.exact``
picks it when the native one is not built): a 14-empty FFO position takes well under a
second here."""

PASS_MOVE: Final = SQUARE_COUNT
"""The best "move" when the side to move must pass (same value as ``games.othello.PASS``)."""

POLL_INTERVAL: Final = 1024
"""Interior search nodes between two polls. The solver runs ~100-200k nodes/s here, so a
poll comes every ~5-10 ms (the leaf-level ``shallow`` nodes are not polled: a shallow
subtree of <= 7 empties is a few thousand nodes at most)."""

NEVER: Final = 1 << 62
"""``_next_poll`` when nobody polls: the node counter never gets there."""

SCORE_LIMIT: Final = SQUARE_COUNT
"""Final margins lie in -64..64; windows just outside that are "infinite"."""

SHALLOW_EMPTIES: Final = 7
"""At this many empties or fewer, squares are tried directly instead of generating moves
and ordering by mobility. Measured on FFO #1-#19 (total solve time): 5 -> 9.3 s,
6 -> 7.9 s, 7 -> 7.3 s, 8 -> 7.5 s; below ~7 empties fastest-first costs more than it saves."""

TABLE_MIN_EMPTIES: Final = 8
"""Positions with at least this many empties are stored in the transposition table."""

TABLE_MAX_ENTRIES: Final = 1 << 18
"""The table is cleared when it grows past this (about 60 MB of Python objects at worst; a
16-empty solve stores a few thousand entries)."""

CORNER_REPLY_PENALTY: Final = 2
"""Extra ordering cost of each corner the move lets the opponent take (0 -> 17 s, 1 -> 12 s,
2 -> 8 s on FFO #1-#19 before the shallow-search work; 3 is no better than 2)."""


def _build_quadrants() -> tuple[Bitboard, ...]:
    quadrants = []
    for rank_start in (0, 4):
        for file_start in (0, 4):
            quadrants.append(sum(
                1 << ((rank_start + rank) * 8 + file_start + file)
                for rank in range(4) for file in range(4)
            ))
    return tuple(quadrants)


QUADRANTS: Final[tuple[Bitboard, ...]] = _build_quadrants()


@dataclass(frozen=True)
class SolveResult:
    """An exact solve: ``score`` for the side to move, the ``best_move`` that reaches it
    (``PASS_MOVE`` for a forced pass, ``None`` when the game is already over) and the number
    of positions visited."""

    score: int
    best_move: Square | None
    nodes: int


QUADRANT_BITS: Final[tuple[int, ...]] = tuple(
    next(1 << index for index, quadrant in enumerate(QUADRANTS) if quadrant >> square & 1)
    for square in range(SQUARE_COUNT)
)
"""Per square: the bit (1, 2, 4 or 8) of its quadrant in a 4-bit parity set."""

ODD_REGIONS: Final[tuple[Bitboard, ...]] = tuple(
    sum(quadrant for index, quadrant in enumerate(QUADRANTS) if parity >> index & 1)
    for parity in range(1 << len(QUADRANTS))
)
"""Per 4-bit parity set: the union of its quadrants, to split the empties in two masks."""

NEIGHBOURS: Final[tuple[Bitboard, ...]] = tuple(
    sum(
        1 << (rank * 8 + file)
        for rank in range(max(0, square // 8 - 1), min(8, square // 8 + 2))
        for file in range(max(0, square % 8 - 1), min(8, square % 8 + 2))
        if rank * 8 + file != square
    )
    for square in range(SQUARE_COUNT)
)
"""Per square: the squares around it. A move needs an opponent disc there; testing that
first skips most ``flips`` calls on empty squares near the end."""


def quadrant_parity(empty: Bitboard) -> int:
    """The 4-bit set of quadrants holding an odd number of empty squares."""
    parity = 0
    for index, quadrant in enumerate(QUADRANTS):
        if (empty & quadrant).bit_count() & 1:
            parity |= 1 << index
    return parity


def last_move_score(own: Bitboard, opponent: Bitboard, square: Square) -> int:
    """The final margin for ``own`` (to move) when ``square`` is the only empty square."""
    neighbours = NEIGHBOURS[square]
    if neighbours & opponent:
        flipped = flips(own, opponent, square)
        if flipped:
            return 2 * (own.bit_count() + flipped.bit_count() + 1) - SQUARE_COUNT
    if neighbours & own:
        flipped = flips(opponent, own, square)
        if flipped:
            return SQUARE_COUNT - 2 * (opponent.bit_count() + flipped.bit_count() + 1)
    # Nobody can fill it: 63 discs, never a draw, and the empty square goes to the winner.
    difference = 2 * own.bit_count() - (SQUARE_COUNT - 1)
    return difference + 1 if difference > 0 else difference - 1


class EndgameSolver:
    """One solver's search state: the node counter and the transposition table.

    Every table entry is a true bound on an exact value, so one solver may be reused across
    positions (later solves then reuse earlier work); only memory grows, up to
    ``TABLE_MAX_ENTRIES``. ``solve_position`` and ``OthelloState.solve`` use a fresh one.
    """

    __slots__ = ("nodes", "table", "poll", "_polled", "_next_poll")

    def __init__(self, poll: NodePoll | None = None) -> None:
        self.nodes = 0
        self.table: dict[tuple[Bitboard, Bitboard], tuple[int, int, Square]] = {}
        self.poll = poll
        self._polled = 0
        self._next_poll = POLL_INTERVAL if poll is not None else NEVER

    def _report_nodes(self, check: bool = True) -> None:
        """Hand the nodes searched since the last report to ``poll`` (which may stop us)."""
        if self.poll is None:
            return
        count, self._polled = self.nodes - self._polled, self.nodes
        self._next_poll = self.nodes + POLL_INTERVAL
        self.poll(count, check)

    def clear(self) -> None:
        self.nodes = 0
        self.table.clear()

    # ------------------------------------------------------------------ root
    def solve(self, own: Bitboard, opponent: Bitboard) -> SolveResult:
        """The exact value and a best move for ``own`` to move."""
        start_nodes = self.nodes
        empties = SQUARE_COUNT - (own | opponent).bit_count()
        moves = legal_moves_mask(own, opponent)
        if not moves:
            if not legal_moves_mask(opponent, own):
                return SolveResult(final_margin(own, opponent), None, 1)
            score = -self.search(opponent, own, legal_moves_mask(opponent, own),
                                 -SCORE_LIMIT - 1, SCORE_LIMIT + 1, empties, True)
            self._report_nodes(check=False)
            return SolveResult(score, PASS_MOVE, self.nodes - start_nodes)
        alpha = -SCORE_LIMIT - 1
        best_move: Square | None = None
        for square, child_own, child_opponent, child_moves in self._ordered_children(
                own, opponent, moves, None):
            if best_move is None:
                score = -self._child_value(child_own, child_opponent, child_moves,
                                           -SCORE_LIMIT - 1, -alpha, empties - 1)
            else:
                score = -self._child_value(child_own, child_opponent, child_moves,
                                           -alpha - 1, -alpha, empties - 1)
                if score > alpha:
                    score = -self._child_value(child_own, child_opponent, child_moves,
                                               -SCORE_LIMIT - 1, -score, empties - 1)
            if best_move is None or score > alpha:
                alpha = score
                best_move = square
        self._report_nodes(check=False)
        return SolveResult(alpha, best_move, self.nodes - start_nodes)

    # ---------------------------------------------------------------- search
    def _child_value(self, own: Bitboard, opponent: Bitboard, moves: Bitboard,
                     alpha: int, beta: int, empties: int) -> int:
        if empties <= SHALLOW_EMPTIES:
            empty = ~(own | opponent) & FULL
            return self.shallow(own, opponent, alpha, beta, empty, quadrant_parity(empty), False)
        return self.search(own, opponent, moves, alpha, beta, empties, False)

    def _ordered_children(self, own: Bitboard, opponent: Bitboard, moves: Bitboard,
                          first: Square | None) -> list[tuple[Square, Bitboard, Bitboard, Bitboard]]:
        """(square, child own, child opponent, child's moves) fastest-first: fewest opponent
        replies, corner replies weighted by ``CORNER_REPLY_PENALTY``; ``first`` (a table
        move) goes in front."""
        scored: list[tuple[int, Square, Bitboard, Bitboard, Bitboard]] = []
        while moves:
            bit = moves & -moves
            moves ^= bit
            square = bit.bit_length() - 1
            flipped = flips(own, opponent, square)
            child_own = opponent ^ flipped
            child_opponent = own | flipped | bit
            replies = legal_moves_mask(child_own, child_opponent)
            cost = replies.bit_count() + CORNER_REPLY_PENALTY * (replies & CORNERS).bit_count()
            if square == first:
                cost = -1
            scored.append((cost, square, child_own, child_opponent, replies))
        scored.sort()
        return [entry[1:] for entry in scored]

    def search(self, own: Bitboard, opponent: Bitboard, moves: Bitboard, alpha: int, beta: int,
               empties: int, passed: bool) -> int:
        """Negamax value for ``own`` to move, fail-soft within ``(alpha, beta)``; ``moves`` is
        ``legal_moves_mask(own, opponent)``, already known to the caller."""
        self.nodes += 1
        if self.nodes >= self._next_poll:  # one int compare per node when nobody polls
            self._report_nodes()
        if not moves:
            if passed:
                return final_margin(own, opponent)
            return -self.search(opponent, own, legal_moves_mask(opponent, own),
                                -beta, -alpha, empties, True)
        key = (own, opponent)
        table_move: Square | None = None
        use_table = empties >= TABLE_MIN_EMPTIES
        if use_table:
            entry = self.table.get(key)
            if entry is not None:
                lower, upper, table_move = entry
                if lower >= beta:
                    return lower
                if upper <= alpha:
                    return upper
                if lower > alpha:
                    alpha = lower
                if upper < beta:
                    beta = upper
        original_alpha = alpha
        best = -SCORE_LIMIT - 1
        best_move = 0
        child_empties = empties - 1
        shallow_child = child_empties <= SHALLOW_EMPTIES
        children = self._ordered_children(own, opponent, moves, table_move)
        if child_empties >= TABLE_MIN_EMPTIES:  # enhanced transposition cutoff
            table = self.table
            for _, child_own, child_opponent, _ in children:
                entry = table.get((child_own, child_opponent))
                if entry is not None and -entry[1] >= beta:
                    return -entry[1]
        for square, child_own, child_opponent, child_moves in children:
            if shallow_child:
                empty = ~(child_own | child_opponent) & FULL
                parity = quadrant_parity(empty)
                if best == -SCORE_LIMIT - 1:
                    score = -self.shallow(child_own, child_opponent, -beta, -alpha, empty, parity,
                                          False)
                else:
                    score = -self.shallow(child_own, child_opponent, -alpha - 1, -alpha, empty,
                                          parity, False)
                    if alpha < score < beta:
                        score = -self.shallow(child_own, child_opponent, -beta, -score, empty,
                                              parity, False)
            elif best == -SCORE_LIMIT - 1:
                score = -self.search(child_own, child_opponent, child_moves, -beta, -alpha,
                                     child_empties, False)
            else:
                score = -self.search(child_own, child_opponent, child_moves, -alpha - 1, -alpha,
                                     child_empties, False)
                if alpha < score < beta:
                    score = -self.search(child_own, child_opponent, child_moves, -beta, -score,
                                         child_empties, False)
            if score > best:
                best = score
                best_move = square
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        if use_table:
            self._store(key, best, original_alpha, beta, best_move)
        return best

    def _store(self, key: tuple[Bitboard, Bitboard], score: int, alpha: int, beta: int,
               best_move: Square) -> None:
        """Record ``score`` as a bound (fail-soft: below alpha it is an upper bound, at or
        above beta a lower bound), narrowing what the table already knew."""
        table = self.table
        lower, upper = -SCORE_LIMIT, SCORE_LIMIT
        entry = table.get(key)
        if entry is not None:
            lower, upper = entry[0], entry[1]
        if score <= alpha:
            upper = min(upper, score)
        elif score >= beta:
            lower = max(lower, score)
        else:
            lower = upper = score
        if len(table) >= TABLE_MAX_ENTRIES:
            table.clear()
        table[key] = (lower, upper, best_move)

    def shallow(self, own: Bitboard, opponent: Bitboard, alpha: int, beta: int, empty: Bitboard,
                parity: int, passed: bool) -> int:
        """Negamax near the end (few empties): try each empty square directly, squares of
        odd quadrants (``parity``) first; the last empty square is scored in place."""
        self.nodes += 1
        best = -SCORE_LIMIT - 1
        odd = ODD_REGIONS[parity]
        for region in (empty & odd, empty & ~odd):
            while region:
                bit = region & -region
                region ^= bit
                square = bit.bit_length() - 1
                if not NEIGHBOURS[square] & opponent:
                    continue
                flipped = flips(own, opponent, square)
                if not flipped:
                    continue
                rest = empty ^ bit
                child_own = opponent ^ flipped
                child_opponent = own | flipped | bit
                if rest.bit_count() > 2:
                    score = -self.shallow(child_own, child_opponent, -beta, -alpha, rest,
                                          parity ^ QUADRANT_BITS[square], False)
                elif rest & (rest - 1):
                    low = rest & -rest
                    score = -self.two_empties(child_own, child_opponent, -beta, -alpha,
                                               low.bit_length() - 1, (rest ^ low).bit_length() - 1,
                                               False)
                elif rest:
                    self.nodes += 1
                    score = -last_move_score(child_own, child_opponent, rest.bit_length() - 1)
                else:
                    score = 2 * child_opponent.bit_count() - SQUARE_COUNT
                if score > best:
                    best = score
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            return best
        if best == -SCORE_LIMIT - 1:
            if passed:
                return final_margin(own, opponent)
            return -self.shallow(opponent, own, -beta, -alpha, empty, parity, True)
        return best

    def two_empties(self, own: Bitboard, opponent: Bitboard, alpha: int, beta: int,
                    first: Square, second: Square, passed: bool) -> int:
        """Negamax value for ``own`` to move with exactly two empty squares: both orders tried
        directly, each finished by ``last_move_score``, without the general loop."""
        self.nodes += 1
        best = -SCORE_LIMIT - 1
        if NEIGHBOURS[first] & opponent:
            flipped = flips(own, opponent, first)
            if flipped:
                self.nodes += 1
                best = -last_move_score(opponent ^ flipped, own | flipped | 1 << first, second)
                if best >= beta:
                    return best
        if NEIGHBOURS[second] & opponent:
            flipped = flips(own, opponent, second)
            if flipped:
                self.nodes += 1
                score = -last_move_score(opponent ^ flipped, own | flipped | 1 << second, first)
                if score > best:
                    best = score
        if best > -SCORE_LIMIT - 1:
            return best
        if passed:
            return final_margin(own, opponent)
        return -self.two_empties(opponent, own, -beta, -alpha, first, second, True)


def solve_position(own: Bitboard, opponent: Bitboard) -> SolveResult:
    """Exact value and best move for the side to move (``own``), with a fresh table."""
    return EndgameSolver().solve(own, opponent)
