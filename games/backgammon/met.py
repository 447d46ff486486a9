"""The match equity table (MET): each player's chance to win the match from a score.

A match to N points is won by the first player to reach N; at a score the players are
``a`` and ``b`` points *away* (still needed). The MET gives the match winning chance (MWC)
of a player ``a`` away against one ``b`` away at the start of a game, for two equal
players: the value of every game result at that score, so that cube decisions in a match
compare match winning chances instead of money points (``match_cube``).

Two tables, as published:

* **pre-Crawford**: ``pre_crawford[a - 1][b - 1]``; the 1-away row and column are the
  Crawford game (the first game after a player reaches N - 1, played without the cube);
* **post-Crawford**: ``post_crawford[a - 1]``, the chance of the trailer ``a`` away against
  a leader 1 away in the games after the Crawford game (the trailer doubles at once; the
  leader's free drop at even scores is why 2-away is worth less than 1/2 to the trailer).

The shipped table is **Kazaross XG2** (Neil Kazaross, 2011: eXtreme Gammon rollouts to
9 points, then the Rockwell-Kazaross table from GNU Backgammon rollouts to 15 points,
extended to 25 by projecting take points), as GNU Backgammon ships it
(``/usr/share/gnubg/met/Kazaross-XG2.xml``, gnubg's default table; transcribed for gnubg by
Michael Petch), converted by ``tools/backgammon_met.py`` into
``resources/met/kazaross-xg2.json`` with its copyright notice, which permits copying with
the notice preserved (THIRD_PARTY_NOTICES.md).

Scores beyond the table are extended as gnubg extends a short table (``matchequity.c``):
pre-Crawford by David Montgomery's normal-distribution formula (the standard deviation of
the points won per game by away score: 1.24 at 1-away ... 1.77 from 11-away on), post-
Crawford by Zadeh's recurrence (Management Science 23, 986, 1977) with a 25% gammon rate,
from the table's last-but-one post-Crawford entry on, as gnubg reads only ``N - 1`` of
them. ``MAX_AWAY`` (64, gnubg's ``MAXSCORE``) bounds both.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final

MET_PACKAGE: Final = "resources"
MET_FOLDER: Final = "met"
SHIPPED_MET: Final = "kazaross-xg2.json"
FORMAT: Final = 1
MAX_AWAY: Final = 64
"""Away scores up to gnubg's ``MAXSCORE``: longer matches are not played."""
SYMMETRY_TOLERANCE: Final = 1e-4
"""``pre[a][b] + pre[b][a]`` may miss 1 by this much (tables are printed rounded)."""

MONTGOMERY_DEVIATIONS: Final = (1.24, 1.27, 1.47, 1.50, 1.60, 1.61, 1.66, 1.68, 1.70, 1.72)
"""Standard deviation of a game's points by away score 1..10 (11 and more: ``MONTGOMERY_LAST``)."""
MONTGOMERY_LAST: Final = 1.77
MONTGOMERY_RANGE: Final = 6.0
"""The normal area is taken from the score difference to 6 standard deviations."""
ZADEH_GAMMON_RATE: Final = 0.25
FREE_DROP_2_AWAY: Final = 0.015
FREE_DROP_4_AWAY: Final = 0.004
"""gnubg's post-Crawford recurrence: gammon rate, and the free drop's value at 2- and 4-away
(used only for a table too short to give those entries)."""


class METError(ValueError):
    """A match equity table that cannot be used; the message says what is wrong, in one line."""


