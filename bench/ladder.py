"""Elo ladder: Plyground against real opponents, one short match per rung, per game.

Run: ``.venv/bin/python -m bench.ladder --game chess [--games 10] [--time 0.2] [--rungs sunfish,sf1350]``
(``--game all`` for every game). Each rung is a ``plyground match`` (``ai.match``): paired
openings, colours alternating, backgammon dice paired; the line printed per rung is the
score, the Elo difference with its 95% interval and the likelihood of superiority (and
points a game for backgammon). Small samples give wide intervals: 10 games pin an Elo
difference to about +-200, 100 games to about +-70.

Rungs (peers, none written here):
* chess: Sunfish (``sunfish-uci`` in its own venv, ``bench/peers.py``), Stockfish 15 with
  ``UCI_LimitStrength`` at ``UCI_Elo`` 1350 (its minimum), 1800, 2200, 2500 (Debian ``stockfish``);
* Othello: GRhino ``gtp-rhino -l 1..5`` (Debian ``grhino``);
* backgammon: Tesauro's pubeval (SPEC ``pubeval``, ``ai.match.pubeval``) and GNU Backgammon 0-ply
  (Debian ``gnubg``); cubeless, points a game;
* checkers: no peer is packaged; the app's own MCTS at 10 times the time.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from typing import Any


from ai.cli.match import UNTIMED_TIMEOUT
from ai.match.cores import CoreReservation
from ai.match.openings import built_in
from ai.match.players import Player, make_player
from ai.match.runner import MatchResult, run_match
from ai.match.stats import format_elo_line
from ai.settings import Limits
from games import get_game

PLYGROUND = "default"
"""Our side: the strong default configuration at the ladder's time a move."""


def sunfish_spec() -> str:
    from bench.peers import sunfish_command

    return "uci:" + " ".join(sunfish_command())


def stockfish(elo: int) -> Callable[[], str]:
    return lambda: f"uci:stockfish?UCI_LimitStrength=true&UCI_Elo={elo}&Threads=1&Hash=16"


RUNGS: dict[str, dict[str, Callable[[], Any]]] = {
    "chess": {
        "sunfish": sunfish_spec,
        "sf1350": stockfish(1350),
        "sf1800": stockfish(1800),
        "sf2200": stockfish(2200),
        "sf2500": stockfish(2500),
    },
    "othello": {f"rhino{level}": (lambda level=level: f"gtp:gtp-rhino -l {level}") for level in range(1, 6)},
    "backgammon": {"pubeval": lambda: "pubeval", "gnubg0": lambda: "gnubg:0"},
    "checkers": {"mcts10x": lambda: "mcts10x"},
}
DEFAULT_RUNGS = {"chess": "sunfish,sf1350,sf1800", "othello": "rhino1,rhino3,rhino5", "backgammon": "pubeval,gnubg0", "checkers": "mcts10x"}


def opponent(game: str, rung: str, seconds: float) -> Player:
    made = RUNGS[game][rung]()
    if isinstance(made, str):
        if made == "mcts10x":
            return make_player(f"algorithm=mcts,time={10 * seconds:g}", game)
        return make_player(made, game)
    return made  # type: ignore[no-any-return]


def run_rung(game: str, rung: str, games: int, seconds: float, seed: int) -> MatchResult:
    ours = make_player(PLYGROUND, game)
    theirs = opponent(game, rung, seconds)
    if hasattr(theirs, "move_timeout"):  # GTP and gnubg play at their own level, whatever the time
        timed = getattr(theirs, "FOLLOWS_TIME_LIMIT", False)
        theirs.move_timeout = 3 * seconds + 10 if timed else UNTIMED_TIMEOUT  # type: ignore[attr-defined]
    try:
        with CoreReservation(1, on_wait=lambda text: print(text, file=sys.stderr, flush=True)):
            return run_match(game, (ours, theirs), games, Limits(time=seconds), built_in(game, seed), seed)
    finally:
        ours.close()
        theirs.close()


def report(game: str, rung: str, result: MatchResult, seconds: float, wall: float) -> str:
    stats = result.statistics
    line = (
        f"{game:10} plyground {seconds:g}s vs {rung:8} {stats.games:3} games  "
        f"+{stats.wins} ={stats.draws} -{stats.losses}  {100 * stats.score_fraction:5.1f}%  "
        f"{format_elo_line(stats)}  LOS {100 * stats.los:.0f}%"
    )
    if get_game(game).UTILITY_KIND == "equity":
        points = result.points
        line += f"  points/game {points.mean:+.2f} ± {points.half_width:.2f}"
    failures = sum(bool(outcome.failure) for outcome in result.outcomes)
    if failures:
        line += f"  ({failures} forfeits)"
    return line + f"  [{wall:.0f} s, load {os.getloadavg()[0]:.1f}]"  # the load says how fair the clock was


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="all", choices=[*RUNGS, "all"])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--time", type=float, default=0.2, help="seconds a move, both sides")
    parser.add_argument("--rungs", default=None, help="comma-separated rung names (default: a cheap subset)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for game in RUNGS if args.game == "all" else [args.game]:
        rungs = (args.rungs or DEFAULT_RUNGS[game]).split(",")
        for rung in rungs:
            if rung not in RUNGS[game]:
                parser.error(f"unknown rung {rung!r} for {game}; choose from {', '.join(RUNGS[game])}")
            started = time.perf_counter()
            result = run_rung(game, rung, args.games, args.time, args.seed)
            print(report(game, rung, result, args.time, time.perf_counter() - started), flush=True)


if __name__ == "__main__":
    main()
