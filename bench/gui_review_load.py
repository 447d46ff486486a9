"""What a game review running in the background costs the game being played.

The review runs on its own one-worker pool at niceness 19 (``gui.review.runner``); the game's
searches run on the app's bridge (niceness 10). This measures, on this machine:

* the computer's move search (the app's bridge, a fixed time, the compiled search of the top levels
  on every core) in nodes, alone and while a review runs: how much the review takes from it;
* the event loop's longest pause (a 10 ms timer) while a review runs alone;
* how long the review of a 40-ply chess game takes at each strength.

Run: ``QT_QPA_PLATFORM=offscreen python -m bench.gui_review_load [--rounds 5] [--seconds 1] [--levels quick standard]``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QEventLoop, QTimer
from PySide6.QtWidgets import QApplication

from ai.cores import available_cores
from ai.review import ReviewDepth
from ai.settings import Limits, SearchRequest, SearchSettings
from games import new_game
from games.records import GameRecord
from gui.engine_bridge import EngineBridge
from gui.review.runner import ReviewRunner, make_review_bridge

GAME = (
    "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7 "
    "c4 c6 cxb5 axb5 Nc3 Bb7 Bg5 b4 Nb1 h6 Bh4 c5 dxe5 Nxe4 Bxe7 Qxe7 exd6 Qf6 Nbd2 Nxd6"
).split()
"""Fischer-Spassky 1992, game 1, the first 40 plies: a real game to review."""


def wait_for(condition: Callable[[], bool], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 20)


def move_search_nodes(bridge: EngineBridge, seconds: float) -> int:
    """Nodes of one computer's move search of ``seconds`` on the app's bridge."""
    answers: list[int] = []
    bridge.search_finished.connect(lambda finished: answers.append(finished.nodes))
    request = SearchRequest(
        "chess", new_game("chess").to_text(), tuple(GAME[:20]),
        SearchSettings(algorithm="native", threads=available_cores(), book=False), Limits(time=seconds),
    )
    bridge.start_search(request)
    wait_for(lambda: bool(answers), seconds + 30)
    bridge.search_finished.disconnect()
    return answers[0]


def longest_pause(during: Callable[[], bool], tick_ms: int = 10) -> float:
    """The longest gap between two ticks of a ``tick_ms`` timer while ``during()``, in ms."""
    stamps: list[float] = []
    timer = QTimer()
    timer.setInterval(tick_ms)
    timer.timeout.connect(lambda: stamps.append(time.perf_counter()))
    timer.start()
    wait_for(lambda: not during(), 600)
    timer.stop()
    gaps = [(b - a) * 1000 for a, b in zip(stamps, stamps[1:])]
    return max(gaps, default=0.0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--levels", nargs="*", default=["quick"], choices=[level.value for level in ReviewDepth],
                        help="review strengths to time on the whole game (deep takes minutes)")
    arguments = parser.parse_args(argv)
    app = QApplication.instance() or QApplication([])
    record = GameRecord("chess", new_game("chess").to_text(), list(GAME))
    game_bridge = EngineBridge()
    review_bridge = make_review_bridge()
    runner = ReviewRunner(review_bridge)
    try:
        move_search_nodes(game_bridge, 0.2)  # the pool started and warmed up
        alone = [move_search_nodes(game_bridge, arguments.seconds) for _ in range(arguments.rounds)]
        beside = []
        for _ in range(arguments.rounds):
            runner.start(record, ReviewDepth.DEEP)  # long searches: the review's worker stays busy
            wait_for(lambda: review_bridge.pool is not None and review_bridge.is_searching, 60)
            time.sleep(0.2)  # the search under way in the worker
            beside.append(move_search_nodes(game_bridge, arguments.seconds))
            runner.cancel()
        print(f"cores: {available_cores()}; the computer's move search, {arguments.seconds:g} s, {arguments.rounds} rounds")
        print(f"  alone:          median {statistics.median(alone):>10,.0f} nodes  {alone}")
        print(f"  with a review:  median {statistics.median(beside):>10,.0f} nodes  {beside}")
        print(f"  kept: {statistics.median(beside) / statistics.median(alone):.0%} of its nodes", flush=True)
        for level in arguments.levels:
            started = time.perf_counter()
            runner.start(record, ReviewDepth(level))
            pause = longest_pause(lambda: runner.is_running)
            print(f"review of {len(GAME)} plies at {level}: {time.perf_counter() - started:.1f} s, "
                  f"longest event-loop pause {pause:.0f} ms", flush=True)
    finally:
        runner.shutdown()
        review_bridge.shutdown()
        game_bridge.shutdown()
    del app
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
