"""Our money cube decisions against GNU Backgammon's: where they differ and what it costs.

Run: ``.venv/bin/python -m tools.backgammon_cube [--positions 600] [--seed 7] [--plies 0]
[--labels FILE]``.

Positions come from cubeless games of the shipped network against itself at 1 ply (seeded
dice), taken at the start of a turn (before the roll) where the player on roll is not the
underdog by our chances (win >= 45%); every other one with the cube owned by the player on
roll at 2 (a redouble), the rest centred. gnubg (``tools/gnubg_cube.py``, at ``--plies``)
labels each with its cubeful equities per unit of cube (no double, double/take,
double/pass) and its cubeless chances. ``--labels FILE`` keeps the labelled set (made once,
then re-read: a change to ``games/backgammon/cube.py`` is re-measured in seconds).

Printed: how often our verdict (double or not, take or pass) is gnubg's, and the equity our
decisions give up by gnubg's numbers, per decision in millipoints of the cube (95%):

* doubler: ``best - value of ours``, ``best = max(ND, min(DT, DP))``, ours ``min(DT, DP)`` if
  we double else ``ND``;
* taker, at the positions gnubg doubles: ``|DT - DP|`` when our take/pass is not gnubg's.

Then the same decisions made by our cube model from gnubg's own chances (what is left is the
model's, not the network's), and our chances beside gnubg's by bucket of gnubg's win chance.
The sets bench/STRENGTH.md quotes (``tests/data/backgammon/money_cube_gnubg.tsv`` is the
first 200 decisions of seed 8's)::

    nice -n 10 .venv/bin/python -m tools.backgammon_cube --positions 1000 --seed 8 --labels /tmp/test8.tsv
    nice -n 10 .venv/bin/python -m tools.backgammon_cube --positions 2000 --seed 9 --labels /tmp/test9.tsv
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from games.backgammon import CENTRED, BackgammonState
from games.backgammon import cube
from games.backgammon.board import pip_count
from games.base import CHANCE

GNUBG = "/usr/games/gnubg"
MIN_WIN = 0.45
"""Positions kept: the player on roll wins at least this often by our chances."""
TAKE_ONLY_WHERE_GNUBG_DOUBLES = True


@dataclass(frozen=True)
class Label:
    """gnubg's numbers for one cube decision, per unit of cube, for the player on roll."""

    no_double: float
    double_take: float
    double_pass: float
    chances: tuple[float, float, float, float, float]
    verdict: str

    @property
    def doubles(self) -> bool:
        return min(self.double_take, self.double_pass) > self.no_double

    @property
    def takes(self) -> bool:
        return self.double_take <= self.double_pass

    @property
    def best(self) -> float:
        return max(self.no_double, min(self.double_take, self.double_pass))


def one_ply(state: BackgammonState) -> object:
    mover = state.player
    return max(state.legal_moves(), key=lambda move: state.result(move).evaluate(mover))


def cube_position(state: BackgammonState, owned: bool) -> BackgammonState:
    """``state``'s checkers at the cube decision of its player on roll, money play."""
    me, them = state.boards[state.player], state.boards[1 - state.player]
    return BackgammonState.from_points(
        {point: n for point, n in enumerate(me) if 0 < point and n},
        {point: n for point, n in enumerate(them) if 0 < point and n},
        player=state.player,
        cube_value=2 if owned else 1,
        cube_owner=state.player if owned else CENTRED,
    )


def sample_decisions(count: int, seed: int) -> list[BackgammonState]:
    rng = random.Random(seed)
    found: list[BackgammonState] = []
    while len(found) < count:
        state = BackgammonState.initial(cube_enabled=False)
        turn_started = False
        while not state.is_terminal() and len(found) < count:
            if state.to_move() == CHANCE:
                if turn_started and rng.random() < 0.2:
                    decision = cube_position(state, owned=len(found) % 2 == 1)
                    if decision.cube_advice() is not None and decision.chances(decision.player)[0] >= MIN_WIN:
                        found.append(decision)
                outcomes = state.chance_outcomes()
                state.play(rng.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0])
                turn_started = True
                continue
            state.play(one_ply(state))
    return found


