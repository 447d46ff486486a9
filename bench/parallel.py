"""The engine pool on all cores against one worker, and how smooth the parent stays.

Run: ``.venv/bin/python -m bench.parallel [--runs 3] [--seconds 3]``.

In one run, for fixed chess, checkers and Othello positions (PVS, default settings):

* time to a fixed depth and aggregate nodes/s with a pool of 1 worker and a pool of all
  workers, each the median of ``--runs`` searches that start from an empty table (cleared
  before every run), and the ratios (goal on 2 cores: nodes/s >= 1.8x, time >= 1.4x). Every
  pool first searches every position once untimed: a fresh worker's first search runs ~30%
  slower (imports, first-use caches), which would count against whichever pool it hit;
* nodes per CPU-second of the workers (Linux: from /proc), with 1 worker and with all: a
  machine busy with other jobs takes wall time from the workers, not CPU time, so this
  ratio says what the parallel search itself costs per node (Lazy SMP helpers search other
  nodes, in another order);
* the gaps between ticks of a 10 ms timer in the parent process while a search keeps every
  core busy: on a plain thread and in an event loop (asyncio's; bench/ imports no Qt), with
  the idle machine's own jitter first (goal: p99 < 20 ms, worst < 50 ms).

The machine may be shared with other jobs: compare the ratios of one run, not absolute
numbers across runs.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import threading
import time


from ai.events import Finished, Iteration
from ai.parallel import EnginePool, available_cores
from ai.settings import Limits, SearchRequest, SearchSettings

POSITIONS: tuple[tuple[str, str, int], ...] = (
    ("chess", "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8", 6),
    ("checkers", "B:W18,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15", 13),
    ("othello", "------------------XXOO-----XO-----OOXO------XX------------------ X", 9),
)
"""(game, position, depth): a quiet Queen's Gambit middlegame, checkers after 11-15 23-18,
and Othello after d3 c5 f6 f5 e6 e3 c3 f3: each 2-3 s to its depth on one core here."""
TIMER_PERIOD = 0.010


CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_seconds(pids: tuple[int, ...]) -> float:
    """CPU time (user + system) the processes ``pids`` have used, or NaN off Linux."""
    total = 0.0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            return float("nan")
        total += (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
    return total


def time_to_depth(pool: EnginePool, game: str, position: str, depth: int) -> tuple[float, float, float]:
    """(seconds from submission to the answer, aggregate nodes/s, nodes per worker
    CPU-second) of one search."""
    pool.clear_table()
    settings = SearchSettings(algorithm="pvs", threads=pool.workers, tt_megabytes=round(pool.hash_megabytes), book=False)
    request = SearchRequest(game, position, settings=settings, limits=Limits(depth=depth))
    pids = pool.worker_pids
    cpu_before = cpu_seconds(pids)
    started = time.perf_counter()
    finished = [event for event in pool.search(request) if isinstance(event, Finished)][-1]
    elapsed = time.perf_counter() - started
    cpu = cpu_seconds(pids) - cpu_before
    if finished.error:
        raise SystemExit(f"{game}: {finished.error}")
    return elapsed, finished.nodes / max(finished.time, 1e-9), finished.nodes / cpu if cpu > 0 else float("nan")


def warm_up(pools: list[EnginePool]) -> None:
    """One untimed search of every position on every pool (see the module docstring)."""
    for pool in pools:
        for game, position, depth in POSITIONS:
            time_to_depth(pool, game, position, max(1, depth - 2))


def independent_rate(pools: list[EnginePool], game: str, position: str, depth: int) -> float:
    """Aggregate nodes/s of one search per single-worker pool, all at once and sharing
    nothing: what the machine gives right now (the ceiling of any parallel search)."""
    rates: list[float] = []
    threads = [
        threading.Thread(target=lambda pool=pool: rates.append(time_to_depth(pool, game, position, depth)[1]))
        for pool in pools
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(rates)


def measure(single: list[EnginePool], parallel: EnginePool, runs: int) -> dict[str, list[tuple[float, ...]]]:
    """Per game, per run: (time 1 worker, nodes/s 1 worker, time all, nodes/s all,
    independent nodes/s, nodes per CPU-second 1 worker, the same all), the three kinds
    interleaved so that a change in the machine's load hits them alike."""
    warm_up([*single, parallel])
    results: dict[str, list[tuple[float, ...]]] = {game: [] for game, _, _ in POSITIONS}
    for _ in range(runs):
        for game, position, depth in POSITIONS:
            time_one, rate_one, cpu_rate_one = time_to_depth(single[0], game, position, depth)
            time_all, rate_all, cpu_rate_all = time_to_depth(parallel, game, position, depth)
            ceiling = independent_rate(single, game, position, depth)
            results[game].append((time_one, rate_one, time_all, rate_all, ceiling, cpu_rate_one, cpu_rate_all))
    return results


