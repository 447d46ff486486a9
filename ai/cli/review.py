"""``plyground review FILE``: a game file reviewed move by move, as the app's review does.

Every decision of the game (PGN, PDN or Plyground JSON) is searched in this process at the
chosen strength (``ai.review``); each move is printed with its mark, what it lost and the
better move's line, then each side's figures (Lichess's accuracy in chess, GNU Backgammon's
error rate and rating in backgammon, the average loss elsewhere). ``--output`` writes the
game again with its review (NAGs and comments in PGN/PDN, a ``review`` field in JSON).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from typing import Any

from games import get_game
from games.annotations import GameReview, MoveReview
from games.records import RecordError, default_extension, read_game, write_game

from ai.cli.arguments import EXIT_OK, UsageError, input_file, setting
from ai.review import ReviewDepth, ReviewStrength, review_game
from ai.settings import Limits

DEPTH_WORDS = tuple(depth.value for depth in ReviewDepth)


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
        help="nodes per position instead of the strength's budget",
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
    strength = ReviewStrength.for_game(record.game, ReviewDepth(args.strength))
    if args.nodes is not None:
        strength = dataclasses.replace(strength, limits=dataclasses.replace(strength.limits, nodes=args.nodes))
    review = review_game(record, strength)
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


def move_line(review: GameReview, move: MoveReview) -> str:
    """``  6  Qh4 ??  blunder, lost 0.899 win chance; Nf6 was best: Nf6 d3 Bc5``."""
    scale = review.scale
    text = f"{move.ply + 1:4}  {move.move:<12} {move.mark.symbol:<2}  {scale.word(move.mark).lower()}"
    if move.mark.is_judged and move.loss > 0:
        text += f", lost {move.loss:.{scale.decimals + 1}f} {scale.unit}"
    if move.mark.is_judged and move.best_move != move.move:
        text += f"; {move.best_move} was best: {' '.join(move.best_line)}"
    return text
