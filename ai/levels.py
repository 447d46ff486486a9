"""The engine's levels 1-10: for each game, which engine plays a level, how much it may
search, and how it errs; one table for the app and the match runner.

A level is a promise and a recipe:

* **the promise** (``Level``): a plain name and a time cap, the same in every game: a move
  never takes longer than the level's seconds, whatever the game and the machine;
* **the recipe** (``LevelPlay``, one per game and level, ``GAME_LEVELS``): the engine (the
  compiled search where the game has one at the top levels, a Python algorithm elsewhere),
  a *node budget* that ends the search long before the time cap on an idle machine, so that
  a level's strength does not depend on the machine's load, and the *weakness*.

The weakness is Stockfish's "Skill Level" idea (``Skill::pick_best`` in Stockfish's
``search.cpp``): search several best lines (MultiPV), then pick one at random with a weight
that falls with how much it loses against the best line. Here the weight is a softmax,
``exp(-loss / temperature)``, the loss in the game's own unit (pawns, men, discs, points of
equity, lines). A small inaccuracy loses little and is picked often; a hanging piece loses
much and almost never is; a cooler level errs less, and the top levels (temperature 0)
always play the best move. Chess's weakest levels also overlook moves, as a beginner does
(``noticed_moves``): they search only the captures and a random share of the quiet moves,
so they miss a good quiet move often and, now and then, the one that saves a piece. Backgammon's weak levels take all of the plays' values from a
one-ply expectiminimax instead of MultiPV lines, and so pick as gnubg's weak players do
(gnubg adds noise to each play's equity: its "Beginner" 0.060, "Casual player" 0.050,
"Intermediate" 0.040, "Advanced" 0.015; ``eval.c``'s ``aecSettings``).

Each level's measured rating, when it has been measured, is data
(``resources/levels.json``; ``level_rating``).
"""

from __future__ import annotations

import json
import math
import random
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from importlib import resources
from typing import Any, Final

from ai.events import Finished, Score
from ai.settings import Limits, SearchRequest, SearchSettings
from games import CHANCE, GameState, get_game


@dataclass(frozen=True)
class Level:
    """A level's promise, the same in every game: its number, a plain name that claims no
    title, and the most seconds one of its moves may take."""

    number: int
    name: str
    seconds: float

    @property
    def label(self) -> str:
        """``Level 3 · Casual``."""
        return f"Level {self.number} · {self.name}"


LEVELS: tuple[Level, ...] = (
    Level(1, "Beginner", 1.0),
    Level(2, "Novice", 1.0),
    Level(3, "Casual", 1.0),
    Level(4, "Improving", 1.5),
    Level(5, "Club player", 2.0),
    Level(6, "Strong club player", 3.0),
    Level(7, "Advanced", 4.0),
    Level(8, "Strong", 5.0),
    Level(9, "Very strong", 7.0),
    Level(10, "Full strength", 10.0),
)
DEFAULT_LEVEL = 4


def level(number: int) -> Level:
    """Level ``number`` (1-10); ``ValueError`` names the range."""
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(LEVELS):
        raise ValueError(f"levels are 1-{len(LEVELS)}, not {number!r}")
    return LEVELS[number - 1]


# ------------------------------------------------------------ how a level plays a game
ENGINE_NAMES: Final[Mapping[str, str]] = {
    "native": "compiled search",
    "pvs": "PVS search",
    "star2": "Star2 search",
    "expectiminimax": "expectiminimax search",
}
"""How a level's engine is named to a player ("Computer (level 7, compiled search)")."""


@dataclass(frozen=True)
class LevelPlay:
    """How level ``level`` plays ``game``: the engine, its budget and its weakness."""

    game: str
    level: Level
    algorithm: str
    """One of ``ai.search.ALGORITHMS``."""
    nodes: int
    """The node budget: the search ends here (counted the same on any machine), well before
    the time cap on an idle one (``level.seconds`` stops it in any case)."""
    depth: int | None = None
    """A depth cap as well (a beginner looks one or two plies ahead); ``None``: none."""
    lines: int = 1
    """Best lines searched to choose among (MultiPV); 1: the best move is played."""
    temperature: float = 0.0
    """The weakness, in the game's ``SCORE_UNIT``: a line losing ``loss`` units against the
    best is picked with weight ``exp(-loss / temperature)``; 0: always the best."""
    solver: int | None = None
    """The exact solver's reach (``SearchSettings.solver_empties``: Othello's empty squares,
    checkers' database pieces); 0 switches it off; ``None``: the game's own default."""
    notice: float = 1.0
    """The chance that the level sees each quiet move before it searches (captures and
    promotions, the game's ``noisy_moves``, it always sees); the moves it overlooks are not
    searched at all (``noticed_moves``). 1: it looks at every move."""

    @property
    def number(self) -> int:
        return self.level.number

    @property
    def seconds(self) -> float:
        return self.level.seconds

    @property
    def engine_name(self) -> str:
        """``compiled search``, ``PVS search``, ``Star2 search``."""
        return ENGINE_NAMES.get(self.algorithm, self.algorithm)

    @property
    def is_weak(self) -> bool:
        """Whether the level sometimes plays a move other than its search's best."""
        return self.temperature > 0.0 or self.notice < 1.0

    def settings(self) -> SearchSettings:
        """The level's engine settings: the engine's defaults with its algorithm, its lines
        and its solver; one thread, so that a level plays the same moves on any machine."""
        settings = SearchSettings(algorithm=self.algorithm, multipv=self.lines, threads=1)
        return settings if self.solver is None else replace(settings, solver_empties=self.solver)

    def limits(self) -> Limits:
        """The node budget, the depth cap and the level's time promise."""
        return Limits(depth=self.depth, time=self.level.seconds, nodes=self.nodes)


