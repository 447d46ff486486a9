"""Training data for a small chess network: our compiled search's self-play positions,
each labelled with the search's own score and the game's result.

``data``
    Self-play games of the compiled search (``native``, the shipped EVAL), as
    ``tools/tune_chess.py selfplay`` plays them: a random prefix of a built-in opening line,
    a few random plies, then about ``--nodes`` nodes a move (varied +-50%), adjudicated by
    ``tune_chess.play_out``. Every position where a move was searched becomes one line::

        <FEN>;<score, centipawns, side to move's view>;<best move, UCI>;<flags>;<White's result>

    ``flags`` is ``c`` when the side to move is in check, ``x`` when the best move captures
    or promotes (such positions are not quiet: the trainer skips them), ``-`` otherwise.
    No other program is involved: the labels are our own deeper search and our own results,
    the bootstrapping of Samuel's checkers player and of KnightCap's TD-Leaf.

The trainer (PyTorch, a dev-only tool in its own venv) is ``tools/chess_net_train.py``.

Run: ``.venv/bin/python -m tools.chess_net data --games N --seed S [--network FILE] --out FILE`` and
``.venv/bin/python -m tools.chess_net features FILE... --mirror --out FILE.npz`` (the commands that
made the shipped network: ``resources/weights/README.md``, "chess_net.json").
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import chess

from games.chess_game import ChessState
from tools.tune_chess import _opening_prefix, native_move, play_out

MATE_LABEL = 100_000.0
"""``native_move``'s score for a proven mate; such positions keep the label, clipped later."""


