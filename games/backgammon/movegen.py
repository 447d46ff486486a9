"""The move generator: every distinct legal play for a roll.

The rules it enforces (gnubg manual, "Movement of the checkers"): checkers on the bar enter
before anything else moves; a point held by two or more opposing checkers is closed; bearing
off needs every checker home, and a die larger than the highest occupied point bears off from
that point; both dice must be played when possible, else the larger one when either can be;
doubles are four moves, as many as possible.

A play is a whole turn, and plays that reach the same position are one play: the generator
walks every order of the dice, keys each finished position exactly (the mover's 26 counts
packed into a Python int plus a bitmask of the points hit) and keeps the first hop sequence
that reached it. This is the hot loop of expectiminimax, so it works in place on the two
board lists and undoes each hop, keeps the packed key incrementally, and for doubles only
moves checkers in non-increasing order of source point (any multiset of equal hops can be
ordered that way, so no position is missed and most transpositions are never generated).
"""

from __future__ import annotations

from games.backgammon.board import BAR, HOME_POINTS, NO_MOVE, OFF, Board, Hop, Play

COUNT_BITS = 4
"""Bits per point in the packed position key (a point holds at most 15 checkers)."""

_PACK: tuple[int, ...] = tuple(1 << (COUNT_BITS * point) for point in range(BAR + 1))
_HIT_BIT: tuple[int, ...] = tuple(1 << (COUNT_BITS * (BAR + 1) + point) for point in range(BAR + 1))

_DOUBLE_HOPS = 4


def _pack(board: Board) -> int:
    packed = 0
    for point in range(BAR + 1):
        packed += board[point] * _PACK[point]
    return packed


def _canonical(hops: list[Hop]) -> Play:
    """Hops sorted from the back of the board forward: replayable in that order."""
    return tuple(sorted(hops, reverse=True))


