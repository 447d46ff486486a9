"""Every level of every game against outside opponents: the matches behind bench/LEVELS.md
and the ratings the app shows (resources/levels.json).

Run: ``.venv/bin/python -m bench.levels --game chess [--levels 1,2] [--run] [--write]``.
Without ``--run`` it prints the table of what has been measured (``bench/levels_results.json``
holds every match played: its players, games, +/=/- and the level's recipe as played); with
``--run`` it plays the planned matches that are missing first (one at a time, in this
process: pin it to a core, ``nice -n 10 taskset -c 1``); ``--write`` writes the ratings
file (``ai.levels.ratings_json``) and the tables of bench/LEVELS.md.

Each match is a ``plyground match`` (``ai.match.runner.run_match``, paired openings, the
level's weakness seeded as ``plyground match --seed`` seeds it), so the command printed
beside each result reproduces it. A level plays as ``level=N,cap=off``: its recipe with the
node budget alone ending each search, as on a machine fast enough never to reach the level's
time cap (the budgets are a third to a half of an idle core's), so that a busy machine cannot
weaken the level it measures; how often a move took longer than the cap on the machine of the
measurement is recorded beside it. A result counts for a level only while the level's recipe
(``ai.levels.level_play``: engine, node budget, depth, lines, weakness) is the one played;
a level whose recipe changed since is shown as not measured.

The scales, one per game:

* chess: Stockfish 15.1's ``UCI_Elo`` (``UCI_LimitStrength``, 1350-2850), the scale its
  authors anchored to CCRL (goldfish 1.13 = 2000) by a fit of matches at 60+0.6 s
  (``Skill`` in Stockfish 15's ``search.cpp``). Such a Stockfish picks its move among its 4
  best lines (MultiPV) when its iterative deepening completes depth ``1 + int(level)``,
  ``level = ((Elo - 1346.6) / 143.4) ** (1 / 0.806)``; whatever it searches later changes
  nothing. It is played with ``go depth`` set to that depth (``stockfish_depth``): the same
  moves on any machine and at any load, and no time wasted.
* Othello: Elo on a ladder of GRhino's levels (``gtp-rhino -l 1..5``: fixed search depths),
  anchored at GRhino level 1 = ``OTHELLO_ANCHOR``; the GRhino levels are rated by matches
  between them.
* checkers: Elo on a ladder of py-draughts' ``SimpleEngine`` at fixed depths
  (``bench/draughts_peer.py``), anchored at depth 2 = ``CHECKERS_ANCHOR``, the top levels
  chained through our own levels where the outside engine is too weak to score against.
* backgammon: cubeless points a game against gnubg 0-ply (gnubg's neural net alone), with
  the 95% interval of the paired games.
* tic-tac-toe: the share of perfect moves (``bench/tictactoe_perfect.py``).

Ratings: every match of a game is one maximum-likelihood fit of the Elo model (draws half
a point; the expected total score of each player equals its total score), with the anchors
fixed; the 95% interval is the sandwich estimate (the per-game score variance as observed,
so draws narrow it as in ``ai.match.stats``). A player that won (or lost) every game has no
finite estimate: its rating is a bound from the rule of three (no loss in ``n`` games: the
loss rate is below ``3/n`` with 95% confidence).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from ai.levels import GAME_LEVELS, LEVELS, LevelPlay, LevelRating, RatingBound, RatingScale, level_play, ratings_json
from ai.match.openings import built_in
from ai.match.protocol import GameHistory, Player
from ai.match.records import write_games
from ai.match.runner import MatchResult, run_match
from ai.match.stats import Z_95, MatchStatistics, PointStatistics, elo_from_score, format_elo_line
from ai.settings import Limits
from games import get_game

ROOT = Path(__file__).resolve().parent.parent
RESULTS = Path(__file__).with_name("levels_results.json")
LEVELS_MD = Path(__file__).with_name("LEVELS.md")
RATINGS = ROOT / "resources" / "levels.json"
LOSSES = Path(__file__).with_name("levels_losses.md")
"""The last move-loss table (``--losses``), copied into LEVELS.md by ``--write``."""
GAMES_DIR = Path(os.environ.get("PLYGROUND_LEVELS_GAMES", "/tmp/plyground-levels-games"))
"""Where the matches' games are written (PGN/PDN/JSON lines), for the move-loss tables."""

STOCKFISH = "uci:stockfish?UCI_LimitStrength=true&UCI_Elo={elo}&Threads=1&Hash=16"
OTHELLO_ANCHOR = 1000.0
CHECKERS_ANCHOR = 1000.0
LOS_FLOOR = 3.0
"""The rule of three: no loss in ``n`` games puts the loss rate below ``3/n`` (95%)."""


def stockfish_depth(elo: int) -> int:
    """The depth at which Stockfish 15.1 at ``UCI_Elo`` ``elo`` picks its move (its
    ``Skill``: ``level = ((elo - 1346.6) / 143.4) ** (1 / 0.806)``, picked at depth
    ``1 + int(level)``)."""
    level = min(20.0, max(0.0, (elo - 1346.6) / 143.4) ** (1 / 0.806))
    return 1 + int(level)


# ------------------------------------------------------------ opponents and plans
@dataclass(frozen=True)
class Opponent:
    """An outside player (or a level used as a rung of the ladder)."""

    key: str
    spec: str
    label: str
    limits: Limits = field(default_factory=lambda: Limits(time=1.0))
    """The match's limits: what the outside program plays at (a level keeps its own)."""
    rating: float | None = None
    """Its fixed rating on the game's scale; ``None``: rated by the matches."""


def _chess_opponents() -> dict[str, Opponent]:
    return {
        f"sf{elo}": Opponent(f"sf{elo}", STOCKFISH.format(elo=elo), f"Stockfish UCI_Elo {elo}",
                             Limits(depth=stockfish_depth(elo)), float(elo))
        for elo in (1350, 1500, 1800, 2000, 2200, 2500, 2850)
    }


