"""Build the Othello opening book (``games.othello.book``) from the engine's own searches.

Every position up to ``--plies`` plies from the start is expanded with all its moves (so any
opponent's reply is covered); positions are merged by symmetry. The positions ``--plies``
deep (the frontier) are searched by the engine (``ai.engine.run_search``, the default
algorithm and the shipped EVAL, opening book off) to ``--depth``; their values are backed up
by negamax through the tree, so every book position gets the value of each of its moves.
Frontier positions keep their searched best move with its value (one more ply of book).

    nice -n 10 .venv/bin/python -m tools.othello_book --plies 6 --depth 6 \\
        --out resources/books/othello_book.json
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path


from ai.engine import run_search
from ai.settings import Limits, SearchRequest, SearchSettings
from games.othello.bitboard import flips, legal_moves_mask
from games.othello.book import Key, canonical, key_text
from games.othello.state import PASS, OthelloState


def children(key: Key) -> list[tuple[int, Key, int]]:
    """(square in ``key``'s orientation, the child's canonical key, sign) per move; a forced
    pass is square ``PASS`` (the child has the same discs, the other side to move)."""
    own, opponent = key
    moves = legal_moves_mask(own, opponent)
    if not moves:
        if legal_moves_mask(opponent, own):
            return [(PASS, canonical(opponent, own)[0], -1)]
        return []
    result = []
    while moves:
        bit = moves & -moves
        moves ^= bit
        square = bit.bit_length() - 1
        flipped = flips(own, opponent, square)
        result.append((square, canonical(opponent ^ flipped, own | flipped | bit)[0], -1))
    return result


def position_text(key: Key) -> str:
    state = OthelloState(key[0], key[1])  # black to move: the side to move's discs as black
    return state.to_text()


def search(key: Key, depth: int, weights: str) -> tuple[int, int | None]:
    """(value for the side to move in hundredths of a disc, best square) by the engine."""
    request = SearchRequest(game="othello", position=position_text(key),
                            settings=SearchSettings(book=False, weights=weights),
                            limits=Limits(depth=depth))
    finished = run_search(request)
    if finished.error:
        raise SystemExit(f"search failed at {position_text(key)}: {finished.error}")
    value = finished.score.value if finished.score.view == 0 else -finished.score.value
    return round(value), finished.best_move


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--plies", type=int, default=6, help="expand every move this deep")
    parser.add_argument("--depth", type=int, default=6, help="search depth at the frontier")
    parser.add_argument("--weights", default="", help="EVAL weights file (default: shipped)")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    start = OthelloState()
    root = canonical(start.own, start.opponent)[0]
    levels: list[list[Key]] = [[root]]
    tree: dict[Key, list[tuple[int, Key, int]]] = {}
    for _ in range(args.plies):
        following: dict[Key, None] = {}
        for key in levels[-1]:
            if key in tree:
                continue
            tree[key] = children(key)
            for _, child, _ in tree[key]:
                if child not in tree:
                    following[child] = None
        levels.append(list(following))
    frontier = [key for key in levels[-1] if key not in tree]
    print(f"{len(tree)} interior positions, {len(frontier)} to search at depth {args.depth}", flush=True)
    began = time.monotonic()
    value: dict[Key, int] = {}
    best: dict[Key, int | None] = {}
    for number, key in enumerate(frontier, start=1):
        value[key], best[key] = search(key, args.depth, args.weights)
        if number % 50 == 0:
            print(f"{number}/{len(frontier)} searched, {time.monotonic() - began:.0f} s", flush=True)
    positions: dict[str, list[list[int]]] = {}
    for key in reversed([key for level in levels for key in level if key in tree]):
        if key in value:
            continue
        moves = [(square, -value[child]) for square, child, _ in tree[key] if child in value]
        if not moves or any(square == PASS for square, _ in moves):
            continue  # a pass this early never happens in the expansion; keep the format squares only
        value[key] = max(score for _, score in moves)
        positions[key_text(key)] = [[square, score] for square, score in moves]
    for key in frontier:
        if best[key] is not None and best[key] != PASS:
            positions[key_text(key)] = [[best[key], value[key]]]
    document = {
        "game": "othello",
        "format": 1,
        "description": "Othello opening book (games/othello/book.py): positions by canonical symmetric "
                       "image, each move's backed-up value for the side to move in 1/100 disc",
        "search": f"tools/othello_book.py --plies {args.plies} --depth {args.depth}; "
                  f"frontier searched by the default engine with the shipped EVAL",
        "positions": positions,
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(document, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {args.out}: {len(positions)} positions, {time.monotonic() - began:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
