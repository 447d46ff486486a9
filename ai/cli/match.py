"""``plyground match``: engine against engine, with a running score and the Elo difference.

    plyground match --game G --a SPEC --b SPEC --games N [--time S | --depth D]
                    [--threads T] [--openings FILE] [--out FILE] [--seed K] [--move-timeout S]
                    [--start-timeout S] [--no-wait]

SPECs are described in ``ai.match.players``; openings in ``ai.match.openings``; the numbers
printed at the end in ``ai.match.stats``. A progress bar with the running score goes to
stderr when it is a terminal (nothing when it is not); the result goes to stdout.

Whatever can be wrong is said in one line before the first game (exit status 2): the
players' specs (the ranges of ``ai.options``), their programs' start, the openings file,
the ``--out`` file and the core-lock folder. Games that cannot be written later are said once;
the match goes on, sums up, and ends with status 1.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any, TextIO

from ai.cli.arguments import (
    EXIT_OK,
    EXIT_OUTPUT_FAILED,
    GAME_CHOICE,
    GAME_HELP,
    PROGRAM,
    ending_on_stop_signals,
    integer,
    positive_number,
    setting,
)
from ai.match import openings as opening_book
from ai.match.cores import CoreReservation
from ai.match.players import LevelPlayer, Player, SpecError, make_player
from ai.match.records import write_games
from ai.match.runner import DEFAULT_MAX_PLIES, GameOutcome, MatchResult, run_match
from ai.match.stats import format_elo, format_elo_line
from ai.settings import Limits
from games import get_game
from games.records import default_extension

DEFAULT_SECONDS = 1.0
"""Seconds a move when neither ``--time`` nor ``--depth`` is given."""
BAR_WIDTH = 24
UNTIMED_TIMEOUT = 120.0
"""Default seconds a move for programs that play at their own level (GTP, gnubg) whatever
``--time`` says, and for any program under ``--depth``."""


MAX_SECONDS = 7 * 24 * 3600.0
"""The longest time a move, move time-out or start time-out: a week. Longer is a mistake,
and a wait on a thread cannot be much longer (``threading.TIMEOUT_MAX``)."""
MAX_GAMES = 1_000_000
MAX_PLIES_LIMIT = 100_000


def add_parser(commands: Any) -> None:
    """Register ``match`` on the ``plyground`` command line (the option types are the CLI's
    own, so a bad value is refused in one line with its range)."""
    match = commands.add_parser("match", help="play engine against engine and report the Elo difference")
    match.add_argument("--game", required=True, type=GAME_CHOICE, help=GAME_HELP)
    match.add_argument("--a", required=True, metavar="SPEC", help="player A: algorithm=pvs,depth=4 / level=5 / default / uci:CMD / gtp:CMD / gnubg[:PLIES]")
    match.add_argument("--b", required=True, metavar="SPEC", help="player B (same forms)")
    match.add_argument("--games", required=True, type=integer("--games", 1, MAX_GAMES),
                       help="number of games (even: each opening with both colours)")
    limit = match.add_mutually_exclusive_group()
    limit.add_argument("--time", type=positive_number("--time", highest=MAX_SECONDS), metavar="SECONDS", help=f"seconds a move (default {DEFAULT_SECONDS:g})")
    limit.add_argument("--depth", type=setting("depth", "--depth"), help="search depth a move (UCI engines too)")
    match.add_argument("--threads", type=setting("threads", "--threads"), default=1, metavar="N",
                       help="worker processes for each built-in player (the engine pool)")
    match.add_argument("--openings", metavar="FILE", help="openings file (chess: EPD/FEN, PGN or a Polyglot book .bin; others: lines of moves or positions)")
    match.add_argument("--out", metavar="FILE", help="write the games here (PGN chess, PDN checkers, JSON lines otherwise)")
    match.add_argument("--seed", type=setting("seed", "--seed"), default=1, help="seed of the opening order and of the dice")
    match.add_argument("--move-timeout", type=positive_number("--move-timeout", highest=MAX_SECONDS), default=None, metavar="SECONDS",
                       help="an external engine that takes longer than this for a move loses the game "
                       "(default: UCI engines 3 x the time a move + 10 s; programs that play at their "
                       f"own level, GTP and gnubg, {UNTIMED_TIMEOUT:g} s)")
    match.add_argument("--start-timeout", type=positive_number("--start-timeout", highest=MAX_SECONDS), default=None, metavar="SECONDS",
                       help="an external program that is not ready within this is refused before the match "
                       "(default: UCI 20 s, GTP 10 s, gnubg 60 s)")
    match.add_argument("--cube", action="store_true",
                       help="backgammon: money games with the doubling cube (each side decides its own doubles and takes)")
    match.add_argument("--max-plies", type=integer("--max-plies", 1, MAX_PLIES_LIMIT), default=DEFAULT_MAX_PLIES,
                       help="adjudicate a draw after this many plies")
    match.add_argument("--no-wait", action="store_true",
                       help="stop at once when other matches hold every core (default: wait for a free one; "
                       "each match reserves a core per thread so that timings stay fair)")
    match.set_defaults(handler=command_match)


def command_match(args: argparse.Namespace) -> int:
    game = get_game(args.game)  # every number was range-checked by its option type
    limits = Limits(depth=args.depth) if args.depth is not None else Limits(time=args.time or DEFAULT_SECONDS)
    if args.cube and args.openings:
        raise SpecError("--cube and --openings: give one (an openings file sets its own cube)")
    if args.openings:
        openings = opening_book.load(args.openings, args.game)
    else:
        try:
            openings = opening_book.built_in(args.game, args.seed, args.cube)
        except ValueError as error:  # --cube for a game without a cube
            raise SpecError(str(error)) from None
    out = check_output(args.out) if args.out else None
    timed_timeout = 3 * limits.time + 10.0 if limits.time else UNTIMED_TIMEOUT
    write_failure: list[str] = []

    players: list[Player] = []
    # Everything that can be wrong is said before a game starts: the lock folder is checked
    # here, the players' specs (and their programs' start) next, and only then does the match
    # wait for its cores. SIGTERM and SIGHUP end the match through ``finally``: the engines
    # run in process groups of their own, which no signal to the match's group reaches.
    reservation = CoreReservation(args.threads, wait=not args.no_wait, on_wait=lambda text: print(text, file=sys.stderr, flush=True))
    reservation.check_folder()
    with ending_on_stop_signals():
        try:
            for spec in (args.a, args.b):  # a level's weakness draws from the match's seed
                player = make_player(spec, args.game, args.threads, args.start_timeout, seed=args.seed)
                players.append(player)
                if hasattr(player, "move_timeout"):
                    follows_time = getattr(player, "FOLLOWS_TIME_LIMIT", False)
                    player.move_timeout = args.move_timeout or (timed_timeout if follows_time else UNTIMED_TIMEOUT)  # type: ignore[attr-defined]
            names = (f"A: {players[0].name}", f"B: {players[1].name}")
            progress = ProgressBar(sys.stderr, args.games)
            limit_text = f"depth {limits.depth}" if limits.depth is not None else f"{limits.time:g} s a move"
            print(f"{game.NAME} match, {games_text(args.games)} at {limit_text}; {len(openings)} openings\n  {names[0]}\n  {names[1]}", flush=True)

            def on_game(outcome: GameOutcome, result: MatchResult) -> None:
                progress.update(result)
                if outcome.failure:
                    progress.message(f"game {outcome.number}: {outcome.failure}")
                if out is not None and not write_failure:
                    try:
                        out.write_text(write_games([o.record for o in result.outcomes], args.game), encoding="utf-8")
                    except OSError as error:  # the match goes on; the summary still comes
                        write_failure.append(f"cannot write the games to {str(out)!r}: {error.strerror or error}")
                        progress.message(f"{PROGRAM}: error: {write_failure[0]}")

            with reservation:
                result = run_match(args.game, (players[0], players[1]), args.games, limits, openings, args.seed, args.max_plies, on_game)
            progress.finish()
        finally:
            for player in players:
                player.close()
    print_summary(result, sys.stdout)
    for label, player in zip("AB", players):  # a level the machine's load cut short played weaker: say so
        if isinstance(player, LevelPlayer) and player.capped:
            print(f"{label}: the time cap ended {player.capped} of {player.searches} searches before the level's node "
                  "budget (a busy machine); level=N,cap=off plays the budget alone")
    if write_failure:
        print(f"{PROGRAM}: error: {write_failure[0]}", file=sys.stderr)
        return EXIT_OUTPUT_FAILED
    if out is not None:
        print(f"games written to {out} ({default_extension(args.game).upper()})")
    return EXIT_OK


def check_output(text: str) -> Path:
    """The ``--out`` file, checked before the first game: a writable file, or a new one in
    a folder that exists and may be written (``SpecError`` names the file and the problem)."""
    out = Path(text)
    shown = repr(text)
    if out.is_dir():
        raise SpecError(f"--out {shown}: is a folder; name a file to write the games to")
    if out.exists():
        if not out.is_file():
            raise SpecError(f"--out {shown}: not a regular file (a device or a pipe)")
        if not os.access(out, os.W_OK):
            raise SpecError(f"--out {shown}: the file cannot be written (permission denied)")
        return out
    folder = out.parent
    if not folder.is_dir():
        raise SpecError(f"--out {shown}: the folder {str(folder)!r} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise SpecError(f"--out {shown}: the folder {str(folder)!r} cannot be written (permission denied)")
    return out


def score_line(result: MatchResult) -> str:
    stats = result.statistics
    return (
        f"A {stats.points:g} - {stats.games - stats.points:g} B  "
        f"(+{stats.wins} ={stats.draws} -{stats.losses}, {100 * stats.score_fraction:.1f}%)"
    )


def print_summary(result: MatchResult, stream: TextIO) -> None:
    stats = result.statistics
    game = get_game(result.game)
    print(f"score: {score_line(result)} in {games_text(stats.games)}", file=stream)
    print(f"draws: {stats.draws}", file=stream)
    print(f"{format_elo_line(stats)} for A", file=stream)
    print(f"likelihood of superiority (A stronger): {100 * stats.los:.1f}%", file=stream)
    if game.UTILITY_KIND == "equity":
        points = result.points
        print(f"points a game for A: {points.mean:+.3f} ± {points.half_width:.3f} (95%)", file=stream)
    failures = [outcome for outcome in result.outcomes if outcome.failure]
    for outcome in failures:
        print(f"game {outcome.number}: {outcome.failure}", file=stream)


class ProgressBar:
    """``[########........] 12/40  A 7.5 - 4.5 B  Elo +88`` on one line of a terminal;
    silent when the stream is not a terminal (a log file, a pipe, the tests)."""

    def __init__(self, stream: TextIO, total: int) -> None:
        self.stream = stream
        self.total = total
        self.active = bool(getattr(stream, "isatty", lambda: False)())

    def update(self, result: MatchResult) -> None:
        if not self.active:
            return
        done = len(result.outcomes)
        filled = BAR_WIDTH * done // self.total
        stats = result.statistics
        text = f"\r[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {done}/{self.total}  {score_line(result)}  Elo {format_elo(stats.elo)}"
        self.stream.write(text + "\x1b[K")
        self.stream.flush()

    def message(self, text: str) -> None:
        if self.active:
            self.stream.write("\r\x1b[K" + text + "\n")
            self.stream.flush()

    def finish(self) -> None:
        if self.active:
            self.stream.write("\n")
            self.stream.flush()


def games_text(count: int) -> str:
    """``1 game``, ``20 games``."""
    return f"{count} game" if count == 1 else f"{count} games"
