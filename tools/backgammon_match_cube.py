"""Our match cube decisions against GNU Backgammon's at match scores: make the labelled set
the tests read, and print where the two differ and why.

Make (needs gnubg): ``.venv/bin/python -m tools.backgammon_match_cube --positions 40 --seed 11
--out tests/data/backgammon_match_cube.json``. Check (reads the file; seconds):
``.venv/bin/python -m tools.backgammon_match_cube --check tests/data/backgammon_match_cube.json``.

Positions come from cubeless games of the shipped network against itself at 1 ply (seeded
dice), taken at the start of a turn where the player on roll wins at least ``MIN_WIN`` by
our chances. Each is put at every score of ``SCORES`` (away scores seen from the player on
roll, some with the cube already owned at 2) at the cube decision of the player on roll;
gnubg (``tools/gnubg_cube.py``: ``set gnubgid``, then ``cfevaluate`` cubeful 0-ply and
``evaluate`` 0-ply) labels each with its no double / double-take / double-pass equities
(normalized match equity at the current cube, as gnubg prints them), its cubeless chances
and its verdict. The file keeps gnubg's version, the MET it used and the command.

``--ids FILE``: instead, gnubg's own Position and Match IDs after set-ups of ``ID_SETUPS``
(``new match N``, ``set score``, ``set crawford``, ``set cube``: ``tools/gnubg_match_ids.py``)
with the match each one describes, for the tests of our ids.

Printed by ``--check``: how often our verdict (double or not; take or pass) is gnubg's (1)
with our network's chances, as the app decides, and (2) with gnubg's own chances through our
match cube model, which isolates the model from the chances; per score; the equity our
verdicts give up by gnubg's numbers and how near gnubg's boundary the disagreements are; the
largest differences of (2) and every disagreement of (1).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.backgammon import CENTRED, BackgammonState
from games.backgammon.gnubg_ids import MatchKey, encode_match_id
from games.backgammon.match_cube import match_cube_decision, normalized
from games.backgammon import match_cube
from games.backgammon.cube import CubeDecision
from games.base import CHANCE

ROOT = Path(__file__).resolve().parent.parent
GNUBG = "/usr/games/gnubg"
LABELLER = ROOT / "tools" / "gnubg_cube.py"
MIN_WIN = 0.4
"""Positions kept: the player on roll wins at least this often by our chances (below it
nobody doubles at any score but post-Crawford)."""


@dataclass(frozen=True)
class Score:
    """A match score from the player on roll: away scores, cube value, owned by the player
    on roll (else centred), in a match of ``length``."""

    name: str
    length: int
    my_away: int
    their_away: int
    cube: int = 1

    def key(self, player: int) -> MatchKey:
        mine, theirs = self.length - self.my_away, self.length - self.their_away
        return MatchKey(
            cube_value=self.cube,
            cube_owner=CENTRED if self.cube == 1 else player,
            player_on_roll=player,
            turn=player,
            match_length=self.length,
            score=(mine, theirs) if player == 0 else (theirs, mine),
        )


SCORES = (
    Score("2a-4a", 7, 2, 4),
    Score("4a-2a", 7, 4, 2),
    Score("3a-3a", 7, 3, 3),
    Score("2a-2a", 7, 2, 2),
    Score("5a-7a", 7, 5, 7),
    Score("7a-5a", 7, 7, 5),
    Score("3a-5a", 7, 3, 5),
    Score("2a-1a post-Crawford", 7, 2, 1),
    Score("3a-1a post-Crawford", 7, 3, 1),
    Score("4a-1a post-Crawford", 7, 4, 1),
    Score("6a-4a redouble at 2", 9, 6, 4, 2),
    Score("5a-5a redouble at 2", 9, 5, 5, 2),
)


ID_SETUPS: tuple[tuple[str, tuple[str, ...], dict[str, Any]], ...] = (
    ("a new 7-point match", ("new match 7",), {"length": 7, "score": [0, 0], "crawford": False, "cube": 1}),
    ("7 points, 3-5", ("new match 7", "set score 3 5"), {"length": 7, "score": [3, 5], "crawford": False, "cube": 1}),
    ("5 points, 4-2, the Crawford game", ("new match 5", "set score 4 2", "set crawford on"),
     {"length": 5, "score": [4, 2], "crawford": True, "cube": 1}),
    ("5 points, 4-2, post-Crawford", ("new match 5", "set score 4 2", "set crawford off"),
     {"length": 5, "score": [4, 2], "crawford": False, "cube": 1}),
    ("9 points, 2-6, X owns the cube at 4", ("new match 9", "set score 2 6", "set cube value 4", "set cube owner 1"),
     {"length": 9, "score": [2, 6], "crawford": False, "cube": 4, "owner": 1}),
    ("7 points, 3-5, O owns the cube at 2", ("new match 7", "set score 3 5", "set cube value 2", "set cube owner 0"),
     {"length": 7, "score": [3, 5], "crawford": False, "cube": 2, "owner": 0}),
    ("double match point", ("new match 7", "set score 6 6"), {"length": 7, "score": [6, 6], "crawford": False, "cube": 1}),
    ("25 points, 10-20", ("new match 25", "set score 10 20"), {"length": 25, "score": [10, 20], "crawford": False, "cube": 1}),
    ("3 points, 1-2, the Crawford game", ("new match 3", "set score 1 2", "set crawford on"),
     {"length": 3, "score": [1, 2], "crawford": True, "cube": 1}),
    ("a 1-point match", ("new match 1",), {"length": 1, "score": [0, 0], "crawford": False, "cube": 1}),
    ("64 points, 0-63 post-Crawford", ("new match 64", "set score 0 63", "set crawford off"),
     {"length": 64, "score": [0, 63], "crawford": False, "cube": 1}),
)
"""gnubg set-ups for ``--ids``: name, commands (after ``set seed``), the match they make."""


def make_ids(out: Path) -> None:
    setups = [{"name": name, "commands": [f"set seed {index + 1}", *commands], "expected": expected}
              for index, (name, commands, expected) in enumerate(ID_SETUPS)]
    with tempfile.TemporaryDirectory() as folder:
        source, result = Path(folder) / "setups.json", Path(folder) / "ids.json"
        source.write_text(json.dumps(setups))
        environment = dict(os.environ, BG_IN=str(source), BG_OUT=str(result))
        subprocess.run([GNUBG, "-t", "-q", "-r", "-p", str(ROOT / "tools" / "gnubg_match_ids.py")], env=environment,
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600)
        labelled = json.loads(result.read_text())
    document = {
        "description": "GNU Backgammon's own Position ID and Match ID after each set-up's commands (both players human; "
                       "'new match N' rolls the opening roll), with the match the set-up makes",
        "gnubg": gnubg_version(),
        "command": f"python -m tools.backgammon_match_cube --ids {out} "
                   "(gnubg -t -q -r -p tools/gnubg_match_ids.py: gnubg.positionid(), gnubg.matchid())",
        "setups": labelled,
    }
    out.write_text(json.dumps(document, indent=1) + "\n")
    print(f"wrote {out}: {len(labelled)} set-ups")


def one_ply(state: BackgammonState) -> object:
    mover = state.player
    return max(state.legal_moves(), key=lambda move: state.result(move).evaluate(mover))


def sample_boards(count: int, seed: int) -> list[tuple[int, list[int], list[int]]]:
    """``(player on roll, their board, the opponent's)`` at turn starts of self-play games."""
    rng = random.Random(seed)
    found: list[tuple[int, list[int], list[int]]] = []
    while len(found) < count:
        state = BackgammonState.initial(cube_enabled=False)
        started = False
        while not state.is_terminal() and len(found) < count:
            if state.to_move() == CHANCE:
                if started and rng.random() < 0.2 and state.chances(state.player)[0] >= MIN_WIN:
                    found.append((state.player, list(state.boards[state.player]), list(state.boards[1 - state.player])))
                outcomes = state.chance_outcomes()
                state.play(rng.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0])
                started = True
                continue
            state.play(one_ply(state))
    return found