OPPONENTS: dict[str, dict[str, Opponent]] = {
    "chess": _chess_opponents(),
    "othello": {
        f"rhino{n}": Opponent(f"rhino{n}", f"gtp:gtp-rhino -l {n}", f"GRhino level {n}",
                              Limits(time=1.0), OTHELLO_ANCHOR if n == 1 else None)
        for n in range(1, 6)
    },
    "checkers": {
        f"draughts{d}": Opponent(f"draughts{d}", f"draughts:{d}", f"py-draughts depth {d}",
                                 Limits(time=1.0), CHECKERS_ANCHOR if d == 2 else None)
        for d in (2, 4, 6)
    },
    "backgammon": {
        "gnubg0": Opponent("gnubg0", "gnubg:0", "gnubg 0-ply", Limits(time=1.0), 0.0),
        "gnubg1": Opponent("gnubg1", "gnubg:1", "gnubg 1-ply", Limits(time=1.0)),
        "pubeval": Opponent("pubeval", "pubeval", "pubeval", Limits(time=1.0)),
    },
    "tictactoe": {},
}
SCALE_TEXT = {
    "chess": "Stockfish 15.1 UCI_Elo (anchored by its authors to CCRL, goldfish 1.13 = 2000)",
    "othello": f"Elo, GRhino level 1 (gtp-rhino -l 1) = {OTHELLO_ANCHOR:.0f}",
    "checkers": f"Elo, py-draughts 1.10.1 SimpleEngine depth 2 = {CHECKERS_ANCHOR:.0f}",
    "backgammon": "cubeless points a game against gnubg 0-ply",
    "tictactoe": "share of moves that keep the game-theoretic value",
}
OPPONENT_NAME = {"chess": "Stockfish", "othello": "GRhino", "checkers": "py-draughts", "backgammon": "gnubg 0-ply",
                 "tictactoe": "full solve"}


@dataclass(frozen=True)
class Planned:
    """One planned match: ``a`` against ``b`` (``level:N`` or an opponent key)."""

    game: str
    a: str
    b: str
    games: int
    seed: int


def level_key(number: int) -> str:
    return f"level:{number}"


PLAN: dict[str, list[Planned]] = {game: [] for game in GAME_LEVELS}
"""The matches to play, fixed before playing (seeds included); ``_plan`` fills it."""


def _plan(game: str, pairs: Sequence[tuple[str, str, int]], seed: int) -> None:
    for a, b, games in pairs:
        PLAN[game].append(Planned(game, a, b, games, seed))


# Game counts follow the CPU budget of the whole measurement (about 100 minutes of one core
# for the five games, on a machine shared with other jobs): 8-16 games a level, the fewest
# for the levels that cost the most a move, whose intervals are the widest.
# Chess: the weak levels against Stockfish's floor (1350), each other level against the rung
# nearest its expected strength.
_plan("chess", [
    (level_key(1), "sf1350", 12), (level_key(2), "sf1350", 12), (level_key(3), "sf1350", 12),
    (level_key(4), "sf1350", 12), (level_key(5), "sf1800", 12), (level_key(6), "sf2000", 12),
    (level_key(7), "sf2200", 10), (level_key(8), "sf2200", 8), (level_key(9), "sf2500", 6),
    (level_key(10), "sf2500", 6),
], seed=11)
# Othello: GRhino's levels rated among themselves (the anchor's ladder: it is deterministic,
# and its low levels cost milliseconds a move, so the low rungs play every one of the 60
# openings with both colours), then each level against the GRhino level nearest it. GRhino's
# level 5 searches too long a move for this budget; the top levels are chained through ours.
_plan("othello", [("rhino2", "rhino1", 120), ("rhino3", "rhino2", 120), ("rhino4", "rhino3", 16)], seed=23)
_plan("othello", [
    (level_key(1), "rhino1", 12), (level_key(2), "rhino1", 12), (level_key(3), "rhino1", 12),
    (level_key(4), "rhino2", 12), (level_key(5), "rhino3", 12), (level_key(6), "rhino3", 10),
    (level_key(7), "rhino4", 8), (level_key(8), "rhino4", 8), (level_key(9), level_key(7), 6),
    (level_key(10), level_key(8), 6),
], seed=21)
# Checkers: py-draughts at depths 2, 4, 6 rated among themselves, the weak levels against
# them; the top levels, which no outside engine here can hold, chained through our own.
_plan("checkers", [
    ("draughts4", "draughts2", 12), ("draughts6", "draughts4", 8),
    (level_key(1), "draughts2", 12), (level_key(2), "draughts2", 12), (level_key(3), "draughts4", 12),
    (level_key(4), "draughts4", 12), (level_key(5), "draughts6", 10), (level_key(6), "draughts6", 8),
    (level_key(7), level_key(5), 8), (level_key(8), level_key(6), 8), (level_key(9), level_key(7), 6),
    (level_key(10), level_key(8), 6),
], seed=31)
# The weak levels cost milliseconds a move: a second match each (another seed, so other
# openings and other draws of the weakness) narrows their intervals.
_plan("othello", [(level_key(n), opponent, 36) for n, opponent in ((1, "rhino1"), (2, "rhino1"), (3, "rhino1"),
                                                                   (4, "rhino2"))], seed=22)
_plan("checkers", [(level_key(n), "draughts2", 36) for n in (1, 2)], seed=32)
_plan("chess", [(level_key(1), "sf1350", 24), (level_key(2), "sf1350", 24), (level_key(3), "sf1800", 12),
                (level_key(4), "sf1800", 8), (level_key(5), "sf2200", 8)], seed=12)
# Chess level 1 lost every game to Stockfish's floor (UCI_Elo 1350, the weakest it plays):
# it is tied to the scale through level 2, which scored 46% against that floor.
_plan("chess", [(level_key(1), level_key(2), 24)], seed=13)
# Checkers level 6 won every game against py-draughts depth 6 and lost every game to level 8:
# the compiled levels are tied to the scale through level 5 (the Python search, against
# depth 6), each against the level below it.
_plan("checkers", [(level_key(6), level_key(5), 8), (level_key(8), level_key(7), 8)], seed=31)
# Level 5 against level 4 narrows level 5's interval (one draw in its 10 games against
# depth 6); a lower priority than the unmeasured levels, stopped after 2 games (not recorded).
_plan("checkers", [(level_key(5), level_key(4), 8)], seed=31)
# Adjacent levels head to head, where the ladder left their order unproven (chess 5 measured
# above 6-8, Othello 6 below 5 and 9 below 7-8, every interval overlapping its neighbours').
_plan("chess", [(level_key(6), level_key(5), 12), (level_key(7), level_key(6), 10), (level_key(8), level_key(7), 10)],
      seed=14)
