"""Search speed: nodes per second per game on one core, and chess against Sunfish.

Run: ``.venv/bin/python bench/engine_speed.py [--seconds 2] [--positions 8]``.
Every game: the default algorithm searches a set of fixed positions (the start and
positions from seeded random playouts) for ``--seconds`` each, in this process; we print the
median nodes/s. Chess: the same positions are also searched by Sunfish, through UCI, in the
same run (Sunfish in its own venv: it pins an old python-chess), so the ratio is fair on
this shared machine. Plyground's chess goes through UCI too, to be measured like the peer.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

import chess
import chess.engine

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai.engine import run_search  # noqa: E402
from ai.settings import Limits, SearchRequest, SearchSettings  # noqa: E402
from bench.peers import PROJECT_ROOT, plyground_command, sunfish_command  # noqa: E402
from games import CHANCE, new_game  # noqa: E402

ALGORITHM = {"backgammon": "star2"}
PLAYOUT_PLIES = {"tictactoe": 2, "checkers": 12, "chess": 16, "othello": 20, "backgammon": 10}


def sample_positions(game: str, count: int, seed: int = 7) -> list[str]:
    """The start and ``count - 1`` positions reached by seeded random play."""
    rng = random.Random(seed)
    texts = [new_game(game).to_text()]
    while len(texts) < count:
        state = new_game(game)
        for _ in range(rng.randint(PLAYOUT_PLIES[game] // 2, PLAYOUT_PLIES[game])):
            if state.is_terminal():
                break
            if state.to_move() == CHANCE:
                outcomes = state.chance_outcomes()
                state.play(rng.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0])
            else:
                state.play(rng.choice(state.legal_moves()))
        while state.to_move() == CHANCE and not state.is_terminal():
            state.play(state.chance_outcomes()[0][0])
        if not state.is_terminal():
            texts.append(state.to_text())
    return texts


def in_process_nps(game: str, positions: list[str], seconds: float) -> list[float]:
    rates = []
    for text in positions:
        request = SearchRequest(
            game=game,
            position=text,
            settings=SearchSettings(algorithm=ALGORITHM.get(game, "pvs")),
            limits=Limits(time=seconds),
        )
        finished = run_search(request)
        rates.append(finished.nps)
    return rates


def uci_nps(command: list[str], fens: list[str], seconds: float) -> list[float]:
    """Median-ready nps of a UCI engine: the last ``nps`` it reported on each position."""
    rates = []
    with chess.engine.SimpleEngine.popen_uci(command, cwd=str(PROJECT_ROOT)) as engine:
        for fen in fens:
            nps = 0.0
            with engine.analysis(chess.Board(fen), chess.engine.Limit(time=seconds)) as analysis:
                for info in analysis:
                    if "nps" in info:
                        nps = float(info["nps"])
                    elif "nodes" in info and "time" in info and info["time"] > 0:
                        nps = info["nodes"] / info["time"]
            rates.append(nps)
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="search time per position")
    parser.add_argument("--positions", type=int, default=6, help="positions per game")
    parser.add_argument("--games", default="tictactoe,checkers,othello,backgammon,chess")
    args = parser.parse_args()
    print(f"{'game':<12}{'engine':<12}{'median nps':>12}{'min':>10}{'max':>10}")
    for game in args.games.split(","):
        positions = sample_positions(game, args.positions)
        if game == "chess":
            runs = {"plyground": uci_nps(plyground_command(), positions, args.seconds),
                    "sunfish": uci_nps(sunfish_command(), positions, args.seconds)}
        else:
            runs = {"plyground": in_process_nps(game, positions, args.seconds)}
        for engine, rates in runs.items():
            print(f"{game:<12}{engine:<12}{statistics.median(rates):>12,.0f}{min(rates):>10,.0f}{max(rates):>10,.0f}")
        if game == "chess":
            ratio = statistics.median(runs["plyground"]) / max(1.0, statistics.median(runs["sunfish"]))
            print(f"{'':<12}{'ratio':<12}{ratio:>12.2f}  (Plyground / Sunfish, same positions, same run)")


if __name__ == "__main__":
    main()
