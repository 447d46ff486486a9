"""Backgammon search depth by move quality: the equity 1-ply and Star2 2-ply plays give up,
judged by GNU Backgammon.

Run: ``.venv/bin/python -m bench.backgammon_errors [--positions 200] [--seed 5] [--judge-plies 2]``.

Positions come from cubeless games of the shipped EVAL against itself at 1 ply (seeded
dice; only rolls with a choice of plays). In each, the 1-ply play (the network alone) and
the Star2 depth-2 play (``ai.engine.search``, the app's default algorithm) are both named
and judged by gnubg at ``--judge-plies`` (``tools/gnubg_judge.py``): the equity each gives
up against gnubg's best. Both players face the same positions, so the paired difference of
the mean errors says which depth plays better, with far fewer CPU seconds than a match of
2-ply games. Printed: mean error per move (millipoints) with its 95% interval, the paired
difference, and the CPU seconds a move of each. ``--cube``: instead, our cube verdicts
(0 ply, from the chances) beside gnubg 0-ply's at the same positions (cube centred, the
player on roll winning at least 60%).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from ai.engine import search
from ai.settings import Limits, SearchSettings
from games.backgammon import BackgammonState
from games.base import CHANCE


def one_ply(state: BackgammonState) -> object:
    mover = state.player
    return max(state.legal_moves(), key=lambda move: state.result(move).evaluate(mover))


def sample_positions(count: int, seed: int) -> list[BackgammonState]:
    rng = random.Random(seed)
    found: list[BackgammonState] = []
    while len(found) < count:
        state = BackgammonState.initial(cube_enabled=False)
        while not state.is_terminal():
            if state.to_move() == CHANCE:
                outcomes = state.chance_outcomes()
                state.play(rng.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0])
                continue
            if len(state.legal_moves()) > 1 and rng.random() < 0.15 and len(found) < count:
                found.append(state.copy())
            state.play(one_ply(state))
    return found


MIN_DOUBLING_CHANCE = 0.6
"""Cube positions compared: those where the player on roll wins at least this often (the
rest are plain "no double, take" for both)."""


def cube_agreement(count: int, seed: int) -> None:
    """Our cube verdicts (``cube_advice``, 0 ply) beside gnubg 0-ply's (``cfevaluate``) at the
    cube decisions of positions from the network's self-play (centred cube, money play) where
the player on roll is the favourite."""
    from collections import Counter

    from ai.match.gnubg import GnubgPlayer
    from games.backgammon import DOUBLE, TAKE

    pairs: Counter[tuple[str, str]] = Counter()
    player = GnubgPlayer.from_spec("0", "gnubg:0")
    try:
        for state in sample_positions(count, seed):
            decision = BackgammonState.from_points(
                {point: n for point, n in enumerate(state.boards[state.player]) if 0 < point and n},
                {point: n for point, n in enumerate(state.boards[1 - state.player]) if 0 < point and n},
                player=state.player,
            )
            if decision.cube_advice() is None or decision.chances(decision.player)[0] < MIN_DOUBLING_CHANCE:
                continue
            advice = decision.cube_advice()
            assert advice is not None
            ours = ("double" if advice.should_double else "no double") + (", take" if advice.should_take else ", pass")
            theirs = "double" if player.choose(decision, None, None) == DOUBLE else "no double"  # type: ignore[arg-type]
            decision.play(DOUBLE)
            theirs += ", take" if player.choose(decision, None, None) == TAKE else ", pass"  # type: ignore[arg-type]
            pairs[(ours, theirs)] += 1
    finally:
        player.close()
    total = sum(pairs.values())
    same = sum(number for (ours, theirs), number in pairs.items() if ours == theirs)
    print(f"cube verdicts at {total} positions: same as gnubg 0-ply at {same} ({same / total:.0%})")
    for (ours, theirs), number in pairs.most_common():
        print(f"  ours {ours:18} gnubg {theirs:18} {number}")


def interval(values: list[float]) -> str:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / len(values) ** 0.5
    return f"{1000 * mean:6.1f} ± {1000 * half:4.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--judge-plies", type=int, default=2)
    parser.add_argument("--cube", action="store_true", help="compare cube verdicts with gnubg 0-ply instead")
    args = parser.parse_args()
    if args.cube:
        cube_agreement(args.positions, args.seed)
        return
    positions = sample_positions(args.positions, args.seed)
    lines, seconds = [], [0.0, 0.0]
    for state in positions:
        started = time.process_time()
        shallow = one_ply(state)
        seconds[0] += time.process_time() - started
        started = time.process_time()
        deep = search(state, SearchSettings(algorithm="star2"), Limits(depth=2)).best_move
        seconds[1] += time.process_time() - started
        lines.append("\t".join((state.to_text(), state.move_name(shallow), state.move_name(deep))))
    with tempfile.TemporaryDirectory() as folder:
        plays, losses = Path(folder) / "plays.txt", Path(folder) / "losses.txt"
        plays.write_text("\n".join(lines) + "\n")
        environment = dict(os.environ, PYTHONPATH=str(ROOT), BG_IN=str(plays), BG_OUT=str(losses),
                           BG_PLIES=str(args.judge_plies))
        subprocess.run(["/usr/games/gnubg", "-t", "-q", "-r", "-p", str(ROOT / "tools" / "gnubg_judge.py")],
                       env=environment, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        rows = [[float(value) for value in line.split("\t")] for line in losses.read_text().splitlines()]
    shallow_errors, deep_errors = [row[0] for row in rows], [row[1] for row in rows]
    differences = [a - b for a, b in zip(shallow_errors, deep_errors)]
    same = sum(a == b for a, b in zip(shallow_errors, deep_errors))
    print(f"{len(rows)} positions (seed {args.seed}), judged by gnubg {args.judge_plies}-ply; "
          f"equity given up per move, millipoints (95%):")
    print(f"  1 ply (network alone) {interval(shallow_errors)}   {1000 * seconds[0] / len(rows):7.1f} ms CPU a move")
    print(f"  Star2 depth 2         {interval(deep_errors)}   {1000 * seconds[1] / len(rows):7.1f} ms CPU a move")
    print(f"  1 ply minus 2 ply     {interval(differences)}   (same play in {same} of {len(rows)})")


if __name__ == "__main__":
    main()