_plan("othello", [(level_key(6), level_key(5), 10), (level_key(9), level_key(8), 8), (level_key(10), level_key(9), 8)],
      seed=24)
# Checkers 8 measured above 9 (each had played level 7 only): the top three head to head.
_plan("checkers", [(level_key(9), level_key(8), 8), (level_key(10), level_key(9), 8)], seed=33)
# Othello levels 3-10 again, once a solve's nodes were charged at their cost (the matches of
# seed 21 are kept, marked superseded): the same opponents and game counts.
_plan("othello", [
    (level_key(3), "rhino1", 12), (level_key(4), "rhino2", 12), (level_key(5), "rhino3", 12),
    (level_key(6), "rhino3", 10), (level_key(7), "rhino4", 8), (level_key(8), "rhino4", 8),
    (level_key(9), level_key(7), 6), (level_key(10), level_key(8), 6),
], seed=25)
# Othello 7 measured below 5 and 6 on the ladder once the solver was charged at its cost:
# 7 and 8 against the level below.
_plan("othello", [(level_key(7), level_key(6), 8), (level_key(8), level_key(7), 8)], seed=26)
# Othello 8-10 play the compiled search (1-2, 1 and 1 plies deeper than the level below at
# seven random positions, ai/levels.py): no outside engine here is both that strong and quick
# enough (GRhino level 5 took 3 minutes a game), so they are chained through level 7.
_plan("othello", [(level_key(8), level_key(7), 16), (level_key(9), level_key(8), 16), (level_key(10), level_key(9), 12)],
      seed=27)
# Level 8 scored 69% against 7 in those 16 games, an interval from -28 to +412 Elo: 16 games
# more, and level 10 against 8 as a second link for the top.
_plan("othello", [(level_key(8), level_key(7), 16), (level_key(10), level_key(8), 8)], seed=28)
# Backgammon: every level against gnubg 0-ply, dice paired.
_plan("backgammon", [(level_key(n), "gnubg0", 10 if n <= 7 else 6) for n in range(1, 11)], seed=41)
# Levels 1-7 search one ply (about a second a game): 90 games more each narrow their interval.
_plan("backgammon", [(level_key(n), "gnubg0", 90) for n in range(1, 8)], seed=42)
# Levels 8-10 search two plies (5-15 seconds a game): 20 games more each.
_plan("backgammon", [(level_key(n), "gnubg0", 20) for n in (9, 8, 10)], seed=42)


# ------------------------------------------------------------ playing a match
class TimedPlayer:
    """A player whose moves are timed (wall clock): the slowest, and how many took longer
    than ``cap`` (the level's time promise)."""

    def __init__(self, player: Player, cap: float | None) -> None:
        self.player = player
        self.name = player.name
        self.cap = cap
        self.slowest = 0.0
        self.over_cap = 0
        self.moves = 0

    def new_game(self, state: Any) -> None:
        self.player.new_game(state)

    def choose(self, state: Any, history: GameHistory, limits: Limits) -> Any:
        started = time.perf_counter()
        move = self.player.choose(state, history, limits)
        spent = time.perf_counter() - started
        self.moves += 1
        self.slowest = max(self.slowest, spent)
        if self.cap is not None and spent > self.cap:
            self.over_cap += 1
        return move

    def close(self) -> None:
        self.player.close()


def spec_of(game: str, key: str) -> str:
    if key.startswith("level:"):
        return f"level={key.split(':')[1]},cap=off"
    return OPPONENTS[game][key].spec


def limits_of(game: str, planned: Planned) -> Limits:
    """The match's limits: the outside player's (a level keeps its own)."""
    for key in (planned.b, planned.a):
        if not key.startswith("level:"):
            return OPPONENTS[game][key].limits
    return Limits(time=1.0)


def make(game: str, key: str, seat: int, seed: int) -> Player:
    """The player ``key`` names, seeded as ``plyground match --seed`` seeds seat ``seat``."""
    spec = spec_of(game, key)
    if spec.startswith("draughts:"):
        from bench.draughts_peer import DraughtsPlayer

        player = DraughtsPlayer(int(spec.split(":")[1]))
        player.start()
        return player
    from ai.match.players import make_player

    made = make_player(spec, game, seed=2 * seed + seat)
    if hasattr(made, "move_timeout"):
        made.move_timeout = 600.0  # type: ignore[attr-defined]
    return made


def recipe(game: str, key: str) -> dict[str, Any] | None:
    """A level's recipe as played (``None`` for an outside player)."""
    if not key.startswith("level:"):
        return None
    play = level_play(game, int(key.split(":")[1]))
    data = asdict(play)
    if data.get("notice", 1.0) == 1.0:  # a level that looks at every move: recorded without the field
        data.pop("notice", None)
    data["level"] = play.level.number
    data["seconds"] = play.level.seconds
    data["time_cap"] = "off"
    return data


def command(planned: Planned) -> str:
    """The ``plyground match`` command that plays ``planned`` (``bench.levels`` for the
    py-draughts peer, which ``plyground match`` does not know)."""
    game = planned.game
    specs = [spec_of(game, planned.a), spec_of(game, planned.b)]
    if any(spec.startswith("draughts:") for spec in specs):
        return f"python -m bench.levels --game {game} --run --only {planned.a},{planned.b}"
    limits = limits_of(game, planned)
    limit = f"--depth {limits.depth}" if limits.depth is not None else f"--time {limits.time:g}"
    quoted = [f'"{spec}"' if any(c in spec for c in " ?&") else spec for spec in specs]
    return (f"plyground match --game {game} --a {quoted[0]} --b {quoted[1]} {limit} "
            f"--games {planned.games} --seed {planned.seed}")