def decision_text(board: tuple[int, list[int], list[int]], score: Score) -> str:
    player, mine, theirs = board
    money = BackgammonState.from_points(
        {point: n for point, n in enumerate(mine) if 0 < point and n},
        {point: n for point, n in enumerate(theirs) if 0 < point and n},
        player=player,
    )
    return f"{money.position_id()}:{encode_match_id(score.key(player))}"


def gnubg_version() -> str:
    output = subprocess.run([GNUBG, "--version"], capture_output=True, text=True, timeout=30).stdout
    return output.splitlines()[0].strip()


def label(ids: list[str]) -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory() as folder:
        source, out = Path(folder) / "ids.txt", Path(folder) / "labels.txt"
        source.write_text("".join(text + "\n" for text in ids))
        environment = dict(os.environ, BG_IN=str(source), BG_OUT=str(out), BG_PLIES="0")
        subprocess.run([GNUBG, "-t", "-q", "-r", "-p", str(LABELLER)], env=environment, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=3600)
        rows = []
        for line in out.read_text().splitlines():
            *numbers, verdict = line.split("\t")
            values = [float(x) for x in numbers]
            rows.append({"no_double": values[0], "double_take": values[1], "double_pass": values[2],
                         "chances": values[3:8], "verdict": verdict})
        return rows