def thread_timer_gaps(seconds: float) -> list[float]:
    """Gaps between ticks of a 10 ms timer on a plain thread, for ``seconds``."""
    gaps = []
    last = time.perf_counter()
    end = last + seconds
    while last < end:
        time.sleep(TIMER_PERIOD)
        now = time.perf_counter()
        gaps.append(now - last)
        last = now
    return gaps


def event_loop_timer_gaps(seconds: float) -> list[float]:
    """The same with a repeating timer of an event loop (asyncio's, on this thread), as a
    GUI's timer runs. ai/ and bench/ import no Qt (tests/test_layering.py)."""
    loop = asyncio.new_event_loop()
    gaps: list[float] = []
    last = [time.perf_counter()]
    end = last[0] + seconds

    def tick() -> None:
        now = time.perf_counter()
        gaps.append(now - last[0])
        last[0] = now
        if now < end:
            loop.call_later(TIMER_PERIOD, tick)
        else:
            loop.stop()

    loop.call_later(TIMER_PERIOD, tick)
    loop.run_forever()
    loop.close()
    return gaps


def describe_gaps(name: str, gaps: list[float]) -> str:
    ordered = sorted(gaps)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return (
        f"  {name:<20} ticks {len(gaps):>5}  median {statistics.median(gaps) * 1000:5.1f} ms  "
        f"p99 {p99 * 1000:5.1f} ms  worst {ordered[-1] * 1000:5.1f} ms"
    )


def timers(pool: EnginePool, seconds: float) -> None:
    """The parent's timers with the pool idle (the machine's own jitter), then while an
    unlimited search keeps every worker busy."""
    print("timer gaps in the parent, 10 ms period (goal while searching: p99 < 20 ms, worst < 50 ms):")
    print(describe_gaps("thread, idle", thread_timer_gaps(seconds)))
    busy = threading.Event()
    search_id = pool.submit(
        SearchRequest("chess", POSITIONS[0][1], settings=SearchSettings(threads=pool.workers, book=False), limits=Limits()),
        lambda event: busy.set() if isinstance(event, Iteration) else None,
    )
    busy.wait(60)
    print(describe_gaps(f"thread, {pool.workers}w busy", thread_timer_gaps(seconds)))
    print(describe_gaps(f"asyncio, {pool.workers}w busy", event_loop_timer_gaps(seconds)))
    pool.stop(search_id)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="searches per position and pool size (median)")
    parser.add_argument("--seconds", type=float, default=3.0, help="length of each timer measurement")
    arguments = parser.parse_args()
    cores = available_cores()
    print(f"cores: {cores}; PVS, default settings, table cleared before every search; medians of {arguments.runs}")
    single = [EnginePool(workers=1) for _ in range(cores)]
    try:
        with EnginePool(workers=cores) as parallel:
            results = measure(single, parallel, arguments.runs)
            timers(parallel, arguments.seconds)
    finally:
        for pool in single:
            pool.shutdown()
    print(
        f"\n{'game':<9}{'depth':>6}{'time 1w':>9}{f'time {cores}w':>9}{'speed-up':>9}"
        f"{'knps 1w':>9}{f'knps {cores}w':>9}{'ratio':>7}{'machine':>9}{'kn/cpu-s 1w':>13}{f'{cores}w':>6}"
    )
    speedups, ratios, ceilings, cpu_ratios = [], [], [], []
    for game, _, depth in POSITIONS:
        time_one, rate_one, time_all, rate_all, ceiling, cpu_rate_one, cpu_rate_all = (
            statistics.median(run[column] for run in results[game]) for column in range(7)
        )
        speedups.append(time_one / time_all)
        ratios.append(rate_all / rate_one)
        ceilings.append(ceiling / rate_one)
        cpu_ratios.append(cpu_rate_all / cpu_rate_one)
        print(
            f"{game:<9}{depth:>6}{time_one:>8.2f}s{time_all:>8.2f}s{speedups[-1]:>8.2f}x"
            f"{rate_one / 1000:>9.1f}{rate_all / 1000:>9.1f}{ratios[-1]:>6.2f}x{ceilings[-1]:>8.2f}x"
            f"{cpu_rate_one / 1000:>13.1f}{cpu_rate_all / 1000:>6.1f} ({cpu_ratios[-1]:.2f})"
        )
    mean = statistics.geometric_mean
    print(
        f"{'geo. mean':<15}{'':>17}{mean(speedups):>8.2f}x{'':>18}{mean(ratios):>6.2f}x{mean(ceilings):>8.2f}x"
        f"{'':>19} ({mean(cpu_ratios):.2f})"
    )
    print(
        f"goal on 2 cores: time to depth >= 1.4x, nodes/s >= 1.8x. 'machine': {cores} independent\n"
        "single-worker searches at once, sharing nothing, against one alone: the most any parallel\n"
        "search can get from this machine at this moment (it is shared with other jobs).\n"
        "kn/cpu-s: thousands of nodes per CPU-second of the workers (per worker, whatever the\n"
        "load); in brackets all workers against one: below 1.00, a node of the parallel search\n"
        "costs more (other nodes, another move order), whatever the machine does."
    )


if __name__ == "__main__":
    main()