def revision() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def play(planned: Planned) -> dict[str, Any]:
    """Play ``planned`` and return its record."""
    game = planned.game
    caps = [level_play(game, int(key.split(":")[1])).seconds if key.startswith("level:") else None
            for key in (planned.a, planned.b)]
    players = [TimedPlayer(make(game, key, seat, planned.seed), cap)
               for seat, (key, cap) in enumerate(zip((planned.a, planned.b), caps, strict=True))]
    started, cpu = time.perf_counter(), time.process_time()

    def progress(outcome: Any, result: MatchResult) -> None:
        stats = result.statistics
        print(f"  game {outcome.number}/{planned.games}: {outcome.record.result} "
              f"(+{stats.wins} ={stats.draws} -{stats.losses}) {outcome.seconds:.0f} s", file=sys.stderr, flush=True)

    try:
        result = run_match(game, (players[0], players[1]), planned.games, limits_of(game, planned),
                           built_in(game, planned.seed), planned.seed, on_game=progress)
    finally:
        for player in players:
            player.close()
    GAMES_DIR.mkdir(parents=True, exist_ok=True)
    name = f"{game}-{planned.a}-{planned.b}-{planned.seed}".replace(":", "")
    (GAMES_DIR / name).write_text(write_games([o.record for o in result.outcomes], game), encoding="utf-8")
    stats = result.statistics
    return {
        "game": game, "a": planned.a, "b": planned.b, "games": stats.games, "seed": planned.seed,
        "wins": stats.wins, "draws": stats.draws, "losses": stats.losses,
        "points": [o.a_points for o in result.outcomes] if get_game(game).UTILITY_KIND == "equity" else None,
        "forfeits": [o.failure for o in result.outcomes if o.failure],
        "recipe_a": recipe(game, planned.a), "recipe_b": recipe(game, planned.b),
        "revision": revision(), "wall_seconds": round(time.perf_counter() - started, 1),
        "cpu_seconds": round(time.process_time() - cpu, 1),
        "slowest_move": [round(p.slowest, 2) for p in players], "over_cap": [p.over_cap for p in players],
        "moves": [p.moves for p in players], "command": command(planned),
    }


# ------------------------------------------------------------ the results file
def load_results() -> list[dict[str, Any]]:
    if not RESULTS.exists():
        return []
    data = json.loads(RESULTS.read_text(encoding="utf-8"))
    return list(data["matches"])


def save_results(records: Sequence[dict[str, Any]]) -> None:
    text = json.dumps({"format": 1, "matches": list(records)}, indent=1, ensure_ascii=False)
    RESULTS.write_text(text + "\n", encoding="utf-8")


def is_current(record: dict[str, Any]) -> bool:
    """Whether the levels in ``record`` are still played as they were then: every field of
    the recipe as played equals today's, and a field added to ``LevelPlay`` since holds its
    default (the level plays as before)."""
    game = record["game"]
    if record.get("superseded"):
        return False
    return all(_same_recipe(record[f"recipe_{side}"], recipe(game, record[side])) for side in ("a", "b"))


def supersede(records: list[dict[str, Any]], game: str, levels: Sequence[int], reason: str) -> int:
    """Mark the matches of ``levels`` in ``game`` as no longer what the levels play, for
    ``reason`` (a change of the engine under an unchanged recipe); they stay in the file,
    out of the ratings. Returns how many were marked."""
    keys = {level_key(n) for n in levels}
    marked = 0
    for record in records:
        if record["game"] == game and keys & {record.get("a"), record.get("b")} and not record.get("superseded"):
            record["superseded"] = reason
            marked += 1
    return marked


def _same_recipe(played: dict[str, Any] | None, now: dict[str, Any] | None) -> bool:
    if played is None or now is None:
        return played is None and now is None
    defaults = {f.name: f.default for f in fields(LevelPlay)}
    for key in played.keys() | now.keys():
        if key not in played:
            if key not in defaults or now[key] != defaults[key]:
                return False
        elif key not in now or played[key] != now[key]:
            return False
    return True


def played(records: Sequence[dict[str, Any]], planned: Planned) -> bool:
    """Whether ``planned`` was played as the levels play now, or superseded (kept as it was
    played: a new plan entry with another seed measures the levels again)."""
    return any(r["game"] == planned.game and r["a"] == planned.a and r["b"] == planned.b and r["seed"] == planned.seed
               and (is_current(r) or r.get("superseded")) for r in records)


# ------------------------------------------------------------ ratings
@dataclass(frozen=True)
class Estimate:
    value: float
    low: float
    high: float
    games: int
    bound: RatingBound | None = None
    """Set when every game was won / lost: ``value`` (= ``low`` = ``high``) is a bound."""


def _pair_stats(records: Sequence[dict[str, Any]]) -> dict[tuple[str, str], MatchStatistics]:
    """W/D/L of each ordered pair, summed over their matches."""
    pairs: dict[tuple[str, str], list[int]] = {}
    for record in records:
        total = pairs.setdefault((record["a"], record["b"]), [0, 0, 0])
        total[0] += record["wins"]
        total[1] += record["draws"]
        total[2] += record["losses"]
    return {pair: MatchStatistics(*counts) for pair, counts in pairs.items()}