def label(states: list[BackgammonState], plies: int) -> list[Label]:
    with tempfile.TemporaryDirectory() as folder:
        ids, out = Path(folder) / "ids.txt", Path(folder) / "labels.txt"
        ids.write_text("".join(state.to_text() + "\n" for state in states))
        environment = dict(os.environ, PYTHONPATH=str(ROOT), BG_IN=str(ids), BG_OUT=str(out), BG_PLIES=str(plies))
        subprocess.run([GNUBG, "-t", "-q", "-r", "-p", str(ROOT / "tools" / "gnubg_cube.py")], env=environment,
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return [parse_label(line) for line in out.read_text().splitlines()]


def parse_label(line: str) -> Label:
    *numbers, verdict = line.split("\t")
    values = [float(x) for x in numbers]
    return Label(values[0], values[1], values[2], tuple(values[3:8]), verdict)  # type: ignore[arg-type]


def labelled_set(args: argparse.Namespace) -> list[tuple[BackgammonState, Label]]:
    path = Path(args.labels) if args.labels else None
    if path is not None and path.exists():
        rows = []
        for line in path.read_text().splitlines():
            position, rest = line.split("\t", 1)
            rows.append((BackgammonState.from_text(position), parse_label(rest)))
        return rows
    states = sample_decisions(args.positions, args.seed)
    labels = label(states, args.plies)
    if path is not None:
        path.write_text("".join(
            f"{state.to_text()}\t" + "\t".join("%.5f" % x for x in (lab.no_double, lab.double_take, lab.double_pass,
                                                                     *lab.chances)) + f"\t{lab.verdict}\n"
            for state, lab in zip(states, labels)
        ))
    return list(zip(states, labels))


def decision_from(state: BackgammonState, chances: tuple[float, ...]) -> cube.CubeDecision:
    efficiency = cube.cube_efficiency(state.is_race(), pip_count(state.boards[state.player]))
    return cube.cube_decision(chances, state.cube_owner == CENTRED, efficiency)  # type: ignore[arg-type]


def interval(values: list[float]) -> str:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0
    return f"{1000 * mean:6.1f} ± {1000 * half:4.1f}"


def given_up(lab: Label, ours: cube.CubeDecision) -> tuple[float, float | None]:
    """The doubler's and the taker's equity lost by our decision (the taker's ``None`` where
    it is not counted: gnubg does not double)."""
    our_value = min(lab.double_take, lab.double_pass) if ours.should_double else lab.no_double
    if not (lab.doubles or not TAKE_ONLY_WHERE_GNUBG_DOUBLES):
        return lab.best - our_value, None
    return lab.best - our_value, abs(lab.double_take - lab.double_pass) if ours.should_take != lab.takes else 0.0


def score(rows: list[tuple[BackgammonState, Label, cube.CubeDecision]], title: str) -> None:
    pairs: Counter[tuple[str, str]] = Counter()
    doubler, taker = [], []
    for _, lab, ours in rows:
        lost, lost_taking = given_up(lab, ours)
        doubler.append(lost)
        if lost_taking is not None:
            taker.append(lost_taking)
        name = ("double" if ours.should_double else "no double") + (", take" if ours.should_take else ", pass")
        theirs = ("double" if lab.doubles else "no double") + (", take" if lab.takes else ", pass")
        pairs[(name, theirs)] += 1
    total = len(rows)
    same = sum(number for (ours, theirs), number in pairs.items() if ours == theirs)
    doubles_same = sum(number for (ours, theirs), number in pairs.items() if ours.split(",")[0] == theirs.split(",")[0])
    takes_same = sum(number for (ours, theirs), number in pairs.items() if ours.split(",")[1] == theirs.split(",")[1])
    print(f"{title}: {total} decisions; verdict same as gnubg {same} ({same / total:.1%}), "
          f"double/no double {doubles_same / total:.1%}, take/pass {takes_same / total:.1%}")
    print(f"  equity given up, millipoints of the cube (95%): doubler {interval(doubler)} per decision, "
          f"taker {interval(taker)} per double gnubg gives ({len(taker)})")
    for (ours, theirs), number in pairs.most_common():
        print(f"    ours {ours:18} gnubg {theirs:18} {number}")


def chances_by_bucket(rows: list[tuple[BackgammonState, Label]]) -> None:
    print("chances by gnubg's win chance (player on roll): mean ours/gnubg")
    print("  bucket      n   win          gammon wins  gammon losses")
    buckets: dict[int, list[tuple[tuple[float, ...], tuple[float, ...]]]] = {}
    for state, lab in rows:
        buckets.setdefault(min(9, int(lab.chances[0] * 10)), []).append((state.chances(state.player), lab.chances))
    for bucket in sorted(buckets):
        items = buckets[bucket]
        mean = [statistics.fmean(ours[i] for ours, _ in items) for i in range(5)]
        theirs = [statistics.fmean(g[i] for _, g in items) for i in range(5)]
        print(f"  {bucket / 10:.1f}-{(bucket + 1) / 10:.1f} {len(items):5} {mean[0]:.3f}/{theirs[0]:.3f}  "
              f"{mean[1]:.3f}/{theirs[1]:.3f}  {mean[3]:.3f}/{theirs[3]:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=600)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--plies", type=int, default=0, help="gnubg's depth for the labels")
    parser.add_argument("--labels", default="", help="file keeping the labelled set (made if absent)")
    args = parser.parse_args()
    if not Path(GNUBG).exists() and not (args.labels and Path(args.labels).exists()):
        sys.exit(f"error: {GNUBG} is not installed (Debian package gnubg)")
    rows = labelled_set(args)
    score([(state, lab, state.cube_advice()) for state, lab in rows], "ours (the network's chances)")
    score([(state, lab, decision_from(state, lab.chances)) for state, lab in rows],
          "our cube model from gnubg's chances")
    chances_by_bucket(rows)


if __name__ == "__main__":
    main()