def make(args: argparse.Namespace) -> None:
    boards = sample_boards(args.positions, args.seed)
    entries = [(score, decision_text(board, score)) for board in boards for score in SCORES]
    for _, text in entries:
        state = BackgammonState.from_text(text)
        assert state.cube_advice() is not None, text  # every entry is a cube decision of ours
    labels = label([text for _, text in entries])
    document = {
        "description": "GNU Backgammon's 0-ply cube decisions at match scores (normalized match equity at the "
                       "current cube, as gnubg prints them; cubeless 0-ply chances of the player on roll)",
        "gnubg": gnubg_version(),
        "met": "Kazaross XG2 25 point MET (/usr/share/gnubg/met/Kazaross-XG2.xml, gnubg's default)",
        "command": f"python -m tools.backgammon_match_cube --positions {args.positions} --seed {args.seed} --out {args.out}"
                   f" (gnubg -t -q -r -p tools/gnubg_cube.py: set gnubgid ID; cfevaluate(evalcontext(1, 0, 0, 1, 0.0)))",
        "decisions": [{"id": text, "score": score.name, **lab} for (score, text), lab in zip(entries, labels)],
    }
    Path(args.out).write_text(json.dumps(document, indent=0) + "\n")
    print(f"wrote {args.out}: {len(entries)} decisions ({len(boards)} positions x {len(SCORES)} scores)")


# ------------------------------------------------------------------ comparing
def gnubg_doubles(entry: dict[str, Any]) -> bool:
    return min(entry["double_take"], entry["double_pass"]) > entry["no_double"]


def gnubg_takes(entry: dict[str, Any]) -> bool:
    return entry["double_take"] <= entry["double_pass"]


def model_decision(state: BackgammonState, chances: tuple[float, ...]) -> CubeDecision:
    """Our match cube model from the given chances of the player on roll, at the state's score."""
    on_roll = state.player
    return match_cube_decision(
        chances,  # type: ignore[arg-type]
        state.match_context(on_roll),
        state.cube_owner == CENTRED,
        match_cube.efficiency(state.boards[on_roll], state.boards[1 - on_roll]),
    )


def as_gnubg_prints(decision: CubeDecision, state: BackgammonState) -> tuple[float, float, float]:
    context = state.match_context(state.player)
    return tuple(normalized(value, context, state.cube_value)  # type: ignore[return-value]
                 for value in (decision.no_double, decision.double_take, decision.double_pass))


def compare(entries: list[dict[str, Any]], ours: list[CubeDecision]) -> tuple[int, int, Counter[str], Counter[str]]:
    """(same double verdicts, same take verdicts, per-score counts of same, per-score totals)."""
    doubles = takes = 0
    same: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for entry, decision in zip(entries, ours):
        double_same = decision.should_double == gnubg_doubles(entry)
        take_same = decision.should_take == gnubg_takes(entry)
        doubles += double_same
        takes += take_same
        total[entry["score"]] += 1
        same[entry["score"]] += double_same and take_same
    return doubles, takes, same, total


