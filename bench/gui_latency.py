"""How free the GUI event loop stays while the engine thinks on every core.

    QT_QPA_PLATFORM=offscreen python -m bench.gui_latency [--seconds 8] [--game chess]
    QT_QPA_PLATFORM=offscreen python -m bench.gui_latency --tree [--tree-cap 100000]

A 10 ms ``QTimer`` ticks on the GUI thread while a search runs through the real
``EngineBridge`` and ``EnginePool`` (one worker per core) and the engine panel, eval bar and
eval graph update live. The gap between ticks is what a person feels: a gap of 10 ms is a
free loop, anything longer is time the loop was busy (or the process was not scheduled).
Prints the median, p99 and worst gap per search (goal: p99 < 20 ms, worst < 50 ms), how
many updates the panel received, and the GUI thread's own CPU time: when that is a few per
cent of a core, longer gaps are the process waiting for a CPU (load from other programs),
which the idle line (the same timer with no search) shows too. The opening books are off: a
book move answers the start position before the timer ticks once, with nothing to measure.

With ``--tree`` the search records its tree (``TreeOptions(cap=--tree-cap)``) and the tree
tab is open beside the engine panel: ``gui.panels.tree.TreePanel`` wired to the bridge as the
main window wires it, drawing the bridge's tree as it grows. The search runs until the tree
has ``--tree-cap`` nodes (at most ``--seconds``), and the line says how large it grew and
how long the tree's slots took per delivery.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtWidgets import QApplication, QHBoxLayout, QVBoxLayout, QWidget

from ai.settings import Limits, SearchSettings
from ai.tree.model import TreeOptions
from games import new_game
from gui.engine_bridge import EngineBridge, available_cores
from gui.panels.engine_panel import EnginePanel
from gui.panels.eval_bar import EvalBar
from gui.panels.eval_graph import EvalGraph
from gui.panels.tree.panel import TreePanel

TICK_MS = 10
GOAL_P99_MS = 20.0
GOAL_WORST_MS = 50.0


class NothingSearched(RuntimeError):
    """A measured search that visited no node (answered without searching): no gaps to time."""


def bench_settings(algorithm: str, threads: int) -> SearchSettings:
    """The settings of a measured search: the books off, so that the engine searches."""
    return SearchSettings(algorithm=algorithm, threads=threads, book=False)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


class Watched(QWidget):
    """The live widgets a person watches while the engine thinks; with ``tree`` the tree tab
    too, beside the engine panel, wired to the bridge as the main window wires it."""

    def __init__(self, bridge: EngineBridge, tree: bool = False) -> None:
        super().__init__()
        self.panel = EnginePanel()
        self.bar = EvalBar()
        self.graph = EvalGraph()
        self.panel.connect_bridge(bridge)
        self.updates = 0
        bridge.search_started.connect(lambda info: (self.bar.set_game(type(info.root)), self.graph.set_game(type(info.root))))
        bridge.iteration_received.connect(self._on_score)
        bridge.progress_received.connect(self._count)
        row = QHBoxLayout()
        row.addWidget(self.bar)
        row.addWidget(self.panel, 1)
        self.tree_panel: TreePanel | None = None
        if tree:
            self.tree_panel = TreePanel()
            bridge.search_started.connect(lambda info: self.tree_panel.start(info.root, type(info.root), info.settings))
            bridge.tree_started.connect(self.tree_panel.use_tree)
            bridge.tree_batch_received.connect(self.tree_panel.add_batch)
            bridge.tree_batch_received.connect(self._count)
            row.addWidget(self.tree_panel, 2)
        layout = QVBoxLayout(self)
        layout.addLayout(row, 1)
        layout.addWidget(self.graph)
        self.resize(1400 if tree else 720, 860 if tree else 640)

    def _count(self, _event: object) -> None:
        self.updates += 1

    def _on_score(self, event: object) -> None:
        self.updates += 1
        score = getattr(event, "score")
        self.bar.set_score(score)
        self.graph.set_score(len(self.graph.scores), score)


def gaps_of(stamps: list[float]) -> list[float]:
    return [1000 * (later - earlier) for earlier, later in zip(stamps, stamps[1:])]


def measure_idle(seconds: float) -> dict[str, float]:
    """The same timer with no search: the machine's own noise (other processes, the OS)."""
    stamps: list[float] = []
    timer = QTimer()
    timer.setInterval(TICK_MS)
    timer.timeout.connect(lambda: stamps.append(time.perf_counter()))
    loop = QEventLoop()
    QTimer.singleShot(int(seconds * 1000), loop.quit)
    timer.start()
    loop.exec()
    timer.stop()
    gaps = gaps_of(stamps)
    return {"median": statistics.median(gaps), "p99": percentile(gaps, 0.99), "max": max(gaps), "ticks": len(gaps)}


