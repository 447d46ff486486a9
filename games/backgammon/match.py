"""A backgammon match to N points: the score, the Crawford rule and the games played.

The rules (as in tournament play and GNU Backgammon):

* a match is played to ``length`` points; each game's winner scores the cube value times
  1 (single game), 2 (gammon) or 3 (backgammon), or the cube value when the loser drops a
  double. Gammons count; the Jacoby rule never applies in a match;
* **Crawford rule**: the first game after a player reaches ``length - 1`` points (the
  *Crawford game*) is played without the doubling cube; the games after it
  (*post-Crawford*) use the cube again. There the trailer doubles at once, and the leader,
  who needs one point, never doubles (the state treats that cube as dead); the leader's
  "free drop" is a consequence of the match equity table, not a rule;
* the first player to reach ``length`` wins the match.

``Match`` is a frozen value: ``record`` (a finished game) returns the match after it, and
``new_game`` the next game's opening position, a ``BackgammonState`` carrying the length,
the score and the Crawford flag (so its cube decisions are made in match equity, and its
gnubg Match ID says the score). ``to_json``/``from_json`` round-trip it; every field read
from outside is checked (``MatchError`` says what is wrong, in one line).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.backgammon.board import PLAYER_NAMES, O, X
from games.backgammon.gnubg_ids import MAX_MATCH_LENGTH
from games.backgammon.state import BACKGAMMON, GAMMON, MAX_CUBE, RESULT_NAMES, SINGLE, BackgammonState
from games.base import Player

JSON_FIELDS = ("length", "score", "crawford", "games")
GAME_FIELDS = ("winner", "points", "cube", "dropped")


class MatchError(ValueError):
    """A match (or its JSON) that cannot be; the message says why, in one line."""


def _fields(data: Any, what: str, fields: tuple[str, ...]) -> Mapping[str, Any]:
    """``data`` as an object with no fields but ``fields``; ``MatchError`` names ``what``."""
    if not isinstance(data, Mapping):
        raise MatchError(f"{what} is an object with {', '.join(fields)}, not {type(data).__name__}")
    unknown = sorted(set(map(str, data)) - set(fields))
    if unknown:
        raise MatchError(f"{what} has unknown fields: {', '.join(unknown)}")
    return data


def _whole(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise MatchError(f"{what} must be a whole number {low}-{high}, not {value!r}")
    return value


@dataclass(frozen=True)
class GameResult:
    """One finished game of a match: who won, how many points, at which cube."""

    winner: Player
    points: int
    cube_value: int = 1
    dropped: bool = False

    def __post_init__(self) -> None:
        if self.winner not in (O, X) or isinstance(self.winner, bool):
            raise MatchError(f"a game's winner is 0 (O) or 1 (X), not {self.winner!r}")
        _whole(self.cube_value, "a game's cube value", 1, MAX_CUBE)
        if self.cube_value & (self.cube_value - 1):
            raise MatchError(f"a cube shows a power of two, not {self.cube_value}")
        if not isinstance(self.dropped, bool):
            raise MatchError(f"'dropped' is true or false, not {self.dropped!r}")
        allowed = (self.cube_value,) if self.dropped else tuple(self.cube_value * kind for kind in (SINGLE, GAMMON, BACKGAMMON))
        if isinstance(self.points, bool) or self.points not in allowed:
            raise MatchError(
                f"a game won at cube {self.cube_value} scores {' or '.join(map(str, allowed))} points, not {self.points!r}"
            )

    @classmethod
    def from_state(cls, state: BackgammonState) -> GameResult:
        """The result of the finished game ``state``."""
        if not state.is_terminal():
            raise MatchError("the game is not over yet")
        return cls(state.game_winner, state.points, state.cube_value, state.dropped)

    @property
    def kind(self) -> int:
        """``SINGLE``, ``GAMMON`` or ``BACKGAMMON`` (a dropped double counts single)."""
        return SINGLE if self.dropped else self.points // self.cube_value

    def describe(self) -> str:
        """``X wins a gammon: 4 points`` / ``O drops: X wins 2 points``."""
        plural = "s" if self.points != 1 else ""
        name = PLAYER_NAMES[self.winner]
        if self.dropped:
            return f"{PLAYER_NAMES[1 - self.winner]} drops: {name} wins {self.points} point{plural}"
        return f"{name} wins {RESULT_NAMES[self.kind]}: {self.points} point{plural}"

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "points": self.points, "cube": self.cube_value, "dropped": self.dropped}

    @classmethod
    def from_json(cls, data: Any) -> GameResult:
        data = _fields(data, "a game result", GAME_FIELDS)
        return cls(
            winner=_whole(data.get("winner"), "a game's winner", O, X),
            points=_whole(data.get("points"), "a game's points", 1, 3 * MAX_CUBE),
            cube_value=_whole(data.get("cube", 1), "a game's cube value", 1, MAX_CUBE),
            dropped=data.get("dropped", False),
        )


@dataclass(frozen=True)
class Match:
    """A match to ``length`` points at ``score`` (O's, X's); ``crawford``: the game being
    played now (the next one, between games) is the Crawford game; ``games``: the results
    so far (a match may start from a score without them, as from a gnubg Match ID)."""

    length: int
    score: tuple[int, int] = (0, 0)
    crawford: bool = False
    games: tuple[GameResult, ...] = ()

    def __post_init__(self) -> None:
        _whole(self.length, "a match length", 1, MAX_MATCH_LENGTH)
        if not isinstance(self.score, tuple) or len(self.score) != 2:
            raise MatchError(f"a match score is two numbers of points (O, X), not {self.score!r}")
        for player in (O, X):
            _whole(self.score[player], f"{PLAYER_NAMES[player]}'s score", 0, self.length - 1 + 3 * MAX_CUBE)
        if not isinstance(self.crawford, bool):
            raise MatchError(f"'crawford' is true or false, not {self.crawford!r}")
        if self.crawford and (self.is_over or self.score.count(self.length - 1) != 1):
            raise MatchError(
                f"the Crawford game is played when one player is 1 point from winning, not at "
                f"{self.score[O]}-{self.score[X]} in a {self.length}-point match"
            )
        if not isinstance(self.games, tuple) or not all(isinstance(game, GameResult) for game in self.games):
            raise MatchError("a match's games are game results")
        for player in (O, X):
            won = sum(game.points for game in self.games if game.winner == player)
            if won > self.score[player]:
                raise MatchError(
                    f"{PLAYER_NAMES[player]} won {won} points in the games listed but has only {self.score[player]}"
                )
        if sum(self.away(player) <= 0 for player in (O, X)) > 1:
            raise MatchError("both players cannot have won the match")

    # ------------------------------------------------------------- queries
    def away(self, player: Player) -> int:
        """Points ``player`` still needs (0 or less: the match is theirs)."""
        return self.length - self.score[player]

    @property
    def is_over(self) -> bool:
        return self.score[O] >= self.length or self.score[X] >= self.length

    @property
    def winner(self) -> Player | None:
        """The match's winner, ``None`` while it is being played."""
        for player in (O, X):
            if self.score[player] >= self.length:
                return player
        return None

    @property
    def is_post_crawford(self) -> bool:
        """A player is 1 point away and the Crawford game is behind: the cube is back, for
        the trailer."""
        return not self.is_over and not self.crawford and self.length - 1 in self.score

    def describe(self) -> str:
        """``Match to 7 · O 3 – X 5 · Crawford game`` (the score line a board shows)."""
        text = f"Match to {self.length} · O {self.score[O]} – X {self.score[X]}"
        if self.is_over:
            return f"{text} · {PLAYER_NAMES[self.winner if self.winner is not None else O]} wins the match"
        if self.crawford:
            return f"{text} · Crawford game"
        if self.is_post_crawford and self.length > 1:
            return f"{text} · post-Crawford"
        return text

    # ------------------------------------------------------------ the games
    def with_result(self, result: GameResult) -> Match:
        """The match after ``result``: the winner's points added; the next game is the
        Crawford game when this result brought a player to ``length - 1`` for the first time
        (nobody was 1 away before it)."""
        if self.is_over:
            raise MatchError(f"the match is over: {self.describe()}")
        score = list(self.score)
        score[result.winner] += result.points
        new_score = (score[O], score[X])
        was_one_away = self.length - 1 in self.score
        finished = max(new_score) >= self.length
        crawford = not finished and not was_one_away and self.length - 1 in new_score
        return Match(self.length, new_score, crawford, (*self.games, result))

    def record(self, state: BackgammonState) -> Match:
        """The match after the finished game ``state`` (a game of this match at this score)."""
        if (state.match_length, state.score, state.crawford) != (self.length, self.score, self.crawford):
            raise MatchError(
                f"that game was played at {state.score[O]}-{state.score[X]} of a {state.match_length}-point match"
                f"{' (Crawford)' if state.crawford else ''}, not at this match's {self.describe()}"
            )
        return self.with_result(GameResult.from_state(state))

    def new_game(self) -> BackgammonState:
        """The next game's position before the opening roll, with the match fields set."""
        if self.is_over:
            raise MatchError(f"the match is over: {self.describe()}")
        return BackgammonState.initial(match_length=self.length, score=self.score, crawford=self.crawford)

    @classmethod
    def from_state(cls, state: BackgammonState) -> Match | None:
        """The match a position belongs to (a pasted gnubg id, say), at the score before its
        game ends; ``None`` for money play."""
        if not state.match_length:
            return None
        return cls(state.match_length, state.score, state.crawford)

    # ----------------------------------------------------------------- JSON
    def to_json(self) -> dict[str, Any]:
        return {
            "length": self.length,
            "score": list(self.score),
            "crawford": self.crawford,
            "games": [game.to_json() for game in self.games],
        }

    @classmethod
    def from_json(cls, data: Any) -> Match:
        """The match of ``to_json``'s object; ``MatchError`` for anything else."""
        data = _fields(data, "a match", JSON_FIELDS)
        length = _whole(data.get("length"), "a match length", 1, MAX_MATCH_LENGTH)
        score = data.get("score", [0, 0])
        if not isinstance(score, list) or len(score) != 2:
            raise MatchError(f"a match score is a list of two numbers of points (O, X), not {score!r}")
        games = data.get("games", [])
        if not isinstance(games, list):
            raise MatchError(f"a match's games are a list, not {type(games).__name__}")
        return cls(
            length=length,
            score=(score[O], score[X]),
            crawford=data.get("crawford", False),
            games=tuple(GameResult.from_json(game) for game in games),
        )


__all__ = ["GameResult", "Match", "MatchError"]