def elo_ratings(records: Sequence[dict[str, Any]], fixed: dict[str, float]) -> dict[str, Estimate]:
    """The maximum-likelihood Elo of every player in ``records`` (``fixed`` ones given),
    with the sandwich 95% interval; players that won or lost every game get a bound."""
    import numpy as np

    pairs = _pair_stats(records)
    players = sorted({p for pair in pairs for p in pair})
    games = {p: sum(s.games for (a, b), s in pairs.items() if p in (a, b)) for p in players}
    estimates: dict[str, Estimate] = {}
    # A player that scored all or nothing: a bound from its matches against rated players.
    extreme: dict[str, RatingBound] = {}
    for p in players:
        if p in fixed:
            continue
        scored = sum(s.points if a == p else s.games - s.points for (a, b), s in pairs.items() if p in (a, b))
        if scored == games[p]:
            extreme[p] = RatingBound.AT_LEAST
        elif scored == 0:
            extreme[p] = RatingBound.AT_MOST
    usable = {pair: s for pair, s in pairs.items() if not (set(pair) & set(extreme))}
    finite = _finite(usable, set(fixed))
    free = [p for p in players if p not in fixed and p not in extreme and p in finite]
    index = {p: i for i, p in enumerate(free)}
    ratings = {p: fixed.get(p, float(np.mean(list(fixed.values())) if fixed else 0.0)) for p in players}
    c = math.log(10) / 400
    for _ in range(100):
        if not free:
            break
        gradient = np.zeros(len(free))
        hessian = np.zeros((len(free), len(free)))
        for (a, b), s in usable.items():
            p = 1 / (1 + 10 ** (-(ratings[a] - ratings[b]) / 400))
            residual = s.points - s.games * p
            slope = s.games * c * p * (1 - p)
            for x, sign in ((a, 1), (b, -1)):
                if x in index:
                    gradient[index[x]] += sign * residual
                    for y, other in ((a, 1), (b, -1)):
                        if y in index:
                            hessian[index[x], index[y]] -= sign * other * slope
        step = np.linalg.lstsq(hessian, -gradient, rcond=None)[0]  # a player that won all its games against the rated ones has no finite optimum
        step = np.clip(step, -400, 400)
        for p, i in index.items():
            ratings[p] += step[i]
        if np.max(np.abs(step)) < 1e-6:
            break
    if free:
        bread = np.zeros((len(free), len(free)))
        meat = np.zeros((len(free), len(free)))
        for (a, b), s in usable.items():
            p = 1 / (1 + 10 ** (-(ratings[a] - ratings[b]) / 400))
            variance = (s.score_standard_error ** 2) * s.games if s.games > 1 else p * (1 - p)
            variance = variance if variance > 0 else p * (1 - p)
            d = np.zeros(len(free))
            if a in index:
                d[index[a]] = 1
            if b in index:
                d[index[b]] = -1
            bread += s.games * c * p * (1 - p) * np.outer(d, d)
            meat += s.games * variance * np.outer(d, d)
        inverse = np.linalg.pinv(bread)
        covariance = inverse @ meat @ inverse
        for p, i in index.items():
            if not covariance[i, i] > 0:
                continue
            half = Z_95 * math.sqrt(covariance[i, i])
            estimates[p] = Estimate(ratings[p], ratings[p] - half, ratings[p] + half, games[p])
            single = [(pair, s) for pair, s in usable.items() if p in pair]
            if p in estimates and len(single) == 1 and (set(single[0][0]) - {p}) <= set(fixed):
                (a, b), s = single[0]  # one match against a fixed rating: ai.match.stats's interval
                low, high = s.elo_interval
                if math.isfinite(low) and math.isfinite(high):  # else (s +- 1.96 SE past 0 or 1) the sandwich's
                    sign, anchor = (1, fixed[b]) if a == p else (-1, fixed[a])
                    low, high = sorted((anchor + sign * low, anchor + sign * high))
                    estimates[p] = Estimate(ratings[p], low, high, games[p])
    for p, side in extreme.items():
        known = {**fixed, **{q: e.value for q, e in estimates.items()}}
        bounds = []
        for (a, b), s in pairs.items():
            if p in (a, b) and (other := b if a == p else a) in known:
                share = 1 - LOS_FLOOR / s.games if side is RatingBound.AT_LEAST else LOS_FLOOR / s.games
                if 0 < share < 1:
                    bounds.append(known[other] + elo_from_score(share))
        if bounds:
            bound = max(bounds) if side is RatingBound.AT_LEAST else min(bounds)
            estimates[p] = Estimate(bound, bound, bound, games[p], side)
    return estimates


ANCHORS = "anchors"
"""``_finite``'s one node for every fixed rating."""


def _finite(pairs: dict[tuple[str, str], MatchStatistics], fixed: set[str]) -> set[str]:
    """The players whose maximum-likelihood Elo is finite (Zermelo 1929; Ford 1957).

    Draw an arrow from x to y when x scored (a win or a draw) against y, all anchors one
    node. A group the anchors cannot reach by arrows won every game it played against
    everyone else: raising the whole group always raises the likelihood, so its Elo has no
    finite estimate; a group that reaches no anchor lost every such game. A player's Elo is
    finite when it reaches the anchors and they reach it."""
    scored: dict[str, set[str]] = {}
    node = lambda player: ANCHORS if player in fixed else player  # noqa: E731
    for (a, b), s in pairs.items():
        if s.wins + s.draws:
            scored.setdefault(node(a), set()).add(node(b))
        if s.losses + s.draws:
            scored.setdefault(node(b), set()).add(node(a))
    conceded: dict[str, set[str]] = {}
    for x, ys in scored.items():
        for y in ys:
            conceded.setdefault(y, set()).add(x)

    def reach(edges: dict[str, set[str]]) -> set[str]:
        seen, todo = {ANCHORS}, [ANCHORS]
        while todo:
            for y in edges.get(todo.pop(), ()):
                if y not in seen:
                    seen.add(y)
                    todo.append(y)
        return seen

    return (reach(scored) & reach(conceded)) - {ANCHORS}


@dataclass(frozen=True)
class LevelRow:
    """One level's line of the table."""

    number: int
    matches: list[dict[str, Any]]
    estimate: Estimate | None
    note: str = ""