@dataclass(frozen=True)
class MatchEquityTable:
    """A MET (see module doc), extended to ``MAX_AWAY``; ``equity`` looks a score up."""

    name: str
    length: int
    pre_crawford: tuple[tuple[float, ...], ...]
    post_crawford: tuple[float, ...]
    notice: str = ""
    source: str = ""

    @classmethod
    def from_document(cls, document: Any, source: str = "the MET") -> MatchEquityTable:
        """The table of a JSON document (``tools/backgammon_met.py`` writes them), checked:
        square, numbers in 0..1, symmetric (``pre[a][b] + pre[b][a] = 1``), monotone (more
        points to go never wins more often), post-Crawford 1/2 at 1-away, 1-away. ``METError``
        names the first fault."""
        if not isinstance(document, Mapping):
            raise METError(f"{source}: a MET is a JSON object, not {type(document).__name__}")
        if document.get("format") != FORMAT:
            raise METError(f"{source}: format must be {FORMAT}, not {document.get('format')!r}")
        name, notice = document.get("name"), document.get("notice", "")
        if not isinstance(name, str) or not name.strip():
            raise METError(f"{source}: 'name' must be a non-empty text")
        if not isinstance(notice, str):
            raise METError(f"{source}: 'notice' must be text")
        length = document.get("length")
        if isinstance(length, bool) or not isinstance(length, int) or not 1 <= length <= MAX_AWAY:
            raise METError(f"{source}: 'length' must be a whole number 1-{MAX_AWAY}, not {length!r}")
        pre = document.get("pre_crawford")
        if not isinstance(pre, list) or len(pre) != length:
            raise METError(f"{source}: 'pre_crawford' must be {length} rows")
        pre_rows = tuple(_chances(row, length, f"{source}: pre_crawford row {index + 1}") for index, row in enumerate(pre))
        post_row = _chances(document.get("post_crawford"), length, f"{source}: post_crawford")
        _check_pre_crawford(pre_rows, source)
        _check_post_crawford(post_row, source)
        text = document.get("source", "")
        return cls(
            name=name.strip(),
            length=length,
            pre_crawford=_extend_pre_crawford(pre_rows),
            post_crawford=_extend_post_crawford(post_row),
            notice=notice,
            source=text if isinstance(text, str) else "",
        )

    @classmethod
    def from_text(cls, text: str, source: str = "the MET") -> MatchEquityTable:
        try:
            document = json.loads(text)
        except (json.JSONDecodeError, RecursionError) as error:
            raise METError(f"{source}: not JSON ({error})") from None
        return cls.from_document(document, source)

    def equity(self, my_away: int, their_away: int, post_crawford: bool = False) -> float:
        """The match winning chance of a player ``my_away`` points from winning against an
        opponent ``their_away`` away (0 or less: that player has won). ``post_crawford``: the
        game at this score comes after the Crawford game (only matters when a player is
        1 away; otherwise a 1-away score is the Crawford game)."""
        if my_away <= 0:
            return 1.0
        if their_away <= 0:
            return 0.0
        if my_away > MAX_AWAY or their_away > MAX_AWAY:
            raise METError(f"scores {my_away}-away, {their_away}-away are beyond the table (at most {MAX_AWAY})")
        if post_crawford and my_away == 1:
            return 1.0 - self.post_crawford[their_away - 1]
        if post_crawford and their_away == 1:
            return self.post_crawford[my_away - 1]
        return self.pre_crawford[my_away - 1][their_away - 1]


def _chances(values: Any, length: int, where: str) -> tuple[float, ...]:
    if not isinstance(values, list) or len(values) != length:
        raise METError(f"{where}: {length} numbers expected")
    for value in values:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
            raise METError(f"{where}: {value!r} is not a chance between 0 and 1")
    return tuple(float(value) for value in values)


def _check_pre_crawford(pre: Sequence[Sequence[float]], source: str) -> None:
    size = len(pre)
    for mine in range(size):
        for theirs in range(size):
            total = pre[mine][theirs] + pre[theirs][mine]
            if abs(total - 1.0) > SYMMETRY_TOLERANCE:
                raise METError(
                    f"{source}: not symmetric: {mine + 1}-away vs {theirs + 1}-away gives {pre[mine][theirs]:g}, "
                    f"the other side {pre[theirs][mine]:g} (the two must add up to 1)"
                )
            if mine + 1 < size and pre[mine + 1][theirs] > pre[mine][theirs]:
                raise METError(
                    f"{source}: not monotone: {mine + 2}-away vs {theirs + 1}-away wins more often "
                    f"({pre[mine + 1][theirs]:g}) than {mine + 1}-away ({pre[mine][theirs]:g})"
                )


