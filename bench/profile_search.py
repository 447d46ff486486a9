"""Where the time goes: a cProfile of a search for each game, top functions by own time.

Run: ``.venv/bin/python -m bench.profile_search [--seconds 10] [--games chess,othello]``.
Writes ``bench/profiles/<game>.txt`` (the top functions by own time, "tottime") and prints
the top lines. These files decide what to speed up next; regenerate them after a change.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
from pathlib import Path


from ai.engine import run_search
from ai.settings import Limits, SearchRequest
from bench.engine_speed import sample_positions, search_settings

PROFILE_DIR = Path(__file__).resolve().parent / "profiles"
TOP_FUNCTIONS = 25


def profile_game(game: str, seconds: float) -> str:
    position = sample_positions(game, 2)[1]
    request = SearchRequest(
        game=game,
        position=position,
        settings=search_settings(game),  # the books off: a profile of a search
        limits=Limits(time=seconds),
    )
    profiler = cProfile.Profile()
    finished = profiler.runcall(run_search, request)
    stream = io.StringIO()
    stream.write(
        f"# {game}: {request.settings.algorithm}, {seconds:g} s on {position}\n"
        f"# depth {finished.depth}, {finished.nodes} nodes, {finished.nps:,.0f} nps under cProfile\n"
    )
    pstats.Stats(profiler, stream=stream).sort_stats("tottime").print_stats(TOP_FUNCTIONS)
    return stream.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--games", default="tictactoe,checkers,othello,backgammon,chess")
    args = parser.parse_args()
    PROFILE_DIR.mkdir(exist_ok=True)
    for game in args.games.split(","):
        report = profile_game(game, args.seconds)
        (PROFILE_DIR / f"{game}.txt").write_text(report)
        print("\n".join(report.splitlines()[:TOP_FUNCTIONS // 2 + 12]))


if __name__ == "__main__":
    main()