class SlotClock:
    """Time spent in the GUI's handlers of the bridge's signals (the bridge's and panels' own
    share of the loop's time)."""

    def __init__(self, bridge: EngineBridge) -> None:
        self.durations: list[float] = []
        self._started = 0.0
        signals = (bridge.iteration_received, bridge.progress_received, bridge.current_move_received, bridge.tree_batch_received)
        for signal in signals:
            signal.connect(self._start)  # connected first: runs before the panel's slots
        self.bridge = bridge

    def _start(self, _event: object) -> None:
        now = time.perf_counter()
        if now - self._started > 0.001:
            self._started = now
            QTimer.singleShot(0, self._stop)  # after every slot of this delivery has run

    def _stop(self) -> None:
        self.durations.append(1000 * (time.perf_counter() - self._started))


def measure(
    bridge: EngineBridge, watched: Watched, game: str, settings: SearchSettings, seconds: float, tree_cap: int | None = None
) -> dict[str, float]:
    """Run one search of ``seconds`` and return the event-loop gaps (ms) it caused. With
    ``tree_cap`` the search records its tree and is asked to answer once the tree has that
    many nodes."""
    stamps: list[float] = []
    timer = QTimer()
    timer.setInterval(TICK_MS)

    def tick() -> None:
        stamps.append(time.perf_counter())
        tree = bridge.tree
        if tree_cap is not None and tree is not None and len(tree) >= tree_cap and bridge.is_searching:
            bridge.move_now()

    timer.timeout.connect(tick)
    loop = QEventLoop()
    answer: list[object] = []
    bridge.search_finished.connect(loop.quit)
    bridge.search_finished.connect(answer.append)
    bridge.search_failed.connect(lambda message: (print("search failed:", message), loop.quit()))
    watched.updates = 0
    timer.start()
    started = time.perf_counter()
    cpu_started = time.thread_time()
    tree = None if tree_cap is None else TreeOptions(cap=tree_cap)
    bridge.start_search(new_game(game), settings, Limits(time=seconds), tree=tree)
    QTimer.singleShot(int((seconds + 10) * 1000), loop.quit)  # a hung search ends the bench
    loop.exec()
    elapsed = time.perf_counter() - started
    gui_cpu = time.thread_time() - cpu_started
    timer.stop()
    bridge.search_finished.disconnect(loop.quit)
    bridge.search_finished.disconnect(answer.append)
    gaps = gaps_of(stamps)
    nodes = getattr(answer[0], "nodes", 0) if answer else 0
    if nodes == 0 or not gaps:
        raise NothingSearched(f"{settings.algorithm}: {nodes} nodes and {len(gaps)} timer gaps: nothing to measure")
    shown = bridge.tree if tree_cap is not None else None
    return {
        "median": statistics.median(gaps),
        "p99": percentile(gaps, 0.99),
        "max": max(gaps),
        "ticks": len(gaps),
        "updates_per_second": watched.updates / elapsed,
        "nodes": nodes,
        "seconds": elapsed,
        "gui_cpu_ms": 1000 * gui_cpu,
        "tree_nodes": len(shown) if shown is not None else 0,
        "tree_sampled": bool(shown is not None and shown.sampled),
        "tree_helper_nodes": shown.helper_nodes if shown is not None else 0,
    }


