"""Search speed: nodes per second per game on one core, and chess against Sunfish.

Run: ``.venv/bin/python -m bench.engine_speed [--seconds 2] [--positions 6]``.
Every game: the default algorithm searches a set of fixed positions (the start and
positions from seeded random playouts, each one that needs a search: more than one legal
move and no answer known without searching) for ``--seconds`` each, in this process, with
the opening books off; we print the median nodes/s. Chess: the same positions are also
searched by Sunfish, through UCI, in the same run (Sunfish in its own venv: it pins an old
python-chess), so the ratio is fair on this shared machine. Plyground's chess goes through
UCI too, to be measured like the peer, twice: the Python PVS (the algorithms the app
teaches, ``setoption name Algorithm value pvs``) and the compiled search (``native``, the
UCI default). A search that visits no node is an error, never a row.
"""

from __future__ import annotations

import argparse
import random
import statistics

import chess
import chess.engine

from ai.engine import known_answer, run_search
from ai.settings import Limits, SearchRequest, SearchSettings
from bench.peers import PROJECT_ROOT, plyground_command, sunfish_command
from games import CHANCE, GameState, new_game

ALGORITHM = {"backgammon": "star2"}
PLAYOUT_PLIES = {"tictactoe": 2, "checkers": 12, "chess": 16, "othello": 20, "backgammon": 10}
CHESS_ALGORITHMS = ("pvs", "native")
"""Plyground's chess rows, each against Sunfish: the Python PVS and the compiled search."""
IN_PROCESS_ALGORITHMS = {"othello": ("pvs", "native")}
"""Games measured in this process with more than their default algorithm: Othello's Python
PVS and its compiled search (``bench.othello_native`` compares their time to a depth)."""


class NothingSearched(RuntimeError):
    """A benchmark search that visited no node (a book or forced answer): no speed to measure."""


def search_settings(game: str, algorithm: str | None = None) -> SearchSettings:
    """The settings a speed run searches with: ``algorithm`` (the game's by default), the books off."""
    return SearchSettings(algorithm=algorithm or ALGORITHM.get(game, "pvs"), book=False)


def needs_search(state: GameState, settings: SearchSettings) -> bool:
    """Whether ``state`` is a position a search runs on: not over, not a chance node, more
    than one legal move and no answer the game knows without searching."""
    if state.is_terminal() or state.to_move() == CHANCE:
        return False
    return len(state.legal_moves()) > 1 and known_answer(state, settings) is None


def sample_positions(game: str, count: int, seed: int = 7) -> list[str]:
    """The start (when it needs a search) and positions reached by seeded random play, ``count`` in all."""
    rng = random.Random(seed)
    settings = search_settings(game)
    start = new_game(game)
    texts = [start.to_text()] if needs_search(start, settings) else []
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
        if needs_search(state, settings):
            texts.append(state.to_text())
    return texts


def in_process_nps(game: str, positions: list[str], seconds: float, algorithm: str | None = None) -> list[float]:
    rates = []
    for text in positions:
        request = SearchRequest(game=game, position=text, settings=search_settings(game, algorithm), limits=Limits(time=seconds))
        finished = run_search(request)
        if finished.nodes == 0:
            raise NothingSearched(f"{game}: the search of {text} visited no node")
        rates.append(finished.nps)
    return rates


def uci_nps(command: list[str], fens: list[str], seconds: float, options: chess.engine.ConfigMapping | None = None) -> list[float]:
    """Median-ready nps of a UCI engine: the last ``nps`` it reported on each position."""
    rates = []
    with chess.engine.SimpleEngine.popen_uci(command, cwd=str(PROJECT_ROOT)) as engine:
        engine.configure(options or {})
        for fen in fens:
            nps = 0.0
            with engine.analysis(chess.Board(fen), chess.engine.Limit(time=seconds)) as analysis:
                for info in analysis:
                    if "nps" in info:
                        nps = float(info["nps"])
                    elif "nodes" in info and "time" in info and info["time"] > 0:
                        nps = info["nodes"] / info["time"]
            if nps == 0:
                raise NothingSearched(f"{' '.join(command)}: the search of {fen} reported no nodes")
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
            runs = {
                algorithm: uci_nps(plyground_command(), positions, args.seconds, {"Algorithm": algorithm, "OwnBook": False})
                for algorithm in CHESS_ALGORITHMS
            }
            runs["sunfish"] = uci_nps(sunfish_command(), positions, args.seconds)
        else:
            algorithms = IN_PROCESS_ALGORITHMS.get(game, (ALGORITHM.get(game, "pvs"),))
            runs = {algorithm: in_process_nps(game, positions, args.seconds, algorithm) for algorithm in algorithms}
        for engine, rates in runs.items():
            print(f"{game:<12}{engine:<12}{statistics.median(rates):>12,.0f}{min(rates):>10,.0f}{max(rates):>10,.0f}")
        if game == "chess":
            sunfish = max(1.0, statistics.median(runs["sunfish"]))
            for algorithm in CHESS_ALGORITHMS:
                ratio = statistics.median(runs[algorithm]) / sunfish
                print(f"{'':<12}{'ratio':<12}{ratio:>12.2f}  ({algorithm} / Sunfish, same positions, same run)")


if __name__ == "__main__":
    main()
