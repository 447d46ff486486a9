"""Texel tuning of the chess EVAL: training games, quiet positions, features, fit.

Two steps, each a subcommand (numpy is needed for ``fit``: a dev-only extra, never a
runtime dependency):

``games``
    Fast Stockfish self-play (``/usr/games/stockfish``, a few thousand nodes a move) from
    varied openings: each game starts with a short prefix of one of the match runner's
    built-in opening lines, then a few plies where Stockfish's move is drawn at random among
    its MultiPV moves within ``--spread`` centipawns of the best, then plain play. Games are
    adjudicated when Stockfish's own score stays decisive or dead level for a while. One
    line a game: ``<White's score 1|0.5|0> <UCI moves>``.

    Stockfish only *plays* these games: the training labels are the game **results**, and
    nothing else of Stockfish (no evaluation, no weights) reaches the fitted weights. It is
    a sparring partner, as in ``plyground match``; the weights are fitted by our own code
    to our own evaluation's features.

``fit``
    Positions from those games (skipping the first plies, positions in check and the last
    plies of the game), each replaced by the leaf of a small quiescence search with our
    own EVAL (so the position has no winning capture left: the EVAL, which knows nothing of
    threats, is fitted only where it is meant to be right), turned into the linear feature
    vector of ``games.chess_game.evaluation.feature_vector`` (the EVAL is exactly that
    vector times the weight vector: a middlegame and an endgame column per weight, scaled
    by the game phase), and fitted with ``ai.tuning.texel.fit`` (logistic loss on the
    results, L2 pull towards the current weights). Writes a weights JSON file.

Compare the new weights with the shipped ones before shipping them::

    plyground match --game chess --a weights=NEW.json --b default --games 100 --depth 4

The commands that made the shipped file are in ``resources/weights/README.md``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import chess
import chess.engine

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai.match.openings import CHESS_OPENINGS  # noqa: E402
from bench.peers import stockfish_command  # noqa: E402

DECISIVE_CP = 800
"""Stockfish's score (side to move's view) beyond which a game is adjudicated as won..."""
DECISIVE_PLIES = 6
"""...when it stays beyond it for this many plies in a row."""
DEAD_DRAW_CP = 8
DEAD_DRAW_PLIES = 20
DEAD_DRAW_FROM_PLY = 100
"""A game still level within DEAD_DRAW_CP for DEAD_DRAW_PLIES plies after this ply is a draw."""
MAX_PLIES = 300


# ------------------------------------------------------------------ games
def _opening_prefix(rng: random.Random) -> list[chess.Move]:
    """A random prefix (2 plies or more) of one of the built-in opening lines."""
    _name, line = rng.choice(CHESS_OPENINGS)
    sans = line.split()
    board = chess.Board()
    moves = []
    for san in sans[: rng.randint(2, len(sans))]:
        move = board.parse_san(san)
        moves.append(move)
        board.push(move)
    return moves


def play_game(
    engine: chess.engine.SimpleEngine,
    rng: random.Random,
    nodes: int,
    random_plies: int,
    spread: int,
) -> tuple[str, list[chess.Move]]:
    """One self-play game: (White's result "1" / "0.5" / "0", the moves)."""
    board = chess.Board()
    for move in _opening_prefix(rng):
        board.push(move)
    engine.configure({"Clear Hash": None})
    varied = rng.randint(0, random_plies)
    decisive_run = level_run = 0
    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            return {True: "1", False: "0", None: "0.5"}[outcome.winner], board.move_stack
        if board.ply() >= MAX_PLIES:
            return "0.5", board.move_stack
        limit = chess.engine.Limit(nodes=rng.randint(nodes // 2, nodes * 3 // 2))
        if varied > 0:
            varied -= 1
            infos = engine.analyse(board, limit, multipv=4)
            best = infos[0]["score"].relative.score(mate_score=100_000)
            choices = [
                info["pv"][0]
                for info in infos
                if "pv" in info and best - info["score"].relative.score(mate_score=100_000) <= spread
            ]
            move, score = rng.choice(choices), best
        else:
            info = engine.analyse(board, limit)
            move, score = info["pv"][0], info["score"].relative.score(mate_score=100_000)
        decisive_run = decisive_run + 1 if abs(score) >= DECISIVE_CP else 0
        if decisive_run >= DECISIVE_PLIES:  # the side to move is winning (or losing) for good
            winner = board.turn if score > 0 else not board.turn
            return ("1" if winner == chess.WHITE else "0"), board.move_stack
        level_run = level_run + 1 if abs(score) <= DEAD_DRAW_CP and board.ply() >= DEAD_DRAW_FROM_PLY else 0
        if level_run >= DEAD_DRAW_PLIES:
            return "0.5", board.move_stack
        board.push(move)


def command_games(arguments: argparse.Namespace) -> None:
    command = stockfish_command()
    if command is None:
        raise SystemExit("tune_chess games: Stockfish is not installed (apt-get install stockfish)")
    rng = random.Random(arguments.seed)
    started = time.perf_counter()
    scores = {"1": 0, "0.5": 0, "0": 0}
    with chess.engine.SimpleEngine.popen_uci(command) as engine, open(arguments.out, "a", encoding="ascii") as out:
        engine.configure({"Threads": 1, "Hash": 16})
        for number in range(1, arguments.games + 1):
            result, moves = play_game(engine, rng, arguments.nodes, arguments.random_plies, arguments.spread)
            out.write(result + " " + " ".join(move.uci() for move in moves) + "\n")
            out.flush()
            scores[result] += 1
            if number % 50 == 0 or number == arguments.games:
                elapsed = time.perf_counter() - started
                print(
                    f"{number} games in {elapsed:.0f} s (White +{scores['1']} ={scores['0.5']} -{scores['0']})",
                    file=sys.stderr,
                )


# ------------------------------------------------------------------ weights files
def format_weights(document: dict[str, Any]) -> str:
    """A weights document as JSON a person can read: one line per weight, and the square
    tables one board rank a line (rank 8 first, as the tables are printed)."""
    lines = ["{"]
    for key in ("game", "format", "description", "training"):
        if key in document:
            lines.append(f"  {json.dumps(key)}: {json.dumps(document[key])},")
    lines.append('  "weights": {')
    items = list(document["weights"].items())
    for number, (name, value) in enumerate(items):
        comma = "," if number < len(items) - 1 else ""
        if name.endswith("_squares"):
            rows = ",\n".join("      " + json.dumps(row, separators=(",", ":")) for row in value)
            lines.append(f"    {json.dumps(name)}: [\n{rows}\n    ]{comma}")
        else:
            lines.append(f"    {json.dumps(name)}: {json.dumps(value, separators=(',', ':'))}{comma}")
    lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ main
def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    games = commands.add_parser("games", help="Stockfish self-play games (appended to --out)")
    games.add_argument("--games", type=int, default=1000)
    games.add_argument("--nodes", type=int, default=3000, help="Stockfish's nodes a move (varied +-50%%)")
    games.add_argument("--random-plies", type=int, default=8, help="at most this many varied plies")
    games.add_argument("--spread", type=int, default=40, help="centipawns from the best a varied move may lose")
    games.add_argument("--seed", type=int, default=1)
    games.add_argument("--out", required=True)
    games.set_defaults(run=command_games)
    arguments = parser.parse_args(argv)
    arguments.run(arguments)


if __name__ == "__main__":
    main()
