"""``plyground review FILE``: a game file reviewed move by move, as the app's review does.

Every decision of the game (PGN, PDN or Plyground JSON) is searched in this process at the
chosen strength (``ai.review``); each move is printed with its mark, what it lost and the
better move's line, then each side's figures (Lichess's accuracy in chess, GNU Backgammon's
error rate and rating in backgammon, the average loss elsewhere). ``--output`` writes the
game again with its review (NAGs and comments in PGN/PDN, a ``review`` field in JSON).

A review takes a while (every position searched, some twice more), so on a terminal stderr
counts the moves reviewed as they are done, on one line rewritten in place, as ``match``'s
progress bar does; stdout holds only the review. Every position's search is bounded: by the
strength's node budget, by ``--nodes`` (at most ``MAX_NODE_FACTOR`` times Deep's budget,
so a typo of three zeros is refused rather than searched for hours), or by ``--seconds``.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from typing import Any, TextIO

from games import get_game
from games.annotations import GameReview, MoveReview
from games.records import RecordError, default_extension, read_game, write_game

from ai.cli.arguments import EXIT_OK, PROGRAM, UsageError, input_file, positive_number, setting
from ai.display import value_text
from ai.review import ReviewDepth, ReviewStrength, first_players_score, review_game

DEPTH_WORDS = tuple(depth.value for depth in ReviewDepth)
MAX_NODE_FACTOR = 25
"""``--nodes`` is at most this many times the Deep review's budget of the game (chess: 25 x
4,000,000 = 100,000,000 nodes, one to two minutes a position for the compiled search at
0.6-1.6M nodes a second): deeper than any review needs, and still an end in sight."""
MAX_SECONDS = 3600.0
"""``--seconds`` is at most an hour a position."""


def add_parser(commands: Any) -> None:
    review = commands.add_parser(
        "review",
        help="review a game file: every move marked best / inaccuracy / mistake / blunder",
        description="Search every position of a game file (PGN, PDN or Plyground JSON) and mark "
        "each move by what it lost, in the game's unit (chess: Lichess's winning chances; Othello: "
        "discs; checkers: men; backgammon: equity, GNU Backgammon's thresholds), with the better "
        "move's line and each side's accuracy or error rate.",
    )
    review.add_argument("file", type=input_file("FILE", "game file"), help="the game file")
    review.add_argument(
        "--strength", choices=DEPTH_WORDS, default=ReviewDepth.STANDARD.value,
        help="how hard each position is searched (default: standard)",
    )
    review.add_argument(
        "--nodes", type=setting("nodes", "--nodes"), metavar="N",
        help=f"nodes per position instead of the strength's budget (at most {MAX_NODE_FACTOR} times deep's: "
        "chess 100,000,000)",
    )
    review.add_argument(
        "--seconds", type=positive_number("--seconds", highest=MAX_SECONDS), metavar="S",
        help="stop each position's search after S seconds, instead of the strength's node budget (with --nodes: "
        "whichever comes first); the move played, when not the best, is then searched to the depth reached, so a "
        "move takes about S to 3 S. A review at a node budget says the same on a busy machine; one by time does not",
    )
    review.add_argument("--output", metavar="FILE", help="write the game with its review to FILE (.pgn, .pdn or .json)")
    review.set_defaults(handler=command_review)


def command_review(args: argparse.Namespace) -> int:
    with open(args.file, encoding="utf-8", errors="replace") as handle:
        text = handle.read()
    record = read_game(text, os.path.splitext(args.file)[1])
    for part in record.left_out:  # annotations that could not be read; the game is whole
        print(f"plyground: left out of {args.file}: {part}", file=sys.stderr)
    output_format = None
    if args.output is not None:
        if os.path.isdir(args.output):  # said before the search, not after minutes of it
            raise UsageError(f"--output: {args.output!r} is a folder: name the file to write")
        output_format = os.path.splitext(args.output)[1].lstrip(".").lower() or default_extension(record.game)
        if output_format not in ("pgn", "pdn", "json") or (output_format != "json" and output_format != default_extension(record.game)):
            raise UsageError(f"--output: a {record.game} game is written as .{default_extension(record.game)} or .json, not {args.output!r}")
        folder = os.path.dirname(os.path.abspath(args.output))
        if not os.path.isdir(folder):
            raise UsageError(f"--output: the folder {folder!r} does not exist")
    strength = review_strength(record.game, ReviewDepth(args.strength), args.nodes, args.seconds)
    progress = ReviewProgress(sys.stderr)
    try:
        review = review_game(record, strength, on_progress=progress.update)
    finally:
        progress.finish()
    print(f"Review ({record.game}): {review.settings.describe()}")
    for move in review.moves:
        print(move_line(review, move))
    names = get_game(record.game).PLAYER_NAMES
    for summary in review.summaries():
        counts = f"{summary.inaccuracies} inaccuracies, {summary.mistakes} mistakes, {summary.blunders} blunders"
        if summary.centipawn_loss is not None:
            counts += f", average centipawn loss {summary.centipawn_loss:.0f}"
        print(f"{names[summary.player]}: {summary.headline or 'nothing judged'}; {counts}")
    if args.output is not None:
        try:
            written = write_game(dataclasses.replace(record, review=review), output_format)
        except RecordError as error:
            raise UsageError(f"--output: {error}") from None
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write(written)
    return EXIT_OK


def review_strength(game: str, depth: ReviewDepth, nodes: int | None, seconds: float | None) -> ReviewStrength:
    """The strength of ``depth`` with ``--nodes`` and ``--seconds`` applied (``UsageError``
    for more nodes than ``MAX_NODE_FACTOR`` times Deep's budget)."""
    strength = ReviewStrength.for_game(game, depth)
    limits = strength.limits
    if nodes is not None:
        deep = ReviewStrength.for_game(game, ReviewDepth.DEEP).limits.nodes
        if deep is not None and nodes > MAX_NODE_FACTOR * deep:
            raise UsageError(
                f"--nodes: at most {MAX_NODE_FACTOR * deep:,} for {game} ({MAX_NODE_FACTOR} times deep's {deep:,}), "
                f"not {nodes:,}; --seconds bounds each position by time"
            )
        limits = dataclasses.replace(limits, nodes=nodes)
    if seconds is not None:
        limits = dataclasses.replace(limits, time=seconds, nodes=nodes)
    return dataclasses.replace(strength, limits=limits)


class ReviewProgress:
    """``plyground review: 12 of 33 moves reviewed`` on one line of a terminal, rewritten as
    each move is done and cleared at the end; silent when the stream is not a terminal (a log
    file, a pipe), as ``match``'s progress bar is."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.active = bool(getattr(stream, "isatty", lambda: False)())
        self.shown: tuple[int, int] | None = None

    def update(self, done: int, total: int) -> None:
        if not self.active or self.shown == (done, total):
            return
        self.shown = (done, total)
        self.stream.write(f"\r{PROGRAM} review: {done} of {total} moves reviewed\x1b[K")
        self.stream.flush()

    def finish(self) -> None:
        if self.active and self.shown is not None:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def move_line(review: GameReview, move: MoveReview) -> str:
    """``  6  Qh4 ??  blunder (-0.25 → +8.99); Nf6 was best: Nf6 d3 Bc5``: the values before
    and after the move as Lichess writes them (the mover's best, then what was played, seen by
    the first player), and elsewhere also the loss in the game's unit (``4.0 discs lost``)."""
    scale = review.scale
    text = f"{move.ply + 1:4}  {move.move:<12} {move.mark.symbol:<2}  {scale.word(move.mark).lower()}"
    if move.mark.is_judged and move.loss > 0:
        game = get_game(review.game)
        before, after = (value_text(first_players_score(game, value, move.mover), game) for value in (move.best, move.played))
        lost = scale.loss_words(move.loss)
        text += f" ({before} → {after}{', ' + lost if lost else ''})"
    if move.mark.is_judged and move.best_move != move.move:
        text += f"; {move.best_move} was best: {' '.join(move.best_line)}"
    return text