def _check_post_crawford(post: Sequence[float], source: str) -> None:
    if abs(post[0] - 0.5) > SYMMETRY_TOLERANCE:
        raise METError(f"{source}: post-Crawford 1-away vs 1-away must be 0.5, not {post[0]:g}")
    for away in range(1, len(post)):
        if post[away] > post[away - 1]:
            raise METError(
                f"{source}: post-Crawford not monotone: {away + 1}-away ({post[away]:g}) "
                f"above {away}-away ({post[away - 1]:g})"
            )


def _montgomery(my_away: int, their_away: int) -> float:
    """Montgomery's estimate of the chance of the player ``my_away`` (>= ``their_away``) away."""

    def deviation(away: int) -> float:
        return MONTGOMERY_DEVIATIONS[away - 1] if away <= len(MONTGOMERY_DEVIATIONS) else MONTGOMERY_LAST

    games = (my_away + their_away) / 2.0
    sigma = math.hypot(deviation(my_away), deviation(their_away)) * math.sqrt(games)
    difference = float(my_away - their_away)
    if MONTGOMERY_RANGE * sigma <= difference:
        return 0.0
    return _normal_cdf(MONTGOMERY_RANGE) - _normal_cdf(difference / sigma)


def _normal_cdf(value: float) -> float:
    return (math.erf(value / math.sqrt(2.0)) + 1.0) / 2.0


def _extend_pre_crawford(pre: tuple[tuple[float, ...], ...]) -> tuple[tuple[float, ...], ...]:
    size = len(pre)
    table = [[0.0] * MAX_AWAY for _ in range(MAX_AWAY)]
    for mine in range(size):
        table[mine][:size] = pre[mine]
    for mine in range(size, MAX_AWAY):
        for theirs in range(mine + 1):
            table[mine][theirs] = _montgomery(mine + 1, theirs + 1)
    for mine in range(MAX_AWAY):
        for theirs in range(size if mine < size else mine + 1, MAX_AWAY):
            table[mine][theirs] = 1.0 - table[theirs][mine]
    return tuple(tuple(row) for row in table)


def _extend_post_crawford(post: tuple[float, ...]) -> tuple[float, ...]:
    """The table's first ``length - 1`` entries, then Zadeh's recurrence: the trailer doubles
    at once, so a game moves the trailer 2 points (4 with a gammon) nearer or ends the match."""
    start = len(post) - 1
    table = list(post[:start]) + [0.0] * (MAX_AWAY - start)
    for index in range(start, MAX_AWAY):
        two_ahead = table[index - 2] if index >= 2 else 1.0
        four_ahead = table[index - 4] if index >= 4 else 1.0
        value = ZADEH_GAMMON_RATE * 0.5 * four_ahead + (1.0 - ZADEH_GAMMON_RATE) * 0.5 * two_ahead
        if index == 1:
            value -= FREE_DROP_2_AWAY
        if index == 3:
            value -= FREE_DROP_4_AWAY
        table[index] = value
    return tuple(table)


@cache
def shipped_met() -> MatchEquityTable:
    """The packaged table (``resources/met/kazaross-xg2.json``), read and checked once."""
    source = resources.files(MET_PACKAGE).joinpath(MET_FOLDER, SHIPPED_MET)
    return MatchEquityTable.from_text(source.read_text(encoding="utf-8"), f"resources/met/{SHIPPED_MET}")


__all__ = ["MAX_AWAY", "METError", "MatchEquityTable", "shipped_met"]
