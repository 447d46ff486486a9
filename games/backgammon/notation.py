"""Standard backgammon notation, as gnubg writes it: ``24/18 13/11``, ``bar/22*``,
``6/off``, ``8/5(2)``, ``13/7*/5``; rolls ``6-5``; cube actions by name.

Points are in the mover's numbering (bar = 25, off = 0). One checker's consecutive hops are
written as one path, showing an intermediate point only where it hits (``13/7*/5``);
identical paths are grouped with a count (``8/5(2)``).

A board shows one numbering at a time, so a program that puts text beside a board can ask
for a play in the *opponent's* numbering instead (``format_play(..., numbering=OPPONENT)``):
point ``p`` is written ``25 - p``, so the same play reads ``1/10`` where its mover writes
``24/15``. Files, the command line and gnubg always get the mover's numbering.

Parsing is lenient in form and strict in meaning: spaces or commas between paths, ``bar`` or
``25``, ``off`` or ``0``, ``(2)`` multipliers, ``*`` optional, ``-`` accepted for ``/``, any
combination of a checker's hops into one path. The parser produces a ``PlayText`` (where
checkers leave from and arrive at, and the points marked as hits); ``match_play`` finds the
legal play it describes by the position it reaches, or says why none does.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from collections.abc import Sequence

from games.backgammon import diagnosis
from games.backgammon.board import BAR, DIE_FACES, NO_MOVE, OFF, Board, Play, Roll, point_name
from games.backgammon.movegen import hit_points
from games.base import IllegalMoveError

NO_MOVE_NAME = "no move"
NO_MOVE_ALIASES = frozenset({"no move", "nomove", "no-move", "cannot move", "can't move", "none", "-", "pass"})

DOUBLE = "double"
NO_DOUBLE = "roll"
TAKE = "take"
DROP = "drop"
CUBE_ACTION_ALIASES: dict[str, str] = {
    "double": DOUBLE,
    "redouble": DOUBLE,
    "roll": NO_DOUBLE,
    "no double": NO_DOUBLE,
    "no-double": NO_DOUBLE,
    "nodouble": NO_DOUBLE,
    "no redouble": NO_DOUBLE,
    "take": TAKE,
    "accept": TAKE,
    "drop": DROP,
    "pass": DROP,
    "refuse": DROP,
    "reject": DROP,
    "decline": DROP,
}

MAX_MULTIPLIER = 4
_MULTIPLIER = re.compile(r"^(.*?)\(([0-9]+)\)$")
_ROLL = re.compile(r"^([1-6])\s*[-/, x]?\s*([1-6])$")


# ------------------------------------------------------------------------ rolls
def roll_name(roll: Roll) -> str:
    """``6-5`` (the higher die first)."""
    return f"{max(roll)}-{min(roll)}"


def parse_roll(text: str) -> Roll:
    """``(high, low)`` from ``6-5``, ``65``, ``5-6``, ``6 5``; ``IllegalMoveError`` otherwise."""
    match = _ROLL.match(text.strip().lower())
    if not match:
        raise IllegalMoveError(f"{text!r} is not a roll: write two dice 1-6 like 6-5")
    first, second = int(match.group(1)), int(match.group(2))
    return (max(first, second), min(first, second))


# ---------------------------------------------------------------- naming plays
class Numbering(enum.Enum):
    """Whose point numbers a play is written in."""

    MOVER = "mover"
    """The standard: every player counts from their own home board (gnubg, files, CLI)."""
    OPPONENT = "opponent"
    """The other player's numbers: a play written as it reads on a board labelled for the
    player who did not make it."""


MOVER = Numbering.MOVER
OPPONENT = Numbering.OPPONENT


def _written_point(point: int, numbering: Numbering) -> str:
    """``point`` (mover's numbering) as written in ``numbering``; bar and off keep their names."""
    if numbering is OPPONENT and point not in (BAR, OFF):
        return point_name(BAR - point)
    return point_name(point)


def format_play(mine: Board, theirs: Board, play: Play, numbering: Numbering = MOVER) -> str:
    """gnubg-style name of ``play`` for the owner of ``mine`` (boards before the play),
    written in ``numbering`` (the mover's own, unless a board labelled for the other player
    shows it)."""
    if play == NO_MOVE:
        return NO_MOVE_NAME
    opponent_blots = {point for point in range(1, BAR) if theirs[BAR - point] == 1}
    # Each path: the points one checker visits and whether it hit on arriving there.
    paths: list[tuple[list[int], list[bool]]] = []
    for source, target in play:
        hit = target in opponent_blots
        if hit:
            opponent_blots.discard(target)
        for points, hits in paths:
            if points[-1] == source:
                points.append(target)
                hits.append(hit)
                break
        else:
            paths.append(([source, target], [False, hit]))
    # Checkers travelling the same points are written once with a count; a hit by any of
    # them marks the point (gnubg: "21/17*(2)" when the first of two checkers hits).
    groups: dict[tuple[int, ...], tuple[list[bool], int]] = {}
    for points, hits in paths:
        route = tuple(points)
        if route in groups:
            merged, count = groups[route]
            groups[route] = ([old or new for old, new in zip(merged, hits)], count + 1)
        else:
            groups[route] = (hits, 1)
    written = []
    for route, (hits, count) in groups.items():
        shown = [_written_point(route[0], numbering)]
        for index in range(1, len(route)):
            if hits[index]:
                shown.append(_written_point(route[index], numbering) + "*")
            elif index == len(route) - 1:
                shown.append(_written_point(route[index], numbering))
        text = "/".join(shown)
        written.append(text if count == 1 else f"{text}({count})")
    return " ".join(written)


# --------------------------------------------------------------- parsing plays
@dataclass(frozen=True)
class PlayText:
    """What a written play says: checkers moved ``(from, to)`` and the points marked hit."""

    moves: tuple[tuple[int, int], ...]
    marked_hits: frozenset[int]


def _parse_point(text: str, whole: str) -> int:
    if text == "bar":
        return BAR
    if text == "off":
        return OFF
    if not (text.isascii() and text.isdigit()):  # "1²".isdigit() holds, but int() refuses it
        raise IllegalMoveError(f"{text!r} in {whole!r} is not a point: use 1-24, bar (25) or off (0)")
    point = int(text)
    if point > BAR:
        raise IllegalMoveError(f"point {point} does not exist (1-24, bar = 25, off = 0)")
    return point


def _parse_path(token: str) -> tuple[list[tuple[int, int]], set[int]]:
    count = 1
    multiplied = _MULTIPLIER.match(token)
    if multiplied:
        token, count = multiplied.group(1), int(multiplied.group(2))
        if not 1 <= count <= MAX_MULTIPLIER:
            raise IllegalMoveError(f"({count}) is not a possible number of checkers (1-{MAX_MULTIPLIER})")
    parts = token.replace("-", "/").split("/")
    if len(parts) < 2 or any(not part for part in parts):
        raise IllegalMoveError(f"{token!r} is not a checker move: write from/to, like 13/7 or bar/22*")
    points: list[int] = []
    marked: set[int] = set()
    for index, part in enumerate(parts):
        hit = part.endswith("*")
        point = _parse_point(part.rstrip("*"), token)
        if hit:
            if index == 0:
                raise IllegalMoveError(f"{token!r}: a checker cannot hit where it starts")
            if point == OFF:
                raise IllegalMoveError(f"{token!r}: nothing can be hit off the board")
            marked.add(point)
        if points and point >= points[-1]:
            raise IllegalMoveError(
                f"{token!r}: checkers move from higher to lower points "
                f"({point_name(points[-1])} to {point_name(point)} goes backwards)"
            )
        if index > 0 and point == BAR:
            raise IllegalMoveError(f"{token!r}: a checker can only leave the bar, not move to it")
        if index < len(parts) - 1 and point == OFF:
            raise IllegalMoveError(f"{token!r}: a checker borne off cannot move on")
        points.append(point)
    return [(points[0], points[-1])] * count, marked


def parse_play_text(text: str) -> PlayText:
    """The checker moves written in ``text``; ``IllegalMoveError`` for malformed text."""
    cleaned = text.strip().lower().replace(",", " ")
    tokens = cleaned.split()
    if not tokens:
        raise IllegalMoveError("an empty string names no play (write e.g. 13/7 8/7, or 'no move')")
    moves: list[tuple[int, int]] = []
    marked: set[int] = set()
    for token in tokens:
        token_moves, token_marked = _parse_path(token)
        moves.extend(token_moves)
        marked |= token_marked
    return PlayText(tuple(moves), frozenset(marked))


def match_play(text: str, mine: Board, theirs: Board, dice: Roll, plays: Sequence[Play], names: tuple[str, str]) -> Play:
    """The play among ``plays`` (the legal plays of ``dice``, ``mine`` to move against
    ``theirs``) that ``text`` describes: the one reaching the position the written moves
    reach, hitting on the points marked ``*``; where several do, the one hitting least
    (unmarked passing points do not hit unless no other way reaches the position).
    ``IllegalMoveError`` says why no legal play fits; ``names`` are the mover's and the
    opponent's, for those messages."""
    roll = roll_name(dice)
    if is_no_move_text(text):
        if list(plays) == [NO_MOVE]:
            return NO_MOVE
        raise IllegalMoveError(f"{roll} can be played (e.g. {format_play(mine, theirs, plays[0])}): 'no move' is not legal")
    written = parse_play_text(text)
    target = list(mine)
    for source, destination in written.moves:
        if target[source] <= 0:
            where = "the bar" if source == BAR else f"point {source}"
            left = " left" if mine[source] else ""
            raise IllegalMoveError(f"{text.strip()!r} is not legal with {roll}: {names[0]} has no checker{left} on {where}")
        target[source] -= 1
        target[destination] += 1
    candidates = [play for play in plays if _board_after(mine, play) == target]
    if not candidates:
        why = _why_illegal(mine, theirs, dice, written.moves, plays, names)
        raise IllegalMoveError(f"{text.strip()!r} is not legal with {roll}: {why}")
    fitting = [play for play in candidates if written.marked_hits <= set(hit_points(mine, theirs, play))]
    if not fitting:
        marked = ", ".join(str(point) for point in sorted(written.marked_hits))
        raise IllegalMoveError(f"{text.strip()!r} hits nothing on {marked}: play {format_play(mine, theirs, candidates[0])}")
    fewest = min(len(hit_points(mine, theirs, play)) for play in fitting)
    best = [play for play in fitting if len(hit_points(mine, theirs, play)) == fewest]
    return best[0]


def _why_illegal(
    mine: Board, theirs: Board, dice: Roll, moves: Sequence[tuple[int, int]], plays: Sequence[Play], names: tuple[str, str]
) -> str:
    """Why the written checker moves are no legal play (only on the error path; see
    ``diagnosis``)."""
    sources = {source for source, _ in moves}
    # the example: a legal play that moves from the same points, if there is one
    example = format_play(mine, theirs, max(plays, key=lambda play: len(sources & {hop[0] for hop in play})))
    return diagnosis.why_illegal(mine, theirs, dice, moves, max(len(play) for play in plays), names, example)


def _board_after(board: Board, play: Play) -> Board:
    """``board`` with ``play``'s checkers moved (hits aside: they change the other board)."""
    after = list(board)
    for source, target in play:
        after[source] -= 1
        after[target] += 1
    return after


def is_no_move_text(text: str) -> bool:
    """Whether ``text`` names the forced empty play."""
    return " ".join(text.strip().lower().split()) in NO_MOVE_ALIASES


def cube_action(text: str) -> str | None:
    """The cube action ``text`` names (``double``/``roll``/``take``/``drop``), else ``None``."""
    return CUBE_ACTION_ALIASES.get(" ".join(text.strip().lower().split()))


def is_die(value: int) -> bool:
    """1..6."""
    return 1 <= value <= DIE_FACES
