"""The match line above a backgammon board: what a tournament player reads before each roll.

``Match to 7 · O 3 – X 5 · 4-away, 2-away · Crawford game``, as GNU Backgammon's panel gives
the match: the length, each player's score, the scores as "away" (points still needed, the
way match equity tables and players speak of a score) and where the match stands with the
Crawford rule: the *Crawford game* (the first game after a player reaches one point short
of the match: no doubling in it) and the games after it (*post-Crawford*, the cube back in
play). Between games the line says what the next game is; at the end, who won. No Qt here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.backgammon.state import BackgammonState

SCORE_DASH = "\u2013"
"""The en dash between the two scores (``O 3 – X 5``)."""


@dataclass(frozen=True)
class MatchLine:
    """Where a match stands, for the line above the board."""

    length: int
    """Points to win the match (at least 1)."""
    score: tuple[int, int]
    """Player O's and player X's points."""
    crawford: bool = False
    """The game being played is the Crawford game (no doubling)."""
    post_crawford: bool = False
    """The Crawford game has been played; a player is one point short of the match."""
    winner: int | None = None
    """The player who won the match, once it is over."""
    next_game: str = ""
    """Between games: what the next game is (``"the Crawford game"``, ``"game 4"``)."""

    @classmethod
    def from_state(cls, state: BackgammonState) -> MatchLine | None:
        """The line a match position says by itself (``None`` in a money game): the
        Crawford flag of gnubg's Match ID; a player one point short of the match without
        it means the Crawford game is behind (the Crawford rule is the only one offered)."""
        length = state.match_length
        if length <= 0:
            return None
        score = (state.score[0], state.score[1])
        short = length > 1 and max(score) == length - 1
        return cls(length, score, crawford=state.crawford, post_crawford=short and not state.crawford)

    def away(self, player: int) -> int:
        """Points ``player`` still needs (``n-away``)."""
        return max(0, self.length - self.score[player])

    def parts(self, names: Sequence[str]) -> list[str]:
        """The line's parts, most needed first (a narrow board drops from the end)."""
        plural = "s" if self.length != 1 else ""
        score = f"{names[0]} {self.score[0]} {SCORE_DASH} {names[1]} {self.score[1]}"
        parts = [f"Match to {self.length} point{plural}", score]
        if self.winner is not None:
            parts.append(f"{names[self.winner]} wins the match")
            return parts
        if self.next_game:
            parts.append(f"next: {self.next_game}")
        elif self.crawford:
            parts.append("Crawford game")
        elif self.post_crawford:
            parts.append("post-Crawford")
        parts.append(f"{self.away(0)}-away, {self.away(1)}-away")
        return parts

    def text(self, names: Sequence[str]) -> str:
        """The whole line in one string (for a status bar or a test)."""
        return " \u00b7 ".join(self.parts(names))