def level_rows(game: str, records: Sequence[dict[str, Any]]) -> list[LevelRow]:
    current = [r for r in records if r["game"] == game and is_current(r)]
    stale = [r for r in records if r["game"] == game and not is_current(r)]
    if game == "backgammon":
        estimates = _backgammon_estimates(current)
    elif game == "tictactoe":
        estimates = {f"level:{r['level']}": Estimate(r["rate"], r["low"], r["high"], r["positions"])
                     for r in current if r.get("kind") == "perfect"}
    else:
        fixed = {key: o.rating for key, o in OPPONENTS[game].items() if o.rating is not None}
        estimates = elo_ratings([r for r in current if r.get("kind", "match") == "match"], fixed)
    rows = []
    for level in LEVELS:
        key = level_key(level.number)
        mine = [r for r in current if key in (r.get("a"), r.get("b")) or r.get("level") == level.number]
        note = ""
        old = [r for r in stale if key in (r.get("a"), r.get("b")) or r.get("level") == level.number]
        if not mine and old:
            reason = next((r["superseded"] for r in old if r.get("superseded")), "")
            note = f"({reason})" if reason else "(the level's recipe changed since its matches)"
        rows.append(LevelRow(level.number, mine, estimates.get(key), note))
    return rows


def _backgammon_estimates(records: Sequence[dict[str, Any]]) -> dict[str, Estimate]:
    estimates = {}
    for level in LEVELS:
        key = level_key(level.number)
        points = [p for r in records if r["a"] == key and r["b"] == "gnubg0" for p in (r["points"] or [])]
        if points:
            stats = PointStatistics.of(points)
            estimates[key] = Estimate(stats.mean, stats.mean - stats.half_width, stats.mean + stats.half_width, len(points))
    return estimates


def opponent_rating_text(game: str, records: Sequence[dict[str, Any]]) -> list[str]:
    """The anchors' ladder: each outside rung's rating (fixed or fitted)."""
    if game not in ("othello", "checkers"):
        return []
    fixed = {key: o.rating for key, o in OPPONENTS[game].items() if o.rating is not None}
    current = [r for r in records if r["game"] == game and is_current(r)]
    estimates = elo_ratings(current, fixed)
    lines = []
    for key, opponent in OPPONENTS[game].items():
        if key in fixed:
            lines.append(f"| {opponent.label} | {fixed[key]:.0f} (the anchor) |")
        elif key in estimates:
            e = estimates[key]
            lines.append(f"| {opponent.label} | {_rating_text(game, e)} |")
    return lines


def _rating_text(game: str, e: Estimate) -> str:
    if game == "tictactoe":
        return f"{100 * e.value:.1f}% ({100 * e.low:.1f}–{100 * e.high:.1f}%)"
    if game == "backgammon":
        return f"{e.value:+.2f} ({e.low:+.2f} .. {e.high:+.2f})"
    if e.bound is RatingBound.AT_LEAST:
        return f"≥ {e.value:.0f} (every game won)"
    if e.bound is RatingBound.AT_MOST:
        return f"≤ {e.value:.0f} (every game lost)"
    return f"{e.value:.0f} ({e.low:.0f} .. {e.high:.0f})"


def _label(game: str, key: str) -> str:
    if key.startswith("level:"):
        return f"level {key.split(':')[1]}"
    return OPPONENTS[game][key].label


def match_line(record: dict[str, Any]) -> str:
    game = record["game"]
    stats = MatchStatistics(record["wins"], record["draws"], record["losses"])
    line = (f"{_label(game, record['a'])} vs {_label(game, record['b'])}: {stats.games} games "
            f"+{stats.wins} ={stats.draws} -{stats.losses} {100 * stats.score_fraction:.1f}%  {format_elo_line(stats)}")
    if record.get("points"):
        points = PointStatistics.of(record["points"])
        line += f"  points/game {points.mean:+.3f} ± {points.half_width:.3f}"
    return line


# ------------------------------------------------------------ output
def print_table(game: str, records: Sequence[dict[str, Any]]) -> None:
    print(f"{game}: {SCALE_TEXT[game]}")
    for row in level_rows(game, records):
        rating = _rating_text(game, row.estimate) if row.estimate else "not measured"
        print(f"  level {row.number:2}  {rating}  {row.note}")
        for record in row.matches:
            if record.get("kind", "match") == "match":
                print(f"      {match_line(record)}")


def ratings(records: Sequence[dict[str, Any]]) -> list[LevelRating]:
    """The ratings file's entries: every measured level of every game."""
    out = []
    for game in GAME_LEVELS:
        for row in level_rows(game, records):
            e = row.estimate
            if e is None:
                continue
            scale = {"tictactoe": RatingScale.PERFECT_SHARE, "backgammon": RatingScale.POINTS}.get(game, RatingScale.ELO)
            value, low, high = (100 * e.value, 100 * e.low, 100 * e.high) if game == "tictactoe" else (e.value, e.low, e.high)
            digits = 1 if game == "tictactoe" else 2 if game == "backgammon" else 0  # as LEVELS.md shows them
            out.append(LevelRating(
                game, row.number, round(value, digits), round(low, digits), round(high, digits), scale,
                OPPONENT_NAME[game], e.games, SCALE_TEXT[game],
                f"python -m bench.levels --game {game} --levels {row.number} --run",
                e.bound,
            ))
    return out


def markdown_table(game: str, records: Sequence[dict[str, Any]]) -> str:
    """The per-level table of bench/LEVELS.md for ``game``."""
    if game == "tictactoe":
        lines = ["| level | recipe | perfect moves in the critical positions | share (95%) |",
                 "|---|---|---|---|"]
        for row in level_rows(game, records):
            perfect = [r for r in row.matches if r.get("kind") == "perfect"]
            if not perfect or row.estimate is None:
                lines.append(f"| {row.number} | {recipe_text(game, row.number)} | — | not measured {row.note} |")
                continue
            r = perfect[-1]
            lines.append(f"| {row.number} | {recipe_text(game, row.number)} | {r['optimal']}/{r['positions']} | "
                         f"**{_rating_text(game, row.estimate)}** |")
        return "\n".join(lines)
    head = "points a game (95%)" if game == "backgammon" else "Elo (95%)"
    lines = [f"| level | recipe | opponent | games | +/=/− | score | {head} | rating (95%) |",
             "|---|---|---|---|---|---|---|---|"]
    for row in level_rows(game, records):
        rating = f"**{_rating_text(game, row.estimate)}**" if row.estimate else f"not measured {row.note}".strip()
        matches = [r for r in row.matches if r.get("kind", "match") == "match"]
        if not matches:
            lines.append(f"| {row.number} | {recipe_text(game, row.number)} | — | — | — | — | — | {rating} |")
        for i, r in enumerate(matches):
            key = level_key(row.number)
            flip = r["b"] == key
            wins, losses = (r["losses"], r["wins"]) if flip else (r["wins"], r["losses"])
            stats = MatchStatistics(wins, r["draws"], losses)
            other = r["a"] if flip else r["b"]
            if game == "backgammon":
                points = PointStatistics.of([-p if flip else p for p in r["points"] or []])
                middle = f"{points.mean:+.2f} ± {points.half_width:.2f}"
            else:
                low, high = stats.elo_interval
                middle = format_elo_line(stats).removeprefix("Elo ")
            lines.append(
                f"| {row.number if i == 0 else ''} | {recipe_text(game, row.number) if i == 0 else ''} | "
                f"{_label(game, other)} | {stats.games} | +{stats.wins} ={stats.draws} −{stats.losses} | "
                f"{100 * stats.score_fraction:.1f}% | {middle} | {rating if i == 0 else ''} |"
            )
    return "\n".join(lines)


