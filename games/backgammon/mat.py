"""A backgammon match as a Jellyfish ``.mat`` file, the text GNU Backgammon (``import
mat``), eXtreme Gammon and BGBlitz read.

The format was never specified; it is what JellyFish wrote and what gnubg's ``export match
mat`` writes now, and this writer follows gnubg's output line for line (checked by importing
our files into gnubg and exporting them again: ``tests/games/test_backgammon_mat_gnubg.py``):

* an optional header of ``; [Name "value"]`` comment lines (``EventDate``), a blank line,
  `` N point match`` and a blank line;
* each game: `` Game k``, the score before it (`` O : 3`` in a 31-character column, then
  ``X : 5``), then its moves two to a line, player 0 (O, gnubg's first player) on the left
  and player 1 (X) on the right: ``%3d) `` the move number, the left cell padded to 27
  characters, a space, the right cell. A game that X begins leaves the first left cell
  empty;
* a checker play is its dice and each checker's hop in the mover's numbering (bar 25, off
  0), ``*`` where it hits: ``52: 13/8 24/22`` (each hop followed by a space but the fourth,
  a roll with no play is ``66: ``); a double is `` Doubles => 2`` (the new cube), an answer
  `` Takes`` or `` Drops`` in the other player's cell; "roll, no double" is not written;
* the game's end: ``Wins N point(s)``, N the points won (the cube once on a drop; the cube
  times 1, 2 or 3 when the last checker is borne off; what the game gave, for a game
  conceded). O's line stands alone at column 6; X's in the right cell after a left one, else
  alone at column 34 (gnubg reads a cell's column as its player); then a blank line.

gnubg reads a game's score from its score line and finds the Crawford game itself (the
first at one player 1-away), as this app plays it. A game that did not start from the
opening position (a position set up or pasted) cannot be written as moves: it is written
as its score line and result, and ``MatFile.left_out`` says so. A match lost on the clock
ends with the points the flag gave; gnubg reads a "Wins" line as a resignation, worth at
most a backgammon at the cube.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from games.backgammon.board import PLAYER_NAMES, O, X, starting_board
from games.backgammon.gnubg_ids import CENTRED
from games.backgammon.match import Match
from games.backgammon.notation import DOUBLE, TAKE
from games.backgammon.phase import CHECKER_PLAY, CUBE_DECISION, OPENING, TAKE_DECISION
from games.backgammon.state import BackgammonState
from games.base import GameError, Player
from games.records import MATCH_GAME, RESULTS, GameRecord

MAT_EXTENSION = "mat"
NUMBER_WIDTH = 3
"""A move number's width: ``%3d) ``."""
CELL_WIDTH = 27
"""The left cell's width; the right cell starts after it and one space (column 33)."""
SCORE_WIDTH = 31
"""The score line's first column (`` O : 3`` padded), after its leading space."""
O_RESULT_INDENT = 6
"""Where O's "Wins" line starts: under the left cell's text."""
X_RESULT_INDENT = NUMBER_WIDTH + 2 + CELL_WIDTH + 2
"""Where X's "Wins" line starts when it stands alone: column 34, under a right cell's text
(cube actions there start with a space at column 33)."""
NAME_LIMIT = 31
"""gnubg keeps at most 31 characters of a player's name (``MAX_NAME_LEN``)."""


class MatError(ValueError):
    """Games that are no match to write (another game, another match's length)."""


@dataclass(frozen=True)
class MatFile:
    """A match as ``.mat`` text, and what of it the format could not hold (one line each)."""

    text: str
    left_out: tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class _Cell:
    """One player's entry in a game's move list: a play, a double, a take or a drop."""

    player: Player
    text: str


@dataclass(frozen=True)
class _Ending:
    """How a game ended: who won how many points."""

    winner: Player
    points: int
    dropped: bool = False


def write_mat(
    games: Sequence[GameRecord],
    *,
    final: Match | None = None,
    names: tuple[str, str] = PLAYER_NAMES,
    date: str = "",
) -> MatFile:
    """The match of ``games`` (its games in order, each a backgammon record whose start
    position's Match ID carries the score before it) as a ``.mat`` file. ``final``: the
    match after the last game (its points when the game was conceded or lost on the clock;
    without it a concession is worth the cube); ``names``: players 0 and 1 (O and X);
    ``date``: ``YYYY.MM.DD``, the ``EventDate`` comment. ``MatError`` when the games are
    no match."""
    if not games:
        raise MatError("a match file needs at least one game")
    starts = [_match_of(record, number) for number, record in enumerate(games, start=1)]
    length = starts[0].length
    for number, start in enumerate(starts, start=1):
        if start.length != length:
            raise MatError(f"game {number} belongs to a {start.length}-point match, not to this {length}-point one")
    after = [start.score for start in starts[1:]] + [None if final is None else final.score]
    shown = tuple(_name(name, PLAYER_NAMES[player]) for player, name in enumerate(names))
    lines = [f'; [EventDate "{date}"]'] if date else []
    lines += ["", f" {length} point match", ""]
    left_out: list[str] = []
    for number, (record, start, score_after) in enumerate(zip(games, starts, after), start=1):
        score_line = f"{shown[O]} : {start.score[O]}"
        lines += [f" Game {number}", f" {score_line:<{SCORE_WIDTH}}{shown[X]} : {start.score[X]}"]
        cells, ending = _game(record, start, score_after)
        if cells is None:
            left_out.append(f"game {number} starts from a position set up by hand: only its score and result are written")
            cells = []
        lines += _layout(cells, ending)
    return MatFile("\n".join(lines) + "\n", tuple(left_out))


