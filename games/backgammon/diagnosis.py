"""Why a written play is illegal: the rule it breaks, in words a player can act on.

Only the error path of ``BackgammonState.parse_move`` comes here, so this module may be slow
and thorough where ``movegen`` must be fast. It replays the written checker moves in the
order written, trying every way to split each move's distance into the dice still unused, and
reports the first rule that stops every way: a checker on the bar that must enter first, a
blocked landing point, bearing off with checkers outside the home board (or from a lower
point with a die that only the highest checker may use), a distance the dice cannot make.
When some way plays every written move, the play broke a rule about the dice as a whole:
both dice (or all four of a double) must be used when possible, else the larger die.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import permutations

from games.backgammon.board import BAR, HOME_POINTS, OFF, Board, Roll, point_name

NUMBER_WORDS = ("no", "one", "two", "three", "four")
"""Small counts of dice in words ("the two 3s left")."""


def plural(count: int, noun: str) -> str:
    """``1 checker``, ``3 checkers``."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _join(words: Sequence[str]) -> str:
    """``7``, ``7 and 8``, ``5, 6 and 7``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


@dataclass
class _Search:
    """The replay's inputs and what it has learnt so far."""

    theirs: Board
    opponent: str
    player: str
    roll: Roll
    moves: Sequence[tuple[int, int]]
    deepest_failure: tuple[int, str] = (-1, "")
    completed: list[list[int]] = field(default_factory=list)
    """The dice used by each way that plays every written move."""


def why_illegal(
    mine: Board,
    theirs: Board,
    roll: Roll,
    moves: Sequence[tuple[int, int]],
    most: int,
    names: tuple[str, str],
    example: str,
) -> str:
    """The rule the written ``moves`` (``(from, to)`` in the mover's numbering) break.

    ``most``: how many dice the legal plays use (0 when the only play is "no move");
    ``names``: (mover, opponent); ``example``: a legal play's name.
    """
    player, opponent = names
    high, low = max(roll), min(roll)
    dice = [high] * 4 if high == low else [high, low]
    search = _Search(theirs=theirs, opponent=opponent, player=player, roll=roll, moves=moves)
    _replay(search, list(mine), 0, dice, [])
    if not search.completed:
        return search.deepest_failure[1]
    used = max(search.completed, key=len)
    if most == 0:
        return "no checker can move: the play is 'no move'"
    if len(used) < most:
        if high != low:
            return f"the play uses only one die but both can be used (e.g. {example})"
        return f"the play uses {NUMBER_WORDS[len(used)]} of the four {high}s but {most} can be used (e.g. {example})"
    if most == 1 and high != low and all(dice_used == [low] for dice_used in search.completed):
        # playing the smaller die alone would be legal if the larger could not be played
        return f"the play uses die {low} but the larger die {high} must be used (only one can be played, e.g. {example})"
    return f"the rules allow e.g. {example}"


def _replay(search: _Search, mine: Board, index: int, dice: list[int], used: list[int]) -> None:
    """Play written move ``index`` on, in every way the unused ``dice`` allow (``used``:
    the dice the moves before it took)."""
    if index == len(search.moves):
        search.completed.append(used)
        return
    source, destination = search.moves[index]
    if mine[BAR] and source != BAR:
        reason = f"{search.player} must enter from the bar first ({plural(mine[BAR], 'checker')} on the bar)"
        _fail(search, index, reason)
        return
    if destination == OFF:
        outside = sum(mine[HOME_POINTS + 1 :]) - (1 if source > HOME_POINTS else 0)
        if outside:
            _fail(search, index, _outside_problem(outside))
            return
    ways = _dice_orders(dice, source, destination)
    if not ways:
        _fail(search, index, _distance_problem(search, source, destination, dice))
        return
    problems: list[tuple[int, str]] = []
    for way in ways:
        board = list(mine)
        problem = _play_way(search, board, source, way)
        if problem is not None:
            problems.append(problem)
            continue
        remaining = list(dice)
        for die in way:
            remaining.remove(die)
        _replay(search, board, index + 1, remaining, [*used, *way])
    if problems:
        _fail(search, index, _combine(search, source, destination, ways, problems))


def _fail(search: _Search, index: int, reason: str) -> None:
    if index > search.deepest_failure[0]:
        search.deepest_failure = (index, reason)


