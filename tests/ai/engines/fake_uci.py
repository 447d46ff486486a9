"""A tiny UCI engine for the match tests: plays the first legal move (in UCI order).

Usage: ``fake_uci.py [MODE] [AFTER]`` (modes: ``fake_engine.py``; a move request is ``go``;
its illegal move goes through its own pieces). It offers one option, ``Style`` (a string).
"""

import sys

import chess
from fake_engine import QUIT, Script, serve


def main() -> None:
    script = Script(sys.argv)
    board = chess.Board()

    def uci(_: list[str]) -> None:
        print("id name FakeUCI")
        print("option name Style type string default plain")
        print("uciok", flush=True)

    def position(words: list[str]) -> None:
        nonlocal board
        if words[1] == "startpos":
            board = chess.Board()
            rest = words[2:]
        else:
            board = chess.Board(" ".join(words[2:8]))
            rest = words[8:]
        if rest and rest[0] == "moves":
            for move in rest[1:]:
                board.push_uci(move)

    def go(_: list[str]) -> None:
        how = script.next_answer()
        if how == "illegal":
            print("bestmove a1a8" if board.turn else "bestmove h8h1", flush=True)  # through own pieces
        elif how == "good":
            move = next(iter(board.legal_moves))
            print(f"info depth 1 score cp 0 pv {move.uci()}")
            print(f"bestmove {move.uci()}", flush=True)

    serve({
        "uci": uci,
        "isready": lambda _: print("readyok", flush=True),
        "position": position,
        "go": go,
        "quit": lambda _: QUIT,
    })


if __name__ == "__main__":
    main()