@dataclass(frozen=True)
class _Row:
    """One line of a game's table below: a level's recipe without its game and promise."""

    algorithm: str
    nodes: int
    depth: int | None = None
    lines: int = 1
    temperature: float = 0.0
    solver: int | None = None
    notice: float = 1.0


def _table(game: str, rows: Sequence[_Row]) -> tuple[LevelPlay, ...]:
    if len(rows) != len(LEVELS):
        raise ValueError(f"{game}: {len(rows)} levels in the table, not {len(LEVELS)}")
    return tuple(
        LevelPlay(game, promise, row.algorithm, row.nodes, row.depth, row.lines, row.temperature, row.solver, row.notice)
        for promise, row in zip(LEVELS, rows, strict=True)
    )


NODES_PER_SECOND: Final[Mapping[tuple[str, str], float]] = {
    ("chess", "pvs"): 19_000,
    ("chess", "native"): 1_600_000,
    ("checkers", "pvs"): 200_000,
    ("checkers", "native"): 5_500_000,
    ("othello", "pvs"): 170_000,
    ("othello", "native"): 2_400_000,
    ("backgammon", "expectiminimax"): 10_000,
    ("backgammon", "star2"): 10_000,
    ("tictactoe", "pvs"): 100_000,
}
"""Nodes a second each level's engine searches on one idle core, the least of 1 s searches
at the start and after 16-20 random plies (the compiled search is single-threaded here)."""