def cost(entries: list[dict[str, Any]], ours: list[CubeDecision]) -> None:
    """What our verdicts give up by gnubg's numbers (normalized match equity, millipoints)
    and how near gnubg's own decision boundary the disagreements are."""
    doubler, taker, double_margins, take_margins = [], [], [], []
    for entry, decision in zip(entries, ours):
        no_double, take, drop = entry["no_double"], entry["double_take"], entry["double_pass"]
        best = max(no_double, min(take, drop))
        doubler.append(best - (min(take, drop) if decision.should_double else no_double))
        if decision.should_double != gnubg_doubles(entry):
            double_margins.append(abs(no_double - min(take, drop)))
        if decision.should_take != gnubg_takes(entry):
            take_margins.append(abs(take - drop))
            taker.append(abs(take - drop))
    count = len(entries)
    print(f"equity given up by gnubg's numbers, millipoints of normalized match equity per decision: "
          f"doubler {1000 * sum(doubler) / count:.1f}, taker {1000 * sum(taker) / count:.1f}")
    for name, margins in (("double", double_margins), ("take", take_margins)):
        if margins:
            margins.sort()
            print(f"  {name} disagreements: {len(margins)}, gnubg's margin median {margins[len(margins) // 2]:.3f}, "
                  f"{sum(m < 0.1 for m in margins)} within 0.1, largest {margins[-1]:.3f}")


def check(path: Path) -> None:
    document = json.loads(path.read_text())
    entries = document["decisions"]
    states = [BackgammonState.from_text(entry["id"]) for entry in entries]
    network = [state.cube_advice() for state in states]
    model = [model_decision(state, tuple(entry["chances"])) for state, entry in zip(states, entries)]
    print(f"{path}: {len(entries)} decisions labelled by {document['gnubg']}, {document['met']}")
    for title, decisions in (("our network's chances (the app)", network), ("gnubg's chances, our model", model)):
        doubles, takes, same, total = compare(entries, decisions)  # type: ignore[arg-type]
        count = len(entries)
        print(f"{title}: double/no double {doubles}/{count} ({doubles / count:.1%}), take/pass {takes}/{count} "
              f"({takes / count:.1%}), both {sum(same.values()) / count:.1%}")
        print("   " + ", ".join(f"{name} {same[name]}/{total[name]}" for name in total))
    print("the app: ", end="")
    cost(entries, network)  # type: ignore[arg-type]
    print("model from gnubg's chances, largest differences in gnubg's printed equities:")
    gaps = []
    for state, entry, decision in zip(states, entries, model):
        printed = as_gnubg_prints(decision, state)
        gap = max(abs(a - b) for a, b in zip(printed, (entry["no_double"], entry["double_take"], entry["double_pass"])))
        gaps.append((gap, entry["id"], entry["score"], printed, entry))
    gaps.sort(reverse=True)
    for gap, text, name, printed, entry in gaps[:8]:
        print(f"  {gap:.4f} {text} {name}: ours ND {printed[0]:+.3f} DT {printed[1]:+.3f} DP {printed[2]:+.3f}; "
              f"gnubg {entry['no_double']:+.3f} {entry['double_take']:+.3f} {entry['double_pass']:+.3f} ({entry['verdict']})")
    print("disagreements with our network's chances (ours vs gnubg; win chance ours/gnubg):")
    for state, entry, decision in zip(states, entries, network):
        assert decision is not None
        if decision.should_double != gnubg_doubles(entry) or decision.should_take != gnubg_takes(entry):
            printed = as_gnubg_prints(decision, state)
            ours = ("double" if decision.should_double else "no double") + (", take" if decision.should_take else ", pass")
            print(f"  {entry['id']} {entry['score']}: ours {ours} (ND {printed[0]:+.3f} DT {printed[1]:+.3f}), "
                  f"gnubg {entry['verdict']} (ND {entry['no_double']:+.3f} DT {entry['double_take']:+.3f}); "
                  f"win {state.chances(state.player)[0]:.3f}/{entry['chances'][0]:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--out", default="", help="write the labelled set here (needs gnubg)")
    parser.add_argument("--check", default="", help="compare our decisions with the labelled set in this file")
    parser.add_argument("--ids", default="", help="write gnubg's ids of the ID_SETUPS match set-ups here (needs gnubg)")
    args = parser.parse_args()
    if args.ids:
        if not Path(GNUBG).exists():
            sys.exit(f"error: {GNUBG} is not installed (Debian package gnubg)")
        make_ids(Path(args.ids))
        return
    if args.check:
        check(Path(args.check))
        return
    if not args.out:
        sys.exit("error: give --out FILE to make a labelled set or --check FILE to read one")
    if not 1 <= args.positions <= 1000:
        sys.exit("error: --positions must be 1-1000")
    if not Path(GNUBG).exists():
        sys.exit(f"error: {GNUBG} is not installed (Debian package gnubg)")
    make(args)


if __name__ == "__main__":
    main()