def play_labelled_game(
    searcher: object, rng: random.Random, nodes: int, random_plies: int
) -> tuple[str, list[tuple[str, float, str, str]]]:
    """One self-play game: (White's result, [(FEN, score, best move, flags) a searched ply])."""
    board = chess.Board()
    for move in _opening_prefix(rng):
        board.push(move)
    for _ in range(rng.randint(0, random_plies)):
        board.push(rng.choice(list(board.legal_moves)))
        if board.is_game_over():
            break
    searcher.clear()  # type: ignore[attr-defined]
    rows: list[tuple[str, float, str, str]] = []

    def choose(board: chess.Board) -> tuple[chess.Move, float]:
        move, score = native_move(searcher, ChessState(board.copy()), rng.randint(nodes // 2, nodes * 3 // 2))
        if board.is_check():
            flags = "c"
        elif board.is_capture(move) or move.promotion:
            flags = "x"
        else:
            flags = "-"
        rows.append((board.fen(), score, move.uci(), flags))
        return move, score

    result, _moves = play_out(board, choose)
    return result, rows


def command_data(arguments: argparse.Namespace) -> None:
    from games.chess_game import network

    network.select(arguments.network)  # the labels come from the search with this network
    searcher = ChessState.native_searcher(16)
    rng = random.Random(arguments.seed)
    started = time.perf_counter()
    positions = 0
    with open(arguments.out, "a", encoding="ascii") as out:
        for number in range(1, arguments.games + 1):
            result, rows = play_labelled_game(searcher, rng, arguments.nodes, arguments.random_plies)
            out.writelines(f"{fen};{score:.0f};{move};{flags};{result}\n" for fen, score, move, flags in rows)
            out.flush()
            positions += len(rows)
            if number % 100 == 0 or number == arguments.games:
                elapsed = time.perf_counter() - started
                print(f"{number} games, {positions} positions in {elapsed:.0f} s", file=sys.stderr)


PIECE_PLANES = {"P": 0, "N": 1, "B": 2, "R": 3, "Q": 4, "K": 5}
PAD = 768
"""The padding feature: an all-zero row of the network's first layer."""


def mirror_files(placement: str) -> str:
    """The board part of a FEN with a and h files swapped (the same chess when no side may
    castle: a training position for free)."""
    return "/".join(rank[::-1] for rank in placement.split("/"))


def fen_features(placement: str) -> tuple[list[int], list[int]]:
    """The active inputs of a position for each perspective (``games.chess_game.network``'s
    numbering): plane ``type + 6 * (piece is the perspective's enemy)`` times 64 plus the
    square, the square mirrored top to bottom for Black's perspective."""
    white: list[int] = []
    black: list[int] = []
    rank, file = 7, 0
    for char in placement:
        if char == "/":
            rank, file = rank - 1, 0
        elif char.isdigit():
            file += int(char)
        else:
            square = rank * 8 + file
            plane = PIECE_PLANES[char.upper()]
            own_white = char.isupper()
            white.append((plane + (0 if own_white else 6)) * 64 + square)
            black.append((plane + (6 if own_white else 0)) * 64 + (square ^ 56))
            file += 1
    return white, black


def command_features(arguments: argparse.Namespace) -> None:
    """Quiet labelled positions as arrays for the trainer (an ``.npz`` file, no pickle)."""
    import numpy as np

    from games.chess_game.native import native_evaluate

    rows_white, rows_black, sides, evals, scores, results = [], [], [], [], [], []
    for path in arguments.data:
        with open(path, encoding="ascii") as data:
            for line in data:
                fields = line.rstrip("\n").split(";")
                if len(fields) != 5 or fields[3] != "-":
                    continue  # in check, or the best move captures: not quiet
                fen, score_text, _move, _flags, result_text = fields
                score = float(score_text)
                if abs(score) >= arguments.max_score:
                    continue  # mates and won positions teach the net nothing about close ones
                placement, side, castling, *rest = fen.split(" ")
                variants = [(placement, fen)]
                if arguments.mirror and castling == "-":
                    mirrored = mirror_files(placement)
                    en_passant = rest[0] if rest[0] == "-" else "hgfedcba"["abcdefgh".index(rest[0][0])] + rest[0][1]
                    variants.append((mirrored, " ".join([mirrored, side, castling, en_passant, *rest[1:]])))
                for board_part, variant_fen in variants:
                    white, black = fen_features(board_part)
                    white_to_move = side == "w"
                    hce = round(native_evaluate(variant_fen))  # the search's EVAL: round half to even
                    result = float(result_text)
                    rows_white.append(white + [PAD] * (32 - len(white)))
                    rows_black.append(black + [PAD] * (32 - len(black)))
                    sides.append(white_to_move)
                    evals.append(hce if white_to_move else -hce)
                    scores.append(score)
                    results.append(result if white_to_move else 1.0 - result)
    np.savez_compressed(
        arguments.out,
        white=np.array(rows_white, dtype=np.int16),
        black=np.array(rows_black, dtype=np.int16),
        white_to_move=np.array(sides, dtype=np.bool_),
        hce=np.array(evals, dtype=np.int16),
        score=np.array(scores, dtype=np.int16),
        result=np.array(results, dtype=np.float32),
    )
    print(f"{len(sides)} quiet positions -> {arguments.out}", file=sys.stderr)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    data = commands.add_parser("data", help="labelled self-play positions (appended to --out)")
    data.add_argument("--games", type=int, default=1000)
    data.add_argument("--nodes", type=int, default=6000, help="nodes a move (varied +-50%%)")
    data.add_argument("--random-plies", type=int, default=6, help="at most this many random plies after the opening")
    data.add_argument("--seed", type=int, default=1)
    data.add_argument("--network", default="off", help="the network the labelling search adds to the EVAL (default off)")
    data.add_argument("--out", required=True)
    features = commands.add_parser("features", help="quiet positions as the trainer's arrays (.npz)")
    features.add_argument("data", nargs="+", help="files written by the data command")
    features.add_argument("--max-score", type=float, default=2000, help="skip positions scored beyond this")
    features.add_argument("--mirror", action="store_true", help="also each position without castling rights, files mirrored")
    features.add_argument("--out", required=True)
    arguments = parser.parse_args(argv)
    {"data": command_data, "features": command_features}[arguments.command](arguments)


if __name__ == "__main__":
    main()
