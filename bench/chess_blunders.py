"""Where our chess engine's lost games turned, judged by Stockfish at full strength.

For every game in the PGN files that the player named ``--player`` (a prefix of the White
or Black tag, as ``plyground match`` writes it) lost, Stockfish (no strength limit, one
thread) evaluates the position before and after each of our moves from ply 8 on, at a
fixed ``--depth``. The game "turned" at the first of our moves that took the score down by
``--drop`` centipawns or more from a position not already lost (above ``-150``). Each
turning move is then checked at ``--verify-depth`` (the best move's score against the
played move's, so a shallow misjudgement is not counted as a blunder), and searched again
by our engine from a fresh table at each of ``--times`` seconds, to tell a move that more
time would avoid from one the EVAL keeps choosing.

Prints one line per lost game, then a summary: in which phase the games turned, how many
turning moves the verification confirms, and how often our re-searches repeat them.

    .venv/bin/python -m bench.chess_blunders /tmp/sf72.pgn /tmp/sf73.pgn --depth 10 --times 0.2,1,4

A dev tool (Stockfish is a peer to measure against, never part of the app): needs
``/usr/games/stockfish`` (Debian ``stockfish``).
"""

from __future__ import annotations

import argparse
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import chess
import chess.engine
import chess.pgn


import games
from ai.engine import search
from ai.settings import Limits, SearchSettings

MATE_CP = 3000
"""A mate as a centipawn score: far beyond any drop threshold."""
LOST_ALREADY = -150
"""A position scored below this (for us) was lost before the move: no turning point."""


@dataclass(frozen=True)
class Turn:
    """The move that turned a lost game: where, and by how much at ``--depth``."""

    source: str
    round: str
    ply: int
    pieces: int
    fen: str
    san: str
    before: int
    after: int


def centipawns(engine: chess.engine.SimpleEngine, board: chess.Board, side: chess.Color, depth: int,
               root_moves: list[chess.Move] | None = None) -> int:
    """Stockfish's score of ``board`` for ``side`` (mates as +-MATE_CP)."""
    info = engine.analyse(board, chess.engine.Limit(depth=depth), root_moves=root_moves)
    return info["score"].pov(side).score(mate_score=MATE_CP)


def our_side(game: chess.pgn.Game, player: str) -> chess.Color | None:
    if game.headers.get("White", "").startswith(player):
        return chess.WHITE
    if game.headers.get("Black", "").startswith(player):
        return chess.BLACK
    return None


def lost(game: chess.pgn.Game, side: chess.Color) -> bool:
    return game.headers.get("Result") == ("0-1" if side == chess.WHITE else "1-0")


def turning_move(engine: chess.engine.SimpleEngine, game: chess.pgn.Game, side: chess.Color, source: str,
                 depth: int, drop: int) -> Turn | None:
    """The first of our moves that lost ``drop`` or more from a position not yet lost."""
    board = game.board()
    for move in game.mainline_moves():
        if board.turn == side and board.ply() >= 8:
            before = centipawns(engine, board, side, depth)
            after_board = board.copy()
            after_board.push(move)
            if after_board.is_checkmate():
                after = MATE_CP
            elif after_board.is_game_over():
                after = 0
            else:
                after = centipawns(engine, after_board, side, depth)
            if before > LOST_ALREADY and before - after >= drop:
                return Turn(source, game.headers.get("Round", "?"), board.ply(), len(board.piece_map()),
                            board.fen(), board.san(move), before, after)
        board.push(move)
    return None


def phase_of(turn: Turn) -> str:
    if turn.ply <= 24:
        return "opening (ply <= 24)"
    return "endgame (<= 12 pieces)" if turn.pieces <= 12 else "middlegame"


def our_move(fen: str, seconds: float) -> str:
    """Our compiled search's move at ``fen`` from a fresh table, in SAN."""
    finished = search(games.new_game("chess", fen), SearchSettings(algorithm="native", book=False),
                      Limits(time=seconds))
    board = chess.Board(fen)
    return board.san(chess.Move.from_uci(str(finished.best_move)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", nargs="+", type=Path, help="match games (plyground match --out)")
    parser.add_argument("--player", default="algorithm=native", help="our player's name prefix")
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    parser.add_argument("--depth", type=int, default=10, help="Stockfish depth for every move")
    parser.add_argument("--drop", type=int, default=120, help="centipawns lost by a turning move")
    parser.add_argument("--verify-depth", type=int, default=18, help="Stockfish depth that confirms it")
    parser.add_argument("--confirm", type=int, default=60, help="centipawns the confirmed move loses")
    parser.add_argument("--times", default="0.2,1", help="our re-search times, comma-separated seconds")
    args = parser.parse_args(argv)
    try:
        times = [float(text) for text in args.times.split(",") if text.strip()]
    except ValueError:
        parser.error(f"--times takes seconds separated by commas, not {args.times!r}")
    if not all(0 < seconds < 3600 for seconds in times):
        parser.error("each of --times must be above 0 and below 3600")
    engine = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    try:
        engine.configure({"Threads": 1, "Hash": 64})
        lost_games = 0
        turns: list[Turn] = []
        phases: Counter[str] = Counter()
        for path in args.pgn:
            with path.open(encoding="utf-8") as stream:
                while (game := chess.pgn.read_game(stream)) is not None:
                    side = our_side(game, args.player)
                    if side is None or not lost(game, side):
                        continue
                    lost_games += 1
                    turn = turning_move(engine, game, side, path.name, args.depth, args.drop)
                    phases[phase_of(turn) if turn else "no single move"] += 1
                    if turn:
                        turns.append(turn)
        confirmed = 0
        repeated = Counter[float]()
        print("game  ply  played  before after | verified: best (score) played (score) | ours " +
              " ".join(f"{seconds:g}s" for seconds in times))
        for turn in turns:
            board = chess.Board(turn.fen)
            best_info = engine.analyse(board, chess.engine.Limit(depth=args.verify_depth))
            best_san = board.san(best_info["pv"][0])
            best = best_info["score"].pov(board.turn).score(mate_score=MATE_CP)
            played = centipawns(engine, board, board.turn, args.verify_depth, [board.parse_san(turn.san)])
            is_blunder = best - played >= args.confirm
            confirmed += is_blunder
            ours = [our_move(turn.fen, seconds) for seconds in times]
            if is_blunder:
                for seconds, san in zip(times, ours, strict=True):
                    repeated[seconds] += san == turn.san
            print(f"{turn.source}:{turn.round} {turn.ply:3} {turn.san:7} {turn.before:5} {turn.after:5} | "
                  f"{best_san:7} {best:5} {turn.san:7} {played:5}{' *' if is_blunder else '  '} | "
                  f"{' '.join(f'{san:7}' for san in ours)} | {turn.fen}", flush=True)
    finally:
        engine.quit()
    print(f"\nlost games: {lost_games}; where they turned (Stockfish depth {args.depth}, a drop of {args.drop}+):")
    for phase, count in phases.most_common():
        print(f"  {phase}: {count}")
    print(f"turning moves confirmed at depth {args.verify_depth} (best - played >= {args.confirm}): "
          f"{confirmed} of {len(turns)}")
    for seconds in times:
        print(f"  of those, our fresh {seconds:g} s search plays the same move again: {repeated[seconds]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
