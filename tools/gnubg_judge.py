"""Judge checker plays with GNU Backgammon: the equity each named play gives up.

Runs INSIDE gnubg (never imported by the app); ``bench/backgammon_errors.py`` starts it, from
the repository root (``PYTHONPATH`` puts the project's packages on gnubg's Python path)::

    PYTHONPATH=. BG_IN=plays.txt BG_OUT=losses.txt BG_PLIES=2 /usr/games/gnubg -t -q -r -p tools/gnubg_judge.py

Each input line is ``PositionID:MatchID`` (a checker play, dice rolled) then plays in gnubg
notation, tab-separated; each output line is, per play, gnubg's best cubeless equity minus
that play's (0 for gnubg's own choice), at ``BG_PLIES`` with a wide move filter (up to 16
plays within 0.32 of the best are searched at full depth).
"""

import os

import gnubg  # type: ignore[import-not-found]  # only inside gnubg

from games.backgammon import BackgammonState
from tools.gnubg_hints import use_hints

CANDIDATES = 16
WINDOW = 0.32


def main() -> None:
    plies = int(os.environ.get("BG_PLIES", "2"))
    use_hints(plies, CANDIDATES, WINDOW)
    with open(os.environ["BG_IN"]) as source, open(os.environ["BG_OUT"], "w") as out:
        for line in source:
            position, *names = line.rstrip("\n").split("\t")
            state = BackgammonState.from_text(position)
            gnubg.command("set gnubgid " + position)
            equities = {state.parse_move(hint["move"]): hint["equity"] for hint in gnubg.hint(1000)["hint"]}
            best = max(equities.values())
            out.write("\t".join("%.5f" % (best - equities[state.parse_move(name)]) for name in names) + "\n")
            out.flush()
    print("@@ DONE")


main()