# Node budgets: at most half of what the engine searches in the level's seconds on an idle
# core (``NODES_PER_SECOND``), mostly a third or less, so that a machine two or three times
# slower plays the same moves. A backgammon move at depth 2 costs 3-5k nodes (more after
# doubles).
# Temperatures: the loss, in the game's unit, that makes a move e (2.7) times less likely
# than the best; a piece (3 pawns) at level 1's 1.2 pawns is picked 12 times less often
# than the best move, at level 4's 0.3 pawns 22,000 times less often.
# Overlooked moves (``notice``): five lines at a temperature alone left chess level 1 at
# 42% and level 2 at 71% against Stockfish 15.1 UCI_Elo 1350 (12 games each,
# bench/LEVELS.md), too strong for a beginner; seeing 35% and 70% of their quiet moves,
# they scored 12% and 41% in 16 games each (seed 11, the same Stockfish at depth 1).
# Backgammon's two-ply Star2 search cost 1,300-4,000 nodes a move at five random positions
# (and more after doubles); a third ply would take minutes. Levels 8 (8,000 nodes), 9 and 10
# (no depth cap: it finished the second ply, then spent the rest of its 30,000 nodes on a
# third it never finished) played the same play at all of them. Level 8 now looks two plies
# ahead only when that fits in 2,500 nodes (else it plays its one-ply choice); levels 9 and
# 10 are the same two-ply search, level 10 with room for the widest rolls (``LEVEL_REMARKS``).
# Chess level 6 on 4,000 compiled nodes measured below level 5 (1846 against 2217 Elo):
# the compiled levels start at 30,000 nodes.
# Othello's compiled search reaches a given depth on about the nodes the Python PVS needs (the
# same tree, no forward pruning) at 14 times the speed: on seven random positions of 24-52
# empties, 150,000 nodes (level 7, Python) completed depths 7-9 and 1, 3 and 10 million
# compiled nodes (levels 8-10) depths 9-12, 10-13 and 11-14. A 20-empty root solve costs
# 0.1-1.2 million of these nodes (``games.othello.native.SOLVER_NODE_COST``) and may take half
# a budget: of ten such positions (random games, seed 11) level 8 solved 5 and levels 9 and 10
# solved 8, and a 9-ply search answered at the others. The Python PVS cannot make three
# distinct top levels within their seconds: 250,000-600,000 of its nodes complete depths
# within a ply of each other, and such levels measure alike (bench/LEVELS.md).
GAME_LEVELS: Final[Mapping[str, tuple[LevelPlay, ...]]] = {
    "chess": _table("chess", (
        _Row("pvs", 1_500, depth=1, lines=5, temperature=1.2, notice=0.35),
        _Row("pvs", 3_000, depth=2, lines=5, temperature=0.7, notice=0.7),
        _Row("pvs", 6_000, depth=3, lines=4, temperature=0.5),
        _Row("pvs", 10_000, lines=4, temperature=0.3),
        _Row("pvs", 15_000, lines=3, temperature=0.12),
        _Row("native", 30_000),
        _Row("native", 100_000),
        _Row("native", 200_000),
        _Row("native", 1_000_000),
        _Row("native", 4_000_000),
    )),
    "checkers": _table("checkers", (
        _Row("pvs", 1_000, depth=1, lines=5, temperature=0.8, solver=0),
        _Row("pvs", 3_000, depth=2, lines=5, temperature=0.5, solver=0),
        _Row("pvs", 10_000, depth=4, lines=4, temperature=0.3, solver=0),
        _Row("pvs", 30_000, lines=3, temperature=0.15),
        _Row("pvs", 60_000, lines=3, temperature=0.08),
        _Row("native", 5_000),
        _Row("native", 50_000),
        _Row("native", 400_000),
        _Row("native", 2_000_000),
        _Row("native", 10_000_000),
    )),
    "othello": _table("othello", (
        _Row("pvs", 1_000, depth=1, lines=5, temperature=5.0, solver=0),
        _Row("pvs", 3_000, depth=2, lines=5, temperature=3.5, solver=0),
        _Row("pvs", 8_000, depth=3, lines=4, temperature=2.5, solver=8),
        _Row("pvs", 20_000, depth=4, lines=4, temperature=1.5, solver=10),
        _Row("pvs", 40_000, lines=3, temperature=0.8, solver=12),
        _Row("pvs", 80_000, lines=2, temperature=0.3, solver=14),
        _Row("pvs", 150_000, solver=16),
        _Row("native", 1_000_000),
        _Row("native", 3_000_000),
        _Row("native", 10_000_000),
    )),
    "backgammon": _table("backgammon", (
        _Row("expectiminimax", 2_000, depth=1, temperature=0.10),
        _Row("expectiminimax", 2_000, depth=1, temperature=0.07),
        _Row("expectiminimax", 2_000, depth=1, temperature=0.05),
        _Row("expectiminimax", 2_000, depth=1, temperature=0.035),
        _Row("expectiminimax", 2_000, depth=1, temperature=0.02),
        _Row("expectiminimax", 2_000, depth=1, temperature=0.008),
        _Row("star2", 2_000, depth=1),
        _Row("star2", 2_500, depth=2),
        _Row("star2", 15_000, depth=2),
        _Row("star2", 30_000, depth=2),
    )),
    "tictactoe": _table("tictactoe", (
        _Row("pvs", 200, depth=1, lines=5, temperature=3.0),
        _Row("pvs", 300, depth=1, lines=5, temperature=2.0),
        _Row("pvs", 500, depth=2, lines=5, temperature=1.5),
        _Row("pvs", 800, depth=2, lines=5, temperature=1.0),
        _Row("pvs", 1_000, depth=3, lines=5, temperature=0.7),
        _Row("pvs", 2_000, depth=4, lines=5, temperature=0.5),
        _Row("pvs", 4_000, depth=5, lines=5, temperature=0.3),
        _Row("pvs", 8_000, depth=6, lines=3, temperature=0.15),
        _Row("pvs", 20_000, depth=9, lines=2, temperature=0.05),
        _Row("pvs", 50_000),
    )),
}
"""Every game's levels 1-10 (``tests/ai/test_levels.py`` checks that every game has one)."""

_SAME_TWO_PLIES: Final = ("levels 9 and 10 play the same two-ply search (its play, then the opponent's answer "
                          "to every roll; a third ply would take minutes a move), so they seldom differ")
LEVEL_REMARKS: Final[Mapping[tuple[str, int], str]] = {
    ("backgammon", 8): "it also weighs the opponent's answer to every roll when that fits in its budget "
                       "(most rolls), else it judges its plays alone",
    ("backgammon", 9): _SAME_TWO_PLIES,
    ("backgammon", 10): _SAME_TWO_PLIES,
}
"""What a player should know about a level that its recipe does not say (the new-game
dialog shows it under the level)."""

DECISIVE_LOSS: Final[Mapping[str, float]] = {
    "chess": 10.0,
    "checkers": 5.0,
    "othello": 64.0,
    "backgammon": 3.0,
    "tictactoe": 4.0,
}
"""The loss, in the game's ``SCORE_UNIT``, a move is charged at most: what throwing a proven
win away (or walking into a proven loss) costs. Beyond it, losses are alike: a blunder."""


COMPILED_SPEEDUP: Final = 60
"""How many times more nodes a second the compiled search visits than the Python PVS of the
same game (chess 1.6M against 20-26k, checkers 5.5M against 200k: 28-80)."""


