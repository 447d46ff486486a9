"""A backgammon turn built one checker step at a time, as a person enters it on a board.

A legal backgammon move is a whole turn (``state.legal_moves()`` holds every distinct play,
one per resulting position), but a person moves one checker at a time, in any order, and
may move one checker by both dice in one go. ``TurnBuilder`` keeps the steps entered so far
and answers the two questions a board asks:

* which steps may come next (``options``): a step is offered only when the steps so far plus
  it can still be completed into one of the legal plays, so the rules that bind the whole
  turn (both dice must be played when possible, else the larger one; doubles as many as
  possible) come from the move generator, never from here;
* which legal play the finished steps make (``complete_play``): the one reaching the same
  position, checkers hit included, taken from ``legal_moves()``.

To know what one step may do, the builder needs the rules for a single checker (checkers
on the bar enter first, a point held by two or more opposing checkers is closed, bearing
off needs every checker home and a die larger than the point bears off only from the
highest one). They only prune the search: a sequence of steps is accepted only if its
final position is one of the legal plays'.

Everything is in the mover's numbering (``games.backgammon.board``): bar 25, off 0.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.backgammon.board import BAR, HOME_POINTS, NO_MOVE, OFF, Board, Hop, Play
from games.backgammon.phase import CHECKER_PLAY
from games.backgammon.state import BackgammonState

Position = tuple[tuple[int, ...], tuple[int, ...]]
"""The mover's and the opponent's 26 counts: what identifies a play's result, hits included."""


@dataclass(frozen=True)
class Step:
    """What one click does: one checker moved by one or more dice (``hops``, in order)."""

    hops: tuple[Hop, ...]
    dice: tuple[int, ...]
    """The die used by each hop (a bear-off may use a larger die than the pips it needs)."""
    hits: tuple[bool, ...]
    """Whether each hop hit a blot."""

    @property
    def source(self) -> int:
        return self.hops[0][0]

    @property
    def target(self) -> int:
        return self.hops[-1][1]


def hop_sources(mine: Board, theirs: Board, die: int) -> list[int]:
    """Points from which one checker of ``mine`` may move ``die`` pips, by the rules for a
    single checker (see module doc): the bar only while it holds a checker."""
    if mine[BAR]:
        return [BAR] if theirs[die] < 2 else []  # entry on my point 25 - die, their point die
    bearing_off = not any(mine[HOME_POINTS + 1 : BAR])
    sources = []
    for source in range(BAR - 1, OFF, -1):
        if not mine[source]:
            continue
        target = source - die
        if target > 0:
            if theirs[BAR - target] < 2:
                sources.append(source)
        elif bearing_off and (target == 0 or not any(mine[source + 1 : HOME_POINTS + 1])):
            sources.append(source)
    return sources


def make_hop(mine: Board, theirs: Board, source: int, die: int) -> tuple[Hop, bool]:
    """Move one checker ``die`` pips from ``source`` in place; return the hop and whether it hit."""
    target = max(source - die, OFF)
    mine[source] -= 1
    mine[target] += 1
    hit = target != OFF and theirs[BAR - target] == 1
    if hit:
        theirs[BAR - target] = 0
        theirs[BAR] += 1
    return (source, target), hit


def unmake_hop(mine: Board, theirs: Board, hop: Hop, hit: bool) -> None:
    source, target = hop
    mine[target] -= 1
    mine[source] += 1
    if hit:
        theirs[BAR - target] = 1
        theirs[BAR] -= 1


def _without(dice: tuple[int, ...], die: int) -> tuple[int, ...]:
    index = dice.index(die)
    return dice[:index] + dice[index + 1 :]


