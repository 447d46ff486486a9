"""Playing a match: games between players A and B, colours alternating, openings paired.

Game ``i`` (0-based) uses opening ``i // 2`` (cycling through the list) and gives A the
first player's side when ``i`` is even, the second's when odd, so every opening is played
once with each colour. In a game with dice, both games of a pair see one dice sequence
(a generator seeded by the pair), so the luck of the rolls largely cancels over a pair.

A player that fails (``PlayerFailure``: a crash, a time-out, an illegal move) loses that game
(one point in backgammon) and the reason goes into the record; the next game starts the
program again. A game still going after ``max_plies`` plies is adjudicated a draw.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ai.match.openings import Opening
from ai.match.protocol import GameHistory, Player, PlayerFailure
from ai.match.stats import MatchStatistics, PointStatistics
from ai.settings import Limits
from games import CHANCE, get_game
from games.records import GameRecord

DEFAULT_MAX_PLIES = 600
"""Plies after which a game is adjudicated a draw (no game here needs that many when it is
played to a result; the rules' own draws, repetition and move counters, come first)."""


@dataclass(frozen=True)
class GameOutcome:
    """One finished game, from A's side."""

    number: int
    record: GameRecord
    a_player: int
    """Which player (0 or 1) A was in this game."""
    a_score: float
    """1 for A's win, 1/2 for a draw, 0 for a loss."""
    a_points: float
    """A's utility: +1/0/-1, or backgammon's points (gammon 2, backgammon 3)."""
    failure: str = ""
    """Why a player forfeited this game (empty when it was played out)."""
    seconds: float = 0.0


@dataclass
class MatchResult:
    game: str
    names: tuple[str, str]
    outcomes: list[GameOutcome] = field(default_factory=list)

    @property
    def statistics(self) -> MatchStatistics:
        wins = sum(outcome.a_score == 1.0 for outcome in self.outcomes)
        draws = sum(outcome.a_score == 0.5 for outcome in self.outcomes)
        return MatchStatistics(wins, draws, len(self.outcomes) - wins - draws)

    @property
    def points(self) -> PointStatistics:
        return PointStatistics.of([outcome.a_points for outcome in self.outcomes])


def play_game(
    game: str,
    opening: Opening,
    players: Sequence[Player],
    names: Sequence[str],
    limits: Limits,
    dice: random.Random | None = None,
    max_plies: int = DEFAULT_MAX_PLIES,
) -> tuple[GameRecord, float, str, int | None]:
    """Play one game, ``players[p]`` moving for player ``p``.

    Returns the record, player 0's utility, the failure text (empty if none) and the player
    who failed (``None`` if none)."""
    state = opening.state(game)
    history = GameHistory(opening.start, list(opening.moves))
    record = GameRecord(game, opening.start, list(opening.moves), players=(names[0], names[1]), opening_plies=len(opening.moves))
    for player in players:
        player.new_game(state.copy())
    plies = 0
    while not state.is_terminal():
        mover = state.to_move()
        if mover == CHANCE:
            outcomes = state.chance_outcomes()
            roll = (dice or random.Random(0)).choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0]
            name = state.move_name(roll)
            state.play(roll)
        else:
            if plies >= max_plies:
                record.result, record.reason = "1/2-1/2", f"adjudicated a draw after {max_plies} plies"
                return record, 0.0, "", None
            plies += 1
            player = players[mover]
            try:
                move = player.choose(state.copy(), GameHistory(history.start, list(history.moves)), limits)
                if move not in state.legal_moves():
                    raise PlayerFailure(f"played an illegal move ({_describe(state, move)})")
            except PlayerFailure as failure:
                side = state.PLAYER_NAMES[mover]
                record.reason = f"{side} ({names[mover]}) forfeits: {failure}"
                record.result = "0-1" if mover == 0 else "1-0"
                return record, (-1.0 if mover == 0 else 1.0), record.reason, mover
            name = state.move_name(move)
            state.play(move)
        history.moves.append(name)
        record.moves.append(name)
    value = state.utility(0)
    record.result = "1-0" if value > 0 else "0-1" if value < 0 else "1/2-1/2"
    record.reason = state.termination_reason()
    return record, value, "", None


def _describe(state: Any, move: Any) -> str:
    try:
        return state.move_name(move)
    except Exception:  # noqa: BLE001 - a move value so wrong that the game cannot name it
        return repr(move)


def run_match(
    game: str,
    players: tuple[Player, Player],
    games: int,
    limits: Limits,
    openings: Sequence[Opening],
    seed: int = 0,
    max_plies: int = DEFAULT_MAX_PLIES,
    on_game: Callable[[GameOutcome, MatchResult], None] | None = None,
) -> MatchResult:
    """Play ``games`` games between ``players`` (A, B) and return every outcome."""
    a, b = players
    result = MatchResult(game, (a.name, b.name))
    has_dice = get_game(game).HAS_CHANCE
    for number in range(games):
        pair = number // 2
        opening = openings[pair % len(openings)]
        a_player = number % 2
        seated = (a, b) if a_player == 0 else (b, a)
        names = tuple(player.name for player in seated)
        dice = random.Random(seed * 1_000_003 + pair) if has_dice else None
        started = time.perf_counter()
        record, value, failure, _ = play_game(game, opening, seated, names, limits, dice, max_plies)
        record.round = str(number + 1)
        a_points = value if a_player == 0 else -value
        a_score = 1.0 if a_points > 0 else 0.0 if a_points < 0 else 0.5
        outcome = GameOutcome(number + 1, record, a_player, a_score, a_points, failure, time.perf_counter() - started)
        result.outcomes.append(outcome)
        if on_game is not None:
            on_game(outcome, result)
    return result
