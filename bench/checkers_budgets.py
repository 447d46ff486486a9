"""Replay a checkers game and search each of one side's positions with two node budgets.

Run: ``.venv/bin/python -m bench.checkers_budgets GAMES.pdn --game 1 --side black
[--first 10 --last 90] [--small 20000 --large 400000]``.

What it is for: a match loss (``plyground match --out GAMES.pdn``) is a depth question when a
larger budget refuses the moves the game's small searches played. Each position of ``--side``
between plies ``--first`` and ``--last`` (0-based, with more than one legal move) is searched
from an empty table, history included (repetitions count), with ``--small`` and ``--large``
nodes; the line shows the move played, each budget's move, score (the side to move's, in
hundredths of a man) and depth, and marks the positions where the budgets disagree.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path


from ai.engine import search
from ai.settings import Limits, SearchSettings
from games.checkers import BLACK, WHITE, CheckersState

RESULTS = ("2-0", "0-2", "1-1", "*")


def game_moves(pdn: str, number: int) -> list[str]:
    """The move texts of game ``number`` (1-based) of a PDN file written by ``plyground match``."""
    games = pdn.split("[Event")[1:]
    if not 1 <= number <= len(games):
        raise SystemExit(f"the file has {len(games)} games, not a game {number}")
    body = games[number - 1].split("\n\n", 1)[1]
    return [token for token in body.split() if not re.fullmatch(r"\d+\.", token) and token not in RESULTS]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pdn", type=Path)
    parser.add_argument("--game", type=int, default=1)
    parser.add_argument("--side", choices=("black", "white"), required=True)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--last", type=int, default=200)
    parser.add_argument("--small", type=int, default=20_000)
    parser.add_argument("--large", type=int, default=400_000)
    args = parser.parse_args()
    side = BLACK if args.side == "black" else WHITE
    state = CheckersState.initial()
    for ply, text in enumerate(game_moves(args.pdn.read_text(), args.game)):
        move = state.parse_move(text)
        if state.to_move() == side and args.first <= ply <= args.last and len(state.legal_moves()) > 1:
            small = search(state, SearchSettings(), Limits(nodes=args.small))
            large = search(state, SearchSettings(), Limits(nodes=args.large))
            mark = "" if small.best_move == large.best_move else "  <-- differs"
            print(f"ply {ply:3} played {text:8} {args.small:>7,}: {state.move_name(small.best_move):8} "
                  f"{small.score.value:+6.0f} d{small.depth:<3} {args.large:>7,}: {state.move_name(large.best_move):8} "
                  f"{large.score.value:+6.0f} d{large.depth}{mark}", flush=True)
        state.play(move)


if __name__ == "__main__":
    main()