class TurnBuilder:
    """The steps of one turn entered so far, over a copy of the state's boards.

    ``mine``/``theirs`` show the position after those steps (what the board draws);
    ``dice_left`` the dice not yet used.
    """

    def __init__(self, state: BackgammonState) -> None:
        if state.phase != CHECKER_PLAY:
            raise ValueError("a turn is built only when the dice are rolled and checkers are to be played")
        self.mover = state.player
        self.mine: Board = list(state.boards[self.mover])
        self.theirs: Board = list(state.boards[1 - self.mover])
        high, low = state.dice
        self.dice: tuple[int, ...] = (high,) * 4 if high == low else (high, low)
        self.dice_left: tuple[int, ...] = self.dice
        self.plays: list[Play] = state.legal_moves()
        self.length = len(self.plays[0])
        """Hops in every legal play (all have the same number: as many dice as can be played)."""
        self._results: dict[Position, Play] = {}
        for play in self.plays:
            mine, theirs = list(self.mine), list(self.theirs)
            for source, target in play:
                make_hop(mine, theirs, source, source - target)
            self._results[(tuple(mine), tuple(theirs))] = play
        self.steps: list[Step] = []
        self._finishable: dict[tuple[Position, tuple[int, ...]], bool] = {}
        self._options: dict[int, dict[int, Step]] | None = None

    # ---------------------------------------------------------------- queries
    @property
    def hops(self) -> tuple[Hop, ...]:
        """Every hop entered so far, in order."""
        return tuple(hop for step in self.steps for hop in step.hops)

    def is_forced_no_move(self) -> bool:
        """Neither die can be played: the only legal play is the empty one."""
        return self.plays == [NO_MOVE]

    def is_complete(self) -> bool:
        return len(self.hops) == self.length

    def complete_play(self) -> Play | None:
        """The legal play the steps make, once they are complete; else ``None``."""
        if not self.is_complete():
            return None
        return self._results.get((tuple(self.mine), tuple(self.theirs)))

    def options(self) -> dict[int, dict[int, Step]]:
        """``{source: {target: step}}``: every step that may come next.

        One checker may go as far as the remaining dice take it; where several routes reach
        the same point, the step takes the one with the fewest hops, then the fewest hits
        (hitting on the way is two clicks), then exact dice before a larger bear-off die.
        """
        if self._options is None:
            self._options = {}
            if not self.is_complete():
                found: dict[int, dict[int, tuple[tuple[int, int, int], Step]]] = {}
                for source in range(BAR, OFF, -1):
                    if self.mine[source]:
                        self._routes(source, source, (), (), (), self.dice_left, found)
                self._options = {
                    source: {target: ranked[1] for target, ranked in targets.items()}
                    for source, targets in found.items()
                }
        return self._options

    def _routes(
        self,
        source: int,
        here: int,
        hops: tuple[Hop, ...],
        dice: tuple[int, ...],
        hits: tuple[bool, ...],
        dice_left: tuple[int, ...],
        found: dict[int, dict[int, tuple[tuple[int, int, int], Step]]],
    ) -> None:
        """Extend the route of the checker now on ``here`` by each remaining die."""
        hops_left = self.length - len(self.hops) - len(hops)
        if not hops_left or here == OFF:
            return
        mine, theirs = self.mine, self.theirs
        for die in sorted(set(dice_left)):
            if here not in hop_sources(mine, theirs, die):
                continue
            hop, hit = make_hop(mine, theirs, here, die)
            remaining = _without(dice_left, die)
            route = Step(hops + (hop,), dice + (die,), hits + (hit,))
            if self._can_finish(remaining, hops_left - 1):
                inexact = sum(1 for (start, end), used in zip(route.hops, route.dice) if start - end != used)
                rank = (len(route.hops), sum(route.hits), inexact)
                best = found.setdefault(source, {}).get(hop[1])
                if best is None or rank < best[0]:
                    found[source][hop[1]] = (rank, route)
            self._routes(source, hop[1], route.hops, route.dice, route.hits, remaining, found)
            unmake_hop(mine, theirs, hop, hit)

    def _can_finish(self, dice_left: tuple[int, ...], hops_left: int) -> bool:
        """Whether ``hops_left`` more hops with ``dice_left`` reach a legal play's position."""
        position = (tuple(self.mine), tuple(self.theirs))
        if not hops_left:
            return position in self._results
        memo_key = (position, dice_left)
        known = self._finishable.get(memo_key)
        if known is not None:
            return known
        mine, theirs = self.mine, self.theirs
        result = False
        for die in set(dice_left):
            for source in hop_sources(mine, theirs, die):
                hop, hit = make_hop(mine, theirs, source, die)
                result = self._can_finish(_without(dice_left, die), hops_left - 1)
                unmake_hop(mine, theirs, hop, hit)
                if result:
                    break
            if result:
                break
        self._finishable[memo_key] = result
        return result

    # ---------------------------------------------------------------- changes
    def play_step(self, source: int, target: int) -> Step:
        """Move the checker on ``source`` to ``target`` (one of ``options``); ``ValueError``
        if that step is not offered."""
        step = self.options().get(source, {}).get(target)
        if step is None:
            raise ValueError(f"no step from {source} to {target} can be part of a legal play here")
        for hop, die in zip(step.hops, step.dice):
            make_hop(self.mine, self.theirs, hop[0], die)
            self.dice_left = _without(self.dice_left, die)
        self.steps.append(step)
        self._options = None
        return step

    def undo_step(self) -> Step | None:
        """Take back the last step; ``None`` when there is none."""
        if not self.steps:
            return None
        step = self.steps.pop()
        for hop, hit in zip(reversed(step.hops), reversed(step.hits)):
            unmake_hop(self.mine, self.theirs, hop, hit)
        self.dice_left = tuple(sorted(self.dice_left + step.dice, reverse=True))
        self._options = None
        return step

    def used_dice(self) -> list[bool]:
        """For each die of ``dice`` (four for doubles): whether a step has used it."""
        left = list(self.dice_left)
        used = []
        for die in self.dice:
            if die in left:
                left.remove(die)
                used.append(False)
            else:
                used.append(True)
        return used


__all__ = ["Position", "Step", "TurnBuilder", "hop_sources", "make_hop", "unmake_hop"]