def _match_of(record: GameRecord, number: int) -> Match:
    if record.game != MATCH_GAME:
        raise MatError(f"game {number} is {record.game}, not backgammon")
    try:
        match = Match.from_state(BackgammonState.from_text(record.start))
    except ValueError as error:
        raise MatError(f"game {number} starts from no match position: {error}") from None
    if match is None:
        raise MatError(f"game {number} is a money game, not a game of a match")
    return match


def _name(name: str, fallback: str) -> str:
    """A player's name as the score line can hold it: one line, no colon (the line's
    separator), at most ``NAME_LIMIT`` characters; the side's letter when empty."""
    cleaned = " ".join(name.replace(":", " ").split())[:NAME_LIMIT].strip()
    return cleaned or fallback


def _is_opening(state: BackgammonState) -> bool:
    """The game starts as every game does: before the opening roll, checkers at home,
    cube 1 in the middle."""
    return (
        state.phase == OPENING
        and state.boards == [starting_board(), starting_board()]
        and state.cube_value == 1
        and state.cube_owner == CENTRED
    )


def _game(record: GameRecord, start: Match, score_after: tuple[int, int] | None) -> tuple[list[_Cell] | None, _Ending | None]:
    """The cells of a game's moves (``None`` when it did not start from the opening
    position) and how it ended (``None``: not yet)."""
    state = BackgammonState.from_text(record.start)
    cells: list[_Cell] | None = [] if _is_opening(state) else None
    try:
        for name in record.moves:
            cell = _play(state, name)
            if cell is not None and cells is not None:
                cells.append(cell)
    except GameError as error:
        raise MatError(f"a game of the match cannot be replayed: {error}") from None
    if cells is not None and state.phase == CHECKER_PLAY:  # it stopped with the dice rolled
        cells.append(_Cell(state.player, _dice(state)))
    if state.is_terminal():
        return cells, _Ending(state.game_winner, state.points, state.dropped)
    if record.result not in RESULTS[:2]:
        return cells, None
    winner = RESULTS.index(record.result)
    points = state.cube_value if score_after is None else score_after[winner] - start.score[winner]
    return cells, _Ending(winner, max(points, 1))


def _dice(state: BackgammonState) -> str:
    """``52: ``: the dice of the player to play, as a cell begins."""
    return f"{state.dice[0]}{state.dice[1]}: "


def _play(state: BackgammonState, name: str) -> _Cell | None:
    """Play the move ``name`` on ``state``; its cell, if it writes one (the dice are
    written with the play they are for, "roll, no double" not at all)."""
    phase, mover, cube, dice = state.phase, state.player, state.cube_value, _dice(state)
    move = state.parse_move(name)
    state.play_checked(move)
    if phase == CUBE_DECISION:
        return _Cell(mover, f" Doubles => {2 * cube}") if move == DOUBLE else None
    if phase == TAKE_DECISION:
        return _Cell(1 - mover, " Takes" if move == TAKE else " Drops")
    if phase == CHECKER_PLAY:
        hits = state.history[-1][2]
        hops = [f"{source}/{target}{'*' if hit else ''}" for (source, target), hit in zip(move, hits)]
        tail = " " if 0 < len(hops) < 4 else ""  # gnubg: a space after every hop but the fourth
        return _Cell(mover, dice + " ".join(hops) + tail)
    return None


def _layout(cells: Sequence[_Cell], ending: _Ending | None) -> list[str]:
    """A game's lines: its cells two to a line (O left, X right), then its result and a
    blank line."""
    rows: list[list[str | None]] = []
    slot = 0  # even: the left cell of row slot // 2; odd: its right cell
    for cell in cells:
        if slot % 2 != cell.player:
            slot += 1
        while len(rows) <= slot // 2:
            rows.append(["", None])
        rows[slot // 2][slot % 2] = cell.text
        slot += 1
    lines = [f"{number:{NUMBER_WIDTH}d}) {left or '':<{CELL_WIDTH}} {right or ''}" for number, (left, right) in enumerate(rows, start=1)]
    if ending is None:  # the game goes on
        return lines
    won = f"Wins {ending.points} point{'s' if ending.points != 1 else ''}"
    if ending.winner == X and slot % 2 == 1 and lines:  # beside O's last cell (a drop's is padded)
        lines[-1] += f" {won}" + (" " if ending.dropped else "")
    elif ending.winner == X:
        lines.append(" " * X_RESULT_INDENT + won)
    else:
        lines.append(" " * O_RESULT_INDENT + won)
    return lines + [""]


__all__ = ["MAT_EXTENSION", "MatError", "MatFile", "write_mat"]