def full_collection_ms() -> float:
    """How long one full garbage collection takes now: after a search the tree is handed back
    to the collector, and the next full collection Python runs pauses the loop this long."""
    started = time.perf_counter()
    gc.collect()
    return 1000 * (time.perf_counter() - started)


def warm_up(bridge: EngineBridge, game: str, threads: int) -> None:
    loop = QEventLoop()
    bridge.search_finished.connect(loop.quit)
    bridge.search_failed.connect(loop.quit)
    bridge.start_search(new_game(game), bench_settings(SearchSettings().algorithm, threads), Limits(depth=1))
    QTimer.singleShot(60_000, loop.quit)
    loop.exec()
    bridge.search_finished.disconnect(loop.quit)
    bridge.search_failed.disconnect(loop.quit)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="length of each search")
    parser.add_argument("--game", default="chess")
    parser.add_argument("--algorithms", nargs="*", default=["pvs", "mcts"])
    parser.add_argument("--threads", type=int, default=available_cores())
    parser.add_argument("--tree", action="store_true", help="record the tree, with the tree tab open")
    parser.add_argument("--tree-cap", type=int, default=100_000, help="nodes of the recorded tree")
    args = parser.parse_args(argv)
    app = QApplication.instance() or QApplication([sys.argv[0]])
    bridge = EngineBridge()
    clock = SlotClock(bridge)
    watched = Watched(bridge, tree=args.tree)
    watched.show()
    app.processEvents()
    recording = f", recording a tree of up to {args.tree_cap:,} nodes with the tree tab open" if args.tree else ""
    print(f"event-loop gaps (10 ms timer) while {args.threads} worker(s) search {args.game}{recording}; load {os.getloadavg()[0]:.1f}")
    warm_up(bridge, args.game, args.threads)  # workers spawned and imported before any timing
    idle = measure_idle(min(args.seconds, 5.0))
    print(
        f"  idle: median {idle['median']:.1f} ms, p99 {idle['p99']:.1f} ms, max {idle['max']:.1f} ms "
        f"over {idle['ticks']} ticks (no search: the machine's noise)"
    )
    worst_ok = True
    try:
        for algorithm in args.algorithms:
            clock.durations.clear()
            settings = bench_settings(algorithm, args.threads)
            result = measure(bridge, watched, args.game, settings, args.seconds, args.tree_cap if args.tree else None)
            ok = result["p99"] < GOAL_P99_MS and result["max"] < GOAL_WORST_MS
            worst_ok &= ok
            print(
                f"{algorithm:>6}: median {result['median']:.1f} ms, p99 {result['p99']:.1f} ms, "
                f"max {result['max']:.1f} ms over {result['ticks']} ticks; "
                f"{result['updates_per_second']:.1f} panel updates/s; {result['nodes']:,} nodes in "
                f"{result['seconds']:.1f} s {'(goal met)' if ok else '(goal missed)'}"
            )
            if args.tree:
                print(
                    f"        tree: {result['tree_nodes']:,} nodes shown"
                    f"{' (sampled past the cap)' if result['tree_sampled'] else ''}, "
                    f"{result['tree_helper_nodes']:,} searched by helpers; a full garbage collection "
                    f"with it alive takes {full_collection_ms():.0f} ms (the bridge keeps them off while it grows)"
                )
            if clock.durations:
                print(
                    f"        GUI thread: {result['gui_cpu_ms']:.0f} ms of CPU in {result['seconds']:.1f} s "
                    f"({result['gui_cpu_ms'] / 10 / result['seconds']:.1f} % of a core, painting included); "
                    f"slots per delivery: median {statistics.median(clock.durations):.2f} ms, "
                    f"max {max(clock.durations):.2f} ms over {len(clock.durations)} deliveries"
                )
    finally:
        bridge.shutdown()
    return 0 if worst_ok else 1


if __name__ == "__main__":
    sys.exit(main())