def recipe_text(game: str, number: int) -> str:
    play: LevelPlay = level_play(game, number)
    parts = [play.engine_name, f"{play.nodes:,} nodes"]
    if play.depth is not None:
        parts.append(f"depth {play.depth}")
    if play.lines > 1:
        parts.append(f"{play.lines} lines")
    if play.temperature > 0:
        parts.append(f"T {play.temperature:g}")
    notice = getattr(play, "notice", 1.0)
    if notice < 1.0:
        parts.append(f"sees {notice:.0%} of quiet moves")
    return ", ".join(parts)


def commands_block(game: str, records: Sequence[dict[str, Any]]) -> str:
    seen = []
    for r in records:
        if r["game"] == game and is_current(r) and r.get("command") and r["command"] not in seen:
            seen.append(r["command"])
    return "```sh\n" + "\n".join(seen) + "\n```" if seen else ""


def summary_table(records: Sequence[dict[str, Any]]) -> str:
    """Every level of every game in one table: its rating (95% interval), or why none."""
    games = list(GAME_LEVELS)
    rows = {game: level_rows(game, records) for game in games}
    lines = ["| level | " + " | ".join(games) + " |", "|---" * (len(games) + 1) + "|"]
    for level in LEVELS:
        cells = []
        for game in games:
            row = rows[game][level.number - 1]
            cells.append(_rating_text(game, row.estimate) if row.estimate else "not measured")
        lines.append(f"| {level.number} {level.name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def caps_table(records: Sequence[dict[str, Any]]) -> str:
    """Per match of a level: its moves, the slowest (wall clock, on a loaded machine) and how
    many ran past the level's time cap."""
    lines = ["| game | level | opponent | moves | slowest move | cap | past the cap |", "|---|---|---|---|---|---|---|"]
    for record in records:
        if record.get("kind", "match") != "match" or not is_current(record):
            continue
        for seat, side in enumerate(("a", "b")):
            key = record[side]
            if not key.startswith("level:"):
                continue
            game = record["game"]
            other = record["b" if side == "a" else "a"]
            cap = level_play(game, int(key.split(":")[1])).seconds
            lines.append(f"| {game} | {key.split(':')[1]} | {_label(game, other)} | {record['moves'][seat]} | "
                         f"{record['slowest_move'][seat]:.2f} s | {cap:g} s | {record['over_cap'][seat]} |")
    return "\n".join(lines)


def write_markdown(records: Sequence[dict[str, Any]]) -> None:
    """Fill the generated blocks of bench/LEVELS.md (``<!-- levels:NAME -->`` ...
    ``<!-- /levels:NAME -->``); the prose around them is written by hand."""
    text = LEVELS_MD.read_text(encoding="utf-8")
    bodies = {}
    for game in GAME_LEVELS:
        body = markdown_table(game, records)
        ladder = opponent_rating_text(game, records)
        if ladder:
            body += "\n\nThe outside rungs on this scale:\n\n| rung | rating (95%) |\n|---|---|\n" + "\n".join(ladder)
        block = commands_block(game, records)
        if block:
            body += "\n\n" + block
        bodies[game] = body
    bodies["summary"] = summary_table(records)
    bodies["caps"] = caps_table(records)
    if LOSSES.exists():
        bodies["losses"] = LOSSES.read_text(encoding="utf-8").strip()
    for name, body in bodies.items():
        start, end = f"<!-- levels:{name} -->", f"<!-- /levels:{name} -->"
        if start not in text or end not in text:
            continue
        before, _, rest = text.partition(start)
        _, _, after = rest.partition(end)
        text = f"{before}{start}\n{body}\n{end}{after}"
    LEVELS_MD.write_text(text, encoding="utf-8")


# ------------------------------------------------------------ how the weak levels err
LOSS_BANDS = ((0.0, 0.3), (0.3, 1.0), (1.0, 3.0), (3.0, math.inf))
"""Chess move losses in pawns: a slip, an inaccuracy or a mistake, a lost piece's worth or
more (3 pawns: a minor piece hung)."""
LOSS_JUDGE_DEPTH = 8
"""Stockfish at full strength, this depth, judges each move (the same on any machine)."""
MATE_PAWNS = 10.0


def chess_move_losses(level: int, records_seen: Sequence[dict[str, Any]]) -> list[float]:
    """The pawns each move of ``level`` lost in its recorded chess games, judged by Stockfish
    (full strength, ``LOSS_JUDGE_DEPTH``): the best move's score minus the played move's."""
    import io

    import chess
    import chess.engine
    import chess.pgn

    from ai.match.uci import find_program

    key = level_key(level)
    losses: list[float] = []
    engine = chess.engine.SimpleEngine.popen_uci(find_program("stockfish", "stockfish"))
    try:
        engine.configure({"Threads": 1, "Hash": 16})
        limit = chess.engine.Limit(depth=LOSS_JUDGE_DEPTH)

        def pawns(info: Any, viewer: chess.Color) -> float:
            score = info["score"].pov(viewer)
            return max(-MATE_PAWNS, min(MATE_PAWNS, score.score(mate_score=100_000) / 100))

        for record in records_seen:
            if record["game"] != "chess" or key not in (record["a"], record["b"]) or not is_current(record):
                continue
            path = GAMES_DIR / f"chess-{record['a']}-{record['b']}-{record['seed']}".replace(":", "")
            if not path.exists():
                continue
            stream = io.StringIO(path.read_text(encoding="utf-8"))
            while (game := chess.pgn.read_game(stream)) is not None:
                name = spec_of("chess", key)
                ours = chess.WHITE if game.headers.get("White") == name else chess.BLACK if game.headers.get("Black") == name else None
                if ours is None:
                    continue
                board = game.board()
                opening = _opening_plies(game)
                for ply, move in enumerate(game.mainline_moves()):
                    if board.turn == ours and ply >= opening:
                        best = pawns(engine.analyse(board, limit), ours)
                        board.push(move)
                        after = pawns(engine.analyse(board, limit), ours) if not board.is_game_over() else (
                            MATE_PAWNS if board.is_checkmate() else 0.0)
                        losses.append(max(0.0, best - after))
                    else:
                        board.push(move)
    finally:
        engine.quit()
    return losses


def _opening_plies(game: Any) -> int:
    """The plies of the match's opening line (played for both sides, not by the level)."""
    from ai.match.openings import CHESS_OPENINGS

    board = game.board()
    played = []
    for move in game.mainline_moves():
        played.append(board.san(move))
        board.push(move)
    best = 0
    for _, line in CHESS_OPENINGS:
        words = line.split()
        if played[: len(words)] == words:
            best = max(best, len(words))
    return best


def losses_table(records_seen: Sequence[dict[str, Any]], levels: Sequence[int]) -> str:
    lines = ["| level | moves judged | < 0.3 pawn | 0.3-1 | 1-3 | ≥ 3 (a piece) | mean loss |",
             "|---|---|---|---|---|---|---|"]
    for level in levels:
        losses = chess_move_losses(level, records_seen)
        if not losses:
            lines.append(f"| {level} | 0 | — | — | — | — | — |")
            continue
        shares = [sum(low <= x < high for x in losses) / len(losses) for low, high in LOSS_BANDS]
        lines.append(f"| {level} | {len(losses)} | " + " | ".join(f"{100 * share:.1f}%" for share in shares)
                     + f" | {sum(losses) / len(losses):.2f} |")
    return "\n".join(lines)


# ------------------------------------------------------------ command line
def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="all", choices=[*GAME_LEVELS, "all"])
    parser.add_argument("--levels", default=None, help="comma-separated level numbers (default: all)")
    parser.add_argument("--only", default=None, help="A,B: only the planned match of these two players")
    parser.add_argument("--seed", type=int, default=None, help="only the planned matches of this seed")
    parser.add_argument("--run", action="store_true", help="play the planned matches not yet played")
    parser.add_argument("--dry-run", action="store_true", help="list the planned matches and their commands")
    parser.add_argument("--write", action="store_true", help="write resources/levels.json and LEVELS.md's tables")
    parser.add_argument("--losses", default=None, metavar="LEVELS",
                        help="chess: the move-loss table of these levels' recorded games (Stockfish judges)")
    args = parser.parse_args(argv)
    games = list(GAME_LEVELS) if args.game == "all" else [args.game]
    wanted: set[int] | None = None
    if args.levels:
        try:
            wanted = {int(text) for text in args.levels.split(",")}
        except ValueError:
            parser.error(f"--levels: level numbers separated by commas, not {args.levels!r}")
    records = load_results()
    for game in games:
        for planned in PLAN.get(game, []):
            keys = {planned.a, planned.b}
            if wanted is not None and not keys & {level_key(n) for n in wanted}:
                continue
            if args.only and set(args.only.split(",")) != keys:
                continue
            if args.seed is not None and planned.seed != args.seed:
                continue
            if args.dry_run:
                print(("played  " if played(records, planned) else "planned ") + command(planned))
                continue
            if args.run and not played(records, planned):
                print(f"{game}: {_label(game, planned.a)} vs {_label(game, planned.b)}, {planned.games} games, "
                      f"seed {planned.seed}", flush=True)
                record = play(planned)
                records = [r for r in load_results()
                           if not (r["game"] == game and r["a"] == planned.a and r["b"] == planned.b and r["seed"] == planned.seed)]
                records.append(record)
                save_results(records)
                print("  " + match_line(record) + f"  [{record['wall_seconds']:.0f} s wall, "
                      f"slowest move {record['slowest_move']}, over the cap {record['over_cap']}]", flush=True)
        if not args.dry_run:
            print_table(game, records)
    if args.losses:
        table = losses_table(records, [int(text) for text in args.losses.split(",")])
        print(table)
        LOSSES.write_text(table + "\n", encoding="utf-8")
    if args.write:
        RATINGS.write_text(ratings_json(ratings(records)), encoding="utf-8")
        write_markdown(records)
        print(f"wrote {RATINGS.relative_to(ROOT)} and {LEVELS_MD.relative_to(ROOT)}")
    return 0


def record_perfect(results: Sequence[Any], sample: int, seed: int) -> None:
    """Store tic-tac-toe's perfect-play results (``bench.tictactoe_perfect``) as records."""
    records = [r for r in load_results() if not (r["game"] == "tictactoe" and r.get("kind") == "perfect"
                                                 and r["level"] in {x.level for x in results})]
    for x in results:
        low, high = x.interval
        records.append({
            "game": "tictactoe", "kind": "perfect", "level": x.level, "optimal": x.critical_optimal,
            "positions": x.critical, "rate": x.rate, "low": low, "high": high, "recipe_a": recipe("tictactoe", level_key(x.level)), "a": level_key(x.level),
            "recipe_b": None, "b": "solve", "revision": revision(), "cpu_seconds": round(x.seconds, 1),
            "command": f"python -m bench.tictactoe_perfect --levels {x.level} --sample {sample} --seed {seed}",
        })
    save_results(records)



if __name__ == "__main__":
    sys.exit(main())