def level_play(game: str, number: int) -> LevelPlay:
    """How level ``number`` plays ``game``; ``ValueError`` for an unknown game or level.

    Where the game's compiled search is missing (its C extension not built), a level that
    uses it plays the game's own algorithm on a budget ``COMPILED_SPEEDUP`` times smaller:
    the same time, less strength."""
    chosen = level(number)
    table = GAME_LEVELS.get(game)
    if table is None:
        raise ValueError(f"no levels for the game {game!r}; games with levels: {', '.join(GAME_LEVELS)}")
    play = table[chosen.number - 1]
    kind = get_game(game)
    if play.algorithm == "native" and kind.NATIVE_SEARCH is None:
        return replace(play, algorithm=kind.DEFAULT_ALGORITHM, nodes=max(1_000, play.nodes // COMPILED_SPEEDUP))
    return play


def request_for_level(
    play: LevelPlay,
    position: str | None,
    moves: Sequence[str],
    search_id: int = 0,
    root_moves: Sequence[str] = (),
) -> SearchRequest:
    """The search a move of ``play`` asks for, in the game ``position`` + ``moves`` reach
    (the game's notation), among ``root_moves`` (``noticed_moves``; empty: every move): the
    app and the match runner ask with this one function."""
    return SearchRequest(
        game=play.game,
        position=position,
        moves=tuple(moves),
        settings=play.settings(),
        limits=play.limits(),
        search_id=search_id,
        root_moves=tuple(root_moves),
    )


def noticed_moves(play: LevelPlay, state: GameState, rng: random.Random) -> tuple[str, ...]:
    """The moves a level sees in ``state`` before it searches, by name: every capture and
    promotion (``noisy_moves``), each quiet move with the chance ``play.notice``, at least
    one move; empty (search every move) for a level that sees all, or when it happens to
    see all of them. A beginner overlooks moves, not captures: the best move missed is
    mostly a quiet one with a near equal beside it (a small mistake), and now and then the
    one move that saves a piece (a real blunder).

    ``rng`` is drawn from once per quiet move, and only by a level that overlooks moves,
    so a seeded game replays the same."""
    if play.notice >= 1.0 or state.is_terminal() or state.to_move() == CHANCE:
        return ()
    legal = state.legal_moves()
    noisy = state.noisy_moves()
    seen = [move for move in legal if move in noisy or rng.random() < play.notice]
    if not seen:
        seen = [rng.choice(legal)]
    if len(seen) == len(legal):
        return ()
    return tuple(state.move_name(move) for move in seen)


# ------------------------------------------------------------ the weakness
@dataclass(frozen=True)
class Candidate:
    """A move a weak level may play, with what it loses against the best, in the game's
    ``SCORE_UNIT`` (0 for the best; at most the game's ``DECISIVE_LOSS``)."""

    move: Any
    loss: float


def score_loss(best: float, other: float, unit_size: float, decisive: float) -> float:
    """What a move scoring ``other`` loses against one scoring ``best`` (both on the search
    scale, the mover's view), in game units: a proven result thrown away costs
    ``decisive``, a slower proven win a hair (its extra plies on the search scale)."""
    if math.isnan(best) or math.isnan(other):
        return decisive
    return min(max(0.0, best - other) / unit_size, decisive)


def candidates(finished: Finished, play: LevelPlay, mover: int) -> list[Candidate]:
    """The moves ``play`` chooses among, best first: the search's best lines (MultiPV), else
    the searched value of every root move (backgammon's expectiminimax), else the best move
    alone. ``mover`` is the player who moves at the search's root."""
    game = get_game(play.game)
    decisive = DECISIVE_LOSS.get(play.game, math.inf)
    values: list[tuple[Any, float]]
    if len(finished.lines) > 1:
        values = [(line.move, line.score.for_player(mover).value) for line in finished.lines]
    elif len(finished.root_moves) > 1 and all(stat.visits == 0 for stat in finished.root_moves):
        values = [(stat.move, stat.value) for stat in finished.root_moves]  # the mover's view
    else:
        return [Candidate(finished.best_move, 0.0)] if finished.best_move is not None else []
    values.sort(key=lambda pair: -pair[1])  # stable: the search's order among equals
    best = values[0][1]
    return [Candidate(move, score_loss(best, value, game.SCORE_UNIT_SIZE, decisive)) for move, value in values]


def choice_weights(losses: Sequence[float], temperature: float) -> list[float]:
    """The chance of each move given its loss (the best loses 0): ``exp(-loss /
    temperature)``, normalised; temperature 0 gives the best (the first least loss) all of
    it."""
    if not losses:
        return []
    least = min(losses)
    if temperature <= 0.0 or not math.isfinite(temperature):
        first = losses.index(least)
        return [1.0 if index == first else 0.0 for index in range(len(losses))]
    raw = [math.exp(-(loss - least) / temperature) for loss in losses]
    total = sum(raw)
    return [weight / total for weight in raw]


def choose_move(finished: Finished, play: LevelPlay, mover: int, rng: random.Random) -> Any:
    """The move level ``play`` plays after its search ``finished``: the best move at a level
    without weakness, or for an answer that was not a choice (a book move, a forced answer,
    the only move); else one of the candidates at random, weighted by ``choice_weights``.
    ``rng`` is drawn from only when there is a choice, so a seeded game replays the same."""
    if not play.is_weak or finished.book or finished.forced or finished.only_move or finished.best_move is None:
        return finished.best_move
    found = candidates(finished, play, mover)
    if len(found) <= 1:
        return finished.best_move
    weights = choice_weights([candidate.loss for candidate in found], play.temperature)
    return rng.choices([candidate.move for candidate in found], weights=weights)[0]


def played_score(finished: Finished, move: Any, mover: int) -> Score:
    """The search's score of ``move``, one of its candidates: its line's (or root value's)
    when the level played another than the best, else the answer's own ``score``."""
    if move == finished.best_move:
        return finished.score
    for line in finished.lines:
        if line.move == move:
            return line.score
    for stat in finished.root_moves:
        if stat.move == move:
            return Score(stat.value, mover, None, finished.score.scale)
    return finished.score


@dataclass(frozen=True)
class LevelChoice:
    """What a weak level played, beside what its search preferred: what a player is told,
    so that "Best move Nf6" never stands beside a played e6 unexplained."""

    level: int
    search_id: int
    move: Any
    """The move played."""
    score: Score
    """The search's score of the move played (the one the game's evaluation keeps)."""
    line: tuple[Any, ...]
    """The searched line starting with the move played (the move alone when none)."""
    best_move: Any
    """The search's best move among the moves it looked at."""
    best_score: Score
    looked_at: int
    """How many moves the level looked at (``noticed_moves``); ``legal`` when all."""
    legal: int
    """The legal moves in the position."""

    @property
    def deviated(self) -> bool:
        """Whether the level played another move than its search's best."""
        return self.move != self.best_move

    @property
    def overlooked(self) -> int:
        """How many legal moves the level did not look at."""
        return max(0, self.legal - self.looked_at)


def level_choice(
    finished: Finished, play: LevelPlay, move: Any, mover: int, looked_at: int, legal: int
) -> LevelChoice:
    """The ``LevelChoice`` of ``play`` playing ``move`` (``choose_move``'s) after ``finished``;
    ``looked_at``: the moves its search was given (0 or ``legal``: all of them)."""
    line: tuple[Any, ...] = (move,)
    if move == finished.best_move and finished.pv:
        line = tuple(finished.pv)
    else:
        line = next((tuple(found.pv) for found in finished.lines if found.move == move and found.pv), line)
    seen = legal if looked_at <= 0 else min(looked_at, legal)
    return LevelChoice(
        play.number, finished.search_id, move, played_score(finished, move, mover), line,
        finished.best_move, finished.score, seen, legal,
    )


def strongest_play(game: str) -> LevelPlay:
    """The game's strongest level: what advises a player (a hint), whatever the level of
    the side it plays against."""
    return level_play(game, len(LEVELS))


def level_rng(seed: int | None, game_number: int, side: int) -> random.Random:
    """The generator of a level's weakness for side ``side`` (0 or 1) in one game: the same
    ``seed``, game and side give the same mistakes (a match replays; the app with a seed
    errs as the match's first game does), and the two sides err independently. ``None``:
    unseeded, a new game each time."""
    if seed is None:
        return random.Random()
    return random.Random(f"level-weakness/{seed}/{game_number}/{side}")


# ------------------------------------------------------------ measured ratings
RATINGS_PACKAGE: Final = "resources"
RATINGS_FILE: Final = "levels.json"
RATINGS_FORMAT: Final = 1


class RatingScale(StrEnum):
    """What a level's rating counts."""

    ELO = "elo"
    """Elo on the opponent's scale (Stockfish's ``UCI_Elo``, a ladder anchored on a program's
    levels): ``value`` and its interval in Elo points."""
    PERFECT_SHARE = "perfect-share"
    """The share of the level's moves that keep the game-theoretic value, in percent (a game
    solved to the end: tic-tac-toe)."""
    POINTS = "points"
    """Points won (or lost) a game against the opponent: backgammon's money games, where a
    gammon counts 2 and Elo would hide it."""


class RatingBound(StrEnum):
    """Which side of a level's rating is open: a level that won (or lost) every game it
    played has no finite Elo, only a bound (95%, from the rule of three)."""

    AT_LEAST = "at-least"
    """It won every game: its Elo is at least ``value``."""
    AT_MOST = "at-most"
    """It lost every game: its Elo is at most ``value``."""


@dataclass(frozen=True)
class LevelRating:
    """A level's measured strength: ``value`` with its 95% interval ``low``-``high`` on
    ``scale``, from ``games`` games against ``opponent`` (its short name, "Stockfish";
    ``anchor`` says how the scale is fixed), reproduced by ``command``. A level that won or
    lost every game has only a ``bound`` (Elo alone): ``value``, ``low`` and ``high`` are the
    bound."""

    game: str
    level: int
    value: float
    low: float
    high: float
    scale: RatingScale
    opponent: str
    games: int
    anchor: str = ""
    command: str = ""
    bound: RatingBound | None = None

    def text(self) -> str:
        """``≈1640 Elo (1560–1720) vs Stockfish``; on a ladder anchored at a program's level
        (anchor ``Elo, GRhino level 1 (gtp-rhino -l 1) = 1000``) ``≈1470 Elo (1251–1690) where
        GRhino level 1 = 1000``, so the number is not read as chess Elo; ``96% perfect moves (94–98%)``,
        ``−0.14 points a game (−0.23 to −0.05) vs gnubg 0-ply``; a bound ``below ≈983 Elo vs
        Stockfish (lost all 36 games it played)`` (against any opponent of the ladder)."""
        if self.bound is not None:
            side, outcome = ("above", "won") if self.bound is RatingBound.AT_LEAST else ("below", "lost")
            return f"{side} ≈{self.value:.0f} Elo {self._against()} ({outcome} all {self.games} games it played)"
        if self.scale is RatingScale.PERFECT_SHARE:
            return f"{self.value:.0f}% perfect moves ({self.low:.0f}–{self.high:.0f}%)"
        if self.scale is RatingScale.POINTS:
            value, low, high = (f"{number:+.2f}".replace("-", "\u2212") for number in (self.value, self.low, self.high))
            return f"{value} points a game ({low} to {high}) vs {self.opponent}"
        return f"≈{self.value:.0f} Elo ({self.low:.0f}–{self.high:.0f}) {self._against()}"

    def _against(self) -> str:
        """``vs Stockfish``; on a ladder anchored at a program's level (anchor ``Elo, GRhino
        level 1 (gtp-rhino -l 1) = 1000``) ``where GRhino level 1 = 1000``."""
        if self.anchor.startswith("Elo, ") and " = " in self.anchor:
            return "where " + re.sub(r"\s*\([^)]*\)", "", self.anchor.removeprefix("Elo, "))
        return f"vs {self.opponent}"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "value": self.value, "low": self.low, "high": self.high, "scale": self.scale.value,
            "opponent": self.opponent, "games": self.games,
        }
        if self.anchor:
            data["anchor"] = self.anchor
        if self.command:
            data["command"] = self.command
        if self.bound is not None:
            data["bound"] = self.bound.value
        return data


class LevelRatingsError(ValueError):
    """A ratings file that cannot be read; the message says where and what."""


def parse_level_ratings(text: str, source: str = RATINGS_FILE) -> dict[tuple[str, int], LevelRating]:
    """The ratings a ratings file holds, by ``(game, level)``; ``LevelRatingsError`` names the
    first entry that is not a rating of a known game's level.

    The file: ``{"format": 1, "games": {GAME: {"LEVEL": {"value", "low", "high", "scale",
    "opponent", "games", "anchor"?, "command"?, "bound"?}}}}``; a level not measured has no
    entry."""
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except (ValueError, RecursionError) as error:
        raise LevelRatingsError(f"{source}: not JSON ({error})") from None
    if not isinstance(data, dict) or data.get("format") != RATINGS_FORMAT or not isinstance(data.get("games"), dict):
        raise LevelRatingsError(f'{source}: not a ratings file (expected {{"format": {RATINGS_FORMAT}, "games": {{...}}}})')
    ratings: dict[tuple[str, int], LevelRating] = {}
    for game, levels in data["games"].items():
        if game not in GAME_LEVELS or not isinstance(levels, dict):
            raise LevelRatingsError(f"{source}: {game!r} is not a game with levels")
        for key, entry in levels.items():
            where = f"{source}: {game} level {key}"
            number = int(key) if isinstance(key, str) and key.isdigit() else 0
            if not 1 <= number <= len(LEVELS):
                raise LevelRatingsError(f"{where}: levels are 1-{len(LEVELS)}")
            ratings[(game, number)] = _rating(game, number, entry, where)
    return ratings


def _rating(game: str, number: int, entry: object, where: str) -> LevelRating:
    if not isinstance(entry, dict):
        raise LevelRatingsError(f"{where}: not an object")
    numbers = []
    for name in ("value", "low", "high"):
        value = entry.get(name)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise LevelRatingsError(f"{where}: {name} must be a number, not {value!r}")
        numbers.append(float(value))
    value, low, high = numbers
    if not low <= value <= high:
        raise LevelRatingsError(f"{where}: the interval {low:g}-{high:g} does not hold the rating {value:g}")
    try:
        scale = RatingScale(str(entry.get("scale")))
    except ValueError:
        known = ", ".join(scale.value for scale in RatingScale)
        raise LevelRatingsError(f"{where}: scale must be one of {known}, not {entry.get('scale')!r}") from None
    games = entry.get("games")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise LevelRatingsError(f"{where}: games must be a positive whole number, not {games!r}")
    texts = {}
    for name, required in (("opponent", True), ("anchor", False), ("command", False)):
        text = entry.get(name, "")
        if not isinstance(text, str) or (required and not text.strip()) or len(text) > 500:
            raise LevelRatingsError(f"{where}: {name} must be text of at most 500 characters")
        texts[name] = text.strip()
    bound = None
    if "bound" in entry:
        try:
            bound = RatingBound(str(entry["bound"]))
        except ValueError:
            known = ", ".join(side.value for side in RatingBound)
            raise LevelRatingsError(f"{where}: bound must be one of {known}, not {entry['bound']!r}") from None
        if scale is not RatingScale.ELO or not low == value == high:
            raise LevelRatingsError(f"{where}: only an Elo rating can be a bound, with value, low and high the bound")
    return LevelRating(game, number, value, low, high, scale, texts["opponent"], games, texts["anchor"],
                       texts["command"], bound)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number")


def ratings_json(ratings: Sequence[LevelRating]) -> str:
    """The ratings file holding ``ratings`` (read back by ``parse_level_ratings``)."""
    games: dict[str, dict[str, Any]] = {}
    for rating in sorted(ratings, key=lambda rating: (list(GAME_LEVELS).index(rating.game), rating.level)):
        games.setdefault(rating.game, {})[str(rating.level)] = rating.to_json()
    return json.dumps({"format": RATINGS_FORMAT, "games": games}, indent=2, ensure_ascii=False) + "\n"


_RATINGS: dict[tuple[str, int], LevelRating] | None = None


def level_ratings() -> dict[tuple[str, int], LevelRating]:
    """The shipped ratings (``resources/levels.json``), read once per process; a file that
    cannot be read counts as no level measured (its problem is the tests' to find)."""
    global _RATINGS
    if _RATINGS is None:
        try:
            text = resources.files(RATINGS_PACKAGE).joinpath(RATINGS_FILE).read_text(encoding="utf-8")
            _RATINGS = parse_level_ratings(text)
        except (OSError, LevelRatingsError):
            _RATINGS = {}
    return _RATINGS


def level_rating(game: str, number: int) -> LevelRating | None:
    """Level ``number``'s measured rating in ``game``; ``None``: not measured."""
    return level_ratings().get((game, number))


# ------------------------------------------------------------ a typed depth's cost
DEPTH_TIME_CAP: Final = 10.0
"""Seconds a move searched to a typed depth ("Strength: Depth") may take at most: a depth
expected to take longer is capped (``plan_depth``), and the search stops here in any case."""

GROWTH_EXPONENTS: Final[dict[str, float]] = {
    "minimax": 1.0,
    "expectiminimax": 1.0,
    "alphabeta": 0.75,
    "pvs": 0.7,
    "mtdf": 0.7,
    "star1": 0.95,
    "star2": 0.8,
}
"""Per algorithm, the exponent ``e`` of the branching ``b**e`` it searches at each decision
ply: 1 for a full-width tree; alpha-beta with perfect ordering reaches 0.5 (Knuth & Moore
1975), real ordering 0.7-0.75. Star1/Star2 prune only at chance nodes: measured on
backgammon at 2 plies, Star1 visits 0.6-0.8 and Star2 0.15-0.35 of expectiminimax's nodes.
Algorithms without a depth (MCTS) or not searched in Python (the compiled search) are
absent: no estimate."""

NODE_OVERHEAD: Final = 1.5
"""A searched node costs about this many times a leaf's play, EVAL and undo (the node's
own bookkeeping and move generation)."""


DETERMINISTIC_ESTIMATE_MARGIN: Final = 30.0
"""How far an estimate may exceed the cap before a game without dice searches a shallower
depth: measured at the start positions, the estimates ran 30 times high for chess's PVS at
depth 5 and 10 times low for Othello's at depth 6 (``plan_depth``)."""


def limits_for_depth(state: GameState, algorithm: str, depth: int) -> Limits:
    """The limits a move searched to a typed ``depth`` gets: the planned depth and the
    time cap as a hard stop, so no typed depth makes the computer think for long."""
    leaf = _LEAF_SECONDS_BY_GAME.get(state.NAME)
    if leaf is None:
        leaf = _LEAF_SECONDS_BY_GAME[state.NAME] = leaf_seconds(state)
    plan = plan_depth(state, algorithm, depth, seconds_per_leaf=leaf)
    return Limits(depth=plan.depth, time=plan.time_cap)


_LEAF_SECONDS_BY_GAME: dict[str, float] = {}
"""A leaf's cost, measured once per game in this process (the caller may be a GUI thread:
a backgammon leaf after a dance looks a roll ahead, and eight of them take a while)."""


@dataclass(frozen=True)
class DepthPlan:
    """What a typed depth will search: the depth, capped when it cannot finish in time."""

    requested: int
    depth: int
    """The depth searched: ``requested``, or the deepest expected to finish within ``time_cap``."""
    expected_seconds: float | None
    """Expected time of ``depth`` (all its iterations); ``None``: no estimate."""
    requested_seconds: float | None
    """Expected time of ``requested``; ``None``: no estimate."""
    time_cap: float
    """The search stops here whatever the estimate said."""

    @property
    def is_capped(self) -> bool:
        return self.depth < self.requested


def leaf_seconds(state: GameState, samples: int = 8) -> float:
    """A quick measure of one leaf's cost in ``state``'s game: a root move played, EVAL read
    and the move taken back, the median over a few root moves (a few milliseconds)."""
    probe = state.copy()
    if probe.is_terminal():
        return 0.0
    player = probe.to_move()
    moves = probe.legal_moves()[:samples] if player != CHANCE else [o for o, _ in probe.chance_outcomes()][:samples]
    viewer = 0 if player == CHANCE else player
    costs = []
    for move in moves:
        started = time.perf_counter()
        probe.play(move)
        probe.evaluate(viewer)
        probe.undo()
        costs.append(time.perf_counter() - started)
    costs.sort()
    return costs[len(costs) // 2] if costs else 0.0


def branching(state: GameState) -> tuple[int, int]:
    """``(b, c)``: the decision branching at ``state`` (its legal moves; at a chance root,
    those after its first outcome) and the number of chance outcomes between two decisions
    (1 in a game without dice)."""
    probe = state.copy()
    plays = 0
    chance = 1
    while not probe.is_terminal() and probe.to_move() == CHANCE:
        chance = max(chance, len(probe.chance_outcomes()))
        probe.play(probe.chance_outcomes()[0][0])
        plays += 1
    moves = probe.legal_moves() if not probe.is_terminal() else []
    if probe.HAS_CHANCE and moves and chance == 1:
        probe.play(moves[0])
        plays += 1
        while not probe.is_terminal() and probe.to_move() != CHANCE:
            follow = probe.legal_moves()
            probe.play(follow[0])
            plays += 1
        if not probe.is_terminal():
            chance = len(probe.chance_outcomes())
    return max(1, len(moves)), chance


def expected_seconds(
    state: GameState, algorithm: str, depth: int, seconds_per_leaf: float | None = None
) -> float | None:
    """The expected time of a search of ``state`` to ``depth`` with ``algorithm`` (iterative
    deepening: the iterations 1..depth), from the game's branching here (``branching``) and
    a leaf's measured cost (``leaf_seconds``, or ``seconds_per_leaf``): a decision ply
    multiplies the leaves by ``b ** e`` (``GROWTH_EXPONENTS``) and a chance layer by its
    outcomes. ``None`` for an algorithm without a depth or an estimate (MCTS, native).

    An estimate to an order of magnitude: it says whether a depth takes a second or an hour
    (backgammon's expectiminimax: depth 2 a few seconds, 3 about an hour, 4 days)."""
    exponent = GROWTH_EXPONENTS.get(algorithm)
    if exponent is None or depth < 1:
        return None
    leaf = leaf_seconds(state) if seconds_per_leaf is None else seconds_per_leaf
    leaves = 0.0
    if state.HAS_CHANCE:
        moves, outcomes = branching(state)
        per_ply = float(moves) ** exponent
        for ply in range(1, depth + 1):
            leaves += per_ply**ply * outcomes ** (ply - 1)
    else:
        # A game without dice: the branching of each ply down the line, which shrinks as a
        # board fills (tic-tac-toe: 9, 8, 7, ...) and ends where the game does.
        width = 1.0
        for mean_moves in branching_by_ply(state, depth):
            width *= mean_moves**exponent
            leaves += width
    return leaves * leaf * NODE_OVERHEAD


LINES_SAMPLED: Final = 4
"""Random lines ``branching_by_ply`` walks down; a ply's branching is their mean."""


def branching_by_ply(state: GameState, depth: int, seed: int = 0) -> list[float]:
    """The mean number of legal moves at each of the first ``depth`` plies from ``state``,
    over a few random lines (a line that ends counts no moves from there on); stops at the
    first ply where every line has ended."""
    rng = random.Random(seed)
    totals = [0.0] * depth
    for _ in range(LINES_SAMPLED):
        probe = state.copy()
        for ply in range(depth):
            if probe.is_terminal():
                break
            moves = probe.legal_moves()
            totals[ply] += len(moves)
            probe.play(rng.choice(moves))
    means = [total / LINES_SAMPLED for total in totals]
    while means and means[-1] == 0.0:
        means.pop()
    return means


def plan_depth(
    state: GameState,
    algorithm: str,
    depth: int,
    time_cap: float = DEPTH_TIME_CAP,
    seconds_per_leaf: float | None = None,
) -> DepthPlan:
    """The depth a typed ``depth`` searches: the deepest at most ``depth`` expected to
    finish within ``time_cap`` (at least 1), with the expected times to show beside it.

    In a game without dice a depth is dropped only when its estimate exceeds the cap
    ``DETERMINISTIC_ESTIMATE_MARGIN`` times over: there the estimate is good to an order of
    magnitude at best, and the cap itself stops a search that runs long (iterative
    deepening then answers with the deepest depth it completed). With dice a ply costs
    hundreds of times the one before, so the estimate decides alone."""
    leaf = leaf_seconds(state) if seconds_per_leaf is None else seconds_per_leaf
    estimate: Callable[[int], float | None] = lambda d: expected_seconds(state, algorithm, d, leaf)
    requested_seconds = estimate(depth)
    allowed = time_cap if state.HAS_CHANCE else time_cap * DETERMINISTIC_ESTIMATE_MARGIN
    chosen = depth
    if requested_seconds is not None:
        while chosen > 1 and (estimate(chosen) or 0.0) > allowed:
            chosen -= 1
    return DepthPlan(depth, chosen, estimate(chosen), requested_seconds, time_cap)
