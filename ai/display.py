"""Scores as people read them: the one place that turns a ``Score`` into text.

The CLI, the UCI front end and the GUI all show scores through this module, so a score
means the same thing everywhere:

* it is seen by a named player (``(White) +0.35``), turned round here when the display's
  view is not the search's (the side to move at the root);
* an aspiration bound turns with it: a lower bound for one player is an upper bound for
  the other;
* a proven result reads as the game says (``WIN_WORDING``): chess's ``mate in 3`` /
  ``mated in 2``, other games' ``win in 5 plies`` / ``loss in 4 plies``; a game already
  over at the root reads ``won`` / ``lost`` (``Score.outcome`` keeps the winner when the
  view turns, where ``-0 == 0`` would lose it);
* an estimate is in the game's own unit (``SCORE_UNIT``: pawns, men, discs, equity
  points), never ``-0``.

Nothing here knows a game by name: the game class says its unit, its size and its words.

Error lines are read by people too: ``echo`` and ``one_line`` keep a user's value (a
100,000-character position) from flooding them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from games.base import GameState, Player

from ai.events import Score
from ai.tt import Bound as SearchBound

Bound = SearchBound | str
"""A search's bound (``ai.tt.Bound``) or its word, ``exact``, ``lower`` or ``upper``, from the
view of the score it goes with."""
OTHER_BOUND: dict[str, str] = {"lower": "upper", "upper": "lower", "exact": "exact"}


def turned(score: Score, bound: Bound, view: Player) -> tuple[Score, str]:
    """``score`` and its ``bound`` seen by ``view``: a lower bound turns into an upper one.
    The bound comes back as its word (a bound value reads as its word: ``str(bound)``)."""
    word = str(bound)
    if view == score.view:
        return score, word
    return score.for_player(view), OTHER_BOUND.get(word, word)


def in_units(score: Score, game: type[GameState]) -> float:
    """An estimate in the game's unit (pawns, discs ...), for a bar or a graph; a proven
    win or loss is ``±inf``."""
    if score.is_win:
        return float("inf") * score.outcome
    return score.value / game.SCORE_UNIT_SIZE


def result_text(score: Score, game: type[GameState]) -> str:
    """A proven result in the game's words, for ``score.view``."""
    plies = score.plies_to_end
    assert plies is not None, "result_text needs a proven result"
    won = score.outcome > 0
    if plies == 0:
        return "won" if won else "lost"
    if game.WIN_WORDING == "mate":
        moves = abs(score.mate_in_moves() or 0)
        return f"mate in {moves}" if won else f"mated in {moves}"
    return f"{'win' if won else 'loss'} in {plies} {'ply' if plies == 1 else 'plies'}"


def value_text(score: Score, game: type[GameState]) -> str:
    """``+0.35`` (pawns), ``mate in 3``, ``loss in 4 plies``, ``won``: for ``score.view``."""
    if score.is_win:
        return result_text(score, game)
    decimals = game.SCORE_DECIMALS
    shown = round(score.value / game.SCORE_UNIT_SIZE, decimals) + 0.0  # + 0.0: never "-0"
    return f"{shown:+.{decimals}f}"


def score_text(
    score: Score, game: type[GameState], view: Player = 0, bound: Bound = "exact", *, unit: bool = False
) -> str:
    """``(White) +0.35``, ``(x) win in 3 plies``, ``(Black) -1.20 upperbound``: ``score``
    (with its ``bound``, both from ``score.view``) seen by player ``view``, who is named.
    With ``unit`` an estimate names its unit too (``(White) +0.35 pawns``)."""
    seen, seen_bound = turned(score, bound, view)
    text = f"({game.PLAYER_NAMES[view]}) {value_text(seen, game)}"
    if unit and not seen.is_win:
        text += f" {game.SCORE_UNIT}"
    return text if seen_bound == "exact" else f"{text} {seen_bound}bound"


def uci_score(score: Score, side_to_move: Player, bound: Bound = "exact") -> str:
    """UCI's ``cp N`` / ``mate N`` (+ ``lowerbound``/``upperbound``) from the side to move's
    view, in centipawns (the chess evaluation's own units)."""
    own, own_bound = turned(score, bound, side_to_move)
    mate = own.mate_in_moves()
    text = f"mate {mate}" if mate is not None else f"cp {round(own.value) + 0}"
    return text if own_bound == "exact" else f"{text} {own_bound}bound"


# ------------------------------------------------------------------ error lines
ECHO_LIMIT = 80
"""Characters of a user's value quoted in an error line before it is cut."""
MESSAGE_LIMIT = 400
"""An error line never grows longer than this (plus the note of its length)."""
_LONG_RUN = re.compile(r"\S{%d,}" % (ECHO_LIMIT + 10))
"""A run of characters too long to be anything but a user's value (an ``echo``ed one, with
its quotes and ``...``, stays shorter)."""


def echo(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text`` fit to be quoted on one line: a long value is cut to its first ``limit``
    characters and its length, and line breaks are shown as ``\\n``."""
    if len(text) > limit:
        text = f"{text[:limit]}... ({len(text):,} characters)"
    return text.replace("\r", "\\r").replace("\n", "\\n")


def one_line(message: str, values: Iterable[str] = ()) -> str:
    """An error message fit for one line: each of ``values`` (what the user typed, which
    the message may quote) cut with ``echo``, any other run of more than ``ECHO_LIMIT``
    characters without a space cut too, and the whole kept under ``MESSAGE_LIMIT``."""
    for value in sorted({value for value in values if len(value) > ECHO_LIMIT}, key=len, reverse=True):
        message = message.replace(repr(value), repr(echo(value))).replace(value, echo(value))
    message = " ".join(message.splitlines())
    message = _LONG_RUN.sub(lambda match: echo(match.group()), message)
    return echo(message, MESSAGE_LIMIT)