def _dice_orders(dice: list[int], source: int, destination: int) -> list[tuple[int, ...]]:
    """Every order of unused dice that takes a checker from ``source`` exactly to
    ``destination`` (or, bearing off, at least off the board, the last die only)."""
    distance = source - destination
    orders = set()
    for count in range(1, len(dice) + 1):
        for order in permutations(dice, count):
            total = sum(order)
            if destination != OFF and total == distance:
                orders.add(order)
            elif destination == OFF and total >= distance and total - order[-1] < distance:
                orders.add(order)
    return sorted(orders, key=lambda order: (len(order), [-die for die in order]))


def _play_way(search: _Search, mine: Board, source: int, way: tuple[int, ...]) -> tuple[int, str] | None:
    """Move one checker from ``source`` die by die along ``way`` (on ``mine``, in place);
    the problem as (the blocked point, or 0 for another rule, and the reason), or ``None``
    if every step is legal."""
    theirs = search.theirs
    point = source
    for die in way:
        if mine[BAR] and point != BAR:
            return 0, f"{search.player} must enter from the bar first ({plural(mine[BAR], 'checker')} on the bar)"
        target = point - die
        if target > OFF:
            blockers = theirs[BAR - target]
            if blockers >= 2:
                return target, f"point {target} is blocked ({blockers} {search.opponent} checkers)"
        else:
            outside = sum(mine[HOME_POINTS + 1 :]) - (1 if point > HOME_POINTS else 0)
            if outside:
                return 0, _outside_problem(outside)
            higher = [str(above) for above in range(point + 1, HOME_POINTS + 1) if mine[above]]
            if target < OFF and higher:
                return 0, (
                    f"cannot bear off from {point} with the {die} while {_join(higher)} "
                    f"{'has' if len(higher) == 1 else 'have'} checkers (a die larger than the point "
                    f"bears off only from the highest point)"
                )
            target = OFF
        mine[point] -= 1
        mine[target] += 1
        point = target
    return None


def _outside_problem(outside: int) -> str:
    verb = "is" if outside == 1 else "are"
    return f"cannot bear off: {plural(outside, 'checker')} {verb} outside the home board"


def _combine(
    search: _Search, source: int, destination: int, ways: list[tuple[int, ...]], problems: list[tuple[int, str]]
) -> str:
    """One sentence for the problems of every way a written move could have gone."""
    # of the other rules, the one the first (simplest) way breaks
    reasons = [reason for point, reason in problems if point == 0][:1]
    blocked = {point: search.theirs[BAR - point] for point, _ in problems if point > 0}
    if not blocked:
        return reasons[0]
    if len(blocked) == 1:
        reasons.insert(0, next(reason for point, reason in problems if point > 0))
    elif len(set(blocked.values())) == 1:
        points = _join([str(point) for point in sorted(blocked)])
        reasons.insert(0, f"points {points} are blocked ({next(iter(blocked.values()))} {search.opponent} checkers each)")
    else:
        held = [f"{point} ({blocked[point]} {search.opponent} checkers)" for point in sorted(blocked)]
        reasons.insert(0, f"points {_join(held)} are blocked")
    if source == BAR:
        single = len(ways) == 1 and len(ways[0]) == 1
        action = f"cannot enter with the {ways[0][0]}" if single else f"cannot reach {point_name(destination)}"
        return f"a checker on the bar {action}: " + "; ".join(reasons)
    action = "cannot bear off" if destination == OFF else f"cannot move {source - destination}"
    return f"the checker on {source} {action}: " + "; ".join(reasons)


def _distance_problem(search: _Search, source: int, destination: int, dice: list[int]) -> str:
    """The written distance is no sum of the unused dice."""
    high, low = max(search.roll), min(search.roll)
    full = [high] * 4 if high == low else [high, low]
    move = f"{point_name(source)}/{point_name(destination)}"
    distance = source - destination
    if not dice:
        total = sum(start - end for start, end in search.moves)
        return (
            f"{move} moves {plural(distance, 'pip')}, but the dice {high}-{low} are used up by then "
            f"(the play moves {total} pips, the dice at most {sum(full)})"
        )
    if sorted(dice) == sorted(full):
        left = f"the dice {high}-{low}"
    elif high == low:
        left = f"the {NUMBER_WORDS[len(dice)]} {high}s left" if len(dice) > 1 else f"the {high} left"
    else:
        left = f"the {dice[0]} left"
    if destination == OFF:
        return f"{move} needs {plural(distance, 'pip')}, which {left} cannot make"
    return f"{move} moves {plural(distance, 'pip')}, which {left} cannot make"