class _Generator:
    """One generation: the boards (mutated and restored), the dice and the results.

    A class rather than nested closures so that the hot state lives in attributes the
    loops copy into locals once per call.
    """

    __slots__ = ("mine", "theirs", "outside", "hops", "found", "best_depth")

    def __init__(self, mine: Board, theirs: Board) -> None:
        self.mine = mine
        self.theirs = theirs
        # Checkers outside the home board (points 7..24 and the bar): bearing off waits for 0.
        self.outside = sum(mine[HOME_POINTS + 1 :])
        self.hops: list[Hop] = []
        self.found: dict[int, Play] = {}
        self.best_depth = 0

    def record(self, packed: int, depth: int) -> None:
        if depth > self.best_depth:
            self.best_depth = depth
            self.found = {}
        if depth == self.best_depth and packed not in self.found:
            self.found[packed] = _canonical(self.hops)

    def can_bear_off_from(self, source: int) -> bool:
        """With a die larger than ``source``: only from the highest occupied point."""
        mine = self.mine
        for point in range(source + 1, HOME_POINTS + 1):
            if mine[point]:
                return False
        return True

    def sources(self, die: int, highest: int) -> list[int]:
        """Points (at most ``highest``) from which a checker can move ``die`` pips."""
        mine, theirs = self.mine, self.theirs
        if mine[BAR]:
            if highest == BAR and theirs[die] < 2:  # entry point BAR - die is their point die
                return [BAR]
            return []
        result = []
        bearing_off = self.outside == 0
        for source in range(min(highest, BAR - 1), 0, -1):
            if not mine[source]:
                continue
            target = source - die
            if target > 0:
                if theirs[BAR - target] < 2:
                    result.append(source)
            elif bearing_off and (target == 0 or self.can_bear_off_from(source)):
                result.append(source)
        return result

    def hop(self, source: int, die: int, packed: int) -> tuple[int, bool]:
        """Move one checker; return the new packed key and whether it hit."""
        mine, theirs = self.mine, self.theirs
        target = source - die
        if target < 0:
            target = OFF
        mine[source] -= 1
        mine[target] += 1
        packed += _PACK[target] - _PACK[source]
        if source > HOME_POINTS >= target:
            self.outside -= 1
        hit = False
        if target and theirs[BAR - target] == 1:
            theirs[BAR - target] = 0
            theirs[BAR] += 1
            packed += _HIT_BIT[target]
            hit = True
        self.hops.append((source, target))
        return packed, hit

    def unhop(self, source: int, die: int, hit: bool) -> None:
        mine, theirs = self.mine, self.theirs
        target = source - die
        if target < 0:
            target = OFF
        mine[target] -= 1
        mine[source] += 1
        if source > HOME_POINTS >= target:
            self.outside += 1
        if hit:
            theirs[BAR - target] = 1
            theirs[BAR] -= 1
        self.hops.pop()

    def leaves(self, sources: list[int], die: int, packed: int, depth: int) -> None:
        """Record the positions one more hop of ``die`` reaches from each of ``sources``.

        The last hop of a play is never made on the boards: its packed key is computed
        arithmetically and the hop list built only for a new position (measured: most
        generated sequences are leaves, and most leaves are transpositions).
        """
        theirs, found = self.theirs, self.found
        if depth > self.best_depth:
            self.best_depth = depth
            found = self.found = {}
        for source in sources:
            target = source - die
            if target < 0:
                target = OFF
            key = packed + _PACK[target] - _PACK[source]
            if target and theirs[BAR - target] == 1:
                key += _HIT_BIT[target]
            if key not in found:
                found[key] = _canonical(self.hops + [(source, target)])

    def doubles(self, die: int, highest: int, depth: int, packed: int) -> None:
        """Up to four hops of ``die``, each from a point no higher than the previous one."""
        sources = self.sources(die, highest)
        if not sources:
            self.record(packed, depth)
        elif depth == _DOUBLE_HOPS - 1:
            self.leaves(sources, die, packed, _DOUBLE_HOPS)
        else:
            for source in sources:
                next_packed, hit = self.hop(source, die, packed)
                self.doubles(die, source, depth + 1, next_packed)
                self.unhop(source, die, hit)

    def two_dice(self, first: int, second: int, packed: int) -> dict[int, Play]:
        """Plays starting with ``first``: both dice where possible, else ``first`` alone.

        Returns the one-die plays separately (the caller applies the larger-die rule).
        """
        single: dict[int, Play] = {}
        for source in self.sources(first, BAR):
            after_first, hit = self.hop(source, first, packed)
            followers = self.sources(second, BAR)
            if followers:
                self.leaves(followers, second, after_first, 2)
            elif self.best_depth < 2 and after_first not in single:
                single[after_first] = _canonical(self.hops)
            self.unhop(source, first, hit)
        return single


def generate_plays(mine: Board, theirs: Board, high: int, low: int) -> list[Play]:
    """Every distinct legal play of the roll ``high``-``low`` for the owner of ``mine``.

    ``mine`` and ``theirs`` are the two players' boards in their own numbering; they are
    changed during the search and restored before returning. Returns ``[NO_MOVE]`` when
    nothing can be played.
    """
    generator = _Generator(mine, theirs)
    packed = _pack(mine)
    if high == low:
        generator.doubles(high, BAR, 0, packed)
        if generator.best_depth == 0:
            return [NO_MOVE]
        return list(generator.found.values())
    single_high = generator.two_dice(high, low, packed)
    single_low = generator.two_dice(low, high, packed)
    if generator.best_depth == 2:
        return list(generator.found.values())
    # Only one die can be played: the larger one if it can be, else the smaller.
    if single_high:
        return list(single_high.values())
    if single_low:
        return list(single_low.values())
    return [NO_MOVE]


def hit_points(mine: Board, theirs: Board, play: Play) -> list[int]:
    """The points (mover's numbering) where ``play`` hits, in the order it hits them."""
    points: list[int] = []
    for source, target in play:
        if target and target not in points and theirs[BAR - target] == 1:
            points.append(target)
    return points
