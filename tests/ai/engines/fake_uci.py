"""A tiny UCI engine for the match tests: plays the first legal move (in UCI order).

Usage: ``fake_uci.py [MODE] [AFTER]``. ``MODE`` says how it misbehaves once it has answered
``AFTER`` (default 0) ``go`` commands: ``good`` never, ``crash`` exits, ``illegal`` answers an
illegal move, ``hang`` never answers. It offers one option, ``Style`` (a string).
"""

import sys

import chess


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "good"
    after = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    board = chess.Board()
    answered = 0
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command = words[0]
        if command == "uci":
            print("id name FakeUCI")
            print("option name Style type string default plain")
            print("uciok", flush=True)
        elif command == "isready":
            print("readyok", flush=True)
        elif command == "position":
            if words[1] == "startpos":
                board = chess.Board()
                rest = words[2:]
            else:
                board = chess.Board(" ".join(words[2:8]))
                rest = words[8:]
            if rest and rest[0] == "moves":
                for move in rest[1:]:
                    board.push_uci(move)
        elif command == "go":
            if answered >= after and mode == "crash":
                sys.exit(3)
            if answered >= after and mode == "hang":
                continue
            if answered >= after and mode == "illegal":
                print("bestmove a1a8" if board.turn else "bestmove h8h1", flush=True)  # through own pieces
            else:
                move = next(iter(board.legal_moves))
                print(f"info depth 1 score cp 0 pv {move.uci()}")
                print(f"bestmove {move.uci()}", flush=True)
            answered += 1
        elif command == "quit":
            return


if __name__ == "__main__":
    main()
