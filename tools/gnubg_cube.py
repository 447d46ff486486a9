"""Label cube decisions with GNU Backgammon: its cubeful money equities and cubeless chances.

Runs INSIDE gnubg (never imported by the app); ``tools/backgammon_cube.py`` starts it::

    BG_IN=ids.txt BG_OUT=labels.txt BG_PLIES=0 /usr/games/gnubg -t -q -r -p tools/gnubg_cube.py

Each input line is a ``PositionID:MatchID`` at the cube decision of the player on roll (money
play, Jacoby off). Each output line: gnubg's cubeful equities per unit of the current cube
for that player, no double, double/take, double/pass (``cfevaluate``), then its cubeless
chances (win, win gammon, win backgammon, lose gammon, lose backgammon), both at
``BG_PLIES``, then its verdict text, tab-separated.
"""

import os

import gnubg  # type: ignore[import-not-found]  # only inside gnubg


def main() -> None:
    plies = int(os.environ.get("BG_PLIES", "0"))
    for command in ("set player 0 human", "set player 1 human", "set jacoby off", "set cube use on", "new game"):
        gnubg.command(command)
    with open(os.environ["BG_IN"]) as source, open(os.environ["BG_OUT"], "w") as out:
        for line in source:
            gnubg.command("set gnubgid " + line.strip())
            gnubg.command("set jacoby off")
            board, cube = gnubg.board(), gnubg.cubeinfo()
            _, no_double, double_take, double_pass, _, verdict = gnubg.cfevaluate(
                board, cube, gnubg.evalcontext(1, plies, 0, 1, 0.0)
            )
            chances = gnubg.evaluate(board, cube, gnubg.evalcontext(0, plies, 0, 1, 0.0))[:5]
            numbers = (no_double, double_take, double_pass, *chances)
            out.write("\t".join("%.5f" % x for x in numbers) + "\t" + verdict + "\n")
            out.flush()
    print("@@ DONE")


main()
